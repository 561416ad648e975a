r"""BLIND32: the thirty-second blind set, written on 2026-12-07 by a helper
session before any of it was measured.  Nothing in it has been timed,
profiled or run through onnxcost predict; it is to be measured first and
scored once only, at the end, with the code as it stands then
(bench/zoo_accuracy.py --set blind32).  None of its twelve families occurs
in another set (ZOO, BLIND, BLIND2 ... BLIND31, the reference models), so
no plan rule, feature, fit or calibration can have been made with any of
them in view.

Three families unroll a classical procedure into a fixed graph of small
kernels (several hundred to about two thousand nodes each, Constants
included), each with a small learned part:

  * Lattice basis reduction by the LLL algorithm (A. K. Lenstra,
    H. W. Lenstra Jr. & L. Lovasz, "Factoring Polynomials with Rational
    Coefficients", 1982): an MLP turns a feature vector into a short,
    nearly orthogonal 5 x 5 basis (rows are the lattice vectors) that a
    fixed unimodular matrix with large entries then disguises; five
    fixed sweeps over k = 1 .. 4 each recompute the Gram-Schmidt vectors
    of rows 0 .. k (MatMuls against the vectors found so far), size-reduce
    row k against rows k-1 .. 0 by the rounded projection coefficients
    (Round), test the Lovasz condition with delta = 3/4 and swap rows
    k-1 and k where it fails (Where); the integer transform is carried
    alongside.  The reduced basis, the transform and logits of an MLP
    over the basis and its Gram-Schmidt log-lengths come out.
  * Convex hull by gift wrapping (R. A. Jarvis, "On the Identification of
    the Convex Hull of a Finite Set of Points in the Plane", 1973): a
    PointNet-like net nudges 256 2-D points, the march starts at the
    leftmost (ArgMin) and takes 28 wrapping steps; each step forms every
    pair's cross product about the current vertex as one batched MatMul,
    counts for every candidate the points lying to its right, and picks
    the candidate with none, the farthest among collinear ones (ArgMin of
    a combined score), freezing on the start once the hull closes.  The
    vertex indices, the enclosed area (shoelace over gathered vertices)
    and logits of a masked max-pool over the vertices' features come out.
  * Stable fluids (J. Stam, "Stable Fluids", 1999) on a 48 x 48 grid: a
    small Conv net maps an image to an initial smoke density and a force
    field; eight time steps each add force and buoyancy, advect velocity
    and density semi-Lagrangianly (trace back, Floor, four GatherElements
    on the flattened grid, bilinear weights), and project the velocity to
    be divergence-free (a fixed-kernel Conv for the divergence, sixteen
    Jacobi sweeps of the pressure Poisson equation, each one Conv with a
    cross kernel, and a Conv for the pressure gradient).  The final
    density, velocity and logits of a strided Conv classifier come out.

The other nine are published network designs of ordinary sizes:

  * DETR (Carion, Massa, Synnaeve, Usunier, Kirillov & Zagoruyko,
    "End-to-End Object Detection with Transformers", 2020) reduced: a
    residual backbone takes 192 x 192 images to a 6 x 6 map of 256
    channels, a 1x1 Conv to width 128, fixed 2-D sine position codes
    added to queries and keys in every attention, three post-norm encoder
    layers over the 36 tokens, three decoder layers for 32 learned object
    queries (self-attention, cross-attention to the memory, FFN), a class
    head (20 classes and no-object) and a three-layer box MLP (sigmoid);
    the scores, labels and corner boxes are read off as well.
  * SuperPoint (DeTone, Malisiewicz & Rabinovich, "SuperPoint:
    Self-Supervised Interest Point Detection and Description", 2018),
    narrower: a VGG-like shared encoder on 96 x 128 grey images down to
    1/8, an interest-point head of 65 channels (64 cells and a dustbin)
    whose softmax is rearranged to full resolution by a depth-to-space
    (pixel shuffle), max-pool non-maximum suppression and TopK of 128
    keypoints, and a descriptor head of 128 L2-normalised channels
    bilinearly sampled at the keypoints (GatherElements).
  * Tacotron 2 (Shen, Pang, Weiss, Schuster, Jaitly, Yang, Chen, Zhang,
    Wang, Skerry-Ryan, Saurous, Agiomyrgiannakis & Wu, "Natural TTS
    Synthesis by Conditioning WaveNet on Mel Spectrogram Predictions",
    2018), narrower, with the location-sensitive attention of Chorowski,
    Bahdanau, Serdyuk, Cho & Bengio ("Attention-Based Models for Speech
    Recognition", 2015): 40 characters through an embedding, three
    Conv1d-BatchNorm-ReLU layers and a bidirectional LSTM; an
    autoregressive decoder unrolled for 40 mel frames, each a two-layer
    pre-net on the previous frame, an attention LSTM cell, energies from
    the query, the processed memory and a Conv1d over the previous and
    cumulative alignments, a context vector, a decoder LSTM cell and
    linear projections to 80 mel bins and a stop gate; a five-layer
    Conv1d post-net adds a residual.
  * End-to-end memory network (Sukhbaatar, Szlam, Weston & Fergus,
    "End-To-End Memory Networks", 2015) for question answering: stories
    of 50 sentences of 16 words and a 16-word question over a 12000-word
    vocabulary, sentence vectors by position-encoded sums of word
    embeddings plus temporal encodings, three hops of soft attention with
    adjacent weight tying (each hop's output embedding is the next hop's
    input embedding, the last one also the answer matrix).
  * DiffPool (Ying, You, Morris, Ren, Hamilton & Leskovec, "Hierarchical
    Graph Representation Learning with Differentiable Pooling", 2018): a
    dense graph of 128 nodes (adjacency thresholded from the second
    input), three-layer GraphSAGE-style embedding and assignment networks
    (mean aggregation with self loops, L2-normalised outputs, layers
    concatenated), soft assignment to 32 and then 8 clusters (pooled
    features S^T Z and adjacency S^T A S), a max readout at every level
    and an MLP over them; the link-prediction and entropy terms of the
    assignments come out as well.
  * VoxNet (Maturana & Scherer, "VoxNet: A 3D Convolutional Neural Network
    for Real-Time Object Recognition", 2015): 1024 points centred and
    scaled, turned to four orientations about the vertical axis,
    voxelised into 32^3 occupancy grids (integer voxel indices,
    ScatterElements of ones), then the network itself (Conv3d 5^3 stride
    2, Conv3d 3^3, both leaky ReLU, 2^3 max pool, two Linear layers) and
    the class scores of the four orientations averaged over 40 classes.
  * NeuMF (He, Liao, Zhang, Nie, Hu & Chua, "Neural Collaborative
    Filtering", 2017): one user against 1000 candidate items, a
    generalised matrix-factorisation branch (element-wise product of
    embeddings) and an MLP tower (128, 64, 32) over concatenated
    embeddings, fused by a final Linear and sigmoid; the best 20 items
    (TopK, their ids gathered) are returned with the scores.
  * TimesNet (Wu, Hu, Liu, Zhou, Wang & Long, "TimesNet: Temporal
    2D-Variation Modeling for General Time Series Analysis", 2023) for
    forecasting 48 steps of 7 variables from 96: per-series
    normalisation, a circular Conv1d token embedding and sine positions,
    a Linear extension of the time axis to 144, and two TimesBlocks that
    take the amplitude spectrum (a DFT as MatMuls with fixed cosine and
    sine tables), fold the sequence into 2-D at five candidate periods
    (4, 8, 12, 24, 48; the fixed set stands in for the paper's per-batch
    top-k), run a shared Inception block of 2-D convolutions (kernels 1,
    3, 5) with GELU on each fold, and sum the unfolded results weighted by
    the softmax of the per-sample amplitudes at those periods.
  * DeepONet (Lu, Jin, Pang, Zhang & Karniadakis, "Learning Nonlinear
    Operators via DeepONet Based on the Universal Approximation Theorem
    of Operators", 2021), unstacked: a branch MLP reads an input function
    at 100 sensors, a trunk MLP (tanh) reads each of 1024 query points of
    the 2-D domain, and each of two output components is the inner
    product of its 128 branch coefficients with the trunk's 128 basis
    values, plus a bias.

To be measured with

    OMP_WAIT_POLICY=PASSIVE /usr/bin/python3 scripts/measure_zoo.py --set blind32 \
        lll_reduce jarvis_hull stable_fluids \
        detr_det superpoint_kp tacotron2_tts memn2n_qa diffpool_graph \
        voxnet_cls neumf_rec timesnet_forecast deeponet_operator \
        --threads 1 2 --batches 1 4 16

Same table form as export.py's ZOO (ctor, family, inputs); exported by
scripts/ort_graphs.py's export() (opset 13, symbolic batch N).  The file was
written by a helper before anything measured or predicted it.
"""

import math

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


def _bilinear_gather(flat, spread, x, y, width):
    """Bilinear samples of flat (N, C, H * W) at the points x, y (N, 1, M),
    already clamped to [0, W - 1) and [0, H - 1); spread is an int64 zero
    tensor (1, C, 1) that broadcasts the indices over the channels.
    Returns (N, C, M)."""
    x0, y0 = torch.floor(x), torch.floor(y)
    tx, ty = x - x0, y - y0
    i00 = (y0 * width + x0).long() + spread
    g00 = torch.gather(flat, 2, i00)
    g01 = torch.gather(flat, 2, i00 + 1)
    g10 = torch.gather(flat, 2, i00 + width)
    g11 = torch.gather(flat, 2, i00 + width + 1)
    return (g00 * (1.0 - tx) + g01 * tx) * (1.0 - ty) + (g10 * (1.0 - tx) + g11 * tx) * ty


# --------------------------------------------------------------------------
# Unrolled classical procedures with a small learned part
# --------------------------------------------------------------------------

def _gram_schmidt(rows, eps=1.0e-9):
    """Gram-Schmidt vectors and squared lengths of a list of (N, d) rows."""
    vs = [rows[0]]
    norms = [(rows[0] * rows[0]).sum(-1, keepdim=True) + eps]
    for i in range(1, len(rows)):
        v = torch.stack(vs, 1)                                              # (N, i, d)
        coef = torch.matmul(v, rows[i].unsqueeze(-1)).squeeze(-1) / torch.cat(norms, 1)
        w = rows[i] - torch.matmul(coef.unsqueeze(1), v).squeeze(1)
        vs.append(w)
        norms.append((w * w).sum(-1, keepdim=True) + eps)
    return vs, norms


class LLLReduce(nn.Module):
    """LLL with delta = 3/4 on a 5 x 5 basis: an MLP's near-orthogonal
    basis (plus 2 I) hidden behind a fixed unimodular matrix with large
    entries, reduced in a fixed schedule of sweeps over
    k = 1 .. d-1: size reduction of row k by round(<b_k, b*_j> / |b*_j|^2)
    for j = k-1 .. 0, then the Lovasz test and conditional swap.  Returns
    the reduced basis (N, 5, 5), the unimodular transform (N, 5, 5) and
    class logits (N, 10)."""

    def __init__(self, dim=5, features=32, hidden=128, sweeps=5, delta=0.75, classes=10):
        super().__init__()
        self.dim, self.sweeps, self.delta = dim, sweeps, delta
        self.gen = _mlp((features, hidden, hidden, dim * dim))
        self.register_buffer("eye", torch.eye(dim).view(1, dim, dim))
        g = torch.Generator().manual_seed(32)
        skew = torch.eye(dim)
        for _ in range(3 * dim):                  # a fixed unimodular matrix with large entries
            i, j = torch.randperm(dim, generator=g)[:2].tolist()
            skew[i] += float(torch.randint(-2, 3, (1,), generator=g)) * skew[j]
        self.register_buffer("skew", skew.unsqueeze(0))
        self.head = _mlp((dim * dim + dim, hidden, classes))

    def forward(self, features):                  # (N, 32)
        d = self.dim
        b = torch.matmul(self.skew, 0.5 * self.gen(features).view(-1, d, d) + 2.0 * self.eye)
        rows = [b[:, i] for i in range(d)]
        unim = [self.eye[:, i] + torch.zeros_like(rows[0]) for i in range(d)]
        for _ in range(self.sweeps):
            for k in range(1, d):
                vs, norms = _gram_schmidt(rows[:k + 1])
                for j in range(k - 1, -1, -1):
                    q = torch.round((rows[k] * vs[j]).sum(-1, keepdim=True) / norms[j])
                    rows[k] = rows[k] - q * rows[j]
                    unim[k] = unim[k] - q * unim[j]
                mu = (rows[k] * vs[k - 1]).sum(-1, keepdim=True) / norms[k - 1]
                swap = norms[k] < (self.delta - mu * mu) * norms[k - 1]    # (N, 1)
                rows[k - 1], rows[k] = torch.where(swap, rows[k], rows[k - 1]), \
                    torch.where(swap, rows[k - 1], rows[k])
                unim[k - 1], unim[k] = torch.where(swap, unim[k], unim[k - 1]), \
                    torch.where(swap, unim[k - 1], unim[k])
        _, norms = _gram_schmidt(rows)
        basis = torch.stack(rows, 1)
        logn = 0.5 * torch.log(torch.cat(norms, 1))                         # (N, d)
        logits = self.head(torch.cat([basis.flatten(1) / 8.0, logn], 1))
        return basis, torch.stack(unim, 1), logits


class JarvisHull(nn.Module):
    """Gift wrapping of 256 points (nudged by a PointNet-like net) for up
    to 28 steps.  From vertex p, the next vertex a is the one with
    cross(a - p, b - p) >= 0 for every point b (ties: the farthest).
    Returns the vertex indices (N, 29) (the start repeated once closed),
    the area (N,) and class logits (N, 10)."""

    def __init__(self, points=256, steps=28, hidden=64, classes=10):
        super().__init__()
        self.steps = steps
        self.local = _mlp((2, hidden, hidden), last_act=True)
        self.shift = _mlp((2 * hidden, hidden, 2))
        self.embed = _mlp((hidden + 2, hidden, 2 * hidden), last_act=True)
        self.head = _mlp((2 * hidden + 2, hidden, classes))
        self.register_buffer("pair", torch.zeros(1, 1, 2, dtype=torch.long))
        self.register_buffer("feat", torch.zeros(1, 1, hidden, dtype=torch.long))
        self.register_buffer("low", torch.tensor(-1.0e4))

    def forward(self, cloud):                     # (N, 256, 2)
        f = self.local(cloud)                                               # (N, P, H)
        g = f.amax(1, keepdim=True).expand_as(f)
        q = cloud + 0.1 * torch.tanh(self.shift(torch.cat([f, g], -1)))   # (N, P, 2)
        start = q[..., 0].argmin(-1, keepdim=True)                          # (N, 1)
        cur, done = start, start < 0
        idx, valid = [start], [~done]
        for _ in range(self.steps):
            p = torch.gather(q, 1, cur.unsqueeze(-1) + self.pair)          # (N, 1, 2)
            d = q - p
            jd = torch.stack([d[..., 1], -d[..., 0]], -1)
            cross = torch.matmul(d, jd.transpose(1, 2))                    # (N, P, P)
            right = (cross < -1.0e-7).float().sum(-1)                       # (N, P)
            dist = (d * d).sum(-1)
            score = 1.0e3 * right - dist + 1.0e6 * (dist < 1.0e-12).float()
            nxt = score.argmin(-1, keepdim=True)
            done = done | (nxt == start)
            cur = torch.where(done, start, nxt)
            idx.append(cur)
            valid.append(~done)
        hull = torch.cat(idx, 1)                                            # (N, S + 1)
        mask = torch.cat(valid, 1).float()
        s = self.steps + 1
        v = torch.gather(q, 1, hull.unsqueeze(-1) + self.pair)             # (N, S + 1, 2)
        w = torch.cat([v[:, 1:], v[:, :1]], 1)
        area = 0.5 * (v[..., 0] * w[..., 1] - w[..., 0] * v[..., 1]).sum(1)
        perim = torch.sqrt(((w - v) ** 2).sum(-1) + 1.0e-12).sum(1)
        hf = torch.gather(f, 1, hull.unsqueeze(-1) + self.feat)            # (N, S + 1, H)
        e = self.embed(torch.cat([hf, v], -1))
        e = torch.where(mask.view(-1, s, 1) > 0.5, e, self.low).amax(1)
        logits = self.head(torch.cat([e, area.unsqueeze(-1), perim.unsqueeze(-1)], -1))
        return hull, area, logits


class StableFluids(nn.Module):
    """Stam's solver on an S x S grid with unit spacing, dt = 1: per step
    u += force + buoyancy * density, semi-Lagrangian advection of (u, v,
    density), and a pressure projection by Jacobi sweeps (pressure 0
    outside).  Returns the density (N, 1, S, S), the velocity (N, 2, S, S)
    and class logits (N, 10)."""

    def __init__(self, size=48, steps=8, jacobi=16, width=32, classes=10):
        super().__init__()
        self.size, self.steps, self.jacobi = size, steps, jacobi
        self.enc = nn.Sequential(_cbr(1, width), _cbr(width, width), nn.Conv2d(width, 3, 3, 1, 1))
        lap = torch.zeros(1, 1, 3, 3)
        lap[0, 0, 0, 1] = lap[0, 0, 2, 1] = lap[0, 0, 1, 0] = lap[0, 0, 1, 2] = 1.0
        div = torch.zeros(1, 2, 3, 3)
        div[0, 0, 1, 2], div[0, 0, 1, 0], div[0, 1, 2, 1], div[0, 1, 0, 1] = 0.5, -0.5, 0.5, -0.5
        grad = torch.zeros(2, 1, 3, 3)
        grad[0, 0, 1, 2], grad[0, 0, 1, 0], grad[1, 0, 2, 1], grad[1, 0, 0, 1] = 0.5, -0.5, 0.5, -0.5
        self.register_buffer("lap", lap)
        self.register_buffer("div", div)
        self.register_buffer("grad", grad)
        c = torch.arange(size, dtype=torch.float32)
        self.register_buffer("gx", c.view(1, 1, 1, size).expand(1, 1, size, size).reshape(1, 1, -1).clone())
        self.register_buffer("gy", c.view(1, 1, size, 1).expand(1, 1, size, size).reshape(1, 1, -1).clone())
        self.register_buffer("up", torch.tensor([0.0, -0.15]).view(1, 2, 1, 1))
        self.register_buffer("spread", torch.zeros(1, 3, 1, dtype=torch.long))
        self.head = nn.Sequential(_cbr(4, width, 3, 2), _cbr(width, 2 * width, 3, 2),
                                  nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(2 * width, classes))

    def _advect(self, f, vel):                    # (N, 3, S, S), (N, 2, S, S)
        s = self.size
        v = vel.reshape(-1, 2, s * s)
        x = torch.clamp(self.gx - v[:, :1], 0.0, s - 1.001)
        y = torch.clamp(self.gy - v[:, 1:], 0.0, s - 1.001)
        return _bilinear_gather(f.reshape(-1, 3, s * s), self.spread, x, y, s).reshape(-1, 3, s, s)

    def _project(self, vel):
        div = F.conv2d(vel, self.div, padding=1)
        p = -0.25 * div
        for _ in range(self.jacobi - 1):
            p = 0.25 * (F.conv2d(p, self.lap, padding=1) - div)
        return vel - F.conv2d(p, self.grad, padding=1)

    def forward(self, image):                     # (N, 1, 48, 48)
        e = self.enc(image)
        dens = torch.sigmoid(e[:, :1])
        force = 0.5 * torch.tanh(e[:, 1:])
        vel = self._project(force)
        for _ in range(self.steps):
            vel = vel + 0.25 * force + self.up * dens
            f = self._advect(torch.cat([vel, dens], 1), vel)
            vel, dens = self._project(f[:, :2]), f[:, 2:]
        logits = self.head(torch.cat([vel, dens, image], 1))
        return dens, vel, logits


# --------------------------------------------------------------------------
# Published network designs
# --------------------------------------------------------------------------

class _ResBlock(nn.Module):
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


class _Attention(nn.Module):
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


class _DETREncoderLayer(nn.Module):
    def __init__(self, dim, heads, ff):
        super().__init__()
        self.att = _Attention(dim, heads)
        self.ff = _mlp((dim, ff, dim))
        self.n1, self.n2 = nn.LayerNorm(dim), nn.LayerNorm(dim)

    def forward(self, x, pos):
        qk = x + pos
        x = self.n1(x + self.att(qk, qk, x))
        return self.n2(x + self.ff(x))


class _DETRDecoderLayer(nn.Module):
    def __init__(self, dim, heads, ff):
        super().__init__()
        self.self_att = _Attention(dim, heads)
        self.cross = _Attention(dim, heads)
        self.ff = _mlp((dim, ff, dim))
        self.n1, self.n2, self.n3 = nn.LayerNorm(dim), nn.LayerNorm(dim), nn.LayerNorm(dim)

    def forward(self, t, qpos, mem, pos):
        qk = t + qpos
        t = self.n1(t + self.self_att(qk, qk, t))
        t = self.n2(t + self.cross(t + qpos, mem + pos, mem))
        return self.n3(t + self.ff(t))


def _sine_positions(h, w, dim, temperature=10000.0):
    """DETR's normalised 2-D sine position code, (1, h * w, dim)."""
    npf = dim // 2
    y = (torch.arange(h, dtype=torch.float32) + 1.0).view(h, 1).expand(h, w) / h * 2 * math.pi
    x = (torch.arange(w, dtype=torch.float32) + 1.0).view(1, w).expand(h, w) / w * 2 * math.pi
    t = temperature ** (2 * (torch.arange(npf) // 2).float() / npf)
    px, py = x.unsqueeze(-1) / t, y.unsqueeze(-1) / t
    px = torch.stack([px[..., 0::2].sin(), px[..., 1::2].cos()], -1).flatten(2)
    py = torch.stack([py[..., 0::2].sin(), py[..., 1::2].cos()], -1).flatten(2)
    return torch.cat([py, px], -1).reshape(1, h * w, dim)


class DETRDet(nn.Module):
    """DETR on 192 x 192: stem Conv s2 (24), residual stages 48, 96, 160, 256
    (each stride 2, to 6 x 6); width 128, 8 heads, FFN 512, 3 + 3 layers,
    32 queries, 20 classes + no-object.  Returns the class logits (N, 32,
    21), the boxes (cx, cy, w, h) (N, 32, 4), and the best foreground
    score, its label and the box as corners."""

    def __init__(self, size=192, dim=128, heads=8, ff=512, layers=3, queries=32, classes=20):
        super().__init__()
        self.backbone = nn.Sequential(_cbr(3, 24, 3, 2), _ResBlock(24, 48, 2), _ResBlock(48, 96, 2),
                                      _ResBlock(96, 160, 2), _ResBlock(160, 256, 2))
        self.proj = nn.Conv2d(256, dim, 1)
        side = size // 32
        self.dim, self.tokens = dim, side * side
        self.register_buffer("pos", _sine_positions(side, side, dim))
        self.encoder = nn.ModuleList(_DETREncoderLayer(dim, heads, ff) for _ in range(layers))
        self.decoder = nn.ModuleList(_DETRDecoderLayer(dim, heads, ff) for _ in range(layers))
        self.dec_norm = nn.LayerNorm(dim)
        self.query = nn.Parameter(torch.randn(1, queries, dim))
        self.cls = nn.Linear(dim, classes + 1)
        self.box = _mlp((dim, dim, dim, 4))

    def forward(self, image):                     # (N, 3, 192, 192)
        m = self.proj(self.backbone(image)).reshape(-1, self.dim, self.tokens).transpose(1, 2)   # (N, 36, D)
        for layer in self.encoder:
            m = layer(m, self.pos)
        t = torch.zeros_like(m[:, :1, :1]) + torch.zeros_like(self.query)  # (N, Q, D)
        for layer in self.decoder:
            t = layer(t, self.query, m, self.pos)
        t = self.dec_norm(t)
        logits = self.cls(t)
        box = torch.sigmoid(self.box(t))
        score, label = torch.softmax(logits, -1)[..., :-1].max(-1)
        cxcy, wh = box[..., :2], box[..., 2:]
        corners = torch.cat([cxcy - 0.5 * wh, cxcy + 0.5 * wh], -1)
        return logits, box, score, label, corners


class SuperPointKP(nn.Module):
    """SuperPoint with encoder widths 32, 32, 64, 64 (three 2x2 max pools),
    both heads 3x3 Conv to 128 then 1x1; NMS radius 2; 128 keypoints.
    Returns keypoints (x, y) (N, 128, 2), their scores (N, 128) and their
    descriptors (N, 128, 128)."""

    def __init__(self, height=96, width=128, widths=(32, 32, 64, 64), head=128, desc=128, keep=128, radius=2):
        super().__init__()
        self.h, self.w, self.keep, self.radius, self.desc_dim = height, width, keep, radius, desc
        self.register_buffer("spread", torch.zeros(1, desc, 1, dtype=torch.long))
        layers, cin = [], 1
        for i, c in enumerate(widths):
            layers += [nn.Conv2d(cin, c, 3, 1, 1), nn.ReLU(), nn.Conv2d(c, c, 3, 1, 1), nn.ReLU()]
            if i < len(widths) - 1:
                layers.append(nn.MaxPool2d(2))
            cin = c
        self.encoder = nn.Sequential(*layers)
        self.det = nn.Sequential(nn.Conv2d(cin, head, 3, 1, 1), nn.ReLU(), nn.Conv2d(head, 65, 1))
        self.desc = nn.Sequential(nn.Conv2d(cin, head, 3, 1, 1), nn.ReLU(), nn.Conv2d(head, desc, 1))

    def forward(self, image):                     # (N, 1, 96, 128)
        x = self.encoder(image)                                             # (N, C, H/8, W/8)
        prob = torch.softmax(self.det(x), 1)[:, :64]
        heat = F.pixel_shuffle(prob, 8)                                     # (N, 1, H, W)
        r = self.radius
        heat = heat * (heat == F.max_pool2d(heat, 2 * r + 1, 1, r)).float()
        score, idx = heat.flatten(1).topk(self.keep, -1)                    # (N, K)
        ys = torch.div(idx, self.w, rounding_mode="floor")
        xs = idx - ys * self.w
        kp = torch.stack([xs, ys], -1).float()
        d = F.normalize(self.desc(x), dim=1)                                # (N, D, H/8, W/8)
        hc, wc = self.h // 8, self.w // 8
        cx = torch.clamp((xs.float() + 0.5) / 8.0 - 0.5, 0.0, wc - 1.001).unsqueeze(1)
        cy = torch.clamp((ys.float() + 0.5) / 8.0 - 0.5, 0.0, hc - 1.001).unsqueeze(1)
        dk = F.normalize(_bilinear_gather(d.reshape(-1, self.desc_dim, hc * wc), self.spread, cx, cy, wc), dim=1)
        return kp, score, dk.transpose(1, 2)


class Tacotron2TTS(nn.Module):
    """Tacotron 2 narrowed: 64 symbols, embedding and encoder convs 256,
    BiLSTM 2 x 128, pre-net 128, attention and decoder LSTM cells 256,
    attention width 128, location Conv1d 32 filters of 31, 80 mels, 40
    frames, post-net 5 x Conv1d(256, kernel 5).  Returns the mel
    spectrogram after the post-net (N, 80, 40), the stop-gate
    probabilities (N, 40) and the last alignment (N, 40)."""

    def __init__(self, symbols=64, text=40, frames=40, emb=256, enc=128, prenet=128, rnn=256, att=128,
                 filters=32, kernel=31, mels=80, post=256):
        super().__init__()
        self.frames, self.text = frames, text
        self.embed = nn.Embedding(symbols, emb)
        self.convs = nn.Sequential(*[nn.Sequential(nn.Conv1d(emb, emb, 5, padding=2, bias=False),
                                                   nn.BatchNorm1d(emb), nn.ReLU()) for _ in range(3)])
        self.blstm = nn.LSTM(emb, enc, batch_first=True, bidirectional=True)
        self.prenet = _mlp((mels, prenet, prenet), last_act=True)
        self.att_cell = nn.LSTMCell(prenet + 2 * enc, rnn)
        self.query = nn.Linear(rnn, att, bias=False)
        self.memory = nn.Linear(2 * enc, att, bias=False)
        self.loc_conv = nn.Conv1d(2, filters, kernel, padding=kernel // 2, bias=False)
        self.loc_dense = nn.Linear(filters, att, bias=False)
        self.energy = nn.Linear(att, 1, bias=False)
        self.dec_cell = nn.LSTMCell(rnn + 2 * enc, rnn)
        self.proj = nn.Linear(rnn + 2 * enc, mels)
        self.gate = nn.Linear(rnn + 2 * enc, 1)
        chans = [mels, post, post, post, post, mels]
        self.postnet = nn.ModuleList(
            nn.Sequential(nn.Conv1d(chans[i], chans[i + 1], 5, padding=2, bias=False), nn.BatchNorm1d(chans[i + 1]))
            for i in range(5))
        self.register_buffer("zmel", torch.zeros(1, mels))
        self.register_buffer("zrnn", torch.zeros(1, rnn))
        self.register_buffer("zctx", torch.zeros(1, 2 * enc))
        self.register_buffer("ztext", torch.zeros(1, text))

    def forward(self, text):                      # (N, 40) int64
        x = self.convs(self.embed(text).transpose(1, 2)).transpose(1, 2)
        mem, _ = self.blstm(x)                                              # (N, L, 2E)
        pm = self.memory(mem)                                               # (N, L, A)
        z = torch.zeros_like(mem[:, 0, :1])                                 # (N, 1)
        frame, ctx = z + self.zmel, z + self.zctx
        ha, ca, hd, cd = z + self.zrnn, z + self.zrnn, z + self.zrnn, z + self.zrnn
        w, wcum = z + self.ztext, z + self.ztext
        frames, gates = [], []
        for _ in range(self.frames):
            ha, ca = self.att_cell(torch.cat([self.prenet(frame), ctx], -1), (ha, ca))
            loc = self.loc_dense(self.loc_conv(torch.stack([w, wcum], 1)).transpose(1, 2))   # (N, L, A)
            e = self.energy(torch.tanh(self.query(ha).unsqueeze(1) + loc + pm)).squeeze(-1)
            w = torch.softmax(e, -1)
            wcum = wcum + w
            ctx = torch.matmul(w.unsqueeze(1), mem).squeeze(1)
            hd, cd = self.dec_cell(torch.cat([ha, ctx], -1), (hd, cd))
            hc = torch.cat([hd, ctx], -1)
            frame = self.proj(hc)
            frames.append(frame)
            gates.append(self.gate(hc))
        mel = torch.stack(frames, 2)                                        # (N, M, T)
        y = mel
        for i, layer in enumerate(self.postnet):
            y = layer(y)
            if i < len(self.postnet) - 1:
                y = torch.tanh(y)
        return mel + y, torch.sigmoid(torch.cat(gates, 1)), w


class MemN2NQA(nn.Module):
    """End-to-end memory network, 3 hops, adjacent tying, width 256:
    embeddings E_0 .. E_3 (E_0 for the question and the first memory, E_k
    the output memory of hop k and the input memory of hop k + 1, E_3 also
    the answer matrix), position encoding l_kj and temporal encodings.
    Returns answer logits (N, 12000) and the attention of every hop (N, 3,
    50)."""

    def __init__(self, vocab=12000, sentences=50, words=16, dim=256, hops=3):
        super().__init__()
        self.hops = hops
        self.emb = nn.ModuleList(nn.Embedding(vocab, dim) for _ in range(hops + 1))
        for e in self.emb:
            nn.init.normal_(e.weight, std=0.1)
        self.temporal = nn.Parameter(torch.randn(hops + 1, sentences, dim) * 0.1)
        j = torch.arange(1, words + 1, dtype=torch.float32).view(words, 1)
        k = torch.arange(1, dim + 1, dtype=torch.float32).view(1, dim)
        self.register_buffer("pe", (1.0 - j / words) - (k / dim) * (1.0 - 2.0 * j / words))   # (J, d)

    def forward(self, story, query):              # (N, S, J), (N, J) int64
        u = (self.emb[0](query) * self.pe).sum(1)                          # (N, d)
        mems = [(self.emb[i](story) * self.pe).sum(2) + self.temporal[i] for i in range(self.hops + 1)]
        att = []
        for h in range(self.hops):
            p = torch.softmax(torch.matmul(mems[h], u.unsqueeze(-1)).squeeze(-1), -1)   # (N, S)
            u = u + torch.matmul(p.unsqueeze(1), mems[h + 1]).squeeze(1)
            att.append(p)
        return F.linear(u, self.emb[self.hops].weight), torch.stack(att, 1)


class _SAGEStack(nn.Module):
    """DiffPool's dense GraphSAGE: layers relu(normalize(W [x, mean of
    neighbours and self])) (the last one without ReLU), outputs of all
    layers concatenated when concat."""

    def __init__(self, cin, hidden, cout, layers=3, concat=True):
        super().__init__()
        sizes = [cin] + [hidden] * (layers - 1) + [cout]
        self.lins = nn.ModuleList(nn.Linear(2 * sizes[i], sizes[i + 1]) for i in range(layers))
        self.concat = concat

    def forward(self, x, adj, inv_deg):          # (N, V, C), (N, V, V), (N, V, 1)
        outs = []
        for i, lin in enumerate(self.lins):
            agg = (torch.matmul(adj, x) + x) * inv_deg
            x = F.normalize(lin(torch.cat([x, agg], -1)), dim=-1)
            if i < len(self.lins) - 1:
                x = F.relu(x)
            outs.append(x)
        return torch.cat(outs, -1) if self.concat else x


class DiffPoolGraph(nn.Module):
    """DiffPool on 128 nodes with 32 input features; hidden 96, embedding
    stacks of 3 layers (concatenated, 288), soft assignments to 32 and 8
    clusters, max readouts of the three levels, MLP to 6 classes.  Returns
    the logits (N, 6), the link-prediction term (N,) and the assignment
    entropy (N,)."""

    def __init__(self, nodes=128, features=32, hidden=96, clusters=(32, 8), classes=6):
        super().__init__()
        out = 3 * hidden
        self.embed = nn.ModuleList([_SAGEStack(features, hidden, hidden), _SAGEStack(out, hidden, hidden),
                                    _SAGEStack(out, hidden, hidden)])
        self.assign = nn.ModuleList([_SAGEStack(features, hidden, clusters[0], concat=False),
                                     _SAGEStack(out, hidden, clusters[1], concat=False)])
        self.assign_out = nn.ModuleList([nn.Linear(clusters[0], clusters[0]), nn.Linear(clusters[1], clusters[1])])
        self.head = _mlp((3 * out, hidden, classes))

    def forward(self, x, adj):                    # (N, 128, 32), (N, 128, 128)
        a = ((adj + adj.transpose(1, 2)) > 2.0).float()
        reads, link, ent = [], [], []
        for level in range(3):
            inv = 1.0 / (a.sum(-1, keepdim=True) + 1.0)
            z = self.embed[level](x, a, inv)
            reads.append(z.amax(1))
            if level == 2:
                break
            s = torch.softmax(self.assign_out[level](self.assign[level](x, a, inv)), -1)   # (N, V, K)
            st = s.transpose(1, 2)
            diff = a - torch.matmul(s, st)
            link.append(torch.sqrt((diff * diff).sum((1, 2))))
            ent.append(-(s * torch.log(s + 1.0e-9)).sum(-1).mean(1))
            x = torch.matmul(st, z)
            a = torch.matmul(torch.matmul(st, a), s)
        logits = self.head(torch.cat(reads, -1))
        return logits, link[0] + link[1], ent[0] + ent[1]


class VoxNetCls(nn.Module):
    """VoxNet on 32^3 occupancy grids of 1024 points seen from 4 rotations
    about z; Conv3d(1, 32, 5, stride 2), Conv3d(32, 32, 3), leaky ReLU
    0.1, MaxPool3d(2), Linear(6912, 128), Linear(128, 40); logits averaged
    over the rotations (N, 40)."""

    def __init__(self, points=1024, grid=32, views=4, classes=40):
        super().__init__()
        self.points, self.grid, self.views, self.classes = points, grid, views, classes
        rots = []
        for v in range(views):
            a = 2.0 * math.pi * v / views
            rots.append(torch.tensor([[math.cos(a), -math.sin(a), 0.0], [math.sin(a), math.cos(a), 0.0],
                                      [0.0, 0.0, 1.0]]))
        self.register_buffer("rot_t", torch.stack(rots).transpose(1, 2).unsqueeze(0))   # (1, V, 3, 3)
        self.register_buffer("scale", torch.tensor([grid * grid, grid, 1], dtype=torch.long))
        self.register_buffer("empty", torch.zeros(1, grid ** 3))
        self.c1 = nn.Conv3d(1, 32, 5, 2)
        self.c2 = nn.Conv3d(32, 32, 3)
        self.pool = nn.MaxPool3d(2)
        side = ((grid - 5) // 2 + 1 - 2) // 2
        self.fc = nn.Sequential(nn.Flatten(), nn.Linear(32 * side ** 3, 128), nn.ReLU(), nn.Linear(128, classes))

    def forward(self, cloud):                     # (N, 1024, 3)
        g = self.grid
        c = cloud - cloud.mean(1, keepdim=True)
        r = torch.sqrt((c * c).sum(-1)).amax(1).view(-1, 1, 1, 1) + 1.0e-6
        pts = torch.matmul(c.unsqueeze(1), self.rot_t) / r                  # (N, V, P, 3) in [-1, 1]
        ijk = torch.clamp(torch.floor((pts + 1.0) * (0.5 * g)), 0.0, g - 1.0).long()
        flat = (ijk * self.scale).sum(-1).reshape(-1, self.points)          # (N V, P)
        occ = torch.zeros_like(flat[:, :1]).float() + self.empty
        occ = occ.scatter(1, flat, torch.ones_like(flat, dtype=torch.float32))
        x = occ.view(-1, 1, g, g, g)
        x = self.pool(F.leaky_relu(self.c2(F.leaky_relu(self.c1(x), 0.1)), 0.1))
        return self.fc(x).view(-1, self.views, self.classes).mean(1)


class NeuMFRec(nn.Module):
    """NeuMF: GMF embeddings 32, MLP embeddings 64 + 64, tower 128 -> 128
    -> 64 -> 32, fusion Linear(64, 1), for 6000 users and 20000 items.
    Returns the scores (N, 1000), the best 20 scores and their item ids."""

    def __init__(self, users=6000, items=20000, candidates=1000, gmf=32, mlp=(128, 64, 32), top=20):
        super().__init__()
        self.candidates, self.top = candidates, top
        self.user_gmf, self.item_gmf = nn.Embedding(users, gmf), nn.Embedding(items, gmf)
        self.user_mlp, self.item_mlp = nn.Embedding(users, mlp[0] // 2), nn.Embedding(items, mlp[0] // 2)
        self.tower = _mlp((mlp[0],) + tuple(mlp), last_act=True)
        self.out = nn.Linear(gmf + mlp[-1], 1)

    def forward(self, user, items):               # (N, 1), (N, C) int64
        c = self.candidates
        g = self.user_gmf(user) * self.item_gmf(items)                      # (N, C, G)
        m = self.tower(torch.cat([self.user_mlp(user).expand(-1, c, -1), self.item_mlp(items)], -1))
        score = torch.sigmoid(self.out(torch.cat([g, m], -1)).squeeze(-1))  # (N, C)
        best, pos = score.topk(self.top, -1)
        return score, best, torch.gather(items, 1, pos)


class _Inception(nn.Module):
    """TimesNet's Inception block: the mean of 2-D convs of kernels 1, 3,
    5 ('same' padding)."""

    def __init__(self, cin, cout, kernels=3):
        super().__init__()
        self.convs = nn.ModuleList(nn.Conv2d(cin, cout, 2 * i + 1, padding=i) for i in range(kernels))

    def forward(self, x):
        return torch.stack([c(x) for c in self.convs], -1).mean(-1)


class _TimesBlock(nn.Module):
    """Amplitudes of the candidate periods' frequencies, the sequence
    folded to (T / p, p) per period, a shared 2-D Inception - GELU -
    Inception, unfolded and summed with softmax weights, plus the input."""

    def __init__(self, length, dim, ff, periods):
        super().__init__()
        self.length, self.periods = length, periods
        t = torch.arange(length, dtype=torch.float32).view(length, 1)
        fr = torch.tensor([length // p for p in periods], dtype=torch.float32).view(1, -1)
        self.register_buffer("cos", torch.cos(2.0 * math.pi * t * fr / length))   # (T, K)
        self.register_buffer("sin", torch.sin(2.0 * math.pi * t * fr / length))
        self.conv = nn.Sequential(_Inception(dim, ff), nn.GELU(), _Inception(ff, dim))

    def forward(self, x):                         # (N, T, D)
        t, d, k = self.length, x.shape[2], len(self.periods)
        xt = x.transpose(1, 2)                                              # (N, D, T)
        re, im = torch.matmul(xt, self.cos), torch.matmul(xt, self.sin)
        amp = torch.sqrt(re * re + im * im + 1.0e-12).mean(1)               # (N, K)
        outs = []
        for p in self.periods:
            y = x.reshape(-1, t // p, p, d).permute(0, 3, 1, 2)
            outs.append(self.conv(y).permute(0, 2, 3, 1).reshape(-1, t, d))
        w = torch.softmax(amp, -1).view(-1, 1, 1, k)
        return (torch.stack(outs, -1) * w).sum(-1) + x


class TimesNetForecast(nn.Module):
    """TimesNet, 96 -> 48 steps of 7 variables: width 32, Inception width
    64, two TimesBlocks with LayerNorm.  Returns the forecast (N, 48, 7)."""

    def __init__(self, seq=96, pred=48, channels=7, dim=32, ff=64, layers=2, periods=(4, 8, 12, 24, 48)):
        super().__init__()
        self.pred = pred
        total = seq + pred
        self.token = nn.Conv1d(channels, dim, 3, padding=1, padding_mode="circular", bias=False)
        pos = torch.zeros(seq, dim)
        t = torch.arange(seq, dtype=torch.float32).view(-1, 1)
        div = torch.exp(torch.arange(0, dim, 2, dtype=torch.float32) * (-math.log(10000.0) / dim))
        pos[:, 0::2], pos[:, 1::2] = torch.sin(t * div), torch.cos(t * div)
        self.register_buffer("pos", pos.unsqueeze(0))
        self.extend = nn.Linear(seq, total)
        self.blocks = nn.ModuleList(_TimesBlock(total, dim, ff, periods) for _ in range(layers))
        self.norm = nn.LayerNorm(dim)
        self.proj = nn.Linear(dim, channels)

    def forward(self, series):                    # (N, 96, 7)
        mean = series.mean(1, keepdim=True)
        x = series - mean
        std = torch.sqrt((x * x).mean(1, keepdim=True) + 1.0e-5)
        x = x / std
        h = self.token(x.transpose(1, 2)).transpose(1, 2) + self.pos       # (N, L, D)
        h = self.extend(h.transpose(1, 2)).transpose(1, 2)                  # (N, T, D)
        for blk in self.blocks:
            h = self.norm(blk(h))
        y = self.proj(h)[:, -self.pred:]
        return y * std + mean


class DeepONet(nn.Module):
    """Unstacked DeepONet: branch MLP 100 -> 128 x 4 -> 2 x 128 (ReLU),
    trunk MLP 2 -> 128 x 4 -> 128 (tanh, also after its last layer), two
    output components.  Returns G(u)(y) (N, 1024, 2)."""

    def __init__(self, sensors=100, width=128, depth=4, basis=128, outputs=2):
        super().__init__()
        self.basis, self.outputs = basis, outputs
        self.branch = _mlp((sensors,) + (width,) * depth + (outputs * basis,))
        self.trunk = _mlp((2,) + (width,) * depth + (basis,), act=nn.Tanh, last_act=True)
        self.bias = nn.Parameter(torch.zeros(outputs))

    def forward(self, sensors, coords):           # (N, 100), (N, 1024, 2)
        b = self.branch(sensors).view(-1, self.outputs, self.basis)        # (N, O, p)
        t = self.trunk(coords)                                              # (N, Y, p)
        return torch.matmul(t, b.transpose(1, 2)) + self.bias


BLIND32 = {
    "lll_reduce": dict(ctor=LLLReduce, family="lll-lattice-basis-reduction",
                       inputs=[("features", ("N", 32), "float32", None)]),
    "jarvis_hull": dict(ctor=JarvisHull, family="jarvis-march-gift-wrapping-hull",
                        inputs=[("cloud", ("N", 256, 2), "float32", None)]),
    "stable_fluids": dict(ctor=StableFluids, family="stable-fluids-semi-lagrangian-projection",
                          inputs=[("image", ("N", 1, 48, 48), "float32", None)]),
    "detr_det": dict(ctor=DETRDet, family="set-prediction-detection-transformer",
                     inputs=[("image", ("N", 3, 192, 192), "float32", None)]),
    "superpoint_kp": dict(ctor=SuperPointKP, family="self-supervised-interest-point-descriptor",
                          inputs=[("image", ("N", 1, 96, 128), "float32", None)]),
    "tacotron2_tts": dict(ctor=Tacotron2TTS, family="location-sensitive-attention-tts",
                          inputs=[("text", ("N", 40), "int64", 64)]),
    "memn2n_qa": dict(ctor=MemN2NQA, family="end-to-end-multihop-memory-network",
                      inputs=[("story", ("N", 50, 16), "int64", 12000),
                              ("query", ("N", 16), "int64", 12000)]),
    "diffpool_graph": dict(ctor=DiffPoolGraph, family="differentiable-soft-cluster-pooling",
                           inputs=[("x", ("N", 128, 32), "float32", None),
                                   ("adj", ("N", 128, 128), "float32", None)]),
    "voxnet_cls": dict(ctor=VoxNetCls, family="voxel-occupancy-3d-cnn",
                       inputs=[("cloud", ("N", 1024, 3), "float32", None)]),
    "neumf_rec": dict(ctor=NeuMFRec, family="neural-matrix-factorization",
                      inputs=[("user", ("N", 1), "int64", 6000),
                              ("items", ("N", 1000), "int64", 20000)]),
    "timesnet_forecast": dict(ctor=TimesNetForecast, family="period-folded-2d-variation",
                              inputs=[("series", ("N", 96, 7), "float32", None)]),
    "deeponet_operator": dict(ctor=DeepONet, family="branch-trunk-deep-operator-network",
                              inputs=[("sensors", ("N", 100), "float32", None),
                                      ("coords", ("N", 1024, 2), "float32", None)]),
}
