r"""BLIND23: the twenty-third blind set, written on 2026-12-06 by a helper
session before any of it was measured.  Nothing in it has been timed,
profiled or run through onnxcost predict; it is to be measured first and
scored once only, at the end, with the code as it stands then
(bench/zoo_accuracy.py --set blind23).  None of its twelve families occurs
in another set (ZOO, BLIND, BLIND2 ... BLIND22, the reference models), so
no plan rule, feature, fit or calibration can have been made with any of
them in view.

Six families unroll a classical numerical procedure into a fixed graph of
small kernels at batch 1 (tensors of a few thousand elements or fewer,
some hundreds of nodes), each with a small learned part:

  * Romberg integration (Romberg, "Vereinfachte numerische Integration",
    1955): the trapezoid rule on a halving grid, each level adding only the
    new midpoints, followed by the Richardson extrapolation triangle;
    8 integrands per sample, each a sum of Gaussian bumps placed by an MLP,
    three moments integrated at once over nine levels.
  * Newton's method for Kepler's equation E - e sin E = M (the classical
    two-body problem; Newton's iteration as in Danby, "Fundamentals of
    Celestial Mechanics"): 16 orbits per sample whose elements come from an
    MLP, propagated over 10 epochs, four Newton steps per epoch warm-started
    from the previous epoch, then the planar position from E.
  * Golden-section search (Kiefer, "Sequential minimax search for a
    maximum", 1953): 32 one-dimensional learned objectives per sample
    (quadratic wells plus cosines), 20 shrinking steps with one new
    objective evaluation per step, the bracket updated by Where.
  * Escape-time iteration of the Mandelbrot map z <- z^2 + c (Mandelbrot,
    "The Fractal Geometry of Nature", 1982): an MLP picks a view (centre,
    zoom, rotation), a 24 x 24 grid of c is iterated 30 times in real
    arithmetic with frozen escaped points and a running escape count, and
    a tiny Conv head reads the count map.
  * PageRank by power iteration (Brin & Page, "The Anatomy of a
    Large-Scale Hypertextual Web Search Engine", 1998; personalised form
    after Haveliwala, 2002): a 32-node row-stochastic link matrix from a
    Softmax of learned node scores, four personalisation vectors, a
    learned damping factor, 40 iterations with a residual kept per step.
  * Householder QR least squares (Householder, "Unitary Triangularization
    of a Nonsymmetric Matrix", 1958; Golub's 1965 use for least squares):
    4 overdetermined 16 x 8 systems per sample from a Linear layer, eight
    reflections applied to the matrix, the right-hand side and an explicit
    Q, then back substitution row by row.

The other six are published network designs of ordinary sizes:

  * SKNet (Li, Wang, Hu & Yang, "Selective Kernel Networks", 2019):
    ResNeXt-style bottlenecks whose grouped 3 x 3 Conv is split into a
    plain and a dilated branch, fused by a squeeze and a per-branch
    Softmax attention over channels; 160 x 160 images.
  * CCNet (Huang, Wang, Huang, Huang, Wei & Liu, "CCNet: Criss-Cross
    Attention for Semantic Segmentation", 2019): a dilated residual backbone
    to 1/8, criss-cross attention (each position attends to its row and
    its column only) applied twice with shared weights, a segmentation
    head; 256 x 256 images.
  * Vision Permutator (Hou, Jiang, Yuan, Cheng, Yan & Feng, "Vision
    Permutator: A Permutable MLP-Like Architecture for Visual Recognition",
    2021): Permute-MLP layers that mix along height, width and channels by
    reshaping channel segments into the spatial axes, with split-attention
    reweighting of the three branches; 224 x 224 images, 14 x 14 patches.
  * Coordinate attention (Hou, Zhou & Feng, "Coordinate Attention for
    Efficient Mobile Network Design", 2021) in a MobileNetV2 (Sandler et
    al., 2018): every inverted residual gated by attention maps pooled
    along height and along width separately; 224 x 224 images.
  * PyramidNet (Han, Kim & Kim, "Deep Pyramidal Residual Networks", 2017):
    CIFAR-style residual units whose width grows by a fixed step at every
    unit, the shortcut zero-padded in channels (and average-pooled where
    the unit strides); 32 x 32 images.
  * CondenseNet (Huang, Liu, van der Maaten & Weinberger, "CondenseNet: An
    Efficient DenseNet using Learned Group Convolutions", 2018) in its
    condensed test-time form: dense layers whose 1 x 1 group Conv reads an
    index-selected set of input channels, a channel shuffle and a 3 x 3
    group Conv, with exponentially increasing growth rates; 224 x 224
    images.

To be measured with

    OMP_WAIT_POLICY=PASSIVE /usr/bin/python3 scripts/measure_zoo.py --set blind23 \
        romberg_moments kepler_newton_orbits golden_section_search \
        mandelbrot_escape pagerank_power householder_lstsq sknet_lite \
        ccnet_seg vip_permutator ca_mobilenetv2 pyramidnet_cifar \
        condensenet_lite \
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


def _conv_bn(cin, cout, k=3, stride=1, groups=1, act=True, dilation=1):
    """Conv2d (no bias, 'same' padding for odd k), BatchNorm, optional ReLU."""
    pad = dilation * (k // 2)
    layers = [nn.Conv2d(cin, cout, k, stride, pad, dilation=dilation, groups=groups, bias=False),
              nn.BatchNorm2d(cout)]
    if act:
        layers.append(nn.ReLU())
    return nn.Sequential(*layers)


# --------------------------------------------------------------------------
# Unrolled numerical procedures: small kernels at batch 1
# --------------------------------------------------------------------------

class RombergMoments(nn.Module):
    """Romberg integration over [0, 1] of 8 integrands per sample.  An MLP
    turns each integrand's 6 features into 4 Gaussian bumps (height,
    centre, Softplus width); the zeroth, first and second moments are
    integrated together.  Level 0 is the two-point trapezoid; level k adds
    the 2^(k-1) new midpoints (constant buffers) and halves the previous
    estimate; then R[k][j] = R[k][j-1] + (R[k][j-1] - R[k-1][j-1]) / (4^j -
    1).  Returns the final table entry, the diagonal's successive
    differences and an MLP readout."""

    def __init__(self, feats=6, bumps=4, levels=9):
        super().__init__()
        self.bumps, self.levels = bumps, levels
        self.param = _mlp(feats, 32, 3 * bumps)
        self.register_buffer("ends", torch.tensor([0.0, 1.0]))
        for k in range(1, levels):
            n = 2 ** (k - 1)
            pts = (2.0 * torch.arange(n, dtype=torch.float32) + 1.0) / (2.0 * n)
            self.register_buffer(f"mid{k}", pts)
        self.head = _mlp(3 + levels - 1, 32, 4)

    def _moments(self, x, a, c, s):
        # x (P,), a/c/s (N, S, J, 1) -> (N, S, 3) summed over the points
        d = x - c
        f = (a * torch.exp(-d * d * s)).sum(2)                               # (N, S, P)
        return torch.stack([f.sum(-1), (f * x).sum(-1), (f * x * x).sum(-1)], -1)

    def forward(self, params):                    # (N, 8, 6)
        j = self.bumps
        p = self.param(params)
        a = p[..., :j].unsqueeze(-1)
        c = torch.sigmoid(p[..., j:2 * j]).unsqueeze(-1)
        s = (F.softplus(p[..., 2 * j:]) * 20.0 + 2.0).unsqueeze(-1)
        rows = [[0.5 * self._moments(self.ends, a, c, s)]]
        for k in range(1, self.levels):
            h = 1.0 / (2 ** k)
            t = 0.5 * rows[k - 1][0] + h * self._moments(getattr(self, f"mid{k}"), a, c, s)
            row = [t]
            for m in range(1, k + 1):
                prev = row[m - 1]
                row.append(prev + (prev - rows[k - 1][m - 1]) / (4.0 ** m - 1.0))
            rows.append(row)
        diag = [r[-1] for r in rows]
        diffs = torch.stack([(diag[k] - diag[k - 1]).abs().sum(-1) for k in range(1, self.levels)], -1)
        best = diag[-1]
        return best, diffs, self.head(torch.cat([best, diffs], -1)).mean(1)


class KeplerNewtonOrbits(nn.Module):
    """Two-body orbit propagation for 16 orbits per sample: an MLP maps 6
    features to eccentricity (Sigmoid, at most 0.9), semi-major axis
    (Softplus), mean motion, initial mean anomaly and argument of
    periapsis.  For each of 10 epochs the mean anomaly advances and
    Kepler's equation is solved by four Newton steps E <- E - (E - e sin E
    - M) / (1 - e cos E), warm-started from the previous epoch's E plus the
    step; x = a (cos E - e), y = a sqrt(1 - e^2) sin E, rotated by the
    periapsis argument.  Returns the track and an MLP readout."""

    def __init__(self, feats=6, epochs=10, newton=4):
        super().__init__()
        self.epochs, self.newton = epochs, newton
        self.elements = _mlp(feats, 32, 5)
        self.head = _mlp(2 * epochs, 32, 4)

    def forward(self, orbits):                    # (N, 16, 6)
        el = self.elements(orbits)
        e = 0.9 * torch.sigmoid(el[..., 0])
        a = F.softplus(el[..., 1]) + 0.5
        n = 0.3 + 0.2 * torch.sigmoid(el[..., 2])
        m = el[..., 3]
        w = el[..., 4]
        cw, sw = torch.cos(w), torch.sin(w)
        b = a * torch.sqrt(1.0 - e * e)
        ecc = m
        xs, ys = [], []
        for _ in range(self.epochs):
            m = m + n
            ecc = ecc + n
            for _ in range(self.newton):
                ecc = ecc - (ecc - e * torch.sin(ecc) - m) / (1.0 - e * torch.cos(ecc))
            px = a * (torch.cos(ecc) - e)
            py = b * torch.sin(ecc)
            xs.append(cw * px - sw * py)
            ys.append(sw * px + cw * py)
        track = torch.stack([torch.stack(xs, -1), torch.stack(ys, -1)], -1)   # (N, 16, T, 2)
        return track, self.head(track.flatten(2)).mean(1)


class GoldenSectionSearch(nn.Module):
    """Golden-section minimisation on [-2, 2] of 32 learned objectives per
    sample, f(x) = sum_j softplus(a_j) (x - m_j)^2 + b_j cos(w_j x) with
    three terms from a Linear layer.  The interior points c < d and their
    values are kept; each of 20 steps compares f(c) and f(d), narrows the
    bracket with Where, evaluates f once at the one new interior point and
    shifts the kept value.  Returns the minimiser, its value, the bracket
    width and an MLP readout."""

    def __init__(self, feats=6, terms=3, steps=20):
        super().__init__()
        self.terms, self.steps = terms, steps
        self.coef = nn.Linear(feats, 4 * terms)
        self.g = (math.sqrt(5.0) - 1.0) / 2.0
        self.head = _mlp(3, 32, 4)

    def _f(self, x, q):
        t = self.terms
        x = x.unsqueeze(-1)
        d = x - q[..., t:2 * t]
        return (q[..., :t] * d * d + q[..., 2 * t:3 * t] * torch.cos(q[..., 3 * t:] * x)).sum(-1)

    def forward(self, probs):                     # (N, 32, 6)
        t = self.terms
        raw = self.coef(probs)
        q = torch.cat([F.softplus(raw[..., :t]), raw[..., t:3 * t], 1.0 + 2.0 * torch.sigmoid(raw[..., 3 * t:])], -1)
        lo = torch.full_like(probs[..., 0], -2.0)
        hi = lo + 4.0
        g = self.g
        c = hi - g * (hi - lo)
        d = lo + g * (hi - lo)
        fc, fd = self._f(c, q), self._f(d, q)
        for _ in range(self.steps):
            left = fc < fd
            lo2 = torch.where(left, lo, c)
            hi2 = torch.where(left, d, hi)
            width = hi2 - lo2
            x = torch.where(left, hi2 - g * width, lo2 + g * width)
            fx = self._f(x, q)
            c, d = torch.where(left, x, d), torch.where(left, c, x)
            fc, fd = torch.where(left, fx, fd), torch.where(left, fc, fx)
            lo, hi = lo2, hi2
        xm = torch.where(fc < fd, c, d)
        fm = torch.minimum(fc, fd)
        out = torch.stack([xm, fm, hi - lo], -1)
        return out, self.head(out).mean(1)


class MandelbrotEscape(nn.Module):
    """Escape-time iteration of z <- z^2 + c over a 24 x 24 grid per sample:
    an MLP maps 8 features to a view (centre, log zoom, rotation); the grid
    of c is the rotated, scaled constant lattice.  30 iterations in real
    arithmetic: points still inside (|z|^2 < 4) update, escaped points stay
    frozen (Where), the escape count accumulates.  A small Conv head reads
    the normalised count map and the final |z|^2."""

    def __init__(self, feats=8, grid=24, iters=30):
        super().__init__()
        self.iters = iters
        self.view = _mlp(feats, 32, 4)
        lin = torch.linspace(-1.0, 1.0, grid)
        gy, gx = torch.meshgrid(lin, lin, indexing="ij")
        self.register_buffer("gx", gx)
        self.register_buffer("gy", gy)
        self.conv = nn.Sequential(nn.Conv2d(2, 8, 3, 2, 1), nn.ReLU(), nn.Conv2d(8, 16, 3, 2, 1), nn.ReLU())
        self.fc = nn.Linear(16, 4)

    def forward(self, views):                     # (N, 8)
        v = self.view(views)
        cx = (v[:, 0] * 0.5 - 0.5).view(-1, 1, 1)
        cy = (v[:, 1] * 0.5).view(-1, 1, 1)
        sc = (1.5 * torch.exp(-F.softplus(v[:, 2]))).view(-1, 1, 1)
        ang = v[:, 3].view(-1, 1, 1)
        ca, sa = torch.cos(ang), torch.sin(ang)
        cr = cx + sc * (ca * self.gx - sa * self.gy)
        ci = cy + sc * (sa * self.gx + ca * self.gy)
        zr, zi = cr, ci
        count = torch.zeros_like(cr)
        for _ in range(self.iters):
            zr2, zi2 = zr * zr, zi * zi
            inside = (zr2 + zi2) < 4.0
            nr = zr2 - zi2 + cr
            ni = 2.0 * zr * zi + ci
            zr = torch.where(inside, nr, zr)
            zi = torch.where(inside, ni, zi)
            count = count + inside.float()
        mag = torch.clamp(zr * zr + zi * zi, max=16.0)
        maps = torch.stack([count / self.iters, mag / 16.0], 1)
        return maps, self.fc(self.conv(maps).mean((2, 3)))


class PageRankPower(nn.Module):
    """Personalised PageRank by power iteration on a 32-node graph per
    sample: Linear source and target embeddings give link scores, a
    row-wise Softmax makes the row-stochastic link matrix P; four
    personalisation vectors come from a Linear layer and a Softmax over
    nodes; damping is 0.65 + 0.3 Sigmoid(learned).  40 iterations of r <-
    d P^T r + (1 - d) v, with the L1 residual of every step kept.  Returns
    the ranks, the residual trace and an MLP readout."""

    def __init__(self, feats=8, dim=16, vecs=4, iters=40):
        super().__init__()
        self.iters, self.dim = iters, dim
        self.src = nn.Linear(feats, dim)
        self.dst = nn.Linear(feats, dim)
        self.pers = nn.Linear(feats, vecs)
        self.damp = nn.Parameter(torch.tensor(0.5))
        self.head = _mlp(vecs + 1, 32, 4)

    def forward(self, nodes):                     # (N, 32, 8)
        s = torch.matmul(self.src(nodes), self.dst(nodes).transpose(1, 2)) / math.sqrt(self.dim)
        pt = torch.softmax(s, -1).transpose(1, 2)                           # P^T (N, 32, 32)
        v = torch.softmax(self.pers(nodes), 1)                              # (N, 32, 4)
        d = 0.65 + 0.3 * torch.sigmoid(self.damp)
        tele = (1.0 - d) * v
        r = v
        res = []
        for _ in range(self.iters):
            nr = d * torch.matmul(pt, r) + tele
            res.append((nr - r).abs().sum((1, 2)))
            r = nr
        trace = torch.stack(res, -1)
        feat = torch.cat([r, r.max(-1, keepdim=True)[0]], -1)
        return r, trace, self.head(feat).mean(1)


class HouseholderLstsq(nn.Module):
    """Householder QR least squares for 4 overdetermined systems of 16 x 8
    per sample: a Linear layer maps each row's 10 features to 8
    coefficients and a right-hand side.  For each column k: x the column
    masked to rows >= k (constant masks), alpha = -sign(x_k) ||x||, v = x -
    alpha e_k normalised, R <- R - 2 v (v^T R), b <- b - 2 v (v^T b), Q <- Q
    - 2 (Q v) v^T.  Back substitution on the top 8 x 8 triangle row by
    row.  Returns the solution, the residual norm, diag(R) and an MLP
    readout."""

    def __init__(self, rows=16, cols=8, feats=10):
        super().__init__()
        self.rows, self.cols = rows, cols
        self.lin = nn.Linear(feats, cols + 1)
        self.register_buffer("eye", torch.eye(rows))
        mask = torch.zeros(cols, rows, 1)
        for k in range(cols):
            mask[k, k:] = 1.0
        self.register_buffer("mask", mask)
        self.head = _mlp(2 * cols + 1, 32, 4)

    def forward(self, rows):                      # (N, 4, 16, 10)
        n = self.cols
        ab = self.lin(rows)
        r = ab[..., :n]
        b = ab[..., n:]                                                     # (N, S, m, 1)
        q = self.eye + 0.0 * r[..., :1]                                     # (N, S, m, m)
        for k in range(n):
            x = r[..., k:k + 1] * self.mask[k]                              # (N, S, m, 1)
            xk = x[..., k:k + 1, :]
            sgn = torch.where(xk >= 0, torch.ones_like(xk), -torch.ones_like(xk))
            alpha = -sgn * torch.sqrt((x * x).sum(-2, keepdim=True) + 1e-12)
            v = x - alpha * self.eye[:, k:k + 1]
            v = v / torch.sqrt((v * v).sum(-2, keepdim=True) + 1e-12)
            vt = v.transpose(-1, -2)
            r = r - 2.0 * v * torch.matmul(vt, r)
            b = b - 2.0 * v * torch.matmul(vt, b)
            q = q - 2.0 * torch.matmul(q, v) * vt
        top = r[..., :n, :]
        eye = self.eye[:n, :n]
        sol = torch.zeros_like(b[..., :n, :])
        for i in reversed(range(n)):
            t = b[..., i:i + 1, :] - torch.matmul(top[..., i:i + 1, :], sol)
            sol = sol + (t / top[..., i:i + 1, i:i + 1]) * eye[:, i:i + 1]
        resid = torch.sqrt((b[..., n:, :] ** 2).sum((-2, -1)))
        diag = (top * eye).sum(-1)
        sol = sol.squeeze(-1)
        feat = torch.cat([sol, diag, resid.unsqueeze(-1)], -1)
        return sol, q, self.head(feat).mean(1)


# --------------------------------------------------------------------------
# Published network designs
# --------------------------------------------------------------------------

class _SKConv(nn.Module):
    """Selective kernel: grouped 3x3 and dilated grouped 3x3 branches, fused
    by GAP and a bottleneck FC, per-branch channel Softmax attention."""

    def __init__(self, c, stride, groups=8, r=8):
        super().__init__()
        self.b1 = _conv_bn(c, c, 3, stride, groups=groups)
        self.b2 = _conv_bn(c, c, 3, stride, groups=groups, dilation=2)
        z = max(c // r, 16)
        self.fc = nn.Sequential(nn.Conv2d(c, z, 1, bias=False), nn.BatchNorm2d(z), nn.ReLU())
        self.sel = nn.Conv2d(z, 2 * c, 1)
        self.c = c

    def forward(self, x):
        u1, u2 = self.b1(x), self.b2(x)
        s = (u1 + u2).mean((2, 3), keepdim=True)
        w = self.sel(self.fc(s)).view(-1, 2, self.c, 1, 1).softmax(1)
        return u1 * w[:, 0] + u2 * w[:, 1]


class _SKBlock(nn.Module):
    def __init__(self, cin, mid, cout, stride):
        super().__init__()
        self.body = nn.Sequential(_conv_bn(cin, mid, 1), _SKConv(mid, stride), _conv_bn(mid, cout, 1, act=False))
        self.short = None
        if stride != 1 or cin != cout:
            self.short = _conv_bn(cin, cout, 1, stride, act=False)

    def forward(self, x):
        s = x if self.short is None else self.short(x)
        return F.relu(self.body(x) + s)


class SKNetLite(nn.Module):
    """A narrow SKNet on 160 x 160 images: a stride-2 stem and max pool to
    40 x 40, four stages of SK bottlenecks (mid 32, 64, 128, 256; out 64,
    128, 256, 512; 1, 2, 2, 1 blocks; groups 8), GAP and a 1000-way FC."""

    def __init__(self, classes=1000):
        super().__init__()
        self.stem = nn.Sequential(_conv_bn(3, 32, 3, 2), _conv_bn(32, 32, 3), nn.MaxPool2d(3, 2, 1))
        layers, cin = [], 32
        for mid, cout, n, stride in [(32, 64, 1, 1), (64, 128, 2, 2), (128, 256, 2, 2), (256, 512, 1, 2)]:
            for i in range(n):
                layers.append(_SKBlock(cin, mid, cout, stride if i == 0 else 1))
                cin = cout
        self.layers = nn.Sequential(*layers)
        self.fc = nn.Linear(cin, classes)

    def forward(self, image):
        return self.fc(self.layers(self.stem(image)).mean((2, 3)))


class _CrissCross(nn.Module):
    """Criss-cross attention: each position attends over its column (self
    excluded by a constant -inf-like diagonal) and its row; one Softmax over
    the H + W energies; gamma-scaled residual."""

    def __init__(self, c, h, w):
        super().__init__()
        self.q = nn.Conv2d(c, c // 8, 1)
        self.k = nn.Conv2d(c, c // 8, 1)
        self.v = nn.Conv2d(c, c, 1)
        self.gamma = nn.Parameter(torch.tensor(0.1))
        self.h = h
        self.register_buffer("diag", torch.eye(h) * -1e4)

    def forward(self, x):
        h = self.h
        q, k, v = self.q(x), self.k(x), self.v(x)
        e_h = torch.matmul(q.permute(0, 3, 2, 1), k.permute(0, 3, 1, 2)) + self.diag   # (N, W, H, H)
        e_w = torch.matmul(q.permute(0, 2, 3, 1), k.permute(0, 2, 1, 3))               # (N, H, W, W)
        att = torch.cat([e_h.permute(0, 2, 1, 3), e_w], -1).softmax(-1)                 # (N, H, W, H+W)
        a_h = att[..., :h].permute(0, 2, 1, 3)                                          # (N, W, H, H)
        a_w = att[..., h:]                                                              # (N, H, W, W)
        o_h = torch.matmul(a_h, v.permute(0, 3, 2, 1)).permute(0, 3, 2, 1)
        o_w = torch.matmul(a_w, v.permute(0, 2, 3, 1)).permute(0, 3, 1, 2)
        return self.gamma * (o_h + o_w) + x


class _BasicRes(nn.Module):
    def __init__(self, cin, cout, stride=1, dilation=1):
        super().__init__()
        self.body = nn.Sequential(_conv_bn(cin, cout, 3, stride, dilation=dilation),
                                  _conv_bn(cout, cout, 3, dilation=dilation, act=False))
        self.short = None if (stride == 1 and cin == cout) else _conv_bn(cin, cout, 1, stride, act=False)

    def forward(self, x):
        return F.relu(self.body(x) + (x if self.short is None else self.short(x)))


class CCNetSeg(nn.Module):
    """CCNet on 256 x 256 images, 19 classes: a narrow residual backbone
    kept at 1/8 by dilation (a stride-2 stem and max pool, two units of 32,
    two of 64 the first strided, one of 96 dilated 2, one of 128 dilated
    4), a 3x3 reduction to 64, the criss-cross module applied twice with
    shared weights (R = 2), a 3x3 Conv on the concatenation with the
    backbone output, a 1x1 classifier and bilinear upsampling x8."""

    def __init__(self, classes=19, size=256):
        super().__init__()
        s = size // 8
        self.stem = nn.Sequential(_conv_bn(3, 32, 3, 2), nn.MaxPool2d(3, 2, 1))
        self.backbone = nn.Sequential(
            _BasicRes(32, 32), _BasicRes(32, 32),
            _BasicRes(32, 64, 2), _BasicRes(64, 64),
            _BasicRes(64, 96, 1, 2), _BasicRes(96, 128, 1, 4))
        self.reduce = _conv_bn(128, 64, 3)
        self.cca = _CrissCross(64, s, s)
        self.after = _conv_bn(64, 64, 3)
        self.fuse = _conv_bn(128 + 64, 64, 3)
        self.cls = nn.Conv2d(64, classes, 1)

    def forward(self, image):
        f = self.backbone(self.stem(image))
        y = self.reduce(f)
        for _ in range(2):
            y = self.cca(y)
        y = self.fuse(torch.cat([f, self.after(y)], 1))
        return F.interpolate(self.cls(y), scale_factor=8.0, mode="bilinear", align_corners=False)


class _PermuteMLP(nn.Module):
    """Height, width and channel mixing on (N, H, W, C) with C = S * H:
    channel segments swapped with the height (or width) axis, one Linear,
    swapped back; split-attention weights over the three branches."""

    def __init__(self, dim, side):
        super().__init__()
        self.side, self.seg = side, dim // side
        self.mh = nn.Linear(dim, dim, bias=False)
        self.mw = nn.Linear(dim, dim, bias=False)
        self.mc = nn.Linear(dim, dim, bias=False)
        self.rw = nn.Sequential(nn.Linear(dim, dim // 4), nn.GELU(), nn.Linear(dim // 4, 3 * dim))
        self.proj = nn.Linear(dim, dim)
        self.dim = dim

    def forward(self, x):                         # (N, H, W, C)
        s, g, c = self.side, self.seg, self.dim
        xh = x.reshape(-1, s, s, g, s).permute(0, 4, 2, 3, 1).reshape(-1, s, s, c)
        h = self.mh(xh).reshape(-1, s, s, g, s).permute(0, 4, 2, 3, 1).reshape(-1, s, s, c)
        xw = x.reshape(-1, s, s, g, s).permute(0, 1, 4, 3, 2).reshape(-1, s, s, c)
        w = self.mw(xw).reshape(-1, s, s, g, s).permute(0, 1, 4, 3, 2).reshape(-1, s, s, c)
        ch = self.mc(x)
        a = (h + w + ch).mean((1, 2))
        a = self.rw(a).reshape(-1, 3, c).softmax(1).unsqueeze(2).unsqueeze(2)   # (N, 3, 1, 1, C)
        return self.proj(h * a[:, 0] + w * a[:, 1] + ch * a[:, 2])


class _PermutatorBlock(nn.Module):
    def __init__(self, dim, side, ratio=3):
        super().__init__()
        self.n1 = nn.LayerNorm(dim)
        self.mix = _PermuteMLP(dim, side)
        self.n2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, ratio * dim), nn.GELU(), nn.Linear(ratio * dim, dim))

    def forward(self, x):
        x = x + self.mix(self.n1(x))
        return x + self.mlp(self.n2(x))


class VisionPermutatorLite(nn.Module):
    """Vision Permutator on 224 x 224 images: 14 x 14 patches give a 16 x 16
    grid of 192-wide tokens (12 segments of 16), 6 Permutator blocks (MLP
    ratio 3), LayerNorm, mean pooling and a 1000-way head."""

    def __init__(self, dim=192, depth=6, patch=14, size=224, classes=1000):
        super().__init__()
        side = size // patch
        self.embed = nn.Conv2d(3, dim, patch, patch)
        self.blocks = nn.Sequential(*[_PermutatorBlock(dim, side) for _ in range(depth)])
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, classes)

    def forward(self, image):
        x = self.embed(image).permute(0, 2, 3, 1)
        x = self.norm(self.blocks(x))
        return self.head(x.mean((1, 2)))


class _CoordAtt(nn.Module):
    """Coordinate attention: average pools along W and along H, a shared 1x1
    Conv-BN-h-swish on their concatenation, split, two 1x1 Convs with
    Sigmoid; x * a_h * a_w."""

    def __init__(self, c, r=32):
        super().__init__()
        m = max(8, c // r)
        self.shared = nn.Sequential(nn.Conv2d(c, m, 1, bias=False), nn.BatchNorm2d(m), nn.Hardswish())
        self.ah = nn.Conv2d(m, c, 1)
        self.aw = nn.Conv2d(m, c, 1)

    def forward(self, x):
        h, w = x.shape[2], x.shape[3]
        ph = x.mean(3, keepdim=True)                                  # (N, C, H, 1)
        pw = x.mean(2, keepdim=True).permute(0, 1, 3, 2)              # (N, C, W, 1)
        y = self.shared(torch.cat([ph, pw], 2))
        yh, yw = torch.split(y, [h, w], 2)
        return x * torch.sigmoid(self.ah(yh)) * torch.sigmoid(self.aw(yw.permute(0, 1, 3, 2)))


class _CAInverted(nn.Module):
    def __init__(self, cin, cout, stride, expand):
        super().__init__()
        mid = cin * expand
        layers = []
        if expand != 1:
            layers += [nn.Conv2d(cin, mid, 1, bias=False), nn.BatchNorm2d(mid), nn.ReLU6()]
        layers += [nn.Conv2d(mid, mid, 3, stride, 1, groups=mid, bias=False), nn.BatchNorm2d(mid), nn.ReLU6(),
                   _CoordAtt(mid), nn.Conv2d(mid, cout, 1, bias=False), nn.BatchNorm2d(cout)]
        self.body = nn.Sequential(*layers)
        self.res = stride == 1 and cin == cout

    def forward(self, x):
        y = self.body(x)
        return x + y if self.res else y


class CAMobileNetV2(nn.Module):
    """MobileNetV2 (width 1.0) on 224 x 224 images with coordinate attention
    after every depthwise Conv; the standard (t, c, n, s) table, a 1280-wide
    last 1x1 Conv and a 1000-way head."""

    def __init__(self, classes=1000):
        super().__init__()
        layers = [nn.Conv2d(3, 32, 3, 2, 1, bias=False), nn.BatchNorm2d(32), nn.ReLU6()]
        cin = 32
        for t, c, n, s in [(1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2),
                           (6, 96, 3, 1), (6, 160, 3, 2), (6, 320, 1, 1)]:
            for i in range(n):
                layers.append(_CAInverted(cin, c, s if i == 0 else 1, t))
                cin = c
        layers += [nn.Conv2d(cin, 1280, 1, bias=False), nn.BatchNorm2d(1280), nn.ReLU6()]
        self.features = nn.Sequential(*layers)
        self.fc = nn.Linear(1280, classes)

    def forward(self, image):
        return self.fc(self.features(image).mean((2, 3)))


class _PyramidUnit(nn.Module):
    """BN, 3x3 Conv, BN, ReLU, 3x3 Conv, BN; shortcut average-pooled when
    strided and zero-padded in channels up to the new width."""

    def __init__(self, cin, cout, stride):
        super().__init__()
        self.body = nn.Sequential(nn.BatchNorm2d(cin), nn.Conv2d(cin, cout, 3, stride, 1, bias=False),
                                  nn.BatchNorm2d(cout), nn.ReLU(),
                                  nn.Conv2d(cout, cout, 3, 1, 1, bias=False), nn.BatchNorm2d(cout))
        self.stride, self.extra = stride, cout - cin

    def forward(self, x):
        s = F.avg_pool2d(x, 2, 2) if self.stride != 1 else x
        if self.extra:
            s = F.pad(s, (0, 0, 0, 0, 0, self.extra))
        return self.body(x) + s


class PyramidNetCifar(nn.Module):
    """PyramidNet on 32 x 32 images, 100 classes: a 16-wide stem, 3 stages
    of 8 basic pyramidal units, the width growing by alpha / 24 = 4 per
    unit from 16 to 112 (rounded down), stride 2 at the start of stages 2
    and 3; BN-ReLU, GAP and a linear head."""

    def __init__(self, alpha=96, units=8, classes=100):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 16, 3, 1, 1, bias=False), nn.BatchNorm2d(16))
        total = 3 * units
        width, cin, layers = 16.0, 16, []
        for stage in range(3):
            for i in range(units):
                width += alpha / total
                cout = int(math.floor(width))
                layers.append(_PyramidUnit(cin, cout, 2 if (stage > 0 and i == 0) else 1))
                cin = cout
        self.units = nn.Sequential(*layers)
        self.final = nn.Sequential(nn.BatchNorm2d(cin), nn.ReLU())
        self.fc = nn.Linear(cin, classes)

    def forward(self, image):
        return self.fc(self.final(self.units(self.stem(image))).mean((2, 3)))


class _CondenseLayer(nn.Module):
    """Condensed dense layer: BN-ReLU, index-select of the input channels
    (a fixed seeded pattern standing in for the learned pruning), 1x1 group
    Conv (4 groups) to 4 * growth, channel shuffle, BN-ReLU, 3x3 group Conv
    to growth; concatenated to the input."""

    def __init__(self, cin, growth, layer_id, groups=4):
        super().__init__()
        mid = 4 * growth
        self.groups = groups
        gen = torch.Generator().manual_seed(1000 + layer_id)
        self.register_buffer("index", torch.randint(0, cin, (cin,), generator=gen))
        self.pre = nn.Sequential(nn.BatchNorm2d(cin), nn.ReLU())
        self.conv1 = nn.Conv2d(cin, mid, 1, groups=groups, bias=False)
        self.post = nn.Sequential(nn.BatchNorm2d(mid), nn.ReLU(),
                                  nn.Conv2d(mid, growth, 3, 1, 1, groups=groups, bias=False))
        self.mid = mid

    def forward(self, x):
        y = torch.index_select(self.pre(x), 1, self.index)
        y = self.conv1(y)
        h, w = y.shape[2], y.shape[3]
        y = y.view(-1, self.groups, self.mid // self.groups, h, w).transpose(1, 2).reshape(-1, self.mid, h, w)
        return torch.cat([x, self.post(y)], 1)


class CondenseNetLite(nn.Module):
    """CondenseNet (test-time form) on 224 x 224 images: a stride-2 3x3
    stem of 16, five dense stages of 4, 6, 8, 10, 8 layers with growth 8,
    16, 32, 64, 128, 2x2 average pooling between stages (no transition
    Convs), BN-ReLU, GAP and a 1000-way head."""

    def __init__(self, classes=1000):
        super().__init__()
        self.stem = nn.Conv2d(3, 16, 3, 2, 1, bias=False)
        stages, cin, lid = [], 16, 0
        for si, (n, g) in enumerate([(4, 8), (6, 16), (8, 32), (10, 64), (8, 128)]):
            layers = []
            if si > 0:
                layers.append(nn.AvgPool2d(2, 2))
            for _ in range(n):
                layers.append(_CondenseLayer(cin, g, lid))
                cin += g
                lid += 1
            stages.append(nn.Sequential(*layers))
        self.stages = nn.Sequential(*stages)
        self.final = nn.Sequential(nn.BatchNorm2d(cin), nn.ReLU())
        self.fc = nn.Linear(cin, classes)

    def forward(self, image):
        return self.fc(self.final(self.stages(self.stem(image))).mean((2, 3)))


BLIND23 = {
    "romberg_moments": dict(ctor=RombergMoments, family="romberg-richardson-quadrature",
                            inputs=[("params", ("N", 8, 6), "float32", None)]),
    "kepler_newton_orbits": dict(ctor=KeplerNewtonOrbits, family="kepler-equation-newton",
                                 inputs=[("orbits", ("N", 16, 6), "float32", None)]),
    "golden_section_search": dict(ctor=GoldenSectionSearch, family="golden-section-line-search",
                                  inputs=[("probs", ("N", 32, 6), "float32", None)]),
    "mandelbrot_escape": dict(ctor=MandelbrotEscape, family="escape-time-fractal-iteration",
                              inputs=[("views", ("N", 8), "float32", None)]),
    "pagerank_power": dict(ctor=PageRankPower, family="pagerank-power-iteration",
                           inputs=[("nodes", ("N", 32, 8), "float32", None)]),
    "householder_lstsq": dict(ctor=HouseholderLstsq, family="householder-qr-least-squares",
                              inputs=[("rows", ("N", 4, 16, 10), "float32", None)]),
    "sknet_lite": dict(ctor=SKNetLite, family="selective-kernel",
                       inputs=[("image", ("N", 3, 160, 160), "float32", None)]),
    "ccnet_seg": dict(ctor=CCNetSeg, family="criss-cross-attention",
                      inputs=[("image", ("N", 3, 256, 256), "float32", None)]),
    "vip_permutator": dict(ctor=VisionPermutatorLite, family="permute-mlp",
                           inputs=[("image", ("N", 3, 224, 224), "float32", None)]),
    "ca_mobilenetv2": dict(ctor=CAMobileNetV2, family="coordinate-attention-mobile",
                           inputs=[("image", ("N", 3, 224, 224), "float32", None)]),
    "pyramidnet_cifar": dict(ctor=PyramidNetCifar, family="pyramidal-zero-pad-residual",
                             inputs=[("image", ("N", 3, 32, 32), "float32", None)]),
    "condensenet_lite": dict(ctor=CondenseNetLite, family="learned-group-convolution",
                             inputs=[("image", ("N", 3, 224, 224), "float32", None)]),
}
