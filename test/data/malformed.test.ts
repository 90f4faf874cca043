// The malformed-file corpus, read through the library and through `lucid inspect` as a user runs it.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { EngineError } from '../../src/engine/errors.js';
import { readCsv } from '../../src/node/csv.js';
import { MALFORMED, cliArgs, type MalformedCase } from './malformed.table.js';

const dir = fileURLToPath(new URL('../../../test/fixtures/malformed/', import.meta.url));
const bin = fileURLToPath(new URL('../../../bin/lucid.js', import.meta.url));
const pathOf = (c: MalformedCase) => dir + c.file;
const expected = (c: MalformedCase) => c.message.replaceAll('{file}', pathOf(c));

describe('malformed-file corpus', () => {
  it('has one table row per committed file, at least 20 files', () => {
    const files = readdirSync(dir).sort();
    const listed = MALFORMED.map((c) => c.file).filter((f) => f !== 'does-not-exist.csv');
    assert.ok(files.length >= 20, `${files.length} files`);
    assert.deepEqual([...listed].sort(), files);
    assert.equal(new Set(listed).size, listed.length, 'each file once');
  });

  for (const c of MALFORMED) {
    it(`readCsv: ${c.file}`, async () => {
      if (c.kind === 'warning') {
        const { report } = await readCsv(pathOf(c), c.opts);
        assert.deepEqual(report.warnings, [expected(c)]);
        return;
      }
      await assert.rejects(readCsv(pathOf(c), c.opts), (err: unknown) => {
        assert.ok(err instanceof EngineError, String(err));
        assert.equal(err.code, c.exit === 2 ? 'E_ARG' : 'E_INPUT');
        assert.equal(err.message, expected(c));
        return true;
      });
    });
  }

  it('lucid inspect: one line on stderr, no stack trace, the exit code of each case', async () => {
    const run = promisify(execFile);
    const results = new Map<string, { code: number; stderr: string }>();
    const queue = [...MALFORMED];
    const worker = async () => {
      for (let c = queue.shift(); c; c = queue.shift()) {
        const r = await run(process.execPath, [bin, 'inspect', '--data', pathOf(c), ...cliArgs(c.opts)], {
          encoding: 'utf8',
        }).then(
          (ok) => ({ code: 0, stderr: ok.stderr }),
          (e: { code: number; stderr: string }) => ({ code: e.code, stderr: e.stderr }),
        );
        results.set(c.file, r);
      }
    };
    await Promise.all([worker(), worker(), worker(), worker()]);
    for (const c of MALFORMED) {
      const r = results.get(c.file)!;
      const prefix = c.kind === 'error' ? 'lucid: error: ' : 'lucid: warning: ';
      assert.equal(r.stderr, `${prefix}${expected(c)}\n`, c.file);
      assert.equal(r.code, c.exit, `${c.file}: exit code`);
    }
  });

  it('--debug adds the stack trace after the message', async () => {
    const c = MALFORMED.find((x) => x.file === 'ragged-long.csv')!;
    const r = await promisify(execFile)(process.execPath, [bin, 'inspect', '--debug', '--data', pathOf(c)]).catch(
      (e: { code: number; stderr: string }) => e,
    );
    assert.equal((r as { code: number }).code, 1);
    const lines = String(r.stderr).trimEnd().split('\n');
    assert.equal(lines[0], `lucid: error: ${expected(c)}`);
    assert.match(lines[1], /^EngineError: /);
    assert.match(lines[2], /^\s+at /);
  });
});
