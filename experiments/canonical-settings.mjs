// The audited settings of EXPERIMENTS.md §7 and §10.4 (files from `canonical-checks.mjs prepare`), and
// the direction checks both §7 scripts compute the same way.
import { binnedVariable, categoricalVariable, numericVariable, shiftChecks } from '../dist/src/audit/checks.js';
import { distribution, rankDistributions } from '../dist/src/audit/distance.js';
export const SETTINGS = {
  adult: {
    data: 'adult-test.csv',
    model: 'adult.json',
    label: 'Income',
    positive: '>50K',
    protected: 'Sex,Race,Age',
    edges: 'Age=16,30,50,90',
  },
  adult1000: {
    data: 'adult-1000.csv',
    model: 'adult.json',
    label: 'Income',
    positive: '>50K',
    protected: 'Sex,Race,Age',
    edges: 'Age=16,30,50,90',
  },
  compas: {
    data: 'compas-test.csv',
    model: 'compas.json',
    label: 'two_year_recid',
    positive: '0',
    protected: 'sex,race,age_cat',
    edges: null,
  },
  sim: {
    data: 'sim-audit.csv',
    model: 'sim.json',
    label: 'approved',
    positive: 'yes',
    protected: 'sex,group',
    edges: null,
  },
  // §10.4: an arithmetic relation (age = education + experience + 6 on 533 of 534 rows)
  wages: { data: 'wages-audit.csv', model: 'wages.json', label: 'hired', positive: '1', protected: 'sex', edges: null },
};

/** §10.4: rows of the same population no GAN of a setting saw (the privacy check's held-out rows). */
export const HELD_OUT = {
  adult: 'adult-train.csv',
  adult1000: 'adult-train.csv',
  compas: 'compas-train.csv',
  sim: 'sim-train.csv',
  wages: 'wages-train.csv',
};

/**
 * §10.4's wages data: 534 rows, age = education + experience + 6 on all but row 100 (+2 years), sex,
 * union, an hourly wage, and `hired` drawn from a logistic of the wage; a fixed LCG per seed.
 */
export function wagesCsv(seed) {
  let a = seed >>> 0;
  const rnd = () => {
    a = (Math.imul(a, 1103515245) + 12345) >>> 0;
    return a / 4294967296;
  };
  const rows = ['education,experience,age,sex,union,wage_hourly,hired'];
  for (let i = 0; i < 534; i++) {
    const edu = 6 + Math.floor(13 * rnd());
    const exp = Math.floor(40 * rnd());
    const age = edu + exp + 6 + (i === 100 ? 2 : 0);
    const sex = rnd() < 0.45 ? 'F' : 'M';
    const union = rnd() < 0.2 ? 'yes' : 'no';
    const wage = Math.round((3 + 0.6 * edu + 0.1 * exp + (sex === 'M' ? 2 : 0) + 3 * rnd()) * 100) / 100;
    const p = 1 / (1 + Math.exp(-(wage - 12)));
    rows.push([edu, exp, age, sex, union, wage, rnd() < p ? 1 : 0].join(','));
  }
  return rows.join('\n') + '\n';
}

/** The protected columns of a setting, and its numeric protected attributes' edges. */
export function protectedOf(s) {
  return {
    columns: s.protected.split(','),
    edges: s.edges ? Object.fromEntries([s.edges.split('=')].map(([k, v]) => [k, v.split(',').map(Number)])) : {},
  };
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
  const ranked = rankDistributions(
    feats.map((f) =>
      distribution(
        f.name,
        [
          { name: 'p', column: col(P, f.name) },
          { name: 'n', column: col(N, f.name) },
        ],
        'feature',
      ),
    ),
  );
  const top = ranked.slice(0, 5).map((d) => d.feature);
  const vars = [
    ...protectedCols.map((c) =>
      edges[c] ? binnedVariable(table, c, 'protected', edges[c]) : categoricalVariable(table, c, 'protected'),
    ),
    ...top.map((f) =>
      col(table, f).kind === 'numeric'
        ? numericVariable(table, f, 'feature')
        : categoricalVariable(table, f, 'feature'),
    ),
  ];
  const checks = shiftChecks(vars, yhat, sets, rng, { resamples: 1000 });
  const decided = (c) => c.real.lo !== null && (c.real.lo > 0 || c.real.hi < 0);
  const disagree = checks.filter((c) => decided(c) && Math.sign(c.pooled) !== Math.sign(c.real.shift ?? NaN));
  return { checks, decided, disagree };
}
