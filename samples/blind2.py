"""BLIND2: a second blind set, written on 2026-12-04 (fifth session) and
measured before any change of that session; its families are in no other
set (ZOO, HOLDOUT, BLIND) and were in view of no plan rule, feature, fit or
calibration: point clouds, super-resolution, style transfer,
recommendation, graph convolution, text convolution, gated dilated audio
convolution, conv/transformer hybrids, linear attention, multi-resolution
pose nets and coordinate MLPs.  Scored with the state of main at the
session's start first (the held-out figure), then again at the end, both
reported (bench/zoo_accuracy.py --set blind2).

Same table form as export.py's ZOO (ctor, family, inputs, run); exported by
scripts/ort_graphs.py's export() (opset 13, symbolic batch N).
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class PointNetLike(nn.Module):
    """PointNet classifier: a 3x3 input transform predicted by a small
    shared MLP, a shared per-point MLP (Conv1d 1x1 + BN + ReLU), max over
    points, then a classifier MLP."""

    def __init__(self, classes=40):
        super().__init__()

        def shared(sizes):
            layers = []
            for a, b in zip(sizes, sizes[1:]):
                layers += [nn.Conv1d(a, b, 1), nn.BatchNorm1d(b), nn.ReLU()]
            return nn.Sequential(*layers)

        self.tnet = shared([3, 64, 128, 256])
        self.tfc = nn.Sequential(nn.Linear(256, 128), nn.ReLU(), nn.Linear(128, 9))
        self.feat = shared([3, 64, 128, 1024])
        self.head = nn.Sequential(nn.Linear(1024, 512), nn.BatchNorm1d(512), nn.ReLU(),
                                  nn.Linear(512, 256), nn.ReLU(), nn.Linear(256, classes))

    def forward(self, pts):                       # (N, 3, P)
        t = self.tnet(pts).amax(dim=2)
        t = self.tfc(t).reshape(-1, 3, 3) + torch.eye(3)
        pts = torch.bmm(t, pts)
        return self.head(self.feat(pts).amax(dim=2))


class EDSRLite(nn.Module):
    """EDSR-style x2 super-resolution: no BatchNorm, residual blocks with a
    0.1 residual scale, a long skip, sub-pixel upsampling (PixelShuffle)."""

    def __init__(self, width=48, blocks=6, scale=2):
        super().__init__()
        self.head = nn.Conv2d(3, width, 3, padding=1)
        self.body = nn.ModuleList(nn.Sequential(
            nn.Conv2d(width, width, 3, padding=1), nn.ReLU(),
            nn.Conv2d(width, width, 3, padding=1)) for _ in range(blocks))
        self.tail = nn.Conv2d(width, width, 3, padding=1)
        self.up = nn.Sequential(nn.Conv2d(width, width * scale * scale, 3, padding=1),
                                nn.PixelShuffle(scale), nn.Conv2d(width, 3, 3, padding=1))

    def forward(self, x):
        x = self.head(x)
        y = x
        for b in self.body:
            y = y + 0.1 * b(y)
        return self.up(x + self.tail(y))


class StyleTransferNet(nn.Module):
    """Johnson-style feed-forward style transfer: reflection padding,
    InstanceNorm, strided down-sampling, residual blocks, nearest
    upsampling + Conv instead of transposed convolutions."""

    class CL(nn.Module):
        def __init__(self, cin, cout, k, stride=1, up=1, relu=True, norm=True):
            super().__init__()
            self.up = up
            self.pad = nn.ReflectionPad2d(k // 2)
            self.conv = nn.Conv2d(cin, cout, k, stride)
            self.norm = nn.InstanceNorm2d(cout, affine=True) if norm else None
            self.relu = relu

        def forward(self, x):
            if self.up > 1:
                x = F.interpolate(x, scale_factor=self.up, mode="nearest")
            x = self.conv(self.pad(x))
            if self.norm is not None:
                x = self.norm(x)
            return F.relu(x) if self.relu else x

    def __init__(self, res=3):
        super().__init__()
        CL = StyleTransferNet.CL
        self.down = nn.Sequential(CL(3, 32, 9), CL(32, 64, 3, 2), CL(64, 128, 3, 2))
        self.res = nn.ModuleList(nn.Sequential(CL(128, 128, 3), CL(128, 128, 3, relu=False))
                                 for _ in range(res))
        self.upn = nn.Sequential(CL(128, 64, 3, up=2), CL(64, 32, 3, up=2),
                                 CL(32, 3, 9, relu=False, norm=False))

    def forward(self, x):
        x = self.down(x)
        for r in self.res:
            x = x + r(x)
        return torch.sigmoid(self.upn(x))


class DLRMLike(nn.Module):
    """DLRM-style recommender: a bottom MLP on dense features, one embedding
    table per categorical feature, pairwise dot-product interaction (BMM of
    the stacked vectors, upper triangle), a top MLP."""

    def __init__(self, dense=13, tables=8, rows=10000, dim=32):
        super().__init__()
        self.tables = tables
        self.bottom = nn.Sequential(nn.Linear(dense, 256), nn.ReLU(), nn.Linear(256, 64),
                                    nn.ReLU(), nn.Linear(64, dim), nn.ReLU())
        self.emb = nn.ModuleList(nn.Embedding(rows, dim) for _ in range(tables))
        n = tables + 1
        iu = torch.triu_indices(n, n, offset=1)
        self.register_buffer("flat", iu[0] * n + iu[1])
        self.top = nn.Sequential(nn.Linear(dim + len(iu[0]), 256), nn.ReLU(),
                                 nn.Linear(256, 128), nn.ReLU(), nn.Linear(128, 1))

    def forward(self, dense, sparse):              # (N, 13), (N, 8)
        d = self.bottom(dense)
        vs = [d] + [self.emb[i](sparse[:, i]) for i in range(self.tables)]
        z = torch.stack(vs, dim=1)                 # (N, 9, dim)
        inter = torch.bmm(z, z.transpose(1, 2)).flatten(1)
        inter = inter.index_select(1, self.flat)
        return torch.sigmoid(self.top(torch.cat([d, inter], dim=1)))


class GCNDense(nn.Module):
    """Graph convolution on dense normalised adjacency matrices, one graph per
    batch item: A @ (X @ W) + ReLU, three layers, mean readout, Linear."""

    def __init__(self, feats=64, hidden=128, layers=3, classes=10):
        super().__init__()
        sizes = [feats] + [hidden] * layers
        self.w = nn.ModuleList(nn.Linear(a, b) for a, b in zip(sizes, sizes[1:]))
        self.out = nn.Linear(hidden, classes)

    def forward(self, x, adj):                     # (N, V, F), (N, V, V)
        for w in self.w:
            x = F.relu(torch.bmm(adj, w(x)))
        return self.out(x.mean(dim=1))


class TextCNN(nn.Module):
    """Kim-style sentence classifier: token embeddings, parallel Conv1d of
    widths 3/4/5, ReLU, max over time, concatenation, Linear."""

    def __init__(self, vocab=20000, dim=128, filters=100, classes=5):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.convs = nn.ModuleList(nn.Conv1d(dim, filters, k) for k in (3, 4, 5))
        self.fc = nn.Linear(3 * filters, classes)

    def forward(self, tokens):                     # (N, L)
        x = self.emb(tokens).transpose(1, 2)
        return self.fc(torch.cat([F.relu(c(x)).amax(dim=2) for c in self.convs], dim=1))


class WaveNetLike(nn.Module):
    """WaveNet-style stack: causal (left-padded) dilated Conv1d pairs with a
    tanh x sigmoid gate, 1x1 residual and skip convolutions, dilations
    1..512, ReLU-1x1-ReLU-1x1 output over 256 classes."""

    def __init__(self, ch=32, skip=64, layers=10, classes=256):
        super().__init__()
        self.inp = nn.Conv1d(1, ch, 1)
        self.dil = [2 ** i for i in range(layers)]
        self.filt = nn.ModuleList(nn.Conv1d(ch, ch, 2, dilation=d) for d in self.dil)
        self.gate = nn.ModuleList(nn.Conv1d(ch, ch, 2, dilation=d) for d in self.dil)
        self.res = nn.ModuleList(nn.Conv1d(ch, ch, 1) for _ in self.dil)
        self.skip = nn.ModuleList(nn.Conv1d(ch, skip, 1) for _ in self.dil)
        self.out = nn.Sequential(nn.ReLU(), nn.Conv1d(skip, skip, 1), nn.ReLU(),
                                 nn.Conv1d(skip, classes, 1))

    def forward(self, wave):                       # (N, 1, T)
        x = self.inp(wave)
        s = 0
        for d, f, g, r, k in zip(self.dil, self.filt, self.gate, self.res, self.skip):
            p = F.pad(x, (d, 0))
            h = torch.tanh(f(p)) * torch.sigmoid(g(p))
            x = x + r(h)
            s = s + k(h)
        return self.out(s)


class MobileViTLike(nn.Module):
    """MobileViT-style hybrid: inverted-residual (MV2) blocks, and blocks that
    unfold 2x2 patches into token sequences, run a small transformer over
    them, fold back and fuse with the local features."""

    class MV2(nn.Module):
        def __init__(self, cin, cout, stride, exp=4):
            super().__init__()
            h = cin * exp
            self.use_res = stride == 1 and cin == cout
            self.f = nn.Sequential(
                nn.Conv2d(cin, h, 1, bias=False), nn.BatchNorm2d(h), nn.SiLU(),
                nn.Conv2d(h, h, 3, stride, 1, groups=h, bias=False), nn.BatchNorm2d(h),
                nn.SiLU(), nn.Conv2d(h, cout, 1, bias=False), nn.BatchNorm2d(cout))

        def forward(self, x):
            return x + self.f(x) if self.use_res else self.f(x)

    class ViTBlock(nn.Module):
        def __init__(self, ch, d, depth, heads=4, patch=2):
            super().__init__()
            self.p = patch
            self.local = nn.Sequential(nn.Conv2d(ch, ch, 3, 1, 1), nn.SiLU(),
                                       nn.Conv2d(ch, d, 1))
            layer = nn.TransformerEncoderLayer(d, heads, 2 * d, dropout=0.0,
                                               activation="gelu", batch_first=True,
                                               norm_first=True)
            self.tf = nn.TransformerEncoder(layer, depth)
            self.proj = nn.Conv2d(d, ch, 1)
            self.fuse = nn.Conv2d(2 * ch, ch, 3, 1, 1)

        def forward(self, x):
            y = self.local(x)
            _, d, h, w = y.shape
            p = self.p
            # (N, d, h, w) -> (N * p * p, h/p * w/p, d)
            t = y.reshape(-1, d, h // p, p, w // p, p).permute(0, 3, 5, 2, 4, 1)
            t = t.reshape(-1, (h // p) * (w // p), d)
            t = self.tf(t)
            t = t.reshape(-1, p, p, h // p, w // p, d).permute(0, 5, 3, 1, 4, 2)
            y = self.proj(t.reshape(-1, d, h, w))
            return self.fuse(torch.cat([x, y], dim=1))

    def __init__(self, classes=1000):
        super().__init__()
        MV2, VB = MobileViTLike.MV2, MobileViTLike.ViTBlock
        self.net = nn.Sequential(
            nn.Conv2d(3, 16, 3, 2, 1), nn.BatchNorm2d(16), nn.SiLU(),
            MV2(16, 16, 1), MV2(16, 24, 2), MV2(24, 24, 1),
            MV2(24, 48, 2), VB(48, 64, 2),
            MV2(48, 64, 2), VB(64, 80, 2),
            MV2(64, 80, 2), VB(80, 96, 2),
            nn.Conv2d(80, 320, 1), nn.BatchNorm2d(320), nn.SiLU())
        self.fc = nn.Linear(320, classes)

    def forward(self, x):
        return self.fc(self.net(x).mean((2, 3)))


class LinearAttentionEncoder(nn.Module):
    """Encoder with kernelised linear attention (phi(x) = elu(x) + 1):
    per head K^T V (d_h x d_h) then Q (K^T V) normalised by Q . sum(K),
    so no L x L matrix; post-norm residuals, GELU feed-forward, mean pool."""

    class Layer(nn.Module):
        def __init__(self, d, heads):
            super().__init__()
            self.h = heads
            self.qkv = nn.Linear(d, 3 * d)
            self.o = nn.Linear(d, d)
            self.n1 = nn.LayerNorm(d)
            self.ff = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))
            self.n2 = nn.LayerNorm(d)

        def forward(self, x):
            L, d = x.shape[1], x.shape[2]
            dh = d // self.h
            q, k, v = self.qkv(x).reshape(-1, L, 3, self.h, dh).permute(2, 0, 3, 1, 4)
            q, k = F.elu(q) + 1, F.elu(k) + 1
            kv = torch.matmul(k.transpose(2, 3), v)            # (N, h, dh, dh)
            z = 1 / (torch.matmul(q, k.sum(dim=2, keepdim=True).transpose(2, 3)) + 1e-6)
            y = (torch.matmul(q, kv) * z).transpose(1, 2).reshape(-1, L, d)
            x = self.n1(x + self.o(y))
            return self.n2(x + self.ff(x))

    def __init__(self, vocab=8000, d=256, heads=4, depth=4, classes=2, max_len=512):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.pos = nn.Parameter(0.02 * torch.randn(1, max_len, d))
        self.layers = nn.ModuleList(LinearAttentionEncoder.Layer(d, heads)
                                    for _ in range(depth))
        self.fc = nn.Linear(d, classes)

    def forward(self, tokens):                     # (N, L)
        x = self.emb(tokens) + self.pos[:, :tokens.shape[1]]
        for layer in self.layers:
            x = layer(x)
        return self.fc(x.mean(dim=1))


class HRNetLike(nn.Module):
    """HRNet-style pose net: a stride-4 stem, then parallel branches at
    1/4, 1/8 and 1/16 resolution of basic residual blocks, exchanging
    features after every stage (strided 3x3 Conv down, 1x1 Conv + nearest
    upsampling up); a 1x1 heat-map head on the high-resolution branch."""

    class Basic(nn.Module):
        def __init__(self, c):
            super().__init__()
            self.f = nn.Sequential(nn.Conv2d(c, c, 3, 1, 1, bias=False), nn.BatchNorm2d(c),
                                   nn.ReLU(), nn.Conv2d(c, c, 3, 1, 1, bias=False),
                                   nn.BatchNorm2d(c))

        def forward(self, x):
            return F.relu(x + self.f(x))

    def __init__(self, widths=(32, 64, 128), joints=17):
        super().__init__()
        Basic = HRNetLike.Basic
        w = widths
        self.stem = nn.Sequential(nn.Conv2d(3, 64, 3, 2, 1, bias=False), nn.BatchNorm2d(64),
                                  nn.ReLU(), nn.Conv2d(64, 64, 3, 2, 1, bias=False),
                                  nn.BatchNorm2d(64), nn.ReLU(),
                                  nn.Conv2d(64, w[0], 1, bias=False), nn.BatchNorm2d(w[0]),
                                  nn.ReLU())
        self.stages = nn.ModuleList()
        self.fuse = nn.ModuleList()
        self.new = nn.ModuleList()
        for s, nb in enumerate((2, 3)):
            self.new.append(nn.Sequential(
                nn.Conv2d(w[nb - 2], w[nb - 1], 3, 2, 1, bias=False),
                nn.BatchNorm2d(w[nb - 1]), nn.ReLU()))
            self.stages.append(nn.ModuleList(nn.Sequential(Basic(w[i]), Basic(w[i]))
                                             for i in range(nb)))
            f = nn.ModuleDict()
            for i in range(nb):
                for j in range(nb):
                    if i < j:          # j (lower resolution) up to i
                        f[f"{j}to{i}"] = nn.Sequential(nn.Conv2d(w[j], w[i], 1, bias=False),
                                                       nn.BatchNorm2d(w[i]))
                    elif i > j:        # j (higher resolution) down to i
                        steps = []
                        for k in range(i - j):
                            cout = w[i] if k == i - j - 1 else w[j]
                            steps += [nn.Conv2d(w[j], cout, 3, 2, 1, bias=False),
                                      nn.BatchNorm2d(cout)]
                        f[f"{j}to{i}"] = nn.Sequential(*steps)
            self.fuse.append(f)
        self.head = nn.Conv2d(w[0], joints, 1)

    def forward(self, x):
        xs = [self.stem(x)]
        for s, stage in enumerate(self.stages):
            xs.append(self.new[s](xs[-1]))
            xs = [b(t) for b, t in zip(stage, xs)]
            out = []
            for i in range(len(xs)):
                y = xs[i]
                for j in range(len(xs)):
                    if i == j:
                        continue
                    t = self.fuse[s][f"{j}to{i}"](xs[j])
                    if j > i:
                        t = F.interpolate(t, scale_factor=2 ** (j - i), mode="nearest")
                    y = y + t
                out.append(F.relu(y))
            xs = out
        return self.head(xs[0])


class CoordinateMLP(nn.Module):
    """NeRF-style coordinate network: sin/cos positional encoding of 3-D
    points (10 frequencies), eight 256-wide ReLU Linear layers with the
    encoding concatenated again at the fifth, density and colour heads."""

    def __init__(self, freqs=10, width=256, depth=8):
        super().__init__()
        self.register_buffer("f", (2.0 ** torch.arange(freqs)) * math.pi)
        enc = 3 + 3 * 2 * freqs
        self.skip = depth // 2
        self.layers = nn.ModuleList()
        for i in range(depth):
            cin = enc if i == 0 else width + (enc if i == self.skip else 0)
            self.layers.append(nn.Linear(cin, width))
        self.sigma = nn.Linear(width, 1)
        self.rgb = nn.Sequential(nn.Linear(width, width // 2), nn.ReLU(),
                                 nn.Linear(width // 2, 3), nn.Sigmoid())

    def forward(self, pts):                        # (N, P, 3)
        a = (pts.unsqueeze(-1) * self.f).flatten(2)
        e = torch.cat([pts, torch.sin(a), torch.cos(a)], dim=-1)
        h = e
        for i, layer in enumerate(self.layers):
            if i == self.skip:
                h = torch.cat([h, e], dim=-1)
            h = F.relu(layer(h))
        return torch.cat([F.relu(self.sigma(h)), self.rgb(h)], dim=-1)


def _img(size):
    return [("input", ("N", 3, size, size), "float32", None)]


BLIND2 = {
    "pointnet_like": dict(ctor=PointNetLike, family="point-cloud",
                          inputs=[("points", ("N", 3, 1024), "float32", None)]),
    "edsr_lite": dict(ctor=EDSRLite, family="super-resolution", inputs=_img(48)),
    "style_transfer_net": dict(ctor=StyleTransferNet, family="style-transfer",
                               inputs=_img(96)),
    "dlrm_like": dict(ctor=DLRMLike, family="recommendation",
                      inputs=[("dense", ("N", 13), "float32", None),
                              ("sparse", ("N", 8), "int64", 10000)]),
    "gcn_dense": dict(ctor=GCNDense, family="graph",
                      inputs=[("x", ("N", 256, 64), "float32", None),
                              ("adj", ("N", 256, 256), "float32", None)]),
    "textcnn": dict(ctor=TextCNN, family="text-conv",
                    inputs=[("tokens", ("N", 128), "int64", 20000)]),
    "wavenet_like": dict(ctor=WaveNetLike, family="gated-dilated-conv",
                         inputs=[("wave", ("N", 1, 2000), "float32", None)]),
    "mobilevit_like": dict(ctor=MobileViTLike, family="conv-transformer-hybrid",
                           inputs=_img(128)),
    "linear_attention_encoder": dict(ctor=LinearAttentionEncoder, family="linear-attention",
                                     inputs=[("tokens", ("N", 256), "int64", 8000)]),
    "hrnet_like": dict(ctor=HRNetLike, family="multi-resolution", inputs=_img(128)),
    "coordinate_mlp": dict(ctor=CoordinateMLP, family="coordinate-mlp",
                           inputs=[("points", ("N", 256, 3), "float32", None)]),
}
