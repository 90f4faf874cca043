// The LUCID-GAN model file (.lgan): JSON, versioned and self-describing. Plain data only: loading
// parses JSON and checks every field; nothing in the file is ever executed.
//
//   { "format": "lucid-wasm/lucid-gan", "version": 2, "checksum": "fnv1a32:<8 hex>",
//     "payload": { "generators": [{…}, …], "provenance": {…} | null } }
//
// Version 2 holds a set of generators (an audit's GAN seeds: `lucid audit --gan`, and the audit's
// cache of trained generators), each with its seed, loss history and how its training ended, and
// the provenance of the set: the hashes of the rows, the model's scores and the options it was
// trained with (never a path). `lucid gan fit` writes a set of one, with no provenance. Version 1
// (one generator, the payload itself) is still read.
//
// The checksum is FNV-1a (32 bit) over JSON.stringify(payload). Each generator holds the data
// transformer, the discrete columns (names, categories, offsets and the training rows' codes, for
// empirical cond vectors and the fixed-combination counts), the condition names and the raw
// training conditions, the configuration, the seed, the loss history and the generator's weights
// (float32, little-endian, base64; batch-norm running statistics included), and the training mode:
//   "consistency": { "mode": "consistency", "condition", "weight", "surrogate": { "hidden", "floats", "weights" } }
// or { "mode": "paper" } (no surrogate). A file without the field (written before the mode existed)
// loads as the paper's mode. The checksum helpers (src/models/checksum.ts) are shared with model.json.
import type { Engine } from '../../engine/engine.js';
import { EngineError } from '../../engine/errors.js';
import { DataTransformer } from '../ctgan/transformer.js';
import { base64ToF32, base64ToF64, base64ToI32, f32ToBase64, f64ToBase64, i32ToBase64 } from './codec.js';
import { checksumOf, verifyChecksum } from '../checksum.js';
import { GAN_DEFAULTS, LucidGan, PAPER_MODE, type ConsistencySpec, type GanConfig, type FitStatus } from './model.js';
import { Surrogate } from './surrogate.js';
import { Generator } from '../ctgan/networks.js';
import { CondSampler, type DiscreteColumn } from './sampler.js';

export const GAN_FORMAT = 'lucid-wasm/lucid-gan';
export const GAN_VERSION = 2;
/** the versions this code reads */
const READS = [1, 2];
const STATUSES: readonly FitStatus[] = ['done', 'interrupted', 'diverged'];

/**
 * What a set of generators was trained on, as hashes (SHA-256, hex) and never as paths: the audit's
 * cache key and its parts (src/audit/gan-reuse.ts says what each covers), and the version of lucid.
 */
export interface GanSetProvenance {
  key: string;
  data: string;
  model: string;
  modelFile: string | null;
  options: string;
  lucid: string;
}

/** One generator of a set, and how its training ended. */
export interface GanMember {
  model: LucidGan;
  status: FitStatus;
}

/** The file of one generator as an object (JSON.stringify it to write). `status` records how training ended. */
export function ganToJSON(model: LucidGan, status: FitStatus = 'done'): object {
  return ganSetToJSON([{ model, status }], null);
}

/** The file of a set of generators (an audit's GAN seeds, in seed order) with its provenance. */
export function ganSetToJSON(members: readonly GanMember[], provenance: GanSetProvenance | null): object {
  const payload = { generators: members.map((m) => memberToJSON(m.model, m.status)), provenance };
  return { format: GAN_FORMAT, version: GAN_VERSION, checksum: checksumOf(JSON.stringify(payload)), payload };
}

function memberToJSON(model: LucidGan, status: FitStatus): object {
  const s = model.sampler;
  return {
    transformer: model.transformer.toJSON(),
    discrete: s.columns.map((c) => ({
      name: c.name,
      categories: c.categories,
      dataOffset: c.dataOffset,
      codes: i32ToBase64(c.codes),
    })),
    rows: s.rows,
    conditions: model.conditionNames,
    conditionValues: f64ToBase64(model.conditionValues),
    config: model.config,
    seed: model.seed,
    status,
    history: model.history,
    generator: {
      floats: model.params.floatCount,
      names: model.params.names,
      weights: f32ToBase64(model.params.snapshot()),
    },
    consistency: consistencyToJSON(model),
  };
}

function consistencyToJSON(model: LucidGan): object {
  const c = model.consistency;
  if (c.mode === 'paper' || !model.surrogate) return { mode: 'paper' };
  const p = model.surrogate.params;
  return {
    mode: 'consistency',
    condition: c.condition,
    weight: c.weight,
    surrogate: { hidden: c.hidden, floats: p.floatCount, weights: f32ToBase64(p.snapshot()) },
  };
}

/** Rebuilds the one generator of a parsed file; every problem is one E_INPUT line naming `where`. */
export function ganFromJSON(engine: Engine, json: unknown, where = 'model file'): LucidGan {
  const set = ganSetFromJSON(engine, json, where);
  if (set.members.length !== 1) {
    for (const m of set.members) m.model.dispose();
    throw new EngineError(
      'E_INPUT',
      `${where}: the file holds ${set.members.length} generators (an audit's set, for lucid audit --gan); this ` +
        `command reads a file of one, as "lucid gan fit" writes`,
    );
  }
  return set.members[0].model;
}

/**
 * Rebuilds every generator of a parsed file (version 1: one, no provenance); every problem is one E_INPUT line naming
 * `where`.
 */
export function ganSetFromJSON(
  engine: Engine,
  json: unknown,
  where = 'model file',
): { members: GanMember[]; provenance: GanSetProvenance | null } {
  const bad = (why: string): never => {
    throw new EngineError('E_INPUT', `${where}: ${why}`);
  };
  const f = json as Record<string, unknown> | null;
  if (!f || typeof f !== 'object' || Array.isArray(f))
    return bad('not a LUCID-GAN model file (not a JSON object); it is what "lucid gan fit" writes');
  if (f.format !== GAN_FORMAT)
    return bad(
      `not a LUCID-GAN model file (format ${f.format === undefined ? 'missing' : JSON.stringify(f.format)}, expected ` +
        `"${GAN_FORMAT}"); it is what "lucid gan fit" writes`,
    );
  if (!READS.includes(f.version as number))
    return bad(
      `LUCID-GAN model file version ${JSON.stringify(f.version)} is not supported (this lucid reads versions ` +
        `${READS.join(' and ')})`,
    );
  const p = f.payload as Record<string, unknown> | undefined;
  if (!p || typeof p !== 'object') return bad('the file has no payload (truncated or corrupt)');
  if (verifyChecksum(f.checksum, checksumOf(JSON.stringify(p))) !== 'ok')
    return bad('checksum mismatch: the file is corrupt or was edited');
  if (f.version === 1) return { members: [memberFromJSON(engine, p, where, bad)], provenance: null };
  const list = p.generators;
  if (!Array.isArray(list) || list.length === 0 || !list.every((g) => !!g && typeof g === 'object'))
    return bad('field "generators" must be a non-empty array of generators');
  const provenance = provenanceFromJSON(p.provenance, bad);
  const members: GanMember[] = [];
  try {
    list.forEach((g: Record<string, unknown>, j) => {
      const which = list.length > 1 ? `generator ${j + 1} of ${list.length}` : '';
      members.push(
        memberFromJSON(engine, g, which ? `${where} (${which})` : where, (why) =>
          bad(which ? `${which}: ${why}` : why),
        ),
      );
    });
  } catch (e) {
    for (const m of members) m.model.dispose();
    throw e;
  }
  return { members, provenance };
}

function provenanceFromJSON(v: unknown, bad: (why: string) => never): GanSetProvenance | null {
  if (v === null || v === undefined) return null;
  const o = v as Record<string, unknown>;
  const str = (k: string, nullable = false) => typeof o[k] === 'string' || (nullable && o[k] === null);
  if (
    typeof o !== 'object' ||
    !['key', 'data', 'model', 'options', 'lucid'].every((k) => str(k)) ||
    !str('modelFile', true)
  )
    return bad('field "provenance" must be null or an object of hashes (key, data, model, modelFile, options, lucid)');
  return {
    key: o.key as string,
    data: o.data as string,
    model: o.model as string,
    modelFile: o.modelFile as string | null,
    options: o.options as string,
    lucid: o.lucid as string,
  };
}

/** One generator from its part of the payload (version 1: the payload itself). */
function memberFromJSON(
  engine: Engine,
  p: Record<string, unknown>,
  where: string,
  bad: (why: string) => never,
): GanMember {
  const status = (p.status ?? 'done') as FitStatus;
  if (!STATUSES.includes(status)) bad(`field "status" must be one of ${STATUSES.join(', ')}`);
  const field = (name: string, ok: boolean, want: string) => {
    if (!ok) bad(`field "${name}" must be ${want}`);
  };
  const transformer = DataTransformer.fromJSON(p.transformer, where);
  const rows = p.rows as number;
  field('rows', Number.isSafeInteger(rows) && rows > 0, 'a positive integer');
  field('discrete', Array.isArray(p.discrete), 'an array');
  const discrete = (p.discrete as Record<string, unknown>[]).map((c, j): DiscreteColumn => {
    const name = `discrete[${j}]`;
    field(`${name}.name`, typeof c?.name === 'string', 'a string');
    field(
      `${name}.categories`,
      Array.isArray(c.categories) && c.categories.length > 0 && c.categories.every((x) => typeof x === 'string'),
      'an array of labels',
    );
    const codes = typeof c.codes === 'string' ? base64ToI32(c.codes) : null;
    const k = (c.categories as string[]).length;
    field(
      `${name}.codes`,
      codes !== null && codes.length === rows && codes.every((v) => v >= 0 && v < k),
      `${rows} category codes in base64`,
    );
    field(
      `${name}.dataOffset`,
      Number.isSafeInteger(c.dataOffset) &&
        (c.dataOffset as number) >= 0 &&
        (c.dataOffset as number) + k <= transformer.outputDim,
      'an offset into the transformed row',
    );
    return {
      name: c.name as string,
      categories: c.categories as string[],
      codes: codes!,
      dataOffset: c.dataOffset as number,
    };
  });
  field(
    'conditions',
    Array.isArray(p.conditions) && (p.conditions as unknown[]).every((x) => typeof x === 'string'),
    'an array of column names',
  );
  const conditions = p.conditions as string[];
  const values = typeof p.conditionValues === 'string' ? base64ToF64(p.conditionValues) : null;
  field(
    'conditionValues',
    values !== null && values.length === rows * conditions.length && values.every(Number.isFinite),
    `${rows * conditions.length} finite numbers in base64`,
  );
  const c = p.config as Record<string, unknown>;
  field('config', !!c && typeof c === 'object', 'an object');
  const config = { ...GAN_DEFAULTS } as GanConfig;
  for (const key of Object.keys(GAN_DEFAULTS) as (keyof GanConfig)[]) {
    const v = c[key];
    const def = GAN_DEFAULTS[key];
    const ok = Array.isArray(def)
      ? Array.isArray(v) && v.every((x) => typeof x === 'number' && Number.isFinite(x))
      : typeof v === 'number' && Number.isFinite(v);
    field(`config.${key}`, ok, Array.isArray(def) ? 'an array of numbers' : 'a number');
    (config as unknown as Record<string, unknown>)[key] = v;
  }
  field(
    'config',
    config.generatorDims.every((x) => Number.isSafeInteger(x) && x > 0) &&
      Number.isSafeInteger(config.embedding) &&
      config.embedding > 0 &&
      Number.isSafeInteger(config.batch) &&
      config.batch > 0,
    'a valid configuration',
  );
  const seed = p.seed as number;
  field('seed', Number.isSafeInteger(seed) && seed >= 0, 'a non-negative integer');
  const h = p.history as Record<string, unknown>;
  const series = (k: string) => Array.isArray(h?.[k]) && (h[k] as unknown[]).every((x) => typeof x === 'number');
  field('history', series('lossG') && series('lossD') && series('lossCond'), 'an object of loss arrays');
  const g = p.generator as Record<string, unknown>;
  const weights = typeof g?.weights === 'string' ? base64ToF32(g.weights) : null;
  field(
    'generator.weights',
    weights !== null && weights.length === g.floats && weights.every(Number.isFinite),
    `${String(g?.floats)} finite float32 values in base64`,
  );
  let consistency: ConsistencySpec = PAPER_MODE;
  const cj = p.consistency as Record<string, unknown> | undefined;
  if (cj !== undefined) {
    field(
      'consistency',
      !!cj && typeof cj === 'object' && (cj.mode === 'paper' || cj.mode === 'consistency'),
      'an object with mode "paper" or "consistency"',
    );
    if (cj.mode === 'consistency') {
      field(
        'consistency.condition',
        typeof cj.condition === 'string' && conditions.includes(cj.condition),
        'one of the conditions',
      );
      field(
        'consistency.weight',
        typeof cj.weight === 'number' && Number.isFinite(cj.weight) && cj.weight >= 0,
        'a number ≥ 0',
      );
      const sj = cj.surrogate as Record<string, unknown> | undefined;
      const hidden = sj?.hidden as number;
      field('consistency.surrogate.hidden', Number.isSafeInteger(hidden) && hidden > 0, 'a positive integer');
      const sw = typeof sj?.weights === 'string' ? base64ToF32(sj.weights) : null;
      const want = new Surrogate(transformer.outputDim, hidden)
        .namedParams()
        .reduce((a, q) => a + q.shape.reduce((x, y) => x * y, 1), 0);
      field(
        'consistency.surrogate.weights',
        sw !== null && sw.length === want && sw.every(Number.isFinite),
        `${want} finite float32 values in base64`,
      );
      consistency = {
        mode: 'consistency',
        condition: cj.condition as string,
        weight: cj.weight as number,
        hidden,
        weights: sw,
      };
    }
  }
  const sampler = new CondSampler(discrete, rows);
  const expect = config.embedding + sampler.condDim + conditions.length;
  let model: LucidGan;
  try {
    const G = new Generator(expect, config.generatorDims, transformer.outputDim);
    const floats = G.namedParams().reduce((a, q) => a + q.shape.reduce((x, y) => x * y, 1), 0);
    if (floats !== weights!.length)
      return bad(
        `the generator weights (${weights!.length} floats) do not fit the configured generator (${floats} floats for ` +
          `input ${expect})`,
      );
    model = new LucidGan(
      engine,
      transformer,
      sampler,
      conditions.slice(),
      values!,
      config,
      seed,
      h as unknown as LucidGan['history'],
      weights!,
      consistency,
    );
  } catch (e) {
    if (e instanceof EngineError && e.code === 'E_INPUT') throw e;
    return bad(`the configuration does not describe a valid generator (${(e as Error).message})`);
  }
  return { model, status };
}
