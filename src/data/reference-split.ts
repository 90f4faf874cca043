// The reference's train/val/test split, recomputed without split_indices.json.
//
// The reference splits with scikit-learn's train_test_split(random_state=1234), which draws one
// permutation from numpy's legacy RandomState: MT19937 seeded by init_genrand(1234), then a
// Fisher–Yates shuffle whose index for position i is a 32-bit draw masked to i's bit width and
// redrawn while above i. The first ceil(p·n) positions of the permutation are the held-out split,
// the rest the kept one. Reproducing those two steps gives the reference's row positions exactly
// (test/data/datasets.test.ts compares them with split_indices.json when the data folder holds
// it), so a user who downloads only the UCI and ProPublica files gets the paper's split.
//
// This generator is for that reproduction only; every other draw in the project is the engine's
// Philox stream (engine/rng.ts).

/** MT19937 (Matsumoto & Nishimura 1998) seeded as numpy's RandomState(int) seeds it: a uint32 stream. */
function mt19937(seed: number): () => number {
  const N = 624;
  const mt = new Uint32Array(N); // state: (624,)
  let idx = N;
  mt[0] = seed >>> 0;
  for (let i = 1; i < N; i++) mt[i] = (Math.imul(1812433253, mt[i - 1] ^ (mt[i - 1] >>> 30)) + i) >>> 0;
  return () => {
    if (idx >= N) {
      for (let k = 0; k < N; k++) {
        const y = (mt[k] & 0x80000000) | (mt[(k + 1) % N] & 0x7fffffff);
        mt[k] = mt[(k + 397) % N] ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0);
      }
      idx = 0;
    }
    let y = mt[idx++];
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  };
}

/** numpy's RandomState(seed).permutation(n) (legacy shuffle, n < 2^31). */
export function numpyPermutation(n: number, seed: number): Int32Array {
  const next = mt19937(seed);
  const p = Int32Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    let mask = i;
    mask |= mask >>> 1;
    mask |= mask >>> 2;
    mask |= mask >>> 4;
    mask |= mask >>> 8;
    mask |= mask >>> 16;
    let j: number;
    do j = (next() & mask) >>> 0;
    while (j > i);
    const t = p[i];
    p[i] = p[j];
    p[j] = t;
  }
  return p;
}

/** The reference's seed (canonical_sets' BaseData default) and held-out proportions (val_prop, test_prop). */
export const REFERENCE_SPLIT = { seed: 1234, val: 0.2, test: 0.2 } as const;

/**
 * sklearn's train_test_split(positions, test_size=p, random_state=seed): [kept, held out], each in the
 * permutation's order as sklearn returns them. `positions` are what is split (0 … n−1 the first time).
 */
export function trainTestSplit(positions: readonly number[], p: number, seed: number): [number[], number[]] {
  const n = positions.length;
  const held = Math.ceil(p * n);
  const perm = numpyPermutation(n, seed);
  const pick = (from: number, to: number) => Array.from(perm.subarray(from, to), (k) => positions[k]);
  return [pick(held, n), pick(0, held)];
}
