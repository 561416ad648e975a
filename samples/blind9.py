r"""BLIND9: the ninth blind set, written on 2026-12-05 by a helper session
before any of it was measured.  It is to be measured before any further
change is scored, and scored only once, at the end, with the code as it
then stands (bench/zoo_accuracy.py --set blind9).  None of its twelve
families occurs in another set (ZOO, BLIND, BLIND2 ... BLIND8, the
reference models), so no plan rule, feature, fit or calibration was made
with any of them in view, and none of them was run through onnxcost
predict before being measured.

The families: a binary Tree-LSTM composing a fixed 16-leaf parse tree node
by node; a greedy pointer network (an LSTM encoder, a decoder unrolled
over every position with a glimpse and a masked pointer, ArgMax, the
chosen point fed back); a differentiable sorting network (odd-even
transposition layers of sigmoid-relaxed swaps, tracking a relaxed
permutation matrix); a KalmanNet-like filter (a constant-velocity model
whose Kalman gain comes from a GRU, unrolled over the observations); a
recurrent actor-critic policy with masked discrete, squashed Gaussian,
multi-discrete and value heads, unrolled over a short rollout; a Graves-
style handwriting synthesis network (two LSTM cells, a Gaussian attention
window over the one-hot text, a bivariate mixture density output and its
negative log-likelihood); a SimpleBaseline-like pose estimator (strided
convolutions, three transposed convolutions to keypoint heatmaps, an
integral soft-argmax); a NAFNet-like activation-free restoration net
(LayerNorm2d, simple gates, simplified channel attention, pixel unshuffle
/ shuffle); a SepConv-like frame interpolator (a dilated context network
predicting per-pixel separable kernels, applied to both frames by shifted
slices and Einsum); a FastSpeech-like text-to-spectrogram model (FFT
blocks with Conv1d feed-forwards, a duration predictor, the length
regulator by CumSum, comparison and Gather, a Conv1d postnet); a GC-Net-
like stereo matcher (a shared 2-D feature net, a concatenation cost volume
over 12 disparities, 3-D convolutions, soft-argmin); and a PatchCore-like
anomaly detector (mid-level CNN features, a nearest-neighbour search
against a memory bank of 2048 patch features by MatMul and TopK, an
upsampled, blurred anomaly map).  The first six are made of small kernels
at batch 1 (most a few thousand elements or fewer, hundreds of kernels);
the other six are of ordinary sizes.

To be measured with

    OMP_WAIT_POLICY=PASSIVE /usr/bin/python3 scripts/measure_zoo.py --set blind9 \
        tree_lstm pointer_net diffsort_net kalman_net actor_critic graves_synthesis \
        pose_heatmap naf_restore sepconv_interp fastspeech_lite stereo_costvol \
        patchcore_knn --threads 1 2 --batches 1 4 16

Same table form as export.py's ZOO (ctor, family, inputs, run); exported by
scripts/ort_graphs.py's export() (opset 13, symbolic batch N).
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def _cbr(cin, cout, k=3, s=1, dil=1):
    """Conv (no bias) + BatchNorm + ReLU, 'same' padding."""
    return nn.Sequential(nn.Conv2d(cin, cout, k, s, dil * (k // 2), dilation=dil, bias=False),
                         nn.BatchNorm2d(cout), nn.ReLU())


class _ResPair(nn.Module):
    """Two 3x3 Conv + BatchNorm with an identity skip."""

    def __init__(self, c):
        super().__init__()
        self.a = _cbr(c, c)
        self.b = nn.Sequential(nn.Conv2d(c, c, 3, 1, 1, bias=False), nn.BatchNorm2d(c))

    def forward(self, x):
        return F.relu(x + self.b(self.a(x)))


def _lstm_cell(gates, c):
    """One LSTM update from precomputed gate pre-activations (i, f, g, o)."""
    i, f, g, o = gates.chunk(4, dim=-1)
    c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
    return torch.sigmoid(o) * torch.tanh(c), c


def _gru_cell(gx, gh, h):
    """One GRU update from the input and hidden projections (r, z, n)."""
    xr, xz, xn = gx.chunk(3, dim=-1)
    hr, hz, hn = gh.chunk(3, dim=-1)
    r = torch.sigmoid(xr + hr)
    z = torch.sigmoid(xz + hz)
    n = torch.tanh(xn + r * hn)
    return (1 - z) * n + z * h


# --------------------------------------------------------------------------
# Small kernels at batch 1
# --------------------------------------------------------------------------

class TreeLSTM(nn.Module):
    """Binary (N-ary) Tree-LSTM (Tai, Socher & Manning) for sentence
    sentiment over a fixed, unbalanced parse tree of 16 leaves: each leaf
    an embedding through a leaf LSTM (input, output, update gates), each of
    the 15 internal nodes composed in post-order from its two children
    (one Linear over their concatenated states, separate left / right
    forget gates); 5-way log-softmax at the root and at every internal
    node."""

    TREE = (((0, 1), (2, (3, 4))), ((5, (6, 7)), (((8, 9), 10), ((11, 12), (13, (14, 15))))))

    def __init__(self, vocab=5000, emb=48, hidden=64, classes=5):
        super().__init__()
        self.emb = nn.Embedding(vocab, emb)
        self.leaf = nn.Linear(emb, 3 * hidden)
        self.node = nn.Linear(2 * hidden, 5 * hidden)
        self.cls = nn.Linear(hidden, classes)

    def forward(self, tokens):                     # (N, 16)
        i, o, u = self.leaf(self.emb(tokens)).chunk(3, dim=-1)
        c = torch.sigmoid(i) * torch.tanh(u)
        h = torch.sigmoid(o) * torch.tanh(c)
        leaves = list(zip(h.unbind(1), c.unbind(1)))
        internal = []

        def compose(t):
            if isinstance(t, int):
                return leaves[t]
            (hl, cl), (hr, cr) = compose(t[0]), compose(t[1])
            i, fl, fr, o, u = self.node(torch.cat([hl, hr], dim=-1)).chunk(5, dim=-1)
            c = torch.sigmoid(i) * torch.tanh(u) + torch.sigmoid(fl) * cl + \
                torch.sigmoid(fr) * cr
            h = torch.sigmoid(o) * torch.tanh(c)
            internal.append(h)
            return h, c

        root, _ = compose(self.TREE)
        nodes = torch.log_softmax(self.cls(torch.stack(internal, dim=1)), dim=-1)
        return torch.log_softmax(self.cls(root), dim=-1), nodes


class PointerNet(nn.Module):
    """Pointer network (Vinyals et al.; glimpse and logit clipping as in
    Bello et al.) decoding a tour of 12 2-D points greedily: a Linear
    embedding, an LSTM encoder, then 12 decoder steps, each an LSTM cell
    (written out with one Linear), a glimpse (additive scores over the
    encoder states, visited ones masked by Where, softmax, weighted sum),
    clipped pointer scores (10 tanh), masked log-softmax, ArgMax; the
    chosen point (a one-hot by Equal, MatMul into the embeddings) is the
    next input and is marked visited.  Returns the tour and its
    log-likelihood."""

    def __init__(self, hidden=64, n=12):
        super().__init__()
        self.n = n
        self.embed = nn.Linear(2, hidden)
        self.enc = nn.LSTM(hidden, hidden, batch_first=True)
        self.dec = nn.Linear(2 * hidden, 4 * hidden)
        self.g_ref = nn.Linear(hidden, hidden, bias=False)
        self.g_q = nn.Linear(hidden, hidden)
        self.g_v = nn.Linear(hidden, 1, bias=False)
        self.p_ref = nn.Linear(hidden, hidden, bias=False)
        self.p_q = nn.Linear(hidden, hidden)
        self.p_v = nn.Linear(hidden, 1, bias=False)
        self.start = nn.Parameter(0.1 * torch.randn(hidden))
        self.register_buffer("positions", torch.arange(n))

    def forward(self, points):                     # (N, 12, 2)
        e = self.embed(points)
        enc, (h, c) = self.enc(e)
        h, c = h[0], c[0]
        gref, pref = self.g_ref(enc), self.p_ref(enc)
        x = torch.zeros_like(h) + self.start
        visited = torch.zeros_like(enc[:, :, 0])
        tour, logl = [], 0
        for _ in range(self.n):
            h, c = _lstm_cell(self.dec(torch.cat([x, h], dim=-1)), c)
            taken = visited > 0
            g = self.g_v(torch.tanh(gref + self.g_q(h).unsqueeze(1)))[..., 0]
            g = torch.softmax(torch.where(taken, torch.full_like(g, -1e9), g), dim=-1)
            q = torch.matmul(g.unsqueeze(1), enc)[:, 0]
            u = 10 * torch.tanh(self.p_v(torch.tanh(pref + self.p_q(q).unsqueeze(1)))[..., 0])
            logp = torch.log_softmax(torch.where(taken, torch.full_like(u, -1e9), u), dim=-1)
            idx = logp.argmax(dim=-1)
            onehot = (idx.unsqueeze(1) == self.positions).to(logp.dtype)
            logl = logl + (logp * onehot).sum(-1)
            visited = visited + onehot
            x = torch.matmul(onehot.unsqueeze(1), e)[:, 0]
            tour.append(idx)
        return torch.stack(tour, dim=1), logl


class DiffSortNet(nn.Module):
    """Differentiable sorting network (Petersen et al., "Differentiable
    Sorting Networks"): a small MLP scores 16 items, then 16 layers of an
    odd-even transposition network sort the scores with relaxed swaps
    (alpha = sigmoid(steepness * (b - a)) mixing each pair into a soft min
    and max), the same mixing applied to the rows of a 16 x 16 relaxed
    permutation matrix (pairs by strided Slice, re-interleaved by Stack /
    Reshape / Concat); returns the sorted scores, the soft ranks
    (permutation times positions) and a head on the permuted items' top
    four."""

    def __init__(self, feat=8, hidden=32, n=16, steepness=6.0, out=4):
        super().__init__()
        self.n, self.beta = n, steepness
        self.score = nn.Sequential(nn.Linear(feat, hidden), nn.ReLU(), nn.Linear(hidden, 1))
        self.head = nn.Sequential(nn.Linear(feat, hidden), nn.ReLU(), nn.Linear(hidden, out))
        self.register_buffer("eye", torch.eye(n))
        self.register_buffer("pos", torch.arange(n, dtype=torch.float32))

    @staticmethod
    def _merge(lo, hi):
        """Interleave lo[:, j], hi[:, j] along dim 1."""
        st = torch.stack([lo, hi], dim=2)
        return st.reshape(st.shape[0], -1, *st.shape[3:])

    def forward(self, items):                      # (N, 16, 8)
        x = self.score(items)[..., 0]                                  # (N, 16)
        P = torch.zeros_like(x).unsqueeze(-1) + self.eye               # (N, 16, 16)
        for layer in range(self.n):
            if layer % 2 == 0:
                a, b, pa, pb = x[:, 0::2], x[:, 1::2], P[:, 0::2], P[:, 1::2]
            else:
                a, b, pa, pb = x[:, 1:-1:2], x[:, 2::2], P[:, 1:-1:2], P[:, 2::2]
            s = torch.sigmoid(self.beta * (b - a))
            lo, hi = s * a + (1 - s) * b, s * b + (1 - s) * a
            s3 = s.unsqueeze(-1)
            plo, phi = s3 * pa + (1 - s3) * pb, s3 * pb + (1 - s3) * pa
            xm, pm = self._merge(lo, hi), self._merge(plo, phi)
            if layer % 2 == 0:
                x, P = xm, pm
            else:
                x = torch.cat([x[:, :1], xm, x[:, -1:]], dim=1)
                P = torch.cat([P[:, :1], pm, P[:, -1:]], dim=1)
        ranks = torch.matmul(self.pos, P)                               # (N, 16)
        top = torch.matmul(P, items)[:, -4:].mean(1)
        return x, ranks, self.head(top)


class KalmanNetLite(nn.Module):
    """KalmanNet-like state estimator (Revach et al.): a 2-D constant-
    velocity model (state 4, observation 2) filtered over 16 noisy
    position observations; each step predicts the state and observation
    with the known model, feeds four normalised differences (observation,
    innovation, forward update and evolution) through a Linear, a GRU cell
    and an MLP to a 4 x 2 Kalman gain, and corrects by gain times
    innovation (a batched MatMul).  Returns the filtered states."""

    def __init__(self, steps=16, hidden=48, dt=0.1):
        super().__init__()
        self.steps, self.hidden = steps, hidden
        self.register_buffer("trans_t", torch.tensor(
            [[1, 0, dt, 0], [0, 1, 0, dt], [0, 0, 1, 0], [0, 0, 0, 1]]).t().contiguous())
        self.register_buffer("obs_t", torch.tensor(
            [[1.0, 0, 0, 0], [0, 1.0, 0, 0]]).t().contiguous())
        self.fc_in = nn.Sequential(nn.Linear(12, 64), nn.ReLU())
        self.gx = nn.Linear(64, 3 * hidden)
        self.gh = nn.Linear(hidden, 3 * hidden)
        self.fc_out = nn.Sequential(nn.Linear(hidden, 64), nn.ReLU(), nn.Linear(64, 8))

    def forward(self, obs):                        # (N, 16, 2)
        y_prev = obs[:, 0]
        x_post = torch.cat([y_prev, torch.zeros_like(y_prev)], dim=-1)
        x_post_prev, x_prior_prev = x_post, x_post
        h = obs.new_zeros(obs.shape[0], self.hidden)
        out = []
        for t in range(self.steps):
            y = obs[:, t]
            x_prior = torch.matmul(x_post, self.trans_t)
            innov = y - torch.matmul(x_prior, self.obs_t)
            feats = [F.normalize(v, dim=-1, eps=1e-6) for v in
                     (y - y_prev, innov, x_post - x_prior_prev, x_post - x_post_prev)]
            z = self.fc_in(torch.cat(feats, dim=-1))
            h = _gru_cell(self.gx(z), self.gh(h), h)
            gain = self.fc_out(h).reshape(-1, 4, 2)
            x_new = x_prior + torch.matmul(gain, innov.unsqueeze(-1))[..., 0]
            x_post_prev, x_prior_prev, x_post, y_prev = x_post, x_prior, x_new, y
            out.append(x_post)
        return torch.stack(out, dim=1)


class ActorCritic(nn.Module):
    """Recurrent actor-critic policy (PPO-style) evaluated over a 6-step
    rollout: per step an MLP trunk with LayerNorm and tanh, a GRU cell
    carrying the recurrent state (the initial one an input), then five
    heads: 12 discrete actions masked by the step's legal-action mask
    (Where), log-softmax, entropy, the greedy action (ArgMax) and its
    log-probability (GatherElements); a tanh-squashed 3-D Gaussian (mean,
    clipped log-std, the squash correction); a multi-discrete head of 4, 5
    and 6 choices (Split, per-part log-softmax and ArgMax); and a value
    MLP.  Returns the actions, log-probabilities, entropies, values and
    the final state."""

    def __init__(self, obs=40, hidden=64, actions=12, cont=3, multi=(4, 5, 6), steps=6):
        super().__init__()
        self.steps, self.multi_sizes = steps, list(multi)
        self.trunk = nn.Sequential(nn.Linear(obs, hidden), nn.LayerNorm(hidden), nn.Tanh(),
                                   nn.Linear(hidden, hidden), nn.LayerNorm(hidden), nn.Tanh())
        self.gx = nn.Linear(hidden, 3 * hidden)
        self.gh = nn.Linear(hidden, 3 * hidden)
        self.pi = nn.Linear(hidden, actions)
        self.mu = nn.Linear(hidden, cont)
        self.log_std = nn.Linear(hidden, cont)
        self.multi = nn.Linear(hidden, sum(multi))
        self.value = nn.Sequential(nn.Linear(hidden, 32), nn.Tanh(), nn.Linear(32, 1))

    def forward(self, obs, legal, h):              # (N, 6, 40), (N, 6, 12) 0/1, (N, 64)
        acts, conts, multis, logps, ents, values = [], [], [], [], [], []
        for t in range(self.steps):
            h = _gru_cell(self.gx(self.trunk(obs[:, t])), self.gh(h), h)
            logits = self.pi(h)
            logits = torch.where(legal[:, t] > 0, logits, torch.full_like(logits, -1e8))
            lp = torch.log_softmax(logits, dim=-1)
            ent = -(torch.exp(lp) * lp).sum(-1)
            a = lp.argmax(dim=-1, keepdim=True)
            logp = torch.gather(lp, 1, a)[:, 0]
            mu, ls = self.mu(h), torch.clamp(self.log_std(h), -5.0, 2.0)
            act = torch.tanh(mu)
            logp = logp + (-ls - 0.5 * math.log(2 * math.pi)).sum(-1) \
                - torch.log(1 - act * act + 1e-6).sum(-1)
            ent = ent + (ls + 0.5 + 0.5 * math.log(2 * math.pi)).sum(-1)
            parts = []
            for m in self.multi(h).split(self.multi_sizes, dim=-1):
                mlp = torch.log_softmax(m, dim=-1)
                mi = mlp.argmax(dim=-1, keepdim=True)
                logp = logp + torch.gather(mlp, 1, mi)[:, 0]
                ent = ent - (torch.exp(mlp) * mlp).sum(-1)
                parts.append(mi)
            acts.append(a[:, 0])
            conts.append(act)
            multis.append(torch.cat(parts, dim=-1))
            logps.append(logp)
            ents.append(ent)
            values.append(self.value(h)[:, 0])
        return (torch.stack(acts, 1), torch.stack(conts, 1), torch.stack(multis, 1),
                torch.stack(logps, 1), torch.stack(ents, 1), torch.stack(values, 1), h)


class GravesSynthesis(nn.Module):
    """Handwriting synthesis network (Graves, "Generating Sequences With
    Recurrent Neural Networks", section 5) scored teacher-forced on 16
    pen offsets (dx, dy, end-of-stroke) and a 12-character text: the text
    one-hot (OneHot); per step a first LSTM cell on the pen input and the
    previous window, a Gaussian attention window (5 components: exp
    parameters, the position kappa accumulated, the window weights over
    the 12 characters, a MatMul into the one-hot text), a second LSTM cell,
    and a bivariate mixture density output (10 components: softmax
    weights, means, exp scales, tanh correlation, sigmoid end-of-stroke)
    with the next offset's negative log-likelihood and the likeliest
    component's mean (ArgMax, Gather) as the prediction."""

    def __init__(self, chars=60, text_len=12, steps=16, hidden=64, K=5, M=10):
        super().__init__()
        self.chars, self.steps, self.hidden, self.K, self.M = chars, steps, hidden, K, M
        self.l1 = nn.Linear(3 + chars + hidden, 4 * hidden)
        self.win = nn.Linear(hidden, 3 * K)
        self.l2 = nn.Linear(3 + chars + 2 * hidden, 4 * hidden)
        self.mdn = nn.Linear(2 * hidden, 1 + 6 * M)
        self.register_buffer("u", torch.arange(text_len, dtype=torch.float32))

    def forward(self, strokes, text):              # (N, 16, 3), (N, 12)
        onehot = F.one_hot(text, self.chars).to(strokes.dtype)          # (N, U, C)
        n, H, M = strokes.shape[0], self.hidden, self.M
        h1, c1 = strokes.new_zeros(n, H), strokes.new_zeros(n, H)
        h2, c2 = strokes.new_zeros(n, H), strokes.new_zeros(n, H)
        w = strokes.new_zeros(n, self.chars)
        kappa = strokes.new_zeros(n, self.K)
        nll, preds = [], []
        for t in range(self.steps - 1):
            x = strokes[:, t]
            h1, c1 = _lstm_cell(self.l1(torch.cat([x, w, h1], dim=-1)), c1)
            a, b, k = torch.exp(self.win(h1)).chunk(3, dim=-1)
            kappa = kappa + 0.1 * k
            phi = (a.unsqueeze(-1) * torch.exp(
                -b.unsqueeze(-1) * torch.square(kappa.unsqueeze(-1) - self.u))).sum(1)
            w = torch.matmul(phi.unsqueeze(1), onehot)[:, 0]
            h2, c2 = _lstm_cell(self.l2(torch.cat([x, w, h1, h2], dim=-1)), c2)
            p = self.mdn(torch.cat([h1, h2], dim=-1))
            eos = torch.sigmoid(p[:, :1])
            pi = torch.softmax(p[:, 1:1 + M], dim=-1)
            mu1, mu2 = p[:, 1 + M:1 + 2 * M], p[:, 1 + 2 * M:1 + 3 * M]
            s1, s2 = torch.exp(p[:, 1 + 3 * M:1 + 4 * M]), torch.exp(p[:, 1 + 4 * M:1 + 5 * M])
            rho = torch.tanh(p[:, 1 + 5 * M:])
            tgt = strokes[:, t + 1]
            d1, d2 = (tgt[:, :1] - mu1) / s1, (tgt[:, 1:2] - mu2) / s2
            one_r = 1 - rho * rho + 1e-6
            z = d1 * d1 + d2 * d2 - 2 * rho * d1 * d2
            dens = torch.exp(-z / (2 * one_r)) / (2 * math.pi * s1 * s2 * torch.sqrt(one_r))
            e = tgt[:, 2:3]
            nll.append(-torch.log((pi * dens).sum(-1) + 1e-8)
                       - (e * torch.log(eos + 1e-6) + (1 - e) * torch.log(1 - eos + 1e-6))[:, 0])
            best = pi.argmax(dim=-1, keepdim=True)
            preds.append(torch.cat([torch.gather(mu1, 1, best), torch.gather(mu2, 1, best),
                                    eos], dim=-1))
        return torch.stack(nll, 1), torch.stack(preds, 1), phi


# --------------------------------------------------------------------------
# Ordinary sizes
# --------------------------------------------------------------------------

class PoseHeatmap(nn.Module):
    """SimpleBaseline-like human pose estimator (Xiao, Wu & Wei) on 128 x 96
    crops: a stride-2 stem and four stride-2 stages (Conv + BatchNorm +
    ReLU, then a residual pair) down to 4 x 3, three 4x4 stride-2
    ConvTranspose + BatchNorm + ReLU layers back up to 32 x 24, a 1x1
    Conv to 17 keypoint heatmaps; integral regression (Sun et al.): a
    spatial softmax, expected coordinates by MatMul with the pixel grid,
    and each heatmap's peak (ReduceMax) as confidence."""

    def __init__(self, widths=(32, 64, 128, 256, 256), deconv=128, joints=17, hw=(32, 24)):
        super().__init__()
        self.stem = nn.Sequential(_cbr(3, widths[0], 3, 2), _cbr(widths[0], widths[0]))
        stages, cin = [], widths[0]
        for w in widths[1:]:
            stages += [_cbr(cin, w, 3, 2), _ResPair(w)]
            cin = w
        self.backbone = nn.Sequential(*stages)
        ups = []
        for _ in range(3):
            ups += [nn.ConvTranspose2d(cin, deconv, 4, 2, 1, bias=False),
                    nn.BatchNorm2d(deconv), nn.ReLU()]
            cin = deconv
        self.up = nn.Sequential(*ups)
        self.final = nn.Conv2d(deconv, joints, 1)
        ys, xs = torch.meshgrid(torch.arange(hw[0], dtype=torch.float32),
                                torch.arange(hw[1], dtype=torch.float32), indexing="ij")
        self.register_buffer("grid", torch.stack([xs, ys], dim=-1).reshape(-1, 2))

    def forward(self, x):                          # (N, 3, 128, 96)
        hm = self.final(self.up(self.backbone(self.stem(x))))          # (N, 17, 32, 24)
        flat = hm.flatten(2)
        xy = torch.matmul(torch.softmax(flat, dim=-1), self.grid)      # (N, 17, 2)
        return hm, xy, flat.amax(-1)


class NAFRestore(nn.Module):
    """NAFNet-like image restoration (Chen et al., "Simple Baselines for
    Image Restoration"), isotropic: pixel unshuffle of a 128 x 128 image to
    64 x 64 x 12, a 3x3 Conv to 32 channels, eight NAF blocks (LayerNorm2d
    written out with ReduceMean, 1x1 Conv to twice the width, 3x3
    depthwise Conv, SimpleGate = the channel halves multiplied, simplified
    channel attention by global pooling and a 1x1 Conv, 1x1 Conv, a scaled
    residual; then LayerNorm2d, 1x1 Conv, SimpleGate, 1x1 Conv, a scaled
    residual), a 3x3 Conv back, pixel shuffle, plus the input."""

    class LN2d(nn.Module):
        def __init__(self, c):
            super().__init__()
            self.w = nn.Parameter(1 + 0.1 * torch.randn(1, c, 1, 1))
            self.b = nn.Parameter(0.1 * torch.randn(1, c, 1, 1))

        def forward(self, x):
            mu = x.mean(1, keepdim=True)
            var = (x - mu).pow(2).mean(1, keepdim=True)
            return (x - mu) / torch.sqrt(var + 1e-6) * self.w + self.b

    class Block(nn.Module):
        def __init__(self, c):
            super().__init__()
            L = NAFRestore.LN2d
            self.n1, self.n2 = L(c), L(c)
            self.c1 = nn.Conv2d(c, 2 * c, 1)
            self.dw = nn.Conv2d(2 * c, 2 * c, 3, 1, 1, groups=2 * c)
            self.sca = nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Conv2d(c, c, 1))
            self.c3 = nn.Conv2d(c, c, 1)
            self.c4 = nn.Conv2d(c, 2 * c, 1)
            self.c5 = nn.Conv2d(c, c, 1)
            self.beta = nn.Parameter(0.2 * torch.randn(1, c, 1, 1))
            self.gamma = nn.Parameter(0.2 * torch.randn(1, c, 1, 1))

        def forward(self, x):
            a, b = self.dw(self.c1(self.n1(x))).chunk(2, dim=1)
            y = a * b
            x = x + self.c3(y * self.sca(y)) * self.beta
            a, b = self.c4(self.n2(x)).chunk(2, dim=1)
            return x + self.c5(a * b) * self.gamma

    def __init__(self, width=32, blocks=8):
        super().__init__()
        self.intro = nn.Conv2d(12, width, 3, 1, 1)
        self.body = nn.Sequential(*[NAFRestore.Block(width) for _ in range(blocks)])
        self.ending = nn.Conv2d(width, 12, 3, 1, 1)

    def forward(self, x):                          # (N, 3, 128, 128)
        y = self.ending(self.body(self.intro(F.pixel_unshuffle(x, 2))))
        return x + F.pixel_shuffle(y, 2)


class SepConvInterp(nn.Module):
    """SepConv-like video frame interpolation (Niklaus, Mai & Liu, adaptive
    separable convolution) between two 96 x 96 frames: the concatenated
    frames through a stride-2 dilated context network (dilations 1, 2, 4,
    8, 1), bilinear Resize back to full size, a 3x3 Conv, and one Conv
    giving, per pixel, a vertical and a horizontal 5-tap kernel for each
    frame (softmax-normalised); each frame is edge-padded (Pad) and
    filtered by its per-pixel separable kernels (shifted Slices stacked,
    Einsum with the horizontal kernels row by row, then with the vertical
    ones); the two results summed."""

    def __init__(self, ch=32, K=5, dilations=(1, 2, 4, 8, 1)):
        super().__init__()
        self.K = K
        self.enc = nn.Sequential(_cbr(6, 24), _cbr(24, ch, 3, 2),
                                 *[_cbr(ch, ch, 3, 1, d) for d in dilations])
        self.up = nn.Sequential(nn.Conv2d(ch, ch, 3, 1, 1), nn.ReLU())
        self.kernels = nn.Conv2d(ch, 4 * K, 3, 1, 1)

    def local_sep(self, frame, kv, kh):            # (N, 3, H, W), (N, K, H, W) x 2
        K, p = self.K, self.K // 2
        H, W = frame.shape[2], frame.shape[3]
        fp = F.pad(frame, (p, p, p, p), mode="replicate")
        cols = torch.stack([fp[:, :, :, j:j + W] for j in range(K)], dim=2)  # (N,3,K,H+2p,W)
        rows = torch.stack([torch.einsum("nckhw,nkhw->nchw", cols[:, :, :, i:i + H], kh)
                            for i in range(K)], dim=2)                        # (N,3,K,H,W)
        return torch.einsum("nckhw,nkhw->nchw", rows, kv)

    def forward(self, frame0, frame1):             # (N, 3, 96, 96) x 2
        z = self.enc(torch.cat([frame0, frame1], dim=1))
        z = self.up(F.interpolate(z, scale_factor=2.0, mode="bilinear", align_corners=False))
        kv0, kh0, kv1, kh1 = [torch.softmax(k, dim=1)
                              for k in self.kernels(z).split(self.K, dim=1)]
        return self.local_sep(frame0, kv0, kh0) + self.local_sep(frame1, kv1, kh1)


class FastSpeechLite(nn.Module):
    """FastSpeech-like non-autoregressive text to mel spectrogram (Ren et
    al.) on 48 phonemes: embeddings plus sinusoidal positions, three
    post-LN FFT blocks (2-head self-attention written out, a Conv1d k=3 /
    Conv1d k=1 feed-forward), a duration predictor (two Conv1d + ReLU +
    LayerNorm, a Linear; durations exp, Round, clipped to 1..6), the
    length regulator to 192 frames (CumSum of the durations, each frame's
    phoneme index by comparison and ReduceSum, Gather of the encoder
    states, frames past the end zeroed by Where), three more FFT blocks
    over the frames with those frames masked out of attention, a Linear to
    80 mel bins and a three-layer Conv1d + BatchNorm + tanh residual
    postnet.  Returns the mel frames and the durations."""

    class FFT(nn.Module):
        def __init__(self, d, heads, ff, k):
            super().__init__()
            self.h, self.dh = heads, d // heads
            self.qkv = nn.Linear(d, 3 * d)
            self.o = nn.Linear(d, d)
            self.n1 = nn.LayerNorm(d)
            self.c1 = nn.Conv1d(d, ff, k, padding=k // 2)
            self.c2 = nn.Conv1d(ff, d, 1)
            self.n2 = nn.LayerNorm(d)

        def forward(self, x, keep=None):           # (N, L, d), (N, L) bool
            L = x.shape[1]
            q, k, v = self.qkv(x).reshape(-1, L, 3, self.h, self.dh).permute(2, 0, 3, 1, 4) \
                .unbind(0)
            s = torch.matmul(q, k.transpose(2, 3)) / math.sqrt(self.dh)
            if keep is not None:
                s = torch.where(keep[:, None, None, :], s, torch.full_like(s, -1e9))
            y = torch.matmul(torch.softmax(s, dim=-1), v).transpose(1, 2) \
                .reshape(-1, L, self.h * self.dh)
            x = self.n1(x + self.o(y))
            y = self.c2(F.relu(self.c1(x.transpose(1, 2)))).transpose(1, 2)
            return self.n2(x + y)

    def __init__(self, vocab=80, d=128, heads=2, ff=512, k=3, layers=3, frames=192,
                 mels=80, max_dur=6, post=192):
        super().__init__()
        self.frames, self.max_dur = frames, max_dur
        self.emb = nn.Embedding(vocab, d)
        pos = torch.arange(256, dtype=torch.float32).unsqueeze(1)
        div = torch.exp(torch.arange(0, d, 2, dtype=torch.float32) * (-math.log(10000.0) / d))
        pe = torch.zeros(256, d)
        pe[:, 0::2], pe[:, 1::2] = torch.sin(pos * div), torch.cos(pos * div)
        self.register_buffer("pe", pe)
        self.register_buffer("frame_idx", torch.arange(frames, dtype=torch.float32))
        self.encoder = nn.ModuleList(FastSpeechLite.FFT(d, heads, ff, k) for _ in range(layers))
        self.decoder = nn.ModuleList(FastSpeechLite.FFT(d, heads, ff, k) for _ in range(layers))
        self.dp1 = nn.Conv1d(d, 128, 3, padding=1)
        self.dn1 = nn.LayerNorm(128)
        self.dp2 = nn.Conv1d(128, 128, 3, padding=1)
        self.dn2 = nn.LayerNorm(128)
        self.dlin = nn.Linear(128, 1)
        self.mel = nn.Linear(d, mels)
        chans = [mels, post, post, mels]
        self.postnet = nn.Sequential(*[m for i in range(3) for m in (
            nn.Conv1d(chans[i], chans[i + 1], 5, padding=2), nn.BatchNorm1d(chans[i + 1]),
            nn.Tanh() if i < 2 else nn.Identity())])

    def forward(self, phonemes):                   # (N, 48)
        L = phonemes.shape[1]
        x = self.emb(phonemes) + self.pe[:L]
        for blk in self.encoder:
            x = blk(x)
        h = self.dn1(F.relu(self.dp1(x.transpose(1, 2))).transpose(1, 2))
        h = self.dn2(F.relu(self.dp2(h.transpose(1, 2))).transpose(1, 2))
        logd = self.dlin(h)[..., 0]                                     # (N, L)
        dur = torch.clamp(torch.round(torch.exp(logd) * 2.0), 1.0, float(self.max_dur))
        end = torch.cumsum(dur, dim=1)                                  # (N, L)
        idx = (end.unsqueeze(1) <= self.frame_idx.reshape(1, -1, 1)).to(x.dtype).sum(-1)
        keep = idx < L                                                  # (N, frames)
        idx = torch.clamp(idx, max=L - 1).long()
        y = torch.gather(x, 1, idx.unsqueeze(-1).expand(-1, -1, x.shape[2]))
        y = torch.where(keep.unsqueeze(-1), y, torch.zeros_like(y)) + self.pe[:self.frames]
        for blk in self.decoder:
            y = blk(y, keep)
        mel = self.mel(y)
        return mel + self.postnet(mel.transpose(1, 2)).transpose(1, 2), dur


class StereoCostVolume(nn.Module):
    """GC-Net-like stereo matcher (Kendall et al.) on 64 x 128 image pairs:
    a shared 2-D feature net (5x5 stride-2 Conv, 3x3 stride-2 Conv, two
    residual pairs, a 3x3 Conv to 24 channels) at quarter size; a
    concatenation cost volume over 12 disparities (the right features
    shifted by Slice and Pad, Concat with the left, stacked) of 48
    channels; 3-D aggregation (Conv3d + BatchNorm3d + ReLU, a stride-2
    Conv3d level and a ConvTranspose3d back with a skip, a Conv3d to one
    channel); the cost bilinearly Resized to full size, soft-argmin over
    disparity (softmax, times the disparity values, ReduceSum)."""

    def __init__(self, feat=24, agg=16, D=12):
        super().__init__()
        self.D = D
        self.features = nn.Sequential(_cbr(3, 32, 5, 2), _cbr(32, 32, 3, 2), _ResPair(32),
                                      _ResPair(32), nn.Conv2d(32, feat, 3, 1, 1))

        def c3(cin, cout, s=1):
            return nn.Sequential(nn.Conv3d(cin, cout, 3, s, 1, bias=False),
                                 nn.BatchNorm3d(cout), nn.ReLU())

        self.agg0 = nn.Sequential(c3(2 * feat, agg), c3(agg, agg))
        self.down = nn.Sequential(c3(agg, 2 * agg, 2), c3(2 * agg, 2 * agg))
        self.up = nn.Sequential(nn.ConvTranspose3d(2 * agg, agg, 3, 2, 1, output_padding=1,
                                                   bias=False), nn.BatchNorm3d(agg))
        self.out = nn.Conv3d(agg, 1, 3, 1, 1)
        self.register_buffer("disp", 4.0 * torch.arange(D, dtype=torch.float32).reshape(1, D, 1, 1))

    def forward(self, left, right):                # (N, 3, 64, 128) x 2
        fl, fr = self.features(left), self.features(right)              # (N, 24, 16, 32)
        vols = [torch.cat([fl, fr], dim=1)]
        for d in range(1, self.D):
            vols.append(torch.cat([fl, F.pad(fr[:, :, :, :-d], (d, 0))], dim=1))
        c = self.agg0(torch.stack(vols, dim=2))                          # (N, 16, 12, 16, 32)
        c = F.relu(c + self.up(self.down(c)))
        cost = self.out(c)[:, 0]                                         # (N, 12, 16, 32)
        cost = F.interpolate(cost, scale_factor=4.0, mode="bilinear", align_corners=False)
        return (torch.softmax(-cost, dim=1) * self.disp).sum(1)


class PatchCoreKNN(nn.Module):
    """PatchCore-like anomaly detection (Roth et al.) on 160 x 160 images: a
    CNN to stride-8 (96 channels) and stride-16 (128 channels) features,
    each locally averaged (3x3 AveragePool), the deeper one bilinearly
    Resized to 20 x 20, concatenated and projected (1x1 Conv) to 128-D
    patch features; squared distances to a memory bank of 2048 features
    (norms, a MatMul), the 3 nearest by TopK (smallest), Sqrt; the patch
    scores form an anomaly map, Resized to 160 x 160 and blurred by a fixed
    9x9 Gaussian Conv; the image score is the worst patch's distance
    reweighted by a softmax over its neighbours (ArgMax, Gather)."""

    def __init__(self, bank=2048, dim=128, k=3, sigma=2.0):
        super().__init__()
        self.k = k
        self.l2 = nn.Sequential(_cbr(3, 32, 3, 2), _cbr(32, 32), _cbr(32, 64, 3, 2),
                                _cbr(64, 64), _cbr(64, 96, 3, 2), _cbr(96, 96))
        self.l3 = nn.Sequential(_cbr(96, 128, 3, 2), _cbr(128, 128))
        self.proj = nn.Conv2d(96 + 128, dim, 1, bias=False)
        g = torch.Generator().manual_seed(9)
        self.register_buffer("bank", torch.randn(bank, dim, generator=g))
        r = torch.arange(9, dtype=torch.float32) - 4
        g1 = torch.exp(-r * r / (2 * sigma * sigma))
        g2 = torch.outer(g1, g1)
        self.register_buffer("blur", (g2 / g2.sum()).reshape(1, 1, 9, 9))

    def forward(self, x):                          # (N, 3, 160, 160)
        f2 = self.l2(x)                                                  # (N, 96, 20, 20)
        f3 = self.l3(f2)                                                 # (N, 128, 10, 10)
        f2, f3 = F.avg_pool2d(f2, 3, 1, 1), F.avg_pool2d(f3, 3, 1, 1)
        f3 = F.interpolate(f3, size=(20, 20), mode="bilinear", align_corners=False)
        f = self.proj(torch.cat([f2, f3], dim=1)).flatten(2).transpose(1, 2)   # (N, 400, D)
        d2 = (f * f).sum(-1, keepdim=True) - 2 * torch.matmul(f, self.bank.t()) + \
            (self.bank * self.bank).sum(-1)
        nn_d, _ = torch.topk(d2, self.k, dim=-1, largest=False)
        nn_d = torch.sqrt(torch.clamp(nn_d, min=0.0))                    # (N, 400, k)
        score = nn_d[..., 0]
        worst = score.argmax(dim=-1, keepdim=True)                       # (N, 1)
        wd = torch.gather(nn_d, 1, worst.unsqueeze(-1).expand(-1, -1, self.k))[:, 0]  # (N, k)
        img = (1 - torch.softmax(wd, dim=-1)[:, 0]) * wd[:, 0]
        amap = F.interpolate(score.reshape(-1, 1, 20, 20), size=(160, 160), mode="bilinear",
                             align_corners=False)
        return F.conv2d(amap, self.blur, padding=4), img


BLIND9 = {
    "tree_lstm": dict(ctor=TreeLSTM, family="tree-structured-recursive",
                      inputs=[("tokens", ("N", 16), "int64", 5000)]),
    "pointer_net": dict(ctor=PointerNet, family="pointer-network",
                        inputs=[("points", ("N", 12, 2), "float32", None)]),
    "diffsort_net": dict(ctor=DiffSortNet, family="differentiable-sorting",
                         inputs=[("items", ("N", 16, 8), "float32", None)]),
    "kalman_net": dict(ctor=KalmanNetLite, family="learned-kalman-filter",
                       inputs=[("observations", ("N", 16, 2), "float32", None)]),
    "actor_critic": dict(ctor=ActorCritic, family="actor-critic-policy",
                         inputs=[("observations", ("N", 6, 40), "float32", None),
                                 ("legal", ("N", 6, 12), "int64", 2),
                                 ("state", ("N", 64), "float32", None)]),
    "graves_synthesis": dict(ctor=GravesSynthesis, family="mixture-density-network",
                             inputs=[("strokes", ("N", 16, 3), "float32", None),
                                     ("text", ("N", 12), "int64", 60)]),
    "pose_heatmap": dict(ctor=PoseHeatmap, family="keypoint-heatmap",
                         inputs=[("input", ("N", 3, 128, 96), "float32", None)]),
    "naf_restore": dict(ctor=NAFRestore, family="activation-free-restoration",
                        inputs=[("input", ("N", 3, 128, 128), "float32", None)]),
    "sepconv_interp": dict(ctor=SepConvInterp, family="kernel-frame-interpolation",
                           inputs=[("frame0", ("N", 3, 96, 96), "float32", None),
                                   ("frame1", ("N", 3, 96, 96), "float32", None)]),
    "fastspeech_lite": dict(ctor=FastSpeechLite, family="length-regulated-tts",
                            inputs=[("phonemes", ("N", 48), "int64", 80)]),
    "stereo_costvol": dict(ctor=StereoCostVolume, family="stereo-cost-volume",
                           inputs=[("left", ("N", 3, 64, 128), "float32", None),
                                   ("right", ("N", 3, 64, 128), "float32", None)]),
    "patchcore_knn": dict(ctor=PatchCoreKNN, family="memory-bank-anomaly",
                          inputs=[("input", ("N", 3, 160, 160), "float32", None)]),
}
