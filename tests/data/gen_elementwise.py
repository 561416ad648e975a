#!/usr/bin/python3
"""Write the elementwise cost tests: tests/data/elementwise/*.onnx and
tests/data/costs-elementwise.tsv.

Each TSV line is  path<TAB>node<TAB>macs<TAB>flops<TAB>output-0 shape (JSON).
The expected numbers are worked out here from the conventions at the top of
analyzer/ops/elementwise.c (MACs are always 0; FLOPs = per-element count *
output elements, symbols counted as 1), never by running onnxcost.

Run from anywhere:  /usr/bin/python3 tests/data/gen_elementwise.py
"""
import json
import os

from onnx import TensorProto, helper

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "elementwise")
F, I64, I32, U8, BOOL = (TensorProto.FLOAT, TensorProto.INT64,
                         TensorProto.INT32, TensorProto.UINT8,
                         TensorProto.BOOL)

rows = []


def numel(shape):
    """Elements with symbols counted as 1, as the analyzer costs them."""
    n = 1
    for d in shape:
        n *= d if isinstance(d, int) else 1
    return n


def vi(name, dtype, shape):
    return helper.make_tensor_value_info(name, dtype, shape)


class Model:
    """One test model: nodes plus the expected row of each checked node."""

    def __init__(self, name, opset=17):
        self.name, self.opset = name, opset
        self.nodes, self.inputs, self.outputs, self.inits = [], [], [], []
        self.expect = []

    def inp(self, name, dtype, shape):
        self.inputs.append(vi(name, dtype, shape))
        return name

    def const(self, name, dtype, dims, vals):
        self.inits.append(helper.make_tensor(name, dtype, dims, vals))
        return name

    def node(self, op, ins, outs, per_elem=None, shape=None, out_dtype=F,
             **attrs):
        """Add a node; when per_elem is given, expect flops = per_elem *
        numel(shape) and output-0 shape `shape`."""
        name = "%s_%d" % (op.lower(), len(self.nodes))
        self.nodes.append(helper.make_node(op, ins, outs, name=name, **attrs))
        dts = out_dtype
        if not isinstance(dts, list):
            dts = [out_dtype] * len(outs)
        for o, dt in zip(outs, dts):
            if o:
                self.outputs.append(vi(o, dt, None))
        if per_elem is not None:
            self.expect.append((name, 0, per_elem * numel(shape), shape))
        return name

    def save(self):
        graph = helper.make_graph(self.nodes, self.name, self.inputs,
                                  self.outputs, self.inits)
        model = helper.make_model(
            graph, opset_imports=[helper.make_opsetid("", self.opset)],
            producer_name="gen_elementwise")
        model.ir_version = 8
        path = os.path.join(OUT, self.name + ".onnx")
        with open(path, "wb") as f:
            f.write(model.SerializeToString())
        for name, macs, flops, shape in self.expect:
            rows.append("elementwise/%s.onnx\t%s\t%d\t%d\t%s" %
                        (self.name, name, macs, flops, json.dumps(shape)))


UNARY_1 = ("Abs Acos Acosh Asin Asinh Atan Atanh Ceil Cos Cosh Erf Exp Floor "
           "Log Neg Reciprocal Round Sign Sin Sinh Sqrt Tan Tanh Relu "
           "ThresholdedRelu").split()
# compound activations: FLOPs per element from their ONNX formulas
ACTIVATIONS = {"LeakyRelu": 2, "Elu": 4, "Celu": 7, "Selu": 5, "Sigmoid": 4,
               "HardSigmoid": 4, "HardSwish": 5, "Softplus": 3, "Softsign": 3,
               "Shrink": 3}


def unary():
    m = Model("unary")
    shape = [2, 3, 4]
    x = m.inp("x", F, shape)
    for op in UNARY_1:
        m.node(op, [x], [op.lower()], 1, shape)
    for op, k in ACTIVATIONS.items():
        m.node(op, [x], [op.lower()], k, shape)
    m.node("IsNaN", [x], ["isnan"], 1, shape, out_dtype=BOOL)
    m.node("IsInf", [x], ["isinf"], 1, shape, out_dtype=BOOL)
    b = m.inp("b", BOOL, [5])
    m.node("Not", [b], ["not"], 1, [5], out_dtype=BOOL)
    m.save()

    # opset 18: Mish, BitwiseNot; opset 20: Gelu
    m = Model("unary18", 18)
    x = m.inp("x", F, [7, 3])
    m.node("Mish", [x], ["mish"], 5, [7, 3])
    n = m.inp("n", I32, [4, 5])
    m.node("BitwiseNot", [n], ["bnot"], 1, [4, 5], out_dtype=I32)
    m.save()
    m = Model("gelu20", 20)
    x = m.inp("x", F, ["N", 6, 5])
    m.node("Gelu", [x], ["exact"], 5, ["N", 6, 5])
    m.node("Gelu", [x], ["approx"], 9, ["N", 6, 5], approximate="tanh")
    m.save()


def binary():
    m = Model("binary")
    a = m.inp("a", F, [2, 3, 4])
    b = m.inp("b", F, [4])
    m.node("Add", [a, b], ["add"], 1, [2, 3, 4])
    c = m.inp("c", F, [3, 1])
    d = m.inp("d", F, [1, 5])
    m.node("Sub", [c, d], ["sub"], 1, [3, 5])
    s = m.inp("s", F, [])
    m.node("Mul", [s, a], ["mul"], 1, [2, 3, 4])
    m.node("Div", [a, s], ["div"], 1, [2, 3, 4])
    e = m.inp("e", I64, [1, 3, 1])
    m.node("Pow", [a, e], ["pow"], 1, [2, 3, 4])
    i = m.inp("i", I32, [6, 1])
    j = m.inp("j", I32, [1, 7])
    m.node("Mod", [i, j], ["mod"], 1, [6, 7], out_dtype=I32)
    m.node("Mod", [a, b], ["fmod"], 1, [2, 3, 4], fmod=1)
    u = m.inp("u", U8, [8])
    v = m.inp("v", U8, [2, 1])
    m.node("BitShift", [u, v], ["shl"], 1, [2, 8], out_dtype=U8,
           direction="LEFT")
    p = m.inp("p", BOOL, [2, 1, 3])
    q = m.inp("q", BOOL, [4, 1])
    for op in ("And", "Or", "Xor"):
        m.node(op, [p, q], [op.lower()], 1, [2, 4, 3], out_dtype=BOOL)
    for op in ("Equal", "Less", "LessOrEqual", "Greater", "GreaterOrEqual"):
        m.node(op, [c, d], [op.lower()], 1, [3, 5], out_dtype=BOOL)
    m.save()

    m = Model("bitwise18", 18)
    i = m.inp("i", I64, [3, 4])
    j = m.inp("j", I64, [4])
    for op in ("BitwiseAnd", "BitwiseOr", "BitwiseXor"):
        m.node(op, [i, j], [op.lower()], 1, [3, 4], out_dtype=I64)
    m.save()


def symbolic():
    """Symbolic dims propagate through broadcasting; symbols cost 1."""
    m = Model("symbolic")
    x = m.inp("x", F, ["N", 1, "L"])
    h = m.inp("h", F, [1, "H", 1])
    m.node("Add", [x, h], ["nhl"], 1, ["N", "H", "L"])
    k = m.inp("k", F, [1, 3, 1])
    m.node("Mul", [x, k], ["n3l"], 1, ["N", 3, "L"])
    y = m.inp("y", F, ["N", 8, "L"])
    m.node("Relu", [y], ["relu"], 1, ["N", 8, "L"])
    m.node("Sigmoid", [y], ["sig"], 4, ["N", 8, "L"])
    # a 1 broadcast against a symbol gives the symbol
    z = m.inp("z", F, [1, 8, 1])
    m.node("Where", ["cond", y, z], ["where"], 1, ["N", 8, "L"])
    m.inputs.append(vi("cond", BOOL, ["N", 1, "L"]))
    m.node("Sum", [x, z, y], ["sum3"], 2, ["N", 8, "L"])
    m.save()


def variadic():
    m = Model("variadic")
    a = m.inp("a", F, [2, 1, 4])
    b = m.inp("b", F, [3, 1])
    c = m.inp("c", F, [4])
    m.node("Sum", [a, b, c], ["sum"], 2, [2, 3, 4])
    m.node("Mean", [a, b, c], ["mean"], 3, [2, 3, 4])
    m.node("Max", [a, b], ["max"], 1, [2, 3, 4])
    m.node("Min", [c], ["min"], 0, [4])
    m.save()
    m = Model("variadic8", 8)
    a = m.inp("a", F, [5, 1])
    b = m.inp("b", F, [1, 6])
    m.node("Max", [a, b, a, b], ["max"], 3, [5, 6])
    m.save()


def select_and_move():
    m = Model("where")
    c = m.inp("c", BOOL, [2, 1])
    x = m.inp("x", F, [1, 3])
    y = m.inp("y", F, [])
    m.node("Where", [c, x, y], ["w"], 1, [2, 3])
    m.save()

    m = Model("clip6", 6)
    x = m.inp("x", F, [3, 4])
    m.node("Clip", [x], ["c"], 2, [3, 4], min=-1.0, max=1.0)
    m.save()
    m = Model("clip13", 13)
    x = m.inp("x", F, [3, 4, 5])
    lo = m.const("lo", F, [], [0.0])
    hi = m.const("hi", F, [], [6.0])
    m.node("Clip", [x, lo, hi], ["c"], 2, [3, 4, 5])
    m.node("Clip", [x, "", hi], ["c2"], 2, [3, 4, 5])
    m.save()

    m = Model("cast", 15)
    x = m.inp("x", F, [2, "B", 3])
    m.node("Cast", [x], ["i"], 0, [2, "B", 3], out_dtype=I64, to=I64)
    like = m.inp("like", TensorProto.DOUBLE, [1])
    m.node("CastLike", [x, like], ["d"], 0, [2, "B", 3],
           out_dtype=TensorProto.DOUBLE)
    m.node("Identity", [x], ["id"], 0, [2, "B", 3])
    m.save()

    m = Model("dropout7", 7)
    x = m.inp("x", F, [4, 5])
    m.node("Dropout", [x], ["y", "mask"], 0, [4, 5], ratio=0.2)
    m.save()
    m = Model("dropout13", 13)
    x = m.inp("x", F, [4, 5, 6])
    r = m.const("r", F, [], [0.1])
    t = m.const("t", BOOL, [], [True])
    f = m.const("f", BOOL, [], [False])
    m.node("Dropout", [x, r, t], ["yt", "mt"], 2, [4, 5, 6],
           out_dtype=[F, BOOL])
    m.node("Dropout", [x, r, f], ["yf"], 0, [4, 5, 6])
    m.node("Dropout", [x], ["y"], 0, [4, 5, 6])
    m.save()

    m = Model("random", 15)
    x = m.inp("x", F, [3, 7])
    m.node("Bernoulli", [x], ["b"], 1, [3, 7])
    m.node("Bernoulli", [x], ["bi"], 1, [3, 7], out_dtype=I32, dtype=I32)
    m.node("RandomUniformLike", [x], ["u"], 1, [3, 7])
    m.node("RandomNormalLike", [x], ["n"], 1, [3, 7],
           dtype=TensorProto.DOUBLE, out_dtype=TensorProto.DOUBLE)
    m.save()

    m = Model("trilu_cumsum", 14)
    x = m.inp("x", F, [2, 4, 5])
    k = m.const("k", I64, [], [1])
    m.node("Trilu", [x, k], ["t"], 0, [2, 4, 5], upper=0)
    ax = m.const("ax", I64, [], [-1])
    m.node("CumSum", [x, ax], ["cs"], 1, [2, 4, 5], exclusive=1)
    m.save()

    m = Model("prelu")
    x = m.inp("x", F, [2, 3, 4, 5])
    s = m.inp("slope", F, [3, 1, 1])
    m.node("PRelu", [x, s], ["y"], 2, [2, 3, 4, 5])
    s1 = m.inp("slope1", F, [5])
    m.node("PRelu", [x, s1], ["y1"], 2, [2, 3, 4, 5])
    m.save()


def value_propagation():
    """Shape arithmetic as exporters write it: the contents computed by the
    elementwise ops feed a Reshape (tensor family), whose output shape shows
    whether they were propagated."""
    m = Model("values")
    x = m.inp("x", F, ["N", 4, 6])
    shp = "shape"
    m.node("Shape", [x], [shp], out_dtype=I64)  # [N, 4, 6]
    half = m.const("half", I64, [3], [1, 2, 1])
    two = m.const("two", I64, [3], [1, 1, 2])
    m.node("Div", [shp, half], ["d"], out_dtype=I64)  # [N, 2, 6]
    m.node("Mul", ["d", two], ["t"], out_dtype=I64)  # [N, 2, 12]
    m.node("Reshape", [x, "t"], ["r"], 0, ["N", 2, 12])
    # -1 replaced through Equal/Where: [N, -1, 3] -> Where(Equal(.,-1), 8, .)
    tgt = m.const("tgt", I64, [3], [0, -1, 3])
    m.node("Add", [tgt, "zero"], ["tgt2"], out_dtype=I64)
    m.inits.append(helper.make_tensor("zero", I64, [], [0]))
    m.node("Equal", ["tgt2", "minus1"], ["is_m1"], out_dtype=BOOL)
    m.inits.append(helper.make_tensor("minus1", I64, [], [-1]))
    m.node("Where", ["is_m1", "eight", "tgt2"], ["tgt3"], out_dtype=I64)
    m.inits.append(helper.make_tensor("eight", I64, [], [8]))
    m.node("Reshape", [x, "tgt3"], ["r2"], 0, ["N", 8, 3])
    # float detour: Cast -> * 0.5 -> Floor -> Cast back (Resize-like)
    y = m.inp("y", F, [2, 4, 6])
    m.node("Shape", [y], ["yshape"], out_dtype=I64)
    m.node("Cast", ["yshape"], ["fs"], to=F)
    m.node("Cast", ["fs"], ["is"], out_dtype=I64, to=I64)
    m.node("Reshape", [y, "is"], ["r3"], 0, [2, 4, 6])
    m.node("Cast", ["half"], ["fh"], to=F)
    m.inits.append(helper.make_tensor("scale", F, [3], [2.0, 1.0, 0.5]))
    m.node("Mul", ["fh", "scale"], ["fm"])       # [2, 2, 0.5]
    m.node("Ceil", ["fm"], ["fc"])               # [2, 2, 1]
    m.node("Cast", ["fc"], ["ic"], out_dtype=I64, to=I64)
    m.node("Reshape", ["flat24", "ic"], ["r4"], 0, [2, 2, 1])
    m.inputs.append(vi("flat24", F, [4]))
    # transformer style: z [B, L, 64] -> [B*L, 4, 16] and [B, 2*L, 32] from
    # Shape -> Gather -> Mul/Div/Add -> Unsqueeze -> Concat
    z = m.inp("z", F, ["B", "L", 64])
    m.node("Shape", [z], ["zs"], out_dtype=I64)
    for k in range(3):
        m.inits.append(helper.make_tensor("i%d" % k, I64, [], [k]))
        m.node("Gather", ["zs", "i%d" % k], ["g%d" % k], out_dtype=I64,
               axis=0)
    m.node("Mul", ["g0", "g1"], ["bl"], 1, [], out_dtype=I64)   # B*L
    m.inits.append(helper.make_tensor("c4", I64, [], [4]))
    m.node("Div", ["g2", "c4"], ["hd"], 1, [], out_dtype=I64)   # 16
    m.node("Add", ["g1", "g1"], ["l2"], 1, [], out_dtype=I64)   # 2*L
    m.inits.append(helper.make_tensor("c2", I64, [], [2]))
    m.node("Div", ["g2", "c2"], ["h2"], out_dtype=I64)          # 32
    m.inits.append(helper.make_tensor("ax0", I64, [1], [0]))
    for v in ("bl", "hd", "g0", "l2", "h2"):
        m.node("Unsqueeze", [v, "ax0"], ["u_" + v], out_dtype=I64)
    m.inits.append(helper.make_tensor("c4v", I64, [1], [4]))
    m.node("Concat", ["u_bl", "c4v", "u_hd"], ["s1"], out_dtype=I64, axis=0)
    m.node("Reshape", [z, "s1"], ["z1"], 0, ["B*L", 4, 16])
    m.node("Concat", ["u_g0", "u_l2", "u_h2"], ["s2"], out_dtype=I64, axis=0)
    m.node("Reshape", [z, "s2"], ["z2"], 0, ["B", "2*L", 32])
    m.save()


class Probe:
    """Computed contents checked through a Reshape: the probe's target is
    the Reshape's output shape."""

    def __init__(self, m):
        self.m, self.k = m, 0

    def c(self, dtype, vals, dims=None):
        self.k += 1
        name = "k%d" % self.k
        self.m.const(name, dtype, [len(vals)] if dims is None else dims, vals)
        return name

    def op(self, op, ins, dtype=I64, **attrs):
        self.k += 1
        out = "v%d" % self.k
        self.m.node(op, ins, [out], out_dtype=dtype, **attrs)
        return out

    def check(self, target, expect):
        self.k += 1
        n = 1
        for d in expect:
            n *= d
        data = self.m.inp("data%d" % self.k, F, [n])
        self.m.node("Reshape", [data, target], ["r%d" % self.k], 0, expect)


def probes():
    m = Model("values2")
    p = Probe(m)
    # Div truncates toward zero: [-7, 7] / 2 = [-3, 3]
    v = p.op("Div", [p.c(I64, [-7, 7]), p.c(I64, [2, 2])])
    p.check(p.op("Add", [v, p.c(I64, [4, 0])]), [1, 3])
    # Mod fmod=0 takes the divisor's sign: [2, 1, -2]
    v = p.op("Mod", [p.c(I64, [-7, 7, 7]), p.c(I64, [3, 3, -3])])
    p.check(p.op("Add", [v, p.c(I64, [0, 0, 3])]), [2, 1, 1])
    # fmod=1 the dividend's: [-1, 1], negated [1, -1]
    v = p.op("Mod", [p.c(I64, [-7, 7]), p.c(I64, [3, -3])], fmod=1)
    p.check(p.op("Add", [p.op("Neg", [v]), p.c(I64, [0, 3])]), [1, 2])
    # Cast float -> int truncates: [-2, 2, 3]
    v = p.op("Cast", [p.c(F, [-2.7, 2.7, 3.99])], to=I64)
    p.check(p.op("Abs", [v]), [2, 2, 3])
    # Round halves to even: [0, 2, 2, 3]
    v = p.op("Round", [p.c(F, [0.5, 1.5, 2.5, 2.6])], F)
    v = p.op("Cast", [v], to=I64)
    p.check(p.op("Add", [v, p.c(I64, [1])]), [1, 3, 3, 4])
    # float16 holds 2051 as 2052 (ties to even)
    v = p.op("Cast", [p.c(F, [2051.0])], TensorProto.FLOAT16,
             to=TensorProto.FLOAT16)
    v = p.op("Cast", [v], to=I64)
    p.check(p.op("Sub", [v, p.c(I64, [2048])]), [4])
    # float32 arithmetic: 0.1f * 10 is exactly 1.0f, so Ceil gives 1
    v = p.op("Cast", [p.c(I64, [1])], F, to=F)
    v = p.op("Mul", [v, p.c(F, [0.1])], F)
    v = p.op("Ceil", [p.op("Mul", [v, p.c(F, [10.0])], F)], F)
    p.check(p.op("Add", [p.op("Cast", [v], to=I64), p.c(I64, [2])]), [3])
    # Sqrt(64) + Reciprocal(0.25) = 12
    v = p.op("Add", [p.op("Sqrt", [p.c(F, [64.0])], F),
                     p.op("Reciprocal", [p.c(F, [0.25])], F)], F)
    p.check(p.op("Cast", [v], to=I64), [12])
    # Max over three inputs, then Min: [3, 2]
    v = p.op("Max", [p.c(I64, [3, -5]), p.c(I64, [1, 2]), p.c(I64, [2])])
    p.check(p.op("Min", [v, p.c(I64, [5])]), [3, 2])
    # Mean of floats, Sum of ints: [3, 5]
    v = p.op("Mean", [p.c(F, [1.0, 2.0]), p.c(F, [3.0, 4.0])], F)
    v = p.op("Cast", [v], to=I64)
    p.check(p.op("Sum", [v, p.c(I64, [1]), p.c(I64, [0, 1])]), [3, 5])
    # Pow of ints, and of a float by an int
    p.check(p.op("Pow", [p.c(I64, [2, 3]), p.c(I64, [3, 2])]), [8, 9])
    v = p.op("Pow", [p.c(F, [2.0]), p.c(I64, [3])], F)
    p.check(p.op("Cast", [v], to=I64), [8])
    # Clip with both bounds as inputs
    v = p.op("Clip", [p.c(I64, [-5, 5, 20]), p.c(I64, [1], []),
                      p.c(I64, [10], [])])
    p.check(v, [1, 5, 10])
    # logic: a = [1,2,3], b = [2,2,2]
    a, b = p.c(I64, [1, 2, 3]), p.c(I64, [2, 2, 2])
    lt = p.op("Less", [a, b], BOOL)                      # 1 0 0
    eq = p.op("Equal", [a, b], BOOL)                     # 0 1 0
    both = p.op("And", [lt, p.op("Not", [eq], BOOL)], BOOL)  # 1 0 0
    either = p.op("Or", [lt, eq], BOOL)                  # 1 1 0
    x = p.op("Xor", [either, p.c(BOOL, [True])], BOOL)   # 0 0 1
    inner = p.op("Where", [x, p.c(I64, [3]), p.c(I64, [2])])
    p.check(p.op("Where", [both, p.c(I64, [7]), inner]), [7, 2, 3])
    gt = p.op("Cast", [p.op("Greater", [a, b], BOOL)], to=I64)         # 0 0 1
    ge = p.op("Cast", [p.op("GreaterOrEqual", [a, b], BOOL)], to=I64)  # 0 1 1
    le = p.op("Cast", [p.op("LessOrEqual", [a, b], BOOL)], to=I64)     # 1 1 0
    p.check(p.op("Add", [gt, p.op("Add", [ge, le])]), [1, 2, 2])
    # Relu and Sign on ints: [0, 4] - [-1, 1]
    r = p.op("Relu", [p.c(I64, [-3, 4])])
    s = p.op("Sign", [p.c(I64, [-3, 4])])
    p.check(p.op("Sub", [r, s]), [1, 3])
    # Identity, Dropout (inference) and CastLike pass contents on
    v = p.op("Identity", [p.op("Dropout", [p.c(I64, [2, 3])])])
    p.check(v, [2, 3])
    v = p.op("CastLike", [p.c(F, [2.9, 3.1]), p.c(I64, [0])])
    p.check(v, [2, 3])
    # symbolic: x [N, 4]; every step keeps [N, 4]
    xs = m.inp("xs", F, ["N", 4])
    s = p.op("Shape", [xs])
    s = p.op("Max", [s, p.c(I64, [0, 2])])             # N >= 0
    eq = p.op("Equal", [s, p.c(I64, [-1, 4])], BOOL)   # N == -1 is false
    s = p.op("Where", [eq, p.c(I64, [9, 4]), s])
    s = p.op("Relu", [p.op("Abs", [s])])
    s = p.op("Sub", [s, p.c(I64, [0, 2])])             # [N, 2]
    s = p.op("Mul", [s, p.c(I64, [2, 2])])             # [2N, 4]
    s = p.op("Div", [s, p.c(I64, [2, 1])])             # [N, 4]
    s = p.op("Clip", [s, p.c(I64, [0], [])])           # N >= 0
    s = p.op("Cast", [p.op("Cast", [s], I32, to=I32)], to=I64)
    m.node("Reshape", [xs, s], ["rs"], 0, ["N", 4])
    m.save()

    # Clip's bounds are attributes before opset 11
    m = Model("values10", 10)
    p = Probe(m)
    v = p.op("Clip", [p.c(F, [-5.0, 0.5, 9.0])], F, min=1.0, max=4.0)
    p.check(p.op("Cast", [v], to=I64), [1, 1, 4])
    m.save()


def main():
    os.makedirs(OUT, exist_ok=True)
    unary()
    binary()
    symbolic()
    variadic()
    select_and_move()
    value_propagation()
    probes()
    with open(os.path.join(HERE, "costs-elementwise.tsv"), "w") as f:
        f.write("\n".join(rows) + "\n")


if __name__ == "__main__":
    main()
