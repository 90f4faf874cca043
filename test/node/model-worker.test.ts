// A JS-module model runs in a worker thread (src/node/model-host.ts): a model that hangs (a promise
// that never settles, a synchronous endless loop, top-level code that never finishes) is stopped
// after --model-timeout and the command fails with one line and exit code 1; a model that throws
// or ends its thread fails with one line too; a working model gives byte-identical predictions to
// the in-process adapter (moduleBlackBox), with the same rows and batches. And the one guard in
// src/cli/main.ts: no command exits 0 without a result (a promise that never settles is exit 1).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { EngineError } from '../../src/engine/errors.js';
import { fale, FALE_DEFAULTS } from '../../src/methods/fale/index.js';
import { METRICS_DEFAULTS } from '../../src/methods/metrics/index.js';
import { asModelModule, moduleBlackBox, type BlackBox } from '../../src/models/blackbox.js';
import { loadBlackBox } from '../../src/node/blackbox.js';
import { readCsv } from '../../src/node/csv.js';
import { getEngine } from '../helpers/engine.js';
import { lucidCli, simModelDir } from '../helpers/sim-model.js';

const lucid = lucidCli();
const fx = simModelDir('lucid-model-worker-');
const example = (f: string) => new URL(`../../../examples/${f}`, import.meta.url).pathname;

/** Writes a model module into the fixture folder and returns its path. */
const write = (name: string, text: string): string => {
  const f = join(fx.dir, name);
  writeFileSync(f, text);
  return f;
};
const MODULES = {
  'hang.mjs': 'export function predict(rows) { return new Promise(() => {}); }\n',
  'loop.mjs': 'export function predict(rows) { for (;;) {} }\n',
  'top-loop.mjs': 'for (;;) {}\nexport const predict = (rows) => rows.map(() => 0.5);\n',
  'top-await.mjs': 'await new Promise(() => {});\nexport const predict = (rows) => rows.map(() => 0.5);\n',
  'throws.mjs': 'export function predict(rows) { throw new Error("weights not loaded\\nat line two"); }\n',
  'exits.mjs': 'export function predict(rows) { process.exit(3); }\n',
  'async-crash.mjs':
    'export function predict(rows) { setTimeout(() => { throw new TypeError("late failure"); }); return new ' +
    'Promise(() => {}); }\n',
  // a logistic score on two features, with the row contract in it: only the features, labels as strings
  'ok.mjs': [
    'export const features = ["income", "sex"];',
    'export function predict(rows) {',
    '  return rows.map((r) => {',
    '    if (Object.keys(r).join() !== "income,sex" || typeof r.sex !== "string" || typeof r.income !== "number") ' +
      'throw new Error("bad row " + JSON.stringify(r));',
    '    return (r.sex === "Female" ? 0.8 : 1) / (1 + Math.exp(-(r.income - 40) / 10));',
    '  });',
    '}',
    '',
  ].join('\n'),
  // each prediction says how many rows its call of predict had (the batching contract), async
  'batches.mjs': 'export const predict = async (rows) => new Float32Array(rows.length).fill(rows.length / 16384);\n',
};
const model = (name: keyof typeof MODULES) => write(name, MODULES[name]);

/** The common FALE arguments, one feature, a small model timeout. */
const faleArgs = (m: string, timeout = '2') => [
  'fale',
  '--model',
  m,
  '--data',
  fx.data,
  '--label',
  'approved',
  '--positive',
  'yes',
  '--protected',
  'sex=Female',
  '--feature',
  'income',
  '--model-timeout',
  timeout,
];
const auditArgs = (m: string, out: string) => [
  'audit',
  '--data',
  fx.data,
  '--label',
  'approved',
  '--positive',
  'yes',
  '--protected',
  'sex',
  '--model',
  m,
  '--model-timeout',
  '2',
  '--gan-epochs',
  '3',
  '-n',
  '150',
  '--intersection-rows',
  '0',
  '--fale-bootstrap',
  '0',
  '--quiet',
  '--out',
  out,
];

/** Runs the CLI; returns the result and the seconds it took. */
function timed(...args: string[]) {
  const t0 = performance.now();
  const r = lucid(...args);
  return { ...r, seconds: (performance.now() - t0) / 1000 };
}

/** Exit 1 with exactly one line on stderr matching `re`, and nothing on stdout. */
function failsWithOneLine(r: ReturnType<typeof timed>, re: RegExp): void {
  assert.equal(r.status, 1, r.stderr);
  assert.equal(r.stdout, '');
  const lines = r.stderr.split('\n').filter((l) => l !== '');
  assert.equal(lines.length, 1, r.stderr);
  assert.match(lines[0], re);
}

const timeoutLine = (file: string, s: string) =>
  new RegExp(
    `^lucid: error: .*${file.replace('.', '\\.')}: the model did not answer within ${s} s \\(predict on \\d+ rows\\) ` +
      `and was stopped; .*never settles; if it is only slow, raise the limit with --model-timeout <seconds>$`,
  );

describe('a JS-module model that hangs is stopped (--model-timeout)', () => {
  it(
    '(a) predict returns a promise that never settles: ' + 'lucid fale exits 1 with the timeout line after about 2 s',
    () => {
      const r = timed(...faleArgs(model('hang.mjs')));
      failsWithOneLine(r, timeoutLine('hang.mjs', '2'));
      assert.ok(r.seconds < 15, `took ${r.seconds} s`);
    },
  );

  it(
    '(a) predict returns a promise that never settles: lucid audit exits 1 with the timeout line, and writes no ' +
      'report',
    () => {
      const out = join(fx.dir, 'audit-hang');
      const r = timed(...auditArgs(model('hang.mjs'), out));
      failsWithOneLine(r, timeoutLine('hang.mjs', '2'));
      assert.ok(r.seconds < 15, `took ${r.seconds} s`);
      assert.ok(!existsSync(join(out, 'report.html')));
    },
  );

  it(
    '(b) predict is a synchronous endless loop: lucid fale ' +
      'exits 1 with the timeout line (the worker is terminated)',
    () => {
      const r = timed(...faleArgs(model('loop.mjs'), '1.5'));
      failsWithOneLine(r, timeoutLine('loop.mjs', '1.5'));
      assert.ok(r.seconds < 15, `took ${r.seconds} s`);
    },
  );

  it('(b) lucid quality --model takes --model-timeout too', () => {
    const r = timed(
      'quality',
      '--real',
      fx.data,
      '--synthetic',
      fx.data,
      '--model',
      model('loop.mjs'),
      '--condition',
      'preds=1',
      '--model-timeout',
      '1',
    );
    failsWithOneLine(r, timeoutLine('loop.mjs', '1'));
  });

  it(
    'a module whose top-level code never finishes: an endless loop "did not load within"; a top-level await that ' +
      'never settles, said at once',
    () => {
      failsWithOneLine(
        timed(...faleArgs(model('top-loop.mjs'), '1')),
        /top-loop\.mjs: the model did not load within 1 s \(its top-level code did not finish\) and was stopped; .*--model-timeout <seconds>$/,
      );
      const r = timed(...faleArgs(model('top-await.mjs'), '30'));
      failsWithOneLine(
        r,
        /^lucid: error: .*top-await\.mjs: cannot load the module: its top-level code awaits a promise that never settles$/,
      );
      assert.ok(r.seconds < 15, `took ${r.seconds} s`);
    },
  );

  it(
    '--model-timeout must be a positive number (usage error, ' +
      'exit 2), and is in the help of audit, fale and quality',
    () => {
      for (const bad of ['0', '-1', 'soon', '']) {
        const r = lucid(...faleArgs(model('ok.mjs'), bad));
        assert.equal(r.status, 2, `${bad}: ${r.stderr}`);
        assert.match(r.stderr, /--model-timeout.*expected a positive number of seconds/);
      }
      for (const cmd of ['audit', 'fale', 'quality']) {
        const r = lucid(cmd, '--help');
        assert.equal(r.status, 0, r.stderr);
        assert.match(r.stdout, /--model-timeout <seconds>[\s\S]*worker[\s\S]*\(default: 60\)/, cmd);
      }
    },
  );
});

describe('a JS-module model that throws or ends its thread gives one line, exit 1', () => {
  it('(c) predict throws: "predict threw: <first line>"', () => {
    const r = timed(...faleArgs(model('throws.mjs')));
    failsWithOneLine(r, /^lucid: error: .*throws\.mjs: predict threw: weights not loaded$/);
  });

  it('(c) predict calls process.exit: the worker ended, said with its exit code', () => {
    failsWithOneLine(
      timed(...faleArgs(model('exits.mjs'))),
      /^lucid: error: .*exits\.mjs: the model ended its worker thread \(exit code 3\) during predict on \d+ rows; predict must return its predictions, not exit$/,
    );
  });

  it(
    '(c) an uncaught error in the worker (a timer of the ' + 'model throws): the worker crashed, said with the error',
    () => {
      failsWithOneLine(
        timed(...faleArgs(model('async-crash.mjs'), '20')),
        /^lucid: error: .*async-crash\.mjs: the model crashed its worker thread during predict on \d+ rows: uncaught TypeError: late failure$/,
      );
    },
  );

  it('bad modules keep their load messages (no predict, syntax error, TypeScript)', async () => {
    const engine = await getEngine();
    const rejectsWith = (f: string, re: RegExp) =>
      assert.rejects(
        loadBlackBox(engine, f),
        (e: unknown) => e instanceof EngineError && e.code === 'E_INPUT' && re.test(e.message),
      );
    await rejectsWith(
      write('no-predict.mjs', 'export const score = 1;\n'),
      /no-predict\.mjs: the module does not export a function "predict" \(its exports: score\)/,
    );
    await rejectsWith(
      write('syntax.mjs', 'export function predict(rows) { return rows.map(( }\n'),
      /syntax\.mjs: cannot load the module: SyntaxError/,
    );
    await rejectsWith(
      write('model.ts', 'export function predict(rows: unknown[]): number[] { return rows.map(() => 0.5); }\n'),
      /model\.ts: Node cannot import TypeScript directly/,
    );
    await rejectsWith(
      write('features.mjs', 'export const features = [];\nexport const predict = (r) => r.map(() => 0.5);\n'),
      /features\.mjs: the export "features" must be a non-empty array/,
    );
  });

  it('after a timeout the black box stays failed: the next call fails at once with the same error', async () => {
    const engine = await getEngine();
    const { table } = await readCsv(fx.data, {});
    const m = await loadBlackBox(engine, model('hang.mjs'), { modelTimeout: 0.5 });
    const first = await m.predict(table).then(
      () => null,
      (e: unknown) => e,
    );
    assert.ok(first instanceof EngineError && first.code === 'E_INPUT', String(first));
    assert.match(first.message, /hang\.mjs: the model did not answer within 0\.5 s \(predict on 1200 rows\)/);
    const t0 = performance.now();
    await assert.rejects(m.predict(table), (e: unknown) => e === first);
    assert.ok(performance.now() - t0 < 200);
  });
});

describe('(d) a working JS-module model in the worker: the same predictions as in-process', () => {
  /** The black box as it was loaded before the worker: imported into this thread. */
  const inProcess = async (file: string, batchSize?: number): Promise<BlackBox> =>
    moduleBlackBox(asModelModule(await import(pathToFileURL(file).href), file), file, { batchSize });
  const bytes = (p: Float64Array) => Array.from(new Uint8Array(p.buffer, p.byteOffset, p.byteLength));

  it('byte-identical predictions and the same features (a module with features, the examples)', async () => {
    const engine = await getEngine();
    const { table } = await readCsv(fx.data, {});
    for (const file of [model('ok.mjs'), example('tree-ensemble.mjs'), example('logistic-model.mjs')]) {
      const box = await loadBlackBox(engine, file);
      const ref = await inProcess(file);
      assert.equal(box.kind, 'module');
      assert.equal(box.source, file);
      assert.deepEqual(box.features, ref.features, file);
      const a = await box.predict(table).catch((e: unknown) => e);
      const b = await ref.predict(table).catch((e: unknown) => e);
      if (b instanceof Error) {
        // same failure, same message (e.g. a column the data lacks)
        assert.ok(a instanceof EngineError, `${file}: ${String(a)}`);
        assert.equal(a.message, b.message);
        continue;
      }
      assert.ok(a instanceof Float64Array && b instanceof Float64Array);
      assert.equal(a.length, table.rows);
      assert.deepEqual(bytes(a), bytes(b), `${file}: predictions differ`);
    }
  });

  it('the same batches (8192 rows by default, batchSize) and the same message for a later batch', async () => {
    const engine = await getEngine();
    const { table } = await readCsv(fx.data, {});
    const file = model('batches.mjs');
    const p = await (await loadBlackBox(engine, file, { batchSize: 500 })).predict(table);
    // each prediction is its call's row count / 16384: calls of 500, 500 and 200 rows
    assert.deepEqual(
      [p[0], p[499], p[500], p[999], p[1000], p[1199]].map((v) => Math.round(v * 16384)),
      [500, 500, 500, 500, 200, 200],
    );
    assert.deepEqual(bytes(p), bytes(await (await inProcess(file, 500)).predict(table)));
    assert.equal(Math.round((await (await loadBlackBox(engine, file)).predict(table))[0] * 16384), 1200);
    const later = write(
      'later.mjs',
      'let calls = 0;\nexport function predict(rows) { if (++calls === 2) throw new Error("timeout"); return ' +
        'rows.map(() => 0.5); }\n',
    );
    await assert.rejects(
      (await loadBlackBox(engine, later, { batchSize: 500 })).predict(table),
      /^EngineError: .*later\.mjs: predict threw \(rows 501–1000\): timeout$/,
    );
    const lacks = write(
      'lacks.mjs',
      'export const features = ["salary"];\nexport const predict = (r) => r.map(() => 0.5);\n',
    );
    await assert.rejects(
      (await loadBlackBox(engine, lacks)).predict(table),
      /lacks\.mjs: the data lacks the column "salary"; the columns are: age, sex, /,
    );
    const nan = write('nan.mjs', 'export const predict = (rows) => rows.map((r, i) => (i % 100 === 7 ? NaN : 0.5));\n');
    await assert.rejects(
      (await loadBlackBox(engine, nan)).predict(table),
      /nan\.mjs: predict: the prediction is NaN at rows 8, 108, 208, 308, 408, … \(12 rows in all\)/,
    );
  });

  it('lucid fale on the module exits 0 and writes what fale gives in-process', async () => {
    const file = model('ok.mjs');
    const r = lucid(...faleArgs(file), '--format', 'json');
    assert.equal(r.status, 0, r.stderr);
    const { table } = await readCsv(fx.data, {});
    const expected = await fale(table, await inProcess(file), {
      label: 'approved',
      positive: 'yes',
      favourable: 'positive',
      minGroupSize: METRICS_DEFAULTS.minGroupSize,
      protected: [{ column: 'sex', value: 'Female' }],
      metric: FALE_DEFAULTS.metric,
      features: ['income'],
      bins: FALE_DEFAULTS.bins,
      minBin: FALE_DEFAULTS.minBin,
      weighted: false,
      threshold: FALE_DEFAULTS.threshold,
      bootstrap: 0,
    });
    assert.deepEqual(JSON.parse(r.stdout), JSON.parse(JSON.stringify(expected)));
  });

  it('lucid audit on the module exits 0 and writes the report', () => {
    const out = join(fx.dir, 'audit-ok');
    const r = lucid(...auditArgs(model('ok.mjs'), out), '--format', 'json');
    assert.equal(r.status, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).report, join(out, 'report.html'));
  });
});

describe('no command exits 0 without a result (src/cli/no-result.ts, wired in main.ts)', () => {
  const guard = new URL('../../src/cli/no-result.js', import.meta.url).href;
  const run = (work: string) =>
    spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const { guardResult } = await import(${JSON.stringify(guard)}); guardResult(${work}, () => 'model predict');`,
      ],
      { encoding: 'utf8' },
    );

  it('a command promise that never settles: one error line, exit 1', () => {
    const r = run('new Promise(() => {})');
    assert.equal(r.status, 1, r.stderr);
    assert.equal(
      r.stderr,
      'lucid: error: model predict stopped without a result: a promise never settled (a model that never answers?)\n',
    );
  });

  it('a command that settles exits 0 with nothing said, even when it settles late', () => {
    const r = run('new Promise((resolve) => setTimeout(resolve, 200))');
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr, '');
  });

  it('--help and --version still exit 0', () => {
    for (const args of [
      ['--help'],
      ['--version'],
      ['fale', '--help'],
      ['model', '--help'],
      ['model', 'predict', '--help'],
    ]) {
      const r = lucid(...args);
      assert.equal(r.status, 0, `${args.join(' ')}: ${r.stderr}`);
      assert.ok(r.stdout.length > 0);
    }
  });
});
