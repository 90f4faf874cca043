// GAN seeds side by side (EXPERIMENTS.md §12.8): the waves, the same generators and
// sets byte for byte as one seed after another (in the audit and through the CLI), a stop request that
// reaches the workers, and a worker's error as one line with its code.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Engine } from '../../src/engine/engine.js';
import { EngineError } from '../../src/engine/errors.js';
import { Rng } from '../../src/engine/rng.js';
import { simulate } from '../../src/data/simulator.js';
import { Classifier } from '../../src/models/classifier/classifier.js';
import { builtinBlackBox } from '../../src/models/blackbox.js';
import { GAN_FORMAT } from '../../src/models/lucidgan/format.js';
import { runAudit, type AuditOptions } from '../../src/audit/run.js';
import {
  GanWorkerPool,
  sideBySide,
  type GanJob,
  type GanWorkerEndpoint,
  type ToGanHost,
  type ToGanWorker,
} from '../../src/audit/gan-workers.js';
import type { AuditResult } from '../../src/audit/types.js';
import { NodeGanWorkers } from '../../src/node/gan-workers.js';
import { getEngine } from '../helpers/engine.js';
import { lucidCli, simModelDir } from '../helpers/sim-model.js';

describe('sideBySide: which seeds train in workers', () => {
  it("whole waves of the workers (at most the seeds), the rest left to the audit's engine", () => {
    assert.deepEqual(sideBySide(3, 2), [[0, 1]]);
    assert.deepEqual(sideBySide(3, 4), [[0, 1, 2]]);
    assert.deepEqual(sideBySide(4, 2), [
      [0, 1],
      [2, 3],
    ]);
    assert.deepEqual(sideBySide(5, 2), [
      [0, 1],
      [2, 3],
    ]);
    assert.deepEqual(sideBySide(2, 8), [[0, 1]]);
    // one seed, or one worker: nothing side by side
    assert.deepEqual(sideBySide(1, 4), []);
    assert.deepEqual(sideBySide(3, 1), []);
  });
});

describe('GanWorkerPool over any worker API', () => {
  /** a fake worker: answers a job by `reply`, or dies */
  const fake = (log: string[], reply: (m: ToGanWorker) => ToGanHost | 'die') => (): GanWorkerEndpoint => {
    let onMessage: ((m: ToGanHost) => void) | null = null;
    let onFailure: ((e: Error) => void) | null = null;
    const id = log.filter((l) => l.startsWith('spawn')).length;
    log.push(`spawn ${id}`);
    return {
      post: (m) =>
        queueMicrotask(() => {
          const r = reply(m);
          if (r === 'die') onFailure?.(new Error('the worker exited (code 1)'));
          else onMessage?.(r);
        }),
      listen: (m, f) => {
        onMessage = m;
        onFailure = f;
      },
      busy: (b) => void log.push(`busy ${id} ${b}`),
      terminate: () => void log.push(`terminate ${id}`),
    };
  };
  const job: GanJob = { table: { rows: 0, columns: [] }, fit: { conditions: [] } };

  it('reuses an idle worker, keeps the process alive only while one works, and closes them all', async () => {
    const log: string[] = [];
    const pool = new GanWorkerPool(
      2,
      fake(log, () => ({ type: 'result', result: { json: {}, status: 'done' } })),
    );
    await pool.train(job, () => {});
    await pool.train(job, () => {});
    assert.deepEqual(log, ['spawn 0', 'busy 0 true', 'busy 0 false', 'busy 0 true', 'busy 0 false']);
    pool.close();
    assert.deepEqual(log.slice(-1), ['terminate 0']);
    await assert.rejects(
      pool.train(job, () => {}),
      /used after close/,
    );
  });

  it('a worker that dies fails its job with one line and is not reused; an error reply keeps its code', async () => {
    const log: string[] = [];
    let n = 0;
    const pool = new GanWorkerPool(
      1,
      fake(log, () => (n++ === 0 ? 'die' : { type: 'error', failure: { code: 'E_INPUT', message: 'data.csv: bad' } })),
    );
    await assert.rejects(
      pool.train(job, () => {}),
      /a GAN training worker failed before it finished: the worker exited \(code 1\)$/,
    );
    assert.ok(log.includes('terminate 0'), 'the dead worker is let go');
    await assert.rejects(
      pool.train(job, () => {}),
      (e: unknown) => e instanceof EngineError && e.code === 'E_INPUT' && e.message === 'data.csv: bad',
    );
    assert.ok(log.includes('spawn 1'), 'a new worker for the next job');
    pool.close();
  });
});

describe('audit: GAN seeds side by side', () => {
  let engine: Engine;
  let clf: Classifier;
  let base: AuditOptions;
  const data = () => simulate(new Rng(engine, 21), { n: 900, bias: 'proxy' }).table;
  const workers: NodeGanWorkers[] = [];
  const pool = (size: number) => {
    const w = new NodeGanWorkers(size);
    workers.push(w);
    return w;
  };
  before(async () => {
    engine = await getEngine();
    clf = Classifier.train(engine, simulate(new Rng(engine, 20), { n: 900, bias: 'proxy' }).table, {
      label: 'approved',
      positive: 'yes',
      hidden: [],
      epochs: 10,
      valFraction: 0,
      seed: 1,
    }).model;
    base = {
      label: 'approved',
      positive: 'yes',
      protected: ['sex'],
      model: builtinBlackBox(engine, clf, 'model'),
      seed: 5,
      ganSeeds: 3,
      ganEpochs: 3,
      n: 120,
      intersectionRows: 30,
      faleBootstrap: 0,
      lucidEpochs: 5,
    };
  });
  after(() => {
    for (const w of workers) w.close();
    clf.dispose();
  });
  /** an audit's result without its timings */
  const figures = (r: AuditResult) =>
    JSON.stringify({ ...r, meta: { ...r.meta, timings: undefined, created: undefined } });

  it('gives the same generators and the same result as one seed after another, byte for byte', async () => {
    const one = await runAudit(engine, data(), base);
    const two = await runAudit(engine, data(), { ...base, ganWorkers: pool(2) });
    const three = await runAudit(engine, data(), { ...base, ganWorkers: pool(3) });
    assert.equal(figures(two), figures(one));
    assert.equal(figures(three), figures(one));
  });

  it('reports every epoch of every seed, so the progress reaches 1 and never goes back', async () => {
    const seen: number[] = [];
    await runAudit(engine, data(), {
      ...base,
      ganWorkers: pool(2),
      onProgress: (stage, f) => void (stage === 'gan' && seen.push(f)),
    });
    assert.equal(seen.at(-1), 1);
    for (let i = 1; i < seen.length; i++) assert.ok(seen[i] >= seen[i - 1], `progress ${seen[i - 1]} → ${seen[i]}`);
    assert.ok(seen.filter((f) => f > 0 && f < 1).length >= 3 * 3 - 1);
  });

  it('a stop request reaches the workers: their generators are cut short, kept, and the audit says so', async () => {
    let asks = 0;
    const start = Date.now();
    // true once the workers have trained for a while (the poll asks every 100 ms)
    const r = await runAudit(engine, data(), {
      ...base,
      ganEpochs: 400,
      ganWorkers: pool(2),
      shouldStop: () => ++asks > 3 && Date.now() - start > 1500,
    });
    assert.ok(r.meta.interrupted, 'the audit is marked interrupted');
    assert.equal(r.meta.gan.epochsDone.length, 2, "the wave's two generators, none after it");
    for (const e of r.meta.gan.epochsDone) assert.ok(e < 400, `cut short: ${e} epochs`);
    assert.equal(
      r.warnings.filter((w) =>
        /stopped early after \d+ of 400 epochs; the canonical sets come from 2 of 3 GAN seeds, those of the last wave \(trained side by side\)/.test(
          w,
        ),
      ).length,
      2,
      r.warnings.join(' | '),
    );
  });

  it("a worker's error comes back as one line with its code, and the worker serves the next job", async () => {
    const w = pool(1);
    const table = data();
    await assert.rejects(
      w.train({ table, fit: { conditions: ['no such column'], epochs: 1, seed: 1 } }, () => {}),
      (e: unknown) => e instanceof EngineError && /no such column/.test(e.message),
    );
    const r = await w.train(
      {
        table,
        fit: {
          conditions: [],
          epochs: 1,
          seed: 1,
          batch: 100,
          pac: 10,
          embedding: 8,
          generatorDims: [16],
          discriminatorDims: [16],
        },
      },
      () => {},
    );
    assert.equal(r.status, 'done');
    assert.equal((r.json as { format: string }).format, GAN_FORMAT);
  });
});

describe('lucid audit --gan-side-by-side', () => {
  const lucid = lucidCli();
  const fx = simModelDir('lucid-side-by-side-');
  const args = (out: string, when: string) => [
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
    fx.modelFile,
    '--seed',
    '3',
    '--gan-seeds',
    '3',
    '--gan-epochs',
    '3',
    '-n',
    '150',
    '--intersection-rows',
    '40',
    '--fale-bootstrap',
    '2',
    '--quiet',
    '--no-gan-cache',
    '--threads',
    '2',
    '--gan-side-by-side',
    when,
    '--out',
    join(fx.dir, out),
  ];

  it('on and off write the same files (the sets byte for byte; audit.json but for the command line)', () => {
    for (const when of ['off', 'on']) {
      const r = lucid(...args(when, when));
      assert.equal(r.status, 0, r.stderr);
    }
    const files = readdirSync(join(fx.dir, 'off')).filter((f) => f.endsWith('.csv'));
    assert.ok(files.includes('canonical-positive.csv') && files.includes('canonical-negative.csv'));
    for (const f of files)
      assert.equal(readFileSync(join(fx.dir, 'on', f), 'latin1'), readFileSync(join(fx.dir, 'off', f), 'latin1'), f);
    const json = (w: string) => {
      const a = JSON.parse(readFileSync(join(fx.dir, w, 'audit.json'), 'utf8')) as AuditResult;
      return JSON.stringify({ ...a, meta: { ...a.meta, timings: undefined, created: undefined, command: undefined } });
    };
    assert.equal(json('on'), json('off'));
  });

  it('names its choices in --help and refuses another word', () => {
    assert.match(lucid('audit', '--help').stdout, /--gan-side-by-side <when>[\s\S]*choices: "on", "off"/);
    const r = lucid(...args('bad', 'maybe'));
    assert.equal(r.status, 2);
    assert.match(r.stderr, /--gan-side-by-side/);
  });
});
