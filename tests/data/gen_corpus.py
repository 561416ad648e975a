"""Writes tests/data/corpus/ (run with Debian's python3 with onnx and torch:
OMP_WAIT_POLICY=PASSIVE /usr/bin/python3 tests/data/gen_corpus.py [DIR]):
small models as real exporters write them, each with the facts
tests/corpus_test.sh checks, in DIR/expected.tsv:

  model    file name
  dims     the --dim bindings that bind every symbolic dim ("-": none)
  params   stored weight elements: every initializer and every Constant
           node's value, in the main graph and in subgraphs, counted here
           with numpy from the file (torch's sum(p.numel()) is checked
           against the float weights where the export keeps them as they are)
  outputs  name=AxBxC for each graph output at those bindings: from running
           the torch module, or from onnx's shape inference with the inputs
           made concrete, or (control flow, which onnx's inference merges
           over both branches) as stated below

torch.onnx.export (torch 1.13, eval mode, dynamic axes):
  cnn_opN        Conv-BN-ReLU, MaxPool, Conv-BN-ReLU, AdaptiveAvgPool, Linear
                 x[batch,3,height,width] (BN folded into the Conv)
  encoder_opN    nn.TransformerEncoderLayer(d 32, 4 heads, ff 64),
                 x[batch,seq,32]
  lstm_opN       nn.LSTM(16, 32) + Linear(32, 5), x[batch,seq,16]
  (N = 11, 13, 17)
  cnn_constant   cnn_op13 with every initializer a Constant node (as
                 paddle2onnx and spox write weights)
onnx.helper:
  decoder        a 2-layer decoder-only LLM as optimum exports one with past:
                 input_ids, position_ids [batch,sequence_length],
                 attention_mask [batch,past_sequence_length + sequence_length],
                 past_key_values.L.key/value [batch,4,past_sequence_length,8];
                 outputs logits [batch,sequence_length,64] and
                 present.L.key/value [batch,4,past+seq,8].  RMSNorm,
                 a causal mask built from shapes (Shape, Gather, Sub,
                 ConstantOfShape, Trilu), SiLU MLP.
  if_rank        gen_control's: If(Equal(Size(Shape(X)), 3)), decided by
                 the shapes: analysed as its else branch (Conv + Relu),
                 Y[N,8,16,16]; ORT keeps the If (X's dim 0 is symbolic)
                 and runs the branch inside it
  loop_const     gen_control's: Loop of 5 trips (an initializer): hy[1,32]
  loop_constant_body  loop_const with the body's weight a Constant node
                 inside the body
  fp16_io        gen_quant's float16 conversion (keep_io_types)
  dq_mlp         gen_quant's dynamic quantization (DynamicQuantizeLinear +
                 MatMulInteger), x[N,8,32] -> 64 -> Relu -> 32
"""
import io
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper, shape_inference

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen_control  # noqa: E402
import gen_quant  # noqa: E402

F, I64 = TensorProto.FLOAT, TensorProto.INT64
OPSETS = (11, 13, 17)


# ---- expected facts, from the file itself ----

def graphs(g):
    """g and every subgraph under it (If branches, Loop and Scan bodies)."""
    todo = [g]
    while todo:
        g = todo.pop()
        yield g
        todo += [s for n in g.node for a in n.attribute
                 for s in ([a.g] if a.HasField("g") else a.graphs)]


def constant_numel(n):
    for a in n.attribute:
        if a.name == "value":
            return numpy_helper.to_array(a.t).size
        if a.name in ("value_floats", "value_ints"):
            return len(a.floats) + len(a.ints)
        if a.name in ("value_float", "value_int"):
            return 1
    return 0


def stored_params(m):
    total = 0
    for g in graphs(m.graph):
        total += sum(numpy_helper.to_array(t).size for t in g.initializer)
        total += sum(constant_numel(n) for n in g.node
                     if n.op_type == "Constant" and n.domain in ("", "ai.onnx"))
    return total


def inferred_outputs(m, dims):
    """Output shapes from onnx's shape inference, the inputs made concrete."""
    c = onnx.ModelProto()
    c.CopyFrom(m)
    for v in c.graph.input:
        for d in v.type.tensor_type.shape.dim:
            if d.HasField("dim_param"):
                d.dim_value = dims[d.dim_param]
    for v in c.graph.output:
        v.type.tensor_type.ClearField("shape")
    del c.graph.value_info[:]
    c = shape_inference.infer_shapes(c, strict_mode=True, data_prop=True)
    out = {}
    for v in c.graph.output:
        ds = v.type.tensor_type.shape.dim
        assert all(d.HasField("dim_value") for d in ds), (m.graph.name, v)
        out[v.name] = [d.dim_value for d in ds]
    return out


ROWS = []


def record(out, name, m, dims, outputs):
    with open(os.path.join(out, name + ".onnx"), "wb") as f:
        f.write(m.SerializeToString())
    b = ",".join("%s=%d" % kv for kv in dims.items()) or "-"
    o = ";".join("%s=%s" % (k, "x".join(map(str, v))) for k, v in outputs.items())
    ROWS.append((name + ".onnx", b, stored_params(m), o))


# ---- torch exports ----

def torch_nets():
    import torch
    from torch import nn

    class Cnn(nn.Module):
        def __init__(self):
            super().__init__()
            self.f = nn.Sequential(
                nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.MaxPool2d(2),
                nn.Conv2d(8, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
                nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, 10))

        def forward(self, x):
            return self.f(x)

    class Lstm(nn.Module):
        def __init__(self):
            super().__init__()
            self.rnn = nn.LSTM(16, 32, batch_first=True)
            self.fc = nn.Linear(32, 5)

        def forward(self, x):
            y, (h, _) = self.rnn(x)
            return self.fc(y), h

    enc = lambda: nn.TransformerEncoderLayer(32, 4, 64, dropout=0.0, batch_first=True)
    # name -> (module, input names and example shapes with their dim names,
    #          output names, bindings, whether the float weights stay as torch has them)
    return torch, {
        "cnn": (Cnn, {"x": [("batch", 2), 3, ("height", 32), ("width", 24)]}, ["logits"],
                False),
        "encoder": (enc, {"x": [("batch", 2), ("seq", 7), 32]}, ["y"], True),
        "lstm": (Lstm, {"x": [("batch", 2), ("seq", 9), 16]}, ["y", "h"], True),
    }


def float_weights(m):
    n = 0
    for g in graphs(m.graph):
        n += sum(numpy_helper.to_array(t).size for t in g.initializer
                 if t.data_type == F and len(t.dims) > 0)
    return n


def export(torch, net, ins, outs, opset):
    torch.manual_seed(16)
    mod = net().eval()
    with torch.no_grad():  # trained weights differ: torch would share equal ones
        for p in mod.parameters():
            p.normal_(0.0, 0.2)
    args = tuple(torch.randn(*[d[1] if isinstance(d, tuple) else d for d in s])
                 for s in ins.values())
    axes = {k: {i: d[0] for i, d in enumerate(s) if isinstance(d, tuple)} for k, s in ins.items()}
    f = io.BytesIO()
    torch.onnx.export(mod, args, f, opset_version=opset, input_names=list(ins),
                      output_names=outs, dynamic_axes=axes)
    m = onnx.load_from_string(f.getvalue())
    m.producer_name = "pytorch"  # no version: the file stays the same across torch builds
    m.producer_version = ""
    with torch.no_grad():
        y = mod(*args)
    y = y if isinstance(y, tuple) else (y,)
    dims = {d[0]: d[1] for s in ins.values() for d in s if isinstance(d, tuple)}
    return mod, m, dims, {k: list(v.shape) for k, v in zip(outs, y)}


def as_constants(m):
    """Every initializer a Constant node at the front (paddle2onnx, spox)."""
    c = onnx.ModelProto()
    c.CopyFrom(m)
    g = c.graph
    consts = [helper.make_node("Constant", [], [t.name], name="const_" + t.name, value=t)
              for t in g.initializer]
    nodes = consts + list(g.node)
    del g.node[:]
    g.node.extend(nodes)
    names = {t.name for t in g.initializer}
    keep = [v for v in g.input if v.name not in names]
    del g.input[:]
    g.input.extend(keep)
    del g.initializer[:]
    return c


# ---- an LLM decoder with past key/values, as optimum exports one ----

def decoder():
    g = gen_quant.G()
    rng = np.random.default_rng(16)
    layers, heads, hd, vocab = 2, 4, 8, 64
    d = heads * hd
    w = lambda *s: g.init("w", (rng.standard_normal(s) * 0.05).astype(np.float32))
    i64 = lambda *v: g.init("c", np.array(v, dtype=np.int64))
    f32 = lambda v: g.init("c", np.array(v, dtype=np.float32))

    def rms(x):
        var = g.op("ReduceMean", [g.op("Pow", [x, f32(2.0)])], axes=[-1], keepdims=1)
        inv = g.op("Reciprocal", [g.op("Sqrt", [g.op("Add", [var, f32(1e-6)])])])
        return g.op("Mul", [g.op("Mul", [x, inv]), g.init("norm", np.ones(d, np.float32))])

    def heads_first(x):
        return g.op("Transpose", [g.op("Reshape", [x, i64(0, 0, heads, hd)])], perm=[0, 2, 1, 3])

    B, S, P = "batch", "sequence_length", "past_sequence_length"
    T = P + " + " + S
    inputs = [helper.make_tensor_value_info("input_ids", I64, [B, S]),
              helper.make_tensor_value_info("attention_mask", I64, [B, T]),
              helper.make_tensor_value_info("position_ids", I64, [B, S])]
    outputs = []
    h = g.op("Add", [g.op("Gather", [w(vocab, d), "input_ids"]),
                     g.op("Gather", [w(128, d), "position_ids"])])
    # the mask: padding (attention_mask) and causal (from the shapes)
    pad = g.op("Mul", [g.op("Sub", [f32(1.0), g.op("Cast", ["attention_mask"], to=F)]),
                       f32(-1e4)])
    pad = g.op("Unsqueeze", [pad, i64(1, 2)])
    sh = g.op("Shape", ["attention_mask"])
    total = g.op("Gather", [sh, i64(1)])
    seq = g.op("Gather", [g.op("Shape", ["input_ids"]), i64(1)])
    past = g.op("Sub", [total, seq])
    ones = g.op("ConstantOfShape", [g.op("Concat", [seq, total], axis=0)],
                value=numpy_helper.from_array(np.array([1.0], np.float32)))
    allowed = g.op("Trilu", [ones, g.op("Squeeze", [past])], upper=0)
    causal = g.op("Mul", [g.op("Sub", [f32(1.0), allowed]), f32(-1e4)])
    mask = g.op("Add", [pad, causal])
    for layer in range(layers):
        x = rms(h)
        q = heads_first(g.op("Add", [g.op("MatMul", [x, w(d, d)]), w(d)]))
        kv = []
        for kind in ("key", "value"):
            pname = "past_key_values.%d.%s" % (layer, kind)
            inputs.append(helper.make_tensor_value_info(pname, F, [B, heads, P, hd]))
            new = heads_first(g.op("Add", [g.op("MatMul", [x, w(d, d)]), w(d)]))
            present = "present.%d.%s" % (layer, kind)
            g.nodes.append(helper.make_node("Concat", [pname, new], [present],
                                            name="concat_" + present, axis=2))
            outputs.append(helper.make_tensor_value_info(present, F, [B, heads, T, hd]))
            kv.append(present)
        s = g.op("MatMul", [q, g.op("Transpose", [kv[0]], perm=[0, 1, 3, 2])])
        s = g.op("Softmax", [g.op("Add", [g.op("Mul", [s, f32(hd ** -0.5)]), mask])], axis=-1)
        a = g.op("Reshape", [g.op("Transpose", [g.op("MatMul", [s, kv[1]])], perm=[0, 2, 1, 3]),
                             i64(0, 0, d)])
        h = g.op("Add", [h, g.op("MatMul", [a, w(d, d)])])
        x = rms(h)
        up = g.op("MatMul", [x, w(d, 2 * d)])
        h = g.op("Add", [h, g.op("MatMul", [g.op("Mul", [up, g.op("Sigmoid", [up])]),
                                            w(2 * d, d)])])
    g.nodes.append(helper.make_node("MatMul", [rms(h), w(d, vocab)], ["logits"], name="lm_head"))
    outputs.insert(0, helper.make_tensor_value_info("logits", F, [B, S, vocab]))
    # present.* after logits, in layer order, as optimum writes them
    graph = helper.make_graph(g.nodes, "decoder", inputs, outputs, g.inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14)],
                             producer_name="onnxcost-tests")


def loop_constant_body():
    """loop_const with the body's weight a Constant node in the body."""
    m = onnx.ModelProto()
    m.CopyFrom(gen_control.MODELS["loop_const"])
    g = m.graph
    wm = next(t for t in g.initializer if t.name == "Wm")
    body = next(a.g for a in g.node[0].attribute if a.name == "body")
    nodes = [helper.make_node("Constant", [], ["Wm"], name="body_wm", value=wm)] + list(body.node)
    del body.node[:]
    body.node.extend(nodes)
    keep = [t for t in g.initializer if t.name != "Wm"]
    del g.initializer[:]
    g.initializer.extend(keep)
    return m


def dq_mlp():
    """gen_quant's dq_mlp at a tenth of its size: two dynamically quantized
    Linear layers (32 -> 64 -> 32) with a Relu between."""
    gen_quant.rng = np.random.default_rng(16)
    g = gen_quant.G()
    y = gen_quant.dq_linear(g, g.op("Relu", [gen_quant.dq_linear(g, "x", 32, 64)]), 64, 32)
    return gen_quant.finish(g, "dq_mlp", [gen_quant.vi("x", F, ["N", 8, 32])],
                            [gen_quant.vi(y, F, None)])


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "corpus")
    os.makedirs(out, exist_ok=True)
    torch, nets = torch_nets()
    for name, (net, ins, outs, plain) in nets.items():
        for opset in OPSETS:
            mod, m, dims, shapes = export(torch, net, ins, outs, opset)
            if plain:  # the export keeps every float weight as torch has it
                n = sum(p.numel() for p in mod.parameters())
                assert float_weights(m) == n, (name, opset, float_weights(m), n)
            record(out, "%s_op%d" % (name, opset), m, dims, shapes)
            if name == "cnn" and opset == 13:
                record(out, "cnn_constant", as_constants(m), dims, shapes)
    dims = {"batch": 2, "sequence_length": 3, "past_sequence_length": 5,
            "past_sequence_length + sequence_length": 8}
    m = decoder()
    onnx.checker.check_model(m)
    record(out, "decoder", m, dims, inferred_outputs(m, dims))
    record(out, "if_rank", gen_control.MODELS["if_rank"], {"N": 2}, {"Y": [2, 8, 16, 16]})
    record(out, "loop_const", gen_control.MODELS["loop_const"], {}, {"hy": [1, 32]})
    record(out, "loop_constant_body", loop_constant_body(), {}, {"hy": [1, 32]})
    m, _ = gen_quant.build("fp16_io")
    record(out, "fp16_io", m, {"N": 2}, inferred_outputs(m, {"N": 2}))
    m = dq_mlp()
    record(out, "dq_mlp", m, {"N": 2}, inferred_outputs(m, {"N": 2}))
    with open(os.path.join(out, "expected.tsv"), "w") as f:
        f.write("# written by tests/data/gen_corpus.py; see its docstring\n")
        f.write("model\tdims\tparams\toutputs\n")
        for r in ROWS:
            f.write("\t".join(map(str, r)) + "\n")


if __name__ == "__main__":
    main()
