// A model in plain JavaScript, in the form `lucid --model ./examples/logistic-model.mjs` audits:
// a logistic regression over the bias simulator's columns (`lucid demo`'s loan data), with its
// coefficients in logistic-model.json next to this file. They were exported from a built-in model
// (tools/onnx/make-fixtures.mjs), so this module predicts what that model predicts; the tests
// check it. Any JS model fits the same contract, e.g. tree-ensemble.mjs.
//
// The contract: export `predict(rows)`. `rows` is an array of plain objects keyed by column name,
// with numbers for numeric columns and strings for categorical ones. Return (or resolve to) an array
// with one probability of the positive class per row, each in [0, 1]. Optionally export
// `features`, the columns the rows must carry (rows then hold only those).
import { readFileSync } from 'node:fs';

/**
 * @type {{ intercept: number, numeric: { name: string, min: number, max: number, weight: number }[],
 *   categorical: { name: string, weights: Record<string, number> }[] }}
 */
const m = JSON.parse(readFileSync(new URL('./logistic-model.json', import.meta.url), 'utf8'));

export const features = [...m.numeric.map((c) => c.name), ...m.categorical.map((c) => c.name)];

/**
 * @param {Record<string, number | string>[]} rows
 * @returns {number[]}
 */
export function predict(rows) {
  return rows.map((row, i) => {
    let z = m.intercept;
    for (const { name, min, max, weight } of m.numeric) {
      const x = row[name];
      if (typeof x !== 'number') throw new Error(`row ${i + 1}: "${name}" must be a number, got ${JSON.stringify(x)}`);
      const scale = 2 / (max === min ? 1 : max - min);
      z += weight * (x * scale - 1 - min * scale);
    }
    for (const { name, weights } of m.categorical) {
      const w = weights[row[name]];
      if (w === undefined)
        throw new Error(
          `row ${i + 1}: unknown ${name} ${JSON.stringify(row[name])} (known: ${Object.keys(weights).join(', ')})`,
        );
      z += w;
    }
    return 1 / (1 + Math.exp(-z));
  });
}
