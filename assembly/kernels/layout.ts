// Layout kernels: strided 2-D copies, the building block of concat/slice along columns.

/**
 * out[i, 0:D] = x[i, 0:D] for i < N.
 * shapes: out: (N, ldo) block, x: (N, ldx) block; copies a (N, D) window. No overlap allowed.
 */
export function f32_copy2d(out: usize, ldo: i32, x: usize, ldx: i32, N: i32, D: i32): void {
  assert(N >= 0 && D >= 0 && ldo >= D && ldx >= D);
  const so = <usize>ldo << 2, sx = <usize>ldx << 2;
  for (let i = 0; i < N; i++) {
    let o = out + <usize>i * so, s = x + <usize>i * sx;
    const end = s + (<usize>(D & ~3) << 2);
    while (s < end) {
      v128.store(o, v128.load(s));
      s += 16; o += 16;
    }
    for (let j = D & ~3; j < D; j++) {
      store<f32>(o, load<f32>(s));
      s += 4; o += 4;
    }
  }
}

/** Scalar twin of f32_copy2d. */
export function ref_copy2d(out: usize, ldo: i32, x: usize, ldx: i32, N: i32, D: i32): void {
  for (let i = 0; i < N; i++) {
    for (let j = 0; j < D; j++) store<f32>(out + (<usize>(i * ldo + j) << 2), load<f32>(x + (<usize>(i * ldx + j) << 2)));
  }
}
