"""BLIND4: a fourth blind set, written on 2026-12-05 (seventh session)
before any change of that session; to be measured before any change and
scored with main as it stood at the session's start first (the held-out
figure), then again at the end, both reported (bench/zoo_accuracy.py
--set blind4).  Its families are in no other set (ZOO, BLIND, BLIND2,
BLIND3, the reference models) and were in view of no plan rule, feature,
fit or calibration: masked autoregressive convolution (PixelCNN),
split attention (ResNeSt), relative-position attention with memory
(Transformer-XL), gated residual networks (Temporal Fusion), neural ODEs,
hypernetworks, spatial transformers, Kolmogorov-Arnold networks, diagonal
state-space models, involution, neural cellular automata and
optimal-transport matching.  None of them was run through onnxcost
predict before being measured.

Same table form as export.py's ZOO (ctor, family, inputs, run); exported by
scripts/ort_graphs.py's export() (opset 13, symbolic batch N).
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def _attend(q, k, v, heads, mask=None):
    """Multi-head scaled dot-product attention on (N, Lq, d), (N, Lk, d),
    (N, Lk, d) written with MatMul/Softmax (no fused op)."""
    d = q.shape[2]
    dh = d // heads
    lq, lk = q.shape[1], k.shape[1]
    q = q.reshape(-1, lq, heads, dh).transpose(1, 2)
    k = k.reshape(-1, lk, heads, dh).transpose(1, 2)
    v = v.reshape(-1, lk, heads, dh).transpose(1, 2)
    s = torch.matmul(q, k.transpose(2, 3)) / math.sqrt(dh)
    if mask is not None:
        s = s + mask
    a = torch.softmax(s, dim=-1)
    return torch.matmul(a, v).transpose(1, 2).reshape(-1, lq, d)


class PixelCNNLike(nn.Module):
    """PixelCNN (van den Oord et al.) on 32x32 RGB: a 7x7 type-A masked
    Conv, residual blocks of 1x1 down / 3x3 type-B masked Conv / 1x1 up
    (the masks multiplied into the weights in forward), ReLU, masked 1x1
    Convs to 256-way logits per sub-pixel, LogSoftmax."""

    class Masked(nn.Conv2d):
        def __init__(self, cin, cout, k, kind):
            super().__init__(cin, cout, k, padding=k // 2)
            m = torch.ones(cout, cin, k, k)
            c = k // 2
            m[:, :, c, c + (1 if kind == "B" else 0):] = 0
            m[:, :, c + 1:] = 0
            self.register_buffer("mask", m)

        def forward(self, x):
            return F.conv2d(x, self.weight * self.mask, self.bias, padding=self.padding)

    class Res(nn.Module):
        def __init__(self, c):
            super().__init__()
            M = PixelCNNLike.Masked
            self.a = nn.Conv2d(c, c // 2, 1)
            self.b = M(c // 2, c // 2, 3, "B")
            self.c = nn.Conv2d(c // 2, c, 1)

        def forward(self, x):
            h = self.a(F.relu(x))
            h = self.b(F.relu(h))
            return x + self.c(F.relu(h))

    def __init__(self, c=128, blocks=8, levels=256):
        super().__init__()
        M = PixelCNNLike.Masked
        self.levels = levels
        self.inp = M(3, c, 7, "A")
        self.blocks = nn.Sequential(*[PixelCNNLike.Res(c) for _ in range(blocks)])
        self.h1 = M(c, c, 1, "B")
        self.h2 = M(c, 3 * levels, 1, "B")

    def forward(self, x):                          # (N, 3, 32, 32)
        h = self.blocks(self.inp(x))
        y = self.h2(F.relu(self.h1(F.relu(h))))
        y = y.reshape(-1, self.levels, 3, x.shape[2], x.shape[3])
        return torch.log_softmax(y, dim=1)


class ResNeStLike(nn.Module):
    """ResNeSt-style classifier (Zhang et al.): deep 3-conv stem, bottlenecks
    whose 3x3 stage is a radix-2 split-attention Conv (grouped 3x3 Conv to
    two splits, summed, global pooled, two 1x1 Convs, radix softmax,
    attention-weighted sum of the splits), average-pool downsampling in
    the block and the shortcut (avd / avg_down)."""

    class Block(nn.Module):
        def __init__(self, cin, width, cout, stride, radix=2):
            super().__init__()
            self.r, self.w, self.stride = radix, width, stride
            inter = max(width * radix // 4, 32)
            self.c1 = nn.Sequential(nn.Conv2d(cin, width, 1, bias=False),
                                    nn.BatchNorm2d(width), nn.ReLU())
            self.split = nn.Sequential(nn.Conv2d(width, width * radix, 3, 1, 1, groups=radix,
                                                 bias=False),
                                       nn.BatchNorm2d(width * radix), nn.ReLU())
            self.fc1 = nn.Sequential(nn.Conv2d(width, inter, 1), nn.BatchNorm2d(inter),
                                     nn.ReLU())
            self.fc2 = nn.Conv2d(inter, width * radix, 1)
            self.c3 = nn.Sequential(nn.Conv2d(width, cout, 1, bias=False), nn.BatchNorm2d(cout))
            self.short = nn.Sequential(nn.AvgPool2d(stride) if stride > 1 else nn.Identity(),
                                       nn.Conv2d(cin, cout, 1, bias=False),
                                       nn.BatchNorm2d(cout)) \
                if (stride > 1 or cin != cout) else nn.Identity()

        def forward(self, x):
            h = self.split(self.c1(x))
            hw = h.shape[2], h.shape[3]
            sp = h.reshape(-1, self.r, self.w, hw[0], hw[1])
            g = sp.sum(dim=1).mean((2, 3), keepdim=True)
            a = self.fc2(self.fc1(g)).reshape(-1, self.r, self.w)
            a = torch.softmax(a, dim=1).reshape(-1, self.r, self.w, 1, 1)
            h = (sp * a).sum(dim=1)
            if self.stride > 1:
                h = F.avg_pool2d(h, 3, self.stride, 1)
            return F.relu(self.short(x) + self.c3(h))

    def __init__(self, layers=(2, 2, 2, 2), widths=(32, 64, 128, 256), classes=1000):
        super().__init__()
        B = ResNeStLike.Block
        self.stem = nn.Sequential(nn.Conv2d(3, 32, 3, 2, 1, bias=False), nn.BatchNorm2d(32),
                                  nn.ReLU(), nn.Conv2d(32, 32, 3, 1, 1, bias=False),
                                  nn.BatchNorm2d(32), nn.ReLU(),
                                  nn.Conv2d(32, 64, 3, 1, 1, bias=False), nn.BatchNorm2d(64),
                                  nn.ReLU(), nn.MaxPool2d(3, 2, 1))
        blocks = []
        cin = 64
        for s, (n, w) in enumerate(zip(layers, widths)):
            for i in range(n):
                blocks.append(B(cin, w, 4 * w, 2 if (i == 0 and s > 0) else 1))
                cin = 4 * w
        self.blocks = nn.Sequential(*blocks)
        self.fc = nn.Linear(cin, classes)

    def forward(self, x):                          # (N, 3, 160, 160)
        return self.fc(self.blocks(self.stem(x)).mean((2, 3)))


class TransformerXLLike(nn.Module):
    """Transformer-XL language model segment (Dai et al.): each layer
    attends over a cached memory concatenated to the current segment with
    relative positional attention -- content term (q + u) K^T plus position
    term (q + v) R^T over projected sinusoidal relative embeddings, aligned
    by the pad/reshape/slice relative shift -- a causal mask offset by the
    memory length, post-LayerNorm, ReLU feed-forward; tied output logits."""

    class Layer(nn.Module):
        def __init__(self, d, heads, ff):
            super().__init__()
            self.h, self.dh = heads, d // heads
            self.qkv = nn.Linear(d, 3 * d, bias=False)
            self.r = nn.Linear(d, d, bias=False)
            self.u = nn.Parameter(0.02 * torch.randn(heads, 1, d // heads))
            self.v = nn.Parameter(0.02 * torch.randn(heads, 1, d // heads))
            self.o = nn.Linear(d, d, bias=False)
            self.n1 = nn.LayerNorm(d)
            self.ff = nn.Sequential(nn.Linear(d, ff), nn.ReLU(), nn.Linear(ff, d))
            self.n2 = nn.LayerNorm(d)

        def forward(self, x, mem, pos, mask):
            ql, ml = x.shape[1], mem.shape[1]
            kl = ql + ml
            H, dh = self.h, self.dh
            q, k, v = self.qkv(torch.cat([mem, x], dim=1)).chunk(3, dim=-1)
            q = q[:, ml:].reshape(-1, ql, H, dh).transpose(1, 2)     # (N, H, ql, dh)
            k = k.reshape(-1, kl, H, dh).transpose(1, 2)
            v = v.reshape(-1, kl, H, dh).transpose(1, 2)
            r = self.r(pos).reshape(kl, H, dh).transpose(0, 1)        # (H, kl, dh)
            ac = torch.matmul(q + self.u, k.transpose(2, 3))
            bd = torch.matmul(q + self.v, r.transpose(1, 2))          # (N, H, ql, kl)
            bd = F.pad(bd, (1, 0)).reshape(-1, H, kl + 1, ql)[:, :, 1:].reshape(-1, H, ql, kl)
            a = torch.softmax((ac + bd) / math.sqrt(dh) + mask, dim=-1)
            y = torch.matmul(a, v).transpose(1, 2).reshape(-1, ql, H * dh)
            x = self.n1(x + self.o(y))
            return self.n2(x + self.ff(x))

    def __init__(self, vocab=8000, d=256, heads=4, depth=4, ff=1024, qlen=128, mlen=64):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.layers = nn.ModuleList(TransformerXLLike.Layer(d, heads, ff) for _ in range(depth))
        kl = qlen + mlen
        p = torch.arange(kl - 1, -1, -1.0)[:, None]
        f = torch.exp(-math.log(10000.0) * torch.arange(0, d, 2.0) / d)[None, :]
        self.register_buffer("pos", torch.cat([torch.sin(p * f), torch.cos(p * f)], dim=1))
        i = torch.arange(qlen)[:, None]
        j = torch.arange(kl)[None, :]
        self.register_buffer("mask", torch.where(j > i + mlen, torch.tensor(-1e9),
                                                 torch.tensor(0.0)))
        self.scale = math.sqrt(d)

    def forward(self, tokens, mems):               # (N, 128), (N, depth, 64, d)
        x = self.emb(tokens) * self.scale
        for i, layer in enumerate(self.layers):
            x = layer(x, mems[:, i], self.pos, self.mask)
        return torch.matmul(x, self.emb.weight.t())


class TemporalFusionLike(nn.Module):
    """Temporal Fusion Transformer-style forecaster without the LSTM (Lim
    et al.): gated residual networks (ELU, GLU gate, add & LayerNorm) with a
    static context; per-variable GRNs batched as MatMuls over stacked
    weights and a softmax variable-selection network; a causal Conv in
    place of the recurrent encoder; static enrichment; interpretable
    multi-head attention (shared value projection, heads averaged) under a
    causal mask; quantile outputs for the last 24 steps."""

    class GRN(nn.Module):
        def __init__(self, din, d, dout, ctx=0):
            super().__init__()
            self.l2 = nn.Linear(din, d)
            self.c = nn.Linear(ctx, d, bias=False) if ctx else None
            self.l1 = nn.Linear(d, d)
            self.glu = nn.Linear(d, 2 * dout)
            self.skip = nn.Linear(din, dout) if din != dout else nn.Identity()
            self.n = nn.LayerNorm(dout)

        def forward(self, x, c=None):
            h = self.l2(x)
            if self.c is not None:
                h = h + self.c(c)
            h = self.l1(F.elu(h))
            a, b = self.glu(h).chunk(2, dim=-1)
            return self.n(self.skip(x) + torch.sigmoid(a) * b)

    def __init__(self, nvars=12, nstatic=8, d=128, heads=4, steps=96, horizon=24,
                 quantiles=3):
        super().__init__()
        G = TemporalFusionLike.GRN
        self.d, self.h, self.hz = d, heads, horizon
        self.vw = nn.Parameter(torch.randn(nvars, d) * 0.1)
        self.vb = nn.Parameter(torch.zeros(nvars, d))
        self.static = G(nstatic, d, d)
        self.ctx_sel = nn.Linear(d, d)
        self.ctx_enr = nn.Linear(d, d)
        self.sel = G(nvars * d, d, nvars, ctx=d)
        # per-variable GRNs, stacked weights: (V, d, d)
        self.pw2 = nn.Parameter(torch.randn(nvars, d, d) / math.sqrt(d))
        self.pw1 = nn.Parameter(torch.randn(nvars, d, d) / math.sqrt(d))
        self.pwg = nn.Parameter(torch.randn(nvars, d, 2 * d) / math.sqrt(d))
        self.pn = nn.LayerNorm(d)
        self.conv = nn.Conv1d(d, d, 5, padding=4)
        self.gate1 = nn.Linear(d, 2 * d)
        self.n1 = nn.LayerNorm(d)
        self.enrich = G(d, d, d, ctx=d)
        self.q = nn.Linear(d, d)
        self.k = nn.Linear(d, d)
        self.v = nn.Linear(d, d // heads)
        self.o = nn.Linear(d // heads, d)
        self.gate2 = nn.Linear(d, 2 * d)
        self.n2 = nn.LayerNorm(d)
        self.post = G(d, d, d)
        self.out = nn.Linear(d, quantiles)
        i = torch.arange(steps)
        self.register_buffer("mask", torch.where(i[None, :] > i[:, None], torch.tensor(-1e9),
                                                 torch.tensor(0.0)))

    def forward(self, static, past):               # (N, 8), (N, 96, 12)
        T, V, d, H = past.shape[1], past.shape[2], self.d, self.h
        cs = self.static(static)
        e = past.unsqueeze(-1) * self.vw + self.vb                  # (N, T, V, d)
        w = torch.softmax(self.sel(e.reshape(-1, T, V * d),
                                   self.ctx_sel(cs).unsqueeze(1)), dim=-1)   # (N, T, V)
        ev = e.transpose(1, 2)                                      # (N, V, T, d)
        h = torch.matmul(F.elu(torch.matmul(ev, self.pw2)), self.pw1)
        a, b = torch.matmul(h, self.pwg).chunk(2, dim=-1)
        ev = self.pn(ev + torch.sigmoid(a) * b)
        x = (ev * w.transpose(1, 2).unsqueeze(-1)).sum(dim=1)       # (N, T, d)
        y = self.conv(x.transpose(1, 2))[:, :, :T].transpose(1, 2)
        a, b = self.gate1(torch.relu(y)).chunk(2, dim=-1)
        x = self.n1(x + torch.sigmoid(a) * b)
        x = self.enrich(x, self.ctx_enr(cs).unsqueeze(1))
        q = self.q(x).reshape(-1, T, H, d // H).transpose(1, 2)
        k = self.k(x).reshape(-1, T, H, d // H).transpose(1, 2)
        s = torch.matmul(q, k.transpose(2, 3)) / math.sqrt(d // H) + self.mask
        att = torch.matmul(torch.softmax(s, dim=-1), self.v(x).unsqueeze(1)).mean(dim=1)
        a, b = self.gate2(self.o(att)).chunk(2, dim=-1)
        x = self.n2(x + torch.sigmoid(a) * b)
        return self.out(self.post(x[:, T - self.hz:]))


class NeuralODENet(nn.Module):
    """ODE-Net image classifier (Chen et al.): strided Conv downsampling to
    16x16, then an ODE block integrated with a fixed-step RK4 solver (4
    steps, 16 evaluations of the dynamics, all unrolled); the dynamics are
    GroupNorm, ReLU and 3x3 Convs that see the time as an extra constant
    input channel (ConcatConv2d); GroupNorm, ReLU, global pool, Linear."""

    class Dyn(nn.Module):
        def __init__(self, c):
            super().__init__()
            self.n1 = nn.GroupNorm(16, c)
            self.c1 = nn.Conv2d(c + 1, c, 3, 1, 1)
            self.n2 = nn.GroupNorm(16, c)
            self.c2 = nn.Conv2d(c + 1, c, 3, 1, 1)
            self.n3 = nn.GroupNorm(16, c)

        def forward(self, t, x):
            tt = x[:, :1] * 0 + t
            h = self.c1(torch.cat([tt, F.relu(self.n1(x))], dim=1))
            h = self.c2(torch.cat([tt, F.relu(self.n2(h))], dim=1))
            return self.n3(h)

    def __init__(self, c=64, steps=4, classes=10):
        super().__init__()
        self.steps = steps
        self.down = nn.Sequential(nn.Conv2d(3, c, 3, 1, 1), nn.GroupNorm(16, c), nn.ReLU(),
                                  nn.Conv2d(c, c, 4, 2, 1), nn.GroupNorm(16, c), nn.ReLU(),
                                  nn.Conv2d(c, c, 4, 2, 1))
        self.f = NeuralODENet.Dyn(c)
        self.norm = nn.GroupNorm(16, c)
        self.fc = nn.Linear(c, classes)

    def forward(self, x):                          # (N, 3, 64, 64)
        h = self.down(x)
        dt = 1.0 / self.steps
        for i in range(self.steps):
            t = i * dt
            k1 = self.f(t, h)
            k2 = self.f(t + dt / 2, h + dt / 2 * k1)
            k3 = self.f(t + dt / 2, h + dt / 2 * k2)
            k4 = self.f(t + dt, h + dt * k3)
            h = h + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        return self.fc(F.relu(self.norm(h)).mean((2, 3)))


class HyperNetCNN(nn.Module):
    """Hypernetwork-conditioned CNN (Ha et al.; task-conditioned): an MLP
    maps a task descriptor to the weights and biases of four 1x1 layers
    that a static Conv trunk then applies per sample as batched MatMuls
    (N, C, C) x (N, C, HW), depthwise 3x3 Convs between them; pooled
    Linear head."""

    def __init__(self, cond=16, c=96, layers=4, hidden=256, classes=100):
        super().__init__()
        self.c, self.n = c, layers
        self.stem = nn.Sequential(nn.Conv2d(3, 48, 3, 2, 1), nn.BatchNorm2d(48), nn.ReLU(),
                                  nn.Conv2d(48, c, 3, 1, 1), nn.BatchNorm2d(c), nn.ReLU())
        self.hyper = nn.Sequential(nn.Linear(cond, hidden), nn.ReLU(),
                                   nn.Linear(hidden, hidden), nn.ReLU())
        self.gen_w = nn.Linear(hidden, layers * c * c)
        self.gen_b = nn.Linear(hidden, layers * c)
        with torch.no_grad():
            self.gen_w.weight.mul_(0.05)
        self.dw = nn.ModuleList(nn.Sequential(nn.Conv2d(c, c, 3, 1, 1, groups=c),
                                              nn.BatchNorm2d(c)) for _ in range(layers))
        self.fc = nn.Linear(c, classes)

    def forward(self, image, task):                # (N, 3, 128, 128), (N, 16)
        z = self.hyper(task)
        W = self.gen_w(z).reshape(-1, self.n, self.c, self.c) / math.sqrt(self.c)
        b = self.gen_b(z).reshape(-1, self.n, self.c, 1)
        x = self.stem(image)
        hh, ww = x.shape[2], x.shape[3]
        x = x.reshape(-1, self.c, hh * ww)
        for i in range(self.n):
            y = F.relu(torch.matmul(W[:, i], x) + b[:, i])
            y = self.dw[i](y.reshape(-1, self.c, hh, ww)).reshape(-1, self.c, hh * ww)
            x = x + F.relu(y)
        return self.fc(x.mean(dim=2))


class SpatialTransformerNet(nn.Module):
    """Spatial transformer network (Jaderberg et al.): a localisation CNN
    regresses a 2x3 affine transform (initialised to identity), the sampling
    grid is a MatMul of a fixed homogeneous grid, bilinear sampling written
    out by hand (Floor, corner indices, GatherElements on the flattened
    image, zero outside), then a Conv classifier on the warped image."""

    def __init__(self, size=96, classes=43):
        super().__init__()
        self.size = size
        self.loc = nn.Sequential(nn.Conv2d(3, 16, 5, 2, 2), nn.ReLU(), nn.MaxPool2d(2),
                                 nn.Conv2d(16, 32, 5, 1, 2), nn.ReLU(), nn.MaxPool2d(2),
                                 nn.Conv2d(32, 32, 3, 1, 1), nn.ReLU(),
                                 nn.AdaptiveAvgPool2d(4), nn.Flatten(),
                                 nn.Linear(512, 64), nn.ReLU(), nn.Linear(64, 6))
        with torch.no_grad():
            self.loc[-1].weight.mul_(0.01)
            self.loc[-1].bias.copy_(torch.tensor([1.0, 0, 0, 0, 1.0, 0]))
        lin = torch.linspace(-1, 1, size)
        gy, gx = torch.meshgrid(lin, lin, indexing="ij")
        self.register_buffer("grid", torch.stack([gx.flatten(), gy.flatten(),
                                                  torch.ones(size * size)], dim=1))
        self.cls = nn.Sequential(nn.Conv2d(3, 32, 3, 1, 1), nn.BatchNorm2d(32), nn.ReLU(),
                                 nn.MaxPool2d(2),
                                 nn.Conv2d(32, 64, 3, 1, 1), nn.BatchNorm2d(64), nn.ReLU(),
                                 nn.MaxPool2d(2),
                                 nn.Conv2d(64, 128, 3, 1, 1), nn.BatchNorm2d(128), nn.ReLU(),
                                 nn.MaxPool2d(2),
                                 nn.Conv2d(128, 256, 3, 1, 1), nn.BatchNorm2d(256), nn.ReLU())
        self.fc = nn.Linear(256, classes)

    def sample(self, img, xy):                     # (N, C, S, S), (N, S*S, 2)
        S = self.size
        C = img.shape[1]
        flat = img.reshape(-1, C, S * S)
        x = (xy[..., 0] + 1) * (S - 1) / 2
        y = (xy[..., 1] + 1) * (S - 1) / 2
        x0, y0 = torch.floor(x), torch.floor(y)
        out = 0
        for dx in (0, 1):
            for dy in (0, 1):
                xi, yi = x0 + dx, y0 + dy
                wgt = (1 - (x - xi).abs()) * (1 - (y - yi).abs())
                inside = ((xi >= 0) & (xi <= S - 1) & (yi >= 0) & (yi <= S - 1)).float()
                idx = (yi.clamp(0, S - 1) * S + xi.clamp(0, S - 1)).long()
                g = torch.gather(flat, 2, idx.unsqueeze(1).expand(-1, C, -1))
                out = out + g * (wgt * inside).unsqueeze(1)
        return out.reshape(-1, C, S, S)

    def forward(self, x):                          # (N, 3, 96, 96)
        theta = self.loc(x).reshape(-1, 2, 3)
        xy = torch.matmul(self.grid, theta.transpose(1, 2))        # (N, S*S, 2)
        return self.fc(self.cls(self.sample(x, xy)).mean((2, 3)))


class KANLike(nn.Module):
    """Kolmogorov-Arnold network (Liu et al., efficient-KAN form) applied
    to every row of a feature sequence: each layer is a SiLU base Linear
    plus learned cubic B-spline functions -- the basis computed in graph by
    the Cox-de Boor recursion (comparisons, And, Cast, elementwise
    arithmetic on an 8-interval grid), then one MatMul with the spline
    coefficients; 64 -> 256 -> 256 -> 64."""

    class Layer(nn.Module):
        def __init__(self, din, dout, grid=8, order=3, lo=-2.0, hi=2.0):
            super().__init__()
            self.k = order
            h = (hi - lo) / grid
            g = torch.arange(-order, grid + order + 1, dtype=torch.float32) * h + lo
            self.register_buffer("g", g)
            self.base = nn.Linear(din, dout)
            nb = grid + order
            self.spline = nn.Parameter(torch.randn(din * nb, dout) * 0.1 / math.sqrt(din))

        def forward(self, x):                      # (N, L, din)
            g = self.g
            u = x.unsqueeze(-1)
            b = ((u >= g[:-1]) & (u < g[1:])).float()
            for j in range(1, self.k + 1):
                b = (u - g[:-(j + 1)]) / (g[j:-1] - g[:-(j + 1)]) * b[..., :-1] \
                    + (g[j + 1:] - u) / (g[j + 1:] - g[1:-j]) * b[..., 1:]
            s = torch.matmul(b.reshape(-1, x.shape[1], x.shape[2] * b.shape[-1]), self.spline)
            return self.base(F.silu(x)) + s

    def __init__(self, dims=(64, 256, 256, 64)):
        super().__init__()
        self.layers = nn.ModuleList(KANLike.Layer(a, b) for a, b in zip(dims[:-1], dims[1:]))
        self.norms = nn.ModuleList(nn.LayerNorm(b) for b in dims[1:-1])

    def forward(self, x):                          # (N, 256, 64)
        for i, layer in enumerate(self.layers):
            x = layer(x)
            if i < len(self.norms):
                x = self.norms[i](x)
        return x


class S4DLike(nn.Module):
    """Diagonal state-space sequence model (S4D, Gu et al.): each layer's
    long convolution kernel is generated from a complex diagonal state
    matrix with zero-order-hold discretisation (written in real
    arithmetic: Exp, Cos, Sin, reduction over the state), applied as a
    causal depthwise Conv1d over the whole 512-step sequence, plus a D skip;
    GELU, GLU output Linear, residual, LayerNorm; mean-pooled classifier."""

    class Layer(nn.Module):
        def __init__(self, h, n, L):
            super().__init__()
            self.L = L
            self.log_dt = nn.Parameter(torch.rand(h, 1) * (math.log(0.1) - math.log(0.001))
                                       + math.log(0.001))
            self.log_a = nn.Parameter(torch.log(0.5 * torch.ones(h, n)))
            self.a_im = nn.Parameter(math.pi * torch.arange(n).float().repeat(h, 1))
            self.c_re = nn.Parameter(torch.randn(h, n) * 0.5 ** 0.5)
            self.c_im = nn.Parameter(torch.randn(h, n) * 0.5 ** 0.5)
            self.D = nn.Parameter(torch.randn(h, 1))
            self.register_buffer("l", torch.arange(L).float())
            self.out = nn.Linear(h, 2 * h)
            self.norm = nn.LayerNorm(h)

        def kernel(self):
            dt = torch.exp(self.log_dt)                              # (h, 1)
            ar, ai = -torch.exp(self.log_a) * dt, self.a_im * dt     # dtA, (h, n)
            # C' = C * (exp(dtA) - 1) / A  (complex), then K = 2 Re(sum C' exp(dtA l))
            er, ei = torch.exp(ar) * torch.cos(ai) - 1, torch.exp(ar) * torch.sin(ai)
            Ar, Ai = ar / dt, ai / dt
            den = Ar * Ar + Ai * Ai
            qr, qi = (er * Ar + ei * Ai) / den, (ei * Ar - er * Ai) / den
            cr = self.c_re * qr - self.c_im * qi
            ci = self.c_re * qi + self.c_im * qr
            m = torch.exp(ar.unsqueeze(-1) * self.l)                # (h, n, L)
            ph = ai.unsqueeze(-1) * self.l
            k = 2 * (cr.unsqueeze(-1) * m * torch.cos(ph) - ci.unsqueeze(-1) * m * torch.sin(ph))
            return k.sum(dim=1)                                      # (h, L)

        def forward(self, x):                      # (N, L, h)
            u = x.transpose(1, 2)
            k = self.kernel().flip(-1).unsqueeze(1)                  # (h, 1, L)
            y = F.conv1d(u, k, padding=self.L - 1, groups=u.shape[1])[:, :, :self.L]
            y = F.gelu(y + u * self.D).transpose(1, 2)
            return self.norm(x + F.glu(self.out(y), dim=-1))

    def __init__(self, feats=32, h=128, n=32, L=512, depth=4, classes=10):
        super().__init__()
        self.enc = nn.Linear(feats, h)
        self.layers = nn.ModuleList(S4DLike.Layer(h, n, L) for _ in range(depth))
        self.fc = nn.Linear(h, classes)

    def forward(self, x):                          # (N, 512, 32)
        x = self.enc(x)
        for layer in self.layers:
            x = layer(x)
        return self.fc(x.mean(dim=1))


class InvolutionNet(nn.Module):
    """RedNet-style classifier (Li et al., involution): bottlenecks whose
    spatial op is a 7x7 involution -- a per-pixel, per-group kernel generated
    by 1x1 Convs from the input (reduce, BatchNorm, ReLU, span to 49 x
    groups), applied to the 49 shifted copies of the zero-padded input
    (Slice, Concat), multiply and sum; average pooling for stride."""

    class Inv(nn.Module):
        def __init__(self, c, k=7, group_ch=16, r=4):
            super().__init__()
            self.k, self.g = k, c // group_ch
            self.red = nn.Sequential(nn.Conv2d(c, c // r, 1), nn.BatchNorm2d(c // r), nn.ReLU())
            self.span = nn.Conv2d(c // r, k * k * self.g, 1)

        def forward(self, x):
            c, h, w = x.shape[1], x.shape[2], x.shape[3]
            k, g = self.k, self.g
            ker = self.span(self.red(x)).reshape(-1, g, 1, k * k, h, w)
            p = F.pad(x, (k // 2,) * 4)
            sh = torch.stack([p[:, :, i:i + h, j:j + w] for i in range(k) for j in range(k)],
                             dim=2)                                  # (N, C, k*k, H, W)
            return (sh.reshape(-1, g, c // g, k * k, h, w) * ker).sum(dim=3).reshape(-1, c, h, w)

    class Block(nn.Module):
        def __init__(self, cin, w, cout, stride):
            super().__init__()
            self.stride = stride
            self.c1 = nn.Sequential(nn.Conv2d(cin, w, 1, bias=False), nn.BatchNorm2d(w),
                                    nn.ReLU())
            self.inv = InvolutionNet.Inv(w)
            self.n = nn.Sequential(nn.BatchNorm2d(w), nn.ReLU())
            self.c3 = nn.Sequential(nn.Conv2d(w, cout, 1, bias=False), nn.BatchNorm2d(cout))
            self.short = nn.Sequential(nn.AvgPool2d(stride) if stride > 1 else nn.Identity(),
                                       nn.Conv2d(cin, cout, 1, bias=False),
                                       nn.BatchNorm2d(cout)) \
                if (stride > 1 or cin != cout) else nn.Identity()

        def forward(self, x):
            h = self.c1(x)
            if self.stride > 1:
                h = F.avg_pool2d(h, self.stride)
            return F.relu(self.short(x) + self.c3(self.n(self.inv(h))))

    def __init__(self, layers=(1, 2, 2, 1), widths=(32, 64, 128, 256), classes=1000):
        super().__init__()
        B = InvolutionNet.Block
        self.stem = nn.Sequential(nn.Conv2d(3, 32, 3, 2, 1, bias=False), nn.BatchNorm2d(32),
                                  nn.ReLU(), nn.Conv2d(32, 64, 3, 1, 1, bias=False),
                                  nn.BatchNorm2d(64), nn.ReLU(), nn.MaxPool2d(3, 2, 1))
        blocks = []
        cin = 64
        for s, (n, w) in enumerate(zip(layers, widths)):
            for i in range(n):
                blocks.append(B(cin, w, 4 * w, 2 if (i == 0 and s > 0) else 1))
                cin = 4 * w
        self.blocks = nn.Sequential(*blocks)
        self.fc = nn.Linear(cin, classes)

    def forward(self, x):                          # (N, 3, 128, 128)
        return self.fc(self.blocks(self.stem(x)).mean((2, 3)))


class NeuralCA(nn.Module):
    """Growing neural cellular automaton (Mordvintsev et al.), 16 steps
    unrolled on a 64x64 grid of 16-channel cells: fixed identity/Sobel
    perception as a depthwise Conv, a per-cell 1x1 Conv MLP update, and the
    alive masking (3x3 MaxPool of the alpha channel > 0.1, before and after
    the update), deterministic update (fire rate 1)."""

    def __init__(self, ch=16, hidden=128, steps=16):
        super().__init__()
        self.steps = steps
        ident = torch.tensor([[0.0, 0, 0], [0, 1, 0], [0, 0, 0]])
        sx = torch.tensor([[-1.0, 0, 1], [-2, 0, 2], [-1, 0, 1]]) / 8
        k = torch.stack([ident, sx, sx.t()])                       # (3, 3, 3)
        self.register_buffer("perc", k.repeat(ch, 1, 1).unsqueeze(1))  # (3ch, 1, 3, 3)
        self.ch = ch
        self.u1 = nn.Conv2d(3 * ch, hidden, 1)
        self.u2 = nn.Conv2d(hidden, ch, 1)
        with torch.no_grad():
            self.u2.weight.mul_(0.1)

    def alive(self, x):
        return (F.max_pool2d(x[:, 3:4], 3, 1, 1) > 0.1).float()

    def forward(self, x):                          # (N, 16, 64, 64)
        for _ in range(self.steps):
            pre = self.alive(x)
            p = F.conv2d(x, self.perc, padding=1, groups=self.ch)
            x = x + self.u2(F.relu(self.u1(p)))
            x = x * (pre * self.alive(x))
        return x


class SuperGlueLite(nn.Module):
    """SuperGlue-style keypoint matcher (Sarlin et al.): keypoint positions
    encoded by an MLP and added to the descriptors, attentional message
    passing alternating self- and cross-attention between the two images
    (message MLP on [x, message]), final projections, the score matrix
    with a learned dustbin row and column, and 20 log-space Sinkhorn
    iterations (ReduceLogSumExp) of optimal transport."""

    class Prop(nn.Module):
        def __init__(self, d, heads):
            super().__init__()
            self.h = heads
            self.q = nn.Linear(d, d)
            self.kv = nn.Linear(d, 2 * d)
            self.merge = nn.Linear(d, d)
            self.mlp = nn.Sequential(nn.Linear(2 * d, 2 * d), nn.LayerNorm(2 * d), nn.ReLU(),
                                     nn.Linear(2 * d, d))

        def forward(self, x, src):
            k, v = self.kv(src).chunk(2, dim=-1)
            m = self.merge(_attend(self.q(x), k, v, self.h))
            return x + self.mlp(torch.cat([x, m], dim=-1))

    def __init__(self, d=128, heads=4, layers=6, iters=20):
        super().__init__()
        self.d, self.iters = d, iters
        self.kenc = nn.Sequential(nn.Linear(2, 32), nn.LayerNorm(32), nn.ReLU(),
                                  nn.Linear(32, 64), nn.LayerNorm(64), nn.ReLU(),
                                  nn.Linear(64, d))
        self.props = nn.ModuleList(SuperGlueLite.Prop(d, heads) for _ in range(layers))
        self.final = nn.Linear(d, d)
        self.bin = nn.Parameter(torch.tensor(1.0))

    def forward(self, kpts0, desc0, kpts1, desc1):  # (N, 256, 2), (N, 256, d) x 2
        x0 = desc0 + self.kenc(kpts0)
        x1 = desc1 + self.kenc(kpts1)
        for i, p in enumerate(self.props):
            if i % 2 == 0:
                x0, x1 = p(x0, x0), p(x1, x1)
            else:
                x0, x1 = p(x0, x1), p(x1, x0)
        m, n = x0.shape[1], x1.shape[1]
        s = torch.matmul(self.final(x0), self.final(x1).transpose(1, 2)) / math.sqrt(self.d)
        col = s[:, :, :1] * 0 + self.bin                              # (N, m, 1)
        row = s[:, :1, :] * 0 + self.bin                              # (N, 1, n)
        corner = s[:, :1, :1] * 0 + self.bin
        Z = torch.cat([torch.cat([s, col], dim=2), torch.cat([row, corner], dim=2)], dim=1)
        norm = -math.log(m + n)
        log_mu = torch.cat([torch.full((m,), norm), torch.tensor([math.log(n) + norm])])
        log_nu = torch.cat([torch.full((n,), norm), torch.tensor([math.log(m) + norm])])
        u = Z[:, :, 0] * 0
        v = Z[:, 0, :] * 0
        for _ in range(self.iters):
            u = log_mu - torch.logsumexp(Z + v.unsqueeze(1), dim=2)
            v = log_nu - torch.logsumexp(Z + u.unsqueeze(2), dim=1)
        return Z + u.unsqueeze(2) + v.unsqueeze(1) - norm


def _img(size, ch=3):
    return [("input", ("N", ch, size, size), "float32", None)]


BLIND4 = {
    "pixelcnn_like": dict(ctor=PixelCNNLike, family="masked-autoregressive-conv",
                          inputs=_img(32)),
    "resnest_like": dict(ctor=ResNeStLike, family="split-attention", inputs=_img(160)),
    "transformer_xl_like": dict(ctor=TransformerXLLike, family="relative-position-attention",
                                inputs=[("tokens", ("N", 128), "int64", 8000),
                                        ("mems", ("N", 4, 64, 256), "float32", None)]),
    "temporal_fusion_like": dict(ctor=TemporalFusionLike, family="gated-residual-network",
                                 inputs=[("static", ("N", 8), "float32", None),
                                         ("past", ("N", 96, 12), "float32", None)]),
    "neural_ode_net": dict(ctor=NeuralODENet, family="neural-ode", inputs=_img(64)),
    "hypernet_cnn": dict(ctor=HyperNetCNN, family="hypernetwork",
                         inputs=[("image", ("N", 3, 128, 128), "float32", None),
                                 ("task", ("N", 16), "float32", None)]),
    "spatial_transformer_net": dict(ctor=SpatialTransformerNet, family="spatial-transformer",
                                    inputs=_img(96)),
    "kan_like": dict(ctor=KANLike, family="kolmogorov-arnold",
                     inputs=[("features", ("N", 256, 64), "float32", None)]),
    "s4d_like": dict(ctor=S4DLike, family="state-space",
                     inputs=[("sequence", ("N", 512, 32), "float32", None)]),
    "involution_net": dict(ctor=InvolutionNet, family="involution", inputs=_img(128)),
    "neural_ca": dict(ctor=NeuralCA, family="neural-cellular-automata",
                      inputs=[("cells", ("N", 16, 64, 64), "float32", None)]),
    "superglue_lite": dict(ctor=SuperGlueLite, family="optimal-transport-matching",
                           inputs=[("kpts0", ("N", 256, 2), "float32", None),
                                   ("desc0", ("N", 256, 128), "float32", None),
                                   ("kpts1", ("N", 256, 2), "float32", None),
                                   ("desc1", ("N", 256, 128), "float32", None)]),
}
