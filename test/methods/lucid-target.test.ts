// LUCID towards a target (src/methods/lucid/target.ts, issue #40): tiny built-in multiclass and regression models
// trained on the simulator, inverted towards a class, a band and a value; the wrong target for the model's kind; the
// audit's lucidTargetSection; a binary classifier's probability band (a score read from the built-in model).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Engine } from '../../src/engine/engine.js';
import { EngineError } from '../../src/engine/errors.js';
import { Rng } from '../../src/engine/rng.js';
import { simulate } from '../../src/data/simulator.js';
import { quantileSorted } from '../../src/data/quantile.js';
import { Classifier } from '../../src/models/classifier/classifier.js';
import { builtinBlackBox } from '../../src/models/blackbox.js';
import { invert } from '../../src/methods/lucid/invert.js';
import { invertTowards, VALUE_TOLERANCE } from '../../src/methods/lucid/target.js';
import { bandTarget, classTarget, restOf, type OutputTarget } from '../../src/methods/metrics/targets.js';
import { lucidTargetSection } from '../../src/audit/stages/lucid.js';
import { getEngine } from '../helpers/engine.js';

const units = (lo: number, hi: number, output: string): OutputTarget =>
  bandTarget({ lo, hi, scale: 'units' }, new Float64Array([lo, hi]), output);

const isArg = (e: unknown) => e instanceof EngineError && e.code === 'E_ARG';

describe('LUCID towards a class, a band, a value', () => {
  let engine: Engine;
  let multi: Classifier;
  let reg: Classifier;
  let bin: Classifier;
  let regValues: Float64Array; // the regressor's predictions on its training rows, sorted

  before(async () => {
    engine = await getEngine();
    // small and fast: 600 rows, a hidden layer of 16, at most 25 epochs
    const fit = { hidden: [16], epochs: 25, lr: 3e-3, seed: 1 };
    const mc = simulate(new Rng(engine, 1), { n: 600, bias: 'direct', target: 'multiclass' });
    multi = Classifier.train(engine, mc.table, {
      label: 'decision',
      drop: ['merited'],
      output: 'multiclass',
      ...fit,
    }).model;
    const rg = simulate(new Rng(engine, 2), { n: 600, bias: 'direct', target: 'regression' });
    reg = Classifier.train(engine, rg.table, {
      label: 'offered_limit',
      drop: ['merited_limit'],
      output: 'regression',
      ...fit,
    }).model;
    regValues = reg.predictOutput(engine, rg.table).sort();
    const bn = simulate(new Rng(engine, 3), { n: 600, bias: 'direct' });
    bin = Classifier.train(engine, bn.table, { label: 'approved', positive: 'yes', ...fit }).model;
  });
  after(() => {
    multi?.dispose();
    reg?.dispose();
    bin?.dispose();
  });

  it('towards a class: its probability rises for most samples and most land in it', () => {
    for (const c of multi.classes) {
      const t = classTarget(c, multi.classes, 'test');
      const r = invertTowards(engine, multi, { target: t, n: 200, epochs: 100, seed: 4 });
      // the same starts, 0 epochs of pull: P(c) at the start (epochs must be ≥ 1, so compare with the trace's epoch 1)
      const tr = invertTowards(engine, multi, { target: t, n: 200, epochs: 100, seed: 4, traceEvery: 100 });
      const L = tr.trace!.epochs.length;
      let rose = 0;
      for (let i = 0; i < 200; i++) if (tr.trace!.pred[i * L + L - 1] > tr.trace!.pred[i * L]) rose++;
      assert.ok(rose / 200 > 0.9, `P(${c}) rose for ${rose} of 200`);
      assert.ok(r.success > 0.8, `class ${c}: success ${r.success}`);
      const cls = r.table.columns.find((x) => x.name === 'class_snapped');
      assert.ok(cls && cls.kind === 'categorical');
      // success is the share whose snapped arg-max is the class, and the model's own prediction agrees
      const probs = multi.outputEncoded(engine, r.snapped, 200);
      let agree = 0;
      for (let i = 0; i < 200; i++) {
        const row = Array.from(probs.subarray(i * 3, i * 3 + 3));
        if ((row.indexOf(Math.max(...row)) === multi.classes.indexOf(c)) === (r.hit[i] === 1)) agree++;
      }
      assert.equal(agree, 200);
    }
  });

  it('towards a band of a regressor: most samples land in it, whatever the label units', () => {
    for (const [qlo, qhi] of [
      [0.9, 1],
      [0, 0.1],
      [0.45, 0.55],
    ]) {
      const t = bandTarget({ lo: qlo, hi: qhi, scale: 'quantile' }, regValues, 'offered_limit');
      assert.equal(t.kind, 'band');
      const r = invertTowards(engine, reg, { target: t, n: 200, epochs: 100, seed: 5 });
      assert.equal(r.tolerance, 0);
      assert.ok(r.success > 0.8, `band ${t.label}: success ${r.success}`);
      if (t.kind === 'band')
        for (let i = 0; i < 200; i++)
          assert.equal(r.hit[i], r.predSnapped[i] >= t.lo && r.predSnapped[i] <= t.hi ? 1 : 0);
      // the second phase (numbers only, one-hot groups snapped and held) is what keeps a narrow band after snapping
      if (qlo === 0.45) {
        const once = invertTowards(engine, reg, { target: t, n: 200, epochs: 100, seed: 5, refine: 0 });
        assert.ok(once.success < r.success - 0.3, `without the second phase ${once.success}, with it ${r.success}`);
        assert.equal(once.loss.length, 100);
        assert.equal(r.loss.length, 200);
      }
    }
  });

  it('towards a value: most samples land within a tenth of the label sd of it', () => {
    const v = quantileSorted(regValues, 0.3);
    const t = units(v, v, 'offered_limit');
    const r = invertTowards(engine, reg, { target: t, n: 200, epochs: 100, seed: 6 });
    assert.equal(r.tolerance, VALUE_TOLERANCE.regressionSd * reg.target!.sd);
    assert.ok(r.success > 0.8, `value ${v}: success ${r.success}`);
    let close = 0;
    for (const y of r.predSnapped) if (Math.abs(y - v) <= r.tolerance) close++;
    assert.equal(close / 200, r.success);
  });

  it('a binary classifier read as a score: a band of its probability', () => {
    const t = units(0.4, 0.6, 'P(approved = yes)');
    const r = invertTowards(engine, bin, { target: t, n: 200, epochs: 100, seed: 7 });
    assert.equal(r.output, 'score');
    assert.ok(r.success > 0.8, `success ${r.success}`);
    assert.throws(() => invertTowards(engine, bin, { target: units(1.2, 1.5, 'p'), n: 10, epochs: 2 }), isArg);
  });

  it('refuses a target that does not fit the model, and the rest of a target', () => {
    const c = classTarget(multi.classes[0], multi.classes, 'test');
    const b = units(1000, 2000, 'offered_limit');
    const go = (m: Classifier, target: OutputTarget) => () => invertTowards(engine, m, { target, n: 5, epochs: 2 });
    assert.throws(
      go(reg, c),
      (e) => isArg(e) && /a class target needs a multiclass model; the model is regression/.test(String(e)),
    );
    assert.throws(go(multi, b), (e) => isArg(e) && /the model is multiclass: name a class/.test(String(e)));
    assert.throws(go(bin, c), isArg);
    assert.throws(go(multi, restOf(c)), (e) => isArg(e) && /rest of another target/.test(String(e)));
    // binary invert refuses a model of another kind instead of reading its first output as a logit
    assert.throws(() => invert(engine, multi, { prefer: 'approve', n: 5, epochs: 2 }), isArg);
  });

  it("lucidTargetSection: the binary report's section, or why it did not run", () => {
    const box = builtinBlackBox(engine, multi, 'mc.json');
    const range: Record<string, [number, number]> = {};
    const roleOf = (col: string): 'protected' | 'feature' =>
      col === 'sex' || col === 'group' ? 'protected' : 'feature';
    const o = { n: 150, epochs: 80, seed: 8, range, roleOf };
    const t = classTarget('approve', multi.classes, 'test');
    const s = lucidTargetSection(engine, box, t, o);
    assert.equal(s.ran, true);
    assert.equal(s.prefer, 'class approve');
    assert.equal(s.projected, true);
    assert.ok(s.success! > 0.7, `success ${s.success}`);
    assert.equal(s.canonical!.rows, 150);
    assert.equal(s.start!.rows, 150);
    // the loss runs through both phases: 80 steps on every input, 80 on the numbers with one-hot groups held
    assert.equal(s.loss!.length, 160);
    assert.ok(s.loss![159] < s.loss![0]);
    assert.equal(s.distributions!.length, multi.preprocessor.groups.length);
    assert.ok(s.distributions!.some((d) => d.role === 'protected'));
    const not = (m: Parameters<typeof lucidTargetSection>[1], target: OutputTarget, re: RegExp) => {
      const r = lucidTargetSection(engine, m, target, o);
      assert.equal(r.ran, false);
      assert.match(r.reason!, re);
    };
    not(undefined, t, /predictions column/);
    not({ ...box, differentiable: undefined, kind: 'onnx' }, t, /gives no gradients; LUCID needs the built-in/);
    not(box, restOf(t), /cannot invert towards this target: .*rest of another target/);
    not(box, units(0, 1, 'x'), /the model is multiclass/);
  });
});
