r"""BLIND11: the eleventh blind set, written on 2026-12-06 by a helper session
before any of it was measured.  It is to be measured before any further
change is scored, and scored only once, at the end, with the code as it
then stands (bench/zoo_accuracy.py --set blind11).  None of its twelve
families occurs in another set (ZOO, BLIND, BLIND2 ... BLIND10, the
reference models), so no plan rule, feature, fit or calibration was made
with any of them in view, and none of them was run through onnxcost
predict before being measured.

The families: beam-search decoding (a GRU decoder with dot attention over
an encoded source, four beams advanced by TopK over beam x vocabulary, the
parent beams and the token histories gathered back by GatherElements,
finished beams frozen, a length penalty); soft dynamic time warping
(Cuturi & Blondel: a sequence and four learned templates in an MLP
embedding, the pairwise cost matrix, the soft-min recursion unrolled over
its anti-diagonals with cells gathered from the flattened costs, a
nearest-template classifier); loopy belief propagation (sum-product in the
log domain on a 6 x 6 grid MRF with MLP unaries and learned pairwise
potentials, four message directions shifted by Slice and Concat, damped,
over 6 iterations); adaptive computation time (Graves; a Universal
Transformer whose one shared layer is applied up to 8 times with per-token
halting probabilities, remainders and a ponder cost); recurrent
independent mechanisms (Goyal et al.: four GRU modules with their own
weights, input attention against a null input, the top two modules by
TopK updated, communication attention between modules); a Meta-SGD inner
loop (Li et al., after MAML: five steps of hand-written back-propagation
through a small regression MLP on a support set with learned per-weight
learning rates, then the adapted net on the query set); a DARTS supernet
(Liu et al.: normal and reduction cells whose every edge is the softmax-
weighted sum of separable, dilated, pooling and skip operations); a
partial-convolution inpainting U-Net (Liu et al. 2018: each Conv of the
masked input renormalised by the mask coverage, itself a Conv with a
ones kernel, the mask updated by Clip, nearest-upsampled skip decoder,
the known pixels composited back); a masked autoencoder (He et al.: a
ViT encoder on the 25% of patches kept by an ArgSort of per-patch noise,
a narrower decoder with mask tokens unshuffled by GatherElements, the
normalised-pixel loss on the masked patches); a SegFormer-like net (Xie et
al.: overlapping strided patch embeddings, efficient self-attention whose
keys and values come from a strided Conv spatial reduction, Mix-FFN with
a depthwise Conv, an all-MLP decoder); a CRF-as-RNN segmenter (Zheng et
al.: an FCN's unaries refined by 5 unrolled mean-field iterations, a fixed
Gaussian depthwise Conv for the spatial kernel, an appearance kernel over
8 dilated neighbours from the image, a learned compatibility 1x1 Conv);
and a HiFi-GAN-like vocoder generator (Kong et al.: mel frames upsampled
256 times by three ConvTranspose1d, each followed by multi-receptive-field
fusion of dilated Conv1d residual blocks with LeakyReLU).  The first six
are made of small kernels at batch 1 (most a few thousand elements or
fewer, hundreds of kernels); the other six are of ordinary sizes.

To be measured with

    OMP_WAIT_POLICY=PASSIVE /usr/bin/python3 scripts/measure_zoo.py --set blind11 \
        beam_search_gru soft_dtw_templates loopy_bp_grid act_universal \
        rim_recurrent metasgd_adapt darts_supernet partial_conv_inpaint mae_vit \
        segformer_lite crf_rnn_seg hifigan_generator --threads 1 2 --batches 1 4 16

Same table form as export.py's ZOO (ctor, family, inputs, run); exported by
scripts/ort_graphs.py's export() (opset 13, symbolic batch N).
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def _conv_bn_relu(cin, cout, k=3, stride=1, dilation=1):
    """Conv (no bias), BatchNorm, ReLU; padding keeps the size at stride 1."""
    pad = dilation * (k - 1) // 2
    return nn.Sequential(nn.Conv2d(cin, cout, k, stride, pad, dilation=dilation, bias=False),
                         nn.BatchNorm2d(cout), nn.ReLU())


def _gru_update(gi, gh, h):
    """GRU cell from the input and hidden pre-activations, gates (r, z, n)."""
    ir, iz, in_ = gi.chunk(3, dim=-1)
    hr, hz, hn = gh.chunk(3, dim=-1)
    r = torch.sigmoid(ir + hr)
    z = torch.sigmoid(iz + hz)
    n = torch.tanh(in_ + r * hn)
    return n + z * (h - n)


class _Attention(nn.Module):
    """Multi-head self-attention written out (one Linear to q, k, v, the two
    MatMuls, softmax, an output Linear)."""

    def __init__(self, dim, heads):
        super().__init__()
        self.h, self.d = heads, dim // heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):                          # (N, T, D)
        n, t, _ = x.shape
        q, k, v = self.qkv(x).reshape(n, t, 3, self.h, self.d).permute(2, 0, 3, 1, 4)
        a = torch.softmax(torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.d), dim=-1)
        y = torch.matmul(a, v).transpose(1, 2).reshape(n, t, self.h * self.d)
        return self.proj(y)


class _ViTBlock(nn.Module):
    """Pre-LayerNorm transformer block (attention, GELU MLP)."""

    def __init__(self, dim, heads, mlp):
        super().__init__()
        self.n1, self.n2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.att = _Attention(dim, heads)
        self.mlp = nn.Sequential(nn.Linear(dim, mlp), nn.GELU(), nn.Linear(mlp, dim))

    def forward(self, x):
        x = x + self.att(self.n1(x))
        return x + self.mlp(self.n2(x))


# --------------------------------------------------------------------------
# Small kernels at batch 1
# --------------------------------------------------------------------------

class BeamSearchGRU(nn.Module):
    """Beam-search decoding of a GRU decoder, 4 beams over a vocabulary of
    32 for 10 steps.  The source (10 tokens) is embedded with learned
    positions and a Linear + Tanh into a memory; its mean starts the
    decoder state.  Per step: the beams' last tokens embedded (Gather), a
    GRU cell on them and the previous attention context, dot attention over
    the memory (MatMul, softmax, MatMul), LogSoftmax over the vocabulary;
    finished beams (EOS seen) may only repeat EOS at no cost; the beam
    scores plus the log-probabilities flattened over beam x vocabulary,
    TopK 4, the parent beam by a floor Div and the token by the remainder;
    state, context, finished flags, lengths and the token histories
    gathered from the parents (GatherElements).  Returns the histories and
    the length-penalised scores."""

    def __init__(self, vocab=32, emb=32, hidden=64, beams=4, steps=10, src_len=10,
                 bos=0, eos=1):
        super().__init__()
        self.V, self.H, self.B, self.steps, self.bos, self.eos = \
            vocab, hidden, beams, steps, bos, eos
        self.src_emb = nn.Embedding(vocab, emb)
        self.src_pos = nn.Parameter(0.1 * torch.randn(src_len, emb))
        self.mem = nn.Linear(emb, hidden)
        self.tgt_emb = nn.Embedding(vocab, emb)
        self.gi = nn.Linear(emb + hidden, 3 * hidden)
        self.gh = nn.Linear(hidden, 3 * hidden)
        self.out = nn.Sequential(nn.Linear(2 * hidden, hidden), nn.Tanh(),
                                 nn.Linear(hidden, vocab))
        eos_row = torch.full((vocab,), -1e9)
        eos_row[eos] = 0.0
        self.register_buffer("eos_row", eos_row)
        start = torch.full((beams,), -1e9)
        start[0] = 0.0
        self.register_buffer("start", start)

    @staticmethod
    def _pick(x, parent):
        """x (N, B, ...) reordered along the beams by parent (N, B)."""
        idx = parent.reshape(parent.shape + (1,) * (x.dim() - 2)).expand_as(x)
        return torch.gather(x, 1, idx)

    def forward(self, src):                        # (N, 10)
        mem = torch.tanh(self.mem(self.src_emb(src) + self.src_pos))        # (N, S, H)
        n = src.shape[0]
        h = mem.mean(1, keepdim=True).expand(n, self.B, self.H)
        ctx = torch.zeros_like(h)
        score = self.start.expand(n, self.B)
        tok = torch.full_like(src[:, :self.B], self.bos)
        fin = torch.zeros_like(score)
        length = torch.zeros_like(score)
        hist = None
        for _ in range(self.steps):
            x = self.tgt_emb(tok)
            h = _gru_update(self.gi(torch.cat([x, ctx], dim=-1)), self.gh(h), h)
            att = torch.softmax(torch.matmul(h, mem.transpose(1, 2)) / math.sqrt(self.H), dim=-1)
            ctx = torch.matmul(att, mem)
            logp = torch.log_softmax(self.out(torch.cat([h, ctx], dim=-1)), dim=-1)
            f = fin.unsqueeze(-1)
            logp = f * self.eos_row + (1 - f) * logp
            cand = (score.unsqueeze(-1) + logp).flatten(1)                  # (N, B*V)
            score, idx = torch.topk(cand, self.B, dim=-1)
            parent = torch.div(idx, self.V, rounding_mode="floor")
            tok = idx - parent * self.V
            h, ctx = self._pick(h, parent), self._pick(ctx, parent)
            fin, length = self._pick(fin, parent), self._pick(length, parent)
            length = length + (1 - fin)
            fin = torch.maximum(fin, (tok == self.eos).to(fin.dtype))
            step_tok = tok.unsqueeze(-1)
            hist = step_tok if hist is None else \
                torch.cat([self._pick(hist, parent), step_tok], dim=-1)
        penalty = torch.pow((5.0 + length) / 6.0, 0.65)
        return hist, score / penalty


class SoftDTWTemplates(nn.Module):
    """Soft-DTW nearest-template classifier (Cuturi & Blondel, "Soft-DTW"):
    a 12-step sequence embedded by an MLP; 4 learned templates of 10 steps
    in the embedding space; the squared-distance cost matrices (N, 4, 12,
    10) by MatMul; the soft-DTW recursion R(i, j) = D(i, j) + softmin_g(
    R(i-1, j), R(i, j-1), R(i-1, j-1)) unrolled over the 21 anti-diagonals,
    each diagonal's costs gathered from the flattened matrices with fixed
    indices (out-of-range cells read a large pad), the neighbours by Slice
    and Concat shifts, the soft-min written out (Min, Exp, Log).  Returns
    the soft-DTW discrepancies and the class log-probabilities."""

    def __init__(self, feat=16, hidden=24, length=12, tlen=10, templates=4, gamma=0.1,
                 big=1e4):
        super().__init__()
        self.n, self.m, self.gamma, self.big = length, tlen, gamma, big
        self.enc = nn.Sequential(nn.Linear(feat, hidden), nn.Tanh(), nn.Linear(hidden, hidden))
        self.templates = nn.Parameter(0.5 * torch.randn(templates, tlen, hidden))
        self.log_temp = nn.Parameter(torch.zeros(1))
        diags = []
        for k in range(length + tlen - 1):
            diags.append([i * tlen + (k - i) if 0 <= k - i < tlen else length * tlen
                          for i in range(length)])
        self.register_buffer("diag_idx", torch.tensor(diags))

    def _softmin(self, a, b, c):
        lo = torch.minimum(torch.minimum(a, b), c)
        s = (torch.exp((lo - a) / self.gamma) + torch.exp((lo - b) / self.gamma)
             + torch.exp((lo - c) / self.gamma))
        return lo - self.gamma * torch.log(s)

    def _shift(self, r, pad):
        """r[..., i - 1] with pad at i = 0."""
        return torch.cat([pad, r[..., :-1]], dim=-1)

    def forward(self, seq):                        # (N, 12, 16)
        x = self.enc(seq)                                                   # (N, n, H)
        t = self.templates
        d = ((x * x).sum(-1, keepdim=True).unsqueeze(1) + (t * t).sum(-1).unsqueeze(1)
             - 2 * torch.matmul(x.unsqueeze(1), t.transpose(1, 2)))        # (N, K, n, m)
        flat = d.flatten(2)
        flat = torch.cat([flat, torch.full_like(flat[..., :1], self.big)], dim=-1)
        pad = torch.full_like(flat[..., :1], self.big)
        r2 = torch.full_like(flat[..., :self.n], self.big)
        r1 = flat[..., self.diag_idx[0]]
        for k in range(1, self.n + self.m - 1):
            dk = flat[..., self.diag_idx[k]]
            r = dk + self._softmin(self._shift(r1, pad), r1, self._shift(r2, pad))
            r2, r1 = r1, torch.clamp(r, max=self.big)
        dist = r1[..., self.n - 1]                                          # (N, K)
        return dist, torch.log_softmax(-dist * torch.exp(self.log_temp), dim=-1)


class LoopyBPGrid(nn.Module):
    """Loopy belief propagation (sum-product, log domain) on a 6 x 6 grid
    MRF with 5 labels: unary log-potentials from an MLP over each cell's 8
    features; learned horizontal and vertical pairwise log-potentials; four
    message fields (from the left, right, top and bottom neighbour).  Per
    iteration, for each direction: the sender's belief less the message it
    got from the receiver, plus the pairwise table, ReduceLogSumExp over the
    sender's label, normalised, shifted one cell (Slice and Concat with a
    zero border), damped.  6 iterations; returns the marginals and the MAP
    labels (ArgMax)."""

    def __init__(self, side=6, feat=8, labels=5, iters=6, damping=0.5):
        super().__init__()
        self.side, self.L, self.iters, self.damp = side, labels, iters, damping
        self.unary = nn.Sequential(nn.Linear(feat, 32), nn.ReLU(), nn.Linear(32, labels))
        self.pair_h = nn.Parameter(torch.randn(labels, labels))
        self.pair_v = nn.Parameter(torch.randn(labels, labels))

    def _send(self, src, pair):
        """Log-domain message from every cell for each receiver label."""
        m = torch.logsumexp(src.unsqueeze(-1) + pair, dim=-2)
        return m - torch.logsumexp(m, dim=-1, keepdim=True)

    def forward(self, features):                   # (N, 6, 6, 8)
        u = torch.log_softmax(self.unary(features), dim=-1)                # (N, H, W, L)
        z = torch.zeros_like(u)
        from_l, from_r, from_t, from_b = z, z, z, z
        zc, zr = z[:, :, :1], z[:, :1]
        for _ in range(self.iters):
            b = u + from_l + from_r + from_t + from_b
            to_r = self._send(b - from_r, self.pair_h)    # sent rightwards
            to_l = self._send(b - from_l, self.pair_h.t())
            to_b = self._send(b - from_b, self.pair_v)
            to_t = self._send(b - from_t, self.pair_v.t())
            new_l = torch.cat([zc, to_r[:, :, :-1]], dim=2)
            new_r = torch.cat([to_l[:, :, 1:], zc], dim=2)
            new_t = torch.cat([zr, to_b[:, :-1]], dim=1)
            new_b = torch.cat([to_t[:, 1:], zr], dim=1)
            d = self.damp
            from_l = d * from_l + (1 - d) * new_l
            from_r = d * from_r + (1 - d) * new_r
            from_t = d * from_t + (1 - d) * new_t
            from_b = d * from_b + (1 - d) * new_b
        b = u + from_l + from_r + from_t + from_b
        return torch.softmax(b, dim=-1), b.argmax(dim=-1)


class ACTUniversal(nn.Module):
    """Universal Transformer with adaptive computation time (Dehghani et
    al.; Graves' ACT) over 8 tokens: one shared pre-LN layer (2-head
    self-attention, ReLU FFN) applied up to 8 times; before each step the
    sinusoidal position and a step embedding are added; a per-token halting
    probability (Sigmoid of a Linear); the still-running, newly halted and
    remainder bookkeeping by comparisons and Casts; the state averaged with
    the update weights.  Returns class logits from the mean state and the
    per-token ponder cost (updates plus remainders)."""

    def __init__(self, vocab=24, dim=32, heads=2, ff=64, tokens=8, max_steps=8, classes=6,
                 eps=0.01):
        super().__init__()
        self.steps, self.eps = max_steps, eps
        self.emb = nn.Embedding(vocab, dim)
        pos = torch.arange(tokens, dtype=torch.float32).unsqueeze(1)
        freq = torch.exp(torch.arange(0, dim, 2, dtype=torch.float32) * (-math.log(1e4) / dim))
        pe = torch.zeros(tokens, dim)
        pe[:, 0::2], pe[:, 1::2] = torch.sin(pos * freq), torch.cos(pos * freq)
        self.register_buffer("pos", pe)
        self.step_emb = nn.Parameter(0.1 * torch.randn(max_steps, dim))
        self.n1, self.n2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.att = _Attention(dim, heads)
        self.ffn = nn.Sequential(nn.Linear(dim, ff), nn.ReLU(), nn.Linear(ff, dim))
        self.halt = nn.Linear(dim, 1)
        self.cls = nn.Linear(dim, classes)

    def forward(self, tokens):                     # (N, 8)
        s = self.emb(tokens)
        acc = torch.zeros_like(s[..., 0])
        rem, updates = torch.zeros_like(acc), torch.zeros_like(acc)
        out = torch.zeros_like(s)
        for k in range(self.steps):
            s = s + self.pos + self.step_emb[k]
            p = torch.sigmoid(self.halt(s))[..., 0]
            running = (acc < 1.0).to(s.dtype)
            total = acc + p * running
            halted_now = (total > 1 - self.eps).to(s.dtype) * running
            running = (total <= 1 - self.eps).to(s.dtype) * running
            acc = acc + p * running
            rem = rem + halted_now * (1 - acc)
            acc = acc + halted_now * rem
            updates = updates + running + halted_now
            w = (p * running + halted_now * rem).unsqueeze(-1)
            s = s + self.att(self.n1(s))
            s = s + self.ffn(self.n2(s))
            out = s * w + out * (1 - w)
        return self.cls(out.mean(1)), updates + rem


class RIMRecurrent(nn.Module):
    """Recurrent independent mechanisms (Goyal et al.) over 12 steps: four
    GRU modules (hidden 24) with separate weights (batched MatMuls against
    stacked weights); input attention of each module's query to the step's
    input and a null input, the top 2 modules by attention to the real
    input (TopK, a mask by Equal and ReduceSum) take the GRU update, the
    others keep their state; a one-head communication attention between the
    modules, applied to the active ones.  Returns per-step outputs of a
    Linear readout and the final module states."""

    def __init__(self, inp=16, modules_=4, hidden=24, key=16, val=24, active=2, steps=12,
                 out=8):
        super().__init__()
        self.M, self.H, self.k, self.steps, self.key = modules_, hidden, active, steps, key
        self.in_k = nn.Linear(inp, key, bias=False)
        self.in_v = nn.Linear(inp, val, bias=False)
        self.q = nn.Parameter(0.2 * torch.randn(modules_, hidden, key))
        self.wi = nn.Parameter(0.2 * torch.randn(modules_, val, 3 * hidden))
        self.wh = nn.Parameter(0.2 * torch.randn(modules_, hidden, 3 * hidden))
        self.bi = nn.Parameter(torch.zeros(modules_, 1, 3 * hidden))
        self.bh = nn.Parameter(torch.zeros(modules_, 1, 3 * hidden))
        self.c_qkv = nn.Linear(hidden, 3 * key, bias=False)
        self.c_out = nn.Linear(key, hidden)
        self.readout = nn.Linear(modules_ * hidden, out)
        self.register_buffer("mods", torch.arange(modules_))

    def forward(self, x):                          # (N, 12, 16)
        n = x.shape[0]
        h = x.new_zeros(n, self.M, self.H)
        outs = []
        for t in range(self.steps):
            xt = torch.stack([x[:, t], torch.zeros_like(x[:, t])], dim=1)   # (N, 2, inp)
            k, v = self.in_k(xt), self.in_v(xt)
            q = torch.matmul(h.unsqueeze(2), self.q)[:, :, 0]                # (N, M, key)
            a = torch.softmax(torch.matmul(q, k.transpose(1, 2)) / math.sqrt(self.key), dim=-1)
            _, top = torch.topk(a[..., 0], self.k, dim=-1)
            mask = (top.unsqueeze(-1) == self.mods).to(x.dtype).sum(1).unsqueeze(-1)
            read = torch.matmul(a, v)                                        # (N, M, val)
            gi = torch.matmul(read.unsqueeze(2), self.wi)[:, :, 0] + self.bi[:, 0]
            gh = torch.matmul(h.unsqueeze(2), self.wh)[:, :, 0] + self.bh[:, 0]
            hn = _gru_update(gi, gh, h)
            cq, ck, cv = self.c_qkv(hn).chunk(3, dim=-1)
            c = torch.softmax(torch.matmul(cq, ck.transpose(1, 2)) / math.sqrt(self.key), dim=-1)
            hn = hn + self.c_out(torch.matmul(c, cv))
            h = mask * hn + (1 - mask) * h
            outs.append(self.readout(h.flatten(1)))
        return torch.stack(outs, dim=1), h


class MetaSGDAdapt(nn.Module):
    """Meta-SGD inner loop (Li et al., after Finn et al.'s MAML): a
    regression MLP (4 -> 32 -> 32 -> 1, ReLU) adapted to each sample's
    support set of 10 points by 5 steps of gradient descent written out by
    hand (the MSE gradient, MatMuls with transposed activations and
    weights, ReLU derivatives by Greater and Cast, ReduceSum for the
    biases), each weight with its own learned learning rate (Exp of a
    parameter); once adapted the weights are per sample (batched MatMuls).
    Returns the adapted net's predictions on the 16 query points and the
    support loss before each step."""

    def __init__(self, inp=4, hidden=32, steps=5):
        super().__init__()
        self.steps = steps
        shapes = [(inp, hidden), (1, hidden), (hidden, hidden), (1, hidden), (hidden, 1), (1, 1)]
        self.w = nn.ParameterList([nn.Parameter(torch.randn(*s) / math.sqrt(s[0]))
                                   for s in shapes])
        self.log_lr = nn.ParameterList([nn.Parameter(torch.full(s, -2.5) + 0.1 * torch.randn(*s))
                                        for s in shapes])

    @staticmethod
    def _forward(x, w):
        z1 = torch.matmul(x, w[0]) + w[1]
        a1 = torch.relu(z1)
        z2 = torch.matmul(a1, w[2]) + w[3]
        a2 = torch.relu(z2)
        return torch.matmul(a2, w[4]) + w[5], (z1, a1, z2, a2)

    def forward(self, sx, sy, qx):                 # (N, 10, 4), (N, 10, 1), (N, 16, 4)
        w = list(self.w)
        lrs = [torch.exp(p) for p in self.log_lr]
        count = sx.shape[1]
        losses = []
        for _ in range(self.steps):
            y, (z1, a1, z2, a2) = self._forward(sx, w)
            err = y - sy
            losses.append((err * err).mean((1, 2)))
            dy = err * (2.0 / count)
            g5, g6 = torch.matmul(a2.transpose(1, 2), dy), dy.sum(1, keepdim=True)
            dz2 = torch.matmul(dy, w[4].transpose(-1, -2)) * (z2 > 0).to(dy.dtype)
            g3, g4 = torch.matmul(a1.transpose(1, 2), dz2), dz2.sum(1, keepdim=True)
            dz1 = torch.matmul(dz2, w[2].transpose(-1, -2)) * (z1 > 0).to(dy.dtype)
            g1, g2 = torch.matmul(sx.transpose(1, 2), dz1), dz1.sum(1, keepdim=True)
            w = [p - lr * g for p, lr, g in zip(w, lrs, (g1, g2, g3, g4, g5, g6))]
        pred, _ = self._forward(qx, w)
        return pred, torch.stack(losses, dim=1)


# --------------------------------------------------------------------------
# Ordinary sizes
# --------------------------------------------------------------------------

class _DartsSep(nn.Sequential):
    """DARTS separable conv: (ReLU, depthwise k, pointwise, BN) twice, the
    first depthwise with the edge's stride."""

    def __init__(self, c, k, stride):
        layers = []
        for s in (stride, 1):
            layers += [nn.ReLU(), nn.Conv2d(c, c, k, s, k // 2, groups=c, bias=False),
                       nn.Conv2d(c, c, 1, bias=False), nn.BatchNorm2d(c)]
        super().__init__(*layers)


class _DartsDil(nn.Sequential):
    """DARTS dilated conv: ReLU, depthwise k at dilation 2, pointwise, BN."""

    def __init__(self, c, k, stride):
        super().__init__(nn.ReLU(), nn.Conv2d(c, c, k, stride, k - 1, dilation=2, groups=c,
                                              bias=False),
                         nn.Conv2d(c, c, 1, bias=False), nn.BatchNorm2d(c))


class _FactorizedReduce(nn.Module):
    """Stride-2 identity of DARTS: two 1x1 stride-2 convs, one on the input
    shifted by a pixel, concatenated, BN."""

    def __init__(self, cin, cout):
        super().__init__()
        self.a = nn.Conv2d(cin, cout // 2, 1, 2, bias=False)
        self.b = nn.Conv2d(cin, cout - cout // 2, 1, 2, bias=False)
        self.bn = nn.BatchNorm2d(cout)

    def forward(self, x):
        x = F.relu(x)
        return self.bn(torch.cat([self.a(x), self.b(x[:, :, 1:, 1:])], dim=1))


class _MixedEdge(nn.Module):
    """One supernet edge: every candidate operation, summed with weights."""

    def __init__(self, c, stride):
        super().__init__()
        skip = nn.Identity() if stride == 1 else _FactorizedReduce(c, c)
        self.ops = nn.ModuleList([
            _DartsSep(c, 3, stride), _DartsSep(c, 5, stride), _DartsDil(c, 3, stride),
            _DartsDil(c, 5, stride),
            nn.Sequential(nn.MaxPool2d(3, stride, 1), nn.BatchNorm2d(c, affine=False)),
            nn.Sequential(nn.AvgPool2d(3, stride, 1, count_include_pad=False),
                          nn.BatchNorm2d(c, affine=False)),
            skip])

    def forward(self, x, w):
        y = w[0] * self.ops[0](x)
        for i in range(1, len(self.ops)):
            y = y + w[i] * self.ops[i](x)
        return y


class _DartsCell(nn.Module):
    def __init__(self, c_pp, c_p, c, reduction, reduction_prev, nodes=3):
        super().__init__()
        self.nodes = nodes
        self.pre0 = _FactorizedReduce(c_pp, c) if reduction_prev else \
            nn.Sequential(nn.ReLU(), nn.Conv2d(c_pp, c, 1, bias=False), nn.BatchNorm2d(c))
        self.pre1 = nn.Sequential(nn.ReLU(), nn.Conv2d(c_p, c, 1, bias=False), nn.BatchNorm2d(c))
        self.edges = nn.ModuleList()
        for i in range(nodes):
            for j in range(2 + i):
                self.edges.append(_MixedEdge(c, 2 if reduction and j < 2 else 1))

    def forward(self, s0, s1, weights):
        states = [self.pre0(s0), self.pre1(s1)]
        e = 0
        for i in range(self.nodes):
            y = 0
            for j, s in enumerate(states):
                y = y + self.edges[e](s, weights[e])
                e += 1
            states.append(y)
        return torch.cat(states[2:], dim=1)


class DartsSupernet(nn.Module):
    """DARTS supernet (Liu, Simonyan & Yang, "DARTS: Differentiable
    Architecture Search") on 64 x 64 images: a stride-2 stem Conv + BN to
    48 channels, then a normal cell (16 channels, 32 x 32), a reduction
    cell (32, 16 x 16) and a normal cell; each cell has 3 intermediate
    nodes fed by every earlier state through a mixed edge, the softmax of
    the architecture weights times seven candidates (3x3 and 5x5 separable
    convs, 3x3 and 5x5 dilated convs, max and average pooling, identity or
    factorized reduce); the cell output concatenates the nodes.  Global
    average pooling and a Linear classifier."""

    def __init__(self, c=16, classes=10, nodes=3):
        super().__init__()
        edges = sum(2 + i for i in range(nodes))
        self.alpha_normal = nn.Parameter(1e-3 * torch.randn(edges, 7))
        self.alpha_reduce = nn.Parameter(1e-3 * torch.randn(edges, 7))
        self.stem = nn.Sequential(nn.Conv2d(3, 3 * c, 3, 2, 1, bias=False), nn.BatchNorm2d(3 * c))
        self.cells = nn.ModuleList([
            _DartsCell(3 * c, 3 * c, c, False, False, nodes),
            _DartsCell(3 * c, nodes * c, 2 * c, True, False, nodes),
            _DartsCell(nodes * c, nodes * 2 * c, 2 * c, False, True, nodes)])
        self.reductions = [False, True, False]
        self.cls = nn.Linear(nodes * 2 * c, classes)

    def forward(self, x):                          # (N, 3, 64, 64)
        wn = torch.softmax(self.alpha_normal, dim=-1)
        wr = torch.softmax(self.alpha_reduce, dim=-1)
        s0 = s1 = self.stem(x)
        for cell, red in zip(self.cells, self.reductions):
            s0, s1 = s1, cell(s0, s1, wr if red else wn)
        return self.cls(s1.mean((2, 3)))


class _PartialConv(nn.Module):
    """Partial convolution: Conv of the masked features renormalised by the
    window's coverage of valid input (a Conv of the per-part masks with a
    ones kernel weighted by each part's share of the channels), the mask
    updated to 'any valid input' by Clip; optional BN and activation."""

    def __init__(self, parts, cout, k, stride=1, bn=True, act="relu"):
        super().__init__()
        self.k, self.stride = k, stride
        cin = sum(parts)
        self.conv = nn.Conv2d(cin, cout, k, stride, k // 2, bias=False)
        share = torch.tensor(parts, dtype=torch.float32) / cin
        self.register_buffer("ones", share.reshape(1, -1, 1, 1).expand(1, len(parts), k, k)
                             .contiguous())
        self.bias = nn.Parameter(torch.zeros(1, cout, 1, 1))
        self.bn = nn.BatchNorm2d(cout) if bn else None
        self.act = act

    def forward(self, xs, ms):
        x = torch.cat([a * m for a, m in zip(xs, ms)], dim=1)
        m = torch.cat(ms, dim=1)
        cover = F.conv2d(m, self.ones, stride=self.stride, padding=self.k // 2)
        new_m = torch.clamp(cover, 0.0, 1.0)
        y = self.conv(x) * (self.k * self.k / (cover + 1e-6)) * new_m + self.bias * new_m
        if self.bn is not None:
            y = self.bn(y)
        if self.act == "relu":
            y = F.relu(y)
        elif self.act == "lrelu":
            y = F.leaky_relu(y, 0.2)
        return y, new_m


class PartialConvInpaint(nn.Module):
    """Partial-convolution inpainting U-Net (Liu et al., "Image Inpainting
    for Irregular Holes Using Partial Convolutions") on 128 x 128 images
    with a binary hole mask: four stride-2 partial-conv encoder levels
    (7x7, 5x5, 3x3, 3x3; 32, 64, 128, 128 channels), a decoder of nearest
    upsampling (features and masks), concatenation with the skip and its
    mask, partial convs with LeakyReLU, down to an RGB partial conv at full
    size; the known pixels composited back.  Returns the composite, the raw
    prediction and the final mask."""

    def __init__(self, w=(32, 64, 128, 128)):
        super().__init__()
        self.e1 = _PartialConv([3], w[0], 7, 2, bn=False)
        self.e2 = _PartialConv([w[0]], w[1], 5, 2)
        self.e3 = _PartialConv([w[1]], w[2], 3, 2)
        self.e4 = _PartialConv([w[2]], w[3], 3, 2)
        self.d3 = _PartialConv([w[3], w[2]], w[2], 3, act="lrelu")
        self.d2 = _PartialConv([w[2], w[1]], w[1], 3, act="lrelu")
        self.d1 = _PartialConv([w[1], w[0]], w[0], 3, act="lrelu")
        self.d0 = _PartialConv([w[0], 3], 3, 3, bn=False, act=None)

    @staticmethod
    def _up(x):
        return F.interpolate(x, scale_factor=2.0, mode="nearest")

    def forward(self, image, mask):                # (N, 3, 128, 128), (N, 1, 128, 128) 0/1
        m0 = mask.to(image.dtype)
        x1, m1 = self.e1([image], [m0])
        x2, m2 = self.e2([x1], [m1])
        x3, m3 = self.e3([x2], [m2])
        x4, m4 = self.e4([x3], [m3])
        y, m = self.d3([self._up(x4), x3], [self._up(m4), m3])
        y, m = self.d2([self._up(y), x2], [self._up(m), m2])
        y, m = self.d1([self._up(y), x1], [self._up(m), m1])
        y, m = self.d0([self._up(y), image], [self._up(m), m0])
        return m0 * image + (1 - m0) * y, y, m


class MAEViT(nn.Module):
    """Masked autoencoder (He et al., "Masked Autoencoders Are Scalable
    Vision Learners") on 128 x 128 images in 8 x 8 patches (256): the
    patch embedding (a strided Conv) plus fixed 2-D sine-cosine positions;
    the shuffle by an ArgSort of a per-patch noise input and its inverse by
    a second ArgSort; the first 64 patches kept (GatherElements) with a
    class token through 4 encoder blocks (192 wide, 3 heads); a Linear to
    the 128-wide decoder, mask tokens appended and unshuffled
    (GatherElements), 2 decoder blocks (4 heads), a Linear to the 192 pixel
    values of each patch; the per-patch-normalised pixel MSE averaged over
    the masked patches.  Returns the predictions, the loss and the mask."""

    def __init__(self, img=128, patch=8, dim=192, heads=3, depth=4, ddim=128, dheads=4,
                 ddepth=2, keep=0.25):
        super().__init__()
        self.p = patch
        g = img // patch
        self.T, self.keep = g * g, int(g * g * keep)
        self.embed = nn.Conv2d(3, dim, patch, patch)
        self.cls = nn.Parameter(0.02 * torch.randn(1, 1, dim))
        self.register_buffer("pos", self._sincos(g, dim))
        self.register_buffer("dpos", self._sincos(g, ddim))
        self.enc = nn.Sequential(*[_ViTBlock(dim, heads, 2 * dim) for _ in range(depth)])
        self.enc_norm = nn.LayerNorm(dim)
        self.to_dec = nn.Linear(dim, ddim)
        self.mask_token = nn.Parameter(0.02 * torch.randn(1, 1, ddim))
        self.dec = nn.Sequential(*[_ViTBlock(ddim, dheads, 2 * ddim) for _ in range(ddepth)])
        self.dec_norm = nn.LayerNorm(ddim)
        self.pred = nn.Linear(ddim, patch * patch * 3)

    @staticmethod
    def _sincos(g, dim):
        ys, xs = torch.meshgrid(torch.arange(g, dtype=torch.float32),
                                torch.arange(g, dtype=torch.float32), indexing="ij")
        q = dim // 4
        omega = 1.0 / (1e4 ** (torch.arange(q, dtype=torch.float32) / q))
        parts = []
        for c in (xs.reshape(-1, 1), ys.reshape(-1, 1)):
            parts += [torch.sin(c * omega), torch.cos(c * omega)]
        return torch.cat(parts, dim=1).unsqueeze(0)                        # (1, T, dim)

    def forward(self, images, noise):              # (N, 3, 128, 128), (N, 256)
        n = images.shape[0]
        x = self.embed(images).flatten(2).transpose(1, 2) + self.pos       # (N, T, D)
        shuffle = torch.argsort(noise, dim=1)
        restore = torch.argsort(shuffle, dim=1)
        kept = shuffle[:, :self.keep]
        x = torch.gather(x, 1, kept.unsqueeze(-1).expand(-1, -1, x.shape[-1]))
        x = torch.cat([self.cls.expand(n, -1, -1), x], dim=1)
        x = self.enc_norm(self.enc(x))
        y = self.to_dec(x)
        masked = self.mask_token.expand(n, self.T - self.keep, -1)
        body = torch.cat([y[:, 1:], masked], dim=1)
        body = torch.gather(body, 1, restore.unsqueeze(-1).expand(-1, -1, y.shape[-1]))
        y = torch.cat([y[:, :1], body + self.dpos], dim=1)
        pred = self.pred(self.dec_norm(self.dec(y)))[:, 1:]                # (N, T, p*p*3)
        bits = torch.cat([torch.zeros_like(noise[:, :self.keep]),
                          torch.ones_like(noise[:, self.keep:])], dim=1)
        mask = torch.gather(bits, 1, restore)
        p, g = self.p, images.shape[2] // self.p
        target = images.reshape(n, 3, g, p, g, p).permute(0, 2, 4, 3, 5, 1).reshape(n, g * g, -1)
        mu = target.mean(-1, keepdim=True)
        var = ((target - mu) ** 2).mean(-1, keepdim=True)
        target = (target - mu) / torch.sqrt(var + 1e-6)
        err = ((pred - target) ** 2).mean(-1)
        loss = (err * mask).sum(1) / mask.sum(1)
        return pred, loss, mask


class _SRAttention(nn.Module):
    """Efficient self-attention: keys and values from the tokens reduced by
    a strided Conv (ratio r) and LayerNorm."""

    def __init__(self, dim, heads, r):
        super().__init__()
        self.h, self.d, self.r = heads, dim // heads, r
        self.q = nn.Linear(dim, dim)
        self.kv = nn.Linear(dim, 2 * dim)
        self.proj = nn.Linear(dim, dim)
        if r > 1:
            self.sr = nn.Conv2d(dim, dim, r, r)
            self.norm = nn.LayerNorm(dim)

    def forward(self, x, hh, ww):                  # (N, T, D)
        n, t, c = x.shape
        q = self.q(x).reshape(n, t, self.h, self.d).transpose(1, 2)
        if self.r > 1:
            x = self.sr(x.transpose(1, 2).reshape(n, c, hh, ww)).flatten(2).transpose(1, 2)
            x = self.norm(x)
        k, v = self.kv(x).reshape(n, -1, 2, self.h, self.d).permute(2, 0, 3, 1, 4)
        a = torch.softmax(torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.d), dim=-1)
        return self.proj(torch.matmul(a, v).transpose(1, 2).reshape(n, t, c))


class _MixBlock(nn.Module):
    """SegFormer block: LN, efficient attention; LN, Mix-FFN (Linear,
    depthwise 3x3 Conv on the token grid, GELU, Linear)."""

    def __init__(self, dim, heads, r, expand=4):
        super().__init__()
        self.n1, self.n2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.att = _SRAttention(dim, heads, r)
        self.fc1 = nn.Linear(dim, expand * dim)
        self.dw = nn.Conv2d(expand * dim, expand * dim, 3, 1, 1, groups=expand * dim)
        self.fc2 = nn.Linear(expand * dim, dim)

    def forward(self, x, hh, ww):
        x = x + self.att(self.n1(x), hh, ww)
        y = self.fc1(self.n2(x))
        n, t, c = y.shape
        y = self.dw(y.transpose(1, 2).reshape(n, c, hh, ww)).flatten(2).transpose(1, 2)
        return x + self.fc2(F.gelu(y))


class SegFormerLite(nn.Module):
    """SegFormer-like semantic segmentation (Xie et al.) on 128 x 128
    images: a Mix Transformer encoder of four stages (overlapping patch
    embeddings: 7x7 stride-4 then 3x3 stride-2 Convs, each with LayerNorm;
    widths 32, 64, 128, 160; heads 1, 2, 4, 5; spatial-reduction ratios 8,
    4, 2, 1; 1, 2, 2, 1 blocks; a LayerNorm after each stage) and the
    all-MLP decoder (each stage's features by a Linear to 96, bilinearly
    Resized to stride 4, concatenated, a 1x1 Conv + BN + ReLU fusion, a 1x1
    Conv to 8 classes)."""

    def __init__(self, dims=(32, 64, 128, 160), heads=(1, 2, 4, 5), ratios=(8, 4, 2, 1),
                 depths=(1, 2, 2, 1), dec=96, classes=8):
        super().__init__()
        self.embeds, self.stages, self.norms = nn.ModuleList(), nn.ModuleList(), nn.ModuleList()
        cin = 3
        for i, d in enumerate(dims):
            k, s = (7, 4) if i == 0 else (3, 2)
            self.embeds.append(nn.ModuleList([nn.Conv2d(cin, d, k, s, k // 2), nn.LayerNorm(d)]))
            self.stages.append(nn.ModuleList([_MixBlock(d, heads[i], ratios[i])
                                              for _ in range(depths[i])]))
            self.norms.append(nn.LayerNorm(d))
            cin = d
        self.lin = nn.ModuleList([nn.Linear(d, dec) for d in dims])
        self.fuse = _conv_bn_relu(4 * dec, dec, 1)
        self.cls = nn.Conv2d(dec, classes, 1)

    def forward(self, x):                          # (N, 3, 128, 128)
        feats = []
        for (conv, ln), blocks, norm, lin in zip(self.embeds, self.stages, self.norms, self.lin):
            x = conv(x)
            n, c, hh, ww = x.shape
            t = ln(x.flatten(2).transpose(1, 2))
            for b in blocks:
                t = b(t, hh, ww)
            t = norm(t)
            x = t.transpose(1, 2).reshape(n, c, hh, ww)
            f = lin(t).transpose(1, 2).reshape(n, -1, hh, ww)
            feats.append(f)
        size = feats[0].shape[2:]
        ups = [feats[0]] + [F.interpolate(f, size=size, mode="bilinear", align_corners=False)
                            for f in feats[1:]]
        return self.cls(self.fuse(torch.cat(ups[::-1], dim=1)))


class CRFRNNSeg(nn.Module):
    """CRF-as-RNN segmentation (Zheng et al., "Conditional Random Fields as
    Recurrent Neural Networks") on 128 x 128 images: an FCN (stride-2 and
    stride-4 Conv + BN + ReLU stages, two dilated Convs, a bilinear
    upsampling and skip concatenation) gives 6-class unaries at 64 x 64;
    5 mean-field iterations: Q by softmax, the spatial message by a fixed
    5x5 Gaussian depthwise Conv, the appearance message as the sum over 8
    neighbours at distance 2 (zero-padded Q sliced, times exp(-|I_p -
    I_q|^2 / 2 theta^2) of the 2x-average-pooled image, edge-padded), the
    compatibility transform a learned 1x1 Conv over both messages, Q's
    logits the unaries less it.  Returns the logits bilinearly Resized to
    full size and the final Q."""

    def __init__(self, classes=6, iters=5, theta=0.3, sigma=1.5):
        super().__init__()
        self.C, self.iters = classes, iters
        self.s2 = nn.Sequential(_conv_bn_relu(3, 32, 3, 2), _conv_bn_relu(32, 32))
        self.s4 = nn.Sequential(_conv_bn_relu(32, 64, 3, 2), _conv_bn_relu(64, 64, dilation=2),
                                _conv_bn_relu(64, 64, dilation=4))
        self.head = nn.Sequential(_conv_bn_relu(96, 64), nn.Conv2d(64, classes, 1))
        r = torch.arange(5, dtype=torch.float32) - 2
        g = torch.exp(-(r.unsqueeze(0) ** 2 + r.unsqueeze(1) ** 2) / (2 * sigma * sigma))
        g[2, 2] = 0.0
        self.register_buffer("gauss", (g / g.sum()).expand(classes, 1, 5, 5).contiguous())
        self.offsets = [(dy, dx) for dy in (-2, 0, 2) for dx in (-2, 0, 2) if dy or dx]
        self.inv_theta = 1.0 / (2 * theta * theta)
        self.compat = nn.Conv2d(2 * classes, classes, 1, bias=False)

    def forward(self, image):                      # (N, 3, 128, 128)
        f2 = self.s2(image)
        f4 = self.s4(f2)
        up = F.interpolate(f4, scale_factor=2.0, mode="bilinear", align_corners=False)
        u = self.head(torch.cat([up, f2], dim=1))                          # (N, C, 64, 64)
        h, w = u.shape[2], u.shape[3]
        guide = F.avg_pool2d(image, 2)
        gp = F.pad(guide, (2, 2, 2, 2), mode="replicate")
        aff = []
        for dy, dx in self.offsets:
            d = guide - gp[:, :, 2 + dy:2 + dy + h, 2 + dx:2 + dx + w]
            aff.append(torch.exp(-(d * d).sum(1, keepdim=True) * self.inv_theta))
        logits = u
        for _ in range(self.iters):
            q = torch.softmax(logits, dim=1)
            spatial = F.conv2d(q, self.gauss, padding=2, groups=self.C)
            qp = F.pad(q, (2, 2, 2, 2))
            app = 0
            for (dy, dx), a in zip(self.offsets, aff):
                app = app + a * qp[:, :, 2 + dy:2 + dy + h, 2 + dx:2 + dx + w]
            logits = u - self.compat(torch.cat([spatial, app], dim=1))
        full = F.interpolate(logits, size=image.shape[2:], mode="bilinear", align_corners=False)
        return full, torch.softmax(logits, dim=1)


class _MRF(nn.Module):
    """Multi-receptive-field fusion (HiFi-GAN V3 residual blocks): for each
    kernel size, dilations 1 and 3 of (LeakyReLU, Conv1d) with residuals;
    the blocks averaged."""

    def __init__(self, c, kernels=(3, 5, 7), dilations=(1, 3)):
        super().__init__()
        self.blocks = nn.ModuleList([
            nn.ModuleList([nn.Conv1d(c, c, k, 1, d * (k - 1) // 2, dilation=d)
                           for d in dilations]) for k in kernels])

    def forward(self, x):
        total = 0
        for convs in self.blocks:
            y = x
            for conv in convs:
                y = y + conv(F.leaky_relu(y, 0.1))
            total = total + y
        return total / len(self.blocks)


class HiFiGANGenerator(nn.Module):
    """HiFi-GAN-like vocoder generator (Kong, Kim & Bae; the V3 residual
    blocks) from 32 frames of an 80-band mel spectrogram to 8192 samples: a
    7-tap Conv1d to 128 channels; three stages of LeakyReLU, a
    ConvTranspose1d upsampling 8, 8 and 4 times (to 64, 32, 16 channels)
    and multi-receptive-field fusion; LeakyReLU, a 7-tap Conv1d to one
    channel, Tanh."""

    def __init__(self, mels=80, c=128, rates=(8, 8, 4), kernels=(16, 16, 8)):
        super().__init__()
        self.pre = nn.Conv1d(mels, c, 7, 1, 3)
        self.ups, self.mrfs = nn.ModuleList(), nn.ModuleList()
        for r, k in zip(rates, kernels):
            self.ups.append(nn.ConvTranspose1d(c, c // 2, k, r, (k - r) // 2))
            c //= 2
            self.mrfs.append(_MRF(c))
        self.post = nn.Conv1d(c, 1, 7, 1, 3)

    def forward(self, mel):                        # (N, 80, 32)
        x = self.pre(mel)
        for up, mrf in zip(self.ups, self.mrfs):
            x = mrf(up(F.leaky_relu(x, 0.1)))
        return torch.tanh(self.post(F.leaky_relu(x, 0.01)))


BLIND11 = {
    "beam_search_gru": dict(ctor=BeamSearchGRU, family="beam-search-decoding",
                            inputs=[("source", ("N", 10), "int64", 32)]),
    "soft_dtw_templates": dict(ctor=SoftDTWTemplates, family="soft-dtw-alignment",
                               inputs=[("sequence", ("N", 12, 16), "float32", None)]),
    "loopy_bp_grid": dict(ctor=LoopyBPGrid, family="loopy-belief-propagation",
                          inputs=[("features", ("N", 6, 6, 8), "float32", None)]),
    "act_universal": dict(ctor=ACTUniversal, family="adaptive-computation-time",
                          inputs=[("tokens", ("N", 8), "int64", 24)]),
    "rim_recurrent": dict(ctor=RIMRecurrent, family="recurrent-independent-mechanisms",
                          inputs=[("inputs", ("N", 12, 16), "float32", None)]),
    "metasgd_adapt": dict(ctor=MetaSGDAdapt, family="meta-learned-inner-loop",
                          inputs=[("support_x", ("N", 10, 4), "float32", None),
                                  ("support_y", ("N", 10, 1), "float32", None),
                                  ("query_x", ("N", 16, 4), "float32", None)]),
    "darts_supernet": dict(ctor=DartsSupernet, family="differentiable-architecture-search",
                           inputs=[("input", ("N", 3, 64, 64), "float32", None)]),
    "partial_conv_inpaint": dict(ctor=PartialConvInpaint, family="partial-convolution-inpainting",
                                 inputs=[("image", ("N", 3, 128, 128), "float32", None),
                                         ("mask", ("N", 1, 128, 128), "int64", 2)]),
    "mae_vit": dict(ctor=MAEViT, family="masked-autoencoder",
                    inputs=[("images", ("N", 3, 128, 128), "float32", None),
                            ("noise", ("N", 256), "float32", None)]),
    "segformer_lite": dict(ctor=SegFormerLite, family="spatial-reduction-attention",
                           inputs=[("input", ("N", 3, 128, 128), "float32", None)]),
    "crf_rnn_seg": dict(ctor=CRFRNNSeg, family="mean-field-crf",
                        inputs=[("input", ("N", 3, 128, 128), "float32", None)]),
    "hifigan_generator": dict(ctor=HiFiGANGenerator, family="gan-vocoder",
                              inputs=[("mel", ("N", 80, 32), "float32", None)]),
}
