// `lucid audit` of a score, a class among k and a real value: the simulator plants a disparity against group B in
// each target's prediction (direct bias), and the audit must say which kind it read and why, name B in its headline,
// show the kind's sections and none of the binary-only ones, write the typed metrics, and refuse a flag that does not
// fit the output with one clear usage error (exit 2, no stack trace) before any work. A built-in multiclass model and
// a regressor are audited through --model, their declared output deciding the kind.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simulate, type SimTarget } from '../../src/data/simulator.js';
import { Rng } from '../../src/engine/rng.js';
import { writeCsv } from '../../src/node/csv.js';
import { EXIT } from '../../src/cli/handle-error.js';
import { lucid, STACK } from '../helpers/cli-fixtures.js';
import { getEngine } from '../helpers/engine.js';
import { SECTIONS } from '../../src/report/sections.js';

const dir = mkdtempSync(join(tmpdir(), 'lucid-output-audit-'));
const data = (t: SimTarget) => join(dir, `${t}.csv`);
/** the binary audit's own sections: none of them is in a score, multiclass or regression report */
const BINARY_ONLY = ['findings', 'canonical', 'proxy', 'intersections', 'lucid', 'fale', 'how-to-read'];

before(async () => {
  const engine = await getEngine();
  for (const target of ['score', 'multiclass', 'regression'] as const)
    await writeCsv(data(target), simulate(new Rng(engine, 5), { n: 2000, bias: 'direct', target }).table);
});

/** Runs an audit into a fresh folder; its status, stdout, stderr, and the folder. */
function audit(name: string, ...args: string[]) {
  const out = join(dir, name);
  const r = lucid('audit', ...args, '--protected', 'sex,group', '--quiet', '--out', out);
  return { ...r, out, html: () => readFileSync(join(out, 'report.html'), 'utf8') };
}

const CASES: { target: SimTarget; args: string[]; kind: string; headline: RegExp }[] = [
  {
    target: 'score',
    args: ['--label', 'repaid', '--positive', 'yes', '--pred', 'credit_score', '--favourable', 'higher'],
    kind: 'score',
    headline: /headline: group = B is disadvantaged/,
  },
  {
    target: 'multiclass',
    args: ['--label', 'merited', '--pred', 'decision', '--class-order', 'approve,refer,decline'],
    kind: 'multiclass',
    // receiving the least favourable class more often is the disadvantage
    headline: /headline: group: B receives decline at ×[\d.]+ the rate of A/,
  },
  {
    target: 'regression',
    args: ['--label', 'merited_limit', '--pred', 'offered_limit', '--favourable', 'higher'],
    kind: 'regression',
    headline: /headline: group = B is disadvantaged/,
  },
];

describe('lucid audit --pred of each output kind on the simulator', () => {
  for (const c of CASES)
    it(`${c.kind}: says the kind and why first, flags B, shows its sections and no binary-only one`, () => {
      const r = audit(`pred-${c.kind}`, '--data', data(c.target), ...c.args);
      assert.equal(r.status, EXIT.ok, r.stderr);
      const lines = r.stdout.split('\n');
      assert.match(lines[0], new RegExp(`^lucid: output: inferred ${c.kind}: `));
      assert.match(r.stdout, /LUCID, FALE, .* are not run/s);
      assert.match(r.stdout.replace(/\n\s+/g, ' '), c.headline);
      const html = r.html();
      // the kind and why before the verdict, the verdict before the contents
      const kindAt = html.indexOf('id="output-kind"');
      assert.ok(kindAt > 0 && kindAt < html.indexOf('id="verdict"'));
      assert.ok(html.indexOf('id="verdict"') < html.indexOf('class="toc"'));
      assert.match(html, /id="not-run"[^>]*>The canonical sets \(LUCID-GAN\), LUCID, FALE/);
      for (const id of ['verdict', 'metrics', 'protected', 'caveats', 'files'])
        assert.ok(html.includes(`id="${id}"`), `section ${id}`);
      for (const id of BINARY_ONLY) assert.ok(!html.includes(`id="${id}"`), `no section ${id}`);
      assert.equal(html.includes('data-chart="ratio-curve"'), c.kind === 'score');
      // the verdict table: group B flagged as disadvantaged in the group attribute's row
      const verdict = html.slice(html.indexOf('id="verdict"'), html.indexOf('class="toc"'));
      assert.match(verdict, /<table class="metrics verdict-table">/);
      assert.match(verdict, /<td class="l">group<span class="ci">vs A<\/span><\/td>.*⚑ flagged<span class="ci">B ↓/);
      // the typed report in audit.json and the kind's CSV
      const json = JSON.parse(readFileSync(join(r.out, 'audit.json'), 'utf8'));
      assert.equal(json.kind, c.kind);
      assert.equal(json.metrics.kind, c.kind);
      assert.equal(json.meta.output.kind, c.kind);
      assert.ok(json.metrics.report.verdicts.counts.flagged > 0);
      assert.ok(!existsSync(join(r.out, 'canonical-positive.csv')));
      assert.deepEqual(json.files, ['metrics.json', 'metrics.csv', 'protected-bins.json', 'report.html', 'audit.json']);
      assert.ok(readFileSync(join(r.out, 'metrics.csv'), 'utf8').split('\n').length > 3);
    });

  it('--format json carries the kind, the headline and the typed report', () => {
    const r = lucid(
      'audit',
      '--data',
      data('regression'),
      '--label',
      'merited_limit',
      '--pred',
      'offered_limit',
      '--favourable',
      'higher',
      '--protected',
      'sex,group',
      '--quiet',
      '--format',
      'json',
      '--out',
      join(dir, 'json-regression'),
    );
    assert.equal(r.status, EXIT.ok, r.stderr);
    const j = JSON.parse(r.stdout);
    assert.equal(j.output.kind, 'regression');
    assert.match(j.headline, /group = B is disadvantaged/);
    assert.equal(j.metrics.output.kind, 'regression');
    assert.ok(Array.isArray(j.metrics.attributes));
  });
});

describe('lucid audit --model with a built-in multiclass model and a regressor', () => {
  for (const [target, label, drop, kind] of [
    ['multiclass', 'merited', 'decision', 'multiclass'],
    ['regression', 'merited_limit', 'offered_limit', 'regression'],
  ] as const)
    it(`${kind}: the model's declared output is the audit's kind`, () => {
      const model = join(dir, `${kind}.json`);
      const tr = lucid(
        'model',
        'train',
        '--data',
        data(target),
        '--label',
        label,
        '--drop',
        drop,
        '--epochs',
        '5',
        '--quiet',
        '--out',
        model,
      );
      assert.equal(tr.status, EXIT.ok, tr.stderr);
      // a regressor's offers can fall below 0, where a ratio of means is undefined: the band in the output's units
      const extra =
        kind === 'multiclass'
          ? ['--class-order', 'approve,refer,decline']
          : ['--tolerance-units', '500', '--favourable', 'higher'];
      const r = audit(`model-${kind}`, '--data', data(target), '--label', label, '--model', model, ...extra);
      assert.equal(r.status, EXIT.ok, r.stderr);
      assert.match(r.stdout.split('\n')[0], new RegExp(`^lucid: output: ${kind}: the model declares it`));
      const html = r.html();
      for (const id of BINARY_ONLY) assert.ok(!html.includes(`id="${id}"`), `no section ${id}`);
      assert.equal(JSON.parse(readFileSync(join(r.out, 'audit.json'), 'utf8')).meta.model.kind, 'builtin');
    });
});

describe('lucid audit refuses a flag that does not fit the output, before any work', () => {
  const ERRORS: [string, string[], RegExp][] = [
    [
      '--output regression on a two-valued label',
      ['--data', data('score'), '--label', 'repaid', '--pred', 'credit_score', '--output', 'regression'],
      /--output regression does not fit the columns: .*regression needs a numeric label/,
    ],
    [
      '--favourable negative on a regression',
      ['--data', data('regression'), '--label', 'merited_limit', '--pred', 'offered_limit', '--favourable', 'negative'],
      /--favourable negative is for binary decisions; a regression output takes --favourable higher or lower/,
    ],
    [
      '--class-order missing a class',
      ['--data', data('multiclass'), '--label', 'merited', '--pred', 'decision', '--class-order', 'approve,refer'],
      /--class-order must name every class, most favourable first; it leaves out: decline/,
    ],
    [
      '--tolerance-units on a score',
      ['--data', data('score'), '--label', 'repaid', '--pred', 'credit_score', '--tolerance-units', '3'],
      /audit: --tolerance-units is for regression outputs; this one is inferred score/,
    ],
  ];
  for (const [name, args, message] of ERRORS)
    it(name, () => {
      const out = join(dir, `err-${name.replace(/\W+/g, '-')}`);
      const r = lucid('audit', ...args, '--protected', 'sex', '--quiet', '--out', out);
      assert.equal(r.status, EXIT.usage, r.stderr);
      assert.match(r.stderr, message);
      assert.doesNotMatch(r.stderr, STACK);
      // nothing written: the error came before the folder was made
      assert.ok(!existsSync(join(out, 'report.html')));
    });
});

describe('the report sections table', () => {
  it(
    'every row says which kinds it shows, and each kind ' + 'has a Verdict above the contents and its Group metrics',
    () => {
      for (const kind of ['binary', 'score', 'multiclass', 'regression'] as const) {
        const rows = SECTIONS.filter((s) => (s.kinds ?? ['binary']).includes(kind));
        const ids = rows.map((s) => s.id);
        assert.equal(new Set(ids).size, ids.length, `${kind}: one row per anchor`);
        assert.ok(
          rows.some((s) => s.id === 'verdict' && s.aboveContents),
          kind,
        );
        assert.ok(ids.includes('metrics'), kind);
        if (kind !== 'binary') for (const id of BINARY_ONLY) assert.ok(!ids.includes(id), `${kind}: ${id}`);
      }
    },
  );
});
