r"""BLIND28: the twenty-eighth blind set, written on 2026-12-07 by a helper
session before any of it was measured.  Nothing in it has been timed,
profiled or run through onnxcost predict; it is to be measured first and
scored once only, at the end, with the code as it stands then
(bench/zoo_accuracy.py --set blind28).  None of its twelve families occurs
in another set (ZOO, BLIND, BLIND2 ... BLIND27, the reference models), so
no plan rule, feature, fit or calibration can have been made with any of
them in view.

Three families unroll a classical procedure into a fixed graph of small
kernels (a few hundred nodes), each with a small learned part:

  * Gillespie's stochastic simulation algorithm (Gillespie, "Exact
    Stochastic Simulation of Coupled Chemical Reactions", 1977) on a
    Michaelis-Menten enzyme network with substrate inflow and product
    decay (four species, five reactions): an MLP turns 8 conditions into
    rate constants and rounded initial counts, 256 independent
    trajectories per sample take 32 reaction events each (mass-action
    propensities as two MatMuls and a product, a CumSum, the reaction
    drawn by one comparison against a uniform draw, the state change as
    one MatMul, an exponential waiting time), and a per-trajectory MLP
    over the recorded path is averaged into a 3-way head.
  * Orthogonal matching pursuit (Pati, Rezaiifar & Krishnaprasad,
    "Orthogonal Matching Pursuit: Recursive Function Approximation with
    Applications to Wavelet Decomposition", 1993) as a patch sparse coder
    in the manner of dictionary-based denoising: the 256 non-overlapping
    8 x 8 patches of a 128 x 128 image, mean removed, against a learned
    unit-norm 64 x 256 dictionary; 10 greedy steps, each an ArgMax of the
    absolute correlations, a Gather of the chosen atom, one Gram-Schmidt
    step and a residual update, then back-substitution through the
    triangular factor for the codes; the reconstruction goes through a
    small Conv net, the atom usage through a Linear.
  * Non-local means (Buades, Coll & Morel, "A Non-Local Algorithm for
    Image Denoising", 2005) in the offset-by-offset form: a small Conv
    net sets a per-pixel filtering strength, then for each of the 49
    offsets of a 7 x 7 search window the squared colour difference to
    the shifted image (reflect-padded), a 5 x 5 AveragePool for the patch
    distance, an Exp weight and a weighted accumulation; the normalised
    result and the input are fused by a final 3 x 3 Conv; 128 x 128 RGB.

The other nine are published network designs of ordinary sizes:

  * Dual-path RNN (Luo, Chen & Yoshioka, "Dual-Path RNN: Efficient Long
    Sequence Modeling for Time-Domain Single-Channel Speech Separation",
    2020): a stride-8 Conv1d encoder on half a second of 8 kHz audio,
    the 499 frames cut into half-overlapping chunks of 50 (two reshapes
    interleaved), three blocks of an intra-chunk and an inter-chunk
    bidirectional LSTM (32 units each way), each followed by a Linear and
    a global GroupNorm with a residual, masks for two speakers and a
    ConvTranspose1d decoder after overlap-add.
  * xDeepFM (Lian, Zhou, Zhang, Chen, Xie & Sun, "xDeepFM: Combining
    Explicit and Implicit Feature Interactions for Recommender Systems",
    2018): 26 categorical and 13 numeric fields as 39 embeddings of 16, a
    compressed interaction network of three layers of 200 maps (the outer
    product of the current maps with the field embeddings along the
    embedding axis, compressed by a 1x1 Conv1d, half of each layer passed
    on), a 400-400 DNN and a first-order linear part summed into a
    click probability.
  * NODE (Popov, Morozov & Babenko, "Neural Oblivious Decision Ensembles
    for Deep Learning on Tabular Data", 2019): four densely connected
    layers of 256 oblivious trees of depth 6 on 64 features, feature
    choice by an entmax-1.5 over the inputs (sort, cumulative sums and a
    GatherElements, on parameters only), soft splits by the 1.5-entmoid,
    the 64 leaf weights of a tree as a product over its levels, and
    2-d leaf responses averaged over all trees.
  * Point Transformer (Zhao, Jiang, Jia, Torr & Koltun, "Point
    Transformer", 2021): 512 points, kNN (k = 16) by TopK of negative
    squared distances, vector self-attention (an MLP of query minus key
    plus a relative-position encoding, a softmax over the neighbours per
    channel), transition-down by strided sampling and a max over the kNN
    of each kept point, stages of 512, 128 and 32 points at widths 32, 64
    and 128, a 40-way head.
  * Graphormer (Ying, Cai, Luo, Zheng, Ke, He, Shen & Liu, "Do
    Transformers Really Perform Bad for Graph Representation?", 2021):
    64-atom graphs with a virtual graph token; centrality encoding by
    degree embeddings, spatial encoding as a learned per-head attention
    bias looked up from the shortest-path distance of every pair (Gather
    of an (N, 64, 64) index); six pre-LN layers of width 128 and 8 heads.
  * Crossformer (Zhang & Yan, "Crossformer: Transformer Utilizing
    Cross-Dimension Dependency for Multivariate Time Series
    Forecasting", 2023): 96 steps of 8 series cut into segments of 12 and
    embedded separately; two-stage attention (across time within each
    series, then across series through 4 router tokens per segment), an
    encoder of two scales with segment merging, and a decoder whose three
    layers each cross-attend to one scale and predict the 48 output steps
    additively.
  * MaskGIT (Chang, Zhang, Jiang, Liu & Freeman, "MaskGIT: Masked
    Generative Image Transformer", 2022): class-conditional generation of
    an 8 x 8 grid of 512 codebook tokens by 8 steps of parallel decoding
    under a cosine schedule: a bidirectional two-layer transformer of
    width 128 over [class; tokens], tied-weight logits, ArgMax tokens,
    confidences perturbed by annealed noise, the least confident re-masked
    by a TopK threshold (Where on int64 tokens); a ConvTranspose decoder
    turns the codebook vectors into a 32 x 32 image.
  * Mamba (Gu & Dao, "Mamba: Linear-Time Sequence Modeling with Selective
    State Spaces", 2023): a language model of four RMSNorm blocks of
    width 128 (inner 256, state 16) on 64 tokens: input projection, a
    causal depthwise Conv1d of width 4, input-dependent step sizes and
    B, C projections, the discretised selective scan unrolled step by
    step (Split, Mul, Add per step), the SiLU gate and output
    projection; the next-token logits of the last position.
  * MeshGraphNets (Pfaff, Fortunato, Sanchez-Gonzalez & Battaglia,
    "Learning Mesh-Based Simulation with Graph Networks", 2021): a
    triangulated 16 x 16 mesh (1410 directed edges) in encode-process-
    decode form: node and edge MLP encoders with LayerNorm, six processor
    steps of residual edge updates over [edge, sender, receiver] (Gather
    by fixed indices) and node updates over the summed incoming edges
    (a Gather of a padded incoming-edge table), a node decoder to 2-d
    accelerations.

To be measured with

    OMP_WAIT_POLICY=PASSIVE /usr/bin/python3 scripts/measure_zoo.py --set blind28 \
        gillespie_enzyme omp_patch_coding nlmeans_denoise \
        dprnn_separator xdeepfm_ctr node_tabular point_transformer_cls \
        graphormer_mol crossformer_forecast maskgit_decode mamba_lm \
        meshgraphnet_flow \
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


class _MHA(nn.Module):
    """Multi-head attention with separate query and key/value inputs, all
    batch-first; an optional additive bias of shape (B, h, Lq, Lk)."""

    def __init__(self, dim, heads):
        super().__init__()
        self.h, self.hd = heads, dim // heads
        self.q = nn.Linear(dim, dim)
        self.kv = nn.Linear(dim, 2 * dim)
        self.out = nn.Linear(dim, dim)

    def forward(self, x, mem, bias=None):        # (B, Lq, D), (B, Lk, D)
        lq, lk, h, hd = x.shape[1], mem.shape[1], self.h, self.hd
        q = self.q(x).view(-1, lq, h, hd).transpose(1, 2)
        k, v = self.kv(mem).view(-1, lk, 2, h, hd).permute(2, 0, 3, 1, 4).unbind(0)
        s = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(hd)
        if bias is not None:
            s = s + bias
        o = torch.matmul(torch.softmax(s, -1), v)
        return self.out(o.transpose(1, 2).reshape(-1, lq, h * hd))


# --------------------------------------------------------------------------
# Unrolled classical procedures with a small learned part
# --------------------------------------------------------------------------

class GillespieEnzyme(nn.Module):
    """Stochastic simulation of E + S <-> C -> E + P, P -> 0, 0 -> S.  The
    state carries a constant 1 as a fifth entry so that the mass-action
    propensities are k * (x A) * (x B) with 0/1 reactant-selection
    matrices A, B.  The reaction fired is the first j with cumsum(a)_j >=
    u * a0; its one-hot, times the stoichiometry, is folded into one
    MatMul of the comparison vector with successive differences of the
    stoichiometry rows.  The inflow reaction keeps a0 > 0.  The (N, 256,
    32, 2) noise input becomes uniforms by a sigmoid."""

    def __init__(self, conds=8, lanes=256, steps=32, hidden=64, classes=3):
        super().__init__()
        self.lanes, self.steps = lanes, steps
        self.rates = _mlp(conds, hidden, 5 + 2)
        #                E, S, C, P, one
        first = [[1, 0, 0, 0, 0],      # E + S -> C     (E)
                 [0, 0, 1, 0, 0],      # C -> E + S     (C)
                 [0, 0, 1, 0, 0],      # C -> E + P     (C)
                 [0, 0, 0, 1, 0],      # P -> 0         (P)
                 [0, 0, 0, 0, 1]]      # 0 -> S         (1)
        second = [[0, 1, 0, 0, 0], [0, 0, 0, 0, 1], [0, 0, 0, 0, 1], [0, 0, 0, 0, 1], [0, 0, 0, 0, 1]]
        stoich = torch.tensor([[-1, -1, 1, 0, 0],
                               [1, 1, -1, 0, 0],
                               [1, 0, -1, 1, 0],
                               [0, 0, 0, -1, 0],
                               [0, 1, 0, 0, 0]], dtype=torch.float32)
        diff = stoich - torch.cat([stoich[1:], torch.zeros(1, 5)], 0)
        self.register_buffer("first", torch.tensor(first, dtype=torch.float32).t().contiguous())
        self.register_buffer("second", torch.tensor(second, dtype=torch.float32).t().contiguous())
        self.register_buffer("change", diff)
        self.register_buffer("place", torch.eye(2, 5))
        self.register_buffer("one", torch.tensor([0.0, 0.0, 0.0, 0.0, 1.0]))
        self.read = _mlp(steps * 5, 128, 32)
        self.head = _mlp(32 + conds, 64, classes)

    def forward(self, cond, noise):               # (N, 8), (N, 256, 32, 2)
        p = self.rates(cond)
        k = torch.exp(p[:, 0:5].clamp(-4.0, 2.0)).unsqueeze(1)               # (N, 1, 5)
        e0 = torch.round(10.0 + 40.0 * torch.sigmoid(p[:, 5:6]))
        s0 = torch.round(20.0 + 80.0 * torch.sigmoid(p[:, 6:7]))
        x = torch.matmul(torch.cat([e0, s0], 1), self.place) + self.one     # (N, 5)
        x = x.unsqueeze(1).repeat(1, self.lanes, 1)                          # (N, L, 5)
        u = torch.sigmoid(noise).clamp(1e-6, 1.0 - 1e-6)
        wait = -torch.log(u[..., 0])                                         # (N, L, T)
        draw = u[..., 1]
        t = None
        path = []
        for s in range(self.steps):
            a = k * torch.matmul(x, self.first) * torch.matmul(x, self.second)  # (N, L, 5)
            a0 = a.sum(-1, keepdim=True)
            hit = (torch.cumsum(a, -1) >= draw[:, :, s:s + 1] * a0).float()
            x = x + torch.matmul(hit, self.change)
            dt = wait[:, :, s:s + 1] / a0
            t = dt if t is None else t + dt
            path.append(torch.cat([x[..., 0:4], t], -1))
        traj = torch.stack(path, 2).flatten(2)                               # (N, L, T * 5)
        traj = torch.log1p(traj.clamp(min=0.0))
        z = F.relu(self.read(traj)).mean(1)
        return self.head(torch.cat([z, cond], 1)), x[..., 0:4]


class OMPPatchCoding(nn.Module):
    """Orthogonal matching pursuit on the 256 non-overlapping 8 x 8 patches
    of a grey 128 x 128 image against a learned dictionary (columns
    normalised in the graph).  Q holds the orthonormalised chosen atoms,
    R the triangular factor (column s: the projections of atom s on the
    earlier q, then its remaining norm); after 10 steps R x = Q^T y is
    solved by back-substitution and the codes scattered to the 256 atoms
    by one-hot comparisons.  The reconstruction y - r plus the patch mean
    is refined by a three-Conv net; the mean absolute code per atom feeds
    a 10-way Linear."""

    def __init__(self, atoms=256, patch=8, side=128, sparsity=10, classes=10):
        super().__init__()
        self.atoms, self.patch, self.side, self.sparsity = atoms, patch, side, sparsity
        m = patch * patch
        self.dict = nn.Parameter(torch.randn(m, atoms))
        self.register_buffer("ids", torch.arange(atoms).view(1, 1, atoms))
        self.register_buffer("eye", torch.eye(sparsity))
        self.refine = nn.Sequential(nn.Conv2d(2, 16, 3, 1, 1), nn.ReLU(), nn.Conv2d(16, 16, 3, 1, 1),
                                    nn.ReLU(), nn.Conv2d(16, 1, 3, 1, 1))
        self.fc = nn.Linear(atoms, classes)

    def forward(self, image):                     # (N, 1, 128, 128)
        b, g, S = self.patch, self.side // self.patch, self.sparsity
        y = image.reshape(-1, g, b, g, b).permute(0, 1, 3, 2, 4).reshape(-1, g * g, b * b)
        mean = y.mean(-1, keepdim=True)
        y = y - mean                                                         # (N, P, M)
        d = self.dict / self.dict.norm(dim=0, keepdim=True)                 # (M, K)
        dt = d.t()
        r = y
        qs, zs, cols, picks = [], [], [], []
        for s in range(S):
            j = torch.matmul(r, d).abs().argmax(-1)                          # (N, P)
            atom = dt[j]                                                     # (N, P, M)
            if s:
                qm = torch.stack(qs, -1)                                     # (N, P, M, s)
                proj = torch.matmul(atom.unsqueeze(-2), qm)                  # (N, P, 1, s)
                q = atom - torch.matmul(proj, qm.transpose(-1, -2)).squeeze(-2)
            else:
                proj = None
                q = atom
            nrm = q.norm(dim=-1, keepdim=True).clamp(min=1e-6)
            q = q / nrm
            z = (q * r).sum(-1, keepdim=True)
            r = r - z * q
            parts = [nrm] if proj is None else [proj.squeeze(-2), nrm]
            if s < S - 1:
                parts.append(torch.zeros_like(nrm).expand(-1, -1, S - 1 - s))
            cols.append(torch.cat(parts, -1))
            qs.append(q)
            zs.append(z)
            picks.append(j)
        rmat = torch.stack(cols, -1)                                         # (N, P, S, S): R[i, t]
        xs = [None] * S
        acc = torch.zeros_like(torch.cat(zs, -1))                            # (N, P, S)
        for s in range(S - 1, -1, -1):
            row = rmat[:, :, s]                                              # (N, P, S)
            xs[s] = (zs[s] - (row * acc).sum(-1, keepdim=True)) / row[..., s:s + 1]
            acc = acc + xs[s] * self.eye[s]
        code = torch.zeros_like(r[..., 0:1]).expand(-1, -1, self.atoms)
        for s in range(S):
            code = code + xs[s] * (picks[s].unsqueeze(-1) == self.ids).float()
        rec = (y - r + mean).reshape(-1, g, g, b, b).permute(0, 1, 3, 2, 4).reshape(-1, 1, self.side, self.side)
        out = rec + self.refine(torch.cat([rec, image], 1))
        return out, self.fc(code.abs().mean(1))


class NLMeansDenoise(nn.Module):
    """Non-local means on 128 x 128 RGB: a two-Conv net gives a positive
    per-pixel inverse strength 1/h^2; for each offset (dy, dx) in a 7 x 7
    window the channel-summed squared difference between the image and its
    shifted copy (both reflect-padded), a 5 x 5 box mean over the patch,
    weight exp(-dist / h^2), weighted sum of the shifted pixels; the
    normalised estimate and the noisy image go through a 3 x 3 Conv."""

    def __init__(self, search=7, patch=5, side=128):
        super().__init__()
        self.search, self.patch, self.side = search, patch, side
        self.strength = nn.Sequential(nn.Conv2d(3, 16, 3, 1, 1), nn.ReLU(), nn.Conv2d(16, 1, 3, 1, 1),
                                      nn.Softplus())
        self.box = nn.AvgPool2d(patch, 1)
        self.fuse = nn.Conv2d(6, 3, 3, 1, 1)

    def forward(self, image):                     # (N, 3, 128, 128)
        rs, rp, n = self.search // 2, self.patch // 2, self.side
        inv_h2 = self.strength(image) + 0.1                                  # (N, 1, H, W)
        pad = rs + rp
        xp = F.pad(image, (pad, pad, pad, pad), mode="reflect")
        wide = n + 2 * rp
        base = xp[:, :, rs:rs + wide, rs:rs + wide]
        acc = torch.zeros_like(image)
        wsum = torch.zeros_like(inv_h2)
        for dy in range(-rs, rs + 1):
            for dx in range(-rs, rs + 1):
                sh = xp[:, :, rs + dy:rs + dy + wide, rs + dx:rs + dx + wide]
                diff = base - sh
                dist = self.box((diff * diff).sum(1, keepdim=True))          # (N, 1, H, W)
                w = torch.exp(-dist * inv_h2)
                acc = acc + w * sh[:, :, rp:rp + n, rp:rp + n]
                wsum = wsum + w
        est = acc / wsum
        return est + self.fuse(torch.cat([est, image], 1))


# --------------------------------------------------------------------------
# Published network designs
# --------------------------------------------------------------------------

class _DualPathBlock(nn.Module):
    """Intra-chunk BiLSTM along the chunk axis, then inter-chunk BiLSTM
    along the chunk-index axis, each with a Linear, a global GroupNorm and
    a residual, on (N, C, K, S)."""

    def __init__(self, c, hidden):
        super().__init__()
        self.intra = nn.LSTM(c, hidden, batch_first=True, bidirectional=True)
        self.intra_fc = nn.Linear(2 * hidden, c)
        self.intra_norm = nn.GroupNorm(1, c, eps=1e-8)
        self.inter = nn.LSTM(c, hidden, batch_first=True, bidirectional=True)
        self.inter_fc = nn.Linear(2 * hidden, c)
        self.inter_norm = nn.GroupNorm(1, c, eps=1e-8)

    def forward(self, x):                         # (N, C, K, S)
        c, k, s = x.shape[1], x.shape[2], x.shape[3]
        y = x.permute(0, 3, 2, 1).reshape(-1, k, c)                          # (N S, K, C)
        y = self.intra_fc(self.intra(y)[0]).reshape(-1, s, k, c).permute(0, 3, 2, 1)
        x = x + self.intra_norm(y)
        y = x.permute(0, 2, 3, 1).reshape(-1, s, c)                          # (N K, S, C)
        y = self.inter_fc(self.inter(y)[0]).reshape(-1, k, s, c).permute(0, 3, 1, 2)
        return x + self.inter_norm(y)


class DPRNNSeparator(nn.Module):
    """DPRNN on 4000 samples: encoder Conv1d(1, 64, 16, stride 8) + ReLU
    to 499 frames, GroupNorm(1) and a 1x1 bottleneck, chunks of 50 with
    hop 25 (zero padding to 575 frames, 22 chunks), three dual-path blocks
    (BiLSTM 32 + 32), PReLU and a 1x1 Conv2d to two masks, overlap-add,
    the tanh x sigmoid mask gate and ReLU, masked encodings decoded by a
    shared ConvTranspose1d(64, 1, 16, stride 8); (N, 2, 4000)."""

    def __init__(self, enc=64, bn=64, hidden=32, chunk=50, blocks=3, speakers=2, samples=4000):
        super().__init__()
        self.enc_dim, self.bn, self.chunk, self.hop, self.spk = enc, bn, chunk, chunk // 2, speakers
        self.samples = samples
        self.encoder = nn.Conv1d(1, enc, 16, 8, bias=False)
        frames = (samples - 16) // 8 + 1
        self.frames = frames
        self.gap = chunk - (self.hop + frames % chunk) % chunk
        self.norm = nn.GroupNorm(1, enc, eps=1e-8)
        self.bottleneck = nn.Conv1d(enc, bn, 1, bias=False)
        self.blocks = nn.Sequential(*[_DualPathBlock(bn, hidden) for _ in range(blocks)])
        self.prelu = nn.PReLU()
        self.mask = nn.Conv2d(bn, speakers * bn, 1)
        self.gate_t = nn.Conv1d(bn, bn, 1)
        self.gate_s = nn.Conv1d(bn, bn, 1)
        self.to_enc = nn.Conv1d(bn, enc, 1, bias=False)
        self.decoder = nn.ConvTranspose1d(enc, 1, 16, 8, bias=False)

    def forward(self, wave):                      # (N, 4000)
        w = F.relu(self.encoder(wave.unsqueeze(1)))                          # (N, E, T)
        x = self.bottleneck(self.norm(w))
        P, K = self.hop, self.chunk
        x = F.pad(x, (P, self.gap + P))                                      # (N, B, Tp)
        c = x.shape[1]
        s1 = x[:, :, :-P].reshape(-1, c, (x.shape[2] - P) // K, K)
        s2 = x[:, :, P:].reshape(-1, c, (x.shape[2] - P) // K, K)
        seg = torch.cat([s1, s2], 3).reshape(-1, c, 2 * s1.shape[2], K).transpose(2, 3)  # (N, B, K, S)
        y = self.mask(self.prelu(self.blocks(seg)))                          # (N, spk B, K, S)
        y = y.reshape(-1, c, K, seg.shape[3])                                # (N spk, B, K, S)
        # overlap-add
        y = y.transpose(2, 3).reshape(-1, c, seg.shape[3] // 2, 2 * K)
        a = y[:, :, :, :K].reshape(-1, c, (seg.shape[3] // 2) * K)[:, :, P:]
        b = y[:, :, :, K:].reshape(-1, c, (seg.shape[3] // 2) * K)[:, :, :-P]
        y = (a + b)[:, :, :self.frames]                                      # (N spk, B, T)
        m = F.relu(self.to_enc(torch.tanh(self.gate_t(y)) * torch.sigmoid(self.gate_s(y))))
        m = m.reshape(-1, self.spk, self.enc_dim, self.frames)
        masked = (m * w.unsqueeze(1)).reshape(-1, self.enc_dim, self.frames)
        return self.decoder(masked).reshape(-1, self.spk, self.samples)


class XDeepFMCtr(nn.Module):
    """xDeepFM: 26 categorical fields (1000 values each, one offset table)
    and 13 numeric fields (a vector per field scaled by its value) as 39
    embeddings of 16; CIN layers of 200 maps with split connections (the
    first two hand half their maps on, half to the output), ReLU, sum over
    the embedding axis; DNN 624-400-400; first-order terms; sigmoid."""

    def __init__(self, cats=26, vocab=1000, nums=13, dim=16, cin=(200, 200, 200), hidden=400):
        super().__init__()
        self.fields, self.dim = cats + nums, dim
        self.cat_emb = nn.Embedding(cats * vocab, dim)
        self.cat_lin = nn.Embedding(cats * vocab, 1)
        self.register_buffer("offsets", torch.arange(cats, dtype=torch.long) * vocab)
        self.num_emb = nn.Parameter(torch.randn(1, nums, dim) * 0.1)
        self.num_lin = nn.Linear(nums, 1)
        self.cin = nn.ModuleList()
        prev, out = self.fields, 0
        for i, h in enumerate(cin):
            self.cin.append(nn.Conv1d(prev * self.fields, h, 1))
            last = i == len(cin) - 1
            prev = h if last else h // 2
            out += h if last else h // 2
        self.cin_fc = nn.Linear(out, 1)
        self.dnn = nn.Sequential(nn.Linear(self.fields * dim, hidden), nn.BatchNorm1d(hidden), nn.ReLU(),
                                 nn.Linear(hidden, hidden), nn.BatchNorm1d(hidden), nn.ReLU(),
                                 nn.Linear(hidden, 1))

    def forward(self, dense, sparse):             # (N, 13), (N, 26) int64
        ids = sparse + self.offsets
        x0 = torch.cat([self.cat_emb(ids), self.num_emb * dense.unsqueeze(-1)], 1)  # (N, m, D)
        m, d = self.fields, self.dim
        xk, pooled = x0, []
        for i, conv in enumerate(self.cin):
            z = (xk.unsqueeze(2) * x0.unsqueeze(1)).reshape(-1, xk.shape[1] * m, d)
            h = F.relu(conv(z))                                              # (N, H, D)
            if i < len(self.cin) - 1:
                half = h.shape[1] // 2
                pooled.append(h[:, :half].sum(-1))
                xk = h[:, half:]
            else:
                pooled.append(h.sum(-1))
        linear = self.cat_lin(ids).sum((1, 2)).unsqueeze(1) + self.num_lin(dense)
        logit = linear + self.cin_fc(torch.cat(pooled, 1)) + self.dnn(x0.flatten(1))
        return torch.sigmoid(logit)


def _entmax15(z):
    """1.5-entmax along dim 0 (exact, by sorting)."""
    z = z / 2.0
    z = z - z.max(0, keepdim=True)[0]
    zs = torch.sort(z, 0, descending=True)[0]
    k = torch.arange(1, z.shape[0] + 1, dtype=z.dtype).view(-1, *([1] * (z.dim() - 1)))
    mean = zs.cumsum(0) / k
    mean_sq = (zs * zs).cumsum(0) / k
    delta = (1.0 - k * (mean_sq - mean * mean)) / k
    tau = mean - torch.sqrt(delta.clamp(min=0.0))
    support = (tau <= zs).sum(0, keepdim=True)
    tau_star = torch.gather(tau, 0, support - 1)
    return (z - tau_star).clamp(min=0.0) ** 2


def _entmoid15(x):
    """The 1.5-entmax of (x, 0): elementwise, in closed form."""
    pos = x >= 0
    a = x.abs()
    tau = (a + torch.sqrt(F.relu(8.0 - a * a))) / 2.0
    tau = torch.where(tau <= a, torch.full_like(tau, 2.0), tau)
    y = 0.25 * F.relu(tau - a) ** 2
    return torch.where(pos, 1.0 - y, y)


class _ObliviousLayer(nn.Module):
    """T oblivious trees of depth d: feature choice (entmax over inputs),
    thresholds and log-temperatures per level, leaf weights as the product
    over levels of [b, 1 - b] picked by each leaf's bit code, responses."""

    def __init__(self, cin, trees, depth, out):
        super().__init__()
        self.trees, self.depth = trees, depth
        self.select = nn.Parameter(torch.rand(cin, trees * depth))
        self.thresh = nn.Parameter(torch.randn(1, trees, depth) * 0.5)
        self.log_temp = nn.Parameter(torch.zeros(1, trees, depth))
        self.response = nn.Parameter(torch.randn(trees, 2 ** depth, out) * 0.1)
        leaves = torch.arange(2 ** depth)
        bits = torch.stack([(leaves >> (depth - 1 - i)) & 1 for i in range(depth)])   # (d, 2^d)
        codes = torch.stack([1 - bits, bits], 1).float()                           # (d, 2, 2^d)
        self.register_buffer("codes", codes)

    def forward(self, x):                         # (N, F)
        fv = torch.matmul(x, _entmax15(self.select)).view(-1, self.trees, self.depth)
        b = _entmoid15((fv - self.thresh) * torch.exp(-self.log_temp))
        bins = torch.stack([b, 1.0 - b], -1).unsqueeze(-2)                     # (N, T, d, 1, 2)
        match = torch.matmul(bins, self.codes).squeeze(-2)                     # (N, T, d, 2^d)
        w = match.prod(2)                                                      # (N, T, 2^d)
        return torch.matmul(w.transpose(0, 1), self.response).transpose(0, 1)  # (N, T, out)


class NODETabular(nn.Module):
    """NODE: 64 numeric features, four densely connected layers (each sees
    the input and every earlier layer's 256 x 2 outputs) of 256 trees of
    depth 6; the mean over all 1024 trees' 2-d responses."""

    def __init__(self, features=64, layers=4, trees=256, depth=6, out=2):
        super().__init__()
        self.layers = nn.ModuleList()
        cin = features
        for _ in range(layers):
            self.layers.append(_ObliviousLayer(cin, trees, depth, out))
            cin += trees * out
        self.norm = nn.BatchNorm1d(features)

    def forward(self, x):                         # (N, 64)
        feats = self.norm(x)
        outs = []
        for layer in self.layers:
            h = layer(feats)                                                   # (N, T, 2)
            outs.append(h)
            feats = torch.cat([feats, h.flatten(1)], 1)
        return torch.cat(outs, 1).mean(1)


def _knn(q, p, k):
    """Indices (N, Q, k) of the k nearest points of p (N, P, 3) to each
    query of q (N, Q, 3)."""
    d = (q * q).sum(-1, keepdim=True) - 2.0 * torch.matmul(q, p.transpose(1, 2)) \
        + (p * p).sum(-1).unsqueeze(1)
    return torch.topk(-d, k, -1)[1]


def _group(f, idx):
    """f (N, P, C) gathered at idx (N, Q, k): (N, Q, k, C)."""
    q, k = idx.shape[1], idx.shape[2]
    g = torch.gather(f, 1, idx.reshape(-1, q * k, 1).expand(-1, -1, f.shape[2]))
    return g.reshape(-1, q, k, f.shape[2])


class _PointTransformerBlock(nn.Module):
    """Linear, vector self-attention over the kNN, Linear, residual; the
    attention: softmax over neighbours of MLP(q_i - k_j + delta_ij) per
    channel applied to v_j + delta_ij, delta = MLP(p_i - p_j)."""

    def __init__(self, c, k=16):
        super().__init__()
        self.k = k
        self.lin_in = nn.Linear(c, c)
        self.q, self.kk, self.v = nn.Linear(c, c), nn.Linear(c, c), nn.Linear(c, c)
        self.pos = _mlp(3, c, c)
        self.attn = _mlp(c, c, c)
        self.lin_out = nn.Linear(c, c)
        self.n1, self.n2 = nn.LayerNorm(c), nn.LayerNorm(c)

    def forward(self, p, f, idx):                 # (N, P, 3), (N, P, C), (N, P, k)
        y = F.relu(self.n1(self.lin_in(f)))
        q = self.q(y)
        kj = _group(self.kk(y), idx)
        vj = _group(self.v(y), idx)
        delta = self.pos(p.unsqueeze(2) - _group(p, idx))                      # (N, P, k, C)
        a = torch.softmax(self.attn(q.unsqueeze(2) - kj + delta), 2)
        y = (a * (vj + delta)).sum(2)
        return F.relu(f + self.n2(self.lin_out(F.relu(y))))


class _TransitionDown(nn.Module):
    """Keep every stride-th point, Linear + LayerNorm + ReLU of [p_j - p_i,
    f_j] over each kept point's kNN among the previous points, max."""

    def __init__(self, cin, cout, stride, k=16):
        super().__init__()
        self.stride, self.k = stride, k
        self.lin = nn.Linear(cin + 3, cout)
        self.norm = nn.LayerNorm(cout)

    def forward(self, p, f):
        pk = p[:, ::self.stride]
        idx = _knn(pk, p, self.k)
        g = torch.cat([_group(p, idx) - pk.unsqueeze(2), _group(f, idx)], -1)
        return pk, F.relu(self.norm(self.lin(g))).amax(2)


class PointTransformerCls(nn.Module):
    """Point Transformer classifier: Linear 3 -> 32 and a block on 512
    points; transition-down (stride 4) to 128 points at 64 and a block;
    to 32 points at 128 and a block; mean pooling, MLP 128-256-40."""

    def __init__(self, widths=(32, 64, 128), k=16, classes=40):
        super().__init__()
        self.k = k
        self.stem = nn.Linear(3, widths[0])
        self.blocks = nn.ModuleList([_PointTransformerBlock(c, k) for c in widths])
        self.downs = nn.ModuleList([_TransitionDown(widths[i], widths[i + 1], 4, k)
                                    for i in range(len(widths) - 1)])
        self.head = nn.Sequential(nn.Linear(widths[-1], 256), nn.LayerNorm(256), nn.ReLU(),
                                  nn.Linear(256, classes))

    def forward(self, points):                    # (N, 512, 3)
        p = points
        f = self.blocks[0](p, F.relu(self.stem(p)), _knn(p, p, self.k))
        for down, block in zip(self.downs, self.blocks[1:]):
            p, f = down(p, f)
            f = block(p, f, _knn(p, p, self.k))
        return self.head(f.mean(1))


class _GraphormerLayer(nn.Module):
    def __init__(self, dim, heads, ff):
        super().__init__()
        self.n1, self.n2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.attn = _MHA(dim, heads)
        self.ff = _mlp(dim, ff, dim, nn.GELU)

    def forward(self, x, bias):
        y = self.n1(x)
        x = x + self.attn(y, y, bias)
        return x + self.ff(self.n2(x))


class GraphormerMol(nn.Module):
    """Graphormer on 64-node graphs: atom (32 types) plus degree (8 values)
    embeddings of 128, a graph token; spatial bias Embedding(16, 8 heads)
    of the pairwise shortest-path distance, a learned per-head bias for
    the graph token's row and column; six pre-LN layers (FFN 512, GELU),
    a final LayerNorm and a Linear on the graph token."""

    def __init__(self, types=32, degrees=8, dists=16, dim=128, heads=8, depth=6, ff=512):
        super().__init__()
        self.heads = heads
        self.atom = nn.Embedding(types, dim)
        self.degree = nn.Embedding(degrees, dim)
        self.spatial = nn.Embedding(dists, heads)
        self.token = nn.Parameter(torch.randn(1, 1, dim) * 0.02)
        self.token_bias = nn.Parameter(torch.zeros(1, heads, 1, 1))
        self.layers = nn.ModuleList([_GraphormerLayer(dim, heads, ff) for _ in range(depth)])
        self.norm = nn.LayerNorm(dim)
        self.out = nn.Linear(dim, 1)

    def forward(self, atoms, degree, spd):        # (N, A), (N, A), (N, A, A) int64
        a = atoms.shape[1]
        x = self.atom(atoms) + self.degree(degree)
        x = torch.cat([self.token.expand(x.shape[0], -1, -1), x], 1)          # (N, 1 + A, D)
        b = self.spatial(spd).permute(0, 3, 1, 2)                              # (N, h, A, A)
        col = self.token_bias.expand(b.shape[0], -1, a, 1)
        b = torch.cat([col, b], 3)
        b = torch.cat([self.token_bias.expand(b.shape[0], -1, 1, a + 1), b], 2)  # (N, h, 1+A, 1+A)
        for layer in self.layers:
            x = layer(x, b)
        return self.out(self.norm(x[:, 0]))


class _TwoStageAttention(nn.Module):
    """Crossformer TSA on (N, D, S, d): attention across the S segments of
    each series, then across the D series of each segment through c
    router tokens (routers gather from the series, series read back)."""

    def __init__(self, series, segs, dim, heads, routers):
        super().__init__()
        self.dims = (series, segs, dim)
        self.time = _MHA(dim, heads)
        self.send = _MHA(dim, heads)
        self.recv = _MHA(dim, heads)
        self.router = nn.Parameter(torch.randn(1, segs, routers, dim) * 0.02)
        self.n1, self.n2, self.n3, self.n4 = (nn.LayerNorm(dim) for _ in range(4))
        self.ff1, self.ff2 = _mlp(dim, 2 * dim, dim, nn.GELU), _mlp(dim, 2 * dim, dim, nn.GELU)

    def forward(self, x):                         # (N, D, S, d)
        dd, s, d = self.dims
        t = x.reshape(-1, s, d)
        t = self.n1(t + self.time(t, t))
        t = self.n2(t + self.ff1(t))
        y = t.reshape(-1, dd, s, d).transpose(1, 2).reshape(-1, dd, d)          # (N S, D, d)
        r = self.router.expand(x.shape[0], -1, -1, -1).reshape(-1, self.router.shape[2], d)
        buf = self.send(r, y)
        y = self.n3(y + self.recv(y, buf))
        y = self.n4(y + self.ff2(y))
        return y.reshape(-1, s, dd, d).transpose(1, 2)


class _SegMerge(nn.Module):
    def __init__(self, dim, win=2):
        super().__init__()
        self.win = win
        self.norm = nn.LayerNorm(win * dim)
        self.lin = nn.Linear(win * dim, dim)

    def forward(self, x):                         # (N, D, S, d)
        dd, s, d = x.shape[1], x.shape[2], x.shape[3]
        return self.lin(self.norm(x.reshape(-1, dd, s // self.win, self.win * d)))


class _CrossDecoderLayer(nn.Module):
    def __init__(self, series, segs, dim, heads, routers, seg_len):
        super().__init__()
        self.dims = (series, segs, dim)
        self.tsa = _TwoStageAttention(series, segs, dim, heads, routers)
        self.cross = _MHA(dim, heads)
        self.n1, self.n2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.ff = _mlp(dim, dim, dim, nn.GELU)
        self.pred = nn.Linear(dim, seg_len)

    def forward(self, x, mem):                    # (N, D, So, d), (N, D, Si, d)
        dd, so, d = self.dims
        x = self.tsa(x)
        q = x.reshape(-1, so, d)
        m = mem.reshape(-1, mem.shape[2], d)
        y = self.n1(q + self.cross(q, m))
        y = self.n2(y + self.ff(y))
        return y.reshape(-1, dd, so, d), self.pred(y).reshape(-1, dd, so * self.pred.out_features)


class CrossformerForecast(nn.Module):
    """Crossformer: 96 steps of 8 series, segments of 12 (8 per series)
    by a shared Linear to 128 plus a learned position, LayerNorm; encoder
    scales: TSA on 8 segments, then merge to 4 and TSA; the decoder's
    learned 4 x 128 query segments pass three layers (TSA, cross-attention
    to the embedding, scale 1, scale 2), the segment predictions summed;
    4 heads, 4 routers; (N, 48, 8)."""

    def __init__(self, series=8, length=96, pred=48, seg=12, dim=128, heads=4, routers=4):
        super().__init__()
        self.series, self.seg = series, seg
        si, so = length // seg, pred // seg
        self.segs = si
        self.embed = nn.Linear(seg, dim)
        self.enc_pos = nn.Parameter(torch.randn(1, series, si, dim) * 0.02)
        self.enc_norm = nn.LayerNorm(dim)
        self.enc1 = _TwoStageAttention(series, si, dim, heads, routers)
        self.merge = _SegMerge(dim)
        self.enc2 = _TwoStageAttention(series, si // 2, dim, heads, routers)
        self.dec_pos = nn.Parameter(torch.randn(1, series, so, dim) * 0.02)
        self.dec = nn.ModuleList([_CrossDecoderLayer(series, so, dim, heads, routers, seg)
                                  for _ in range(3)])

    def forward(self, series):                    # (N, 96, 8)
        x = series.transpose(1, 2).reshape(-1, self.series, self.segs, self.seg)
        x = self.enc_norm(self.embed(x) + self.enc_pos)                        # (N, D, S, d)
        e1 = self.enc1(x)
        e2 = self.enc2(self.merge(e1))
        y = self.dec_pos.expand(x.shape[0], -1, -1, -1)
        out = None
        for layer, mem in zip(self.dec, (x, e1, e2)):
            y, p = layer(y, mem)
            out = p if out is None else out + p
        return out.transpose(1, 2)


class _EncoderLayer(nn.Module):
    """Pre-LN transformer layer."""

    def __init__(self, dim, heads, ff):
        super().__init__()
        self.n1, self.n2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.attn = _MHA(dim, heads)
        self.ff = _mlp(dim, ff, dim, nn.GELU)

    def forward(self, x):
        y = self.n1(x)
        x = x + self.attn(y, y)
        return x + self.ff(self.n2(x))


class MaskGITDecode(nn.Module):
    """MaskGIT sampling: 64 tokens start as [MASK]; each of 8 steps runs a
    two-layer transformer (width 128, 4 heads, FFN 256) over the class
    token and the token embeddings plus positions, logits against the
    tied token embeddings, ArgMax; a still-masked token takes its
    prediction, its confidence is the log-probability plus the step's
    noise times a temperature falling linearly to 0 (fixed tokens get
    1e9); the floor(64 cos(pi/2 (t+1)/8)) least confident are masked
    again.  The codebook (512 x 32) vectors of the final tokens go
    through ConvTranspose layers to a 3 x 32 x 32 image."""

    def __init__(self, vocab=512, side=8, dim=128, heads=4, ff=256, depth=2, steps=8, classes=10,
                 code_dim=32, temp=4.5):
        super().__init__()
        self.vocab, self.len, self.steps, self.side, self.temp = vocab, side * side, steps, side, temp
        self.tok = nn.Embedding(vocab + 1, dim)
        self.cls = nn.Embedding(classes, dim)
        self.pos = nn.Parameter(torch.randn(1, side * side + 1, dim) * 0.02)
        self.layers = nn.ModuleList([_EncoderLayer(dim, heads, ff) for _ in range(depth)])
        self.norm = nn.LayerNorm(dim)
        self.mlm = nn.Linear(dim, dim)
        self.bias = nn.Parameter(torch.zeros(vocab))
        self.codebook = nn.Embedding(vocab, code_dim)
        self.dec = nn.Sequential(nn.Conv2d(code_dim, 64, 3, 1, 1), nn.ReLU(),
                                 nn.ConvTranspose2d(64, 32, 4, 2, 1), nn.ReLU(),
                                 nn.ConvTranspose2d(32, 16, 4, 2, 1), nn.ReLU(),
                                 nn.Conv2d(16, 3, 3, 1, 1), nn.Tanh())

    def forward(self, label, noise):              # (N, 1) int64, (N, 8, 64)
        tokens = torch.full_like(noise[:, 0], float(self.vocab)).long()       # (N, L)
        known = torch.zeros_like(noise[:, 0]) > 1.0
        c = self.cls(label)                                                    # (N, 1, D)
        for t in range(self.steps):
            x = torch.cat([c, self.tok(tokens)], 1) + self.pos
            for layer in self.layers:
                x = layer(x)
            h = self.norm(F.gelu(self.mlm(x[:, 1:])))
            logits = torch.matmul(h, self.tok.weight[:self.vocab].t()) + self.bias
            logp, pred = torch.log_softmax(logits, -1).max(-1)
            tokens = torch.where(known, tokens, pred)
            n_mask = int(math.floor(self.len * math.cos(0.5 * math.pi * (t + 1) / self.steps)))
            if n_mask <= 0:
                break
            temp = self.temp * (1.0 - (t + 1) / self.steps)
            conf = torch.where(known, torch.full_like(logp, 1e9), logp + temp * noise[:, t])
            cut = torch.topk(conf, n_mask, -1, largest=False)[0][:, -1:]
            remask = conf <= cut
            tokens = torch.where(remask, torch.full_like(tokens, self.vocab), tokens)
            known = ~remask
        z = self.codebook(tokens).transpose(1, 2).reshape(-1, self.codebook.embedding_dim,
                                                         self.side, self.side)
        return self.dec(z), tokens


class _RMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-5):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        return x * torch.rsqrt((x * x).mean(-1, keepdim=True) + self.eps) * self.weight


class _MambaBlock(nn.Module):
    """Residual RMSNorm + selective-SSM mixer."""

    def __init__(self, dim, inner, state, rank, conv):
        super().__init__()
        self.inner, self.state, self.rank = inner, state, rank
        self.norm = _RMSNorm(dim)
        self.in_proj = nn.Linear(dim, 2 * inner, bias=False)
        self.conv = nn.Conv1d(inner, inner, conv, groups=inner, padding=conv - 1)
        self.x_proj = nn.Linear(inner, rank + 2 * state, bias=False)
        self.dt_proj = nn.Linear(rank, inner)
        a = torch.arange(1, state + 1, dtype=torch.float32).repeat(inner, 1)
        self.a_log = nn.Parameter(torch.log(a))
        self.d = nn.Parameter(torch.ones(inner))
        self.out_proj = nn.Linear(inner, dim, bias=False)

    def forward(self, x):                         # (N, L, D)
        n = x.shape[1]
        xi, z = self.in_proj(self.norm(x)).chunk(2, -1)
        xi = F.silu(self.conv(xi.transpose(1, 2))[:, :, :n].transpose(1, 2))  # (N, L, E)
        dbc = self.x_proj(xi)
        dt = F.softplus(self.dt_proj(dbc[..., :self.rank]))                   # (N, L, E)
        bm = dbc[..., self.rank:self.rank + self.state]
        cm = dbc[..., self.rank + self.state:]
        da = torch.exp(dt.unsqueeze(-1) * -torch.exp(self.a_log))             # (N, L, E, S)
        dbx = (dt * xi).unsqueeze(-1) * bm.unsqueeze(2)                       # (N, L, E, S)
        h = None
        hs = []
        for a_t, b_t in zip(torch.split(da, 1, 1), torch.split(dbx, 1, 1)):
            h = b_t if h is None else a_t * h + b_t
            hs.append(h)
        y = torch.matmul(torch.cat(hs, 1), cm.unsqueeze(-1)).squeeze(-1)       # (N, L, E)
        y = (y + self.d * xi) * F.silu(z)
        return x + self.out_proj(y)


class MambaLM(nn.Module):
    """Mamba language model: 8000 x 128 embeddings, four blocks (inner 256,
    state 16, dt rank 8, conv 4), a final RMSNorm and tied logits at the
    last of the 64 positions."""

    def __init__(self, vocab=8000, dim=128, depth=4, inner=256, state=16, rank=8, conv=4):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.layers = nn.Sequential(*[_MambaBlock(dim, inner, state, rank, conv) for _ in range(depth)])
        self.norm = _RMSNorm(dim)

    def forward(self, tokens):                    # (N, 64) int64
        x = self.norm(self.layers(self.emb(tokens)))
        return torch.matmul(x[:, -1], self.emb.weight.t())


def _mgn_mlp(cin, hidden, cout, norm=True):
    layers = [nn.Linear(cin, hidden), nn.ReLU(), nn.Linear(hidden, cout)]
    if norm:
        layers.append(nn.LayerNorm(cout))
    return nn.Sequential(*layers)


class MeshGraphNetFlow(nn.Module):
    """MeshGraphNets on a 16 x 16 grid split into triangles along one
    diagonal (705 undirected, 1410 directed edges; at most 6 incoming per
    node): node features (velocity and node type, 5) and mesh positions;
    edge features [p_s - p_r, |p_s - p_r|]; encoders to 64; six steps of
    e += MLP([e, v_s, v_r]) and v += MLP([v, sum of incoming e]); decoder
    64-64-2."""

    def __init__(self, side=16, node_in=5, latent=64, steps=6, out=2):
        super().__init__()
        und = []
        for r in range(side):
            for c in range(side):
                i = r * side + c
                if c + 1 < side:
                    und.append((i, i + 1))
                if r + 1 < side:
                    und.append((i, i + side))
                if r + 1 < side and c + 1 < side:
                    und.append((i, i + side + 1))
        send = [a for a, b in und] + [b for a, b in und]
        recv = [b for a, b in und] + [a for a, b in und]
        edges = len(send)
        incoming = [[] for _ in range(side * side)]
        for e, r in enumerate(recv):
            incoming[r].append(e)
        deg = max(len(x) for x in incoming)
        table = [x + [edges] * (deg - len(x)) for x in incoming]   # index `edges`: a zero row
        self.deg = deg
        self.register_buffer("send", torch.tensor(send, dtype=torch.long))
        self.register_buffer("recv", torch.tensor(recv, dtype=torch.long))
        self.register_buffer("incoming", torch.tensor(table, dtype=torch.long).flatten())
        self.node_enc = _mgn_mlp(node_in, latent, latent)
        self.edge_enc = _mgn_mlp(3, latent, latent)
        self.edge_mlps = nn.ModuleList([_mgn_mlp(3 * latent, latent, latent) for _ in range(steps)])
        self.node_mlps = nn.ModuleList([_mgn_mlp(2 * latent, latent, latent) for _ in range(steps)])
        self.dec = _mgn_mlp(latent, latent, out, norm=False)

    def forward(self, nodes, mesh_pos):           # (N, 256, 5), (N, 256, 2)
        rel = mesh_pos[:, self.send] - mesh_pos[:, self.recv]                 # (N, E, 2)
        e = self.edge_enc(torch.cat([rel, rel.norm(dim=-1, keepdim=True)], -1))
        v = self.node_enc(nodes)
        n = v.shape[1]
        for edge_mlp, node_mlp in zip(self.edge_mlps, self.node_mlps):
            e = e + edge_mlp(torch.cat([e, v[:, self.send], v[:, self.recv]], -1))
            pad = torch.cat([e, torch.zeros_like(e[:, :1])], 1)
            agg = pad[:, self.incoming].reshape(-1, n, self.deg, e.shape[2]).sum(2)
            v = v + node_mlp(torch.cat([v, agg], -1))
        return self.dec(v)


BLIND28 = {
    "gillespie_enzyme": dict(ctor=GillespieEnzyme, family="gillespie-stochastic-simulation",
                             inputs=[("cond", ("N", 8), "float32", None),
                                     ("noise", ("N", 256, 32, 2), "float32", None)]),
    "omp_patch_coding": dict(ctor=OMPPatchCoding, family="orthogonal-matching-pursuit",
                             inputs=[("image", ("N", 1, 128, 128), "float32", None)]),
    "nlmeans_denoise": dict(ctor=NLMeansDenoise, family="non-local-means-patch-weighting",
                            inputs=[("image", ("N", 3, 128, 128), "float32", None)]),
    "dprnn_separator": dict(ctor=DPRNNSeparator, family="dual-path-chunked-rnn",
                            inputs=[("wave", ("N", 4000), "float32", None)]),
    "xdeepfm_ctr": dict(ctor=XDeepFMCtr, family="compressed-interaction-network",
                        inputs=[("dense", ("N", 13), "float32", None),
                                ("sparse", ("N", 26), "int64", 1000)]),
    "node_tabular": dict(ctor=NODETabular, family="neural-oblivious-decision-ensembles",
                         inputs=[("features", ("N", 64), "float32", None)]),
    "point_transformer_cls": dict(ctor=PointTransformerCls, family="point-vector-self-attention",
                                  inputs=[("points", ("N", 512, 3), "float32", None)]),
    "graphormer_mol": dict(ctor=GraphormerMol, family="spatial-encoding-graph-transformer",
                           inputs=[("atoms", ("N", 64), "int64", 32),
                                   ("degree", ("N", 64), "int64", 8),
                                   ("spd", ("N", 64, 64), "int64", 16)]),
    "crossformer_forecast": dict(ctor=CrossformerForecast, family="two-stage-cross-dimension-attention",
                                 inputs=[("series", ("N", 96, 8), "float32", None)]),
    "maskgit_decode": dict(ctor=MaskGITDecode, family="masked-token-parallel-decoding",
                           inputs=[("label", ("N", 1), "int64", 10),
                                   ("noise", ("N", 8, 64), "float32", None)]),
    "mamba_lm": dict(ctor=MambaLM, family="selective-state-space-scan",
                     inputs=[("tokens", ("N", 64), "int64", 8000)]),
    "meshgraphnet_flow": dict(ctor=MeshGraphNetFlow, family="encode-process-decode-mesh-gnn",
                              inputs=[("nodes", ("N", 256, 5), "float32", None),
                                      ("mesh_pos", ("N", 256, 2), "float32", None)]),
}
