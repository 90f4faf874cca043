// Trained generators reused: an audit's LUCID-GANs are a function of the rows they train
// on, the model's scores on those rows, the options that shape their training and the version of
// lucid. The key is the SHA-256 of those four; a cache (GanStore: the CLI's folder, src/node/gan-cache.ts)
// holds a set under its key, and `--gan FILE` hands a set over, which must carry the audit's key.
//
// What each hash covers (GanKey):
//   data:      the GANs' training rows, every feature column (names, kinds, values, categories), in
//              order: the data, the stratified sample and the held-out rows all show in it;
//   model:     the condition column: the audited model's P(positive) on those rows (or the predictions
//              column's), i.e. the model as the GANs see it;
//   modelFile: the model file's SHA-256 when the caller gave one (provenance), else null;
//   options:   epochs, batch, GAN seeds, loss mode, schedule (with its stopping rule and widths),
//              point masses, the held-out rows, the condition's name and the GAN's hyperparameters;
//   lucid:     AUDIT_VERSION and the .lgan version (training code that changes bumps AUDIT_VERSION).
// Nothing in a key or a set's provenance is a path. A set holds a model of the data (and the training
// rows' category codes): it is as sensitive as the data (docs/methods.md "Reused generators").
//
// Core code: no Node imports; the store is the caller's.
import type { Engine } from '../engine/engine.js';
import { EngineError } from '../engine/errors.js';
import { Sha256, sha256Hex } from '../data/sha256.js';
import type { Table } from '../data/table.js';
import {
  ganSetFromJSON,
  ganSetToJSON,
  GAN_VERSION,
  type GanMember,
  type GanSetProvenance,
} from '../models/lucidgan/format.js';
import type { FitStatus } from '../models/lucidgan/config.js';
import type { LucidGan } from '../models/lucidgan/model.js';

/** Where trained sets are kept between audits, by key. get: the set's text, or null when there is none. */
export interface GanStore {
  get(key: string): Promise<string | null>;
  put(key: string, text: string): Promise<void>;
}

/** A set handed over by the caller (`--gan FILE`): the parsed file and where it came from (named in errors only). */
export interface GanHandover {
  json: unknown;
  where: string;
}

/** The audit's key and its parts (see the header); meta.gan.reused reports them. */
export type GanKey = GanSetProvenance;

/** How the audit's generators came: trained here, from the cache, or from a handed-over file. */
export interface GanReuse {
  from: 'cache' | 'file';
  key: GanKey;
}

/** The SHA-256 of a table's columns (names, kinds, values; categories with their codes), in order. */
function tableHash(columns: Table['columns']): string {
  const h = new Sha256();
  const text = (s: string) => h.update(new TextEncoder().encode(s));
  for (const c of columns) {
    text(JSON.stringify([c.name, c.kind]));
    if (c.kind === 'numeric') h.update(new Uint8Array(c.values.buffer, c.values.byteOffset, c.values.byteLength));
    else {
      text(JSON.stringify(c.categories));
      h.update(new Uint8Array(c.codes.buffer, c.codes.byteOffset, c.codes.byteLength));
    }
  }
  return h.hex();
}

/** The key of an audit's GANs: `ganTable`'s last column is the condition (the model's scores). */
export function ganKey(o: { ganTable: Table; options: object; modelFile: string | null; lucid: string }): GanKey {
  const cols = o.ganTable.columns;
  const data = tableHash(cols.slice(0, -1));
  const model = tableHash(cols.slice(-1));
  const options = sha256Hex(JSON.stringify(o.options));
  const lucid = `${o.lucid}/lgan-${GAN_VERSION}`;
  const key = sha256Hex(JSON.stringify({ data, model, modelFile: o.modelFile, options, lucid }));
  return { key, data, model, modelFile: o.modelFile, options, lucid };
}

/** Which parts of two keys differ, in words (for the error of a handed-over set that does not fit). */
function keyDifference(want: GanKey, got: GanKey): string {
  const parts: [keyof GanKey, string][] = [
    ['data', 'the rows the GANs train on'],
    ['model', "the model's scores on them"],
    ['modelFile', 'the model file'],
    ['options', 'the GAN options (epochs, batch, seeds, schedule, mode, point masses)'],
    ['lucid', 'the lucid version'],
  ];
  const differ = parts
    .filter(([k]) => want[k] !== got[k])
    .map(([k, text]) => (k === 'lucid' ? `${text} (${got.lucid}; this is ${want.lucid})` : text));
  return differ.length ? differ.join('; ') : 'the key';
}

/** The sets' members checked against the seeds asked for: the models in seed order, or why they do not fit. */
function membersFor(members: GanMember[], seeds: readonly number[]): LucidGan[] | string {
  const got = members.map((m) => m.model.seed);
  if (got.length !== seeds.length || got.some((s, i) => s !== seeds[i]))
    return `it holds GAN seeds ${got.join(', ')}, the audit asks for ${seeds.join(', ')}`;
  if (members.some((m) => m.status === 'interrupted')) return 'a generator in it was cut short';
  return members.map((m) => m.model);
}

/**
 * The generators of a handed-over set (`--gan FILE`), which must carry the audit's key: anything else
 * is an input error naming the file and what differs. The caller owns (and disposes of) the models.
 */
export function handedOver(
  engine: Engine,
  h: GanHandover,
  key: GanKey,
  seeds: readonly number[],
): { gans: LucidGan[]; statuses: FitStatus[] } {
  const set = ganSetFromJSON(engine, h.json, h.where);
  const fail = (why: string): never => {
    for (const m of set.members) m.model.dispose();
    throw new EngineError(
      'E_INPUT',
      `${h.where}: ${why}; train them again (leave out --gan), or give the file this audit wrote with --gan-save`,
    );
  };
  if (!set.provenance)
    return fail('the file has no provenance (it is what "lucid gan fit" writes, not an audit\'s set of generators)');
  if (set.provenance.key !== key.key)
    return fail(`these generators were trained for another audit: ${keyDifference(key, set.provenance)} differ`);
  const gans = membersFor(set.members, seeds);
  if (typeof gans === 'string') return fail(gans);
  return { gans, statuses: set.members.map((m) => m.status) };
}

/**
 * The cached set under the audit's key, or null (none, or one that cannot be used: then `warn` says
 * why and the audit trains them again; a cache never ends an audit).
 */
export async function fromCache(
  engine: Engine,
  store: GanStore,
  key: GanKey,
  seeds: readonly number[],
  warn: (text: string) => void,
): Promise<{ gans: LucidGan[]; statuses: FitStatus[] } | null> {
  let text: string | null;
  try {
    text = await store.get(key.key);
  } catch (e) {
    warn(
      `the cache of trained generators could not be read (${(e as Error).message}); the generators were trained again`,
    );
    return null;
  }
  if (text === null) return null;
  const unusable = (why: string) => {
    warn(
      `the cached generators for this audit could not be used (${why}); they were trained again and the entry replaced`,
    );
    return null;
  };
  let set: ReturnType<typeof ganSetFromJSON>;
  try {
    set = ganSetFromJSON(engine, JSON.parse(text), 'the cache entry');
  } catch (e) {
    return unusable(e instanceof SyntaxError ? 'not JSON: a truncated or foreign file' : (e as Error).message);
  }
  const drop = () => set.members.forEach((m) => m.model.dispose());
  if (!set.provenance || set.provenance.key !== key.key) {
    drop();
    return unusable('it was stored under this key for another audit');
  }
  const gans = membersFor(set.members, seeds);
  if (typeof gans === 'string') {
    drop();
    return unusable(gans);
  }
  return { gans, statuses: set.members.map((m) => m.status) };
}

/** Stores a trained set under its key; a failure is a warning (the audit's result does not depend on it). */
export async function toCache(
  store: GanStore,
  key: GanKey,
  members: readonly GanMember[],
  warn: (text: string) => void,
): Promise<void> {
  try {
    await store.put(key.key, JSON.stringify(ganSetToJSON(members, key)));
  } catch (e) {
    warn(
      `the trained generators could not be kept in the cache (${(e as Error).message}); the next audit of these ` +
        `files trains them again`,
    );
  }
}

/** The report's words for reused generators: where from and the key (never a path). */
export function describeReuse(r: GanReuse): string {
  return (
    `trained generators reused from ${r.from === 'cache' ? 'the cache' : 'a file handed over (--gan)'} (key ` +
    `sha256:${r.key.key.slice(0, 16)}…)`
  );
}
