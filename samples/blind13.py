r"""BLIND13: the thirteenth blind set, written on 2026-12-06 by a helper
session before any of it was measured.  It is to be measured before any
further change is scored, and scored only once, at the end, with the code
as it then stands (bench/zoo_accuracy.py --set blind13).  None of its
twelve families occurs in another set (ZOO, BLIND, BLIND2 ... BLIND12, the
reference models), so no plan rule, feature, fit or calibration was made
with any of them in view, and none of them was run through onnxcost
predict before being measured.

The families: Gaussian-process regression with a deep kernel solved by
conjugate gradients (an MLP feature map of 24 context and 8 query points,
an RBF kernel matrix from squared distances, the noisy system solved for
the targets and the 8 cross-covariance columns at once by 16 unrolled CG
iterations, the predictive mean and variance); a multiresolution hash
encoding (Mueller et al., Instant NGP: 128 points looked up in 8 grid
levels, the coarse three indexed densely and the others by a prime hash
and Mod, 8 corners per level gathered from a learned table and blended by
trilinear weights (ReduceProd), a density MLP and a colour MLP fed
degree-2 spherical harmonics of the view direction); a self-organising
map trained online (Kohonen: a 6 x 6 map of 8-d units updated by 24
stream samples in turn, the best-matching unit by ArgMin, its grid
coordinates by Gather, a Gaussian neighbourhood whose width and learning
rate decay); a cross-entropy-method planner (a learned dynamics MLP and
reward MLP, 4 CEM iterations of 32 action sequences of 6 steps drawn from
fed noise, rolled out step by step, the top 4 by TopK gathered back to
refit the mean and spread); a predictive-coding network (Rao & Ballard,
Whittington & Bogacz: three latent layers initialised by an amortised
pass, then 12 inference iterations moving each latent down its
prediction-error energy, top-down predictions and bottom-up errors by
MatMuls); and a deep equilibrium model solved by Broyden's method (Bai et
al.: a tanh fixed-point layer, 12 quasi-Newton steps with a per-sample
32 x 32 inverse-Jacobian estimate updated by rank-one outer products).
The other six: a Restormer-like restoration U-Net (Zamir et al.:
multi-Dconv head transposed attention, a channel x channel attention of
L2-normalised queries and keys, gated-Dconv feed-forward networks,
PixelUnshuffle / PixelShuffle resampling); a FocalNet-like classifier
(Yang et al.: focal modulation, a hierarchy of depthwise Convs with GELU
gated into a modulator with a global context, multiplied into the query);
a ViT with token merging (Bolya et al., ToMe: between each block's
attention and MLP 32 tokens merged by bipartite soft matching of the keys, TopK and sorting
by TopK, a size-weighted merge by Gather and a one-hot MatMul,
proportional attention by log-size); a rotation-equivariant group CNN
(Cohen & Welling, p4: lifting and group Convs whose weights are the
rotated and cyclically shifted copies of one filter bank (gathered in
forward, folded into the Conv weights by the exporter), batch norm shared
over the rotations on a 5-d view (Reshape, BatchNormalization, Reshape), a
max over rotations); a differentiable 2-D Gaussian splatting renderer (a CNN
predicting 128 anisotropic Gaussians, sorted by depth with TopK, their
conics evaluated over 64 x 64 pixels, front-to-back alpha compositing
with the transmittance by CumSum of log(1 - alpha)); and a discrete VAE
with a Gumbel-softmax bottleneck (a DALL-E-like dVAE: a Conv encoder to
128 code logits at 16 x 16, Gumbel noise from fed variates, a tempered
softmax over the codes times a codebook, a ConvTranspose decoder, the KL
to the uniform prior).  The first six are made of small kernels at batch
1 (most a few thousand elements or fewer, a hundred or more kernels);
the other six are of ordinary sizes.

To be measured with

    OMP_WAIT_POLICY=PASSIVE /usr/bin/python3 scripts/measure_zoo.py --set blind13 \
        gp_cg_regression hashgrid_field som_online cem_planner predictive_coding \
        deq_broyden restormer_lite focalnet_lite tome_vit p4_gcnn gsplat_render \
        gumbel_dvae --threads 1 2 --batches 1 4 16

Same table form as export.py's ZOO (ctor, family, inputs, run); exported by
scripts/ort_graphs.py's export() (opset 13, symbolic batch N).
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def _normal_cdf(x):
    """Phi(x) of the standard normal, by Erf."""
    return 0.5 * (1.0 + torch.erf(x * (1.0 / math.sqrt(2.0))))


def _chan_ln(x, weight, bias, eps=1e-5):
    """LayerNorm over the channels of an (N, C, H, W) map, per pixel."""
    mu = x.mean(1, keepdim=True)
    var = ((x - mu) ** 2).mean(1, keepdim=True)
    return (x - mu) / torch.sqrt(var + eps) * weight + bias


class _ChanLN(nn.Module):
    def __init__(self, ch):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(1, ch, 1, 1))
        self.bias = nn.Parameter(torch.zeros(1, ch, 1, 1))

    def forward(self, x):
        return _chan_ln(x, self.weight, self.bias)


# --------------------------------------------------------------------------
# Small kernels at batch 1
# --------------------------------------------------------------------------

class GPConjugateGradient(nn.Module):
    """Gaussian-process regression with a deep kernel (Wilson et al.) whose
    linear system is solved by conjugate gradients, as GPyTorch does: an
    MLP (4 -> 32 -> 8, Tanh) maps the 24 context and 8 query points to
    features; the RBF kernel s^2 exp(-|a - b|^2 / 2 l^2) from squared
    distances (norms and a MatMul); (K + sigma^2 I) X = [y - m, K_xq]
    solved for the 9 right-hand sides at once by 16 unrolled CG iterations
    (a batched MatMul, column dot products by ReduceSum, step sizes by
    Div).  Returns the predictive mean and variance at the queries and the
    data-fit term (y - m)^T (K + sigma^2 I)^-1 (y - m)."""

    def __init__(self, dim=4, hidden=32, feat=8, context=24, iters=16):
        super().__init__()
        self.iters = iters
        self.net = nn.Sequential(nn.Linear(dim, hidden), nn.Tanh(), nn.Linear(hidden, feat))
        self.log_len = nn.Parameter(torch.tensor(0.3))
        self.log_scale = nn.Parameter(torch.tensor(0.0))
        self.raw_noise = nn.Parameter(torch.tensor(-1.0))
        self.mean = nn.Parameter(torch.tensor(0.1))
        self.register_buffer("eye", torch.eye(context))

    def _kernel(self, a, b):
        a2 = (a * a).sum(-1, keepdim=True)
        b2 = (b * b).sum(-1).unsqueeze(-2)
        d2 = torch.clamp(a2 + b2 - 2 * torch.matmul(a, b.transpose(-1, -2)), min=0.0)
        return torch.exp(2 * self.log_scale) * torch.exp(-0.5 * d2 * torch.exp(-2 * self.log_len))

    def forward(self, context_x, context_y, query_x):   # (N, 24, 4), (N, 24), (N, 8, 4)
        fc, fq = self.net(context_x), self.net(query_x)
        noise = F.softplus(self.raw_noise) + 1e-3
        a = self._kernel(fc, fc) + noise * self.eye                         # (N, 24, 24)
        kxq = self._kernel(fc, fq)                                          # (N, 24, 8)
        r = torch.cat([(context_y - self.mean).unsqueeze(-1), kxq], dim=-1)  # (N, 24, 9)
        x = torch.zeros_like(r)
        p = r
        rs = (r * r).sum(1, keepdim=True)
        for _ in range(self.iters):
            ap = torch.matmul(a, p)
            alpha = rs / ((p * ap).sum(1, keepdim=True) + 1e-12)
            x = x + alpha * p
            r = r - alpha * ap
            rs_new = (r * r).sum(1, keepdim=True)
            p = r + rs_new / (rs + 1e-12) * p
            rs = rs_new
        alpha_y, v = x[:, :, :1], x[:, :, 1:]
        mu = torch.matmul(kxq.transpose(1, 2), alpha_y)[:, :, 0] + self.mean
        var = torch.exp(2 * self.log_scale) + noise - (kxq * v).sum(1)
        fit = ((context_y - self.mean) * alpha_y[:, :, 0]).sum(-1)
        return mu, torch.clamp(var, min=1e-6), fit


class HashGridField(nn.Module):
    """Multiresolution hash encoding (Mueller et al., "Instant Neural
    Graphics Primitives") queried at 128 points in the unit cube: 8 levels
    of resolution 4 to 68 (growth 1.5), each with a 2048-entry table of
    2 features; per level the point scaled, Floor, the 8 corner cells'
    integer coordinates (Cast, Add of fixed offsets), indexed densely on
    the three coarse levels and by the hash sum_i c_i p_i mod 2048 with
    primes p on the others (a sum and Mod, no XOR at opset 13), gathered
    from the table and blended by trilinear weights (ReduceProd over the
    axes).  A density MLP (16 -> 64 -> 16) and a colour MLP (15 features
    and 9 degree-2 spherical harmonics of the view direction -> 64 -> 64
    -> 3).  Returns the densities and colours."""

    def __init__(self, levels=8, table=2048, feats=2, base=4, growth=1.5, hidden=64):
        super().__init__()
        self.L, self.T = levels, table
        self.res = [int(base * growth ** l) for l in range(levels)]
        self.dense = [(r + 1) ** 3 <= table for r in self.res]
        mults = []
        for r, d in zip(self.res, self.dense):
            mults.append([1, r + 1, (r + 1) ** 2] if d else [1, 2654435761, 805459861])
        self.register_buffer("mults", torch.tensor(mults, dtype=torch.long))
        corners = torch.tensor([[(k >> 2) & 1, (k >> 1) & 1, k & 1] for k in range(8)])
        self.register_buffer("corners", corners.long())
        self.register_buffer("corners_f", corners.float())
        self.table = nn.Parameter(1e-1 * (torch.rand(levels * table, feats) * 2 - 1))
        self.density = nn.Sequential(nn.Linear(levels * feats, hidden), nn.ReLU(),
                                     nn.Linear(hidden, 16))
        self.colour = nn.Sequential(nn.Linear(15 + 9, hidden), nn.ReLU(),
                                    nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, 3))

    @staticmethod
    def _sh2(d):
        x, y, z = d[..., 0], d[..., 1], d[..., 2]
        return torch.stack([torch.full_like(x, 0.28209479), 0.48860251 * y, 0.48860251 * z,
                            0.48860251 * x, 1.09254843 * x * y, 1.09254843 * y * z,
                            0.31539157 * (3 * z * z - 1), 1.09254843 * x * z,
                            0.54627422 * (x * x - y * y)], dim=-1)

    def forward(self, points, directions):         # (N, 128, 3), (N, 128, 3)
        p = torch.sigmoid(points)
        feats = []
        for l in range(self.L):
            s = p * self.res[l]
            f = torch.floor(s)
            w = (s - f).unsqueeze(2)                                        # (N, P, 1, 3)
            c = f.long().unsqueeze(2) + self.corners                        # (N, P, 8, 3)
            idx = (c * self.mults[l]).sum(-1)
            if not self.dense[l]:
                idx = torch.remainder(idx, self.T)
            emb = F.embedding(idx + l * self.T, self.table)                 # (N, P, 8, F)
            tri = (w * self.corners_f + (1 - w) * (1 - self.corners_f)).prod(-1)
            feats.append((tri.unsqueeze(-1) * emb).sum(2))
        h = self.density(torch.cat(feats, dim=-1))
        sigma = F.softplus(h[..., 0])
        d = directions / (directions.norm(dim=-1, keepdim=True) + 1e-6)
        rgb = torch.sigmoid(self.colour(torch.cat([h[..., 1:], self._sh2(d)], dim=-1)))
        return sigma, rgb


class SOMOnline(nn.Module):
    """Self-organising map trained online (Kohonen) over a stream: 24
    samples of 12 features, each encoded by a Linear + Tanh to 8-d, update
    a 6 x 6 map of 8-d units (initialised from a learned map) one after the
    other: squared distances to all units, the best-matching unit by
    ArgMin, its grid coordinates by Gather, a Gaussian neighbourhood over
    the grid, W <- W + lr_t h (x - W); the width decays from 2.5 to 0.5 and
    the rate from 0.5 to 0.02.  Returns the trained map, each sample's
    quantisation error at its step, and the grid coordinates of the units
    that the trained map assigns to the samples."""

    def __init__(self, inp=12, dim=8, side=6, steps=24):
        super().__init__()
        self.side, self.steps = side, steps
        self.enc = nn.Linear(inp, dim)
        self.w0 = nn.Parameter(0.5 * torch.randn(side * side, dim))
        ys, xs = torch.meshgrid(torch.arange(side, dtype=torch.float32),
                                torch.arange(side, dtype=torch.float32), indexing="ij")
        self.register_buffer("coords", torch.stack([ys.flatten(), xs.flatten()], dim=-1))

    def forward(self, stream):                     # (N, 24, 12)
        x = torch.tanh(self.enc(stream))                                    # (N, T, D)
        w = self.w0
        errors = []
        for t in range(self.steps):
            frac = t / (self.steps - 1)
            lr = 0.5 * (0.02 / 0.5) ** frac
            width = 2.5 * (0.5 / 2.5) ** frac
            diff = x[:, t:t + 1] - w                                        # (N, U, D)
            d2 = (diff * diff).sum(-1)
            bmu = torch.argmin(d2, dim=1)
            errors.append(torch.amin(d2, dim=1))
            g = ((self.coords - self.coords[bmu].unsqueeze(1)) ** 2).sum(-1)   # (N, U)
            h = torch.exp(g * (-0.5 / (width * width)))
            w = w + (lr * h).unsqueeze(-1) * diff
        d2 = ((x.unsqueeze(2) - w.unsqueeze(1)) ** 2).sum(-1)              # (N, T, U)
        place = self.coords[torch.argmin(d2, dim=-1)]                       # (N, T, 2)
        return w.reshape(-1, self.side, self.side, w.shape[-1]), torch.stack(errors, 1), place


class CEMPlanner(nn.Module):
    """Cross-entropy-method planning with learned models (as in PlaNet /
    PETS): a dynamics MLP s' = s + 0.1 W_o tanh(W_s s + W_a a + b) and a
    reward MLP on 8-d states; a proposal Linear gives the first mean of a
    6-step 2-d action sequence; 4 CEM iterations, each drawing 32
    candidate sequences mean + std * noise (fed), clipped, rolled out step
    by step with discounted rewards and an action cost, the best 4 by TopK
    gathered (GatherElements) to refit the mean (smoothed) and the spread.
    Returns the first action to take, the planned sequence and the best
    return of the last iteration."""

    def __init__(self, state=8, action=2, hidden=64, horizon=6, cands=32, elites=4, iters=4):
        super().__init__()
        self.A, self.H, self.K, self.E, self.iters = action, horizon, cands, elites, iters
        self.ws = nn.Linear(state, hidden)
        self.wa = nn.Linear(action, hidden, bias=False)
        self.wo = nn.Linear(hidden, state, bias=False)
        self.r1 = nn.Linear(state, 32)
        self.r2 = nn.Linear(32, 1)
        self.propose = nn.Linear(state, horizon * action)

    def forward(self, state, noise):               # (N, 8), (N, 4, 32, 6, 2)
        mean = torch.tanh(self.propose(state)).reshape(-1, self.H, self.A)
        std = torch.full_like(mean, 0.6)
        best = None
        for k in range(self.iters):
            a = torch.clamp(mean.unsqueeze(1) + std.unsqueeze(1) * noise[:, k], -1.0, 1.0)
            aw = self.wa(a)                                                 # (N, K, H, hid)
            s = state.unsqueeze(1) + torch.zeros_like(a[:, :, 0, :1])       # (N, K, S)
            ret = -0.01 * (a * a).sum((2, 3))
            for t in range(self.H):
                s = s + 0.1 * self.wo(torch.tanh(self.ws(s) + aw[:, :, t]))
                ret = ret + (0.95 ** t) * self.r2(torch.tanh(self.r1(s)))[..., 0]
            best, idx = torch.topk(ret, self.E, dim=1)
            flat = a.reshape(-1, self.K, self.H * self.A)
            el = torch.gather(flat, 1, idx.unsqueeze(-1).expand(-1, -1, self.H * self.A))
            new_mean = el.mean(1).reshape(-1, self.H, self.A)
            new_std = torch.sqrt(((el - el.mean(1, keepdim=True)) ** 2).mean(1) + 1e-4)
            mean = 0.2 * mean + 0.8 * new_mean
            std = 0.2 * std + 0.8 * new_std.reshape(-1, self.H, self.A)
        return mean[:, 0], mean, best[:, 0]


class PredictiveCoding(nn.Module):
    """Predictive-coding network (Rao & Ballard; Whittington & Bogacz) on a
    64-d observation with latent layers of 48, 32 and 10: each layer
    predicts the one below, mu_l = W_l tanh(x_(l+1)) + b_l, the top one has
    a learned prior; the latents start from an amortised bottom-up pass and
    then take 12 inference steps down the energy sum_l pi_l |x_l - mu_l|^2
    / 2: x_l <- x_l + 0.1 (-e_l + tanh'(x_l) * (e_(l-1) W_l^T)), with
    precision-weighted errors e_l.  Returns the class posterior (softmax of
    the top latent), the final energy and the first latent layer."""

    def __init__(self, dims=(64, 48, 32, 10), iters=12, rate=0.1):
        super().__init__()
        self.iters, self.rate = iters, rate
        self.gen = nn.ModuleList([nn.Linear(dims[l + 1], dims[l]) for l in range(3)])
        self.rec = nn.ModuleList([nn.Linear(dims[l], dims[l + 1]) for l in range(3)])
        self.prior = nn.Parameter(torch.zeros(dims[3]))
        self.log_prec = nn.Parameter(torch.zeros(4))

    def forward(self, observation):                # (N, 64)
        prec = torch.exp(self.log_prec)
        xs = [observation]
        for l in range(3):
            xs.append(self.rec[l](xs[-1] if l == 0 else torch.tanh(xs[-1])))
        for _ in range(self.iters):
            t = [None] + [torch.tanh(x) for x in xs[1:]]
            errs = [(xs[l] - self.gen[l](t[l + 1])) * prec[l] for l in range(3)]
            errs.append((xs[3] - self.prior) * prec[3])
            new = [observation]
            for l in range(1, 4):
                back = torch.matmul(errs[l - 1], self.gen[l - 1].weight)
                new.append(xs[l] + self.rate * (-errs[l] + (1 - t[l] * t[l]) * back))
            xs = new
        t = [None] + [torch.tanh(x) for x in xs[1:]]
        energy = sum(0.5 * ((xs[l] - self.gen[l](t[l + 1])) ** 2).sum(-1) * prec[l]
                     for l in range(3))
        energy = energy + 0.5 * ((xs[3] - self.prior) ** 2).sum(-1) * prec[3]
        return torch.softmax(xs[3], dim=-1), energy, xs[1]


class DEQBroyden(nn.Module):
    """Deep equilibrium model (Bai, Kolter & Koltun) whose fixed point
    z = tanh(z W + x U + b) (32-d, W a scaled random orthogonal matrix) is
    found by Broyden's method: g(z) = f(z) - z; 12 quasi-Newton steps
    z <- z - B g with a per-sample 32 x 32 inverse-Jacobian estimate B
    (from -I) updated by the "good" rank-one rule B += (dz - B dg)(dz^T B)
    / (dz^T B dg) (batched MatMuls, the division regularised).  One more
    application of f, then a Linear to 10 classes.  Returns the logits and
    the final residual norm."""

    def __init__(self, inp=40, dim=32, classes=10, steps=12):
        super().__init__()
        self.steps = steps
        self.inject = nn.Linear(inp, dim)
        q, _ = torch.linalg.qr(torch.randn(dim, dim))
        self.w = nn.Parameter(0.7 * q)
        self.register_buffer("neg_eye", -torch.eye(dim))
        self.head = nn.Linear(dim, classes)

    def _f(self, z, u):
        return torch.tanh(torch.matmul(z, self.w) + u)

    def forward(self, features):                   # (N, 40)
        u = self.inject(features)
        z = torch.zeros_like(u)
        g = self._f(z, u) - z
        b = self.neg_eye + torch.zeros_like(u).unsqueeze(-1)               # (N, D, D)
        for _ in range(self.steps):
            dz = -torch.matmul(b, g.unsqueeze(-1))[..., 0]
            z = z + dz
            g_new = self._f(z, u) - z
            dg = (g_new - g).unsqueeze(-1)                                  # (N, D, 1)
            bdg = torch.matmul(b, dg)
            dzb = torch.matmul(dz.unsqueeze(1), b)                          # (N, 1, D)
            den = torch.matmul(dzb, dg)                                     # (N, 1, 1)
            inv = den / (den * den + 1e-8)
            b = b + torch.matmul(dz.unsqueeze(-1) - bdg, dzb) * inv
            g = g_new
        z = self._f(z, u)
        return self.head(z), g.norm(dim=-1)


# --------------------------------------------------------------------------
# Ordinary sizes
# --------------------------------------------------------------------------

class _MDTA(nn.Module):
    """Multi-Dconv head transposed attention: 1x1 Conv to q, k, v, a 3x3
    depthwise Conv, q and k L2-normalised over the pixels, a channel x
    channel attention per head scaled by a learned temperature."""

    def __init__(self, ch, heads):
        super().__init__()
        self.heads = heads
        self.temp = nn.Parameter(torch.ones(heads, 1, 1))
        self.qkv = nn.Conv2d(ch, 3 * ch, 1, bias=False)
        self.dw = nn.Conv2d(3 * ch, 3 * ch, 3, padding=1, groups=3 * ch, bias=False)
        self.proj = nn.Conv2d(ch, ch, 1, bias=False)

    def forward(self, x):
        c, hgt, wid = x.shape[1], x.shape[2], x.shape[3]
        q, k, v = self.dw(self.qkv(x)).chunk(3, dim=1)
        q = F.normalize(q.reshape(-1, self.heads, c // self.heads, hgt * wid), dim=-1)
        k = F.normalize(k.reshape(-1, self.heads, c // self.heads, hgt * wid), dim=-1)
        v = v.reshape(-1, self.heads, c // self.heads, hgt * wid)
        attn = torch.softmax(torch.matmul(q, k.transpose(-1, -2)) * self.temp, dim=-1)
        return self.proj(torch.matmul(attn, v).reshape(-1, c, hgt, wid))


class _GDFN(nn.Module):
    """Gated-Dconv feed-forward: 1x1 Conv to 2h, 3x3 depthwise, GELU(x1) *
    x2, 1x1 Conv back."""

    def __init__(self, ch, expand=2):
        super().__init__()
        hid = ch * expand
        self.inp = nn.Conv2d(ch, 2 * hid, 1, bias=False)
        self.dw = nn.Conv2d(2 * hid, 2 * hid, 3, padding=1, groups=2 * hid, bias=False)
        self.out = nn.Conv2d(hid, ch, 1, bias=False)

    def forward(self, x):
        a, b = self.dw(self.inp(x)).chunk(2, dim=1)
        return self.out(F.gelu(a) * b)


class _RestormerBlock(nn.Module):
    def __init__(self, ch, heads):
        super().__init__()
        self.n1, self.attn = _ChanLN(ch), _MDTA(ch, heads)
        self.n2, self.ffn = _ChanLN(ch), _GDFN(ch)

    def forward(self, x):
        x = x + self.attn(self.n1(x))
        return x + self.ffn(self.n2(x))


class RestormerLite(nn.Module):
    """Restormer-like restoration transformer (Zamir et al., "Restormer:
    Efficient Transformer for High-Resolution Image Restoration") on
    64 x 64 images: a 3x3 embedding to 16 channels; an encoder of 1, 2
    and 2 blocks at 16, 32, 64 channels (1, 2, 4 heads), each block
    channel LayerNorm + MDTA and channel LayerNorm + GDFN; downsampling by
    a 3x3 Conv halving the channels and PixelUnshuffle, upsampling by a
    3x3 Conv doubling them and PixelShuffle; decoder levels with skip
    concatenation (a 1x1 Conv reduction at the middle level) of 2 and 1
    blocks; a 3x3 Conv to the residual image.  Returns the restored
    image."""

    def __init__(self, ch=16):
        super().__init__()
        c1, c2, c3 = ch, 2 * ch, 4 * ch
        self.embed = nn.Conv2d(3, c1, 3, padding=1, bias=False)
        self.enc1 = nn.Sequential(_RestormerBlock(c1, 1))
        self.down1 = nn.Sequential(nn.Conv2d(c1, c1 // 2, 3, padding=1, bias=False),
                                   nn.PixelUnshuffle(2))
        self.enc2 = nn.Sequential(_RestormerBlock(c2, 2), _RestormerBlock(c2, 2))
        self.down2 = nn.Sequential(nn.Conv2d(c2, c2 // 2, 3, padding=1, bias=False),
                                   nn.PixelUnshuffle(2))
        self.latent = nn.Sequential(_RestormerBlock(c3, 4), _RestormerBlock(c3, 4))
        self.up2 = nn.Sequential(nn.Conv2d(c3, 2 * c3, 3, padding=1, bias=False),
                                 nn.PixelShuffle(2))
        self.reduce2 = nn.Conv2d(2 * c2, c2, 1, bias=False)
        self.dec2 = nn.Sequential(_RestormerBlock(c2, 2), _RestormerBlock(c2, 2))
        self.up1 = nn.Sequential(nn.Conv2d(c2, 2 * c2, 3, padding=1, bias=False),
                                 nn.PixelShuffle(2))
        self.dec1 = nn.Sequential(_RestormerBlock(2 * c1, 1))
        self.out = nn.Conv2d(2 * c1, 3, 3, padding=1, bias=False)

    def forward(self, image):                      # (N, 3, 64, 64)
        e1 = self.enc1(self.embed(image))
        e2 = self.enc2(self.down1(e1))
        lat = self.latent(self.down2(e2))
        d2 = self.dec2(self.reduce2(torch.cat([self.up2(lat), e2], dim=1)))
        d1 = self.dec1(torch.cat([self.up1(d2), e1], dim=1))
        return self.out(d1) + image


class _FocalModulation(nn.Module):
    """Focal modulation: a 1x1 Conv to the query, the context and L + 1
    gates; L depthwise Convs with GELU (kernels 3, 5) applied in turn, each
    level gated into the aggregate, a global level (GELU of the mean) too;
    a 1x1 Conv makes the modulator, multiplied into the query; a 1x1
    projection."""

    def __init__(self, ch, levels=2):
        super().__init__()
        self.ch, self.levels = ch, levels
        self.f = nn.Conv2d(ch, 2 * ch + levels + 1, 1)
        self.ctx = nn.ModuleList([nn.Conv2d(ch, ch, 3 + 2 * l, padding=1 + l, groups=ch,
                                            bias=False) for l in range(levels)])
        self.h = nn.Conv2d(ch, ch, 1)
        self.proj = nn.Conv2d(ch, ch, 1)

    def forward(self, x):
        y = self.f(x)
        q, ctx, gates = y[:, :self.ch], y[:, self.ch:2 * self.ch], y[:, 2 * self.ch:]
        agg = 0
        for l, conv in enumerate(self.ctx):
            ctx = F.gelu(conv(ctx))
            agg = agg + ctx * gates[:, l:l + 1]
        glob = F.gelu(ctx.mean((2, 3), keepdim=True))
        agg = agg + glob * gates[:, self.levels:]
        return self.proj(q * self.h(agg))


class _FocalBlock(nn.Module):
    def __init__(self, ch):
        super().__init__()
        self.n1, self.mod = _ChanLN(ch), _FocalModulation(ch)
        self.n2 = _ChanLN(ch)
        self.mlp = nn.Sequential(nn.Conv2d(ch, 4 * ch, 1), nn.GELU(), nn.Conv2d(4 * ch, ch, 1))
        self.g1 = nn.Parameter(torch.full((1, ch, 1, 1), 0.5))
        self.g2 = nn.Parameter(torch.full((1, ch, 1, 1), 0.5))

    def forward(self, x):
        x = x + self.g1 * self.mod(self.n1(x))
        return x + self.g2 * self.mlp(self.n2(x))


class FocalNetLite(nn.Module):
    """FocalNet-like classifier (Yang et al., "Focal Modulation Networks")
    on 128 x 128 images, channels-first: a 4x4 stride-4 patch Conv to 48
    channels at 32 x 32 and a channel LayerNorm; stages of 2, 2, 3 focal
    modulation blocks at 48, 96, 192 channels (32, 16, 8 pixels a side),
    joined by channel LayerNorm + 2x2 stride-2 Convs; each block a
    LayerScaled focal modulation (focal levels 2, kernels 3 and 5, a global
    level) and a LayerScaled 4x GELU MLP of 1x1 Convs; a final LayerNorm,
    global mean, Linear to 10 classes.  Returns the logits."""

    def __init__(self, dims=(48, 96, 192), depths=(2, 2, 3), classes=10):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, dims[0], 4, 4), _ChanLN(dims[0]))
        self.stages = nn.ModuleList()
        for i, (d, n) in enumerate(zip(dims, depths)):
            layers = []
            if i > 0:
                layers += [_ChanLN(dims[i - 1]), nn.Conv2d(dims[i - 1], d, 2, 2)]
            layers += [_FocalBlock(d) for _ in range(n)]
            self.stages.append(nn.Sequential(*layers))
        self.norm = _ChanLN(dims[-1])
        self.head = nn.Linear(dims[-1], classes)

    def forward(self, image):                      # (N, 3, 128, 128)
        x = self.stem(image)
        for stage in self.stages:
            x = stage(x)
        return self.head(self.norm(x).mean((2, 3)))


class _ToMeBlock(nn.Module):
    """Pre-LN transformer block with proportional attention (keys biased by
    log token size), then, before the MLP, bipartite soft matching merging
    r tokens: the keys averaged over heads and normalised as the metric,
    alternate tokens split into sets A and B, cosine scores A x B (the
    class token masked), each A token's best B match (ReduceMax, ArgMax),
    the r best edges by TopK, the other A tokens kept in order (TopK
    ascending), the merged A tokens added into their B matches by a
    one-hot MatMul, sums and sizes merged alike."""

    def __init__(self, dim, heads, tokens, r):
        super().__init__()
        self.h, self.dh, self.r = heads, dim // heads, r
        self.ta, self.tb = (tokens + 1) // 2, tokens // 2
        self.n1 = nn.LayerNorm(dim)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.n2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))
        mask = torch.zeros(1, self.ta, 1)
        mask[0, 0, 0] = -1e4
        self.register_buffer("cls_mask", mask)
        self.register_buffer("b_range", torch.arange(self.tb))

    def forward(self, x, size):                    # (N, T, D), (N, T, 1)
        qkv = self.qkv(self.n1(x)).reshape(-1, x.shape[1], 3, self.h, self.dh)
        q, k, v = qkv.permute(2, 0, 3, 1, 4).unbind(0)                     # (N, h, T, dh)
        s = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.dh)
        s = s + torch.log(size).transpose(1, 2).unsqueeze(1)
        o = torch.matmul(torch.softmax(s, dim=-1), v).transpose(1, 2).flatten(2)
        x = x + self.proj(o)
        metric = F.normalize(k.mean(1), dim=-1)
        ma, mb = metric[:, 0::2], metric[:, 1::2]
        scores = torch.matmul(ma, mb.transpose(1, 2)) + self.cls_mask     # (N, Ta, Tb)
        node_max, node_idx = scores.max(dim=-1)
        _, order = torch.topk(node_max, self.ta, dim=-1)
        src_idx = order[:, :self.r]
        unm_idx, _ = torch.sort(order[:, self.r:], dim=-1)
        dst_idx = torch.gather(node_idx, 1, src_idx)
        d = x.shape[-1]
        xs = torch.cat([x * size, size], dim=-1)
        xa, xb = xs[:, 0::2], xs[:, 1::2]
        unm = torch.gather(xa, 1, unm_idx.unsqueeze(-1).expand(-1, -1, d + 1))
        src = torch.gather(xa, 1, src_idx.unsqueeze(-1).expand(-1, -1, d + 1))
        onehot = (dst_idx.unsqueeze(-1) == self.b_range).to(x.dtype)       # (N, r, Tb)
        xb = xb + torch.matmul(onehot.transpose(1, 2), src)
        out = torch.cat([unm, xb], dim=1)
        size = out[..., d:]
        x = out[..., :d] / size
        return x + self.mlp(self.n2(x)), size


class ToMeViT(nn.Module):
    """ViT with token merging (Bolya et al., "Token Merging: Your ViT But
    Faster") on 64 x 64 images: 4x4 patches (a stride-4 Conv) to 256
    tokens of 128-d plus a class token and learned positions; 6 blocks of 4
    heads, each merging 32 tokens between its attention and its MLP
    (257 -> 65 tokens); a final LayerNorm and the class token to 10
    classes.  Returns the logits and the final token sizes."""

    def __init__(self, dim=128, heads=4, depth=6, r=32, classes=10, side=64, patch=4):
        super().__init__()
        n = (side // patch) ** 2 + 1
        self.patch = nn.Conv2d(3, dim, patch, patch)
        self.cls = nn.Parameter(0.02 * torch.randn(1, 1, dim))
        self.pos = nn.Parameter(0.02 * torch.randn(1, n, dim))
        self.blocks = nn.ModuleList()
        for _ in range(depth):
            self.blocks.append(_ToMeBlock(dim, heads, n, r))
            n -= r
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, classes)

    def forward(self, image):                      # (N, 3, 64, 64)
        t = self.patch(image).flatten(2).transpose(1, 2)
        x = torch.cat([self.cls + torch.zeros_like(t[:, :1]), t], dim=1) + self.pos
        size = torch.ones_like(x[..., :1])
        for blk in self.blocks:
            x, size = blk(x, size)
        return self.head(self.norm(x[:, 0])), size[..., 0]


class _P4Conv(nn.Module):
    """A p4 group convolution (or, lifting=True, the lifting convolution from
    the plane): the full weight, one rotated and cyclically shifted copy of
    the filter bank per output rotation, is gathered from the bank in
    forward by a fixed index over (rotation, kh, kw); the exporter's
    constant folding turns it into the Conv's weight initializer."""

    def __init__(self, cin, cout, k=3, lifting=False):
        super().__init__()
        self.cin, self.cout, self.k, self.lifting = cin, cout, k, lifting
        g = 1 if lifting else 4
        self.g = g
        self.bank = nn.Parameter(torch.randn(cout, cin, g * k * k) / math.sqrt(cin * g * k * k))
        grid = torch.arange(k * k).reshape(k, k)
        idx = []
        for r in range(4):
            rot = torch.rot90(grid, r, dims=(0, 1)).flatten()
            idx.append(torch.cat([((s - r) % g) * k * k + rot for s in range(g)]))
        self.register_buffer("index", torch.stack(idx).flatten())          # (4 * g * k * k,)

    def forward(self, x):
        w = self.bank[:, :, self.index].reshape(self.cout, self.cin, 4, self.g, self.k, self.k)
        w = w.permute(0, 2, 1, 3, 4, 5).reshape(self.cout * 4, self.cin * self.g, self.k, self.k)
        return F.conv2d(x, w, padding=self.k // 2)


class _P4BNReLU(nn.Module):
    """Batch norm shared by the four rotations of each channel (a 5-d
    view), ReLU."""

    def __init__(self, ch):
        super().__init__()
        self.ch = ch
        self.bn = nn.BatchNorm3d(ch)

    def forward(self, x):
        hgt, wid = x.shape[2], x.shape[3]
        y = self.bn(x.reshape(-1, self.ch, 4, hgt, wid))
        return torch.relu(y).reshape(-1, self.ch * 4, hgt, wid)


class P4GCNN(nn.Module):
    """Rotation-equivariant group CNN (Cohen & Welling, "Group Equivariant
    Convolutional Networks", p4) on 64 x 64 images: a 3x3 lifting Conv to
    12 channels x 4 rotations, then p4 Convs 12 -> 12 at 64 x 64, 12 -> 24
    -> 24 at 32 x 32 and 24 -> 48 -> 48 at 16 x 16 (2x2 MaxPools between),
    each weight gathered from its filter bank (rotated and cyclically
    shifted copies; constant-folded at export), each followed by batch
    norm shared by the rotations (on a 5-d view) and ReLU; a max over the
    rotations, a global mean, a Linear to 10 classes.  Returns the logits
    and the rotation-pooled last map."""

    def __init__(self, widths=(12, 24, 48), classes=10):
        super().__init__()
        c1, c2, c3 = widths
        self.layers = nn.ModuleList([
            nn.Sequential(_P4Conv(3, c1, lifting=True), _P4BNReLU(c1)),
            nn.Sequential(_P4Conv(c1, c1), _P4BNReLU(c1), nn.MaxPool2d(2)),
            nn.Sequential(_P4Conv(c1, c2), _P4BNReLU(c2)),
            nn.Sequential(_P4Conv(c2, c2), _P4BNReLU(c2), nn.MaxPool2d(2)),
            nn.Sequential(_P4Conv(c2, c3), _P4BNReLU(c3)),
            nn.Sequential(_P4Conv(c3, c3), _P4BNReLU(c3))])
        self.c3 = c3
        self.fc = nn.Linear(c3, classes)

    def forward(self, image):                      # (N, 3, 64, 64)
        x = image
        for layer in self.layers:
            x = layer(x)
        inv = torch.amax(x.reshape(-1, self.c3, 4, x.shape[2], x.shape[3]), dim=2)
        return self.fc(inv.mean((2, 3))), inv


class GaussianSplat2D(nn.Module):
    """Differentiable 2-D Gaussian splatting (after Kerbl et al.'s 3-D
    Gaussian splatting, in the image plane): a strided CNN (32, 64, 96
    channels to 8 x 8, a 3x3 Conv) predicts 2 Gaussians per cell (offset,
    log scales, rotation, colour, opacity, depth); the 128 Gaussians sorted
    front to back by TopK of their negated depths and gathered; each one's
    conic (inverse covariance from rotation and scales) evaluated at all
    64 x 64 pixel centres, alpha = opacity exp(-q / 2) clipped at 0.99;
    front-to-back compositing, the transmittance exp of an exclusive CumSum
    of log(1 - alpha); colours summed by a MatMul, the background behind.
    Returns the rendered image and its coverage."""

    def __init__(self, per_cell=2, side=64, grid=8):
        super().__init__()
        self.per, self.side, self.grid = per_cell, side, grid
        self.cell = side / grid

        def cbr(cin, cout, stride):
            return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False),
                                 nn.BatchNorm2d(cout), nn.ReLU())
        self.enc = nn.Sequential(cbr(3, 32, 2), cbr(32, 64, 2), cbr(64, 96, 2), cbr(96, 96, 1))
        self.head = nn.Conv2d(96, per_cell * 10, 1)
        cy, cx = torch.meshgrid(torch.arange(grid, dtype=torch.float32),
                                torch.arange(grid, dtype=torch.float32), indexing="ij")
        centres = (torch.stack([cx, cy], -1).reshape(grid * grid, 1, 2) + 0.5) * self.cell
        self.register_buffer("centres", centres.expand(-1, per_cell, -1).reshape(1, -1, 2))
        py, px = torch.meshgrid(torch.arange(side, dtype=torch.float32) + 0.5,
                                torch.arange(side, dtype=torch.float32) + 0.5, indexing="ij")
        self.register_buffer("px", px.reshape(1, 1, -1))
        self.register_buffer("py", py.reshape(1, 1, -1))
        self.background = nn.Parameter(torch.full((1, 3, 1), 0.5))

    def forward(self, image):                      # (N, 3, 64, 64)
        g = self.grid * self.grid * self.per
        prm = self.head(self.enc(image)).reshape(-1, self.per, 10, self.grid * self.grid)
        prm = prm.permute(0, 3, 1, 2).reshape(-1, g, 10)
        _, order = torch.topk(-prm[..., 9], g, dim=1)
        prm = torch.gather(prm, 1, order.unsqueeze(-1).expand(-1, -1, 10))
        centre = torch.gather(self.centres + torch.zeros_like(prm[..., :2]), 1,
                              order.unsqueeze(-1).expand(-1, -1, 2))
        mu = centre + 0.75 * self.cell * torch.tanh(prm[..., 0:2])
        inv_s2 = torch.exp(-2 * torch.clamp(prm[..., 2:4], -2.0, 2.0)) / (self.cell ** 2)
        theta = math.pi * torch.tanh(prm[..., 4])
        c, s = torch.cos(theta), torch.sin(theta)
        ca = (c * c * inv_s2[..., 0] + s * s * inv_s2[..., 1]).unsqueeze(-1)
        cb = (c * s * (inv_s2[..., 0] - inv_s2[..., 1])).unsqueeze(-1)
        cc = (s * s * inv_s2[..., 0] + c * c * inv_s2[..., 1]).unsqueeze(-1)
        colour = torch.sigmoid(prm[..., 5:8])                               # (N, G, 3)
        opacity = torch.sigmoid(prm[..., 8:9])
        dx = self.px - mu[..., 0:1]                                         # (N, G, P)
        dy = self.py - mu[..., 1:2]
        q = ca * dx * dx + 2 * cb * dx * dy + cc * dy * dy
        alpha = torch.clamp(opacity * torch.exp(-0.5 * q), max=0.99)
        log_keep = torch.log(1 - alpha)
        log_t = torch.cumsum(log_keep, dim=1) - log_keep
        wts = alpha * torch.exp(log_t)
        rgb = torch.matmul(colour.transpose(1, 2), wts)                     # (N, 3, P)
        cover = wts.sum(1, keepdim=True)
        rgb = rgb + (1 - cover) * self.background
        return (rgb.reshape(-1, 3, self.side, self.side),
                cover.reshape(-1, 1, self.side, self.side))


class _DVAERes(nn.Module):
    """x + Conv3x3(ReLU(Conv3x3(ReLU(x)))), a half-width middle."""

    def __init__(self, ch):
        super().__init__()
        self.c1 = nn.Conv2d(ch, ch // 2, 3, padding=1)
        self.c2 = nn.Conv2d(ch // 2, ch, 3, padding=1)

    def forward(self, x):
        return x + self.c2(torch.relu(self.c1(torch.relu(x))))


class GumbelDVAE(nn.Module):
    """Discrete VAE with a Gumbel-softmax bottleneck (Jang et al.; Maddison
    et al.; the dVAE of DALL-E) on 64 x 64 images: an encoder of a 4x4
    stride-2 Conv (64), a residual block, a 4x4 stride-2 Conv (128), a
    residual block and a 1x1 Conv to 128 code logits at 16 x 16; Gumbel
    noise -log(-log u) with u the normal CDF of a fed noise input; the
    relaxed one-hot softmax((logits + g) / 0.9) over the codes times a
    64-d codebook (a 1x1 Conv); a decoder of a 1x1 Conv (128), a residual
    block, 4x4 stride-2 ConvTransposes (64, 32) with a residual block
    between, a 3x3 Conv and Sigmoid.  Returns the reconstruction and the
    KL of the code posterior to the uniform prior."""

    def __init__(self, codes=128, code_dim=64, tau=0.9):
        super().__init__()
        self.codes, self.tau = codes, tau
        self.enc = nn.Sequential(nn.Conv2d(3, 64, 4, 2, 1), _DVAERes(64),
                                 nn.Conv2d(64, 128, 4, 2, 1), _DVAERes(128), nn.ReLU(),
                                 nn.Conv2d(128, codes, 1))
        self.codebook = nn.Conv2d(codes, code_dim, 1, bias=False)
        self.dec = nn.Sequential(nn.Conv2d(code_dim, 128, 1), _DVAERes(128), nn.ReLU(),
                                 nn.ConvTranspose2d(128, 64, 4, 2, 1), _DVAERes(64), nn.ReLU(),
                                 nn.ConvTranspose2d(64, 32, 4, 2, 1), nn.ReLU(),
                                 nn.Conv2d(32, 3, 3, padding=1))

    def forward(self, image, noise):               # (N, 3, 64, 64), (N, 128, 16, 16)
        logits = self.enc(image)
        u = torch.clamp(_normal_cdf(noise), 1e-6, 1 - 1e-6)
        gumbel = -torch.log(-torch.log(u))
        z = torch.softmax((logits + gumbel) / self.tau, dim=1)
        recon = torch.sigmoid(self.dec(self.codebook(z)))
        logq = torch.log_softmax(logits, dim=1)
        kl = (torch.exp(logq) * (logq + math.log(self.codes))).sum(1).mean((1, 2))
        return recon, kl


BLIND13 = {
    "gp_cg_regression": dict(ctor=GPConjugateGradient, family="gaussian-process-cg",
                             inputs=[("context_x", ("N", 24, 4), "float32", None),
                                     ("context_y", ("N", 24), "float32", None),
                                     ("query_x", ("N", 8, 4), "float32", None)]),
    "hashgrid_field": dict(ctor=HashGridField, family="multiresolution-hash-encoding",
                           inputs=[("points", ("N", 128, 3), "float32", None),
                                   ("directions", ("N", 128, 3), "float32", None)]),
    "som_online": dict(ctor=SOMOnline, family="self-organizing-map",
                       inputs=[("stream", ("N", 24, 12), "float32", None)]),
    "cem_planner": dict(ctor=CEMPlanner, family="cem-trajectory-planning",
                        inputs=[("state", ("N", 8), "float32", None),
                                ("noise", ("N", 4, 32, 6, 2), "float32", None)]),
    "predictive_coding": dict(ctor=PredictiveCoding, family="predictive-coding-inference",
                              inputs=[("observation", ("N", 64), "float32", None)]),
    "deq_broyden": dict(ctor=DEQBroyden, family="deep-equilibrium",
                        inputs=[("features", ("N", 40), "float32", None)]),
    "restormer_lite": dict(ctor=RestormerLite, family="transposed-channel-attention",
                           inputs=[("image", ("N", 3, 64, 64), "float32", None)]),
    "focalnet_lite": dict(ctor=FocalNetLite, family="focal-modulation",
                          inputs=[("image", ("N", 3, 128, 128), "float32", None)]),
    "tome_vit": dict(ctor=ToMeViT, family="token-merging",
                     inputs=[("image", ("N", 3, 64, 64), "float32", None)]),
    "p4_gcnn": dict(ctor=P4GCNN, family="group-equivariant-conv",
                    inputs=[("image", ("N", 3, 64, 64), "float32", None)]),
    "gsplat_render": dict(ctor=GaussianSplat2D, family="gaussian-splatting-render",
                          inputs=[("image", ("N", 3, 64, 64), "float32", None)]),
    "gumbel_dvae": dict(ctor=GumbelDVAE, family="gumbel-softmax-dvae",
                        inputs=[("image", ("N", 3, 64, 64), "float32", None),
                                ("noise", ("N", 128, 16, 16), "float32", None)]),
}
