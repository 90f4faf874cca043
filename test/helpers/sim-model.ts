// A CSV of simulated loan decisions (proxy bias) and a logistic built-in model trained on it,
// written to a folder: the fixture of the CLI tests that call a model on a data file.
import { after, before } from 'node:test';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Table } from '../../src/data/table.js';
import { simulate } from '../../src/data/simulator.js';
import { Rng } from '../../src/engine/rng.js';
import { Classifier } from '../../src/models/classifier/classifier.js';
import { writeCsv } from '../../src/node/csv.js';
import { saveModel } from '../../src/node/model-file.js';
import { getEngine } from './engine.js';

export async function writeSimModel(dir: string): Promise<{ data: string; modelFile: string; table: Table }> {
  const engine = await getEngine();
  const data = join(dir, 'data.csv');
  const modelFile = join(dir, 'model.json');
  const table = simulate(new Rng(engine, 11), { n: 1200, bias: 'proxy' }).table;
  await writeCsv(data, table);
  const { model } = Classifier.train(engine, table, {
    label: 'approved',
    positive: 'yes',
    hidden: [],
    epochs: 5,
    valFraction: 0,
    seed: 1,
  });
  await saveModel(modelFile, model);
  model.dispose();
  return { data, modelFile, table };
}

/** The `lucid` CLI as a user runs it: `lucidCli('fale')('--model', …)` spawns `node bin/lucid.js fale --model …`. */
export const LUCID_BIN = fileURLToPath(new URL('../../../bin/lucid.js', import.meta.url));
export const lucidCli =
  (...pre: string[]) =>
  (...args: string[]) =>
    spawnSync(process.execPath, [LUCID_BIN, ...pre, ...args], { encoding: 'utf8' });

/**
 * A temporary folder holding `writeSimModel`'s CSV and model, made before the suite's first test and
 * removed after it (registers `before`/`after` in the calling suite); the fields are filled by then.
 */
export function simModelDir(prefix: string): { dir: string; data: string; modelFile: string; table: Table } {
  const f = { dir: mkdtempSync(join(tmpdir(), prefix)), data: '', modelFile: '', table: undefined as unknown as Table };
  before(async () => {
    Object.assign(f, await writeSimModel(f.dir));
  });
  after(() => rmSync(f.dir, { recursive: true, force: true }));
  return f;
}

/** The FALE commands' common arguments on `simModelDir`'s files (`--protected sex=Female` last). */
export const simFaleArgs = (f: { data: string; modelFile: string }) => [
  '--model',
  f.modelFile,
  '--data',
  f.data,
  '--label',
  'approved',
  '--positive',
  'yes',
  '--protected',
  'sex=Female',
];

/**
 * Runs `lucid …args` and sends `signal` once, `delayMs` after its stderr first matches `when` (one
 * signal only: a second would quit at once); resolves with the exit code and the output.
 */
export function lucidSignalled(
  args: string[],
  when: (stderr: string) => boolean,
  signal: NodeJS.Signals,
  delayMs = 0,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [LUCID_BIN, ...args]);
  let stderr = '';
  let stdout = '';
  let sent = false;
  child.stdout.on('data', (b: Buffer) => (stdout += b));
  return new Promise((resolve) => {
    child.stderr.on('data', (b: Buffer) => {
      stderr += b;
      if (!sent && when(stderr)) {
        sent = true;
        setTimeout(() => child.kill(signal), delayMs);
      }
    });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
