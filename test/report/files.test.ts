// The files of an audit folder (src/report/files.ts, audit-files.ts auditFiles): what `lucid audit --out` writes
// (writeAudit) is that list, byte for byte, and every file the report's "Files" section names is in
// it, so the browser page, which offers that list, offers every file its report names.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPORT_FILE, RESULT_FILE } from '../../src/report/files.js';
import { auditFileNames } from '../../src/report/sections.js';
import { auditFiles } from '../../src/report/audit-files.js';
import { renderReport } from '../../src/report/index.js';
import { writeAudit } from '../../src/node/audit.js';
import { sampleAuditResult } from './sample-audit.js';
import { filesSection } from '../helpers/audit-files.js';

const dir = mkdtempSync(join(tmpdir(), 'lucid-files-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('the files of an audit folder', () => {
  const result = sampleAuditResult();
  // the hand-made sample has LUCID's figures but not its tables, which a run that ran LUCID has
  result.lucid.canonical = result.canonical.positive;
  result.lucid.start = result.canonical.negative;
  const files = [...auditFiles(result)];

  it('writeAudit writes exactly auditFiles, byte for byte, report.html among them and audit.json last', async () => {
    const w = await writeAudit(dir, result);
    assert.deepEqual(
      w.files,
      files.map((f) => f.name),
    );
    assert.deepEqual(readdirSync(dir).sort(), files.map((f) => f.name).sort());
    for (const f of files) assert.equal(readFileSync(join(dir, f.name), 'utf8'), f.text, f.name);
    assert.equal(files.at(-1)?.name, RESULT_FILE);
    assert.equal(files.find((f) => f.name === REPORT_FILE)?.text, renderReport(result));
    assert.deepEqual(
      JSON.parse(files.at(-1)!.text).files,
      files.map((f) => f.name),
      'audit.json lists every file, itself included',
    );
    assert.equal(new Set(files.map((f) => f.name)).size, files.length, 'no name twice');
  });

  it("the report's Files section accounts for every file, and names none that is not written", () => {
    const names = files.map((f) => f.name);
    assert.ok(
      result.intersections.some((i) => i.sets.length > 0) && result.lucid.ran && result.fale.length > 0,
      'the sample has every kind of file',
    );
    assert.deepEqual(
      auditFileNames(result).map((f) => f.name),
      names,
      'the plan the section reads is what is written',
    );
    const { patterns, count } = filesSection(renderReport(result));
    assert.ok(patterns.length >= 6, patterns.join(' '));
    for (const p of patterns)
      assert.ok(
        names.some((n) => p.test(n)),
        `${p} names a file that is not written (${names.join(', ')})`,
      );
    assert.equal(count, names.length, 'every written file is listed or counted');
    for (const n of ['distributions.csv', 'protected-bins.json', REPORT_FILE, RESULT_FILE])
      assert.ok(
        patterns.some((p) => p.test(n)),
        n,
      );
  });
});
