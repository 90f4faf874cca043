// What the browser page says above the report once an audit is done: one line of what was audited
// and one paragraph of what the checks against the data say. The page (web/main.ts) only puts them in
// its elements; the report itself is ./sections.ts's, in a frame. An audit of a score, a class among k or a real
// value says its kind and headline first, and the checks of its canonical sets (those of its two targets) when they
// were drawn. Core code: strings, no DOM.
import { isOutputAudit, type AnyAuditResult, type AuditResult, type OutputAuditResult } from '../audit/types.js';
import { outputAuditHeadline } from './output-html.js';

export interface PageView {
  /** the audit stopped early (Cancel): the sets come from the GANs trained so far */
  cancelled: boolean;
  /** one line: the rows, the seconds, the GANs and the sets' sizes */
  summary: string;
  /** the checks of the canonical sets against the data, in one paragraph */
  checks: string;
  /** nothing the checks found: every figure agrees or cannot be told, every feature faithful */
  checksOk: boolean;
  /** values on which the sets shift the other way from the data */
  disagreements: number;
  /** features the sets misrepresent */
  unfaithful: number;
}

/** "LUCID-GAN 3 epochs × 3 seeds; 300 positive and 300 negative rows." */
function setsLine(r: AuditResult): string {
  const g = r.meta.gan;
  return `LUCID-GAN ${g.epochs} epochs × ${g.seeds.length} seed${g.seeds.length === 1 ? '' : 's'}${
    g.sample
      ? ` on a stratified sample of ${g.sample.rows.toLocaleString('en-US')} of ` +
        `${g.sample.of.toLocaleString('en-US')} rows`
      : ''
  }; ${r.canonical.positive.rows} positive and ${r.canonical.negative.rows} negative rows.`;
}

/** The page's view of an audit that took `seconds` in its worker. */
export function pageView(r: AuditResult, seconds: number): PageView {
  // a stop that cut the GANs' training short; one after they had finished leaves the sets complete
  const cancelled = r.meta.interrupted?.cutShort === true;
  const interrupted = cancelled ? ' (cancelled: the sets come from the GANs trained so far)' : '';
  const summary = `Audited ${r.meta.data.rows} rows in ${seconds.toFixed(1)} s${interrupted}: ${setsLine(r)}`;
  const dis = r.checks.shifts.filter((c) => c.status === 'disagrees');
  const misstated = r.checks.shifts.filter((c) => c.status === 'overstates' || c.status === 'understates');
  const prot = new Set(r.protected.map((p) => p.column));
  const unfaithful = r.checks.fidelity.filter((f) => !f.faithful).map((f) => f.feature);
  const parts: string[] = [];
  if (dis.length)
    parts.push(
      `The canonical sets shift the other way from the data on ${dis.length} value${dis.length === 1 ? '' : 's'} (${dis
        .slice(0, 6)
        .map((c) => `${c.feature} = ${c.value}`)
        .join(', ')}${dis.length > 6 ? ', …' : ''}): those are not findings.`,
    );
  if (misstated.length)
    parts.push(
      `They misstate the size of ${misstated.length} value${misstated.length === 1 ? '' : 's'} (${misstated
        .slice(0, 6)
        .map((c) => `${c.feature} = ${c.value}: ${c.status}`)
        .join(', ')}${misstated.length > 6 ? ', …' : ''}): the report gives the real rows' size.`,
    );
  if (unfaithful.length)
    parts.push(
      `They misrepresent ${unfaithful.length} of ${r.checks.fidelity.length} features against the real rows ` +
        `(${unfaithful.join(', ')}); ${
          unfaithful.some((f) => prot.has(f))
            ? 'the features among them are not named, the protected attributes are stated from the real rows'
            : 'those are not named as findings'
        }.`,
    );
  return {
    cancelled,
    summary,
    checks: parts.length
      ? parts.join(' ')
      : 'Every checked figure agrees with the real rows or the real rows cannot tell; the sets generate every ' +
        'feature faithfully.',
    checksOk: parts.length === 0,
    disagreements: dis.length,
    unfaithful: unfaithful.length,
  };
}

/**
 * The page's view of an audit of any kind: a binary audit's as pageView says; a score's, classes' or real value's is
 * its kind and headline, with the checks of the canonical sets of its two targets (their binary audit) when drawn.
 */
export function anyPageView(r: AnyAuditResult, seconds: number): PageView {
  return isOutputAudit(r) ? outputPageView(r, seconds) : pageView(r, seconds);
}

function outputPageView(r: OutputAuditResult, seconds: number): PageView {
  const head =
    `Audited ${r.meta.data.rows} rows in ${seconds.toFixed(1)} s: output ${r.meta.output.reason}; ` +
    `${outputAuditHeadline(r)}.`;
  const sides = r.sides;
  if (sides && 'audit' in sides) {
    const v = pageView(sides.audit, seconds);
    const { favoured, other } = sides.pair;
    return {
      ...v,
      summary:
        `${head} Canonical sets of ${favoured.label} (${sides.rows.favoured} rows, positive) against ${other.label} ` +
        `(${sides.rows.other} rows, negative)${v.cancelled ? ' (cancelled: from the GANs trained so far)' : ''}: ` +
        setsLine(sides.audit),
    };
  }
  return {
    cancelled: r.meta.interrupted?.cutShort === true,
    summary: head,
    checks: sides && 'skipped' in sides ? `No canonical sets: ${sides.skipped}` : r.notRun,
    // no sets were drawn, so nothing was checked: said as a caution, not as a clean result
    checksOk: false,
    disagreements: 0,
    unfaithful: 0,
  };
}
