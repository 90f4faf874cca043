// Node layer for the cache of trained generators (src/audit/gan-reuse.ts): a folder of .lgan files,
// one per key (`<key>.lgan`), and `--gan FILE` / `--gan-save FILE`. The folder (GAN_CACHE_HELP):
// `--gan-cache DIR`, else $LUCID_GAN_CACHE ("off": none), else the per-user cache folder
// ($XDG_CACHE_HOME/lucid-wasm/gan or ~/.cache/lucid-wasm/gan; ~/Library/Caches/lucid-wasm/gan on
// macOS; %LOCALAPPDATA%\lucid-wasm\gan on Windows). An entry holds a model of the data and the
// training rows' category codes: it is as sensitive as the data.
import { mkdir, readFile } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import type { GanHandover, GanStore } from '../audit/gan-reuse.js';
import { readJsonFile, writeTextFile } from './json-file.js';

/** The help text of the cache's folder (--help and the README say the same). */
export const GAN_CACHE_HELP =
  'the folder of trained generators reused by later audits of the same data, model and GAN options (default: ' +
  '$LUCID_GAN_CACHE, else the per-user cache folder, e.g. ~/.cache/lucid-wasm/gan; an entry holds a model of ' +
  'the data: keep it as you keep the data)';

/** The per-user folder, or null when $LUCID_GAN_CACHE is "off". */
export function defaultGanCacheDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string | null {
  const set = env.LUCID_GAN_CACHE;
  if (set !== undefined && set !== '') return set === 'off' ? null : set;
  if (platform === 'win32')
    return join(env.LOCALAPPDATA ?? join(os.homedir(), 'AppData', 'Local'), 'lucid-wasm', 'gan');
  if (platform === 'darwin') return join(os.homedir(), 'Library', 'Caches', 'lucid-wasm', 'gan');
  return join(env.XDG_CACHE_HOME || join(os.homedir(), '.cache'), 'lucid-wasm', 'gan');
}

/** A folder of sets, one file per key (dir null: no folder, the set only kept in `last`, for --gan-save). */
export class DirGanStore implements GanStore {
  /** the text of the set this audit used or stored (--gan-save writes it) */
  last: string | null = null;

  constructor(readonly dir: string | null) {}

  async get(key: string): Promise<string | null> {
    if (this.dir === null) return null;
    let text: string;
    try {
      text = await readFile(join(this.dir, `${key}.lgan`), 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw e;
    }
    this.last = text;
    return text;
  }

  async put(key: string, text: string): Promise<void> {
    this.last = text;
    if (this.dir === null) return;
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    // readable by the user only: an entry is as sensitive as the data
    await writeTextFile(join(this.dir, `${key}.lgan`), text, 0o600);
  }
}

/** A set of generators handed over (`--gan FILE`), read; a missing or non-JSON file is one E_INPUT line naming it. */
export async function readGanHandover(file: string): Promise<GanHandover> {
  const json = await readJsonFile(
    file,
    (msg, truncated) =>
      `${file}: not a LUCID-GAN model file: ` +
      `${truncated ? 'the JSON ends early (truncated file?)' : `not JSON (${msg})`}`,
  );
  return { json, where: file };
}
