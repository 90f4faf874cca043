// The Jensen–Shannon distance of two share (or count) vectors: a leaf module, so that the checks
// (checks.ts) and the distributions (distance.ts) both use it without importing each other.

/** Jensen–Shannon distance, base-2 logs: sqrt(JSD) in [0, 1]; inputs are normalised first (0 when either is empty). */
export function jsDistance(p: ArrayLike<number>, q: ArrayLike<number>): number {
  const k = Math.max(p.length, q.length);
  let sp = 0;
  let sq = 0;
  for (let i = 0; i < k; i++) {
    sp += p[i] ?? 0;
    sq += q[i] ?? 0;
  }
  if (!(sp > 0) || !(sq > 0)) return 0;
  let d = 0;
  for (let i = 0; i < k; i++) {
    const a = (p[i] ?? 0) / sp;
    const b = (q[i] ?? 0) / sq;
    const m = (a + b) / 2;
    if (a > 0) d += 0.5 * a * Math.log2(a / m);
    if (b > 0) d += 0.5 * b * Math.log2(b / m);
  }
  return Math.sqrt(Math.min(1, Math.max(0, d)));
}
