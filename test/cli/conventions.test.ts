// What every command promises, checked on EVERY command of the program (walked from the
// program object, so a new command is checked as soon as it is wired): --help with a worked example;
// --format with a json choice, whose stdout parses as JSON; one rule for exit codes: a misspelt option
// and a misspelt column name exit 2, a malformed input file exits 1; no stack trace without --debug.
// The --format json runs too slow for here (the fixture's `slow`) run in test/full/conventions.test.ts.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXIT } from '../../src/cli/handle-error.js';
import type { Option } from 'commander';
import { requiredOptions } from '../../src/cli/program.js';
import {
  cliFixtures,
  formatChoices,
  inputFileOptions,
  lucid,
  misspeltOption,
  programCommands,
  STACK,
  takesColumns,
  writeFixtureFiles,
} from '../helpers/cli-fixtures.js';

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `args` without option `o` and its value (given by its long or its short flag). */
function withoutOption(args: readonly string[], o: Option): string[] {
  const i = args.findIndex((a) => a === o.long || a === o.short);
  if (i < 0) return args.slice();
  return [...args.slice(0, i), ...args.slice(i + (o.required || o.optional ? 2 : 1))];
}

const dir = mkdtempSync(join(tmpdir(), 'lucid-conv-'));
const fixtures = cliFixtures(dir);
const commands = programCommands();

describe('CLI conventions, every command', () => {
  before(() => writeFixtureFiles(dir));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('the program has the commands the fixtures cover, and each fixture is a command of the program', () => {
    assert.ok(commands.length >= 13, `only ${commands.length} commands found in the program`);
    assert.deepEqual(commands.map((c) => c.name).sort(), Object.keys(fixtures).sort());
  });

  it('the exit codes: 0 ok, 1 data and model errors, 2 usage errors, 3 a failing fairness policy (lucid check)', () => {
    assert.deepEqual({ ...EXIT }, { ok: 0, runtime: 1, usage: 2, policy: 3, interrupted: 130 });
  });

  for (const { name, path, command } of commands) {
    // a command without a fixture fails the first test; here it gets its bare path
    const fx = fixtures[name] ?? { args: path };
    describe(`lucid ${name}`, () => {
      it('--help exits 0 and shows a worked example', () => {
        const r = lucid(...path, '--help');
        assert.equal(r.status, 0, r.stderr);
        assert.match(r.stdout, /Examples?\b[^\n]*:\n\s+lucid /, `no worked example in lucid ${name} --help`);
      });

      it('has --format with a json choice', () => {
        const choices = formatChoices(command);
        assert.ok(choices, `lucid ${name} has no --format`);
        assert.ok(choices.includes('json'), `lucid ${name} --format: ${choices.join(', ')}`);
      });

      // commander's errors, as the one error handler words them: one line, `lucid: error:`, and where to look
      const usageLine = (r: { status: number | null; stderr: string }, what: RegExp) => {
        assert.equal(r.status, EXIT.usage, r.stderr);
        assert.match(r.stderr, new RegExp(`^lucid: error: ${what.source}.*; see lucid ${name} --help\n$`), r.stderr);
      };

      it('a misspelt option exits 2 with one line, lucid: error: and a pointer to --help, no stack trace', () => {
        const bad = misspeltOption(command);
        const r = lucid(...fx.args, bad);
        usageLine(r, new RegExp(`unknown option '${bad}'`));
        assert.doesNotMatch(r.stderr, STACK);
      });

      const required = requiredOptions(command).filter((o) => !o.hidden);
      if (required.length > 0) {
        it('each missing required option exits 2 with one line naming it and a pointer to --help', () => {
          for (const o of required) {
            const args = withoutOption(fx.args, o);
            assert.notDeepEqual(args, fx.args, `the fixture of lucid ${name} does not give ${o.flags}`);
            usageLine(lucid(...args), new RegExp(`required option '${escapeRegExp(o.flags)}' not specified`));
          }
        });

        const typo = required.find((o) => o.long && !command.options.some((x) => x.long === o.long!.slice(0, -1)));
        if (typo) {
          it(
            `a typo of a required option (${typo.long!.slice(0, -1)}) is an unknown option, not a missing ` +
              `${typo.long}`,
            () => {
              const args = fx.args.map((a) => (a === typo.long ? a.slice(0, -1) : a));
              usageLine(lucid(...args), new RegExp(`unknown option '${escapeRegExp(typo.long!.slice(0, -1))}'`));
            },
          );
        }
      }

      const choice =
        command.options.find((o) => !o.hidden && o.argChoices && o.long !== '--format') ??
        command.options.find((o) => o.long === '--format');
      if (choice) {
        it(`a value not among ${choice.long}'s choices exits 2 naming them, with a pointer to --help`, () => {
          usageLine(
            lucid(...fx.args, choice.long!, 'zzz'),
            new RegExp(
              `option '${escapeRegExp(choice.flags)}' argument 'zzz' is invalid\\. Allowed choices are ` +
                `${escapeRegExp(choice.argChoices!.join(', '))}`,
            ),
          );
        });
      }

      if (command.registeredArguments.some((a) => a.required)) {
        it('a missing argument exits 2 with one line and a pointer to --help', () => {
          usageLine(lucid(...path), /missing required argument '\w+'/);
        });
      }

      if (takesColumns(command)) {
        it('a misspelt column name exits 2, naming it, no stack trace', () => {
          assert.ok(fx.badColumn, `lucid ${name} takes column names: its fixture needs a badColumn invocation`);
          const r = lucid(...fx.badColumn);
          assert.equal(r.status, EXIT.usage, r.stderr);
          assert.match(r.stderr, /^lucid: error: .*"(gg|xx|yy|zz)" is not a (discrete )?column/);
          assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
          assert.doesNotMatch(r.stderr, STACK);
        });
      }

      for (const opt of inputFileOptions(command)) {
        it(`a malformed ${opt} file exits 1 with one line naming it, no stack trace (with --debug: the stack)`, () => {
          const args = (fx.withFile?.[opt] ?? fx.args).slice();
          const i = args.indexOf(opt);
          assert.ok(i >= 0, `the fixture of lucid ${name} does not give ${opt}`);
          args[i + 1] = join(dir, opt === '--model' ? 'bad.json' : 'bad.csv');
          const r = lucid(...args);
          assert.equal(r.status, EXIT.runtime, r.stderr);
          assert.match(r.stderr, /^lucid: error: .*bad\.(csv|json)/);
          assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
          assert.doesNotMatch(r.stderr, STACK);
          const debug = lucid('--debug', ...args);
          assert.equal(debug.status, EXIT.runtime);
          assert.match(debug.stderr, STACK);
        });
      }

      it('--format json prints one JSON object on stdout', {
        skip: fx.slow ? `slow (${fx.slow}): in test/full/conventions.test.ts` : false,
      }, () => {
        const r = lucid(...fx.args, '--format', 'json');
        assert.equal(r.status, 0, r.stderr);
        const j = JSON.parse(r.stdout) as unknown;
        assert.equal(typeof j, 'object');
        assert.ok(j !== null);
      });
    });
  }

  it(
    "dataset export sim writes the simulator's table, the same for the same seed; an unknown data set is a usage " +
      'error',
    () => {
      const out = join(dir, 'sim.csv');
      const r = lucid(
        'dataset',
        'export',
        'sim',
        '--bias',
        'proxy',
        '--rows',
        '200',
        '--seed',
        '4',
        '--format',
        'json',
        '--out',
        out,
      );
      assert.equal(r.status, 0, r.stderr);
      const j = JSON.parse(r.stdout);
      assert.equal(j.rows, 200);
      assert.ok(j.columns.includes('neighbourhood') && j.columns.includes('approved'));
      const again = lucid(
        'dataset',
        'export',
        'sim',
        '--bias',
        'proxy',
        '--rows',
        '200',
        '--seed',
        '4',
        '--out',
        join(dir, 'sim2.csv'),
      );
      assert.equal(again.status, 0);
      assert.equal(readFileSync(out, 'utf8'), readFileSync(join(dir, 'sim2.csv'), 'utf8'));
      const bad = lucid('dataset', 'export', 'iris', '--out', join(dir, 'x.csv'));
      assert.equal(bad.status, 2);
      assert.match(bad.stderr, /unknown data set "iris"/);
    },
  );

  it('--format json results: model train, model predict, invert', () => {
    const t = JSON.parse(lucid(...fixtures['model train'].args, '--format', 'json').stdout);
    assert.equal(t.positive, 'yes');
    assert.equal(JSON.parse(lucid(...fixtures['model predict'].args, '--format', 'json').stdout).rows, 60);
    assert.equal(JSON.parse(lucid(...fixtures.invert.args, '--format', 'json').stdout).samples, 20);
  });

  it(
    "the program's own errors: an unknown command, a bad --threads, no command at all: lucid: error: and a pointer " +
      'to lucid --help, exit 2',
    () => {
      for (const [args, what] of [
        [['frob'], /unknown command 'frob'/],
        [['--threads', '0', 'selfcheck'], /option '--threads <n>' argument '0' is invalid/],
        [[], /lucid needs one of the commands listed above/],
        [['help', 'frob'], /unknown command 'frob'/],
        [['--threads', '1', 'help', 'frob'], /unknown command 'frob'/],
      ] as const) {
        const r = lucid(...args);
        assert.equal(r.status, EXIT.usage, r.stderr);
        assert.match(r.stderr, new RegExp(`(^|\\n)lucid: error: ${what.source}.*; see lucid --help\\n$`), r.stderr);
      }
      const typo = lucid('audit', '--protect', 'sex');
      assert.equal(
        typo.stderr,
        "lucid: error: unknown option '--protect' (did you mean --protected?); see lucid audit --help\n",
      );
    },
  );

  it('a missing required option exits 2; a missing model file exits 1 naming it', () => {
    const usage = lucid('model', 'train', '--data', join(dir, 'd.csv'));
    assert.equal(usage.status, 2);
    assert.doesNotMatch(usage.stderr, STACK);
    const runtime = lucid(
      'model',
      'predict',
      '--model',
      join(dir, 'missing.json'),
      '--data',
      join(dir, 'd.csv'),
      '--out',
      join(dir, 'x.csv'),
    );
    assert.equal(runtime.status, 1, runtime.stderr);
    assert.match(runtime.stderr, /missing\.json/);
    assert.doesNotMatch(runtime.stderr, STACK);
  });

  it('a misspelt column names the file and the close columns', () => {
    const r = lucid('metrics', '--data', join(dir, 'd.csv'), '--label', 'Y', '--pred', 'y', '--group', 'g');
    assert.equal(r.status, 2);
    assert.equal(
      r.stderr,
      `lucid: error: ${join(dir, 'd.csv')}: --label "Y" is not a column (did you mean "y"?); the columns are: x, g, ` +
        `y\n`,
    );
  });
});
