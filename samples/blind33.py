r"""BLIND33: the thirty-third blind set, written on 2026-12-07 by a helper
session before any of it was measured.  Nothing in it has been timed,
profiled or run through onnxcost predict; it is to be measured first and
scored once only, at the end, with the code as it stands then
(bench/zoo_accuracy.py --set blind33).  None of its twelve families occurs
in another set (ZOO, BLIND, BLIND2 ... BLIND32, the reference models), so
no plan rule, feature, fit or calibration can have been made with any of
them in view.

Three families unroll a classical procedure into a fixed graph of small
kernels (several hundred to about two thousand nodes each, Constants
included), each with a small learned part:

  * Halftoning by error diffusion (R. W. Floyd & L. Steinberg, "An
    Adaptive Algorithm for Spatial Greyscale", 1976): a small Conv net
    turns a colour image into a 32 x 32 grey tone map, which is then
    thresholded pixel by pixel in raster order, each pixel's
    quantisation error being pushed onto its four unvisited neighbours
    with weights 7, 3, 5 and 1 sixteenths.  The raster order is replaced
    by the equivalent wavefront order (all pixels with equal 2i + j are
    independent), so the scan is 94 steps over a padded, pixel-major
    copy of the map, each a Gather of the front, a threshold, and two
    ScatterElements (the front's bits with the right-hand error, then
    the three errors of the row below).  The binary image, logits of a
    strided Conv classifier over it and the tone map, and the blurred
    reconstruction error come out.
  * Fictitious play (G. W. Brown, "Iterative Solution of Games by
    Fictitious Play", 1951; J. Robinson, "An Iterative Method of Solving
    a Game", 1951) on a two-player zero-sum game: an MLP maps a feature
    vector to a 32 x 32 payoff matrix (tanh), and 120 alternating rounds
    follow, in each of which the row player best-responds to the
    opponent's empirical mixture so far (a MatMul, ArgMax, OneHot) and
    the column player then does the same against the updated row counts
    (ArgMin).  The two empirical mixed strategies, the upper and lower
    bounds on the value of the game they certify and logits of an MLP
    over all of them come out.
  * Normalised least-mean-squares echo cancellation (B. Widrow &
    M. E. Hoff, "Adaptive Switching Circuits", 1960; the step normalised
    by the input power as in J. Nagumo & A. Noda, "A Learning Method for
    System Identification", 1967): for each of four microphones a
    48-tap adaptive FIR filter models the echo path from the shared
    far-end signal and is adapted sample by sample for 160 samples
    (prediction, error, update scaled by the step over the tap-vector
    energy).  The tap vectors of all instants come from one Conv1d with
    a fixed shifting kernel; a small Conv1d net picks each microphone's
    step size from the signals.  The echo residuals, the final taps,
    each microphone's echo return loss enhancement in dB and logits of
    a Conv1d classifier over all the signals come out.

The other nine are published network designs of ordinary sizes:

  * DRAW (Gregor, Danihelka, Graves, Rezende & Wierstra, "DRAW: A
    Recurrent Neural Network For Image Generation", 2015): a recurrent
    variational autoencoder that reads and writes a 28 x 28 canvas
    through 5 x 5 grids of Gaussian filters whose centre, stride, width
    and intensity each step's decoder state chooses (filterbank matrices
    built with Exp and normalised, applied as batched MatMuls), LSTM
    cells of 256 for encoder and decoder, a 16-dimensional latent drawn
    with fixed noise, ten steps.  The final canvas (sigmoid) and the
    summed KL term come out.
  * Social LSTM (Alahi, Goel, Ramanathan, Robicquet, Fei-Fei & Savarese,
    "Social LSTM: Human Trajectory Prediction in Crowded Spaces", 2016):
    16 pedestrians per scene, one LSTM cell of 128 shared by all, whose
    input joins an embedding of the position and an embedding of a
    social tensor: the hidden states of the neighbours pooled into a 4 x
    4 grid of cells around each pedestrian (grid cells by Floor of
    relative positions, OneHot masks, one MatMul per step); 8 observed
    steps, then 12 predicted ones fed back from the mean of the
    bivariate Gaussian the cell emits.
  * Mixture of softmaxes language model (Yang, Dai, Salakhutdinov &
    Cohen, "Breaking the Softmax Bottleneck: A High-Rank RNN Language
    Model", 2018): a two-layer LSTM of 384 over 24 tokens of a
    3000-word vocabulary, whose output is projected to four tanh
    contexts, each giving a softmax over the vocabulary through the tied
    embedding, mixed with weights from a prior softmax; the log of the
    mixture and the mean negative log-likelihood of the next tokens
    (GatherElements) come out.
  * PointRend (Kirillov, Wu, He & Girshick, "PointRend: Image
    Segmentation as Rendering", 2020) on a small residual backbone: a
    coarse 21-class prediction at 1/8 of a 128 x 128 image is refined in
    three subdivision steps, each a bilinear 2x upsampling (Resize), the
    256 least certain cells (gap between the two best classes, TopK),
    fine features of the 1/4 map sampled bilinearly at those points
    (GatherElements), a point-wise MLP (Conv1d) that sees the coarse
    prediction at every layer, and the new predictions scattered back
    (ScatterElements).
  * SpiralNet++ (Gong, Chen, Bronstein & Zafeiriou, "SpiralNet++: A Fast
    and Highly Efficient Mesh Convolution Operator", 2019) as a mesh
    autoencoder: a triangulated torus of 32 x 48 vertices coarsened
    three times by factors of four, each spiral convolution gathering
    for every vertex a fixed spiral of nine vertices (itself, its ring,
    two of the next ring, the starting direction varying from vertex to
    vertex) and applying one Linear to the concatenation; pooling and
    unpooling by fixed dense matrices (MatMul); ELU; a 64-dimensional
    code.
  * EEGNet (Lawhern, Solon, Waytowich, Gordon, Hung & Lance, "EEGNet: A
    Compact Convolutional Neural Network for EEG-based Brain-Computer
    Interfaces", 2018), EEGNet-8,2 on 64 electrodes by 512 samples: a
    temporal Conv2d of 8 filters of 64 samples, a depthwise Conv2d
    across all electrodes (depth multiplier 2), BatchNorm, ELU, average
    pooling, a separable convolution (depthwise 1 x 16, pointwise) and a
    Linear classifier of 4 classes.
  * WaveRNN (Kalchbrenner, Elsen, Simonyan, Noury, Casagrande, Lockhart,
    Stimberg, van den Oord, Dieleman & Kavukcuoglu, "Efficient Neural
    Audio Synthesis", 2018): a single GRU-like cell of 384 whose state is
    split into a coarse and a fine half, the 16-bit sample being
    generated as two 8-bit halves by two softmax heads, the fine half
    conditioned on the coarse byte just chosen (ArgMax, greedy); the
    conditioning comes from 5 frames of an 80-bin mel spectrogram,
    upsampled by a ConvTranspose1d; 40 samples are unrolled.
  * Deep Koopman autoencoder (Lusch, Kutz & Brunton, "Deep Learning for
    Universal Linear Embeddings of Nonlinear Dynamics", 2018): an MLP
    encodes a 128-dimensional state to four complex-conjugate
    coordinate pairs, auxiliary networks (grouped 1 x 1 Conv1d, one
    group per pair) give each pair's growth rate and frequency from its
    radius, and 40 steps of the resulting block-diagonal rotation and
    scaling (Exp, Cos, Sin) advance the code; an MLP decodes all 41
    codes at once.
  * ConvE (Dettmers, Minervini, Stenetorp & Riedel, "Convolutional 2D
    Knowledge Graph Embeddings", 2018): for 32 (subject, relation)
    queries per sample, the two 200-dimensional embeddings are reshaped
    to 10 x 20 images, stacked, batch-normalised, convolved by 32
    filters of 3 x 3, projected back to 200 dimensions and scored
    against all 8000 entity embeddings (sigmoid); the ten best entities
    (TopK) come out as well.

To be measured with

    OMP_WAIT_POLICY=PASSIVE /usr/bin/python3 scripts/measure_zoo.py --set blind33 \
        floyd_steinberg_halftone fictitious_play_game nlms_echo_cancel \
        draw_canvas social_lstm_traj mos_lstm_lm pointrend_seg \
        spiralnet_mesh_ae eegnet_bci wavernn_vocoder koopman_ae conve_kg \
        --threads 1 2 --batches 1 4 16

Same table form as export.py's ZOO (ctor, family, inputs); exported by
scripts/ort_graphs.py's export() (opset 13, symbolic batch N).  The file was
written by a helper before anything measured or predicted it.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F


def _cbr(cin, cout, k=3, stride=1):
    """Conv2d without bias, BatchNorm, ReLU ('same' padding for odd k)."""
    return nn.Sequential(nn.Conv2d(cin, cout, k, stride, k // 2, bias=False),
                         nn.BatchNorm2d(cout), nn.ReLU())


def _mlp(sizes, act=nn.ReLU, last_act=False):
    """Linear layers of the given sizes with an activation between them."""
    layers = []
    for i in range(len(sizes) - 1):
        layers.append(nn.Linear(sizes[i], sizes[i + 1]))
        if i < len(sizes) - 2 or last_act:
            layers.append(act())
    return nn.Sequential(*layers)


# --------------------------------------------------------------------------
# Unrolled classical procedures with a small learned part
# --------------------------------------------------------------------------

class FloydSteinbergHalftone(nn.Module):
    """Floyd-Steinberg error diffusion of a learned 32 x 32 tone map, in
    wavefront order t = 2i + j (94 fronts).  The map is kept pixel-major,
    (P, N) with P = 33 x 34 (a padding column each side and a padding row
    below absorb the errors that leave the image).  Returns the halftone
    (N, 1, 32, 32), class logits (N, 10) and the mean squared error of
    the 3 x 3 blurred halftone against the tone map (N, 1)."""

    def __init__(self, size=32, hidden=24, classes=10):
        super().__init__()
        self.size = size
        self.tone = nn.Sequential(_cbr(3, hidden, 3, 2), _cbr(hidden, hidden),
                                  nn.Conv2d(hidden, 1, 3, padding=1), nn.Sigmoid())
        self.cls = nn.Sequential(_cbr(2, 32, 3, 2), _cbr(32, 64, 3, 2), _cbr(64, 64, 3, 2),
                                 nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(64, classes))
        width = size + 2
        self.fronts = 3 * (size - 1) + 1
        self.counts = []
        for t in range(self.fronts):
            pix = [i * width + (t - 2 * i) + 1 for i in range(size) if 0 <= t - 2 * i < size]
            below = [p + width + d for p in pix for d in (-1, 0, 1)]
            self.register_buffer(f"pix{t}", torch.tensor(pix, dtype=torch.long))
            self.register_buffer(f"right{t}", torch.tensor([p + 1 for p in pix], dtype=torch.long))
            self.register_buffer(f"put{t}", torch.tensor(pix + [p + 1 for p in pix], dtype=torch.long).view(-1, 1))
            self.register_buffer(f"below{t}", torch.tensor(below, dtype=torch.long))
            self.register_buffer(f"below2d{t}", torch.tensor(below, dtype=torch.long).view(-1, 1))
            self.counts.append(len(below))
        self.register_buffer("w3", torch.tensor([3.0, 5.0, 1.0]).view(1, 3, 1) / 16.0)

    def forward(self, image):                     # (N, 3, 64, 64)
        s = self.size
        tone = self.tone(image)                                             # (N, 1, s, s)
        g = F.pad(tone, (1, 1, 0, 1)).flatten(1).t()                        # (P, N)
        batch = torch.zeros_like(g[:1]).long()                              # (1, N) int64
        for t in range(self.fronts):
            v = g[getattr(self, f"pix{t}")]                                 # (K, N)
            q = (v > 0.5).to(v.dtype)
            e = v - q
            right = getattr(self, f"right{t}")
            put = getattr(self, f"put{t}") + batch                          # (2K, N)
            g = g.scatter(0, put, torch.cat([q, g[right] + 0.4375 * e], 0))
            below = getattr(self, f"below{t}")
            spread = (e.unsqueeze(1) * self.w3).reshape(self.counts[t], -1)   # (3K, N)
            g = g.scatter(0, getattr(self, f"below2d{t}") + batch, g[below] + spread)
        half = g.t().reshape(-1, 1, s + 1, s + 2)[:, :, :s, 1:s + 1]
        logits = self.cls(torch.cat([half, tone], 1))
        blur = F.avg_pool2d(half, 3, 1, 1, count_include_pad=False)
        err = ((blur - tone) ** 2).flatten(1).mean(1, keepdim=True)
        return half, logits, err


class FictitiousPlayGame(nn.Module):
    """Alternating fictitious play on a 32 x 32 zero-sum game whose payoff
    matrix (row player maximises) an MLP makes from the features; the
    counts start from a uniform prior of one play.  Returns the empirical
    mixtures of the row and column players (N, 32) each, the bounds
    [min_j (x A)_j, max_i (A y)_i] on the game's value (N, 2) and class
    logits (N, 10)."""

    def __init__(self, features=64, strategies=32, hidden=256, rounds=120, classes=10):
        super().__init__()
        self.m, self.rounds = strategies, rounds
        self.gen = _mlp((features, hidden, hidden, strategies * strategies))
        self.head = _mlp((2 * strategies + 2, hidden, classes))
        self.register_buffer("prior", torch.full((1, 1, strategies), 1.0 / strategies))

    def forward(self, features):                  # (N, 64)
        m = self.m
        a = torch.tanh(self.gen(features)).view(-1, m, m)                   # (N, m, m)
        at = a.transpose(1, 2)
        x = torch.zeros_like(a[:, :1]) + self.prior                         # (N, 1, m) row counts
        y = torch.zeros_like(a[:, :1]) + self.prior                         # (N, 1, m) column counts
        for _ in range(self.rounds):
            best_row = torch.matmul(y, at).argmax(-1)                       # (N, 1)
            x = x + F.one_hot(best_row, m).to(x.dtype)
            best_col = torch.matmul(x, a).argmin(-1)
            y = y + F.one_hot(best_col, m).to(y.dtype)
        x = x / x.sum(-1, keepdim=True)
        y = y / y.sum(-1, keepdim=True)
        upper = torch.matmul(y, at).max(-1).values                          # (N, 1)
        lower = torch.matmul(x, a).min(-1).values
        bounds = torch.cat([lower, upper], 1)
        x, y = x.reshape(-1, m), y.reshape(-1, m)
        logits = self.head(torch.cat([x, y, bounds], 1))
        return x, y, bounds, logits


class NLMSEchoCancel(nn.Module):
    """Normalised LMS echo cancellers for a 4-microphone array sharing one
    far-end reference, 48 taps each, 160 samples: at each instant the
    predictions w_m . x_t, the errors e_m = d_m - w_m . x_t and the
    updates w_m += mu_m e_m x_t / (|x_t|^2 + eps), mu_m in (0, 1) chosen
    per microphone by a small Conv1d net.  Returns the residuals
    (N, 4, 160), the final taps (N, 4, 48), the echo return loss
    enhancement of each microphone over the second half in dB (N, 4)
    and class logits (N, 8)."""

    def __init__(self, samples=160, taps=48, mics=4, eps=1.0e-3, classes=8):
        super().__init__()
        self.samples, self.taps, self.mics, self.eps = samples, taps, mics, eps
        shift = torch.zeros(taps, 1, taps)
        for k in range(taps):
            shift[k, 0, taps - 1 - k] = 1.0       # tap k holds x[t - k]
        self.register_buffer("shift", shift)
        self.step = nn.Sequential(nn.Conv1d(mics + 1, 32, 9, stride=4, padding=4), nn.ReLU(),
                                  nn.Conv1d(32, 32, 5, stride=2, padding=2), nn.ReLU(),
                                  nn.AdaptiveAvgPool1d(1), nn.Flatten(), nn.Linear(32, mics), nn.Sigmoid())
        self.cls = nn.Sequential(nn.Conv1d(2 * mics + 1, 64, 7, padding=3), nn.ReLU(),
                                 nn.Conv1d(64, 128, 5, stride=2, padding=2), nn.ReLU(),
                                 nn.Conv1d(128, 128, 5, stride=2, padding=2), nn.ReLU(),
                                 nn.AdaptiveAvgPool1d(1), nn.Flatten(), nn.Linear(128, classes))

    def forward(self, far, mic):                  # (N, 160), (N, 4, 160)
        sig = torch.cat([far.unsqueeze(1), mic], 1)                         # (N, M + 1, T)
        mu = self.step(sig).unsqueeze(-1)                                   # (N, M, 1)
        xs = F.conv1d(F.pad(far.unsqueeze(1), (self.taps - 1, 0)), self.shift)  # (N, L, T)
        power = (xs * xs).sum(1, keepdim=True) + self.eps                   # (N, 1, T)
        xt = xs.permute(2, 0, 1).unsqueeze(2)                               # (T, N, 1, L)
        dt = mic.permute(2, 0, 1).unsqueeze(-1)                             # (T, N, M, 1)
        st = (mu / power).permute(2, 0, 1).unsqueeze(-1)                    # (T, N, M, 1)
        w = torch.zeros_like(mic[:, :, :1]) * xt[0]                         # (N, M, L)
        errs = []
        for t in range(self.samples):
            x = xt[t]
            e = dt[t] - (w * x).sum(-1, keepdim=True)                       # (N, M, 1)
            w = w + (e * st[t]) * x
            errs.append(e)
        res = torch.cat(errs, 2)                                            # (N, M, T)
        half = self.samples // 2
        erle = 10.0 * torch.log10((mic[:, :, half:] ** 2).mean(2) + 1.0e-8) \
            - 10.0 * torch.log10((res[:, :, half:] ** 2).mean(2) + 1.0e-8)
        logits = self.cls(torch.cat([sig, res], 1))
        return res, w, erle, logits


# --------------------------------------------------------------------------
# Published network designs
# --------------------------------------------------------------------------

class DRAWCanvas(nn.Module):
    """DRAW with attention: 28 x 28 images, read and write grids 5 x 5,
    encoder and decoder LSTM cells of 256, latent 16 (fixed noise), 10
    steps.  Returns the canvas sigmoid (N, 1, 28, 28) and the KL term
    summed over the steps (N, 1)."""

    def __init__(self, size=28, grid=5, rnn=256, latent=16, steps=10):
        super().__init__()
        self.size, self.grid, self.steps = size, grid, steps
        self.enc = nn.LSTMCell(2 * grid * grid + rnn, rnn)
        self.dec = nn.LSTMCell(latent, rnn)
        self.read_att = nn.Linear(rnn, 5)
        self.write_att = nn.Linear(rnn, 5)
        self.write = nn.Linear(rnn, grid * grid)
        self.post = nn.Linear(rnn, 2 * latent)
        g = torch.Generator().manual_seed(33)
        self.register_buffer("noise", torch.randn(steps, 1, latent, generator=g))
        self.register_buffer("offs", (torch.arange(grid, dtype=torch.float32) - grid / 2.0 + 0.5).view(1, grid))
        self.register_buffer("pix", torch.arange(size, dtype=torch.float32).view(1, 1, size))
        self.register_buffer("zrnn", torch.zeros(1, rnn))
        self.register_buffer("zcanvas", torch.zeros(1, size, size))

    def _filters(self, h, att):
        px, py, logvar, logdelta, loggamma = att(h).split(1, 1)             # (N, 1) each
        gx = (self.size + 1) / 2.0 * (px + 1.0)
        gy = (self.size + 1) / 2.0 * (py + 1.0)
        var = torch.exp(logvar).unsqueeze(-1)                               # (N, 1, 1)
        delta = (self.size - 1) / (self.grid - 1) * torch.exp(logdelta)
        gamma = torch.exp(loggamma).unsqueeze(-1)
        mx = (gx + self.offs * delta).unsqueeze(-1)                         # (N, G, 1)
        my = (gy + self.offs * delta).unsqueeze(-1)
        fx = torch.exp(-((self.pix - mx) ** 2) / (2.0 * var))              # (N, G, A)
        fy = torch.exp(-((self.pix - my) ** 2) / (2.0 * var))
        fx = fx / (fx.sum(-1, keepdim=True) + 1.0e-8)
        fy = fy / (fy.sum(-1, keepdim=True) + 1.0e-8)
        return fx, fy, gamma

    def forward(self, image):                     # (N, 1, 28, 28)
        x = image.squeeze(1)                                                # (N, B, A)
        z0 = torch.zeros_like(x[:, 0, :1])                                  # (N, 1)
        he, ce, hd, cd = z0 + self.zrnn, z0 + self.zrnn, z0 + self.zrnn, z0 + self.zrnn
        canvas = z0.unsqueeze(-1) + self.zcanvas                            # (N, B, A)
        kl = z0
        for t in range(self.steps):
            err = x - torch.sigmoid(canvas)
            fx, fy, gamma = self._filters(hd, self.read_att)
            both = torch.stack([x, err], 1)                                 # (N, 2, B, A)
            r = torch.matmul(torch.matmul(fy.unsqueeze(1), both), fx.transpose(1, 2).unsqueeze(1))
            r = (gamma.unsqueeze(1) * r).flatten(1)                         # (N, 2 G G)
            he, ce = self.enc(torch.cat([r, hd], 1), (he, ce))
            mu, logsd = self.post(he).chunk(2, 1)
            z = mu + torch.exp(logsd) * self.noise[t]
            kl = kl + 0.5 * (mu * mu + torch.exp(2.0 * logsd) - 2.0 * logsd - 1.0).sum(1, keepdim=True)
            hd, cd = self.dec(z, (hd, cd))
            wx, wy, wgamma = self._filters(hd, self.write_att)
            patch = self.write(hd).view(-1, self.grid, self.grid)
            canvas = canvas + torch.matmul(torch.matmul(wy.transpose(1, 2), patch), wx) / wgamma
        return torch.sigmoid(canvas).unsqueeze(1), kl


class SocialLSTMTraj(nn.Module):
    """Social LSTM: 16 pedestrians, 8 observed and 12 predicted steps,
    position embedding 64, social tensor over a 4 x 4 grid of width 2.0
    around each pedestrian (its neighbours' hidden states summed per
    cell) embedded to 64, LSTM cell 128, bivariate Gaussian output
    (mean, log standard deviations, tanh correlation).  Returns the
    predicted positions (N, 12, 16, 2) and the Gaussian parameters of
    the predicted steps (N, 12, 16, 5)."""

    def __init__(self, peds=16, observed=8, predicted=12, embed=64, rnn=128, grid=4, extent=2.0):
        super().__init__()
        self.peds, self.obs, self.pred = peds, observed, predicted
        self.rnn, self.grid, self.extent = rnn, grid, extent
        self.pos_embed = nn.Sequential(nn.Linear(2, embed), nn.ReLU())
        self.soc_embed = nn.Sequential(nn.Linear(grid * grid * rnn, embed), nn.ReLU())
        self.cell = nn.LSTMCell(2 * embed, rnn)
        self.out = nn.Linear(rnn, 5)
        self.register_buffer("others", (1.0 - torch.eye(peds)).view(1, peds, peds, 1))
        self.register_buffer("zrnn", torch.zeros(1, 1, rnn))

    def forward(self, traj):                      # (N, 8, 16, 2)
        p, g, hdim = self.peds, self.grid, self.rnn
        z = torch.zeros_like(traj[:, 0, :, :1])                             # (N, P, 1)
        h, c = (z + self.zrnn).reshape(-1, hdim), (z + self.zrnn).reshape(-1, hdim)
        pos = traj[:, 0]
        preds, params = [], []
        for t in range(self.obs + self.pred - 1):
            if t < self.obs:
                pos = traj[:, t]                                            # (N, P, 2)
            rel = pos.unsqueeze(1) - pos.unsqueeze(2)                       # (N, P, P, 2): j - i
            cell = torch.floor((rel + 0.5 * self.extent) * (g / self.extent))
            ok = ((cell >= 0) & (cell < g)).to(rel.dtype)
            inside = ok[..., :1] * ok[..., 1:] * self.others                # (N, P, P, 1)
            cell = cell.clamp(0, g - 1)
            idx = (cell[..., 0] * g + cell[..., 1]).long()                  # (N, P, P)
            mask = F.one_hot(idx, g * g).to(rel.dtype) * inside             # (N, P, P, G2)
            hs = h.view(-1, p, hdim)
            soc = torch.matmul(mask.transpose(2, 3).reshape(-1, p * g * g, p), hs)   # (N, P G2, H)
            soc = self.soc_embed(soc.reshape(-1, g * g * hdim))             # (N P, E)
            inp = torch.cat([self.pos_embed(pos.reshape(-1, 2)), soc], 1)
            h, c = self.cell(inp, (h, c))
            o = self.out(h).view(-1, p, 5)
            mean = pos + o[..., :2]
            if t >= self.obs - 1:
                pos = mean
                preds.append(mean)
                params.append(torch.cat([mean, o[..., 2:4], torch.tanh(o[..., 4:])], -1))
        return torch.stack(preds, 1), torch.stack(params, 1)


class MoSLSTMLM(nn.Module):
    """Mixture-of-softmaxes LSTM language model: vocabulary 3000,
    embedding 256 (tied with the output), 2-layer LSTM 384, 4 mixture
    components of tanh contexts of 256.  Returns the log-probabilities
    (N, 24, 3000) and the mean next-token negative log-likelihood (N, 1)."""

    def __init__(self, vocab=3000, emb=256, rnn=384, layers=2, mixtures=4, seq=24):
        super().__init__()
        self.emb_dim, self.k, self.seq = emb, mixtures, seq
        self.embed = nn.Embedding(vocab, emb)
        self.lstm = nn.LSTM(emb, rnn, layers, batch_first=True)
        self.latent = nn.Linear(rnn, mixtures * emb)
        self.prior = nn.Linear(rnn, mixtures, bias=False)
        self.bias = nn.Parameter(torch.zeros(vocab))

    def forward(self, tokens):                    # (N, 24) int64
        h, _ = self.lstm(self.embed(tokens))                                # (N, L, H)
        ctx = torch.tanh(self.latent(h)).view(-1, self.seq, self.k, self.emb_dim)
        logits = torch.matmul(ctx, self.embed.weight.t()) + self.bias       # (N, L, K, V)
        prior = torch.softmax(self.prior(h), -1).unsqueeze(-1)              # (N, L, K, 1)
        prob = (torch.softmax(logits, -1) * prior).sum(2)                   # (N, L, V)
        logp = torch.log(prob + 1.0e-8)
        nxt = torch.gather(logp[:, :-1], 2, tokens[:, 1:].unsqueeze(-1))    # (N, L-1, 1)
        return logp, -nxt.squeeze(-1).mean(1, keepdim=True)


class _Basic(nn.Module):
    """ResNet basic block (two 3x3 Conv-BN, identity shortcut)."""

    def __init__(self, ch):
        super().__init__()
        self.body = nn.Sequential(_cbr(ch, ch), nn.Conv2d(ch, ch, 3, padding=1, bias=False),
                                  nn.BatchNorm2d(ch))

    def forward(self, x):
        return F.relu(x + self.body(x))


class PointRendSeg(nn.Module):
    """PointRend semantic segmentation on a small residual backbone (48,
    96, 192 channels at 1/4, 1/8, 1/16 of 128 x 128 images), coarse
    prediction of 21 classes at 1/8, three subdivision steps of 256
    points each, point head of three Conv1d layers of 128 with the coarse
    prediction concatenated to each input.  Returns the refined logits
    (N, 21, 128, 128) and the coarse ones (N, 21, 16, 16)."""

    def __init__(self, classes=21, widths=(48, 96, 192), points=256, head=128, size=128):
        super().__init__()
        c1, c2, c3 = widths
        self.classes, self.points, self.size = classes, points, size
        self.stem = nn.Sequential(_cbr(3, 32, 3, 2), _cbr(32, c1, 3, 2), _Basic(c1))      # 1/4
        self.s8 = nn.Sequential(_cbr(c1, c2, 3, 2), _Basic(c2))                           # 1/8
        self.s16 = nn.Sequential(_cbr(c2, c3, 3, 2), _Basic(c3))                          # 1/16
        self.coarse = nn.Sequential(_cbr(c2 + c3, head, 1), nn.Conv2d(head, classes, 1))
        self.fine_ch = c1
        self.point = nn.ModuleList([nn.Conv1d(c1 + classes, head, 1), nn.Conv1d(head + classes, head, 1),
                                    nn.Conv1d(head + classes, head, 1)])
        self.point_out = nn.Conv1d(head + classes, classes, 1)
        self.register_buffer("spread_f", torch.zeros(1, c1, 1, dtype=torch.long))
        self.register_buffer("spread_c", torch.zeros(1, classes, 1, dtype=torch.long))

    def forward(self, image):                     # (N, 3, 128, 128)
        f4 = self.stem(image)                                               # (N, c1, 32, 32)
        f8 = self.s8(f4)
        f16 = self.s16(f8)
        up = F.interpolate(f16, scale_factor=2.0, mode="bilinear", align_corners=False)
        coarse = self.coarse(torch.cat([f8, up], 1))                        # (N, C, 16, 16)
        fw = self.size // 4
        fine = f4.flatten(2)                                                # (N, c1, 1024)
        logits = coarse
        res = self.size // 8
        while res < self.size:
            res *= 2
            logits = F.interpolate(logits, scale_factor=2.0, mode="bilinear", align_corners=False)
            flat = logits.flatten(2)                                        # (N, C, R R)
            top2 = flat.topk(2, 1).values
            unc = top2[:, 1] - top2[:, 0]                                   # (N, R R), <= 0
            idx = unc.topk(self.points, 1).indices.unsqueeze(1)             # (N, 1, K)
            cell = idx.float()
            row = torch.floor((cell + 0.5) / res)
            col = cell - row * res
            px = ((col + 0.5) * (fw / res) - 0.5).clamp(0.0, fw - 1.001)
            py = ((row + 0.5) * (fw / res) - 0.5).clamp(0.0, fw - 1.001)
            x0, y0 = torch.floor(px), torch.floor(py)
            tx, ty = px - x0, py - y0
            i00 = (y0 * fw + x0).long() + self.spread_f
            feat = (torch.gather(fine, 2, i00) * (1.0 - tx) + torch.gather(fine, 2, i00 + 1) * tx) * (1.0 - ty) \
                + (torch.gather(fine, 2, i00 + fw) * (1.0 - tx) + torch.gather(fine, 2, i00 + fw + 1) * tx) * ty
            ic = idx + self.spread_c
            cpred = torch.gather(flat, 2, ic)                               # (N, C, K)
            h = feat
            for layer in self.point:
                h = F.relu(layer(torch.cat([h, cpred], 1)))
            new = self.point_out(torch.cat([h, cpred], 1))
            logits = flat.scatter(2, ic, new).view(-1, self.classes, res, res)
        return logits, coarse


def _torus_spirals(rows, cols, length, seed):
    """Spirals of `length` vertices on a triangulated rows x cols torus
    grid (diagonals (r, c)-(r+1, c+1)): the vertex, its six neighbours in
    angular order, then the second ring, the start rotated per vertex."""
    ring1 = [(0, 1), (1, 1), (1, 0), (0, -1), (-1, -1), (-1, 0)]
    ring2 = [(-1, 1), (0, 2), (1, 2), (2, 2), (2, 1), (2, 0), (1, -1), (0, -2), (-1, -2),
             (-2, -2), (-2, -1), (-2, 0)]
    g = torch.Generator().manual_seed(seed)
    rot = torch.randint(0, 6, (rows * cols,), generator=g).tolist()
    out = []
    for r in range(rows):
        for c in range(cols):
            k = rot[r * cols + c]
            seq = [(0, 0)] + ring1[k:] + ring1[:k] + ring2[2 * k:] + ring2[:2 * k]
            out.extend(((r + dr) % rows) * cols + (c + dc) % cols for dr, dc in seq[:length])
    return torch.tensor(out, dtype=torch.long)


def _torus_pool(rows, cols):
    """Dense down-sampling (rows/2 cols/2, rows cols) and up-sampling
    (rows cols, rows/2 cols/2) matrices between a torus grid and the one
    of every other row and column."""
    r2, c2 = rows // 2, cols // 2
    down = torch.zeros(r2 * c2, rows * cols)
    for i in range(r2):
        for j in range(c2):
            down[i * c2 + j, (2 * i) * cols + 2 * j] += 0.5
            for dr, dc in [(0, 1), (1, 1), (1, 0), (0, -1), (-1, -1), (-1, 0)]:
                down[i * c2 + j, ((2 * i + dr) % rows) * cols + (2 * j + dc) % cols] += 1.0 / 12.0
    up = torch.zeros(rows * cols, r2 * c2)
    for r in range(rows):
        for c in range(cols):
            for (i, wi) in ([(r // 2, 1.0)] if r % 2 == 0 else [(r // 2, 0.5), ((r // 2 + 1) % r2, 0.5)]):
                for (j, wj) in ([(c // 2, 1.0)] if c % 2 == 0 else [(c // 2, 0.5), ((c // 2 + 1) % c2, 0.5)]):
                    up[r * cols + c, i * c2 + j] += wi * wj
    return down, up


class _SpiralConv(nn.Module):
    """Gather every vertex's spiral, one Linear over the concatenation."""

    def __init__(self, cin, cout, spiral, length):
        super().__init__()
        self.length, self.cin = length, cin
        self.verts = spiral.numel() // length
        self.register_buffer("spiral", spiral)
        self.lin = nn.Linear(cin * length, cout)

    def forward(self, x):                         # (N, V, C)
        return self.lin(x[:, self.spiral].reshape(-1, self.verts, self.length * self.cin))


class SpiralNetMeshAE(nn.Module):
    """SpiralNet++ autoencoder on a 32 x 48 torus mesh (1536 vertices;
    levels of 384, 96, 24), spirals of 9, encoder 3 -> 32 -> 32 -> 64 ->
    64, code 64, mirrored decoder to 3, ELU.  Returns the reconstructed
    vertices (N, 1536, 3) and the code (N, 64)."""

    def __init__(self, rows=32, cols=48, length=9, code=64):
        super().__init__()
        shapes = [(rows >> i, cols >> i) for i in range(4)]
        sp = [_torus_spirals(r, c, length, 330 + i) for i, (r, c) in enumerate(shapes)]
        for i in range(3):
            down, up = _torus_pool(*shapes[i])
            self.register_buffer(f"down{i}", down)
            self.register_buffer(f"up{i}", up)
        self.coarse_v = shapes[3][0] * shapes[3][1]
        enc = [3, 32, 32, 64, 64]
        self.enc = nn.ModuleList(_SpiralConv(enc[i], enc[i + 1], sp[i], length) for i in range(4))
        self.to_code = nn.Linear(self.coarse_v * 64, code)
        self.from_code = nn.Linear(code, self.coarse_v * 64)
        dec = [64, 64, 32, 32, 32]
        self.dec = nn.ModuleList(_SpiralConv(dec[i], dec[i + 1], sp[3 - i], length) for i in range(4))
        self.out = _SpiralConv(32, 3, sp[0], length)

    def forward(self, verts):                     # (N, 1536, 3)
        x = verts
        for i, conv in enumerate(self.enc):
            x = F.elu(conv(x))
            if i < 3:
                x = torch.matmul(getattr(self, f"down{i}"), x)
        code = self.to_code(x.flatten(1))
        x = self.from_code(code).view(-1, self.coarse_v, 64)
        for i, conv in enumerate(self.dec):
            x = F.elu(conv(x))
            if i < 3:
                x = torch.matmul(getattr(self, f"up{2 - i}"), x)
        return self.out(x), code


class EEGNetBCI(nn.Module):
    """EEGNet-8,2: 64 electrodes x 512 samples (128 Hz), temporal kernel
    64, depthwise spatial filter over the electrodes (D = 2), average
    pools of 4 and 8, separable convolution of 16, 4 classes.  Returns
    the logits (N, 4)."""

    def __init__(self, electrodes=64, samples=512, f1=8, depth=2, f2=16, kernel=64, classes=4):
        super().__init__()
        self.block1 = nn.Sequential(
            nn.Conv2d(1, f1, (1, kernel), padding=(0, kernel // 2), bias=False), nn.BatchNorm2d(f1),
            nn.Conv2d(f1, f1 * depth, (electrodes, 1), groups=f1, bias=False), nn.BatchNorm2d(f1 * depth),
            nn.ELU(), nn.AvgPool2d((1, 4)))
        self.block2 = nn.Sequential(
            nn.Conv2d(f1 * depth, f1 * depth, (1, 16), padding=(0, 8), groups=f1 * depth, bias=False),
            nn.Conv2d(f1 * depth, f2, 1, bias=False), nn.BatchNorm2d(f2), nn.ELU(), nn.AvgPool2d((1, 8)))
        length = ((samples + 1) // 4 + 1) // 8
        self.fc = nn.Linear(f2 * length, classes)

    def forward(self, eeg):                       # (N, 1, 64, 512)
        return self.fc(self.block2(self.block1(eeg)).flatten(1))


class WaveRNNVocoder(nn.Module):
    """WaveRNN with the dual softmax: state 384 split in coarse and fine
    halves of 192, output layers 192 -> 192 -> 256 per half, greedy
    (ArgMax) choice of each byte, conditioning from 5 mel frames (80
    bins) by Conv1d and ConvTranspose1d (hop 8) to 64 features per
    sample, 40 samples.  Returns the waveform (N, 40) in [-1, 1) and the
    probability of each chosen coarse byte (N, 40)."""

    def __init__(self, mels=80, frames=5, hop=8, cond=64, rnn=384, levels=256):
        super().__init__()
        self.samples, self.half, self.levels = frames * hop, rnn // 2, levels
        hh = rnn // 2
        self.cond = nn.Sequential(nn.Conv1d(mels, 128, 3, padding=1), nn.ReLU(),
                                  nn.ConvTranspose1d(128, cond, hop, stride=hop), nn.Tanh())
        self.cond_c = nn.Linear(cond, 3 * hh)
        self.cond_f = nn.Linear(cond, 3 * hh)
        self.rec = nn.Linear(rnn, 3 * rnn)            # [u_c r_c e_c u_f r_f e_f]
        self.in_c = nn.Linear(2, 3 * hh, bias=False)
        self.in_f = nn.Linear(3, 3 * hh, bias=False)
        self.out_c = _mlp((hh, hh, levels))
        self.out_f = _mlp((hh, hh, levels))
        self.register_buffer("zhalf", torch.zeros(1, hh))

    def _gru_half(self, h, ru, rr, re, i):
        iu, ir, ie = i.split(self.half, 1)
        u, r = torch.sigmoid(ru + iu), torch.sigmoid(rr + ir)
        e = torch.tanh(r * re + ie)
        return e + u * (h - e)

    def forward(self, mel):                       # (N, 80, 5)
        u = self.cond(mel).transpose(1, 2)                                  # (N, T, cond)
        uc = self.cond_c(u).transpose(0, 1)                                 # (T, N, 3 hh)
        uf = self.cond_f(u).transpose(0, 1)
        z = torch.zeros_like(mel[:, 0, :1])                                 # (N, 1)
        hc, hf = z + self.zhalf, z + self.zhalf
        prev = torch.cat([z, z], 1)                                         # (N, 2): c, f in [0, 2)
        scale = 2.0 / self.levels
        cs, fs, lcs = [], [], []
        for t in range(self.samples):
            ruc, rrc, rec, ruf, rrf, ref = self.rec(torch.cat([hc, hf], 1)).split(self.half, 1)
            hc = self._gru_half(hc, ruc, rrc, rec, self.in_c(prev) + uc[t])
            lc = self.out_c(hc)
            c = lc.argmax(1, keepdim=True)                                  # (N, 1) int64
            cval = c.to(z.dtype) * scale
            hf = self._gru_half(hf, ruf, rrf, ref, self.in_f(torch.cat([prev, cval], 1)) + uf[t])
            f = self.out_f(hf).argmax(1, keepdim=True)
            prev = torch.cat([cval, f.to(z.dtype) * scale], 1)
            cs.append(c)
            fs.append(f)
            lcs.append(lc)
        wave = (torch.cat(cs, 1) * self.levels + torch.cat(fs, 1)).to(z.dtype) * (2.0 / self.levels ** 2) - 1.0
        conf = torch.softmax(torch.stack(lcs, 1), -1).max(-1).values        # (N, T)
        return wave, conf


class KoopmanAE(nn.Module):
    """Deep Koopman autoencoder: encoder 128 -> 512 -> 512 -> 8 (4
    complex pairs), auxiliary networks 1 -> 64 -> 64 -> 2 per pair (grouped
    1x1 Conv1d) giving growth rate mu and frequency omega from the pair's
    squared radius, 40 steps of y <- exp(mu dt) R(omega dt) y with dt =
    0.1, decoder 8 -> 512 -> 512 -> 128 on all 41 codes.  Returns the
    decoded trajectory (N, 41, 128) (step 0 the reconstruction) and the
    codes (N, 41, 8)."""

    def __init__(self, state=128, width=512, pairs=4, aux=64, steps=40, dt=0.1):
        super().__init__()
        self.pairs, self.steps, self.dt = pairs, steps, dt
        self.encoder = _mlp((state, width, width, 2 * pairs), act=nn.ELU)
        self.decoder = _mlp((2 * pairs, width, width, state), act=nn.ELU)
        self.aux = nn.Sequential(nn.Conv1d(pairs, pairs * aux, 1, groups=pairs), nn.ReLU(),
                                 nn.Conv1d(pairs * aux, pairs * aux, 1, groups=pairs), nn.ReLU(),
                                 nn.Conv1d(pairs * aux, 2 * pairs, 1, groups=pairs))

    def forward(self, state):                     # (N, 128)
        y = self.encoder(state).view(-1, self.pairs, 2)                     # (N, P, 2)
        codes = [y]
        for _ in range(self.steps):
            r2 = (y * y).sum(-1, keepdim=True)                              # (N, P, 1)
            mo = self.aux(r2).view(-1, self.pairs, 2) * self.dt
            rate, freq = mo.split(1, -1)
            scale, cs, sn = torch.exp(rate), torch.cos(freq), torch.sin(freq)
            y1, y2 = y.split(1, -1)
            y = scale * torch.cat([cs * y1 - sn * y2, sn * y1 + cs * y2], -1)
            codes.append(y)
        codes = torch.stack(codes, 1).flatten(2)                            # (N, S+1, 2P)
        return self.decoder(codes), codes


class ConvEKG(nn.Module):
    """ConvE link prediction: 8000 entities, 200 relations, embeddings of
    200 reshaped to 10 x 20 and stacked (20 x 20), input BatchNorm, 32
    filters 3 x 3, Linear 10368 -> 200, BatchNorm, ReLU, scores against
    every entity plus a bias (sigmoid), 32 queries per sample.  Returns
    the scores (N, 32, 8000) and the ten best entities (N, 32, 10)."""

    def __init__(self, entities=8000, relations=200, dim=200, filters=32, top=10, queries=32):
        super().__init__()
        self.top, self.entities, self.queries = top, entities, queries
        self.ent = nn.Embedding(entities, dim)
        self.rel = nn.Embedding(relations, dim)
        self.bn0 = nn.BatchNorm2d(1)
        self.conv = nn.Conv2d(1, filters, 3)
        self.bn1 = nn.BatchNorm2d(filters)
        self.fc = nn.Linear(filters * 18 * 18, dim)
        self.bn2 = nn.BatchNorm1d(dim)
        self.bias = nn.Parameter(torch.zeros(entities))

    def forward(self, subj, rel):                 # (N, 32), (N, 32) int64
        e = self.ent(subj).view(-1, 1, 10, 20)
        r = self.rel(rel).view(-1, 1, 10, 20)
        x = self.bn0(torch.cat([e, r], 2))                                  # (N Q, 1, 20, 20)
        x = F.relu(self.bn1(self.conv(x)))
        x = F.relu(self.bn2(self.fc(x.flatten(1))))                         # (N Q, D)
        scores = torch.sigmoid(torch.matmul(x, self.ent.weight.t()) + self.bias).view(-1, self.queries, self.entities)
        return scores, scores.topk(self.top, -1).indices


BLIND33 = {
    "floyd_steinberg_halftone": dict(ctor=FloydSteinbergHalftone, family="error-diffusion-halftoning",
                                     inputs=[("image", ("N", 3, 64, 64), "float32", None)]),
    "fictitious_play_game": dict(ctor=FictitiousPlayGame, family="fictitious-play-matrix-game",
                                 inputs=[("features", ("N", 64), "float32", None)]),
    "nlms_echo_cancel": dict(ctor=NLMSEchoCancel, family="normalized-lms-adaptive-filter",
                             inputs=[("far", ("N", 160), "float32", None),
                                     ("mic", ("N", 4, 160), "float32", None)]),
    "draw_canvas": dict(ctor=DRAWCanvas, family="gaussian-filterbank-recurrent-canvas",
                        inputs=[("image", ("N", 1, 28, 28), "float32", None)]),
    "social_lstm_traj": dict(ctor=SocialLSTMTraj, family="social-pooling-trajectory-lstm",
                             inputs=[("traj", ("N", 8, 16, 2), "float32", None)]),
    "mos_lstm_lm": dict(ctor=MoSLSTMLM, family="mixture-of-softmaxes-language-model",
                        inputs=[("tokens", ("N", 24), "int64", 3000)]),
    "pointrend_seg": dict(ctor=PointRendSeg, family="uncertain-point-subdivision-segmentation",
                          inputs=[("image", ("N", 3, 128, 128), "float32", None)]),
    "spiralnet_mesh_ae": dict(ctor=SpiralNetMeshAE, family="spiral-sequence-mesh-convolution",
                              inputs=[("verts", ("N", 1536, 3), "float32", None)]),
    "eegnet_bci": dict(ctor=EEGNetBCI, family="compact-eeg-temporal-spatial-conv",
                       inputs=[("eeg", ("N", 1, 64, 512), "float32", None)]),
    "wavernn_vocoder": dict(ctor=WaveRNNVocoder, family="dual-softmax-recurrent-vocoder",
                            inputs=[("mel", ("N", 80, 5), "float32", None)]),
    "koopman_ae": dict(ctor=KoopmanAE, family="koopman-linear-latent-dynamics",
                       inputs=[("state", ("N", 128), "float32", None)]),
    "conve_kg": dict(ctor=ConvEKG, family="reshaped-2d-conv-link-prediction",
                     inputs=[("subj", ("N", 32), "int64", 8000),
                             ("rel", ("N", 32), "int64", 200)]),
}
