// The worked examples of every command's --help, run as written (#18 item 7) in a folder holding the
// files the README's walkthrough has people make (its `lucid dataset export` and `lucid model train`
// lines, read from README.md). One predicate, `slowReason`, splits them: the cheap ones run in
// test/cli/examples.test.ts, the slow ones in test/full/examples.test.ts; none is left out.
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

/** The example lines of a --help text: the indented `lucid …` lines under a heading "Example:" / "Examples (…):". */
export function examplesOf(help: string): string[] {
  const out: string[] = [];
  const lines = help.split('\n');
  const start = lines.findIndex((l) => /^Examples?\b.*:$/.test(l));
  if (start < 0) return out;
  for (let i = start + 1; i < lines.length && lines[i].trim() !== ''; i++) {
    let line = lines[i].trim();
    if (!line.startsWith('lucid ')) continue;
    while (line.endsWith('\\') && i + 1 < lines.length) line = `${line.slice(0, -1).trimEnd()} ${lines[++i].trim()}`;
    out.push(line);
  }
  return out;
}

/** Every command's examples, from the program's commands and their --help as a user sees it. */
export function exampleBlocks(): ExampleBlock[] {
  return programCommands().map(({ name, path }) => {
    const r = lucid(...path, '--help');
    if (r.status !== 0) throw new Error(`lucid ${name} --help exited ${r.status}: ${r.stderr}`);
    return { command: name, lines: examplesOf(r.stdout) };
  });
}

/**
 * Why a block is too slow for `npm test` (it runs in test/full), or false: the one predicate of the split.
 * Slow: a whole audit (lucid audit, lucid check --model) or the demo (minutes), and LUCID-GAN training on Adult's 15,060 rows.
 */
export function slowReason(block: ExampleBlock): string | false {
  // lucid check --model runs an audit (its GAN) for rules on canonical sets
  const slow = block.lines.find((l) => /^lucid (audit|demo|gan fit)\b/.test(l) || /^lucid check\b.*\s--model\s/.test(l));
  return slow ? `runs ${slow.split(' ').slice(0, 3).join(' ')}…: minutes on Adult` : false;
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

/** The README walkthrough's lines that make the files the examples read (export adult, train adult.json), without `npx `. */
export function readmeSetup(): string[] {
  const lines = readFileSync(README, 'utf8').split('\n').map((l) => l.trim());
  const setup = lines.filter((l) => /^npx lucid (dataset export adult|model train) /.test(l)).map((l) => l.slice('npx '.length).replace(/\s+#.*$/, ''));
  if (setup.length < 3) throw new Error(`README.md: expected the walkthrough's dataset export and model train lines, found ${JSON.stringify(setup)}`);
  return setup;
}

/** Why the examples cannot run here (the Adult data is absent), or false. */
export function adultSkip(): string | false {
  const a = datasetAvailability('adult');
  return a.available ? false : `Adult data absent (set LUCID_DATA_DIR to the folder holding adult/ and split_indices.json): ${a.reason}`;
}

/** A folder with a `lucid` on PATH running this checkout's bin/lucid.js, and a shell that runs a line in a folder. */
export function exampleShell(): { dir: string; run: (line: string, cwd: string) => { status: number | null; stdout: string; stderr: string } } {
  const bin = mkdtempSync(join(tmpdir(), 'lucid-bin-'));
  const shim = join(bin, 'lucid');
  writeFileSync(shim, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(LUCID_BIN)} "$@"\n`);
  chmodSync(shim, 0o755);
  // the data folder as this process resolves it (a relative LUCID_DATA_DIR would not hold in the examples' folders)
  const env = { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}`, LUCID_DATA_DIR: resolveDataDir().dir };
  return { dir: bin, run: (line, cwd) => spawnSync('/bin/sh', ['-c', line], { cwd, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }) };
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
    for (const f of EXAMPLE_FILES) copyFileSync(join(EXAMPLES_DIR, f), join(dir, f));
  } finally {
    rmSync(sh.dir, { recursive: true, force: true });
  }
  return dir;
}

/** A fresh folder holding copies of the README's files, for one block. */
export function copyOf(dir: string, name: string): string {
  const to = join(dir, '..', `${dir.split('/').pop()}-${name.replace(/\W+/g, '-')}`);
  mkdirSync(to, { recursive: true });
  for (const f of readdirSync(dir)) copyFileSync(join(dir, f), join(to, f));
  return to;
}
