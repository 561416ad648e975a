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
    print(f"\nbatch-1 MACs (hooks; CNNs at 224x224, sequence models at L=128):")
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
