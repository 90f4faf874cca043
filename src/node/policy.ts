// The files of `lucid check`: the policy (a usage error when it is missing or malformed: it is the
// user's instruction, like an option, so exit 2), the baseline (a data file: exit 1), and the outputs
// (Markdown, JUnit XML, JSON), each written through a temporary file so a crash leaves no half file.
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { EngineError } from '../engine/errors.js';
import { parsePolicyText, type CheckSettings, type Policy } from '../audit/policy.js';
import { readBaseline, type Baseline } from '../audit/baseline.js';
import { fileError, readJsonFile } from './json-file.js';

/** Reads and validates a policy file; every error is a usage error (exit 2) naming the file. */
export async function readPolicyFile(file: string): Promise<Policy> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    const err = fileError(e, file, 'read');
    throw err instanceof EngineError ? new EngineError('E_ARG', `--policy ${err.message}`) : err;
  }
  return parsePolicyText(text, file);
}

/**
 * Reads a baseline: a `lucid check --format json` result or an audit.json (a data error, exit 1, when it is neither).
 */
export async function readBaselineFile(file: string, policy: Policy, s: CheckSettings): Promise<Baseline> {
  return readBaseline(await readBaselineJson(file), file, policy, s);
}

/** A baseline file's JSON, parsed (read before an audit runs; readBaseline checks it against the policy after). */
export async function readBaselineJson(file: string): Promise<unknown> {
  return readJsonFile(
    file,
    (msg, truncated) =>
      `${file}: not a JSON file${truncated ? ' (it looks cut short)' : ''} (${msg.split('\n')[0]}); a baseline is ` +
      `the JSON of lucid check --format json or an audit.json`,
  );
}

/** Writes `text` to `file` (its folder made if needed) through a temporary file and a rename. */
export async function writeTextFile(file: string, text: string): Promise<void> {
  const tmp = `${file}.tmp-${process.pid}`;
  try {
    await mkdir(dirname(file), { recursive: true });
    await writeFile(tmp, text);
    await rename(tmp, file);
  } catch (e) {
    throw fileError(e, file, 'write');
  }
}
