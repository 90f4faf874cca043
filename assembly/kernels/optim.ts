// Optimizers.
//
// f32_adam follows torch.optim.Adam's single-tensor path (_single_tensor_adam, amsgrad=False,
// maximize=False) operation by operation, with torch's f32 rounding of each Python-float scalar:
//   g'  = g + wd·p                         (grad.add(param, alpha=wd); skipped when wd == 0)
//   m   = lerp(m, g', 1−β1)                 (exp_avg.lerp_(grad, 1-beta1): torch's two-branch lerp)
//   v   = v·β2 + ((1−β2)·g')·g'             (exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1-beta2))
//   den = √v / bc2sqrt + eps                (exp_avg_sq.sqrt() / bias_correction2_sqrt).add_(eps)
//   p   = p + ((−stepSize)·m) / den         (param.addcdiv_(exp_avg, denom, value=-step_size))
// with stepSize = lr/(1−β1^t) and bc2sqrt = √(1−β2^t) computed by the host in f64.
//
// β1 and β2 are taken as f64: torch forms 1−β in f64 and only then rounds to f32; from an f32 β2
// (0.999f) 1−β2 would be off by 1.3e-5 relative. The JS call is the same either way (a number).
// Torch's AVX2 build fuses two of these steps (lerp, add with alpha) with FMA in its vector path,
// so results agree with torch to about 1 ulp, not bit for bit.

// @ts-ignore: decorator
@inline function adamLoop(
  hasWd: bool, smallW: bool,
  p: usize, g: usize, m: usize, v: usize, n: i32,
  stepSize: f32, w1: f32, b2: f32, w2: f32, eps: f32, wd: f32, bc2sqrt: f32,
): void {
  const n4 = (<usize>n & ~3) << 2;
  const nb = <usize>n << 2;
  const negStep = -stepSize;
  const omw: f32 = <f32>1.0 - w1; // torch: opmath_t(1) - weight
  let o: usize = 0;
  for (; o < n4; o += 16) {
    const pv = v128.load(p + o);
    let gv = v128.load(g + o);
    if (hasWd) gv = f32x4.add(gv, f32x4.mul(f32x4.splat(wd), pv));
    const mv = v128.load(m + o);
    const mn = smallW
      ? f32x4.add(mv, f32x4.mul(f32x4.splat(w1), f32x4.sub(gv, mv)))
      : f32x4.sub(gv, f32x4.mul(f32x4.sub(gv, mv), f32x4.splat(omw)));
    v128.store(m + o, mn);
    const vn = f32x4.add(
      f32x4.mul(v128.load(v + o), f32x4.splat(b2)),
      f32x4.mul(f32x4.mul(f32x4.splat(w2), gv), gv),
    );
    v128.store(v + o, vn);
    const den = f32x4.add(f32x4.div(f32x4.sqrt(vn), f32x4.splat(bc2sqrt)), f32x4.splat(eps));
    v128.store(p + o, f32x4.add(pv, f32x4.div(f32x4.mul(f32x4.splat(negStep), mn), den)));
  }
  for (; o < nb; o += 4) {
    const pv = load<f32>(p + o);
    let gv = load<f32>(g + o);
    if (hasWd) gv = gv + wd * pv;
    const mv = load<f32>(m + o);
    const mn = smallW ? mv + w1 * (gv - mv) : gv - (gv - mv) * omw;
    store<f32>(m + o, mn);
    const vn = load<f32>(v + o) * b2 + (w2 * gv) * gv;
    store<f32>(v + o, vn);
    const den = sqrt<f32>(vn) / bc2sqrt + eps;
    store<f32>(p + o, pv + (negStep * mn) / den);
  }
}

/**
 * One Adam step over n parameters, in place on p, m (exp_avg), v (exp_avg_sq). g is read only.
 * stepSize = lr / (1 − β1^t), bc2sqrt = √(1 − β2^t) (host, f64).
 */
export function f32_adam(
  p: usize, g: usize, m: usize, v: usize, n: i32,
  stepSize: f32, beta1: f64, beta2: f64, eps: f32, weightDecay: f32, bc2sqrt: f32,
): void {
  assert(n >= 0);
  const w1 = <f32>(1.0 - beta1);
  const b2 = <f32>beta2;
  const w2 = <f32>(1.0 - beta2);
  const small = abs<f32>(w1) < <f32>0.5; // torch's is_lerp_weight_small
  if (weightDecay != 0) {
    if (small) adamLoop(true, true, p, g, m, v, n, stepSize, w1, b2, w2, eps, weightDecay, bc2sqrt);
    else adamLoop(true, false, p, g, m, v, n, stepSize, w1, b2, w2, eps, weightDecay, bc2sqrt);
  } else {
    if (small) adamLoop(false, true, p, g, m, v, n, stepSize, w1, b2, w2, eps, 0, bc2sqrt);
    else adamLoop(false, false, p, g, m, v, n, stepSize, w1, b2, w2, eps, 0, bc2sqrt);
  }
}

export function ref_adam(
  p: usize, g: usize, m: usize, v: usize, n: i32,
  stepSize: f32, beta1: f64, beta2: f64, eps: f32, weightDecay: f32, bc2sqrt: f32,
): void {
  assert(n >= 0);
  const w1 = <f32>(1.0 - beta1);
  const b2 = <f32>beta2;
  const w2 = <f32>(1.0 - beta2);
  for (let i = 0; i < n; i++) {
    const o = <usize>i << 2;
    const pi = load<f32>(p + o);
    let gi = load<f32>(g + o);
    if (weightDecay != 0) gi = gi + weightDecay * pi;
    const mi = load<f32>(m + o);
    const mn = Mathf.abs(w1) < 0.5 ? mi + w1 * (gi - mi) : gi - (gi - mi) * (<f32>1.0 - w1);
    const vn = load<f32>(v + o) * b2 + (w2 * gi) * gi;
    const den = Mathf.sqrt(vn) / bc2sqrt + eps;
    store<f32>(m + o, mn);
    store<f32>(v + o, vn);
    store<f32>(p + o, pi + (-stepSize * mn) / den);
  }
}
