// The stopping rules and the decision of the time-to-fidelity frontier (EXPERIMENTS.md §12.1, §12.3),
// read off the checks a run recorded (bench/quality.ts --frontier). Pure functions: no engine, no I/O.
//
// A rule reads only the checks up to where it stops. Its time is the training seconds at its stop plus
// the seconds of every check it read (an online rule pays for its checks); a fixed fraction reads no
// check and pays for none.

/** One check of a run: the sets drawn as the default audit draws them, measured. */
export interface FrontierCheck {
  /** generator steps done */
  steps: number;
  /** training wall seconds so far, the checks left out */
  seconds: number;
  /** what an online rule pays for this check: drawing the sets and the in-sample score */
  checkSeconds: number;
  /** mean KS/TV over features and both sides against the held-out rows (the primary measure) */
  eval: number;
  /** the same sets against the GAN's training rows of each side (what an online rule may read) */
  inSample: number;
  /** the rejection draw's acceptance, positive and negative side */
  acceptance: [number, number];
  /** the correction's effective sample share of each side's candidates (NaN: not corrected) */
  ess?: [number, number];
}

/** What a rule gives one run. */
export interface RuleOutcome {
  rule: string;
  /** the steps of the check the rule stops at, and of the weights it keeps */
  stopSteps: number;
  keptSteps: number;
  /** training seconds at the stop, plus the seconds of the checks read */
  seconds: number;
  eval: number;
  inSample: number;
  acceptance: [number, number];
  /** checks the rule read (0 for a fixed fraction) */
  checksRead: number;
}

export const FIXED_FRACTIONS = [0.25, 0.5, 0.75, 1] as const;
export const R1 = 'R1 fidelity plateau';
export const R2 = 'R2 fidelity and acceptance plateau';
export const RULES: readonly string[] = [...FIXED_FRACTIONS.map((f) => `fixed ${f}`), R1, R2];

/**
 * §12.1's plateau: no stop before 300 steps, 2 checks without a 2% improvement; R2 also counts a 2-point rise in the
 * mean acceptance.
 */
export const PLATEAU = { minSteps: 300, patience: 2, minDelta: 0.02, acceptanceRise: 0.02 };

const meanAcc = (c: { acceptance: [number, number] }) => (c.acceptance[0] + c.acceptance[1]) / 2;

/** `fixed f`: the check nearest to f × budget steps (the earlier of two as near); no check paid for. */
export function fixedRule(checks: readonly FrontierCheck[], budget: number, f: number): RuleOutcome {
  if (checks.length === 0) throw new Error('frontier: a run without checks');
  const target = f * budget;
  let at = checks[0];
  for (const c of checks) if (Math.abs(c.steps - target) < Math.abs(at.steps - target)) at = c;
  return {
    rule: `fixed ${f}`,
    stopSteps: at.steps,
    keptSteps: at.steps,
    seconds: at.seconds,
    eval: at.eval,
    inSample: at.inSample,
    acceptance: at.acceptance,
    checksRead: 0,
  };
}

/**
 * R1 (withAcceptance false): stop at the first check, not before PLATEAU.minSteps steps, after which the
 * in-sample score has not improved on its best so far by PLATEAU.minDelta (2%) for PLATEAU.patience
 * checks; the best-scored check's weights are kept. R2 (true): a check also counts as progress when
 * the mean acceptance (both sides) rises PLATEAU.acceptanceRise above its best so far; the stopping
 * check's weights are kept. Without a stop, the rule reads every check and stops at the last. A score
 * that cannot be computed (NaN) neither resets nor uses up the patience.
 */
export function plateauRule(checks: readonly FrontierCheck[], withAcceptance: boolean): RuleOutcome {
  if (checks.length === 0) throw new Error('frontier: a run without checks');
  let bestScore = Infinity;
  let best: FrontierCheck | null = null;
  let bestAcc = -Infinity;
  let waits = 0;
  let paid = 0;
  let stop = checks[checks.length - 1];
  let read = checks.length;
  for (let i = 0; i < checks.length; i++) {
    const c = checks[i];
    paid += c.checkSeconds;
    const acc = meanAcc(c);
    if (Number.isFinite(c.inSample)) {
      const better = c.inSample < bestScore * (1 - PLATEAU.minDelta);
      const rose = withAcceptance && Number.isFinite(acc) && acc > bestAcc + PLATEAU.acceptanceRise;
      if (better || rose) waits = 0;
      else waits++;
      if (best === null || c.inSample < best.inSample) best = c;
      bestScore = Math.min(bestScore, c.inSample);
    }
    if (Number.isFinite(acc)) bestAcc = Math.max(bestAcc, acc);
    if (waits >= PLATEAU.patience && c.steps >= PLATEAU.minSteps) {
      stop = c;
      read = i + 1;
      break;
    }
  }
  const kept = withAcceptance ? stop : (best ?? stop);
  return {
    rule: withAcceptance ? R2 : R1,
    stopSteps: stop.steps,
    keptSteps: kept.steps,
    seconds: stop.seconds + paid,
    eval: kept.eval,
    inSample: kept.inSample,
    acceptance: kept.acceptance,
    checksRead: read,
  };
}

/** Every rule of §12.1 on one run's checks; `budget`: the steps the run was trained to. */
export function applyRules(checks: readonly FrontierCheck[], budget: number): RuleOutcome[] {
  return [
    ...FIXED_FRACTIONS.map((f) => fixedRule(checks, budget, f)),
    plateauRule(checks, false),
    plateauRule(checks, true),
  ];
}

/** One run's outcome under one rule, with where it came from. */
export interface Outcome {
  setting: string;
  config: string;
  rule: string;
  seed: number;
  eval: number;
  /** mean acceptance of both sides */
  acceptance: number;
  seconds: number;
}

/** One candidate (configuration × rule) on one setting, against the reference. */
export interface Cell {
  setting: string;
  config: string;
  rule: string;
  seeds: number;
  evalMean: number;
  evalMin: number;
  evalMax: number;
  accMean: number;
  secondsMedian: number;
  /** median seconds / the reference's median seconds */
  ratio: number;
  /** the paired per-seed difference to the reference: its mean and standard error */
  diffMean: number;
  diffSE: number;
  /** max(0.005, 2 × diffSE) */
  tolerance: number;
  /** §12.3 (a) and (b) on this setting */
  fidelityOk: boolean;
  acceptanceOk: boolean;
}

export interface Candidate {
  config: string;
  rule: string;
  qualifies: boolean;
  /** why not, per setting */
  misses: string[];
  /** mean over settings of the median-seconds ratio, and of the mean eval fidelity */
  meanRatio: number;
  meanEval: number;
}

export interface Decision {
  reference: { config: string; rule: string };
  cells: Cell[];
  candidates: Candidate[];
  /** the fastest qualifier, and the one chosen (they differ when §12.3's 0.05 clause applies) */
  fastest: { config: string; rule: string } | null;
  chosen: { config: string; rule: string } | null;
  /** true when the chosen candidate is the reference itself, or nothing but it qualifies */
  defaultStays: boolean;
  text: string;
}

export const DECISION = { minTolerance: 0.005, seMultiple: 2, acceptancePoints: 0.05, ratioWindow: 0.05 };

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}
/** standard error of the mean (n − 1 in the variance); 0 for one value */
function se(xs: readonly number[]): number {
  if (xs.length < 2) return 0;
  const m = mean(xs);
  return Math.sqrt(xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1) / xs.length);
}

/**
 * §12.3: a candidate qualifies when on every setting its mean eval fidelity over the seeds is at most
 * the reference's + max(0.005, 2 × the standard error of the paired per-seed difference) and its mean
 * acceptance (both sides) is at least the reference's − 5 points. Chosen: the qualifier with the smallest
 * mean over settings of (median seconds / the reference's); one within 0.05 of that ratio and lower in
 * mean eval fidelity over the settings is taken instead (the lowest such). The reference is a candidate
 * like any other: when it is chosen, or nothing else qualifies, the default stays.
 */
export function decide(outcomes: readonly Outcome[], reference = { config: 'base', rule: 'fixed 1' }): Decision {
  const settings = [...new Set(outcomes.map((o) => o.setting))];
  const keys = [
    ...new Map(outcomes.map((o) => [`${o.config}\u0000${o.rule}`, { config: o.config, rule: o.rule }])).values(),
  ];
  const of = (s: string, c: string, r: string) =>
    outcomes.filter((o) => o.setting === s && o.config === c && o.rule === r);
  const cells: Cell[] = [];
  for (const s of settings) {
    const ref = of(s, reference.config, reference.rule);
    if (ref.length === 0) throw new Error(`frontier: no reference (${reference.config}, ${reference.rule}) on ${s}`);
    const refEval = mean(ref.map((o) => o.eval));
    const refAcc = mean(ref.map((o) => o.acceptance));
    const refSec = median(ref.map((o) => o.seconds));
    for (const k of keys) {
      const xs = of(s, k.config, k.rule);
      if (xs.length === 0) continue;
      const diffs = xs.map((o) => {
        const r = ref.find((x) => x.seed === o.seed);
        if (!r) throw new Error(`frontier: ${s} ${k.config} ${k.rule}: seed ${o.seed} has no reference run`);
        return o.eval - r.eval;
      });
      const diffSE = se(diffs);
      const tolerance = Math.max(DECISION.minTolerance, DECISION.seMultiple * diffSE);
      const evalMean = mean(xs.map((o) => o.eval));
      const accMean = mean(xs.map((o) => o.acceptance));
      const secondsMedian = median(xs.map((o) => o.seconds));
      cells.push({
        setting: s,
        config: k.config,
        rule: k.rule,
        seeds: xs.length,
        evalMean,
        evalMin: Math.min(...xs.map((o) => o.eval)),
        evalMax: Math.max(...xs.map((o) => o.eval)),
        accMean,
        secondsMedian,
        ratio: secondsMedian / refSec,
        diffMean: mean(diffs),
        diffSE,
        tolerance,
        fidelityOk: evalMean <= refEval + tolerance,
        acceptanceOk: accMean >= refAcc - DECISION.acceptancePoints,
      });
    }
  }
  const candidates: Candidate[] = keys.map((k) => {
    const cs = settings.map((s) => cells.find((c) => c.setting === s && c.config === k.config && c.rule === k.rule));
    const misses: string[] = [];
    settings.forEach((s, i) => {
      const c = cs[i];
      if (!c) return misses.push(`${s}: not run`);
      const ref = cells.find((x) => x.setting === s && x.config === reference.config && x.rule === reference.rule)!;
      if (!c.fidelityOk)
        misses.push(
          `${s}: eval fidelity ${c.evalMean.toFixed(3)} > ${ref.evalMean.toFixed(3)} + ${c.tolerance.toFixed(3)}`,
        );
      if (!c.acceptanceOk)
        misses.push(`${s}: acceptance ${(100 * c.accMean).toFixed(1)}% < ${(100 * ref.accMean).toFixed(1)}% − 5`);
    });
    const present = cs.filter((c): c is Cell => c !== undefined);
    return {
      ...k,
      qualifies: misses.length === 0,
      misses,
      meanRatio: mean(present.map((c) => c.ratio)),
      meanEval: mean(present.map((c) => c.evalMean)),
    };
  });
  const qual = candidates
    .filter((c) => c.qualifies)
    .sort((a, b) => a.meanRatio - b.meanRatio || a.meanEval - b.meanEval);
  const fastest = qual[0] ?? null;
  let chosen = fastest;
  if (fastest) {
    const better = qual
      .filter((c) => c.meanRatio <= fastest.meanRatio + DECISION.ratioWindow && c.meanEval < fastest.meanEval)
      .sort((a, b) => a.meanEval - b.meanEval);
    if (better.length) chosen = better[0];
  }
  const isRef = (c: { config: string; rule: string } | null) =>
    c !== null && c.config === reference.config && c.rule === reference.rule;
  const defaultStays = chosen === null || isRef(chosen);
  const name = (c: { config: string; rule: string }) => `\`${c.config}, ${c.rule}\``;
  const others = qual.filter((c) => !isRef(c));
  const text =
    others.length === 0
      ? 'No candidate but the reference qualifies: the default stays.'
      : defaultStays
        ? `The reference is chosen among the qualifiers (${others.map(name).join(', ')} qualify): the default stays.`
        : `${name(chosen!)} is chosen (mean over settings of the median-seconds ratio ` +
          `${chosen!.meanRatio.toFixed(2)}, mean eval fidelity ${chosen!.meanEval.toFixed(3)})${
            chosen !== fastest
              ? `, instead of the fastest qualifier ${name(fastest!)} (ratio ${fastest!.meanRatio.toFixed(2)}, eval ` +
                `fidelity ${fastest!.meanEval.toFixed(3)}), by §12.3's 0.05 clause`
              : ''
          }.`;
  return {
    reference,
    cells,
    candidates,
    fastest: fastest ? { config: fastest.config, rule: fastest.rule } : null,
    chosen: chosen ? { config: chosen.config, rule: chosen.rule } : null,
    defaultStays,
    text,
  };
}
