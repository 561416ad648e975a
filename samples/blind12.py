r"""BLIND12: the twelfth blind set, written on 2026-12-06 by a helper session
before any of it was measured.  It is to be measured before any further
change is scored, and scored only once, at the end, with the code as it
then stands (bench/zoo_accuracy.py --set blind12).  None of its twelve
families occurs in another set (ZOO, BLIND, BLIND2 ... BLIND11, the
reference models), so no plan rule, feature, fit or calibration was made
with any of them in view, and none of them was run through onnxcost
predict before being measured.

The families: a restricted Boltzmann machine sampled by an annealed Gibbs
chain (Bernoulli visible and hidden units, 16 alternating half-steps of
Sigmoid probabilities compared with fed uniform variates, the free energy
of the data and of the sample); a differentiable logic gate network
(Petersen et al.: every neuron reads two fixed inputs by Gather and mixes
the 16 real-valued relaxations of the two-input Boolean functions by a
softmax over learned logits, five layers, a group-sum classifier); a value
iteration network (Tamar et al.: a reward map from a Conv of the grid
world, 40 unrolled Bellman backups as a Conv of the value map plus the
reward term and a ReduceMax over actions, the Q values gathered at the
agent's cell); a matrix product state classifier (Stoudenmire & Schwab: a
cos / sin feature map of 64 pixels, one bond-dimension-16 core per site,
the chain contracted site by site from both ends with renormalisation, a
label core in the middle, Born-rule class probabilities); sphere tracing
of a neural signed distance field (a latent-conditioned MLP distance to a
perturbed sphere, 16 marching steps along 64 camera rays, normals by
central differences, Lambertian shading of the hits); a hyperbolic GRU
(Ganea, Becigneul & Hofmann: token embeddings in the Poincare ball, gates
from Moebius matrix-vector products and Moebius additions, exponential
and logarithmic maps at the origin (artanh by Log), geodesic-distance
logits to class prototypes); a Zero-DCE low-light enhancer (Guo et al.: a seven-
layer Conv net with symmetric skip concatenations predicting 24 curve
maps, applied as 8 quadratic light-enhancement curve iterations); an
HDRNet-like bilateral-grid enhancer (Gharbi et al.: a low-resolution
path with local and global branches predicting a grid of affine colour
transforms, a learned per-pixel guide, the grid sliced by bilinear Resize
and tent weights over its depth bins, the affine transforms applied at
full resolution); a learned image codec with a scale hyperprior (Balle et
al.: strided Conv analysis and ConvTranspose synthesis transforms with GDN
/ inverse GDN, Round quantisation, Gaussian likelihoods by Erf, a bit
estimate); a deep Hough transform line detector (Zhao et al.: multi-scale
CNN features voted into 48 angle x 24 offset bins by a MatMul with a fixed
voting matrix, Convs in the Hough space, TopK lines decoded to angle and
offset); a deep complex network (Trabelsi et al.: complex Convs as four
real Convs, complex batch normalisation by 2 x 2 whitening, modReLU,
residual blocks, a magnitude classifier); and a Demucs-like waveform
source separator (Defossez et al.: a U-Net of strided Conv1d + GLU
encoders and ConvTranspose1d decoders with additive skips, a two-layer
bidirectional LSTM at the bottleneck, two sources at 16384 samples).  The
first six are made of small kernels at batch 1 (most a few thousand
elements or fewer, a hundred or more kernels); the other six are of
ordinary sizes.

To be measured with

    OMP_WAIT_POLICY=PASSIVE /usr/bin/python3 scripts/measure_zoo.py --set blind12 \
        rbm_gibbs logic_gate_net vin_planner mps_classifier sdf_sphere_trace \
        hyperbolic_gru zero_dce hdrnet_grid gdn_codec deep_hough_lines \
        complex_resnet demucs_separator --threads 1 2 --batches 1 4 16

Same table form as export.py's ZOO (ctor, family, inputs, run); exported by
scripts/ort_graphs.py's export() (opset 13, symbolic batch N).
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def _conv_bn_relu(cin, cout, k=3, stride=1):
    """Conv (no bias), BatchNorm, ReLU; padding keeps the size at stride 1."""
    return nn.Sequential(nn.Conv2d(cin, cout, k, stride, (k - 1) // 2, bias=False),
                         nn.BatchNorm2d(cout), nn.ReLU())


def _normal_cdf(x):
    """Phi(x) of the standard normal, by Erf."""
    return 0.5 * (1.0 + torch.erf(x * (1.0 / math.sqrt(2.0))))


# --------------------------------------------------------------------------
# Small kernels at batch 1
# --------------------------------------------------------------------------

class RBMGibbs(nn.Module):
    """Restricted Boltzmann machine (Bernoulli-Bernoulli, 64 visible units
    for an 8 x 8 binary pattern, 48 hidden) run as an annealed Gibbs chain
    from the data: the input binarised (Greater, Cast); 16 steps, each
    p(h | v) = Sigmoid(beta_k (v W + c)), h sampled by comparing with a
    uniform variate, then p(v | h) = Sigmoid(beta_k (h W^T + b)) and v
    sampled the same way; beta rises from 0.6 to 1.  The uniform variates
    come in as standard normal noise mapped through the normal CDF (Erf).
    Returns the last visible probabilities, the sample and the free-energy
    gap F(data) - F(sample), F(v) = -v.b - sum softplus(v W + c)."""

    def __init__(self, visible=64, hidden=48, steps=16):
        super().__init__()
        self.V, self.H, self.steps = visible, hidden, steps
        self.W = nn.Parameter(0.3 * torch.randn(visible, hidden))
        self.b = nn.Parameter(0.1 * torch.randn(visible))
        self.c = nn.Parameter(0.1 * torch.randn(hidden))

    def _free_energy(self, v):
        return -(v * self.b).sum(-1) - F.softplus(torch.matmul(v, self.W) + self.c).sum(-1)

    def forward(self, visible, noise):             # (N, 64), (N, 16, 112)
        v0 = (visible > 0).to(visible.dtype)
        u = _normal_cdf(noise)
        v, pv = v0, v0
        for k in range(self.steps):
            beta = 0.6 + 0.4 * k / (self.steps - 1)
            ph = torch.sigmoid(beta * (torch.matmul(v, self.W) + self.c))
            h = (u[:, k, :self.H] < ph).to(v.dtype)
            pv = torch.sigmoid(beta * (torch.matmul(h, self.W.t()) + self.b))
            v = (u[:, k, self.H:] < pv).to(v.dtype)
        return pv, v, self._free_energy(v0) - self._free_energy(v)


class _LogicLayer(nn.Module):
    """One layer of differentiable logic gates: each gate reads inputs a
    and b (fixed random wiring, every input used) and outputs the softmax-
    weighted mixture of the 16 probabilistic relaxations of the two-input
    Boolean functions (false, and, a and not b, a, ..., nand, true)."""

    def __init__(self, n_in, n_out):
        super().__init__()
        reps = -(-2 * n_out // n_in)
        wiring = torch.cat([torch.randperm(n_in) for _ in range(reps)])[:2 * n_out]
        self.register_buffer("ia", wiring[:n_out].clone())
        self.register_buffer("ib", wiring[n_out:].clone())
        self.logits = nn.Parameter(torch.randn(n_out, 16))

    def forward(self, x):
        a = torch.index_select(x, 1, self.ia)
        b = torch.index_select(x, 1, self.ib)
        ab = a * b
        one = torch.ones_like(a)
        a_or_b = a + b - ab
        a_xor_b = a + b - 2 * ab
        ops = [torch.zeros_like(a), ab, a - ab, a, b - ab, b, a_xor_b, a_or_b,
               1 - a_or_b, 1 - a_xor_b, 1 - b, 1 - b + ab, 1 - a, 1 - a + ab, 1 - ab, one]
        g = torch.stack(ops, dim=-1)                                        # (N, G, 16)
        return (g * torch.softmax(self.logits, dim=-1)).sum(-1)


class LogicGateNet(nn.Module):
    """Differentiable logic gate network (Petersen et al., "Deep
    Differentiable Logic Gate Networks") on 64 input features made soft
    bits by a Sigmoid: five logic layers of 256, 256, 256, 256 and 250
    gates (each two Gathers, the 16 relaxed gate functions as elementwise
    kernels stacked by Unsqueeze and Concat, a Mul with the softmax of the
    gate logits and a ReduceSum), then a group sum of 25 gates per class
    divided by a temperature."""

    def __init__(self, inp=64, widths=(256, 256, 256, 256, 250), classes=10, tau=5.0):
        super().__init__()
        dims = (inp,) + tuple(widths)
        self.layers = nn.ModuleList([_LogicLayer(a, b) for a, b in zip(dims[:-1], dims[1:])])
        self.classes, self.group, self.tau = classes, widths[-1] // classes, tau

    def forward(self, features):                   # (N, 64)
        x = torch.sigmoid(3.0 * features)
        for layer in self.layers:
            x = layer(x)
        return x.reshape(-1, self.classes, self.group).sum(-1) / self.tau


class ValueIterationNet(nn.Module):
    """Value iteration network (Tamar et al., "Value Iteration Networks")
    on a 24 x 24 grid world (obstacle and goal channels): a 3x3 Conv + ReLU
    and a 1x1 Conv give the reward map; its Q term (a 3x3 Conv to 8 action
    channels) is computed once; then 40 Bellman backups, each a 3x3 Conv of
    the value map to the 8 actions added to the reward term and a ReduceMax
    over the actions.  The Q values at the agent's cell (GatherElements on
    the flattened map) go through a Linear to 8 action logits.  Returns the
    logits and the final value map."""

    def __init__(self, side=24, hidden=32, actions=8, iters=40):
        super().__init__()
        self.side, self.A, self.iters = side, actions, iters
        self.h = nn.Conv2d(2, hidden, 3, padding=1)
        self.r = nn.Conv2d(hidden, 1, 1, bias=False)
        self.q_r = nn.Conv2d(1, actions, 3, padding=1, bias=False)
        self.q_v = nn.Conv2d(1, actions, 3, padding=1, bias=False)
        self.policy = nn.Linear(actions, actions)

    def forward(self, grid, position):             # (N, 2, 24, 24), (N, 2) in [0, 24)
        r = self.r(torch.relu(self.h(grid)))
        qr = self.q_r(r)
        v = torch.amax(qr, dim=1, keepdim=True)
        for _ in range(self.iters):
            v = torch.amax(qr + self.q_v(v), dim=1, keepdim=True)
        q = qr + self.q_v(v)
        cell = position[:, 0] * self.side + position[:, 1]
        q_at = torch.gather(q.flatten(2), 2, cell.reshape(-1, 1, 1).expand(-1, self.A, 1))
        return self.policy(q_at[:, :, 0]), v


class MPSClassifier(nn.Module):
    """Matrix product state (tensor-train) classifier (Stoudenmire &
    Schwab, "Supervised Learning with Tensor Networks") on 64 pixels: each
    pixel, squashed to [0, 1] by a Sigmoid, mapped to (cos, sin) of
    pi x / 2; all 64 site matrices (bond dimension 16) formed by one
    batched MatMul of the features with the cores; the chain contracted
    from the left over sites 0-31 and from the right over sites 63-32, one
    vector-matrix MatMul per site (Gather of the site, MatMul, ReduceL2,
    Div to renormalise); a label core (16 x 10 x 16) joins the two halves.
    Returns the Born-rule log-probabilities log(f^2 / sum f^2) and f."""

    def __init__(self, sites=64, bond=16, classes=10):
        super().__init__()
        self.S, self.D, self.C = sites, bond, classes
        eye = torch.eye(bond).reshape(1, 1, bond, bond) / math.sqrt(2.0)
        self.cores = nn.Parameter(eye + 0.05 * torch.randn(sites, 2, bond, bond))
        self.label = nn.Parameter(0.3 * torch.randn(bond, classes, bond))
        self.left = nn.Parameter(torch.ones(1, 1, bond) / math.sqrt(bond))
        self.right = nn.Parameter(torch.ones(1, bond, 1) / math.sqrt(bond))

    def forward(self, pixels):                     # (N, 64)
        x = torch.sigmoid(pixels) * (math.pi / 2)
        phi = torch.stack([torch.cos(x), torch.sin(x)], dim=-1).unsqueeze(2)   # (N, S, 1, 2)
        m = torch.matmul(phi, self.cores.reshape(self.S, 2, self.D * self.D))
        m = m.reshape(-1, self.S, self.D, self.D)
        half = self.S // 2
        left, right = self.left, self.right
        for i in range(half):
            left = torch.matmul(left, m[:, i])
            left = left / left.norm(dim=-1, keepdim=True)
        for i in range(self.S - 1, half - 1, -1):
            right = torch.matmul(m[:, i], right)
            right = right / right.norm(dim=-2, keepdim=True)
        t = torch.matmul(left[:, 0], self.label.reshape(self.D, self.C * self.D))
        f = torch.matmul(t.reshape(-1, self.C, self.D), right)[:, :, 0]    # (N, C)
        p = f * f
        return torch.log(p / p.sum(-1, keepdim=True) + 1e-12), f


class SDFSphereTracer(nn.Module):
    """Sphere tracing of a neural signed distance field: the distance is a
    sphere's, |p| - 0.8, plus a bounded correction 0.15 tanh(MLP(p, z))
    of a DeepSDF-like MLP (3 -> 48 -> 48 -> 1, Softplus) whose first layer
    also sees a 16-d shape code (its term computed once).  64 rays of an
    8 x 8 pinhole camera from an origin moved by the camera input; 16
    marching steps t <- clip(t + sdf(o + t d)); then normals by central
    differences (6 more distance evaluations per ray, batched), Lambertian
    shading with a fixed light, hits where |sdf| < 0.02.  Returns the
    8 x 8 image and depth."""

    def __init__(self, code=16, hidden=48, res=8, steps=16, eps=0.01):
        super().__init__()
        self.res, self.steps = res, steps
        self.p_in = nn.Linear(3, hidden, bias=False)
        self.z_in = nn.Linear(code, hidden)
        self.l2 = nn.Linear(hidden, hidden)
        self.l3 = nn.Linear(hidden, 1)
        lin = torch.linspace(-0.45, 0.45, res)
        ys, xs = torch.meshgrid(lin, lin, indexing="ij")
        d = torch.stack([xs, ys, torch.full_like(xs, 1.2)], dim=-1).reshape(1, res * res, 3)
        self.register_buffer("dirs", d / d.norm(dim=-1, keepdim=True))
        self.register_buffer("base", torch.tensor([0.0, 0.0, -2.5]))
        offs = torch.zeros(6, 3)
        for k in range(3):
            offs[2 * k, k], offs[2 * k + 1, k] = eps, -eps
        self.register_buffer("offsets", offs)
        light = torch.tensor([-0.4, 0.6, -0.7])
        self.register_buffer("light", light / light.norm())

    def _sdf(self, p, zt):
        h = F.softplus(self.p_in(p) + zt)
        h = F.softplus(self.l2(h))
        return p.norm(dim=-1, keepdim=True) - 0.8 + 0.15 * torch.tanh(self.l3(h))

    def forward(self, shape_code, camera):         # (N, 16), (N, 3)
        zt = self.z_in(shape_code).unsqueeze(1)                             # (N, 1, H)
        o = (self.base + 0.1 * torch.tanh(camera)).unsqueeze(1)             # (N, 1, 3)
        t = torch.ones_like(o[..., :1] + self.dirs[..., :1]) * 1.2          # (N, R, 1)
        for _ in range(self.steps):
            t = torch.clamp(t + self._sdf(o + t * self.dirs, zt), 0.0, 6.0)
        p = o + t * self.dirs
        s6 = self._sdf(p.unsqueeze(2) + self.offsets, zt.unsqueeze(2))[..., 0]   # (N, R, 6)
        g = s6[..., 0::2] - s6[..., 1::2]
        normal = g / (g.norm(dim=-1, keepdim=True) + 1e-6)
        lam = torch.clamp((normal * self.light).sum(-1), min=0.0)
        hit = (self._sdf(p, zt)[..., 0].abs() < 0.02).to(t.dtype)
        image = hit * (0.1 + 0.9 * lam)
        depth = hit * t[..., 0]
        return image.reshape(-1, self.res, self.res), depth.reshape(-1, self.res, self.res)


def _hnorm(x):
    return torch.clamp(x.norm(dim=-1, keepdim=True), min=1e-5)


def _artanh(x):
    """artanh by logs (aten::atanh has no ONNX symbolic in torch 1.13)."""
    x = torch.clamp(x, max=1 - 1e-5)
    return 0.5 * torch.log((1 + x) / (1 - x))


def _project(x, max_norm=1 - 1e-3):
    """Back inside the ball: scaled down where the norm exceeds max_norm."""
    return x * torch.clamp(max_norm / _hnorm(x), max=1.0)


def _expmap0(u):
    n = _hnorm(u)
    return _project(torch.tanh(n) * u / n)


def _logmap0(y):
    n = _hnorm(y)
    return _artanh(n) * y / n


def _mobius_add(x, y):
    xy = (x * y).sum(-1, keepdim=True)
    x2 = (x * x).sum(-1, keepdim=True)
    y2 = (y * y).sum(-1, keepdim=True)
    num = (1 + 2 * xy + y2) * x + (1 - x2) * y
    return _project(num / torch.clamp(1 + 2 * xy + x2 * y2, min=1e-5))


def _mobius_scale(mx, x):
    """Moebius version of a linear map M given mx = M x."""
    xn, mxn = _hnorm(x), _hnorm(mx)
    return _project(torch.tanh(mxn / xn * _artanh(xn)) * mx / mxn)


class HyperbolicGRU(nn.Module):
    """Hyperbolic GRU (Ganea, Becigneul & Hofmann, "Hyperbolic Neural
    Networks") on the Poincare ball (c = 1) over 12 tokens: embeddings
    mapped into the ball (expmap0); per step the reset and update gates
    r, z = Sigmoid(logmap0(W h (+) U x (+) b)) with Moebius matrix-vector
    products (norms, artanh by Log, Tanh) and Moebius additions, the candidate
    phi((W diag(r)) h (+) U x (+) b) with a Moebius Tanh, and
    h <- h (+) diag(z) ((-h) (+) candidate); the input-side products of all
    steps computed before the loop.  Logits are minus the geodesic
    distances 2 artanh |(-p_k) (+) h| to 5 class prototypes in the ball.
    Returns the logits and the final state."""

    def __init__(self, vocab=40, emb=16, hidden=16, classes=5, steps=12):
        super().__init__()
        self.D, self.T = hidden, steps
        self.emb = nn.Embedding(vocab, emb)
        self.U = nn.Parameter(torch.randn(emb, 3 * hidden) / math.sqrt(emb))
        self.Wrz = nn.Parameter(torch.randn(hidden, 2 * hidden) / math.sqrt(hidden))
        self.Wc = nn.Parameter(torch.randn(hidden, hidden) / math.sqrt(hidden))
        self.bias = nn.Parameter(0.05 * torch.randn(3, hidden))
        self.protos = nn.Parameter(0.3 * torch.randn(classes, hidden))

    def forward(self, tokens):                     # (N, 12)
        x = _expmap0(0.3 * self.emb(tokens))                                # (N, T, E)
        ux = torch.matmul(x, self.U).reshape(-1, self.T, 3, self.D)
        ux = _mobius_scale(ux, x.unsqueeze(2))                              # (N, T, 3, D)
        ub = _mobius_add(ux, _expmap0(self.bias))
        h = torch.zeros_like(x[:, 0, :self.D])
        for t in range(self.T):
            hw = torch.matmul(h, self.Wrz).reshape(-1, 2, self.D)
            wh = _mobius_scale(hw, h.unsqueeze(1))
            rz = torch.sigmoid(_logmap0(_mobius_add(wh, ub[:, t, :2])))
            r, z = rz[:, 0], rz[:, 1]
            wc = _mobius_scale(torch.matmul(r * h, self.Wc), h)
            cand = _expmap0(torch.tanh(_logmap0(_mobius_add(wc, ub[:, t, 2]))))
            step = _mobius_add(-h, cand)
            h = _mobius_add(h, _mobius_scale(z * step, step))
        d = 2 * _artanh(_hnorm(_mobius_add(-_expmap0(self.protos), h.unsqueeze(1))))[..., 0]
        return -d, h


# --------------------------------------------------------------------------
# Ordinary sizes
# --------------------------------------------------------------------------

class ZeroDCE(nn.Module):
    """Zero-DCE low-light enhancer (Guo et al., "Zero-Reference Deep Curve
    Estimation") on 128 x 128 images (squashed to [0, 1]): DCE-Net, seven
    3x3 Convs of 16 channels with ReLU, the fifth to seventh fed the
    concatenation of the previous output with the fourth-, third- and
    second-last one (symmetric skips), the last with Tanh to 24 curve maps;
    8 iterations of the light-enhancement curve LE <- LE + a_k (LE^2 - LE),
    each with its own 3 maps.  Returns the enhanced image and the maps."""

    def __init__(self, ch=16, iters=8):
        super().__init__()
        self.iters = iters
        self.c1 = nn.Conv2d(3, ch, 3, padding=1)
        self.c2 = nn.Conv2d(ch, ch, 3, padding=1)
        self.c3 = nn.Conv2d(ch, ch, 3, padding=1)
        self.c4 = nn.Conv2d(ch, ch, 3, padding=1)
        self.c5 = nn.Conv2d(2 * ch, ch, 3, padding=1)
        self.c6 = nn.Conv2d(2 * ch, ch, 3, padding=1)
        self.c7 = nn.Conv2d(2 * ch, 3 * iters, 3, padding=1)

    def forward(self, image):                      # (N, 3, 128, 128)
        x = torch.sigmoid(image)
        x1 = torch.relu(self.c1(x))
        x2 = torch.relu(self.c2(x1))
        x3 = torch.relu(self.c3(x2))
        x4 = torch.relu(self.c4(x3))
        x5 = torch.relu(self.c5(torch.cat([x3, x4], 1)))
        x6 = torch.relu(self.c6(torch.cat([x2, x5], 1)))
        a = torch.tanh(self.c7(torch.cat([x1, x6], 1)))
        le = x
        for k in range(self.iters):
            le = le + a[:, 3 * k:3 * k + 3] * (le * le - le)
        return le, a


class HDRNetGrid(nn.Module):
    """HDRNet-like bilateral-grid enhancer (Gharbi et al., "Deep Bilateral
    Learning for Real-Time Image Enhancement") on 128 x 128 images: the
    image bilinearly resized to 64 x 64; splat Convs (stride 2: 8, 16, 32
    channels) to 8 x 8; a local branch (two 3x3 Convs) and a global branch
    (two stride-2 Convs, three Linears) fused by Add and ReLU; a 1x1 Conv to
    a grid of 8 depth bins x 12 affine coefficients per cell.  The full-
    resolution guide: a learned 3x3 colour matrix (1x1 Conv), a per-channel
    piecewise-linear curve of 16 ReLU knots, a 1x1 Conv to one channel,
    Sigmoid.  Slicing: the grid upsampled bilinearly (Resize) to full size,
    tent weights over the depth bins from the guide, the weighted sum over
    depth; the 3 x 4 affine transform applied to each pixel.  Returns the
    output image and the guide."""

    def __init__(self, bins=8, knots=16):
        super().__init__()
        self.bins = bins
        self.splat = nn.Sequential(_conv_bn_relu(3, 8, stride=2), _conv_bn_relu(8, 16, stride=2),
                                   _conv_bn_relu(16, 32, stride=2))
        self.local = nn.Sequential(_conv_bn_relu(32, 32), nn.Conv2d(32, 32, 3, padding=1))
        self.glob_conv = nn.Sequential(_conv_bn_relu(32, 32, stride=2),
                                       _conv_bn_relu(32, 32, stride=2))
        self.glob_fc = nn.Sequential(nn.Linear(128, 64), nn.ReLU(), nn.Linear(64, 32), nn.ReLU(),
                                     nn.Linear(32, 32))
        self.to_grid = nn.Conv2d(32, bins * 12, 1)
        self.ccm = nn.Conv2d(3, 3, 1)
        with torch.no_grad():
            self.ccm.weight.copy_(torch.eye(3).reshape(3, 3, 1, 1)
                                  + 0.05 * torch.randn(3, 3, 1, 1))
        self.register_buffer("knots", torch.linspace(0, 1, knots).reshape(1, 1, knots, 1, 1))
        self.slopes = nn.Parameter(0.1 * torch.randn(1, 3, knots, 1, 1))
        self.guide_out = nn.Conv2d(3, 1, 1)
        self.register_buffer("depths", torch.arange(bins, dtype=torch.float32)
                             .reshape(1, 1, bins, 1, 1))

    def forward(self, image):                      # (N, 3, 128, 128)
        x = torch.sigmoid(image)
        hgt, wid = x.shape[2], x.shape[3]
        lo = F.interpolate(x, size=(64, 64), mode="bilinear", align_corners=False)
        s = self.splat(lo)                                                  # (N, 32, 8, 8)
        g = self.glob_fc(self.glob_conv(s).flatten(1)).reshape(-1, 32, 1, 1)
        grid = self.to_grid(torch.relu(self.local(s) + g))                  # (N, 12*D, 8, 8)
        c = self.ccm(x)
        curve = x + (torch.relu(c.unsqueeze(2) - self.knots) * self.slopes).sum(2)
        guide = torch.sigmoid(self.guide_out(curve))                        # (N, 1, H, W)
        up = F.interpolate(grid, size=(hgt, wid), mode="bilinear", align_corners=False)
        up = up.reshape(-1, 12, self.bins, hgt, wid)
        gz = torch.clamp(guide * self.bins - 0.5, 0.0, self.bins - 1.0).unsqueeze(2)
        w = torch.relu(1.0 - torch.abs(gz - self.depths))                   # (N, 1, D, H, W)
        coeff = (up * w).sum(2).reshape(-1, 3, 4, hgt, wid)
        xh = torch.cat([x, torch.ones_like(x[:, :1])], dim=1).unsqueeze(1)  # (N, 1, 4, H, W)
        return (coeff * xh).sum(2), guide


class _GDN(nn.Module):
    """Generalised divisive normalisation (Balle et al.): x / sqrt(beta +
    gamma * x^2) with gamma a 1x1 Conv over channels; inverse: times."""

    def __init__(self, ch, inverse=False):
        super().__init__()
        self.inverse = inverse
        gamma = 0.1 * torch.eye(ch) + 0.01 * torch.rand(ch, ch)
        self.gamma = nn.Parameter(gamma.reshape(ch, ch, 1, 1))
        self.beta = nn.Parameter(torch.ones(ch))

    def forward(self, x):
        norm = torch.sqrt(F.conv2d(x * x, self.gamma, self.beta))
        return x * norm if self.inverse else x / norm


def _down(cin, cout, k=5):
    return nn.Conv2d(cin, cout, k, 2, k // 2)


def _up(cin, cout, k=5):
    return nn.ConvTranspose2d(cin, cout, k, 2, k // 2, output_padding=1)


class GDNCodec(nn.Module):
    """Learned image codec with a scale hyperprior (Balle et al.,
    "Variational Image Compression with a Scale Hyperprior"), inference
    with Round quantisation, on 128 x 128 images: the analysis transform,
    four 5x5 stride-2 Convs (48, 48, 48, 64 channels) with GDN between them,
    to an 8 x 8 latent; the hyper-analysis (Abs, 3x3 Conv, two 5x5 stride-2
    Convs, ReLU) to 2 x 2 x 48, rounded; its factorised prior a per-channel
    logistic CDF difference; the hyper-synthesis (two 5x5 stride-2
    ConvTransposes, a 3x3 Conv, Softplus) to the latent's scales; the
    rounded latent's Gaussian likelihoods by Erf; the synthesis transform,
    four ConvTransposes with inverse GDN.  Returns the reconstruction and
    the bits per pixel."""

    def __init__(self, ch=48, latent=64, hyper=48):
        super().__init__()
        self.g_a = nn.Sequential(_down(3, ch), _GDN(ch), _down(ch, ch), _GDN(ch),
                                 _down(ch, ch), _GDN(ch), _down(ch, latent))
        self.h_a = nn.Sequential(nn.Conv2d(latent, hyper, 3, 1, 1), nn.ReLU(),
                                 _down(hyper, hyper), nn.ReLU(), _down(hyper, hyper))
        self.h_s = nn.Sequential(_up(hyper, hyper), nn.ReLU(), _up(hyper, hyper), nn.ReLU(),
                                 nn.Conv2d(hyper, latent, 3, 1, 1))
        self.g_s = nn.Sequential(_up(latent, ch), _GDN(ch, True), _up(ch, ch), _GDN(ch, True),
                                 _up(ch, ch), _GDN(ch, True), _up(ch, 3))
        self.z_loc = nn.Parameter(0.1 * torch.randn(1, hyper, 1, 1))
        self.z_log_scale = nn.Parameter(0.1 * torch.randn(1, hyper, 1, 1))

    def forward(self, image):                      # (N, 3, 128, 128)
        x = torch.sigmoid(image)
        y = self.g_a(x)
        z_hat = torch.round(self.h_a(torch.abs(y)))
        s = torch.exp(self.z_log_scale)
        p_z = torch.sigmoid((z_hat + 0.5 - self.z_loc) / s) - \
            torch.sigmoid((z_hat - 0.5 - self.z_loc) / s)
        sigma = torch.clamp(F.softplus(self.h_s(z_hat)), min=0.11)
        y_hat = torch.round(y)
        a = torch.abs(y_hat)
        p_y = _normal_cdf((0.5 - a) / sigma) - _normal_cdf((-0.5 - a) / sigma)
        bits = -(torch.log2(torch.clamp(p_y, min=1e-9)).sum((1, 2, 3))
                 + torch.log2(torch.clamp(p_z, min=1e-9)).sum((1, 2, 3)))
        x_hat = self.g_s(y_hat)
        return x_hat, bits / (x.shape[2] * x.shape[3])


class DeepHoughLines(nn.Module):
    """Deep Hough transform semantic line detector (Zhao et al., "Deep
    Hough Transform for Semantic Line Detection") on 128 x 128 images: a
    CNN to stride 8 (64 channels) and stride 16 (128 channels, bilinearly
    upsampled and concatenated, a 1x1 Conv to 64); the Hough transform as a
    MatMul of the 16 x 16 feature map with a fixed 256 x 1152 voting matrix
    (each cell votes for the offset bin of its line at each of 48 angles,
    24 offset bins); two 3x3 Convs + BatchNorm + ReLU and a 1x1 Conv in the
    Hough space; Sigmoid, TopK 8 bins, each decoded to (angle, offset) by a
    floor Div and a remainder.  Returns the Hough logits, the top scores and
    the line parameters."""

    def __init__(self, side=16, angles=48, offsets=24, lines=8):
        super().__init__()
        self.A, self.R, self.k = angles, offsets, lines
        self.stem = nn.Sequential(_conv_bn_relu(3, 32, stride=2), _conv_bn_relu(32, 32),
                                  _conv_bn_relu(32, 64, stride=2), _conv_bn_relu(64, 64),
                                  _conv_bn_relu(64, 64, stride=2))
        self.deep = nn.Sequential(_conv_bn_relu(64, 128, stride=2), _conv_bn_relu(128, 128))
        self.fuse = _conv_bn_relu(192, 64, k=1)
        self.hough = nn.Sequential(_conv_bn_relu(64, 64), _conv_bn_relu(64, 64),
                                   nn.Conv2d(64, 1, 1))
        c = (side - 1) / 2.0
        ys, xs = torch.meshgrid(torch.arange(side, dtype=torch.float32) - c,
                                torch.arange(side, dtype=torch.float32) - c, indexing="ij")
        theta = torch.arange(angles, dtype=torch.float32) * (math.pi / angles)
        rho = xs.reshape(-1, 1) * torch.cos(theta) + ys.reshape(-1, 1) * torch.sin(theta)
        self.rmax = math.sqrt(2.0) * side / 2
        b = torch.clamp(((rho + self.rmax) / (2 * self.rmax) * offsets).floor().long(),
                        0, offsets - 1)                                     # (side^2, A)
        vote = torch.zeros(side * side, angles, offsets)
        vote.scatter_(2, b.unsqueeze(-1), 1.0)
        self.register_buffer("vote", vote.reshape(side * side, angles * offsets))

    def forward(self, image):                      # (N, 3, 128, 128)
        f8 = self.stem(image)                                               # (N, 64, 16, 16)
        f16 = F.interpolate(self.deep(f8), scale_factor=2.0, mode="bilinear",
                            align_corners=False)
        f = self.fuse(torch.cat([f8, f16], dim=1))
        h = torch.matmul(f.flatten(2), self.vote).reshape(-1, 64, self.A, self.R)
        logits = self.hough(h)[:, 0]                                        # (N, A, R)
        score, idx = torch.topk(torch.sigmoid(logits.flatten(1)), self.k, dim=-1)
        ai = torch.div(idx, self.R, rounding_mode="floor")
        ri = idx - ai * self.R
        angle = ai.to(score.dtype) * (math.pi / self.A)
        offset = (ri.to(score.dtype) + 0.5) * (2 * self.rmax / self.R) - self.rmax
        return logits, score, torch.stack([angle, offset], dim=-1)


class _CConv(nn.Module):
    """Complex convolution: (A + iB)(x + iy) = (Ax - By) + i(Ay + Bx), four
    real Convs."""

    def __init__(self, cin, cout, k=3, stride=1):
        super().__init__()
        self.re = nn.Conv2d(cin, cout, k, stride, k // 2, bias=False)
        self.im = nn.Conv2d(cin, cout, k, stride, k // 2, bias=False)

    def forward(self, x, y):
        return self.re(x) - self.im(y), self.re(y) + self.im(x)


class _CBN(nn.Module):
    """Complex batch normalisation, inference form: centred by the running
    mean, whitened by the inverse square root of the running 2 x 2
    covariance (closed form), a learned 2 x 2 scale and a complex shift."""

    def __init__(self, ch):
        super().__init__()
        shape = (1, ch, 1, 1)
        self.register_buffer("m_re", 0.1 * torch.randn(shape))
        self.register_buffer("m_im", 0.1 * torch.randn(shape))
        self.register_buffer("v_rr", 1.0 + 0.2 * torch.rand(shape))
        self.register_buffer("v_ii", 1.0 + 0.2 * torch.rand(shape))
        self.register_buffer("v_ri", 0.1 * torch.randn(shape))
        self.g_rr = nn.Parameter(torch.full(shape, 1 / math.sqrt(2)))
        self.g_ii = nn.Parameter(torch.full(shape, 1 / math.sqrt(2)))
        self.g_ri = nn.Parameter(torch.zeros(shape))
        self.b_re = nn.Parameter(torch.zeros(shape))
        self.b_im = nn.Parameter(torch.zeros(shape))

    def forward(self, x, y):
        s = torch.sqrt(self.v_rr * self.v_ii - self.v_ri * self.v_ri)
        t = torch.sqrt(self.v_rr + self.v_ii + 2 * s)
        inv = 1.0 / (s * t)
        w_rr, w_ii, w_ri = (self.v_ii + s) * inv, (self.v_rr + s) * inv, -self.v_ri * inv
        xc, yc = x - self.m_re, y - self.m_im
        xw, yw = w_rr * xc + w_ri * yc, w_ri * xc + w_ii * yc
        return (self.g_rr * xw + self.g_ri * yw + self.b_re,
                self.g_ri * xw + self.g_ii * yw + self.b_im)


class _ModReLU(nn.Module):
    """modReLU: z * ReLU(|z| + b) / |z|, b per channel."""

    def __init__(self, ch):
        super().__init__()
        self.b = nn.Parameter(torch.full((1, ch, 1, 1), -0.05))

    def forward(self, x, y):
        mag = torch.sqrt(x * x + y * y + 1e-6)
        scale = torch.relu(mag + self.b) / mag
        return x * scale, y * scale


class _CStage(nn.Module):
    """Complex Conv + complex BN + modReLU, then a complex residual block
    (two of each, the second modReLU after the skip Add)."""

    def __init__(self, cin, cout, stride):
        super().__init__()
        self.conv, self.bn, self.act = _CConv(cin, cout, 3, stride), _CBN(cout), _ModReLU(cout)
        self.c1, self.b1, self.a1 = _CConv(cout, cout), _CBN(cout), _ModReLU(cout)
        self.c2, self.b2, self.a2 = _CConv(cout, cout), _CBN(cout), _ModReLU(cout)

    def forward(self, x, y):
        x, y = self.act(*self.bn(*self.conv(x, y)))
        u, v = self.a1(*self.b1(*self.c1(x, y)))
        u, v = self.b2(*self.c2(u, v))
        return self.a2(x + u, y + v)


class ComplexResNet(nn.Module):
    """Deep complex network (Trabelsi et al., "Deep Complex Networks") on a
    64 x 64 complex field (real and imaginary channels, e.g. k-space or
    radar): three stages of complex channels 16 (stride 1), 32 and 64
    (stride 2), each a complex Conv (four real Convs), complex batch norm
    (2 x 2 whitening) and modReLU, then a complex residual block; the
    magnitude globally averaged and a Linear to 10 classes.  Returns the
    logits and the last complex feature map's magnitude."""

    def __init__(self, widths=(16, 32, 64), classes=10):
        super().__init__()
        self.s1 = _CStage(1, widths[0], 1)
        self.s2 = _CStage(widths[0], widths[1], 2)
        self.s3 = _CStage(widths[1], widths[2], 2)
        self.fc = nn.Linear(widths[2], classes)

    def forward(self, signal):                     # (N, 2, 64, 64)
        x, y = signal[:, :1], signal[:, 1:]
        x, y = self.s1(x, y)
        x, y = self.s2(x, y)
        x, y = self.s3(x, y)
        mag = torch.sqrt(x * x + y * y + 1e-6)
        return self.fc(mag.mean((2, 3))), mag


class DemucsSeparator(nn.Module):
    """Demucs-like waveform source separator (Defossez et al., "Music
    Source Separation in the Waveform Domain") on 16384 mono samples: the
    mixture standardised; four encoder layers, each Conv1d (kernel 8,
    stride 4) + ReLU and a 1x1 Conv1d to twice the channels + GLU (32, 64,
    128, 256 channels, down to 64 steps); a two-layer bidirectional LSTM
    (hidden 256) and a Linear back to 256; four decoder layers, each the
    encoder skip added, a Conv1d (kernel 3) + GLU and a ConvTranspose1d
    (kernel 8, stride 4) with ReLU but the last, which gives 2 sources;
    the scale restored.  Returns the sources (N, 2, 16384)."""

    def __init__(self, widths=(32, 64, 128, 256), sources=2):
        super().__init__()
        self.enc = nn.ModuleList()
        cin = 1
        for w in widths:
            self.enc.append(nn.Sequential(nn.Conv1d(cin, w, 8, 4, 2), nn.ReLU(),
                                          nn.Conv1d(w, 2 * w, 1), nn.GLU(dim=1)))
            cin = w
        self.lstm = nn.LSTM(cin, cin, num_layers=2, bidirectional=True, batch_first=True)
        self.lstm_out = nn.Linear(2 * cin, cin)
        self.dec = nn.ModuleList()
        outs = list(widths[:-1])[::-1] + [sources]
        for w, o in zip(widths[::-1], outs):
            layers = [nn.Conv1d(w, 2 * w, 3, 1, 1), nn.GLU(dim=1),
                      nn.ConvTranspose1d(w, o, 8, 4, 2)]
            if o != sources:
                layers.append(nn.ReLU())
            self.dec.append(nn.Sequential(*layers))

    def forward(self, mixture):                    # (N, 1, 16384)
        mean = mixture.mean(-1, keepdim=True)
        std = torch.sqrt(((mixture - mean) ** 2).mean(-1, keepdim=True) + 1e-5)
        x = (mixture - mean) / std
        skips = []
        for layer in self.enc:
            x = layer(x)
            skips.append(x)
        y, _ = self.lstm(x.transpose(1, 2))
        x = self.lstm_out(y).transpose(1, 2)
        for layer in self.dec:
            x = layer(x + skips.pop())
        return x * std + mean


BLIND12 = {
    "rbm_gibbs": dict(ctor=RBMGibbs, family="rbm-gibbs-sampling",
                      inputs=[("visible", ("N", 64), "float32", None),
                              ("noise", ("N", 16, 112), "float32", None)]),
    "logic_gate_net": dict(ctor=LogicGateNet, family="differentiable-logic-gates",
                           inputs=[("features", ("N", 64), "float32", None)]),
    "vin_planner": dict(ctor=ValueIterationNet, family="value-iteration-planning",
                        inputs=[("grid", ("N", 2, 24, 24), "float32", None),
                                ("position", ("N", 2), "int64", 24)]),
    "mps_classifier": dict(ctor=MPSClassifier, family="matrix-product-state",
                           inputs=[("pixels", ("N", 64), "float32", None)]),
    "sdf_sphere_trace": dict(ctor=SDFSphereTracer, family="sdf-sphere-tracing",
                             inputs=[("shape_code", ("N", 16), "float32", None),
                                     ("camera", ("N", 3), "float32", None)]),
    "hyperbolic_gru": dict(ctor=HyperbolicGRU, family="hyperbolic-recurrent",
                           inputs=[("tokens", ("N", 12), "int64", 40)]),
    "zero_dce": dict(ctor=ZeroDCE, family="curve-estimation-enhancement",
                     inputs=[("image", ("N", 3, 128, 128), "float32", None)]),
    "hdrnet_grid": dict(ctor=HDRNetGrid, family="bilateral-grid-enhancement",
                        inputs=[("image", ("N", 3, 128, 128), "float32", None)]),
    "gdn_codec": dict(ctor=GDNCodec, family="learned-image-compression",
                      inputs=[("image", ("N", 3, 128, 128), "float32", None)]),
    "deep_hough_lines": dict(ctor=DeepHoughLines, family="deep-hough-transform",
                             inputs=[("image", ("N", 3, 128, 128), "float32", None)]),
    "complex_resnet": dict(ctor=ComplexResNet, family="complex-valued-network",
                           inputs=[("signal", ("N", 2, 64, 64), "float32", None)]),
    "demucs_separator": dict(ctor=DemucsSeparator, family="waveform-source-separation",
                             inputs=[("mixture", ("N", 1, 16384), "float32", None)]),
}
