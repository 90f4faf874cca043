// A fuzzed corpus. 200 broken inputs made from seeds (truncations, byte flips, random
// delimiters and quotes, huge fields, mixed encodings, NaN and Inf in the label and the predictions,
// ragged rows) go through inspect, metrics and audit in-process — the same entry points the commands
// call and the same error handler (describeError) — and 20 of them through the real CLI. Every case
// must end as a one-line error with a non-zero exit, or as a result with its warnings: no stack trace,
// no internal error, no hang, no exit 0 without a result.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simulate } from '../../src/data/simulator.js';
import { inspectTable } from '../../src/data/inspect.js';
import { Rng } from '../../src/engine/rng.js';
import { groupMetrics } from '../../src/methods/metrics/index.js';
import { describeError } from '../../src/cli/handle-error.js';
import { auditFile } from '../../src/node/audit.js';
import { readCsv, requireClean } from '../../src/node/csv.js';
import { tableToCsv } from '../../src/data/csv-write.js';
import { getEngine } from '../helpers/engine.js';
import { LUCID_BIN } from '../helpers/sim-model.js';

const dir = mkdtempSync(join(tmpdir(), 'lucid-fuzz-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A small seeded generator (the corpus must be the same every run). */
function lcg(seed: number) {
  let s = (seed * 2654435761) >>> 0 || 1;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 4294967296;
}

const KINDS = ['truncate', 'flip', 'delimiter', 'quote', 'huge', 'latin1', 'nan-inf', 'ragged'] as const;
type Kind = (typeof KINDS)[number];

/** One broken file from the clean `base` text. */
function mutate(base: string, kind: Kind, seed: number): Uint8Array {
  const r = lcg(seed * 31 + KINDS.indexOf(kind));
  const enc = new TextEncoder();
  const lines = base.split('\n');
  const pick = (n: number) => Math.floor(r() * n);
  switch (kind) {
    case 'truncate': {
      const b = enc.encode(base);
      return b.subarray(0, pick(b.length));
    }
    case 'flip': {
      const b = Uint8Array.from(enc.encode(base));
      for (let k = 0; k < 1 + pick(8); k++) b[pick(b.length)] = pick(256);
      return b;
    }
    case 'delimiter': {
      const d = [';', '\t', '|', ' '][pick(4)];
      for (let k = 0; k < 1 + pick(5); k++) {
        const i = pick(lines.length);
        lines[i] = lines[i].replaceAll(',', d);
      }
      return enc.encode(lines.join('\n'));
    }
    case 'quote': {
      for (let k = 0; k < 1 + pick(4); k++) {
        const i = pick(lines.length);
        const j = pick(lines[i].length + 1);
        lines[i] = lines[i].slice(0, j) + '"' + lines[i].slice(j);
      }
      return enc.encode(lines.join('\n'));
    }
    case 'huge': {
      const i = 1 + pick(lines.length - 2);
      const cells = lines[i].split(',');
      const big = 'x'.repeat([300, 70_000, 1_200_000][pick(3)]);
      cells[pick(cells.length)] = r() < 0.5 ? big : `"${big}"`;
      lines[i] = cells.join(',');
      return enc.encode(lines.join('\n'));
    }
    case 'latin1': {
      const b = Array.from(enc.encode(base));
      for (let k = 0; k < 1 + pick(3); k++) b.splice(pick(b.length), 0, [0xe9, 0xfc, 0xa3, 0xff][pick(4)]);
      return Uint8Array.from(b);
    }
    case 'nan-inf': {
      const header = lines[0].split(',');
      const col = [header.indexOf('approved'), header.indexOf('score')][pick(2)];
      for (let k = 0; k < 1 + pick(4); k++) {
        const i = 1 + pick(lines.length - 2);
        const cells = lines[i].split(',');
        cells[col] = ['NaN', 'Infinity', '-inf', '1e999', 'nan', '-1', '2'][pick(7)];
        lines[i] = cells.join(',');
      }
      return enc.encode(lines.join('\n'));
    }
    case 'ragged': {
      for (let k = 0; k < 1 + pick(4); k++) {
        const i = pick(lines.length);
        lines[i] = r() < 0.5 ? lines[i] + ',extra' : lines[i].split(',').slice(0, -1).join(',');
      }
      if (r() < 0.3) lines.splice(1 + pick(lines.length - 1), 0, lines[0]); // a repeated header
      return enc.encode(lines.join('\n'));
    }
  }
}

interface Outcome {
  kind: 'result' | 'error';
  text: string;
}

/** Runs `f`; an error becomes what the CLI prints (describeError) and must be one clear line. */
async function outcome(f: () => Promise<unknown>, limitMs: number): Promise<Outcome> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>(
    (_, rej) => (timer = setTimeout(() => rej(new Error(`no answer within ${limitMs} ms`)), limitMs)),
  );
  try {
    const v = await Promise.race([f(), hang]);
    assert.ok(v !== undefined && v !== null, 'a result');
    return { kind: 'result', text: '' };
  } catch (e) {
    const { text, exit } = describeError(e);
    return { kind: exit === 0 ? 'result' : 'error', text };
  } finally {
    clearTimeout(timer);
  }
}

function checkError(o: Outcome, what: string): void {
  if (o.kind !== 'error') return;
  assert.ok(o.text.startsWith('lucid: error: '), `${what}: not a clear error: ${o.text.slice(0, 300)}`);
  assert.equal(o.text.trim().split('\n').length, 1, `${what}: more than one line: ${o.text.slice(0, 300)}`);
  assert.ok(o.text.length < 2000, `${what}: an error of ${o.text.length} characters`);
}

test(
  'fuzzed corpus: 200 broken inputs through inspect, ' + 'metrics and audit (in-process), 20 through the CLI',
  async (t) => {
    const engine = await getEngine();
    const sim = simulate(new Rng(engine, 5), { n: 150, bias: 'direct' });
    const p = simulate(new Rng(engine, 6), { n: 150, bias: 'direct' }).truth.probability;
    const base = tableToCsv({
      rows: sim.table.rows,
      columns: [
        ...sim.table.columns,
        { kind: 'numeric', name: 'score', values: p.map((x) => Math.round(x * 1000) / 1000) },
      ],
    });
    const files: string[] = [];
    for (const kind of KINDS) {
      for (let seed = 0; seed < 25; seed++) {
        const f = join(dir, `${kind}-${seed}.csv`);
        writeFileSync(f, mutate(base, kind, seed));
        files.push(f);
      }
    }
    assert.equal(files.length, 200);
    const counts = {
      inspect: { result: 0, error: 0 },
      metrics: { result: 0, error: 0 },
      audit: { result: 0, error: 0 },
    };
    const t0 = Date.now();
    for (const f of files) {
      const ins = await outcome(async () => {
        const { table, report } = await readCsv(f);
        return inspectTable(table, report);
      }, 20_000);
      checkError(ins, `inspect ${f}`);
      counts.inspect[ins.kind]++;
      const met = await outcome(async () => {
        const { table, report } = await readCsv(f);
        requireClean(report, ['approved', 'score', 'sex', 'group'], 'the label, prediction or --group');
        return groupMetrics(table, { label: 'approved', positive: 'yes', pred: 'score', groups: ['sex', 'group'] });
      }, 20_000);
      checkError(met, `metrics ${f}`);
      counts.metrics[met.kind]++;
      // the audit only where the metrics ran (a file the reader refuses is refused the same way there)
      if (met.kind === 'result') {
        const aud = await outcome(
          () =>
            auditFile(engine, {
              data: f,
              label: 'approved',
              positive: 'yes',
              protected: ['sex', 'group'],
              pred: 'score',
              ganEpochs: 1,
              ganSeeds: 1,
              n: 30,
              intersectionRows: 0,
              faleBootstrap: 0,
              seed: 0,
            }),
          30_000,
        );
        checkError(aud, `audit ${f}`);
        counts.audit[aud.kind]++;
      } else {
        counts.audit.error++;
      }
    }
    const seconds = (Date.now() - t0) / 1000;
    t.diagnostic(`fuzz corpus (${files.length} files, ${seconds.toFixed(1)} s): ${JSON.stringify(counts)}`);
    assert.ok(seconds < 90, `the corpus took ${seconds} s`);
    // both endings occur: the corpus is neither all clean nor all refused
    assert.ok(counts.inspect.error > 20 && counts.inspect.result > 20, JSON.stringify(counts));

    // 20 of them through the real CLI: the exit code, one stderr line, no stack trace, output on success
    for (const f of files.filter((_, i) => i % 10 === 0)) {
      const r = spawnSync(
        process.execPath,
        [
          LUCID_BIN,
          'metrics',
          '--data',
          f,
          '--label',
          'approved',
          '--positive',
          'yes',
          '--pred',
          'score',
          '--group',
          'sex',
          '--format',
          'json',
        ],
        { encoding: 'utf8', timeout: 30_000 },
      );
      assert.notEqual(r.status, null, `${f}: the CLI did not end`);
      if (r.status === 0) assert.ok(JSON.parse(r.stdout).attributes.length > 0, `${f}: exit 0 without a result`);
      else {
        const errs = r.stderr.split('\n').filter((l) => l.startsWith('lucid: error: '));
        assert.equal(errs.length, 1, `${f}: ${r.stderr.slice(0, 300)}`);
        assert.doesNotMatch(r.stderr, /\n\s+at |internal error/, `${f}: ${r.stderr.slice(0, 300)}`);
        assert.equal(r.stdout, '');
      }
    }
  },
);
