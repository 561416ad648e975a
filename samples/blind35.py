r"""BLIND35: the thirty-fifth blind set, written on 2026-12-07 by a helper
session before any of it was measured.  Nothing in it has been timed,
profiled or run through onnxcost predict; it is to be measured first and
scored once only, at the end, with the code as it stands then
(bench/zoo_accuracy.py --set blind35).  None of its twelve families occurs
in another set (ZOO, BLIND, BLIND2 ... BLIND34, the reference models), so
no plan rule, feature, fit or calibration can have been made with any of
them in view.

Three families unroll a classical procedure into a fixed graph of small
kernels (several hundred to about two thousand nodes each, Constants
included), each with a small learned part:

  * Least-squares Monte Carlo pricing of an American put (F. A. Longstaff
    & E. S. Schwartz, "Valuing American Options by Simulation: A Simple
    Least-Squares Approach", 2001): an MLP maps a vector of market
    features to the spot, volatility, rate and maturity; 256 geometric
    Brownian paths (fixed antithetic normals, one CumSum) over 24
    exercise dates; then backward induction over the 23 inner dates, at
    each a weighted least-squares regression of the discounted cash
    flows of the in-the-money paths on a quadratic basis (a batched
    MatMul Gram matrix, the 3 x 3 system solved in closed form by cross
    products and a determinant), the continuation value, and the
    exercise decision blended into the cash flows.  The price, the early
    exercise premium over the European price and the exercise frequency
    of every date come out.
  * The Kaczmarz method / algebraic reconstruction technique for
    tomography (S. Kaczmarz, "Angenaeherte Aufloesung von Systemen
    linearer Gleichungen", 1937; R. Gordon, R. Bender & G. T. Herman,
    "Algebraic Reconstruction Techniques (ART) for Three-Dimensional
    Electron Microscopy and X-ray Photography", 1970): a parallel-beam
    sinogram of 8 angles x 14 detector bins is denoised by a small
    residual Conv net, and a 16 x 16 image is reconstructed by two
    relaxed sweeps over the 112 rays, one ray at a time (an inner
    product with the ray's row of the system matrix, the residual, a
    scaled update of all 256 pixels), with a non-negativity clamp after
    each sweep; a residual Conv net refines the image (as FBPConvNet,
    Jin, McCann, Froustey & Unser, 2017).  The image and the data
    misfit come out.
  * 2-opt local search for the travelling salesman problem (G. A. Croes,
    "A Method for Solving Traveling-Salesman Problems", 1958): a
    Deep-Sets style MLP scores 24 cities and their order (TopK of all
    scores) is the initial tour; 18 best-improvement 2-opt moves follow,
    in each of which the tour-ordered pairwise distances (MatMul), the
    gain of every segment reversal (shifted copies of the distance
    matrix), the best move (ArgMin over the 576 pairs, OneHot) and the
    reversal itself (an index arithmetic and two GatherElements) are
    computed.  The tour, its initial and final length come out.

The other nine are published network designs of ordinary sizes:

  * Segment Anything (Kirillov, Mintun, Ravi, Mao, Rolland, Gustafson,
    Xiao, Whitehead, Berg, Lo, Dollar & Girshick, "Segment Anything",
    2023), scaled down: a ViT image encoder (patch 8 on 128 x 128, four
    global-attention blocks of 128) with the Conv/LayerNorm2d neck, the
    prompt encoder (random Fourier positional encoding of four points
    and a padding point, label embeddings), and the mask decoder: a
    two-way transformer of two layers (token self-attention,
    token-to-image and image-to-token cross-attention at half width),
    two ConvTranspose upscalings to 64 x 64, per-token hypernetwork
    MLPs and the IoU head.
  * Deep Guided Filter (Wu, Zheng, Zhang & Huang, "Fast End-to-End
    Trainable Guided Filter", 2018), the ConvGuidedFilter with a
    learned guidance map: a 256 x 256 image is downsampled by 4, a
    context aggregation network of dilated convolutions with adaptive
    normalisation (Chen, Xu & Koltun, "Fast Image Processing with
    Fully-Convolutional Networks", 2017) processes it, and the guided
    filter (depthwise box filters, 1 x 1 Convs for A, b) is upsampled
    bilinearly and applied to the full-resolution guidance.
  * FullSubNet (Hao, Su, Horaud & Li, "FullSubNet: A Full-Band and
    Sub-Band Fusion Model for Real-Time Single-Channel Speech
    Enhancement", 2021): a full-band LSTM over a 65-bin magnitude
    spectrogram of 32 frames, and a sub-band LSTM run on every frequency
    separately (the batch times 65 sequences) over the bin, its 6
    reflect-padded neighbours and the full-band output; a complex ideal
    ratio mask.
  * ColBERT (Khattab & Zaharia, "ColBERT: Efficient and Effective
    Passage Search via Contextualized Late Interaction over BERT",
    2020) re-ranking: a shared BERT-style encoder (3 layers of 256,
    4 heads) with query and document marker tokens over a 32-token query
    and a 96-token passage, Linear projection to 128, L2 normalisation,
    and the MaxSim late interaction.
  * GraphRNN (You, Ying, Ren, Hamilton & Leskovec, "GraphRNN:
    Generating Realistic Graphs with Deep Auto-regressive Models",
    2018), conditional: a graph-level GRU (2 layers of 128) over 12
    nodes and an edge-level GRU (one layer of 16) over each node's BFS
    band of up to 5 previous nodes, edges sampled against given uniform
    noise, unrolled (11 node and 45 edge steps); the dense adjacency by a
    constant MatMul.
  * Deep Potential, smooth edition (Zhang, Han, Wang, Saidi, Car & E,
    "End-to-end Symmetry Preserving Inter-atomic Potential Energy Model
    for Finite and Extended Systems", 2018): 48 atoms of 2 types, the
    smooth 1/r environment matrix with a cosine switch, the embedding
    net (25, 50, 100, tanh, ResNet doubling) of every atom pair, the
    symmetric descriptor G^T R R^T G< (batched MatMuls), the fitting net
    (240 x 3) of every atom and the total energy.
  * Decision Transformer (Chen, Lu, Rajeswaran, Lee, Grover, Laskin,
    Abbeel, Srinivas & Mordatch, "Decision Transformer: Reinforcement
    Learning via Sequence Modeling", 2021): returns-to-go, states (17)
    and actions (6) of 20 steps embedded with timestep embeddings,
    interleaved into 60 tokens, three causal GPT-2 blocks of 128 with
    one head, action, state and return predictions.
  * PLE (Tang, Liu, Zhao & Gong, "Progressive Layered Extraction (PLE):
    A Novel Multi-Task Learning (MTL) Model for Personalized
    Recommendations", 2020): 24 categorical fields (one hashed table) and
    8 numeric features, two extraction levels of customized gate
    control (2 task-specific experts per task and 2 shared ones, softmax
    gates), CTR and CVR towers.
  * DeepFill v2 (Yu, Lin, Yang, Shen, Lu & Huang, "Free-Form Image
    Inpainting with Gated Convolution", 2019) with contextual attention
    (Yu, Lin, Yang, Shen, Lu & Huang, "Generative Image Inpainting with
    Contextual Attention", 2018): a coarse gated-Conv network (ELU
    features times sigmoid gates, dilations 2 to 16) and a refinement
    network of a dilated branch and a contextual attention branch
    (3 x 3 background patches of a 16 x 16 map matched to every position
    by MatMul, masked softmax, patches pasted back and overlapped) on a
    64 x 64 image and its hole mask.

To be measured with

    OMP_WAIT_POLICY=PASSIVE /usr/bin/python3 scripts/measure_zoo.py --set blind35 \
        lsm_american_put kaczmarz_art_recon two_opt_tour sam_prompt_seg \
        deep_guided_filter fullsubnet_enhance colbert_rerank graphrnn_gen \
        deeppot_se_energy decision_transformer ple_multitask deepfill_v2_inpaint \
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


def _heads(x, heads):
    """(N, L, H d) -> (N, H, L, d)."""
    n_tok = x.shape[1]
    return x.view(-1, n_tok, heads, x.shape[-1] // heads).transpose(1, 2)


def _merge(x):
    """(N, H, L, d) -> (N, L, H d)."""
    return x.transpose(1, 2).reshape(-1, x.shape[2], x.shape[1] * x.shape[3])


class _Attention(nn.Module):
    """Multi-head attention with separate query, key and value inputs and an
    optional inner width (SAM's downsampled cross-attention)."""

    def __init__(self, dim, heads, inner=None, causal_len=0):
        super().__init__()
        inner = inner or dim
        self.heads, self.scale = heads, 1.0 / math.sqrt(inner // heads)
        self.q, self.k, self.v = nn.Linear(dim, inner), nn.Linear(dim, inner), nn.Linear(dim, inner)
        self.o = nn.Linear(inner, dim)
        if causal_len:
            tri = torch.triu(torch.full((causal_len, causal_len), -1.0e4), 1)
            self.register_buffer("mask", tri.view(1, 1, causal_len, causal_len))
        else:
            self.mask = None

    def forward(self, q, k, v):
        q, k, v = _heads(self.q(q), self.heads), _heads(self.k(k), self.heads), _heads(self.v(v), self.heads)
        s = torch.matmul(q, k.transpose(2, 3)) * self.scale
        if self.mask is not None:
            s = s + self.mask
        return self.o(_merge(torch.matmul(torch.softmax(s, -1), v)))


class _Block(nn.Module):
    """Pre-LN transformer block (GELU MLP of 4x)."""

    def __init__(self, dim, heads, causal_len=0):
        super().__init__()
        self.n1, self.n2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.att = _Attention(dim, heads, causal_len=causal_len)
        self.mlp = _mlp((dim, 4 * dim, dim), act=nn.GELU)

    def forward(self, x):
        h = self.n1(x)
        x = x + self.att(h, h, h)
        return x + self.mlp(self.n2(x))


# --------------------------------------------------------------------------
# Unrolled classical procedures with a small learned part
# --------------------------------------------------------------------------

class LSMAmericanPut(nn.Module):
    """Longstaff-Schwartz least-squares Monte Carlo for an American put of
    strike 1: an MLP (8 -> 64 -> 64 -> 4) gives spot, volatility, rate and
    maturity; 256 antithetic geometric Brownian paths over 24 dates; the
    backward induction regresses the discounted cash flows of the
    in-the-money paths on (1, x, x^2), x = 5 (S - 1), solving each 3 x 3
    system by cross products over its determinant, and exercises where
    the payoff beats the fitted continuation value.  Returns the price
    (N, 1), the early exercise premium (N, 1) and the fraction of paths
    exercised at each inner date (N, 23)."""

    def __init__(self, features=8, hidden=64, paths=256, dates=24):
        super().__init__()
        self.dates = dates
        self.mlp = _mlp((features, hidden, hidden, 4))
        g = torch.Generator().manual_seed(35)
        z = torch.randn(paths // 2, dates, generator=g)
        self.register_buffer("walk", torch.cat([z, -z], 0).cumsum(1).unsqueeze(0))     # (1, P, M)
        self.register_buffer("tgrid", torch.arange(1, dates + 1, dtype=torch.float32).view(1, 1, dates))
        self.register_buffer("ridge", (1.0e-4 * torch.eye(3)).unsqueeze(0))
        self.register_buffer("i12", torch.tensor([1, 2, 0]))
        self.register_buffer("i20", torch.tensor([2, 0, 1]))

    def _cross(self, u, v):                       # (N, 3) each
        return u[:, self.i12] * v[:, self.i20] - u[:, self.i20] * v[:, self.i12]

    def forward(self, market):                    # (N, 8)
        p = self.mlp(market)
        s0 = torch.exp(0.15 * torch.tanh(p[:, 0:1]))                        # (N, 1)
        sigma = 0.1 + 0.4 * torch.sigmoid(p[:, 1:2])
        rate = 0.01 + 0.07 * torch.sigmoid(p[:, 2:3])
        mat = 0.25 + 1.75 * torch.sigmoid(p[:, 3:4])
        dt = mat / self.dates
        drift = ((rate - 0.5 * sigma * sigma) * dt).unsqueeze(-1)           # (N, 1, 1)
        vol = (sigma * torch.sqrt(dt)).unsqueeze(-1)
        spot = torch.exp(torch.log(s0).unsqueeze(-1) + drift * self.tgrid + vol * self.walk)   # (N, P, M)
        pay = F.relu(1.0 - spot)
        disc = torch.exp(-rate * dt)                                        # (N, 1)
        npaths = spot.shape[1]
        cash = pay[:, :, -1]
        freq = []
        for t in range(self.dates - 2, -1, -1):
            cash = cash * disc
            x = 5.0 * (spot[:, :, t] - 1.0)
            h = pay[:, :, t]
            itm = (h > 0).to(x.dtype)
            basis = torch.stack([torch.ones_like(x), x, x * x], 1)          # (N, 3, P)
            wb = basis * itm.unsqueeze(1)
            gram = torch.matmul(wb, basis.transpose(1, 2)) / npaths + self.ridge
            rhs = torch.matmul(wb, cash.unsqueeze(-1)) / npaths              # (N, 3, 1)
            a0, a1, a2 = gram[:, :, 0], gram[:, :, 1], gram[:, :, 2]
            c12, c20, c01 = self._cross(a1, a2), self._cross(a2, a0), self._cross(a0, a1)
            det = (a0 * c12).sum(1, keepdim=True).unsqueeze(-1)
            coef = torch.matmul(torch.stack([c12, c20, c01], 1) / det, rhs)  # (N, 3, 1)
            cont = torch.matmul(coef.transpose(1, 2), basis).squeeze(1)     # (N, P)
            ex = itm * (h > cont).to(x.dtype)
            cash = ex * h + (1.0 - ex) * cash
            freq.append(ex.mean(1, keepdim=True))
        price = torch.max(disc * cash.mean(1, keepdim=True), F.relu(1.0 - s0))
        euro = torch.exp(-rate * mat) * pay[:, :, -1].mean(1, keepdim=True)
        return price, price - euro, torch.cat(freq[::-1], 1)


class KaczmarzARTRecon(nn.Module):
    """Kaczmarz / ART reconstruction of a 16 x 16 image from a parallel
    beam sinogram of 8 angles x 14 bins (system matrix by bilinear
    splatting of 93 samples along each ray): a residual Conv net (16
    channels) denoises the sinogram, two sweeps over the 112 rays (angles
    interleaved, relaxation 1 then 0.5) update the image one ray at a
    time, non-negativity after each sweep, and a residual Conv net (32
    channels) refines it.  Returns the image (N, 1, 16, 16) and the RMS
    data misfit (N, 1)."""

    def __init__(self, size=16, angles=8, bins=14, sweeps=2, relax=(1.0, 0.5)):
        super().__init__()
        self.size, self.sweeps, self.relax = size, sweeps, relax
        a_mat = self._system(size, angles, bins)                            # (R, D)
        order = [b * angles + a for b in range(bins) for a in (0, 4, 2, 6, 1, 5, 3, 7)[:angles]]
        a_ord = a_mat[order]
        self.register_buffer("order", torch.tensor(order))
        self.register_buffer("a_cols", a_ord.t().contiguous())              # (D, R)
        self.register_buffer("a_rows", a_ord / (a_ord * a_ord).sum(1, keepdim=True))   # (R, D)
        self.register_buffer("a_t", a_mat.t().contiguous())
        self.den = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(),
                                 nn.Conv2d(16, 16, 3, padding=1), nn.ReLU(),
                                 nn.Conv2d(16, 1, 3, padding=1))
        self.ref = nn.Sequential(nn.Conv2d(1, 32, 3, padding=1), nn.ReLU(),
                                 nn.Conv2d(32, 32, 3, padding=1), nn.ReLU(),
                                 nn.Conv2d(32, 1, 3, padding=1))

    @staticmethod
    def _system(size, angles, bins):
        half = (size - 1) / 2.0
        theta = torch.arange(angles, dtype=torch.float64) * math.pi / angles
        s = (torch.arange(bins, dtype=torch.float64) - (bins - 1) / 2.0) * 0.95 * size / bins
        t = torch.arange(-46, 47, dtype=torch.float64) * 0.25
        c, sn = torch.cos(theta).view(-1, 1, 1), torch.sin(theta).view(-1, 1, 1)
        px = s.view(1, -1, 1) * c - t.view(1, 1, -1) * sn + half                 # (A, B, T)
        py = s.view(1, -1, 1) * sn + t.view(1, 1, -1) * c + half
        rays = torch.arange(angles * bins).view(angles, bins, 1).expand_as(px)
        a_mat = torch.zeros(angles * bins, size * size, dtype=torch.float64)
        x0, y0 = torch.floor(px), torch.floor(py)
        for dx in (0, 1):
            for dy in (0, 1):
                xi, yi = x0 + dx, y0 + dy
                w = (1.0 - (px - xi).abs()) * (1.0 - (py - yi).abs()) * 0.25
                ok = (xi >= 0) & (xi < size) & (yi >= 0) & (yi < size)
                idx = (yi * size + xi).long()
                a_mat.index_put_((rays[ok], idx[ok]), w[ok], accumulate=True)
        return a_mat.float()

    def forward(self, sino):                      # (N, 8, 14)
        s = sino.unsqueeze(1)
        b = (s + self.den(s)).flatten(1)                                    # (N, R), angle-major
        bo = b[:, self.order]
        rows = self.a_rows.shape[0]
        x = None
        for sweep in range(self.sweeps):
            lam = self.relax[sweep]
            for i in range(rows):
                if x is None:
                    x = lam * bo[:, 0:1] * self.a_rows[0:1]
                    continue
                r = bo[:, i:i + 1] - torch.matmul(x, self.a_cols[:, i:i + 1])
                x = x + (lam * r) * self.a_rows[i:i + 1]
            x = F.relu(x)
        img = x.view(-1, 1, self.size, self.size)
        img = img + self.ref(img)
        misfit = torch.matmul(img.flatten(1), self.a_t) - b
        return img, torch.sqrt((misfit * misfit).mean(1, keepdim=True))


class TwoOptTour(nn.Module):
    """2-opt best-improvement local search on 24 cities: a Deep-Sets MLP
    (per city 2 -> 64 -> 64, mean context, 128 -> 64 -> 1) scores the
    cities and their descending order is the initial tour; 18 moves, each
    computing the tour-ordered distances, the gain d(i,j) + d(i+1,j+1) -
    d(i,i+1) - d(j,j+1) of every valid pair, the best (ArgMin, OneHot)
    and, where it gains, the reversal of positions i+1 ... j by
    GatherElements.  Returns the tour as float positions (N, 24), the
    initial and final lengths (N, 1) each."""

    def __init__(self, cities=24, hidden=64, moves=18):
        super().__init__()
        self.n, self.moves = cities, moves
        self.phi = _mlp((2, hidden, hidden), last_act=True)
        self.score = _mlp((2 * hidden, hidden, 1))
        n = cities
        ii = torch.arange(n).view(n, 1)
        jj = torch.arange(n).view(1, n)
        valid = (jj >= ii + 2) & ~((ii == 0) & (jj == n - 1))
        self.register_buffer("penalty", ((~valid).float() * 1.0e4).unsqueeze(0))
        self.register_buffer("ar", torch.arange(n, dtype=torch.float32).view(1, n))

    @staticmethod
    def _dist(p, q):
        sq = (p * p).sum(-1, keepdim=True) + (q * q).sum(-1).unsqueeze(1) - 2.0 * torch.matmul(p, q.transpose(1, 2))
        return torch.sqrt(F.relu(sq) + 1.0e-9)

    @staticmethod
    def _length(pts):
        nxt = torch.cat([pts[:, 1:], pts[:, :1]], 1)
        return torch.sqrt(((pts - nxt) ** 2).sum(-1) + 1.0e-9)

    def forward(self, cities):                    # (N, 24, 2)
        n = self.n
        h = self.phi(cities)
        ctx = h.mean(1, keepdim=True).expand(-1, n, -1)
        sc = self.score(torch.cat([h, ctx], -1)).squeeze(-1)                # (N, n)
        tour = sc.topk(n, 1).indices
        pts = torch.gather(cities, 1, tour.unsqueeze(-1).expand(-1, -1, 2))
        first = self._length(pts).sum(1, keepdim=True)
        for _ in range(self.moves):
            d = self._dist(pts, pts)                                        # (N, n, n)
            dn = torch.cat([d[:, 1:], d[:, :1]], 1)
            dn = torch.cat([dn[:, :, 1:], dn[:, :, :1]], 2)
            e = self._length(pts)                                           # (N, n)
            gain = d + dn - e.unsqueeze(2) - e.unsqueeze(1) + self.penalty
            flat = gain.flatten(1)
            best = flat.min(1, keepdim=True).values
            oh = F.one_hot(flat.argmin(1), n * n).to(pts.dtype).view(-1, n, n)
            i = (oh.sum(2) * self.ar).sum(1, keepdim=True)
            j = (oh.sum(1) * self.ar).sum(1, keepdim=True)
            go = (best < -1.0e-6).to(pts.dtype)
            inside = (self.ar >= i + 1.0).to(pts.dtype) * (self.ar <= j).to(pts.dtype)
            src = (self.ar + go * inside * (i + 1.0 + j - 2.0 * self.ar) + 0.5).long()
            pts = torch.gather(pts, 1, src.unsqueeze(-1).expand(-1, -1, 2))
            tour = torch.gather(tour, 1, src)
        return tour.to(cities.dtype), first, self._length(pts).sum(1, keepdim=True)


# --------------------------------------------------------------------------
# Published network designs
# --------------------------------------------------------------------------

class _LayerNorm2d(nn.Module):
    """LayerNorm over the channels of an (N, C, H, W) map (SAM, ConvNeXt)."""

    def __init__(self, ch, eps=1.0e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(1, ch, 1, 1))
        self.bias = nn.Parameter(torch.zeros(1, ch, 1, 1))
        self.eps = eps

    def forward(self, x):
        u = x.mean(1, keepdim=True)
        s = ((x - u) ** 2).mean(1, keepdim=True)
        return (x - u) / torch.sqrt(s + self.eps) * self.weight + self.bias


class _TwoWayLayer(nn.Module):
    """SAM two-way attention block: token self-attention, token-to-image
    cross-attention, token MLP, image-to-token cross-attention."""

    def __init__(self, dim, heads, mlp, skip_pe):
        super().__init__()
        self.skip_pe = skip_pe
        self.self_att = _Attention(dim, heads)
        self.t2i = _Attention(dim, heads, dim // 2)
        self.i2t = _Attention(dim, heads, dim // 2)
        self.mlp = _mlp((dim, mlp, dim))
        self.norms = nn.ModuleList(nn.LayerNorm(dim) for _ in range(4))

    def forward(self, queries, keys, qpe, kpe):
        if self.skip_pe:
            queries = self.self_att(queries, queries, queries)
        else:
            q = queries + qpe
            queries = queries + self.self_att(q, q, queries)
        queries = self.norms[0](queries)
        q, k = queries + qpe, keys + kpe
        queries = self.norms[1](queries + self.t2i(q, k, keys))
        queries = self.norms[2](queries + self.mlp(queries))
        q, k = queries + qpe, keys + kpe
        keys = self.norms[3](keys + self.i2t(k, q, queries))
        return queries, keys


class SAMPromptSeg(nn.Module):
    """Segment Anything, small: ViT encoder (patch 8 of 128 x 128, 256
    tokens of 128, four blocks of 4 heads), neck (1 x 1 and 3 x 3 Convs
    with LayerNorm2d), prompt encoder (Gaussian random Fourier features of
    4 points, first three foreground and the last background, plus a
    padding point), mask decoder (IoU token and 4 mask tokens, two
    two-way layers, final token-to-image attention, ConvTranspose x 2 to
    64 x 64, hypernetwork MLPs, IoU MLP).  Returns the mask logits
    (N, 4, 64, 64) and the predicted IoUs (N, 4)."""

    def __init__(self, image=128, patch=8, dim=128, depth=4, heads=4, masks=4):
        super().__init__()
        g = image // patch
        self.grid, self.dim, self.masks = g, dim, masks
        self.patch = nn.Conv2d(3, dim, patch, patch)
        self.pos = nn.Parameter(torch.randn(1, g * g, dim) * 0.02)
        self.blocks = nn.ModuleList(_Block(dim, heads) for _ in range(depth))
        self.neck = nn.Sequential(nn.Conv2d(dim, dim, 1, bias=False), _LayerNorm2d(dim),
                                  nn.Conv2d(dim, dim, 3, padding=1, bias=False), _LayerNorm2d(dim))
        gen = torch.Generator().manual_seed(35)
        self.register_buffer("gauss", torch.randn(2, dim // 2, generator=gen))
        cen = (torch.arange(g, dtype=torch.float32) + 0.5) / g
        yy, xx = torch.meshgrid(cen, cen, indexing="ij")
        dense = self._pe(torch.stack([xx, yy], -1).view(1, g * g, 2))
        self.register_buffer("dense_pe", dense)                              # (1, HW, C)
        self.register_buffer("labels", torch.tensor([1, 1, 1, 0]))
        self.label_emb = nn.Embedding(2, dim)
        self.pad_point = nn.Parameter(torch.randn(1, 1, dim) * 0.02)
        self.no_mask = nn.Parameter(torch.randn(1, dim, 1, 1) * 0.02)
        self.out_tokens = nn.Parameter(torch.randn(1, 1 + masks, dim) * 0.02)
        self.layers = nn.ModuleList(_TwoWayLayer(dim, heads, 4 * dim, i == 0) for i in range(2))
        self.final = _Attention(dim, heads, dim // 2)
        self.final_norm = nn.LayerNorm(dim)
        self.up1 = nn.ConvTranspose2d(dim, dim // 4, 2, 2)
        self.up_norm = _LayerNorm2d(dim // 4)
        self.up2 = nn.ConvTranspose2d(dim // 4, dim // 8, 2, 2)
        self.hyper = nn.ModuleList(_mlp((dim, dim, dim, dim // 8)) for _ in range(masks))
        self.iou = _mlp((dim, 256, 256, masks))

    def _pe(self, coords):                        # (., L, 2) in [0, 1]
        proj = torch.matmul(2.0 * coords - 1.0, self.gauss) * (2.0 * math.pi)
        return torch.cat([torch.sin(proj), torch.cos(proj)], -1)

    def forward(self, image, points):             # (N, 3, 128, 128), (N, 4, 2)
        g, dim = self.grid, self.dim
        x = self.patch(image).flatten(2).transpose(1, 2) + self.pos
        for blk in self.blocks:
            x = blk(x)
        emb = self.neck(x.transpose(1, 2).reshape(-1, dim, g, g)) + self.no_mask
        sparse = self._pe(torch.sigmoid(points)) + self.label_emb(self.labels).unsqueeze(0)
        sparse = torch.cat([sparse, self.pad_point.expand(sparse.shape[0], -1, -1)], 1)
        tokens = torch.cat([self.out_tokens.expand(sparse.shape[0], -1, -1), sparse], 1)
        keys = emb.flatten(2).transpose(1, 2)                               # (N, HW, C)
        queries = tokens
        for layer in self.layers:
            queries, keys = layer(queries, keys, tokens, self.dense_pe)
        q, k = queries + tokens, keys + self.dense_pe
        queries = self.final_norm(queries + self.final(q, k, keys))
        up = keys.transpose(1, 2).reshape(-1, dim, g, g)
        up = F.gelu(self.up2(F.gelu(self.up_norm(self.up1(up)))))         # (N, C/8, 4g, 4g)
        hyp = torch.stack([m(queries[:, 1 + i]) for i, m in enumerate(self.hyper)], 1)   # (N, M, C/8)
        side = 4 * g
        masks = torch.matmul(hyp, up.flatten(2)).view(-1, self.masks, side, side)
        return masks, self.iou(queries[:, 0])


class _AdaptiveNorm(nn.Module):
    """w0 x + w1 BatchNorm(x) (Chen, Xu & Koltun's adaptive normalisation)."""

    def __init__(self, ch):
        super().__init__()
        self.w0 = nn.Parameter(torch.tensor(1.0))
        self.w1 = nn.Parameter(torch.tensor(0.0))
        self.bn = nn.BatchNorm2d(ch, momentum=0.999, eps=1.0e-3)

    def forward(self, x):
        return self.w0 * x + self.w1 * self.bn(x)


class DeepGuidedFilter(nn.Module):
    """Deep Guided Filter (ConvGuidedFilter, learned guidance map) on a 256
    x 256 image: average pooling by 4 to 64 x 64, a context aggregation
    network (24 channels, dilations 1, 2, 4, 8, 16, 1, adaptive norm,
    LeakyReLU, 1 x 1 to 3), a guidance map net (1 x 1 Convs 3 -> 15 -> 3)
    on both resolutions, the guided filter at low resolution (depthwise 3
    x 3 box filters, A from 1 x 1 Convs over covariance and variance, b
    from the means), A and b upsampled bilinearly and applied to the
    full-resolution guidance.  Returns the output image (N, 3, 256, 256)
    and the low-resolution result (N, 3, 64, 64)."""

    def __init__(self, factor=4, width=24, dilations=(1, 2, 4, 8, 16, 1)):
        super().__init__()
        self.factor = factor
        layers, cin = [], 3
        for d in dilations:
            layers += [nn.Conv2d(cin, width, 3, padding=d, dilation=d, bias=False),
                       _AdaptiveNorm(width), nn.LeakyReLU(0.2)]
            cin = width
        layers.append(nn.Conv2d(width, 3, 1))
        self.can = nn.Sequential(*layers)
        self.guide = nn.Sequential(nn.Conv2d(3, 15, 1, bias=False), _AdaptiveNorm(15), nn.LeakyReLU(0.2),
                                   nn.Conv2d(15, 3, 1))
        self.box = nn.Conv2d(3, 3, 3, padding=1, bias=False, groups=3)
        with torch.no_grad():
            self.box.weight.fill_(1.0 / 9.0)
        self.conv_a = nn.Sequential(nn.Conv2d(6, 32, 1, bias=False), _AdaptiveNorm(32), nn.ReLU(),
                                    nn.Conv2d(32, 32, 1, bias=False), _AdaptiveNorm(32), nn.ReLU(),
                                    nn.Conv2d(32, 3, 1, bias=False))

    def forward(self, image):                     # (N, 3, 256, 256)
        lr = F.avg_pool2d(image, self.factor)
        y_lr = self.can(lr)
        x_lr, x_hr = self.guide(lr), self.guide(image)
        cnt = self.box(torch.ones_like(x_lr[:1]))
        mean_x, mean_y = self.box(x_lr) / cnt, self.box(y_lr) / cnt
        cov_xy = self.box(x_lr * y_lr) / cnt - mean_x * mean_y
        var_x = self.box(x_lr * x_lr) / cnt - mean_x * mean_x
        a = self.conv_a(torch.cat([cov_xy, var_x], 1))
        b = mean_y - a * mean_x
        size = image.shape[-2:]
        mean_a = F.interpolate(a, size=size, mode="bilinear", align_corners=True)
        mean_b = F.interpolate(b, size=size, mode="bilinear", align_corners=True)
        return mean_a * x_hr + mean_b, y_lr


class FullSubNetEnhance(nn.Module):
    """FullSubNet on a 65-bin, 32-frame noisy magnitude spectrogram:
    utterance mean normalisation; full-band LSTM (65 -> 2 x 128), Linear
    to 65, ReLU; each bin's sub-band input is itself and 3 neighbours
    either side (reflect padding) plus its full-band output, normalised by
    its mean, through a sub-band LSTM (8 -> 2 x 64) run over the batch
    times 65 sequences, Linear to the complex ideal ratio mask.  Returns
    the mask (N, 2, 65, 32) and the enhanced magnitude (N, 1, 65, 32)."""

    def __init__(self, bins=65, neighbours=3, fb_hidden=128, sb_hidden=64):
        super().__init__()
        self.bins, self.nb = bins, neighbours
        self.fb = nn.LSTM(bins, fb_hidden, 2, batch_first=True)
        self.fb_out = nn.Linear(fb_hidden, bins)
        self.sb = nn.LSTM(2 * neighbours + 2, sb_hidden, 2, batch_first=True)
        self.sb_out = nn.Linear(sb_hidden, 2)

    def forward(self, spec):                      # (N, 1, F, T)
        f, nb = self.bins, self.nb
        mag = spec.abs()
        frames = mag.shape[-1]
        x = mag / (mag.mean((2, 3), keepdim=True) + 1.0e-5)
        fb, _ = self.fb(x[:, 0].transpose(1, 2))                            # (N, T, H)
        fb = F.relu(self.fb_out(fb)).transpose(1, 2).unsqueeze(2)           # (N, F, 1, T)
        xp = F.pad(x, (0, 0, nb, nb), mode="reflect")                       # (N, 1, F + 2 nb, T)
        sub = torch.stack([xp[:, 0, k:k + f] for k in range(2 * nb + 1)], 2)   # (N, F, 2 nb + 1, T)
        sub = torch.cat([sub, fb], 2)
        sub = sub / (sub.mean((2, 3), keepdim=True) + 1.0e-5)
        seq = sub.reshape(-1, 2 * nb + 2, frames).transpose(1, 2)           # (N F, T, 2 nb + 2)
        h, _ = self.sb(seq)
        crm = self.sb_out(h).view(-1, f, frames, 2).permute(0, 3, 1, 2)     # (N, 2, F, T)
        crm = 10.0 * torch.tanh(0.1 * crm)
        gain = torch.sqrt((crm * crm).sum(1, keepdim=True) + 1.0e-8)
        return crm, gain * mag


class ColBERTRerank(nn.Module):
    """ColBERT late interaction: shared post-LN BERT encoder (vocabulary
    8000, 3 layers of 256, 4 heads, FFN 1024, GELU) over [Q] + a 32-token
    query and [D] + a 96-token passage, Linear 256 -> 128 without bias,
    L2 normalisation, MaxSim (each query vector's best passage match,
    summed).  Returns the relevance score (N, 1) and the per-token maxima
    (N, 33)."""

    def __init__(self, vocab=8000, dim=256, layers=3, heads=4, ffn=1024, out=128, max_len=128):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.pos = nn.Parameter(torch.randn(1, max_len, dim) * 0.02)
        self.markers = nn.Parameter(torch.randn(2, 1, dim) * 0.02)
        self.emb_norm = nn.LayerNorm(dim)
        self.att = nn.ModuleList(_Attention(dim, heads) for _ in range(layers))
        self.ffn = nn.ModuleList(_mlp((dim, ffn, dim), act=nn.GELU) for _ in range(layers))
        self.n1 = nn.ModuleList(nn.LayerNorm(dim) for _ in range(layers))
        self.n2 = nn.ModuleList(nn.LayerNorm(dim) for _ in range(layers))
        self.proj = nn.Linear(dim, out, bias=False)

    def _encode(self, ids, marker):
        e = self.tok(ids)
        e = torch.cat([self.markers[marker:marker + 1].expand(e.shape[0], -1, -1), e], 1)
        x = self.emb_norm(e + self.pos[:, :e.shape[1]])
        for att, ffn, n1, n2 in zip(self.att, self.ffn, self.n1, self.n2):
            x = n1(x + att(x, x, x))
            x = n2(x + ffn(x))
        v = self.proj(x)
        return v / torch.sqrt((v * v).sum(-1, keepdim=True) + 1.0e-12)

    def forward(self, query, doc):                # (N, 32), (N, 96) int64
        q, d = self._encode(query, 0), self._encode(doc, 1)
        best = torch.matmul(q, d.transpose(1, 2)).max(-1).values            # (N, 33)
        return best.sum(1, keepdim=True), best


class GraphRNNGen(nn.Module):
    """Conditional GraphRNN: the condition (32) sets the initial state of a
    graph-level GRU (2 layers of 128, input the previous node's band of 5
    edges through Linear 5 -> 64); for each of nodes 1 ... 11 its output
    sets (MLP 128 -> 64 -> 16) the initial state of an edge-level GRU (one
    layer of 16, input the previous edge through Linear 1 -> 16) that
    emits the edges to the min(i, 5) previous nodes in BFS order, each
    sampled as p > u with u = sigmoid(noise).  Returns the dense
    symmetric adjacency (N, 12, 12), the edge probabilities (N, 11, 5)
    and the edge count (N, 1)."""

    def __init__(self, cond=32, nodes=12, band=5, hidden=128, edge_hidden=16):
        super().__init__()
        self.nodes, self.band, self.hidden, self.eh = nodes, band, hidden, edge_hidden
        self.init = nn.Linear(cond, 2 * hidden)
        self.node_in = nn.Sequential(nn.Linear(band, 64), nn.ReLU())
        self.node_rnn = nn.GRU(64, hidden, 2, batch_first=True)
        self.to_edge = nn.Sequential(nn.Linear(hidden, 64), nn.ReLU(), nn.Linear(64, edge_hidden))
        self.edge_in = nn.Sequential(nn.Linear(1, edge_hidden), nn.ReLU())
        self.edge_rnn = nn.GRU(edge_hidden, edge_hidden, 1, batch_first=True)
        self.edge_out = _mlp((edge_hidden, 8, 1))
        scat = torch.zeros((nodes - 1) * band, nodes * nodes)
        for i in range(1, nodes):
            for j in range(min(i, band)):
                k = i - 1 - j
                scat[(i - 1) * band + j, i * nodes + k] = 1.0
                scat[(i - 1) * band + j, k * nodes + i] = 1.0
        self.register_buffer("scatter", scat)

    def forward(self, cond, noise):               # (N, 32), (N, 11, 5)
        u = torch.sigmoid(noise)
        hg = torch.tanh(self.init(cond)).view(-1, 2, self.hidden).transpose(0, 1).contiguous()
        prev = torch.ones_like(u[:, 0])                                     # SOS (N, band)
        rows, probs = [], []
        for i in range(1, self.nodes):
            out, hg = self.node_rnn(self.node_in(prev).unsqueeze(1), hg)
            he = self.to_edge(out[:, 0]).unsqueeze(0)
            e = torch.ones_like(u[:, 0, :1])
            es, ps = [], []
            for j in range(min(i, self.band)):
                o, he = self.edge_rnn(self.edge_in(e).unsqueeze(1), he)
                p = torch.sigmoid(self.edge_out(o[:, 0]))                   # (N, 1)
                e = (p > u[:, i - 1, j:j + 1]).to(p.dtype)
                es.append(e)
                ps.append(p)
            pad = self.band - len(es)
            prev = F.pad(torch.cat(es, 1), (0, pad))
            rows.append(prev)
            probs.append(F.pad(torch.cat(ps, 1), (0, pad)))
        band = torch.stack(rows, 1)                                         # (N, V - 1, band)
        adj = torch.matmul(band.flatten(1), self.scatter).view(-1, self.nodes, self.nodes)
        return adj, torch.stack(probs, 1), band.sum((1, 2)).unsqueeze(1)


class DeepPotSEEnergy(nn.Module):
    """DeepPot-SE on 48 atoms of 2 types (coordinates scaled by 3 A): the
    smooth switched 1/r environment matrix (rcs 2, rc 6) of every pair,
    the embedding net (s and both type one-hots -> 25 -> 50 -> 100,
    tanh, doubling shortcuts), the descriptor (G^T R)(R^T G<) with 16
    columns of G<, the fitting net (1600 + 2 -> 240 -> 240 -> 240 -> 1,
    tanh, residual) and a per-type energy bias.  Returns the total
    energy (N, 1) and the atomic energies (N, 48)."""

    def __init__(self, atoms=48, types=2, rcs=2.0, rc=6.0, emb=(25, 50, 100), axis=16, fit=240):
        super().__init__()
        self.atoms, self.types, self.rcs, self.rc, self.axis = atoms, types, rcs, rc, axis
        self.emb = nn.ModuleList()
        cin = 1 + 2 * types
        for w in emb:
            self.emb.append(nn.Linear(cin, w))
            cin = w
        self.fit_in = nn.Linear(emb[-1] * axis + types, fit)
        self.fit = nn.ModuleList(nn.Linear(fit, fit) for _ in range(2))
        self.fit_out = nn.Linear(fit, 1)
        self.bias = nn.Linear(types, 1, bias=False)
        self.register_buffer("offdiag", (1.0 - torch.eye(atoms)).view(1, atoms, atoms, 1))

    def forward(self, coords, types):             # (N, 48, 3), (N, 48) int64
        a = self.atoms
        pos = 3.0 * coords
        rij = pos.unsqueeze(1) - pos.unsqueeze(2)                           # (N, A, A, 3)
        r = torch.sqrt((rij * rij).sum(-1, keepdim=True) + 1.0e-6)
        u = ((r - self.rcs) / (self.rc - self.rcs)).clamp(0.0, 1.0)
        s = (0.5 * torch.cos(math.pi * u) + 0.5) / r * self.offdiag        # (N, A, A, 1)
        env = torch.cat([s, s * rij / r], -1)                               # (N, A, A, 4)
        oh = F.one_hot(types, self.types).to(coords.dtype)                  # (N, A, T)
        x = torch.cat([s, oh.unsqueeze(1).expand(-1, a, -1, -1), oh.unsqueeze(2).expand(-1, -1, a, -1)], -1)
        for layer in self.emb:
            y = torch.tanh(layer(x))
            if y.shape[-1] == x.shape[-1]:
                y = y + x
            elif y.shape[-1] == 2 * x.shape[-1]:
                y = y + torch.cat([x, x], -1)
            x = y
        t1 = torch.matmul(x.transpose(2, 3), env) / a                       # (N, A, M1, 4)
        desc = torch.matmul(t1, t1[:, :, :self.axis].transpose(2, 3))       # (N, A, M1, M2)
        h = torch.tanh(self.fit_in(torch.cat([desc.flatten(2), oh], -1)))
        for layer in self.fit:
            h = h + torch.tanh(layer(h))
        atomic = (self.fit_out(h) + self.bias(oh)).squeeze(-1)              # (N, A)
        return atomic.sum(1, keepdim=True), atomic


class DecisionTransformer(nn.Module):
    """Decision Transformer: return-to-go (Linear 1 -> 128), state (17 ->
    128) and action (6 -> 128) tokens of 20 steps plus timestep
    embeddings, interleaved (R, s, a) into 60 tokens, LayerNorm, three
    causal GPT-2 blocks of 128 with one head, final LayerNorm; actions
    (tanh) from the state tokens, returns and next states from the action
    tokens.  Returns the actions (N, 20, 6), the returns (N, 20, 1) and
    the states (N, 20, 17)."""

    def __init__(self, state=17, action=6, steps=20, dim=128, layers=3, heads=1, max_ep=1000):
        super().__init__()
        self.steps, self.dim = steps, dim
        self.time = nn.Embedding(max_ep, dim)
        self.register_buffer("t", torch.arange(steps).view(1, steps))
        self.ret = nn.Linear(1, dim)
        self.st = nn.Linear(state, dim)
        self.act = nn.Linear(action, dim)
        self.norm_in = nn.LayerNorm(dim)
        self.blocks = nn.ModuleList(_Block(dim, heads, causal_len=3 * steps) for _ in range(layers))
        self.norm_out = nn.LayerNorm(dim)
        self.pred_a = nn.Linear(dim, action)
        self.pred_r = nn.Linear(dim, 1)
        self.pred_s = nn.Linear(dim, state)

    def forward(self, states, rtg_actions):       # (N, 20, 17), (N, 20, 7)
        te = self.time(self.t)
        r = self.ret(rtg_actions[:, :, :1]) + te
        s = self.st(states) + te
        a = self.act(rtg_actions[:, :, 1:]) + te
        x = self.norm_in(torch.stack([r, s, a], 2).reshape(-1, 3 * self.steps, self.dim))
        for blk in self.blocks:
            x = blk(x)
        x = self.norm_out(x).view(-1, self.steps, 3, self.dim)
        return torch.tanh(self.pred_a(x[:, :, 1])), self.pred_r(x[:, :, 2]), self.pred_s(x[:, :, 2])


class _CGC(nn.Module):
    """Customized gate control: task-specific and shared experts (two-layer
    MLPs), a softmax gate per task over its own and the shared experts,
    and optionally a shared gate over all experts."""

    def __init__(self, cin, sizes, tasks, specific, shared, shared_gate):
        super().__init__()
        self.tasks, self.specific, self.shared = tasks, specific, shared
        n_exp = tasks * specific + shared
        self.experts = nn.ModuleList(_mlp((cin,) + sizes, last_act=True) for _ in range(n_exp))
        self.gates = nn.ModuleList(nn.Linear(cin, specific + shared) for _ in range(tasks))
        self.sgate = nn.Linear(cin, n_exp) if shared_gate else None

    def forward(self, xs):                        # list of tasks' inputs (+ shared input)
        sh_in = xs[-1]
        outs = []
        for t in range(self.tasks):
            for e in range(self.specific):
                outs.append(self.experts[t * self.specific + e](xs[t]))
        for e in range(self.shared):
            outs.append(self.experts[self.tasks * self.specific + e](sh_in))
        shared = outs[self.tasks * self.specific:]
        res = []
        for t in range(self.tasks):
            ex = torch.stack(outs[t * self.specific:(t + 1) * self.specific] + shared, 1)   # (N, E, D)
            w = torch.softmax(self.gates[t](xs[t]), -1).unsqueeze(-1)
            res.append((w * ex).sum(1))
        if self.sgate is not None:
            w = torch.softmax(self.sgate(sh_in), -1).unsqueeze(-1)
            res.append((w * torch.stack(outs, 1)).sum(1))
        return res


class PLEMultiTask(nn.Module):
    """PLE for CTR and CVR: 24 categorical fields (1000 ids each, one table
    with field offsets, 16 dimensions) and 8 numeric features (392 inputs);
    extraction level 1 (experts 392 -> 256 -> 128, two per task and two
    shared, task gates and a shared gate), level 2 (128 -> 128 -> 64, task
    gates); towers 64 -> 64 -> 1.  Returns the CTR (N, 1), the CVR (N, 1)
    and the CTCVR (N, 1)."""

    def __init__(self, fields=24, vocab=1000, numeric=8, dim=16, tasks=2):
        super().__init__()
        self.tasks = tasks
        self.table = nn.Embedding(fields * vocab, dim)
        self.register_buffer("offsets", (torch.arange(fields) * vocab).view(1, fields))
        self.dense_bn = nn.BatchNorm1d(numeric)
        cin = fields * dim + numeric
        self.l1 = _CGC(cin, (256, 128), tasks, 2, 2, True)
        self.l2 = _CGC(128, (128, 64), tasks, 2, 2, False)
        self.towers = nn.ModuleList(_mlp((64, 64, 1)) for _ in range(tasks))

    def forward(self, ids, dense):                # (N, 24) int64, (N, 8)
        x = torch.cat([self.table(ids + self.offsets).flatten(1), self.dense_bn(dense)], 1)
        hs = self.l1([x] * (self.tasks + 1))
        hs = self.l2(hs)
        ctr, cvr = [torch.sigmoid(t(h)) for t, h in zip(self.towers, hs)]
        return ctr, cvr, ctr * cvr


class _GatedConv(nn.Module):
    """DeepFill v2 gated convolution: Conv to 2C, ELU(features) times
    sigmoid(gate); the output layer has no activation."""

    def __init__(self, cin, cout, k=3, stride=1, dilation=1, act=True):
        super().__init__()
        self.act, self.cout = act, cout
        pad = dilation * (k - 1) // 2
        self.conv = nn.Conv2d(cin, cout if not act else 2 * cout, k, stride, pad, dilation)

    def forward(self, x):
        y = self.conv(x)
        if not self.act:
            return y
        return F.elu(y[:, :self.cout]) * torch.sigmoid(y[:, self.cout:])


class _Up(nn.Module):
    """Nearest 2x upsampling and a gated convolution."""

    def __init__(self, cin, cout):
        super().__init__()
        self.conv = _GatedConv(cin, cout)

    def forward(self, x):
        return self.conv(F.interpolate(x, scale_factor=2.0, mode="nearest"))


def _shift9(x):
    """The nine 3 x 3 neighbourhood shifts of a map (zero padding), stacked
    on a new axis 1: (N, C, H, W) -> (N, 9, C, H, W)."""
    h, w = x.shape[-2:]
    xp = F.pad(x, (1, 1, 1, 1))
    return torch.stack([xp[:, :, dy:dy + h, dx:dx + w] for dy in range(3) for dx in range(3)], 1)


class DeepFillV2Inpaint(nn.Module):
    """DeepFill v2 on 64 x 64 images (cnum 12): the input is the masked
    image, ones and the hole mask (mask = input > 1, dilated by a 5 x 5
    max pool); coarse network of gated Convs (5 x 5, down to 16 x 16 with
    48 channels, dilations 2, 4, 8, 16, two up stages, tanh output);
    refinement with a dilated branch and a contextual attention branch
    (3 x 3 patches of the 16 x 16 map normalised as matching kernels,
    scores by MatMul scaled by 10, holes' patches masked out, softmax,
    raw patches pasted back by MatMul and overlapped by nine shifts),
    their concatenation decoded like the coarse one.  Returns the
    inpainted image (N, 3, 64, 64), the coarse result (N, 3, 64, 64) and
    the attention's entropy per position (N, 256)."""

    def __init__(self, cnum=12):
        super().__init__()
        c = cnum

        def encoder(cin):
            return nn.Sequential(_GatedConv(cin, c, 5), _GatedConv(c, 2 * c, 3, 2), _GatedConv(2 * c, 2 * c),
                                 _GatedConv(2 * c, 4 * c, 3, 2), _GatedConv(4 * c, 4 * c))

        def decoder(cin):
            return nn.Sequential(_GatedConv(cin, 4 * c), _GatedConv(4 * c, 4 * c), _Up(4 * c, 2 * c),
                                 _GatedConv(2 * c, 2 * c), _Up(2 * c, c), _GatedConv(c, c // 2),
                                 _GatedConv(c // 2, 3, act=False))

        dil = [_GatedConv(4 * c, 4 * c, dilation=d) for d in (2, 4, 8, 16)]
        self.coarse = nn.Sequential(encoder(5), *dil, decoder(4 * c))
        self.ref_dil = nn.Sequential(encoder(5), *[_GatedConv(4 * c, 4 * c, dilation=d) for d in (2, 4, 8, 16)])
        self.ref_att_enc = nn.Sequential(_GatedConv(5, c, 5), _GatedConv(c, 2 * c, 3, 2), _GatedConv(2 * c, 2 * c),
                                         _GatedConv(2 * c, 4 * c, 3, 2), _GatedConv(4 * c, 4 * c),
                                         _GatedConv(4 * c, 4 * c))
        self.ref_att_dec = nn.Sequential(_GatedConv(4 * c, 4 * c), _GatedConv(4 * c, 4 * c))
        self.ref_dec = decoder(8 * c)

    @staticmethod
    def _contextual(f, mask):                     # (N, C, H, W), (N, 1, H, W)
        h, w = f.shape[-2:]
        ch = f.shape[1]
        pat = _shift9(f).flatten(1, 2).flatten(2)                           # (N, 9 C, HW)
        norm = pat / torch.sqrt((pat * pat).sum(1, keepdim=True) + 1.0e-8).clamp(min=1.0e-4)
        valid = (F.avg_pool2d(mask, 3, 1, 1) < 1.0e-3).to(f.dtype).flatten(2)   # (N, 1, HW)
        score = torch.matmul(pat.transpose(1, 2), norm) * 10.0              # (N, HW q, HW k)
        att = torch.softmax(score + (valid - 1.0) * 1.0e4, -1) * valid
        out = torch.matmul(pat, att.transpose(1, 2)).view(-1, 9, ch, h, w)  # (N, 9, C, H, W)
        acc = 0.0
        for k in range(9):
            dy, dx = k // 3, k % 3
            acc = acc + F.pad(out[:, k], (dx, 2 - dx, dy, 2 - dy))
        ent = -(att * torch.log(att + 1.0e-8)).sum(-1)
        return acc[:, :, 1:h + 1, 1:w + 1] / 9.0, ent

    def forward(self, image, mask):               # (N, 3, 64, 64), (N, 1, 64, 64)
        m = F.max_pool2d((mask > 1.0).to(image.dtype), 5, 1, 2)
        ones = torch.ones_like(m)
        x = image * (1.0 - m)
        coarse = torch.tanh(self.coarse(torch.cat([x, ones, m], 1)))
        y = coarse * m + image * (1.0 - m)
        inp = torch.cat([y, ones, m], 1)
        d = self.ref_dil(inp)
        a = self.ref_att_enc(inp)
        m16 = F.max_pool2d(m, 4)
        a, ent = self._contextual(a, m16)
        a = self.ref_att_dec(a)
        out = torch.tanh(self.ref_dec(torch.cat([d, a], 1)))
        return out * m + image * (1.0 - m), coarse, ent


BLIND35 = {
    "lsm_american_put": dict(ctor=LSMAmericanPut, family="least-squares-monte-carlo-option-pricing",
                             inputs=[("market", ("N", 8), "float32", None)]),
    "kaczmarz_art_recon": dict(ctor=KaczmarzARTRecon, family="kaczmarz-row-action-tomography",
                               inputs=[("sino", ("N", 8, 14), "float32", None)]),
    "two_opt_tour": dict(ctor=TwoOptTour, family="two-opt-tour-local-search",
                         inputs=[("cities", ("N", 24, 2), "float32", None)]),
    "sam_prompt_seg": dict(ctor=SAMPromptSeg, family="promptable-two-way-transformer-mask-decoder",
                           inputs=[("image", ("N", 3, 128, 128), "float32", None),
                                   ("points", ("N", 4, 2), "float32", None)]),
    "deep_guided_filter": dict(ctor=DeepGuidedFilter, family="trainable-guided-filter-upsampling",
                               inputs=[("image", ("N", 3, 256, 256), "float32", None)]),
    "fullsubnet_enhance": dict(ctor=FullSubNetEnhance, family="full-band-sub-band-fusion-enhancement",
                               inputs=[("spec", ("N", 1, 65, 32), "float32", None)]),
    "colbert_rerank": dict(ctor=ColBERTRerank, family="late-interaction-maxsim-retrieval",
                           inputs=[("query", ("N", 32), "int64", 8000),
                                   ("doc", ("N", 96), "int64", 8000)]),
    "graphrnn_gen": dict(ctor=GraphRNNGen, family="autoregressive-graph-generation-rnn",
                         inputs=[("cond", ("N", 32), "float32", None),
                                 ("noise", ("N", 11, 5), "float32", None)]),
    "deeppot_se_energy": dict(ctor=DeepPotSEEnergy, family="smooth-descriptor-deep-potential",
                              inputs=[("coords", ("N", 48, 3), "float32", None),
                                      ("types", ("N", 48), "int64", 2)]),
    "decision_transformer": dict(ctor=DecisionTransformer, family="return-conditioned-trajectory-transformer",
                                 inputs=[("states", ("N", 20, 17), "float32", None),
                                         ("rtg_actions", ("N", 20, 7), "float32", None)]),
    "ple_multitask": dict(ctor=PLEMultiTask, family="progressive-layered-extraction-multitask",
                          inputs=[("ids", ("N", 24), "int64", 1000),
                                  ("dense", ("N", 8), "float32", None)]),
    "deepfill_v2_inpaint": dict(ctor=DeepFillV2Inpaint, family="gated-conv-contextual-attention-inpainting",
                                inputs=[("image", ("N", 3, 64, 64), "float32", None),
                                        ("mask", ("N", 1, 64, 64), "float32", None)]),
}
