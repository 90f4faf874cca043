// Stage 4b of an audit: the canonical sets checked against the real rows on their side — each
// feature's fidelity, the shift of every protected group (and of the top features, and of each
// intersection's cells) with its interval from the data — and the findings those checks allow.
import { Rng } from '../../engine/rng.js';
import type { Table } from '../../data/table.js';
import {
  binnedVariable,
  categoricalVariable,
  cellVariable,
  CHECK_DEFAULTS,
  correctShiftChecks,
  fidelity,
  numericVariable,
  realSeparation,
  shiftChecks,
  type CheckVariable,
  type FeatureFidelity,
  type ShiftCheck,
} from '../checks.js';
import { buildFindings, FINDINGS_DEFAULTS, type AuditFindings } from '../findings.js';
import type { AuditResult, BeyondCheck, Distribution } from '../types.js';
import { beyondCaveats, beyondStage } from './beyond.js';
import type { CanonicalStage, Sets } from './canonical-sets.js';
import type { AuditContext } from './context.js';
import type { GanStage } from './gan.js';
import type { GroupView, MetricsStage, Suppression } from './metrics.js';

export interface ChecksStage {
  fid: FeatureFidelity[];
  /** per protected group (and top feature) */
  shifts: ShiftCheck[];
  /** per cell of each pair of protected attributes */
  cells: ShiftCheck[];
  /** the pairs of protected attributes (indices into the views), in the order the intersections take them */
  pairVars: [number, number][];
  findings: AuditFindings;
  /** pair trends, detection and privacy per side (beyond.ts) */
  beyond: BeyondCheck;
}

export function checksStage(
  ctx: AuditContext,
  ms: MetricsStage,
  gs: GanStage,
  cs: CanonicalStage,
  s: Sets,
  supp: Suppression,
): ChecksStage {
  const { engine, table, plan, seedLog, caveats, progress } = ctx;
  const { views, yhat, attributes, favourable } = ms;
  const { ganColumns } = gs;
  const { main, canonical } = cs;
  const { roleOf } = s;
  const suppressedValues = supp.values;
  const suppressedCells = supp.cells;
  progress('checks', 0);
  // its own stream (not seed + j, which the transformer's mixture fits use)
  const checkRng = new Rng(engine, plan.seeds.checks);
  seedLog['checks against the real rows'] = plan.seeds.checks;
  const setsBySeed = main.perSeed.map((d) => ({ positive: d.positive.table, negative: d.negative.table }));
  const fid = fidelity(
    ganColumns.map((c) => ({ name: c.name, kind: c.kind })),
    table,
    yhat,
    setsBySeed,
    checkRng,
    { emptyFails: true },
  );
  const fidOf = (f: string) => fid.find((x) => x.feature === f) ?? null;
  const vars: CheckVariable[] = views.map((v) => viewVariable(v, table, roleOf(v.attr.column)));
  // the real rows' separation of every feature the sets generate, and of the protected attributes: the
  // ranking the findings name features by (the data's, which no GAN seed changes), from a stream of its own
  const featureVars = canonical.distributions
    .filter((d) => d.role === 'feature' && table.columns.some((c) => c.name === d.feature))
    .map((d) => {
      const c = table.columns.find((x) => x.name === d.feature)!;
      return c.kind === 'numeric'
        ? numericVariable(table, d.feature, 'feature')
        : categoricalVariable(table, d.feature, 'feature');
    });
  seedLog["the real rows' separation of each feature"] = plan.seeds.separation;
  const separation = realSeparation([...featureVars, ...vars], yhat, new Rng(engine, plan.seeds.separation));
  // the features checked value by value: in the real rows' order, the first CHECK_DEFAULTS.topFeatures
  // that separate beyond chance and are faithful, and every one of the real top 3 (named or not, said why)
  const byReal = featureVars
    .map((v, i) => ({ v, s: separation[i] }))
    .sort((a, b) => b.s.js - a.s.js || (a.v.feature < b.v.feature ? -1 : a.v.feature > b.v.feature ? 1 : 0));
  let namedSeen = 0;
  byReal.forEach(({ v, s }, i) => {
    const nameable = s.beyondChance && fidOf(v.feature)?.faithful === true && namedSeen < CHECK_DEFAULTS.topFeatures;
    if (nameable) namedSeen++;
    if (nameable || i < FINDINGS_DEFAULTS.realTop) vars.push(v);
  });
  // suppressed values and cells are not checked against their real rows (a check's real shares are counts of their
  // people)
  const shifts = shiftChecks(vars, yhat, setsBySeed, checkRng, { favourable }).filter(
    (x) => !suppressedValues.get(x.feature)?.has(x.value),
  );
  const pairVars: [number, number][] = [];
  for (let i = 0; i < views.length; i++) for (let j = i + 1; j < views.length; j++) pairVars.push([i, j]);
  const cells = (
    pairVars.length
      ? shiftChecks(
          pairVars.map(([i, j]) => cellVariable(vars[i], vars[j])),
          yhat,
          setsBySeed,
          checkRng,
          { favourable },
        )
      : []
  ).filter((x) => !suppressedCells.get(x.feature)?.has(x.value));
  // the same corrected level as the verdicts: Holm over every check of the audit
  correctShiftChecks([shifts, cells], attributes.verdicts.alpha);
  const findings = buildFindings(
    canonical.distributions,
    fid,
    shifts,
    views.map((v) => v.attr.column),
    favourable,
    separation,
  );
  checkCaveats(caveats, findings, fid);
  const beyond = beyondStage(
    engine,
    plan.seeds.beyond,
    seedLog,
    table,
    ganColumns.map((c) => ({ name: c.name, kind: c.kind })),
    yhat,
    { positive: main.positive, negative: main.negative },
    gs.ganRows,
  );
  beyondCaveats(caveats, beyond);
  return { fid, shifts, cells, pairVars, findings, beyond };
}

/** A protected attribute's groups as a check variable (a numeric one: its bins, with the median). */
function viewVariable(v: GroupView, table: Table, role: Distribution['role']): CheckVariable {
  if (v.attr.kind === 'numeric' && v.attr.bins)
    return binnedVariable(table, v.attr.column, role, v.attr.bins.edges, v.attr.bins.labels);
  const index = new Map(v.values.map((x, i) => [x, i]));
  const code = (ls: string[]) => Int32Array.from(ls, (l) => index.get(l) ?? -1);
  return {
    feature: v.attr.column,
    role,
    values: v.values.slice(),
    real: code(v.dataLabels),
    codeOf: (t) => code(v.labelsOf(t)),
  };
}

/** Caveats from the checks: features misrepresented by the sets, and directions the sets get wrong. */
function checkCaveats(caveats: AuditResult['caveats'], f: AuditFindings, fid: readonly FeatureFidelity[]): void {
  const bad = fid.filter((x) => !x.faithful).map((x) => x.feature);
  const prot = new Set(f.protected.map((x) => x.feature));
  const badFeatures = bad.filter((x) => !prot.has(x));
  const badProtected = bad.filter((x) => prot.has(x));
  // one statement per feature: a misrepresented feature is not named; a misrepresented protected attribute is stated
  // from the real rows
  if (bad.length)
    caveats.push({
      topic: 'fidelity',
      text:
        `the canonical sets misrepresent ${bad.length} of ${fid.length} features against the real rows on their ` +
        `side (KS or TV distance above max(noise floor, ${CHECK_DEFAULTS.fidelityTolerance}))${
          badFeatures.length
            ? `: ${badFeatures.join(', ')} (their charts are marked and they are not named as findings)`
            : ''
        }${
          badProtected.length
            ? `${badFeatures.length ? '; and' : ':'} the protected attribute${badProtected.length === 1 ? '' : 's'} ` +
              `${badProtected.join(', ')} (stated from the real rows, the sets as context)`
            : ''
        }`,
    });
  // a share shift in percentage points, a median shift in the feature's units
  const f1 = (x: number | null, kind: 'share' | 'median') =>
    x === null || !Number.isFinite(x)
      ? 'n/a'
      : kind === 'median'
        ? String(Number(x.toPrecision(4)))
        : `${(100 * x).toFixed(1)} pp`;
  for (const x of f.protected) {
    for (const v of x.disagreements)
      caveats.push({
        topic: 'fidelity',
        text:
          `${x.feature} = ${v.kind === 'median' ? 'the median' : v.value}: the canonical sets disagree with the ` +
          `data (canonical ${v.kind === 'median' ? 'median ' : ''}shift ${f1(v.canonical.pooled, v.kind)}, real ` +
          `${f1(v.real.shift, v.kind)} [${f1(v.real.lo, v.kind)}, ${f1(v.real.hi, v.kind)}]); it is not stated ` +
          `as a preference`,
      });
  }
}
