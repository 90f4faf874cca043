// How well the audited model's output fits the label, said before any group figure (a weak model's
// group figures say little): the AUC of its scores with an interval, its accuracy against the label's majority share,
// and the share of rows it gives one decision. Two things follow from them:
//   - a score that ranks the label worse than chance beyond noise (AUC ≤ 0.45 with its 99% interval
//     below 0.5) probably gives the probability of the other class: the metrics stop with an error
//     that says so (`allowInvertedScores` audits it as given), because every direction would reverse;
//   - a weak or constant model (≥ 95% of its decisions one way while the label's majority share is
//     below 90%, or an AUC within noise of 0.5) is said first, in the summary and at the top of the
//     report, since the group figures below then describe a model that barely separates the classes.
// Core code: no Node imports.
import { check, EngineError } from '../../engine/errors.js';
import { normalQuantile } from './verdicts.js';
import { pctText as pct } from '../../data/text.js';

export const FIT_DEFAULTS = {
  /** an AUC at most this, with its `invertedConfidence` interval below 0.5, is inverted */
  invertedAuc: 0.45,
  invertedConfidence: 0.99,
  /**
   * the stop needs at least this many rows of each class (fewer: DeLong's interval is not to be trusted, e.g. AUC 0 on
   * 2 + 2 rows happens by chance 1 time in 6); below, a warning
   */
  invertedMinPerClass: 10,
  /** weak: at least this share of the decisions one way … */
  oneWayShare: 0.95,
  /** … while the label's majority share is below this */
  majorityBelow: 0.9,
  /** weak: the AUC's interval at this level contains 0.5 */
  chanceConfidence: 0.95,
};

export interface Auc {
  /** P(score of a label-positive row > score of a label-negative row) + ½ P(tie) */
  value: number;
  /** DeLong's standard error (the same whichever class is named positive) */
  se: number;
  /** the normal interval at 95% and 99%, clipped to [0, 1] */
  ci95: [number, number];
  ci99: [number, number];
  positives: number;
  negatives: number;
}

/**
 * Mean and sample variance of values in ascending order (`step` −1 reads `v` backwards): the same sums whichever class
 * is named positive.
 */
function meanVar(v: Float64Array, step: 1 | -1): { mean: number; variance: number } {
  const n = v.length;
  let sum = 0;
  for (let k = 0; k < n; k++) sum += v[step === 1 ? k : n - 1 - k];
  const mean = sum / n;
  let ss = 0;
  for (let k = 0; k < n; k++) {
    const d = v[step === 1 ? k : n - 1 - k] - mean;
    ss += d * d;
  }
  return { mean, variance: n > 1 ? ss / (n - 1) : Infinity };
}

/**
 * The AUC of `score` against `y` (1 = the positive class), with ties counted half, and DeLong's
 * standard error: two sorts and two merges (ten million scores stay typed arrays). The value and its
 * interval are the same bits when the other class is named positive and the scores are 1 − p (the
 * counts are exact and every sum runs in ascending order). Null when either class has no row.
 */
export function aucOf(y: Uint8Array, score: ArrayLike<number>): Auc | null {
  check(y.length === score.length, 'E_SHAPE', () => `auc: ${y.length} labels, ${score.length} scores`);
  let nPos = 0;
  for (let i = 0; i < y.length; i++) nPos += y[i];
  const nNeg = y.length - nPos;
  if (nPos === 0 || nNeg === 0) return null;
  const pos = new Float64Array(nPos);
  const neg = new Float64Array(nNeg);
  for (let i = 0, a = 0, b = 0; i < y.length; i++) {
    if (y[i]) pos[a++] = score[i];
    else neg[b++] = score[i];
  }
  pos.sort();
  neg.sort();
  // placement of each positive: negatives below it, plus half those tied (non-decreasing along `pos`)
  const v10 = new Float64Array(nPos);
  let u = 0;
  for (let i = 0, j = 0; i < nPos; i++) {
    const s = pos[i];
    while (j < nNeg && neg[j] < s) j++;
    let k = j;
    while (k < nNeg && neg[k] === s) k++;
    const c = j + 0.5 * (k - j);
    u += c;
    v10[i] = c / nNeg;
  }
  // placement of each negative: positives above it, plus half those tied (non-increasing along `neg`)
  const v01 = new Float64Array(nNeg);
  for (let j = 0, i = 0; j < nNeg; j++) {
    const t = neg[j];
    while (i < nPos && pos[i] < t) i++;
    let k = i;
    while (k < nPos && pos[k] === t) k++;
    v01[j] = (nPos - k + 0.5 * (k - i)) / nPos;
  }
  // u counts pairs exactly (integers and halves); nPos·nNeg is exact below 2^53
  const auc = u / (nPos * nNeg);
  const a = meanVar(v10, 1);
  const b = meanVar(v01, -1);
  const se = Math.sqrt(a.variance / nPos + b.variance / nNeg);
  const ci = (conf: number): [number, number] => {
    if (!Number.isFinite(se)) return [0, 1];
    const z = normalQuantile(1 - (1 - conf) / 2);
    return [Math.max(0, auc - z * se), Math.min(1, auc + z * se)];
  };
  return { value: auc, se, ci95: ci(0.95), ci99: ci(0.99), positives: nPos, negatives: nNeg };
}

/** What the metrics say of the model's fit, before any group (MetricsReport.fit). */
export interface ModelFit {
  rows: number;
  /** share of rows whose decision matches the label */
  accuracy: number;
  /** the label's most common value and its share */
  majority: { value: string; share: number };
  /** the share of rows given the favourable decision */
  favourableShare: number;
  /**
   * the AUC of the scores, or for predicted labels of the decisions (their balanced accuracy); null when the label has
   * one value
   */
  auc: Auc | null;
  /** what `auc` ranks: the scores, or the decisions (predicted labels) */
  aucOf: 'scores' | 'decisions';
  /** why the model is weak (empty: it is not); the first sentence of the summary and the report */
  weak: string[];
  /** the scores rank the label worse than chance beyond noise and --allow-inverted-scores kept them */
  inverted: boolean;
}

const f3 = (x: number) => x.toFixed(3);

/**
 * The model's fit on `y` (1 = positive) with decisions `yhat` and, for scores, `score`. Throws when the
 * scores look inverted, unless `allowInverted`; `what` names the predictions in messages.
 */
export function modelFit(
  y: Uint8Array,
  yhat: Uint8Array,
  score: ArrayLike<number> | null,
  o: {
    positive: string;
    negative: string | null;
    favourable: 'positive' | 'negative';
    what: string;
    label: string;
    allowInverted?: boolean;
  },
): ModelFit {
  const n = y.length;
  let correct = 0;
  let decidedPos = 0;
  let pos = 0;
  for (let i = 0; i < n; i++) {
    if (y[i] === yhat[i]) correct++;
    decidedPos += yhat[i];
    pos += y[i];
  }
  const auc = aucOf(y, score ?? yhat);
  const negName = o.negative ?? `not ${o.positive}`;
  const majority =
    2 * pos >= n ? { value: o.positive, share: n > 0 ? pos / n : 0 } : { value: negName, share: (n - pos) / n };
  const decidedShare = n > 0 ? decidedPos / n : 0;
  // from the count, not 1 − a share: the same bits whichever value is named positive
  const favourableShare = n > 0 ? (o.favourable === 'positive' ? decidedPos : n - decidedPos) / n : 0;
  const d = FIT_DEFAULTS;
  let inverted = false;
  const weak: string[] = [];
  const enough = auc !== null && Math.min(auc.positives, auc.negatives) >= d.invertedMinPerClass;
  if (auc && auc.value <= d.invertedAuc && auc.ci99[1] < 0.5 && !enough) {
    weak.push(
      `${o.what} rank${score ? '' : 's'} the label "${o.label}" worse than chance (AUC ${f3(auc.value)}), but on too ` +
        `few rows of a class (${Math.min(auc.positives, auc.negatives)}, under ${d.invertedMinPerClass}) to tell ` +
        `it from chance: check which class the ${score ? 'scores give the probability of' : 'predictions name'}`,
    );
  } else if (auc && auc.value <= d.invertedAuc && auc.ci99[1] < 0.5) {
    const text =
      `${o.what} rank${score ? '' : 's'} the label "${o.label}" worse than chance (AUC ${f3(auc.value)}, 99% ` +
      `interval [${f3(auc.ci99[0])}, ${f3(auc.ci99[1])}], over ${n} rows)`;
    if (score && !o.allowInverted) {
      const fix = `${
        o.negative !== null
          ? `name "${o.negative}" positive (--positive ${JSON.stringify(o.negative)}, ` +
            `with --favourable flipped), or `
          : ''
      }give the probability of "${o.positive}" (1 − the score)`;
      throw new EngineError(
        'E_ARG',
        `${text}: the scores probably give the probability of ` +
          `${o.negative !== null ? `"${o.negative}"` : 'another class'}, not of the positive class ` +
          `"${o.positive}". If so, ${fix}; if the scores are right as they are, --allow-inverted-scores audits ` +
          `them as given`,
      );
    }
    inverted = true;
    weak.push(
      `${text}: ${
        score
          ? 'the scores may give the probability of the other class (kept as given: ' + '--allow-inverted-scores)'
          : 'its decisions agree with the label less often than chance would'
      }; every direction below may be reversed`,
    );
  }
  const oneWay = n > 0 ? Math.max(decidedPos, n - decidedPos) / n : 0;
  if (oneWay >= d.oneWayShare && majority.share < d.majorityBelow) {
    const side = decidedShare >= 0.5 ? o.positive : negName;
    weak.push(
      `${oneWay === 1 ? 'a constant model: it decides every row' : `it decides ${pct(oneWay)} of the rows`} ` +
        `"${side}", while the label's majority ("${majority.value}") is only ${pct(majority.share)}: its ` +
        `decisions follow the label little (accuracy ${pct(n > 0 ? correct / n : 0)}), so the group figures ` +
        `below describe who falls in the ${pct(1 - oneWay)} it decides otherwise`,
    );
  }
  if (auc && !inverted && auc.ci95[0] <= 0.5 && auc.ci95[1] >= 0.5) {
    weak.push(
      `its ${score ? 'scores rank' : 'decisions separate'} the label no better than chance within noise (AUC ` +
        `${f3(auc.value)}, 95% interval [${f3(auc.ci95[0])}, ${f3(auc.ci95[1])}]): a disparity below is a ` +
        `disparity of a model that barely predicts the label`,
    );
  }
  return {
    rows: n,
    accuracy: n > 0 ? correct / n : 0,
    majority,
    favourableShare,
    auc,
    aucOf: score ? 'scores' : 'decisions',
    weak,
    inverted,
  };
}

/** The fit in one line for a summary: "model fit: accuracy 84.9% (majority 75.4%), AUC 0.91 [0.90, 0.92]". */
export function fitLine(f: ModelFit): string {
  const auc = f.auc ? `, AUC of the ${f.aucOf} ${f3(f.auc.value)} [${f3(f.auc.ci95[0])}, ${f3(f.auc.ci95[1])}]` : '';
  return (
    `accuracy ${pct(f.accuracy)} (the label's majority "${f.majority.value}": ${pct(f.majority.share)})${auc}; ` +
    `favourable decision for ${pct(f.favourableShare)} of the rows`
  );
}
