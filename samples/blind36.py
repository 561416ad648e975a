r"""BLIND36: the thirty-sixth blind set, written on 2026-12-07 by a helper
session before any of it was measured.  Nothing in it has been timed,
profiled or run through onnxcost predict; it is to be measured first and
scored once only, at the end, with the code as it stands then
(bench/zoo_accuracy.py --set blind36).  None of its twelve families occurs
in another set (ZOO, BLIND, BLIND2 ... BLIND35, the reference models), so
no plan rule, feature, fit or calibration can have been made with any of
them in view.

Three families unroll a classical procedure into a fixed graph of small
kernels (several hundred to about two thousand nodes each, Constants
included), each with a small learned part:

  * Successive cancellation decoding of polar codes (E. Arikan, "Channel
    Polarization: A Method for Constructing Capacity-Achieving Codes for
    Symmetric Binary-Input Memoryless Channels", 2009), in the min-sum
    form of hardware decoders (C. Leroux, I. Tal, A. Vardy & W. J. Gross,
    "Hardware Architectures for Successive Cancellation Decoding of Polar
    Codes", 2011): a small Conv1d equaliser turns 256 received I/Q
    samples into the LLRs of four (64, 32) codewords (frozen set by the
    Bhattacharyya construction at 0 dB), and the decoding tree is
    unrolled: at every inner node the f function (sign product times the
    smaller magnitude) feeds the left child, the g function (the LLRs
    combined under the left child's partial sums) the right one, and the
    partial sums are XORed (arithmetically) back up; fully frozen
    subtrees are skipped.  The information bits, their decision LLRs and
    the equaliser's LLRs come out.
  * Recursive Newton-Euler inverse dynamics (J. Y. S. Luh, M. W. Walker &
    R. P. C. Paul, "On-Line Computational Scheme for Mechanical
    Manipulators", 1980), in the form of K. S. Fu, R. C. Gonzalez & C. S.
    G. Lee, "Robotics: Control, Sensing, Vision and Intelligence", 1987:
    an MLP maps a task vector to cubic joint trajectories of a 6-DOF arm
    with UR5-like Denavit-Hartenberg parameters, sampled at 32 instants;
    the outward recursion of angular velocities and accelerations and
    linear accelerations (3 x 3 rotations from Cos/Sin, batched MatMuls,
    cross products by index shuffles) and the inward recursion of forces
    and moments give the joint torques, to which viscous and Coulomb
    friction and a learned residual MLP are added.  The torques, their
    peaks and the mean mechanical power come out.
  * GJR-GARCH(1,1) volatility filtering (T. Bollerslev, "Generalized
    Autoregressive Conditional Heteroskedasticity", 1986; L. R. Glosten,
    R. Jagannathan & D. E. Runkle, "On the Relation between the Expected
    Value and the Volatility of the Nominal Excess Return on Stocks",
    1993): a Conv1d encoder over 8 assets' 250 daily returns amortises
    the parameter estimate (alpha, gamma, beta by a softmax with a slack
    term, omega by variance targeting); the conditional variance
    recursion then runs day by day over all assets at once (250 steps),
    followed by the Gaussian log-likelihood, a 10-day variance forecast
    by the persistence's powers and the 99% value at risk.

The other nine are published network designs of ordinary sizes:

  * Mask2Former (Cheng, Misra, Schwing, Kirillov & Girdhar,
    "Masked-attention Mask Transformer for Universal Image
    Segmentation", 2022) on a 128 x 128 image: a small residual backbone,
    the FPN pixel decoder variant (the paper's ablation; deformable
    attention needs grid sampling), 32 queries of 128 through six
    decoder layers over the 1/32, 1/16 and 1/8 maps round robin, each a
    masked cross-attention (the previous layer's mask, resized
    bilinearly and thresholded, fully masked rows released), a
    self-attention and an FFN, with class and mask predictions after
    every layer; the semantic inference (class softmax times mask
    sigmoid).
  * RTMPose (T. Jiang, P. Lu, L. Zhang, N. Ma, R. Han, C. Lyu, Y. Li &
    K. Chen, "RTMPose: Real-Time Multi-Person Pose Estimation based on
    MMPose", 2023) with the SimCC head (Y. Li, S. Yang, P. Liu, S. Zhang,
    Y. Wang, Z. Wang, W. Yang & S.-T. Xia, "SimCC: A Simple Coordinate
    Classification Perspective for Human Pose Estimation", 2022): a
    CSPNeXt-t backbone on a 256 x 192 crop, a 7 x 7 Conv to 17 keypoint
    maps, flattened, ScaleNorm and a gated attention unit (Hua, Dai, Liu
    & Le, "Transformer Quality in Linear Time", 2022) across keypoints,
    and 1-D classifications of x and y at split ratio 2, decoded by
    ArgMax.
  * BC-ResNet (B. Kim, S. Chang, J. Lee & D. Sung, "Broadcasted Residual
    Learning for Efficient Keyword Spotting", 2021), BC-ResNet-3 on a
    40 x 101 log-mel input: frequency-depthwise Convs with SubSpectral
    Normalization, the frequency average, temporal depthwise dilated
    Convs and pointwise Convs broadcast back over frequency, 12 classes.
  * Enformer (Z. Avsec, V. Agarwal, D. Visentin, J. R. Ledsam,
    A. Grabska-Barwinska, K. R. Taylor, Y. Assael, J. Jumper, P. Kohli &
    D. R. Kelley, "Effective gene expression prediction from sequence by
    integrating long-range interactions", 2021), scaled down: one-hot
    DNA of 2048 bp, a Conv stem and a Conv tower with softmax attention
    pooling (bins of 32 bp), four transformer layers with relative
    positional basis functions (exponential, central mask and gamma
    profiles, the relative shift by a Gather), cropping and a softplus
    head of 32 tracks.
  * VectorNet (J. Gao, C. Sun, H. Zhao, Y. Shen, D. Anguelov, C. Li &
    C. Schmid, "VectorNet: Encoding HD Maps and Agent Dynamics from
    Vectorized Representation", 2020): 64 polylines of 20 vectors,
    three polyline subgraph layers (MLP with LayerNorm, masked max
    pooling, concatenation), L2 normalisation, a global self-attention
    graph over the polylines and the target agent's trajectory decoder
    (30 future steps).
  * HSTU (J. Zhai, L. Liao, X. Liu, Y. Wang, R. Li, X. Cao, L. Gao,
    Z. Gong, F. Gu, M. He, Y. Lu & Y. Shi, "Actions Speak Louder than
    Words: Trillion-Parameter Sequential Transducers for Generative
    Recommendations", 2024): a user history of 200 items (20000-item
    catalogue), four HSTU layers of 128 (one SiLU projection to U, V, Q,
    K; pointwise SiLU attention without softmax, with relative position
    and bucketed relative time biases; LayerNorm of the attended values
    gated by U), and retrieval of the top 10 items by the tied item
    table.
  * QMIX (T. Rashid, M. Samvelyan, C. Schroeder de Witt, G. Farquhar,
    J. Foerster & S. Whiteson, "QMIX: Monotonic Value Function
    Factorisation for Deep Multi-Agent Reinforcement Learning", 2018):
    eight agents' recurrent Q networks (Linear, GRUCell of 64, 14
    actions; the agent id and the previous greedy action as inputs)
    unrolled over 16 steps, and the monotonic mixing network whose
    weights hypernetworks make from the global state (absolute values,
    ELU, state value).
  * Graph WaveNet (Z. Wu, S. Pan, G. Long, J. Jiang & C. Zhang, "Graph
    WaveNet for Deep Spatial-Temporal Graph Modeling", 2019) on 170
    sensors (PEMS08 size) and 13 input steps: eight gated dilated TCN
    layers, each with a diffusion graph convolution of order 2 over the
    forward and backward transition matrices and the self-adaptive
    adjacency softmax(ReLU(E1 E2)), skip connections and a 12-step
    output.
  * Multi-head latent attention (DeepSeek-AI, "DeepSeek-V2: A Strong,
    Economical, and Efficient Mixture-of-Experts Language Model", 2024)
    in a small decoder LM: vocabulary 8000, 128 tokens, four layers of
    256 with RMSNorm, low-rank query (128) and joint key-value (64)
    compression, decoupled rotary keys (16 per head, one shared), 4
    heads, SwiGLU FFN; the last token's logits and every layer's
    compressed cache.

To be measured with

    OMP_WAIT_POLICY=PASSIVE /usr/bin/python3 scripts/measure_zoo.py --set blind36 \
        polar_sc_decode rnea_inverse_dynamics gjr_garch_filter mask2former_seg \
        rtmpose_simcc bcresnet_kws enformer_lite vectornet_motion hstu_genrec \
        qmix_mixer graph_wavenet_traffic mla_decoder_lm \
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


def _cbr(cin, cout, k=3, stride=1, act=nn.ReLU):
    """Conv2d without bias, BatchNorm, activation ('same' padding, odd k)."""
    return nn.Sequential(nn.Conv2d(cin, cout, k, stride, k // 2, bias=False),
                         nn.BatchNorm2d(cout), act())


class _Basic(nn.Module):
    """ResNet basic block (two 3x3 Conv-BN, projection where needed)."""

    def __init__(self, cin, cout, stride=1):
        super().__init__()
        self.body = nn.Sequential(_cbr(cin, cout, 3, stride), nn.Conv2d(cout, cout, 3, padding=1, bias=False),
                                  nn.BatchNorm2d(cout))
        self.short = None
        if stride != 1 or cin != cout:
            self.short = nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))

    def forward(self, x):
        s = x if self.short is None else self.short(x)
        return F.relu(s + self.body(x))


def _heads(x, heads):
    """(N, L, H d) -> (N, H, L, d)."""
    n_tok = x.shape[1]
    return x.view(-1, n_tok, heads, x.shape[-1] // heads).transpose(1, 2)


def _merge(x):
    """(N, H, L, d) -> (N, L, H d)."""
    return x.transpose(1, 2).reshape(-1, x.shape[2], x.shape[1] * x.shape[3])


class _Attention(nn.Module):
    """Multi-head attention with separate query, key and value inputs and an
    optional additive bias (N or 1, 1 or H, Lq, Lk)."""

    def __init__(self, dim, heads):
        super().__init__()
        self.heads, self.scale = heads, 1.0 / math.sqrt(dim // heads)
        self.q, self.k, self.v = nn.Linear(dim, dim), nn.Linear(dim, dim), nn.Linear(dim, dim)
        self.o = nn.Linear(dim, dim)

    def forward(self, q, k, v, bias=None):
        q, k, v = _heads(self.q(q), self.heads), _heads(self.k(k), self.heads), _heads(self.v(v), self.heads)
        s = torch.matmul(q, k.transpose(2, 3)) * self.scale
        if bias is not None:
            s = s + bias
        return self.o(_merge(torch.matmul(torch.softmax(s, -1), v)))


def _cross(u, v, i12, i20):
    """Cross product over the last axis by index shuffles."""
    return u[..., i12] * v[..., i20] - u[..., i20] * v[..., i12]


# --------------------------------------------------------------------------
# Unrolled classical procedures with a small learned part
# --------------------------------------------------------------------------

def _bhattacharyya(n, z):
    """Bhattacharyya parameters of the n synthetic channels (natural order:
    the first half sees the degraded channel 2z - z^2, the second z^2)."""
    if n == 1:
        return [z]
    return _bhattacharyya(n // 2, 2.0 * z - z * z) + _bhattacharyya(n // 2, z * z)


class PolarSCDecode(nn.Module):
    """Successive cancellation (min-sum) decoding of four (64, 32) polar
    codewords: a Conv1d equaliser (2 -> 32 -> 32 -> 1, kernels 7, 5, 5,
    tanh) turns the 256 received I/Q samples into LLRs, the frozen set is
    the 32 least reliable synthetic channels by the Bhattacharyya bound at
    0 dB, and the decoding tree is unrolled (f, g and partial-sum
    combinations at every inner node, fully frozen subtrees skipped, hard
    decisions at information leaves).  Returns the information bits
    (N, 128), their decision LLRs (N, 128) and the equaliser LLRs
    (N, 256)."""

    def __init__(self, n=64, k=32, words=4, hidden=32):
        super().__init__()
        self.n, self.words = n, words
        self.eq = nn.Sequential(nn.Conv1d(2, hidden, 7, padding=3), nn.Tanh(),
                                nn.Conv1d(hidden, hidden, 5, padding=2), nn.Tanh(),
                                nn.Conv1d(hidden, 1, 5, padding=2))
        z = _bhattacharyya(n, math.exp(-1.0))
        order = sorted(range(n), key=lambda i: z[i])
        info = set(order[:k])
        self.frozen = [i not in info for i in range(n)]

    @staticmethod
    def _f(a, b):
        return torch.sign(a) * torch.sign(b) * torch.min(a.abs(), b.abs())

    def _decode(self, llr, lo, hi, bits, llrs):
        """Decode leaves lo ... hi - 1 from llr (B, hi - lo); returns the
        subtree's codeword (B, hi - lo) of 0/1 floats."""
        if all(self.frozen[lo:hi]):
            return torch.zeros_like(llr)
        if hi - lo == 1:
            u = (llr < 0).to(llr.dtype)
            bits.append(u)
            llrs.append(llr)
            return u
        half = (hi - lo) // 2
        a, b = llr[:, :half], llr[:, half:]
        left = self._decode(self._f(a, b), lo, lo + half, bits, llrs)
        right = self._decode(b + (1.0 - 2.0 * left) * a, lo + half, hi, bits, llrs)
        return torch.cat([left + right - 2.0 * left * right, right], 1)

    def forward(self, rx):                        # (N, 2, 256)
        llr = 4.0 * self.eq(rx).squeeze(1)                                 # (N, 256)
        bits, llrs = [], []
        self._decode(llr.reshape(-1, self.n), 0, self.n, bits, llrs)
        info = torch.cat(bits, 1).reshape(-1, self.words * len(bits))
        conf = torch.cat(llrs, 1).reshape(-1, self.words * len(llrs))
        return info, conf, llr


class RNEAInverseDynamics(nn.Module):
    """Recursive Newton-Euler inverse dynamics of a 6-DOF arm (UR5-like
    standard DH parameters, link masses, centres of mass and diagonal
    inertias), gravity as a base acceleration.  An MLP (16 -> 128 -> 128
    -> 24) gives each joint's cubic trajectory, sampled with its first
    and second derivatives at 32 instants over 2 s; the outward recursion
    (w, dw, dv, centre-of-mass accelerations, link forces and moments)
    and the inward one (f, n, tau) run on (N, 32, 3) vectors with 3 x 3
    rotations built from Cos and Sin; viscous and Coulomb friction and a
    residual MLP (18 -> 64 -> 6) are added.  Returns the torques
    (N, 32, 6), their peak magnitudes (N, 6) and the mean absolute
    mechanical power (N, 1)."""

    def __init__(self, task=16, hidden=128, steps=32, horizon=2.0):
        super().__init__()
        self.steps = steps
        self.traj = _mlp((task, hidden, hidden, 24))
        self.resid = _mlp((18, 64, 6), act=nn.Tanh)
        self.fv = nn.Parameter(torch.full((6,), 0.5))
        self.fc = nn.Parameter(torch.full((6,), 0.8))
        t = torch.linspace(0.0, 1.0, steps)
        ones, zeros = torch.ones_like(t), torch.zeros_like(t)
        s = 1.0 / horizon
        self.register_buffer("b0", torch.stack([ones, t, t * t, t ** 3], 0))              # (4, T)
        self.register_buffer("b1", s * torch.stack([zeros, ones, 2.0 * t, 3.0 * t * t], 0))
        self.register_buffer("b2", s * s * torch.stack([zeros, zeros, 2.0 * ones, 6.0 * t], 0))
        d = [0.089159, 0.0, 0.0, 0.10915, 0.09465, 0.0823]
        a = [0.0, -0.425, -0.39225, 0.0, 0.0, 0.0]
        alpha = [math.pi / 2, 0.0, 0.0, math.pi / 2, -math.pi / 2, 0.0]
        self.ca = [math.cos(x) for x in alpha]
        self.sa = [math.sin(x) for x in alpha]
        self.register_buffer("pstar", torch.tensor([[a[i], d[i] * self.sa[i], d[i] * self.ca[i]] for i in range(6)]))
        self.register_buffer("com", torch.tensor([[0.0, -0.02561, 0.00193], [0.2125, 0.0, 0.11336],
                                                  [0.15, 0.0, 0.0265], [0.0, -0.0018, 0.01634],
                                                  [0.0, 0.0018, 0.01634], [0.0, 0.0, -0.001159]]))
        self.mass = [3.7, 8.393, 2.275, 1.219, 1.219, 0.1879]
        self.register_buffer("inertia", torch.tensor([[0.0102, 0.0102, 0.0067], [0.1339, 0.1339, 0.0151],
                                                      [0.0312, 0.0312, 0.004], [0.0026, 0.0026, 0.0034],
                                                      [0.0026, 0.0026, 0.0034], [0.0001, 0.0001, 0.0001]]))
        self.register_buffer("ez", torch.tensor([0.0, 0.0, 1.0]))
        self.register_buffer("grav", torch.tensor([0.0, 0.0, 9.81]))
        self.register_buffer("i12", torch.tensor([1, 2, 0]))
        self.register_buffer("i20", torch.tensor([2, 0, 1]))

    def _rot(self, q, i):
        """Standard DH rotation Rz(q) Rx(alpha_i) as (N, T, 3, 3)."""
        c, s = torch.cos(q), torch.sin(q)
        ca, sa = self.ca[i], self.sa[i]
        zero, one = torch.zeros_like(q), torch.ones_like(q)
        rows = [torch.stack([c, -s * ca, s * sa], -1), torch.stack([s, c * ca, -c * sa], -1),
                torch.stack([zero, sa * one, ca * one], -1)]
        return torch.stack(rows, -2)

    def _cx(self, u, v):
        return _cross(u, v, self.i12, self.i20)

    @staticmethod
    def _mv(r, v):
        return torch.matmul(r, v.unsqueeze(-1)).squeeze(-1)

    @staticmethod
    def _mtv(r, v):
        return torch.matmul(v.unsqueeze(-2), r).squeeze(-2)

    def forward(self, task):                      # (N, 16)
        cx = self._cx
        coef = self.traj(task).view(-1, 6, 4)
        q = torch.matmul(coef, self.b0).transpose(1, 2)                     # (N, T, 6)
        qd = torch.matmul(coef, self.b1).transpose(1, 2)
        qdd = torch.matmul(coef, self.b2).transpose(1, 2)
        zero3 = torch.zeros_like(q[..., :3])
        w, dw, dv = zero3, zero3, zero3 + self.grav
        rots, forces, moments = [], [], []
        for i in range(6):
            r = self._rot(q[..., i], i)
            rots.append(r)
            qdi, qddi = qd[..., i:i + 1], qdd[..., i:i + 1]
            zq = self.ez * qdi
            w_new = self._mtv(r, w + zq)
            dw = self._mtv(r, dw + self.ez * qddi + cx(w, zq))
            w = w_new
            p, sc = self.pstar[i], self.com[i]
            dv = self._mtv(r, dv) + cx(dw, p) + cx(w, cx(w, p))
            ac = cx(dw, sc) + cx(w, cx(w, sc)) + dv
            inert = self.inertia[i]
            forces.append(self.mass[i] * ac)
            moments.append(inert * dw + cx(w, inert * w))
        f = torch.zeros_like(w)
        n = torch.zeros_like(w)
        taus = []
        for i in range(5, -1, -1):
            big_f, big_n = forces[i], moments[i]
            p, sc = self.pstar[i], self.com[i]
            if i == 5:
                n = cx(p + sc, big_f) + big_n
                f = big_f
            else:
                rn = rots[i + 1]
                n = self._mv(rn, n + cx(self._mtv(rn, p), f)) + cx(p + sc, big_f) + big_n
                f = self._mv(rn, f) + big_f
            axis = self._mtv(rots[i], self.ez.expand_as(w))
            taus.append((n * axis).sum(-1, keepdim=True))
        tau = torch.cat(taus[::-1], -1)                                     # (N, T, 6)
        tau = tau + self.fv * qd + self.fc * torch.tanh(qd / 0.05)
        tau = tau + self.resid(torch.cat([torch.sin(q), torch.cos(q), qd], -1))
        return tau, tau.abs().max(1).values, (tau * qd).abs().sum(-1).mean(1, keepdim=True)


class GJRGarchFilter(nn.Module):
    """GJR-GARCH(1,1) filtering of 8 assets' 250 daily returns (scaled by
    0.01): a Conv1d encoder (|r|, r^2 and the sign indicator -> 32 -> 32,
    kernels 5, mean pooling) and an MLP give alpha, gamma / 2, beta and
    slack by a softmax (persistence below 0.995), omega by variance
    targeting; the recursion s2[t] = omega + (alpha + gamma I[r < 0])
    r[t-1]^2 + beta s2[t-1] then runs over the 250 days for all assets
    at once.  Returns the conditional volatilities (N, 8, 250), the
    negative Gaussian log-likelihood per asset (N, 8), the 10-day
    variance forecast (N, 8) and the 99% 10-day value at risk (N, 8)."""

    def __init__(self, hidden=32, horizon=10):
        super().__init__()
        self.horizon = horizon
        self.enc = nn.Sequential(nn.Conv1d(3, hidden, 5, padding=2), nn.ReLU(),
                                 nn.Conv1d(hidden, hidden, 5, padding=2), nn.ReLU())
        self.head = _mlp((hidden + 2, 64, 4))

    def forward(self, returns):                   # (N, 8, 250)
        assets, days = returns.shape[1], returns.shape[2]
        r = 0.01 * returns
        r2 = r * r
        neg = (r < 0).to(r.dtype)
        feat = torch.stack([r.abs(), r2, neg], 2).reshape(-1, 3, days)    # (N A, 3, T)
        h = self.enc(feat * 10.0).mean(-1).view(-1, assets, self.enc[0].out_channels)
        var = r2.mean(-1, keepdim=True)                                     # (N, A, 1)
        lvar = torch.log(var + 1.0e-8)
        p = 0.995 * torch.softmax(self.head(torch.cat([h, lvar, r.mean(-1, keepdim=True) * 100.0], -1)), -1)
        alpha, gamma, beta = p[..., 0:1], 2.0 * p[..., 1:2], p[..., 2:3]
        persist = alpha + 0.5 * gamma + beta
        omega = var * (1.0 - persist)
        shock = (alpha + gamma * neg) * r2                                  # (N, A, T)
        om, be = omega[..., 0], beta[..., 0]
        s2 = var[..., 0]
        seq = [s2]
        for t in range(1, days):
            s2 = om + shock[:, :, t - 1] + be * s2
            seq.append(s2)
        s2 = torch.stack(seq, -1)                                           # (N, A, T)
        nll = 0.5 * (torch.log(2.0 * math.pi * s2) + r2 / s2).sum(-1)
        nxt = om + shock[:, :, -1] + be * s2[:, :, -1]
        ps = persist[..., 0]
        uncond = var[..., 0]
        fc = torch.zeros_like(nxt)
        pw = torch.ones_like(ps)
        for _ in range(self.horizon):
            fc = fc + uncond + pw * (nxt - uncond)
            pw = pw * ps
        return torch.sqrt(s2), nll, fc, 2.326 * torch.sqrt(fc)


# --------------------------------------------------------------------------
# Published network designs
# --------------------------------------------------------------------------

def _sine_pos(h, w, dim):
    """DETR's 2-D sine positional encoding, (1, H W, dim)."""
    half = dim // 2
    yy, xx = torch.meshgrid(torch.arange(h, dtype=torch.float32) + 1.0,
                            torch.arange(w, dtype=torch.float32) + 1.0, indexing="ij")
    yy, xx = yy / h * 2 * math.pi, xx / w * 2 * math.pi
    freq = 10000.0 ** (2.0 * (torch.arange(half) // 2).float() / half)
    px, py = xx.flatten().unsqueeze(1) / freq, yy.flatten().unsqueeze(1) / freq
    px = torch.stack([px[:, 0::2].sin(), px[:, 1::2].cos()], 2).flatten(1)
    py = torch.stack([py[:, 0::2].sin(), py[:, 1::2].cos()], 2).flatten(1)
    return torch.cat([py, px], 1).unsqueeze(0)


class _M2FLayer(nn.Module):
    """Mask2Former decoder layer: masked cross-attention, self-attention,
    FFN (post-norm, query positional embeddings added to q and k)."""

    def __init__(self, dim, heads, ffn):
        super().__init__()
        self.cross = _Attention(dim, heads)
        self.self_att = _Attention(dim, heads)
        self.ffn = _mlp((dim, ffn, dim))
        self.n1, self.n2, self.n3 = nn.LayerNorm(dim), nn.LayerNorm(dim), nn.LayerNorm(dim)

    def forward(self, x, qpos, mem, mpos, bias):
        x = self.n1(x + self.cross(x + qpos, mem + mpos, mem, bias))
        q = x + qpos
        x = self.n2(x + self.self_att(q, q, x))
        return self.n3(x + self.ffn(x))


class Mask2FormerSeg(nn.Module):
    """Mask2Former, small, on 128 x 128 images: residual backbone (stem to
    1/4 with 32 channels, stages of 64, 128, 256 at 1/8, 1/16, 1/32), FPN
    pixel decoder (lateral 1 x 1 and output 3 x 3 Convs of 128, mask
    features at 1/4), 32 learned queries of 128 (4 heads, FFN 512), six
    layers over the 1/32, 1/16 and 1/8 maps round robin with sine
    positions and level embeddings; before each layer and after the last,
    LayerNorm, class Linear (20 + 1) and a mask embedding MLP whose dot
    products with the mask features give the masks, which, bilinearly
    resized to the next level and thresholded at 0.5, mask its
    cross-attention.  Returns the class logits (N, 32, 21), the mask
    logits (N, 32, 32, 32) and the semantic map (N, 20, 32, 32)."""

    def __init__(self, classes=20, queries=32, dim=128, heads=4, layers=6, image=128):
        super().__init__()
        self.heads = heads
        self.stem = nn.Sequential(_cbr(3, 32, 3, 2), _cbr(32, 32, 3, 2), _Basic(32, 32))
        self.s2 = nn.Sequential(_Basic(32, 64, 2), _Basic(64, 64))
        self.s3 = nn.Sequential(_Basic(64, 128, 2), _Basic(128, 128))
        self.s4 = nn.Sequential(_Basic(128, 256, 2), _Basic(256, 256))
        self.lat = nn.ModuleList(nn.Conv2d(c, dim, 1) for c in (32, 64, 128))
        self.top = nn.Conv2d(256, dim, 1)
        self.outc = nn.ModuleList(_cbr(dim, dim) for _ in range(3))
        self.mask_feat = nn.Conv2d(dim, dim, 1)
        self.sizes = [image // 32, image // 16, image // 8]
        for i, s in enumerate(self.sizes):
            self.register_buffer(f"pos{i}", _sine_pos(s, s, dim))
        self.level = nn.Parameter(torch.randn(3, 1, 1, dim) * 0.02)
        self.query = nn.Parameter(torch.randn(1, queries, dim) * 0.02)
        self.qpos = nn.Parameter(torch.randn(1, queries, dim) * 0.02)
        self.layers = nn.ModuleList(_M2FLayer(dim, heads, 4 * dim) for _ in range(layers))
        self.norm = nn.LayerNorm(dim)
        self.cls = nn.Linear(dim, classes + 1)
        self.mask_embed = _mlp((dim, dim, dim, dim))

    def _predict(self, x, mf, size):
        h = self.norm(x)
        masks = torch.matmul(self.mask_embed(h), mf.flatten(2))            # (N, Q, H W)
        side = mf.shape[-1]
        masks = masks.view(-1, h.shape[1], side, side)
        small = F.interpolate(masks, size=(size, size), mode="bilinear", align_corners=False)
        m = (torch.sigmoid(small.flatten(2)) < 0.5).to(x.dtype)
        full = (m.sum(-1, keepdim=True) >= m.shape[-1]).to(x.dtype)
        bias = (m * (1.0 - full) * -1.0e4).unsqueeze(1)                     # (N, 1, Q, HW)
        return self.cls(h), masks, bias

    def forward(self, image):                     # (N, 3, 128, 128)
        c1 = self.stem(image)
        c2 = self.s2(c1)
        c3 = self.s3(c2)
        c4 = self.s4(c3)
        p = self.top(c4)
        feats = [p]
        for lat, outc, c in zip(self.lat[::-1], self.outc, (c3, c2, c1)):
            p = outc(lat(c) + F.interpolate(p, scale_factor=2.0, mode="nearest"))
            feats.append(p)
        mf = self.mask_feat(feats[-1])                                      # (N, C, 32, 32)
        mems = [f.flatten(2).transpose(1, 2) for f in feats[:3]]
        poss = [getattr(self, f"pos{i}") + self.level[i] for i in range(3)]
        x = self.query.expand(image.shape[0], -1, -1)
        cls, masks, bias = self._predict(x, mf, self.sizes[0])
        for j, layer in enumerate(self.layers):
            lv = j % 3
            x = layer(x, self.qpos, mems[lv], poss[lv], bias)
            cls, masks, bias = self._predict(x, mf, self.sizes[(j + 1) % 3])
        sem = torch.matmul(torch.softmax(cls, -1)[..., :-1].transpose(1, 2),
                           torch.sigmoid(masks).flatten(2)).view(-1, cls.shape[-1] - 1, *masks.shape[-2:])
        return cls, masks, sem


class _ConvSiLU(nn.Sequential):
    """Conv-BN-SiLU (groups for depthwise)."""

    def __init__(self, cin, cout, k=3, stride=1, groups=1):
        super().__init__(nn.Conv2d(cin, cout, k, stride, k // 2, groups=groups, bias=False),
                         nn.BatchNorm2d(cout), nn.SiLU())


class _CSPNeXtBlock(nn.Module):
    """3 x 3 Conv, then depthwise 5 x 5 and pointwise Conv, identity add."""

    def __init__(self, ch):
        super().__init__()
        self.body = nn.Sequential(_ConvSiLU(ch, ch, 3), _ConvSiLU(ch, ch, 5, groups=ch), _ConvSiLU(ch, ch, 1))

    def forward(self, x):
        return x + self.body(x)


class _CSPLayer(nn.Module):
    """CSPNeXt layer: main and short 1 x 1 branches, blocks on the main one,
    concatenation, channel attention (mean, 1 x 1 Conv, hard sigmoid) and
    a final 1 x 1 Conv."""

    def __init__(self, cin, cout, blocks):
        super().__init__()
        mid = cout // 2
        self.main = _ConvSiLU(cin, mid, 1)
        self.short = _ConvSiLU(cin, mid, 1)
        self.blocks = nn.Sequential(*[_CSPNeXtBlock(mid) for _ in range(blocks)])
        self.att = nn.Conv2d(2 * mid, 2 * mid, 1)
        self.final = _ConvSiLU(2 * mid, cout, 1)

    def forward(self, x):
        y = torch.cat([self.blocks(self.main(x)), self.short(x)], 1)
        y = y * F.hardsigmoid(self.att(y.mean((2, 3), keepdim=True)))
        return self.final(y)


class _ScaleNorm(nn.Module):
    """x / ||x|| * sqrt(d) * g."""

    def __init__(self, dim):
        super().__init__()
        self.scale = dim ** 0.5
        self.g = nn.Parameter(torch.ones(1))

    def forward(self, x):
        return x / torch.sqrt((x * x).sum(-1, keepdim=True) + 1.0e-10).clamp(min=1.0e-5) * self.scale * self.g


class RTMPoseSimCC(nn.Module):
    """RTMPose-t on a 256 x 192 crop: CSPNeXt backbone (stem 3 -> 12 -> 12
    -> 24, stages of 48, 96, 192, 384 with 1, 1, 1, 1 blocks, SPP-free),
    7 x 7 Conv to 17 maps of 8 x 6, flattened to 48 and projected to 256,
    a gated attention unit (ScaleNorm, SiLU projection to U, V of 512
    and a shared base of 128 with per-use scale and offset, squared-ReLU
    attention across keypoints, U times AV, projection back, residual),
    SimCC Linears to 384 x-bins and 512 y-bins.  Returns the x logits
    (N, 17, 384), the y logits (N, 17, 512) and the decoded keypoints
    with their scores (N, 17, 3)."""

    def __init__(self, joints=17, height=256, width=192, hidden=256, expand=512, s=128, ratio=2.0):
        super().__init__()
        self.e, self.s, self.ratio = expand, s, ratio
        self.stem = nn.Sequential(_ConvSiLU(3, 12, 3, 2), _ConvSiLU(12, 12), _ConvSiLU(12, 24))
        stages, cin = [], 24
        for cout in (48, 96, 192, 384):
            stages.append(nn.Sequential(_ConvSiLU(cin, cout, 3, 2), _CSPLayer(cout, cout, 1)))
            cin = cout
        self.stages = nn.Sequential(*stages)
        self.final = nn.Conv2d(384, joints, 7, padding=3)
        flat = (height // 32) * (width // 32)
        self.mlp = nn.Sequential(_ScaleNorm(flat), nn.Linear(flat, hidden, bias=False))
        self.gau_norm = _ScaleNorm(hidden)
        self.uv = nn.Linear(hidden, 2 * expand + s, bias=False)
        self.gamma = nn.Parameter(torch.randn(2, s) * 0.02 + 1.0)
        self.beta = nn.Parameter(torch.zeros(2, s))
        self.o = nn.Linear(expand, hidden, bias=False)
        self.res_scale = nn.Parameter(torch.ones(hidden))
        self.cls_x = nn.Linear(hidden, int(width * ratio), bias=False)
        self.cls_y = nn.Linear(hidden, int(height * ratio), bias=False)

    def forward(self, image):                     # (N, 3, 256, 192)
        x = self.final(self.stages(self.stem(image))).flatten(2)           # (N, K, 48)
        x = self.mlp(x)
        uv = F.silu(self.uv(self.gau_norm(x)))
        u, v, base = uv[..., :self.e], uv[..., self.e:2 * self.e], uv[..., 2 * self.e:]
        q = base * self.gamma[0] + self.beta[0]
        k = base * self.gamma[1] + self.beta[1]
        att = F.relu(torch.matmul(q, k.transpose(1, 2)) / math.sqrt(self.s)) ** 2
        x = x * self.res_scale + self.o(u * torch.matmul(att, v))
        sx, sy = self.cls_x(x), self.cls_y(x)
        mx, ix = sx.max(-1)
        my, iy = sy.max(-1)
        kp = torch.stack([ix.to(x.dtype) / self.ratio, iy.to(x.dtype) / self.ratio, 0.5 * (mx + my)], -1)
        return sx, sy, kp


class _SubSpectralNorm(nn.Module):
    """BatchNorm over S frequency sub-bands separately (C S channels)."""

    def __init__(self, ch, sub=5):
        super().__init__()
        self.sub = sub
        self.bn = nn.BatchNorm2d(ch * sub)

    def forward(self, x):
        c, f, t = x.shape[1], x.shape[2], x.shape[3]
        y = self.bn(x.reshape(-1, c * self.sub, f // self.sub, t))
        return y.reshape(-1, c, f, t)


class _BCBlock(nn.Module):
    """Broadcasted residual block: (transition: 1 x 1 Conv-BN-ReLU) f2 =
    frequency depthwise 3 x 1 Conv + SubSpectralNorm; f1 = frequency mean,
    temporal depthwise 1 x 3 dilated Conv, BN, SiLU, 1 x 1 Conv; output
    ReLU(identity + f2 + f1 broadcast) (no identity in transitions)."""

    def __init__(self, cin, cout, fstride, dilation):
        super().__init__()
        self.trans = cin != cout
        self.pre = nn.Sequential(nn.Conv2d(cin, cout, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU()) \
            if self.trans else None
        self.f2 = nn.Sequential(nn.Conv2d(cout, cout, (3, 1), (fstride, 1), (1, 0), groups=cout, bias=False),
                                _SubSpectralNorm(cout))
        self.f1 = nn.Sequential(nn.Conv2d(cout, cout, (1, 3), 1, (0, dilation), (1, dilation), groups=cout,
                                          bias=False),
                                nn.BatchNorm2d(cout), nn.SiLU(), nn.Conv2d(cout, cout, 1, bias=False))

    def forward(self, x):
        if self.trans:
            x = self.pre(x)
        aux = self.f2(x)
        y = self.f1(aux.mean(2, keepdim=True))
        y = aux + y if self.trans else x + aux + y
        return F.relu(y)


class BCResNetKWS(nn.Module):
    """BC-ResNet-3 (tau 3) for 12 keywords on a 40 x 101 log-mel input: 5 x 5
    Conv (stride 2 in frequency) to 48, stages of 2, 2, 4, 4 blocks with
    24, 36, 48, 60 channels, frequency strides 1, 2, 2, 1 and temporal
    dilations 1, 2, 4, 8, a depthwise 5 x 5 Conv over the remaining 5
    frequencies, 1 x 1 Conv to 96, the temporal mean and a 1 x 1 Conv
    classifier.  Returns the logits (N, 12)."""

    def __init__(self, tau=3, classes=12):
        super().__init__()
        chans = [8 * tau, 12 * tau, 16 * tau, 20 * tau]
        self.stem = nn.Sequential(nn.Conv2d(1, 16 * tau, 5, (2, 1), 2, bias=False), nn.BatchNorm2d(16 * tau),
                                  nn.ReLU())
        blocks, cin = [], 16 * tau
        for n, c, fs, d in zip((2, 2, 4, 4), chans, (1, 2, 2, 1), (1, 2, 4, 8)):
            for j in range(n):
                blocks.append(_BCBlock(cin, c, fs if j == 0 else 1, d))
                cin = c
        self.blocks = nn.Sequential(*blocks)
        c = chans[-1]
        self.head = nn.Sequential(nn.Conv2d(c, c, 5, padding=(0, 2), groups=c, bias=False),
                                  nn.Conv2d(c, 32 * tau, 1, bias=False), nn.BatchNorm2d(32 * tau), nn.ReLU())
        self.cls = nn.Conv2d(32 * tau, classes, 1)

    def forward(self, mel):                       # (N, 1, 40, 101)
        x = self.head(self.blocks(self.stem(mel)))
        return self.cls(x.mean(3, keepdim=True)).flatten(1)


class _ConvBlock1d(nn.Module):
    """Enformer ConvBlock: BatchNorm, GELU, Conv1d."""

    def __init__(self, cin, cout, k):
        super().__init__()
        self.bn = nn.BatchNorm1d(cin)
        self.conv = nn.Conv1d(cin, cout, k, padding=k // 2)

    def forward(self, x):
        return self.conv(F.gelu(self.bn(x)))


class _AttnPool(nn.Module):
    """Softmax attention pooling of pairs of positions (1 x 1 Conv logits,
    initialised to 2 x identity as in Enformer)."""

    def __init__(self, ch):
        super().__init__()
        self.logit = nn.Conv2d(ch, ch, 1, bias=False)
        with torch.no_grad():
            self.logit.weight.copy_(2.0 * torch.eye(ch).view(ch, ch, 1, 1))

    def forward(self, x):                         # (N, C, L)
        x = x.view(x.shape[0], x.shape[1], -1, 2)
        w = torch.softmax(self.logit(x), -1)
        return (x * w).sum(-1)


def _rel_basis(length, feats):
    """Enformer's relative positional features of distances -(L-1) ... L-1:
    exponential, central mask and gamma profiles, each also times the
    sign, (2 L - 1, feats)."""
    dist = torch.arange(-length + 1, length, dtype=torch.float32)
    ad = dist.abs().unsqueeze(1)
    nb = feats // 6
    half_life = 2.0 ** torch.linspace(3.0, math.log2(length), nb)
    expo = torch.exp(-math.log(2.0) / half_life * ad)
    widths = 2.0 ** torch.arange(1, nb + 1, dtype=torch.float32) - 1.0
    cmask = (widths > ad).float()
    stddev = length / (2.0 * nb)
    mean = torch.linspace(length / nb, float(length), nb, dtype=torch.float64)
    conc, rate = (mean / stddev) ** 2, mean / stddev ** 2
    add = ad.double()
    logp = (conc - 1.0) * torch.log(add + 1.0e-8) - rate * add - torch.lgamma(conc) + conc * torch.log(rate)
    gam = torch.exp(logp - logp.max(0, keepdim=True).values).float()
    sym = torch.cat([expo, cmask, gam], 1)
    return torch.cat([sym, torch.sign(dist).unsqueeze(1) * sym], 1)


class _EnformerMHA(nn.Module):
    """Enformer attention: content logits (q + r_w) k and relative logits
    (q + r_r) R(rel) shifted to (L, L) by a Gather."""

    def __init__(self, dim, heads, key, length, feats=48):
        super().__init__()
        self.h, self.key, self.val = heads, key, dim // heads
        self.q = nn.Linear(dim, heads * key, bias=False)
        self.k = nn.Linear(dim, heads * key, bias=False)
        self.v = nn.Linear(dim, dim, bias=False)
        self.rel_k = nn.Linear(feats, heads * key, bias=False)
        self.r_w = nn.Parameter(torch.randn(1, heads, 1, key) * 0.02)
        self.r_r = nn.Parameter(torch.randn(1, heads, 1, key) * 0.02)
        self.o = nn.Linear(dim, dim)
        self.register_buffer("basis", _rel_basis(length, feats))
        i = torch.arange(length).view(length, 1)
        j = torch.arange(length).view(1, length)
        self.register_buffer("shift", (i * (2 * length - 1) + j - i + length - 1).flatten())
        self.length = length

    def forward(self, x):                         # (N, L, C)
        n_l = self.length
        q = _heads(self.q(x), self.h) / math.sqrt(self.key)
        k, v = _heads(self.k(x), self.h), _heads(self.v(x), self.h)
        rk = self.rel_k(self.basis).view(-1, self.h, self.key).transpose(0, 1)   # (H, 2L-1, key)
        content = torch.matmul(q + self.r_w, k.transpose(2, 3))
        rel = torch.matmul(q + self.r_r, rk.transpose(1, 2))               # (N, H, L, 2L-1)
        rel = rel.reshape(-1, self.h, n_l * (2 * n_l - 1))[:, :, self.shift].view(-1, self.h, n_l, n_l)
        att = torch.softmax(content + rel, -1)
        return self.o(_merge(torch.matmul(att, v)))


class EnformerLite(nn.Module):
    """Enformer, scaled down, on one-hot DNA of 2048 bp: stem Conv1d (4 ->
    64, k 15), residual ConvBlock 1 and attention pooling; a tower of four
    stages (80, 96, 112, 128 channels: ConvBlock 5, residual ConvBlock 1,
    attention pooling) to 64 bins of 32 bp; four pre-LN transformer layers
    of 128 (4 heads, keys of 32, relative positional basis of 48
    features, MLP 256 ReLU); cropping of 8 bins each side, pointwise
    ConvBlock to 256 with GELU and a softplus head of 32 tracks.  Returns
    the tracks (N, 48, 32)."""

    def __init__(self, length=2048, stem=64, tower=(80, 96, 112, 128), layers=4, heads=4, key=32,
                 tracks=32, crop=8):
        super().__init__()
        self.crop = crop
        self.stem = nn.Conv1d(4, stem, 15, padding=7)
        self.stem_res = _ConvBlock1d(stem, stem, 1)
        self.stem_pool = _AttnPool(stem)
        self.tower = nn.ModuleList()
        cin = stem
        for c in tower:
            self.tower.append(nn.ModuleList([_ConvBlock1d(cin, c, 5), _ConvBlock1d(c, c, 1), _AttnPool(c)]))
            cin = c
        dim = tower[-1]
        bins = length // 2 ** (len(tower) + 1)
        self.n1 = nn.ModuleList(nn.LayerNorm(dim) for _ in range(layers))
        self.att = nn.ModuleList(_EnformerMHA(dim, heads, key, bins) for _ in range(layers))
        self.mlp = nn.ModuleList(nn.Sequential(nn.LayerNorm(dim), _mlp((dim, 2 * dim, dim))) for _ in range(layers))
        self.point = _ConvBlock1d(dim, 2 * dim, 1)
        self.head = nn.Linear(2 * dim, tracks)

    def forward(self, dna):                       # (N, 4, 2048)
        x = self.stem(dna)
        x = self.stem_pool(x + self.stem_res(x))
        for conv, res, pool in self.tower:
            x = conv(x)
            x = pool(x + res(x))
        x = x.transpose(1, 2)                                               # (N, L, C)
        for n1, att, mlp in zip(self.n1, self.att, self.mlp):
            x = x + att(n1(x))
            x = x + mlp(x)
        x = x[:, self.crop:x.shape[1] - self.crop].transpose(1, 2)
        x = F.gelu(self.point(x)).transpose(1, 2)
        return F.softplus(self.head(x))


class VectorNetMotion(nn.Module):
    """VectorNet on 64 polylines (agents and lanes) of 20 vectors of 8
    features (start, end, attributes), vectors valid where mask > 0:
    three subgraph layers (Linear, LayerNorm, ReLU of 64; masked max over
    the polyline's vectors concatenated to every vector), polyline max
    pooling to 128 and L2 normalisation, one global self-attention layer
    over the valid polylines, and the target agent's (polyline 0)
    decoder MLP 128 -> 256 -> 60.  Returns the trajectory (N, 30, 2) and
    the target's attention over the polylines (N, 64)."""

    def __init__(self, feats=8, hidden=64, layers=3, future=30):
        super().__init__()
        self.future = future
        self.enc = nn.ModuleList()
        cin = feats
        for _ in range(layers):
            self.enc.append(nn.Sequential(nn.Linear(cin, hidden), nn.LayerNorm(hidden), nn.ReLU()))
            cin = 2 * hidden
        dim = 2 * hidden
        self.q, self.k, self.v = nn.Linear(dim, dim), nn.Linear(dim, dim), nn.Linear(dim, dim)
        self.dec = _mlp((dim, 256, 2 * future))

    def forward(self, vectors, mask):             # (N, P, V, 8), (N, P, V)
        valid = (mask > 0).to(vectors.dtype).unsqueeze(-1)                  # (N, P, V, 1)
        neg = (valid - 1.0) * 1.0e4
        x = vectors
        for layer in self.enc:
            h = layer(x)
            pooled = (h + neg).max(2, keepdim=True).values.expand_as(h)
            x = torch.cat([h, pooled], -1) * valid
        poly = (x + neg).max(2).values                                      # (N, P, D)
        pvalid = valid.max(2).values                                        # (N, P, 1)
        poly = poly * pvalid
        poly = poly / torch.sqrt((poly * poly).sum(-1, keepdim=True) + 1.0e-6)
        q, k, v = self.q(poly), self.k(poly), self.v(poly)
        s = torch.matmul(q, k.transpose(1, 2)) + (pvalid.transpose(1, 2) - 1.0) * 1.0e4
        att = torch.softmax(s, -1)
        g = torch.matmul(att, v)
        traj = self.dec(g[:, 0]).view(-1, self.future, 2)
        return traj.cumsum(1), att[:, 0]


class _HSTULayer(nn.Module):
    """HSTU: SiLU(Linear(LN x)) split into U, V, Q, K; SiLU(Q K^T + rab) / L
    masked causally (no softmax); Linear(LN(A V) * U) added."""

    def __init__(self, dim, heads, qk, vdim):
        super().__init__()
        self.h, self.qk, self.vd = heads, qk, vdim
        self.norm = nn.LayerNorm(dim)
        self.uvqk = nn.Linear(dim, heads * (2 * vdim + 2 * qk))
        self.anorm = nn.LayerNorm(heads * vdim)
        self.o = nn.Linear(heads * vdim, dim)

    def forward(self, x, rab, causal):
        hv, hq = self.h * self.vd, self.h * self.qk
        z = F.silu(self.uvqk(self.norm(x)))
        u, v = z[..., :hv], z[..., hv:2 * hv]
        q, k = z[..., 2 * hv:2 * hv + hq], z[..., 2 * hv + hq:]
        q, k, v = _heads(q, self.h), _heads(k, self.h), _heads(v, self.h)
        a = F.silu(torch.matmul(q, k.transpose(2, 3)) + rab) * causal
        y = _merge(torch.matmul(a, v))
        return x + self.o(self.anorm(y) * u)


class HSTUGenRec(nn.Module):
    """HSTU sequential recommender: 200 history items (20000-item table of
    128, learned absolute positions), timestamps as cumulative sums of
    |gaps| with log-bucketed (64 buckets) relative time biases and
    relative position biases per head, four HSTU layers (2 heads, Q/K of
    32, U/V of 64), final LayerNorm, L2-normalised user embedding scored
    against the L2-normalised item table, top 10.  Returns the top-10
    scores (N, 10), their item ids (N, 10) and the user embedding
    (N, 128)."""

    def __init__(self, items=20000, length=200, dim=128, layers=4, heads=2, qk=32, vdim=64, buckets=64):
        super().__init__()
        self.length, self.buckets = length, buckets
        self.item = nn.Embedding(items, dim)
        self.pos = nn.Parameter(torch.randn(1, length, dim) * 0.02)
        self.layers = nn.ModuleList(_HSTULayer(dim, heads, qk, vdim) for _ in range(layers))
        self.rel_pos = nn.Parameter(torch.randn(heads, 2 * length - 1) * 0.02)
        self.rel_time = nn.Embedding(buckets, heads)
        i = torch.arange(length).view(length, 1)
        j = torch.arange(length).view(1, length)
        self.register_buffer("relidx", (j - i + length - 1).flatten())
        self.register_buffer("causal", (j <= i).float().view(1, 1, length, length) / length)
        self.norm = nn.LayerNorm(dim)

    def forward(self, ids, gaps):                 # (N, 200) int64, (N, 200)
        n_l = self.length
        ts = torch.cumsum(gaps.abs() * 3600.0, 1)
        dt = (ts.unsqueeze(2) - ts.unsqueeze(1)).abs()                      # (N, L, L)
        bucket = (torch.log(dt + 1.0) / 0.301).floor().clamp(0, self.buckets - 1).long()
        rab = self.rel_time(bucket).permute(0, 3, 1, 2)                     # (N, H, L, L)
        rab = rab + self.rel_pos[:, self.relidx].view(1, -1, n_l, n_l)
        x = self.item(ids) * math.sqrt(self.item.embedding_dim) + self.pos
        for layer in self.layers:
            x = layer(x, rab, self.causal)
        u = self.norm(x[:, -1])
        u = u / torch.sqrt((u * u).sum(-1, keepdim=True) + 1.0e-12)
        tab = self.item.weight
        tab = tab / torch.sqrt((tab * tab).sum(-1, keepdim=True) + 1.0e-12)
        top = torch.matmul(u, tab.t()).topk(10, 1)
        return top.values, top.indices, u


class QMIXMixer(nn.Module):
    """QMIX over 16 steps of 8 agents: each agent's network (observation of
    80, its one-hot id and previous greedy action -> Linear 64, ReLU,
    GRUCell 64, Linear 14) runs step by step with the agents in the
    batch; the chosen Qs are mixed with weights from hypernetworks of the
    global state of 168 (|Linear 168 -> 64 -> 8 x 32|, bias 168 -> 32,
    |Linear 168 -> 64 -> 32|, state value 168 -> 32 -> 1), ELU hidden.
    Returns Q_tot (N, 16), the agents' Qs (N, 16, 8, 14) and the greedy
    actions (N, 16, 8)."""

    def __init__(self, agents=8, obs=80, state=168, actions=14, hidden=64, embed=32):
        super().__init__()
        self.agents, self.actions, self.embed, self.hidden = agents, actions, embed, hidden
        self.fc1 = nn.Linear(obs + agents + actions, hidden)
        self.rnn = nn.GRUCell(hidden, hidden)
        self.fc2 = nn.Linear(hidden, actions)
        self.register_buffer("ids", torch.eye(agents).unsqueeze(0))
        self.hyper_w1 = _mlp((state, 64, agents * embed))
        self.hyper_b1 = nn.Linear(state, embed)
        self.hyper_w2 = _mlp((state, 64, embed))
        self.value = _mlp((state, embed, 1))

    def forward(self, obs, state):                # (N, T, A, 80), (N, T, 168)
        a, steps = self.agents, obs.shape[1]
        ids = self.ids.expand(obs.shape[0], -1, -1)
        h = torch.zeros_like(obs[:, 0, :, :1]).expand(-1, -1, self.hidden).reshape(-1, self.hidden)
        last = torch.zeros_like(ids[..., :1]).expand(-1, -1, self.actions)
        qs, acts = [], []
        for t in range(steps):
            inp = torch.cat([obs[:, t], ids, last], -1).reshape(-1, self.fc1.in_features)
            h = self.rnn(F.relu(self.fc1(inp)), h)
            q = self.fc2(h).view(-1, a, self.actions)
            act = q.argmax(-1)
            last = F.one_hot(act, self.actions).to(q.dtype)
            qs.append(q)
            acts.append(act)
        q = torch.stack(qs, 1)                                              # (N, T, A, U)
        chosen = q.max(-1).values.unsqueeze(-2)                             # (N, T, 1, A)
        w1 = self.hyper_w1(state).abs().view(-1, steps, a, self.embed)
        b1 = self.hyper_b1(state).unsqueeze(-2)
        hid = F.elu(torch.matmul(chosen, w1) + b1)                          # (N, T, 1, E)
        w2 = self.hyper_w2(state).abs().unsqueeze(-1)                       # (N, T, E, 1)
        qtot = torch.matmul(hid, w2).squeeze(-1).squeeze(-1) + self.value(state).squeeze(-1)
        return qtot, q, torch.stack(acts, 1).to(q.dtype)


class GraphWaveNetTraffic(nn.Module):
    """Graph WaveNet on 170 sensors, 2 features and 13 input steps: 1 x 1
    start Conv to 32, four blocks of two layers (dilations 1, 2) of gated
    TCN (tanh and sigmoid 1 x 2 dilated Convs), a 1 x 1 skip Conv to 256
    on the last step, a diffusion graph convolution (order 2 over the
    forward and backward random-walk matrices of a fixed sparse random
    road graph and the adaptive adjacency softmax(ReLU(E1 E2)) with
    10-dimensional node embeddings, concatenated and mixed by a 1 x 1
    Conv), residual and BatchNorm; ReLU, 1 x 1 Convs 256 -> 512 -> 12.
    Returns the forecast (N, 12, 170, 1)."""

    def __init__(self, nodes=170, feats=2, res=32, skip=256, end=512, horizon=12, blocks=4, order=2,
                 emb=10):
        super().__init__()
        self.order = order
        g = torch.Generator().manual_seed(36)
        pos = torch.rand(nodes, 2, generator=g)
        d = torch.cdist(pos, pos)
        adj = torch.exp(-(d / 0.1) ** 2) * (d < 0.15).float()
        adj = adj * (torch.rand(nodes, nodes, generator=g) < 0.7).float() + torch.eye(nodes)
        self.register_buffer("p_fwd", adj / adj.sum(1, keepdim=True))
        self.register_buffer("p_bwd", adj.t() / adj.t().sum(1, keepdim=True))
        self.e1 = nn.Parameter(torch.randn(nodes, emb))
        self.e2 = nn.Parameter(torch.randn(emb, nodes))
        self.start = nn.Conv2d(feats, res, 1)
        self.filt, self.gate, self.skip, self.gconv, self.bn = (nn.ModuleList() for _ in range(5))
        self.dil = []
        for _ in range(blocks):
            for d_ in (1, 2):
                self.dil.append(d_)
                self.filt.append(nn.Conv2d(res, res, (1, 2), dilation=(1, d_)))
                self.gate.append(nn.Conv2d(res, res, (1, 2), dilation=(1, d_)))
                self.skip.append(nn.Conv2d(res, skip, 1))
                self.gconv.append(nn.Conv2d((order * 3 + 1) * res, res, 1))
                self.bn.append(nn.BatchNorm2d(res))
        self.end1 = nn.Conv2d(skip, end, 1)
        self.end2 = nn.Conv2d(end, horizon, 1)

    def forward(self, x):                         # (N, 2, V, 13)
        adp = torch.softmax(F.relu(torch.matmul(self.e1, self.e2)), 1)
        supports = [self.p_fwd, self.p_bwd, adp]
        x = self.start(x)
        skip = None
        for i in range(len(self.dil)):
            res = x
            x = torch.tanh(self.filt[i](x)) * torch.sigmoid(self.gate[i](x))
            s = self.skip[i](x[..., -1:])
            skip = s if skip is None else skip + s
            outs = [x]
            for a in supports:
                h = x
                for _ in range(self.order):
                    h = torch.matmul(h.transpose(2, 3), a).transpose(2, 3)        # sum_v h[v] A[v, w]
                    outs.append(h)
            x = self.gconv[i](torch.cat(outs, 1))
            x = self.bn[i](x + res[..., -x.shape[-1]:])
        y = self.end2(F.relu(self.end1(F.relu(skip))))
        return y


class _RMSNorm(nn.Module):
    """x / RMS(x) * g."""

    def __init__(self, dim, eps=1.0e-6):
        super().__init__()
        self.g = nn.Parameter(torch.ones(dim))
        self.eps = eps

    def forward(self, x):
        return x / torch.sqrt((x * x).mean(-1, keepdim=True) + self.eps) * self.g


def _rope(x, cos, sin):
    """Rotary embedding by halves: x (., L, d), cos/sin (L, d)."""
    half = x.shape[-1] // 2
    rot = torch.cat([-x[..., half:], x[..., :half]], -1)
    return x * cos + rot * sin


class _MLALayer(nn.Module):
    """DeepSeek-V2 block: RMSNorm, multi-head latent attention (query down
    128 + RMSNorm + up; joint KV down to 64 + shared rotary key of 16,
    RMSNorm, up to per-head keys and values), RMSNorm, SwiGLU FFN."""

    def __init__(self, dim, heads, q_rank, kv_rank, nope, rope, vdim, ffn):
        super().__init__()
        self.h, self.nope, self.rope, self.vd, self.kv_rank = heads, nope, rope, vdim, kv_rank
        self.n1, self.n2 = _RMSNorm(dim), _RMSNorm(dim)
        self.q_down = nn.Linear(dim, q_rank, bias=False)
        self.q_norm = _RMSNorm(q_rank)
        self.q_up = nn.Linear(q_rank, heads * (nope + rope), bias=False)
        self.kv_down = nn.Linear(dim, kv_rank + rope, bias=False)
        self.kv_norm = _RMSNorm(kv_rank)
        self.kv_up = nn.Linear(kv_rank, heads * (nope + vdim), bias=False)
        self.o = nn.Linear(heads * vdim, dim, bias=False)
        self.w1 = nn.Linear(dim, ffn, bias=False)
        self.w3 = nn.Linear(dim, ffn, bias=False)
        self.w2 = nn.Linear(ffn, dim, bias=False)
        self.scale = 1.0 / math.sqrt(nope + rope)

    def forward(self, x, cos, sin, mask):
        n_l = x.shape[1]
        h = self.n1(x)
        q = self.q_up(self.q_norm(self.q_down(h))).view(-1, n_l, self.h, self.nope + self.rope).transpose(1, 2)
        q_nope, q_rope = q[..., :self.nope], _rope(q[..., self.nope:], cos, sin)
        ckv = self.kv_down(h)
        latent, k_rope = ckv[..., :self.kv_rank], _rope(ckv[..., self.kv_rank:], cos, sin)
        kv = self.kv_up(self.kv_norm(latent)).view(-1, n_l, self.h, self.nope + self.vd).transpose(1, 2)
        k_nope, v = kv[..., :self.nope], kv[..., self.nope:]
        s = torch.matmul(q_nope, k_nope.transpose(2, 3)) + torch.matmul(q_rope, k_rope.unsqueeze(1).transpose(2, 3))
        att = torch.softmax(s * self.scale + mask, -1)
        x = x + self.o(_merge(torch.matmul(att, v)))
        h = self.n2(x)
        x = x + self.w2(F.silu(self.w1(h)) * self.w3(h))
        return x, torch.cat([latent, k_rope], -1)


class MLADecoderLM(nn.Module):
    """Small DeepSeek-V2-style decoder over 128 tokens (vocabulary 8000):
    embedding of 256, four blocks of multi-head latent attention (4
    heads, non-rotary query/key parts of 32, rotary parts of 16, values
    of 32, query rank 128, KV rank 64) and SwiGLU FFN of 640, final
    RMSNorm and an untied output Linear on the last token.  Returns the
    last token's logits (N, 8000) and the compressed KV cache of every
    layer (N, 4, 128, 80)."""

    def __init__(self, vocab=8000, length=128, dim=256, layers=4, heads=4, q_rank=128, kv_rank=64, nope=32,
                 rope=16, vdim=32, ffn=640):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.layers = nn.ModuleList(_MLALayer(dim, heads, q_rank, kv_rank, nope, rope, vdim, ffn)
                                    for _ in range(layers))
        self.norm = _RMSNorm(dim)
        self.out = nn.Linear(dim, vocab, bias=False)
        inv = 1.0 / (10000.0 ** (torch.arange(0, rope, 2, dtype=torch.float32) / rope))
        ang = torch.arange(length, dtype=torch.float32).unsqueeze(1) * inv.unsqueeze(0)
        ang = torch.cat([ang, ang], 1)
        self.register_buffer("cos", ang.cos())
        self.register_buffer("sin", ang.sin())
        i = torch.arange(length).view(length, 1)
        j = torch.arange(length).view(1, length)
        self.register_buffer("mask", ((j > i).float() * -1.0e4).view(1, 1, length, length))

    def forward(self, tokens):                    # (N, 128) int64
        x = self.tok(tokens)
        caches = []
        for layer in self.layers:
            x, c = layer(x, self.cos, self.sin, self.mask)
            caches.append(c)
        return self.out(self.norm(x[:, -1])), torch.stack(caches, 1)


BLIND36 = {
    "polar_sc_decode": dict(ctor=PolarSCDecode, family="successive-cancellation-polar-decoding",
                            inputs=[("rx", ("N", 2, 256), "float32", None)]),
    "rnea_inverse_dynamics": dict(ctor=RNEAInverseDynamics, family="recursive-newton-euler-inverse-dynamics",
                                  inputs=[("task", ("N", 16), "float32", None)]),
    "gjr_garch_filter": dict(ctor=GJRGarchFilter, family="asymmetric-garch-volatility-recursion",
                             inputs=[("returns", ("N", 8, 250), "float32", None)]),
    "mask2former_seg": dict(ctor=Mask2FormerSeg, family="masked-attention-mask-transformer",
                            inputs=[("image", ("N", 3, 128, 128), "float32", None)]),
    "rtmpose_simcc": dict(ctor=RTMPoseSimCC, family="simcc-coordinate-classification-pose",
                          inputs=[("image", ("N", 3, 256, 192), "float32", None)]),
    "bcresnet_kws": dict(ctor=BCResNetKWS, family="broadcasted-residual-subspectral-keyword-spotting",
                         inputs=[("mel", ("N", 1, 40, 101), "float32", None)]),
    "enformer_lite": dict(ctor=EnformerLite, family="dna-conv-tower-attention-pool-transformer",
                          inputs=[("dna", ("N", 4, 2048), "float32", None)]),
    "vectornet_motion": dict(ctor=VectorNetMotion, family="vectorized-polyline-subgraph-encoding",
                             inputs=[("vectors", ("N", 64, 20, 8), "float32", None),
                                     ("mask", ("N", 64, 20), "float32", None)]),
    "hstu_genrec": dict(ctor=HSTUGenRec, family="pointwise-aggregated-attention-sequential-transducer",
                        inputs=[("ids", ("N", 200), "int64", 20000),
                                ("gaps", ("N", 200), "float32", None)]),
    "qmix_mixer": dict(ctor=QMIXMixer, family="monotonic-hypernetwork-value-mixing",
                       inputs=[("obs", ("N", 16, 8, 80), "float32", None),
                               ("state", ("N", 16, 168), "float32", None)]),
    "graph_wavenet_traffic": dict(ctor=GraphWaveNetTraffic, family="adaptive-adjacency-gated-tcn-traffic",
                                  inputs=[("x", ("N", 2, 170, 13), "float32", None)]),
    "mla_decoder_lm": dict(ctor=MLADecoderLM, family="multi-head-latent-attention-decoder",
                           inputs=[("tokens", ("N", 128), "int64", 8000)]),
}
