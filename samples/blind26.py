r"""BLIND26: the twenty-sixth blind set, written on 2026-12-06 by a helper
session before any of it was measured.  Nothing in it has been timed,
profiled or run through onnxcost predict; it is to be measured first and
scored once only, at the end, with the code as it stands then
(bench/zoo_accuracy.py --set blind26).  None of its twelve families occurs
in another set (ZOO, BLIND, BLIND2 ... BLIND25, the reference models), so
no plan rule, feature, fit or calibration can have been made with any of
them in view.

Three families unroll a classical procedure into a fixed graph of small
kernels (a few hundred nodes), each with a small learned part:

  * Canny edge detection (Canny, "A Computational Approach to Edge
    Detection", 1986): a learned 1x1 Conv to grey, a fixed 5 x 5 Gaussian
    and Sobel pair, the gradient direction binned into four sectors by
    slope comparisons, non-maximum suppression against the two neighbours
    across the edge (shifted slices of the padded magnitude), two
    thresholds from a small MLP, and 32 rounds of hysteresis (a weak pixel
    becomes strong when a 3 x 3 MaxPool of the strong map touches it), on
    96 x 96 images.
  * The radix-2 decimation-in-time fast Fourier transform (Cooley & Tukey,
    "An Algorithm for the Machine Calculation of Complex Fourier Series",
    1965) in real arithmetic: a learned channel mix and a Hann window, the
    bit-reversal permutation as one Gather, eight butterfly stages
    (reshape into blocks, twiddle multiply of the odd halves, sum and
    difference, concatenate), then a log power spectrum, a learned
    filterbank and an MLP; 256 samples of 2 channels.
  * Gale-Shapley deferred acceptance (Gale & Shapley, "College Admissions
    and the Stability of Marriage", 1962), all proposals of a round at
    once: two sides of 8 with learned bilinear preference scores; every
    free proposer asks its best receiver that has not yet refused it,
    every receiver keeps the best of its holder and new suitors (Equal
    with a column maximum) and refuses the rest; 16 rounds, then the
    number of blocking pairs and an MLP over the matched pairs.

The other nine are published network designs of ordinary sizes:

  * DCN V2 (Wang, Shivanna, Cheng, Jain, Lin, Hong & Chi, "DCN V2:
    Improved Deep & Cross Network and Practical Lessons for Web-scale
    Learning to Rank Systems", 2021): 26 categorical fields looked up in
    one offset-indexed table, a 20-item history bag (Gather and mean), 13
    dense features; three full-rank cross layers x0 * (W x + b) + x beside
    a parallel deep tower, a logit from both.
  * DBNet (Liao, Wan, Yao, Chen & Bai, "Real-time Scene Text Detection
    with Differentiable Binarization", 2020): a half-width ResNet-18, an
    FPN whose four levels are upsampled to a quarter of the input and
    concatenated, probability and threshold heads of Conv and two stride-2
    ConvTransposes, and the approximate binary map 1 / (1 + exp(-k (P -
    T))); 320 x 320 images.
  * OpenPose (Cao, Simon, Wei & Sheikh, "Realtime Multi-Person 2D Pose
    Estimation using Part Affinity Fields", 2017): a half-width VGG-19
    front (ten 3x3 Convs, three pools), a first stage of two 3x3 branches
    for 38 part-affinity and 19 confidence maps, two refinement stages of
    five 7x7 Convs per branch on the features joined with the last
    predictions; 160 x 160 images.
  * TSM (Lin, Gan & Han, "TSM: Temporal Shift Module for Efficient Video
    Understanding", 2019): a half-width ResNet-18 run on the 8 frames of a
    clip folded into the batch, each residual branch first shifting an
    eighth of its channels one frame back and an eighth one frame forward
    (slices and zero padding), the frame logits averaged; 112 x 112 frames.
  * PointNet++ (Qi, Yi, Su & Guibas, "PointNet++: Deep Hierarchical
    Feature Learning on Point Sets in a Metric Space", 2017), the
    single-scale classifier: two set-abstraction levels (256 then 64
    centres, the leading points of the unordered cloud standing in for
    farthest-point sampling; 32 nearest neighbours by TopK, grouped by a
    Gather on the flattened cloud, relative coordinates, shared 1x1 Convs
    with BatchNorm, max over the group), a global level and a 40-way MLP;
    1024 points.
  * EGNN (Satorras, Hoogeboom & Welling, "E(n) Equivariant Graph Neural
    Networks", 2021): 29 atoms fully connected, six layers of an edge MLP
    on both node states and the squared distance, an equivariant position
    update along the difference vectors and a residual node MLP on the
    summed messages, a summed readout; hidden 64.
  * CRN (Tan & Wang, "A Convolutional Recurrent Neural Network for
    Real-Time Speech Enhancement", 2018): five causal (2 x 3) stride-(1, 2)
    Convs with BatchNorm and ELU over a 100-frame, 161-bin magnitude
    spectrogram, a two-layer LSTM of 512 over the flattened frequency
    axis, five ConvTransposes fed by skip concatenation, Softplus output.
  * DeBERTa (He, Liu, Gao & Chen, "DeBERTa: Decoding-enhanced BERT with
    Disentangled Attention", 2021): six post-norm layers of width 256 whose
    attention adds content-to-position and position-to-content terms,
    relative embeddings projected per layer and picked by a Gather on the
    clipped distance, scaled by 1/sqrt(3d); 128 tokens, 8000-word vocabulary.
  * 3D U-Net (Cicek, Abdulkadir, Lienkamp, Brox & Ronneberger, "3D U-Net:
    Learning Dense Volumetric Segmentation from Sparse Annotation", 2016):
    three levels of two 3x3x3 Convs with BatchNorm and ReLU and 2x2x2
    max pooling, a bottom level, ConvTranspose3d upsampling with skip
    concatenation, a 1x1x1 Conv to 3 classes; 40 x 40 x 40 volumes.

To be measured with

    OMP_WAIT_POLICY=PASSIVE /usr/bin/python3 scripts/measure_zoo.py --set blind26 \
        canny_edges radix2_fft gale_shapley dcnv2_ranker dbnet_text \
        openpose_paf tsm_resnet pointnet2_ssg egnn_qm9 crn_enhance \
        deberta_encoder unet3d_seg \
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


def _conv_bn(cin, cout, k=3, stride=1, act=True):
    """Conv2d without bias ('same' padding for odd k), BatchNorm, ReLU."""
    mods = [nn.Conv2d(cin, cout, k, stride, k // 2, bias=False), nn.BatchNorm2d(cout)]
    if act:
        mods.append(nn.ReLU())
    return nn.Sequential(*mods)


class _ReadHead(nn.Module):
    """Two stride-2 Convs, global mean, Linear: reads a small map."""

    def __init__(self, cin, cout, width=16):
        super().__init__()
        self.c1 = nn.Conv2d(cin, width, 3, 2, 1)
        self.c2 = nn.Conv2d(width, 2 * width, 3, 2, 1)
        self.fc = nn.Linear(2 * width, cout)

    def forward(self, x):
        y = F.relu(self.c2(F.relu(self.c1(x))))
        return self.fc(y.mean((2, 3)))


# --------------------------------------------------------------------------
# Unrolled classical procedures with a small learned part
# --------------------------------------------------------------------------

class CannyEdges(nn.Module):
    """Canny edges on a 96 x 96 image: learned grey conversion, Gaussian
    blur (sigma 1.4), Sobel gradients, magnitude; the direction sector from
    |gy| <= tan(22.5) |gx| (horizontal), |gy| >= tan(67.5) |gx| (vertical)
    and the sign of gx gy (the two diagonals); a pixel survives if its
    magnitude is at least the larger of its two neighbours across the
    edge.  High and low thresholds are fractions of the peak magnitude
    from an MLP of image statistics; 32 hysteresis rounds grow the strong
    set inside the weak set.  Returns the edge map and a Conv readout."""

    def __init__(self, side=96, rounds=32, sigma=1.4):
        super().__init__()
        self.side, self.rounds = side, rounds
        self.grey = nn.Conv2d(3, 1, 1)
        r = torch.arange(-2, 3, dtype=torch.float32)
        g = torch.exp(-r * r / (2.0 * sigma * sigma))
        g = torch.outer(g, g)
        self.register_buffer("gauss", (g / g.sum()).view(1, 1, 5, 5))
        sx = torch.tensor([[-1.0, 0.0, 1.0], [-2.0, 0.0, 2.0], [-1.0, 0.0, 1.0]])
        self.register_buffer("sobel", torch.stack([sx, sx.t()]).unsqueeze(1))
        self.thresh = _mlp(8, 32, 2)
        self.head = _ReadHead(2, 8)

    def forward(self, image):                     # (N, 3, 96, 96)
        h = w = self.side
        grey = F.conv2d(self.grey(image), self.gauss, padding=2)
        grad = F.conv2d(grey, self.sobel, padding=1)
        gx, gy = grad[:, 0:1], grad[:, 1:2]
        mag = torch.sqrt(gx * gx + gy * gy + 1e-12)
        ax, ay = gx.abs(), gy.abs()
        horiz = ay <= 0.41421356 * ax
        vert = ay >= 2.41421356 * ax
        diag = gx * gy > 0.0
        p = F.pad(mag, (1, 1, 1, 1))

        def at(dy, dx):
            return p[:, :, 1 + dy:1 + dy + h, 1 + dx:1 + dx + w]

        across = torch.where(horiz, torch.maximum(at(0, -1), at(0, 1)),
                             torch.where(vert, torch.maximum(at(-1, 0), at(1, 0)),
                                         torch.where(diag, torch.maximum(at(-1, -1), at(1, 1)),
                                                     torch.maximum(at(-1, 1), at(1, -1)))))
        thin = mag * (mag >= across).float()
        peak = mag.amax((2, 3), keepdim=True)
        stats = torch.cat([image.mean((2, 3)), image.std((2, 3)),
                           mag.mean((1, 2, 3)).unsqueeze(1), peak.flatten(1)], 1)
        t = torch.sigmoid(self.thresh(stats))
        high = (0.1 + 0.4 * t[:, 0]).view(-1, 1, 1, 1) * peak
        low = (0.2 + 0.6 * t[:, 1]).view(-1, 1, 1, 1) * high
        strong = (thin >= high).float()
        weak = (thin >= low).float()
        for _ in range(self.rounds):
            strong = weak * F.max_pool2d(strong, 3, 1, 1)
        return strong, self.head(torch.cat([strong, thin / (peak + 1e-6)], 1))


class Radix2FFT(nn.Module):
    """A 256-point radix-2 FFT in real arithmetic: a 1x1 Conv1d mixes the 2
    input channels to 8, a Hann window; the bit-reversed order by one
    index_select; stage s (half size m = 2^s) views the signal as blocks
    of 2m, multiplies the odd halves by exp(-2 pi i k / 2m) and writes the
    sums and differences back.  The log power of the 129 non-negative bins
    goes through a learned 129 -> 24 filterbank and an MLP."""

    def __init__(self, chans=2, mixes=8, length=256, bands=24, classes=12):
        super().__init__()
        self.length, self.mixes = length, mixes
        self.stages = int(round(math.log2(length)))
        self.mix = nn.Conv1d(chans, mixes, 1)
        n = torch.arange(length, dtype=torch.float32)
        self.register_buffer("window", 0.5 - 0.5 * torch.cos(2.0 * math.pi * n / length))
        rev = [int(format(i, "0%db" % self.stages)[::-1], 2) for i in range(length)]
        self.register_buffer("rev", torch.tensor(rev, dtype=torch.long))
        for s in range(self.stages):
            m = 2 ** s
            ang = -2.0 * math.pi * torch.arange(m, dtype=torch.float32) / (2 * m)
            self.register_buffer("cos%d" % s, torch.cos(ang))
            self.register_buffer("sin%d" % s, torch.sin(ang))
        self.bank = nn.Linear(length // 2 + 1, bands)
        self.head = _mlp(mixes * bands, 96, classes)

    def forward(self, signal):                    # (N, 2, 256)
        n = self.length
        re = torch.index_select(self.mix(signal) * self.window, 2, self.rev)
        im = torch.zeros_like(re)
        c = self.mixes
        for s in range(self.stages):
            m = 2 ** s
            re = re.reshape(-1, c, n // (2 * m), 2, m)
            im = im.reshape(-1, c, n // (2 * m), 2, m)
            wr, wi = getattr(self, "cos%d" % s), getattr(self, "sin%d" % s)
            er, ei, orr, oi = re[:, :, :, 0], im[:, :, :, 0], re[:, :, :, 1], im[:, :, :, 1]
            tr = orr * wr - oi * wi
            ti = orr * wi + oi * wr
            re = torch.cat([er + tr, er - tr], 3).reshape(-1, c, n)
            im = torch.cat([ei + ti, ei - ti], 3).reshape(-1, c, n)
        half = n // 2 + 1
        power = re[:, :, :half] ** 2 + im[:, :, :half] ** 2
        logspec = torch.log(power + 1e-6)
        feat = F.relu(self.bank(logspec))
        return logspec, self.head(feat.flatten(1))


class GaleShapley(nn.Module):
    """Deferred acceptance between 8 proposers and 8 receivers, described
    by 10 features each: proposer preferences P[i, j] and receiver
    preferences Q[j, i] are inner products of two learned projections.
    State: held (one-hot rows, who holds whom) and refused.  Each round,
    free proposers propose to the row maximum of P - big * refused; every
    receiver keeps the column maximum of Q^T over holder and suitors and
    refuses the others.  After 16 rounds (enough for nearly every random
    instance of this size; an unfinished one shows up as blocking pairs):
    the matching, the count of blocking pairs, and an MLP score of each
    matched pair summed."""

    def __init__(self, feats=10, dim=16, rounds=16):
        super().__init__()
        self.rounds, self.dim = rounds, dim
        self.big = 1.0e4
        self.pa, self.pb = nn.Linear(feats, dim), nn.Linear(feats, dim)
        self.qa, self.qb = nn.Linear(feats, dim), nn.Linear(feats, dim)
        self.pair = _mlp(2 * feats + 2, 32, 1)

    def forward(self, proposers, receivers):     # (N, 8, 10), (N, 8, 10)
        scale = 1.0 / math.sqrt(self.dim)
        pref = torch.matmul(self.pa(proposers), self.pb(receivers).transpose(1, 2)) * scale
        rpref = torch.matmul(self.qb(proposers), self.qa(receivers).transpose(1, 2)) * scale
        held = torch.zeros_like(pref)                                        # [i, j]
        refused = torch.zeros_like(pref)
        low = torch.full_like(pref, -self.big)
        for _ in range(self.rounds):
            free = 1.0 - held.sum(-1, keepdim=True)
            s = pref - self.big * refused
            asks = (s == s.max(-1, keepdim=True)[0]).float() * free
            cand = held + asks
            q = torch.where(cand > 0.5, rpref, low)
            keep = (q == q.max(1, keepdim=True)[0]).float() * cand
            refused = refused + cand - keep
            held = keep
        mine = (pref * held).sum(-1, keepdim=True)                          # proposer's own
        theirs = (rpref * held).sum(1, keepdim=True)                        # receiver's own
        blocking = ((pref > mine).float() * (rpref > theirs).float()).sum((1, 2))
        partner = torch.matmul(held, receivers)
        feat = torch.cat([proposers, partner, mine, (rpref * held).sum(-1, keepdim=True)], -1)
        return held, blocking, self.pair(feat).sum((1, 2))


# --------------------------------------------------------------------------
# Published network designs
# --------------------------------------------------------------------------

class DCNv2Ranker(nn.Module):
    """DCN V2 click model: 26 categorical fields of 1000 values each in one
    26000 x 16 table (field offsets added to the ids), a history bag of 20
    ids averaged from a 5000 x 16 table, 13 dense features; the 445-wide
    x0 passes three full-rank cross layers and, in parallel, a
    512-256 ReLU tower; a Linear on both gives the logit."""

    def __init__(self, dense=13, fields=26, vocab=1000, items=5000, emb=16, cross=3):
        super().__init__()
        self.table = nn.Embedding(fields * vocab, emb)
        self.items = nn.Embedding(items, emb)
        self.register_buffer("offsets", torch.arange(fields, dtype=torch.long) * vocab)
        width = dense + (fields + 1) * emb
        self.cross = nn.ModuleList([nn.Linear(width, width) for _ in range(cross)])
        self.deep = nn.Sequential(nn.Linear(width, 512), nn.ReLU(), nn.Linear(512, 256), nn.ReLU())
        self.out = nn.Linear(width + 256, 1)

    def forward(self, dense, sparse, history):   # (N, 13), (N, 26) int64, (N, 20) int64
        cat = self.table(sparse + self.offsets).flatten(1)
        bag = self.items(history).mean(1)
        x0 = torch.cat([torch.log1p(dense.abs()), cat, bag], 1)
        x = x0
        for layer in self.cross:
            x = x0 * layer(x) + x
        return torch.sigmoid(self.out(torch.cat([x, self.deep(x0)], 1)))


class _Basic(nn.Module):
    """ResNet basic block; an optional callable transforms the branch input."""

    def __init__(self, cin, cout, stride, pre=None):
        super().__init__()
        self.pre = pre
        self.c1 = _conv_bn(cin, cout, 3, stride)
        self.c2 = _conv_bn(cout, cout, 3, 1, act=False)
        self.proj = None
        if stride != 1 or cin != cout:
            self.proj = _conv_bn(cin, cout, 1, stride, act=False)

    def forward(self, x):
        s = x if self.proj is None else self.proj(x)
        y = x if self.pre is None else self.pre(x)
        return F.relu(self.c2(self.c1(y)) + s)


def _resnet18_stages(widths, pre=None):
    """Stem (7x7 stride 2 and max pool) and four stages of two basic blocks."""
    stem = nn.Sequential(_conv_bn(3, widths[0], 7, 2), nn.MaxPool2d(3, 2, 1))
    stages, cin = [], widths[0]
    for i, w in enumerate(widths):
        stages.append(nn.Sequential(_Basic(cin, w, 1 if i == 0 else 2, pre), _Basic(w, w, 1, pre)))
        cin = w
    return stem, nn.ModuleList(stages)


class DBNetText(nn.Module):
    """DBNet on 320 x 320 images: half-width ResNet-18 (32, 64, 128, 256 at
    strides 4 ... 32), 1x1 laterals to 96, top-down nearest upsampling and
    sums, a 3x3 Conv to 24 per level, all upsampled to 80 x 80 and
    concatenated; probability and threshold heads (3x3 Conv 96 -> 24, BN,
    ReLU, ConvTranspose 2x2 s2, BN, ReLU, ConvTranspose 2x2 s2 to 1,
    Sigmoid) and the binary map Sigmoid(50 (P - T))."""

    def __init__(self, widths=(32, 64, 128, 256), inner=96, k=50.0):
        super().__init__()
        self.k = k
        self.stem, self.stages = _resnet18_stages(widths)
        self.lat = nn.ModuleList([nn.Conv2d(w, inner, 1, bias=False) for w in widths])
        self.smooth = nn.ModuleList([nn.Conv2d(inner, inner // 4, 3, 1, 1, bias=False)
                                     for _ in widths])

        def head():
            q = inner // 4
            return nn.Sequential(_conv_bn(inner, q, 3), nn.ConvTranspose2d(q, q, 2, 2),
                                 nn.BatchNorm2d(q), nn.ReLU(), nn.ConvTranspose2d(q, 1, 2, 2),
                                 nn.Sigmoid())

        self.prob = head()
        self.thresh = head()

    def forward(self, image):                     # (N, 3, 320, 320)
        x = self.stem(image)
        feats = []
        for stage in self.stages:
            x = stage(x)
            feats.append(x)
        lat = [conv(f) for conv, f in zip(self.lat, feats)]
        for i in range(len(lat) - 2, -1, -1):
            lat[i] = lat[i] + F.interpolate(lat[i + 1], scale_factor=2.0, mode="nearest")
        outs = []
        for i, (sm, t) in enumerate(zip(self.smooth, lat)):
            y = sm(t)
            if i:
                y = F.interpolate(y, scale_factor=float(2 ** i), mode="nearest")
            outs.append(y)
        fuse = torch.cat(outs, 1)
        p, t = self.prob(fuse), self.thresh(fuse)
        return p, t, torch.sigmoid(self.k * (p - t))


class OpenPosePAF(nn.Module):
    """OpenPose body model on 160 x 160 images: VGG-19 front at half width
    (32, 32, pool, 64, 64, pool, 128 x 4, pool, 256, 256) and two 3x3
    Convs to 128 then 64 features at 20 x 20; stage 1: per branch three
    3x3 Convs of 64, a 1x1 of 256 and a 1x1 to 38 affinity (resp. 19
    confidence) maps; two refinement stages on the concatenated features
    and predictions: five 7x7 Convs of 64, 1x1 of 64, 1x1 out."""

    def __init__(self, pafs=38, parts=19, width=64, refine=2):
        super().__init__()
        cfg = [32, 32, "M", 64, 64, "M", 128, 128, 128, 128, "M", 256, 256]
        layers, cin = [], 3
        for c in cfg:
            if c == "M":
                layers.append(nn.MaxPool2d(2, 2))
            else:
                layers += [nn.Conv2d(cin, c, 3, 1, 1), nn.ReLU()]
                cin = c
        layers += [nn.Conv2d(cin, 128, 3, 1, 1), nn.ReLU(), nn.Conv2d(128, width, 3, 1, 1), nn.ReLU()]
        self.front = nn.Sequential(*layers)

        def first(cout):
            return nn.Sequential(nn.Conv2d(width, width, 3, 1, 1), nn.ReLU(),
                                 nn.Conv2d(width, width, 3, 1, 1), nn.ReLU(),
                                 nn.Conv2d(width, width, 3, 1, 1), nn.ReLU(),
                                 nn.Conv2d(width, 256, 1), nn.ReLU(), nn.Conv2d(256, cout, 1))

        def later(cout):
            mods, c = [], width + pafs + parts
            for _ in range(5):
                mods += [nn.Conv2d(c, width, 7, 1, 3), nn.ReLU()]
                c = width
            mods += [nn.Conv2d(width, width, 1), nn.ReLU(), nn.Conv2d(width, cout, 1)]
            return nn.Sequential(*mods)

        self.paf0, self.conf0 = first(pafs), first(parts)
        self.pafs = nn.ModuleList([later(pafs) for _ in range(refine)])
        self.confs = nn.ModuleList([later(parts) for _ in range(refine)])

    def forward(self, image):                     # (N, 3, 160, 160)
        f = self.front(image)
        paf, conf = self.paf0(f), self.conf0(f)
        for bp, bc in zip(self.pafs, self.confs):
            x = torch.cat([f, paf, conf], 1)
            paf, conf = bp(x), bc(x)
        return paf, conf


class _TemporalShift(nn.Module):
    """Moves channels [0, C/8) one frame earlier and [C/8, C/4) one frame
    later within each clip of the folded (N * T, C, H, W) batch; zeros
    fill the ends."""

    def __init__(self, frames, div=8):
        super().__init__()
        self.t, self.div = frames, div

    def forward(self, x):
        c, h, w = x.shape[1], x.shape[2], x.shape[3]
        f = c // self.div
        v = x.reshape(-1, self.t, c, h, w)
        pad = torch.zeros_like(v[:, :1, :f])
        back = torch.cat([v[:, 1:, :f], pad], 1)
        fwd = torch.cat([pad, v[:, :-1, f:2 * f]], 1)
        return torch.cat([back, fwd, v[:, :, 2 * f:]], 2).reshape(-1, c, h, w)


class TSMResNet(nn.Module):
    """TSM on 8-frame clips of 112 x 112: a half-width ResNet-18 with a
    temporal shift at the start of every residual branch, global pooling,
    a 400-way Linear per frame and the mean over frames."""

    def __init__(self, frames=8, widths=(32, 64, 128, 256), classes=400):
        super().__init__()
        self.frames = frames
        self.stem, self.stages = _resnet18_stages(widths, _TemporalShift(frames))
        self.fc = nn.Linear(widths[-1], classes)

    def forward(self, clip):                      # (N, 8, 3, 112, 112)
        x = self.stem(clip.reshape(-1, 3, clip.shape[3], clip.shape[4]))
        for stage in self.stages:
            x = stage(x)
        logits = self.fc(x.mean((2, 3)))
        return logits.reshape(-1, self.frames, logits.shape[1]).mean(1)


class _SetAbstraction(nn.Module):
    """Centres = the first `centres` points; for each, the k nearest points
    (TopK of the negated squared distance) are gathered from the flattened
    (N * P, C) cloud, their coordinates made relative to the centre and
    joined to their features, run through 1x1 Conv2d + BN + ReLU layers
    and max-pooled over the group."""

    def __init__(self, centres, k, cin, widths):
        super().__init__()
        self.centres, self.k = centres, k
        mods, c = [], cin + 3
        for w in widths:
            mods += [nn.Conv2d(c, w, 1, bias=False), nn.BatchNorm2d(w), nn.ReLU()]
            c = w
        self.mlp = nn.Sequential(*mods)

    def forward(self, xyz, feat=None):            # (N, P, 3), (N, P, C)
        p = xyz.shape[1]
        ctr = xyz[:, :self.centres]
        d = (ctr * ctr).sum(-1, keepdim=True) - 2.0 * torch.matmul(ctr, xyz.transpose(1, 2)) \
            + (xyz * xyz).sum(-1).unsqueeze(1)
        idx = torch.topk(-d, self.k, -1)[1]                                 # (N, M, k)
        base = torch.arange(xyz.shape[0], device=xyz.device).view(-1, 1, 1) * p
        flat = (idx + base).flatten()
        pts = xyz if feat is None else torch.cat([xyz, feat], -1)
        grp = pts.reshape(-1, pts.shape[2])[flat].reshape(-1, self.centres, self.k, pts.shape[2])
        rel = torch.cat([grp[..., :3] - ctr.unsqueeze(2), grp[..., 3:]], -1)
        y = self.mlp(rel.permute(0, 3, 1, 2)).amax(-1)                      # (N, C', M)
        return ctr, y.transpose(1, 2)


class PointNet2SSG(nn.Module):
    """PointNet++ single-scale classifier on 1024 points: SA(256 centres,
    k 32, 64-64-128), SA(64 centres, k 32, 128-128-256), a global
    PointNet 256-512-1024 with max pooling, then 512-256-40 with BN."""

    def __init__(self, classes=40):
        super().__init__()
        self.sa1 = _SetAbstraction(256, 32, 0, (64, 64, 128))
        self.sa2 = _SetAbstraction(64, 32, 128, (128, 128, 256))
        self.glob = nn.Sequential(nn.Conv1d(256 + 3, 256, 1, bias=False), nn.BatchNorm1d(256), nn.ReLU(),
                                  nn.Conv1d(256, 512, 1, bias=False), nn.BatchNorm1d(512), nn.ReLU(),
                                  nn.Conv1d(512, 1024, 1, bias=False), nn.BatchNorm1d(1024), nn.ReLU())
        self.head = nn.Sequential(nn.Linear(1024, 512, bias=False), nn.BatchNorm1d(512), nn.ReLU(),
                                  nn.Linear(512, 256, bias=False), nn.BatchNorm1d(256), nn.ReLU(),
                                  nn.Linear(256, classes))

    def forward(self, points):                    # (N, 1024, 3)
        xyz, f = self.sa1(points)
        xyz, f = self.sa2(xyz, f)
        g = self.glob(torch.cat([xyz, f], -1).transpose(1, 2)).amax(-1)
        return self.head(g)


class _EGCL(nn.Module):
    """E(n)-equivariant graph convolution on a fully connected graph."""

    def __init__(self, dim, atoms):
        super().__init__()
        self.edge = nn.Sequential(nn.Linear(2 * dim + 1, dim), nn.SiLU(), nn.Linear(dim, dim), nn.SiLU())
        self.coord = nn.Sequential(nn.Linear(dim, dim), nn.SiLU(), nn.Linear(dim, 1, bias=False))
        self.node = nn.Sequential(nn.Linear(2 * dim, dim), nn.SiLU(), nn.Linear(dim, dim))
        self.atoms = atoms
        self.register_buffer("mask", (1.0 - torch.eye(atoms)).view(1, atoms, atoms, 1))
        self.norm = 1.0 / (atoms - 1)

    def forward(self, h, x):                      # (N, A, D), (N, A, 3)
        a = self.atoms
        diff = x.unsqueeze(2) - x.unsqueeze(1)                              # (N, A, A, 3)
        d2 = (diff * diff).sum(-1, keepdim=True)
        hi = h.unsqueeze(2).expand(-1, -1, a, -1)
        hj = h.unsqueeze(1).expand(-1, a, -1, -1)
        m = self.edge(torch.cat([hi, hj, d2], -1)) * self.mask
        x = x + self.norm * (diff * self.coord(m) * self.mask).sum(2)
        h = h + self.node(torch.cat([h, m.sum(2)], -1))
        return h, x


class EGNNQM9(nn.Module):
    """EGNN for a molecular property: 29 atoms with 11 input features and 3D
    positions, Linear embedding to 64, six EGCL layers, a node MLP summed
    over atoms and a graph MLP; returns the property and final positions."""

    def __init__(self, atoms=29, feats=11, dim=64, layers=6):
        super().__init__()
        self.embed = nn.Linear(feats, dim)
        self.layers = nn.ModuleList([_EGCL(dim, atoms) for _ in range(layers)])
        self.node_out = _mlp(dim, dim, dim, nn.SiLU)
        self.graph_out = _mlp(dim, dim, 1, nn.SiLU)

    def forward(self, atoms, positions):         # (N, 29, 11), (N, 29, 3)
        h, x = self.embed(atoms), positions
        for layer in self.layers:
            h, x = layer(h, x)
        return self.graph_out(self.node_out(h).sum(1)), x


class CRNEnhance(nn.Module):
    """CRN on a (1, 100 frames, 161 bins) magnitude spectrogram: encoder
    Convs (2 x 3, stride (1, 2), one frame of causal padding) 1 -> 16 -> 32
    -> 64 -> 128 -> 128, BN, ELU (bins 80, 39, 19, 9, 4); a 2-layer LSTM of
    512 over the 128 x 4 features per frame; decoder ConvTransposes on
    [skip, previous] back to 161 bins (the last frame of each dropped),
    BN and ELU, Softplus at the end."""

    def __init__(self, chans=(16, 32, 64, 128, 128), hidden=512):
        super().__init__()
        enc, cin = [], 1
        for c in chans:
            enc.append(nn.Sequential(nn.Conv2d(cin, c, (2, 3), (1, 2)), nn.BatchNorm2d(c), nn.ELU()))
            cin = c
        self.enc = nn.ModuleList(enc)
        self.rnn = nn.LSTM(chans[-1] * 4, hidden, num_layers=2, batch_first=True)
        dec = []
        outs = list(chans[-2::-1]) + [1]
        for i, c in enumerate(outs):
            pad = (0, 1) if i == len(outs) - 2 else (0, 0)
            dec.append(nn.ConvTranspose2d(2 * cin, c, (2, 3), (1, 2), output_padding=pad))
            cin = c
        self.dec = nn.ModuleList(dec)
        self.dec_norm = nn.ModuleList([nn.BatchNorm2d(c) for c in outs[:-1]])

    def forward(self, spec):                      # (N, 1, 100, 161)
        x, skips = spec, []
        for layer in self.enc:
            x = layer(F.pad(x, (0, 0, 1, 0)))
            skips.append(x)
        c, t, f = x.shape[1], x.shape[2], x.shape[3]
        r = self.rnn(x.permute(0, 2, 1, 3).reshape(-1, t, c * f))[0]
        x = r.reshape(-1, t, c, f).permute(0, 2, 1, 3)
        for i, layer in enumerate(self.dec):
            x = layer(torch.cat([skips[-1 - i], x], 1))[:, :, :-1]
            if i < len(self.dec_norm):
                x = F.elu(self.dec_norm[i](x))
        return F.softplus(x)


class _DisentangledAttention(nn.Module):
    """DeBERTa self-attention: content-content, content-to-position
    (Q_c . K_r[delta(i, j)]) and position-to-content (K_c . Q_r[delta(j, i)])
    scores, the relative tables picked by torch.gather on the clipped
    distance delta(i, j) = clamp(i - j + span, 0, 2 span - 1)."""

    def __init__(self, dim, heads, length, span):
        super().__init__()
        self.heads, self.hd = heads, dim // heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.pos_q = nn.Linear(dim, dim)
        self.pos_k = nn.Linear(dim, dim, bias=False)
        self.out = nn.Linear(dim, dim)
        i = torch.arange(length).view(-1, 1)
        j = torch.arange(length).view(1, -1)
        self.register_buffer("delta", torch.clamp(i - j + span, 0, 2 * span - 1))

    def forward(self, x, rel):                    # (N, L, D), (2 span, D)
        n, h, hd = x.shape[1], self.heads, self.hd
        q, k, v = self.qkv(x).view(-1, n, 3, h, hd).permute(2, 0, 3, 1, 4).unbind(0)
        pq = self.pos_q(rel).view(-1, h, hd).transpose(0, 1)                # (h, 2s, hd)
        pk = self.pos_k(rel).view(-1, h, hd).transpose(0, 1)
        idx = self.delta.expand(x.shape[0], h, n, n)
        c2c = torch.matmul(q, k.transpose(-1, -2))
        c2p = torch.gather(torch.matmul(q, pk.transpose(-1, -2)), -1, idx)
        p2c = torch.gather(torch.matmul(k, pq.transpose(-1, -2)), -1, idx).transpose(-1, -2)
        a = torch.softmax((c2c + c2p + p2c) / math.sqrt(3.0 * hd), -1)
        y = torch.matmul(a, v).transpose(1, 2).reshape(-1, n, h * hd)
        return self.out(y)


class _DebertaLayer(nn.Module):
    """Post-norm encoder layer around the disentangled attention."""

    def __init__(self, dim, heads, length, span):
        super().__init__()
        self.attn = _DisentangledAttention(dim, heads, length, span)
        self.n1, self.n2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.ff = _mlp(dim, 4 * dim, dim, nn.GELU)

    def forward(self, x, rel):
        x = self.n1(x + self.attn(x, rel))
        return self.n2(x + self.ff(x))


class DebertaEncoder(nn.Module):
    """DeBERTa-style encoder: 8000 x 256 word embeddings and LayerNorm, a
    shared 128 x 256 relative-position table (LayerNorm), six layers of 4
    heads (FFN 1024), a pooler on the first token and a 3-way classifier."""

    def __init__(self, vocab=8000, dim=256, heads=4, depth=6, length=128, span=64, classes=3):
        super().__init__()
        self.words = nn.Embedding(vocab, dim)
        self.emb_norm = nn.LayerNorm(dim)
        self.rel = nn.Parameter(torch.randn(2 * span, dim) * 0.02)
        self.rel_norm = nn.LayerNorm(dim)
        self.layers = nn.ModuleList([_DebertaLayer(dim, heads, length, span) for _ in range(depth)])
        self.pool = nn.Linear(dim, dim)
        self.fc = nn.Linear(dim, classes)

    def forward(self, tokens):                    # (N, 128) int64
        x = self.emb_norm(self.words(tokens))
        rel = self.rel_norm(self.rel)
        for layer in self.layers:
            x = layer(x, rel)
        return self.fc(torch.tanh(self.pool(x[:, 0])))


def _double3d(cin, mid, cout):
    """Two 3x3x3 Convs with BatchNorm3d and ReLU."""
    return nn.Sequential(nn.Conv3d(cin, mid, 3, 1, 1, bias=False), nn.BatchNorm3d(mid), nn.ReLU(),
                         nn.Conv3d(mid, cout, 3, 1, 1, bias=False), nn.BatchNorm3d(cout), nn.ReLU())


class UNet3D(nn.Module):
    """3D U-Net on 40^3 single-channel volumes: encoder levels (1 -> 8 ->
    16), (16 -> 16 -> 32), (32 -> 32 -> 64) with 2x2x2 max pooling, bottom
    (64 -> 64 -> 128) at 5^3; decoder: ConvTranspose3d halving the
    channels, concatenation with the skip, two Convs; 1x1x1 to 3 classes."""

    def __init__(self, classes=3):
        super().__init__()
        self.e0, self.e1, self.e2 = _double3d(1, 8, 16), _double3d(16, 16, 32), _double3d(32, 32, 64)
        self.bottom = _double3d(64, 64, 128)
        self.u2, self.d2 = nn.ConvTranspose3d(128, 64, 2, 2), _double3d(128, 64, 64)
        self.u1, self.d1 = nn.ConvTranspose3d(64, 32, 2, 2), _double3d(64, 32, 32)
        self.u0, self.d0 = nn.ConvTranspose3d(32, 16, 2, 2), _double3d(32, 16, 16)
        self.out = nn.Conv3d(16, classes, 1)

    def forward(self, volume):                    # (N, 1, 40, 40, 40)
        s0 = self.e0(volume)
        s1 = self.e1(F.max_pool3d(s0, 2))
        s2 = self.e2(F.max_pool3d(s1, 2))
        x = self.bottom(F.max_pool3d(s2, 2))
        x = self.d2(torch.cat([s2, self.u2(x)], 1))
        x = self.d1(torch.cat([s1, self.u1(x)], 1))
        x = self.d0(torch.cat([s0, self.u0(x)], 1))
        return self.out(x)


BLIND26 = {
    "canny_edges": dict(ctor=CannyEdges, family="canny-edge-hysteresis",
                        inputs=[("image", ("N", 3, 96, 96), "float32", None)]),
    "radix2_fft": dict(ctor=Radix2FFT, family="cooley-tukey-radix2-butterfly",
                       inputs=[("signal", ("N", 2, 256), "float32", None)]),
    "gale_shapley": dict(ctor=GaleShapley, family="gale-shapley-deferred-acceptance",
                         inputs=[("proposers", ("N", 8, 10), "float32", None),
                                 ("receivers", ("N", 8, 10), "float32", None)]),
    "dcnv2_ranker": dict(ctor=DCNv2Ranker, family="deep-cross-network-v2",
                         inputs=[("dense", ("N", 13), "float32", None),
                                 ("sparse", ("N", 26), "int64", 1000),
                                 ("history", ("N", 20), "int64", 5000)]),
    "dbnet_text": dict(ctor=DBNetText, family="differentiable-binarization-text-detection",
                       inputs=[("image", ("N", 3, 320, 320), "float32", None)]),
    "openpose_paf": dict(ctor=OpenPosePAF, family="part-affinity-field-multistage",
                         inputs=[("image", ("N", 3, 160, 160), "float32", None)]),
    "tsm_resnet": dict(ctor=TSMResNet, family="temporal-shift-module",
                       inputs=[("clip", ("N", 8, 3, 112, 112), "float32", None)]),
    "pointnet2_ssg": dict(ctor=PointNet2SSG, family="pointnet-set-abstraction",
                          inputs=[("points", ("N", 1024, 3), "float32", None)]),
    "egnn_qm9": dict(ctor=EGNNQM9, family="e-n-equivariant-message-passing",
                     inputs=[("atoms", ("N", 29, 11), "float32", None),
                             ("positions", ("N", 29, 3), "float32", None)]),
    "crn_enhance": dict(ctor=CRNEnhance, family="convolutional-recurrent-speech-enhancement",
                        inputs=[("spec", ("N", 1, 100, 161), "float32", None)]),
    "deberta_encoder": dict(ctor=DebertaEncoder, family="disentangled-content-position-attention",
                            inputs=[("tokens", ("N", 128), "int64", 8000)]),
    "unet3d_seg": dict(ctor=UNet3D, family="volumetric-3d-unet",
                       inputs=[("volume", ("N", 1, 40, 40, 40), "float32", None)]),
}
