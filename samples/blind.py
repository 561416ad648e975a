"""BLIND: architectures of families that no plan rule, feature, fit or
calibration was designed on, written on 2026-12-04 and measured the same
day; scored once, at the end of that session (bench/zoo_accuracy.py --set
blind).  They are not in the ORT plan corpus (tests/data/ort-plan/) and not
in ZOO, so that nothing tuned against the corpus or the zoo sees them.

Same table form as export.py's ZOO (ctor, family, inputs, run); exported by
scripts/ort_graphs.py's export() like the zoo (opset 13, symbolic batch N).
"""

import torch
import torch.nn as nn
import torch.nn.functional as F


class ConvMixerLike(nn.Module):
    """ConvMixer: patch Conv, then depth x (depthwise 9x9 Conv + GELU + BN,
    residual; pointwise Conv + GELU + BN), global pool, Linear."""

    def __init__(self, dim=256, depth=6, kernel=9, patch=7, classes=1000):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, dim, patch, patch), nn.GELU(),
                                  nn.BatchNorm2d(dim))
        self.dw = nn.ModuleList()
        self.pw = nn.ModuleList()
        for _ in range(depth):
            self.dw.append(nn.Sequential(
                nn.Conv2d(dim, dim, kernel, groups=dim, padding=kernel // 2),
                nn.GELU(), nn.BatchNorm2d(dim)))
            self.pw.append(nn.Sequential(nn.Conv2d(dim, dim, 1), nn.GELU(),
                                         nn.BatchNorm2d(dim)))
        self.head = nn.Linear(dim, classes)

    def forward(self, x):
        x = self.stem(x)
        for dw, pw in zip(self.dw, self.pw):
            x = pw(x + dw(x))
        return self.head(x.mean((2, 3)))


class PoolFormerLike(nn.Module):
    """MetaFormer with pooling as token mixer: GroupNorm(1) pre-norm,
    AvgPool3x3 - x, 1x1-Conv MLP with GELU, layer scale, strided Conv
    downsampling between 3 stages."""

    class Block(nn.Module):
        def __init__(self, dim, mlp=4):
            super().__init__()
            self.n1 = nn.GroupNorm(1, dim)
            self.pool = nn.AvgPool2d(3, 1, 1, count_include_pad=False)
            self.n2 = nn.GroupNorm(1, dim)
            self.fc1 = nn.Conv2d(dim, dim * mlp, 1)
            self.fc2 = nn.Conv2d(dim * mlp, dim, 1)
            self.s1 = nn.Parameter(1e-5 * torch.ones(dim, 1, 1))
            self.s2 = nn.Parameter(1e-5 * torch.ones(dim, 1, 1))

        def forward(self, x):
            y = self.n1(x)
            x = x + self.s1 * (self.pool(y) - y)
            return x + self.s2 * self.fc2(F.gelu(self.fc1(self.n2(x))))

    def __init__(self, dims=(48, 96, 192), depths=(2, 2, 4), classes=1000):
        super().__init__()
        layers = [nn.Conv2d(3, dims[0], 7, 4, 2)]
        for i, (d, n) in enumerate(zip(dims, depths)):
            if i:
                layers.append(nn.Conv2d(dims[i - 1], d, 3, 2, 1))
            layers += [PoolFormerLike.Block(d) for _ in range(n)]
        self.body = nn.Sequential(*layers)
        self.norm = nn.GroupNorm(1, dims[-1])
        self.head = nn.Linear(dims[-1], classes)

    def forward(self, x):
        return self.head(self.norm(self.body(x)).mean((2, 3)))


class DCGANGenerator(nn.Module):
    """DCGAN generator: latent [N, 100, 1, 1] -> ConvTranspose2d stack with
    BatchNorm + ReLU -> Tanh image [N, 3, 64, 64]."""

    def __init__(self, nz=100, ngf=64):
        super().__init__()
        c = [ngf * 8, ngf * 4, ngf * 2, ngf]
        layers = [nn.ConvTranspose2d(nz, c[0], 4, 1, 0, bias=False),
                  nn.BatchNorm2d(c[0]), nn.ReLU(True)]
        for a, b in zip(c, c[1:]):
            layers += [nn.ConvTranspose2d(a, b, 4, 2, 1, bias=False),
                       nn.BatchNorm2d(b), nn.ReLU(True)]
        layers += [nn.ConvTranspose2d(c[-1], 3, 4, 2, 1, bias=False), nn.Tanh()]
        self.net = nn.Sequential(*layers)

    def forward(self, z):
        return self.net(z)


class ConvAutoencoder(nn.Module):
    """Convolutional autoencoder: strided Conv + LeakyReLU down to a
    bottleneck Linear, back up with ConvTranspose2d, Sigmoid.
    [N, 1, 128, 128] -> [N, 1, 128, 128]."""

    def __init__(self, base=32, code=128):
        super().__init__()
        self.enc = nn.Sequential(
            nn.Conv2d(1, base, 4, 2, 1), nn.LeakyReLU(0.2),
            nn.Conv2d(base, 2 * base, 4, 2, 1), nn.LeakyReLU(0.2),
            nn.Conv2d(2 * base, 4 * base, 4, 2, 1), nn.LeakyReLU(0.2),
            nn.Conv2d(4 * base, 4 * base, 4, 2, 1), nn.LeakyReLU(0.2))
        self.code = nn.Linear(4 * base * 8 * 8, code)
        self.uncode = nn.Linear(code, 4 * base * 8 * 8)
        self.dec = nn.Sequential(
            nn.ConvTranspose2d(4 * base, 4 * base, 4, 2, 1), nn.ReLU(),
            nn.ConvTranspose2d(4 * base, 2 * base, 4, 2, 1), nn.ReLU(),
            nn.ConvTranspose2d(2 * base, base, 4, 2, 1), nn.ReLU(),
            nn.ConvTranspose2d(base, 1, 4, 2, 1), nn.Sigmoid())
        self.base = base

    def forward(self, x):
        h = self.enc(x)
        z = self.code(h.flatten(1))
        h = self.uncode(z).reshape(-1, 4 * self.base, 8, 8)
        return self.dec(h)


class TabularMLP(nn.Module):
    """Deep MLP for tabular data: Linear + BatchNorm1d + SiLU + Dropout
    blocks with a skip every two, [N, 256] -> [N, 10]."""

    def __init__(self, feats=256, width=1024, depth=6, classes=10):
        super().__init__()
        self.inp = nn.Linear(feats, width)
        self.blocks = nn.ModuleList(
            nn.Sequential(nn.Linear(width, width), nn.BatchNorm1d(width), nn.SiLU(),
                          nn.Dropout(0.1)) for _ in range(depth))
        self.out = nn.Linear(width, classes)

    def forward(self, x):
        x = F.silu(self.inp(x))
        for i in range(0, len(self.blocks), 2):
            x = x + self.blocks[i + 1](self.blocks[i](x))
        return self.out(x)


class PerceiverLike(nn.Module):
    """Perceiver-like: a learned latent array cross-attends to the input
    tokens (nn.MultiheadAttention), then latent self-attention blocks
    (nn.TransformerEncoderLayer), mean pool, Linear.
    features [N, L, 64] -> [N, 100]."""

    def __init__(self, feats=64, latents=64, dim=256, heads=4, depth=3, classes=100):
        super().__init__()
        self.latent = nn.Parameter(torch.randn(latents, dim) * 0.02)
        self.proj = nn.Linear(feats, dim)
        self.cross = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.ln_q = nn.LayerNorm(dim)
        self.ln_kv = nn.LayerNorm(dim)
        self.selfs = nn.ModuleList(
            nn.TransformerEncoderLayer(dim, heads, 4 * dim, dropout=0.0,
                                       batch_first=True, norm_first=True)
            for _ in range(depth))
        self.head = nn.Linear(dim, classes)

    def forward(self, features):
        kv = self.ln_kv(self.proj(features))
        q = self.ln_q(self.latent).unsqueeze(0).expand(features.shape[0], -1, -1)
        x, _ = self.cross(q, kv, kv, need_weights=False)
        for layer in self.selfs:
            x = layer(x)
        return self.head(x.mean(1))


class WaveFeatureNet(nn.Module):
    """Raw-waveform front end (wav2vec-like): strided Conv1d stack, the first
    with GroupNorm over channels, GELU; a Linear projection, LayerNorm,
    mean over time and a Linear classifier.  wave [N, 1, 16000] -> [N, 35]."""

    def __init__(self, ch=256, classes=35):
        super().__init__()
        specs = [(10, 5), (3, 2), (3, 2), (3, 2), (3, 2), (2, 2), (2, 2)]
        layers = []
        cin = 1
        for i, (k, s) in enumerate(specs):
            layers.append(nn.Conv1d(cin, ch, k, s, bias=False))
            if i == 0:
                layers.append(nn.GroupNorm(ch, ch))
            layers.append(nn.GELU())
            cin = ch
        self.fe = nn.Sequential(*layers)
        self.proj = nn.Linear(ch, 384)
        self.ln = nn.LayerNorm(384)
        self.head = nn.Linear(384, classes)

    def forward(self, wave):
        h = self.fe(wave).transpose(1, 2)
        h = self.ln(self.proj(h))
        return self.head(h.mean(1))


class CSPDetectorLike(nn.Module):
    """Single-stage detector body (YOLO-like): Conv-BN-SiLU, CSP blocks
    (split by two 1x1 Convs, bottlenecks, Concat, 1x1), SPPF (three chained
    MaxPool 5x5), an FPN top-down path with nearest Upsample + Concat, and
    three 1x1 prediction heads.  [N, 3, 256, 256] -> 3 outputs."""

    class CBS(nn.Sequential):
        def __init__(self, cin, cout, k=1, s=1):
            super().__init__(nn.Conv2d(cin, cout, k, s, k // 2, bias=False),
                             nn.BatchNorm2d(cout), nn.SiLU())

    class CSP(nn.Module):
        def __init__(self, cin, cout, n=1):
            super().__init__()
            h = cout // 2
            C = CSPDetectorLike.CBS
            self.a, self.b = C(cin, h), C(cin, h)
            self.m = nn.ModuleList(nn.Sequential(C(h, h), C(h, h, 3)) for _ in range(n))
            self.out = C(2 * h, cout)

        def forward(self, x):
            a = self.a(x)
            for m in self.m:
                a = a + m(a)
            return self.out(torch.cat([a, self.b(x)], 1))

    def __init__(self, w=32, classes=20):
        super().__init__()
        C, P = CSPDetectorLike.CBS, CSPDetectorLike.CSP
        self.stem = C(3, w, 3, 2)
        self.s1 = nn.Sequential(C(w, 2 * w, 3, 2), P(2 * w, 2 * w))
        self.s2 = nn.Sequential(C(2 * w, 4 * w, 3, 2), P(4 * w, 4 * w, 2))
        self.s3 = nn.Sequential(C(4 * w, 8 * w, 3, 2), P(8 * w, 8 * w, 2))
        self.s4 = nn.Sequential(C(8 * w, 16 * w, 3, 2), P(16 * w, 16 * w))
        self.sppf_in = C(16 * w, 8 * w)
        self.sppf_out = C(32 * w, 16 * w)
        self.lat4 = C(16 * w, 8 * w)
        self.top3 = P(16 * w, 8 * w)
        self.lat3 = C(8 * w, 4 * w)
        self.top2 = P(8 * w, 4 * w)
        outs = 3 * (5 + classes)
        self.h2 = nn.Conv2d(4 * w, outs, 1)
        self.h3 = nn.Conv2d(8 * w, outs, 1)
        self.h4 = nn.Conv2d(16 * w, outs, 1)

    def forward(self, x):
        x = self.s1(self.stem(x))
        c2 = self.s2(x)
        c3 = self.s3(c2)
        y = self.sppf_in(self.s4(c3))
        p1 = F.max_pool2d(y, 5, 1, 2)
        p2 = F.max_pool2d(p1, 5, 1, 2)
        p3 = F.max_pool2d(p2, 5, 1, 2)
        c4 = self.sppf_out(torch.cat([y, p1, p2, p3], 1))
        t3 = self.top3(torch.cat([F.interpolate(self.lat4(c4), scale_factor=2.0,
                                                mode="nearest"), c3], 1))
        t2 = self.top2(torch.cat([F.interpolate(self.lat3(t3), scale_factor=2.0,
                                                mode="nearest"), c2], 1))
        return self.h2(t2), self.h3(t3), self.h4(c4)


class ConformerLike(nn.Module):
    """Conformer encoder: Conv2d subsampling of features, then blocks of
    half-step feed-forward (SiLU), self-attention (nn.MultiheadAttention),
    a convolution module (pointwise Conv1d + GLU, depthwise Conv1d k=15,
    BatchNorm1d, SiLU, pointwise), half-step feed-forward, LayerNorm.
    features [N, L, 80] -> [N, L/4, 256]."""

    class Block(nn.Module):
        def __init__(self, d, heads, k=15):
            super().__init__()
            self.ff1 = nn.Sequential(nn.LayerNorm(d), nn.Linear(d, 4 * d), nn.SiLU(),
                                     nn.Linear(4 * d, d))
            self.ln_att = nn.LayerNorm(d)
            self.att = nn.MultiheadAttention(d, heads, batch_first=True)
            self.ln_conv = nn.LayerNorm(d)
            self.pw1 = nn.Conv1d(d, 2 * d, 1)
            self.dw = nn.Conv1d(d, d, k, padding=k // 2, groups=d)
            self.bn = nn.BatchNorm1d(d)
            self.pw2 = nn.Conv1d(d, d, 1)
            self.ff2 = nn.Sequential(nn.LayerNorm(d), nn.Linear(d, 4 * d), nn.SiLU(),
                                     nn.Linear(4 * d, d))
            self.ln = nn.LayerNorm(d)

        def forward(self, x):
            x = x + 0.5 * self.ff1(x)
            y = self.ln_att(x)
            x = x + self.att(y, y, y, need_weights=False)[0]
            y = self.ln_conv(x).transpose(1, 2)
            y = F.glu(self.pw1(y), dim=1)
            y = self.pw2(F.silu(self.bn(self.dw(y))))
            x = x + y.transpose(1, 2)
            x = x + 0.5 * self.ff2(x)
            return self.ln(x)

    def __init__(self, feats=80, d=256, heads=4, depth=4):
        super().__init__()
        self.sub = nn.Sequential(nn.Conv2d(1, d, 3, 2), nn.ReLU(),
                                 nn.Conv2d(d, d, 3, 2), nn.ReLU())
        f = ((feats - 1) // 2 - 1) // 2
        self.proj = nn.Linear(d * f, d)
        self.blocks = nn.Sequential(*[ConformerLike.Block(d, heads) for _ in range(depth)])

    def forward(self, features):
        x = self.sub(features.unsqueeze(1))
        n, c, t, f = x.shape
        x = self.proj(x.transpose(1, 2).reshape(n, t, c * f))
        return self.blocks(x)


def _img(size):
    return [("input", ("N", 3, size, size), "float32", None)]


BLIND = {
    "convmixer_like": dict(ctor=ConvMixerLike, family="isotropic-conv",
                           inputs=_img(224)),
    "poolformer_like": dict(ctor=PoolFormerLike, family="metaformer",
                            inputs=_img(224)),
    "dcgan_generator": dict(ctor=DCGANGenerator, family="generative",
                            inputs=[("z", ("N", 100, 1, 1), "float32", None)]),
    "conv_autoencoder": dict(ctor=ConvAutoencoder, family="generative",
                             inputs=[("input", ("N", 1, 128, 128), "float32", None)]),
    "tabular_mlp": dict(ctor=TabularMLP, family="mlp",
                        inputs=[("x", ("N", 256), "float32", None)]),
    "perceiver_like": dict(ctor=PerceiverLike, family="cross-attention",
                           inputs=[("features", ("N", "L", 64), "float32", None)],
                           run={"L": 256}),
    "wave_feature_net": dict(ctor=WaveFeatureNet, family="raw-audio-conv",
                             inputs=[("wave", ("N", 1, 16000), "float32", None)]),
    "csp_detector_like": dict(ctor=CSPDetectorLike, family="detector",
                              inputs=_img(256)),
    "conformer_like": dict(ctor=ConformerLike, family="conformer",
                           inputs=[("features", ("N", "L", 80), "float32", None)],
                           run={"L": 200}),
}
