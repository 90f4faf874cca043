// The suite of test/cli/examples.test.ts and test/full/examples.test.ts: each runs the blocks on its
// side of slowReason and lists the others as skipped, saying where they run, so no example is left out.
// The blocks are every command's --help examples and the README's `npx lucid` lines; those that need
// the Adult and COMPAS files run with them where they are, the others with no data folder.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, rmSync } from 'node:fs';
import { TEXT_WIDTH } from '../../src/report/format.js';
import {
  copyOf,
  DATA_HEADING,
  dataSkip,
  type ExampleBlock,
  exampleBlocks,
  exampleShell,
  expectedExit,
  NO_DATA_DIR,
  prepareReadmeFiles,
  readmeBlocks,
  slowReason,
} from './examples.js';

function runBlocks(
  side: 'cheap' | 'slow',
  blocks: ExampleBlock[],
  withData: boolean,
  dir: () => string,
  made: string[],
): void {
  const sh = exampleShell(withData);
  made.push(sh.dir);
  for (const b of blocks) {
    const slow = slowReason(b);
    const here = side === 'slow' ? slow !== false : slow === false;
    const elsewhere =
      side === 'slow'
        ? 'cheap: in test/cli/examples.test.ts'
        : `slow (${slow}): in test/full/examples.test.ts (npm run test:full)`;
    it(`${b.command}: ${b.lines.length} example line(s)`, { skip: here ? false : elsewhere }, () => {
      const cwd = copyOf(dir(), b.command);
      made.push(cwd);
      for (const line of b.lines) {
        const r = sh.run(line, cwd);
        assert.equal(r.status, expectedExit(line), `${line}\nexited ${r.status}: ${r.stderr}`);
        assert.doesNotMatch(r.stderr, /lucid: error/, line);
        // a text summary keeps to 120 characters a line (JSON, CSV and check's Markdown are for programs and CI pages)
        if (!/--format (json|csv|svg)|^lucid check\b/.test(line)) {
          const wide = r.stdout.split('\n').filter((l) => [...l].length > TEXT_WIDTH);
          assert.deepEqual(wide, [], `${line}: stdout lines over ${TEXT_WIDTH} characters`);
        }
      }
    });
  }
}

export function examplesSuite(side: 'cheap' | 'slow', skipAll: string | false): void {
  const readme = readmeBlocks();
  const blocks = [...exampleBlocks().map((b) => ({ ...b, command: `lucid ${b.command}` })), ...readme.noData];
  const dataBlocks = [
    ...exampleBlocks(DATA_HEADING)
      .filter((b) => b.lines.length > 0)
      .map((b) => ({ ...b, command: `lucid ${b.command}` })),
    ...readme.data,
  ];
  let dir = '';
  const made: string[] = [];
  before(() => {
    if (!skipAll) dir = prepareReadmeFiles();
    made.push(dir);
  });
  after(() => {
    for (const d of made) if (d) rmSync(d, { recursive: true, force: true });
  });

  describe(`the --help examples and the README's commands (${side}), run as written with no data folder`, {
    skip: skipAll,
    timeout: 3_600_000,
  }, () => {
    it('every command has examples, and no data folder is there to lean on', () => {
      assert.equal(existsSync(NO_DATA_DIR), false, NO_DATA_DIR);
      assert.ok(blocks.length >= 15);
      for (const b of blocks) assert.ok(b.lines.length > 0, `${b.command} has no example lines`);
    });
    runBlocks(side, blocks, false, () => dir, made);
  });

  // the lines under "With the Adult and COMPAS files …:" and the README's Adult section, where the data is
  describe(`the examples that need the Adult and COMPAS files (${side})`, {
    skip: skipAll || dataSkip(),
    timeout: 3_600_000,
  }, () => {
    it('name the data they need', () => {
      for (const b of dataBlocks) for (const l of b.lines) assert.match(l, /\b(adult|compas)\b/i, l);
    });
    runBlocks(side, dataBlocks, true, () => dir, made);
  });
}
