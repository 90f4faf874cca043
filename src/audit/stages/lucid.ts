// Stage 6 of an audit: LUCID, gradient descent on the built-in classifier's input from a uniform
// start, projected onto the data (the only stage that needs the model's gradients). A binary audit inverts towards the
// favourable decision (lucidStage); an audit of a score, a class or a real value towards one of its targets
// (lucidTargetSection). Both descents are projected the same way and reported in the same LucidSection.
import type { Engine } from '../../engine/engine.js';
import { Rng } from '../../engine/rng.js';
import type { Table } from '../../data/table.js';
import type { BlackBox } from '../../models/blackbox.js';
import { invert, invertTowards, LUCID_DEFAULTS, targetMismatch, type LucidModel } from '../../methods/lucid/index.js';
import type { OutputTarget } from '../../methods/metrics/targets.js';
import { decideOne, type DecisionRule } from '../../methods/metrics/index.js';
import { distribution, rankDistributions } from '../distance.js';
import type { Distribution, LucidSection } from '../types.js';
import type { AuditContext } from './context.js';
import type { GanStage } from './gan.js';
import type { MetricsStage } from './metrics.js';

export function lucidStage(ctx: AuditContext, ms: MetricsStage, gs: GanStage): LucidSection {
  const { engine, plan, seedLog, caveats, progress } = ctx;
  const { model, n, lucidEpochs } = plan;
  const seed = plan.seeds.audit;
  const { views, favourable } = ms;
  const { range } = gs;
  progress('lucid', 0);
  // towards the favourable decision, whichever value is named positive (one coding convention)
  const lucid = runLucid(
    engine,
    model,
    favourable,
    n,
    seed,
    lucidEpochs,
    (c) => (views.some((v) => v.attr.column === c) ? 'protected' : 'feature'),
    range,
    plan.decision,
  );
  if (lucid.ran) seedLog['LUCID (uniform start and descent)'] = seed;
  if (!lucid.ran) caveats.push({ topic: 'model', text: `LUCID did not run: ${lucid.reason}` });
  return lucid;
}

/**
 * LUCID's success: the share of its samples the model decides to be the preferred (favourable) class, by the
 * audit's rule on P(positive), which is 1 − P(preferred) when the favourable outcome is the negative one.
 */
export function lucidSuccess(
  preferred: ArrayLike<number>,
  favourable: 'positive' | 'negative',
  decision: DecisionRule,
): number {
  const wanted = favourable === 'positive' ? 1 : 0;
  let ok = 0;
  for (let i = 0; i < preferred.length; i++) {
    const p = preferred[i];
    if (decideOne(decision, favourable === 'positive' ? p : 1 - p) === wanted) ok++;
  }
  return ok / preferred.length;
}

function runLucid(
  engine: Engine,
  model: BlackBox | undefined,
  favourable: 'positive' | 'negative',
  n: number,
  seed: number,
  epochs: number,
  role: (c: string) => Distribution['role'],
  range: Record<string, readonly [number, number]>,
  decision: DecisionRule,
): LucidSection {
  const clf = differentiableOf(model);
  if (typeof clf === 'string') return { ran: false, reason: clf };
  // projected onto the data: numbers inside the audited rows' range, one-hot groups on the simplex, numbers rounded to
  // their decimals
  const r = invert(engine, clf, { prefer: favourable, n, epochs, seed, ...projectedOnto(range) });
  const success = lucidSuccess(r.predSnapped, favourable, decision);
  return lucidReport(engine, clf, r.preference.label, success, r.table, n, epochs, seed, role, r.loss);
}

/**
 * LUCID towards one target of a score, a class or a real value (the audit of a non-binary output): the same projected
 * descent and report as the binary stage's, with `prefer` the target's label and `success` the share of samples whose
 * output, one-hot groups snapped, is in the target. Not run (with the reason) for a predictions column, a model without
 * gradients (LUCID needs the built-in model), a 'rest' target, or a target that does not fit the model's output.
 */
export function lucidTargetSection(
  engine: Engine,
  model: BlackBox | undefined,
  target: OutputTarget,
  o: {
    n: number;
    epochs: number;
    seed: number;
    range: Record<string, [number, number]>;
    roleOf: (column: string) => 'protected' | 'feature';
  },
): LucidSection {
  const clf = differentiableOf(model);
  if (typeof clf === 'string') return { ran: false, reason: clf };
  const why = targetMismatch(clf, target);
  if (why !== null) return { ran: false, reason: `LUCID cannot invert towards this target: ${why}` };
  const r = invertTowards(engine, clf, { target, n: o.n, epochs: o.epochs, seed: o.seed, ...projectedOnto(o.range) });
  return lucidReport(engine, clf, target.label, r.success, r.table, o.n, o.epochs, o.seed, o.roleOf, r.loss);
}

/** The model's gradients, or why LUCID cannot run on it. */
function differentiableOf(model: BlackBox | undefined): LucidModel | string {
  if (!model) return 'the model is a predictions column; LUCID needs a differentiable model';
  if (model.differentiable) return model.differentiable;
  return `the model (${model.kind}: ${model.source}) gives no gradients; LUCID needs the built-in classifier`;
}

/** An audit's projection: numbers inside the audited rows' range, one-hot groups on the simplex, numbers rounded. */
function projectedOnto(range: Record<string, readonly [number, number]>) {
  return { clip: true, bounds: range, projectOneHot: true, round: true };
}

/** What both stages report of a descent: the canonical set, the uniform start, their distributions and the loss. */
function lucidReport(
  engine: Engine,
  clf: LucidModel,
  prefer: string,
  success: number,
  canonical: Table,
  n: number,
  epochs: number,
  seed: number,
  role: (c: string) => Distribution['role'],
  loss: Float64Array,
): LucidSection {
  const start = lucidStart(engine, clf.preprocessor, n, seed);
  const distributions = rankDistributions(
    clf.preprocessor.groups.map((g) => {
      const a = canonical.columns.find((c) => c.name === g.name)!;
      const b = start.columns.find((c) => c.name === g.name)!;
      return distribution(
        g.name,
        [
          { name: 'LUCID canonical', column: a },
          { name: 'uniform start', column: b },
        ],
        role(g.name),
      );
    }),
  );
  // the binary report's key order (its JSON bytes)
  return {
    ran: true,
    projected: true,
    prefer,
    n,
    epochs,
    success,
    canonical,
    start,
    distributions,
    loss: Array.from(loss),
  };
}

/**
 * LUCID's starting points, decoded: the same U[low, high) draw invert makes from `seed` (default init, no
 * clip/projection).
 */
export function lucidStart(
  engine: Engine,
  pre: { dim: number; decode(x: Float32Array, n: number): Table },
  n: number,
  seed: number,
): Table {
  const { low, high } = LUCID_DEFAULTS.init;
  const x = engine.empty([n, pre.dim]);
  let a: Float32Array;
  try {
    new Rng(engine, seed).fill('rng_uniform', x);
    a = x.toArray();
  } finally {
    x.dispose();
  }
  for (let i = 0; i < a.length; i++) a[i] = Math.fround(a[i] * (high - low)) + low;
  return pre.decode(a, n);
}
