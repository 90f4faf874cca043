// The HTML audit report and its SVG charts. Core code: runs in Node and in browsers (no Node imports).
export { metricsTable, rateChart, verdictTableHtml } from './metrics-html.js';
// the audit folder's files, as lucid audit --out writes them and the browser page offers them
export { auditFileNames, FILE_KINDS, REPORT_FILE, RESULT_FILE, type FileKind } from './files.js';
export { auditFiles, type AuditFile } from './audit-files.js';
export { renderReport, findings as findingsSection, headlines, nextSteps, setsStanding, faleSpread, canonicalSection, CSS as REPORT_CSS } from './render.js';
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
export type { ChartOptions, ChartKind, HeatmapOptions, FaleChartOptions, LineSeries, GroupRatesData, RateGroup, RateMark } from './charts.js';
export { escapeHtml, fmtNum, fmtPct, fmtPp, fmtJs, OKABE_ITO } from './format.js';
