// The fairness demo behind `lucid demo`: audits of models trained on data with known (planted)
// discrimination — the bias simulator by default, or Adult / COMPAS from LUCID_DATA_DIR — written as
// HTML reports with an index, and what each audit found against what was planted (the texts are
// src/report/demo-index.ts's).
import { withGanWorkers } from './gan-workers.js';
import { join, relative } from 'node:path';
import { runAudit } from '../audit/run.js';
import type { StageEta } from '../audit/options.js';
import type { AuditResult } from '../audit/types.js';
import { simulate, type BiasKind } from '../data/simulator.js';
import type { Table } from '../data/table.js';
import type { Engine } from '../engine/engine.js';
import { EngineError } from '../engine/errors.js';
import { Rng } from '../engine/rng.js';
import { builtinBlackBox } from '../models/blackbox.js';
import { Classifier } from '../models/classifier/classifier.js';
import { prepareOutDir, writeAudit, writeDemoIndex } from './audit.js';
import { splitText } from '../data/datasets.js';
import { datasetAvailability, loadAdult, loadCompas } from './datasets.js';
import { datasetDemoText, demoIndexText, demoReportText, type DemoIndexEntry } from '../report/demo-index.js';

/** Settings of the simulated demo, chosen so the three audits finish in under two minutes on two cores. */
export const DEMO_SIM = {
  /** rows of the training and of the audit data (two independent draws) */
  rows: 2000,
  /** LUCID-GAN epochs (2000 rows / batch 500 = 4 steps an epoch) */
  ganEpochs: 80,
  n: 1000,
  intersectionRows: 300,
  faleBootstrap: 20,
  kinds: ['direct', 'proxy', 'intersectional'] as BiasKind[],
};

/**
 * A progress display for one audit (the CLI's line on stderr); null: none. The demo's audits are
 * short and of a known length, so they are not estimated beforehand (the probe would cost about 5%
 * of the demo; the README states its length).
 */
export type DemoProgress = (label?: string) => {
  onProgress: (stage: string, f: number, eta?: StageEta) => void;
  end: () => void;
};

export interface DemoOptions {
  out: string;
  dataset: 'sim' | 'adult' | 'compas';
  seed: number;
  ganEpochs?: number;
  /** the command line, for the reports' provenance */
  argv: string[];
  /** where the demo's lines of text go */
  log: (s: string) => void;
  progress?: DemoProgress;
}

function trainLogistic(
  engine: Engine,
  table: Table,
  label: string,
  positive: string,
  drop: string[],
  seed: number,
): Classifier {
  return Classifier.train(engine, table, { label, positive, drop, hidden: [], epochs: 40, valFraction: 0, seed }).model;
}

/** What a demo wrote, for --format json: the reports (with what was planted and found) and the index. */
export interface DemoSummary {
  dataset: string;
  out: string;
  index: string | null;
  reports: { title: string; report: string; planted: string | null; found: string | null }[];
  seconds: number;
}

async function simDemo(engine: Engine, opts: DemoOptions): Promise<DemoSummary> {
  const log = opts.log;
  const reports: DemoSummary['reports'] = [];
  const entries: DemoIndexEntry[] = [];
  const t0 = performance.now();
  for (const kind of DEMO_SIM.kinds) {
    const train = simulate(new Rng(engine, opts.seed), { n: DEMO_SIM.rows, bias: kind });
    const audit = simulate(new Rng(engine, opts.seed + 1), { n: DEMO_SIM.rows, bias: kind });
    // proxy: the model never reads the protected columns, so the audit's proxy view applies
    const drop = kind === 'proxy' ? train.protected.slice() : [];
    const clf = trainLogistic(engine, train.table, train.label, train.favourable, drop, opts.seed);
    const dir = join(opts.out, kind);
    let result: AuditResult;
    const bar = opts.progress?.(`demo ${DEMO_SIM.kinds.indexOf(kind) + 1}/${DEMO_SIM.kinds.length} (${kind} bias)`);
    try {
      result = await withGanWorkers(engine, undefined, (ganWorkers) =>
        runAudit(engine, audit.table, {
          ...(ganWorkers ? { ganWorkers } : {}),
          label: audit.label,
          positive: audit.favourable,
          protected: audit.protected,
          model: builtinBlackBox(
            engine,
            clf,
            `built-in logistic model (${kind} bias${drop.length ? `, trained without ${drop.join(', ')}` : ''})`,
          ),
          source: `simulated loan decisions, ${kind} bias (simulator seed ${opts.seed + 1})`,
          seed: opts.seed,
          ganEpochs: opts.ganEpochs ?? DEMO_SIM.ganEpochs,
          n: DEMO_SIM.n,
          intersectionRows: DEMO_SIM.intersectionRows,
          faleBootstrap: DEMO_SIM.faleBootstrap,
          // the data and the model are made here, not read from files: there is nothing to hash
          provenance: {
            command: { via: 'cli', argv: opts.argv },
            dataNote:
              `simulated by lucid demo in memory (simulator seed ${opts.seed + 1}; the model's training rows: ` +
              `simulator seed ${opts.seed}): no file to hash`,
          },
          onProgress: bar?.onProgress,
        }),
      );
    } finally {
      bar?.end();
      clf.dispose();
    }
    const t = audit.truth;
    result.planted = [{ kind: t.bias, rule: t.rule, disadvantaged: t.disadvantaged, reads: t.reads }];
    const w = await writeAudit(dir, result);
    const { planted, found, text } = demoReportText(kind, w.report, result, audit.protected, drop);
    log(text);
    reports.push({ title: `${kind} bias`, report: w.report, planted, found });
    entries.push({ title: `${kind} bias`, href: relative(opts.out, w.report), result });
  }
  const index = await writeDemoIndex(opts.out, entries);
  const seconds = (performance.now() - t0) / 1000;
  log(demoIndexText(index, seconds));
  return { dataset: 'sim', out: opts.out, index, reports, seconds };
}

async function datasetDemo(engine: Engine, opts: DemoOptions): Promise<DemoSummary> {
  const log = opts.log;
  const name = opts.dataset as 'adult' | 'compas';
  const a = datasetAvailability(name);
  if (!a.available)
    throw new EngineError('E_INPUT', `lucid demo --dataset ${name}: the data is not available: ${a.reason}`);
  const t0 = performance.now();
  log(`loading ${name} from ${a.dir}\n`);
  const ds = name === 'adult' ? await loadAdult() : await loadCompas();
  const protectedCols = ds.protected.filter((p) => /^(sex|race)$/i.test(p));
  log(`training the built-in classifier on the train split (${ds.splits.train.rows} rows)\n`);
  // the audit's reading of the label (COMPAS: positive = reoffended, the unfavourable outcome)
  const { model } = Classifier.train(engine, ds.splits.train, {
    label: ds.label,
    positive: ds.audit.positive,
    validation: ds.splits.val,
    seed: opts.seed,
  });
  const bar = opts.progress?.();
  let result: AuditResult;
  try {
    result = await withGanWorkers(engine, undefined, (ganWorkers) =>
      runAudit(engine, ds.splits.test, {
        ...(ganWorkers ? { ganWorkers } : {}),
        label: ds.label,
        positive: ds.audit.positive,
        favourable: ds.audit.favourable,
        protected: protectedCols,
        model: builtinBlackBox(engine, model, `built-in classifier trained on the ${name} train split`),
        source: `${name} test split (${a.dir})`,
        seed: opts.seed,
        ganEpochs: opts.ganEpochs,
        provenance: {
          command: { via: 'cli', argv: opts.argv },
          dataNote:
            `the ${name} test split of ${splitText(ds.split)}, parsed by lucid demo from the dataset's files: no ` +
            `single file to hash`,
        },
        onProgress: bar?.onProgress,
      }),
    );
  } finally {
    bar?.end();
    model.dispose();
  }
  const w = await writeAudit(opts.out, result);
  const seconds = (performance.now() - t0) / 1000;
  log(datasetDemoText(name, w.report, seconds, protectedCols, splitText(ds.split)));
  return {
    dataset: name,
    out: opts.out,
    index: null,
    reports: [{ title: name, report: w.report, planted: null, found: null }],
    seconds,
  };
}

/** Runs the demo `opts.dataset` names. */
export async function runDemo(engine: Engine, opts: DemoOptions): Promise<DemoSummary> {
  // the folder first: a file in its place must not cost the demo's minutes
  await prepareOutDir(opts.out);
  return opts.dataset === 'sim' ? simDemo(engine, opts) : datasetDemo(engine, opts);
}
