#!/usr/bin/env python3
"""PyTorch side of the `torch` bench group (bench/torch.bench.ts): a CTGAN-style WGAN-GP training
step and epoch at the shapes lucid trains, so one bench run can time both, interleaved.

Written for lucid-wasm from the methods (WGAN-GP: Gulrajani et al. 2017; PacGAN: Lin et al. 2018;
CTGAN: Xu et al. 2019; LUCID-GAN as published) and from lucid's own model
(src/models/ctgan/networks.ts, src/models/lucidgan/model.ts GanTrainer.step); no code is taken from
the CTGAN package.

The data are random: real rows, raw conditions and cond vectors are drawn once (or per step) from
torch's generator. An epoch's cost does not depend on the values (no data-dependent branches, no
denormals: values are in [-1, 1] or one-hots), only on the shapes, which come from lucid (--shapes).

Protocol (a long-running child: its start-up and warm-up are not timed): after the model is built and
warmed up, one JSON line {"ready": true, ...} on stdout. Then, per line on stdin:
  epoch      -> runs `steps` training steps; replies {"ms": wall time in the script}
  step N     -> runs N steps; replies {"ms": ...}
  quit       -> exits
Run alone for a quick look:  python3 bench/torch/wgan_gp.py --shapes '{...}' --threads 2 --once 3
"""
import argparse
import json
import os
import sys
import time


def parse():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument('--shapes', required=True, help='JSON: rows, steps, batch, embedding, generatorDims, discriminatorDims, pac, '
                   'lr, betas, weightDecay, penaltyLambda, tau, dataDim, condDim, rawConditions, spans [{kind, width}], '
                   'discrete [{data, cond, width}]')
    p.add_argument('--threads', type=int, default=1, help='torch.set_num_threads (intra-op threads)')
    p.add_argument('--mode', choices=['same-work', 'reference'], default='same-work',
                   help="same-work: lucid's computation (the critic step runs the generator without a graph; each "
                        "step differentiates only its own network's parameters). reference: as the Python reference "
                        "trains (the critic step's fake rows keep the generator's graph, and loss.backward() fills the "
                        "gradients of every parameter the loss reaches)")
    p.add_argument('--seed', type=int, default=0)
    p.add_argument('--warmup-steps', type=int, default=3)
    p.add_argument('--once', type=int, default=0, help='run this many epochs, print their times, exit (no protocol)')
    return p.parse_args()


def main():
    args = parse()
    import torch
    import torch.nn as nn
    import torch.nn.functional as F

    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    s = json.loads(args.shapes)
    B, E, pac = s['batch'], s['embedding'], s['pac']
    d, cd, nc = s['dataDim'], s['condDim'], s['rawConditions']
    spans, discrete = s['spans'], s['discrete']
    assert sum(x['width'] for x in spans) == d, 'spans must cover dataDim'
    assert B % pac == 0

    class Residual(nn.Module):
        """Linear -> BatchNorm1d -> ReLU, concatenated with the block's input."""

        def __init__(self, i, o):
            super().__init__()
            self.fc = nn.Linear(i, o)
            self.bn = nn.BatchNorm1d(o)

        def forward(self, x):
            return torch.cat([torch.relu(self.bn(self.fc(x))), x], 1)

    class Generator(nn.Module):
        def __init__(self, i, hidden, o):
            super().__init__()
            blocks = []
            for h in hidden:
                blocks.append(Residual(i, h))
                i += h
            self.blocks = nn.Sequential(*blocks)
            self.out = nn.Linear(i, o)

        def forward(self, z):
            return self.out(self.blocks(z))

    class Critic(nn.Module):
        """PacGAN: (N, D') viewed as (N/pac, pac*D') -> [Linear -> LeakyReLU(0.2) -> Dropout(0.5)]* -> Linear 1."""

        def __init__(self, i, hidden, pac):
            super().__init__()
            self.pac, self.width = pac, i * pac
            layers, w = [], i * pac
            for h in hidden:
                layers += [nn.Linear(w, h), nn.LeakyReLU(0.2), nn.Dropout(0.5)]
                w = h
            layers.append(nn.Linear(w, 1))
            self.net = nn.Sequential(*layers)

        def forward(self, x):
            return self.net(x.reshape(-1, self.width))

    G = Generator(E + cd + nc, s['generatorDims'], d)
    D = Critic(d + cd + nc, s['discriminatorDims'], pac)
    adam = dict(lr=s['lr'], betas=tuple(s['betas']), weight_decay=s['weightDecay'])
    optG = torch.optim.Adam(G.parameters(), **adam)
    optD = torch.optim.Adam(D.parameters(), **adam)
    gParams, dParams = list(G.parameters()), list(D.parameters())
    lam, tau = s['penaltyLambda'], s['tau']

    # Random stand-ins for the transformed rows and the raw conditions (see the module docstring).
    rows = s['rows']
    X = torch.rand(rows, d) * 2 - 1
    P = torch.rand(rows, nc)
    disc_cond = torch.tensor([c['cond'] for c in discrete], dtype=torch.long)
    disc_width = torch.tensor([c['width'] for c in discrete], dtype=torch.float32)

    def activate(raw):
        out, at = [], 0
        for sp in spans:
            x = raw[:, at:at + sp['width']]
            at += sp['width']
            out.append(torch.tanh(x) if sp['kind'] == 'tanh' else F.gumbel_softmax(x, tau=tau))
        return torch.cat(out, 1)

    def draw_cond():
        """A cond vector per row (one discrete column, one of its categories) and a training row per row."""
        c = torch.zeros(B, cd)
        if len(discrete):
            col = torch.randint(len(discrete), (B,))
            cat = (torch.rand(B) * disc_width[col]).long()
            c[torch.arange(B), disc_cond[col] + cat] = 1
        return c, torch.randint(rows, (B,))

    def cat(*parts):
        return torch.cat([p for p in parts if p.shape[1] > 0], 1)

    def cond_loss(raw, c):
        """Sum over discrete columns of the cross-entropy of the column's logits against the cond vector's one-hot, / B."""
        total = 0
        for col in discrete:
            logp = F.log_softmax(raw[:, col['data']:col['data'] + col['width']], 1)
            total = total - (c[:, col['cond']:col['cond'] + col['width']] * logp).sum()
        return total / raw.shape[0]

    same = args.mode == 'same-work'

    def apply(opt, params, loss):
        opt.zero_grad(set_to_none=True)
        if same:
            for p, g in zip(params, torch.autograd.grad(loss, params)):
                p.grad = g
        else:
            loss.backward()
        opt.step()

    def step():
        # ---- critic step
        z = torch.randn(B, E)
        c1, idx = draw_cond()
        perm = torch.randperm(B)
        c2, ridx = c1[perm], idx[perm]
        p_fake, p_real = P[idx], P[ridx]
        with torch.set_grad_enabled(not same):
            fake = activate(G(cat(z, c1, p_fake)))
        fake_cat = cat(fake, c1, p_fake)
        real_cat = cat(X[ridx], c2, p_real)
        y_fake, y_real = D(fake_cat), D(real_cat)
        wd = -(y_real.mean() - y_fake.mean())
        # gradient penalty: one alpha per pack, norm of the packed row's gradient, graph kept (create_graph)
        alpha = torch.rand(B // pac, 1).repeat_interleave(pac, 0)
        interp = alpha * real_cat + (1 - alpha) * (fake_cat.detach() if same else fake_cat)
        if same:
            interp.requires_grad_(True)
        y = D(interp)
        (g,) = torch.autograd.grad(y.sum(), interp, create_graph=True)
        penalty = lam * ((g.reshape(B // pac, -1).norm(2, dim=1) - 1) ** 2).mean()
        total = wd + penalty
        loss_d, pen = wd.item(), penalty.item()
        if loss_d == loss_d and pen == pen:
            apply(optD, dParams, total)
        # ---- generator step
        z = torch.randn(B, E)
        c1, idx = draw_cond()
        p = P[idx]
        raw = G(cat(z, c1, p))
        y = D(cat(activate(raw), c1, p))
        total = -y.mean() + cond_loss(raw, c1)
        if total.item() == total.item():
            apply(optG, gParams, total)

    steps = s['steps']

    def run(n):
        t0 = time.perf_counter()
        for _ in range(n):
            step()
        return (time.perf_counter() - t0) * 1000

    run(args.warmup_steps)
    if args.once:
        for _ in range(args.once):
            print(f'epoch ({steps} steps): {run(steps):.0f} ms', flush=True)
        return
    info = {
        'ready': True,
        'torch': torch.__version__,
        'threads': torch.get_num_threads(),
        'mode': args.mode,
        'blas': blas_library(),
        'openblasThreads': os.environ.get('OPENBLAS_NUM_THREADS'),
        'steps': steps,
        'generatorParams': sum(x.numel() for x in gParams),
        'criticParams': sum(x.numel() for x in dParams),
    }
    print(json.dumps(info), flush=True)
    for line in sys.stdin:
        cmd = line.split()
        if not cmd:
            continue
        if cmd[0] == 'quit':
            break
        n = steps if cmd[0] == 'epoch' else int(cmd[1]) if cmd[0] == 'step' else None
        if n is None:
            print(json.dumps({'error': f'unknown command {line.strip()!r}'}), flush=True)
            continue
        print(json.dumps({'ms': run(n)}), flush=True)


def blas_library():
    """The BLAS shared object this process mapped (torch's GEMM goes through it)."""
    try:
        with open('/proc/self/maps') as f:
            libs = {line.split()[-1] for line in f if 'blas' in line.lower() and '.so' in line}
        return ', '.join(sorted(libs)) or 'none mapped'
    except OSError:
        return 'unknown'


if __name__ == '__main__':
    main()
