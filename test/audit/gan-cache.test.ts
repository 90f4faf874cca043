// The cache of trained generators and --gan / --gan-save, as a user runs them: a
// second audit of the same files reuses the generators and writes byte-identical canonical sets, says
// so with the key (never a path); a changed input (rows, seed, GAN options) misses; a corrupt entry is
// a warning and a retrain; a set handed over must fit the audit; --no-gan-cache keeps nothing.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AuditResult } from '../../src/audit/types.js';
import { defaultGanCacheDir } from '../../src/node/gan-cache.js';
import { EXIT } from '../../src/cli/handle-error.js';
import { lucidCli, simModelDir } from '../helpers/sim-model.js';
import { STACK } from '../helpers/cli-fixtures.js';

const lucid = lucidCli();
const fx = simModelDir('lucid-gan-cache-');
const cache = join(fx.dir, 'cache');
const base = (out: string, ...more: string[]) => [
  'audit',
  '--data',
  fx.data,
  '--label',
  'approved',
  '--positive',
  'yes',
  '--protected',
  'sex',
  '--model',
  fx.modelFile,
  '--seed',
  '3',
  '--gan-seeds',
  '2',
  '--gan-epochs',
  '3',
  '-n',
  '150',
  '--intersection-rows',
  '40',
  '--fale-bootstrap',
  '2',
  '--quiet',
  '--out',
  join(fx.dir, out),
  ...more,
];
const audit = (out: string) => JSON.parse(readFileSync(join(fx.dir, out, 'audit.json'), 'utf8')) as AuditResult;
const entries = () =>
  existsSync(cache)
    ? readdirSync(cache)
        .filter((f) => f.endsWith('.lgan'))
        .sort()
    : [];
const SETS = ['canonical-positive.csv', 'canonical-negative.csv'];
const same = (a: string, b: string) =>
  SETS.every((f) => readFileSync(join(fx.dir, a, f), 'latin1') === readFileSync(join(fx.dir, b, f), 'latin1'));
const run = (...args: string[]) => {
  const r = lucid(...args);
  assert.equal(r.status, 0, r.stderr);
  return r;
};

describe('lucid audit: trained generators reused', () => {
  it(
    'a second audit of the same files reuses them: the same ' +
      'sets, byte for byte, and the report says so with the key',
    () => {
      run(...base('first', '--gan-cache', cache));
      assert.equal(entries().length, 1);
      const entry = join(cache, entries()[0]);
      assert.equal(statSync(entry).mode & 0o077, 0, 'an entry is readable by its owner only');
      assert.equal(audit('first').meta.gan.reused, null);
      run(...base('second', '--gan-cache', cache));
      const second = audit('second');
      assert.equal(second.meta.gan.reused?.from, 'cache');
      assert.equal(`${second.meta.gan.reused!.key.key}.lgan`, entries()[0]);
      assert.ok(same('first', 'second'), 'the reused generators give the same sets');
      assert.deepEqual(second.meta.gan.epochsDone, audit('first').meta.gan.epochsDone);
      const html = readFileSync(join(fx.dir, 'second', 'report.html'), 'utf8');
      assert.match(html, /trained generators reused from the cache \(key sha256:[0-9a-f]{16}…\)/);
      // the statement names the key, never a local folder
      assert.ok(!/trained generators reused[^<]*/.exec(html)![0].includes(fx.dir));
      assert.ok(!JSON.stringify(second.meta.gan).includes(fx.dir), 'no path in meta.gan');
    },
  );

  it('a changed input misses: other rows, another seed, other GAN options', () => {
    const before = entries().length;
    const rows = readFileSync(fx.data, 'utf8').trimEnd().split('\n');
    const fewer = join(fx.dir, 'fewer.csv');
    writeFileSync(fewer, rows.slice(0, -1).join('\n') + '\n');
    const changed: string[][] = [
      base('rows', '--gan-cache', cache).map((a) => (a === fx.data ? fewer : a)),
      base('seed', '--gan-cache', cache).map((a, i, all) => (all[i - 1] === '--seed' ? '4' : a)),
      base('epochs', '--gan-cache', cache).map((a, i, all) => (all[i - 1] === '--gan-epochs' ? '2' : a)),
      // another schedule; and under the plateau schedule, whose checks draw the sets, how they are drawn
      base('plateau', '--gan-cache', cache, '--gan-schedule', 'plateau'),
      base('plateau-correct', '--gan-cache', cache, '--gan-schedule', 'plateau', '--gan-correct', 'none'),
    ];
    for (const args of changed) {
      run(...args);
      const out = args[args.indexOf('--out') + 1].split('/').pop()!;
      assert.equal(audit(out).meta.gan.reused, null, out);
    }
    assert.equal(entries().length, before + 5);
  });

  it('a corrupt or foreign entry is a warning and a retrain, never a crash, and the entry is replaced', () => {
    const entry = join(cache, entries().find((e) => e.startsWith(audit('second').meta.gan.reused!.key.key))!);
    const good = readFileSync(entry, 'latin1');
    for (const [what, text] of [
      ['truncated', good.slice(0, 1000)],
      ['foreign', JSON.stringify({ format: 'lucid-wasm/classifier', version: 1 })],
    ] as const) {
      writeFileSync(entry, text);
      const r = run(...base(`corrupt-${what}`, '--gan-cache', cache));
      const a = audit(`corrupt-${what}`);
      assert.equal(a.meta.gan.reused, null, what);
      assert.ok(
        a.warnings.some((w) =>
          /the cached generators for this audit could not be used \(.+\); they were trained again and the entry replaced/.test(
            w,
          ),
        ),
        `${what}: ${a.warnings.join(' | ')}`,
      );
      assert.doesNotMatch(r.stderr, STACK);
      assert.ok(same('first', `corrupt-${what}`), `${what}: retrained, the same sets`);
      // the same generators (the file also holds the checks' wall times, which differ)
      const weights = (text: string) =>
        (JSON.parse(text) as { payload: { generators: { generator: { weights: string } }[] } }).payload.generators.map(
          (g) => g.generator.weights,
        );
      assert.deepEqual(
        weights(readFileSync(entry, 'latin1')),
        weights(good),
        `${what}: the entry is replaced by a good one`,
      );
    }
  });

  it(
    '--gan-save writes the set; --gan hands it over (the same sets); a set for other inputs is refused, naming the ' +
      'file and what differs',
    () => {
      const saved = join(fx.dir, 'saved', 'gans.lgan');
      run(...base('saving', '--no-gan-cache', '--gan-save', saved));
      assert.ok(existsSync(saved));
      run(...base('handed', '--no-gan-cache', '--gan', saved));
      assert.equal(audit('handed').meta.gan.reused?.from, 'file');
      assert.ok(same('first', 'handed'));
      const other = lucid(
        ...base('other', '--no-gan-cache', '--gan', saved).map((a, i, all) =>
          all[i - 1] === '--gan-epochs' ? '2' : a,
        ),
      );
      assert.equal(other.status, EXIT.runtime, other.stderr);
      assert.match(
        other.stderr,
        /^lucid: error: .*gans\.lgan: these generators were trained for another audit: the GAN options \(epochs, batch, seeds, schedule, mode, point masses\) differ; train them again/,
      );
      assert.equal(other.stderr.trim().split('\n').length, 1, other.stderr);
      assert.doesNotMatch(other.stderr, STACK);
      // a file of one generator from lucid gan fit has no provenance: refused, saying what it is
      const single = join(fx.dir, 'single.lgan');
      run('gan', 'fit', '--data', fx.data, '--epochs', '1', '--quiet', '--out', single);
      const r = lucid(...base('single', '--no-gan-cache', '--gan', single));
      assert.equal(r.status, EXIT.runtime, r.stderr);
      assert.match(
        r.stderr,
        /single\.lgan: the file has no provenance \(it is what "lucid gan fit" writes, not an audit's set of generators\)/,
      );
    },
  );

  it('--no-gan-cache neither reads nor writes the cache; an unwritable cache is a warning', () => {
    const before = entries();
    run(...base('nocache', '--no-gan-cache'));
    assert.equal(audit('nocache').meta.gan.reused, null);
    assert.deepEqual(entries(), before);
    if (process.getuid?.() === 0) return; // root writes anywhere: the permission case cannot be made
    const locked = join(fx.dir, 'locked');
    mkdirSync(locked);
    chmodSync(locked, 0o500);
    try {
      run(...base('locked', '--gan-cache', join(locked, 'y')));
      assert.ok(audit('locked').warnings.some((w) => /could not be kept in the cache/.test(w)));
    } finally {
      chmodSync(locked, 0o700);
    }
  });
});

describe('the default cache folder', () => {
  it('is $LUCID_GAN_CACHE ("off": none), else the per-user cache folder of the platform', () => {
    assert.equal(defaultGanCacheDir({ LUCID_GAN_CACHE: 'off' }, 'linux'), null);
    assert.equal(defaultGanCacheDir({ LUCID_GAN_CACHE: '/c' }, 'linux'), '/c');
    assert.equal(defaultGanCacheDir({ XDG_CACHE_HOME: '/x' }, 'linux'), join('/x', 'lucid-wasm', 'gan'));
    assert.match(defaultGanCacheDir({}, 'linux')!, /\.cache[/\\]lucid-wasm[/\\]gan$/);
    assert.match(defaultGanCacheDir({}, 'darwin')!, /Library[/\\]Caches[/\\]lucid-wasm[/\\]gan$/);
    assert.match(defaultGanCacheDir({ LOCALAPPDATA: 'C:\\L' }, 'win32')!, /lucid-wasm[/\\]gan$/);
  });
});
