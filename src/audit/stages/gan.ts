// Stage 3 of an audit: LUCID-GAN, one per GAN seed, trained on the data with the model's P(positive)
// as the condition — on a stratified sample when the data has more than ganRows rows, with real rows
// held out for the fast schedule's stopping rule — and what scores the generated rows (the model, or
// for a predictions column a surrogate fitted to it).
import { check } from '../../engine/errors.js';
import type { Column, Table } from '../../data/table.js';
import { selectRows } from '../../data/table.js';
import { LucidGan, type FitStatus } from '../../models/lucidgan/model.js';
import { modelScorer, observedRanges, surrogateScorer, type Scorer } from '../canonical.js';
import { AUDIT_VERSION, type StageEta } from '../options.js';
import { checkpointing, heldOutScorer, SCHEDULE_DEFAULTS, trainingRows, type GanSchedule } from '../schedule.js';
import { drawPlan, drawSide, type DrawPlan } from './draw-plan.js';
import { meanFidelity } from '../../methods/quality/fidelity.js';
import type { CheckScore, GanEpoch } from '../../models/lucidgan/config.js';
import { jobModel, sideBySide } from '../gan-workers.js';
import { estimateGans } from '../estimate.js';
import { stratifiedSample } from '../sample.js';
import { fromCache, ganKey, handedOver, toCache, type GanReuse } from '../gan-reuse.js';
import { sha256Hex } from '../../data/sha256.js';
import { GAN_DEFAULTS } from '../../models/lucidgan/config.js';
import { now, type AuditContext } from './context.js';
import type { GroupView, MetricsStage } from './metrics.js';

/** What the GAN stage hands on: the trained GANs and everything their sets are drawn and checked with. */
export interface GanStage {
  /** the GANs trained (training can stop early: fewer than asked), and their seeds */
  gans: LucidGan[];
  /** how many GAN seeds were asked for (more than `gans` when training was interrupted) */
  seedsAsked: number;
  /** a stop request ended a GAN's training (its last one): the sets come from generators cut short */
  interrupted: boolean;
  seeds: number[];
  /** the columns the GANs model (no label, no predictions, no identifiers), and the data on them */
  ganColumns: Column[];
  ganFeatureTable: Table;
  /** the GANs' training rows, with the condition */
  ganTable: Table;
  epochs: number;
  batch: number;
  schedule: GanSchedule;
  /** rows held out for the stopping rule (indices into the table), or null */
  held: Int32Array | null;
  /** the rows the GANs trained on (indices into the table): the sample without the held-out rows */
  ganRows: Int32Array;
  /** the stratified sample, when the data has more than ganRows rows */
  sample: { rows: Int32Array; represented: number; nonEmpty: number } | null;
  strataNames: string[];
  /** each feature's observed range (generated numbers are clipped into it) */
  range: Record<string, [number, number]>;
  /** the training rows on each side of the decision (indices into ganTable): the observed condition's pools */
  negRows: Int32Array;
  posRows: Int32Array;
  /** what scores generated rows; null when nothing can */
  scorer: Scorer | null;
  /** whether the sets are drawn by rejection */
  rejection: boolean;
  /** the generators came from the cache or a handed-over file (gan-reuse.ts), or null: trained here */
  reused: GanReuse | null;
  /** how every set is drawn (made here: the plateau schedule's checks draw with it) */
  plan: DrawPlan;
}

export async function ganStage(ctx: AuditContext, ms: MetricsStage): Promise<GanStage> {
  const { engine, table, plan, warnings, caveats, seedLog, lap, progress } = ctx;
  const { model, seeds: seedsOf, gan } = plan;
  const ganRowsMax = gan.rowsMax;
  const { predName, views, yhat, pScore } = ms;
  // identifier-like columns (the reader marks them) carry no pattern a GAN can learn: left out, as the reader warned
  const ganColumns: Column[] = table.columns.filter(
    (c) => c.name !== plan.label && c.name !== predName && !(c.kind === 'categorical' && c.identifier),
  );
  const ganFeatureTable: Table = { rows: table.rows, columns: ganColumns.slice() };
  const allGanRows: Table = {
    rows: table.rows,
    columns: [...ganColumns, { kind: 'numeric', name: predName, values: pScore }],
  };
  // the fast schedule holds real rows out of the GANs' training to stop on (schedule.ts)
  const { schedule, scheduleDef } = gan;
  // more rows than ganRows: the GANs get a stratified sample (decision × protected groups; sample.ts)
  const strataNames = ['decision', ...views.map((v) => v.attr.groupColumn)];
  let sample: { rows: Int32Array; represented: number; nonEmpty: number } | null = null;
  if (table.rows > ganRowsMax) {
    const { codes, strata } = strataOf(yhat, views);
    const s = stratifiedSample(engine, codes, strata, ganRowsMax, seedsOf.ganSample);
    seedLog["the GANs' stratified sample of the rows"] = seedsOf.ganSample;
    const represented = s.taken.filter((x) => x > 0).length;
    sample = { rows: s.rows, represented, nonEmpty: strata };
    if (represented < strata)
      warnings.push(
        `the GANs' sample of ${ganRowsMax} rows cannot hold a row of each of the ${strata} non-empty strata ` +
          `(${strataNames.join(' × ')}): ${strata - represented} have none; give a larger --gan-rows`,
      );
  }
  /** the rows the GANs see (the sample, or every row), as indices into the table; schedule.ts works inside them */
  const ganData: Int32Array | null = sample ? sample.rows : null;
  const train = trainingRows(
    engine,
    ganData ? Uint8Array.from(ganData, (i) => yhat[i]) : yhat,
    scheduleDef,
    seedsOf.holdout,
  );
  const toTable = (rows: Int32Array): Int32Array => (ganData ? Int32Array.from(rows, (i) => ganData[i]) : rows);
  const held = train.held ? toTable(train.held) : null;
  if (held) seedLog["rows held out from the GANs' training (the stopping rule)"] = seedsOf.holdout;
  /** the GANs' training rows: indices into the table */
  const ganRows: Int32Array = toTable(train.rows);
  const ganTable: Table = held || ganData ? selectRows(allGanRows, ganRows) : allGanRows;
  const batch = gan.batchFor(ganTable.rows);
  const epochs = gan.epochsFor(ganTable.rows, batch);
  const ganSeeds = seedsOf.gans;
  const rejection = gan.rejection;
  // what scores generated rows: the model, or for a predictions column a surrogate fitted to it
  let scorer: Scorer | null = null;
  if (ctx.scorer) scorer = ctx.scorer;
  else if (model) scorer = modelScorer(model, plan.decision);
  else {
    progress('surrogate', 0);
    scorer = surrogateScorer(
      engine,
      table,
      ganColumns.map((c) => c.name),
      yhat,
      seedsOf.audit,
    );
    if (scorer) {
      seedLog['surrogate of the predictions (hold-out split)'] = seedsOf.surrogateSplit;
      seedLog['surrogate of the predictions (training)'] = seedsOf.audit;
    }
    if (!scorer)
      caveats.push({
        topic: 'validity',
        text:
          'the predictions are all one class (or there are fewer than 20 rows): no surrogate of them could be ' +
          'fitted, so nothing scores the generated rows and their validity is unknown',
      });
    lap('surrogate');
  }
  ctx.owned.scorer = scorer;
  const range = observedRanges(ganFeatureTable);
  // the GANs' training rows on each side (indices into ganTable): the observed condition's pools
  const [negRows, posRows] = train.side;
  // how every set is drawn: the stopping checks of the plateau schedule draw the main sets as the audit will
  const draws = drawPlan(plan, {
    views,
    predName,
    ganFeatureTable,
    ganTable,
    ganColumns,
    negRows,
    posRows,
    scorer,
    rejection,
    range,
  });
  const setsScore = scheduleDef.stop === 'sets' ? plateauScorer(draws, ganTable, ganColumns, negRows, posRows) : null;
  const heldTable = held ? selectRows(table, held) : null;
  const heldYhat = held ? Uint8Array.from(held, (i) => yhat[i]) : null;
  // the audit disposes of the GANs however it ends
  const gans = ctx.owned.gans;
  let interrupted = false;
  progress('gan', 0);
  const { mode, pointShare } = gan;
  // everything that shapes the GANs besides their rows and condition (gan-reuse.ts: the cache key)
  // (the plateau schedule's checks draw the main sets: how they are drawn and scored shapes where training stops)
  const drawing = {
    condition: draws.condition,
    correct: draws.correction,
    candidates: draws.factor,
    rejection: draws.scorer !== null,
    // the rule's threshold, as the cache key has always held it
    threshold: draws.decision.threshold,
    checkRows: SCHEDULE_DEFAULTS.checkRows,
  };
  const shaping = {
    epochs,
    batch,
    seeds: ganSeeds,
    mode,
    schedule: { name: schedule, ...scheduleDef },
    pointShare,
    held: held ? sha256Hex(new Uint8Array(held.buffer, held.byteOffset, held.byteLength)) : null,
    condition: predName,
    gan: GAN_DEFAULTS,
    ...(scheduleDef.stop === 'sets' ? { drawing } : {}),
  };
  const key =
    plan.ganCache || plan.ganSet
      ? ganKey({ ganTable, options: shaping, modelFile: plan.provenance?.modelSha256 ?? null, lucid: AUDIT_VERSION })
      : null;
  let reused: GanReuse | null = null;
  const warn = (text: string) => warnings.push(text);
  const got =
    key && plan.ganSet
      ? handedOver(engine, plan.ganSet, key, ganSeeds)
      : key && plan.ganCache
        ? await fromCache(engine, plan.ganCache, key, ganSeeds, warn)
        : null;
  if (got && key) {
    gans.push(...got.gans);
    reused = { from: plan.ganSet ? 'file' : 'cache', key };
    got.statuses.forEach((st, k) => {
      seedLog[`LUCID-GAN ${k + 1} of ${ganSeeds.length} (training)`] = ganSeeds[k];
      if (st === 'diverged')
        warnings.push(
          `LUCID-GAN training${ganSeeds.length > 1 ? ` (GAN seed ${ganSeeds[k]})` : ''} diverged when it was trained;` +
            ` its sets come from the last good epoch`,
        );
    });
    progress('gan', 1);
  }
  const statuses: FitStatus[] = [];
  // the time left, from the pace so far: each GAN is taken to start as the first did (its setup and
  // first epoch, which carries the engine's warm-up), and its other epochs at the pace since then
  const t0 = now();
  let first = 0;
  const totalEpochs = epochs * ganSeeds.length;
  const what = `${ganSeeds.length} LUCID-GAN${ganSeeds.length === 1 ? '' : 's'} × ${epochs} epochs`;
  const eta = (done: number): StageEta | undefined => {
    const elapsed = (now() - t0) / 1000;
    if (done === 1) first = elapsed;
    if (done < 2) return undefined;
    const perEpoch = (elapsed - first) / (done - 1);
    const total = Math.max(elapsed, first * ganSeeds.length + perEpoch * (totalEpochs - ganSeeds.length));
    return { left: total - elapsed, total, ceiling: scheduleDef.stop !== undefined, what };
  };
  /** epochs done per GAN seed (seeds side by side report theirs as they go) */
  const epochsDone = new Array<number>(ganSeeds.length).fill(0);
  const onEpoch = (k: number) => (e: GanEpoch) => {
    epochsDone[k] = e.epoch;
    const done = epochsDone.reduce((a, b) => a + b, 0);
    progress('gan', done / Math.max(1, totalEpochs), eta(done));
  };
  /** what shapes every GAN's fit but its seed, rows and length */
  const ganFit = {
    ...(scheduleDef.dims ? { generatorDims: scheduleDef.dims, discriminatorDims: scheduleDef.dims } : {}),
    paper: mode === 'paper',
    where: plan.source,
    pointShare,
  };
  const fitOptions = (k: number) => ({ ...ganFit, conditions: [predName], epochs, batch, seed: ganSeeds[k] });
  /** keeps GAN seed k's fit; true when a stop request cut it short (the audit trains no more) */
  const keep = (
    k: number,
    model: LucidGan,
    status: FitStatus,
    message: string | undefined,
    from = k + 1,
    how = 'the last one trained that far',
  ): boolean => {
    gans.push(model);
    statuses.push(status);
    seedLog[`LUCID-GAN ${k + 1} of ${ganSeeds.length} (training)`] = ganSeeds[k];
    const which = ganSeeds.length > 1 ? ` (GAN seed ${ganSeeds[k]})` : '';
    if (status === 'diverged')
      warnings.push(
        `LUCID-GAN training${which} diverged (${message ?? 'a non-finite loss'}); its sets come from the last good ` +
          `epoch`,
      );
    if (status === 'interrupted')
      warnings.push(
        `LUCID-GAN training${which} stopped early after ${model.epochsDone} of ${epochs} epochs; the canonical sets ` +
          `come from ${from} of ${ganSeeds.length} GAN seeds, ${how}`,
      );
    return status === 'interrupted';
  };
  if (!reused && plan.onEstimate) {
    // an estimate that cannot be made is not shown: nothing of the audit depends on it
    const e = await estimateGans(
      engine,
      {
        ganTable,
        condition: predName,
        seeds: ganSeeds.length,
        epochs,
        batch,
        fit: ganFit,
        ceiling: scheduleDef.stop !== undefined,
      },
      scheduleDef.stop ? undefined : plan.ganWorkers,
    ).catch(() => null);
    if (e) plan.onEstimate(e);
  }
  // seeds side by side (gan-workers.ts): whole waves in workers, one core each; only a fixed budget
  // (a stopping check scores the sets with the model, which lives on this thread)
  const workers = !reused && !scheduleDef.stop ? plan.ganWorkers : undefined;
  const waves = workers ? sideBySide(ganSeeds.length, workers.size) : [];
  let k = 0;
  for (const wave of waves) {
    const jobs = wave.map((j) => workers!.train({ table: ganTable, fit: fitOptions(j) }, onEpoch(j), plan.shouldStop));
    // the first failure fails the audit (its caller closes the workers); the others' are then not unhandled
    for (const p of jobs) p.catch(() => {});
    const results = await Promise.all(jobs);
    const where = plan.source;
    wave.forEach((j, w) => {
      const model = jobModel(engine, results[w], `${where}: LUCID-GAN trained side by side (GAN seed ${ganSeeds[j]})`);
      interrupted =
        keep(
          j,
          model,
          results[w].status,
          results[w].message,
          k + wave.length,
          'those of the last wave (trained side by side) as far as the stop',
        ) || interrupted;
    });
    k += wave.length;
    if (interrupted) break;
  }
  for (; k < ganSeeds.length && !reused && !interrupted; k++) {
    const score = setsScore
      ? setsScore(seedsOf.stopping[k])
      : heldTable
        ? heldOutScorer({
            features: ganColumns.map((c) => ({ name: c.name, kind: c.kind })),
            held: heldTable,
            heldYhat: heldYhat!,
            trainSide: [negRows, posRows],
            range,
            seed: seedsOf.stopping[k],
          })
        : null;
    const cp = checkpointing(scheduleDef, score);
    if (cp) seedLog[`LUCID-GAN ${k + 1} of ${ganSeeds.length} (stopping rule's rows)`] = seedsOf.stopping[k];
    const fit = await LucidGan.fit(engine, ganTable, {
      ...fitOptions(k),
      ...(cp ? { checkpoint: cp } : {}),
      onEpoch: onEpoch(k),
      shouldStop: plan.shouldStop,
    });
    interrupted = keep(k, fit.model, fit.status, fit.message);
  }
  // a complete set is kept for the next audit of the same inputs (a cut-short one never is)
  if (key && plan.ganCache && !reused && !interrupted)
    await toCache(
      plan.ganCache,
      key,
      gans.map((model, k) => ({ model, status: statuses[k] })),
      warn,
    );
  const seeds = ganSeeds.slice(0, gans.length);
  return {
    gans,
    seedsAsked: ganSeeds.length,
    interrupted,
    seeds,
    ganColumns,
    ganFeatureTable,
    ganTable,
    epochs,
    batch,
    schedule,
    held,
    ganRows,
    sample,
    strataNames,
    range,
    negRows,
    posRows,
    scorer,
    rejection,
    reused,
    plan: draws,
  };
}

/**
 * The plateau schedule's check (EXPERIMENTS.md §12, R2), per GAN seed: the main sets drawn as the audit
 * draws them (SCHEDULE_DEFAULTS.checkRows per side, from the stopping rule's own seed stream), their mean
 * KS/TV against the GAN's training rows of each side, and the mean acceptance of the two sides' draws.
 */
function plateauScorer(
  plan: DrawPlan,
  ganTable: Table,
  ganColumns: readonly Column[],
  negRows: Int32Array,
  posRows: Int32Array,
): (stoppingSeed: number) => (gan: LucidGan) => Promise<CheckScore> {
  const features = ganColumns.map((c) => ({ name: c.name, kind: c.kind }));
  const decision = new Uint8Array(ganTable.rows);
  for (const i of posRows) decision[i] = 1;
  const sides = [negRows.length, posRows.length];
  return (seed) => async (gan) => {
    const drawn = [];
    for (const side of [0, 1] as const)
      drawn.push(
        sides[side] > 0
          ? await drawSide(plan, gan, seed, side, [], SCHEDULE_DEFAULTS.checkRows, 1 - side, () => {})
          : null,
      );
    const empty = selectRows(ganTable, []);
    const score = meanFidelity(features, ganTable, decision, [
      { negative: drawn[0]?.table ?? empty, positive: drawn[1]?.table ?? empty },
    ]);
    const acc = drawn.map((d) => d?.stats.acceptance ?? NaN).filter(Number.isFinite);
    return { score, acceptance: acc.length ? acc.reduce((a, b) => a + b, 0) / acc.length : NaN };
  };
}

/**
 * Each row's stratum for the GANs' sample: the model's decision crossed with every protected
 * attribute's group (its bin for a numeric one; a row without a group value is a group of its own).
 * Only the combinations that occur are strata, numbered in the order of their mixed-radix code
 * (decision first, then the attributes in the order given, each by its sorted group values).
 */
function strataOf(yhat: Uint8Array, views: readonly GroupView[]): { codes: Int32Array; strata: number } {
  const key = Float64Array.from(yhat);
  let span = 2;
  for (const v of views) {
    const index = new Map(v.values.map((x, i) => [x, i]));
    const radix = v.values.length + 1;
    for (let i = 0; i < key.length; i++) key[i] = key[i] * radix + (index.get(v.dataLabels[i]) ?? v.values.length);
    span *= radix;
  }
  check(
    span <= Number.MAX_SAFE_INTEGER,
    'E_ARG',
    () => "audit: too many combinations of the decision and the protected groups to stratify the GANs' sample on",
  );
  const distinct = [...new Set(key)].sort((x, y) => x - y);
  const dense = new Map(distinct.map((k, i) => [k, i]));
  return { codes: Int32Array.from(key, (k) => dense.get(k)!), strata: distinct.length };
}
