// What an audit of planted discrimination found against what was planted (the demo's "found:" line,
// its index page and the report's planted headline all read this; none decides on its own). Core code.
//
// The rule: a planted group is FOUND when the audit flags it as disadvantaged on the selection rate
// (the favourable decision's rate, the same number however the label is coded), at the planted
// attribute, or for a planted combination at the intersection cell of its attributes. A flag reads
// from the side of the group it disadvantages (disadvantages() in the metrics' summary), so a planted
// group that is the reference is found when another group is flagged advantaged against it. Any other
// group flagged disadvantaged on the selection rate is listed beside it: a disparity the model shows
// that was not planted (e.g. through a column that goes with a protected attribute).
import {
  INTERSECTION_JOIN,
  disadvantageFigures,
  disadvantageText,
  disadvantages,
  type Disadvantage,
} from '../methods/metrics/index.js';
import type { AttributeResult } from '../methods/metrics/index.js';
import type { AuditResult } from './types.js';

export type Planted = NonNullable<AuditResult['planted']>[number];

/** A planted group as the metrics name it: "group" = "B", or "sex × group" = "Female, B". */
export interface PlantedGroup {
  attribute: string;
  group: string;
  /** the flag that finds it (null: missed) */
  found: Disadvantage | null;
}

export interface PlantedOutcome {
  planted: Planted;
  groups: PlantedGroup[];
  /** every planted group found (false when nothing was planted) */
  matches: boolean;
  /** other groups flagged disadvantaged on the selection rate, not planted */
  others: Disadvantage[];
}

/**
 * The planted group `d` among the audit's attributes: its attribute and group as the metrics name them (null: no such
 * attribute).
 */
function locate(
  d: Record<string, string>,
  attributes: readonly AttributeResult[],
): { attribute: string; group: string } | null {
  const keys = Object.keys(d);
  for (const a of attributes) {
    const cols = a.column.split(INTERSECTION_JOIN.attributes);
    if (cols.length !== keys.length || !keys.every((k) => cols.includes(k))) continue;
    return { attribute: a.column, group: cols.map((c) => d[c]).join(INTERSECTION_JOIN.values) };
  }
  return null;
}

/**
 * The values of a cell of the intersection of `cols` ("Female, [17, 28]" → Female and [17, 28]), read
 * against each column's own groups, since a value can hold ", " itself (a bin); null when they do not fit.
 */
function cellValues(cols: readonly string[], cell: string, attributes: readonly AttributeResult[]): string[] | null {
  if (cols.length === 1) return [cell];
  const known = (c: string) => attributes.find((a) => a.column === c)?.groups.map((g) => g.value) ?? [];
  const go = (i: number, rest: string): string[] | null => {
    if (i === cols.length - 1) return known(cols[i]).includes(rest) ? [rest] : null;
    for (const v of known(cols[i])) {
      if (!rest.startsWith(v + INTERSECTION_JOIN.values)) continue;
      const tail = go(i + 1, rest.slice(v.length + INTERSECTION_JOIN.values.length));
      if (tail) return [v, ...tail];
    }
    return null;
  };
  return go(0, cell);
}

/**
 * Per planted rule: each planted group found or missed, and the other groups flagged disadvantaged on the selection
 * rate (not within a planted group).
 */
export function plantedOutcomes(r: AuditResult): PlantedOutcome[] {
  const attributes = [...r.metrics.attributes.attributes, ...(r.metrics.intersection?.attributes ?? [])];
  const flagged = attributes.flatMap((a) =>
    disadvantages(a).filter((d) => d.metric === 'selection_rate' && d.direction === 'disadvantaged'),
  );
  return (r.planted ?? []).map((p) => {
    const groups = p.disadvantaged.map((d): PlantedGroup => {
      const at = locate(d, attributes);
      const name = at ?? {
        attribute: Object.keys(d).join(INTERSECTION_JOIN.attributes),
        group: Object.values(d).join(INTERSECTION_JOIN.values),
      };
      return {
        ...name,
        found: at ? (flagged.find((f) => f.attribute === at.attribute && f.group === at.group) ?? null) : null,
      };
    });
    // a flag within a planted group (group = B's cells "Female, B" and "Male, B" at the intersection) is the plant seen
    // finer, not another finding
    const within = (f: Disadvantage) => {
      const cols = f.attribute.split(INTERSECTION_JOIN.attributes);
      const vals = cellValues(cols, f.group, attributes);
      return (
        vals !== null &&
        p.disadvantaged.some((d) =>
          Object.entries(d).every(([k, v]) => cols.includes(k) && vals[cols.indexOf(k)] === v),
        )
      );
    };
    return {
      planted: p,
      groups,
      matches: groups.length > 0 && groups.every((g) => g.found !== null),
      others: flagged.filter((f) => !within(f)),
    };
  });
}

/** A planted combination in words: "sex = Female & group = B". */
export const plantedValuesText = (d: Record<string, string>): string =>
  Object.entries(d)
    .map(([k, v]) => `${k} = ${v}`)
    .join(' & ');

/** "group = B" */
export const plantedGroupName = (g: { attribute: string; group: string }): string => `${g.attribute} = ${g.group}`;

/** The demo's "found:" line: each planted group found (with its flag) or missed, then the other groups flagged. */
export function foundText(o: PlantedOutcome, maxOthers = 4): string {
  const parts = o.groups.map((g) =>
    g.found
      ? `${plantedGroupName(g)} flagged disadvantaged: ${disadvantageFigures(g.found)}`
      : `${plantedGroupName(g)} MISSED: not flagged disadvantaged on the selection rate`,
  );
  if (!o.groups.length) parts.push('nothing was planted');
  const others = o.others.map((f) => `${f.attribute}: ${disadvantageText(f)}`);
  return (
    parts.join('; ') +
    (others.length
      ? `; also flagged disadvantaged (not planted): ${others.slice(0, maxOthers).join('; ')}` +
        `${others.length > maxOthers ? `; and ${others.length - maxOthers} more` : ''}`
      : '; no other group flagged disadvantaged on the selection rate')
  );
}

const andList = (xs: readonly string[]): string =>
  xs.length <= 1 ? xs.join('') : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`;
const orList = (xs: readonly string[]): string =>
  xs.length <= 1 ? xs.join('') : `${xs.slice(0, -1).join(', ')} or ${xs[xs.length - 1]}`;

/**
 * One sentence on the planted rule against the model trained on its decisions: the columns each reads
 * and what follows, that the model's decisions can differ by a protected attribute the rule does not
 * use. `modelReads`: the model's input columns (null: unknown); `protectedColumns`: the audit's.
 */
export function ruleVsModel(
  p: Planted,
  modelReads: readonly string[] | null,
  protectedColumns: readonly string[],
): string {
  const rule =
    `The planted rule reads ${p.reads.length} column${p.reads.length === 1 ? '' : 's'} ` + `(${p.reads.join(', ')})`;
  const planted = andList(p.disadvantaged.map(plantedValuesText));
  const unused = protectedColumns.filter((c) => !p.reads.includes(c));
  if (!modelReads)
    return (
      `${rule}; which columns the model reads is unknown, so a disparity beyond ${planted || 'the planted groups'} ` +
      `is the model's, not planted.`
    );
  const extra = modelReads.filter((c) => !p.reads.includes(c));
  // the rule's columns and the protected ones the model was not given (the proxy demo's model is trained without sex
  // and group)
  const notRead = [...new Set([...p.reads, ...protectedColumns])].filter((c) => !modelReads.includes(c));
  const model = `the model trained on its decisions reads ${modelReads.length}${
    extra.length
      ? ` (${andList(extra)} too${notRead.length ? `; not ${orList(notRead)}` : ''})`
      : notRead.length
        ? ` (not ${orList(notRead)})`
        : ''
  }`;
  const them = unused.length === 1 ? 'it' : 'them';
  const differ = unused.length
    ? `its decisions can differ by ${andList(unused)}, which the rule does not use, through the columns that go with ` +
      `${them}${unused.some((c) => modelReads.includes(c)) ? ' or a weight it learnt' : ''}`
    : `its decisions can differ by ${andList(protectedColumns)} each on ` +
      `${protectedColumns.length === 1 ? 'its' : 'their'} own and through the columns that go with ` +
      `${protectedColumns.length === 1 ? 'it' : 'them'}, beyond the rule's penalty`;
  return `${rule}; ${model}, so ${differ}: what was planted is ${planted || 'nothing'} disadvantaged.`;
}
