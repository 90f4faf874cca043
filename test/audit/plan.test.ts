// The audit's plan (src/audit/plan.ts): every default applied, every check of the call with its error,
// the derived seeds; the decision rule by output kind (methods/metrics/decision.ts); and the CLI's
// audit-run option table, every row of which names the key of auditFile's options it sets.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Command } from 'commander';
import { EngineError } from '../../src/engine/errors.js';
import type { Table } from '../../src/data/table.js';
import { auditPlan } from '../../src/audit/plan.js';
import {
  AUDIT_DEFAULTS,
  DERIVED_SEEDS,
  ganBatchFor,
  ganEpochsFor,
  type AuditOptions,
} from '../../src/audit/options.js';
import { CANONICAL_DEFAULTS, surrogateSplitSeed } from '../../src/audit/canonical.js';
import { CORRECTION_DEFAULTS } from '../../src/audit/correct.js';
import { GAN_SCHEDULES } from '../../src/audit/schedule.js';
import { FALE_DEFAULTS } from '../../src/methods/fale/index.js';
import { LUCID_DEFAULTS } from '../../src/methods/lucid/index.js';
import {
  decide,
  decideOne,
  decisionKinds,
  decisionRule,
  defaultPositive,
  METRICS_DEFAULTS,
  modelOrPred,
  positiveOf,
  type DecisionRule,
} from '../../src/methods/metrics/index.js';
import {
  auditCommonValues,
  auditRunValues,
  withAuditRunOptions,
  type AuditRunKey,
} from '../../src/cli/audit-options.js';
import { auditCommand } from '../../src/cli/commands/audit.js';
import { check as checkCommand } from '../../src/cli/commands/check.js';
import type { BlackBox } from '../../src/models/blackbox.js';
import { defaultGanCacheDir } from '../../src/node/gan-cache.js';

/** 120 rows: a two-valued label, a protected column, a score column and a feature. */
function table(rows = 120): Table {
  return {
    rows,
    columns: [
      {
        kind: 'categorical',
        name: 'y',
        codes: Int32Array.from({ length: rows }, (_, i) => i % 2),
        categories: ['no', 'yes'],
      },
      {
        kind: 'categorical',
        name: 'sex',
        codes: Int32Array.from({ length: rows }, (_, i) => (i >> 1) % 2),
        categories: ['F', 'M'],
      },
      { kind: 'numeric', name: 'p', values: Float64Array.from({ length: rows }, (_, i) => (i % 10) / 10) },
      { kind: 'numeric', name: 'x', values: Float64Array.from({ length: rows }, (_, i) => i) },
    ],
  };
}

const model: BlackBox = { kind: 'module', source: 'm.mjs', predict: async (t) => new Float64Array(t.rows).fill(0.5) };
const base: AuditOptions = { label: 'y', protected: ['sex'], pred: 'p' };

/** The E_ARG or E_INPUT error of `f`, whose message must match `re`. */
function throwsCode(f: () => unknown, code: 'E_ARG' | 'E_INPUT', re: RegExp): void {
  assert.throws(f, (e: unknown) => e instanceof EngineError && e.code === code && re.test(e.message));
}

describe('auditPlan: every default applied', () => {
  it('settles each option the caller left out to its default', () => {
    const p = auditPlan(table(), base);
    assert.equal(p.seed, 0);
    assert.equal(p.n, AUDIT_DEFAULTS.n);
    assert.equal(p.nInter, AUDIT_DEFAULTS.intersectionRows);
    assert.equal(p.protectedBins, AUDIT_DEFAULTS.protectedBins);
    assert.deepEqual(p.protectedEdges, {});
    assert.deepEqual(p.decision, { kind: 'probability', threshold: METRICS_DEFAULTS.threshold });
    assert.equal(p.positive, 'yes');
    assert.equal(p.positiveGiven, false);
    assert.equal(p.favourable, METRICS_DEFAULTS.favourable);
    assert.equal(p.tolerance, METRICS_DEFAULTS.tolerance);
    assert.equal(p.minGroupSize, METRICS_DEFAULTS.minGroupSize);
    assert.equal(p.confidence, METRICS_DEFAULTS.confidence);
    assert.equal(p.allowSmall, false);
    assert.equal(p.source, 'data');
    assert.equal(p.model, undefined);
    assert.equal(p.pred, 'p');
    assert.equal(p.gan.schedule, AUDIT_DEFAULTS.ganSchedule);
    assert.equal(p.gan.scheduleDef, GAN_SCHEDULES[AUDIT_DEFAULTS.ganSchedule]);
    assert.equal(p.gan.mode, AUDIT_DEFAULTS.ganMode);
    assert.equal(p.gan.pointShare, AUDIT_DEFAULTS.ganPointShare);
    assert.equal(p.gan.condition, AUDIT_DEFAULTS.ganCondition);
    assert.equal(p.gan.correct, AUDIT_DEFAULTS.ganCorrect);
    assert.equal(p.gan.candidates, CORRECTION_DEFAULTS.factor);
    assert.equal(p.gan.rejection, true);
    assert.equal(p.gan.rowsMax, AUDIT_DEFAULTS.ganRows);
    assert.equal(p.gan.batchFor(2000), ganBatchFor(2000));
    assert.equal(p.gan.epochsFor(2000, 500), ganEpochsFor(2000, 500));
    assert.deepEqual(p.fale, { bins: FALE_DEFAULTS.bins, bootstrap: AUDIT_DEFAULTS.faleBootstrap });
    assert.equal(p.lucidEpochs, LUCID_DEFAULTS.epochs);
    assert.equal(p.seeds.gans.length, AUDIT_DEFAULTS.ganSeeds);
  });

  it('keeps what the caller gave', () => {
    const p = auditPlan(table(), {
      ...base,
      seed: 5,
      threshold: 0.3,
      positive: 'no',
      favourable: 'negative',
      ganEpochs: 7,
      ganBatch: 20,
      ganSeeds: 2,
      rejection: false,
      ganCorrect: 'none',
      ganCandidates: 4,
      faleBins: 5,
      faleBootstrap: 0,
      lucidEpochs: 3,
      source: 'loans.csv',
    });
    assert.deepEqual(p.decision, { kind: 'probability', threshold: 0.3 });
    assert.equal(p.positive, 'no');
    assert.equal(p.positiveGiven, true);
    assert.equal(p.favourable, 'negative');
    assert.equal(p.gan.epochsFor(2000, 500), 7);
    assert.equal(p.gan.batchFor(2000), 20);
    assert.equal(p.gan.rejection, false);
    assert.equal(p.gan.correct, 'none');
    assert.equal(p.gan.candidates, 4);
    assert.deepEqual(p.fale, { bins: 5, bootstrap: 0 });
    assert.equal(p.lucidEpochs, 3);
    assert.equal(p.source, 'loans.csv');
  });

  it("derives every seed from the audit's seed as DERIVED_SEEDS says (the fingerprint's seeds)", () => {
    const s = 42;
    const p = auditPlan(table(), { ...base, seed: s, ganSeeds: 3 });
    const gans = [0, 1, 2].map((k) => s + k * CANONICAL_DEFAULTS.seedStride);
    assert.deepEqual(p.seeds, {
      audit: s,
      metrics: DERIVED_SEEDS.metrics(s),
      fale: DERIVED_SEEDS.fale(s),
      checks: DERIVED_SEEDS.checks(s),
      holdout: DERIVED_SEEDS.holdout(s),
      ganSample: DERIVED_SEEDS.ganSample(s),
      separation: DERIVED_SEEDS.separation(s),
      beyond: DERIVED_SEEDS.beyond(s),
      surrogateSplit: surrogateSplitSeed(s),
      gans,
      stopping: gans.map(DERIVED_SEEDS.stopping),
    });
    assert.equal(p.seeds.metrics, s + 11);
    assert.equal(p.seeds.fale, s + 7);
  });

  it('a model of kind "column" is no model; a model resolves the positive class against its classes', () => {
    assert.throws(
      () => auditPlan(table(), { label: 'y', protected: ['sex'], model: { ...model, kind: 'column' } }),
      /give a model to call or the name of a predictions column/,
    );
    const p = auditPlan(table(), { label: 'y', protected: ['sex'], model });
    assert.equal(p.model, model);
    assert.equal(p.pred, undefined);
    assert.equal(p.positive, 'yes');
  });
});

describe('auditPlan: every check with its error', () => {
  const cases: [string, AuditOptions, 'E_ARG' | 'E_INPUT', RegExp, Table?][] = [
    ['seed', { ...base, seed: -1 }, 'E_ARG', /^audit: seed must be a non-negative integer, got -1$/],
    ['n', { ...base, n: 0 }, 'E_ARG', /^audit: n must be a positive integer, got 0$/],
    [
      'intersectionRows',
      { ...base, intersectionRows: 1.5 },
      'E_ARG',
      /^audit: intersectionRows must be a non-negative integer, got 1.5$/,
    ],
    ['ganRows', { ...base, ganRows: 0 }, 'E_ARG', /^audit: ganRows must be a positive integer, got 0$/],
    ['no rows', base, 'E_INPUT', /^audit: the data has no rows$/, table(0)],
    ['no protected column', { ...base, protected: [] }, 'E_ARG', /^audit: name at least one protected column$/],
    [
      'a protected column twice',
      { ...base, protected: ['sex', 'sex'] },
      'E_ARG',
      /^audit: a protected column is named twice \(sex, sex\)$/,
    ],
    [
      'neither model nor pred',
      { label: 'y', protected: ['sex'] },
      'E_ARG',
      /^audit: give a model to call or the name of a predictions column \(pred\)$/,
    ],
    [
      'both model and pred',
      { ...base, model },
      'E_ARG',
      /^audit: give either a model or a predictions column, not both$/,
    ],
    ['an unknown label', { ...base, label: 'z' }, 'E_ARG', /z/],
    ['an unknown protected column', { ...base, protected: ['race'] }, 'E_ARG', /race/],
    [
      'the label as protected',
      { ...base, protected: ['y'] },
      'E_ARG',
      /^audit: "y" is the label or the predictions column; name protected columns$/,
    ],
    ['an unknown predictions column', { ...base, pred: 'q' }, 'E_ARG', /q/],
    [
      'edges of a column not protected',
      { ...base, protectedEdges: { x: [0, 1] } },
      'E_ARG',
      /^audit: protected edges name "x", which is not among the protected columns \(sex\)$/,
    ],
    [
      'model classes with a predictions column',
      { ...base, modelClasses: { a: 'yes' } },
      'E_ARG',
      /^audit: --model-classes maps the classes of a model; a predictions column has none/,
    ],
    ['too few rows', base, 'E_INPUT', /^audit: the data has 50 rows; an audit needs at least 100/, table(50)],
    ['the threshold', { ...base, threshold: 1.5 }, 'E_ARG', /^audit: threshold must be in \[0, 1\], got 1.5$/],
    [
      'a reference of a column not protected',
      { ...base, reference: { x: '1' } },
      'E_ARG',
      /^audit: the reference names "x", which is not among the protected columns \(sex\)$/,
    ],
    [
      'a legitimate column that is protected',
      { ...base, legitimate: ['sex'] },
      'E_ARG',
      /^audit: the legitimate column "sex" is a protected, label or predictions column$/,
    ],
    [
      'a positive class that is no label value (predictions column: read as the metrics read it)',
      { ...base, positive: 'maybe' },
      'E_ARG',
      /^metrics: --positive "maybe" is not a value of the label "y"/,
    ],
    [
      'a positive class that is no label value (model)',
      { label: 'y', protected: ['sex'], model, positive: 'maybe' },
      'E_ARG',
      /^audit: --positive "maybe" is not a value of the label "y"/,
    ],
    [
      'the schedule',
      { ...base, ganSchedule: 'slow' as never },
      'E_ARG',
      /^audit: ganSchedule must be one of paper, fast, plateau, got slow$/,
    ],
    ['the GAN seeds', { ...base, ganSeeds: 0 }, 'E_ARG', /^audit: ganSeeds must be a positive integer, got 0$/],
    [
      'the candidates',
      { ...base, ganCandidates: 1 },
      'E_ARG',
      /^audit: ganCandidates must be an integer of at least 2, got 1$/,
    ],
    // the later stages' checks, made before any work in the stages' words
    ['the tolerance', { ...base, tolerance: 1 }, 'E_ARG', /^metrics: tolerance must be in \(0, 1\) .*, got 1$/],
    ['the confidence', { ...base, confidence: 0 }, 'E_ARG', /^metrics: confidence must be in \(0, 1\), got 0$/],
    [
      'the favourable outcome',
      { ...base, favourable: 'both' as never },
      'E_ARG',
      /^metrics: favourable must be positive or negative, got both$/,
    ],
    [
      'the small-group size',
      { ...base, minGroupSize: -1 },
      'E_ARG',
      /^metrics: the small-group threshold must be a non-negative integer, got -1$/,
    ],
    [
      'the suppression threshold',
      { ...base, suppressBelow: 1.5 },
      'E_ARG',
      /^metrics: the suppression threshold must be a non-negative integer, got 1.5$/,
    ],
    [
      'the protected bins',
      { ...base, protectedBins: 0 },
      'E_ARG',
      /^bins: the number of bins must be a positive integer, got 0$/,
    ],
    ['the FALE bins', { ...base, faleBins: 1 }, 'E_ARG', /^fale: bins must be an integer ≥ 2, got 1$/],
    [
      'the GAN point share',
      { ...base, ganPointShare: 1 },
      'E_ARG',
      /^transformer: pointShare must be in \[0, 1\), got 1$/,
    ],
    [
      'the GAN batch',
      { ...base, ganBatch: 15 },
      'E_ARG',
      /^gan: batch must be a positive multiple of pac = 10, got 15$/,
    ],
    ['the GAN epochs', { ...base, ganEpochs: -1 }, 'E_ARG', /^gan: epochs must be a non-negative integer, got -1$/],
    ['the LUCID epochs', { ...base, lucidEpochs: 0 }, 'E_ARG', /^invert: epochs must be a positive integer, got 0$/],
  ];
  for (const [what, opts, code, re, t] of cases)
    it(what, () => throwsCode(() => auditPlan(t ?? table(), opts), code, re));

  it('--allow-small runs on few rows', () => {
    assert.equal(auditPlan(table(50), { ...base, allowSmall: true }).allowSmall, true);
  });
});

describe('the decision rule', () => {
  it('probability: positive above the threshold, not at it', () => {
    const r = decisionRule(0.5, 'x');
    assert.deepEqual(r, { kind: 'probability', threshold: 0.5 });
    assert.deepEqual([...decide(r, [0, 0.5, 0.5000001, 1])], [0, 0, 1, 1]);
    assert.equal(decideOne(r, 0.7), 1);
    assert.equal(decideOne(r, 0.2), 0);
    assert.deepEqual([...decide({ kind: 'probability', threshold: 0 }, [0, 1e-9])], [0, 1]);
    assert.deepEqual([...decide({ kind: 'probability', threshold: 1 }, [1])], [0]);
  });

  it("the default threshold, and the one check with the caller's name", () => {
    assert.equal(decisionRule(undefined, 'x').threshold, METRICS_DEFAULTS.threshold);
    for (const bad of [-0.1, 1.1, NaN, Infinity]) {
      throwsCode(
        () => decisionRule(bad, 'fale'),
        'E_ARG',
        new RegExp(`^fale: threshold must be in \\[0, 1\\], got ${bad}$`),
      );
    }
  });

  it("every output kind of the decision table decides its example's scores", () => {
    // a rule and scores either side of its line per kind; typed by the kind, so a new kind needs its example here
    const EXAMPLES: { [K in DecisionRule['kind']]: [Extract<DecisionRule, { kind: K }>, number[], number[]] } = {
      probability: [{ kind: 'probability', threshold: 0.3 }, [0, 0.3, 0.31, 1], [0, 0, 1, 1]],
      score: [{ kind: 'score', threshold: 620 }, [-3, 620, 620.5, 850], [0, 0, 1, 1]],
    };
    assert.deepEqual(decisionKinds(), Object.keys(EXAMPLES));
    for (const kind of decisionKinds()) {
      const [rule, scores, want] = EXAMPLES[kind];
      assert.deepEqual([...decide(rule, scores)], want, kind);
      assert.deepEqual(
        scores.map((s) => decideOne(rule, s)),
        want,
        kind,
      );
    }
  });
});

describe('the positive class and the model-or-predictions rule', () => {
  it('the default is the second of exactly two values', () => {
    assert.equal(defaultPositive(['0', '1']), '1');
    assert.equal(defaultPositive(['a', 'b', 'c']), undefined);
    assert.equal(positiveOf(['no', 'yes'], undefined, 'y'), 'yes');
    throwsCode(
      () => positiveOf(['a', 'b', 'c'], undefined, 'y', 'fale'),
      'E_ARG',
      /^fale: the label "y" has 3 values \(a, b, c\); name the positive one with --positive$/,
    );
  });

  it("exactly one of a model and a predictions column, in the caller's words", () => {
    const words = { none: 'none given', both: 'both given' };
    assert.equal(modelOrPred({ model: 'm.json' }, words), 'model');
    assert.equal(modelOrPred({ pred: 'p' }, words), 'pred');
    assert.equal(modelOrPred({ model: null, pred: 'p' }, words), 'pred');
    throwsCode(() => modelOrPred({}, words), 'E_ARG', /^none given$/);
    throwsCode(() => modelOrPred({ model: 'm.json', pred: 'p' }, words), 'E_ARG', /^both given$/);
  });
});

describe('the audit-run option table', () => {
  // each key's command line and the value auditFile must get; typed by AuditRunKey, so a new row needs its line here
  const LINES: Record<AuditRunKey, [string[], unknown]> = {
    ganEpochs: [['--gan-epochs', '3'], 3],
    protectedBins: [['--protected-bins', '4'], 4],
    protectedEdges: [['--protected-edges', 'age=1,2,3'], { age: [1, 2, 3] }],
    n: [['-n', '50'], 50],
    intersectionRows: [['--intersection-rows', '7'], 7],
    allowSmall: [['--allow-small'], true],
    faleBootstrap: [['--fale-bootstrap', '0'], 0],
    ganMode: [['--gan-mode', 'consistency'], 'consistency'],
    ganSchedule: [['--gan-schedule', 'fast'], 'fast'],
    ganRows: [['--gan-rows', '900'], 900],
    ganSeeds: [['--gan-seeds', '2'], 2],
    ganCondition: [['--gan-condition', 'extreme'], 'extreme'],
    rejection: [['--no-rejection'], false],
    ganPointShare: [['--gan-point-share', '0.1'], 0.1],
    ganCorrect: [['--gan-correct', 'none'], 'none'],
    ganCandidates: [['--gan-candidates', '5'], 5],
    ganSideBySide: [['--gan-side-by-side', 'off'], false],
    ganCacheDir: [['--no-gan-cache'], null],
    gan: [['--gan', 'g.json'], 'g.json'],
    ganSave: [['--gan-save', 's.json'], 's.json'],
    modelTimeout: [['--model-timeout', '9'], 9],
  };
  for (const [name, command] of [
    ['lucid audit', auditCommand],
    ['lucid check', checkCommand],
  ] as const)
    it(`${name}: each audit-run option's parsed value reaches auditFile's options under its key`, () => {
      for (const [key, [argv, want]] of Object.entries(LINES)) {
        command.exitOverride();
        // a fresh parse per line: commander keeps the values it parsed on the command
        for (const o of command.options) command.setOptionValue(o.attributeName(), o.defaultValue);
        command.parseOptions(argv);
        const v = auditCommonValues({ ...(command.opts() as object), data: 'd.csv', seed: 0 } as never) as Record<
          string,
          unknown
        >;
        assert.deepEqual(v[key], want, `${name} ${argv.join(' ')}`);
      }
    });

  it(
    'defaults: the GAN seeds from AUDIT_DEFAULTS, the default cache folder when neither --gan-cache nor ' +
      '--no-gan-cache',
    () => {
      const cmd = withAuditRunOptions(new Command('t').exitOverride());
      cmd.parse([], { from: 'user' });
      const v = auditRunValues(cmd.opts());
      assert.equal(v.ganSeeds, AUDIT_DEFAULTS.ganSeeds);
      assert.equal(v.allowSmall, false);
      assert.equal(v.rejection, true);
      assert.equal(v.ganCacheDir, defaultGanCacheDir());
    },
  );
});
