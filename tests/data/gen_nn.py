#!/usr/bin/python3
"""Write the nn cost tests: tests/data/nn/*.onnx and tests/data/costs-nn.tsv.

Each TSV line is  path<TAB>node<TAB>macs<TAB>flops<TAB>output-0 shape (JSON).
The expected figures are worked out here, by hand, from the conventions at
the top of analyzer/ops/{conv,pool,norm,matmul,rnn,softmax,quant,loss,
nnmisc}.c (symbols counted as 1, as the analyzer does without --batch),
never by running onnxcost.  Weights are graph inputs (no data) unless a value
is needed (shapes, lengths), then a tiny initializer.

Run from anywhere:  /usr/bin/python3 tests/data/gen_nn.py
"""
import json
import math
import os

from onnx import TensorProto, helper

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "nn")
F, I64, I32, U8, I8 = (TensorProto.FLOAT, TensorProto.INT64,
                       TensorProto.INT32, TensorProto.UINT8, TensorProto.INT8)

rows = []


def numel(shape):
    """Elements with symbols counted as 1 (a symbol "2*H" counts 2)."""
    n = 1
    for d in shape:
        if isinstance(d, int):
            n *= d
        elif "*" in d and d.split("*")[0].isdigit():
            n *= int(d.split("*")[0])
    return n


def prod(xs):
    p = 1
    for x in xs:
        p *= x
    return p


class Model:
    """One test model: single-purpose nodes, each with its own inputs."""

    def __init__(self, name, opset=17, domains=()):
        self.name, self.opset, self.domains = name, opset, domains
        self.nodes, self.inputs, self.outputs, self.inits = [], [], [], []
        self.expect = []
        self.n = 0

    def inp(self, shape, dtype=F):
        """A graph input of this shape (a weight without data)."""
        self.n += 1
        name = "in%d" % self.n
        self.inputs.append(helper.make_tensor_value_info(name, dtype, shape))
        return name

    def const(self, vals, dtype=I64, dims=None):
        """A small initializer whose values the analyzer may read."""
        self.n += 1
        name = "c%d" % self.n
        if dims is None:
            dims = [len(vals)]
        self.inits.append(helper.make_tensor(name, dtype, dims, vals))
        return name

    def node(self, op, ins, macs, flops, shape, n_out=1, domain="", **attrs):
        """Add a node; expect macs/flops and output-0 shape.  n_out may be a
        list of booleans (False = an omitted optional output)."""
        name = "%s_%d" % (op.lower(), len(self.nodes))
        present = n_out if isinstance(n_out, list) else [True] * n_out
        outs = []
        for k, p in enumerate(present):
            outs.append("%s_y%d" % (name, k) if p else "")
            if p:
                self.outputs.append(
                    helper.make_tensor_value_info(outs[-1], F, None))
        self.nodes.append(helper.make_node(op, ins, outs, name=name,
                                           domain=domain, **attrs))
        self.expect.append((name, macs, flops, shape))
        return name

    def save(self):
        graph = helper.make_graph(self.nodes, self.name, self.inputs,
                                  self.outputs, self.inits)
        model = helper.make_model(
            graph, opset_imports=[helper.make_opsetid("", self.opset)] +
            [helper.make_opsetid(d, 1) for d in self.domains],
            producer_name="gen_nn")
        model.ir_version = 8
        with open(os.path.join(OUT, self.name + ".onnx"), "wb") as f:
            f.write(model.SerializeToString())
        for name, macs, flops, shape in self.expect:
            rows.append("nn/%s.onnx\t%s\t%d\t%d\t%s" %
                        (self.name, name, macs, flops, json.dumps(shape)))


# ---- convolutions ----

def conv_len(n, k, s=1, d=1, pb=0, pe=0):
    return (n + pb + pe - ((k - 1) * d + 1)) // s + 1


def convt_len(n, k, s=1, d=1, pb=0, pe=0, op=0):
    return s * (n - 1) + op + ((k - 1) * d + 1) - pb - pe


def conv_expect(y, cin, group, kernel, bias, extra_per_out=0):
    """Conv MACs = output elements x C/group x prod(kernel)."""
    macs = numel(y) * (cin // group) * prod(kernel)
    per_out = (1 if bias else 0) + extra_per_out
    return macs, 2 * macs + per_out * numel(y)


def convt_expect(x, y, cout, group, kernel, bias):
    """ConvTranspose MACs = input elements x M/group x prod(kernel)."""
    macs = numel(x) * (cout // group) * prod(kernel)
    return macs, 2 * macs + (numel(y) if bias else 0)


def gen_conv():
    m = Model("conv")
    # plain 3x3, pad 1, with bias
    y = [1, 16, 32, 32]
    m.node("Conv", [m.inp([1, 3, 32, 32]), m.inp([16, 3, 3, 3]),
                    m.inp([16])], *conv_expect(y, 3, 1, [3, 3], True), y,
           pads=[1, 1, 1, 1])
    # strided, no padding
    h = conv_len(15, 3, 2)
    y = [2, 4, h, h]
    m.node("Conv", [m.inp([2, 8, 15, 15]), m.inp([4, 8, 3, 3])],
           *conv_expect(y, 8, 1, [3, 3], False), y, strides=[2, 2])
    # grouped
    y = [1, 16, 10, 10]
    m.node("Conv", [m.inp([1, 8, 10, 10]), m.inp([16, 2, 3, 3])],
           *conv_expect(y, 8, 4, [3, 3], False), y, group=4,
           pads=[1, 1, 1, 1])
    # depthwise, strided, padded
    h = conv_len(16, 3, 2, 1, 1, 1)
    y = [1, 32, h, h]
    m.node("Conv", [m.inp([1, 32, 16, 16]), m.inp([32, 1, 3, 3])],
           *conv_expect(y, 32, 32, [3, 3], False), y, group=32,
           strides=[2, 2], pads=[1, 1, 1, 1])
    # dilated
    h = conv_len(20, 3, 1, 2)
    y = [1, 3, h, h]
    m.node("Conv", [m.inp([1, 2, 20, 20]), m.inp([3, 2, 3, 3])],
           *conv_expect(y, 2, 1, [3, 3], False), y, dilations=[2, 2])
    # SAME_UPPER, stride 2: ceil(11 / 2)
    y = [1, 8, 6, 6]
    m.node("Conv", [m.inp([1, 4, 11, 11]), m.inp([8, 4, 3, 3])],
           *conv_expect(y, 4, 1, [3, 3], False), y, auto_pad="SAME_UPPER",
           strides=[2, 2])
    # SAME_LOWER, 5x5
    y = [1, 2, 7, 7]
    m.node("Conv", [m.inp([1, 1, 7, 7]), m.inp([2, 1, 5, 5])],
           *conv_expect(y, 1, 1, [5, 5], False), y, auto_pad="SAME_LOWER")
    # VALID, different strides per axis, kernel_shape given
    y = [1, 5, conv_len(10, 3), conv_len(12, 5, 2)]
    m.node("Conv", [m.inp([1, 3, 10, 12]), m.inp([5, 3, 3, 5])],
           *conv_expect(y, 3, 1, [3, 5], False), y, auto_pad="VALID",
           strides=[1, 2], kernel_shape=[3, 5])
    # 1-D
    y = [1, 6, conv_len(50, 5, 3, 1, 2, 2)]
    m.node("Conv", [m.inp([1, 4, 50]), m.inp([6, 4, 5]), m.inp([6])],
           *conv_expect(y, 4, 1, [5], True), y, strides=[3], pads=[2, 2])
    # 3-D with bias
    y = [1, 4, 8, 8, 8]
    m.node("Conv", [m.inp([1, 2, 8, 8, 8]), m.inp([4, 2, 3, 3, 3]),
                    m.inp([4])], *conv_expect(y, 2, 1, [3, 3, 3], True), y,
           pads=[1, 1, 1, 1, 1, 1])
    # asymmetric pads
    y = [1, 1, conv_len(5, 3, 2, 1, 1, 2), conv_len(5, 3, 2, 1, 0, 1)]
    m.node("Conv", [m.inp([1, 1, 5, 5]), m.inp([1, 1, 3, 3])],
           *conv_expect(y, 1, 1, [3, 3], False), y, strides=[2, 2],
           pads=[1, 0, 2, 1])
    # symbolic: a "same" conv keeps N, H and W
    y = ["N", 8, "H", "W"]
    m.node("Conv", [m.inp(["N", 3, "H", "W"]), m.inp([8, 3, 3, 3])],
           *conv_expect(y, 3, 1, [3, 3], False), y, pads=[1, 1, 1, 1])
    # symbolic batch, the ResNet stem
    h = conv_len(224, 7, 2, 1, 3, 3)
    y = ["N", 64, h, h]
    m.node("Conv", [m.inp(["N", 3, 224, 224]), m.inp([64, 3, 7, 7])],
           *conv_expect(y, 3, 1, [7, 7], False), y, strides=[2, 2],
           pads=[3, 3, 3, 3])

    # ConvTranspose
    x = [1, 4, 5, 5]
    y = [1, 2, convt_len(5, 3, 2), convt_len(5, 3, 2)]
    m.node("ConvTranspose", [m.inp(x), m.inp([4, 2, 3, 3])],
           *convt_expect(x, y, 2, 1, [3, 3], False), y, strides=[2, 2])
    x = [1, 3, 4, 4]
    h = convt_len(4, 3, 2, 1, 1, 1, 1)
    y = [1, 6, h, h]
    m.node("ConvTranspose", [m.inp(x), m.inp([3, 6, 3, 3]), m.inp([6])],
           *convt_expect(x, y, 6, 1, [3, 3], True), y, strides=[2, 2],
           pads=[1, 1, 1, 1], output_padding=[1, 1])
    x = [1, 4, 3, 3]
    y = [1, 6, convt_len(3, 2), convt_len(3, 2)]
    m.node("ConvTranspose", [m.inp(x), m.inp([4, 3, 2, 2])],
           *convt_expect(x, y, 6, 2, [2, 2], False), y, group=2)
    x = [1, 1, 3, 3]
    y = [1, 2, 10, 8]
    m.node("ConvTranspose", [m.inp(x), m.inp([1, 2, 3, 3])],
           *convt_expect(x, y, 2, 1, [3, 3], False), y, strides=[3, 2],
           output_shape=[10, 8])
    x = [1, 2, 4, 4]
    y = [1, 1, 8, 8]
    m.node("ConvTranspose", [m.inp(x), m.inp([2, 1, 3, 3])],
           *convt_expect(x, y, 1, 1, [3, 3], False), y, strides=[2, 2],
           auto_pad="SAME_UPPER")
    x = [1, 2, 6]
    y = [1, 3, convt_len(6, 3, 1, 2)]
    m.node("ConvTranspose", [m.inp(x), m.inp([2, 3, 3])],
           *convt_expect(x, y, 3, 1, [3], False), y, dilations=[2])
    # symbolic: kernel 2 stride 2 doubles H and W
    x = ["N", 2, "H", "W"]
    y = ["N", 2, "2*H", "2*W"]
    m.node("ConvTranspose", [m.inp(x), m.inp([2, 2, 2, 2])],
           *convt_expect(x, y, 2, 1, [2, 2], False), y, strides=[2, 2])

    # ConvInteger: int32 output, plain MACs
    y = [1, 1, 5, 5]
    m.node("ConvInteger", [m.inp([1, 1, 5, 5], U8), m.inp([1, 1, 3, 3], U8)],
           *conv_expect(y, 1, 1, [3, 3], False), y, pads=[1, 1, 1, 1])
    # QLinearConv: bias + 2 per output for the requantisation
    y = [1, 4, 4, 4]
    ins = [m.inp([1, 2, 6, 6], U8), m.inp([]), m.inp([], U8),
           m.inp([4, 2, 3, 3], U8), m.inp([4]), m.inp([4], U8), m.inp([]),
           m.inp([], U8), m.inp([4], I32)]
    m.node("QLinearConv", ins, *conv_expect(y, 2, 1, [3, 3], True, 2), y)
    m.save()

    # DeformConv (opset 19): conv MACs + 2 x 2^2 per sampled value (+1 mask)
    m = Model("deformconv", 19)
    y = [1, 3, 3, 3]
    sampled = 1 * 2 * 9 * 9
    macs, flops = conv_expect(y, 2, 1, [3, 3], True)
    m.node("DeformConv", [m.inp([1, 2, 5, 5]), m.inp([3, 2, 3, 3]),
                          m.inp([1, 18, 3, 3]), m.inp([3])],
           macs, flops + sampled * 8, y)
    macs, flops = conv_expect(y, 2, 1, [3, 3], False)
    m.node("DeformConv", [m.inp([1, 2, 5, 5]), m.inp([3, 2, 3, 3]),
                          m.inp([1, 18, 3, 3]), "", m.inp([1, 9, 3, 3])],
           macs, flops + sampled * 9, y)
    m.save()


# ---- pooling ----

def pool_len(n, k, s=1, d=1, pb=0, pe=0, ceil=False):
    """ONNX/PyTorch pooling length: a last window that would start in the
    right padding is dropped in ceil mode."""
    dk = (k - 1) * d + 1
    num = n + pb + pe - dk
    out = (-(-num // s) if ceil else num // s) + 1
    if ceil and (out - 1) * s >= n + pb:
        out -= 1
    return out


def gen_pool():
    m = Model("pool")
    h = pool_len(32, 3, 2, 1, 1, 1)
    y = [1, 3, h, h]
    m.node("MaxPool", [m.inp([1, 3, 32, 32])], 0, numel(y) * 9, y,
           kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1])
    h = pool_len(6, 3, 2, ceil=True)
    y = [1, 1, h, h]
    m.node("MaxPool", [m.inp([1, 1, 6, 6])], 0, numel(y) * 9, y,
           kernel_shape=[3, 3], strides=[2, 2], ceil_mode=1)
    # ceil mode, but the extra window would start in the padding
    h = pool_len(5, 2, 2, 1, 1, 1, ceil=True)
    assert h == 3
    y = [1, 1, h, h]
    m.node("MaxPool", [m.inp([1, 1, 5, 5])], 0, numel(y) * 4, y,
           kernel_shape=[2, 2], strides=[2, 2], pads=[1, 1, 1, 1],
           ceil_mode=1)
    h = pool_len(10, 3, 1, 2)
    y = [1, 1, h, h]
    m.node("MaxPool", [m.inp([1, 1, 10, 10])], 0, numel(y) * 9, y,
           kernel_shape=[3, 3], dilations=[2, 2])
    # with the Indices output
    y = [1, 2, 4, 4]
    m.node("MaxPool", [m.inp([1, 2, 7, 7])], 0, numel(y) * 9, y, n_out=2,
           kernel_shape=[3, 3], strides=[2, 2], auto_pad="SAME_UPPER")
    y = [2, 3, pool_len(20, 4, 4)]
    m.node("MaxPool", [m.inp([2, 3, 20])], 0, numel(y) * 4, y,
           kernel_shape=[4], strides=[4])
    y = [1, 1, 2, 2, 2]
    m.node("MaxPool", [m.inp([1, 1, 4, 4, 4])], 0, numel(y) * 8, y,
           kernel_shape=[2, 2, 2], strides=[2, 2, 2])
    h = pool_len(112, 3, 2, 1, 1, 1)
    y = ["N", 64, h, h]
    m.node("MaxPool", [m.inp(["N", 64, 112, 112])], 0, numel(y) * 9, y,
           kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1])
    y = [1, 2, 5, 5]
    m.node("AveragePool", [m.inp([1, 2, 5, 5])], 0, numel(y) * 9, y,
           kernel_shape=[3, 3], pads=[1, 1, 1, 1], count_include_pad=1)
    h = pool_len(7, 2, 2, ceil=True)
    y = [1, 2, h, h]
    m.node("AveragePool", [m.inp([1, 2, 7, 7])], 0, numel(y) * 4, y,
           kernel_shape=[2, 2], strides=[2, 2], ceil_mode=1)
    y = [1, 2, 4, 4]
    m.node("LpPool", [m.inp([1, 2, 8, 8])], 0, numel(y) * (2 * 4 + 1), y,
           kernel_shape=[2, 2], strides=[2, 2], p=2)
    m.node("GlobalAveragePool", [m.inp([2, 16, 7, 7])], 0, 2 * 16 * 49,
           [2, 16, 1, 1])
    m.node("GlobalMaxPool", [m.inp([1, 8, 5, 5, 5])], 0, 1000,
           [1, 8, 1, 1, 1])
    m.node("GlobalLpPool", [m.inp([1, 4, 6, 6])], 0, 2 * 144, [1, 4, 1, 1])
    m.node("GlobalAveragePool", [m.inp(["N", 512, "H", "W"])], 0, 512,
           ["N", 512, 1, 1])
    # MaxUnpool: (2 - 1) * 2 + 2 = 4, or output_shape
    m.node("MaxUnpool", [m.inp([1, 1, 2, 2]), m.inp([1, 1, 2, 2], I64)], 0, 0,
           [1, 1, 4, 4], kernel_shape=[2, 2], strides=[2, 2])
    m.node("MaxUnpool", [m.inp([1, 1, 2, 2]), m.inp([1, 1, 2, 2], I64),
                         m.const([1, 1, 5, 5])], 0, 0, [1, 1, 5, 5],
           kernel_shape=[2, 2], strides=[2, 2])
    # MaxRoiPool: ceil(16/4) x ceil(16/4) per output element
    y = [3, 4, 4, 4]
    m.node("MaxRoiPool", [m.inp([1, 4, 16, 16]), m.inp([3, 5])], 0,
           numel(y) * 16, y, pooled_shape=[4, 4])
    # RoiAlign: 8 per sample + 1 per output element
    y = [3, 4, 5, 5]
    m.node("RoiAlign", [m.inp([1, 4, 10, 10]), m.inp([3, 4]),
                        m.inp([3], I64)], 0, numel(y) * (8 * 9 + 1), y,
           output_height=5, output_width=5, sampling_ratio=3)
    m.node("RoiAlign", [m.inp([1, 4, 10, 10]), m.inp([3, 4]),
                        m.inp([3], I64)], 0, numel(y) * (8 * 4 + 1), y,
           output_height=5, output_width=5)
    m.save()

    m = Model("pool19", 19)  # AveragePool dilations arrive in opset 19
    h = pool_len(9, 3, 1, 2)
    y = [1, 1, h, h]
    m.node("AveragePool", [m.inp([1, 1, 9, 9])], 0, numel(y) * 9, y,
           kernel_shape=[3, 3], dilations=[2, 2])
    h = pool_len(9, 2, 2, 1, 0, 0, True)
    y = [1, 1, h, h]
    m.node("LpPool", [m.inp([1, 1, 9, 9])], 0, numel(y) * 9, y,
           kernel_shape=[2, 2], strides=[2, 2], ceil_mode=1)
    m.save()


# ---- normalisation ----

def gen_norm():
    m = Model("norm")
    x = [2, 3, 4, 5]
    m.node("BatchNormalization", [m.inp(x)] + [m.inp([3]) for _ in range(4)],
           0, 2 * numel(x), x)
    x = [2, 3, 4, 4]
    m.node("InstanceNormalization", [m.inp(x), m.inp([3]), m.inp([3])], 0,
           8 * numel(x), x)
    x = [2, 5, 8]
    m.node("LayerNormalization", [m.inp(x), m.inp([8]), m.inp([8])], 0,
           8 * numel(x), x, n_out=3)
    x = [2, 5, 8]
    m.node("LayerNormalization", [m.inp(x), m.inp([5, 8])], 0, 7 * numel(x),
           x, axis=1)
    x = ["B", "T", 768]
    m.node("LayerNormalization", [m.inp(x), m.inp([768]), m.inp([768])], 0,
           8 * 768, x)
    x = [1, 8, 4, 4]
    m.node("LRN", [m.inp(x)], 0, (2 * 5 + 4) * numel(x), x, size=5)
    x = [3, 3, 3, 1]
    m.node("MeanVarianceNormalization", [m.inp(x)], 0, 6 * numel(x), x)
    x = [2, 10]
    m.node("LpNormalization", [m.inp(x)], 0, 3 * numel(x), x, axis=1, p=1)
    m.save()

    m = Model("norm15", 15)  # training mode: running statistics outputs
    x = [2, 3, 4, 5]
    m.node("BatchNormalization", [m.inp(x)] + [m.inp([3]) for _ in range(4)],
           0, 6 * numel(x), x, n_out=3, training_mode=1)
    m.save()

    m = Model("norm9", 9)  # the old five outputs
    x = [2, 3, 6]
    m.node("BatchNormalization", [m.inp(x)] + [m.inp([3]) for _ in range(4)],
           0, 6 * numel(x), x, n_out=5)
    m.save()

    m = Model("norm18", 18)  # GroupNormalization: per-group scale in 18
    x = [2, 6, 4, 4]
    m.node("GroupNormalization", [m.inp(x), m.inp([3]), m.inp([3])], 0,
           8 * numel(x), x, num_groups=3)
    m.save()

    m = Model("norm21", 21)  # ... and per-channel scale from 21
    x = [2, 6, 4, 4]
    m.node("GroupNormalization", [m.inp(x), m.inp([6]), m.inp([6])], 0,
           8 * numel(x), x, num_groups=2)
    m.save()


# ---- matrix products ----

def gen_matmul():
    m = Model("matmul")
    # Gemm: M x N x K, + M x N with C
    m.node("Gemm", [m.inp([4, 6]), m.inp([6, 5]), m.inp([5])], 120,
           240 + 20, [4, 5])
    m.node("Gemm", [m.inp([6, 4]), m.inp([6, 5])], 120, 240, [4, 5],
           transA=1)
    m.node("Gemm", [m.inp([4, 6]), m.inp([5, 6]), m.inp([4, 5])], 120,
           240 + 20, [4, 5], transB=1, alpha=0.5, beta=2.0)
    m.node("Gemm", [m.inp([6, 4]), m.inp([5, 6]), m.inp([])], 120, 240 + 20,
           [4, 5], transA=1, transB=1)
    m.node("Gemm", [m.inp(["N", 512]), m.inp([1000, 512]), m.inp([1000])],
           512000, 2 * 512000 + 1000, ["N", 1000], transB=1)
    # MatMul: output elements x K
    m.node("MatMul", [m.inp([3, 4]), m.inp([4, 5])], 60, 120, [3, 5])
    m.node("MatMul", [m.inp([2, 1, 3, 4]), m.inp([5, 4, 6])],
           2 * 5 * 3 * 6 * 4, 2 * 720, [2, 5, 3, 6])
    m.node("MatMul", [m.inp([4]), m.inp([4, 5])], 20, 40, [5])
    m.node("MatMul", [m.inp([3, 4]), m.inp([4])], 12, 24, [3])
    m.node("MatMul", [m.inp([7]), m.inp([7])], 7, 14, [])
    m.node("MatMul", [m.inp([2, 3, 4]), m.inp([4])], 24, 48, [2, 3])
    m.node("MatMul", [m.inp([5]), m.inp([2, 5, 3])], 30, 60, [2, 3])
    m.node("MatMul", [m.inp(["B", "T", 64]), m.inp([64, 256])], 256 * 64,
           2 * 256 * 64, ["B", "T", 256])
    m.node("MatMulInteger", [m.inp([2, 3], U8), m.inp([3, 4], U8)], 24, 48,
           [2, 4])
    ins = [m.inp([2, 3], U8), m.inp([]), m.inp([], U8), m.inp([3, 4], U8),
           m.inp([]), m.inp([], U8), m.inp([]), m.inp([], U8)]
    m.node("QLinearMatMul", ins, 24, 48 + 2 * 8, [2, 4])
    # Einsum: the iteration space when something is summed or 2+ operands
    def ein(eq, shapes, space, out, nops=None):
        nops = len(shapes)
        flops = 2 * space + max(0, nops - 2) * space
        m.node("Einsum", [m.inp(s) for s in shapes], space, flops, out,
               equation=eq)

    ein("ij,jk->ik", [[3, 4], [4, 5]], 60, [3, 5])
    ein("ij,jk", [[3, 4], [4, 5]], 60, [3, 5])
    ein("bij,bjk->bik", [[2, 3, 4], [2, 4, 5]], 120, [2, 3, 5])
    ein("...ij,...jk->...ik", [[2, 1, 3, 4], [5, 4, 6]], 2 * 5 * 3 * 4 * 6,
        [2, 5, 3, 6])
    ein("i,i", [[5], [5]], 5, [])
    ein("i,j->ij", [[3], [4]], 12, [3, 4])
    ein("ij->i", [[3, 4]], 12, [3])
    ein("ii", [[4, 4]], 4, [])
    ein("ij,jk,kl->il", [[2, 3], [3, 4], [4, 5]], 120, [2, 5])
    ein("Ab,bC", [[2, 3], [3, 4]], 24, [2, 4])
    ein("ij , jk -> ik", [[2, 3], [3, 1]], 6, [2, 1])
    ein("bhqd,bhkd->bhqk", [["B", 12, "T", 64], ["B", 12, "T", 64]],
        12 * 64, ["B", 12, "T", "T"])
    # one operand, nothing summed: data movement only
    m.node("Einsum", [m.inp([3, 4])], 0, 0, [4, 3], equation="ij->ji")
    m.node("Einsum", [m.inp([2, 3, 3])], 0, 0, [2, 3],
           equation="...ii->...i")
    m.save()


# ---- recurrent cells ----

def rnn_expect(gates, cell, seq, dirs, batch, inp, hid, bias, peep=False):
    """MACs = seq x dirs x batch x gates x (input + hidden) x hidden;
    FLOPs = 2 MACs + seq x dirs x batch x hidden x (cell + 2 gates with B
    + 6 for peepholes)."""
    macs = seq * dirs * batch * gates * (inp + hid) * hid
    per = cell + (2 * gates if bias else 0) + (6 if peep else 0)
    return macs, 2 * macs + seq * dirs * batch * hid * per


def gen_rnn():
    m = Model("rnn", 14)
    m.node("RNN", [m.inp([5, 2, 3]), m.inp([1, 4, 3]), m.inp([1, 4, 4])],
           *rnn_expect(1, 2, 5, 1, 2, 3, 4, False), [5, 1, 2, 4], n_out=2,
           hidden_size=4)
    m.node("RNN", [m.inp([5, 2, 3]), m.inp([1, 4, 3]), m.inp([1, 4, 4]),
                   m.inp([1, 8])],
           *rnn_expect(1, 2, 5, 1, 2, 3, 4, True), [5, 1, 2, 4],
           hidden_size=4)
    m.node("GRU", [m.inp([4, 3, 5]), m.inp([2, 18, 5]), m.inp([2, 18, 6]),
                   m.inp([2, 36])],
           *rnn_expect(3, 11, 4, 2, 3, 5, 6, True), [4, 2, 3, 6], n_out=2,
           hidden_size=6, direction="bidirectional")
    # hidden size taken from the weights
    m.node("LSTM", [m.inp([3, 1, 2]), m.inp([1, 28, 2]), m.inp([1, 28, 7])],
           *rnn_expect(4, 13, 3, 1, 1, 2, 7, False), [3, 1, 1, 7], n_out=3)
    # layout 1: X is batch x seq x input
    m.node("LSTM", [m.inp([3, 1, 2]), m.inp([1, 28, 2]), m.inp([1, 28, 7])],
           *rnn_expect(4, 13, 1, 1, 3, 2, 7, False), [3, 1, 1, 7], n_out=2,
           hidden_size=7, layout=1)
    # reverse with bias and peepholes (P is input 7)
    m.node("LSTM", [m.inp([2, 2, 3]), m.inp([1, 20, 3]), m.inp([1, 20, 5]),
                    m.inp([1, 40]), "", "", "", m.inp([1, 15])],
           *rnn_expect(4, 13, 2, 1, 2, 3, 5, True, True), [2, 1, 2, 5],
           hidden_size=5, direction="reverse")
    m.node("GRU", [m.inp(["T", "N", 16]), m.inp([1, 96, 16]),
                   m.inp([1, 96, 32])],
           *rnn_expect(3, 11, 1, 1, 1, 16, 32, False), ["T", 1, "N", 32],
           hidden_size=32)
    m.save()


# ---- softmax, quantisation, losses ----

def gen_softmax_quant_loss():
    m = Model("softmax", 13)
    m.node("Softmax", [m.inp([2, 3, 4])], 0, 5 * 24, [2, 3, 4])
    m.node("LogSoftmax", [m.inp([4, 5])], 0, 5 * 20, [4, 5], axis=0)
    m.node("Hardmax", [m.inp([3, 4])], 0, 12, [3, 4])
    m.save()
    m = Model("softmax11", 11)  # coerced to 2-D at axis 1; shape unchanged
    m.node("Softmax", [m.inp([2, 3, 4])], 0, 5 * 24, [2, 3, 4])
    m.node("LogSoftmax", [m.inp([6])], 0, 5 * 6, [6])
    m.save()

    m = Model("quant", 13)
    m.node("QuantizeLinear", [m.inp([2, 3]), m.inp([]), m.inp([], U8)], 0,
           4 * 6, [2, 3])
    m.node("QuantizeLinear", [m.inp([2, 3, 4]), m.inp([3]), m.inp([3], I8)],
           0, 4 * 24, [2, 3, 4], axis=1)
    m.node("QuantizeLinear", [m.inp([5]), m.inp([])], 0, 4 * 5, [5])
    m.node("DequantizeLinear", [m.inp([4, 5], U8), m.inp([])], 0, 2 * 20,
           [4, 5])
    m.node("DynamicQuantizeLinear", [m.inp([3, 4])], 0, 6 * 12, [3, 4],
           n_out=3)
    m.save()

    m = Model("loss", 13)
    # per target element: 1, +1 with a weight, +1 when reduced
    m.node("NegativeLogLikelihoodLoss", [m.inp([3, 5, 6, 6]),
                                         m.inp([3, 6, 6], I64)], 0, 108,
           [3, 6, 6], reduction="none")
    m.node("NegativeLogLikelihoodLoss", [m.inp([4, 5]), m.inp([4], I64),
                                         m.inp([5])], 0, 4 * 3, [])
    m.node("NegativeLogLikelihoodLoss", [m.inp([2, 3, 4]),
                                         m.inp([2, 4], I64)], 0, 8 * 2, [],
           reduction="sum")
    # + 5 per scores element for the log-softmax
    m.node("SoftmaxCrossEntropyLoss", [m.inp([3, 5]), m.inp([3], I64)], 0,
           15 * 5 + 3 * 2, [], n_out=2)
    m.node("SoftmaxCrossEntropyLoss", [m.inp([2, 4, 3]), m.inp([2, 3], I64),
                                       m.inp([4])], 0, 24 * 5 + 6 * 2,
           [2, 3], reduction="none")
    m.save()


# ---- the rest ----

def dft_flops(batch, length, real):
    lg = max(1, math.ceil(math.log2(length)))
    f = batch * 5 * length * lg
    return f // 2 if real else f


def gen_misc():
    m = Model("misc16", 16)
    y = [1, 2, 6, 6]
    m.node("GridSample", [m.inp([1, 2, 4, 4]), m.inp([1, 6, 6, 2])], 0,
           numel(y) * 2 * 4, y)
    m.node("GridSample", [m.inp([1, 2, 4, 4]), m.inp([1, 6, 6, 2])], 0,
           numel(y), y, mode="nearest")
    m.node("GridSample", [m.inp([1, 2, 4, 4]), m.inp([1, 6, 6, 2])], 0,
           numel(y) * 2 * 16, y, mode="bicubic")
    m.node("DepthToSpace", [m.inp([1, 8, 2, 3])], 0, 0, [1, 2, 4, 6],
           blocksize=2)
    m.node("DepthToSpace", [m.inp(["N", 16, "H", "W"])], 0, 0,
           ["N", 4, "2*H", "2*W"], blocksize=2, mode="CRD")
    m.node("SpaceToDepth", [m.inp([1, 2, 4, 6])], 0, 0, [1, 8, 2, 3],
           blocksize=2)
    # Det: (M-1) M (2M-1) / 6 MACs; + M (M-1) / 2 + M per matrix
    m.node("Det", [m.inp([3, 4, 4])], 3 * 14, 2 * 3 * 14 + 3 * (6 + 4), [3])
    m.node("Det", [m.inp([2, 2])], 1, 2 + 3, [])
    m.node("TfIdfVectorizer", [m.inp([2, 6], I64)], 0, 14, [2, 7],
           max_gram_length=2, min_gram_length=2, max_skip_count=0, mode="TF",
           ngram_counts=[0, 4], ngram_indexes=[0, 1, 2, 3, 4, 5, 6],
           pool_int64s=[2, 3, 5, 4, 5, 6, 7, 8, 6, 7])
    m.save()

    m = Model("misc17", 17)
    m.node("DFT", [m.inp([1, 10, 10, 1])], 0, dft_flops(10, 10, True),
           [1, 10, 10, 2], axis=1)
    m.node("DFT", [m.inp([2, 16, 1])], 0, dft_flops(2, 16, True), [2, 9, 2],
           axis=1, onesided=1)
    m.node("DFT", [m.inp([1, 10, 2]), m.const([8], I64, [])], 0,
           dft_flops(1, 8, False), [1, 8, 2], axis=1)
    m.save()

    m = Model("misc18", 18)
    m.node("Col2Im", [m.inp([1, 5, 5]), m.const([5, 5]), m.const([1, 5])], 0,
           25, [1, 1, 5, 5])
    m.node("Col2Im", [m.inp([1, 8, 4]), m.const([3, 3]), m.const([2, 2])], 0,
           32, [1, 2, 3, 3])
    m.node("CenterCropPad", [m.inp([10, 7, 3]), m.const([8, 9])], 0, 0,
           [8, 9, 3], axes=[0, 1])
    m.node("CenterCropPad", [m.inp([4, 5]), m.const([2, 7])], 0, 0, [2, 7])
    m.save()

    m = Model("misc20", 20)
    # AffineGrid: points x r x (r + 1) MACs
    m.node("AffineGrid", [m.inp([2, 2, 3]), m.const([2, 3, 4, 5])],
           40 * 6, 2 * 40 * 6, [2, 4, 5, 2])
    m.node("AffineGrid", [m.inp([1, 3, 4]), m.const([1, 1, 2, 3, 4])],
           24 * 12, 2 * 24 * 12, [1, 2, 3, 4, 3])
    y = [1, 1, 2, 3, 5]
    m.node("GridSample", [m.inp([1, 1, 4, 4, 4]), m.inp([1, 2, 3, 5, 3])], 0,
           numel(y) * 2 * 8, y)
    m.node("DFT", [m.inp([4, 3, 2]), "", m.const([0], I64, [])], 0,
           dft_flops(3, 4, False), [4, 3, 2])
    m.node("DFT", [m.inp([3, 8, 2])], 0, dft_flops(3, 8, False), [3, 8, 2])
    m.save()


# ---- ONNX Runtime's own operators (analyzer/ops/contrib.c) ----

def gen_contrib():
    ms, nc = "com.microsoft", "com.microsoft.nchwc"
    m = Model("contrib", opset=13, domains=(ms, nc))
    # FusedConv: Conv + Relu (1 per output); with Z: + 1 more per output
    y = [1, 16, 32, 32]
    macs, flops = conv_expect(y, 3, 1, [3, 3], True)
    m.node("FusedConv", [m.inp([1, 3, 32, 32]), m.inp([16, 3, 3, 3]), m.inp([16])],
           macs, flops + numel(y), y, domain=ms, pads=[1, 1, 1, 1], activation="Relu")
    m.node("FusedConv", [m.inp([1, 3, 32, 32]), m.inp([16, 3, 3, 3]), m.inp([16]),
                         m.inp(y)],
           macs, flops + 2 * numel(y), y, domain=ms, pads=[1, 1, 1, 1],
           activation="Relu")
    y3 = [1, 8, 4, 28, 28]
    macs, flops = conv_expect(y3, 3, 1, [3, 7, 7], False)
    m.node("FusedConv", [m.inp([1, 3, 8, 56, 56]), m.inp([8, 3, 3, 7, 7])], macs,
           flops + 4 * numel(y3), y3, domain=ms, strides=[2, 2, 2], pads=[1, 3, 3] * 2,
           activation="Sigmoid")
    # NCHWc Conv: W's input channels padded to the block (3 -> 16 here is not
    # allowed: X has 13 channels, W expects 16 = padded); Sum and HardSigmoid
    y = [1, 32, 8, 8]
    macs, flops = conv_expect(y, 16, 1, [1, 1], True)
    m.node("Conv", [m.inp([1, 13, 8, 8]), m.inp([32, 16, 1, 1]), m.inp([32]), m.inp(y)],
           macs, flops + (1 + 4) * numel(y), y, domain=nc, activation="HardSigmoid")
    # depthwise, blocked
    y = [1, 16, 8, 8]
    macs, flops = conv_expect(y, 16, 16, [3, 3], True)
    m.node("Conv", [m.inp([1, 16, 8, 8]), m.inp([16, 1, 3, 3]), m.inp([16])], macs,
           flops, y, domain=nc, group=16, pads=[1, 1, 1, 1])
    # FusedGemm: Gemm + LeakyRelu (2 per output)
    m.node("FusedGemm", [m.inp([4, 6]), m.inp([5, 6]), m.inp([5])], 120, 240 + 20 + 2 * 20,
           [4, 5], domain=ms, transB=1, activation="LeakyRelu")
    # FusedMatMul: the last two dims of B swapped; alpha adds 1 per output
    m.node("FusedMatMul", [m.inp(["B", 4, 7, 8]), m.inp(["B", 4, 9, 8])], 4 * 7 * 9 * 8,
           2 * 4 * 7 * 9 * 8 + 4 * 7 * 9, ["B", 4, 7, 9], domain=ms, transB=1,
           alpha=0.125)
    m.node("FusedMatMul", [m.inp([8, 3]), m.inp([8, 5])], 15 * 8, 2 * 15 * 8, [3, 5],
           domain=ms, transA=1)
    # Gelu family: per output Gelu 5, BiasGelu 6, FastGelu 9 (+1 with bias),
    # QuickGelu 5
    x = [2, 10, 64]
    m.node("Gelu", [m.inp(x)], 0, 5 * numel(x), x, domain=ms)
    m.node("BiasGelu", [m.inp(x), m.inp([64])], 0, 6 * numel(x), x, domain=ms)
    m.node("FastGelu", [m.inp(x), m.inp([64])], 0, 10 * numel(x), x, domain=ms)
    m.node("QuickGelu", [m.inp(x)], 0, 5 * numel(x), x, domain=ms, alpha=1.702)
    # SkipLayerNormalization: 8 per element + 1 per addend (skip, beta, bias)
    m.node("SkipLayerNormalization", [m.inp(x), m.inp(x), m.inp([64]), m.inp([64]),
                                      m.inp([64])], 0, (8 + 3) * numel(x), x, n_out=4,
           domain=ms)
    m.node("SkipSimplifiedLayerNormalization", [m.inp(x), m.inp(x), m.inp([64])], 0,
           (8 + 1) * numel(x), x, domain=ms)
    # SimplifiedLayerNormalization (ONNX domain in ORT): 5 per element
    m.node("SimplifiedLayerNormalization", [m.inp(["N", 7, 32]), m.inp([32])], 0,
           5 * 7 * 32, ["N", 7, 32], n_out=2)
    # NCHWc pools as ONNX's; Upsample linear: 4 x spatial dims per output
    y = [1, 32, 4, 4]
    m.node("MaxPool", [m.inp([1, 32, 8, 8])], 0, numel(y) * 4, y, domain=nc,
           kernel_shape=[2, 2], strides=[2, 2])
    m.node("GlobalAveragePool", [m.inp([1, 32, 8, 8])], 0, 32 * 64, [1, 32, 1, 1],
           domain=nc)
    y = [1, 16, 16, 24]
    m.node("Upsample", [m.inp([1, 16, 8, 12])], 0, 8 * numel(y), y, domain=nc,
           scales=[1, 1, 2, 2], mode="linear")
    m.node("Upsample", [m.inp([1, 16, 8, 12])], 0, 0, y, domain=nc, scales=[1, 1, 2, 2],
           mode="nearest")
    # reorders: no arithmetic; ReorderOutput keeps `channels`, NHWC on request
    m.node("ReorderInput", [m.inp([1, 8, 8, 13])], 0, 0, [1, 13, 8, 8], domain=nc,
           channels_last=1)
    m.node("ReorderOutput", [m.inp([1, 16, 8, 8])], 0, 0, [1, 8, 8, 13], domain=nc,
           channels=13, channels_last=1)
    # attention: B x N x S x T x (H + Hv) MACs, 5 FLOPs per score; Attention
    # adds its projection B x S x Din x (Dq + Dk + Dv)
    macs = 2 * 5 * 16 * 48 + 2 * 4 * 5 * 5 * (4 + 4)
    m.node("Attention", [m.inp([2, 5, 16]), m.inp([16, 48]), m.inp([48])], macs,
           2 * macs + 5 * 2 * 4 * 5 * 5, [2, 5, 16], domain=ms, num_heads=4)
    macs = 2 * 4 * 5 * 7 * (4 + 4)
    m.node("MultiHeadAttention", [m.inp([2, 5, 16]), m.inp([2, 7, 16]), m.inp([2, 7, 16])],
           macs, 2 * macs + 5 * 2 * 4 * 5 * 7, [2, 5, 16], domain=ms, num_heads=4)
    # GQA: 4 query heads of 8 over 2 KV heads; 13 keys in all (past 10 + 3)
    macs = 1 * 4 * 3 * 13 * (8 + 8)
    m.node("GroupQueryAttention",
           [m.inp([1, 3, 32]), m.inp([1, 3, 16]), m.inp([1, 3, 16]), m.inp([1, 2, 10, 8]),
            m.inp([1, 2, 10, 8]), m.inp([1], I32), m.const([13], I32, [])],
           macs, 2 * macs + 5 * 1 * 4 * 3 * 13, [1, 3, 32], n_out=3, domain=ms, num_heads=4,
           kv_num_heads=2)
    # the same with total_sequence_length fed (as onnxruntime-genai exports
    # have it): past 10 + 3 new tokens, as ORT computes the present length
    m.node("GroupQueryAttention",
           [m.inp([1, 3, 32]), m.inp([1, 3, 16]), m.inp([1, 3, 16]), m.inp([1, 2, 10, 8]),
            m.inp([1, 2, 10, 8]), m.inp([1], I32), m.inp([], I32)],
           macs, 2 * macs + 5 * 1 * 4 * 3 * 13, [1, 3, 32], n_out=3, domain=ms, num_heads=4,
           kv_num_heads=2)
    m.node("RotaryEmbedding", [m.inp([1, 4, 3, 8]), m.inp([1, 3], I64), m.inp([16, 4]),
                               m.inp([16, 4])], 0, 3 * 96, [1, 4, 3, 8], domain=ms)
    # 4-bit weights: rows x N x K MACs, N x K FLOPs to dequantise
    macs = 2 * 3 * 32 * 64
    m.node("MatMulNBits", [m.inp([2, 3, 64]), m.inp([32, 2, 16], U8), m.inp([64])], macs,
           2 * macs + 32 * 64, [2, 3, 32], domain=ms, K=64, N=32, bits=4, block_size=32)
    m.save()


def gen_qlinear():
    """ORT's quantized contrib ops (analyzer/ops/qlinear.c, matmul.c)."""
    ms = "com.microsoft"
    m = Model("qlinear", opset=13, domains=(ms,))

    def qp(dt=U8):
        return [m.inp([]), m.inp([], dt)]
    # QLinearAdd/Mul: broadcast of A and B (inputs 0 and 3), 3 per output
    y = [2, 8, 4, 4]
    m.node("QLinearAdd", [m.inp(y, U8)] + qp() + [m.inp([8, 1, 1], U8)] + qp() + qp(),
           0, 3 * numel(y), y, domain=ms)
    m.node("QLinearMul", [m.inp([1, 4], U8)] + qp() + [m.inp([3, 1], U8)] + qp() + qp(),
           0, 3 * 12, [3, 4], domain=ms)
    # lookup-table activations: the float op's FLOPs + 2
    m.node("QLinearSigmoid", [m.inp([2, 16], U8)] + qp() + qp(), 0, 6 * 32, [2, 16],
           domain=ms)
    m.node("QLinearLeakyRelu", [m.inp([2, 16], I8)] + qp(I8) + qp(I8), 0, 4 * 32, [2, 16],
           domain=ms, alpha=0.1)
    # pools: the float pool's + 2 per output
    m.node("QLinearAveragePool", [m.inp([1, 8, 8, 8], U8)] + qp() + qp(), 0,
           (4 + 2) * 8 * 4 * 4, [1, 8, 4, 4], domain=ms, kernel_shape=[2, 2], strides=[2, 2])
    m.node("QLinearGlobalAveragePool", [m.inp([1, 8, 6, 6], U8)] + qp() + qp(), 0,
           8 * 36 + 2 * 8, [1, 8, 1, 1], domain=ms, channels_last=0)
    m.node("QLinearGlobalAveragePool", [m.inp([1, 6, 6, 8], U8)] + qp() + qp(), 0,
           8 * 36 + 2 * 8, [1, 1, 1, 8], domain=ms, channels_last=1)
    # QLinearConcat: Y_scale, Y_zp, then (X, scale, zp) per input
    m.node("QLinearConcat", qp() + [m.inp([2, 3, 4], U8)] + qp() + [m.inp([2, 5, 4], U8)] + qp(),
           0, 2 * 2 * 8 * 4, [2, 8, 4], domain=ms, axis=1)
    # com.microsoft QLinearConv, channels last (ORT's NhwcTransformer): X and
    # Y NHWC, W [M, C, kh, kw]; the ONNX QLinearConv's cost (2 per output)
    y = [1, 8, 8, 16]
    macs = 8 * 8 * 16 * 8 * 9
    m.node("QLinearConv", [m.inp([1, 8, 8, 8], U8)] + qp() + [m.inp([16, 8, 3, 3], I8)] +
           qp(I8) + qp(), macs, 2 * macs + 2 * numel(y), y, domain=ms, pads=[1, 1, 1, 1],
           channels_last=1)
    # QGemm: M N K MACs; + 2 per output to requantise (+1 bias); float out: + 1
    a, b = m.inp([4, 6], U8), m.inp([5, 6], I8)
    m.node("QGemm", [a] + qp() + [b] + qp(I8) + [m.inp([5], I32)] + qp(), 120,
           240 + 3 * 20, [4, 5], domain=ms, transB=1)
    m.node("QGemm", [m.inp([6, 4], U8)] + qp() + [m.inp([6, 5], I8)] + qp(I8), 120,
           240 + 20, [4, 5], domain=ms, transA=1)
    # MatMulIntegerToFloat: MatMul's MACs + 1 per output (scale) + 1 (bias)
    m.node("MatMulIntegerToFloat", [m.inp([2, 3, 4], U8), m.inp([4, 5], I8), m.inp([]),
                                    m.inp([]), m.inp([], U8), m.inp([], I8), m.inp([5])],
           2 * 3 * 5 * 4, 2 * 120 + 2 * 30, [2, 3, 5], domain=ms)
    # DynamicQuantizeMatMul: the same + 3 per element of A
    m.node("DynamicQuantizeMatMul", [m.inp([2, 3, 4]), m.inp([4, 5], I8), m.inp([])],
           120, 2 * 120 + 30 + 3 * 24, [2, 3, 5], domain=ms)
    m.save()


def main():
    os.makedirs(OUT, exist_ok=True)
    gen_conv()
    gen_pool()
    gen_norm()
    gen_matmul()
    gen_rnn()
    gen_softmax_quant_loss()
    gen_misc()
    gen_contrib()
    gen_qlinear()
    with open(os.path.join(HERE, "costs-nn.tsv"), "w") as f:
        f.write("# written by gen_nn.py: path, node, macs, flops, output-0 "
                "shape\n")
        f.write("\n".join(rows) + "\n")


if __name__ == "__main__":
    main()
