// The commands of the `lucid` program, walked from the program object (src/cli/program.ts), with one
// cheap invocation of each on tiny data: the conventions tests (test/cli/conventions.test.ts, and
// test/full/conventions.test.ts for the slow ones) run every command through the same checks.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command, Option } from 'commander';
import { leafCommands, requiredOptions } from '../../src/cli/program.js';
import { LUCID_BIN } from './sim-model.js';

export const lucid = (...args: string[]) => spawnSync(process.execPath, [LUCID_BIN, ...args], { encoding: 'utf8' });
/** A stack trace line in stderr. */
export const STACK = /\n\s+at .*:\d+:\d+/;

export interface CliFixture {
  /** a valid, cheap invocation (the command's path first, no --format) */
  args: string[];
  /** the same with a misspelt column name (every command that takes column names has one) */
  badColumn?: string[];
  /** why its --format json run is too slow for test/cli: it runs in test/full (LUCID_TEST_FULL=1) */
  slow?: string;
  /**
   * for an input-file option `args` cannot give (it would make the run slow, or needs another option): an invocation
   * that gives it
   */
  withFile?: Record<string, string[]>;
}

/**
 * The tiny data of the fixtures, written to `dir`: d.csv (60 rows: x numeric, g categorical, y
 * label learnable from x), m.json (a logistic model of y), r.json (a linear regression of x), g.lgan (a 1-epoch
 * LUCID-GAN of d.csv), policy.json (a fairness policy that passes on d.csv) and baseline.json (its lucid check result);
 * bad.csv and bad.json are malformed (gzip magic, not a CSV or JSON file).
 */
export function writeFixtureFiles(dir: string): void {
  const lines = ['x,g,y'];
  for (let i = 0; i < 60; i++) lines.push(`${(i / 6).toFixed(2)},${i % 3 === 0 ? 'a' : 'b'},${i >= 30 ? 'yes' : 'no'}`);
  writeFileSync(join(dir, 'd.csv'), lines.join('\n') + '\n');
  const bad = Uint8Array.from([0x1f, 0x8b, 0x08, 0x00, 0x67, 0x61, 0x72, 0x62, 0x61, 0x67, 0x65]);
  writeFileSync(join(dir, 'bad.csv'), bad);
  writeFileSync(join(dir, 'bad.json'), bad);
  const run = (...args: string[]) => {
    const r = lucid(...args);
    if (r.status !== 0) throw new Error(`fixture: lucid ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  };
  run(
    'model',
    'train',
    '--data',
    join(dir, 'd.csv'),
    '--label',
    'y',
    '--hidden',
    'none',
    '--epochs',
    '300',
    '--val-fraction',
    '0',
    '--quiet',
    '--out',
    join(dir, 'm.json'),
  );
  // lucid invert reads --data for a regressor's quantile band
  run(
    'model',
    'train',
    '--data',
    join(dir, 'd.csv'),
    '--label',
    'x',
    '--drop',
    'y',
    '--output',
    'regression',
    '--hidden',
    'none',
    '--epochs',
    '20',
    '--val-fraction',
    '0',
    '--quiet',
    '--out',
    join(dir, 'r.json'),
  );
  run('gan', 'fit', '--data', join(dir, 'd.csv'), '--epochs', '1', '--quiet', '--out', join(dir, 'g.lgan'));
  // lucid check: a policy that passes on d.csv with y as its own prediction (g = a has 20 rows: insufficient data), and
  // its result as a baseline
  writeFileSync(
    join(dir, 'policy.json'),
    JSON.stringify({
      version: 1,
      inputs: { label: 'y', pred: 'y' },
      rules: [
        { metric: 'tpr', attribute: 'g', min: 0.5 },
        { metric: 'four_fifths', attribute: 'g', min: 0.8 },
      ],
    }),
  );
  const base = lucid('check', '--data', join(dir, 'd.csv'), '--policy', join(dir, 'policy.json'), '--format', 'json');
  if (base.status !== 0) throw new Error(`fixture: lucid check exited ${base.status}: ${base.stderr}`);
  writeFileSync(join(dir, 'baseline.json'), base.stdout);
}

/** One fixture per command of the program, keyed by its path ("gan fit"). */
export function cliFixtures(dir: string): Record<string, CliFixture> {
  const d = join(dir, 'd.csv');
  const m = join(dir, 'm.json');
  const out = (name: string) => join(dir, name);
  const audit = [
    'audit',
    '--data',
    d,
    '--label',
    'y',
    '--model',
    m,
    '--allow-small',
    '--gan-epochs',
    '1',
    '-n',
    '20',
    '--intersection-rows',
    '0',
    '--fale-bootstrap',
    '0',
    '--gan-seeds',
    '1',
    '--quiet',
    '--out',
    out('audit'),
  ];
  return {
    audit: {
      args: [...audit, '--protected', 'g'],
      badColumn: [...audit, '--protected', 'gg'],
      withFile: {
        '--baseline': [
          ...audit,
          '--protected',
          'g',
          '--policy',
          join(dir, 'policy.json'),
          '--baseline',
          join(dir, 'baseline.json'),
        ],
        '--gan': [...audit, '--protected', 'g', '--gan', join(dir, 'g.lgan')],
      },
    },
    check: {
      args: ['check', '--data', d, '--policy', join(dir, 'policy.json'), '--baseline', join(dir, 'baseline.json')],
      badColumn: ['check', '--data', d, '--policy', join(dir, 'policy.json'), '--label', 'gg'],
      // with --model the check runs the audit (a GAN): only the malformed-model case, which fails before it
      withFile: {
        '--model': ['check', '--data', d, '--policy', join(dir, 'policy.json'), '--model', m],
        '--gan': [
          'check',
          '--data',
          d,
          '--policy',
          join(dir, 'policy.json'),
          '--model',
          m,
          '--gan',
          join(dir, 'g.lgan'),
        ],
      },
    },
    'dataset export': { args: ['dataset', 'export', 'sim', '--rows', '200', '--out', out('sim.csv')] },
    demo: { args: ['demo', '--gan-epochs', '1', '--quiet', '--out', out('demo')], slow: 'three audits of 2000 rows' },
    fale: {
      args: ['fale', '--model', m, '--data', d, '--label', 'y', '--protected', 'g=a'],
      badColumn: ['fale', '--model', m, '--data', d, '--label', 'y', '--protected', 'gg=a'],
    },
    'gan fit': {
      args: ['gan', 'fit', '--data', d, '--epochs', '1', '--quiet', '--out', out('g2.lgan')],
      badColumn: ['gan', 'fit', '--data', d, '--condition', 'xx', '--epochs', '1', '--quiet', '--out', out('g3.lgan')],
    },
    'gan sample': {
      args: ['gan', 'sample', '--model', join(dir, 'g.lgan'), '-n', '10', '--out', out('s.csv')],
      badColumn: ['gan', 'sample', '--model', join(dir, 'g.lgan'), '-n', '10', '--fix', 'gg=a', '--out', out('s.csv')],
    },
    inspect: { args: ['inspect', '--data', d], badColumn: ['inspect', '--data', d, '--numeric', 'xx'] },
    invert: {
      args: ['invert', '--model', m, '--prefer', 'yes', '-n', '20', '--epochs', '10', '--out', out('c.csv')],
      // --data gives the rows of a regressor's quantile band
      withFile: {
        '--data': [
          'invert',
          '--model',
          join(dir, 'r.json'),
          '--band',
          '0.9-1',
          '--data',
          d,
          '-n',
          '5',
          '--epochs',
          '2',
          '--out',
          out('c.csv'),
        ],
      },
    },
    metrics: {
      args: ['metrics', '--data', d, '--label', 'y', '--pred', 'y', '--group', 'g'],
      badColumn: ['metrics', '--data', d, '--label', 'y', '--pred', 'y', '--group', 'gg'],
    },
    'model train': {
      args: ['model', 'train', '--data', d, '--label', 'y', '--epochs', '5', '--quiet', '--out', out('m2.json')],
      badColumn: ['model', 'train', '--data', d, '--label', 'yy', '--epochs', '5', '--quiet', '--out', out('m2.json')],
    },
    'model predict': {
      args: ['model', 'predict', '--model', m, '--data', d, '--out', out('p.csv')],
      badColumn: ['model', 'predict', '--model', m, '--data', d, '--drop', 'zz', '--out', out('p.csv')],
    },
    quality: {
      args: ['quality', '--real', d, '--synthetic', d, '--model', m, '--condition', 'preds=1'],
      badColumn: ['quality', '--real', d, '--synthetic', d, '--ignore', 'xx'],
      withFile: { '--held-out': ['quality', '--real', d, '--synthetic', d, '--held-out', d] },
    },
    selfcheck: { args: ['selfcheck', '--steps', '50'] },
  };
}

export interface ProgramCommand {
  /** as typed: "gan fit" */
  name: string;
  path: string[];
  command: Command;
}

/** Every runnable command of the program (from the program object, not a list kept here). */
export const programCommands = (): ProgramCommand[] =>
  leafCommands().map((c) => ({ name: c.path.join(' '), path: c.path, command: c.command }));

const visible = (c: Command): Option[] => c.options.filter((o) => !o.hidden);

/**
 * Whether a command takes column names: an option whose value names columns (--label <column>, --protected <names>,
 * --fix <col=category>, every data option).
 */
export const takesColumns = (c: Command) => visible(c).some((o) => /<(column|names|col)\b/.test(o.flags));

/** The command's options that read an input file (<file> values but --out): a malformed file there must exit 1. */
export const inputFileOptions = (c: Command) =>
  visible(c)
    .filter((o) => /<file>/.test(o.flags) && o.long !== '--out')
    .map((o) => o.long!);

/** A misspelling of one of the command's own optional options (its last letter doubled), e.g. --seedd. */
export function misspeltOption(c: Command): string {
  const required = requiredOptions(c);
  const o = visible(c).find((x) => !required.includes(x) && x.long && x.long !== '--help' && !x.negate);
  if (!o) throw new Error(`${c.name()}: no optional option to misspell`);
  return o.long! + o.long!.slice(-1);
}

/** The choices of the command's --format, or null when it has none. */
export const formatChoices = (c: Command): readonly string[] | null =>
  c.options.find((o) => o.long === '--format')?.argChoices ?? null;
