r"""BLIND38: the thirty-eighth blind set, written on 2026-12-07 by a helper
session before any of it was measured.  Nothing in it has been timed,
profiled or run through onnxcost predict; it is to be measured first and
scored once only, at the end, with the code as it stands then
(bench/zoo_accuracy.py --set blind38).  None of its twelve families occurs
in another set (ZOO, BLIND, BLIND2 ... BLIND37, the reference models), so
no plan rule, feature, fit or calibration can have been made with any of
them in view.

Three families unroll a classical procedure into a fixed graph of small
kernels (several hundred to a few thousand nodes each, Constants
included), each with a small learned part:

  * Baum-Welch re-estimation of a Gaussian hidden Markov model
    (L. E. Baum, T. Petrie, G. Soules & N. Weiss, "A Maximization
    Technique Occurring in the Statistical Analysis of Probabilistic
    Functions of Markov Chains", 1970), with the scaled forward-backward
    recursions of L. R. Rabiner ("A Tutorial on Hidden Markov Models and
    Selected Applications in Speech Recognition", 1989): an MLP embeds
    48 frames of 12 features into 4 dimensions; six states with learned
    initial means, variances, transition and initial probabilities;
    three EM iterations, each the diagonal-Gaussian emission
    likelihoods, 47 scaled forward steps and 47 backward steps (one
    small MatMul each), the state posteriors, the expected transition
    counts by one batched MatMul, and the re-estimated initial,
    transition, mean and variance parameters.  The posteriors, the log
    likelihood and the transition matrix come out.
  * The split-step Fourier method for the nonlinear Schroedinger
    equation of pulse propagation in an optical fibre (R. H. Hardin &
    F. D. Tappert, "Applications of the split-step Fourier method to the
    numerical solution of nonlinear and variable coefficient wave
    equations", 1973; G. P. Agrawal, "Nonlinear Fiber Optics"): a small
    Conv1d net pre-distorts a complex pulse of 128 samples (real and
    imaginary channels), then 40 symmetric steps alternate the
    dispersion step (a DFT as one MatMul on the stacked real and
    imaginary parts, the quadratic spectral phase as a complex
    multiplication, the inverse DFT as another MatMul) with the Kerr
    step (the phase gamma |u|^2 dz by Cos and Sin); a strided Conv1d
    receiver reads the output.  The intensity, the spectrum and the
    receiver's outputs come out.
  * Push-relabel maximum flow for a graph-cut segmentation
    (A. V. Goldberg & R. E. Tarjan, "A New Approach to the Maximum-Flow
    Problem", 1988; on the pixel grid in the manner of Y. Boykov &
    M.-P. Jolly, "Interactive Graph Cuts for Optimal Boundary & Region
    Segmentation of Objects in N-D Images", 2001, pushed synchronously
    as in V. Vineet & P. J. Narayanan, "CUDA Cuts: Fast Graph Cuts on the
    GPU", 2008): a Conv net gives the terminal capacities of a 32 x 32
    image's pixels and the 4-neighbour edge capacities; the source edges
    are saturated (the preflow), and 12 pulses follow, each a push to the
    sink, pushes in the four directions one after another (admissible
    when the residual capacity is positive and the height one above the
    neighbour's; the pushed flow moved to the neighbour and onto the
    reverse residual by padded shifts) and a relabel of every active
    pixel to one above its lowest residual neighbour.  The flow into the
    sink, the source-side mask and the heights come out.

The other nine are published network designs of ordinary sizes:

  * Light-Weight RefineNet (V. Nekrasov, C. Shen & I. Reid,
    "Light-Weight RefineNet for Real-Time Semantic Segmentation", 2018;
    after G. Lin, A. Milan, C. Shen & I. Reid, "RefineNet: Multi-Path
    Refinement Networks for High-Resolution Semantic Segmentation",
    2017): a narrow ResNet encoder (two basic blocks in each of four
    stages of 16, 32, 64, 128) on 160 x 160, and the light-weight
    decoder at width 64: 1 x 1 dimension reductions, sums with the
    upsampled coarser path, chained residual pooling (four 5 x 5 stride-1
    MaxPools each followed by a 1 x 1 Conv, all summed), 21 classes at
    stride 4.
  * AudioUNet (V. Kuleshov, S. Z. Enam & S. Ermon, "Audio Super
    Resolution using Neural Networks", 2017): 2048 samples of
    upsampled low-rate audio, four strided Conv1d down blocks (16, 32,
    48, 64 filters, kernels 65, 33, 17, 9, LeakyReLU), a bottleneck, up
    blocks of Conv1d, ReLU and a one-dimensional subpixel shuffle
    (Reshape and Transpose) stacked with the skip, a final subpixel
    Conv1d and the residual to the input.
  * Pointer-generator network with coverage (A. See, P. J. Liu &
    C. D. Manning, "Get To The Point: Summarization with
    Pointer-Generator Networks", 2017): a bidirectional LSTM encoder of
    96 over 64 source tokens (vocabulary 5000), the reduced final state,
    and 12 greedy decoder steps, each an LSTMCell, additive attention
    with the coverage vector, the context, the vocabulary distribution,
    the generation probability p_gen and the copy distribution (the
    attention times the source's one-hot matrix) mixed; the argmax fed
    back.  The tokens, their probabilities and the coverage come out.
  * R-GCN (M. Schlichtkrull, T. N. Kipf, P. Bloem, R. van den Berg,
    I. Titov & M. Welling, "Modeling Relational Data with Graph
    Convolutional Networks", 2018) for entity classification: 96
    entities with 32 features, 8 relation types (dense adjacency per
    relation, normalised by 1 / c_i,r), two layers of 128 with the
    relation weights from 8 shared bases, a self-connection, 4 classes.
  * MIND (C. Li, Z. Liu, M. Wu, Y. Xu, P. Huang, H. Zhao, G. Kang,
    Q. Chen, W. Li & D. L. Lee, "Multi-Interest Network with Dynamic
    Routing for Recommendation at Tmall", 2019), serving: 50 behaviour
    items (20000-item table of 64) and 4 user-profile fields, B2I dynamic
    routing (shared bilinear map, randomly initialised routing logits,
    three iterations, squash) into 4 interest capsules, each joined with
    the profile and passed through the ReLU MLP, every interest scored
    against the whole item table, the best interest per item and the
    top 50.
  * CGCNN (T. Xie & J. C. Grossman, "Crystal Graph Convolutional Neural
    Networks for an Accurate and Interpretable Prediction of Material
    Properties", 2018) on 48 atoms: element embedding (92) and Linear to
    64, the 12 nearest neighbours of every atom (pairwise distances by
    MatMul, TopK), the Gaussian distance expansion (41 centres), three
    gated convolutions (sigmoid filter times softplus core over the
    concatenated pair, BatchNorm, summed over neighbours), mean pooling,
    a softplus hidden layer and the property.
  * FeUdal Networks (A. S. Vezhnevets, S. Osindero, T. Schaul, N. Heess,
    M. Jaderberg, D. Silver & K. Kavukcuoglu, "FeUdal Networks for
    Hierarchical Reinforcement Learning", 2017) over 16 steps of 64 x 64
    RGB frames: the shared perception Conv net, the Manager's state
    space, its dilated LSTM of 256 (8 cores, one updated per step, pooled)
    giving unit goals, the Worker's LSTM emitting an 18 x 16 action
    embedding matrix, the goals of the last 9 steps summed and projected
    (no bias) to 16, the policy by softmax, both value heads.
  * TiDE (A. Das, W. Kong, A. Leach, S. Mathur, R. Sen & R. Yu,
    "Long-term Forecasting with TiDE: Time-series Dense Encoder", 2023)
    at ETT size: 7 channels of 336 steps, channel-independent, reversible
    instance normalisation, 8 dynamic covariates over lookback and
    horizon projected to 4 per step by a residual block, a per-channel
    attribute, dense residual encoder and decoder (two blocks each of
    256, LayerNorm), the temporal decoder per horizon step and the global
    linear residual; horizon 96.
  * PredRNN (Y. Wang, M. Long, J. Wang, Z. Gao & P. S. Yu, "PredRNN:
    Recurrent Neural Networks for Predictive Learning using
    Spatiotemporal LSTMs", 2017) on Moving-MNIST-sized 64 x 64 frames cut
    into 4 x 4 patches: three spatiotemporal LSTM layers of 16 (3 x 3
    Convs on the input, the hidden state, the zigzag spatiotemporal
    memory that flows up the stack and on to the bottom layer of the
    next step, and the output gate over both memories), 5 context
    frames, 5 predicted frames each fed back.

To be measured with

    OMP_WAIT_POLICY=PASSIVE /usr/bin/python3 scripts/measure_zoo.py --set blind38 \
        hmm_baum_welch split_step_nls push_relabel_cut light_refinenet_seg \
        audio_unet_sr pointer_generator_summ rgcn_entity mind_multi_interest \
        cgcnn_crystal feudal_network tide_forecast predrnn_video \
        --threads 1 2 --batches 1 4 16

Same table form as export.py's ZOO (ctor, family, inputs); exported by
scripts/ort_graphs.py's export() (opset 13, symbolic batch N).  The file was
written by a helper before anything measured or predicted it.
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def _mlp(sizes, act=nn.ReLU, last_act=False):
    """Linear layers of the given sizes with an activation between them."""
    layers = []
    for i in range(len(sizes) - 1):
        layers.append(nn.Linear(sizes[i], sizes[i + 1]))
        if i < len(sizes) - 2 or last_act:
            layers.append(act())
    return nn.Sequential(*layers)


# --------------------------------------------------------------------------
# Unrolled algorithms
# --------------------------------------------------------------------------

class HMMBaumWelch(nn.Module):
    """Baum-Welch on a 6-state HMM with diagonal Gaussian emissions over 48
    frames: an MLP (12 -> 32 -> 4) embeds the frames; learned initial
    means, log variances, transition logits (softmax by row) and initial
    logits; three EM iterations of scaled forward (alpha_t = (alpha_{t-1}
    A) * b_t / c_t), backward (beta_t = A (b_{t+1} beta_{t+1}) / c_{t+1}),
    posteriors gamma, expected transitions xi summed over t (one batched
    MatMul), and the M step.  Returns the final posteriors (N, 48, 6), the
    log likelihood of the last E step (N, 1) and the re-estimated
    transition matrix (N, 36)."""

    def __init__(self, inp=12, dim=4, states=6, iters=3):
        super().__init__()
        self.iters = iters
        self.enc = _mlp((inp, 32, dim), act=nn.Tanh)
        self.mu0 = nn.Parameter(torch.randn(states, dim))
        self.logvar0 = nn.Parameter(torch.zeros(states, dim))
        self.trans0 = nn.Parameter(0.1 * torch.randn(states, states) + 2.0 * torch.eye(states))
        self.init0 = nn.Parameter(torch.zeros(states))

    def forward(self, obs):                       # (N, 48, 12)
        x = self.enc(obs)                         # (N, T, D)
        n_t = x.shape[1]
        mu, var = self.mu0, torch.exp(self.logvar0)
        trans, pi = torch.softmax(self.trans0, -1), torch.softmax(self.init0, -1)
        log2pi = math.log(2.0 * math.pi)
        for _ in range(self.iters):
            diff = x.unsqueeze(2) - mu.unsqueeze(-3)                          # (N, T, K, D)
            logb = -0.5 * (diff * diff / var.unsqueeze(-3) + torch.log(var).unsqueeze(-3) + log2pi).sum(-1)
            off = logb.max(2, keepdim=True).values                            # (N, T, 1)
            b = torch.exp(logb - off)                                         # (N, T, K)
            a_t = pi * b[:, 0]
            c_t = a_t.sum(-1, keepdim=True)
            a_t = a_t / c_t
            alphas, cs = [a_t], [c_t]
            for t in range(1, n_t):
                a_t = torch.matmul(a_t.unsqueeze(-2), trans).squeeze(-2) * b[:, t]
                c_t = a_t.sum(-1, keepdim=True)
                a_t = a_t / c_t
                alphas.append(a_t)
                cs.append(c_t)
            b_t = torch.ones_like(a_t)
            betas = [b_t]
            for t in range(n_t - 2, -1, -1):
                b_t = torch.matmul(trans, (b[:, t + 1] * b_t / cs[t + 1]).unsqueeze(-1)).squeeze(-1)
                betas.append(b_t)
            alpha = torch.stack(alphas, 1)                                    # (N, T, K)
            beta = torch.stack(betas[::-1], 1)
            c = torch.cat(cs, 1)                                              # (N, T)
            gamma = alpha * beta
            gamma = gamma / gamma.sum(-1, keepdim=True)
            nxt = (b * beta / c.unsqueeze(-1))[:, 1:]
            xi = trans * torch.matmul(alpha[:, :-1].transpose(1, 2), nxt)     # (N, K, K)
            loglik = torch.log(c).sum(1, keepdim=True) + off.sum(1)
            pi = gamma[:, 0]
            trans = xi / xi.sum(-1, keepdim=True)
            gsum = gamma.sum(1).unsqueeze(-1) + 1.0e-6                        # (N, K, 1)
            gt = gamma.transpose(1, 2)                                        # (N, K, T)
            mu = torch.matmul(gt, x) / gsum
            var = torch.clamp(torch.matmul(gt, x * x) / gsum - mu * mu, min=1.0e-3)
        return gamma, loglik, trans.flatten(1)


class SplitStepNLS(nn.Module):
    """Symmetric split-step Fourier solution of i u_z - (beta2 / 2) u_tt +
    gamma |u|^2 u = 0 on 128 samples (window 20, length 4, 40 steps): a
    Conv1d net (2 -> 16 -> 16 -> 2, kernel 9, tanh) adds a learned
    pre-distortion to the input pulse (real and imaginary channels); the
    dispersion half and full steps are DFT (MatMul of [re, im] with a
    256 x 256 real block matrix), the spectral phase exp(i beta2 w^2 dz / 2)
    by a complex multiplication (halves swapped by Slice and Concat),
    inverse DFT; the Kerr step multiplies by exp(i gamma |u|^2 dz).  A
    receiver Conv1d (2 -> 16, kernel 8, stride 4) and a Linear read 32
    values.  Returns |u|^2 (N, 128), the power spectrum (N, 128) and the
    receiver outputs (N, 32)."""

    def __init__(self, points=128, steps=40, beta2=-1.0, gamma=1.0, length=4.0, window=20.0):
        super().__init__()
        self.n, self.steps = points, steps
        self.dz = length / steps
        self.gamma = gamma
        self.pre = nn.Sequential(nn.Conv1d(2, 16, 9, padding=4), nn.Tanh(),
                                 nn.Conv1d(16, 16, 9, padding=4), nn.Tanh(),
                                 nn.Conv1d(16, 2, 9, padding=4))
        self.rx = nn.Sequential(nn.Conv1d(2, 16, 8, stride=4, padding=2), nn.ReLU(), nn.Flatten(),
                                nn.Linear(16 * (points // 4), 32))
        j = torch.arange(points, dtype=torch.float64)
        ang = 2.0 * math.pi * torch.outer(j, j) / points
        cs, sn = torch.cos(ang), torch.sin(ang)
        self.register_buffer("dft", torch.cat([torch.cat([cs, -sn], 1), torch.cat([sn, cs], 1)], 0).float())
        self.register_buffer("idft", (torch.cat([torch.cat([cs, sn], 1), torch.cat([-sn, cs], 1)], 0)
                                      / points).float())
        dt = window / points
        freq = torch.cat([torch.arange(0, points // 2), torch.arange(-points // 2, 0)]).double()
        w = 2.0 * math.pi * freq / (points * dt)
        for name, frac in (("half", 0.5), ("full", 1.0)):
            phi = 0.5 * beta2 * w * w * self.dz * frac
            self.register_buffer(name + "_cos", torch.cat([torch.cos(phi), torch.cos(phi)]).float().unsqueeze(0))
            self.register_buffer(name + "_sin", torch.cat([-torch.sin(phi), torch.sin(phi)]).float().unsqueeze(0))

    def _swap(self, u):
        return torch.cat([u[:, self.n:], u[:, :self.n]], 1)

    def _linear(self, u, which):
        spec = torch.matmul(u, self.dft)
        spec = spec * getattr(self, which + "_cos") + self._swap(spec) * getattr(self, which + "_sin")
        return torch.matmul(spec, self.idft)

    def _kerr(self, u):
        re, im = u[:, :self.n], u[:, self.n:]
        theta = self.gamma * self.dz * (re * re + im * im)
        co, si = torch.cos(theta), torch.sin(theta)
        return torch.cat([re * co - im * si, re * si + im * co], 1)

    def forward(self, pulse):                     # (N, 2, 128)
        u = (pulse + self.pre(pulse)).reshape(-1, 2 * self.n)
        u = self._linear(u, "half")
        for s in range(self.steps):
            u = self._kerr(u)
            u = self._linear(u, "full" if s < self.steps - 1 else "half")
        re, im = u[:, :self.n], u[:, self.n:]
        spec = torch.matmul(u, self.dft)
        power = spec[:, :self.n] ** 2 + spec[:, self.n:] ** 2
        return re * re + im * im, power, self.rx(u.view(-1, 2, self.n))


def _shift(x, d):
    """Values of x (N, 1, H, W) at each pixel's neighbour in direction d
    (0 right, 1 left, 2 down, 3 up), zero outside the grid."""
    if d == 0:
        return F.pad(x[:, :, :, 1:], (0, 1))
    if d == 1:
        return F.pad(x[:, :, :, :-1], (1, 0))
    if d == 2:
        return F.pad(x[:, :, 1:, :], (0, 0, 0, 1))
    return F.pad(x[:, :, :-1, :], (0, 0, 1, 0))


_OPPOSITE = (1, 0, 3, 2)


class PushRelabelCut(nn.Module):
    """Synchronous push-relabel on the 4-connected 32 x 32 pixel graph: a
    Conv net (3 -> 16 -> 16, ReLU) gives softplus source and sink
    capacities and horizontal and vertical edge capacities (symmetric);
    the source edges are saturated into the pixels' excess, heights start
    at 0; 12 pulses of push to the sink (height 1), pushes right, left,
    down, up in turn (admissible: residual > 0, excess > 0, height = the
    neighbour's + 1; the flow min(excess, residual) leaves the pixel and
    enters the neighbour and its reverse residual by padded shifts), and
    the relabel of active pixels to max(h, 1 + min residual neighbour
    height), capped at the pixel count.  Returns the flow into the sink
    (N, 1), the source-side mask of pixels still holding excess
    (N, 1, 32, 32) and the heights over the pixel count (N, 1, 32, 32)."""

    def __init__(self, size=32, pulses=12):
        super().__init__()
        self.pulses, self.limit = pulses, float(size * size)
        self.feat = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(),
                                  nn.Conv2d(16, 16, 3, padding=1), nn.ReLU())
        self.terminal = nn.Conv2d(16, 2, 1)
        self.pair = nn.Conv2d(16, 2, 3, padding=1)
        mask_h = torch.ones(1, 1, size, size)
        mask_h[..., -1] = 0.0
        mask_v = torch.ones(1, 1, size, size)
        mask_v[..., -1, :] = 0.0
        self.register_buffer("mask_h", mask_h)
        self.register_buffer("mask_v", mask_v)

    def forward(self, img):                       # (N, 3, 32, 32)
        f = self.feat(img)
        term = F.softplus(self.terminal(f))
        pair = F.softplus(self.pair(f))
        e, ct = term[:, :1], term[:, 1:]                                    # preflow: excess = source capacity
        r0 = pair[:, :1] * self.mask_h
        r2 = pair[:, 1:] * self.mask_v
        r = [r0, _shift(r0, 1), r2, _shift(r2, 3)]
        h = torch.zeros_like(e)
        one, big = torch.ones_like(e), torch.full_like(e, self.limit)
        sink = torch.zeros_like(e).sum((1, 2, 3)).unsqueeze(1)
        for _ in range(self.pulses):
            adm = ((h == 1.0) & (ct > 0) & (e > 0)).to(e.dtype)
            fl = adm * torch.minimum(e, ct)
            e, ct = e - fl, ct - fl
            sink = sink + fl.sum((1, 2, 3)).unsqueeze(1)
            for d in range(4):
                adm = ((r[d] > 0) & (e > 0) & (h == _shift(h, d) + 1.0)).to(e.dtype)
                fl = adm * torch.minimum(e, r[d])
                back = _shift(fl, _OPPOSITE[d])
                e = e - fl + back
                r[d] = r[d] - fl
                r[_OPPOSITE[d]] = r[_OPPOSITE[d]] + back
            cand = torch.where(ct > 0, one, big)
            for d in range(4):
                cand = torch.minimum(cand, torch.where(r[d] > 0, _shift(h, d) + 1.0, big))
            h = torch.where(e > 1.0e-6, torch.maximum(h, cand), h)
        return sink, (e > 1.0e-6).to(e.dtype), h / self.limit


# --------------------------------------------------------------------------
# Published network designs
# --------------------------------------------------------------------------

class _BasicBlock(nn.Module):
    """ResNet basic block (two 3 x 3 Conv + BN, projection when needed)."""

    def __init__(self, cin, cout, stride):
        super().__init__()
        self.c1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
        self.b1 = nn.BatchNorm2d(cout)
        self.c2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
        self.b2 = nn.BatchNorm2d(cout)
        self.proj = None
        if stride != 1 or cin != cout:
            self.proj = nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))

    def forward(self, x):
        y = self.b2(self.c2(F.relu(self.b1(self.c1(x)))))
        return F.relu(y + (x if self.proj is None else self.proj(x)))


class _CRP(nn.Module):
    """Chained residual pooling: top = Conv1x1(MaxPool5x5(top)), summed."""

    def __init__(self, ch, stages=4):
        super().__init__()
        self.convs = nn.ModuleList([nn.Conv2d(ch, ch, 1, bias=False) for _ in range(stages)])

    def forward(self, x):
        top = x
        for conv in self.convs:
            top = conv(F.max_pool2d(top, 5, 1, 2))
            x = x + top
        return x


class LightRefineNetSeg(nn.Module):
    """Light-Weight RefineNet on 160 x 160: ResNet stem (7 x 7 / 2, BN,
    ReLU, MaxPool 3 / 2), four stages of two basic blocks (16, 32, 64,
    128; strides 1, 2, 2, 2); decoder at 64: from the coarsest stage,
    1 x 1 reduction (+ the upsampled coarser path, ReLU), CRP, 1 x 1 Conv,
    bilinear x2; a 3 x 3 classifier to 21 classes at 40 x 40."""

    def __init__(self, widths=(16, 32, 64, 128), dec=64, classes=21):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, widths[0], 7, 2, 3, bias=False), nn.BatchNorm2d(widths[0]),
                                  nn.ReLU(), nn.MaxPool2d(3, 2, 1))
        self.stages = nn.ModuleList()
        prev = widths[0]
        for i, w in enumerate(widths):
            self.stages.append(nn.Sequential(_BasicBlock(prev, w, 1 if i == 0 else 2), _BasicBlock(w, w, 1)))
            prev = w
        self.reduce = nn.ModuleList([nn.Conv2d(w, dec, 1, bias=False) for w in widths])
        self.crp = nn.ModuleList([_CRP(dec) for _ in widths])
        self.adapt = nn.ModuleList([nn.Conv2d(dec, dec, 1, bias=False) for _ in widths[1:]])
        self.clf = nn.Conv2d(dec, classes, 3, 1, 1)

    def forward(self, img):                       # (N, 3, 160, 160)
        x = self.stem(img)
        feats = []
        for st in self.stages:
            x = st(x)
            feats.append(x)
        path = None
        for i in range(len(feats) - 1, -1, -1):
            y = self.reduce[i](feats[i])
            y = F.relu(y if path is None else y + path)
            y = self.crp[i](y)
            if i > 0:
                path = F.interpolate(self.adapt[i - 1](y), scale_factor=2.0, mode="bilinear", align_corners=False)
            else:
                path = y
        return self.clf(path)


def _subpixel1d(x, r=2):
    """(N, r C, L) -> (N, C, r L), interleaving the r groups."""
    ch, length = x.shape[1] // r, x.shape[2]
    return x.view(-1, r, ch, length).permute(0, 2, 3, 1).reshape(-1, ch, length * r)


class AudioUNetSR(nn.Module):
    """AudioUNet on 2048 samples: down blocks Conv1d stride 2 (16, 32, 48,
    64 filters; kernels 65, 33, 17, 9; LeakyReLU 0.2), bottleneck Conv1d
    64 stride 2 (kernel 9); up blocks Conv1d to 2 F (mirrored kernels),
    ReLU, subpixel x2 to F, concatenated with the down block's output;
    final Conv1d to 2, subpixel to 1 channel, plus the input."""

    def __init__(self, filters=(16, 32, 48, 64), kernels=(65, 33, 17, 9), bottleneck=64):
        super().__init__()
        self.down = nn.ModuleList()
        prev = 1
        for f, k in zip(filters, kernels):
            self.down.append(nn.Conv1d(prev, f, k, 2, k // 2))
            prev = f
        self.mid = nn.Conv1d(prev, bottleneck, 9, 2, 4)
        self.up = nn.ModuleList()
        prev = bottleneck
        for f, k in zip(reversed(filters), reversed(kernels)):
            self.up.append(nn.Conv1d(prev, 2 * f, k, 1, k // 2))
            prev = 2 * f
        self.final = nn.Conv1d(prev, 2, 9, 1, 4)

    def forward(self, audio):                     # (N, 1, 2048)
        x, skips = audio, []
        for conv in self.down:
            x = F.leaky_relu(conv(x), 0.2)
            skips.append(x)
        x = F.leaky_relu(self.mid(x), 0.2)
        for conv in self.up:
            x = torch.cat([_subpixel1d(F.relu(conv(x))), skips.pop()], 1)
        return _subpixel1d(self.final(x)) + audio


class PointerGeneratorSumm(nn.Module):
    """Pointer-generator with coverage: embeddings 64 (vocabulary 5000),
    BiLSTM encoder 96 per direction over 64 tokens, the final states
    reduced by Linear + ReLU; 12 greedy steps from a start token of an
    LSTMCell (input Linear([y emb, context])), attention v^T tanh(W_h h_i
    + W_s [s, c] + w_c cov_i), context, P_vocab = softmax(V'(V [s,
    context])), p_gen = sigmoid(w [context, s, c, x]), the copy
    distribution a (one-hot source), their mixture and its argmax.
    Returns the tokens (N, 12), their probabilities (N, 12) and the final
    coverage (N, 64)."""

    def __init__(self, vocab=5000, emb=64, hid=96, steps=12, start=2):
        super().__init__()
        self.vocab, self.steps, self.start = vocab, steps, start
        self.emb = nn.Embedding(vocab, emb)
        self.enc = nn.LSTM(emb, hid, batch_first=True, bidirectional=True)
        self.red_h, self.red_c = nn.Linear(2 * hid, hid), nn.Linear(2 * hid, hid)
        self.w_h = nn.Linear(2 * hid, 2 * hid, bias=False)
        self.w_s = nn.Linear(2 * hid, 2 * hid)
        self.w_c = nn.Linear(1, 2 * hid, bias=False)
        self.v = nn.Linear(2 * hid, 1, bias=False)
        self.x_in = nn.Linear(emb + 2 * hid, emb)
        self.cell = nn.LSTMCell(emb, hid)
        self.p_gen = nn.Linear(2 * hid + 2 * hid + emb, 1)
        self.out1 = nn.Linear(3 * hid, hid)
        self.out2 = nn.Linear(hid, vocab)

    def forward(self, src):                       # (N, 64) int64
        enc, (hn, cn) = self.enc(self.emb(src))
        h = F.relu(self.red_h(torch.cat([hn[0], hn[1]], -1)))
        c = F.relu(self.red_c(torch.cat([cn[0], cn[1]], -1)))
        feat = self.w_h(enc)                                                 # (N, L, 2h)
        onehot = F.one_hot(src, self.vocab).to(enc.dtype)                   # (N, L, V)
        cov = torch.zeros_like(enc[..., 0])
        ctx = torch.zeros_like(enc[:, 0])
        y = src[:, 0] * 0 + self.start
        toks, probs = [], []
        for _ in range(self.steps):
            x = self.x_in(torch.cat([self.emb(y), ctx], -1))
            h, c = self.cell(x, (h, c))
            s = torch.cat([h, c], -1)
            att = self.v(torch.tanh(feat + self.w_s(s).unsqueeze(1) + self.w_c(cov.unsqueeze(-1)))).squeeze(-1)
            a = torch.softmax(att, -1)
            ctx = torch.matmul(a.unsqueeze(1), enc).squeeze(1)
            cov = cov + a
            p_vocab = torch.softmax(self.out2(self.out1(torch.cat([h, ctx], -1))), -1)
            pg = torch.sigmoid(self.p_gen(torch.cat([ctx, s, x], -1)))
            dist = pg * p_vocab + (1.0 - pg) * torch.matmul(a.unsqueeze(1), onehot).squeeze(1)
            p, y = dist.max(-1)
            toks.append(y)
            probs.append(p)
        return torch.stack(toks, 1), torch.stack(probs, 1), cov


class _RGCNLayer(nn.Module):
    """h_i' = W_0 h_i + sum_r sum_j (1 / c_i,r) A_r,ij h_j W_r, with
    W_r = sum_b a_rb V_b (basis decomposition)."""

    def __init__(self, inp, out, relations, bases):
        super().__init__()
        self.shape = (relations, inp, out)
        self.basis = nn.Parameter(torch.randn(bases, inp * out) / math.sqrt(inp))
        self.coef = nn.Parameter(torch.randn(relations, bases) / math.sqrt(bases))
        self.root = nn.Linear(inp, out)

    def forward(self, h, adj):                    # (N, V, in), (N, R, V, V)
        w = torch.matmul(self.coef, self.basis).view(*self.shape)
        msg = torch.matmul(h.unsqueeze(1), w)                               # (N, R, V, out)
        return self.root(h) + torch.matmul(adj, msg).sum(1)


class RGCNEntity(nn.Module):
    """R-GCN entity classification: 96 entities of 32 features, 8
    relations (dense adjacency, each row divided by max(1, its sum)),
    two R-GCN layers of 128 (8 bases, ReLU), a Linear to 4 classes and
    softmax.  Returns the class probabilities (N, 96, 4)."""

    def __init__(self, inp=32, hidden=128, relations=8, bases=8, classes=4):
        super().__init__()
        self.l1 = _RGCNLayer(inp, hidden, relations, bases)
        self.l2 = _RGCNLayer(hidden, hidden, relations, bases)
        self.cls = nn.Linear(hidden, classes)

    def forward(self, feats, adj):                # (N, 96, 32), (N, 8, 96, 96)
        adj = adj / torch.clamp(adj.sum(-1, keepdim=True), min=1.0)
        h = F.relu(self.l1(feats, adj))
        h = F.relu(self.l2(h, adj))
        return torch.softmax(self.cls(h), -1)


class MINDMultiInterest(nn.Module):
    """MIND serving: 50 behaviour items (table 20000 x 64) through the
    shared bilinear map S, B2I routing from fixed N(0, 1) logits (softmax
    over the 4 interests, weighted sums, squash, logit update by
    agreement) for three iterations; 4 profile fields (100 values each,
    embedding 16) concatenated to every capsule, ReLU MLP (128 -> 256 ->
    64); all items scored by every interest, the max over interests, top
    50.  Returns the top-50 scores (N, 50), their item ids (N, 50) and the
    interest vectors (N, 4, 64)."""

    def __init__(self, items=20000, dim=64, hist=50, interests=4, iters=3, fields=4, field_size=100,
                 pdim=16, top=50):
        super().__init__()
        self.iters, self.top, self.k = iters, top, interests
        self.item = nn.Embedding(items, dim)
        self.profile = nn.Embedding(fields * field_size, pdim)
        self.register_buffer("offsets", torch.arange(fields) * field_size)
        self.s = nn.Linear(dim, dim, bias=False)
        self.register_buffer("b0", torch.randn(hist, interests))
        self.mlp = _mlp((dim + fields * pdim, 256, dim))

    def forward(self, hist, prof):                # (N, 50), (N, 4) int64
        se = self.s(self.item(hist))                                        # (N, H, D)
        b = self.b0
        for _ in range(self.iters):
            w = torch.softmax(b, -1)
            z = torch.matmul(w.transpose(-1, -2), se)                       # (N, K, D)
            n2 = (z * z).sum(-1, keepdim=True)
            u = n2 / (1.0 + n2) * z / torch.sqrt(n2 + 1.0e-9)
            b = b + torch.matmul(se, u.transpose(1, 2))                    # (N, H, K)
        p = self.profile(prof + self.offsets).flatten(1)
        v = self.mlp(torch.cat([u, p.unsqueeze(1).expand(-1, self.k, -1)], -1))
        scores = torch.matmul(v, self.item.weight.t()).max(1).values        # (N, items)
        top, ids = scores.topk(self.top, -1)
        return top, ids, v


class _CGConv(nn.Module):
    """CGCNN convolution: z = [v_i, v_j, u_ij], sigmoid(z W_f) * softplus(z W_s)
    after BN, summed over neighbours, BN, softplus(v_i + .)."""

    def __init__(self, atom, nbr):
        super().__init__()
        self.atom = atom
        self.fc = nn.Linear(2 * atom + nbr, 2 * atom)
        self.bn1, self.bn2 = nn.BatchNorm1d(2 * atom), nn.BatchNorm1d(atom)

    def forward(self, v, idx, u):                 # (N, A, F), (N, A, M), (N, A, M, G)
        n_at, m = v.shape[1], idx.shape[2]
        vj = torch.gather(v.unsqueeze(1).expand(-1, n_at, -1, -1), 2,
                          idx.unsqueeze(-1).expand(-1, -1, -1, self.atom))  # (N, A, M, F)
        z = torch.cat([v.unsqueeze(2).expand(-1, -1, m, -1), vj, u], -1)
        g = self.bn1(self.fc(z).reshape(-1, 2 * self.atom)).view(-1, n_at, m, 2 * self.atom)
        filt, core = g[..., :self.atom], g[..., self.atom:]
        s = (torch.sigmoid(filt) * F.softplus(core)).sum(2)
        s = self.bn2(s.reshape(-1, self.atom)).view(-1, n_at, self.atom)
        return F.softplus(v + s)


class CGCNNCrystal(nn.Module):
    """CGCNN on 48 atoms (element < 100): embedding 92 and Linear to 64;
    12 nearest neighbours by TopK of the negated squared distances (self
    excluded); Gaussian expansion exp(-(d - mu)^2 / 0.2^2), mu = 0, 0.2
    ... 8; three convolutions; mean over atoms, Linear 128 + softplus,
    Linear 1.  Returns the property (N, 1) and the atom features
    (N, 48, 64)."""

    def __init__(self, elements=100, orig=92, atom=64, atoms=48, nbrs=12, layers=3, hidden=128):
        super().__init__()
        self.nbrs = nbrs
        self.embed = nn.Embedding(elements, orig)
        self.lin = nn.Linear(orig, atom)
        self.register_buffer("centres", torch.arange(0.0, 8.01, 0.2))
        self.register_buffer("self_mask", 1.0e6 * torch.eye(atoms))
        self.convs = nn.ModuleList([_CGConv(atom, self.centres.numel()) for _ in range(layers)])
        self.head = nn.Sequential(nn.Linear(atom, hidden), nn.Softplus(), nn.Linear(hidden, 1))

    def forward(self, z, pos):                    # (N, 48) int64, (N, 48, 3)
        sq = (pos * pos).sum(-1)
        d2 = sq.unsqueeze(2) + sq.unsqueeze(1) - 2.0 * torch.matmul(pos, pos.transpose(1, 2))
        neg, idx = (-(d2 + self.self_mask)).topk(self.nbrs, -1)
        dist = torch.sqrt(torch.clamp(-neg, min=1.0e-8))
        u = torch.exp(-((dist.unsqueeze(-1) - self.centres) ** 2) / 0.04)
        v = self.lin(self.embed(z))
        for conv in self.convs:
            v = conv(v, idx, u)
        return self.head(v.mean(1)), v


class FeUdalNetwork(nn.Module):
    """FuN over 16 steps of 3 x 64 x 64 frames: perception (Conv 16 8 x 8 / 4,
    Conv 32 4 x 4 / 2, Linear 256, ReLU); Manager: s = ReLU(Linear(z)),
    dilated LSTM of 256 with 8 cores (core t mod 8 updated at step t, the
    output the sum of the cores' hidden states), goal g = output / |output|;
    Worker: LSTMCell 256 -> 288 = 18 actions x 16, w = phi(sum of the last
    9 goals) (no bias), pi = softmax(U w); value heads of both.  Returns
    the policies (N, 16, 18), the goals (N, 16, 256) and the values
    (N, 16, 2)."""

    def __init__(self, steps=16, actions=18, d=256, k=16, cores=8, horizon=8):
        super().__init__()
        self.steps, self.actions, self.k, self.cores, self.horizon, self.d = steps, actions, k, cores, horizon, d
        self.percept = nn.Sequential(nn.Conv2d(3, 16, 8, 4), nn.ReLU(), nn.Conv2d(16, 32, 4, 2), nn.ReLU(),
                                     nn.Flatten(), nn.Linear(32 * 6 * 6, d), nn.ReLU())
        self.m_space = nn.Sequential(nn.Linear(d, d), nn.ReLU())
        self.m_rnn = nn.LSTMCell(d, d)
        self.m_value = nn.Linear(d, 1)
        self.w_rnn = nn.LSTMCell(d, actions * k)
        self.phi = nn.Linear(d, k, bias=False)
        self.w_value = nn.Linear(actions * k, 1)

    def forward(self, obs):                       # (N, 16, 3, 64, 64)
        z = self.percept(obs.reshape(-1, 3, 64, 64)).view(-1, self.steps, self.d)
        s = self.m_space(z)
        zero_m = torch.zeros_like(z[:, 0])
        zero_w = torch.zeros_like(z[:, 0, :1]).expand(-1, self.actions * self.k)
        mh, mc = [zero_m] * self.cores, [zero_m] * self.cores
        wh, wc = zero_w, zero_w
        pis, goals, values = [], [], []
        for t in range(self.steps):
            j = t % self.cores
            mh[j], mc[j] = self.m_rnn(s[:, t], (mh[j], mc[j]))
            out = mh[0]
            for i in range(1, self.cores):
                out = out + mh[i]
            g = out / torch.sqrt((out * out).sum(-1, keepdim=True) + 1.0e-8)
            goals.append(g)
            wh, wc = self.w_rnn(z[:, t], (wh, wc))
            pooled = goals[-1]
            for gp in goals[-(self.horizon + 1):-1]:
                pooled = pooled + gp
            w = self.phi(pooled)
            logits = torch.matmul(wh.view(-1, self.actions, self.k), w.unsqueeze(-1)).squeeze(-1)
            pis.append(torch.softmax(logits, -1))
            values.append(torch.cat([self.m_value(out), self.w_value(wh)], -1))
        return torch.stack(pis, 1), torch.stack(goals, 1), torch.stack(values, 1)


class _TiDEBlock(nn.Module):
    """TiDE residual block: Linear, ReLU, Linear, plus a Linear skip, LayerNorm."""

    def __init__(self, inp, hid, out):
        super().__init__()
        self.fc1, self.fc2, self.skip = nn.Linear(inp, hid), nn.Linear(hid, out), nn.Linear(inp, out)
        self.ln = nn.LayerNorm(out)

    def forward(self, x):
        return self.ln(self.fc2(F.relu(self.fc1(x))) + self.skip(x))


class TiDEForecast(nn.Module):
    """TiDE, 7 channels x 336 lookback -> 96 horizon, channel-independent:
    RevIN over time; covariates (N, 432, 8) projected to 4 per step by a
    residual block (hidden 64); per channel the encoder input [lookback,
    flattened projected covariates, channel attribute of 8] (2072) through
    two residual blocks of 256, the decoder through two (the last to
    96 x 8), the temporal decoder block ([8 + 4] -> 64 -> 1) per horizon
    step, plus Linear(336, 96) of the lookback; de-normalised.  Returns
    the forecast (N, 96, 7)."""

    def __init__(self, channels=7, lookback=336, horizon=96, covariates=8, proj=4, hidden=256, dec_out=8,
                 attr=8, temporal=64):
        super().__init__()
        self.lookback, self.horizon, self.dec_out, self.channels = lookback, horizon, dec_out, channels
        self.feat = _TiDEBlock(covariates, 64, proj)
        self.attr = nn.Parameter(0.1 * torch.randn(channels, attr))
        enc_in = lookback + (lookback + horizon) * proj + attr
        self.encoder = nn.Sequential(_TiDEBlock(enc_in, hidden, hidden), _TiDEBlock(hidden, hidden, hidden))
        self.decoder = nn.Sequential(_TiDEBlock(hidden, hidden, hidden),
                                     _TiDEBlock(hidden, hidden, horizon * dec_out))
        self.temporal = _TiDEBlock(dec_out + proj, temporal, 1)
        self.skip = nn.Linear(lookback, horizon)

    def forward(self, series, cov):               # (N, 336, 7), (N, 432, 8)
        y = series.transpose(1, 2)                                          # (N, C, L)
        mean = y.mean(-1, keepdim=True)
        std = torch.sqrt(((y - mean) ** 2).mean(-1, keepdim=True) + 1.0e-5)
        y = (y - mean) / std
        xt = self.feat(cov)                                                 # (N, L + H, p)
        flat = xt.flatten(1).unsqueeze(1).expand(-1, self.channels, -1)
        attr = self.attr.unsqueeze(0) + torch.zeros_like(y[..., :1])
        enc = self.encoder(torch.cat([y, flat, attr], -1))
        dec = self.decoder(enc).view(-1, self.channels, self.horizon, self.dec_out)
        fut = xt[:, self.lookback:].unsqueeze(1).expand(-1, self.channels, -1, -1)
        out = self.temporal(torch.cat([dec, fut], -1)).squeeze(-1) + self.skip(y)
        return (out * std + mean).transpose(1, 2)


class _STLSTMCell(nn.Module):
    """Spatiotemporal LSTM cell (PredRNN): gates from the input, the hidden
    state and the spatiotemporal memory M; C and M updated separately; the
    output gate sees both; h = o * tanh(Conv1x1([C, M]))."""

    def __init__(self, inp, hid, k=3):
        super().__init__()
        self.hid = hid
        self.conv_x = nn.Conv2d(inp, 7 * hid, k, 1, k // 2)
        self.conv_h = nn.Conv2d(hid, 4 * hid, k, 1, k // 2)
        self.conv_m = nn.Conv2d(hid, 3 * hid, k, 1, k // 2)
        self.conv_o = nn.Conv2d(2 * hid, hid, k, 1, k // 2)
        self.conv_last = nn.Conv2d(2 * hid, hid, 1)

    def forward(self, x, h, c, m):
        i_x, f_x, g_x, i_xp, f_xp, g_xp, o_x = torch.split(self.conv_x(x), self.hid, 1)
        i_h, f_h, g_h, o_h = torch.split(self.conv_h(h), self.hid, 1)
        i_m, f_m, g_m = torch.split(self.conv_m(m), self.hid, 1)
        c = torch.sigmoid(f_x + f_h + 1.0) * c + torch.sigmoid(i_x + i_h) * torch.tanh(g_x + g_h)
        m = torch.sigmoid(f_xp + f_m + 1.0) * m + torch.sigmoid(i_xp + i_m) * torch.tanh(g_xp + g_m)
        mem = torch.cat([c, m], 1)
        o = torch.sigmoid(o_x + o_h + self.conv_o(mem))
        return o * torch.tanh(self.conv_last(mem)), c, m


class PredRNNVideo(nn.Module):
    """PredRNN on 64 x 64 frames in 4 x 4 patches (16 channels at 16 x 16):
    three ST-LSTM layers of 16 (3 x 3), the memory M zigzagging up the
    layers and from the top layer to the bottom of the next step; a 1 x 1
    Conv to the next frame's patches; 5 context frames, then the 5
    predictions fed back (9 steps).  Returns the predicted frames
    (N, 5, 1, 64, 64)."""

    def __init__(self, patch=4, hidden=16, layers=3, k=3, past=5, future=5, size=64):
        super().__init__()
        self.patch, self.hidden, self.past, self.future, self.size = patch, hidden, past, future, size
        ch = patch * patch
        self.cells = nn.ModuleList([_STLSTMCell(ch if i == 0 else hidden, hidden, k) for i in range(layers)])
        self.out = nn.Conv2d(hidden, ch, 1, bias=False)

    def forward(self, frames):                    # (N, 5, 1, 64, 64)
        p, g = self.patch, self.size // self.patch
        x = frames.reshape(-1, self.past, g, p, g, p).permute(0, 1, 3, 5, 2, 4).reshape(-1, self.past, p * p, g, g)
        zero = torch.zeros_like(x[:, 0, :1]).expand(-1, self.hidden, -1, -1)
        hs, cs, m = [zero] * len(self.cells), [zero] * len(self.cells), zero
        preds, pred = [], None
        for t in range(self.past + self.future - 1):
            inp = x[:, t] if t < self.past else pred
            for i, cell in enumerate(self.cells):
                hs[i], cs[i], m = cell(inp, hs[i], cs[i], m)
                inp = hs[i]
            pred = self.out(hs[-1])
            if t >= self.past - 1:
                preds.append(pred)
        y = torch.stack(preds, 1).view(-1, self.future, p, p, g, g)
        return y.permute(0, 1, 4, 2, 5, 3).reshape(-1, self.future, 1, self.size, self.size)


BLIND38 = {
    "hmm_baum_welch": dict(ctor=HMMBaumWelch, family="baum-welch-hmm-forward-backward",
                           inputs=[("frames", ("N", 48, 12), "float32", None)]),
    "split_step_nls": dict(ctor=SplitStepNLS, family="split-step-fourier-nonlinear-schrodinger",
                           inputs=[("pulse", ("N", 2, 128), "float32", None)]),
    "push_relabel_cut": dict(ctor=PushRelabelCut, family="push-relabel-max-flow-graph-cut",
                             inputs=[("image", ("N", 3, 32, 32), "float32", None)]),
    "light_refinenet_seg": dict(ctor=LightRefineNetSeg, family="chained-residual-pooling-refinement-segmentation",
                                inputs=[("image", ("N", 3, 160, 160), "float32", None)]),
    "audio_unet_sr": dict(ctor=AudioUNetSR, family="subpixel-1d-audio-super-resolution",
                          inputs=[("audio", ("N", 1, 2048), "float32", None)]),
    "pointer_generator_summ": dict(ctor=PointerGeneratorSumm, family="pointer-generator-coverage-summarization",
                                   inputs=[("source", ("N", 64), "int64", 5000)]),
    "rgcn_entity": dict(ctor=RGCNEntity, family="relational-basis-decomposition-gcn",
                        inputs=[("features", ("N", 96, 32), "float32", None),
                                ("adjacency", ("N", 8, 96, 96), "float32", None)]),
    "mind_multi_interest": dict(ctor=MINDMultiInterest, family="multi-interest-dynamic-routing-retrieval",
                                inputs=[("behaviours", ("N", 50), "int64", 20000),
                                        ("profile", ("N", 4), "int64", 100)]),
    "cgcnn_crystal": dict(ctor=CGCNNCrystal, family="crystal-graph-gated-convolution",
                          inputs=[("elements", ("N", 48), "int64", 100),
                                  ("positions", ("N", 48, 3), "float32", None)]),
    "feudal_network": dict(ctor=FeUdalNetwork, family="feudal-manager-worker-dilated-lstm",
                           inputs=[("frames", ("N", 16, 3, 64, 64), "float32", None)]),
    "tide_forecast": dict(ctor=TiDEForecast, family="dense-residual-mlp-encoder-decoder-forecast",
                          inputs=[("series", ("N", 336, 7), "float32", None),
                                  ("covariates", ("N", 432, 8), "float32", None)]),
    "predrnn_video": dict(ctor=PredRNNVideo, family="spatiotemporal-lstm-zigzag-memory",
                          inputs=[("frames", ("N", 5, 1, 64, 64), "float32", None)]),
}
