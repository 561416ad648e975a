#!/usr/bin/python3
"""Write the tensor-family cost tests: tests/data/tensor/*.onnx and
tests/data/costs-tensor.tsv.

Each TSV line is  path<TAB>node<TAB>macs<TAB>flops<TAB>output-0 shape (JSON).
Expected numbers come from the conventions at the top of analyzer/ops/
{shape,gather,slice,generate,reduce,resize,control,training}.c, worked out
here by hand (symbols count as 1), never by running onnxcost:
  data movement (Shape, Reshape, Gather, Slice, Concat, Pad...)  0
  reductions: n = input elements, m = output elements
    ReduceSum/Max/Min/Prod, ArgMax/ArgMin   n
    ReduceMean, ReduceLogSum                n + m
    ReduceL1, ReduceSumSquare               2n
    ReduceL2, ReduceLogSumExp               2n + m
  Resize per output element, k = axes whose size changes:
    nearest 0, linear 3 * (2^k - 1), cubic 7 * (4^k - 1) / 3
  ScatterElements/ScatterND with a reduction: 1 per update element
  TopK 1 per input element; RandomNormal/Uniform 1 per output element;
  Multinomial n + m; Hann/Hamming 3, Blackman 5, MelWeightMatrix 1 per
  output element; STFT batch * frames * (5 n log2 n + n), n = frame_length
  Loop/Scan: body cost times the trip count; If: the branch taken
  Adagrad 9, Adam 15, Momentum 7 (nesterov 9) per optimized element;
  Gradient 0 (the gradient graph is not in the model)
  StringNormalizer, StringSplit, ImageDecoder 0

Shape arithmetic is the point of most models here: exporter chains such as
Shape -> Gather -> Unsqueeze -> Concat -> Reshape must keep the symbolic
batch N and sequence L.

Run from anywhere:  /usr/bin/python3 tests/data/gen_tensor.py
"""
import json
import math
import os

from onnx import TensorProto, helper

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "tensor")
F, I64, I32, BOOL, DBL = (TensorProto.FLOAT, TensorProto.INT64,
                          TensorProto.INT32, TensorProto.BOOL,
                          TensorProto.DOUBLE)
INT64_MAX = 9223372036854775807
TRAINING = "ai.onnx.preview.training"

rows = []


def numel(shape):
    """Elements with symbols counted as 1, as the analyzer costs them."""
    n = 1
    for d in shape:
        n *= d if isinstance(d, int) else 1
    return n


def vi(name, dtype, shape):
    return helper.make_tensor_value_info(name, dtype, shape)


class Graph:
    """Nodes, inputs, outputs and initializers of a graph or a body."""

    def __init__(self, prefix=""):
        self.prefix = prefix
        self.nodes, self.inputs, self.outputs, self.inits = [], [], [], []
        self.expect = []

    def inp(self, name, dtype, shape):
        self.inputs.append(vi(name, dtype, shape))
        return name

    def out(self, name, dtype=F, shape=None):
        self.outputs.append(vi(name, dtype, shape))
        return name

    def init(self, name, dtype, dims, vals):
        self.inits.append(helper.make_tensor(name, dtype, dims, vals))
        return name

    def const(self, name, vals, dtype=I64, dims=None):
        """A Constant node, as exporters write shape constants."""
        if dims is None:
            dims = [len(vals)]
        t = helper.make_tensor(name + "_value", dtype, dims, vals)
        self.nodes.append(helper.make_node("Constant", [], [name],
                                           name=name + "_const", value=t))
        return name

    def node(self, op, ins, outs, expect=None, domain="", **attrs):
        """Add a node; expect = (flops, shape) or (macs, flops, shape) of
        output 0.  Returns the node name."""
        name = "%s%s_%d" % (self.prefix, op.lower(), len(self.nodes))
        self.nodes.append(helper.make_node(op, ins, outs, name=name,
                                           domain=domain or None, **attrs))
        if expect is not None:
            if len(expect) == 2:
                expect = (0,) + tuple(expect)
            self.expect.append((name,) + tuple(expect))
        return name

    def graph(self, name):
        return helper.make_graph(self.nodes, name, self.inputs, self.outputs,
                                 self.inits)


class Model(Graph):
    def __init__(self, name, opset=13, extra_opsets=()):
        super().__init__()
        self.name, self.opset, self.extra = name, opset, extra_opsets

    def save(self):
        # Outputs: every checked node's first output, untyped.
        have = {o.name for o in self.outputs}
        for n in self.nodes:
            for o in n.output:
                if o and o not in have and n.op_type != "Constant":
                    self.outputs.append(vi(o, TensorProto.UNDEFINED, None))
                    have.add(o)
        opsets = [helper.make_opsetid("", self.opset)]
        opsets += [helper.make_opsetid(d, v) for d, v in self.extra]
        model = helper.make_model(self.graph(self.name),
                                  opset_imports=opsets,
                                  producer_name="gen_tensor")
        model.ir_version = 8
        with open(os.path.join(OUT, self.name + ".onnx"), "wb") as f:
            f.write(model.SerializeToString())
        for name, macs, flops, shape in self.expect:
            rows.append("tensor/%s.onnx\t%s\t%d\t%d\t%s" %
                        (self.name, name, macs, flops, json.dumps(shape)))


def data0(shape):
    """Expectation of a data-movement node: 0 FLOPs."""
    return (0, shape)


# ---- shape chains (the point of value propagation) ----

def chain_heads():
    """BERT-style head split: x.view(x.size(0), x.size(1), 12, 64)."""
    m = Model("chain_heads")
    x = m.inp("x", F, ["N", "L", 768])
    m.node("Shape", [x], ["s"], data0([3]))
    m.const("i0", [0], dims=[])
    m.const("i1", [1], dims=[])
    m.const("ax0", [0])
    m.node("Gather", ["s", "i0"], ["n"], data0([]), axis=0)
    m.node("Gather", ["s", "i1"], ["l"], data0([]), axis=0)
    m.node("Unsqueeze", ["n", "ax0"], ["n1"], data0([1]))
    m.node("Unsqueeze", ["l", "ax0"], ["l1"], data0([1]))
    m.const("heads", [12, 64])
    m.node("Concat", ["n1", "l1", "heads"], ["target"], data0([4]), axis=0)
    m.node("Reshape", [x, "target"], ["r"], data0(["N", "L", 12, 64]))
    m.node("Transpose", ["r"], ["t"], data0(["N", 12, "L", 64]),
           perm=[0, 2, 1, 3])
    # the -1 form: N * L * 768 / (N * 12 * 64) = L
    m.const("minus1", [-1])
    m.node("Concat", ["n1", "minus1", "heads"], ["target2"], data0([4]),
           axis=0)
    m.node("Reshape", [x, "target2"], ["r2"], data0(["N", "L", 12, 64]))
    # and back: view(N, L, 768)
    m.const("hidden", [768])
    m.node("Concat", ["n1", "l1", "hidden"], ["target3"], data0([3]), axis=0)
    m.node("Reshape", ["r", "target3"], ["back"], data0(["N", "L", 768]))
    # 0 copies the input dim
    m.const("zeros", [0, 0, 12, 64])
    m.node("Reshape", [x, "zeros"], ["r0"], data0(["N", "L", 12, 64]))
    m.const("rows", [-1, 768])
    m.node("Reshape", [x, "rows"], ["r3"], data0(["L*N", 768]))
    m.save()


def chain_flatten():
    """torchvision classifier head: x.view(x.size(0), -1)."""
    m = Model("chain_flatten")
    x = m.inp("x", F, ["N", 512, 7, 7])
    m.node("Shape", [x], ["s"])
    m.const("i0", [0], dims=[])
    m.const("ax0", [0])
    m.const("minus1", [-1])
    m.node("Gather", ["s", "i0"], ["n"], axis=0)
    m.node("Unsqueeze", ["n", "ax0"], ["n1"])
    m.node("Concat", ["n1", "minus1"], ["target"], data0([2]), axis=0)
    m.node("Reshape", [x, "target"], ["r"], data0(["N", 25088]))
    m.node("Flatten", [x], ["f1"], data0(["N", 25088]), axis=1)
    m.node("Flatten", [x], ["f0"], data0([1, "25088*N"]), axis=0)
    m.node("Flatten", [x], ["fm1"], data0(["3584*N", 7]), axis=-1)
    m.node("Flatten", [x], ["f4"], data0(["25088*N", 1]), axis=4)
    m.node("Flatten", [x], ["fm3"], data0(["N", 25088]), axis=-3)
    m.save()


def chain_slice():
    """Slices of symbolic dims and of shape contents."""
    m = Model("slice_sym")
    x = m.inp("x", F, ["N", "L", 768])

    def sl(name, starts, ends, axes, steps=None, expect=None, data=x):
        ins = [data, m.const(name + "_s", starts), m.const(name + "_e", ends),
               m.const(name + "_a", axes)]
        if steps is not None:
            ins.append(m.const(name + "_st", steps))
        m.node("Slice", ins, [name], data0(expect))

    sl("all", [0], [INT64_MAX], [1], expect=["N", "L", 768])
    sl("last", [-1], [INT64_MAX], [1], expect=["N", 1, 768])
    sl("tail", [1], [INT64_MAX], [1], expect=["N", "(L-1)", 768])
    sl("even", [0], [768], [2], [2], expect=["N", "L", 384])
    sl("rev", [-1], [-INT64_MAX], [2], [-1], expect=["N", "L", 768])
    # ceil((20 - 10) / 3) = 4
    sl("step3", [10], [20], [2], [3], expect=["N", "L", 4])
    # inside a symbolic dim: assumed in range
    sl("head", [0, 0], [1, 5], [0, 1], expect=[1, 5, 768])
    # negative axis and bounds: 768 - 100 .. 768 - 50
    sl("mid", [-100], [-50], [-1], expect=["N", "L", 50])
    # past the end is clamped
    sl("clamp", [700], [1000], [2], expect=["N", "L", 68])
    # on shape contents: {N, L, 768}[1:3] = {L, 768}; -1 becomes N
    m.node("Shape", [x], ["s"])
    sl("s12", [1], [3], [0], expect=[2], data="s")
    m.const("minus1", [-1])
    m.node("Concat", ["minus1", "s12"], ["t"], data0([3]), axis=0)
    m.node("Reshape", [x, "t"], ["r"], data0(["N", "L", 768]))
    # a symbolic end from the shape: pos[:, :L] (HF position embeddings)
    pos = m.inp("pos", F, [1, 1024, 64])
    sl("l", [1], [2], [0], expect=[1], data="s")
    m.node("Slice", [pos, m.const("z", [0]), "l", m.const("one", [1])],
           ["posl"], data0([1, "L", 64]))
    m.save()

    m = Model("slice9", 9)
    x = m.inp("x", F, [4, 10, 5])
    m.node("Slice", [x], ["a"], data0([4, 9, 5]), starts=[1], ends=[1000],
           axes=[1])
    m.node("Slice", [x], ["b"], data0([2, 2, 5]), starts=[0, -3],
           ends=[2, -1])
    m.save()


def constant_of_shape():
    m = Model("constantofshape")
    x = m.inp("x", F, ["N", "L", 768])
    m.node("Shape", [x], ["s"])
    m.node("ConstantOfShape", ["s"], ["zeros"], data0(["N", "L", 768]))
    five = helper.make_tensor("five", I64, [1], [5])
    m.const("d23", [2, 3])
    m.node("ConstantOfShape", ["d23"], ["fives"], data0([2, 3]), value=five)
    m.const("empty", [], dims=[0])
    m.node("ConstantOfShape", ["empty"], ["scalar"], data0([]))
    # contents: {2, 2} used as Tile repeats
    two = helper.make_tensor("two", I64, [1], [2])
    m.const("d2", [2])
    m.node("ConstantOfShape", ["d2"], ["reps"], data0([2]), value=two)
    z = m.inp("z", F, [2, 3])
    m.node("Tile", [z, "reps"], ["tiled"], data0([4, 6]))
    m.save()


def shape_ops():
    m = Model("shape15", 15)
    x = m.inp("x", F, ["N", "L", 768])
    m.node("Shape", [x], ["s1"], data0([2]), start=1)
    m.node("Shape", [x], ["sm1"], data0([1]), start=-1)
    m.node("Shape", [x], ["em1"], data0([2]), end=-1)
    m.node("Shape", [x], ["s5"], data0([0]), start=5)
    # Size's contents N * L * 768 reach a Reshape target
    m.node("Size", [x], ["n"], data0([]))
    m.node("Unsqueeze", ["n", m.const("ax0", [0])], ["n1"], data0([1]))
    m.node("Reshape", [x, "n1"], ["flat"], data0(["768*L*N"]))
    m.save()

    m = Model("squeeze11", 11)
    a = m.inp("a", F, [1, 3, 1, 5])
    m.node("Squeeze", [a], ["sq"], data0([3, 5]), axes=[0, 2])
    m.node("Squeeze", [a], ["sqall"], data0([3, 5]))
    m.node("Squeeze", [a], ["sqneg"], data0([1, 3, 5]), axes=[-2])
    b = m.inp("b", F, [3, 4])
    m.node("Unsqueeze", [b], ["us"], data0([1, 3, 4, 1]), axes=[0, 3])
    m.node("Unsqueeze", [b], ["usneg"], data0([3, 4, 1]), axes=[-1])
    m.save()

    m = Model("squeeze13")
    a = m.inp("a", F, [1, 3, 1, 5])
    m.node("Squeeze", [a, m.const("axm2", [-2])], ["sq"], data0([1, 3, 5]))
    m.node("Squeeze", [a], ["sqall"], data0([3, 5]))
    b = m.inp("b", F, ["N", 4])
    m.node("Unsqueeze", [b, m.const("ax1m1", [1, -1])], ["us"],
           data0(["N", 1, 4, 1]))
    m.node("Transpose", [a], ["tr"], data0([5, 1, 3, 1]))
    m.node("Transpose", [b], ["trb"], data0([4, "N"]), perm=[1, 0])
    c = m.inp("c", F, [3, 1])
    m.node("Expand", [c, m.const("to", [2, 1, 6])], ["ex"], data0([2, 3, 6]))
    # Expand to a shape taken from another tensor
    big = m.inp("big", F, ["N", "L", 768])
    row = m.inp("row", F, [1, 1, 768])
    m.node("Shape", [big], ["bs"])
    m.node("Expand", [row, "bs"], ["exb"], data0(["N", "L", 768]))
    m.node("Tile", [m.inp("t", F, [2, 3]), m.const("r21", [2, 1])], ["ti"],
           data0([4, 3]))
    m.node("Tile", [b, m.const("r32", [3, 2])], ["tis"], data0(["3*N", 8]))
    m.save()


# ---- indexing ----

def gather_ops():
    m = Model("gather", 16)
    d = m.inp("d", F, [5, 4, 3])
    idx = m.inp("idx", I64, [2, 6])
    m.node("Gather", [d, idx], ["g1"], data0([5, 2, 6, 3]), axis=1)
    m.node("Gather", [d, m.const("neg", [-1], dims=[])], ["g0"],
           data0([4, 3]))
    m.node("Gather", [d, m.const("two", [0, 2])], ["gl"], data0([5, 4, 2]),
           axis=-1)
    e = m.inp("e", F, [3, 4])
    ei = m.inp("ei", I64, [3, 2])
    m.node("GatherElements", [e, ei], ["ge"], data0([3, 2]), axis=1)
    nd = m.inp("nd", F, [2, 3, 4, 5])
    ndi = m.inp("ndi", I64, [2, 3, 2])
    # indices[:-1] + data[batch_dims + 2:] = [2, 3] + [5]
    m.node("GatherND", [nd, ndi], ["gnd"], data0([2, 3, 5]), batch_dims=1)
    nd0 = m.inp("nd0", F, [2, 3, 4])
    ndi0 = m.inp("ndi0", I64, [4, 2])
    m.node("GatherND", [nd0, ndi0], ["gnd0"], data0([4, 4]))
    si = m.inp("si", I64, [2, 4])
    su = m.inp("su", F, [2, 4])
    m.node("ScatterElements", [e, si, su], ["sea"], (8, [3, 4]),
           reduction="add")
    m.node("ScatterElements", [e, si, su], ["se"], data0([3, 4]))
    sd = m.inp("sd", F, [4, 5, 6])
    sdi = m.inp("sdi", I64, [3, 2])
    sdu = m.inp("sdu", F, [3, 6])
    m.node("ScatterND", [sd, sdi, sdu], ["snd"], (18, [4, 5, 6]),
           reduction="mul")
    m.node("ScatterND", [sd, sdi, sdu], ["snd0"], data0([4, 5, 6]))
    # Compress with a constant condition: its true entries count
    m.const("keep", [1, 0, 1], dtype=BOOL)
    m.node("Compress", [e, "keep"], ["cmp"], data0([2, 4]), axis=0)
    m.const("keep5", [1, 1, 0, 0, 1], dtype=BOOL)
    m.node("Compress", [e, "keep5"], ["cmpf"], data0([3]))
    oi = m.inp("oi", I64, [2, 3])
    m.const("depth", [10], dims=[])
    m.init("onoff", F, [2], [0.0, 1.0])
    m.node("OneHot", [oi, "depth", "onoff"], ["oh"], data0([2, 3, 10]))
    m.node("OneHot", [oi, "depth", "onoff"], ["oh0"], data0([10, 2, 3]),
           axis=0)
    m.const("nz", [1, 0, 2, 0, 0, 3], dims=[2, 3])
    m.node("NonZero", ["nz"], ["nzi"], data0([2, 3]))
    tk = m.inp("tk", F, [3, 10])
    m.node("TopK", [tk, m.const("k4", [4])], ["tv", "ti"], (30, [3, 4]),
           axis=1)
    # output shapes that depend on the data: inferred as far as possible
    m.node("Unique", [m.inp("u", F, [6])], ["uy", "uidx", "uinv", "ucnt"])
    m.node("Identity", ["uinv"], ["uinv_id"], data0([6]))
    m.save()

    m = Model("topk9", 9)
    tk = m.inp("tk", F, [5, 6])
    m.node("TopK", [tk], ["tv", "ti"], (30, [5, 3]), k=3)
    sc = m.inp("sc", F, [3, 4])
    m.node("Scatter", [sc, m.inp("si", I64, [2, 4]), m.inp("su", F, [2, 4])],
           ["s"], data0([3, 4]))
    m.save()


# ---- cutting and joining ----

def split_concat():
    m = Model("split11", 11)
    x = m.inp("x", F, [6, 4])
    m.node("Split", [x], ["a", "b"], data0([2, 4]), split=[2, 4])
    m.node("Identity", ["b"], ["b_id"], data0([4, 4]))
    m.node("Split", [x], ["c", "d", "e"], data0([2, 4]), axis=0)
    m.save()

    m = Model("split13")
    x = m.inp("x", F, ["N", 12])
    m.node("Split", [x, m.const("sp", [3, 9])], ["a", "b"], data0(["N", 3]),
           axis=1)
    m.node("Identity", ["b"], ["b_id"], data0(["N", 9]))
    m.node("Split", [x], ["c", "d", "e"], data0(["N", 4]), axis=1)
    m.node("Identity", ["e"], ["e_id"], data0(["N", 4]))
    # Split of shape contents: {N, 12} -> {N}, {12}; Concat({12}, {N})
    m.node("Shape", [x], ["s"])
    m.node("Split", ["s"], ["s0", "s1"], data0([1]))
    m.node("Concat", ["s1", "s0"], ["swapped"], data0([2]), axis=0)
    m.node("Reshape", [x, "swapped"], ["r"], data0([12, "N"]))
    m.save()

    m = Model("split18", 18)
    x = m.inp("x", F, [10])
    m.node("Split", [x], ["a", "b", "c"], data0([4]), num_outputs=3)
    m.node("Identity", ["c"], ["c_id"], data0([2]))
    m.save()

    m = Model("concat")
    a = m.inp("a", F, ["N", "L", 4])
    b = m.inp("b", F, ["N", "M", 4])
    m.node("Concat", [a, b], ["ab"], data0(["N", "(L+M)", 4]), axis=1)
    p = m.inp("p", F, [2, 3])
    q = m.inp("q", F, [2, 5])
    m.node("Concat", [p, q], ["pq"], data0([2, 8]), axis=-1)
    r = m.inp("r", F, ["N", 3])
    s = m.inp("s", F, ["N", 5])
    m.node("Concat", [r, s, r], ["rsr"], data0(["N", 11]), axis=1)
    m.save()

    m = Model("pad11", 11)
    x = m.inp("x", F, [1, 3, 4, 4])
    m.node("Pad", [x, m.const("p", [0, 0, 1, 1, 0, 0, 1, 1])], ["y"],
           data0([1, 3, 6, 6]))
    m.node("Pad", [x, m.const("crop", [0, 0, -1, 0, 0, 0, 0, -2])], ["z"],
           data0([1, 3, 3, 2]), mode="edge")
    n = m.inp("n", F, ["N", 3])
    m.node("Pad", [n, m.const("pn", [1, 0, 1, 0])], ["w"],
           data0(["(2+N)", 3]))
    m.save()

    m = Model("pad9", 9)
    x = m.inp("x", F, [3, 4])
    m.node("Pad", [x], ["y"], data0([3, 7]), pads=[0, 1, 0, 2])
    m.save()

    m = Model("pad18", 18)
    x = m.inp("x", F, [1, 3, 4, 4])
    m.node("Pad", [x, m.const("p", [1, 2, 3, 4]), "", m.const("ax", [2, -1])],
           ["y"], data0([1, 3, 8, 10]))
    m.save()


def sequences():
    m = Model("sequence")
    x = m.inp("x", F, [6, 4])
    m.node("SplitToSequence", [x, m.const("two", [2], dims=[])], ["seq"])
    m.node("SequenceAt", ["seq", m.const("zero", [0], dims=[])], ["at"],
           data0([2, 4]))
    m.node("SplitToSequence", [x], ["cols"], axis=1, keepdims=0)
    m.node("SequenceAt", ["cols", "zero"], ["col"], data0([6]))
    m.node("SequenceLength", ["seq"], ["len"], data0([]))
    a = m.inp("a", F, [2, 3])
    b = m.inp("b", F, [2, 3])
    m.node("SequenceConstruct", [a, b], ["ab"])
    m.node("SequenceAt", ["ab", "zero"], ["ab0"], data0([2, 3]))
    m.node("ConcatFromSequence", ["ab"], ["cat"], axis=0)
    m.node("SequenceEmpty", [], ["empty"])
    m.node("SequenceInsert", ["empty", a], ["one"])
    m.node("SequenceAt", ["one", "zero"], ["one0"], data0([2, 3]))
    m.node("SequenceErase", ["ab", "zero"], ["erased"])
    m.node("SequenceAt", ["erased", "zero"], ["er0"], data0([2, 3]))
    r = m.inp("r", F, [4, 3, 5])
    m.node("ReverseSequence", [r, m.inp("lens", I64, [3])], ["rev"],
           data0([4, 3, 5]), batch_axis=1, time_axis=0)
    m.save()


# ---- generators ----

def generators():
    m = Model("range")
    x = m.inp("x", F, ["N", "L", 768])
    m.node("Shape", [x], ["s"])
    m.node("Gather", ["s", m.const("i1", [1], dims=[])], ["l"], axis=0)
    zero = m.const("zero", [0], dims=[])
    one = m.const("one", [1], dims=[])
    m.node("Range", [zero, "l", one], ["pos"], data0(["L"]))
    m.node("Range", [m.const("two", [2], dims=[]), "l", one], ["pos2"],
           data0(["(L-2)"]))
    m.node("Range", [one, m.const("ten", [10], dims=[]),
                     m.const("three", [3], dims=[])], ["r3"], data0([3]))
    m.node("Range", [m.const("a", [10], I32, []), m.const("b", [4], I32, []),
                     m.const("c", [-2], I32, [])], ["r32"], data0([3]))
    m.node("Range", [m.const("f0", [0.0], F, []), m.const("f1", [1.0], F, []),
                     m.const("f3", [0.3], F, [])], ["rf"], data0([4]))
    m.node("EyeLike", [m.inp("e", F, [3, 5])], ["eye"], data0([3, 5]), k=1)
    m.node("RandomNormal", [], ["rn"], (6, [2, 3]), shape=[2, 3])
    m.node("RandomUniform", [], ["ru"], (4, [4]), shape=[4], dtype=DBL)
    # 3 x 5 read (running sum), 3 x 4 drawn
    m.node("Multinomial", [m.inp("p", F, [3, 5])], ["mn"], (15 + 12, [3, 4]),
           sample_size=4)
    m.save()

    m = Model("signal", 17)
    m.node("HannWindow", [m.const("n16", [16], dims=[])], ["hann"],
           (3 * 16, [16]))
    m.node("HammingWindow", [m.const("n10", [10], dims=[])], ["hamming"],
           (3 * 10, [10]), periodic=0)
    m.node("BlackmanWindow", [m.const("n8", [8], dims=[])], ["blackman"],
           (5 * 8, [8]))
    m.node("MelWeightMatrix",
           [m.const("bins", [8], dims=[]), m.const("dft", [64], dims=[]),
            m.const("rate", [16000], dims=[]),
            m.const("lo", [0.0], F, []), m.const("hi", [8000.0], F, [])],
           ["mel"], (33 * 8, [64 // 2 + 1, 8]))
    sig = m.inp("sig", F, [2, 100, 1])
    step = m.const("step", [10], dims=[])
    m.init("w16", F, [16], [1.0] * 16)
    m.init("w8", F, [8], [1.0] * 8)

    def stft_flops(batch, frames, n):
        return batch * frames * (math.ceil(5 * n * math.log2(n)) + n)

    frames = (100 - 16) // 10 + 1
    m.node("STFT", [sig, step, "w16", m.const("flen", [16], dims=[])],
           ["spec"], (stft_flops(2, frames, 16), [2, frames, 16 // 2 + 1, 2]))
    frames = (100 - 8) // 10 + 1
    m.node("STFT", [sig, step, "w8"], ["spec2"],
           (stft_flops(2, frames, 8), [2, frames, 8, 2]), onesided=0)
    m.save()


# ---- reductions ----

def reductions():
    shape = [2, 3, 4]
    n = numel(shape)
    m = Model("reduce13")
    x = m.inp("x", F, shape)
    m.node("ReduceSum", [x, m.const("a1", [1])], ["sum"], (n, [2, 1, 4]))
    m.node("ReduceSum", [x, m.const("am1", [-1])], ["sumk0"], (n, [2, 3]),
           keepdims=0)
    m.node("ReduceSum", [x], ["sumall"], (n, [1, 1, 1]))
    m.node("ReduceSum", [x], ["noop"], (0, shape), noop_with_empty_axes=1)
    m.node("ReduceMean", [x], ["mean"], (n + 2, [2, 1, 1]), axes=[1, 2])
    m.node("ReduceMax", [x], ["max"], (n, [3, 4]), axes=[0], keepdims=0)
    m.node("ReduceMin", [x], ["min"], (n, [2, 3, 1]), axes=[-1])
    m.node("ReduceProd", [x], ["prod"], (n, [1, 1, 1]))
    m.node("ReduceL1", [x], ["l1"], (2 * n, [2, 1, 4]), axes=[1])
    m.node("ReduceL2", [x], ["l2"], (2 * n + 6, [2, 3, 1]), axes=[2])
    m.node("ReduceLogSum", [x], ["ls"], (n + 4, [4]), axes=[0, 1],
           keepdims=0)
    m.node("ReduceLogSumExp", [x], ["lse"], (2 * n + 1, [1, 1, 1]))
    m.node("ReduceSumSquare", [x], ["ss"], (2 * n, [2, 1, 4]), axes=[1])
    m.node("ArgMax", [x], ["amax"], (n, [2, 4]), axis=1, keepdims=0)
    m.node("ArgMin", [x], ["amin"], (n, [2, 3, 1]), axis=-1,
           select_last_index=1)
    # exporters: ReduceProd(Shape(x)) as a Reshape target
    y = m.inp("y", F, ["N", "L", 768])
    m.node("Shape", [y], ["s"])
    m.node("ReduceProd", ["s"], ["total"], (3, [1]), keepdims=1)
    m.node("Reshape", [y, "total"], ["flat"], data0(["768*L*N"]))
    m.node("ReduceSum", ["s", m.const("a0", [0])], ["ssum"], (3, [1]))
    m.save()

    m = Model("reduce18", 18)
    x = m.inp("x", F, shape)
    m.node("ReduceMean", [x, m.const("a1", [1])], ["mean"], (n + 8, [2, 4]),
           keepdims=0)
    m.node("ReduceMax", [x], ["noop"], (0, shape), noop_with_empty_axes=1)
    m.node("ReduceL2", [x, m.const("a02", [0, 2])], ["l2"],
           (2 * n + 3, [1, 3, 1]))
    m.node("ReduceSum", [x, m.const("empty", [], dims=[0])], ["sumall"],
           (n, [1, 1, 1]))
    m.save()


# ---- resize ----

def linear(k):
    return 3 * (2 ** k - 1)


def cubic(k):
    return 7 * (4 ** k - 1) // 3


def resizes():
    m = Model("resize10", 10)
    x = m.inp("x", F, [1, 3, 4, 4])
    m.init("sc", F, [4], [1, 1, 2, 2])
    m.node("Resize", [x, "sc"], ["near"], (0, [1, 3, 8, 8]))
    m.node("Resize", [x, "sc"], ["lin"], (linear(2) * 192, [1, 3, 8, 8]),
           mode="linear")
    m.save()

    m = Model("resize13")
    x = m.inp("x", F, [1, 3, 4, 6])
    m.init("sizes", I64, [4], [1, 3, 8, 12])
    m.node("Resize", [x, "", "", "sizes"], ["cub"],
           (cubic(2) * 288, [1, 3, 8, 12]), mode="cubic")
    m.init("half", F, [4], [1, 1, 0.5, 0.5])
    m.node("Resize", [x, "", "half"], ["down"], (linear(2) * 18, [1, 3, 2, 3]),
           mode="linear")
    m.init("wide", F, [4], [1, 1, 1, 2])
    m.node("Resize", [x, "", "wide"], ["w1"], (linear(1) * 144,
                                               [1, 3, 4, 12]), mode="linear")
    # symbolic batch: scale 1 keeps N; sizes from the shape keep it too
    n = m.inp("n", F, ["N", 3, 4, 4])
    m.init("up", F, [4], [1, 1, 2, 2])
    m.node("Resize", [n, "", "up"], ["nup"], (0, ["N", 3, 8, 8]))
    m.node("Shape", [n], ["s"])
    m.node("Slice", ["s", m.const("z", [0]), m.const("two", [2])], ["nc"])
    m.node("Concat", ["nc", m.const("hw", [8, 8])], ["nsz"], axis=0)
    m.node("Resize", [n, "", "", "nsz"], ["nsized"],
           (linear(2) * 192, ["N", 3, 8, 8]), mode="linear")
    m.save()

    m = Model("resize18", 18)
    x = m.inp("x", F, [1, 3, 4, 6])
    m.init("hw", I64, [2], [8, 10])
    # not_larger: scale min(8/4, 10/6) = 5/3 -> round(6.67) = 7, 10
    m.node("Resize", [x, "", "", "hw"], ["nl"], (linear(2) * 210,
                                                [1, 3, 7, 10]),
           mode="linear", axes=[2, 3], keep_aspect_ratio_policy="not_larger")
    # not_smaller: scale max(2, 5/3) = 2 -> 8, 12
    m.node("Resize", [x, "", "", "hw"], ["ns"], (linear(2) * 288,
                                                [1, 3, 8, 12]),
           mode="linear", axes=[2, 3], keep_aspect_ratio_policy="not_smaller")
    m.node("Resize", [x, "", "", "hw"], ["st"], (0, [1, 3, 8, 10]),
           axes=[-2, -1])
    m.save()

    m = Model("upsample7", 7)
    x = m.inp("x", F, [1, 1, 2, 3])
    m.node("Upsample", [x], ["y"], (0, [1, 1, 4, 9]), scales=[1.0, 1.0, 2.0,
                                                             3.0])
    m.save()
    m = Model("upsample9", 9)
    x = m.inp("x", F, [1, 1, 2, 3])
    m.init("sc", F, [4], [1, 1, 2, 2])
    m.node("Upsample", [x, "sc"], ["y"], (linear(2) * 24, [1, 1, 4, 6]),
           mode="linear")
    m.save()


# ---- control flow ----

def control():
    m = Model("if")
    a = m.inp("a", F, [2, 3])
    b = m.inp("b", F, [2, 3])
    then = Graph("then_")
    then.node("Add", [a, b], ["t_out"])
    then.out("t_out")
    other = Graph("else_")
    other.node("Concat", [a, b], ["e_out"], axis=0)
    other.out("e_out")
    m.const("yes", [1], BOOL, [])
    # a known condition: the then branch only (Add: 6 FLOPs)
    m.node("If", ["yes"], ["y"], (6, [2, 3]),
           then_branch=then.graph("then"), else_branch=other.graph("else"))
    m.const("no", [0], BOOL, [])
    m.node("If", ["no"], ["z"], (0, [4, 3]),
           then_branch=then.graph("then"), else_branch=other.graph("else"))
    # unknown condition, branches agree: both costed (Add 6 + Mul 6)
    c = m.inp("c", BOOL, [])
    mul = Graph("mul_")
    mul.node("Mul", [a, b], ["m_out"])
    mul.out("m_out")
    add = Graph("add_")
    add.node("Add", [a, b], ["a_out"])
    add.out("a_out")
    m.node("If", [c], ["w"], (12, [2, 3]),
           then_branch=add.graph("add"), else_branch=mul.graph("mul"))
    m.save()

    # for i in range(3): v = v @ W, scanning v
    m = Model("loop")
    v0 = m.inp("v0", F, [1, 4])
    m.init("W", F, [4, 4], [0.5] * 16)
    body = Graph("body_")
    body.inp("i", I64, [])
    body.inp("cond", BOOL, [])
    body.inp("v", F, [1, 4])
    body.node("Identity", ["cond"], ["cond_out"])
    body.node("MatMul", ["v", "W"], ["v_out"])
    body.node("Identity", ["v_out"], ["scan"])
    body.out("cond_out", BOOL, [])
    body.out("v_out", F, None)
    body.out("scan", F, None)
    m.const("trips", [3], dims=[])
    m.const("true", [1], BOOL, [])
    macs = 3 * 1 * 4 * 4
    m.node("Loop", ["trips", "true", v0], ["v_final", "vs"],
           (macs, 2 * macs, [1, 4]), body=body.graph("body"))
    m.node("Identity", ["vs"], ["vs_id"], data0([3, 1, 4]))
    m.save()

    # running sum over 5 rows: state + x (4 FLOPs), scan state * x (4)
    m = Model("scan")
    s0 = m.inp("s0", F, [4])
    xs = m.inp("xs", F, [5, 4])
    body = Graph("body_")
    body.inp("s", F, [4])
    body.inp("x", F, [4])
    body.node("Add", ["s", "x"], ["s_out"])
    body.node("Mul", ["s", "x"], ["y"])
    body.out("s_out")
    body.out("y")
    m.node("Scan", [s0, xs], ["s_final", "ys"], (5 * (4 + 4), [4]),
           body=body.graph("body"), num_scan_inputs=1)
    m.node("Identity", ["ys"], ["ys_id"], data0([5, 4]))
    # along axis 1, output stacked on axis 1
    xt = m.inp("xt", F, [4, 6])
    m.node("Scan", [s0, xt], ["s_final2", "ys2"], (6 * (4 + 4), [4]),
           body=body.graph("body"), num_scan_inputs=1, scan_input_axes=[1],
           scan_output_axes=[1])
    m.node("Identity", ["ys2"], ["ys2_id"], data0([4, 6]))
    m.save()

    m = Model("optional", 15)
    x = m.inp("x", F, [3])
    m.node("Optional", [x], ["opt"])
    m.node("OptionalGetElement", ["opt"], ["el"], data0([3]))
    m.node("OptionalHasElement", ["opt"], ["has"], data0([]))
    m.save()


# ---- training ----

def training():
    m = Model("training", 13, [(TRAINING, 1)])
    r = m.inp("R", F, [])
    t = m.inp("T", I64, [])
    x, g, h = (m.inp(k, F, [3, 4]) for k in ("X", "G", "H"))
    m.node("Adagrad", [r, t, x, g, h], ["X_new", "H_new"], (9 * 12, [3, 4]),
           domain=TRAINING)
    names = {}
    for k in ("X1", "G1", "V1", "H1"):
        names[k] = m.inp(k, F, [2])
    for k in ("X2", "G2", "V2", "H2"):
        names[k] = m.inp(k, F, [3, 3])
    ins = [r, t] + [names[k + i] for k in "XGVH" for i in "12"]
    m.node("Adam", ins, ["X1n", "X2n", "V1n", "V2n", "H1n", "H2n"],
           (15 * (2 + 9), [2]), domain=TRAINING)
    m.node("Identity", ["H2n"], ["H2n_id"], data0([3, 3]))
    p = [m.inp(k, F, [5]) for k in ("P", "PG", "PV")]
    m.node("Momentum", [r, t] + p, ["Pn", "PVn"], (7 * 5, [5]),
           domain=TRAINING, alpha=0.9, beta=1.0, mode="standard",
           norm_coefficient=0.0)
    m.node("Momentum", [r, t] + p, ["Qn", "QVn"], (9 * 5, [5]),
           domain=TRAINING, alpha=0.9, beta=1.0, mode="nesterov",
           norm_coefficient=0.0)
    # d(sum(X * G)) / dX, dG: gradients shaped like X and G
    m.node("Mul", [x, g], ["XG"])
    m.node("ReduceSum", ["XG"], ["loss"], keepdims=0)
    m.node("Gradient", [x, g], ["dX", "dG"], data0([3, 4]), domain=TRAINING,
           xs=["X", "G"], y="loss")
    m.save()


def strings():
    m = Model("strings", 20)
    s = m.inp("s", TensorProto.STRING, [1, 4])
    m.node("StringNormalizer", [s], ["norm"], data0([1, 4]),
           case_change_action="LOWER")
    t = m.inp("t", TensorProto.STRING, [2, 3])
    m.node("StringSplit", [t], ["parts", "counts"], delimiter=",")
    m.node("Identity", ["counts"], ["counts_id"], data0([2, 3]))
    m.node("ImageDecoder", [m.inp("jpeg", TensorProto.UINT8, [1000])],
           ["img"])
    m.save()


def main():
    os.makedirs(OUT, exist_ok=True)
    for gen in (chain_heads, chain_flatten, chain_slice, constant_of_shape,
                shape_ops, gather_ops, split_concat, sequences, generators,
                reductions, resizes, control, training, strings):
        gen()
    with open(os.path.join(HERE, "costs-tensor.tsv"), "w") as f:
        f.write("# written by gen_tensor.py: path, node, macs, flops, "
                "output-0 shape\n")
        for r in rows:
            f.write(r + "\n")


if __name__ == "__main__":
    main()
