// The page: pick a CSV (or the sample data), its predictions column, label and protected columns; the
// audit (runAudit with the predictions column: several LUCID-GANs, sets drawn by rejection with a
// surrogate of the predictions, every figure checked against the real rows) runs in a module Web
// Worker; with a model file (a JS module exporting predict, or a built-in model.json) the audit calls
// the model, so the report has FALE (and LUCID for model.json) too. The page says when the sets
// disagree with the data, shows the whole report as `lucid audit` writes it (the same renderer, in a
// sandboxed frame without scripts) and offers every file `lucid audit --out` writes, one by one and as
// a zip. The predictions may also be a score, classes or a real value: the page infers the kind from the columns as
// `lucid audit` does (outputChoice) and says it, or takes the kind chosen, with that kind's fields (favourable
// higher|lower, the class order, the two targets of the canonical sets: bands or classes). Nothing leaves the page.
import { EngineError } from '../src/engine/errors.js';
import type { Table } from '../src/data/table.js';
import { isOutputAudit, type AnyAuditResult } from '../src/audit/types.js';
import { checkPredColumn, DATA_ACCEPT, parseDataBytes } from './csv.js';
import { REPORT_FILE, setFileName } from '../src/report/files.js';
import type { AuditRequest, EstimateRequest, WorkerMessage } from './worker.js';
import type { AuditEstimate } from '../src/audit/estimate.js';
import { engineText, type EngineInfo } from './engine-info.js';
import { auditEstimateText, estimateText, fmtDuration, paceTimed } from '../src/report/format.js';
import { anyPageView } from '../src/report/page.js';
import { sha256Hex } from '../src/data/sha256.js';
import { unitIntervalOf } from '../src/data/cells.js';
import { SUPPRESSION_OPTION } from '../src/methods/metrics/suppress.js';
import {
  defaultPositive,
  labelValues,
  METRICS_DEFAULTS,
  outputChoice,
  THRESHOLD_MEANING,
} from '../src/methods/metrics/index.js';
import { classOrderOf, OUTPUT_KINDS, OUTPUT_KIND_NAMES, type OutputKind } from '../src/methods/metrics/outputs.js';
import { BAND_SCALES, parseBand, type BandScale } from '../src/methods/metrics/targets.js';
import { OUTPUT_OPTION_WORDS } from '../src/methods/metrics/output-options.js';
import { MODEL_TIMEOUT_SECONDS } from '../src/models/blackbox.js';
import { adapterForFile } from '../src/models/adapters.js';
import { protectedCandidates } from '../src/audit/stages/context.js';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const fileInput = $<HTMLInputElement>('file');
// the formats the page reads, from FORMATS (src/data/formats.ts)
fileInput.accept = DATA_ACCEPT;
const sampleBtn = $<HTMLButtonElement>('sample');
const fileInfo = $<HTMLParagraphElement>('file-info');
const warningsList = $<HTMLUListElement>('warnings');
const options = $<HTMLElement>('step-options');
const predSelect = $<HTMLSelectElement>('pred');
const labelSelect = $<HTMLSelectElement>('label');
const favourableSelect = $<HTMLSelectElement>('favourable');
const outputSelect = $<HTMLSelectElement>('output');
const outputInfo = $<HTMLParagraphElement>('output-info');
const classOrderInput = $<HTMLInputElement>('class-order');
const targetsInput = $<HTMLInputElement>('targets');
const bandScaleSelect = $<HTMLSelectElement>('band-scale');
const toleranceUnitsInput = $<HTMLInputElement>('tolerance-units');
const positiveSelect = $<HTMLSelectElement>('positive');
const allowInvertedBox = $<HTMLInputElement>('allow-inverted');
const protectedBox = $<HTMLFieldSetElement>('protected');
const epochsInput = $<HTMLInputElement>('epochs');
const seedsInput = $<HTMLInputElement>('gan-seeds');
const seedInput = $<HTMLInputElement>('seed');
const rowsInput = $<HTMLInputElement>('rows');
const trainBtn = $<HTMLButtonElement>('train');
const cancelBtn = $<HTMLButtonElement>('cancel');
const progress = $<HTMLProgressElement>('progress');
const statusEl = $<HTMLSpanElement>('status');
const errorEl = $<HTMLDivElement>('error');
const results = $<HTMLElement>('results');
const summary = $<HTMLParagraphElement>('summary');
const checksEl = $<HTMLDivElement>('checks');
const reportFrame = $<HTMLIFrameElement>('report');
const intersectionRowsInput = $<HTMLInputElement>('intersection-rows');
const faleBootstrapInput = $<HTMLInputElement>('fale-bootstrap');
const modelInput = $<HTMLInputElement>('model');
const modelInfo = $<HTMLParagraphElement>('model-info');
const dlReport = $<HTMLAnchorElement>('dl-report');
const dlPositive = $<HTMLAnchorElement>('dl-positive');
const dlNegative = $<HTMLAnchorElement>('dl-negative');
const dlZip = $<HTMLAnchorElement>('dl-zip');
const filesList = $<HTMLUListElement>('files');
const filesSummary = $<HTMLElement>('files-summary');
const engineInfo = $<HTMLParagraphElement>('engine-info');
/** before the run: the engine's threads (and why only one); during it: the estimate of the GANs' training */
const runInfo = $<HTMLParagraphElement>('run-info');
let engineReady: EngineInfo | null = null;
/** the estimate of this run's training has been shown */
let estimated = false;

/** What the run will run on, said before it starts. */
function showEngine(info: EngineInfo): void {
  engineReady = info;
  runInfo.textContent =
    `Engine: ${engineText(info)}. Most of an audit is training its LUCID-GANs: the time it takes is estimated here ` +
    `once the data and options are chosen, and Cancel ends it early (the audit is then finished with the GANs ` +
    `trained so far).`;
  scheduleEstimate();
  document.body.dataset.threads = String(info.threads);
}
const suppressInput = $<HTMLInputElement>('suppress-below');
const thresholdInput = $<HTMLInputElement>('threshold');
// lucid audit --threshold, with its help and default from the one definition
$<HTMLLabelElement>('threshold-label').title = `--threshold: ${THRESHOLD_MEANING}; used where the model gives scores`;
thresholdInput.value = String(METRICS_DEFAULTS.threshold);
// the same option as lucid audit / lucid metrics --suppress-below, with its help from the one definition
$<HTMLLabelElement>('suppress-below-label').title = `${SUPPRESSION_OPTION.flag} k: ${SUPPRESSION_OPTION.help}`;

/**
 * Kernel threads asked for in the address (?threads=N, 1..16); 0: the worker picks (up to 4, one per
 * core). Threads need a cross-origin-isolated page; otherwise the engine runs on one thread.
 */
const THREADS = (() => {
  const v = Number(new URLSearchParams(location.search).get('threads') ?? 0);
  return Number.isInteger(v) && v >= 0 && v <= 16 ? v : 0;
})();

/**
 * GAN seeds side by side, as the address asks (?gan-side-by-side=on|off, lucid audit's --gan-side-by-side); absent: the
 * default
 */
const SIDE_BY_SIDE = (() => {
  const v = new URLSearchParams(location.search).get('gan-side-by-side');
  return v === 'on' ? true : v === 'off' ? false : undefined;
})();

let table: Table | null = null;
/** the loaded file's columns of numbers with a few text cells (not offered as protected columns) */
let mostlyNumeric: string[] = [];
let fileName = '';
let worker: Worker | null = null;
let urls: string[] = [];
/** the model file picked (read as text; loaded in the worker), or null: the predictions column */
let modelFile: { name: string; text: string; sha256: string; declared: OutputKind | null } | null = null;
/** the data file's SHA-256 and size, from its bytes (null: the sample data, which has no file) */
let dataHash: { sha256: string; bytes: number } | null = null;

/** The page's state, for people and for tests: idle, loaded, training, done, error. */
function setState(s: string): void {
  document.body.dataset.state = s;
}

function showError(msg: string): void {
  errorEl.textContent = msg;
  errorEl.hidden = false;
  setState('error');
}

function clearError(): void {
  errorEl.hidden = true;
  errorEl.textContent = '';
}

function errorText(err: unknown): string {
  if (err instanceof EngineError) return err.message;
  if (err instanceof Error) return err.message;
  return String(err);
}

function resetResults(): void {
  results.hidden = true;
  reportFrame.onload = null;
  reportFrame.removeAttribute('srcdoc');
  reportFrame.style.height = '';
  checksEl.replaceChildren();
  filesList.replaceChildren();
  for (const u of urls) URL.revokeObjectURL(u);
  urls = [];
}

const PRED_NAMES = /^(preds?|predictions?|predicted|scores?|y_?hat|yhat|prob(ability)?|p)$/i;
const LABEL_NAMES =
  /^(label|target|y|class|outcome|approved|income|recid|two_year_recid|default|credit(_risk)?|risk)$/i;
const PROTECTED_NAMES =
  /(^|_|\b)(sex|gender|race|ethnic(ity)?|group|age|religion|nationality|foreign(_worker)?|disability|marital)(\b|_|$)/i;

const option = (value: string, text = value) =>
  Object.assign(document.createElement('option'), { value, textContent: text });

// the output kinds and their fields, in the CLI's words (outputs.ts OUTPUT_KINDS, output-options.ts): --output's
// choices with their help, --band-scale's choices, each field's flag and help as its tooltip
outputSelect.append(...OUTPUT_KIND_NAMES.map((k) => option(k, k)));
$<HTMLLabelElement>('output-label').title =
  `--output: ${OUTPUT_KIND_NAMES.map((k) => `${k}: ${OUTPUT_KINDS[k].help}`).join('; ')}`;
bandScaleSelect.replaceChildren(
  ...BAND_SCALES.map((k) => option(k, k === 'quantile' ? 'quantiles of the output (0-1)' : "the output's units")),
);
const wordsTitle = (w: { flag: string; arg: string; help: string }) => `${w.flag} ${w.arg}: ${w.help}`;
$<HTMLLabelElement>('class-order-label').title = wordsTitle(OUTPUT_OPTION_WORDS.classOrder);
$<HTMLLabelElement>('band-scale-label').title = wordsTitle(OUTPUT_OPTION_WORDS.bandScale);
$<HTMLLabelElement>('tolerance-units-label').title = wordsTitle(OUTPUT_OPTION_WORDS.toleranceUnits);

/** The favourable choices of each kind: a binary decision's positive|negative, a score's or a value's direction. */
const FAVOURABLE_CHOICES: Record<'binary' | 'directed', [string, string][]> = {
  binary: [
    ['positive', 'favourable (a loan, a hire)'],
    ['negative', 'unfavourable (a high-risk score)'],
  ],
  // no default: a default would audit a risk score the wrong way round without a word (outputs.ts directionOf)
  directed: [
    ['', 'choose: which end people want'],
    ['higher', 'higher (a credit score, a salary)'],
    ['lower', 'lower (a risk score, a price)'],
  ],
};

/** What the audit will read: the kind, why (the inference's words), and the classes of a multiclass output. */
interface OutputView {
  kind: OutputKind;
  reason: string;
  /** multiclass: the classes (the label's values); otherwise null */
  classes: string[] | null;
}

/**
 * The output the audit will read, settled as the audit's plan settles it (output-plan.ts): a model file's declared
 * kind (a model.json records it; a JS module is read as binary unless a kind is chosen), or the predictions column's,
 * inferred from it and the label by outputChoice (or the kind chosen, checked to fit). Like the audit, a column whose
 * kind cannot be inferred is read as binary, so that its errors stay the binary audit's own. Throws (an EngineError
 * with the message to show) when the chosen kind does not fit the columns.
 */
function outputView(t: Table): OutputView {
  const chosen = outputSelect.value === '' ? undefined : (outputSelect.value as OutputKind);
  const label = labelSelect.value;
  const classesOf = (kind: OutputKind) => (kind === 'multiclass' ? distinctLabels(t, label) : null);
  if (modelFile) {
    const kind = chosen ?? modelFile.declared ?? 'binary';
    const reason = chosen
      ? `${kind}, as chosen (the model file must declare it)`
      : modelFile.declared
        ? `${kind}: the model file declares it`
        : `${kind}: a JS module's predict returns P(positive) unless its "output" export says otherwise (choose ` +
          `the kind it declares)`;
    return { kind, reason, classes: classesOf(kind) };
  }
  // the label must differ from the predictions (Run says so); until it does, the binary audit's checks apply
  if (label === predSelect.value) return { kind: 'binary', reason: 'binary', classes: null };
  const positive = positiveSelect.value === '' ? undefined : positiveSelect.value;
  try {
    const c = outputChoice(t, { label, pred: predSelect.value, output: chosen, positive });
    return { kind: c.kind, reason: c.reason, classes: c.kind === 'multiclass' ? c.labelValues : null };
  } catch (err) {
    if (chosen === undefined && err instanceof EngineError && err.code === 'E_ARG')
      return { kind: 'binary', reason: 'binary', classes: null };
    throw err;
  }
}

/** The label's values in the CLI's order (a multiclass output's classes), or none when it cannot be read. */
function distinctLabels(t: Table, label: string): string[] {
  try {
    return labelValues(t, label, 'audit');
  } catch {
    return [];
  }
}

/** the favourable choices shown now ('binary' or 'directed') */
let favourableShown: 'binary' | 'directed' = 'binary';

/**
 * Shows the fields of the output's kind (the others are hidden and not sent) and says the kind and why. Returns the
 * view, or null when the chosen kind does not fit (the message is said in its place).
 */
function showOutputFields(): OutputView | null {
  if (!table) return null;
  let view: OutputView | null = null;
  try {
    view = outputView(table);
    const help = OUTPUT_KINDS[view.kind].help;
    outputInfo.textContent = `Output: ${view.reason}. ${help[0].toUpperCase()}${help.slice(1)}.`;
  } catch (err) {
    outputInfo.textContent = errorText(err);
  }
  outputInfo.hidden = false;
  const kind = view?.kind ?? 'binary';
  const directed = kind === 'score' || kind === 'regression';
  // a positive class is read by binary decisions and scores; with the kind inferred, naming one for a label of other
  // than two values makes the decision "this value or not" (lucid audit --positive), so it stays offered
  const inferred = outputSelect.value === '' && !modelFile;
  $<HTMLLabelElement>('positive-label').hidden = !(kind === 'binary' || kind === 'score' || inferred);
  $<HTMLLabelElement>('threshold-label').hidden = !(kind === 'binary' || kind === 'score');
  $<HTMLLabelElement>('allow-inverted-label').hidden = kind !== 'binary';
  $<HTMLLabelElement>('favourable-label').hidden = kind === 'multiclass';
  $<HTMLLabelElement>('class-order-label').hidden = kind !== 'multiclass';
  $<HTMLLabelElement>('targets-label').hidden = kind === 'binary';
  $<HTMLLabelElement>('band-scale-label').hidden = !directed;
  $<HTMLLabelElement>('tolerance-units-label').hidden = kind !== 'regression';
  const want = directed ? 'directed' : 'binary';
  if (want !== favourableShown) {
    favourableShown = want;
    favourableSelect.replaceChildren(...FAVOURABLE_CHOICES[want].map(([v, text]) => option(v, text)));
    // a score's cut is on its own scale: empty is its default (0.5, or its median outside [0, 1])
    thresholdInput.value = want === 'directed' ? '' : String(METRICS_DEFAULTS.threshold);
  }
  thresholdInput.placeholder = kind === 'score' ? 'default' : '';
  $<HTMLSpanElement>('positive-text').textContent =
    kind === 'score'
      ? 'Positive class (the label value a high score predicts)'
      : kind === 'binary'
        ? 'Positive class (the value the scores are the probability of)'
        : 'Positive class (none; a value audits the decision "this value or not")';
  $<HTMLSpanElement>('favourable-text').textContent = directed
    ? `The favourable end of the ${kind === 'score' ? 'score' : 'value'} is`
    : 'The positive prediction is';
  const targetWords = kind === 'multiclass' ? OUTPUT_OPTION_WORDS.targetClass : OUTPUT_OPTION_WORDS.band;
  $<HTMLLabelElement>('targets-label').title = wordsTitle(targetWords);
  $<HTMLSpanElement>('targets-text').textContent =
    kind === 'multiclass'
      ? 'Canonical sets of the classes (one or two, comma-separated)'
      : 'Canonical sets of the bands lo-hi (one or two, comma-separated)';
  targetsInput.placeholder =
    kind === 'multiclass' ? 'default: first and last of the class order' : 'default: 0.9-1, 0-0.1 (deciles)';
  classOrderInput.placeholder = view?.classes?.length
    ? `none: every disparity differs (classes: ${view.classes.join(', ')})`
    : 'none: every disparity differs';
  return view;
}

/** A comma-separated list of names ("" → none), as the CLI's names() reads --class-order. */
const listOf = (text: string): string[] =>
  text
    .split(',')
    .map((x) => x.trim())
    .filter((x) => x !== '');

/**
 * Fills the option lists for `t` and guesses the predictions, label and protected columns (or takes the given ones).
 */
function loaded(
  t: Table,
  name: string,
  warnings: string[],
  info: string,
  given?: { pred: string; label: string; protected: string[] },
): void {
  table = t;
  fileName = name;
  fileInfo.textContent =
    `${info}: ${t.rows} rows, ${t.columns.length} columns: ` +
    t.columns
      .map((c) => `${c.name} (${c.kind === 'numeric' ? 'numeric' : `${c.categories.length} categories`})`)
      .join(', ');
  fileInfo.hidden = false;
  warningsList.replaceChildren(...warnings.map((w) => Object.assign(document.createElement('li'), { textContent: w })));
  warningsList.hidden = warnings.length === 0;
  // numeric columns in [0, 1] first (likely predictions), then the rest
  const cols = t.columns.map((c) => ({ name: c.name, ok: checkPredColumn(t, c.name) === null }));
  const ordered = [...cols.filter((c) => c.ok), ...cols.filter((c) => !c.ok)];
  predSelect.replaceChildren(...ordered.map((c) => option(c.name, c.ok ? c.name : `${c.name} (not in [0, 1])`)));
  const guess =
    given?.pred ??
    (ordered.find((c) => c.ok && PRED_NAMES.test(c.name)) ?? ordered.find((c) => c.ok) ?? ordered[0]).name;
  predSelect.value = guess;
  // label: a column with exactly two values, preferably by name
  const binary = t.columns.filter(
    (c) => c.name !== guess && (c.kind === 'categorical' ? c.categories.length === 2 : new Set(c.values).size === 2),
  );
  labelSelect.replaceChildren(...t.columns.filter((c) => c.name !== guess).map((c) => option(c.name)));
  labelSelect.value =
    given?.label ??
    (binary.find((c) => LABEL_NAMES.test(c.name)) ?? binary[0] ?? t.columns.find((c) => c.name !== guess)!).name;
  fillPositive();
  fillProtected((c) => (given ? given.protected.includes(c) : PROTECTED_NAMES.test(c)));
  const view = showOutputFields();
  options.hidden = false;
  setState('loaded');
  scheduleEstimate();
  // a binary decision's predictions are numbers in [0, 1]; a score, classes or a real value need none
  if (!cols.some((c) => c.ok) && view?.kind === 'binary')
    showError(
      `${name}: no column holds predictions (numbers in [0, 1]); add the audited model's predictions as a column`,
    );
}

/**
 * The protected columns offered: the audit's candidates (protectedCandidates: not the label, not the
 * predictions, not an identifier, not a column of numbers with a few text cells) for the label and
 * predictions chosen now; ticked as `tick` says, else as they were.
 */
function fillProtected(tick?: (column: string) => boolean): void {
  if (!table) return;
  const was = new Set(
    Array.from(protectedBox.querySelectorAll<HTMLInputElement>('input[type=checkbox]:checked'), (b) => b.value),
  );
  const names = protectedCandidates(table, { label: labelSelect.value, pred: predSelect.value, mostlyNumeric });
  protectedBox.replaceChildren(
    Object.assign(document.createElement('legend'), { textContent: 'Protected columns' }),
    ...names.map((c) => {
      const l = document.createElement('label');
      l.append(
        Object.assign(document.createElement('input'), {
          type: 'checkbox',
          value: c,
          checked: tick ? tick(c) : was.has(c),
        }),
        c,
      );
      return l;
    }),
  );
}

/**
 * The label's values, in the CLI's reading order (labelValues), the second of two chosen as lucid audit's default
 * --positive.
 */
function fillPositive(): void {
  if (!table) return;
  let values: string[] = [];
  try {
    values = labelValues(table, labelSelect.value, 'audit');
  } catch {
    values = [];
  }
  // a label of other than two values has no positive class by default (lucid audit without --positive): its kind is
  // then inferred from the columns; naming one audits the decision "this value or not"
  positiveSelect.replaceChildren(
    ...(values.length === 2 ? [] : [option('', 'none (not a binary decision)')]),
    ...values.map((v) => option(v)),
  );
  const byDefault = defaultPositive(values);
  if (byDefault !== undefined) positiveSelect.value = byDefault;
}
labelSelect.addEventListener('change', () => {
  fillPositive();
  fillProtected();
  clearError();
  showOutputFields();
});
for (const el of [outputSelect, positiveSelect])
  el.addEventListener('change', () => {
    clearError();
    showOutputFields();
    if (table) setState('loaded');
  });

fileInput.addEventListener('change', async () => {
  clearError();
  resetResults();
  options.hidden = true;
  fileInfo.hidden = true;
  warningsList.hidden = true;
  table = null;
  const f = fileInput.files?.[0];
  if (!f) return;
  try {
    const bytes = await f.arrayBuffer();
    dataHash = { sha256: sha256Hex(new Uint8Array(bytes)), bytes: bytes.byteLength };
    const parsed = await parseDataBytes(bytes, f.name);
    mostlyNumeric = parsed.mostlyNumeric;
    loaded(parsed.table, f.name, parsed.warnings, `${f.name} (${parsed.how})`);
  } catch (err) {
    showError(`Cannot read this file: ${errorText(err)}`);
  }
});

sampleBtn.addEventListener('click', () => {
  clearError();
  resetResults();
  statusEl.textContent = 'making the sample data…';
  dataHash = null;
  getWorker().postMessage({ type: 'sample', seed: 0, rows: 1000 });
});

modelInput.addEventListener('change', async () => {
  clearError();
  modelFile = null;
  modelInfo.hidden = true;
  const f = modelInput.files?.[0];
  if (!f) {
    showOutputFields();
    return;
  }
  if (f.size > 64 * 1024 * 1024) return showError(`${f.name}: the model file is larger than 64 MiB`);
  const bytes = new Uint8Array(await f.arrayBuffer());
  const text = new TextDecoder().decode(bytes);
  const json = adapterForFile(f.name)?.kind === 'builtin';
  modelFile = { name: f.name, text, sha256: sha256Hex(bytes), declared: json ? declaredKind(text) : null };
  modelInfo.textContent = `Model: ${f.name} (${
    json
      ? 'the built-in classifier: FALE and LUCID'
      : 'a JS module exporting predict(rows): FALE; LUCID needs a model.json'
  }); it scores the rows, so the predictions column is left out of the audit.`;
  modelInfo.hidden = false;
  showOutputFields();
  if (table) setState('loaded');
});

/**
 * The output kind a model.json records (`output`, written by lucid model train for a multiclass or regression model;
 * none: binary), or null when the text is not such a file (the worker says what is wrong when it loads it).
 */
function declaredKind(text: string): OutputKind | null {
  try {
    const o = (JSON.parse(text) as { output?: unknown }).output;
    if (o === undefined) return 'binary';
    return typeof o === 'string' && (OUTPUT_KIND_NAMES as string[]).includes(o) ? (o as OutputKind) : null;
  } catch {
    return null;
  }
}

predSelect.addEventListener('change', () => {
  if (!table) return;
  fillProtected();
  const view = showOutputFields();
  // a binary decision's predictions must be numbers in [0, 1]; the other kinds' are checked by the audit's plan
  const msg = view?.kind === 'binary' ? checkPredColumn(table, predSelect.value) : null;
  if (msg) showError(msg);
  else {
    clearError();
    setState('loaded');
  }
});

function intInput(el: HTMLInputElement, name: string, min: number, max: number): number {
  const v = Number(el.value);
  if (!Number.isInteger(v) || v < min || v > max)
    throw new Error(`${name} must be a whole number from ${min} to ${max}, got "${el.value}"`);
  return v;
}

/**
 * Seconds one call of a JS-module model may take before the page stops it: MODEL_TIMEOUT_SECONDS,
 * or ?model-timeout=<seconds> in the page's address (lucid audit's --model-timeout).
 */
const MODEL_TIMEOUT = (() => {
  const v = Number(new URLSearchParams(location.search).get('model-timeout'));
  return Number.isFinite(v) && v > 0 ? v : MODEL_TIMEOUT_SECONDS;
})();
/** setTimeout's longest delay (about 24.8 days): a longer limit means no limit, not an instant stop */
const TIMER_MAX_MS = 2 ** 31 - 1;
/** the timer of the model calls in flight (calls do not overlap today; the count keeps it right if they do) */
let modelTimer: ReturnType<typeof setTimeout> | null = null;
let callsInFlight = 0;

function clearModelTimer(): void {
  if (modelTimer !== null) clearTimeout(modelTimer);
  modelTimer = null;
  callsInFlight = 0;
}

/** A model call started or ended in the worker: arm or clear the timer that stops a model that never returns. */
function modelCall(m: { state: 'start' | 'end'; what: string }): void {
  if (m.state === 'end') {
    callsInFlight = Math.max(0, callsInFlight - 1);
    if (callsInFlight === 0) clearModelTimer();
    return;
  }
  callsInFlight++;
  if (modelTimer !== null) clearTimeout(modelTimer);
  // the timer belongs to this worker: a later worker is never stopped for this one's model
  const armedFor = worker;
  modelTimer = setTimeout(
    () => {
      modelTimer = null;
      callsInFlight = 0;
      if (worker !== armedFor || !worker) return;
      // the worker is stuck in the module: end it (a new one starts with the next audit)
      worker.terminate();
      worker = null;
      finishTraining();
      statusEl.textContent = '';
      showError(
        `${modelFile?.name ?? 'the model'}: the model took longer than ${MODEL_TIMEOUT} s ${m.what} and was stopped; ` +
          `it may be stuck in an endless loop or waiting on a promise that never settles. The audit did not ` +
          `finish; if the model is only slow, open the page with ?model-timeout=<seconds>.`,
      );
    },
    Math.min(TIMER_MAX_MS, MODEL_TIMEOUT * 1000),
  );
}

function getWorker(): Worker {
  if (worker) return worker;
  worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module', name: 'lucid-audit' });
  worker.onmessage = (ev: MessageEvent<WorkerMessage>) => onWorker(ev.data);
  worker.onerror = (ev: ErrorEvent) => {
    ev.preventDefault();
    // a worker that failed is not reused
    worker?.terminate();
    worker = null;
    finishTraining();
    showError(
      `The audit worker failed: ${ev.message || 'unknown error (is WebAssembly SIMD supported by this browser?)'}`,
    );
  };
  // every worker (a new one after a stuck model was stopped, too) starts its engine as the address asks
  worker.postMessage({
    type: 'init',
    threads: THREADS,
    ...(SIDE_BY_SIDE !== undefined ? { sideBySide: SIDE_BY_SIDE } : {}),
  });
  return worker;
}

function finishTraining(): void {
  clearModelTimer();
  running = false;
  trainBtn.disabled = false;
  cancelBtn.disabled = true;
  fileInput.disabled = false;
  sampleBtn.disabled = false;
  modelInput.disabled = false;
}

/** The audit the page's options ask for; an Error with the message to show when an option is wrong. */
function buildRequest(t: Table): AuditRequest {
  // with a model file the model scores the rows: the predictions column is left out of the audit
  const pred = predSelect.value;
  // the output's kind (inferred, or chosen and checked to fit the columns): it says which fields are read
  const view = outputView(t);
  const kind = view.kind;
  if (!modelFile && kind === 'binary') {
    const bad = checkPredColumn(t, pred);
    if (bad) throw new Error(bad);
  }
  const label = labelSelect.value;
  if (label === pred)
    throw new Error(
      modelFile
        ? 'The label column must differ from the predictions column (left out with a model file).'
        : 'The label column must differ from the predictions column.',
    );
  const prot = Array.from(
    protectedBox.querySelectorAll<HTMLInputElement>('input[type=checkbox]:checked'),
    (b) => b.value,
  ).filter((c) => c !== pred && c !== label);
  const audited: Table = modelFile ? { rows: t.rows, columns: t.columns.filter((c) => c.name !== pred) } : t;
  if (prot.length === 0)
    throw new Error('Tick at least one protected column (other than the label and the predictions).');
  const suppressBelow =
    suppressInput.value.trim() === '' ? null : intInput(suppressInput, 'Suppress groups under', 1, 100000);
  const epochs = epochsInput.value.trim() === '' ? null : intInput(epochsInput, 'GAN epochs', 1, 5000);
  const threshold = thresholdOf(kind);
  const out = outputFields(view);
  const req: AuditRequest = {
    type: 'audit',
    table: audited,
    source: fileName,
    pred: modelFile ? null : pred,
    ...(modelFile ? { model: modelFile } : {}),
    intersectionRows: intInput(intersectionRowsInput, 'Rows per intersection set', 0, 100000),
    faleBootstrap: intInput(faleBootstrapInput, 'FALE bootstrap', 0, 1000),
    label,
    // a positive class is read by binary decisions and scores only (the audit refuses it for the other kinds)
    positive: positiveSelect.value === '' || !(kind === 'binary' || kind === 'score') ? null : positiveSelect.value,
    favourable: out.favourable,
    ...out.fields,
    allowInvertedScores: kind === 'binary' && allowInvertedBox.checked,
    protected: prot,
    epochs,
    ganSeeds: intInput(seedsInput, 'GAN seeds', 1, 10),
    seed: intInput(seedInput, 'Seed', 0, 2 ** 31),
    n: intInput(rowsInput, 'Rows per set', 10, 100000),
    threads: THREADS,
    suppressBelow,
    threshold,
    provenance: {},
  };
  // what the report states: the files' hashes and the page's options (its "command line")
  req.provenance = {
    ...(dataHash
      ? { dataSha256: dataHash.sha256, dataBytes: dataHash.bytes }
      : { dataNote: "the page's generated sample data: no file to hash" }),
    ...(modelFile ? { modelSha256: modelFile.sha256 } : {}),
    command: {
      via: 'browser page',
      options: {
        'model file': modelFile?.name ?? null,
        'predictions column': req.pred,
        label: req.label,
        'positive class': req.positive,
        favourable: req.favourable,
        'allow inverted scores': req.allowInvertedScores,
        protected: req.protected.join(', '),
        'GAN epochs': req.epochs,
        'GAN seeds': req.ganSeeds,
        seed: req.seed,
        'rows per set and seed': req.n,
        'rows per intersection set': req.intersectionRows,
        'FALE bootstrap': req.faleBootstrap,
        'decision threshold': req.threshold,
        'suppress below': req.suppressBelow,
        // a score's, classes' or real value's own options (a binary audit's provenance is as it always was)
        ...(kind !== 'binary' || req.output !== undefined
          ? {
              output: req.output ?? `inferred: ${view.reason}`,
              'class order': req.classOrder?.join(', ') ?? null,
              targets: (req.bands ?? req.targetClasses)?.join(', ') ?? null,
              'band scale': req.bandScale ?? null,
              'tolerance in units': req.toleranceUnits ?? null,
            }
          : {}),
      },
    },
  };
  return req;
}

/**
 * The threshold field as the kind reads it: a binary decision's cut in [0, 1] (the CLI's --threshold rule,
 * cli/options.ts unitInterval); a score's any finite number, empty for its default; none for the other kinds.
 */
function thresholdOf(kind: OutputKind): number | null {
  const text = thresholdInput.value;
  if (kind === 'multiclass' || kind === 'regression') return null;
  if (kind === 'score') {
    if (text.trim() === '') return null;
    const v = Number(text);
    if (!Number.isFinite(v))
      throw new Error(`Decision threshold must be a number (or empty: the default), got "${text}"`);
    return v;
  }
  const threshold = unitIntervalOf(text);
  if (threshold === null) throw new Error(`Decision threshold must be a number from 0 to 1, got "${text}"`);
  return threshold;
}

/**
 * The favourable outcome and the output's own options from the fields of its kind, checked with the definitions the
 * audit uses (parseBand, classOrderOf, the classes of the output), so that a mistake is said before any work.
 */
function outputFields(view: OutputView): {
  favourable: AuditRequest['favourable'];
  fields: Pick<AuditRequest, 'output' | 'classOrder' | 'toleranceUnits' | 'bands' | 'bandScale' | 'targetClasses'>;
} {
  const { kind } = view;
  const fields: ReturnType<typeof outputFields>['fields'] = {};
  if (outputSelect.value !== '') fields.output = outputSelect.value as OutputKind;
  const targets = listOf(targetsInput.value);
  if (targets.length > 2)
    throw new Error(
      `Canonical sets: give one or two ${kind === 'multiclass' ? 'classes' : 'bands'}, got ${targets.length}`,
    );
  if (kind === 'binary') return { favourable: favourableSelect.value === 'negative' ? 'negative' : 'positive', fields };
  if (kind === 'multiclass') {
    const order = listOf(classOrderInput.value);
    const classes = view.classes ?? [];
    if (order.length) fields.classOrder = classOrderOf(classes, order) ?? undefined;
    for (const c of targets)
      if (classes.length && !classes.includes(c))
        throw new EngineError(
          'E_ARG',
          `Canonical sets: "${c}" is not a class of the output; its classes are: ${classes.join(', ')}`,
        );
    if (targets.length) fields.targetClasses = targets;
    return { favourable: null, fields };
  }
  const favourable = favourableSelect.value;
  if (favourable !== 'higher' && favourable !== 'lower')
    throw new Error(
      `Choose the favourable end of the ${kind === 'score' ? 'score' : 'value'}: higher or lower (${
        kind === 'score'
          ? 'a credit score: higher; a risk score: lower'
          : 'a salary or a credit limit: higher; a price or a fine: lower'
      })`,
    );
  const scale = bandScaleSelect.value as BandScale;
  for (const b of targets) parseBand(b, scale, 'Canonical sets');
  if (targets.length) {
    fields.bands = targets;
    fields.bandScale = scale;
  }
  if (kind === 'regression' && toleranceUnitsInput.value.trim() !== '') {
    const d = Number(toleranceUnitsInput.value);
    if (!(Number.isFinite(d) && d > 0))
      throw new Error(`Tolerance in the output's units must be a positive number, got "${toleranceUnitsInput.value}"`);
    fields.toleranceUnits = d;
  }
  return { favourable, fields };
}

/** the last estimate asked of the worker (an answer to an older one is dropped) */
let estimateId = 0;
let estimateTimer: ReturnType<typeof setTimeout> | null = null;
/** a run is under way (the options' estimate is not asked for then) */
let running = false;

/**
 * Asks the worker for the estimate of the audit the options describe (audit/estimate.ts: a few of its
 * GAN steps timed), shown before Run; asked again, after a pause, whenever an option changes.
 */
function scheduleEstimate(): void {
  if (estimateTimer !== null) clearTimeout(estimateTimer);
  estimateTimer = setTimeout(() => {
    estimateTimer = null;
    if (!table || running) return;
    let req: AuditRequest;
    try {
      req = buildRequest(table);
    } catch {
      return; // the options are not complete yet: Run will say what is wrong
    }
    runInfo.textContent = `${engineReady ? `Engine: ${engineText(engineReady)}. ` : ''}Estimating the audit's time…`;
    getWorker().postMessage({
      type: 'estimate',
      id: ++estimateId,
      table: req.table,
      label: req.label,
      pred: req.pred,
      ganSeeds: req.ganSeeds,
      epochs: req.epochs,
      threads: req.threads,
    } satisfies EstimateRequest);
  }, ESTIMATE_PAUSE_MS);
}
/** how long the options must rest before the estimate is asked for (ms) */
const ESTIMATE_PAUSE_MS = 400;
options.addEventListener('change', scheduleEstimate);
options.addEventListener('input', scheduleEstimate);
modelInput.addEventListener('change', scheduleEstimate);

/** The estimate, said where the run's engine is (before the run, and again once the run has made its own). */
function showEstimate(e: AuditEstimate, when: string): void {
  runInfo.textContent =
    `${engineReady ? `Engine: ${engineText(engineReady)}. ` : ''}Estimate${when}: ${auditEstimateText(e)}. Cancel ` +
    `ends it early (the audit is then finished with the GANs trained so far).`;
}

trainBtn.addEventListener('click', () => {
  clearError();
  if (!table) return showError('Pick a CSV file (or the sample data) first.');
  let req: AuditRequest;
  try {
    req = buildRequest(table);
  } catch (err) {
    return showError(errorText(err));
  }
  resetResults();
  progress.value = 0;
  estimated = false;
  running = true;
  ++estimateId; // an estimate of the options still on its way is not shown over the run's
  statusEl.textContent = 'starting the engine…';
  trainBtn.disabled = true;
  cancelBtn.disabled = false;
  fileInput.disabled = true;
  sampleBtn.disabled = true;
  modelInput.disabled = true;
  setState('training');
  getWorker().postMessage(req);
});

cancelBtn.addEventListener('click', () => {
  worker?.postMessage({ type: 'cancel' });
  cancelBtn.disabled = true;
  statusEl.textContent = 'cancelling: ending GAN training after the current step, then finishing the audit with it…';
});

/** Stages of runAudit and the share of the bar each takes (LUCID-GAN training is most of an audit). */
const STAGES: [string, number][] = [
  ['score', 0.01],
  ['metrics', 0.02],
  ['surrogate', 0.05],
  ['gan', 0.8],
  ['canonical', 0.06],
  ['checks', 0.04],
  ['intersections', 0.01],
  ['lucid', 0.005],
  ['fale', 0.005],
];

function onWorker(m: WorkerMessage): void {
  switch (m.type) {
    case 'ready':
      showEngine(m.engine);
      return;
    case 'status':
      statusEl.textContent = m.text;
      return;
    case 'model-call':
      modelCall(m);
      return;
    case 'estimate':
      // the options' estimate (before a run), or the run's own (made as its GANs start training)
      if (m.estimate && (m.id === -1 ? running : m.id === estimateId && !running))
        showEstimate(m.estimate, m.id === -1 ? ' (this run, before its training)' : ' before the run');
      return;
    case 'sample':
      statusEl.textContent = '';
      mostlyNumeric = [];
      loaded(m.table, m.file, [], `${m.file} — ${m.about}`, { pred: m.pred, label: m.label, protected: m.protected });
      return;
    case 'progress': {
      let before = 0;
      let share = 0;
      for (const [s, w] of STAGES) {
        if (s === m.stage) {
          share = w;
          break;
        }
        before += w;
      }
      if (m.stage === 'done') before = 1;
      // the bar and the text say the same: the whole audit's share done, the stage, and in training the time left
      const overall = Math.round(100 * Math.min(1, before + share * m.fraction));
      progress.value = overall;
      document.body.dataset.stage = m.stage;
      if (m.eta && !estimated && paceTimed(m.eta)) {
        estimated = true;
        runInfo.textContent =
          `${engineReady ? `Engine: ${engineText(engineReady)}. ` : ''}Estimate: ` + `${estimateText(m.eta)}.`;
      }
      const stage = m.stage === 'gan' ? 'training LUCID-GAN' : m.stage === 'done' ? 'rendering' : m.stage;
      statusEl.textContent =
        `${overall}% · ` +
        `${stage}${m.stage === 'gan' && m.eta && estimated ? ` · about ${fmtDuration(m.eta.left)} left` : '…'}`;
      return;
    }
    case 'error':
      finishTraining();
      statusEl.textContent = '';
      showError(m.message);
      return;
    case 'done':
      finishTraining();
      // the audit's seconds in the worker, for scripts that time the page (bench/page.bench.ts)
      document.body.dataset.seconds = m.seconds.toFixed(3);
      showResults(m);
      return;
  }
}

function link(a: HTMLAnchorElement, content: string | Uint8Array, type: string, name: string): void {
  const url = URL.createObjectURL(new Blob([content as BlobPart], { type }));
  urls.push(url);
  a.href = url;
  a.download = name;
}

function showResults(m: Extract<WorkerMessage, { type: 'done' }>): void {
  const r: AnyAuditResult = m.result;
  // every file `lucid audit --out` writes (the report's "Files" section names them): one zip, and each
  // file on its own, downloaded as <data>-<name>; the report and the canonical sets also up front
  const stem = fileName.replace(/\.[^.]*$/, '') || 'data';
  const typeOf = (name: string) =>
    name.endsWith('.csv') ? 'text/csv' : name.endsWith('.html') ? 'text/html' : 'application/json';
  const byName = new Map(m.files.map((f) => [f.name, f.text]));
  const offer = (a: HTMLAnchorElement, name: string) => link(a, byName.get(name)!, typeOf(name), `${stem}-${name}`);
  offer(dlReport, REPORT_FILE);
  // the canonical sets up front: a binary audit's, or those of a score's, classes' or value's two targets when drawn
  const sets = isOutputAudit(r) ? (r.sides && 'audit' in r.sides ? r.sides.audit.canonical : null) : r.canonical;
  for (const [a, side] of [
    [dlPositive, 'positive'],
    [dlNegative, 'negative'],
  ] as const) {
    const name = sets ? setFileName(sets, side) : null;
    a.hidden = name === null || !byName.has(name);
    if (!a.hidden) offer(a, name!);
  }
  link(dlZip, m.zip, 'application/zip', `${m.folder}.zip`);
  dlZip.textContent = `Download every file (${m.files.length}, zip)`;
  filesList.replaceChildren(
    ...m.files.map((f) => {
      const a = document.createElement('a');
      link(a, f.text, typeOf(f.name), `${stem}-${f.name}`);
      a.textContent = f.name;
      const li = document.createElement('li');
      li.append(a);
      return li;
    }),
  );
  filesSummary.textContent = `The ${m.files.length} files lucid audit --out writes, one by one`;
  const view = anyPageView(r, m.seconds);
  summary.textContent = view.summary;
  // what the checks against the data say, in one line at the top
  checksEl.textContent = view.checks;
  checksEl.className = view.checksOk ? 'callout ok' : 'callout';
  checksEl.dataset.disagreements = String(view.disagreements);
  checksEl.dataset.unfaithful = String(view.unfaithful);
  // the whole report, as `lucid audit` writes it (escaped HTML, inline CSS and SVG, no scripts), in a
  // frame sandboxed without scripts; it is as tall as its content
  engineInfo.textContent = `Engine: ${engineText(m.engine)}.`;
  document.body.dataset.threads = String(m.engine.threads);
  statusEl.textContent = view.cancelled ? 'cancelled' : 'done';
  results.hidden = false;
  // the page is done when the report is laid out in its frame
  reportFrame.onload = () => {
    fitFrame();
    // the results are below the options: bring them into view
    results.scrollIntoView({ block: 'start' });
    // the report folds its details into <details>; the frame follows as a reader opens or closes one
    reportFrame.contentDocument?.addEventListener('toggle', () => fitFrame(), true);
    setState('done');
  };
  reportFrame.srcdoc = m.reportHtml;
}

/** The report frame as tall as the report (the frame is same-origin, so its document can be measured). */
function fitFrame(): void {
  const doc = reportFrame.contentDocument;
  if (doc?.documentElement) reportFrame.style.height = `${doc.documentElement.scrollHeight + 4}px`;
}
window.addEventListener('resize', () => fitFrame());

setState('idle');
// the engine starts now, so the page says what it runs on (threads, and why only one) before a run
getWorker();
