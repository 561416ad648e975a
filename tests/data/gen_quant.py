"""Small quantized and reduced-precision models, as the tools that make
them write them (run with Debian's python3-onnx: /usr/bin/python3
tests/data/gen_quant.py DIR [NAME...]).  Each is written to DIR/NAME.onnx
with DIR/NAME.inputs.json, the input spec collector/ort_graph.js takes
(batch 1); every model has a symbolic batch dim "N".  scripts/ort_quant.py
runs them in ONNX Runtime and records what it ran (tests/data/ort-quant/).

Dynamic quantization (ORT's quantize_dynamic: DynamicQuantizeLinear on the
activation, int8 weights, the integer result scaled back to float):
  dq_matmul       x[N,32,256] -> DQL -> MatMulInteger(W 256x512 int8)
                  -> Cast -> Mul(Mul(x_scale, w_scale)) -> Add(bias)
  dq_matmul_nobias  the same without the bias Add
  dq_matmul_op17  dq_matmul at opset 17 (Mul-14)
  dq_shared       one DQL feeding three MatMulIntegers (Q, K, V)
  dq_qkv          the same with three weight scales (as quantize_dynamic
                  writes attention's Q, K, V)
  dq_mlp          two dq_matmuls with a Relu between
  dq_conv         x[N,16,32,32] -> DQL -> ConvInteger(W 32x16x3x3 uint8)
                  -> Cast -> Mul(scale) -> Add(bias as [32,1,1]) -> Relu
QDQ (QuantizeLinear/DequantizeLinear around float ops, static quantization
in ORT's QDQ format: uint8 activations, int8 per-channel weights, int32
biases):
  qdq_conv_relu   Q/DQ -> Conv(DQ W, DQ b) -> Relu -> Q/DQ (zero point 0)
  qdq_relu_kept   the same with the Q's zero point 128 (the Relu is not
                  redundant: the Conv stays float)
  qdq_resnet      a residual block: Conv-Relu, Conv, Add, Relu, MaxPool,
                  GlobalAveragePool, Flatten, Gemm (QDQ between all)
  qdq_matmul      Q/DQ -> MatMul(DQ W) -> Q/DQ
  qdq_matmul_float  Q/DQ -> MatMul(DQ W) -> float out (no Q after)
  qdq_gemm        Q/DQ -> Gemm(DQ W, DQ b) -> Q/DQ
  qdq_binary      Add and Mul of two DQ inputs, each -> Q/DQ
  qdq_pool        AveragePool, GlobalAveragePool (QDQ around each)
  qdq_unary       Sigmoid, LeakyRelu (QDQ around each)
  qdq_concat      Concat of two Q/DQ branches -> Q/DQ
  qdq_move        Reshape, Transpose, MaxPool with Q/DQ around
  qdq_clip        Conv -> Clip(0, 6) -> Q/DQ
QOperator (the quantizer's QOperator format):
  qop_cnn         Q -> QLinearConv -> QLinearAdd -> QLinearAveragePool ->
                  QLinearGlobalAveragePool -> DQ
  qop_matmul      Q -> QLinearMatMul -> QLinearMul -> QLinearSigmoid ->
                  QLinearLeakyRelu -> QLinearConcat -> DQ
  qop_gemm        Q -> QGemm -> DQ
fp16 (weights and activations in float16):
  fp16_cnn        Conv-Relu, MaxPool, Add, GlobalAveragePool, Flatten, Gemm
  fp16_mlp        MatMul, Add, Softmax, LayerNormalization (opset 17)
  fp16_io         float input Cast to float16 (keep_io_types), Conv-Relu,
                  Cast back
int4 weights:
  nbits_matmul    x[N,32,256] -> MatMulNBits(K 256, N 512, 4 bits, block 32)
Whole networks of tests/data/ort-plan (random weights of their shapes):
  resnet18_qdq    resnet18-op13-dyn in QDQ format, as quantize_static writes it
  bert_small_dq   bert_small-op13-dyn dynamically quantized (quantize_dynamic)
"""
import json
import os
import sys
import zlib

import numpy as np
from onnx import TensorProto, helper, numpy_helper

F, F16, U8, I8, I32 = (TensorProto.FLOAT, TensorProto.FLOAT16, TensorProto.UINT8,
                       TensorProto.INT8, TensorProto.INT32)
rng = np.random.default_rng(16)
MODELS = {}


def model(fn):
    MODELS[fn.__name__] = fn
    return fn


class G:
    """A graph under construction: nodes, initializers, unique names."""

    def __init__(self):
        self.nodes, self.inits, self.n = [], [], 0

    def name(self, base):
        self.n += 1
        return "%s_%d" % (base, self.n)

    def init(self, base, arr):
        nm = self.name(base)
        self.inits.append(numpy_helper.from_array(np.asarray(arr), nm))
        return nm

    def op(self, op, ins, n_out=1, domain=None, **attrs):
        nm = self.name(op)
        outs = [nm + "_out%d" % k if n_out > 1 else nm + "_out" for k in range(n_out)]
        kw = {"domain": domain} if domain else {}
        self.nodes.append(helper.make_node(op, ins, outs, name=nm, **kw, **attrs))
        return outs if n_out > 1 else outs[0]

    # QDQ helpers: an activation quantized to uint8 and back
    def qdq(self, x, scale=0.05, zp=128):
        s = self.init("s", np.float32(scale))
        z = self.init("zp", np.uint8(zp))
        return self.op("DequantizeLinear", [self.op("QuantizeLinear", [x, s, z]), s, z])

    def q(self, x, scale=0.05, zp=128):
        s = self.init("s", np.float32(scale))
        z = self.init("zp", np.uint8(zp))
        return self.op("QuantizeLinear", [x, s, z]), s, z

    def dq_weight(self, shape, axis=0):
        """int8 weight, per-channel scales along axis, zero points 0."""
        w = rng.integers(-127, 128, size=shape).astype(np.int8)
        s = (rng.random(shape[axis]) * 0.01 + 0.001).astype(np.float32)
        z = np.zeros(shape[axis], np.int8)
        self.wscale = s
        return self.op("DequantizeLinear", [self.init("w", w), self.init("ws", s),
                                            self.init("wz", z)], axis=axis)

    def dq_bias(self, n, x_scale=0.05):
        """int32 bias of the weight just made: scale x_scale * w_scale, as
        the quantizer writes it (ORT makes a QLinearConv only then)."""
        b = rng.integers(-1000, 1000, size=n).astype(np.int32)
        s = (np.float32(x_scale) * self.wscale).astype(np.float32)
        return self.op("DequantizeLinear", [self.init("b", b), self.init("bs", s),
                                            self.init("bz", np.zeros(n, np.int32))], axis=0)


def finish(g, name, inputs, outputs, opset=13, ms=False):
    ops = [helper.make_opsetid("", opset)]
    if ms:
        ops.append(helper.make_opsetid("com.microsoft", 1))
    graph = helper.make_graph(g.nodes, name, inputs, outputs, g.inits)
    return helper.make_model(graph, opset_imports=ops, producer_name="onnxcost-tests")


def vi(name, elem, dims):
    return helper.make_tensor_value_info(name, elem, dims)


def spec(name, shape, dtype="float32"):
    return {"name": name, "dtype": dtype, "shape": shape}


# ---- dynamic quantization ----

def dq_linear(g, x, k, n, bias=True):
    xq, xs, xz = g.op("DynamicQuantizeLinear", [x], n_out=3)
    w = g.init("w", rng.integers(-127, 128, size=(k, n)).astype(np.int8))
    ws = g.init("ws", np.float32(0.004))
    wz = g.init("wz", np.int8(0))
    mm = g.op("MatMulInteger", [xq, w, xz, wz])
    scale = g.op("Mul", [xs, ws])
    y = g.op("Mul", [g.op("Cast", [mm], to=F), scale])
    if bias:
        y = g.op("Add", [y, g.init("bias", rng.standard_normal(n).astype(np.float32))])
    return y


@model
def dq_matmul():
    g = G()
    y = dq_linear(g, "x", 256, 512)
    return finish(g, "dq_matmul", [vi("x", F, ["N", 32, 256])], [vi(y, F, None)]), \
        [spec("x", [1, 32, 256])]


@model
def dq_matmul_nobias():
    g = G()
    y = dq_linear(g, "x", 256, 512, bias=False)
    return finish(g, "dq_matmul_nobias", [vi("x", F, ["N", 32, 256])], [vi(y, F, None)]), \
        [spec("x", [1, 32, 256])]


@model
def dq_matmul_op17():
    g = G()
    y = dq_linear(g, "x", 256, 512)
    return finish(g, "dq_matmul_op17", [vi("x", F, ["N", 32, 256])], [vi(y, F, None)],
                  opset=17), [spec("x", [1, 32, 256])]


@model
def dq_shared():
    g = G()
    xq, xs, xz = g.op("DynamicQuantizeLinear", ["x"], n_out=3)
    outs = []
    for _ in range(3):
        w = g.init("w", rng.integers(-127, 128, size=(256, 256)).astype(np.int8))
        mm = g.op("MatMulInteger", [xq, w, xz, g.init("wz", np.int8(0))])
        scale = g.op("Mul", [xs, g.init("ws", np.float32(0.004))])
        y = g.op("Mul", [g.op("Cast", [mm], to=F), scale])
        outs.append(g.op("Add", [y, g.init("bias", rng.standard_normal(256).astype(np.float32))]))
    return finish(g, "dq_shared", [vi("x", F, ["N", 32, 256])],
                  [vi(o, F, None) for o in outs]), [spec("x", [1, 32, 256])]


@model
def dq_qkv():
    """one DQL feeding three MatMulIntegers with their own weight scales
    (as quantize_dynamic writes attention's Q, K, V)"""
    g = G()
    xq, xs, xz = g.op("DynamicQuantizeLinear", ["x"], n_out=3)
    outs = []
    for k in range(3):
        w = g.init("w", rng.integers(-127, 128, size=(256, 256)).astype(np.int8))
        mm = g.op("MatMulInteger", [xq, w, xz, g.init("wz", np.int8(0))])
        scale = g.op("Mul", [xs, g.init("ws", np.float32(0.003 + 0.001 * k))])
        y = g.op("Mul", [g.op("Cast", [mm], to=F), scale])
        outs.append(g.op("Add", [y, g.init("bias", rng.standard_normal(256).astype(np.float32))]))
    return finish(g, "dq_qkv", [vi("x", F, ["N", 32, 256])],
                  [vi(o, F, None) for o in outs]), [spec("x", [1, 32, 256])]


@model
def dq_mlp():
    g = G()
    h = g.op("Relu", [dq_linear(g, "x", 256, 1024)])
    y = dq_linear(g, h, 1024, 256)
    return finish(g, "dq_mlp", [vi("x", F, ["N", 32, 256])], [vi(y, F, None)]), \
        [spec("x", [1, 32, 256])]


@model
def dq_conv():
    g = G()
    xq, xs, xz = g.op("DynamicQuantizeLinear", ["x"], n_out=3)
    w = g.init("w", rng.integers(0, 256, size=(32, 16, 3, 3)).astype(np.uint8))
    c = g.op("ConvInteger", [xq, w, xz, g.init("wz", np.uint8(128))], pads=[1, 1, 1, 1])
    scale = g.op("Mul", [xs, g.init("ws", np.float32(0.004))])
    y = g.op("Mul", [g.op("Cast", [c], to=F), scale])
    y = g.op("Add", [y, g.init("bias", rng.standard_normal((32, 1, 1)).astype(np.float32))])
    y = g.op("Relu", [y])
    return finish(g, "dq_conv", [vi("x", F, ["N", 16, 32, 32])], [vi(y, F, None)]), \
        [spec("x", [1, 16, 32, 32])]


# ---- QDQ ----

def qconv(g, x, cin, cout, k=3, relu=True, stride=1):
    w = g.dq_weight((cout, cin, k, k))
    y = g.op("Conv", [x, w, g.dq_bias(cout)], pads=[k // 2] * 4, strides=[stride, stride])
    if relu:  # the quantizer gives a Relu's output zero point 0
        return g.qdq(g.op("Relu", [y]), 0.05, 0)
    return g.qdq(y)


@model
def qdq_conv_relu():
    g = G()
    y = qconv(g, g.qdq("x"), 16, 32)
    return finish(g, "qdq_conv_relu", [vi("x", F, ["N", 16, 32, 32])], [vi(y, F, None)]), \
        [spec("x", [1, 16, 32, 32])]


@model
def qdq_relu_kept():
    g = G()
    x = g.qdq("x")
    y = g.op("Conv", [x, g.dq_weight((32, 16, 3, 3)), g.dq_bias(32)], pads=[1, 1, 1, 1])
    y = g.qdq(g.op("Relu", [y]))
    return finish(g, "qdq_relu_kept", [vi("x", F, ["N", 16, 32, 32])], [vi(y, F, None)]), \
        [spec("x", [1, 16, 32, 32])]


@model
def qdq_resnet():
    g = G()
    x = qconv(g, g.qdq("x"), 3, 32, stride=2)
    h = qconv(g, x, 32, 32)
    h = qconv(g, h, 32, 32, relu=False)
    y = g.qdq(g.op("Relu", [g.qdq(g.op("Add", [h, x]))]), 0.05, 0)
    y = g.qdq(g.op("MaxPool", [y], kernel_shape=[2, 2], strides=[2, 2]))
    y = g.qdq(g.op("GlobalAveragePool", [y]))
    y = g.qdq(g.op("Flatten", [y]))
    y = g.op("Gemm", [y, g.dq_weight((10, 32)), g.dq_bias(10)], transB=1)
    y = g.qdq(y)
    return finish(g, "qdq_resnet", [vi("x", F, ["N", 3, 64, 64])], [vi(y, F, None)]), \
        [spec("x", [1, 3, 64, 64])]


@model
def qdq_matmul():
    g = G()
    y = g.qdq(g.op("MatMul", [g.qdq("x"), g.dq_weight((256, 512), axis=1)]))
    return finish(g, "qdq_matmul", [vi("x", F, ["N", 32, 256])], [vi(y, F, None)]), \
        [spec("x", [1, 32, 256])]


@model
def qdq_matmul_float():
    g = G()
    y = g.op("MatMul", [g.qdq("x"), g.dq_weight((256, 512), axis=1)])
    return finish(g, "qdq_matmul_float", [vi("x", F, ["N", 32, 256])], [vi(y, F, None)]), \
        [spec("x", [1, 32, 256])]


@model
def qdq_gemm():
    g = G()
    y = g.qdq(g.op("Gemm", [g.qdq("x"), g.dq_weight((512, 256)), g.dq_bias(512)], transB=1))
    return finish(g, "qdq_gemm", [vi("x", F, ["N", 256])], [vi(y, F, None)]), \
        [spec("x", [1, 256])]


@model
def qdq_binary():
    g = G()
    a, b = g.qdq("a"), g.qdq("b", 0.04, 120)
    y1 = g.qdq(g.op("Add", [a, b]))
    y2 = g.qdq(g.op("Mul", [a, b]), 0.01, 100)
    dims = ["N", 64, 32, 32]
    return finish(g, "qdq_binary", [vi("a", F, dims), vi("b", F, dims)],
                  [vi(y1, F, None), vi(y2, F, None)]), \
        [spec("a", [1, 64, 32, 32]), spec("b", [1, 64, 32, 32])]


@model
def qdq_pool():
    g = G()
    x = g.qdq("x")
    y1 = g.qdq(g.op("AveragePool", [x], kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1]))
    y2 = g.qdq(g.op("GlobalAveragePool", [x]))
    return finish(g, "qdq_pool", [vi("x", F, ["N", 64, 32, 32])],
                  [vi(y1, F, None), vi(y2, F, None)]), [spec("x", [1, 64, 32, 32])]


@model
def qdq_unary():
    g = G()
    x = g.qdq("x")
    y1 = g.qdq(g.op("Sigmoid", [x]), 1 / 256, 0)
    y2 = g.qdq(g.op("LeakyRelu", [x], alpha=0.1))
    return finish(g, "qdq_unary", [vi("x", F, ["N", 64, 32, 32])],
                  [vi(y1, F, None), vi(y2, F, None)]), [spec("x", [1, 64, 32, 32])]


@model
def qdq_concat():
    g = G()
    y = g.qdq(g.op("Concat", [g.qdq("a"), g.qdq("b", 0.04, 120)], axis=1))
    return finish(g, "qdq_concat", [vi("a", F, ["N", 32, 16, 16]), vi("b", F, ["N", 48, 16, 16])],
                  [vi(y, F, None)]), [spec("a", [1, 32, 16, 16]), spec("b", [1, 48, 16, 16])]


@model
def qdq_move():
    g = G()
    x = g.qdq("x")
    y = g.qdq(g.op("MaxPool", [x], kernel_shape=[2, 2], strides=[2, 2]))
    y = g.qdq(g.op("Transpose", [y], perm=[0, 2, 3, 1]))
    y = g.qdq(g.op("Reshape", [y, g.init("shape", np.array([0, -1, 64], np.int64))]))
    return finish(g, "qdq_move", [vi("x", F, ["N", 64, 32, 32])], [vi(y, F, None)]), \
        [spec("x", [1, 64, 32, 32])]


@model
def qdq_clip():
    g = G()
    x = g.qdq("x")
    y = g.op("Conv", [x, g.dq_weight((32, 16, 3, 3)), g.dq_bias(32)], pads=[1, 1, 1, 1])
    y = g.op("Clip", [y, g.init("lo", np.float32(0)), g.init("hi", np.float32(6))])
    y = g.qdq(y, 6 / 255, 0)
    return finish(g, "qdq_clip", [vi("x", F, ["N", 16, 32, 32])], [vi(y, F, None)]), \
        [spec("x", [1, 16, 32, 32])]


# ---- QOperator ----

def qparams(g, scale=0.05, zp=128):
    return g.init("s", np.float32(scale)), g.init("zp", np.uint8(zp))


@model
def qop_cnn():
    g = G()
    xq, xs, xz = g.q("x")
    w = g.init("w", rng.integers(-127, 128, size=(32, 16, 3, 3)).astype(np.int8))
    ws = g.init("ws", (rng.random(32) * 0.01 + 0.001).astype(np.float32))
    wz = g.init("wz", np.zeros(32, np.int8))
    ys, yz = qparams(g, 0.1, 128)
    b = g.init("b", rng.integers(-1000, 1000, size=32).astype(np.int32))
    c = g.op("QLinearConv", [xq, xs, xz, w, ws, wz, ys, yz, b], pads=[1, 1, 1, 1])
    s2, z2 = qparams(g, 0.12, 128)
    a = g.op("QLinearAdd", [c, ys, yz, c, ys, yz, s2, z2], domain="com.microsoft")
    s3, z3 = qparams(g, 0.12, 128)
    p = g.op("QLinearAveragePool", [a, s2, z2, s3, z3], domain="com.microsoft",
             kernel_shape=[2, 2], strides=[2, 2])
    s4, z4 = qparams(g, 0.1, 128)
    gp = g.op("QLinearGlobalAveragePool", [p, s3, z3, s4, z4], domain="com.microsoft",
              channels_last=0)
    y = g.op("DequantizeLinear", [gp, s4, z4])
    return finish(g, "qop_cnn", [vi("x", F, ["N", 16, 32, 32])], [vi(y, F, None)], ms=True), \
        [spec("x", [1, 16, 32, 32])]


@model
def qop_matmul():
    g = G()
    xq, xs, xz = g.q("x")
    w = g.init("w", rng.integers(0, 256, size=(256, 256)).astype(np.uint8))
    ws, wz = qparams(g, 0.004, 128)
    ys, yz = qparams(g, 0.2, 128)
    m = g.op("QLinearMatMul", [xq, xs, xz, w, ws, wz, ys, yz])
    s2, z2 = qparams(g, 0.3, 128)
    mu = g.op("QLinearMul", [m, ys, yz, xq, xs, xz, s2, z2], domain="com.microsoft")
    s3, z3 = qparams(g, 1 / 256, 0)
    sg = g.op("QLinearSigmoid", [mu, s2, z2, s3, z3], domain="com.microsoft")
    s4, z4 = qparams(g, 0.3, 128)
    lr = g.op("QLinearLeakyRelu", [mu, s2, z2, s4, z4], domain="com.microsoft", alpha=0.1)
    s5, z5 = qparams(g, 0.3, 128)
    cc = g.op("QLinearConcat", [s5, z5, sg, s3, z3, lr, s4, z4], domain="com.microsoft",
              axis=2)
    y = g.op("DequantizeLinear", [cc, s5, z5])
    return finish(g, "qop_matmul", [vi("x", F, ["N", 32, 256])], [vi(y, F, None)], ms=True), \
        [spec("x", [1, 32, 256])]


@model
def qop_gemm():
    g = G()
    xq, xs, xz = g.q("x")
    w = g.init("w", rng.integers(-127, 128, size=(512, 256)).astype(np.int8))
    ws = g.init("ws", np.float32(0.004))
    wz = g.init("wz", np.int8(0))
    b = g.init("b", rng.integers(-1000, 1000, size=512).astype(np.int32))
    ys, yz = qparams(g, 0.2, 128)
    y = g.op("QGemm", [xq, xs, xz, w, ws, wz, b, ys, yz], domain="com.microsoft", transB=1)
    y = g.op("DequantizeLinear", [y, ys, yz])
    return finish(g, "qop_gemm", [vi("x", F, ["N", 256])], [vi(y, F, None)], ms=True), \
        [spec("x", [1, 256])]


# ---- fp16 ----

def h(a):
    return np.asarray(a).astype(np.float16)


@model
def fp16_cnn():
    g = G()
    x = g.op("Relu", [g.op("Conv", ["x", g.init("w", h(rng.standard_normal((32, 16, 3, 3)) * 0.1)),
                                    g.init("b", h(rng.standard_normal(32)))], pads=[1, 1, 1, 1])])
    y = g.op("Conv", [x, g.init("w", h(rng.standard_normal((32, 32, 3, 3)) * 0.1))],
             pads=[1, 1, 1, 1])
    y = g.op("Add", [y, x])
    y = g.op("MaxPool", [y], kernel_shape=[2, 2], strides=[2, 2])
    y = g.op("Flatten", [g.op("GlobalAveragePool", [y])])
    y = g.op("Gemm", [y, g.init("fc", h(rng.standard_normal((10, 32)) * 0.1)),
                      g.init("fb", h(rng.standard_normal(10)))], transB=1)
    return finish(g, "fp16_cnn", [vi("x", F16, ["N", 16, 32, 32])], [vi(y, F16, None)]), \
        [spec("x", [1, 16, 32, 32], "float16")]


@model
def fp16_mlp():
    g = G()
    y = g.op("MatMul", ["x", g.init("w", h(rng.standard_normal((256, 256)) * 0.05))])
    y = g.op("Add", [y, g.init("b", h(rng.standard_normal(256)))])
    y = g.op("Softmax", [y], axis=-1)
    y = g.op("LayerNormalization", [y, g.init("g", h(np.ones(256))), g.init("be", h(np.zeros(256)))],
             axis=-1)
    return finish(g, "fp16_mlp", [vi("x", F16, ["N", 32, 256])], [vi(y, F16, None)], opset=17), \
        [spec("x", [1, 32, 256], "float16")]


@model
def fp16_io():
    g = G()
    x = g.op("Cast", ["x"], to=F16)
    y = g.op("Relu", [g.op("Conv", [x, g.init("w", h(rng.standard_normal((32, 16, 3, 3)) * 0.1)),
                                    g.init("b", h(rng.standard_normal(32)))], pads=[1, 1, 1, 1])])
    y = g.op("Cast", [y], to=F)
    return finish(g, "fp16_io", [vi("x", F, ["N", 16, 32, 32])], [vi(y, F, None)]), \
        [spec("x", [1, 16, 32, 32])]


# ---- int4 ----

@model
def nbits_matmul():
    g = G()
    k, n, bs = 256, 512, 32
    b = g.init("b", rng.integers(0, 256, size=(n, k // bs, bs // 2)).astype(np.uint8))
    s = g.init("scales", (rng.random(n * k // bs) * 0.01).astype(np.float32))
    y = g.op("MatMulNBits", ["x", b, s], domain="com.microsoft", K=k, N=n, bits=4,
             block_size=bs)
    return finish(g, "nbits_matmul", [vi("x", F, ["N", 32, 256])], [vi(y, F, None)], ms=True), \
        [spec("x", [1, 32, 256])]


# ---- whole networks of tests/data/ort-plan, quantized as ORT's quantizer
# would: random weights of the exported shapes (the corpus keeps none) ----

def corpus_model(entry):
    import gzip
    import onnx
    here = os.path.dirname(os.path.abspath(__file__))
    with gzip.open(os.path.join(here, "ort-plan", entry + ".onnx.gz")) as f:
        m = onnx.load_model_from_string(f.read())
    for t in m.graph.initializer:
        if t.data_location == TensorProto.EXTERNAL:
            shape = tuple(t.dims)
            arr = (rng.standard_normal(shape) * 0.05).astype(
                np.float16 if t.data_type == TensorProto.FLOAT16 else np.float32)
            t.CopyFrom(numpy_helper.from_array(arr, t.name))
    # the exporter's Identity of a shared initializer: read it directly
    inits = {t.name for t in m.graph.initializer}
    alias = {n.output[0]: n.input[0] for n in m.graph.node
             if n.op_type == "Identity" and n.input[0] in inits}
    keep = [n for n in m.graph.node if n.output[0] not in alias]
    for n in keep:
        for k, i in enumerate(n.input):
            if i in alias:
                n.input[k] = alias[i]
    del m.graph.node[:]
    m.graph.node.extend(keep)
    return m


@model
def resnet18_qdq():
    """resnet18-op13-dyn in QDQ format (quantize_static's defaults: uint8
    activations, int8 weights per tensor, int32 biases of scale x_scale *
    w_scale; a Relu after a Conv is folded into the Conv's Q, zero point
    0; one Q/DQ pair per activation tensor, shared by its readers)"""
    m = corpus_model("resnet18-op13-dyn")
    g = m.graph
    inits = {t.name: t for t in g.initializer}
    prod = {o: n for n in g.node for o in n.output}
    readers = {}
    for n in g.node:
        for i in n.input:
            readers.setdefault(i, []).append(n)
    quant_ops = {"Conv", "Gemm", "Add", "MaxPool", "GlobalAveragePool", "Flatten",
                 "Reshape"}
    # Relu after a Conv with one reader: removed, the Conv writes its output
    drop = set()
    for n in g.node:
        if n.op_type == "Relu" and n.input[0] in prod and \
                prod[n.input[0]].op_type in ("Conv", "Add") and len(readers[n.input[0]]) == 1:
            drop.add(n.name)
            prod[n.input[0]].output[0] = n.output[0]
    nodes = [n for n in g.node if n.name not in drop]
    new_inits, new_nodes, qdq = [], [], {}
    relu_out = {n.output[0] for n in g.node if n.name in drop}
    scale = {}

    def act(t):
        if t not in qdq:
            zp = 0 if t in relu_out else 128
            scale[t] = 0.05
            s = numpy_helper.from_array(np.float32(0.05), t + "_scale")
            z = numpy_helper.from_array(np.uint8(zp), t + "_zp")
            new_inits.extend([s, z])
            new_nodes.append(helper.make_node("QuantizeLinear", [t, s.name, z.name],
                                              [t + "_q"], name=t + "_QuantizeLinear"))
            new_nodes.append(helper.make_node("DequantizeLinear", [t + "_q", s.name, z.name],
                                              [t + "_dq"], name=t + "_DequantizeLinear"))
            qdq[t] = t + "_dq"
        return qdq[t]

    out, done = [], set()
    for n in nodes:
        if n.op_type in quant_ops:
            ins = list(n.input)
            for k, t in enumerate(ins):
                if not t:
                    continue
                if t in inits and t + "_dq" in done:
                    ins[k] = t + "_dq"  # a shared initializer: one DQ
                elif t in inits and n.op_type in ("Conv", "Gemm") and k == 1:
                    w = numpy_helper.to_array(inits[t])
                    q = rng.integers(-127, 128, size=w.shape).astype(np.int8)
                    new_inits.extend([numpy_helper.from_array(q, t + "_quantized"),
                                      numpy_helper.from_array(np.float32(0.004), t + "_scale"),
                                      numpy_helper.from_array(np.int8(0), t + "_zp")])
                    new_nodes.append(helper.make_node(
                        "DequantizeLinear", [t + "_quantized", t + "_scale", t + "_zp"],
                        [t + "_dq"], name=t + "_DequantizeLinear"))
                    ins[k] = t + "_dq"
                    done.add(ins[k])
                elif t in inits and n.op_type in ("Conv", "Gemm") and k == 2:
                    b = numpy_helper.to_array(inits[t])
                    bq = rng.integers(-1000, 1000, size=b.shape).astype(np.int32)
                    new_inits.extend([numpy_helper.from_array(bq, t + "_quantized"),
                                      numpy_helper.from_array(np.float32(0.05 * 0.004),
                                                              t + "_scale"),
                                      numpy_helper.from_array(np.int32(0), t + "_zp")])
                    new_nodes.append(helper.make_node(
                        "DequantizeLinear", [t + "_quantized", t + "_scale", t + "_zp"],
                        [t + "_dq"], name=t + "_DequantizeLinear"))
                    ins[k] = t + "_dq"
                    done.add(ins[k])
                elif t not in inits and (n.op_type not in ("Reshape",) or k == 0):
                    ins[k] = act(t)
            del n.input[:]
            n.input.extend(ins)
        out.append(n)
    # the network's output quantized too
    for o in g.output:
        if o.name in prod:
            act(o.name)
    order = out + new_nodes
    # topological order: a node after the producers of its inputs
    have = {i.name for i in g.input} | {t.name for t in g.initializer} | \
        {t.name for t in new_inits}
    sorted_nodes, pending = [], order
    while pending:
        rest = []
        for n in pending:
            if all(not i or i in have for i in n.input):
                sorted_nodes.append(n)
                have.update(n.output)
            else:
                rest.append(n)
        if len(rest) == len(pending):
            raise RuntimeError("resnet18_qdq: cycle")
        pending = rest
    del g.node[:]
    g.node.extend(sorted_nodes)
    used = {i for n in sorted_nodes for i in n.input}
    keep = [t for t in list(g.initializer) + new_inits if t.name in used]
    del g.initializer[:]
    g.initializer.extend(keep)
    for o in g.output:  # read the dequantized output
        pass
    return m, [spec("input", [1, 3, 224, 224])]


@model
def bert_small_dq():
    """bert_small-op13-dyn as quantize_dynamic writes it: every MatMul of a
    constant 2-D weight reads its input through one DynamicQuantizeLinear
    per tensor (shared by Q, K, V), int8 weights per tensor (a scale each),
    MatMulInteger -> Cast -> Mul(Mul(x_scale, w_scale))"""
    m = corpus_model("bert_small-op13-dyn")
    g = m.graph
    inits = {t.name: t for t in g.initializer}
    dql, new_inits, out = {}, [], []
    for n in g.node:
        w = inits.get(n.input[1]) if n.op_type == "MatMul" and len(n.input) == 2 else None
        if w is None or len(w.dims) != 2:
            out.append(n)
            continue
        x = n.input[0]
        if x not in dql:
            dql[x] = [x + "_quantized", x + "_scale", x + "_zero_point"]
            out.append(helper.make_node("DynamicQuantizeLinear", [x], dql[x],
                                        name=x + "_QuantizeLinear"))
        xq, xs, xz = dql[x]
        wn = w.name
        new_inits.extend([
            numpy_helper.from_array(rng.integers(-127, 128, size=tuple(w.dims)).astype(np.int8),
                                    wn + "_quantized"),
            numpy_helper.from_array(np.float32(0.002 + 0.0001 * len(new_inits)), wn + "_scale"),
            numpy_helper.from_array(np.int8(0), wn + "_zero_point")])
        y = n.output[0]
        out.append(helper.make_node("MatMulInteger", [xq, wn + "_quantized", xz,
                                                      wn + "_zero_point"],
                                    [y + "_output_quantized"], name=n.name + "_quant"))
        out.append(helper.make_node("Mul", [xs, wn + "_scale"], [y + "_scales_mul"],
                                    name=n.name + "_scales_mul"))
        out.append(helper.make_node("Cast", [y + "_output_quantized"],
                                    [y + "_output_quantized_cast"], to=F,
                                    name=n.name + "_output_quantized_cast"))
        out.append(helper.make_node("Mul", [y + "_output_quantized_cast", y + "_scales_mul"],
                                    [y], name=n.name + "_output_quantized_mul"))
    del g.node[:]
    g.node.extend(out)
    used = {i for n in out for i in n.input}
    keep = [t for t in list(g.initializer) + new_inits if t.name in used]
    del g.initializer[:]
    g.initializer.extend(keep)
    return m, [{"name": "input_ids", "dtype": "int64", "shape": [1, 32], "bound": 100}]


def build(name):
    """MODELS[name]() with the generator seeded by the name, so that each
    model is the same whichever others are built (ModelProto, input specs)."""
    global rng
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    return MODELS[name]()


def main():
    if len(sys.argv) < 2:
        print(__doc__.split("\n\n")[0], file=sys.stderr)
        return 2
    out = sys.argv[1]
    names = sys.argv[2:] or list(MODELS)
    os.makedirs(out, exist_ok=True)
    for nm in names:
        m, sp = build(nm)
        with open(os.path.join(out, nm + ".onnx"), "wb") as f:
            f.write(m.SerializeToString())
        with open(os.path.join(out, nm + ".inputs.json"), "w") as f:
            json.dump(sp, f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
