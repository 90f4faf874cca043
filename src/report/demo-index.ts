// What `lucid demo` shows: the index page (per report, what was planted, what the audit found and
// whether they match) and the lines it prints per report, from plantedOutcomes (src/audit/planted.ts),
// the one decision the report's planted headline reads too. Core code: strings, no Node imports.
import {
  foundText,
  plantedGroupName,
  plantedOutcomes,
  plantedValuesText,
  ruleVsModel,
  type PlantedOutcome,
} from '../audit/planted.js';
import type { AuditResult } from '../audit/types.js';
import { disadvantageFigures, disadvantageText } from '../methods/metrics/index.js';
import { escapeHtml as esc } from './format.js';

export interface DemoIndexEntry {
  title: string;
  /** the report, relative to the index */
  href: string;
  result: AuditResult;
  /** a line beside the report (e.g. how the model was trained) */
  note?: string;
}

/** The index page's file in the demo's folder. */
export const DEMO_INDEX_FILE = 'index.html';

const describeGroups = (d: Record<string, string>[]) =>
  d
    .map((g) =>
      Object.entries(g)
        .map(([k, v]) => `${k}=${v}`)
        .join(' & '),
    )
    .join('; ') || 'nobody';

/**
 * One simulated report of the demo in text: what was planted (`kind`: the kind of bias), what the
 * audit found, and the lines `lucid demo` prints for it (`report`: where it is; `drop`: the protected
 * columns the model was trained without, whom the proxy view covers).
 */
export function demoReportText(
  kind: string,
  report: string,
  r: AuditResult,
  protectedColumns: readonly string[],
  drop: readonly string[],
): { planted: string; found: string; text: string } {
  const p = r.planted![0];
  const planted = `${kind}: ${p.rule}; disadvantaged: ${describeGroups(p.disadvantaged)}`;
  const found = plantedOutcomes(r)
    .map((o) => foundText(o))
    .join('; ');
  const why = ruleVsModel(p, r.meta.model.features ?? null, protectedColumns);
  const text =
    `${kind.padEnd(15)} ${report}\n  planted: ${planted}\n  ` +
    `${why}${drop.length ? " The report's proxy view shows whom the model disfavours without reading them." : ''}` +
    `\n  found: ${found}\n`;
  return { planted, found, text };
}

/** The demo's last line: where its index is (`seconds`: how long the demo took). */
export function demoIndexText(index: string, seconds: number): string {
  return (
    `index: ${index}  (${seconds.toFixed(1)} s)\nopen ${index} in a browser: one report per kind of bias, each ` +
    `with its verdict table first\n`
  );
}

/** The line of a demo on real data (`split`: the words of its train/test split), where nothing was planted. */
export function datasetDemoText(
  name: string,
  report: string,
  seconds: number,
  protectedColumns: readonly string[],
  split: string,
): string {
  return (
    `${name}: ${report}  (${seconds.toFixed(1)} s; protected: ${protectedColumns.join(', ')}; ${split}; nothing is ` +
    `planted in real data)\n`
  );
}

/** at most this many groups flagged beyond the planted ones are named per report */
const OTHERS = 3;

/**
 * One report's entry: the link, what was planted, the rule against the model, found ✓ or missed ✗ per planted group,
 * the other flags.
 */
function entryHtml(e: DemoIndexEntry, outcomes: readonly PlantedOutcome[]): string {
  const r = e.result;
  const prot = r.protected.map((p) => p.column);
  const blocks = outcomes.map((o) => {
    const planted = o.planted.disadvantaged.map(plantedValuesText).join('; ');
    const rows = o.groups.map((g) =>
      g.found
        ? `<li class="found">✓ found: ${esc(plantedGroupName(g))} is flagged disadvantaged: ` +
          `${esc(disadvantageFigures(g.found))}</li>`
        : `<li class="missed">✗ missed: ${esc(plantedGroupName(g))} is not flagged disadvantaged on the selection ` +
          `rate (the favourable decision's rate)</li>`,
    );
    const others = o.others.map((f) => `${f.attribute}: ${disadvantageText(f)}`);
    const also = others.length
      ? `<li>also flagged disadvantaged, not planted: ${others.slice(0, OTHERS).map(esc).join('; ')}` +
        `${others.length > OTHERS ? `; and ${others.length - OTHERS} more` : ''}</li>`
      : '<li>no other group flagged disadvantaged on the selection rate</li>';
    return (
      `<p class="verdict ${o.matches ? 'match' : 'miss'}"><strong>` +
      `${o.matches ? '✓ the audit finds what was planted' : '✗ the audit misses what was planted'}</strong></p>
<p>planted: ${esc(planted)} disadvantaged, by the rule ${esc(o.planted.rule)}</p>
<p class="why">${esc(ruleVsModel(o.planted, r.meta.model.features ?? null, prot))}</p>
<ul>${rows.join('')}${also}</ul>`
    );
  });
  return `<li><a href="${esc(e.href)}">${esc(e.title)}</a>${e.note ? ` <span>${esc(e.note)}</span>` : ''}
${blocks.join('\n') || '<p>nothing was planted</p>'}</li>`;
}

/** The index page of `lucid demo`. */
export function demoIndexHtml(entries: readonly DemoIndexEntry[]): string {
  const outcomes = entries.map((e) => plantedOutcomes(e.result));
  const total = outcomes.reduce((s, os) => s + os.length, 0);
  const matched = outcomes.reduce((s, os) => s + os.filter((o) => o.matches).length, 0);
  return (
    `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>lucid-wasm ` +
    `demo</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:44rem;margin:2rem auto;padding:0 1rem;` +
    `overflow-wrap:anywhere}li{margin:.4rem 0}ol>li{margin:1.4rem 0}span,.why{color:#444;font-size:.9em}` +
    `p{margin:.3rem 0}.match{color:#005b96}.miss{color:#b3261e}</style>
</head>
<body>
<h1>lucid-wasm demo</h1>
<p>Each report audits a model trained on simulated loan decisions with one kind of discrimination planted.
"Found" means the audit flags the planted group as disadvantaged on the selection rate (the favourable
decision's rate), at its attribute or, for a planted combination, at the intersection of its attributes.
The audit finds what was planted in ${matched} of ${total} report${total === 1 ? '' : 's'}.</p>
<ol>
${entries.map((e, i) => entryHtml(e, outcomes[i])).join('\n')}
</ol>
</body>
</html>
`
  );
}
