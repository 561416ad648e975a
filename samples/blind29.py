r"""BLIND29: the twenty-ninth blind set, written on 2026-12-07 by a helper
session before any of it was measured.  Nothing in it has been timed,
profiled or run through onnxcost predict; it is to be measured first and
scored once only, at the end, with the code as it stands then
(bench/zoo_accuracy.py --set blind29).  None of its twelve families occurs
in another set (ZOO, BLIND, BLIND2 ... BLIND28, the reference models), so
no plan rule, feature, fit or calibration can have been made with any of
them in view.

Three families unroll a classical procedure into a fixed graph of small
kernels (about a thousand nodes each), each with a small learned part:

  * Smith-Waterman local alignment (Smith & Waterman, "Identification of
    Common Molecular Subsequences", 1981) with a linear gap cost: a shared
    embedding and two Conv1d layers encode a 48-residue query and eight
    64-residue targets, a scaled dot product gives the substitution
    scores, and the dynamic programme runs row by row (48 steps); inside
    a row the left-to-right gap chain is resolved at once as a masked
    ReduceMax over a 64 x 64 offset table; the best cell of each target
    feeds a small MLP.
  * Jump flooding (Rong & Tan, "Jump Flooding in GPU with Applications to
    Voronoi Diagram and Distance Transform", 2006): a small Conv net
    marks seed pixels (peaks of a predicted heat map) on 64 x 64 images;
    seven passes of step 32, 16, 8, 4, 2, 1, 1 each compare every pixel's
    nearest seed so far with those of its eight neighbours at the step
    (one Pad and eight Slices, squared distances, Less and Where), giving
    a Voronoi partition and a distance transform that a strided Conv net
    reads with the image.
  * Seam carving (Avidan & Shamir, "Seam Carving for Content-Aware Image
    Resizing", 2007): the energy of a 40 x 64 image is its gradient
    magnitude (a fixed Conv on the replicate-padded grey image) plus a
    learned saliency map; the cumulative minimum energy is built row by
    row (the three upper neighbours by a negated 1-D MaxPool), the seam
    traced back from the bottom by a windowed ArgMin per row, and the
    seam's pixels dropped by one Where of two shifted slices; twice, the
    energy recomputed in between; a Conv classifier reads the result.

The other nine are published network designs of ordinary sizes:

  * CREPE (Kim, Salamon, Li & Bello, "CREPE: A Convolutional
    Representation for Pitch Estimation", 2018), the "small" capacity: a
    1024-sample frame normalised, six Conv layers with tall (k x 1)
    kernels (512 at stride 4, then five of 64) each with ReLU, BatchNorm
    and a (2 x 1) MaxPool, a 360-bin sigmoid salience, and the pitch read
    as the salience-weighted mean of the cents within four bins of the
    peak.
  * XCiT (El-Nouby, Touvron, Caron, Bojanowski, Douze, Joulin, Laptev,
    Neverova, Synnaeve, Verbeek & Jegou, "XCiT: Cross-Covariance Image
    Transformers", 2021), the nano width at depth 6: a four-Conv stride-16
    stem on 160 x 160 images, Fourier positional features, blocks of
    cross-covariance attention (a softmax over channel-by-channel maps of
    L2-normalised queries and keys), a local patch interaction of two
    depthwise 3x3 Convs and an MLP, then two class-attention layers.
  * CornerNet (Law & Deng, "CornerNet: Detecting Objects as Paired
    Keypoints", 2018) on a small residual backbone in place of the
    hourglass: 96 x 96 images to a stride-4 map, a top-left and a
    bottom-right corner-pooling module (directional running maxima built
    by five doubling steps of shifted Max per direction), and per corner
    heat-map, embedding and offset heads.
  * ENet (Paszke, Chaurasia, Kim & Culurciello, "ENet: A Deep Neural
    Network Architecture for Real-Time Semantic Segmentation", 2016): the
    initial Conv-plus-MaxPool block, bottlenecks with PReLU, dilated and
    asymmetric (5x1, 1x5) Convs, downsampling by MaxPool with indices and
    upsampling by unpooling to those indices (ScatterElements into
    zeros), a final ConvTranspose; 19 classes on 160 x 160 images.
  * ST-GCN (Yan, Xiong & Lin, "Spatial Temporal Graph Convolutional
    Networks for Skeleton-Based Action Recognition", 2018) at half width:
    32 frames of a 25-joint skeleton, a data BatchNorm, ten blocks of a
    spatial graph Conv (a 1x1 Conv to three partitions and an Einsum with
    the learned-importance adjacency of the spatial-configuration
    partitioning) and a 9 x 1 temporal Conv, residuals, 60 classes.
  * QANet (Yu, Dohan, Luong, Zhao, Chen, Norouzi & Le, "QANet: Combining
    Local Convolution with Global Self-Attention for Reading
    Comprehension", 2018), reduced: word embeddings through a two-layer
    highway, encoder blocks of depthwise-separable Conv1d layers,
    multi-head self-attention and a feed-forward, the trilinear
    context-query attention, and a model encoder of two blocks applied
    three times with shared weights; start and end logits over 192
    context tokens for a 32-token question.
  * SASRec (Kang & McAuley, "Self-Attentive Sequential Recommendation",
    2018): item and position embeddings of a 200-step history, two
    blocks of causal single-head self-attention and a point-wise
    feed-forward of kernel-1 Conv1d layers, padding steps zeroed, and the
    last state scored against 101 candidate items.
  * FoldingNet (Yang, Feng, Shen & Tian, "FoldingNet: Point Cloud
    Auto-encoder via Deep Grid Deformation", 2018): 1024 points, k-NN
    (k = 16 by TopK) local covariances, a per-point MLP, two graph layers
    of neighbourhood max pooling (GatherElements), a global max to a
    256-d codeword, and two folding MLPs that deform a 24 x 24 grid into
    576 points; the Chamfer distance to the input is returned as well.
  * MICN (Wang, Wu, Wang, Shi, Liu & Tang, "MICN: Multi-scale Isometric
    Convolution Network for Long-term Series Forecasting", 2023): a
    multi-scale moving-average decomposition, a linear trend regression,
    and for the seasonal part a circular token Conv1d and two MIC layers,
    each with two branches of a strided Conv1d, an isometric Conv1d
    (kernel as long as the downsampled series, over a zero-padded copy)
    and a ConvTranspose1d back up, merged by a (2 x 1) Conv2d; 96 steps
    of 7 series in, 96 out.

To be measured with

    OMP_WAIT_POLICY=PASSIVE /usr/bin/python3 scripts/measure_zoo.py --set blind29 \
        smith_waterman_align jump_flood_voronoi seam_carving \
        crepe_pitch xcit_nano cornernet_det enet_seg stgcn_skeleton \
        qanet_reader sasrec_next_item foldingnet_ae micn_forecast \
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

class SmithWatermanAlign(nn.Module):
    """Local alignment of one query (48 residues of 21 kinds) against eight
    targets (64 residues each).  Residues are embedded (32) and encoded by
    two Conv1d layers of kernel 5 (64 wide); the substitution score of a
    pair is 2 tanh(q . t / 8) - 0.5, the gap cost softplus(g) + 0.5 per
    step.  Row i of the score table is H_i[j] = max over k <= j of
    (T[k] - gap (j - k)) with T = max(0, H_{i-1}[j-1] + s(i, j),
    H_{i-1}[j] - gap).  Returns the best score per target and logits of
    an MLP over the scores."""

    def __init__(self, qlen=48, tlen=64, alphabet=21, emb=32, width=64, targets=8):
        super().__init__()
        self.qlen, self.tlen, self.width, self.targets = qlen, tlen, width, targets
        self.emb = nn.Embedding(alphabet, emb)
        self.enc = nn.Sequential(nn.Conv1d(emb, width, 5, 1, 2), nn.ReLU(), nn.Conv1d(width, width, 5, 1, 2))
        self.gap = nn.Parameter(torch.tensor(0.3))
        j = torch.arange(tlen, dtype=torch.float32)
        self.register_buffer("offset", (j.view(1, -1) - j.view(-1, 1)))            # [j, k] = k - j
        self.register_buffer("later", torch.triu(torch.full((tlen, tlen), -1e4), 1))  # k > j
        self.head = _mlp(targets, 64, targets)

    def forward(self, query, targets):            # (N, 48), (N, 8, 64) int64
        q = self.enc(self.emb(query).transpose(1, 2))                       # (N, W, 48)
        t = self.enc(self.emb(targets.reshape(-1, self.tlen)).transpose(1, 2))
        t = t.reshape(-1, self.targets, self.width, self.tlen)              # (N, 8, W, 64)
        s = torch.matmul(q.transpose(1, 2).unsqueeze(1), t) / math.sqrt(self.width)
        s = 2.0 * torch.tanh(s) - 0.5                                       # (N, 8, 48, 64)
        gap = F.softplus(self.gap) + 0.5
        chain = gap * self.offset + self.later                              # (64, 64)
        h = torch.zeros_like(s[:, :, 0])
        edge = h[..., :1]
        best = h.amax(-1)
        for i in range(self.qlen):
            diag = torch.cat([edge, h[..., :-1]], -1) + s[:, :, i]
            top = F.relu(torch.maximum(diag, h - gap))
            h = (top.unsqueeze(-2) + chain).amax(-1)
            best = torch.maximum(best, h.amax(-1))
        return best, self.head(best)


class JumpFloodVoronoi(nn.Module):
    """Seeds are the pixels of a predicted heat map (three Convs on a
    64 x 64 RGB image) that are positive and the maximum of their 5 x 5
    neighbourhood.  Each pixel holds the (y, x) of its nearest seed so far
    (far away when none) and the squared distance to it; a pass of step k
    offers it the seeds of the eight pixels k away.  Returns the distance
    map and class logits from a Conv net over the image, the normalised
    distance, the Voronoi boundaries and the seeds."""

    def __init__(self, side=64, classes=10):
        super().__init__()
        self.side = side
        self.steps = (32, 16, 8, 4, 2, 1, 1)
        self.seed = nn.Sequential(_cbr(3, 16), _cbr(16, 16), nn.Conv2d(16, 1, 1))
        c = torch.arange(side, dtype=torch.float32)
        gy, gx = torch.meshgrid(c, c, indexing="ij")
        self.register_buffer("coords", torch.stack([gy, gx]).unsqueeze(0))  # (1, 2, S, S)
        self.register_buffer("far", torch.tensor(1.0e4))
        self.read = nn.Sequential(_cbr(6, 16, 3, 2), _cbr(16, 32, 3, 2), _cbr(32, 64, 3, 2), _cbr(64, 64, 3, 2))
        self.fc = nn.Linear(64, classes)

    def forward(self, image):                     # (N, 3, 64, 64)
        s = self.side
        heat = self.seed(image)                                             # (N, 1, S, S)
        peak = (heat >= F.max_pool2d(heat, 5, 1, 2)) & (heat > 0.0)
        site = torch.where(peak, self.coords, self.far)                    # (N, 2, S, S)
        dist = ((site - self.coords) ** 2).sum(1, keepdim=True)
        for k in self.steps:
            padded = F.pad(site, (k, k, k, k), value=1.0e4)
            for dy in (-k, 0, k):
                for dx in (-k, 0, k):
                    if dy == 0 and dx == 0:
                        continue
                    cand = padded[:, :, k + dy:k + dy + s, k + dx:k + dx + s]
                    d = ((cand - self.coords) ** 2).sum(1, keepdim=True)
                    closer = d < dist
                    site = torch.where(closer, cand, site)
                    dist = torch.where(closer, d, dist)
        depth = torch.sqrt(dist.clamp(max=float(2 * s * s))) / s
        right = (site[:, :, :, 1:] - site[:, :, :, :-1]).abs().sum(1, keepdim=True)
        down = (site[:, :, 1:] - site[:, :, :-1]).abs().sum(1, keepdim=True)
        edge = ((F.pad(right, (0, 1)) + F.pad(down, (0, 0, 0, 1))) > 0.0).float()
        feat = torch.cat([image, depth, edge, peak.float()], 1)
        return depth, self.fc(self.read(feat).mean((2, 3)))


class SeamCarving(nn.Module):
    """Removes two vertical seams from a 40 x 64 image.  The energy is
    |d/dx| + |d/dy| of the grey image (central differences by a fixed
    Conv over a replicate-padded copy) plus a softplus saliency map from
    three Convs, carved along with the image.  Cumulative energy
    M_i = e_i + min(M_{i-1} at j-1, j, j+1); the seam ends at the ArgMin
    of the last row and climbs to the ArgMin within one column of it in
    each row above.  Returns the carved image and logits of a Conv
    classifier over it and its saliency."""

    def __init__(self, height=40, width=64, seams=2, classes=10):
        super().__init__()
        self.height, self.width, self.seams = height, width, seams
        self.sal = nn.Sequential(_cbr(3, 16), _cbr(16, 16), nn.Conv2d(16, 1, 1))
        grad = torch.zeros(2, 1, 3, 3)
        grad[0, 0, 1, 0], grad[0, 0, 1, 2] = -0.5, 0.5
        grad[1, 0, 0, 1], grad[1, 0, 2, 1] = -0.5, 0.5
        self.register_buffer("grad", grad)
        self.register_buffer("col", torch.arange(width).view(1, 1, width))
        self.register_buffer("big", torch.tensor(1.0e9))
        self.read = nn.Sequential(_cbr(4, 32, 3, 2), _cbr(32, 64, 3, 2), _cbr(64, 64, 3, 2))
        self.fc = nn.Linear(64, classes)

    def forward(self, image):                     # (N, 3, 40, 64)
        x = torch.cat([image, F.softplus(self.sal(image))], 1)             # (N, 4, H, W)
        for n in range(self.seams):
            w = self.width - n
            grey = x[:, :3].mean(1, keepdim=True)
            g = F.conv2d(F.pad(grey, (1, 1, 1, 1), mode="replicate"), self.grad)
            energy = g.abs().sum(1) + x[:, 3]                               # (N, H, w)
            rows = [energy[:, 0:1]]
            for i in range(1, self.height):
                up = -F.max_pool1d(-rows[-1], 3, 1, 1)
                rows.append(energy[:, i:i + 1] + up)                        # (N, 1, w)
            col = self.col[..., :w]
            j = rows[-1].argmin(-1, keepdim=True)                           # (N, 1, 1)
            path = [j]
            for i in range(self.height - 2, -1, -1):
                near = (col - j).abs() <= 1
                j = torch.where(near, rows[i], self.big).argmin(-1, keepdim=True)
                path.append(j)
            seam = torch.cat(path[::-1], 1)                                 # (N, H, 1)
            keep = (col[..., :w - 1] < seam).unsqueeze(1)                   # (N, 1, H, w-1)
            x = torch.where(keep, x[..., :-1], x[..., 1:])
        return x[:, :3], self.fc(self.read(x).mean((2, 3)))


# --------------------------------------------------------------------------
# Published network designs
# --------------------------------------------------------------------------

class CREPEPitch(nn.Module):
    """CREPE 'small' (capacity 8): filters 256, 32, 32, 32, 64, 128 of
    heights 512, 64, 64, 64, 64, 64 (stride 4 for the first), Keras 'same'
    padding (for an even kernel the Conv pads one more row on both sides
    and the first output row is sliced off), Conv + ReLU + BN + MaxPool
    (2, 1); the flattened
    4 x 128 map to 360 sigmoid bins 20 cents apart.  Returns the salience,
    the pitch in Hz and the confidence (peak salience)."""

    def __init__(self, filters=(256, 32, 32, 32, 64, 128), heights=(512, 64, 64, 64, 64, 64),
                 strides=(4, 1, 1, 1, 1, 1), frame=1024, bins=360):
        super().__init__()
        self.convs, self.post, self.trim = nn.ModuleList(), nn.ModuleList(), []
        cin, length = 1, frame
        for f, k, s in zip(filters, heights, strides):
            out = (length + s - 1) // s
            total = max((out - 1) * s + k - length, 0)
            self.convs.append(nn.Conv2d(cin, f, (k, 1), (s, 1), (total - total // 2, 0)))
            self.post.append(nn.Sequential(nn.ReLU(), nn.BatchNorm2d(f), nn.MaxPool2d((2, 1))))
            self.trim.append(total % 2 == 1)
            cin, length = f, out // 2
        self.fc = nn.Linear(cin * length, bins)
        self.register_buffer("cents", torch.linspace(0.0, 7180.0, bins) + 1997.3794084376191)
        self.register_buffer("bin", torch.arange(bins).view(1, bins))

    def forward(self, audio):                     # (N, 1024)
        x = audio - audio.mean(1, keepdim=True)
        x = x / torch.sqrt((x * x).mean(1, keepdim=True)).clamp(min=1e-8)
        x = x.unsqueeze(1).unsqueeze(-1)
        for conv, post, trim in zip(self.convs, self.post, self.trim):
            y = conv(x)
            x = post(y[:, :, 1:] if trim else y)                            # (N, C, L, 1)
        sal = torch.sigmoid(self.fc(x.permute(0, 2, 3, 1).flatten(1)))      # (N, 360)
        conf, centre = sal.max(1, keepdim=True)
        w = sal * ((self.bin - centre).abs() <= 4).float()
        cents = (w * self.cents).sum(1) / w.sum(1).clamp(min=1e-8)
        return sal, 10.0 * torch.pow(2.0, cents / 1200.0), conf.squeeze(1)


class _XCA(nn.Module):
    """Cross-covariance attention: per head a (d x d) softmax map of the
    token-wise L2-normalised queries and keys, scaled by a learned
    temperature, applied to the values."""

    def __init__(self, dim, heads):
        super().__init__()
        self.h = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.temp = nn.Parameter(torch.ones(heads, 1, 1))
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):                         # (N, T, D)
        t, d = x.shape[1], x.shape[2]
        q, k, v = self.qkv(x).reshape(-1, t, 3, self.h, d // self.h).permute(2, 0, 3, 4, 1).unbind(0)
        q, k = F.normalize(q, dim=-1), F.normalize(k, dim=-1)               # (N, h, hd, T)
        a = torch.softmax(torch.matmul(q, k.transpose(-1, -2)) * self.temp, -1)
        y = torch.matmul(a, v).permute(0, 3, 1, 2).reshape(-1, t, d)
        return self.proj(y)


class _LPI(nn.Module):
    """Local patch interaction: depthwise 3x3, GELU, BN, depthwise 3x3 on
    the token grid."""

    def __init__(self, dim, side):
        super().__init__()
        self.side = side
        self.c1 = nn.Conv2d(dim, dim, 3, 1, 1, groups=dim)
        self.bn = nn.BatchNorm2d(dim)
        self.c2 = nn.Conv2d(dim, dim, 3, 1, 1, groups=dim)

    def forward(self, x):                         # (N, T, D)
        d = x.shape[2]
        g = x.transpose(1, 2).reshape(-1, d, self.side, self.side)
        g = self.c2(self.bn(F.gelu(self.c1(g))))
        return g.flatten(2).transpose(1, 2)


class _XCiTBlock(nn.Module):
    def __init__(self, dim, heads, side):
        super().__init__()
        self.n1, self.n2, self.n3 = nn.LayerNorm(dim), nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.xca, self.lpi = _XCA(dim, heads), _LPI(dim, side)
        self.mlp = _mlp(dim, 4 * dim, dim, nn.GELU)
        self.g1, self.g2, self.g3 = (nn.Parameter(torch.full((dim,), 1.0)) for _ in range(3))

    def forward(self, x):
        x = x + self.g1 * self.xca(self.n1(x))
        x = x + self.g2 * self.lpi(self.n2(x))
        return x + self.g3 * self.mlp(self.n3(x))


class _ClassAttention(nn.Module):
    """Class-attention layer: only the CLS token queries all tokens, and
    only the CLS token goes through the MLP."""

    def __init__(self, dim, heads):
        super().__init__()
        self.h = heads
        self.n1, self.n2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.q, self.kv = nn.Linear(dim, dim), nn.Linear(dim, 2 * dim)
        self.proj = nn.Linear(dim, dim)
        self.mlp = _mlp(dim, 4 * dim, dim, nn.GELU)

    def forward(self, x):                         # (N, 1 + T, D)
        t, d = x.shape[1], x.shape[2]
        hd = d // self.h
        u = self.n1(x)
        q = self.q(u[:, :1]).reshape(-1, 1, self.h, hd).transpose(1, 2)     # (N, h, 1, hd)
        k, v = self.kv(u).reshape(-1, t, 2, self.h, hd).permute(2, 0, 3, 1, 4).unbind(0)
        a = torch.softmax(torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(hd), -1)
        cls = x[:, :1] + self.proj(torch.matmul(a, v).transpose(1, 2).reshape(-1, 1, d))
        cls = cls + self.mlp(self.n2(cls))
        return torch.cat([cls, x[:, 1:]], 1)


class XCiTNano(nn.Module):
    """XCiT-N (width 128, 4 heads) at depth 6 on 160 x 160: a stem of four
    3x3 stride-2 Convs (16, 32, 64, 128; BN and GELU between) to 10 x 10
    tokens, 32-d Fourier positional features through a 1x1 Conv, six XCA
    blocks, a CLS token, two class-attention layers, LayerNorm and a
    1000-way Linear."""

    def __init__(self, dim=128, heads=4, depth=6, image=160, classes=1000, fourier=32):
        super().__init__()
        side = image // 16
        chans = (3, dim // 8, dim // 4, dim // 2, dim)
        stem = []
        for i in range(4):
            stem.append(nn.Conv2d(chans[i], chans[i + 1], 3, 2, 1, bias=False))
            stem.append(nn.BatchNorm2d(chans[i + 1]))
            if i < 3:
                stem.append(nn.GELU())
        self.stem = nn.Sequential(*stem)
        c = torch.arange(1, side + 1, dtype=torch.float32) / (side + 1e-6) * 2.0 * math.pi
        gy, gx = torch.meshgrid(c, c, indexing="ij")
        half = fourier // 2
        dim_t = 10000.0 ** (2.0 * (torch.arange(half) // 2).float() / half)
        feats = []
        for g in (gy, gx):
            p = g.reshape(-1, 1) / dim_t                                    # (T, half)
            feats.append(torch.stack([p[:, 0::2].sin(), p[:, 1::2].cos()], 2).flatten(1))
        self.register_buffer("fourier", torch.cat(feats, 1).unsqueeze(0))  # (1, T, 32)
        self.pos = nn.Linear(fourier, dim)
        self.blocks = nn.Sequential(*[_XCiTBlock(dim, heads, side) for _ in range(depth)])
        self.cls = nn.Parameter(torch.randn(1, 1, dim) * 0.02)
        self.ca = nn.Sequential(_ClassAttention(dim, heads), _ClassAttention(dim, heads))
        self.norm = nn.LayerNorm(dim)
        self.fc = nn.Linear(dim, classes)

    def forward(self, image):                     # (N, 3, 160, 160)
        x = self.stem(image).flatten(2).transpose(1, 2) + self.pos(self.fourier)
        x = self.blocks(x)
        x = self.ca(torch.cat([self.cls.expand(x.shape[0], -1, -1), x], 1))
        return self.fc(self.norm(x[:, 0]))


class _BasicBlock(nn.Module):
    def __init__(self, cin, cout, stride):
        super().__init__()
        self.a = _cbr(cin, cout, 3, stride)
        self.b = nn.Sequential(nn.Conv2d(cout, cout, 3, 1, 1, bias=False), nn.BatchNorm2d(cout))
        self.proj = None
        if stride != 1 or cin != cout:
            self.proj = nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))

    def forward(self, x):
        s = x if self.proj is None else self.proj(x)
        return F.relu(self.b(self.a(x)) + s)


def _running_max(x, dim, reverse):
    """Cumulative maximum of a non-negative x along dim (2 or 3): from the
    far end when reverse (top / left pooling), else from index 0; log2
    steps of max with a zero-padded shift."""
    n = x.shape[dim]
    s = 1
    while s < n:
        if dim == 2:
            pad = (0, 0, 0, s) if reverse else (0, 0, s, 0)
            shifted = F.pad(x[:, :, s:] if reverse else x[:, :, :-s], pad)
        else:
            pad = (0, s) if reverse else (s, 0)
            shifted = F.pad(x[..., s:] if reverse else x[..., :-s], pad)
        x = torch.maximum(x, shifted)
        s *= 2
    return x


class _CornerPool(nn.Module):
    """CornerNet's pooling module: two Conv-BN-ReLU branches pooled in two
    directions and summed, a Conv-BN, a 1x1 skip, ReLU, a Conv-BN-ReLU."""

    def __init__(self, dim, mid, top_left):
        super().__init__()
        self.top_left = top_left
        self.p1, self.p2 = _cbr(dim, mid), _cbr(dim, mid)
        self.pc = nn.Sequential(nn.Conv2d(mid, dim, 3, 1, 1, bias=False), nn.BatchNorm2d(dim))
        self.skip = nn.Sequential(nn.Conv2d(dim, dim, 1, bias=False), nn.BatchNorm2d(dim))
        self.out = _cbr(dim, dim)

    def forward(self, x):
        r = self.top_left
        pooled = _running_max(self.p1(x), 2, r) + _running_max(self.p2(x), 3, r)
        return self.out(F.relu(self.pc(pooled) + self.skip(x)))


class CornerNetDet(nn.Module):
    """CornerNet on 96 x 96: a 7x7 stride-2 stem (16), a basic block to 48
    at stride 4 and two to 96 at stride 8, the deeper map upsampled
    (nearest) and added to a 1x1 lateral of the stride-4 map and smoothed
    (48); top-left and bottom-right corner pooling modules (mid 24), each
    with heads (3x3 Conv 24, ReLU, 1x1) for 20 class heat maps, a 1-d
    embedding and 2 offsets on the 24 x 24 map."""

    def __init__(self, classes=20, dim=48, mid=24):
        super().__init__()
        self.stem = _cbr(3, 16, 7, 2)
        self.s4 = _BasicBlock(16, 48, 2)
        self.s8 = nn.Sequential(_BasicBlock(48, 96, 2), _BasicBlock(96, 96, 1))
        self.lat = nn.Conv2d(48, dim, 1)
        self.top = nn.Conv2d(96, dim, 1)
        self.smooth = _cbr(dim, dim)
        self.pools = nn.ModuleList([_CornerPool(dim, mid, True), _CornerPool(dim, mid, False)])

        def head(cout):
            return nn.Sequential(nn.Conv2d(dim, mid, 3, 1, 1), nn.ReLU(), nn.Conv2d(mid, cout, 1))

        self.heads = nn.ModuleList([nn.ModuleList([head(classes), head(1), head(2)]) for _ in range(2)])

    def forward(self, image):                     # (N, 3, 96, 96)
        c4 = self.s4(self.stem(image))
        c8 = self.s8(c4)
        f = self.smooth(self.lat(c4) + F.interpolate(self.top(c8), scale_factor=2.0, mode="nearest"))
        outs = []
        for pool, heads in zip(self.pools, self.heads):
            p = pool(f)
            outs += [torch.sigmoid(heads[0](p)), heads[1](p), heads[2](p)]
        return tuple(outs)


def _unpool(x, idx, like):
    """Max unpooling: x scattered into zeros shaped like `like` at the
    flat per-plane indices of the matching MaxPool."""
    out = torch.zeros_like(like).flatten(2)
    return out.scatter(2, idx.flatten(2), x.flatten(2)).view_as(like)


class _ENetBottleneck(nn.Module):
    """Regular / dilated / asymmetric bottleneck: 1x1 to c/4, the main
    Conv, 1x1 back, each with BN, PReLU between; residual; PReLU."""

    def __init__(self, c, kind="regular", dilation=1, relu=False):
        super().__init__()
        m = c // 4

        def act(n):
            return nn.ReLU() if relu else nn.PReLU(n)

        if kind == "asymmetric":
            main = [nn.Conv2d(m, m, (5, 1), 1, (2, 0), bias=False), nn.Conv2d(m, m, (1, 5), 1, (0, 2), bias=False)]
        else:
            main = [nn.Conv2d(m, m, 3, 1, dilation, dilation, bias=False)]
        self.ext = nn.Sequential(nn.Conv2d(c, m, 1, bias=False), nn.BatchNorm2d(m), act(m),
                                 *main, nn.BatchNorm2d(m), act(m),
                                 nn.Conv2d(m, c, 1, bias=False), nn.BatchNorm2d(c))
        self.act = act(c)

    def forward(self, x):
        return self.act(x + self.ext(x))


class _ENetDown(nn.Module):
    """Downsampling bottleneck: MaxPool 2x2 with indices and zero channels
    on the skip, a 2x2 stride-2 Conv to c/4 on the extension."""

    def __init__(self, cin, cout):
        super().__init__()
        m = cin // 4
        self.extra = cout - cin
        self.ext = nn.Sequential(nn.Conv2d(cin, m, 2, 2, bias=False), nn.BatchNorm2d(m), nn.PReLU(m),
                                 nn.Conv2d(m, m, 3, 1, 1, bias=False), nn.BatchNorm2d(m), nn.PReLU(m),
                                 nn.Conv2d(m, cout, 1, bias=False), nn.BatchNorm2d(cout))
        self.act = nn.PReLU(cout)

    def forward(self, x):
        main, idx = F.max_pool2d(x, 2, 2, return_indices=True)
        main = F.pad(main, (0, 0, 0, 0, 0, self.extra))
        return self.act(main + self.ext(x)), idx


class _ENetUp(nn.Module):
    """Upsampling bottleneck: 1x1 Conv + BN and unpooling on the skip; 1x1,
    ConvTranspose 3x3 stride 2, 1x1 on the extension; ReLU."""

    def __init__(self, cin, cout):
        super().__init__()
        m = cin // 4
        self.main = nn.Sequential(nn.Conv2d(cin, cout, 1, bias=False), nn.BatchNorm2d(cout))
        self.ext = nn.Sequential(nn.Conv2d(cin, m, 1, bias=False), nn.BatchNorm2d(m), nn.ReLU(),
                                 nn.ConvTranspose2d(m, m, 3, 2, 1, 1, bias=False), nn.BatchNorm2d(m), nn.ReLU(),
                                 nn.Conv2d(m, cout, 1, bias=False), nn.BatchNorm2d(cout))

    def forward(self, x, idx, like):
        return F.relu(_unpool(self.main(x), idx, like) + self.ext(x))


class ENetSeg(nn.Module):
    """ENet on 160 x 160, 19 classes: initial block (3x3 stride-2 Conv to
    13 beside a MaxPool of the input, BN, PReLU), stage 1 (down to 64, four
    regular), stages 2 and 3 (down to 128 in stage 2; regular, dilated 2,
    asymmetric 5, dilated 4, regular, dilated 8, asymmetric 5, dilated
    16), stage 4 (up to 64, two regular), stage 5 (up to 16, one regular),
    a 3x3 stride-2 ConvTranspose to the classes."""

    def __init__(self, classes=19):
        super().__init__()
        self.init_conv = nn.Conv2d(3, 13, 3, 2, 1, bias=False)
        self.init_bn, self.init_act = nn.BatchNorm2d(16), nn.PReLU(16)
        self.down1 = _ENetDown(16, 64)
        self.stage1 = nn.Sequential(*[_ENetBottleneck(64) for _ in range(4)])
        self.down2 = _ENetDown(64, 128)
        pattern = [("regular", 1), ("dilated", 2), ("asymmetric", 1), ("dilated", 4),
                   ("regular", 1), ("dilated", 8), ("asymmetric", 1), ("dilated", 16)]
        self.stage23 = nn.Sequential(*[_ENetBottleneck(128, k, d) for _ in range(2) for k, d in pattern])
        self.up4 = _ENetUp(128, 64)
        self.stage4 = nn.Sequential(_ENetBottleneck(64, relu=True), _ENetBottleneck(64, relu=True))
        self.up5 = _ENetUp(64, 16)
        self.stage5 = _ENetBottleneck(16, relu=True)
        self.full = nn.ConvTranspose2d(16, classes, 3, 2, 1, 1)

    def forward(self, image):                     # (N, 3, 160, 160)
        x0 = self.init_act(self.init_bn(torch.cat([self.init_conv(image), F.max_pool2d(image, 2, 2)], 1)))
        x1, i1 = self.down1(x0)
        x1 = self.stage1(x1)
        x2, i2 = self.down2(x1)
        x2 = self.stage23(x2)
        y = self.stage4(self.up4(x2, i2, x1))
        y = self.stage5(self.up5(y, i1, x0))
        return self.full(y)


def _ntu_partitions(joints=25, centre=20):
    """The three spatial-configuration partitions (root, centripetal,
    centrifugal) of the NTU RGB+D skeleton, as in ST-GCN: the 1-hop
    adjacency with self loops, column-normalised, split by each neighbour's
    hop distance to the centre joint."""
    edges = [(1, 2), (2, 21), (3, 21), (4, 3), (5, 21), (6, 5), (7, 6), (8, 7), (9, 21), (10, 9),
             (11, 10), (12, 11), (13, 1), (14, 13), (15, 14), (16, 15), (17, 1), (18, 17), (19, 18),
             (20, 19), (22, 23), (23, 8), (24, 25), (25, 12)]
    a = torch.eye(joints)
    for i, j in edges:
        a[i - 1, j - 1] = a[j - 1, i - 1] = 1.0
    hop = torch.full((joints,), float(joints))
    hop[centre] = 0.0
    reach = torch.zeros(joints)
    reach[centre] = 1.0
    for h in range(1, joints):
        reach = ((a @ reach) > 0).float()
        hop = torch.where((reach > 0) & (hop > h), torch.full_like(hop, float(h)), hop)
    norm = a / a.sum(0, keepdim=True)
    parts = torch.zeros(3, joints, joints)
    for j in range(joints):
        for i in range(joints):
            if a[j, i] > 0:
                k = 0 if hop[j] == hop[i] else (1 if hop[j] > hop[i] else 2)
                parts[k, j, i] = norm[j, i]
    return parts


class _STGCNBlock(nn.Module):
    """Graph Conv (1x1 Conv to K x C, Einsum with the weighted partitions),
    then BN, ReLU, a 9x1 temporal Conv (stride s), BN; residual; ReLU."""

    def __init__(self, cin, cout, stride, parts, residual=True):
        super().__init__()
        self.k = parts.shape[0]
        self.register_buffer("parts", parts)
        self.importance = nn.Parameter(torch.ones_like(parts))
        self.gcn = nn.Conv2d(cin, self.k * cout, 1)
        self.tcn = nn.Sequential(nn.BatchNorm2d(cout), nn.ReLU(), nn.Conv2d(cout, cout, (9, 1), (stride, 1), (4, 0)),
                                 nn.BatchNorm2d(cout))
        self.res = None
        if residual and (cin != cout or stride != 1):
            self.res = nn.Sequential(nn.Conv2d(cin, cout, 1, (stride, 1)), nn.BatchNorm2d(cout))
        self.residual = residual

    def forward(self, x):                         # (N, C, T, V)
        t, v = x.shape[2], x.shape[3]
        y = self.gcn(x)
        y = y.reshape(-1, self.k, y.shape[1] // self.k, t, v)
        y = torch.einsum("nkctv,kvw->nctw", y, self.parts * self.importance)
        y = self.tcn(y)
        if self.residual:
            y = y + (x if self.res is None else self.res(x))
        return F.relu(y)


class STGCNSkeleton(nn.Module):
    """ST-GCN at half width on 32 frames of 25 joints (x, y, z): a data
    BatchNorm over joints x coordinates, blocks 3-32 (no residual), 32 x 3,
    64 (stride 2), 64 x 2, 128 (stride 2), 128 x 2, global average pooling
    and a 1x1 Conv to 60 classes."""

    def __init__(self, classes=60, joints=25, coords=3,
                 plan=((32, 1), (32, 1), (32, 1), (32, 1), (64, 2), (64, 1), (64, 1),
                       (128, 2), (128, 1), (128, 1))):
        super().__init__()
        parts = _ntu_partitions(joints)
        self.joints, self.coords = joints, coords
        self.data_bn = nn.BatchNorm1d(joints * coords)
        blocks, cin = [], coords
        for i, (c, s) in enumerate(plan):
            blocks.append(_STGCNBlock(cin, c, s, parts, residual=i > 0))
            cin = c
        self.blocks = nn.Sequential(*blocks)
        self.fc = nn.Conv2d(cin, classes, 1)

    def forward(self, skeleton):                  # (N, 3, 32, 25)
        t = skeleton.shape[2]
        x = skeleton.permute(0, 3, 1, 2).reshape(-1, self.joints * self.coords, t)
        x = self.data_bn(x).reshape(-1, self.joints, self.coords, t).permute(0, 2, 3, 1)
        x = self.blocks(x)
        return self.fc(x.mean((2, 3), keepdim=True)).flatten(1)


def _sinusoid(length, dim):
    pos = torch.arange(length, dtype=torch.float32).unsqueeze(1)
    div = torch.exp(torch.arange(0, dim, 2, dtype=torch.float32) * (-math.log(10000.0) / dim))
    pe = torch.zeros(length, dim)
    pe[:, 0::2], pe[:, 1::2] = torch.sin(pos * div), torch.cos(pos * div)
    return pe


class _Highway(nn.Module):
    def __init__(self, dim, layers=2):
        super().__init__()
        self.gate = nn.ModuleList([nn.Linear(dim, dim) for _ in range(layers)])
        self.lin = nn.ModuleList([nn.Linear(dim, dim) for _ in range(layers)])

    def forward(self, x):
        for g, h in zip(self.gate, self.lin):
            t = torch.sigmoid(g(x))
            x = t * F.relu(h(x)) + (1.0 - t) * x
        return x


class _QAEncoderBlock(nn.Module):
    """Positional encoding, `convs` x [LN, depthwise Conv1d k, pointwise
    Conv1d, ReLU, residual], [LN, multi-head self-attention, residual],
    [LN, Linear, ReLU, Linear, residual]; x is (N, L, D)."""

    def __init__(self, dim, convs, k, heads, length):
        super().__init__()
        self.h = heads
        self.register_buffer("pe", _sinusoid(length, dim).unsqueeze(0))
        self.cn = nn.ModuleList([nn.LayerNorm(dim) for _ in range(convs)])
        self.dw = nn.ModuleList([nn.Conv1d(dim, dim, k, 1, k // 2, groups=dim, bias=False) for _ in range(convs)])
        self.pw = nn.ModuleList([nn.Conv1d(dim, dim, 1) for _ in range(convs)])
        self.an, self.fn = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.qkv, self.out = nn.Linear(dim, 3 * dim), nn.Linear(dim, dim)
        self.ff = _mlp(dim, dim, dim)

    def forward(self, x):
        n, d = x.shape[1], x.shape[2]
        x = x + self.pe[:, :n]
        for norm, dw, pw in zip(self.cn, self.dw, self.pw):
            x = x + F.relu(pw(dw(norm(x).transpose(1, 2)))).transpose(1, 2)
        hd = d // self.h
        q, k, v = self.qkv(self.an(x)).reshape(-1, n, 3, self.h, hd).permute(2, 0, 3, 1, 4).unbind(0)
        a = torch.softmax(torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(hd), -1)
        x = x + self.out(torch.matmul(a, v).transpose(1, 2).reshape(-1, n, d))
        return x + self.ff(self.fn(x))


class QANetReader(nn.Module):
    """QANet, reduced: 8000 x 128 word embeddings, a two-layer highway, a
    kernel-1 Conv1d to 96; embedding encoder blocks (4 convs of kernel 7,
    8 heads) shared by context and question; trilinear context-query
    attention to [c, a, c * a, c * b] and a kernel-1 Conv1d back to 96; a
    model encoder of two blocks (2 convs of kernel 5) run three times with
    shared weights; start / end logits from [M0, M1] and [M0, M2]."""

    def __init__(self, vocab=8000, emb=128, dim=96, heads=8, clen=192, qlen=32, model_blocks=2):
        super().__init__()
        self.words = nn.Embedding(vocab, emb)
        self.highway = _Highway(emb)
        self.proj = nn.Conv1d(emb, dim, 1, bias=False)
        self.emb_enc = _QAEncoderBlock(dim, 4, 7, heads, max(clen, qlen))
        self.w_c, self.w_q = nn.Linear(dim, 1, bias=False), nn.Linear(dim, 1, bias=False)
        self.w_cq = nn.Parameter(torch.randn(1, 1, dim) / math.sqrt(dim))
        self.resize = nn.Conv1d(4 * dim, dim, 1, bias=False)
        self.model_enc = nn.ModuleList([_QAEncoderBlock(dim, 2, 5, heads, clen) for _ in range(model_blocks)])
        self.start, self.end = nn.Linear(2 * dim, 1), nn.Linear(2 * dim, 1)

    def _embed(self, tokens):
        x = self.highway(self.words(tokens))
        return self.emb_enc(self.proj(x.transpose(1, 2)).transpose(1, 2))

    def forward(self, context, question):         # (N, 192), (N, 32) int64
        c, q = self._embed(context), self._embed(question)                 # (N, Lc, D), (N, Lq, D)
        s = self.w_c(c) + self.w_q(q).transpose(1, 2) + torch.matmul(c * self.w_cq, q.transpose(1, 2))
        s1, s2 = torch.softmax(s, 2), torch.softmax(s, 1)
        a = torch.matmul(s1, q)
        b = torch.matmul(torch.matmul(s1, s2.transpose(1, 2)), c)
        x = self.resize(torch.cat([c, a, c * a, c * b], 2).transpose(1, 2)).transpose(1, 2)
        outs = []
        for _ in range(3):
            for block in self.model_enc:
                x = block(x)
            outs.append(x)
        start = self.start(torch.cat([outs[0], outs[1]], 2)).squeeze(2)
        end = self.end(torch.cat([outs[0], outs[2]], 2)).squeeze(2)
        return start, end


class SASRecNextItem(nn.Module):
    """SASRec: 5000 items (id 0 = padding) and 200 positions embedded in
    64 (items scaled by 8); two blocks of [LN query, causal single-head
    attention of the LN query over the unnormalised sequence, residual
    on the query; LN; kernel-1 Conv1d, ReLU, kernel-1 Conv1d, residual;
    padding steps zeroed]; a final LN; the last state dotted with the
    embeddings of the candidates."""

    def __init__(self, items=5000, length=200, dim=64, blocks=2):
        super().__init__()
        self.dim = dim
        self.items = nn.Embedding(items, dim, padding_idx=0)
        self.pos = nn.Parameter(torch.randn(1, length, dim) * 0.02)
        self.register_buffer("causal", torch.triu(torch.full((length, length), -1e4), 1))
        self.ln_q = nn.ModuleList([nn.LayerNorm(dim) for _ in range(blocks)])
        self.ln_f = nn.ModuleList([nn.LayerNorm(dim) for _ in range(blocks)])
        self.q = nn.ModuleList([nn.Linear(dim, dim) for _ in range(blocks)])
        self.kv = nn.ModuleList([nn.Linear(dim, 2 * dim) for _ in range(blocks)])
        self.o = nn.ModuleList([nn.Linear(dim, dim) for _ in range(blocks)])
        self.ff = nn.ModuleList([nn.Sequential(nn.Conv1d(dim, dim, 1), nn.ReLU(), nn.Conv1d(dim, dim, 1))
                                 for _ in range(blocks)])
        self.last = nn.LayerNorm(dim)

    def forward(self, history, candidates):       # (N, 200), (N, 101) int64
        keep = (history != 0).float().unsqueeze(-1)
        x = (self.items(history) * math.sqrt(self.dim) + self.pos) * keep
        for ln_q, ln_f, wq, wkv, wo, ff in zip(self.ln_q, self.ln_f, self.q, self.kv, self.o, self.ff):
            u = ln_q(x)
            k, v = wkv(x).chunk(2, -1)
            a = torch.softmax(torch.matmul(wq(u), k.transpose(1, 2)) / math.sqrt(self.dim) + self.causal, -1)
            x = ln_f(u + wo(torch.matmul(a, v)))
            x = (x + ff(x.transpose(1, 2)).transpose(1, 2)) * keep
        h = self.last(x)[:, -1:]                                            # (N, 1, D)
        return (self.items(candidates) * h).sum(-1)


class FoldingNetAE(nn.Module):
    """FoldingNet on 1024 points: k-NN (16) by TopK of negative squared
    distances; [xyz, flattened 3x3 local covariance] through 12-64-64-64;
    graph layers (max over the neighbours, Linear) to 128 and 256; a
    global max and a 256-256 MLP to the codeword; two folds (codeword with
    the 24 x 24 grid, then with the first fold) through 256-256-3 MLPs.
    Returns the 576 reconstructed points and the Chamfer distance."""

    def __init__(self, points=1024, k=16, code=256, hidden=256, grid=24):
        super().__init__()
        self.k = k
        self.mlp = nn.Sequential(nn.Linear(12, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(),
                                 nn.Linear(64, 64), nn.ReLU())
        self.g1, self.g2 = nn.Linear(64, 128), nn.Linear(128, code)
        self.code = _mlp(code, code, code)
        c = torch.linspace(-0.3, 0.3, grid)
        gy, gx = torch.meshgrid(c, c, indexing="ij")
        self.register_buffer("grid", torch.stack([gx, gy], -1).reshape(1, grid * grid, 2))
        self.fold1 = nn.Sequential(nn.Linear(code + 2, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(),
                                   nn.Linear(hidden, 3))
        self.fold2 = nn.Sequential(nn.Linear(code + 3, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(),
                                   nn.Linear(hidden, 3))

    def _neighbours(self, f, idx):
        p, c = idx.shape[1], f.shape[2]
        g = torch.gather(f, 1, idx.reshape(-1, p * self.k, 1).expand(-1, -1, c))
        return g.reshape(-1, p, self.k, c)

    def forward(self, cloud):                     # (N, 1024, 3)
        sq = (cloud * cloud).sum(-1)
        d = sq.unsqueeze(2) + sq.unsqueeze(1) - 2.0 * torch.matmul(cloud, cloud.transpose(1, 2))
        idx = torch.topk(-d, self.k, -1)[1]                                 # (N, P, k)
        nb = self._neighbours(cloud, idx)
        nb = nb - nb.mean(2, keepdim=True)
        cov = torch.matmul(nb.transpose(2, 3), nb).flatten(2) / self.k     # (N, P, 9)
        x = self.mlp(torch.cat([cloud, cov], -1))
        x = F.relu(self.g1(self._neighbours(x, idx).amax(2)))
        x = self.g2(self._neighbours(x, idx).amax(2))
        code = self.code(x.amax(1)).unsqueeze(1)                            # (N, 1, C)
        rep = code.expand(-1, self.grid.shape[1], -1)
        f1 = self.fold1(torch.cat([rep, self.grid.expand(code.shape[0], -1, -1)], -1))
        f2 = self.fold2(torch.cat([rep, f1], -1))                            # (N, M, 3)
        dd = ((f2.unsqueeze(2) - cloud.unsqueeze(1)) ** 2).sum(-1)          # (N, M, P)
        chamfer = dd.amin(2).mean(1) + dd.amin(1).mean(1)
        return f2, chamfer


class _MovingAverage(nn.Module):
    """Trend by a moving average of odd width k over the (N, L, C) series
    padded by repeating its end values."""

    def __init__(self, k):
        super().__init__()
        self.half = (k - 1) // 2
        self.pool = nn.AvgPool1d(k, 1)

    def forward(self, x):
        h = self.half
        xp = torch.cat([x[:, :1].repeat(1, h, 1), x, x[:, -1:].repeat(1, h, 1)], 1)
        return self.pool(xp.transpose(1, 2)).transpose(1, 2)


class _MIC(nn.Module):
    """One MIC layer over (N, L, D): per scale, the seasonal part of a
    moving-average decomposition goes through a strided Conv1d (kernel =
    stride = k, tanh), an isometric Conv1d over the result left-padded
    with zeros (tanh), LN with the strided output, a ConvTranspose1d back
    up (tanh), truncation and LN with the input; the scales merged by a
    (scales x 1) Conv2d; LN; a kernel-1 Conv1d feed-forward; LN."""

    def __init__(self, dim, length, kernels=(12, 16)):
        super().__init__()
        self.length = length
        self.decomp = nn.ModuleList([_MovingAverage(k + 1) for k in kernels])
        self.down = nn.ModuleList([nn.Conv1d(dim, dim, k, k, k // 2) for k in kernels])
        self.iso = nn.ModuleList([nn.Conv1d(dim, dim, (length + k) // k) for k in kernels])
        self.up = nn.ModuleList([nn.ConvTranspose1d(dim, dim, k, k) for k in kernels])
        self.norm = nn.LayerNorm(dim)
        self.merge = nn.Conv2d(dim, dim, (len(kernels), 1))
        self.ff = nn.Sequential(nn.Conv1d(dim, 4 * dim, 1), nn.Conv1d(4 * dim, dim, 1))
        self.n1, self.n2 = nn.LayerNorm(dim), nn.LayerNorm(dim)

    def forward(self, x):
        branches = []
        for decomp, down, iso, up in zip(self.decomp, self.down, self.iso, self.up):
            s = x - decomp(x)
            y1 = torch.tanh(down(s.transpose(1, 2)))                        # (N, D, L')
            y = torch.tanh(iso(torch.cat([torch.zeros_like(y1[:, :, 1:]), y1], 2)))
            y = self.norm((y + y1).transpose(1, 2)).transpose(1, 2)
            y = torch.tanh(up(y))[:, :, :self.length]
            branches.append(self.norm(y.transpose(1, 2) + s))
        m = torch.stack(branches, 1).permute(0, 3, 1, 2)                    # (N, D, scales, L)
        m = self.merge(m).squeeze(2).transpose(1, 2)                        # (N, L, D)
        y = self.ff(self.n1(m).transpose(1, 2)).transpose(1, 2)
        return self.n2(m + y)


class MICNForecast(nn.Module):
    """MICN: 96 steps of 7 series; the trend is the mean of moving
    averages of widths 13 and 17, regressed to the 96 future steps by a
    Linear over time; the seasonal part (with 96 zeros appended) embedded
    by a circular kernel-3 Conv1d (128) plus sinusoid positions, two MIC
    layers (kernels 12 and 16), a Linear to the series; the last 96 steps
    plus the regressed trend."""

    def __init__(self, series=7, dim=128, length=96, pred=96, layers=2, kernels=(12, 16)):
        super().__init__()
        self.pred = pred
        self.decomp = nn.ModuleList([_MovingAverage(k + 1) for k in kernels])
        self.regress = nn.Linear(length, pred)
        self.token = nn.Conv1d(series, dim, 3, bias=False)
        self.register_buffer("pe", _sinusoid(length + pred, dim).unsqueeze(0))
        self.mic = nn.Sequential(*[_MIC(dim, length + pred, kernels) for _ in range(layers)])
        self.proj = nn.Linear(dim, series)

    def forward(self, series):                    # (N, 96, 7)
        trend = torch.stack([m(series) for m in self.decomp], 0).mean(0)
        seasonal = series - trend
        trend = self.regress(trend.transpose(1, 2)).transpose(1, 2)         # (N, 96, 7)
        s = torch.cat([seasonal, torch.zeros_like(seasonal[:, :self.pred])], 1).transpose(1, 2)
        s = torch.cat([s[:, :, -1:], s, s[:, :, :1]], 2)
        x = self.token(s).transpose(1, 2) + self.pe
        y = self.proj(self.mic(x))
        return y[:, -self.pred:] + trend


BLIND29 = {
    "smith_waterman_align": dict(ctor=SmithWatermanAlign, family="local-alignment-dynamic-programming",
                                 inputs=[("query", ("N", 48), "int64", 21),
                                         ("targets", ("N", 8, 64), "int64", 21)]),
    "jump_flood_voronoi": dict(ctor=JumpFloodVoronoi, family="jump-flooding-voronoi-distance",
                               inputs=[("image", ("N", 3, 64, 64), "float32", None)]),
    "seam_carving": dict(ctor=SeamCarving, family="seam-carving-content-aware-resize",
                         inputs=[("image", ("N", 3, 40, 64), "float32", None)]),
    "crepe_pitch": dict(ctor=CREPEPitch, family="tall-kernel-pitch-salience-cnn",
                        inputs=[("audio", ("N", 1024), "float32", None)]),
    "xcit_nano": dict(ctor=XCiTNano, family="cross-covariance-channel-attention",
                      inputs=[("image", ("N", 3, 160, 160), "float32", None)]),
    "cornernet_det": dict(ctor=CornerNetDet, family="corner-pooling-keypoint-detection",
                          inputs=[("image", ("N", 3, 96, 96), "float32", None)]),
    "enet_seg": dict(ctor=ENetSeg, family="max-unpooling-asymmetric-bottleneck-seg",
                     inputs=[("image", ("N", 3, 160, 160), "float32", None)]),
    "stgcn_skeleton": dict(ctor=STGCNSkeleton, family="spatial-temporal-skeleton-graph-conv",
                           inputs=[("skeleton", ("N", 3, 32, 25), "float32", None)]),
    "qanet_reader": dict(ctor=QANetReader, family="conv-attention-reading-comprehension",
                         inputs=[("context", ("N", 192), "int64", 8000),
                                 ("question", ("N", 32), "int64", 8000)]),
    "sasrec_next_item": dict(ctor=SASRecNextItem, family="causal-self-attentive-sequential-rec",
                             inputs=[("history", ("N", 200), "int64", 5000),
                                     ("candidates", ("N", 101), "int64", 5000)]),
    "foldingnet_ae": dict(ctor=FoldingNetAE, family="grid-folding-point-autoencoder",
                          inputs=[("cloud", ("N", 1024, 3), "float32", None)]),
    "micn_forecast": dict(ctor=MICNForecast, family="isometric-conv-multiscale-forecast",
                          inputs=[("series", ("N", 96, 7), "float32", None)]),
}
