r"""BLIND15: the fifteenth blind set, written on 2026-12-06 by a helper
session before any of it was measured.  It is to be measured before any
further change is scored, and scored only once, at the end, with the code
as it then stands (bench/zoo_accuracy.py --set blind15).  None of its
twelve families occurs in another set (ZOO, BLIND, BLIND2 ... BLIND14, the
reference models), so no plan rule, feature, fit or calibration was made
with any of them in view, and none of them was run through onnxcost
predict before being measured.

The families: particle swarm optimisation (Kennedy & Eberhart: 32
particles in 4-d minimising a task-conditioned Rastrigin-like landscape
plus a learned MLP term, 20 unrolled iterations of the inertia / cognitive
/ social velocity update with fixed uniform variates, clipped velocities,
personal bests by Where, the global best by ReduceMin / ArgMin and
GatherElements); boids flocking (Reynolds: 32 agents in 2-d, soft
neighbourhoods from all-pairs squared distances by a Sigmoid, separation,
alignment and cohesion by MatMuls with the neighbour weights, per-agent
gains from a small MLP, a goal pull and a speed limit, 24 steps, the
polarisation at each); a geometric multigrid Poisson solver (a small Conv
net gives the source on a 32 x 32 grid; 3 V-cycles over 32, 16, 8 and 4
cells, weighted Jacobi smoothing by a fixed 3x3 Laplacian Conv, full-
weighting restriction by a stride-2 Conv, bilinear prolongation by
Resize, the residual norm after each cycle); Stein variational gradient
descent (Liu & Wang: 48 particles in 2-d moved towards a 4-component
Gaussian mixture predicted from a context, the mixture's score in closed
form through its responsibilities, an RBF kernel of all-pairs distances
with a mean-distance bandwidth, the driving and repulsive terms by
MatMuls, 16 steps); annealed Langevin dynamics (Song & Ermon, NCSN: 64
2-d particles, a noise-conditional score MLP with a condition and a noise-
level embedding, 6 geometric noise levels x 5 steps with fixed Gaussian
variates, a final Tweedie denoising step); and transductive label
propagation (Liu et al., TPN: 5-way 5-shot episodes with 30 queries,
an MLP embedding, a Gaussian similarity graph with per-example learned
scales, kept to each node's 10 nearest by TopK, symmetrically normalised,
24 unrolled propagation steps F <- a S F + (1 - a) Y, then the embeddings
refined towards the propagated class prototypes and propagated again).
The other six: a dynamic graph CNN (Wang et al., DGCNN: EdgeConv layers
on 256 points, the k = 16 nearest neighbours recomputed in every layer's
feature space by a MatMul and TopK, neighbour features by GatherElements,
edge features [x_j - x_i, x_i] through a 1x1 Conv, BatchNorm and
LeakyReLU and a max over the neighbours); a PSPNet-like segmenter (Zhao
et al.: a dilated residual backbone to 18 x 18, the pyramid pooling
module of 1, 2, 3 and 6 bins by AveragePool, 1x1 Convs, bilinear
upsampling and concatenation, a 3x3 Conv head, logits upsampled to the
72 x 72 input); a NetVLAD place-recognition descriptor (Arandjelovic et
al.: a Conv backbone to 16 x 16 x 128, L2-normalised descriptors softly
assigned to 32 clusters by a 1x1 Conv and softmax, residuals to the
centroids aggregated by a MatMul, intra-normalisation, a whitening
Linear to 256); an RNN transducer (Graves: a strided Conv1d and a 2-layer
LSTM encoder, an embedding + LSTM prediction network over the blank-
prefixed labels, the joint network tanh(enc_t + pred_u) over the whole
48 x 13 lattice and a log-softmax over 64 labels and the blank); a
TimeSformer-like video transformer (Bertasius et al.: 16 x 16 patches of 8
frames, divided space-time attention, temporal attention over the 8
frames of each patch then spatial attention over each frame's patches
with the class token replicated per frame and averaged back); and an
Informer-like forecaster (Zhou et al.: ProbSparse self-attention, the
query sparsity measured on a fixed sample of keys by Gather, the top
queries by TopK attending fully and scattered (ScatterElements) into a
context of the mean values, or of their CumSum in the masked decoder;
a distilling Conv1d + ELU + MaxPool between the encoder layers, a
generative decoder over 48 known and 24 zero steps).  The first six are
made of small kernels at batch 1 (most a few thousand elements or fewer,
a hundred or more kernels); the other six are of ordinary sizes.

To be measured with

    OMP_WAIT_POLICY=PASSIVE /usr/bin/python3 scripts/measure_zoo.py --set blind15 \
        pso_swarm boids_flock multigrid_poisson svgd_particles langevin_sampler \
        tpn_labelprop dgcnn_edgeconv pspnet_lite netvlad_place rnnt_joint \
        timesformer_lite informer_lite --threads 1 2 --batches 1 4 16

Same table form as export.py's ZOO (ctor, family, inputs, run); exported by
scripts/ort_graphs.py's export() (opset 13, symbolic batch N).
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def _bn_relu_conv(cin, cout, k=3, stride=1, dilation=1):
    """Conv (no bias), BatchNorm, ReLU."""
    return nn.Sequential(nn.Conv2d(cin, cout, k, stride, dilation * (k // 2), dilation,
                                   bias=False),
                         nn.BatchNorm2d(cout), nn.ReLU())


class _MHSA(nn.Module):
    """Plain multi-head self-attention on (B, T, C) tokens (MatMuls and
    Softmax; no nn.MultiheadAttention)."""

    def __init__(self, dim, heads):
        super().__init__()
        self.h, self.dh = heads, dim // heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        t = x.shape[1]
        qkv = self.qkv(x).reshape(-1, t, 3, self.h, self.dh).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        a = torch.softmax(torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.dh), dim=-1)
        return self.proj(torch.matmul(a, v).transpose(1, 2).reshape(-1, t, self.h * self.dh))


# --------------------------------------------------------------------------
# Small kernels at batch 1
# --------------------------------------------------------------------------

class ParticleSwarm(nn.Module):
    """Particle swarm optimisation (Kennedy & Eberhart; Shi & Eberhart's
    inertia weight) of a task-conditioned landscape: a task MLP
    (8 -> 32 -> 8, Tanh) gives a centre c and per-axis scales a; f(x) =
    |z|^2 + 0.5 sum(1 - cos(2 pi z)) + 0.3 g(x), z = a (x - c), g a learned
    MLP (4 -> 32 -> 1, Tanh).  32 particles in 4-d start from fixed uniform
    positions at rest; 20 iterations of v <- w v + c1 r1 (p - x) + c2 r2
    (g - x) with fixed uniform r1, r2, clipped to [-0.5, 0.5]; the personal
    bests by Where, the global best by ReduceMin / ArgMin and
    GatherElements.  Returns the global best position, its value after
    each iteration and the final swarm."""

    def __init__(self, task=8, dim=4, particles=32, iters=20, w=0.7, c1=1.5, c2=1.5,
                 vmax=0.5):
        super().__init__()
        self.D, self.iters, self.w, self.c1, self.c2, self.vmax = dim, iters, w, c1, c2, vmax
        gen = torch.Generator().manual_seed(15)
        self.register_buffer("x0", 4.0 * torch.rand(particles, dim, generator=gen) - 2.0)
        self.register_buffer("r1", torch.rand(iters, particles, dim, generator=gen))
        self.register_buffer("r2", torch.rand(iters, particles, dim, generator=gen))
        self.task_net = nn.Sequential(nn.Linear(task, 32), nn.Tanh(), nn.Linear(32, 2 * dim))
        self.land = nn.Sequential(nn.Linear(dim, 32), nn.Tanh(), nn.Linear(32, 1))

    def _f(self, x, c, a):
        z = (x - c) * a
        return (z * z).sum(-1) + 0.5 * (1 - torch.cos(2 * math.pi * z)).sum(-1) \
            + 0.3 * self.land(x)[..., 0]

    def _best(self, pbest, pf):
        gf, gi = pf.min(dim=1)
        g = torch.gather(pbest, 1, gi.reshape(-1, 1, 1).expand(-1, 1, self.D))
        return gf, g

    def forward(self, task):                       # (N, 8)
        ca = self.task_net(task)
        c = (1.5 * ca[:, :self.D]).unsqueeze(1)                             # (N, 1, D)
        a = (1.0 + 0.5 * torch.tanh(ca[:, self.D:])).unsqueeze(1)
        x = self.x0 + torch.zeros_like(c)                                   # (N, P, D)
        v = torch.zeros_like(x)
        pbest, pf = x, self._f(x, c, a)
        _, g = self._best(pbest, pf)
        values = []
        for t in range(self.iters):
            v = self.w * v + self.c1 * self.r1[t] * (pbest - x) + self.c2 * self.r2[t] * (g - x)
            v = torch.clamp(v, -self.vmax, self.vmax)
            x = x + v
            fx = self._f(x, c, a)
            better = fx < pf
            pbest = torch.where(better.unsqueeze(-1), x, pbest)
            pf = torch.where(better, fx, pf)
            gf, g = self._best(pbest, pf)
            values.append(gf)
        return g[:, 0], torch.stack(values, 1), x


class BoidsFlock(nn.Module):
    """Boids flocking (Reynolds) of 32 agents in 2-d: from the fed positions
    and velocities, a per-agent MLP (4 -> 16 -> 4, Softplus) gives the
    separation, alignment, cohesion and goal gains; each of 24 steps takes
    all-pairs offsets and squared distances, soft neighbourhood weights
    Sigmoid(8 (r^2 - d^2)) without self, the separation as the sum of
    -offset / (d^2 + 0.05), the alignment and cohesion as neighbour-weighted
    means (MatMuls) less the agent's own velocity and position, a pull to a
    learned goal, an Euler step with the speed limited to 2 (Sqrt, Min).
    Returns the final positions and velocities and the flock's
    polarisation (norm of the mean heading) at each step."""

    def __init__(self, agents=32, steps=24, radius=1.0, dt=0.1, vmax=2.0):
        super().__init__()
        self.steps, self.r2, self.dt, self.vmax = steps, radius * radius, dt, vmax
        self.gains = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 4))
        self.goal = nn.Parameter(torch.randn(2))
        self.register_buffer("not_self", 1.0 - torch.eye(agents))

    def forward(self, state):                      # (N, 32, 4)
        p, v = 2.0 * state[..., :2], state[..., 2:]
        g = F.softplus(self.gains(state))                                   # (N, A, 4)
        gs, ga, gc, gg = g[..., 0:1], g[..., 1:2], g[..., 2:3], g[..., 3:4]
        polar = []
        for _ in range(self.steps):
            off = p.unsqueeze(1) - p.unsqueeze(2)                           # [i, j] = p_j - p_i
            d2 = (off * off).sum(-1)
            w = torch.sigmoid(8.0 * (self.r2 - d2)) * self.not_self         # (N, A, A)
            cnt = w.sum(-1, keepdim=True) + 1e-3
            sep = -((w / (d2 + 0.05)).unsqueeze(-1) * off).sum(2)
            ali = torch.matmul(w, v) / cnt - v
            coh = torch.matmul(w, p) / cnt - p
            acc = gs * sep + ga * ali + gc * coh + 0.1 * gg * (self.goal - p)
            v = v + self.dt * acc
            speed = torch.sqrt((v * v).sum(-1, keepdim=True) + 1e-8)
            v = v * torch.clamp(self.vmax / speed, max=1.0)
            p = p + self.dt * v
            head = (v / speed).mean(1)
            polar.append(torch.sqrt((head * head).sum(-1) + 1e-8))
        return p, v, torch.stack(polar, 1)


class MultigridPoisson(nn.Module):
    """Geometric multigrid for -Laplace(u) = f with zero boundary values on
    a 32 x 32 grid (Brandt; Briggs et al.): a Conv net (2 -> 8 -> 1, 3x3,
    Tanh) of the fed fields gives the source f; 3 V-cycles over 32, 16, 8
    and 4 cells, each level 2 pre- and 2 post-smoothing weighted Jacobi
    sweeps (omega 0.8) with A u a fixed 5-point Laplacian Conv (zero
    padding), the residual restricted by a stride-2 full-weighting Conv,
    the coarse correction started at zero, 8 sweeps on the 4 x 4 grid,
    bilinear prolongation (Resize) added back.  Returns the solution, its
    gradient magnitude (central differences) and the RMS residual after
    each cycle."""

    def __init__(self, side=32, levels=4, cycles=3, pre=2, post=2, coarse=8, omega=0.8):
        super().__init__()
        self.side, self.levels, self.cycles = side, levels, cycles
        self.pre, self.post, self.coarse, self.omega = pre, post, coarse, omega
        self.src = nn.Sequential(nn.Conv2d(2, 8, 3, padding=1), nn.Tanh(),
                                 nn.Conv2d(8, 1, 3, padding=1))
        lap = torch.tensor([[0.0, -1.0, 0.0], [-1.0, 4.0, -1.0], [0.0, -1.0, 0.0]])
        self.register_buffer("lap", lap.reshape(1, 1, 3, 3))
        fw = torch.tensor([1.0, 2.0, 1.0])
        self.register_buffer("restrict", (torch.outer(fw, fw) / 16.0).reshape(1, 1, 3, 3))
        self.register_buffer("dx", torch.tensor([[[[-0.5, 0.0, 0.5]]]]))
        self.register_buffer("dy", torch.tensor([[[[-0.5], [0.0], [0.5]]]]))

    def _au(self, u, h2):
        return F.conv2d(u, self.lap, padding=1) / h2

    def _smooth(self, u, f, h2, sweeps):
        for _ in range(sweeps):
            u = u + (self.omega * h2 / 4.0) * (f - self._au(u, h2))
        return u

    def _vcycle(self, u, f, level):
        h = (2 ** level) / self.side
        h2 = h * h
        if level == self.levels - 1:
            return self._smooth(u, f, h2, self.coarse)
        u = self._smooth(u, f, h2, self.pre)
        r = f - self._au(u, h2)
        rc = F.conv2d(r, self.restrict, stride=2, padding=1)
        ec = self._vcycle(torch.zeros_like(rc), rc, level + 1)
        u = u + F.interpolate(ec, scale_factor=2.0, mode="bilinear", align_corners=False)
        return self._smooth(u, f, h2, self.post)

    def forward(self, fields):                     # (N, 2, 32, 32)
        f = 10.0 * self.src(fields)
        u = torch.zeros_like(f)
        h2 = (1.0 / self.side) ** 2
        norms = []
        for _ in range(self.cycles):
            u = self._vcycle(u, f, 0)
            r = f - self._au(u, h2)
            norms.append(torch.sqrt((r * r).mean((1, 2, 3))))
        gx = F.conv2d(u, self.dx, padding=(0, 1)) * self.side
        gy = F.conv2d(u, self.dy, padding=(1, 0)) * self.side
        return u, torch.sqrt(gx * gx + gy * gy + 1e-12), torch.stack(norms, 1)


class SteinVGD(nn.Module):
    """Stein variational gradient descent (Liu & Wang): a context MLP
    (16 -> 64 -> 16, Tanh) predicts a 4-component isotropic Gaussian
    mixture in 2-d (means, log scales, log weights by LogSoftmax); 48
    particles start from fixed normal draws plus a learned shift; each of
    16 steps takes the mixture's score in closed form (responsibilities by
    Softmax of the component log densities), the all-pairs squared
    distances, the RBF kernel with bandwidth mean(d^2) / log(P + 1), and
    phi = (K score + (2 / h)(x sum_j K - K x)) / P (MatMuls), x += 0.3 phi.
    Returns the particles and the mean log density after each step."""

    def __init__(self, ctx=16, particles=48, comps=4, steps=16, lr=0.3):
        super().__init__()
        self.K, self.P, self.steps, self.lr = comps, particles, steps, lr
        gen = torch.Generator().manual_seed(151)
        self.register_buffer("x0", torch.randn(particles, 2, generator=gen))
        self.shift = nn.Parameter(0.1 * torch.randn(2))
        self.target = nn.Sequential(nn.Linear(ctx, 64), nn.Tanh(), nn.Linear(64, comps * 4))

    def forward(self, context):                    # (N, 16)
        prm = self.target(context).reshape(-1, self.K, 4)
        mu = (2.0 * prm[..., :2]).unsqueeze(1)                              # (N, 1, K, 2)
        logs = 0.3 * torch.tanh(prm[..., 2]) - 0.3                          # (N, K)
        inv_var = torch.exp(-2.0 * logs).unsqueeze(1)                       # (N, 1, K)
        logw = (torch.log_softmax(prm[..., 3], -1) - 2.0 * logs).unsqueeze(1)
        x = self.x0 + self.shift + torch.zeros_like(prm[:, :1, :2])         # (N, P, 2)
        lls = []
        for _ in range(self.steps):
            diff = mu - x.unsqueeze(2)                                      # (N, P, K, 2)
            logp = logw - 0.5 * (diff * diff).sum(-1) * inv_var             # (N, P, K)
            resp = torch.softmax(logp, dim=-1)
            score = ((resp * inv_var).unsqueeze(-1) * diff).sum(2)          # (N, P, 2)
            lls.append(torch.logsumexp(logp, dim=-1).mean(1))
            pd = x.unsqueeze(2) - x.unsqueeze(1)
            d2 = (pd * pd).sum(-1)                                          # (N, P, P)
            h = d2.mean((1, 2), keepdim=True) / math.log(self.P + 1) + 1e-3
            kmat = torch.exp(-d2 / h)
            rep = (2.0 / h) * (x * kmat.sum(-1, keepdim=True) - torch.matmul(kmat, x))
            x = x + self.lr * (torch.matmul(kmat, score) + rep) / self.P
        return x, torch.stack(lls, 1)


class AnnealedLangevin(nn.Module):
    """Annealed Langevin dynamics with a noise-conditional score network
    (Song & Ermon, NCSN) on 2-d samples: 64 particles start from fixed
    normal draws times sigma_1 = 1; for 6 noise levels geometric from 1 to
    0.05, 5 steps each of x <- x + (a / 2) s(x, sigma) + sqrt(a) z, a =
    2e-3 (sigma / sigma_L)^2, z fixed normal draws; the score MLP (2 -> 64,
    plus a Linear of the fed condition and the level's learned embedding,
    SiLU, 64 -> 64, SiLU, 64 -> 2) divided by sigma; a final Tweedie step
    x + sigma_L^2 s.  Returns the samples and the mean sigma-scaled score
    norm at the end of each level."""

    def __init__(self, cond=8, particles=64, levels=6, steps=5, hidden=64,
                 sigma_max=1.0, sigma_min=0.05, eps=2e-3):
        super().__init__()
        self.steps = steps
        ratio = (sigma_min / sigma_max) ** (1.0 / (levels - 1))
        self.sigmas = [sigma_max * ratio ** i for i in range(levels)]
        self.alphas = [eps * (s / self.sigmas[-1]) ** 2 for s in self.sigmas]
        gen = torch.Generator().manual_seed(152)
        self.register_buffer("x0", torch.randn(particles, 2, generator=gen) * sigma_max)
        self.register_buffer("z", torch.randn(levels * steps, particles, 2, generator=gen))
        self.inp = nn.Linear(2, hidden)
        self.cond = nn.Linear(cond, hidden)
        self.level_emb = nn.Parameter(0.5 * torch.randn(levels, hidden))
        self.mid = nn.Linear(hidden, hidden)
        self.out = nn.Linear(hidden, 2)

    def _score(self, x, c, i):
        h = F.silu(self.inp(x) + c + self.level_emb[i])
        return self.out(F.silu(self.mid(h))) / self.sigmas[i]

    def forward(self, condition):                  # (N, 8)
        c = self.cond(condition).unsqueeze(1)                               # (N, 1, H)
        x = self.x0 + torch.zeros_like(c[..., :2])                          # (N, P, 2)
        norms = []
        k = 0
        for i, (sigma, a) in enumerate(zip(self.sigmas, self.alphas)):
            for _ in range(self.steps):
                s = self._score(x, c, i)
                x = x + 0.5 * a * s + math.sqrt(a) * self.z[k]
                k += 1
            norms.append(sigma * torch.sqrt((s * s).sum(-1) + 1e-8).mean(1))
        last = len(self.sigmas) - 1
        x = x + self.sigmas[last] ** 2 * self._score(x, c, last)
        return x, torch.stack(norms, 1)


class LabelPropagation(nn.Module):
    """Transductive label propagation (Liu et al., TPN; Zhou et al.) on
    5-way 5-shot episodes with 30 queries: an MLP embedding (16 -> 32 ->
    32) of the 55 examples; a graph W_ij = exp(-d_ij^2 / (2 s_i s_j)) with
    per-example scales s from a small MLP, no self loops, each row kept to
    its 10 largest (TopK threshold, Where), symmetrised,
    S = D^-1/2 W D^-1/2; 24 steps of F <- 0.99 S F + 0.01 Y from the
    support one-hots (support i of way i // 5); then the embeddings
    refined by a Linear of their soft class prototypes (Softmax of F,
    MatMuls) and the graph built and propagated again.  Returns the
    queries' class log-probabilities and the first round's scores."""

    def __init__(self, feat=16, ways=5, shots=5, queries=30, hidden=32, k=10,
                 alpha=0.99, iters=24):
        super().__init__()
        self.ns, self.k, self.alpha, self.iters = ways * shots, k, alpha, iters
        m = ways * shots + queries
        y = torch.zeros(m, ways)
        for i in range(ways * shots):
            y[i, i // shots] = 1.0
        self.register_buffer("y0", y)
        self.register_buffer("not_self", 1.0 - torch.eye(m))
        self.enc = nn.Sequential(nn.Linear(feat, hidden), nn.ReLU(), nn.Linear(hidden, hidden))
        self.scale = nn.Sequential(nn.Linear(hidden, 16), nn.ReLU(), nn.Linear(16, 1))
        self.refine = nn.Linear(hidden, hidden)

    def _propagate(self, z):
        s = F.softplus(self.scale(z)) + 0.5                                 # (N, M, 1)
        sq = (z * z).sum(-1, keepdim=True)
        d2 = torch.clamp(sq + sq.transpose(1, 2) - 2 * torch.matmul(z, z.transpose(1, 2)),
                         min=0.0)
        w = torch.exp(-d2 / (2.0 * s * s.transpose(1, 2))) * self.not_self
        kth = w.topk(self.k, dim=-1)[0][..., -1:]
        w = torch.where(w >= kth, w, torch.zeros_like(w))
        w = 0.5 * (w + w.transpose(1, 2))
        dinv = torch.rsqrt(w.sum(-1) + 1e-8)
        smat = dinv.unsqueeze(-1) * w * dinv.unsqueeze(1)
        y = (1.0 - self.alpha) * self.y0
        f = self.y0 + torch.zeros_like(z[..., :1])
        for _ in range(self.iters):
            f = self.alpha * torch.matmul(smat, f) + y
        return f

    def forward(self, support, query):             # (N, 25, 16), (N, 30, 16)
        z = self.enc(torch.cat([support, query], 1))                        # (N, M, H)
        f1 = self._propagate(z)
        pw = torch.softmax(10.0 * f1 / (f1.sum(-1, keepdim=True) + 1e-6), dim=-1)
        proto = torch.matmul(pw.transpose(1, 2), z) / pw.sum(1).unsqueeze(-1)
        z = z + self.refine(torch.matmul(pw, proto))
        f2 = self._propagate(z)
        fq = f2[:, self.ns:]
        logits = 10.0 * fq / (fq.sum(-1, keepdim=True) + 1e-6)
        return torch.log_softmax(logits, dim=-1), f1[:, self.ns:]


# --------------------------------------------------------------------------
# Ordinary sizes
# --------------------------------------------------------------------------

class _EdgeConv(nn.Module):
    """EdgeConv on (N, P, C) point features: the k nearest neighbours in
    the current feature space (negative squared distances by a MatMul,
    TopK), their features gathered (GatherElements), the edge features
    [x_j - x_i, x_i] through a 1x1 Conv, BatchNorm and LeakyReLU, a max
    over the neighbours."""

    def __init__(self, cin, cout, points, k):
        super().__init__()
        self.cin, self.P, self.k = cin, points, k
        self.conv = nn.Conv2d(2 * cin, cout, 1, bias=False)
        self.bn = nn.BatchNorm2d(cout)

    def forward(self, x):                          # (N, P, C)
        sq = (x * x).sum(-1, keepdim=True)
        negd = 2 * torch.matmul(x, x.transpose(1, 2)) - sq - sq.transpose(1, 2)
        idx = negd.topk(self.k, dim=-1)[1]                                  # (N, P, k)
        nb = torch.gather(x, 1, idx.reshape(-1, self.P * self.k, 1).expand(-1, -1, self.cin))
        nb = nb.reshape(-1, self.P, self.k, self.cin)
        ctr = x.unsqueeze(2).expand(-1, -1, self.k, -1)
        e = torch.cat([nb - ctr, ctr], -1).permute(0, 3, 1, 2)              # (N, 2C, P, k)
        y = F.leaky_relu(self.bn(self.conv(e)), 0.2).max(dim=-1)[0]         # (N, Cout, P)
        return y.transpose(1, 2)


class DGCNNLite(nn.Module):
    """Dynamic graph CNN (Wang et al., DGCNN) classifying 256-point clouds:
    four EdgeConv layers (3 -> 32 -> 32 -> 64 -> 64, k = 16, the graph
    recomputed from each layer's input features), their outputs
    concatenated (192) through a 1x1 Conv1d to 384 with BatchNorm and
    LeakyReLU, global max and mean pooling, an MLP (768 -> 256 -> 128, BN,
    LeakyReLU) to 40 classes.  Returns the logits."""

    def __init__(self, points=256, k=16, widths=(32, 32, 64, 64), emb=384, classes=40):
        super().__init__()
        self.edges = nn.ModuleList()
        cin = 3
        for w in widths:
            self.edges.append(_EdgeConv(cin, w, points, k))
            cin = w
        self.fuse = nn.Sequential(nn.Conv1d(sum(widths), emb, 1, bias=False),
                                  nn.BatchNorm1d(emb), nn.LeakyReLU(0.2))
        self.head = nn.Sequential(nn.Linear(2 * emb, 256, bias=False), nn.BatchNorm1d(256),
                                  nn.LeakyReLU(0.2), nn.Linear(256, 128, bias=False),
                                  nn.BatchNorm1d(128), nn.LeakyReLU(0.2),
                                  nn.Linear(128, classes))

    def forward(self, points):                     # (N, 256, 3)
        feats = []
        x = points
        for ec in self.edges:
            x = ec(x)
            feats.append(x)
        y = self.fuse(torch.cat(feats, -1).transpose(1, 2))                 # (N, E, P)
        return self.head(torch.cat([y.max(dim=-1)[0], y.mean(-1)], 1))


class _DilatedBlock(nn.Module):
    def __init__(self, cin, cout, dilation):
        super().__init__()
        self.c1 = _bn_relu_conv(cin, cout, 3, 1, dilation)
        self.c2 = nn.Sequential(nn.Conv2d(cout, cout, 3, 1, dilation, dilation, bias=False),
                                nn.BatchNorm2d(cout))
        self.short = None
        if cin != cout:
            self.short = nn.Sequential(nn.Conv2d(cin, cout, 1, bias=False), nn.BatchNorm2d(cout))

    def forward(self, x):
        s = x if self.short is None else self.short(x)
        return torch.relu(s + self.c2(self.c1(x)))


class PSPNetLite(nn.Module):
    """PSPNet-like segmenter (Zhao et al., "Pyramid Scene Parsing Network")
    on 72 x 72 images: two stride-2 Conv + BN + ReLU layers to 64 channels
    at 18 x 18, a residual block and a dilated (2) residual block to 96;
    the pyramid pooling module: average pooling to 1, 2, 3 and 6 bins, a
    1x1 Conv + BN + ReLU to 24 channels each, bilinear upsampling back to
    18 x 18, concatenated with the features (192); a 3x3 Conv + BN + ReLU to
    64, a 1x1 Conv to 8 classes, bilinear upsampling to 72 x 72."""

    def __init__(self, classes=8, bins=(1, 2, 3, 6)):
        super().__init__()
        self.stem = nn.Sequential(_bn_relu_conv(3, 32, 3, 2), _bn_relu_conv(32, 64, 3, 2))
        self.body = nn.Sequential(_DilatedBlock(64, 64, 1), _DilatedBlock(64, 96, 2))
        self.bins = bins
        self.branches = nn.ModuleList([_bn_relu_conv(96, 24, 1) for _ in bins])
        self.head = nn.Sequential(_bn_relu_conv(96 + 24 * len(bins), 64, 3),
                                  nn.Conv2d(64, classes, 1))

    def forward(self, image):                      # (N, 3, 72, 72)
        x = self.body(self.stem(image))                                     # (N, 96, 18, 18)
        size = (x.shape[-2], x.shape[-1])
        pyramid = [x]
        for b, branch in zip(self.bins, self.branches):
            y = branch(F.adaptive_avg_pool2d(x, b))
            pyramid.append(F.interpolate(y, size=size, mode="bilinear", align_corners=False))
        y = self.head(torch.cat(pyramid, 1))
        return F.interpolate(y, scale_factor=4.0, mode="bilinear", align_corners=False)


class NetVLADPlace(nn.Module):
    """NetVLAD place-recognition descriptor (Arandjelovic et al.) of a
    128 x 128 image: Conv + BN + ReLU layers (3 -> 32 -> 64 -> 128, stride 2
    each, then 128 -> 128) to 16 x 16 x 128; the 256 local descriptors
    L2-normalised, softly assigned to 32 clusters (1x1 Conv, Softmax over
    the clusters), the residuals to the learned centroids aggregated as
    a^T x - (sum a) c (a MatMul), intra-normalised per cluster, flattened
    (4096) and L2-normalised; a whitening Linear to 256 and a final L2
    normalisation.  Returns the descriptor and the soft assignments."""

    def __init__(self, clusters=32, dim=128, out=256):
        super().__init__()
        self.K, self.D = clusters, dim
        self.backbone = nn.Sequential(_bn_relu_conv(3, 32, 3, 2), _bn_relu_conv(32, 64, 3, 2),
                                      _bn_relu_conv(64, dim, 3, 2), _bn_relu_conv(dim, dim))
        self.assign = nn.Conv2d(dim, clusters, 1)
        self.centroids = nn.Parameter(torch.rand(clusters, dim))
        self.whiten = nn.Linear(clusters * dim, out)

    @staticmethod
    def _l2n(x, dim):
        return x * torch.rsqrt((x * x).sum(dim, keepdim=True) + 1e-12)

    def forward(self, image):                      # (N, 3, 128, 128)
        x = self._l2n(self.backbone(image), 1)                              # (N, D, H, W)
        a = torch.softmax(self.assign(x).flatten(2), dim=1)                 # (N, K, HW)
        xf = x.flatten(2).transpose(1, 2)                                   # (N, HW, D)
        vlad = torch.matmul(a, xf) - a.sum(-1).unsqueeze(-1) * self.centroids
        vlad = self._l2n(self._l2n(vlad, 2).flatten(1), 1)                  # (N, K*D)
        return self._l2n(self.whiten(vlad), 1), a


class RNNTransducer(nn.Module):
    """RNN transducer (Graves, "Sequence Transduction with Recurrent Neural
    Networks") over the full alignment lattice: an encoder of a stride-2
    Conv1d (40 -> 128, ReLU) on 96 feature frames and a 2-layer LSTM (160)
    with a Linear to 128; a prediction network of an Embedding (64 labels
    and the blank, 96-d) of the blank-prefixed 12 labels and an LSTM (128)
    with a Linear to 128; the joint network tanh(enc_t + pred_u) over the
    48 x 13 lattice and a Linear to the 65 outputs with LogSoftmax.  Returns
    the lattice's log-probabilities."""

    def __init__(self, feats=40, vocab=64, enc_hidden=160, pred_emb=96, pred_hidden=128,
                 joint=128):
        super().__init__()
        self.blank = vocab
        self.sub = nn.Conv1d(feats, 128, 3, stride=2, padding=1)
        self.enc = nn.LSTM(128, enc_hidden, num_layers=2, batch_first=True)
        self.enc_proj = nn.Linear(enc_hidden, joint)
        self.emb = nn.Embedding(vocab + 1, pred_emb)
        self.pred = nn.LSTM(pred_emb, pred_hidden, batch_first=True)
        self.pred_proj = nn.Linear(pred_hidden, joint)
        self.out = nn.Linear(joint, vocab + 1)

    def forward(self, features, labels):           # (N, 96, 40), (N, 12)
        x = torch.relu(self.sub(features.transpose(1, 2))).transpose(1, 2)  # (N, 48, 128)
        e, _ = self.enc(x)
        e = self.enc_proj(e)                                                # (N, T, J)
        y = torch.cat([torch.zeros_like(labels[:, :1]) + self.blank, labels], 1)
        p, _ = self.pred(self.emb(y))
        p = self.pred_proj(p)                                               # (N, U+1, J)
        j = torch.tanh(e.unsqueeze(2) + p.unsqueeze(1))                     # (N, T, U+1, J)
        return torch.log_softmax(self.out(j), dim=-1)


class _DividedBlock(nn.Module):
    """TimeSformer block: temporal attention over the frames of each patch
    position (a Linear after it), then spatial attention over each frame's
    patches with the class token replicated per frame and averaged back,
    then an MLP over all tokens; pre-norm, residuals."""

    def __init__(self, dim, heads, mlp=4):
        super().__init__()
        self.n_t, self.attn_t = nn.LayerNorm(dim), _MHSA(dim, heads)
        self.temporal_fc = nn.Linear(dim, dim)
        self.n_s, self.attn_s = nn.LayerNorm(dim), _MHSA(dim, heads)
        self.n_m = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, mlp * dim), nn.GELU(), nn.Linear(mlp * dim, dim))

    def forward(self, cls, x, frames, patches):    # (N, 1, D), (N, T*S, D)
        d = x.shape[-1]
        xt = x.reshape(-1, frames, patches, d).transpose(1, 2).reshape(-1, frames, d)
        yt = self.attn_t(self.n_t(xt)).reshape(-1, patches, frames, d).transpose(1, 2)
        x = x + self.temporal_fc(yt.reshape(-1, frames * patches, d))
        xs = x.reshape(-1, patches, d)                                      # (N*T, S, D)
        cls_rep = cls.repeat(1, frames, 1).reshape(-1, 1, d)
        ys = self.attn_s(self.n_s(torch.cat([cls_rep, xs], 1)))             # (N*T, 1+S, D)
        cls = cls + ys[:, :1].reshape(-1, frames, d).mean(1, keepdim=True)
        x = x + ys[:, 1:].reshape(-1, frames * patches, d)
        tok = torch.cat([cls, x], 1)
        tok = tok + self.mlp(self.n_m(tok))
        return tok[:, :1], tok[:, 1:]


class TimeSformerLite(nn.Module):
    """TimeSformer-like video classifier (Bertasius et al., divided space-
    time attention) on 8 frames of 64 x 64: 16 x 16 patches (a stride-16
    Conv per frame) to 16 patches x 8 frames of 128-d, learned spatial
    (with the class token's) and temporal position embeddings, 3 divided
    blocks (4 heads), a LayerNorm of the class token and a Linear to 10
    classes.  Returns the logits and the class token."""

    def __init__(self, frames=8, side=64, patch=16, dim=128, depth=3, heads=4, classes=10):
        super().__init__()
        self.T, self.S, self.side = frames, (side // patch) ** 2, side
        self.patch = nn.Conv2d(3, dim, patch, patch)
        self.cls = nn.Parameter(0.02 * torch.randn(1, 1, dim))
        self.pos = nn.Parameter(0.02 * torch.randn(1, self.S + 1, dim))
        self.time = nn.Parameter(0.02 * torch.randn(1, frames, 1, dim))
        self.blocks = nn.ModuleList([_DividedBlock(dim, heads) for _ in range(depth)])
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, classes)

    def forward(self, video):                      # (N, 3, 8, 64, 64)
        fr = video.transpose(1, 2).reshape(-1, 3, self.side, self.side)
        x = self.patch(fr).flatten(2).transpose(1, 2) + self.pos[:, 1:]    # (N*T, S, D)
        d = x.shape[-1]
        x = (x.reshape(-1, self.T, self.S, d) + self.time).reshape(-1, self.T * self.S, d)
        cls = self.cls + self.pos[:, :1] + torch.zeros_like(x[:, :1])
        for blk in self.blocks:
            cls, x = blk(cls, x, self.T, self.S)
        c = self.norm(cls[:, 0])
        return self.head(c), c


class _ProbAttention(nn.Module):
    """Informer's ProbSparse self-attention over L tokens: each query's
    scores against a fixed sample of factor * ceil(ln L) keys (one Gather
    of the keys, a broadcast product and ReduceSum), the sparsity measure
    max - sum / L, the top factor * ceil(ln L) queries by TopK gathered
    (GatherElements) and attending over all keys (causally masked by Where
    in the decoder), their outputs scattered (ScatterElements) into the
    lazy context: the mean of the values, or their CumSum when masked."""

    def __init__(self, dim, heads, length, causal=False, factor=5, seed=0):
        super().__init__()
        self.h, self.dh, self.L, self.causal = heads, dim // heads, length, causal
        self.u = min(factor * math.ceil(math.log(length)), length)
        gen = torch.Generator().manual_seed(1500 + seed)
        self.register_buffer("sample", torch.randint(0, length, (length * self.u,),
                                                     generator=gen))
        self.register_buffer("key_pos", torch.arange(length).reshape(1, 1, 1, length))
        self.q = nn.Linear(dim, dim)
        self.k = nn.Linear(dim, dim)
        self.v = nn.Linear(dim, dim)
        self.o = nn.Linear(dim, dim)

    def _heads(self, x):
        return x.reshape(-1, self.L, self.h, self.dh).transpose(1, 2)      # (N, h, L, dh)

    def forward(self, x):
        q, k, v = self._heads(self.q(x)), self._heads(self.k(x)), self._heads(self.v(x))
        ks = torch.index_select(k, 2, self.sample).reshape(-1, self.h, self.L, self.u, self.dh)
        qk = (q.unsqueeze(3) * ks).sum(-1)                                  # (N, h, L, u)
        m = qk.max(dim=-1)[0] - qk.sum(-1) / self.L
        top = m.topk(self.u, dim=-1)[1]                                     # (N, h, u)
        ti = top.unsqueeze(-1).expand(-1, -1, -1, self.dh)
        s = torch.matmul(torch.gather(q, 2, ti), k.transpose(-1, -2)) / math.sqrt(self.dh)
        if self.causal:
            s = s.masked_fill(self.key_pos > top.unsqueeze(-1), -1e9)
            ctx = torch.cumsum(v, dim=2)
        else:
            ctx = v.mean(2, keepdim=True).expand_as(v)
        out = torch.matmul(torch.softmax(s, dim=-1), v)                     # (N, h, u, dh)
        ctx = ctx.scatter(2, ti, out)
        return self.o(ctx.transpose(1, 2).reshape(-1, self.L, self.h * self.dh))


class _CrossAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.h, self.dh = heads, dim // heads
        self.q = nn.Linear(dim, dim)
        self.kv = nn.Linear(dim, 2 * dim)
        self.o = nn.Linear(dim, dim)

    def forward(self, x, mem):
        t, s = x.shape[1], mem.shape[1]
        q = self.q(x).reshape(-1, t, self.h, self.dh).transpose(1, 2)
        kv = self.kv(mem).reshape(-1, s, 2, self.h, self.dh).permute(2, 0, 3, 1, 4)
        a = torch.softmax(torch.matmul(q, kv[0].transpose(-1, -2)) / math.sqrt(self.dh), -1)
        return self.o(torch.matmul(a, kv[1]).transpose(1, 2).reshape(-1, t, self.h * self.dh))


class _InformerEncLayer(nn.Module):
    def __init__(self, dim, heads, length, seed):
        super().__init__()
        self.attn = _ProbAttention(dim, heads, length, seed=seed)
        self.n1, self.n2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.ff = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x):
        x = self.n1(x + self.attn(x))
        return self.n2(x + self.ff(x))


class InformerLite(nn.Module):
    """Informer-like long-sequence forecaster (Zhou et al.) of 7 series:
    circular Conv1d token embeddings (7 -> 128) plus fixed sinusoidal
    positions of the 96 known steps; an encoder of two ProbSparse layers
    (4 heads, post-norm, GELU feed-forward 512) with a distilling layer
    between (circular Conv1d, BatchNorm, ELU, MaxPool stride 2: 96 -> 48
    steps) and a LayerNorm; a generative decoder over the last 48 known
    steps and 24 zeros: masked ProbSparse self-attention, full cross-
    attention to the encoder, a feed-forward; a Linear to the 7 series of
    the last 24 steps.  Returns the forecast."""

    def __init__(self, series=7, dim=128, heads=4, seq=96, label=48, pred=24):
        super().__init__()
        self.label, self.pred = label, pred
        self.enc_emb = nn.Conv1d(series, dim, 3, padding=1, padding_mode="circular")
        self.dec_emb = nn.Conv1d(series, dim, 3, padding=1, padding_mode="circular")
        pos = torch.arange(seq, dtype=torch.float32).unsqueeze(1)
        div = torch.exp(torch.arange(0, dim, 2, dtype=torch.float32) * (-math.log(10000.0) / dim))
        pe = torch.zeros(seq, dim)
        pe[:, 0::2], pe[:, 1::2] = torch.sin(pos * div), torch.cos(pos * div)
        self.register_buffer("pe", pe.unsqueeze(0))
        self.enc1 = _InformerEncLayer(dim, heads, seq, 1)
        self.distil = nn.Sequential(nn.Conv1d(dim, dim, 3, padding=1, padding_mode="circular"),
                                    nn.BatchNorm1d(dim), nn.ELU(), nn.MaxPool1d(3, 2, 1))
        self.enc2 = _InformerEncLayer(dim, heads, seq // 2, 2)
        self.enc_norm = nn.LayerNorm(dim)
        dlen = label + pred
        self.self_attn = _ProbAttention(dim, heads, dlen, causal=True, seed=3)
        self.cross = _CrossAttention(dim, heads)
        self.d1, self.d2, self.d3 = nn.LayerNorm(dim), nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.dff = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))
        self.dec_norm = nn.LayerNorm(dim)
        self.proj = nn.Linear(dim, series)

    def forward(self, history):                    # (N, 96, 7)
        x = self.enc_emb(history.transpose(1, 2)).transpose(1, 2) + self.pe
        x = self.enc1(x)
        x = self.distil(x.transpose(1, 2)).transpose(1, 2)                  # (N, 48, D)
        mem = self.enc_norm(self.enc2(x))
        dec_in = torch.cat([history[:, -self.label:],
                            torch.zeros_like(history[:, :self.pred])], 1)   # (N, 72, 7)
        y = self.dec_emb(dec_in.transpose(1, 2)).transpose(1, 2) \
            + self.pe[:, :self.label + self.pred]
        y = self.d1(y + self.self_attn(y))
        y = self.d2(y + self.cross(y, mem))
        y = self.dec_norm(self.d3(y + self.dff(y)))
        return self.proj(y)[:, -self.pred:]


BLIND15 = {
    "pso_swarm": dict(ctor=ParticleSwarm, family="particle-swarm-optimization",
                      inputs=[("task", ("N", 8), "float32", None)]),
    "boids_flock": dict(ctor=BoidsFlock, family="boids-flocking",
                        inputs=[("state", ("N", 32, 4), "float32", None)]),
    "multigrid_poisson": dict(ctor=MultigridPoisson, family="multigrid-poisson-solver",
                              inputs=[("fields", ("N", 2, 32, 32), "float32", None)]),
    "svgd_particles": dict(ctor=SteinVGD, family="stein-variational-gradient",
                           inputs=[("context", ("N", 16), "float32", None)]),
    "langevin_sampler": dict(ctor=AnnealedLangevin, family="annealed-langevin-dynamics",
                             inputs=[("condition", ("N", 8), "float32", None)]),
    "tpn_labelprop": dict(ctor=LabelPropagation, family="transductive-label-propagation",
                          inputs=[("support", ("N", 25, 16), "float32", None),
                                  ("query", ("N", 30, 16), "float32", None)]),
    "dgcnn_edgeconv": dict(ctor=DGCNNLite, family="dynamic-graph-edgeconv",
                           inputs=[("points", ("N", 256, 3), "float32", None)]),
    "pspnet_lite": dict(ctor=PSPNetLite, family="pyramid-pooling-module",
                        inputs=[("image", ("N", 3, 72, 72), "float32", None)]),
    "netvlad_place": dict(ctor=NetVLADPlace, family="netvlad-aggregation",
                          inputs=[("image", ("N", 3, 128, 128), "float32", None)]),
    "rnnt_joint": dict(ctor=RNNTransducer, family="rnn-transducer",
                       inputs=[("features", ("N", 96, 40), "float32", None),
                               ("labels", ("N", 12), "int64", 64)]),
    "timesformer_lite": dict(ctor=TimeSformerLite, family="divided-space-time-attention",
                             inputs=[("video", ("N", 3, 8, 64, 64), "float32", None)]),
    "informer_lite": dict(ctor=InformerLite, family="probsparse-attention",
                          inputs=[("history", ("N", 96, 7), "float32", None)]),
}
