#!/usr/bin/python3
"""Export real architectures with RANDOM weights to ONNX for onnxcost.

Run with Debian's interpreter (python3-torch 1.13, python3-torchvision 0.14,
python3-onnx 1.12), not a pyenv/venv python:

    /usr/bin/python3 samples/export.py --samples samples
    /usr/bin/python3 samples/export.py --reference build-ref

--samples OUTDIR    small models with their float32 weights, meant to be
                    committed (< 20 MB together): squeezenet1_1, mobilenet_v2,
                    tiny_encoder.
--reference OUTDIR  larger reference architectures.  Their weights are moved
                    to external data (NAME.onnx.data) and that file is then
                    DELETED, so the .onnx holds only the graph plus
                    external-data references.  Also writes
                    tests/reference/expected_macs.tsv (batch-1 MACs counted by
                    torch forward hooks, independent of the ONNX graph).

ZOO (below REFERENCE_MODELS) lists 48 more architectures, hand-written ones
among them (T5-like, Swin-like, MLP-Mixer-like, GRU/LSTM, TCN, U-Net); they
are exported by scripts/ort_graphs.py into tests/data/ort-plan/.

No weights are ever downloaded (weights=None everywhere); every model is built
after torch.manual_seed(0) and put in eval() mode.  Batch dim is named "N",
sequence dim (token models) "L".  Output is deterministic: re-running
overwrites the files with identical content.
"""

import argparse
import io
import math
import os
import sys
import time

import onnx
import torch
import torch.nn as nn
import torch.nn.functional as F
import torchvision

OPSETS = (13, 14, 17)          # tried in this order
REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MACS_TSV = os.path.join(REPO_ROOT, "tests", "reference", "expected_macs.tsv")


# --------------------------------------------------------------------------
# Hand-written transformer pieces (plain torch.nn, HuggingFace-style)
# --------------------------------------------------------------------------

class MatMul(nn.Module):
    """torch.matmul wrapped in a module so forward hooks can count it."""

    def forward(self, a, b):
        return torch.matmul(a, b)


class SelfAttention(nn.Module):
    """Multi-head self attention written like HuggingFace BertSelfAttention:
    the head split uses x.size() so the export contains
    Shape->Gather->Unsqueeze->Concat->Reshape chains on the dynamic N and L."""

    def __init__(self, hidden, heads):
        super().__init__()
        self.heads = heads
        self.head_dim = hidden // heads
        self.query = nn.Linear(hidden, hidden)
        self.key = nn.Linear(hidden, hidden)
        self.value = nn.Linear(hidden, hidden)
        self.out = nn.Linear(hidden, hidden)
        self.qk = MatMul()
        self.av = MatMul()

    def split(self, x):
        new_shape = x.size()[:-1] + (self.heads, self.head_dim)
        return x.view(new_shape).permute(0, 2, 1, 3)

    def forward(self, x, causal_mask=None):
        q = self.split(self.query(x))
        k = self.split(self.key(x))
        v = self.split(self.value(x))
        scores = self.qk(q, k.transpose(-1, -2)) / math.sqrt(self.head_dim)
        if causal_mask is not None:
            scores = scores.masked_fill(causal_mask == 0, float("-inf"))
        probs = torch.softmax(scores, dim=-1)
        ctx = self.av(probs, v).permute(0, 2, 1, 3).contiguous()
        new_shape = ctx.size()[:-2] + (self.heads * self.head_dim,)
        return self.out(ctx.view(new_shape))


class BertLayer(nn.Module):
    """Post-LN encoder layer (BERT)."""

    def __init__(self, hidden, heads, inter):
        super().__init__()
        self.attn = SelfAttention(hidden, heads)
        self.ln1 = nn.LayerNorm(hidden, eps=1e-12)
        self.fc1 = nn.Linear(hidden, inter)
        self.act = nn.GELU()
        self.fc2 = nn.Linear(inter, hidden)
        self.ln2 = nn.LayerNorm(hidden, eps=1e-12)

    def forward(self, x):
        x = self.ln1(x + self.attn(x))
        return self.ln2(x + self.fc2(self.act(self.fc1(x))))


class BertBase(nn.Module):
    """BERT-base-like encoder: returns the last hidden state [N, L, 768]."""

    def __init__(self, vocab=30522, max_pos=512, hidden=768, layers=12,
                 heads=12, inter=3072):
        super().__init__()
        self.word = nn.Embedding(vocab, hidden)
        self.pos = nn.Embedding(max_pos, hidden)
        self.tok_type = nn.Embedding(2, hidden)
        self.register_buffer("position_ids",
                             torch.arange(max_pos).unsqueeze(0),
                             persistent=False)
        self.register_buffer("token_type_ids",
                             torch.zeros(1, max_pos, dtype=torch.long),
                             persistent=False)
        self.ln = nn.LayerNorm(hidden, eps=1e-12)
        self.layers = nn.ModuleList(
            [BertLayer(hidden, heads, inter) for _ in range(layers)])

    def forward(self, input_ids):
        L = input_ids.size(1)
        x = (self.word(input_ids) + self.pos(self.position_ids[:, :L])
             + self.tok_type(self.token_type_ids[:, :L]))
        x = self.ln(x)
        for layer in self.layers:
            x = layer(x)
        return x


class GPTBlock(nn.Module):
    """Pre-LN causal decoder block (GPT-2)."""

    def __init__(self, hidden, heads):
        super().__init__()
        self.ln1 = nn.LayerNorm(hidden)
        self.attn = SelfAttention(hidden, heads)
        self.ln2 = nn.LayerNorm(hidden)
        self.fc = nn.Linear(hidden, 4 * hidden)
        self.act = nn.GELU()
        self.proj = nn.Linear(4 * hidden, hidden)

    def forward(self, x, causal_mask):
        x = x + self.attn(self.ln1(x), causal_mask)
        return x + self.proj(self.act(self.fc(self.ln2(x))))


class GPT2Small(nn.Module):
    """GPT-2-small-like decoder with a (weight-tied) LM head:
    input ids [N, L] -> logits [N, L, 50257]."""

    def __init__(self, vocab=50257, max_pos=1024, hidden=768, layers=12,
                 heads=12):
        super().__init__()
        self.wte = nn.Embedding(vocab, hidden)
        self.wpe = nn.Embedding(max_pos, hidden)
        self.register_buffer("position_ids",
                             torch.arange(max_pos).unsqueeze(0),
                             persistent=False)
        # Causal mask: lower-triangular [max_pos, max_pos] buffer, sliced to
        # [:L, :L] in forward (like HF GPT-2's attn.bias).  Persistent, so
        # it is exported as an initializer (and moved to external data)
        # rather than as a 4 MiB Constant node in the graph.
        self.register_buffer("causal", torch.tril(torch.ones(
            max_pos, max_pos)).view(1, 1, max_pos, max_pos))
        self.blocks = nn.ModuleList(
            [GPTBlock(hidden, heads) for _ in range(layers)])
        self.ln_f = nn.LayerNorm(hidden)
        self.lm_head = nn.Linear(hidden, vocab, bias=False)
        self.lm_head.weight = self.wte.weight

    def forward(self, input_ids):
        L = input_ids.size(1)
        x = self.wte(input_ids) + self.wpe(self.position_ids[:, :L])
        mask = self.causal[:, :, :L, :L]
        for blk in self.blocks:
            x = blk(x, mask)
        return self.lm_head(self.ln_f(x))


class TinyEncoder(nn.Module):
    """Small classifier on torch.nn.TransformerEncoder:
    ids [N, L] -> logits [N, classes] (mean-pooled)."""

    # Sized so that the three committed samples stay <= 20,000,000 bytes:
    # byte-level vocab (256), 128 positions, feed-forward width 128.
    def __init__(self, vocab=256, max_pos=128, d_model=128, layers=2,
                 heads=4, ff=128, classes=10):
        super().__init__()
        self.embed = nn.Embedding(vocab, d_model)
        self.pos = nn.Embedding(max_pos, d_model)
        self.register_buffer("position_ids",
                             torch.arange(max_pos).unsqueeze(0),
                             persistent=False)
        layer = nn.TransformerEncoderLayer(d_model, heads, ff, dropout=0.1,
                                           batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, layers,
                                             enable_nested_tensor=False)
        # TransformerEncoder deep-copies `layer`, so all layers start with
        # identical weights (and the exporter would dedupe them): re-draw.
        for lyr in self.encoder.layers:
            lyr.self_attn._reset_parameters()
            lyr.linear1.reset_parameters()
            lyr.linear2.reset_parameters()
        self.head = nn.Linear(d_model, classes)

    def forward(self, input_ids):
        L = input_ids.size(1)
        x = self.embed(input_ids) + self.pos(self.position_ids[:, :L])
        x = self.encoder(x)
        return self.head(x.mean(dim=1))


# --------------------------------------------------------------------------
# More hand-written architectures for the ORT plan corpus (ZOO below;
# scripts/ort_graphs.py exports them).  Small sizes: only the graph and the
# tensor shapes matter, the weights are random.
# --------------------------------------------------------------------------

class T5RMSNorm(nn.Module):
    """T5's LayerNorm: no mean subtraction, no bias (x * rsqrt(mean(x^2)))."""

    def __init__(self, d, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(d))
        self.eps = eps

    def forward(self, x):
        var = x.pow(2).mean(-1, keepdim=True)
        return self.weight * (x * torch.rsqrt(var + self.eps))


def t5_relative_bucket(rel, bidirectional, num_buckets=32, max_distance=128):
    """HuggingFace T5's _relative_position_bucket."""
    buckets = 0
    if bidirectional:
        num_buckets //= 2
        buckets = buckets + (rel > 0).to(torch.long) * num_buckets
        rel = torch.abs(rel)
    else:
        rel = -torch.min(rel, torch.zeros_like(rel))
    max_exact = num_buckets // 2
    is_small = rel < max_exact
    large = max_exact + (torch.log(rel.float() / max_exact)
                         / math.log(max_distance / max_exact)
                         * (num_buckets - max_exact)).to(torch.long)
    large = torch.min(large, torch.full_like(large, num_buckets - 1))
    return buckets + torch.where(is_small, rel, large)


class T5Attention(nn.Module):
    """T5 attention: no bias, no 1/sqrt(d) scaling, additive position bias."""

    def __init__(self, d_model, heads, d_kv):
        super().__init__()
        self.heads, self.d_kv = heads, d_kv
        inner = heads * d_kv
        self.q = nn.Linear(d_model, inner, bias=False)
        self.k = nn.Linear(d_model, inner, bias=False)
        self.v = nn.Linear(d_model, inner, bias=False)
        self.o = nn.Linear(inner, d_model, bias=False)

    def shape(self, x):
        return x.view(x.size(0), -1, self.heads, self.d_kv).transpose(1, 2)

    def forward(self, x, kv, bias):
        q, k, v = self.shape(self.q(x)), self.shape(self.k(kv)), self.shape(self.v(kv))
        scores = torch.matmul(q, k.transpose(3, 2)) + bias
        probs = torch.softmax(scores.float(), dim=-1).type_as(scores)
        ctx = torch.matmul(probs, v).transpose(1, 2).contiguous()
        return self.o(ctx.view(ctx.size(0), -1, self.heads * self.d_kv))


class T5FF(nn.Module):
    def __init__(self, d_model, d_ff):
        super().__init__()
        self.wi = nn.Linear(d_model, d_ff, bias=False)
        self.wo = nn.Linear(d_ff, d_model, bias=False)

    def forward(self, x):
        return self.wo(F.relu(self.wi(x)))


class T5EncoderLayer(nn.Module):
    def __init__(self, d_model, heads, d_kv, d_ff):
        super().__init__()
        self.ln1, self.attn = T5RMSNorm(d_model), T5Attention(d_model, heads, d_kv)
        self.ln2, self.ff = T5RMSNorm(d_model), T5FF(d_model, d_ff)

    def forward(self, x, bias):
        h = self.ln1(x)
        x = x + self.attn(h, h, bias)
        return x + self.ff(self.ln2(x))


class T5DecoderLayer(nn.Module):
    def __init__(self, d_model, heads, d_kv, d_ff):
        super().__init__()
        self.ln1, self.self_attn = T5RMSNorm(d_model), T5Attention(d_model, heads, d_kv)
        self.ln2, self.cross = T5RMSNorm(d_model), T5Attention(d_model, heads, d_kv)
        self.ln3, self.ff = T5RMSNorm(d_model), T5FF(d_model, d_ff)

    def forward(self, y, enc, self_bias, cross_bias):
        h = self.ln1(y)
        y = y + self.self_attn(h, h, self_bias)
        y = y + self.cross(self.ln2(y), enc, cross_bias)
        return y + self.ff(self.ln3(y))


class T5Small(nn.Module):
    """T5-like encoder-decoder: shared embedding, RMS norms, relative
    position buckets (bidirectional in the encoder, causal in the decoder,
    computed from the dynamic lengths with Range/Log/Where), causal mask,
    cross attention, tied LM head scaled by d_model^-0.5.
    (input_ids [N, L], decoder_input_ids [N, T]) -> logits [N, T, vocab]."""

    def __init__(self, vocab=8000, d_model=256, heads=4, d_kv=64, d_ff=1024,
                 layers=3, num_buckets=32):
        super().__init__()
        self.d_model, self.num_buckets = d_model, num_buckets
        self.shared = nn.Embedding(vocab, d_model)
        self.enc_bias = nn.Embedding(num_buckets, heads)
        self.dec_bias = nn.Embedding(num_buckets, heads)
        self.encoder = nn.ModuleList(
            [T5EncoderLayer(d_model, heads, d_kv, d_ff) for _ in range(layers)])
        self.decoder = nn.ModuleList(
            [T5DecoderLayer(d_model, heads, d_kv, d_ff) for _ in range(layers)])
        self.enc_ln, self.dec_ln = T5RMSNorm(d_model), T5RMSNorm(d_model)

    def position_bias(self, table, q_len, k_len, bidirectional, device):
        ctx = torch.arange(q_len, dtype=torch.long, device=device)[:, None]
        mem = torch.arange(k_len, dtype=torch.long, device=device)[None, :]
        b = t5_relative_bucket(mem - ctx, bidirectional, self.num_buckets)
        return table(b).permute(2, 0, 1).unsqueeze(0)      # [1, H, q, k]

    def forward(self, input_ids, decoder_input_ids):
        L, T = input_ids.size(1), decoder_input_ids.size(1)
        x = self.shared(input_ids)
        eb = self.position_bias(self.enc_bias, L, L, True, x.device)
        for layer in self.encoder:
            x = layer(x, eb)
        enc = self.enc_ln(x)
        y = self.shared(decoder_input_ids)
        db = self.position_bias(self.dec_bias, T, T, False, y.device)
        pos = torch.arange(T, device=y.device)
        causal = (pos[None, :] <= pos[:, None]).to(y.dtype)  # [T, T]
        db = db + (1.0 - causal)[None, None] * torch.finfo(y.dtype).min
        for layer in self.decoder:
            y = layer(y, enc, db, 0.0)
        y = self.dec_ln(y) * (self.d_model ** -0.5)
        return torch.matmul(y, self.shared.weight.t())


class CausalGPT(nn.Module):
    """GPT-like decoder, written differently from GPT2Small: one fused QKV
    Linear split in three, GELU with the tanh approximation, the causal
    mask built from two Range comparisons, untied LM head."""

    class Block(nn.Module):
        def __init__(self, hidden, heads):
            super().__init__()
            self.heads = heads
            self.ln1 = nn.LayerNorm(hidden)
            self.qkv = nn.Linear(hidden, 3 * hidden)
            self.proj = nn.Linear(hidden, hidden)
            self.ln2 = nn.LayerNorm(hidden)
            self.fc = nn.Linear(hidden, 4 * hidden)
            self.out = nn.Linear(4 * hidden, hidden)

        def forward(self, x, mask):
            B, L, C = x.size()
            q, k, v = self.qkv(self.ln1(x)).split(C, dim=2)
            hd = C // self.heads
            q = q.view(B, L, self.heads, hd).transpose(1, 2)
            k = k.view(B, L, self.heads, hd).transpose(1, 2)
            v = v.view(B, L, self.heads, hd).transpose(1, 2)
            att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(hd))
            att = att.masked_fill(mask, float("-inf"))
            y = (torch.softmax(att, dim=-1) @ v).transpose(1, 2).contiguous()
            x = x + self.proj(y.view(B, L, C))
            h = F.gelu(self.fc(self.ln2(x)), approximate="tanh")
            return x + self.out(h)

    def __init__(self, vocab=8000, max_pos=256, hidden=256, layers=4, heads=4):
        super().__init__()
        self.wte = nn.Embedding(vocab, hidden)
        self.wpe = nn.Embedding(max_pos, hidden)
        self.blocks = nn.ModuleList(
            [CausalGPT.Block(hidden, heads) for _ in range(layers)])
        self.ln_f = nn.LayerNorm(hidden)
        self.head = nn.Linear(hidden, vocab, bias=False)

    def forward(self, input_ids):
        L = input_ids.size(1)
        pos = torch.arange(L, device=input_ids.device)
        mask = (pos[None, :] > pos[:, None])[None, None]     # True above diag
        x = self.wte(input_ids) + self.wpe(pos)[None]
        for blk in self.blocks:
            x = blk(x, mask)
        return self.head(self.ln_f(x))


class ViTLike(nn.Module):
    """DeiT-tiny-like vision transformer written without
    nn.MultiheadAttention: patch Conv, class token, learned positions,
    pre-LN blocks with a fused QKV Linear, reshape/permute heads, GELU."""

    class Block(nn.Module):
        def __init__(self, dim, heads, mlp):
            super().__init__()
            self.heads = heads
            self.ln1 = nn.LayerNorm(dim, eps=1e-6)
            self.qkv = nn.Linear(dim, 3 * dim)
            self.proj = nn.Linear(dim, dim)
            self.ln2 = nn.LayerNorm(dim, eps=1e-6)
            self.fc1 = nn.Linear(dim, mlp)
            self.fc2 = nn.Linear(mlp, dim)

        def forward(self, x):
            B, N, C = x.shape
            qkv = self.qkv(self.ln1(x)).reshape(B, N, 3, self.heads, C // self.heads)
            q, k, v = qkv.permute(2, 0, 3, 1, 4).unbind(0)
            att = (q @ k.transpose(-2, -1)) * (C // self.heads) ** -0.5
            y = (att.softmax(dim=-1) @ v).transpose(1, 2).reshape(B, N, C)
            x = x + self.proj(y)
            return x + self.fc2(F.gelu(self.fc1(self.ln2(x))))

    def __init__(self, image=224, patch=16, dim=192, depth=6, heads=3,
                 mlp=768, classes=1000):
        super().__init__()
        self.patch = nn.Conv2d(3, dim, patch, patch)
        n = (image // patch) ** 2
        self.cls = nn.Parameter(torch.randn(1, 1, dim) * 0.02)
        self.pos = nn.Parameter(torch.randn(1, n + 1, dim) * 0.02)
        self.blocks = nn.ModuleList(
            [ViTLike.Block(dim, heads, mlp) for _ in range(depth)])
        self.ln = nn.LayerNorm(dim, eps=1e-6)
        self.head = nn.Linear(dim, classes)

    def forward(self, x):
        x = self.patch(x).flatten(2).transpose(1, 2)
        x = torch.cat([self.cls.expand(x.shape[0], -1, -1), x], dim=1) + self.pos
        for blk in self.blocks:
            x = blk(x)
        return self.head(self.ln(x)[:, 0])


class SwinLike(nn.Module):
    """Small Swin-like transformer: patch embedding, window attention with a
    relative-position bias table (gathered by a constant index), shifted
    windows via torch.roll plus the shifted-window attention mask, patch
    merging (strided slices + concat + Linear), mean pool, head."""

    class Block(nn.Module):
        def __init__(self, dim, heads, res, ws, shift):
            super().__init__()
            self.dim, self.heads, self.res, self.ws, self.shift = dim, heads, res, ws, shift
            self.ln1 = nn.LayerNorm(dim)
            self.qkv = nn.Linear(dim, 3 * dim)
            self.proj = nn.Linear(dim, dim)
            self.ln2 = nn.LayerNorm(dim)
            self.fc1 = nn.Linear(dim, 4 * dim)
            self.fc2 = nn.Linear(4 * dim, dim)
            self.table = nn.Parameter(torch.randn((2 * ws - 1) ** 2, heads) * 0.02)
            coords = torch.stack(torch.meshgrid(torch.arange(ws), torch.arange(ws),
                                                indexing="ij")).flatten(1)
            rel = (coords[:, :, None] - coords[:, None, :]).permute(1, 2, 0)
            rel[:, :, 0] += ws - 1
            rel[:, :, 1] += ws - 1
            rel[:, :, 0] *= 2 * ws - 1
            self.register_buffer("index", rel.sum(-1).flatten(), persistent=False)
            if shift:
                img = torch.zeros(1, res, res, 1)
                cnt = 0
                for h in (slice(0, -ws), slice(-ws, -shift), slice(-shift, None)):
                    for w in (slice(0, -ws), slice(-ws, -shift), slice(-shift, None)):
                        img[:, h, w, :] = cnt
                        cnt += 1
                win = SwinLike.partition(img, ws).squeeze(-1)        # [nW, ws*ws]
                m = win[:, None, :] - win[:, :, None]
                mask = m.masked_fill(m != 0, -100.0).masked_fill(m == 0, 0.0)
                self.register_buffer("mask", mask, persistent=False)
            else:
                self.mask = None

        def forward(self, x):
            B, HW, C = x.shape
            H = W = self.res
            ws, n = self.ws, self.ws * self.ws
            h = self.ln1(x).view(B, H, W, C)
            if self.shift:
                h = torch.roll(h, shifts=(-self.shift, -self.shift), dims=(1, 2))
            w = SwinLike.partition(h, ws)                             # [B*nW, n, C]
            qkv = self.qkv(w).reshape(-1, n, 3, self.heads, C // self.heads)
            q, k, v = qkv.permute(2, 0, 3, 1, 4).unbind(0)
            att = (q * (C // self.heads) ** -0.5) @ k.transpose(-2, -1)
            bias = self.table[self.index].view(n, n, -1).permute(2, 0, 1)
            att = att + bias.unsqueeze(0)
            if self.mask is not None:
                nw = self.mask.shape[0]
                att = att.view(-1, nw, self.heads, n, n) + self.mask[None, :, None]
                att = att.view(-1, self.heads, n, n)
            y = (att.softmax(-1) @ v).transpose(1, 2).reshape(-1, n, C)
            y = self.proj(y).view(-1, H // ws, W // ws, ws, ws, C)
            y = y.permute(0, 1, 3, 2, 4, 5).reshape(-1, H, W, C)
            if self.shift:
                y = torch.roll(y, shifts=(self.shift, self.shift), dims=(1, 2))
            x = x + y.reshape(-1, H * W, C)
            return x + self.fc2(F.gelu(self.fc1(self.ln2(x))))

    class Merge(nn.Module):
        def __init__(self, dim, res):
            super().__init__()
            self.res = res
            self.ln = nn.LayerNorm(4 * dim)
            self.red = nn.Linear(4 * dim, 2 * dim, bias=False)

        def forward(self, x):
            B, HW, C = x.shape
            x = x.view(B, self.res, self.res, C)
            x = torch.cat([x[:, 0::2, 0::2], x[:, 1::2, 0::2],
                           x[:, 0::2, 1::2], x[:, 1::2, 1::2]], -1)
            return self.red(self.ln(x.view(B, -1, 4 * C)))

    @staticmethod
    def partition(x, ws):
        B, H, W, C = x.shape
        x = x.view(B, H // ws, ws, W // ws, ws, C).permute(0, 1, 3, 2, 4, 5)
        return x.reshape(-1, ws * ws, C)

    def __init__(self, image=224, patch=4, dim=48, depths=(2, 2, 2),
                 heads=(2, 4, 8), ws=7, classes=1000):
        super().__init__()
        self.embed = nn.Conv2d(3, dim, patch, patch)
        self.embed_ln = nn.LayerNorm(dim)
        res = image // patch
        layers = []
        for i, (d, h) in enumerate(zip(depths, heads)):
            for j in range(d):
                layers.append(SwinLike.Block(dim, h, res, ws, ws // 2 if j % 2 else 0))
            if i < len(depths) - 1:
                layers.append(SwinLike.Merge(dim, res))
                dim, res = dim * 2, res // 2
        self.layers = nn.Sequential(*layers)
        self.ln = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, classes)

    def forward(self, x):
        x = self.embed_ln(self.embed(x).flatten(2).transpose(1, 2))
        x = self.layers(x)
        return self.head(self.ln(x).mean(1))


class MixerLike(nn.Module):
    """MLP-Mixer-like: patch Conv, token mixing (transpose, MLP over the
    patches), channel mixing, pre-LN, GELU, mean pool."""

    class Block(nn.Module):
        def __init__(self, tokens, dim, tok_mlp, ch_mlp):
            super().__init__()
            self.ln1 = nn.LayerNorm(dim, eps=1e-6)
            self.tok1 = nn.Linear(tokens, tok_mlp)
            self.tok2 = nn.Linear(tok_mlp, tokens)
            self.ln2 = nn.LayerNorm(dim, eps=1e-6)
            self.ch1 = nn.Linear(dim, ch_mlp)
            self.ch2 = nn.Linear(ch_mlp, dim)

        def forward(self, x):
            y = self.ln1(x).transpose(1, 2)
            x = x + self.tok2(F.gelu(self.tok1(y))).transpose(1, 2)
            return x + self.ch2(F.gelu(self.ch1(self.ln2(x))))

    def __init__(self, image=224, patch=16, dim=256, depth=4, tok_mlp=128,
                 ch_mlp=1024, classes=1000):
        super().__init__()
        self.stem = nn.Conv2d(3, dim, patch, patch)
        tokens = (image // patch) ** 2
        self.blocks = nn.Sequential(
            *[MixerLike.Block(tokens, dim, tok_mlp, ch_mlp) for _ in range(depth)])
        self.ln = nn.LayerNorm(dim, eps=1e-6)
        self.head = nn.Linear(dim, classes)

    def forward(self, x):
        x = self.stem(x).flatten(2).transpose(1, 2)
        return self.head(self.ln(self.blocks(x)).mean(1))


class GRUTagger(nn.Module):
    """Token tagger: Embedding -> 2-layer bidirectional GRU -> Linear.
    ids [N, L] -> tag logits [N, L, tags]."""

    def __init__(self, vocab=8000, emb=128, hidden=128, tags=20):
        super().__init__()
        self.embed = nn.Embedding(vocab, emb)
        self.rnn = nn.GRU(emb, hidden, num_layers=2, bidirectional=True,
                          batch_first=True)
        self.out = nn.Linear(2 * hidden, tags)

    def forward(self, input_ids):
        y, _ = self.rnn(self.embed(input_ids))
        return self.out(y)


class LSTMAcoustic(nn.Module):
    """Acoustic model: features [N, L, 40] -> 2-layer LSTM -> Linear ->
    log-softmax over 30 symbols, [N, L, 30]."""

    def __init__(self, feats=40, hidden=256, symbols=30):
        super().__init__()
        self.rnn = nn.LSTM(feats, hidden, num_layers=2, batch_first=True)
        self.out = nn.Linear(hidden, symbols)

    def forward(self, features):
        y, _ = self.rnn(features)
        return torch.log_softmax(self.out(y), dim=-1)


class TCN1d(nn.Module):
    """Keyword-spotting temporal ConvNet: Conv1d stem, dilated Conv1d
    residual blocks with BatchNorm1d + ReLU, global average pool, Linear.
    features [N, 40, L] -> [N, 12]."""

    class Block(nn.Module):
        def __init__(self, ch, dilation):
            super().__init__()
            self.c1 = nn.Conv1d(ch, ch, 3, padding=dilation, dilation=dilation)
            self.b1 = nn.BatchNorm1d(ch)
            self.c2 = nn.Conv1d(ch, ch, 3, padding=dilation, dilation=dilation)
            self.b2 = nn.BatchNorm1d(ch)

        def forward(self, x):
            y = F.relu(self.b1(self.c1(x)))
            return F.relu(x + self.b2(self.c2(y)))

    def __init__(self, feats=40, ch=128, classes=12):
        super().__init__()
        self.stem = nn.Conv1d(feats, ch, 5, padding=2)
        self.blocks = nn.Sequential(*[TCN1d.Block(ch, d) for d in (1, 2, 4, 8)])
        self.head = nn.Linear(ch, classes)

    def forward(self, features):
        x = self.blocks(F.relu(self.stem(features)))
        return self.head(x.mean(-1))


class UNetSmall(nn.Module):
    """Small U-Net: Conv-BN-ReLU pairs, MaxPool down, ConvTranspose2d up,
    skip concatenation, a bilinear Resize on one skip, 1x1 head.
    [N, 3, H, W] -> [N, classes, H, W]."""

    @staticmethod
    def pair(cin, cout):
        return nn.Sequential(
            nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout),
            nn.ReLU(inplace=True),
            nn.Conv2d(cout, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout),
            nn.ReLU(inplace=True))

    def __init__(self, base=16, classes=4):
        super().__init__()
        c = [base, 2 * base, 4 * base, 8 * base]
        self.d0, self.d1 = UNetSmall.pair(3, c[0]), UNetSmall.pair(c[0], c[1])
        self.d2, self.d3 = UNetSmall.pair(c[1], c[2]), UNetSmall.pair(c[2], c[3])
        self.u2 = nn.ConvTranspose2d(c[3], c[2], 2, stride=2)
        self.p2 = UNetSmall.pair(2 * c[2], c[2])
        self.u1 = nn.ConvTranspose2d(c[2], c[1], 2, stride=2)
        self.p1 = UNetSmall.pair(2 * c[1], c[1])
        self.r0 = nn.Conv2d(c[1], c[0], 1)
        self.p0 = UNetSmall.pair(2 * c[0], c[0])
        self.head = nn.Conv2d(c[0], classes, 1)

    def forward(self, x):
        s0 = self.d0(x)
        s1 = self.d1(F.max_pool2d(s0, 2))
        s2 = self.d2(F.max_pool2d(s1, 2))
        b = self.d3(F.max_pool2d(s2, 2))
        y = self.p2(torch.cat([self.u2(b), s2], 1))
        y = self.p1(torch.cat([self.u1(y), s1], 1))
        y = F.interpolate(self.r0(y), scale_factor=2.0, mode="bilinear",
                          align_corners=False)
        y = self.p0(torch.cat([y, s0], 1))
        return self.head(y)


class OutputKey(nn.Module):
    """Wraps a model that returns a dict (torchvision segmentation) or a
    tuple and returns the one tensor named by key."""

    def __init__(self, model, key):
        super().__init__()
        self.model, self.key = model, key

    def forward(self, x):
        return self.model(x)[self.key]


# --------------------------------------------------------------------------
# Model table
# --------------------------------------------------------------------------

TV = torchvision.models


def image_input(n=1, size=224):
    return torch.randn(n, 3, size, size)


def ids_input(n=1, length=128, vocab=256):
    return torch.randint(0, vocab, (n, length), dtype=torch.long)


IMAGE = ("image", 224)
SEQ = ("ids", 128)

# name -> (constructor, input kind)
SAMPLE_MODELS = {
    "squeezenet1_1": (lambda: TV.squeezenet1_1(weights=None), IMAGE),
    "mobilenet_v2": (lambda: TV.mobilenet_v2(weights=None), IMAGE),
    "tiny_encoder": (TinyEncoder, ("ids", 64, 256)),
}

REFERENCE_MODELS = {
    "resnet18": (lambda: TV.resnet18(weights=None), IMAGE),
    "resnet50": (lambda: TV.resnet50(weights=None), IMAGE),
    "vgg16": (lambda: TV.vgg16(weights=None), IMAGE),
    "alexnet": (lambda: TV.alexnet(weights=None), IMAGE),
    "mobilenet_v2": (lambda: TV.mobilenet_v2(weights=None), IMAGE),
    "densenet121": (lambda: TV.densenet121(weights=None), IMAGE),
    "googlenet": (lambda: TV.googlenet(weights=None, aux_logits=False,
                                       init_weights=True), IMAGE),
    "squeezenet1_1": (lambda: TV.squeezenet1_1(weights=None), IMAGE),
    "efficientnet_b0": (lambda: TV.efficientnet_b0(weights=None), IMAGE),
    "bert_base": (BertBase, SEQ),
    "gpt2_small": (GPT2Small, SEQ),
    "vit_b_16": (lambda: TV.vit_b_16(weights=None, image_size=224), IMAGE),
}


# --------------------------------------------------------------------------
# ZOO: the architectures of the ORT plan corpus (tests/data/ort-plan/,
# exported by scripts/ort_graphs.py).  name -> dict with
#   ctor     builds the model (called after torch.manual_seed(0), then eval())
#   family   a coarse architecture family
#   inputs   [(name, dims, dtype, bound)]: dims hold ints and the symbols
#            "N" (batch), "L" / "T" (sequence lengths); bound: integer inputs
#            are drawn in [0, bound)
#   run      symbol values of the profiled run (N is 1 unless given)
# --------------------------------------------------------------------------

def _img(size=224):
    return [("input", ("N", 3, size, size), "float32", None)]


def _ids(vocab, name="input_ids", sym="L"):
    return [(name, ("N", sym), "int64", vocab)]


def _tv(fn, **kw):
    return lambda: getattr(TV, fn)(weights=None, **kw)


def _seg(fn, **kw):
    return lambda: OutputKey(getattr(TV.segmentation, fn)(weights=None,
                                                          weights_backbone=None,
                                                          **kw), "out")


def _video(fn):
    return lambda: getattr(TV.video, fn)(weights=None)


def _vit_b_16_4l():
    # ViT-B/16 with 4 of its 12 layers (torchvision VisionTransformer,
    # nn.MultiheadAttention inside)
    return TV.VisionTransformer(image_size=224, patch_size=16, num_layers=4,
                                num_heads=12, hidden_dim=768, mlp_dim=3072)


ZOO = {
    # torchvision classification
    "alexnet": dict(ctor=_tv("alexnet"), family="plain-conv", inputs=_img()),
    "vgg11": dict(ctor=_tv("vgg11"), family="plain-conv", inputs=_img()),
    "vgg11_bn": dict(ctor=_tv("vgg11_bn"), family="plain-conv", inputs=_img()),
    "resnet18": dict(ctor=_tv("resnet18"), family="residual", inputs=_img()),
    "resnet34": dict(ctor=_tv("resnet34"), family="residual", inputs=_img()),
    "resnet50": dict(ctor=_tv("resnet50"), family="residual", inputs=_img()),
    "resnext50_32x4d": dict(ctor=_tv("resnext50_32x4d"), family="residual",
                            inputs=_img()),
    "wide_resnet50_2": dict(ctor=_tv("wide_resnet50_2"), family="residual",
                            inputs=_img()),
    "regnet_x_400mf": dict(ctor=_tv("regnet_x_400mf"), family="residual",
                           inputs=_img()),
    "regnet_y_400mf": dict(ctor=_tv("regnet_y_400mf"), family="residual",
                           inputs=_img()),
    "squeezenet1_0": dict(ctor=_tv("squeezenet1_0"), family="inception",
                          inputs=_img()),
    "squeezenet1_1": dict(ctor=_tv("squeezenet1_1"), family="inception",
                          inputs=_img()),
    "googlenet": dict(ctor=_tv("googlenet", aux_logits=False, init_weights=True),
                      family="inception", inputs=_img()),
    "inception_v3": dict(ctor=_tv("inception_v3", aux_logits=False,
                                  init_weights=True),
                         family="inception", inputs=_img(299)),
    "densenet121": dict(ctor=_tv("densenet121"), family="dense", inputs=_img()),
    "mobilenet_v2": dict(ctor=_tv("mobilenet_v2"), family="depthwise-separable",
                         inputs=_img()),
    "mobilenet_v3_small": dict(ctor=_tv("mobilenet_v3_small"),
                               family="depthwise-separable", inputs=_img()),
    "mobilenet_v3_large": dict(ctor=_tv("mobilenet_v3_large"),
                               family="depthwise-separable", inputs=_img()),
    "mnasnet0_5": dict(ctor=_tv("mnasnet0_5"), family="depthwise-separable",
                       inputs=_img()),
    "mnasnet1_0": dict(ctor=_tv("mnasnet1_0"), family="depthwise-separable",
                       inputs=_img()),
    "shufflenet_v2_x0_5": dict(ctor=_tv("shufflenet_v2_x0_5"),
                               family="depthwise-separable", inputs=_img()),
    "shufflenet_v2_x1_0": dict(ctor=_tv("shufflenet_v2_x1_0"),
                               family="depthwise-separable", inputs=_img()),
    "efficientnet_b0": dict(ctor=_tv("efficientnet_b0"),
                            family="depthwise-separable", inputs=_img()),
    "efficientnet_b1": dict(ctor=_tv("efficientnet_b1"),
                            family="depthwise-separable", inputs=_img()),
    "efficientnet_v2_s": dict(ctor=_tv("efficientnet_v2_s"),
                              family="depthwise-separable", inputs=_img()),
    "convnext_tiny": dict(ctor=_tv("convnext_tiny"), family="depthwise-separable",
                          inputs=_img()),
    "vit_b_16_4l": dict(ctor=_vit_b_16_4l, family="encoder", inputs=_img()),
    "swin_t": dict(ctor=_tv("swin_t"), family="windowed-attention",
                   inputs=_img()),
    "swin_v2_t": dict(ctor=_tv("swin_v2_t"), family="windowed-attention",
                      inputs=_img()),
    "maxvit_t": dict(ctor=_tv("maxvit_t"), family="windowed-attention",
                     inputs=_img()),
    # torchvision segmentation (the "out" head only)
    "fcn_resnet50": dict(ctor=_seg("fcn_resnet50", aux_loss=False),
                         family="segmentation", inputs=_img()),
    "deeplabv3_mobilenet_v3_large": dict(
        ctor=_seg("deeplabv3_mobilenet_v3_large", aux_loss=False),
        family="segmentation", inputs=_img()),
    "lraspp_mobilenet_v3_large": dict(ctor=_seg("lraspp_mobilenet_v3_large"),
                                      family="segmentation", inputs=_img()),
    # torchvision video, 8 frames of 112x112
    "r3d_18": dict(ctor=_video("r3d_18"), family="video",
                   inputs=[("input", ("N", 3, 8, 112, 112), "float32", None)]),
    "mc3_18": dict(ctor=_video("mc3_18"), family="video",
                   inputs=[("input", ("N", 3, 8, 112, 112), "float32", None)]),
    "r2plus1d_18": dict(ctor=_video("r2plus1d_18"), family="video",
                        inputs=[("input", ("N", 3, 8, 112, 112), "float32", None)]),
    # hand-written
    "unet_small": dict(ctor=UNetSmall, family="segmentation", inputs=_img(160)),
    "tcn_kws": dict(ctor=TCN1d, family="temporal-conv",
                    inputs=[("features", ("N", 40, "L"), "float32", None)],
                    run={"L": 64}),
    "bert_small": dict(ctor=lambda: BertBase(vocab=8000, max_pos=128, hidden=256,
                                             layers=4, heads=4, inter=1024),
                       family="encoder", inputs=_ids(8000)),
    "tiny_encoder": dict(ctor=TinyEncoder, family="encoder", inputs=_ids(256)),
    "vit_like": dict(ctor=ViTLike, family="encoder", inputs=_img()),
    "gpt2_small": dict(ctor=lambda: GPT2Small(vocab=8000, max_pos=256, hidden=256,
                                              layers=4, heads=4),
                       family="decoder", inputs=_ids(8000)),
    "causal_gpt_tanh": dict(ctor=CausalGPT, family="decoder", inputs=_ids(8000)),
    "t5_small": dict(ctor=T5Small, family="encoder-decoder",
                     inputs=_ids(8000) + _ids(8000, "decoder_input_ids", "T"),
                     run={"L": 32, "T": 16}),
    "swin_like": dict(ctor=SwinLike, family="windowed-attention", inputs=_img()),
    "mixer_like": dict(ctor=MixerLike, family="mixer", inputs=_img()),
    "gru_tagger": dict(ctor=GRUTagger, family="recurrent", inputs=_ids(8000)),
    "lstm_acoustic": dict(ctor=LSTMAcoustic, family="recurrent",
                          inputs=[("features", ("N", "L", 40), "float32", None)],
                          run={"L": 64}),
}


def build(ctor):
    torch.manual_seed(0)
    model = ctor()
    model.eval()
    return model


def make_input(kind, n=1):
    torch.manual_seed(1)
    if kind[0] == "image":
        return image_input(n, kind[1])
    return ids_input(n, *kind[1:])


# --------------------------------------------------------------------------
# Export
# --------------------------------------------------------------------------

def export_bytes(model, kind, keep_batchnorm=False):
    """Export to an in-memory ONNX model, trying OPSETS in order.
    keep_batchnorm: a training graph; TrainingMode.PRESERVE on the eval()
    model keeps BatchNormalization nodes (EVAL folds them into the Conv
    before them) while still exporting inference semantics."""
    x = make_input(kind, n=2)          # batch 2 so N is never specialised to 1
    if kind[0] == "image":
        in_name, axes = "input", {0: "N"}
        out_axes = {0: "N"}
    else:
        in_name, axes = "input_ids", {0: "N", 1: "L"}
        out_axes = None                 # set per output rank below
    with torch.no_grad():
        y = model(x)
    if out_axes is None:
        out_axes = {0: "N", 1: "L"} if y.dim() == 3 else {0: "N"}
    last_err = None
    for opset in OPSETS:
        buf = io.BytesIO()
        try:
            # Export with grad ENABLED: in torch 1.13 nn.TransformerEncoderLayer
            # and nn.MultiheadAttention take a fused "fast path"
            # (aten::_transformer_encoder_layer_fwd, no ONNX symbolic) in eval
            # mode under no_grad; with grad on they use the plain ops.
            with torch.enable_grad():
                torch.onnx.export(
                    model, (x,), buf,
                    input_names=[in_name], output_names=["output"],
                    dynamic_axes={in_name: axes, "output": out_axes},
                    opset_version=opset, do_constant_folding=True,
                    export_params=True,
                    training=(torch.onnx.TrainingMode.PRESERVE if keep_batchnorm
                              else torch.onnx.TrainingMode.EVAL))
        except Exception as e:          # noqa: BLE001 - report and retry
            last_err = e
            print(f"    opset {opset} failed: {type(e).__name__}: "
                  f"{str(e).splitlines()[0] if str(e) else ''}",
                  file=sys.stderr)
            continue
        m = onnx.load_model_from_string(buf.getvalue())
        onnx.checker.check_model(m)
        return m, opset
    raise RuntimeError(f"export failed for all opsets {OPSETS}: {last_err}")


def fmt_size(n):
    if n >= 1 << 20:
        return f"{n / (1 << 20):.2f} MiB"
    if n >= 1 << 10:
        return f"{n / (1 << 10):.1f} KiB"
    return f"{n} B"


def param_bytes(model):
    return sum(p.numel() * p.element_size() for p in model.parameters())


def export_group(models, outdir, external, keep_batchnorm=False):
    os.makedirs(outdir, exist_ok=True)
    written, failed = [], []
    for name, (ctor, kind) in models.items():
        t0 = time.time()
        print(f"[{name}] building + exporting ...", flush=True)
        try:
            model = build(ctor)
            m, opset = export_bytes(model, kind, keep_batchnorm)
        except Exception as e:          # noqa: BLE001
            print(f"[{name}] SKIPPED: {e}", file=sys.stderr, flush=True)
            failed.append((name, str(e)))
            continue
        path = os.path.join(outdir, name + ".onnx")
        if external:
            data_name = name + ".onnx.data"
            data_path = os.path.join(outdir, data_name)
            if os.path.exists(data_path):
                os.remove(data_path)
            onnx.save_model(m, path, save_as_external_data=True,
                            all_tensors_to_one_file=True,
                            location=data_name, size_threshold=1024)
            data_size = os.path.getsize(data_path)
            os.remove(data_path)        # keep only the graph
            extra = f", external data {fmt_size(data_size)} deleted"
        else:
            onnx.save_model(m, path)
            extra = ""
        size = os.path.getsize(path)
        print(f"[{name}] wrote {path}  {fmt_size(size)}  (opset {opset}, "
              f"{len(m.graph.node)} nodes, params {fmt_size(param_bytes(model))}"
              f"{extra}, {time.time() - t0:.1f}s)", flush=True)
        written.append((path, size))
    return written, failed


# --------------------------------------------------------------------------
# Independent MAC count with forward hooks (batch 1)
# --------------------------------------------------------------------------

def count_macs(model, kind):
    total = [0]

    def conv_hook(mod, inp, out):
        kh, kw = mod.kernel_size
        total[0] += out.numel() * (mod.in_channels // mod.groups) * kh * kw

    def linear_hook(mod, inp, out):
        total[0] += out.numel() * mod.in_features

    def matmul_hook(mod, inp, out):
        total[0] += out.numel() * inp[0].shape[-1]

    def mha_hook(mod, inp, out):
        # nn.MultiheadAttention calls F.multi_head_attention_forward with its
        # raw weights, so neither in_proj nor out_proj fire Linear hooks:
        # count q/k/v/out projections and both attention matmuls here.
        # torch 1.13 hooks do not see keyword arguments (torchvision calls
        # self_attention(query=x, key=x, value=x)), so take the shape from
        # the output; only self-attention (Lk == Lq) is used here.
        o = out[0] if isinstance(out, tuple) else out
        if mod.batch_first:
            n, lq, e = o.shape
        else:
            lq, n, e = o.shape
        lk = lq
        proj = n * lq * e * e + 2 * n * lk * e * e + n * lq * e * e
        attn = 2 * n * lq * lk * e
        total[0] += proj + attn

    handles = []
    for mod in model.modules():
        if isinstance(mod, nn.Conv2d):
            handles.append(mod.register_forward_hook(conv_hook))
        elif isinstance(mod, nn.MultiheadAttention):
            handles.append(mod.register_forward_hook(mha_hook))
        elif isinstance(mod, nn.Linear):
            handles.append(mod.register_forward_hook(linear_hook))
        elif isinstance(mod, MatMul):
            handles.append(mod.register_forward_hook(matmul_hook))
        elif isinstance(mod, (nn.Conv1d, nn.Conv3d, nn.ConvTranspose2d)):
            raise RuntimeError(f"uncounted layer type {type(mod).__name__}")
    with torch.no_grad():
        model(make_input(kind, n=1))
    for h in handles:
        h.remove()
    return total[0]


# torchvision / literature figures in GMACs (for the report only)
PUBLISHED_GMACS = {
    "resnet18": 1.814, "resnet50": 4.089, "vgg16": 15.470, "alexnet": 0.714,
    "mobilenet_v2": 0.301, "densenet121": 2.834, "googlenet": 1.498,
    "squeezenet1_1": 0.349, "efficientnet_b0": 0.386, "bert_base": 11.17,
    "vit_b_16": 17.564,
}


def write_macs(models, tsv_path):
    rows = []
    print("\nbatch-1 MACs (hooks; CNNs at 224x224, sequence models at L=128):")
    print(f"  {'model':<16}{'MACs':>16}{'GMACs':>10}{'published':>11}{'diff':>9}")
    for name, (ctor, kind) in models.items():
        model = build(ctor)
        macs = count_macs(model, kind)
        rows.append((name, macs))
        pub = PUBLISHED_GMACS.get(name)
        g = macs / 1e9
        if pub:
            diff = f"{100 * (g - pub) / pub:+.2f}%"
            flag = "  <-- >1% off" if abs(g - pub) / pub > 0.01 else ""
            pub_s = f"{pub:.3f}"
        else:
            diff, flag, pub_s = "", "", "-"
        print(f"  {name:<16}{macs:>16,}{g:>10.3f}{pub_s:>11}{diff:>9}{flag}")
    os.makedirs(os.path.dirname(tsv_path), exist_ok=True)
    with open(tsv_path, "w") as f:
        f.write("# model\tbatch1_macs\t(conv/linear/attention-matmul MACs "
                "counted by torch forward hooks; images 224x224, "
                "sequence models L=128; written by samples/export.py)\n")
        for name, macs in rows:
            f.write(f"{name}\t{macs}\n")
    print(f"wrote {tsv_path}  {fmt_size(os.path.getsize(tsv_path))}")


# --------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--samples", metavar="OUTDIR", nargs="?",
                    const=os.path.join(REPO_ROOT, "samples"), default=None,
                    help="export the small committed samples (default "
                         "OUTDIR: samples)")
    ap.add_argument("--reference", metavar="OUTDIR", default=None,
                    help="export graph-only reference models and write "
                         "tests/reference/expected_macs.tsv")
    ap.add_argument("--macs-tsv", default=MACS_TSV,
                    help="where --reference writes the MAC table "
                         "(default: %(default)s)")
    ap.add_argument("--keep-batchnorm", action="store_true",
                    help="training graphs: keep BatchNormalization nodes (the "
                         "default export folds them into the Conv before)")
    args = ap.parse_args()
    if args.samples is None and args.reference is None:
        args.samples = os.path.join(REPO_ROOT, "samples")

    print(f"torch {torch.__version__}, torchvision {torchvision.__version__}, "
          f"onnx {onnx.__version__}")
    failed = []
    if args.samples is not None:
        t0 = time.time()
        written, f = export_group(SAMPLE_MODELS, args.samples, external=False,
                                  keep_batchnorm=args.keep_batchnorm)
        failed += f
        total = sum(s for _, s in written)
        print(f"samples: {len(written)} files, {fmt_size(total)} total, "
              f"{time.time() - t0:.1f}s")
        if total > 20 * 1000 * 1000:
            print("WARNING: samples exceed 20 MB", file=sys.stderr)
    if args.reference is not None:
        t0 = time.time()
        written, f = export_group(REFERENCE_MODELS, args.reference,
                                  external=True, keep_batchnorm=args.keep_batchnorm)
        failed += f
        write_macs(REFERENCE_MODELS, args.macs_tsv)
        total = sum(s for _, s in written)
        print(f"reference: {len(written)} files, {fmt_size(total)} total, "
              f"{time.time() - t0:.1f}s")
    if failed:
        print("FAILED: " + ", ".join(n for n, _ in failed), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
