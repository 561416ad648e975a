r"""BLIND22: the twenty-second blind set, written on 2026-12-06 by a helper
session before any of it was measured.  Nothing in it has been timed,
profiled or run through onnxcost predict; it is to be measured first and
scored once only, at the end, with the code as it stands then
(bench/zoo_accuracy.py --set blind22).  None of its twelve families occurs
in another set (ZOO, BLIND, BLIND2 ... BLIND21, the reference models), so
no plan rule, feature, fit or calibration can have been made with any of
them in view.

Six families unroll a classical numerical procedure into a fixed graph of
small kernels at batch 1 (tensors of a few thousand elements or fewer,
some hundreds of nodes), each with a small learned part:

  * The cyclic Jacobi eigenvalue method (Jacobi, "Ueber ein leichtes
    Verfahren, die in der Theorie der Saecularstoerungen vorkommenden
    Gleichungen numerisch aufzuloesen", 1846; the row-cyclic ordering and
    the stable tangent formula as taught in Golub & Van Loan, "Matrix
    Computations", ch. 8): 4 symmetric 4 x 4 matrices per sample built by
    an MLP, two sweeps of the 6 plane rotations, each rotation a matrix
    assembled from constant masks and applied on both sides by MatMul.
  * Gaussian elimination / LU factorisation with partial pivoting
    (Golub & Van Loan, ch. 3; Wilkinson's rounding analysis of 1961 is why
    the largest pivot is taken): 4 systems of order 8 per sample from a
    Linear layer, the pivot row found by ArgMax over a masked column, the
    row swap done by a permutation matrix built from one-hots, then back
    substitution row by row.
  * Successive over-relaxation (Young, "Iterative Methods for Solving
    Partial Difference Equations of Elliptic Type", 1950; Gauss-Seidel
    with a relaxation factor): a diagonally dominant 16 x 16 system with
    two right-hand sides from a bilinear form of learned row features,
    three sweeps updating one unknown at a time with a learned omega.
  * Adams-Bashforth multistep integration (Bashforth & Adams, 1883) of a
    generalised Lotka-Volterra predator-prey community (Lotka 1925;
    Volterra 1926): 8 species whose growth rates and interaction matrix
    come from an MLP, 3 bootstrap steps of lower order and then the
    fourth-order formula, 32 steps in all.
  * The Frank-Wolfe conditional-gradient method (Frank & Wolfe, "An
    Algorithm for Quadratic Programming", 1956) on Markowitz mean-variance
    portfolios over the probability simplex (Markowitz, "Portfolio
    Selection", 1952): 24 assets whose covariance factor and expected
    return come from learned layers, 3 risk aversions, 24 iterations with
    the linear minimisation as an ArgMin one-hot and exact line search.
  * The Nelder-Mead downhill simplex (Nelder & Mead, "A Simplex Method
    for Function Minimization", 1965) on 16 learned Rosenbrock-type
    valleys per sample (Rosenbrock, 1960): 6 iterations of ordering by
    TopK, reflection, expansion, contraction and shrink, every branch
    evaluated and the outcome chosen by Where.

The other six are published network designs of ordinary sizes:

  * RepVGG (Ding, Zhang, Ma, Han, Ding & Sun, "RepVGG: Making VGG-style
    ConvNets Great Again", 2021) in its training-time form: every block
    the sum of a 3 x 3 Conv-BN, a 1 x 1 Conv-BN and (where shapes agree)
    an identity BN, the A0 widths and depths; 112 x 112 images.
  * EfficientDet's BiFPN (Tan, Pang & Le, "EfficientDet: Scalable and
    Efficient Object Detection", 2020): a small depthwise backbone to five
    levels, three bidirectional top-down / bottom-up passes with fast
    normalised fusion weights and separable Convs, shared class and box
    heads; 256 x 256 images.
  * ICNet (Zhao, Qi, Shen, Shi & Jia, "ICNet for Real-Time Semantic
    Segmentation on High-Resolution Images", 2018): a deep branch on the
    quarter-size image, a middle branch sharing its first layers on the
    half-size image, a three-Conv branch on the full image, joined by
    cascade feature fusion units (dilated Conv of the upsampled coarse
    map plus a projected fine map); 256 x 256 images.
  * CrossViT (Chen, Fan & Panda, "CrossViT: Cross-Attention Multi-Scale
    Vision Transformer for Image Classification", 2021): a small-patch and
    a large-patch branch of different widths, each multi-scale block ending
    in cross-attention where one branch's class token queries the other
    branch's patch tokens; 128 x 128 images.
  * MixNet (Tan & Le, "MixConv: Mixed Depthwise Convolutional Kernels",
    2019): inverted bottlenecks whose depthwise Conv splits the channels
    among kernels of 3, 5, 7 and 9, grouped pointwise Convs,
    squeeze-and-excitation and Swish; a MixNet-S-like layout on 224 x 224
    images.
  * Normaliser-free ResNet (Brock, De & Smith, "Characterizing Signal
    Propagation to Close the Performance Gap in Unnormalized ResNets",
    2021; the NFNet follow-up by Brock, De, Smith & Simonyan): no
    BatchNorm, scaled weight standardisation, residual branches fed
    x / beta and added back times alpha, scaled GELU and a learnable
    zero-initialised skip gain; 160 x 160 images.

To be measured with

    OMP_WAIT_POLICY=PASSIVE /usr/bin/python3 scripts/measure_zoo.py --set blind22 \
        jacobi_eigen lu_pivot_solve sor_sweeps adams_lotka_volterra \
        frank_wolfe_portfolio nelder_mead_simplex repvgg_a0 bifpn_det \
        icnet_seg crossvit_lite mixnet_s nf_resnet_lite \
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

class JacobiEigen(nn.Module):
    """Cyclic Jacobi eigenvalue iteration on 4 symmetric 4 x 4 matrices per
    sample: an MLP maps each matrix's 4 rows of 8 features to factors F,
    A = F F^T / 8 plus a Softplus diagonal.  For each pair (p, q), row by
    row, two sweeps: a_pp, a_qq, a_pq picked by one MatMul of the
    flattened matrix with a constant 0/1 selector; tau = (a_qq - a_pp) / (2 a_pq) (a_pq kept away from
    zero), t = sign(tau) / (|tau| + sqrt(1 + tau^2)), c = 1 / sqrt(1 +
    t^2), s = t c; J = I + (c - 1)(E_pp + E_qq) + s (E_pq - E_qp) from
    constant masks (J^T likewise); A <- J^T A J and V <- V J.  Returns the diagonal, the
    eigenvector matrix and an MLP readout of the eigenvalues."""

    def __init__(self, size=4, feats=8, sweeps=2):
        super().__init__()
        self.size, self.sweeps = size, sweeps
        self.factor = _mlp(feats, 32, size)
        self.shift = nn.Linear(feats, 1)
        self.pairs = [(p, q) for p in range(size) for q in range(p + 1, size)]
        eye = torch.eye(size)
        self.register_buffer("eye", eye)
        self.register_buffer("tiny", torch.tensor(1e-6))
        self.register_buffer("plus", torch.tensor(1.0))
        self.register_buffer("minus", torch.tensor(-1.0))
        diag, skew, picks = [], [], []
        for p, q in self.pairs:
            d = torch.zeros(size, size)
            d[p, p] = d[q, q] = 1.0
            s = torch.zeros(size, size)
            s[p, q], s[q, p] = 1.0, -1.0
            pick = torch.zeros(size * size, 3)
            pick[p * size + p, 0] = pick[q * size + q, 1] = pick[p * size + q, 2] = 1.0
            diag.append(d)
            skew.append(s)
            picks.append(pick)
        self.register_buffer("diag_masks", torch.stack(diag))
        self.register_buffer("skew_masks", torch.stack(skew))
        self.register_buffer("picks", torch.stack(picks))
        self.head = _mlp(size, 32, 4)

    def forward(self, rows):                       # (N, 4, 4, 8)
        f = self.factor(rows)
        a = torch.matmul(f, f.transpose(-1, -2)) / 8.0 + self.eye * F.softplus(self.shift(rows))
        v = self.eye + torch.zeros_like(a)
        n = self.size
        for _ in range(self.sweeps):
            for k in range(len(self.pairs)):
                vals = torch.matmul(a.reshape(-1, 4, 1, n * n), self.picks[k])   # (N, 4, 1, 3)
                app, aqq, apq = vals.split(1, -1)                                # (N, 4, 1, 1) each
                apq = torch.where(apq.abs() < 1e-6, self.tiny, apq)
                tau = (aqq - app) / (2.0 * apq)
                sgn = torch.where(tau >= 0, self.plus, self.minus)
                t = sgn / (tau.abs() + torch.sqrt(1.0 + tau * tau))
                c = torch.rsqrt(1.0 + t * t)
                s = t * c
                cm = self.eye + (c - 1.0) * self.diag_masks[k]
                j = cm + s * self.skew_masks[k]
                jt = cm - s * self.skew_masks[k]
                a = torch.matmul(torch.matmul(jt, a), j)
                v = torch.matmul(v, j)
        lam = (a * self.eye).sum(-1)
        return lam, v, self.head(lam).mean(1)


class LUPivotSolve(nn.Module):
    """Gaussian elimination with partial pivoting for 4 systems of order 8
    per sample: a Linear layer maps each row's 12 features to 8
    coefficients and a right-hand side, the diagonal lifted a little.  For
    each column k: the pivot is the ArgMax of |column| over rows >= k (rows
    above masked by a constant), the swap of rows k and p is the matrix
    I - e_k e_k^T - e_p e_p^T + e_k e_p^T + e_p e_k^T from the one-hot e_p,
    applied to U, the multipliers L and the right-hand side; then the
    multipliers below the pivot and a rank-one update.  Back substitution
    row by row.  Returns the solution, log |det| and an MLP readout."""

    def __init__(self, order=8, feats=12):
        super().__init__()
        self.order = order
        self.rows = nn.Linear(feats, order + 1)
        n = order
        self.register_buffer("eye", torch.eye(n))
        self.register_buffer("arange", torch.arange(n))
        above = torch.zeros(n, n)
        below = torch.zeros(n, n)
        for k in range(n):
            above[k, :k] = -1e9
            below[k, k + 1:] = 1.0
        self.register_buffer("above", above)
        self.register_buffer("below", below)
        self.head = _mlp(2 * order, 32, 4)

    def forward(self, rows):                       # (N, 4, 8, 12)
        n = self.order
        ab = self.rows(rows)
        u = ab[..., :n] + 2.0 * self.eye
        b = ab[..., n:]                                                     # (N, S, n, 1)
        lo = torch.zeros_like(u)
        for k in range(n):
            col = u[..., k]                                                 # (N, S, n)
            p = (col.abs() + self.above[k]).argmax(-1, keepdim=True)
            ep = (self.arange == p).float()                                 # (N, S, n)
            ek = self.eye[k]
            perm = self.eye - ek.unsqueeze(-1) * ek - ep.unsqueeze(-1) * ep.unsqueeze(-2) \
                + ek.unsqueeze(-1) * ep.unsqueeze(-2) + ep.unsqueeze(-1) * ek
            u = torch.matmul(perm, u)
            b = torch.matmul(perm, b)
            lo = torch.matmul(perm, lo)
            piv = u[..., k:k + 1, k:k + 1]
            m = (u[..., k:k + 1] / piv) * self.below[k].unsqueeze(-1)       # (N, S, n, 1)
            lo = lo + m * ek
            u = u - m * u[..., k:k + 1, :]
            b = b - m * b[..., k:k + 1, :]
        x = torch.zeros_like(b)
        for i in reversed(range(n)):
            r = b[..., i:i + 1, :] - torch.matmul(u[..., i:i + 1, :], x)
            xi = r / u[..., i:i + 1, i:i + 1]
            x = x + xi * self.eye[i].unsqueeze(-1)
        x = x.squeeze(-1)
        d = (u * self.eye).sum(-1)
        logdet = torch.log(d.abs() + 1e-9).sum(-1)
        return x, logdet, self.head(torch.cat([x, lo.sum(-1)], -1)).mean(1)


class SORSweeps(nn.Module):
    """Successive over-relaxation on a 16 x 16 system with two right-hand
    sides: off-diagonal entries Tanh of a bilinear form of two Linear maps
    of the 16 fed row features, the diagonal their absolute row sum plus a
    Softplus margin (strict diagonal dominance, so the sweeps converge),
    the right-hand sides from an MLP; omega = 1 + 0.8 Sigmoid of a learned
    scalar.  Three sweeps; unknown i is updated by x_i += omega (b_i -
    A_i x) / a_ii (a Slice of the row, a MatMul, a masked Add).  Returns x,
    the final residual norm and an MLP readout."""

    def __init__(self, size=16, feats=8, sweeps=3):
        super().__init__()
        self.size, self.sweeps = size, sweeps
        self.left = nn.Linear(feats, 16)
        self.right = nn.Linear(feats, 16)
        self.margin = nn.Linear(feats, 1)
        self.rhs = _mlp(feats, 32, 2)
        self.omega = nn.Parameter(torch.tensor(0.3))
        self.register_buffer("offdiag", 1.0 - torch.eye(size))
        self.register_buffer("eye", torch.eye(size))
        self.head = _mlp(2 * size, 32, 4)

    def forward(self, rows):                       # (N, 16, 8)
        off = torch.tanh(torch.matmul(self.left(rows), self.right(rows).transpose(1, 2)) / 4.0)
        off = off * self.offdiag
        diag = off.abs().sum(-1, keepdim=True) + F.softplus(self.margin(rows)) + 0.5   # (N, n, 1)
        a = off + diag * self.eye
        b = self.rhs(rows)                                                  # (N, n, 2)
        w = 1.0 + 0.8 * torch.sigmoid(self.omega)
        scale = w / diag                                                    # (N, n, 1)
        x = torch.zeros_like(b)
        for _ in range(self.sweeps):
            for i in range(self.size):
                r = b[:, i:i + 1] - torch.matmul(a[:, i:i + 1], x)         # (N, 1, 2)
                x = x + (scale[:, i:i + 1] * r) * self.eye[i].unsqueeze(-1)
        res = torch.sqrt(((torch.matmul(a, x) - b) ** 2).sum((1, 2)) + 1e-12)
        return x, res, self.head(x.flatten(1))


class AdamsLotkaVolterra(nn.Module):
    """Generalised Lotka-Volterra community of 8 species per sample,
    dx/dt = x (r + A x): growth rates r and the interaction matrix A (self
    limitation -Softplus on the diagonal) from an MLP of each species' 6
    features, initial abundances Softplus of a Linear.  Integrated with
    dt = 0.05 for 32 steps: Euler, second- and third-order Adams-Bashforth
    to fill the history, then AB4, x <- x + dt (55 f_n - 59 f_{n-1} + 37
    f_{n-2} - 9 f_{n-3}) / 24, kept non-negative by Relu.  Returns every
    fourth state, the final state and an MLP readout."""

    def __init__(self, species=8, feats=6, steps=32, dt=0.05):
        super().__init__()
        self.species, self.steps, self.dt = species, steps, dt
        self.rate = _mlp(feats, 32, 1)
        self.inter = _mlp(feats, 32, species)
        self.self_lim = nn.Linear(feats, 1)
        self.init = nn.Linear(feats, 1)
        self.register_buffer("eye", torch.eye(species))
        self.head = _mlp(species, 32, 4)

    def forward(self, species):                    # (N, 8, 6)
        r = torch.tanh(self.rate(species)).transpose(1, 2)                  # (N, 1, S)
        a = 0.5 * torch.tanh(self.inter(species)) * (1.0 - self.eye) \
            - self.eye * (F.softplus(self.self_lim(species)) + 0.2)         # (N, S, S)
        at = a.transpose(1, 2)
        x = F.softplus(self.init(species)).transpose(1, 2) + 0.1           # (N, 1, S)

        def f(z):
            return z * (r + torch.matmul(z, at))

        hist, traj = [], []
        for n in range(self.steps):
            hist = [f(x)] + hist[:3]
            if n == 0:
                inc = hist[0]
            elif n == 1:
                inc = 1.5 * hist[0] - 0.5 * hist[1]
            elif n == 2:
                inc = (23.0 / 12.0) * hist[0] - (16.0 / 12.0) * hist[1] + (5.0 / 12.0) * hist[2]
            else:
                inc = (55.0 / 24.0) * hist[0] - (59.0 / 24.0) * hist[1] \
                    + (37.0 / 24.0) * hist[2] - (9.0 / 24.0) * hist[3]
            x = F.relu(x + self.dt * inc)
            if n % 4 == 3:
                traj.append(x)
        x = x.squeeze(1)
        return torch.cat(traj, 1), x, self.head(torch.log(x + 1e-3))


class FrankWolfePortfolio(nn.Module):
    """Frank-Wolfe on mean-variance portfolios: 24 assets per sample with 6
    features each; a Linear gives a 4-factor loading (covariance Q = B B^T
    / 4 plus a Softplus idiosyncratic diagonal) and an MLP the expected
    return mu; three risk aversions g in (1, 4, 16) give the problems min
    g/2 w^T Q w - mu^T w over the simplex.  From the uniform portfolio, 24
    iterations: gradient g Q w - mu (MatMul), the best vertex as an ArgMin
    one-hot, d = s - w, the exact step -grad.d / (g d^T Q d) clipped to [0,
    1].  Returns the weights, the objective and an MLP readout."""

    def __init__(self, assets=24, feats=6, iters=24):
        super().__init__()
        self.assets, self.iters = assets, iters
        self.load = nn.Linear(feats, 4)
        self.idio = nn.Linear(feats, 1)
        self.ret = _mlp(feats, 32, 1)
        self.register_buffer("gamma", torch.tensor([1.0, 4.0, 16.0]).view(1, 3, 1, 1))
        self.register_buffer("arange", torch.arange(assets))
        self.register_buffer("eye", torch.eye(assets))
        self.head = _mlp(assets, 32, 4)

    def forward(self, assets):                     # (N, 24, 6)
        ld = self.load(assets)
        q = torch.matmul(ld, ld.transpose(1, 2)) / 4.0 \
            + self.eye * (F.softplus(self.idio(assets)) + 0.05)             # (N, A, A)
        q = q.unsqueeze(1)                                                  # (N, 1, A, A)
        mu = 0.1 * self.ret(assets).transpose(1, 2).unsqueeze(1)            # (N, 1, 1, A)
        w = torch.zeros_like(mu) + self.gamma * 0.0 + 1.0 / self.assets     # (N, 3, 1, A)
        for _ in range(self.iters):
            grad = self.gamma * torch.matmul(w, q) - mu                     # Q symmetric
            s = (self.arange == grad.argmin(-1, keepdim=True)).float()
            d = s - w
            num = (grad * d).sum(-1, keepdim=True)
            den = self.gamma * (torch.matmul(d, q) * d).sum(-1, keepdim=True) + 1e-9
            step = torch.clamp(-num / den, 0.0, 1.0)
            w = w + step * d
        w = w.squeeze(2)
        qw = torch.matmul(w, q.squeeze(1))
        obj = 0.5 * self.gamma.view(1, 3) * (w * qw).sum(-1) - (w * mu.squeeze(1)).sum(-1)
        return w, obj, self.head(w).mean(1)


class NelderMeadSimplex(nn.Module):
    """Nelder-Mead on 16 two-dimensional problems per sample, f(x) = (x0 -
    a)^2 + b (x1 - x0^2)^2 + c |x - t|^2 with a, b, c, t from an MLP of
    each problem's 5 features, the starting triangle a learned offset plus
    a fixed shape.  Each of 6 iterations: order the three vertices by TopK
    (smallest) and GatherElements, centroid of the best two, reflection
    (1), expansion (2), outside contraction (1/2), the three points
    evaluated together (Concat, then Split),
    the replacement of the worst vertex picked by Where, and a shrink
    towards the best when contraction fails.  Returns the best point, its
    value and an MLP readout."""

    def __init__(self, feats=5, iters=6):
        super().__init__()
        self.iters = iters
        self.params = _mlp(feats, 32, 5)
        self.start = nn.Linear(feats, 2)
        self.register_buffer("shape", torch.tensor([[0.0, 0.0], [0.6, 0.0], [0.0, 0.6]]))
        self.head = _mlp(3, 32, 4)

    @staticmethod
    def _f(x, a, b, c, t):
        x0, x1 = x[..., 0], x[..., 1]
        u, v, e = x0 - a, x1 - x0 * x0, x - t
        return u * u + b * v * v + c * (e * e).sum(-1)

    def forward(self, probs):                      # (N, 16, 5)
        p = self.params(probs)
        a = 1.0 + 0.5 * torch.tanh(p[..., 0:1])
        b = 1.0 + 4.0 * torch.sigmoid(p[..., 1:2])
        c = 0.1 * torch.sigmoid(p[..., 2:3])
        t = p[..., 3:5].unsqueeze(-2)                                       # (N, P, 1, 2)
        v = self.start(probs).unsqueeze(-2) + self.shape                   # (N, P, 3, 2)
        fv = self._f(v, a, b, c, t)                                         # (N, P, 3)
        for _ in range(self.iters):
            fv, idx = fv.topk(3, -1, largest=False)
            v = torch.gather(v, 2, idx.unsqueeze(-1).expand(-1, -1, -1, 2))
            xb, x1, xw = v.split(1, -2)
            fb, f1, fw = fv.split(1, -1)
            cen = 0.5 * (xb + x1)
            xr = 2.0 * cen - xw
            xe = 3.0 * cen - 2.0 * xw
            xc = 0.5 * (cen + xr)
            fr, fe, fc = self._f(torch.cat([xr, xe, xc], -2), a, b, c, t).split(1, -1)
            use_e = (fr < fb) & (fe < fr)
            use_r = (fr < f1) & ~use_e
            use_c = (fr >= f1) & (fc < torch.min(fr, fw))
            shrink = ~(use_e | use_r | use_c)
            new_w = torch.where(use_e.unsqueeze(-1), xe, torch.where(use_c.unsqueeze(-1), xc, xr))
            new_fw = torch.where(use_e, fe, torch.where(use_c, fc, fr))
            s1 = 0.5 * (xb + x1)
            sw = 0.5 * (xb + xw)
            sh = shrink.unsqueeze(-1)
            x1 = torch.where(sh, s1, x1)
            xw = torch.where(sh, sw, new_w)
            g1, gw = self._f(torch.cat([s1, sw], -2), a, b, c, t).split(1, -1)
            f1 = torch.where(shrink, g1, f1)
            fw = torch.where(shrink, gw, new_fw)
            v = torch.cat([xb, x1, xw], -2)
            fv = torch.cat([fb, f1, fw], -1)
        best, idx = fv.min(-1, keepdim=True)
        xbest = torch.gather(v, 2, idx.unsqueeze(-1).expand(-1, -1, -1, 2)).squeeze(-2)
        feats = torch.cat([xbest, torch.log(best + 1e-6)], -1)
        return xbest, best.squeeze(-1), self.head(feats).mean(1)


# --------------------------------------------------------------------------
# Published network designs
# --------------------------------------------------------------------------

class _RepVGGBlock(nn.Module):
    """Training-time RepVGG block: BN(3x3 Conv) + BN(1x1 Conv) [+ BN(x)], ReLU."""

    def __init__(self, cin, cout, stride):
        super().__init__()
        self.dense = _conv_bn(cin, cout, 3, stride, act=False)
        self.point = nn.Sequential(nn.Conv2d(cin, cout, 1, stride, 0, bias=False), nn.BatchNorm2d(cout))
        self.ident = nn.BatchNorm2d(cin) if cin == cout and stride == 1 else None

    def forward(self, x):
        y = self.dense(x) + self.point(x)
        if self.ident is not None:
            y = y + self.ident(x)
        return F.relu(y)


class RepVGGA0(nn.Module):
    """RepVGG-A0 before re-parameterisation: stages of 1, 2, 4, 14, 1
    blocks, widths 48, 48, 96, 192, 1280, the first block of each stage
    strided; global average pool and a classifier."""

    def __init__(self, classes=1000):
        super().__init__()
        depths, widths = [1, 2, 4, 14, 1], [48, 48, 96, 192, 1280]
        blocks, cin = [], 3
        for d, w in zip(depths, widths):
            for i in range(d):
                blocks.append(_RepVGGBlock(cin, w, 2 if i == 0 else 1))
                cin = w
        self.blocks = nn.Sequential(*blocks)
        self.fc = nn.Linear(cin, classes)

    def forward(self, image):                      # (N, 3, 112, 112)
        return self.fc(self.blocks(image).mean((2, 3)))


def _sep_conv(c):
    """Depthwise 3x3, pointwise 1x1, BatchNorm (EfficientDet's separable Conv)."""
    return nn.Sequential(nn.Conv2d(c, c, 3, 1, 1, groups=c, bias=False),
                         nn.Conv2d(c, c, 1, bias=False), nn.BatchNorm2d(c))


class _Fuse(nn.Module):
    """Fast normalised fusion: sum_i relu(w_i) x_i / (sum relu(w) + eps), Swish, sep Conv."""

    def __init__(self, c, n):
        super().__init__()
        self.w = nn.Parameter(torch.ones(n))
        self.conv = _sep_conv(c)

    def forward(self, xs):
        w = F.relu(self.w)
        w = w / (w.sum() + 1e-4)
        y = xs[0] * w[0]
        for i in range(1, len(xs)):
            y = y + xs[i] * w[i]
        return self.conv(F.silu(y))


class _BiFPNLayer(nn.Module):
    def __init__(self, c, levels=5):
        super().__init__()
        self.levels = levels
        self.td = nn.ModuleList([_Fuse(c, 2) for _ in range(levels - 1)])
        self.bu = nn.ModuleList([_Fuse(c, 3 if i < levels - 2 else 2) for i in range(levels - 1)])

    def forward(self, ps):                         # fine to coarse
        n = self.levels
        td = [None] * n
        td[-1] = ps[-1]
        for i in reversed(range(n - 1)):
            up = F.interpolate(td[i + 1], scale_factor=2.0, mode="nearest")
            td[i] = self.td[i]([ps[i], up])
        out = [td[0]]
        for i in range(1, n):
            down = F.max_pool2d(out[-1], 3, 2, 1)
            if i < n - 1:
                out.append(self.bu[i - 1]([ps[i], td[i], down]))
            else:
                out.append(self.bu[i - 1]([ps[i], down]))
        return out


class BiFPNDet(nn.Module):
    """A small EfficientDet: a depthwise-separable backbone (stride 2 stem,
    inverted bottlenecks) to strides 8, 16, 32, two further levels by
    strided Conv / MaxPool, 1x1 lateral Convs to 64 channels, three BiFPN
    layers, then class (3 anchors x 20 classes) and box heads of three
    separable Convs shared over the five levels; outputs concatenated over
    levels."""

    def __init__(self, width=64, anchors=3, classes=20, repeats=3):
        super().__init__()
        self.anchors, self.classes = anchors, classes

        def ir(cin, cout, stride, expand=4):
            mid = cin * expand
            return nn.Sequential(_conv_bn(cin, mid, 1), _conv_bn(mid, mid, 3, stride, groups=mid),
                                 _conv_bn(mid, cout, 1, act=False))

        self.stem = _conv_bn(3, 24, 3, 2)
        self.s2 = nn.Sequential(ir(24, 32, 2), ir(32, 32, 1))           # /4
        self.s3 = nn.Sequential(ir(32, 48, 2), ir(48, 48, 1))           # /8
        self.s4 = nn.Sequential(ir(48, 96, 2), ir(96, 96, 1), ir(96, 96, 1))   # /16
        self.s5 = nn.Sequential(ir(96, 160, 2), ir(160, 160, 1))        # /32
        self.lat = nn.ModuleList([_conv_bn(c, width, 1, act=False) for c in (48, 96, 160)])
        self.p6 = _conv_bn(160, width, 3, 2, act=False)
        self.bifpn = nn.ModuleList([_BiFPNLayer(width) for _ in range(repeats)])
        self.cls_tower = nn.ModuleList([_sep_conv(width) for _ in range(3)])
        self.box_tower = nn.ModuleList([_sep_conv(width) for _ in range(3)])
        self.cls_out = nn.Conv2d(width, anchors * classes, 3, 1, 1)
        self.box_out = nn.Conv2d(width, anchors * 4, 3, 1, 1)

    def _head(self, x, tower, out, k):
        for conv in tower:
            x = F.silu(conv(x))
        y = out(x)
        return y.permute(0, 2, 3, 1).reshape(y.shape[0], -1, k)

    def forward(self, image):                      # (N, 3, 256, 256)
        c3 = self.s3(self.s2(self.stem(image)))
        c4 = self.s4(c3)
        c5 = self.s5(c4)
        p6 = self.p6(c5)
        p7 = F.max_pool2d(p6, 3, 2, 1)
        ps = [self.lat[0](c3), self.lat[1](c4), self.lat[2](c5), p6, p7]
        for layer in self.bifpn:
            ps = layer(ps)
        cls = torch.cat([self._head(p, self.cls_tower, self.cls_out, self.classes) for p in ps], 1)
        box = torch.cat([self._head(p, self.box_tower, self.box_out, 4) for p in ps], 1)
        return torch.sigmoid(cls), box


class _ResBottleneck(nn.Module):
    def __init__(self, cin, cout, stride=1, dilation=1):
        super().__init__()
        mid = cout // 4
        self.body = nn.Sequential(_conv_bn(cin, mid, 1), _conv_bn(mid, mid, 3, stride, dilation=dilation),
                                  _conv_bn(mid, cout, 1, act=False))
        self.short = None if cin == cout and stride == 1 else _conv_bn(cin, cout, 1, stride, act=False)

    def forward(self, x):
        s = x if self.short is None else self.short(x)
        return F.relu(self.body(x) + s)


class _CFF(nn.Module):
    """Cascade feature fusion: upsample coarse x2, dilated 3x3 Conv-BN; 1x1 Conv-BN of fine; sum, ReLU."""

    def __init__(self, c_low, c_high, cout, classes):
        super().__init__()
        self.low = _conv_bn(c_low, cout, 3, dilation=2, act=False)
        self.high = _conv_bn(c_high, cout, 1, act=False)
        self.aux = nn.Conv2d(c_low, classes, 1)

    def forward(self, low, high):
        up = F.interpolate(low, size=high.shape[-2:], mode="bilinear", align_corners=False)
        return F.relu(self.low(up) + self.high(high)), self.aux(up)


class ICNetSeg(nn.Module):
    """ICNet on 256 x 256 images, 19 classes.  Half-size input: a stem,
    MaxPool and two residual stages to stride 8 of the half image, 1/16
    of the full one (weights shared with the low branch); quarter-size:
    the same shared layers to 1/32 of the full image, then dilated
    residual stages at that size and a pyramid of average pools (1, 2, 4
    and 8 bins of the 8 x 8 map) summed back; full-size: three strided Conv-BN-ReLU to stride 8.
    Two CFF units join low+mid and mid+high; the result upsampled x2, a
    classifier at stride 4, plus the two auxiliary outputs' logits."""

    def __init__(self, classes=19):
        super().__init__()
        self.shared = nn.Sequential(_conv_bn(3, 24, 3, 2), _conv_bn(24, 24, 3), _conv_bn(24, 48, 3),
                                    nn.MaxPool2d(3, 2, 1),
                                    _ResBottleneck(48, 128), _ResBottleneck(128, 128),
                                    _ResBottleneck(128, 256, 2), _ResBottleneck(256, 256))
        self.deep = nn.Sequential(_ResBottleneck(256, 256, dilation=2), _ResBottleneck(256, 256, dilation=2),
                                  _ResBottleneck(256, 512, dilation=4), _ResBottleneck(512, 512, dilation=4),
                                  _ResBottleneck(512, 512, dilation=4))
        self.bins = (1, 2, 4, 8)
        self.reduce = _conv_bn(512, 256, 1)
        self.high = nn.Sequential(_conv_bn(3, 32, 3, 2), _conv_bn(32, 32, 3, 2), _conv_bn(32, 64, 3, 2))
        self.cff1 = _CFF(256, 256, 64, classes)
        self.cff2 = _CFF(64, 64, 64, classes)
        self.cls = nn.Conv2d(64, classes, 1)

    def forward(self, image):                      # (N, 3, 256, 256)
        half = F.interpolate(image, scale_factor=0.5, mode="bilinear", align_corners=False)
        quarter = F.interpolate(half, scale_factor=0.5, mode="bilinear", align_corners=False)
        mid = self.shared(half)                                             # /16 of full
        low = self.deep(self.shared(quarter))                               # /32 of full, dilated
        ctx = low
        for b in self.bins:
            pooled = F.adaptive_avg_pool2d(low, b)
            ctx = ctx + F.interpolate(pooled, size=low.shape[-2:], mode="bilinear", align_corners=False)
        low = self.reduce(ctx)
        high = self.high(image)                                             # /8
        f1, aux1 = self.cff1(low, mid)
        f2, aux2 = self.cff2(f1, high)
        up = F.interpolate(f2, scale_factor=2.0, mode="bilinear", align_corners=False)
        return self.cls(up), aux1, aux2


class _Attention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.q = nn.Linear(dim, dim)
        self.kv = nn.Linear(dim, 2 * dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, xq, xkv):
        n, lq, d = xq.shape
        h = self.heads
        q = self.q(xq).reshape(n, lq, h, d // h).transpose(1, 2)
        k, v = self.kv(xkv).reshape(n, xkv.shape[1], 2, h, d // h).permute(2, 0, 3, 1, 4).unbind(0)
        att = torch.softmax(torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(d // h), -1)
        y = torch.matmul(att, v).transpose(1, 2).reshape(n, lq, d)
        return self.proj(y)


class _EncoderBlock(nn.Module):
    def __init__(self, dim, heads, mlp_ratio=3):
        super().__init__()
        self.n1 = nn.LayerNorm(dim)
        self.attn = _Attention(dim, heads)
        self.n2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, dim * mlp_ratio), nn.GELU(), nn.Linear(dim * mlp_ratio, dim))

    def forward(self, x):
        y = self.n1(x)
        x = x + self.attn(y, y)
        return x + self.mlp(self.n2(x))


class _CrossFusion(nn.Module):
    """One branch's class token, projected to the other width, attends to
    [itself; the other branch's patch tokens]; projected back and added."""

    def __init__(self, dim, other, heads):
        super().__init__()
        self.to_other = nn.Sequential(nn.LayerNorm(dim), nn.GELU(), nn.Linear(dim, other))
        self.norm = nn.LayerNorm(other)
        self.attn = _Attention(other, heads)
        self.back = nn.Sequential(nn.LayerNorm(other), nn.GELU(), nn.Linear(other, dim))

    def forward(self, x, y):
        cls = self.to_other(x[:, :1])
        ctx = self.norm(torch.cat([cls, y[:, 1:]], 1))
        cls = cls + self.attn(ctx[:, :1], ctx)
        return torch.cat([x[:, :1] + self.back(cls), x[:, 1:]], 1)


class CrossViTLite(nn.Module):
    """CrossViT on 128 x 128 images: a small branch of 8 x 8 patches (256
    tokens, width 96, 3 heads) and a large branch of 16 x 16 patches (64
    tokens, width 192, 6 heads), each with a class token and learned
    positions.  Three multi-scale blocks: 1 small-branch and 3 large-branch
    encoder layers, then cross-attention fusion both ways.  The two class
    tokens are classified separately and the logits averaged."""

    def __init__(self, classes=1000, blocks=3):
        super().__init__()
        self.cfg = [(8, 96, 3, 1), (16, 192, 6, 3)]
        self.embeds = nn.ModuleList([nn.Conv2d(3, d, p, p) for p, d, _, _ in self.cfg])
        self.cls = nn.ParameterList([nn.Parameter(0.02 * torch.randn(1, 1, d)) for _, d, _, _ in self.cfg])
        self.pos = nn.ParameterList([nn.Parameter(0.02 * torch.randn(1, 1 + (128 // p) ** 2, d))
                                     for p, d, _, _ in self.cfg])
        self.stages = nn.ModuleList()
        for _ in range(blocks):
            self.stages.append(nn.ModuleList([
                nn.Sequential(*[_EncoderBlock(d, h) for _ in range(depth)]) for _, d, h, depth in self.cfg]
                + [_CrossFusion(96, 192, 6), _CrossFusion(192, 96, 3)]))
        self.norms = nn.ModuleList([nn.LayerNorm(d) for _, d, _, _ in self.cfg])
        self.heads = nn.ModuleList([nn.Linear(d, classes) for _, d, _, _ in self.cfg])

    def forward(self, image):                      # (N, 3, 128, 128)
        xs = []
        for i in range(2):
            t = self.embeds[i](image).flatten(2).transpose(1, 2)
            t = torch.cat([self.cls[i].expand(t.shape[0], -1, -1), t], 1) + self.pos[i]
            xs.append(t)
        for small, large, f_s, f_l in self.stages:
            a, b = small(xs[0]), large(xs[1])
            xs = [f_s(a, b), f_l(b, a)]
        logits = [self.heads[i](self.norms[i](xs[i][:, 0])) for i in range(2)]
        return 0.5 * (logits[0] + logits[1])


class _MixConv(nn.Module):
    """Depthwise Conv with the channels split evenly among kernel sizes."""

    def __init__(self, c, kernels, stride):
        super().__init__()
        n = len(kernels)
        self.sizes = [c // n + (1 if i < c % n else 0) for i in range(n)]
        self.convs = nn.ModuleList([nn.Conv2d(s, s, k, stride, k // 2, groups=s, bias=False)
                                    for s, k in zip(self.sizes, kernels)])

    def forward(self, x):
        if len(self.convs) == 1:
            return self.convs[0](x)
        return torch.cat([conv(part) for conv, part in zip(self.convs, x.split(self.sizes, 1))], 1)


class _MixBlock(nn.Module):
    def __init__(self, cin, cout, stride, expand, kernels, pw_groups, se, swish):
        super().__init__()
        mid = cin * expand
        act = nn.SiLU if swish else nn.ReLU
        layers = []
        if expand != 1:
            layers += [nn.Conv2d(cin, mid, 1, groups=pw_groups, bias=False), nn.BatchNorm2d(mid), act()]
        layers += [_MixConv(mid, kernels, stride), nn.BatchNorm2d(mid), act()]
        self.pre = nn.Sequential(*layers)
        self.se = None
        if se:
            red = max(1, int(cin * se))
            self.se = nn.Sequential(nn.Conv2d(mid, red, 1), nn.SiLU(), nn.Conv2d(red, mid, 1), nn.Sigmoid())
        self.post = nn.Sequential(nn.Conv2d(mid, cout, 1, groups=pw_groups, bias=False), nn.BatchNorm2d(cout))
        self.residual = cin == cout and stride == 1

    def forward(self, x):
        y = self.pre(x)
        if self.se is not None:
            y = y * self.se(y.mean((2, 3), keepdim=True))
        y = self.post(y)
        return x + y if self.residual else y


class MixNetS(nn.Module):
    """MixNet-S-like: stem 16, then (cin, cout, stride, expand, kernels,
    pointwise groups, SE ratio, Swish) blocks as in the paper's S layout,
    head 1x1 Conv to 1536, pool, classifier."""

    def __init__(self, classes=1000):
        super().__init__()
        k3, k35, k357, k3579 = (3,), (3, 5), (3, 5, 7), (3, 5, 7, 9)
        cfg = [
            (16, 16, 1, 1, k3, 1, 0, False),
            (16, 24, 2, 6, k3, 2, 0, False),
            (24, 24, 1, 3, k3, 2, 0, False),
            (24, 40, 2, 6, k357, 1, 0.5, True),
            (40, 40, 1, 6, k35, 2, 0.5, True),
            (40, 40, 1, 6, k35, 2, 0.5, True),
            (40, 40, 1, 6, k35, 2, 0.5, True),
            (40, 80, 2, 6, k357, 1, 0.25, True),
            (80, 80, 1, 6, k35, 1, 0.25, True),
            (80, 80, 1, 6, k35, 1, 0.25, True),
            (80, 120, 1, 6, k357, 2, 0.5, True),
            (120, 120, 1, 3, k3579, 2, 0.5, True),
            (120, 120, 1, 3, k3579, 2, 0.5, True),
            (120, 200, 2, 6, k3579, 1, 0.5, True),
            (200, 200, 1, 6, k3579, 2, 0.5, True),
            (200, 200, 1, 6, k3579, 2, 0.5, True),
        ]
        self.stem = _conv_bn(3, 16, 3, 2)
        self.blocks = nn.Sequential(*[_MixBlock(*c) for c in cfg])
        self.head = _conv_bn(200, 1536, 1)
        self.fc = nn.Linear(1536, classes)

    def forward(self, image):                      # (N, 3, 224, 224)
        return self.fc(self.head(self.blocks(self.stem(image))).mean((2, 3)))


class _WSConv(nn.Conv2d):
    """Conv2d with scaled weight standardisation and a learned gain."""

    def __init__(self, cin, cout, k, stride=1, groups=1):
        super().__init__(cin, cout, k, stride, k // 2, groups=groups, bias=True)
        self.gain = nn.Parameter(torch.ones(cout, 1, 1, 1))

    def forward(self, x):
        w = self.weight
        fan_in = w[0].numel()
        mean = w.mean((1, 2, 3), keepdim=True)
        var = ((w - mean) ** 2).mean((1, 2, 3), keepdim=True)
        w = (w - mean) * torch.rsqrt(var * fan_in + 1e-4) * self.gain
        return F.conv2d(x, w, self.bias, self.stride, self.padding, 1, self.groups)


_GELU_GAMMA = 1.7015043497085571


def _act(x):
    return F.gelu(x) * _GELU_GAMMA


class _NFBlock(nn.Module):
    """Normaliser-free bottleneck: h = act(x) / beta; out = shortcut + alpha * skipgain * f(h)."""

    def __init__(self, cin, cout, stride, beta, alpha, group_width=16):
        super().__init__()
        mid = cout // 2
        self.beta, self.alpha = beta, alpha
        self.c1 = _WSConv(cin, mid, 1)
        self.c2 = _WSConv(mid, mid, 3, stride, groups=mid // group_width)
        self.c3 = _WSConv(mid, mid, 3, 1, groups=mid // group_width)
        self.c4 = _WSConv(mid, cout, 1)
        self.se1 = nn.Conv2d(cout, max(1, cout // 4), 1)
        self.se2 = nn.Conv2d(max(1, cout // 4), cout, 1)
        self.short = None
        if stride != 1 or cin != cout:
            self.pool = stride
            self.short = _WSConv(cin, cout, 1)
        self.skip_gain = nn.Parameter(torch.tensor(0.2))

    def forward(self, x):
        h = _act(x) / self.beta
        s = x
        if self.short is not None:
            s = h if self.pool == 1 else F.avg_pool2d(h, self.pool)
            s = self.short(s)
        y = self.c1(h)
        y = self.c2(_act(y))
        y = self.c3(_act(y))
        y = self.c4(_act(y))
        g = torch.sigmoid(self.se2(F.relu(self.se1(y.mean((2, 3), keepdim=True)))))
        y = 2.0 * g * y
        return s + self.alpha * self.skip_gain * y


class NFResNetLite(nn.Module):
    """A small NF-ResNet / NFNet-style network on 160 x 160 images: a
    stride-2 WS-Conv stem and stride-2 Conv, four stages of 1, 2, 3, 2
    normaliser-free bottlenecks (widths 128, 256, 384, 512), expected
    variance tracked analytically to set beta = sqrt(var), alpha = 0.2;
    final 1x1 WS-Conv to 768, scaled GELU, pool, classifier."""

    def __init__(self, classes=1000, alpha=0.2):
        super().__init__()
        self.stem = nn.ModuleList([_WSConv(3, 16, 3, 2), _WSConv(16, 32, 3), _WSConv(32, 64, 3, 2)])
        blocks, cin, var = [], 64, 1.0
        for depth, width, stride in zip([1, 2, 3, 2], [128, 256, 384, 512], [1, 2, 2, 2]):
            for i in range(depth):
                beta = math.sqrt(var)
                blocks.append(_NFBlock(cin, width, stride if i == 0 else 1, beta, alpha))
                var = 1.0 + alpha ** 2 if i == 0 else var + alpha ** 2
                cin = width
        self.blocks = nn.Sequential(*blocks)
        self.final = _WSConv(cin, 768, 1)
        self.fc = nn.Linear(768, classes)

    def forward(self, image):                      # (N, 3, 160, 160)
        x = self.stem[0](image)
        x = self.stem[1](_act(x))
        x = self.stem[2](_act(x))
        x = self.blocks(x)
        return self.fc(_act(self.final(x)).mean((2, 3)))


BLIND22 = {
    "jacobi_eigen": dict(ctor=JacobiEigen, family="cyclic-jacobi-eigenvalue",
                         inputs=[("rows", ("N", 4, 4, 8), "float32", None)]),
    "lu_pivot_solve": dict(ctor=LUPivotSolve, family="lu-partial-pivoting",
                           inputs=[("rows", ("N", 4, 8, 12), "float32", None)]),
    "sor_sweeps": dict(ctor=SORSweeps, family="successive-over-relaxation",
                       inputs=[("rows", ("N", 16, 8), "float32", None)]),
    "adams_lotka_volterra": dict(ctor=AdamsLotkaVolterra, family="adams-bashforth-lotka-volterra",
                                 inputs=[("species", ("N", 8, 6), "float32", None)]),
    "frank_wolfe_portfolio": dict(ctor=FrankWolfePortfolio, family="frank-wolfe-conditional-gradient",
                                  inputs=[("assets", ("N", 24, 6), "float32", None)]),
    "nelder_mead_simplex": dict(ctor=NelderMeadSimplex, family="nelder-mead-simplex-search",
                                inputs=[("probs", ("N", 16, 5), "float32", None)]),
    "repvgg_a0": dict(ctor=RepVGGA0, family="structural-reparam-multibranch",
                      inputs=[("image", ("N", 3, 112, 112), "float32", None)]),
    "bifpn_det": dict(ctor=BiFPNDet, family="weighted-bidirectional-fpn",
                      inputs=[("image", ("N", 3, 256, 256), "float32", None)]),
    "icnet_seg": dict(ctor=ICNetSeg, family="image-cascade-segmentation",
                      inputs=[("image", ("N", 3, 256, 256), "float32", None)]),
    "crossvit_lite": dict(ctor=CrossViTLite, family="dual-branch-cross-token-vit",
                          inputs=[("image", ("N", 3, 128, 128), "float32", None)]),
    "mixnet_s": dict(ctor=MixNetS, family="mixed-depthwise-kernels",
                     inputs=[("image", ("N", 3, 224, 224), "float32", None)]),
    "nf_resnet_lite": dict(ctor=NFResNetLite, family="normalizer-free-resnet",
                           inputs=[("image", ("N", 3, 160, 160), "float32", None)]),
}
