r"""BLIND41: the forty-first blind set, written on 2026-12-08 by a helper
session before any of it was measured.  Nothing in it has been timed,
profiled or run through onnxcost predict; it is to be measured first and
scored once only, at the end, with the code as it stands then
(bench/zoo_accuracy.py --set blind41).  None of its twelve families occurs
in another set (ZOO, BLIND, BLIND2 ... BLIND40, the reference models), so
no plan rule, feature, fit or calibration can have been made with any of
them in view.

Three families unroll a classical procedure into a fixed graph of small
kernels (several hundred to a few thousand nodes each, Constants
included), each with a small learned part:

  * Hamiltonian (hybrid) Monte Carlo (S. Duane, A. D. Kennedy, B. J.
    Pendleton & D. Roweth, "Hybrid Monte Carlo", 1987; R. M. Neal, "MCMC
    using Hamiltonian dynamics", 2011) on the posterior of a Bayesian
    logistic regression: an MLP maps 48 points to 10 features (and a
    bias), the soft labels are given, and 4 chains run 8 HMC transitions
    of 10 leapfrog steps each (a learned step size and diagonal mass), the
    momenta and the uniforms of the Metropolis test fixed draws.  Each
    proposal is accepted or rejected by the change of the Hamiltonian.
    The posterior mean of the weights, the acceptance rate per transition,
    the posterior predictive probabilities and the last potential energy
    come out.  (Unlike blind16's Hamiltonian neural network, nothing here
    learns the dynamics: the sampler is the classical algorithm.)
  * Optimal partitioning (B. Jackson, J. D. Scargle, D. Barnes, S.
    Arabhi, A. Alt, P. Gioumousis, E. Gwin, P. Sangtrakulcharoen, L. Tan &
    T. T. Tsai, "An algorithm for optimal partitioning of data on an
    interval", 2005), the exact penalised change-point dynamic programme:
    a small Conv1d net maps a 4-channel series of 64 steps to 8 features
    and a learned penalty; the segment cost (the within-segment sum of
    squares, from prefix sums, for every pair of ends) is one matrix, and
    F(t) = min_s F(s) + C(s, t) + beta is unrolled for t = 1 .. 64 (a
    ReduceMin and an ArgMin each), then the back-pointers are followed 64
    times to mark the change points.  The optimal costs, the change-point
    mask, the number of segments and the piecewise-constant fit come out.
  * Betweenness centrality by Brandes' algorithm (U. Brandes, "A Faster
    Algorithm for Betweenness Centrality", 2001), run from every source at
    once: an MLP embeds 48 nodes, and on each of four symmetric
    k-nearest-neighbour graphs (k = 2, 3, 4, 6, by learned similarity) a
    breadth-first sweep of 12 levels counts the shortest paths (sigma)
    level by level, and the backward sweep accumulates the dependencies
    delta_v += sigma_v / sigma_w (1 + delta_w) level by level.  The
    betweenness and the harmonic closeness of every node on every graph,
    the size of every level, and a readout pooled by betweenness come out.

The other nine are published network designs of ordinary sizes:

  * The Residual Attention Network (F. Wang, M. Jiang, C. Qian, S. Yang,
    C. Li, H. Zhang, X. Wang & X. Tang, "Residual Attention Network for
    Image Classification", 2017), its CIFAR Attention-56 layout at a
    quarter of the width on 32 x 32 images: pre-activation bottleneck
    residual units, three attention modules (p = 1, t = 2, r = 1) whose
    soft mask branch goes down by max pooling and back up by bilinear
    interpolation (with skip connections at 32 x 32 and 16 x 16), ends in
    two 1 x 1 Convs and a sigmoid and is applied as (1 + M) T, then three
    more units, global pooling and 10 classes.
  * Listen, Attend and Spell (W. Chan, N. Jaitly, Q. Le & O. Vinyals,
    "Listen, Attend and Spell: A Neural Network for Large Vocabulary
    Conversational Speech Recognition", 2016), narrowed: 160 frames of 40
    log-mel filterbanks, a BLSTM of 128 and three pyramidal BLSTMs of 128
    (each halving time by concatenating neighbouring frames, 160 -> 20),
    and a speller of two LSTMCells of 256 with content attention (MLP
    projections, dot product, softmax over the 20 listener states) run for
    24 teacher-forced characters (32 symbols), the character distribution
    from an MLP on the state and context.
  * VDCNN (A. Conneau, H. Schwenk, L. Barrault & Y. LeCun, "Very Deep
    Convolutional Networks for Text Classification", 2017), depth 9: 1014
    characters of a 70-symbol alphabet, a lookup table of 16, a Conv of 64,
    convolutional blocks of two (Conv 3, BatchNorm, ReLU) at 64, 128, 256
    and 512 with halving max pools between them, k-max pooling (k = 8,
    order kept), and Linear layers of 2048, 2048 and 5 classes.
  * DanQ (D. Quang & X. Xie, "DanQ: a hybrid convolutional and recurrent
    deep neural network for quantifying the function of DNA sequences",
    2016), its BiLSTM narrowed: 1000 bases one-hot, a Conv of 320 filters
    of width 26, max pooling of 13 (to 75 steps), a BiLSTM of 128 per
    direction, all its states flattened into Linear layers of 925 and 919
    sigmoid outputs (the DeepSEA chromatin features).
  * Jumping Knowledge networks (K. Xu, C. Li, Y. Tian, T. Sonobe, K.
    Kawarabayashi & S. Jegelka, "Representation Learning on Graphs with
    Jumping Knowledge Networks", 2018), the LSTM-attention aggregator: 64
    nodes of 32 features and a dense adjacency, six symmetric-normalised
    graph convolutions of 64, a BiLSTM of 32 over every node's six layer
    representations, a softmax attention over the layers from the LSTM
    states, the weighted sum and 7 node classes.
  * The MAC network (D. A. Hudson & C. D. Manning, "Compositional
    Attention Networks for Machine Reasoning", 2018), at d = 192 with 12
    cells: 1024 x 14 x 14 image features through two 3 x 3 Convs as the
    knowledge base, a question of 24 words through a BiLSTM, and 12
    recurrent Memory, Attention and Composition cells, each a control unit
    (attention over the question words), a read unit (attention over the
    196 image cells, guided by the memory and the control) and a write unit
    (self-attention over the earlier memories and a memory gate), then an
    MLP on the question and the last memory to 28 answers.
  * The Ladder Variational Autoencoder (C. K. Soenderby, T. Raiko, L.
    Maaloee, S. K. Soenderby & O. Winther, "Ladder Variational
    Autoencoders", 2016) on 784-pixel images: five deterministic bottom-up
    MLP blocks (512, 256, 128, 64, 32; BatchNorm, leaky ReLU) with
    Gaussian heads of 64, 32, 16, 8, 4, the top-down pass whose
    generative Gaussians are merged with the bottom-up ones by precision
    weighting, samples with fixed noise, the analytic KL per layer, the
    Bernoulli decoder and the ELBO.
  * The Attentional Factorization Machine (J. Xiao, H. Ye, X. He, H.
    Zhang, F. Wu & T.-S. Chua, "Attentional Factorization Machines:
    Learning the Weight of Feature Interactions via Attention Networks",
    2017): 16 categorical fields of 1000 ids, embeddings of 64, the 120
    pairwise element-wise interactions, an attention network (64 -> 32,
    ReLU, 1) softmaxed over the pairs, the attention-pooled interaction
    projected to a score, plus the linear term and a global bias.
  * Neural graph fingerprints (D. Duvenaud, D. Maclaurin, J.
    Aguilera-Iparraguirre, R. Gomez-Bombarelli, T. Hirzel, A.
    Aspuru-Guzik & R. P. Adams, "Convolutional Networks on Graphs for
    Learning Molecular Fingerprints", 2015): 40 atoms of 62 features and
    a bond adjacency, radius 4, each layer summing an atom with its
    neighbours and applying the weight matrix of the atom's degree (0 ..
    5) and a sigmoid, every layer's softmax (a fingerprint of 512) summed
    over atoms and layers, and an MLP (512 -> 100 -> 1) on the fingerprint.

To be measured with

    OMP_WAIT_POLICY=PASSIVE /usr/bin/python3 scripts/measure_zoo.py --set blind41 \
        hmc_logistic_posterior changepoint_partition brandes_betweenness \
        residual_attention_net las_speller vdcnn_text danq_dna \
        jknet_graph mac_network ladder_vae afm_ctr neural_fingerprint \
        --threads 1 2 --batches 1 4 16

Same table form as export.py's ZOO (ctor, family, inputs); exported by
scripts/ort_graphs.py's export() (opset 13, symbolic batch N).  The file was
written by a helper before anything measured or predicted it.
"""

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

class HMCLogisticPosterior(nn.Module):
    """Hamiltonian Monte Carlo on a Bayesian logistic regression per sample:
    an MLP (8 -> 32 -> 10, tanh) maps 48 points to features, a bias column
    is appended (d = 11), the soft labels are sigmoid(y), the prior is
    N(0, 1); U(w) = sum softplus(z) - t z + ||w||^2 / 2, grad Phi^T
    (sigmoid(z) - t) + w.  4 chains from w = 0, 8 transitions of 10
    leapfrog steps (step size softplus of a learned scalar, diagonal mass
    exp of a learned vector), the momenta (8, 4, 11) and the log-uniforms
    (8, 4) fixed buffers; accept where log u < H(old) - H(new).  Returns
    the mean of the chains' states over transitions 3 .. 8 (N, 11), the
    acceptance rate per transition (N, 8), the posterior predictive
    probabilities (N, 48) and the chains' last potential energy (N, 4)."""

    def __init__(self, dim=8, hidden=32, feat=10, chains=4, transitions=8, leapfrogs=10, burn=2):
        super().__init__()
        self.transitions, self.leapfrogs, self.burn = transitions, leapfrogs, burn
        d = feat + 1
        self.phi = _mlp((dim, hidden, feat), act=nn.Tanh, last_act=True)
        self.log_step = nn.Parameter(torch.tensor(-2.5))
        self.log_mass = nn.Parameter(0.1 * torch.randn(d))
        self.register_buffer("momenta", torch.randn(transitions, chains, d))
        self.register_buffer("log_u", torch.log(torch.rand(transitions, chains).clamp_min(1.0e-6)))
        self.register_buffer("w0", torch.zeros(1, chains, d))

    def _potential(self, phi, t, w):              # w (N, C, d) -> (N, C)
        z = torch.matmul(w, phi.transpose(1, 2))                             # (N, C, P)
        return (F.softplus(z) - t.unsqueeze(1) * z).sum(-1) + 0.5 * (w * w).sum(-1)

    def _grad(self, phi, t, w):
        z = torch.matmul(w, phi.transpose(1, 2))
        return torch.matmul(torch.sigmoid(z) - t.unsqueeze(1), phi) + w

    def forward(self, points, targets):           # (N, 48, 8), (N, 48)
        h = self.phi(points)
        phi = torch.cat([h, torch.ones_like(h[..., :1])], -1)               # (N, P, d)
        t = torch.sigmoid(targets)
        eps = F.softplus(self.log_step)
        inv_mass = torch.exp(-self.log_mass)
        w = self.w0 + 0.0 * phi[:, :1, :]                                  # (N, C, d)
        u = self._potential(phi, t, w)
        g = self._grad(phi, t, w)
        rates, kept = [], []
        for i in range(self.transitions):
            p0 = self.momenta[i] * torch.exp(0.5 * self.log_mass)
            k0 = 0.5 * (p0 * p0 * inv_mass).sum(-1)
            q, p, gq = w, p0 - 0.5 * eps * g, g
            for j in range(self.leapfrogs):
                q = q + eps * inv_mass * p
                gq = self._grad(phi, t, q)
                if j < self.leapfrogs - 1:
                    p = p - eps * gq
            p = p - 0.5 * eps * gq
            u1 = self._potential(phi, t, q)
            k1 = 0.5 * (p * p * inv_mass).sum(-1)
            acc = (self.log_u[i] < (u + k0) - (u1 + k1)).float()           # (N, C)
            a3 = acc.unsqueeze(-1)
            w = a3 * q + (1.0 - a3) * w
            g = a3 * gq + (1.0 - a3) * g
            u = acc * u1 + (1.0 - acc) * u
            rates.append(acc.mean(-1, keepdim=True))
            if i >= self.burn:
                kept.append(w)
        samples = torch.cat(kept, 1)                                        # (N, S C, d)
        probs = torch.sigmoid(torch.matmul(samples, phi.transpose(1, 2))).mean(1)
        return samples.mean(1), torch.cat(rates, 1), probs, u


class ChangepointPartition(nn.Module):
    """Optimal partitioning of a 64-step series: a Conv1d net (4 -> 16 -> 8,
    kernel 5, 1; ReLU) gives 8 features per step and beta = softplus of a
    Linear on their mean (+ 1); with prefix sums S1 (N, 65, 8), S2 (N, 65),
    C(s, t) = S2_t - S2_s - ||S1_t - S1_s||^2 / (t - s) for every s < t
    (MatMul), F(0) = -beta, F(t) = min_{s<t} F(s) + C(s, t) + beta with its
    argmin the back-pointer, unrolled for t = 1 .. 64; the back-pointers are
    followed 64 times from t = 64 (GatherElements) to mark the segment
    ends.  Returns the optimal costs F (N, 65), the segment-end mask (N,
    64), the number of segments (N, 1) and the piecewise-constant fit of
    the features (N, 64, 8)."""

    def __init__(self, chans=4, length=64, feat=8, hidden=16):
        super().__init__()
        self.length = length
        self.net = nn.Sequential(nn.Conv1d(chans, hidden, 5, padding=2), nn.ReLU(),
                                 nn.Conv1d(hidden, hidden, 5, padding=2), nn.ReLU(), nn.Conv1d(hidden, feat, 1))
        self.pen = nn.Linear(feat, 1)
        idx = torch.arange(length + 1, dtype=torch.float32)
        self.register_buffer("seglen", (idx.view(1, -1) - idx.view(-1, 1)).clamp_min(1.0).unsqueeze(0))
        self.register_buffer("pos", torch.arange(1, length + 1).view(1, -1))   # end positions 1..T

    def forward(self, series):                    # (N, 4, 64)
        x = self.net(series).transpose(1, 2)                                # (N, T, D)
        beta = F.softplus(self.pen(x.mean(1))) + 1.0                        # (N, 1)
        zero = torch.zeros_like(x[:, :1])
        s1 = torch.cat([zero, torch.cumsum(x, 1)], 1)                        # (N, T+1, D)
        s2 = torch.cat([zero[..., 0], torch.cumsum((x * x).sum(-1), 1)], 1)  # (N, T+1)
        n1 = (s1 * s1).sum(-1)
        dist = n1.unsqueeze(2) + n1.unsqueeze(1) - 2.0 * torch.matmul(s1, s1.transpose(1, 2))
        cost = (s2.unsqueeze(1) - s2.unsqueeze(2)) - dist / self.seglen       # (N, s, t)
        fs = [-beta]
        backs = [torch.zeros_like(beta, dtype=torch.int64)]
        for t in range(1, self.length + 1):
            cand = torch.cat(fs, 1) + cost[:, :t, t] + beta                  # (N, t)
            best = cand.min(1, keepdim=True)
            fs.append(best.values)
            backs.append(best.indices)
        f = torch.cat(fs, 1)                                                # (N, T+1)
        back = torch.cat(backs, 1)                                          # (N, T+1) int64
        cur = torch.full_like(backs[0], self.length)
        ends = torch.zeros_like(f[:, 1:])
        for _ in range(self.length):
            ends = torch.maximum(ends, (self.pos == cur).float())
            cur = torch.gather(back, 1, cur)
        count = ends.sum(-1, keepdim=True)
        # segment id of every step: the number of ends strictly before it
        seg = torch.cumsum(ends, 1) - ends                                  # (N, T)
        onehot = (seg.unsqueeze(-1) == torch.arange(self.length, device=x.device).float()).float()
        means = torch.matmul(onehot.transpose(1, 2), x) / (onehot.sum(1).unsqueeze(-1) + 1.0e-6)
        fit = torch.matmul(onehot, means)
        return f, ends, count, fit


class BrandesBetweenness(nn.Module):
    """Brandes' betweenness centrality from all 48 sources at once on four
    learned graphs: an MLP (8 -> 32 -> 16, tanh) embeds the nodes, a
    bilinear similarity (self excluded) gives each node's k nearest (TopK,
    threshold at the k-th) for k = 2, 3, 4, 6, symmetrised by Max.  Forward
    sweep of 12 levels: paths = (sigma * frontier) A, frontier = [paths > 0]
    (1 - visited), sigma += paths frontier; backward sweep from level 12 to
    1: delta += frontier_{d-1} sigma ((frontier_d (1 + delta) / sigma) A);
    betweenness = sum over sources / 2, harmonic closeness = sum 1/d over
    the levels.  A readout MLP (16 + 8 -> 64 -> 64) pooled with softmax
    weights of the betweenness, Linear 64 -> 4.  Returns the betweenness
    (N, 48, 4), the closeness (N, 48, 4), the level sizes (N, 4, 12) and
    the readout (N, 4)."""

    def __init__(self, nodes=48, dim=8, hidden=32, emb=16, ks=(2, 3, 4, 6), levels=12, out=4):
        super().__init__()
        self.ks, self.levels, self.nodes = ks, levels, nodes
        self.embed = _mlp((dim, hidden, emb), act=nn.Tanh, last_act=True)
        self.bil = nn.Linear(emb, emb, bias=False)
        self.readout = _mlp((emb + 2 * len(ks), 64, 64), last_act=True)
        self.head = nn.Linear(64, out)
        self.register_buffer("eye", torch.eye(nodes).unsqueeze(0))

    def _sweep(self, adj):                        # adj (N, V, V) -> (N, V), (N, V), (N, L)
        eye = self.eye
        sigma = eye + 0.0 * adj
        frontier, visited = sigma, sigma
        fronts, sizes = [frontier], []
        close = torch.zeros_like(adj[..., 0])
        for d in range(1, self.levels + 1):
            paths = torch.matmul(sigma * frontier, adj)                     # (N, S, V)
            frontier = (paths > 0.0).float() * (1.0 - visited)
            sigma = sigma + paths * frontier
            visited = visited + frontier
            fronts.append(frontier)
            sizes.append(frontier.sum((1, 2)).unsqueeze(1))
            close = close + frontier.sum(1) / float(d)
        delta = torch.zeros_like(sigma)
        inv_sigma = 1.0 / torch.clamp(sigma, min=1.0)
        for d in range(self.levels, 0, -1):
            coef = fronts[d] * (1.0 + delta) * inv_sigma
            delta = delta + fronts[d - 1] * sigma * torch.matmul(coef, adj.transpose(1, 2))
        between = 0.5 * (delta * (1.0 - eye)).sum(1)
        return between, close, torch.cat(sizes, 1)

    def forward(self, features):                  # (N, 48, 8)
        h = self.embed(features)
        sim = torch.matmul(self.bil(h), h.transpose(1, 2))
        sim = 0.5 * (sim + sim.transpose(1, 2)) - 1.0e4 * self.eye
        order = sim.topk(max(self.ks), -1).values                           # (N, V, kmax)
        betw, clos, sizes = [], [], []
        for k in self.ks:
            a = (sim >= order[..., k - 1:k]).float()
            adj = torch.maximum(a, a.transpose(1, 2))
            b, c, s = self._sweep(adj)
            betw.append(b.unsqueeze(-1))
            clos.append(c.unsqueeze(-1))
            sizes.append(s.unsqueeze(1))
        betw, clos = torch.cat(betw, -1), torch.cat(clos, -1)
        scale = float(self.nodes * self.nodes)
        r = self.readout(torch.cat([h, betw / scale, clos / self.nodes], -1))
        wgt = torch.softmax(betw.mean(-1) / self.nodes, -1).unsqueeze(-1)
        return betw, clos, torch.cat(sizes, 1), self.head((r * wgt).sum(1))


# --------------------------------------------------------------------------
# Published designs
# --------------------------------------------------------------------------

class _PreActBottleneck(nn.Module):
    """Pre-activation bottleneck residual unit (BN-ReLU-Conv x 3), 1 x 1
    projection shortcut where the shape changes."""

    def __init__(self, cin, cout, stride=1):
        super().__init__()
        mid = cout // 4
        self.bn1, self.conv1 = nn.BatchNorm2d(cin), nn.Conv2d(cin, mid, 1, bias=False)
        self.bn2, self.conv2 = nn.BatchNorm2d(mid), nn.Conv2d(mid, mid, 3, stride, 1, bias=False)
        self.bn3, self.conv3 = nn.BatchNorm2d(mid), nn.Conv2d(mid, cout, 1, bias=False)
        self.short = None
        if cin != cout or stride != 1:
            self.short = nn.Conv2d(cin, cout, 1, stride, bias=False)

    def forward(self, x):
        a = F.relu(self.bn1(x))
        y = self.conv1(a)
        y = self.conv2(F.relu(self.bn2(y)))
        y = self.conv3(F.relu(self.bn3(y)))
        return y + (x if self.short is None else self.short(a))


class _AttentionModule(nn.Module):
    """Attention module (p = 1, t = 2, r = 1): a unit, the trunk of two
    units beside the soft mask branch (depth max-pool levels down, one unit
    per level, skip units at all but the lowest, bilinear up-sampling back,
    BN-ReLU-1x1 twice, sigmoid), (1 + M) T, a unit."""

    def __init__(self, c, depth):
        super().__init__()
        self.depth = depth
        self.pre = _PreActBottleneck(c, c)
        self.trunk = nn.Sequential(_PreActBottleneck(c, c), _PreActBottleneck(c, c))
        self.down = nn.ModuleList([_PreActBottleneck(c, c) for _ in range(depth)])
        self.skip = nn.ModuleList([_PreActBottleneck(c, c) for _ in range(depth - 1)])
        self.up = nn.ModuleList([_PreActBottleneck(c, c) for _ in range(depth - 1)])
        self.mask_out = nn.Sequential(nn.BatchNorm2d(c), nn.ReLU(), nn.Conv2d(c, c, 1, bias=False),
                                      nn.BatchNorm2d(c), nn.ReLU(), nn.Conv2d(c, c, 1, bias=False), nn.Sigmoid())
        self.post = _PreActBottleneck(c, c)

    def forward(self, x):
        x = self.pre(x)
        t = self.trunk(x)
        m = x
        skips = []
        for i in range(self.depth):
            m = self.down[i](F.max_pool2d(m, 3, 2, 1))
            if i < self.depth - 1:
                skips.append(self.skip[i](m))
        for i in range(self.depth - 1, 0, -1):
            m = F.interpolate(m, scale_factor=2.0, mode="bilinear", align_corners=False) + skips[i - 1]
            m = self.up[i - 1](m)
        m = F.interpolate(m, scale_factor=2.0, mode="bilinear", align_corners=False)
        return self.post((1.0 + self.mask_out(m)) * t)


class ResidualAttentionNet(nn.Module):
    """Attention-56 for 32 x 32 images at quarter width: Conv 3 x 3 of 16,
    a unit to 64, the attention module at 32 x 32 (mask depth 3), a
    strided unit to 128, the module at 16 x 16 (depth 2), a strided unit to
    256, the module at 8 x 8 (depth 1), a strided unit to 512 and two more
    units at 4 x 4, BN-ReLU, global pooling, Linear 512 -> 10."""

    def __init__(self, classes=10):
        super().__init__()
        self.stem = nn.Conv2d(3, 16, 3, padding=1, bias=False)
        self.body = nn.Sequential(
            _PreActBottleneck(16, 64), _AttentionModule(64, 3),
            _PreActBottleneck(64, 128, 2), _AttentionModule(128, 2),
            _PreActBottleneck(128, 256, 2), _AttentionModule(256, 1),
            _PreActBottleneck(256, 512, 2), _PreActBottleneck(512, 512), _PreActBottleneck(512, 512))
        self.bn = nn.BatchNorm2d(512)
        self.fc = nn.Linear(512, classes)

    def forward(self, image):                     # (N, 3, 32, 32)
        x = F.relu(self.bn(self.body(self.stem(image))))
        return self.fc(x.mean((2, 3)))


class LASSpeller(nn.Module):
    """Listen, Attend and Spell: the listener a BLSTM of 128 on 160 frames
    of 40 filterbanks, then three pyramidal BLSTMs of 128 on the
    neighbouring-pair concatenation (160 -> 80 -> 40 -> 20); the speller an
    embedding of 32 symbols (64), two LSTMCells of 256, phi / psi MLPs (to
    128) for the attention energies <phi(s), psi(h)>, softmax over the 20
    states, the context, and the character MLP (256 + 256 -> 256 -> 32) on
    [s, c], for 24 teacher-forced steps.  Returns the log-probabilities
    (N, 24, 32) and the attention weights (N, 24, 20)."""

    def __init__(self, mels=40, hidden=128, vocab=32, emb=64, dec=256, att=128, pyramids=3):
        super().__init__()
        self.base = nn.LSTM(mels, hidden, batch_first=True, bidirectional=True)
        self.pyr = nn.ModuleList([nn.LSTM(4 * hidden, hidden, batch_first=True, bidirectional=True)
                                  for _ in range(pyramids)])
        self.embed = nn.Embedding(vocab, emb)
        self.cell1 = nn.LSTMCell(emb + 2 * hidden, dec)
        self.cell2 = nn.LSTMCell(dec, dec)
        self.phi = _mlp((dec, att, att))
        self.psi = _mlp((2 * hidden, att, att))
        self.char = _mlp((dec + 2 * hidden, dec, vocab))
        self.dec = dec

    def forward(self, fbank, chars):              # (N, 160, 40), (N, 24) int64
        h, _ = self.base(fbank)
        for lstm in self.pyr:
            n, t, c = h.shape
            h, _ = lstm(h.reshape(n, t // 2, 2 * c))
        keys = self.psi(h)                                                  # (N, U, att)
        e = self.embed(chars)
        s1 = torch.zeros_like(h[:, 0, :1]).expand(-1, self.dec)
        c1, s2, c2 = s1, s1, s1
        ctx = torch.zeros_like(h[:, 0])
        outs, atts = [], []
        for i in range(chars.shape[1]):
            s1, c1 = self.cell1(torch.cat([e[:, i], ctx], -1), (s1, c1))
            s2, c2 = self.cell2(s1, (s2, c2))
            energy = torch.matmul(keys, self.phi(s2).unsqueeze(-1)).squeeze(-1)
            alpha = torch.softmax(energy, -1)                               # (N, U)
            ctx = torch.matmul(alpha.unsqueeze(1), h).squeeze(1)
            outs.append(torch.log_softmax(self.char(torch.cat([s2, ctx], -1)), -1).unsqueeze(1))
            atts.append(alpha.unsqueeze(1))
        return torch.cat(outs, 1), torch.cat(atts, 1)


class _VDConvBlock(nn.Module):
    """Two (Conv1d 3, BatchNorm1d, ReLU)."""

    def __init__(self, cin, cout):
        super().__init__()
        self.body = nn.Sequential(nn.Conv1d(cin, cout, 3, padding=1), nn.BatchNorm1d(cout), nn.ReLU(),
                                  nn.Conv1d(cout, cout, 3, padding=1), nn.BatchNorm1d(cout), nn.ReLU())

    def forward(self, x):
        return self.body(x)


class VDCNNText(nn.Module):
    """VDCNN depth 9: lookup table 70 x 16, Conv1d 16 -> 64 (3), blocks of
    64, 128, 256, 512 with MaxPool1d(3, 2, 1) between, k-max pooling (TopK
    8 over time, the indices put back in order by a second TopK, Gather),
    Linear 4096 -> 2048 -> 2048 -> 5 (ReLU)."""

    def __init__(self, vocab=70, emb=16, k=8, classes=5):
        super().__init__()
        self.k = k
        self.embed = nn.Embedding(vocab, emb)
        self.conv0 = nn.Conv1d(emb, 64, 3, padding=1)
        self.blocks = nn.ModuleList([_VDConvBlock(64, 64), _VDConvBlock(64, 128), _VDConvBlock(128, 256),
                                     _VDConvBlock(256, 512)])
        self.fc = _mlp((512 * k, 2048, 2048, classes))

    def forward(self, text):                      # (N, 1014) int64
        x = self.conv0(self.embed(text).transpose(1, 2))
        for i, block in enumerate(self.blocks):
            if i > 0:
                x = F.max_pool1d(x, 3, 2, 1)
            x = block(x)
        idx = x.topk(self.k, -1).indices.float()
        idx = idx.topk(self.k, -1, largest=False).values.long()            # ascending positions
        x = torch.gather(x, 2, idx)                                         # (N, 512, k)
        return self.fc(x.flatten(1))


class DanQ(nn.Module):
    """DanQ with the BiLSTM narrowed: 1000 bases (int64, 0 .. 3) one-hot by
    a Gather of an identity buffer, Conv1d 4 -> 320 of kernel 26 (ReLU),
    MaxPool 13 stride 13 (975 -> 75 steps), a BiLSTM of 128 per direction,
    every step's states flattened (75 x 256 = 19200), Linear 19200 -> 925
    (ReLU), Linear 925 -> 919, sigmoid.  Returns the probabilities of the
    919 chromatin features (N, 919)."""

    def __init__(self, filters=320, kernel=26, pool=13, length=1000, lstm=128, hidden=925, targets=919):
        super().__init__()
        self.pool = pool
        steps = (length - kernel + 1) // pool
        self.register_buffer("eye", torch.eye(4))
        self.conv = nn.Conv1d(4, filters, kernel)
        self.lstm = nn.LSTM(filters, lstm, batch_first=True, bidirectional=True)
        self.fc = _mlp((steps * 2 * lstm, hidden, targets))

    def forward(self, bases):                     # (N, 1000) int64
        x = self.eye[bases].transpose(1, 2)                                 # (N, 4, L)
        x = F.max_pool1d(F.relu(self.conv(x)), self.pool, self.pool)        # (N, 320, 75)
        states, _ = self.lstm(x.transpose(1, 2))                            # (N, 75, 256)
        return torch.sigmoid(self.fc(states.flatten(1)))


class JKNetGraph(nn.Module):
    """JK-Net with LSTM-attention layer aggregation: the adjacency
    binarised (> 0) and symmetrised (Max), A + I symmetric-normalised
    (D^-1/2 (A + I) D^-1/2), six GCN layers 32 -> 64 ... 64
    (ReLU); every node's six representations as a sequence of a BiLSTM of
    32, an attention score per layer from Linear 64 -> 1 on the LSTM
    states, softmax over layers, the weighted sum of the representations,
    Linear 64 -> 7.  Returns the class logits (N, 64, 7) and the layer
    attention (N, 64, 6)."""

    def __init__(self, dim=32, hidden=64, layers=6, lstm=32, classes=7):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(dim if i == 0 else hidden, hidden) for i in range(layers)])
        self.lstm = nn.LSTM(hidden, lstm, batch_first=True, bidirectional=True)
        self.score = nn.Linear(2 * lstm, 1)
        self.out = nn.Linear(hidden, classes)

    def forward(self, features, adjacency):      # (N, 64, 32), (N, 64, 64)
        v = features.shape[1]
        a = (adjacency > 0.0).float()
        a = torch.maximum(a, a.transpose(1, 2)) + torch.eye(v, device=features.device)
        dinv = 1.0 / torch.sqrt(a.sum(-1))
        a = dinv.unsqueeze(-1) * a * dinv.unsqueeze(1)
        h = features
        reps = []
        for lin in self.layers:
            h = F.relu(torch.matmul(a, lin(h)))
            reps.append(h.unsqueeze(2))
        seq = torch.cat(reps, 2)                                            # (N, V, L, H)
        n, _, nl, hd = seq.shape
        flat = seq.reshape(-1, nl, hd)
        states, _ = self.lstm(flat)
        att = torch.softmax(self.score(states).squeeze(-1), -1)            # (N V, L)
        pooled = torch.matmul(att.unsqueeze(1), flat).squeeze(1)
        return self.out(pooled).reshape(n, v, -1), att.reshape(n, v, nl)


class MACNetwork(nn.Module):
    """MAC network, d = 192, 12 cells: the 1024 x 14 x 14 image features
    through two Conv 3 x 3 to d (ELU) as the knowledge base k (196 cells);
    the question (24 words of a vocabulary of 90, embeddings of 300) through
    a BiLSTM of d / 2 per direction, contextual words cw and q = the final
    states.  Cell i: q_i = W_i q (one Linear per cell); control cq = W [c,
    q_i], cv = softmax_s W (cq * cw_s), c = sum cv cw; read I = (W m) * (W
    k), I' = W [I, k], rv = softmax_hw W ELU(c * I'), r = sum rv k; write
    m_info = W [r, m], self-attention over the earlier controls softmax_j W
    (c * c_j) applied to the earlier memories, m' = W m_sa + W m_info, the
    gate sigmoid(W c) (a scalar) keeping m.  c_0 and m_0 learned.  Output
    MLP [q, m_12] (2d -> d, ELU, -> 28 answers).  Returns the answer logits
    (N, 28) and the read attention of every cell (N, 12, 196)."""

    def __init__(self, chans=1024, d=192, vocab=90, emb=300, steps=12, answers=28):
        super().__init__()
        self.steps = steps
        self.stem = nn.Sequential(nn.Conv2d(chans, d, 3, padding=1), nn.ELU(),
                                  nn.Conv2d(d, d, 3, padding=1), nn.ELU())
        self.embed = nn.Embedding(vocab, emb)
        self.lstm = nn.LSTM(emb, d // 2, batch_first=True, bidirectional=True)
        self.q_steps = nn.ModuleList([nn.Linear(d, d) for _ in range(steps)])
        self.c_in = nn.Linear(2 * d, d)
        self.c_att = nn.Linear(d, 1)
        self.r_mem = nn.Linear(d, d)
        self.r_know = nn.Linear(d, d)
        self.r_cat = nn.Linear(2 * d, d)
        self.r_att = nn.Linear(d, 1)
        self.w_cat = nn.Linear(2 * d, d)
        self.w_satt = nn.Linear(d, 1)
        self.w_sa = nn.Linear(d, d, bias=False)
        self.w_info = nn.Linear(d, d)
        self.w_gate = nn.Linear(d, 1)
        self.c0 = nn.Parameter(torch.zeros(1, d))
        self.m0 = nn.Parameter(0.1 * torch.randn(1, d))
        self.out = nn.Sequential(nn.Linear(2 * d, d), nn.ELU(), nn.Linear(d, answers))

    def forward(self, features, question):       # (N, 1024, 14, 14), (N, 24) int64
        k = self.stem(features).flatten(2).transpose(1, 2)                  # (N, HW, d)
        kp = self.r_know(k)
        cw, (h, _) = self.lstm(self.embed(question))                       # (N, S, d)
        q = torch.cat([h[0], h[1]], -1)                                     # (N, d)
        c = self.c0 + torch.zeros_like(q)
        m = self.m0 + torch.zeros_like(q)
        controls, mems, reads = [], [m.unsqueeze(1)], []
        for i in range(self.steps):
            cq = self.c_in(torch.cat([c, self.q_steps[i](q)], -1))
            cv = torch.softmax(self.c_att(cq.unsqueeze(1) * cw).squeeze(-1), -1)
            c = torch.matmul(cv.unsqueeze(1), cw).squeeze(1)
            inter = self.r_mem(m).unsqueeze(1) * kp
            ip = self.r_cat(torch.cat([inter, k], -1))
            rv = torch.softmax(self.r_att(F.elu(c.unsqueeze(1) * ip)).squeeze(-1), -1)
            r = torch.matmul(rv.unsqueeze(1), k).squeeze(1)
            info = self.w_cat(torch.cat([r, m], -1))
            controls.append(c.unsqueeze(1))
            prev_c = torch.cat([self.c0.unsqueeze(1) + torch.zeros_like(c).unsqueeze(1)] + controls[:-1], 1)
            sa = torch.softmax(self.w_satt(c.unsqueeze(1) * prev_c).squeeze(-1), -1)
            m_sa = torch.matmul(sa.unsqueeze(1), torch.cat(mems, 1)).squeeze(1)
            new = self.w_sa(m_sa) + self.w_info(info)
            g = torch.sigmoid(self.w_gate(c))
            m = g * m + (1.0 - g) * new
            mems.append(m.unsqueeze(1))
            reads.append(rv.unsqueeze(1))
        return self.out(torch.cat([q, m], -1)), torch.cat(reads, 1)


class LadderVAE(nn.Module):
    """Ladder VAE, 784 inputs: bottom-up blocks d_i = two (Linear, BN, leaky
    ReLU 0.1) of 512, 256, 128, 64, 32 with heads mu_hat, sigma_hat
    (softplus + 1e-4) of 64, 32, 16, 8, 4; top-down: z_5 from the top
    head, for i = 4 .. 1 an MLP block (two Linear, BN, leaky ReLU of the
    layer's width) on z_{i+1} gives the prior mu_p, sigma_p, merged as
    sigma_q^2 = 1 / (sigma_hat^-2 + sigma_p^-2), mu_q = (mu_hat
    sigma_hat^-2 + mu_p sigma_p^-2) sigma_q^2, z = mu_q + sigma_q eps (eps a
    fixed buffer); the decoder an MLP block of 512 and Linear 512 -> 784.
    KL(q || p) analytic per layer (the top one against N(0, I)).  Returns
    the Bernoulli means (N, 784), the KL per layer (N, 5) and the ELBO (N,
    1)."""

    def __init__(self, dim=784, widths=(512, 256, 128, 64, 32), latents=(64, 32, 16, 8, 4)):
        super().__init__()
        self.levels = len(widths)

        def block(a, b):
            return nn.Sequential(nn.Linear(a, b), nn.BatchNorm1d(b), nn.LeakyReLU(0.1),
                                 nn.Linear(b, b), nn.BatchNorm1d(b), nn.LeakyReLU(0.1))

        ins = (dim,) + widths[:-1]
        self.up = nn.ModuleList([block(a, b) for a, b in zip(ins, widths)])
        self.up_heads = nn.ModuleList([nn.Linear(w, 2 * z) for w, z in zip(widths, latents)])
        self.down = nn.ModuleList([block(latents[i + 1], widths[i]) for i in range(self.levels - 1)])
        self.down_heads = nn.ModuleList([nn.Linear(widths[i], 2 * latents[i]) for i in range(self.levels - 1)])
        self.dec = nn.Sequential(block(latents[0], widths[0]), nn.Linear(widths[0], dim))
        for i, z in enumerate(latents):
            self.register_buffer(f"eps{i}", torch.randn(1, z))

    @staticmethod
    def _split(y):
        mu, s = y.chunk(2, -1)
        return mu, F.softplus(s) + 1.0e-4

    @staticmethod
    def _kl(mq, sq, mp, sp):
        return (torch.log(sp / sq) + (sq * sq + (mq - mp) ** 2) / (2.0 * sp * sp) - 0.5).sum(-1, keepdim=True)

    def forward(self, image):                     # (N, 784)
        d, ups = image, []
        for blk, head in zip(self.up, self.up_heads):
            d = blk(d)
            ups.append(self._split(head(d)))
        top = self.levels - 1
        mq, sq = ups[top]
        z = mq + sq * getattr(self, f"eps{top}")
        kls = [self._kl(mq, sq, torch.zeros_like(mq), torch.ones_like(sq))]
        for i in range(top - 1, -1, -1):
            mp, sp = self._split(self.down_heads[i](self.down[i](z)))
            mh, sh = ups[i]
            ph, pp = 1.0 / (sh * sh), 1.0 / (sp * sp)
            var = 1.0 / (ph + pp)
            mq = (mh * ph + mp * pp) * var
            sq = torch.sqrt(var)
            z = mq + sq * getattr(self, f"eps{i}")
            kls.append(self._kl(mq, sq, mp, sp))
        logits = self.dec(z)
        recon = (image * logits - F.softplus(logits)).sum(-1, keepdim=True)
        kl = torch.cat(kls[::-1], 1)
        return torch.sigmoid(logits), kl, recon - kl.sum(-1, keepdim=True)


class AFMCtr(nn.Module):
    """AFM: 16 fields x 1000 ids (one offset table of 16000 x 64 and a
    first-order table of 16000 x 1), the 120 pairwise products (Gathers of
    the field pairs), attention a = softmax_pairs(h^T ReLU(W e_ij + b))
    with W 64 -> 32, the pooled interaction sum_ij a_ij e_ij projected by
    p (64 -> 1), plus the first-order sum and a global bias, sigmoid.
    Returns the click probability (N, 1) and the pair attention (N, 120)."""

    def __init__(self, fields=16, ids=1000, dim=64, att=32):
        super().__init__()
        self.emb = nn.Embedding(fields * ids, dim)
        self.lin = nn.Embedding(fields * ids, 1)
        self.bias = nn.Parameter(torch.zeros(1))
        self.att = nn.Sequential(nn.Linear(dim, att), nn.ReLU(), nn.Linear(att, 1, bias=False))
        self.p = nn.Linear(dim, 1, bias=False)
        self.register_buffer("offsets", (torch.arange(fields) * ids).view(1, -1))
        rows, cols = torch.triu_indices(fields, fields, 1)
        self.register_buffer("rows", rows)
        self.register_buffer("cols", cols)

    def forward(self, fields):                    # (N, 16) int64
        ids = fields + self.offsets
        e = self.emb(ids)                                                   # (N, F, D)
        pair = e[:, self.rows] * e[:, self.cols]                            # (N, P, D)
        a = torch.softmax(self.att(pair).squeeze(-1), -1)
        inter = self.p((pair * a.unsqueeze(-1)).sum(1))
        logit = inter + self.lin(ids).sum(1) + self.bias
        return torch.sigmoid(logit), a


class NeuralFingerprint(nn.Module):
    """Neural graph fingerprints, radius 4: the bond matrix binarised
    (> 1.5) and symmetrised (Max); degree = bonds per atom
    (clamped to 5) one-hot by Equal; layer l: v = h + A h, r = sigmoid(v
    H_l^deg) with H_l^deg one Linear to 6 x 128 and the atom's block kept
    by the one-hot; the fingerprint += sum over atoms of softmax(r W_l)
    (512), for l = 0 (the raw features) .. 4; an MLP 512 -> 100 -> 1
    (ReLU).  Returns the prediction (N, 1) and the fingerprint (N, 512)."""

    def __init__(self, dim=62, hidden=128, radius=4, fp=512, degrees=6):
        super().__init__()
        self.hidden, self.degrees = hidden, degrees
        self.H = nn.ModuleList([nn.Linear(dim if i == 0 else hidden, degrees * hidden) for i in range(radius)])
        self.W = nn.ModuleList([nn.Linear(dim if i == 0 else hidden, fp) for i in range(radius + 1)])
        self.head = _mlp((fp, 100, 1))
        self.register_buffer("deg_ids", torch.arange(degrees, dtype=torch.float32))

    def forward(self, atoms, bonds):              # (N, 40, 62), (N, 40, 40)
        b = (bonds > 1.5).float()
        bonds = torch.maximum(b, b.transpose(1, 2))
        deg = torch.clamp(bonds.sum(-1), max=float(self.degrees - 1))
        onehot = (deg.unsqueeze(-1) == self.deg_ids).float().unsqueeze(-1)  # (N, V, 6, 1)
        h = atoms
        fp = torch.softmax(self.W[0](h), -1).sum(1)
        for layer, out in zip(self.H, self.W[1:]):
            v = h + torch.matmul(bonds, h)
            r = layer(v).reshape(v.shape[0], v.shape[1], self.degrees, self.hidden)
            h = torch.sigmoid((r * onehot).sum(2))
            fp = fp + torch.softmax(out(h), -1).sum(1)
        return self.head(fp), fp


BLIND41 = {
    "hmc_logistic_posterior": dict(ctor=HMCLogisticPosterior, family="hamiltonian-monte-carlo-leapfrog-metropolis",
                                   inputs=[("points", ("N", 48, 8), "float32", None),
                                           ("targets", ("N", 48), "float32", None)]),
    "changepoint_partition": dict(ctor=ChangepointPartition, family="optimal-partitioning-changepoint-dp",
                                  inputs=[("series", ("N", 4, 64), "float32", None)]),
    "brandes_betweenness": dict(ctor=BrandesBetweenness, family="brandes-betweenness-dependency-accumulation",
                                inputs=[("features", ("N", 48, 8), "float32", None)]),
    "residual_attention_net": dict(ctor=ResidualAttentionNet, family="trunk-soft-mask-residual-attention",
                                   inputs=[("image", ("N", 3, 32, 32), "float32", None)]),
    "las_speller": dict(ctor=LASSpeller, family="pyramidal-blstm-listen-attend-spell",
                        inputs=[("fbank", ("N", 160, 40), "float32", None),
                                ("chars", ("N", 24), "int64", 32)]),
    "vdcnn_text": dict(ctor=VDCNNText, family="very-deep-char-cnn-kmax-pooling",
                       inputs=[("text", ("N", 1014), "int64", 70)]),
    "danq_dna": dict(ctor=DanQ, family="conv-bilstm-hybrid-regulatory-dna",
                     inputs=[("bases", ("N", 1000), "int64", 4)]),
    "jknet_graph": dict(ctor=JKNetGraph, family="jumping-knowledge-lstm-layer-aggregation",
                        inputs=[("features", ("N", 64, 32), "float32", None),
                                ("adjacency", ("N", 64, 64), "float32", None)]),
    "mac_network": dict(ctor=MACNetwork, family="memory-attention-composition-recurrent-reasoning",
                        inputs=[("features", ("N", 1024, 14, 14), "float32", None),
                                ("question", ("N", 24), "int64", 90)]),
    "ladder_vae": dict(ctor=LadderVAE, family="ladder-vae-precision-weighted-inference",
                       inputs=[("image", ("N", 784), "float32", None)]),
    "afm_ctr": dict(ctor=AFMCtr, family="attentional-factorization-machine",
                    inputs=[("fields", ("N", 16), "int64", 1000)]),
    "neural_fingerprint": dict(ctor=NeuralFingerprint, family="degree-specific-neural-graph-fingerprint",
                               inputs=[("atoms", ("N", 40, 62), "float32", None),
                                       ("bonds", ("N", 40, 40), "float32", None)]),
}
