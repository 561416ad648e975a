r"""BLIND16: the sixteenth blind set, written on 2026-12-06 by a helper
session before any of it was measured.  It is to be measured before any
further change is scored, and scored only once, at the end, with the code
as it then stands (bench/zoo_accuracy.py --set blind16).  None of its
twelve families occurs in another set (ZOO, BLIND, BLIND2 ... BLIND15, the
reference models), so no plan rule, feature, fit or calibration was made
with any of them in view, and none of them was run through onnxcost
predict before being measured.

The families: a Hamiltonian neural network (Greydanus et al.: a learned
potential MLP over 8 coordinates and a learned constant inverse mass, its
gradient written out by hand through the Tanh layers, 32 kick-drift-kick
leapfrog steps, the energy after each); a liquid time-constant network
(Hasani et al.: 32 neurons with per-synapse Sigmoid conductances and
reversal potentials, the fused semi-implicit ODE step unfolded 6 times for
each of 16 input steps); a learned primal-dual reconstruction (Adler &
Oktem: compressed sensing of a 16 x 16 image from 96 random projections,
10 unrolled iterations, each a Conv1d dual update in measurement space and
a Conv2d primal update in image space with separate weights, the operator
and its adjoint as MatMuls); a differentiable quadratic-programming layer
(Amos & Kolter, OptNet, solved as OSQP does by ADMM: an MLP gives the
linear term and box bounds of an 8-variable, 12-constraint QP, 40
unrolled ADMM iterations with a fixed precomputed KKT inverse, Min / Max
projections, the primal residual after each); smoothed particle
hydrodynamics (Monaghan; Mueller et al.: 48 fluid particles in a 2-d box,
poly6 densities, a learned equation of state, spiky-kernel pressure and
viscosity forces by MatMuls over all pairs, a learned force field, 20
symplectic Euler steps with reflecting walls by Where); and
Richardson-Lucy deconvolution (Richardson; Lucy; with the total-variation
term of Dey et al.: a 32 x 32 image, a per-image mixture of 3 fixed
anisotropic PSFs predicted by a small Conv net, 24 multiplicative updates
with the blur and its adjoint as Convs, a learned Conv prior every 6th
update).  The other six: an FNet encoder (Lee-Thorp et al.: token mixing
by the real part of a 2-d DFT over 256 tokens x 192 features, written as
fixed cosine / sine MatMuls, post-norm feed-forward layers); an attention
U-Net (Oktay et al.: a 4-level Conv U-Net on 96 x 96 images whose skip
connections pass through additive attention gates driven by the coarser
decoder features); a ConvNeXt-V2-like classifier (Woo et al.: depthwise
7x7 blocks with global response normalisation in the inverted
bottleneck); a differential transformer (Ye et al.: causal attention
maps as the difference of two softmaxes with a learned re-parameterised
lambda, per-head RMS normalisation, SwiGLU feed-forward); a HorNet-like
classifier (Rao et al.: recursive gated convolutions of order 2 to 5,
one depthwise 7x7 Conv split into the gates); and a Mega-like encoder
(Ma et al.: a multi-dimensional damped EMA as a causal long depthwise
Conv1d whose kernel is computed from the decay parameters, feeding a
single-head gated attention with shared query/key projections).  The
first six are made of small kernels at batch 1 (most a few thousand
elements or fewer, a hundred or more kernels); the other six are of
ordinary sizes.

To be measured with

    OMP_WAIT_POLICY=PASSIVE /usr/bin/python3 scripts/measure_zoo.py --set blind16 \
        hnn_leapfrog ltc_network lpd_recon admm_qp_layer sph_fluid rl_deconv \
        fnet_encoder attention_unet convnextv2_lite diff_transformer hornet_lite \
        mega_encoder --threads 1 2 --batches 1 4 16

Same table form as export.py's ZOO (ctor, family, inputs, run); exported by
scripts/ort_graphs.py's export() (opset 13, symbolic batch N).
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def _conv_bn_relu(cin, cout, k=3, stride=1):
    """Conv (no bias), BatchNorm, ReLU."""
    return nn.Sequential(nn.Conv2d(cin, cout, k, stride, k // 2, bias=False),
                         nn.BatchNorm2d(cout), nn.ReLU())


class _LayerNorm2d(nn.LayerNorm):
    """LayerNorm over the channels of an (N, C, H, W) tensor."""

    def forward(self, x):
        return super().forward(x.permute(0, 2, 3, 1)).permute(0, 3, 1, 2)


class _RMSNorm(nn.Module):
    """x / RMS(x) over the last dim, times a learned gain."""

    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(1.0 + 0.1 * torch.randn(dim))

    def forward(self, x):
        return x * torch.rsqrt((x * x).mean(-1, keepdim=True) + self.eps) * self.weight


# --------------------------------------------------------------------------
# Small kernels at batch 1
# --------------------------------------------------------------------------

class HamiltonianLeapfrog(nn.Module):
    """Hamiltonian neural network (Greydanus, Dzamba & Yosinski) rolled out
    with a leapfrog (Stoermer-Verlet) integrator: H(q, p) = p^T M p / 2 +
    V(q) + k |q|^2 / 2, M = L L^T + I / 2 a learned constant inverse mass,
    V a learned MLP (8 -> 64 -> 64 -> 1, Tanh) whose gradient is written out
    by hand (MatMuls with the layers' weights and the Tanh derivatives);
    32 kick-drift-kick steps from the fed (q, p), one potential evaluation
    per step.  Returns the trajectory of q, the energy after each step and
    the final momenta."""

    def __init__(self, dof=8, hidden=64, steps=32, dt=0.05, spring=1.0):
        super().__init__()
        self.dof, self.steps, self.dt, self.k = dof, steps, dt, spring
        self.l1 = nn.Linear(dof, hidden)
        self.l2 = nn.Linear(hidden, hidden)
        self.l3 = nn.Linear(hidden, 1)
        self.mass_factor = nn.Parameter(torch.randn(dof, dof) / math.sqrt(dof))
        self.register_buffer("eye", torch.eye(dof))

    def _potential(self, q):
        """V(q) and dV/dq."""
        h1 = torch.tanh(self.l1(q))
        h2 = torch.tanh(self.l2(h1))
        v = self.l3(h2)[:, 0] + 0.5 * self.k * (q * q).sum(-1)
        g2 = (1.0 - h2 * h2) * self.l3.weight                               # (N, H)
        g1 = (1.0 - h1 * h1) * torch.matmul(g2, self.l2.weight)
        return v, torch.matmul(g1, self.l1.weight) + self.k * q

    def forward(self, state):                      # (N, 16)
        minv = torch.matmul(self.mass_factor, self.mass_factor.t()) + 0.5 * self.eye
        q, p = state[:, :self.dof], state[:, self.dof:]
        _, grad = self._potential(q)
        traj, energy = [], []
        for _ in range(self.steps):
            p = p - 0.5 * self.dt * grad
            q = q + self.dt * torch.matmul(p, minv)
            v, grad = self._potential(q)
            p = p - 0.5 * self.dt * grad
            traj.append(q)
            energy.append(0.5 * (p * torch.matmul(p, minv)).sum(-1) + v)
        return torch.stack(traj, 1), torch.stack(energy, 1), p


class LiquidTimeConstant(nn.Module):
    """Liquid time-constant network (Hasani et al.) of 32 neurons driven by
    8 input signals over 16 steps: every synapse (sensory and recurrent) a
    conductance w Sigmoid(sigma (v_pre - mu)) with its own reversal
    potential E; the fused semi-implicit step v <- (c v / dt + g_l v_l +
    sum w s E) / (c / dt + g_l + sum w s), unfolded 6 times per input step;
    positive constants by Softplus.  Returns the 4 motor neurons' affine
    read-out at every step and the final potentials."""

    def __init__(self, inputs=8, units=32, motor=4, unfolds=6, dt=1.0):
        super().__init__()
        self.motor, self.unfolds = motor, unfolds
        self.sub_dt = dt / unfolds
        self.in_w = nn.Parameter(1.0 + 0.1 * torch.randn(inputs))
        self.in_b = nn.Parameter(0.1 * torch.randn(inputs))
        self.s_mu = nn.Parameter(0.3 + 0.2 * torch.rand(inputs, units))
        self.s_sigma = nn.Parameter(3.0 + 5.0 * torch.rand(inputs, units))
        self.s_w = nn.Parameter(0.01 + torch.rand(inputs, units))
        self.s_erev = nn.Parameter(torch.randn(inputs, units).sign())
        self.mu = nn.Parameter(0.3 + 0.5 * torch.rand(units, units))
        self.sigma = nn.Parameter(3.0 + 5.0 * torch.rand(units, units))
        self.w = nn.Parameter(0.01 + torch.rand(units, units))
        self.erev = nn.Parameter(torch.randn(units, units).sign())
        self.gleak = nn.Parameter(0.001 + torch.rand(units))
        self.vleak = nn.Parameter(0.4 * torch.rand(units) - 0.2)
        self.cm = nn.Parameter(0.4 + 0.2 * torch.rand(units))
        self.out_w = nn.Parameter(1.0 + 0.1 * torch.randn(motor))
        self.out_b = nn.Parameter(0.1 * torch.randn(motor))
        self.v0 = nn.Parameter(0.1 * torch.randn(units))

    def forward(self, signals):                    # (N, 16, 8)
        sw, w = F.softplus(self.s_w), F.softplus(self.w)
        gleak, cm = F.softplus(self.gleak), F.softplus(self.cm) / self.sub_dt
        v = torch.zeros_like(signals[:, 0, :1]) + self.v0                   # (N, U)
        outs = []
        for t in range(signals.shape[1]):
            x = signals[:, t] * self.in_w + self.in_b                       # (N, I)
            s = sw * torch.sigmoid(self.s_sigma * (x.unsqueeze(-1) - self.s_mu))  # (N, I, U)
            s_num, s_den = (s * self.s_erev).sum(1), s.sum(1)
            for _ in range(self.unfolds):
                a = w * torch.sigmoid(self.sigma * (v.unsqueeze(-1) - self.mu))   # (N, U, U)
                num = cm * v + gleak * self.vleak + (a * self.erev).sum(1) + s_num
                den = cm + gleak + a.sum(1) + s_den
                v = num / (den + 1e-8)
            outs.append(v[:, :self.motor] * self.out_w + self.out_b)
        return torch.stack(outs, 1), v


class LearnedPrimalDual(nn.Module):
    """Learned primal-dual reconstruction (Adler & Oktem) of a 16 x 16 image
    from 96 compressed measurements y = A x, A a fixed Gaussian matrix (a
    buffer): the primal memory (5 channels) starts from the back-projection
    A^T y, the dual memory (5 channels over the 96 measurements) from zero;
    10 iterations, each a dual Conv1d net (7 -> 16 -> 16 -> 5, kernel 3,
    PReLU) of [dual, A f_1, y] added to the dual, then a primal Conv2d net
    (6 -> 16 -> 16 -> 5, 3x3, PReLU) of [primal, A^T h_0] added to the
    primal, with separate weights per iteration.  Returns the image (primal
    channel 0) and the RMS data misfit after each iteration."""

    def __init__(self, side=16, meas=96, iters=10, mem=5, hidden=16):
        super().__init__()
        self.side = side
        gen = torch.Generator().manual_seed(16)
        self.register_buffer("op", torch.randn(meas, side * side, generator=gen)
                             / math.sqrt(meas))
        self.register_buffer("primal0", torch.zeros(mem, side, side))
        self.register_buffer("dual0", torch.zeros(mem, 1))
        self.primal = nn.ModuleList([
            nn.Sequential(nn.Conv2d(mem + 1, hidden, 3, padding=1), nn.PReLU(hidden),
                          nn.Conv2d(hidden, hidden, 3, padding=1), nn.PReLU(hidden),
                          nn.Conv2d(hidden, mem, 3, padding=1)) for _ in range(iters)])
        self.dual = nn.ModuleList([
            nn.Sequential(nn.Conv1d(mem + 2, hidden, 3, padding=1), nn.PReLU(hidden),
                          nn.Conv1d(hidden, hidden, 3, padding=1), nn.PReLU(hidden),
                          nn.Conv1d(hidden, mem, 3, padding=1)) for _ in range(iters)])

    def _forward_op(self, img):                    # (N, S, S) -> (N, M)
        return torch.matmul(img.reshape(-1, self.side * self.side), self.op.t())

    def _adjoint(self, h):                         # (N, M) -> (N, 1, S, S)
        return torch.matmul(h, self.op).reshape(-1, 1, self.side, self.side)

    def forward(self, measurements):               # (N, 96)
        y = measurements
        f = self._adjoint(y) + self.primal0                                 # (N, mem, S, S)
        h = torch.zeros_like(y).unsqueeze(1) + self.dual0                   # (N, mem, M)
        misfit = []
        for dual_net, primal_net in zip(self.dual, self.primal):
            h = h + dual_net(torch.cat([h, self._forward_op(f[:, 1]).unsqueeze(1),
                                        y.unsqueeze(1)], 1))
            f = f + primal_net(torch.cat([f, self._adjoint(h[:, 0])], 1))
            r = self._forward_op(f[:, 0]) - y
            misfit.append(torch.sqrt((r * r).mean(-1)))
        return f[:, 0], torch.stack(misfit, 1)


class ADMMQuadraticLayer(nn.Module):
    """A differentiable quadratic-programming layer (Amos & Kolter, OptNet)
    solved by ADMM as in OSQP (Stellato et al.): an MLP (16 -> 64 -> 32,
    ReLU) gives the linear term q (scaled by 4) and the bounds l < 0 < u
    (halved Softplus) of min x^T P x / 2 + q^T x subject to l <= G x <= u,
    with P (8 x 8, positive definite) and G (12 x 8) fixed, and (P + sigma I
    + rho G^T G)^-1 a buffer; 40 unrolled iterations of the x-update (a MatMul with the
    inverse), the z-update (projection by Max / Min) and the dual update;
    the primal residual |G x - z| after each.  Returns a Linear (8 -> 4) of
    the solution, the solution, its objective and the residuals."""

    def __init__(self, feat=16, n=8, m=12, hidden=64, iters=40, rho=1.0, sigma=1e-3, out=4):
        super().__init__()
        self.n, self.m, self.iters, self.rho, self.sigma = n, m, iters, rho, sigma
        gen = torch.Generator().manual_seed(161)
        lower = torch.randn(n, n, generator=gen) / math.sqrt(n)
        p = lower @ lower.t() + 0.5 * torch.eye(n)
        g = torch.randn(m, n, generator=gen) / math.sqrt(n)
        self.register_buffer("p_mat", p)
        self.register_buffer("g_mat", g)
        kkt = p + sigma * torch.eye(n) + rho * g.t() @ g
        self.register_buffer("kkt_inv", torch.linalg.inv(kkt))
        self.enc = nn.Sequential(nn.Linear(feat, hidden), nn.ReLU(), nn.Linear(hidden, n + 2 * m))
        self.head = nn.Linear(n, out)

    def forward(self, features):                   # (N, 16)
        e = self.enc(features)
        q = 4.0 * e[:, :self.n]
        lo = -0.5 * F.softplus(e[:, self.n:self.n + self.m]) - 0.02
        hi = 0.5 * F.softplus(e[:, self.n + self.m:]) + 0.02
        x, z, y = torch.zeros_like(q), torch.zeros_like(lo), torch.zeros_like(lo)
        residuals = []
        for _ in range(self.iters):
            x = torch.matmul(self.sigma * x - q + torch.matmul(self.rho * z - y, self.g_mat),
                             self.kkt_inv)
            gx = torch.matmul(x, self.g_mat.t())
            z = torch.minimum(torch.maximum(gx + y / self.rho, lo), hi)
            y = y + self.rho * (gx - z)
            residuals.append(torch.sqrt(((gx - z) ** 2).sum(-1) + 1e-12))
        objective = 0.5 * (x * torch.matmul(x, self.p_mat)).sum(-1) + (q * x).sum(-1)
        return self.head(x), x, objective, torch.stack(residuals, 1)


class SPHFluid(nn.Module):
    """Smoothed particle hydrodynamics (Monaghan; Mueller, Charypar & Gross)
    of 48 particles in the unit box: all-pairs offsets and squared
    distances each step, densities by the poly6 kernel (ReLU(h^2 - r^2)^3),
    pressures from a learned equation of state (a stiffness term plus an
    MLP 1 -> 16 -> 1 of rho / rho0), symmetric spiky-kernel pressure forces
    and viscosity forces as row sums and MatMuls of the pair weights, a
    learned force field (MLP 2 -> 16 -> 2, Tanh of the positions) and
    gravity, a symplectic Euler step, reflecting walls (Where, Clip).  20
    steps.  Returns the final positions and velocities and the mean
    density after each step."""

    def __init__(self, particles=48, steps=20, h=0.2, dt=0.004, rho0=1.0, stiffness=2.0,
                 viscosity=0.05):
        super().__init__()
        self.steps, self.h, self.dt, self.rho0 = steps, h, dt, rho0
        self.stiff, self.visc = stiffness, viscosity
        self.mass = rho0 * 0.3 / particles
        self.poly6 = 4.0 / (math.pi * h ** 8)
        self.spiky = 30.0 / (math.pi * h ** 5)
        self.lap = 40.0 / (math.pi * h ** 5)
        self.register_buffer("not_self", 1.0 - torch.eye(particles))
        self.register_buffer("gravity", torch.tensor([0.0, -9.8]))
        self.eos = nn.Sequential(nn.Linear(1, 16), nn.Tanh(), nn.Linear(16, 1))
        self.field = nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 2))

    def forward(self, state):                      # (N, 48, 4)
        x = 0.5 + 0.3 * torch.tanh(state[..., :2])
        v = 0.2 * state[..., 2:]
        dens = []
        for _ in range(self.steps):
            off = x.unsqueeze(2) - x.unsqueeze(1)                           # [i, j] = x_i - x_j
            d2 = (off * off).sum(-1)
            w = F.relu(self.h * self.h - d2)
            rho = self.mass * self.poly6 * (w * w * w).sum(-1)              # (N, P)
            rel = rho / self.rho0
            p = self.stiff * (rel - 1.0) + 0.1 * self.eos(rel.unsqueeze(-1))[..., 0]
            r = torch.sqrt(d2 + 1e-8)
            hr = F.relu(self.h - r) * self.not_self
            inv_rho = 1.0 / rho
            cp = (self.mass * self.spiky) * (p.unsqueeze(-1) + p.unsqueeze(1)) * 0.5 \
                * inv_rho.unsqueeze(1) * hr * hr / r
            a_press = (cp.sum(-1, keepdim=True) * x - torch.matmul(cp, x)) * inv_rho.unsqueeze(-1)
            cv = (self.mass * self.lap) * hr * inv_rho.unsqueeze(1)
            a_visc = self.visc * (torch.matmul(cv, v) - cv.sum(-1, keepdim=True) * v) \
                * inv_rho.unsqueeze(-1)
            acc = a_press + a_visc + self.gravity + self.field(x)
            v = torch.clamp(v + self.dt * acc, -5.0, 5.0)
            x = x + self.dt * v
            out = (x < 0.0) | (x > 1.0)
            v = torch.where(out, -0.5 * v, v)
            x = torch.clamp(x, 0.0, 1.0)
            dens.append(rho.mean(-1))
        return x, v, torch.stack(dens, 1)


class RichardsonLucy(nn.Module):
    """Richardson-Lucy deconvolution (Richardson; Lucy) with the total-
    variation regulariser of Dey et al. and a learned prior, on 32 x 32
    single-channel images: the observation made positive by Softplus; a
    small Conv net (1 -> 8 -> 8, stride 2 each, mean pool, Linear, Softmax)
    picks per-image weights of 3 fixed anisotropic off-centre 5x5 PSFs, the
    blur being one Conv to 3 channels weighted and summed, its adjoint the
    same with the flipped PSFs; 24 updates u <- u A^T(y / A u) / (A^T 1 -
    lambda div(grad u / |grad u|)), the gradient and divergence by fixed
    difference Convs; every 6th update a learned Conv prior (1 -> 8 -> 1,
    Tanh) of log u multiplies u by exp(0.1 tanh(.)).  Returns the estimate,
    the PSF weights and the mean squared misfit at each update."""

    def __init__(self, iters=24, prior_every=6, tv=0.002):
        super().__init__()
        self.iters, self.every, self.tv = iters, prior_every, tv
        g = torch.arange(5, dtype=torch.float32) - 2.0
        yy, xx = g.reshape(5, 1), g.reshape(1, 5)
        psfs = []
        for sx, sy, cx, cy in ((1.4, 0.5, 0.4, -0.2), (0.6, 1.2, -0.3, 0.5), (1.0, 0.8, 0.2, 0.3)):
            k = torch.exp(-0.5 * (((xx - cx) / sx) ** 2 + ((yy - cy) / sy) ** 2))
            psfs.append(k / k.sum())
        psf = torch.stack(psfs).unsqueeze(1)                                # (3, 1, 5, 5)
        self.register_buffer("psf", psf)
        self.register_buffer("psf_t", torch.flip(psf, (2, 3)))
        grad = torch.zeros(2, 1, 3, 3)
        grad[0, 0, 1, 1], grad[0, 0, 1, 2] = -1.0, 1.0                      # forward differences
        grad[1, 0, 1, 1], grad[1, 0, 2, 1] = -1.0, 1.0
        div = torch.zeros(1, 2, 3, 3)
        div[0, 0, 1, 1], div[0, 0, 1, 0] = 1.0, -1.0                        # backward differences
        div[0, 1, 1, 1], div[0, 1, 0, 1] = 1.0, -1.0
        self.register_buffer("grad", grad)
        self.register_buffer("div", div)
        self.psf_net = nn.Sequential(nn.Conv2d(1, 8, 3, 2, 1), nn.ReLU(),
                                     nn.Conv2d(8, 8, 3, 2, 1), nn.ReLU(),
                                     nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 3))
        self.priors = nn.ModuleList([
            nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.Tanh(), nn.Conv2d(8, 1, 3, padding=1))
            for _ in range(iters // prior_every)])

    def _blur(self, u, w):
        return (F.conv2d(u, self.psf, padding=2) * w).sum(1, keepdim=True)

    def _adjoint(self, r, w):
        return (F.conv2d(r, self.psf_t, padding=2) * w).sum(1, keepdim=True)

    def forward(self, observed):                   # (N, 1, 32, 32)
        y = F.softplus(observed) + 0.01
        w = torch.softmax(self.psf_net(y), -1).reshape(-1, 3, 1, 1)
        norm = self._adjoint(torch.ones_like(y), w)
        u = y
        misfit = []
        for i in range(self.iters):
            au = self._blur(u, w)
            misfit.append(((au - y) ** 2).mean((1, 2, 3)))
            g = F.conv2d(u, self.grad, padding=1)                           # (N, 2, H, W)
            g = g * torch.rsqrt((g * g).sum(1, keepdim=True) + 1e-6)
            div = F.conv2d(g, self.div, padding=1)
            u = u * self._adjoint(y / (au + 1e-4), w) / torch.clamp(norm - self.tv * div, min=0.05)
            if (i + 1) % self.every == 0:
                u = u * torch.exp(0.1 * torch.tanh(self.priors[i // self.every](torch.log(u))))
        return u, w.flatten(1), torch.stack(misfit, 1)


# --------------------------------------------------------------------------
# Ordinary sizes
# --------------------------------------------------------------------------

class FNetEncoder(nn.Module):
    """FNet encoder (Lee-Thorp et al., "FNet: Mixing Tokens with Fourier
    Transforms") over 256 tokens: token (4000) and learned position
    embeddings (192), LayerNorm and a Linear; 4 layers, each x <- LN(x +
    Re(DFT_tokens(DFT_features(x)))) with the real part written as
    C_s x C_h - S_s x S_h (fixed cosine / sine buffers, MatMuls), then
    x <- LN(x + FF(x)) (768, GELU); a Tanh pooler of the first token and a
    Linear to 4 classes.  Returns the logits and the final hidden states."""

    def __init__(self, vocab=4000, seq=256, dim=192, depth=4, ff=768, classes=4):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.pos = nn.Parameter(0.02 * torch.randn(1, seq, dim))
        self.emb_norm = nn.LayerNorm(dim)
        self.emb_proj = nn.Linear(dim, dim)
        for name, n in (("s", seq), ("h", dim)):
            ang = 2.0 * math.pi * torch.outer(torch.arange(n), torch.arange(n)).remainder(n) / n
            self.register_buffer("cos_" + name, torch.cos(ang))
            self.register_buffer("sin_" + name, torch.sin(ang))
        self.mix_norms = nn.ModuleList([nn.LayerNorm(dim) for _ in range(depth)])
        self.ffs = nn.ModuleList([nn.Sequential(nn.Linear(dim, ff), nn.GELU(), nn.Linear(ff, dim))
                                  for _ in range(depth)])
        self.ff_norms = nn.ModuleList([nn.LayerNorm(dim) for _ in range(depth)])
        self.pooler = nn.Linear(dim, dim)
        self.cls = nn.Linear(dim, classes)

    def _mix(self, x):
        return torch.matmul(torch.matmul(self.cos_s, x), self.cos_h) \
            - torch.matmul(torch.matmul(self.sin_s, x), self.sin_h)

    def forward(self, tokens):                     # (N, 256) int64
        x = self.emb_proj(self.emb_norm(self.tok(tokens) + self.pos))
        for mix_norm, ff, ff_norm in zip(self.mix_norms, self.ffs, self.ff_norms):
            x = mix_norm(x + self._mix(x))
            x = ff_norm(x + ff(x))
        return self.cls(torch.tanh(self.pooler(x[:, 0]))), x


class _DoubleConv(nn.Sequential):
    def __init__(self, cin, cout):
        super().__init__(_conv_bn_relu(cin, cout), _conv_bn_relu(cout, cout))


class _AttentionGate(nn.Module):
    """Additive attention gate: the skip features x (a 2x2 stride-2 Conv)
    and the coarser gating features g (a 1x1 Conv) summed, ReLU, a 1x1 Conv
    to one channel, Sigmoid, bilinear upsampling to x's size; x scaled by
    it, then a 1x1 Conv + BN."""

    def __init__(self, cx, cg, ci):
        super().__init__()
        self.theta = nn.Conv2d(cx, ci, 2, 2, bias=False)
        self.phi = nn.Conv2d(cg, ci, 1)
        self.psi = nn.Conv2d(ci, 1, 1)
        self.out = nn.Sequential(nn.Conv2d(cx, cx, 1, bias=False), nn.BatchNorm2d(cx))

    def forward(self, x, g):
        alpha = torch.sigmoid(self.psi(F.relu(self.theta(x) + self.phi(g))))
        alpha = F.interpolate(alpha, scale_factor=2.0, mode="bilinear", align_corners=False)
        return self.out(x * alpha), alpha


class AttentionUNet(nn.Module):
    """Attention U-Net (Oktay et al.) segmenting 96 x 96 images into 4
    classes: double 3x3 Conv + BN + ReLU encoder levels of 16, 32, 64 and
    128 channels (MaxPool between, 96 -> 12); at each decoder level the skip
    features pass through an attention gate driven by the coarser decoder
    features, are concatenated with those upsampled by a 2x2 ConvTranspose,
    and go through a double Conv; a 1x1 Conv head.  Returns the logits and
    the finest attention map."""

    def __init__(self, classes=4, widths=(16, 32, 64, 128)):
        super().__init__()
        self.enc = nn.ModuleList()
        cin = 3
        for w in widths:
            self.enc.append(_DoubleConv(cin, w))
            cin = w
        self.gates, self.ups, self.dec = nn.ModuleList(), nn.ModuleList(), nn.ModuleList()
        for w in reversed(widths[:-1]):
            self.gates.append(_AttentionGate(w, 2 * w, w // 2))
            self.ups.append(nn.ConvTranspose2d(2 * w, w, 2, 2))
            self.dec.append(_DoubleConv(2 * w, w))
        self.head = nn.Conv2d(widths[0], classes, 1)

    def forward(self, image):                      # (N, 3, 96, 96)
        skips = []
        x = image
        for i, enc in enumerate(self.enc):
            if i:
                x = F.max_pool2d(x, 2)
            x = enc(x)
            skips.append(x)
        alpha = None
        for gate, up, dec, skip in zip(self.gates, self.ups, self.dec, reversed(skips[:-1])):
            s, alpha = gate(skip, x)
            x = dec(torch.cat([s, up(x)], 1))
        return self.head(x), alpha


class _GRN(nn.Module):
    """Global response normalisation on (N, H, W, C): per-channel L2 norms
    over the plane (ReduceL2), divided by their mean over the channels,
    gamma (x * n) + beta + x."""

    def __init__(self, dim):
        super().__init__()
        self.gamma = nn.Parameter(0.1 * torch.randn(dim))
        self.beta = nn.Parameter(0.1 * torch.randn(dim))

    def forward(self, x):
        gx = torch.norm(x, p=2, dim=(1, 2), keepdim=True)
        nx = gx / (gx.mean(-1, keepdim=True) + 1e-6)
        return self.gamma * (x * nx) + self.beta + x


class _V2Block(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dw = nn.Conv2d(dim, dim, 7, padding=3, groups=dim)
        self.norm = nn.LayerNorm(dim)
        self.fc1 = nn.Linear(dim, 4 * dim)
        self.grn = _GRN(4 * dim)
        self.fc2 = nn.Linear(4 * dim, dim)

    def forward(self, x):
        y = self.norm(self.dw(x).permute(0, 2, 3, 1))
        y = self.fc2(self.grn(F.gelu(self.fc1(y))))
        return x + y.permute(0, 3, 1, 2)


class ConvNeXtV2Lite(nn.Module):
    """ConvNeXt-V2-like classifier (Woo et al., "ConvNeXt V2") of 128 x 128
    images: a 4x4 stride-4 stem with a channel LayerNorm; stages of 48, 96,
    192 and 384 channels (2, 2, 4, 2 blocks), downsampled by LayerNorm and a
    2x2 stride-2 Conv; each block a depthwise 7x7 Conv, LayerNorm, Linear
    to 4x, GELU, GRN, Linear back, residual; global mean pool, LayerNorm,
    Linear to 100 classes."""

    def __init__(self, dims=(48, 96, 192, 384), depths=(2, 2, 4, 2), classes=100):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, dims[0], 4, 4), _LayerNorm2d(dims[0]))
        self.stages = nn.ModuleList()
        for i, (d, n) in enumerate(zip(dims, depths)):
            layers = []
            if i:
                layers += [_LayerNorm2d(dims[i - 1]), nn.Conv2d(dims[i - 1], d, 2, 2)]
            layers += [_V2Block(d) for _ in range(n)]
            self.stages.append(nn.Sequential(*layers))
        self.norm = nn.LayerNorm(dims[-1])
        self.head = nn.Linear(dims[-1], classes)

    def forward(self, image):                      # (N, 3, 128, 128)
        x = self.stem(image)
        for stage in self.stages:
            x = stage(x)
        return self.head(self.norm(x.mean((2, 3))))


class _DiffAttention(nn.Module):
    """Differential attention: 2h query/key heads of dh, two softmax maps
    per head (causal, additive mask) subtracted with weight lambda =
    exp(lq1 . lk1) - exp(lq2 . lk2) + lambda_init, times values of 2 dh,
    an RMS norm per head, scaled by 1 - lambda_init."""

    def __init__(self, dim, heads, seq, layer):
        super().__init__()
        self.h, self.dh, self.t = heads, dim // heads // 2, seq
        self.q = nn.Linear(dim, dim, bias=False)
        self.k = nn.Linear(dim, dim, bias=False)
        self.v = nn.Linear(dim, dim, bias=False)
        self.o = nn.Linear(dim, dim, bias=False)
        self.lambda_init = 0.8 - 0.6 * math.exp(-0.3 * layer)
        self.lam = nn.Parameter(0.1 * torch.randn(4, self.dh))
        self.sub_norm = _RMSNorm(2 * self.dh, 1e-5)

    def forward(self, x, mask):
        t = self.t
        q = self.q(x).reshape(-1, t, 2 * self.h, self.dh).transpose(1, 2)
        k = self.k(x).reshape(-1, t, 2 * self.h, self.dh).transpose(1, 2)
        v = self.v(x).reshape(-1, t, self.h, 2 * self.dh).transpose(1, 2)
        s = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.dh) + mask
        a = torch.softmax(s, dim=-1).reshape(-1, self.h, 2, t, t)
        lam = torch.exp((self.lam[0] * self.lam[1]).sum()) \
            - torch.exp((self.lam[2] * self.lam[3]).sum()) + self.lambda_init
        o = torch.matmul(a[:, :, 0] - lam * a[:, :, 1], v)                  # (N, h, T, 2dh)
        o = self.sub_norm(o) * (1.0 - self.lambda_init)
        return self.o(o.transpose(1, 2).reshape(-1, t, 2 * self.h * self.dh))


class _DiffBlock(nn.Module):
    def __init__(self, dim, heads, hidden, seq, layer):
        super().__init__()
        self.n1, self.attn = _RMSNorm(dim), _DiffAttention(dim, heads, seq, layer)
        self.n2 = _RMSNorm(dim)
        self.gate = nn.Linear(dim, hidden, bias=False)
        self.up = nn.Linear(dim, hidden, bias=False)
        self.down = nn.Linear(hidden, dim, bias=False)

    def forward(self, x, mask):
        x = x + self.attn(self.n1(x), mask)
        y = self.n2(x)
        return x + self.down(F.silu(self.gate(y)) * self.up(y))


class DiffTransformer(nn.Module):
    """Differential transformer (Ye et al., "Differential Transformer")
    decoder over 256 tokens of a 1024 vocabulary: token and learned
    position embeddings (192), 3 pre-RMSNorm blocks of causal differential
    attention (4 heads) and a SwiGLU feed-forward (512), a final RMSNorm and
    a Linear to the vocabulary.  Returns the logits."""

    def __init__(self, vocab=1024, seq=256, dim=192, depth=3, heads=4, hidden=512):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.pos = nn.Parameter(0.02 * torch.randn(1, seq, dim))
        self.register_buffer("mask", torch.full((seq, seq), -1e9).triu(1))
        self.blocks = nn.ModuleList([_DiffBlock(dim, heads, hidden, seq, i + 1)
                                     for i in range(depth)])
        self.norm = _RMSNorm(dim)
        self.lm_head = nn.Linear(dim, vocab, bias=False)

    def forward(self, tokens):                     # (N, 256) int64
        x = self.tok(tokens) + self.pos
        for blk in self.blocks:
            x = blk(x, self.mask)
        return self.lm_head(self.norm(x))


class _GnConv(nn.Module):
    """Recursive gated convolution of order n: a 1x1 Conv to 2C split into
    p_0 (C / 2^(n-1)) and the gates (C / 2^(n-1) + ... + C), one depthwise
    7x7 Conv over all the gates, split; p_{k+1} = 1x1 Conv(p_k) * gate_{k+1};
    a 1x1 Conv out."""

    def __init__(self, dim, order, scale=1.0 / 3.0):
        super().__init__()
        self.dims = [dim // 2 ** i for i in range(order)][::-1]
        self.scale = scale
        self.proj_in = nn.Conv2d(dim, 2 * dim, 1)
        total = sum(self.dims)
        self.dw = nn.Conv2d(total, total, 7, padding=3, groups=total)
        self.pws = nn.ModuleList([nn.Conv2d(self.dims[i], self.dims[i + 1], 1)
                                  for i in range(order - 1)])
        self.proj_out = nn.Conv2d(dim, dim, 1)

    def forward(self, x):
        p, gates = torch.split(self.proj_in(x), [self.dims[0], sum(self.dims)], 1)
        gates = torch.split(self.dw(gates) * self.scale, self.dims, 1)
        p = p * gates[0]
        for pw, gate in zip(self.pws, gates[1:]):
            p = pw(p) * gate
        return self.proj_out(p)


class _HorBlock(nn.Module):
    def __init__(self, dim, order):
        super().__init__()
        self.n1, self.gn = _LayerNorm2d(dim), _GnConv(dim, order)
        self.n2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))
        self.g1 = nn.Parameter(0.1 + 0.01 * torch.randn(dim, 1, 1))
        self.g2 = nn.Parameter(0.1 + 0.01 * torch.randn(dim))

    def forward(self, x):
        x = x + self.g1 * self.gn(self.n1(x))
        y = self.g2 * self.mlp(self.n2(x.permute(0, 2, 3, 1)))
        return x + y.permute(0, 3, 1, 2)


class HorNetLite(nn.Module):
    """HorNet-like classifier (Rao et al., "HorNet: Efficient High-Order
    Spatial Interactions with Recursive Gated Convolutions") of 128 x 128
    images: a 4x4 stride-4 stem with a channel LayerNorm; stages of 32, 64,
    128 and 256 channels (2, 2, 4, 2 blocks) with gnConv orders 2, 3, 4 and
    5, downsampled by LayerNorm and a 2x2 stride-2 Conv; each block a
    LayerNorm, gnConv and layer scale, then a LayerNorm, MLP (4x, GELU) and
    layer scale, residuals; mean pool, LayerNorm, Linear to 100 classes."""

    def __init__(self, dims=(32, 64, 128, 256), depths=(2, 2, 4, 2), orders=(2, 3, 4, 5),
                 classes=100):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, dims[0], 4, 4), _LayerNorm2d(dims[0]))
        self.stages = nn.ModuleList()
        for i, (d, n, o) in enumerate(zip(dims, depths, orders)):
            layers = []
            if i:
                layers += [_LayerNorm2d(dims[i - 1]), nn.Conv2d(dims[i - 1], d, 2, 2)]
            layers += [_HorBlock(d, o) for _ in range(n)]
            self.stages.append(nn.Sequential(*layers))
        self.norm = nn.LayerNorm(dims[-1])
        self.head = nn.Linear(dims[-1], classes)

    def forward(self, image):                      # (N, 3, 128, 128)
        x = self.stem(image)
        for stage in self.stages:
            x = stage(x)
        return self.head(self.norm(x.mean((2, 3))))


class _DampedEMA(nn.Module):
    """Multi-dimensional damped EMA over (N, D, L): per feature, a few
    expansion dims with decay 1 - alpha delta, as a causal depthwise Conv1d
    (padded by L - 1, the first L outputs kept) whose length-L kernel is
    computed from the parameters (Exp of t log(1 - alpha delta), reversed
    time), plus omega x, SiLU."""

    def __init__(self, dim, length, expand=4):
        super().__init__()
        self.D, self.L = dim, length
        self.delta = nn.Parameter(torch.randn(dim, expand, 1))
        self.alpha = nn.Parameter(torch.randn(dim, expand, 1))
        self.beta = nn.Parameter(1.0 + 0.1 * torch.randn(dim, expand, 1))
        self.eta = nn.Parameter(torch.randn(dim, expand, 1) / math.sqrt(expand))
        self.omega = nn.Parameter(0.1 * torch.randn(dim, 1))
        self.register_buffer("t_rev", torch.arange(length - 1, -1, -1, dtype=torch.float32))

    def forward(self, x):
        pa = torch.sigmoid(self.delta) * torch.sigmoid(self.alpha)
        decay = torch.exp(self.t_rev * torch.log(1.0 - pa * 0.999))        # (D, E, L)
        k = (torch.sigmoid(self.delta) * self.beta * self.eta * decay).sum(1, keepdim=True)
        y = F.conv1d(x, k.reshape(self.D, 1, self.L), padding=self.L - 1, groups=self.D)
        return F.silu(y[..., :self.L] + self.omega * x)


class _MegaLayer(nn.Module):
    """Mega layer: LayerNorm; the EMA branch x'; from x', the update gate u
    (Sigmoid), the shared z (SiLU) giving the query and key by per-dim
    scales and offsets, the reset gate r (SiLU) and the candidate's own
    term; values by SiLU(Linear(x)); one softmax attention head; the
    candidate SiLU(Linear(x') + Linear(r * attn)); y = x + u (h - x); then
    a pre-norm SiLU feed-forward with a residual."""

    def __init__(self, dim, zdim, hdim, length):
        super().__init__()
        self.dim, self.zdim, self.hdim = dim, zdim, hdim
        self.norm = nn.LayerNorm(dim)
        self.ema = _DampedEMA(dim, length)
        self.v_proj = nn.Linear(dim, hdim)
        self.mx_proj = nn.Linear(dim, dim + zdim + hdim + dim)
        self.qk_scale = nn.Parameter(1.0 + 0.1 * torch.randn(2, zdim))
        self.qk_shift = nn.Parameter(0.1 * torch.randn(2, zdim))
        self.h_proj = nn.Linear(hdim, dim)
        self.ffn_norm = nn.LayerNorm(dim)
        self.ffn = nn.Sequential(nn.Linear(dim, 2 * dim), nn.SiLU(), nn.Linear(2 * dim, dim))

    def forward(self, x):                          # (N, L, D)
        xn = self.norm(x)
        v = F.silu(self.v_proj(xn))
        mx = self.ema(xn.transpose(1, 2)).transpose(1, 2)
        u, zr, hx = torch.split(self.mx_proj(mx), [self.dim, self.zdim + self.hdim, self.dim], -1)
        z, r = torch.split(F.silu(zr), [self.zdim, self.hdim], -1)
        q = z * self.qk_scale[0] + self.qk_shift[0]
        k = z * self.qk_scale[1] + self.qk_shift[1]
        a = torch.softmax(torch.matmul(q, k.transpose(1, 2)) / math.sqrt(self.zdim), dim=-1)
        h = F.silu(hx + self.h_proj(torch.matmul(a, v) * r))
        x = x + torch.sigmoid(u) * (h - x)
        return x + self.ffn(self.ffn_norm(x))


class MegaEncoder(nn.Module):
    """Mega-like sequence classifier (Ma et al., "Mega: Moving Average
    Equipped Gated Attention") of 256 steps of 16 features: a Linear to 128,
    4 Mega layers (EMA expansion 4, z 64, values 256), a final LayerNorm, a
    mean over the steps and a Linear to 10 classes.  Returns the logits and
    the final features."""

    def __init__(self, feats=16, length=256, dim=128, depth=4, zdim=64, hdim=256, classes=10):
        super().__init__()
        self.inp = nn.Linear(feats, dim)
        self.layers = nn.ModuleList([_MegaLayer(dim, zdim, hdim, length) for _ in range(depth)])
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, classes)

    def forward(self, sequence):                   # (N, 256, 16)
        x = self.inp(sequence)
        for layer in self.layers:
            x = layer(x)
        x = self.norm(x)
        return self.head(x.mean(1)), x


BLIND16 = {
    "hnn_leapfrog": dict(ctor=HamiltonianLeapfrog, family="hamiltonian-neural-network",
                         inputs=[("state", ("N", 16), "float32", None)]),
    "ltc_network": dict(ctor=LiquidTimeConstant, family="liquid-time-constant",
                        inputs=[("signals", ("N", 16, 8), "float32", None)]),
    "lpd_recon": dict(ctor=LearnedPrimalDual, family="learned-primal-dual",
                      inputs=[("measurements", ("N", 96), "float32", None)]),
    "admm_qp_layer": dict(ctor=ADMMQuadraticLayer, family="differentiable-qp-layer",
                          inputs=[("features", ("N", 16), "float32", None)]),
    "sph_fluid": dict(ctor=SPHFluid, family="smoothed-particle-hydrodynamics",
                      inputs=[("state", ("N", 48, 4), "float32", None)]),
    "rl_deconv": dict(ctor=RichardsonLucy, family="richardson-lucy-deconvolution",
                      inputs=[("observed", ("N", 1, 32, 32), "float32", None)]),
    "fnet_encoder": dict(ctor=FNetEncoder, family="fourier-token-mixing",
                         inputs=[("tokens", ("N", 256), "int64", 4000)]),
    "attention_unet": dict(ctor=AttentionUNet, family="attention-gated-unet",
                           inputs=[("image", ("N", 3, 96, 96), "float32", None)]),
    "convnextv2_lite": dict(ctor=ConvNeXtV2Lite, family="global-response-normalization",
                            inputs=[("image", ("N", 3, 128, 128), "float32", None)]),
    "diff_transformer": dict(ctor=DiffTransformer, family="differential-attention",
                             inputs=[("tokens", ("N", 256), "int64", 1024)]),
    "hornet_lite": dict(ctor=HorNetLite, family="recursive-gated-convolution",
                        inputs=[("image", ("N", 3, 128, 128), "float32", None)]),
    "mega_encoder": dict(ctor=MegaEncoder, family="ema-gated-attention",
                         inputs=[("sequence", ("N", 256, 16), "float32", None)]),
}
