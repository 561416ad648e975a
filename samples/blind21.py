r"""BLIND21: the twenty-first blind set, written on 2026-12-06 by a helper
session before any of it was measured.  Nothing in it has been timed,
profiled or run through onnxcost predict; it is to be measured first and
scored once only, at the end, with the code as it stands then
(bench/zoo_accuracy.py --set blind21).  None of its twelve families occurs
in another set (ZOO, BLIND, BLIND2 ... BLIND20, the reference models), so
no plan rule, feature, fit or calibration can have been made with any of
them in view.

Six families unroll a classical numerical procedure into a fixed graph of
small kernels at batch 1 (tensors of a few thousand elements or fewer,
some hundreds of nodes), each with a small learned part:

  * CORDIC (Volder, "The CORDIC Trigonometric Computing Technique", 1959):
    shift-and-add plane rotations by the angles atan(2^-i), 20 steps in
    rotation mode (cosine and sine of an angle from an MLP) and 20 in
    vectoring mode (length and angle of a learned vector), the direction
    of every micro-rotation chosen by Sign.
  * Water-filling power allocation over parallel Gaussian channels
    (Shannon's capacity of coloured-noise channels; the textbook account in
    Cover & Thomas, "Elements of Information Theory", ch. 9), the water
    level found by 40 bisection steps with Where: 8 users of 64
    subcarriers, noise levels and budgets from learned layers.
  * Natural cubic spline interpolation (de Boor, "A Practical Guide to
    Splines"), the second-derivative system solved by the Thomas algorithm
    for tridiagonal matrices (Thomas, 1949): 8 curves of 24 knots with
    learned spacings, a forward sweep and a back substitution knot by
    knot, then evaluation at 64 points by a one-hot interval MatMul.
  * The Durand-Kerner (Weierstrass) simultaneous root iteration
    (Weierstrass 1891; Durand 1960; Kerner, "Ein Gesamtschrittverfahren
    zur Berechnung der Nullstellen von Polynomen", 1966) in real
    arithmetic on real and imaginary parts: 4 monic sextics per sample
    with coefficients from an MLP, Horner evaluation and the products of
    root differences by halving, 5 sweeps.
  * Connected-component labelling of a binary image (Rosenfeld & Pfaltz,
    "Sequential Operations in Digital Picture Processing", 1966), done the
    parallel way: a small Conv net thresholds a 40 x 40 image, every
    foreground pixel starts with its own index, then 24 rounds of a 3 x 3
    max-label hook (MaxPool) and one pointer jump (GatherElements of the
    label's own pixel, as in Shiloach & Vishkin's connectivity algorithm).
  * Maximum-likelihood Bradley-Terry strengths (Bradley & Terry, "Rank
    Analysis of Incomplete Block Designs", 1952; Zermelo 1929) by the
    minorise-maximise iteration of Hunter ("MM Algorithms for Generalized
    Bradley-Terry Models", 2004): 16 players whose pairwise game and win
    counts come from a pairwise MLP, 40 MM updates with renormalisation.

The other six are published network designs of ordinary sizes:

  * UNet++ (Zhou, Rahman Siddiquee, Tajbakhsh & Liang, "UNet++: A Nested
    U-Net Architecture for Medical Image Segmentation"): the nested grid
    of dense skip nodes X(i, j) over a depth-5 encoder, four
    deep-supervision heads averaged; 96 x 96 images.
  * HarDNet (Chao, Kao, Ruan, Huang & Lin, "HarDNet: A Low Memory Traffic
    Network"): harmonic dense blocks in which layer k reads layer k - 2^n
    for every 2^n dividing k, widths growing by 1.6 per extra link, only
    odd layers and the last concatenated out; 128 x 128 images.
  * FasterNet (Chen et al., "Run, Don't Walk: Chasing Higher FLOPS for
    Faster Neural Networks"): the T0 layout, partial convolution (a 3 x 3
    Conv on a quarter of the channels, Split and Concat) followed by two
    pointwise Convs, 2 x 2 strided merging; 224 x 224 images.
  * SlowFast (Feichtenhofer, Fan, Malik & He, "SlowFast Networks for Video
    Recognition"): a slow pathway on every fourth frame and a narrow fast
    pathway on all 16, fused by time-strided lateral Convs, 3-D residual
    stages; 16 x 64 x 64 clips.
  * SCINet (Liu et al., "SCINet: Time Series Modeling and Forecasting with
    Sample Convolution and Interaction"): a depth-3 binary tree of SCI
    blocks, each splitting the series into even and odd samples, scaling
    each half by the Exp of a Conv branch of the other and exchanging
    further Conv branches, the halves re-interleaved; 32 series of 336
    steps forecast 96 ahead.
  * Transformer in Transformer (Han et al., "Transformer in
    Transformer"): an inner Transformer over 16 pixel-level tokens inside
    every 16 x 16 patch, projected into the patch tokens, and an outer
    Transformer over the 64 patches and a class token; 128 x 128 images.

To be measured with

    OMP_WAIT_POLICY=PASSIVE /usr/bin/python3 scripts/measure_zoo.py --set blind21 \
        cordic_rotator waterfill_bisect spline_thomas durand_kerner \
        ccl_pointer_jump bradley_terry_mm unetpp_seg hardnet_lite \
        fasternet_t0 slowfast_lite scinet_forecast tnt_lite \
        --threads 1 2 --batches 1 4 16

Same table form as export.py's ZOO (ctor, family, inputs); exported by
scripts/ort_graphs.py's export() (opset 13, symbolic batch N).
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def _mlp(cin, hidden, cout):
    """Linear, Tanh, Linear."""
    return nn.Sequential(nn.Linear(cin, hidden), nn.Tanh(), nn.Linear(hidden, cout))


def _conv_bn(cin, cout, k=3, stride=1, groups=1, act=True):
    """Conv2d (no bias, 'same' padding for odd k), BatchNorm, optional ReLU."""
    layers = [nn.Conv2d(cin, cout, k, stride, k // 2, groups=groups, bias=False), nn.BatchNorm2d(cout)]
    if act:
        layers.append(nn.ReLU())
    return nn.Sequential(*layers)


# --------------------------------------------------------------------------
# Unrolled numerical procedures: small kernels at batch 1
# --------------------------------------------------------------------------

class CordicRotator(nn.Module):
    """CORDIC in both modes over 32 items per sample.  An MLP of each
    item's 4 features gives an angle (1.5 Tanh, inside CORDIC's range of
    convergence) and a vector (Softplus x, free y).  Rotation mode starts
    from (K, 0), K the product of the micro-rotation gains, and drives the
    residual angle z to zero: d = Sign(z), (x, y) <- (x - d y 2^-i, y + d x
    2^-i), z <- z - d atan(2^-i), giving (cos, sin).  Vectoring mode drives
    y to zero with d = Sign(y), accumulating the angle, and scales x by K
    for the length.  Returns (cos, sin), (length, angle) and an MLP
    readout averaged over the items."""

    def __init__(self, feats=4, iters=20):
        super().__init__()
        self.iters = iters
        self.angles = [math.atan(2.0 ** -i) for i in range(iters)]
        self.gain = 1.0
        for i in range(iters):
            self.gain /= math.sqrt(1.0 + 2.0 ** (-2 * i))
        self.embed = _mlp(feats, 32, 3)
        self.head = _mlp(4, 32, 6)

    def forward(self, items):                      # (N, 32, 4)
        e = self.embed(items)
        theta = 1.5 * torch.tanh(e[..., 0])
        x = torch.zeros_like(theta) + self.gain
        y = torch.zeros_like(theta)
        z = theta
        for i in range(self.iters):
            d, t = torch.sign(z), 2.0 ** -i
            x, y = x - d * y * t, y + d * x * t
            z = z - d * self.angles[i]
        vx = F.softplus(e[..., 1]) + 0.1
        vy = e[..., 2]
        ang = torch.zeros_like(vy)
        for i in range(self.iters):
            d, t = torch.sign(vy), 2.0 ** -i
            vx, vy = vx + d * vy * t, vy - d * vx * t
            ang = ang + d * self.angles[i]
        length = vx * self.gain
        feats = torch.stack([x, y, length, ang], -1)
        return torch.stack([x, y], -1), torch.stack([length, ang], -1), self.head(feats).mean(1)


class WaterfillBisect(nn.Module):
    """Water-filling over 64 parallel channels for each of 8 users: noise
    levels n = Softplus of the fed gains plus a learned Linear of them,
    the power budget P from an MLP (32 ... 64); the water level mu with
    sum_k max(mu - n_k, 0) = P bracketed by [min n, min n + P] and found
    by 40 bisection steps (Relu, ReduceSum, Greater, two Wheres).  Returns
    the power per channel, the rate per user (sum of log2(1 + p / n)) and
    an MLP readout over users."""

    def __init__(self, channels=64, iters=40):
        super().__init__()
        self.channels, self.iters = channels, iters
        self.noise = nn.Linear(channels, channels)
        self.budget = _mlp(channels, 32, 1)
        self.head = _mlp(3, 32, 4)

    def forward(self, gains):                      # (N, 8, 64)
        n = F.softplus(gains + 0.2 * self.noise(gains)) + 0.05
        total = 0.5 * self.channels * (1.0 + torch.sigmoid(self.budget(gains)))   # (N, U, 1)
        lo = n.min(-1, keepdim=True)[0]
        hi = lo + total
        for _ in range(self.iters):
            mid = 0.5 * (lo + hi)
            used = F.relu(mid - n).sum(-1, keepdim=True)
            over = used > total
            hi = torch.where(over, mid, hi)
            lo = torch.where(over, lo, mid)
        level = 0.5 * (lo + hi)
        power = F.relu(level - n)
        rate = (torch.log(1.0 + power / n) / math.log(2.0)).sum(-1)
        active = (power > 0).float().mean(-1)
        feats = torch.stack([rate / self.channels, level.squeeze(-1), active], -1)
        return power, rate, self.head(feats).mean(1)


class SplineThomas(nn.Module):
    """Natural cubic splines through 24 knots for each of 8 curves: knot
    values the fed samples plus a learned Linear of them, knot spacings
    Softplus of an MLP, positions by CumSum.  The 22 interior second
    derivatives solve h_{i-1} M_{i-1} + 2 (h_{i-1} + h_i) M_i + h_i M_{i+1}
    = 6 (s_i - s_{i-1}) (s the secant slopes), by the Thomas algorithm: a
    forward sweep c'_i = c_i / (b_i - a_i c'_{i-1}), d'_i likewise, and
    back substitution M_i = d'_i - c'_i M_{i+1}, one knot a step.  The
    spline is evaluated at 64 evenly spaced points of each curve's span:
    the interval as a one-hot (GreaterOrEqual against the interior knots,
    differenced), its six coefficients picked by one MatMul.  Returns the
    values, the second derivatives and an MLP readout."""

    def __init__(self, knots=24, queries=64):
        super().__init__()
        self.knots = knots
        self.spacing = _mlp(knots, 32, knots - 1)
        self.value = nn.Linear(knots, knots)
        self.register_buffer("grid", torch.linspace(0.0, 1.0, queries))
        self.head = _mlp(queries, 32, 4)

    def forward(self, samples):                    # (N, 8, 24)
        m = self.knots - 2
        h = F.softplus(self.spacing(samples)) + 0.05                       # (N, C, k-1)
        y = samples + 0.1 * self.value(samples)
        zero = torch.zeros_like(samples[..., :1])
        x = torch.cat([zero, torch.cumsum(h, -1)], -1)                      # (N, C, k)
        slope = (y[..., 1:] - y[..., :-1]) / h
        rhs = 6.0 * (slope[..., 1:] - slope[..., :-1])                      # (N, C, m)
        lower, upper = h[..., :-1], h[..., 1:]
        diag = 2.0 * (lower + upper)
        diag, rhs, lower, upper = (v.split(1, -1) for v in (diag, rhs, lower, upper))
        cps, dps = [], []
        for i in range(m):
            b, d = diag[i], rhs[i]
            if i > 0:
                b = b - lower[i] * cps[-1]
                d = d - lower[i] * dps[-1]
            cps.append(upper[i] / b if i < m - 1 else None)
            dps.append(d / b)
        ms = [dps[-1]]
        for i in reversed(range(m - 1)):
            ms.insert(0, dps[i] - cps[i] * ms[0])
        mm = torch.cat([zero] + ms + [zero], -1)                            # (N, C, k)
        t = self.grid * x[..., -1:]                                         # (N, C, Q)
        ge = (t.unsqueeze(-1) >= x[..., 1:-1].unsqueeze(-2)).float()        # (N, C, Q, k-2)
        ones = torch.ones_like(ge[..., :1])
        g = torch.cat([ones, ge, torch.zeros_like(ones)], -1)
        onehot = g[..., :-1] - g[..., 1:]                                   # (N, C, Q, k-1)
        coef = torch.stack([x[..., :-1], h, y[..., :-1], y[..., 1:], mm[..., :-1], mm[..., 1:]], -1)
        sel = torch.matmul(onehot, coef)                                    # (N, C, Q, 6)
        xl, hh, yl, yr, ml, mr = sel.unbind(-1)
        u = (t - xl) / hh
        v = 1.0 - u
        h2 = hh * hh / 6.0
        s = (ml * v * v * v + mr * u * u * u) * h2 + (yl - ml * h2) * v + (yr - mr * h2) * u
        return s, mm, self.head(s).mean(1)


class DurandKerner(nn.Module):
    """Durand-Kerner iteration for 4 monic real sextics per sample, the
    coefficients 2 Tanh of an MLP of each polynomial's 16 features.  The
    roots start at R (0.4 + 0.9i)^k with R = 1 + max |a_k| / 2 (half of
    Cauchy's bound, plus a half); each of 5 sweeps evaluates p(z_i) by
    Horner's rule in complex arithmetic (Mul, Sub, Add on real and
    imaginary parts), forms the 6 x 6 differences z_i - z_j with the
    diagonal set to 1, multiplies each row out by halving (6 -> 3 -> 1 + 1
    -> 1, Split and Concat), and updates z_i -= p(z_i) / prod_j (z_i -
    z_j).  Returns the roots as (re, im) pairs, |p| at them and an MLP
    readout."""

    def __init__(self, feats=16, degree=6, iters=5):
        super().__init__()
        self.degree, self.iters = degree, iters
        self.coef = _mlp(feats, 32, degree)
        start = [(0.4 + 0.9j) ** k for k in range(degree)]
        self.register_buffer("start_re", torch.tensor([c.real for c in start]))
        self.register_buffer("start_im", torch.tensor([c.imag for c in start]))
        self.register_buffer("offdiag", 1.0 - torch.eye(degree))
        self.register_buffer("eye", torch.eye(degree))
        self.head = _mlp(2 * degree, 32, 4)

    @staticmethod
    def _cmul(ar, ai, br, bi):
        return ar * br - ai * bi, ar * bi + ai * br

    def _horner(self, coefs, zr, zi):
        d = self.degree
        pr, pi = zr + coefs[d - 1], zi
        for k in reversed(range(d - 1)):
            pr, pi = self._cmul(pr, pi, zr, zi)
            pr = pr + coefs[k]
        return pr, pi

    def _rowprod(self, dr, di):
        width = self.degree
        while width > 1:
            half, odd = width // 2, width % 2
            sizes = [half, half] + [1] * odd
            rs, ims = dr.split(sizes, -1), di.split(sizes, -1)
            qr, qi = self._cmul(rs[0], ims[0], rs[1], ims[1])
            if odd:
                qr, qi = torch.cat([qr, rs[2]], -1), torch.cat([qi, ims[2]], -1)
            dr, di, width = qr, qi, half + odd
        return dr.squeeze(-1), di.squeeze(-1)

    def forward(self, polys):                      # (N, 4, 16)
        a = 2.0 * torch.tanh(self.coef(polys))                              # (N, P, d): z^0 ... z^(d-1)
        radius = 0.5 * (1.0 + a.abs().max(-1, keepdim=True)[0]) + 0.5
        zr, zi = radius * self.start_re, radius * self.start_im
        coefs = a.split(1, -1)
        for _ in range(self.iters):
            pr, pi = self._horner(coefs, zr, zi)
            dr = (zr.unsqueeze(-1) - zr.unsqueeze(-2)) * self.offdiag + self.eye
            di = (zi.unsqueeze(-1) - zi.unsqueeze(-2)) * self.offdiag
            qr, qi = self._rowprod(dr, di)
            den = qr * qr + qi * qi + 1e-9
            zr = zr - (pr * qr + pi * qi) / den
            zi = zi - (pi * qr - pr * qi) / den
        pr, pi = self._horner(coefs, zr, zi)
        resid = torch.sqrt(pr * pr + pi * pi + 1e-12)
        return torch.stack([zr, zi], -1), resid, self.head(torch.cat([zr, zi], -1)).mean(1)


class CCLPointerJump(nn.Module):
    """Connected-component labelling of a 40 x 40 image: a two-layer Conv
    net's positive outputs are foreground (Greater, Cast); each foreground
    pixel starts labelled with its 1-based index, background 0; each of 24
    rounds hooks every pixel to the largest label in its 3 x 3
    neighbourhood (MaxPool, masked), then jumps once: the label l becomes
    the label now held by pixel l (GatherElements on the flattened map).
    A component's pixels end with the index of its last pixel.  Returns
    the label map, the component count (pixels whose label is their own
    index) and an MLP readout of the count, foreground share, mean label
    and the share of pixels whose label moved in the last round."""

    def __init__(self, size=40, iters=24):
        super().__init__()
        self.size, self.iters = size, iters
        self.mask_net = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 1, 3, padding=1))
        index = torch.arange(1, size * size + 1, dtype=torch.float32).view(1, 1, size, size)
        self.register_buffer("index", index)
        self.head = _mlp(4, 32, 3)

    def forward(self, image):                      # (N, 1, 40, 40)
        s = self.size
        fg = (self.mask_net(image) > 0.0).float()
        lab = self.index * fg
        prev = lab
        for _ in range(self.iters):
            prev = lab
            lab = F.max_pool2d(lab, 3, 1, 1) * fg
            flat = lab.flatten(1)
            ptr = torch.clamp(flat - 1.0, min=0.0).long()
            lab = torch.gather(flat, 1, ptr).view_as(fg) * fg
        roots = (lab == self.index).float() * fg
        count = roots.sum((1, 2, 3))
        area = float(s * s)
        feats = torch.stack([count / 16.0, fg.sum((1, 2, 3)) / area, lab.mean((1, 2, 3)) / area,
                             (lab != prev).float().mean((1, 2, 3))], -1)
        return lab, count, self.head(feats)


class BradleyTerryMM(nn.Module):
    """Bradley-Terry strengths of 16 players by Hunter's MM algorithm: a
    pairwise MLP of (f_i - f_j, f_i * f_j) gives a score s_ij; the games
    played n_ij = (2 + 3 Sigmoid(s_ij + s_ji)) off the diagonal, the wins
    W_ij = n_ij Sigmoid(s_ij - s_ji); starting from the win shares, each
    of 40 steps sets w_i = W_i / sum_j n_ij / (w_i + w_j) (W_i the wins of
    i plus 0.1) and renormalises w to sum 1.  Returns the log-strengths,
    the log-likelihood sum_ij W_ij log(w_i / (w_i + w_j)) and an MLP
    readout per player, averaged."""

    def __init__(self, players=16, feats=6, iters=40):
        super().__init__()
        self.iters = iters
        self.duel = _mlp(2 * feats, 32, 1)
        self.register_buffer("offdiag", 1.0 - torch.eye(players))
        self.head = _mlp(2, 32, 3)

    def forward(self, players):                    # (N, 16, 6)
        fi, fj = players.unsqueeze(2), players.unsqueeze(1)
        s = self.duel(torch.cat([fi - fj, fi * fj], -1)).squeeze(-1)       # (N, n, n)
        st = s.transpose(1, 2)
        games = (2.0 + 3.0 * torch.sigmoid(s + st)) * self.offdiag
        wins = games * torch.sigmoid(s - st)
        total = wins.sum(-1) + 0.1                                          # (N, n)
        w = total / total.sum(-1, keepdim=True)
        for _ in range(self.iters):
            denom = (games / (w.unsqueeze(-1) + w.unsqueeze(-2))).sum(-1)
            w = total / denom
            w = w / w.sum(-1, keepdim=True)
        logw = torch.log(w)
        pair = torch.log(w.unsqueeze(-1) + w.unsqueeze(-2))
        loglik = (wins * (logw.unsqueeze(-1) - pair)).sum((1, 2))
        share = total / games.sum(-1)
        return logw, loglik, self.head(torch.stack([logw, share], -1)).mean(1)


# --------------------------------------------------------------------------
# Ordinary sizes
# --------------------------------------------------------------------------

class _DoubleConv(nn.Module):
    """Two 3x3 Conv-BN-ReLU, the UNet node."""

    def __init__(self, cin, cout):
        super().__init__()
        self.body = nn.Sequential(_conv_bn(cin, cout), _conv_bn(cout, cout))

    def forward(self, x):
        return self.body(x)


class UNetPP(nn.Module):
    """UNet++ of depth 5 at widths 8, 16, 32, 64, 128: backbone nodes
    X(i, 0) with 2x2 MaxPools between; every nested node X(i, j) a double
    Conv of the Concat of X(i, 0) ... X(i, j-1) and the 2x bilinear
    upsampling of X(i+1, j-1); 1x1 heads on X(0, 1) ... X(0, 4), their
    Sigmoid maps averaged (deep supervision).  96 x 96 images, 3
    classes."""

    def __init__(self, widths=(8, 16, 32, 64, 128), classes=3):
        super().__init__()
        depth = len(widths)
        self.depth = depth
        self.nodes = nn.ModuleDict()
        for i in range(depth):
            self.nodes[f"{i}_0"] = _DoubleConv(3 if i == 0 else widths[i - 1], widths[i])
        for j in range(1, depth):
            for i in range(depth - j):
                self.nodes[f"{i}_{j}"] = _DoubleConv(widths[i] * j + widths[i + 1], widths[i])
        self.heads = nn.ModuleList([nn.Conv2d(widths[0], classes, 1) for _ in range(depth - 1)])

    def forward(self, image):                      # (N, 3, 96, 96)
        grid = {}
        x = image
        for i in range(self.depth):
            if i > 0:
                x = F.max_pool2d(x, 2, 2)
            x = self.nodes[f"{i}_0"](x)
            grid[i, 0] = x
        for j in range(1, self.depth):
            for i in range(self.depth - j):
                up = F.interpolate(grid[i + 1, j - 1], scale_factor=2.0, mode="bilinear", align_corners=False)
                grid[i, j] = self.nodes[f"{i}_{j}"](torch.cat([grid[i, k] for k in range(j)] + [up], 1))
        maps = [torch.sigmoid(head(grid[0, j + 1])) for j, head in enumerate(self.heads)]
        return sum(maps) / len(maps)


def _harmonic_links(layer, base, growth, mult):
    """Inputs and width of layer `layer` of a harmonic dense block: it reads
    layer - 2^n for every 2^n dividing it (layer 0 is the block input of
    width `base`); its width is growth * mult^(links - 1), rounded to an
    even number."""
    if layer == 0:
        return [], base
    links, width, n = [], float(growth), 0
    while 2 ** n <= layer:
        if layer % 2 ** n == 0:
            links.append(layer - 2 ** n)
            if n > 0:
                width *= mult
        n += 1
    return links, int(int(width + 1) / 2) * 2


class _HarDBlock(nn.Module):
    """Harmonic dense block of `layers` 3x3 Conv-BN-ReLU layers; the output
    is the Concat of the odd layers and the last one."""

    def __init__(self, cin, growth, mult, layers):
        super().__init__()
        self.links = []
        widths = [cin]
        convs = []
        for k in range(1, layers + 1):
            links, width = _harmonic_links(k, cin, growth, mult)
            self.links.append(links)
            convs.append(_conv_bn(sum(widths[i] for i in links), width))
            widths.append(width)
        self.convs = nn.ModuleList(convs)
        self.keep = [k for k in range(1, layers + 1) if k % 2 == 1 or k == layers]
        self.out_channels = sum(widths[k] for k in self.keep)

    def forward(self, x):
        outs = [x]
        for links, conv in zip(self.links, self.convs):
            xs = [outs[i] for i in links]
            outs.append(conv(xs[0] if len(xs) == 1 else torch.cat(xs, 1)))
        return torch.cat([outs[k] for k in self.keep], 1)


class HarDNetLite(nn.Module):
    """HarDNet-39-like (Chao et al.) with plain Convs: a stem of 3x3 Convs
    (stride 2, 24; 48) and a MaxPool, then harmonic blocks (growth 16, 20,
    40, 80 with multiplier 1.6; 4, 8, 8, 4 layers), each followed by a 1x1
    Conv-BN-ReLU transition to 96, 192, 320, 512 channels and, but for the
    last, a 2x2 MaxPool; a global pool and a Linear classifier.  128 x 128
    images."""

    def __init__(self, classes=100, growth=(16, 20, 40, 80), layers=(4, 8, 8, 4),
                 widths=(96, 192, 320, 512), mult=1.6):
        super().__init__()
        self.stem = nn.Sequential(_conv_bn(3, 24, 3, 2), _conv_bn(24, 48), nn.MaxPool2d(3, 2, 1))
        stages = []
        cin = 48
        for i, (g, n, w) in enumerate(zip(growth, layers, widths)):
            block = _HarDBlock(cin, g, mult, n)
            stages += [block, _conv_bn(block.out_channels, w, 1)]
            if i < len(widths) - 1:
                stages.append(nn.MaxPool2d(2, 2))
            cin = w
        self.stages = nn.Sequential(*stages)
        self.fc = nn.Linear(cin, classes)

    def forward(self, image):                      # (N, 3, 128, 128)
        return self.fc(self.stages(self.stem(image)).mean((2, 3)))


class _PartialConv(nn.Module):
    """FasterNet PConv: a 3x3 Conv on the first 1/4 of the channels, the
    rest passed through (Split, Conv, Concat)."""

    def __init__(self, ch, div=4):
        super().__init__()
        self.part = ch // div
        self.rest = ch - self.part
        self.conv = nn.Conv2d(self.part, self.part, 3, 1, 1, bias=False)

    def forward(self, x):
        a, b = torch.split(x, [self.part, self.rest], 1)
        return torch.cat([self.conv(a), b], 1)


class _FasterBlock(nn.Module):
    """PConv, 1x1 Conv to twice the width, BN, GELU, 1x1 Conv back, plus
    the input."""

    def __init__(self, ch, ratio=2):
        super().__init__()
        self.pconv = _PartialConv(ch)
        self.mlp = nn.Sequential(nn.Conv2d(ch, ch * ratio, 1, bias=False), nn.BatchNorm2d(ch * ratio),
                                 nn.GELU(), nn.Conv2d(ch * ratio, ch, 1, bias=False))

    def forward(self, x):
        return x + self.mlp(self.pconv(x))


class FasterNetT0(nn.Module):
    """FasterNet-T0 (Chen et al.): a 4x4 stride-4 embedding Conv to 40
    channels with BN, stages of 1, 2, 8, 2 FasterNet blocks at widths 40,
    80, 160, 320 joined by 2x2 stride-2 merging Convs with BN; a global
    pool, a 1x1 Conv to 1280 with GELU and a Linear classifier.  224 x 224
    images, 1000 classes."""

    def __init__(self, classes=1000, width=40, depths=(1, 2, 8, 2), features=1280):
        super().__init__()
        layers = [nn.Conv2d(3, width, 4, 4, bias=False), nn.BatchNorm2d(width)]
        ch = width
        for i, n in enumerate(depths):
            if i > 0:
                layers += [nn.Conv2d(ch, 2 * ch, 2, 2, bias=False), nn.BatchNorm2d(2 * ch)]
                ch *= 2
            layers += [_FasterBlock(ch) for _ in range(n)]
        self.features = nn.Sequential(*layers)
        self.pre_head = nn.Sequential(nn.Conv2d(ch, features, 1, bias=False), nn.GELU())
        self.fc = nn.Linear(features, classes)

    def forward(self, image):                      # (N, 3, 224, 224)
        x = self.features(image).mean((2, 3), keepdim=True)
        return self.fc(self.pre_head(x).flatten(1))


def _conv3d_bn(cin, cout, kt, ks, stride=(1, 1, 1), act=True):
    layers = [nn.Conv3d(cin, cout, (kt, ks, ks), stride, (kt // 2, ks // 2, ks // 2), bias=False),
              nn.BatchNorm3d(cout)]
    if act:
        layers.append(nn.ReLU())
    return nn.Sequential(*layers)


class _Res3D(nn.Module):
    """3-D basic residual block: a (kt x 3 x 3) Conv-BN-ReLU with the
    spatial stride, a (1 x 3 x 3) Conv-BN, a strided 1x1x1 projection
    where the shape changes."""

    def __init__(self, cin, cout, kt, stride):
        super().__init__()
        self.c1 = _conv3d_bn(cin, cout, kt, 3, (1, stride, stride))
        self.c2 = _conv3d_bn(cout, cout, 1, 3, act=False)
        self.proj = None
        if stride != 1 or cin != cout:
            self.proj = _conv3d_bn(cin, cout, 1, 1, (1, stride, stride), act=False)

    def forward(self, x):
        skip = x if self.proj is None else self.proj(x)
        return F.relu(self.c2(self.c1(x)) + skip)


class SlowFastLite(nn.Module):
    """SlowFast (Feichtenhofer et al.) with alpha 4, the fast pathway 1/6
    to 1/8 of the slow one's width: the slow pathway reads frames 0, 4, 8,
    12 (a strided Slice), the fast one all 16; 1x7x7 and 5x7x7
    stride-(1, 2, 2) stems with (1, 3, 3) MaxPools; after the stem and each
    of the first two stages a 5x1x1 Conv-BN-ReLU of temporal stride 4 maps
    the fast features to twice their width, concatenated to the slow ones;
    three stages of two 3-D residual blocks at slow widths 48, 96, 192 and
    fast widths 8, 12, 24 (stems 24 and 4), the slow pathway temporal
    (kernel 3) only in the last stage, the fast one throughout; both
    pooled, concatenated, a Linear to 101 classes.  16 x 64 x 64 clips."""

    def __init__(self, classes=101, slow=(24, 48, 96, 192), fast=(4, 8, 12, 24), alpha=4):
        super().__init__()
        self.alpha = alpha
        self.slow_stem = _conv3d_bn(3, slow[0], 1, 7, (1, 2, 2))
        self.fast_stem = _conv3d_bn(3, fast[0], 5, 7, (1, 2, 2))
        self.laterals = nn.ModuleList()
        self.slow_stages, self.fast_stages = nn.ModuleList(), nn.ModuleList()
        for i in range(3):
            self.laterals.append(nn.Sequential(
                nn.Conv3d(fast[i], 2 * fast[i], (5, 1, 1), (alpha, 1, 1), (2, 0, 0), bias=False),
                nn.BatchNorm3d(2 * fast[i]), nn.ReLU()))
            stride = 1 if i == 0 else 2
            kt = 3 if i == 2 else 1
            self.slow_stages.append(nn.Sequential(_Res3D(slow[i] + 2 * fast[i], slow[i + 1], kt, stride),
                                                  _Res3D(slow[i + 1], slow[i + 1], kt, 1)))
            self.fast_stages.append(nn.Sequential(_Res3D(fast[i], fast[i + 1], 3, stride),
                                                  _Res3D(fast[i + 1], fast[i + 1], 3, 1)))
        self.fc = nn.Linear(slow[-1] + fast[-1], classes)

    def forward(self, clip):                       # (N, 3, 16, 64, 64)
        pool = lambda t: F.max_pool3d(t, (1, 3, 3), (1, 2, 2), (0, 1, 1))  # noqa: E731
        s = pool(self.slow_stem(clip[:, :, ::self.alpha]))
        f = pool(self.fast_stem(clip))
        for lat, slow_stage, fast_stage in zip(self.laterals, self.slow_stages, self.fast_stages):
            s = slow_stage(torch.cat([s, lat(f)], 1))
            f = fast_stage(f)
        return self.fc(torch.cat([s.mean((2, 3, 4)), f.mean((2, 3, 4))], 1))


class _SCIBlock(nn.Module):
    """SCINet's SCI block: even and odd samples (strided Slices); each half
    scaled by the Exp of a Conv branch of the other, then each corrected
    by another branch of the other (odd minus, even plus).  A branch:
    ReplicationPad 3 + 3, Conv1d k=5 to 4x width, LeakyReLU, Conv1d k=3
    back, Tanh."""

    def __init__(self, ch, expand=4):
        super().__init__()

        def branch():
            return nn.Sequential(nn.ReplicationPad1d(3), nn.Conv1d(ch, ch * expand, 5),
                                 nn.LeakyReLU(0.01), nn.Dropout(0.25),
                                 nn.Conv1d(ch * expand, ch, 3), nn.Tanh())

        self.phi, self.psi, self.rho, self.eta = branch(), branch(), branch(), branch()

    def forward(self, x):
        even, odd = x[..., 0::2], x[..., 1::2]
        d = odd * torch.exp(self.phi(even))
        c = even * torch.exp(self.psi(odd))
        return c + self.rho(d), d - self.eta(c)


class _SCITree(nn.Module):
    """A binary tree of SCI blocks of the given depth; the leaves' halves
    are re-interleaved (Stack, Reshape) on the way back up."""

    def __init__(self, ch, depth):
        super().__init__()
        self.block = _SCIBlock(ch)
        self.even = _SCITree(ch, depth - 1) if depth > 1 else None
        self.odd = _SCITree(ch, depth - 1) if depth > 1 else None

    def forward(self, x):                          # (N, C, T)
        even, odd = self.block(x)
        if self.even is not None:
            even, odd = self.even(even), self.odd(odd)
        return torch.stack([even, odd], -1).view_as(x)


class SCINetForecast(nn.Module):
    """SCINet (Liu et al.), one stack: 32 series of 336 steps, a depth-3
    SCI tree with a residual to the input, then a pointwise Conv1d over
    the time axis (336 -> 96 steps) as the forecaster."""

    def __init__(self, series=32, lookback=336, horizon=96, depth=3):
        super().__init__()
        assert lookback % 2 ** depth == 0
        self.tree = _SCITree(series, depth)
        self.project = nn.Conv1d(lookback, horizon, 1, bias=False)

    def forward(self, series):                     # (N, 336, 32)
        x = series.transpose(1, 2)
        y = self.tree(x) + x
        return self.project(y.transpose(1, 2))                             # (N, 96, 32)


class _Attention(nn.Module):
    """Multi-head self-attention: one Linear for q, k, v, Softmax of scaled
    scores, an output Linear."""

    def __init__(self, dim, heads, length):
        super().__init__()
        self.heads, self.hd, self.length = heads, dim // heads, length
        self.qkv = nn.Linear(dim, 3 * dim, bias=False)
        self.out = nn.Linear(dim, dim)

    def forward(self, x):                          # (B, L, D)
        length = self.length
        qkv = self.qkv(x).reshape(-1, length, 3, self.heads, self.hd).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        att = torch.softmax(torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.hd), -1)
        y = torch.matmul(att, v).transpose(1, 2).reshape(-1, length, self.heads * self.hd)
        return self.out(y)


class _Encoder(nn.Module):
    """Pre-norm Transformer layer: attention and a GELU MLP (4x), each
    with a residual."""

    def __init__(self, dim, heads, length, ratio=4):
        super().__init__()
        self.n1, self.att = nn.LayerNorm(dim), _Attention(dim, heads, length)
        self.n2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, ratio * dim), nn.GELU(), nn.Linear(ratio * dim, dim))

    def forward(self, x):
        x = x + self.att(self.n1(x))
        return x + self.mlp(self.n2(x))


class _TNTBlock(nn.Module):
    """TNT block: the inner layer on each patch's pixel tokens, their
    LayerNorm'd flattening projected (Linear) and added to the patch
    tokens (not the class token), then the outer layer."""

    def __init__(self, inner_dim, inner_heads, pixels, dim, heads, patches):
        super().__init__()
        self.patches, self.flat = patches, pixels * inner_dim
        self.inner = _Encoder(inner_dim, inner_heads, pixels)
        self.norm = nn.LayerNorm(pixels * inner_dim)
        self.proj = nn.Linear(pixels * inner_dim, dim)
        self.outer = _Encoder(dim, heads, patches + 1)

    def forward(self, pix, tok):                   # (N*P, p, c), (N, 1+P, D)
        pix = self.inner(pix)
        add = self.proj(self.norm(pix.reshape(-1, self.patches, self.flat)))
        tok = torch.cat([tok[:, :1], tok[:, 1:] + add], 1)
        return pix, self.outer(tok)


class TNTLite(nn.Module):
    """Transformer in Transformer (Han et al.) on 128 x 128 images: 16 x
    16 patches (Reshape, Transpose), each embedded by a 7x7 stride-4 Conv
    into 4 x 4 = 16 pixel tokens of width 24 plus a learned position;
    patch tokens from the LayerNorm'd, flattened pixel tokens by a Linear
    to 192, a class token and positions; 6 TNT blocks (inner 4 heads,
    outer 3 heads), a final LayerNorm and a Linear on the class token to
    100 classes."""

    def __init__(self, size=128, patch=16, inner_dim=24, dim=192, depth=6, classes=100):
        super().__init__()
        self.grid, self.patch = size // patch, patch
        pixels = (patch // 4) ** 2
        self.flat = pixels * inner_dim
        self.pix_embed = nn.Conv2d(3, inner_dim, 7, 4, 3)
        self.pix_pos = nn.Parameter(0.02 * torch.randn(1, pixels, inner_dim))
        self.norm1 = nn.LayerNorm(pixels * inner_dim)
        self.tok_embed = nn.Linear(pixels * inner_dim, dim)
        self.norm2 = nn.LayerNorm(dim)
        self.cls = nn.Parameter(0.02 * torch.randn(1, 1, dim))
        self.tok_pos = nn.Parameter(0.02 * torch.randn(1, 1 + self.grid ** 2, dim))
        self.blocks = nn.ModuleList([_TNTBlock(inner_dim, 4, pixels, dim, 3, self.grid ** 2)
                                     for _ in range(depth)])
        self.norm = nn.LayerNorm(dim)
        self.fc = nn.Linear(dim, classes)

    def forward(self, image):                      # (N, 3, 128, 128)
        g, p = self.grid, self.patch
        x = image.reshape(-1, 3, g, p, g, p).permute(0, 2, 4, 1, 3, 5).reshape(-1, 3, p, p)
        pix = self.pix_embed(x).flatten(2).transpose(1, 2) + self.pix_pos    # (N*P, 16, c)
        tok = self.norm2(self.tok_embed(self.norm1(pix.reshape(-1, g * g, self.flat))))
        tok = torch.cat([self.cls.expand(tok.shape[0], -1, -1), tok], 1) + self.tok_pos
        for blk in self.blocks:
            pix, tok = blk(pix, tok)
        return self.fc(self.norm(tok[:, 0]))


BLIND21 = {
    "cordic_rotator": dict(ctor=CordicRotator, family="cordic-shift-add-rotation",
                           inputs=[("items", ("N", 32, 4), "float32", None)]),
    "waterfill_bisect": dict(ctor=WaterfillBisect, family="water-filling-bisection",
                             inputs=[("gains", ("N", 8, 64), "float32", None)]),
    "spline_thomas": dict(ctor=SplineThomas, family="natural-cubic-spline-thomas",
                          inputs=[("samples", ("N", 8, 24), "float32", None)]),
    "durand_kerner": dict(ctor=DurandKerner, family="durand-kerner-polynomial-roots",
                          inputs=[("polys", ("N", 4, 16), "float32", None)]),
    "ccl_pointer_jump": dict(ctor=CCLPointerJump, family="connected-component-labeling",
                             inputs=[("image", ("N", 1, 40, 40), "float32", None)]),
    "bradley_terry_mm": dict(ctor=BradleyTerryMM, family="bradley-terry-mm-ranking",
                             inputs=[("players", ("N", 16, 6), "float32", None)]),
    "unetpp_seg": dict(ctor=UNetPP, family="nested-dense-skip-unet",
                       inputs=[("image", ("N", 3, 96, 96), "float32", None)]),
    "hardnet_lite": dict(ctor=HarDNetLite, family="harmonic-dense-connectivity",
                         inputs=[("image", ("N", 3, 128, 128), "float32", None)]),
    "fasternet_t0": dict(ctor=FasterNetT0, family="partial-channel-convolution",
                         inputs=[("image", ("N", 3, 224, 224), "float32", None)]),
    "slowfast_lite": dict(ctor=SlowFastLite, family="two-pathway-slowfast-video",
                          inputs=[("clip", ("N", 3, 16, 64, 64), "float32", None)]),
    "scinet_forecast": dict(ctor=SCINetForecast, family="sample-convolution-interaction-tree",
                            inputs=[("series", ("N", 336, 32), "float32", None)]),
    "tnt_lite": dict(ctor=TNTLite, family="transformer-in-transformer",
                     inputs=[("image", ("N", 3, 128, 128), "float32", None)]),
}
