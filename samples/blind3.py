"""BLIND3: a third blind set, written on 2026-12-05 (sixth session) before
any change of that session; to be measured before any change and scored
with main as it stood at the session's start first (the held-out figure),
then again at the end, both reported (bench/zoo_accuracy.py --set blind3).
Its families are in no other set (ZOO, BLIND, BLIND2) and were in view of
no plan rule, feature, fit or calibration: diffusion U-Nets, normalizing
flows, mixtures of experts, capsule networks, time-series MLP stacks,
optical flow, vector quantization, dual encoders, gated MLPs, stacked
hourglasses, grouped multi-scale convolution and set models.  None of them
was run through onnxcost predict before being measured.

Same table form as export.py's ZOO (ctor, family, inputs, run); exported by
scripts/ort_graphs.py's export() (opset 13, symbolic batch N).
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def _attend(q, k, v, heads):
    """Multi-head scaled dot-product attention on (N, Lq, d), (N, Lk, d),
    (N, Lk, d) written with MatMul/Softmax (no fused op)."""
    d = q.shape[2]
    dh = d // heads
    lq, lk = q.shape[1], k.shape[1]
    q = q.reshape(-1, lq, heads, dh).transpose(1, 2)
    k = k.reshape(-1, lk, heads, dh).transpose(1, 2)
    v = v.reshape(-1, lk, heads, dh).transpose(1, 2)
    a = torch.softmax(torch.matmul(q, k.transpose(2, 3)) / math.sqrt(dh), dim=-1)
    return torch.matmul(a, v).transpose(1, 2).reshape(-1, lq, d)


class DiffusionUNet(nn.Module):
    """DDPM-style denoising U-Net: sinusoidal timestep embedding through a
    SiLU MLP, residual blocks of GroupNorm + SiLU + 3x3 Conv with the time
    embedding added per channel, strided-Conv down / nearest-upsample up
    with concatenated skips, one single-head self-attention block (GroupNorm,
    1x1 qkv) at the lowest resolution."""

    class Res(nn.Module):
        def __init__(self, cin, cout, tdim):
            super().__init__()
            self.n1 = nn.GroupNorm(8, cin)
            self.c1 = nn.Conv2d(cin, cout, 3, padding=1)
            self.t = nn.Linear(tdim, cout)
            self.n2 = nn.GroupNorm(8, cout)
            self.c2 = nn.Conv2d(cout, cout, 3, padding=1)
            self.skip = nn.Conv2d(cin, cout, 1) if cin != cout else nn.Identity()

        def forward(self, x, temb):
            h = self.c1(F.silu(self.n1(x)))
            h = h + self.t(temb)[:, :, None, None]
            h = self.c2(F.silu(self.n2(h)))
            return self.skip(x) + h

    class Attn(nn.Module):
        def __init__(self, c):
            super().__init__()
            self.n = nn.GroupNorm(8, c)
            self.qkv = nn.Conv2d(c, 3 * c, 1)
            self.o = nn.Conv2d(c, c, 1)

        def forward(self, x):
            c, h, w = x.shape[1], x.shape[2], x.shape[3]
            q, k, v = self.qkv(self.n(x)).reshape(-1, 3, c, h * w).unbind(1)
            a = torch.softmax(torch.matmul(q.transpose(1, 2), k) / math.sqrt(c), dim=-1)
            y = torch.matmul(v, a.transpose(1, 2)).reshape(-1, c, h, w)
            return x + self.o(y)

    def __init__(self, base=64, mults=(1, 2, 2), tdim=256):
        super().__init__()
        Res = DiffusionUNet.Res
        self.base = base
        half = base // 2
        self.register_buffer("freqs", torch.exp(-math.log(10000.0) * torch.arange(half) / half))
        self.tmlp = nn.Sequential(nn.Linear(base, tdim), nn.SiLU(), nn.Linear(tdim, tdim))
        self.inp = nn.Conv2d(3, base, 3, padding=1)
        chs = [base * m for m in mults]
        self.down = nn.ModuleList()
        self.pool = nn.ModuleList()
        skips = []
        c = base
        for i, ch in enumerate(chs):
            self.down.append(Res(c, ch, tdim))
            c = ch
            skips.append(c)
            self.pool.append(nn.Conv2d(c, c, 3, 2, 1) if i < len(chs) - 1 else nn.Identity())
        self.mid1 = Res(c, c, tdim)
        self.attn = DiffusionUNet.Attn(c)
        self.mid2 = Res(c, c, tdim)
        self.up = nn.ModuleList()
        for i, ch in reversed(list(enumerate(chs))):
            self.up.append(Res(c + skips[i], ch, tdim))
            c = ch
        self.out = nn.Sequential(nn.GroupNorm(8, c), nn.SiLU(), nn.Conv2d(c, 3, 3, padding=1))

    def forward(self, x, t):                       # (N, 3, 32, 32), (N,)
        a = t[:, None] * self.freqs[None, :]
        temb = self.tmlp(torch.cat([torch.sin(a), torch.cos(a)], dim=1))
        h = self.inp(x)
        hs = []
        n = len(self.down)
        for r, p in zip(self.down, self.pool):
            h = r(h, temb)
            hs.append(h)
            h = p(h)
        h = self.mid2(self.attn(self.mid1(h, temb)), temb)
        for j, r in enumerate(self.up):
            i = n - 1 - j
            if j > 0:
                h = F.interpolate(h, scale_factor=2, mode="nearest")
            h = r(torch.cat([h, hs[i]], dim=1), temb)
        return self.out(h)


class RealNVPFlow(nn.Module):
    """RealNVP/Glow-style normalizing flow (forward, density direction):
    ActNorm, invertible 1x1 Conv and affine coupling layers (checkerboard
    masks, then channel splits after a space-to-depth squeeze), scale =
    tanh(s) * a learned factor, exp(scale) * x + t; half the channels
    factored out after the second scale; returns z (flattened) and the
    log-determinant."""

    class Coupling(nn.Module):
        def __init__(self, c, hidden, mask=None):
            super().__init__()
            if mask is not None:
                self.register_buffer("mask", mask)
            else:
                self.mask = None
            cin = c if mask is not None else c // 2
            cout = 2 * (c if mask is not None else c - c // 2)
            self.net = nn.Sequential(
                nn.Conv2d(cin, hidden, 3, padding=1), nn.ReLU(),
                nn.Conv2d(hidden, hidden, 1), nn.ReLU(),
                nn.Conv2d(hidden, hidden, 3, padding=1), nn.ReLU(),
                nn.Conv2d(hidden, cout, 3, padding=1))
            self.scale = nn.Parameter(0.1 * torch.ones(1, cout // 2, 1, 1))
            self.an_b = nn.Parameter(0.01 * torch.randn(1, c, 1, 1))
            self.an_s = nn.Parameter(0.01 * torch.randn(1, c, 1, 1))
            w = torch.linalg.qr(torch.randn(c, c))[0]
            self.inv = nn.Conv2d(c, c, 1, bias=False)
            with torch.no_grad():
                self.inv.weight.copy_(w[:, :, None, None])
            self.register_buffer("inv_logdet", torch.slogdet(w)[1].reshape(1))

        def forward(self, x, logdet):
            hw = x.shape[2] * x.shape[3]
            x = (x + self.an_b) * torch.exp(self.an_s)
            x = self.inv(x)
            logdet = logdet + hw * (self.an_s.sum() + self.inv_logdet)
            if self.mask is not None:
                m = self.mask
                s, t = self.net(x * m).chunk(2, dim=1)
                s = torch.tanh(s) * self.scale * (1 - m)
                y = x * torch.exp(s) + t * (1 - m)
            else:
                x1, x2 = x.split([x.shape[1] // 2, x.shape[1] - x.shape[1] // 2], dim=1)
                s, t = self.net(x1).chunk(2, dim=1)
                s = torch.tanh(s) * self.scale
                y = torch.cat([x1, x2 * torch.exp(s) + t], dim=1)
            return y, logdet + s.flatten(1).sum(dim=1)

    @staticmethod
    def squeeze(x):
        c, h, w = x.shape[1], x.shape[2], x.shape[3]
        x = x.reshape(-1, c, h // 2, 2, w // 2, 2).permute(0, 1, 3, 5, 2, 4)
        return x.reshape(-1, c * 4, h // 2, w // 2)

    def __init__(self, size=32, hidden=64):
        super().__init__()
        C = RealNVPFlow.Coupling

        def board(c, s, parity):
            ij = torch.arange(s)[:, None] + torch.arange(s)[None, :]
            return ((ij + parity) % 2).float().expand(1, c, s, s).clone()

        self.s1 = nn.ModuleList(C(3, hidden, board(3, size, i % 2)) for i in range(3))
        self.s2 = nn.ModuleList(C(12, hidden) for _ in range(3))
        s = size // 4
        self.s3 = nn.ModuleList([C(24, hidden, board(24, s, i % 2)) for i in range(3)]
                                + [C(24, hidden)])

    def forward(self, x):                          # (N, 3, 32, 32)
        logdet = x.flatten(1)[:, 0] * 0
        for f in self.s1:
            x, logdet = f(x, logdet)
        x = self.squeeze(x)
        for f in self.s2:
            x, logdet = f(x, logdet)
        z1, x = x.chunk(2, dim=1)
        x = self.squeeze(x)
        for f in self.s3:
            x, logdet = f(x, logdet)
        return torch.cat([z1.flatten(1), x.flatten(1)], dim=1), logdet


class MoETransformer(nn.Module):
    """Transformer encoder whose feed-forward is a mixture of 8 experts,
    computed densely: a softmax router per token, top-2 gate kept by a TopK
    threshold (the other gates zeroed, the two renormalised), every expert
    applied to every token as a batched MatMul over stacked weights, the
    outputs weighted by the gates and summed; pre-norm, mean pool."""

    class Layer(nn.Module):
        def __init__(self, d, heads, experts, hidden, k):
            super().__init__()
            self.h, self.k = heads, k
            self.n1 = nn.LayerNorm(d)
            self.qkv = nn.Linear(d, 3 * d)
            self.o = nn.Linear(d, d)
            self.n2 = nn.LayerNorm(d)
            self.router = nn.Linear(d, experts)
            self.w1 = nn.Parameter(torch.randn(experts, d, hidden) / math.sqrt(d))
            self.b1 = nn.Parameter(torch.zeros(experts, 1, hidden))
            self.w2 = nn.Parameter(torch.randn(experts, hidden, d) / math.sqrt(hidden))
            self.b2 = nn.Parameter(torch.zeros(experts, 1, d))

        def forward(self, x):                      # (N, L, d)
            q, k, v = self.qkv(self.n1(x)).chunk(3, dim=-1)
            x = x + self.o(_attend(q, k, v, self.h))
            y = self.n2(x)
            g = torch.softmax(self.router(y), dim=-1)              # (N, L, E)
            thr = torch.topk(g, self.k, dim=-1)[0][..., -1:]
            g = torch.where(g >= thr, g, torch.zeros_like(g))
            g = g / g.sum(dim=-1, keepdim=True)
            h = F.gelu(torch.matmul(y.unsqueeze(1), self.w1) + self.b1)  # (N, E, L, H)
            e = torch.matmul(h, self.w2) + self.b2                 # (N, E, L, d)
            return x + (e * g.permute(0, 2, 1).unsqueeze(-1)).sum(dim=1)

    def __init__(self, vocab=8000, d=256, heads=4, depth=4, experts=8, hidden=512,
                 k=2, max_len=512, classes=10):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.pos = nn.Parameter(0.02 * torch.randn(1, max_len, d))
        self.layers = nn.ModuleList(MoETransformer.Layer(d, heads, experts, hidden, k)
                                    for _ in range(depth))
        self.norm = nn.LayerNorm(d)
        self.fc = nn.Linear(d, classes)

    def forward(self, tokens):                     # (N, L)
        x = self.emb(tokens) + self.pos[:, :tokens.shape[1]]
        for layer in self.layers:
            x = layer(x)
        return self.fc(self.norm(x).mean(dim=1))


class CapsuleNet(nn.Module):
    """CapsNet (Sabour et al.) on 28x28 images: 9x9 Conv, primary capsules
    (9x9 stride-2 Conv reshaped to 1152 8-D capsules, squashed), a
    per-capsule transform to 10 x 16-D predictions (one broadcast MatMul),
    three iterations of dynamic routing (softmax over classes, weighted sum,
    squash, agreement update), capsule lengths out."""

    def __init__(self, classes=10, routes=3):
        super().__init__()
        self.classes, self.routes = classes, routes
        self.conv = nn.Conv2d(1, 256, 9)
        self.prim = nn.Conv2d(256, 32 * 8, 9, stride=2)
        self.W = nn.Parameter(0.05 * torch.randn(32 * 6 * 6, classes * 16, 8))

    @staticmethod
    def squash(s, dim=-1):
        n2 = (s * s).sum(dim=dim, keepdim=True)
        return s * (n2 / (1 + n2) / torch.sqrt(n2 + 1e-8))

    def forward(self, x):                          # (N, 1, 28, 28)
        u = self.prim(F.relu(self.conv(x)))        # (N, 256, 6, 6)
        u = u.reshape(-1, 32, 8, 36).permute(0, 1, 3, 2).reshape(-1, 1152, 8)
        u = self.squash(u)
        uh = torch.matmul(self.W, u.unsqueeze(-1)).reshape(-1, 1152, self.classes, 16)
        b = uh[..., 0] * 0                          # (N, 1152, classes) logits
        for i in range(self.routes):
            c = torch.softmax(b, dim=2)
            v = self.squash((c.unsqueeze(-1) * uh).sum(dim=1))     # (N, classes, 16)
            if i < self.routes - 1:
                b = b + (uh * v.unsqueeze(1)).sum(dim=-1)
        return torch.sqrt((v * v).sum(dim=-1) + 1e-8)


class NBeatsLike(nn.Module):
    """N-BEATS for a batch of series (one forecast per series, weights
    shared): doubly residual stacks of fully connected blocks, each block
    4 ReLU Linear layers then backcast/forecast through a basis -- a trend
    stack (polynomial basis), a seasonality stack (Fourier basis), both as
    fixed MatMuls, and a generic stack (learned Linear basis)."""

    class Block(nn.Module):
        def __init__(self, back, fore, width, theta, basis_b=None, basis_f=None):
            super().__init__()
            self.fc = nn.Sequential(nn.Linear(back, width), nn.ReLU(),
                                    nn.Linear(width, width), nn.ReLU(),
                                    nn.Linear(width, width), nn.ReLU(),
                                    nn.Linear(width, width), nn.ReLU())
            if basis_b is None:
                self.tb = nn.Linear(width, theta)
                self.tf = nn.Linear(width, theta)
                self.gb = nn.Linear(theta, back)
                self.gf = nn.Linear(theta, fore)
                self.fixed = False
            else:
                self.tb = nn.Linear(width, basis_b.shape[0], bias=False)
                self.tf = nn.Linear(width, basis_f.shape[0], bias=False)
                self.register_buffer("bb", basis_b)
                self.register_buffer("bf", basis_f)
                self.fixed = True

        def forward(self, x):
            h = self.fc(x)
            if self.fixed:
                return torch.matmul(self.tb(h), self.bb), torch.matmul(self.tf(h), self.bf)
            return self.gb(self.tb(h)), self.gf(self.tf(h))

    def __init__(self, back=336, fore=48, width=512, blocks=3, degree=3, harmonics=16):
        super().__init__()
        B = NBeatsLike.Block
        tb = torch.arange(back).float() / back
        tf = torch.arange(fore).float() / fore
        poly_b = torch.stack([tb ** i for i in range(degree + 1)])
        poly_f = torch.stack([tf ** i for i in range(degree + 1)])
        k = torch.arange(1, harmonics + 1).float()[:, None] * 2 * math.pi
        four_b = torch.cat([torch.cos(k * tb), torch.sin(k * tb)])
        four_f = torch.cat([torch.cos(k * tf), torch.sin(k * tf)])
        self.blocks = nn.ModuleList(
            [B(back, fore, width, 0, poly_b, poly_f) for _ in range(blocks)]
            + [B(back, fore, width, 0, four_b, four_f) for _ in range(blocks)]
            + [B(back, fore, width, 32) for _ in range(blocks)])

    def forward(self, x):                          # (N, S, back)
        f = 0
        for b in self.blocks:
            bc, fc = b(x)
            x = x - bc
            f = f + fc
        return f


class FlowNetLite(nn.Module):
    """Optical flow in the RAFT / global-matching manner: a shared residual
    feature encoder run once on both frames (concatenated on the batch),
    an all-pairs correlation volume at 1/4 resolution (one MatMul of the
    two feature maps), a soft-argmax initial flow from it, 4x4 average-pooled
    correlation rows as per-pixel features, a context encoder, three
    unrolled ConvGRU refinement steps, bilinear x4 upsampling."""

    class Res(nn.Module):
        def __init__(self, cin, cout, stride):
            super().__init__()
            self.f = nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1), nn.InstanceNorm2d(cout),
                                   nn.ReLU(), nn.Conv2d(cout, cout, 3, 1, 1),
                                   nn.InstanceNorm2d(cout))
            self.s = nn.Conv2d(cin, cout, 1, stride) if (stride > 1 or cin != cout) \
                else nn.Identity()

        def forward(self, x):
            return F.relu(self.s(x) + self.f(x))

    def __init__(self, h=96, w=128, feat=128, hid=48, pool=4, iters=3):
        super().__init__()
        R = FlowNetLite.Res

        def enc(cout):
            return nn.Sequential(nn.Conv2d(3, 32, 7, 2, 3), nn.ReLU(), R(32, 32, 1),
                                 R(32, 64, 2), R(64, 64, 1), nn.Conv2d(64, cout, 1))

        self.fnet = enc(feat)
        self.cnet = enc(2 * hid)
        self.hid, self.iters, self.pool = hid, iters, pool
        H, W = h // 4, w // 4
        ys, xs = torch.meshgrid(torch.arange(H).float(), torch.arange(W).float(), indexing="ij")
        self.register_buffer("coords", torch.stack([xs, ys], dim=-1).reshape(1, H * W, 2))
        cc = (H // pool) * (W // pool)
        self.cenc = nn.Sequential(nn.Conv2d(cc, 64, 1), nn.ReLU(), nn.Conv2d(64, 48, 3, 1, 1),
                                  nn.ReLU())
        self.fenc = nn.Sequential(nn.Conv2d(2, 32, 7, 1, 3), nn.ReLU(), nn.Conv2d(32, 16, 3, 1, 1),
                                  nn.ReLU())
        xin = 48 + 16 + hid
        self.zr = nn.Conv2d(hid + xin, 2 * hid, 3, 1, 1)
        self.q = nn.Conv2d(hid + xin, hid, 3, 1, 1)
        self.head = nn.Sequential(nn.Conv2d(hid, 64, 3, 1, 1), nn.ReLU(), nn.Conv2d(64, 2, 3, 1, 1))

    def forward(self, img1, img2):                 # (N, 3, H, W) x 2
        n = img1.shape[0]
        f = self.fnet(torch.cat([img1, img2], dim=0))
        f1, f2 = f[:n], f[n:]
        c, H, W = f1.shape[1], f1.shape[2], f1.shape[3]
        f1 = f1.flatten(2).transpose(1, 2)                         # (N, HW, C)
        corr = torch.matmul(f1, f2.flatten(2)) / math.sqrt(c)      # (N, HW, HW)
        flow = torch.matmul(torch.softmax(corr, dim=-1), self.coords) - self.coords
        flow = flow.transpose(1, 2).reshape(-1, 2, H, W)
        p = self.pool
        cc = (H // p) * (W // p)
        cf = F.avg_pool2d(corr.reshape(-1, 1, H, W), p)               # (N HW, 1, H/p, W/p)
        cf = self.cenc(cf.reshape(-1, H * W, cc).transpose(1, 2).reshape(-1, cc, H, W))
        hc, ctx = self.cnet(img1).split([self.hid, self.hid], dim=1)
        hc, ctx = torch.tanh(hc), F.relu(ctx)
        for _ in range(self.iters):
            x = torch.cat([cf, self.fenc(flow), ctx], dim=1)
            z, r = torch.sigmoid(self.zr(torch.cat([hc, x], dim=1))).chunk(2, dim=1)
            q = torch.tanh(self.q(torch.cat([r * hc, x], dim=1)))
            hc = (1 - z) * hc + z * q
            flow = flow + self.head(hc)
        return 4 * F.interpolate(flow, scale_factor=4, mode="bilinear", align_corners=False)


class VQVAELike(nn.Module):
    """VQ-VAE: strided Conv encoder with residual blocks to a 64-D latent
    grid, nearest-codebook quantisation (squared distances by MatMul,
    ArgMin, embedding Gather), residual decoder with transposed Convs."""

    class Res(nn.Module):
        def __init__(self, c, h):
            super().__init__()
            self.f = nn.Sequential(nn.ReLU(), nn.Conv2d(c, h, 3, 1, 1), nn.ReLU(),
                                   nn.Conv2d(h, c, 1))

        def forward(self, x):
            return x + self.f(x)

    def __init__(self, ch=128, dim=64, codes=512):
        super().__init__()
        R = VQVAELike.Res
        self.enc = nn.Sequential(nn.Conv2d(3, ch // 2, 4, 2, 1), nn.ReLU(),
                                 nn.Conv2d(ch // 2, ch, 4, 2, 1), nn.ReLU(),
                                 nn.Conv2d(ch, ch, 3, 1, 1), R(ch, 32), R(ch, 32), nn.ReLU(),
                                 nn.Conv2d(ch, dim, 1))
        self.codebook = nn.Embedding(codes, dim)
        self.dec = nn.Sequential(nn.Conv2d(dim, ch, 3, 1, 1), R(ch, 32), R(ch, 32), nn.ReLU(),
                                 nn.ConvTranspose2d(ch, ch // 2, 4, 2, 1), nn.ReLU(),
                                 nn.ConvTranspose2d(ch // 2, 3, 4, 2, 1))

    def forward(self, x):                          # (N, 3, 128, 128)
        z = self.enc(x)
        d, h, w = z.shape[1], z.shape[2], z.shape[3]
        zf = z.permute(0, 2, 3, 1).reshape(-1, h * w, d)
        e = self.codebook.weight
        dist = (zf * zf).sum(-1, keepdim=True) - 2 * torch.matmul(zf, e.t()) \
            + (e * e).sum(-1)[None, None, :]
        idx = torch.argmin(dist, dim=-1)                            # (N, HW)
        q = self.codebook(idx).reshape(-1, h, w, d).permute(0, 3, 1, 2)
        return self.dec(q)


class DualEncoder(nn.Module):
    """Siamese (weight-shared) text dual encoder for retrieval: the same
    pre-norm transformer tower embeds a short query and a longer passage,
    mean pooling, a projection, L2 normalisation, and the per-pair cosine
    score."""

    class Layer(nn.Module):
        def __init__(self, d, heads):
            super().__init__()
            self.h = heads
            self.n1 = nn.LayerNorm(d)
            self.qkv = nn.Linear(d, 3 * d)
            self.o = nn.Linear(d, d)
            self.n2 = nn.LayerNorm(d)
            self.ff = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

        def forward(self, x):
            q, k, v = self.qkv(self.n1(x)).chunk(3, dim=-1)
            x = x + self.o(_attend(q, k, v, self.h))
            return x + self.ff(self.n2(x))

    def __init__(self, vocab=30000, d=256, heads=4, depth=3, proj=128, max_len=512):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.pos = nn.Parameter(0.02 * torch.randn(1, max_len, d))
        self.layers = nn.ModuleList(DualEncoder.Layer(d, heads) for _ in range(depth))
        self.norm = nn.LayerNorm(d)
        self.proj = nn.Linear(d, proj)

    def tower(self, tokens):
        x = self.emb(tokens) + self.pos[:, :tokens.shape[1]]
        for layer in self.layers:
            x = layer(x)
        return F.normalize(self.proj(self.norm(x).mean(dim=1)), dim=-1)

    def forward(self, query, passage):             # (N, 32), (N, 160)
        return (self.tower(query) * self.tower(passage)).sum(dim=-1)


class GMLPLike(nn.Module):
    """gMLP (Liu et al.) for token classification: no attention; each block
    is LayerNorm, channel Linear up + GELU, a spatial gating unit (half the
    channels LayerNorm'd and mixed across the sequence by a Linear over
    token positions, multiplied into the other half), channel Linear
    down, residual."""

    class Block(nn.Module):
        def __init__(self, d, ff, seq):
            super().__init__()
            self.n = nn.LayerNorm(d)
            self.up = nn.Linear(d, ff)
            self.sn = nn.LayerNorm(ff // 2)
            self.sp = nn.Linear(seq, seq)
            nn.init.zeros_(self.sp.weight)
            nn.init.ones_(self.sp.bias)
            self.down = nn.Linear(ff // 2, d)

        def forward(self, x):                      # (N, L, d)
            u, v = F.gelu(self.up(self.n(x))).chunk(2, dim=-1)
            v = self.sp(self.sn(v).transpose(1, 2)).transpose(1, 2)
            return x + self.down(u * v)

    def __init__(self, vocab=16000, d=256, ff=1024, seq=128, depth=6, classes=9):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.blocks = nn.ModuleList(GMLPLike.Block(d, ff, seq) for _ in range(depth))
        self.norm = nn.LayerNorm(d)
        self.fc = nn.Linear(d, classes)

    def forward(self, tokens):                     # (N, 128)
        x = self.emb(tokens)
        for b in self.blocks:
            x = b(x)
        return self.fc(self.norm(x))


class StackedHourglass(nn.Module):
    """Stacked hourglass pose net (Newell et al.): a stride-4 stem of
    bottleneck residuals, two hourglasses (recursive max-pool down /
    nearest-upsample up, a residual skip branch at every level, depth 3),
    an intermediate heat-map head after each whose output and features are
    remapped by 1x1 Convs and added back."""

    class Bottle(nn.Module):
        def __init__(self, cin, cout):
            super().__init__()
            h = cout // 2
            self.f = nn.Sequential(nn.BatchNorm2d(cin), nn.ReLU(), nn.Conv2d(cin, h, 1),
                                   nn.BatchNorm2d(h), nn.ReLU(), nn.Conv2d(h, h, 3, 1, 1),
                                   nn.BatchNorm2d(h), nn.ReLU(), nn.Conv2d(h, cout, 1))
            self.s = nn.Conv2d(cin, cout, 1) if cin != cout else nn.Identity()

        def forward(self, x):
            return self.s(x) + self.f(x)

    class Hourglass(nn.Module):
        def __init__(self, depth, c):
            super().__init__()
            B = StackedHourglass.Bottle
            self.skip = B(c, c)
            self.low1 = B(c, c)
            self.inner = StackedHourglass.Hourglass(depth - 1, c) if depth > 1 else B(c, c)
            self.low3 = B(c, c)

        def forward(self, x):
            y = self.low3(self.inner(self.low1(F.max_pool2d(x, 2))))
            return self.skip(x) + F.interpolate(y, scale_factor=2, mode="nearest")

    def __init__(self, c=128, stacks=2, depth=3, joints=16):
        super().__init__()
        B = StackedHourglass.Bottle
        self.stem = nn.Sequential(nn.Conv2d(3, 64, 7, 2, 3), nn.BatchNorm2d(64), nn.ReLU(),
                                  B(64, 128), nn.MaxPool2d(2), B(128, 128), B(128, c))
        self.hgs = nn.ModuleList(StackedHourglass.Hourglass(depth, c) for _ in range(stacks))
        self.feat = nn.ModuleList(nn.Sequential(B(c, c), nn.Conv2d(c, c, 1), nn.BatchNorm2d(c),
                                                nn.ReLU()) for _ in range(stacks))
        self.heads = nn.ModuleList(nn.Conv2d(c, joints, 1) for _ in range(stacks))
        self.remap_f = nn.ModuleList(nn.Conv2d(c, c, 1) for _ in range(stacks - 1))
        self.remap_h = nn.ModuleList(nn.Conv2d(joints, c, 1) for _ in range(stacks - 1))

    def forward(self, x):                          # (N, 3, 128, 128)
        x = self.stem(x)
        for i, (hg, ft, hd) in enumerate(zip(self.hgs, self.feat, self.heads)):
            y = ft(hg(x))
            heat = hd(y)
            if i < len(self.hgs) - 1:
                x = x + self.remap_f[i](y) + self.remap_h[i](heat)
        return heat


class Res2NetLike(nn.Module):
    """Res2Net-style classifier: bottlenecks whose 3x3 stage is split into
    4 channel groups processed hierarchically (each group's grouped 3x3 Conv
    sees the previous group's output added in), concatenated back;
    squeeze-free, BatchNorm, strided first block per stage with average
    pooling of the untouched split."""

    class Block(nn.Module):
        def __init__(self, cin, cout, stride, width, scale=4, groups=2):
            super().__init__()
            self.s, self.w, self.stride = scale, width, stride
            self.c1 = nn.Sequential(nn.Conv2d(cin, width * scale, 1, bias=False),
                                    nn.BatchNorm2d(width * scale), nn.ReLU())
            self.convs = nn.ModuleList(nn.Sequential(
                nn.Conv2d(width, width, 3, stride, 1, groups=groups, bias=False),
                nn.BatchNorm2d(width), nn.ReLU()) for _ in range(scale - 1))
            self.c3 = nn.Sequential(nn.Conv2d(width * scale, cout, 1, bias=False),
                                    nn.BatchNorm2d(cout))
            self.short = nn.Sequential(nn.AvgPool2d(stride) if stride > 1 else nn.Identity(),
                                       nn.Conv2d(cin, cout, 1, bias=False),
                                       nn.BatchNorm2d(cout)) \
                if (stride > 1 or cin != cout) else nn.Identity()

        def forward(self, x):
            xs = self.c1(x).split(self.w, dim=1)
            ys = []
            y = None
            for i, conv in enumerate(self.convs):
                y = conv(xs[i] if (y is None or self.stride > 1) else xs[i] + y)
                ys.append(y)
            last = xs[-1]
            if self.stride > 1:
                last = F.avg_pool2d(last, 3, self.stride, 1)
            return F.relu(self.short(x) + self.c3(torch.cat(ys + [last], dim=1)))

    def __init__(self, layers=(2, 2, 2, 2), base=26, classes=1000):
        super().__init__()
        B = Res2NetLike.Block
        self.stem = nn.Sequential(nn.Conv2d(3, 32, 3, 2, 1, bias=False), nn.BatchNorm2d(32),
                                  nn.ReLU(), nn.Conv2d(32, 64, 3, 1, 1, bias=False),
                                  nn.BatchNorm2d(64), nn.ReLU(), nn.MaxPool2d(3, 2, 1))
        blocks = []
        cin = 64
        for s, n in enumerate(layers):
            cout = 256 * 2 ** s
            for i in range(n):
                blocks.append(B(cin, cout, 2 if (i == 0 and s > 0) else 1, base * 2 ** s))
                cin = cout
        self.blocks = nn.Sequential(*blocks)
        self.fc = nn.Linear(cin, classes)

    def forward(self, x):
        return self.fc(self.blocks(self.stem(x)).mean((2, 3)))


class SetTransformer(nn.Module):
    """Set Transformer (Lee et al.): a permutation-invariant encoder of two
    induced set attention blocks (attention from 32 learned inducing points
    to the set, then from the set to them), pooling by multi-head attention
    onto 4 learned seeds, a self-attention block over the seeds, Linear."""

    class MAB(nn.Module):
        def __init__(self, d, heads):
            super().__init__()
            self.h = heads
            self.q = nn.Linear(d, d)
            self.kv = nn.Linear(d, 2 * d)
            self.n1 = nn.LayerNorm(d)
            self.ff = nn.Sequential(nn.Linear(d, d), nn.ReLU(), nn.Linear(d, d))
            self.n2 = nn.LayerNorm(d)

        def forward(self, x, y):
            q = self.q(x)
            k, v = self.kv(y).chunk(2, dim=-1)
            h = self.n1(q + _attend(q, k, v, self.h))
            return self.n2(h + self.ff(h))

    class ISAB(nn.Module):
        def __init__(self, d, heads, m):
            super().__init__()
            self.i = nn.Parameter(0.1 * torch.randn(1, m, d))
            self.a = SetTransformer.MAB(d, heads)
            self.b = SetTransformer.MAB(d, heads)

        def forward(self, x):
            ind = self.i.expand(x.shape[0], -1, -1)
            return self.b(x, self.a(ind, x))

    def __init__(self, feats=8, d=128, heads=4, m=32, seeds=4, classes=40):
        super().__init__()
        self.inp = nn.Linear(feats, d)
        self.enc = nn.ModuleList([SetTransformer.ISAB(d, heads, m),
                                  SetTransformer.ISAB(d, heads, m)])
        self.seeds = nn.Parameter(0.1 * torch.randn(1, seeds, d))
        self.pma = SetTransformer.MAB(d, heads)
        self.sab = SetTransformer.MAB(d, heads)
        self.fc = nn.Linear(seeds * d, classes)

    def forward(self, x):                          # (N, 1024, 8)
        x = self.inp(x)
        for e in self.enc:
            x = e(x)
        s = self.pma(self.seeds.expand(x.shape[0], -1, -1), x)
        s = self.sab(s, s)
        return self.fc(s.flatten(1))


def _img(size, ch=3):
    return [("input", ("N", ch, size, size), "float32", None)]


BLIND3 = {
    "diffusion_unet": dict(ctor=DiffusionUNet, family="diffusion-unet",
                           inputs=[("x", ("N", 3, 32, 32), "float32", None),
                                   ("t", ("N",), "float32", None)]),
    "realnvp_flow": dict(ctor=RealNVPFlow, family="normalizing-flow", inputs=_img(32)),
    "moe_transformer": dict(ctor=MoETransformer, family="mixture-of-experts",
                            inputs=[("tokens", ("N", 64), "int64", 8000)]),
    "capsule_net": dict(ctor=CapsuleNet, family="capsule", inputs=_img(28, 1)),
    "nbeats_like": dict(ctor=NBeatsLike, family="time-series-mlp",
                        inputs=[("history", ("N", 16, 336), "float32", None)]),
    "flownet_lite": dict(ctor=FlowNetLite, family="optical-flow",
                         inputs=[("frame1", ("N", 3, 96, 128), "float32", None),
                                 ("frame2", ("N", 3, 96, 128), "float32", None)]),
    "vqvae_like": dict(ctor=VQVAELike, family="vector-quantized", inputs=_img(128)),
    "dual_encoder": dict(ctor=DualEncoder, family="dual-encoder",
                         inputs=[("query", ("N", 32), "int64", 30000),
                                 ("passage", ("N", 160), "int64", 30000)]),
    "gmlp_like": dict(ctor=GMLPLike, family="gated-mlp",
                      inputs=[("tokens", ("N", 128), "int64", 16000)]),
    "stacked_hourglass": dict(ctor=StackedHourglass, family="hourglass", inputs=_img(128)),
    "res2net_like": dict(ctor=Res2NetLike, family="grouped-multiscale", inputs=_img(160)),
    "set_transformer": dict(ctor=SetTransformer, family="set-model",
                            inputs=[("elements", ("N", 1024, 8), "float32", None)]),
}
