// model.json's checksum ("nothing passes silently"): a saved model carries one over its content; a
// weight digit flipped after saving (still valid JSON) is one E_INPUT line naming the file, also
// through `lucid model predict` (exit 1); the untouched file loads and predicts exactly as the saved
// model did; a file from before the checksum loads with a warning that it cannot be verified.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Engine } from '../../src/engine/engine.js';
import { EngineError } from '../../src/engine/errors.js';
import { Rng } from '../../src/engine/rng.js';
import { simulate } from '../../src/data/simulator.js';
import type { Table } from '../../src/data/table.js';
import { Classifier } from '../../src/models/classifier/classifier.js';
import { contentChecksum } from '../../src/models/checksum.js';
import { writeCsv } from '../../src/node/csv.js';
import { loadModel, saveModel } from '../../src/node/model-file.js';
import { getEngine } from '../helpers/engine.js';

const bin = fileURLToPath(new URL('../../../bin/lucid.js', import.meta.url));
const lucid = (...args: string[]) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8' });
const dir = mkdtempSync(join(tmpdir(), 'lucid-model-checksum-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const changed = (file: string) =>
  `${file}: checksum mismatch: the model file was changed or damaged after it was written; train the model again ` +
  `(lucid model train)`;
const unverified = (file: string) =>
  `${file}: the model file has no checksum (written by an older lucid-wasm), so a change or damage cannot be ` +
  `detected; train it again (lucid model train) to add one`;

const expectInput = (msg: string) => (e: unknown) => {
  assert.ok(e instanceof EngineError, String(e));
  assert.equal(e.code, 'E_INPUT');
  assert.equal(e.message, msg);
  return true;
};

/**
 * The text with the first digit after the decimal point of the first weight changed (5 ↔ 6): valid JSON, another model.
 */
function flipWeightDigit(text: string): string {
  const m = /"weight":\[-?\d+\.(\d)/.exec(text);
  assert.ok(m, 'a weight with a decimal point');
  const at = m.index + m[0].length - 1;
  const digit = text[at] === '5' ? '6' : '5';
  return text.slice(0, at) + digit + text.slice(at + 1);
}

let engine: Engine;
let model: Classifier;
let fresh: Table;
const file = join(dir, 'model.json');
const data = join(dir, 'fresh.csv');

before(async () => {
  engine = await getEngine();
  const train = simulate(new Rng(engine, 11), { n: 1500, bias: 'proxy' }).table;
  fresh = simulate(new Rng(engine, 12), { n: 1000, bias: 'proxy' }).table;
  model = Classifier.train(engine, train, {
    label: 'approved',
    positive: 'yes',
    hidden: [8],
    epochs: 5,
    seed: 1,
  }).model;
  await saveModel(file, model);
  await writeCsv(data, fresh);
});
after(() => model.dispose());

describe('model.json checksum', () => {
  it('the saved file carries "checksum": "fnv1a32:<8 hex>" over every other field, after format and version', () => {
    const json = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    assert.deepEqual(Object.keys(json).slice(0, 3), ['format', 'version', 'checksum']);
    assert.match(String(json.checksum), /^fnv1a32:[0-9a-f]{8}$/);
    assert.equal(json.checksum, contentChecksum(json));
  });

  it('save → load: the same weights and the same predictions on 1000 fresh rows, no warning', async () => {
    const warnings: string[] = [];
    const back = await loadModel(engine, file, { warn: (w) => warnings.push(w) });
    assert.deepEqual(back.params.snapshot(), model.params.snapshot());
    assert.deepEqual(back.predictProba(engine, fresh), model.predictProba(engine, fresh));
    assert.deepEqual(warnings, []);
    back.dispose();
    // the content, not the layout, is checked: the same file indented still loads
    const pretty = join(dir, 'pretty.json');
    writeFileSync(pretty, JSON.stringify(JSON.parse(readFileSync(file, 'utf8')), null, 2));
    const prettyWarnings: string[] = [];
    (await loadModel(engine, pretty, { warn: (w) => prettyWarnings.push(w) })).dispose();
    assert.deepEqual(prettyWarnings, []);
  });

  it('one weight digit flipped (still valid JSON, other predictions) is one E_INPUT line naming the file', async () => {
    const text = readFileSync(file, 'utf8');
    const flipped = flipWeightDigit(text);
    assert.notEqual(flipped, text);
    const parsed = JSON.parse(flipped) as Record<string, unknown>;
    // without the check this would be another model: some predictions change
    delete parsed.checksum;
    const other = Classifier.fromJSON(engine, parsed, 'flipped');
    const p0 = model.predictProba(engine, fresh);
    const p1 = other.predictProba(engine, fresh);
    assert.ok(
      p1.some((p, i) => p !== p0[i]),
      'the flipped digit changes predictions',
    );
    other.dispose();

    const bad = join(dir, 'flipped.json');
    writeFileSync(bad, flipped);
    await assert.rejects(
      loadModel(engine, bad, { warn: () => assert.fail('no warning for a file with a checksum') }),
      expectInput(changed(bad)),
    );
    // a digit of the preprocessing, and the checksum itself, likewise
    const scaled = join(dir, 'scaled.json');
    const min = /"min":(\d)/.exec(text)!;
    const at = min.index + min[0].length - 1;
    writeFileSync(scaled, text.slice(0, at) + (text[at] === '1' ? '2' : '1') + text.slice(at + 1));
    await assert.rejects(loadModel(engine, scaled), expectInput(changed(scaled)));
    const resigned = join(dir, 'resigned.json');
    writeFileSync(resigned, text.replace(/"checksum":"fnv1a32:[0-9a-f]{8}"/, '"checksum":"fnv1a32:00000000"'));
    await assert.rejects(loadModel(engine, resigned), expectInput(changed(resigned)));
    // the untouched file still loads
    (await loadModel(engine, file)).dispose();
  });

  it(
    'a model.json without a checksum (older lucid-wasm) ' + 'loads, with a warning that it cannot be verified',
    async () => {
      const json = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      delete json.checksum;
      const old = join(dir, 'old.json');
      writeFileSync(old, JSON.stringify(json));
      const warnings: string[] = [];
      const back = await loadModel(engine, old, { warn: (w) => warnings.push(w) });
      assert.deepEqual(warnings, [unverified(old)]);
      assert.deepEqual(back.predictProba(engine, fresh), model.predictProba(engine, fresh));
      back.dispose();
      // the CLI: the warning on stderr, the predictions written
      const out = join(dir, 'old-scored.csv');
      const r = lucid('model', 'predict', '--model', old, '--data', data, '--out', out);
      assert.equal(r.status, 0, r.stderr);
      assert.equal(r.stderr, `lucid: warning: ${unverified(old)}\n`);
    },
  );

  it('lucid model predict: a changed model file exits 1 with one line; the untouched one predicts', () => {
    const bad = join(dir, 'flipped-cli.json');
    writeFileSync(bad, flipWeightDigit(readFileSync(file, 'utf8')));
    const r = lucid('model', 'predict', '--model', bad, '--data', data, '--out', join(dir, 'never.csv'));
    assert.equal(r.status, 1, r.stderr);
    assert.equal(r.stderr, `lucid: error: ${changed(bad)}\n`);
    const ok = lucid('model', 'predict', '--model', file, '--data', data, '--out', join(dir, 'scored.csv'));
    assert.equal(ok.status, 0, ok.stderr);
    assert.equal(ok.stderr, '');
  });
});
