// `lucid audit` of a score, a class among k and a real value: the simulator plants a disparity against group B in
// each target's prediction (direct bias), and the audit must say which kind it read and why, name B in its headline,
// say which two targets its canonical sets contrast (on the first screen, in the summary, in the sets' file names),
// show the kind's sections, write the typed metrics, and refuse a flag that does not fit the output with one clear
// usage error (exit 2, no stack trace) before any work. A built-in multiclass model and a regressor are audited
// through --model, their declared output deciding the kind. The GANs are tiny: the sets' wording is tested, not them.
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
const BINARY_ONLY = ['how-to-read'];
/** the sections of the canonical sets, LUCID and FALE in every kind's report */
const SET_SECTIONS = ['sides', 'findings', 'canonical', 'proxy', 'intersections', 'lucid', 'fale'];
/** a tiny GAN: the audit's words and files are tested, not the sets' quality */
const TINY = ['--gan-seeds', '1', '--gan-epochs', '20', '-n', '150', '--intersection-rows', '30'];

before(async () => {
  const engine = await getEngine();
  for (const target of ['score', 'multiclass', 'regression'] as const)
    await writeCsv(data(target), simulate(new Rng(engine, 5), { n: 2000, bias: 'direct', target }).table);
});

/** Runs an audit into a fresh folder; its status, stdout, stderr, and the folder. */
function audit(name: string, ...args: string[]) {
  const out = join(dir, name);
  const r = lucid('audit', ...args, '--protected', 'sex,group', ...TINY, '--quiet', '--out', out);
  return { ...r, out, html: () => readFileSync(join(out, 'report.html'), 'utf8') };
}

const CASES: {
  target: SimTarget;
  args: string[];
  kind: string;
  headline: RegExp;
  /** the two targets' names (favoured first) and their sets' file tags */
  targets: [string, string];
  tags: [string, string];
}[] = [
  {
    target: 'score',
    args: ['--label', 'repaid', '--positive', 'yes', '--pred', 'credit_score', '--favourable', 'higher'],
    kind: 'score',
    headline: /headline: group = B is disadvantaged/,
    targets: ['top decile of credit_score', 'bottom decile of credit_score'],
    tags: ['top_decile_of_credit_score', 'bottom_decile_of_credit_score'],
  },
  {
    target: 'multiclass',
    args: ['--label', 'merited', '--pred', 'decision', '--class-order', 'approve,refer,decline'],
    kind: 'multiclass',
    // receiving the least favourable class more often is the disadvantage
    headline: /headline: group: B receives decline at ×[\d.]+ the rate of A/,
    targets: ['class approve', 'class decline'],
    tags: ['class_approve', 'class_decline'],
  },
  {
    target: 'regression',
    args: ['--label', 'merited_limit', '--pred', 'offered_limit', '--favourable', 'higher'],
    kind: 'regression',
    headline: /headline: group = B is disadvantaged/,
    targets: ['top decile of offered_limit', 'bottom decile of offered_limit'],
    tags: ['top_decile_of_offered_limit', 'bottom_decile_of_offered_limit'],
  },
];

/** The HTML between a section's anchor and the next section. */
const section = (html: string, id: string) => {
  const at = html.indexOf(`id="${id}"`);
  assert.ok(at > 0, `section ${id}`);
  const next = html.indexOf('<section', at);
  return html.slice(at, next < 0 ? undefined : next);
};

describe('lucid audit --pred of each output kind on the simulator', () => {
  for (const c of CASES)
    it(`${c.kind}: says the kind and why first, flags B, names the two targets, shows its sections`, () => {
      const r = audit(`pred-${c.kind}`, '--data', data(c.target), ...c.args);
      assert.equal(r.status, EXIT.ok, r.stderr);
      const lines = r.stdout.split('\n');
      assert.match(lines[0], new RegExp(`^lucid: output: inferred ${c.kind}: `));
      const out = r.stdout.replace(/\n\s+/g, ' ');
      // a predictions column: the sets are drawn; LUCID and FALE are said not run, and the sets are not
      assert.match(out, /lucid: Not run: [^\n]*LUCID[^\n]*FALE/);
      assert.doesNotMatch(out, /Not run: the canonical sets/);
      assert.match(out, c.headline);
      // the summary states the sets' findings as a binary audit's, in the targets' words
      assert.ok(out.includes(`lucid: canonical sets: ${c.targets[0]}`), out);
      assert.ok(out.includes(` against ${c.targets[1]}`), out);
      assert.match(out, /features that separate the two sides of the targets' contrast most/);
      assert.ok(out.includes(`of the rows drawn for the ${c.targets[0]} set`), out);
      const html = r.html();
      // the kind and why before the verdict, the verdict before the contents
      const kindAt = html.indexOf('id="output-kind"');
      assert.ok(kindAt > 0 && kindAt < html.indexOf('id="verdict"'));
      assert.ok(html.indexOf('id="verdict"') < html.indexOf('class="toc"'));
      assert.match(html, /id="not-run"[^>]*>Not run: [^<]*LUCID/);
      for (const id of ['verdict', 'metrics', 'protected', 'caveats', 'files', ...SET_SECTIONS])
        assert.ok(html.includes(`id="${id}"`), `section ${id}`);
      // the first screen: which two targets, with their rows, before the contents; then the sets' findings
      const sides = section(html, 'sides');
      assert.ok(html.indexOf('id="sides"') < html.indexOf('class="toc"'));
      assert.match(sides, new RegExp(`<strong>${c.targets[0]}[^<]*</strong> \\(\\d+ rows\\)`));
      assert.match(sides, new RegExp(`<strong>${c.targets[1]}[^<]*</strong> \\(\\d+ rows\\)`));
      for (const id of ['findings', 'canonical', 'proxy'])
        assert.doesNotMatch(section(html, id), /positive set|negative set|the model's positive decisions/, id);
      assert.ok(section(html, 'canonical').includes(`${c.targets[0]} set`));
      // the group metrics as HTML tables (the text tables folded beneath): group B's row holds a flag
      const metrics = section(html, 'metrics');
      assert.match(metrics, /<table class="metrics output-groups">/);
      // (a score's flags are its threshold view's, the binary tables folded beneath its own)
      if (c.kind === 'score') assert.match(metrics, /<details id="threshold-view">[\s\S]*⚑/);
      else assert.match(metrics, /<tr><td class="l">B<\/td><td>\d+<\/td>.*?⚑ flagged/);
      assert.match(metrics, /<details id="metrics-text">/);
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
      // the sets' files are named for the targets; audit.json holds their references
      for (const tag of c.tags) assert.ok(json.files.includes(`canonical-${tag}.csv`), tag);
      assert.equal(json.sides.audit.canonical.positive.file, `canonical-${c.tags[0]}.csv`);
      assert.equal(json.sides.audit.canonical.negative.file, `canonical-${c.tags[1]}.csv`);
      assert.ok(existsSync(join(r.out, `canonical-${c.tags[0]}.csv`)));
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
      ...TINY,
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
    assert.match(j.sets.pair.favoured.label, /^top decile of offered_limit/);
    assert.equal(j.sets.rows.favoured + j.sets.rows.other + j.sets.rows.neither, 2000);
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
      for (const id of SET_SECTIONS) assert.ok(html.includes(`id="${id}"`), `section ${id}`);
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
        for (const id of SET_SECTIONS.filter((x) => x !== 'sides')) assert.ok(ids.includes(id), `${kind}: ${id}`);
      }
    },
  );
});
