// The four audited settings of EXPERIMENTS.md §7 (files from `canonical-checks.mjs prepare`), and the
// direction checks both §7 scripts compute the same way.
import { binnedVariable, categoricalVariable, numericVariable, shiftChecks } from '../dist/src/audit/checks.js';
import { distribution, rankDistributions } from '../dist/src/audit/distance.js';
export const SETTINGS = {
  adult: { data: 'adult-test.csv', model: 'adult.json', label: 'Income', positive: '>50K', protected: 'Sex,Race,Age', edges: 'Age=16,30,50,90' },
  adult1000: { data: 'adult-1000.csv', model: 'adult.json', label: 'Income', positive: '>50K', protected: 'Sex,Race,Age', edges: 'Age=16,30,50,90' },
  compas: { data: 'compas-test.csv', model: 'compas.json', label: 'two_year_recid', positive: '0', protected: 'sex,race,age_cat', edges: null },
  sim: { data: 'sim-audit.csv', model: 'sim.json', label: 'approved', positive: 'yes', protected: 'sex,group', edges: null },
};


/** The protected columns of a setting, and its numeric protected attributes' edges. */
export function protectedOf(s) {
  return { columns: s.protected.split(','), edges: s.edges ? Object.fromEntries([s.edges.split('=')].map(([k, v]) => [k, v.split(',').map(Number)])) : {} };
}

/**
 * §7's direction check: every protected value and every value of the top-5 features by the pooled
 * sets' JS (P, N), each GAN seed's sets in `sets`; a disagreement is a decided real shift (95% interval
 * excluding 0) with the pooled canonical shift of the other sign.
 */
export function directionChecks(table, yhat, sets, P, N, s, rng) {
  const { columns: protectedCols, edges } = protectedOf(s);
  const feats = table.columns.filter((c) => c.name !== s.label && !protectedCols.includes(c.name));
  const col = (t, name) => t.columns.find((x) => x.name === name);
  const ranked = rankDistributions(feats.map((f) => distribution(f.name, [{ name: 'p', column: col(P, f.name) }, { name: 'n', column: col(N, f.name) }], 'feature')));
  const top = ranked.slice(0, 5).map((d) => d.feature);
  const vars = [
    ...protectedCols.map((c) => (edges[c] ? binnedVariable(table, c, 'protected', edges[c]) : categoricalVariable(table, c, 'protected'))),
    ...top.map((f) => (col(table, f).kind === 'numeric' ? numericVariable(table, f, 'feature') : categoricalVariable(table, f, 'feature'))),
  ];
  const checks = shiftChecks(vars, yhat, sets, rng, { resamples: 1000 });
  const decided = (c) => c.real.lo !== null && (c.real.lo > 0 || c.real.hi < 0);
  const disagree = checks.filter((c) => decided(c) && Math.sign(c.pooled) !== Math.sign(c.real.shift));
  return { checks, decided, disagree };
}
