#!/usr/bin/env python3
"""Generate golden test values with PyTorch for the lucid-wasm engine tests.

Development-time tool only: the TypeScript tests read the JSON fixtures this
script writes and never need Python.  See tools/golden/README.md for the
exact JSON format.

Usage:
    python3 tools/golden/gen_golden.py [OUT_DIR]      # default: test/fixtures

Everything is float32, single-threaded, with fixed seeds, so re-running the
script with the same torch version reproduces the files bit for bit.

The computations are written out explicitly with torch.nn.functional and
tensor ops (independent re-implementation of a CTGAN-shaped architecture; no
CTGAN code is used).
"""

import json
import math
import os
import sys

import torch
import torch.nn.functional as F

FORMAT_VERSION = 1
COMMAND = "python3 tools/golden/gen_golden.py [OUT_DIR]"


# --------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------

def setup():
    torch.set_num_threads(1)
    torch.set_default_dtype(torch.float32)
    torch.use_deterministic_algorithms(True)


def T(t):
    """Tensor -> {"shape": [...], "data": [row-major floats]}.

    Each float32 is written as the shortest decimal that rounds back to
    the same float32 (numpy's float32 repr), which keeps the files small;
    Math.fround(JSON value) in JS (or storing it in a Float32Array) gives
    back the identical float32.
    """
    t = t.detach()
    assert t.dtype == torch.float32, t.dtype
    t = t.contiguous()
    data = [float(repr(v)) for v in t.reshape(-1).numpy()]
    for v in data:
        if not math.isfinite(v):
            raise ValueError("non-finite value in golden tensor")
    return {"shape": list(t.shape), "data": data}


def header(name, seed):
    return {
        "fixture": name,
        "format_version": FORMAT_VERSION,
        "torch_version": torch.__version__,
        "command": COMMAND,
        "seed": seed,
        "dtype": "float32",
    }


def write_json(out_dir, filename, obj):
    path = os.path.join(out_dir, filename)
    with open(path, "w") as f:
        json.dump(obj, f, separators=(",", ":"), allow_nan=False)
        f.write("\n")
    size = os.path.getsize(path)
    print("wrote %s (%d bytes, %.2f MB)" % (path, size, size / 1e6))
    return path


def default_linear(in_f, out_f):
    """torch's default nn.Linear init (kaiming_uniform a=sqrt(5) for weight,
    U(-1/sqrt(in), 1/sqrt(in)) for bias); returns plain tensors (out,in),(out,)."""
    lin = torch.nn.Linear(in_f, out_f)
    return lin.weight.detach().clone(), lin.bias.detach().clone()


# --------------------------------------------------------------------------
# (a) WGAN-GP critic with pac=10
# --------------------------------------------------------------------------

def gen_critic(out_dir):
    seed = 1234
    torch.manual_seed(seed)
    pac, din, B = 10, 23, 40
    npack = B // pac          # 4
    width = pac * din         # 230
    H = 256
    lam = 10.0
    slope = 0.2
    p_drop = 0.5

    W1, b1 = default_linear(width, H)
    W2, b2 = default_linear(H, H)
    W3, b3 = default_linear(H, 1)
    params = {"W1": W1, "b1": b1, "W2": W2, "b2": b2, "W3": W3, "b3": b3}

    real = torch.randn(B, din)
    real[:, 5:12] = torch.rand(B, 7)             # some [0,1] columns
    fake = torch.randn(B, din)
    fake[:, 5:12] = torch.rand(B, 7)
    alpha = torch.rand(npack, 1, 1).repeat(1, pac, 1).view(B, 1)

    def mask(n):
        return (torch.rand(n, H) >= p_drop).to(torch.float32) * (1.0 / (1.0 - p_drop))

    masks = {}
    for k in ["mask_real_1", "mask_real_2", "mask_fake_1", "mask_fake_2",
              "mask_interp_1", "mask_interp_2"]:
        masks[k] = mask(npack)

    P = {k: v.clone().requires_grad_(True) for k, v in params.items()}
    real_v = real.clone().requires_grad_(True)
    fake_v = fake.clone().requires_grad_(True)

    def D(x, m1, m2):
        h = F.linear(x, P["W1"], P["b1"])
        h = F.leaky_relu(h, slope) * m1
        h = F.linear(h, P["W2"], P["b2"])
        h = F.leaky_relu(h, slope) * m2
        return F.linear(h, P["W3"], P["b3"])

    y_real = D(real_v.view(npack, width), masks["mask_real_1"], masks["mask_real_2"])
    y_fake = D(fake_v.view(npack, width), masks["mask_fake_1"], masks["mask_fake_2"])

    interp = alpha * real_v + (1 - alpha) * fake_v
    # interp is a non-leaf that requires grad (it depends on real_v/fake_v),
    # so autograd.grad w.r.t. it is well defined.
    y_interp = D(interp.view(npack, width), masks["mask_interp_1"], masks["mask_interp_2"])
    g = torch.autograd.grad(y_interp, interp, grad_outputs=torch.ones_like(y_interp),
                            create_graph=True)[0]
    penalty = lam * ((g.view(npack, width).norm(2, dim=1) - 1) ** 2).mean()
    loss_d = -(y_real.mean() - y_fake.mean())
    total = loss_d + penalty

    names = list(P.keys())
    pen_wrt = [P[n] for n in names] + [real_v, fake_v]
    # b3 does not influence g (nor the penalty): its gradient is exactly 0,
    # autograd reports None for it, which we write as zeros.
    dpen = torch.autograd.grad(penalty, pen_wrt, retain_graph=True, allow_unused=True)
    dpen = [torch.zeros_like(w) if d is None else d for w, d in zip(pen_wrt, dpen)]
    dtot = torch.autograd.grad(total, [P[n] for n in names], retain_graph=False)

    out = header("golden-critic", seed)
    out.update({
        "lambda": 10, "pac": pac, "slope": slope, "dropout_p": p_drop,
        "din": din, "batch": B, "hidden": H,
        "layers": "Linear(230,256)-LeakyReLU(0.2)-Dropout(0.5)-Linear(256,256)"
                  "-LeakyReLU(0.2)-Dropout(0.5)-Linear(256,1); dropout = multiply by mask",
    })
    for k, v in params.items():
        out[k] = T(v)
    out["real"] = T(real)
    out["fake"] = T(fake)
    out["alpha"] = T(alpha)
    for k, v in masks.items():
        out[k] = T(v)
    out["y_real"] = T(y_real)
    out["y_fake"] = T(y_fake)
    out["y_interp"] = T(y_interp)
    out["g"] = T(g)
    out["penalty"] = T(penalty)
    out["loss_d"] = T(loss_d)
    out["total"] = T(total)
    for i, n in enumerate(names):
        out["dpenalty_" + n] = T(dpen[i])
    out["dpenalty_real"] = T(dpen[len(names)])
    out["dpenalty_fake"] = T(dpen[len(names) + 1])
    for i, n in enumerate(names):
        out["dtotal_" + n] = T(dtot[i])
    return write_json(out_dir, "golden-critic.json", out)


# --------------------------------------------------------------------------
# (b) residual generator with BatchNorm (training mode) + tanh/gumbel-softmax
# --------------------------------------------------------------------------

def gen_generator(out_dir):
    seed = 2345
    torch.manual_seed(seed)
    B, din, H = 64, 40, 256
    eps, momentum, tau = 1e-5, 0.1, 0.2
    spans_spec = [("tanh", 1), ("softmax", 3), ("tanh", 1), ("softmax", 5), ("softmax", 7)]
    dout = sum(d for _, d in spans_spec)   # 17

    fc1_W, fc1_b = default_linear(din, H)
    fc2_W, fc2_b = default_linear(din + H, H)
    out_W, out_b = default_linear(din + 2 * H, dout)
    bn1_gamma = torch.rand(H) + 0.5            # U(0.5, 1.5)
    bn1_beta = torch.randn(H) * 0.1            # N(0, 0.1)
    bn2_gamma = torch.rand(H) + 0.5
    bn2_beta = torch.randn(H) * 0.1
    params = {
        "fc1_W": fc1_W, "fc1_b": fc1_b, "bn1_gamma": bn1_gamma, "bn1_beta": bn1_beta,
        "fc2_W": fc2_W, "fc2_b": fc2_b, "bn2_gamma": bn2_gamma, "bn2_beta": bn2_beta,
        "out_W": out_W, "out_b": out_b,
    }

    z = torch.randn(B, din)
    # Gumbel(0,1) noise, same recipe as F.gumbel_softmax: -log(Exp(1))
    G = -torch.empty(B, dout).exponential_().log()
    R = torch.randn(B, dout)

    P = {k: v.clone().requires_grad_(True) for k, v in params.items()}
    z_v = z.clone().requires_grad_(True)
    rm1, rv1 = torch.zeros(H), torch.ones(H)
    rm2, rv2 = torch.zeros(H), torch.ones(H)

    def residual(x, W, b, gamma, beta, rm, rv, training):
        h = F.linear(x, W, b)
        h = F.batch_norm(h, rm, rv, gamma, beta, training=training,
                         momentum=momentum, eps=eps)
        return torch.cat([F.relu(h), x], dim=1)

    def net(x, training):
        h = residual(x, P["fc1_W"], P["fc1_b"], P["bn1_gamma"], P["bn1_beta"], rm1, rv1, training)
        h = residual(h, P["fc2_W"], P["fc2_b"], P["bn2_gamma"], P["bn2_beta"], rm2, rv2, training)
        return F.linear(h, P["out_W"], P["out_b"])

    logits = net(z_v, True)   # updates rm1/rv1/rm2/rv2 in place (unbiased var)

    pieces, spans, st = [], [], 0
    for kind, d in spans_spec:
        seg = logits[:, st:st + d]
        if kind == "tanh":
            pieces.append(torch.tanh(seg))
            spans.append({"type": "tanh", "start": st, "dim": d})
        else:
            pieces.append(F.softmax((seg + G[:, st:st + d]) / tau, dim=1))
            spans.append({"type": "softmax", "start": st, "dim": d, "tau": tau})
        st += d
    act = torch.cat(pieces, dim=1)
    loss = (act * R).sum()

    names = list(P.keys())
    grads = torch.autograd.grad(loss, [P[n] for n in names] + [z_v])

    # Explicit cross-check of the running statistics update.
    with torch.no_grad():
        h1 = F.linear(z, fc1_W, fc1_b)
        exp_rm1 = 0.9 * torch.zeros(H) + 0.1 * h1.mean(0)
        exp_rv1 = 0.9 * torch.ones(H) + 0.1 * h1.var(0, unbiased=True)
        assert torch.allclose(rm1, exp_rm1, atol=1e-6) and torch.allclose(rv1, exp_rv1, atol=1e-5)

    with torch.no_grad():
        out_eval = net(z, False)

    out = header("golden-generator", seed)
    out.update({
        "batch": B, "din": din, "hidden": H, "dout": dout,
        "bn_eps": eps, "bn_momentum": momentum, "tau": tau,
        "spans": spans,
        "layers": "Residual(40->256)-Residual(296->256)-Linear(552->17); "
                  "Residual(x)=cat([relu(bn_train(linear(x))), x], 1)",
    })
    for k, v in params.items():
        out[k] = T(v)
    out["z"] = T(z)
    out["G"] = T(G)
    out["R"] = T(R)
    out["logits"] = T(logits)
    out["act"] = T(act)
    out["loss"] = T(loss)
    for i, n in enumerate(names):
        out["d_" + n] = T(grads[i])
    out["d_z"] = T(grads[len(names)])
    out["bn1_running_mean"] = T(rm1)
    out["bn1_running_var"] = T(rv1)
    out["bn2_running_mean"] = T(rm2)
    out["bn2_running_var"] = T(rv2)
    out["out_eval"] = T(out_eval)
    return write_json(out_dir, "golden-generator.json", out)


# --------------------------------------------------------------------------
# (c) Adam
# --------------------------------------------------------------------------

def gen_adam(out_dir):
    seed = 3456
    steps = 10
    configs = [
        {"lr": 2e-4, "betas": [0.5, 0.9], "eps": 1e-8, "weight_decay": 1e-6},
        {"lr": 1e-2, "betas": [0.9, 0.999], "eps": 1e-8, "weight_decay": 0.1},
    ]
    out = header("golden-adam", seed)
    out.update({"steps": steps, "amsgrad": False, "maximize": False,
                "foreach": False, "configs": []})
    for ci, cfg in enumerate(configs):
        torch.manual_seed(seed + ci)
        p1_0 = torch.randn(37)
        p2_0 = torch.randn(5, 7)
        g1 = torch.randn(steps, 37)
        g2 = torch.randn(steps, 5, 7)
        p1 = p1_0.clone().requires_grad_(True)
        p2 = p2_0.clone().requires_grad_(True)
        opt = torch.optim.Adam([p1, p2], lr=cfg["lr"], betas=tuple(cfg["betas"]),
                               eps=cfg["eps"], weight_decay=cfg["weight_decay"],
                               foreach=False)
        p1_hist, p2_hist = [], []
        for t in range(steps):
            p1.grad = g1[t].clone()
            p2.grad = g2[t].clone()
            opt.step()
            p1_hist.append(p1.detach().clone())
            p2_hist.append(p2.detach().clone())
        s1, s2 = opt.state[p1], opt.state[p2]
        c = dict(cfg)
        c.update({
            "p1_init": T(p1_0), "p2_init": T(p2_0),
            "grads_p1": T(g1), "grads_p2": T(g2),
            "p1_after": T(torch.stack(p1_hist)), "p2_after": T(torch.stack(p2_hist)),
            "exp_avg_p1": T(s1["exp_avg"]), "exp_avg_sq_p1": T(s1["exp_avg_sq"]),
            "exp_avg_p2": T(s2["exp_avg"]), "exp_avg_sq_p2": T(s2["exp_avg_sq"]),
            "final_step": int(float(s1["step"])),
        })
        out["configs"].append(c)
    return write_json(out_dir, "golden-adam.json", out)


def main(argv):
    out_dir = argv[1] if len(argv) > 1 else os.path.join("test", "fixtures")
    setup()
    os.makedirs(out_dir, exist_ok=True)
    print("torch", torch.__version__)
    gen_critic(out_dir)
    gen_generator(out_dir)
    gen_adam(out_dir)


if __name__ == "__main__":
    main(sys.argv)
