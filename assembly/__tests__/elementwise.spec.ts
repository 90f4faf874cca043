import {
  UnaryOp, UNARY_OP_COUNT,
  f32_fill, ref_fill, f32_copy, ref_copy, f32_binary, ref_binary, f32_binary_scalar, ref_binary_scalar,
  f32_binary_rows, ref_binary_rows, f32_binary_cols, ref_binary_cols, f32_axpy, ref_axpy,
  f32_scale, ref_scale, f32_unary, ref_unary, f32_leaky_relu, ref_leaky_relu,
  f32_leaky_relu_bwd, ref_leaky_relu_bwd, f32_mask_gt, ref_mask_gt, f32_dropout_mask, ref_dropout_mask,
} from "../kernels/elementwise";

function isApprox(op: i32): bool {
  return op == UnaryOp.Tanh || op == UnaryOp.Sigmoid || op == UnaryOp.Exp || op == UnaryOp.Log || op == UnaryOp.Softplus;
}

function fillForUnary(op: i32, p: usize, n: i32): void {
  if (op == UnaryOp.Log || op == UnaryOp.Sqrt) fillWithZeros(p, n, 0.0, 50.0);
  else if (op == UnaryOp.Exp) fillUniform(p, n, -30.0, 30.0);
  else fillWithZeros(p, n, -12.0, 12.0);
}

/** f64 reference of a unary op. */
function exact(op: i32, x: f64): f64 {
  switch (op) {
    case UnaryOp.Tanh: return Math.tanh(x);
    case UnaryOp.Sigmoid: return 1.0 / (1.0 + Math.exp(-x));
    case UnaryOp.Exp: return Math.exp(x);
    case UnaryOp.Log: return Math.log(x);
    case UnaryOp.Softplus: return Math.max(x, 0.0) + Math.log1p(Math.exp(-Math.abs(x)));
    default: return NaN;
  }
}

/** Max relative error (over normal results) and max absolute error (|f| < 1e-3) of f32_unary over xs. */
function sweep(name: string, op: i32, xs: usize, n: i32): bool {
  const out = allocF(n);
  f32_unary(op, out, xs, n);
  let maxRel: f64 = 0;
  let maxAbs: f64 = 0;
  let ok = true;
  for (let i = 0; i < n; i++) {
    const x = <f64>getF(xs, i);
    const e = exact(op, x);
    const a = <f64>getF(out, i);
    const err = Math.abs(a - e);
    if (Math.abs(e) >= 1.1754943508222875e-38 && isFinite(e)) maxRel = Math.max(maxRel, err / Math.abs(e));
    if (Math.abs(e) >= 1e-3) {
      if (err > 2e-6 * Math.abs(e)) {
        if (ok) log<string>(name + " fails at x=" + x.toString() + ": " + a.toString() + " vs " + e.toString());
        ok = false;
      }
    } else {
      maxAbs = Math.max(maxAbs, err);
      if (err > 1e-6 && err > 2e-6 * Math.abs(e)) {
        if (ok) log<string>(name + " fails at x=" + x.toString() + ": " + a.toString() + " vs " + e.toString());
        ok = false;
      }
    }
  }
  log<string>("accuracy " + name + ": max rel err (normal results) " + maxRel.toString() + ", max abs err (|f|<1e-3) " + maxAbs.toString());
  return ok;
}

describe("f32_unary", () => {
  test("matches ref_unary for every op and size, in place too, and leaves the guard intact", () => {
    for (let op = 0; op < UNARY_OP_COUNT; op++) {
      for (let k = 0; k < SIZES.length; k++) {
        const n = SIZES[k];
        const x = allocF(n);
        fillForUnary(op, x, n);
        const a = allocF(n);
        const r = allocF(n);
        f32_unary(op, a, x, n);
        ref_unary(op, r, x, n);
        const atol: f64 = isApprox(op) ? 1e-6 : 0;
        const rtol: f64 = isApprox(op) ? 2e-6 : 0;
        expect(allclose(a, r, n, atol, rtol)).toBe(true, "op " + op.toString() + " n " + n.toString());
        expect(guardOk(a, n)).toBe(true);
        const ip = allocF(n);
        copyF(ip, x, n);
        f32_unary(op, ip, ip, n);
        expect(bitsEqual(ip, a, n)).toBe(true, "in place op " + op.toString());
      }
    }
  });

  test("a value's result does not depend on its position (tail == lanes, bitwise)", () => {
    for (let op = 0; op < UNARY_OP_COUNT; op++) {
      const n = 67;
      const x = allocF(n);
      fillForUnary(op, x, n);
      const a = allocF(n);
      const b = allocF(n);
      f32_unary(op, a, x, n);
      for (let s = 1; s < 4; s++) {
        f32_unary(op, b, x + (<usize>s << 2), n - s);
        expect(bitsEqual(b, a + (<usize>s << 2), n - s)).toBe(true, "op " + op.toString());
      }
    }
  });

  test("special values", () => {
    const n = 12;
    const x = allocF(n);
    const out = allocF(n);
    const vals: StaticArray<f32> = [0, -0.0, Infinity, -Infinity, NaN, -1, 1e-40, 1e-45, 100, -100, 1, -1e-30];
    for (let i = 0; i < n; i++) setF(x, i, vals[i]);
    f32_unary(UnaryOp.Exp, out, x, n);
    expect(getF(out, 0)).toBe(1);
    expect(getF(out, 2)).toBe(Infinity);
    expect(getF(out, 3)).toBe(0);
    expect(isNaN(getF(out, 4))).toBe(true);
    expect(getF(out, 8)).toBe(Infinity);
    expect(getF(out, 9)).toBe(Mathf.exp(-100)); // denormal, exact here
    f32_unary(UnaryOp.Log, out, x, n);
    expect(getF(out, 0)).toBe(-Infinity);
    expect(getF(out, 1)).toBe(-Infinity);
    expect(getF(out, 2)).toBe(Infinity);
    expect(isNaN(getF(out, 3))).toBe(true);
    expect(isNaN(getF(out, 4))).toBe(true);
    expect(isNaN(getF(out, 5))).toBe(true);
    expect(Math.abs(<f64>getF(out, 6) - Math.log(<f64><f32>1e-40)) < 1e-5).toBe(true);
    expect(Math.abs(<f64>getF(out, 7) - Math.log(<f64><f32>1e-45)) < 1e-5).toBe(true);
    expect(getF(out, 10)).toBe(0);
    f32_unary(UnaryOp.Tanh, out, x, n);
    expect(getF(out, 2)).toBe(1);
    expect(getF(out, 3)).toBe(-1);
    expect(getF(out, 8)).toBe(1);
    expect(isNaN(getF(out, 4))).toBe(true);
    expect(getF(out, 11)).toBe(<f32>-1e-30);
    f32_unary(UnaryOp.Sigmoid, out, x, n);
    expect(getF(out, 0)).toBe(0.5);
    expect(getF(out, 2)).toBe(1);
    expect(getF(out, 3)).toBe(0);
    expect(getF(out, 9)).toBe(<f32>3.7200759760208361e-44);
    f32_unary(UnaryOp.Softplus, out, x, n);
    expect(getF(out, 2)).toBe(Infinity);
    expect(getF(out, 3)).toBe(0);
    expect(getF(out, 8)).toBe(100);
    expect(isNaN(getF(out, 4))).toBe(true);
    f32_unary(UnaryOp.Sign, out, x, n);
    expect(getF(out, 0)).toBe(0);
    expect(getF(out, 1)).toBe(0);
    expect(getF(out, 2)).toBe(1);
    expect(getF(out, 5)).toBe(-1);
    expect(getF(out, 4)).toBe(0);
    f32_unary(UnaryOp.Relu, out, x, n);
    expect(isNaN(getF(out, 4))).toBe(true);
    expect(getF(out, 5)).toBe(0);
  });

  test("accuracy of exp / log / tanh / sigmoid / softplus against f64 Math", () => {
    const n = 200001;
    const xs = allocF(n);
    for (let i = 0; i < n; i++) setF(xs, i, <f32>(-87.0 + 175.5 * <f64>i / <f64>(n - 1)));
    expect(sweep("exp [-87, 88.5]", UnaryOp.Exp, xs, n)).toBe(true);
    for (let i = 0; i < n; i++) setF(xs, i, <f32>(-2.0 + 4.0 * <f64>i / <f64>(n - 1)));
    expect(sweep("exp [-2, 2]", UnaryOp.Exp, xs, n)).toBe(true);
    for (let i = 0; i < n; i++) setF(xs, i, <f32>Math.pow(10.0, -44.0 + 82.0 * <f64>i / <f64>(n - 1)));
    expect(sweep("log [1e-44, 1e38]", UnaryOp.Log, xs, n)).toBe(true);
    for (let i = 0; i < n; i++) setF(xs, i, <f32>(0.5 + 1.5 * <f64>i / <f64>(n - 1)));
    expect(sweep("log [0.5, 2]", UnaryOp.Log, xs, n)).toBe(true);
    for (let i = 0; i < n; i++) setF(xs, i, <f32>(-10.0 + 20.0 * <f64>i / <f64>(n - 1)));
    expect(sweep("tanh [-10, 10]", UnaryOp.Tanh, xs, n)).toBe(true);
    for (let i = 0; i < n; i++) setF(xs, i, <f32>(-1.0 + 2.0 * <f64>i / <f64>(n - 1)));
    expect(sweep("tanh [-1, 1]", UnaryOp.Tanh, xs, n)).toBe(true);
    for (let i = 0; i < n; i++) setF(xs, i, <f32>Math.pow(10.0, -30.0 + 30.0 * <f64>i / <f64>(n - 1)));
    expect(sweep("tanh [1e-30, 1]", UnaryOp.Tanh, xs, n)).toBe(true);
    for (let i = 0; i < n; i++) setF(xs, i, <f32>(-40.0 + 80.0 * <f64>i / <f64>(n - 1)));
    expect(sweep("sigmoid [-40, 40]", UnaryOp.Sigmoid, xs, n)).toBe(true);
    expect(sweep("softplus [-40, 40]", UnaryOp.Softplus, xs, n)).toBe(true);
  });
});

describe("binary kernels", () => {
  test("f32_binary matches ref for every op and size, in place on a and on b", () => {
    for (let op = 0; op < 6; op++) {
      for (let k = 0; k < SIZES.length; k++) {
        const n = SIZES[k];
        const a = allocF(n);
        const b = allocF(n);
        fillWithZeros(a, n, -5, 5);
        fillWithZeros(b, n, -5, 5);
        const o = allocF(n);
        const r = allocF(n);
        f32_binary(op, o, a, b, n);
        ref_binary(op, r, a, b, n);
        expect(bitsEqual(o, r, n)).toBe(true, "op " + op.toString() + " n " + n.toString());
        expect(guardOk(o, n)).toBe(true);
        const ia = allocF(n);
        copyF(ia, a, n);
        f32_binary(op, ia, ia, b, n);
        expect(bitsEqual(ia, r, n)).toBe(true);
        const ib = allocF(n);
        copyF(ib, b, n);
        f32_binary(op, ib, a, ib, n);
        expect(bitsEqual(ib, r, n)).toBe(true);
      }
    }
  });

  test("max / min propagate NaN", () => {
    const a = allocF(4);
    const b = allocF(4);
    const o = allocF(4);
    setF(a, 0, NaN); setF(b, 1, NaN); setF(a, 2, 1); setF(b, 2, 2);
    f32_binary(4, o, a, b, 4);
    expect(isNaN(getF(o, 0)) && isNaN(getF(o, 1))).toBe(true);
    expect(getF(o, 2)).toBe(2);
    f32_binary(5, o, a, b, 4);
    expect(isNaN(getF(o, 0)) && isNaN(getF(o, 1))).toBe(true);
    expect(getF(o, 2)).toBe(1);
  });

  test("f32_binary_scalar matches ref for every op, swap and size, in place", () => {
    for (let op = 0; op < 6; op++) {
      for (let swap = 0; swap < 2; swap++) {
        for (let k = 0; k < SIZES.length; k++) {
          const n = SIZES[k];
          const x = allocF(n);
          fillWithZeros(x, n, -5, 5);
          const o = allocF(n);
          const r = allocF(n);
          f32_binary_scalar(op, swap, o, x, 1.75, n);
          ref_binary_scalar(op, swap, r, x, 1.75, n);
          expect(bitsEqual(o, r, n)).toBe(true, "op " + op.toString() + " swap " + swap.toString());
          expect(guardOk(o, n)).toBe(true);
          f32_binary_scalar(op, swap, x, x, 1.75, n);
          expect(bitsEqual(x, r, n)).toBe(true);
        }
      }
    }
    // s − x and s / x
    const x = allocF(2);
    const o = allocF(2);
    setF(x, 0, 4); setF(x, 1, 8);
    f32_binary_scalar(1, 1, o, x, 2, 2);
    expect(getF(o, 0)).toBe(-2);
    f32_binary_scalar(3, 1, o, x, 2, 2);
    expect(getF(o, 1)).toBe(0.25);
    f32_binary_scalar(3, 0, o, x, 2, 2);
    expect(getF(o, 1)).toBe(4);
  });

  test("f32_binary_rows / f32_binary_cols match ref for every op, swap, N, D, in place", () => {
    const dims: StaticArray<i32> = [0, 1, 3, 5, 8, 33, 257];
    const rowsN: StaticArray<i32> = [0, 1, 3, 7];
    for (let op = 0; op < 6; op++) {
      for (let swap = 0; swap < 2; swap++) {
        for (let a = 0; a < rowsN.length; a++) {
          for (let c = 0; c < dims.length; c++) {
            const N = rowsN[a];
            const D = dims[c];
            const x = allocF(N * D);
            fillWithZeros(x, N * D, -4, 4);
            const vr = allocF(D);
            fillWithZeros(vr, D, -4, 4);
            const vc = allocF(N);
            fillWithZeros(vc, N, -4, 4);
            const o = allocF(N * D);
            const r = allocF(N * D);
            f32_binary_rows(op, swap, o, x, vr, N, D);
            ref_binary_rows(op, swap, r, x, vr, N, D);
            expect(bitsEqual(o, r, N * D)).toBe(true, "rows op " + op.toString());
            expect(guardOk(o, N * D)).toBe(true);
            f32_binary_cols(op, swap, o, x, vc, N, D);
            ref_binary_cols(op, swap, r, x, vc, N, D);
            expect(bitsEqual(o, r, N * D)).toBe(true, "cols op " + op.toString());
            expect(guardOk(o, N * D)).toBe(true);
            f32_binary_cols(op, swap, x, x, vc, N, D);
            expect(bitsEqual(x, r, N * D)).toBe(true, "cols in place");
          }
        }
      }
    }
    // broadcast semantics on a 2×3 example: rows uses v[j], cols uses v[i]
    const x = allocF(6);
    for (let i = 0; i < 6; i++) setF(x, i, <f32>i);
    const v = allocF(3);
    setF(v, 0, 10); setF(v, 1, 20); setF(v, 2, 30);
    const o = allocF(6);
    f32_binary_rows(0, 0, o, x, v, 2, 3);
    expect(getF(o, 4)).toBe(24);
    f32_binary_cols(0, 0, o, x, v, 2, 3);
    expect(getF(o, 4)).toBe(24);
    expect(getF(o, 2)).toBe(12);
  });
});

describe("other elementwise kernels", () => {
  test("fill, copy, axpy, scale, leaky_relu(_bwd), mask_gt, dropout_mask match ref", () => {
    for (let k = 0; k < SIZES.length; k++) {
      const n = SIZES[k];
      const x = allocF(n);
      const y = allocF(n);
      fillWithZeros(x, n, -3, 3);
      fillUniform(y, n, -3, 3);
      const o = allocF(n);
      const r = allocF(n);

      f32_fill(o, n, 2.5);
      ref_fill(r, n, 2.5);
      expect(bitsEqual(o, r, n) && guardOk(o, n)).toBe(true, "fill");

      f32_copy(o, x, n);
      ref_copy(r, x, n);
      expect(bitsEqual(o, r, n) && guardOk(o, n)).toBe(true, "copy");

      copyF(o, y, n);
      copyF(r, y, n);
      f32_axpy(o, x, -0.7, n);
      ref_axpy(r, x, -0.7, n);
      expect(bitsEqual(o, r, n) && guardOk(o, n)).toBe(true, "axpy");

      f32_scale(o, x, 1.3, n);
      ref_scale(r, x, 1.3, n);
      expect(bitsEqual(o, r, n) && guardOk(o, n)).toBe(true, "scale");

      f32_leaky_relu(o, x, 0.2, n);
      ref_leaky_relu(r, x, 0.2, n);
      expect(bitsEqual(o, r, n) && guardOk(o, n)).toBe(true, "leaky_relu");

      f32_leaky_relu_bwd(o, y, x, 0.2, n);
      ref_leaky_relu_bwd(r, y, x, 0.2, n);
      expect(bitsEqual(o, r, n) && guardOk(o, n)).toBe(true, "leaky_relu_bwd");

      f32_mask_gt(o, x, 0.5, n);
      ref_mask_gt(r, x, 0.5, n);
      expect(bitsEqual(o, r, n) && guardOk(o, n)).toBe(true, "mask_gt");

      const u = allocF(n);
      fillUniform(u, n, 0, 1);
      f32_dropout_mask(o, u, 0.3, n);
      ref_dropout_mask(r, u, 0.3, n);
      expect(bitsEqual(o, r, n) && guardOk(o, n)).toBe(true, "dropout_mask");

      // in place variants
      copyF(o, x, n);
      f32_leaky_relu(o, o, 0.2, n);
      ref_leaky_relu(r, x, 0.2, n);
      expect(bitsEqual(o, r, n)).toBe(true, "leaky_relu in place");
      copyF(o, x, n);
      f32_scale(o, o, 1.3, n);
      ref_scale(r, x, 1.3, n);
      expect(bitsEqual(o, r, n)).toBe(true, "scale in place");
    }
  });

  test("known values", () => {
    const x = allocF(5);
    const o = allocF(5);
    setF(x, 0, -2); setF(x, 1, 0); setF(x, 2, 3); setF(x, 3, 0.5); setF(x, 4, 0.7);
    f32_dropout_mask(o, x, 0.6, 5);
    expect(getF(o, 0)).toBe(0);
    expect(getF(o, 3)).toBe(0);
    expect(getF(o, 4)).toBe(<f32>1.0 / (<f32>1.0 - <f32>0.6));
    f32_leaky_relu(o, x, 0.1, 5);
    expect(getF(o, 0)).toBe(<f32>-0.2);
    expect(getF(o, 2)).toBe(3);
    f32_mask_gt(o, x, 0.5, 5);
    expect(getF(o, 3)).toBe(0);
    expect(getF(o, 4)).toBe(1);
    f32_copy(x + 4, x, 4); // overlapping copy (memmove)
    expect(getF(x, 4)).toBe(0.5);
    expect(getF(x, 1)).toBe(-2);
  });
});
