#!/usr/bin/env python3
"""gen_scale.py KIND OUT [MB] - models for the scale test and benchmark.

  weights  a chain of MatMuls over [1, 4096] whose [4096, 4096] float
           initializers (64 MiB each, raw_data) add up to about MB
           megabytes (default 2048).  Protobuf's Python encoder stops at
           2 GiB, so the file is written field by field here: the graph's
           length is known from the parts before any weight is written.
  chain    a 100,000-node chain of Relu/Add/Mul over [1, 64] (MB unused).
  cse      100,000 LeakyRelu nodes of one input that differ only in alpha,
           summed (a CSE keyed without attribute values is quadratic).
"""
import sys
from onnx import TensorProto, helper


def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        out.append(b | (0x80 if n else 0))
        if not n:
            return bytes(out)


def field(num, payload_len):
    """Tag and length of a length-delimited field."""
    return varint(num << 3 | 2) + varint(payload_len)


def weights(out, mb):
    side = 4096
    each = side * side * 4
    count = max(1, (mb * 1048576 + each // 2) // each)
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, side])
    nodes, prev = [], "x"
    for i in range(count):
        nodes.append(helper.make_node("MatMul", [prev, "w%d" % i], ["t%d" % i],
                                      name="mm%d" % i))
        prev = "t%d" % i
    y = helper.make_tensor_value_info(prev, TensorProto.FLOAT, [1, side])
    graph = helper.make_graph(nodes, "g", [x], [y])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    g_bytes = graph.SerializeToString()
    model.ClearField("graph")
    m_bytes = model.SerializeToString()
    heads = []
    for i in range(count):
        t = TensorProto(name="w%d" % i, data_type=TensorProto.FLOAT, dims=[side, side])
        t_head = t.SerializeToString() + field(9, each)  # raw_data = 9
        heads.append(field(5, len(t_head) + each) + t_head)  # initializer = 5
    g_len = len(g_bytes) + sum(len(h) + each for h in heads)
    # a pattern, not zeros: nothing may be all-zero pages by accident
    chunk = bytes(range(256)) * (each // 256)
    with open(out, "wb") as f:
        f.write(m_bytes)
        f.write(field(7, g_len))  # ModelProto.graph = 7
        f.write(g_bytes)
        for h in heads:
            f.write(h)
            f.write(chunk)


def chain(out):
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 64])
    one = helper.make_tensor("one", TensorProto.FLOAT, [1], [1.0])
    nodes, prev = [], "x"
    ops = ("Relu", "Add", "Mul")
    for i in range(100000):
        op = ops[i % 3]
        ins = [prev] if op == "Relu" else [prev, "one"]
        nodes.append(helper.make_node(op, ins, ["t%d" % i], name="n%d" % i))
        prev = "t%d" % i
    y = helper.make_tensor_value_info(prev, TensorProto.FLOAT, [1, 64])
    m = helper.make_model(helper.make_graph(nodes, "g", [x], [y], [one]),
                          opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 8
    with open(out, "wb") as f:
        f.write(m.SerializeToString())


def cse(out):
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 64])
    n = 100000
    nodes = [helper.make_node("LeakyRelu", ["x"], ["r%d" % i], name="r%d" % i,
                              alpha=0.001 * (i + 1)) for i in range(n)]
    nodes.append(helper.make_node("Sum", ["r%d" % i for i in range(n)], ["y"], name="sum"))
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 64])
    m = helper.make_model(helper.make_graph(nodes, "g", [x], [y]),
                          opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 8
    with open(out, "wb") as f:
        f.write(m.SerializeToString())


if __name__ == "__main__":
    kind, out = sys.argv[1], sys.argv[2]
    if kind == "weights":
        weights(out, int(sys.argv[3]) if len(sys.argv) > 3 else 2048)
    elif kind == "chain":
        chain(out)
    elif kind == "cse":
        cse(out)
    else:
        sys.exit("gen_scale.py: unknown kind " + kind)
