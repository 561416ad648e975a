r"""BLIND34: the thirty-fourth blind set, written on 2026-12-07 by a helper
session before any of it was measured.  Nothing in it has been timed,
profiled or run through onnxcost predict; it is to be measured first and
scored once only, at the end, with the code as it stands then
(bench/zoo_accuracy.py --set blind34).  None of its twelve families occurs
in another set (ZOO, BLIND, BLIND2 ... BLIND33, the reference models), so
no plan rule, feature, fit or calibration can have been made with any of
them in view.

Three families unroll a classical procedure into a fixed graph of small
kernels (several hundred to about two thousand nodes each, Constants
included), each with a small learned part:

  * Karplus-Strong plucked-string synthesis (K. Karplus & A. Strong,
    "Digital Synthesis of Plucked-String and Drum Timbres", 1983): an
    MLP maps a control vector to the first period (the excitation) of
    six strings with delay lines of 24 to 64 samples, a pluck-position
    comb, each string's loop gain and amplitude; each string then runs
    the averaging loop y[n] = rho (y[n - L] + y[n - L - 1]) / 2 one
    period at a time (every block of L samples depends only on the two
    before it), 480 samples, so 72 blocks after the six first periods,
    each two Slices, a Concat, an Add and a Mul.  The mixed strings pass a residual Conv1d body
    filter; the waveform, the strings' energies and logits of a strided
    Conv1d classifier come out.
  * The auction algorithm for the assignment problem (D. P. Bertsekas,
    "A Distributed Algorithm for the Assignment Problem", 1979; "The
    Auction Algorithm: A Distributed Relaxation Method for the
    Assignment Problem", 1988), Jacobi form: two MLPs embed 24 persons
    and 24 objects and their scaled inner products (tanh) are the
    benefits; 36 rounds follow, in each of which every unassigned person
    bids for its best object (TopK 2 of benefit minus price) its second
    best value gap plus epsilon, and every object that got bids goes to
    the highest bidder (ReduceMax, ArgMax, OneHot), its price rising to
    the bid and its previous owner freed (Where-like blends).  The
    assignment, the prices and the total benefit come out.
  * Pyramidal Lucas-Kanade feature tracking (B. D. Lucas & T. Kanade,
    "An Iterative Image Registration Technique with an Application to
    Stereo Vision", 1981; J.-Y. Bouguet, "Pyramidal Implementation of
    the Lucas Kanade Feature Tracker", 2000): a small shared Conv net
    turns two 64 x 64 frames into one-channel maps, pyramids of three
    levels are built by average pooling, and a 6 x 6 grid of points is
    tracked coarse to fine with 7 x 7 windows, five Gauss-Newton steps
    per level: every window bilinearly sampled by four GatherElements on
    the flattened map, the error against the template, its products
    with the template gradients (fixed-kernel Convs) and the 2 x 2
    structure tensor solved in closed form.  The flows, the residuals
    and logits of an MLP over them come out.

The other nine are published network designs of ordinary sizes:

  * SOLOv2 (Wang, Zhang, Kong, Li & Shen, "SOLOv2: Dynamic and Fast
    Instance Segmentation", 2020) on a small residual backbone with a
    three-level FPN: a 12 x 12 grid of category scores and of dynamic
    mask kernels (CoordConv input), a unified mask feature at 1/4 of a
    128 x 128 image, all 144 masks as one MatMul, the 48 best cells
    (TopK, GatherElements) and Matrix NMS (mask IoU by a MatMul of the
    binarised masks, same-class upper triangle, Gaussian decay with
    compensation, ReduceMin).
  * 3D-R2N2 (Choy, Xu, Gwak, Chen & Savarese, "3D-R2N2: A Unified
    Approach for Single and Multi-view 3D Object Reconstruction", 2016):
    three 64 x 64 views through a shared strided Conv encoder and a
    Linear, a 3-D convolutional GRU on a 4 x 4 x 4 grid of 32 channels
    (Conv3d 3 x 3 x 3 on the hidden state) updated view by view, and a
    decoder of three ConvTranspose3d with BatchNorm3d and a Conv3d to a
    32^3 occupancy grid (softmax over two classes).
  * xLSTM (Beck, Poeppel, Spanring, Auer, Prudnikova, Kopp, Klambauer,
    Brandstetter & Hochreiter, "xLSTM: Extended Long Short-Term
    Memory", 2024), mLSTM blocks: a language model of width 192 over 32
    tokens of a 2000-word vocabulary, two blocks with up-projection,
    causal depthwise Conv1d, exponential input gates with the max
    stabiliser and a 96 x 96 matrix memory per head (4 heads) updated
    token by token (outer products, a batched MatMul read-out, the
    normaliser's Max), head-wise LayerNorm, SiLU output gate; the output
    is tied to the embedding.
  * PNA (Corso, Cavalleri, Beaini, Lio & Velickovic, "Principal
    Neighbourhood Aggregation for Graph Nets", 2020) on dense graphs of
    32 nodes: messages from a two-layer MLP over every ordered pair
    (N, 32, 32, 80), masked mean, max, min and standard deviation
    aggregators, identity, amplification and attenuation degree
    scalers, Linear post-transformation of 13 x 80 features, four
    layers, sum and max readout.
  * AutoInt (Song, Shi, Xiao, Duan, Xu, Zhang & Tang, "AutoInt:
    Automatic Feature Interaction Learning via Self-Attentive Neural
    Networks", 2019), AutoInt+: 20 categorical fields (one hashed table
    with field offsets) and 6 numeric ones embedded in 16 dimensions,
    three layers of 2-head self-attention across the 26 fields with
    residual projections, and a parallel MLP; the click probability.
  * ROCKET (Dempster, Petitjean & Webb, "ROCKET: Exceptionally Fast and
    Accurate Time Series Classification Using Random Convolutional
    Kernels", 2020): 504 random kernels of lengths 7, 9 and 11 with
    dilations 1 to 32, with and without padding (36 Conv1d of 14
    kernels), on a standardised series of 1024 samples; the proportion
    of positive values and the maximum of each, a standardisation and a
    ridge (Linear) classifier of 12 classes.
  * Transolver (Wu, Luo, Wang, Wang & Long, "Transolver: A Fast
    Transformer Solver for PDEs on General Geometries", 2024) on 512
    mesh points: five layers of physics-attention (each point's softmax
    weights over 32 learned slices, slice tokens as weighted means, 4
    heads of attention among the slices, de-slicing by MatMul) and
    MLPs, three output fields per point.
  * LEAF (Zeghidour, Teboul, de Chaumont Quitry & Tagliasacchi, "LEAF:
    A Learnable Frontend for Audio Classification", 2021) with a small
    CNN keyword classifier: 32 complex Gabor filters of 101 taps built
    from learned centre frequencies and bandwidths, squared modulus,
    Gaussian low-pass pooling (depthwise Conv1d, stride 40) of 4000
    samples to 100 frames, and per-channel energy normalisation (Wang,
    Getreuer, Hughes, Lyon & Saurous, "Trainable Frontend for Robust
    and Far-Field Keyword Spotting", 2017) whose first-order smoother
    runs frame by frame (100 steps), with learned per-channel exponents
    (Pow); four strided Conv blocks and 35 classes.
  * MuZero (Schrittwieser, Antonoglou, Hubert, Simonyan, Sifre,
    Schmitt, Guez, Lockhart, Hassabis, Graepel, Lillicrap & Silver,
    "Mastering Atari, Go, Chess and Shogi by Planning with a Learned
    Model", 2020): representation, dynamics and prediction networks of
    residual Conv blocks (48 channels) on an 8 x 8 board of 17 planes,
    hidden states min-max scaled, five steps unrolled greedily (ArgMax
    of the policy, OneHot action plane concatenated to the state),
    policies, values and rewards of every step.

To be measured with

    OMP_WAIT_POLICY=PASSIVE /usr/bin/python3 scripts/measure_zoo.py --set blind34 \
        karplus_strong_pluck auction_assignment lucas_kanade_track \
        solov2_inst r2n2_voxel xlstm_lm pna_graph autoint_ctr rocket_tsc \
        transolver_pde leaf_pcen_frontend muzero_unroll \
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


class _Basic(nn.Module):
    """ResNet basic block (two 3x3 Conv-BN, identity shortcut)."""

    def __init__(self, ch):
        super().__init__()
        self.body = nn.Sequential(_cbr(ch, ch), nn.Conv2d(ch, ch, 3, padding=1, bias=False),
                                  nn.BatchNorm2d(ch))

    def forward(self, x):
        return F.relu(x + self.body(x))


# --------------------------------------------------------------------------
# Unrolled classical procedures with a small learned part
# --------------------------------------------------------------------------

class KarplusStrongPluck(nn.Module):
    """Karplus-Strong plucked strings: six delay lines of 24, 30, 36, 45,
    54 and 64 samples, 480 samples of output.  An MLP maps the control
    vector to each string's excitation (the first period, tanh), pluck
    position comb, loop gain rho in (0.95, 1) and amplitude; each string
    then runs y[n] = rho (y[n - L] + y[n - L - 1]) / 2 one period (one
    block of L samples) at a time.  The mixed strings go through a
    residual Conv1d body filter.  Returns the waveform (N, 480), each
    string's mean energy (N, 6) and class logits (N, 10)."""

    def __init__(self, controls=32, delays=(24, 30, 36, 45, 54, 64), samples=480, hidden=256,
                 classes=10):
        super().__init__()
        self.delays, self.samples = delays, samples
        self.exc = _mlp((controls, hidden, sum(delays)))
        self.params = nn.Linear(controls, 3 * len(delays))
        self.body = nn.Sequential(nn.Conv1d(1, 16, 31, padding=15), nn.Tanh(),
                                  nn.Conv1d(16, 1, 31, padding=15))
        self.cls = nn.Sequential(nn.Conv1d(1, 32, 16, stride=8), nn.ReLU(),
                                 nn.Conv1d(32, 64, 8, stride=4), nn.ReLU(),
                                 nn.AdaptiveAvgPool1d(1), nn.Flatten(), nn.Linear(64, classes))

    def forward(self, control):                   # (N, 32)
        exc = torch.tanh(self.exc(control))                                 # (N, sum L)
        g, a, b = self.params(control).chunk(3, 1)                          # (N, S) each
        half_rho = 0.5 * (0.95 + 0.05 * torch.sigmoid(g))
        amp, beta = F.softplus(a), torch.sigmoid(b)
        strings, start = [], 0
        for s, length in enumerate(self.delays):
            e = exc[:, start:start + length]
            start += length
            buf = e - beta[:, s:s + 1] * torch.cat([e[:, -1:], e[:, :-1]], 1)
            r = half_rho[:, s:s + 1]
            last = torch.zeros_like(buf[:, :1])
            blocks = [buf]
            for _ in range(1, -(-self.samples // length)):
                new = r * (buf + torch.cat([last, buf[:, :-1]], 1))
                last = buf[:, -1:]
                buf = new
                blocks.append(new)
            strings.append(torch.cat(blocks, 1)[:, :self.samples])
        strings = torch.stack(strings, 1)                                   # (N, S, T)
        mix = (strings * amp.unsqueeze(-1)).sum(1, keepdim=True)            # (N, 1, T)
        wave = mix + self.body(mix)
        energy = (strings * strings).mean(-1)
        return wave.squeeze(1), energy, self.cls(wave)


class AuctionAssignment(nn.Module):
    """Jacobi auction on a 24 x 24 assignment problem whose benefits a_ij
    = tanh(<f(person_i), g(object_j)> / 8) two MLPs give, epsilon 0.01,
    36 rounds.  In each round every unassigned person bids for its best
    object (value a_ij - p_j, TopK 2) the price that makes it as good as
    its second best plus epsilon; each object that got bids goes to the
    highest (ReduceMax, ArgMax), its price rising to that bid and its
    previous owner losing it.  Returns the assignment (N, 24, 24), the
    prices (N, 24) and the total benefit (N, 1)."""

    def __init__(self, features=16, hidden=64, rounds=36, eps=0.01):
        super().__init__()
        self.rounds, self.eps = rounds, eps
        self.f = _mlp((features, hidden, hidden))
        self.g = _mlp((features, hidden, hidden))

    def forward(self, persons, objects):          # (N, 24, 16), (N, 24, 16)
        a = torch.tanh(torch.matmul(self.f(persons), self.g(objects).transpose(1, 2)) / 8.0)
        m = a.shape[-1]
        prices = torch.zeros_like(a[:, :1])                                 # (N, 1, O)
        x = torch.zeros_like(a)                                             # (N, P, O)
        for _ in range(self.rounds):
            free = 1.0 - x.sum(2, keepdim=True)                             # (N, P, 1)
            top = (a - prices).topk(2, -1)
            best = top.indices[..., :1]                                     # (N, P, 1)
            bid = torch.gather(a, 2, best) - top.values[..., 1:] + self.eps
            oh = F.one_hot(best.squeeze(-1), m).to(a.dtype) * free          # (N, P, O)
            bids = oh * bid + (oh - 1.0) * 1.0e4
            high, winner = bids.max(1)                                      # (N, O)
            got = (high > -1.0e3).to(a.dtype).unsqueeze(1)                  # (N, 1, O)
            prices = got * high.unsqueeze(1) + (1.0 - got) * prices
            win = F.one_hot(winner, m).to(a.dtype).transpose(1, 2)          # (N, P, O)
            x = got * win + (1.0 - got) * x
        benefit = (x * a).sum((1, 2)).unsqueeze(1)
        return x, prices[:, 0], benefit


class LucasKanadeTrack(nn.Module):
    """Pyramidal Lucas-Kanade tracking of a 6 x 6 grid of points between
    two frames, on a one-channel feature map a small shared Conv net makes
    of each (64 x 64), three pyramid levels (average pooling), 7 x 7
    windows, five Gauss-Newton iterations per level with the template's
    gradients (central differences by a fixed Conv) and its 2 x 2
    structure tensor; every sampling bilinear by four GatherElements on
    the flattened map.  Returns the flow of each point (N, 36, 2), the
    final mean squared residual of each window (N, 36) and logits of an
    MLP over both (N, 8)."""

    def __init__(self, size=64, levels=3, iters=5, grid=6, window=7, hidden=16, classes=8):
        super().__init__()
        self.size, self.levels, self.iters = size, levels, iters
        self.feat = nn.Sequential(nn.Conv2d(3, hidden, 3, padding=1), nn.ReLU(),
                                  nn.Conv2d(hidden, hidden, 3, padding=1), nn.ReLU(),
                                  nn.Conv2d(hidden, 1, 3, padding=1))
        self.points = grid * grid
        self.head = _mlp((3 * self.points, 128, classes))
        pos = torch.linspace(12.0, size - 13.0, grid)
        py, px = torch.meshgrid(pos, pos, indexing="ij")
        r = window // 2
        off = torch.arange(-r, r + 1, dtype=torch.float32)
        oy, ox = torch.meshgrid(off, off, indexing="ij")
        for lv in range(levels):
            s = 2.0 ** lv
            self.register_buffer(f"bx{lv}", ((px.reshape(-1, 1) + 0.5) / s - 0.5 + ox.reshape(1, -1)).unsqueeze(0))
            self.register_buffer(f"by{lv}", ((py.reshape(-1, 1) + 0.5) / s - 0.5 + oy.reshape(1, -1)).unsqueeze(0))
        self.register_buffer("kx", torch.tensor([-0.5, 0.0, 0.5]).view(1, 1, 1, 3))
        self.register_buffer("ky", torch.tensor([-0.5, 0.0, 0.5]).view(1, 1, 3, 1))
        self.register_buffer("spread", torch.zeros(1, 3, 1, dtype=torch.long))

    @staticmethod
    def _sample(flat, w, cx, cy):
        """Bilinear samples of flat (N, C, H W) at (N, K, M) clamped
        coordinates, (N, C, K M)."""
        x0, y0 = torch.floor(cx), torch.floor(cy)
        tx, ty = (cx - x0).flatten(1).unsqueeze(1), (cy - y0).flatten(1).unsqueeze(1)
        i00 = (y0 * w + x0).long().flatten(1).unsqueeze(1)
        if flat.shape[1] > 1:
            i00 = i00 + torch.zeros_like(flat[:, :, :1]).long()
        return (torch.gather(flat, 2, i00) * (1.0 - tx) + torch.gather(flat, 2, i00 + 1) * tx) * (1.0 - ty) \
            + (torch.gather(flat, 2, i00 + w) * (1.0 - tx) + torch.gather(flat, 2, i00 + w + 1) * tx) * ty

    def forward(self, frame0, frame1):            # (N, 3, 64, 64) each
        p0, p1 = [self.feat(frame0)], [self.feat(frame1)]
        for _ in range(1, self.levels):
            p0.append(F.avg_pool2d(p0[-1], 2))
            p1.append(F.avg_pool2d(p1[-1], 2))
        k = self.points
        dx = torch.zeros_like(p0[0][:, 0, 0, :k]).unsqueeze(-1)            # (N, K, 1)
        dy = dx
        for lv in reversed(range(self.levels)):
            w = self.size >> lv
            if lv < self.levels - 1:
                dx, dy = 2.0 * dx, 2.0 * dy
            a = p0[lv]
            ix = F.conv2d(F.pad(a, (1, 1, 0, 0), mode="replicate"), self.kx)
            iy = F.conv2d(F.pad(a, (0, 0, 1, 1), mode="replicate"), self.ky)
            bx = getattr(self, f"bx{lv}") + dx * 0.0                        # (N, K, M)
            by = getattr(self, f"by{lv}") + dy * 0.0
            tmpl = self._sample(torch.cat([a, ix, iy], 1).flatten(2), w,
                                bx.clamp(0.0, w - 1.001), by.clamp(0.0, w - 1.001))
            t, gx, gy = [v.view(-1, k, bx.shape[-1]) for v in tmpl.split(1, 1)]   # (N, K, M)
            gxx = (gx * gx).sum(-1, keepdim=True) + 1.0e-3
            gyy = (gy * gy).sum(-1, keepdim=True) + 1.0e-3
            gxy = (gx * gy).sum(-1, keepdim=True)
            det = gxx * gyy - gxy * gxy
            b1 = p1[lv].flatten(2)
            for _ in range(self.iters):
                cx = (bx + dx).clamp(0.0, w - 1.001)
                cy = (by + dy).clamp(0.0, w - 1.001)
                err = self._sample(b1, w, cx, cy).view(-1, k, bx.shape[-1]) - t
                ex = (err * gx).sum(-1, keepdim=True)
                ey = (err * gy).sum(-1, keepdim=True)
                dx = dx - ((gyy * ex - gxy * ey) / det).clamp(-2.0, 2.0)
                dy = dy - ((gxx * ey - gxy * ex) / det).clamp(-2.0, 2.0)
        flow = torch.cat([dx, dy], -1)                                      # (N, K, 2)
        res = (err * err).mean(-1)                                          # (N, K)
        return flow, res, self.head(torch.cat([flow.flatten(1), res], 1))


# --------------------------------------------------------------------------
# Published network designs
# --------------------------------------------------------------------------

class SOLOv2Inst(nn.Module):
    """SOLOv2 on a small residual backbone (32, 64, 128 channels at 1/4,
    1/8, 1/16 of 128 x 128 images) with a three-level FPN of 48: a 12 x 12
    grid of category scores (10 classes) and of dynamic kernels (32
    weights, CoordConv input), a unified mask feature of 32 channels at
    1/4 (a 3 x 3 Conv of 32 on each level, upsampled and summed, 1 x 1), masks as one MatMul of kernels and features, the 48 best cells
    (TopK) and Matrix NMS over them (mask IoU by MatMul of the binarised
    masks, same-class upper triangle, Gaussian decay with compensation).
    Returns the decayed scores (N, 48), their classes (N, 48), their soft
    masks (N, 48, 32, 32) and the category grid (N, 10, 12, 12)."""

    def __init__(self, classes=10, widths=(32, 64, 128), fpn=48, mask_ch=32, grid=12, kernel=32,
                 top=48, sigma=2.0):
        super().__init__()
        c1, c2, c3 = widths
        self.grid, self.top, self.sigma, self.kernel = grid, top, sigma, kernel
        self.stem = nn.Sequential(_cbr(3, 24, 3, 2), _cbr(24, c1, 3, 2), _Basic(c1))      # 1/4
        self.s8 = nn.Sequential(_cbr(c1, c2, 3, 2), _Basic(c2))                           # 1/8
        self.s16 = nn.Sequential(_cbr(c2, c3, 3, 2), _Basic(c3))                          # 1/16
        self.lat = nn.ModuleList([nn.Conv2d(c, fpn, 1) for c in (c1, c2, c3)])
        self.smooth = nn.ModuleList([nn.Conv2d(fpn, fpn, 3, padding=1) for _ in range(3)])
        self.cate = nn.Sequential(_cbr(fpn, fpn), _cbr(fpn, fpn), nn.Conv2d(fpn, classes, 3, padding=1))
        self.kern = nn.Sequential(_cbr(fpn + 2, fpn), _cbr(fpn, fpn), nn.Conv2d(fpn, kernel, 3, padding=1))
        self.mask_feat = nn.ModuleList([_cbr(fpn, mask_ch), _cbr(fpn, mask_ch), _cbr(fpn, mask_ch)])
        self.mask_out = _cbr(mask_ch, kernel, 1)
        lin = torch.linspace(-1.0, 1.0, grid)
        yy, xx = torch.meshgrid(lin, lin, indexing="ij")
        self.register_buffer("coord", torch.stack([xx, yy]).unsqueeze(0))
        self.register_buffer("triu", torch.triu(torch.ones(top, top), 1).unsqueeze(0))
        self.register_buffer("spread", torch.zeros(1, 1, 32 * 32, dtype=torch.long))

    def forward(self, image):                     # (N, 3, 128, 128)
        f4 = self.stem(image)
        f8 = self.s8(f4)
        f16 = self.s16(f8)
        p16 = self.lat[2](f16)
        p8 = self.lat[1](f8) + F.interpolate(p16, scale_factor=2.0, mode="nearest")
        p4 = self.lat[0](f4) + F.interpolate(p8, scale_factor=2.0, mode="nearest")
        p4, p8, p16 = self.smooth[0](p4), self.smooth[1](p8), self.smooth[2](p16)
        g = F.interpolate(p8, size=(self.grid, self.grid), mode="bilinear", align_corners=False)
        cate = torch.sigmoid(self.cate(g))                                  # (N, C, S, S)
        kern = self.kern(torch.cat([g, g[:, :2] * 0.0 + self.coord], 1)).flatten(2)   # (N, E, S S)
        m = self.mask_feat[0](p4) \
            + F.interpolate(self.mask_feat[1](p8), scale_factor=2.0, mode="bilinear", align_corners=False) \
            + F.interpolate(self.mask_feat[2](p16), scale_factor=4.0, mode="bilinear", align_corners=False)
        feat = self.mask_out(m).flatten(2)                                  # (N, E, H W)
        masks = torch.sigmoid(torch.matmul(kern.transpose(1, 2), feat))     # (N, S S, H W)
        score, label = cate.flatten(2).max(1)                               # (N, S S)
        best = score.topk(self.top, 1)
        idx = best.indices
        sel = torch.gather(masks, 1, idx.unsqueeze(-1) + self.spread)       # (N, K, H W)
        lab = torch.gather(label, 1, idx)
        binary = (sel > 0.5).to(sel.dtype)
        area = binary.sum(-1)                                               # (N, K)
        inter = torch.matmul(binary, binary.transpose(1, 2))                # (N, K, K)
        union = area.unsqueeze(2) + area.unsqueeze(1) - inter
        same = (lab.unsqueeze(2) == lab.unsqueeze(1)).to(sel.dtype)
        iou = inter / (union + 1.0e-6) * same * self.triu                   # i above j
        comp = iou.max(1).values.unsqueeze(2)                               # (N, K, 1)
        decay = torch.exp(-self.sigma * (iou * iou - comp * comp)).min(1).values
        return best.values * decay, lab, sel.view(-1, self.top, 32, 32), cate


class R2N2Voxel(nn.Module):
    """3D-R2N2 with a 3-D convolutional GRU: three 64 x 64 views, each
    through a shared 2-D encoder (32, 48, 64, 96 channels, stride 2
    each, Linear 1536 -> 512), update, reset and candidate inputs from
    one Linear to a 4 x 4 x 4 grid of 32 channels, 3 x 3 x 3 Conv3d on
    the hidden grid; a 3-D deconvolution decoder (ConvTranspose3d 32 ->
    16 -> 8 -> 8 to 32^3, Conv3d to 2 classes).  Returns the occupancy
    probabilities (N, 32, 32, 32) and the final hidden grid
    (N, 32, 4, 4, 4)."""

    def __init__(self, views=3, feat=512, hid=32, cells=4):
        super().__init__()
        self.views, self.hid, self.cells = views, hid, cells
        self.enc = nn.Sequential(_cbr(3, 32, 3, 2), _cbr(32, 48, 3, 2), _cbr(48, 64, 3, 2),
                                 _cbr(64, 96, 3, 2), nn.Flatten(), nn.Linear(96 * 16, feat),
                                 nn.LeakyReLU(0.1))
        self.fc = nn.Linear(feat, 3 * hid * cells ** 3)
        self.conv_ur = nn.Conv3d(hid, 2 * hid, 3, padding=1, bias=False)
        self.conv_h = nn.Conv3d(hid, hid, 3, padding=1, bias=False)
        self.dec = nn.Sequential(
            nn.ConvTranspose3d(hid, 16, 4, 2, 1), nn.BatchNorm3d(16), nn.LeakyReLU(0.1),
            nn.ConvTranspose3d(16, 8, 4, 2, 1), nn.BatchNorm3d(8), nn.LeakyReLU(0.1),
            nn.ConvTranspose3d(8, 8, 4, 2, 1), nn.BatchNorm3d(8), nn.LeakyReLU(0.1),
            nn.Conv3d(8, 2, 3, padding=1))
        self.register_buffer("zgrid", torch.zeros(1, hid, cells, cells, cells))

    def forward(self, views):                     # (N, 3, 3, 64, 64)
        c, hd = self.cells, self.hid
        x = self.fc(self.enc(views.reshape(-1, 3, 64, 64))).view(-1, self.views, 3 * hd, c, c, c)
        h = x[:, 0, :1] * 0.0 + self.zgrid                                  # (N, H, c, c, c)
        for v in range(self.views):
            xu, xr, xh = x[:, v].split(hd, 1)
            cu, cr = self.conv_ur(h).split(hd, 1)
            u, r = torch.sigmoid(xu + cu), torch.sigmoid(xr + cr)
            cand = torch.tanh(xh + self.conv_h(r * h))
            h = h + u * (cand - h)
        occ = torch.softmax(self.dec(h), 1)[:, 1]
        return occ, h


class _MLSTMBlock(nn.Module):
    """xLSTM mLSTM block: pre-LayerNorm, up-projection by 2, causal
    depthwise Conv1d (4) and SiLU for queries and keys, exponential input
    and sigmoid forget gates with the max stabiliser, a d x d matrix
    memory per head updated token by token, head-wise LayerNorm, learned
    skip, SiLU output gate, down-projection, residual."""

    def __init__(self, dim, heads, up=2, conv=4):
        super().__init__()
        inner = up * dim
        self.heads, self.dh, self.inner = heads, inner // heads, inner
        self.norm = nn.LayerNorm(dim)
        self.up = nn.Linear(dim, 2 * inner)
        self.conv = nn.Conv1d(inner, inner, conv, padding=conv - 1, groups=inner)
        self.q = nn.Linear(inner, inner)
        self.k = nn.Linear(inner, inner)
        self.v = nn.Linear(inner, inner)
        self.igate = nn.Linear(3 * inner, heads)
        self.fgate = nn.Linear(3 * inner, heads)
        with torch.no_grad():
            self.fgate.bias.copy_(torch.linspace(3.0, 6.0, heads))
        self.skip = nn.Parameter(torch.ones(inner))
        self.down = nn.Linear(inner, dim)

    def forward(self, x):                         # (N, L, D)
        seq, hh, dh = x.shape[1], self.heads, self.dh
        xu, z = self.up(self.norm(x)).chunk(2, -1)
        c = F.silu(self.conv(xu.transpose(1, 2))[..., :seq].transpose(1, 2))
        q, k, v = self.q(c), self.k(c) / math.sqrt(dh), self.v(xu)
        gates = torch.cat([q, k, v], -1)
        ig, lf = self.igate(gates), F.logsigmoid(self.fgate(gates))         # (N, L, H)
        q, k, v = [t.view(-1, seq, hh, dh) for t in (q, k, v)]
        mem = torch.zeros_like(q[:, 0]).unsqueeze(-1) * k[:, 0].unsqueeze(-2)   # (N, H, dh, dh)
        nrm = torch.zeros_like(q[:, 0])                                     # (N, H, dh)
        m = torch.zeros_like(ig[:, 0])                                      # (N, H)
        hs = []
        for t in range(seq):
            mt = torch.max(lf[:, t] + m, ig[:, t])
            i_ = torch.exp(ig[:, t] - mt).unsqueeze(-1)
            f_ = torch.exp(lf[:, t] + m - mt).unsqueeze(-1)
            kt, qt = k[:, t], q[:, t]
            mem = f_.unsqueeze(-1) * mem + (i_ * v[:, t]).unsqueeze(-1) * kt.unsqueeze(-2)
            nrm = f_ * nrm + i_ * kt
            num = torch.matmul(mem, qt.unsqueeze(-1)).squeeze(-1)           # (N, H, dh)
            den = torch.max((nrm * qt).sum(-1).abs(), torch.exp(-mt)).unsqueeze(-1)
            hs.append(num / den)
            m = mt
        h = F.layer_norm(torch.stack(hs, 1), (dh,)).reshape(-1, seq, self.inner)
        return x + self.down((h + self.skip * c) * F.silu(z))


class XLSTMLM(nn.Module):
    """xLSTM[1:0] language model: vocabulary 2000, width 192, two mLSTM
    blocks (inner 384, 4 heads of 96), 32 tokens, final LayerNorm, output
    tied to the embedding.  Returns the logits (N, 32, 2000) and the
    greedy next tokens (N, 32)."""

    def __init__(self, vocab=2000, dim=192, blocks=2, heads=4):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.blocks = nn.ModuleList(_MLSTMBlock(dim, heads) for _ in range(blocks))
        self.norm = nn.LayerNorm(dim)

    def forward(self, tokens):                    # (N, 32) int64
        x = self.embed(tokens)
        for blk in self.blocks:
            x = blk(x)
        logits = torch.matmul(self.norm(x), self.embed.weight.t())
        return logits, logits.argmax(-1)


class PNAGraph(nn.Module):
    """Principal Neighbourhood Aggregation on dense graphs of 32 nodes (the
    adjacency is the symmetrised threshold of the second input): four
    layers of width 80, messages from a two-layer MLP over each ordered
    pair, aggregators mean, max, min and standard deviation, scalers
    identity, amplification and attenuation (log degree over its
    training mean), post-transformation Linear 13 x 80 -> 80, LayerNorm,
    ReLU, residual; readout by sum and max.  Returns the graph
    regression (N, 1) and the node embeddings (N, 32, 80)."""

    def __init__(self, nodes=32, features=16, width=80, layers=4, delta=2.5):
        super().__init__()
        self.delta = delta
        self.inp = nn.Linear(features, width)
        self.pre_i = nn.ModuleList(nn.Linear(width, width) for _ in range(layers))
        self.pre_j = nn.ModuleList(nn.Linear(width, width, bias=False) for _ in range(layers))
        self.pre2 = nn.ModuleList(nn.Linear(width, width) for _ in range(layers))
        self.post = nn.ModuleList(nn.Linear(13 * width, width) for _ in range(layers))
        self.norms = nn.ModuleList(nn.LayerNorm(width) for _ in range(layers))
        self.readout = _mlp((2 * width, 128, 64, 1))
        self.register_buffer("off_diag", (1.0 - torch.eye(nodes)).unsqueeze(0))

    def forward(self, x, adj):                    # (N, 32, 16), (N, 32, 32)
        a = (adj > 0.8).to(x.dtype)
        a = torch.max(a, a.transpose(1, 2)) * self.off_diag
        deg = a.sum(-1, keepdim=True)                                       # (N, V, 1)
        has = (deg > 0).to(x.dtype)
        degc = deg.clamp(min=1.0)
        logd = torch.log(deg + 1.0)
        amp, att = logd / self.delta, self.delta / logd.clamp(min=0.5)
        mask = a.unsqueeze(-1)                                              # (N, V, V, 1)
        h = self.inp(x)
        for pi, pj, p2, post, norm in zip(self.pre_i, self.pre_j, self.pre2, self.post, self.norms):
            msg = p2(F.relu(pi(h).unsqueeze(2) + pj(h).unsqueeze(1)))       # (N, V, V, F)
            mean = (msg * mask).sum(2) / degc
            sq = (msg * msg * mask).sum(2) / degc
            std = torch.sqrt(F.relu(sq - mean * mean) + 1.0e-5)
            mx = (msg + (mask - 1.0) * 1.0e4).max(2).values * has
            mn = (msg - (mask - 1.0) * 1.0e4).min(2).values * has
            agg = torch.cat([mean, mx, mn, std], -1)
            out = post(torch.cat([h, agg, agg * amp, agg * att], -1))
            h = h + F.relu(norm(out))
        g = torch.cat([h.sum(1), h.max(1).values], 1)
        return self.readout(g), h


class AutoIntCTR(nn.Module):
    """AutoInt+: 20 categorical fields (1000 ids each, one hashed table
    with per-field offsets) and 6 numeric fields (a learned vector each,
    scaled by the value) embedded in 16 dimensions; three interacting
    layers of multi-head self-attention over the 26 fields (2 heads of
    32, residual projection, ReLU); a Linear over the flattened result
    plus a parallel MLP 416 -> 256 -> 256 -> 1.  Returns the click
    probability (N, 1) and the attention each field receives in the last
    layer (N, 26)."""

    def __init__(self, fields=20, vocab=1000, numeric=6, dim=16, heads=2, dh=32, layers=3):
        super().__init__()
        self.heads, self.dh = heads, dh
        nf = fields + numeric
        self.nf = nf
        self.table = nn.Embedding(fields * vocab, dim)
        self.dense_vec = nn.Parameter(torch.randn(1, numeric, dim) * 0.1)
        self.register_buffer("offsets", (torch.arange(fields) * vocab).view(1, fields))
        sizes = [dim] + [heads * dh] * layers
        self.q = nn.ModuleList(nn.Linear(sizes[i], heads * dh, bias=False) for i in range(layers))
        self.k = nn.ModuleList(nn.Linear(sizes[i], heads * dh, bias=False) for i in range(layers))
        self.v = nn.ModuleList(nn.Linear(sizes[i], heads * dh, bias=False) for i in range(layers))
        self.res = nn.ModuleList(nn.Linear(sizes[i], heads * dh, bias=False) for i in range(layers))
        self.out = nn.Linear(nf * heads * dh, 1)
        self.dnn = _mlp((nf * dim, 256, 256, 1))

    def forward(self, ids, dense):                # (N, 20) int64, (N, 6)
        e = torch.cat([self.table(ids + self.offsets), dense.unsqueeze(-1) * self.dense_vec], 1)
        x = e
        for q, k, v, res in zip(self.q, self.k, self.v, self.res):
            qh = q(x).view(-1, self.nf, self.heads, self.dh).transpose(1, 2)
            kh = k(x).view(-1, self.nf, self.heads, self.dh).transpose(1, 2)
            vh = v(x).view(-1, self.nf, self.heads, self.dh).transpose(1, 2)
            att = torch.softmax(torch.matmul(qh, kh.transpose(2, 3)), -1)   # (N, H, F, F)
            o = torch.matmul(att, vh).transpose(1, 2).reshape(-1, self.nf, self.heads * self.dh)
            x = F.relu(o + res(x))
        logit = self.out(x.flatten(1)) + self.dnn(e.flatten(1))
        return torch.sigmoid(logit), att.mean(1).mean(1)


class RocketTSC(nn.Module):
    """ROCKET time-series classification: the series (1024 samples) is
    standardised and convolved with 504 random kernels (lengths 7, 9, 11,
    dilations 1 ... 32, centred normal weights, uniform biases, half with
    'same' padding, half without), as 36 Conv1d of 14 kernels; each gives
    its proportion of positive values and its maximum, and a
    standardisation and Linear (ridge) classifier of 12 classes follow.
    Returns the logits (N, 12) and the features (N, 1008)."""

    def __init__(self, lengths=(7, 9, 11), dilations=(1, 2, 4, 8, 16, 32), per=14, classes=12):
        super().__init__()
        g = torch.Generator().manual_seed(34)
        self.convs = nn.ModuleList()
        for ln in lengths:
            for d in dilations:
                for pad in (True, False):
                    conv = nn.Conv1d(1, per, ln, dilation=d, padding=((ln - 1) * d) // 2 if pad else 0)
                    w = torch.randn(per, 1, ln, generator=g)
                    with torch.no_grad():
                        conv.weight.copy_(w - w.mean(-1, keepdim=True))
                        conv.bias.copy_(torch.rand(per, generator=g) * 2.0 - 1.0)
                    self.convs.append(conv)
        feats = 2 * per * len(self.convs)
        self.norm = nn.BatchNorm1d(feats)
        self.fc = nn.Linear(feats, classes)

    def forward(self, series):                    # (N, 1, 1024)
        x = (series - series.mean(-1, keepdim=True)) / (series.std(-1, keepdim=True) + 1.0e-6)
        ppv, mx = [], []
        for conv in self.convs:
            y = conv(x)
            ppv.append((y > 0).to(x.dtype).mean(-1))
            mx.append(y.max(-1).values)
        feats = torch.cat(ppv + mx, 1)
        return self.fc(self.norm(feats)), feats


class _PhysicsAttention(nn.Module):
    """Transolver's physics-attention: soft slice weights of every point
    (softmax over the slices, learned temperature per head), slice tokens
    as weighted means, attention among the slices, de-slicing."""

    def __init__(self, width, heads, slices):
        super().__init__()
        self.heads, self.dh = heads, width // heads
        self.fx = nn.Linear(width, width)
        self.xp = nn.Linear(width, width)
        self.slice = nn.Linear(self.dh, slices)
        self.temp = nn.Parameter(torch.full((1, heads, 1, 1), 0.5))
        self.q = nn.Linear(self.dh, self.dh, bias=False)
        self.k = nn.Linear(self.dh, self.dh, bias=False)
        self.v = nn.Linear(self.dh, self.dh, bias=False)
        self.out = nn.Linear(width, width)

    def forward(self, x):                         # (N, P, W)
        pts, hh, dh = x.shape[1], self.heads, self.dh
        fx = self.fx(x).view(-1, pts, hh, dh).transpose(1, 2)               # (N, H, P, dh)
        xp = self.xp(x).view(-1, pts, hh, dh).transpose(1, 2)
        w = torch.softmax(self.slice(xp) / self.temp.clamp(0.1, 5.0), -1)  # (N, H, P, M)
        wt = w.transpose(2, 3)
        tok = torch.matmul(wt, fx) / (wt.sum(-1, keepdim=True) + 1.0e-5)   # (N, H, M, dh)
        q, k, v = self.q(tok), self.k(tok), self.v(tok)
        att = torch.softmax(torch.matmul(q, k.transpose(2, 3)) / math.sqrt(dh), -1)
        y = torch.matmul(w, torch.matmul(att, v))                           # (N, H, P, dh)
        return self.out(y.transpose(1, 2).reshape(-1, pts, hh * dh))


class TransolverPDE(nn.Module):
    """Transolver on an unstructured set of 512 mesh points (3 coordinates
    and 2 conditions each): preprocessing MLP 5 -> 128 -> 64 (GELU), five
    pre-norm layers of physics-attention (4 heads of 16, 32 slices) and
    MLP 64 -> 128 -> 64, head LayerNorm, MLP to 3 fields.  Returns the
    fields at the points (N, 512, 3) and their means (N, 3)."""

    def __init__(self, inputs=5, width=64, heads=4, slices=32, layers=5, fields=3):
        super().__init__()
        self.pre = _mlp((inputs, 2 * width, width), act=nn.GELU)
        self.n1 = nn.ModuleList(nn.LayerNorm(width) for _ in range(layers))
        self.att = nn.ModuleList(_PhysicsAttention(width, heads, slices) for _ in range(layers))
        self.n2 = nn.ModuleList(nn.LayerNorm(width) for _ in range(layers))
        self.mlp = nn.ModuleList(_mlp((width, 2 * width, width), act=nn.GELU) for _ in range(layers))
        self.head = nn.Sequential(nn.LayerNorm(width), _mlp((width, width, fields), act=nn.GELU))

    def forward(self, points):                    # (N, 512, 5)
        x = self.pre(points)
        for n1, att, n2, mlp in zip(self.n1, self.att, self.n2, self.mlp):
            x = x + att(n1(x))
            x = x + mlp(n2(x))
        y = self.head(x)
        return y, y.mean(1)


class LEAFPCENFrontend(nn.Module):
    """LEAF front end and a small CNN: 32 complex Gabor filters of 101
    taps (centre frequencies and bandwidths learned, kernels built with
    Exp, Cos and Sin), squared modulus, Gaussian low-pass pooling per
    channel (learned widths, depthwise Conv1d, stride 40) to 100 frames
    of 4000 samples, per-channel energy normalisation whose smoother
    M[t] = (1 - s) M[t - 1] + s E[t] runs frame by frame, then four Conv
    blocks and a Linear of 35 keywords.  Returns the logits (N, 35) and
    the PCEN features (N, 32, 100)."""

    def __init__(self, filters=32, taps=101, stride=40, classes=35):
        super().__init__()
        self.filters, self.taps, self.stride = filters, taps, stride
        centre = torch.linspace(0.04, 0.9, filters) * math.pi
        self.centre = nn.Parameter(centre)
        self.sigma = nn.Parameter((1.5 * math.pi / centre).clamp(3.0, 40.0))
        self.pool_width = nn.Parameter(torch.full((filters,), 0.4))
        self.s_logit = nn.Parameter(torch.full((1, filters), -3.0))
        self.alpha_logit = nn.Parameter(torch.full((1, filters, 1), 2.0))
        self.log_delta = nn.Parameter(torch.full((1, filters, 1), math.log(2.0)))
        self.r_logit = nn.Parameter(torch.full((1, filters, 1), -1.0))
        self.register_buffer("t", (torch.arange(taps, dtype=torch.float32) - taps // 2).view(1, taps))
        self.cnn = nn.Sequential(_cbr(1, 32), _cbr(32, 64, 3, 2), _cbr(64, 96, 3, 2), _cbr(96, 128, 3, 2),
                                 nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(128, classes))

    def forward(self, wave):                      # (N, 1, 4000)
        t = self.t
        sig = self.sigma.clamp(2.0, 50.0).unsqueeze(1)
        env = torch.exp(-0.5 * (t / sig) ** 2) / (math.sqrt(2.0 * math.pi) * sig)
        phase = self.centre.clamp(0.0, math.pi).unsqueeze(1) * t
        kern = torch.cat([env * torch.cos(phase), env * torch.sin(phase)], 0).unsqueeze(1)
        y = F.conv1d(wave, kern, padding=self.taps // 2)                    # (N, 2 F, T)
        energy = y[:, :self.filters] ** 2 + y[:, self.filters:] ** 2
        pw = self.pool_width.clamp(0.05, 0.5).unsqueeze(1) * (self.taps // 2)
        win = torch.exp(-0.5 * (t / pw) ** 2)
        win = (win / win.sum(1, keepdim=True)).unsqueeze(1)                # (F, 1, taps)
        e = F.conv1d(energy, win, stride=self.stride, padding=self.taps // 2, groups=self.filters)
        s = torch.sigmoid(self.s_logit)
        m = e[:, :, 0]
        ms = [m]
        for i in range(1, e.shape[-1]):
            m = (1.0 - s) * m + s * e[:, :, i]
            ms.append(m)
        m = torch.stack(ms, -1)                                             # (N, F, frames)
        alpha, delta = torch.sigmoid(self.alpha_logit), torch.exp(self.log_delta)
        r = torch.sigmoid(self.r_logit)
        pcen = (e / (1.0e-6 + m) ** alpha + delta) ** r - delta ** r
        return self.cnn(pcen.unsqueeze(1)), pcen


class MuZeroUnroll(nn.Module):
    """MuZero's three networks on an 8 x 8 board of 17 planes: the
    representation (Conv and three residual blocks of 48), the dynamics
    (the state and a plane of the chosen action, Conv and three residual
    blocks, a reward head) and the prediction (policy over 64 moves,
    tanh value), both states min-max scaled; five steps unrolled greedily
    (ArgMax of the policy, OneHot action plane).  Returns the policy
    logits (N, 6, 64), the values (N, 6) and the rewards (N, 5)."""

    def __init__(self, planes=17, width=48, blocks=3, steps=5, board=8):
        super().__init__()
        self.steps, self.board = steps, board
        moves = board * board
        self.rep = nn.Sequential(_cbr(planes, width), *[_Basic(width) for _ in range(blocks)])
        self.dyn = nn.Sequential(_cbr(width + 1, width), *[_Basic(width) for _ in range(blocks)])
        self.reward = nn.Sequential(_cbr(width, 1, 1), nn.Flatten(), _mlp((moves, 32, 1)))
        self.policy = nn.Sequential(_cbr(width, 2, 1), nn.Flatten(), nn.Linear(2 * moves, moves))
        self.value = nn.Sequential(_cbr(width, 1, 1), nn.Flatten(), _mlp((moves, 32, 1)), nn.Tanh())

    @staticmethod
    def _scale(s):
        flat = s.flatten(1)
        lo = flat.min(1, keepdim=True).values
        hi = flat.max(1, keepdim=True).values
        return ((flat - lo) / (hi - lo + 1.0e-5)).view_as(s)

    def forward(self, obs):                       # (N, 17, 8, 8)
        b = self.board
        s = self._scale(self.rep(obs))
        pols, vals, rews = [], [], []
        for k in range(self.steps + 1):
            p = self.policy(s)
            pols.append(p)
            vals.append(self.value(s))
            if k == self.steps:
                break
            act = F.one_hot(p.argmax(1), b * b).to(s.dtype).view(-1, 1, b, b)
            s = self.dyn(torch.cat([s, act], 1))
            rews.append(self.reward(s))
            s = self._scale(s)
        return torch.stack(pols, 1), torch.cat(vals, 1), torch.cat(rews, 1)


BLIND34 = {
    "karplus_strong_pluck": dict(ctor=KarplusStrongPluck, family="karplus-strong-delay-line-synthesis",
                                 inputs=[("control", ("N", 32), "float32", None)]),
    "auction_assignment": dict(ctor=AuctionAssignment, family="jacobi-auction-assignment",
                               inputs=[("persons", ("N", 24, 16), "float32", None),
                                       ("objects", ("N", 24, 16), "float32", None)]),
    "lucas_kanade_track": dict(ctor=LucasKanadeTrack, family="pyramidal-lucas-kanade-tracking",
                               inputs=[("frame0", ("N", 3, 64, 64), "float32", None),
                                       ("frame1", ("N", 3, 64, 64), "float32", None)]),
    "solov2_inst": dict(ctor=SOLOv2Inst, family="dynamic-kernel-matrix-nms-instance-segmentation",
                        inputs=[("image", ("N", 3, 128, 128), "float32", None)]),
    "r2n2_voxel": dict(ctor=R2N2Voxel, family="multiview-3d-conv-gru-voxel-reconstruction",
                       inputs=[("views", ("N", 3, 3, 64, 64), "float32", None)]),
    "xlstm_lm": dict(ctor=XLSTMLM, family="matrix-memory-exponential-gating-lstm",
                     inputs=[("tokens", ("N", 32), "int64", 2000)]),
    "pna_graph": dict(ctor=PNAGraph, family="multi-aggregator-degree-scaled-gnn",
                      inputs=[("x", ("N", 32, 16), "float32", None),
                              ("adj", ("N", 32, 32), "float32", None)]),
    "autoint_ctr": dict(ctor=AutoIntCTR, family="field-self-attention-ctr",
                        inputs=[("ids", ("N", 20), "int64", 1000),
                                ("dense", ("N", 6), "float32", None)]),
    "rocket_tsc": dict(ctor=RocketTSC, family="random-dilated-kernel-ppv-transform",
                       inputs=[("series", ("N", 1, 1024), "float32", None)]),
    "transolver_pde": dict(ctor=TransolverPDE, family="physics-slice-attention-transformer",
                           inputs=[("points", ("N", 512, 5), "float32", None)]),
    "leaf_pcen_frontend": dict(ctor=LEAFPCENFrontend, family="learnable-gabor-pcen-frontend",
                               inputs=[("wave", ("N", 1, 4000), "float32", None)]),
    "muzero_unroll": dict(ctor=MuZeroUnroll, family="learned-model-unrolled-planning",
                          inputs=[("obs", ("N", 17, 8, 8), "float32", None)]),
}
