// The report's sections are one table (src/report/sections.ts SECTIONS): the report's contents and
// body, the folder's files and their order, audit.json's references, and the stages' line of the
// text summary and their keys in --format json all follow it, so a new stage is shown by its row
// (docs/report.md "Showing a new audit stage").
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { auditFolder, auditFileNames, renderReport, sectionsOf } from '../../src/report/sections.js';
import { FILE_KINDS, REPORT_FILE, RESULT_FILE } from '../../src/report/files.js';
import { auditJson, auditSummary } from '../../src/report/summary.js';
import { sampleAuditResult } from './sample-audit.js';

describe('the report sections table', () => {
  const result = sampleAuditResult();
  result.lucid.canonical = result.canonical.positive;
  result.lucid.start = result.canonical.negative;
  const html = renderReport(result);
  // a binary audit's rows (the other kinds' rows share their anchors: test/audit/output-audit.test.ts)
  const rows = sectionsOf(result);

  it("the contents list every row in order, and the body holds each row's section once, in the same order", () => {
    const toc = /<nav class="toc"><ol>(.*?)<\/ol><\/nav>/.exec(html)![1];
    assert.deepEqual(
      [...toc.matchAll(/href="#([^"]+)"/g)].map((m) => m[1]),
      rows.map((s) => s.id),
    );
    const at = rows.map((s) => {
      const found = [...html.matchAll(new RegExp(`<section[^>]* id="${s.id}"`, 'g'))];
      assert.equal(found.length, 1, s.id);
      return found[0].index!;
    });
    assert.deepEqual(
      at,
      at.slice().sort((a, b) => a - b),
      "the sections in the rows' order",
    );
  });

  it("the folder's files are the rows' files in FILE_KINDS' order, report.html and audit.json last", () => {
    const kinds = Object.keys(FILE_KINDS);
    const names = auditFileNames(result);
    const order = names.map((f) => kinds.indexOf(f.kind));
    assert.ok(order.every((k) => k >= 0));
    assert.deepEqual(
      order,
      order.slice().sort((a, b) => a - b),
    );
    assert.deepEqual(
      names.slice(-2).map((f) => f.name),
      [REPORT_FILE, RESULT_FILE],
    );
    const fromRows = rows.flatMap((s) => s.files?.(result).files.map((f) => f.name) ?? []);
    assert.deepEqual(
      names
        .slice(0, -2)
        .map((f) => f.name)
        .sort(),
      fromRows.sort(),
    );
  });

  it("audit.json keeps the result's keys in their places, the rows' references in place of their tables", () => {
    const summary = auditFolder(result).summary(['x']) as Record<string, unknown>;
    assert.deepEqual(Object.keys(summary), [...Object.keys(result).filter((k) => k !== 'files'), 'files']);
    assert.equal((summary.canonical as { positive: { file: string } }).positive.file, 'canonical-positive.csv');
  });

  it("each row's brief is in the text summary's line of stages and under its id in --format json", () => {
    // a binary audit's briefs (each kind's rows state their own: test/report/sides.test.ts)
    const briefed = rows.filter((s) => s.brief);
    assert.ok(briefed.length >= 2);
    const written = { dir: 'out', report: 'out/report.html', files: ['report.html', 'audit.json'] };
    const json = JSON.parse(auditJson(result, written, null)) as Record<string, unknown>;
    const text = auditSummary(result, written).replace(/\n {6,}/g, ' ');
    for (const s of briefed) {
      assert.deepEqual(json[s.id], s.brief!.json(result), s.id);
      assert.ok(text.includes(s.brief!.text(result)), s.id);
    }
  });
});
