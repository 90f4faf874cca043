// The report and the summary of a score, class or value audit with its canonical sets, LUCID and FALE (issue #40):
// the sets are a binary audit of side 1 (the favoured target) vs side 0, drawn by the binary renderers in the targets'
// words; the first screen says which two targets are contrasted, why and how many rows each holds; LUCID and FALE
// show when the result carries them; `notRun` says only what did not run; the files of the sets are named for the
// targets and audit.json holds their references. The result here is built from a real score report (outputMetrics on
// the simulator) and the sample binary audit as the side view, so no GAN runs.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { simulate } from '../../src/data/simulator.js';
import { Rng } from '../../src/engine/rng.js';
import { outputMetrics } from '../../src/methods/metrics/index.js';
import { notRunText } from '../../src/audit/stages/output.js';
import type { MetricsOnlyReport, OutputAuditResult, SidesSection } from '../../src/audit/types.js';
import type { OutputTarget } from '../../src/methods/metrics/targets.js';
import { auditFileNames, renderReport } from '../../src/report/sections.js';
import { auditFiles } from '../../src/report/audit-files.js';
import { auditJson, auditSummary } from '../../src/report/summary.js';
import { targetWords } from '../../src/report/sides-html.js';
import { getEngine } from '../helpers/engine.js';
import { sampleAuditResult } from './sample-audit.js';

const FAV: OutputTarget = {
  kind: 'band',
  lo: 730,
  hi: 850,
  spec: { lo: 0.9, hi: 1, scale: 'quantile' },
  label: 'top decile of credit_score (730 ≤ credit_score ≤ 850)',
};
const OTHER: OutputTarget = {
  kind: 'band',
  lo: 300,
  hi: 520,
  spec: { lo: 0, hi: 0.1, scale: 'quantile' },
  label: 'bottom decile of credit_score (300 ≤ credit_score ≤ 520)',
};
const WHY = 'the top and the bottom deciles of the output (the default)';

let metrics: MetricsOnlyReport;

before(async () => {
  const engine = await getEngine();
  const { table } = simulate(new Rng(engine, 5), { n: 800, bias: 'direct', target: 'score' });
  metrics = outputMetrics(table, {
    label: 'repaid',
    pred: 'credit_score',
    output: 'score',
    positive: 'yes',
    favourable: 'higher',
    groups: ['group'],
    rng: new Rng(engine, 7),
  }) as MetricsOnlyReport;
});

/** A score audit's result: `parts` of it given (sides, lucid, fale), the rest as the stage makes them. */
function scoreAudit(parts: Partial<Pick<OutputAuditResult, 'sides' | 'lucid' | 'fale' | 'faleSkipped'>>) {
  const b = sampleAuditResult();
  const { positive: _p, favourable: _f, threshold: _t, gan: _g, ...meta } = b.meta;
  const r: OutputAuditResult = {
    kind: 'score',
    meta: { ...meta, output: { kind: 'score', reason: 'as --output says', favourable: 'higher' }, positive: 'yes' },
    protected: b.protected,
    metrics,
    notRun: '',
    ...parts,
    caveats: [],
    warnings: [],
  };
  r.notRun = notRunText(r);
  return r;
}

const sides = (): SidesSection => ({
  pair: { favoured: FAV, other: OTHER, ordered: true, why: WHY },
  rows: { favoured: 80, other: 81, neither: 639 },
  sideColumn: 'canonical_side',
  audit: { ...sampleAuditResult(), planted: undefined },
});

/** The HTML between a section's anchor and the next section. */
const section = (html: string, id: string) => {
  const at = html.indexOf(`id="${id}"`);
  assert.ok(at > 0, `section ${id}`);
  const next = html.indexOf('<section', at);
  return html.slice(at, next < 0 ? undefined : next);
};

describe('the report of a score audit with its canonical sets, LUCID and FALE', () => {
  it('says on the first screen which two targets are contrasted, why and their rows; the findings come next', () => {
    const html = renderReport(scoreAudit({ sides: sides() }));
    const toc = html.indexOf('class="toc"');
    const head = section(html, 'sides');
    assert.ok(html.indexOf('id="sides"') < toc && html.indexOf('id="verdict"') < html.indexOf('id="sides"'));
    assert.ok(head.includes(`<strong>${FAV.label}</strong> (80 rows)`), head);
    assert.ok(head.includes(`<strong>${OTHER.label}</strong> (81 rows)`), head);
    assert.ok(head.includes('639 audited rows are in neither'));
    assert.ok(head.includes(WHY));
    // as in a binary report: the findings, with the sets' one badge, are the first section after the contents
    const after = html.slice(toc);
    assert.ok(after.indexOf('id="findings"') < after.indexOf('<section id="metrics"'));
    const f = section(html, 'findings');
    assert.equal(
      (
        f.match(
          /class="badge (agree|soft|flag)">(✓ no caveat on the sets|⚠ read the sets with care|✗ validity unknown)/g,
        ) ?? []
      ).length,
      1,
    );
  });

  it('words the sets by the targets, not "positive" and "negative"', () => {
    const html = renderReport(scoreAudit({ sides: sides() }));
    for (const id of ['findings', 'canonical', 'proxy']) {
      const s = section(html, id);
      assert.doesNotMatch(s, /positive set|negative set|the model's positive decisions|scores positive/, id);
    }
    const c = section(html, 'canonical');
    assert.ok(c.includes('top decile of credit_score set'), 'the favoured set by its target');
    assert.ok(c.includes('bottom decile of credit_score set'));
    assert.ok(c.includes(FAV.label));
    // the charts' series are the targets'
    assert.match(c, /top decile of credit_score \(canonical\)/);
    assert.match(c, /real rows in the bottom decile of credit_score/);
    assert.match(section(html, 'findings'), /outputs in the top decile of credit_score (favour|disfavour)/);
    // the side view's own verdicts and plant are not the report's: the output's verdict is
    assert.doesNotMatch(section(html, 'findings'), /Planted in the simulated data|What to look at next/);
  });

  it('shows LUCID towards the favoured target and FALE when the result carries them, and says nothing is unrun', () => {
    const b = sampleAuditResult();
    // LUCID's canonical set: any table will do for its file
    const r = scoreAudit({ sides: sides(), lucid: { ...b.lucid, canonical: b.canonical.positive }, fale: b.fale });
    assert.equal(r.notRun, '');
    const html = renderReport(r);
    assert.ok(!html.includes('id="not-run"'));
    const l = section(html, 'lucid');
    assert.match(l, /Success: <strong>96\.4%<\/strong> of the samples reach the top decile of credit_score/);
    assert.match(l, /<strong>&gt;50K<\/strong>, the favoured target/);
    const fale = section(html, 'fale');
    assert.match(fale, /data-chart="fale"/);
    assert.match(fale, /sex = Female/);
    const names = auditFileNames(r).map((x) => x.name);
    for (const n of ['lucid-canonical.csv', 'fale-sex.csv', 'canonical-top_decile_of_credit_score.csv'])
      assert.ok(names.includes(n), n);
  });

  it('says what did not run and why, in one sentence', () => {
    const r = scoreAudit({ sides: { skipped: 'the top decile holds 1 of the 800 audited rows' } });
    assert.equal(
      r.notRun,
      'Not run: the canonical sets (LUCID-GAN) and their checks: the top decile holds 1 of the 800 audited rows; ' +
        'LUCID; FALE.',
    );
    const html = renderReport(r);
    assert.match(section(html, 'sides'), /not drawn: the top decile holds 1 of the 800 audited rows/);
    assert.equal(
      notRunText({ sides: sides(), lucid: { ran: false, reason: 'a predictions column' }, fale: [], faleSkipped: 'x' }),
      'Not run: LUCID: a predictions column; FALE: x.',
    );
  });

  it('writes the sets named for the targets, and audit.json holds their references, not their rows', () => {
    const r = scoreAudit({ sides: sides() });
    const files = [...auditFiles(r)];
    const names = files.map((f) => f.name);
    assert.ok(names.includes('canonical-top_decile_of_credit_score.csv'));
    assert.ok(names.includes('canonical-bottom_decile_of_credit_score.csv'));
    assert.ok(names.some((n) => /^intersection-.*-bottom_decile_of_credit_score\.csv$/.test(n)));
    assert.ok(!names.includes('canonical-positive.csv'));
    const json = JSON.parse(files.find((f) => f.name === 'audit.json')!.text);
    assert.deepEqual(json.sides.audit.canonical.positive.file, 'canonical-top_decile_of_credit_score.csv');
    assert.equal(
      json.sides.audit.canonical.positive.rows,
      r.sides && 'audit' in r.sides ? r.sides.audit.canonical.positive.rows : -1,
    );
    assert.equal(json.sides.pair.favoured.label, FAV.label);
    const csv = files.find((f) => f.name === 'canonical-top_decile_of_credit_score.csv')!.text;
    assert.match(csv.split('\n')[0], /gan_seed/);
  });
});

describe('the summary of a score audit with its canonical sets', () => {
  it("states the targets, the sets' findings in their words, LUCID and FALE", () => {
    const b = sampleAuditResult();
    const r = scoreAudit({ sides: sides(), lucid: b.lucid, fale: b.fale });
    const w = { dir: 'out', report: 'out/report.html', files: auditFileNames(r).map((x) => x.name) };
    const text = auditSummary(r, w).replace(/\n\s+/g, ' ');
    assert.ok(text.includes(`lucid: canonical sets: ${FAV.label} (80 rows) against ${OTHER.label} (81 rows; 639`));
    assert.match(text, /features that separate the two sides of the targets' contrast most/);
    assert.match(
      text,
      /drawn by rejection: the model accepted [\d.]+% of the rows drawn for the top decile of credit_score set/,
    );
    assert.match(text, /LUCID: ran \(96\.4% of 500 samples reach the favoured target\); FALE: sex/);
    assert.doesNotMatch(text, /Not run/);
    const json = JSON.parse(auditJson(r, w, null));
    assert.equal(json.sets.pair.favoured.label, FAV.label);
    assert.deepEqual(json.sets.rows, { favoured: 80, other: 81, neither: 639 });
    assert.equal(json.lucid, true);
    assert.deepEqual(json.fale, ['sex']);
  });

  it('the words of the targets are the labels of the pair', () => {
    const w = targetWords({ pair: { favoured: FAV, other: OTHER, ordered: true, why: WHY } });
    assert.equal(w.posSet, 'top decile of credit_score set');
    assert.equal(w.asNeg, `in the ${OTHER.label}`);
    assert.equal(w.ownVerdicts, false);
  });
});
