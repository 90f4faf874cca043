// The sets an audit of a score, a class among k or a real value compares (issue #40): a target is a class, or a band
// of the output (`--band 0.9-1.0`, in quantiles of the audited rows' outputs or in the output's units), or the rows
// outside another target. A pair of targets is what the canonical sets contrast, as a binary audit contrasts
// prediction 1 with prediction 0: the more favourable target is side 1 ("favoured"), the other side 0.
//
// Said once here, below the audit layer, so that LUCID (a target to invert towards), FALE and the audit read the same
// targets. Core code: no Node imports.
import { check } from '../../engine/errors.js';
import { quantileSorted } from '../../data/quantile.js';
import type { Direction } from './outputs.js';

/** How a band's two numbers are read: quantiles of the audited rows' outputs (default) or the output's own units. */
export type BandScale = 'quantile' | 'units';
export const BAND_SCALES: readonly BandScale[] = ['quantile', 'units'];

/** A band as the user wrote it: `lo-hi` on its scale. */
export interface BandSpec {
  lo: number;
  hi: number;
  scale: BandScale;
}

/** One side of a comparison of outputs. */
export type OutputTarget =
  /** a multiclass output's class (`index` into the model's classes) */
  | { kind: 'class'; class: string; index: number; label: string }
  /**
   * a score's or real value's closed band [lo, hi] in the output's units (the audited outputs' own ends), and how it
   * was asked for; `open` when the quantile end 0 or 1 takes every output below or above (a generated row, a true
   * value beyond the audited outputs)
   */
  | { kind: 'band'; lo: number; hi: number; spec: BandSpec; label: string; open?: { below: boolean; above: boolean } }
  /** every output outside `of` */
  | { kind: 'rest'; of: OutputTarget; label: string };

/** Two targets the canonical sets contrast: `favoured` (side 1) is the more favourable one. */
export interface TargetPair {
  favoured: OutputTarget;
  other: OutputTarget;
  /**
   * whether `favoured` was read as the more favourable from a direction or a class order (true), or taken as named
   * (false: a multiclass output without a class order, where the first named class is read as the outcome sought)
   */
  ordered: boolean;
  /** one sentence: how the pair was chosen (the report's and the summary's words) */
  why: string;
}

/** The default band pair: the top and the bottom decile of the outputs. */
export const DEFAULT_BANDS: readonly [BandSpec, BandSpec] = [
  { lo: 0.9, hi: 1, scale: 'quantile' },
  { lo: 0, hi: 0.1, scale: 'quantile' },
];

/**
 * Reads `lo-hi` (e.g. "0.9-1.0", "-3--1", "700-850"): two finite numbers, lo ≤ hi; quantiles must be in [0, 1]. An
 * error names `where` and the text.
 */
export function parseBand(text: string, scale: BandScale, where: string): BandSpec {
  const m = /^\s*(-?[0-9.]+(?:e[-+]?\d+)?)\s*-\s*(-?[0-9.]+(?:e[-+]?\d+)?)\s*$/i.exec(text);
  const lo = m ? Number(m[1]) : Number.NaN;
  const hi = m ? Number(m[2]) : Number.NaN;
  check(
    m !== null && Number.isFinite(lo) && Number.isFinite(hi),
    'E_ARG',
    () => `${where}: --band "${text}" is not two numbers lo-hi (e.g. 0.9-1.0)`,
  );
  check(lo <= hi, 'E_ARG', () => `${where}: --band "${text}": its low end ${lo} is above its high end ${hi}`);
  if (scale === 'quantile')
    check(
      lo >= 0 && hi <= 1,
      'E_ARG',
      () =>
        `${where}: --band "${text}" is read in quantiles, which lie in [0, 1]; give --band-scale units to read it in ` +
        `the output's units`,
    );
  return { lo, hi, scale };
}

const num = (x: number): string => String(Number(x.toPrecision(6)));

/**
 * A band in the output's units from its spec: quantile ends are the audited outputs' quantiles (`sorted` ascending,
 * the same quantile rule as the metrics), so the bottom decile 0-0.1 is [min, Q(0.1)] and holds every row tied at
 * Q(0.1).
 */
export function bandTarget(spec: BandSpec, sorted: Float64Array, output: string): OutputTarget {
  const q = (p: number): number => quantileSorted(sorted, p);
  // the ends are the outputs' own; as a target the quantile ends 0 and 1 are open-ended, so that an output beyond the
  // audited ones (a generated row, a true value) is still in the top or bottom band
  const lo = spec.scale === 'quantile' ? (spec.lo === 0 ? sorted[0] : q(spec.lo)) : spec.lo;
  const hi = spec.scale === 'quantile' ? (spec.hi === 1 ? sorted[sorted.length - 1] : q(spec.hi)) : spec.hi;
  const open = { below: spec.scale === 'quantile' && spec.lo === 0, above: spec.scale === 'quantile' && spec.hi === 1 };
  const units = lo === hi ? `${output} = ${num(lo)}` : `${num(lo)} ≤ ${output} ≤ ${num(hi)}`;
  const label =
    spec.scale === 'quantile'
      ? `${bandName(spec)} of ${output} (${units})`
      : `${output} in [${num(spec.lo)}, ${num(spec.hi)}]`;
  return { kind: 'band', lo, hi, spec, label, ...(open.below || open.above ? { open } : {}) };
}

/** "top decile", "bottom decile", "quantiles 0.4–0.6": a quantile band's name. */
function bandName(spec: BandSpec): string {
  const w = spec.hi - spec.lo;
  const part = Math.abs(w - 0.1) < 1e-12 ? 'decile' : Math.abs(w - 0.25) < 1e-12 ? 'quartile' : null;
  if (part && spec.hi === 1) return `top ${part}`;
  if (part && spec.lo === 0) return `bottom ${part}`;
  return `quantiles ${num(spec.lo)}–${num(spec.hi)}`;
}

/** The class `c` of a multiclass output with classes `classes`; an error names `where` when it is not one. */
export function classTarget(c: string, classes: readonly string[], where: string): OutputTarget {
  const index = classes.indexOf(c);
  check(
    index >= 0,
    'E_ARG',
    () => `${where}: --class "${c}" is not a class of the output; its classes are: ${classes.join(', ')}`,
  );
  return { kind: 'class', class: c, index, label: `class ${c}` };
}

/** Every output outside `t`. */
export function restOf(t: OutputTarget): OutputTarget {
  return { kind: 'rest', of: t, label: `outside the ${t.label}` };
}

/**
 * Whether one output is in target `t`: `v` is the value of a score or a real value, or the class index of a
 * multiclass output.
 */
export function inTarget(t: OutputTarget, v: number): boolean {
  switch (t.kind) {
    case 'class':
      return v === t.index;
    case 'band':
      return (v >= t.lo || (t.open?.below === true && v < t.lo)) && (v <= t.hi || (t.open?.above === true && v > t.hi));
    case 'rest':
      return !Number.isNaN(v) && !inTarget(t.of, v);
  }
}

/**
 * Side per output: 1 in the pair's favoured target, 0 in the other, 2 in neither. Targets overlap at most in one point
 * (two bands that touch), whose outputs are the favoured side's.
 */
export function sidesOf(pair: TargetPair, values: ArrayLike<number>): Uint8Array {
  const out = new Uint8Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    out[i] = inTarget(pair.favoured, v) ? 1 : inTarget(pair.other, v) ? 0 : 2;
  }
  return out;
}

/** What the audit knows about the output when it chooses the pair. */
export interface PairInput {
  kind: 'score' | 'multiclass' | 'regression';
  /** the output name in labels ("decile_score", "the prediction") */
  output: string;
  /** per audited row: the value (score, regression) or the class index (multiclass) */
  values: Float64Array;
  /** multiclass: the classes, and the class order (most favourable first) or null */
  classes?: readonly string[];
  classOrder?: readonly string[] | null;
  /** score and regression: which end is favourable */
  direction?: Direction;
  /** `--band` (at most two) and `--class` (at most two), as given */
  bands?: readonly BandSpec[];
  classNames?: readonly string[];
  where: string;
}

/**
 * The pair the canonical sets contrast. Scores and real values: two bands (default the top and bottom deciles), or
 * one band and the rest; multiclass: two classes (default the first and the last of the class order), or one class
 * and the rest. The more favourable side is side 1: a band's or class's mean favourability (the value in the
 * favourable direction, or the class order's rank) over the audited rows in it. Null, with the reason, when no pair
 * can be chosen (a multiclass output with neither a class order nor --class).
 */
export function targetPair(o: PairInput): TargetPair | { none: string } {
  if (o.kind === 'multiclass') {
    const classes = o.classes ?? [];
    const named = o.classNames ?? [];
    check(named.length <= 2, 'E_ARG', () => `${o.where}: --class is given at most twice (two classes to contrast)`);
    check((o.bands ?? []).length === 0, 'E_ARG', () => `${o.where}: --band reads a score or a real value, not classes`);
    const order = o.classOrder ?? null;
    let a: OutputTarget;
    let b: OutputTarget;
    if (named.length === 0) {
      if (!order)
        return {
          none:
            'a multiclass output has no favourable end without --class-order (most favourable first) or --class ' +
            '(the class, or two classes, to contrast)',
        };
      a = classTarget(order[0], classes, o.where);
      b = classTarget(order[order.length - 1], classes, o.where);
    } else {
      a = classTarget(named[0], classes, o.where);
      b = named.length === 2 ? classTarget(named[1], classes, o.where) : restOf(a);
      check(
        named.length < 2 || named[0] !== named[1],
        'E_ARG',
        () => `${o.where}: --class names "${named[0]}" twice; name two classes or one`,
      );
    }
    if (!order)
      return {
        favoured: a,
        other: b,
        ordered: false,
        why:
          `${a.label} against ${b.label}, as named; without --class-order the first is read as the outcome sought` +
          ` (statements say what the model prefers for it)`,
      };
    const rank = (c: number): number => order.length - 1 - order.indexOf(classes[c]);
    const [fav, oth] = favourFirst(a, b, o.values, rank);
    return {
      favoured: fav,
      other: oth,
      ordered: true,
      why:
        named.length === 0
          ? `the most and the least favourable classes of the class order (${order.join(' > ')})`
          : `${named.length === 2 ? 'the two classes' : 'the class'} named with --class, the more favourable by the ` +
            `class order (${order.join(' > ')}) first`,
    };
  }
  check((o.classNames ?? []).length === 0, 'E_ARG', () => `${o.where}: --class reads classes, not a ${o.kind} output`);
  const specs = o.bands?.length ? o.bands : DEFAULT_BANDS;
  check(specs.length <= 2, 'E_ARG', () => `${o.where}: --band is given at most twice (two bands to contrast)`);
  const finite = o.values.filter((v) => Number.isFinite(v)).sort();
  check(finite.length > 0, 'E_ARG', () => `${o.where}: the output has no finite value to cut bands from`);
  const a = bandTarget(specs[0], finite, o.output);
  const b = specs.length === 2 ? bandTarget(specs[1], finite, o.output) : restOf(a);
  // bands asked to touch (0.5-1 and 0-0.5) share one point, whose rows go to the favoured side (sidesOf looks there
  // first); bands asked apart must stay apart in units, which ties at a quantile can prevent
  if (a.kind === 'band' && b.kind === 'band') {
    const sa = a.spec;
    const sb = b.spec;
    const asked = sa.scale === sb.scale && (sa.hi <= sb.lo || sb.hi <= sa.lo);
    const touch = sa.scale === sb.scale && (sa.hi === sb.lo || sb.hi === sa.lo);
    const apart = a.hi < b.lo || b.hi < a.lo || (touch && (a.hi <= b.lo || b.hi <= a.lo));
    check(
      apart,
      'E_ARG',
      () =>
        `${o.where}: the bands ${a.label} and ${b.label} overlap` +
        (asked ? ' in units: the output has few distinct values there, so their quantiles meet' : '') +
        '; give bands that do not overlap with --band',
    );
  }
  const dir = o.direction ?? 'higher';
  const [fav, oth] = favourFirst(a, b, o.values, (v) => (dir === 'higher' ? v : -v));
  return {
    favoured: fav,
    other: oth,
    ordered: true,
    why:
      (o.bands?.length
        ? `the band${specs.length === 2 ? 's' : ''} named with --band`
        : 'the top and the bottom deciles of the output (the default)') +
      `; the ${dir === 'higher' ? 'higher' : 'lower'} outputs are favourable, so the ${fav.label} is the favoured side`,
  };
}

/** The two targets, the one whose rows have the larger mean favourability `score(v)` first (a tie keeps the order). */
function favourFirst(
  a: OutputTarget,
  b: OutputTarget,
  values: Float64Array,
  score: (v: number) => number,
): [OutputTarget, OutputTarget] {
  const mean = (t: OutputTarget): number => {
    let s = 0;
    let n = 0;
    for (const v of values)
      if (inTarget(t, v)) {
        s += score(v);
        n++;
      }
    return n ? s / n : Number.NaN;
  };
  const ma = mean(a);
  const mb = mean(b);
  return Number.isNaN(ma) || Number.isNaN(mb) || ma >= mb ? [a, b] : [b, a];
}
