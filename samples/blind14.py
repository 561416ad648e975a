r"""BLIND14: the fourteenth blind set, written on 2026-12-06 by a helper
session before any of it was measured.  It is to be measured before any
further change is scored, and scored only once, at the end, with the code
as it then stands (bench/zoo_accuracy.py --set blind14).  None of its
twelve families occurs in another set (ZOO, BLIND, BLIND2 ... BLIND13, the
reference models), so no plan rule, feature, fit or calibration was made
with any of them in view, and none of them was run through onnxcost
predict before being measured.

The families: a deep echo state network (reservoir computing, Jaeger: two
stacked leaky-tanh reservoirs of 128 and 64 units with fixed sparse
recurrent matrices scaled to a spectral radius below one, driven for 48
steps by an input projected once for all steps, a linear readout of the
collected states); a lattice Boltzmann fluid (D2Q9 BGK on a periodic
16 x 16 grid with a round obstacle: moments by MatMuls with the velocity
set, the equilibrium, a per-cell relaxation rate from a small 1-D Conv
MLP, bounce-back by a Gather of the opposite directions and Where,
streaming as one fixed permutation Gather over the flattened populations,
20 steps); expectation-maximisation of a Gaussian mixture (6 diagonal
components fitted to 64 encoded points by 12 unrolled EM iterations, the
E-step by ReduceLogSumExp, the M-step by MatMuls of the responsibilities);
an inverse-kinematics solver (a 6-link planar arm reaching 8 targets,
forward kinematics by CumSum of angles and of link vectors, 16 damped
least-squares steps with the 2 x 2 system inverted in closed form, from
an MLP's initial guess); artificial Kuramoto oscillatory neurons (Miyato
et al.: 16 tokens of eight 4-d unit oscillators, natural rotations by
Einsum with per-group antisymmetric matrices, a token- and channel-mixing
coupling plus a conditional stimulus, the tangent projection and
renormalisation, 12 steps and the energy at each); and 2-D iterative
closest point registration (48 source to 64 target points, nearest
neighbours by ReduceMin / ArgMin and GatherElements, robust learned
weights, a weighted closed-form Procrustes rotation from its cosine and
sine, the rigid transform composed over 10 iterations).  The other six:
an axial-attention ResNet (Wang et al., Axial-DeepLab: bottleneck blocks
whose 3x3 Conv is replaced by multi-head attention along the height and
then the width, on 1-D Conv projections of the columns and rows, with
query-dependent relative positional terms by Einsum); a diffusion
transformer (Peebles & Xie, DiT: 4x4 patches of a 4 x 32 x 32 latent,
a sinusoidal timestep and a class embedding, adaLN-Zero blocks whose
shift, scale and gate come from one Linear of the condition, the output
unpatchified); a StyleGAN2-like synthesis network (Karras et al.: a
mapping MLP with pixel norm, modulated and demodulated Convs applied as
an input scaling and an output scaling whose demodulation is a MatMul of
the squared styles with the squared filter sums, bilinear upsampling,
noise injection from a fed noise map, skip ToRGB outputs, 4 to 64
pixels); a neighbourhood-attention transformer (Hassani et al., NAT:
5 x 5 sliding-window attention with windows clamped at the borders, the
keys and values gathered by one fixed-index Gather per layer, a relative
position bias, overlapping Conv tokenizer and downsamplers); a SPADE
generator (Park et al.: residual blocks whose BatchNorms without affine
parameters are modulated per pixel by a scale and a shift predicted by
Convs from the segmentation map resized by nearest Resize, nearest
upsampling, 4 to 64 pixels); and a convolutional sequence-to-sequence
model (Gehring et al., ConvS2S: GLU Conv1d encoder and causal decoder
layers, each decoder layer with its own dot-product attention over the
encoder outputs plus embeddings, a log-softmax over 1000 target words).
The first six are made of small kernels at batch 1 (most a few thousand
elements or fewer, a hundred or more kernels); the other six are of
ordinary sizes.

To be measured with

    OMP_WAIT_POLICY=PASSIVE /usr/bin/python3 scripts/measure_zoo.py --set blind14 \
        echo_state_net lbm_flow gmm_em ik_solver kuramoto_net icp_register \
        axial_resnet dit_lite stylegan2_lite nat_lite spade_gen convs2s \
        --threads 1 2 --batches 1 4 16

Same table form as export.py's ZOO (ctor, family, inputs, run); exported by
scripts/ort_graphs.py's export() (opset 13, symbolic batch N).
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def _bn_relu_conv(cin, cout, k=3, stride=1):
    """Conv (no bias), BatchNorm, ReLU."""
    return nn.Sequential(nn.Conv2d(cin, cout, k, stride, k // 2, bias=False),
                         nn.BatchNorm2d(cout), nn.ReLU())


# --------------------------------------------------------------------------
# Small kernels at batch 1
# --------------------------------------------------------------------------

def _reservoir(size, density, radius, gen):
    """A fixed sparse random recurrent matrix scaled to the given spectral
    radius."""
    w = torch.randn(size, size, generator=gen)
    w = w * (torch.rand(size, size, generator=gen) < density).float()
    rho = torch.linalg.eigvals(w).abs().max().item()
    return w * (radius / max(rho, 1e-6))


class EchoStateNet(nn.Module):
    """Deep echo state network (Jaeger; Gallicchio & Micheli): a 3-channel
    signal of 48 steps drives a leaky-tanh reservoir of 128 units whose
    states drive a second one of 64; the recurrent matrices are fixed, 10%
    dense, scaled to spectral radii 0.9 and 0.8; the input projections are
    computed once for all steps (one MatMul) and sliced per step.  A
    readout Linear of the input and both states (trained by ridge
    regression, here random) predicts 4 values per step.  Returns the
    predictions and both final states."""

    def __init__(self, inp=3, size1=128, size2=64, steps=48, out=4, leak1=0.3, leak2=0.5):
        super().__init__()
        self.steps, self.leak1, self.leak2 = steps, leak1, leak2
        gen = torch.Generator().manual_seed(14)
        self.register_buffer("w1", _reservoir(size1, 0.1, 0.9, gen).t().contiguous())
        self.register_buffer("w2", _reservoir(size2, 0.1, 0.8, gen).t().contiguous())
        self.register_buffer("win1", 0.5 * (torch.rand(inp, size1, generator=gen) * 2 - 1))
        self.register_buffer("b1", 0.1 * torch.randn(size1, generator=gen))
        self.register_buffer("win2", 0.3 * (torch.rand(size1, size2, generator=gen) * 2 - 1))
        self.readout = nn.Linear(inp + size1 + size2, out)

    def forward(self, signal):                     # (N, 48, 3)
        drive = torch.matmul(signal, self.win1) + self.b1                   # (N, T, 128)
        h1 = torch.zeros_like(drive[:, 0])
        h2 = torch.zeros_like(torch.matmul(h1, self.win2))
        states = []
        for t in range(self.steps):
            pre1 = drive[:, t] + torch.matmul(h1, self.w1)
            h1 = (1 - self.leak1) * h1 + self.leak1 * torch.tanh(pre1)
            pre2 = torch.matmul(h1, self.win2) + torch.matmul(h2, self.w2)
            h2 = (1 - self.leak2) * h2 + self.leak2 * torch.tanh(pre2)
            states.append(torch.cat([h1, h2], dim=-1))
        feats = torch.cat([signal, torch.stack(states, 1)], dim=-1)         # (N, T, 195)
        return self.readout(feats), h1, h2


class LatticeBoltzmann(nn.Module):
    """Lattice Boltzmann fluid, D2Q9 with BGK collisions, on a periodic
    16 x 16 grid with a round obstacle of radius 3: the initial velocity
    0.1 tanh of the fed field at unit density, populations at equilibrium;
    each of 20 steps takes the density (ReduceSum) and velocity (a MatMul
    with the velocity set, Div), the equilibrium (a MatMul, polynomial in
    e.u), a per-cell relaxation rate 1 / (0.55 + softplus) from a 1x1
    Conv1d MLP (3 -> 16 -> 1) of the moments, the collision, bounce-back
    at the obstacle (the opposite directions by Gather, Where), and
    streaming as one Gather of the flattened populations by a fixed
    periodic permutation.  Returns the final velocity field, its
    vorticity (central differences by roll) and the kinetic energy after
    each step."""

    def __init__(self, side=16, steps=20, hidden=16):
        super().__init__()
        self.side, self.steps = side, steps
        e = torch.tensor([[0, 0], [1, 0], [0, 1], [-1, 0], [0, -1],
                          [1, 1], [-1, 1], [-1, -1], [1, -1]])
        self.register_buffer("e", e.float())                                # (9, 2) x, y
        self.register_buffer("et", e.float().t().contiguous())              # (2, 9)
        w = torch.tensor([4 / 9] + [1 / 9] * 4 + [1 / 36] * 4)
        self.register_buffer("w", w.reshape(1, 9, 1))
        self.register_buffer("opposite", torch.tensor([0, 3, 4, 1, 2, 7, 8, 5, 6]))
        hw = side * side
        perm = []
        for q in range(9):
            ex, ey = int(e[q, 0]), int(e[q, 1])
            for y in range(side):
                for x in range(side):
                    perm.append(q * hw + ((y - ey) % side) * side + (x - ex) % side)
        self.register_buffer("perm", torch.tensor(perm))
        ys, xs = torch.meshgrid(torch.arange(side, dtype=torch.float32),
                                torch.arange(side, dtype=torch.float32), indexing="ij")
        solid = ((ys - side / 2 + 0.5) ** 2 + (xs - side / 3) ** 2) <= 9.0
        self.register_buffer("solid", solid.reshape(1, 1, hw))
        self.relax = nn.Sequential(nn.Conv1d(3, hidden, 1), nn.ReLU(), nn.Conv1d(hidden, 1, 1))

    def _equilibrium(self, rho, u):
        eu = torch.matmul(self.e, u)                                        # (N, 9, HW)
        usq = (u * u).sum(1, keepdim=True)
        return self.w * rho * (1 + 3 * eu + 4.5 * eu * eu - 1.5 * usq)

    def forward(self, velocity):                   # (N, 2, 16, 16)
        hw = self.side * self.side
        u = 0.1 * torch.tanh(velocity.flatten(2))                           # (N, 2, HW)
        u = torch.where(self.solid, torch.zeros_like(u), u)
        f = self._equilibrium(torch.ones_like(u[:, :1]), u)
        energy = []
        for _ in range(self.steps):
            rho = f.sum(1, keepdim=True)
            u = torch.matmul(self.et, f) / rho
            feq = self._equilibrium(rho, u)
            omega = 1.0 / (0.55 + F.softplus(self.relax(torch.cat([rho - 1, u], 1))))
            post = f - omega * (f - feq)
            f = torch.where(self.solid, torch.index_select(f, 1, self.opposite), post)
            f = torch.index_select(f.flatten(1), 1, self.perm).reshape(-1, 9, hw)
            energy.append(0.5 * (rho * (u * u).sum(1, keepdim=True)).mean((1, 2)))
        rho = f.sum(1, keepdim=True)
        u = (torch.matmul(self.et, f) / rho).reshape(-1, 2, self.side, self.side)
        ux, uy = u[:, 0], u[:, 1]
        vort = 0.5 * (torch.roll(uy, -1, 2) - torch.roll(uy, 1, 2)) \
            - 0.5 * (torch.roll(ux, -1, 1) - torch.roll(ux, 1, 1))
        return u, vort, torch.stack(energy, 1)


class GaussianMixtureEM(nn.Module):
    """Expectation-maximisation of a Gaussian mixture (Dempster et al.) as a
    differentiable clustering layer: 64 points of 6 features encoded by an
    MLP (6 -> 16 -> 4); 6 diagonal components started from learned means,
    unit variances and equal weights; 12 unrolled EM iterations, the
    E-step as log densities over (point, component) pairs normalised by
    ReduceLogSumExp, the M-step as MatMuls of the transposed
    responsibilities with the points and their squares, variances floored
    at 1e-3.  Returns the means, variances and weights, the mean
    log-likelihood at each iteration and the final hard assignments
    (ArgMax)."""

    def __init__(self, inp=6, dim=4, comps=6, iters=12):
        super().__init__()
        self.K, self.iters = comps, iters
        self.enc = nn.Sequential(nn.Linear(inp, 16), nn.ReLU(), nn.Linear(16, dim))
        self.mu0 = nn.Parameter(torch.randn(comps, dim))

    def forward(self, points):                     # (N, 64, 6)
        x = self.enc(points)                                                # (N, P, D)
        m = x.shape[1]
        mu = self.mu0 + torch.zeros_like(x[:, :self.K])
        var = torch.ones_like(mu)
        logpi = torch.full_like(mu[..., 0], -math.log(self.K))
        x2 = x * x
        lls = []
        for _ in range(self.iters):
            diff = x.unsqueeze(2) - mu.unsqueeze(1)                         # (N, P, K, D)
            logp = -0.5 * ((diff * diff) / var.unsqueeze(1)
                           + torch.log(var).unsqueeze(1)).sum(-1)
            logp = logp - 0.5 * x.shape[-1] * math.log(2 * math.pi) + logpi.unsqueeze(1)
            lse = torch.logsumexp(logp, dim=-1, keepdim=True)
            resp = torch.exp(logp - lse)                                    # (N, P, K)
            lls.append(lse.mean((1, 2)))
            rt = resp.transpose(1, 2)
            nk = resp.sum(1) + 1e-6                                         # (N, K)
            mu = torch.matmul(rt, x) / nk.unsqueeze(-1)
            var = torch.clamp(torch.matmul(rt, x2) / nk.unsqueeze(-1) - mu * mu, min=1e-3)
            logpi = torch.log(nk / m)
        return mu, var, torch.exp(logpi), torch.stack(lls, 1), resp.argmax(-1)


class IKSolver(nn.Module):
    """Inverse kinematics of a planar arm of 6 revolute links (learned
    lengths) reaching 8 targets per sample: an MLP (2 -> 32 -> 6, Tanh)
    guesses the joint angles, then 16 damped least-squares steps
    (Levenberg-Marquardt on the end effector): forward kinematics by
    CumSum of the angles and of the link vectors (Cos, Sin), the 2 x 6
    Jacobian from the end position minus the exclusive prefix positions,
    J J^T + lambda I inverted in closed form (determinant, adjugate),
    dtheta = J^T (J J^T + lambda I)^-1 e.  Returns the angles, the joint
    positions and the mean end-effector error before each step."""

    def __init__(self, links=6, iters=16, damping=0.05):
        super().__init__()
        self.iters, self.lam = iters, damping
        self.raw_len = nn.Parameter(0.3 * torch.randn(links))
        self.init = nn.Sequential(nn.Linear(2, 32), nn.Tanh(), nn.Linear(32, links))

    def _fk(self, theta, lengths):
        phi = torch.cumsum(theta, dim=-1)
        lx, ly = lengths * torch.cos(phi), lengths * torch.sin(phi)
        return torch.cumsum(lx, dim=-1), torch.cumsum(ly, dim=-1), lx, ly

    def forward(self, targets):                    # (N, 8, 2)
        lengths = 0.5 + torch.sigmoid(self.raw_len)
        reach = lengths.sum()
        goal = torch.tanh(targets) * (0.8 * reach)
        theta = self.init(goal)                                             # (N, 8, L)
        errors = []
        for _ in range(self.iters):
            px, py, lx, ly = self._fk(theta, lengths)
            ex = goal[..., 0:1] - px[..., -1:]
            ey = goal[..., 1:2] - py[..., -1:]
            errors.append(torch.sqrt(ex * ex + ey * ey + 1e-12).mean((1, 2)))
            jx = -(py[..., -1:] - (py - ly))
            jy = px[..., -1:] - (px - lx)
            a = (jx * jx).sum(-1, keepdim=True) + self.lam
            b = (jx * jy).sum(-1, keepdim=True)
            d = (jy * jy).sum(-1, keepdim=True) + self.lam
            det = a * d - b * b
            vx = (d * ex - b * ey) / det
            vy = (a * ey - b * ex) / det
            theta = theta + jx * vx + jy * vy
        px, py, _, _ = self._fk(theta, lengths)
        return theta, torch.stack([px, py], -1), torch.stack(errors, 1)


class KuramotoNet(nn.Module):
    """Artificial Kuramoto oscillatory neurons (Miyato et al., AKOrN): 16
    tokens of 12 features give a conditional stimulus c by a Linear to 32 =
    8 oscillators x 4; the oscillators start on the unit sphere from a
    learned state nudged by c; 12 steps of x <- normalise(x + gamma
    (Omega x + P_x(J x + c))), Omega per-group antisymmetric 4 x 4
    natural rotations (Einsum), J a token mixing (16 x 16) after a channel
    Linear, P_x the projection on the sphere's tangent at x; the energy
    -<x, J x + c> at each step.  A readout of the per-oscillator norms of a
    Linear of x, averaged over the tokens, to 10 classes.  Returns the
    logits, the final oscillators and the energies."""

    def __init__(self, inp=12, tokens=16, groups=8, n=4, steps=12, gamma=0.5, classes=10):
        super().__init__()
        self.G, self.n, self.steps, self.gamma = groups, n, steps, gamma
        dim = groups * n
        self.stim = nn.Linear(inp, dim)
        self.x0 = nn.Parameter(torch.randn(tokens, dim))
        self.omega_raw = nn.Parameter(0.3 * torch.randn(groups, n, n))
        self.mix = nn.Parameter(torch.randn(tokens, tokens) / math.sqrt(tokens))
        self.chan = nn.Linear(dim, dim, bias=False)
        self.read = nn.Linear(dim, dim)
        self.head = nn.Linear(groups, classes)

    def _unit(self, x):
        return x / torch.sqrt((x * x).sum(-1, keepdim=True) + 1e-8)

    def forward(self, features):                   # (N, 16, 12)
        c = self.stim(features)                                             # (N, T, 32)
        shape = (-1, c.shape[1], self.G, self.n)
        omega = self.omega_raw - self.omega_raw.transpose(1, 2)
        cg = c.reshape(shape)
        x = self._unit((self.x0 + 0.1 * c).reshape(shape))
        energies = []
        for _ in range(self.steps):
            y = torch.matmul(self.mix, self.chan(x.flatten(2))).reshape(shape) + cg
            rot = torch.einsum("ntgi,gji->ntgj", x, omega)
            tangent = y - (y * x).sum(-1, keepdim=True) * x
            energies.append(-(x * y).sum((1, 2, 3)))
            x = self._unit(x + self.gamma * (rot + tangent))
        z = self.read(x.flatten(2)).reshape(shape)
        amp = torch.sqrt((z * z).sum(-1) + 1e-8).mean(1)                    # (N, G)
        return self.head(amp), x.flatten(2), torch.stack(energies, 1)


class ICPRegister(nn.Module):
    """2-D iterative closest point registration (Besl & McKay) with learned
    robust weights: a per-point MLP (2 -> 32 -> 1, Sigmoid) weights the 48
    source points; 10 iterations of squared distances to the 64 target
    points, nearest neighbours by min over the targets (ReduceMin, ArgMin)
    and GatherElements, weights times exp(-d / s^2) with a shrinking s,
    the weighted centroids and the closed-form Procrustes rotation (its
    cosine and sine from the weighted dot and cross sums), the source
    moved and the rigid transform composed (2 x 2 MatMuls).  Returns the
    total rotation and translation, the weighted residual at each
    iteration and the final correspondences."""

    def __init__(self, iters=10):
        super().__init__()
        self.iters = iters
        self.weight = nn.Sequential(nn.Linear(2, 32), nn.ReLU(), nn.Linear(32, 1))
        self.register_buffer("eye", torch.eye(2))

    def forward(self, source, target):             # (N, 48, 2), (N, 64, 2)
        w0 = torch.sigmoid(self.weight(source))[..., 0]                     # (N, S)
        p = source
        rot = self.eye + torch.zeros_like(source[:, :2, :])
        trans = torch.zeros_like(source[:, 0])
        resid = []
        for i in range(self.iters):
            s2 = 4.0 * 0.7 ** i
            d2 = ((p.unsqueeze(2) - target.unsqueeze(1)) ** 2).sum(-1)     # (N, S, T)
            dmin, nn_idx = d2.min(dim=-1)
            q = torch.gather(target, 1, nn_idx.unsqueeze(-1).expand(-1, -1, 2))
            wt = w0 * torch.exp(-dmin / s2)
            wn = (wt / (wt.sum(1, keepdim=True) + 1e-8)).unsqueeze(-1)
            resid.append((wn[..., 0] * dmin).sum(1))
            ma, mb = (wn * p).sum(1), (wn * q).sum(1)                       # (N, 2)
            a, b = p - ma.unsqueeze(1), q - mb.unsqueeze(1)
            dot = (wn[..., 0] * (a * b).sum(-1)).sum(1)
            cross = (wn[..., 0] * (a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0])).sum(1)
            r = torch.sqrt(dot * dot + cross * cross + 1e-12)
            cs, sn = dot / r, cross / r
            rmat = torch.stack([cs, -sn, sn, cs], -1).reshape(-1, 2, 2)
            t = mb - torch.matmul(rmat, ma.unsqueeze(-1))[..., 0]
            p = torch.matmul(p, rmat.transpose(1, 2)) + t.unsqueeze(1)
            rot = torch.matmul(rmat, rot)
            trans = torch.matmul(rmat, trans.unsqueeze(-1))[..., 0] + t
        return rot, trans, torch.stack(resid, 1), nn_idx


# --------------------------------------------------------------------------
# Ordinary sizes
# --------------------------------------------------------------------------

def _rel_index(length):
    """(L, L) index of j - i + L - 1 into a (2L - 1) table."""
    r = torch.arange(length)
    return (r.unsqueeze(0) - r.unsqueeze(1)) + length - 1


class _AxialAttention(nn.Module):
    """Multi-head attention along one axis (2: height, 3: width) of an
    (N, C, H, W) map: the lines folded into the batch, a 1-D Conv to
    queries, keys and values with BatchNorm, logits q.k plus the
    query-dependent relative term q.r_(j-i) (Einsum) and a per-head
    relative bias, softmax, the values summed and the lines unfolded."""

    def __init__(self, ch, heads, length, axis):
        super().__init__()
        self.h, self.dh, self.L, self.axis = heads, ch // heads, length, axis
        self.qkv = nn.Conv1d(ch, 3 * ch, 1, bias=False)
        self.bn = nn.BatchNorm1d(3 * ch)
        self.rel_q = nn.Parameter(0.1 * torch.randn(self.dh, 2 * length - 1))
        self.rel_b = nn.Parameter(0.1 * torch.randn(heads, 2 * length - 1))
        self.register_buffer("idx", _rel_index(length))

    def forward(self, x):
        n, c, hgt, wid = x.shape
        if self.axis == 2:
            lines = x.permute(0, 3, 1, 2).reshape(-1, c, hgt)                # (N*W, C, H)
        else:
            lines = x.permute(0, 2, 1, 3).reshape(-1, c, wid)                # (N*H, C, W)
        qkv = self.bn(self.qkv(lines)).reshape(-1, 3, self.h, self.dh, self.L)
        q, k, v = qkv[:, 0], qkv[:, 1], qkv[:, 2]                          # (B, h, dh, L)
        rq = self.rel_q[:, self.idx]                                        # (dh, L, L)
        s = torch.matmul(q.transpose(-1, -2), k) + torch.einsum("bhdi,dij->bhij", q, rq)
        s = s / math.sqrt(self.dh) + self.rel_b[:, self.idx]
        a = torch.softmax(s, dim=-1)
        o = torch.matmul(v, a.transpose(-1, -2)).reshape(-1, c, self.L)     # (B, C, L)
        if self.axis == 2:
            return o.reshape(n, wid, c, hgt).permute(0, 2, 3, 1)
        return o.reshape(n, hgt, c, wid).permute(0, 2, 1, 3)


class _AxialBlock(nn.Module):
    def __init__(self, cin, mid, cout, heads, length, stride=1):
        super().__init__()
        self.reduce = nn.Sequential(nn.Conv2d(cin, mid, 1, bias=False), nn.BatchNorm2d(mid),
                                    nn.ReLU())
        self.attn_h = _AxialAttention(mid, heads, length, 2)
        self.attn_w = _AxialAttention(mid, heads, length, 3)
        self.expand = nn.Sequential(nn.Conv2d(mid, cout, 1, bias=False), nn.BatchNorm2d(cout))
        self.short = None
        if cin != cout:
            self.short = nn.Sequential(nn.Conv2d(cin, cout, 1, bias=False), nn.BatchNorm2d(cout))

    def forward(self, x):
        y = self.reduce(x)
        y = torch.relu(self.attn_w(self.attn_h(y)))
        s = x if self.short is None else self.short(x)
        return torch.relu(s + self.expand(y))


class AxialResNet(nn.Module):
    """Axial-attention ResNet (Wang et al., "Axial-DeepLab"; Ho et al.) on
    64 x 64 images: a stem of two 3x3 Convs (stride 2) to 64 channels at
    32 x 32; one axial bottleneck block (64 -> 32 -> 64, 4 heads) at
    32 x 32, a stride-2 Conv to 128 channels and two blocks (mid 64, 8
    heads) at 16 x 16, a stride-2 Conv to 256 channels and one block (mid
    128, 8 heads) at 8 x 8; a global mean and a Linear to 10 classes.
    Returns the logits and the last map."""

    def __init__(self, classes=10):
        super().__init__()
        self.stem = nn.Sequential(_bn_relu_conv(3, 32, 3, 2), _bn_relu_conv(32, 64))
        self.s1 = _AxialBlock(64, 32, 64, 4, 32)
        self.d1 = _bn_relu_conv(64, 128, 3, 2)
        self.s2 = nn.Sequential(_AxialBlock(128, 64, 128, 8, 16),
                                _AxialBlock(128, 64, 128, 8, 16))
        self.d2 = _bn_relu_conv(128, 256, 3, 2)
        self.s3 = _AxialBlock(256, 128, 256, 8, 8)
        self.fc = nn.Linear(256, classes)

    def forward(self, image):                      # (N, 3, 64, 64)
        x = self.s3(self.d2(self.s2(self.d1(self.s1(self.stem(image))))))
        return self.fc(x.mean((2, 3))), x


def _sincos_2d(dim, side):
    """Fixed 2-D sine-cosine position embedding, (side * side, dim)."""
    quarter = dim // 4
    freq = 1.0 / (10000 ** (torch.arange(quarter, dtype=torch.float32) / quarter))
    pos = torch.arange(side, dtype=torch.float32)
    oy = torch.outer(pos, freq)
    ey = torch.cat([torch.sin(oy), torch.cos(oy)], 1)                      # (side, dim / 2)
    grid_y = ey.unsqueeze(1).expand(side, side, dim // 2)
    grid_x = ey.unsqueeze(0).expand(side, side, dim // 2)
    return torch.cat([grid_y, grid_x], -1).reshape(side * side, dim)


class _DiTBlock(nn.Module):
    def __init__(self, dim, heads, mlp=4):
        super().__init__()
        self.h, self.dh = heads, dim // heads
        self.n1 = nn.LayerNorm(dim, elementwise_affine=False, eps=1e-6)
        self.n2 = nn.LayerNorm(dim, elementwise_affine=False, eps=1e-6)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.mlp = nn.Sequential(nn.Linear(dim, mlp * dim), nn.GELU(approximate="tanh"),
                                 nn.Linear(mlp * dim, dim))
        self.ada = nn.Sequential(nn.SiLU(), nn.Linear(dim, 6 * dim))
        nn.init.normal_(self.ada[1].weight, std=0.02)

    def forward(self, x, c):
        sh1, sc1, g1, sh2, sc2, g2 = self.ada(c).unsqueeze(1).chunk(6, dim=-1)
        y = self.n1(x) * (1 + sc1) + sh1
        t = x.shape[1]
        qkv = self.qkv(y).reshape(-1, t, 3, self.h, self.dh).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        a = torch.softmax(torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.dh), dim=-1)
        o = torch.matmul(a, v).transpose(1, 2).reshape(-1, t, self.h * self.dh)
        x = x + g1 * self.proj(o)
        return x + g2 * self.mlp(self.n2(x) * (1 + sc2) + sh2)


class DiTLite(nn.Module):
    """Diffusion transformer (Peebles & Xie, "Scalable Diffusion Models with
    Transformers") on a 4 x 32 x 32 latent: 4x4 patches (a stride-4 Conv)
    to 64 tokens of 192-d with fixed 2-D sine-cosine positions; the
    condition = an MLP of a sinusoidal embedding of the timestep (500
    sigmoid of the fed value) plus a class embedding (10 classes and a
    null class); 6 adaLN-Zero blocks (6 heads), each with one SiLU + Linear
    of the condition giving the shifts, scales and gates; a modulated final
    LayerNorm, a Linear to 4 x 4 x 8 per token, unpatchified to the noise
    and variance predictions."""

    def __init__(self, ch=4, side=32, patch=4, dim=192, depth=6, heads=6, classes=10):
        super().__init__()
        self.ch, self.p, self.g, self.dim = ch, patch, side // patch, dim
        self.embed = nn.Conv2d(ch, dim, patch, patch)
        self.register_buffer("pos", _sincos_2d(dim, self.g).unsqueeze(0))
        half = 128
        self.register_buffer("freqs", torch.exp(-math.log(10000) *
                                                torch.arange(half, dtype=torch.float32) / half))
        self.t_mlp = nn.Sequential(nn.Linear(2 * half, dim), nn.SiLU(), nn.Linear(dim, dim))
        self.y_emb = nn.Embedding(classes + 1, dim)
        self.blocks = nn.ModuleList([_DiTBlock(dim, heads) for _ in range(depth)])
        self.norm = nn.LayerNorm(dim, elementwise_affine=False, eps=1e-6)
        self.final_ada = nn.Sequential(nn.SiLU(), nn.Linear(dim, 2 * dim))
        self.out = nn.Linear(dim, patch * patch * 2 * ch)

    def forward(self, latent, timestep, label):    # (N, 4, 32, 32), (N,), (N,)
        x = self.embed(latent).flatten(2).transpose(1, 2) + self.pos        # (N, 64, D)
        t = 500.0 * torch.sigmoid(timestep)
        ang = t.unsqueeze(-1) * self.freqs
        c = self.t_mlp(torch.cat([torch.cos(ang), torch.sin(ang)], -1)) + self.y_emb(label)
        for blk in self.blocks:
            x = blk(x, c)
        sh, sc = self.final_ada(c).unsqueeze(1).chunk(2, dim=-1)
        x = self.out(self.norm(x) * (1 + sc) + sh)                          # (N, 64, p*p*2C)
        x = x.reshape(-1, self.g, self.g, self.p, self.p, 2 * self.ch)
        x = x.permute(0, 5, 1, 3, 2, 4).reshape(-1, 2 * self.ch, self.g * self.p,
                                                  self.g * self.p)
        return x[:, :self.ch], x[:, self.ch:]


class _ModConv(nn.Module):
    """A StyleGAN2 modulated Conv, as input scaling by the style, a plain
    Conv, output scaling by the demodulation rsqrt(s^2 . sum_k w^2) (a
    MatMul of the squared styles with the squared filter sums), then noise,
    bias and a scaled LeakyReLU (the ToRGB form: no demodulation, noise or
    activation)."""

    def __init__(self, cin, cout, wdim, k=3, up=False, rgb=False):
        super().__init__()
        self.up, self.rgb, self.k = up, rgb, k
        self.weight = nn.Parameter(torch.randn(cout, cin, k, k) / math.sqrt(cin * k * k))
        self.affine = nn.Linear(wdim, cin)
        nn.init.constant_(self.affine.bias, 1.0)
        self.bias = nn.Parameter(torch.zeros(1, cout, 1, 1))
        if not rgb:
            self.noise_gain = nn.Parameter(torch.full((1, 1, 1, 1), 0.1))

    def forward(self, x, w, noise=None):
        s = self.affine(w)                                                  # (N, Cin)
        x = x * s.unsqueeze(-1).unsqueeze(-1)
        if self.up:
            x = F.interpolate(x, scale_factor=2.0, mode="bilinear", align_corners=False)
        y = F.conv2d(x, self.weight, padding=self.k // 2)
        if self.rgb:
            return y + self.bias
        wsq = (self.weight * self.weight).sum((2, 3))                       # (Cout, Cin)
        demod = torch.rsqrt(torch.matmul(s * s, wsq.t()) + 1e-8)
        y = y * demod.unsqueeze(-1).unsqueeze(-1) + self.noise_gain * noise + self.bias
        return F.leaky_relu(y, 0.2) * math.sqrt(2.0)


class StyleGAN2Lite(nn.Module):
    """StyleGAN2-like generator (Karras et al., "Analyzing and Improving the
    Image Quality of StyleGAN") to 64 x 64: a mapping network (pixel norm,
    4 Linear + LeakyReLU layers, 64 -> 128) with truncation 0.7 towards a
    learned mean; a learned 4 x 4 x 128 constant; one modulated Conv at
    4 x 4, then per level (8, 16, 32, 64 pixels; 128, 64, 32, 16
    channels) an upsampling modulated Conv (bilinear Resize first) and a
    modulated Conv, each with noise from the fed 64 x 64 noise map average-
    pooled to its size; a ToRGB (modulated 1x1 Conv) per level summed into
    the bilinearly upsampled image.  Returns the image and the w vector."""

    def __init__(self, zdim=64, wdim=128, chans=(128, 128, 64, 32, 16)):
        super().__init__()
        layers = []
        d = zdim
        for _ in range(4):
            layers += [nn.Linear(d, wdim), nn.LeakyReLU(0.2)]
            d = wdim
        self.mapping = nn.Sequential(*layers)
        self.w_avg = nn.Parameter(0.1 * torch.randn(wdim))
        self.const = nn.Parameter(torch.randn(1, chans[0], 4, 4))
        self.conv0 = _ModConv(chans[0], chans[0], wdim)
        self.rgb0 = _ModConv(chans[0], 3, wdim, k=1, rgb=True)
        self.ups = nn.ModuleList()
        self.convs = nn.ModuleList()
        self.rgbs = nn.ModuleList()
        for cin, cout in zip(chans[:-1], chans[1:]):
            self.ups.append(_ModConv(cin, cout, wdim, up=True))
            self.convs.append(_ModConv(cout, cout, wdim))
            self.rgbs.append(_ModConv(cout, 3, wdim, k=1, rgb=True))

    def forward(self, z, noise):                   # (N, 64), (N, 1, 64, 64)
        z = z * torch.rsqrt((z * z).mean(-1, keepdim=True) + 1e-8)
        w = self.w_avg + 0.7 * (self.mapping(z) - self.w_avg)
        x = self.const + torch.zeros_like(w[:, :1]).unsqueeze(-1).unsqueeze(-1)
        x = self.conv0(x, w, F.avg_pool2d(noise, 16) * 16.0)
        img = self.rgb0(x, w)
        res = 4
        for up, conv, rgb in zip(self.ups, self.convs, self.rgbs):
            res *= 2
            f = 64 // res
            nz = noise if f == 1 else F.avg_pool2d(noise, f) * float(f)
            x = conv(up(x, w, nz), w, nz)
            img = F.interpolate(img, scale_factor=2.0, mode="bilinear", align_corners=False)
            img = img + rgb(x, w)
        return img, w


def _neighbourhood_index(side, k):
    """For each query pixel of a side x side map, the flattened indices of
    its k x k window, clamped to lie inside the map (NAT's border rule),
    and the index of each (query, key) offset into a (2k - 1)^2 bias."""
    half = k // 2
    keys, rel = [], []
    for y in range(side):
        y0 = min(max(y - half, 0), side - k)
        for x in range(side):
            x0 = min(max(x - half, 0), side - k)
            for dy in range(k):
                for dx in range(k):
                    ky, kx = y0 + dy, x0 + dx
                    keys.append(ky * side + kx)
                    rel.append((ky - y + k - 1) * (2 * k - 1) + (kx - x + k - 1))
    return (torch.tensor(keys).reshape(side * side, k * k),
            torch.tensor(rel).reshape(side * side, k * k))


class _NABlock(nn.Module):
    """Pre-norm neighbourhood attention + MLP on (N, HW, C) tokens: the keys
    and values of every query's clamped k x k window gathered by one fixed
    index (Gather), logits by a broadcast product and ReduceSum, a
    relative position bias gathered from a (2k - 1)^2 table."""

    def __init__(self, dim, heads, side, k=5, mlp=2):
        super().__init__()
        self.h, self.dh, self.k2 = heads, dim // heads, k * k
        keys, rel = _neighbourhood_index(side, k)
        self.register_buffer("keys", keys.flatten())
        self.register_buffer("rel", rel)
        self.rpb = nn.Parameter(0.02 * torch.randn(heads, (2 * k - 1) ** 2))
        self.n1 = nn.LayerNorm(dim)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.n2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, mlp * dim), nn.GELU(), nn.Linear(mlp * dim, dim))

    def forward(self, x):
        t = x.shape[1]
        qkv = self.qkv(self.n1(x)).reshape(-1, t, 3, self.h, self.dh).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]                                    # (N, h, T, dh)
        kw = torch.index_select(k, 2, self.keys).reshape(-1, self.h, t, self.k2, self.dh)
        vw = torch.index_select(v, 2, self.keys).reshape(-1, self.h, t, self.k2, self.dh)
        s = (q.unsqueeze(3) * kw).sum(-1) / math.sqrt(self.dh) + self.rpb[:, self.rel]
        a = torch.softmax(s, dim=-1)                                        # (N, h, T, k2)
        o = (a.unsqueeze(-1) * vw).sum(3).transpose(1, 2).reshape(-1, t, self.h * self.dh)
        x = x + self.proj(o)
        return x + self.mlp(self.n2(x))


class NATLite(nn.Module):
    """Neighbourhood attention transformer (Hassani et al., NAT) on 64 x 64
    images: an overlapping tokenizer (3x3 Convs, stride 2 then 1) to
    32 x 32 x 48; two 5 x 5 neighbourhood-attention blocks (2 heads) at
    32 x 32, an overlapping downsampler (3x3 stride-2 Conv, LayerNorm) to
    16 x 16 x 96 and two blocks (4 heads), another to 8 x 8 x 192 and one
    block (6 heads); a LayerNorm, a token mean and a Linear to 10 classes.
    Returns the logits and the last tokens."""

    def __init__(self, dims=(48, 96, 192), heads=(2, 4, 6), depths=(2, 2, 1), classes=10):
        super().__init__()
        self.tok = nn.Sequential(nn.Conv2d(3, dims[0] // 2, 3, 2, 1), nn.GELU(),
                                 nn.Conv2d(dims[0] // 2, dims[0], 3, 1, 1))
        self.tok_norm = nn.LayerNorm(dims[0])
        self.stages = nn.ModuleList()
        self.downs = nn.ModuleList()
        side = 32
        for i, (d, h, n) in enumerate(zip(dims, heads, depths)):
            if i > 0:
                self.downs.append(nn.Conv2d(dims[i - 1], d, 3, 2, 1))
                side //= 2
            self.stages.append(nn.ModuleList([_NABlock(d, h, side) for _ in range(n)]))
        self.down_norms = nn.ModuleList([nn.LayerNorm(d) for d in dims[1:]])
        self.norm = nn.LayerNorm(dims[-1])
        self.head = nn.Linear(dims[-1], classes)

    def forward(self, image):                      # (N, 3, 64, 64)
        x = self.tok(image)
        side = x.shape[-1]
        x = self.tok_norm(x.flatten(2).transpose(1, 2))
        for i, blocks in enumerate(self.stages):
            if i > 0:
                m = x.transpose(1, 2).reshape(-1, x.shape[-1], side, side)
                m = self.downs[i - 1](m)
                side = m.shape[-1]
                x = self.down_norms[i - 1](m.flatten(2).transpose(1, 2))
            for blk in blocks:
                x = blk(x)
        x = self.norm(x)
        return self.head(x.mean(1)), x


class _SPADE(nn.Module):
    """Spatially-adaptive normalisation: a BatchNorm without affine
    parameters, then x (1 + gamma) + beta with gamma and beta from 3x3 Convs
    of a shared 3x3 Conv + ReLU of the segmentation map resized (nearest)
    to the feature's size."""

    def __init__(self, ch, labels, res, hidden):
        super().__init__()
        self.scale = res / 64.0
        self.norm = nn.BatchNorm2d(ch, affine=False)
        self.shared = nn.Sequential(nn.Conv2d(labels, hidden, 3, padding=1), nn.ReLU())
        self.gamma = nn.Conv2d(hidden, ch, 3, padding=1)
        self.beta = nn.Conv2d(hidden, ch, 3, padding=1)

    def forward(self, x, seg):
        if self.scale != 1.0:
            seg = F.interpolate(seg, scale_factor=self.scale, mode="nearest")
        a = self.shared(seg)
        return self.norm(x) * (1 + self.gamma(a)) + self.beta(a)


class _SPADEResBlock(nn.Module):
    def __init__(self, cin, cout, labels, res, hidden):
        super().__init__()
        mid = min(cin, cout)
        self.n0 = _SPADE(cin, labels, res, hidden)
        self.c0 = nn.Conv2d(cin, mid, 3, padding=1)
        self.n1 = _SPADE(mid, labels, res, hidden)
        self.c1 = nn.Conv2d(mid, cout, 3, padding=1)
        self.learned = cin != cout
        if self.learned:
            self.cs = nn.Conv2d(cin, cout, 1, bias=False)

    def forward(self, x, seg):
        s = self.cs(x) if self.learned else x
        dx = self.c0(F.leaky_relu(self.n0(x, seg), 0.2))
        dx = self.c1(F.leaky_relu(self.n1(dx, seg), 0.2))
        return s + dx


class SPADEGenerator(nn.Module):
    """SPADE generator (Park et al., "Semantic Image Synthesis with
    Spatially-Adaptive Normalization") to 64 x 64 from an 8-class soft
    segmentation map (a softmax of the fed logits) and a 64-d latent: a
    Linear to 2048 channels at 1 x 1, a pixel shuffle (DepthToSpace) to
    128 x 4 x 4; SPADE residual blocks at 4 (128), 8 (128),
    16 (128 -> 64), 32 (64 -> 32) and 64 (32 -> 16) pixels with nearest
    upsampling between (learned 1x1 Conv shortcuts where the width
    changes; the shared SPADE Conv 32 wide up to 16 pixels, 16 above);
    LeakyReLU, a 3x3 Conv to RGB and Tanh."""

    def __init__(self, labels=8, zdim=64, chans=(128, 128, 64, 32, 16)):
        super().__init__()
        self.c0 = chans[0]
        self.fc = nn.Linear(zdim, chans[0] * 16)
        self.blocks = nn.ModuleList()
        res, cin = 4, chans[0]
        for cout in chans:
            self.blocks.append(_SPADEResBlock(cin, cout, labels, res, 32 if res <= 16 else 16))
            cin, res = cout, res * 2
        self.to_rgb = nn.Conv2d(chans[-1], 3, 3, padding=1)

    def forward(self, seg_logits, z):              # (N, 8, 64, 64), (N, 64)
        seg = torch.softmax(seg_logits, dim=1)
        x = F.pixel_shuffle(self.fc(z).unsqueeze(-1).unsqueeze(-1), 4)    # (N, 128, 4, 4)
        for i, blk in enumerate(self.blocks):
            if i > 0:
                x = F.interpolate(x, scale_factor=2.0, mode="nearest")
            x = blk(x, seg)
        return torch.tanh(self.to_rgb(F.leaky_relu(x, 0.2)))


class ConvS2S(nn.Module):
    """Convolutional sequence to sequence (Gehring et al., ConvS2S): word
    and learned position embeddings (128-d) of 40 source and 32 target
    tokens (vocabularies of 1000); an encoder of a Linear to 256 and 4
    Conv1d (kernel 3) + GLU layers with scaled residuals, a Linear back to
    128 (the keys z; the values z + e); a decoder of a Linear to 256 and 4
    causal Conv1d (left padding 2) + GLU layers, each followed by its own
    attention: (Linear(h) + g) against z by a MatMul, softmax, the values
    summed, a Linear to 256 added with scaling; Linears 256 -> 128 ->
    1000 and LogSoftmax.  Returns the log-probabilities and the last
    layer's attention."""

    def __init__(self, vocab=1000, emb=128, hid=256, layers=4, src_len=40, tgt_len=32, k=3):
        super().__init__()
        self.k = k
        self.src_tok = nn.Embedding(vocab, emb)
        self.src_pos = nn.Parameter(0.1 * torch.randn(1, src_len, emb))
        self.tgt_tok = nn.Embedding(vocab, emb)
        self.tgt_pos = nn.Parameter(0.1 * torch.randn(1, tgt_len, emb))
        self.enc_in = nn.Linear(emb, hid)
        self.enc_convs = nn.ModuleList([nn.Conv1d(hid, 2 * hid, k, padding=k // 2)
                                        for _ in range(layers)])
        self.enc_out = nn.Linear(hid, emb)
        self.dec_in = nn.Linear(emb, hid)
        self.dec_convs = nn.ModuleList([nn.Conv1d(hid, 2 * hid, k) for _ in range(layers)])
        self.att_in = nn.ModuleList([nn.Linear(hid, emb) for _ in range(layers)])
        self.att_out = nn.ModuleList([nn.Linear(emb, hid) for _ in range(layers)])
        self.dec_out = nn.Linear(hid, emb)
        self.proj = nn.Linear(emb, vocab)

    def forward(self, src, tgt):                   # (N, 40), (N, 32)
        r = math.sqrt(0.5)
        e = self.src_tok(src) + self.src_pos
        x = self.enc_in(e).transpose(1, 2)                                  # (N, H, S)
        for conv in self.enc_convs:
            x = (F.glu(conv(x), dim=1) + x) * r
        z = self.enc_out(x.transpose(1, 2))                                 # (N, S, E)
        zv = (z + e) * r
        g = self.tgt_tok(tgt) + self.tgt_pos
        h = self.dec_in(g).transpose(1, 2)                                  # (N, H, T)
        att = None
        for conv, ain, aout in zip(self.dec_convs, self.att_in, self.att_out):
            y = F.glu(conv(F.pad(h, (self.k - 1, 0))), dim=1)               # (N, H, T)
            d = (ain(y.transpose(1, 2)) + g) * r                            # (N, T, E)
            att = torch.softmax(torch.matmul(d, z.transpose(1, 2)), dim=-1)
            c = aout(torch.matmul(att, zv)).transpose(1, 2)                 # (N, H, T)
            y = (y + c) * r
            h = (y + h) * r
        out = self.proj(self.dec_out(h.transpose(1, 2)))
        return torch.log_softmax(out, dim=-1), att


BLIND14 = {
    "echo_state_net": dict(ctor=EchoStateNet, family="echo-state-reservoir",
                           inputs=[("signal", ("N", 48, 3), "float32", None)]),
    "lbm_flow": dict(ctor=LatticeBoltzmann, family="lattice-boltzmann-fluid",
                     inputs=[("velocity", ("N", 2, 16, 16), "float32", None)]),
    "gmm_em": dict(ctor=GaussianMixtureEM, family="gaussian-mixture-em",
                   inputs=[("points", ("N", 64, 6), "float32", None)]),
    "ik_solver": dict(ctor=IKSolver, family="inverse-kinematics-dls",
                      inputs=[("targets", ("N", 8, 2), "float32", None)]),
    "kuramoto_net": dict(ctor=KuramotoNet, family="kuramoto-oscillators",
                         inputs=[("features", ("N", 16, 12), "float32", None)]),
    "icp_register": dict(ctor=ICPRegister, family="iterative-closest-point",
                         inputs=[("source", ("N", 48, 2), "float32", None),
                                 ("target", ("N", 64, 2), "float32", None)]),
    "axial_resnet": dict(ctor=AxialResNet, family="axial-attention",
                         inputs=[("image", ("N", 3, 64, 64), "float32", None)]),
    "dit_lite": dict(ctor=DiTLite, family="adaln-diffusion-transformer",
                     inputs=[("latent", ("N", 4, 32, 32), "float32", None),
                             ("timestep", ("N",), "float32", None),
                             ("label", ("N",), "int64", 11)]),
    "stylegan2_lite": dict(ctor=StyleGAN2Lite, family="modulated-convolution",
                           inputs=[("z", ("N", 64), "float32", None),
                                   ("noise", ("N", 1, 64, 64), "float32", None)]),
    "nat_lite": dict(ctor=NATLite, family="neighbourhood-attention",
                     inputs=[("image", ("N", 3, 64, 64), "float32", None)]),
    "spade_gen": dict(ctor=SPADEGenerator, family="spatially-adaptive-normalization",
                      inputs=[("seg_logits", ("N", 8, 64, 64), "float32", None),
                              ("z", ("N", 64), "float32", None)]),
    "convs2s": dict(ctor=ConvS2S, family="conv-seq2seq",
                    inputs=[("src", ("N", 40), "int64", 1000),
                            ("tgt", ("N", 32), "int64", 1000)]),
}
