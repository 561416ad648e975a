r"""BLIND37: the thirty-seventh blind set, written on 2026-12-07 by a helper
session before any of it was measured.  Nothing in it has been timed,
profiled or run through onnxcost predict; it is to be measured first and
scored once only, at the end, with the code as it stands then
(bench/zoo_accuracy.py --set blind37).  None of its twelve families occurs
in another set (ZOO, BLIND, BLIND2 ... BLIND36, the reference models), so
no plan rule, feature, fit or calibration can have been made with any of
them in view.

Three families unroll a classical procedure into a fixed graph of small
kernels (several hundred to about two thousand nodes each, Constants
included), each with a small learned part:

  * Semi-global matching stereo (H. Hirschmueller, "Accurate and
    Efficient Stereo Processing by Semi-Global Matching and Mutual
    Information", 2005; "Stereo Processing by Semiglobal Matching and
    Mutual Information", 2008) on learned matching costs in the manner
    of MC-CNN (J. Zbontar & Y. LeCun, "Stereo Matching by Training a
    Convolutional Neural Network to Compare Image Patches", 2016): a
    shared Conv tower gives L2-normalised features of a 48 x 64 stereo
    pair at half resolution, the cosine matching cost of 16 disparities
    is built by shifted copies, and the cost is aggregated along four
    scanline directions (left-right and right-left together, then
    top-bottom and bottom-top together, the reversed directions by index
    reversal), each step L(p, d) = C(p, d) + min(L(p-r, d), L(p-r, d+-1)
    + P1, min_k L(p-r, k) + P2) - min_k L(p-r, k) with learned penalties;
    the summed paths give a winner-take-all and a soft-argmin disparity,
    a small Conv refinement and a bilinear upsampling.
  * Affinity propagation (B. J. Frey & D. Dueck, "Clustering by Passing
    Messages Between Data Points", 2007): an MLP embeds 128 points of 8
    features, the similarities are negative squared distances (MatMul),
    the preferences the mean similarity plus a learned per-point offset,
    and 30 damped rounds of responsibility messages (the best and second
    best competing exemplar by Max, ArgMax and a one-hot mask) and
    availability messages (positive responsibilities summed over the
    column, diagonal kept apart, clipped at zero) are unrolled; the
    exemplars, the assignments and the cluster count come out.
  * Restarted GMRES (Y. Saad & M. H. Schultz, "GMRES: A Generalized
    Minimal Residual Algorithm for Solving Nonsymmetric Linear Systems",
    1986) on a convection-diffusion problem: a small Conv net maps three
    input fields on a 32 x 32 grid to a velocity field and a source; the
    nonsymmetric operator (five-point Laplacian plus centred convection,
    Dirichlet boundary) is applied matrix-free by a fixed stencil Conv;
    GMRES(8) with three restarts runs the Arnoldi process by modified
    Gram-Schmidt, Givens rotations of every Hessenberg column and the
    residual vector, and the triangular back substitution, all on
    per-sample scalars.  The solution, the true residual norm at every
    restart and the rotated residual estimates come out.

The other nine are published network designs of ordinary sizes:

  * ESRGAN (X. Wang, K. Yu, S. Wu, J. Gu, Y. Liu, C. Dong, C. C. Loy,
    Y. Qiao & X. Tang, "ESRGAN: Enhanced Super-Resolution Generative
    Adversarial Networks", 2018), the RRDBNet generator scaled down:
    three residual-in-residual dense blocks (each three five-Conv dense
    blocks of 32 features and growth 16, LeakyReLU, residual scaling
    0.2), trunk Conv, two nearest-neighbour x2 upsamplings with Convs,
    HR Conv; 32 x 32 to 128 x 128.
  * Onsets and Frames (C. Hawthorne, E. Elsen, J. Song, A. Roberts,
    I. Simon, C. Raffel, J. Engel, S. Oore & D. Eck, "Onsets and Frames:
    Dual-Objective Piano Transcription", 2018) with the offset and
    velocity stacks of its MAESTRO version (Hawthorne et al., "Enabling
    Factorized Piano Music Modeling and Generation with the MAESTRO
    Dataset", 2019): four Kelz-style acoustic Conv stacks over 48 frames
    of a 229-bin log-mel spectrogram, BiLSTMs for onsets and offsets, the
    frame stack conditioned on the onset and offset predictions through
    its own BiLSTM; 88 keys.
  * RETRO (S. Borgeaud, A. Mensch, J. Hoffmann, T. Cai, E. Rutherford,
    K. Millican et al., "Improving language models by retrieving from
    trillions of tokens", 2022), small: a 128-token decoder of 256
    (4 layers, 4 heads, learned positions) with chunked cross-attention
    in layers 2 and 4 to the retrieved neighbours of 4 chunks of 32
    (2 neighbours of 64 tokens each), the neighbours encoded by a
    bidirectional 2-layer encoder of 128 conditioned on the chunk's
    decoder activations; the causal shift of chunk-size minus one; the
    logits of the last chunk.
  * ChebNet (M. Defferrard, X. Bresson & P. Vandergheynst,
    "Convolutional Neural Networks on Graphs with Fast Localized
    Spectral Filtering", 2016) on the 28 x 28 grid graph of the paper's
    MNIST experiment (8 nearest neighbours, Gaussian weights, rescaled
    normalised Laplacians by dense MatMul), nodes in a coarsening order
    so that graph pooling is a max over 4 consecutive nodes:
    GC32-P4-GC64-P4-FC512 with Chebyshev order 12.
  * SR-GNN (S. Wu, Y. Tang, Y. Zhu, L. Wang, X. Xie & T. Tan,
    "Session-based Recommendation with Graph Neural Networks", 2019):
    a session of 16 clicks (40000-item table of 100), the session graph's
    normalised outgoing and incoming adjacency built from item equality
    and the click transitions, one gated graph step (GRU-style), soft
    attention of every node to the last click (duplicates counted once),
    the hybrid session embedding and the top 20 of all items.
  * PaiNN (K. T. Schuett, O. T. Unke & M. Gastegger, "Equivariant
    message passing for the prediction of tensorial properties and
    molecular spectra", 2021) on 29 atoms (QM9 size): scalar and vector
    features of 128, 20 sine radial bases with a cosine cutoff at 5,
    three message and update blocks over all atom pairs, an energy head
    and the dipole moment from gated equivariant blocks (latent charges
    and atomic dipoles).
  * Rainbow (M. Hessel, J. Modayil, H. van Hasselt, T. Schaul,
    G. Ostrovski, W. Dabney, D. Horgan, B. Piot, M. Azar & D. Silver,
    "Rainbow: Combining Improvements in Deep Reinforcement Learning",
    2018): the Nature DQN torso on four 84 x 84 frames, dueling value and
    advantage streams of factorised-Gaussian noisy linear layers (noise
    held in buffers), 51-atom return distributions (softmax per action)
    and their expectations for 18 actions.
  * iTransformer (Y. Liu, T. Hu, H. Zhang, H. Wu, S. Wang, L. Ma &
    M. Long, "iTransformer: Inverted Transformers Are Effective for Time
    Series Forecasting", 2024) at Electricity size: 321 variates and 4
    time-feature covariates of 96 steps, each series normalised and
    embedded as one token (Linear 96 -> 128), three encoder layers across
    the variate tokens, projection to a 96-step horizon and
    de-normalisation.
  * VoxelMorph, diffeomorphic (G. Balakrishnan, A. Zhao, M. R. Sabuncu,
    J. Guttag & A. V. Dalca, "VoxelMorph: A Learning Framework for
    Deformable Medical Image Registration", 2019; A. V. Dalca,
    G. Balakrishnan, J. Guttag & M. R. Sabuncu, "Unsupervised learning of
    probabilistic diffeomorphic registration for images and surfaces",
    2019), in 2-D on 128 x 128 slices: the U-Net (16, 32, 32, 32 /
    32, 32, 32, 32, 32, 16, 16, LeakyReLU 0.2) on the moving and fixed
    images, a stationary velocity field at half resolution integrated by
    seven scaling-and-squaring steps, each a bilinear self-warp written
    out (Floor, corner indices, GatherElements), resized back, and the
    moving image warped by the deformation.

To be measured with

    OMP_WAIT_POLICY=PASSIVE /usr/bin/python3 scripts/measure_zoo.py --set blind37 \
        sgm_stereo affinity_propagation gmres_convdiff esrgan_rrdb \
        onsets_frames_piano retro_chunked_lm chebnet_mnist srgnn_session \
        painn_molecule rainbow_dqn itransformer_forecast voxelmorph_diffeo \
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
    """Multi-head attention with separate query and key/value inputs (keys
    and values of width kv_dim) and an optional additive mask."""

    def __init__(self, dim, heads, kv_dim=None):
        super().__init__()
        kv_dim = kv_dim or dim
        self.heads, self.scale = heads, 1.0 / math.sqrt(dim // heads)
        self.q, self.k, self.v = nn.Linear(dim, dim), nn.Linear(kv_dim, dim), nn.Linear(kv_dim, dim)
        self.o = nn.Linear(dim, dim)

    def forward(self, q, kv, mask=None):
        q, k, v = _heads(self.q(q), self.heads), _heads(self.k(kv), self.heads), _heads(self.v(kv), self.heads)
        s = torch.matmul(q, k.transpose(2, 3)) * self.scale
        if mask is not None:
            s = s + mask
        return self.o(_merge(torch.matmul(torch.softmax(s, -1), v)))


def _bilinear(img, x, y):
    """Bilinear samples of img (N, C, H, W) at pixel coordinates x, y
    (N, H W), zero outside (as grid_sample's zeros padding): Floor, the
    four corners' flat indices, GatherElements on the flattened image."""
    n_c, h, w = img.shape[1], img.shape[2], img.shape[3]
    flat = img.reshape(-1, n_c, h * w)
    x0, y0 = torch.floor(x), torch.floor(y)
    out = 0
    for dx in (0, 1):
        for dy in (0, 1):
            xi, yi = x0 + dx, y0 + dy
            wgt = (1.0 - (x - xi).abs()) * (1.0 - (y - yi).abs())
            inside = ((xi >= 0) & (xi <= w - 1) & (yi >= 0) & (yi <= h - 1)).to(img.dtype)
            idx = (yi.clamp(0, h - 1) * w + xi.clamp(0, w - 1)).long()
            g = torch.gather(flat, 2, idx.unsqueeze(1).expand(-1, n_c, -1))
            out = out + g * (wgt * inside).unsqueeze(1)
    return out.view(-1, n_c, h, w)


# --------------------------------------------------------------------------
# Unrolled classical procedures with a small learned part
# --------------------------------------------------------------------------

class SGMStereo(nn.Module):
    """Semi-global matching on learned costs: a shared tower (Conv 1 -> 32
    3 x 3 stride 2, three Convs 32 -> 32, ReLU between, channel L2
    normalisation) on the left and right 48 x 64 images, cosine costs
    1 - <fL(x), fR(x - d)> for 16 disparities (shifted, zero padded), and
    the SGM recursion along the 32 columns (left-right and right-left
    stacked) and the 24 rows (top-bottom and bottom-top stacked) with
    learned P1 and P2 >= P1; the four path costs summed, the
    winner-take-all disparity (ArgMin), a soft-argmin disparity and its
    peak probability; a 3-layer Conv refinement on the soft disparity and
    the half-resolution left image, then x2 bilinear upsampling.
    Returns the refined full-resolution disparity (N, 1, 48, 64), the
    winner-take-all disparity (N, 1, 24, 32) and the confidence
    (N, 1, 24, 32)."""

    def __init__(self, feat=32, disp=16, height=48, width=64):
        super().__init__()
        self.disp = disp
        self.tower = nn.Sequential(nn.Conv2d(1, feat, 3, 2, 1), nn.ReLU(),
                                   nn.Conv2d(feat, feat, 3, 1, 1), nn.ReLU(),
                                   nn.Conv2d(feat, feat, 3, 1, 1), nn.ReLU(),
                                   nn.Conv2d(feat, feat, 3, 1, 1))
        self.p1 = nn.Parameter(torch.tensor(-2.0))
        self.p2 = nn.Parameter(torch.tensor(-0.5))
        self.temp = nn.Parameter(torch.tensor(2.0))
        self.register_buffer("rev_w", torch.arange(width // 2 - 1, -1, -1))
        self.register_buffer("rev_h", torch.arange(height // 2 - 1, -1, -1))
        self.register_buffer("dvals", torch.arange(disp, dtype=torch.float32).view(1, disp, 1, 1))
        self.refine = nn.Sequential(nn.Conv2d(2, 32, 3, 1, 1), nn.ReLU(), nn.Conv2d(32, 32, 3, 1, 1), nn.ReLU(),
                                    nn.Conv2d(32, 1, 3, 1, 1))

    def _features(self, img):
        f = self.tower(img)
        return f / torch.sqrt((f * f).sum(1, keepdim=True) + 1.0e-6)

    @staticmethod
    def _path(cost, dim, p1, p2):
        """SGM aggregation of cost (N, 2, D, H, W) along dim (3 or 4)."""
        steps = cost.shape[dim]
        prev = cost.select(dim, 0)                                          # (N, 2, D, .)
        out = [prev]
        for t in range(1, steps):
            m = prev.min(2, keepdim=True).values
            # neighbours d + 1 and d - 1, the edge disparity repeated (which
            # then never wins: min(L(d), L(d) + P1) = L(d))
            up = torch.cat([prev[:, :, 1:], prev[:, :, -1:]], 2)
            dn = torch.cat([prev[:, :, :1], prev[:, :, :-1]], 2)
            best = torch.min(torch.min(prev, torch.min(up, dn) + p1), m + p2)
            prev = cost.select(dim, t) + best - m
            out.append(prev)
        return torch.stack(out, dim)

    def forward(self, left, right):               # (N, 1, 48, 64) each
        fl, fr = self._features(left), self._features(right)                # (N, F, 24, 32)
        w = fl.shape[3]
        costs = [1.0 - (fl * fr).sum(1)]
        for d in range(1, self.disp):
            shifted = F.pad(fr[..., :w - d], (d, 0))
            costs.append(1.0 - (fl * shifted).sum(1))
        cost = torch.stack(costs, 1)                                        # (N, D, H, W)
        p1 = F.softplus(self.p1)
        p2 = p1 + F.softplus(self.p2)
        horiz = self._path(torch.stack([cost, cost.index_select(3, self.rev_w)], 1), 4, p1, p2)
        vert = self._path(torch.stack([cost, cost.index_select(2, self.rev_h)], 1), 3, p1, p2)
        agg = (horiz[:, 0] + horiz[:, 1].index_select(3, self.rev_w)
               + vert[:, 0] + vert[:, 1].index_select(2, self.rev_h))     # (N, D, H, W)
        wta = agg.argmin(1, keepdim=True).to(agg.dtype)
        prob = torch.softmax(-agg * F.softplus(self.temp), 1)
        soft = (prob * self.dvals).sum(1, keepdim=True)
        conf = prob.max(1, keepdim=True).values
        small = F.avg_pool2d(left, 2)
        disp = soft + self.refine(torch.cat([soft / self.disp, small], 1))
        full = 2.0 * F.interpolate(disp, scale_factor=2.0, mode="bilinear", align_corners=False)
        return full, wta, conf


class AffinityPropagation(nn.Module):
    """Affinity propagation over 128 points of 8 features: an MLP
    (8 -> 64 -> 64 -> 16) embeds them, s(i, k) = -|e_i - e_k|^2, the
    preference s(k, k) is the mean similarity plus a learned per-point
    offset (MLP head); 30 rounds with damping 0.5 of
    r(i, k) = s(i, k) - max_{k' != k} (a(i, k') + s(i, k')) and
    a(i, k) = min(0, r(k, k) + sum_{i' not in {i, k}} max(0, r(i', k))),
    a(k, k) = sum_{i' != k} max(0, r(i', k)).  Returns the exemplar scores
    a(k, k) + r(k, k) (N, 128), each point's exemplar index among the
    exemplars (as float, N, 128) and the number of exemplars (N, 1)."""

    def __init__(self, inp=8, hidden=64, dim=16, points=128, iters=30, damping=0.5):
        super().__init__()
        self.iters, self.lam = iters, damping
        self.enc = _mlp((inp, hidden, hidden, dim))
        self.pref = _mlp((dim, 32, 1))
        self.register_buffer("eye", torch.eye(points))

    def forward(self, pts):                       # (N, 128, 8)
        e = self.enc(pts)
        sq = (e * e).sum(-1)
        s = 2.0 * torch.matmul(e, e.transpose(1, 2)) - sq.unsqueeze(2) - sq.unsqueeze(1)   # (N, P, P)
        eye, off = self.eye, 1.0 - self.eye
        mean = (s * off).sum((1, 2), keepdim=True) / (off.sum() + 0.0)
        pref = mean[:, :, 0] + self.pref(e)[..., 0]                          # (N, P)
        s = s * off + eye * pref.unsqueeze(1)
        r = torch.zeros_like(s)
        a = torch.zeros_like(s)
        lam = self.lam
        n_pts = s.shape[2]
        for _ in range(self.iters):
            as_ = a + s
            first, idx = as_.max(2, keepdim=True)
            hit = F.one_hot(idx[..., 0], n_pts).to(s.dtype)
            second = (as_ - 1.0e9 * hit).max(2, keepdim=True).values
            r_new = s - (first + hit * (second - first))
            r = lam * r + (1.0 - lam) * r_new
            rp = torch.relu(r) * off + r * eye
            col = rp.sum(1, keepdim=True)                                   # (N, 1, P)
            a_new = col - rp
            a_new = torch.clamp(a_new, max=0.0) * off + a_new * eye
            a = lam * a + (1.0 - lam) * a_new
        ev = a + r
        score = (ev * eye).sum(1)                                           # (N, P)
        exemplar = (score > 0).to(s.dtype)
        labels = (s + (exemplar.unsqueeze(1) - 1.0) * 1.0e9 + eye * 1.0e6 * exemplar.unsqueeze(1)).argmax(2)
        return score, labels.to(s.dtype), exemplar.sum(1, keepdim=True)


class GMRESConvDiff(nn.Module):
    """Restarted GMRES(8), three cycles, on -Lap(u) + Pe b . grad(u) = f over a
    32 x 32 grid (h = 1/33, zero Dirichlet boundary, scaled by h^2): a Conv
    net (3 -> 16 -> 16 -> 3, tanh) gives the velocity b (two channels) and
    the source f; the operator is a fixed 3 x 3 stencil Conv (Laplacian,
    centred x and y differences) combined with b; each Arnoldi step is a
    matrix-free product, modified Gram-Schmidt against the previous
    vectors (dot products as ReduceSums of (N, 1, 1, 1) scalars), the
    norm, the earlier Givens rotations applied to the new Hessenberg
    column, a new rotation and the rotated residual vector; each cycle
    ends with back substitution and the update.  Returns the solution
    (N, 1, 32, 32), the true residual norms before each cycle and at the
    end (N, 4) and the rotated residual estimates of each cycle (N, 3)."""

    def __init__(self, grid=32, restart=8, cycles=3, peclet=40.0):
        super().__init__()
        self.m, self.cycles = restart, cycles
        self.net = nn.Sequential(nn.Conv2d(3, 16, 3, 1, 1), nn.Tanh(), nn.Conv2d(16, 16, 3, 1, 1), nn.Tanh(),
                                 nn.Conv2d(16, 3, 3, 1, 1))
        h = 1.0 / (grid + 1)
        self.conv_scale = 0.5 * h * peclet
        self.src_scale = h * h
        st = torch.zeros(3, 1, 3, 3)
        st[0, 0] = torch.tensor([[0.0, -1.0, 0.0], [-1.0, 4.0, -1.0], [0.0, -1.0, 0.0]])
        st[1, 0, 1] = torch.tensor([-1.0, 0.0, 1.0])
        st[2, 0, :, 1] = torch.tensor([-1.0, 0.0, 1.0])
        self.register_buffer("stencil", st)

    @staticmethod
    def _dot(a, b):
        return (a * b).sum((1, 2, 3), keepdim=True)

    def forward(self, fields):                    # (N, 3, 32, 32)
        z = self.net(fields)
        bx, by = torch.tanh(z[:, 0:1]), torch.tanh(z[:, 1:2])
        rhs = self.src_scale * 100.0 * z[:, 2:3]
        c = self.conv_scale

        def op(u):
            d = F.conv2d(u, self.stencil, padding=1)
            return d[:, 0:1] + c * (bx * d[:, 1:2] + by * d[:, 2:3])

        x = torch.zeros_like(rhs)
        true_res, est = [], []
        m = self.m
        for _ in range(self.cycles):
            r = rhs - op(x)
            beta = torch.sqrt(self._dot(r, r) + 1.0e-20)
            true_res.append(beta)
            vs = [r / beta]
            g = [beta] + [None] * m
            cs, sn, cols = [], [], []
            for j in range(m):
                w = op(vs[j])
                h = []
                for i in range(j + 1):
                    hij = self._dot(w, vs[i])
                    w = w - hij * vs[i]
                    h.append(hij)
                hn = torch.sqrt(self._dot(w, w) + 1.0e-20)
                h.append(hn)
                vs.append(w / hn)
                for i in range(j):
                    hi, hi1 = h[i], h[i + 1]
                    h[i] = cs[i] * hi + sn[i] * hi1
                    h[i + 1] = cs[i] * hi1 - sn[i] * hi
                den = torch.sqrt(h[j] * h[j] + h[j + 1] * h[j + 1] + 1.0e-30)
                cj, sj = h[j] / den, h[j + 1] / den
                cs.append(cj)
                sn.append(sj)
                h[j] = den
                g[j + 1] = -sj * g[j]
                g[j] = cj * g[j]
                cols.append(h[:j + 1])
            est.append(g[m].abs())
            y = [None] * m
            for i in range(m - 1, -1, -1):
                acc = g[i]
                for k in range(i + 1, m):
                    acc = acc - cols[k][i] * y[k]
                y[i] = acc / cols[i][i]
            for i in range(m):
                x = x + y[i] * vs[i]
        r = rhs - op(x)
        true_res.append(torch.sqrt(self._dot(r, r) + 1.0e-20))
        return x, torch.cat(true_res, 1).flatten(1), torch.cat(est, 1).flatten(1)


# --------------------------------------------------------------------------
# Published network designs
# --------------------------------------------------------------------------

class _RDB(nn.Module):
    """ESRGAN residual dense block: five 3 x 3 Convs, each on the
    concatenation of the input and all earlier outputs, LeakyReLU 0.2,
    output scaled by 0.2 and added."""

    def __init__(self, nf, gc):
        super().__init__()
        self.convs = nn.ModuleList(nn.Conv2d(nf + i * gc, gc if i < 4 else nf, 3, 1, 1) for i in range(5))

    def forward(self, x):
        feats = [x]
        for i, conv in enumerate(self.convs):
            y = conv(torch.cat(feats, 1))
            if i < 4:
                feats.append(F.leaky_relu(y, 0.2))
        return x + 0.2 * y


class _RRDB(nn.Module):
    """Residual in residual dense block: three RDBs, scaled by 0.2, added."""

    def __init__(self, nf, gc):
        super().__init__()
        self.blocks = nn.Sequential(_RDB(nf, gc), _RDB(nf, gc), _RDB(nf, gc))

    def forward(self, x):
        return x + 0.2 * self.blocks(x)


class ESRGANRRDB(nn.Module):
    """RRDBNet, ESRGAN's generator, small: first Conv 3 -> 32, three RRDBs
    (growth 16), trunk Conv, long skip, two nearest x2 upsamplings each
    followed by a Conv and LeakyReLU 0.2, HR Conv, last Conv to RGB.
    Returns the x4 image (N, 3, 128, 128)."""

    def __init__(self, nf=32, gc=16, blocks=3):
        super().__init__()
        self.first = nn.Conv2d(3, nf, 3, 1, 1)
        self.trunk = nn.Sequential(*[_RRDB(nf, gc) for _ in range(blocks)])
        self.trunk_conv = nn.Conv2d(nf, nf, 3, 1, 1)
        self.up1 = nn.Conv2d(nf, nf, 3, 1, 1)
        self.up2 = nn.Conv2d(nf, nf, 3, 1, 1)
        self.hr = nn.Conv2d(nf, nf, 3, 1, 1)
        self.last = nn.Conv2d(nf, 3, 3, 1, 1)

    def forward(self, lr):                        # (N, 3, 32, 32)
        fea = self.first(lr)
        fea = fea + self.trunk_conv(self.trunk(fea))
        fea = F.leaky_relu(self.up1(F.interpolate(fea, scale_factor=2.0, mode="nearest")), 0.2)
        fea = F.leaky_relu(self.up2(F.interpolate(fea, scale_factor=2.0, mode="nearest")), 0.2)
        return self.last(F.leaky_relu(self.hr(fea), 0.2))


class _KelzStack(nn.Module):
    """Acoustic model of Kelz et al. as Onsets and Frames uses it: Conv 3 x 3
    (c), Conv (c), max pool over frequency, Conv (2c), max pool over
    frequency, BatchNorm and ReLU after each Conv, a Linear per frame."""

    def __init__(self, mels, c, fc):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(1, c, 3, 1, 1), nn.BatchNorm2d(c), nn.ReLU(),
                                  nn.Conv2d(c, c, 3, 1, 1), nn.BatchNorm2d(c), nn.ReLU(),
                                  nn.MaxPool2d((1, 2)),
                                  nn.Conv2d(c, 2 * c, 3, 1, 1), nn.BatchNorm2d(2 * c), nn.ReLU(),
                                  nn.MaxPool2d((1, 2)))
        self.fc = nn.Linear(2 * c * (mels // 4), fc)

    def forward(self, mel):                       # (N, 1, T, M)
        y = self.conv(mel)                                                  # (N, 2c, T, M / 4)
        n_t = y.shape[2]
        y = y.transpose(1, 2).reshape(-1, n_t, y.shape[1] * y.shape[3])
        return F.relu(self.fc(y))


class OnsetsFramesPiano(nn.Module):
    """Onsets and Frames (with the MAESTRO offset and velocity stacks) on a
    229-bin log-mel spectrogram of 48 frames: four acoustic stacks
    (channels 16 / 16 / 32, Linear to 192); onsets and offsets each by a
    BiLSTM of 64 and a Linear to 88 keys (sigmoid); the frame stack's own
    88 activations concatenated with the onset and offset predictions,
    a BiLSTM of 64 and a Linear to 88 (sigmoid); velocities by a Linear.
    Returns onset, offset and frame probabilities and velocities, each
    (N, 48, 88)."""

    def __init__(self, mels=229, c=16, fc=192, lstm=64, keys=88):
        super().__init__()
        self.onset_ac, self.offset_ac = _KelzStack(mels, c, fc), _KelzStack(mels, c, fc)
        self.frame_ac, self.vel_ac = _KelzStack(mels, c, fc), _KelzStack(mels, c, fc)
        self.onset_rnn = nn.LSTM(fc, lstm, batch_first=True, bidirectional=True)
        self.offset_rnn = nn.LSTM(fc, lstm, batch_first=True, bidirectional=True)
        self.onset_out, self.offset_out = nn.Linear(2 * lstm, keys), nn.Linear(2 * lstm, keys)
        self.frame_pre = nn.Linear(fc, keys)
        self.frame_rnn = nn.LSTM(3 * keys, lstm, batch_first=True, bidirectional=True)
        self.frame_out = nn.Linear(2 * lstm, keys)
        self.vel_out = nn.Linear(fc, keys)

    def forward(self, mel):                       # (N, 1, 48, 229)
        onset = torch.sigmoid(self.onset_out(self.onset_rnn(self.onset_ac(mel))[0]))
        offset = torch.sigmoid(self.offset_out(self.offset_rnn(self.offset_ac(mel))[0]))
        act = torch.sigmoid(self.frame_pre(self.frame_ac(mel)))
        frame = torch.sigmoid(self.frame_out(self.frame_rnn(torch.cat([act, onset, offset], -1))[0]))
        vel = self.vel_out(self.vel_ac(mel))
        return onset, offset, frame, vel


class _PreNormBlock(nn.Module):
    """Pre-norm transformer block: self-attention (optional additive mask),
    optional cross-attention to a memory, GELU FFN."""

    def __init__(self, dim, heads, ffn, cross_dim=None):
        super().__init__()
        self.n1, self.n3 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.att = _Attention(dim, heads)
        self.cross = None
        if cross_dim is not None:
            self.n2 = nn.LayerNorm(dim)
            self.cross = _Attention(dim, heads, cross_dim)
        self.ffn = _mlp((dim, ffn, dim), act=nn.GELU)

    def forward(self, x, mask=None, mem=None):
        h = self.n1(x)
        x = x + self.att(h, h, mask)
        if self.cross is not None:
            x = x + self.cross(self.n2(x), mem)
        return x + self.ffn(self.n3(x))


class RETROChunkedLM(nn.Module):
    """RETRO, small: token and learned position embeddings (vocabulary
    8000, 128 tokens, width 256), four pre-norm decoder blocks (4 heads,
    FFN 768), chunked cross-attention (CCA) after the self-attention of
    blocks 2 and 4: the decoder states at the first CCA, split into 4
    chunks of 32, condition a 2-block bidirectional encoder of width 128
    (self-attention, cross-attention to the chunk's states, FFN 384) over
    each of the 2 neighbours (64 tokens) of each chunk; in CCA the
    states shifted by 31 (chunk size minus one) attend, chunk by chunk,
    to the 128 encoded neighbour tokens of their chunk, and the result is
    shifted back (the first 31 tokens get none).  Returns the logits of
    the last chunk (N, 32, 8000) and the encoded neighbours
    (N, 4, 128, 128)."""

    def __init__(self, vocab=8000, length=128, dim=256, layers=4, heads=4, ffn=768, chunk=32, neighbours=2,
                 nlen=64, enc_dim=128, enc_layers=2, enc_ffn=384, cca=(1, 3)):
        super().__init__()
        self.chunk, self.k, self.nlen, self.cca = chunk, neighbours, nlen, set(cca)
        self.tok = nn.Embedding(vocab, dim)
        self.pos = nn.Parameter(torch.randn(1, length, dim) * 0.02)
        self.blocks = nn.ModuleList(_PreNormBlock(dim, heads, ffn) for _ in range(layers))
        self.cca_norm = nn.ModuleDict({str(i): nn.LayerNorm(dim) for i in cca})
        self.cca_att = nn.ModuleDict({str(i): _Attention(dim, heads, enc_dim) for i in cca})
        self.enc_tok = nn.Embedding(vocab, enc_dim)
        self.enc_pos = nn.Parameter(torch.randn(1, nlen, enc_dim) * 0.02)
        self.enc = nn.ModuleList(_PreNormBlock(enc_dim, heads, enc_ffn, cross_dim=dim) for _ in range(enc_layers))
        self.enc_norm = nn.LayerNorm(enc_dim)
        self.norm = nn.LayerNorm(dim)
        self.out = nn.Linear(dim, vocab, bias=False)
        i = torch.arange(length).view(length, 1)
        j = torch.arange(length).view(1, length)
        self.register_buffer("mask", ((j > i).float() * -1.0e4).view(1, 1, length, length))

    def _encode(self, neigh, states):
        """neigh (N, C, K, R) ids, states (N, C * m, D) -> (N, C, K R, E)."""
        n_c, dim = neigh.shape[1], states.shape[2]
        mem = states.view(-1, n_c, 1, self.chunk, dim).expand(-1, -1, self.k, -1, -1).reshape(-1, self.chunk, dim)
        e = self.enc_tok(neigh.reshape(-1, self.nlen)) + self.enc_pos                # (N C K, R, E)
        for blk in self.enc:
            e = blk(e, None, mem)
        e = self.enc_norm(e)
        return e.view(-1, n_c, self.k * self.nlen, e.shape[-1])

    def _cca(self, i, x, enc):
        m, n_l, dim = self.chunk, x.shape[1], x.shape[2]
        n_c = enc.shape[1]
        h = self.cca_norm[str(i)](x)[:, m - 1:]                                        # (N, L - m + 1, D)
        h = F.pad(h, (0, 0, 0, m - 1)).view(-1, m, dim)                               # (N C, m, D)
        y = self.cca_att[str(i)](h, enc.reshape(-1, enc.shape[2], enc.shape[3]))
        y = y.view(-1, n_c * m, dim)[:, :n_l - m + 1]
        return x + F.pad(y, (0, 0, m - 1, 0))

    def forward(self, tokens, neigh):             # (N, 128), (N, 4, 2, 64) int64
        x = self.tok(tokens) + self.pos
        enc = None
        for i, blk in enumerate(self.blocks):
            h = blk.n1(x)
            x = x + blk.att(h, h, self.mask)
            if i in self.cca:
                if enc is None:
                    enc = self._encode(neigh, x)
                x = self._cca(i, x, enc)
            x = x + blk.ffn(blk.n3(x))
        return self.out(self.norm(x[:, -self.chunk:])), enc


def _grid_laplacian(side, levels):
    """Rescaled normalised Laplacian 2 L / lmax - I of the side x side grid
    graph (8 nearest neighbours, w = exp(-d^2 / sigma^2), sigma^2 the mean
    squared edge length), nodes in the coarsening order of `levels` 2 x 2
    poolings (so that each pooling is a max over 4 consecutive nodes), and
    the node index of every pixel in row-major order."""
    coarse = side >> levels
    order = torch.zeros(side * side, dtype=torch.long)
    for r in range(side):
        for c in range(side):
            node = (r >> levels) * coarse + (c >> levels)
            for lv in range(levels - 1, -1, -1):
                node = node * 4 + ((r >> lv) & 1) * 2 + ((c >> lv) & 1)
            order[r * side + c] = node
    rr, cc = torch.meshgrid(torch.arange(side), torch.arange(side), indexing="ij")
    xy = torch.stack([rr.flatten(), cc.flatten()], 1).float()
    d2 = torch.cdist(xy, xy) ** 2
    d2.fill_diagonal_(float("inf"))
    knn = d2.topk(8, 1, largest=False)
    sigma2 = knn.values.mean()
    w = torch.zeros(side * side, side * side)
    w.scatter_(1, knn.indices, torch.exp(-knn.values / sigma2))
    w = torch.max(w, w.t())
    dinv = w.sum(1).rsqrt()
    lap = torch.eye(side * side) - dinv.unsqueeze(1) * w * dinv.unsqueeze(0)
    lmax = torch.linalg.eigvalsh(lap).max()
    lap = 2.0 * lap / lmax - torch.eye(side * side)
    perm = torch.empty_like(order)
    perm[order] = torch.arange(side * side)
    return lap[perm][:, perm], perm


class _ChebConv(nn.Module):
    """sum_k T_k(L~) x W_k by the recursion T_k = 2 L~ T_{k-1} - T_{k-2}."""

    def __init__(self, cin, cout, order):
        super().__init__()
        self.order = order
        self.lin = nn.Linear(order * cin, cout)

    def forward(self, x, lap):                    # (N, V, C), (V, V)
        xs = [x, torch.matmul(lap, x)]
        for _ in range(2, self.order):
            xs.append(2.0 * torch.matmul(lap, xs[-1]) - xs[-2])
        return self.lin(torch.cat(xs, -1))


class ChebNetMNIST(nn.Module):
    """ChebNet on the MNIST grid graph: the image's pixels gathered into
    the coarsening node order, GC32 (order 12) on 784 nodes, ReLU, pool 4,
    GC64 (order 12) on 196 nodes, ReLU, pool 4, FC 512, ReLU, FC 10.
    Returns the class logits (N, 10)."""

    def __init__(self, side=28, order=12, c1=32, c2=64, fc=512, classes=10):
        super().__init__()
        lap0, perm = _grid_laplacian(side, 2)
        lap1, _ = _grid_laplacian(side // 2, 1)
        self.register_buffer("lap0", lap0)
        self.register_buffer("lap1", lap1)
        self.register_buffer("perm", perm)
        self.gc1, self.gc2 = _ChebConv(1, c1, order), _ChebConv(c1, c2, order)
        self.fc = _mlp(((side // 4) ** 2 * c2, fc, classes))

    @staticmethod
    def _pool(x):
        return x.view(-1, x.shape[1] // 4, 4, x.shape[2]).max(2).values

    def forward(self, img):                       # (N, 1, 28, 28)
        x = img.flatten(1).index_select(1, self.perm).unsqueeze(-1)        # (N, 784, 1)
        x = self._pool(F.relu(self.gc1(x, self.lap0)))
        x = self._pool(F.relu(self.gc2(x, self.lap1)))
        return self.fc(x.flatten(1))


class SRGNNSession(nn.Module):
    """SR-GNN over sessions of 16 clicks (40000 items, width 100): the
    session graph on click positions, items equal -> same node, built as
    E T E (E item equality, T the click transitions), clipped to 0/1 and
    normalised by out-degree (outgoing) and in-degree (incoming); one
    gated graph step (a = [A_in (v W_in) + b, A_out (v W_out) + b], GRU
    update); soft attention q^T sigmoid(W1 v_last + W2 v_i + c) over the
    nodes with repeated items weighted 1 / count; s_h = W3 [s_l, s_g];
    scores against the whole item table, top 20.  Returns the top-20
    scores (N, 20), their item ids (N, 20) and the session embedding
    (N, 100)."""

    def __init__(self, items=40000, dim=100, length=16, top=20):
        super().__init__()
        self.top = top
        self.item = nn.Embedding(items, dim)
        self.w_in, self.w_out = nn.Linear(dim, dim), nn.Linear(dim, dim)
        self.gate_a = nn.Linear(2 * dim, 3 * dim)
        self.gate_h = nn.Linear(dim, 3 * dim)
        self.w1, self.w2 = nn.Linear(dim, dim, bias=False), nn.Linear(dim, dim)
        self.q = nn.Linear(dim, 1, bias=False)
        self.w3 = nn.Linear(2 * dim, dim, bias=False)
        self.register_buffer("trans", torch.diag(torch.ones(length - 1), 1))

    def forward(self, ids):                       # (N, 16) int64
        eq = (ids.unsqueeze(2) == ids.unsqueeze(1)).float()                # (N, L, L)
        adj = torch.clamp(torch.matmul(torch.matmul(eq, self.trans), eq), max=1.0)
        a_out = adj / torch.clamp(adj.sum(2, keepdim=True), min=1.0)
        adj_t = adj.transpose(1, 2)
        a_in = adj_t / torch.clamp(adj_t.sum(2, keepdim=True), min=1.0)
        v = self.item(ids)
        a = torch.cat([torch.matmul(a_in, self.w_in(v)), torch.matmul(a_out, self.w_out(v))], -1)
        gi, gh = self.gate_a(a), self.gate_h(v)
        d = v.shape[-1]
        z = torch.sigmoid(gi[..., :d] + gh[..., :d])
        r = torch.sigmoid(gi[..., d:2 * d] + gh[..., d:2 * d])
        cand = torch.tanh(gi[..., 2 * d:] + r * gh[..., 2 * d:])
        v = (1.0 - z) * v + z * cand
        last = v[:, -1]
        alpha = self.q(torch.sigmoid(self.w1(last).unsqueeze(1) + self.w2(v)))     # (N, L, 1)
        alpha = alpha / eq.sum(2, keepdim=True)
        s_g = (alpha * v).sum(1)
        s_h = self.w3(torch.cat([last, s_g], -1))
        top = torch.matmul(s_h, self.item.weight.t()).topk(self.top, 1)
        return top.values, top.indices, s_h


class _PaiNNMessage(nn.Module):
    """PaiNN message: phi(s_j) (Linear, SiLU, Linear to 3F) times W(rbf_ij)
    times the cutoff, split into the scalar message and the two vector
    gates (of v_j and of the unit vector r_ij)."""

    def __init__(self, dim, rbf):
        super().__init__()
        self.phi = _mlp((dim, dim, 3 * dim), act=nn.SiLU)
        self.w = nn.Linear(rbf, 3 * dim)

    def forward(self, s, v, rbf, dirs, fcut):
        d = s.shape[-1]
        x = self.phi(s).unsqueeze(1) * self.w(rbf) * fcut                   # (N, i, j, 3F)
        ds, gvv, gvs = x[..., :d], x[..., d:2 * d], x[..., 2 * d:]
        dv = (gvv.unsqueeze(3) * v.unsqueeze(1)).sum(2) + torch.matmul(dirs.transpose(2, 3), gvs)
        return s + ds.sum(2), v + dv


class _PaiNNUpdate(nn.Module):
    """PaiNN update: U v, V v, a = MLP([s, |V v|]) split in three;
    v += a_vv U v, s += a_sv <U v, V v> + a_ss."""

    def __init__(self, dim):
        super().__init__()
        self.u, self.vl = nn.Linear(dim, dim, bias=False), nn.Linear(dim, dim, bias=False)
        self.mlp = _mlp((2 * dim, dim, 3 * dim), act=nn.SiLU)

    def forward(self, s, v):
        d = s.shape[-1]
        uv, vv = self.u(v), self.vl(v)                                      # (N, A, 3, F)
        vn = torch.sqrt((vv * vv).sum(2) + 1.0e-8)
        a = self.mlp(torch.cat([s, vn], -1))
        avv, asv, ass = a[..., :d], a[..., d:2 * d], a[..., 2 * d:]
        return s + asv * (uv * vv).sum(2) + ass, v + avv.unsqueeze(2) * uv


class _GatedEquivariant(nn.Module):
    """Gated equivariant block: W1 v, W2 v, MLP([s, |W2 v|]) -> scalar out
    and vector gate."""

    def __init__(self, dim, out, last=False):
        super().__init__()
        self.out, self.last = out, last
        self.w1, self.w2 = nn.Linear(dim, out, bias=False), nn.Linear(dim, dim, bias=False)
        self.mlp = _mlp((2 * dim, dim, 2 * out), act=nn.SiLU)

    def forward(self, s, v):
        v1, v2 = self.w1(v), self.w2(v)
        x = self.mlp(torch.cat([s, torch.sqrt((v2 * v2).sum(2) + 1.0e-8)], -1))
        s_out, gate = x[..., :self.out], x[..., self.out:]
        if not self.last:
            s_out = F.silu(s_out)
        return s_out, gate.unsqueeze(2) * v1


class PaiNNMolecule(nn.Module):
    """PaiNN on 29 atoms (types < 10, embedding of 128): all pairs, 20 sine
    radial bases sin(n pi r / 5) / r, cosine cutoff at 5 (self pairs
    masked), three message + update blocks; energy as the sum of an atom
    MLP (128 -> 64 -> 1); dipole sum_i (q_i - mean q) r_i + mu_i from two
    gated equivariant blocks (128 -> 64 -> 1).  Returns the energy
    (N, 1), the dipole moment (N, 3) and the latent charges (N, 29)."""

    def __init__(self, types=10, dim=128, rbf=20, cutoff=5.0, blocks=3, atoms=29):
        super().__init__()
        self.cutoff = cutoff
        self.emb = nn.Embedding(types, dim)
        self.msg = nn.ModuleList(_PaiNNMessage(dim, rbf) for _ in range(blocks))
        self.upd = nn.ModuleList(_PaiNNUpdate(dim) for _ in range(blocks))
        self.energy = _mlp((dim, dim // 2, 1), act=nn.SiLU)
        self.g1, self.g2 = _GatedEquivariant(dim, dim // 2), _GatedEquivariant(dim // 2, 1, last=True)
        self.register_buffer("freq", torch.arange(1, rbf + 1, dtype=torch.float32) * math.pi / cutoff)
        self.register_buffer("offdiag", (1.0 - torch.eye(atoms)).unsqueeze(-1))

    def forward(self, z, pos):                    # (N, 29) int64, (N, 29, 3)
        rij = pos.unsqueeze(1) - pos.unsqueeze(2)                           # (N, i, j, 3): r_j - r_i
        dist = torch.sqrt((rij * rij).sum(-1, keepdim=True) + 1.0e-8)
        dirs = rij / dist
        rbf = torch.sin(dist * self.freq) / dist
        fcut = 0.5 * (torch.cos(dist * (math.pi / self.cutoff)) + 1.0) * (dist < self.cutoff).to(dist.dtype)
        fcut = fcut * self.offdiag
        s = self.emb(z)
        v = torch.zeros_like(s).unsqueeze(2).expand(-1, -1, 3, -1)
        for msg, upd in zip(self.msg, self.upd):
            s, v = msg(s, v, rbf, dirs, fcut)
            s, v = upd(s, v)
        energy = self.energy(s).sum(1)
        q, mu = self.g2(*self.g1(s, v))                                     # (N, A, 1), (N, A, 3, 1)
        q = q - q.mean(1, keepdim=True)
        dipole = (q * pos).sum(1) + mu[..., 0].sum(1)
        return energy, dipole, q[..., 0]


class _NoisyLinear(nn.Module):
    """Factorised Gaussian noisy linear layer (Fortunato et al.): w = mu +
    sigma * f(eps_out) f(eps_in)^T, f(x) = sign(x) sqrt|x|, the noise
    held in buffers (one draw)."""

    def __init__(self, fin, fout, sigma0=0.5):
        super().__init__()
        bound = 1.0 / math.sqrt(fin)
        self.w_mu = nn.Parameter(torch.empty(fout, fin).uniform_(-bound, bound))
        self.w_sigma = nn.Parameter(torch.full((fout, fin), sigma0 / math.sqrt(fin)))
        self.b_mu = nn.Parameter(torch.empty(fout).uniform_(-bound, bound))
        self.b_sigma = nn.Parameter(torch.full((fout,), sigma0 / math.sqrt(fin)))

        def f(x):
            return x.sign() * x.abs().sqrt()
        self.register_buffer("eps_in", f(torch.randn(fin)))
        self.register_buffer("eps_out", f(torch.randn(fout)))

    def forward(self, x):
        w = self.w_mu + self.w_sigma * (self.eps_out.unsqueeze(1) * self.eps_in.unsqueeze(0))
        return F.linear(x, w, self.b_mu + self.b_sigma * self.eps_out)


class RainbowDQN(nn.Module):
    """Rainbow's network: Nature DQN torso (Conv 32 8 x 8 / 4, 64 4 x 4 / 2,
    64 3 x 3, ReLU) on 4 x 84 x 84 frames, dueling streams of noisy
    linear layers (3136 -> 512 -> 51 and 3136 -> 512 -> 18 x 51),
    a_i - mean(a) + v, softmax over 51 atoms on [-10, 10], Q = sum p z.
    Returns Q (N, 18) and the return distributions (N, 18, 51)."""

    def __init__(self, actions=18, atoms=51, vmin=-10.0, vmax=10.0, hidden=512):
        super().__init__()
        self.actions, self.atoms = actions, atoms
        self.torso = nn.Sequential(nn.Conv2d(4, 32, 8, 4), nn.ReLU(), nn.Conv2d(32, 64, 4, 2), nn.ReLU(),
                                   nn.Conv2d(64, 64, 3, 1), nn.ReLU())
        self.v1, self.v2 = _NoisyLinear(3136, hidden), _NoisyLinear(hidden, atoms)
        self.a1, self.a2 = _NoisyLinear(3136, hidden), _NoisyLinear(hidden, actions * atoms)
        self.register_buffer("support", torch.linspace(vmin, vmax, atoms))

    def forward(self, frames):                    # (N, 4, 84, 84)
        h = self.torso(frames).flatten(1)
        v = self.v2(F.relu(self.v1(h))).view(-1, 1, self.atoms)
        a = self.a2(F.relu(self.a1(h))).view(-1, self.actions, self.atoms)
        p = torch.softmax(v + a - a.mean(1, keepdim=True), -1)
        return (p * self.support).sum(-1), p


class _PostNormLayer(nn.Module):
    """Post-norm encoder layer (self-attention, GELU FFN), as iTransformer's."""

    def __init__(self, dim, heads, ffn):
        super().__init__()
        self.att = _Attention(dim, heads)
        self.ffn = _mlp((dim, ffn, dim), act=nn.GELU)
        self.n1, self.n2 = nn.LayerNorm(dim), nn.LayerNorm(dim)

    def forward(self, x):
        x = self.n1(x + self.att(x, x))
        return self.n2(x + self.ffn(x))


class ITransformerForecast(nn.Module):
    """iTransformer on 321 variates (Electricity) and 4 time-feature
    covariates over 96 steps: each variate normalised over time (mean,
    standard deviation), every series (covariates too) embedded as a token
    by Linear 96 -> 128, three post-norm encoder layers (8 heads, FFN
    256) across the 325 tokens, final LayerNorm, Linear 128 -> 96 on the
    321 variate tokens, de-normalised.  Returns the forecast
    (N, 96, 321)."""

    def __init__(self, lookback=96, horizon=96, variates=321, dim=128, heads=8, ffn=256, layers=3):
        super().__init__()
        self.variates = variates
        self.embed = nn.Linear(lookback, dim)
        self.layers = nn.ModuleList(_PostNormLayer(dim, heads, ffn) for _ in range(layers))
        self.norm = nn.LayerNorm(dim)
        self.proj = nn.Linear(dim, horizon)

    def forward(self, series, marks):             # (N, 96, 321), (N, 96, 4)
        mean = series.mean(1, keepdim=True)
        std = torch.sqrt(((series - mean) ** 2).mean(1, keepdim=True) + 1.0e-5)
        x = (series - mean) / std
        tok = self.embed(torch.cat([x, marks], 2).transpose(1, 2))          # (N, V + 4, D)
        for layer in self.layers:
            tok = layer(tok)
        y = self.proj(self.norm(tok)[:, :self.variates]).transpose(1, 2)    # (N, H, V)
        return y * std + mean


def _conv_lrelu(cin, cout):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, 1, 1), nn.LeakyReLU(0.2))


class VoxelMorphDiffeo(nn.Module):
    """VoxelMorph (VxmDense, diffeomorphic) in 2-D on 128 x 128: U-Net over
    the moving and fixed images (encoder Convs 16, 32, 32, 32 each
    followed by 2 x 2 max pooling; decoder Convs 32, 32, 32, 32 each
    followed by nearest x2 upsampling and the skip concatenation; final
    Convs 32, 16, 16), a 3 x 3 Conv to a 2-channel velocity field
    (small init), resized to half resolution (bilinear, align_corners,
    times 0.5), integrated by 7 scaling-and-squaring steps
    (v / 2^7, then v <- v + v o (id + v)), resized back (times 2), and the
    moving image warped by id + phi with bilinear sampling.  Returns the
    warped image (N, 1, 128, 128) and the displacement (N, 2, 128, 128)."""

    def __init__(self, size=128, enc=(16, 32, 32, 32), dec=(32, 32, 32, 32), final=(32, 16, 16), steps=7):
        super().__init__()
        self.steps = steps
        self.down = nn.ModuleList()
        prev, skips = 2, []
        for c in enc:
            self.down.append(_conv_lrelu(prev, c))
            skips.append(c)
            prev = c
        self.up = nn.ModuleList()
        for c, s in zip(dec, reversed(skips)):
            self.up.append(_conv_lrelu(prev, c))
            prev = c + s
        self.final = nn.Sequential(*[_conv_lrelu(p, c) for p, c in zip((prev,) + tuple(final[:-1]), final)])
        self.flow = nn.Conv2d(final[-1], 2, 3, 1, 1)
        with torch.no_grad():
            self.flow.weight.normal_(0.0, 1.0e-5)
            self.flow.bias.zero_()
        for name, s in (("full", size), ("half", size // 2)):
            gy, gx = torch.meshgrid(torch.arange(s, dtype=torch.float32), torch.arange(s, dtype=torch.float32),
                                    indexing="ij")
            self.register_buffer(name + "_gx", gx.flatten().unsqueeze(0))
            self.register_buffer(name + "_gy", gy.flatten().unsqueeze(0))

    def _warp(self, img, disp, grid):
        gx, gy = getattr(self, grid + "_gx"), getattr(self, grid + "_gy")
        return _bilinear(img, gx + disp[:, 0].flatten(1), gy + disp[:, 1].flatten(1))

    def forward(self, moving, fixed):             # (N, 1, 128, 128) each
        x = torch.cat([moving, fixed], 1)
        skips = []
        for blk in self.down:
            x = blk(x)
            skips.append(x)
            x = F.max_pool2d(x, 2)
        for blk in self.up:
            x = F.interpolate(blk(x), scale_factor=2.0, mode="nearest")
            x = torch.cat([x, skips.pop()], 1)
        vel = self.flow(self.final(x))
        v = 0.5 * F.interpolate(vel, scale_factor=0.5, mode="bilinear", align_corners=True)
        v = v * (1.0 / 2 ** self.steps)
        for _ in range(self.steps):
            v = v + self._warp(v, v, "half")
        phi = 2.0 * F.interpolate(v, scale_factor=2.0, mode="bilinear", align_corners=True)
        return self._warp(moving, phi, "full"), phi


BLIND37 = {
    "sgm_stereo": dict(ctor=SGMStereo, family="semi-global-matching-stereo",
                       inputs=[("left", ("N", 1, 48, 64), "float32", None),
                               ("right", ("N", 1, 48, 64), "float32", None)]),
    "affinity_propagation": dict(ctor=AffinityPropagation, family="affinity-propagation-exemplar-clustering",
                                 inputs=[("points", ("N", 128, 8), "float32", None)]),
    "gmres_convdiff": dict(ctor=GMRESConvDiff, family="restarted-gmres-arnoldi-givens",
                           inputs=[("fields", ("N", 3, 32, 32), "float32", None)]),
    "esrgan_rrdb": dict(ctor=ESRGANRRDB, family="residual-in-residual-dense-super-resolution",
                        inputs=[("lr", ("N", 3, 32, 32), "float32", None)]),
    "onsets_frames_piano": dict(ctor=OnsetsFramesPiano, family="onset-conditioned-piano-transcription",
                                inputs=[("mel", ("N", 1, 48, 229), "float32", None)]),
    "retro_chunked_lm": dict(ctor=RETROChunkedLM, family="retrieval-chunked-cross-attention-lm",
                             inputs=[("tokens", ("N", 128), "int64", 8000),
                                     ("neighbours", ("N", 4, 2, 64), "int64", 8000)]),
    "chebnet_mnist": dict(ctor=ChebNetMNIST, family="chebyshev-polynomial-spectral-graph-conv",
                          inputs=[("image", ("N", 1, 28, 28), "float32", None)]),
    "srgnn_session": dict(ctor=SRGNNSession, family="session-graph-gated-gnn-recommendation",
                          inputs=[("items", ("N", 16), "int64", 40000)]),
    "painn_molecule": dict(ctor=PaiNNMolecule, family="equivariant-scalar-vector-message-passing",
                           inputs=[("z", ("N", 29), "int64", 10),
                                   ("pos", ("N", 29, 3), "float32", None)]),
    "rainbow_dqn": dict(ctor=RainbowDQN, family="noisy-dueling-distributional-q-network",
                        inputs=[("frames", ("N", 4, 84, 84), "float32", None)]),
    "itransformer_forecast": dict(ctor=ITransformerForecast, family="inverted-variate-token-transformer",
                                  inputs=[("series", ("N", 96, 321), "float32", None),
                                          ("marks", ("N", 96, 4), "float32", None)]),
    "voxelmorph_diffeo": dict(ctor=VoxelMorphDiffeo, family="diffeomorphic-unsupervised-registration",
                              inputs=[("moving", ("N", 1, 128, 128), "float32", None),
                                      ("fixed", ("N", 1, 128, 128), "float32", None)]),
}
