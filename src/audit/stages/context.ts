// What every stage of an audit shares: the call (engine, data, options, the model), the validated
// sizes, and where the stages write what the report collects on the way (warnings, caveats, the seeds
// used, the timings, progress). run.ts makes one per audit; a stage reads it and returns its own
// result, which later stages take as arguments — nothing else passes between stages.
import type { Engine } from '../../engine/engine.js';
import { check } from '../../engine/errors.js';
import { getColumn, type Column, type Table } from '../../data/table.js';
import { checkModelClasses, type BlackBox } from '../../models/blackbox.js';
import { labelValues, positiveOf } from '../../methods/metrics/index.js';
import type { LucidGan } from '../../models/lucidgan/model.js';
import type { Scorer } from '../canonical.js';
import { AUDIT_DEFAULTS, type AuditOptions, type StageEta } from '../options.js';
import type { AuditResult } from '../types.js';

export interface AuditContext {
  engine: Engine;
  table: Table;
  opts: AuditOptions;
  seed: number;
  /** rows per canonical set, per GAN seed */
  n: number;
  /** rows per intersectional (and conditional) set */
  nInter: number;
  /** most rows the GANs train on (a stratified sample beyond) */
  ganRowsMax: number;
  /** the model to call; undefined for a predictions column */
  model: BlackBox | undefined;
  /** the predictions column, when one was given instead of a model */
  predGiven: string | undefined;
  warnings: string[];
  caveats: AuditResult['caveats'];
  /** every seed used, by purpose, in the order used (meta.seeds) */
  seedLog: Record<string, number>;
  /** when the audit started (performance.now() or Date.now()) */
  started: number;
  /** milliseconds per stage, in the order run (meta.timings) */
  timings: Record<string, number>;
  /** closes the timing of `stage`: the time since the previous lap */
  lap(stage: string): void;
  /** opts.onProgress with the fraction clamped to [0, 1] */
  progress(stage: string, fraction: number, eta?: StageEta): void;
  /** what the audit disposes of however it ends (the GAN stage fills it as it goes) */
  owned: { gans: LucidGan[]; scorer: Scorer | null };
  /** the stage during which opts.shouldStop() was first seen true (null: never): the audit is then marked interrupted */
  stoppedIn: () => string | null;
}

export const now = (): number => (typeof performance !== 'undefined' ? performance.now() : Date.now());

/**
 * The columns an audit can take as protected attributes, in the table's order: not the label, not the
 * predictions column (auditContext refuses both), not an identifier (text distinct on nearly every row,
 * as the reader marks it: every row its own group) and not one of `mostlyNumeric` (numbers with a few
 * text cells, which the CLI refuses as a protected column: src/node/csv.ts requireClean). The browser
 * page offers only these.
 */
export function protectedCandidates(table: Table, roles: { label: string; pred?: string | null; mostlyNumeric?: readonly string[] }): string[] {
  const refused = new Set(roles.mostlyNumeric ?? []);
  return table.columns.filter((c) => c.name !== roles.label && c.name !== roles.pred && !(c.kind === 'categorical' && c.identifier) && !refused.has(c.name)).map((c) => c.name);
}

/** The column `name`, or the one unknown-column error (exit 2) naming it and listing those that exist. */
export function requireColumn(table: Table, name: string, what: string): Column {
  return getColumn(table, name, 'audit', what);
}

/**
 * Checks the call before any work (sizes, seed, the protected/label/predictions columns, too few rows)
 * and makes the audit's context; the clock starts here.
 */
export function auditContext(engine: Engine, table: Table, opts: AuditOptions): AuditContext {
  const tStart = now();
  const timings: Record<string, number> = {};
  let tStage = tStart;
  const seed = opts.seed ?? 0;
  check(Number.isSafeInteger(seed) && seed >= 0, 'E_ARG', () => `audit: seed must be a non-negative integer, got ${seed}`);
  const n = opts.n ?? AUDIT_DEFAULTS.n;
  const nInter = opts.intersectionRows ?? AUDIT_DEFAULTS.intersectionRows;
  check(Number.isSafeInteger(n) && n > 0, 'E_ARG', () => `audit: n must be a positive integer, got ${n}`);
  check(Number.isSafeInteger(nInter) && nInter >= 0, 'E_ARG', () => `audit: intersectionRows must be a non-negative integer, got ${nInter}`);
  const ganRowsMax = opts.ganRows ?? AUDIT_DEFAULTS.ganRows;
  check(Number.isSafeInteger(ganRowsMax) && ganRowsMax > 0, 'E_ARG', () => `audit: ganRows must be a positive integer, got ${ganRowsMax}`);
  check(table.rows > 0, 'E_INPUT', () => 'audit: the data has no rows');
  check(opts.protected.length > 0, 'E_ARG', () => 'audit: name at least one protected column');
  check(new Set(opts.protected).size === opts.protected.length, 'E_ARG', () => `audit: a protected column is named twice (${opts.protected.join(', ')})`);

  const model = opts.model && opts.model.kind !== 'column' ? opts.model : undefined;
  const predGiven = opts.pred ?? undefined;
  check(model !== undefined || predGiven !== undefined, 'E_ARG', () => 'audit: give a model to call or the name of a predictions column (pred)');
  check(!(model && predGiven !== undefined), 'E_ARG', () => 'audit: give either a model or a predictions column, not both');
  requireColumn(table, opts.label, 'label');
  for (const p of opts.protected) {
    requireColumn(table, p, 'protected column');
    check(p !== opts.label && p !== predGiven, 'E_ARG', () => `audit: "${p}" is the label or the predictions column; name protected columns`);
  }
  if (predGiven !== undefined) requireColumn(table, predGiven, 'predictions column');
  for (const c of Object.keys(opts.protectedEdges ?? {})) {
    check(opts.protected.includes(c), 'E_ARG', () => `audit: protected edges name "${c}", which is not among the protected columns (${opts.protected.join(', ')})`);
  }
  // the model's positive class against the data's, before it is called (a mismatch reverses every direction)
  if (model) {
    const values = labelValues(table, opts.label, 'audit');
    checkModelClasses(model, { label: opts.label, values, positive: positiveOf(values, opts.positive, opts.label, 'audit'), positiveGiven: opts.positive !== undefined, classMap: opts.modelClasses });
  } else check(opts.modelClasses === undefined, 'E_ARG', () => 'audit: --model-classes maps the classes of a model; a predictions column has none (its scores are checked against the label instead)');
  const minRows = AUDIT_DEFAULTS.minRows;
  // a stop request is noticed at the next progress report or at the end; it came during the stage
  // reported before (training that stops mid-epoch reports the next stage first)
  let stoppedIn: string | null = null;
  let lastStage = 'start';
  const noteStop = (stage: string) => {
    if (stoppedIn === null && opts.shouldStop?.()) stoppedIn = lastStage;
    lastStage = stage;
  };
  check(opts.allowSmall || table.rows >= minRows, 'E_INPUT', () => `audit: the data has ${table.rows} rows; an audit needs at least ${minRows} (a GAN, the checks and the verdicts cannot work on fewer); --allow-small runs it anyway, every small group marked`);
  return {
    engine, table, opts, seed, n, nInter, ganRowsMax, model, predGiven,
    warnings: [],
    caveats: [],
    seedLog: { audit: seed },
    timings,
    lap: (stage) => {
      const t = now();
      timings[stage] = Math.round(t - tStage);
      tStage = t;
    },
    progress: (stage, f, eta) => {
      noteStop(stage);
      opts.onProgress?.(stage, Math.min(1, Math.max(0, f)), eta);
    },
    owned: { gans: [], scorer: null },
    stoppedIn: () => {
      noteStop(lastStage);
      return stoppedIn;
    },
    started: tStart,
  };
}

/** Milliseconds since the context was made. */
export function elapsed(ctx: AuditContext): number {
  return now() - ctx.started;
}
