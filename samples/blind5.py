"""BLIND5: a fifth blind set, written on 2026-12-05 (eighth session) before
any change of that session; to be measured before any change and scored
with main as it stood at the session's start first (the held-out figure),
then again at the end, both reported (bench/zoo_accuracy.py --set blind5).
Its families are in no other set (ZOO, BLIND, BLIND2, BLIND3, BLIND4, the
reference models) and were in view of no plan rule, feature, fit or
calibration: leaky integrate-and-fire spiking convolutions, retention
with decay matrices (RetNet), quasi-recurrent fo-pooling (QRNN), ghost
modules (GhostNet), per-sample dynamic convolution kernels (CondConv),
modern Hopfield associative memory, slot attention, bilinear
(outer-product) pooling, shift convolutions (ShiftNet), binarized
convolutions (XNOR-Net), a product-key memory layer and Haar-wavelet
multi-level inputs (wavelet CNN).  None of them was run through onnxcost
predict before being measured.

Same table form as export.py's ZOO (ctor, family, inputs, run); exported by
scripts/ort_graphs.py's export() (opset 13, symbolic batch N).
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def _bn_act(cin, cout, k=3, s=1, groups=1, act=True):
    layers = [nn.Conv2d(cin, cout, k, s, k // 2, groups=groups, bias=False),
              nn.BatchNorm2d(cout)]
    if act:
        layers.append(nn.ReLU())
    return nn.Sequential(*layers)


class SpikingCNN(nn.Module):
    """Spiking convolutional network (leaky integrate-and-fire neurons,
    direct input encoding, as in Wu et al. STBP / snnTorch's CSNN), 8
    timesteps unrolled on a 32x32 image: the first Conv is computed once and
    fed as input current each step; every layer's membrane decays (beta),
    integrates its Conv current, fires where it crosses the threshold
    (Greater, Cast) and is reset by subtraction; spikes MaxPooled between
    layers; output spikes pooled, Linear, averaged over the steps."""

    def __init__(self, widths=(32, 64, 128, 256), steps=8, beta=0.9, thr=1.0, classes=10):
        super().__init__()
        self.steps, self.beta, self.thr = steps, beta, thr
        self.first = nn.Sequential(nn.Conv2d(3, widths[0], 3, 1, 1, bias=False),
                                   nn.BatchNorm2d(widths[0]))
        self.convs = nn.ModuleList(nn.Sequential(nn.Conv2d(a, b, 3, 1, 1, bias=False),
                                                 nn.BatchNorm2d(b))
                                   for a, b in zip(widths[:-1], widths[1:]))
        self.fc = nn.Linear(widths[-1], classes)

    def lif(self, v, cur):
        v = self.beta * v + cur
        spk = (v > self.thr).float()
        return v - spk * self.thr, spk

    def forward(self, x):                          # (N, 3, 32, 32)
        cur0 = self.first(x)
        vs = [None] * (len(self.convs) + 1)
        out = 0
        for _ in range(self.steps):
            cur = cur0
            for i in range(len(vs)):
                v = vs[i] if vs[i] is not None else cur * 0
                vs[i], spk = self.lif(v, cur)
                if i < len(self.convs):
                    cur = self.convs[i](spk if i == 0 else F.max_pool2d(spk, 2))
            out = out + self.fc(spk.mean((2, 3)))
        return out / self.steps


class RetNetLike(nn.Module):
    """RetNet language model (Sun et al.), parallel form: multi-scale
    retention -- rotated (xPos-free, fixed-angle) queries and keys,
    (Q K^T * D) V with a per-head causal decay matrix D[n, m] =
    gamma_h^(n - m), per-head GroupNorm, swish gate, output projection --
    and a GELU feed-forward, pre-LayerNorm; tied output logits."""

    class Layer(nn.Module):
        def __init__(self, d, heads, ff):
            super().__init__()
            self.h, self.dh = heads, d // heads
            self.n1 = nn.LayerNorm(d)
            self.qkvg = nn.Linear(d, 4 * d, bias=False)
            self.gn = nn.GroupNorm(heads, d)
            self.o = nn.Linear(d, d, bias=False)
            self.n2 = nn.LayerNorm(d)
            self.ff = nn.Sequential(nn.Linear(d, ff), nn.GELU(), nn.Linear(ff, d))

        def forward(self, x, cos, sin, D):
            L, H, dh = x.shape[1], self.h, self.dh
            q, k, v, g = self.qkvg(self.n1(x)).chunk(4, dim=-1)

            def rot(t):
                t2 = torch.stack([-t[..., 1::2], t[..., 0::2]], dim=-1).flatten(-2)
                return t * cos + t2 * sin

            q = rot(q).reshape(-1, L, H, dh).transpose(1, 2)
            k = rot(k).reshape(-1, L, H, dh).transpose(1, 2)
            v = v.reshape(-1, L, H, dh).transpose(1, 2)
            r = torch.matmul(torch.matmul(q, k.transpose(2, 3)) / math.sqrt(dh) * D, v)
            r = self.gn(r.transpose(1, 2).reshape(-1, L, H * dh).transpose(1, 2)).transpose(1, 2)
            x = x + self.o(F.silu(g) * r)
            return x + self.ff(self.n2(x))

    def __init__(self, vocab=4000, d=256, heads=4, depth=4, ff=512, L=128):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.layers = nn.ModuleList(RetNetLike.Layer(d, heads, ff) for _ in range(depth))
        self.norm = nn.LayerNorm(d)
        theta = 10000.0 ** (-torch.arange(0, d, 2.0) / d)
        ang = torch.arange(L, dtype=torch.float)[:, None] * theta.repeat_interleave(2)[None, :]
        self.register_buffer("cos", torch.cos(ang))
        self.register_buffer("sin", torch.sin(ang))
        gamma = 1 - 2.0 ** (-5 - torch.arange(heads, dtype=torch.float))
        n = torch.arange(L, dtype=torch.float)
        diff = n[:, None] - n[None, :]
        D = torch.where(diff >= 0, gamma[:, None, None] ** diff.clamp(min=0),
                        torch.tensor(0.0))
        self.register_buffer("D", D / D.sum(dim=-1, keepdim=True).sqrt())   # (H, L, L)

    def forward(self, tokens):                     # (N, 128)
        x = self.emb(tokens)
        for layer in self.layers:
            x = layer(x, self.cos, self.sin, self.D)
        return torch.matmul(self.norm(x), self.emb.weight.t())


class QRNNLike(nn.Module):
    """Quasi-recurrent neural network classifier (Bradbury et al.): three
    QRNN layers, each a causal width-2 Conv1d producing the candidate Z
    (tanh), forget F and output O (sigmoid) gates for all 64 steps at once,
    then fo-pooling c_t = f_t c_(t-1) + (1 - f_t) z_t, h_t = o_t c_t
    unrolled over the steps (elementwise only); dense connections of the
    embeddings; last hidden state to a Linear classifier."""

    class Layer(nn.Module):
        def __init__(self, din, h):
            super().__init__()
            self.h = h
            self.conv = nn.Conv1d(din, 3 * h, 2)

        def forward(self, x):                      # (N, din, T)
            T = x.shape[2]
            zfo = self.conv(F.pad(x, (1, 0)))
            z = torch.tanh(zfo[:, :self.h])
            f = torch.sigmoid(zfo[:, self.h:2 * self.h])
            o = torch.sigmoid(zfo[:, 2 * self.h:])
            c = (1 - f[:, :, 0]) * z[:, :, 0]
            hs = [o[:, :, 0] * c]
            for t in range(1, T):
                c = f[:, :, t] * c + (1 - f[:, :, t]) * z[:, :, t]
                hs.append(o[:, :, t] * c)
            return torch.stack(hs, dim=2)

    def __init__(self, vocab=8000, e=256, h=512, depth=3, classes=2):
        super().__init__()
        self.emb = nn.Embedding(vocab, e)
        self.layers = nn.ModuleList(QRNNLike.Layer(e if i == 0 else h + e, h)
                                    for i in range(depth))
        self.fc = nn.Linear(h, classes)

    def forward(self, tokens):                     # (N, 64)
        e = self.emb(tokens).transpose(1, 2)                          # (N, e, T)
        x = self.layers[0](e)
        for layer in self.layers[1:]:
            x = layer(torch.cat([x, e], dim=1))
        return self.fc(x[:, :, -1])


class GhostNetLike(nn.Module):
    """GhostNet 1.0 (Han et al.): ghost modules -- a 1x1 primary Conv to half
    the channels and a cheap 3x3 depthwise Conv generating the other half
    from it, concatenated -- in ghost bottlenecks (expand, optional strided
    depthwise, squeeze-excite with hard sigmoid, project), depthwise + 1x1
    shortcuts; 960-channel 1x1 head, global pool, 1280 Conv, Linear."""

    class Ghost(nn.Module):
        def __init__(self, cin, cout, relu=True):
            super().__init__()
            self.cout = cout
            init = math.ceil(cout / 2)
            self.primary = _bn_act(cin, init, 1, act=relu)
            self.cheap = _bn_act(init, init, 3, groups=init, act=relu)

        def forward(self, x):
            p = self.primary(x)
            return torch.cat([p, self.cheap(p)], dim=1)[:, :self.cout]

    class Bottleneck(nn.Module):
        def __init__(self, cin, k, exp, cout, se, s):
            super().__init__()
            G = GhostNetLike.Ghost
            self.g1 = G(cin, exp)
            self.dw = _bn_act(exp, exp, k, s, groups=exp, act=False) if s > 1 else nn.Identity()
            self.se = nn.Sequential(nn.AdaptiveAvgPool2d(1),
                                    nn.Conv2d(exp, _div4(exp // 4), 1), nn.ReLU(),
                                    nn.Conv2d(_div4(exp // 4), exp, 1), nn.Hardsigmoid()) \
                if se else None
            self.g2 = G(exp, cout, relu=False)
            self.short = nn.Identity() if (s == 1 and cin == cout) else nn.Sequential(
                _bn_act(cin, cin, k, s, groups=cin, act=False), _bn_act(cin, cout, 1, act=False))

        def forward(self, x):
            h = self.dw(self.g1(x))
            if self.se is not None:
                h = h * self.se(h)
            return self.g2(h) + self.short(x)

    CFG = [(3, 16, 16, 0, 1),
           (3, 48, 24, 0, 2), (3, 72, 24, 0, 1),
           (5, 72, 40, 1, 2), (5, 120, 40, 1, 1),
           (3, 240, 80, 0, 2), (3, 200, 80, 0, 1), (3, 184, 80, 0, 1), (3, 184, 80, 0, 1),
           (3, 480, 112, 1, 1), (3, 672, 112, 1, 1),
           (5, 672, 160, 1, 2), (5, 960, 160, 0, 1), (5, 960, 160, 1, 1),
           (5, 960, 160, 0, 1), (5, 960, 160, 1, 1)]

    def __init__(self, classes=1000):
        super().__init__()
        self.stem = _bn_act(3, 16, 3, 2)
        blocks, cin = [], 16
        for k, exp, c, se, s in GhostNetLike.CFG:
            blocks.append(GhostNetLike.Bottleneck(cin, k, exp, c, se, s))
            cin = c
        self.blocks = nn.Sequential(*blocks)
        self.head = _bn_act(cin, 960, 1)
        self.conv = nn.Conv2d(960, 1280, 1)
        self.fc = nn.Linear(1280, classes)

    def forward(self, x):                          # (N, 3, 224, 224)
        h = self.head(self.blocks(self.stem(x))).mean((2, 3), keepdim=True)
        return self.fc(F.relu(self.conv(h)).flatten(1))


def _div4(c):
    return max(4, (c + 2) // 4 * 4)


class CondConvNet(nn.Module):
    """CondConv / dynamic convolution classifier (Yang et al.; Chen et al.):
    every 3x3 layer holds K = 4 expert kernels; a routing function (global
    pool, Linear, sigmoid) mixes them into one kernel per sample (MatMul
    over the experts), applied as a batched MatMul on the im2col of the
    input (nine shifted Slices, strided for downsampling); BatchNorm,
    ReLU; global pool, Linear."""

    class Dyn(nn.Module):
        def __init__(self, cin, cout, s, experts=4):
            super().__init__()
            self.cin, self.cout, self.s = cin, cout, s
            self.route = nn.Linear(cin, experts)
            self.kernels = nn.Parameter(torch.randn(experts, cout * cin * 9) /
                                        math.sqrt(cin * 9))
            self.bn = nn.BatchNorm2d(cout)

        def forward(self, x):
            h, w = x.shape[2], x.shape[3]
            r = torch.sigmoid(self.route(x.mean((2, 3))))              # (N, K)
            W = torch.matmul(r, self.kernels).reshape(-1, self.cout, self.cin * 9)
            p = F.pad(x, (1, 1, 1, 1))
            s = self.s
            ho, wo = (h - 1) // s + 1, (w - 1) // s + 1
            cols = torch.stack([p[:, :, i:(i - 2 or None):s, j:(j - 2 or None):s]
                                for i in range(3) for j in range(3)], dim=2)  # (N, C, 9, ho, wo)
            y = torch.matmul(W, cols.reshape(-1, self.cin * 9, ho * wo))
            return F.relu(self.bn(y.reshape(-1, self.cout, ho, wo)))

    def __init__(self, widths=(64, 128, 256, 512), depth=(2, 2, 2, 1), classes=1000):
        super().__init__()
        self.stem = nn.Sequential(_bn_act(3, 32, 3, 2), nn.MaxPool2d(3, 2, 1))
        layers, cin = [], 32
        for i, (w, n) in enumerate(zip(widths, depth)):
            for j in range(n):
                layers.append(CondConvNet.Dyn(cin, w, 2 if (j == 0 and i > 0) else 1))
                cin = w
        self.layers = nn.Sequential(*layers)
        self.fc = nn.Linear(cin, classes)

    def forward(self, x):                          # (N, 3, 128, 128)
        return self.fc(self.layers(self.stem(x)).mean((2, 3)))


class HopfieldMIL(nn.Module):
    """Modern Hopfield network for multiple-instance learning (Ramsauer et
    al., "Hopfield Networks is All You Need"): a bag of 256 instances,
    embedded, retrieves from 2048 learned stored patterns with three
    iterations of the update xi <- softmax(beta xi Y^T) Y (HopfieldLayer),
    residual, LayerNorm, feed-forward, then HopfieldPooling -- 4 learned
    state patterns retrieving from the instances -- and a Linear."""

    def __init__(self, feats=64, d=128, stored=2048, iters=3, queries=4, classes=2):
        super().__init__()
        self.iters = iters
        self.embed = nn.Sequential(nn.Linear(feats, d), nn.ReLU(), nn.Linear(d, d))
        self.n0 = nn.LayerNorm(d)
        self.Y = nn.Parameter(torch.randn(stored, d) / math.sqrt(d))
        self.beta = 1.0 / math.sqrt(d)
        self.n1 = nn.LayerNorm(d)
        self.ff = nn.Sequential(nn.Linear(d, 4 * d), nn.ReLU(), nn.Linear(4 * d, d))
        self.n2 = nn.LayerNorm(d)
        self.R = nn.Parameter(torch.randn(queries, d) / math.sqrt(d))
        self.wk = nn.Linear(d, d)
        self.wv = nn.Linear(d, d)
        self.fc = nn.Linear(queries * d, classes)

    def forward(self, bag):                        # (N, 256, 64)
        x = self.n0(self.embed(bag))
        xi = x
        for _ in range(self.iters):
            xi = torch.matmul(torch.softmax(self.beta * torch.matmul(xi, self.Y.t()), dim=-1),
                              self.Y)
        x = self.n1(x + xi)
        x = self.n2(x + self.ff(x))
        a = torch.softmax(self.beta * torch.matmul(self.R, self.wk(x).transpose(1, 2)), dim=-1)
        return self.fc(torch.matmul(a, self.wv(x)).flatten(1))


class SlotAttentionNet(nn.Module):
    """Slot Attention set prediction (Locatello et al.): CNN encoder (5x5,
    then 3x3 Convs) on 64x64 images, soft position embedding (Linear of a
    4-channel grid, added), LayerNorm and per-pixel MLP; 7 slots from a
    learned mean (no sampling), 3 iterations of slot attention -- softmax
    over the slots, weighted mean over the inputs, a GRU cell written with
    Linear ops, residual MLP; per-slot property MLP with sigmoid."""

    def __init__(self, c=64, slots=7, iters=3, size=64, props=19):
        super().__init__()
        self.k_slots, self.iters, self.c = slots, iters, c
        self.enc = nn.Sequential(nn.Conv2d(3, c, 5, 1, 2), nn.ReLU(),
                                 nn.Conv2d(c, c, 3, 1, 1), nn.ReLU(),
                                 nn.Conv2d(c, c, 3, 1, 1), nn.ReLU(),
                                 nn.Conv2d(c, c, 3, 1, 1), nn.ReLU())
        ys, xs = torch.meshgrid(torch.linspace(0, 1, size), torch.linspace(0, 1, size),
                                indexing="ij")
        grid = torch.stack([ys, xs, 1 - ys, 1 - xs], dim=-1).reshape(-1, 4)
        self.register_buffer("grid", grid)
        self.pos = nn.Linear(4, c)
        self.n_in = nn.LayerNorm(c)
        self.mlp_in = nn.Sequential(nn.Linear(c, c), nn.ReLU(), nn.Linear(c, c))
        self.n_x = nn.LayerNorm(c)
        self.mu = nn.Parameter(0.1 * torch.randn(slots, c))
        self.n_s = nn.LayerNorm(c)
        self.q = nn.Linear(c, c, bias=False)
        self.k = nn.Linear(c, c, bias=False)
        self.v = nn.Linear(c, c, bias=False)
        self.gx = nn.Linear(c, 3 * c)
        self.gh = nn.Linear(c, 3 * c)
        self.n_m = nn.LayerNorm(c)
        self.mlp = nn.Sequential(nn.Linear(c, 2 * c), nn.ReLU(), nn.Linear(2 * c, c))
        self.out = nn.Sequential(nn.Linear(c, c), nn.ReLU(), nn.Linear(c, props))

    def forward(self, x):                          # (N, 3, 64, 64)
        c = self.c
        f = self.enc(x).flatten(2).transpose(1, 2) + self.pos(self.grid)
        f = self.n_x(self.mlp_in(self.n_in(f)))
        k, v = self.k(f), self.v(f)                                   # (N, P, c)
        s = f[:, :1, :1] * 0 + self.mu                                # (N, S, c)
        for _ in range(self.iters):
            prev = s
            q = self.q(self.n_s(s)) / math.sqrt(c)
            a = torch.softmax(torch.matmul(k, q.transpose(1, 2)), dim=2) + 1e-8  # (N, P, S)
            a = a / a.sum(dim=1, keepdim=True)
            u = torch.matmul(a.transpose(1, 2), v)                    # (N, S, c)
            xr, xz, xn = self.gx(u).chunk(3, dim=-1)
            hr, hz, hn = self.gh(prev).chunk(3, dim=-1)
            r = torch.sigmoid(xr + hr)
            z = torch.sigmoid(xz + hz)
            n = torch.tanh(xn + r * hn)
            s = (1 - z) * n + z * prev
            s = s + self.mlp(self.n_m(s))
        return torch.sigmoid(self.out(s))


class BilinearCNN(nn.Module):
    """Bilinear CNN fine-grained classifier (Lin et al.): a VGG-style trunk
    to 14x14, a 1x1 Conv reducing to 128 channels, bilinear pooling (the
    outer product of the features with themselves summed over positions, a
    batched MatMul, divided by the positions), signed square root, L2
    normalisation, Linear over the 16384 bilinear features."""

    def __init__(self, classes=200, red=128):
        super().__init__()
        self.trunk = nn.Sequential(
            _bn_act(3, 32), nn.MaxPool2d(2),
            _bn_act(32, 64), _bn_act(64, 64), nn.MaxPool2d(2),
            _bn_act(64, 128), _bn_act(128, 128), nn.MaxPool2d(2),
            _bn_act(128, 256), _bn_act(256, 256),
            nn.Conv2d(256, red, 1), nn.ReLU())
        self.fc = nn.Linear(red * red, classes)

    def forward(self, x):                          # (N, 3, 112, 112)
        f = self.trunk(x).flatten(2)                                   # (N, C, P)
        b = torch.matmul(f, f.transpose(1, 2)) / f.shape[2]
        b = b.flatten(1)
        b = torch.sign(b) * torch.sqrt(torch.abs(b) + 1e-10)
        b = b / (b.norm(dim=1, keepdim=True) + 1e-12)
        return self.fc(b)


class ShiftNetLike(nn.Module):
    """ShiftNet (Wu et al., "Shift: A Zero FLOP, Zero Parameter Alternative
    to Spatial Convolutions"): residual CSC modules -- 1x1 Conv expanding,
    BatchNorm, ReLU, a shift of nine channel groups in nine directions (Pad,
    Slice, Concat), 1x1 Conv (strided for downsampling) projecting, BN --
    with 1x1 strided shortcuts; global pool, Linear."""

    class Shift(nn.Module):
        def __init__(self, c):
            super().__init__()
            self.c = c

        def forward(self, x):
            c, g = self.c, self.c // 9
            p = F.pad(x, (1, 1, 1, 1))
            parts = []
            for i, (dy, dx) in enumerate([(a, b) for a in (0, 1, 2) for b in (0, 1, 2)]):
                lo, hi = i * g, (c if i == 8 else (i + 1) * g)
                parts.append(p[:, lo:hi, dy:(dy - 2 or None), dx:(dx - 2 or None)])
            return torch.cat(parts, dim=1)

    class CSC(nn.Module):
        def __init__(self, cin, cout, s, e=3):
            super().__init__()
            self.a = _bn_act(cin, e * cin, 1)
            self.shift = ShiftNetLike.Shift(e * cin)
            self.b = nn.Sequential(nn.Conv2d(e * cin, cout, 1, s, bias=False),
                                   nn.BatchNorm2d(cout))
            self.short = nn.Identity() if (s == 1 and cin == cout) else nn.Sequential(
                nn.Conv2d(cin, cout, 1, s, bias=False), nn.BatchNorm2d(cout))

        def forward(self, x):
            return F.relu(self.short(x) + self.b(self.shift(self.a(x))))

    def __init__(self, widths=(48, 96, 192, 384), depth=(2, 3, 3, 2), classes=1000):
        super().__init__()
        self.stem = nn.Sequential(_bn_act(3, 32, 3, 2), _bn_act(32, 48, 3, 2))
        blocks, cin = [], 48
        for i, (w, n) in enumerate(zip(widths, depth)):
            for j in range(n):
                blocks.append(ShiftNetLike.CSC(cin, w, 2 if (j == 0 and i > 0) else 1))
                cin = w
        self.blocks = nn.Sequential(*blocks)
        self.fc = nn.Linear(cin, classes)

    def forward(self, x):                          # (N, 3, 192, 192)
        return self.fc(self.blocks(self.stem(x)).mean((2, 3)))


class XNORNetLike(nn.Module):
    """XNOR-Net (Rastegari et al.): full-precision first Conv and last
    Linear; between them binary blocks -- BatchNorm, binarized activations
    (Sign) with the input scaling map K (channel mean of |x| box-filtered
    by an averaging Conv), a Conv on binarized weights (Sign of the weights
    times their per-filter mean magnitude), ReLU, MaxPool."""

    class Bin(nn.Module):
        def __init__(self, cin, cout, k=3):
            super().__init__()
            self.k = k
            self.bn = nn.BatchNorm2d(cin)
            self.weight = nn.Parameter(torch.randn(cout, cin, k, k) / math.sqrt(cin * k * k))
            self.register_buffer("box", torch.full((1, 1, k, k), 1.0 / (k * k)))

        def forward(self, x):
            x = self.bn(x)
            K = F.conv2d(x.abs().mean(dim=1, keepdim=True), self.box, padding=self.k // 2)
            alpha = self.weight.abs().mean(dim=(1, 2, 3), keepdim=True)
            wb = torch.sign(self.weight) * alpha
            return F.relu(F.conv2d(torch.sign(x), wb, padding=self.k // 2) * K)

    def __init__(self, classes=1000):
        super().__init__()
        B = XNORNetLike.Bin
        self.first = nn.Sequential(nn.Conv2d(3, 64, 5, 2, 2), nn.BatchNorm2d(64), nn.ReLU(),
                                   nn.MaxPool2d(2))
        self.body = nn.Sequential(B(64, 128), B(128, 128), nn.MaxPool2d(2),
                                  B(128, 256), B(256, 256), nn.MaxPool2d(2),
                                  B(256, 512), B(512, 512))
        self.bn = nn.BatchNorm1d(512)
        self.fc = nn.Linear(512, classes)

    def forward(self, x):                          # (N, 3, 128, 128)
        return self.fc(self.bn(self.body(self.first(x)).mean((2, 3))))


class PKMTransformer(nn.Module):
    """Transformer language model with a product-key memory layer (Lample
    et al.): in the middle layer the feed-forward is replaced by a memory
    of 128 x 128 = 16384 values addressed through two sets of 128 sub-keys
    per head (2 heads): sub-key scores, TopK 16 of each half, the 16 x 16
    candidate sums, TopK 16 again, indices combined (GatherElements),
    softmax weights over the values gathered from the table (Gather);
    elsewhere pre-LayerNorm attention and GELU feed-forward; tied logits."""

    class PKM(nn.Module):
        def __init__(self, d, n=128, dk=128, heads=2, knn=16):
            super().__init__()
            self.n, self.dk, self.h, self.knn = n, dk, heads, knn
            self.query = nn.Linear(d, heads * dk)
            self.keys = nn.Parameter(torch.randn(heads, 2, n, dk // 2) / math.sqrt(dk))
            self.values = nn.Embedding(n * n, d)

        def forward(self, x):                      # (N, L, d)
            L, n, h, knn = x.shape[1], self.n, self.h, self.knn
            q = self.query(x).reshape(-1, L, h, 2, self.dk // 2).permute(0, 2, 3, 1, 4)
            s = torch.matmul(q, self.keys.unsqueeze(0).transpose(3, 4))   # (N, h, 2, L, n)
            s1, i1 = s[:, :, 0].topk(knn, dim=-1)                          # (N, h, L, knn)
            s2, i2 = s[:, :, 1].topk(knn, dim=-1)
            all_s = (s1.unsqueeze(-1) + s2.unsqueeze(-2)).flatten(-2)    # (N, h, L, knn^2)
            all_i = (i1.unsqueeze(-1) * n + i2.unsqueeze(-2)).flatten(-2)
            best, j = all_s.topk(knn, dim=-1)
            idx = torch.gather(all_i, -1, j)                              # (N, h, L, knn)
            w = torch.softmax(best, dim=-1)
            vals = self.values(idx)                                       # (N, h, L, knn, d)
            return (vals * w.unsqueeze(-1)).sum(dim=3).sum(dim=1)

    class Layer(nn.Module):
        def __init__(self, d, heads, ff, pkm):
            super().__init__()
            self.h = heads
            self.n1 = nn.LayerNorm(d)
            self.qkv = nn.Linear(d, 3 * d)
            self.o = nn.Linear(d, d)
            self.n2 = nn.LayerNorm(d)
            self.ff = PKMTransformer.PKM(d) if pkm else \
                nn.Sequential(nn.Linear(d, ff), nn.GELU(), nn.Linear(ff, d))

        def forward(self, x, mask):
            L = x.shape[1]
            q, k, v = self.qkv(self.n1(x)).chunk(3, dim=-1)
            dh = q.shape[2] // self.h
            q = q.reshape(-1, L, self.h, dh).transpose(1, 2)
            k = k.reshape(-1, L, self.h, dh).transpose(1, 2)
            v = v.reshape(-1, L, self.h, dh).transpose(1, 2)
            a = torch.softmax(torch.matmul(q, k.transpose(2, 3)) / math.sqrt(dh) + mask, dim=-1)
            x = x + self.o(torch.matmul(a, v).transpose(1, 2).reshape(-1, L, self.h * dh))
            return x + self.ff(self.n2(x))

    def __init__(self, vocab=4000, d=256, heads=4, depth=4, ff=1024, L=128):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.pos = nn.Parameter(0.02 * torch.randn(L, d))
        self.layers = nn.ModuleList(PKMTransformer.Layer(d, heads, ff, i == depth // 2)
                                    for i in range(depth))
        self.norm = nn.LayerNorm(d)
        i = torch.arange(L)
        self.register_buffer("mask", torch.where(i[None, :] > i[:, None], torch.tensor(-1e9),
                                                 torch.tensor(0.0)))

    def forward(self, tokens):                     # (N, 128)
        x = self.emb(tokens) + self.pos
        for layer in self.layers:
            x = layer(x, self.mask)
        return torch.matmul(self.norm(x), self.emb.weight.t())


class WaveletCNN(nn.Module):
    """Wavelet CNN (Fujieda et al.): a four-level Haar decomposition of the
    input (fixed 2x2 stride-2 depthwise Convs giving LL, LH, HL, HH per
    channel, the LL band decomposed again) whose sub-bands are concatenated
    into the CNN at each matching resolution; 3x3 Conv-BN-ReLU stages with
    stride-2 Convs between them; global pool, Linear."""

    def __init__(self, widths=(64, 128, 256, 256), classes=1000):
        super().__init__()
        h = 0.5 * torch.tensor([[[1.0, 1], [1, 1]], [[-1.0, -1], [1, 1]],
                                [[-1.0, 1], [-1, 1]], [[1.0, -1], [-1, 1]]])
        self.register_buffer("haar", h.repeat(3, 1, 1).unsqueeze(1))   # (12, 1, 2, 2)
        stages, cin = [], 0
        for i, w in enumerate(widths):
            stages.append(nn.Sequential(_bn_act(cin + 12, w), _bn_act(w, w)))
            cin = w
        self.stages = nn.ModuleList(stages)
        self.downs = nn.ModuleList(_bn_act(w, w, 3, 2) for w in widths[:-1])
        self.fc = nn.Linear(widths[-1], classes)

    def forward(self, x):                          # (N, 3, 128, 128)
        ll, h = x, None
        for i, stage in enumerate(self.stages):
            bands = F.conv2d(ll, self.haar, stride=2, groups=3)       # (N, 12, H/2, W/2)
            ll = bands[:, 0::4]
            h = bands if h is None else torch.cat([self.downs[i - 1](h), bands], dim=1)
            h = stage(h)
        return self.fc(h.mean((2, 3)))


def _img(size, ch=3):
    return [("input", ("N", ch, size, size), "float32", None)]


BLIND5 = {
    "spiking_cnn": dict(ctor=SpikingCNN, family="spiking", inputs=_img(32)),
    "retnet_like": dict(ctor=RetNetLike, family="retention",
                        inputs=[("tokens", ("N", 128), "int64", 4000)]),
    "qrnn_like": dict(ctor=QRNNLike, family="quasi-recurrent",
                      inputs=[("tokens", ("N", 64), "int64", 8000)]),
    "ghostnet_like": dict(ctor=GhostNetLike, family="ghost-module", inputs=_img(224)),
    "condconv_net": dict(ctor=CondConvNet, family="dynamic-convolution", inputs=_img(128)),
    "hopfield_mil": dict(ctor=HopfieldMIL, family="associative-memory",
                         inputs=[("bag", ("N", 256, 64), "float32", None)]),
    "slot_attention_net": dict(ctor=SlotAttentionNet, family="slot-attention",
                               inputs=_img(64)),
    "bilinear_cnn": dict(ctor=BilinearCNN, family="bilinear-pooling", inputs=_img(112)),
    "shiftnet_like": dict(ctor=ShiftNetLike, family="shift-conv", inputs=_img(192)),
    "xnor_net_like": dict(ctor=XNORNetLike, family="binarized", inputs=_img(128)),
    "pkm_transformer": dict(ctor=PKMTransformer, family="product-key-memory",
                            inputs=[("tokens", ("N", 128), "int64", 4000)]),
    "wavelet_cnn": dict(ctor=WaveletCNN, family="wavelet-conv", inputs=_img(128)),
}
