r"""BLIND10: the tenth blind set, written on 2026-12-06 by a helper session
before any of it was measured.  It is to be measured before any further
change is scored, and scored only once, at the end, with the code as it
then stands (bench/zoo_accuracy.py --set blind10).  None of its twelve
families occurs in another set (ZOO, BLIND, BLIND2 ... BLIND9, the
reference models), so no plan rule, feature, fit or calibration was made
with any of them in view, and none of them was run through onnxcost
predict before being measured.

The families: a differentiable mass-spring cloth simulator (a 4 x 4 grid of
particles joined by structural and shear springs, forces gathered per
spring and summed to the particles by an incidence MatMul, a learned
damping and wind, semi-implicit Euler with pinned corners and ground
contact, unrolled over 12 steps); a neural stack transducer (Grefenstette
et al.: an LSTM controller pushing and popping a continuous stack whose
strengths are updated and read through CumSum); an RSSM-like latent world
model (Dreamer: a GRU deterministic state with categorical stochastic
latents, posterior steps over observations, then imagined steps under a
greedy policy with reward and continuation heads); a DETR-style set
matcher (queries cross-attending to tokens, class / L1 / GIoU pairwise
costs, a Hungarian-free greedy assignment by repeated ArgMax over the
cost matrix with rows and columns masked by Where); a neural programmer-
interpreter core (Reed & de Freitas: a two-layer LSTM core, program
selection by cosine similarity to a program key memory, argument heads,
a termination gate freezing the trace); a differentiable particle filter
(Jonschkowski et al.: a learned motion and observation model over 32
particles, soft systematic resampling by CumSum, comparison counting and
GatherElements); a Monodepth2-like depth estimator (a strided encoder, a
decoder of reflection-padded Conv + ELU layers with nearest upsampling
and skip concatenation, sigmoid disparities at four scales converted to
depth); a trimap image-matting net (the trimap one-hot beside the image,
an ASPP-like context module with a global pooling branch, a skip decoder,
the known regions imposed by Where, a guided-filter refinement by box
filters); a classification colorizer (Zhang et al.: dilated Conv stacks
over the lightness, a ConvTranspose, 313 quantized ab classes, the
annealed mean by a tempered softmax and Einsum with the bin centres); an
STM-like video object segmentation memory read (key / value encoders on
two memory frames with masks, a space-time affinity MatMul and softmax
over every memory location, a skip decoder to mask probabilities); a
Panoptic-DeepLab-like head (semantic and instance decoders, centre
heatmap non-maximum suppression by MaxPool and Equal, TopK centres,
pixels grouped to the nearest offset-shifted centre by ArgMin); and a
Lift-Splat-like camera-to-BEV net (four camera images, a per-pixel depth
distribution times context features, the frustum points pooled into a
32 x 32 bird's-eye grid by a fixed sort, CumSum and Gather, a BEV Conv
net).  The first six are made of small kernels at batch 1 (most a few
thousand elements or fewer, hundreds of kernels); the other six are of
ordinary sizes.

To be measured with

    OMP_WAIT_POLICY=PASSIVE /usr/bin/python3 scripts/measure_zoo.py --set blind10 \
        mass_spring_cloth neural_stack rssm_world greedy_matcher npi_core \
        particle_filter monodepth_lite trimap_matting colorization_cls stm_vos \
        panoptic_center lss_bev --threads 1 2 --batches 1 4 16

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


def _up2(x, mode="bilinear"):
    """Resize by 2 (nearest or bilinear)."""
    if mode == "nearest":
        return F.interpolate(x, scale_factor=2.0, mode="nearest")
    return F.interpolate(x, scale_factor=2.0, mode="bilinear", align_corners=False)


def _lstm(gates, c):
    """LSTM state update from the four gate pre-activations (i, f, g, o)."""
    i, f, g, o = gates.chunk(4, dim=-1)
    c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
    return torch.sigmoid(o) * torch.tanh(c), c


def _gru(gx, gh, h):
    """GRU state update from the input and hidden projections (r, z, n)."""
    xr, xz, xn = gx.chunk(3, dim=-1)
    hr, hz, hn = gh.chunk(3, dim=-1)
    r, z = torch.sigmoid(xr + hr), torch.sigmoid(xz + hz)
    return (1 - z) * torch.tanh(xn + r * hn) + z * h


# --------------------------------------------------------------------------
# Small kernels at batch 1
# --------------------------------------------------------------------------

class MassSpringCloth(nn.Module):
    """Differentiable mass-spring cloth: 16 particles on a 4 x 4 grid, 42
    springs (structural and both shears), the state perturbed by the input.
    Per step: both ends of every spring gathered (Gather on a fixed edge
    list), lengths by Sqrt, Hooke forces with learned stiffness and rest
    lengths plus a learned damping MLP on the stretch and its rate, summed
    to the particles by a MatMul with the signed incidence matrix; gravity
    and a learned wind MLP on the positions; semi-implicit Euler; the two
    top corners pinned by a mask; ground contact (Where: a damped bounce,
    the height clamped).  12 steps; returns the trajectory and the energy
    at each step."""

    def __init__(self, side=4, steps=12, dt=0.04, hidden=16):
        super().__init__()
        self.steps, self.dt = steps, dt
        n = side * side
        edges = []
        for r in range(side):
            for c in range(side):
                i = r * side + c
                if c + 1 < side:
                    edges.append((i, i + 1))
                if r + 1 < side:
                    edges.append((i, i + side))
                if r + 1 < side and c + 1 < side:
                    edges.append((i, i + side + 1))
                if r + 1 < side and c > 0:
                    edges.append((i, i + side - 1))
        src = torch.tensor([e[0] for e in edges])
        dst = torch.tensor([e[1] for e in edges])
        E = len(edges)
        inc = torch.zeros(n, E)
        inc[src, torch.arange(E)] = 1.0
        inc[dst, torch.arange(E)] = -1.0
        ys, xs = torch.meshgrid(torch.arange(side, dtype=torch.float32),
                                torch.arange(side, dtype=torch.float32), indexing="ij")
        rest = torch.stack([xs, 2.0 - ys], dim=-1).reshape(n, 2) * 0.5
        self.register_buffer("src", src)
        self.register_buffer("dst", dst)
        self.register_buffer("inc", inc)
        self.register_buffer("rest_pos", rest)
        pin = torch.ones(n, 1)
        pin[0], pin[side - 1] = 0.0, 0.0
        self.register_buffer("free", pin)
        self.rest_len = nn.Parameter((rest[dst] - rest[src]).norm(dim=-1))
        self.log_k = nn.Parameter(torch.full((E,), 3.0) + 0.1 * torch.randn(E))
        self.damp = nn.Sequential(nn.Linear(2, hidden), nn.Tanh(), nn.Linear(hidden, 1))
        self.wind = nn.Sequential(nn.Linear(2, hidden), nn.Tanh(), nn.Linear(hidden, 2))
        self.register_buffer("gravity", torch.tensor([0.0, -9.8]))

    def forward(self, state):                      # (N, 16, 4)
        pos = self.rest_pos + 0.05 * state[..., :2]
        vel = 0.1 * state[..., 2:]
        k = torch.exp(self.log_k).unsqueeze(-1)
        traj, energy = [], []
        for _ in range(self.steps):
            pi, pj = pos[:, self.src], pos[:, self.dst]
            vi, vj = vel[:, self.src], vel[:, self.dst]
            d = pj - pi
            length = torch.sqrt((d * d).sum(-1, keepdim=True) + 1e-8)
            u = d / length
            stretch = length - self.rest_len.unsqueeze(-1)
            rate = ((vj - vi) * u).sum(-1, keepdim=True)
            f = (k * stretch + self.damp(torch.cat([stretch, rate], dim=-1))) * u   # (N, E, 2)
            force = torch.matmul(self.inc, f) + self.gravity + self.wind(pos)
            vel = (vel + self.dt * force) * self.free
            pos = pos + self.dt * vel
            below = pos[..., 1:] < 0
            vy = torch.where(below, -0.5 * vel[..., 1:], vel[..., 1:])
            vel = torch.cat([vel[..., :1], vy], dim=-1)
            pos = torch.cat([pos[..., :1], torch.clamp(pos[..., 1:], min=0.0)], dim=-1)
            traj.append(pos)
            energy.append(0.5 * (vel * vel).sum((1, 2)) + 9.8 * pos[..., 1].sum(-1)
                          + 0.5 * (k[:, 0] * stretch[..., 0] * stretch[..., 0]).sum(-1))
        return torch.stack(traj, dim=1), torch.stack(energy, dim=1)


class NeuralStack(nn.Module):
    """Neural stack transducer (Grefenstette et al., "Learning to Transduce
    with Unbounded Memory") over 12 input tokens: per step an LSTM cell
    (one Linear over the token embedding, the previous read and state)
    emits push and pop strengths and a value; the pop removes strength
    from the top down (the strength above each slot by ReduceSum minus
    CumSum, Relu), the value is pushed into the step's slot (a fixed
    one-hot), and the read is the strength-limited (Min) weighted sum of
    the values.  Returns per-step log-softmax outputs and the final
    strengths."""

    def __init__(self, vocab=20, emb=24, hidden=64, width=24, steps=12):
        super().__init__()
        self.steps, self.hidden, self.width = steps, hidden, width
        self.emb = nn.Embedding(vocab, emb)
        self.ctrl = nn.Linear(emb + width + hidden, 4 * hidden)
        self.ops = nn.Linear(hidden, 2 + width)
        self.out = nn.Linear(hidden + width, vocab)
        self.register_buffer("slots", torch.eye(steps))

    def forward(self, tokens):                     # (N, 12)
        e = self.emb(tokens)
        n = tokens.shape[0]
        h, c = e.new_zeros(n, self.hidden), e.new_zeros(n, self.hidden)
        r = e.new_zeros(n, self.width)
        s = e.new_zeros(n, self.steps)
        V = e.new_zeros(n, self.steps, self.width)
        outs = []
        for t in range(self.steps):
            h, c = _lstm(self.ctrl(torch.cat([e[:, t], r, h], dim=-1)), c)
            o = self.ops(h)
            push, pop, v = torch.sigmoid(o[:, :1]), torch.sigmoid(o[:, 1:2]), torch.tanh(o[:, 2:])
            above = s.sum(-1, keepdim=True) - torch.cumsum(s, dim=-1)
            s = F.relu(s - F.relu(pop - above)) + push * self.slots[t]
            V = V + self.slots[t].unsqueeze(-1) * v.unsqueeze(1)
            above = s.sum(-1, keepdim=True) - torch.cumsum(s, dim=-1)
            w = torch.minimum(s, F.relu(1 - above))
            r = torch.matmul(w.unsqueeze(1), V)[:, 0]
            outs.append(self.out(torch.cat([h, r], dim=-1)))
        return torch.log_softmax(torch.stack(outs, dim=1), dim=-1), s


class RSSMWorld(nn.Module):
    """RSSM latent world model (Hafner et al., Dreamer V2): observations
    encoded by an MLP with LayerNorm; 6 posterior steps (a GRU deterministic
    state fed the previous latent and the action embedding; prior and
    posterior MLPs to 8 categorical latents of 8 classes, their modes as
    one-hots by ArgMax and Equal; the categorical KL; a decoder MLP), then
    6 imagined steps where a greedy policy head picks the action (one-hot
    MatMul into the action embeddings) and the prior alone advances the
    latent, with reward and continuation heads."""

    def __init__(self, obs=32, actions=6, hidden=64, groups=8, classes=8, observe=6,
                 imagine=6):
        super().__init__()
        self.H, self.G, self.K = hidden, groups, classes
        self.observe, self.imagine = observe, imagine
        GK = groups * classes
        self.enc = nn.Sequential(nn.Linear(obs, 64), nn.LayerNorm(64), nn.ELU(),
                                 nn.Linear(64, 64), nn.ELU())
        self.act_emb = nn.Embedding(actions, 16)
        self.img_in = nn.Linear(GK + 16, hidden)
        self.gx = nn.Linear(hidden, 3 * hidden)
        self.gh = nn.Linear(hidden, 3 * hidden)
        self.prior = nn.Sequential(nn.Linear(hidden, 64), nn.LayerNorm(64), nn.ELU(),
                                   nn.Linear(64, GK))
        self.post = nn.Sequential(nn.Linear(hidden + 64, 64), nn.LayerNorm(64), nn.ELU(),
                                  nn.Linear(64, GK))
        self.decoder = nn.Sequential(nn.Linear(hidden + GK, 64), nn.ELU(), nn.Linear(64, obs))
        self.reward = nn.Sequential(nn.Linear(hidden + GK, 64), nn.ELU(), nn.Linear(64, 1))
        self.cont = nn.Sequential(nn.Linear(hidden + GK, 64), nn.ELU(), nn.Linear(64, 1))
        self.policy = nn.Linear(hidden + GK, actions)
        self.register_buffer("cls", torch.arange(classes))
        self.register_buffer("acts", torch.arange(actions))

    def _mode(self, logits):
        lp = torch.log_softmax(logits.reshape(-1, self.G, self.K), dim=-1)
        onehot = (lp.argmax(dim=-1, keepdim=True) == self.cls).to(lp.dtype)
        return onehot.flatten(1), lp

    def _step(self, z, a, h):
        x = F.elu(self.img_in(torch.cat([z, a], dim=-1)))
        return _gru(self.gx(x), self.gh(h), h)

    def forward(self, obs, actions):               # (N, 6, 32), (N, 6)
        emb, a = self.enc(obs), self.act_emb(actions)
        n = obs.shape[0]
        h, z = obs.new_zeros(n, self.H), obs.new_zeros(n, self.G * self.K)
        recon, kls = [], []
        for t in range(self.observe):
            h = self._step(z, a[:, t], h)
            _, lpp = self._mode(self.prior(h))
            z, lpq = self._mode(self.post(torch.cat([h, emb[:, t]], dim=-1)))
            kls.append((torch.exp(lpq) * (lpq - lpp)).sum((1, 2)))
            recon.append(self.decoder(torch.cat([h, z], dim=-1)))
        rewards, conts = [], []
        for _ in range(self.imagine):
            pick = self.policy(torch.cat([h, z], dim=-1)).argmax(dim=-1, keepdim=True)
            ae = torch.matmul((pick == self.acts).to(h.dtype), self.act_emb.weight)
            h = self._step(z, ae, h)
            z, _ = self._mode(self.prior(h))
            feat = torch.cat([h, z], dim=-1)
            rewards.append(self.reward(feat)[:, 0])
            conts.append(torch.sigmoid(self.cont(feat))[:, 0])
        return (torch.stack(recon, 1), torch.stack(kls, 1), torch.stack(rewards, 1),
                torch.stack(conts, 1))


class GreedySetMatcher(nn.Module):
    """DETR-style set prediction and matching without the Hungarian
    algorithm: 10 learned queries cross-attend (one head) to 16 input
    tokens, LayerNorm, class (8 + no-object) and box heads; pairwise costs
    to 8 targets (class probability by a one-hot MatMul, L1 box distance,
    generalized IoU from pairwise Max / Min corners); greedy assignment: 8
    rounds of ArgMax over the flattened score matrix, the pick as a one-hot
    (Equal), its row and column masked out by Where.  Returns the
    assignment, the matched cost plus the no-object loss, the class
    probabilities and boxes."""

    def __init__(self, feat=32, hidden=64, queries=10, classes=8, targets=8):
        super().__init__()
        self.Q, self.T, self.C = queries, targets, classes
        self.query = nn.Parameter(0.5 * torch.randn(queries, hidden))
        self.kv = nn.Sequential(nn.Linear(feat, hidden), nn.ReLU(), nn.Linear(hidden, 2 * hidden))
        self.norm = nn.LayerNorm(hidden)
        self.cls = nn.Linear(hidden, classes + 1)
        self.box = nn.Sequential(nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, 4))
        self.register_buffer("labels", torch.arange(classes + 1))
        self.register_buffer("cells", torch.arange(queries * targets))

    @staticmethod
    def _corners(b):
        cxcy, wh = b[..., :2], 0.5 * b[..., 2:]
        return cxcy - wh, cxcy + wh

    def forward(self, tokens, tgt_boxes, tgt_labels):   # (N, 16, 32), (N, 8, 4), (N, 8)
        k, v = self.kv(tokens).chunk(2, dim=-1)
        att = torch.softmax(torch.matmul(self.query, k.transpose(1, 2)) /
                            math.sqrt(k.shape[-1]), dim=-1)
        q = self.norm(self.query + torch.matmul(att, v))                 # (N, Q, H)
        prob = torch.softmax(self.cls(q), dim=-1)
        pb, tb = torch.sigmoid(self.box(q)), torch.sigmoid(tgt_boxes)
        onehot = (tgt_labels.unsqueeze(-1) == self.labels).to(prob.dtype)
        cost_cls = -torch.matmul(prob, onehot.transpose(1, 2))           # (N, Q, T)
        cost_l1 = (pb.unsqueeze(2) - tb.unsqueeze(1)).abs().sum(-1)
        (p0, p1), (t0, t1) = self._corners(pb.unsqueeze(2)), self._corners(tb.unsqueeze(1))
        inter = torch.clamp(torch.minimum(p1, t1) - torch.maximum(p0, t0), min=0.0).prod(-1)
        area_p, area_t = (p1 - p0).prod(-1), (t1 - t0).prod(-1)
        union = area_p + area_t - inter
        hull = (torch.maximum(p1, t1) - torch.minimum(p0, t0)).prod(-1)
        giou = inter / (union + 1e-6) - (hull - union) / (hull + 1e-6)
        cost = cost_cls + 5.0 * cost_l1 - 2.0 * giou
        score = -cost
        assign = torch.zeros_like(cost)
        for _ in range(self.T):
            idx = score.flatten(1).argmax(dim=-1, keepdim=True)
            pick = (idx == self.cells).to(cost.dtype).reshape(-1, self.Q, self.T)
            assign = assign + pick
            used = pick.sum(2, keepdim=True) + pick.sum(1, keepdim=True)
            score = torch.where(used > 0, torch.full_like(score, -1e4), score)
        unmatched = 1 - assign.sum(2)
        loss = (assign * cost).sum((1, 2)) - \
            (torch.log(prob[..., -1] + 1e-6) * unmatched).sum(-1)
        return assign, loss, prob, pb


class NPICore(nn.Module):
    """Neural programmer-interpreter core (Reed & de Freitas) run for 10
    steps from a given program: per step the environment observation and
    the current arguments (one-hot) through an encoder MLP, a two-layer
    LSTM core (each a Linear and the gates written out), the next program
    by cosine similarity of a key to the program key memory (ArgMax, its
    embedding by Gather), a termination probability, three argument heads
    of 10 values (ArgMax, one-hot by Equal); once terminated (running Max
    of the gate) the program and arguments are frozen by Where.  Returns
    the program trace, termination probabilities and arguments."""

    def __init__(self, env=20, progs=16, pemb=24, nargs=3, vals=10, hidden=64, key=16,
                 steps=10):
        super().__init__()
        self.H, self.steps, self.nargs, self.vals = hidden, steps, nargs, vals
        self.f_enc = nn.Sequential(nn.Linear(env + nargs * vals, 64), nn.ReLU(),
                                   nn.Linear(64, 48))
        self.core1 = nn.Linear(48 + pemb + hidden, 4 * hidden)
        self.core2 = nn.Linear(2 * hidden, 4 * hidden)
        self.prog_emb = nn.Parameter(0.5 * torch.randn(progs, pemb))
        self.prog_key = nn.Parameter(torch.randn(progs, key))
        self.f_key = nn.Linear(hidden, key)
        self.f_end = nn.Linear(hidden, 1)
        self.f_arg = nn.Linear(hidden, nargs * vals)
        self.register_buffer("vrange", torch.arange(vals))

    def forward(self, env, program):               # (N, 10, 20), (N,)
        p = F.embedding(program, self.prog_emb)
        n = env.shape[0]
        a = env.new_zeros(n, self.nargs * self.vals)
        h1, c1 = env.new_zeros(n, self.H), env.new_zeros(n, self.H)
        h2, c2 = env.new_zeros(n, self.H), env.new_zeros(n, self.H)
        halted = env.new_zeros(n, 1)
        keys = F.normalize(self.prog_key, dim=-1)
        trace, ends, args = [], [], []
        for t in range(self.steps):
            s = self.f_enc(torch.cat([env[:, t], a], dim=-1))
            h1, c1 = _lstm(self.core1(torch.cat([s, p, h1], dim=-1)), c1)
            h2, c2 = _lstm(self.core2(torch.cat([h1, h2], dim=-1)), c2)
            sim = torch.matmul(F.normalize(self.f_key(h2), dim=-1), keys.t())
            nxt = sim.argmax(dim=-1)
            end = torch.sigmoid(self.f_end(h2))
            ai = self.f_arg(h2).reshape(-1, self.nargs, self.vals).argmax(dim=-1, keepdim=True)
            a_new = (ai == self.vrange).to(env.dtype).flatten(1)
            stop = halted > 0
            p = torch.where(stop, p, F.embedding(nxt, self.prog_emb))
            a = torch.where(stop, a, a_new)
            halted = torch.maximum(halted, (end > 0.5).to(env.dtype))
            trace.append(nxt)
            ends.append(end[:, 0])
            args.append(ai[..., 0])
        return torch.stack(trace, 1), torch.stack(ends, 1), torch.stack(args, 1)


class DiffParticleFilter(nn.Module):
    """Differentiable particle filter (Jonschkowski, Rastogi & Brock) for a
    planar pose (x, y, heading) with 32 particles over 10 steps: a learned
    motion MLP on each particle's (x, y, cos, sin) and the action, plus
    fixed noise scaled by a learned std; an observation likelihood from the
    encoded observation and each encoded particle; weights renormalised by
    LogSoftmax; the weighted-mean estimate; soft resampling (a mix of the
    weights and the uniform, its CumSum, for each systematic position the
    count of CDF entries below it, GatherElements of the particles and the
    importance-corrected weights).  Returns the estimates and the final
    particles."""

    def __init__(self, particles=32, obs=16, hidden=32, steps=10, alpha=0.5):
        super().__init__()
        self.P, self.steps, self.alpha = particles, steps, alpha
        self.motion = nn.Sequential(nn.Linear(7, hidden), nn.ReLU(), nn.Linear(hidden, 3))
        self.log_std = nn.Parameter(torch.full((3,), -2.0))
        self.obs_enc = nn.Sequential(nn.Linear(obs, hidden), nn.ReLU(), nn.Linear(hidden, hidden))
        self.part_enc = nn.Linear(4, hidden)
        self.lik = nn.Sequential(nn.Tanh(), nn.Linear(hidden, 1))
        g = torch.Generator().manual_seed(10)
        self.register_buffer("noise", torch.randn(steps, particles, 3, generator=g))
        self.register_buffer("u", ((torch.arange(particles, dtype=torch.float32) + 0.5)
                                   / particles).reshape(particles, 1))

    @staticmethod
    def _feat(x):
        return torch.cat([x[..., :2], torch.cos(x[..., 2:]), torch.sin(x[..., 2:])], dim=-1)

    def forward(self, particles, actions, observations):   # (N, 32, 3), (N, 10, 3), (N, 10, 16)
        x = particles
        logw = torch.zeros_like(x[..., 0]) - math.log(self.P)
        ests = []
        for t in range(self.steps):
            act = torch.zeros_like(x) + actions[:, t].unsqueeze(1)
            x = x + self.motion(torch.cat([self._feat(x), act], dim=-1)) + \
                torch.exp(self.log_std) * self.noise[t]
            o = self.obs_enc(observations[:, t]).unsqueeze(1)
            ll = self.lik(self.part_enc(self._feat(x)) * o)[..., 0]       # (N, P)
            logw = torch.log_softmax(logw + ll, dim=-1)
            w = torch.exp(logw)
            est = (w.unsqueeze(-1) * x).sum(1)
            ests.append(self._feat(est))
            q = self.alpha * w + (1 - self.alpha) / self.P
            cdf = torch.cumsum(q, dim=-1)
            below = (cdf.unsqueeze(1) < self.u).to(x.dtype).sum(-1)       # (N, P)
            idx = torch.clamp(below, max=self.P - 1).long()
            x = torch.gather(x, 1, idx.unsqueeze(-1).expand(-1, -1, 3))
            logw = torch.log_softmax(torch.log(torch.gather(w, 1, idx) + 1e-12) -
                                     torch.log(torch.gather(q, 1, idx)), dim=-1)
        return torch.stack(ests, dim=1), x


# --------------------------------------------------------------------------
# Ordinary sizes
# --------------------------------------------------------------------------

class _ReflConv(nn.Module):
    """Reflection pad + 3x3 Conv (+ ELU), as in Monodepth2's decoder."""

    def __init__(self, cin, cout, act=True):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, 3)
        self.act = act

    def forward(self, x):
        y = self.conv(F.pad(x, (1, 1, 1, 1), mode="reflect"))
        return F.elu(y) if self.act else y


class MonoDepthLite(nn.Module):
    """Monodepth2-like self-supervised depth network at inference on 128 x
    160 images: an encoder (7x7 stride-2 stem, four stride-2 stages of two
    Conv + BatchNorm + ReLU) to 4 x 5; a decoder of reflection-padded 3x3
    Conv + ELU layers, nearest upsampling by 2 and concatenation of the
    encoder's skip at each scale; sigmoid disparity heads at four scales,
    the finest converted to depth (1 / (min + (max - min) * disparity))."""

    def __init__(self, enc=(24, 32, 64, 96, 128), dec=(16, 24, 32, 64, 96), min_depth=0.1,
                 max_depth=100.0):
        super().__init__()
        self.min_disp, self.max_disp = 1 / max_depth, 1 / min_depth
        stages = [nn.Sequential(nn.Conv2d(3, enc[0], 7, 2, 3, bias=False),
                                nn.BatchNorm2d(enc[0]), nn.ReLU())]
        for i in range(1, 5):
            stages.append(nn.Sequential(_cbr(enc[i - 1], enc[i], 3, 2), _cbr(enc[i], enc[i])))
        self.enc = nn.ModuleList(stages)
        self.up_a, self.up_b, self.heads = nn.ModuleList(), nn.ModuleList(), nn.ModuleList()
        cin = enc[4]
        for i in range(4, -1, -1):
            self.up_a.append(_ReflConv(cin, dec[i]))
            self.up_b.append(_ReflConv(dec[i] + (enc[i - 1] if i > 0 else 0), dec[i]))
            self.heads.append(_ReflConv(dec[i], 1, act=False) if i < 4 else nn.Identity())
            cin = dec[i]

    def forward(self, x):                          # (N, 3, 128, 160)
        feats = []
        for stage in self.enc:
            x = stage(x)
            feats.append(x)
        y, disps = feats[4], []
        for j, i in enumerate(range(4, -1, -1)):
            y = _up2(self.up_a[j](y), "nearest")
            if i > 0:
                y = torch.cat([y, feats[i - 1]], dim=1)
            y = self.up_b[j](y)
            if i < 4:
                disps.append(torch.sigmoid(self.heads[j](y)))
        depth = 1 / (self.min_disp + (self.max_disp - self.min_disp) * disps[-1])
        return (depth,) + tuple(disps[:-1])


class TrimapMatting(nn.Module):
    """Trimap-based image matting on 128 x 128 images: the trimap (0
    background, 1 unknown, 2 foreground) one-hot beside the image; an
    encoder to stride 16; an ASPP-like context module (1x1, dilation 2 and
    4 branches and a global-average branch broadcast back, concatenated, a
    1x1 Conv); a decoder with skips at strides 8, 4, 2 and the image at
    full size; a sigmoid alpha, the known regions imposed by Where; a
    guided-filter refinement (He et al.) with the grey image as guide, box
    means by 9x9 AveragePool."""

    def __init__(self, w=(32, 64, 96, 128), eps=1e-3):
        super().__init__()
        self.eps = eps
        self.e1 = _cbr(6, w[0], 3, 2)
        self.e2 = nn.Sequential(_cbr(w[0], w[1], 3, 2), _cbr(w[1], w[1]))
        self.e3 = nn.Sequential(_cbr(w[1], w[2], 3, 2), _cbr(w[2], w[2]))
        self.e4 = nn.Sequential(_cbr(w[2], w[3], 3, 2), _cbr(w[3], w[3]))
        self.b1 = _cbr(w[3], 64, 1)
        self.b2 = _cbr(w[3], 64, 3, dil=2)
        self.b3 = _cbr(w[3], 64, 3, dil=4)
        self.bg = nn.Sequential(nn.Conv2d(w[3], 64, 1), nn.ReLU())
        self.fuse = _cbr(4 * 64, 128, 1)
        self.d3 = _cbr(128 + w[2], 96)
        self.d2 = _cbr(96 + w[1], 64)
        self.d1 = _cbr(64 + w[0], 32)
        self.d0 = nn.Sequential(_cbr(32 + 3, 16), nn.Conv2d(16, 1, 3, 1, 1))

    def _box(self, x):
        return F.avg_pool2d(x, 9, 1, 4, count_include_pad=False)

    def forward(self, image, trimap):              # (N, 3, 128, 128), (N, 128, 128)
        tri = F.one_hot(trimap, 3).permute(0, 3, 1, 2).to(image.dtype)
        f1 = self.e1(torch.cat([image, tri], dim=1))
        f2 = self.e2(f1)
        f3 = self.e3(f2)
        f4 = self.e4(f3)                                                 # (N, 128, 8, 8)
        g = self.bg(f4.mean((2, 3), keepdim=True)) + torch.zeros_like(f4[:, :64])
        y = self.fuse(torch.cat([self.b1(f4), self.b2(f4), self.b3(f4), g], dim=1))
        y = self.d3(torch.cat([_up2(y), f3], dim=1))
        y = self.d2(torch.cat([_up2(y), f2], dim=1))
        y = self.d1(torch.cat([_up2(y), f1], dim=1))
        alpha = torch.sigmoid(self.d0(torch.cat([_up2(y), image], dim=1)))
        t = trimap.unsqueeze(1)
        alpha = torch.where(t == 0, torch.zeros_like(alpha),
                            torch.where(t == 2, torch.ones_like(alpha), alpha))
        guide = image.mean(1, keepdim=True)
        mi, mp = self._box(guide), self._box(alpha)
        cov = self._box(guide * alpha) - mi * mp
        var = self._box(guide * guide) - mi * mi
        a = cov / (var + self.eps)
        b = mp - a * mi
        refined = self._box(a) * guide + self._box(b)
        return torch.clamp(refined, 0.0, 1.0), alpha


class ColorizationCls(nn.Module):
    """Classification colorization (Zhang, Isola & Efros, "Colorful Image
    Colorization") on 128 x 128 lightness images: three Conv + BatchNorm +
    ReLU pairs each ending in a stride-2 Conv, dilated (2, 2, 4) Conv
    layers at 16 x 16, a 4x4 stride-2 ConvTranspose, a 1x1 Conv to 313
    quantized ab classes at 32 x 32; the annealed mean (softmax at
    temperature 0.38, Einsum with the fixed ab bin centres), bilinearly
    Resized to 128 x 128 and concatenated with the lightness."""

    def __init__(self, w=(32, 64, 128), bins=313, temperature=0.38):
        super().__init__()
        self.temperature = temperature
        self.c1 = nn.Sequential(_cbr(1, w[0]), _cbr(w[0], w[0], 3, 2))
        self.c2 = nn.Sequential(_cbr(w[0], w[1]), _cbr(w[1], w[1], 3, 2))
        self.c3 = nn.Sequential(_cbr(w[1], w[2]), _cbr(w[2], w[2], 3, 2))
        self.dil = nn.Sequential(_cbr(w[2], w[2], dil=2), _cbr(w[2], w[2], dil=2),
                                 _cbr(w[2], w[2], dil=4), _cbr(w[2], w[2]))
        self.up = nn.Sequential(nn.ConvTranspose2d(w[2], w[1], 4, 2, 1), nn.ReLU(),
                                _cbr(w[1], w[1]))
        self.cls = nn.Conv2d(w[1], bins, 1)
        a, b = torch.meshgrid(torch.arange(-110.0, 111.0, 10.0), torch.arange(-110.0, 111.0, 10.0),
                              indexing="ij")
        ab = torch.stack([a, b], dim=-1).reshape(-1, 2)
        order = torch.argsort((ab * ab).sum(-1) + 1e-3 * torch.arange(ab.shape[0]))
        self.register_buffer("ab_bins", ab[order[:bins]].contiguous())

    def forward(self, L):                          # (N, 1, 128, 128)
        y = self.up(self.dil(self.c3(self.c2(self.c1(L)))))
        logits = self.cls(y)                                             # (N, 313, 32, 32)
        p = torch.softmax(logits / self.temperature, dim=1)
        ab = torch.einsum("nqhw,qc->nchw", p, self.ab_bins)
        ab = F.interpolate(ab, size=L.shape[2:], mode="bilinear", align_corners=False)
        return torch.cat([L, ab], dim=1), logits


class STMMemoryRead(nn.Module):
    """STM-like semi-supervised video object segmentation (Oh et al.,
    "Space-Time Memory Networks") on 96 x 96 frames: a memory encoder on
    two past frames with their masks (RGB + mask, batched by folding the
    frames into the batch) and a query encoder, each to stride 8 with
    1x1 key (32) and value (64) heads; the space-time memory read (a
    MatMul of every memory location's key with every query location's,
    scaled, softmax over the 288 memory locations, a MatMul with the
    values); a decoder concatenating the read with the query value, then
    the query encoder's stride-4 and stride-2 features; a two-class mask
    Resized to full size and softmaxed."""

    def __init__(self, frames=2, w=(32, 48, 64), key=32, value=64):
        super().__init__()
        self.T, self.key = frames, key

        def encoder(cin):
            return nn.ModuleList([_cbr(cin, w[0], 3, 2), _cbr(w[0], w[1], 3, 2),
                                  nn.Sequential(_cbr(w[1], w[2], 3, 2), _cbr(w[2], w[2]))])

        self.enc_m, self.enc_q = encoder(4), encoder(3)
        self.key_m, self.val_m = nn.Conv2d(w[2], key, 1), nn.Conv2d(w[2], value, 1)
        self.key_q, self.val_q = nn.Conv2d(w[2], key, 1), nn.Conv2d(w[2], value, 1)
        self.fuse = _cbr(2 * value, 64)
        self.r2 = _cbr(64 + w[1], 48)
        self.r1 = _cbr(48 + w[0], 32)
        self.out = nn.Conv2d(32, 2, 3, 1, 1)

    def forward(self, memory, query):              # (N, 2, 4, 96, 96), (N, 3, 96, 96)
        m = memory.flatten(0, 1)
        for layer in self.enc_m:
            m = layer(m)
        hw = m.shape[2] * m.shape[3]
        km = self.key_m(m).reshape(-1, self.T, self.key, hw).transpose(1, 2).flatten(2)
        vm = self.val_m(m).reshape(-1, self.T, m.shape[1], hw).transpose(1, 2).flatten(2)
        q1 = self.enc_q[0](query)
        q2 = self.enc_q[1](q1)
        q3 = self.enc_q[2](q2)                                           # (N, 64, 12, 12)
        kq, vq = self.key_q(q3), self.val_q(q3)
        aff = torch.matmul(km.transpose(1, 2), kq.flatten(2)) / math.sqrt(self.key)
        read = torch.matmul(vm, torch.softmax(aff, dim=1)).reshape(vq.shape)
        y = self.fuse(torch.cat([read, vq], dim=1))
        y = self.r2(torch.cat([_up2(y), q2], dim=1))
        y = self.r1(torch.cat([_up2(y), q1], dim=1))
        logits = F.interpolate(self.out(y), size=query.shape[2:], mode="bilinear",
                               align_corners=False)
        return torch.softmax(logits, dim=1)


class PanopticCenter(nn.Module):
    """Panoptic-DeepLab-like bottom-up panoptic segmentation (Cheng et al.)
    on 128 x 128 images: a backbone to stride 16 (the last stage dilated),
    a small ASPP (1x1, dilation 3, image pooling); separate semantic and
    instance decoders (upsample, concatenate stride-8 then stride-4
    features); 8 semantic classes, a centre heatmap and centre offsets at
    32 x 32; grouping: centre NMS (7x7 MaxPool, Equal, Where), the top 8
    centres (TopK, their coordinates by Gather), each pixel's shifted
    position assigned to the nearest kept centre (ArgMin), panoptic ids
    from the semantic ArgMax ('thing' classes 4-7 take an instance id)."""

    def __init__(self, w=(32, 48, 96, 128), classes=8, centres=8, size=32):
        super().__init__()
        self.K, self.classes = centres, classes
        self.s2 = _cbr(3, w[0], 3, 2)
        self.s4 = nn.Sequential(_cbr(w[0], w[1], 3, 2), _cbr(w[1], w[1]))
        self.s8 = nn.Sequential(_cbr(w[1], w[2], 3, 2), _cbr(w[2], w[2]))
        self.s16 = nn.Sequential(_cbr(w[2], w[3], 3, 2), _cbr(w[3], w[3], dil=2))
        self.a1, self.a2 = _cbr(w[3], 64, 1), _cbr(w[3], 64, 3, dil=3)
        self.ap = nn.Sequential(nn.Conv2d(w[3], 64, 1), nn.ReLU())
        self.aspp = _cbr(3 * 64, 128, 1)

        def decoder(out):
            return nn.ModuleList([_cbr(128 + w[2], 96), _cbr(96 + w[1], 64),
                                  nn.Sequential(_cbr(64, 32), nn.Conv2d(32, out, 1))])

        self.sem, self.ins = decoder(classes), decoder(3)
        ys, xs = torch.meshgrid(torch.arange(size, dtype=torch.float32),
                                torch.arange(size, dtype=torch.float32), indexing="ij")
        self.register_buffer("grid", torch.stack([ys, xs], dim=-1).reshape(-1, 2))

    @staticmethod
    def _decode(dec, x, f8, f4):
        y = dec[0](torch.cat([_up2(x), f8], dim=1))
        y = dec[1](torch.cat([_up2(y), f4], dim=1))
        return dec[2](y)

    def forward(self, x):                          # (N, 3, 128, 128)
        f4 = self.s4(self.s2(x))
        f8 = self.s8(f4)
        f16 = self.s16(f8)
        g = self.ap(f16.mean((2, 3), keepdim=True)) + torch.zeros_like(f16[:, :64])
        a = self.aspp(torch.cat([self.a1(f16), self.a2(f16), g], dim=1))
        sem = self._decode(self.sem, a, f8, f4)                          # (N, 8, 32, 32)
        ins = self._decode(self.ins, a, f8, f4)
        heat, offset = torch.sigmoid(ins[:, :1]), ins[:, 1:]
        peak = heat == F.max_pool2d(heat, 7, 1, 3)
        keep = torch.where(peak, heat, torch.zeros_like(heat)).flatten(1)
        scores, idx = torch.topk(keep, self.K, dim=-1)                   # (N, K)
        centres = F.embedding(idx, self.grid)                            # (N, K, 2)
        pix = self.grid + offset.flatten(2).transpose(1, 2)              # (N, HW, 2)
        d = ((pix.unsqueeze(2) - centres.unsqueeze(1)) ** 2).sum(-1)
        d = d + torch.where(scores < 0.1, torch.full_like(scores, 1e6),
                            torch.zeros_like(scores)).unsqueeze(1)
        inst = d.argmin(dim=-1) + 1                                      # (N, HW)
        cls = sem.argmax(dim=1).flatten(1)
        pan = cls * 1000 + torch.where(cls >= self.classes // 2, inst, torch.zeros_like(inst))
        sem_full = F.interpolate(sem, scale_factor=4.0, mode="bilinear", align_corners=False)
        return pan.reshape(-1, heat.shape[2], heat.shape[3]), sem_full, heat, offset


class LiftSplatBEV(nn.Module):
    """Lift-Splat-like camera-to-bird's-eye-view net (Philion & Fidler) on
    four 64 x 96 cameras facing the four directions: a shared image
    encoder to stride 8 predicting, per pixel, a softmax over 16 depth bins
    and 32 context features; their outer product (the frustum features);
    splatting into a 32 x 32 grid of 2 m cells by the "cumsum trick"
    (points sorted by cell with a fixed Gather, CumSum, the cell ends
    gathered and differenced, the occupied cells scattered to the grid by a
    Gather from a table with a zero row); a BEV Conv net (a stride-2 level
    and a bilinear skip) to 4 map classes."""

    def __init__(self, cams=4, depth=16, ctx=32, fh=8, fw=12, cells=32, cell_m=2.0,
                 fov_deg=70.0, classes=4):
        super().__init__()
        self.cams, self.D, self.C, self.cells = cams, depth, ctx, cells
        self.per_cam = depth * fh * fw
        self.enc = nn.Sequential(_cbr(3, 32, 3, 2), _cbr(32, 48, 3, 2), _cbr(48, 48),
                                 _cbr(48, 64, 3, 2), _cbr(64, 64),
                                 nn.Conv2d(64, depth + ctx, 1))
        # frustum point (cam, depth bin, row, column) -> BEV cell (dump: cells * cells)
        ids = []
        half = cells * cell_m / 2
        fov = math.radians(fov_deg)
        for k in range(cams):
            for d in range(depth):
                dist = 2.0 + 2.0 * d
                for _ in range(fh):
                    for u in range(fw):
                        az = k * math.pi / 2 + ((u + 0.5) / fw - 0.5) * fov
                        ix = math.floor((dist * math.cos(az) + half) / cell_m)
                        iy = math.floor((dist * math.sin(az) + half) / cell_m)
                        ok = 0 <= ix < cells and 0 <= iy < cells
                        ids.append(iy * cells + ix if ok else cells * cells)
        ids = torch.tensor(ids)
        order = torch.argsort(ids * ids.numel() + torch.arange(ids.numel()))
        sid = ids[order]
        last = [i for i in range(len(sid)) if sid[i] < cells * cells and
                (i + 1 == len(sid) or sid[i + 1] != sid[i])]
        occupied = sid[last]
        table = torch.full((cells * cells,), len(last), dtype=torch.long)
        table[occupied] = torch.arange(len(last))
        self.register_buffer("order", order)
        self.register_buffer("last", torch.tensor(last))
        self.register_buffer("table", table)
        self.bev1 = nn.Sequential(_cbr(ctx, 64), _cbr(64, 64))
        self.bev2 = nn.Sequential(_cbr(64, 128, 3, 2), _cbr(128, 128))
        self.head = nn.Sequential(_cbr(128 + 64, 64), nn.Conv2d(64, classes, 1))

    def forward(self, images):                     # (N, 4, 3, 64, 96)
        f = self.enc(images.flatten(0, 1))                               # (N*4, 48, 8, 12)
        depth = torch.softmax(f[:, :self.D], dim=1)
        frustum = depth.unsqueeze(1) * f[:, self.D:].unsqueeze(2)       # (N*4, C, D, 8, 12)
        pts = frustum.reshape(-1, self.cams, self.C, self.per_cam)
        pts = pts.transpose(1, 2).flatten(2)                             # (N, C, P)
        cs = torch.cumsum(pts[:, :, self.order], dim=2)
        ends = cs[:, :, self.last]
        zero = torch.zeros_like(ends[:, :, :1])
        sums = ends - torch.cat([zero, ends[:, :, :-1]], dim=2)
        bev = torch.cat([sums, zero], dim=2)[:, :, self.table]
        bev = self.bev1(bev.reshape(-1, self.C, self.cells, self.cells))
        y = self.bev2(bev)
        return self.head(torch.cat([_up2(y), bev], dim=1))


BLIND10 = {
    "mass_spring_cloth": dict(ctor=MassSpringCloth, family="mass-spring-simulation",
                              inputs=[("state", ("N", 16, 4), "float32", None)]),
    "neural_stack": dict(ctor=NeuralStack, family="differentiable-stack",
                         inputs=[("tokens", ("N", 12), "int64", 20)]),
    "rssm_world": dict(ctor=RSSMWorld, family="latent-world-model",
                       inputs=[("observations", ("N", 6, 32), "float32", None),
                               ("actions", ("N", 6), "int64", 6)]),
    "greedy_matcher": dict(ctor=GreedySetMatcher, family="greedy-set-matching",
                           inputs=[("tokens", ("N", 16, 32), "float32", None),
                                   ("target_boxes", ("N", 8, 4), "float32", None),
                                   ("target_labels", ("N", 8), "int64", 8)]),
    "npi_core": dict(ctor=NPICore, family="neural-program-interpreter",
                     inputs=[("environment", ("N", 10, 20), "float32", None),
                             ("program", ("N",), "int64", 16)]),
    "particle_filter": dict(ctor=DiffParticleFilter, family="differentiable-particle-filter",
                            inputs=[("particles", ("N", 32, 3), "float32", None),
                                    ("actions", ("N", 10, 3), "float32", None),
                                    ("observations", ("N", 10, 16), "float32", None)]),
    "monodepth_lite": dict(ctor=MonoDepthLite, family="monocular-depth",
                           inputs=[("input", ("N", 3, 128, 160), "float32", None)]),
    "trimap_matting": dict(ctor=TrimapMatting, family="image-matting",
                           inputs=[("image", ("N", 3, 128, 128), "float32", None),
                                   ("trimap", ("N", 128, 128), "int64", 3)]),
    "colorization_cls": dict(ctor=ColorizationCls, family="classification-colorization",
                             inputs=[("lightness", ("N", 1, 128, 128), "float32", None)]),
    "stm_vos": dict(ctor=STMMemoryRead, family="space-time-memory-read",
                    inputs=[("memory", ("N", 2, 4, 96, 96), "float32", None),
                            ("query", ("N", 3, 96, 96), "float32", None)]),
    "panoptic_center": dict(ctor=PanopticCenter, family="panoptic-center-grouping",
                            inputs=[("input", ("N", 3, 128, 128), "float32", None)]),
    "lss_bev": dict(ctor=LiftSplatBEV, family="camera-to-bev-lifting",
                    inputs=[("images", ("N", 4, 3, 64, 96), "float32", None)]),
}
