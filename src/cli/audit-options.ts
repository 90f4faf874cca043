// The options of an audit run, defined once (habit 4) for `lucid audit` and `lucid check --model`
// (which runs the same audit for its canonical-set rules): the GAN's training and sampling, the sets'
// sizes, the binning of numeric protected columns, FALE's bootstrap, --allow-small, --model-timeout.
// Each option's row names its key in auditFile's options; `auditRunValues` builds those options from
// the parsed values through the table.
import { InvalidArgumentError, Option, type Command } from 'commander';
import { AUDIT_DEFAULTS } from '../audit/run.js';
import { CANONICAL_DEFAULTS, CONDITION_MODES } from '../audit/canonical.js';
import { SCHEDULE_NAMES } from '../audit/schedule.js';
import { CORRECTION_DEFAULTS, CORRECTIONS } from '../audit/correct.js';
import { SIDE_BY_SIDE_DEFAULT } from '../audit/gan-workers.js';
import { modelTimeoutOption } from './model-timeout.js';
import { defaultGanCacheDir, GAN_CACHE_HELP } from '../node/gan-cache.js';
import type { AuditFileOptions } from '../node/audit.js';
import { intAtLeast2, nonNegativeInt, numberList, positiveInt, readOptionsOf, type DataCliOptions } from './options.js';

/**
 * What an audit's --seed is, said once for every command that runs an audit (audit, check --model,
 * demo): the one seed given, from which the GANs' seeds and every draw's seed are derived.
 */
export const AUDIT_SEED_HELP =
  `the audit's seed s; every seed of the audit is derived from it (LUCID-GAN k of --gan-seeds trains with s + k × ` +
  `${CANONICAL_DEFAULTS.seedStride.toLocaleString('en-US')}, k = 0, 1, …; the report lists every seed by ` +
  `purpose); same seed, same audit`;

function share(value: string): number {
  const v = Number(value);
  if (value.trim() === '' || !Number.isFinite(v) || v < 0 || v >= 1)
    throw new InvalidArgumentError(`expected a share in [0, 1), e.g. 0.05, got "${value}"`);
  return v;
}

function edgesArg(value: string, prev: Record<string, number[]> = {}): Record<string, number[]> {
  const m = /^([^=]+?)\s*=\s*(.+)$/.exec(value.trim());
  const edges = m ? numberList(m[2]) : null;
  if (!m || !edges) {
    throw new InvalidArgumentError(
      `expected COLUMN=E0,E1,… (at least two numbers), e.g. age=17,30,50,90, got "${value}"`,
    );
  }
  return { ...prev, [m[1]]: edges };
}

/**
 * One audit-run option: its commander Option, the key of auditFile's options its value goes to (the
 * audit's name for it: AuditOptions, which plan.ts settles, or the Node layer's AuditFileOptions), and
 * how the parsed value becomes that option's value when it is not the value itself.
 */
interface AuditRunOption<K extends keyof AuditFileOptions = keyof AuditFileOptions> {
  option: () => Option;
  key: K;
  value?: (parsed: unknown) => AuditFileOptions[K];
}

const run = <K extends keyof AuditFileOptions>(
  option: () => Option,
  key: K,
  value?: (parsed: unknown) => AuditFileOptions[K],
): AuditRunOption<K> => ({ option, key, ...(value ? { value } : {}) });

/** The audit-run options, in --help order, each with its key in auditFile's options. */
export const AUDIT_RUN_OPTIONS = [
  run(
    () =>
      new Option(
        '--gan-epochs <n>',
        `LUCID-GAN training epochs (default: about ${AUDIT_DEFAULTS.ganSteps} steps, ` +
          `${AUDIT_DEFAULTS.ganStepsFewRows} on few rows; see lucid audit --help)`,
      ).argParser(positiveInt),
    'ganEpochs',
  ),
  run(
    () =>
      new Option(
        '--protected-bins <n>',
        `quantile bins for numeric protected columns (default ${AUDIT_DEFAULTS.protectedBins})`,
      ).argParser(intAtLeast2),
    'protectedBins',
  ),
  run(
    () =>
      new Option(
        '--protected-edges <col=edges>',
        'explicit bin edges for a numeric protected column, e.g. Age=16,30,50,90 (repeatable)',
      ).argParser(edgesArg),
    'protectedEdges',
  ),
  run(
    () =>
      new Option('-n <rows>', "rows per canonical set and GAN seed (the seeds' sets are pooled)")
        .argParser(positiveInt)
        .default(AUDIT_DEFAULTS.n),
    'n',
  ),
  run(
    () =>
      new Option(
        '--intersection-rows <n>',
        `the most rows per side and GAN seed of an intersection's canonical sets: each side gets ` +
          `${AUDIT_DEFAULTS.intersectionBudget.perRealRow}× the combination's real rows on it, pooled over the ` +
          `seeds, at least ${AUDIT_DEFAULTS.intersectionBudget.minRows}; the conditional sets get exactly n (0: ` +
          `neither)`,
      )
        .argParser(nonNegativeInt)
        .default(AUDIT_DEFAULTS.intersectionRows),
    'intersectionRows',
  ),
  run(
    () =>
      new Option(
        '--allow-small',
        `run on fewer than ${AUDIT_DEFAULTS.minRows} rows, or when every group of an attribute is small (otherwise ` +
          `an error)`,
      ),
    'allowSmall',
    (v) => v === true,
  ),
  run(
    () =>
      new Option('--fale-bootstrap <n>', 'FALE bootstrap replicates for 95% bands (0: none)')
        .argParser(nonNegativeInt)
        .default(AUDIT_DEFAULTS.faleBootstrap),
    'faleBootstrap',
  ),
  run(
    () =>
      new Option(
        '--gan-mode <mode>',
        'LUCID-GAN training: paper (the published one) or consistency (adds the prediction-consistency term; see ' +
          'lucid audit --help)',
      )
        .choices(['paper', 'consistency'])
        .default(AUDIT_DEFAULTS.ganMode),
    'ganMode',
  ),
  run(
    () =>
      new Option(
        '--gan-schedule <name>',
        'how long the GANs train: paper (the published fixed budget), fast (stopped on held-out real rows) or ' +
          'plateau (stopped when the sets stop getting closer to the training rows and their acceptance stops ' +
          'rising); see lucid audit --help',
      )
        .choices([...SCHEDULE_NAMES])
        .default(AUDIT_DEFAULTS.ganSchedule),
    'ganSchedule',
  ),
  run(
    () =>
      new Option(
        '--gan-rows <n>',
        'the most rows each LUCID-GAN trains on: more rows in the data give the GANs a stratified sample of n rows ' +
          '(the decision × the protected groups); the rest of the audit uses every row',
      )
        .argParser(positiveInt)
        .default(AUDIT_DEFAULTS.ganRows),
    'ganRows',
  ),
  run(
    () =>
      new Option(
        '--gan-seeds <n>',
        'LUCID-GANs to train (different seeds); every canonical figure is given with its spread over them',
      )
        .argParser(positiveInt)
        .default(AUDIT_DEFAULTS.ganSeeds),
    'ganSeeds',
  ),
  run(
    () =>
      new Option(
        '--gan-condition <mode>',
        'how the generator is conditioned when the sets are drawn (see lucid audit --help)',
      )
        .choices([...CONDITION_MODES])
        .default(AUDIT_DEFAULTS.ganCondition),
    'ganCondition',
  ),
  run(
    () =>
      new Option(
        '--no-rejection',
        'keep every generated row (the published sampling) instead of only those the model scores on their side',
      ),
    'rejection',
  ),
  run(
    () =>
      new Option(
        '--gan-point-share <x>',
        "give every numeric value held by at least this share of its column's rows a GAN mode of its own, generated " +
          'exactly (e.g. 0.05 for zero-inflated amounts; 0: none; EXPERIMENTS.md §7.3, §11)',
      )
        .argParser(share)
        .default(AUDIT_DEFAULTS.ganPointShare),
    'ganPointShare',
  ),
  run(
    () =>
      new Option(
        '--gan-correct <how>',
        'how the main canonical sets are corrected after their draw: none, classifier (more rows drawn, resampled by ' +
          "a real-vs-generated MLP's odds) or linear (the same with logistic regression); see lucid audit --help",
      )
        .choices([...CORRECTIONS])
        .default(AUDIT_DEFAULTS.ganCorrect),
    'ganCorrect',
  ),
  run(
    () =>
      new Option(
        '--gan-candidates <k>',
        `with --gan-correct classifier or linear: candidates drawn per row of a main set (default ` +
          `${CORRECTION_DEFAULTS.factor})`,
      ).argParser(intAtLeast2),
    'ganCandidates',
  ),
  run(
    () =>
      new Option(
        '--gan-side-by-side <when>',
        'train the GAN seeds side by side, one core each, when there are 2 or more threads: on or off (the ' +
          'generators are the same either way; EXPERIMENTS.md §12.8)',
      )
        .choices(['on', 'off'])
        .default(SIDE_BY_SIDE_DEFAULT ? 'on' : 'off'),
    'ganSideBySide',
    (v) => v === 'on',
  ),
  // --gan-cache DIR and --no-gan-cache set one value (DIR, or false); undefined: the default folder
  run(() => new Option('--gan-cache <dir>', GAN_CACHE_HELP), 'ganCacheDir', ganCacheDir),
  run(
    () =>
      new Option(
        '--no-gan-cache',
        'train the generators afresh and keep nothing (the cache is neither read nor written)',
      ),
    'ganCacheDir',
    ganCacheDir,
  ),
  run(
    () =>
      new Option(
        '--gan <file>',
        'use the trained generators of this file (written by --gan-save) instead of training; they must have been ' +
          'trained for this audit: the same rows, model scores, GAN options and lucid version',
      ),
    'gan',
  ),
  run(
    () =>
      new Option(
        '--gan-save <path>',
        "write the audit's trained (or reused) generators to this file, for --gan elsewhere (it holds a model of the " +
          'data: keep it as you keep the data)',
      ),
    'ganSave',
  ),
  run(modelTimeoutOption, 'modelTimeout'),
] as const;

function ganCacheDir(v: unknown): string | null {
  return v === false ? null : ((v as string | undefined) ?? defaultGanCacheDir());
}

/** The keys of auditFile's options that the audit-run options set. */
export type AuditRunKey = (typeof AUDIT_RUN_OPTIONS)[number]['key'];

/**
 * auditFile's options from commander's parsed values, built from the table: each option's value (by
 * its attribute name) under its key. Nothing is copied by hand: a new option is its row.
 */
export function auditRunValues(parsed: object): Pick<AuditFileOptions, AuditRunKey> {
  const from = parsed as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const o of AUDIT_RUN_OPTIONS as readonly AuditRunOption[]) {
    const v = from[o.option().attributeName()];
    out[o.key] = o.value ? o.value(v) : v;
  }
  return out as Pick<AuditFileOptions, AuditRunKey>;
}

/**
 * The audit's inputs that `lucid audit` and `lucid check --model` take alike from their own options: the data and how
 * to read it, the model, the audit-run options and the seed. The label, groups and fairness settings each command
 * takes from its own sources (the command line; the policy).
 */
export function auditCommonValues(
  opts: DataCliOptions & { data: string; model?: string; modelClasses?: Record<string, string>; seed: number },
): Pick<AuditFileOptions, 'data' | 'read' | 'model' | 'modelClasses' | 'seed' | AuditRunKey> {
  return {
    data: opts.data,
    read: readOptionsOf(opts),
    model: opts.model,
    modelClasses: opts.modelClasses,
    ...auditRunValues(opts),
    seed: opts.seed,
  };
}

/** Adds every audit-run option to `cmd`. */
export function withAuditRunOptions(cmd: Command): Command {
  for (const o of AUDIT_RUN_OPTIONS) cmd.addOption(o.option());
  return cmd;
}
