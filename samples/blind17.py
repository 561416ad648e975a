r"""BLIND17: the seventeenth blind set, written on 2026-12-06 by a helper
session before any of it was measured.  It is to be measured before any
further change is scored, and scored only once, at the end, with the code
as it then stands (bench/zoo_accuracy.py --set blind17).  None of its
twelve families occurs in another set (ZOO, BLIND, BLIND2 ... BLIND16, the
reference models), so no plan rule, feature, fit or calibration was made
with any of them in view, and none of them was run through onnxcost
predict before being measured.

The families: a finite-difference time-domain electromagnetic simulator
(Yee; Taflove: the 2-d TMz Yee scheme on a 24 x 24 grid, the
permittivity and conductivity maps predicted by a small Conv net, a
modulated Gaussian pulse injected at a fixed source, 40 leapfrog steps of
staggered H and E updates by Slices and differences, PEC walls as zero
strips by Concat, 4 probes read by a MatMul after each step); the QR eigenvalue algorithm
(Francis; Kublanovskaya: an MLP builds a symmetric positive definite 8 x
8 matrix, 10 unshifted QR iterations, each a classical Gram-Schmidt
factorisation unrolled over the columns and the similarity Q^T A Q, the
eigenvectors accumulated, the off-diagonal norm after each); an active
contour (Kass, Witkin & Terzopoulos, snakes: a Conv edge map and its
Sobel gradient as the external force, 32 contour points sampled
bilinearly by tent weights and MatMuls, a balloon force along the
normals, 30 semi-implicit steps with the fixed inverse of the
elasticity / rigidity system, the enclosed area by the shoelace formula
after each); strapdown inertial navigation (Titterton & Weston; with the
learned gyro / accelerometer correction of Brossard et al.: a dilated
Conv1d denoiser over 32 IMU samples, then per sample a quaternion
exponential and Hamilton product by structure constants, the rotation
matrix from the quaternion's outer product, gravity compensation and
velocity / position integration); microscopic traffic simulation with
the intelligent driver model (Treiber, Hennecke & Helbing: 24 vehicles
on a ring road, per-driver IDM parameters from an MLP, 40 steps of the
IDM acceleration with leader gaps by a shift MatMul, ballistic updates);
and deep hedging (Buehler et al.: Heston paths by full-truncation
Euler-Maruyama over 24 steps from fixed Gaussian increments, 64 paths per
sample, a shared MLP policy of the holdings, proportional transaction
costs, the entropic indifference price by ReduceLogSumExp).  The other
six: a Linformer encoder (Wang et al.: keys and values projected along
the sequence from 512 to 64 positions before softmax attention); a
SincNet speaker classifier (Ravanelli & Bengio: a first Conv1d whose 64
band-pass kernels are computed from learned cut-off frequencies as
windowed sinc differences, then Conv1d / MaxPool / BatchNorm layers and
mean / standard-deviation pooling); a BiSeNet-like segmenter (Yu et al.:
a shallow wide spatial path and a deep context path with attention
refinement modules and a global context, joined by a feature fusion
module, bilinear upsampling); a SchNet-like molecular model (Schuett et
al.: all-pairs interatomic distances expanded in Gaussian radial basis
functions, filter-generating networks and continuous-filter
convolutions with a cosine cutoff, shifted softplus); a graph attention
network (Velickovic et al.: 8-head masked additive attention over a
dense 256-node adjacency given as edge scores, ELU, residual
projections); and a Funnel-Transformer-like encoder (Dai et al.: the
sequence pooled 256 -> 128 -> 64 by strided mean pooling of the queries
only, keys and values at full length, and a decoder that repeats the
compressed states back to 256 positions for token tagging).  The first
six are made of small kernels at batch 1 (most a few thousand elements
or fewer, a hundred or more kernels); the other six are of ordinary
sizes.

To be measured with

    OMP_WAIT_POLICY=PASSIVE /usr/bin/python3 scripts/measure_zoo.py --set blind17 \
        yee_fdtd qr_eigensolver active_contour imu_strapdown idm_traffic \
        deep_hedging linformer_encoder sincnet_speaker bisenet_seg \
        schnet_molecule gat_graph funnel_encoder --threads 1 2 --batches 1 4 16

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


def _shift_matrix(n, k=1):
    """(n, n) with S[(i + k) % n, i] = 1: x @ S gives x[(i + k) % n] at i."""
    s = torch.zeros(n, n)
    for i in range(n):
        s[(i + k) % n, i] = 1.0
    return s


def _attend(q, k, v, heads, lq, lk, d):
    """Multi-head softmax attention of q (N, lq, d) over k, v (N, lk, d)."""
    dh = d // heads
    q = q.reshape(-1, lq, heads, dh).transpose(1, 2)
    k = k.reshape(-1, lk, heads, dh).transpose(1, 2)
    v = v.reshape(-1, lk, heads, dh).transpose(1, 2)
    s = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(dh)
    o = torch.matmul(torch.softmax(s, dim=-1), v)
    return o.transpose(1, 2).reshape(-1, lq, d)


# --------------------------------------------------------------------------
# Small kernels at batch 1
# --------------------------------------------------------------------------

class YeeFDTD(nn.Module):
    """Finite-difference time-domain simulation (Yee; Taflove & Hagness) of
    a 2-d TMz field on a 24 x 24 grid with perfectly conducting walls: a
    Conv net (2 -> 8 -> 2, 3x3, Tanh) of the fed medium description gives
    the relative permittivity (1 + 3 Sigmoid) and conductivity (0.05
    Sigmoid) of every cell, hence the lossy update coefficients of the
    interior E cells; a Gaussian-modulated sinusoid is injected through a
    fixed source mask; 40 leapfrog steps, each Hx and Hy from differences
    of sliced Ez, then interior Ez from the curl of H (zero strips
    concatenated around it, the walls), Courant number 0.5.  Returns the 4 probes after each
    step and the final Ez."""

    def __init__(self, side=24, steps=40, courant=0.5, probes=4):
        super().__init__()
        self.side, self.steps, self.c = side, steps, courant
        self.medium = nn.Sequential(nn.Conv2d(2, 8, 3, padding=1), nn.Tanh(),
                                    nn.Conv2d(8, 2, 3, padding=1))
        yy, xx = torch.meshgrid(torch.arange(side, dtype=torch.float32),
                                torch.arange(side, dtype=torch.float32), indexing="ij")
        self.register_buffer("source", torch.exp(-((yy - 6.0) ** 2 + (xx - 7.0) ** 2) / 2.0))
        probe = torch.zeros(side * side, probes)
        for i, (r, c) in enumerate([(17, 17), (6, 18), (18, 5), (12, 12)][:probes]):
            probe[r * side + c, i] = 1.0
        self.register_buffer("probe", probe)
        self.wave = [math.exp(-((t - 10.0) / 4.0) ** 2) * math.sin(2 * math.pi * t / 8.0)
                     for t in range(steps)]

    def forward(self, medium):                     # (N, 2, 24, 24)
        m = self.medium(medium)[:, :, 1:-1, 1:-1]
        eps = 1.0 + 3.0 * torch.sigmoid(m[:, 0])
        loss = 0.05 * torch.sigmoid(m[:, 1]) / (2.0 * eps)
        ca = (1.0 - loss) / (1.0 + loss)
        cb = self.c / (eps * (1.0 + loss))
        ez = torch.zeros_like(medium[:, 0])                                 # (N, S, S)
        hx = ez[:, :, 1:] * 0.0
        hy = ez[:, 1:, :] * 0.0
        wall_col = ez[:, 1:-1, :1] * 0.0                                   # (N, S-2, 1)
        wall_row = ez[:, :1, :] * 0.0                                       # (N, 1, S)
        probes = []
        for t in range(self.steps):
            hx = hx - self.c * (ez[:, :, 1:] - ez[:, :, :-1])               # (N, S, S-1)
            hy = hy + self.c * (ez[:, 1:, :] - ez[:, :-1, :])               # (N, S-1, S)
            curl = (hy[:, 1:, 1:-1] - hy[:, :-1, 1:-1]) - (hx[:, 1:-1, 1:] - hx[:, 1:-1, :-1])
            inner = ca * ez[:, 1:-1, 1:-1] + cb * curl
            ez = torch.cat([wall_col, inner, wall_col], 2)
            ez = torch.cat([wall_row, ez, wall_row], 1) + self.wave[t] * self.source
            probes.append(torch.matmul(ez.reshape(-1, self.side * self.side), self.probe))
        return torch.stack(probes, 1), ez


class QREigenSolver(nn.Module):
    """The QR algorithm (Francis; Kublanovskaya) as a differentiable
    spectral layer: an MLP (32 -> 64 -> 64, Tanh) gives B (8 x 8), A = B
    B^T / 8 + I / 20; 10 unshifted iterations, each a classical
    Gram-Schmidt QR factorisation unrolled over the 8 columns (projections
    on the columns found so far by MatMuls, Rsqrt normalisation), then A
    <- Q^T A Q and V <- V Q.  Returns a Linear (8 -> 4) of the log
    eigenvalue estimates (the diagonal), the eigenvalues, the eigenvectors
    and the off-diagonal norm after each iteration."""

    def __init__(self, feats=32, n=8, iters=10, hidden=64):
        super().__init__()
        self.n, self.iters = n, iters
        self.mlp = nn.Sequential(nn.Linear(feats, hidden), nn.Tanh(), nn.Linear(hidden, n * n))
        self.register_buffer("eye", torch.eye(n))
        self.head = nn.Linear(n, 4)

    def _q_factor(self, a):                        # (N, n, n) -> Q
        qs = []
        for j in range(self.n):
            v = a[:, :, j:j + 1]                                            # (N, n, 1)
            if qs:
                q = torch.cat(qs, 2)                                        # (N, n, j)
                v = v - torch.matmul(q, torch.matmul(q.transpose(1, 2), v))
            qs.append(v * torch.rsqrt((v * v).sum(1, keepdim=True) + 1e-12))
        return torch.cat(qs, 2)

    def forward(self, features):                   # (N, 32)
        b = self.mlp(features).reshape(-1, self.n, self.n)
        a = torch.matmul(b, b.transpose(1, 2)) / self.n + 0.05 * self.eye
        vecs = torch.zeros_like(a) + self.eye
        off = []
        for _ in range(self.iters):
            q = self._q_factor(a)
            a = torch.matmul(q.transpose(1, 2), torch.matmul(a, q))
            vecs = torch.matmul(vecs, q)
            diag = (a * self.eye).sum(-1)
            off.append(torch.sqrt(F.relu((a * a).sum((1, 2)) - (diag * diag).sum(-1)) + 1e-12))
        eig = (a * self.eye).sum(-1)
        return self.head(torch.log(F.relu(eig) + 1e-6)), eig, vecs, torch.stack(off, 1)


class ActiveContour(nn.Module):
    """Active contour, snakes (Kass, Witkin & Terzopoulos), on a learned
    edge map: a Conv net (1 -> 8 -> 8 -> 1, 3x3, ReLU, Sigmoid) of the 32 x
    32 image gives the edge map E, a fixed Sobel Conv its gradient (the
    external force); 32 points start on a circle whose radius depends on
    the mean edge strength; 30 semi-implicit steps p <- (p + tau (w f(p) +
    kappa n(p))) (I - tau K)^-1, f(p) sampled bilinearly by tent weights
    (ReLU(1 - |p - grid|)) and MatMuls, n the unit normals from a circulant
    central difference, K = alpha D2 - beta D2^2 the elasticity / rigidity
    circulant (its inverse a buffer), points clamped to the image.  Returns
    the final contour (N, 32, 2) and the shoelace area after each step."""

    def __init__(self, side=32, points=32, steps=30, alpha=0.2, beta=0.05, tau=1.0):
        super().__init__()
        self.side, self.steps, self.tau = side, steps, tau
        self.edges = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(),
                                   nn.Conv2d(8, 8, 3, padding=1), nn.ReLU(),
                                   nn.Conv2d(8, 1, 3, padding=1), nn.Sigmoid())
        sobel = torch.tensor([[-1.0, 0.0, 1.0], [-2.0, 0.0, 2.0], [-1.0, 0.0, 1.0]]) / 8.0
        self.register_buffer("sobel", torch.stack([sobel, sobel.t()]).unsqueeze(1))
        self.w_ext = nn.Parameter(torch.tensor(4.0))
        self.kappa = nn.Parameter(torch.tensor(0.3))
        s1, s2 = _shift_matrix(points, 1), _shift_matrix(points, -1)
        eye = torch.eye(points)
        d2 = s1 + s2 - 2.0 * eye
        k = alpha * d2 - beta * torch.matmul(d2, d2)
        self.register_buffer("inv", torch.linalg.inv(eye - tau * k))
        self.register_buffer("diff", 0.5 * (s1 - s2))
        self.register_buffer("succ", s1)
        self.register_buffer("rot", torch.tensor([[0.0, 1.0], [-1.0, 0.0]]))
        ang = torch.arange(points, dtype=torch.float32) * (2 * math.pi / points)
        self.register_buffer("circle", torch.stack([torch.cos(ang), torch.sin(ang)]))
        self.register_buffer("grid", torch.arange(side, dtype=torch.float32))
        self.centre = (side - 1) / 2.0

    def forward(self, image):                      # (N, 1, 32, 32)
        e = self.edges(image)
        force = F.conv2d(e, self.sobel, padding=1) * self.w_ext             # (N, 2, S, S)
        radius = 6.0 + 8.0 * e.mean((1, 2, 3)).reshape(-1, 1, 1)
        p = self.centre + radius * self.circle                              # (N, 2, P)
        areas = []
        for _ in range(self.steps):
            wx = F.relu(1.0 - torch.abs(p[:, 0].unsqueeze(-1) - self.grid))  # (N, P, S)
            wy = F.relu(1.0 - torch.abs(p[:, 1].unsqueeze(-1) - self.grid))
            f = (torch.matmul(wy.unsqueeze(1), force) * wx.unsqueeze(1)).sum(-1)  # (N, 2, P)
            t = torch.matmul(p, self.diff)
            n = torch.matmul(self.rot, t)
            n = n * torch.rsqrt((n * n).sum(1, keepdim=True) + 1e-6)
            p = torch.matmul(p + self.tau * (f + self.kappa * n), self.inv)
            p = torch.clamp(p, 0.0, self.side - 1.0)
            pn = torch.matmul(p, self.succ)
            areas.append(0.5 * (p[:, 0] * pn[:, 1] - pn[:, 0] * p[:, 1]).sum(-1))
        return p.transpose(1, 2), torch.stack(areas, 1)


class IMUStrapdown(nn.Module):
    """Strapdown inertial navigation (Titterton & Weston) with a learned
    sensor correction (Brossard, Bonnabel & Barrau, "Denoising IMU
    Gyroscopes with Deep Learning"): a dilated Conv1d net (6 -> 32 -> 32 ->
    6, GELU) over the 32 samples corrects the gyro and accelerometer
    readings; then per sample the rotation increment as a quaternion
    exponential (Cos, Sin of the half angle), the Hamilton product by a
    structure-constant MatMul of the outer product, renormalisation, the
    rotation matrix as quadratic forms of the quaternion (another MatMul),
    the specific force rotated to the world frame, gravity added, and
    velocity and position integrated.  Returns the positions after each
    sample, the final attitude quaternion and velocity."""

    def __init__(self, samples=32, dt=0.01, hidden=32):
        super().__init__()
        self.samples, self.dt = samples, dt
        self.denoise = nn.Sequential(
            nn.Conv1d(6, hidden, 5, padding=2), nn.GELU(),
            nn.Conv1d(hidden, hidden, 5, padding=4, dilation=2), nn.GELU(),
            nn.Conv1d(hidden, 6, 1))
        ham = torch.zeros(4, 4, 4)             # (q_i r_j) -> component k
        for i, j, k, s in [(0, 0, 0, 1), (1, 1, 0, -1), (2, 2, 0, -1), (3, 3, 0, -1),
                           (0, 1, 1, 1), (1, 0, 1, 1), (2, 3, 1, 1), (3, 2, 1, -1),
                           (0, 2, 2, 1), (1, 3, 2, -1), (2, 0, 2, 1), (3, 1, 2, 1),
                           (0, 3, 3, 1), (1, 2, 3, 1), (2, 1, 3, -1), (3, 0, 3, 1)]:
            ham[i, j, k] = s
        self.register_buffer("ham", ham.reshape(16, 4))
        rq = torch.zeros(4, 4, 3, 3)           # (q_i q_j) -> R[a, b]
        for i, a in ((0, 1), (1, 1), (2, -1), (3, -1)):
            rq[i, i, 0, 0] = a
        for i, a in ((0, 1), (1, -1), (2, 1), (3, -1)):
            rq[i, i, 1, 1] = a
        for i, a in ((0, 1), (1, -1), (2, -1), (3, 1)):
            rq[i, i, 2, 2] = a
        for i, j, a, b, s in [(1, 2, 0, 1, 1), (0, 3, 0, 1, -1), (1, 3, 0, 2, 1), (0, 2, 0, 2, 1),
                              (1, 2, 1, 0, 1), (0, 3, 1, 0, 1), (2, 3, 1, 2, 1), (0, 1, 1, 2, -1),
                              (1, 3, 2, 0, 1), (0, 2, 2, 0, -1), (2, 3, 2, 1, 1), (0, 1, 2, 1, 1)]:
            rq[i, j, a, b] = s
            rq[j, i, a, b] = s
        self.register_buffer("rq", rq.reshape(16, 9))
        self.register_buffer("gravity", torch.tensor([0.0, 0.0, -9.81]))
        self.register_buffer("q0", torch.tensor([1.0, 0.0, 0.0, 0.0]))

    def forward(self, imu):                        # (N, 32, 6)
        x = imu + 0.1 * self.denoise(imu.transpose(1, 2)).transpose(1, 2)
        gyro = 2.0 * x[..., :3]
        accel = 3.0 * x[..., 3:] - self.gravity
        q = torch.zeros_like(imu[:, 0, :4]) + self.q0
        v = torch.zeros_like(imu[:, 0, :3])
        p = v
        pos = []
        for t in range(self.samples):
            h = 0.5 * self.dt * gyro[:, t]                                  # (N, 3)
            ang = torch.sqrt((h * h).sum(-1, keepdim=True) + 1e-12)
            dq = torch.cat([torch.cos(ang), torch.sin(ang) / ang * h], -1)
            q = torch.matmul((q.unsqueeze(2) * dq.unsqueeze(1)).reshape(-1, 16), self.ham)
            q = q * torch.rsqrt((q * q).sum(-1, keepdim=True))
            rot = torch.matmul((q.unsqueeze(2) * q.unsqueeze(1)).reshape(-1, 16), self.rq)
            acc = torch.matmul(rot.reshape(-1, 3, 3), accel[:, t].unsqueeze(-1))[..., 0]
            acc = acc + self.gravity
            p = p + self.dt * v + (0.5 * self.dt * self.dt) * acc
            v = v + self.dt * acc
            pos.append(p)
        return torch.stack(pos, 1), q, v


class IDMTraffic(nn.Module):
    """Microscopic traffic on a ring road with the intelligent driver model
    (Treiber, Hennecke & Helbing): 24 vehicles, an MLP (4 -> 32 -> 5, Tanh)
    of each driver's features gives the desired speed, time headway, jam
    distance, maximum acceleration and comfortable deceleration (Sigmoid
    ranges) and a start offset; 40 steps of 0.5 s: leader positions and
    speeds by a cyclic shift MatMul (the last vehicle's leader one lap
    ahead), the desired gap s0 + ReLU(v T + v dv / 2 sqrt(a b)), the IDM
    acceleration a (1 - (v / v0)^4 - (s* / s)^2), ballistic position
    updates with non-negative speeds.  Returns every step's speeds, the
    mean gap after each step and the final positions."""

    def __init__(self, cars=24, steps=40, dt=0.5, spacing=30.0, car_len=5.0):
        super().__init__()
        self.steps, self.dt, self.car_len = steps, dt, car_len
        self.mlp = nn.Sequential(nn.Linear(4, 32), nn.Tanh(), nn.Linear(32, 6))
        self.register_buffer("lead", _shift_matrix(cars, 1))
        lap = torch.zeros(cars)
        lap[-1] = cars * spacing
        self.register_buffer("lap", lap)
        self.register_buffer("start", torch.arange(cars, dtype=torch.float32) * spacing)
        lo = torch.tensor([20.0, 0.8, 1.5, 0.6, 1.0, -4.0])
        hi = torch.tensor([36.0, 2.2, 3.0, 2.0, 3.0, 4.0])
        self.register_buffer("lo", lo)
        self.register_buffer("span", hi - lo)

    def forward(self, drivers):                    # (N, 24, 4)
        prm = self.lo + self.span * torch.sigmoid(self.mlp(drivers))        # (N, C, 6)
        v0, hw, s0, amax, bcom = prm[..., 0], prm[..., 1], prm[..., 2], prm[..., 3], prm[..., 4]
        x = self.start + prm[..., 5]
        v = 0.5 * v0
        root = 2.0 * torch.sqrt(amax * bcom)
        speeds, gaps = [], []
        for _ in range(self.steps):
            gap = torch.clamp(torch.matmul(x, self.lead) + self.lap - x - self.car_len, min=0.5)
            dv = v - torch.matmul(v, self.lead)
            want = s0 + F.relu(v * hw + v * dv / root)
            r = v / v0
            r2 = r * r
            acc = amax * (1.0 - r2 * r2 - (want / gap) ** 2)
            vn = F.relu(v + self.dt * acc)
            x = x + 0.5 * self.dt * (v + vn)
            v = vn
            speeds.append(v)
            gaps.append(gap.mean(-1))
        return torch.stack(speeds, 1), torch.stack(gaps, 1), x


class DeepHedging(nn.Module):
    """Deep hedging (Buehler, Gonon, Teichmann & Wood) of a call under the
    Heston model: an MLP (8 -> 32 -> 6) of the fed market description gives
    the mean reversion, long-run variance, vol of vol, correlation, initial
    variance and strike (Sigmoid ranges); 64 paths per sample from fixed
    Gaussian increments (a buffer), 24 full-truncation Euler-Maruyama steps
    of the log price and the variance; at each step a shared policy MLP (4
    -> 32 -> 32 -> 1, ReLU, Sigmoid) of log-moneyness, volatility, time to
    maturity and the previous holding gives the new holding; the hedge's
    gains less proportional transaction costs; the entropic indifference
    price (1 / lambda) log mean exp(lambda (payoff - gains)).  Returns the
    price, the mean holding at each step and the RMS hedging error."""

    def __init__(self, feats=8, paths=64, steps=24, maturity=0.25, cost=0.002, risk=2.0):
        super().__init__()
        self.paths, self.steps, self.cost, self.risk = paths, steps, cost, risk
        self.dt = maturity / steps
        self.maturity = maturity
        self.market = nn.Sequential(nn.Linear(feats, 32), nn.Tanh(), nn.Linear(32, 6))
        self.register_buffer("lo", torch.tensor([0.5, 0.02, 0.1, -0.9, 0.02, 0.9]))
        self.register_buffer("span", torch.tensor([2.5, 0.08, 0.5, 0.8, 0.08, 0.2]))
        gen = torch.Generator().manual_seed(17)
        self.register_buffer("z", torch.randn(2, steps, paths, generator=gen))
        self.policy = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(),
                                    nn.Linear(32, 1), nn.Sigmoid())

    def forward(self, market):                     # (N, 8)
        prm = self.lo + self.span * torch.sigmoid(self.market(market))      # (N, 6)
        kappa, theta, xi, rho, var0, strike = [prm[:, i:i + 1] for i in range(6)]
        rho_c = torch.sqrt(1.0 - rho * rho)
        log_k = torch.log(strike)
        zero = torch.zeros_like(market[:, :1]).expand(-1, self.paths)      # (N, P)
        ls, var, hold, gains = zero, zero + var0, zero, zero
        sq_dt = math.sqrt(self.dt)
        mean_hold = []
        for t in range(self.steps):
            vp = F.relu(var)
            vol = torch.sqrt(vp + 1e-8)
            tau = zero + (self.maturity - t * self.dt)
            feat = torch.stack([ls - log_k, vol, tau, hold], -1)            # (N, P, 4)
            new = self.policy(feat)[..., 0]
            s_old = torch.exp(ls)
            dw1 = self.z[0, t]
            dw2 = rho * self.z[0, t] + rho_c * self.z[1, t]
            ls = ls - 0.5 * vp * self.dt + vol * sq_dt * dw1
            var = var + kappa * (theta - vp) * self.dt + xi * vol * sq_dt * dw2
            gains = gains + new * (torch.exp(ls) - s_old) - self.cost * s_old * torch.abs(new - hold)
            hold = new
            mean_hold.append(hold.mean(-1))
        err = F.relu(torch.exp(ls) - strike) - gains
        price = (torch.logsumexp(self.risk * err, -1) - math.log(self.paths)) / self.risk
        return price, torch.stack(mean_hold, 1), torch.sqrt((err * err).mean(-1))


# --------------------------------------------------------------------------
# Ordinary sizes
# --------------------------------------------------------------------------

class _LinformerLayer(nn.Module):
    """Post-norm layer: multi-head attention whose keys and values are
    projected along the sequence (E, F: k x L, shared by the heads), then a
    GELU feed-forward."""

    def __init__(self, dim, heads, hidden, seq, proj):
        super().__init__()
        self.dim, self.heads, self.seq, self.proj = dim, heads, seq, proj
        self.qkv = nn.Linear(dim, 3 * dim)
        self.e = nn.Parameter(torch.randn(proj, seq) / math.sqrt(seq))
        self.f = nn.Parameter(torch.randn(proj, seq) / math.sqrt(seq))
        self.o = nn.Linear(dim, dim)
        self.n1, self.n2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.ffn = nn.Sequential(nn.Linear(dim, hidden), nn.GELU(), nn.Linear(hidden, dim))

    def forward(self, x):                          # (N, L, D)
        q, k, v = torch.split(self.qkv(x), self.dim, -1)
        k, v = torch.matmul(self.e, k), torch.matmul(self.f, v)            # (N, k, D)
        x = self.n1(x + self.o(_attend(q, k, v, self.heads, self.seq, self.proj, self.dim)))
        return self.n2(x + self.ffn(x))


class LinformerEncoder(nn.Module):
    """Linformer encoder (Wang et al., "Linformer: Self-Attention with
    Linear Complexity") over 512 tokens of a 2000 vocabulary: token and
    learned position embeddings (128), 4 post-norm layers of 4-head
    attention with keys and values projected from 512 to 64 positions and
    a GELU feed-forward (512), a mean-pooled Linear to 20 classes.  Returns
    the logits and the token features."""

    def __init__(self, vocab=2000, seq=512, dim=128, depth=4, heads=4, hidden=512, proj=64,
                 classes=20):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.pos = nn.Parameter(0.02 * torch.randn(1, seq, dim))
        self.norm = nn.LayerNorm(dim)
        self.layers = nn.ModuleList([_LinformerLayer(dim, heads, hidden, seq, proj)
                                     for _ in range(depth)])
        self.head = nn.Linear(dim, classes)

    def forward(self, tokens):                     # (N, 512) int64
        x = self.norm(self.tok(tokens) + self.pos)
        for layer in self.layers:
            x = layer(x)
        return self.head(x.mean(1)), x


class _SincConv(nn.Module):
    """Band-pass Conv1d whose kernels are computed from learned low cut-off
    and band width (Hz, mel-spaced at init): (sin(2 pi f2 n) - sin(2 pi f1
    n)) / (pi n), the centre tap 2 (f2 - f1) by Where, a Hamming window,
    normalised by 2 (f2 - f1)."""

    def __init__(self, filters, size, rate=16000.0, min_low=30.0, min_band=50.0):
        super().__init__()
        self.min_low, self.min_band, self.nyq = min_low, min_band, rate / 2.0
        mel = torch.linspace(2595 * math.log10(1 + min_low / 700.0),
                             2595 * math.log10(1 + (self.nyq - min_low - min_band) / 700.0),
                             filters + 1)
        hz = 700.0 * (10 ** (mel / 2595.0) - 1.0)
        self.low_hz = nn.Parameter(hz[:-1].unsqueeze(1))
        self.band_hz = nn.Parameter((hz[1:] - hz[:-1]).unsqueeze(1))
        n = torch.arange(size, dtype=torch.float32) - (size - 1) / 2.0
        t = n / rate
        self.register_buffer("t", t)
        self.register_buffer("centre", n == 0)
        self.register_buffer("denom", torch.where(n == 0, torch.ones_like(t), math.pi * t))
        self.register_buffer("window", 0.54 - 0.46 * torch.cos(2 * math.pi * torch.arange(size)
                                                               / (size - 1)))
        self.size = size

    def forward(self, x):                          # (N, 1, T)
        low = self.min_low + torch.abs(self.low_hz)
        high = torch.clamp(low + self.min_band + torch.abs(self.band_hz), max=self.nyq)
        band = high - low                                                   # (F, 1)
        num = torch.sin(2 * math.pi * high * self.t) - torch.sin(2 * math.pi * low * self.t)
        k = torch.where(self.centre, 2.0 * band, num / self.denom) * self.window / (2.0 * band)
        return F.conv1d(x, k.unsqueeze(1))


class SincNetSpeaker(nn.Module):
    """SincNet-like speaker classifier (Ravanelli & Bengio, "Speaker
    Recognition from Raw Waveform with SincNet") of 0.5 s at 16 kHz: a sinc
    band-pass layer of 64 kernels of 129 taps, Abs, MaxPool 3, BatchNorm,
    LeakyReLU; two Conv1d layers (64 channels, kernel 5) each with MaxPool
    3, BatchNorm, LeakyReLU; mean and standard deviation over time; Linear
    to 256, BatchNorm, LeakyReLU, Linear to a 256 embedding, Linear to 100
    speakers.  Returns the logits and the embedding."""

    def __init__(self, filters=64, size=129, channels=64, emb=256, classes=100):
        super().__init__()
        self.sinc = _SincConv(filters, size)
        self.bn0 = nn.BatchNorm1d(filters)
        self.convs = nn.ModuleList([nn.Conv1d(filters, channels, 5),
                                    nn.Conv1d(channels, channels, 5)])
        self.bns = nn.ModuleList([nn.BatchNorm1d(channels), nn.BatchNorm1d(channels)])
        self.fc = nn.Sequential(nn.Linear(2 * channels, emb), nn.BatchNorm1d(emb),
                                nn.LeakyReLU(0.2), nn.Linear(emb, emb))
        self.head = nn.Linear(emb, classes)

    def forward(self, waveform):                   # (N, 1, 8000)
        x = F.leaky_relu(self.bn0(F.max_pool1d(torch.abs(self.sinc(waveform)), 3)), 0.2)
        for conv, bn in zip(self.convs, self.bns):
            x = F.leaky_relu(bn(F.max_pool1d(conv(x), 3)), 0.2)
        mu = x.mean(-1)
        sd = torch.sqrt(((x - mu.unsqueeze(-1)) ** 2).mean(-1) + 1e-5)
        e = self.fc(torch.cat([mu, sd], 1))
        return self.head(F.leaky_relu(e, 0.2)), e


class _BasicBlock(nn.Module):
    def __init__(self, cin, cout, stride):
        super().__init__()
        self.c1 = _conv_bn_relu(cin, cout, 3, stride)
        self.c2 = nn.Sequential(nn.Conv2d(cout, cout, 3, 1, 1, bias=False), nn.BatchNorm2d(cout))
        self.short = nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False),
                                   nn.BatchNorm2d(cout))

    def forward(self, x):
        return F.relu(self.c2(self.c1(x)) + self.short(x))


class _ARM(nn.Module):
    """Attention refinement: 3x3 Conv-BN-ReLU, then a channel attention
    from the global mean (1x1 Conv, BN, Sigmoid)."""

    def __init__(self, cin, cout):
        super().__init__()
        self.conv = _conv_bn_relu(cin, cout)
        self.att = nn.Sequential(nn.Conv2d(cout, cout, 1, bias=False), nn.BatchNorm2d(cout),
                                 nn.Sigmoid())

    def forward(self, x):
        x = self.conv(x)
        return x * self.att(x.mean((2, 3), keepdim=True))


class _FFM(nn.Module):
    """Feature fusion: concatenation, 1x1 Conv-BN-ReLU, an SE-like
    attention (1x1 Convs, ReLU, Sigmoid), f + f * a."""

    def __init__(self, cin, cout):
        super().__init__()
        self.conv = _conv_bn_relu(cin, cout, 1)
        self.att = nn.Sequential(nn.Conv2d(cout, cout // 4, 1), nn.ReLU(),
                                 nn.Conv2d(cout // 4, cout, 1), nn.Sigmoid())

    def forward(self, sp, cp):
        f = self.conv(torch.cat([sp, cp], 1))
        return f + f * self.att(f.mean((2, 3), keepdim=True))


class BiSeNetSeg(nn.Module):
    """BiSeNet-like real-time segmenter (Yu et al., "BiSeNet: Bilateral
    Segmentation Network") of 192 x 192 images into 19 classes: a spatial
    path of three stride-2 Conv-BN-ReLU (64, 64, 128) to 1/8; a context
    path (stem to 1/4, residual stages of 64, 128, 256 channels to 1/32),
    attention refinement modules at 1/16 and 1/32, the global mean context
    added at 1/32, bilinear upsampling to 1/16 and 1/8 with 3x3 refinement
    Convs; the feature fusion module, a 3x3 head and a 1x1 classifier, an
    8x bilinear upsampling; auxiliary logits from the 1/16 context."""

    def __init__(self, classes=19):
        super().__init__()
        self.spatial = nn.Sequential(_conv_bn_relu(3, 64, 3, 2), _conv_bn_relu(64, 64, 3, 2),
                                     _conv_bn_relu(64, 128, 3, 2))
        self.stem = nn.Sequential(_conv_bn_relu(3, 32, 3, 2), _conv_bn_relu(32, 32, 3, 2))
        self.s8 = _BasicBlock(32, 64, 2)
        self.s16 = _BasicBlock(64, 128, 2)
        self.s32 = _BasicBlock(128, 256, 2)
        self.arm16, self.arm32 = _ARM(128, 128), _ARM(256, 128)
        self.global_ctx = _conv_bn_relu(256, 128, 1)
        self.refine32, self.refine16 = _conv_bn_relu(128, 128), _conv_bn_relu(128, 128)
        self.ffm = _FFM(256, 256)
        self.head = nn.Sequential(_conv_bn_relu(256, 64), nn.Conv2d(64, classes, 1))
        self.aux = nn.Conv2d(128, classes, 1)

    def forward(self, image):                      # (N, 3, 192, 192)
        sp = self.spatial(image)
        c16 = self.s16(self.s8(self.stem(image)))
        c32 = self.s32(c16)
        g = self.global_ctx(c32.mean((2, 3), keepdim=True))
        up32 = F.interpolate(self.arm32(c32) + g, scale_factor=2.0, mode="bilinear",
                             align_corners=False)
        up32 = self.refine32(up32)
        up16 = F.interpolate(self.arm16(c16) + up32, scale_factor=2.0, mode="bilinear",
                             align_corners=False)
        up16 = self.refine16(up16)
        out = self.head(self.ffm(sp, up16))
        out = F.interpolate(out, scale_factor=8.0, mode="bilinear", align_corners=False)
        return out, self.aux(up32)


def _ssp(x):
    """Shifted softplus, ln(0.5 e^x + 0.5)."""
    return F.softplus(x) - math.log(2.0)


class _Interaction(nn.Module):
    """SchNet interaction: a filter-generating network (RBF -> F -> F,
    shifted softplus) times the cosine cutoff, a continuous-filter
    convolution sum_j x_j W_ij of the atom-wise projected features, then
    an atom-wise Linear, shifted softplus, Linear, residual."""

    def __init__(self, dim, rbf):
        super().__init__()
        self.f1, self.f2 = nn.Linear(rbf, dim), nn.Linear(dim, dim)
        self.in2f = nn.Linear(dim, dim, bias=False)
        self.out1, self.out2 = nn.Linear(dim, dim), nn.Linear(dim, dim)

    def forward(self, x, expand, cut):             # (N, A, F), (N, A, A, R), (N, A, A)
        w = self.f2(_ssp(self.f1(expand))) * cut.unsqueeze(-1)              # (N, A, A, F)
        y = (w * self.in2f(x).unsqueeze(1)).sum(2)
        return x + self.out2(_ssp(self.out1(y)))


class SchNetMolecule(nn.Module):
    """SchNet-like molecular property model (Schuett et al., "SchNet: A
    continuous-filter convolutional neural network for modeling quantum
    interactions") of 64 atoms: atom-type embeddings (10 types, 128);
    all-pairs distances from the positions (scaled by 4), 50 Gaussian
    radial basis functions up to the 6 A cutoff, a cosine cutoff without
    self pairs; 3 interactions; an atom-wise MLP (128 -> 64 -> 1, shifted
    softplus) summed into the energy.  Returns the energy and the atom
    features."""

    def __init__(self, atoms=64, types=10, dim=128, rbf=50, cutoff=6.0, depth=3):
        super().__init__()
        self.cutoff = cutoff
        self.embed = nn.Embedding(types, dim)
        self.register_buffer("mu", torch.linspace(0.0, cutoff, rbf))
        self.gamma = 0.5 / (cutoff / (rbf - 1)) ** 2
        self.register_buffer("not_self", 1.0 - torch.eye(atoms))
        self.blocks = nn.ModuleList([_Interaction(dim, rbf) for _ in range(depth)])
        self.out1, self.out2 = nn.Linear(dim, dim // 2), nn.Linear(dim // 2, 1)

    def forward(self, atom_types, positions):      # (N, 64) int64, (N, 64, 3)
        pos = 4.0 * positions
        diff = pos.unsqueeze(2) - pos.unsqueeze(1)
        d = torch.sqrt((diff * diff).sum(-1) + 1e-6)                        # (N, A, A)
        expand = torch.exp(-self.gamma * (d.unsqueeze(-1) - self.mu) ** 2)
        cut = 0.5 * (torch.cos(d * (math.pi / self.cutoff)) + 1.0) \
            * (d < self.cutoff).to(d.dtype) * self.not_self
        x = self.embed(atom_types)
        for blk in self.blocks:
            x = blk(x, expand, cut)
        energy = self.out2(_ssp(self.out1(x))).sum((1, 2))
        return energy, x


class _GATLayer(nn.Module):
    """Graph attention layer: per head W h, logits LeakyReLU(a_l . W h_i +
    a_r . W h_j) (0.2) masked by the adjacency, softmax over neighbours,
    the weighted sum; heads concatenated (or averaged), plus a residual
    projection."""

    def __init__(self, cin, heads, feats, concat=True):
        super().__init__()
        self.h, self.f, self.concat = heads, feats, concat
        self.w = nn.Linear(cin, heads * feats, bias=False)
        self.a_l = nn.Parameter(torch.randn(heads, 1, feats) / math.sqrt(feats))
        self.a_r = nn.Parameter(torch.randn(heads, 1, feats) / math.sqrt(feats))
        self.res = nn.Linear(cin, heads * feats if concat else feats, bias=False)
        self.bias = nn.Parameter(torch.zeros(heads * feats if concat else feats))

    def forward(self, x, mask, nodes):             # (N, V, C), (N, 1, V, V)
        wh = self.w(x).reshape(-1, nodes, self.h, self.f).transpose(1, 2)   # (N, H, V, F)
        el = (wh * self.a_l).sum(-1)
        er = (wh * self.a_r).sum(-1)
        e = F.leaky_relu(el.unsqueeze(-1) + er.unsqueeze(-2), 0.2) + mask
        o = torch.matmul(torch.softmax(e, dim=-1), wh)                      # (N, H, V, F)
        if self.concat:
            o = o.transpose(1, 2).reshape(-1, nodes, self.h * self.f)
        else:
            o = o.mean(1)
        return o + self.res(x) + self.bias


class GATGraph(nn.Module):
    """Graph attention network (Velickovic et al., "Graph Attention
    Networks") on dense graphs of 256 nodes with 32 features: the
    adjacency is where the symmetrised edge scores exceed 0.9, plus self
    loops (an additive -1e9 mask); 3 layers of 8-head attention (32
    features per head, ELU) and an output layer of 4 averaged heads to 10
    classes.  Returns the node logits and a mean-pooled graph embedding."""

    def __init__(self, nodes=256, feats=32, heads=8, hidden=32, depth=3, classes=10):
        super().__init__()
        self.nodes = nodes
        self.register_buffer("eye", torch.eye(nodes, dtype=torch.bool))
        dims = [feats] + [heads * hidden] * depth
        self.layers = nn.ModuleList([_GATLayer(dims[i], heads, hidden) for i in range(depth)])
        self.out = _GATLayer(dims[-1], 4, classes, concat=False)

    def forward(self, node_features, edge_scores):  # (N, 256, 32), (N, 256, 256)
        adj = ((edge_scores + edge_scores.transpose(1, 2)) > 0.9) | self.eye
        mask = torch.where(adj, torch.zeros_like(edge_scores),
                           torch.full_like(edge_scores, -1e9)).unsqueeze(1)
        x = node_features
        for layer in self.layers:
            x = F.elu(layer(x, mask, self.nodes))
        return self.out(x, mask, self.nodes), x.mean(1)


class _FunnelLayer(nn.Module):
    """Post-norm layer whose queries may be shorter than its keys and
    values: attention, residual from the queries, LayerNorm, GELU
    feed-forward, LayerNorm."""

    def __init__(self, dim, heads, hidden):
        super().__init__()
        self.dim, self.heads = dim, heads
        self.q, self.kv = nn.Linear(dim, dim), nn.Linear(dim, 2 * dim)
        self.o = nn.Linear(dim, dim)
        self.n1, self.n2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.ffn = nn.Sequential(nn.Linear(dim, hidden), nn.GELU(), nn.Linear(hidden, dim))

    def forward(self, q, kv, lq, lk):
        k, v = torch.split(self.kv(kv), self.dim, -1)
        x = self.n1(q + self.o(_attend(self.q(q), k, v, self.heads, lq, lk, self.dim)))
        return self.n2(x + self.ffn(x))


class FunnelEncoder(nn.Module):
    """Funnel-Transformer-like encoder-decoder (Dai et al., "Funnel-
    Transformer: Filtering out Sequential Redundancy") over 256 tokens of
    a 3000 vocabulary: embeddings (160) with learned positions, 3 blocks of
    2 post-norm layers (5 heads, feed-forward 640); the first layer of the
    2nd and 3rd blocks takes queries mean-pooled by 2 (AveragePool) over
    the full-length keys and values, so the sequence goes 256 -> 128 ->
    64; a decoder repeats the 64 states 4 times (Expand), adds the first
    block's output and runs one more layer.  Returns the token tag logits
    (16 tags) and the sequence logits (4 classes) from the pooled last
    block."""

    def __init__(self, vocab=3000, seq=256, dim=160, heads=5, hidden=640, tags=16, classes=4):
        super().__init__()
        self.seq, self.dim = seq, dim
        self.tok = nn.Embedding(vocab, dim)
        self.pos = nn.Parameter(0.02 * torch.randn(1, seq, dim))
        self.norm = nn.LayerNorm(dim)
        self.blocks = nn.ModuleList([nn.ModuleList([_FunnelLayer(dim, heads, hidden)
                                                    for _ in range(2)]) for _ in range(3)])
        self.decoder = _FunnelLayer(dim, heads, hidden)
        self.tag_head = nn.Linear(dim, tags)
        self.cls_head = nn.Sequential(nn.Linear(dim, dim), nn.Tanh(), nn.Linear(dim, classes))

    def forward(self, tokens):                     # (N, 256) int64
        x = self.norm(self.tok(tokens) + self.pos)
        length = self.seq
        first = x
        for b, block in enumerate(self.blocks):
            for i, layer in enumerate(block):
                if b and not i:
                    q = F.avg_pool1d(x.transpose(1, 2), 2).transpose(1, 2)
                    x = layer(q, x, length // 2, length)
                    length //= 2
                else:
                    x = layer(x, x, length, length)
            if not b:
                first = x
        rep = self.seq // length
        up = x.unsqueeze(2).expand(-1, -1, rep, -1).reshape(-1, self.seq, self.dim)
        y = self.decoder(up + first, up + first, self.seq, self.seq)
        return self.tag_head(y), self.cls_head(x.mean(1))


BLIND17 = {
    "yee_fdtd": dict(ctor=YeeFDTD, family="fdtd-electromagnetics",
                     inputs=[("medium", ("N", 2, 24, 24), "float32", None)]),
    "qr_eigensolver": dict(ctor=QREigenSolver, family="qr-eigenvalue-algorithm",
                           inputs=[("features", ("N", 32), "float32", None)]),
    "active_contour": dict(ctor=ActiveContour, family="active-contour-snake",
                           inputs=[("image", ("N", 1, 32, 32), "float32", None)]),
    "imu_strapdown": dict(ctor=IMUStrapdown, family="strapdown-inertial-navigation",
                          inputs=[("imu", ("N", 32, 6), "float32", None)]),
    "idm_traffic": dict(ctor=IDMTraffic, family="car-following-traffic-simulation",
                        inputs=[("drivers", ("N", 24, 4), "float32", None)]),
    "deep_hedging": dict(ctor=DeepHedging, family="deep-hedging",
                         inputs=[("market", ("N", 8), "float32", None)]),
    "linformer_encoder": dict(ctor=LinformerEncoder, family="low-rank-projected-attention",
                              inputs=[("tokens", ("N", 512), "int64", 2000)]),
    "sincnet_speaker": dict(ctor=SincNetSpeaker, family="parametric-sinc-filterbank",
                            inputs=[("waveform", ("N", 1, 8000), "float32", None)]),
    "bisenet_seg": dict(ctor=BiSeNetSeg, family="bilateral-two-path-segmentation",
                        inputs=[("image", ("N", 3, 192, 192), "float32", None)]),
    "schnet_molecule": dict(ctor=SchNetMolecule, family="continuous-filter-convolution",
                            inputs=[("atom_types", ("N", 64), "int64", 10),
                                    ("positions", ("N", 64, 3), "float32", None)]),
    "gat_graph": dict(ctor=GATGraph, family="graph-attention",
                      inputs=[("node_features", ("N", 256, 32), "float32", None),
                              ("edge_scores", ("N", 256, 256), "float32", None)]),
    "funnel_encoder": dict(ctor=FunnelEncoder, family="funnel-query-pooling",
                           inputs=[("tokens", ("N", 256), "int64", 3000)]),
}
