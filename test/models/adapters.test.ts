// The registry of model adapters (src/models/adapters.ts) and what reads it: every file kind has a
// Node loader, no extension belongs to two kinds, the extension lookup and its error, the label in
// "not found" messages, and the --model help of every command that takes a model.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Command } from 'commander';
import type { Engine } from '../../src/engine/engine.js';
import { EngineError } from '../../src/engine/errors.js';
import {
  adapterForExtension,
  expectedModelFiles,
  MODEL_ADAPTERS,
  MODEL_FILE_ADAPTERS,
  modelAdapter,
  modelFilePhrase,
} from '../../src/models/adapters.js';
import { LOADERS, loadBlackBox, modelFileKind } from '../../src/node/blackbox.js';
import { notDifferentiableMessage } from '../../src/methods/lucid/model.js';
import { auditCommand } from '../../src/cli/commands/audit.js';
import { check } from '../../src/cli/commands/check.js';
import { faleCommand } from '../../src/cli/commands/fale.js';
import { quality } from '../../src/cli/commands/quality.js';

/** The kinds whose models come as files, found from the table itself rather than from MODEL_FILE_ADAPTERS. */
const fileKinds = MODEL_ADAPTERS.filter((a) => a.extensions.length > 0).map((a) => a.kind);

test('the registry: kinds are unique, extensions are lower case, start with a dot and belong to one kind', () => {
  const kinds = MODEL_ADAPTERS.map((a) => a.kind);
  assert.equal(new Set(kinds).size, kinds.length, `a kind appears twice: ${kinds.join(', ')}`);
  const owner = new Map<string, string>();
  for (const a of MODEL_ADAPTERS) {
    for (const ext of a.extensions as readonly string[]) {
      assert.match(ext, /^\.[a-z0-9]+$/, `${a.kind}: extension "${ext}"`);
      assert.equal(owner.get(ext), undefined, `the extension ${ext} belongs to both ${owner.get(ext)} and ${a.kind}`);
      owner.set(ext, a.kind);
    }
  }
  assert.deepEqual(
    MODEL_FILE_ADAPTERS.map((a) => a.kind),
    fileKinds,
  );
  // the predictions column is given with --pred: no file, so no extension
  assert.deepEqual(modelAdapter('column').extensions, []);
});

test('every file kind of the registry has a Node loader, and nothing else has one', () => {
  assert.deepEqual(Object.keys(LOADERS).sort(), [...fileKinds].sort());
  for (const kind of fileKinds) assert.equal(typeof (LOADERS as Record<string, unknown>)[kind], 'function', kind);
});

test('modelFileKind maps every listed extension, in any case, to its kind', () => {
  for (const a of MODEL_FILE_ADAPTERS) {
    for (const ext of a.extensions) {
      assert.equal(modelFileKind(`dir/model${ext}`), a.kind, ext);
      assert.equal(modelFileKind(`dir/MODEL${ext.toUpperCase()}`), a.kind, ext.toUpperCase());
      assert.equal(adapterForExtension(ext.toUpperCase())?.kind, a.kind, ext);
    }
  }
  assert.equal(adapterForExtension('.pkl'), undefined);
  assert.equal(adapterForExtension(''), undefined);
});

test('a file of no known kind is one E_INPUT line that offers every file kind with its extensions', () => {
  for (const file of ['model.pkl', 'model']) {
    assert.throws(
      () => modelFileKind(file),
      (e: unknown) => {
        assert.ok(e instanceof EngineError && e.code === 'E_INPUT', String(e));
        assert.ok(
          e.message.startsWith(
            `${file}: unknown kind of model (extension "${file === 'model' ? 'none' : '.pkl'}"); expected `,
          ),
          e.message,
        );
        assert.ok(!e.message.includes('\n'), e.message);
        for (const a of MODEL_FILE_ADAPTERS) {
          assert.ok(e.message.includes(a.expects), `${a.kind} (${a.expects}) is not offered: ${e.message}`);
          for (const ext of a.extensions) assert.ok(e.message.includes(ext), `${ext} is not offered: ${e.message}`);
        }
        return true;
      },
    );
  }
  assert.equal(
    expectedModelFiles(),
    'a built-in model (.json), a JS module exporting predict(rows) (.mjs, .js, .cjs, .ts, .mts, .cts), or an ONNX ' +
      'model (.onnx)',
  );
});

test("a missing model file is named by its kind's label", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'lucid-adapters-'));
  const engine = null as unknown as Engine; // the file check comes before anything needs the engine
  for (const a of MODEL_FILE_ADAPTERS) {
    const file = join(dir, `absent${a.extensions[0]}`);
    await assert.rejects(loadBlackBox(engine, file), (e: unknown) => {
      assert.ok(e instanceof EngineError && e.code === 'E_INPUT', String(e));
      assert.equal(e.message, `${file}: ${a.label} not found`);
      return true;
    });
  }
  assert.deepEqual(
    MODEL_FILE_ADAPTERS.map((a) => a.label),
    ['model file', 'model module', 'ONNX model'],
  );
});

test("the help phrase is the registry's, and every command that takes --model uses it", () => {
  // the --help text of lucid audit, check, fale and quality depends on these exact words
  assert.equal(modelFilePhrase(), 'model.json, a .mjs module or an .onnx file');
  for (const a of MODEL_FILE_ADAPTERS) assert.ok(modelFilePhrase().includes(a.describe), a.kind);
  const commands: [string, Command][] = [
    ['audit', auditCommand],
    ['check', check],
    ['fale', faleCommand],
    ['quality', quality],
  ];
  for (const [name, cmd] of commands) {
    const option = cmd.options.find((o) => o.long === '--model');
    assert.ok(option, `lucid ${name} has no --model option`);
    assert.ok(option.description.includes(`(${modelFilePhrase()})`), `lucid ${name} --model: ${option.description}`);
  }
});

test("the not-differentiable message names each kind by the registry's word for it", () => {
  assert.equal(
    notDifferentiableMessage('m.onnx', 'onnx'),
    'LUCID needs gradients; m.onnx is an ONNX model; use LUCID-GAN (lucid gan fit/sample) instead',
  );
  assert.match(notDifferentiableMessage('m.mjs', 'module'), /m\.mjs is a JS module model;/);
  assert.match(notDifferentiableMessage('predictions column "p"', 'column'), /is a predictions-column model;/);
  // a kind outside the registry (a caller's own adapter) reads as itself
  assert.match(notDifferentiableMessage('m.bin', 'xgboost'), /m\.bin is a xgboost model;/);
});
