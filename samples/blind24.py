r"""BLIND24: the twenty-fourth blind set, written on 2026-12-06 by a helper
session before any of it was measured.  Nothing in it has been timed,
profiled or run through onnxcost predict; it is to be measured first and
scored once only, at the end, with the code as it stands then
(bench/zoo_accuracy.py --set blind24).  None of its twelve families occurs
in another set (ZOO, BLIND, BLIND2 ... BLIND23, the reference models), so
no plan rule, feature, fit or calibration can have been made with any of
them in view.

Six families unroll a classical numerical procedure or simulation into a
fixed graph of small kernels at batch 1 (tensors of a few thousand
elements or fewer, some hundreds of nodes), each with a small learned
part:

  * The binomial option-pricing tree (Cox, Ross & Rubinstein, "Option
    Pricing: A Simplified Approach", 1979): 16 American puts per sample
    whose spot, volatility, rate and maturity come from an MLP, a 40-step
    recombining tree rolled back one level at a time (discounted
    risk-neutral expectation of the two children, then the early-exercise
    maximum), a European roll-back alongside for the exercise premium,
    and the delta read off the first level.
  * Perona-Malik anisotropic diffusion (Perona & Malik, "Scale-Space and
    Edge Detection Using Anisotropic Diffusion", 1990): a 3 x 32 x 32
    image, per-channel edge thresholds and step sizes from an MLP of the
    channel statistics, 16 explicit steps of four-neighbour differences
    (edge-replicated border) weighted by the exponential conductance, and
    a small Conv head on the result and its gradient energy.
  * Metropolis sampling of the Ising model (Metropolis, Rosenbluth,
    Rosenbluth, Teller & Teller, "Equation of State Calculations by Fast
    Computing Machines", 1953; Ising, 1925): 4 chains per sample on a
    periodic 16 x 16 lattice, inverse temperature, coupling, field and
    starting spins from learned layers, 8 checkerboard sweeps with fixed
    seeded uniforms, the flips decided by comparison with the Boltzmann
    factor, magnetisation and energy recorded per sweep.
  * The modified Lentz algorithm for continued fractions (Lentz, 1976;
    Thompson & Barnett, 1986; the incomplete-beta fraction as in Press et
    al., "Numerical Recipes", section 6.4), with Lanczos's log-gamma
    series (Lanczos, 1964): the regularised incomplete beta function for
    32 learned Beta laws at 4 points each, the symmetry swap chosen by
    Where, 12 terms of the fraction with the tiny-value guards.
  * A finite-volume solver for the one-dimensional shallow-water
    (Saint-Venant) equations with the Rusanov (local Lax-Friedrichs) flux
    (Rusanov, 1961): 8 dam-break problems per sample on 64 cells whose
    depths, gate position and flow come from an MLP, reflecting ghost
    cells, 16 explicit steps, and an MLP readout of the final state.
  * The matrix exponential by scaling and squaring (Moler & Van Loan,
    "Nineteen Dubious Ways to Compute the Exponential of a Matrix", 1978;
    Higham, 2005): 4 continuous-time Markov generators of order 8 per
    sample from a Linear layer, taken at 3 horizons, and 4 skew-symmetric
    generators of order 3 (rotations of a point set); each exponential a
    degree-8 Taylor polynomial by Horner's rule on the matrix scaled by
    2^-6, then six squarings.

The other six are published network designs of ordinary sizes:

  * GCNet (Cao, Xu, Lin, Wei & Hu, "GCNet: Non-local Networks Meet
    Squeeze-Excitation Networks and Beyond", 2019): a narrow bottleneck
    ResNet whose blocks in stages 2 to 4 carry a global context block
    (Softmax attention pooling over positions, a bottleneck transform with
    LayerNorm, added to every position); 224 x 224 images.
  * SqueezeNext (Gholami, Kwon, Wu, Tai, Yue, Jin, Zhao & Keutzer,
    "SqueezeNext: Hardware-Aware Neural Network Design", 2018): 1.0-SqNxt-23
    layout, each block a two-stage 1 x 1 squeeze, a 3 x 1 and a 1 x 3 Conv
    and a 1 x 1 expansion with a residual; 224 x 224 images.
  * LinkNet (Chaurasia & Culurciello, "LinkNet: Exploiting Encoder
    Representations for Efficient Semantic Segmentation", 2017): a
    3/8-width ResNet-18 encoder whose every stage halves the resolution,
    decoder blocks of 1 x 1 Conv, 3 x 3 transposed Conv and 1 x 1 Conv
    each added to the matching encoder output, a transposed-Conv
    full-resolution classifier; 256 x 256 images, 12 classes.
  * PiT (Heo, Yun, Han, Chun, Choe & Oh, "Rethinking Spatial Dimensions of
    Vision Transformers", 2021): a pooling-based vision transformer whose
    token grid shrinks 27 -> 14 -> 7 while the width doubles, pooling by a
    strided depthwise Conv on the patch tokens and a Linear on the class
    token; 224 x 224 images.
  * ResMLP (Touvron, Bojanowski, Caron, Cord, El-Nouby, Grave, Izacard,
    Joulin, Synnaeve, Verbeek & Jegou, "ResMLP: Feedforward Networks for
    Image Classification with Data-Efficient Training", 2021): Affine
    per-channel normalisation, a cross-patch Linear on the transposed
    tokens and a channel MLP, both with LayerScale; 224 x 224 images,
    16 x 16 patches.
  * PatchTST (Nie, Nguyen, Sinthong & Kalagnanam, "A Time Series is Worth
    64 Words: Long-term Forecasting with Transformers", 2023): reversible
    instance normalisation, channel-independent patching of a 7-variable,
    336-step history into 42 overlapping patches, a BatchNorm Transformer
    encoder with residual attention scores carried between layers, and a
    flatten head forecasting 96 steps.

To be measured with

    OMP_WAIT_POLICY=PASSIVE /usr/bin/python3 scripts/measure_zoo.py --set blind24 \
        binomial_american_put perona_malik_diffusion ising_metropolis \
        lentz_incomplete_beta shallow_water_rusanov expm_scaling_squaring \
        gcnet_resnet squeezenext_23 linknet_seg pit_tiny resmlp_lite \
        patchtst_forecast \
        --threads 1 2 --batches 1 4 16

Same table form as export.py's ZOO (ctor, family, inputs); exported by
scripts/ort_graphs.py's export() (opset 13, symbolic batch N).
"""

import torch
import torch.nn as nn
import torch.nn.functional as F


def _mlp(cin, hidden, cout):
    """Linear, GELU, Linear."""
    return nn.Sequential(nn.Linear(cin, hidden), nn.GELU(), nn.Linear(hidden, cout))


def _cbr(cin, cout, k=3, stride=1, pad=None, groups=1, relu=True):
    """Conv2d without bias (k an int or a (kh, kw) pair), BatchNorm2d and
    an optional ReLU; padding defaults to half the kernel."""
    kh, kw = (k, k) if isinstance(k, int) else k
    if pad is None:
        pad = (kh // 2, kw // 2)
    mods = [nn.Conv2d(cin, cout, (kh, kw), stride, pad, groups=groups, bias=False), nn.BatchNorm2d(cout)]
    if relu:
        mods.append(nn.ReLU(inplace=False))
    return nn.Sequential(*mods)


def _wrap(x, shift, dim, n):
    """Periodic shift by a fixed amount along dim (of static size n), as
    two slices and a Concat."""
    s = shift % n
    return torch.cat([x.narrow(dim, n - s, s), x.narrow(dim, 0, n - s)], dim)


# --------------------------------------------------------------------------
# Unrolled numerical procedures: small kernels at batch 1
# --------------------------------------------------------------------------

def _edge_pad(x):
    """One-pixel border by edge replication on the last two axes, as
    slices and Concats."""
    x = torch.cat([x[:, :, :1], x, x[:, :, -1:]], 2)
    return torch.cat([x[..., :1], x, x[..., -1:]], 3)


class BinomialAmericanPut(nn.Module):
    """Cox-Ross-Rubinstein tree for 16 American puts per sample (strike 1).
    An MLP maps 6 features to spot (exp of a bounded log-moneyness),
    volatility, rate and maturity; u = exp(sigma sqrt(dt)), d = 1 / u, p =
    (exp(r dt) - d) / (u - d).  Terminal prices s0 u^(2j - n) from a
    constant exponent vector; each of the 40 roll-back levels takes the
    discounted expectation of the upper and lower child and the maximum
    with immediate exercise; a European value is rolled back beside it.
    Returns the American value, the exercise premium, the delta and an MLP
    readout."""

    def __init__(self, feats=6, steps=40):
        super().__init__()
        self.steps = steps
        self.market = _mlp(feats, 32, 4)
        self.register_buffer("expo", 2.0 * torch.arange(steps + 1, dtype=torch.float32) - steps)
        self.head = _mlp(3, 24, 2)

    def forward(self, contracts):                 # (N, 16, 6)
        n = self.steps
        m = self.market(contracts)
        s0 = torch.exp(0.3 * torch.tanh(m[..., 0:1]))
        sigma = 0.1 + 0.4 * torch.sigmoid(m[..., 1:2])
        rate = 0.08 * torch.sigmoid(m[..., 2:3])
        dt = (0.25 + 1.75 * torch.sigmoid(m[..., 3:4])) / n
        vol = sigma * torch.sqrt(dt)
        up = torch.exp(vol)
        down = torch.exp(-vol)
        grow = torch.exp(rate * dt)
        disc = 1.0 / grow
        pu = (grow - down) / (up - down)
        wu, wd = disc * pu, disc * (1.0 - pu)
        price = s0 * torch.exp(vol * self.expo)                           # (N, 16, n + 1)
        amer = F.relu(1.0 - price)
        euro = amer
        delta = None
        for level in range(n - 1, -1, -1):
            price = price[..., 1:] * down
            amer = torch.maximum(wu * amer[..., 1:] + wd * amer[..., :-1], F.relu(1.0 - price))
            euro = wu * euro[..., 1:] + wd * euro[..., :-1]
            if level == 1:
                delta = (amer[..., 1:2] - amer[..., 0:1]) / (price[..., 1:2] - price[..., 0:1])
        feat = torch.cat([amer, amer - euro, delta], -1)
        return feat, self.head(feat).mean(1)


class PeronaMalikDiffusion(nn.Module):
    """Perona-Malik diffusion of a 3 x 32 x 32 image.  An MLP of each
    channel's mean and standard deviation gives its edge threshold K
    (Softplus) and step (at most 0.25).  Each of 16 steps pads the image by
    edge replication (slices and Concats), takes the north, south, east
    and west differences, weights each by exp(-(d / K)^2) and adds the step times their sum.  A
    two-layer strided Conv head reads the diffused image and its squared
    gradient."""

    def __init__(self, steps=16, classes=10):
        super().__init__()
        self.steps = steps
        self.tune = _mlp(2, 16, 2)
        self.conv = nn.Sequential(nn.Conv2d(6, 16, 3, 2, 1), nn.ReLU(), nn.Conv2d(16, 32, 3, 2, 1), nn.ReLU())
        self.fc = nn.Linear(32, classes)

    def forward(self, image):                     # (N, 3, 32, 32)
        stats = torch.stack([image.mean((2, 3)), image.std((2, 3))], -1)  # (N, 3, 2)
        t = self.tune(stats)
        k = F.softplus(t[..., 0]) + 0.05
        neg_inv_k2 = (-1.0 / (k * k)).unsqueeze(-1).unsqueeze(-1)
        lam = (0.25 * torch.sigmoid(t[..., 1])).unsqueeze(-1).unsqueeze(-1)
        u = image
        for _ in range(self.steps):
            p = _edge_pad(u)
            flux = None
            for d in (p[:, :, :-2, 1:-1] - u, p[:, :, 2:, 1:-1] - u,
                      p[:, :, 1:-1, 2:] - u, p[:, :, 1:-1, :-2] - u):
                term = torch.exp(d * d * neg_inv_k2) * d
                flux = term if flux is None else flux + term
            u = u + lam * flux
        p = _edge_pad(u)
        gx = p[:, :, 1:-1, 2:] - u
        gy = p[:, :, 2:, 1:-1] - u
        maps = torch.cat([u, gx * gx + gy * gy], 1)
        return u, self.fc(self.conv(maps).mean((2, 3)))


class IsingMetropolis(nn.Module):
    """Checkerboard Metropolis sampling of 4 Ising chains per sample on a
    periodic 16 x 16 lattice.  An MLP of each chain's 8 features gives the
    inverse temperature (0.2 to 1.0), coupling and field; a Linear layer
    gives starting-spin logits, signed by Where.  Each of 8 sweeps updates
    the two colours in turn: neighbour sum by periodic shifts, energy
    change dE = 2 s (J nb + h), a flip wherever the site has the colour and
    a fixed seeded uniform is below exp(-beta dE).  Magnetisation and
    energy per site are kept each sweep; an MLP reads the trace."""

    def __init__(self, feats=8, side=16, sweeps=8, chains=4):
        super().__init__()
        self.side, self.sweeps, self.chains = side, sweeps, chains
        self.phys = _mlp(feats, 32, 3)
        self.init = nn.Linear(feats, side * side)
        ii = torch.arange(side)
        black = ((ii.view(-1, 1) + ii.view(1, -1)) % 2) == 0
        self.register_buffer("pm", torch.tensor([1.0, -1.0]))
        self.register_buffer("colour", torch.stack([black, ~black]))
        gen = torch.Generator().manual_seed(2424)
        self.register_buffer("uniform", torch.rand(sweeps, 2, chains, side, side, generator=gen))
        self.head = _mlp(2 * sweeps, 32, 4)

    def _neigh(self, s):
        n = self.side
        return _wrap(s, 1, 2, n) + _wrap(s, -1, 2, n) + _wrap(s, 1, 3, n) + _wrap(s, -1, 3, n)

    def forward(self, chains):                    # (N, 4, 8)
        q = self.phys(chains)
        beta = (0.2 + 0.8 * torch.sigmoid(q[..., 0])).unsqueeze(-1).unsqueeze(-1)
        coup = (1.0 + 0.5 * torch.tanh(q[..., 1])).unsqueeze(-1).unsqueeze(-1)
        field = (0.3 * torch.tanh(q[..., 2])).unsqueeze(-1).unsqueeze(-1)
        logit = self.init(chains).view(-1, self.chains, self.side, self.side)
        s = torch.where(logit >= 0, self.pm[0], self.pm[1])
        trace = []
        for sweep in range(self.sweeps):
            for c in range(2):
                de = 2.0 * s * (coup * self._neigh(s) + field)
                accept = self.uniform[sweep, c] < torch.exp(-beta * de)
                s = torch.where(torch.logical_and(accept, self.colour[c]), -s, s)
            bonds = s * (_wrap(s, 1, 2, self.side) + _wrap(s, 1, 3, self.side))
            trace.append(s.mean((2, 3)))
            trace.append(-(coup * bonds + field * s).mean((2, 3)))
        trace = torch.stack(trace, -1)                                    # (N, 4, 2 sweeps)
        return s, trace, self.head(trace).mean(1)


def _lanczos_lgamma(x):
    """log Gamma(x) for x > 0 by Lanczos's series (g = 5, six terms)."""
    coef = (76.18009172947146, -86.50532032941677, 24.01409824083091,
            -1.231739572450155, 0.1208650973866179e-2, -0.5395239384953e-5)
    t = x + 5.5
    t = t - (x + 0.5) * torch.log(t)
    ser = 1.000000000190015
    for i, c in enumerate(coef):
        ser = ser + c / (x + float(i + 1))
    return torch.log(2.5066282746310005 * ser / x) - t


class LentzIncompleteBeta(nn.Module):
    """Regularised incomplete beta I_x(a, b) for 32 learned Beta laws per
    sample at 4 points each.  An MLP gives a and b (0.5 to 4.5) and the
    points (Sigmoid, clamped away from 0 and 1).  The prefactor x^a
    (1-x)^b / (a B(a, b)) uses Lanczos log-gammas; where x > (a+1)/(a+b+2)
    the arguments are swapped and the result reflected (Where).  The
    continued fraction is evaluated by the modified Lentz recurrence, 12
    terms of two partial numerators each, every C and D guarded against
    values below 1e-30.  Returns the CDF values and an MLP readout."""

    def __init__(self, feats=6, points=4, terms=12):
        super().__init__()
        self.points, self.terms = points, terms
        self.law = _mlp(feats, 32, 2 + points)
        self.register_buffer("tiny", torch.tensor(1e-30))
        self.head = _mlp(points + 2, 32, 4)

    def _guard(self, v):
        return torch.where(v.abs() < 1e-30, self.tiny, v)

    def forward(self, laws):                      # (N, 32, 6)
        z = self.law(laws)
        a0 = (0.5 + 4.0 * torch.sigmoid(z[..., 0:1])).expand(-1, -1, self.points)
        b0 = (0.5 + 4.0 * torch.sigmoid(z[..., 1:2])).expand(-1, -1, self.points)
        x0 = torch.clamp(torch.sigmoid(z[..., 2:]), 1e-4, 1.0 - 1e-4)
        swap = x0 > (a0 + 1.0) / (a0 + b0 + 2.0)
        a = torch.where(swap, b0, a0)
        b = torch.where(swap, a0, b0)
        x = torch.where(swap, 1.0 - x0, x0)
        logpre = (_lanczos_lgamma(a + b) - _lanczos_lgamma(a) - _lanczos_lgamma(b)
                  + a * torch.log(x) + b * torch.log(1.0 - x))
        qab, qap, qam = a + b, a + 1.0, a - 1.0
        c = None
        d = 1.0 / self._guard(1.0 - qab * x / qap)
        h = d
        for m in range(1, self.terms + 1):
            m2 = 2.0 * m
            num = m * (b - m) * x / ((qam + m2) * (a + m2))
            d = 1.0 / self._guard(1.0 + num * d)
            c = self._guard(1.0 + (num if c is None else num / c))
            h = h * d * c
            num = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
            d = 1.0 / self._guard(1.0 + num * d)
            c = self._guard(1.0 + num / c)
            h = h * d * c
        val = torch.exp(logpre) * h / a
        cdf = torch.where(swap, 1.0 - val, val)
        feat = torch.cat([cdf, a0[..., :1], b0[..., :1]], -1)
        return cdf, self.head(feat).mean(1)


class ShallowWaterRusanov(nn.Module):
    """Finite-volume shallow water on 64 cells of a channel of length 10
    for 8 dam-break problems per sample.  An MLP maps 6 features to the
    upstream and downstream depths, the gate position and sharpness and a
    uniform velocity; the state U = (h, hu) is stacked on one axis.  Each
    of 16 steps adds reflecting ghost cells (hu negated), computes the
    physical flux (hu, hu^2/h + g h^2 / 2) and the local wave speed |u| +
    sqrt(g h), the Rusanov interface flux with the larger speed of the two
    sides, and the conservative update.  Returns the final state and an
    MLP readout of it."""

    def __init__(self, feats=6, cells=64, steps=16, length=10.0, dt=0.015):
        super().__init__()
        self.steps, self.g = steps, 9.81
        dx = length / cells
        self.ratio = dt / dx
        self.register_buffer("xc", (torch.arange(cells, dtype=torch.float32) + 0.5) * dx)
        self.register_buffer("mirror", torch.tensor([1.0, -1.0]).view(2, 1))
        self.setup = _mlp(feats, 32, 5)
        self.length = length
        self.head = _mlp(2 * cells, 64, 4)

    def forward(self, dams):                      # (N, 8, 6)
        p = self.setup(dams)
        hl = 1.0 + 1.5 * torch.sigmoid(p[..., 0:1])
        hr = 0.3 + 0.5 * torch.sigmoid(p[..., 1:2])
        gate = self.length * (0.3 + 0.4 * torch.sigmoid(p[..., 2:3]))
        sharp = 2.0 + 8.0 * torch.sigmoid(p[..., 3:4])
        vel = 0.5 * torch.tanh(p[..., 4:5])
        h = hr + (hl - hr) * torch.sigmoid(sharp * (gate - self.xc))
        u = torch.stack([h, h * vel], 2)                                  # (N, 8, 2, M)
        g = self.g
        for _ in range(self.steps):
            ext = torch.cat([u[..., :1] * self.mirror, u, u[..., -1:] * self.mirror], -1)
            hh = torch.clamp(ext[:, :, 0], min=1e-3)
            q = ext[:, :, 1]
            vv = q / hh
            flux = torch.stack([q, q * vv + 0.5 * g * hh * hh], 2)
            speed = vv.abs() + torch.sqrt(g * hh)
            a = torch.maximum(speed[..., :-1], speed[..., 1:]).unsqueeze(2)
            f = 0.5 * (flux[..., :-1] + flux[..., 1:]) - 0.5 * a * (ext[..., 1:] - ext[..., :-1])
            u = u - self.ratio * (f[..., 1:] - f[..., :-1])
        return u, self.head(u.flatten(2)).mean(1)


def _expm_taylor(a, eye, scale_pow=6, degree=8):
    """exp(a) for a batch of square matrices: Taylor polynomial of a / 2^s
    by Horner's rule, then s squarings."""
    a = a * (0.5 ** scale_pow)
    p = eye + a / float(degree)
    for k in range(degree - 1, 0, -1):
        p = eye + torch.matmul(a, p) / float(k)
    for _ in range(scale_pow):
        p = torch.matmul(p, p)
    return p


class ExpmScalingSquaring(nn.Module):
    """Matrix exponentials by scaling and squaring.  A Linear layer maps
    each of 4 generator descriptions (10 features) to an 8 x 8 rate matrix
    (Softplus off the diagonal, minus the row sum on it) and a starting
    distribution (Softmax); the transition matrices exp(Q t) at 3 horizons
    (a learned base time times 1, 2, 4) carry it forward.  A second Linear
    gives 3 x 3 skew-symmetric generators whose exponentials rotate 16
    fixed points.  Returns the distributions, the rotated points and an
    MLP readout."""

    def __init__(self, feats=10, states=8, points=16, gens=4):
        super().__init__()
        self.states, self.gens = states, gens
        self.rates = nn.Linear(feats, states * states + states)
        self.skew = nn.Linear(feats, 3)
        self.base = nn.Parameter(torch.tensor(0.2))
        self.register_buffer("horizon", torch.tensor([1.0, 2.0, 4.0]).view(3, 1, 1))
        self.register_buffer("off", 1.0 - torch.eye(states))
        self.register_buffer("eye8", torch.eye(states))
        self.register_buffer("eye3", torch.eye(3))
        gen = torch.Generator().manual_seed(24)
        self.register_buffer("cloud", torch.randn(points, 3, generator=gen))
        self.head = _mlp(3 * states + 3, 32, 4)

    def forward(self, gens):                      # (N, 4, 10)
        k = self.states
        z = self.rates(gens)
        q = F.softplus(z[..., :k * k]).view(-1, self.gens, k, k) * self.off
        q = q - self.eye8 * q.sum(-1, keepdim=True)
        pi0 = torch.softmax(z[..., k * k:], -1).unsqueeze(2).unsqueeze(2)  # (N, G, 1, 1, k)
        t = F.softplus(self.base) * self.horizon                            # (3, 1, 1)
        trans = _expm_taylor(q.unsqueeze(2) * t, self.eye8)                 # (N, G, 3, k, k)
        dist = torch.matmul(pi0, trans).squeeze(3)                          # (N, G, 3, k)
        w = self.skew(gens)
        zero = torch.zeros_like(w[..., 0])
        skew = torch.stack([zero, -w[..., 2], w[..., 1],
                            w[..., 2], zero, -w[..., 0],
                            -w[..., 1], w[..., 0], zero], -1).view(-1, self.gens, 3, 3)
        rot = _expm_taylor(skew, self.eye3)
        moved = torch.matmul(self.cloud, rot.transpose(-1, -2))            # (N, G, P, 3)
        feat = torch.cat([dist.flatten(2), moved.mean(2)], -1)
        return dist, moved, self.head(feat).mean(1)


# --------------------------------------------------------------------------
# Published network designs
# --------------------------------------------------------------------------

class _GlobalContext(nn.Module):
    """GC block: a 1x1 Conv gives one attention logit per position, Softmax
    over positions pools the context vector, a 1x1 bottleneck with
    LayerNorm and ReLU transforms it, and it is added at every position."""

    def __init__(self, c, ratio=16):
        super().__init__()
        mid = max(8, c // ratio)
        self.mask = nn.Conv2d(c, 1, 1)
        self.transform = nn.Sequential(nn.Conv2d(c, mid, 1), nn.LayerNorm([mid, 1, 1]), nn.ReLU(),
                                       nn.Conv2d(mid, c, 1))

    def forward(self, x):
        n, c = x.shape[0], x.shape[1]
        logits = self.mask(x).flatten(2).softmax(-1)                       # (N, 1, HW)
        ctx = torch.matmul(x.flatten(2), logits.transpose(1, 2))           # (N, C, 1)
        return x + self.transform(ctx.view(n, c, 1, 1))


class _GCBottleneck(nn.Module):
    def __init__(self, cin, mid, cout, stride, gc):
        super().__init__()
        self.body = nn.Sequential(_cbr(cin, mid, 1), _cbr(mid, mid, 3, stride), _cbr(mid, cout, 1, relu=False))
        self.gc = _GlobalContext(cout) if gc else nn.Identity()
        self.down = None
        if stride != 1 or cin != cout:
            self.down = _cbr(cin, cout, 1, stride, pad=0, relu=False)

    def forward(self, x):
        skip = x if self.down is None else self.down(x)
        return F.relu(self.gc(self.body(x)) + skip)


class GCNetResNet(nn.Module):
    """Narrow GC-ResNet on 224 x 224 images: a two-Conv stem and max pool
    to 56 x 56, four stages of 2 bottlenecks (mid 16, 32, 64, 128; out 4x),
    global context blocks in stages 2 to 4 (ratio 1/16), GAP and a
    1000-way FC."""

    def __init__(self, classes=1000):
        super().__init__()
        self.stem = nn.Sequential(_cbr(3, 32, 3, 2), _cbr(32, 32, 3), nn.MaxPool2d(3, 2, 1))
        blocks, cin = [], 32
        for si, mid in enumerate((16, 32, 64, 128)):
            for i in range(2):
                blocks.append(_GCBottleneck(cin, mid, 4 * mid, 2 if (si > 0 and i == 0) else 1, si > 0))
                cin = 4 * mid
        self.blocks = nn.Sequential(*blocks)
        self.fc = nn.Linear(cin, classes)

    def forward(self, image):
        return self.fc(self.blocks(self.stem(image)).mean((2, 3)))


class _SqNxtBlock(nn.Module):
    """1x1 to C/2 (carrying the stride), 1x1 to C/4, 3x1 and 1x3 to out/2,
    1x1 to out; each Conv-BN-ReLU; residual (projected when shapes
    change) and a final ReLU."""

    def __init__(self, cin, cout, stride):
        super().__init__()
        self.body = nn.Sequential(
            _cbr(cin, cin // 2, 1, stride, pad=0), _cbr(cin // 2, cin // 4, 1),
            _cbr(cin // 4, cout // 2, (3, 1)), _cbr(cout // 2, cout // 2, (1, 3)),
            _cbr(cout // 2, cout, 1))
        self.proj = None
        if stride != 1 or cin != cout:
            self.proj = _cbr(cin, cout, 1, stride, pad=0)

    def forward(self, x):
        return F.relu(self.body(x) + (x if self.proj is None else self.proj(x)))


class SqueezeNext23(nn.Module):
    """1.0-SqNxt-23 on 224 x 224 images: a 7x7 stride-2 Conv of 64 and a
    3x3 stride-2 max pool, stages of 6, 6, 8 and 1 blocks of width 32, 64,
    128 and 256 (stride 2 at the head of stages 2 to 4), a 1x1 Conv to 128,
    GAP and a 1000-way FC."""

    def __init__(self, classes=1000):
        super().__init__()
        self.stem = nn.Sequential(_cbr(3, 64, 7, 2, pad=3), nn.MaxPool2d(3, 2, 1))
        blocks, cin = [], 64
        for si, (n, w) in enumerate(((6, 32), (6, 64), (8, 128), (1, 256))):
            for i in range(n):
                blocks.append(_SqNxtBlock(cin, w, 2 if (si > 0 and i == 0) else 1))
                cin = w
        self.blocks = nn.Sequential(*blocks)
        self.last = _cbr(cin, 128, 1)
        self.fc = nn.Linear(128, classes)

    def forward(self, image):
        return self.fc(self.last(self.blocks(self.stem(image))).mean((2, 3)))


class _BasicBlock(nn.Module):
    def __init__(self, cin, cout, stride):
        super().__init__()
        self.body = nn.Sequential(_cbr(cin, cout, 3, stride), _cbr(cout, cout, 3, relu=False))
        self.proj = None
        if stride != 1 or cin != cout:
            self.proj = _cbr(cin, cout, 1, stride, pad=0, relu=False)

    def forward(self, x):
        return F.relu(self.body(x) + (x if self.proj is None else self.proj(x)))


class _LinkDecoder(nn.Module):
    """1x1 Conv to m/4, 3x3 transposed Conv (stride 2) and a 1x1 Conv to n,
    each with BN and ReLU."""

    def __init__(self, m, n):
        super().__init__()
        q = m // 4
        self.net = nn.Sequential(
            _cbr(m, q, 1),
            nn.ConvTranspose2d(q, q, 3, 2, 1, output_padding=1, bias=False), nn.BatchNorm2d(q), nn.ReLU(),
            _cbr(q, n, 1))

    def forward(self, x):
        return self.net(x)


class LinkNetSeg(nn.Module):
    """LinkNet on 256 x 256 images, 12 classes: a 7x7 stride-2 stem of 24
    and max pool, an encoder of four ResNet-18 stages of widths 24, 48, 96,
    192 (two basic blocks each, every stage halving the resolution as in
    the paper), decoders adding their output to the next-shallower encoder
    stage, then a 3x3 transposed Conv (stride 2), a 3x3 Conv and a 2x2
    transposed Conv (stride 2) to the full-resolution class map."""

    def __init__(self, classes=12):
        super().__init__()
        widths = (24, 48, 96, 192)
        self.stem = nn.Sequential(_cbr(3, widths[0], 7, 2, pad=3), nn.MaxPool2d(3, 2, 1))
        enc, cin = [], widths[0]
        for w in widths:
            enc.append(nn.Sequential(_BasicBlock(cin, w, 2), _BasicBlock(w, w, 1)))
            cin = w
        self.enc = nn.ModuleList(enc)
        self.dec = nn.ModuleList([_LinkDecoder(widths[i], widths[i - 1] if i > 0 else widths[0])
                                  for i in range(4)])
        self.final = nn.Sequential(
            nn.ConvTranspose2d(widths[0], 16, 3, 2, 1, output_padding=1, bias=False), nn.BatchNorm2d(16), nn.ReLU(),
            _cbr(16, 16, 3),
            nn.ConvTranspose2d(16, classes, 2, 2))

    def forward(self, image):
        x = self.stem(image)
        feats = []
        for stage in self.enc:
            x = stage(x)
            feats.append(x)
        y = self.dec[3](feats[3]) + feats[2]
        y = self.dec[2](y) + feats[1]
        y = self.dec[1](y) + feats[0]
        y = self.dec[0](y)
        return self.final(y)


class _MHSA(nn.Module):
    """Multi-head self-attention written out: one qkv Linear, scaled
    scores, Softmax, output Linear."""

    def __init__(self, dim, heads):
        super().__init__()
        self.heads, self.dh = heads, dim // heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, dim)

    def forward(self, x, prev=None):
        t, d = x.shape[1], x.shape[2]
        qkv = self.qkv(x).view(-1, t, 3, self.heads, self.dh).permute(2, 0, 3, 1, 4)
        s = torch.matmul(qkv[0], qkv[1].transpose(-1, -2)) * (self.dh ** -0.5)
        if prev is not None:
            s = s + prev
        y = torch.matmul(s.softmax(-1), qkv[2]).transpose(1, 2).reshape(-1, t, d)
        return self.out(y), s


class _PreNormBlock(nn.Module):
    def __init__(self, dim, heads, ratio=4):
        super().__init__()
        self.n1 = nn.LayerNorm(dim)
        self.attn = _MHSA(dim, heads)
        self.n2 = nn.LayerNorm(dim)
        self.mlp = _mlp(dim, ratio * dim, dim)

    def forward(self, x):
        x = x + self.attn(self.n1(x))[0]
        return x + self.mlp(self.n2(x))


class _PiTPool(nn.Module):
    """Patch tokens: reshaped to the grid, depthwise-style 3x3 stride-2 Conv
    doubling the width (groups = input width); class token: Linear."""

    def __init__(self, cin, cout):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, 3, 2, 1, groups=cin)
        self.cls = nn.Linear(cin, cout)

    def forward(self, x, side):
        cls, tok = x[:, :1], x[:, 1:]
        c = tok.shape[2]
        grid = tok.transpose(1, 2).reshape(-1, c, side, side)
        grid = self.conv(grid)
        return torch.cat([self.cls(cls), grid.flatten(2).transpose(1, 2)], 1), grid.shape[-1]


class PiTTiny(nn.Module):
    """PiT on 224 x 224 images: a 16x16 stride-8 patch Conv gives 27 x 27
    tokens of 48 and a class token; stages of 2, 4 and 2 pre-norm blocks at
    widths 48, 96, 192 (2, 4, 8 heads) with a pooling layer between; final
    LayerNorm on the class token and a 1000-way head."""

    def __init__(self, classes=1000):
        super().__init__()
        dims, heads, depths = (48, 96, 192), (2, 4, 8), (2, 4, 2)
        self.embed = nn.Conv2d(3, dims[0], 16, 8)
        self.side = 27
        self.pos = nn.Parameter(torch.randn(1, dims[0], self.side, self.side) * 0.02)
        self.cls = nn.Parameter(torch.zeros(1, 1, dims[0]))
        self.stages = nn.ModuleList([nn.Sequential(*[_PreNormBlock(d, h) for _ in range(n)])
                                     for d, h, n in zip(dims, heads, depths)])
        self.pools = nn.ModuleList([_PiTPool(dims[i], dims[i + 1]) for i in range(2)])
        self.norm = nn.LayerNorm(dims[-1])
        self.head = nn.Linear(dims[-1], classes)

    def forward(self, image):
        g = self.embed(image) + self.pos
        tok = g.flatten(2).transpose(1, 2)
        x = torch.cat([self.cls.expand(tok.shape[0], -1, -1), tok], 1)
        side = self.side
        for i, stage in enumerate(self.stages):
            x = stage(x)
            if i < 2:
                x, side = self.pools[i](x, side)
        return self.head(self.norm(x[:, 0]))


class _Affine(nn.Module):
    """ResMLP's Affine: per-channel scale and shift, no statistics."""

    def __init__(self, dim):
        super().__init__()
        self.alpha = nn.Parameter(torch.ones(dim))
        self.beta = nn.Parameter(torch.zeros(dim))

    def forward(self, x):
        return self.alpha * x + self.beta


class _ResMLPLayer(nn.Module):
    def __init__(self, dim, patches, ratio=4, init=0.1):
        super().__init__()
        self.pre1, self.post1 = _Affine(dim), _Affine(dim)
        self.cross = nn.Linear(patches, patches)
        self.pre2, self.post2 = _Affine(dim), _Affine(dim)
        self.chan = _mlp(dim, ratio * dim, dim)
        self.g1 = nn.Parameter(torch.full((dim,), init))
        self.g2 = nn.Parameter(torch.full((dim,), init))

    def forward(self, x):                         # (N, P, D)
        y = self.cross(self.pre1(x).transpose(1, 2)).transpose(1, 2)
        x = x + self.g1 * self.post1(y)
        return x + self.g2 * self.post2(self.chan(self.pre2(x)))


class ResMLPLite(nn.Module):
    """ResMLP on 224 x 224 images: 16x16 patches (196 tokens of 128), 8
    layers, a final Affine, mean pooling and a 1000-way head."""

    def __init__(self, dim=128, depth=8, classes=1000):
        super().__init__()
        self.embed = nn.Conv2d(3, dim, 16, 16)
        self.layers = nn.Sequential(*[_ResMLPLayer(dim, 196) for _ in range(depth)])
        self.norm = _Affine(dim)
        self.head = nn.Linear(dim, classes)

    def forward(self, image):
        x = self.embed(image).flatten(2).transpose(1, 2)
        return self.head(self.norm(self.layers(x)).mean(1))


class _TSTLayer(nn.Module):
    """Post-norm encoder layer with BatchNorm over the model width (applied
    through a transpose), GELU feed-forward, and the raw attention scores
    passed on to the next layer."""

    def __init__(self, dim, heads, ff):
        super().__init__()
        self.attn = _MHSA(dim, heads)
        self.bn1 = nn.BatchNorm1d(dim)
        self.ff = _mlp(dim, ff, dim)
        self.bn2 = nn.BatchNorm1d(dim)

    def forward(self, x, prev):
        a, s = self.attn(x, prev)
        x = self.bn1((x + a).transpose(1, 2)).transpose(1, 2)
        x = self.bn2((x + self.ff(x)).transpose(1, 2)).transpose(1, 2)
        return x, s


class PatchTSTForecast(nn.Module):
    """PatchTST/42 on a 7-variable, 336-step history: RevIN (per series mean
    and standard deviation, learned affine), end padding by 8 replicated
    steps, 42 patches of 16 with stride 8 gathered by a constant index,
    a Linear patch embedding plus learned positions, 3 encoder layers
    (width 128, 16 heads, feed-forward 256) shared by all variables, a
    flatten head to 96 steps and the RevIN inverse."""

    def __init__(self, chans=7, lookback=336, horizon=96, patch=16, stride=8, dim=128, heads=16, ff=256, depth=3):
        super().__init__()
        n_patch = (lookback + stride - patch) // stride + 1
        self.stride, self.n_patch, self.chans = stride, n_patch, chans
        idx = torch.arange(n_patch).view(-1, 1) * stride + torch.arange(patch).view(1, -1)
        self.register_buffer("index", idx.flatten())
        self.patch = patch
        self.rev_w = nn.Parameter(torch.ones(chans, 1))
        self.rev_b = nn.Parameter(torch.zeros(chans, 1))
        self.embed = nn.Linear(patch, dim)
        self.pos = nn.Parameter(torch.randn(n_patch, dim) * 0.02)
        self.layers = nn.ModuleList([_TSTLayer(dim, heads, ff) for _ in range(depth)])
        self.head = nn.Linear(n_patch * dim, horizon)

    def forward(self, series):                    # (N, 7, 336)
        mu = series.mean(-1, keepdim=True)
        sd = torch.sqrt(series.var(-1, keepdim=True, unbiased=False) + 1e-5)
        x = (series - mu) / sd * self.rev_w + self.rev_b
        x = F.pad(x, (0, self.stride), mode="replicate")
        x = torch.index_select(x, 2, self.index).view(-1, self.n_patch, self.patch)
        x = self.embed(x) + self.pos                                        # (N * 7, P, D)
        prev = None
        for layer in self.layers:
            x, prev = layer(x, prev)
        y = self.head(x.flatten(1)).view(-1, self.chans, self.head.out_features)
        return (y - self.rev_b) / (self.rev_w + 1e-10) * sd + mu


BLIND24 = {
    "binomial_american_put": dict(ctor=BinomialAmericanPut, family="binomial-tree-option-pricing",
                                  inputs=[("contracts", ("N", 16, 6), "float32", None)]),
    "perona_malik_diffusion": dict(ctor=PeronaMalikDiffusion, family="perona-malik-anisotropic-diffusion",
                                   inputs=[("image", ("N", 3, 32, 32), "float32", None)]),
    "ising_metropolis": dict(ctor=IsingMetropolis, family="ising-metropolis-checkerboard",
                             inputs=[("chains", ("N", 4, 8), "float32", None)]),
    "lentz_incomplete_beta": dict(ctor=LentzIncompleteBeta, family="lentz-continued-fraction",
                                  inputs=[("laws", ("N", 32, 6), "float32", None)]),
    "shallow_water_rusanov": dict(ctor=ShallowWaterRusanov, family="shallow-water-finite-volume",
                                  inputs=[("dams", ("N", 8, 6), "float32", None)]),
    "expm_scaling_squaring": dict(ctor=ExpmScalingSquaring, family="matrix-exponential-scaling-squaring",
                                  inputs=[("gens", ("N", 4, 10), "float32", None)]),
    "gcnet_resnet": dict(ctor=GCNetResNet, family="global-context-block",
                         inputs=[("image", ("N", 3, 224, 224), "float32", None)]),
    "squeezenext_23": dict(ctor=SqueezeNext23, family="two-stage-squeeze-separable",
                           inputs=[("image", ("N", 3, 224, 224), "float32", None)]),
    "linknet_seg": dict(ctor=LinkNetSeg, family="encoder-linked-decoder-segmentation",
                        inputs=[("image", ("N", 3, 256, 256), "float32", None)]),
    "pit_tiny": dict(ctor=PiTTiny, family="pooling-vision-transformer",
                     inputs=[("image", ("N", 3, 224, 224), "float32", None)]),
    "resmlp_lite": dict(ctor=ResMLPLite, family="affine-cross-patch-mlp",
                        inputs=[("image", ("N", 3, 224, 224), "float32", None)]),
    "patchtst_forecast": dict(ctor=PatchTSTForecast, family="patched-channel-independent-transformer",
                              inputs=[("series", ("N", 7, 336), "float32", None)]),
}
