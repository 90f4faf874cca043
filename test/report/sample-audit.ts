// A small, hand-made but realistic AuditResult for the report tests and tools/render-sample-report.mjs:
// two protected attributes (sex, categorical and read by the model; age, numeric, binned, not read —
// the proxy view), numeric and categorical distributions, one heat map, LUCID ran, one FALE section
// with bootstrap bands. No test() calls here, so running this file as a test does nothing.
import { jsDistance } from '../../src/audit/distance.js';
import type { BeyondSide, AuditResult, CanonicalComparison, Distribution } from '../../src/audit/types.js';
import { shiftStatus, type FeatureFidelity, type ShiftCheck } from '../../src/audit/checks.js';
import type { DrawStats } from '../../src/audit/canonical.js';
import { buildFindings } from '../../src/audit/findings.js';
import {
  correctTogether,
  groupMetrics,
  METRICS,
  type GroupResult,
  type MetricsReport,
} from '../../src/methods/metrics/index.js';
import type { FaleFeature } from '../../src/methods/fale/index.js';
import type { Validity } from '../../src/methods/quality/index.js';
import { cat, num, table } from '../helpers/tables.js';

const norm = (xs: number[]): number[] => {
  const s = xs.reduce((a, b) => a + b, 0);
  return xs.map((x) => (s > 0 ? x / s : 0));
};

/**
 * A distribution of the positive and negative sets; with `real`, the real rows on each side as their
 * counterparts (`of`), made by mixing each set with `real`, and per-seed JS around the pooled one.
 */
export function dist(
  feature: string,
  role: Distribution['role'],
  spec: { edges?: number[]; categories?: string[] },
  pos: number[],
  neg: number[],
  real?: number[],
): Distribution {
  const p = norm(pos);
  const q = norm(neg);
  const series: Distribution['series'] = [
    { name: 'positive canonical', share: p, n: 3000 },
    { name: 'negative canonical', share: q, n: 3000 },
  ];
  const d: Distribution = {
    feature,
    kind: spec.edges ? 'numeric' : 'categorical',
    ...spec,
    series,
    js: jsDistance(p, q),
    role,
  };
  if (real) {
    const r = norm(real);
    const rp = norm(p.map((x, i) => x + r[i]));
    const rn = norm(q.map((x, i) => x + r[i]));
    series.push(
      { name: 'real rows predicted positive', share: rp, n: 900, of: 0 },
      { name: 'real rows predicted negative', share: rn, n: 2100, of: 1 },
    );
    d.jsReal = jsDistance(rp, rn);
    d.jsSeeds = [d.js * 0.94, d.js, d.js * 1.05];
  }
  return d;
}

/** A hand-made fidelity entry: KS for numeric features, TV for categorical ones. */
function fid(feature: string, kind: 'numeric' | 'categorical', pos: number, neg: number): FeatureFidelity {
  const side = (x: number, realRows: number): FeatureFidelity['positive'] => ({
    distance: x,
    perSeed: [x * 1.1, x * 0.9, x],
    floor: 0.04,
    floorMedian: 0.025,
    rows: 3000,
    realRows,
  });
  return {
    feature,
    metric: kind === 'numeric' ? 'KS' : 'TV',
    positive: side(pos, 900),
    negative: side(neg, 2100),
    faithful: Math.max(pos, neg) <= 0.1,
  };
}

/** A hand-made direction check. */
function shift(
  feature: string,
  role: Distribution['role'],
  value: string,
  seeds: number[],
  real: number,
  half: number,
): ShiftCheck {
  const pooled = seeds.reduce((a, b) => a + b, 0) / seeds.length;
  const lo = real - half;
  const hi = real + half;
  const s = lo > 0 ? 1 : hi < 0 ? -1 : 0;
  const withSign = s === 0 ? 0 : seeds.filter((x) => Math.sign(x) === s).length;
  return {
    feature,
    role,
    value,
    kind: value === 'median' ? 'median' : 'share',
    canonical: seeds,
    pooled,
    positive: 0.5 + pooled / 2,
    negative: 0.5 - pooled / 2,
    canonicalSe: 0.015,
    real: {
      shift: real,
      lo,
      hi,
      positiveRows: 900,
      negativeRows: 2100,
      positive: 0.5 + real / 2,
      negative: 0.5 - real / 2,
    },
    ...shiftStatus(seeds, pooled, 0.015, { lo, hi }, s, 1.96),
    seedsWithDataSign: withSign,
  };
}

const stats = (wanted: number, acceptance: number): DrawStats => ({
  wanted,
  kept: wanted,
  drawn: Math.round(wanted / acceptance),
  acceptance,
  contradicting: 12,
  clippedRows: 30,
  capped: false,
});

function validity(pos: number, neg: number): Validity {
  return {
    model: 'model.json',
    condition: { column: 'pred', value: null, source: 'column' },
    rows: 2000,
    positive: { rows: 1000, valid: Math.round(pos * 1000), rate: pos, meanScore: 0.71 },
    negative: { rows: 1000, valid: Math.round(neg * 1000), rate: neg, meanScore: 0.22 },
    onThreshold: 0,
    rate: (pos + neg) / 2,
    meanAbsError: 0.31,
    correlation: null,
  };
}

/** One group's confusion counts: [value, tp, fp, tn, fn]. */
type GroupCounts = [string, number, number, number, number];

/**
 * The metrics of one attribute computed by groupMetrics itself on rows built from the counts (so the
 * sample's verdicts, references and tables are what the code would produce), with made-up bootstrap
 * intervals when `withCi`.
 */
function attributeReport(
  column: string,
  groups: GroupCounts[],
  withCi: boolean,
  warnings: string[] = [],
): MetricsReport {
  const g: string[] = [];
  const y: string[] = [];
  const p: number[] = [];
  for (const [v, tp, fp, tn, fn] of groups) {
    const push = (n: number, label: string, score: number) => {
      for (let i = 0; i < n; i++) {
        g.push(v);
        y.push(label);
        p.push(score);
      }
    };
    push(tp, '>50K', 0.9);
    push(fp, '<=50K', 0.9);
    push(tn, '<=50K', 0.1);
    push(fn, '>50K', 0.1);
  }
  const t = table(
    cat('income', y, ['<=50K', '>50K']),
    num('pred', p),
    cat(
      column,
      g,
      groups.map((x) => x[0]),
    ),
  );
  const r = groupMetrics(t, { label: 'income', positive: '>50K', pred: 'pred', groups: [column] });
  if (withCi) {
    for (const a of r.attributes) {
      for (const grp of a.groups) {
        grp.ci = {} as NonNullable<GroupResult['ci']>;
        for (const m of METRICS) {
          const v = grp[m];
          grp.ci[m] = v === null ? { lo: null, hi: null } : { lo: Math.max(0, v - 0.03), hi: Math.min(1, v + 0.03) };
        }
      }
    }
    r.bootstrap = {
      resamples: 200,
      seed: 7,
      confidence: 0.95,
      method: 'percentile, rows resampled with replacement, reference group fixed',
    };
  }
  r.warnings.push(...warnings);
  return r;
}

/** Several attributes' reports as one (as the audit's per-attribute report). */
function mergeReports(parts: MetricsReport[]): MetricsReport {
  return {
    ...parts[0],
    rows: parts[0].rows,
    attributes: parts.flatMap((x) => x.attributes),
    warnings: parts.flatMap((x) => x.warnings),
    bootstrap: parts.find((x) => x.bootstrap)?.bootstrap ?? null,
  };
}

const AGE_EDGES = [17, 28, 37, 48, 90];
const AGE_LABELS = ['[17, 28]', '(28, 37]', '(37, 48]', '(48, 90]'];
const EDU = ['HS-grad', 'Some-college', 'Bachelors', 'Masters', 'Doctorate'];
const OCC = ['Exec-managerial', 'Prof-specialty', 'Craft-repair', 'Sales', '<script>alert("x")</script>'];

function canonicalTables() {
  const n = 1000;
  const mk = (shift: number) =>
    table(
      num(
        'age',
        Array.from({ length: n }, (_, i) => 17 + ((i * 7 + shift) % 73)),
      ),
      cat(
        'sex',
        Array.from({ length: n }, (_, i) => ((i + shift) % 3 === 0 ? 'Female' : 'Male')),
        ['Female', 'Male'],
      ),
      cat(
        'education',
        Array.from({ length: n }, (_, i) => EDU[(i + shift) % EDU.length]),
        EDU,
      ),
      num(
        'hours-per-week',
        Array.from({ length: n }, (_, i) => 20 + ((i * 3 + shift) % 50)),
      ),
    );
  return { positive: mk(5), negative: mk(0) };
}

function comparison(
  name: string,
  fix: [string, string][],
  distributions: Distribution[],
  extra: Partial<CanonicalComparison> = {},
): CanonicalComparison {
  const { positive, negative } = canonicalTables();
  return {
    fix,
    name,
    positive,
    negative,
    distributions: distributions.slice().sort((a, b) => b.js - a.js),
    validity: validity(1, 1),
    validityScorer: 'model',
    draws: [0, 1, 2].map((seed) => ({ seed, positive: stats(300, 0.62), negative: stats(300, 0.81) })),
    ...extra,
  };
}

function faleFeatures(): FaleFeature[] {
  const hours: FaleFeature = {
    feature: 'hours-per-week',
    kind: 'continuous',
    edges: [1, 25, 38, 40, 45, 50, 99],
    values: [-0.06, -0.04, -0.01, 0.0, 0.02, 0.05, 0.05],
    deltas: [0.02, 0.03, 0.01, 0.02, 0.03, null],
    counts: {
      n: [310, 420, 1200, 380, 450, 240],
      unprivileged: [160, 190, 350, 90, 70, 25],
      privileged: [150, 230, 850, 290, 380, 215],
    },
    undefined: [5],
    ci: {
      level: 0.95,
      replicates: 100,
      lower: [-0.09, -0.07, -0.03, -0.02, 0.0, 0.02, null],
      upper: [-0.03, -0.01, 0.01, 0.02, 0.04, 0.08, null],
    },
  };
  const edu: FaleFeature = {
    feature: 'education',
    kind: 'categorical',
    categories: ['HS-grad', 'Some-college', 'Bachelors', 'Masters', 'Doctorate'],
    values: [-0.05, -0.03, 0.02, 0.04, 0.06],
    deltas: [0, 0.02, 0.05, 0.02, null],
    counts: {
      n: [1000, 800, 700, 350, 150],
      unprivileged: [350, 300, 220, 90, 12],
      privileged: [650, 500, 480, 260, 138],
    },
    undefined: [4],
  };
  return [hours, edu];
}

/** A small, realistic AuditResult (adult-like data, 3000 rows). */
export function sampleAuditResult(): AuditResult {
  const age = dist('age', 'proxy', { edges: AGE_EDGES }, [10, 25, 38, 27], [38, 27, 20, 15], [28, 25, 25, 22]);
  const sex = dist('sex', 'protected', { categories: ['Female', 'Male'] }, [18, 82], [42, 58], [33, 67]);
  const hours = dist(
    'hours-per-week',
    'feature',
    { edges: [1, 20, 30, 40, 45, 50, 60, 99] },
    [2, 4, 30, 14, 25, 15, 10],
    [9, 12, 52, 9, 10, 5, 3],
    [6, 9, 45, 11, 15, 8, 6],
  );
  const edu = dist(
    'education',
    'feature',
    { categories: EDU },
    [15, 18, 35, 22, 10],
    [45, 30, 17, 6, 2],
    [33, 26, 25, 12, 4],
  );
  const occ = dist(
    'occupation',
    'feature',
    { categories: OCC },
    [35, 30, 12, 18, 5],
    [12, 14, 30, 25, 19],
    [20, 20, 24, 22, 14],
  );
  const gain = dist(
    'capital-gain',
    'feature',
    { edges: [0, 1, 5000, 10000, 100000] },
    [80, 5, 8, 7],
    [96, 3, 1, 0],
    [91, 4, 3, 2],
  );
  const marital = dist(
    'marital-status',
    'feature',
    { categories: ['Married-civ-spouse', 'Never-married', 'Divorced', 'Widowed'] },
    [70, 15, 12, 3],
    [30, 45, 18, 7],
    [46, 33, 15, 6],
  );

  const sexAttr = attributeReport(
    'sex',
    [
      ['Female', 80, 40, 820, 60],
      ['Male', 420, 160, 1200, 220],
    ],
    true,
  );
  const ageAttr = attributeReport(
    'age (binned)',
    [
      ['[17, 28]', 20, 15, 700, 25],
      ['(28, 37]', 110, 50, 520, 60],
      ['(37, 48]', 200, 80, 420, 80],
      ['(48, 90]', 170, 55, 440, 55],
    ],
    false,
    ['age (binned) = (48, 90]: example warning'],
  );
  const inter = attributeReport(
    'sex × age (binned)',
    [
      ['Female, [17, 28]', 5, 4, 285, 6],
      ['Female, (28, 37]', 25, 12, 200, 13],
      ['Female, (37, 48]', 6, 2, 15, 3],
      ['Male, [17, 28]', 15, 11, 415, 19],
      ['Male, (28, 37]', 85, 38, 320, 47],
      ['Male, (37, 48]', 194, 78, 405, 77],
      ['Male, (48, 90]', 170, 55, 440, 55],
    ],
    false,
  );
  const perAttribute = mergeReports([sexAttr, ageAttr]);
  correctTogether([perAttribute, inter]);

  const heat = {
    rowAttribute: 'sex',
    colAttribute: 'age (binned)',
    rowValues: ['Female', 'Male'],
    colValues: AGE_LABELS,
    n: [
      [300, 250, 26, 0],
      [460, 490, 754, 720],
    ],
    selectionRate: [
      [0.03, 0.148, 0.308, null],
      [0.057, 0.251, 0.361, 0.313],
    ],
    canonicalShift: [
      [-0.12, -0.03, 0.01, null],
      [-0.15, 0.02, 0.16, 0.11],
    ],
    small: [
      [0, 2],
      [0, 3],
    ] as [number, number][],
    shiftStatus: [
      ['agrees', 'disagrees', 'within noise', null],
      ['agrees', 'within noise', 'agrees', 'agrees'],
    ] as (ShiftCheck['status'] | null)[][],
  };
  const sets = [
    comparison(
      'intersection-sex=Female-age=(28, 37]',
      [
        ['sex', 'Female'],
        ['age', '(28, 37]'],
      ],
      [
        dist('education', 'feature', { categories: EDU }, [12, 20, 38, 20, 10], [40, 32, 20, 6, 2]),
        dist('hours-per-week', 'feature', { edges: [1, 30, 40, 50, 99] }, [10, 40, 35, 15], [25, 55, 15, 5]),
        dist('occupation', 'feature', { categories: OCC }, [30, 30, 10, 20, 10], [15, 15, 30, 25, 15]),
        dist(
          'marital-status',
          'feature',
          { categories: ['Married-civ-spouse', 'Never-married', 'Divorced', 'Widowed'] },
          [50, 30, 15, 5],
          [35, 40, 18, 7],
        ),
      ],
      { fixTraining: { rows: 250, share: 250 / 3000, rare: false }, fixSatisfied: 0.91 },
    ),
    comparison(
      'intersection-sex=Female-age=(37, 48]',
      [
        ['sex', 'Female'],
        ['age', '(37, 48]'],
      ],
      [
        dist('education', 'feature', { categories: EDU }, [20, 20, 30, 20, 10], [35, 30, 25, 8, 2]),
        dist('hours-per-week', 'feature', { edges: [1, 30, 40, 50, 99] }, [15, 40, 30, 15], [20, 50, 20, 10]),
      ],
      {
        fixTraining: { rows: 26, share: 26 / 3000, rare: true },
        fixSatisfied: 0.42,
        validity: null,
        validityScorer: null,
      },
    ),
    comparison(
      'intersection-sex=Male-age=(37, 48]',
      [
        ['sex', 'Male'],
        ['age', '(37, 48]'],
      ],
      [dist('education', 'feature', { categories: EDU }, [14, 18, 36, 22, 10], [44, 30, 18, 6, 2])],
      { fixTraining: { rows: 754, share: 754 / 3000, rare: false }, fixSatisfied: 0.97 },
    ),
  ];

  const lucidDists = [
    {
      ...dist(
        'hours-per-week',
        'feature',
        { edges: [1, 20, 40, 60, 80, 99] },
        [2, 8, 40, 35, 15],
        [20, 20, 20, 20, 20],
      ),
    },
    { ...dist('education', 'feature', { categories: EDU }, [5, 5, 20, 35, 35], [20, 20, 20, 20, 20]) },
    { ...dist('sex', 'protected', { categories: ['Female', 'Male'] }, [30, 70], [50, 50]) },
  ].map((d) => ({
    ...d,
    series: [
      { ...d.series[0], name: 'LUCID canonical set' },
      { ...d.series[1], name: 'uniform start' },
    ],
  }));

  const { positive, negative } = canonicalTables();
  const ranked = [age, sex, hours, edu, occ, gain, marital].sort((a, b) => b.js - a.js);
  const fidelity = [
    fid('age', 'numeric', 0.07, 0.05),
    fid('sex', 'categorical', 0.03, 0.02),
    fid('hours-per-week', 'numeric', 0.08, 0.06),
    fid('education', 'categorical', 0.06, 0.04),
    fid('occupation', 'categorical', 0.05, 0.09),
    fid('capital-gain', 'numeric', 0.31, 0.12),
    fid('marital-status', 'categorical', 0.04, 0.05),
  ];
  const shifts = [
    shift('sex', 'protected', 'Female', [-0.26, -0.22, -0.24], -0.21, 0.03),
    shift('sex', 'protected', 'Male', [0.26, 0.22, 0.24], 0.21, 0.03),
    shift('age', 'proxy', '[17, 28]', [-0.3, -0.25, -0.28], -0.24, 0.03),
    shift('age', 'proxy', '(28, 37]', [0.01, 0.02, 0.02], -0.07, 0.03),
    shift('age', 'proxy', '(37, 48]', [0.17, 0.2, 0.18], 0.14, 0.03),
    shift('age', 'proxy', '(48, 90]', [0.11, 0.14, 0.1], 0.02, 0.03),
    shift('age', 'proxy', 'median', [9, 10, 8], 7, 2),
    shift('marital-status', 'feature', 'Married-civ-spouse', [0.42, 0.38, 0.4], 0.36, 0.04),
    shift('marital-status', 'feature', 'Never-married', [-0.31, -0.28, -0.3], -0.27, 0.03),
    shift('education', 'feature', 'Doctorate', [0.07, 0.08, 0.09], 0.05, 0.02),
    shift('occupation', 'feature', 'Craft-repair', [-0.17, -0.19, -0.18], 0.02, 0.03),
  ];
  const beyondSide = (
    pt: number,
    ptFloor: number,
    det: number,
    detFloor: number,
    p: {
      generated: { p5: number; median: number; exactShare: number };
      heldOut: { p5: number; median: number; exactShare: number };
      ratioP5: number;
    },
  ): BeyondSide => ({
    realRows: 1000,
    generatedRows: 3000,
    pairTrends: {
      score: pt,
      floor: ptFloor,
      floorMedian: ptFloor + 0.01,
      pairs: 91,
      pairsTotal: 91,
      worst: [
        { a: 'age', b: 'marital-status', similarity: 0.71 },
        { a: 'sex', b: 'relationship', similarity: 0.78 },
      ],
    },
    detection: {
      auc: 1 - det / 2,
      score: det,
      floor: detFloor,
      floorMedian: detFloor + 0.05,
      floorRows: 500,
      rowsReal: 1000,
      rowsGenerated: 1000,
      heldOut: 2000,
    },
    privacy: {
      ...p,
      rows: { train: 500, heldOut: 500, generated: 2000 },
      trainTotal: 500,
      trainSubsampled: false,
      against: 'halves',
    },
  });
  const checks: AuditResult['checks'] = {
    seeds: [42, 1000045, 2000048],
    fidelity,
    shifts,
    cells: [shift('sex × age', 'protected', 'Female & (28, 37]', [-0.03, -0.02, -0.04], 0.02, 0.015)],
    dependencies: [{ from: 'education', to: 'education-num' }],
    relations: [
      {
        kind: 'arithmetic',
        text: 'age = education-num + experience + 6',
        target: 'age',
        inputs: ['education-num', 'experience'],
        kept: 'derived',
        real: { rows: 1000, breaks: 2 },
        positive: { rows: 1000, breaks: 0 },
        negative: { rows: 1000, breaks: 0 },
      },
      {
        kind: 'dependency',
        text: 'education-num follows from education',
        target: 'education-num',
        inputs: ['education'],
        kept: 'derived',
        real: { rows: 998, breaks: 0 },
        positive: { rows: 1000, breaks: 0 },
        negative: { rows: 999, breaks: 0 },
      },
    ],
    beyond: {
      positive: beyondSide(0.912, 0.951, 0.41, 0.83, {
        generated: { p5: 0.031, median: 0.09, exactShare: 0 },
        heldOut: { p5: 0.03, median: 0.085, exactShare: 0.002 },
        ratioP5: 1.03,
      }),
      negative: beyondSide(0.955, 0.948, 0.9, 0.86, {
        generated: { p5: 0.01, median: 0.05, exactShare: 0.04 },
        heldOut: { p5: 0.028, median: 0.08, exactShare: 0.001 },
        ratioP5: 0.36,
      }),
    },
    ranges: { age: [17, 90], 'hours-per-week': [1, 99], 'capital-gain': [0, 99999] },
  };
  return {
    meta: {
      tool: 'lucid-wasm',
      version: '0.1.0',
      variant: 'simd',
      created: '2026-11-29T12:00:00.000Z',
      seed: 42,
      data: {
        source: 'adult-sample.csv',
        rows: 3000,
        columns: [
          'age',
          'sex',
          'education',
          'occupation',
          'marital-status',
          'hours-per-week',
          'capital-gain',
          'income',
        ],
        sha256: 'a3f1c09e5b7d2e4f6a8b0c1d2e3f405162738495a6b7c8d9e0f1a2b3c4d5e6f7',
        bytes: 312456,
      },
      label: 'income',
      positive: '>50K',
      favourable: 'positive',
      threshold: 0.5,
      model: {
        kind: 'builtin',
        source: 'mlp (trained on adult-sample.csv)',
        features: ['sex', 'education', 'occupation', 'marital-status', 'hours-per-week', 'capital-gain'],
        differentiable: true,
        sha256: '0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e',
      },
      gan: {
        epochs: 300,
        mode: 'paper',
        rows: 3000,
        seeds: checks.seeds,
        epochsDone: [300, 300, 300],
        rejection: true,
        schedule: 'paper',
        heldOut: 0,
        batch: 500,
        stops: [null, null, null],
        ganRows: 50000,
        sample: null,
      },
      timings: { load: 12.5, gan: 84210, lucid: 3150, metrics: 40.2, fale: 920, report: 15 },
      command: {
        via: 'cli',
        argv: [
          'audit',
          '--data',
          'adult-sample.csv',
          '--label',
          'income',
          '--positive',
          '>50K',
          '--protected',
          'sex,age',
          '--model',
          'adult.json',
          '--out',
          'out/adult',
        ],
      },
      seeds: {
        audit: 42,
        'LUCID-GAN 1 of 3 (training)': checks.seeds[0],
        'LUCID-GAN 2 of 3 (training)': checks.seeds[1],
        'LUCID-GAN 3 of 3 (training)': checks.seeds[2],
        'main canonical sets, positive set, GAN 1, draw round 1': 2718281,
      },
      suppressBelow: null,
      interrupted: null,
    },
    protected: [
      { column: 'sex', groupColumn: 'sex', kind: 'categorical', inModel: true },
      {
        column: 'age',
        groupColumn: 'age (binned)',
        kind: 'numeric',
        inModel: false,
        bins: { method: 'quantile', edges: AGE_EDGES, labels: AGE_LABELS, counts: [760, 740, 780, 720] },
      },
    ],
    metrics: {
      attributes: perAttribute,
      intersection: inter,
    },
    attribution: [
      {
        attribute: 'sex',
        groupColumn: 'sex',
        readByModel: true,
        flipShare: 0.004,
        carriers: [{ feature: 'hours-per-week', association: 0.31, separation: 0.22, carried: 0.0682 }],
        path: 'correlated features',
      },
      {
        attribute: 'age',
        groupColumn: 'age (binned)',
        readByModel: false,
        flipShare: null,
        carriers: [{ feature: 'marital-status', association: 0.4, separation: 0.35, carried: 0.14 }],
        path: 'correlated features',
      },
    ],
    canonical: {
      fix: [],
      name: 'canonical',
      positive,
      negative,
      distributions: ranked,
      validity: validity(1, 1),
      validityScorer: 'model',
      draws: checks.seeds.map((seed) => ({ seed, positive: stats(1000, 0.51), negative: stats(1000, 0.9) })),
    },
    checks,
    findings: buildFindings(ranked, fidelity, shifts, ['sex', 'age']),
    proxy: { columns: ['age'], distributions: [age] },
    intersections: [{ pair: ['sex', 'age'], heatmap: heat, sets }],
    lucid: {
      ran: true,
      prefer: '>50K',
      n: 500,
      epochs: 20,
      success: 0.964,
      distributions: lucidDists,
      loss: Array.from({ length: 20 }, (_, i) => 0.9 * Math.exp(-i / 5) + 0.08),
    },
    fale: [
      {
        attribute: 'sex',
        unprivileged: [{ column: 'sex', value: 'Female' }],
        chosen: 'lowest selection rate',
        result: {
          metric: 'spd',
          protected: [{ column: 'sex', value: 'Female' }],
          label: 'income',
          positive: '>50K',
          threshold: 0.5,
          favourable: 'positive',
          reading: 'the positive decision is favourable: below 0 the unprivileged group is disadvantaged',
          rows: 3000,
          overall: -0.17,
          counts: { unprivileged: 1000, privileged: 2000 },
          features: faleFeatures(),
          warnings: ['hours-per-week: bin (50, 99] has no unprivileged rows with a positive label'],
        },
      },
    ],
    caveats: [
      { topic: 'validity', text: 'Only 71% of the negative canonical set is scored negative by the model.' },
      {
        topic: 'rare-intersection',
        text: 'sex = Female and age = (37, 48] has 26 training rows: its canonical sets are unreliable.',
      },
      {
        topic: 'power',
        text: '3000 rows: a planted intersection was located in 0 of 5 simulator audits with 2000 rows.',
      },
      { topic: 'small-group', text: 'sex × age (binned) = Female, (37, 48] has fewer than 30 rows.' },
      { topic: 'model', text: 'The model does not read age; its differences come through proxies.' },
    ],
    warnings: ['capital-gain has 91% zeros; its histogram is dominated by the first bin.'],
    planted: [
      {
        kind: 'direct',
        rule: 'P(income = >50K) lowered by 0.15 for sex = Female',
        disadvantaged: [{ sex: 'Female' }],
        reads: ['sex'],
      },
    ],
  };
}

/** How many <svg class="chart"> renderReport draws for `r` (one per chart, by the report's layout). */
export function expectedChartCount(r: AuditResult): number {
  let n = 1; // JS ranking
  // a rate chart per attribute and per intersection
  n += r.metrics.attributes.attributes.length + (r.metrics.intersection?.attributes.length ?? 0);
  n += r.canonical.distributions.length;
  if (r.proxy.columns.length) n += r.proxy.distributions.length;
  for (const i of r.intersections) n += 1 + (i.heatmap.canonicalShift ? 1 : 0);
  if (r.lucid.ran) n += (r.lucid.loss?.length ? 1 : 0) + (r.lucid.distributions?.length ?? 0);
  for (const s of r.fale) n += s.result.features.length;
  return n;
}

/** The sample with degenerate parts: all-zero shares, null rates, empty heat-map cells, no LUCID, no FALE. */
export function degenerateAuditResult(): AuditResult {
  const r = sampleAuditResult();
  const zero: Distribution = {
    feature: 'empty-feature',
    kind: 'numeric',
    edges: [0, 0],
    series: [
      { name: 'positive set', share: [0], n: 0 },
      { name: 'negative set', share: [0], n: 0 },
    ],
    js: NaN,
    role: 'feature',
  };
  const zeroCat: Distribution = {
    feature: 'empty-cat',
    kind: 'categorical',
    categories: [],
    series: [
      { name: 'positive set', share: [], n: 0 },
      { name: 'negative set', share: [], n: 0 },
    ],
    js: 0,
    role: 'feature',
  };
  r.canonical.distributions.push(zero, zeroCat);
  r.canonical.validity = null;
  r.canonical.validityScorer = null;
  r.canonical.draws = undefined;
  const g = r.metrics.attributes.attributes[0].groups[0];
  g.tpr = null;
  g.ppv = null;
  g.positivity_rate = null;
  g.selection_rate = null;
  r.metrics.intersection = null;
  r.intersections[0].heatmap.selectionRate = [
    [null, null, null, null],
    [null, null, null, null],
  ];
  r.intersections[0].heatmap.canonicalShift = null;
  r.intersections[0].heatmap.n = [
    [0, 0, 0, 0],
    [0, 0, 0, 0],
  ];
  r.lucid = { ran: false, reason: 'the model is a predictions column; LUCID needs a differentiable model' };
  r.fale = [];
  r.faleSkipped = 'FALE needs a callable model; the model is a predictions column';
  r.planted = undefined;
  r.caveats = [];
  r.warnings = [];
  return r;
}

/**
 * Rows of one attribute "g" from [group, rows, rows decided favourably]: the label ("approved", yes
 * favourable) and the model's decisions ("decision"), or, `flipped`, the same decisions coded the other
 * way: "denied", yes = denied, the unfavourable outcome (--favourable negative).
 */
export function decisions(groups: [string, number, number][], flipped: boolean): { report: MetricsReport } {
  const g: string[] = [];
  const y: string[] = [];
  const p: string[] = [];
  for (const [v, n, fav] of groups) {
    for (let i = 0; i < n; i++) {
      const approved = i < fav;
      // the label agrees with the decision on 80% of the rows, so the error rates are defined
      const labelApproved = i % 5 === 0 ? !approved : approved;
      g.push(v);
      y.push(flipped ? (labelApproved ? 'no' : 'yes') : labelApproved ? 'yes' : 'no');
      p.push(flipped ? (approved ? 'no' : 'yes') : approved ? 'yes' : 'no');
    }
  }
  const t = table(cat('g', g, [...new Set(g)]), cat('y', y, ['no', 'yes']), cat('p', p, ['no', 'yes']));
  return {
    report: groupMetrics(t, {
      label: 'y',
      positive: 'yes',
      favourable: flipped ? 'negative' : 'positive',
      pred: 'p',
      groups: ['g'],
    }),
  };
}

/** The sample audit with `report` as its per-attribute metrics (no intersection, nothing planted). */
export function withMetrics(report: MetricsReport): AuditResult {
  const r = sampleAuditResult();
  r.metrics = { attributes: report, intersection: null };
  r.planted = undefined;
  return r;
}
