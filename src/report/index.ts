// The HTML audit report and its SVG charts. Core code: runs in Node and in browsers (no Node imports).
export { metricsTable, rateChart, verdictTableHtml } from './metrics-html.js';
// the audit folder's files, as lucid audit --out writes them and the browser page offers them
export { FILE_KINDS, REPORT_FILE, RESULT_FILE, type FileKind } from './files.js';
export { auditFiles, type AuditFile } from './audit-files.js';
// the report's sections, one table: the HTML, the folder's files and audit.json derive from it
export { auditFileNames, renderReport, SECTIONS, type ReportSection } from './sections.js';
export {
  findings as findingsSection,
  headlines,
  nextSteps,
  setsStanding,
  faleSpread,
  canonicalSection,
  CSS as REPORT_CSS,
} from './render.js';
// what lucid audit prints and the page shows, from the same result
export { auditJson, auditSummary, policyLine, type WrittenAudit } from './summary.js';
export { demoIndexHtml, type DemoIndexEntry } from './demo-index.js';
export {
  distributionChart,
  histogramPair,
  groupedBars,
  heatmap,
  transposeHeatmap,
  selectionScale,
  groupRates,
  faleChart,
  jsRanking,
  lineChart,
  niceTicks,
  sequentialColor,
  divergingColor,
} from './charts.js';
export type {
  ChartOptions,
  ChartKind,
  HeatmapOptions,
  FaleChartOptions,
  LineSeries,
  GroupRatesData,
  RateGroup,
  RateMark,
} from './charts.js';
export { escapeHtml, fmtNum, fmtPct, fmtPp, fmtJs, OKABE_ITO } from './format.js';
