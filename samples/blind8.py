r"""BLIND8: the eighth blind set, written on 2026-12-05 by a helper session
before any of it was measured.  It is to be measured before any further
change is scored, and scored only once, at the end, with the code as it
then stands (bench/zoo_accuracy.py --set blind8).  None of its twelve
families occurs in another set (ZOO, BLIND, BLIND2 ... BLIND7, the
reference models), so no plan rule, feature, fit or calibration was made
with any of them in view, and none of them was run through onnxcost
predict before being measured.

The families: a batch-1 style decoder step whose key / value cache comes
in as inputs and goes out grown by one position; a TabNet-like tabular
model (sequential attentive feature masks by sparsemax, GLU feature
blocks); a neural Turing machine (LSTM controller, content and location
addressing of an external memory, erase / add writes) unrolled over a
short sequence; a BiLSTM-CRF tagger with the CRF's forward algorithm and
Viterbi decoding unrolled; an RWKV-like language model (token shift, the
WKV recurrence unrolled step by step); a neural decision forest (soft
routing through binary trees to leaf distributions); a QuartzNet-like
speech model (time-channel separable Conv1d blocks, CTC log-probabilities);
a NeRF-like renderer (positional encoding, a point MLP, volume rendering by
cumulative sums along each ray); a SiamFC-like tracker (a shared backbone
on exemplar and search images, their cross-correlation); a mixture-of-
depths transformer (a router picks the top tokens by TopK, only those go
through the block, the results are scattered back); an early-exit CNN
(three classifier exits, the first confident one chosen by entropy); and a
relation network (an MLP over every pair of CNN feature cells with a
question, summed).  The first six are made of small kernels at batch 1
(most a few thousand elements or fewer); the other six are of ordinary
sizes.

To be measured with

    OMP_WAIT_POLICY=PASSIVE /usr/bin/python3 scripts/measure_zoo.py --set blind8 \
        kv_decoder_step tabnet_lite ntm_copy bilstm_crf rwkv_like neural_forest \
        quartznet_ctc nerf_render siamfc_tracker mod_transformer early_exit_cnn \
        relation_net --threads 1 2 --batches 1 4 16

Same table form as export.py's ZOO (ctor, family, inputs, run); exported by
scripts/ort_graphs.py's export() (opset 13, symbolic batch N).
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def _bn_act(cin, cout, k=3, s=1, groups=1, act=True):
    layers = [nn.Conv2d(cin, cout, k, s, k // 2, groups=groups, bias=False),
              nn.BatchNorm2d(cout)]
    if act:
        layers.append(nn.ReLU())
    return nn.Sequential(*layers)


class _Basic(nn.Module):
    """A ResNet basic block (two 3x3 Conv + BatchNorm, projection skip)."""

    def __init__(self, cin, cout, s):
        super().__init__()
        self.c1 = _bn_act(cin, cout, 3, s)
        self.c2 = _bn_act(cout, cout, 3, 1, act=False)
        self.short = nn.Identity() if (s == 1 and cin == cout) else \
            _bn_act(cin, cout, 1, s, act=False)

    def forward(self, x):
        return F.relu(self.c2(self.c1(x)) + self.short(x))


class KVDecoderStep(nn.Module):
    """One incremental step of a GPT-like decoder: a single new token, the
    key / value cache of the 63 earlier positions fed as inputs (one
    tensor each, layers x heads x positions x head dim), the new key and
    value Concat-ed onto it, the one query attending over all 64
    positions, pre-LayerNorm layers with a GELU MLP, the new token's
    position embedding the row at the cache length; returns the next-token
    logits and the grown caches."""

    class Layer(nn.Module):
        def __init__(self, d, heads, ff):
            super().__init__()
            self.h, self.dh = heads, d // heads
            self.n1 = nn.LayerNorm(d)
            self.qkv = nn.Linear(d, 3 * d)
            self.o = nn.Linear(d, d)
            self.n2 = nn.LayerNorm(d)
            self.ff = nn.Sequential(nn.Linear(d, ff), nn.GELU(), nn.Linear(ff, d))

        def forward(self, x, pk, pv):              # x (N, 1, d), pk (N, H, P, dh)
            q, k, v = self.qkv(self.n1(x)).reshape(-1, 1, 3, self.h, self.dh) \
                .permute(2, 0, 3, 1, 4).unbind(0)                     # (N, H, 1, dh)
            k = torch.cat([pk, k], dim=2)
            v = torch.cat([pv, v], dim=2)
            a = torch.softmax(torch.matmul(q, k.transpose(2, 3)) / math.sqrt(self.dh), dim=-1)
            y = torch.matmul(a, v).transpose(1, 2).reshape(-1, 1, self.h * self.dh)
            x = x + self.o(y)
            return x + self.ff(self.n2(x)), k, v

    def __init__(self, vocab=4000, d=128, heads=4, depth=4, ff=512, max_pos=256, past=63):
        super().__init__()
        self.past = past
        self.emb = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(max_pos, d)
        self.layers = nn.ModuleList(KVDecoderStep.Layer(d, heads, ff) for _ in range(depth))
        self.norm = nn.LayerNorm(d)
        self.head = nn.Linear(d, vocab, bias=False)

    def forward(self, token, past_keys, past_values):   # (N, 1), (N, 4, 4, 63, 32) x 2
        x = self.emb(token) + self.pos.weight[self.past:self.past + 1]
        keys, values = [], []
        for i, layer in enumerate(self.layers):
            x, k, v = layer(x, past_keys[:, i], past_values[:, i])
            keys.append(k)
            values.append(v)
        logits = self.head(self.norm(x))[:, 0]
        return logits, torch.stack(keys, dim=1), torch.stack(values, dim=1)


def _sparsemax(z):
    """Sparsemax (Martins & Astudillo) over the last dim, by a full TopK
    sort, CumSum and the support size."""
    n = z.shape[-1]
    zs, _ = torch.topk(z, n, dim=-1)
    k = torch.arange(1, n + 1, dtype=z.dtype)
    cs = torch.cumsum(zs, dim=-1)
    support = ((1 + k * zs) > cs).to(z.dtype)
    kz = support.sum(-1, keepdim=True)
    tau = ((zs * support).sum(-1, keepdim=True) - 1) / kz
    return torch.clamp(z - tau, min=0)


class TabNetLite(nn.Module):
    """TabNet (Arik & Pfister) on 48 numeric features: an input BatchNorm,
    then four decision steps, each an attentive transformer (Linear +
    BatchNorm, times the prior scales, sparsemax) giving a per-feature mask,
    the masked features through a feature transformer (two shared and two
    step-specific Linear + BatchNorm + GLU layers, sqrt(1/2)-scaled
    residuals), split into a decision part (ReLU, summed over steps) and
    the next step's attention part; the prior is updated by (gamma -
    mask); a Linear to 4 classes."""

    class GLU(nn.Module):
        def __init__(self, cin, cout, fc=None):
            super().__init__()
            self.fc = fc if fc is not None else nn.Linear(cin, 2 * cout, bias=False)
            self.bn = nn.BatchNorm1d(2 * cout)

        def forward(self, x):
            return F.glu(self.bn(self.fc(x)), dim=-1)

    def __init__(self, features=48, nd=16, na=16, steps=4, gamma=1.3, classes=4):
        super().__init__()
        h = nd + na
        self.nd, self.gamma = nd, gamma
        self.bn = nn.BatchNorm1d(features)
        shared1 = nn.Linear(features, 2 * h, bias=False)
        shared2 = nn.Linear(h, 2 * h, bias=False)
        G = TabNetLite.GLU
        self.ft = nn.ModuleList(
            nn.ModuleList([G(features, h, shared1), G(h, h, shared2), G(h, h), G(h, h)])
            for _ in range(steps + 1))
        self.att = nn.ModuleList(nn.Sequential(nn.Linear(na, features, bias=False),
                                               nn.BatchNorm1d(features))
                                 for _ in range(steps))
        self.fc = nn.Linear(nd, classes)

    def transform(self, i, x):
        blocks = self.ft[i]
        x = blocks[0](x)
        for b in blocks[1:]:
            x = (x + b(x)) * math.sqrt(0.5)
        return x

    def forward(self, x):                          # (N, 48)
        x = self.bn(x)
        prior = torch.ones_like(x)
        a = self.transform(0, x)[:, self.nd:]
        out = 0
        for i, att in enumerate(self.att):
            mask = _sparsemax(att(a) * prior)
            prior = prior * (self.gamma - mask)
            h = self.transform(i + 1, x * mask)
            out = out + F.relu(h[:, :self.nd])
            a = h[:, self.nd:]
        return self.fc(out)


class NTMCopy(nn.Module):
    """Neural Turing machine (Graves et al.) unrolled over 12 steps of 8-bit
    inputs: an LSTM controller written out with Linears, one read and one
    write head on a 64 x 20 memory; each head's addressing is content
    (cosine similarity to a key, sharpened by beta, softmax), interpolation
    with its previous weights by a gate, a 3-tap circular shift (shifted
    copies by Slice / Concat) and sharpening (Pow, renormalised); the
    write erases and adds (outer products); the output a sigmoid Linear of
    the controller state and the read vector."""

    def __init__(self, bits=8, hidden=96, slots=64, width=20, steps=12):
        super().__init__()
        self.hidden, self.width, self.steps = hidden, width, steps
        self.gates = nn.Linear(bits + width + hidden, 4 * hidden)
        # per head: key (width), beta, g, shift (3), gamma
        self.read_p = nn.Linear(hidden, width + 6)
        self.write_p = nn.Linear(hidden, width + 6 + 2 * width)
        self.out = nn.Linear(hidden + width, bits)
        self.register_buffer("mem0", 1e-3 * torch.ones(slots, width) + 0.01 * torch.randn(
            slots, width, generator=torch.Generator().manual_seed(3)))
        w0 = torch.zeros(slots)
        w0[0] = 1.0
        self.register_buffer("w0", w0)

    def address(self, p, w_prev, mem):
        W = self.width
        key, beta = p[:, :W], F.softplus(p[:, W:W + 1])
        g = torch.sigmoid(p[:, W + 1:W + 2])
        s = torch.softmax(p[:, W + 2:W + 5], dim=-1)
        gamma = 1 + F.softplus(p[:, W + 5:W + 6])
        sim = F.cosine_similarity(mem, key.unsqueeze(1), dim=-1, eps=1e-8)   # (N, S)
        w = torch.softmax(beta * sim, dim=-1)
        w = g * w + (1 - g) * w_prev
        left = torch.cat([w[:, -1:], w[:, :-1]], dim=1)
        right = torch.cat([w[:, 1:], w[:, :1]], dim=1)
        w = s[:, 0:1] * left + s[:, 1:2] * w + s[:, 2:3] * right
        w = torch.pow(w + 1e-12, gamma)
        return w / w.sum(-1, keepdim=True)

    def forward(self, seq):                        # (N, 12, 8)
        n = seq.shape[0]
        H, W = self.hidden, self.width
        mem = self.mem0.unsqueeze(0).expand(n, -1, -1)
        wr = self.w0.unsqueeze(0).expand(n, -1)
        ww = wr
        h = seq.new_zeros(n, H)
        c = seq.new_zeros(n, H)
        r = seq.new_zeros(n, W)
        outs = []
        for t in range(self.steps):
            i, f, gg, o = self.gates(torch.cat([seq[:, t], r, h], dim=-1)).chunk(4, dim=-1)
            c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(gg)
            h = torch.sigmoid(o) * torch.tanh(c)
            pw = self.write_p(h)
            ww = self.address(pw[:, :W + 6], ww, mem)
            erase = torch.sigmoid(pw[:, W + 6:2 * W + 6])
            add = torch.tanh(pw[:, 2 * W + 6:])
            mem = mem * (1 - ww.unsqueeze(-1) * erase.unsqueeze(1)) + \
                ww.unsqueeze(-1) * add.unsqueeze(1)
            wr = self.address(self.read_p(h), wr, mem)
            r = torch.matmul(wr.unsqueeze(1), mem)[:, 0]
            outs.append(torch.sigmoid(self.out(torch.cat([h, r], dim=-1))))
        return torch.stack(outs, dim=1)


class BiLSTMCRF(nn.Module):
    """BiLSTM-CRF sequence tagger (Huang, Xu & Yu; Lample et al.) on 40
    tokens with 9 tags: embeddings, a bidirectional LSTM, a Linear to
    emission scores, then the linear-chain CRF both ways: the forward
    algorithm (log-sum-exp over the previous tag, 40 steps) for the log
    partition, and Viterbi (Max and ArgMax over the previous tag, then the
    back-pointers followed by Gather from the last position) for the best
    path; returns log Z and the path."""

    def __init__(self, vocab=6000, emb=64, hidden=64, tags=9, L=40):
        super().__init__()
        self.L = L
        self.emb = nn.Embedding(vocab, emb)
        self.lstm = nn.LSTM(emb, hidden, batch_first=True, bidirectional=True)
        self.emit = nn.Linear(2 * hidden, tags)
        self.trans = nn.Parameter(0.1 * torch.randn(tags, tags))
        self.start = nn.Parameter(0.1 * torch.randn(tags))
        self.end = nn.Parameter(0.1 * torch.randn(tags))

    def forward(self, tokens):                     # (N, 40)
        e = self.emit(self.lstm(self.emb(tokens))[0])                  # (N, L, T)
        alpha = self.start + e[:, 0]
        score = alpha
        pointers = []
        for t in range(1, self.L):
            m = self.trans.unsqueeze(0) + e[:, t].unsqueeze(1)          # (1|N, T, T)
            alpha = torch.logsumexp(alpha.unsqueeze(2) + m, dim=1)
            best, ptr = (score.unsqueeze(2) + m).max(dim=1)
            score = best
            pointers.append(ptr)
        log_z = torch.logsumexp(alpha + self.end, dim=1)
        tag = (score + self.end).argmax(dim=1, keepdim=True)            # (N, 1)
        path = [tag]
        for ptr in reversed(pointers):
            tag = torch.gather(ptr, 1, tag)
            path.append(tag)
        return log_z, torch.cat(path[::-1], dim=1)


class RWKVLike(nn.Module):
    """RWKV-4-like language model (Peng et al., "RWKV: Reinventing RNNs for
    the Transformer Era") on 24 tokens: each layer's time mixing
    interpolates every token with the previous one (token shift), projects
    to receptance / key / value, and runs the WKV recurrence step by step
    (a, b accumulators decayed by exp(-w), the current token boosted by
    exp(u + k), output sigmoid(r) * a / b), then channel mixing (token
    shift, squared ReLU, receptance gate); LayerNorms before each."""

    class Layer(nn.Module):
        def __init__(self, d, ff):
            super().__init__()
            self.n1 = nn.LayerNorm(d)
            self.n2 = nn.LayerNorm(d)
            self.mix_k = nn.Parameter(torch.rand(d))
            self.mix_v = nn.Parameter(torch.rand(d))
            self.mix_r = nn.Parameter(torch.rand(d))
            self.decay = nn.Parameter(-1 + 0.5 * torch.randn(d))
            self.first = nn.Parameter(0.3 * torch.randn(d))
            self.k = nn.Linear(d, d, bias=False)
            self.v = nn.Linear(d, d, bias=False)
            self.r = nn.Linear(d, d, bias=False)
            self.o = nn.Linear(d, d, bias=False)
            self.cmix_k = nn.Parameter(torch.rand(d))
            self.cmix_r = nn.Parameter(torch.rand(d))
            self.ck = nn.Linear(d, ff, bias=False)
            self.cv = nn.Linear(ff, d, bias=False)
            self.cr = nn.Linear(d, d, bias=False)

        @staticmethod
        def shift(x):
            return torch.cat([torch.zeros_like(x[:, :1]), x[:, :-1]], dim=1)

        def forward(self, x):                      # (N, L, d)
            h = self.n1(x)
            hp = self.shift(h)
            k = self.k(h * self.mix_k + hp * (1 - self.mix_k))
            v = self.v(h * self.mix_v + hp * (1 - self.mix_v))
            r = torch.sigmoid(self.r(h * self.mix_r + hp * (1 - self.mix_r)))
            w = torch.exp(-torch.exp(self.decay))
            a = torch.zeros_like(k[:, 0])
            b = torch.zeros_like(k[:, 0])
            outs = []
            for t in range(x.shape[1]):
                ek = torch.exp(torch.clamp(k[:, t], max=30.0))
                eu = ek * torch.exp(self.first)
                outs.append((a + eu * v[:, t]) / (b + eu + 1e-6))
                a = w * a + ek * v[:, t]
                b = w * b + ek
            x = x + self.o(r * torch.stack(outs, dim=1))
            h = self.n2(x)
            hp = self.shift(h)
            kk = torch.square(F.relu(self.ck(h * self.cmix_k + hp * (1 - self.cmix_k))))
            rr = torch.sigmoid(self.cr(h * self.cmix_r + hp * (1 - self.cmix_r)))
            return x + rr * self.cv(kk)

    def __init__(self, vocab=3000, d=96, ff=256, depth=3):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.n0 = nn.LayerNorm(d)
        self.layers = nn.Sequential(*[RWKVLike.Layer(d, ff) for _ in range(depth)])
        self.norm = nn.LayerNorm(d)
        self.head = nn.Linear(d, vocab, bias=False)

    def forward(self, tokens):                     # (N, 24)
        return self.head(self.norm(self.layers(self.n0(self.emb(tokens)))))


class NeuralForest(nn.Module):
    """Deep neural decision forest (Kontschieder et al.) on 40 features: a
    small MLP, then 10 soft binary trees of depth 5, each seeing its own
    random 24 of the 64 hidden features (Gather of fixed indices); the
    31 split nodes' sigmoid decisions route a probability level by level
    (mu * d, mu * (1 - d), interleaved by Stack / Reshape) to 32 leaves,
    whose softmaxed class distributions are averaged, weighted by the
    routing, over the trees; 6 classes."""

    def __init__(self, features=40, hidden=64, trees=10, depth=5, sub=24, classes=6):
        super().__init__()
        self.trees, self.depth = trees, depth
        self.mlp = nn.Sequential(nn.Linear(features, hidden), nn.ReLU(),
                                 nn.Linear(hidden, hidden), nn.ReLU())
        g = torch.Generator().manual_seed(5)
        idx = torch.stack([torch.randperm(hidden, generator=g)[:sub] for _ in range(trees)])
        self.register_buffer("idx", idx.flatten())
        self.split_w = nn.Parameter(torch.randn(trees, sub, 2 ** depth - 1) / math.sqrt(sub))
        self.split_b = nn.Parameter(torch.zeros(trees, 1, 2 ** depth - 1))
        self.leaf = nn.Parameter(torch.randn(trees, 2 ** depth, classes))

    def forward(self, x):                          # (N, 40)
        h = self.mlp(x)
        hs = h[:, self.idx].reshape(-1, self.trees, 1, self.idx.shape[0] // self.trees)
        d = torch.sigmoid(torch.matmul(hs, self.split_w) + self.split_b)[:, :, 0]  # (N, T, 31)
        mu = torch.ones_like(d[:, :, :1])
        for lvl in range(self.depth):
            dl = d[:, :, 2 ** lvl - 1:2 ** (lvl + 1) - 1]
            mu = torch.stack([mu * dl, mu * (1 - dl)], dim=-1).reshape(-1, self.trees,
                                                                     2 ** (lvl + 1))
        p = torch.einsum("ntl,tlc->nc", mu, torch.softmax(self.leaf, dim=-1))
        return p / self.trees


class QuartzNetCTC(nn.Module):
    """QuartzNet-like speech recogniser (Kriman et al.) on 256 frames of 64
    mel features: a stride-2 time-channel separable Conv1d prologue, five
    blocks of three (depthwise Conv1d, pointwise Conv1d, BatchNorm, ReLU)
    sub-blocks with a pointwise + BatchNorm residual into the last,
    kernels 33 to 75, then a dilated separable Conv1d, two pointwise ones
    and log-softmax over 29 CTC symbols per frame."""

    class Sep(nn.Module):
        def __init__(self, cin, cout, k, s=1, dil=1, act=True):
            super().__init__()
            self.dw = nn.Conv1d(cin, cin, k, s, dil * (k // 2), dilation=dil, groups=cin,
                                bias=False)
            self.pw = nn.Conv1d(cin, cout, 1, bias=False)
            self.bn = nn.BatchNorm1d(cout)
            self.act = act

        def forward(self, x):
            y = self.bn(self.pw(self.dw(x)))
            return F.relu(y) if self.act else y

    class Block(nn.Module):
        def __init__(self, cin, cout, k, r=3):
            super().__init__()
            S = QuartzNetCTC.Sep
            self.subs = nn.ModuleList([S(cin if i == 0 else cout, cout, k, act=i < r - 1)
                                       for i in range(r)])
            self.res = nn.Sequential(nn.Conv1d(cin, cout, 1, bias=False), nn.BatchNorm1d(cout))

        def forward(self, x):
            y = x
            for s in self.subs:
                y = s(y)
            return F.relu(y + self.res(x))

    def __init__(self, mels=64, width=192, kernels=(33, 39, 51, 63, 75), symbols=29):
        super().__init__()
        S = QuartzNetCTC.Sep
        self.pro = S(mels, width, 33, s=2)
        self.blocks = nn.Sequential(*[QuartzNetCTC.Block(width, width, k) for k in kernels])
        self.epi = nn.Sequential(S(width, 2 * width, 87, dil=2),
                                 nn.Conv1d(2 * width, 4 * width, 1), nn.ReLU(),
                                 nn.Conv1d(4 * width, symbols, 1))

    def forward(self, feats):                      # (N, 64, 256)
        y = self.epi(self.blocks(self.pro(feats)))
        return F.log_softmax(y.transpose(1, 2), dim=-1)


class NeRFRender(nn.Module):
    """NeRF-like volume renderer (Mildenhall et al.) for 128 rays per item
    with 24 fixed samples along each: points o + t d, positional encoding
    (Sin / Cos of 10 octaves for points, 4 for directions), an 8-layer
    width-128 point MLP with the encoding Concat-ed back in at layer 5, a
    density and a view-dependent colour head, then alpha compositing:
    alpha = 1 - exp(-relu(sigma) delta), transmittance by an exclusive
    CumSum in log space, weights, the rendered colour, depth and
    opacity."""

    def __init__(self, samples=24, width=128, octaves=10, dir_octaves=4, near=2.0, far=6.0):
        super().__init__()
        self.octaves, self.dir_octaves = octaves, dir_octaves
        t = torch.linspace(near, far, samples)
        self.register_buffer("t", t)
        self.register_buffer("delta", torch.cat([t[1:] - t[:-1], torch.tensor([1e3])]))
        pin = 3 + 6 * octaves
        din = 3 + 6 * dir_octaves
        self.pre = nn.ModuleList([nn.Linear(pin, width)] +
                                 [nn.Linear(width, width) for _ in range(4)])
        self.post = nn.ModuleList([nn.Linear(width + pin, width)] +
                                  [nn.Linear(width, width) for _ in range(2)])
        self.sigma = nn.Linear(width, 1)
        self.feat = nn.Linear(width, width)
        self.rgb = nn.Sequential(nn.Linear(width + din, width // 2), nn.ReLU(),
                                 nn.Linear(width // 2, 3), nn.Sigmoid())

    @staticmethod
    def encode(x, octaves):
        f = (2.0 ** torch.arange(octaves).float()) * math.pi
        xf = (x.unsqueeze(-1) * f).flatten(-2)
        return torch.cat([x, torch.sin(xf), torch.cos(xf)], dim=-1)

    def forward(self, origins, directions):        # (N, 128, 3) x 2
        S = self.t.shape[0]
        d = directions / directions.norm(dim=-1, keepdim=True)
        pts = origins.unsqueeze(2) + d.unsqueeze(2) * self.t.reshape(1, 1, S, 1)  # (N, R, S, 3)
        pe = self.encode(pts, self.octaves)
        h = pe
        for lin in self.pre:
            h = F.relu(lin(h))
        h = torch.cat([h, pe], dim=-1)
        for lin in self.post:
            h = F.relu(lin(h))
        sigma = F.relu(self.sigma(h))[..., 0]                          # (N, R, S)
        de = self.encode(d, self.dir_octaves).unsqueeze(2).expand(-1, -1, S, -1)
        rgb = self.rgb(torch.cat([self.feat(h), de], dim=-1))          # (N, R, S, 3)
        sd = sigma * self.delta
        alpha = 1 - torch.exp(-sd)
        trans = torch.exp(-(torch.cumsum(sd, dim=-1) - sd))
        w = alpha * trans
        color = (w.unsqueeze(-1) * rgb).sum(2)
        depth = (w * self.t).sum(-1)
        return color, depth, w.sum(-1)


class SiamFCTracker(nn.Module):
    """SiamFC-like tracker (Bertinetto et al., "Fully-Convolutional Siamese
    Networks for Object Tracking"): one narrowed AlexNet-like backbone
    (BatchNorm, no padding) run on a 127x127 exemplar and a 255x255
    search image, the exemplar's 6x6 feature map cross-correlated over the
    22x22 search map (sliding windows by Unfold, a batched MatMul), a
    learned scale and bias, the 17x17 score map upsampled bilinearly 8x."""

    def __init__(self, widths=(32, 64, 128, 128, 96), kz=6, hx=22):
        super().__init__()
        self.kz, self.out = kz, hx - kz + 1

        def cbr(cin, cout, k, s=1, act=True):
            layers = [nn.Conv2d(cin, cout, k, s, bias=False), nn.BatchNorm2d(cout)]
            return layers + ([nn.ReLU()] if act else [])
        c1, c2, c3, c4, c5 = widths
        self.backbone = nn.Sequential(*cbr(3, c1, 7, 2), nn.MaxPool2d(3, 2),
                                      *cbr(c1, c2, 5), nn.MaxPool2d(3, 2),
                                      *cbr(c2, c3, 3), *cbr(c3, c4, 3), *cbr(c4, c5, 3, act=False))
        self.scale = nn.Parameter(torch.tensor(0.001))
        self.bias = nn.Parameter(torch.zeros(1))

    def forward(self, exemplar, search):           # (N, 3, 127, 127), (N, 3, 255, 255)
        z = self.backbone(exemplar)                                    # (N, C, kz, kz)
        x = self.backbone(search)                                      # (N, C, hx, hx)
        kz, out = self.kz, self.out
        cols = F.unfold(x, kz)                                         # (N, C kz kz, out^2)
        score = torch.matmul(z.flatten(1).unsqueeze(1), cols)          # (N, 1, out^2)
        score = score.reshape(-1, 1, out, out) * self.scale + self.bias
        return F.interpolate(score, scale_factor=8.0, mode="bilinear", align_corners=False)


class MoDTransformer(nn.Module):
    """Mixture-of-depths transformer (Raote et al., "Mixture-of-Depths"):
    128 tokens, width 256, 8 pre-LN layers of which every second is
    routed: a Linear router scores the tokens, TopK keeps 32 of them (in
    their sorted positions), Gather takes those tokens through attention
    and MLP, the block's output is scaled by the router's sigmoid weight
    and written back with ScatterElements; the other tokens skip the layer.
    Plain layers in between; mean pool, 16 classes."""

    class Block(nn.Module):
        def __init__(self, d, heads, ff):
            super().__init__()
            self.h, self.dh = heads, d // heads
            self.n1 = nn.LayerNorm(d)
            self.qkv = nn.Linear(d, 3 * d)
            self.o = nn.Linear(d, d)
            self.n2 = nn.LayerNorm(d)
            self.ff = nn.Sequential(nn.Linear(d, ff), nn.GELU(), nn.Linear(ff, d))

        def forward(self, x):                      # returns the residual update
            L = x.shape[1]
            q, k, v = self.qkv(self.n1(x)).reshape(-1, L, 3, self.h, self.dh) \
                .permute(2, 0, 3, 1, 4).unbind(0)
            a = torch.softmax(torch.matmul(q, k.transpose(2, 3)) / math.sqrt(self.dh), dim=-1)
            y = self.o(torch.matmul(a, v).transpose(1, 2).reshape(-1, L, self.h * self.dh))
            return y + self.ff(self.n2(x + y))

    def __init__(self, vocab=8000, d=256, heads=4, ff=768, depth=8, L=128, capacity=32,
                 classes=16):
        super().__init__()
        self.capacity = capacity
        self.emb = nn.Embedding(vocab, d)
        self.pos = nn.Parameter(0.02 * torch.randn(L, d))
        self.blocks = nn.ModuleList(MoDTransformer.Block(d, heads, ff) for _ in range(depth))
        self.routers = nn.ModuleList(nn.Linear(d, 1) if i % 2 == 1 else nn.Identity()
                                     for i in range(depth))
        self.norm = nn.LayerNorm(d)
        self.fc = nn.Linear(d, classes)

    def forward(self, tokens):                     # (N, 128)
        x = self.emb(tokens) + self.pos
        d = x.shape[2]
        for i, blk in enumerate(self.blocks):
            if i % 2 == 0:
                x = x + blk(x)
                continue
            r = self.routers[i](x)[..., 0]                             # (N, L)
            w, idx = torch.topk(r, self.capacity, dim=1)
            idx, order = torch.sort(idx, dim=1)
            w = torch.gather(w, 1, order)
            gi = idx.unsqueeze(-1).expand(-1, -1, d)
            sel = torch.gather(x, 1, gi)
            upd = sel + torch.sigmoid(w).unsqueeze(-1) * blk(sel)
            x = x.scatter(1, gi, upd)
        return self.fc(self.norm(x).mean(1))


class EarlyExitCNN(nn.Module):
    """Early-exit CNN (Teerapittayanon et al., BranchyNet): a ResNet-like
    backbone on 128x128 images with classifier exits after the first,
    second and last stage (small Conv + pooling + Linear branches); each
    exit's softmax entropy is compared with a threshold and the first
    confident exit's probabilities are chosen (Where, nested); also
    returns which exit was taken.  All exits are computed (a static
    graph)."""

    def __init__(self, widths=(48, 96, 192, 384), depth=(2, 2, 2, 2), classes=100,
                 threshold=3.0):
        super().__init__()
        self.threshold = threshold
        self.stem = nn.Sequential(_bn_act(3, widths[0], 3, 2), _bn_act(widths[0], widths[0]))
        stages, cin = [], widths[0]
        for i, (w, n) in enumerate(zip(widths, depth)):
            blocks = []
            for j in range(n):
                blocks.append(_Basic(cin, w, 2 if (j == 0 and i > 0) else 1))
                cin = w
            stages.append(nn.Sequential(*blocks))
        self.stages = nn.ModuleList(stages)
        self.exit1 = nn.Sequential(_bn_act(widths[0], 64, 3, 2), nn.AdaptiveAvgPool2d(1),
                                   nn.Flatten(), nn.Linear(64, classes))
        self.exit2 = nn.Sequential(_bn_act(widths[1], 128, 3, 2), nn.AdaptiveAvgPool2d(1),
                                   nn.Flatten(), nn.Linear(128, classes))
        self.exit3 = nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Flatten(),
                                   nn.Linear(widths[-1], classes))

    def forward(self, x):                          # (N, 3, 128, 128)
        x = self.stem(x)
        feats = []
        for st in self.stages:
            x = st(x)
            feats.append(x)
        probs = [torch.softmax(self.exit1(feats[0]), dim=-1),
                 torch.softmax(self.exit2(feats[1]), dim=-1),
                 torch.softmax(self.exit3(feats[3]), dim=-1)]
        ent = [-(p * torch.log(p + 1e-9)).sum(-1, keepdim=True) for p in probs]
        ok1, ok2 = ent[0] < self.threshold, ent[1] < self.threshold
        out = torch.where(ok1, probs[0], torch.where(ok2, probs[1], probs[2]))
        which = torch.where(ok1, torch.zeros_like(ent[0]),
                            torch.where(ok2, torch.ones_like(ent[0]), 2 * torch.ones_like(ent[0])))
        return out, which


class RelationNet(nn.Module):
    """Relation network (Santoro et al., "A simple neural network module for
    relational reasoning") for CLEVR-like questions: a 4-layer stride-2 CNN
    on 128x128 images to an 8x8 map of 24-channel objects, each tagged with
    its coordinates; every ordered pair of the 64 objects (4096 pairs, by
    broadcast and Concat) joined with a question embedding (an LSTM over 16
    tokens) goes through a 4-layer MLP g, summed over pairs, then an MLP f
    to 28 answers."""

    def __init__(self, vocab=90, qdim=64, ch=24, g=192, f=256, answers=28):
        super().__init__()
        self.cnn = nn.Sequential(_bn_act(3, ch, 3, 2), _bn_act(ch, ch, 3, 2),
                                 _bn_act(ch, ch, 3, 2), _bn_act(ch, ch, 3, 2))
        self.qemb = nn.Embedding(vocab, 32)
        self.qlstm = nn.LSTM(32, qdim, batch_first=True)
        lin = 2 * (ch + 2) + qdim
        self.g = nn.Sequential(nn.Linear(lin, g), nn.ReLU(), nn.Linear(g, g), nn.ReLU(),
                               nn.Linear(g, g), nn.ReLU(), nn.Linear(g, g), nn.ReLU())
        self.f = nn.Sequential(nn.Linear(g, f), nn.ReLU(), nn.Linear(f, f), nn.ReLU(),
                               nn.Linear(f, answers))
        ys, xs = torch.meshgrid(torch.linspace(-1, 1, 8), torch.linspace(-1, 1, 8),
                                indexing="ij")
        self.register_buffer("coords", torch.stack([ys, xs], dim=-1).reshape(64, 2))

    def forward(self, image, question):            # (N, 3, 128, 128), (N, 16)
        o = self.cnn(image).flatten(2).transpose(1, 2)                 # (N, 64, ch)
        o = torch.cat([o, self.coords.unsqueeze(0).expand(o.shape[0], -1, -1)], dim=-1)
        q = self.qlstm(self.qemb(question))[1][0][0]                   # (N, qdim)
        P = o.shape[1]
        oi = o.unsqueeze(2).expand(-1, -1, P, -1)
        oj = o.unsqueeze(1).expand(-1, P, -1, -1)
        qq = q.reshape(-1, 1, 1, q.shape[1]).expand(-1, P, P, -1)
        rel = self.g(torch.cat([oi, oj, qq], dim=-1)).sum((1, 2))
        return self.f(rel)


def _img(size, ch=3):
    return [("input", ("N", ch, size, size), "float32", None)]


BLIND8 = {
    "kv_decoder_step": dict(ctor=KVDecoderStep, family="kv-cache-decode-step",
                            inputs=[("token", ("N", 1), "int64", 4000),
                                    ("past_keys", ("N", 4, 4, 63, 32), "float32", None),
                                    ("past_values", ("N", 4, 4, 63, 32), "float32", None)]),
    "tabnet_lite": dict(ctor=TabNetLite, family="attentive-feature-selection",
                        inputs=[("features", ("N", 48), "float32", None)]),
    "ntm_copy": dict(ctor=NTMCopy, family="external-memory-addressing",
                     inputs=[("sequence", ("N", 12, 8), "float32", None)]),
    "bilstm_crf": dict(ctor=BiLSTMCRF, family="linear-chain-crf",
                       inputs=[("tokens", ("N", 40), "int64", 6000)]),
    "rwkv_like": dict(ctor=RWKVLike, family="wkv-recurrence",
                      inputs=[("tokens", ("N", 24), "int64", 3000)]),
    "neural_forest": dict(ctor=NeuralForest, family="soft-decision-forest",
                          inputs=[("features", ("N", 40), "float32", None)]),
    "quartznet_ctc": dict(ctor=QuartzNetCTC, family="separable-conv1d-ctc",
                          inputs=[("features", ("N", 64, 256), "float32", None)]),
    "nerf_render": dict(ctor=NeRFRender, family="volume-rendering",
                        inputs=[("origins", ("N", 128, 3), "float32", None),
                                ("directions", ("N", 128, 3), "float32", None)]),
    "siamfc_tracker": dict(ctor=SiamFCTracker, family="siamese-cross-correlation",
                           inputs=[("exemplar", ("N", 3, 127, 127), "float32", None),
                                   ("search", ("N", 3, 255, 255), "float32", None)]),
    "mod_transformer": dict(ctor=MoDTransformer, family="mixture-of-depths",
                            inputs=[("tokens", ("N", 128), "int64", 8000)]),
    "early_exit_cnn": dict(ctor=EarlyExitCNN, family="early-exit", inputs=_img(128)),
    "relation_net": dict(ctor=RelationNet, family="relation-network",
                         inputs=[("image", ("N", 3, 128, 128), "float32", None),
                                 ("question", ("N", 16), "int64", 90)]),
}
