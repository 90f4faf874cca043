// Time told up front: the CLI prints the audit's estimate before its GANs train (a
// few of their steps timed), then the estimate of the training once a second of it has been timed, and
// the time left as it goes (at each quarter in a log, on the bar in a terminal).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { auditEstimateText, estimateText, fmtDuration } from '../../src/report/format.js';
import { lucidCli, simModelDir } from '../helpers/sim-model.js';

const fx = simModelDir('lucid-progress-');

describe("the estimate of the GANs' training", () => {
  it('words seconds and minutes, and says when the estimate is a ceiling', () => {
    assert.equal(fmtDuration(0.4), '0 s');
    assert.equal(fmtDuration(44.6), '45 s');
    assert.equal(fmtDuration(185), '3 min 05 s');
    assert.equal(
      estimateText({ left: 90, total: 95, ceiling: false, what: '3 LUCID-GANs × 50 epochs' }),
      'training 3 LUCID-GANs × 50 epochs: about 1 min 35 s, from the pace of the first 5 s',
    );
    assert.match(
      estimateText({ left: 10, total: 12, ceiling: true, what: '1 LUCID-GAN × 9 epochs' }),
      /about 12 s at most \(the stopping rule may end it sooner\)/,
    );
    assert.equal(
      auditEstimateText({
        seconds: 125,
        ganSeconds: 118,
        ceiling: false,
        what: '3 LUCID-GANs × 50 epochs of 32 steps',
      }),
      'about 2 min 05 s, 1 min 58 s of it training 3 LUCID-GANs × 50 epochs of 32 steps (timed on a few of its steps)',
    );
    assert.match(
      auditEstimateText({ seconds: 9, ganSeconds: 8, ceiling: true, what: '1 LUCID-GAN × 9 epochs of 2 steps' }),
      /^about 9 s at most, /,
    );
  });

  it('lucid audit prints it before most of the training, then the time left at each quarter (no terminal)', () => {
    const r = lucidCli()(
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
      '--gan-seeds',
      '1',
      '--gan-epochs',
      '400',
      '-n',
      '100',
      '--intersection-rows',
      '0',
      '--fale-bootstrap',
      '0',
      '--no-gan-cache',
      '--out',
      join(fx.dir, 'out'),
    );
    assert.equal(r.status, 0, r.stderr);
    const lines = r.stderr.split('\n');
    // before the training: the audit's estimate, from a few of its steps
    const first = lines.findIndex((l) =>
      /^lucid: audit: estimate: about \d+ (s|min \d\d s), \d+ (s|min \d\d s) of it training 1 LUCID-GAN × 400 epochs of \d+ steps? \(timed on a few of its steps\)$/.test(
        l,
      ),
    );
    const at = lines.findIndex((l) =>
      /^lucid: audit: training 1 LUCID-GAN × 400 epochs: about \d+ (s|min \d\d s)( at most \(the stopping rule may end it sooner\))?, from the pace of the first \d+ s$/.test(
        l,
      ),
    );
    assert.ok(at >= 0, r.stderr);
    assert.ok(first >= 0 && first < at, r.stderr);
    const quarters = lines.filter((l) => /^lucid: audit: gan (25|50|75)%, about \d+ (s|min \d\d s) left$/.test(l));
    assert.ok(quarters.length >= 1 && lines.indexOf(quarters[0]) > at, r.stderr);
  });
});
