#!/usr/bin/env node
// Render the hand-made sample AuditResult (test/report/sample-audit.ts) to an HTML file, so the report
// can be looked at and screenshot without running an audit. Needs the compiled tree: npx tsc -p tsconfig.json
//   node tools/render-sample-report.mjs [out.html] [--degenerate]
// default output: /tmp/sample-report.html
import { writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const degenerate = args.includes('--degenerate');
const out = args.find((a) => !a.startsWith('--')) ?? '/tmp/sample-report.html';

const { renderReport } = await import(pathToFileURL(resolve(root, 'dist/src/report/index.js')).href);
const { sampleAuditResult, degenerateAuditResult } = await import(
  pathToFileURL(resolve(root, 'dist/test/report/sample-audit.js')).href
);

const html = renderReport(degenerate ? degenerateAuditResult() : sampleAuditResult());
writeFileSync(out, html);
const charts = (html.match(/<svg\b[^>]*class="chart"/g) ?? []).length;
console.log(`wrote ${out} (${html.length} characters, ${charts} charts)`);
