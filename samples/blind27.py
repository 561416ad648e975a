r"""BLIND27: the twenty-seventh blind set, written on 2026-12-07 by a helper
session before any of it was measured.  Nothing in it has been timed,
profiled or run through onnxcost predict; it is to be measured first and
scored once only, at the end, with the code as it stands then
(bench/zoo_accuracy.py --set blind27).  None of its twelve families occurs
in another set (ZOO, BLIND, BLIND2 ... BLIND26, the reference models), so
no plan rule, feature, fit or calibration can have been made with any of
them in view.

Three families unroll a classical procedure into a fixed graph of small
kernels (a few hundred nodes), each with a small learned part:

  * Arc-consistency constraint propagation (Mackworth, "Consistency in
    Networks of Relations", 1977) on a sudoku: a small learned Conv reads
    a noisy 10-class grid into digit candidates (a cell confidently read
    as a digit keeps only that digit, an unsure one keeps all nine), then
    20 rounds of propagation in a (band, row, stack, column, digit) layout:
    a digit settled in a cell is struck from every peer in its row, column
    and 3 x 3 box (three ReduceSums and a comparison), and a digit with a
    single remaining place in a row is settled there; an MLP scores the
    final candidate set.
  * Greedy box non-maximum suppression (as set out by Neubeck & Van Gool,
    "Efficient Non-Maximum Suppression", 2006): a small Conv detector on
    128 x 128 images decodes 512 anchor boxes, the 64 best by TopK are
    gathered, their pairwise IoU computed once, and 64 sequential steps
    let each box still kept suppress the later boxes overlapping it by
    more than a half.
  * Triangle rasterization with edge functions (Pineda, "A Parallel
    Algorithm for Polygon Rasterization", 1988) and a depth buffer
    (Catmull, "A Subdivision Algorithm for Computer Display of Curved
    Surfaces", 1974): an MLP decodes a latent code into 32 coloured
    triangles, three edge functions over a 64 x 64 pixel grid give the
    coverage and barycentric weights, the triangles are drawn in order
    with a per-pixel depth test (Less, And, Where), and a small Conv net
    reads the rendered colour and depth.

The other nine are published network designs of ordinary sizes:

  * Autoformer (Wu, Xu, Wang & Long, "Autoformer: Decomposition
    Transformers with Auto-Correlation for Long-Term Series
    Forecasting", 2021): series decomposition by a moving average (edge
    repeats and AvgPool1d) inside every block; the auto-correlation
    mechanism computed with DFT matrices (MatMul) in place of the FFT,
    the 9 strongest delays by TopK and the values rolled by those delays
    (GatherElements on the doubled series) and weighted; two encoder and
    one decoder layer of width 256; 96 steps of 7 series in, 48 out.
  * BigBird (Zaheer, Guruganesh, Dubey, Ainslie, Alberti, Ontanon, Pham,
    Ravula, Wang, Yang & Ahmed, "Big Bird: Transformers for Longer
    Sequences", 2020), the ITC pattern: 512 tokens in blocks of 64, the
    first and last block global, every inner block attending to its three
    neighbours, the two global blocks and one fixed random block, the key
    blocks picked by one Gather per layer; four post-norm layers of width
    256.
  * X3D (Feichtenhofer, "X3D: Expanding Architectures for Efficient Video
    Recognition", 2020), the XS point at reduced depth: a channel-wise
    temporal stem, bottlenecks with 3x3x3 depthwise Conv3d, squeeze-
    excitation in every other block and Swish, a 432-wide 1x1x1 head and
    a 2048-unit classifier; 4 frames of 160 x 160.
  * Graph U-Nets (Gao & Ji, "Graph U-Nets", 2019): GCN layers on 256-node
    graphs with a dense adjacency, three gPool steps (projection scores,
    TopK, GatherElements of the node rows and of the squared adjacency
    rows and columns, sigmoid gating) down to 32 nodes, and gUnpool steps
    that scatter the nodes back into place (ScatterElements) before skip
    additions.
  * PointPillars (Lang, Vora, Caesar, Zhou, Yang & Beijbom, "PointPillars:
    Fast Encoders for Object Detection from Point Clouds", 2019): 1200
    pillars of 20 points decorated with their offsets from the pillar
    mean and centre, a shared Linear + BN + ReLU and a max over points,
    the pillar features scattered into a 96 x 96 pseudo-image by their
    cell index (ScatterElements), a three-block 2D backbone, stride 1, 2
    and 4 ConvTransposes, concatenation and an SSD-style head.
  * DimeNet++ (Gasteiger, Giri, Margraf & Guennemann, "Fast and
    Uncertainty-Aware Directional Message Passing for Non-Equilibrium
    Molecules", 2020): messages on the directed edges of a fully connected
    16-atom molecule, a radial sine basis with a polynomial envelope, an
    angular basis of Legendre polynomials of the bond angle over all
    (k, j, i) triplets held densely, four interaction blocks with the
    down-projected triplet product summed over k, and per-block output
    heads summed.
  * VAN (Guo, Lu, Liu, Cheng & Hu, "Visual Attention Network", 2022), the
    B0 size: large-kernel attention built from a 5x5 depthwise Conv, a 7x7
    depthwise Conv of dilation 3 and a 1x1 Conv multiplied into its input,
    BatchNorm blocks with depthwise-Conv MLPs, overlapping strided patch
    embeddings and a LayerNorm per stage; 224 x 224 images.
  * DIEN (Zhou, Mou, Fan, Pi, Bian, Zhou, Zhu & Gai, "Deep Interest
    Evolution Network for Click-Through Rate Prediction", 2019): item and
    category embeddings of a 30-step behaviour history, a GRU interest
    extractor, target attention scores from an MLP over [h, t, h*t, h-t],
    an attention-update-gate GRU (AUGRU) unrolled step by step, and a
    PReLU MLP over profile, target, final interest and pooled history.
  * SAINT (Somepalli, Goldblum, Schwarzschild, Bruss & Goldstein, "SAINT:
    Improved Neural Networks for Tabular Data via Row Attention and
    Contrastive Pre-Training", 2021): 8 categorical and 24 continuous
    columns embedded as tokens (a per-column MLP for the continuous ones),
    three layers each of column self-attention and of intersample
    attention, in which the rows of the batch attend to one another over
    their flattened token sets (so its cost grows with the square of the
    batch), GEGLU feed-forwards, a head on the CLS token.

To be measured with

    OMP_WAIT_POLICY=PASSIVE /usr/bin/python3 scripts/measure_zoo.py --set blind27 \
        sudoku_arc_consistency box_nms_greedy zbuffer_raster \
        autoformer_forecast bigbird_encoder x3d_xs graph_unet \
        pointpillars_bev dimenet_pp van_b0 dien_ctr saint_tabular \
        --threads 1 2 --batches 1 4 16

Same table form as export.py's ZOO (ctor, family, inputs); exported by
scripts/ort_graphs.py's export() (opset 13, symbolic batch N).  The file was
written by a helper before anything measured or predicted it.
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def _mlp(cin, hidden, cout, act=nn.ReLU):
    """Linear, activation, Linear."""
    return nn.Sequential(nn.Linear(cin, hidden), act(), nn.Linear(hidden, cout))


def _cbr(cin, cout, k=3, stride=1, groups=1, dilation=1):
    """Conv2d without bias, BatchNorm, ReLU ('same' padding for odd k)."""
    pad = dilation * (k // 2)
    return nn.Sequential(nn.Conv2d(cin, cout, k, stride, pad, dilation, groups, bias=False),
                         nn.BatchNorm2d(cout), nn.ReLU())


# --------------------------------------------------------------------------
# Unrolled classical procedures with a small learned part
# --------------------------------------------------------------------------

class SudokuArcConsistency(nn.Module):
    """Sudoku candidate propagation.  The (N, 10, 9, 9) input holds class
    scores per cell (class 0: empty); a 3x3 Conv and a 1x1 Conv refine them
    residually.  A cell whose empty probability is under a half keeps only
    its most likely digit, any other keeps all nine.  The candidates live
    as (N, band, row, stack, column, digit).  Each round: cells with one
    candidate are settled; a candidate is struck when the same digit is
    settled elsewhere in its row, column or box; then in each row a digit
    left with exactly one place is settled there.  Returns the candidates
    and a score from an MLP over them and two summary counts."""

    def __init__(self, rounds=20, width=32):
        super().__init__()
        self.rounds = rounds
        self.c1 = nn.Conv2d(10, width, 3, 1, 1)
        self.c2 = nn.Conv2d(width, 10, 1)
        self.score = _mlp(729 + 2, 64, 1)

    def forward(self, grid):                      # (N, 10, 9, 9)
        p = torch.softmax(grid + self.c2(F.relu(self.c1(grid))), 1)
        digits = p[:, 1:].permute(0, 2, 3, 1)                               # (N, r, c, d)
        best = (digits == digits.amax(-1, keepdim=True)).float()
        given = (p[:, 0] < 0.5).unsqueeze(-1)
        cand = torch.where(given, best, torch.ones_like(best)).reshape(-1, 3, 3, 3, 3, 9)
        for _ in range(self.rounds):
            fixed = cand * (cand.sum(-1, keepdim=True) == 1.0).float()
            peers = fixed.sum((3, 4), keepdim=True) + fixed.sum((1, 2), keepdim=True) \
                + fixed.sum((2, 4), keepdim=True) - 3.0 * fixed
            cand = cand * (peers < 0.5).float()
            once = cand * (cand.sum((3, 4), keepdim=True) == 1.0).float()
            cand = torch.where(once.sum(-1, keepdim=True) > 0.5, once, cand)
        count = cand.sum(-1)
        solved = (count == 1.0).float().mean((1, 2, 3, 4)).unsqueeze(1)
        broken = (count == 0.0).float().mean((1, 2, 3, 4)).unsqueeze(1)
        flat = cand.reshape(-1, 729)
        return cand.reshape(-1, 9, 9, 9), self.score(torch.cat([flat, solved, broken], 1))


class BoxNMSGreedy(nn.Module):
    """A small anchor detector on 128 x 128 images (three stride-2 Convs
    to a 16 x 16 grid, two anchors per cell, offsets, log sizes and a
    score from a 1x1 Conv), the top 64 of the 512 boxes by TopK gathered,
    the 64 x 64 IoU matrix, and greedy suppression: box i, if kept, drops
    every later box j with IoU(i, j) > 0.5, for i = 0 ... 63 in score
    order.  Returns the kept boxes, their scores and the count kept."""

    def __init__(self, top=64, thresh=0.5):
        super().__init__()
        self.top, self.thresh = top, thresh
        self.body = nn.Sequential(_cbr(3, 16, 3, 2), _cbr(16, 32, 3, 2), _cbr(32, 64, 3, 2),
                                  _cbr(64, 64, 3, 1))
        self.head = nn.Conv2d(64, 2 * 5, 1)
        g = torch.arange(16, dtype=torch.float32)
        gy, gx = torch.meshgrid(g, g, indexing="ij")
        cells = torch.stack([gx, gy], -1).reshape(1, 256, 1, 2)
        self.register_buffer("cells", cells.expand(1, 256, 2, 2).reshape(1, 512, 2) * 8.0)
        self.register_buffer("anchor", torch.tensor([[16.0, 16.0], [32.0, 24.0]]).repeat(256, 1)
                             .view(1, 512, 2))
        self.register_buffer("later", torch.triu(torch.ones(top, top), 1))

    def forward(self, image):                     # (N, 3, 128, 128)
        t = self.head(self.body(image))                                     # (N, 10, 16, 16)
        t = t.reshape(-1, 2, 5, 256).permute(0, 3, 1, 2).reshape(-1, 512, 5)
        ctr = self.cells + 8.0 * torch.sigmoid(t[..., 0:2])
        size = self.anchor * torch.exp(t[..., 2:4].clamp(-3.0, 3.0))
        boxes = torch.cat([ctr - 0.5 * size, ctr + 0.5 * size], -1)
        score, idx = torch.topk(torch.sigmoid(t[..., 4]), self.top, 1)
        b = torch.gather(boxes, 1, idx.unsqueeze(-1).expand(-1, -1, 4))
        lo = torch.maximum(b[:, :, None, 0:2], b[:, None, :, 0:2])
        hi = torch.minimum(b[:, :, None, 2:4], b[:, None, :, 2:4])
        wh = (hi - lo).clamp(min=0.0)
        inter = wh[..., 0] * wh[..., 1]
        area = (b[..., 2] - b[..., 0]) * (b[..., 3] - b[..., 1])
        iou = inter / (area.unsqueeze(2) + area.unsqueeze(1) - inter + 1e-6)
        over = (iou > self.thresh).float() * self.later
        keep = torch.ones_like(score)
        for i in range(self.top):
            keep = keep * (1.0 - keep[:, i:i + 1] * over[:, i])
        return b * keep.unsqueeze(-1), score * keep, keep.sum(1)


class ZBufferRaster(nn.Module):
    """Rasterizes 32 triangles decoded by an MLP from a 32-d latent code
    (vertex x, y in [-1, 1], depth in (0.1, 1.1), a colour per vertex) on
    a 64 x 64 grid.  Edge functions w0, w1, w2 of every pixel against every
    triangle; inside when all three share the sign of the signed area;
    barycentric depth and colour.  The depth test runs triangle by
    triangle in order.  A three-Conv net reads colour and depth."""

    def __init__(self, latent=32, tris=32, side=64, classes=10):
        super().__init__()
        self.tris = tris
        self.dec = _mlp(latent, 256, tris * 18)
        c = (torch.arange(side, dtype=torch.float32) + 0.5) / side * 2.0 - 1.0
        gy, gx = torch.meshgrid(c, c, indexing="ij")
        self.register_buffer("px", gx.reshape(1, 1, -1))
        self.register_buffer("py", gy.reshape(1, 1, -1))
        self.side = side
        self.read = nn.Sequential(nn.Conv2d(4, 16, 3, 2, 1), nn.ReLU(), nn.Conv2d(16, 32, 3, 2, 1),
                                  nn.ReLU(), nn.Conv2d(32, 64, 3, 2, 1), nn.ReLU())
        self.fc = nn.Linear(64, classes)

    def forward(self, code):                      # (N, 32)
        t = self.dec(code).reshape(-1, self.tris, 18)
        xy = torch.tanh(t[..., 0:6]).reshape(-1, self.tris, 3, 2)
        z = torch.sigmoid(t[..., 6:9]) + 0.1                                 # (N, T, 3)
        col = torch.sigmoid(t[..., 9:18]).reshape(-1, self.tris, 3, 3)      # vertex, rgb

        def edge(a, b):
            ax, ay = xy[:, :, a, 0:1], xy[:, :, a, 1:2]
            bx, by = xy[:, :, b, 0:1], xy[:, :, b, 1:2]
            return (self.px - ax) * (by - ay) - (self.py - ay) * (bx - ax)  # (N, T, P)

        w0, w1, w2 = edge(1, 2), edge(2, 0), edge(0, 1)
        area = w0 + w1 + w2
        sgn = torch.where(area >= 0.0, torch.ones_like(area), -torch.ones_like(area))
        inside = (torch.minimum(torch.minimum(w0 * sgn, w1 * sgn), w2 * sgn) >= 0.0) \
            & (area.abs() > 1e-6)
        inv = 1.0 / (area + sgn * 1e-6)
        b0, b1, b2 = w0 * inv, w1 * inv, w2 * inv
        depth = b0 * z[:, :, 0:1] + b1 * z[:, :, 1:2] + b2 * z[:, :, 2:3]
        rgb = b0.unsqueeze(2) * col[:, :, 0].unsqueeze(-1) + b1.unsqueeze(2) * col[:, :, 1].unsqueeze(-1) \
            + b2.unsqueeze(2) * col[:, :, 2].unsqueeze(-1)                 # (N, T, 3, P)
        zbuf = torch.full_like(depth[:, 0], 10.0)
        img = torch.zeros_like(rgb[:, 0])
        for i in range(self.tris):
            hit = inside[:, i] & (depth[:, i] < zbuf)
            zbuf = torch.where(hit, depth[:, i], zbuf)
            img = torch.where(hit.unsqueeze(1), rgb[:, i], img)
        s = self.side
        pic = torch.cat([img, zbuf.unsqueeze(1)], 1).reshape(-1, 4, s, s)
        return pic, self.fc(self.read(pic).mean((2, 3)))


# --------------------------------------------------------------------------
# Published network designs
# --------------------------------------------------------------------------

class _Decomp(nn.Module):
    """Series decomposition: the trend is a moving average of width k over
    the series padded by repeating its end values; returns (seasonal,
    trend) for an (N, L, C) series."""

    def __init__(self, k=25):
        super().__init__()
        self.half = (k - 1) // 2
        self.pool = nn.AvgPool1d(k, 1)

    def forward(self, x):
        h = self.half
        xp = torch.cat([x[:, :1].repeat(1, h, 1), x, x[:, -1:].repeat(1, h, 1)], 1)
        trend = self.pool(xp.transpose(1, 2)).transpose(1, 2)
        return x - trend, trend


class _AutoCorrelation(nn.Module):
    """Auto-correlation with time-delay aggregation (inference form): the
    circular cross-correlation of queries and keys through DFT matrices,
    averaged over channels; the top-k delays and a softmax of their
    correlations weight the values rolled by each delay."""

    def __init__(self, dim, length, factor=2):
        super().__init__()
        self.q, self.k, self.v = nn.Linear(dim, dim), nn.Linear(dim, dim), nn.Linear(dim, dim)
        self.out = nn.Linear(dim, dim)
        self.length = length
        self.top = int(factor * math.log(length))
        n = torch.arange(length, dtype=torch.float32)
        ang = 2.0 * math.pi * torch.outer(n, n) / length
        self.register_buffer("cos", torch.cos(ang))
        self.register_buffer("sin", torch.sin(ang))
        self.register_buffer("steps", torch.arange(length).view(1, -1, 1))

    def forward(self, x, mem):                    # (N, L, D), (N, L, D)
        q = self.q(x).transpose(1, 2)
        k = self.k(mem).transpose(1, 2)
        v = self.v(mem)
        qr, qi = torch.matmul(q, self.cos), -torch.matmul(q, self.sin)
        kr, ki = torch.matmul(k, self.cos), -torch.matmul(k, self.sin)
        pr = qr * kr + qi * ki
        pi = qi * kr - qr * ki
        corr = (torch.matmul(pr, self.cos) - torch.matmul(pi, self.sin)) / self.length
        mean = corr.mean(1)                                                 # (N, L)
        w, delay = torch.topk(mean, self.top, -1)
        w = torch.softmax(w, -1)
        vv = torch.cat([v, v], 1)
        agg = torch.zeros_like(v)
        for i in range(self.top):
            idx = (self.steps + delay[:, i].view(-1, 1, 1)).expand(-1, -1, v.shape[2])
            agg = agg + torch.gather(vv, 1, idx) * w[:, i].view(-1, 1, 1)
        return self.out(agg)


class _SeasonalNorm(nn.Module):
    """LayerNorm, then the mean over time subtracted."""

    def __init__(self, dim):
        super().__init__()
        self.norm = nn.LayerNorm(dim)

    def forward(self, x):
        y = self.norm(x)
        return y - y.mean(1, keepdim=True)


def _circular_conv(conv, x):
    """Conv1d of kernel 3 with circular padding along time; x is (N, L, C)."""
    xt = x.transpose(1, 2)
    xt = torch.cat([xt[:, :, -1:], xt, xt[:, :, :1]], 2)
    return conv(xt).transpose(1, 2)


class _AutoEncLayer(nn.Module):
    def __init__(self, dim, ff, length):
        super().__init__()
        self.attn = _AutoCorrelation(dim, length)
        self.ff = nn.Sequential(nn.Linear(dim, ff, bias=False), nn.GELU(), nn.Linear(ff, dim, bias=False))
        self.d1, self.d2 = _Decomp(), _Decomp()

    def forward(self, x):
        x, _ = self.d1(x + self.attn(x, x))
        x, _ = self.d2(x + self.ff(x))
        return x


class _AutoDecLayer(nn.Module):
    def __init__(self, dim, ff, length, cout):
        super().__init__()
        self.self_attn = _AutoCorrelation(dim, length)
        self.cross = _AutoCorrelation(dim, length)
        self.ff = nn.Sequential(nn.Linear(dim, ff, bias=False), nn.GELU(), nn.Linear(ff, dim, bias=False))
        self.d1, self.d2, self.d3 = _Decomp(), _Decomp(), _Decomp()
        self.trend = nn.Conv1d(dim, cout, 3, bias=False)

    def forward(self, x, mem):
        x, t1 = self.d1(x + self.self_attn(x, x))
        x, t2 = self.d2(x + self.cross(x, mem))
        x, t3 = self.d3(x + self.ff(x))
        return x, _circular_conv(self.trend, t1 + t2 + t3)


class AutoformerForecast(nn.Module):
    """Autoformer: 96 steps of 7 series; token embedding by a circular
    Conv1d of kernel 3 to width 256; two encoder layers (FFN 512) and one
    decoder layer over a 96-step decoder input (the last 48 seasonal steps
    and 48 zeros; the trend likewise with the series mean), seasonal
    projection plus accumulated trend; the last 48 steps returned."""

    def __init__(self, series=7, dim=256, ff=512, length=96, pred=48, enc_layers=2):
        super().__init__()
        self.pred, self.label = pred, length - pred
        self.decomp = _Decomp()
        self.enc_emb = nn.Conv1d(series, dim, 3, bias=False)
        self.dec_emb = nn.Conv1d(series, dim, 3, bias=False)
        self.enc = nn.ModuleList([_AutoEncLayer(dim, ff, length) for _ in range(enc_layers)])
        self.enc_norm = _SeasonalNorm(dim)
        self.dec = _AutoDecLayer(dim, ff, length, series)
        self.dec_norm = _SeasonalNorm(dim)
        self.proj = nn.Linear(dim, series)

    def forward(self, series):                    # (N, 96, 7)
        mean = series.mean(1, keepdim=True).repeat(1, self.pred, 1)
        seas, trend = self.decomp(series)
        trend0 = torch.cat([trend[:, -self.label:], mean], 1)
        seas0 = torch.cat([seas[:, -self.label:], torch.zeros_like(mean)], 1)
        x = _circular_conv(self.enc_emb, series)
        for layer in self.enc:
            x = layer(x)
        mem = self.enc_norm(x)
        y, t = self.dec(_circular_conv(self.dec_emb, seas0), mem)
        out = self.proj(self.dec_norm(y)) + trend0 + t
        return out[:, -self.pred:]


class _BlockSparseAttention(nn.Module):
    """BigBird ITC attention for `blocks` blocks of `bs` tokens: global
    first and last blocks attend to all keys; inner block b attends to key
    blocks [0, b-1, b, b+1, last, r_b] (r_b fixed at random, slots that
    repeat a global block masked out)."""

    def __init__(self, dim, heads, blocks, bs, seed):
        super().__init__()
        self.h, self.hd, self.nb, self.bs = heads, dim // heads, blocks, bs
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, dim)
        g = torch.Generator().manual_seed(seed)
        idx, mask = [], []
        last = blocks - 1
        for b in range(1, last):
            near = [0, b - 1, b, b + 1, last]
            pool = [r for r in range(blocks) if r not in near]
            r = pool[int(torch.randint(len(pool), (1,), generator=g))]
            idx += near + [r]
            m = [0.0] * 6
            if b - 1 == 0:
                m[1] = -1e4
            if b + 1 == last:
                m[3] = -1e4
            mask.append(torch.tensor(m).repeat_interleave(bs))
        self.register_buffer("idx", torch.tensor(idx, dtype=torch.long))
        self.register_buffer("mask", torch.stack(mask).view(1, 1, blocks - 2, 1, 6 * bs))

    def forward(self, x):                         # (N, L, D)
        n, h, hd, nb, bs = x.shape[1], self.h, self.hd, self.nb, self.bs
        q, k, v = self.qkv(x).view(-1, n, 3, h, hd).permute(2, 0, 3, 1, 4).unbind(0)
        scale = 1.0 / math.sqrt(hd)
        qg = torch.cat([q[:, :, :bs], q[:, :, -bs:]], 2)
        ag = torch.softmax(torch.matmul(qg, k.transpose(-1, -2)) * scale, -1)
        og = torch.matmul(ag, v)                                            # (N, h, 2 bs, hd)
        inner = nb - 2
        qm = q[:, :, bs:-bs].reshape(-1, h, inner, bs, hd)
        kb = torch.index_select(k.reshape(-1, h, nb, bs, hd), 2, self.idx).reshape(-1, h, inner, 6 * bs, hd)
        vb = torch.index_select(v.reshape(-1, h, nb, bs, hd), 2, self.idx).reshape(-1, h, inner, 6 * bs, hd)
        am = torch.softmax(torch.matmul(qm, kb.transpose(-1, -2)) * scale + self.mask, -1)
        om = torch.matmul(am, vb).reshape(-1, h, inner * bs, hd)
        o = torch.cat([og[:, :, :bs], om, og[:, :, bs:]], 2)
        return self.out(o.transpose(1, 2).reshape(-1, n, h * hd))


class _BigBirdLayer(nn.Module):
    def __init__(self, dim, heads, blocks, bs, seed):
        super().__init__()
        self.attn = _BlockSparseAttention(dim, heads, blocks, bs, seed)
        self.n1, self.n2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.ff = _mlp(dim, 4 * dim, dim, nn.GELU)

    def forward(self, x):
        x = self.n1(x + self.attn(x))
        return self.n2(x + self.ff(x))


class BigBirdEncoder(nn.Module):
    """BigBird encoder: 8000 x 256 word and 512 x 256 position embeddings,
    LayerNorm, four layers of 4 heads (FFN 1024) with block-sparse
    attention (blocks of 64), a pooler on the first token, 2 classes."""

    def __init__(self, vocab=8000, dim=256, heads=4, depth=4, length=512, bs=64, classes=2):
        super().__init__()
        self.words = nn.Embedding(vocab, dim)
        self.pos = nn.Parameter(torch.randn(1, length, dim) * 0.02)
        self.norm = nn.LayerNorm(dim)
        self.layers = nn.ModuleList([_BigBirdLayer(dim, heads, length // bs, bs, 100 + i)
                                     for i in range(depth)])
        self.pool = nn.Linear(dim, dim)
        self.fc = nn.Linear(dim, classes)

    def forward(self, tokens):                    # (N, 512) int64
        x = self.norm(self.words(tokens) + self.pos)
        for layer in self.layers:
            x = layer(x)
        return self.fc(torch.tanh(self.pool(x[:, 0])))


class _SE3d(nn.Module):
    def __init__(self, c, r=0.0625):
        super().__init__()
        mid = max(8, int(round(c * r)))
        self.a, self.b = nn.Conv3d(c, mid, 1), nn.Conv3d(mid, c, 1)

    def forward(self, x):
        s = x.mean((2, 3, 4), keepdim=True)
        return x * torch.sigmoid(self.b(F.relu(self.a(s))))


class _X3DBlock(nn.Module):
    """1x1x1 Conv, BN, ReLU; 3x3x3 depthwise Conv (spatial stride), BN,
    optional SE, Swish; 1x1x1 Conv, BN; residual with a projection when
    the shape changes."""

    def __init__(self, cin, inner, cout, stride, se):
        super().__init__()
        self.a = nn.Sequential(nn.Conv3d(cin, inner, 1, bias=False), nn.BatchNorm3d(inner), nn.ReLU())
        self.b = nn.Sequential(nn.Conv3d(inner, inner, 3, (1, stride, stride), 1, groups=inner,
                                         bias=False), nn.BatchNorm3d(inner))
        self.se = _SE3d(inner) if se else None
        self.c = nn.Sequential(nn.Conv3d(inner, cout, 1, bias=False), nn.BatchNorm3d(cout))
        self.proj = None
        if stride != 1 or cin != cout:
            self.proj = nn.Sequential(nn.Conv3d(cin, cout, 1, (1, stride, stride), bias=False),
                                      nn.BatchNorm3d(cout))

    def forward(self, x):
        y = self.b(self.a(x))
        if self.se is not None:
            y = self.se(y)
        y = self.c(F.silu(y))
        s = x if self.proj is None else self.proj(x)
        return F.relu(y + s)


class X3DXS(nn.Module):
    """X3D-XS at depths (1, 2, 5, 3): stem Conv (1x3x3, stride 2) to 24
    and a 5x1x1 channel-wise Conv; stages of widths 24, 48, 96, 192 with
    inner width 2.25x, each starting with spatial stride 2; a 1x1x1 Conv
    to 432, global pooling, Linear 2048, ReLU, Linear 400."""

    def __init__(self, widths=(24, 48, 96, 192), depths=(1, 2, 5, 3), classes=400):
        super().__init__()
        c0 = widths[0]
        self.stem = nn.Sequential(nn.Conv3d(3, c0, (1, 3, 3), (1, 2, 2), (0, 1, 1), bias=False),
                                  nn.Conv3d(c0, c0, (5, 1, 1), 1, (2, 0, 0), groups=c0, bias=False),
                                  nn.BatchNorm3d(c0), nn.ReLU())
        blocks, cin = [], c0
        for w, d in zip(widths, depths):
            for i in range(d):
                blocks.append(_X3DBlock(cin, int(2.25 * w), w, 2 if i == 0 else 1, i % 2 == 0))
                cin = w
        self.blocks = nn.Sequential(*blocks)
        self.head = nn.Sequential(nn.Conv3d(cin, 432, 1, bias=False), nn.BatchNorm3d(432), nn.ReLU())
        self.fc = nn.Sequential(nn.Linear(432, 2048), nn.ReLU(), nn.Linear(2048, classes))

    def forward(self, clip):                      # (N, 3, 4, 160, 160)
        x = self.head(self.blocks(self.stem(clip)))
        return self.fc(x.mean((2, 3, 4)))


class _GCN(nn.Module):
    """relu(D^-1/2 A D^-1/2 X W) for a dense (N, n, n) adjacency A."""

    def __init__(self, cin, cout, act=True):
        super().__init__()
        self.lin = nn.Linear(cin, cout)
        self.act = act

    def forward(self, x, a):
        d = torch.rsqrt(a.sum(-1).clamp(min=1.0))
        y = d.unsqueeze(-1) * torch.matmul(a, d.unsqueeze(-1) * self.lin(x))
        return F.relu(y) if self.act else y


class _GPool(nn.Module):
    """gPool: scores X p / |p|, TopK k nodes, their rows gated by sigmoid
    scores; the pooled adjacency is (A A > 0) restricted to the kept nodes
    (two GatherElements) plus self loops."""

    def __init__(self, dim, k):
        super().__init__()
        self.p = nn.Parameter(torch.randn(dim) / math.sqrt(dim))
        self.k = k
        self.register_buffer("eye", torch.eye(k))

    def forward(self, x, a):
        y = torch.matmul(x, self.p) / self.p.norm()
        s, idx = torch.topk(y, self.k, -1)
        xs = torch.gather(x, 1, idx.unsqueeze(-1).expand(-1, -1, x.shape[2])) * torch.sigmoid(s).unsqueeze(-1)
        a2 = (torch.matmul(a, a) > 0.0).float()
        rows = torch.gather(a2, 1, idx.unsqueeze(-1).expand(-1, -1, a.shape[2]))
        sub = torch.gather(rows, 2, idx.unsqueeze(1).expand(-1, self.k, -1))
        return xs, torch.clamp(sub + self.eye, max=1.0), idx


class GraphUNet(nn.Module):
    """Graph U-Net on 256-node graphs of 64 features: the adjacency is the
    symmetrised (input > 1.5) pattern plus self loops; GCN to 128, then
    three (gPool, GCN) levels keeping 128, 64, 32 nodes, a bottom GCN, and
    three (gUnpool by ScatterElements into zeros, skip add, GCN) levels;
    per-node 8-way logits and a graph-level 4-way readout."""

    def __init__(self, nodes=256, feats=64, dim=128, classes=8, graph_classes=4):
        super().__init__()
        ks = (nodes // 2, nodes // 4, nodes // 8)
        self.inp = _GCN(feats, dim)
        self.pools = nn.ModuleList([_GPool(dim, k) for k in ks])
        self.down = nn.ModuleList([_GCN(dim, dim) for _ in ks])
        self.bottom = _GCN(dim, dim)
        self.up = nn.ModuleList([_GCN(dim, dim) for _ in ks])
        self.out = _GCN(2 * dim, classes, act=False)
        self.graph = _mlp(4 * dim, dim, graph_classes)
        self.register_buffer("eye", torch.eye(nodes))

    def forward(self, feats, adj):                # (N, 256, 64), (N, 256, 256)
        e = (adj > 1.5).float()
        a = torch.clamp(torch.maximum(e, e.transpose(1, 2)) + self.eye, max=1.0)
        x = self.inp(feats, a)
        first, top = x, a
        stack = []
        for pool, gcn in zip(self.pools, self.down):
            skip, skip_a = x, a
            x, a, idx = pool(x, a)
            x = gcn(x, a)
            stack.append((skip, skip_a, idx))
        x = self.bottom(x, a)
        for gcn, (skip, skip_a, idx) in zip(self.up, reversed(stack)):
            full = torch.zeros_like(skip).scatter(1, idx.unsqueeze(-1).expand(-1, -1, x.shape[2]), x)
            x = gcn(full + skip, skip_a)
        h = torch.cat([x, first], -1)
        return self.out(h, top), self.graph(torch.cat([h.mean(1), h.amax(1)], -1))


class PointPillarsBEV(nn.Module):
    """PointPillars on a 96 x 96 grid: points (x, y, z, r) of 1200 pillars
    x 20, decorated with offsets from the pillar mean (3) and from the
    pillar centre (2) to 9 features, a 1x1 Conv + BN + ReLU to 64 and a max
    over the points; the pillars scattered to their cell index; backbone
    blocks (stride 2 then 3, 5, 5 Convs) of 64, 128, 256 channels at 48,
    24, 12; ConvTranspose of stride 1, 2, 4 to 128 each; heads for 2
    anchors: 3 class scores, 7 box terms, 2 direction bins."""

    def __init__(self, side=96, cell=0.5, width=64):
        super().__init__()
        self.side, self.cell, self.width = side, cell, width
        self.pfn = nn.Sequential(nn.Conv2d(9, width, 1, bias=False), nn.BatchNorm2d(width), nn.ReLU())
        self.register_buffer("blank", torch.zeros(1, 1, side * side))

        def block(cin, cout, n):
            mods = [_cbr(cin, cout, 3, 2)] + [_cbr(cout, cout, 3, 1) for _ in range(n)]
            return nn.Sequential(*mods)

        self.b1, self.b2, self.b3 = block(width, 64, 3), block(64, 128, 5), block(128, 256, 5)

        def up(cin, s):
            return nn.Sequential(nn.ConvTranspose2d(cin, 128, s, s, bias=False), nn.BatchNorm2d(128), nn.ReLU())

        self.u1, self.u2, self.u3 = up(64, 1), up(128, 2), up(256, 4)
        self.cls = nn.Conv2d(384, 2 * 3, 1)
        self.box = nn.Conv2d(384, 2 * 7, 1)
        self.dir = nn.Conv2d(384, 2 * 2, 1)

    def forward(self, points, cells):             # (N, 1200, 20, 4), (N, 1200) int64
        s = self.side
        xyz = points[..., :3]
        mean = xyz.mean(2, keepdim=True)
        cf = cells.float()
        cy = torch.floor(cf / s)
        cx = cf - cy * s
        centre = torch.stack([cx, cy], -1).unsqueeze(2) * self.cell + 0.5 * self.cell
        feat = torch.cat([points, xyz - mean, points[..., :2] - centre], -1)   # (N, P, K, 9)
        pf = self.pfn(feat.permute(0, 3, 1, 2)).amax(-1)                       # (N, C, P)
        canvas = pf[:, :, :1] * self.blank                                  # zeros (N, C, S S)
        canvas = canvas.scatter(2, cells.unsqueeze(1).expand(-1, self.width, -1), pf)
        x = canvas.reshape(-1, self.width, s, s)
        x1 = self.b1(x)
        x2 = self.b2(x1)
        x3 = self.b3(x2)
        f = torch.cat([self.u1(x1), self.u2(x2), self.u3(x3)], 1)
        return self.cls(f), self.box(f), self.dir(f)


class _Interaction(nn.Module):
    """DimeNet++ interaction block on dense (N, A, A, H) messages m[j, i]."""

    def __init__(self, hidden, int_emb, basis, radial, angular):
        super().__init__()
        self.ji, self.kj = nn.Linear(hidden, hidden), nn.Linear(hidden, hidden)
        self.rbf = nn.Sequential(nn.Linear(radial, basis, bias=False), nn.Linear(basis, hidden, bias=False))
        self.sbf = nn.Sequential(nn.Linear(radial * angular, basis, bias=False),
                                 nn.Linear(basis, int_emb, bias=False))
        self.down = nn.Linear(hidden, int_emb, bias=False)
        self.up = nn.Linear(int_emb, hidden, bias=False)
        self.before = nn.Sequential(nn.Linear(hidden, hidden), nn.SiLU(), nn.Linear(hidden, hidden), nn.SiLU())
        self.mid = nn.Linear(hidden, hidden)
        self.after = nn.ModuleList([nn.Sequential(nn.Linear(hidden, hidden), nn.SiLU(),
                                                  nn.Linear(hidden, hidden), nn.SiLU()) for _ in range(2)])

    def forward(self, m, rbf, sbf, tmask):
        x_ji = F.silu(self.ji(m))
        x_kj = F.silu(self.down(F.silu(self.kj(m)) * self.rbf(rbf)))        # (N, k, j, E)
        t = (x_kj.unsqueeze(3) * self.sbf(sbf) * tmask).sum(1)             # (N, j, i, E)
        h = x_ji + F.silu(self.up(t))
        h = h + self.before(h)
        h = F.silu(self.mid(h)) + m
        for layer in self.after:
            h = h + layer(h)
        return h


class _OutBlock(nn.Module):
    def __init__(self, hidden, out_emb, radial):
        super().__init__()
        self.rbf = nn.Linear(radial, hidden, bias=False)
        self.up = nn.Linear(hidden, out_emb, bias=False)
        self.mlp = nn.Sequential(nn.Linear(out_emb, out_emb), nn.SiLU(), nn.Linear(out_emb, out_emb), nn.SiLU(),
                                 nn.Linear(out_emb, out_emb), nn.SiLU(), nn.Linear(out_emb, 1, bias=False))

    def forward(self, m, rbf, emask):
        atoms = (self.rbf(rbf) * m * emask).sum(1)                          # (N, i, H)
        return self.mlp(self.up(atoms)).sum((1, 2))


class DimeNetPP(nn.Module):
    """DimeNet++ on 16 atoms (types < 10, positions): radial basis of 6
    sines sin(n pi d / c) / d with the p = 6 envelope, cutoff 5; angular
    basis of 7 Legendre polynomials of cos(angle k-j-i) times the radial
    basis of d_kj (42 terms); hidden 128, triplet embedding 64, basis
    embedding 8, output embedding 256; four interaction blocks."""

    def __init__(self, atoms=16, types=10, hidden=128, int_emb=64, basis=8, out_emb=256,
                 radial=6, angular=7, blocks=4, cutoff=5.0):
        super().__init__()
        self.cutoff, self.angular = cutoff, angular
        self.emb = nn.Embedding(types, hidden)
        self.rbf_emb = nn.Linear(radial, hidden)
        self.edge = nn.Linear(3 * hidden, hidden)
        self.register_buffer("freq", torch.arange(1, radial + 1, dtype=torch.float32) * math.pi)
        eye = torch.eye(atoms)
        emask = (1.0 - eye).view(1, atoms, atoms, 1)
        self.register_buffer("emask", emask)
        kj = (1.0 - eye).view(atoms, atoms, 1)
        ji = (1.0 - eye).view(1, atoms, atoms)
        ki = (1.0 - eye).view(atoms, 1, atoms)
        self.register_buffer("tmask", (kj * ji * ki).view(1, atoms, atoms, atoms, 1))
        self.blocks = nn.ModuleList([_Interaction(hidden, int_emb, basis, radial, angular)
                                     for _ in range(blocks)])
        self.outs = nn.ModuleList([_OutBlock(hidden, out_emb, radial) for _ in range(blocks + 1)])

    def _radial(self, d):
        x = d / self.cutoff
        env = 1.0 - 28.0 * x ** 6 + 48.0 * x ** 7 - 21.0 * x ** 8
        env = torch.where(x < 1.0, env, torch.zeros_like(env))
        d = d.unsqueeze(-1)
        return math.sqrt(2.0 / self.cutoff) * torch.sin(self.freq * d / self.cutoff) / d * env.unsqueeze(-1)

    def forward(self, types, pos):                # (N, 16) int64, (N, 16, 3)
        a = pos.shape[1]
        vec = pos.unsqueeze(1) - pos.unsqueeze(2)                           # [j, i] = pos_i - pos_j
        dist = torch.sqrt((vec * vec).sum(-1) + 1e-6)                       # (N, j, i)
        rbf = self._radial(dist)                                            # (N, j, i, R)
        u = vec / dist.unsqueeze(-1)
        # angle at j between j->i and j->k (u[j, k])
        cos = (u.unsqueeze(1) * u.transpose(1, 2).unsqueeze(3)).sum(-1)     # (N, k, j, i)
        cos = cos.clamp(-1.0, 1.0)
        legendre = [torch.ones_like(cos), cos]
        for n in range(1, self.angular - 1):
            legendre.append(((2 * n + 1) * cos * legendre[n] - n * legendre[n - 1]) / (n + 1))
        leg = torch.stack(legendre, -1)                                     # (N, k, j, i, L)
        sbf = (leg.unsqueeze(-1) * rbf.unsqueeze(3).unsqueeze(4)).flatten(4)  # (N, k, j, i, L R)
        h = self.emb(types)
        hj = h.unsqueeze(2).expand(-1, -1, a, -1)
        hi = h.unsqueeze(1).expand(-1, a, -1, -1)
        m = F.silu(self.edge(torch.cat([hj, hi, F.silu(self.rbf_emb(rbf))], -1)))
        energy = self.outs[0](m, rbf, self.emask)
        for block, out in zip(self.blocks, self.outs[1:]):
            m = block(m, rbf, sbf, self.tmask)
            energy = energy + out(m, rbf, self.emask)
        return energy


class _LKA(nn.Module):
    """Large-kernel attention: depthwise 5x5, depthwise 7x7 of dilation 3,
    1x1; the result multiplies the input."""

    def __init__(self, c):
        super().__init__()
        self.dw = nn.Conv2d(c, c, 5, 1, 2, groups=c)
        self.dwd = nn.Conv2d(c, c, 7, 1, 9, 3, groups=c)
        self.pw = nn.Conv2d(c, c, 1)

    def forward(self, x):
        return x * self.pw(self.dwd(self.dw(x)))


class _VANBlock(nn.Module):
    def __init__(self, c, ratio):
        super().__init__()
        self.n1, self.n2 = nn.BatchNorm2d(c), nn.BatchNorm2d(c)
        self.p1, self.lka, self.p2 = nn.Conv2d(c, c, 1), _LKA(c), nn.Conv2d(c, c, 1)
        hid = c * ratio
        self.mlp = nn.Sequential(nn.Conv2d(c, hid, 1), nn.Conv2d(hid, hid, 3, 1, 1, groups=hid), nn.GELU(),
                                 nn.Conv2d(hid, c, 1))
        self.g1 = nn.Parameter(torch.full((1, c, 1, 1), 1e-2))
        self.g2 = nn.Parameter(torch.full((1, c, 1, 1), 1e-2))

    def forward(self, x):
        y = self.n1(x)
        y = self.p2(self.lka(F.gelu(self.p1(y)))) + y
        x = x + self.g1 * y
        return x + self.g2 * self.mlp(self.n2(x))


class VANB0(nn.Module):
    """VAN-B0 on 224 x 224: patch embeddings (7x7 stride 4, then 3x3
    stride 2) with BN, stages of widths 32, 64, 160, 256, depths 3, 3, 5,
    2 and MLP ratios 8, 8, 4, 4, a LayerNorm over channels closing each
    stage, global mean and a 1000-way Linear."""

    def __init__(self, widths=(32, 64, 160, 256), depths=(3, 3, 5, 2), ratios=(8, 8, 4, 4), classes=1000):
        super().__init__()
        self.embeds, self.stages, self.norms = nn.ModuleList(), nn.ModuleList(), nn.ModuleList()
        cin = 3
        for i, (w, d, r) in enumerate(zip(widths, depths, ratios)):
            k, s = (7, 4) if i == 0 else (3, 2)
            self.embeds.append(nn.Sequential(nn.Conv2d(cin, w, k, s, k // 2), nn.BatchNorm2d(w)))
            self.stages.append(nn.Sequential(*[_VANBlock(w, r) for _ in range(d)]))
            self.norms.append(nn.LayerNorm(w))
            cin = w
        self.fc = nn.Linear(cin, classes)

    def forward(self, image):                     # (N, 3, 224, 224)
        x = image
        for emb, stage, norm in zip(self.embeds, self.stages, self.norms):
            x = stage(emb(x))
            h, w = x.shape[2], x.shape[3]
            t = norm(x.flatten(2).transpose(1, 2))
            x = t.transpose(1, 2).reshape(-1, t.shape[2], h, w)
        return self.fc(x.mean((2, 3)))


class DIENCtr(nn.Module):
    """DIEN: item (20000) and category (500) embeddings of 32 for a 30-step
    history and the target, 4 profile fields of 1000 values in one offset
    table of 16; a GRU (64) over the history; attention scores softmax(MLP
    80-40-1 of [h, t, h*t, h-t]); an AUGRU whose update gate is scaled by
    the score, unrolled over the 30 steps; an MLP 200-80-2 with PReLU over
    profile, target, final interest and summed history."""

    def __init__(self, items=20000, cats=500, fields=4, vocab=1000, emb=32, steps=30, hidden=64):
        super().__init__()
        self.steps, self.hidden = steps, hidden
        self.items, self.cats = nn.Embedding(items, emb), nn.Embedding(cats, emb)
        self.profile = nn.Embedding(fields * vocab, 16)
        self.register_buffer("offsets", torch.arange(fields, dtype=torch.long) * vocab)
        self.gru = nn.GRU(2 * emb, hidden, batch_first=True)
        self.att = nn.Sequential(nn.Linear(4 * hidden, 80), nn.Sigmoid(), nn.Linear(80, 40), nn.Sigmoid(),
                                 nn.Linear(40, 1))
        self.wx = nn.Linear(hidden, 3 * hidden)
        self.wh = nn.Linear(hidden, 3 * hidden, bias=False)
        width = fields * 16 + 2 * emb + hidden + 2 * emb
        self.mlp = nn.Sequential(nn.BatchNorm1d(width), nn.Linear(width, 200), nn.PReLU(200),
                                 nn.Linear(200, 80), nn.PReLU(80), nn.Linear(80, 2))

    def forward(self, profile, hist_items, hist_cats, item, cat):
        # (N, 4), (N, 30), (N, 30), (N, 1), (N, 1), all int64
        beh = torch.cat([self.items(hist_items), self.cats(hist_cats)], -1)   # (N, T, 64)
        tgt = torch.cat([self.items(item), self.cats(cat)], -1)               # (N, 1, 64)
        hs = self.gru(beh)[0]                                                 # (N, T, H)
        t = tgt.expand(-1, hs.shape[1], -1)
        score = torch.softmax(self.att(torch.cat([hs, t, hs * t, hs - t], -1)).squeeze(-1), -1)
        gx = self.wx(hs)                                                      # (N, T, 3H)
        H = self.hidden
        h = torch.zeros_like(hs[:, 0])
        for i in range(self.steps):
            gh = self.wh(h)
            x = gx[:, i]
            r = torch.sigmoid(x[:, :H] + gh[:, :H])
            u = torch.sigmoid(x[:, H:2 * H] + gh[:, H:2 * H]) * score[:, i:i + 1]
            c = torch.tanh(x[:, 2 * H:] + r * gh[:, 2 * H:])
            h = (1.0 - u) * h + u * c
        prof = self.profile(profile + self.offsets).flatten(1)
        feat = torch.cat([prof, tgt.squeeze(1), h, beh.sum(1)], -1)
        return torch.softmax(self.mlp(feat), -1)


class _SelfAttention(nn.Module):
    def __init__(self, dim, heads, head_dim):
        super().__init__()
        self.h, self.hd = heads, head_dim
        self.qkv = nn.Linear(dim, 3 * heads * head_dim, bias=False)
        self.out = nn.Linear(heads * head_dim, dim)

    def forward(self, x):                         # (B, S, D)
        s, h, hd = x.shape[1], self.h, self.hd
        q, k, v = self.qkv(x).view(x.shape[0], s, 3, h, hd).permute(2, 0, 3, 1, 4).unbind(0)
        a = torch.softmax(torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(hd), -1)
        return self.out(torch.matmul(a, v).transpose(1, 2).reshape(x.shape[0], s, h * hd))


class _GEGLU(nn.Module):
    def __init__(self, dim, mult):
        super().__init__()
        self.a = nn.Linear(dim, 2 * mult * dim)
        self.b = nn.Linear(mult * dim, dim)

    def forward(self, x):
        y, g = self.a(x).chunk(2, -1)
        return self.b(y * F.gelu(g))


class SAINTTabular(nn.Module):
    """SAINT: a CLS token, 8 categorical columns (100 values each, one
    offset table) and 24 continuous columns (per-column 1 -> 100 -> 16 MLPs
    as batched MatMuls) give 33 tokens of 16; three layers of [LayerNorm,
    column attention (8 heads of 16), GEGLU x4] and [LayerNorm, row
    attention over the batch on the flattened 33 x 16 rows (8 heads of 32),
    GEGLU x1]; an MLP on the CLS token to 2 classes."""

    def __init__(self, cats=8, vocab=100, conts=24, dim=16, depth=3, classes=2):
        super().__init__()
        self.tokens = 1 + cats + conts
        self.dim = dim
        self.cls = nn.Parameter(torch.randn(1, 1, dim) * 0.02)
        self.cat_emb = nn.Embedding(cats * vocab, dim)
        self.register_buffer("offsets", torch.arange(cats, dtype=torch.long) * vocab)
        self.w1 = nn.Parameter(torch.randn(conts, 1, 100) * 0.5)
        self.b1 = nn.Parameter(torch.zeros(conts, 1, 100))
        self.w2 = nn.Parameter(torch.randn(conts, 100, dim) * 0.1)
        self.b2 = nn.Parameter(torch.zeros(conts, 1, dim))
        flat = self.tokens * dim
        self.layers = nn.ModuleList()
        for _ in range(depth):
            self.layers.append(nn.ModuleList([
                nn.LayerNorm(dim), _SelfAttention(dim, 8, 16), nn.LayerNorm(dim), _GEGLU(dim, 4),
                nn.LayerNorm(flat), _SelfAttention(flat, 8, 32), nn.LayerNorm(flat), _GEGLU(flat, 1)]))
        self.head = _mlp(dim, 64, classes)

    def forward(self, categ, cont):               # (N, 8) int64, (N, 24)
        c = self.cat_emb(categ + self.offsets)                              # (N, 8, D)
        z = F.relu(torch.matmul(cont.t().unsqueeze(-1), self.w1) + self.b1)  # (24, N, 100)
        z = (torch.matmul(z, self.w2) + self.b2).transpose(0, 1)           # (N, 24, D)
        x = torch.cat([self.cls.expand(c.shape[0], -1, -1), c, z], 1)       # (N, S, D)
        flat = self.tokens * self.dim
        for n1, col, n2, ff1, n3, row, n4, ff2 in self.layers:
            x = x + col(n1(x))
            x = x + ff1(n2(x))
            r = x.reshape(1, -1, flat)
            r = r + row(n3(r))
            r = r + ff2(n4(r))
            x = r.reshape(-1, self.tokens, self.dim)
        return self.head(x[:, 0])


BLIND27 = {
    "sudoku_arc_consistency": dict(ctor=SudokuArcConsistency, family="arc-consistency-constraint-propagation",
                                   inputs=[("grid", ("N", 10, 9, 9), "float32", None)]),
    "box_nms_greedy": dict(ctor=BoxNMSGreedy, family="greedy-box-non-maximum-suppression",
                           inputs=[("image", ("N", 3, 128, 128), "float32", None)]),
    "zbuffer_raster": dict(ctor=ZBufferRaster, family="edge-function-zbuffer-rasterization",
                           inputs=[("code", ("N", 32), "float32", None)]),
    "autoformer_forecast": dict(ctor=AutoformerForecast, family="autocorrelation-series-decomposition",
                                inputs=[("series", ("N", 96, 7), "float32", None)]),
    "bigbird_encoder": dict(ctor=BigBirdEncoder, family="block-sparse-random-attention",
                            inputs=[("tokens", ("N", 512), "int64", 8000)]),
    "x3d_xs": dict(ctor=X3DXS, family="expanded-3d-depthwise-video",
                   inputs=[("clip", ("N", 3, 4, 160, 160), "float32", None)]),
    "graph_unet": dict(ctor=GraphUNet, family="graph-topk-pooling-unet",
                       inputs=[("feats", ("N", 256, 64), "float32", None),
                               ("adj", ("N", 256, 256), "float32", None)]),
    "pointpillars_bev": dict(ctor=PointPillarsBEV, family="pillar-scatter-bev-detection",
                             inputs=[("points", ("N", 1200, 20, 4), "float32", None),
                                     ("cells", ("N", 1200), "int64", 9216)]),
    "dimenet_pp": dict(ctor=DimeNetPP, family="directional-triplet-message-passing",
                       inputs=[("types", ("N", 16), "int64", 10),
                               ("pos", ("N", 16, 3), "float32", None)]),
    "van_b0": dict(ctor=VANB0, family="large-kernel-dilated-attention",
                   inputs=[("image", ("N", 3, 224, 224), "float32", None)]),
    "dien_ctr": dict(ctor=DIENCtr, family="interest-evolution-augru",
                     inputs=[("profile", ("N", 4), "int64", 1000),
                             ("hist_items", ("N", 30), "int64", 20000),
                             ("hist_cats", ("N", 30), "int64", 500),
                             ("item", ("N", 1), "int64", 20000),
                             ("cat", ("N", 1), "int64", 500)]),
    "saint_tabular": dict(ctor=SAINTTabular, family="intersample-row-attention",
                          inputs=[("categ", ("N", 8), "int64", 100),
                                  ("cont", ("N", 24), "float32", None)]),
}
