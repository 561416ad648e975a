r"""BLIND25: the twenty-fifth blind set, written on 2026-12-06 by a helper
session before any of it was measured.  Nothing in it has been timed,
profiled or run through onnxcost predict; it is to be measured first and
scored once only, at the end, with the code as it stands then
(bench/zoo_accuracy.py --set blind25).  None of its twelve families occurs
in another set (ZOO, BLIND, BLIND2 ... BLIND24, the reference models), so
no plan rule, feature, fit or calibration can have been made with any of
them in view.

Six families unroll a classical numerical procedure or simulation into a
fixed graph of small kernels at batch 1 (tensors of a few thousand elements
or fewer, some hundreds of nodes), each with a small learned part:

  * Goertzel's algorithm (Goertzel, "An Algorithm for the Evaluation of
    Finite Trigonometric Series", 1958): a second-order resonator
    recurrence per probed frequency, run sample by sample over a windowed
    96-sample signal, 8 learned channel mixes times 16 learned
    frequencies, the power read out at the end and fed to an MLP.
  * The Godunov upwind scheme for the eikonal equation |grad u| = f
    (Rouy & Tourin, "A Viscosity Solutions Approach to Shape-From-Shading",
    1992; the local solver of Zhao's fast sweeping method, 2005), iterated
    Jacobi-style on a 24 x 24 grid: slowness map and source placed by a
    learned layer, 28 sweeps of min-of-neighbours updates (MaxPool of the
    negated field) with the quadratic two-sided solve chosen by Where.
  * The Abelian sandpile (Bak, Tang & Wiesenfeld, "Self-Organized
    Criticality", 1987): a 20 x 20 height field from an MLP plus a learned
    grain drop, 40 parallel toppling rounds (Floor of the height over 4,
    redistribution by a fixed cross-shaped Conv, grains lost at the edge),
    the toppling count accumulated and read by a small Conv head.
  * Chambolle's dual projection algorithm for total-variation denoising
    (Chambolle, "An Algorithm for Total Variation Minimization and
    Applications", 2004): a 1x1 Conv makes two 32 x 32 channels, an MLP
    the regularisation weight; 20 semi-implicit projection steps on the
    dual field with forward-difference gradients and the adjoint
    divergence as MatMuls with a constant difference matrix.
  * The inside algorithm for probabilistic context-free grammars (Baker,
    "Trainable grammars for speech recognition", 1979; Lari & Young,
    1990) over a CKY chart: 8 tokens, 6 nonterminals, terminal scores from
    a Linear layer and a Softmax-normalised binary rule tensor, every span
    summed over its split points, then an MLP over the chart.
  * Whitted ray tracing (Whitted, "An Improved Illumination Model for
    Shaded Display", 1980): an MLP places four coloured, partly mirrored
    spheres; 256 primary rays from a pinhole camera, three bounces of
    ray-sphere intersection, nearest-hit selection, shadow rays to a
    directional light, Lambert shading and mirror reflection, then a tiny
    Conv head on the 16 x 16 image.

The other six are published network designs of ordinary sizes:

  * ECA-Net (Wang, Wu, Zhu, Li, Zuo & Hu, "ECA-Net: Efficient Channel
    Attention for Deep Convolutional Neural Networks", 2020): a narrow
    ResNet-50-style bottleneck network whose every block is gated by a
    1-D Conv across the pooled channel descriptor (kernel size chosen from
    the channel count); 224 x 224 images.
  * Network in Network (Lin, Chen & Yan, "Network In Network", 2014): the
    CIFAR model of three mlpconv blocks (a spatial Conv followed by two
    1x1 Convs) with max and average pooling and a global-average-pooled
    10-way output; 32 x 32 images.
  * Tokens-to-Token ViT (Yuan, Chen, Wang, Yu, Shi, Jiang, Tay, Feng &
    Yan, "Tokens-to-Token ViT: Training Vision Transformers from Scratch
    on ImageNet", 2021): three overlapping soft splits (Unfold) with a
    single-head token transformer between them, re-structurisation to an
    image, then a narrow ViT backbone; 224 x 224 images.
  * ConViT (d'Ascoli, Touvron, Leavitt, Morcos, Biroli & Sagun, "ConViT:
    Improving Vision Transformers with Soft Convolutional Inductive
    Biases", 2021): gated positional self-attention layers that blend
    content attention with attention from relative patch offsets by a
    learned per-head sigmoid gate, the class token joined only before the
    last plain self-attention layers; 224 x 224 images.
  * Sequencer (Tatsunami & Taki, "Sequencer: Deep LSTM for Image
    Classification", 2022): BiLSTM2D blocks, a bidirectional LSTM down
    every column and another along every row, concatenated and fused by a
    Linear layer, in two stages of patch embedding; 224 x 224 images.
  * LSTNet (Lai, Chang, Yang & Liu, "Modeling Long- and Short-Term
    Temporal Patterns with Deep Neural Networks", 2018): a Conv over time
    and series, a GRU over the whole window, a recurrent-skip GRU over
    period-strided steps and a linear autoregressive highway; 168 time
    steps of 16 series.

To be measured with

    OMP_WAIT_POLICY=PASSIVE /usr/bin/python3 scripts/measure_zoo.py --set blind25 \
        goertzel_bank eikonal_upwind sandpile_topple chambolle_tv \
        cky_inside whitted_raytrace eca_resnet nin_cifar t2t_vit \
        convit_lite sequencer2d lstnet_forecast \
        --threads 1 2 --batches 1 4 16

Same table form as export.py's ZOO (ctor, family, inputs); exported by
scripts/ort_graphs.py's export() (opset 13, symbolic batch N).  The file was
written by a helper before anything measured or predicted it.
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def _two_layer(cin, hidden, cout):
    """Linear, GELU, Linear."""
    return nn.Sequential(nn.Linear(cin, hidden), nn.GELU(), nn.Linear(hidden, cout))


def _cbr(cin, cout, k=3, stride=1, act=True):
    """Conv2d without bias ('same' padding for odd k), BatchNorm, ReLU."""
    mods = [nn.Conv2d(cin, cout, k, stride, k // 2, bias=False), nn.BatchNorm2d(cout)]
    if act:
        mods.append(nn.ReLU())
    return nn.Sequential(*mods)


class _SmallHead(nn.Module):
    """Two stride-2 Convs, global mean, Linear: reads a small map."""

    def __init__(self, cin, cout, width=12):
        super().__init__()
        self.c1 = nn.Conv2d(cin, width, 3, 2, 1)
        self.c2 = nn.Conv2d(width, 2 * width, 3, 2, 1)
        self.fc = nn.Linear(2 * width, cout)

    def forward(self, x):
        y = F.relu(self.c2(F.relu(self.c1(x))))
        return self.fc(y.mean((2, 3)))


# --------------------------------------------------------------------------
# Unrolled numerical procedures: small kernels at batch 1
# --------------------------------------------------------------------------

class GoertzelBank(nn.Module):
    """Goertzel resonators over a 96-sample, 4-channel signal: a 1x1 Conv1d
    mixes to 8 channels, a Hann window is applied, and for 16 learned
    frequencies w_k (pi Sigmoid of a parameter) the recurrence s_n = x_n +
    2 cos(w_k) s_{n-1} - s_{n-2} runs over every sample; the power s1^2 +
    s2^2 - 2 cos(w_k) s1 s2 is log-compressed and read by an MLP."""

    def __init__(self, chans=4, mixes=8, freqs=16, length=96):
        super().__init__()
        self.length = length
        self.mix = nn.Conv1d(chans, mixes, 1)
        self.freq = nn.Parameter(torch.linspace(-3.0, 3.0, freqs))
        n = torch.arange(length, dtype=torch.float32)
        self.register_buffer("window", 0.5 - 0.5 * torch.cos(2.0 * math.pi * n / (length - 1)))
        self.head = _two_layer(mixes * freqs, 64, 6)

    def forward(self, signal):                    # (N, 4, 96)
        x = self.mix(signal) * self.window                                  # (N, 8, T)
        coeff = 2.0 * torch.cos(math.pi * torch.sigmoid(self.freq))         # (K,)
        s1 = x[:, :, 0:1] + 0.0 * coeff
        s2 = torch.zeros_like(s1)
        for n in range(1, self.length):
            s = x[:, :, n:n + 1] + coeff * s1 - s2
            s2 = s1
            s1 = s
        power = s1 * s1 + s2 * s2 - coeff * s1 * s2
        feat = torch.log(power.abs() + 1e-3)
        return feat, self.head(feat.flatten(1))


class EikonalUpwind(nn.Module):
    """Travel times on a 24 x 24 grid by the Godunov upwind update: a Linear
    layer gives a 6 x 6 log-speed map, resized bilinearly to the grid
    (slowness f = 1 / (0.3 + Softplus)); an MLP places the source, whose
    neighbouring cells start at their straight-line time, all others at a
    large value.  Each of 28 Jacobi sweeps takes a = min over the 1 x 3
    row window, b = min over the 3 x 1 column window (MaxPool of -u; the
    centre taken in leaves the final min unchanged), u_new = min(a, b) + h f
    where |a - b| >= h f and (a + b + sqrt(2 h^2 f^2 - (a - b)^2)) / 2
    elsewhere, u <- min(u, u_new).  A small Conv head reads the field."""

    def __init__(self, feats=10, grid=24, sweeps=28):
        super().__init__()
        self.grid, self.sweeps = grid, sweeps
        self.h = 1.0 / (grid - 1)
        self.big = 1.0e3
        self.speed = nn.Linear(feats, 36)
        self.source = _two_layer(feats, 32, 2)
        lin = torch.linspace(0.0, 1.0, grid)
        gy, gx = torch.meshgrid(lin, lin, indexing="ij")
        self.register_buffer("gx", gx.reshape(1, 1, grid, grid))
        self.register_buffer("gy", gy.reshape(1, 1, grid, grid))
        self.head = _SmallHead(2, 4)

    def forward(self, scene):                     # (N, 10)
        g = self.grid
        sp = self.speed(scene).view(-1, 1, 6, 6)
        sp = F.interpolate(sp, size=(g, g), mode="bilinear", align_corners=False)
        f = 1.0 / (0.3 + F.softplus(sp))
        src = torch.sigmoid(self.source(scene)).view(-1, 2, 1, 1)
        d = torch.sqrt((self.gx - src[:, 0:1]) ** 2 + (self.gy - src[:, 1:2]) ** 2 + 1e-12)
        bigt = torch.full_like(d, self.big)
        u = torch.where(d < 2.0 * self.h, d * f, bigt)
        hf = self.h * f
        hf2 = 2.0 * hf * hf
        for _ in range(self.sweeps):
            neg = -u
            a = -F.max_pool2d(neg, (1, 3), 1, (0, 1))
            b = -F.max_pool2d(neg, (3, 1), 1, (1, 0))
            diff = a - b
            one = torch.minimum(a, b) + hf
            two = 0.5 * (a + b + torch.sqrt(torch.clamp(hf2 - diff * diff, min=0.0)))
            u = torch.minimum(u, torch.where(diff.abs() >= hf, one, two))
        field = torch.cat([torch.clamp(u, max=5.0), f], 1)
        return u, self.head(field)


class SandpileTopple(nn.Module):
    """Abelian sandpile on a 20 x 20 grid: an MLP gives the background
    heights (3 Sigmoid) and a grain drop (a Gaussian of learned height,
    place and spread).  Each of 40 rounds topples t = Floor(z / 4) at every
    cell at once: z <- z - 4 t + Conv(t, cross kernel, zero padding), so
    grains reaching the edge are lost; the toppling count accumulates.
    Returns the final heights, the mass lost and a Conv head's readout."""

    def __init__(self, feats=12, grid=20, rounds=40):
        super().__init__()
        self.grid, self.rounds = grid, rounds
        self.base = nn.Linear(feats, grid * grid)
        self.drop = _two_layer(feats, 32, 4)
        lin = torch.linspace(0.0, 1.0, grid)
        gy, gx = torch.meshgrid(lin, lin, indexing="ij")
        self.register_buffer("gx", gx.reshape(1, 1, grid, grid))
        self.register_buffer("gy", gy.reshape(1, 1, grid, grid))
        cross = torch.tensor([[0.0, 1.0, 0.0], [1.0, 0.0, 1.0], [0.0, 1.0, 0.0]])
        self.register_buffer("cross", cross.view(1, 1, 3, 3))
        self.head = _SmallHead(2, 5)

    def forward(self, scene):                     # (N, 12)
        g = self.grid
        z = 3.0 * torch.sigmoid(self.base(scene)).view(-1, 1, g, g)
        p = self.drop(scene)
        amp = (24.0 + 24.0 * torch.sigmoid(p[:, 0])).view(-1, 1, 1, 1)
        cx = torch.sigmoid(p[:, 1]).view(-1, 1, 1, 1)
        cy = torch.sigmoid(p[:, 2]).view(-1, 1, 1, 1)
        w = (0.01 + 0.05 * torch.sigmoid(p[:, 3])).view(-1, 1, 1, 1)
        z = z + amp * torch.exp(-((self.gx - cx) ** 2 + (self.gy - cy) ** 2) / w)
        mass0 = z.sum((1, 2, 3))
        count = torch.zeros_like(z)
        for _ in range(self.rounds):
            t = torch.floor(z * 0.25)
            z = z - 4.0 * t + F.conv2d(t, self.cross, padding=1)
            count = count + t
        lost = mass0 - z.sum((1, 2, 3))
        maps = torch.cat([z * 0.25, torch.log1p(count)], 1)
        return z, lost, self.head(maps)


class ChambolleTV(nn.Module):
    """Total-variation denoising by Chambolle's projection: a 1x1 Conv maps
    the 3-channel 32 x 32 image to 2 channels g, an MLP of channel
    statistics gives lambda (Softplus).  With p = 0, 20 steps of p <- (p +
    tau grad(div p - g / lambda)) / (1 + tau |grad(div p - g / lambda)|),
    tau = 1/8, forward differences for grad as MatMuls with a constant
    difference matrix (last row and column zero) and its transpose, div
    their negated adjoint; u = g - lambda div p.  Returns u and a Conv head's readout."""

    def __init__(self, steps=20, tau=0.125, side=32):
        super().__init__()
        self.steps, self.tau = steps, tau
        self.inp = nn.Conv2d(3, 2, 1)
        self.lam = _two_layer(6, 16, 1)
        self.head = _SmallHead(2, 10)
        dfw = torch.zeros(side, side)
        for j in range(side - 1):
            dfw[j, j], dfw[j + 1, j] = -1.0, 1.0
        self.register_buffer("dfw", dfw)

    def _grad(self, u):
        return torch.matmul(u, self.dfw), torch.matmul(self.dfw.t(), u)

    def _div(self, px, py):
        return -(torch.matmul(px, self.dfw.t()) + torch.matmul(self.dfw, py))

    def forward(self, image):                     # (N, 3, 32, 32)
        g = self.inp(image)
        stats = torch.cat([g.mean((2, 3)), g.std((2, 3)), image.std((1, 2, 3)).unsqueeze(1),
                           image.mean((1, 2, 3)).unsqueeze(1)], 1)
        lam = (0.05 + F.softplus(self.lam(stats))).view(-1, 1, 1, 1)
        gl = g / lam
        px = torch.zeros_like(g)
        py = torch.zeros_like(g)
        for _ in range(self.steps):
            gx, gy = self._grad(self._div(px, py) - gl)
            den = 1.0 + self.tau * torch.sqrt(gx * gx + gy * gy + 1e-12)
            px = (px + self.tau * gx) / den
            py = (py + self.tau * gy) / den
        u = g - lam * self._div(px, py)
        return u, self.head(u)


class CKYInside(nn.Module):
    """Inside probabilities over a CKY chart for 8 tokens and 6
    nonterminals: a Linear layer and a Softmax give each token's
    preterminal scores; the rule tensor R[A, (B, C)] is a Softmax of a
    parameter over the 36 right-hand sides.  For every span (i, j), the
    outer products beta(i, k) beta(k, j)^T are summed over the split
    points k and multiplied by R^T.  Returns the log sentence score under a
    learned root distribution and an MLP readout of the log chart."""

    def __init__(self, feats=12, nts=6, length=8):
        super().__init__()
        self.nts, self.length = nts, length
        self.emit = nn.Linear(feats, nts)
        self.rules = nn.Parameter(torch.randn(nts, nts * nts) * 0.5)
        self.root = nn.Parameter(torch.zeros(nts))
        self.head = _two_layer(2 * nts, 32, 4)

    def forward(self, tokens):                    # (N, 8, 12)
        n = self.length
        pre = torch.softmax(self.emit(tokens), -1)
        rt = torch.softmax(self.rules, -1).t()                              # (K*K, K)
        beta = {(i, i + 1): pre[:, i] for i in range(n)}
        cells = []
        for span in range(2, n + 1):
            for i in range(0, n - span + 1):
                j = i + span
                acc = None
                for m in range(i + 1, j):
                    outer = beta[(i, m)].unsqueeze(2) * beta[(m, j)].unsqueeze(1)
                    acc = outer if acc is None else acc + outer
                beta[(i, j)] = torch.matmul(acc.flatten(1), rt)
                cells.append(beta[(i, j)])
        chart = torch.log(torch.stack(cells, 1) + 1e-9)                    # (N, cells, K)
        score = torch.log((beta[(0, n)] * torch.softmax(self.root, 0)).sum(-1) + 1e-9)
        feat = torch.cat([chart.mean(1), chart.max(1)[0]], -1)
        return score, self.head(feat)


class WhittedRaytrace(nn.Module):
    """A Whitted ray tracer at 16 x 16 pixels: an MLP of 16 scene features
    gives four spheres (centre, radius, colour, reflectivity).  Three
    bounces: every ray meets every sphere (t = -b - sqrt(b^2 - c), valid
    where the discriminant and t are positive), the nearest hit picked by
    Equal with the row minimum, its sphere's data gathered by MatMul with
    that one-hot; a shadow ray towards the light, Lambert shading, the
    colour accumulated with the remaining weight and the ray reflected.
    Misses take a sky gradient.  A Conv head reads the image."""

    def __init__(self, feats=16, spheres=4, res=16, bounces=3):
        super().__init__()
        self.s, self.res, self.bounces = spheres, res, bounces
        self.big = 1.0e4
        self.scene = _two_layer(feats, 64, spheres * 8)
        lin = torch.linspace(-0.6, 0.6, res)
        yy, xx = torch.meshgrid(-lin, lin, indexing="ij")
        d = torch.stack([xx, yy, torch.ones_like(xx)], -1).view(res * res, 3)
        self.register_buffer("dirs", d / d.norm(dim=-1, keepdim=True))
        light = torch.tensor([-0.5, 0.8, -0.4])
        self.register_buffer("light", light / light.norm())
        self.register_buffer("sky_lo", torch.tensor([0.9, 0.9, 1.0]))
        self.register_buffer("sky_hi", torch.tensor([0.3, 0.5, 0.9]))
        self.head = _SmallHead(3, 6)

    def _hits(self, o, d, c, r2):
        oc = o.unsqueeze(2) - c.unsqueeze(1)                                # (N, P, S, 3)
        b = (oc * d.unsqueeze(2)).sum(-1)
        disc = b * b - ((oc * oc).sum(-1) - r2)
        t = -b - torch.sqrt(torch.clamp(disc, min=0.0))
        ok = (disc > 0.0) & (t > 1e-3)
        return torch.where(ok, t, torch.full_like(t, self.big))

    def forward(self, scene):                     # (N, 16)
        s = self.s
        p = self.scene(scene).view(-1, s, 8)
        c = torch.stack([1.5 * torch.tanh(p[..., 0]), torch.tanh(p[..., 1]),
                         4.0 + 2.0 * torch.sigmoid(p[..., 2])], -1)         # (N, S, 3)
        r = 0.4 + 0.6 * torch.sigmoid(p[..., 3])
        r2 = (r * r).unsqueeze(1)                                           # (N, 1, S)
        col = torch.sigmoid(p[..., 4:7])
        refl = 0.8 * torch.sigmoid(p[..., 7:8])
        d = self.dirs + torch.zeros_like(c[:, :1, :])                       # (N, P, 3)
        o = torch.zeros_like(d)
        light = self.light + torch.zeros_like(d)
        img = torch.zeros_like(d)
        weight = torch.ones_like(d[..., :1])
        for _ in range(self.bounces):
            t = self._hits(o, d, c, r2)
            tmin = t.min(-1, keepdim=True)[0]
            hit = (tmin < 0.5 * self.big).float()
            sel = (t == tmin).float() * hit                                 # (N, P, S)
            pos = o + torch.clamp(tmin, max=50.0) * d
            cen = torch.matmul(sel, c)
            nrm = pos - cen
            nrm = nrm / torch.sqrt((nrm * nrm).sum(-1, keepdim=True) + 1e-12)
            shad = self._hits(pos + 1e-3 * nrm, light, c, r2)
            lit = (shad.min(-1, keepdim=True)[0] >= 0.5 * self.big).float()
            lam = F.relu((nrm * light).sum(-1, keepdim=True)) * lit
            rf = torch.matmul(sel, refl)
            shade = torch.matmul(sel, col) * (0.1 + 0.9 * lam) * (1.0 - rf)
            up = 0.5 + 0.5 * d[..., 1:2]
            sky = self.sky_lo * (1.0 - up) + self.sky_hi * up
            img = img + weight * (hit * shade + (1.0 - hit) * sky)
            weight = weight * hit * rf
            d = d - 2.0 * (d * nrm).sum(-1, keepdim=True) * nrm
            o = pos + 1e-3 * nrm
        picture = img.transpose(1, 2).reshape(-1, 3, self.res, self.res)
        return picture, self.head(picture)


# --------------------------------------------------------------------------
# Published network designs
# --------------------------------------------------------------------------

class _ECAGate(nn.Module):
    """Efficient channel attention: global mean, a 1-D Conv over the
    channel axis with an adaptive odd kernel, Sigmoid, rescale."""

    def __init__(self, c, gamma=2, b=1):
        super().__init__()
        k = int(abs((math.log2(c) + b) / gamma))
        k = k if k % 2 else k + 1
        self.conv = nn.Conv1d(1, 1, k, padding=k // 2, bias=False)

    def forward(self, x):
        y = self.conv(x.mean((2, 3)).unsqueeze(1))                          # (N, 1, C)
        return x * torch.sigmoid(y).transpose(1, 2).unsqueeze(-1)


class _ECABottleneck(nn.Module):
    def __init__(self, cin, mid, stride):
        super().__init__()
        cout = 4 * mid
        self.body = nn.Sequential(_cbr(cin, mid, 1), _cbr(mid, mid, 3, stride),
                                  _cbr(mid, cout, 1, act=False))
        self.gate = _ECAGate(cout)
        self.proj = None
        if stride != 1 or cin != cout:
            self.proj = _cbr(cin, cout, 1, stride, act=False)

    def forward(self, x):
        s = x if self.proj is None else self.proj(x)
        return F.relu(self.gate(self.body(x)) + s)


class ECAResNet(nn.Module):
    """A quarter-width ResNet-50-style network with ECA in every
    bottleneck: 7x7 stride-2 stem of 32 and max pool, stages of 2, 2, 3, 2
    bottlenecks (mid 16, 32, 64, 128; out 64 ... 512), GAP and a 1000-way
    Linear; 224 x 224 images."""

    def __init__(self, classes=1000):
        super().__init__()
        self.stem = nn.Sequential(_cbr(3, 32, 7, 2), nn.MaxPool2d(3, 2, 1))
        blocks, cin = [], 32
        for i, (mid, n) in enumerate([(16, 2), (32, 2), (64, 3), (128, 2)]):
            for j in range(n):
                blocks.append(_ECABottleneck(cin, mid, 2 if (j == 0 and i > 0) else 1))
                cin = 4 * mid
        self.blocks = nn.Sequential(*blocks)
        self.fc = nn.Linear(cin, classes)

    def forward(self, image):
        return self.fc(self.blocks(self.stem(image)).mean((2, 3)))


class NiNCifar(nn.Module):
    """Network in Network for CIFAR: mlpconv blocks 5x5-192 / 1x1-160 /
    1x1-96, 3x3 stride-2 max pool; 5x5-192 / 1x1-192 / 1x1-192, 3x3
    stride-2 average pool; 3x3-192 / 1x1-192 / 1x1-10; global average
    pooling of the ten class maps."""

    def __init__(self, classes=10):
        super().__init__()

        def mlpconv(cin, c1, k, c2, c3):
            return [nn.Conv2d(cin, c1, k, 1, k // 2), nn.ReLU(), nn.Conv2d(c1, c2, 1), nn.ReLU(),
                    nn.Conv2d(c2, c3, 1), nn.ReLU()]

        self.body = nn.Sequential(
            *mlpconv(3, 192, 5, 160, 96), nn.MaxPool2d(3, 2, 1),
            *mlpconv(96, 192, 5, 192, 192), nn.AvgPool2d(3, 2, 1),
            *mlpconv(192, 192, 3, 192, classes))

    def forward(self, image):
        return self.body(image).mean((2, 3))


class _Attention(nn.Module):
    """Multi-head scaled dot-product self-attention, written out."""

    def __init__(self, dim, heads):
        super().__init__()
        self.heads, self.hd = heads, dim // heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, dim)

    def forward(self, x):
        n, h, hd = x.shape[1], self.heads, self.hd
        q, k, v = self.qkv(x).view(-1, n, 3, h, hd).permute(2, 0, 3, 1, 4).unbind(0)
        a = torch.softmax(torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(hd), -1)
        y = torch.matmul(a, v).transpose(1, 2).reshape(-1, n, h * hd)
        return self.out(y)


class _EncoderLayer(nn.Module):
    """Pre-norm transformer layer with a pluggable token mixer."""

    def __init__(self, dim, mixer, ratio=4):
        super().__init__()
        self.n1, self.n2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.mixer = mixer
        self.ff = _two_layer(dim, ratio * dim, dim)

    def forward(self, x):
        x = x + self.mixer(self.n1(x))
        return x + self.ff(self.n2(x))


class _TokenLayer(nn.Module):
    """T2T token transformer: single-head attention whose values are
    projected to a narrower width and kept as the residual path."""

    def __init__(self, cin, dim):
        super().__init__()
        self.n1, self.n2 = nn.LayerNorm(cin), nn.LayerNorm(dim)
        self.qkv = nn.Linear(cin, 3 * dim)
        self.out = nn.Linear(dim, dim)
        self.ff = _two_layer(dim, dim, dim)
        self.dim = dim

    def forward(self, x):
        q, k, v = self.qkv(self.n1(x)).chunk(3, -1)
        a = torch.softmax(torch.matmul(q, k.transpose(1, 2)) / math.sqrt(self.dim), -1)
        x = v + self.out(torch.matmul(a, v))
        return x + self.ff(self.n2(x))


class T2TViT(nn.Module):
    """Tokens-to-Token ViT on 224 x 224 images: soft split Unfold(7, 4, 2)
    to 56 x 56 tokens of 147, a token layer to 32 wide, back to an image,
    Unfold(3, 2, 1) to 28 x 28 of 288, a token layer, Unfold(3, 2, 1) to
    14 x 14 of 288, Linear to 128; class token, sinusoidal positions, 7
    layers of 4 heads, MLP ratio 3, 1000-way head."""

    def __init__(self, dim=128, depth=7, heads=4, tdim=32, classes=1000):
        super().__init__()
        self.tdim = tdim
        self.split0 = nn.Unfold(7, stride=4, padding=2)
        self.split1 = nn.Unfold(3, stride=2, padding=1)
        self.split2 = nn.Unfold(3, stride=2, padding=1)
        self.tok0 = _TokenLayer(3 * 49, tdim)
        self.tok1 = _TokenLayer(tdim * 9, tdim)
        self.embed = nn.Linear(tdim * 9, dim)
        self.cls = nn.Parameter(torch.zeros(1, 1, dim))
        pos = torch.arange(197, dtype=torch.float32).unsqueeze(1)
        freq = torch.exp(-math.log(10000.0) * torch.arange(0, dim, 2, dtype=torch.float32) / dim)
        table = torch.zeros(197, dim)
        table[:, 0::2] = torch.sin(pos * freq)
        table[:, 1::2] = torch.cos(pos * freq)
        self.register_buffer("pos", table.unsqueeze(0))
        self.layers = nn.Sequential(*[_EncoderLayer(dim, _Attention(dim, heads), 3) for _ in range(depth)])
        self.norm = nn.LayerNorm(dim)
        self.fc = nn.Linear(dim, classes)

    def _restructure(self, x, side):
        return x.transpose(1, 2).reshape(-1, self.tdim, side, side)

    def forward(self, image):
        x = self.tok0(self.split0(image).transpose(1, 2))                   # (N, 3136, 32)
        x = self.tok1(self.split1(self._restructure(x, 56)).transpose(1, 2))
        x = self.embed(self.split2(self._restructure(x, 28)).transpose(1, 2))
        x = torch.cat([self.cls + torch.zeros_like(x[:, :1]), x], 1) + self.pos
        x = self.norm(self.layers(x))
        return self.fc(x[:, 0])


class _GPSA(nn.Module):
    """Gated positional self-attention: content Softmax(q k^T) and a
    positional Softmax over relative offsets (dx, dy, dx^2 + dy^2)
    projected per head, mixed by a per-head Sigmoid gate, renormalised."""

    def __init__(self, dim, heads, side):
        super().__init__()
        self.heads, self.hd = heads, dim // heads
        self.qk = nn.Linear(dim, 2 * dim, bias=False)
        self.v = nn.Linear(dim, dim, bias=False)
        self.out = nn.Linear(dim, dim)
        self.pos_proj = nn.Linear(3, heads)
        self.gate = nn.Parameter(torch.ones(heads))
        ys, xs = torch.meshgrid(torch.arange(side), torch.arange(side), indexing="ij")
        ys, xs = ys.flatten().float(), xs.flatten().float()
        dx = xs.unsqueeze(0) - xs.unsqueeze(1)
        dy = ys.unsqueeze(0) - ys.unsqueeze(1)
        self.register_buffer("rel", torch.stack([dx, dy, dx * dx + dy * dy], -1))

    def forward(self, x):
        n, h, hd = x.shape[1], self.heads, self.hd
        q, k = self.qk(x).view(-1, n, 2, h, hd).permute(2, 0, 3, 1, 4).unbind(0)
        v = self.v(x).view(-1, n, h, hd).transpose(1, 2)
        content = torch.softmax(torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(hd), -1)
        positional = torch.softmax(self.pos_proj(self.rel).permute(2, 0, 1), -1).unsqueeze(0)
        g = torch.sigmoid(self.gate).view(1, h, 1, 1)
        a = (1.0 - g) * content + g * positional
        a = a / a.sum(-1, keepdim=True)
        y = torch.matmul(a, v).transpose(1, 2).reshape(-1, n, h * hd)
        return self.out(y)


class ConViTLite(nn.Module):
    """ConViT on 224 x 224 images: 16 x 16 patches to 196 tokens of 128,
    learned absolute positions, 4 GPSA layers, then the class token and 2
    plain self-attention layers; 4 heads, MLP ratio 4, 1000-way head."""

    def __init__(self, dim=128, heads=4, local=4, plain=2, classes=1000):
        super().__init__()
        self.patch = nn.Conv2d(3, dim, 16, 16)
        self.pos = nn.Parameter(torch.randn(1, 196, dim) * 0.02)
        self.local = nn.Sequential(*[_EncoderLayer(dim, _GPSA(dim, heads, 14)) for _ in range(local)])
        self.cls = nn.Parameter(torch.zeros(1, 1, dim))
        self.plain = nn.Sequential(*[_EncoderLayer(dim, _Attention(dim, heads)) for _ in range(plain)])
        self.norm = nn.LayerNorm(dim)
        self.fc = nn.Linear(dim, classes)

    def forward(self, image):
        x = self.patch(image).flatten(2).transpose(1, 2) + self.pos
        x = self.local(x)
        x = torch.cat([self.cls + torch.zeros_like(x[:, :1]), x], 1)
        x = self.norm(self.plain(x))
        return self.fc(x[:, 0])


class _BiLSTM2D(nn.Module):
    """A bidirectional LSTM down every column and one along every row of
    an (N, H, W, C) map, concatenated and fused by a Linear layer."""

    def __init__(self, dim, hidden):
        super().__init__()
        self.vert = nn.LSTM(dim, hidden, batch_first=True, bidirectional=True)
        self.horz = nn.LSTM(dim, hidden, batch_first=True, bidirectional=True)
        self.fuse = nn.Linear(4 * hidden, dim)
        self.hidden = hidden

    def forward(self, x):
        h, w, c = x.shape[1], x.shape[2], x.shape[3]
        hh = 2 * self.hidden
        cols = x.permute(0, 2, 1, 3).reshape(-1, h, c)
        v = self.vert(cols)[0].reshape(-1, w, h, hh).permute(0, 2, 1, 3)
        r = self.horz(x.reshape(-1, w, c))[0].reshape(-1, h, w, hh)
        return self.fuse(torch.cat([v, r], -1))


class Sequencer2D(nn.Module):
    """Sequencer on 224 x 224 images: 8 x 8 patch embedding to 28 x 28 of
    64 (LSTM hidden 16, 2 blocks), a 2 x 2 patch merge to 14 x 14 of 128
    (hidden 32, 5 blocks); each block is LayerNorm
    + BiLSTM2D and LayerNorm + MLP (ratio 3), residual; 1000-way head."""

    def __init__(self, classes=1000):
        super().__init__()
        self.embed0 = nn.Conv2d(3, 64, 8, 8)
        self.stage0 = nn.Sequential(*[_EncoderLayer(64, _BiLSTM2D(64, 16), 3) for _ in range(2)])
        self.embed1 = nn.Conv2d(64, 128, 2, 2)
        self.stage1 = nn.Sequential(*[_EncoderLayer(128, _BiLSTM2D(128, 32), 3) for _ in range(5)])
        self.norm = nn.LayerNorm(128)
        self.fc = nn.Linear(128, classes)

    def forward(self, image):
        x = self.stage0(self.embed0(image).permute(0, 2, 3, 1))
        x = self.embed1(x.permute(0, 3, 1, 2)).permute(0, 2, 3, 1)
        x = self.norm(self.stage1(x))
        return self.fc(x.mean((1, 2)))


class LSTNetForecast(nn.Module):
    """LSTNet on a 168-step window of 16 series: Conv (6 steps x all
    series) to 64 channels, ReLU; a GRU of 64 over the 163 conv steps; a
    skip GRU of 16 over the last 6 x 24 steps regrouped by the 24-step
    period; Linear of both states to the 16 outputs, plus a per-series
    linear autoregressive highway over the last 24 steps."""

    def __init__(self, series=16, window=168, conv=64, hidden=64, skip_hidden=16,
                 kernel=6, period=24, highway=24):
        super().__init__()
        self.series, self.period, self.highway = series, period, highway
        self.steps = window - kernel + 1
        self.pt = self.steps // period
        self.conv = nn.Conv2d(1, conv, (kernel, series))
        self.gru = nn.GRU(conv, hidden, batch_first=True)
        self.skip = nn.GRU(conv, skip_hidden, batch_first=True)
        self.out = nn.Linear(hidden + period * skip_hidden, series)
        self.ar = nn.Linear(highway, 1)
        self.skip_hidden = skip_hidden

    def forward(self, series):                    # (N, 168, 16)
        c = F.relu(self.conv(series.unsqueeze(1))).squeeze(3)               # (N, C, 163)
        ch = c.shape[1]
        r = self.gru(c.transpose(1, 2))[1][0]                               # (N, hidden)
        s = c[:, :, -self.pt * self.period:].reshape(-1, ch, self.pt, self.period)
        s = s.permute(0, 3, 2, 1).reshape(-1, self.pt, ch)
        s = self.skip(s)[1][0].reshape(-1, self.period * self.skip_hidden)
        res = self.out(torch.cat([r, s], 1))
        z = series[:, -self.highway:, :].transpose(1, 2)                    # (N, m, hw)
        return res + self.ar(z).squeeze(-1)


BLIND25 = {
    "goertzel_bank": dict(ctor=GoertzelBank, family="goertzel-resonator-dft",
                          inputs=[("signal", ("N", 4, 96), "float32", None)]),
    "eikonal_upwind": dict(ctor=EikonalUpwind, family="eikonal-godunov-upwind",
                           inputs=[("scene", ("N", 10), "float32", None)]),
    "sandpile_topple": dict(ctor=SandpileTopple, family="abelian-sandpile-toppling",
                            inputs=[("scene", ("N", 12), "float32", None)]),
    "chambolle_tv": dict(ctor=ChambolleTV, family="chambolle-tv-dual-projection",
                         inputs=[("image", ("N", 3, 32, 32), "float32", None)]),
    "cky_inside": dict(ctor=CKYInside, family="pcfg-inside-chart",
                       inputs=[("tokens", ("N", 8, 12), "float32", None)]),
    "whitted_raytrace": dict(ctor=WhittedRaytrace, family="whitted-ray-tracing",
                             inputs=[("scene", ("N", 16), "float32", None)]),
    "eca_resnet": dict(ctor=ECAResNet, family="efficient-channel-attention",
                       inputs=[("image", ("N", 3, 224, 224), "float32", None)]),
    "nin_cifar": dict(ctor=NiNCifar, family="network-in-network-mlpconv",
                      inputs=[("image", ("N", 3, 32, 32), "float32", None)]),
    "t2t_vit": dict(ctor=T2TViT, family="tokens-to-token-soft-split",
                    inputs=[("image", ("N", 3, 224, 224), "float32", None)]),
    "convit_lite": dict(ctor=ConViTLite, family="gated-positional-self-attention",
                        inputs=[("image", ("N", 3, 224, 224), "float32", None)]),
    "sequencer2d": dict(ctor=Sequencer2D, family="bilstm2d-sequencer",
                        inputs=[("image", ("N", 3, 224, 224), "float32", None)]),
    "lstnet_forecast": dict(ctor=LSTNetForecast, family="recurrent-skip-lstnet",
                            inputs=[("series", ("N", 168, 16), "float32", None)]),
}
