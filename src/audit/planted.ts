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
import { disadvantageFigures, disadvantageText, disadvantages, type Disadvantage } from '../methods/metrics/index.js';
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

/** the metrics' name of a combination of protected values: the attributes joined by " × ", the values by ", " */
const JOIN = { attributes: ' × ', values: ', ' };

/** The planted group `d` among the audit's attributes: its attribute and group as the metrics name them (null: no such attribute). */
function locate(d: Record<string, string>, attributes: readonly AttributeResult[]): { attribute: string; group: string } | null {
  const keys = Object.keys(d);
  for (const a of attributes) {
    const cols = a.column.split(JOIN.attributes);
    if (cols.length !== keys.length || !keys.every((k) => cols.includes(k))) continue;
    return { attribute: a.column, group: cols.map((c) => d[c]).join(JOIN.values) };
  }
  return null;
}

/** Per planted rule: each planted group found or missed, and the other groups flagged disadvantaged on the selection rate. */
export function plantedOutcomes(r: AuditResult): PlantedOutcome[] {
  const attributes = [...r.metrics.attributes.attributes, ...(r.metrics.intersection?.attributes ?? [])];
  const flagged = attributes.flatMap((a) => disadvantages(a).filter((d) => d.metric === 'selection_rate' && d.direction === 'disadvantaged'));
  return (r.planted ?? []).map((p) => {
    const groups = p.disadvantaged.map((d): PlantedGroup => {
      const at = locate(d, attributes);
      const name = at ?? { attribute: Object.keys(d).join(JOIN.attributes), group: Object.values(d).join(JOIN.values) };
      return { ...name, found: at ? flagged.find((f) => f.attribute === at.attribute && f.group === at.group) ?? null : null };
    });
    const isPlanted = (f: Disadvantage) => groups.some((g) => g.attribute === f.attribute && g.group === f.group);
    return { planted: p, groups, matches: groups.length > 0 && groups.every((g) => g.found !== null), others: flagged.filter((f) => !isPlanted(f)) };
  });
}

/** "group = B" */
export const plantedGroupName = (g: { attribute: string; group: string }): string => `${g.attribute} = ${g.group}`;

/** The demo's "found:" line: each planted group found (with its flag) or missed, then the other groups flagged. */
export function foundText(o: PlantedOutcome, maxOthers = 4): string {
  const parts = o.groups.map((g) => (g.found ? `${plantedGroupName(g)} flagged disadvantaged: ${disadvantageFigures(g.found)}` : `${plantedGroupName(g)} MISSED: not flagged disadvantaged on the selection rate`));
  if (!o.groups.length) parts.push('nothing was planted');
  const others = o.others.map((f) => `${f.attribute}: ${disadvantageText(f)}`);
  return parts.join('; ') + (others.length ? `; also flagged disadvantaged (not planted): ${others.slice(0, maxOthers).join('; ')}${others.length > maxOthers ? `; and ${others.length - maxOthers} more` : ''}` : '; no other group flagged disadvantaged on the selection rate');
}

const andList = (xs: readonly string[]): string => (xs.length <= 1 ? xs.join('') : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`);

/**
 * One sentence on the planted rule against the model trained on its decisions: the columns each reads
 * and what follows, that the model's decisions can differ by a protected attribute the rule does not
 * use. `modelReads`: the model's input columns (null: unknown); `protectedColumns`: the audit's.
 */
export function ruleVsModel(p: Planted, modelReads: readonly string[] | null, protectedColumns: readonly string[]): string {
  const rule = `The planted rule reads ${p.reads.length} column${p.reads.length === 1 ? '' : 's'} (${p.reads.join(', ')})`;
  const planted = andList(p.disadvantaged.map((d) => Object.entries(d).map(([k, v]) => `${k} = ${v}`).join(' & ')));
  const unused = protectedColumns.filter((c) => !p.reads.includes(c));
  if (!modelReads) return `${rule}; which columns the model reads is unknown, so a disparity beyond ${planted || 'the planted groups'} is the model's, not planted.`;
  const extra = modelReads.filter((c) => !p.reads.includes(c));
  const notRead = p.reads.filter((c) => !modelReads.includes(c));
  const model = `the model trained on its decisions reads ${modelReads.length}${extra.length ? ` (${andList(extra)} too${notRead.length ? `; not ${andList(notRead)}` : ''})` : notRead.length ? ` (not ${andList(notRead)})` : ''}`;
  const them = unused.length === 1 ? 'it' : 'them';
  const differ = unused.length
    ? `its decisions can differ by ${andList(unused)}, which the rule does not use, through the columns that go with ${them}${unused.some((c) => modelReads.includes(c)) ? ' or a weight it learnt' : ''}`
    : `its decisions can differ by ${andList(protectedColumns)} each on ${protectedColumns.length === 1 ? 'its' : 'their'} own and through the columns that go with ${protectedColumns.length === 1 ? 'it' : 'them'}, beyond the rule's penalty`;
  return `${rule}; ${model}, so ${differ}: what was planted is ${planted || 'nothing'} disadvantaged.`;
}
