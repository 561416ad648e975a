r"""BLIND19: the nineteenth blind set, written on 2026-12-06 by a helper
session before any of it was measured.  It is to be measured before any
further change is scored, and scored only once, at the end, with the code
as it then stands (bench/zoo_accuracy.py --set blind19).  None of its
twelve families occurs in another set (ZOO, BLIND, BLIND2 ... BLIND18, the
reference models), so no plan rule, feature, fit or calibration was made
with any of them in view, and none of them was run through onnxcost
predict before being measured.

The families: a gravitational N-body simulator (Aarseth, "Gravitational
N-Body Simulations": 12 bodies in 3-D whose masses and initial velocities
come from an MLP, Plummer-softened pairwise accelerations by broadcast
differences, 24 semi-implicit Euler steps, the total energy after each);
Horn-Schunck optical flow (Horn & Schunck, "Determining Optical Flow": a
32 x 32 image pair, the brightness derivatives by fixed Convs, the
smoothness weight from a small Conv net, 40 Jacobi iterations of the
flow update with a fixed neighbourhood-average depthwise Conv); Gaussian
mean-shift mode seeking (Comaniciu & Meer, "Mean Shift: A Robust Approach
toward Feature Space Analysis": 64 embedded points in 4-D, the bandwidth
from an MLP, 30 iterations of kernel-weighted means by Softmax and
MatMul); a neural Hawkes process (Mei & Eisner, "The Neural Hawkes
Process": a continuous-time LSTM whose cells decay exponentially between
24 events, the event type intensities by Softplus); a learned LSTM
optimiser (Andrychowicz et al., "Learning to learn by gradient descent by
gradient descent": a coordinate-wise two-layer LSTM with preprocessed
gradients minimising a fed 10-dimensional least-squares problem for 20
unrolled steps); and Bezier curve point projection (de Casteljau's
algorithm with Newton's method: a quintic Bezier curve from an MLP, 64
query points, soft initial parameters from 17 samples, 10 Newton steps
each evaluating the curve and its first two derivatives by de Casteljau
recursions).  The other six: a VoVNet (Lee et al., "An Energy and
GPU-Computation Efficient Backbone Network": one-shot aggregation modules
with effective squeeze-excitation); a DnCNN denoiser (Zhang et al.,
"Beyond a Gaussian Denoiser": a plain Conv-BN-ReLU stack at full
resolution predicting the residual noise); a Conv-TasNet separator (Luo &
Mesgarani: a learned strided encoder, a dilated depthwise TCN with global
layer norm and PReLU, Sigmoid masks, a transposed-Conv decoder); a
LeViT-like classifier (Graham et al., "LeViT: a Vision Transformer in
ConvNet's Clothing": a Conv stem, attention with a learned per-head
relative position bias, Hardswish, shrinking attention between stages,
Linear layers followed by BatchNorm); a point cloud transformer (Guo et
al., "PCT: Point Cloud Transformer": offset-attention with the
Softmax-then-L1 double normalisation, 512 points); and an ESPNet
segmenter (Mehta et al., "ESPNet: Efficient Spatial Pyramid of Dilated
Convolutions": reduce-split-transform-merge modules with five dilation
rates and hierarchical feature fusion).  The first six are made of small
kernels at batch 1 (most a few thousand elements or fewer, several hundred
or more kernels); the other six are of ordinary sizes.

To be measured with

    OMP_WAIT_POLICY=PASSIVE /usr/bin/python3 scripts/measure_zoo.py --set blind19 \
        nbody_gravity horn_schunck mean_shift neural_hawkes l2o_optimizer \
        bezier_projection vovnet_osa dncnn_denoise conv_tasnet levit_like \
        pct_pointcloud espnet_seg --threads 1 2 --batches 1 4 16

Same table form as export.py's ZOO (ctor, family, inputs, run); exported by
scripts/ort_graphs.py's export() (opset 13, symbolic batch N).
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def _conv_bn_relu(cin, cout, k=3, stride=1, dilation=1, groups=1):
    """Conv (no bias), BatchNorm, ReLU; 'same' padding for odd k."""
    return nn.Sequential(nn.Conv2d(cin, cout, k, stride, dilation * (k // 2), dilation,
                                   groups, bias=False),
                         nn.BatchNorm2d(cout), nn.ReLU())


def _heads(x, heads):
    """(N, L, D) -> (N, H, L, D / H)."""
    n_tok, dim = x.shape[1], x.shape[2]
    return x.reshape(-1, n_tok, heads, dim // heads).transpose(1, 2)


# --------------------------------------------------------------------------
# Small kernels at batch 1
# --------------------------------------------------------------------------

class NBodyGravity(nn.Module):
    """Gravitational N-body simulation (Aarseth): an MLP (6 -> 32 -> 4,
    Tanh) of each body's fed features gives its mass (Softplus) and a
    velocity correction; positions from the features; at each of 24
    semi-implicit Euler steps (dt 0.02) the Plummer-softened pairwise
    accelerations G m_j (x_j - x_i) / (|x_j - x_i|^2 + eps^2)^1.5 by
    broadcast differences and a reduction over j, then the kinetic plus
    potential energy.  Returns the trajectory, the energies and a Linear
    readout of the final state."""

    def __init__(self, bodies=12, feats=6, steps=24, dt=0.02):
        super().__init__()
        self.steps, self.dt = steps, dt
        self.mlp = nn.Sequential(nn.Linear(feats, 32), nn.Tanh(), nn.Linear(32, 4))
        self.head = nn.Linear(bodies * 6, 8)

    def forward(self, bodies):                     # (N, 12, 6)
        p = self.mlp(bodies)
        m = F.softplus(p[..., :1]) + 0.1                                    # (N, B, 1)
        x = 2.0 * bodies[..., :3]
        v = 0.5 * bodies[..., 3:] + 0.1 * p[..., 1:]
        mj = m.transpose(1, 2).unsqueeze(-1)                                # (N, 1, B, 1)
        traj, energy = [], []
        for _ in range(self.steps):
            d = x.unsqueeze(1) - x.unsqueeze(2)                             # (N, i, j, 3)
            r2 = (d * d).sum(-1, keepdim=True) + 0.05
            inv = torch.rsqrt(r2)
            acc = (d * (mj * inv * inv * inv)).sum(2)
            v = v + self.dt * acc
            x = x + self.dt * v
            kin = 0.5 * (m * (v * v).sum(-1, keepdim=True)).sum((1, 2))
            pot = -0.5 * (m.unsqueeze(1) * mj * inv).sum((1, 2, 3))
            traj.append(x)
            energy.append(kin + pot)
        state = torch.cat([x, v], -1).flatten(1)
        return torch.stack(traj, 1), torch.stack(energy, 1), self.head(state)


class HornSchunck(nn.Module):
    """Horn-Schunck optical flow on a fed 32 x 32 image pair: the
    brightness derivatives Ix, Iy (fixed 2 x 2 difference Convs on the
    mean of both frames, replicate-padded) and It; the smoothness weight
    alpha^2 per pixel from a small Conv net (Softplus); 40 Jacobi
    iterations u <- ubar - Ix (Ix ubar + Iy vbar + It) / (alpha^2 + Ix^2
    + Iy^2), the neighbourhood averages by a fixed depthwise 3 x 3 Conv.
    Returns the flow and a Conv readout of it."""

    def __init__(self, iters=40):
        super().__init__()
        self.iters = iters
        dx = torch.tensor([[-1.0, 1.0], [-1.0, 1.0]]) * 0.5
        self.register_buffer("kgrad", torch.stack([dx, dx.t()]).unsqueeze(1))   # (2, 1, 2, 2)
        avg = torch.tensor([[1.0, 2.0, 1.0], [2.0, 0.0, 2.0], [1.0, 2.0, 1.0]]) / 12.0
        self.register_buffer("kavg", avg.expand(2, 1, 3, 3).clone())
        self.alpha = nn.Sequential(nn.Conv2d(2, 8, 3, padding=1), nn.Tanh(), nn.Conv2d(8, 1, 3, padding=1))
        self.readout = nn.Conv2d(2, 4, 3, stride=2, padding=1)

    def forward(self, frames):                     # (N, 2, 32, 32)
        mean = frames.mean(1, keepdim=True)
        g = F.conv2d(F.pad(mean, (0, 1, 0, 1), mode="replicate"), self.kgrad)
        ix, iy = g[:, :1], g[:, 1:]
        it = frames[:, 1:] - frames[:, :1]
        den = F.softplus(self.alpha(frames)) + 0.05 + ix * ix + iy * iy
        grad = torch.cat([ix, iy], 1)
        uv = torch.zeros_like(grad)
        for _ in range(self.iters):
            bar = F.conv2d(F.pad(uv, (1, 1, 1, 1), mode="replicate"), self.kavg, groups=2)
            t = ((grad * bar).sum(1, keepdim=True) + it) / den
            uv = bar - grad * t
        return uv, self.readout(uv).mean((2, 3))


class MeanShift(nn.Module):
    """Gaussian mean-shift mode seeking (Comaniciu & Meer): the 64 fed
    points embedded to 4-D by an MLP, the bandwidth from an MLP of their
    mean (Softplus); 30 iterations moving every mode estimate y_i to the
    kernel-weighted mean of the points, the weights a Softmax over the
    points of -|y_i - x_j|^2 / (2 h^2) (the squared distances by MatMuls).
    Returns the modes, the soft assignment of points to modes and a Linear
    readout of the mode spread."""

    def __init__(self, feats=8, dim=4, iters=30):
        super().__init__()
        self.iters = iters
        self.embed = nn.Sequential(nn.Linear(feats, 16), nn.Tanh(), nn.Linear(16, dim))
        self.bw = nn.Sequential(nn.Linear(dim, 8), nn.Tanh(), nn.Linear(8, 1))
        self.head = nn.Linear(dim, 3)

    def forward(self, points):                     # (N, 64, 8)
        x = self.embed(points)                                              # (N, P, D)
        h2 = 2.0 * (F.softplus(self.bw(x.mean(1))) + 0.2).unsqueeze(-1) ** 2   # (N, 1, 1)
        xx = (x * x).sum(-1).unsqueeze(1)                                   # (N, 1, P)
        xt = x.transpose(1, 2)
        y = x
        w = None
        for _ in range(self.iters):
            d2 = (y * y).sum(-1, keepdim=True) - 2.0 * torch.matmul(y, xt) + xx
            w = torch.softmax(-d2 / h2, -1)
            y = torch.matmul(w, x)
        spread = (y - y.mean(1, keepdim=True)).abs().mean(1)
        return y, w, self.head(spread)


class NeuralHawkes(nn.Module):
    """Neural Hawkes process (Mei & Eisner): a continuous-time LSTM of 32
    hidden units over 24 events, each a soft type (Softmax of 4 fed
    scores, embedded) and an inter-event time (Softplus); at each event
    the gates i, f, z, o, the target-cell gates ibar, fbar and the decay
    rate delta (Softplus) from one Linear; c <- f c(t) + i z, cbar <- fbar
    cbar + ibar z, and between events c(t) = cbar + (c - cbar) exp(-delta
    dt), h(t) = o tanh(c(t)); the type intensities Softplus(W h(t)) just
    before each event and the log-likelihood of the soft types.  Returns
    the intensities, the log-likelihood and the final hidden state."""

    def __init__(self, types=4, hidden=32, events=24):
        super().__init__()
        self.hidden, self.events = hidden, events
        self.embed = nn.Linear(types, hidden)
        self.gates = nn.Linear(2 * hidden, 7 * hidden)
        self.intensity = nn.Linear(hidden, types)

    def forward(self, events):                     # (N, 24, 5)
        k = torch.softmax(events[..., :4], -1)
        dts = F.softplus(events[..., 4:])
        emb = self.embed(k)
        hd = self.hidden
        z0 = torch.zeros_like(emb[:, 0])
        h, c, cbar = z0, z0, z0
        lams, loglik = [], 0.0
        for t in range(self.events):
            g = self.gates(torch.cat([emb[:, t], h], -1))
            i, f, o = torch.sigmoid(g[:, :hd]), torch.sigmoid(g[:, hd:2 * hd]), torch.sigmoid(g[:, 2 * hd:3 * hd])
            z = torch.tanh(g[:, 3 * hd:4 * hd])
            ib, fb = torch.sigmoid(g[:, 4 * hd:5 * hd]), torch.sigmoid(g[:, 5 * hd:6 * hd])
            delta = F.softplus(g[:, 6 * hd:])
            c_new = f * c + i * z
            cbar = fb * cbar + ib * z
            dt = dts[:, min(t + 1, self.events - 1)]
            c = cbar + (c_new - cbar) * torch.exp(-delta * dt)
            h = o * torch.tanh(c)
            lam = F.softplus(self.intensity(h))
            lams.append(lam)
            if t + 1 < self.events:
                loglik = loglik + (k[:, t + 1] * torch.log(lam + 1e-6)).sum(-1) - lam.sum(-1) * dt[:, 0]
        return torch.stack(lams, 1), loglik, h


class L2OOptimizer(nn.Module):
    """A learned optimiser (Andrychowicz et al.): a coordinate-wise
    two-layer LSTM (20 units, shared by the coordinates, the coordinates
    folded into the batch) minimising the fed least-squares problem
    f(theta) = |A theta - b|^2 with A (10 x 10) and b from the input; the
    gradient 2 A^T (A theta - b) by MatMuls, preprocessed as (log|g| / 10,
    sign) by Clip and Tanh; 20 unrolled steps theta <- theta + 0.1 Linear
    (h).  Returns theta and the loss after each step."""

    def __init__(self, dim=10, hidden=20, steps=20):
        super().__init__()
        self.dim, self.hidden, self.steps = dim, hidden, steps
        self.cell1 = nn.Linear(2 + hidden, 4 * hidden)
        self.cell2 = nn.Linear(2 * hidden, 4 * hidden)
        self.out = nn.Linear(hidden, 1)

    def _lstm(self, lin, x, h, c):
        g = lin(torch.cat([x, h], -1))
        hd = self.hidden
        i, f = torch.sigmoid(g[:, :hd]), torch.sigmoid(g[:, hd:2 * hd])
        o, z = torch.sigmoid(g[:, 2 * hd:3 * hd]), torch.tanh(g[:, 3 * hd:])
        c = f * c + i * z
        return o * torch.tanh(c), c

    def forward(self, problem):                    # (N, 10, 11)
        a = problem[..., :self.dim] + torch.eye(self.dim)
        b = problem[..., self.dim:]                                         # (N, 10, 1)
        at = a.transpose(1, 2)
        theta = torch.zeros_like(b)
        z = torch.zeros_like(b.reshape(-1, 1)).expand(-1, self.hidden)
        h1, c1, h2, c2 = z, z, z, z
        losses = []
        for _ in range(self.steps):
            r = torch.matmul(a, theta) - b
            losses.append((r * r).sum((1, 2)))
            g = 2.0 * torch.matmul(at, r).reshape(-1, 1)
            pre = torch.cat([torch.clamp(torch.log(g.abs() + 1e-8) / 10.0, -1.0, 1.0),
                             torch.tanh(10.0 * g)], -1)
            h1, c1 = self._lstm(self.cell1, pre, h1, c1)
            h2, c2 = self._lstm(self.cell2, h1, h2, c2)
            theta = theta + 0.1 * self.out(h2).reshape(-1, self.dim, 1)
        return theta, torch.stack(losses, 1)


class BezierProjection(nn.Module):
    """Projection of points onto a Bezier curve: an MLP (16 -> 32 -> 12)
    of the fed code gives the six control points of a planar quintic;
    each of the 64 fed query points starts from the Softmax-weighted
    parameter of 17 curve samples (soft nearest sample), then 10 Newton
    steps t <- t - <B(t) - q, B'(t)> / (|B'(t)|^2 + <B(t) - q, B''(t)>
    + eps) (the denominator kept positive), with B, B' and B'' each
    evaluated by a de Casteljau recursion (repeated lerps of Slices) on
    the control points and their first and second differences, t clipped
    to [0, 1].  Returns the parameters, the closest points and the
    distances."""

    def __init__(self, code=16, ctrl=6, iters=10, samples=17):
        super().__init__()
        self.ctrl, self.iters = ctrl, iters
        self.mlp = nn.Sequential(nn.Linear(code, 32), nn.Tanh(), nn.Linear(32, 2 * ctrl))
        self.register_buffer("ts", torch.linspace(0.0, 1.0, samples).reshape(1, samples, 1))

    @staticmethod
    def _casteljau(p, t):                          # p (N, 1, K, 2), t (N, Q, 1)
        t = t.unsqueeze(-1)                                                 # (N, Q, 1, 1)
        while p.shape[2] > 1:
            p = p[:, :, :-1] + t * (p[:, :, 1:] - p[:, :, :-1])
        return p[:, :, 0]                                                   # (N, Q, 2)

    def forward(self, code, queries):              # (N, 16), (N, 64, 2)
        p = self.mlp(code).reshape(-1, 1, self.ctrl, 2)
        deg = self.ctrl - 1
        d1 = deg * (p[:, :, 1:] - p[:, :, :-1])
        d2 = (deg - 1) * (d1[:, :, 1:] - d1[:, :, :-1])
        samples = self._casteljau(p, torch.zeros_like(p[:, 0, :1, :1]) + self.ts)  # (N, S, 2)
        dist = ((queries.unsqueeze(2) - samples.unsqueeze(1)) ** 2).sum(-1)      # (N, Q, S)
        t = torch.matmul(torch.softmax(-20.0 * dist, -1), self.ts)          # (N, Q, 1)
        for _ in range(self.iters):
            r = self._casteljau(p, t) - queries
            b1 = self._casteljau(d1, t)
            b2 = self._casteljau(d2, t)
            num = (r * b1).sum(-1, keepdim=True)
            den = (b1 * b1).sum(-1, keepdim=True) + (r * b2).sum(-1, keepdim=True)
            t = torch.clamp(t - num / (F.relu(den) + 1e-3), 0.0, 1.0)
        closest = self._casteljau(p, t)
        return t, closest, torch.sqrt(((closest - queries) ** 2).sum(-1) + 1e-12)


# --------------------------------------------------------------------------
# Ordinary sizes
# --------------------------------------------------------------------------

class _OSA(nn.Module):
    """One-shot aggregation: five 3x3 Conv-BN-ReLU in sequence, the input
    and all five concatenated once, a 1x1 Conv-BN-ReLU, effective SE
    (global mean, one 1x1 Conv, Hardsigmoid), a residual when shapes
    allow."""

    def __init__(self, cin, mid, cout, layers=5):
        super().__init__()
        self.layers = nn.ModuleList([_conv_bn_relu(cin if i == 0 else mid, mid) for i in range(layers)])
        self.concat = _conv_bn_relu(cin + layers * mid, cout, 1)
        self.ese = nn.Conv2d(cout, cout, 1)
        self.res = cin == cout

    def forward(self, x):
        outs, y = [x], x
        for layer in self.layers:
            y = layer(y)
            outs.append(y)
        y = self.concat(torch.cat(outs, 1))
        y = y * F.hardsigmoid(self.ese(y.mean((2, 3), keepdim=True)))
        return y + x if self.res else y


class VoVNetOSA(nn.Module):
    """VoVNet-like classifier (Lee, Hwang, Lee, Bae & Park): a stem of
    three 3x3 Conv-BN-ReLU (two of stride 2) to 1/4, then three stages of
    OSA modules (128, 192, 256 channels; stage widths 32, 48, 64) with 3x3
    stride-2 max pooling between stages, a mean-pool Linear head."""

    def __init__(self, classes=100):
        super().__init__()
        self.stem = nn.Sequential(_conv_bn_relu(3, 32, stride=2), _conv_bn_relu(32, 32),
                                  _conv_bn_relu(32, 64, stride=2))
        self.stages = nn.Sequential(
            _OSA(64, 32, 128), _OSA(128, 32, 128), nn.MaxPool2d(3, 2, 1),
            _OSA(128, 48, 192), _OSA(192, 48, 192), nn.MaxPool2d(3, 2, 1),
            _OSA(192, 64, 256))
        self.head = nn.Linear(256, classes)

    def forward(self, image):                      # (N, 3, 128, 128)
        return self.head(self.stages(self.stem(image)).mean((2, 3)))


class DnCNNDenoise(nn.Module):
    """DnCNN (Zhang, Zuo, Chen, Meng & Zhang): a 3x3 Conv-ReLU, eight 3x3
    Conv-BN-ReLU, a 3x3 Conv back to 3 channels, all at full 64 x 64
    resolution with 32 channels; the output is the noisy image minus the
    predicted noise.  Returns the clean estimate and the noise."""

    def __init__(self, width=32, depth=10):
        super().__init__()
        layers = [nn.Conv2d(3, width, 3, padding=1), nn.ReLU()]
        layers += [_conv_bn_relu(width, width) for _ in range(depth - 2)]
        layers += [nn.Conv2d(width, 3, 3, padding=1)]
        self.body = nn.Sequential(*layers)

    def forward(self, noisy):                      # (N, 3, 64, 64)
        noise = self.body(noisy)
        return noisy - noise, noise


class _GLN(nn.Module):
    """Global layer norm: statistics over channels and time, per-channel
    gain and bias."""

    def __init__(self, ch):
        super().__init__()
        self.gain = nn.Parameter(torch.ones(1, ch, 1))
        self.bias = nn.Parameter(torch.zeros(1, ch, 1))

    def forward(self, x):
        mu = x.mean((1, 2), keepdim=True)
        var = ((x - mu) ** 2).mean((1, 2), keepdim=True)
        return (x - mu) / torch.sqrt(var + 1e-8) * self.gain + self.bias


class _TCNBlock(nn.Module):
    """1x1 Conv up, PReLU, gLN, dilated depthwise Conv, PReLU, gLN, 1x1
    residual and skip Convs."""

    def __init__(self, ch, hidden, dilation):
        super().__init__()
        self.up = nn.Conv1d(ch, hidden, 1)
        self.a1, self.n1 = nn.PReLU(), _GLN(hidden)
        self.dw = nn.Conv1d(hidden, hidden, 3, padding=dilation, dilation=dilation, groups=hidden)
        self.a2, self.n2 = nn.PReLU(), _GLN(hidden)
        self.res = nn.Conv1d(hidden, ch, 1)
        self.skip = nn.Conv1d(hidden, ch, 1)

    def forward(self, x):
        y = self.n1(self.a1(self.up(x)))
        y = self.n2(self.a2(self.dw(y)))
        return x + self.res(y), self.skip(y)


class ConvTasNet(nn.Module):
    """Conv-TasNet-like separator (Luo & Mesgarani): a learned encoder
    (Conv1d, 128 filters of 16 samples, stride 8, ReLU) of 8000 fed
    samples, gLN and a 1x1 bottleneck to 64, a TCN of two repeats of six
    blocks (dilations 1 ... 32, 128 hidden), the summed skips through
    PReLU and a 1x1 Conv to two Sigmoid masks, the masked encodings
    decoded by a transposed Conv1d.  Returns the two sources."""

    def __init__(self, filters=128, bottleneck=64, hidden=128, blocks=6, repeats=2, sources=2):
        super().__init__()
        self.sources, self.filters = sources, filters
        self.encoder = nn.Conv1d(1, filters, 16, stride=8, bias=False)
        self.norm = _GLN(filters)
        self.bottleneck = nn.Conv1d(filters, bottleneck, 1)
        self.blocks = nn.ModuleList([_TCNBlock(bottleneck, hidden, 2 ** b)
                                     for _ in range(repeats) for b in range(blocks)])
        self.act = nn.PReLU()
        self.mask = nn.Conv1d(bottleneck, sources * filters, 1)
        self.decoder = nn.ConvTranspose1d(filters, 1, 16, stride=8, bias=False)

    def forward(self, waveform):                   # (N, 8000)
        w = F.relu(self.encoder(waveform.unsqueeze(1)))                     # (N, F, T)
        x = self.bottleneck(self.norm(w))
        skips = 0.0
        for block in self.blocks:
            x, s = block(x)
            skips = skips + s
        m = torch.sigmoid(self.mask(self.act(skips)))
        t = m.shape[-1]
        m = m.reshape(-1, self.sources, self.filters, t)
        masked = (m * w.unsqueeze(1)).reshape(-1, self.filters, t)
        out = self.decoder(masked)
        return out.reshape(-1, self.sources, out.shape[-1])


class _LinBN(nn.Module):
    """Linear (no bias) then BatchNorm over the features of (N, L, C)."""

    def __init__(self, cin, cout):
        super().__init__()
        self.lin = nn.Linear(cin, cout, bias=False)
        self.bn = nn.BatchNorm1d(cout)

    def forward(self, x):
        return self.bn(self.lin(x).transpose(1, 2)).transpose(1, 2)


def _offsets(q_side, k_side, q_stride):
    """Index of |dy|, |dx| between query and key grid positions."""
    idx = []
    for qy in range(q_side):
        for qx in range(q_side):
            for ky in range(k_side):
                for kx in range(k_side):
                    idx.append(abs(qy * q_stride - ky) * k_side + abs(qx * q_stride - kx))
    return torch.tensor(idx, dtype=torch.long).reshape(q_side * q_side, k_side * k_side)


class _LeViTAttention(nn.Module):
    """LeViT attention: queries and keys of 16 per head, values of 2x the
    key size, a learned bias per head and |offset| Gathered into the
    logits, Hardswish before the output projection; with q_stride 2 the
    queries come from the subsampled grid (shrink attention)."""

    def __init__(self, dim, out_dim, side, heads, q_stride=1, key=16):
        super().__init__()
        self.heads, self.key, self.q_stride, self.side = heads, key, q_stride, side
        self.q_side = (side + q_stride - 1) // q_stride
        self.q = _LinBN(dim, heads * key)
        self.k = _LinBN(dim, heads * key)
        self.v = _LinBN(dim, heads * 2 * key)
        self.proj = _LinBN(heads * 2 * key, out_dim)
        self.bias = nn.Parameter(0.02 * torch.randn(heads, side * side))
        self.register_buffer("idx", _offsets(self.q_side, side, q_stride))

    def forward(self, x):                          # (N, L, C)
        xq = x
        if self.q_stride > 1:
            c = x.shape[-1]
            xq = x.reshape(-1, self.side, self.side, c)[:, ::self.q_stride, ::self.q_stride]
            xq = xq.reshape(-1, self.q_side * self.q_side, c)
        q, k, v = _heads(self.q(xq), self.heads), _heads(self.k(x), self.heads), _heads(self.v(x), self.heads)
        bias = self.bias[:, self.idx]                                       # (H, Lq, L)
        a = torch.softmax(torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.key) + bias, -1)
        y = torch.matmul(a, v).transpose(1, 2)
        y = y.reshape(-1, y.shape[1], self.heads * 2 * self.key)
        return self.proj(F.hardswish(y))


class LeViTLike(nn.Module):
    """LeViT-like classifier (Graham et al.): a stem of four 3x3 stride-2
    Conv-BN with Hardswish (3 -> 16 -> 32 -> 64 -> 128) from 160 x 160 to
    10 x 10 tokens, two blocks of attention and a Hardswish MLP (ratio 2,
    LinBN) at 128 wide, shrink attention to 5 x 5 at 192 wide, two blocks
    there, a mean-pool LinBN-free Linear head."""

    def __init__(self, classes=100):
        super().__init__()
        chans = [3, 16, 32, 64, 128]
        stem = []
        for i in range(4):
            stem += [nn.Conv2d(chans[i], chans[i + 1], 3, 2, 1, bias=False),
                     nn.BatchNorm2d(chans[i + 1])] + ([nn.Hardswish()] if i < 3 else [])
        self.stem = nn.Sequential(*stem)
        self.stage1 = nn.ModuleList([_LeViTAttention(128, 128, 10, 4) for _ in range(2)])
        self.mlp1 = nn.ModuleList([nn.Sequential(_LinBN(128, 256), nn.Hardswish(), _LinBN(256, 128))
                                   for _ in range(2)])
        self.shrink = _LeViTAttention(128, 192, 10, 8, q_stride=2)
        self.stage2 = nn.ModuleList([_LeViTAttention(192, 192, 5, 6) for _ in range(2)])
        self.mlp2 = nn.ModuleList([nn.Sequential(_LinBN(192, 384), nn.Hardswish(), _LinBN(384, 192))
                                   for _ in range(3)])
        self.head = nn.Linear(192, classes)

    def forward(self, image):                      # (N, 3, 160, 160)
        x = self.stem(image).flatten(2).transpose(1, 2)                     # (N, 100, 128)
        for att, mlp in zip(self.stage1, self.mlp1):
            x = x + att(x)
            x = x + mlp(x)
        x = self.shrink(x)
        x = x + self.mlp2[0](x)
        for att, mlp in zip(self.stage2, self.mlp2[1:]):
            x = x + att(x)
            x = x + mlp(x)
        return self.head(x.mean(1))


class _OffsetAttention(nn.Module):
    """PCT offset-attention: q, k of C/4, v of C, Softmax over keys then
    L1 normalisation over queries, the attended features subtracted from
    the input, Linear-BN-ReLU of the offset, a residual."""

    def __init__(self, dim):
        super().__init__()
        self.q = nn.Linear(dim, dim // 4, bias=False)
        self.k = nn.Linear(dim, dim // 4, bias=False)
        self.v = nn.Linear(dim, dim)
        self.lbr = _LinBN(dim, dim)

    def forward(self, x):                          # (N, P, C)
        a = torch.softmax(torch.matmul(self.q(x), self.k(x).transpose(1, 2)), -1)
        a = a / (1e-9 + a.sum(1, keepdim=True))
        y = torch.matmul(a.transpose(1, 2), self.v(x))
        return x + F.relu(self.lbr(x - y))


class PCTPointCloud(nn.Module):
    """Point cloud transformer (Guo et al., "PCT"): a point-wise
    embedding (two LinBN-ReLU, 3 -> 64 -> 64), four offset-attention
    layers, their outputs concatenated (256), LinBN-LeakyReLU to 512, max
    and mean pooling over the 512 fed points, an MLP classifier with BN.
    Returns the class logits and the per-point features' segmentation
    logits (8 parts)."""

    def __init__(self, classes=40, parts=8, dim=64, layers=4):
        super().__init__()
        self.embed = nn.Sequential(_LinBN(3, dim), nn.ReLU(), _LinBN(dim, dim), nn.ReLU())
        self.layers = nn.ModuleList([_OffsetAttention(dim) for _ in range(layers)])
        self.fuse = _LinBN(dim * layers, 512)
        self.cls = nn.Sequential(nn.Linear(1024, 256, bias=False), nn.BatchNorm1d(256), nn.ReLU(),
                                 nn.Linear(256, classes))
        self.seg = nn.Linear(512 + dim * layers, parts)

    def forward(self, points):                     # (N, 512, 3)
        x = self.embed(points)
        outs = []
        for layer in self.layers:
            x = layer(x)
            outs.append(x)
        cat = torch.cat(outs, -1)
        f = F.leaky_relu(self.fuse(cat), 0.2)
        g = torch.cat([f.max(1)[0], f.mean(1)], -1)
        return self.cls(g), self.seg(torch.cat([cat, f], -1))


class _ESP(nn.Module):
    """ESP module: a 1x1 (or 3x3 stride-2) reduction to C / 5, five
    dilated 3x3 Convs (rates 1, 2, 4, 8, 16), hierarchical feature fusion
    (cumulative sums of the dilated outputs), Concat, BN, PReLU, a
    residual when shapes allow."""

    def __init__(self, cin, cout, stride=1):
        super().__init__()
        d = cout // 5
        first = cout - 4 * d
        self.reduce = nn.Conv2d(cin, d, 3 if stride > 1 else 1, stride, 1 if stride > 1 else 0, bias=False)
        self.branches = nn.ModuleList([nn.Conv2d(d, first if i == 0 else d, 3, 1, 2 ** i, 2 ** i, bias=False)
                                       for i in range(5)])
        self.bn = nn.BatchNorm2d(cout)
        self.act = nn.PReLU(cout)
        self.res = stride == 1 and cin == cout

    def forward(self, x):
        r = self.reduce(x)
        outs = [b(r) for b in self.branches]
        fused = [outs[0], outs[1]]
        for o in outs[2:]:
            fused.append(fused[-1] + o)
        y = torch.cat(fused, 1)
        if self.res:
            y = y + x
        return self.act(self.bn(y))


class ESPNetSeg(nn.Module):
    """ESPNet segmenter (Mehta et al.): a 3x3 stride-2 Conv-BN-PReLU (16),
    concatenated with the 1/2 input; a strided ESP to 64 at 1/4, two ESP
    modules, concatenated with the 1/4 input; a strided ESP to 128 at 1/8,
    three ESP modules; a 1x1 classifier to 19 classes, the light decoder
    (bilinear upsampling, merged with a 1x1 projection of the 1/4
    features), upsampled to the 192 x 192 input."""

    def __init__(self, classes=19):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1, bias=False), nn.BatchNorm2d(16), nn.PReLU(16))
        self.down2 = _ESP(19, 64, stride=2)
        self.level2 = nn.Sequential(_ESP(64, 64), _ESP(64, 64))
        self.down3 = _ESP(131, 128, stride=2)
        self.level3 = nn.Sequential(_ESP(128, 128), _ESP(128, 128), _ESP(128, 128))
        self.cls3 = nn.Conv2d(256, classes, 1)
        self.proj2 = nn.Conv2d(131, classes, 1)
        self.merge = _conv_bn_relu(2 * classes, classes)

    def forward(self, image):                      # (N, 3, 192, 192)
        half = F.avg_pool2d(image, 2)
        quarter = F.avg_pool2d(half, 2)
        x1 = torch.cat([self.stem(image), half], 1)                         # 1/2
        d2 = self.down2(x1)
        x2 = torch.cat([self.level2(d2), d2, quarter], 1)                   # 1/4, 131
        d3 = self.down3(x2)
        x3 = torch.cat([self.level3(d3), d3], 1)                            # 1/8, 256
        y = F.interpolate(self.cls3(x3), scale_factor=2.0, mode="bilinear", align_corners=False)
        y = self.merge(torch.cat([y, self.proj2(x2)], 1))
        return F.interpolate(y, scale_factor=4.0, mode="bilinear", align_corners=False)


BLIND19 = {
    "nbody_gravity": dict(ctor=NBodyGravity, family="gravitational-nbody-simulation",
                          inputs=[("bodies", ("N", 12, 6), "float32", None)]),
    "horn_schunck": dict(ctor=HornSchunck, family="variational-optical-flow",
                         inputs=[("frames", ("N", 2, 32, 32), "float32", None)]),
    "mean_shift": dict(ctor=MeanShift, family="mean-shift-mode-seeking",
                       inputs=[("points", ("N", 64, 8), "float32", None)]),
    "neural_hawkes": dict(ctor=NeuralHawkes, family="continuous-time-lstm-point-process",
                          inputs=[("events", ("N", 24, 5), "float32", None)]),
    "l2o_optimizer": dict(ctor=L2OOptimizer, family="learned-lstm-optimizer",
                          inputs=[("problem", ("N", 10, 11), "float32", None)]),
    "bezier_projection": dict(ctor=BezierProjection, family="de-casteljau-newton-projection",
                              inputs=[("code", ("N", 16), "float32", None),
                                      ("queries", ("N", 64, 2), "float32", None)]),
    "vovnet_osa": dict(ctor=VoVNetOSA, family="one-shot-aggregation",
                       inputs=[("image", ("N", 3, 128, 128), "float32", None)]),
    "dncnn_denoise": dict(ctor=DnCNNDenoise, family="residual-denoising-cnn",
                          inputs=[("noisy", ("N", 3, 64, 64), "float32", None)]),
    "conv_tasnet": dict(ctor=ConvTasNet, family="time-domain-source-separation",
                        inputs=[("waveform", ("N", 8000), "float32", None)]),
    "levit_like": dict(ctor=LeViTLike, family="convnet-clothed-vision-transformer",
                       inputs=[("image", ("N", 3, 160, 160), "float32", None)]),
    "pct_pointcloud": dict(ctor=PCTPointCloud, family="offset-attention-point-transformer",
                           inputs=[("points", ("N", 512, 3), "float32", None)]),
    "espnet_seg": dict(ctor=ESPNetSeg, family="efficient-spatial-pyramid",
                       inputs=[("image", ("N", 3, 192, 192), "float32", None)]),
}
