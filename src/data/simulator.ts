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
// ── Determinism ──────────────────────────────────────────────────────────────────────────────────
// Every draw comes from the caller's seeded Rng: 16 uniforms per row, in row-major blocks of 4096
// rows (a multiple of 4, so the Philox stream is the same as one large draw; memory stays bounded).
// Normals come from Box–Muller in JS. The features depend only on the seed and n, never on `bias`,
// `strength` or `decision`: the same seed gives the same people under every rule, and only
// `approved` differs. The same seed and options give a bit-identical table, on every kernel build:
// Philox uniforms are exact, and everything transformed is computed here in JS, not in wasm.
import { check } from '../engine/errors.js';
import type { Rng } from '../engine/rng.js';
import { type CategoricalColumn, getColumn, type NumericColumn, type Table } from './table.js';
import { log as fdlog, exp as fdexp } from '../engine/fdlibm.js';

export type BiasKind = 'fair' | 'direct' | 'proxy' | 'intersectional';
export const BIAS_KINDS: readonly BiasKind[] = ['fair', 'direct', 'proxy', 'intersectional'];

export interface SimulateOptions {
  /** number of rows */
  n: number;
  bias: BiasKind;
  /** penalty in logits applied to the penalised rows; default 1.5, must be ≥ 0 */
  strength?: number;
  /** 'sample' (default): approved ~ Bernoulli(σ(S)); 'threshold': approved when S > 0 */
  decision?: 'sample' | 'threshold';
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
}

export interface Simulation {
  table: Table;
  /** the label column ('approved') */
  label: string;
  /** the favourable label value ('yes') */
  favourable: string;
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
 * the scores move. Throws E_INPUT when a needed column is absent or of the wrong kind.
 */
export function simulatorScores(
  table: Table,
  opts: { bias: BiasKind; strength?: number },
): { legitimate: Float64Array; score: Float64Array } {
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
  }
  return { legitimate, score };
}

/** Generates `n` loan applications and decisions with the chosen planted discrimination. */
export function simulate(rng: Rng, opts: SimulateOptions): Simulation {
  const where = 'simulate';
  const { n } = opts;
  const strength = opts.strength ?? 1.5;
  const decision = opts.decision ?? 'sample';
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

  const { legitimate, score } = simulatorScores(features, { bias: opts.bias, strength });
  const probability = new Float64Array(n);
  const approved = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    probability[i] = sigmoid(score[i]);
    approved[i] = (decision === 'sample' ? decisionU[i] < probability[i] : score[i] > 0) ? 1 : 0;
  }
  features.columns.push(cat('approved', approved, SIM_APPROVED));

  const p = penaltyFor(opts.bias);
  const penaltyText =
    p.penalised.length === 0
      ? ''
      : ` − ${strength}·[${p.penalised.map((c) => `${c.column} ∈ {${c.values.join(', ')}}`).join(' and ')}]`;
  return {
    table: features,
    label: 'approved',
    favourable: 'yes',
    protected: ['sex', 'group'],
    proxy: 'neighbourhood',
    truth: {
      bias: opts.bias,
      strength,
      decision,
      rule:
        `S = ${COEF.intercept} + ${COEF.logIncome}·ln(income/${INCOME_REF}) + ` +
        `${COEF.educationLevel}·level(education) ${COEF.debtRatio < 0 ? '−' : '+'} ` +
        `${Math.abs(COEF.debtRatio)}·(debt_ratio − ${DEBT_REF})${penaltyText}; approved = ` +
        (decision === 'sample' ? 'yes with probability σ(S)' : 'yes when S > 0'),
      reads: p.reads,
      coefficients: { ...COEF },
      penalised: p.penalised,
      disadvantaged: p.disadvantaged,
      legitimateScore: legitimate,
      score,
      probability,
    },
  };
}
