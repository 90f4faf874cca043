// The audit folder's files with their texts, report.html included: what `lucid audit --out` writes
// (src/node/audit.ts writeAudit) and what the browser page offers (web/worker.ts). The folder is
// planned from the report's sections (./sections.ts). Core code: no Node imports.
import type { AnyAuditResult } from '../audit/types.js';
import { REPORT_FILE, RESULT_FILE, resultJson } from './files.js';
import { auditFolder, renderReport } from './sections.js';

/** One file of the audit folder: its name in the folder and its text (UTF-8). */
export interface AuditFile {
  name: string;
  text: string;
}

/**
 * The files of the audit folder, one at a time (a caller writing them holds one file's text at a time), audit.json
 * last.
 */
export function* auditFiles(result: AnyAuditResult): Generator<AuditFile> {
  const { files, summary } = auditFolder(result);
  const names: string[] = [];
  for (const f of files) {
    names.push(f.name);
    yield { name: f.name, text: f.text() };
  }
  names.push(REPORT_FILE);
  yield { name: REPORT_FILE, text: renderReport(result) };
  names.push(RESULT_FILE);
  yield { name: RESULT_FILE, text: resultJson(summary(names)) };
}
