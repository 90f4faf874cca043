// The seeded generator every random draw comes from: Philox4x32-10 in wasm, keyed by the seed,
// with a counter this object owns. The same seed and the same sequence of calls give the same
// bits on every run (per kernel build: the relaxed-SIMD build may differ in the last bit of
// transformed values such as normals).
import { check } from './errors.js';
import type { Engine, Shape, Tensor } from './engine.js';

const TWO32 = 2 ** 32;

export class Rng {
  private readonly key0: number;
  private readonly key1: number;
  /** Philox blocks consumed so far (each gives 4 values). */
  private counter = 0;

  constructor(
    readonly engine: Engine,
    readonly seed: number,
  ) {
    check(
      Number.isSafeInteger(seed) && seed >= 0,
      'E_ARG',
      () => `rng: seed must be a non-negative integer, got ${seed}`,
    );
    this.key0 = (seed % TWO32) | 0;
    this.key1 = Math.floor(seed / TWO32) | 0;
  }

  private draw(kind: 'rng_uniform' | 'rng_normal' | 'rng_gumbel', shape: Shape): Tensor {
    const t = this.engine.empty(shape);
    this.fill(kind, t);
    return t;
  }

  /** Fills t in place (used for parameter initialisation in persistent blocks). */
  fill(kind: 'rng_uniform' | 'rng_normal' | 'rng_gumbel', t: Tensor): void {
    const c = this.counter;
    this.engine.k[kind](t.ptr, t.size, this.key0, this.key1, (c % TWO32) | 0, Math.floor(c / TWO32) | 0);
    this.counter += Math.ceil(t.size / 4);
  }

  /** U[0, 1) */
  uniform(shape: Shape): Tensor {
    return this.draw('rng_uniform', shape);
  }

  /** N(0, 1) */
  normal(shape: Shape): Tensor {
    return this.draw('rng_normal', shape);
  }

  /** Gumbel(0, 1): −log(−log u) */
  gumbel(shape: Shape): Tensor {
    return this.draw('rng_gumbel', shape);
  }

  /** Host-side standard normals for JS code, from the same stream (drawn in wasm: the same bits in every runtime). */
  normalHost(n: number): Float64Array {
    const out = new Float64Array(n);
    this.engine.scope(() => {
      out.set(this.normal([n]).data);
    });
    return out;
  }

  /** Host-side uniforms in [0, 1) for JS code (shuffles, sampling indices), from the same stream. */
  uniformHost(n: number): Float64Array {
    const out = new Float64Array(n);
    this.engine.scope(() => {
      const t = this.uniform([n]);
      // one typed-array copy (each float32 widens exactly to its float64), not an element loop
      out.set(t.data);
    });
    return out;
  }

  /** A uniformly random permutation of 0 … n−1: Fisher–Yates over n uniforms from this stream. */
  permutation(n: number): Int32Array {
    const p = new Int32Array(n);
    for (let i = 0; i < n; i++) p[i] = i;
    if (n < 2) return p;
    const u = this.uniformHost(n);
    for (let i = n - 1; i > 0; i--) {
      const j = Math.min(i, Math.floor(u[i] * (i + 1)));
      const t = p[i];
      p[i] = p[j];
      p[j] = t;
    }
    return p;
  }

  /** The state, to save and restore a generator (e.g. with a model checkpoint). */
  get state(): { seed: number; counter: number } {
    return { seed: this.seed, counter: this.counter };
  }

  set state(s: { seed: number; counter: number }) {
    check(
      s.seed === this.seed,
      'E_ARG',
      () => `rng: state is for seed ${s.seed}, this generator has seed ${this.seed}`,
    );
    this.counter = s.counter;
  }
}
