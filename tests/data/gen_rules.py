"""Small graphs, one per rule of the ort-cpu plan that a measured network
showed, in the form of tests/data/gen_quant.py (MODELS, build(name) ->
(ModelProto, input specs for collector/ort_graph.js)).  scripts/ort_quant.py
--set rules runs each in ONNX Runtime and records what it ran
(tests/data/ort-rules/); ctest's ort_rules plans them and wants the same
kernels.  "N" is a symbolic batch, run at 2; "L" a symbolic length, run at 8.

Load-time shapes (ONNX's inference as ORT runs it when it loads a model):
  reshape_minus1_batch  Conv -> GlobalAveragePool -> Reshape [-1,16,1,1] ->
                        Sigmoid gating the Conv, a Conv, a residual Add of a
                        second Conv, Relu: the -1 of a symbolic batch is
                        unknown, so the blocked Add cannot show its inputs
                        equal (blind23's sknet_lite)
  reshape_minus1_fixed  the same with a fixed batch: Conv + Add + Relu fuse
  slice_computed_ends   a Slice whose ends come from Shape: every dim unknown
                        (blind23's ca_mobilenetv2)
  pool_reshaped_op13    a Conv of a Reshape to a computed shape at opset 13
                        (no shape at load) concatenated with another Conv,
                        pooled, then a Conv: the pool runs plain (blind23's
                        condensenet_lite)
  pool_reshaped_op14    the same at opset 14: the shape is known, the pool
                        runs NCHWc
  range_positions       X + Embedding(Range(0, L)) then x + x W into a
                        LayerNormalization: L symbolic, unknown once added
                        to the positions, no SkipLayerNormalization
                        (causal_gpt_tanh-op17-dyn)
  skip_ln_bias          x + (bias + x W) into a LayerNormalization, batch
                        symbolic: one SkipLayerNormalization (blind16's
                        fnet_encoder)
  reshape_rounds        two Reshapes to [-1, dim 1 of X, ...] (Shape of X,
                        computed targets, opset 13), a Sigmoid between,
                        then MatMul, bias and Gelu: the first fuses, ORT
                        infers shapes again, the second fuses in the next
                        round, and its shape makes a BiasGelu (blind26's
                        deberta_encoder)
  reshape_rounds_transposed  the second Reshape's pieces read the Shape of
                        a Transpose of X that a LayerNormalization reads
                        (the transpose optimizer keeps it): fused in the
                        second round too.  blind7's evoformer_lite, whose
                        Transpose the optimizer takes through a written-out
                        LayerNorm, keeps such a Reshape unfused in ORT and
                        not in the plan (the optimizer runs between the
                        rounds; not modelled)
Layouts and fusions:
  nhwc_pushed           Conv, Transpose to NHWC, x - mean(x) over C: the
                        transpose optimizer takes the Transpose through
  nhwc_pushed_and_kept  the same, then x + (x - mean(x)) W: the residual Add
                        reads the NHWC tensor, a second ReorderOutput
                        (blind23's vip_permutator)
  div_mul_one           x * (1 / sqrt(x)): one Div (DivMulFusion; blind17's
                        qr_eigensolver)
  div_mul_two           x * (2 / sqrt(x)): Div and Mul
  scale_two_matmuls     x / 4 read by two MatMuls: both take it in
                        (MatMulScaleFusion; blind18's seir_epidemic)
  scale_matmuls_relu    the same with a Relu reading x / 4 too
  pad_into_conv         Pad (constant pads, no value) then a 1-D Conv: the
                        Conv pads (PadFusion)
  pad_empty_value       the same Pad with an empty third input, as PyTorch
                        writes F.pad: no constant value, the Pad runs
                        (blind18's ddsp_synth)
  unshaped_gelu_plain   Where(X >= 0, X, 0) (GreaterOrEqual-12: no shape
                        rule), MatMul, bias, Gelu: no shape, no BiasGelu
  unshaped_gelu_declared  the same with the Where's output a graph output of
                        declared shape: BiasGelu (blind24's ising_metropolis)
  split_of_96           96 one-column Slices of one tensor: one Split
                        (GatherSliceToSplitFusion has no limit on the parts;
                        blind25's goertzel_bank)
  lstm_states_unshaped  two stacked LSTMs whose initial states are sliced
                        from a Reshape to a computed shape (no shape at
                        load: those Slices stay), their Y_h
                        concatenated and sliced apart again: the LSTMs'
                        outputs still have shapes (ONNX's rule reads X and
                        the attributes), so the two Slices are one Split
                        (blind39's deepar_forecast)
Eliminations:
  expand_ones           a Slice's output expanded to ConstantOfShape([3])
                        of ones: the Expand goes (ExpandElimination; blind29's
                        micn_forecast, blind27's autoformer_forecast)
  expand_ones_input     the graph input expanded so: the Expand stays (no
                        input edge for CanRemoveNode)
  expand_ones_no_rank   x + ConstantOfShape(Shape(a Reshape to a computed
                        shape)) expanded so: no rank at load, it stays
                        (blind15's timesformer_lite)
  tile_transposed       Transpose, Tile with constant repeats, Transpose
                        back: the transpose optimizer takes the first through
                        the Tile and the pair cancels (micn_forecast)
  tile_transposed_computed  the same with repeats computed (the Shape of an
                        input of symbolic dims): a Gather permutes them
  identity_shared_weight  X - K and X - Identity(K) (how the PyTorch exporter
                        writes a buffer two modules share), squared, summed:
                        the Identity goes before CSE, so the second Sub and
                        its square are the first's (blind30's kpconv_cls)
  identity_shared_output  the same with Identity(K) a graph output too: it
                        stays, is folded, and both chains run
"""
import zlib

import numpy as np
from onnx import TensorProto, helper, numpy_helper

MODELS = {}
rng = np.random.default_rng(0)


def model(fn):
    MODELS[fn.__name__] = fn
    return fn


def weights(*shape):
    return (rng.random(shape, dtype=np.float32) - 0.5).astype(np.float32)


def build_model(nodes, inputs, outputs, inits, opset=13):
    """(ModelProto, specs): inputs are (name, dims) with "N" symbolic, run
    at 2; initializers are (name, array)."""
    g = helper.make_graph(
        [helper.make_node(op, ins, outs, name=outs[0], **attrs)
         for op, ins, outs, attrs in nodes],
        "rule",
        [helper.make_tensor_value_info(n, TensorProto.FLOAT, dims) for n, dims in inputs],
        [helper.make_tensor_value_info(n, TensorProto.FLOAT, None) for n in outputs],
        [numpy_helper.from_array(np.asarray(a), n) for n, a in inits])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])
    specs = [{"name": n, "dtype": "float32",
              "shape": [{"N": 2, "L": 8}.get(d, d) for d in dims]} for n, dims in inputs]
    return m, specs


def i64(*v):
    return np.array(v, dtype=np.int64)


def gelu(x, y):
    """Gelu written out as PyTorch exports it, y = x (1 + erf(x / sqrt 2)) / 2:
    its nodes and constants."""
    nodes = [("Div", [x, "sqrt2"], ["D"], {}),
             ("Erf", ["D"], ["E"], {}),
             ("Add", ["E", "one"], ["F"], {}),
             ("Mul", [x, "F"], ["G"], {}),
             ("Mul", ["G", "half"], [y], {})]
    inits = [("sqrt2", np.array(1.4142135, dtype=np.float32)),
             ("one", np.array(1, dtype=np.float32)), ("half", np.array(0.5, dtype=np.float32))]
    return nodes, inits


def gated_residual(batch):
    inits = [("W1", weights(16, 16, 1, 1)), ("W2", weights(16, 16, 1, 1)),
             ("W3", weights(16, 16, 1, 1)), ("to", i64(-1, 16, 1, 1))]
    nodes = [("Conv", ["X", "W1"], ["A"], {}),
             ("GlobalAveragePool", ["A"], ["G"], {}),
             ("Reshape", ["G", "to"], ["R"], {}),
             ("Sigmoid", ["R"], ["S"], {}),
             ("Mul", ["A", "S"], ["M"], {}),
             ("Conv", ["M", "W2"], ["C"], {}),
             ("Conv", ["X", "W3"], ["B"], {}),
             ("Add", ["C", "B"], ["Y"], {}),
             ("Relu", ["Y"], ["Z"], {})]
    return build_model(nodes, [("X", [batch, 16, 8, 8])], ["Z"], inits)


@model
def reshape_minus1_batch():
    return gated_residual("N")


@model
def reshape_minus1_fixed():
    return gated_residual(2)


@model
def slice_computed_ends():
    inits = [("W1", weights(16, 16, 1, 1)), ("W2", weights(16, 16, 1, 1)),
             ("W3", weights(16, 16, 1, 1)), ("two", np.array(2, dtype=np.int64)),
             ("zero", i64(0)), ("axis", i64(2))]
    nodes = [("Conv", ["X", "W1"], ["A"], {}),
             ("Shape", ["A"], ["SH"], {}),
             ("Gather", ["SH", "two"], ["H"], {}),
             ("Unsqueeze", ["H", "zero"], ["E"], {}),
             ("Slice", ["A", "zero", "E", "axis"], ["P"], {}),
             ("Sigmoid", ["P"], ["S"], {}),
             ("Mul", ["A", "S"], ["M"], {}),
             ("Conv", ["M", "W2"], ["C"], {}),
             ("Conv", ["X", "W3"], ["B"], {}),
             ("Add", ["C", "B"], ["Y"], {})]
    return build_model(nodes, [("X", ["N", 16, 8, 8])], ["Y"], inits)


def pool_reshaped(opset):
    nodes = [("Conv", ["X", "W1"], ["A"], {}),
             ("Shape", ["A"], ["SH"], {}),
             ("Reshape", ["A", "SH"], ["R"], {}),
             ("Conv", ["R", "W2"], ["B"], {}),
             ("Concat", ["B", "A"], ["C"], {"axis": 1}),
             ("AveragePool", ["C"], ["P"], {"kernel_shape": [2, 2], "strides": [2, 2]}),
             ("Conv", ["P", "W3"], ["Y"], {})]
    return build_model(nodes, [("X", ["N", 16, 8, 8])], ["Y"],
                       [("W1", weights(16, 16, 1, 1)), ("W2", weights(16, 16, 1, 1)),
                        ("W3", weights(16, 32, 1, 1))], opset)


@model
def pool_reshaped_op13():
    return pool_reshaped(13)


@model
def pool_reshaped_op14():
    return pool_reshaped(14)


@model
def range_positions():
    inits = [("one", np.array(1, dtype=np.int64)), ("zero", np.array(0, dtype=np.int64)),
             ("table", weights(64, 16)), ("W", weights(16, 16)), ("G", weights(16)),
             ("B", weights(16))]
    nodes = [("Shape", ["X"], ["SH"], {}),
             ("Gather", ["SH", "one"], ["L"], {}),
             ("Range", ["zero", "L", "one"], ["POS"], {}),
             ("Gather", ["table", "POS"], ["P"], {}),
             ("Add", ["X", "P"], ["E"], {}),
             ("MatMul", ["E", "W"], ["F"], {}),
             ("Add", ["E", "F"], ["S"], {}),
             ("LayerNormalization", ["S", "G", "B"], ["Y"], {"axis": -1})]
    return build_model(nodes, [("X", ["N", "L", 16])], ["Y"], inits, 17)


@model
def skip_ln_bias():
    inits = [("W", weights(16, 16)), ("bias", weights(16)), ("G", weights(16)),
             ("B", weights(16))]
    nodes = [("MatMul", ["X", "W"], ["P"], {}),
             ("Add", ["bias", "P"], ["Q"], {}),
             ("Add", ["X", "Q"], ["S"], {}),
             ("LayerNormalization", ["S", "G", "B"], ["Y"], {"axis": -1})]
    return build_model(nodes, [("X", ["N", 8, 16])], ["Y"], inits, 17)


@model
def reshape_rounds():
    inits = [("idx1", np.array(1, dtype=np.int64)), ("ax0", i64(0)), ("m1", i64(-1)),
             ("c3", i64(3)), ("c16", i64(16)), ("c48", i64(48)), ("W0", weights(48, 48)),
             ("W1", weights(48, 64)), ("b", weights(64))]
    nodes = [("MatMul", ["X", "W0"], ["P"], {}),
             ("Shape", ["X"], ["SX"], {}),
             ("Gather", ["SX", "idx1"], ["D1"], {}),
             ("Unsqueeze", ["D1", "ax0"], ["U1"], {}),
             ("Concat", ["m1", "U1", "c3", "c16"], ["T1"], {"axis": 0}),
             ("Reshape", ["P", "T1"], ["R1"], {}),
             ("Sigmoid", ["R1"], ["S"], {}),
             ("Concat", ["m1", "U1", "c48"], ["T2"], {"axis": 0}),
             ("Reshape", ["S", "T2"], ["R2"], {}),
             ("MatMul", ["R2", "W1"], ["Q"], {}),
             ("Add", ["Q", "b"], ["QB"], {})]
    g_nodes, g_inits = gelu("QB", "Y")
    return build_model(nodes + g_nodes, [("X", ["N", 8, 48])], ["Y"], inits + g_inits)


@model
def reshape_rounds_transposed():
    inits = [("idx1", np.array(1, dtype=np.int64)), ("idx2", np.array(2, dtype=np.int64)),
             ("ax0", i64(0)), ("m1", i64(-1)), ("c3", i64(3)), ("c32", i64(32)),
             ("c96", i64(96)), ("W0", weights(32, 96)), ("G", weights(32)), ("B", weights(32))]
    nodes = [("MatMul", ["X", "W0"], ["P"], {}),
             ("Shape", ["X"], ["SX"], {}),
             ("Gather", ["SX", "idx1"], ["X1"], {}),
             ("Unsqueeze", ["X1", "ax0"], ["UX1"], {}),
             ("Gather", ["SX", "idx2"], ["X2"], {}),
             ("Unsqueeze", ["X2", "ax0"], ["UX2"], {}),
             ("Concat", ["m1", "UX1", "UX2", "c3", "c32"], ["T1"], {"axis": 0}),
             ("Reshape", ["P", "T1"], ["R1"], {}),
             ("Transpose", ["R1"], ["RT"], {"perm": [0, 2, 1, 3, 4]}),
             ("Transpose", ["X"], ["XT"], {"perm": [0, 2, 1, 3]}),
             ("Shape", ["XT"], ["ST"], {}),
             ("Gather", ["ST", "idx1"], ["T1d"], {}),
             ("Unsqueeze", ["T1d", "ax0"], ["UT1"], {}),
             ("Gather", ["ST", "idx2"], ["T2d"], {}),
             ("Unsqueeze", ["T2d", "ax0"], ["UT2"], {}),
             ("Concat", ["m1", "UT1", "UT2", "c96"], ["T2"], {"axis": 0}),
             ("Reshape", ["RT", "T2"], ["R2"], {}),
             ("LayerNormalization", ["XT", "G", "B"], ["LN"], {"axis": -1}),
             ("Relu", ["LN"], ["Y2"], {})]
    return build_model(nodes, [("X", ["N", 8, 16, 32])], ["R2", "Y2"], inits, 17)


def nhwc(residual):
    nodes = [("Conv", ["X", "W1"], ["A"], {}),
             ("Transpose", ["A"], ["T"], {"perm": [0, 2, 3, 1]}),
             ("ReduceMean", ["T"], ["MU"], {"axes": [-1]}),
             ("Sub", ["T", "MU"], ["D"], {})]
    output = "D"
    if residual:
        nodes += [("MatMul", ["D", "WM"], ["U"], {}), ("Add", ["T", "U"], ["Y"], {})]
        output = "Y"
    return build_model(nodes, [("X", [1, 16, 8, 8])], [output],
                       [("W1", weights(16, 16, 1, 1)), ("WM", weights(16, 16))])


@model
def nhwc_pushed():
    return nhwc(False)


@model
def nhwc_pushed_and_kept():
    return nhwc(True)


def times_reciprocal(num):
    nodes = [("Sqrt", ["X"], ["Q"], {}),
             ("Div", ["num", "Q"], ["R"], {}),
             ("Mul", ["X", "R"], ["Y"], {})]
    return build_model(nodes, [("X", ["N", 16])], ["Y"],
                       [("num", np.array(num, dtype=np.float32))])


@model
def div_mul_one():
    return times_reciprocal(1.0)


@model
def div_mul_two():
    return times_reciprocal(2.0)


def shared_scale(relu):
    nodes = [("Div", ["X", "four"], ["S"], {}),
             ("MatMul", ["S", "W1"], ["Y1"], {}),
             ("MatMul", ["S", "W2"], ["Y2"], {})]
    outputs = ["Y1", "Y2"]
    if relu:
        nodes.append(("Relu", ["S"], ["Y3"], {}))
        outputs.append("Y3")
    return build_model(nodes, [("X", ["N", 8, 16])], outputs,
                       [("W1", weights(16, 16)), ("W2", weights(16, 16)),
                        ("four", np.array(4, dtype=np.float32))])


@model
def scale_two_matmuls():
    return shared_scale(False)


@model
def scale_matmuls_relu():
    return shared_scale(True)


def padded_conv(empty_value):
    nodes = [("Pad", ["X", "pads", ""] if empty_value else ["X", "pads"], ["P"], {}),
             ("Conv", ["P", "W"], ["Y"], {"pads": [0, 0]})]
    return build_model(nodes, [("X", ["N", 16, 64])], ["Y"],
                       [("W", weights(16, 16, 3)), ("pads", i64(0, 0, 2, 0, 0, 2))])


@model
def pad_empty_value():
    return padded_conv(True)


@model
def pad_into_conv():
    return padded_conv(False)


def unshaped_gelu(declared):
    """Where(X >= 0, X, 0) (GreaterOrEqual-12 has no shape rule), then
    MatMul, a bias Add and Gelu written out; with `declared` the Where's
    output is also a graph output, its shape declared."""
    nodes = [("GreaterOrEqual", ["X", "zero"], ["C"], {}),
             ("Where", ["C", "X", "zero"], ["A"], {}),
             ("MatMul", ["A", "W"], ["P"], {}),
             ("Add", ["P", "b"], ["Q"], {})]
    inits = [("zero", np.array(0, dtype=np.float32)), ("W", weights(8, 16)), ("b", weights(16))]
    g_nodes, g_inits = gelu("Q", "Y")
    m, specs = build_model(nodes + g_nodes, [("X", ["N", 4, 8])], ["Y"], inits + g_inits)
    if declared:
        m.graph.output.append(helper.make_tensor_value_info("A", TensorProto.FLOAT, ["N", 4, 8]))
    return m, specs


@model
def unshaped_gelu_plain():
    return unshaped_gelu(False)


@model
def unshaped_gelu_declared():
    return unshaped_gelu(True)


@model
def split_of_96():
    """X [N, 8, 96] * 2 read by 96 Slices of one column each, summed."""
    nodes = [("Mul", ["X", "two"], ["M"], {})]
    inits = [("two", np.array(2, dtype=np.float32)), ("axis", i64(2))]
    for q in range(96):
        inits += [("s%d" % q, i64(q)), ("e%d" % q, i64(q + 1))]
        nodes.append(("Slice", ["M", "s%d" % q, "e%d" % q, "axis"], ["P%d" % q], {}))
    nodes.append(("Sum", ["P%d" % q for q in range(96)], ["Y"], {}))
    return build_model(nodes, [("X", ["N", 8, 96])], ["Y"], inits)


@model
def lstm_states_unshaped():
    """X [1, N, 6] through two LSTMs of hidden 8 whose initial states are
    sliced from H [2, 1, N, 8] reshaped to [2, N, 8] by a target made of
    Z's dims (ReshapeFusion cannot make it constant); the two Y_h
    concatenated to [2, N, 8], sliced into layers again and added."""
    nodes = [("Shape", ["Z"], ["ZS"], {}),
             ("Gather", ["ZS", "zero"], ["Z0"], {"axis": 0}),
             ("Unsqueeze", ["Z0", "zero_axis"], ["Z0U"], {}),
             ("Gather", ["ZS", "two_s"], ["Z2"], {"axis": 0}),
             ("Unsqueeze", ["Z2", "zero_axis"], ["Z2U"], {}),
             ("Concat", ["Z0U", "minus_one", "Z2U"], ["T"], {"axis": 0}),
             ("Reshape", ["H", "T"], ["H0"], {}),
             ("Slice", ["H0", "zero_axis", "one", "zero_axis"], ["H1"], {}),
             ("Slice", ["H0", "one", "two", "zero_axis"], ["H2"], {}),
             ("LSTM", ["X", "W1", "R1", "B1", "", "H1", "H1"], ["Y1", "Y1h", "Y1c"],
              {"hidden_size": 8}),
             ("Squeeze", ["Y1", "one"], ["X2"], {}),
             ("LSTM", ["X2", "W2", "R2", "B2", "", "H2", "H2"], ["Y2", "Y2h", "Y2c"],
              {"hidden_size": 8}),
             ("Concat", ["Y1h", "Y2h"], ["S"], {"axis": 0}),
             ("Slice", ["S", "zero_axis", "one", "zero_axis"], ["A"], {}),
             ("Slice", ["S", "one", "two", "zero_axis"], ["B"], {}),
             ("Add", ["A", "B"], ["Y"], {})]
    inits = [("zero", np.array(0, dtype=np.int64)), ("two_s", np.array(2, dtype=np.int64)),
             ("zero_axis", i64(0)), ("one", i64(1)), ("two", i64(2)), ("minus_one", i64(-1)),
             ("W1", weights(1, 32, 6)), ("R1", weights(1, 32, 8)), ("B1", weights(1, 64)),
             ("W2", weights(1, 32, 8)), ("R2", weights(1, 32, 8)), ("B2", weights(1, 64))]
    return build_model(nodes, [("X", [1, "N", 6]), ("H", [2, 1, "N", 8]), ("Z", [2, "N", 8])],
                       ["Y"], inits)


def expand_to_ones(x, inputs, nodes, inits):
    """nodes ending in Expand(x, ConstantOfShape([3]) of int64 ones) -> E,
    then Relu -> Y."""
    ones = numpy_helper.from_array(i64(1))
    nodes = nodes + [("ConstantOfShape", ["three"], ["T"], {"value": ones}),
                     ("Expand", [x, "T"], ["E"], {}),
                     ("Relu", ["E"], ["Y"], {})]
    return build_model(nodes, inputs, ["Y"], inits + [("three", i64(3))])


@model
def expand_ones():
    return expand_to_ones("S", [("X", ["N", 96, 7])],
                          [("Slice", ["X", "s0", "s1", "ax"], ["S"], {})],
                          [("s0", i64(0)), ("s1", i64(1)), ("ax", i64(1))])


@model
def expand_ones_input():
    return expand_to_ones("X", [("X", ["N", 96, 7])], [], [])


@model
def expand_ones_no_rank():
    nodes = [("Shape", ["X"], ["SX"], {}),
             ("Reshape", ["X", "SX"], ["R"], {}),
             ("Shape", ["R"], ["SR"], {}),
             ("ConstantOfShape", ["SR"], ["C"],
              {"value": numpy_helper.from_array(np.array([0], dtype=np.float32))}),
             ("Add", ["W", "C"], ["A"], {})]
    return expand_to_ones("A", [("X", ["N", 96, 7])], nodes, [("W", weights(1, 1, 7))])


@model
def tile_transposed():
    nodes = [("Transpose", ["X"], ["T1"], {"perm": [0, 2, 1]}),
             ("Tile", ["T1", "reps"], ["TT"], {}),
             ("Transpose", ["TT"], ["T2"], {"perm": [0, 2, 1]}),
             ("Relu", ["T2"], ["Y"], {})]
    return build_model(nodes, [("X", ["N", 16, 8])], ["Y"], [("reps", i64(1, 1, 2))])


@model
def tile_transposed_computed():
    nodes = [("Transpose", ["X"], ["T1"], {"perm": [0, 2, 1]}),
             ("Shape", ["R"], ["reps"], {}),
             ("Tile", ["T1", "reps"], ["TT"], {}),
             ("Transpose", ["TT"], ["T2"], {"perm": [0, 2, 1]}),
             ("Relu", ["T2"], ["Y"], {})]
    m, specs = build_model(nodes, [("X", ["N", 16, 8]), ("R", ["A", "B", "C"])], ["Y"], [])
    specs[1]["shape"] = [1, 1, 2]
    return m, specs


def shared_weight(also_output):
    nodes = [("Identity", ["K"], ["K2"], {}),
             ("Sub", ["X", "K"], ["D1"], {}),
             ("Sub", ["X", "K2"], ["D2"], {}),
             ("Mul", ["D1", "D1"], ["Q1"], {}),
             ("Mul", ["D2", "D2"], ["Q2"], {}),
             ("Add", ["Q1", "Q2"], ["Y"], {})]
    return build_model(nodes, [("X", ["N", 15, 3])], ["Y"] + (["K2"] if also_output else []),
                       [("K", weights(15, 3))])


@model
def identity_shared_weight():
    return shared_weight(False)


@model
def identity_shared_output():
    return shared_weight(True)


def build(name):
    """MODELS[name]() with the generator seeded by the name."""
    global rng
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    return MODELS[name]()
