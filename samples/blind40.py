r"""BLIND40: the fortieth blind set, written on 2026-12-08 by a helper
session before any of it was measured.  Nothing in it has been timed,
profiled or run through onnxcost predict; it is to be measured first and
scored once only, at the end, with the code as it stands then
(bench/zoo_accuracy.py --set blind40).  None of its twelve families occurs
in another set (ZOO, BLIND, BLIND2 ... BLIND39, the reference models), so
no plan rule, feature, fit or calibration can have been made with any of
them in view.

Three families unroll a classical procedure into a fixed graph of small
kernels (several hundred to a few thousand nodes each, Constants
included), each with a small learned part:

  * SLIC superpixels (R. Achanta, A. Shaji, K. Smith, A. Lucchi, P. Fua &
    S. Suesstrunk, "SLIC Superpixels Compared to State-of-the-Art
    Superpixel Methods", 2012): a small Conv net gives every pixel of a
    40 x 40 image a 5-dim feature (in place of CIELAB), 25 centres start
    on the 5 x 5 grid, and 10 iterations of local k-means follow: the
    feature distance plus the compactness-weighted spatial distance to
    every centre, restricted to the 2S x 2S window around it, the hard
    assignment to the nearest, and the centres re-estimated by MatMul
    with the assignment.  The label map, the image rebuilt from the
    centres, the centres and their movement per iteration come out.
  * L-BFGS (D. C. Liu & J. Nocedal, "On the Limited Memory BFGS Method
    for Large Scale Optimization", 1989; the two-loop recursion of
    J. Nocedal, "Updating Quasi-Newton Matrices with Limited Storage",
    1980) with Armijo backtracking (L. Armijo, "Minimization of functions
    having Lipschitz continuous first partial derivatives", 1966): an MLP
    maps 64 points to 12 features (and a bias), and 10 iterations with a
    memory of 5 fit an L2-regularised logistic regression to the soft
    targets, each direction from the two-loop recursion, each step the
    first of four halving candidates that meets the sufficient-decrease
    condition.  The weights, the loss trace, the fitted probabilities and
    the final gradient norm come out.
  * Core decomposition by peeling (S. B. Seidman, "Network structure and
    minimum degree", 1983; V. Batagelj & M. Zaversnik, "An O(m)
    Algorithm for Cores Decomposition of Networks", 2003), in its
    parallel, level-by-level form: an MLP embeds 64 nodes, their mutual
    8-nearest-neighbour graph by cosine similarity is built (TopK), and
    for k = 1 .. 10 eight rounds remove every node with fewer than k
    living neighbours (one MatMul each); a node's core number is the
    count of levels it survives.  The core numbers, the size of every
    k-core, the degrees and a readout pooled by core number come out.

The other nine are published network designs of ordinary sizes:

  * PeleeNet (R. J. Wang, X. Li & C. X. Ling, "Pelee: A Real-Time Object
    Detection System on Mobile Devices", 2018) on 160 x 160 images: the
    stem block (a strided 3 x 3 Conv, then a 1 x 1 / strided 3 x 3 branch
    beside a max-pool branch, fused by a 1 x 1 Conv), four stages of 3,
    4, 8, 6 two-way dense layers (growth 32; a branch of one 3 x 3 and a
    branch of two, behind 1 x 1 bottlenecks of widths 1, 2, 4, 4), 1 x 1
    transitions without compression (128, 256, 512, 704) and average
    pooling, global pooling and 1000 classes.
  * musicnn (J. Pons & X. Serra, "musicnn: Pre-trained convolutional
    neural networks for music audio tagging", 2019; J. Pons, O. Nieto,
    M. Prockup, E. M. Schmidt, A. F. Ehmann & X. Serra, "End-to-end
    learning for music audio tagging at scale", 2018), narrowed to
    num_filt 0.25: a log-mel patch of 128 frames x 96 bands, the
    musically motivated front end (timbral filters 7 x 38 and 7 x 67,
    temporal filters 128 x 1, 64 x 1, 32 x 1, each max-pooled over the
    bands), the dense mid-end (three Conv1d of 64, kernel 7, residual)
    and the back-end (max and mean over time of every layer's output,
    BatchNorm, Linear 200, 50 sigmoid tags).
  * BiDAF (M. Seo, A. Kembhavi, A. Farhadi & H. Hajishirzi,
    "Bidirectional Attention Flow for Machine Comprehension", 2017), word
    level (no character CNN) and narrowed: a context of 96 and a query of
    16 tokens (20000 words, embedding 100), two highway layers, a shared
    contextual BiLSTM of 64, the trilinear similarity matrix,
    context-to-query and query-to-context attention, the 8d query-aware
    context, the two-layer BiLSTM modelling layer, and the start and end
    distributions (the latter through one more BiLSTM).
  * DA-RNN (Y. Qin, D. Song, H. Chen, W. Cheng, G. Jiang & G. W.
    Cottrell, "A Dual-Stage Attention-Based Recurrent Neural Network for
    Time Series Prediction", 2017): 16 steps of 40 driving series and 15
    past targets, an encoder LSTMCell of 64 whose input attention weighs
    the driving series at every step, a decoder LSTMCell of 64 whose
    temporal attention weighs the encoder states at every step, and the
    one-step prediction.
  * DGCNN with SortPooling (M. Zhang, Z. Cui, M. Neumann & Y. Chen, "An
    End-to-End Deep Learning Architecture for Graph Classification",
    2018): 64 nodes of 16 features and a dense adjacency, four
    random-walk-normalised graph convolutions (32, 32, 32, 1; tanh)
    concatenated, SortPooling of the 32 nodes with the largest last
    channel (TopK and GatherElements), a Conv1d with kernel and stride of
    one node row, max pooling, a second Conv1d and two Linear layers.
  * MADE (M. Germain, K. Gregor, I. Murray & H. Larochelle, "MADE: Masked
    Autoencoder for Distribution Estimation", 2015) on binarised 28 x 28
    images: two masked hidden layers of 500 and the masked direct
    connection, the connectivity-agnostic ensemble of 4 mask sets (the
    weights shared) averaged at test time, the log-likelihood by
    log-mean-exp and the mean conditionals.
  * Wide & Deep (H.-T. Cheng, L. Koc, J. Harmsen, T. Shaked, T. Chandra,
    H. Aradhye, G. Anderson, G. Corrado, W. Chai, M. Ispir et al., "Wide
    & Deep Learning for Recommender Systems", 2016): 8 categorical fields
    of 1000 ids and 13 dense features; the wide part a weight per id,
    the 28 hashed pairwise cross-product features (100003 buckets) and
    the dense features, the deep part embeddings of 32 per field through
    ReLU layers of 1024, 512 and 256, joined in one logistic output.
  * The relational deep RL agent for Box-World (V. Zambaldi, D. Raposo,
    A. Santoro, V. Bapst, Y. Li, I. Babuschkin, K. Tuyls, D. Reichert,
    T. Lillicrap, E. Lockhart, M. Shanahan, V. Langston, R. Pascanu,
    M. Botvinick, O. Vinyals & P. Battaglia, "Deep reinforcement learning
    with relational inductive biases", 2019): two 2 x 2 Convs on a 14 x 14
    observation, coordinates appended, the 144 entities through a
    multi-head dot-product attention block (2 heads, MLP 256, LayerNorm)
    iterated 4 times with shared weights, feature-wise max pooling, four
    Linear layers of 256, the policy over 4 actions and the baseline.
  * ANI-1 (J. S. Smith, O. Isayev & A. E. Roitberg, "ANI-1: an extensible
    neural network potential with DFT accuracy at force field
    computational cost", 2017), with the ANI-1x sizes: 24 atoms of H, C,
    N, O, the modified Behler-Parrinello atomic environment vector (64
    radial terms per neighbour element, 320 angular terms per element
    pair over all atom triples), one network per element (384 -> 160 ..
    128 -> 128 .. 112 -> 96 -> 1, CELU) chosen by the atom's element, and
    the energy as the sum of atomic energies.

To be measured with

    OMP_WAIT_POLICY=PASSIVE /usr/bin/python3 scripts/measure_zoo.py --set blind40 \
        slic_superpixels lbfgs_logistic_fit kcore_peeling peleenet \
        musicnn_tagger bidaf_reader darnn_forecast sortpool_dgcnn \
        made_density wide_deep_rec relational_agent ani1_potential \
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


def _cbr(cin, cout, k, stride=1, padding=0):
    """Conv2d (no bias), BatchNorm2d, ReLU."""
    return nn.Sequential(nn.Conv2d(cin, cout, k, stride, padding, bias=False), nn.BatchNorm2d(cout), nn.ReLU())


# --------------------------------------------------------------------------
# Unrolled algorithms
# --------------------------------------------------------------------------

class SLICSuperpixels(nn.Module):
    """SLIC on 40 x 40 images: a Conv net (3 -> 16 -> 16 -> 5, 3 x 3, 3 x 3,
    1 x 1) gives every pixel a 5-dim feature; 25 centres start on the 5 x 5
    grid (S = 8, features gathered at the grid points); 10 iterations of
    D = ||f - c_f||^2 + (m / S)^2 ||p - c_p||^2 (m = 10), plus 1e4 outside
    the 2S x 2S window around the centre, hard assignment to the minimum
    (Equal with the ReduceMin), centres re-estimated by MatMul with the
    assignment (a 1e-3 share of the old centre keeps empty ones), and the
    L1 movement of the centres.  Returns the label map (N, 40, 40) int64,
    the feature image rebuilt from the centres (N, 5, 40, 40), the
    centres (N, 25, 7) and the movement per iteration (N, 10)."""

    def __init__(self, size=40, grid=5, feat=5, iters=10, compact=10.0):
        super().__init__()
        self.size, self.iters, self.feat = size, iters, feat
        self.step = float(size // grid)
        self.w_sp = (compact / self.step) ** 2
        self.net = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 16, 3, padding=1),
                                 nn.ReLU(), nn.Conv2d(16, feat, 1))
        ys, xs = torch.meshgrid(torch.arange(size, dtype=torch.float32), torch.arange(size, dtype=torch.float32),
                                indexing="ij")
        self.register_buffer("px", xs.reshape(1, 1, -1))
        self.register_buffer("py", ys.reshape(1, 1, -1))
        self.register_buffer("pxy", torch.stack([xs.reshape(-1), ys.reshape(-1)], -1))          # (HW, 2)
        s = size // grid
        cy, cx = torch.meshgrid(torch.arange(grid) * s + s // 2, torch.arange(grid) * s + s // 2, indexing="ij")
        self.register_buffer("c_idx", (cy * size + cx).reshape(-1))
        self.register_buffer("c_xy0", torch.stack([cx.reshape(-1), cy.reshape(-1)], -1).float().unsqueeze(0))

    def forward(self, image):                     # (N, 3, 40, 40)
        f = self.net(image).flatten(2).transpose(1, 2)                      # (N, HW, F)
        fsq = (f * f).sum(-1).unsqueeze(1)                                  # (N, 1, HW)
        c_f = f[:, self.c_idx]                                              # (N, K, F)
        c_xy = self.c_xy0.expand(f.shape[0], -1, -1)
        moves = []
        assign = None
        for _ in range(self.iters):
            dc = (c_f * c_f).sum(-1, keepdim=True) + fsq - 2.0 * torch.matmul(c_f, f.transpose(1, 2))
            dx = c_xy[..., 0:1] - self.px
            dy = c_xy[..., 1:2] - self.py
            out = (torch.maximum(dx.abs(), dy.abs()) > self.step).float()
            d = dc + self.w_sp * (dx * dx + dy * dy) + 1.0e4 * out             # (N, K, HW)
            assign = (d <= d.min(1, keepdim=True).values).float()
            denom = assign.sum(-1, keepdim=True) + 1.0e-3
            new_f = (torch.matmul(assign, f) + 1.0e-3 * c_f) / denom
            new_xy = (torch.matmul(assign, self.pxy) + 1.0e-3 * c_xy) / denom
            moves.append((new_xy - c_xy).abs().sum((1, 2)).unsqueeze(1))
            c_f, c_xy = new_f, new_xy
        labels = assign.argmax(1).view(-1, self.size, self.size)
        rebuilt = torch.matmul(assign.transpose(1, 2), c_f) / assign.sum(1).unsqueeze(-1)
        rebuilt = rebuilt.transpose(1, 2).reshape(-1, self.feat, self.size, self.size)
        return labels, rebuilt, torch.cat([c_xy, c_f], -1), torch.cat(moves, 1)


class LBFGSLogisticFit(nn.Module):
    """L-BFGS (memory 5, 10 iterations) fitting an L2-regularised logistic
    regression per sample: an MLP (8 -> 32 -> 12, tanh) maps 64 points to
    features, a bias column is appended (d = 13), the soft targets are
    sigmoid(y); f(w) = mean softplus(z) - t z + 0.05 ||w||^2, z = Phi w,
    gradient Phi^T (sigmoid(z) - t) / P + 0.1 w; the direction from the
    two-loop recursion (gamma = s^T y / y^T y, 1 at the first step), the
    step the first of 1, 1/2, 1/4, 1/8 that meets Armijo's condition
    (c1 = 1e-4; 1/8 when none does; the four losses from one MatMul).
    Returns the weights (N, 13), the loss after every iteration (N, 11),
    the fitted probabilities (N, 64) and the final gradient norm (N, 1)."""

    def __init__(self, dim=8, hidden=32, feat=12, iters=10, memory=5, reg=0.1):
        super().__init__()
        self.iters, self.memory, self.reg = iters, memory, reg
        self.phi = _mlp((dim, hidden, feat), act=nn.Tanh, last_act=True)
        self.step_list = (1.0, 0.5, 0.25, 0.125)
        self.register_buffer("steps", torch.tensor(self.step_list))

    def _loss(self, phi, t, w):                   # w (N, C, d) -> (N, C)
        z = torch.matmul(phi, w.transpose(1, 2))                             # (N, P, C)
        data = (F.softplus(z) - t.unsqueeze(-1) * z).mean(1)
        return data + 0.5 * self.reg * (w * w).sum(-1)

    def _grad(self, phi, t, w):                   # w (N, d)
        z = torch.matmul(phi, w.unsqueeze(-1)).squeeze(-1)                  # (N, P)
        r = (torch.sigmoid(z) - t) / phi.shape[1]
        return torch.matmul(r.unsqueeze(1), phi).squeeze(1) + self.reg * w

    def forward(self, points, targets):           # (N, 64, 8), (N, 64)
        h = self.phi(points)
        phi = torch.cat([h, torch.ones_like(h[..., :1])], -1)               # (N, P, d)
        t = torch.sigmoid(targets)
        w = torch.zeros_like(phi[:, 0])
        f = self._loss(phi, t, w.unsqueeze(1))                              # (N, 1)
        g = self._grad(phi, t, w)
        hist = []
        trace = [f]
        for _ in range(self.iters):
            q = g
            alphas = []
            for s, y, rho in reversed(hist):
                a = rho * (s * q).sum(-1, keepdim=True)
                alphas.append(a)
                q = q - a * y
            if hist:
                s, y, _ = hist[-1]
                q = q * ((s * y).sum(-1, keepdim=True) / ((y * y).sum(-1, keepdim=True) + 1.0e-10))
            for (s, y, rho), a in zip(hist, reversed(alphas)):
                b = rho * (y * q).sum(-1, keepdim=True)
                q = q + s * (a - b)
            d = -q
            gd = (g * d).sum(-1, keepdim=True)                              # (N, 1)
            cand = w.unsqueeze(1) + self.steps.view(1, -1, 1) * d.unsqueeze(1)
            fc = self._loss(phi, t, cand)                                   # (N, 4)
            ok = (fc <= f + 1.0e-4 * self.steps * gd).float()
            left = torch.ones_like(f)
            step = torch.zeros_like(f)
            for j, size in enumerate(self.step_list):
                take = left if j == len(self.step_list) - 1 else left * ok[:, j:j + 1]
                step = step + take * size
                left = left - take
            w_new = w + step * d
            g_new = self._grad(phi, t, w_new)
            s, y = w_new - w, g_new - g
            rho = 1.0 / ((s * y).sum(-1, keepdim=True) + 1.0e-10)
            hist = (hist + [(s, y, rho)])[-self.memory:]
            w, g = w_new, g_new
            f = self._loss(phi, t, w.unsqueeze(1))
            trace.append(f)
        probs = torch.sigmoid(torch.matmul(phi, w.unsqueeze(-1)).squeeze(-1))
        return w, torch.cat(trace, 1), probs, torch.sqrt((g * g).sum(-1, keepdim=True))


class KCorePeeling(nn.Module):
    """Core decomposition by parallel peeling on a learned mutual 8-nearest-
    neighbour graph of 64 nodes: an MLP (8 -> 32 -> 16, tanh) embeds the
    nodes, the cosine similarities (self excluded) give each node's 8
    nearest (TopK, threshold at the 8th), kept where mutual (Min); for
    k = 1 .. 10, 8 rounds of deg = A alive (MatMul), alive = alive [deg >= k];
    the core number is the count of levels a node survives.  A readout MLP
    (16 + 10 -> 64 -> 64) on the embedding and the survival mask of every
    level, pooled with weights core / sum core, through Linear 64 -> 4.
    Returns the core numbers (N, 64), the size of every k-core (N, 10), the
    degrees (N, 64) and the readout (N, 4)."""

    def __init__(self, nodes=64, dim=8, hidden=32, emb=16, knn=8, levels=10, rounds=8, out=4):
        super().__init__()
        self.knn, self.levels, self.rounds = knn, levels, rounds
        self.embed = _mlp((dim, hidden, emb), act=nn.Tanh, last_act=True)
        self.readout = _mlp((emb + levels, 64, 64), last_act=True)
        self.head = nn.Linear(64, out)
        self.register_buffer("eye", torch.eye(nodes))

    def forward(self, features):                  # (N, 64, 8)
        h = self.embed(features)
        u = h / torch.sqrt((h * h).sum(-1, keepdim=True) + 1.0e-8)
        sim = torch.matmul(u, u.transpose(1, 2)) - 4.0 * self.eye
        kth = sim.topk(self.knn, -1).values[..., -1:]
        a = (sim >= kth).float()
        adj = torch.minimum(a, a.transpose(1, 2))                           # (N, V, V)
        alive = torch.ones_like(h[..., 0])
        deg0 = adj.sum(-1)
        core = torch.zeros_like(alive)
        levels, sizes = [], []
        for k in range(1, self.levels + 1):
            for _ in range(self.rounds):
                deg = torch.matmul(adj, alive.unsqueeze(-1)).squeeze(-1)
                alive = alive * (deg >= float(k)).float()
            core = core + alive
            levels.append(alive.unsqueeze(-1))
            sizes.append(alive.sum(-1, keepdim=True))
        r = self.readout(torch.cat([h] + levels, -1))                       # (N, V, 64)
        wgt = core / (core.sum(-1, keepdim=True) + 1.0)
        pooled = (r * wgt.unsqueeze(-1)).sum(1)
        return core, torch.cat(sizes, 1), deg0, self.head(pooled)


# --------------------------------------------------------------------------
# Published designs
# --------------------------------------------------------------------------

class _StemBlock(nn.Module):
    """Pelee stem: 3 x 3 s2 Conv (32); a branch 1 x 1 (16) then 3 x 3 s2 (32),
    the other a 2 x 2 max pool; concatenated (64), 1 x 1 Conv to 32."""

    def __init__(self, cin=3, ch=32):
        super().__init__()
        self.c1 = _cbr(cin, ch, 3, 2, 1)
        self.b1 = nn.Sequential(_cbr(ch, ch // 2, 1), _cbr(ch // 2, ch, 3, 2, 1))
        self.pool = nn.MaxPool2d(2, 2)
        self.fuse = _cbr(2 * ch, ch, 1)

    def forward(self, x):
        x = self.c1(x)
        return self.fuse(torch.cat([self.b1(x), self.pool(x)], 1))


class _TwoWayDense(nn.Module):
    """Pelee two-way dense layer: 1 x 1 to the bottleneck, then one 3 x 3
    (k / 2) and, in the other branch, two 3 x 3 (k / 2); concatenated to
    the input."""

    def __init__(self, cin, growth, width):
        super().__init__()
        half = growth // 2
        inter = int(half * width / 4) * 4
        if inter > cin / 2:
            inter = int(cin / 8) * 4
        self.a = nn.Sequential(_cbr(cin, inter, 1), _cbr(inter, half, 3, 1, 1))
        self.b = nn.Sequential(_cbr(cin, inter, 1), _cbr(inter, half, 3, 1, 1), _cbr(half, half, 3, 1, 1))

    def forward(self, x):
        return torch.cat([x, self.a(x), self.b(x)], 1)


class PeleeNet(nn.Module):
    """PeleeNet on 3 x 160 x 160, 1000 classes: the stem block (to 40 x 40),
    four stages of 3, 4, 8, 6 two-way dense layers (growth 32, bottleneck
    widths 1, 2, 4, 4), each ended by a 1 x 1 transition Conv keeping the
    channels (128, 256, 512, 704) and, in the first three, 2 x 2 average
    pooling; global average pooling and Linear 704 -> 1000.  Returns the
    logits (N, 1000)."""

    def __init__(self, growth=32, layers=(3, 4, 8, 6), widths=(1, 2, 4, 4), stem=32, classes=1000):
        super().__init__()
        blocks = [_StemBlock(3, stem)]
        ch = stem
        for i, (n, w) in enumerate(zip(layers, widths)):
            for _ in range(n):
                blocks.append(_TwoWayDense(ch, growth, w))
                ch += growth
            blocks.append(_cbr(ch, ch, 1))
            if i < len(layers) - 1:
                blocks.append(nn.AvgPool2d(2, 2))
        self.features = nn.Sequential(*blocks)
        self.fc = nn.Linear(ch, classes)

    def forward(self, image):                     # (N, 3, 160, 160)
        return self.fc(self.features(image).mean((2, 3)))


class MusicnnTagger(nn.Module):
    """musicnn (MTT layout, num_filt 0.25) on a log-mel patch of 128 frames x
    96 bands: timbral Conv2d of 7 x 38 and 7 x 67 (32 filters each, time
    padded, valid in frequency), temporal Conv2d of 128 x 1, 64 x 1 and
    32 x 1 (8 filters each, same padding), each with BatchNorm and ReLU
    then max pooling over all the bands; concatenated (88); mid-end three
    Conv1d of 64 (kernel 7, ReLU then BatchNorm) with residual sums;
    back-end: the front end and the three mid-end outputs concatenated
    (280), max and mean over time (560), BatchNorm, Linear 200 + ReLU,
    BatchNorm, Linear 50, sigmoid.  Returns the tag probabilities (N, 50)
    and the penultimate layer (N, 200)."""

    def __init__(self, frames=128, bands=96, num_filt=0.25, mid=64, hidden=200, tags=50):
        super().__init__()
        nt, ns = int(num_filt * 128), int(num_filt * 32)
        self.timbral = nn.ModuleList([nn.Sequential(nn.Conv2d(1, nt, (7, int(f * bands)), padding=(3, 0)),
                                                    nn.BatchNorm2d(nt), nn.ReLU()) for f in (0.4, 0.7)])
        self.temporal = nn.ModuleList([nn.Sequential(nn.Conv2d(1, ns, (k, 1)), nn.BatchNorm2d(ns), nn.ReLU())
                                       for k in (128, 64, 32)])
        self.kernels = (128, 64, 32)
        front = 2 * nt + 3 * ns
        self.mid = nn.ModuleList([nn.Conv1d(front if i == 0 else mid, mid, 7, padding=3) for i in range(3)])
        self.mid_bn = nn.ModuleList([nn.BatchNorm1d(mid) for _ in range(3)])
        total = front + 3 * mid
        self.bn_pool = nn.BatchNorm1d(2 * total)
        self.dense = nn.Linear(2 * total, hidden)
        self.bn_dense = nn.BatchNorm1d(hidden)
        self.out = nn.Linear(hidden, tags)

    def forward(self, logmel):                    # (N, 128, 96)
        x = logmel.unsqueeze(1)
        feats = [branch(x).max(3).values for branch in self.timbral]
        for k, branch in zip(self.kernels, self.temporal):
            xp = F.pad(x, (0, 0, (k - 1) // 2, k // 2))
            feats.append(branch(xp).max(3).values)
        front = torch.cat(feats, 1)                                         # (N, 88, T)
        outs = [front]
        h = front
        for i, (conv, bn) in enumerate(zip(self.mid, self.mid_bn)):
            y = bn(F.relu(conv(h)))
            h = y if i == 0 else y + h
            outs.append(h)
        z = torch.cat(outs, 1)
        pooled = self.bn_pool(torch.cat([z.max(2).values, z.mean(2)], 1))
        e = self.bn_dense(F.relu(self.dense(pooled)))
        return torch.sigmoid(self.out(e)), e


class BiDAFReader(nn.Module):
    """BiDAF (word level) on a context of 96 and a query of 16 tokens (20000
    words, embedding 100): two highway layers, a shared BiLSTM of 64, the
    trilinear similarity w^T [h; u; h o u], context-to-query attention
    (softmax over the query) and query-to-context attention (softmax over
    the context of the max), G = [H; U~; H o U~; H o h~] (512), a two-layer
    BiLSTM modelling layer, the start distribution from [G; M], a further
    BiLSTM for M2 and the end distribution from [G; M2].  Returns the start
    and end probabilities (N, 96) each."""

    def __init__(self, vocab=20000, dim=100, hidden=64):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.hw = nn.ModuleList([nn.Linear(dim, 2 * dim) for _ in range(2)])
        self.ctx = nn.LSTM(dim, hidden, batch_first=True, bidirectional=True)
        d2 = 2 * hidden
        self.w_h, self.w_u = nn.Linear(d2, 1, bias=False), nn.Linear(d2, 1, bias=False)
        self.w_hu = nn.Parameter(torch.randn(d2) / math.sqrt(d2))
        self.model = nn.LSTM(4 * d2, hidden, num_layers=2, batch_first=True, bidirectional=True)
        self.end = nn.LSTM(d2, hidden, batch_first=True, bidirectional=True)
        self.p1 = nn.Linear(5 * d2, 1)
        self.p2 = nn.Linear(5 * d2, 1)

    def _embed(self, ids):
        x = self.emb(ids)
        for hw in self.hw:
            t, g = hw(x).chunk(2, -1)
            g = torch.sigmoid(g)
            x = g * F.relu(t) + (1.0 - g) * x
        return self.ctx(x)[0]

    def forward(self, context, query):            # (N, 96), (N, 16) int64
        h, u = self._embed(context), self._embed(query)
        s = self.w_h(h) + self.w_u(u).transpose(1, 2) + torch.matmul(h * self.w_hu, u.transpose(1, 2))
        u_t = torch.matmul(torch.softmax(s, -1), u)                         # (N, T, 2d)
        b = torch.softmax(s.max(-1).values, -1)                             # (N, T)
        h_t = torch.matmul(b.unsqueeze(1), h)                               # (N, 1, 2d)
        g = torch.cat([h, u_t, h * u_t, h * h_t], -1)
        m = self.model(g)[0]
        m2 = self.end(m)[0]
        p1 = torch.softmax(self.p1(torch.cat([g, m], -1)).squeeze(-1), -1)
        p2 = torch.softmax(self.p2(torch.cat([g, m2], -1)).squeeze(-1), -1)
        return p1, p2


class DARNNForecast(nn.Module):
    """DA-RNN over T = 16 steps of 40 driving series and 15 past targets:
    encoder LSTMCell of 64 with input attention (e^k = v^T tanh(W [h; s] +
    U x^k) over the 40 series, softmax, the weighted drivers fed), decoder
    LSTMCell of 64 with temporal attention over the 16 encoder states
    (l^i = v^T tanh(W [d; s'] + U h_i)), y~ = w^T [y_{t-1}; c_{t-1}] + b,
    and y_T = v^T (W [d_T; c_T] + b).  Returns the prediction (N, 1), the
    input attention weights (N, 16, 40) and the last temporal attention
    (N, 16)."""

    def __init__(self, steps=16, series=40, enc=64, dec=64):
        super().__init__()
        self.steps, self.enc_h, self.dec_h = steps, enc, dec
        self.enc = nn.LSTMCell(series, enc)
        self.we = nn.Linear(2 * enc, steps)
        self.ue = nn.Linear(steps, steps, bias=False)
        self.ve = nn.Linear(steps, 1, bias=False)
        self.dec = nn.LSTMCell(1, dec)
        self.wd = nn.Linear(2 * dec, enc)
        self.ud = nn.Linear(enc, enc, bias=False)
        self.vd = nn.Linear(enc, 1, bias=False)
        self.wt = nn.Linear(enc + 1, 1)
        self.wy = nn.Linear(dec + enc, dec)
        self.vy = nn.Linear(dec, 1)

    def forward(self, drivers, history):          # (N, 16, 40), (N, 15)
        n = drivers.shape[0]
        h = drivers.new_zeros(n, self.enc_h)
        s = drivers.new_zeros(n, self.enc_h)
        ux = self.ue(drivers.transpose(1, 2))                               # (N, n, T)
        hs, alphas = [], []
        for t in range(self.steps):
            e = self.ve(torch.tanh(self.we(torch.cat([h, s], -1)).unsqueeze(1) + ux)).squeeze(-1)
            a = torch.softmax(e, -1)                                        # (N, n)
            h, s = self.enc(a * drivers[:, t], (h, s))
            hs.append(h.unsqueeze(1))
            alphas.append(a.unsqueeze(1))
        hs = torch.cat(hs, 1)                                               # (N, T, m)
        uh = self.ud(hs)
        d = drivers.new_zeros(n, self.dec_h)
        sd = drivers.new_zeros(n, self.dec_h)
        c = drivers.new_zeros(n, self.enc_h)
        beta = None
        for t in range(history.shape[1]):
            y_in = self.wt(torch.cat([history[:, t:t + 1], c], -1))
            d, sd = self.dec(y_in, (d, sd))
            beta = torch.softmax(self.vd(torch.tanh(self.wd(torch.cat([d, sd], -1)).unsqueeze(1) + uh)).squeeze(-1), -1)
            c = torch.matmul(beta.unsqueeze(1), hs).squeeze(1)
        y = self.vy(self.wy(torch.cat([d, c], -1)))
        return y, torch.cat(alphas, 1), beta


class SortPoolDGCNN(nn.Module):
    """DGCNN with SortPooling on graphs of 64 nodes (16 features, adjacency
    binarised at 0 and symmetrised): four graph convolutions Z' = tanh(D~^-1
    (A + I) Z W) of 32, 32, 32, 1 channels, concatenated (97); SortPooling
    keeps the k = 32 nodes with the largest last channel (TopK and
    GatherElements, in order); Conv1d 1 -> 16 (kernel and stride 97), ReLU,
    max pool 2, Conv1d 16 -> 32 (kernel 5), ReLU, Linear 128, ReLU, Linear
    to 2 classes.  Returns the logits (N, 2) and the sorted node rows
    (N, 32, 97)."""

    def __init__(self, feat=16, chans=(32, 32, 32, 1), k=32, classes=2):
        super().__init__()
        self.k = k
        self.ws = nn.ModuleList()
        cin = feat
        for c in chans:
            self.ws.append(nn.Linear(cin, c, bias=False))
            cin = c
        total = sum(chans)
        self.total = total
        self.conv1 = nn.Conv1d(1, 16, total, total)
        self.conv2 = nn.Conv1d(16, 32, 5)
        self.fc = nn.Linear(32 * (k // 2 - 4), 128)
        self.out = nn.Linear(128, classes)

    def forward(self, features, adjacency):       # (N, 64, 16), (N, 64, 64)
        a = (adjacency > 0.0).float()
        a = torch.maximum(a, a.transpose(1, 2))
        a = a + torch.eye(a.shape[1], dtype=a.dtype)
        prop = a / a.sum(-1, keepdim=True)
        z, zs = features, []
        for w in self.ws:
            z = torch.tanh(torch.matmul(prop, w(z)))
            zs.append(z)
        z = torch.cat(zs, -1)                                               # (N, V, 97)
        idx = z[..., -1].topk(self.k, -1).indices                          # (N, k)
        rows = torch.gather(z, 1, idx.unsqueeze(-1).expand(-1, -1, self.total))
        x = F.relu(self.conv1(rows.reshape(-1, 1, self.k * self.total)))
        x = F.relu(self.conv2(F.max_pool1d(x, 2)))
        x = F.relu(self.fc(x.flatten(1)))
        return self.out(x), rows


class MADEDensity(nn.Module):
    """MADE on binarised 28 x 28 images (784 inputs, x > 0): two masked
    hidden layers of 500 (ReLU) and a masked direct input-to-output
    connection, the natural order, the connectivity ensemble of 4 masks
    (each mask set a fixed buffer, the weights shared); per mask the
    Bernoulli log-likelihood sum_d x_d log p_d + (1 - x_d) log(1 - p_d)
    from the logits; ensembled by log-mean-exp.  Returns the
    log-likelihood (N, 1) and the conditionals averaged over the masks
    (N, 784)."""

    def __init__(self, dim=784, hidden=(500, 500), masks=4):
        super().__init__()
        self.masks = masks
        sizes = (dim,) + tuple(hidden) + (dim,)
        self.layers = nn.ModuleList([nn.Linear(sizes[i], sizes[i + 1]) for i in range(len(sizes) - 1)])
        self.direct = nn.Linear(dim, dim, bias=False)
        g = torch.Generator().manual_seed(40)
        order = torch.arange(1, dim + 1)
        for m in range(masks):
            degs = [order]
            for hsz in hidden:
                low = int(degs[-1].min())
                degs.append(torch.randint(low, dim, (hsz,), generator=g))
            for i in range(len(hidden)):
                self.register_buffer(f"m{m}_{i}", (degs[i + 1].unsqueeze(1) >= degs[i].unsqueeze(0)).float())
            self.register_buffer(f"m{m}_{len(hidden)}", (order.unsqueeze(1) > degs[-1].unsqueeze(0)).float())
        self.register_buffer("m_direct", (order.unsqueeze(1) > order.unsqueeze(0)).float())

    def forward(self, image):                     # (N, 784)
        x = (image > 0.0).float()
        lls, probs = [], []
        for m in range(self.masks):
            h = x
            for i, layer in enumerate(self.layers):
                h = F.linear(h, layer.weight * getattr(self, f"m{m}_{i}"), layer.bias)
                if i < len(self.layers) - 1:
                    h = F.relu(h)
            logits = h + F.linear(x, self.direct.weight * self.m_direct)
            ll = (x * logits - F.softplus(logits)).sum(-1, keepdim=True)
            lls.append(ll)
            probs.append(torch.sigmoid(logits))
        ll = torch.logsumexp(torch.cat(lls, 1), 1, keepdim=True) - math.log(self.masks)
        return ll, torch.stack(probs, 0).mean(0)


class WideDeepRec(nn.Module):
    """Wide & Deep over 8 categorical fields (1000 ids each) and 13 dense
    features: wide part, a weight per id (one 8000-row table, field
    offsets) plus the 28 pairwise cross-product features hashed into
    100003 buckets ((28 pairs x 10^6 + a 1000 + b) mod 100003, one weight
    each), plus a Linear of the dense features; deep part, an embedding of
    32 per field, concatenated with log(1 + |x|) of the dense features
    (269), ReLU layers of 1024, 512, 256 and a Linear to 1; sigmoid of the
    sum.  Returns the probability (N, 1), the wide logit (N, 1) and the
    deep logit (N, 1)."""

    def __init__(self, fields=8, ids=1000, dense=13, dim=32, buckets=100003, layers=(1024, 512, 256)):
        super().__init__()
        self.fields, self.ids, self.buckets = fields, ids, buckets
        self.embs = nn.ModuleList([nn.Embedding(ids, dim) for _ in range(fields)])
        self.wide_ids = nn.Embedding(fields * ids, 1)
        self.wide_cross = nn.Embedding(buckets, 1)
        self.wide_dense = nn.Linear(dense, 1)
        self.deep = _mlp((fields * dim + dense,) + tuple(layers) + (1,))
        self.register_buffer("offsets", torch.arange(fields) * ids)
        pairs = [(i, j) for i in range(fields) for j in range(i + 1, fields)]
        self.register_buffer("pi", torch.tensor([p[0] for p in pairs]))
        self.register_buffer("pj", torch.tensor([p[1] for p in pairs]))
        self.register_buffer("pair_off", torch.arange(len(pairs)) * ids * ids)

    def forward(self, cats, dense):               # (N, 8) int64, (N, 13)
        a, b = cats[:, self.pi], cats[:, self.pj]                           # (N, 28)
        cross = torch.remainder(self.pair_off + a * self.ids + b, self.buckets)
        wide = self.wide_ids(cats + self.offsets).sum((1, 2)).unsqueeze(1) \
            + self.wide_cross(cross).sum((1, 2)).unsqueeze(1) + self.wide_dense(dense)
        e = torch.cat([emb(cats[:, i]) for i, emb in enumerate(self.embs)]
                      + [torch.log1p(dense.abs())], -1)
        deep = self.deep(e)
        return torch.sigmoid(wide + deep), wide, deep


class RelationalAgent(nn.Module):
    """The relational Box-World agent on 3 x 14 x 14 observations: Conv 2 x 2
    (12) and Conv 2 x 2 (24) with ReLU to a 12 x 12 map, x and y
    coordinates appended (26), each of the 144 entities projected to 64;
    a relational block (multi-head dot-product attention, 2 heads of 32,
    residual and LayerNorm, a two-layer MLP of 256 with residual and
    LayerNorm) applied 4 times with shared weights; feature-wise max over
    the entities, four Linear layers of 256 with ReLU, the policy over 4
    actions and the baseline.  Returns the policy (N, 4), the logits (N,
    4) and the baseline (N, 1)."""

    def __init__(self, size=14, dim=64, heads=2, mlp=256, iters=4, actions=4, fc=256):
        super().__init__()
        self.heads, self.iters = heads, iters
        self.conv = nn.Sequential(nn.Conv2d(3, 12, 2), nn.ReLU(), nn.Conv2d(12, 24, 2), nn.ReLU())
        side = size - 2
        lin = torch.linspace(-1.0, 1.0, side)
        yy, xx = torch.meshgrid(lin, lin, indexing="ij")
        self.register_buffer("coords", torch.stack([xx, yy], 0).reshape(1, 2, -1).transpose(1, 2))
        self.proj = nn.Linear(26, dim)
        self.qkv = nn.Linear(dim, 3 * dim, bias=False)
        self.o = nn.Linear(dim, dim)
        self.ln1, self.ln2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.mlp = _mlp((dim, mlp, dim))
        self.fc = _mlp((dim,) + (fc,) * 4, last_act=True)
        self.policy = nn.Linear(fc, actions)
        self.value = nn.Linear(fc, 1)

    def forward(self, obs):                       # (N, 3, 14, 14)
        f = self.conv(obs).flatten(2).transpose(1, 2)                       # (N, E, 24)
        x = self.proj(torch.cat([f, self.coords.expand(f.shape[0], -1, -1)], -1))
        n_e, d = x.shape[1], x.shape[2]
        hd = d // self.heads
        for _ in range(self.iters):
            q, k, v = self.qkv(x).view(-1, n_e, 3, self.heads, hd).permute(2, 0, 3, 1, 4)
            att = torch.softmax(torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(hd), -1)
            a = torch.matmul(att, v).transpose(1, 2).reshape(-1, n_e, d)
            x = self.ln1(x + self.o(a))
            x = self.ln2(x + self.mlp(x))
        h = self.fc(x.max(1).values)
        logits = self.policy(h)
        return torch.softmax(logits, -1), logits, self.value(h)


class ANI1Potential(nn.Module):
    """ANI-1 (ANI-1x hyper-parameters) on 24 atoms of 4 elements (H, C, N,
    O): radial AEV terms exp(-16 (R_ij - R_s)^2) f_c(R_ij) (16 shifts 0.9
    .. 4.93, R_c 5.2) summed per neighbour element (64); angular terms
    2^(1 - 32) (1 + cos(theta_ijk - theta_s))^32 exp(-8 ((R_ij + R_ik) / 2
    - R_s)^2) f_c(R_ij) f_c(R_ik) (8 angle and 4 radial shifts, R_c 3.5,
    theta from acos(0.95 cos)) summed per unordered element pair (320),
    the pair sums one MatMul over the (j, k) plane; the AEV (384) through
    the network of every element (384 -> 160, 144, 128, 128 -> 128, 112,
    112, 112 -> 96 -> 1, CELU 0.1) and the atom's own selected by a
    one-hot.  Returns the energy (N, 1) and the atomic energies (N, 24)."""

    def __init__(self, atoms=24, species=4, rc_r=5.2, rc_a=3.5, eta_r=16.0, eta_a=8.0, zeta=32.0):
        super().__init__()
        self.rc_r, self.rc_a, self.eta_r, self.eta_a, self.zeta = rc_r, rc_a, eta_r, eta_a, zeta
        self.register_buffer("shf_r", 0.9 + 0.26875 * torch.arange(16.0))
        self.register_buffer("shf_a", torch.tensor([0.9, 1.55, 2.2, 2.85]))
        self.register_buffer("shf_z", math.pi / 16.0 + math.pi / 8.0 * torch.arange(8.0))
        self.register_buffer("not_self", 1.0 - torch.eye(atoms))
        self.register_buffer("onehot", torch.eye(species))
        pair = torch.zeros(species * species, species * (species + 1) // 2)
        p = 0
        for a in range(species):
            for b in range(a, species):
                pair[a * species + b, p] = pair[b * species + a, p] = 1.0
                p += 1
        self.register_buffer("pair", pair)
        widths = ((160, 128, 96), (144, 112, 96), (128, 112, 96), (128, 112, 96))
        aev = 16 * species + 32 * species * (species + 1) // 2
        self.nets = nn.ModuleList([nn.Sequential(nn.Linear(aev, w[0]), nn.CELU(0.1), nn.Linear(w[0], w[1]),
                                                 nn.CELU(0.1), nn.Linear(w[1], w[2]), nn.CELU(0.1),
                                                 nn.Linear(w[2], 1)) for w in widths])

    def forward(self, coords, species):           # (N, 24, 3), (N, 24) int64
        n_a = coords.shape[1]
        s = self.onehot[species]                                            # (N, A, S)
        vec = coords.unsqueeze(1) - coords.unsqueeze(2)                     # (N, A, A, 3): j - i
        r = torch.sqrt((vec * vec).sum(-1) + 1.0e-8)                        # (N, A, A)
        fc_r = (0.5 * torch.cos(math.pi * r / self.rc_r) + 0.5) * (r < self.rc_r).float() * self.not_self
        rad = torch.exp(-self.eta_r * (r.unsqueeze(-1) - self.shf_r) ** 2) * fc_r.unsqueeze(-1)   # (N, A, A, 16)
        g_r = torch.matmul(rad.transpose(2, 3), s.unsqueeze(1)).flatten(2)    # (N, A, 64)
        fc_a = (0.5 * torch.cos(math.pi * r / self.rc_a) + 0.5) * (r < self.rc_a).float() * self.not_self
        cos = torch.matmul(vec, vec.transpose(2, 3)) / (r.unsqueeze(-1) * r.unsqueeze(-2))
        theta = torch.acos(0.95 * cos)                                      # (N, A, A, A)
        ang = 2.0 * ((1.0 + torch.cos(theta.unsqueeze(-1) - self.shf_z)) * 0.5) ** self.zeta   # (..., 8)
        rm = 0.5 * (r.unsqueeze(-1) + r.unsqueeze(-2))
        fcc = fc_a.unsqueeze(-1) * fc_a.unsqueeze(-2) * self.not_self      # j != k
        radial = torch.exp(-self.eta_a * (rm.unsqueeze(-1) - self.shf_a) ** 2) * fcc.unsqueeze(-1)  # (..., 4)
        term = (ang.unsqueeze(-1) * radial.unsqueeze(-2)).reshape(-1, n_a, n_a * n_a, 32)
        sp = (s.unsqueeze(2).unsqueeze(-1) * s.unsqueeze(1).unsqueeze(-2)).reshape(-1, n_a * n_a, s.shape[-1] ** 2)
        pairs = 0.5 * torch.matmul(sp, self.pair).unsqueeze(1)              # (N, 1, A A, 10)
        g_a = torch.matmul(term.transpose(2, 3), pairs).flatten(2)          # (N, A, 320)
        aev = torch.cat([g_r, g_a], -1)
        e = torch.cat([net(aev) for net in self.nets], -1)                  # (N, A, S)
        atomic = (e * s).sum(-1)
        return atomic.sum(-1, keepdim=True), atomic


BLIND40 = {
    "slic_superpixels": dict(ctor=SLICSuperpixels, family="slic-local-kmeans-superpixels",
                             inputs=[("image", ("N", 3, 40, 40), "float32", None)]),
    "lbfgs_logistic_fit": dict(ctor=LBFGSLogisticFit, family="lbfgs-two-loop-quasi-newton",
                               inputs=[("points", ("N", 64, 8), "float32", None),
                                       ("targets", ("N", 64), "float32", None)]),
    "kcore_peeling": dict(ctor=KCorePeeling, family="k-core-peeling-decomposition",
                          inputs=[("features", ("N", 64, 8), "float32", None)]),
    "peleenet": dict(ctor=PeleeNet, family="two-way-dense-stem-block-pelee",
                     inputs=[("image", ("N", 3, 160, 160), "float32", None)]),
    "musicnn_tagger": dict(ctor=MusicnnTagger, family="musically-motivated-timbral-temporal-cnn",
                           inputs=[("logmel", ("N", 128, 96), "float32", None)]),
    "bidaf_reader": dict(ctor=BiDAFReader, family="bidirectional-attention-flow-reader",
                         inputs=[("context", ("N", 96), "int64", 20000),
                                 ("query", ("N", 16), "int64", 20000)]),
    "darnn_forecast": dict(ctor=DARNNForecast, family="dual-stage-input-temporal-attention-rnn",
                           inputs=[("drivers", ("N", 16, 40), "float32", None),
                                   ("history", ("N", 15), "float32", None)]),
    "sortpool_dgcnn": dict(ctor=SortPoolDGCNN, family="sortpooling-gcn-1d-conv-graph-classifier",
                           inputs=[("features", ("N", 64, 16), "float32", None),
                                   ("adjacency", ("N", 64, 64), "float32", None)]),
    "made_density": dict(ctor=MADEDensity, family="made-masked-mlp-autoregressive-ensemble",
                         inputs=[("image", ("N", 784), "float32", None)]),
    "wide_deep_rec": dict(ctor=WideDeepRec, family="wide-and-deep-cross-product-rec",
                          inputs=[("cats", ("N", 8), "int64", 1000),
                                  ("dense", ("N", 13), "float32", None)]),
    "relational_agent": dict(ctor=RelationalAgent, family="relational-self-attention-entity-agent",
                             inputs=[("obs", ("N", 3, 14, 14), "float32", None)]),
    "ani1_potential": dict(ctor=ANI1Potential, family="atomic-environment-vector-element-nets",
                           inputs=[("coords", ("N", 24, 3), "float32", None),
                                   ("species", ("N", 24), "int64", 4)]),
}
