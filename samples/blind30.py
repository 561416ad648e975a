r"""BLIND30: the thirtieth blind set, written on 2026-12-07 by a helper
session before any of it was measured.  Nothing in it has been timed,
profiled or run through onnxcost predict; it is to be measured first and
scored once only, at the end, with the code as it stands then
(bench/zoo_accuracy.py --set blind30).  None of its twelve families occurs
in another set (ZOO, BLIND, BLIND2 ... BLIND29, the reference models), so
no plan rule, feature, fit or calibration can have been made with any of
them in view.

Three families unroll a classical procedure into a fixed graph of small
kernels (about a thousand to two thousand nodes each, Constants
included), each with a small learned part:

  * Zhang-Suen thinning (Zhang & Suen, "A Fast Parallel Algorithm for
    Thinning Digital Patterns", 1984): a small Conv net segments a
    64 x 64 image into a binary mask (straight-through threshold), then
    eight iterations of the two sub-iterations each read the eight
    neighbours of every pixel (one Pad and eight Slices), count them (B)
    and their 0-to-1 transitions around the ring (A), test the
    2 <= B <= 6, A = 1 and the two neighbour-product conditions by
    comparisons and products, and delete the pixels that pass; a strided
    Conv classifier reads the image, the mask and the skeleton.
  * Prim's minimum spanning tree (Prim, "Shortest Connection Networks and
    Some Generalizations", 1957) over 64 points in 3-D: a per-point MLP
    embeds the points, the edge cost is the squared distance in the
    joint position-embedding space, and 63 steps each take the cheapest
    vertex outside the tree (ReduceMin and ArgMin of the masked distance
    row), mark it (Equal against an index row), GatherElements its cost
    row and relax the distances and parents (Less, Where, Min); the
    sorted edge costs (TopK) and messages along the tree's parent edges
    feed a classifier.
  * Gerchberg-Saxton phase retrieval (Gerchberg & Saxton, "A Practical
    Algorithm for the Determination of Phase from Image and Diffraction
    Plane Pictures", 1972): from the object-plane and Fourier-plane
    amplitudes of a 48 x 48 field, a small Conv net guesses the initial
    phase; 20 iterations each take the 2-D DFT as complex MatMuls with
    fixed cosine and sine matrices (eight real MatMuls), impose the
    Fourier amplitude, transform back and impose the object amplitude; a
    Conv net refines the recovered phase (as cosine and sine), and the
    Fourier-amplitude error is returned as well.

The other nine are published network designs of ordinary sizes:

  * SCNN (Pan, Shi, Luo, Wang & Tang, "Spatial As Deep: Spatial CNN for
    Traffic Scene Understanding", 2018): a VGG-like backbone (dilated at
    the end) brings a 128 x 256 road image to a 16 x 32 map of 64
    channels; spatial message passing slice by slice, downward, upward
    (rows, a 1 x 9 Conv each) rightward and leftward (columns, 9 x 1),
    each slice adding the ReLU of the Conv of its updated neighbour; a
    five-class lane segmentation upsampled 8x (bilinear Resize) and a
    four-lane existence branch (softmax, average pool, two Linears).
  * BlazeFace (Bazarevsky, Kartynnik, Vakunov, Raveendran & Grundmann,
    "BlazeFace: Sub-millisecond Neural Face Detection on Mobile GPUs",
    2019): a 5x5 stride-2 stem on 128 x 128 images, single BlazeBlocks
    (5x5 depthwise and 1x1 Convs, MaxPool and channel-Pad shortcuts when
    strided) and double BlazeBlocks (24-channel bottleneck), heads at
    16 x 16 (2 anchors a cell) and 8 x 8 (6 anchors), 896 anchors whose
    box and six keypoint regressions are decoded against the anchor
    centres.
  * OSNet (Zhou, Yang, Cavallaro & Xiang, "Omni-Scale Feature Learning
    for Person Re-Identification", 2019) at width x0.5: 256 x 128
    person crops, omni-scale residual bottlenecks of four streams of one
    to four lite 3x3 layers (1x1 Conv then depthwise 3x3) merged by a
    shared unified aggregation gate (GAP, two 1x1 Convs, sigmoid), 1x1
    and average-pool transitions, a 512-d embedding (L2-normalised) and
    751 identity logits.
  * Fastformer (Wu, Wu, Qi, Huang & Xie, "Fastformer: Additive Attention
    Can Be All You Need", 2021): 256-token texts, three layers of width
    192 and 6 heads whose attention pools the queries into a global query
    by an additive softmax over the tokens, multiplies it into the keys,
    pools those into a global key the same way and multiplies that into
    the values, plus a query residual; post-LN feed-forward; masked mean
    pooling to 5 classes.
  * ESIM (Chen, Zhu, Ling, Wei, Jiang & Inkpen, "Enhanced LSTM for
    Natural Language Inference", 2017): a 64-token premise and a 48-token
    hypothesis embedded (128) and encoded by one shared bidirectional
    LSTM (128 each way), soft alignment by the masked dot-product matrix
    softmaxed both ways, enhancement [a; a~; a - a~; a * a~], a Linear
    projection, a composition BiLSTM, masked average and max pooling of
    both sentences and a tanh MLP to 3 classes.
  * Open-Unmix (Stoter, Uhlich, Liutkus & Mitsufuji, "Open-Unmix - A
    Reference Implementation for Music Source Separation", 2019) reduced:
    a stereo excerpt of 16384 samples, an STFT as a strided Conv1d with
    fixed Hann-windowed cosine and sine kernels (1024 points, hop 256,
    reflect-padded), magnitudes cropped to 372 of 513 bins and scaled,
    a Linear, BatchNorm and tanh to 256, three layers of bidirectional
    LSTM (128 each way) with a skip, two Linear-BatchNorm layers back to
    the full spectrum, and the mask applied to the mixture magnitude.
  * DCRNN (Li, Yu, Shahabi & Liu, "Diffusion Convolutional Recurrent
    Neural Network: Data-Driven Traffic Forecasting", 2018): 80 road
    sensors on a fixed directed graph, diffusion convolution of two
    steps along the forward and the backward random walk (MatMuls with
    the transition matrices) inside the GRU gates, an encoder of two
    DCGRU layers (32 units) over 12 steps and a decoder of two over 12
    steps that feeds back its own prediction.
  * KPConv (Thomas, Qi, Deschaud, Marcotegui, Goulette & Guibas, "KPConv:
    Flexible and Deformable Convolution for Point Clouds", 2019), rigid
    kernels: 1024 points, neighbourhoods of 16 by TopK of negative
    squared distances (in place of the radius search), 15 kernel points
    with linear correlation max(0, 1 - |y - x_k| / sigma), bottleneck
    residual blocks, strided blocks to 256 and 64 points (max-pooled
    shortcuts), global average to 40 classes.
  * FiBiNET (Huang, Zhang & Zhang, "FiBiNET: Combining Feature
    Importance and Bilinear feature Interaction for Click-Through Rate
    Prediction", 2019): 30 categorical fields as embeddings of 12, a
    SENET layer re-weighting the fields, the field-each bilinear
    interaction (v_i W_i) * v_j over the 435 field pairs (Gathers) for
    both the plain and the re-weighted embeddings, a 256-256-256 DNN and
    a first-order part summed into a click probability.

To be measured with

    OMP_WAIT_POLICY=PASSIVE /usr/bin/python3 scripts/measure_zoo.py --set blind30 \
        zhang_suen_thinning prim_mst gerchberg_saxton \
        scnn_lane blazeface_det osnet_reid fastformer_text esim_nli \
        open_unmix dcrnn_traffic kpconv_cls fibinet_ctr \
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

class ZhangSuenThinning(nn.Module):
    """A Conv net marks the foreground of a 64 x 64 RGB image (sigmoid >
    0.5, straight-through); Zhang-Suen thinning, eight iterations of the
    two sub-iterations, reduces the mask to its skeleton.  Neighbours
    P2 ... P9 run clockwise from north; a pixel is deleted when
    2 <= B <= 6, A = 1, and P2 P4 P6 = P4 P6 P8 = 0 (first sub-iteration)
    or P2 P4 P8 = P2 P6 P8 = 0 (second).  Returns the skeleton and the
    logits of a Conv classifier over the image, the mask and the
    skeleton."""

    def __init__(self, side=64, iterations=8, classes=10):
        super().__init__()
        self.side, self.iterations = side, iterations
        self.seg = nn.Sequential(_cbr(3, 16), _cbr(16, 16), _cbr(16, 16, 3, 1, 1, 2), nn.Conv2d(16, 1, 1))
        # (dy, dx) of P2 .. P9
        self.ring = ((-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1))
        self.read = nn.Sequential(_cbr(5, 24, 3, 2), _cbr(24, 48, 3, 2), _cbr(48, 64, 3, 2), _cbr(64, 96, 3, 2))
        self.fc = nn.Linear(96, classes)

    def forward(self, image):                     # (N, 3, 64, 64)
        s = self.side
        p = torch.sigmoid(self.seg(image))                                  # (N, 1, S, S)
        b = p + ((p > 0.5).float() - p).detach()
        mask = b
        for _ in range(self.iterations):
            for sub in (0, 1):
                pad = F.pad(b, (1, 1, 1, 1))
                nb = [pad[:, :, 1 + dy:1 + dy + s, 1 + dx:1 + dx + s] for dy, dx in self.ring]
                count = nb[0]
                for q in nb[1:]:
                    count = count + q
                trans = (1.0 - nb[7]) * nb[0]
                for i in range(7):
                    trans = trans + (1.0 - nb[i]) * nb[i + 1]
                p2, p4, p6, p8 = nb[0], nb[2], nb[4], nb[6]
                if sub == 0:
                    c1, c2 = p2 * p4 * p6, p4 * p6 * p8
                else:
                    c1, c2 = p2 * p4 * p8, p2 * p6 * p8
                delete = (b > 0.5) & (count > 1.5) & (count < 6.5) & ((trans - 1.0).abs() < 0.5) \
                    & (c1 < 0.5) & (c2 < 0.5)
                b = b * (1.0 - delete.float())
        feat = torch.cat([image, mask, b], 1)
        return b, self.fc(self.read(feat).mean((2, 3)))


class PrimMST(nn.Module):
    """Prim's algorithm on the complete graph of 64 points: the cost of
    edge (i, j) is |x_i - x_j|^2 + |e_i - e_j|^2 with e a learned 16-d
    embedding.  The tree grows from point 0; each step takes the vertex
    outside the tree with the smallest distance to it, adds it and relaxes
    the distances and parents of the vertices outside.  Returns the
    class logits (from the sorted edge costs and from an MLP over each
    vertex and its parent, max-pooled) and the total tree cost."""

    def __init__(self, points=64, emb=16, hidden=64, classes=10):
        super().__init__()
        self.points, self.hidden = points, hidden
        self.embed = nn.Sequential(nn.Linear(3, 32), nn.ReLU(), nn.Linear(32, emb))
        self.node = nn.Sequential(nn.Linear(3 + emb, hidden), nn.ReLU())
        self.edge = nn.Sequential(nn.Linear(2 * hidden + 1, hidden), nn.ReLU(), nn.Linear(hidden, hidden))
        self.costs = nn.Sequential(nn.Linear(points - 1, hidden), nn.ReLU())
        self.head = nn.Sequential(nn.Linear(2 * hidden, hidden), nn.ReLU(), nn.Linear(hidden, classes))
        self.register_buffer("index", torch.arange(points).view(1, points))
        root = torch.zeros(1, points)
        root[0, 0] = 1.0
        self.register_buffer("root", root)
        self.register_buffer("big", torch.tensor(1.0e6))

    def forward(self, cloud):                     # (N, 64, 3)
        p = self.points
        z = torch.cat([cloud, self.embed(cloud)], -1)                       # (N, P, 3 + E)
        sq = (z * z).sum(-1)
        cost = (sq.unsqueeze(2) + sq.unsqueeze(1) - 2.0 * torch.matmul(z, z.transpose(1, 2))).clamp(min=0.0)
        inside = self.root + 0.0 * cost[:, 0]                               # (N, P)
        dist = cost[:, 0]
        parent = torch.zeros_like(self.index) + 0 * cloud[:, :, 0].long()  # (N, P) int64
        taken = []
        for _ in range(p - 1):
            w, j = (dist + inside * self.big).min(-1)                       # (N,), (N,)
            inside = inside + (self.index == j.unsqueeze(1)).float()
            row = torch.gather(cost, 1, j.view(-1, 1, 1).expand(-1, 1, p)).squeeze(1)
            closer = (row < dist) & (inside < 0.5)
            parent = torch.where(closer, j.unsqueeze(1), parent)
            dist = torch.minimum(dist, row)
            taken.append(w)
        weights = torch.stack(taken, 1)                                     # (N, P - 1)
        h = self.node(z)                                                    # (N, P, H)
        hp = torch.gather(h, 1, parent.unsqueeze(-1).expand(-1, p, self.hidden))
        cp = torch.gather(cost, 2, parent.unsqueeze(-1)).clamp(min=0.0)     # (N, P, 1)
        msg = self.edge(torch.cat([h, hp, torch.sqrt(cp + 1e-6)], -1)).amax(1)
        ordered = weights.topk(p - 1, -1)[0]
        logits = self.head(torch.cat([msg, self.costs(ordered)], -1))
        return logits, weights.sum(-1)


class GerchbergSaxton(nn.Module):
    """Phase retrieval from the amplitudes in the object plane (channel 0,
    softplus of the input) and the Fourier plane (channel 1, likewise) of
    a 48 x 48 field.  The initial phase is pi tanh of a Conv net over both;
    each iteration G = F g F, G <- |G|_meas G / |G|, g = conj(F) G
    conj(F) / S^2, g <- |g|_meas g / |g|.  Returns the refined map (a
    Conv net over the amplitudes and the cosine and sine of the recovered
    phase) and the mean squared Fourier-amplitude error of the last
    iterate."""

    def __init__(self, side=48, iterations=20):
        super().__init__()
        self.side, self.iterations = side, iterations
        self.init = nn.Sequential(_cbr(2, 16), _cbr(16, 16), nn.Conv2d(16, 1, 3, 1, 1))
        k = torch.arange(side, dtype=torch.float64)
        ang = 2.0 * math.pi * torch.outer(k, k) / side
        self.register_buffer("cos", torch.cos(ang).float())
        self.register_buffer("sin", torch.sin(ang).float())
        self.refine = nn.Sequential(_cbr(4, 32), _cbr(32, 32), nn.Conv2d(32, 1, 3, 1, 1))

    def _cmm(self, ar, ai, br, bi):
        return torch.matmul(ar, br) - torch.matmul(ai, bi), torch.matmul(ar, bi) + torch.matmul(ai, br)

    def forward(self, amplitudes):                # (N, 2, 48, 48)
        amp = F.softplus(amplitudes)
        obj, four = amp[:, 0:1], amp[:, 1:2]
        phase = math.pi * torch.tanh(self.init(amp))
        gr, gi = obj * torch.cos(phase), obj * torch.sin(phase)
        c, sn = self.cos, self.sin
        scale = 1.0 / (self.side * self.side)
        err = None
        for _ in range(self.iterations):
            tr, ti = self._cmm(c, -sn, gr, gi)                              # F g
            fr, fi = self._cmm(tr, ti, c, -sn)                              # (F g) F
            mag = torch.sqrt(fr * fr + fi * fi + 1e-8)
            err = ((mag - four) ** 2).mean((1, 2, 3))
            fr, fi = fr * (four / mag), fi * (four / mag)
            tr, ti = self._cmm(c, sn, fr, fi)                               # conj(F) G
            gr, gi = self._cmm(tr, ti, c, sn)
            gr, gi = gr * scale, gi * scale
            mag = torch.sqrt(gr * gr + gi * gi + 1e-8)
            gr, gi = gr * (obj / mag), gi * (obj / mag)
        mag = torch.sqrt(gr * gr + gi * gi + 1e-8)
        out = self.refine(torch.cat([obj, four, gr / mag, gi / mag], 1))
        return out, err


# --------------------------------------------------------------------------
# Published network designs
# --------------------------------------------------------------------------

class SCNNLane(nn.Module):
    """SCNN on a 128 x 256 image: backbone to stride 8 (the last two 3x3
    layers dilated 2), a 1x1 reduction to 64 channels, the four
    directional slice-by-slice passes (x_i += ReLU(conv(x_{i-1})) along
    the pass), five-class segmentation logits at full size and lane
    existence probabilities for four lanes."""

    def __init__(self, height=128, width=256, width_ch=64, lanes=4):
        super().__init__()
        self.backbone = nn.Sequential(
            _cbr(3, 32, 3, 2), _cbr(32, 32),
            _cbr(32, 64, 3, 2), _cbr(64, 64),
            _cbr(64, 128, 3, 2), _cbr(128, 128),
            _cbr(128, 128, 3, 1, 1, 2), _cbr(128, 128, 3, 1, 1, 2),
            _cbr(128, width_ch, 1))
        self.down = nn.Conv2d(width_ch, width_ch, (1, 9), 1, (0, 4), bias=False)
        self.up = nn.Conv2d(width_ch, width_ch, (1, 9), 1, (0, 4), bias=False)
        self.right = nn.Conv2d(width_ch, width_ch, (9, 1), 1, (4, 0), bias=False)
        self.left = nn.Conv2d(width_ch, width_ch, (9, 1), 1, (4, 0), bias=False)
        self.drop = nn.Dropout2d(0.1)
        self.cls = nn.Conv2d(width_ch, lanes + 1, 1)
        h8, w8 = height // 8, width // 8
        self.exist = nn.Sequential(nn.Linear((lanes + 1) * (h8 // 2) * (w8 // 2), 128), nn.ReLU(),
                                   nn.Linear(128, lanes))

    @staticmethod
    def _pass(slices, conv, order):
        for a, b in zip(order[:-1], order[1:]):
            slices[b] = slices[b] + F.relu(conv(slices[a]))
        return slices

    def forward(self, image):                     # (N, 3, 128, 256)
        x = self.backbone(image)                                            # (N, C, 16, 32)
        h, w = x.shape[2], x.shape[3]
        rows = [x[:, :, i:i + 1] for i in range(h)]
        rows = self._pass(rows, self.down, list(range(h)))
        rows = self._pass(rows, self.up, list(range(h - 1, -1, -1)))
        x = torch.cat(rows, 2)
        cols = [x[:, :, :, j:j + 1] for j in range(w)]
        cols = self._pass(cols, self.right, list(range(w)))
        cols = self._pass(cols, self.left, list(range(w - 1, -1, -1)))
        x = torch.cat(cols, 3)
        seg = self.cls(self.drop(x))                                        # (N, 5, 16, 32)
        full = F.interpolate(seg, scale_factor=8.0, mode="bilinear", align_corners=False)
        e = F.avg_pool2d(torch.softmax(seg, 1), 2).flatten(1)
        return full, torch.sigmoid(self.exist(e))


class _BlazeBlock(nn.Module):
    """Single (5x5 depthwise, 1x1) or double (5x5 dw, 1x1 to a bottleneck,
    ReLU, 5x5 dw, 1x1) BlazeBlock; a strided one's shortcut is a 2x2
    MaxPool, a wider one's is zero-padded in channels."""

    def __init__(self, cin, cout, stride=1, mid=None):
        super().__init__()
        self.stride, self.extra = stride, cout - cin
        if mid is None:
            self.body = nn.Sequential(nn.Conv2d(cin, cin, 5, stride, 2, groups=cin), nn.Conv2d(cin, cout, 1))
        else:
            self.body = nn.Sequential(nn.Conv2d(cin, cin, 5, stride, 2, groups=cin), nn.Conv2d(cin, mid, 1),
                                      nn.ReLU(), nn.Conv2d(mid, mid, 5, 1, 2, groups=mid), nn.Conv2d(mid, cout, 1))

    def forward(self, x):
        s = F.max_pool2d(x, 2) if self.stride == 2 else x
        if self.extra > 0:
            s = F.pad(s, (0, 0, 0, 0, 0, self.extra))
        return F.relu(self.body(x) + s)


class BlazeFaceDet(nn.Module):
    """BlazeFace front model on 128 x 128 images (the paper's table):
    stem 24, single blocks 24, 24, 48 (s2), 48, 48, double blocks 96 (s2),
    96, 96 (head at 16 x 16), 96 (s2), 96, 96 (head at 8 x 8).  Returns
    the 896 face scores and the decoded boxes (ymin, xmin, ymax, xmax)
    and six keypoints (x, y) per anchor."""

    def __init__(self, size=128):
        super().__init__()
        self.size = float(size)
        self.stem = nn.Sequential(nn.Conv2d(3, 24, 5, 2, 2), nn.ReLU())
        self.stage16 = nn.Sequential(
            _BlazeBlock(24, 24), _BlazeBlock(24, 24), _BlazeBlock(24, 48, 2), _BlazeBlock(48, 48),
            _BlazeBlock(48, 48), _BlazeBlock(48, 96, 2, 24), _BlazeBlock(96, 96, 1, 24),
            _BlazeBlock(96, 96, 1, 24))
        self.stage8 = nn.Sequential(_BlazeBlock(96, 96, 2, 24), _BlazeBlock(96, 96, 1, 24),
                                    _BlazeBlock(96, 96, 1, 24))
        self.cls16, self.reg16 = nn.Conv2d(96, 2, 1), nn.Conv2d(96, 2 * 16, 1)
        self.cls8, self.reg8 = nn.Conv2d(96, 6, 1), nn.Conv2d(96, 6 * 16, 1)
        anchors = []
        for grid, per in ((16, 2), (8, 6)):
            c = (torch.arange(grid, dtype=torch.float32) + 0.5) / grid
            cy, cx = torch.meshgrid(c, c, indexing="ij")
            xy = torch.stack([cx, cy], -1).reshape(-1, 1, 2).expand(-1, per, 2).reshape(-1, 2)
            anchors.append(xy)
        self.register_buffer("anchors", torch.cat(anchors, 0))             # (896, 2) centres, w = h = 1

    @staticmethod
    def _flat(t, width):
        return t.permute(0, 2, 3, 1).reshape(t.shape[0], -1, width)

    def forward(self, image):                     # (N, 3, 128, 128)
        x16 = self.stage16(self.stem(image))
        x8 = self.stage8(x16)
        score = torch.cat([self._flat(self.cls16(x16), 1), self._flat(self.cls8(x8), 1)], 1)
        raw = torch.cat([self._flat(self.reg16(x16), 16), self._flat(self.reg8(x8), 16)], 1) / self.size
        pts = raw.reshape(raw.shape[0], -1, 8, 2)                          # (N, 896, 8, 2)
        centre = pts[:, :, 0] + self.anchors
        half = 0.5 * pts[:, :, 1]
        box = torch.cat([(centre - half).flip(-1), (centre + half).flip(-1)], -1)
        keys = (pts[:, :, 2:] + self.anchors.unsqueeze(1)).flatten(2)
        return torch.sigmoid(score.clamp(-100.0, 100.0)), torch.cat([box, keys], -1)


class _LiteConv(nn.Module):
    """1x1 Conv, depthwise 3x3, BatchNorm, ReLU."""

    def __init__(self, cin, cout):
        super().__init__()
        self.f = nn.Sequential(nn.Conv2d(cin, cout, 1, bias=False),
                               nn.Conv2d(cout, cout, 3, 1, 1, groups=cout, bias=False),
                               nn.BatchNorm2d(cout), nn.ReLU())

    def forward(self, x):
        return self.f(x)


class _OSBlock(nn.Module):
    """Omni-scale bottleneck: 1x1 to cout / 4, streams of 1 .. 4 lite 3x3
    layers, one shared aggregation gate, 1x1 up, residual."""

    def __init__(self, cin, cout, streams=4):
        super().__init__()
        mid = cout // 4
        self.reduce = _cbr(cin, mid, 1)
        self.streams = nn.ModuleList(nn.Sequential(*[_LiteConv(mid, mid) for _ in range(t + 1)])
                                     for t in range(streams))
        self.gate = nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Conv2d(mid, max(mid // 16, 4), 1), nn.ReLU(),
                                  nn.Conv2d(max(mid // 16, 4), mid, 1), nn.Sigmoid())
        self.expand = nn.Sequential(nn.Conv2d(mid, cout, 1, bias=False), nn.BatchNorm2d(cout))
        self.short = None if cin == cout else nn.Sequential(nn.Conv2d(cin, cout, 1, bias=False),
                                                            nn.BatchNorm2d(cout))

    def forward(self, x):
        m = self.reduce(x)
        agg = None
        for s in self.streams:
            y = s(m)
            y = y * self.gate(y)
            agg = y if agg is None else agg + y
        short = x if self.short is None else self.short(x)
        return F.relu(self.expand(agg) + short)


class OSNetReID(nn.Module):
    """OSNet x0.5 on 256 x 128: 7x7 stride-2 stem (32) and 3x3 stride-2
    MaxPool; two OS blocks to 128, transition (1x1, 2x2 AvgPool); two to
    192, transition; two to 256; 1x1 Conv; global average; Linear 512,
    BatchNorm, ReLU.  Returns the L2-normalised embedding and the identity
    logits."""

    def __init__(self, channels=(32, 128, 192, 256), feat=512, ids=751):
        super().__init__()
        c0, c1, c2, c3 = channels
        self.stem = nn.Sequential(_cbr(3, c0, 7, 2), nn.MaxPool2d(3, 2, 1))
        self.body = nn.Sequential(
            _OSBlock(c0, c1), _OSBlock(c1, c1), _cbr(c1, c1, 1), nn.AvgPool2d(2),
            _OSBlock(c1, c2), _OSBlock(c2, c2), _cbr(c2, c2, 1), nn.AvgPool2d(2),
            _OSBlock(c2, c3), _OSBlock(c3, c3), _cbr(c3, c3, 1))
        self.fc = nn.Sequential(nn.Linear(c3, feat), nn.BatchNorm1d(feat), nn.ReLU())
        self.cls = nn.Linear(feat, ids)

    def forward(self, image):                     # (N, 3, 256, 128)
        v = self.fc(self.body(self.stem(image)).mean((2, 3)))
        return F.normalize(v, dim=1), self.cls(v)


class _FastAttention(nn.Module):
    """Fastformer additive attention: global query from an additive softmax
    over the tokens, multiplied into the keys; global key the same way,
    multiplied into the values; a Linear plus the query."""

    def __init__(self, dim, heads):
        super().__init__()
        self.h, self.hd = heads, dim // heads
        self.q, self.k, self.v = nn.Linear(dim, dim), nn.Linear(dim, dim), nn.Linear(dim, dim)
        self.wq = nn.Parameter(torch.randn(heads, dim // heads) * 0.1)
        self.wk = nn.Parameter(torch.randn(heads, dim // heads) * 0.1)
        self.out = nn.Linear(dim, dim)

    def _pool(self, x, w, bias):                  # x (N, T, h, hd), bias (N, T, 1)
        a = torch.softmax((x * w).sum(-1) / math.sqrt(self.hd) + bias, 1)  # (N, T, h)
        return (a.unsqueeze(-1) * x).sum(1, keepdim=True)                  # (N, 1, h, hd)

    def forward(self, x, bias):
        t, d = x.shape[1], x.shape[2]
        q = self.q(x).reshape(-1, t, self.h, self.hd)
        k = self.k(x).reshape(-1, t, self.h, self.hd)
        v = self.v(x).reshape(-1, t, self.h, self.hd)
        p = k * self._pool(q, self.wq, bias)
        u = v * self._pool(p, self.wk, bias)
        return self.out(u.reshape(-1, t, d)) + q.reshape(-1, t, d)


class FastformerText(nn.Module):
    """Fastformer text classifier: token and position embeddings (192),
    three post-LN layers of additive attention (6 heads) and a GELU
    feed-forward (768), masked mean pooling (token 0 is padding), 5
    classes."""

    def __init__(self, vocab=20000, length=256, dim=192, heads=6, layers=3, ff=768, classes=5):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.pos = nn.Parameter(torch.randn(1, length, dim) * 0.02)
        self.norm0 = nn.LayerNorm(dim)
        self.attn = nn.ModuleList(_FastAttention(dim, heads) for _ in range(layers))
        self.n1 = nn.ModuleList(nn.LayerNorm(dim) for _ in range(layers))
        self.ff = nn.ModuleList(nn.Sequential(nn.Linear(dim, ff), nn.GELU(), nn.Linear(ff, dim))
                                for _ in range(layers))
        self.n2 = nn.ModuleList(nn.LayerNorm(dim) for _ in range(layers))
        self.head = nn.Linear(dim, classes)

    def forward(self, tokens):                    # (N, 256) int64
        mask = (tokens != 0).float().unsqueeze(-1)                          # (N, T, 1)
        bias = (1.0 - mask) * -1.0e4
        x = self.norm0(self.tok(tokens) + self.pos)
        for attn, n1, ff, n2 in zip(self.attn, self.n1, self.ff, self.n2):
            x = n1(x + attn(x, bias))
            x = n2(x + ff(x))
        pooled = (x * mask).sum(1) / mask.sum(1).clamp(min=1.0)
        return self.head(pooled)


class ESIMNLI(nn.Module):
    """ESIM: shared embedding (128) and input BiLSTM (128 each way), soft
    alignment, enhancement, Linear 1024 -> 128 with ReLU, composition
    BiLSTM, masked average and max pooling, tanh MLP, 3 classes."""

    def __init__(self, vocab=20000, emb=128, hidden=128, classes=3):
        super().__init__()
        self.emb = nn.Embedding(vocab, emb)
        self.encode = nn.LSTM(emb, hidden, batch_first=True, bidirectional=True)
        self.project = nn.Sequential(nn.Linear(8 * hidden, hidden), nn.ReLU())
        self.compose = nn.LSTM(hidden, hidden, batch_first=True, bidirectional=True)
        self.head = nn.Sequential(nn.Dropout(0.5), nn.Linear(8 * hidden, hidden), nn.Tanh(),
                                  nn.Dropout(0.5), nn.Linear(hidden, classes))

    def _pool(self, v, m):
        avg = (v * m).sum(1) / m.sum(1).clamp(min=1.0)
        mx = (v + (m - 1.0) * 1.0e4).amax(1)
        return torch.cat([avg, mx], -1)

    def forward(self, premise, hypothesis):       # (N, 64), (N, 48) int64
        ma = (premise != 0).float().unsqueeze(-1)
        mb = (hypothesis != 0).float().unsqueeze(-1)
        a = self.encode(self.emb(premise))[0]                               # (N, La, 2H)
        b = self.encode(self.emb(hypothesis))[0]                            # (N, Lb, 2H)
        e = torch.matmul(a, b.transpose(1, 2))                              # (N, La, Lb)
        at = torch.matmul(torch.softmax(e + (mb.transpose(1, 2) - 1.0) * 1.0e4, 2), b)
        bt = torch.matmul(torch.softmax(e.transpose(1, 2) + (ma.transpose(1, 2) - 1.0) * 1.0e4, 2), a)
        va = self.compose(self.project(torch.cat([a, at, a - at, a * at], -1)))[0]
        vb = self.compose(self.project(torch.cat([b, bt, b - bt, b * bt], -1)))[0]
        return self.head(torch.cat([self._pool(va, ma), self._pool(vb, mb)], -1))


class OpenUnmix(nn.Module):
    """Open-Unmix on a stereo excerpt (N, 2, 16384): Conv1d STFT (Hann,
    1024 points, hop 256, reflect padding, 65 frames), magnitude, bins
    cropped to 372, learned input shift and scale, Linear 744 -> 256,
    BatchNorm, tanh, 3-layer BiLSTM (128 each way), skip concatenation,
    Linear 512 -> 256, BatchNorm, ReLU, Linear 256 -> 2 x 513, BatchNorm,
    learned output scale and shift, ReLU mask times the mixture
    magnitude.  Returns the estimated magnitude (N, frames, 2, 513)."""

    def __init__(self, nfft=1024, hop=256, max_bin=372, hidden=256, channels=2):
        super().__init__()
        self.nfft, self.hop, self.max_bin, self.ch = nfft, hop, max_bin, channels
        self.bins = nfft // 2 + 1
        n = torch.arange(nfft, dtype=torch.float64)
        f = torch.arange(self.bins, dtype=torch.float64)
        win = 0.5 - 0.5 * torch.cos(2.0 * math.pi * n / nfft)
        ang = 2.0 * math.pi * torch.outer(f, n) / nfft
        basis = torch.cat([torch.cos(ang) * win, -torch.sin(ang) * win], 0)
        self.register_buffer("basis", basis.float().unsqueeze(1))          # (2B, 1, nfft)
        self.in_mean = nn.Parameter(torch.zeros(max_bin))
        self.in_scale = nn.Parameter(torch.ones(max_bin))
        self.fc1 = nn.Linear(channels * max_bin, hidden, bias=False)
        self.bn1 = nn.BatchNorm1d(hidden)
        self.lstm = nn.LSTM(hidden, hidden // 2, num_layers=3, batch_first=True, bidirectional=True)
        self.fc2 = nn.Linear(2 * hidden, hidden, bias=False)
        self.bn2 = nn.BatchNorm1d(hidden)
        self.fc3 = nn.Linear(hidden, channels * self.bins, bias=False)
        self.bn3 = nn.BatchNorm1d(channels * self.bins)
        self.out_scale = nn.Parameter(torch.ones(self.bins))
        self.out_mean = nn.Parameter(torch.ones(self.bins))

    def forward(self, audio):                     # (N, 2, 16384)
        length = audio.shape[2]
        x = F.pad(audio.reshape(-1, 1, length), (self.nfft // 2, self.nfft // 2), mode="reflect")
        spec = F.conv1d(x, self.basis, stride=self.hop)                     # (N*2, 2B, T)
        t = spec.shape[2]
        re, im = spec[:, :self.bins], spec[:, self.bins:]
        mag = torch.sqrt(re * re + im * im + 1e-8).reshape(-1, self.ch, self.bins, t).permute(0, 3, 1, 2)
        x = (mag[..., :self.max_bin] + self.in_mean) * self.in_scale        # (N, T, 2, max_bin)
        x = self.fc1(x.reshape(-1, t, self.ch * self.max_bin))
        x = torch.tanh(self.bn1(x.reshape(-1, x.shape[2])).reshape(-1, t, x.shape[2]))
        y = torch.cat([x, self.lstm(x)[0]], -1)
        y = self.fc2(y).reshape(-1, x.shape[2])
        y = F.relu(self.bn2(y))
        y = self.bn3(self.fc3(y)).reshape(-1, t, self.ch, self.bins)
        y = y * self.out_scale + self.out_mean
        return F.relu(y) * mag


class _DCGRU(nn.Module):
    """GRU cell whose gate and candidate transforms are diffusion
    convolutions: [x, S_f x, (2 S_f^2 - 1) x, S_b x, (2 S_b^2 - 1) x]
    then a Linear."""

    def __init__(self, cin, hidden):
        super().__init__()
        self.hidden = hidden
        self.gates = nn.Linear(5 * (cin + hidden), 2 * hidden)
        self.cand = nn.Linear(5 * (cin + hidden), hidden)

    @staticmethod
    def diffuse(x, supports):
        out = [x]
        for s in supports:
            x1 = torch.matmul(s, x)
            out += [x1, 2.0 * torch.matmul(s, x1) - x]
        return torch.cat(out, -1)

    def forward(self, x, h, supports):
        ru = torch.sigmoid(self.gates(self.diffuse(torch.cat([x, h], -1), supports)))
        r, u = ru[..., :self.hidden], ru[..., self.hidden:]
        c = torch.tanh(self.cand(self.diffuse(torch.cat([x, r * h], -1), supports)))
        return u * h + (1.0 - u) * c


class DCRNNTraffic(nn.Module):
    """DCRNN on 80 sensors: 12 steps of (speed, time of day) in, 12 steps
    of speed out.  The road graph is fixed (a thresholded Gaussian kernel
    of direction-dependent distances between deterministic sensor
    positions); the supports are the forward and backward random-walk
    transition matrices.  Encoder and decoder of two DCGRU layers of 32
    units; the decoder starts from a zero input and feeds back its
    projection."""

    def __init__(self, nodes=80, features=2, hidden=32, steps_in=12, steps_out=12):
        super().__init__()
        self.nodes, self.hidden, self.steps_in, self.steps_out = nodes, hidden, steps_in, steps_out
        i = torch.arange(nodes, dtype=torch.float64)
        pos = torch.stack([torch.frac(i * 0.6180339887), torch.frac(i * 0.7548776662 + 0.5 * torch.sin(i))], 1)
        d = torch.cdist(pos, pos) * (1.0 + 0.5 * (i.view(-1, 1) > i.view(1, -1)).double())
        w = torch.exp(-(d / d.std()) ** 2)
        w = torch.where(w > 0.1, w, torch.zeros_like(w))
        fwd = w / w.sum(1, keepdim=True)
        bwd = w.t() / w.t().sum(1, keepdim=True)
        self.register_buffer("fwd", fwd.float())
        self.register_buffer("bwd", bwd.float())
        self.enc = nn.ModuleList([_DCGRU(features, hidden), _DCGRU(hidden, hidden)])
        self.dec = nn.ModuleList([_DCGRU(1, hidden), _DCGRU(hidden, hidden)])
        self.proj = nn.Linear(hidden, 1)

    def forward(self, history):                   # (N, 12, 80, 2)
        sup = (self.fwd, self.bwd)
        h = [torch.zeros_like(history[:, 0, :, :1]).expand(-1, -1, self.hidden)] * 2
        for t in range(self.steps_in):
            x = history[:, t]
            for li, cell in enumerate(self.enc):
                h[li] = cell(x, h[li], sup)
                x = h[li]
        y = torch.zeros_like(history[:, 0, :, :1])
        outs = []
        for _ in range(self.steps_out):
            x = y
            for li, cell in enumerate(self.dec):
                h[li] = cell(x, h[li], sup)
                x = h[li]
            y = self.proj(x)                                                # (N, V, 1)
            outs.append(y)
        return torch.cat(outs, -1).transpose(1, 2)                          # (N, 12, V)


class _KPConv(nn.Module):
    """Rigid kernel point convolution: 15 kernel points (the centre, six
    on the axes and eight on the diagonals, 1.2 sigma from the centre),
    linear influence max(0, 1 - |y - x_k| / sigma), the
    influence-weighted neighbour features of each kernel point through
    one weight matrix per kernel point (a single MatMul)."""

    def __init__(self, cin, cout, sigma):
        super().__init__()
        axes = torch.eye(3)
        diag = torch.tensor([[sx, sy, sz] for sx in (-1.0, 1.0) for sy in (-1.0, 1.0) for sz in (-1.0, 1.0)])
        kp = torch.cat([torch.zeros(1, 3), axes, -axes, diag / math.sqrt(3.0)], 0) * (1.2 * sigma)
        self.register_buffer("kp", kp)                                      # (15, 3)
        self.sigma = sigma
        self.weight = nn.Linear(kp.shape[0] * cin, cout, bias=False)

    def forward(self, q, pts, feats, idx):        # q (N, Q, 3), pts (N, S, 3), feats (N, S, C), idx (N, Q, k)
        y = _group(pts, idx) - q.unsqueeze(2)                               # (N, Q, k, 3)
        diff = y.unsqueeze(3) - self.kp                                     # (N, Q, k, 15, 3)
        infl = F.relu(1.0 - torch.sqrt((diff * diff).sum(-1) + 1e-9) / self.sigma)
        agg = torch.matmul(infl.transpose(2, 3), _group(feats, idx))        # (N, Q, 15, C)
        return self.weight(agg.flatten(2))


class _KPBlock(nn.Module):
    """Bottleneck residual block: Linear to cout / 4, KPConv, Linear up,
    BatchNorm and LeakyReLU; the shortcut of a strided block max-pools
    the neighbours."""

    def __init__(self, cin, cout, sigma, strided=False):
        super().__init__()
        mid = cout // 4
        self.strided = strided
        self.a = nn.Linear(cin, mid)
        self.bn_a = nn.BatchNorm1d(mid)
        self.conv = _KPConv(mid, mid, sigma)
        self.bn_c = nn.BatchNorm1d(mid)
        self.b = nn.Linear(mid, cout)
        self.bn_b = nn.BatchNorm1d(cout)
        self.short = None if cin == cout else nn.Linear(cin, cout)

    @staticmethod
    def _bn(bn, x):
        return bn(x.transpose(1, 2)).transpose(1, 2)

    def forward(self, q, pts, feats, idx):
        x = F.leaky_relu(self._bn(self.bn_a, self.a(feats)), 0.1)
        x = F.leaky_relu(self._bn(self.bn_c, self.conv(q, pts, x, idx)), 0.1)
        x = self._bn(self.bn_b, self.b(x))
        s = _group(feats, idx).amax(2) if self.strided else feats
        if self.short is not None:
            s = self.short(s)
        return F.leaky_relu(x + s, 0.1)


class KPConvCls(nn.Module):
    """KPConv classification on 1024 points: a KPConv from a constant
    feature to 32, blocks 64 (1024 points), strided 128 and 128 (256
    points, every fourth), strided 256 and 256 (64 points), global
    average, Linear 256, 40 classes."""

    def __init__(self, k=16, classes=40):
        super().__init__()
        self.k = k
        self.first = _KPConv(1, 32, 0.3)
        self.bn0 = nn.BatchNorm1d(32)
        self.b1 = _KPBlock(32, 64, 0.3)
        self.s2, self.b2 = _KPBlock(64, 128, 0.6, True), _KPBlock(128, 128, 0.6)
        self.s3, self.b3 = _KPBlock(128, 256, 1.2, True), _KPBlock(256, 256, 1.2)
        self.head = nn.Sequential(nn.Linear(256, 256), nn.BatchNorm1d(256), nn.LeakyReLU(0.1),
                                  nn.Linear(256, classes))

    def forward(self, cloud):                     # (N, 1024, 3)
        p1 = cloud
        n1 = _knn(p1, p1, self.k)
        x = self.first(p1, p1, torch.ones_like(p1[..., :1]), n1)
        x = F.leaky_relu(self.bn0(x.transpose(1, 2)).transpose(1, 2), 0.1)
        x = self.b1(p1, p1, x, n1)
        p2 = p1[:, ::4]
        x = self.s2(p2, p1, x, _knn(p2, p1, self.k))
        n2 = _knn(p2, p2, self.k)
        x = self.b2(p2, p2, x, n2)
        p3 = p2[:, ::4]
        x = self.s3(p3, p2, x, _knn(p3, p2, self.k))
        n3 = _knn(p3, p3, self.k)
        x = self.b3(p3, p3, x, n3)
        return self.head(x.mean(1))


class FiBiNETCtr(nn.Module):
    """FiBiNET: 30 fields, each its own table of 1000 ids, embeddings of
    12; SENET (mean over the embedding, 30 -> 10 -> 30 with ReLU) scales
    the fields; field-each bilinear interaction over all 435 pairs for
    the plain and the scaled embeddings; DNN 256-256-256-1; plus a
    first-order term and a bias.  Returns the click probability."""

    def __init__(self, fields=30, ids=1000, emb=12, hidden=256, reduction=3):
        super().__init__()
        self.fields, self.emb_dim = fields, emb
        self.register_buffer("offset", (torch.arange(fields) * ids).view(1, fields))
        self.emb = nn.Embedding(fields * ids, emb)
        self.first = nn.Embedding(fields * ids, 1)
        self.se = nn.Sequential(nn.Linear(fields, fields // reduction), nn.ReLU(),
                                nn.Linear(fields // reduction, fields), nn.ReLU())
        self.bilinear = nn.Parameter(torch.randn(fields, emb, emb) / math.sqrt(emb))
        pairs = [(i, j) for i in range(fields) for j in range(i + 1, fields)]
        self.register_buffer("left", torch.tensor([p[0] for p in pairs]))
        self.register_buffer("right", torch.tensor([p[1] for p in pairs]))
        self.dnn = nn.Sequential(nn.Linear(2 * len(pairs) * emb, hidden), nn.ReLU(),
                                 nn.Linear(hidden, hidden), nn.ReLU(),
                                 nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, 1))
        self.bias = nn.Parameter(torch.zeros(1))

    def _interact(self, v):                       # (N, F, E)
        vw = torch.matmul(v.unsqueeze(2), self.bilinear).squeeze(2)        # (N, F, E)
        return (vw[:, self.left] * v[:, self.right]).flatten(1)

    def forward(self, sparse):                    # (N, 30) int64
        ids = sparse + self.offset
        v = self.emb(ids)                                                   # (N, F, E)
        a = self.se(v.mean(-1))                                             # (N, F)
        u = v * a.unsqueeze(-1)
        deep = self.dnn(torch.cat([self._interact(v), self._interact(u)], -1))
        wide = self.first(ids).sum(1)
        return torch.sigmoid(deep + wide + self.bias)


BLIND30 = {
    "zhang_suen_thinning": dict(ctor=ZhangSuenThinning, family="zhang-suen-skeleton-thinning",
                                inputs=[("image", ("N", 3, 64, 64), "float32", None)]),
    "prim_mst": dict(ctor=PrimMST, family="prim-minimum-spanning-tree",
                     inputs=[("cloud", ("N", 64, 3), "float32", None)]),
    "gerchberg_saxton": dict(ctor=GerchbergSaxton, family="gerchberg-saxton-phase-retrieval",
                             inputs=[("amplitudes", ("N", 2, 48, 48), "float32", None)]),
    "scnn_lane": dict(ctor=SCNNLane, family="slice-by-slice-spatial-message-passing",
                      inputs=[("image", ("N", 3, 128, 256), "float32", None)]),
    "blazeface_det": dict(ctor=BlazeFaceDet, family="blaze-block-anchor-face-detector",
                          inputs=[("image", ("N", 3, 128, 128), "float32", None)]),
    "osnet_reid": dict(ctor=OSNetReID, family="omni-scale-unified-aggregation-gate",
                       inputs=[("image", ("N", 3, 256, 128), "float32", None)]),
    "fastformer_text": dict(ctor=FastformerText, family="additive-global-query-key-attention",
                            inputs=[("tokens", ("N", 256), "int64", 20000)]),
    "esim_nli": dict(ctor=ESIMNLI, family="enhanced-sequential-inference-alignment",
                     inputs=[("premise", ("N", 64), "int64", 20000),
                             ("hypothesis", ("N", 48), "int64", 20000)]),
    "open_unmix": dict(ctor=OpenUnmix, family="spectrogram-blstm-mask-unmixing",
                       inputs=[("audio", ("N", 2, 16384), "float32", None)]),
    "dcrnn_traffic": dict(ctor=DCRNNTraffic, family="diffusion-conv-recurrent-traffic",
                          inputs=[("history", ("N", 12, 80, 2), "float32", None)]),
    "kpconv_cls": dict(ctor=KPConvCls, family="kernel-point-convolution",
                       inputs=[("cloud", ("N", 1024, 3), "float32", None)]),
    "fibinet_ctr": dict(ctor=FiBiNETCtr, family="squeeze-excitation-bilinear-field-interaction",
                        inputs=[("sparse", ("N", 30), "int64", 1000)]),
}
