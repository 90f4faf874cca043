// Bias simulator: a seeded generator of loan decisions whose discrimination is planted, so the
// true answer an audit should find is known. Core code: no Node imports.
//
// Why it exists. Real data sets (Adult, COMPAS) have unknown ground truth: nobody knows how much of
// a model's preference for "Male" is direct, proxy or neither. Here the decision rule is written
// down, so tests of later stages (the GAN, LUCID, FALE, the metrics) and the demo can check that a
// method finds what was planted, and does not find what was not.
//
// What it is not: a model of any real lending market. The numbers are plausible, not calibrated.
//
// ── Columns (in table order) ─────────────────────────────────────────────────────────────────────
//   age             numeric, whole years in [18, 80]. BIMODAL: a mixture of a younger cohort
//                   N(30, 4.5²) (55%) and an older one N(54, 6²) (45%), so a single Gaussian fits
//                   it badly and the VGM has two modes to find.
//   sex             categorical {Female, Male}, P(Female) = 0.5.                        PROTECTED
//   group           categorical {A, B}, P(B) = 0.3 (an ethnic or national-origin group). PROTECTED
//   neighbourhood   categorical {Eastfield, Hillcrest, Northgate, Riverside, Southport, Westbrook}.
//                   Residential segregation makes it a PROXY for group: group B lives in Eastfield
//                   or Southport with probability 0.80, group A with probability 0.12; within each
//                   part the zones are equally likely.
//   education       categorical {Bachelor, Doctorate, Master, Secondary, Vocational} (ordinal level
//                   Secondary 0, Vocational 1, Bachelor 2, Master 3, Doctorate 4). Its distribution
//                   differs by group (A: .30 .25 .28 .13 .04, B: .40 .28 .21 .09 .02 by level), a
//                   structural difference that exists before any decision is made.
//   hours_per_week  numeric, whole hours in [4, 80]. BIMODAL: part-time N(20, 3²) or full-time
//                   N(41, 4²); P(part-time) is 0.40 for women and 0.15 for men.
//   income          numeric, thousands per year, one decimal. SKEWED (log-normal):
//                   ln income = 3.0 + 0.18·level + 0.035·(age−18) − 0.0005·(age−18)² + 0.8·ln(hours/40)
//                               + 0.45·ε,  ε ~ N(0, 1)
//   debt_ratio      numeric, existing monthly debt over monthly income, three decimals. SKEWED:
//                   exp(−1.4 + 0.5·ε), capped at 2.
//   approved        categorical {no, yes}: the decision (the label; "yes" is favourable).
//
// ── Decision rule ────────────────────────────────────────────────────────────────────────────────
//   legitimate score  L = −0.7 + 1.5·ln(income/40) + 0.3·level − 3·(debt_ratio − 0.25)
//   score             S = L − strength·[penalised]
//   approved          'yes' with probability σ(S) (decision: 'sample', the default), or when S > 0
//                     (decision: 'threshold')
// where [penalised] depends on `bias`:
//   fair             never (no planted discrimination): group and sex rates still differ, but only
//                    through education, hours and hence income, i.e. through legitimate features;
//   direct           group = B: the rule reads the protected attribute;
//   proxy            neighbourhood ∈ {Eastfield, Southport}: the rule never reads group or sex, yet
//                    group B is hurt because it lives there (conditional on neighbourhood, the groups
//                    are treated alike);
//   intersectional   sex = Female and group = B: women of group B only; men of group B and women of
//                    group A are treated like everyone else.
// `strength` is in logits (default 1.5: at a 50% legitimate approval chance the penalised drop to
// 18%).
//
// ── Targets (`target`; docs/data.md "Targets") ───────────────────────────────────────────────────
// The same people and the same penalised rows, with the label and the prediction of another output kind:
//   binary       approved as above (the default; the table and its bytes as they always were). The label itself
//                carries the bias; P(approved = yes) is written as a prediction only when named.
//   score        credit_score = clamp(round(680 + 50·(L + 0.8·ε) − 50·strength·[penalised]), 300, 850), a credit
//                score (higher is favourable); repaid = yes with probability σ(L + 1), from L alone, so the bias is
//                in the score and not in the outcomes.
//   multiclass   decision: the same score cut at fixed points, approve when ≥ 680, decline when < 620, else refer
//                (about 33 / 34 / 33% under fair); merited: the same cut of the score without the penalty and
//                with its own noise ε′ (what the legitimate features alone give).
//   regression   offered_limit = round(V·(1 − share·[penalised])·(1 + 0.1·ε)), a credit-limit offer in currency
//                units, V = 10000·exp(0.35·L) and share = 1 − exp(−0.35·strength) (0.41 at 1.5);
//                merited_limit = round(V·(1 + 0.1·ε′)). The noise is a share of the value, so the offer stays > 0.
// One logit of L is 50 score points or a factor exp(0.35) on V, so `strength` keeps its meaning: the penalised
// lose what `strength` logits of legitimate score are worth. Sizes at the defaults, population of 200,000 rows
// (docs/data.md "Targets"; test/data/simulator.test.ts checks them): direct puts group B over A far outside the
// band [0.8, 1.25] on each target's main metric (score: the selection rate at the median, 0.31; multiclass: the
// rate of receiving decline, 2.38; regression: the mean offer, 0.56); fair keeps them inside (0.91, 1.13, 0.94).
//
// ── Determinism ──────────────────────────────────────────────────────────────────────────────────
// Every draw comes from the caller's seeded Rng: 16 uniforms per row, in row-major blocks of 4096
// rows (a multiple of 4, so the Philox stream is the same as one large draw; memory stays bounded).
// Normals come from Box–Muller in JS. The features depend only on the seed and n, never on `bias`,
// `strength`, `decision` or `target`: the same seed gives the same people under every rule, and only
// the label and the prediction differ. Targets other than binary draw 4 more uniforms per row (two normals: ε for
// the prediction, ε′ for the label) after every feature is drawn; binary draws none, so its stream is unchanged.
// The same seed and options give a bit-identical table, on every kernel build: Philox uniforms are exact, and
// everything transformed is computed here in JS, not in wasm.
import { check } from '../engine/errors.js';
import type { Rng } from '../engine/rng.js';
import { type CategoricalColumn, type Column, getColumn, type NumericColumn, type Table } from './table.js';
import { log as fdlog, exp as fdexp } from '../engine/fdlibm.js';

export type BiasKind = 'fair' | 'direct' | 'proxy' | 'intersectional';
export const BIAS_KINDS: readonly BiasKind[] = ['fair', 'direct', 'proxy', 'intersectional'];

/** the multiclass target's classes, sorted like every dictionary, and their order, most favourable first */
export const SIM_DECISIONS = ['approve', 'decline', 'refer'];
export const SIM_DECISION_ORDER = ['approve', 'refer', 'decline'];

/** What the simulated model outputs: the names of the audit's output kinds. */
export type SimTarget = 'binary' | 'score' | 'multiclass' | 'regression';

/**
 * The one table of targets: the label column, the planted prediction's default name (null: binary writes one only
 * when named), the metric whose population value the planted sizes are stated against (docs/data.md "Targets") and
 * the flags of `lucid metrics` that audit the prediction as planted.
 * The CLI's `--target` choices and help derive from it.
 */
export const SIM_TARGETS = {
  binary: {
    help: 'approved no/yes drawn from σ(L − penalty): the label carries the bias (the original table)',
    label: 'approved',
    prediction: null,
    main: "the approval rate: the disadvantaged rows' over the reference's",
    audit: '--positive yes',
  },
  score: {
    help: 'a credit score on 300–850 from L plus noise minus the penalty, and repaid no/yes drawn from L alone',
    label: 'repaid',
    prediction: 'credit_score',
    main:
      'the selection rate at the median score (credit_score ≥ the median of all rows): disadvantaged over ' +
      'reference',
    audit: '--output score --positive yes --favourable higher',
  },
  multiclass: {
    help: 'approve / refer / decline cut from such a score, and merited: the class L alone gives (its own noise)',
    label: 'merited',
    prediction: 'decision',
    main: 'the rate of receiving decline, the least favourable class: disadvantaged over reference',
    audit: `--output multiclass --class-order ${SIM_DECISION_ORDER.join(',')}`,
  },
  regression: {
    help: 'a credit-limit offer in currency units, V·(1 − penalty) plus noise, and merited_limit: V plus noise',
    label: 'merited_limit',
    prediction: 'offered_limit',
    main: 'the mean offer: disadvantaged over reference',
    audit: '--output regression --favourable higher',
  },
} as const satisfies Record<
  SimTarget,
  { help: string; label: string; prediction: string | null; main: string; audit: string }
>;
export const SIM_TARGET_NAMES = Object.keys(SIM_TARGETS) as SimTarget[];

export interface SimulateOptions {
  /** number of rows */
  n: number;
  bias: BiasKind;
  /** penalty in logits applied to the penalised rows; default 1.5, must be ≥ 0 */
  strength?: number;
  /** 'sample' (default): approved ~ Bernoulli(σ(S)); 'threshold': approved when S > 0 (binary target only) */
  decision?: 'sample' | 'threshold';
  /** what the table's label and prediction are (SIM_TARGETS); default 'binary', the original table */
  target?: SimTarget;
  /**
   * the prediction column's name: binary writes P(approved = yes) under it only when given; the other targets always
   * write their planted prediction, under SIM_TARGETS[target].prediction unless named here
   */
  prediction?: string;
}

/** A conjunction of conditions `column ∈ values`; a row is penalised when all hold. */
export interface Condition {
  column: string;
  values: string[];
}

export interface SimulationTruth {
  bias: BiasKind;
  strength: number;
  decision: 'sample' | 'threshold';
  /** the rule in words and symbols */
  rule: string;
  /** the columns the decision rule reads (the protected ones only under direct/intersectional) */
  reads: string[];
  /** coefficients of the legitimate score L (education enters through its ordinal level) */
  coefficients: { intercept: number; logIncome: number; educationLevel: number; debtRatio: number };
  /** rows meeting every condition get −strength on the logit; empty for 'fair' */
  penalised: Condition[];
  /** the protected combination(s) the planted effect hurts, e.g. [{group: 'B'}]; empty for 'fair' */
  disadvantaged: Record<string, string>[];
  /** per row: legitimate score L */
  legitimateScore: Float64Array;
  /** per row: full score S = L − strength·[penalised] */
  score: Float64Array;
  /** per row: σ(S) */
  probability: Float64Array;
  /** what the table's target plants (for binary: the penalty on S in logits and σ(L)) */
  target: TargetTruth;
}

/** What was planted in a target's prediction, so that a calibration can compare verdicts with it. */
export interface TargetTruth {
  target: SimTarget;
  /**
   * the penalty on a penalised row in `unit`, 0 for fair: logits on S (binary), points off the score (score and
   * multiclass), the share taken off the value (regression)
   */
  penalty: number;
  unit: 'logits' | 'points' | 'share';
  /** the target's rule in words and symbols */
  rule: string;
  /**
   * per row: the prediction the legitimate features alone give, before noise: σ(L) (binary), the score
   * centre + pointsPerLogit·L (score, multiclass: the class is cut from it), the value V (regression)
   */
  legitimate: Float64Array;
  /** per row: 1 where the penalty applies (the bias kind's condition holds and the kind is not fair) */
  penalisedRows: Uint8Array;
}

export interface Simulation {
  table: Table;
  /** the label column (SIM_TARGETS[target].label: 'approved', 'repaid', 'merited', 'merited_limit') */
  label: string;
  /** the favourable label value ('yes'; 'approve' for multiclass) or, for regression, 'higher' */
  favourable: string;
  /** what the label and the prediction are */
  target: SimTarget;
  /** the planted prediction's column, the last of the table; null for binary without a named prediction */
  prediction: string | null;
  /** the protected columns ('sex', 'group') */
  protected: string[];
  /** the non-protected feature that proxies group ('neighbourhood') */
  proxy: string;
  truth: SimulationTruth;
}

// Category dictionaries, sorted alphabetically like every loader's (one-hot orders then agree).
export const SIM_SEX = ['Female', 'Male'];
export const SIM_GROUP = ['A', 'B'];
export const SIM_NEIGHBOURHOOD = ['Eastfield', 'Hillcrest', 'Northgate', 'Riverside', 'Southport', 'Westbrook'];
export const SIM_REDLINED = ['Eastfield', 'Southport'];
export const SIM_EDUCATION = ['Bachelor', 'Doctorate', 'Master', 'Secondary', 'Vocational'];
/** ordinal level of each SIM_EDUCATION entry */
export const SIM_EDUCATION_LEVEL: Readonly<Record<string, number>> = {
  Secondary: 0,
  Vocational: 1,
  Bachelor: 2,
  Master: 3,
  Doctorate: 4,
};
export const SIM_APPROVED = ['no', 'yes'];
/** the feature columns, in table order (the label and the prediction follow) */
export const SIM_FEATURES = [
  'age',
  'sex',
  'group',
  'neighbourhood',
  'education',
  'hours_per_week',
  'income',
  'debt_ratio',
];

const P_FEMALE = 0.5;
const P_GROUP_B = 0.3;
const P_YOUNG = 0.55;
const P_REDLINED = { A: 0.12, B: 0.8 };
const P_PART_TIME = { Female: 0.4, Male: 0.15 };
// education probabilities by level (Secondary … Doctorate)
const P_EDU = { A: [0.3, 0.25, 0.28, 0.13, 0.04], B: [0.4, 0.28, 0.21, 0.09, 0.02] };
// level → index in SIM_EDUCATION
const EDU_CODE_OF_LEVEL = [3, 4, 0, 2, 1];

const COEF = { intercept: -0.7, logIncome: 1.5, educationLevel: 0.3, debtRatio: -3 };
const INCOME_REF = 40;
const DEBT_REF = 0.25;

// Targets other than binary. The score is L on a credit scale: pointsPerLogit points per logit of L, so the
// penalty of `strength` logits is pointsPerLogit·strength points (75 at the default 1.5). The classes are cut from
// that score at fixed points. The credit limit is V = scale·exp(logPerLogit·L): a logit of L is a factor
// exp(logPerLogit) on V, so the penalty takes the share 1 − exp(−logPerLogit·strength) off V (0.41 at 1.5).
const SCORE = { centre: 680, pointsPerLogit: 50, noise: 0.8, min: 300, max: 850, repaidOffset: 1 };
const CLASS_CUTS = { approve: 680, refer: 620 };
const LIMIT = { scale: 10000, logPerLogit: 0.35, noise: 0.1 };

const UNIFORMS_PER_ROW = 16;
const BLOCK_ROWS = 4096;
const MAX_ROWS = 50_000_000;

// Neighbourhood probabilities per group, aligned with SIM_NEIGHBOURHOOD: the redlined share split
// evenly over the redlined zones, the rest evenly over the others.
const HOOD_P = {
  A: SIM_NEIGHBOURHOOD.map((h) =>
    SIM_REDLINED.includes(h)
      ? P_REDLINED.A / SIM_REDLINED.length
      : (1 - P_REDLINED.A) / (SIM_NEIGHBOURHOOD.length - SIM_REDLINED.length),
  ),
  B: SIM_NEIGHBOURHOOD.map((h) =>
    SIM_REDLINED.includes(h)
      ? P_REDLINED.B / SIM_REDLINED.length
      : (1 - P_REDLINED.B) / (SIM_NEIGHBOURHOOD.length - SIM_REDLINED.length),
  ),
};

/** Index k drawn with probabilities p (inverse CDF of one uniform); the last index absorbs rounding. */
function pick(p: readonly number[], u: number): number {
  let acc = 0;
  for (let k = 0; k < p.length - 1; k++) {
    acc += p[k];
    if (u < acc) return k;
  }
  return p.length - 1;
}

const sigmoid = (x: number): number => 1 / (1 + fdexp(-x));

/** N(0, 1) from two uniforms in [0, 1) (Box–Muller; 1 − u1 ∈ (0, 1] keeps the log finite). */
function normal(u1: number, u2: number): number {
  return Math.sqrt(-2 * fdlog(1 - u1)) * Math.cos(2 * Math.PI * u2);
}

const clamp = (x: number, lo: number, hi: number): number => (x < lo ? lo : x > hi ? hi : x);

function penaltyFor(bias: BiasKind): {
  penalised: Condition[];
  disadvantaged: Record<string, string>[];
  reads: string[];
} {
  const legit = ['income', 'education', 'debt_ratio'];
  switch (bias) {
    case 'fair':
      return { penalised: [], disadvantaged: [], reads: legit };
    case 'direct':
      return {
        penalised: [{ column: 'group', values: ['B'] }],
        disadvantaged: [{ group: 'B' }],
        reads: [...legit, 'group'],
      };
    case 'proxy':
      return {
        penalised: [{ column: 'neighbourhood', values: SIM_REDLINED.slice() }],
        disadvantaged: [{ group: 'B' }],
        reads: [...legit, 'neighbourhood'],
      };
    case 'intersectional':
      return {
        penalised: [
          { column: 'sex', values: ['Female'] },
          { column: 'group', values: ['B'] },
        ],
        disadvantaged: [{ sex: 'Female', group: 'B' }],
        reads: [...legit, 'sex', 'group'],
      };
  }
}

function checkOptions(bias: unknown, strength: unknown, where: string): asserts bias is BiasKind {
  check(
    BIAS_KINDS.includes(bias as BiasKind),
    'E_ARG',
    () => `${where}: bias must be one of ${BIAS_KINDS.join(', ')}, got ${String(bias)}`,
  );
  check(
    typeof strength === 'number' && Number.isFinite(strength) && strength >= 0,
    'E_ARG',
    () => `${where}: strength must be a finite number ≥ 0 (logits), got ${String(strength)}`,
  );
}

/**
 * The decision rule applied to a table with the simulator's columns. It reads columns by name and
 * only those in `reads` for the chosen bias, so a test can swap a protected column and see whether
 * the scores move. Returns per row L, S and whether the penalty applies (1: the bias kind's condition holds;
 * every target penalises these rows). Throws E_INPUT when a needed column is absent or of the wrong kind.
 */
export function simulatorScores(
  table: Table,
  opts: { bias: BiasKind; strength?: number },
): { legitimate: Float64Array; score: Float64Array; penalised: Uint8Array } {
  const strength = opts.strength ?? 1.5;
  checkOptions(opts.bias, strength, 'simulatorScores');
  const where = 'simulatorScores';
  const num = (name: string): Float64Array => {
    const c = getColumn(table, name, where);
    check(c.kind === 'numeric', 'E_INPUT', () => `${where}: column "${name}" must be numeric`);
    return c.values;
  };
  const cat = (name: string): CategoricalColumn => {
    const c = getColumn(table, name, where);
    check(c.kind === 'categorical', 'E_INPUT', () => `${where}: column "${name}" must be categorical`);
    return c;
  };
  const income = num('income');
  const debt = num('debt_ratio');
  const edu = cat('education');
  const levelOfCode = edu.categories.map((label) => {
    const l = SIM_EDUCATION_LEVEL[label];
    check(
      l !== undefined,
      'E_INPUT',
      () => `${where}: education has an unknown category "${label}"; expected ${SIM_EDUCATION.join(', ')}`,
    );
    return l;
  });
  const { penalised } = penaltyFor(opts.bias);
  // Each condition as a per-code membership mask over that column's own dictionary.
  const conds = penalised.map((cond) => {
    const c = cat(cond.column);
    return { codes: c.codes, hit: c.categories.map((label) => cond.values.includes(label)) };
  });
  const n = table.rows;
  const legitimate = new Float64Array(n);
  const score = new Float64Array(n);
  const penalisedRows = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const L =
      COEF.intercept +
      COEF.logIncome * fdlog(income[i] / INCOME_REF) +
      COEF.educationLevel * levelOfCode[edu.codes[i]] +
      COEF.debtRatio * (debt[i] - DEBT_REF);
    let hit = conds.length > 0;
    for (const c of conds) hit &&= c.codes[i] >= 0 && c.hit[c.codes[i]];
    legitimate[i] = L;
    score[i] = hit ? L - strength : L;
    penalisedRows[i] = hit ? 1 : 0;
  }
  return { legitimate, score, penalised: penalisedRows };
}

/** Generates `n` loan applications and decisions with the chosen planted discrimination. */
export function simulate(rng: Rng, opts: SimulateOptions): Simulation {
  const where = 'simulate';
  const { n } = opts;
  const strength = opts.strength ?? 1.5;
  const decision = opts.decision ?? 'sample';
  const target = opts.target ?? 'binary';
  check(
    SIM_TARGET_NAMES.includes(target),
    'E_ARG',
    () => `${where}: target must be one of ${SIM_TARGET_NAMES.join(', ')}, got ${String(target)}`,
  );
  check(
    target === 'binary' || decision === 'sample',
    'E_ARG',
    () => `${where}: decision 'threshold' is for the binary target; the ${target} target's label is always drawn`,
  );
  check(
    Number.isInteger(n) && n >= 1 && n <= MAX_ROWS,
    'E_ARG',
    () => `${where}: n must be an integer in [1, ${MAX_ROWS}], got ${n}`,
  );
  checkOptions(opts.bias, strength, where);
  check(
    decision === 'sample' || decision === 'threshold',
    'E_ARG',
    () => `${where}: decision must be 'sample' or 'threshold', got ${String(decision)}`,
  );

  const age = new Float64Array(n);
  const sex = new Int32Array(n);
  const group = new Int32Array(n);
  const hood = new Int32Array(n);
  const edu = new Int32Array(n);
  const hours = new Float64Array(n);
  const income = new Float64Array(n);
  const debt = new Float64Array(n);
  const decisionU = new Float64Array(n);

  for (let start = 0; start < n; start += BLOCK_ROWS) {
    const rows = Math.min(BLOCK_ROWS, n - start);
    const U = rng.uniformHost(rows * UNIFORMS_PER_ROW);
    for (let r = 0; r < rows; r++) {
      const i = start + r;
      const u = r * UNIFORMS_PER_ROW;
      // u+0 group, u+1 sex, u+2 age cohort, u+3/4 age normal, u+5 neighbourhood, u+6 education,
      // u+7 part-time, u+8/9 hours normal, u+10/11 income normal, u+12/13 debt normal,
      // u+14 decision, u+15 unused (keeps the row a multiple of 4 and room for one more draw).
      const g = U[u] < P_GROUP_B ? 1 : 0;
      const s = U[u + 1] < P_FEMALE ? 0 : 1;
      group[i] = g;
      sex[i] = s;
      const young = U[u + 2] < P_YOUNG;
      const z = normal(U[u + 3], U[u + 4]);
      age[i] = clamp(Math.round(young ? 30 + 4.5 * z : 54 + 6 * z), 18, 80);

      hood[i] = pick(g === 1 ? HOOD_P.B : HOOD_P.A, U[u + 5]);
      const level = pick(g === 1 ? P_EDU.B : P_EDU.A, U[u + 6]);
      edu[i] = EDU_CODE_OF_LEVEL[level];

      const partTime = U[u + 7] < (s === 0 ? P_PART_TIME.Female : P_PART_TIME.Male);
      const zh = normal(U[u + 8], U[u + 9]);
      hours[i] = clamp(Math.round(partTime ? 20 + 3 * zh : 41 + 4 * zh), 4, 80);

      const a = age[i] - 18;
      const lnInc =
        3.0 +
        0.18 * level +
        0.035 * a -
        0.0005 * a * a +
        0.8 * fdlog(hours[i] / 40) +
        0.45 * normal(U[u + 10], U[u + 11]);
      income[i] = Math.max(0.1, Math.round(fdexp(lnInc) * 10) / 10);
      debt[i] = Math.min(2, Math.round(fdexp(-1.4 + 0.5 * normal(U[u + 12], U[u + 13])) * 1000) / 1000);
      decisionU[i] = U[u + 14];
    }
  }

  const num = (name: string, values: Float64Array): NumericColumn => ({ kind: 'numeric', name, values });
  const cat = (name: string, codes: Int32Array, categories: string[]): CategoricalColumn => ({
    kind: 'categorical',
    name,
    codes,
    categories: categories.slice(),
  });
  const features: Table = {
    rows: n,
    columns: [
      num('age', age),
      cat('sex', sex, SIM_SEX),
      cat('group', group, SIM_GROUP),
      cat('neighbourhood', hood, SIM_NEIGHBOURHOOD),
      cat('education', edu, SIM_EDUCATION),
      num('hours_per_week', hours),
      num('income', income),
      num('debt_ratio', debt),
    ],
  };

  const sim = simulatorScores(features, { bias: opts.bias, strength });
  const { legitimate, score } = sim;
  const probability = new Float64Array(n);
  const approved = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    probability[i] = sigmoid(score[i]);
    approved[i] = (decision === 'sample' ? decisionU[i] < probability[i] : score[i] > 0) ? 1 : 0;
  }
  const p = penaltyFor(opts.bias);
  const row = SIM_TARGETS[target];
  let planted: { columns: Column[]; truth: TargetTruth; favourable: string };
  if (target === 'binary') {
    const columns: Column[] = [cat('approved', approved, SIM_APPROVED)];
    if (opts.prediction !== undefined) {
      check(
        !SIM_FEATURES.includes(opts.prediction) && opts.prediction !== 'approved',
        'E_ARG',
        () => `${where}: the prediction column "${opts.prediction}" is already a column of the simulator's table`,
      );
      columns.push(num(opts.prediction, probability));
    }
    planted = {
      columns,
      favourable: 'yes',
      truth: {
        target,
        penalty: p.penalised.length === 0 ? 0 : strength,
        unit: 'logits',
        rule: '',
        legitimate: legitimate.map(sigmoid),
        penalisedRows: sim.penalised,
      },
    };
  } else {
    planted = plantTarget(target, {
      rng,
      legitimate,
      penalised: sim.penalised,
      decisionU,
      strength: p.penalised.length === 0 ? 0 : strength,
      prediction: opts.prediction ?? (row.prediction as string),
    });
  }
  features.columns.push(...planted.columns);

  const condText = p.penalised.map((c) => `${c.column} ∈ {${c.values.join(', ')}}`).join(' and ');
  const penaltyText = (size: string): string => (p.penalised.length === 0 ? '' : ` − ${size}·[${condText}]`);
  const binaryRule =
    `S = ${COEF.intercept} + ${COEF.logIncome}·ln(income/${INCOME_REF}) + ` +
    `${COEF.educationLevel}·level(education) ${COEF.debtRatio < 0 ? '−' : '+'} ` +
    `${Math.abs(COEF.debtRatio)}·(debt_ratio − ${DEBT_REF})${penaltyText(String(strength))}; approved = ` +
    (decision === 'sample' ? 'yes with probability σ(S)' : 'yes when S > 0');
  const legitRule =
    `L = ${COEF.intercept} + ${COEF.logIncome}·ln(income/${INCOME_REF}) + ` +
    `${COEF.educationLevel}·level(education) ${COEF.debtRatio < 0 ? '−' : '+'} ` +
    `${Math.abs(COEF.debtRatio)}·(debt_ratio − ${DEBT_REF})`;
  const P = planted.truth.penalty;
  const pred = planted.columns.length > 1 ? planted.columns[1].name : null;
  const scoreText = `${SCORE.centre} + ${SCORE.pointsPerLogit}·(L + ${SCORE.noise}·ε)${penaltyText(String(P))}`;
  const ruleOf: Record<SimTarget, string> = {
    binary: binaryRule,
    score:
      `${legitRule}; ${pred} = clamp(round(${scoreText}), ${SCORE.min}, ${SCORE.max}); ${row.label} = yes with ` +
      `probability σ(L + ${SCORE.repaidOffset})`,
    multiclass:
      `${legitRule}; s = clamp(round(${scoreText}), ${SCORE.min}, ${SCORE.max}); ${pred} = approve when s ≥ ` +
      `${CLASS_CUTS.approve}, decline when s < ${CLASS_CUTS.refer}, else refer; ${row.label} = the same cut of s ` +
      `without the penalty, with its own ε′`,
    regression:
      `${legitRule}; V = ${LIMIT.scale}·exp(${LIMIT.logPerLogit}·L); ${pred} = round(V` +
      `${p.penalised.length === 0 ? '' : `·(1 − ${round4(P)}·[${condText}])`}·(1 + ${LIMIT.noise}·ε)); ` +
      `${row.label} = round(V·(1 + ${LIMIT.noise}·ε′))`,
  };
  planted.truth.rule = ruleOf[target];
  return {
    table: features,
    label: row.label,
    favourable: planted.favourable,
    protected: ['sex', 'group'],
    proxy: 'neighbourhood',
    target,
    prediction: pred,
    truth: {
      bias: opts.bias,
      strength,
      decision,
      rule: target === 'binary' ? binaryRule : ruleOf[target],
      reads: p.reads,
      coefficients: { ...COEF },
      penalised: p.penalised,
      disadvantaged: p.disadvantaged,
      legitimateScore: legitimate,
      score,
      probability,
      target: planted.truth,
    },
  };
}

const round4 = (x: number): number => Math.round(x * 1e4) / 1e4;

/**
 * The label and the planted prediction of a score, multiclass or regression target (the constants SCORE, CLASS_CUTS,
 * LIMIT). Draws 4 uniforms per row after every feature is drawn (blocks of BLOCK_ROWS rows), so the people are the same
 * under every target: two normals, ε for the prediction's noise and ε′ for the label's.
 */
function plantTarget(
  target: Exclude<SimTarget, 'binary'>,
  a: {
    rng: Rng;
    legitimate: Float64Array;
    penalised: Uint8Array;
    decisionU: Float64Array;
    strength: number;
    prediction: string;
  },
): { columns: Column[]; truth: TargetTruth; favourable: string } {
  const n = a.legitimate.length;
  const L = a.legitimate;
  const label = SIM_TARGETS[target].label;
  check(
    !SIM_FEATURES.includes(a.prediction) && a.prediction !== label,
    'E_ARG',
    () => `simulate: the prediction column "${a.prediction}" is already a column of the simulator's table`,
  );
  const eps = new Float64Array(n);
  const epsLabel = new Float64Array(n);
  for (let start = 0; start < n; start += BLOCK_ROWS) {
    const rows = Math.min(BLOCK_ROWS, n - start);
    const U = a.rng.uniformHost(rows * 4);
    for (let r = 0; r < rows; r++) {
      eps[start + r] = normal(U[4 * r], U[4 * r + 1]);
      epsLabel[start + r] = normal(U[4 * r + 2], U[4 * r + 3]);
    }
  }
  const legit = new Float64Array(n);
  if (target === 'regression') {
    const share = 1 - fdexp(-LIMIT.logPerLogit * a.strength);
    const offered = new Float64Array(n);
    const merited = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const V = LIMIT.scale * fdexp(LIMIT.logPerLogit * L[i]);
      legit[i] = V;
      // the noise is a share of the value, so that no offer is ≤ 0 (|ε| < 8.6 from Box–Muller; the floor is a guard)
      offered[i] = Math.max(1, Math.round(V * (a.penalised[i] ? 1 - share : 1) * (1 + LIMIT.noise * eps[i])));
      merited[i] = Math.max(1, Math.round(V * (1 + LIMIT.noise * epsLabel[i])));
    }
    return {
      columns: [
        { kind: 'numeric', name: label, values: merited },
        { kind: 'numeric', name: a.prediction, values: offered },
      ],
      favourable: 'higher',
      truth: {
        target,
        penalty: share,
        unit: 'share',
        rule: '',
        legitimate: legit,
        penalisedRows: a.penalised,
      },
    };
  }
  const points = SCORE.pointsPerLogit * a.strength;
  const scoreOf = (l: number, e: number, pen: boolean): number =>
    clamp(
      Math.round(SCORE.centre + SCORE.pointsPerLogit * (l + SCORE.noise * e) - (pen ? points : 0)),
      SCORE.min,
      SCORE.max,
    );
  for (let i = 0; i < n; i++) legit[i] = SCORE.centre + SCORE.pointsPerLogit * L[i];
  const truth: TargetTruth = {
    target,
    penalty: points,
    unit: 'points',
    rule: '',
    legitimate: legit,
    penalisedRows: a.penalised,
  };
  if (target === 'score') {
    const credit = new Float64Array(n);
    const repaid = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      credit[i] = scoreOf(L[i], eps[i], a.penalised[i] === 1);
      // the label reads the legitimate score only: the planted bias is in the score, not in the outcomes
      repaid[i] = a.decisionU[i] < sigmoid(L[i] + SCORE.repaidOffset) ? 1 : 0;
    }
    return {
      columns: [
        { kind: 'categorical', name: label, codes: repaid, categories: SIM_APPROVED.slice() },
        { kind: 'numeric', name: a.prediction, values: credit },
      ],
      favourable: 'yes',
      truth,
    };
  }
  const code = (s: number): number =>
    SIM_DECISIONS.indexOf(s >= CLASS_CUTS.approve ? 'approve' : s >= CLASS_CUTS.refer ? 'refer' : 'decline');
  const decided = new Int32Array(n);
  const merited = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    decided[i] = code(scoreOf(L[i], eps[i], a.penalised[i] === 1));
    merited[i] = code(scoreOf(L[i], epsLabel[i], false));
  }
  return {
    columns: [
      { kind: 'categorical', name: label, codes: merited, categories: SIM_DECISIONS.slice() },
      { kind: 'categorical', name: a.prediction, codes: decided, categories: SIM_DECISIONS.slice() },
    ],
    favourable: SIM_DECISION_ORDER[0],
    truth,
  };
}
