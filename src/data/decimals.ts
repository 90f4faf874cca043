// How many decimals a numeric column is written with: the generator rounds what it writes to them
// (integers stay integers), and a column derived from others is rounded the same way. Core code.

/** the most decimals a column is rounded to; a column needing more is left unrounded */
export const MAX_DECIMALS = 6;

/**
 * The fewest decimals (0 … MAX_DECIMALS) that write every value of `values` exactly (to 1e-9 of the
 * scaled value), or null when none does. A NaN value (a missing cell) matches no count, so a column
 * with one gives null, as the transformer has always had it.
 */
export function decimalPlaces(values: Float64Array): number | null {
  for (let d = 0; d <= MAX_DECIMALS; d++) {
    const f = 10 ** d;
    let ok = true;
    for (let i = 0; i < values.length && ok; i++) {
      const s = values[i] * f;
      ok = Math.abs(s - Math.round(s)) <= 1e-9 * Math.max(1, Math.abs(s));
    }
    if (ok) return d;
  }
  return null;
}
