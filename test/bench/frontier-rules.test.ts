// The stopping rules and the decision of the time-to-fidelity frontier (EXPERIMENTS.md §12.1, §12.3) on
// checks made up so that each clause decides something.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  applyRules,
  decide,
  fixedRule,
  plateauRule,
  R1,
  R2,
  type FrontierCheck,
  type Outcome,
} from '../../bench/lib/frontier-rules.js';

/** checks every 150 steps, 10 s of training and 1 s of checking each */
const run = (scores: number[], acc: number[] = scores.map(() => 0.5), evals: number[] = scores): FrontierCheck[] =>
  scores.map((s, i) => ({
    steps: 150 * (i + 1),
    seconds: 10 * (i + 1),
    checkSeconds: 1,
    eval: evals[i],
    inSample: s,
    acceptance: [acc[i], acc[i]],
  }));

test('fixed fractions: the nearest check, the earlier of two as near; no check paid for', () => {
  const cs = run([0.3, 0.2, 0.25, 0.22, 0.21, 0.2, 0.19, 0.18, 0.17, 0.16]);
  // budget 1500: 0.25 → 375 is 300 and 450 apart by 75 each: the earlier (300)
  assert.equal(fixedRule(cs, 1500, 0.25).stopSteps, 300);
  assert.equal(fixedRule(cs, 1500, 0.5).stopSteps, 750);
  assert.equal(fixedRule(cs, 1500, 1).stopSteps, 1500);
  assert.equal(fixedRule(cs, 1500, 1).seconds, 100);
  assert.equal(fixedRule(cs, 1500, 0.5).checksRead, 0);
  assert.equal(applyRules(cs, 1500).length, 6);
});

test(
  'R1: stops after 2 checks without a 2% gain on the best, not before 300 steps; keeps the best check and pays for ' +
    'every check read',
  () => {
    // 150: 0.30 (progress), 300: 0.20 (progress), 450: 0.199 (< 2%: wait 1), 600: 0.21 (wait 2: stop)
    const cs = run([0.3, 0.2, 0.199, 0.21, 0.1, 0.1]);
    const r = plateauRule(cs, false);
    assert.equal(r.rule, R1);
    assert.equal(r.stopSteps, 600);
    assert.equal(r.keptSteps, 450); // the lowest in-sample score read
    assert.equal(r.checksRead, 4);
    assert.equal(r.seconds, 40 + 4);
    // not before 300 steps: checks every 50 steps (small epochs) wait twice by 150 steps, but stop only at 300
    const early = plateauRule(
      run([0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2]).map((c, i) => ({ ...c, steps: 50 * (i + 1) })),
      false,
    );
    assert.equal(early.stopSteps, 300);
    assert.equal(early.checksRead, 6);
    // the best so far, not the last progress: 0.2 → 0.197 → 0.1955 (0.1955 is 2% below 0.2, not below 0.197)
    assert.equal(plateauRule(run([0.3, 0.2, 0.197, 0.1955, 0.5]), false).stopSteps, 600);
    // no plateau: every check read, stop at the last
    const never = plateauRule(run([0.5, 0.4, 0.3, 0.2]), false);
    assert.equal(never.stopSteps, 600);
    assert.equal(never.checksRead, 4);
    // a score that cannot be computed uses up no patience
    assert.equal(plateauRule(run([0.3, 0.2, NaN, 0.2, 0.2]), false).stopSteps, 750);
  },
);

test('R2: a 2-point rise in the mean acceptance counts as progress; the stopping check is kept', () => {
  const scores = [0.3, 0.2, 0.2, 0.2, 0.2, 0.2];
  const acc = [0.4, 0.4, 0.45, 0.46, 0.47, 0.47];
  // R1 stops at 600 (two flat checks after 300); R2: 450 rises 5 points (progress), 600 +1 (wait 1), 750 +1 over 0.46
  // (wait 2 → stop)
  assert.equal(plateauRule(run(scores, acc), false).stopSteps, 600);
  const r = plateauRule(run(scores, acc, [0.9, 0.8, 0.7, 0.6, 0.5, 0.4]), true);
  assert.equal(r.rule, R2);
  assert.equal(r.stopSteps, 750);
  assert.equal(r.keptSteps, 750);
  assert.equal(r.eval, 0.5);
});

const outcome = (
  setting: string,
  config: string,
  rule: string,
  seed: number,
  ev: number,
  acc: number,
  seconds: number,
): Outcome => ({ setting, config, rule, seed, eval: ev, acceptance: acc, seconds });

test(
  'decision: fidelity within max(0.005, 2 SE), acceptance within 5 points, on every setting; the fastest, unless ' +
    'one within 0.05 is better',
  () => {
    const o: Outcome[] = [];
    for (const s of ['a', 'b']) {
      for (const seed of [0, 1, 2]) {
        o.push(outcome(s, 'base', 'fixed 1', seed, 0.1, 0.6, 100));
        // fast and equal: qualifies, ratio 0.3
        o.push(outcome(s, 'w', 'fixed 0.25', seed, 0.104, 0.6, 30));
        // as fast + 0.04 and better: taken instead
        o.push(outcome(s, 'w', 'fixed 0.5', seed, 0.098, 0.58, 34));
        // faster still but its acceptance misses on b
        o.push(outcome(s, 'x', 'R1 fidelity plateau', seed, 0.1, s === 'b' ? 0.5 : 0.6, 10));
        // faster, fidelity beyond the tolerance on a (0.01 > 0.005, no spread)
        o.push(outcome(s, 'y', 'fixed 0.25', seed, s === 'a' ? 0.11 : 0.1, 0.6, 5));
      }
    }
    const d = decide(o);
    const cand = (config: string, rule: string) => d.candidates.find((c) => c.config === config && c.rule === rule)!;
    assert.equal(cand('x', 'R1 fidelity plateau').qualifies, false);
    assert.match(cand('x', 'R1 fidelity plateau').misses.join('; '), /b: acceptance 50\.0% < 60\.0% − 5/);
    assert.equal(cand('y', 'fixed 0.25').qualifies, false);
    assert.match(cand('y', 'fixed 0.25').misses.join('; '), /a: eval fidelity 0\.110 > 0\.100 \+ 0\.005/);
    assert.deepEqual(d.fastest, { config: 'w', rule: 'fixed 0.25' });
    assert.deepEqual(d.chosen, { config: 'w', rule: 'fixed 0.5' });
    assert.equal(d.defaultStays, false);
    // the paired SE widens the tolerance: differences 0, 0.02, 0.04 (mean 0.02, SE 0.0115) pass at 2 SE = 0.023
    const noisy: Outcome[] = [0, 1, 2].flatMap((seed) => [
      outcome('a', 'base', 'fixed 1', seed, 0.1, 0.6, 100),
      outcome('a', 'z', 'fixed 0.5', seed, 0.1 + 0.02 * seed, 0.6, 50),
    ]);
    const dz = decide(noisy);
    const cz = dz.cells.find((c) => c.config === 'z')!;
    assert.ok(Math.abs(cz.tolerance - (2 * 0.02) / Math.sqrt(3)) < 1e-12);
    assert.equal(cz.fidelityOk, true);
    // nothing but the reference qualifies: the default stays
    const none = decide(o.filter((x) => x.config !== 'w'));
    assert.equal(none.defaultStays, true);
    assert.match(none.text, /the default stays/);
  },
);
