// Reading and writing the JSON files the tool owns (model files): one place for the file-system
// error messages and for writing through a temporary file, so a crash never leaves half a file.
import { readFile, rename, writeFile } from 'node:fs/promises';
import { EngineError } from '../engine/errors.js';

/** A file-system error as one E_INPUT line naming the file; EngineErrors pass through. */
export function fileError(e: unknown, file: string, verb: string): unknown {
  if (e instanceof EngineError) return e;
  const code = (e as NodeJS.ErrnoException | null)?.code;
  if (code === 'ENOENT') return new EngineError('E_INPUT', `${file}: file not found`);
  if (code === 'EISDIR') return new EngineError('E_INPUT', `${file}: is a directory, not a file`);
  if (code === 'EACCES' || code === 'EPERM') return new EngineError('E_INPUT', `${file}: permission denied`);
  if (typeof code === 'string') return new EngineError('E_INPUT', `${file}: cannot ${verb} the file (${code})`);
  return e;
}

/** Writes `obj` as one line of JSON, through a temporary file and a rename. */
export async function writeJsonFile(file: string, obj: unknown): Promise<void> {
  await writeTextFile(file, `${JSON.stringify(obj)}\n`);
}

/**
 * Writes `text` through a temporary file and a rename (a crash or a concurrent reader never sees half a file); `mode`:
 * the new file's permissions.
 */
export async function writeTextFile(file: string, text: string, mode?: number): Promise<void> {
  const tmp = `${file}.tmp-${process.pid}`;
  try {
    await writeFile(tmp, text, mode === undefined ? undefined : { mode });
    await rename(tmp, file);
  } catch (e) {
    throw fileError(e, file, 'write');
  }
}

/**
 * Reads and parses a JSON file. `notJson` words the error for text that is not JSON; `truncated`
 * tells whether the text looks cut short (it parses up to its very end).
 */
export async function readJsonFile(
  file: string,
  notJson: (message: string, truncated: boolean) => string,
): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    throw fileError(e, file, 'read');
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    const msg = (e as Error).message;
    const at = /position (\d+)/.exec(msg);
    const truncated =
      text.trim() !== '' &&
      (/end of (JSON )?input|Unterminated/i.test(msg) || (at !== null && Number(at[1]) >= text.trimEnd().length));
    throw new EngineError('E_INPUT', notJson(msg, truncated));
  }
}
