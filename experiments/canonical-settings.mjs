// The four audited settings of EXPERIMENTS.md §7 (files from `canonical-checks.mjs prepare`).
export const SETTINGS = {
  adult: { data: 'adult-test.csv', model: 'adult.json', label: 'Income', positive: '>50K', protected: 'Sex,Race,Age', edges: 'Age=16,30,50,90' },
  adult1000: { data: 'adult-1000.csv', model: 'adult.json', label: 'Income', positive: '>50K', protected: 'Sex,Race,Age', edges: 'Age=16,30,50,90' },
  compas: { data: 'compas-test.csv', model: 'compas.json', label: 'two_year_recid', positive: '0', protected: 'sex,race,age_cat', edges: null },
  sim: { data: 'sim-audit.csv', model: 'sim.json', label: 'approved', positive: 'yes', protected: 'sex,group', edges: null },
};

