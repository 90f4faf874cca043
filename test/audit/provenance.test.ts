// Provenance and privacy of `lucid audit`, as a user runs it: audit.json and the report
// state the data file's SHA-256 (as sha256sum gives it) and row count, the model file's SHA-256, the
// tool version (package.json's), the command line and every seed; with --suppress-below 5 a protected
// group of 3 people shows no rate, count of positives or interval in any output (report.html,
// audit.json, metrics.{csv,json}, metrics-intersection.{csv,json}, stdout) and is never flagged or passed.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AuditResult } from '../../src/audit/types.js';
import { groupMetrics, METRICS, type MetricsReport } from '../../src/methods/metrics/index.js';
import { writeCsv } from '../../src/node/csv.js';
import { loadModel } from '../../src/node/model-file.js';
import { escapeHtml } from '../../src/report/format.js';
import { commandLine, shellQuote } from '../../src/report/provenance.js';
import { getEngine } from '../helpers/engine.js';
import { lucidCli, simModelDir } from '../helpers/sim-model.js';
import { cat, table } from '../helpers/tables.js';

const lucid = lucidCli();
const fx = simModelDir('lucid-provenance-');
const sha256sum = (file: string) =>
  createHash('sha256')
    .update(new Uint8Array(readFileSync(file)))
    .digest('hex');
const VERSION = (
  JSON.parse(readFileSync(fileURLToPath(new URL('../../../package.json', import.meta.url)), 'utf8')) as {
    version: string;
  }
).version;

it('shellQuote: bare when safe, single-quoted otherwise, quotes inside escaped', () => {
  assert.equal(shellQuote('--data'), '--data');
  assert.equal(shellQuote('age=17,30,50'), 'age=17,30,50');
  assert.equal(shellQuote('>50K'), "'>50K'");
  assert.equal(shellQuote('my file.csv'), "'my file.csv'");
  assert.equal(shellQuote("it's"), "'it'\\''s'");
  assert.equal(shellQuote(''), "''");
  assert.equal(commandLine(['audit', '--positive', '>50K']), "lucid audit --positive '>50K'");
});

describe('lucid audit: provenance and --suppress-below', () => {
  it(
    'states the hashes, version, command line and seeds; a group of 3 shows no figure anywhere with ' +
      '--suppress-below 5',
    async () => {
      const engine = await getEngine();
      // a protected "region": Z holds 3 people, 2 of whom the model scores positive (positivity 2/3)
      const model = await loadModel(engine, fx.modelFile, { warn: () => {} });
      const p = model.predictProba(engine, fx.table);
      model.dispose();
      const pos = [...p.keys()].filter((i) => p[i] > 0.5).slice(0, 2);
      const neg = [...p.keys()].filter((i) => p[i] <= 0.5).slice(0, 1);
      const zRows = new Set([...pos, ...neg]);
      assert.equal(zRows.size, 3);
      const region = Array.from({ length: fx.table.rows }, (_, i) => (zRows.has(i) ? 'Z' : i % 2 ? 'N' : 'S'));
      const t = table(...fx.table.columns, cat('region', region));
      const file = join(fx.dir, 'region.csv');
      await writeCsv(file, t);
      // without suppression Z has its rate (so the checks below could fail)
      const scored = { rows: t.rows, columns: [...t.columns, { kind: 'numeric' as const, name: 'p', values: p }] };
      const plain = groupMetrics(scored, {
        label: 'approved',
        positive: 'yes',
        pred: 'p',
        predAs: 'scores',
        groups: ['region'],
        minGroupSize: 2,
      });
      assert.equal(plain.attributes[0].groups.find((g) => g.value === 'Z')!.positivity_rate, 2 / 3);
      const LEAKS = ['66.7', '0.6666'];

      const out = join(fx.dir, 'audit');
      const argv = [
        'audit',
        '--data',
        file,
        '--label',
        'approved',
        '--positive',
        'yes',
        '--protected',
        'sex,region',
        '--model',
        fx.modelFile,
        '--min-group',
        '2',
        '--suppress-below',
        '5',
        '--seed',
        '5',
        '--gan-epochs',
        '3',
        '-n',
        '150',
        '--intersection-rows',
        '40',
        '--fale-bootstrap',
        '2',
        '--quiet',
        '--out',
        out,
      ];
      const r = lucid(...argv);
      assert.equal(r.status, 0, r.stderr);
      const a = JSON.parse(readFileSync(join(out, 'audit.json'), 'utf8')) as AuditResult;
      const html = readFileSync(join(out, 'report.html'), 'utf8');

      // ── provenance ──
      assert.equal(a.meta.data.sha256, sha256sum(file));
      assert.equal(a.meta.data.bytes, statSync(file).size);
      assert.equal(a.meta.data.rows, fx.table.rows);
      assert.equal(a.meta.model.sha256, sha256sum(fx.modelFile));
      assert.equal(a.meta.version, VERSION);
      assert.deepEqual(a.meta.command, { via: 'cli', argv });
      const seeds = a.meta.seeds;
      assert.equal(seeds.audit, 5);
      assert.deepEqual(
        Object.keys(seeds)
          .filter((k) => /\(training\)$/.test(k))
          .map((k) => seeds[k]),
        a.meta.gan.seeds,
      );
      assert.equal(seeds['FALE bootstrap'], 12);
      assert.equal(seeds['LUCID (uniform start and descent)'], 5);
      assert.equal(typeof seeds['checks against the real rows'], 'number');
      assert.equal(typeof seeds['group metrics (calibration intervals)'], 'number');
      assert.ok(Object.keys(seeds).some((k) => /^main canonical sets, positive set, GAN 3, draw round 1$/.test(k)));
      assert.ok(
        Object.keys(seeds).some((k) =>
          /^intersection-sex=(Female|Male)-region=Z, negative set, GAN 1, draw round 1$/.test(k),
        ),
        Object.keys(seeds)
          .filter((k) => k.startsWith('intersection'))
          .join(' | '),
      );
      assert.equal(a.meta.suppressBelow, 5);
      for (const s of [
        a.meta.data.sha256!,
        a.meta.model.sha256!,
        `lucid-wasm ${VERSION}`,
        escapeHtml(commandLine(argv)),
        '>Provenance<',
      ])
        assert.ok(html.includes(s), s);
      for (const [k, v] of Object.entries(seeds))
        assert.ok(html.includes(`<td class="l">${escapeHtml(k)}</td><td>${v}</td>`), `seed ${k} in the report`);

      // ── suppression: Z's figures in no output ──
      // JSON: every record of Z or of a Z cell, and every entry keyed by one, holds no figure
      const isZ = (v: unknown) => typeof v === 'string' && /^(Z|.*, Z)$/.test(v);
      const FIGURES = [
        'tp',
        'fp',
        'tn',
        'fn',
        'rate',
        'ratio',
        'difference',
        'impactRatio',
        'ece',
        'counts',
        'interval',
        'ci',
        ...METRICS,
      ];
      const noFigure = (v: unknown) =>
        v === null || v === undefined || (typeof v === 'object' && Object.values(v as object).every((x) => x === null));
      const walk = (o: unknown, where: string): number => {
        if (!o || typeof o !== 'object') return 0;
        let seen = 0;
        const rec = o as Record<string, unknown>;
        if (['value', 'group', 'category'].some((k) => isZ(rec[k])) && !('fix' in rec)) {
          seen++;
          for (const k of FIGURES)
            assert.ok(
              noFigure(rec[k]),
              `${where}: ${String(rec.value ?? rec.group ?? rec.category)}.${k} = ${JSON.stringify(rec[k])}`,
            );
        }
        for (const [k, v] of Object.entries(rec)) {
          if (isZ(k) && !Array.isArray(o)) assert.ok(noFigure(v), `${where}: ["${k}"] = ${JSON.stringify(v)}`);
          seen += walk(v, where);
        }
        return seen;
      };
      for (const f of ['audit.json', 'metrics.json', 'metrics-intersection.json'])
        assert.ok(walk(JSON.parse(readFileSync(join(out, f), 'utf8')), f) > 0, `${f} has Z's records`);
      // CSV: Z's rows keep n and say "suppressed", every figure empty
      for (const f of ['metrics.csv', 'metrics-intersection.csv']) {
        const lines = readFileSync(join(out, f), 'utf8').trim().split('\n');
        const head = lines[0].split(',');
        const zl = lines.slice(1).filter((l) => /^[^,]+,("[^"]*, Z"|Z),/.test(l));
        assert.ok(zl.length > 0, f);
        for (const l of zl) {
          const cells = l.match(/("[^"]*"|[^,]*)(,|$)/g)!.map((c) => c.replace(/,$/, ''));
          for (const k of ['tp', 'fp', 'tn', 'fn', ...METRICS])
            assert.equal(cells[head.indexOf(k)], '', `${f} ${l}: ${k}`);
          assert.equal(cells[head.indexOf('suppressed')], 'suppressed (n < 5)');
        }
      }
      // the report: the rows of Z and its cells in the metrics tables, and its heat-map cells, show no rate
      const zRowsHtml = html.match(/<tr[^>]*><td class="l">(Z|[^<]*, Z)<[\s\S]*?<\/tr>/g) ?? [];
      assert.ok(zRowsHtml.length >= 3, 'Z has rows in the report');
      for (const row of zRowsHtml)
        assert.deepEqual(
          LEAKS.filter((x) => row.includes(x)),
          [],
          row,
        );
      assert.ok(
        zRowsHtml.every((row) => !/<td>\d+\.\d%<\/td><td>\d+\.\d%<\/td>/.test(row)),
        'no run of rates in a Z row',
      );
      const zCells = html.match(/<g class="cell[^"]*"><title>[^<]*region = Z[:,][^<]*<\/title>/g) ?? []; // region in either the rows or the columns
      assert.ok(zCells.length >= 2);
      for (const c of zCells.filter((x) => /suppressed/.test(x))) assert.ok(!/\d%/.test(c), c);
      assert.ok(zCells.some((x) => /suppressed/.test(x)));
      // the CLI summary: no line about Z gives a figure
      for (const l of (r.stdout + r.stderr).split('\n').filter((x) => /\bZ\b/.test(x)))
        assert.deepEqual(
          LEAKS.filter((x) => l.includes(x)),
          [],
          l,
        );
      assert.match(r.stdout, /suppressed \(fewer than 5 people; no figure shown\): region = Z(;|\n)/);
      const zOf = (m: MetricsReport, column: string, value: string) =>
        m.attributes.find((x) => x.column === column)!.groups.find((g) => g.value === value)!;
      const z = zOf(a.metrics.attributes, 'region', 'Z');
      assert.deepEqual([z.n, z.suppressed, z.tp, z.fp, z.positivity_rate, z.tpr], [3, true, null, null, null, null]);
      // never flagged or passed: every comparison of Z (and of its cells) has too little data and no figure
      const zComparisons = [...a.metrics.attributes.attributes, ...(a.metrics.intersection?.attributes ?? [])]
        .flatMap((x) => x.comparisons)
        .filter((c) => /(^|, )Z$/.test(c.group));
      assert.ok(zComparisons.length >= 8);
      assert.ok(
        zComparisons.every((c) => c.verdict === 'too little data' && c.counts === null && c.rate === null),
        JSON.stringify(zComparisons[0]),
      );
      // the heat map: Z's cells have no rate and no real-row check; the canonical shift (generated rows) stays
      const h = a.intersections.find((x) => x.pair.join() === 'sex,region')!.heatmap;
      const cz = h.colValues.indexOf('Z');
      for (let i = 0; i < h.rowValues.length; i++) {
        if (h.n[i][cz] === 0) continue;
        assert.equal(h.selectionRate[i][cz], null);
        assert.ok(h.suppressed!.some(([x, y]) => x === i && y === cz));
        assert.equal(h.shiftStatus![i][cz], null);
        assert.equal(typeof h.canonicalShift![i][cz], 'number');
      }
      const zCellNames = h.rowValues.filter((_, i) => h.n[i][cz] > 0).map((v) => `${v} & Z`);
      assert.ok(zCellNames.length > 0);
      assert.ok(!a.checks.cells.some((c) => zCellNames.includes(c.value)), 'no real-row check of a suppressed cell');
      assert.ok(
        !a.checks.shifts.some((c) => c.feature === 'region' && c.value === 'Z'),
        'no real-row check of a suppressed group',
      );
      // no real-row series where they would count Z's people: region's charts, and every chart of a Z cell's sets
      assert.equal(a.canonical.distributions.find((d) => d.feature === 'region')!.series.length, 2);
      const zSets = a.intersections.flatMap((x) => x.sets).filter((s) => s.fix.some(([, v]) => v === 'Z'));
      assert.ok(zSets.length > 0);
      assert.ok(zSets.every((s) => s.distributions.every((d) => d.series.length === 2)));
      // what the report shows in their place
      assert.match(
        html,
        /Z<span class="badge small">⚠ suppressed<\/span><\/td><td>3<\/td><td class="l muted" colspan="\d+">suppressed \(n &lt; 5\)<\/td>/,
      );
      assert.match(html, />suppressed<\/text>/, 'the heat map says "suppressed" in the cell');
    },
  );
});
