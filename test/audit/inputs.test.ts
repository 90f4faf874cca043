// An audit's inputs checked before any work, and an audit that was stopped marked as such:
// the model's positive class against --positive (a mismatch reverses every direction), the
// map of its classes onto the data's values (--model-classes), --out and the policy's files checked
// before the GAN, and Ctrl-C or SIGTERM during training: the report written, marked interrupted, and
// exit 130.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkModelClasses } from '../../src/models/blackbox.js';
import { EngineError } from '../../src/engine/errors.js';
import { Rng } from '../../src/engine/rng.js';
import { simulate } from '../../src/data/simulator.js';
import { runAudit } from '../../src/audit/run.js';
import { describeError } from '../../src/cli/handle-error.js';
import { getEngine } from '../helpers/engine.js';
import { lucidCli, lucidSignalled, writeSimModel } from '../helpers/sim-model.js';

const lucid = lucidCli();
const TINY = [
  '--gan-epochs',
  '1',
  '--gan-seeds',
  '1',
  '-n',
  '40',
  '--intersection-rows',
  '0',
  '--fale-bootstrap',
  '0',
  '--allow-small',
];

describe('checkModelClasses', () => {
  const model = (positive: string, values?: string[]) => ({
    source: 'model.json',
    classes: { positive, values, label: 'approved', recordedIn: 'the model file records' },
  });
  const data = { label: 'approved', values: ['no', 'yes'], positive: 'yes', positiveGiven: true };

  it("passes a model whose positive class is the data's, and one that says nothing of its classes", () => {
    checkModelClasses(model('yes', ['no', 'yes']), data);
    checkModelClasses({ source: 'm.mjs' }, data);
  });

  it('a model trained on the other class is a usage error naming both, and the fix', () => {
    assert.throws(
      () => checkModelClasses(model('yes', ['no', 'yes']), { ...data, positive: 'no' }),
      (e: unknown) =>
        e instanceof EngineError &&
        e.code === 'E_ARG' &&
        /records the positive class "yes": it gives the probability of "yes", but the positive class here is "no"/.test(
          e.message,
        ) &&
        /Audit with --positive "yes"/.test(e.message),
    );
    // the default positive class is said to be one
    assert.throws(
      () => checkModelClasses(model('no', ['no', 'yes']), { ...data, positiveGiven: false }),
      /"yes" \(the default: the second of the label’s two values\)/,
    );
  });

  it('a model coded otherwise than the data: not a value of the label, mapped with --model-classes', () => {
    const coded = { label: 'approved', values: ['0', '1'], positive: '1', positiveGiven: true };
    assert.throws(
      () => checkModelClasses(model('yes', ['no', 'yes']), coded),
      /the positive class "yes", which is not a value of the label "approved" \(its values: 0, 1\); .*--model-classes \(e\.g\. no=0,yes=1/,
    );
    checkModelClasses(model('yes', ['no', 'yes']), { ...coded, classMap: { yes: '1', no: '0' } });
    assert.throws(
      () => checkModelClasses(model('yes', ['no', 'yes']), { ...coded, classMap: { yes: '0', no: '1' } }),
      /mapped to "0" by --model-classes\): it gives the probability of "0", but the positive class here is "1"/,
    );
    assert.throws(
      () => checkModelClasses(model('yes', ['no', 'yes']), { ...coded, classMap: { maybe: '1' } }),
      /"maybe" is not a class of model\.json/,
    );
    assert.throws(
      () => checkModelClasses(model('yes', ['no', 'yes']), { ...coded, classMap: { yes: '2' } }),
      /"2" is not a value of the label/,
    );
    assert.throws(
      () => checkModelClasses({ source: 'm.mjs' }, { ...coded, classMap: { yes: '1' } }),
      /records no classes to map/,
    );
  });
});

describe('lucid audit: inputs checked before any work, and an interrupted audit marked', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lucid-inputs-'));
  let data = '';
  let modelFile = '';
  before(async () => {
    ({ data, modelFile } = await writeSimModel(dir));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));
  const base = () => ['audit', '--data', data, '--label', 'approved', '--protected', 'sex,group', '--model', modelFile];

  it(
    'a built-in model trained with one positive class and audited with the other: a usage error within seconds, ' +
      'naming both',
    () => {
      const t0 = Date.now();
      const r = lucid(...base(), '--positive', 'no', '--favourable', 'negative', '--out', join(dir, 'never'));
      assert.equal(r.status, 2, r.stderr);
      assert.match(
        r.stderr,
        /model\.json: the model file records the positive class "yes": it gives the probability of "yes", but the positive class here is "no"/,
      );
      assert.ok(Date.now() - t0 < 15_000, `${Date.now() - t0} ms`);
      assert.ok(!existsSync(join(dir, 'never')), 'nothing written');
    },
  );

  it('data coding the classes as 1/0: refused with the map to give, which then audits', () => {
    const coded = join(dir, 'coded.csv');
    const lines = readFileSync(data, 'utf8').trim().split('\n');
    const j = lines[0].split(',').indexOf('approved');
    writeFileSync(
      coded,
      lines
        .map((l, i) =>
          i === 0
            ? l
            : l
                .split(',')
                .map((c, k) => (k === j ? (c === 'yes' ? '1' : '0') : c))
                .join(','),
        )
        .join('\n') + '\n',
    );
    const args = [
      'audit',
      '--data',
      coded,
      '--label',
      'approved',
      '--protected',
      'sex,group',
      '--model',
      modelFile,
      '--positive',
      '1',
      ...TINY,
      '--quiet',
    ];
    const r = lucid(...args, '--out', join(dir, 'coded-never'));
    assert.equal(r.status, 2, r.stderr);
    assert.match(
      r.stderr,
      /the positive class "yes", which is not a value of the label "approved" \(its values: 0, 1\).*--model-classes/,
    );
    const ok = lucid(...args, '--model-classes', 'yes=1,no=0', '--out', join(dir, 'coded'));
    assert.equal(ok.status, 0, ok.stderr);
    assert.match(ok.stdout, /model fit: accuracy \d+\.\d%/);
  });

  it('--out that is a file, or under one: a usage error before any work, saying a folder was expected', () => {
    const file = join(dir, 'a-file');
    writeFileSync(file, 'x');
    for (const out of [file, join(file, 'sub')]) {
      const t0 = Date.now();
      const r = lucid(...base(), '--positive', 'yes', '--out', out);
      assert.equal(r.status, 2, r.stderr);
      assert.match(
        r.stderr,
        /^lucid: error: --out .*a-file.*: (is a file|a part of the path is a file); expected a folder to write the report in/,
      );
      assert.ok(Date.now() - t0 < 15_000);
    }
    // the policy's files too
    const policy = join(dir, 'p.json');
    writeFileSync(
      policy,
      JSON.stringify({ version: 1, rules: [{ metric: 'four_fifths', attribute: 'sex', min: 0.8 }] }),
    );
    mkdirSync(join(dir, 'a-folder'), { recursive: true });
    const md = lucid(
      ...base(),
      '--positive',
      'yes',
      '--policy',
      policy,
      '--markdown',
      join(dir, 'a-folder'),
      '--out',
      join(dir, 'md-never'),
    );
    assert.equal(md.status, 2, md.stderr);
    assert.match(md.stderr, /--markdown .*a-folder: is a folder; expected a file to write/);
    const bl = lucid(
      ...base(),
      '--positive',
      'yes',
      '--policy',
      policy,
      '--baseline',
      join(dir, 'no-such.json'),
      '--out',
      join(dir, 'bl-never'),
    );
    assert.equal(bl.status, 1, bl.stderr);
    assert.match(bl.stderr, /no-such\.json: file not found/);
    assert.ok(!existsSync(join(dir, 'md-never')) && !existsSync(join(dir, 'bl-never')));
  });

  // SIGINT with the seeds one after another (the second is never started), SIGTERM with them side by side (both cut
  // short)
  for (const [signal, sideBySide] of [
    ['SIGINT', 'off'],
    ['SIGTERM', 'on'],
  ] as const) {
    it(
      `${signal} during the GAN training (seeds ${sideBySide === 'on' ? 'side by side' : 'one after another'}): the ` +
        `audit finishes early, its report and audit.json are marked interrupted, exit 130`,
      async () => {
        const out = join(dir, `int-${signal}`);
        // a moment of training first, then one signal
        const { code, stdout, stderr } = await lucidSignalled(
          [
            ...base(),
            '--positive',
            'yes',
            '--gan-epochs',
            '100000',
            '--gan-seeds',
            '2',
            '-n',
            '40',
            '--intersection-rows',
            '0',
            '--fale-bootstrap',
            '0',
            '--threads',
            '2',
            '--gan-side-by-side',
            sideBySide,
            '--out',
            out,
          ],
          (e) => e.includes('lucid: audit: gan…'),
          signal,
          1500,
        );
        assert.equal(code, 130, stderr);
        assert.match(stderr, new RegExp(`lucid: interrupted \\(${signal}\\): ending LUCID-GAN training early`));
        const trained =
          sideBySide === 'on'
            ? '2 of 2 LUCID-GANs trained \\(epochs \\d+, \\d+ of 100000\\)'
            : '1 of 2 LUCID-GANs trained \\(epochs \\d+ of 100000\\)';
        assert.match(
          stderr,
          new RegExp(
            `lucid: interrupted \\(${signal}\\): INTERRUPTED during the LUCID-GAN training: the audit was finished ` +
              `early with ${trained}`,
          ),
        );
        assert.match(stdout, new RegExp(`^lucid: ${signal}: INTERRUPTED during the LUCID-GAN training`));
        const html = readFileSync(join(out, 'report.html'), 'utf8');
        assert.match(html, /<title>INTERRUPTED — /);
        assert.match(
          html,
          new RegExp(
            `<header>\\n<p class="alert" id="interrupted" role="alert">${signal}: INTERRUPTED during the LUCID-GAN ` +
              `training`,
          ),
        );
        const meta = JSON.parse(readFileSync(join(out, 'audit.json'), 'utf8')).meta;
        assert.equal(meta.interrupted.signal, signal);
        assert.equal(meta.interrupted.stage, 'gan');
        assert.equal(meta.interrupted.cutShort, true);
        assert.deepEqual(
          [meta.interrupted.gan.seedsAsked, meta.interrupted.gan.seedsTrained],
          [2, sideBySide === 'on' ? 2 : 1],
        );
      },
    );
  }

  it(
    'a stop asked before the GANs train ends the audit there: nothing written, exit 130 (not a report of an ' +
      'untrained generator)',
    async () => {
      const engine = await getEngine();
      const table = simulate(new Rng(engine, 3), { n: 300, bias: 'direct' }).table;
      const p = Float64Array.from({ length: 300 }, (_, i) => (i % 3 === 0 ? 0.8 : 0.2));
      const withPred = { rows: 300, columns: [...table.columns, { kind: 'numeric' as const, name: 'p', values: p }] };
      const err = await runAudit(engine, withPred, {
        label: 'approved',
        positive: 'yes',
        protected: ['sex'],
        pred: 'p',
        shouldStop: () => true,
      }).then(
        () => null,
        (e: unknown) => e,
      );
      assert.ok(err instanceof EngineError && err.code === 'E_STOPPED', String(err));
      assert.deepEqual(describeError(err), {
        text: 'lucid: interrupted: audit: stopped before the LUCID-GAN training began; nothing was written\n',
        exit: 130,
      });
    },
  );

  it('an audit that runs to the end is not marked', () => {
    const out = join(dir, 'whole');
    const r = lucid(...base(), '--positive', 'yes', ...TINY, '--quiet', '--out', out);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(JSON.parse(readFileSync(join(out, 'audit.json'), 'utf8')).meta.interrupted, null);
    assert.doesNotMatch(readFileSync(join(out, 'report.html'), 'utf8'), /id="interrupted"/);
  });
});
