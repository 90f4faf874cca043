// `lucid audit` as a user runs it: the report folder, JSON summary, and usage errors.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { lucidCli, simModelDir } from '../helpers/sim-model.js';
import { unwrapSummary } from '../helpers/unwrap.js';

const lucid = lucidCli();
const fx = simModelDir('lucid-audit-cli-');
const { dir } = fx;
const small = ['--gan-epochs', '3', '-n', '150', '--intersection-rows', '40', '--fale-bootstrap', '0', '--quiet'];

describe('lucid audit', () => {
  it('writes the report folder and prints a summary', () => {
    const out = join(dir, 'audit');
    const r = lucid(
      'audit',
      '--data',
      fx.data,
      '--label',
      'approved',
      '--positive',
      'yes',
      '--protected',
      'sex,group,age',
      '--model',
      fx.modelFile,
      '--protected-edges',
      'age=18,35,50,80',
      ...small,
      '--out',
      out,
    );
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /wrote .*report\.html/);
    assert.match(r.stdout, /Jensen–Shannon/);
    assert.match(
      unwrapSummary(r.stdout),
      /drawn by rejection: the model accepted \d+\.\d% of the rows drawn for the positive set and \d+\.\d% for the negative \(the kept rows are on their side by construction\)/,
    );
    assert.match(r.stdout, /× 3 seeds/);
    // the summary and the warnings keep to 120 characters a line (long lines wrap)
    assert.deepEqual(
      (r.stdout + r.stderr).split('\n').filter((l) => [...l].length > 120),
      [],
    );
    assert.match(
      r.stdout,
      /\n {2}sex: (the sets and the data agree in direction|the real rows \(the sets misrepresent this attribute\)|no direction confirmed by the data and the sets together)/,
    );
    for (const f of [
      'report.html',
      'audit.json',
      'metrics.csv',
      'metrics.json',
      'metrics-intersection.csv',
      'canonical-positive.csv',
      'canonical-negative.csv',
      'intersection-sex=Female-group=B-positive.csv',
      'intersection-sex=Male-group=A-negative.csv',
      'distributions.csv',
      'distributions.json',
      'lucid-canonical.csv',
      'lucid-start.csv',
      'fale-group.json',
      'fale-group.csv',
      'fale-age.csv',
      'protected-bins.json',
    ]) {
      assert.ok(existsSync(join(out, f)), f);
    }
    assert.match(readFileSync(join(out, 'report.html'), 'utf8'), /<html/i);
    const a = JSON.parse(readFileSync(join(out, 'audit.json'), 'utf8'));
    assert.equal(a.canonical.positive.file, 'canonical-positive.csv');
    const kept = a.canonical.draws.map((d: { positive: { kept: number } }) => d.positive.kept);
    assert.equal(kept.length, 3);
    assert.equal(
      a.canonical.positive.rows,
      kept.reduce((x: number, y: number) => x + y, 0),
    );
    assert.equal(a.lucid.canonical.file, 'lucid-canonical.csv');
    assert.deepEqual(
      JSON.parse(readFileSync(join(out, 'protected-bins.json'), 'utf8'))[2].bins.edges,
      [18, 35, 50, 80],
    );
    // the sets say which GAN seed each row came from, in seed order
    const csv = readFileSync(join(out, 'canonical-positive.csv'), 'utf8').trim().split('\n');
    assert.equal(csv.length, a.canonical.positive.rows + 1);
    const header = csv[0].split(',');
    assert.equal(header[header.length - 1], 'gan_seed');
    const seeds = csv.slice(1).map((l) => Number(l.split(',').pop()));
    assert.deepEqual([...new Set(seeds)], a.meta.gan.seeds);
    assert.equal(seeds.filter((x) => x === a.meta.gan.seeds[0]).length, kept[0]);
    // the checks and what was decided from them
    for (const k of ['fidelity', 'shifts', 'cells', 'dependencies', 'ranges']) assert.ok(k in a.checks, k);
    assert.ok(
      a.checks.shifts.some(
        (c: { feature: string; canonical: number[]; real: { lo: number }; status: string }) =>
          c.feature === 'sex' &&
          c.canonical.length === 3 &&
          typeof c.real.lo === 'number' &&
          typeof c.status === 'string',
      ),
    );
    assert.deepEqual(
      a.findings.protected.map((f: { feature: string }) => f.feature),
      ['sex', 'group', 'age'],
    );
  });

  it('--format json prints a machine-readable summary', () => {
    const out = join(dir, 'audit-json');
    const r = lucid(
      'audit',
      '--data',
      fx.data,
      '--label',
      'approved',
      '--protected',
      'group',
      '--model',
      fx.modelFile,
      ...small,
      '--format',
      'json',
      '--out',
      out,
    );
    assert.equal(r.status, 0, r.stderr);
    const j = JSON.parse(r.stdout);
    assert.equal(j.report, join(out, 'report.html'));
    assert.equal(j.top.length, 5);
    assert.ok(Array.isArray(j.preferences) && Array.isArray(j.disagreements) && Array.isArray(j.named));
    assert.equal(j.draws.length, 3);
    assert.equal(j.lucid, true);
    assert.deepEqual(j.fale, ['group']);
    // the verdicts: group = B is planted (direct), so it is flagged disadvantaged on the selection rate
    assert.ok(j.verdicts.comparisons > 0);
    assert.match(j.verdicts.correction, /^Holm over the \d+ comparisons/);
    const b = j.flagged.find(
      (x: { group: string; metric: string }) => x.group === 'B' && x.metric === 'selection_rate',
    );
    assert.ok(b, JSON.stringify(j.flagged));
    assert.equal(b.direction, 'disadvantaged');
    assert.ok(b.interval.hi < 0.8 && b.level > 0 && b.level < 0.05);
    assert.equal(b.fourFifths.below, true);
    assert.equal(j.attribution[0].attribute, 'group');
  });

  it(
    '--favourable negative flips the direction; --reference names the reference; --min-group and --tolerance reach ' +
      'the verdicts',
    () => {
      const out = join(dir, 'audit-fav');
      const r = lucid(
        'audit',
        '--data',
        fx.data,
        '--label',
        'approved',
        '--protected',
        'group',
        '--model',
        fx.modelFile,
        ...small,
        '--favourable',
        'negative',
        '--reference',
        'group=B',
        '--min-group',
        '40',
        '--tolerance',
        '0.9',
        '--format',
        'json',
        '--out',
        out,
      );
      assert.equal(r.status, 0, r.stderr);
      const j = JSON.parse(r.stdout);
      const m = JSON.parse(readFileSync(join(out, 'metrics.json'), 'utf8'));
      const attr = m.attributes.find((x: { column: string }) => x.column === 'group');
      assert.ok(attr, 'metrics.json holds the group attribute');
      assert.equal(attr.reference.value, 'B');
      assert.match(attr.reference.reason, /named by the user/);
      assert.equal(m.favourable, 'negative');
      assert.equal(m.minGroupSize, 40);
      assert.deepEqual(m.verdicts.band, [0.9, 1 / 0.9]);
      // A is selected more often (approved), which is the unfavourable outcome here: A is disadvantaged
      const pos = j.flagged.find(
        (x: { group: string; metric: string }) => x.group === 'A' && x.metric === 'selection_rate',
      );
      assert.ok(pos, JSON.stringify(j.flagged));
      assert.equal(pos.direction, 'disadvantaged');
    },
  );

  it('says in the report and on stderr how many rows with a missing number were left out', () => {
    const lines = readFileSync(fx.data, 'utf8').trim().split('\n');
    const col = lines[0].split(',').indexOf('hours_per_week');
    const holed = lines.map((l, i) =>
      i === 2 || i === 5
        ? l
            .split(',')
            .map((v, j) => (j === col ? '' : v))
            .join(',')
        : l,
    );
    const file = join(dir, 'holes.csv');
    writeFileSync(file, holed.join('\n') + '\n');
    const out = join(dir, 'audit-holes');
    const r = lucid(
      'audit',
      '--data',
      file,
      '--label',
      'approved',
      '--protected',
      'group',
      '--model',
      fx.modelFile,
      ...small,
      '--out',
      out,
    );
    assert.equal(r.status, 0, r.stderr);
    const n = lines.length - 1;
    const msg =
      `${file}: 2 rows with a missing value (in "hours_per_week"; first on line 3) left out by --missing keep: the ` +
      `audit covers ${n - 2} of ${n} rows`;
    assert.ok(unwrapSummary(r.stderr).includes(`lucid: warning: ${msg}`), r.stderr);
    assert.ok(JSON.parse(readFileSync(join(out, 'audit.json'), 'utf8')).warnings.includes(msg));
    assert.ok(readFileSync(join(out, 'report.html'), 'utf8').includes(msg.replace(/"/g, '&quot;')));
  });

  it(
    'usage errors exit 2: both --model and --pred, neither, an unknown protected column (named, with the columns ' +
      'listed)',
    () => {
      const base = ['--data', fx.data, '--label', 'approved', '--out', join(dir, 'never')];
      const both = lucid('audit', ...base, '--protected', 'sex', '--model', fx.modelFile, '--pred', 'approved');
      assert.equal(both.status, 2);
      assert.match(both.stderr, /either --model or --pred, not both/);
      const neither = lucid('audit', ...base, '--protected', 'sex');
      assert.equal(neither.status, 2);
      assert.match(neither.stderr, /--model FILE .* or --pred COLUMN/);
      const unknown = lucid('audit', ...base, '--protected', 'sex,gender', '--model', fx.modelFile);
      assert.equal(unknown.status, 2);
      assert.match(unknown.stderr, /data\.csv: --protected "gender" is not a column; the columns are: age, sex, group/);
      assert.doesNotMatch(unknown.stderr, /at .*\.js:\d+/);
      // an empty edge is an error, not 0
      for (const e of ['age=,30,50', 'age=18,,50', 'age=18']) {
        const bad = lucid('audit', ...base, '--protected', 'age', '--model', fx.modelFile, '--protected-edges', e);
        assert.equal(bad.status, 2, e);
        assert.match(bad.stderr, /expected COLUMN=E0,E1,… \(at least two numbers\)/, e);
      }
      // the GAN options
      for (const [flag, v, msg] of [
        ['--gan-seeds', '0', /positive integer|expected/],
        ['--gan-point-share', '1', /a share in \[0, 1\)/],
        ['--gan-condition', 'best', /Allowed choices are extreme, observed, matched/],
        ['--gan-correct', 'gan', /Allowed choices are none, classifier, linear/],
        ['--gan-candidates', '1', /an integer ≥ 2/],
      ] as const) {
        const bad = lucid('audit', ...base, '--protected', 'sex', '--model', fx.modelFile, flag, v);
        assert.equal(bad.status, 2, `${flag} ${v}`);
        assert.match(bad.stderr, msg, bad.stderr);
      }
      assert.ok(!existsSync(join(dir, 'never')));
    },
  );

  it(
    "--threshold sets the model's decision: fewer positives at 0.6 than at 0.2 (metrics, audit.json, LUCID's " +
      'success); out of [0, 1] or empty exits 2',
    () => {
      const base = [
        '--data',
        fx.data,
        '--label',
        'approved',
        '--positive',
        'yes',
        '--protected',
        'group',
        '--model',
        fx.modelFile,
        '--gan-epochs',
        '1',
        '-n',
        '50',
        '--intersection-rows',
        '0',
        '--fale-bootstrap',
        '0',
        '--gan-seeds',
        '1',
        '--quiet',
      ];
      const lucidScores = (out: string) => {
        const rows = readFileSync(join(out, 'lucid-canonical.csv'), 'utf8').trim().split('\n');
        const col = rows[0].split(',').indexOf('pred_snapped');
        return rows.slice(1).map((l) => Number(l.split(',')[col]));
      };
      const positives = (t: string) => {
        const out = join(dir, `threshold-${t}`);
        const r = lucid('audit', ...base, '--threshold', t, '--format', 'json', '--out', out);
        assert.equal(r.status, 0, r.stderr);
        const m = JSON.parse(readFileSync(join(out, 'metrics.json'), 'utf8'));
        assert.equal(m.threshold, Number(t));
        const audit = JSON.parse(readFileSync(join(out, 'audit.json'), 'utf8'));
        assert.equal(audit.meta.threshold, Number(t));
        // LUCID's success is the model's decision at the threshold: the share of its samples scored above t
        const scores = lucidScores(out);
        const above = scores.filter((p) => p > Number(t)).length;
        assert.equal(audit.lucid.success, above / scores.length, `LUCID success at ${t}`);
        const groups = m.attributes[0].groups as { tp: number; fp: number }[];
        return groups.reduce((s, g) => s + g.tp + g.fp, 0);
      };
      const low = positives('0.2');
      const high = positives('0.6');
      assert.ok(high < low, `positives at 0.6: ${high}, at 0.2: ${low}`);
      assert.ok(high > 0, 'no positive at 0.6: the test needs a model whose scores reach 0.6');
      for (const v of ['1.5', '', '-0.1', 'half']) {
        const bad = lucid('audit', ...base, '--threshold', v, '--out', join(dir, 'never'));
        assert.equal(bad.status, 2, `--threshold "${v}": ${bad.stderr}`);
        // a number outside [0, 1] is refused by the plan (a score's threshold is on its own scale: --output score)
        assert.match(bad.stderr, /expected a number|threshold must be in \[0, 1\], got/);
      }
      assert.ok(!existsSync(join(dir, 'never')));
    },
  );

  it(
    'runtime errors exit 1 naming the file, the column and the row: a predictions column that is no score, a model ' +
      'file that is not one',
    () => {
      const base = [
        '--data',
        fx.data,
        '--label',
        'approved',
        '--protected',
        'sex',
        '--out',
        join(dir, 'never'),
        ...small,
      ];
      // (numbers outside [0, 1], such as income, are a score read whole: test/audit/output-audit.test.ts)
      const notScore = lucid('audit', ...base, '--pred', 'neighbourhood');
      assert.equal(notScore.status, 1, notScore.stderr);
      assert.match(
        notScore.stderr,
        /^lucid: error: .*\.csv: metrics: the prediction column "neighbourhood" holds "[^"]+" at row \d+, which is neither a value of the label \(no, yes\) nor a score in \[0, 1\]\n$/,
      );
      const notModel = lucid('audit', ...base, '--model', fx.data);
      assert.equal(notModel.status, 1, notModel.stderr);
      assert.doesNotMatch(notModel.stderr + notScore.stderr, /at .*\.js:\d+/);
      assert.ok(!existsSync(join(dir, 'never')));
    },
  );

  it(
    '--gan-rows: a stratified sample for the GANs, stated in the summary and audit.json; 0, -1, "abc" exit 2 with ' +
      'one line',
    () => {
      const out = join(dir, 'audit-ganrows');
      const r = lucid(
        'audit',
        '--data',
        fx.data,
        '--label',
        'approved',
        '--positive',
        'yes',
        '--protected',
        'sex,group',
        '--model',
        fx.modelFile,
        ...small,
        '--gan-seeds',
        '1',
        '--intersection-rows',
        '0',
        '--gan-rows',
        '500',
        '--out',
        out,
      );
      assert.equal(r.status, 0, r.stderr);
      assert.match(
        unwrapSummary(r.stdout),
        /\n {2}data: 1200 rows; model: .*; LUCID-GAN \(paper loss\) × 1 seed on a stratified sample of 500 of 1,200 rows \(strata: decision × sex × group\), 3 epochs \(the published schedule\); sets: [^;]+; [\d.]+ s\n/,
      );
      const g = JSON.parse(readFileSync(join(out, 'audit.json'), 'utf8')).meta.gan;
      assert.equal(g.ganRows, 500);
      assert.equal(g.rows, 500);
      assert.deepEqual(
        { ...g.sample, strataCount: 0, represented: 0 },
        { rows: 500, of: 1200, strata: ['decision', 'sex', 'group'], strataCount: 0, represented: 0 },
      );
      assert.equal(g.sample.represented, g.sample.strataCount);
      assert.match(
        readFileSync(join(out, 'report.html'), 'utf8'),
        /Each GAN trained on a stratified sample of 500 of 1,200 rows/,
      );
      for (const v of ['0', '-1', 'abc', '1.5']) {
        const bad = lucid(
          'audit',
          '--data',
          fx.data,
          '--label',
          'approved',
          '--protected',
          'sex',
          '--model',
          fx.modelFile,
          '--gan-rows',
          v,
          '--out',
          join(dir, 'never'),
        );
        assert.equal(bad.status, 2, `--gan-rows ${v}: ${bad.stderr}`);
        assert.equal(bad.stderr.trimEnd().split('\n').length, 1, bad.stderr);
        assert.match(bad.stderr, /--gan-rows <n>' argument '.*' is invalid\. expected a positive integer/, bad.stderr);
      }
      assert.ok(!existsSync(join(dir, 'never')));
    },
  );

  it('--help states --gan-rows and its default', () => {
    const r = lucid('audit', '--help');
    assert.match(r.stdout, /--gan-rows <n> +the most rows each LUCID-GAN trains on[\s\S]*\(default: 50000\)/);
    assert.match(
      r.stdout,
      /--gan-rows n \(default 50,000\): data with more rows than n gives each GAN a stratified sample/,
    );
  });

  it('--help ends with a worked example', () => {
    const r = lucid('audit', '--help');
    assert.equal(r.status, 0);
    assert.match(
      r.stdout.trimEnd(),
      /Examples[^\n]*:\n[\s\S]*lucid audit --data loans-test\.csv .*\n.*--out loans-audit$/,
    );
  });
});
