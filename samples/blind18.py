r"""BLIND18: the eighteenth blind set, written on 2026-12-06 by a helper
session before any of it was measured.  It is to be measured before any
further change is scored, and scored only once, at the end, with the code
as it then stands (bench/zoo_accuracy.py --set blind18).  None of its
twelve families occurs in another set (ZOO, BLIND, BLIND2 ... BLIND17, the
reference models), so no plan rule, feature, fit or calibration was made
with any of them in view, and none of them was run through onnxcost
predict before being measured.

The families: a Hodgkin-Huxley network (Hodgkin & Huxley: 16
conductance-based neurons with voltage-gated sodium and potassium
channels, the six rate functions in the generalised form (A + B V) / (C +
exp((V + D) / F)) evaluated at once, chemical synapses whose weights and
injected currents come from an MLP, 32 forward Euler steps); non-negative
matrix factorisation by multiplicative updates (Lee & Seung: a 32 x 40
non-negative spectrogram from the fed one, rank 8, the activations
started by an MLP and the dictionary by a learned softplus one, 24
alternating updates of H and W, the Frobenius error after each);
differentiable finite-horizon LQR (Amos et al., "Differentiable MPC": an
MLP gives the linearised dynamics A (4 x 4), B (4 x 2) and the diagonal
costs, the backward Riccati recursion over 20 steps with the 2 x 2
inverse written out by its cofactors, then the closed-loop forward
rollout from the fed state); a Gray-Scott reaction-diffusion simulator
(Pearson, "Complex patterns in a simple system": two species on a 32 x 32
periodic grid, the feed and kill maps predicted by a small Conv net, the
five-point Laplacian by a fixed depthwise Conv over circularly padded
fields (Concat of Slices), 40 explicit steps, a Conv readout of the
final pattern); an age-structured SEIR epidemic model (Kermack &
McKendrick; with contact matrices as in Prem et al.: 8 age groups, the
transmission, incubation and recovery rates and a contact matrix from an
MLP, a time-varying intervention factor, 20 days of classical RK4, the
daily incidence per group); and a clockwork RNN (Koutnik et al.: 5
modules of 16 units with periods 1, 2, 4, 8, 16, unrolled over 48 steps,
at each step only the modules whose period divides it updated, each from
itself and the slower modules, so that the recurrent MatMuls change
size from step to step).  The other six: a FractalNet (Larsson, Maire &
Shakhnarovich: four blocks of the fractal expansion rule with 3 columns,
joins by the element-wise mean of all the columns meeting there); a Dual
Path Network (Chen et al.: bottleneck blocks with grouped 3x3 Convs whose
output is split into a residual part, added, and a densely connected
part, concatenated); a DDSP harmonic-plus-noise synthesiser (Engel et
al.: a GRU decoder of frame-wise pitch and loudness to 40 harmonic
amplitudes and 16 noise band magnitudes, bilinear upsampling of the
controls to 16000 samples, the phase by CumSum, Sin of every harmonic
with those above Nyquist masked, a fixed band-pass filterbank on fixed
noise, a learned reverberation FIR); an OCRNet-like segmenter (Yuan, Chen
& Wang: a dilated residual backbone to 1/8, soft object regions from an
auxiliary classifier, object region representations by a spatial
softmax MatMul, pixel-region attention, the augmented representation);
a CaiT-like image transformer (Touvron et al., "Going deeper with Image
Transformers": talking-heads self-attention, LayerScale, then
class-attention layers where only the class token queries); and a
hypergraph neural network (Feng et al.: a 1024-node, 192-hyperedge
incidence from the fed scores, the hypergraph convolution Dv^-1/2 H W
De^-1 H^T Dv^-1/2 X Theta, three layers, residuals).  The first six are
made of small kernels at batch 1 (most a few thousand elements or fewer,
several hundred or more kernels); the other six are of ordinary sizes.

To be measured with

    OMP_WAIT_POLICY=PASSIVE /usr/bin/python3 scripts/measure_zoo.py --set blind18 \
        hodgkin_huxley nmf_multiplicative lqr_riccati gray_scott seir_epidemic \
        clockwork_rnn fractalnet dual_path_net ddsp_synth ocrnet_seg \
        cait_transformer hypergraph_net --threads 1 2 --batches 1 4 16

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

class HodgkinHuxley(nn.Module):
    """A network of 16 Hodgkin-Huxley neurons (Hodgkin & Huxley, 1952, in
    the modern convention, rest near -65 mV): an MLP (8 -> 32 -> 17, Tanh)
    of each neuron's fed features gives its injected current (0 to 20
    uA/cm^2) and its row of synaptic weights; at each of 32 forward Euler
    steps (0.05 ms) the six rate functions alpha / beta of m, h, n are
    evaluated together in the generalised form (A + B V) / (C + exp((V +
    D) / F)), a near-zero denominator (the removable singularities) kept
    away from zero by Where; sodium, potassium, leak and synaptic currents
    (first-order synaptic gates driven by a Sigmoid of the presynaptic
    voltage, weights by a MatMul, a shared excitatory reversal
    potential), the voltage clipped to [-100, 60] mV.  Returns the
    voltage after each step, the soft spike count and the final gates."""

    def __init__(self, neurons=16, feats=8, steps=32, dt=0.05):
        super().__init__()
        self.n, self.steps, self.dt = neurons, steps, dt
        self.mlp = nn.Sequential(nn.Linear(feats, 32), nn.Tanh(), nn.Linear(32, 1 + neurons))
        #                 alpha_m  alpha_h  alpha_n  beta_m  beta_h  beta_n
        self.register_buffer("ra", torch.tensor([-4.0, 0.07, -0.55, 4.0, 1.0, 0.125]))
        self.register_buffer("rb", torch.tensor([-0.1, 0.0, -0.01, 0.0, 0.0, 0.0]))
        self.register_buffer("rc", torch.tensor([-1.0, 0.0, -1.0, 0.0, 1.0, 0.0]))
        self.register_buffer("rd", torch.tensor([40.0, 65.0, 55.0, 65.0, 35.0, 65.0]))
        self.register_buffer("rf", torch.tensor([-10.0, 20.0, -10.0, 18.0, -10.0, 80.0]))
        self.register_buffer("g0", torch.tensor([0.053, 0.596, 0.318]))
        self.register_buffer("tiny", torch.tensor(1e-4))
        self.g_na, self.g_k, self.g_l = 120.0, 36.0, 0.3
        self.e_na, self.e_k, self.e_l, self.e_syn = 50.0, -77.0, -54.4, 0.0

    def forward(self, features):                   # (N, 16, 8)
        p = self.mlp(features)
        current = 10.0 + 10.0 * torch.tanh(p[..., 0])                       # (N, 16)
        w = 0.5 * torch.sigmoid(p[..., 1:])                                 # (N, pre, post)
        v = -65.0 + 5.0 * features[..., 0]
        g = torch.zeros_like(features[..., :3]) + self.g0                   # (N, 16, 3)
        s = torch.zeros_like(v)
        trace, spikes = [], 0.0
        for _ in range(self.steps):
            vu = v.unsqueeze(-1)
            num = self.ra + self.rb * vu
            den = self.rc + torch.exp((vu + self.rd) / self.rf)
            den = torch.where(torch.abs(den) < 1e-4, self.tiny, den)
            rate = num / den                                                # (N, 16, 6)
            alpha, beta = rate[..., :3], rate[..., 3:]
            m, h, n = g[..., 0], g[..., 1], g[..., 2]
            i_na = self.g_na * m * m * m * h * (v - self.e_na)
            n2 = n * n
            i_k = self.g_k * n2 * n2 * (v - self.e_k)
            i_syn = torch.matmul(s.unsqueeze(1), w)[:, 0] * (v - self.e_syn)
            dv = current - i_na - i_k - self.g_l * (v - self.e_l) - i_syn
            g = torch.clamp(g + self.dt * (alpha * (1.0 - g) - beta * g), 0.0, 1.0)
            s = s + self.dt * (2.0 * torch.sigmoid((v + 20.0) / 2.0) * (1.0 - s) - 0.2 * s)
            v = torch.clamp(v + self.dt * dv, -100.0, 60.0)
            trace.append(v)
            spikes = spikes + torch.sigmoid((v - 0.0) / 2.0)
        return torch.stack(trace, 1), spikes * (1.0 / self.steps), g


class NMFMultiplicative(nn.Module):
    """Non-negative matrix factorisation by multiplicative updates (Lee &
    Seung, "Algorithms for non-negative matrix factorization") of a 32 x 40
    (bins x frames) magnitude spectrogram V = Softplus(3 x) of the fed one:
    rank 8, the activations H started by an MLP of the frame means (Softplus),
    the dictionary W by a learned Softplus one shared by the samples; 24
    alternating updates H <- H (W^T V) / (W^T W H + eps), W <- W (V H^T) /
    (W H H^T + eps), the columns of W rescaled to unit sum after each.
    Returns a Linear (8 -> 5) of the mean activations, H, W and the
    Frobenius error after each update."""

    def __init__(self, bins=32, frames=40, rank=8, iters=24, classes=5):
        super().__init__()
        self.rank, self.frames, self.iters = rank, frames, iters
        self.w0 = nn.Parameter(0.5 * torch.randn(bins, rank))
        self.init_h = nn.Sequential(nn.Linear(bins, 32), nn.Tanh(), nn.Linear(32, rank))
        self.head = nn.Linear(rank, classes)

    def forward(self, spectrogram):                # (N, 32, 40)
        v = F.softplus(3.0 * spectrogram)
        h = F.softplus(self.init_h(v.transpose(1, 2))).transpose(1, 2) + 0.1   # (N, R, T)
        w = torch.zeros_like(v[:, :, :self.rank]) + F.softplus(self.w0)     # (N, B, R)
        errs = []
        for _ in range(self.iters):
            wt = w.transpose(1, 2)
            h = h * torch.matmul(wt, v) / (torch.matmul(torch.matmul(wt, w), h) + 1e-6)
            ht = h.transpose(1, 2)
            w = w * torch.matmul(v, ht) / (torch.matmul(w, torch.matmul(h, ht)) + 1e-6)
            scale = w.sum(1, keepdim=True)
            w = w / (scale + 1e-6)
            h = h * scale.transpose(1, 2)
            r = v - torch.matmul(w, h)
            errs.append(torch.sqrt((r * r).sum((1, 2)) + 1e-12))
        return self.head(torch.log(h.mean(-1) + 1e-6)), h, w, torch.stack(errs, 1)


class LQRRiccati(nn.Module):
    """Differentiable finite-horizon LQR (Amos, Rodriguez, Sacks, Boots &
    Kolter, "Differentiable MPC for End-to-end Planning and Control"): an
    MLP (12 -> 64 -> 30, Tanh) of the fed task description gives the
    linearised dynamics A = I + 0.1 dA (4 x 4), B (4 x 2) and the diagonal
    state and control costs (Softplus); the backward Riccati recursion over
    20 steps, K = (R + B^T P B)^-1 B^T P A with the 2 x 2 inverse by its
    cofactors (Slices, a determinant, a Concat), P <- Q + A^T P (A - B K),
    symmetrised; then the closed-loop rollout x <- (A - B K_t) x from the
    fed initial state, u = -K_t x.  Returns the states, the controls and
    the quadratic cost."""

    def __init__(self, feats=12, nx=4, nu=2, horizon=20):
        super().__init__()
        self.nx, self.nu, self.horizon = nx, nu, horizon
        self.mlp = nn.Sequential(nn.Linear(feats, 64), nn.Tanh(),
                                 nn.Linear(64, nx * nx + nx * nu + nx + nu))
        self.register_buffer("eye", torch.eye(nx))

    def forward(self, task):                       # (N, 16): 12 features, 4 initial state
        nx, nu = self.nx, self.nu
        p = self.mlp(task[:, :12])
        a = self.eye + 0.1 * p[:, :nx * nx].reshape(-1, nx, nx)
        o = nx * nx
        b = 0.5 * p[:, o:o + nx * nu].reshape(-1, nx, nu)
        o += nx * nu
        q = F.softplus(p[:, o:o + nx]) + 0.1                                # (N, 4)
        r = F.softplus(p[:, o + nx:]) + 0.1                                 # (N, 2)
        qm = q.unsqueeze(-1) * self.eye
        at, bt = a.transpose(1, 2), b.transpose(1, 2)
        pm = qm
        gains = []
        for _ in range(self.horizon):
            bp = torch.matmul(bt, pm)                                       # (N, 2, 4)
            s = torch.matmul(bp, b)                                         # (N, 2, 2)
            s00 = s[:, 0:1, 0:1] + r[:, 0:1].unsqueeze(-1)
            s11 = s[:, 1:2, 1:2] + r[:, 1:2].unsqueeze(-1)
            s01, s10 = s[:, 0:1, 1:2], s[:, 1:2, 0:1]
            det = s00 * s11 - s01 * s10
            inv = torch.cat([torch.cat([s11, -s01], 2), torch.cat([-s10, s00], 2)], 1) / det
            k = torch.matmul(inv, torch.matmul(bp, a))                      # (N, 2, 4)
            pm = qm + torch.matmul(at, torch.matmul(pm, a - torch.matmul(b, k)))
            pm = 0.5 * (pm + pm.transpose(1, 2))
            gains.append(k)
        x = task[:, 12:16].unsqueeze(-1)                                    # (N, 4, 1)
        states, controls = [], []
        cost = 0.0
        for k in reversed(gains):
            u = -torch.matmul(k, x)                                         # (N, 2, 1)
            cost = cost + (q * x[..., 0] * x[..., 0]).sum(-1) + (r * u[..., 0] * u[..., 0]).sum(-1)
            x = torch.matmul(a, x) + torch.matmul(b, u)
            states.append(x[..., 0])
            controls.append(u[..., 0])
        return torch.stack(states, 1), torch.stack(controls, 1), cost


class GrayScott(nn.Module):
    """Gray-Scott reaction-diffusion (Pearson, "Complex patterns in a
    simple system") of two species U, V on a 32 x 32 periodic grid: a Conv
    net (2 -> 8 -> 2, 3x3, Tanh) of the fed field gives the feed rate
    (0.02 to 0.06) and kill rate (0.05 to 0.07) of every cell, the initial
    V is a Sigmoid of the fed field's second channel; 40 explicit steps
    (dt 1, Du 0.16, Dv 0.08) of U' = Du lap U - U V^2 + f (1 - U), V' =
    Dv lap V + U V^2 - (f + k) V, the Laplacian a fixed depthwise 3x3 Conv
    of the fields padded circularly by Concats of Slices.  A Conv readout
    (2 -> 8, 3x3 stride 2, ReLU, mean, Linear to 6) of the final pattern.
    Returns its logits, the final fields and the mean V after each step."""

    def __init__(self, side=32, steps=40, du=0.16, dv=0.08, classes=6):
        super().__init__()
        self.steps = steps
        self.rates = nn.Sequential(nn.Conv2d(2, 8, 3, padding=1), nn.Tanh(),
                                   nn.Conv2d(8, 2, 3, padding=1))
        lap = torch.tensor([[0.05, 0.2, 0.05], [0.2, -1.0, 0.2], [0.05, 0.2, 0.05]])
        self.register_buffer("lap", torch.stack([du * lap, dv * lap]).unsqueeze(1))
        self.readout = nn.Sequential(nn.Conv2d(2, 8, 3, 2, 1), nn.ReLU())
        self.head = nn.Linear(8, classes)

    @staticmethod
    def _wrap(x):
        x = torch.cat([x[:, :, -1:], x, x[:, :, :1]], 2)
        return torch.cat([x[:, :, :, -1:], x, x[:, :, :, :1]], 3)

    def forward(self, field):                      # (N, 2, 32, 32)
        rt = torch.sigmoid(self.rates(field))
        feed = 0.02 + 0.04 * rt[:, 0:1]
        kill = 0.05 + 0.02 * rt[:, 1:2]
        u = torch.ones_like(field[:, 0:1])
        v = torch.sigmoid(4.0 * field[:, 1:2] - 2.0)
        means = []
        for _ in range(self.steps):
            lap = F.conv2d(self._wrap(torch.cat([u, v], 1)), self.lap, groups=2)
            uvv = u * v * v
            u = u + lap[:, 0:1] - uvv + feed * (1.0 - u)
            v = v + lap[:, 1:2] + uvv - (feed + kill) * v
            means.append(v.mean((1, 2, 3)))
        out = torch.cat([u, v], 1)
        return self.head(self.readout(out).mean((2, 3))), out, torch.stack(means, 1)


class SEIREpidemic(nn.Module):
    """Age-structured SEIR epidemic model (Kermack & McKendrick; contact
    matrices as in Prem, Cook & Jit): 8 age groups, an MLP (16 -> 64 -> 76,
    Tanh) of the fed region description gives the transmission rate,
    incubation and recovery rates, the initial infected fraction per group
    and a contact matrix (Softplus of a learned base plus the MLP's part);
    20 days of classical RK4 (dt 1 day) of S' = -beta c(t) S (C I), E' =
    beta c(t) S (C I) - sigma E, I' = sigma E - gamma I, R' = gamma I, the
    intervention factor c(t) a fixed Sigmoid ramp scaled by the MLP.
    Returns the daily incidence per group, the final compartments and the
    peak of the total infected share (a ReduceMax)."""

    def __init__(self, feats=16, groups=8, days=20):
        super().__init__()
        self.g, self.days = groups, days
        self.mlp = nn.Sequential(nn.Linear(feats, 64), nn.Tanh(),
                                 nn.Linear(64, 3 + groups + groups * groups + 1))
        self.base = nn.Parameter(0.3 * torch.randn(groups, groups))
        self.ramp = [1.0 / (1.0 + math.exp((t - 10.0) / 3.0)) for t in range(days + 1)]

    def _rhs(self, s, e, i, beta, sigma, gamma, contact):
        force = beta * s * torch.matmul(i.unsqueeze(1), contact)[:, 0]
        return -force, force - sigma * e, sigma * e - gamma * i, gamma * i, force

    def forward(self, region):                     # (N, 16)
        g = self.g
        p = self.mlp(region)
        beta = 0.2 + 0.3 * torch.sigmoid(p[:, 0:1])
        sigma = 0.15 + 0.2 * torch.sigmoid(p[:, 1:2])
        gamma = 0.08 + 0.15 * torch.sigmoid(p[:, 2:3])
        i = 0.001 * torch.sigmoid(p[:, 3:3 + g])
        contact = F.softplus(self.base + 0.3 * p[:, 3 + g:3 + g + g * g].reshape(-1, g, g)) / g
        strength = 0.3 + 0.5 * torch.sigmoid(p[:, -1:])
        s, e, r = 1.0 - i, torch.zeros_like(i), torch.zeros_like(i)
        incidence, infected = [], []
        for t in range(self.days):
            c0 = 1.0 - strength * (1.0 - self.ramp[t])
            ch = 1.0 - strength * (1.0 - 0.5 * (self.ramp[t] + self.ramp[t + 1]))
            c1 = 1.0 - strength * (1.0 - self.ramp[t + 1])
            k1 = self._rhs(s, e, i, beta * c0, sigma, gamma, contact)
            k2 = self._rhs(s + 0.5 * k1[0], e + 0.5 * k1[1], i + 0.5 * k1[2],
                           beta * ch, sigma, gamma, contact)
            k3 = self._rhs(s + 0.5 * k2[0], e + 0.5 * k2[1], i + 0.5 * k2[2],
                           beta * ch, sigma, gamma, contact)
            k4 = self._rhs(s + k3[0], e + k3[1], i + k3[2], beta * c1, sigma, gamma, contact)
            upd = [(a + 2.0 * b + 2.0 * c + d) / 6.0 for a, b, c, d in zip(k1, k2, k3, k4)]
            s, e, i, r = s + upd[0], e + upd[1], i + upd[2], r + upd[3]
            incidence.append(upd[4])
            infected.append(i.mean(-1))
        peak = torch.stack(infected, 1).max(1)[0]
        return torch.stack(incidence, 1), torch.stack([s, e, i, r], 1), peak


class ClockworkRNN(nn.Module):
    """Clockwork RNN (Koutnik, Greff, Gomez & Schmidhuber): 5 modules of 16
    Tanh units with periods 1, 2, 4, 8, 16, ordered fastest first, over 48
    steps of 8 fed features; at step t the modules whose period divides t
    (a prefix, the periods being powers of two) are updated from the input
    and from the hidden state of themselves and every slower module (the
    block upper-triangular recurrent matrix, masked once), the others
    keep their state; a Linear (80 -> 4) readout at every step.  Returns
    the readouts and the final state."""

    def __init__(self, feats=8, modules=5, units=16, steps=48, out=4):
        super().__init__()
        self.m, self.u, self.steps = modules, units, steps
        self.periods = [2 ** i for i in range(modules)]
        size = modules * units
        self.w_in = nn.Linear(feats, size)
        mask = torch.zeros(size, size)
        for i in range(modules):
            mask[i * units:(i + 1) * units, i * units:] = 1.0
        self.w_h = nn.Parameter(torch.randn(size, size) / math.sqrt(size))
        self.register_buffer("mask", mask)
        self.out = nn.Linear(size, out)

    def forward(self, signals):                    # (N, 48, 8)
        xs = self.w_in(signals)                                             # (N, T, 80)
        w = (self.w_h * self.mask).t()                                      # (80 in, 80 out)
        h = torch.zeros_like(xs[:, 0])
        outs = []
        for t in range(self.steps):
            k = sum(1 for p in self.periods if t % p == 0) * self.u
            new = torch.tanh(xs[:, t, :k] + torch.matmul(h, w[:, :k]))
            h = new if k == self.m * self.u else torch.cat([new, h[:, k:]], 1)
            outs.append(self.out(h))
        return torch.stack(outs, 1), h


# --------------------------------------------------------------------------
# Ordinary sizes
# --------------------------------------------------------------------------

class _Fractal(nn.Module):
    """The fractal expansion f_1(z) = conv(z), f_{C+1}(z) = join(f_C(f_C(z)),
    conv(z)), the nested joins flattened into one mean of all the columns
    meeting there; forward returns the list of the columns (unjoined)."""

    def __init__(self, cin, cout, cols):
        super().__init__()
        self.cols = cols
        self.short = _conv_bn_relu(cin, cout)
        if cols > 1:
            self.first = _Fractal(cin, cout, cols - 1)
            self.second = _Fractal(cout, cout, cols - 1)

    def forward(self, z):
        if self.cols == 1:
            return [self.short(z)]
        inner = torch.stack(self.first(z), 0).mean(0)
        return self.second(inner) + [self.short(z)]


class FractalNet(nn.Module):
    """FractalNet (Larsson, Maire & Shakhnarovich, "FractalNet: Ultra-Deep
    Neural Networks without Residuals") of 32 x 32 images: four fractal
    blocks of 3 columns (24, 48, 96, 160 channels; Conv-BN-ReLU units,
    joins by the element-wise mean), a 2x2 MaxPool after each, global mean,
    Linear to 100 classes.  Returns the logits and the pooled features."""

    def __init__(self, widths=(24, 48, 96, 160), cols=3, classes=100):
        super().__init__()
        blocks, cin = [], 3
        for w in widths:
            blocks.append(_Fractal(cin, w, cols))
            cin = w
        self.blocks = nn.ModuleList(blocks)
        self.fc = nn.Linear(cin, classes)

    def forward(self, image):                      # (N, 3, 32, 32)
        x = image
        for blk in self.blocks:
            x = F.max_pool2d(torch.stack(blk(x), 0).mean(0), 2)
        f = x.mean((2, 3))
        return self.fc(f), f


class _DualPathBlock(nn.Module):
    """1x1 Conv-BN-ReLU, grouped 3x3 Conv-BN-ReLU, 1x1 Conv-BN to res +
    inc channels; the first res channels are added to the residual path,
    the last inc concatenated to the dense path.  A projection (1x1,
    strided) opens a stage."""

    def __init__(self, cin, mid, res, inc, groups, stride, project):
        super().__init__()
        self.res = res
        self.a = _conv_bn_relu(cin, mid, 1)
        self.b = _conv_bn_relu(mid, mid, 3, stride, groups=groups)
        self.c = nn.Sequential(nn.Conv2d(mid, res + inc, 1, bias=False), nn.BatchNorm2d(res + inc))
        self.proj = None
        if project:
            self.proj = nn.Sequential(nn.Conv2d(cin, res + inc, 1, stride, bias=False),
                                      nn.BatchNorm2d(res + inc))

    def forward(self, x):                          # x: [residual | dense] channels
        if self.proj is not None:
            p = self.proj(x)
            x_res, x_dense = p[:, :self.res], p[:, self.res:]
        else:
            x_res, x_dense = x[:, :self.res], x[:, self.res:]
        y = self.c(self.b(self.a(x)))
        return F.relu(torch.cat([x_res + y[:, :self.res], x_dense, y[:, self.res:]], 1))


class DualPathNet(nn.Module):
    """Dual Path Network (Chen, Li, Xiao, Jin, Yan & Feng, "Dual Path
    Networks") of 128 x 128 images: a 3x3 stride-2 stem (32) and a 3x3
    stride-2 MaxPool; four stages of 2, 3, 3, 2 dual path blocks (residual
    widths 64, 128, 192, 256, dense increments 16, 24, 32, 48, bottleneck
    widths 64, 96, 160, 224 with 32 groups at the 3x3), the first of each
    stage projecting (stride 2 after the first stage); global mean, Linear to
    1000 classes.  Returns the logits and the pooled features."""

    def __init__(self, classes=1000):
        super().__init__()
        self.stem = _conv_bn_relu(3, 32, 3, 2)
        stages = [(2, 64, 16, 64, 1), (3, 128, 24, 96, 2), (3, 192, 32, 160, 2),
                  (2, 256, 48, 224, 2)]
        blocks, cin = [], 32
        for depth, res, inc, mid, stride in stages:
            for j in range(depth):
                blocks.append(_DualPathBlock(cin, mid, res, inc, 32, stride if j == 0 else 1,
                                             j == 0))
                cin = res + inc * (j + 2)
        self.blocks = nn.Sequential(*blocks)
        self.norm = nn.Sequential(nn.BatchNorm2d(cin), nn.ReLU())
        self.fc = nn.Linear(cin, classes)

    def forward(self, image):                      # (N, 3, 128, 128)
        x = F.max_pool2d(self.stem(image), 3, 2, 1)
        f = self.norm(self.blocks(x)).mean((2, 3))
        return self.fc(f), f


class DDSPSynth(nn.Module):
    """DDSP harmonic-plus-noise synthesiser (Engel, Hantrakul, Gu & Roberts,
    "DDSP: Differentiable Digital Signal Processing") of 1 s at 16 kHz from
    125 frames of pitch and loudness: f0 = 110 * 2^(2 x) Hz and the
    loudness each through an MLP (1 -> 64 -> 64, LayerNorm, ReLU), a GRU
    (128 -> 192), an MLP to 40 harmonic amplitudes (Softmax distribution
    times a Softplus total) and 16 noise band magnitudes (Sigmoid); the
    controls and f0 upsampled by bilinear Resize to 16000 samples; the
    phase by CumSum of 2 pi f0 / sr, Sin of the 40 harmonics' phases, those
    above Nyquist masked, summed; a fixed 16-band band-pass FIR filterbank
    (Conv1d, 65 taps) on fixed uniform noise, weighted by the band
    magnitudes; a learned 257-tap reverberation FIR with a dry path.
    Returns the audio and the harmonic amplitudes."""

    def __init__(self, frames=125, rate=16000, harmonics=40, bands=16, hidden=192, taps=65,
                 reverb=257):
        super().__init__()
        self.frames, self.rate, self.harm, self.bands = frames, rate, harmonics, bands
        self.samples, self.taps, self.reverb = rate, taps, reverb

        def mlp(cin):
            return nn.Sequential(nn.Linear(cin, 64), nn.LayerNorm(64), nn.ReLU(),
                                 nn.Linear(64, 64), nn.LayerNorm(64), nn.ReLU())

        self.f0_mlp, self.ld_mlp = mlp(1), mlp(1)
        self.gru = nn.GRU(128, hidden, batch_first=True)
        self.out_mlp = nn.Sequential(mlp(hidden + 128), nn.Linear(64, 1 + harmonics + bands))
        self.register_buffer("k", torch.arange(1, harmonics + 1, dtype=torch.float32)
                             .reshape(1, harmonics, 1))
        gen = torch.Generator().manual_seed(18)
        self.register_buffer("noise", torch.rand(1, 1, rate, generator=gen) * 2.0 - 1.0)
        n = torch.arange(taps, dtype=torch.float32) - (taps - 1) / 2.0
        edges = torch.linspace(0.0, 0.5, bands + 1)
        window = 0.54 - 0.46 * torch.cos(2 * math.pi * torch.arange(taps) / (taps - 1))
        fir = []
        for j in range(bands):
            lo, hi = float(edges[j]), float(edges[j + 1])
            h = 2 * hi * torch.sinc(2 * hi * n) - 2 * lo * torch.sinc(2 * lo * n)
            fir.append(h * window)
        self.register_buffer("fir", torch.stack(fir).unsqueeze(1))      # (bands, 1, taps)
        decay = torch.exp(-torch.arange(reverb, dtype=torch.float32) / 60.0)
        self.ir = nn.Parameter(0.05 * torch.randn(1, 1, reverb) * decay)
        self.dry = nn.Parameter(torch.tensor(1.0))

    def _up(self, x):                              # (N, C, frames) -> (N, C, samples)
        x = F.interpolate(x.unsqueeze(2), size=(1, self.samples), mode="bilinear",
                          align_corners=False)
        return x[:, :, 0]

    def forward(self, f0, loudness):               # (N, 125), (N, 125)
        hz = 110.0 * torch.exp((2.0 * math.log(2.0)) * f0)
        a = self.f0_mlp(f0.unsqueeze(-1))
        b = self.ld_mlp(loudness.unsqueeze(-1))
        z = torch.cat([a, b], -1)
        y, _ = self.gru(z)
        c = self.out_mlp(torch.cat([y, z], -1))                              # (N, F, 1 + H + B)
        total = F.softplus(c[..., :1])
        dist = torch.softmax(c[..., 1:1 + self.harm], -1)
        amps = (total * dist).transpose(1, 2)                               # (N, H, F)
        mags = torch.sigmoid(c[..., 1 + self.harm:]).transpose(1, 2)        # (N, B, F)
        f0_s = self._up(hz.unsqueeze(1))                                    # (N, 1, S)
        phase = torch.cumsum(f0_s * (2 * math.pi / self.rate), -1)
        freqs = f0_s * self.k                                               # (N, H, S)
        amp_s = self._up(amps) * (freqs < self.rate / 2.0).to(f0_s.dtype)
        harmonic = (amp_s * torch.sin(phase * self.k)).sum(1, keepdim=True)
        banded = F.conv1d(self.noise, self.fir, padding=self.taps // 2)
        noise = (self._up(mags) * banded).sum(1, keepdim=True)
        dry = harmonic + 0.1 * noise
        wet = F.conv1d(F.pad(dry, (self.reverb - 1, 0)), self.ir)
        return (self.dry * dry + wet)[:, 0], amps


class _ResBlock(nn.Module):
    def __init__(self, cin, cout, stride=1, dilation=1):
        super().__init__()
        self.c1 = _conv_bn_relu(cin, cout, 3, stride, dilation)
        self.c2 = nn.Sequential(nn.Conv2d(cout, cout, 3, 1, dilation, dilation, bias=False),
                                nn.BatchNorm2d(cout))
        self.short = None
        if stride != 1 or cin != cout:
            self.short = nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False),
                                       nn.BatchNorm2d(cout))

    def forward(self, x):
        s = x if self.short is None else self.short(x)
        return F.relu(self.c2(self.c1(x)) + s)


class OCRNetSeg(nn.Module):
    """OCRNet-like segmenter (Yuan, Chen & Wang, "Object-Contextual
    Representations for Semantic Segmentation") of 160 x 160 images into 19
    classes: a dilated residual backbone (stem of two stride-2 Conv-BN-ReLU
    to 32 and 64, a stride-2 stage of 64, then stages of 128 and 160 at
    dilation 2 and 4, all at 1/8); soft object regions from an auxiliary
    head (3x3 Conv-BN-ReLU, 1x1 to 19); the object region representations
    by a Softmax over the pixels and a MatMul; a 3x3 Conv-BN-ReLU to 128
    pixel features; pixel-region attention (queries and keys by two 1x1
    Conv-BN-ReLU / Linear-ReLU each to 64, values to 64, Softmax over the
    19 regions, a 1x1 back to 128); the augmented representation (concat,
    1x1 Conv-BN-ReLU), a 1x1 classifier, 8x bilinear upsampling.  Returns
    the logits and the auxiliary logits."""

    def __init__(self, classes=19, key=64, mid=128):
        super().__init__()
        self.key = key
        self.stem = nn.Sequential(_conv_bn_relu(3, 32, 3, 2), _conv_bn_relu(32, 64, 3, 2))
        self.backbone = nn.Sequential(_ResBlock(64, 64, 2), _ResBlock(64, 128, 1, 2),
                                      _ResBlock(128, 160, 1, 4))
        self.aux = nn.Sequential(_conv_bn_relu(160, 64), nn.Conv2d(64, classes, 1))
        self.pix = _conv_bn_relu(160, mid)
        self.q = nn.Sequential(_conv_bn_relu(mid, key, 1), _conv_bn_relu(key, key, 1))
        self.k = nn.Sequential(nn.Linear(mid, key), nn.ReLU(), nn.Linear(key, key), nn.ReLU())
        self.v = nn.Sequential(nn.Linear(mid, key), nn.ReLU())
        self.up = _conv_bn_relu(key, mid, 1)
        self.fuse = _conv_bn_relu(2 * mid, mid, 1)
        self.cls = nn.Conv2d(mid, classes, 1)

    def forward(self, image):                      # (N, 3, 160, 160)
        x = self.backbone(self.stem(image))                                 # (N, 160, 20, 20)
        hw = x.shape[2] * x.shape[3]
        side = x.shape[2]
        aux = self.aux(x)                                                   # (N, K, h, w)
        feats = self.pix(x)                                                 # (N, C, h, w)
        flat = feats.flatten(2)                                             # (N, C, hw)
        regions = torch.matmul(torch.softmax(aux.flatten(2), -1), flat.transpose(1, 2))  # (N, K, C)
        q = self.q(feats).flatten(2).transpose(1, 2)                        # (N, hw, key)
        k, v = self.k(regions), self.v(regions)                            # (N, K, key)
        att = torch.softmax(torch.matmul(q, k.transpose(1, 2)) / math.sqrt(self.key), -1)
        ctx = torch.matmul(att, v).transpose(1, 2).reshape(-1, self.key, side, hw // side)
        out = self.cls(self.fuse(torch.cat([self.up(ctx), feats], 1)))
        out = F.interpolate(out, scale_factor=8.0, mode="bilinear", align_corners=False)
        return out, aux


class _TalkingHeadsLayer(nn.Module):
    """Pre-norm layer with talking-heads attention (Shazeer et al.: the
    logits and the weights mixed across the heads by Linears before and
    after the Softmax) and a GELU feed-forward, each branch scaled by
    LayerScale."""

    def __init__(self, dim, heads, hidden, init=0.1):
        super().__init__()
        self.dim, self.heads = dim, heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.pre, self.post = nn.Linear(heads, heads), nn.Linear(heads, heads)
        self.o = nn.Linear(dim, dim)
        self.n1, self.n2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.ffn = nn.Sequential(nn.Linear(dim, hidden), nn.GELU(), nn.Linear(hidden, dim))
        self.g1 = nn.Parameter(init * torch.ones(dim))
        self.g2 = nn.Parameter(init * torch.ones(dim))

    def forward(self, x):                          # (N, L, D)
        q, k, v = torch.split(self.qkv(self.n1(x)), self.dim, -1)
        q, k, v = _heads(q, self.heads), _heads(k, self.heads), _heads(v, self.heads)
        s = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.dim // self.heads)
        s = self.pre(s.permute(0, 2, 3, 1))                                 # (N, L, L, H)
        a = self.post(torch.softmax(s, 2)).permute(0, 3, 1, 2)              # (N, H, L, L)
        o = torch.matmul(a, v).transpose(1, 2).reshape(x.shape)
        x = x + self.g1 * self.o(o)
        return x + self.g2 * self.ffn(self.n2(x))


class _ClassAttentionLayer(nn.Module):
    """Class attention: only the class token queries [class, patches];
    LayerScale; a GELU feed-forward of the class token."""

    def __init__(self, dim, heads, hidden, init=0.1):
        super().__init__()
        self.dim, self.heads = dim, heads
        self.q, self.kv = nn.Linear(dim, dim), nn.Linear(dim, 2 * dim)
        self.o = nn.Linear(dim, dim)
        self.n1, self.n2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.ffn = nn.Sequential(nn.Linear(dim, hidden), nn.GELU(), nn.Linear(hidden, dim))
        self.g1 = nn.Parameter(init * torch.ones(dim))
        self.g2 = nn.Parameter(init * torch.ones(dim))

    def forward(self, cls, patches):               # (N, 1, D), (N, L, D)
        u = self.n1(torch.cat([cls, patches], 1))
        q = _heads(self.q(u[:, :1]), self.heads)
        k, v = torch.split(self.kv(u), self.dim, -1)
        k, v = _heads(k, self.heads), _heads(v, self.heads)
        s = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.dim // self.heads)
        o = torch.matmul(torch.softmax(s, -1), v).transpose(1, 2).reshape(cls.shape)
        cls = cls + self.g1 * self.o(o)
        return cls + self.g2 * self.ffn(self.n2(cls))


class CaiTTransformer(nn.Module):
    """CaiT-like image transformer (Touvron, Cord, Sablayrolles, Synnaeve &
    Jegou, "Going deeper with Image Transformers") of 160 x 160 images: 16
    x 16 patches (100 tokens, 192 dims) with learned positions, 6
    talking-heads self-attention layers (4 heads, feed-forward 576,
    LayerScale) over the patches only, then 2 class-attention layers in
    which a learned class token attends to itself and the patches, a
    LayerNorm and a Linear to 1000 classes.  Returns the logits and the
    patch tokens."""

    def __init__(self, image=160, patch=16, dim=192, depth=6, heads=4, hidden=576, ca_depth=2,
                 classes=1000):
        super().__init__()
        tokens = (image // patch) ** 2
        self.embed = nn.Conv2d(3, dim, patch, patch)
        self.pos = nn.Parameter(0.02 * torch.randn(1, tokens, dim))
        self.cls = nn.Parameter(0.02 * torch.randn(1, 1, dim))
        self.layers = nn.ModuleList([_TalkingHeadsLayer(dim, heads, hidden) for _ in range(depth)])
        self.ca = nn.ModuleList([_ClassAttentionLayer(dim, heads, hidden)
                                 for _ in range(ca_depth)])
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, classes)

    def forward(self, image):                      # (N, 3, 160, 160)
        x = self.embed(image).flatten(2).transpose(1, 2) + self.pos
        for layer in self.layers:
            x = layer(x)
        c = self.cls + torch.zeros_like(x[:, :1])
        for layer in self.ca:
            c = layer(c, x)
        return self.head(self.norm(c)[:, 0]), x


class _HypergraphConv(nn.Module):
    """X' = Dv^-1/2 H W De^-1 H^T Dv^-1/2 X Theta, with learned hyperedge
    weights W from the hyperedge features (vertex -> hyperedge -> vertex);
    LayerNorm, ReLU, a residual."""

    def __init__(self, cin, cout):
        super().__init__()
        self.theta = nn.Linear(cin, cout)
        self.edge_w = nn.Linear(cout, 1)
        self.norm = nn.LayerNorm(cout)
        self.res = nn.Linear(cin, cout, bias=False) if cin != cout else None

    def forward(self, x, h, dv_isqrt, de_inv):     # (N, V, C), (N, V, E), (N, V, 1), (N, E, 1)
        y = self.theta(x) * dv_isqrt
        e = torch.matmul(h.transpose(1, 2), y) * de_inv                     # (N, E, C')
        e = e * (2.0 * torch.sigmoid(self.edge_w(e)))
        y = torch.matmul(h, e) * dv_isqrt
        s = x if self.res is None else self.res(x)
        return F.relu(self.norm(y)) + s, e


class HypergraphNet(nn.Module):
    """Hypergraph neural network (Feng, You, Zhang, Ji & Gao, "Hypergraph
    Neural Networks") on 1024 vertices with 48 features and 192 hyperedges:
    the incidence H is where the fed vertex-hyperedge scores exceed 0.6;
    vertex and hyperedge degrees (plus one, against empty ones); three
    hypergraph convolutions (192 features, learned hyperedge weights); a
    Linear to 12 vertex classes and a hyperedge-mean graph embedding.
    Returns the vertex logits and the graph embedding."""

    def __init__(self, feats=48, dim=192, depth=3, classes=12):
        super().__init__()
        dims = [feats] + [dim] * depth
        self.layers = nn.ModuleList([_HypergraphConv(dims[i], dims[i + 1]) for i in range(depth)])
        self.head = nn.Linear(dim, classes)

    def forward(self, vertex_features, incidence):  # (N, 1024, 48), (N, 1024, 192)
        h = (incidence > 0.6).to(incidence.dtype)
        dv_isqrt = torch.rsqrt(h.sum(2, keepdim=True) + 1.0)
        de_inv = 1.0 / (h.sum(1).unsqueeze(-1) + 1.0)
        x = vertex_features
        e = None
        for layer in self.layers:
            x, e = layer(x, h, dv_isqrt, de_inv)
        return self.head(x), e.mean(1)


BLIND18 = {
    "hodgkin_huxley": dict(ctor=HodgkinHuxley, family="conductance-based-neuron-simulation",
                           inputs=[("features", ("N", 16, 8), "float32", None)]),
    "nmf_multiplicative": dict(ctor=NMFMultiplicative, family="nonnegative-matrix-factorization",
                               inputs=[("spectrogram", ("N", 32, 40), "float32", None)]),
    "lqr_riccati": dict(ctor=LQRRiccati, family="differentiable-lqr-riccati",
                        inputs=[("task", ("N", 16), "float32", None)]),
    "gray_scott": dict(ctor=GrayScott, family="reaction-diffusion-simulation",
                       inputs=[("field", ("N", 2, 32, 32), "float32", None)]),
    "seir_epidemic": dict(ctor=SEIREpidemic, family="compartmental-epidemic-model",
                          inputs=[("region", ("N", 16), "float32", None)]),
    "clockwork_rnn": dict(ctor=ClockworkRNN, family="clockwork-recurrent",
                          inputs=[("signals", ("N", 48, 8), "float32", None)]),
    "fractalnet": dict(ctor=FractalNet, family="fractal-expansion",
                       inputs=[("image", ("N", 3, 32, 32), "float32", None)]),
    "dual_path_net": dict(ctor=DualPathNet, family="dual-path-network",
                          inputs=[("image", ("N", 3, 128, 128), "float32", None)]),
    "ddsp_synth": dict(ctor=DDSPSynth, family="differentiable-harmonic-synthesis",
                       inputs=[("f0", ("N", 125), "float32", None),
                               ("loudness", ("N", 125), "float32", None)]),
    "ocrnet_seg": dict(ctor=OCRNetSeg, family="object-contextual-representation",
                       inputs=[("image", ("N", 3, 160, 160), "float32", None)]),
    "cait_transformer": dict(ctor=CaiTTransformer, family="class-attention-talking-heads",
                             inputs=[("image", ("N", 3, 160, 160), "float32", None)]),
    "hypergraph_net": dict(ctor=HypergraphNet, family="hypergraph-convolution",
                           inputs=[("vertex_features", ("N", 1024, 48), "float32", None),
                                   ("incidence", ("N", 1024, 192), "float32", None)]),
}
