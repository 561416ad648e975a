r"""BLIND20: the twentieth blind set, written on 2026-12-06 by a helper
session before any of it was measured.  Nothing here has been timed,
profiled or run through onnxcost predict; the set is to be measured first
and scored once only, at the end, with the code as it is then
(bench/zoo_accuracy.py --set blind20).  Its twelve families appear in no
other set (ZOO, BLIND, BLIND2 ... BLIND19, the reference models), so no
plan rule, feature, fit or calibration could have been shaped by them.

Six families are classical numerical algorithms unrolled into fixed
graphs of small kernels at batch 1 (most tensors of a few thousand
elements or fewer, hundreds of nodes):

  * Lanczos tridiagonalisation (Lanczos, "An iteration method for the
    solution of the eigenvalue problem of linear differential and integral
    operators", 1950; here with full reorthogonalisation against the
    stored basis): a 24 x 24 symmetric positive definite matrix built from
    learned features, 20 Krylov steps, the tridiagonal coefficients read
    out by an MLP.
  * Cholesky factorisation and triangular solves (Benoit's account of
    Cholesky's method; Golub & Van Loan, "Matrix Computations", ch. 4): a
    16 x 16 learned SPD system factorised column by column, then forward
    and backward substitution row by row, with the log-determinant.
  * The Levinson-Durbin recursion (Levinson 1947; Durbin 1960) for linear
    prediction of speech (Makhoul, "Linear Prediction: A Tutorial
    Review"): windowed frames, 17 autocorrelation lags by shifted
    products, an order-16 recursion giving predictor and reflection
    coefficients, log-area ratios into a small classifier.
  * The Floyd-Warshall all-pairs shortest path algorithm (Floyd,
    "Algorithm 97: Shortest Path", 1962) on a 24-node graph whose edge
    lengths come from a pairwise MLP, with hop counts carried alongside
    by Where, 24 relaxation rounds.
  * Classical fourth-order Runge-Kutta integration (Kutta 1901) of the
    Lorenz-96 system (Lorenz, "Predictability: a problem partly solved",
    1996): 40 cyclic sites, forcing from an MLP, 16 steps, the cyclic
    shifts by Slice and Concat.
  * Chebyshev spectral collocation (Trefethen, "Spectral Methods in
    MATLAB", ch. 6) for the viscous Burgers equation on 25 Chebyshev
    points: the differentiation matrix as a fixed MatMul, Dirichlet
    boundaries by a mask, 30 Heun steps, viscosity from an MLP.

The other six are published network designs of ordinary sizes:

  * Deep Layer Aggregation (Yu et al., "Deep Layer Aggregation"):
    recursive trees of residual blocks merged by aggregation nodes
    (Concat, 1x1 Conv, BatchNorm, ReLU) with iterative links across
    stages; 128 x 128 images.
  * U^2-Net (Qin et al., "U^2-Net: Going Deeper with Nested U-Structure
    for Salient Object Detection"): the small U^2-Net-P layout of
    residual U-blocks (RSU-7 ... RSU-4 and the dilated RSU-4F) in an outer
    U, six side outputs fused; 128 x 128 images.
  * The CBHG module of Tacotron (Wang et al., "Tacotron: Towards
    End-to-End Speech Synthesis"): a bank of 1-D Convs of widths 1 ... 8,
    stride-1 max pooling, Conv projections with a residual, four highway
    layers and a bidirectional GRU, on 80 x 128 mel frames.
  * ECAPA-TDNN (Desplanques et al., "ECAPA-TDNN: Emphasized Channel
    Attention, Propagation and Aggregation in TDNN Based Speaker
    Verification"): SE-Res2 dilated 1-D blocks, multi-layer feature
    aggregation and channel- and context-dependent attentive statistics
    pooling to a 192-dim embedding, on 80 x 200 filterbanks.
  * CRNN (Shi et al., "An End-to-End Trainable Neural Network for
    Image-based Sequence Recognition"): a VGG-style Conv stack with
    (2, 1) pooling collapsing the height of a 32 x 128 text line, columns
    read by a two-layer bidirectional LSTM, per-column log-probabilities
    for CTC.
  * ERFNet (Romera et al., "ERFNet: Efficient Residual Factorized ConvNet
    for Real-time Semantic Segmentation"): downsampler blocks (strided
    Conv concatenated with MaxPool), non-bottleneck-1D residual blocks of
    3x1 / 1x3 Conv pairs with dilations, a transposed-Conv decoder; a
    128 x 256 image.

To be measured with

    OMP_WAIT_POLICY=PASSIVE /usr/bin/python3 scripts/measure_zoo.py --set blind20 \
        lanczos_tridiag cholesky_solve levinson_lpc floyd_warshall \
        lorenz96_rk4 cheb_burgers dla_tree u2net_lite cbhg_encoder \
        ecapa_tdnn crnn_text erfnet_seg --threads 1 2 --batches 1 4 16

Same table form as export.py's ZOO (ctor, family, inputs); exported by
scripts/ort_graphs.py's export() (opset 13, symbolic batch N).
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def _cbr2d(cin, cout, k=3, stride=1, dilation=1):
    """Conv2d without bias, BatchNorm, ReLU, padded to keep the size."""
    return nn.Sequential(nn.Conv2d(cin, cout, k, stride, dilation * (k // 2), dilation, bias=False),
                         nn.BatchNorm2d(cout), nn.ReLU())


def _mlp(cin, hidden, cout):
    return nn.Sequential(nn.Linear(cin, hidden), nn.Tanh(), nn.Linear(hidden, cout))


# --------------------------------------------------------------------------
# Unrolled numerical algorithms: small kernels at batch 1
# --------------------------------------------------------------------------

class LanczosTridiag(nn.Module):
    """Lanczos iteration: features G (24 x 8) from an MLP of the fed rows,
    A = G G^T / 8 + I; the start vector a Linear of each fed row (Tanh,
    shifted), normalised; each of 20 steps w = A q - beta q_prev, alpha = q.w,
    w -= alpha q, then w reorthogonalised against all earlier q (one
    MatMul pair on the stacked basis), beta = |w|, q = w / beta.  Returns
    the alphas, the betas and an MLP readout of both."""

    def __init__(self, size=24, feats=6, rank=8, steps=20):
        super().__init__()
        self.size, self.rank, self.steps = size, rank, steps
        self.embed = _mlp(feats, 24, rank)
        self.start = nn.Linear(feats, 1)
        self.head = _mlp(2 * steps, 32, 6)

    def forward(self, rows):                       # (N, 24, 6)
        g = self.embed(rows)
        a = torch.matmul(g, g.transpose(1, 2)) / self.rank + torch.eye(self.size)
        q = torch.tanh(self.start(rows)) + 0.1                              # (N, n, 1)
        q = q / torch.sqrt((q * q).sum(1, keepdim=True))
        q_prev = torch.zeros_like(q)
        beta = torch.zeros_like(q[:, :1])
        basis, alphas, betas = [q], [], []
        for _ in range(self.steps):
            w = torch.matmul(a, q) - beta * q_prev
            alpha = (q * w).sum(1, keepdim=True)
            w = w - alpha * q
            v = torch.cat(basis, 2)                                         # (N, n, k)
            w = w - torch.matmul(v, torch.matmul(v.transpose(1, 2), w))
            beta = torch.sqrt((w * w).sum(1, keepdim=True) + 1e-12)
            q_prev, q = q, w / beta
            basis.append(q)
            alphas.append(alpha)
            betas.append(beta)
        t = torch.cat(alphas + betas, 2).flatten(1)
        return t[:, :self.steps], t[:, self.steps:], self.head(t)


class CholeskySolve(nn.Module):
    """Cholesky factorisation A = L L^T of a 16 x 16 SPD matrix (A = H H^T
    / 12 + 0.5 I, H from an MLP of the fed rows, the right-hand side from
    their last column), column by column: c = a_j - L_{:, <j} L_{j, <j}^T,
    l_j = c / sqrt(c_j) masked below the diagonal; then L y = b by forward
    substitution and L^T x = y by back substitution, one row each step.
    Returns x, log det A and a Linear readout of x."""

    def __init__(self, size=16, rank=12):
        super().__init__()
        self.size, self.rank = size, rank
        self.embed = _mlp(size + 1, 32, rank)
        self.register_buffer("lower", torch.tril(torch.ones(size, size)))
        self.head = nn.Linear(size, 4)

    def forward(self, system):                     # (N, 16, 17)
        n = self.size
        h = self.embed(system)
        a = torch.matmul(h, h.transpose(1, 2)) / self.rank + 0.5 * torch.eye(n)
        b = system[..., n]                                                  # (N, n)
        cols, diag = [], []
        for j in range(n):
            c = a[:, :, j]
            if j > 0:
                lp = torch.stack(cols, 2)                                   # (N, n, j)
                c = c - torch.matmul(lp, lp[:, j].unsqueeze(-1)).squeeze(-1)
            d = torch.sqrt(torch.clamp(c[:, j:j + 1], min=1e-6))
            cols.append(c / d * self.lower[:, j])
            diag.append(d)
        low = torch.stack(cols, 2)                                          # (N, n, n)
        dg = torch.cat(diag, 1)
        ys = []
        for i in range(n):
            r = b[:, i:i + 1]
            if i > 0:
                r = r - (low[:, i, :i] * torch.cat(ys, 1)).sum(1, keepdim=True)
            ys.append(r / dg[:, i:i + 1])
        y = torch.cat(ys, 1)
        xs = [None] * n
        for i in reversed(range(n)):
            r = y[:, i:i + 1]
            if i < n - 1:
                r = r - (low[:, i + 1:, i] * torch.cat(xs[i + 1:], 1)).sum(1, keepdim=True)
            xs[i] = r / dg[:, i:i + 1]
        x = torch.cat(xs, 1)
        logdet = 2.0 * torch.log(dg).sum(1)
        return x, logdet, self.head(x)


class LevinsonLPC(nn.Module):
    """Linear prediction by the Levinson-Durbin recursion: 8 frames of 160
    samples plus a learned Linear of each frame, a fixed Hann window;
    autocorrelations r_0 ... r_16 by shifted
    products and sums, a Gaussian lag window and white-noise correction;
    the order-16 recursion k_i = -(r_i + sum_j a_j r_{i-j}) / E, a <- [a +
    k a_rev, k], E <- E (1 - k^2), with the reversed predictor carried as
    its own tensor.  Reflection coefficients become log-area ratios, which
    a per-frame MLP and a mean over frames classify.  Returns the
    predictor coefficients, the residual energies and the logits."""

    def __init__(self, frame=160, order=16, classes=10):
        super().__init__()
        self.order = order
        n = torch.arange(frame, dtype=torch.float32)
        self.register_buffer("window", 0.5 - 0.5 * torch.cos(2 * math.pi * n / (frame - 1)))
        lag = torch.arange(order + 1, dtype=torch.float32)
        self.register_buffer("lagwin", torch.exp(-0.5 * (2 * math.pi * 60.0 / 8000.0 * lag) ** 2))
        self.pre = nn.Linear(frame, frame)
        self.cls = _mlp(order + 1, 48, classes)

    def forward(self, frames):                     # (N, 8, 160)
        x = (frames + 0.1 * self.pre(frames)) * self.window
        length = x.shape[-1]
        rs = [(x * x).sum(-1, keepdim=True) * 1.0001 + 1e-3]
        for k in range(1, self.order + 1):
            rs.append((x[..., k:] * x[..., :length - k]).sum(-1, keepdim=True))
        r = torch.cat(rs, -1) * self.lagwin                                 # (N, F, p+1)
        err = r[..., :1]
        k = -r[..., 1:2] / err
        a, a_rev = k, k
        err = err * (1.0 - k * k)
        refl, errs = [k], [err]
        for i in range(2, self.order + 1):
            acc = r[..., i:i + 1] + (a_rev * r[..., 1:i]).sum(-1, keepdim=True)
            k = -acc / err
            a, a_rev = torch.cat([a + k * a_rev, k], -1), torch.cat([k, a_rev + k * a], -1)
            err = err * (1.0 - k * k)
            refl.append(k)
            errs.append(err)
        kk = torch.clamp(torch.cat(refl, -1), -0.999, 0.999)
        lar = torch.log((1.0 + kk) / (1.0 - kk))
        feats = torch.cat([lar, torch.log(err + 1e-6)], -1)
        logits = self.cls(feats).mean(1)
        return a, torch.cat(errs, -1), logits


class FloydWarshall(nn.Module):
    """Floyd-Warshall shortest paths on 24 nodes: edge lengths Softplus of
    a pairwise MLP of the fed node features' differences, plus a large
    penalty where a sigmoid gate closes an edge, zero on the diagonal;
    hop counts start as 1 off the diagonal; for each of 24 pivots k,
    through = D_ik + D_kj, better = through < D, D = Min(D, through), H =
    Where(better, H_ik + H_kj, H).  Returns the distances, the hop counts
    and an MLP readout of each node's closeness."""

    def __init__(self, nodes=24, feats=4):
        super().__init__()
        self.nodes = nodes
        self.edge = _mlp(feats, 16, 2)
        self.register_buffer("offdiag", 1.0 - torch.eye(nodes))
        self.head = _mlp(2, 16, 3)

    def forward(self, points):                     # (N, 24, 4)
        diff = (points.unsqueeze(1) - points.unsqueeze(2)).abs()            # (N, n, n, f)
        e = self.edge(diff)
        d = (F.softplus(e[..., 0]) + 10.0 * torch.sigmoid(4.0 * e[..., 1])) * self.offdiag
        hops = self.offdiag.expand_as(d)
        for k in range(self.nodes):
            through = d[:, :, k:k + 1] + d[:, k:k + 1, :]
            better = through < d
            d = torch.minimum(d, through)
            hops = torch.where(better, hops[:, :, k:k + 1] + hops[:, k:k + 1, :], hops)
        close = torch.stack([d.mean(2), hops.mean(2)], -1)
        return d, hops, self.head(close).mean(1)


class Lorenz96RK4(nn.Module):
    """Classical RK4 on the Lorenz-96 system dx_i/dt = (x_{i+1} - x_{i-2})
    x_{i-1} - x_i + F_i over 40 cyclic sites: the per-site forcing F from
    an MLP of the fed state (around 8), the cyclic neighbours by Slice and
    Concat, 16 steps of dt = 0.02, four tendency evaluations each.
    Returns the trajectory and a Linear readout of the final state."""

    def __init__(self, sites=40, steps=16, dt=0.02):
        super().__init__()
        self.steps, self.dt = steps, dt
        self.force = _mlp(sites, 32, sites)
        self.head = nn.Linear(sites, 8)

    @staticmethod
    def _shift(x, s):
        """x_{i+s}, cyclically."""
        return torch.cat([x[:, s:], x[:, :s]], 1)

    def _tend(self, x, forcing):
        return (self._shift(x, 1) - self._shift(x, -2)) * self._shift(x, -1) - x + forcing

    def forward(self, state):                      # (N, 40)
        forcing = 8.0 + torch.tanh(self.force(state))
        x = state
        dt = self.dt
        traj = []
        for _ in range(self.steps):
            k1 = self._tend(x, forcing)
            k2 = self._tend(x + 0.5 * dt * k1, forcing)
            k3 = self._tend(x + 0.5 * dt * k2, forcing)
            k4 = self._tend(x + dt * k3, forcing)
            x = x + dt / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4)
            traj.append(x)
        return torch.stack(traj, 1), self.head(x)


def _cheb(n):
    """Chebyshev points x_j = cos(pi j / n) and the (n+1)^2 differentiation
    matrix (Trefethen's construction, negative-sum diagonal)."""
    x = torch.cos(math.pi * torch.arange(n + 1, dtype=torch.float64) / n)
    c = torch.ones(n + 1, dtype=torch.float64)
    c[0] = c[-1] = 2.0
    c = c * (-1.0) ** torch.arange(n + 1)
    dx = x.unsqueeze(1) - x.unsqueeze(0)
    dm = c.unsqueeze(1) / c.unsqueeze(0) / (dx + torch.eye(n + 1, dtype=torch.float64))
    dm = dm - torch.diag(dm.sum(1))
    return x.float(), dm.float()


class ChebBurgers(nn.Module):
    """Chebyshev collocation for u_t + u u_x = nu u_xx on [-1, 1] with u =
    0 at both ends: 25 points, the differentiation matrix D applied as a
    fixed MatMul (u_x = u D^T, u_xx = u_x D^T); the initial profile is the
    fed one times (1 - x^2), nu from an MLP (0.005 ... 0.025); 30 Heun
    steps of dt = 0.002, boundaries re-imposed by a mask.  Returns the
    trajectory and an MLP readout of the final profile."""

    def __init__(self, n=24, steps=30, dt=0.002):
        super().__init__()
        self.steps, self.dt = steps, dt
        x, dm = _cheb(n)
        self.register_buffer("dt_mat", dm.t().contiguous())
        self.register_buffer("bump", 1.0 - x * x)
        mask = torch.ones(n + 1)
        mask[0] = mask[-1] = 0.0
        self.register_buffer("mask", mask)
        self.visc = _mlp(n + 1, 16, 1)
        self.head = _mlp(n + 1, 32, 4)

    def _rhs(self, u, nu):
        ux = torch.matmul(u, self.dt_mat)
        uxx = torch.matmul(ux, self.dt_mat)
        return (nu * uxx - u * ux) * self.mask

    def forward(self, profile):                    # (N, 25)
        u = torch.tanh(profile) * self.bump
        nu = 0.005 + 0.02 * torch.sigmoid(self.visc(profile))
        traj = []
        for _ in range(self.steps):
            k1 = self._rhs(u, nu)
            k2 = self._rhs(u + self.dt * k1, nu)
            u = u + 0.5 * self.dt * (k1 + k2)
            traj.append(u)
        return torch.stack(traj, 1), self.head(u)


# --------------------------------------------------------------------------
# Ordinary sizes
# --------------------------------------------------------------------------

class _Basic(nn.Module):
    """ResNet basic block; a strided 1x1 projection where shapes change."""

    def __init__(self, cin, cout, stride=1):
        super().__init__()
        self.c1 = _cbr2d(cin, cout, 3, stride)
        self.c2 = nn.Sequential(nn.Conv2d(cout, cout, 3, 1, 1, bias=False), nn.BatchNorm2d(cout))
        self.proj = None
        if stride != 1 or cin != cout:
            self.proj = nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))

    def forward(self, x):
        skip = x if self.proj is None else self.proj(x)
        return F.relu(self.c2(self.c1(x)) + skip)


class _Root(nn.Module):
    """DLA aggregation node: Concat, 1x1 Conv, BN, ReLU, plus the first
    input as a residual."""

    def __init__(self, cin, cout):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(cin, cout, 1, bias=False), nn.BatchNorm2d(cout))

    def forward(self, *xs):
        return F.relu(self.conv(torch.cat(xs, 1)) + xs[0])


class _Tree(nn.Module):
    """A DLA tree of the given depth: two subtrees (or blocks at depth 1),
    the first one strided, joined by a root that also takes the
    downsampled input and the extra children passed from above."""

    def __init__(self, levels, cin, cout, stride=1, root_extra=0):
        super().__init__()
        if root_extra == 0:
            root_extra = cin
        self.levels = levels
        if levels == 1:
            self.t1 = _Basic(cin, cout, stride)
            self.t2 = _Basic(cout, cout)
            self.root = _Root(2 * cout + root_extra, cout)
        else:
            self.t1 = _Tree(levels - 1, cin, cout, stride, root_extra=0)
            self.t2 = _Tree(levels - 1, cout, cout, 1, root_extra=root_extra + cout)
            self.root = None
        self.down = nn.MaxPool2d(stride, stride) if stride > 1 else None

    def forward(self, x, children=None):
        children = [] if children is None else children
        bottom = self.down(x) if self.down is not None else x
        x1 = self.t1(x)
        if self.levels == 1:
            return self.root(self.t2(x1), x1, *children, bottom)
        return self.t2(x1, children + [bottom])


class DLATree(nn.Module):
    """Deep Layer Aggregation (Yu et al.), DLA-34-like at reduced width: a
    7x7 base, two plain levels, then trees of depths 1, 2, 2, 1 at widths
    32, 64, 80, 96, each halving the size; a global pool and a Linear
    classifier.  128 x 128 images."""

    def __init__(self, classes=100, widths=(16, 24, 32, 64, 80, 96)):
        super().__init__()
        w = widths
        self.base = _cbr2d(3, w[0], 7)
        self.level0 = _cbr2d(w[0], w[0])
        self.level1 = _cbr2d(w[0], w[1], 3, 2)
        self.level2 = _Tree(1, w[1], w[2], 2)
        self.level3 = _Tree(2, w[2], w[3], 2)
        self.level4 = _Tree(2, w[3], w[4], 2)
        self.level5 = _Tree(1, w[4], w[5], 2)
        self.fc = nn.Linear(w[5], classes)

    def forward(self, image):                      # (N, 3, 128, 128)
        x = self.level1(self.level0(self.base(image)))
        x = self.level5(self.level4(self.level3(self.level2(x))))
        return self.fc(x.mean((2, 3)))


class _RSU(nn.Module):
    """Residual U-block of the given height (RSU-L): an input Conv, an
    encoder of L - 1 Convs with MaxPools between, a dilated bottom Conv,
    a decoder of Concat + Conv with bilinear upsampling, plus the input
    Conv's output.  dilated=True gives RSU-4F: no pooling, dilations
    1, 2, 4, 8 instead."""

    def __init__(self, height, cin, mid, cout, dilated=False):
        super().__init__()
        self.height, self.dilated = height, dilated
        self.inp = _cbr2d(cin, cout)
        dil = [2 ** i if dilated else 1 for i in range(height - 1)]
        self.enc = nn.ModuleList([_cbr2d(cout if i == 0 else mid, mid, 3, 1, dil[i])
                                  for i in range(height - 1)])
        self.bottom = _cbr2d(mid, mid, 3, 1, 2 * dil[-1])
        self.dec = nn.ModuleList([_cbr2d(2 * mid, cout if i == height - 2 else mid, 3, 1,
                                         dil[height - 2 - i])
                                  for i in range(height - 1)])

    def forward(self, x):
        hx = self.inp(x)
        feats = []
        y = hx
        for i, conv in enumerate(self.enc):
            if i > 0 and not self.dilated:
                y = F.max_pool2d(y, 2, 2, ceil_mode=True)
            y = conv(y)
            feats.append(y)
        y = self.bottom(y)
        for i, conv in enumerate(self.dec):
            y = conv(torch.cat([y, feats[-1 - i]], 1))
            if not self.dilated and i < len(self.dec) - 1:
                y = F.interpolate(y, scale_factor=2.0, mode="bilinear", align_corners=False)
        return y + hx


class U2NetLite(nn.Module):
    """U^2-Net-P (Qin et al.): encoder RSU-7, 6, 5, 4, 4F, 4F (16 mid, 64
    out) with MaxPools between, decoder RSU-4F, 4, 5, 6, 7 on Concats of
    the upsampled deeper output and the skip; six 3x3 side outputs,
    upsampled to 128 x 128 and fused by a 1x1 Conv; Sigmoid maps."""

    def __init__(self, mid=16, ch=64):
        super().__init__()
        self.e1 = _RSU(7, 3, mid, ch)
        self.e2 = _RSU(6, ch, mid, ch)
        self.e3 = _RSU(5, ch, mid, ch)
        self.e4 = _RSU(4, ch, mid, ch)
        self.e5 = _RSU(4, ch, mid, ch, dilated=True)
        self.e6 = _RSU(4, ch, mid, ch, dilated=True)
        self.d5 = _RSU(4, 2 * ch, mid, ch, dilated=True)
        self.d4 = _RSU(4, 2 * ch, mid, ch)
        self.d3 = _RSU(5, 2 * ch, mid, ch)
        self.d2 = _RSU(6, 2 * ch, mid, ch)
        self.d1 = _RSU(7, 2 * ch, mid, ch)
        self.sides = nn.ModuleList([nn.Conv2d(ch, 1, 3, padding=1) for _ in range(6)])
        self.fuse = nn.Conv2d(6, 1, 1)

    @staticmethod
    def _up(x, factor):
        return F.interpolate(x, scale_factor=float(factor), mode="bilinear", align_corners=False)

    def forward(self, image):                      # (N, 3, 128, 128)
        pool = lambda t: F.max_pool2d(t, 2, 2, ceil_mode=True)  # noqa: E731
        h1 = self.e1(image)
        h2 = self.e2(pool(h1))
        h3 = self.e3(pool(h2))
        h4 = self.e4(pool(h3))
        h5 = self.e5(pool(h4))
        h6 = self.e6(pool(h5))
        d5 = self.d5(torch.cat([self._up(h6, 2), h5], 1))
        d4 = self.d4(torch.cat([self._up(d5, 2), h4], 1))
        d3 = self.d3(torch.cat([self._up(d4, 2), h3], 1))
        d2 = self.d2(torch.cat([self._up(d3, 2), h2], 1))
        d1 = self.d1(torch.cat([self._up(d2, 2), h1], 1))
        maps = [self.sides[0](d1)]
        for i, (t, f) in enumerate([(d2, 2), (d3, 4), (d4, 8), (d5, 16), (h6, 32)]):
            maps.append(self._up(self.sides[i + 1](t), f))
        fused = self.fuse(torch.cat(maps, 1))
        return torch.sigmoid(fused), torch.sigmoid(torch.cat(maps, 1))


class CBHGEncoder(nn.Module):
    """Tacotron's CBHG (Wang et al.) on 80-bin mel frames (T = 128): a
    bank of Conv1d-BN-ReLU of widths 1 ... 8 (48 channels each, even
    widths trimmed back to T), MaxPool1d of width 2 and stride 1, two
    Conv1d projections (128, then 80) with a residual to the input, a
    Linear to 128, four highway layers y = relu(W x) t + x (1 - t) with
    t = sigmoid(W' x), a bidirectional GRU of 64 units per direction and
    a Linear readout per frame."""

    def __init__(self, mels=80, bank=8, bank_ch=48, dim=128, out=64):
        super().__init__()
        self.bank = nn.ModuleList([nn.Sequential(nn.Conv1d(mels, bank_ch, k, padding=k // 2, bias=False),
                                                 nn.BatchNorm1d(bank_ch), nn.ReLU())
                                   for k in range(1, bank + 1)])
        self.proj1 = nn.Sequential(nn.Conv1d(bank * bank_ch, dim, 3, padding=1, bias=False),
                                   nn.BatchNorm1d(dim), nn.ReLU())
        self.proj2 = nn.Sequential(nn.Conv1d(dim, mels, 3, padding=1, bias=False), nn.BatchNorm1d(mels))
        self.pre = nn.Linear(mels, dim)
        self.highway = nn.ModuleList([nn.Linear(dim, 2 * dim) for _ in range(4)])
        self.gru = nn.GRU(dim, dim // 2, batch_first=True, bidirectional=True)
        self.out = nn.Linear(dim, out)

    def forward(self, mel):                        # (N, 80, 128)
        # even widths give T + 1 frames: the last is dropped (a fixed Slice)
        y = torch.cat([b(mel) if i % 2 == 0 else b(mel)[..., :-1] for i, b in enumerate(self.bank)], 1)
        y = F.max_pool1d(y, 2, 1, padding=1)[..., :-1]
        y = self.proj2(self.proj1(y)) + mel
        h = self.pre(y.transpose(1, 2))                                     # (N, T, D)
        d = h.shape[-1]
        for hw in self.highway:
            g = hw(h)
            gate = torch.sigmoid(g[..., d:])
            h = F.relu(g[..., :d]) * gate + h * (1.0 - gate)
        seq, _ = self.gru(h)
        return self.out(seq)


class _SERes2(nn.Module):
    """ECAPA-TDNN block: 1x1 Conv-ReLU-BN, a Res2 dilated k=3 Conv over 8
    channel groups (each group adds the previous group's output), 1x1
    Conv-ReLU-BN, squeeze-excitation over time, plus the input."""

    def __init__(self, ch, dilation, scale=8, se=48):
        super().__init__()
        w = ch // scale
        self.scale = scale
        self.pre = nn.Sequential(nn.Conv1d(ch, ch, 1), nn.ReLU(), nn.BatchNorm1d(ch))
        self.convs = nn.ModuleList([nn.Sequential(nn.Conv1d(w, w, 3, padding=dilation, dilation=dilation),
                                                  nn.ReLU(), nn.BatchNorm1d(w))
                                    for _ in range(scale - 1)])
        self.post = nn.Sequential(nn.Conv1d(ch, ch, 1), nn.ReLU(), nn.BatchNorm1d(ch))
        self.se = nn.Sequential(nn.Conv1d(ch, se, 1), nn.ReLU(), nn.Conv1d(se, ch, 1), nn.Sigmoid())

    def forward(self, x):
        parts = torch.chunk(self.pre(x), self.scale, 1)
        outs = [parts[0]]
        y = None
        for i, conv in enumerate(self.convs):
            y = conv(parts[i + 1] if y is None else parts[i + 1] + y)
            outs.append(y)
        y = self.post(torch.cat(outs, 1))
        return y * self.se(y.mean(2, keepdim=True)) + x


class ECAPATDNN(nn.Module):
    """ECAPA-TDNN (Desplanques et al.) at width 192: a k=5 Conv1d-ReLU-BN
    on 80 x 200 filterbanks, SE-Res2 blocks of dilations 2, 3, 4, their
    outputs concatenated into a 1x1 Conv to 384 (multi-layer feature
    aggregation), attentive statistics pooling whose attention sees each
    frame with the utterance mean and std appended (Conv1d-Tanh-Conv1d,
    Softmax over time, weighted mean and std), BN, a Linear to a 192-dim
    embedding."""

    def __init__(self, mels=80, ch=192, agg=384, att=128, emb=192):
        super().__init__()
        self.first = nn.Sequential(nn.Conv1d(mels, ch, 5, padding=2), nn.ReLU(), nn.BatchNorm1d(ch))
        self.blocks = nn.ModuleList([_SERes2(ch, d) for d in (2, 3, 4)])
        self.mfa = nn.Sequential(nn.Conv1d(3 * ch, agg, 1), nn.ReLU())
        self.att = nn.Sequential(nn.Conv1d(3 * agg, att, 1), nn.ReLU(), nn.BatchNorm1d(att),
                                 nn.Tanh(), nn.Conv1d(att, agg, 1))
        self.bn = nn.BatchNorm1d(2 * agg)
        self.fc = nn.Linear(2 * agg, emb)

    def forward(self, fbank):                      # (N, 80, 200)
        x = self.first(fbank)
        outs = []
        for blk in self.blocks:
            x = blk(x)
            outs.append(x)
        h = self.mfa(torch.cat(outs, 1))                                    # (N, C, T)
        t = h.shape[-1]
        mu = h.mean(2, keepdim=True)
        sd = torch.sqrt(torch.clamp(((h - mu) ** 2).mean(2, keepdim=True), min=1e-4))
        ctx = torch.cat([h, mu.expand(-1, -1, t), sd.expand(-1, -1, t)], 1)
        w = torch.softmax(self.att(ctx), 2)
        wmu = (w * h).sum(2)
        wsd = torch.sqrt(torch.clamp((w * h * h).sum(2) - wmu * wmu, min=1e-4))
        return self.fc(self.bn(torch.cat([wmu, wsd], 1)))


class CRNNText(nn.Module):
    """CRNN (Shi et al.) on a 1 x 32 x 128 text line: Conv 32 - pool 2,
    Conv 64 - pool 2, Conv 128 x 2 - pool (2, 1), Conv-BN 160 x 2 - pool
    (2, 1) padded in width, a 2x2 Conv 160 collapsing the height to 1; the
    32 columns read time-first by a two-layer bidirectional LSTM (96 units
    per direction), a Linear to 37 symbols and LogSoftmax, returned batch
    first."""

    def __init__(self, classes=37, hidden=96):
        super().__init__()

        def conv(cin, cout, bn=False):
            layers = [nn.Conv2d(cin, cout, 3, 1, 1, bias=not bn)]
            if bn:
                layers.append(nn.BatchNorm2d(cout))
            return nn.Sequential(*layers, nn.ReLU())

        self.cnn = nn.Sequential(conv(1, 32), nn.MaxPool2d(2, 2),
                                 conv(32, 64), nn.MaxPool2d(2, 2),
                                 conv(64, 128), conv(128, 128), nn.MaxPool2d((2, 1), (2, 1), (0, 0)),
                                 conv(128, 160, True), conv(160, 160, True),
                                 nn.MaxPool2d((2, 2), (2, 1), (0, 1)),
                                 nn.Conv2d(160, 160, 2), nn.BatchNorm2d(160), nn.ReLU())
        self.rnn = nn.LSTM(160, hidden, num_layers=2, bidirectional=True)
        self.out = nn.Linear(2 * hidden, classes)

    def forward(self, text_image):                 # (N, 1, 32, 128)
        f = self.cnn(text_image)                                            # (N, C, 1, W)
        seq = f.squeeze(2).permute(2, 0, 1)                                 # (W, N, C)
        h, _ = self.rnn(seq)
        return F.log_softmax(self.out(h), -1).transpose(0, 1)


class _Downsampler(nn.Module):
    """ERFNet downsampler: Concat of a 3x3 stride-2 Conv (cout - cin
    channels) and a 2x2 MaxPool of the input, BN, ReLU."""

    def __init__(self, cin, cout):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout - cin, 3, 2, 1)
        self.bn = nn.BatchNorm2d(cout)

    def forward(self, x):
        return F.relu(self.bn(torch.cat([self.conv(x), F.max_pool2d(x, 2, 2)], 1)))


class _NonBottleneck1D(nn.Module):
    """ERFNet non-bottleneck-1D: 3x1 Conv, ReLU, 1x3 Conv, BN, ReLU, then
    the same pair dilated, BN, plus the input, ReLU."""

    def __init__(self, ch, dilation):
        super().__init__()
        d = dilation
        self.c1 = nn.Conv2d(ch, ch, (3, 1), padding=(1, 0))
        self.c2 = nn.Conv2d(ch, ch, (1, 3), padding=(0, 1))
        self.bn1 = nn.BatchNorm2d(ch)
        self.c3 = nn.Conv2d(ch, ch, (3, 1), padding=(d, 0), dilation=(d, 1))
        self.c4 = nn.Conv2d(ch, ch, (1, 3), padding=(0, d), dilation=(1, d))
        self.bn2 = nn.BatchNorm2d(ch)

    def forward(self, x):
        y = F.relu(self.bn1(self.c2(F.relu(self.c1(x)))))
        y = self.bn2(self.c4(F.relu(self.c3(y))))
        return F.relu(y + x)


class _Upsampler(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.conv = nn.ConvTranspose2d(cin, cout, 3, 2, 1, output_padding=1)
        self.bn = nn.BatchNorm2d(cout)

    def forward(self, x):
        return F.relu(self.bn(self.conv(x)))


class ERFNetSeg(nn.Module):
    """ERFNet (Romera et al.) at reduced width: downsamplers to 16 and 48
    channels, three non-bottleneck-1D blocks, a downsampler to 96, eight
    blocks with dilations 2, 4, 8, 16 twice; the decoder upsamples to 48
    (two blocks), to 16 (two blocks) and by a final transposed Conv to 20
    class maps at the 128 x 256 input size."""

    def __init__(self, classes=20):
        super().__init__()
        layers = [_Downsampler(3, 16), _Downsampler(16, 48)]
        layers += [_NonBottleneck1D(48, 1) for _ in range(3)]
        layers.append(_Downsampler(48, 96))
        layers += [_NonBottleneck1D(96, d) for d in (2, 4, 8, 16, 2, 4, 8, 16)]
        self.encoder = nn.Sequential(*layers)
        self.decoder = nn.Sequential(_Upsampler(96, 48), _NonBottleneck1D(48, 1), _NonBottleneck1D(48, 1),
                                     _Upsampler(48, 16), _NonBottleneck1D(16, 1), _NonBottleneck1D(16, 1),
                                     nn.ConvTranspose2d(16, classes, 2, 2))

    def forward(self, image):                      # (N, 3, 128, 256)
        return self.decoder(self.encoder(image))


BLIND20 = {
    "lanczos_tridiag": dict(ctor=LanczosTridiag, family="lanczos-tridiagonalization",
                            inputs=[("rows", ("N", 24, 6), "float32", None)]),
    "cholesky_solve": dict(ctor=CholeskySolve, family="unrolled-cholesky-factorization",
                           inputs=[("system", ("N", 16, 17), "float32", None)]),
    "levinson_lpc": dict(ctor=LevinsonLPC, family="levinson-durbin-recursion",
                         inputs=[("frames", ("N", 8, 160), "float32", None)]),
    "floyd_warshall": dict(ctor=FloydWarshall, family="floyd-warshall-shortest-paths",
                           inputs=[("points", ("N", 24, 4), "float32", None)]),
    "lorenz96_rk4": dict(ctor=Lorenz96RK4, family="lorenz96-runge-kutta",
                         inputs=[("state", ("N", 40), "float32", None)]),
    "cheb_burgers": dict(ctor=ChebBurgers, family="chebyshev-spectral-collocation",
                         inputs=[("profile", ("N", 25), "float32", None)]),
    "dla_tree": dict(ctor=DLATree, family="deep-layer-aggregation",
                     inputs=[("image", ("N", 3, 128, 128), "float32", None)]),
    "u2net_lite": dict(ctor=U2NetLite, family="nested-residual-u-blocks",
                       inputs=[("image", ("N", 3, 128, 128), "float32", None)]),
    "cbhg_encoder": dict(ctor=CBHGEncoder, family="conv-bank-highway-gru",
                         inputs=[("mel", ("N", 80, 128), "float32", None)]),
    "ecapa_tdnn": dict(ctor=ECAPATDNN, family="se-res2-tdnn-attentive-pooling",
                       inputs=[("fbank", ("N", 80, 200), "float32", None)]),
    "crnn_text": dict(ctor=CRNNText, family="conv-recurrent-text-recognition",
                      inputs=[("text_image", ("N", 1, 32, 128), "float32", None)]),
    "erfnet_seg": dict(ctor=ERFNetSeg, family="factorized-residual-segmentation",
                       inputs=[("image", ("N", 3, 128, 256), "float32", None)]),
}
