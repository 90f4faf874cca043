// The report's provenance block: what was audited and how, so that anyone can check
// a report against its inputs and run it again — the data file's SHA-256 and row count, the model
// file's SHA-256 (a predictions column has none), the tool version, the command line (shell-quoted) or
// the browser page's options, every seed by purpose, and the small-cell suppression in force. The
// header of render.ts shows it; audit.json holds the same fields under "meta". Core code: no Node
// imports, no DOM; deterministic for a given AuditResult.
import type { AuditCommand, AuditResult } from '../audit/types.js';
import { escapeHtml as esc, fmtInt } from './format.js';

/** Seeds named in the block itself; the rest (one per draw round) are in the folded table. */
const DRAW_SEED = /draw round \d+$/;

/** One argument as a POSIX shell reads it back: bare when safe, else in single quotes. */
export function shellQuote(arg: string): string {
  if (arg !== '' && /^[A-Za-z0-9_@%+=:,./-]+$/.test(arg)) return arg;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** The command line of `lucid audit …` (argv: the arguments after `lucid`), shell-quoted. */
export function commandLine(argv: readonly string[]): string {
  return ['lucid', ...argv].map(shellQuote).join(' ');
}

function commandText(c: AuditCommand | undefined): string {
  if (!c || c.via === 'api') return 'runAudit called by a program (no command line)';
  if (c.via === 'cli') return `<code class="cmd" style="overflow-wrap:anywhere">${esc(commandLine(c.argv))}</code>`;
  const opts = Object.entries(c.options)
    .map(([k, v]) => `${esc(k)} = ${v === null ? 'default' : esc(String(v))}`)
    .join('; ');
  return `browser page${opts ? `, options: ${opts}` : ''}`;
}

const hash = (h: string | null | undefined) =>
  h ? `SHA-256 <code class="hash" style="overflow-wrap:anywhere">${esc(h)}</code>` : '';

/** The provenance block of the report's header. */
export function provenanceBlock(r: AuditResult): string {
  const m = r.meta;
  const d = m.data;
  const data = [
    `${esc(d.source)} — ${fmtInt(d.rows)} ` +
      `rows${d.bytes !== null && d.bytes !== undefined ? `, ${fmtInt(d.bytes)} bytes` : ''}`,
    d.sha256 ? hash(d.sha256) : esc(d.note ?? 'no file hash'),
  ].join('; ');
  const model = m.model.sha256
    ? `${esc(m.model.source)}; ${hash(m.model.sha256)}`
    : esc(m.model.note ?? 'no model file hash');
  const seeds = Object.entries(m.seeds ?? {});
  const named = seeds.filter(([k]) => !DRAW_SEED.test(k));
  const draws = seeds.length - named.length;
  const table = seeds.length
    ? `<details class="seeds"><summary>All ${fmtInt(seeds.length)} seeds, by ` +
      `purpose${draws ? ` (${fmtInt(draws)} of them sample the canonical sets, one per draw round)` : ''}` +
      `</summary><table class="seeds"><thead><tr><th class="l">purpose</th><th>seed</th></tr></thead><tbody>` +
      `${seeds.map(([k, v]) => `<tr><td class="l">${esc(k)}</td><td>${esc(v)}</td></tr>`).join('')}</tbody>` +
      `</table></details>`
    : '';
  const k = m.suppressBelow;
  const suppression =
    k !== null && k !== undefined
      ? `groups and intersection cells with fewer than ${fmtInt(k)} people are suppressed: no rate, count of ` +
        `positives, interval or real-row figure of theirs is shown anywhere, and they get no verdict`
      : 'none (every group’s figures are shown; <code>--suppress-below k</code> hides those of groups under k people)';
  return (
    `<section class="provenance" id="provenance"><h2 style="border:0;margin:.6em 0 .2em;font-size:1.1em">` +
    `Provenance</h2>
<dl class="meta">
<dt>Data file</dt><dd>${data}</dd>
<dt>Model file</dt><dd>${model}</dd>
<dt>Tool</dt><dd>${esc(m.tool)} ${esc(m.version)} (${esc(m.variant)})</dd>
<dt>Command</dt><dd>${commandText(m.command)}</dd>
<dt>Seeds</dt><dd>${named.map(([p, v]) => `${esc(p)} <strong>${esc(v)}</strong>`).join(' · ') || esc(m.seed)}${table}` +
    `</dd>
<dt>Suppression</dt><dd>${suppression}</dd>
</dl></section>`
  );
}
