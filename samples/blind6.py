r"""BLIND6: a sixth blind set, written on 2026-12-05 by a helper session,
before it was measured; to be measured before any further change and scored
with main as it stood when it was written first (the held-out figure), then
again after, both reported (bench/zoo_accuracy.py --set blind6).  Its
families are in no other set (ZOO, BLIND, BLIND2, BLIND3, BLIND4, BLIND5,
the reference models) and were in view of no plan rule, feature, fit or
calibration: CBAM channel + spatial attention, a Fourier neural operator
(DFT written as MatMuls), Nystrom landmark attention with an iterative
pseudo-inverse (Nystromformer), dense + random synthesized attention
(Synthesizer), octave convolutions (high / low frequency branches), FiLM
feature-wise modulation from a question GRU, lambda layers (LambdaNetworks,
Einsum and Conv3d position lambdas), a Hyena implicit long convolution
(Toeplitz Gather and MatMul), a Pi-net polynomial ResNet (Hadamard
products of Conv branches), deformable convolutions (bilinear sampling by
GatherElements), a convolutional LISTA (unrolled sparse coding with soft
thresholding) and Monarch structured matrices in a transformer encoder.
None of them was run through onnxcost predict before being measured.

Measured with

    OMP_WAIT_POLICY=PASSIVE /usr/bin/python3 scripts/measure_zoo.py --set blind6 \
        cbam_resnet fno2d nystromformer synthesizer octave_resnet film_clevr \
        lambda_resnet hyena_lm pinet_resnet deformable_convnet conv_lista monarch_encoder \
        --threads 1 2 --batches 1 4 16

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


class CBAMResNet(nn.Module):
    """ResNet-18 layout with CBAM (Woo et al., "Convolutional Block
    Attention Module") in every basic block: channel attention (average-
    and max-pooled descriptors through one shared two-layer MLP of 1x1
    Convs, summed, sigmoid) then spatial attention (channel mean and max
    concatenated, 7x7 Conv, sigmoid), each multiplied in before the
    residual add; narrowed widths on 128x128 images."""

    class Block(nn.Module):
        def __init__(self, cin, cout, s, r=16):
            super().__init__()
            self.c1 = _bn_act(cin, cout, 3, s)
            self.c2 = _bn_act(cout, cout, 3, 1, act=False)
            self.mlp = nn.Sequential(nn.Conv2d(cout, cout // r, 1, bias=False), nn.ReLU(),
                                     nn.Conv2d(cout // r, cout, 1, bias=False))
            self.spatial = nn.Sequential(nn.Conv2d(2, 1, 7, 1, 3, bias=False),
                                         nn.BatchNorm2d(1))
            self.short = nn.Identity() if (s == 1 and cin == cout) else \
                _bn_act(cin, cout, 1, s, act=False)

        def forward(self, x):
            h = self.c2(self.c1(x))
            ca = self.mlp(F.adaptive_avg_pool2d(h, 1)) + self.mlp(F.adaptive_max_pool2d(h, 1))
            h = h * torch.sigmoid(ca)
            sa = torch.cat([h.mean(dim=1, keepdim=True), h.amax(dim=1, keepdim=True)], dim=1)
            h = h * torch.sigmoid(self.spatial(sa))
            return F.relu(h + self.short(x))

    def __init__(self, widths=(48, 96, 192, 384), depth=(2, 2, 2, 2), classes=1000):
        super().__init__()
        self.stem = nn.Sequential(_bn_act(3, widths[0], 7, 2), nn.MaxPool2d(3, 2, 1))
        blocks, cin = [], widths[0]
        for i, (w, n) in enumerate(zip(widths, depth)):
            for j in range(n):
                blocks.append(CBAMResNet.Block(cin, w, 2 if (j == 0 and i > 0) else 1))
                cin = w
        self.blocks = nn.Sequential(*blocks)
        self.fc = nn.Linear(cin, classes)

    def forward(self, x):                          # (N, 3, 128, 128)
        return self.fc(self.blocks(self.stem(x)).mean((2, 3)))


class FNO2d(nn.Module):
    """Fourier neural operator (Li et al.) for a 2-D field (Darcy flow
    style): the input field with its (x, y) grid lifted by a Linear; four
    Fourier layers, each a spectral convolution -- the truncated 2-D DFT
    (16 x 16 low modes, both signs along x) written as real MatMuls with
    fixed cos / sin matrices since FFT does not export, a complex per-mode
    channel mixing (batched MatMul over the modes), the inverse real DFT,
    again as MatMuls -- plus a 1x1 Conv path, GELU; projection MLP."""

    class Spectral(nn.Module):
        def __init__(self, c, size, modes):
            super().__init__()
            m, S = modes, size
            scale = 1.0 / (c * c)
            self.wr = nn.Parameter(scale * torch.rand(2 * m * m, c, c))
            self.wi = nn.Parameter(scale * torch.rand(2 * m * m, c, c))
            kx = torch.cat([torch.arange(m), torch.arange(S - m, S)]).float()
            ky = torch.arange(m).float()
            n = torch.arange(S).float()
            tx = 2 * math.pi * kx[:, None] * n[None, :] / S            # (2m, S)
            ty = 2 * math.pi * ky[:, None] * n[None, :] / S            # (m, S)
            self.register_buffer("cx", torch.cos(tx))
            self.register_buffer("sx", torch.sin(tx))
            self.register_buffer("cyT", torch.cos(ty).t().contiguous())  # (S, m)
            self.register_buffer("syT", torch.sin(ty).t().contiguous())
            wgt = torch.full((m, 1), 2.0 / (S * S))
            wgt[0] = 1.0 / (S * S)
            self.register_buffer("icy", torch.cos(ty) * wgt)           # (m, S)
            self.register_buffer("isy", torch.sin(ty) * wgt)
            self.c, self.m, self.S = c, m, S

        def forward(self, x):                      # (N, c, S, S)
            c, m = self.c, self.m
            ar = torch.matmul(x, self.cyT)                             # (N, c, S, m)
            ai = -torch.matmul(x, self.syT)
            br = torch.matmul(self.cx, ar) + torch.matmul(self.sx, ai)  # (N, c, 2m, m)
            bi = torch.matmul(self.cx, ai) - torch.matmul(self.sx, ar)
            br = br.flatten(2).permute(2, 0, 1)                        # (2m*m, N, c)
            bi = bi.flatten(2).permute(2, 0, 1)
            o_r = torch.matmul(br, self.wr) - torch.matmul(bi, self.wi)
            o_i = torch.matmul(br, self.wi) + torch.matmul(bi, self.wr)
            o_r = o_r.permute(1, 2, 0).reshape(-1, c, 2 * m, m)
            o_i = o_i.permute(1, 2, 0).reshape(-1, c, 2 * m, m)
            cxT, sxT = self.cx.t(), self.sx.t()                        # (S, 2m)
            gr = torch.matmul(cxT, o_r) - torch.matmul(sxT, o_i)      # (N, c, S, m)
            gi = torch.matmul(cxT, o_i) + torch.matmul(sxT, o_r)
            return torch.matmul(gr, self.icy) - torch.matmul(gi, self.isy)

    def __init__(self, width=32, modes=16, size=64, depth=4):
        super().__init__()
        ys, xs = torch.meshgrid(torch.linspace(0, 1, size), torch.linspace(0, 1, size),
                                indexing="ij")
        self.register_buffer("grid", torch.stack([xs, ys]).unsqueeze(0))   # (1, 2, S, S)
        self.lift = nn.Conv2d(3, width, 1)
        self.spectral = nn.ModuleList(FNO2d.Spectral(width, size, modes) for _ in range(depth))
        self.pointwise = nn.ModuleList(nn.Conv2d(width, width, 1) for _ in range(depth))
        self.proj = nn.Sequential(nn.Conv2d(width, 128, 1), nn.GELU(), nn.Conv2d(128, 1, 1))

    def forward(self, a):                          # (N, 1, 64, 64)
        x = self.lift(torch.cat([a, self.grid + a[:, :1] * 0], dim=1))
        for i, (sp, pw) in enumerate(zip(self.spectral, self.pointwise)):
            x = sp(x) + pw(x)
            if i < len(self.spectral) - 1:
                x = F.gelu(x)
        return self.proj(x)


class Nystromformer(nn.Module):
    """Nystromformer text classifier (Xiong et al.): softmax attention
    approximated with 64 landmarks (segment means of queries and keys):
    softmax(Q K~^T) pinv(softmax(Q~ K~^T)) softmax(Q~ K^T) V, the
    pseudo-inverse by six Newton-Schulz iterations (MatMul chains, scaled
    by ReduceMax of the row and column sums), plus the depthwise 33 x 1
    Conv skip on the values; post-LayerNorm, GELU feed-forward, 512 tokens,
    mean-pooled to a Linear."""

    class Layer(nn.Module):
        def __init__(self, d, heads, ff, L, landmarks, iters=6, kconv=33):
            super().__init__()
            self.h, self.dh, self.m, self.iters, self.L = heads, d // heads, landmarks, iters, L
            self.qkv = nn.Linear(d, 3 * d)
            self.conv = nn.Conv2d(heads, heads, (kconv, 1), padding=(kconv // 2, 0),
                                  groups=heads, bias=False)
            self.o = nn.Linear(d, d)
            self.n1 = nn.LayerNorm(d)
            self.ff = nn.Sequential(nn.Linear(d, ff), nn.GELU(), nn.Linear(ff, d))
            self.n2 = nn.LayerNorm(d)
            self.register_buffer("eye", torch.eye(landmarks))

        def pinv(self, k):
            z = k.transpose(-1, -2) / (k.sum(-2).amax(-1, keepdim=True).unsqueeze(-1) *
                                       k.sum(-1).amax(-1, keepdim=True).unsqueeze(-1))
            eye = self.eye
            for _ in range(self.iters):
                kz = torch.matmul(k, z)
                z = 0.25 * torch.matmul(z, 13 * eye - torch.matmul(kz, 15 * eye - torch.matmul(
                    kz, 7 * eye - kz)))
            return z

        def forward(self, x):
            L, H, dh, m = self.L, self.h, self.dh, self.m
            q, k, v = self.qkv(x).chunk(3, dim=-1)
            q = q.reshape(-1, L, H, dh).transpose(1, 2) / dh ** 0.25
            k = k.reshape(-1, L, H, dh).transpose(1, 2) / dh ** 0.25
            v = v.reshape(-1, L, H, dh).transpose(1, 2)
            ql = q.reshape(-1, H, m, L // m, dh).mean(3)
            kl = k.reshape(-1, H, m, L // m, dh).mean(3)
            k1 = torch.softmax(torch.matmul(q, kl.transpose(2, 3)), dim=-1)      # (N,H,L,m)
            k2 = torch.softmax(torch.matmul(ql, kl.transpose(2, 3)), dim=-1)     # (N,H,m,m)
            k3 = torch.softmax(torch.matmul(ql, k.transpose(2, 3)), dim=-1)      # (N,H,m,L)
            a = torch.matmul(torch.matmul(k1, self.pinv(k2)), torch.matmul(k3, v))
            a = a + self.conv(v)
            x = self.n1(x + self.o(a.transpose(1, 2).reshape(-1, L, H * dh)))
            return self.n2(x + self.ff(x))

    def __init__(self, vocab=8000, d=256, heads=4, depth=2, ff=512, L=512, landmarks=64,
                 classes=2):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.pos = nn.Parameter(0.02 * torch.randn(L, d))
        self.layers = nn.ModuleList(Nystromformer.Layer(d, heads, ff, L, landmarks)
                                    for _ in range(depth))
        self.fc = nn.Linear(d, classes)

    def forward(self, tokens):                     # (N, 512)
        x = self.emb(tokens) + self.pos
        for layer in self.layers:
            x = layer(x)
        return self.fc(x.mean(1))


class SynthesizerLM(nn.Module):
    """Synthesizer language model (Tay et al.), Dense + Random mixture: each
    head's attention weights are synthesized without query-key products --
    a per-token two-layer MLP (d -> d, ReLU, per-head d_h -> L) giving its
    row of logits, mixed with a learned random L x L matrix per head,
    causally masked, softmax, times the values; pre-LayerNorm, GELU
    feed-forward, tied output logits."""

    class Layer(nn.Module):
        def __init__(self, d, heads, ff, L):
            super().__init__()
            self.h, self.dh, self.L = heads, d // heads, L
            self.n1 = nn.LayerNorm(d)
            self.w1 = nn.Linear(d, d)
            self.w2 = nn.Parameter(torch.randn(heads, d // heads, L) / math.sqrt(d // heads))
            self.b2 = nn.Parameter(torch.zeros(heads, 1, L))
            self.rand = nn.Parameter(torch.randn(heads, L, L) / math.sqrt(L))
            self.mix = nn.Parameter(torch.tensor([0.5, 0.5]))
            self.v = nn.Linear(d, d)
            self.o = nn.Linear(d, d)
            self.n2 = nn.LayerNorm(d)
            self.ff = nn.Sequential(nn.Linear(d, ff), nn.GELU(), nn.Linear(ff, d))

        def forward(self, x, mask):
            L, H, dh = self.L, self.h, self.dh
            h = self.n1(x)
            b = F.relu(self.w1(h)).reshape(-1, L, H, dh).transpose(1, 2)
            dense = torch.matmul(b, self.w2) + self.b2                     # (N, H, L, L)
            w = torch.softmax(self.mix, dim=0)
            a = torch.softmax(w[0] * dense + w[1] * self.rand + mask, dim=-1)
            v = self.v(h).reshape(-1, L, H, dh).transpose(1, 2)
            x = x + self.o(torch.matmul(a, v).transpose(1, 2).reshape(-1, L, H * dh))
            return x + self.ff(self.n2(x))

    def __init__(self, vocab=4000, d=256, heads=4, depth=4, ff=1024, L=128):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.pos = nn.Parameter(0.02 * torch.randn(L, d))
        self.layers = nn.ModuleList(SynthesizerLM.Layer(d, heads, ff, L) for _ in range(depth))
        self.norm = nn.LayerNorm(d)
        i = torch.arange(L)
        self.register_buffer("mask", torch.where(i[None, :] > i[:, None], torch.tensor(-1e9),
                                                 torch.tensor(0.0)))

    def forward(self, tokens):                     # (N, 128)
        x = self.emb(tokens) + self.pos
        for layer in self.layers:
            x = layer(x, self.mask)
        return torch.matmul(self.norm(x), self.emb.weight.t())


class OctaveResNet(nn.Module):
    """Oct-ResNet-26 (Chen et al., "Drop an Octave"): bottlenecks of octave
    convolutions with alpha = 0.5 -- a high-frequency branch at full and a
    low-frequency branch at half resolution, with high->low paths through
    2x2 AvgPool and low->high paths through nearest Upsample, summed;
    strided blocks pool both branches; the last stage back to a single
    branch (alpha 0); global pool, Linear."""

    class Oct(nn.Module):
        def __init__(self, cin, cout, k, a_in, a_out, s=1):
            super().__init__()
            self.s = s
            hi_in, hi_out = cin - int(a_in * cin), cout - int(a_out * cout)
            lo_in, lo_out = int(a_in * cin), int(a_out * cout)
            self.hh = nn.Conv2d(hi_in, hi_out, k, 1, k // 2, bias=False)
            self.hl = nn.Conv2d(hi_in, lo_out, k, 1, k // 2, bias=False) if lo_out else None
            self.lh = nn.Conv2d(lo_in, hi_out, k, 1, k // 2, bias=False) if lo_in else None
            self.ll = nn.Conv2d(lo_in, lo_out, k, 1, k // 2, bias=False) \
                if lo_in and lo_out else None
            self.bh = nn.BatchNorm2d(hi_out)
            self.bl = nn.BatchNorm2d(lo_out) if lo_out else None

        def forward(self, xh, xl):
            if self.s > 1:
                xh = F.avg_pool2d(xh, 2)
                xl = F.avg_pool2d(xl, 2) if xl is not None else None
            yh = self.hh(xh)
            if self.lh is not None:
                yh = yh + F.interpolate(self.lh(xl), scale_factor=2.0, mode="nearest")
            yl = None
            if self.hl is not None:
                yl = self.hl(F.avg_pool2d(xh, 2))
                if self.ll is not None:
                    yl = yl + self.ll(xl)
                yl = self.bl(yl)
            return self.bh(yh), yl

    class Bottleneck(nn.Module):
        def __init__(self, cin, mid, s, a_in, a_out):
            super().__init__()
            O = OctaveResNet.Oct
            self.a = O(cin, mid, 1, a_in, a_out)
            self.b = O(mid, mid, 3, a_out, a_out, s)
            self.c = O(mid, 4 * mid, 1, a_out, a_out)
            self.short = None if (s == 1 and cin == 4 * mid and a_in == a_out) else \
                O(cin, 4 * mid, 1, a_in, a_out, s)

        def forward(self, xh, xl):
            def act(h, l):
                return F.relu(h), (F.relu(l) if l is not None else None)
            h, l = self.c(*act(*self.b(*act(*self.a(xh, xl)))))
            sh, sl = (xh, xl) if self.short is None else self.short(xh, xl)
            return act(h + sh, (l + sl) if l is not None else None)

    def __init__(self, mids=(64, 128, 256, 512), depth=(2, 2, 2, 2), alpha=0.5,
                 classes=1000):
        super().__init__()
        self.stem = nn.Sequential(_bn_act(3, 64, 7, 2), nn.MaxPool2d(3, 2, 1))
        blocks, cin, a_in = [], 64, 0.0
        for i, (m, n) in enumerate(zip(mids, depth)):
            a_out = alpha if i < len(mids) - 1 else 0.0
            for j in range(n):
                blocks.append(OctaveResNet.Bottleneck(cin, m, 2 if (j == 0 and i > 0) else 1,
                                                      a_in, a_out))
                cin, a_in = 4 * m, a_out
        self.blocks = nn.ModuleList(blocks)
        self.fc = nn.Linear(cin, classes)

    def forward(self, x):                          # (N, 3, 192, 192)
        h, l = self.stem(x), None
        for b in self.blocks:
            h, l = b(h, l)
        return self.fc(h.mean((2, 3)))


class FiLMNet(nn.Module):
    """FiLM visual reasoning model for CLEVR (Perez et al.): a GRU question
    encoder whose last state is mapped by a Linear to per-block (gamma,
    beta); a raw-pixel stem of 4x4 stride-2 Convs; four FiLM'd residual
    blocks (coordinate maps concatenated, 1x1 Conv, 3x3 Conv, BatchNorm
    without affine, feature-wise gamma * x + beta, ReLU, residual); a
    classifier of coordinates + 1x1 Conv to 512, global max pool, MLP."""

    class Block(nn.Module):
        def __init__(self, c):
            super().__init__()
            self.c1 = nn.Conv2d(c + 2, c, 1)
            self.c2 = nn.Conv2d(c, c, 3, 1, 1)
            self.bn = nn.BatchNorm2d(c, affine=False)

        def forward(self, x, coords, gamma, beta):
            h = F.relu(self.c1(torch.cat([x, coords], dim=1)))
            y = self.bn(self.c2(h)) * gamma[:, :, None, None] + beta[:, :, None, None]
            return h + F.relu(y)

    def __init__(self, vocab=90, e=200, hid=1024, c=128, nblocks=4, size=128, answers=28):
        super().__init__()
        self.c, self.n = c, nblocks
        self.emb = nn.Embedding(vocab, e)
        self.gru = nn.GRU(e, hid, batch_first=True)
        self.film = nn.Linear(hid, 2 * c * nblocks)
        self.stem = nn.Sequential(
            nn.Conv2d(3, c, 4, 2, 1), nn.BatchNorm2d(c), nn.ReLU(),
            nn.Conv2d(c, c, 4, 2, 1), nn.BatchNorm2d(c), nn.ReLU(),
            nn.Conv2d(c, c, 4, 2, 1), nn.BatchNorm2d(c), nn.ReLU())
        f = size // 8
        ys, xs = torch.meshgrid(torch.linspace(-1, 1, f), torch.linspace(-1, 1, f),
                                indexing="ij")
        self.register_buffer("coords", torch.stack([xs, ys]).unsqueeze(0))
        self.blocks = nn.ModuleList(FiLMNet.Block(c) for _ in range(nblocks))
        self.head = nn.Sequential(nn.Conv2d(c + 2, 512, 1), nn.BatchNorm2d(512), nn.ReLU())
        self.mlp = nn.Sequential(nn.Linear(512, 1024), nn.ReLU(), nn.Linear(1024, answers))

    def forward(self, image, question):           # (N, 3, 128, 128), (N, 24)
        _, hq = self.gru(self.emb(question))
        gb = self.film(hq[0]).reshape(-1, self.n, 2, self.c)
        x = self.stem(image)
        coords = self.coords.expand(x.shape[0], -1, -1, -1)
        for i, blk in enumerate(self.blocks):
            x = blk(x, coords, 1 + gb[:, i, 0], gb[:, i, 1])
        x = self.head(torch.cat([x, coords], dim=1)).amax(dim=(2, 3))
        return self.mlp(x)


class LambdaResNet(nn.Module):
    """LambdaResNet-26 style (Bello, "LambdaNetworks"): bottleneck ResNet
    whose 3x3 Convs in the last two stages are lambda layers -- queries,
    keys (softmax over positions) and values by 1x1 Conv + BatchNorm, the
    content lambda (Einsum of keys and values) applied to the queries, and
    local position lambdas from a Conv3d (1 x r x r) over the values,
    applied per position (Einsum); 4 heads, k = 16, u = 1; a 3x3 AvgPool
    after strided lambda layers; global pool, Linear."""

    class Lambda(nn.Module):
        def __init__(self, cin, cout, heads=4, k=16, r=15):
            super().__init__()
            self.h, self.k, self.v = heads, k, cout // heads
            self.q = nn.Sequential(nn.Conv2d(cin, k * heads, 1, bias=False),
                                   nn.BatchNorm2d(k * heads))
            self.key = nn.Conv2d(cin, k, 1, bias=False)
            self.val = nn.Sequential(nn.Conv2d(cin, self.v, 1, bias=False),
                                     nn.BatchNorm2d(self.v))
            self.pos = nn.Conv3d(1, k, (1, r, r), padding=(0, r // 2, r // 2))

        def forward(self, x):
            hh, ww = x.shape[2], x.shape[3]
            n, H, k, v = hh * ww, self.h, self.k, self.v
            q = self.q(x).reshape(-1, H, k, n)
            key = torch.softmax(self.key(x).reshape(-1, k, n), dim=-1)
            val = self.val(x)
            vf = val.reshape(-1, v, n)
            lc = torch.einsum("bkm,bvm->bkv", key, vf)
            yc = torch.einsum("bhkn,bkv->bhvn", q, lc)
            lp = self.pos(val.unsqueeze(1)).reshape(-1, k, v, n)
            yp = torch.einsum("bhkn,bkvn->bhvn", q, lp)
            return (yc + yp).reshape(-1, H * v, hh, ww)

    class Bottleneck(nn.Module):
        def __init__(self, cin, mid, s, lam):
            super().__init__()
            self.a = _bn_act(cin, mid, 1)
            if lam:
                mid_op = [LambdaResNet.Lambda(mid, mid)]
                if s > 1:
                    mid_op.append(nn.AvgPool2d(3, s, 1))
                self.b = nn.Sequential(*mid_op, nn.BatchNorm2d(mid), nn.ReLU())
            else:
                self.b = _bn_act(mid, mid, 3, s)
            self.c = _bn_act(mid, 4 * mid, 1, act=False)
            self.short = nn.Identity() if (s == 1 and cin == 4 * mid) else \
                _bn_act(cin, 4 * mid, 1, s, act=False)

        def forward(self, x):
            return F.relu(self.c(self.b(self.a(x))) + self.short(x))

    def __init__(self, mids=(32, 64, 128, 256), depth=(2, 2, 2, 2), classes=1000):
        super().__init__()
        self.stem = nn.Sequential(_bn_act(3, 32, 3, 2), _bn_act(32, 64, 3, 1))
        blocks, cin = [], 64
        for i, (m, n) in enumerate(zip(mids, depth)):
            for j in range(n):
                blocks.append(LambdaResNet.Bottleneck(cin, m, 2 if (j == 0 and i > 0) else 1,
                                                      lam=i >= 2))
                cin = 4 * m
        self.blocks = nn.Sequential(*blocks)
        self.fc = nn.Linear(cin, classes)

    def forward(self, x):                          # (N, 3, 128, 128)
        return self.fc(self.blocks(self.stem(x)).mean((2, 3)))


class HyenaLM(nn.Module):
    """Hyena language model (Poli et al., "Hyena Hierarchy"), order 2: an
    input projection to three streams, a short causal depthwise Conv1d,
    then two gated long convolutions whose length-256 filters are implicit
    -- an MLP with sine activations of sinusoidal positional features,
    times an exponential decay window, computed each run -- and applied as
    causal Toeplitz matrices (one Gather of the filter taps, then a batched
    MatMul per channel, batch folded into the columns) instead of FFT;
    output projection, pre-LayerNorm, GELU feed-forward, tied logits."""

    class Operator(nn.Module):
        def __init__(self, d, L, order=2, femb=33, fhid=64):
            super().__init__()
            self.d, self.L, self.order = d, L, order
            self.inp = nn.Linear(d, (order + 1) * d)
            self.short = nn.Conv1d((order + 1) * d, (order + 1) * d, 3, padding=2,
                                   groups=(order + 1) * d)
            self.filt = nn.Sequential(nn.Linear(femb, fhid), _Sin(), nn.Linear(fhid, fhid),
                                      _Sin(), nn.Linear(fhid, order * d, bias=False))
            self.bias = nn.Parameter(torch.randn(order, d, 1, 1))
            self.out = nn.Linear(d, d)
            t = torch.arange(L).float()
            bands = (femb - 1) // 2
            f = torch.linspace(1e-4, bands - 1, bands)
            z = torch.cat([t[:, None] / L, torch.cos(2 * math.pi * f * t[:, None] / L),
                           torch.sin(2 * math.pi * f * t[:, None] / L)], dim=1)
            self.register_buffer("z", z)                               # (L, femb)
            decay = torch.linspace(0.3, 1.5, d)
            self.register_buffer("window", torch.exp(-decay[:, None] * t[None, :] / L * 10))
            i = torch.arange(L)
            idx = torch.where(i[:, None] >= i[None, :], i[:, None] - i[None, :],
                              torch.tensor(L))
            self.register_buffer("idx", idx)                           # (L, L) -> L = zero tap

        def forward(self, x):                      # (N, L, d)
            d, L, o = self.d, self.L, self.order
            u = self.short(self.inp(x).transpose(1, 2))[:, :, :L]     # (N, (o+1)d, L)
            streams = u.split(d, dim=1)
            h = self.filt(self.z + x[:1, :, :1] * 0)                   # (1, L, o*d): per run
            h = h[0].t().reshape(o, d, L) * self.window
            h = torch.cat([h, h[:, :, :1] * 0], dim=2)                 # (o, d, L+1)
            v = streams[-1]
            for i in range(o):
                v = v * streams[i]
                T = h[i][:, self.idx]                                  # (d, L, L) Toeplitz
                y = torch.matmul(T, v.permute(1, 2, 0))                # (d, L, N)
                v = y.permute(2, 0, 1) + v * self.bias[i, :, 0, 0][None, :, None]
            return self.out(v.transpose(1, 2))

    class Layer(nn.Module):
        def __init__(self, d, L, ff):
            super().__init__()
            self.n1 = nn.LayerNorm(d)
            self.op = HyenaLM.Operator(d, L)
            self.n2 = nn.LayerNorm(d)
            self.ff = nn.Sequential(nn.Linear(d, ff), nn.GELU(), nn.Linear(ff, d))

        def forward(self, x):
            x = x + self.op(self.n1(x))
            return x + self.ff(self.n2(x))

    def __init__(self, vocab=4000, d=192, depth=3, ff=768, L=256):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.layers = nn.ModuleList(HyenaLM.Layer(d, L, ff) for _ in range(depth))
        self.norm = nn.LayerNorm(d)

    def forward(self, tokens):                     # (N, 256)
        x = self.emb(tokens)
        for layer in self.layers:
            x = layer(x)
        return torch.matmul(self.norm(x), self.emb.weight.t())


class _Sin(nn.Module):
    def forward(self, x):
        return torch.sin(x)


class PiNetResNet(nn.Module):
    """Pi-net (Chrysos et al., "Deep Polynomial Neural Networks"), the
    product-of-polynomials ResNet: every block is a second-order polynomial
    of its input -- two 3x3 Conv + BatchNorm branches whose Hadamard
    product is added to the first (a + a * b), a 3x3 Conv + BatchNorm, the
    skip -- so the network's degree doubles per block; ReLU only after
    each block, ResNet-18 layout with narrowed widths; global pool,
    Linear."""

    class Block(nn.Module):
        def __init__(self, cin, cout, s):
            super().__init__()
            self.a = _bn_act(cin, cout, 3, s, act=False)
            self.b = _bn_act(cin, cout, 3, s, act=False)
            self.c = _bn_act(cout, cout, 3, 1, act=False)
            self.short = nn.Identity() if (s == 1 and cin == cout) else \
                _bn_act(cin, cout, 1, s, act=False)

        def forward(self, x):
            a = self.a(x)
            return F.relu(self.c(a + a * self.b(x)) + self.short(x))

    def __init__(self, widths=(48, 96, 192, 384), depth=(2, 2, 2, 2), classes=1000):
        super().__init__()
        self.stem = nn.Sequential(_bn_act(3, widths[0], 7, 2), nn.MaxPool2d(3, 2, 1))
        blocks, cin = [], widths[0]
        for i, (w, n) in enumerate(zip(widths, depth)):
            for j in range(n):
                blocks.append(PiNetResNet.Block(cin, w, 2 if (j == 0 and i > 0) else 1))
                cin = w
        self.blocks = nn.Sequential(*blocks)
        self.fc = nn.Linear(cin, classes)

    def forward(self, x):                          # (N, 3, 128, 128)
        return self.fc(self.blocks(self.stem(x)).mean((2, 3)))


class DeformableConvNet(nn.Module):
    """Deformable ConvNet (Dai et al., DCNv1) on a ResNet-18 layout: in the
    last two stages every 3x3 Conv is deformable -- a 3x3 Conv predicts
    (dy, dx) offsets for the nine taps at every position, the input is
    bilinearly sampled at the shifted taps (Floor, clamped corner indices,
    four GatherElements over the flattened map, weighted sum), and the
    sampled columns meet the kernel in a MatMul; BatchNorm, ReLU, residual;
    global pool, Linear."""

    class Deform(nn.Module):
        def __init__(self, cin, cout, hw):
            super().__init__()
            self.cin, self.cout, self.hw = cin, cout, hw
            self.offset = nn.Conv2d(cin, 18, 3, 1, 1)
            self.weight = nn.Parameter(torch.randn(cout, cin * 9) / math.sqrt(cin * 9))
            ys, xs = torch.meshgrid(torch.arange(hw).float(), torch.arange(hw).float(),
                                    indexing="ij")
            ty, tx = torch.meshgrid(torch.arange(-1, 2).float(), torch.arange(-1, 2).float(),
                                    indexing="ij")
            self.register_buffer("by", (ys.reshape(1, 1, -1) + ty.reshape(1, 9, 1)))
            self.register_buffer("bx", (xs.reshape(1, 1, -1) + tx.reshape(1, 9, 1)))

        def forward(self, x):                      # (N, cin, hw, hw)
            hw, C = self.hw, self.cin
            off = self.offset(x).reshape(-1, 9, 2, hw * hw)
            py = (self.by + off[:, :, 0]).clamp(0, hw - 1)                # (N, 9, P)
            px = (self.bx + off[:, :, 1]).clamp(0, hw - 1)
            y0, x0 = torch.floor(py), torch.floor(px)
            wy, wx = py - y0, px - x0
            y1, x1 = (y0 + 1).clamp(max=hw - 1), (x0 + 1).clamp(max=hw - 1)
            flat = x.reshape(-1, C, hw * hw)

            def tap(yy, xx):
                i = (yy * hw + xx).long().reshape(-1, 1, 9 * hw * hw).expand(-1, C, -1)
                return torch.gather(flat, 2, i).reshape(-1, C, 9, hw * hw)

            s = (tap(y0, x0) * ((1 - wy) * (1 - wx)).unsqueeze(1) +
                 tap(y0, x1) * ((1 - wy) * wx).unsqueeze(1) +
                 tap(y1, x0) * (wy * (1 - wx)).unsqueeze(1) +
                 tap(y1, x1) * (wy * wx).unsqueeze(1))
            y = torch.matmul(self.weight, s.reshape(-1, C * 9, hw * hw))
            return y.reshape(-1, self.cout, hw, hw)

    class Block(nn.Module):
        def __init__(self, cin, cout, s, hw, deform):
            super().__init__()
            self.c1 = _bn_act(cin, cout, 3, s)
            self.c2 = nn.Sequential(DeformableConvNet.Deform(cout, cout, hw),
                                    nn.BatchNorm2d(cout)) if deform else \
                _bn_act(cout, cout, 3, act=False)
            self.short = nn.Identity() if (s == 1 and cin == cout) else \
                _bn_act(cin, cout, 1, s, act=False)

        def forward(self, x):
            return F.relu(self.c2(self.c1(x)) + self.short(x))

    def __init__(self, widths=(64, 128, 256, 512), depth=(2, 2, 2, 2), size=128,
                 classes=1000):
        super().__init__()
        self.stem = nn.Sequential(_bn_act(3, 64, 7, 2), nn.MaxPool2d(3, 2, 1))
        blocks, cin, hw = [], 64, size // 4
        for i, (w, n) in enumerate(zip(widths, depth)):
            for j in range(n):
                s = 2 if (j == 0 and i > 0) else 1
                hw //= s
                blocks.append(DeformableConvNet.Block(cin, w, s, hw, deform=i >= 2))
                cin = w
        self.blocks = nn.Sequential(*blocks)
        self.fc = nn.Linear(cin, classes)

    def forward(self, x):                          # (N, 3, 128, 128)
        return self.fc(self.blocks(self.stem(x)).mean((2, 3)))


class ConvLISTA(nn.Module):
    """Learned convolutional sparse coding denoiser (LISTA, Gregor & LeCun;
    convolutional form as in Sreter & Giryes / CSCNet): a 64-atom 7x7
    dictionary; the code starts as a soft-thresholded encoder Conv of the
    noisy image and is refined by four unrolled ISTA steps z <- soft(z +
    E(y - D z), theta) with tied encoder / decoder Convs and learned
    per-atom thresholds (soft threshold as the difference of two ReLUs);
    the clean image is the decoder Conv of the final code."""

    def __init__(self, atoms=64, k=7, iters=4, ch=1):
        super().__init__()
        self.iters = iters
        self.enc = nn.Conv2d(ch, atoms, k, 1, k // 2, bias=False)
        self.dec = nn.Conv2d(atoms, ch, k, 1, k // 2, bias=False)
        self.theta = nn.Parameter(torch.full((1, atoms, 1, 1), 0.1))

    def soft(self, z):
        return F.relu(z - self.theta) - F.relu(-z - self.theta)

    def forward(self, y):                          # (N, 1, 96, 96)
        z = self.soft(self.enc(y))
        for _ in range(self.iters):
            z = self.soft(z + self.enc(y - self.dec(z)))
        return self.dec(z)


class MonarchEncoder(nn.Module):
    """Transformer encoder whose dense projections are Monarch matrices (Dao
    et al., "Monarch: Expressive Structured Matrices"): each Linear is a
    block-diagonal MatMul (16 blocks), a transposing permutation, and a
    second block-diagonal MatMul (batched MatMuls between Reshape /
    Transpose), bias; softmax attention, 8 heads, pre-LayerNorm, GELU
    feed-forward (512 -> 2048 -> 512, both Monarch); 256 tokens, mean
    pooled, Linear classifier."""

    class Monarch(nn.Module):
        def __init__(self, din, dout, nb=16):
            super().__init__()
            self.nb, self.k = nb, dout // nb
            self.r = nn.Parameter(torch.randn(nb, din // nb, self.k) / math.sqrt(din // nb))
            self.l = nn.Parameter(torch.randn(self.k, nb, nb) / math.sqrt(nb))
            self.b = nn.Parameter(torch.zeros(dout))
            self.din, self.dout = din, dout

        def forward(self, x):                      # (N, L, din)
            L = x.shape[1]
            t = x.reshape(-1, self.nb, self.din // self.nb).transpose(0, 1)   # (nb, N*L, din/nb)
            t = torch.matmul(t, self.r)                                       # (nb, N*L, k)
            t = t.permute(2, 1, 0)                                            # (k, N*L, nb)
            t = torch.matmul(t, self.l)                                       # (k, N*L, nb)
            return t.permute(1, 2, 0).reshape(-1, L, self.dout) + self.b

    class Layer(nn.Module):
        def __init__(self, d, heads, ff):
            super().__init__()
            M = MonarchEncoder.Monarch
            self.h = heads
            self.n1 = nn.LayerNorm(d)
            self.qkv = M(d, 3 * d)
            self.o = M(d, d)
            self.n2 = nn.LayerNorm(d)
            self.up = M(d, ff)
            self.down = M(ff, d)

        def forward(self, x):
            L = x.shape[1]
            q, k, v = self.qkv(self.n1(x)).chunk(3, dim=-1)
            dh = q.shape[2] // self.h
            q = q.reshape(-1, L, self.h, dh).transpose(1, 2)
            k = k.reshape(-1, L, self.h, dh).transpose(1, 2)
            v = v.reshape(-1, L, self.h, dh).transpose(1, 2)
            a = torch.softmax(torch.matmul(q, k.transpose(2, 3)) / math.sqrt(dh), dim=-1)
            x = x + self.o(torch.matmul(a, v).transpose(1, 2).reshape(-1, L, self.h * dh))
            return x + self.down(F.gelu(self.up(self.n2(x))))

    def __init__(self, vocab=8000, d=512, heads=8, depth=6, ff=2048, L=256, classes=10):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.pos = nn.Parameter(0.02 * torch.randn(L, d))
        self.layers = nn.ModuleList(MonarchEncoder.Layer(d, heads, ff) for _ in range(depth))
        self.norm = nn.LayerNorm(d)
        self.fc = nn.Linear(d, classes)

    def forward(self, tokens):                     # (N, 256)
        x = self.emb(tokens) + self.pos
        for layer in self.layers:
            x = layer(x)
        return self.fc(self.norm(x).mean(1))


def _img(size, ch=3):
    return [("input", ("N", ch, size, size), "float32", None)]


BLIND6 = {
    "cbam_resnet": dict(ctor=CBAMResNet, family="channel-spatial-attention",
                        inputs=_img(128)),
    "fno2d": dict(ctor=FNO2d, family="fourier-neural-operator", inputs=_img(64, ch=1)),
    "nystromformer": dict(ctor=Nystromformer, family="landmark-attention",
                          inputs=[("tokens", ("N", 512), "int64", 8000)]),
    "synthesizer": dict(ctor=SynthesizerLM, family="synthesized-attention",
                        inputs=[("tokens", ("N", 128), "int64", 4000)]),
    "octave_resnet": dict(ctor=OctaveResNet, family="octave-convolution", inputs=_img(192)),
    "film_clevr": dict(ctor=FiLMNet, family="feature-wise-modulation",
                       inputs=[("image", ("N", 3, 128, 128), "float32", None),
                               ("question", ("N", 24), "int64", 90)]),
    "lambda_resnet": dict(ctor=LambdaResNet, family="lambda-layer", inputs=_img(128)),
    "hyena_lm": dict(ctor=HyenaLM, family="implicit-long-convolution",
                     inputs=[("tokens", ("N", 256), "int64", 4000)]),
    "pinet_resnet": dict(ctor=PiNetResNet, family="polynomial-network", inputs=_img(128)),
    "deformable_convnet": dict(ctor=DeformableConvNet, family="deformable-conv",
                               inputs=_img(128)),
    "conv_lista": dict(ctor=ConvLISTA, family="unrolled-sparse-coding",
                       inputs=_img(96, ch=1)),
    "monarch_encoder": dict(ctor=MonarchEncoder, family="structured-matrix",
                            inputs=[("tokens", ("N", 256), "int64", 8000)]),
}
