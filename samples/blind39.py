r"""BLIND39: the thirty-ninth blind set, written on 2026-12-07 by a helper
session before any of it was measured.  Nothing in it has been timed,
profiled or run through onnxcost predict; it is to be measured first and
scored once only, at the end, with the code as it stands then
(bench/zoo_accuracy.py --set blind39).  None of its twelve families occurs
in another set (ZOO, BLIND, BLIND2 ... BLIND38, the reference models), so
no plan rule, feature, fit or calibration can have been made with any of
them in view.

Three families unroll a classical procedure into a fixed graph of small
kernels (several hundred to a few thousand nodes each, Constants
included), each with a small learned part:

  * Griffin-Lim phase reconstruction (D. W. Griffin & J. S. Lim, "Signal
    Estimation from Modified Short-Time Fourier Transform", 1984) in its
    fast, momentum form (N. Perraudin, P. Balazs & P. L. Soendergaard,
    "A Fast Griffin-Lim Algorithm", 2013): a Conv1d net maps 32 frames of
    a 64-bin log-mel spectrogram to a 129-bin linear magnitude (plus the
    mel pseudo-inverse), and 12 iterations alternate the inverse STFT (a
    ConvTranspose1d with the windowed inverse DFT basis, divided by the
    window's summed square) with the STFT (a strided Conv1d, Hann window
    of 256, hop 64), the phase kept, the magnitude replaced, with
    momentum 0.99.  The waveform and the spectral convergence at every
    iteration come out.
  * Luby's randomised maximal independent set (M. Luby, "A Simple
    Parallel Algorithm for the Maximal Independent Set Problem", 1986) on
    a radius graph of 96 points in the plane: an MLP scores the points,
    the priorities of each of 12 rounds are the score plus that round's
    fixed random numbers; every round an active node whose priority beats
    all its active neighbours' (a masked Max over the dense adjacency)
    joins the set, and it and its neighbours (one MatMul) leave the
    active set.  The set, each node's round and a readout pooled over the
    set come out.
  * Pathwise cyclic coordinate descent for the lasso (J. Friedman,
    T. Hastie, H. Hoefling & R. Tibshirani, "Pathwise Coordinate
    Optimization", 2007; J. Friedman, T. Hastie & R. Tibshirani,
    "Regularization Paths for Generalized Linear Models via Coordinate
    Descent", 2010) with covariance updates: a Conv1d net cleans a signal
    of 64 samples, a learned dictionary of 24 unit-norm atoms gives the
    Gram matrix and the correlations, and four values of lambda (from the
    per-sample lambda_max down by halves, warm-started) each get two
    sweeps over the 24 coordinates, each update a soft-threshold of one
    coordinate and a rank-one correction of the gradient.  The codes
    along the path and the reconstruction come out.

The other nine are published network designs of ordinary sizes:

  * HED (S. Xie & Z. Tu, "Holistically-Nested Edge Detection", 2015) on
    96 x 96 images: a narrowed VGG16 trunk (8, 16, 32, 64, 64 channels
    in stages of 2, 2, 3, 3, 3 Convs), a 1 x 1 side output after every
    stage brought back to full size by a transposed Conv, and the
    weighted fusion of the five side outputs.
  * Wavegram-Logmel-CNN (Q. Kong, Y. Cao, T. Iqbal, Y. Wang, W. Wang &
    M. D. Plumbley, "PANNs: Large-Scale Pretrained Audio Neural Networks
    for Audio Pattern Recognition", 2020), narrowed: 16000 samples, a
    log-mel front end (STFT as a strided Conv1d, window 512, hop 320, 64
    mel bins, BatchNorm over the bins) and the Wavegram branch (strided
    Conv1d and three Conv1d blocks with max pooling, reshaped to 32
    frequency bins), joined after the first CNN14 block, five more
    blocks of two 3 x 3 Conv-BN-ReLU and 2 x 2 average pooling (32 to
    512 channels, a quarter of CNN14's), the
    frequency mean, the sum of the max and the mean over time, an
    embedding of 256 and 527 sigmoid outputs.
  * ELMo (M. E. Peters, M. Neumann, M. Iyyer, M. Gardner, C. Clark,
    K. Lee & L. Zettlemoyer, "Deep contextualized word representations",
    2018), small: 32 tokens of 16 characters (262 character ids), the
    character CNN (widths 1 to 5, 368 filters, max over characters), two
    highway layers, projection to 128, a two-layer forward LM and a
    two-layer backward LM (LSTM of 256 projected to 128, residual between
    the layers), and the task's softmax-weighted scalar mix of the three
    layers.
  * GIN (K. Xu, W. Hu, J. Leskovec & S. Jegelka, "How Powerful are Graph
    Neural Networks?", 2019) for graph classification: 96 nodes with 16
    features and a dense adjacency, five GIN layers ((1 + eps) h + A h
    through a two-layer MLP of 128 with BatchNorm), and the sum readout of
    every layer (the input's included), each scored by its own Linear,
    summed.
  * NARM (J. Li, P. Ren, Z. Chen, Z. Ren, T. Lian & J. Ma, "Neural
    Attentive Session-based Recommendation", 2017): a session of 20
    clicks (40000-item table of 50), a GRU of 100, the global encoder's
    last state and the local encoder's attention of every state to it
    (padding masked), the bilinear decoder against the whole item table,
    the softmax and the top 20.
  * DeepDTA (H. Oeztuerk, A. Oezguer & E. Ozkirimli, "DeepDTA: deep
    drug-target binding affinity prediction", 2018): a SMILES string of
    100 characters and a protein of 1000 residues, each embedded (128)
    and passed through three Conv1d layers (32, 64, 96 filters; kernels
    4, 6, 8 for the ligand and 4, 8, 12 for the protein) with global max
    pooling, the two codes concatenated and through dense layers of
    1024, 1024 and 512 to the affinity.
  * IMPALA's deep agent network (L. Espeholt, H. Soyer, R. Munos,
    K. Simonyan, V. Mnih, T. Ward et al., "IMPALA: Scalable Distributed
    Deep-RL with Importance Weighted Actor-Learner Architectures", 2018)
    over 4 steps of 64 x 64 RGB frames: three residual sections (Conv
    3 x 3, max pool 3 x 3 stride 2, two residual blocks; 16, 32, 32
    channels), Linear 256, the last action's one-hot, an LSTM of 256,
    the policy over 9 actions and the baseline.
  * DeepAR (D. Salinas, V. Flunkert, J. Gasthaus & T. Januschowski,
    "DeepAR: Probabilistic forecasting with autoregressive recurrent
    networks", 2020): 168 steps of history and 4 covariates over 192
    steps, the series scaled by 1 + its mean, a two-layer LSTM of 40
    over the conditioning range with the lagged target, and 24
    ancestral sampling steps of 8 sample paths (Gaussian likelihood,
    mean and softplus scale, the noise held in a buffer), each sample fed
    back.
  * BigGAN (A. Brock, J. Donahue & K. Simonyan, "Large Scale GAN
    Training for High Fidelity Natural Image Synthesis", 2019), the 64 x
    64 generator at ch = 8: the latent of 120 split hierarchically over
    the first Linear and four residual up-blocks, class-conditional
    BatchNorm from the shared class embedding (1000 classes) joined with
    each block's latent chunk, nearest upsampling, the non-local
    self-attention block at 32 x 32 (keys and values max-pooled), the
    final BatchNorm, ReLU, Conv to RGB and tanh.

To be measured with

    OMP_WAIT_POLICY=PASSIVE /usr/bin/python3 scripts/measure_zoo.py --set blind39 \
        griffin_lim_recon luby_mis_graph lasso_coord_descent hed_edges \
        panns_wavegram_logmel elmo_bilm gin_graph narm_session \
        deepdta_affinity impala_agent deepar_forecast biggan_generator \
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


def _hann(n):
    """Periodic Hann window of n points (float64)."""
    j = torch.arange(n, dtype=torch.float64)
    return 0.5 - 0.5 * torch.cos(2.0 * math.pi * j / n)


def _mel_filters(bins, mels, sr, fmin=0.0):
    """Triangular mel filterbank (bins, mels), HTK mel scale, float64."""
    def hz2mel(f):
        return 2595.0 * math.log10(1.0 + f / 700.0)
    lo, hi = hz2mel(fmin), hz2mel(sr / 2.0)
    pts = torch.tensor([700.0 * (10.0 ** ((lo + (hi - lo) * i / (mels + 1)) / 2595.0) - 1.0)
                        for i in range(mels + 2)], dtype=torch.float64)
    freqs = torch.linspace(0.0, sr / 2.0, bins, dtype=torch.float64)
    fb = torch.zeros(bins, mels, dtype=torch.float64)
    for m in range(mels):
        left, centre, right = pts[m], pts[m + 1], pts[m + 2]
        up = (freqs - left) / (centre - left)
        down = (right - freqs) / (right - centre)
        fb[:, m] = torch.clamp(torch.minimum(up, down), min=0.0)
    return fb


def _stft_kernel(n_fft):
    """Conv1d weight (2 (n_fft / 2 + 1), 1, n_fft): Hann-windowed cos and -sin rows."""
    bins = n_fft // 2 + 1
    win = _hann(n_fft)
    k = torch.arange(bins, dtype=torch.float64).unsqueeze(1)
    j = torch.arange(n_fft, dtype=torch.float64).unsqueeze(0)
    ang = 2.0 * math.pi * k * j / n_fft
    return torch.cat([torch.cos(ang) * win, -torch.sin(ang) * win], 0).unsqueeze(1)


# --------------------------------------------------------------------------
# Unrolled algorithms
# --------------------------------------------------------------------------

class GriffinLimRecon(nn.Module):
    """Fast Griffin-Lim from a log-mel spectrogram (N, 64, 32): magnitude =
    softplus(Conv1d 64 -> 128 -> 129, kernel 5) + ReLU(pinv(mel) exp(mel));
    STFT as Conv1d (258 rows: windowed cos and -sin, n_fft 256, hop 64, no
    padding; 2240 samples), inverse STFT as ConvTranspose1d (one-sided
    inverse DFT basis times the window) divided by the summed squared
    window; the initial phase from a fixed random buffer; 12 iterations of
    t = STFT(iSTFT(S * phase)), c = t - m / (1 + m) t_prev, phase =
    c / |c|.  Returns the waveform (N, 2240) and the spectral convergence
    ||S - |t||| / ||S|| of every iteration (N, 12)."""

    def __init__(self, mels=64, frames=32, n_fft=256, hop=64, iters=12, momentum=0.99, sr=16000):
        super().__init__()
        self.bins, self.hop, self.iters = n_fft // 2 + 1, hop, iters
        self.alpha = momentum / (1.0 + momentum)
        self.post = nn.Sequential(nn.Conv1d(mels, 128, 5, padding=2), nn.ReLU(),
                                  nn.Conv1d(128, self.bins, 5, padding=2))
        fb = _mel_filters(self.bins, mels, sr)
        self.register_buffer("mel_pinv", torch.linalg.pinv(fb.t()).float())          # (bins, mels)
        self.register_buffer("fwd", _stft_kernel(n_fft).float())
        win = _hann(n_fft)
        k = torch.arange(self.bins, dtype=torch.float64).unsqueeze(1)
        j = torch.arange(n_fft, dtype=torch.float64).unsqueeze(0)
        ang = 2.0 * math.pi * k * j / n_fft
        scale = torch.full((self.bins, 1), 2.0, dtype=torch.float64)
        scale[0, 0] = scale[-1, 0] = 1.0
        inv = torch.cat([scale * torch.cos(ang), -scale * torch.sin(ang)], 0) * win / n_fft
        self.register_buffer("inv", inv.unsqueeze(1).float())
        length = hop * (frames - 1) + n_fft
        env = torch.zeros(length, dtype=torch.float64)
        for f in range(frames):
            env[f * hop:f * hop + n_fft] += win * win
        self.register_buffer("inv_env", (1.0 / torch.clamp(env, min=1.0e-3)).float().view(1, 1, -1))
        phase = 2.0 * math.pi * torch.rand(self.bins, frames)
        self.register_buffer("phase0", torch.cat([torch.cos(phase), torch.sin(phase)], 0).unsqueeze(0))

    def _istft(self, re, im):
        y = F.conv_transpose1d(torch.cat([re, im], 1), self.inv, stride=self.hop)
        return y * self.inv_env

    def forward(self, logmel):                    # (N, 64, 32)
        lin = torch.matmul(self.mel_pinv, torch.exp(logmel))
        mag = F.softplus(self.post(logmel)) + F.relu(lin)                   # (N, 129, T)
        norm = torch.sqrt((mag * mag).sum((1, 2)) + 1.0e-8).unsqueeze(1)
        b = self.bins
        pre, pim = self.phase0[:, :b], self.phase0[:, b:]
        prev_re, prev_im = None, None
        conv = []
        for _ in range(self.iters):
            x = self._istft(mag * pre, mag * pim)
            spec = F.conv1d(x, self.fwd, stride=self.hop)
            t_re, t_im = spec[:, :b], spec[:, b:]
            amp = torch.sqrt(t_re * t_re + t_im * t_im + 1.0e-12)
            conv.append(torch.sqrt(((mag - amp) ** 2).sum((1, 2)) + 1.0e-12).unsqueeze(1) / norm)
            if prev_re is None:
                c_re, c_im = t_re, t_im
            else:
                c_re, c_im = t_re - self.alpha * prev_re, t_im - self.alpha * prev_im
            prev_re, prev_im = t_re, t_im
            r = torch.sqrt(c_re * c_re + c_im * c_im + 1.0e-12)
            pre, pim = c_re / r, c_im / r
        wave = self._istft(mag * pre, mag * pim).flatten(1)
        return wave, torch.cat(conv, 1)


class LubyMISGraph(nn.Module):
    """Luby's maximal independent set on the radius graph (r = 0.35) of 96
    points: an MLP (2 -> 32 -> 32 -> 1, plus the node degree) scores the
    nodes, the priority of round r is score + u_r (u fixed uniform
    buffers, 12 rounds); a node joins when active and its priority beats
    the Max of its active neighbours'; it and its neighbours (MatMul with
    the adjacency) become inactive.  An embedding (2 -> 32 -> 32) pooled
    over the set goes through Linear 32 -> 8.  Returns the set mask
    (N, 96), the round each node joined (0 if never) (N, 96), the set's
    size (N, 1) and the readout (N, 8)."""

    def __init__(self, nodes=96, rounds=12, radius=0.35, hidden=32, out=8):
        super().__init__()
        self.rounds, self.r2 = rounds, radius * radius
        self.embed = _mlp((2, hidden, hidden), last_act=True)
        self.score = nn.Sequential(nn.Linear(hidden + 1, hidden), nn.ReLU(), nn.Linear(hidden, 1))
        self.head = nn.Linear(hidden, out)
        self.register_buffer("not_self", 1.0 - torch.eye(nodes))
        self.register_buffer("noise", torch.rand(rounds, nodes))

    def forward(self, points):                    # (N, 96, 2)
        sq = (points * points).sum(-1)
        d2 = sq.unsqueeze(2) + sq.unsqueeze(1) - 2.0 * torch.matmul(points, points.transpose(1, 2))
        adj = (d2 < self.r2).float() * self.not_self                         # (N, V, V)
        deg = adj.sum(-1, keepdim=True)
        h = self.embed(points)
        s = torch.tanh(self.score(torch.cat([h, deg / 8.0], -1)).squeeze(-1))  # (N, V)
        active = torch.ones_like(s)
        in_set = torch.zeros_like(s)
        joined = torch.zeros_like(s)
        for r in range(self.rounds):
            p = s + self.noise[r]
            pa = p * active + (active - 1.0) * 1.0e4
            nb = (adj * pa.unsqueeze(1) + (adj - 1.0) * 1.0e4).max(-1).values
            sel = active * (p > nb).float()
            in_set = in_set + sel
            joined = joined + sel * float(r + 1)
            hit = (torch.matmul(adj, sel.unsqueeze(-1)).squeeze(-1) > 0.0).float()
            active = active * (1.0 - sel) * (1.0 - hit)
        size = in_set.sum(-1, keepdim=True)
        pooled = (h * in_set.unsqueeze(-1)).sum(1) / (size + 1.0)
        return in_set, joined, size, self.head(pooled)


class LassoCoordDescent(nn.Module):
    """Pathwise cyclic coordinate descent for min 1/2 ||y - D b||^2 +
    lambda ||b||_1 on signals of 64 samples: y = x + Conv1d net(x) (1 -> 8
    -> 8 -> 1, kernel 5, tanh); D (64 x 24) learned, columns normalised;
    G = D^T D, c = D^T y, gradient g = c - G b kept by covariance updates;
    lambda_k = lambda_max 2^-(k+1), k = 0..3, lambda_max = max |c|, two
    sweeps each; update b_j <- S(b_j + g_j, lambda), g <- g - G_j
    (b_j' - b_j).  Returns the codes at every lambda (N, 4, 24) and the
    last reconstruction D b (N, 64)."""

    def __init__(self, length=64, atoms=24, lambdas=4, sweeps=2):
        super().__init__()
        self.atoms, self.lambdas, self.sweeps = atoms, lambdas, sweeps
        self.clean = nn.Sequential(nn.Conv1d(1, 8, 5, padding=2), nn.Tanh(),
                                   nn.Conv1d(8, 8, 5, padding=2), nn.Tanh(),
                                   nn.Conv1d(8, 1, 5, padding=2))
        self.dict = nn.Parameter(torch.randn(length, atoms))

    def forward(self, signal):                    # (N, 64)
        y = signal + self.clean(signal.unsqueeze(1)).squeeze(1)
        d = self.dict / torch.sqrt((self.dict * self.dict).sum(0, keepdim=True))
        gram = torch.matmul(d.t(), d)                                       # (K, K)
        g = torch.matmul(y, d)                                              # (N, K)
        lam_max = g.abs().max(-1, keepdim=True).values
        b = [torch.zeros_like(lam_max) for _ in range(self.atoms)]
        path = []
        for k in range(self.lambdas):
            lam = lam_max * (0.5 ** (k + 1))
            for _ in range(self.sweeps):
                for j in range(self.atoms):
                    u = b[j] + g[:, j:j + 1]
                    new = torch.sign(u) * F.relu(u.abs() - lam)
                    g = g - (new - b[j]) * gram[j]
                    b[j] = new
            path.append(torch.cat(b, 1))
        codes = torch.stack(path, 1)
        return codes, torch.matmul(path[-1], d.t())


# --------------------------------------------------------------------------
# Published designs
# --------------------------------------------------------------------------

class HEDEdges(nn.Module):
    """HED on 3 x 96 x 96: VGG16 stages (2, 2, 3, 3, 3 Convs 3 x 3 + ReLU;
    8, 16, 32, 64, 64 channels; max pool 2 between), a 1 x 1 Conv side
    output after each stage upsampled by ConvTranspose2d (kernel 2s,
    stride s, padding s / 2) to 96 x 96, the fused map a 1 x 1 Conv over
    the five.  Returns the sigmoid of the five side maps and the fusion
    (N, 6, 96, 96)."""

    def __init__(self, widths=(8, 16, 32, 64, 64), depths=(2, 2, 3, 3, 3)):
        super().__init__()
        self.stages = nn.ModuleList()
        self.sides = nn.ModuleList()
        self.ups = nn.ModuleList()
        cin = 3
        for i, (w, n) in enumerate(zip(widths, depths)):
            layers = [nn.MaxPool2d(2)] if i > 0 else []
            for _ in range(n):
                layers += [nn.Conv2d(cin, w, 3, padding=1), nn.ReLU()]
                cin = w
            self.stages.append(nn.Sequential(*layers))
            self.sides.append(nn.Conv2d(w, 1, 1))
            s = 2 ** i
            self.ups.append(nn.Identity() if s == 1 else nn.ConvTranspose2d(1, 1, 2 * s, s, s // 2, bias=False))
        self.fuse = nn.Conv2d(len(widths), 1, 1)

    def forward(self, image):                     # (N, 3, 96, 96)
        x, side = image, []
        for stage, conv, up in zip(self.stages, self.sides, self.ups):
            x = stage(x)
            side.append(up(conv(x)))
        side.append(self.fuse(torch.cat(side, 1)))
        return torch.sigmoid(torch.cat(side, 1))


class _ConvBlock2d(nn.Module):
    """PANNs ConvBlock: two 3 x 3 Conv-BN-ReLU, then average pooling."""

    def __init__(self, cin, cout, pool=(2, 2)):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(),
                                  nn.Conv2d(cout, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(),
                                  nn.AvgPool2d(pool))

    def forward(self, x):
        return self.body(x)


class _ConvBlock1d(nn.Module):
    """Wavegram block: two Conv1d-BN-ReLU (kernel 3, dilation 1 and 2), max pool."""

    def __init__(self, cin, cout, pool):
        super().__init__()
        self.body = nn.Sequential(nn.Conv1d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm1d(cout), nn.ReLU(),
                                  nn.Conv1d(cout, cout, 3, padding=2, dilation=2, bias=False),
                                  nn.BatchNorm1d(cout), nn.ReLU(), nn.MaxPool1d(pool))

    def forward(self, x):
        return self.body(x)


class PANNsWavegramLogmel(nn.Module):
    """Wavegram-Logmel-CNN (narrowed CNN14) on 16000 samples: log-mel by a
    Conv1d STFT (window 512, hop 320, reflect padding, 51 frames, the
    last dropped), power, mel matrix (257 -> 64), 10 log10, BatchNorm over
    the bins; CNN block 1 (1 -> 16, pool 2 x 2) -> (16, 25, 32); Wavegram:
    Conv1d 1 -> 32 (kernel 11, stride 5), blocks of 32, 64, 128 with pools
    4, 4, 4 to 50 frames, reshaped to (4, 32 bins, 50), transposed, a block
    4 -> 16 with pool (2, 1); concatenated (32 channels), blocks of 32, 64,
    128, 256, 512 (the last without pooling), the mean over bins, max +
    mean over time, Linear 256 + ReLU, Linear 527, sigmoid.
    Returns the clip-wise probabilities (N, 527) and the embedding
    (N, 256)."""

    def __init__(self, n_fft=512, hop=320, mels=64, sr=32000, classes=527, emb=256):
        super().__init__()
        self.hop, self.pad, self.bins = hop, n_fft // 2, n_fft // 2 + 1
        self.register_buffer("stft", _stft_kernel(n_fft).float())
        self.register_buffer("melfb", _mel_filters(self.bins, mels, sr, fmin=50.0).float())
        self.bn0 = nn.BatchNorm2d(mels)
        self.block1 = _ConvBlock2d(1, 16)
        self.pre = nn.Sequential(nn.Conv1d(1, 32, 11, stride=5, padding=5, bias=False), nn.BatchNorm1d(32),
                                 nn.ReLU(),
                                 _ConvBlock1d(32, 32, 4), _ConvBlock1d(32, 64, 4), _ConvBlock1d(64, 4 * mels // 2, 4))
        self.pre2d = _ConvBlock2d(4, 16, (2, 1))
        self.blocks = nn.Sequential(_ConvBlock2d(32, 32), _ConvBlock2d(32, 64), _ConvBlock2d(64, 128),
                                    _ConvBlock2d(128, 256), _ConvBlock2d(256, 512, (1, 1)))
        self.fc = nn.Linear(512, emb)
        self.out = nn.Linear(emb, classes)

    def forward(self, wave):                      # (N, 1, 16000)
        x = F.pad(wave, (self.pad, self.pad), mode="reflect")
        spec = F.conv1d(x, self.stft, stride=self.hop)                      # (N, 514, 51)
        power = spec[:, :self.bins] ** 2 + spec[:, self.bins:] ** 2
        mel = torch.matmul(power.transpose(1, 2), self.melfb)[:, :-1]       # (N, 50, 64)
        logmel = 10.0 * torch.log10(torch.clamp(mel, min=1.0e-10))
        logmel = self.bn0(logmel.transpose(1, 2).unsqueeze(-1)).squeeze(-1).transpose(1, 2)
        a = self.block1(logmel.unsqueeze(1))                                # (N, 16, 25, 32)
        w = self.pre(wave)                                                  # (N, 128, 50)
        w = w.reshape(w.shape[0], 4, -1, w.shape[-1]).transpose(2, 3)       # (N, 4, 50, 32)
        w = self.pre2d(w)                                                   # (N, 16, 25, 32)
        h = self.blocks(torch.cat([a, w], 1)).mean(3)                       # (N, 512, T')
        h = h.max(2).values + h.mean(2)
        e = F.relu(self.fc(h))
        return torch.sigmoid(self.out(e)), e


class _Highway(nn.Module):
    """Highway layer: g * ReLU(W x) + (1 - g) * x, g = sigmoid(W_g x)."""

    def __init__(self, d):
        super().__init__()
        self.proj = nn.Linear(d, 2 * d)
        self.d = d

    def forward(self, x):
        h = self.proj(x)
        g = torch.sigmoid(h[..., self.d:])
        return g * F.relu(h[..., :self.d]) + (1.0 - g) * x


class ELMoBiLM(nn.Module):
    """ELMo, small, on 32 tokens x 16 characters: char embedding 16, Conv1d
    widths 1..5 with 16, 32, 64, 128, 128 filters, max over characters,
    ReLU, two highway layers (368), Linear to 128; forward and backward
    LMs, each two LSTM layers of 256 projected to 128 (the second with a
    residual), the backward one on the reversed tokens (Gather); the
    scalar mix gamma * sum softmax(s)_l [fwd_l, bwd_l] of the token layer
    (duplicated) and the two LSTM layers.  Returns the ELMo vectors
    (N, 32, 256) and the top layer (N, 32, 256)."""

    def __init__(self, chars=262, char_dim=16, tokens=32, filters=((1, 16), (2, 32), (3, 64), (4, 128), (5, 128)),
                 proj=128, cell=256, layers=2):
        super().__init__()
        self.char = nn.Embedding(chars, char_dim)
        self.convs = nn.ModuleList([nn.Conv1d(char_dim, n, w) for w, n in filters])
        total = sum(n for _, n in filters)
        self.highway = nn.Sequential(_Highway(total), _Highway(total))
        self.proj = nn.Linear(total, proj)
        self.fwd = nn.ModuleList([nn.LSTM(proj, cell, batch_first=True) for _ in range(layers)])
        self.bwd = nn.ModuleList([nn.LSTM(proj, cell, batch_first=True) for _ in range(layers)])
        self.fwd_p = nn.ModuleList([nn.Linear(cell, proj) for _ in range(layers)])
        self.bwd_p = nn.ModuleList([nn.Linear(cell, proj) for _ in range(layers)])
        self.mix = nn.Parameter(torch.zeros(layers + 1))
        self.gamma = nn.Parameter(torch.ones(1))
        self.register_buffer("rev", torch.arange(tokens - 1, -1, -1))

    def _lm(self, x, lstms, projs):
        outs = []
        for i, (lstm, p) in enumerate(zip(lstms, projs)):
            h = p(lstm(x)[0])
            x = h + x if i > 0 else h
            outs.append(x)
        return outs

    def forward(self, chars):                     # (N, 32, 16) int64
        n_tok, n_chr = chars.shape[1], chars.shape[2]
        e = self.char(chars.reshape(-1, n_chr)).transpose(1, 2)             # (N T, 16, C)
        feats = torch.cat([F.relu(conv(e).max(-1).values) for conv in self.convs], -1)
        tok = self.proj(self.highway(feats)).view(-1, n_tok, self.proj.out_features)
        fw = self._lm(tok, self.fwd, self.fwd_p)
        bw = [o[:, self.rev] for o in self._lm(tok[:, self.rev], self.bwd, self.bwd_p)]
        layers = [torch.cat([tok, tok], -1)] + [torch.cat([f, b], -1) for f, b in zip(fw, bw)]
        w = torch.softmax(self.mix, 0)
        out = layers[0] * w[0]
        for i in range(1, len(layers)):
            out = out + layers[i] * w[i]
        return self.gamma * out, layers[-1]


class _GINLayer(nn.Module):
    """GIN layer: MLP((1 + eps) h + A h), MLP = Linear-BN-ReLU-Linear-BN-ReLU."""

    def __init__(self, cin, hid):
        super().__init__()
        self.eps = nn.Parameter(torch.zeros(1))
        self.fc1, self.fc2 = nn.Linear(cin, hid), nn.Linear(hid, hid)
        self.bn1, self.bn2 = nn.BatchNorm1d(hid), nn.BatchNorm1d(hid)

    def forward(self, h, adj):
        n_v = h.shape[1]
        x = (1.0 + self.eps) * h + torch.matmul(adj, h)
        x = F.relu(self.bn1(self.fc1(x).reshape(-1, self.fc1.out_features)))
        x = F.relu(self.bn2(self.fc2(x)))
        return x.view(-1, n_v, self.fc2.out_features)


class GINGraph(nn.Module):
    """GIN-0-style graph classifier (learned eps) on 96 nodes of 16
    features: five layers of 128; readout sum over nodes of the input and
    every layer, each through its own Linear to 10 classes, summed.
    Returns the class scores (N, 10) and the last node states
    (N, 96, 128)."""

    def __init__(self, feat=16, hidden=128, layers=5, classes=10):
        super().__init__()
        self.layers = nn.ModuleList([_GINLayer(feat if i == 0 else hidden, hidden) for i in range(layers)])
        self.heads = nn.ModuleList([nn.Linear(feat if i == 0 else hidden, classes) for i in range(layers + 1)])

    def forward(self, features, adjacency):       # (N, 96, 16), (N, 96, 96)
        h = features
        score = self.heads[0](h.sum(1))
        for layer, head in zip(self.layers, self.heads[1:]):
            h = layer(h, adjacency)
            score = score + head(h.sum(1))
        return score, h


class NARMSession(nn.Module):
    """NARM over sessions of 20 clicks (40000 items, id 0 padding, width
    50): GRU of 100; c_g = h_T; alpha_j = v^T sigmoid(A1 h_T + A2 h_j),
    padded clicks masked to zero; c_l = sum alpha_j h_j; scores =
    emb B [c_g; c_l] for every item (B: 200 -> 50, no bias), softmax, top
    20.  Returns the top-20 probabilities (N, 20), their ids (N, 20) and
    the session representation (N, 200)."""

    def __init__(self, items=40000, dim=50, hidden=100, top=20):
        super().__init__()
        self.top = top
        self.emb = nn.Embedding(items, dim)
        self.gru = nn.GRU(dim, hidden, batch_first=True)
        self.a1 = nn.Linear(hidden, hidden, bias=False)
        self.a2 = nn.Linear(hidden, hidden, bias=False)
        self.v = nn.Linear(hidden, 1, bias=False)
        self.b = nn.Linear(2 * hidden, dim, bias=False)

    def forward(self, session):                   # (N, 20) int64
        mask = (session > 0).float().unsqueeze(-1)
        hs, last = self.gru(self.emb(session))
        c_g = last[0]
        alpha = self.v(torch.sigmoid(self.a1(c_g).unsqueeze(1) + self.a2(hs))) * mask
        c_l = (alpha * hs).sum(1)
        c = torch.cat([c_g, c_l], -1)
        probs = torch.softmax(torch.matmul(self.b(c), self.emb.weight.t()), -1)
        top, ids = probs.topk(self.top, -1)
        return top, ids, c


class DeepDTAAffinity(nn.Module):
    """DeepDTA: SMILES (N, 100) over 64 symbols and protein (N, 1000) over 25
    residues, embeddings of 128, Conv1d 32, 64, 96 (kernels 4, 6, 8 and 4,
    8, 12; ReLU, no padding), global max pooling, concatenation (192),
    Linear 1024, 1024, 512 (ReLU) and 1.  Returns the affinity (N, 1) and
    the joint code (N, 192)."""

    def __init__(self, lig_vocab=64, prot_vocab=25, dim=128, filters=(32, 64, 96),
                 lig_k=(4, 6, 8), prot_k=(4, 8, 12)):
        super().__init__()
        self.lig_emb = nn.Embedding(lig_vocab, dim)
        self.prot_emb = nn.Embedding(prot_vocab, dim)

        def tower(ks):
            layers, cin = [], dim
            for f, k in zip(filters, ks):
                layers += [nn.Conv1d(cin, f, k), nn.ReLU()]
                cin = f
            return nn.Sequential(*layers)
        self.lig, self.prot = tower(lig_k), tower(prot_k)
        self.head = _mlp((2 * filters[-1], 1024, 1024, 512, 1))

    def forward(self, smiles, protein):           # (N, 100), (N, 1000) int64
        a = self.lig(self.lig_emb(smiles).transpose(1, 2)).max(-1).values
        b = self.prot(self.prot_emb(protein).transpose(1, 2)).max(-1).values
        code = torch.cat([a, b], -1)
        return self.head(code), code


class _ImpalaResidual(nn.Module):
    """IMPALA residual block: x + Conv(ReLU(Conv(ReLU(x))))."""

    def __init__(self, ch):
        super().__init__()
        self.c1, self.c2 = nn.Conv2d(ch, ch, 3, padding=1), nn.Conv2d(ch, ch, 3, padding=1)

    def forward(self, x):
        return x + self.c2(F.relu(self.c1(F.relu(x))))


class ImpalaAgent(nn.Module):
    """IMPALA deep network over 4 steps of 3 x 64 x 64: three sections (Conv
    3 x 3, MaxPool 3 x 3 stride 2 padding 1, two residual blocks) of 16,
    32, 32 channels to 32 x 8 x 8, ReLU, Linear 256 + ReLU, joined with the
    one-hot previous action (9), LSTM of 256, policy logits (9) and the
    baseline.  Returns the policy (N, 4, 9), the logits (N, 4, 9) and the
    baseline (N, 4, 1)."""

    def __init__(self, steps=4, actions=9, chans=(16, 32, 32), hidden=256, size=64):
        super().__init__()
        self.steps, self.size = steps, size
        layers, cin = [], 3
        for c in chans:
            layers += [nn.Conv2d(cin, c, 3, padding=1), nn.MaxPool2d(3, 2, 1), _ImpalaResidual(c), _ImpalaResidual(c)]
            cin = c
        side = size // 2 ** len(chans)
        self.torso = nn.Sequential(*layers, nn.ReLU(), nn.Flatten(), nn.Linear(cin * side * side, hidden), nn.ReLU())
        self.register_buffer("onehot", torch.eye(actions))
        self.core = nn.LSTM(hidden + actions, hidden, batch_first=True)
        self.policy = nn.Linear(hidden, actions)
        self.baseline = nn.Linear(hidden, 1)

    def forward(self, frames, last_action):       # (N, 4, 3, 64, 64), (N, 4) int64
        z = self.torso(frames.reshape(-1, 3, self.size, self.size)).view(-1, self.steps, self.torso[-2].out_features)
        h, _ = self.core(torch.cat([z, self.onehot[last_action]], -1))
        logits = self.policy(h)
        return torch.softmax(logits, -1), logits, self.baseline(h)


class DeepARForecast(nn.Module):
    """DeepAR: history z (N, 168), covariates x (N, 192, 4); scale nu = 1 +
    mean(z); the step input [z_{t-1} / nu, x_t, log nu]; a 2-layer LSTM of
    40 over the 168 conditioning steps; then 24 ancestral steps of 8
    sample paths (the state repeated), each mu = Linear(h), sigma =
    softplus(Linear(h)), z = mu + sigma eps (eps a fixed buffer), fed
    back.  Returns the sample paths (N, 8, 24) and their mean (N, 24),
    rescaled by nu."""

    def __init__(self, history=168, horizon=24, covariates=4, hidden=40, layers=2, paths=8):
        super().__init__()
        self.history, self.horizon, self.paths = history, horizon, paths
        self.rnn = nn.LSTM(covariates + 2, hidden, layers, batch_first=True)
        self.mu = nn.Linear(hidden, 1)
        self.sigma = nn.Linear(hidden, 1)
        self.register_buffer("eps", torch.randn(horizon, paths, 1))

    def forward(self, history, covariates):       # (N, 168), (N, 192, 4)
        nu = 1.0 + history.abs().mean(1, keepdim=True)                      # (N, 1)
        z = history / nu
        lag = torch.cat([torch.zeros_like(z[:, :1]), z[:, :-1]], 1).unsqueeze(-1)
        lognu = torch.log(nu).unsqueeze(1)
        past = covariates[:, :self.history]
        inp = torch.cat([lag, past, lognu.expand(-1, self.history, -1)], -1)
        _, (h, c) = self.rnn(inp)
        n_l, hid = h.shape[0], h.shape[2]
        h = h.unsqueeze(2).expand(-1, -1, self.paths, -1).reshape(n_l, -1, hid)
        c = c.unsqueeze(2).expand(-1, -1, self.paths, -1).reshape(n_l, -1, hid)
        prev = z[:, -1:].unsqueeze(1).expand(-1, self.paths, -1).reshape(-1, 1)     # (N P, 1)
        fut = covariates[:, self.history:].unsqueeze(1).expand(-1, self.paths, -1, -1)
        fut = fut.reshape(-1, self.horizon, covariates.shape[-1])
        lnu = lognu.expand(-1, self.paths, -1).reshape(-1, 1)
        samples = []
        for t in range(self.horizon):
            step = torch.cat([prev, fut[:, t], lnu], -1).unsqueeze(1)
            out, (h, c) = self.rnn(step, (h, c))
            o = out[:, 0]
            mu, sigma = self.mu(o), F.softplus(self.sigma(o))
            prev = (mu.view(-1, self.paths, 1) + sigma.view(-1, self.paths, 1) * self.eps[t]).view(-1, 1)
            samples.append(prev)
        paths = torch.cat(samples, 1).view(-1, self.paths, self.horizon) * nu.unsqueeze(1)
        return paths, paths.mean(1)


class _CondBN(nn.Module):
    """Class-conditional BatchNorm (BigGAN-PyTorch's ccbn at inference): x
    normalised by the stored mean and variance, times 1 + gain(y), plus
    bias(y), both Linear maps of the conditioning vector."""

    def __init__(self, ch, cond, eps=1.0e-5):
        super().__init__()
        self.eps = eps
        self.gain = nn.Linear(cond, ch, bias=False)
        self.bias = nn.Linear(cond, ch, bias=False)
        self.register_buffer("stored_mean", 0.1 * torch.randn(ch).view(1, ch, 1, 1))
        self.register_buffer("stored_var", (1.0 + 0.1 * torch.rand(ch)).view(1, ch, 1, 1))

    def forward(self, x, y):
        scale = (1.0 + self.gain(y)).unsqueeze(-1).unsqueeze(-1) * torch.rsqrt(self.stored_var + self.eps)
        return (x - self.stored_mean) * scale + self.bias(y).unsqueeze(-1).unsqueeze(-1)


class _GBlock(nn.Module):
    """BigGAN up-block: CBN, ReLU, nearest x2, Conv 3 x 3, CBN, ReLU, Conv
    3 x 3; skip: nearest x2, Conv 1 x 1."""

    def __init__(self, cin, cout, cond):
        super().__init__()
        self.bn1, self.bn2 = _CondBN(cin, cond), _CondBN(cout, cond)
        self.c1, self.c2 = nn.Conv2d(cin, cout, 3, padding=1), nn.Conv2d(cout, cout, 3, padding=1)
        self.sc = nn.Conv2d(cin, cout, 1)

    def forward(self, x, y):
        h = F.interpolate(F.relu(self.bn1(x, y)), scale_factor=2.0, mode="nearest")
        h = self.c2(F.relu(self.bn2(self.c1(h), y)))
        return h + self.sc(F.interpolate(x, scale_factor=2.0, mode="nearest"))


class _SelfAttention2d(nn.Module):
    """BigGAN's non-local block: theta (C / 8), phi (C / 8) and g (C / 2) by
    1 x 1 Convs, phi and g max-pooled 2 x 2, softmax attention, 1 x 1 Conv
    back, scaled by a learned gamma."""

    def __init__(self, ch):
        super().__init__()
        self.theta, self.phi = nn.Conv2d(ch, ch // 8, 1, bias=False), nn.Conv2d(ch, ch // 8, 1, bias=False)
        self.g, self.o = nn.Conv2d(ch, ch // 2, 1, bias=False), nn.Conv2d(ch // 2, ch, 1, bias=False)
        self.gamma = nn.Parameter(torch.tensor(0.1))

    def forward(self, x):
        h, w = x.shape[2], x.shape[3]
        th = self.theta(x).flatten(2)                                       # (N, C/8, HW)
        ph = F.max_pool2d(self.phi(x), 2).flatten(2)                        # (N, C/8, HW/4)
        g = F.max_pool2d(self.g(x), 2).flatten(2)                           # (N, C/2, HW/4)
        beta = torch.softmax(torch.matmul(th.transpose(1, 2), ph), -1)      # (N, HW, HW/4)
        o = torch.matmul(g, beta.transpose(1, 2)).view(-1, self.g.out_channels, h, w)
        return x + self.gamma * self.o(o)


class BigGANGenerator(nn.Module):
    """BigGAN 64 x 64 generator at ch = 8: z (120) split in five chunks of
    24; Linear(24 -> 4 x 4 x 128); shared class embedding 128, each block's
    conditioning [shared, z chunk] (152); GBlocks 128 -> 128 -> 64 -> 32 ->
    16 (8, 16, 32, 64), self-attention after the 32 x 32 block; BN, ReLU,
    Conv 3 x 3 -> 3, tanh.  Returns the image (N, 3, 64, 64)."""

    def __init__(self, ch=8, z_dim=120, classes=1000, shared=128, mults=(16, 16, 8, 4, 2), attn_at=32):
        super().__init__()
        self.chunk = z_dim // len(mults)
        self.c0 = ch * mults[0]
        self.shared = nn.Embedding(classes, shared)
        self.linear = nn.Linear(self.chunk, 4 * 4 * self.c0)
        cond = shared + self.chunk
        self.blocks = nn.ModuleList()
        self.attn = nn.ModuleList()
        res = 4
        for i in range(len(mults) - 1):
            self.blocks.append(_GBlock(ch * mults[i], ch * mults[i + 1], cond))
            res *= 2
            self.attn.append(_SelfAttention2d(ch * mults[i + 1]) if res == attn_at else nn.Identity())
        self.out = nn.Sequential(nn.BatchNorm2d(ch * mults[-1]), nn.ReLU(), nn.Conv2d(ch * mults[-1], 3, 3, padding=1),
                                 nn.Tanh())

    def forward(self, z, label):                  # (N, 120), (N,) int64
        zs = torch.split(z, self.chunk, 1)
        y = self.shared(label)
        h = self.linear(zs[0]).view(-1, self.c0, 4, 4)
        for i, (block, attn) in enumerate(zip(self.blocks, self.attn)):
            h = attn(block(h, torch.cat([y, zs[i + 1]], 1)))
        return self.out(h)


BLIND39 = {
    "griffin_lim_recon": dict(ctor=GriffinLimRecon, family="fast-griffin-lim-stft-phase-reconstruction",
                              inputs=[("logmel", ("N", 64, 32), "float32", None)]),
    "luby_mis_graph": dict(ctor=LubyMISGraph, family="luby-randomised-maximal-independent-set",
                           inputs=[("points", ("N", 96, 2), "float32", None)]),
    "lasso_coord_descent": dict(ctor=LassoCoordDescent, family="pathwise-coordinate-descent-lasso",
                                inputs=[("signal", ("N", 64), "float32", None)]),
    "hed_edges": dict(ctor=HEDEdges, family="holistically-nested-deeply-supervised-edges",
                      inputs=[("image", ("N", 3, 96, 96), "float32", None)]),
    "panns_wavegram_logmel": dict(ctor=PANNsWavegramLogmel, family="wavegram-logmel-cnn14-audio-tagging",
                                  inputs=[("audio", ("N", 1, 16000), "float32", None)]),
    "elmo_bilm": dict(ctor=ELMoBiLM, family="char-cnn-highway-bilm-scalar-mix",
                      inputs=[("chars", ("N", 32, 16), "int64", 262)]),
    "gin_graph": dict(ctor=GINGraph, family="graph-isomorphism-sum-aggregation",
                      inputs=[("features", ("N", 96, 16), "float32", None),
                              ("adjacency", ("N", 96, 96), "float32", None)]),
    "narm_session": dict(ctor=NARMSession, family="neural-attentive-session-gru-bilinear-rec",
                         inputs=[("session", ("N", 20), "int64", 40000)]),
    "deepdta_affinity": dict(ctor=DeepDTAAffinity, family="dual-1d-cnn-drug-target-affinity",
                             inputs=[("smiles", ("N", 100), "int64", 64),
                                     ("protein", ("N", 1000), "int64", 25)]),
    "impala_agent": dict(ctor=ImpalaAgent, family="impala-residual-torso-lstm-actor-critic",
                         inputs=[("frames", ("N", 4, 3, 64, 64), "float32", None),
                                 ("last_action", ("N", 4), "int64", 9)]),
    "deepar_forecast": dict(ctor=DeepARForecast, family="autoregressive-lstm-gaussian-sample-paths",
                            inputs=[("history", ("N", 168), "float32", None),
                                    ("covariates", ("N", 192, 4), "float32", None)]),
    "biggan_generator": dict(ctor=BigGANGenerator, family="class-conditional-bn-self-attention-gan",
                             inputs=[("latent", ("N", 120), "float32", None),
                                     ("label", ("N",), "int64", 1000)]),
}
