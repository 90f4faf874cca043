// The worked examples of every command's --help, run as written in a folder holding the files the
// README's walkthrough has people make (its `lucid dataset export sim` and `lucid model train` lines,
// read from README.md), with LUCID_DATA_DIR pointing at a folder that does not exist: no example needs
// the Adult or COMPAS files. One predicate, `slowReason`, splits them: the cheap ones run in
// test/cli/examples.test.ts, the slow ones in test/full/examples.test.ts; none is left out. The lines
// under a help text's "With the Adult and COMPAS files …:" heading need the data and run where it is.
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { datasetAvailability, resolveDataDir } from '../../src/node/datasets.js';
import { lucid, programCommands } from './cli-fixtures.js';
import { LUCID_BIN } from './sim-model.js';

export interface ExampleBlock {
  /** the command whose --help holds it: "gan fit" */
  command: string;
  /** the example lines, continuation lines joined, in order (later lines may read what earlier ones wrote) */
  lines: string[];
}

/** The heading of the example lines that need the Adult and COMPAS files (run only where they are). */
export const DATA_HEADING = /^With the Adult and COMPAS files\b.*:$/;

/**
 * The example lines of a --help text: the indented `lucid …` lines under a heading "Example:" / "Examples (…):" (or
 * `heading`).
 */
export function examplesOf(help: string, heading: RegExp = /^Examples?\b.*:$/): string[] {
  const out: string[] = [];
  const lines = help.split('\n');
  const start = lines.findIndex((l) => heading.test(l));
  if (start < 0) return out;
  for (let i = start + 1; i < lines.length && lines[i].trim() !== ''; i++) {
    let line = lines[i].trim();
    if (!line.startsWith('lucid ')) continue;
    while (line.endsWith('\\') && i + 1 < lines.length) line = `${line.slice(0, -1).trimEnd()} ${lines[++i].trim()}`;
    out.push(line);
  }
  return out;
}

/**
 * Every command's examples, from the program's commands and their --help as a user sees it (`heading`: DATA_HEADING for
 * the data ones).
 */
export function exampleBlocks(heading?: RegExp): ExampleBlock[] {
  return programCommands().map(({ name, path }) => {
    const r = lucid(...path, '--help');
    if (r.status !== 0) throw new Error(`lucid ${name} --help exited ${r.status}: ${r.stderr}`);
    return { command: name, lines: examplesOf(r.stdout, heading) };
  });
}

/**
 * Why a block is too slow for `npm test` (it runs in test/full), or false: the one predicate of the split.
 * Slow: a whole audit (lucid audit, lucid check --model), the demo, and LUCID-GAN training (tens of seconds to minutes
 * each).
 */
export function slowReason(block: ExampleBlock): string | false {
  // lucid check --model runs an audit (its GAN) for rules on canonical sets
  const slow = block.lines.find(
    (l) => /^lucid (audit|demo|gan fit)\b/.test(l) || /^lucid check\b.*\s--model\s/.test(l),
  );
  return slow ? `runs ${slow.split(' ').slice(0, 3).join(' ')}…: trains LUCID-GANs` : false;
}

/** The exit code an example line states in its comment ("…   # exits 3: the model fails …"), else 0. */
export function expectedExit(line: string): number {
  const m = /\s#\s*exits (\d)\b/.exec(line);
  return m ? Number(m[1]) : 0;
}

/** Files of examples/ that the --help examples read as named there ("fairness.json is examples/fairness.json"). */
const EXAMPLE_FILES = ['fairness.json', 'fairness-canonical.json'];
const EXAMPLES_DIR = fileURLToPath(new URL('../../../examples/', import.meta.url));

const README = fileURLToPath(new URL('../../../README.md', import.meta.url));

/**
 * The README walkthrough's lines that make the files the examples read (export sim, train loans.json), without `npx `.
 */
export function readmeSetup(): string[] {
  const lines = readFileSync(README, 'utf8')
    .split('\n')
    .map((l) => l.trim());
  const setup = lines
    .filter((l) => /^npx lucid (dataset export sim\b.*--out loans-|model train --data loans-)/.test(l))
    .map((l) => l.slice('npx '.length).replace(/\s+#.*$/, ''));
  if (setup.length !== 3)
    throw new Error(
      `README.md: expected the walkthrough's two dataset export sim lines and its model train line, found ` +
        `${JSON.stringify(setup)}`,
    );
  return setup;
}

/**
 * The README's `npx lucid` lines, one block per ```sh block (continuations joined, without `npx `), in
 * order, split into those that name the Adult or COMPAS files and the others. The top block's
 * `npm ci && npx lucid demo` is the demo's --help example.
 */
export function readmeBlocks(): { noData: ExampleBlock[]; data: ExampleBlock[] } {
  const text = readFileSync(README, 'utf8');
  const out = { noData: [] as ExampleBlock[], data: [] as ExampleBlock[] };
  let k = 0;
  for (const block of text.matchAll(/^```sh\n([\s\S]*?)^```$/gm)) {
    k++;
    const raw = block[1].split('\n');
    const lines: string[] = [];
    for (let i = 0; i < raw.length; i++) {
      let line = raw[i].trim();
      if (!line.startsWith('npx lucid ')) continue;
      while (/\\(\s+#.*)?$/.test(line) && i + 1 < raw.length)
        line = `${line.replace(/\\(\s+#.*)?$/, '').trimEnd()} ${raw[++i].trim()}`;
      lines.push(line.slice('npx '.length));
    }
    const isData = (l: string) => /\b(adult|compas)\b/i.test(l);
    if (lines.some((l) => !isData(l)))
      out.noData.push({ command: `README.md sh block ${k}`, lines: lines.filter((l) => !isData(l)) });
    if (lines.some(isData))
      out.data.push({ command: `README.md sh block ${k} (Adult, COMPAS)`, lines: lines.filter(isData) });
  }
  return out;
}

/** Why the examples that need the Adult and COMPAS files cannot run here, or false. */
export function dataSkip(): string | false {
  const a = datasetAvailability('adult');
  const c = datasetAvailability('compas');
  return a.available && c.available
    ? false
    : `Adult or COMPAS data absent (docs/data.md "Get the data"): ${a.reason || c.reason}`;
}

/** A data folder that does not exist: the examples outside DATA_HEADING must run without one. */
export const NO_DATA_DIR = join(tmpdir(), 'lucid-no-data-folder');

/**
 * A folder with a `lucid` on PATH running this checkout's bin/lucid.js, and a shell that runs a line in a
 * folder. `withData`: LUCID_DATA_DIR is the data folder this process resolves; otherwise NO_DATA_DIR.
 */
export function exampleShell(withData = false): {
  dir: string;
  run: (line: string, cwd: string) => { status: number | null; stdout: string; stderr: string };
} {
  const bin = mkdtempSync(join(tmpdir(), 'lucid-bin-'));
  const shim = join(bin, 'lucid');
  writeFileSync(shim, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(LUCID_BIN)} "$@"\n`);
  chmodSync(shim, 0o755);
  // the data folder as this process resolves it (a relative LUCID_DATA_DIR would not hold in the examples' folders)
  const env = {
    ...process.env,
    PATH: `${bin}:${process.env.PATH ?? ''}`,
    LUCID_DATA_DIR: withData ? resolveDataDir().dir : NO_DATA_DIR,
  };
  return {
    dir: bin,
    run: (line, cwd) => spawnSync('/bin/sh', ['-c', line], { cwd, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }),
  };
}

/** Makes the README's files in a new folder (runs readmeSetup's lines); returns the folder. */
export function prepareReadmeFiles(): string {
  const dir = mkdtempSync(join(tmpdir(), 'lucid-readme-'));
  const sh = exampleShell();
  try {
    for (const line of readmeSetup()) {
      const r = sh.run(line, dir);
      if (r.status !== 0) throw new Error(`README setup: ${line} exited ${r.status}: ${r.stderr}`);
    }
    // as the --help examples name them, and as the README does from the checkout's root
    mkdirSync(join(dir, 'examples'));
    for (const f of EXAMPLE_FILES) {
      copyFileSync(join(EXAMPLES_DIR, f), join(dir, f));
      copyFileSync(join(EXAMPLES_DIR, f), join(dir, 'examples', f));
    }
  } finally {
    rmSync(sh.dir, { recursive: true, force: true });
  }
  return dir;
}

/** A fresh folder holding copies of the README's files, for one block. */
export function copyOf(dir: string, name: string): string {
  const to = join(dir, '..', `${dir.split('/').pop()}-${name.replace(/\W+/g, '-')}`);
  cpSync(dir, to, { recursive: true });
  return to;
}
