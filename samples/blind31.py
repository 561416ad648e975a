r"""BLIND31: the thirty-first blind set, written on 2026-12-07 by a helper
session before any of it was measured.  Nothing in it has been timed,
profiled or run through onnxcost predict; it is to be measured first and
scored once only, at the end, with the code as it stands then
(bench/zoo_accuracy.py --set blind31).  None of its twelve families occurs
in another set (ZOO, BLIND, BLIND2 ... BLIND30, the reference models), so
no plan rule, feature, fit or calibration can have been made with any of
them in view.

Three families unroll a classical procedure into a fixed graph of small
kernels (several hundred to about two thousand nodes each, Constants
included), each with a small learned part:

  * Dantzig's simplex method (Dantzig, "Maximization of a Linear Function
    of Variables Subject to Linear Inequalities", 1951) on a dense
    tableau: a per-variable MLP turns 48 described decision variables
    into their profits and their use of 32 resources (both positive), and
    a pooled MLP sets the 32 capacities; starting from the all-slack basis,
    32 pivots each pick the entering column by the most negative reduced
    cost (ReduceMin, ArgMin), run the ratio test over the rows with a
    positive entry (Where, ArgMin), read the pivot row and column
    (GatherElements), divide the pivot row and subtract its multiples
    from every other row in one broadcast rank-one update, and record the
    new basic variable; a pivot once optimal leaves the tableau alone.
    The primal solution, the objective and a per-variable score (from the
    features, the solution and the reduced costs) come out.
  * 0/1 knapsack by dynamic programming over the capacity (Bellman,
    "Dynamic Programming", 1957): an MLP prices 64 items from their
    features, their integer weights (1 to 16) come in as a second input,
    and for each item the best-value row over capacities 0 .. 200 is the
    element-wise maximum of itself and itself read w places back
    (GatherElements at per-sample indices, Where for the capacities below
    w) plus the item's value; a backward pass over the stored take/skip
    rows recovers the chosen items from the full capacity (GatherElements
    of one element per item, integer arithmetic), and a set classifier
    reads items and choices.
  * Sequential RANSAC line fitting (Fischler & Bolles, "Random Sample
    Consensus: A Paradigm for Model Fitting with Applications to Image
    Analysis and Automated Cartography", 1981) with the local
    optimisation of LO-RANSAC (Chum, Matas & Kittler, "Locally Optimized
    RANSAC", 2003): a PointNet-like net weighs 256 2-D points; six rounds
    each build 64 two-point line hypotheses from fixed pseudo-random index
    pairs (Gathers), score every point's distance to every hypothesis as
    one MatMul, count the weighted support of the still-unexplained
    points, keep the best (ArgMax, GatherElements), refine it by four
    weighted total-least-squares steps (closed-form smallest eigenvector
    of a 2 x 2 scatter matrix), and remove its inliers before the next
    round; an MLP head reads the six lines and their support.

The other nine are published network designs of ordinary sizes:

  * YOLACT (Bolya, Zhou, Xiao & Lee, "YOLACT: Real-time Instance
    Segmentation", 2019) reduced: a small residual backbone on 192 x 192
    images, an FPN of 64 channels (P3 .. P7, nearest Resize on the top-down
    path), a protonet that bilinearly upsamples P3 to 48 x 48 and emits 24
    prototype masks, one shared head giving class scores, box offsets and
    tanh mask coefficients for three anchors a cell, TopK of the best 32
    detections, Fast NMS (the IoU matrix of those 32 boxes, its strict
    upper triangle, a column maximum), and the masks as a sigmoid of the
    prototypes times the coefficients, cropped to each box.
  * PointCNN (Li, Bu, Sun, Wu, Di & Chen, "PointCNN: Convolution On
    X-Transformed Points", 2018): four X-Conv layers on 512 points
    (representatives 512, 256, 64, 64; 8 to 16 neighbours found by TopK,
    dilations 1 to 3) that lift the local coordinates by an MLP, learn a
    K x K X-transformation from them, multiply it into the neighbour
    features and finish with a separable convolution (a depthwise 1 x K
    Conv2d over the neighbours, depth multiplier 2, then a 1x1 Conv2d);
    per-representative logits over 40 classes are averaged.
  * HAN (Yang, Yang, Dyer, He, Smola & Hovy, "Hierarchical Attention
    Networks for Document Classification", 2016): documents of 16
    sentences of 40 tokens, a bidirectional GRU over the words of every
    sentence and an attention pooling with a learned word context vector,
    a bidirectional GRU over the sentence vectors and a second attention
    pooling, 10 classes.
  * NRI (Kipf, Fetaya, Wang, Welling & Zemel, "Neural Relational
    Inference for Interacting Systems", 2018): 10 interacting particles
    observed for 49 steps; the MLP encoder passes node-to-edge and
    edge-to-node messages (MatMuls with the fixed receiver and sender
    incidence matrices) and infers two edge types for the 90 directed
    edges (a softmax at temperature 0.5, no sampling), and the MLP decoder
    predicts ten steps ahead from every tenth observation with
    type-specific edge messages.
  * Caser (Tang & Wang, "Personalized Top-N Sequential Recommendation via
    Convolutional Sequence Embedding", 2018): the last 8 items of a user's
    sequence embedded (96) as an 8 x 96 image, eight horizontal
    convolutions of heights 1 to 8 over the full width with max pooling
    over time, four vertical convolutions over the 8 positions, a Linear
    layer joined with a user embedding, and scores for all 40000 items.
  * ES-RNN (Smyl, "A hybrid method of exponential smoothing and recurrent
    neural networks for time series forecasting", 2020): a monthly series
    of 144 values; a multiplicative Holt-Winters recurrence of level and
    12 seasonal factors runs step by step with smoothing coefficients set
    per series by a small MLP; the last 120 windows of 24 deseasonalised,
    level-normalised logarithms drive two groups of dilated LSTMs
    (dilations 1 and 3, then 6 and 12, each dilation as a reshaped batch
    of interleaved subsequences, with a residual around the second
    group), and an adapter gives the 18-step forecast, reseasonalised.
  * Attentive Neural Process (Kim, Mnih, Schwarz, Garnelo, Eslami, Rosenbaum,
    Vinyals & Teh, "Attentive Neural Processes", 2019): 100 context pairs
    and 400 target inputs of a 2-D regression; a deterministic path (MLP,
    two self-attention layers, multi-head cross-attention from the
    targets), a latent path (MLP, two self-attention layers, mean, the mean
    and scale of a 64-d latent; its mean is used) and an MLP decoder for
    the predictive mean and scale at every target.
  * SoundStream (Zeghidour, Luebs, Omran, Skoglund & Tagliasacchi,
    "SoundStream: An End-to-End Neural Audio Codec", 2021) reduced: 3200
    samples, a causal convolutional encoder of residual units (kernel 7,
    dilations 1, 3, 9, ELU) and strided convolutions (strides 2, 4, 5, 8,
    channels 24 to 192), a residual vector quantizer of 8 codebooks of
    1024 codes of 128 dimensions (distances as MatMuls, ArgMin, Gather of
    the code, subtraction of the residual), and the mirrored decoder with
    transposed 1-D convolutions; the 10 frames' codes are returned too.
  * MViT (Fan, Xiong, Mangalam, Li, Yan, Malik & Feichtenhofer,
    "Multiscale Vision Transformers", 2021), small, with the residual
    pooling connection of MViTv2: clips of 8 frames of 64 x 64, a 3-D
    patch embedding to 4 x 16 x 16 tokens of 32 channels, pooling attention
    in which keys and values (in the first two stages) and queries (where
    a stage begins) are pooled by depthwise 3-D convolutions with
    LayerNorm, channel widths 32, 64, 128, 256 over four stages of 1, 2, 3
    and 1 blocks, max-pooled residual paths where the resolution drops,
    400 classes.

To be measured with

    OMP_WAIT_POLICY=PASSIVE /usr/bin/python3 scripts/measure_zoo.py --set blind31 \
        simplex_lp knapsack_dp ransac_lines \
        yolact_inst pointcnn_cls han_doc nri_dynamics caser_rec \
        esrnn_forecast anp_regress soundstream_codec mvit_video \
        --threads 1 2 --batches 1 4 16

Same table form as export.py's ZOO (ctor, family, inputs); exported by
scripts/ort_graphs.py's export() (opset 13, symbolic batch N).  The file was
written by a helper before anything measured or predicted it.
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def _cbr(cin, cout, k=3, stride=1, groups=1, dilation=1):
    """Conv2d without bias, BatchNorm, ReLU ('same' padding for odd k)."""
    pad = dilation * (k // 2)
    return nn.Sequential(nn.Conv2d(cin, cout, k, stride, pad, dilation, groups, bias=False),
                         nn.BatchNorm2d(cout), nn.ReLU())


def _mlp(sizes, act=nn.ReLU, last_act=False):
    """Linear layers of the given sizes with an activation between them."""
    layers = []
    for i in range(len(sizes) - 1):
        layers.append(nn.Linear(sizes[i], sizes[i + 1]))
        if i < len(sizes) - 2 or last_act:
            layers.append(act())
    return nn.Sequential(*layers)


def _knn(query, support, k):
    """Indices (N, Q, k) of the k nearest support points of each query."""
    d = (query * query).sum(-1, keepdim=True) + (support * support).sum(-1).unsqueeze(1) \
        - 2.0 * torch.matmul(query, support.transpose(1, 2))
    return (-d).topk(k, -1)[1]


def _group(x, idx):
    """x (N, S, C) gathered at idx (N, Q, k) -> (N, Q, k, C)."""
    q, k, c = idx.shape[1], idx.shape[2], x.shape[2]
    flat = idx.reshape(-1, q * k, 1).expand(-1, q * k, c)
    return torch.gather(x, 1, flat).reshape(-1, q, k, c)


# --------------------------------------------------------------------------
# Unrolled classical procedures with a small learned part
# --------------------------------------------------------------------------

class SimplexLP(nn.Module):
    """max c^T x subject to A x <= b, x >= 0, with c and A (positive) and b
    (at least 1) made by MLPs from the variables' features, solved by the
    tableau simplex method with Dantzig's rule from the all-slack basis.
    Row m of the (m + 1) x (n + m + 1) tableau holds the reduced costs and
    the objective.  Returns the solution x (N, n), the objective (N,) and
    per-variable scores (N, n)."""

    def __init__(self, variables=48, constraints=32, features=12, hidden=64, pivots=32):
        super().__init__()
        self.n, self.m, self.pivots = variables, constraints, pivots
        self.var = _mlp((features, hidden, hidden), last_act=True)
        self.cost = nn.Linear(hidden, 1)
        self.usage = nn.Linear(hidden, constraints)
        self.cap = _mlp((hidden, hidden, constraints))
        self.score = _mlp((hidden + 2, hidden, 1))
        self.register_buffer("eye", torch.eye(constraints))
        self.register_buffer("rows", torch.arange(constraints).view(1, constraints))
        self.register_buffer("slack", torch.arange(variables, variables + constraints).view(1, constraints))
        self.register_buffer("cols", torch.arange(variables).view(1, 1, variables))
        self.register_buffer("big", torch.tensor(1.0e9))
        self.register_buffer("one", torch.tensor(1.0))
        self.register_buffer("down", torch.zeros(1, constraints + 1, 1, dtype=torch.long))
        self.register_buffer("across", torch.zeros(1, 1, variables + constraints + 1, dtype=torch.long))

    def forward(self, problem):                   # (N, 48, 12)
        n, m = self.n, self.m
        h = self.var(problem)                                               # (N, n, H)
        c = F.softplus(4.0 * self.cost(h)).squeeze(-1)                      # (N, n) profits
        a = F.softplus(4.0 * self.usage(h)).transpose(1, 2) + 0.05          # (N, m, n)
        b = F.softplus(self.cap(h.mean(1))) + 1.0                           # (N, m)
        top = torch.cat([a, self.eye + torch.zeros_like(a[:, :, :1]), b.unsqueeze(-1)], 2)
        obj = torch.cat([-c, torch.zeros_like(top[:, 0, n:])], 1).unsqueeze(1)
        t = torch.cat([top, obj], 1)                                        # (N, m + 1, W)
        width = n + m + 1
        basis = self.slack + torch.zeros_like(b).long()                     # (N, m) int64
        zero = torch.zeros_like(b[:, :1])
        for _ in range(self.pivots):
            low, e = t[:, m, :n + m].min(-1)                                # entering column
            go = low < -1.0e-6                                              # (N,)
            col = torch.gather(t, 2, e.view(-1, 1, 1) + self.down).reshape(-1, m + 1)     # (N, m + 1)
            rhs = t[:, :m, width - 1]
            cm = col[:, :m]
            pos = cm > 1.0e-6
            ratio = torch.where(pos, rhs / torch.where(pos, cm, self.one), self.big)
            r = ratio.argmin(-1)                                            # leaving row
            hit = self.rows == r.unsqueeze(1)                               # (N, m)
            prow = torch.gather(t, 1, r.view(-1, 1, 1) + self.across)      # (N, 1, W)
            piv = torch.gather(col, 1, r.view(-1, 1)).reshape(-1, 1, 1)
            prow = prow / piv
            sel = torch.cat([hit.float(), zero], 1)                         # (N, m + 1)
            new = t - (col - sel).unsqueeze(-1) * prow                      # pivot row becomes prow
            t = torch.where(go.view(-1, 1, 1), new, t)
            basis = torch.where(hit & go.unsqueeze(1), e.unsqueeze(1), basis)
        rhs = t[:, :m, width - 1]
        x = ((basis.unsqueeze(2) == self.cols).float() * rhs.unsqueeze(2)).sum(1)   # (N, n)
        reduced = t[:, m, :n]
        s = self.score(torch.cat([h, x.unsqueeze(-1), reduced.unsqueeze(-1)], -1)).squeeze(-1)
        return x, t[:, m, width - 1], s


class KnapsackDP(nn.Module):
    """0/1 knapsack of 64 items, capacity 200: values softplus(MLP(item
    features)), integer weights 1 + input (0 .. 15).  best[c] after item i
    is max(best[c], best[c - w_i] + v_i) for c >= w_i; the take/skip rows
    are kept and walked back from c = 200.  Returns the optimum (N,), the
    chosen mask (N, 64) and class logits of a set classifier over the
    items, their values and the choice."""

    def __init__(self, items=64, capacity=200, features=8, hidden=64, classes=10):
        super().__init__()
        self.items, self.capacity = items, capacity
        self.value = _mlp((features, hidden, hidden, 1))
        self.register_buffer("caps", torch.arange(capacity + 1).view(1, capacity + 1))
        self.register_buffer("zero", torch.tensor(0))
        self.register_buffer("minus", torch.tensor(-1.0))
        self.embed = _mlp((features + 2, hidden, 2 * hidden), last_act=True)
        self.head = _mlp((2 * hidden + 1, hidden, classes))

    def forward(self, items, weights):            # (N, 64, 8) float32, (N, 64) int64
        w = weights + 1
        v = F.softplus(self.value(items)).squeeze(-1)                       # (N, I)
        best = torch.zeros_like(v[:, :1]) + 0.0 * self.caps                 # (N, C + 1)
        takes = []
        for i in range(self.items):
            src = self.caps - w[:, i:i + 1]                                 # (N, C + 1) int64
            ok = src >= 0
            cand = torch.gather(best, 1, torch.where(ok, src, self.zero)) + v[:, i:i + 1]
            cand = torch.where(ok, cand, self.minus)
            takes.append((cand > best).float())
            best = torch.maximum(best, cand)
        c = torch.zeros_like(w[:, :1]) + self.capacity                      # (N, 1) int64
        chosen = [None] * self.items
        for i in range(self.items - 1, -1, -1):
            took = torch.gather(takes[i], 1, c)                             # (N, 1)
            c = c - (took > 0.5).long() * w[:, i:i + 1]
            chosen[i] = took
        sel = torch.cat(chosen, 1)                                          # (N, I)
        e = self.embed(torch.cat([items, v.unsqueeze(-1), sel.unsqueeze(-1)], -1)).amax(1)
        opt = best[:, self.capacity]
        return opt, sel, self.head(torch.cat([e, opt.unsqueeze(-1) / self.items], -1))


class SequentialRansacLines(nn.Module):
    """Six lines fitted one after another to 256 points.  Round l: 64
    hypotheses through fixed point pairs, unit normal n and offset o,
    support = sum over active points of weight * [|p.n - o| < tau], the
    best refined by four weighted total-least-squares steps (weights
    active * exp(-(r / tau)^2)), then its inliers deactivated.  Returns
    the lines (N, 6, 3) as (n_x, n_y, o), their supports (N, 6) and class
    logits."""

    def __init__(self, points=256, lines=6, hypotheses=64, refine=4, tau=0.05, hidden=64, classes=8):
        super().__init__()
        self.points, self.lines, self.refine, self.tau = points, lines, refine, tau
        self.local = _mlp((2, hidden, hidden), last_act=True)
        self.weigh = _mlp((2 * hidden, hidden, 1))
        g = torch.Generator().manual_seed(31)
        first = torch.randint(0, points, (lines, hypotheses), generator=g)
        second = (first + 1 + torch.randint(0, points - 1, (lines, hypotheses), generator=g)) % points
        self.register_buffer("first", first)
        self.register_buffer("second", second)
        self.register_buffer("pair", torch.zeros(1, 1, 2, dtype=torch.long))
        self.head = _mlp((lines * 4, 128, classes))

    def forward(self, points):                    # (N, 256, 2)
        f = self.local(points)                                              # (N, P, H)
        g = f.amax(1, keepdim=True).expand_as(f)
        active = torch.sigmoid(self.weigh(torch.cat([f, g], -1))).squeeze(-1)   # (N, P)
        tau = self.tau
        out, support = [], []
        for li in range(self.lines):
            p1, p2 = points[:, self.first[li]], points[:, self.second[li]]  # (N, H, 2)
            d = p2 - p1
            nrm = torch.stack([-d[..., 1], d[..., 0]], -1)
            nrm = nrm / torch.sqrt((nrm * nrm).sum(-1, keepdim=True) + 1.0e-9)
            off = (nrm * p1).sum(-1)                                        # (N, H)
            res = (torch.matmul(points, nrm.transpose(1, 2)) - off.unsqueeze(1)).abs()   # (N, P, H)
            score = (active.unsqueeze(-1) * (res < tau).float()).sum(1)    # (N, H)
            k = score.argmax(-1)
            nb = torch.gather(nrm, 1, k.view(-1, 1, 1) + self.pair).reshape(-1, 2)      # (N, 2)
            ob = torch.gather(off, 1, k.view(-1, 1))                        # (N, 1)
            for _ in range(self.refine):
                r = (points * nb.unsqueeze(1)).sum(-1) - ob                 # (N, P)
                wt = active * torch.exp(-(r / tau) * (r / tau))
                sw = wt.sum(1, keepdim=True) + 1.0e-6
                mu = (wt.unsqueeze(-1) * points).sum(1) / sw                # (N, 2)
                q = points - mu.unsqueeze(1)
                sxx = (wt * q[..., 0] * q[..., 0]).sum(1, keepdim=True) / sw
                syy = (wt * q[..., 1] * q[..., 1]).sum(1, keepdim=True) / sw
                sxy = (wt * q[..., 0] * q[..., 1]).sum(1, keepdim=True) / sw
                half = 0.5 * (sxx - syy)
                lam = 0.5 * (sxx + syy) - torch.sqrt(half * half + sxy * sxy + 1.0e-12)
                v1 = torch.cat([sxy, lam - sxx], 1)
                v2 = torch.cat([lam - syy, sxy], 1)
                n1, n2 = (v1 * v1).sum(1, keepdim=True), (v2 * v2).sum(1, keepdim=True)
                v = torch.where(n1 >= n2, v1, v2)
                nb = v / torch.sqrt((v * v).sum(1, keepdim=True) + 1.0e-12)
                ob = (nb * mu).sum(1, keepdim=True)
            r = (points * nb.unsqueeze(1)).sum(-1) - ob
            inl = (r.abs() < tau).float()
            support.append((active * inl).sum(1, keepdim=True))
            active = active * (1.0 - inl)
            out.append(torch.cat([nb, ob], 1))
        lines = torch.stack(out, 1)                                         # (N, L, 3)
        sup = torch.cat(support, 1)                                         # (N, L)
        logits = self.head(torch.cat([lines, sup.unsqueeze(-1) / self.points], -1).flatten(1))
        return lines, sup, logits


# --------------------------------------------------------------------------
# Published network designs
# --------------------------------------------------------------------------

class _BasicRes(nn.Module):
    """Two 3x3 Conv-BatchNorm layers and a (projected) identity."""

    def __init__(self, cin, cout, stride=1):
        super().__init__()
        self.a = _cbr(cin, cout, 3, stride)
        self.b = nn.Sequential(nn.Conv2d(cout, cout, 3, 1, 1, bias=False), nn.BatchNorm2d(cout))
        self.short = None if stride == 1 and cin == cout else \
            nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))

    def forward(self, x):
        s = x if self.short is None else self.short(x)
        return F.relu(self.b(self.a(x)) + s)


class YOLACTInst(nn.Module):
    """YOLACT on 192 x 192 images: backbone to C3 (64, 24 x 24), C4 (128,
    12 x 12), C5 (256, 6 x 6); FPN P3 .. P5 (64), P6, P7 by strided Convs;
    protonet (three 3x3 Convs, 2x bilinear upsample, a 3x3 Conv and a 1x1
    Conv to 24 prototypes, ReLU); shared head (3x3 Conv, ReLU) with class
    (9 incl. background), box and coefficient 3x3 Convs for 3 anchors of
    aspect 1, 1/2, 2 per cell (2307 anchors).  Returns the 32 best boxes
    (x1, y1, x2, y2 in [0, 1]), their Fast-NMS-filtered scores, their class
    ids and their cropped 48 x 48 masks."""

    def __init__(self, size=192, classes=9, protos=24, fpn=64, top=32):
        super().__init__()
        self.classes, self.protos, self.top = classes, protos, top
        self.stem = nn.Sequential(_cbr(3, 24, 3, 2), _BasicRes(24, 32, 2))
        self.c3 = _BasicRes(32, 64, 2)
        self.c4 = nn.Sequential(_BasicRes(64, 128, 2), _BasicRes(128, 128))
        self.c5 = _BasicRes(128, 256, 2)
        self.lat = nn.ModuleList([nn.Conv2d(64, fpn, 1), nn.Conv2d(128, fpn, 1), nn.Conv2d(256, fpn, 1)])
        self.smooth = nn.ModuleList(nn.Conv2d(fpn, fpn, 3, 1, 1) for _ in range(3))
        self.p6, self.p7 = nn.Conv2d(fpn, fpn, 3, 2, 1), nn.Conv2d(fpn, fpn, 3, 2, 1)
        self.proto_a = nn.Sequential(nn.Conv2d(fpn, fpn, 3, 1, 1), nn.ReLU(), nn.Conv2d(fpn, fpn, 3, 1, 1), nn.ReLU(),
                                     nn.Conv2d(fpn, fpn, 3, 1, 1), nn.ReLU())
        self.proto_b = nn.Sequential(nn.Conv2d(fpn, fpn, 3, 1, 1), nn.ReLU(), nn.Conv2d(fpn, protos, 1), nn.ReLU())
        self.shared = nn.Sequential(nn.Conv2d(fpn, fpn, 3, 1, 1), nn.ReLU())
        self.cls = nn.Conv2d(fpn, 3 * classes, 3, 1, 1)
        self.box = nn.Conv2d(fpn, 3 * 4, 3, 1, 1)
        self.coef = nn.Conv2d(fpn, 3 * protos, 3, 1, 1)
        grids = [size // 8, size // 16, size // 32]
        grids += [(grids[-1] + 1) // 2, ((grids[-1] + 1) // 2 + 1) // 2]
        anchors = []
        for li, g in enumerate(grids):
            c = (torch.arange(g, dtype=torch.float32) + 0.5) / g
            cy, cx = torch.meshgrid(c, c, indexing="ij")
            scale = 24.0 * (2 ** li) / 550.0
            per = []
            for ar in (1.0, 0.5, 2.0):
                wh = torch.tensor([scale * math.sqrt(ar), scale / math.sqrt(ar)])
                per.append(torch.cat([torch.stack([cx, cy], -1), wh.expand(g, g, 2)], -1))
            anchors.append(torch.stack(per, 2).reshape(-1, 4))
        self.register_buffer("anchors", torch.cat(anchors, 0))              # (A, 4) cx, cy, w, h
        self.register_buffer("upper", torch.triu(torch.ones(top, top), 1))
        self.register_buffer("pad4", torch.zeros(1, 1, 4, dtype=torch.long))
        self.register_buffer("padk", torch.zeros(1, 1, protos, dtype=torch.long))
        self.grids, self.side = grids, 2 * grids[0]
        side = 2 * grids[0]
        grid = (torch.arange(side, dtype=torch.float32) + 0.5) / side
        self.register_buffer("gx", grid.view(1, 1, 1, side))
        self.register_buffer("gy", grid.view(1, 1, side, 1))

    @staticmethod
    def _flat(t, g, width):
        return t.permute(0, 2, 3, 1).reshape(-1, g * g * 3, width)

    def forward(self, image):                     # (N, 3, 192, 192)
        c3 = self.c3(self.stem(image))
        c4 = self.c4(c3)
        c5 = self.c5(c4)
        p5 = self.lat[2](c5)
        p4 = self.lat[1](c4) + F.interpolate(p5, scale_factor=2.0, mode="nearest")
        p3 = self.lat[0](c3) + F.interpolate(p4, scale_factor=2.0, mode="nearest")
        p3, p4, p5 = self.smooth[0](p3), self.smooth[1](p4), self.smooth[2](p5)
        p6 = self.p6(p5)
        p7 = self.p7(F.relu(p6))
        proto = F.interpolate(self.proto_a(p3), scale_factor=2.0, mode="bilinear", align_corners=False)
        proto = self.proto_b(proto)                                         # (N, K, 48, 48)
        cls, box, coef = [], [], []
        for p, g in zip((p3, p4, p5, p6, p7), self.grids):
            h = self.shared(p)
            cls.append(self._flat(self.cls(h), g, self.classes))
            box.append(self._flat(self.box(h), g, 4))
            coef.append(self._flat(torch.tanh(self.coef(h)), g, self.protos))
        cls, box, coef = torch.cat(cls, 1), torch.cat(box, 1), torch.cat(coef, 1)
        conf = torch.softmax(cls, -1)[..., 1:]
        best, label = conf.max(-1)                                          # (N, A)
        score, idx = best.topk(self.top, -1)                                # (N, T)
        a = self.anchors
        centre = a[:, :2] + box[..., :2] * 0.1 * a[:, 2:]
        size = a[:, 2:] * torch.exp(box[..., 2:].clamp(max=4.0) * 0.2)
        boxes = torch.cat([centre - 0.5 * size, centre + 0.5 * size], -1)   # (N, A, 4)
        boxes = torch.gather(boxes, 1, idx.unsqueeze(-1) + self.pad4)
        coefs = torch.gather(coef, 1, idx.unsqueeze(-1) + self.padk)
        label = torch.gather(label, 1, idx) + 1
        lt = torch.maximum(boxes[:, :, None, :2], boxes[:, None, :, :2])
        rb = torch.minimum(boxes[:, :, None, 2:], boxes[:, None, :, 2:])
        wh = (rb - lt).clamp(min=0.0)
        inter = wh[..., 0] * wh[..., 1]
        area = (boxes[..., 2] - boxes[..., 0]) * (boxes[..., 3] - boxes[..., 1])
        iou = inter / (area.unsqueeze(2) + area.unsqueeze(1) - inter + 1.0e-9)
        keep = ((iou * self.upper).amax(1) <= 0.5).float()
        side = self.side
        masks = torch.sigmoid(torch.matmul(coefs, proto.flatten(2))).reshape(-1, self.top, side, side)
        x1, y1 = boxes[..., 0:1].unsqueeze(-1), boxes[..., 1:2].unsqueeze(-1)
        x2, y2 = boxes[..., 2:3].unsqueeze(-1), boxes[..., 3:4].unsqueeze(-1)
        inside = (self.gx >= x1) & (self.gx <= x2) & (self.gy >= y1) & (self.gy <= y2)
        return boxes, score * keep, label, masks * inside.float()


class _XConv(nn.Module):
    """X-Conv: K neighbours (every dil-th of the K * dil nearest), local
    coordinates scaled, lifted by a two-layer MLP (ELU) to C_delta and
    joined to the neighbour features; a K x K X from an MLP of the K local
    coordinates multiplies them; a separable convolution as in the
    reference code (the (N, C*, Q, K) array through a depthwise 1 x K
    Conv2d, depth multiplier 2, and a 1x1 Conv2d), BatchNorm, ELU."""

    def __init__(self, cin, cout, k, dil, cdelta, scale, mult=2):
        super().__init__()
        self.k, self.dil, self.scale = k, dil, scale
        self.lift = _mlp((3, cdelta, cdelta), nn.ELU, last_act=True)
        self.xform = nn.Sequential(nn.Linear(3 * k, k * k), nn.ELU(), nn.Linear(k * k, k * k), nn.ELU(),
                                   nn.Linear(k * k, k * k))
        self.cstar = cdelta + cin
        self.depthwise = nn.Conv2d(self.cstar, self.cstar * mult, (1, k), groups=self.cstar)
        self.pointwise = nn.Conv2d(self.cstar * mult, cout, 1, bias=False)
        self.bn = nn.BatchNorm2d(cout)

    def forward(self, q, pts, feats):             # q (N, Q, 3), pts (N, S, 3), feats (N, S, C) or None
        k, qn = self.k, q.shape[1]
        idx = _knn(q, pts, k * self.dil)[:, :, ::self.dil]                  # (N, Q, K)
        local = (_group(pts, idx) - q.unsqueeze(2)) / self.scale            # (N, Q, K, 3)
        f = self.lift(local)
        if feats is not None:
            f = torch.cat([f, _group(feats, idx)], -1)                      # (N, Q, K, C*)
        x = self.xform(local.flatten(2)).reshape(-1, qn, k, k)
        f = torch.matmul(x, f).permute(0, 3, 1, 2)                          # (N, C*, Q, K)
        f = self.bn(self.pointwise(self.depthwise(f)))                      # (N, Cout, Q, 1)
        return F.elu(f.flatten(2).transpose(1, 2))


class PointCNNCls(nn.Module):
    """PointCNN classifier on 512 points: X-Conv (K 8, dilation 1, 48
    channels) on all points, X-Conv (12, 2, 96) on every second, X-Conv
    (16, 2, 192) on every eighth, X-Conv (16, 3, 384) on the same 64;
    per-representative MLP 256-128-40, logits averaged."""

    def __init__(self, classes=40):
        super().__init__()
        self.x1 = _XConv(0, 48, 8, 1, 24, 0.2)
        self.x2 = _XConv(48, 96, 12, 2, 24, 0.4)
        self.x3 = _XConv(96, 192, 16, 2, 48, 0.8)
        self.x4 = _XConv(192, 384, 16, 3, 96, 1.2)
        self.head = nn.Sequential(nn.Linear(384, 256), nn.ELU(), nn.Linear(256, 128), nn.ELU(),
                                  nn.Linear(128, classes))

    def forward(self, cloud):                     # (N, 512, 3)
        p1 = cloud
        x = self.x1(p1, p1, None)
        p2 = p1[:, ::2]
        x = self.x2(p2, p1, x)
        p3 = p2[:, ::4]
        x = self.x3(p3, p2, x)
        x = self.x4(p3, p3, x)
        return self.head(x).mean(1)


class _AttnPool(nn.Module):
    """HAN attention pooling: u = tanh(W h + b), a = softmax(u . c) over
    the masked positions, sum of a h."""

    def __init__(self, dim):
        super().__init__()
        self.proj = nn.Linear(dim, dim)
        self.ctx = nn.Parameter(torch.randn(dim) * 0.1)

    def forward(self, h, mask):                   # h (B, T, D), mask (B, T)
        u = torch.tanh(self.proj(h))
        a = torch.softmax((u * self.ctx).sum(-1) + (mask - 1.0) * 1.0e4, 1)
        return (a.unsqueeze(-1) * h).sum(1)


class HANDoc(nn.Module):
    """HAN: token 0 is padding; embeddings 128; word BiGRU (64 each way)
    and word attention per sentence; sentence BiGRU (64 each way) and
    sentence attention (a sentence with no tokens is masked); 10 classes."""

    def __init__(self, vocab=30000, emb=128, hidden=64, classes=10):
        super().__init__()
        self.emb = nn.Embedding(vocab, emb)
        self.word_rnn = nn.GRU(emb, hidden, batch_first=True, bidirectional=True)
        self.word_att = _AttnPool(2 * hidden)
        self.sent_rnn = nn.GRU(2 * hidden, hidden, batch_first=True, bidirectional=True)
        self.sent_att = _AttnPool(2 * hidden)
        self.fc = nn.Linear(2 * hidden, classes)

    def forward(self, doc):                       # (N, 16, 40) int64
        s, w = doc.shape[1], doc.shape[2]
        words = doc.reshape(-1, w)
        wmask = (words != 0).float()
        hw = self.word_rnn(self.emb(words))[0]                              # (N S, W, 2H)
        sv = self.word_att(hw, wmask).reshape(-1, s, hw.shape[2])           # (N, S, 2H)
        smask = (wmask.sum(1) > 0.5).float().reshape(-1, s)
        hs = self.sent_rnn(sv)[0]
        return self.fc(self.sent_att(hs, smask))


class _NRIMLP(nn.Module):
    """NRI's two-layer ELU MLP with BatchNorm over all rows."""

    def __init__(self, cin, hidden, cout):
        super().__init__()
        self.f = nn.Sequential(nn.Linear(cin, hidden), nn.ELU(), nn.Linear(hidden, cout), nn.ELU())
        self.bn = nn.BatchNorm1d(cout)

    def forward(self, x):                         # (N, R, C)
        y = self.f(x)
        return self.bn(y.reshape(-1, y.shape[2])).reshape(-1, x.shape[1], y.shape[2])


class NRIDynamics(nn.Module):
    """NRI with the MLP encoder (128) and the MLP decoder (messages 128)
    on 10 particles x 49 steps x (position, velocity) in 2-D, two edge
    types of which the first means 'no interaction'.  The decoder runs 10
    steps from the observations at steps 0, 10, 20, 30, 40.  Returns the
    edge-type logits (N, 90, 2) and the predicted trajectories
    (N, 10, 48, 4) for steps 1 .. 48."""

    def __init__(self, atoms=10, steps=49, dims=4, hidden=128, msg=128, types=2, pred_steps=10):
        super().__init__()
        self.atoms, self.steps, self.dims, self.types, self.pred = atoms, steps, dims, types, pred_steps
        pairs = [(i, j) for i in range(atoms) for j in range(atoms) if i != j]
        rec = torch.zeros(len(pairs), atoms)
        snd = torch.zeros(len(pairs), atoms)
        for e, (i, j) in enumerate(pairs):
            rec[e, i] = 1.0
            snd[e, j] = 1.0
        self.register_buffer("rel_rec", rec)
        self.register_buffer("rel_send", snd)
        self.register_buffer("rel_rec_t", rec.t().contiguous())
        self.mlp1 = _NRIMLP(steps * dims, hidden, hidden)
        self.mlp2 = _NRIMLP(2 * hidden, hidden, hidden)
        self.mlp3 = _NRIMLP(hidden, hidden, hidden)
        self.mlp4 = _NRIMLP(3 * hidden, hidden, hidden)
        self.fc_out = nn.Linear(hidden, types)
        self.msg1 = nn.ModuleList(nn.Linear(2 * dims, msg) for _ in range(types))
        self.msg2 = nn.ModuleList(nn.Linear(msg, msg) for _ in range(types))
        self.out = _mlp((dims + msg, hidden, hidden, dims))

    def _node2edge(self, x):
        return torch.cat([torch.matmul(self.rel_send, x), torch.matmul(self.rel_rec, x)], -1)

    def _step(self, x, edges):                    # x (N, W, A, D), edges (N, 1, E, K)
        pre = torch.cat([torch.matmul(self.rel_send, x), torch.matmul(self.rel_rec, x)], -1)   # (N, W, E, 2D)
        total = None
        for k in range(1, self.types):
            m = F.relu(self.msg2[k](F.relu(self.msg1[k](pre)))) * edges[..., k:k + 1]
            total = m if total is None else total + m
        agg = torch.matmul(self.rel_rec_t, total)                           # (N, W, A, M)
        return x + self.out(torch.cat([x, agg], -1))

    def forward(self, traj):                      # (N, 10, 49, 4)
        a = self.atoms
        x = self.mlp1(traj.reshape(-1, a, self.steps * self.dims))          # (N, A, H)
        e = self.mlp2(self._node2edge(x))                                   # (N, E, H)
        skip = e
        x = self.mlp3(torch.matmul(self.rel_rec_t, e) / a)
        e = self.mlp4(torch.cat([self._node2edge(x), skip], -1))
        logits = self.fc_out(e)                                             # (N, E, K)
        edges = torch.softmax(logits / 0.5, -1).unsqueeze(1)
        last = traj.transpose(1, 2)[:, 0::self.pred]                        # (N, W, A, D)
        preds = []
        for _ in range(self.pred):
            last = self._step(last, edges)
            preds.append(last)
        w = last.shape[1]
        out = torch.stack(preds, 2).reshape(-1, w * self.pred, a, self.dims)[:, :self.steps - 1]
        return logits, out.transpose(1, 2)


class CaserRec(nn.Module):
    """Caser: L = 8 recent items embedded (96); horizontal Convs (16
    filters each) of heights 1 .. 8 spanning the embedding, ReLU, max over
    positions; vertical Conv (4 filters, L x 1); Linear to 96 with ReLU;
    joined with the user embedding (96); scores of all 40000 items from a
    second item table and bias."""

    def __init__(self, items=40000, users=5000, length=8, dim=96, nh=16, nv=4):
        super().__init__()
        self.length, self.dim = length, dim
        self.item = nn.Embedding(items, dim)
        self.user = nn.Embedding(users, dim)
        self.vert = nn.Conv2d(1, nv, (length, 1))
        self.horiz = nn.ModuleList(nn.Conv2d(1, nh, (h, dim)) for h in range(1, length + 1))
        self.fc = nn.Linear(nv * dim + nh * length, dim)
        self.w2 = nn.Parameter(torch.randn(2 * dim, items) * 0.05)
        self.b2 = nn.Parameter(torch.zeros(items))

    def forward(self, seq, user):                 # (N, 8) int64, (N, 1) int64
        e = self.item(seq).unsqueeze(1)                                     # (N, 1, L, d)
        v = self.vert(e).reshape(-1, self.vert.out_channels * self.dim)
        hs = [F.relu(conv(e)).squeeze(3).amax(2) for conv in self.horiz]
        z = F.relu(self.fc(torch.cat([v] + hs, 1)))
        x = torch.cat([z, self.user(user).squeeze(1)], 1)
        return torch.matmul(x, self.w2) + self.b2


def _dilated_lstm(lstm, x, d):
    """An LSTM whose step t reads the state of step t - d: the sequence
    (N, T, C), T a multiple of d, as d interleaved subsequences."""
    t, c = x.shape[1], x.shape[2]
    y = x.reshape(-1, t // d, d, c).transpose(1, 2).reshape(-1, t // d, c)
    y = lstm(y)[0]
    h = y.shape[2]
    return y.reshape(-1, d, t // d, h).transpose(1, 2).reshape(-1, t, h)


class ESRNNForecast(nn.Module):
    """ES-RNN on a monthly series (N, 144) made positive (softplus + 0.5):
    initial level the first year's mean, initial seasonal factors the
    first year over it; alpha, gamma = sigmoid(MLP of the first two years'
    log ratios); l_t = alpha y_t / s_t + (1 - alpha) l_{t-1},
    s_{t+12} = gamma y_t / l_t + (1 - gamma) s_t.  Inputs to the LSTMs:
    log(y / s / l_end) over each of the last 120 windows of 24.  LSTM
    width 48; dilations (1, 3) then (6, 12), residual around the second
    group; tanh adapter; forecast exp(out) l_T s for 18 months.  Returns
    the forecast (N, 18) and the levels (N, 144)."""

    def __init__(self, length=144, season=12, window=24, horizon=18, windows=120, hidden=48):
        super().__init__()
        self.length, self.season, self.window, self.horizon = length, season, window, horizon
        self.coef = nn.Sequential(nn.Linear(2 * season, 16), nn.Tanh(), nn.Linear(16, 2))
        self.dilations = (1, 3, 6, 12)
        self.lstms = nn.ModuleList([nn.LSTM(window, hidden, batch_first=True)] +
                                   [nn.LSTM(hidden, hidden, batch_first=True) for _ in range(3)])
        self.adapter = nn.Sequential(nn.Linear(hidden, hidden), nn.Tanh(), nn.Linear(hidden, horizon))
        start = length - windows - window + 1
        idx = torch.arange(windows).view(-1, 1) + torch.arange(window).view(1, -1) + start
        self.register_buffer("win", idx)                                   # (W, window)

    def forward(self, series):                    # (N, 144)
        m, n = self.season, self.length
        y = F.softplus(series) + 0.5
        base = y[:, :m].mean(1, keepdim=True)
        seas = [y[:, i:i + 1] / base for i in range(m)]
        ab = torch.sigmoid(self.coef(torch.log(y[:, :2 * m] / base)))
        alpha, gamma = ab[:, :1], ab[:, 1:]
        level = base
        levels = []
        for t in range(n):
            yt = y[:, t:t + 1]
            lv = alpha * (yt / seas[t]) + (1.0 - alpha) * level
            seas.append(gamma * (yt / lv) + (1.0 - gamma) * seas[t])
            level = lv
            levels.append(lv)
        lev = torch.cat(levels, 1)                                          # (N, T)
        s = torch.cat(seas, 1)                                              # (N, T + m)
        ends = self.win[:, -1]
        x = torch.log(y[:, self.win] / s[:, self.win] / lev[:, ends].unsqueeze(-1))   # (N, W, window)
        h = _dilated_lstm(self.lstms[0], x, self.dilations[0])
        h = _dilated_lstm(self.lstms[1], h, self.dilations[1])
        g = _dilated_lstm(self.lstms[2], h, self.dilations[2])
        g = _dilated_lstm(self.lstms[3], g, self.dilations[3])
        out = self.adapter(g[:, -1] + h[:, -1])                             # (N, H)
        future = torch.cat([s[:, n:n + m], s[:, n:n + self.horizon - m]], 1)
        return torch.exp(out) * level * future, lev


class _MHA(nn.Module):
    """Multi-head scaled dot-product attention with its own projections."""

    def __init__(self, dim, heads):
        super().__init__()
        self.h, self.hd = heads, dim // heads
        self.q, self.k, self.v, self.o = (nn.Linear(dim, dim) for _ in range(4))

    def forward(self, q, k, v):                   # (N, Tq, D), (N, Tk, D), (N, Tk, D)
        tq, tk, d = q.shape[1], k.shape[1], q.shape[2]
        q = self.q(q).reshape(-1, tq, self.h, self.hd).transpose(1, 2)
        k = self.k(k).reshape(-1, tk, self.h, self.hd).transpose(1, 2)
        v = self.v(v).reshape(-1, tk, self.h, self.hd).transpose(1, 2)
        a = torch.softmax(torch.matmul(q, k.transpose(2, 3)) / math.sqrt(self.hd), -1)
        return self.o(torch.matmul(a, v).transpose(1, 2).reshape(-1, tq, d))


class _SelfLayer(nn.Module):
    """Self-attention with residual and LayerNorm, then a residual MLP and
    LayerNorm."""

    def __init__(self, dim, heads):
        super().__init__()
        self.att = _MHA(dim, heads)
        self.n1, self.n2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.ff = _mlp((dim, dim, dim))

    def forward(self, x):
        x = self.n1(x + self.att(x, x, x))
        return self.n2(x + self.ff(x))


class AttentiveNP(nn.Module):
    """ANP for 2-D inputs and 1-D outputs, width 128, 8 heads; the cross-
    attention's keys and queries are the same MLP of the inputs.  Returns
    the predictive mean and scale (N, 400, 1) each and the latent scale
    (N, 64)."""

    def __init__(self, xdim=2, ydim=1, dim=128, latent=64, heads=8):
        super().__init__()
        self.det = _mlp((xdim + ydim, dim, dim, dim))
        self.det_self = nn.Sequential(_SelfLayer(dim, heads), _SelfLayer(dim, heads))
        self.keys = _mlp((xdim, dim, dim))
        self.cross = _MHA(dim, heads)
        self.cross_norm = nn.LayerNorm(dim)
        self.lat = _mlp((xdim + ydim, dim, dim, dim))
        self.lat_self = nn.Sequential(_SelfLayer(dim, heads), _SelfLayer(dim, heads))
        self.lat_out = _mlp((dim, dim, 2 * latent))
        self.dec = _mlp((dim + latent + xdim, dim, dim, dim, 2 * ydim))
        self.latent, self.ydim = latent, ydim

    def forward(self, context_x, context_y, target_x):   # (N, 100, 2), (N, 100, 1), (N, 400, 2)
        pairs = torch.cat([context_x, context_y], -1)
        r = self.det_self(self.det(pairs))                                  # (N, C, D)
        q = self.keys(target_x)
        r = self.cross_norm(q + self.cross(q, self.keys(context_x), r))    # (N, T, D)
        s = self.lat_self(self.lat(pairs)).mean(1)
        st = self.lat_out(s)
        mu, sigma = st[:, :self.latent], 0.1 + 0.9 * torch.sigmoid(st[:, self.latent:])
        z = mu.unsqueeze(1) + torch.zeros_like(r[:, :, :1])                # (N, T, Z)
        out = self.dec(torch.cat([r, z, target_x], -1))
        return out[..., :self.ydim], 0.1 + 0.9 * F.softplus(out[..., self.ydim:]), sigma


class _SSUnit(nn.Module):
    """SoundStream residual unit: ELU, causal Conv1d (kernel 7, dilation
    d), ELU, 1x1 Conv1d, plus the input."""

    def __init__(self, ch, dil):
        super().__init__()
        self.pad = 6 * dil
        self.conv = nn.Conv1d(ch, ch, 7, dilation=dil)
        self.point = nn.Conv1d(ch, ch, 1)

    def forward(self, x):
        return x + self.point(F.elu(self.conv(F.pad(F.elu(x), (self.pad, 0)))))


class _SSEnc(nn.Module):
    """Three residual units (dilations 1, 3, 9) then a causal strided
    Conv1d (kernel 2s, stride s) doubling the channels."""

    def __init__(self, cin, cout, stride):
        super().__init__()
        self.s = stride
        self.units = nn.Sequential(_SSUnit(cin, 1), _SSUnit(cin, 3), _SSUnit(cin, 9))
        self.down = nn.Conv1d(cin, cout, 2 * stride, stride)

    def forward(self, x):
        return self.down(F.pad(F.elu(self.units(x)), (self.s, 0)))


class _SSDec(nn.Module):
    """A transposed Conv1d (kernel 2s, stride s, cropped causally) halving
    the channels, then three residual units."""

    def __init__(self, cin, cout, stride):
        super().__init__()
        self.s = stride
        self.up = nn.ConvTranspose1d(cin, cout, 2 * stride, stride)
        self.units = nn.Sequential(_SSUnit(cout, 1), _SSUnit(cout, 3), _SSUnit(cout, 9))

    def forward(self, x):
        return self.units(self.up(F.elu(x))[:, :, :-self.s])


class SoundStreamCodec(nn.Module):
    """SoundStream with C = 12: encoder Conv1d(1, 12, 7), blocks to 24
    (stride 2), 48 (4), 96 (5), 192 (8), Conv1d to 128 (kernel 3); residual
    vector quantizer (8 x 1024 codes); decoder Conv1d(128, 192, 7), blocks
    to 96 (8), 48 (5), 24 (4), 12 (2), Conv1d(12, 1, 7), tanh.  Returns the
    reconstruction (N, 1, 3200) and the codes (N, 8, 10)."""

    def __init__(self, base=12, dim=128, quantizers=8, codes=1024):
        super().__init__()
        c = base
        self.enc_in = nn.Conv1d(1, c, 7)
        self.enc = nn.Sequential(_SSEnc(c, 2 * c, 2), _SSEnc(2 * c, 4 * c, 4), _SSEnc(4 * c, 8 * c, 5),
                                 _SSEnc(8 * c, 16 * c, 8))
        self.enc_out = nn.Conv1d(16 * c, dim, 3)
        self.codebooks = nn.Parameter(torch.randn(quantizers, codes, dim) * 0.5)
        self.dec_in = nn.Conv1d(dim, 16 * c, 7)
        self.dec = nn.Sequential(_SSDec(16 * c, 8 * c, 8), _SSDec(8 * c, 4 * c, 5), _SSDec(4 * c, 2 * c, 4),
                                 _SSDec(2 * c, c, 2))
        self.dec_out = nn.Conv1d(c, 1, 7)

    def forward(self, audio):                     # (N, 1, 3200)
        z = self.enc_out(F.pad(F.elu(self.enc(self.enc_in(F.pad(audio, (6, 0))))), (2, 0)))   # (N, D, T)
        r = z.transpose(1, 2)                                               # (N, T, D)
        quant = torch.zeros_like(r)
        codes = []
        for i in range(self.codebooks.shape[0]):
            cb = self.codebooks[i]
            dist = (r * r).sum(-1, keepdim=True) - 2.0 * torch.matmul(r, cb.t()) + (cb * cb).sum(-1)
            idx = dist.argmin(-1)                                           # (N, T)
            qv = F.embedding(idx, cb)
            quant = quant + qv
            r = r - qv
            codes.append(idx)
        y = self.dec(self.dec_in(F.pad(quant.transpose(1, 2), (6, 0))))
        return torch.tanh(self.dec_out(F.pad(F.elu(y), (6, 0)))), torch.stack(codes, 1)


class _PoolAttention(nn.Module):
    """MViT pooling attention: Q, K, V each pooled (when strided) by a
    depthwise Conv3d (kernel 3) over the token grid and LayerNorm-ed, per
    head; softmax(Q K^T / sqrt(d)) V plus the pooled Q (MViTv2's residual
    pooling); a Linear."""

    def __init__(self, dim, dim_out, heads, q_stride, kv_stride):
        super().__init__()
        self.h, self.hd = heads, dim_out // heads
        self.qkv = nn.Linear(dim, 3 * dim_out)
        self.q_stride, self.kv_stride = q_stride, kv_stride
        self.pool_q = self._pool(q_stride)
        self.pool_k = self._pool(kv_stride)
        self.pool_v = self._pool(kv_stride)
        self.proj = nn.Linear(dim_out, dim_out)

    def _pool(self, stride):
        if stride == (1, 1, 1):
            return None
        return nn.ModuleList([nn.Conv3d(self.hd, self.hd, 3, stride, 1, groups=self.hd, bias=False),
                              nn.LayerNorm(self.hd)])

    def _pooled(self, x, pool, thw):              # x (N, h, L, hd)
        if pool is None:
            return x, thw
        t, hh, ww = thw
        y = x.reshape(-1, t, hh, ww, self.hd).permute(0, 4, 1, 2, 3)
        y = pool[0](y)
        out = tuple(y.shape[2:])
        y = pool[1](y.flatten(2).transpose(1, 2))
        return y.reshape(-1, self.h, y.shape[1], self.hd), out

    def forward(self, x, thw):                    # (N, L, C)
        length = x.shape[1]
        qkv = self.qkv(x).reshape(-1, length, 3, self.h, self.hd).permute(2, 0, 3, 1, 4)
        q, qthw = self._pooled(qkv[0], self.pool_q, thw)
        k, _ = self._pooled(qkv[1], self.pool_k, thw)
        v, _ = self._pooled(qkv[2], self.pool_v, thw)
        a = torch.softmax(torch.matmul(q, k.transpose(2, 3)) / math.sqrt(self.hd), -1)
        o = torch.matmul(a, v) + q
        lq = o.shape[2]
        return self.proj(o.transpose(1, 2).reshape(-1, lq, self.h * self.hd)), qthw


class _MViTBlock(nn.Module):
    """Pre-LN block: pooling attention (+ the shortcut, max-pooled when Q is
    strided and projected when the width grows), then a GELU MLP (4x)."""

    def __init__(self, dim, dim_out, heads, q_stride, kv_stride):
        super().__init__()
        self.n1, self.n2 = nn.LayerNorm(dim), nn.LayerNorm(dim_out)
        self.att = _PoolAttention(dim, dim_out, heads, q_stride, kv_stride)
        self.q_stride = q_stride
        self.skip_pool = None if q_stride == (1, 1, 1) else \
            nn.MaxPool3d(3, q_stride, 1)
        self.skip_proj = None if dim == dim_out else nn.Linear(dim, dim_out)
        self.mlp = nn.Sequential(nn.Linear(dim_out, 4 * dim_out), nn.GELU(), nn.Linear(4 * dim_out, dim_out))

    def forward(self, x, thw):
        xn = self.n1(x)
        a, qthw = self.att(xn, thw)
        s = x if self.skip_proj is None else self.skip_proj(xn)
        if self.skip_pool is not None:
            c = s.shape[2]
            g = s.transpose(1, 2).reshape(-1, c, thw[0], thw[1], thw[2])
            s = self.skip_pool(g).flatten(2).transpose(1, 2)
        x = s + a
        return x + self.mlp(self.n2(x)), qthw


class MViTVideo(nn.Module):
    """MViT on (N, 3, 8, 64, 64): Conv3d patch embedding (kernel 3 x 7 x 7,
    stride 2 x 4 x 4) to 4 x 16 x 16 x 32 plus a learned position
    embedding; stages (width, heads, blocks) (32, 1, 1), (64, 2, 2),
    (128, 4, 3), (256, 8, 1), Q pooled 1 x 2 x 2 at each stage's first
    block from stage 2, K and V pooled 1 x 4 x 4, 1 x 2 x 2, then not;
    LayerNorm, token mean, 400 classes."""

    def __init__(self, classes=400):
        super().__init__()
        self.embed = nn.Conv3d(3, 32, (3, 7, 7), (2, 4, 4), (1, 3, 3))
        self.pos = nn.Parameter(torch.randn(1, 4 * 16 * 16, 32) * 0.02)
        one, two = (1, 1, 1), (1, 2, 2)
        cfg = [(32, 32, 1, one, (1, 4, 4)),
               (32, 64, 2, two, (1, 2, 2)), (64, 64, 2, one, (1, 2, 2)),
               (64, 128, 4, two, one), (128, 128, 4, one, one), (128, 128, 4, one, one),
               (128, 256, 8, two, one)]
        self.blocks = nn.ModuleList(_MViTBlock(*c) for c in cfg)
        self.norm = nn.LayerNorm(256)
        self.head = nn.Linear(256, classes)

    def forward(self, clip):                      # (N, 3, 8, 64, 64)
        x = self.embed(clip)
        thw = tuple(x.shape[2:])
        x = x.flatten(2).transpose(1, 2) + self.pos
        for blk in self.blocks:
            x, thw = blk(x, thw)
        return self.head(self.norm(x).mean(1))


BLIND31 = {
    "simplex_lp": dict(ctor=SimplexLP, family="dantzig-simplex-tableau-pivoting",
                       inputs=[("problem", ("N", 48, 12), "float32", None)]),
    "knapsack_dp": dict(ctor=KnapsackDP, family="zero-one-knapsack-dynamic-programming",
                        inputs=[("items", ("N", 64, 8), "float32", None),
                                ("weights", ("N", 64), "int64", 16)]),
    "ransac_lines": dict(ctor=SequentialRansacLines, family="sequential-ransac-hypothesize-verify",
                         inputs=[("points", ("N", 256, 2), "float32", None)]),
    "yolact_inst": dict(ctor=YOLACTInst, family="prototype-mask-coefficient-instance-segmentation",
                        inputs=[("image", ("N", 3, 192, 192), "float32", None)]),
    "pointcnn_cls": dict(ctor=PointCNNCls, family="x-transformed-point-convolution",
                         inputs=[("cloud", ("N", 512, 3), "float32", None)]),
    "han_doc": dict(ctor=HANDoc, family="hierarchical-word-sentence-attention",
                    inputs=[("doc", ("N", 16, 40), "int64", 30000)]),
    "nri_dynamics": dict(ctor=NRIDynamics, family="neural-relational-inference",
                         inputs=[("traj", ("N", 10, 49, 4), "float32", None)]),
    "caser_rec": dict(ctor=CaserRec, family="horizontal-vertical-conv-sequential-rec",
                      inputs=[("seq", ("N", 8), "int64", 40000),
                              ("user", ("N", 1), "int64", 5000)]),
    "esrnn_forecast": dict(ctor=ESRNNForecast, family="exponential-smoothing-dilated-lstm-hybrid",
                           inputs=[("series", ("N", 144), "float32", None)]),
    "anp_regress": dict(ctor=AttentiveNP, family="attentive-neural-process",
                        inputs=[("context_x", ("N", 100, 2), "float32", None),
                                ("context_y", ("N", 100, 1), "float32", None),
                                ("target_x", ("N", 400, 2), "float32", None)]),
    "soundstream_codec": dict(ctor=SoundStreamCodec, family="residual-vector-quantized-audio-codec",
                              inputs=[("audio", ("N", 1, 3200), "float32", None)]),
    "mvit_video": dict(ctor=MViTVideo, family="multiscale-pooling-attention-video",
                       inputs=[("clip", ("N", 3, 8, 64, 64), "float32", None)]),
}
