r"""BLIND7: a seventh blind set, written on 2026-12-05 by a helper session,
before it was measured; to be measured before any further change and scored
with main as it stood when it was written first (the held-out figure), then
again after, both reported (bench/zoo_accuracy.py --set blind7).  Its
families are in no other set (ZOO, BLIND, BLIND2 ... BLIND6, the reference
models) and were in view of no plan rule, feature, fit or calibration: a
LLaMA-style rotary decoder (RMSNorm, SwiGLU, rotary embedding by Sin / Cos
and rotate-half), Reformer LSH attention (random-rotation hashing, ArgMax
buckets, a sort by bucket, chunked attention, un-sort; reversible layers),
non-local (embedded Gaussian) blocks in a ResNet, a RetinaNet-like feature
pyramid with shared heads, a two-stage detector's RoIAlign box head, a
message-passing GNN (Gather of edge endpoints, segment sums by CumSum and
Gather, GRU update), a ConvLSTM encoder-forecaster, RepLKNet large-kernel
depthwise convolutions, a convolutional VAE (reparameterised with a fed
noise input), an Evoformer-lite pair-representation block (outer-product
mean, triangle multiplicative updates by Einsum, triangle attention), an
STFT-as-Conv1d log-mel keyword spotter, and a Bahdanau additive-attention
GRU seq2seq.  None of them was run through onnxcost predict before being
measured.

Measured with

    OMP_WAIT_POLICY=PASSIVE /usr/bin/python3 scripts/measure_zoo.py --set blind7 \
        llama_decoder reformer_lm nonlocal_resnet retinanet_fpn roi_box_head mpnn_gru \
        convlstm_forecast replknet conv_vae evoformer_lite stft_kws bahdanau_seq2seq \
        --threads 1 2 --batches 1 4 16

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


class LlamaDecoder(nn.Module):
    """LLaMA-style causal decoder (Touvron et al., "LLaMA"): no biases,
    RMSNorm written out (x * 1 / sqrt(mean(x^2) + eps) * g) before
    attention and the MLP, rotary position embedding (Su et al., RoFormer)
    computed each run from the token positions (Range, outer product with
    the inverse frequencies, Sin / Cos, rotate-half by Slice / Neg /
    Concat), causal softmax attention, SwiGLU MLP (silu(x W1) * x W3) W2,
    final RMSNorm, untied output projection; 128 tokens."""

    class RMSNorm(nn.Module):
        def __init__(self, d, eps=1e-6):
            super().__init__()
            self.g = nn.Parameter(torch.ones(d))
            self.eps = eps

        def forward(self, x):
            return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.g

    class Layer(nn.Module):
        def __init__(self, d, heads, hidden):
            super().__init__()
            self.h, self.dh = heads, d // heads
            self.n1 = LlamaDecoder.RMSNorm(d)
            self.wq = nn.Linear(d, d, bias=False)
            self.wk = nn.Linear(d, d, bias=False)
            self.wv = nn.Linear(d, d, bias=False)
            self.wo = nn.Linear(d, d, bias=False)
            self.n2 = LlamaDecoder.RMSNorm(d)
            self.w1 = nn.Linear(d, hidden, bias=False)
            self.w3 = nn.Linear(d, hidden, bias=False)
            self.w2 = nn.Linear(hidden, d, bias=False)

        @staticmethod
        def rotate(x, cos, sin):
            half = x.shape[-1] // 2
            rot = torch.cat([-x[..., half:], x[..., :half]], dim=-1)
            return x * cos + rot * sin

        def forward(self, x, cos, sin, mask):
            L = x.shape[1]
            h = self.n1(x)
            q = self.wq(h).reshape(-1, L, self.h, self.dh).transpose(1, 2)
            k = self.wk(h).reshape(-1, L, self.h, self.dh).transpose(1, 2)
            v = self.wv(h).reshape(-1, L, self.h, self.dh).transpose(1, 2)
            q, k = self.rotate(q, cos, sin), self.rotate(k, cos, sin)
            a = torch.softmax(torch.matmul(q, k.transpose(2, 3)) / math.sqrt(self.dh) + mask,
                              dim=-1)
            x = x + self.wo(torch.matmul(a, v).transpose(1, 2).reshape(-1, L, self.h * self.dh))
            h = self.n2(x)
            return x + self.w2(F.silu(self.w1(h)) * self.w3(h))

    def __init__(self, vocab=8000, d=384, heads=6, depth=6, hidden=1024, L=128):
        super().__init__()
        self.dh = d // heads
        self.emb = nn.Embedding(vocab, d)
        self.layers = nn.ModuleList(LlamaDecoder.Layer(d, heads, hidden) for _ in range(depth))
        self.norm = LlamaDecoder.RMSNorm(d)
        self.head = nn.Linear(d, vocab, bias=False)
        half = self.dh // 2
        self.register_buffer("inv_freq", 10000.0 ** (-torch.arange(half).float() / half))
        i = torch.arange(L)
        self.register_buffer("mask", torch.where(i[None, :] > i[:, None], torch.tensor(-1e9),
                                                 torch.tensor(0.0)))

    def forward(self, tokens):                     # (N, 128)
        pos = torch.arange(tokens.shape[1], device=tokens.device).float()
        ang = pos[:, None] * self.inv_freq[None, :]                    # (L, dh/2)
        ang = torch.cat([ang, ang], dim=-1)
        cos, sin = torch.cos(ang), torch.sin(ang)
        x = self.emb(tokens)
        for layer in self.layers:
            x = layer(x, cos, sin, self.mask)
        return self.head(self.norm(x))


class ReformerLM(nn.Module):
    """Reformer (Kitaev et al.) encoder language model: reversible residual
    layers (y1 = x1 + Attn(x2), y2 = x2 + FF(y1), the model width split in
    two halves) with LSH attention -- shared query-key projection, angular
    locality-sensitive hashing (a fixed random rotation, ArgMax over
    [xR, -xR] into 16 buckets), a stable sort of the positions by bucket
    (ArgSort as TopK of bucket * L + position), the queries / values
    gathered into that order, chunks of 64 attending to themselves and the
    previous chunk with the self-match masked, and the result un-sorted by
    the inverse permutation (a second ArgSort and Gather); one hash
    round."""

    class LSHAttention(nn.Module):
        def __init__(self, d, heads, L, buckets, chunk):
            super().__init__()
            self.h, self.dh, self.L, self.c = heads, d // heads, L, chunk
            self.qk = nn.Linear(d, d, bias=False)
            self.v = nn.Linear(d, d, bias=False)
            self.o = nn.Linear(d, d)
            g = torch.Generator().manual_seed(7)
            self.register_buffer("rot", torch.randn(heads, self.dh, buckets // 2, generator=g))
            self.register_buffer("posf", torch.arange(L).float())

        def forward(self, x):                      # (N, L, d)
            H, dh, L, c = self.h, self.dh, self.L, self.c
            qk = self.qk(x).reshape(-1, L, H, dh).transpose(1, 2)        # (N, H, L, dh)
            v = self.v(x).reshape(-1, L, H, dh).transpose(1, 2)
            r = torch.matmul(F.normalize(qk, dim=-1), self.rot)         # (N, H, L, B/2)
            bucket = torch.cat([r, -r], dim=-1).argmax(-1).float()     # (N, H, L)
            order = torch.argsort(bucket * L + self.posf, dim=-1)      # (N, H, L)
            undo = torch.argsort(order, dim=-1)
            idx = order.unsqueeze(-1).expand(-1, -1, -1, dh)
            sq = torch.gather(qk, 2, idx)
            sv = torch.gather(v, 2, idx)
            spos = torch.gather(self.posf.expand_as(bucket), 2, order)
            n = L // c
            q = sq.reshape(-1, H, n, c, dh)
            k = F.normalize(q, dim=-1)
            vv = sv.reshape(-1, H, n, c, dh)
            p = spos.reshape(-1, H, n, c)
            k2 = torch.cat([k, torch.roll(k, 1, dims=2)], dim=3)        # (N, H, n, 2c, dh)
            v2 = torch.cat([vv, torch.roll(vv, 1, dims=2)], dim=3)
            p2 = torch.cat([p, torch.roll(p, 1, dims=2)], dim=3)
            s = torch.matmul(q, k2.transpose(-1, -2)) / math.sqrt(dh)  # (N, H, n, c, 2c)
            s = s - 1e5 * (p.unsqueeze(-1) == p2.unsqueeze(-2)).float()
            y = torch.matmul(torch.softmax(s, dim=-1), v2).reshape(-1, H, L, dh)
            y = torch.gather(y, 2, undo.unsqueeze(-1).expand(-1, -1, -1, dh))
            return self.o(y.transpose(1, 2).reshape(-1, L, H * dh))

    class Layer(nn.Module):
        def __init__(self, d, heads, ff, L, buckets, chunk):
            super().__init__()
            self.n1 = nn.LayerNorm(d)
            self.attn = ReformerLM.LSHAttention(d, heads, L, buckets, chunk)
            self.n2 = nn.LayerNorm(d)
            self.ff = nn.Sequential(nn.Linear(d, ff), nn.GELU(), nn.Linear(ff, d))

        def forward(self, x1, x2):
            y1 = x1 + self.attn(self.n1(x2))
            y2 = x2 + self.ff(self.n2(y1))
            return y1, y2

    def __init__(self, vocab=4000, d=256, heads=4, depth=4, ff=768, L=512, buckets=16,
                 chunk=64):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.pos = nn.Parameter(0.02 * torch.randn(L, d))
        self.layers = nn.ModuleList(ReformerLM.Layer(d, heads, ff, L, buckets, chunk)
                                    for _ in range(depth))
        self.norm = nn.LayerNorm(2 * d)
        self.head = nn.Linear(2 * d, vocab)

    def forward(self, tokens):                     # (N, 512)
        x = self.emb(tokens) + self.pos
        x1, x2 = x, x
        for layer in self.layers:
            x1, x2 = layer(x1, x2)
        return self.head(self.norm(torch.cat([x1, x2], dim=-1)))


class NonLocalResNet(nn.Module):
    """ResNet-18 layout with non-local blocks (Wang et al., "Non-local
    Neural Networks", embedded Gaussian form) after every block of the
    second and third stages: theta / phi / g 1x1 Convs to half the
    channels, softmax(theta^T phi) over all positions (a 1024 x 1024 or
    256 x 256 affinity per image), times g, a 1x1 Conv + BatchNorm back,
    residual; 128x128 images."""

    class NonLocal(nn.Module):
        def __init__(self, c):
            super().__init__()
            self.theta = nn.Conv2d(c, c // 2, 1)
            self.phi = nn.Conv2d(c, c // 2, 1)
            self.g = nn.Conv2d(c, c // 2, 1)
            self.w = nn.Sequential(nn.Conv2d(c // 2, c, 1, bias=False), nn.BatchNorm2d(c))

        def forward(self, x):
            h, w = x.shape[2], x.shape[3]
            t = self.theta(x).flatten(2).transpose(1, 2)              # (N, P, c/2)
            p = self.phi(x).flatten(2)                                 # (N, c/2, P)
            g = self.g(x).flatten(2).transpose(1, 2)
            y = torch.matmul(torch.softmax(torch.matmul(t, p), dim=-1), g)
            y = y.transpose(1, 2).reshape(-1, t.shape[2], h, w)
            return x + self.w(y)

    def __init__(self, widths=(64, 128, 256, 512), depth=(2, 2, 2, 2), classes=1000):
        super().__init__()
        self.stem = nn.Sequential(_bn_act(3, widths[0], 7, 2), nn.MaxPool2d(3, 2, 1))
        blocks, cin = [], widths[0]
        for i, (w, n) in enumerate(zip(widths, depth)):
            for j in range(n):
                blocks.append(_Basic(cin, w, 2 if (j == 0 and i > 0) else 1))
                cin = w
                if i in (1, 2):
                    blocks.append(NonLocalResNet.NonLocal(w))
        self.blocks = nn.Sequential(*blocks)
        self.fc = nn.Linear(cin, classes)

    def forward(self, x):                          # (N, 3, 128, 128)
        return self.fc(self.blocks(self.stem(x)).mean((2, 3)))


class RetinaNetFPN(nn.Module):
    """RetinaNet (Lin et al., "Focal Loss for Dense Object Detection"): a
    narrowed ResNet backbone, a feature pyramid (Lin et al., FPN) -- 1x1
    lateral Convs, nearest 2x Upsample and Add top-down, 3x3 smoothing;
    P6 / P7 by stride-2 Convs -- and class / box subnets (three 3x3 Conv
    + ReLU, then 9 anchors x 20 classes, 9 x 4 offsets) whose weights are
    shared across the five levels; outputs flattened and concatenated over
    levels (sigmoid scores, boxes); 256x256 images."""

    def __init__(self, widths=(32, 64, 128, 256), depth=(1, 2, 2, 1), fpn=96, convs=3,
                 anchors=9, classes=20):
        super().__init__()
        self.stem = nn.Sequential(_bn_act(3, widths[0], 7, 2), nn.MaxPool2d(3, 2, 1))
        stages, cin = [], widths[0]
        for i, (w, n) in enumerate(zip(widths, depth)):
            blocks = []
            for j in range(n):
                blocks.append(_Basic(cin, w, 2 if (j == 0 and i > 0) else 1))
                cin = w
            stages.append(nn.Sequential(*blocks))
        self.stages = nn.ModuleList(stages)
        self.lateral = nn.ModuleList(nn.Conv2d(w, fpn, 1) for w in widths[1:])
        self.smooth = nn.ModuleList(nn.Conv2d(fpn, fpn, 3, 1, 1) for _ in widths[1:])
        self.p6 = nn.Conv2d(widths[-1], fpn, 3, 2, 1)
        self.p7 = nn.Conv2d(fpn, fpn, 3, 2, 1)

        def subnet(out):
            layers = []
            for _ in range(convs):
                layers += [nn.Conv2d(fpn, fpn, 3, 1, 1), nn.ReLU()]
            return nn.Sequential(*layers, nn.Conv2d(fpn, out, 3, 1, 1))
        self.cls = subnet(anchors * classes)
        self.box = subnet(anchors * 4)
        self.classes, self.anchors = classes, anchors

    def forward(self, x):                          # (N, 3, 256, 256)
        x = self.stem(x)
        feats = []
        for st in self.stages:
            x = st(x)
            feats.append(x)
        c3, c4, c5 = feats[1:]
        p5 = self.lateral[2](c5)
        p4 = self.lateral[1](c4) + F.interpolate(p5, scale_factor=2.0, mode="nearest")
        p3 = self.lateral[0](c3) + F.interpolate(p4, scale_factor=2.0, mode="nearest")
        p3, p4, p5 = self.smooth[0](p3), self.smooth[1](p4), self.smooth[2](p5)
        p6 = self.p6(c5)
        p7 = self.p7(F.relu(p6))
        scores, boxes = [], []
        for p in (p3, p4, p5, p6, p7):
            cells = p.shape[2] * p.shape[3] * self.anchors
            scores.append(self.cls(p).permute(0, 2, 3, 1).reshape(-1, cells, self.classes))
            boxes.append(self.box(p).permute(0, 2, 3, 1).reshape(-1, cells, 4))
        return torch.sigmoid(torch.cat(scores, dim=1)), torch.cat(boxes, dim=1)


class RoIBoxHead(nn.Module):
    """The second stage of a two-stage detector (Girshick, Fast R-CNN; Ren
    et al., Faster R-CNN; RoIAlign from He et al., Mask R-CNN): a narrowed
    ResNet backbone to stride 16, 48 fixed proposal boxes per image
    (random centres and sizes drawn once, tiled over the batch with the
    image index, from a Range, as the first column), torchvision's roi_align to 7 x 7 (2 x 2
    samples per bin), a two-layer MLP head (Flatten, Linear 512, ReLU,
    Linear 512, ReLU), per-class scores and box deltas."""

    def __init__(self, widths=(48, 96, 192), depth=(2, 2, 2), boxes=48, hidden=512,
                 classes=21, size=224):
        super().__init__()
        from torchvision.ops import roi_align
        self.roi_align = roi_align
        self.stem = nn.Sequential(_bn_act(3, widths[0], 7, 2), nn.MaxPool2d(3, 2, 1))
        blocks, cin = [], widths[0]
        for i, (w, n) in enumerate(zip(widths, depth)):
            for j in range(n):
                blocks.append(_Basic(cin, w, 2 if (j == 0 and i > 0) else 1))
                cin = w
        self.blocks = nn.Sequential(*blocks)
        g = torch.Generator().manual_seed(3)
        ctr = torch.rand(boxes, 2, generator=g) * size
        wh = torch.rand(boxes, 2, generator=g) * (size / 2) + 16
        self.register_buffer("boxes", torch.cat([ctr - wh / 2, ctr + wh / 2], dim=1)
                             .clamp(0, size - 1))
        self.nb = boxes
        self.head = nn.Sequential(nn.Linear(cin * 49, hidden), nn.ReLU(),
                                  nn.Linear(hidden, hidden), nn.ReLU())
        self.cls = nn.Linear(hidden, classes)
        self.reg = nn.Linear(hidden, classes * 4)

    def forward(self, x):                          # (N, 3, 224, 224)
        f = self.blocks(self.stem(x))                                  # (N, C, 14, 14)
        img = torch.arange(x.shape[0], device=x.device).float()
        col = img[:, None, None].expand(-1, self.nb, 1)
        rois = torch.cat([col, self.boxes.expand(x.shape[0], -1, -1)], dim=2).reshape(-1, 5)
        r = self.roi_align(f, rois, (7, 7), spatial_scale=1.0 / 16, sampling_ratio=2)
        h = self.head(r.flatten(1))
        return (self.cls(h).reshape(-1, self.nb, self.cls.out_features),
                self.reg(h).reshape(-1, self.nb, self.reg.out_features))


class MPNN(nn.Module):
    """Message-passing neural network (Gilmer et al., "Neural Message
    Passing for Quantum Chemistry") on a fixed sparse graph of 512 nodes
    and 4096 directed edges (sorted by destination, uneven in-degree):
    node features embedded by a Linear; four rounds, each gathering both
    endpoints of every edge (Gather on the node axis), an edge MLP on the
    pair plus a learned edge-type embedding, the messages summed into
    their destination nodes by a segment sum (CumSum along the edges, two
    Gathers at the segment bounds, Sub), and a GRU update written out with
    Linears; readout by mean and max over the nodes, MLP."""

    class GRU(nn.Module):
        def __init__(self, d):
            super().__init__()
            self.x = nn.Linear(d, 3 * d)
            self.h = nn.Linear(d, 3 * d)

        def forward(self, m, h):
            xr, xz, xn = self.x(m).chunk(3, dim=-1)
            hr, hz, hn = self.h(h).chunk(3, dim=-1)
            r = torch.sigmoid(xr + hr)
            z = torch.sigmoid(xz + hz)
            n = torch.tanh(xn + r * hn)
            return (1 - z) * n + z * h

    def __init__(self, fin=32, d=128, nodes=512, edges=4096, etypes=4, rounds=4, out=12):
        super().__init__()
        g = torch.Generator().manual_seed(11)
        dst = torch.sort(torch.randint(0, nodes, (edges,), generator=g)).values
        src = torch.randint(0, nodes, (edges,), generator=g)
        counts = torch.bincount(dst, minlength=nodes)
        bounds = torch.cat([torch.zeros(1, dtype=torch.long), torch.cumsum(counts, 0)])
        self.register_buffer("src", src)
        self.register_buffer("dst", dst)
        self.register_buffer("lo", bounds[:-1].clone())
        self.register_buffer("hi", bounds[1:].clone())
        self.register_buffer("etype", torch.randint(0, etypes, (edges,), generator=g))
        self.rounds = rounds
        self.embed = nn.Linear(fin, d)
        self.eemb = nn.Embedding(etypes, d)
        self.msg = nn.ModuleList(nn.Sequential(nn.Linear(3 * d, d), nn.ReLU(), nn.Linear(d, d))
                                 for _ in range(rounds))
        self.gru = MPNN.GRU(d)
        self.readout = nn.Sequential(nn.Linear(2 * d, d), nn.ReLU(), nn.Linear(d, out))

    def forward(self, x):                          # (N, 512, 32)
        h = F.relu(self.embed(x))
        e = self.eemb(self.etype)                                      # (E, d)
        for i in range(self.rounds):
            hs = torch.index_select(h, 1, self.src)                    # (N, E, d)
            hd = torch.index_select(h, 1, self.dst)
            m = self.msg[i](torch.cat([hs, hd, e.expand_as(hs)], dim=-1))
            c = torch.cumsum(m, dim=1)
            c = torch.cat([torch.zeros_like(c[:, :1]), c], dim=1)      # (N, E+1, d)
            agg = torch.index_select(c, 1, self.hi) - torch.index_select(c, 1, self.lo)
            h = self.gru(agg, h)
        return self.readout(torch.cat([h.mean(1), h.amax(1)], dim=-1))


class ConvLSTMForecast(nn.Module):
    """ConvLSTM encoder-forecaster (Shi et al., "Convolutional LSTM
    Network", precipitation nowcasting / moving-MNIST form): frames
    downsampled by a stride-2 Conv, two stacked ConvLSTM cells (one 3x3
    Conv of [x, h] to the four gates, sigmoid / tanh, peephole-free)
    unrolled over 8 observed frames, then the forecaster cells, started
    from the encoder states, unrolled 4 more steps on their own output,
    each decoded by a 2x ConvTranspose to a frame; 64x64 single-channel
    frames."""

    class Cell(nn.Module):
        def __init__(self, cin, ch):
            super().__init__()
            self.ch = ch
            self.gates = nn.Conv2d(cin + ch, 4 * ch, 3, 1, 1)

        def forward(self, x, h, c):
            i, f, g, o = self.gates(torch.cat([x, h], dim=1)).chunk(4, dim=1)
            c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
            return torch.sigmoid(o) * torch.tanh(c), c

    def __init__(self, ch=32, feat=16, steps_in=8, steps_out=4):
        super().__init__()
        self.steps_in, self.steps_out, self.ch = steps_in, steps_out, ch
        self.down = nn.Sequential(nn.Conv2d(1, feat, 3, 2, 1), nn.LeakyReLU(0.2))
        self.enc1 = ConvLSTMForecast.Cell(feat, ch)
        self.enc2 = ConvLSTMForecast.Cell(ch, ch)
        self.dec1 = ConvLSTMForecast.Cell(feat, ch)
        self.dec2 = ConvLSTMForecast.Cell(ch, ch)
        self.up = nn.ConvTranspose2d(2 * ch, 1, 4, 2, 1)

    def forward(self, frames):                     # (N, 8, 1, 64, 64)
        x0 = self.down(frames[:, 0])
        h1 = c1 = h2 = c2 = torch.zeros(x0.shape[0], self.ch, x0.shape[2], x0.shape[3],
                                        device=x0.device)
        for t in range(self.steps_in):
            x = x0 if t == 0 else self.down(frames[:, t])
            h1, c1 = self.enc1(x, h1, c1)
            h2, c2 = self.enc2(h1, h2, c2)
        outs, prev = [], frames[:, -1]
        for _ in range(self.steps_out):
            h1, c1 = self.dec1(self.down(prev), h1, c1)
            h2, c2 = self.dec2(h1, h2, c2)
            prev = torch.sigmoid(self.up(torch.cat([h1, h2], dim=1)))
            outs.append(prev)
        return torch.stack(outs, dim=1)


class RepLKNet(nn.Module):
    """RepLKNet (Ding et al., "Scaling Up Your Kernels to 31x31"), inference
    form: a stride-4 stem, four stages whose RepLK blocks are BatchNorm,
    1x1 Conv, ReLU, a depthwise Conv with kernels 31 / 29 / 27 / 13 per
    stage (the small-kernel branch already merged in), 1x1 Conv, residual;
    each followed by a ConvFFN (BatchNorm, 1x1 expand x4, GELU, 1x1),
    residual; strided 3x3 transitions; narrowed widths on 128x128
    images."""

    class LKBlock(nn.Module):
        def __init__(self, c, k):
            super().__init__()
            self.lk = nn.Sequential(nn.BatchNorm2d(c), nn.Conv2d(c, c, 1), nn.ReLU(),
                                    nn.Conv2d(c, c, k, 1, k // 2, groups=c), nn.BatchNorm2d(c),
                                    nn.Conv2d(c, c, 1))
            self.ffn = nn.Sequential(nn.BatchNorm2d(c), nn.Conv2d(c, 4 * c, 1), nn.GELU(),
                                     nn.Conv2d(4 * c, c, 1))

        def forward(self, x):
            x = x + self.lk(x)
            return x + self.ffn(x)

    def __init__(self, widths=(64, 128, 256, 512), depth=(2, 2, 6, 2), kernels=(31, 29, 27, 13),
                 classes=1000):
        super().__init__()
        self.stem = nn.Sequential(_bn_act(3, widths[0], 3, 2), _bn_act(widths[0], widths[0], 3, 1,
                                                                         groups=widths[0]),
                                  _bn_act(widths[0], widths[0], 1), _bn_act(widths[0], widths[0],
                                                                            3, 2,
                                                                            groups=widths[0]))
        layers, cin = [], widths[0]
        for i, (w, n, k) in enumerate(zip(widths, depth, kernels)):
            if i > 0:
                layers += [_bn_act(cin, w, 1), _bn_act(w, w, 3, 2, groups=w)]
            layers += [RepLKNet.LKBlock(w, k) for _ in range(n)]
            cin = w
        self.body = nn.Sequential(*layers)
        self.norm = nn.BatchNorm2d(cin)
        self.fc = nn.Linear(cin, classes)

    def forward(self, x):                          # (N, 3, 128, 128)
        return self.fc(self.norm(self.body(self.stem(x))).mean((2, 3)))


class ConvVAE(nn.Module):
    """Convolutional variational autoencoder (Kingma & Welling, "Auto-
    Encoding Variational Bayes"): five stride-2 Conv + BatchNorm +
    LeakyReLU stages from 128x128 RGB down to 4x4, Linears to the
    posterior mean and log-variance, the reparameterised sample z = mu +
    exp(logvar / 2) * eps with eps a fed noise input, a Linear back to a
    4x4 map, five ConvTranspose + BatchNorm + ReLU stages and a 3x3 Conv to
    a sigmoid 128x128 reconstruction; also returns mu and logvar (for the
    KL term)."""

    def __init__(self, widths=(48, 96, 192, 384, 512), latent=128):
        super().__init__()
        enc, cin = [], 3
        for w in widths:
            enc += [nn.Conv2d(cin, w, 4, 2, 1, bias=False), nn.BatchNorm2d(w),
                    nn.LeakyReLU(0.2)]
            cin = w
        self.enc = nn.Sequential(*enc)
        self.mu = nn.Linear(cin * 16, latent)
        self.logvar = nn.Linear(cin * 16, latent)
        self.fc = nn.Linear(latent, cin * 16)
        dec = []
        for w in list(widths[::-1][1:]) + [32]:
            dec += [nn.ConvTranspose2d(cin, w, 4, 2, 1, bias=False), nn.BatchNorm2d(w),
                    nn.ReLU()]
            cin = w
        self.dec = nn.Sequential(*dec, nn.Conv2d(cin, 3, 3, 1, 1))
        self.c = widths[-1]

    def forward(self, x, eps):                     # (N, 3, 128, 128), (N, 128)
        h = self.enc(x).flatten(1)
        mu, logvar = self.mu(h), self.logvar(h)
        z = mu + torch.exp(0.5 * logvar) * eps
        y = self.dec(self.fc(z).reshape(-1, self.c, 4, 4))
        return torch.sigmoid(y), mu, logvar


class EvoformerLite(nn.Module):
    """Evoformer-lite (Jumper et al., AlphaFold 2) on 64 residues and 16 MSA
    rows: MSA embedding plus the target sequence's outer sum and a relative
    position embedding (Gather of clipped offsets) as the pair tensor;
    each of two blocks runs MSA row attention biased by the pair, MSA
    column attention, an MSA transition, the outer-product mean into the
    pair (Einsum), triangle multiplicative updates outgoing and incoming
    (gated projections, Einsum over the third node), triangle attention
    around the starting node (axial attention over pair rows, biased by a
    projection of the pair) and a pair transition; a distogram head."""

    class Attn(nn.Module):
        def __init__(self, d, heads, dh, bias_from=None):
            super().__init__()
            self.h, self.dh = heads, dh
            self.norm = nn.LayerNorm(d)
            self.qkv = nn.Linear(d, 3 * heads * dh, bias=False)
            self.gate = nn.Linear(d, heads * dh)
            self.o = nn.Linear(heads * dh, d)
            self.bias = None
            if bias_from is not None:
                self.bnorm = nn.LayerNorm(bias_from)
                self.bias = nn.Linear(bias_from, heads, bias=False)

        def forward(self, x, pair=None):           # x (N, A, B, d): attend over B
            A, B = x.shape[1], x.shape[2]
            H, dh = self.h, self.dh
            h = self.norm(x)
            q, k, v = self.qkv(h).reshape(-1, A, B, 3, H, dh).permute(3, 0, 1, 4, 2, 5).unbind(0)
            s = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(dh)   # (N, A, H, B, B)
            if self.bias is not None:
                s = s + self.bias(self.bnorm(pair)).permute(0, 3, 1, 2).unsqueeze(1)
            y = torch.matmul(torch.softmax(s, dim=-1), v)              # (N, A, H, B, dh)
            y = y.permute(0, 1, 3, 2, 4).reshape(-1, A, B, H * dh)
            return x + self.o(torch.sigmoid(self.gate(h)) * y)

    class TriMul(nn.Module):
        def __init__(self, c, hidden, outgoing):
            super().__init__()
            self.outgoing = outgoing
            self.norm = nn.LayerNorm(c)
            self.ab = nn.Linear(c, 2 * hidden)
            self.gab = nn.Linear(c, 2 * hidden)
            self.g = nn.Linear(c, c)
            self.onorm = nn.LayerNorm(hidden)
            self.o = nn.Linear(hidden, c)

        def forward(self, z):                      # (N, R, R, c)
            h = self.norm(z)
            a, b = (torch.sigmoid(self.gab(h)) * self.ab(h)).chunk(2, dim=-1)
            if self.outgoing:
                t = torch.einsum("nikc,njkc->nijc", a, b)
            else:
                t = torch.einsum("nkic,nkjc->nijc", a, b)
            return z + torch.sigmoid(self.g(h)) * self.o(self.onorm(t))

    class Block(nn.Module):
        def __init__(self, cm, cz, heads, opm):
            super().__init__()
            E = EvoformerLite
            self.row = E.Attn(cm, heads, 32, bias_from=cz)
            self.col = E.Attn(cm, heads, 32)
            self.mtrans = nn.Sequential(nn.LayerNorm(cm), nn.Linear(cm, 4 * cm), nn.ReLU(),
                                        nn.Linear(4 * cm, cm))
            self.opm_norm = nn.LayerNorm(cm)
            self.opm_ab = nn.Linear(cm, 2 * opm)
            self.opm_o = nn.Linear(opm * opm, cz)
            self.tri_out = E.TriMul(cz, cz, True)
            self.tri_in = E.TriMul(cz, cz, False)
            self.tri_att = E.Attn(cz, 4, 16, bias_from=cz)
            self.ztrans = nn.Sequential(nn.LayerNorm(cz), nn.Linear(cz, 4 * cz), nn.ReLU(),
                                        nn.Linear(4 * cz, cz))
            self.opm = opm

        def forward(self, m, z):                   # m (N, S, R, cm), z (N, R, R, cz)
            S, R = m.shape[1], m.shape[2]
            m = self.row(m, z)
            m = self.col(m.transpose(1, 2)).transpose(1, 2)
            m = m + self.mtrans(m)
            a, b = self.opm_ab(self.opm_norm(m)).chunk(2, dim=-1)     # (N, S, R, opm)
            o = torch.einsum("nsic,nsjd->nijcd", a, b).reshape(-1, R, R, self.opm * self.opm)
            z = z + self.opm_o(o / S)
            z = self.tri_out(z)
            z = self.tri_in(z)
            z = self.tri_att(z, z)
            return m, z + self.ztrans(z)

    def __init__(self, aa=21, cm=64, cz=64, heads=4, opm=16, depth=2, R=64, bins=64,
                 maxrel=32):
        super().__init__()
        self.msa_emb = nn.Embedding(aa, cm)
        self.left = nn.Embedding(aa, cz)
        self.right = nn.Embedding(aa, cz)
        self.relpos = nn.Embedding(2 * maxrel + 1, cz)
        i = torch.arange(R)
        self.register_buffer("rel", (i[None, :] - i[:, None]).clamp(-maxrel, maxrel) + maxrel)
        self.blocks = nn.ModuleList(EvoformerLite.Block(cm, cz, heads, opm)
                                    for _ in range(depth))
        self.dist = nn.Sequential(nn.LayerNorm(cz), nn.Linear(cz, bins))

    def forward(self, msa):                        # (N, 16, 64) residue types
        target = msa[:, 0]
        m = self.msa_emb(msa)
        z = self.left(target)[:, :, None] + self.right(target)[:, None, :] + self.relpos(self.rel)
        for blk in self.blocks:
            m, z = blk(m, z)
        z = 0.5 * (z + z.transpose(1, 2))
        return self.dist(z)


class STFTKeywordSpotter(nn.Module):
    """Keyword spotter on one second of 16 kHz audio with its front end in
    the graph: the short-time Fourier transform as a strided Conv1d whose
    fixed kernels are Hann-windowed cosines and sines (512-sample frames,
    hop 160), the magnitude sqrt(re^2 + im^2), a triangular mel filterbank
    (40 bands) as a MatMul, log(x + 1e-6), then a small VGG-like CNN
    (Sainath & Parada's "Convolutional Neural Networks for Small-footprint
    Keyword Spotting" in spirit: 3x3 Conv + BatchNorm + ReLU pairs with
    pooling), global pool, 12 keyword classes."""

    def __init__(self, n_fft=512, hop=160, mels=40, sr=16000, widths=(64, 128, 192, 256),
                 classes=12):
        super().__init__()
        bins = n_fft // 2 + 1
        n = torch.arange(n_fft).float()
        k = torch.arange(bins).float()
        win = 0.5 - 0.5 * torch.cos(2 * math.pi * n / n_fft)
        ang = 2 * math.pi * k[:, None] * n[None, :] / n_fft
        kern = torch.cat([torch.cos(ang) * win, -torch.sin(ang) * win]).unsqueeze(1)
        self.register_buffer("kern", kern)                             # (2 bins, 1, n_fft)
        self.hop, self.bins = hop, bins

        def mel(f):
            return 2595 * math.log10(1 + f / 700)
        pts = torch.linspace(mel(0), mel(sr / 2), mels + 2)
        hz = 700 * (10 ** (pts / 2595) - 1)
        fk = k * sr / n_fft
        lo, ce, hi = hz[:-2, None], hz[1:-1, None], hz[2:, None]
        fb = torch.clamp(torch.minimum((fk - lo) / (ce - lo), (hi - fk) / (hi - ce)), min=0)
        self.register_buffer("fb", fb.t().contiguous())               # (bins, mels)
        layers, cin = [], 1
        for i, w in enumerate(widths):
            layers += [_bn_act(cin, w), _bn_act(w, w)]
            if i < len(widths) - 1:
                layers.append(nn.MaxPool2d(2))
            cin = w
        self.cnn = nn.Sequential(*layers)
        self.fc = nn.Linear(cin, classes)

    def forward(self, wav):                        # (N, 16000)
        spec = F.conv1d(wav.unsqueeze(1), self.kern, stride=self.hop)  # (N, 2 bins, T)
        re, im = spec[:, :self.bins], spec[:, self.bins:]
        mag = torch.sqrt(re * re + im * im + 1e-9)
        logmel = torch.log(torch.matmul(mag.transpose(1, 2), self.fb) + 1e-6)   # (N, T, mels)
        return self.fc(self.cnn(logmel.transpose(1, 2).unsqueeze(1)).mean((2, 3)))


class BahdanauSeq2Seq(nn.Module):
    """RNNsearch (Bahdanau, Cho & Bengio, "Neural Machine Translation by
    Jointly Learning to Align and Translate"): a bidirectional GRU encoder
    over 40 source tokens, a decoder GRU (written out with Linears)
    unrolled over 30 teacher-forced target tokens, each step scoring every
    annotation with additive attention v^T tanh(W s + U h_j) (U h
    precomputed once), softmax, context as a weighted sum, the GRU fed the
    previous target embedding and the context, and a deep output (Linear
    of state, context and embedding, maxout of pairs) to the vocabulary."""

    def __init__(self, vocab=8000, emb=256, enc=256, dec=512, att=256, maxout=256, src_len=40,
                 tgt_len=30):
        super().__init__()
        self.tgt_len = tgt_len
        self.src_emb = nn.Embedding(vocab, emb)
        self.tgt_emb = nn.Embedding(vocab, emb)
        self.encoder = nn.GRU(emb, enc, batch_first=True, bidirectional=True)
        self.init = nn.Linear(enc, dec)
        self.W = nn.Linear(dec, att, bias=False)
        self.U = nn.Linear(2 * enc, att)
        self.v = nn.Linear(att, 1, bias=False)
        self.gx = nn.Linear(emb + 2 * enc, 3 * dec)
        self.gh = nn.Linear(dec, 3 * dec)
        self.deep = nn.Linear(dec + 2 * enc + emb, 2 * maxout)
        self.out = nn.Linear(maxout, vocab)
        self.maxout = maxout

    def forward(self, src, tgt):                   # (N, 40), (N, 30)
        ann, _ = self.encoder(self.src_emb(src))                       # (N, S, 2 enc)
        enc_half = ann.shape[2] // 2
        s = torch.tanh(self.init(ann[:, 0, enc_half:]))                # backward state
        keys = self.U(ann)
        e = self.tgt_emb(tgt)
        outs = []
        for t in range(self.tgt_len):
            score = self.v(torch.tanh(keys + self.W(s).unsqueeze(1)))  # (N, S, 1)
            alpha = torch.softmax(score, dim=1)
            ctx = (alpha * ann).sum(1)
            y = e[:, t]
            xr, xz, xn = self.gx(torch.cat([y, ctx], dim=-1)).chunk(3, dim=-1)
            hr, hz, hn = self.gh(s).chunk(3, dim=-1)
            r, z = torch.sigmoid(xr + hr), torch.sigmoid(xz + hz)
            s = (1 - z) * torch.tanh(xn + r * hn) + z * s
            d = self.deep(torch.cat([s, ctx, y], dim=-1)).reshape(-1, self.maxout, 2).amax(-1)
            outs.append(self.out(d))
        return torch.stack(outs, dim=1)


def _img(size, ch=3):
    return [("input", ("N", ch, size, size), "float32", None)]


BLIND7 = {
    "llama_decoder": dict(ctor=LlamaDecoder, family="rotary-decoder",
                          inputs=[("tokens", ("N", 128), "int64", 8000)]),
    "reformer_lm": dict(ctor=ReformerLM, family="hashed-attention",
                        inputs=[("tokens", ("N", 512), "int64", 4000)]),
    "nonlocal_resnet": dict(ctor=NonLocalResNet, family="non-local", inputs=_img(128)),
    "retinanet_fpn": dict(ctor=RetinaNetFPN, family="feature-pyramid-detector",
                          inputs=_img(256)),
    "roi_box_head": dict(ctor=RoIBoxHead, family="roi-align-head", inputs=_img(224)),
    "mpnn_gru": dict(ctor=MPNN, family="message-passing-gnn",
                     inputs=[("nodes", ("N", 512, 32), "float32", None)]),
    "convlstm_forecast": dict(ctor=ConvLSTMForecast, family="conv-lstm",
                              inputs=[("frames", ("N", 8, 1, 64, 64), "float32", None)]),
    "replknet": dict(ctor=RepLKNet, family="large-kernel-conv", inputs=_img(128)),
    "conv_vae": dict(ctor=ConvVAE, family="variational-autoencoder",
                     inputs=[("image", ("N", 3, 128, 128), "float32", None),
                             ("eps", ("N", 128), "float32", None)]),
    "evoformer_lite": dict(ctor=EvoformerLite, family="pair-representation",
                           inputs=[("msa", ("N", 16, 64), "int64", 21)]),
    "stft_kws": dict(ctor=STFTKeywordSpotter, family="spectrogram-frontend",
                     inputs=[("wav", ("N", 16000), "float32", None)]),
    "bahdanau_seq2seq": dict(ctor=BahdanauSeq2Seq, family="additive-attention-seq2seq",
                             inputs=[("src", ("N", 40), "int64", 8000),
                                     ("tgt", ("N", 30), "int64", 8000)]),
}
