// EXPERIMENTS.md §14.1's rules, read from the side view of an audit of a score, a class or a real value
// (`audit.json` → `sides.audit`): what the canonical sets state, whether they name the planted feature, and which of
// their statements the population contradicts. A module of experiments/sets-truth.mjs with no work on import, so that
// test/experiments/sets-truth.test.ts can check the rules on hand-made findings.

/** The statuses findings.ts states a direction with (checks.ts STATED_STATUSES). */
export const STATED = ['agrees', 'overstates', 'understates'];

/** The intersection the simulator plants its intersectional penalty on, and the cells' attribute. */
export const CELL_ATTRIBUTE = 'sex × group';
export const PLANTED_CELL = 'Female & B';
/** The proxy column and its redlined zones (src/data/simulator.ts SIM_REDLINED). */
export const PROXY = { feature: 'neighbourhood', values: ['Eastfield', 'Southport'] };
/** The features whose stated values are judged against the population (§14.1 "False statement"). */
export const JUDGED = ['sex', 'group', PROXY.feature, CELL_ATTRIBUTE];
/** A population shift within ±NULL_SHIFT is no direction. */
export const NULL_SHIFT = 0.02;

/**
 * Every stated value of the side view: the protected and the named features' favoured and disfavoured values
 * (findings.ts states only those the real rows and every GAN seed back), and the intersection cells whose check has a
 * stated status, their direction from the real interval's side of 0. `pooled`: the canonical shift of the pooled sets.
 * @param {any} side `sides.audit` of an audit.json
 * @returns {{feature: string, value: string, direction: 'favoured' | 'disfavoured', status: string, pooled: number,
 *   real: number | null, from: 'protected' | 'named' | 'cell'}[]}
 */
export function statedValues(side) {
  /** @type {ReturnType<typeof statedValues>} */
  const out = [];
  const f = side.findings;
  for (const [from, list] of /** @type {const} */ ([
    ['protected', f.protected],
    ['named', f.named],
  ]))
    for (const x of list)
      for (const direction of /** @type {const} */ (['favoured', 'disfavoured']))
        for (const v of x[direction])
          out.push({
            feature: x.feature,
            value: v.value,
            direction,
            status: v.status,
            pooled: v.canonical.pooled,
            real: v.real.shift ?? null,
            from,
          });
  for (const c of side.checks.cells) {
    if (!STATED.includes(c.status)) continue;
    const direction = (c.real.lo ?? 0) > 0 ? 'favoured' : (c.real.hi ?? 0) < 0 ? 'disfavoured' : null;
    if (direction)
      out.push({
        feature: c.feature,
        value: c.value,
        direction,
        status: c.status,
        pooled: c.pooled,
        real: c.real.shift ?? null,
        from: 'cell',
      });
  }
  return out;
}

/** Whether `stated` holds `feature` = one of `values` as disfavoured, limited to entries `from`. */
const disfavoured = (stated, feature, values, from) =>
  stated.some((s) => s.feature === feature && values.includes(s.value) && s.direction === 'disfavoured' && from(s));

/**
 * The value of `feature` with the lowest pooled canonical shift among `shifts` (checks.shifts or checks.cells), null
 * when none.
 */
function mostDisfavoured(shifts, feature) {
  const mine = shifts.filter((c) => c.feature === feature && c.kind !== 'median' && Number.isFinite(c.pooled));
  if (!mine.length) return null;
  return mine.reduce((a, b) => (b.pooled < a.pooled ? b : a)).value;
}

/**
 * §14.1 "Named": whether the side view names what `bias` planted (the hit), whether the planted value is the most
 * disfavoured of its kind by the pooled canonical shift (`first`), and, for proxy, whether group = B is stated
 * disfavoured too (`groupB`). The rule is applied to fair runs as well (reported, not a target): there it reads
 * group = B for direct, the proxy column for proxy and the cell for intersectional, as named by `as`.
 * @param {'direct' | 'proxy' | 'intersectional'} as the planted bias whose rule is applied
 * @param {any} side `sides.audit`
 * @returns {{hit: boolean, first: boolean, groupB: boolean}}
 */
export function named(as, side) {
  const stated = statedValues(side);
  const groupB = disfavoured(stated, 'group', ['B'], (s) => s.from === 'protected');
  if (as === 'direct') {
    const first = mostDisfavoured(side.checks.shifts, 'group') === 'B';
    return { hit: groupB, first, groupB };
  }
  if (as === 'proxy') {
    const hit = disfavoured(stated, PROXY.feature, PROXY.values, (s) => s.from === 'named');
    const m = mostDisfavoured(side.checks.shifts, PROXY.feature);
    return { hit, first: m !== null && PROXY.values.includes(m), groupB };
  }
  const hit = disfavoured(stated, CELL_ATTRIBUTE, [PLANTED_CELL], (s) => s.from === 'cell');
  return { hit, first: mostDisfavoured(side.checks.cells, CELL_ATTRIBUTE) === PLANTED_CELL, groupB };
}

/**
 * §14.1 "False statement": the stated values of the judged features whose population shift (favoured side's share
 * minus the other side's) has the other sign or lies within ±NULL_SHIFT; a value the population lacks is false too.
 * @param {ReturnType<typeof statedValues>} stated
 * @param {Record<string, number>} population shift per `${feature}=${value}`
 */
export function falseStatements(stated, population) {
  return stated
    .filter((s) => JUDGED.includes(s.feature))
    .filter((s) => {
      const p = population[`${s.feature}=${s.value}`];
      if (p === undefined || Math.abs(p) <= NULL_SHIFT) return true;
      return s.direction === 'favoured' ? p < 0 : p > 0;
    })
    .map((s) => ({ ...s, population: population[`${s.feature}=${s.value}`] ?? null }));
}
