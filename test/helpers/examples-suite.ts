// The suite of test/cli/examples.test.ts and test/full/examples.test.ts: each runs the blocks on its
// side of slowReason and lists the others as skipped, saying where they run, so no example is left out.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { adultSkip, copyOf, exampleBlocks, exampleShell, expectedExit, prepareReadmeFiles, slowReason } from './examples.js';

export function examplesSuite(side: 'cheap' | 'slow', skipAll: string | false): void {
  const blocks = exampleBlocks();
  const skip = skipAll || adultSkip();
  describe(`the --help examples (${side}), run as written on the README's files`, { skip, timeout: 3_600_000 }, () => {
    let dir = '';
    const made: string[] = [];
    before(() => {
      dir = prepareReadmeFiles();
      made.push(dir);
    });
    after(() => {
      for (const d of made) rmSync(d, { recursive: true, force: true });
    });

    it('every command has examples', () => {
      assert.ok(blocks.length >= 13);
      for (const b of blocks) assert.ok(b.lines.length > 0, `lucid ${b.command} --help has no example lines`);
    });

    const sh = exampleShell();
    made.push(sh.dir);
    for (const b of blocks) {
      const slow = slowReason(b);
      const here = side === 'slow' ? slow !== false : slow === false;
      const elsewhere = side === 'slow' ? 'cheap: in test/cli/examples.test.ts' : `slow (${slow}): in test/full/examples.test.ts (npm run test:full)`;
      it(`lucid ${b.command}: ${b.lines.length} example line(s)`, { skip: here ? false : elsewhere }, () => {
        const cwd = copyOf(dir, b.command);
        made.push(cwd);
        for (const line of b.lines) {
          const r = sh.run(line, cwd);
          assert.equal(r.status, expectedExit(line), `${line}\nexited ${r.status}: ${r.stderr}`);
          assert.doesNotMatch(r.stderr, /lucid: error/, line);
        }
      });
    }
  });
}
