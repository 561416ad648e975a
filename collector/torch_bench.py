#!/usr/bin/python3
"""torch_bench.py - the PyTorch (CPU, training) timing driver of `onnxcost collect`.

Reads the same chunk manifest (JSON Lines) as collector/ort_bench.js, rebuilds
every single-node / small-pattern ONNX model of it as PyTorch layers, times one
full TRAINING STEP of each (and its forward pass alone) and writes one result
line per sample (JSON Lines) in the same protocol as the ORT driver.

  OMP_WAIT_POLICY=PASSIVE /usr/bin/python3 collector/torch_bench.py \
      --threads T --in MANIFEST --out RESULTS [--optimizer sgd|adam]
      [--warmup W (3)] [--repeats R (10)] [--passes P (3)] [--max-seconds S (2)]

Runs with Debian's python3-torch (1.13) and python3-onnx: use /usr/bin/python3.

What one training step is (timed with time.perf_counter_ns() around all of it):
    outs = forward(inputs)                       # the layer(s), autograd recording
    loss = sum(o.float().mean() for o in float outputs)
    loss.backward()
    optimizer.step()                             # only when the layer has parameters
    optimizer.zero_grad(set_to_none=True)        # and input .grad = None
Parameters are the model's float initializers that feed a layer (weights,
biases, BN/LN scale and shift, embedding tables, constant operands); they get
requires_grad=True, and so do the float inputs, so that backward computes
their gradients as it does inside a network (the result says
"input_grad": true).  Samples measured before 2026-12-05 18:00 UTC gave
inputs a gradient only when the layer had no parameters.
Optimizers: SGD(lr=0.01, momentum=0.9) (default) or Adam(lr=1e-3), both with
PyTorch's default (for-loop) CPU implementation.
Memory: glibc's malloc is told to keep what is freed (no mmap, no trim:
mallopt), so that a step times its kernels and not the page faults of
blocks handed back to the kernel and taken again, which a lone layer's loop
and a network's step pay differently (onnxcost predicts a network's from its
allocations: predictor/memory.h).  Samples measured before 2026-12-05 ran
with glibc's defaults.
"forward_us" times the forward call alone, in the same state (train mode,
autograd recording, the graph freed after the clock stops).

Exit status: 0 when RESULTS was written (samples that fail are reported in it
as {"ok": false}), 2 on bad arguments, 1 on I/O errors (unreadable or malformed
manifest, unwritable results).
"""

import ctypes
import gc
import json
import math
import os
import sys
import time
import zlib

USAGE = """usage: /usr/bin/python3 torch_bench.py --threads T --in MANIFEST --out RESULTS
       [--optimizer sgd|adam (sgd)] [--warmup W (3)] [--repeats R (10)]
       [--passes P (3)] [--max-seconds S (2)]
"""


class UsageError(Exception):
    pass


def parse_args(argv):
    o = {"threads": None, "in": None, "out": None, "optimizer": "sgd", "warmup": 3,
         "repeats": 10, "passes": 3, "max_seconds": 2.0}
    ints = {"--threads": "threads", "--warmup": "warmup", "--repeats": "repeats",
            "--passes": "passes"}
    strs = {"--in": "in", "--out": "out", "--optimizer": "optimizer",
            "--max-seconds": "max_seconds"}
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("-h", "--help"):
            sys.stdout.write(USAGE)
            sys.exit(0)
        if a.startswith("--") and "=" in a:
            key, val = a.split("=", 1)
        else:
            key, val = a, None
        if key not in ints and key not in strs:
            raise UsageError("unknown argument '%s'" % a)
        if val is None:
            if i + 1 >= len(argv):
                raise UsageError("missing value for %s" % a)
            i += 1
            val = argv[i]
        if key in ints:
            if not val.isdigit():
                raise UsageError("%s wants a non-negative integer, got '%s'" % (key, val))
            o[ints[key]] = int(val)
        elif key == "--max-seconds":
            try:
                v = float(val)
            except ValueError:
                v = float("nan")
            if not (v > 0) or math.isinf(v):
                raise UsageError("--max-seconds wants a positive number, got '%s'" % val)
            o["max_seconds"] = v
        elif key == "--optimizer":
            if val not in ("sgd", "adam"):
                raise UsageError("--optimizer wants sgd or adam, got '%s'" % val)
            o["optimizer"] = val
        else:
            o[strs[key]] = val
        i += 1
    if o["threads"] is None:
        raise UsageError("--threads is required")
    if o["threads"] < 1:
        raise UsageError("--threads must be >= 1")
    if not o["in"]:
        raise UsageError("--in is required")
    if not o["out"]:
        raise UsageError("--out is required")
    if o["repeats"] < 3:
        raise UsageError("--repeats must be >= 3")
    if o["passes"] < 1:
        raise UsageError("--passes must be >= 1")
    return o


# ---------------------------------------------------------------- statistics

def quantile(s, q):                       # linear interpolation (numpy's default)
    if not s:
        return None
    pos = (len(s) - 1) * q
    lo, hi = int(math.floor(pos)), int(math.ceil(pos))
    return s[lo] + (s[hi] - s[lo]) * (pos - lo)


def r3(x):
    return None if x is None else round(x, 3)


def stats(xs):
    s = sorted(xs)
    return {"min": r3(s[0]), "median": r3(quantile(s, 0.5)), "p10": r3(quantile(s, 0.1)),
            "p90": r3(quantile(s, 0.9)), "n": len(s)}


def spread_of(st):
    return r3((st["p90"] - st["p10"]) / st["median"]) if st["median"] > 0 else None


def quickest_pass(passes):
    """Index of the pass (a list of times) with the lowest median, -1 if none."""
    best, best_med = -1, float("inf")
    for i, xs in enumerate(passes):
        if xs:
            m = quantile(sorted(xs), 0.5)
            if m < best_med:
                best, best_med = i, m
    return best


def one_line(e):
    s = "%s: %s" % (type(e).__name__, e) if not isinstance(e, ConvertError) else str(e)
    return " ".join(s.split())[:500] or "unknown error"


# ---------------------------------------------------------------- set-up

def keep_freed_memory():
    """glibc: every block from the heap (M_MMAP_MAX 0), the heap never
    trimmed (M_TRIM_THRESHOLD at its largest): freed pages stay mapped.
    False where that could not be set (not glibc: its allocator's defaults
    stand)."""
    try:
        libc = ctypes.CDLL("libc.so.6")
    except OSError:
        return False
    M_TRIM_THRESHOLD, M_MMAP_MAX = -1, -4
    return bool(libc.mallopt(M_MMAP_MAX, 0) and libc.mallopt(M_TRIM_THRESHOLD, 2**31 - 1))


# OpenBLAS (Debian's torch calls the system libblas, openblas-pthread) has a
# thread pool of its own that torch.set_num_threads does not size: these fix
# it, before torch is loaded.
BLAS_THREAD_VARS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


def setup_threads(threads):
    for var in BLAS_THREAD_VARS:
        os.environ[var] = str(threads)
    global torch, F, np, onnx, numpy_helper, onnx_helper
    import numpy as np
    import torch
    import torch.nn.functional as F
    import onnx
    from onnx import numpy_helper
    from onnx import helper as onnx_helper
    torch.set_num_threads(threads)
    torch.set_num_interop_threads(1)


class ConvertError(Exception):
    pass


NP_DTYPES = {"float32": "float32", "float64": "float64", "float16": "float16",
             "int64": "int64", "int32": "int32", "int8": "int8", "uint8": "uint8",
             "bool": "bool"}


def make_tensor(spec, rng):
    dtype = spec.get("dtype", "float32")
    shape = spec.get("shape")
    if not isinstance(shape, list) or not all(isinstance(d, int) and d >= 0 for d in shape):
        raise ConvertError("input '%s': shape must be a list of non-negative integers"
                           % spec.get("name"))
    if dtype not in NP_DTYPES:
        raise ConvertError("input '%s': unsupported dtype '%s'" % (spec.get("name"), dtype))
    if dtype.startswith("float"):
        a = rng.uniform(-1.0, 1.0, size=shape).astype(dtype)
    elif dtype == "bool":
        a = rng.uniform(0.0, 1.0, size=shape) < 0.5
    else:
        b = int(spec.get("bound", 1))
        if b < 1:
            raise ConvertError("input '%s': bound must be >= 1" % spec.get("name"))
        if dtype == "int8":
            b = min(b, 128)
        if dtype == "uint8":
            b = min(b, 256)
        a = rng.integers(0, b, size=shape).astype(dtype)
    return torch.from_numpy(np.ascontiguousarray(a))


# ---------------------------------------------------------------- ONNX -> torch

ONNX_TO_TORCH_DTYPE = None


def onnx_dtype(t):
    global ONNX_TO_TORCH_DTYPE
    if ONNX_TO_TORCH_DTYPE is None:
        P = onnx.TensorProto
        ONNX_TO_TORCH_DTYPE = {
            P.FLOAT: torch.float32, P.DOUBLE: torch.float64, P.FLOAT16: torch.float16,
            P.BFLOAT16: torch.bfloat16, P.INT64: torch.int64, P.INT32: torch.int32,
            P.INT16: torch.int16, P.INT8: torch.int8, P.UINT8: torch.uint8, P.BOOL: torch.bool}
    if t not in ONNX_TO_TORCH_DTYPE:
        raise ConvertError("unsupported ONNX element type %d" % t)
    return ONNX_TO_TORCH_DTYPE[t]


def tuple_pads(pads, n):
    """ONNX pads [b1..bn, e1..en] -> (begins, ends)."""
    if not pads:
        return [0] * n, [0] * n
    if len(pads) != 2 * n:
        raise ConvertError("pads has %d values for %d spatial dims" % (len(pads), n))
    return list(pads[:n]), list(pads[n:])


def torch_pad_arg(begins, ends):
    """Per-dim (begin, end) over the LAST len(begins) dims -> F.pad's reversed list."""
    out = []
    for b, e in zip(reversed(begins), reversed(ends)):
        out += [int(b), int(e)]
    return out


def auto_pads(auto_pad, in_sp, k, s, d):
    """Explicit begin/end pads for auto_pad SAME_UPPER / SAME_LOWER / VALID."""
    n = len(in_sp)
    if auto_pad == "VALID":
        return [0] * n, [0] * n
    b, e = [], []
    for i in range(n):
        out = -(-in_sp[i] // s[i])
        total = max(0, (out - 1) * s[i] + (k[i] - 1) * d[i] + 1 - in_sp[i])
        lo = total // 2 if auto_pad == "SAME_UPPER" else total - total // 2
        b.append(lo)
        e.append(total - lo)
    return b, e


class Program:
    """The rebuilt model: a list of steps, each a closure over `env`."""

    def __init__(self):
        self.steps = []              # callables f(env)
        self.env0 = {}               # name -> tensor (parameters, constants, inputs)
        self.params = []             # nn.Parameters (optimised)
        self.grad_inputs = []        # float inputs (requires_grad)
        self.buffers = []            # BN running stats etc.
        self.outputs = []            # graph output names
        self.layers = []             # [{"name", "op", "torch"}]

    def forward(self):
        env = dict(self.env0)
        for f in self.steps:
            f(env)
        return [env[n] for n in self.outputs]


class Builder:
    def __init__(self, model, inputs):
        self.model = model
        g = model.graph
        self.opset = 1
        for imp in model.opset_import:
            if imp.domain in ("", "ai.onnx"):
                self.opset = imp.version
        self.init = {t.name: t for t in g.initializer}
        self.init_np = {}
        self.consts = {}             # name -> numpy (Constant nodes, folded)
        self.prog = Program()
        self.env = {}                # name -> tensor, traced values (shapes for later nodes)
        self.param_of = {}           # initializer name -> Parameter
        self.inputs = inputs         # name -> tensor from the manifest
        self.node = None
        self.folded = set()          # outputs of Adds folded into nn.Linear

    # -- values ----------------------------------------------------------------
    def np_init(self, name):
        if name not in self.init_np:
            self.init_np[name] = numpy_helper.to_array(self.init[name])
        return self.init_np[name]

    def is_static(self, name):
        return name in self.consts or (name in self.init and name not in self.inputs)

    def const(self, name, default=None):
        """A config input (shape, axes, pads, scales, ...) as numpy; '' -> default."""
        if not name:
            return default
        if name in self.consts:
            return self.consts[name]
        if name in self.init and name not in self.inputs:
            return self.np_init(name)
        raise ConvertError("%s: input '%s' must be a constant (initializer or Constant)"
                           % (self.node.op_type, name))

    def new_param(self, arr, label):
        p = torch.nn.Parameter(torch.from_numpy(np.array(arr, copy=True)))
        self.prog.params.append(p)
        return p

    def data(self, name):
        """Make a data input available in env: initializers become Parameters
        (float) or constant tensors, Constant outputs constant tensors."""
        if name in self.prog.env0 or name in self.env:
            return name
        if name in self.inputs:
            t = self.inputs[name]
            self.prog.env0[name] = t
            self.env[name] = t
            return name
        if name in self.init:
            arr = self.np_init(name)
            if arr.dtype.kind == "f":
                t = self.new_param(arr, name)
                self.param_of[name] = t
            else:
                t = torch.from_numpy(np.array(arr, copy=True))
            self.prog.env0[name] = t
            self.env[name] = t
            return name
        if name in self.consts:
            t = torch.from_numpy(np.array(self.consts[name], copy=True))
            self.prog.env0[name] = t
            self.env[name] = t
            return name
        raise ConvertError("value '%s' is not produced by any earlier node" % name)

    def val(self, name):
        return self.env[self.data(name)]

    def attrs(self, node):
        out = {}
        for a in node.attribute:
            v = onnx_helper.get_attribute_value(a)
            if isinstance(v, bytes):
                v = v.decode("utf-8", "replace")
            elif isinstance(v, list):
                v = [x.decode("utf-8", "replace") if isinstance(x, bytes) else x for x in v]
            out[a.name] = v
        return out

    # -- building --------------------------------------------------------------
    def build(self):
        g = self.model.graph
        for node in g.node:
            self.node = node
            if node.domain not in ("", "ai.onnx"):
                raise ConvertError("unsupported op: %s (domain %s)" % (node.op_type, node.domain))
            if node.op_type == "Constant":
                self.constant(node)
                continue
            if node.output and node.output[0] in self.folded:
                # an Add of a bias that a preceding MatMul took in (nn.Linear)
                self.prog.layers.append({"name": node.name or node.op_type,
                                         "op": node.op_type, "torch": "(in nn.Linear)"})
                continue
            conv = CONVERTERS.get(node.op_type)
            if conv is None:
                raise ConvertError("unsupported op: %s" % node.op_type)
            a = self.attrs(node)
            ins = list(node.input)
            outs = [o for o in node.output]
            f, label = conv(self, node, a, ins, outs)
            # trace it once (no autograd) for the shapes later nodes need
            with torch.no_grad():
                f(self.env)
            self.prog.steps.append(f)
            self.prog.layers.append({"name": node.name or node.op_type, "op": node.op_type,
                                     "torch": label})
        for o in g.output:
            if o.name not in self.env:
                self.data(o.name)          # an output that is an input/initializer
            self.prog.outputs.append(o.name)
        self.check_output_shapes()
        return self.prog

    def constant(self, node):
        a = self.attrs(node)
        if "value" in a:
            v = numpy_helper.to_array(a["value"])
        elif "value_float" in a:
            v = np.array(a["value_float"], dtype=np.float32)
        elif "value_floats" in a:
            v = np.array(a["value_floats"], dtype=np.float32)
        elif "value_int" in a:
            v = np.array(a["value_int"], dtype=np.int64)
        elif "value_ints" in a:
            v = np.array(a["value_ints"], dtype=np.int64)
        else:
            raise ConvertError("Constant: unsupported value attribute")
        self.consts[node.output[0]] = v

    def check_output_shapes(self):
        """Compare with the shapes the model (or ONNX shape inference) declares."""
        declared = {}
        vis = list(self.model.graph.output)
        if not all(vi.type.tensor_type.HasField("shape") and
                   all(d.HasField("dim_value") for d in vi.type.tensor_type.shape.dim)
                   for vi in vis):
            try:
                vis = list(onnx.shape_inference.infer_shapes(self.model).graph.output)
            except Exception:
                pass
        for vi in vis:
            tt = vi.type.tensor_type
            if not tt.HasField("shape"):
                continue
            dims = []
            for d in tt.shape.dim:
                if d.HasField("dim_value"):
                    dims.append(d.dim_value)
                else:
                    dims = None
                    break
            if dims is not None:
                declared[vi.name] = dims
        for name in self.prog.outputs:
            if name in declared:
                got = list(self.env[name].shape)
                if got != declared[name]:
                    raise ConvertError("output '%s' has shape %s in torch, %s in the model"
                                       % (name, got, declared[name]))


# ---------------------------------------------------------------- converters
# Each converter returns (f, label): f(env) reads its inputs from env and writes
# its outputs to env; label names the torch layer/function it runs.

CONVERTERS = {}


def op(*names):
    def reg(fn):
        for n in names:
            CONVERTERS[n] = fn
        return fn
    return reg


def _conv_common(b, a, x, wshape, transpose):
    n = len(x.shape) - 2
    if n < 1 or n > 3:
        raise ConvertError("%s: %d spatial dims not supported" % (b.node.op_type, n))
    k = list(a.get("kernel_shape", wshape[2:]))
    s = list(a.get("strides", [1] * n))
    d = list(a.get("dilations", [1] * n))
    g = int(a.get("group", 1))
    return n, k, s, d, g


@op("Conv")
def conv_conv(b, node, a, ins, outs):
    xn = b.data(ins[0])
    x = b.env[xn]
    wn = b.data(ins[1])
    w = b.env[wn]
    bn = b.data(ins[2]) if len(ins) > 2 and ins[2] else None
    n, k, s, d, g = _conv_common(b, a, x, list(w.shape), False)
    ap = a.get("auto_pad", "NOTSET")
    if ap in ("SAME_UPPER", "SAME_LOWER", "VALID"):
        pb, pe = auto_pads(ap, list(x.shape[2:]), k, s, d)
    else:
        pb, pe = tuple_pads(a.get("pads"), n)
    fn = {1: F.conv1d, 2: F.conv2d, 3: F.conv3d}[n]
    label = "nn.Conv%dd" % n
    y = outs[0]
    if pb == pe:
        pad = tuple(pb)

        def f(env):
            env[y] = fn(env[xn], env[wn], env[bn] if bn else None, s, pad, d, g)
    else:
        fp = torch_pad_arg(pb, pe)
        label = "F.pad+" + label

        def f(env):
            env[y] = fn(F.pad(env[xn], fp), env[wn], env[bn] if bn else None, s, 0, d, g)
    return f, label


@op("ConvTranspose")
def conv_convtranspose(b, node, a, ins, outs):
    xn = b.data(ins[0])
    x = b.env[xn]
    wn = b.data(ins[1])
    w = b.env[wn]
    bn = b.data(ins[2]) if len(ins) > 2 and ins[2] else None
    n, k, s, d, g = _conv_common(b, a, x, list(w.shape), True)
    op_ = list(a.get("output_padding", [0] * n))
    in_sp = list(x.shape[2:])
    ap = a.get("auto_pad", "NOTSET")
    if "output_shape" in a:
        osh = list(a["output_shape"])[-n:]
        pb, pe = [], []
        for i in range(n):
            total = s[i] * (in_sp[i] - 1) + op_[i] + ((k[i] - 1) * d[i] + 1) - osh[i]
            if total < 0:           # the output wants more than padding 0 gives
                op_[i] -= total
                total = 0
            if ap == "SAME_UPPER":
                pb.append(total // 2)
                pe.append(total - total // 2)
            else:
                pb.append(total - total // 2)
                pe.append(total // 2)
    elif ap in ("SAME_UPPER", "SAME_LOWER"):
        pb, pe = [], []
        for i in range(n):
            total = max(0, s[i] * (in_sp[i] - 1) + op_[i] + ((k[i] - 1) * d[i] + 1)
                        - in_sp[i] * s[i])
            lo = total // 2 if ap == "SAME_UPPER" else total - total // 2
            pb.append(lo)
            pe.append(total - lo)
    elif ap == "VALID":
        pb, pe = [0] * n, [0] * n
    else:
        pb, pe = tuple_pads(a.get("pads"), n)
    for i in range(n):
        if op_[i] >= max(s[i], d[i]):
            raise ConvertError("ConvTranspose: output_padding %d not below stride/dilation"
                               % op_[i])
    fn = {1: F.conv_transpose1d, 2: F.conv_transpose2d, 3: F.conv_transpose3d}[n]
    label = "nn.ConvTranspose%dd" % n
    y = outs[0]
    if pb == pe:
        pad = tuple(pb)
        opad = tuple(op_)

        def f(env):
            env[y] = fn(env[xn], env[wn], env[bn] if bn else None, s, pad, opad, g, d)
    else:
        # padding 0, then crop begin/end (the output padding stays at the end)
        opad = tuple(op_)
        label += "+crop"

        def f(env):
            t = fn(env[xn], env[wn], env[bn] if bn else None, s, 0, opad, g, d)
            sl = [slice(None), slice(None)] + [slice(pb[i], t.shape[2 + i] - pe[i])
                                               for i in range(n)]
            env[y] = t[tuple(sl)]
    return f, label


@op("Gemm")
def conv_gemm(b, node, a, ins, outs):
    alpha = float(a.get("alpha", 1.0))
    beta = float(a.get("beta", 1.0))
    ta, tb = int(a.get("transA", 0)), int(a.get("transB", 0))
    an = b.data(ins[0])
    y = outs[0]
    has_c = len(ins) > 2 and bool(ins[2])
    if ins[1] in b.init and ins[1] not in b.inputs:
        # nn.Linear: weight [N, K]
        B = b.np_init(ins[1])
        W = b.new_param(B if tb else B.T, ins[1])
        bias = None
        cn = None
        if has_c and beta != 0.0:
            N = W.shape[0]
            if ins[2] in b.init and ins[2] not in b.inputs:
                C = b.np_init(ins[2])
                if C.size == N and (C.ndim == 1 or C.shape[-1] == N):
                    bias = b.new_param(C.reshape(N) * beta, ins[2])
                else:
                    cn = b.data(ins[2])
            else:
                cn = b.data(ins[2])

        def f(env):
            A = env[an]
            if ta:
                A = A.t()
            if alpha != 1.0:
                A = A * alpha
            t = F.linear(A, W, bias)
            if cn is not None:
                t = t + (env[cn] * beta if beta != 1.0 else env[cn])
            env[y] = t
        return f, "nn.Linear" if cn is None else "nn.Linear+add"
    bn = b.data(ins[1])
    cn = b.data(ins[2]) if has_c and beta != 0.0 else None

    def f(env):
        A, B = env[an], env[bn]
        if ta:
            A = A.t()
        if tb:
            B = B.t()
        if cn is not None:
            env[y] = torch.addmm(env[cn], A, B, beta=beta, alpha=alpha)
        else:
            t = torch.mm(A, B)
            env[y] = t * alpha if alpha != 1.0 else t
    return f, "torch.addmm" if cn is not None else "torch.mm"


@op("MatMul")
def conv_matmul(b, node, a, ins, outs):
    an = b.data(ins[0])
    y = outs[0]
    if ins[1] in b.init and ins[1] not in b.inputs and b.np_init(ins[1]).ndim == 2 \
            and b.env[an].dim() >= 2:
        W = b.new_param(b.np_init(ins[1]).T, ins[1])      # nn.Linear layout [N, K]
        bias, bias_out = None, None
        # Fold a following Add of a [N] bias initializer (MatMul+Add = nn.Linear)
        fold = fold_bias_add(b, outs[0], W.shape[0])
        if fold is not None:
            bias, bias_out = fold
            y = bias_out

        def f(env):
            env[y] = F.linear(env[an], W, bias)
        return f, "nn.Linear" if bias is None else "nn.Linear(bias)"
    bn = b.data(ins[1])

    def f(env):
        env[y] = torch.matmul(env[an], env[bn])
    return f, "torch.matmul"


def fold_bias_add(b, mm_out, N):
    """If the only consumer of mm_out is an Add with a [N] float initializer,
    take that Add into the MatMul (it becomes a no-op node)."""
    g = b.model.graph
    users = [n for n in g.node if mm_out in n.input]
    if len(users) != 1 or users[0].op_type != "Add" or any(o.name == mm_out for o in g.output):
        return None
    add = users[0]
    other = add.input[1] if add.input[0] == mm_out else add.input[0]
    if other not in b.init or other in b.inputs:
        return None
    C = b.np_init(other)
    if C.dtype.kind != "f" or C.shape not in ((N,), (1, N)):
        return None
    bias = b.new_param(C.reshape(N), other)
    b.folded.add(add.output[0])
    return bias, add.output[0]


@op("BatchNormalization")
def conv_batchnorm(b, node, a, ins, outs):
    xn = b.data(ins[0])
    x = b.env[xn]
    sn, bn = b.data(ins[1]), b.data(ins[2])
    eps = float(a.get("epsilon", 1e-5))
    mom = 1.0 - float(a.get("momentum", 0.9))      # torch's momentum = 1 - ONNX's
    stat = []
    for nm in ins[3:5]:                            # running mean / var: buffers
        if b.is_static(nm):
            t = torch.from_numpy(np.array(b.const(nm), dtype=np.float32, copy=True))
        else:
            t = b.val(nm).detach().clone().float()
        stat.append(t)
    mean, var = stat
    b.prog.buffers += [mean, var]
    y = outs[0]
    rank = x.dim()
    label = "nn.BatchNorm%dd(train)" % {2: 1, 3: 1, 4: 2, 5: 3}.get(rank, 0)

    def f(env):
        env[y] = F.batch_norm(env[xn], mean, var, env[sn], env[bn], True, mom, eps)
    return f, label


@op("InstanceNormalization")
def conv_instancenorm(b, node, a, ins, outs):
    xn, sn, bn = b.data(ins[0]), b.data(ins[1]), b.data(ins[2])
    eps = float(a.get("epsilon", 1e-5))
    y = outs[0]

    def f(env):
        env[y] = F.instance_norm(env[xn], None, None, env[sn], env[bn], True, 0.1, eps)
    return f, "nn.InstanceNorm"


@op("LayerNormalization")
def conv_layernorm(b, node, a, ins, outs):
    xn = b.data(ins[0])
    x = b.env[xn]
    axis = int(a.get("axis", -1))
    if axis < 0:
        axis += x.dim()
    eps = float(a.get("epsilon", 1e-5))
    ns = tuple(x.shape[axis:])
    sn = b.data(ins[1])
    bn = b.data(ins[2]) if len(ins) > 2 and ins[2] else None
    y = outs[0]
    exact = tuple(b.env[sn].shape) == ns and (bn is None or tuple(b.env[bn].shape) == ns)
    if len(outs) > 1 and any(outs[1:]):
        raise ConvertError("LayerNormalization: Mean/InvStdDev outputs not supported")
    if exact:
        def f(env):
            env[y] = F.layer_norm(env[xn], ns, env[sn], env[bn] if bn else None, eps)
        return f, "nn.LayerNorm"

    def f(env):
        t = F.layer_norm(env[xn], ns, None, None, eps) * env[sn]
        env[y] = t + env[bn] if bn else t
    return f, "F.layer_norm+mul+add"


def _softmax_like(fn, name):
    def conv(b, node, a, ins, outs):
        xn = b.data(ins[0])
        x = b.env[xn]
        r = x.dim()
        y = outs[0]
        if b.opset >= 13:
            axis = int(a.get("axis", -1))

            def f(env):
                env[y] = fn(env[xn], axis)
            return f, name
        axis = int(a.get("axis", 1))
        if axis < 0:
            axis += r
        shp = tuple(x.shape)
        m = int(np.prod(shp[:axis])) if axis > 0 else 1

        def f(env):
            env[y] = fn(env[xn].reshape(m, -1), 1).reshape(shp)
        return f, name + "(2-D)"
    return conv


CONVERTERS["Softmax"] = lambda *p: _softmax_like(torch.softmax, "torch.softmax")(*p)
CONVERTERS["LogSoftmax"] = lambda *p: _softmax_like(torch.log_softmax, "torch.log_softmax")(*p)


# --- pooling


def _pool_params(b, a, x):
    n = x.dim() - 2
    if n < 1 or n > 3:
        raise ConvertError("%s: %d spatial dims not supported" % (b.node.op_type, n))
    k = list(a["kernel_shape"])
    s = list(a.get("strides", [1] * n))
    d = list(a.get("dilations", [1] * n))
    ap = a.get("auto_pad", "NOTSET")
    if ap in ("SAME_UPPER", "SAME_LOWER", "VALID"):
        pb, pe = auto_pads(ap, list(x.shape[2:]), k, s, d)
    else:
        pb, pe = tuple_pads(a.get("pads"), n)
    return n, k, s, d, pb, pe, bool(a.get("ceil_mode", 0))


@op("MaxPool")
def conv_maxpool(b, node, a, ins, outs):
    xn = b.data(ins[0])
    x = b.env[xn]
    n, k, s, d, pb, pe, ceil = _pool_params(b, a, x)
    fn = {1: F.max_pool1d, 2: F.max_pool2d, 3: F.max_pool3d}[n]
    want_idx = len(outs) > 1 and bool(outs[1])
    y = outs[0]
    label = "nn.MaxPool%dd" % n
    ok_sym = pb == pe and all(pb[i] <= k[i] // 2 for i in range(n))
    if ok_sym:
        pad, fp = tuple(pb), None
    else:
        pad, fp = 0, torch_pad_arg(pb, pe)
        label = "F.pad(-inf)+" + label

    def f(env):
        t = env[xn]
        if fp is not None:
            t = F.pad(t, fp, value=float("-inf"))
        r = fn(t, k, s, pad, d, ceil_mode=ceil, return_indices=want_idx)
        if want_idx:
            env[y], env[outs[1]] = r
        else:
            env[y] = r
    return f, label


@op("AveragePool")
def conv_avgpool(b, node, a, ins, outs):
    xn = b.data(ins[0])
    x = b.env[xn]
    n, k, s, d, pb, pe, ceil = _pool_params(b, a, x)
    if any(v != 1 for v in d):
        raise ConvertError("AveragePool: dilations not supported by torch")
    cip = bool(a.get("count_include_pad", 0))
    fn = {1: F.avg_pool1d, 2: F.avg_pool2d, 3: F.avg_pool3d}[n]
    y = outs[0]
    label = "nn.AvgPool%dd" % n
    ok_sym = pb == pe and all(pb[i] <= k[i] // 2 for i in range(n))
    if ok_sym:
        pad, fp = tuple(pb), None
    else:
        # zero padding first; the divisor then counts the padded cells (same work)
        pad, fp = 0, torch_pad_arg(pb, pe)
        label = "F.pad+" + label

    def f(env):
        t = env[xn]
        if fp is not None:
            t = F.pad(t, fp)
        env[y] = fn(t, k, s, pad, ceil, cip)
    return f, label


@op("GlobalAveragePool", "GlobalMaxPool")
def conv_globalpool(b, node, a, ins, outs):
    xn = b.data(ins[0])
    n = b.env[xn].dim() - 2
    y = outs[0]
    if node.op_type == "GlobalAveragePool":
        if n not in (1, 2, 3):
            raise ConvertError("GlobalAveragePool: %d spatial dims" % n)
        fn = {1: F.adaptive_avg_pool1d, 2: F.adaptive_avg_pool2d, 3: F.adaptive_avg_pool3d}[n]
        label = "nn.AdaptiveAvgPool%dd(1)" % n
    else:
        if n not in (1, 2, 3):
            raise ConvertError("GlobalMaxPool: %d spatial dims" % n)
        fn = {1: F.adaptive_max_pool1d, 2: F.adaptive_max_pool2d, 3: F.adaptive_max_pool3d}[n]
        label = "nn.AdaptiveMaxPool%dd(1)" % n
    one = (1,) * n

    def f(env):
        env[y] = fn(env[xn], one)
    return f, label


# --- elementwise

UNARY = {
    "Relu": ("F.relu", "relu"), "Sigmoid": ("torch.sigmoid", "sigmoid"),
    "Tanh": ("torch.tanh", "tanh"), "Erf": ("torch.erf", "erf"),
    "HardSwish": ("F.hardswish", "hardswish"), "Abs": ("torch.abs", "abs"),
    "Neg": ("torch.neg", "neg"), "Exp": ("torch.exp", "exp"), "Log": ("torch.log", "log"),
    "Sqrt": ("torch.sqrt", "sqrt"), "Reciprocal": ("torch.reciprocal", "reciprocal"),
    "Floor": ("torch.floor", "floor"), "Ceil": ("torch.ceil", "ceil"),
    "Round": ("torch.round", "round"), "Sign": ("torch.sign", "sign"),
    "Sin": ("torch.sin", "sin"), "Cos": ("torch.cos", "cos"), "Tan": ("torch.tan", "tan"),
    "Asin": ("torch.asin", "asin"), "Acos": ("torch.acos", "acos"),
    "Atan": ("torch.atan", "atan"), "Sinh": ("torch.sinh", "sinh"),
    "Cosh": ("torch.cosh", "cosh"), "Asinh": ("torch.asinh", "asinh"),
    "Acosh": ("torch.acosh", "acosh"), "Atanh": ("torch.atanh", "atanh"),
    "Softsign": ("F.softsign", "softsign"), "Mish": ("F.mish", "mish"),
    "Not": ("torch.logical_not", "logical_not"), "IsNaN": ("torch.isnan", "isnan"),
    "Identity": ("identity", None),
}


def _unary_fn(key):
    return {
        "relu": F.relu, "sigmoid": torch.sigmoid, "tanh": torch.tanh, "erf": torch.erf,
        "hardswish": F.hardswish, "abs": torch.abs, "neg": torch.neg, "exp": torch.exp,
        "log": torch.log, "sqrt": torch.sqrt, "reciprocal": torch.reciprocal,
        "floor": torch.floor, "ceil": torch.ceil, "round": torch.round, "sign": torch.sign,
        "sin": torch.sin, "cos": torch.cos, "tan": torch.tan, "asin": torch.asin,
        "acos": torch.acos, "atan": torch.atan, "sinh": torch.sinh, "cosh": torch.cosh,
        "asinh": torch.asinh, "acosh": torch.acosh, "atanh": torch.atanh,
        "softsign": F.softsign, "mish": F.mish, "logical_not": torch.logical_not,
        "isnan": torch.isnan}[key]


def conv_unary(b, node, a, ins, outs):
    label, key = UNARY[node.op_type]
    xn = b.data(ins[0])
    y = outs[0]
    if key is None:
        def f(env):
            env[y] = env[xn]
        return f, "identity"
    fn = _unary_fn(key)

    def f(env):
        env[y] = fn(env[xn])
    return f, label


for _k in UNARY:
    CONVERTERS[_k] = conv_unary


@op("Gelu")
def conv_gelu(b, node, a, ins, outs):
    xn = b.data(ins[0])
    y = outs[0]
    approx = a.get("approximate", "none")

    def f(env):
        env[y] = F.gelu(env[xn], approximate=approx)
    return f, "nn.GELU(%s)" % approx


@op("LeakyRelu")
def conv_leakyrelu(b, node, a, ins, outs):
    xn = b.data(ins[0])
    y = outs[0]
    alpha = float(a.get("alpha", 0.01))

    def f(env):
        env[y] = F.leaky_relu(env[xn], alpha)
    return f, "nn.LeakyReLU"


@op("Elu", "Celu", "Selu", "Softplus", "HardSigmoid", "ThresholdedRelu")
def conv_param_act(b, node, a, ins, outs):
    xn = b.data(ins[0])
    y = outs[0]
    t = node.op_type
    if t == "Elu":
        al = float(a.get("alpha", 1.0))
        fn, label = (lambda v: F.elu(v, al)), "nn.ELU"
    elif t == "Celu":
        al = float(a.get("alpha", 1.0))
        fn, label = (lambda v: F.celu(v, al)), "nn.CELU"
    elif t == "Selu":
        al = float(a.get("alpha", 1.67326319217681884765625))
        ga = float(a.get("gamma", 1.05070102214813232421875))
        if abs(al - 1.6732632) < 1e-5 and abs(ga - 1.0507010) < 1e-5:
            fn, label = F.selu, "nn.SELU"
        else:
            fn, label = (lambda v: ga * F.elu(v, al)), "elu*gamma"
    elif t == "Softplus":
        fn, label = F.softplus, "nn.Softplus"
    elif t == "HardSigmoid":
        al = float(a.get("alpha", 0.2))
        be = float(a.get("beta", 0.5))
        if abs(al - 1.0 / 6) < 1e-6 and abs(be - 0.5) < 1e-6:
            fn, label = F.hardsigmoid, "nn.Hardsigmoid"
        else:
            fn, label = (lambda v: torch.clamp(v * al + be, 0.0, 1.0)), "clamp(a*x+b)"
    else:
        al = float(a.get("alpha", 1.0))
        fn, label = (lambda v: F.threshold(v, al, 0.0)), "nn.Threshold"

    def f(env):
        env[y] = fn(env[xn])
    return f, label


@op("PRelu")
def conv_prelu(b, node, a, ins, outs):
    xn = b.data(ins[0])
    x = b.env[xn]
    sn = b.data(ins[1])
    sl = b.env[sn]
    y = outs[0]
    C = x.shape[1] if x.dim() > 1 else 1
    # nn.PReLU's weight is [C] (or [1]); ONNX slopes are broadcastable, e.g. [C,1,1]
    if sl.numel() in (1, C) and (sl.numel() == 1 or
                                 (sl.dim() >= 1 and sl.shape[0] == C and sl.numel() == C)
                                 and sl.dim() == x.dim() - 1):
        def f(env):
            env[y] = F.prelu(env[xn], env[sn].reshape(-1))
        return f, "nn.PReLU"

    def f(env):
        t = env[xn]
        env[y] = torch.where(t < 0, t * env[sn], t)
    return f, "where(x<0,x*slope,x)"


@op("Clip")
def conv_clip(b, node, a, ins, outs):
    xn = b.data(ins[0])
    y = outs[0]
    if b.opset >= 11:
        lo = b.const(ins[1]) if len(ins) > 1 and ins[1] else None
        hi = b.const(ins[2]) if len(ins) > 2 and ins[2] else None
        lo = None if lo is None else float(np.asarray(lo).reshape(-1)[0])
        hi = None if hi is None else float(np.asarray(hi).reshape(-1)[0])
    else:
        lo = a.get("min")
        hi = a.get("max")
    if lo is None and hi is None:
        def f(env):
            env[y] = env[xn]
        return f, "identity"

    def f(env):
        env[y] = torch.clamp(env[xn], lo, hi)
    return f, "torch.clamp"


BINARY = {"Add": "add", "Sub": "sub", "Mul": "mul", "Div": "div", "Pow": "pow",
          "Equal": "eq", "Less": "lt", "Greater": "gt", "LessOrEqual": "le",
          "GreaterOrEqual": "ge", "And": "logical_and", "Or": "logical_or",
          "Xor": "logical_xor"}


def conv_binary(b, node, a, ins, outs):
    t = node.op_type
    y = outs[0]
    an, bn = b.data(ins[0]), b.data(ins[1])
    fn = getattr(torch, BINARY[t])
    if t == "Div" and not b.env[an].is_floating_point() and not b.env[bn].is_floating_point():
        def f(env):
            env[y] = torch.div(env[an], env[bn], rounding_mode="trunc")
        return f, "torch.div(trunc)"

    def f(env):
        env[y] = fn(env[an], env[bn])
    return f, "torch." + fn.__name__


for _k in BINARY:
    CONVERTERS[_k] = conv_binary


@op("Mod")
def conv_mod(b, node, a, ins, outs):
    an, bn = b.data(ins[0]), b.data(ins[1])
    y = outs[0]
    fn = torch.fmod if int(a.get("fmod", 0)) else torch.remainder

    def f(env):
        env[y] = fn(env[an], env[bn])
    return f, "torch." + fn.__name__


@op("Sum", "Mean", "Max", "Min")
def conv_variadic(b, node, a, ins, outs):
    names = [b.data(n) for n in ins if n]
    y = outs[0]
    t = node.op_type
    k = len(names)
    if t in ("Sum", "Mean"):
        def f(env):
            acc = env[names[0]]
            for n in names[1:]:
                acc = acc + env[n]
            env[y] = acc / k if t == "Mean" and k > 1 else acc
        return f, "add" if t == "Sum" else "add/n"
    fn = torch.maximum if t == "Max" else torch.minimum

    def f(env):
        acc = env[names[0]]
        for n in names[1:]:
            acc = fn(acc, env[n])
        env[y] = acc
    return f, "torch." + fn.__name__


@op("Where")
def conv_where(b, node, a, ins, outs):
    cn, xn, yn = b.data(ins[0]), b.data(ins[1]), b.data(ins[2])
    y = outs[0]

    def f(env):
        env[y] = torch.where(env[cn].bool(), env[xn], env[yn])
    return f, "torch.where"


@op("Cast")
def conv_cast(b, node, a, ins, outs):
    xn = b.data(ins[0])
    y = outs[0]
    dt = onnx_dtype(int(a["to"]))

    def f(env):
        env[y] = env[xn].to(dt)
    return f, "Tensor.to(%s)" % str(dt).replace("torch.", "")


@op("Dropout")
def conv_dropout(b, node, a, ins, outs):
    xn = b.data(ins[0])
    y = outs[0]
    ratio = float(a.get("ratio", 0.5))
    if b.opset >= 12 and len(ins) > 1 and ins[1]:
        ratio = float(np.asarray(b.const(ins[1])).reshape(-1)[0])
    if len(outs) > 1 and outs[1]:
        raise ConvertError("Dropout: mask output not supported")

    def f(env):
        env[y] = F.dropout(env[xn], ratio, True)
    return f, "nn.Dropout(train)"


# --- reductions

def _axes(b, a, ins, r):
    """Reduction axes from the attribute (old opsets) or the 2nd input; None = all."""
    axes = a.get("axes")
    if len(ins) > 1 and ins[1]:
        axes = [int(v) for v in np.asarray(b.const(ins[1])).reshape(-1)]
    if axes is None or len(axes) == 0:
        return None
    return sorted(int(v) % r for v in axes)


@op("ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1",
    "ReduceL2", "ReduceLogSumExp", "ReduceSumSquare", "ReduceLogSum")
def conv_reduce(b, node, a, ins, outs):
    xn = b.data(ins[0])
    x = b.env[xn]
    r = x.dim()
    keep = bool(a.get("keepdims", 1))
    axes = _axes(b, a, ins, r)
    y = outs[0]
    t = node.op_type
    if axes is None:
        if int(a.get("noop_with_empty_axes", 0)):
            def f(env):
                env[y] = env[xn]
            return f, "identity"
        axes = list(range(r))
    dims = tuple(axes)

    if t == "ReduceSum":
        fn = lambda v: torch.sum(v, dims, keep)
    elif t == "ReduceMean":
        fn = lambda v: torch.mean(v, dims, keep)
    elif t in ("ReduceMax", "ReduceMin"):
        fa = torch.amax if t == "ReduceMax" else torch.amin
        fn = lambda v: fa(v, dims, keep)
    elif t == "ReduceProd":
        def fn(v):
            for d in sorted(dims, reverse=True):
                v = torch.prod(v, d, keepdim=keep) if keep else torch.prod(v, d)
            return v
    elif t == "ReduceL1":
        fn = lambda v: torch.linalg.vector_norm(v, 1, dims, keep)
    elif t == "ReduceL2":
        fn = lambda v: torch.linalg.vector_norm(v, 2, dims, keep)
    elif t == "ReduceLogSumExp":
        fn = lambda v: torch.logsumexp(v, dims, keep)
    elif t == "ReduceSumSquare":
        fn = lambda v: torch.sum(v * v, dims, keep)
    else:
        fn = lambda v: torch.log(torch.sum(v, dims, keep))

    def f(env):
        env[y] = fn(env[xn])
    return f, t


# --- shape / data movement

@op("Concat")
def conv_concat(b, node, a, ins, outs):
    names = [b.data(n) for n in ins if n]
    axis = int(a["axis"])
    y = outs[0]

    def f(env):
        env[y] = torch.cat([env[n] for n in names], axis)
    return f, "torch.cat"


@op("Split")
def conv_split(b, node, a, ins, outs):
    xn = b.data(ins[0])
    x = b.env[xn]
    axis = int(a.get("axis", 0)) % x.dim()
    split = a.get("split")
    if len(ins) > 1 and ins[1]:
        split = [int(v) for v in np.asarray(b.const(ins[1])).reshape(-1)]
    n = len(outs)
    if not split:
        L = x.shape[axis]
        if "num_outputs" in a:
            n = int(a["num_outputs"])
            c = -(-L // n)
            split = [c] * (L // c) + ([L % c] if L % c else [])
        else:
            if L % n:
                raise ConvertError("Split: %d not divisible into %d outputs" % (L, n))
            split = [L // n] * n
    split = [int(v) for v in split]
    names = list(outs)

    def f(env):
        parts = torch.split(env[xn], split, axis)
        for nm, p in zip(names, parts):
            if nm:
                env[nm] = p
    return f, "torch.split"


@op("Slice")
def conv_slice(b, node, a, ins, outs):
    xn = b.data(ins[0])
    x = b.env[xn]
    r = x.dim()
    if b.opset >= 10:
        starts = [int(v) for v in np.asarray(b.const(ins[1])).reshape(-1)]
        ends = [int(v) for v in np.asarray(b.const(ins[2])).reshape(-1)]
        axes = ([int(v) for v in np.asarray(b.const(ins[3])).reshape(-1)]
                if len(ins) > 3 and ins[3] else list(range(len(starts))))
        steps = ([int(v) for v in np.asarray(b.const(ins[4])).reshape(-1)]
                 if len(ins) > 4 and ins[4] else [1] * len(starts))
    else:
        starts, ends = list(a["starts"]), list(a["ends"])
        axes = list(a.get("axes", range(len(starts))))
        steps = [1] * len(starts)
    idx = [slice(None)] * r
    gathers = []
    for s, e, ax, st in zip(starts, ends, axes, steps):
        ax %= r
        L = x.shape[ax]
        if st == 0:
            raise ConvertError("Slice: step 0")
        s = s + L if s < 0 else s
        e = e + L if e < 0 else e
        if st > 0:
            s, e = max(0, min(L, s)), max(0, min(L, e))
            idx[ax] = slice(s, max(s, e), st)
        else:
            s, e = max(0, min(L - 1, s)), max(-1, min(L - 1, e))
            gathers.append((ax, list(range(s, e, st))))
    y = outs[0]
    tidx = tuple(idx)
    gidx = [(ax, torch.tensor(ix, dtype=torch.int64)) for ax, ix in gathers]

    def f(env):
        t = env[xn][tidx]
        for ax, ix in gidx:
            t = torch.index_select(t, ax, ix)
        env[y] = t
    return f, "Tensor[slice]" + ("+index_select" if gidx else "")


@op("Transpose")
def conv_transpose(b, node, a, ins, outs):
    xn = b.data(ins[0])
    r = b.env[xn].dim()
    perm = list(a.get("perm", reversed(range(r))))
    y = outs[0]

    def f(env):
        env[y] = env[xn].permute(perm)
    return f, "Tensor.permute"



@op("DepthToSpace", "SpaceToDepth")
def conv_depthtospace(b, node, a, ins, outs):
    """The ONNX element orders: DepthToSpace DCR reads the channels as
    [b, b, C/b^2], CRD as [C/b^2, b, b] (PixelShuffle); SpaceToDepth writes
    them as [b, b, C] (not PixelUnshuffle's [C, b, b])."""
    xn = b.data(ins[0])
    x = b.env[xn]
    if x.dim() != 4:
        raise ConvertError("%s: input has rank %d (expected 4)" % (node.op_type, x.dim()))
    bs = int(a.get("blocksize", 0))
    if bs < 1:
        raise ConvertError("%s: blocksize %d" % (node.op_type, bs))
    n, c, h, w = x.shape
    y = outs[0]
    if node.op_type == "SpaceToDepth":
        def f(env):
            env[y] = (env[xn].reshape(n, c, h // bs, bs, w // bs, bs)
                      .permute(0, 3, 5, 1, 2, 4).reshape(n, c * bs * bs, h // bs, w // bs))
        return f, "reshape+permute"
    if a.get("mode", "DCR") == "CRD":
        def f(env):
            env[y] = F.pixel_shuffle(env[xn], bs)
        return f, "nn.PixelShuffle"

    def f(env):
        env[y] = (env[xn].reshape(n, bs, bs, c // (bs * bs), h, w)
                  .permute(0, 3, 4, 1, 5, 2).reshape(n, c // (bs * bs), h * bs, w * bs))
    return f, "reshape+permute"


@op("Reshape")
def conv_reshape(b, node, a, ins, outs):
    xn = b.data(ins[0])
    x = b.env[xn]
    shape = [int(v) for v in np.asarray(b.const(ins[1])).reshape(-1)]
    if not int(a.get("allowzero", 0)):
        shape = [x.shape[i] if v == 0 else v for i, v in enumerate(shape)]
    y = outs[0]

    def f(env):
        env[y] = env[xn].reshape(shape)
    return f, "Tensor.reshape"


@op("Flatten")
def conv_flatten(b, node, a, ins, outs):
    xn = b.data(ins[0])
    x = b.env[xn]
    axis = int(a.get("axis", 1)) % (x.dim() + 1) if x.dim() else 0
    m = int(np.prod(x.shape[:axis])) if axis else 1
    y = outs[0]

    def f(env):
        env[y] = env[xn].reshape(m, -1)
    return f, "Tensor.reshape"


@op("Squeeze", "Unsqueeze")
def conv_squeeze(b, node, a, ins, outs):
    xn = b.data(ins[0])
    x = b.env[xn]
    axes = a.get("axes")
    if len(ins) > 1 and ins[1]:
        axes = [int(v) for v in np.asarray(b.const(ins[1])).reshape(-1)]
    y = outs[0]
    if node.op_type == "Squeeze":
        r = x.dim()
        if axes is None:
            shape = [d for d in x.shape if d != 1]
        else:
            ax = {int(v) % r for v in axes}
            shape = [d for i, d in enumerate(x.shape) if i not in ax]
    else:
        r = x.dim() + len(axes)
        ax = sorted(int(v) % r for v in axes)
        shape = list(x.shape)
        for v in ax:
            shape.insert(v, 1)
    shape = tuple(shape)

    def f(env):
        env[y] = env[xn].reshape(shape)
    return f, "Tensor.reshape"


@op("Expand")
def conv_expand(b, node, a, ins, outs):
    xn = b.data(ins[0])
    x = b.env[xn]
    shape = [int(v) for v in np.asarray(b.const(ins[1])).reshape(-1)]
    out = list(torch.broadcast_shapes(tuple(x.shape), tuple(shape)))
    y = outs[0]

    def f(env):
        env[y] = env[xn].expand(out)
    return f, "Tensor.expand"


@op("Tile")
def conv_tile(b, node, a, ins, outs):
    xn = b.data(ins[0])
    reps = [int(v) for v in np.asarray(b.const(ins[1])).reshape(-1)]
    y = outs[0]

    def f(env):
        env[y] = env[xn].repeat(reps)
    return f, "Tensor.repeat"


@op("Resize", "Upsample")
def conv_resize(b, node, a, ins, outs):
    xn = b.data(ins[0])
    x = b.env[xn]
    r = x.dim()
    n = r - 2
    mode = a.get("mode", "nearest")
    ctm = a.get("coordinate_transformation_mode", "half_pixel")
    scales = sizes = None
    if node.op_type == "Upsample":
        scales = (a.get("scales") if "scales" in a else
                  [float(v) for v in np.asarray(b.const(ins[1])).reshape(-1)])
        ctm = "asymmetric"
    elif b.opset >= 11:
        sc = b.const(ins[2]) if len(ins) > 2 and ins[2] else None
        sz = b.const(ins[3]) if len(ins) > 3 and ins[3] else None
        if sz is not None and np.asarray(sz).size:
            sizes = [int(v) for v in np.asarray(sz).reshape(-1)]
        elif sc is not None and np.asarray(sc).size:
            scales = [float(v) for v in np.asarray(sc).reshape(-1)]
    else:
        scales = [float(v) for v in np.asarray(b.const(ins[1])).reshape(-1)]
    if "axes" in a:
        raise ConvertError("Resize: axes attribute not supported")
    if sizes is not None:
        if len(sizes) != r or list(sizes[:2]) != list(x.shape[:2]):
            raise ConvertError("Resize: only spatial dims can be resized")
        if a.get("keep_aspect_ratio_policy", "stretch") != "stretch":
            raise ConvertError("Resize: keep_aspect_ratio_policy not supported")
        kw = {"size": tuple(sizes[2:])}
    elif scales is not None:
        if len(scales) != r or scales[0] != 1.0 or scales[1] != 1.0:
            raise ConvertError("Resize: only spatial dims can be scaled")
        out_sp = tuple(int(math.floor(x.shape[2 + i] * scales[2 + i])) for i in range(n))
        kw = {"size": out_sp}
    else:
        raise ConvertError("Resize: needs scales or sizes")
    if n < 1 or n > 3:
        raise ConvertError("Resize: %d spatial dims not supported" % n)
    if mode == "nearest":
        tm = "nearest" if ctm in ("asymmetric", "tf_half_pixel_for_nn") else "nearest-exact"
        label = "F.interpolate(%s)" % tm
        kw["mode"] = tm
    elif mode == "linear":
        tm = {1: "linear", 2: "bilinear", 3: "trilinear"}[n]
        kw["mode"] = tm
        kw["align_corners"] = ctm == "align_corners"
        label = "F.interpolate(%s)" % tm
    elif mode == "cubic":
        if n != 2:
            raise ConvertError("Resize: cubic needs 2 spatial dims in torch")
        kw["mode"] = "bicubic"
        kw["align_corners"] = ctm == "align_corners"
        label = "F.interpolate(bicubic)"
    else:
        raise ConvertError("Resize: mode '%s' not supported" % mode)
    y = outs[0]

    def f(env):
        env[y] = F.interpolate(env[xn], **kw)
    return f, label


@op("Pad")
def conv_pad(b, node, a, ins, outs):
    xn = b.data(ins[0])
    x = b.env[xn]
    r = x.dim()
    mode = a.get("mode", "constant")
    if b.opset >= 11:
        pads = [int(v) for v in np.asarray(b.const(ins[1])).reshape(-1)]
        cv = b.const(ins[2]) if len(ins) > 2 and ins[2] else None
        value = 0.0 if cv is None or np.asarray(cv).size == 0 else \
            float(np.asarray(cv).reshape(-1)[0])
        axes = ([int(v) % r for v in np.asarray(b.const(ins[3])).reshape(-1)]
                if len(ins) > 3 and ins[3] else list(range(r)))
    else:
        pads = list(a["pads"])
        value = float(a.get("value", 0.0))
        axes = list(range(r))
    k = len(axes)
    pb = [0] * r
    pe = [0] * r
    for i, ax in enumerate(axes):
        pb[ax] = pads[i]
        pe[ax] = pads[k + i]
    # F.pad takes pairs from the last dim backwards; only as many dims as needed
    first = next((i for i in range(r) if pb[i] or pe[i]), r)
    fp = torch_pad_arg(pb[first:], pe[first:])
    tmode = {"constant": "constant", "reflect": "reflect", "edge": "replicate",
             "wrap": "circular"}.get(mode)
    if tmode is None:
        raise ConvertError("Pad: mode '%s' not supported" % mode)
    if tmode != "constant":
        npd = r - first
        if npd > 3 or npd > r - 2 or r > 5:
            raise ConvertError("Pad: torch pads only the last 1-3 (non-batch, non-channel) "
                               "dims in %s mode" % mode)
    y = outs[0]
    if tmode == "constant":
        def f(env):
            env[y] = F.pad(env[xn], fp, "constant", value)
    else:
        def f(env):
            env[y] = F.pad(env[xn], fp, tmode)
    return f, "F.pad(%s)" % tmode


@op("Gather")
def conv_gather(b, node, a, ins, outs):
    axis = int(a.get("axis", 0))
    y = outs[0]
    dname = ins[0]
    idn = b.data(ins[1])
    idx = b.env[idn]
    if dname in b.init and dname not in b.inputs and axis == 0 and \
            b.np_init(dname).dtype.kind == "f" and b.np_init(dname).ndim == 2 and \
            idx.dtype in (torch.int64, torch.int32):
        wn = b.data(dname)                    # the embedding table, a Parameter

        def f(env):
            env[y] = F.embedding(env[idn], env[wn])
        return f, "nn.Embedding"
    dn = b.data(dname)
    data = b.env[dn]
    r = data.dim()
    axis %= r
    L = data.shape[axis]
    pre, post = tuple(data.shape[:axis]), tuple(data.shape[axis + 1:])
    ishape = tuple(idx.shape)

    def f(env):
        ix = env[idn].long()
        ix = torch.where(ix < 0, ix + L, ix)
        t = torch.index_select(env[dn], axis, ix.reshape(-1))
        env[y] = t.reshape(pre + ishape + post)
    return f, "torch.index_select"


@op("GatherElements")
def conv_gatherelements(b, node, a, ins, outs):
    dn, idn = b.data(ins[0]), b.data(ins[1])
    axis = int(a.get("axis", 0))
    y = outs[0]

    def f(env):
        env[y] = torch.gather(env[dn], axis, env[idn].long())
    return f, "torch.gather"


@op("Einsum")
def conv_einsum(b, node, a, ins, outs):
    names = [b.data(n) for n in ins]
    eq = a["equation"]
    y = outs[0]

    def f(env):
        env[y] = torch.einsum(eq, *[env[n] for n in names])
    return f, "torch.einsum"


# ---------------------------------------------------------------- samples

class Sample:
    def __init__(self, sid):
        self.id = sid
        self.error = None
        self.prog = None
        self.opt = None
        self.step = None
        self.fwd = None
        self.plan = None
        self.step_passes = []
        self.fwd_passes = []
        self.input_grad = False


def build_sample(model_path, input_specs, seed_key, optimizer, from_model_inputs=False):
    s = Sample(seed_key)
    model = onnx.load(model_path)
    rng = np.random.default_rng(zlib.crc32(seed_key.encode("utf-8")))
    init_names = {t.name for t in model.graph.initializer}
    graph_inputs = [i.name for i in model.graph.input if i.name not in init_names]
    if from_model_inputs:
        input_specs = []
        for vi in model.graph.input:
            if vi.name in init_names:
                continue
            tt = vi.type.tensor_type
            dims = [d.dim_value if d.HasField("dim_value") else -1 for d in tt.shape.dim]
            if any(d < 0 for d in dims):
                raise ConvertError("input '%s' needs a fixed shape" % vi.name)
            dt = str(onnx_dtype(tt.elem_type)).replace("torch.", "")
            input_specs.append({"name": vi.name, "dtype": dt, "shape": dims})
    if not isinstance(input_specs, list):
        raise ConvertError('"inputs" must be a list')
    inputs = {}
    for spec in input_specs:
        if not isinstance(spec, dict) or not isinstance(spec.get("name"), str):
            raise ConvertError('every input needs a "name"')
        if spec["name"] not in graph_inputs and spec["name"] not in init_names:
            raise ConvertError("model has no input '%s' (inputs: %s)"
                               % (spec["name"], ", ".join(graph_inputs)))
        inputs[spec["name"]] = make_tensor(spec, rng)
    for n in graph_inputs:
        if n not in inputs:
            raise ConvertError("manifest gives no value for model input '%s'" % n)
    b = Builder(model, inputs)
    prog = b.build()
    # every float input's gradient too, as inside a network (the docstring)
    for n, t in inputs.items():
        if t.is_floating_point():
            t.requires_grad_(True)
            prog.grad_inputs.append(t)
    s.input_grad = bool(prog.grad_inputs)
    s.prog = prog
    if prog.params:
        if optimizer == "adam":
            s.opt = torch.optim.Adam(prog.params, lr=1e-3)
        else:
            s.opt = torch.optim.SGD(prog.params, lr=0.01, momentum=0.9)
    s.step, s.fwd = make_step(prog, s.opt)
    # one untimed step now: checks that backward works, creates optimizer state
    s.step()
    return s


def make_step(prog, opt):
    grad_inputs = prog.grad_inputs
    forward = prog.forward

    def loss_of(outs):
        loss = None
        for o in outs:
            if o.requires_grad and o.is_floating_point():
                m = o.float().mean()
                loss = m if loss is None else loss + m
        if loss is None:
            raise ConvertError("no output depends on a parameter or a float input: "
                               "nothing to train")
        return loss

    def step():
        outs = forward()
        loss = loss_of(outs)
        loss.backward()
        if opt is not None:
            opt.step()
            opt.zero_grad(set_to_none=True)
        for t in grad_inputs:
            t.grad = None

    def fwd():
        return forward()

    return step, fwd


def time_calls(fn, n, keep_result=False):
    xs = []
    pc = time.perf_counter_ns
    for _ in range(n):
        t0 = pc()
        r = fn()
        t1 = pc()
        del r
        xs.append((t1 - t0) / 1000.0)
    return xs


def plan_runs(opt, probe_us, measurements):
    """Warmups/repeats so that all timed calls of a sample (all passes, step and
    forward) fit in --max-seconds; repeats never below 3."""
    per_pass = opt["max_seconds"] * 1e6 / (opt["passes"] * measurements)
    warmup, repeats = opt["warmup"], opt["repeats"]
    if (warmup + repeats) * probe_us > per_pass:
        warmup = min(opt["warmup"], 1)
        repeats = max(3, min(opt["repeats"], int(per_pass // max(probe_us, 1e-3)) - warmup))
    return {"warmup": warmup, "repeats": repeats}


def probe(opt, fn):
    per_pass = opt["max_seconds"] * 1e6 / (opt["passes"] * 2)
    t, total = [], 0.0
    while len(t) < max(opt["warmup"], 2):
        x = time_calls(fn, 1)[0]
        t.append(x)
        total += x
        if len(t) >= 2 and total > per_pass:
            break
    return min(t[-2:])


def run_pass(s, opt):
    if s.plan is None:
        s.plan = {"step": plan_runs(opt, probe(opt, s.step), 2),
                  "fwd": plan_runs(opt, probe(opt, s.fwd), 2)}
    p = s.plan["step"]
    time_calls(s.step, p["warmup"])
    s.step_passes.append(time_calls(s.step, p["repeats"]))
    p = s.plan["fwd"]
    time_calls(s.fwd, p["warmup"])
    s.fwd_passes.append(time_calls(s.fwd, p["repeats"]))


def time_calibration(opt, calib, when):
    base = {"calibration": True, "when": when, "runtime": "torch"}
    if calib.error:
        base.update({"ok": False, "error": calib.error})
        return base
    try:
        gc.collect()
        gc.disable()
        passes = []
        for _ in range(opt["passes"]):
            time_calls(calib.step, opt["warmup"])
            passes.append(time_calls(calib.step, opt["repeats"]))
        gc.enable()
        st = stats(passes[quickest_pass(passes)])
        base.update({"median_us": st["median"], "spread": spread_of(st), "n": st["n"],
                     "passes": opt["passes"], "what": "train_step"})
        return base
    except Exception as e:
        gc.enable()
        base.update({"ok": False, "error": "calibration model: " + one_line(e)})
        return base


def summarize(opt, s, torch_version):
    sp, fp = quickest_pass(s.step_passes), quickest_pass(s.fwd_passes)
    if sp < 0 or fp < 0:
        raise ConvertError("no timed runs")
    step = stats(s.step_passes[sp])
    fwd = stats(s.fwd_passes[fp])
    nparams = sum(p.numel() for p in s.prog.params)
    return {
        "id": s.id, "ok": True, "runtime": "torch", "torch_version": torch_version,
        "threads": opt["threads"], "interop_threads": 1,
        "mode": "train", "optimizer": opt["optimizer"] if s.opt is not None else None,
        "loss": "mean", "params": nparams, "input_grad": s.input_grad,
        # one full training step (forward, loss, backward, optimizer step, zero_grad)
        "wall_us": step, "kernel_us": step, "step_us": step,
        "forward_us": fwd,
        "kernels": [],
        "layers": s.prog.layers,
        "passes": opt["passes"],
        "spread": spread_of(step), "wall_spread": spread_of(step),
        "forward_spread": spread_of(fwd),
    }


def read_manifest(path):
    with open(path, "r", encoding="utf-8") as fh:
        lines = fh.read().split("\n")
    calib, samples = None, []
    for i, line in enumerate(lines):
        t = line.strip()
        if not t:
            continue
        try:
            obj = json.loads(t)
        except ValueError as e:
            raise IOError("%s:%d: bad JSON: %s" % (path, i + 1, e))
        if isinstance(obj, dict) and "calibration_model" in obj:
            if samples or calib is not None:
                raise IOError("%s:%d: calibration_model must be the first line" % (path, i + 1))
            calib = str(obj["calibration_model"])
            continue
        if not isinstance(obj, dict) or "id" not in obj:
            raise IOError('%s:%d: a sample line needs an "id"' % (path, i + 1))
        samples.append(obj)
    return calib, samples


def main(argv):
    try:
        opt = parse_args(argv)
    except UsageError as e:
        sys.stderr.write("torch_bench: %s\n%s" % (e, USAGE))
        return 2
    try:
        calib_path, samples = read_manifest(opt["in"])
    except (IOError, OSError) as e:
        sys.stderr.write("torch_bench: cannot read manifest: %s\n" % e)
        return 1

    keep_freed_memory()
    setup_threads(opt["threads"])
    torch_version = torch.__version__
    torch.manual_seed(0)

    # 1. Build every sample of the chunk first (calibration included).
    calib = None
    if calib_path is not None:
        try:
            calib = build_sample(calib_path, None, "calibration", opt["optimizer"],
                                 from_model_inputs=True)
        except Exception as e:
            calib = Sample("calibration")
            calib.error = "calibration model: " + one_line(e)
    work = []
    for m in samples:
        sid = m["id"]
        try:
            if not isinstance(m.get("model"), str):
                raise ConvertError('"model" must be a path')
            s = build_sample(m["model"], m.get("inputs"), str(sid), opt["optimizer"])
            s.id = sid
        except Exception as e:
            s = Sample(sid)
            s.error = one_line(e)
        work.append(s)

    # 2. Calibration before the chunk.
    cal_lines = []
    if calib is not None:
        cal_lines.append(time_calibration(opt, calib, "before"))

    # 3. Interleaved passes: every pass visits every sample.
    gc.collect()
    for _ in range(opt["passes"]):
        for s in work:
            if s.error:
                continue
            try:
                gc.disable()
                run_pass(s, opt)
            except Exception as e:
                s.error = one_line(e)
            finally:
                gc.enable()

    # 4. Calibration after the chunk (the samples still alive, as before).
    if calib is not None:
        cal_lines.append(time_calibration(opt, calib, "after"))

    # 5. Result lines, in manifest order.
    out = []
    if cal_lines:
        out.append(cal_lines[0])
    for s in work:
        line = None
        if not s.error:
            try:
                line = summarize(opt, s, torch_version)
            except Exception as e:
                s.error = one_line(e)
        if line is None:
            line = {"id": s.id, "ok": False, "error": s.error}
        out.append(line)
    if cal_lines:
        out.append(cal_lines[1])

    # 6. Write atomically: a results file is complete or absent.
    tmp = "%s.tmp.%d" % (opt["out"], os.getpid())
    try:
        with open(tmp, "w", encoding="utf-8") as fh:
            for o in out:
                fh.write(json.dumps(o, allow_nan=False, default=str) + "\n")
        os.replace(tmp, opt["out"])
    except (IOError, OSError, ValueError) as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        sys.stderr.write("torch_bench: cannot write results: %s\n" % e)
        return 1
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except KeyboardInterrupt:          # onnxcost collect was interrupted: no results
        sys.stderr.write("torch_bench: interrupted\n")
        sys.exit(130)
