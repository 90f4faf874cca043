// Stage 6 of an audit: LUCID, gradient descent on the built-in classifier's input from a uniform
// start, projected onto the data (the only stage that needs the model's gradients).
import type { Engine } from '../../engine/engine.js';
import { Rng } from '../../engine/rng.js';
import type { Table } from '../../data/table.js';
import type { BlackBox } from '../../models/blackbox.js';
import { invert, LUCID_DEFAULTS } from '../../methods/lucid/index.js';
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
  if (!model) return { ran: false, reason: 'the model is a predictions column; LUCID needs a differentiable model' };
  const clf = model.differentiable;
  if (!clf)
    return {
      ran: false,
      reason: `the model (${model.kind}: ${model.source}) gives no gradients; LUCID needs the built-in classifier`,
    };
  // projected onto the data: numbers inside the audited rows' range, one-hot groups on the simplex, numbers rounded to
  // their decimals
  const r = invert(engine, clf, {
    prefer: favourable,
    n,
    epochs,
    seed,
    clip: true,
    bounds: range,
    projectOneHot: true,
    round: true,
  });
  const start = lucidStart(engine, clf.preprocessor, n, seed);
  const distributions = rankDistributions(
    clf.preprocessor.groups.map((g) => {
      const a = r.table.columns.find((c) => c.name === g.name)!;
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
  return {
    ran: true,
    projected: true,
    prefer: r.preference.label,
    n,
    epochs,
    success: lucidSuccess(r.predSnapped, favourable, decision),
    canonical: r.table,
    start,
    distributions,
    loss: Array.from(r.loss),
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
