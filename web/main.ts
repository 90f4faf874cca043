// The page: pick a CSV and its predictions column, train LUCID-GAN in a module Web Worker, show the
// positive vs negative canonical sets as per-feature charts, offer both sets as CSV downloads.
import { EngineError } from '../src/engine/errors.js';
import type { Table } from '../src/data/table.js';
import { checkPredColumn, parseCsvBytes, tableToCsv } from './csv.js';
import { compareSets } from './distributions.js';
import { distributionChart, jsRanking } from '../src/report/charts.js';
import type { TrainRequest, WorkerMessage } from './worker.js';
import { engineText } from './engine-info.js';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const fileInput = $<HTMLInputElement>('file');
const fileInfo = $<HTMLParagraphElement>('file-info');
const warningsList = $<HTMLUListElement>('warnings');
const options = $<HTMLElement>('step-options');
const predSelect = $<HTMLSelectElement>('pred');
const epochsInput = $<HTMLInputElement>('epochs');
const seedInput = $<HTMLInputElement>('seed');
const rowsInput = $<HTMLInputElement>('rows');
const trainBtn = $<HTMLButtonElement>('train');
const cancelBtn = $<HTMLButtonElement>('cancel');
const progress = $<HTMLProgressElement>('progress');
const statusEl = $<HTMLSpanElement>('status');
const errorEl = $<HTMLDivElement>('error');
const results = $<HTMLElement>('results');
const summary = $<HTMLParagraphElement>('summary');
const charts = $<HTMLDivElement>('charts');
const dlPositive = $<HTMLAnchorElement>('dl-positive');
const dlNegative = $<HTMLAnchorElement>('dl-negative');
const engineInfo = $<HTMLParagraphElement>('engine-info');

/**
 * Kernel threads asked for in the address (?threads=N, 1..16); 0: the worker picks (up to 4, one per
 * core). Threads need a cross-origin-isolated page; otherwise the engine runs on one thread.
 */
const THREADS = (() => {
  const v = Number(new URLSearchParams(location.search).get('threads') ?? 0);
  return Number.isInteger(v) && v >= 0 && v <= 16 ? v : 0;
})();

let table: Table | null = null;
let fileName = '';
let worker: Worker | null = null;
let urls: string[] = [];

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
  charts.replaceChildren();
  for (const u of urls) URL.revokeObjectURL(u);
  urls = [];
}

const PRED_NAMES = /^(preds?|predictions?|predicted|scores?|y_?hat|yhat|prob(ability)?|p)$/i;

fileInput.addEventListener('change', async () => {
  clearError();
  resetResults();
  options.hidden = true;
  fileInfo.hidden = true;
  warningsList.hidden = true;
  table = null;
  const f = fileInput.files?.[0];
  if (!f) return;
  fileName = f.name;
  try {
    const parsed = parseCsvBytes(await f.arrayBuffer(), f.name);
    table = parsed.table;
    const delim = parsed.delimiter === '\t' ? 'tab' : parsed.delimiter === 'whitespace' ? 'whitespace' : `"${parsed.delimiter}"`;
    fileInfo.textContent = `${f.name}: ${table.rows} rows, ${table.columns.length} columns (delimiter ${delim}): ` +
      table.columns.map((c) => `${c.name} (${c.kind === 'numeric' ? 'numeric' : `${c.categories.length} categories`})`).join(', ');
    fileInfo.hidden = false;
    warningsList.replaceChildren(...parsed.warnings.map((w) => Object.assign(document.createElement('li'), { textContent: w })));
    warningsList.hidden = parsed.warnings.length === 0;
    // numeric columns in [0, 1] first (likely predictions), then the rest
    const cols = table.columns.map((c) => ({ name: c.name, ok: checkPredColumn(table!, c.name) === null }));
    const ordered = [...cols.filter((c) => c.ok), ...cols.filter((c) => !c.ok)];
    predSelect.replaceChildren(...ordered.map((c) => Object.assign(document.createElement('option'), { value: c.name, textContent: c.ok ? c.name : `${c.name} (not in [0, 1])` })));
    const guess = ordered.find((c) => c.ok && PRED_NAMES.test(c.name)) ?? ordered.find((c) => c.ok) ?? ordered[0];
    predSelect.value = guess.name;
    options.hidden = false;
    setState('loaded');
    if (!cols.some((c) => c.ok)) showError(`${f.name}: no column holds predictions (numbers in [0, 1]); add the audited model's predictions as a column`);
  } catch (err) {
    showError(`Cannot read this file as CSV: ${errorText(err)}`);
  }
});

predSelect.addEventListener('change', () => {
  if (!table) return;
  const msg = checkPredColumn(table, predSelect.value);
  if (msg) showError(msg);
  else {
    clearError();
    setState('loaded');
  }
});

function intInput(el: HTMLInputElement, name: string, min: number, max: number): number {
  const v = Number(el.value);
  if (!Number.isInteger(v) || v < min || v > max) throw new Error(`${name} must be a whole number from ${min} to ${max}, got "${el.value}"`);
  return v;
}

function getWorker(): Worker {
  if (worker) return worker;
  worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module', name: 'lucid-gan' });
  worker.onmessage = (ev: MessageEvent<WorkerMessage>) => onWorker(ev.data);
  worker.onerror = (ev: ErrorEvent) => {
    ev.preventDefault();
    finishTraining();
    showError(`The training worker failed: ${ev.message || 'unknown error (is WebAssembly SIMD supported by this browser?)'}`);
  };
  return worker;
}

function finishTraining(): void {
  trainBtn.disabled = false;
  cancelBtn.disabled = true;
  fileInput.disabled = false;
}

trainBtn.addEventListener('click', () => {
  clearError();
  if (!table) return showError('Pick a CSV file first.');
  const pred = predSelect.value;
  const bad = checkPredColumn(table, pred);
  if (bad) return showError(bad);
  let epochs: number, seed: number, n: number;
  try {
    epochs = intInput(epochsInput, 'Epochs', 1, 1000);
    seed = intInput(seedInput, 'Seed', 0, 2 ** 31);
    n = intInput(rowsInput, 'Rows per set', 10, 100000);
  } catch (err) {
    return showError(errorText(err));
  }
  resetResults();
  progress.max = epochs;
  progress.value = 0;
  statusEl.textContent = 'starting the engine…';
  trainBtn.disabled = true;
  cancelBtn.disabled = false;
  fileInput.disabled = true;
  setState('training');
  const req: TrainRequest = { type: 'train', table, pred, epochs, seed, n, threads: THREADS };
  getWorker().postMessage(req);
});

cancelBtn.addEventListener('click', () => {
  worker?.postMessage({ type: 'cancel' });
  cancelBtn.disabled = true;
  statusEl.textContent = 'cancelling after the current step…';
});

function onWorker(m: WorkerMessage): void {
  switch (m.type) {
    case 'ready':
      return;
    case 'status':
      statusEl.textContent = m.text;
      return;
    case 'progress':
      progress.max = m.epochs;
      progress.value = m.epoch;
      statusEl.textContent = `epoch ${m.epoch}/${m.epochs}  G ${m.lossG.toFixed(3)}  D ${m.lossD.toFixed(3)}`;
      return;
    case 'error':
      finishTraining();
      statusEl.textContent = '';
      showError(m.message);
      return;
    case 'done':
      finishTraining();
      showResults(m);
      return;
  }
}

function showResults(m: Extract<WorkerMessage, { type: 'done' }>): void {
  const pred = predSelect.value;
  const dists = compareSets(m.positive, m.negative, table, [pred]);
  const stem = fileName.replace(/\.[^.]*$/, '') || 'data';
  const link = (a: HTMLAnchorElement, t: Table, which: string) => {
    const url = URL.createObjectURL(new Blob([tableToCsv(t)], { type: 'text/csv' }));
    urls.push(url);
    a.href = url;
    a.download = `${stem}-canonical-${which}.csv`;
  };
  link(dlPositive, m.positive, 'positive');
  link(dlNegative, m.negative, 'negative');
  const interrupted = m.status === 'interrupted' ? ' (cancelled: the model of the last finished step)' : '';
  summary.textContent = `Trained for ${m.epochs} epoch${m.epochs === 1 ? '' : 's'} in ${m.seconds.toFixed(1)} s${interrupted} on ${table?.rows ?? 0} rows; ` +
    `${m.positive.rows} rows per set. ` +
    (dists.length ? `Largest difference: ${dists[0].feature} (JS ${dists[0].js.toFixed(3)}).` : '');
  const figure = (svg: string, cls: string, feature?: string) => {
    const fig = document.createElement('figure');
    fig.className = cls;
    if (feature !== undefined) fig.dataset.feature = feature;
    fig.innerHTML = svg;
    return fig;
  };
  charts.replaceChildren(
    ...(dists.length ? [figure(jsRanking(dists, { title: 'Positive vs negative: JS distance per feature' }), 'ranking')] : []),
    ...dists.map((d) => figure(distributionChart(d, { subtitle: `JS distance, positive vs negative: ${d.js.toFixed(3)}` }), 'feature', d.feature)),
  );
  engineInfo.textContent = `Engine: ${engineText(m.engine)}.`;
  document.body.dataset.threads = String(m.engine.threads);
  statusEl.textContent = m.status === 'interrupted' ? 'cancelled' : 'done';
  results.hidden = false;
  setState('done');
}

setState('idle');
