// A hand-written boosted tree ensemble for the bias simulator's loan data, as a model to audit:
//
//   lucid ... --model ./examples/tree-ensemble.mjs
//
// It shows the module contract with an async `predict` (as a model behind an API would be) and a
// `features` export. Like the simulator's 'proxy' lender it never reads `sex` or `group`, yet one
// tree marks down two neighbourhoods where group B mostly lives: the kind of hidden proxy an audit
// should locate.

/** The columns the rows must carry (other columns are left out of the rows). */
export const features = ['income', 'debt_ratio', 'education', 'hours_per_week', 'neighbourhood'];

/**
 * @typedef {{ income: number, debt_ratio: number, education: string, hours_per_week: number, neighbourhood: string }}
 *   LoanRow
 */

// Each tree is a function of one row returning a contribution to the log-odds.
/** @type {((r: LoanRow) => number)[]} */
const trees = [
  (r) => (r.income < 25 ? -1.1 : r.income < 45 ? -0.2 : r.income < 80 ? 0.5 : 1.0),
  (r) => (r.debt_ratio > 0.6 ? -0.9 : r.debt_ratio > 0.35 ? -0.3 : 0.25),
  (r) => (r.education === 'Doctorate' || r.education === 'Master' ? 0.4 : r.education === 'Secondary' ? -0.35 : 0),
  (r) => (r.hours_per_week < 25 ? (r.income < 35 ? -0.4 : -0.1) : 0.1),
  (r) => (r.neighbourhood === 'Eastfield' || r.neighbourhood === 'Southport' ? -0.8 : 0.15),
];
const base = -0.1;

/**
 * @param {LoanRow[]} rows
 * @returns {Promise<number[]>}
 */
export async function predict(rows) {
  return rows.map((r) => {
    const z = trees.reduce((s, t) => s + t(r), base);
    return 1 / (1 + Math.exp(-z));
  });
}
