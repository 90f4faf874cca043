// The CLI's text summaries keep to TEXT_WIDTH (120) characters a line, whatever the data's names:
// long lines wrap with a hanging indent, the verdict table splits its columns, nothing is cut short.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { auditSummary } from '../../src/report/summary.js';
import { formatVerdictTable } from '../../src/methods/metrics/index.js';
import { TEXT_WIDTH, wrapLine, wrapText } from '../../src/report/format.js';
import type { AuditResult } from '../../src/audit/types.js';
import { sampleAuditResult } from './sample-audit.js';

const width = (s: string) => [...s].length;
const words = (s: string) => s.split(/\s+/).filter((w) => w !== '');
const written = { dir: 'out', report: 'out/report.html', files: ['report.html', 'audit.json'] };

/** The sample audit with its names made long: a column and categories of several dozen characters. */
function longNames(): AuditResult {
  const r = sampleAuditResult();
  r.meta.timings.total = 1234;
  const json = JSON.stringify(r)
    .replaceAll('Female', 'Female (self-described on the intake questionnaire of the branch office, question 14b)')
    .replaceAll(
      'sex',
      'sex_as_recorded_by_the_loan_officer_at_the_first_interview_in_the_branch_office_of_the_applicant',
    );
  return JSON.parse(json) as AuditResult;
}

test(
  'wrapLine: lines of at most the width, the indent kept ' + 'and a hanging indent after it, every word kept in order',
  () => {
    const line = `  ${'word '.repeat(60)}+22.0 pp…+26.0 pp; ${'x'.repeat(300)} end`;
    const out = wrapLine(line, 50);
    assert.ok(out.length > 5);
    for (const l of out) assert.ok(width(l) <= 50, `${width(l)}: ${l}`);
    assert.ok(out[0].startsWith('  word'));
    for (const l of out.slice(1)) assert.match(l, /^ {6}\S/);
    // the 300-character word is cut across lines, not shortened
    assert.equal(
      out
        .map((l) => l.trim())
        .join(' ')
        .replace(/x\s+x/g, 'xx')
        .replace(/x\s+x/g, 'xx'),
      words(line).join(' '),
    );
    assert.ok(
      out.some((l) => /\+22\.0 pp…\+26\.0 pp;/.test(l)),
      'a number and its unit stay on one line',
    );
    assert.deepEqual(wrapLine('short', 50), ['short']);
    assert.equal(wrapText('a\nb\n', 50), 'a\nb\n');
  },
);

test('the verdict table splits its metric columns into blocks that fit, each beside the attribute column', () => {
  const r = sampleAuditResult();
  const reports = [r.metrics.attributes, r.metrics.intersection];
  const whole = formatVerdictTable(reports, '    ');
  assert.ok(
    Math.max(...whole.split('\n').map(width)) > TEXT_WIDTH,
    'the sample table must be wider than the width for this test to mean anything',
  );
  const split = formatVerdictTable(reports, '    ', TEXT_WIDTH);
  const lines = split.trimEnd().split('\n');
  for (const l of lines) assert.ok(width(l) <= TEXT_WIDTH, `${width(l)}: ${l}`);
  // the attribute column heads each block, each metric is in exactly one block, every row in each
  const heads = lines.filter((l) => /^ {4}attribute \(reference\)/.test(l));
  assert.ok(heads.length >= 2, split);
  const metrics = heads.flatMap((h) => words(h).slice(2));
  assert.deepEqual(metrics, words(whole.split('\n')[0]).slice(2), 'each metric in exactly one block, in order');
  assert.equal(lines.length, heads.length * whole.trimEnd().split('\n').length);
});

for (const [name, make] of [
  ['the sample audit', sampleAuditResult],
  ['the sample audit with long column and category names', longNames],
] as const) {
  test(`the audit summary has no line wider than ${TEXT_WIDTH} characters: ${name}`, () => {
    const r = make();
    const text = auditSummary(r, written);
    const wide = text.split('\n').filter((l) => width(l) > TEXT_WIDTH);
    assert.deepEqual(wide, []);
    // the long names are there in full (wrapped or cut across lines, never shortened)
    const joined = text.replace(/\n\s+/g, ' ');
    for (const a of r.metrics.attributes.attributes)
      assert.ok(joined.replace(/\s/g, '').includes(a.column.replace(/\s/g, '')), a.column);
  });
}
