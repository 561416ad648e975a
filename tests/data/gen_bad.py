"""Writes the small hostile models of tests/data/bad/ (run with Debian's
python3-onnx: /usr/bin/python3 tests/data/gen_bad.py).  Each is a model that
a careless reader would mishandle; tests/cli_test.sh states the outcome."""
import os
import onnx
from onnx import TensorProto, helper

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bad")
os.makedirs(OUT, exist_ok=True)


def save(name, graph, opset=13):
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)],
                          producer_name="onnxcost-tests")
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(m.SerializeToString())


x = helper.make_tensor_value_info("X", TensorProto.FLOAT, ["N", 4])
y = helper.make_tensor_value_info("Y", TensorProto.FLOAT, ["N", 4])

save("cycle.onnx", helper.make_graph(
    [helper.make_node("Relu", ["Z"], ["Y"], name="relu_a"),
     helper.make_node("Relu", ["Y"], ["Z"], name="relu_b")], "cycle", [x], [y]))

save("undefined_input.onnx", helper.make_graph(
    [helper.make_node("Add", ["X", "ghost"], ["Y"], name="add_ghost")],
    "undefined", [x], [y]))

save("custom_op.onnx", helper.make_graph(
    [helper.make_node("Relu", ["X"], ["R"], name="relu"),
     helper.make_node("FancyOp", ["R"], ["S"], name="fancy", domain="com.example"),
     helper.make_node("Relu", ["X"], ["Y"], name="relu2")],
    "custom", [x], [y,
                    helper.make_tensor_value_info("S", TensorProto.FLOAT, None)]),
)

w = helper.make_tensor("W", TensorProto.FLOAT, [8, 5, 3, 3], [0.0] * (8 * 5 * 9))
save("conv_channels.onnx", helper.make_graph(
    [helper.make_node("Conv", ["X4", "W"], ["Y4"], name="conv_bad")],
    "channels", [helper.make_tensor_value_info("X4", TensorProto.FLOAT, [1, 3, 8, 8])],
    [helper.make_tensor_value_info("Y4", TensorProto.FLOAT, None)], [w]))

# a 1-D input against a 2-D kernel: ranks that do not match
save("conv_rank.onnx", helper.make_graph(
    [helper.make_node("Conv", ["X3", "W"], ["Y3"], name="conv_rank")],
    "rank", [helper.make_tensor_value_info("X3", TensorProto.FLOAT, [1, 5, 8])],
    [helper.make_tensor_value_info("Y3", TensorProto.FLOAT, None)], [w]))
# MatMul whose inner dims disagree
save("matmul_k.onnx", helper.make_graph(
    [helper.make_node("MatMul", ["P", "Q"], ["R"], name="matmul_k")],
    "k", [helper.make_tensor_value_info("P", TensorProto.FLOAT, ["N", 3]),
          helper.make_tensor_value_info("Q", TensorProto.FLOAT, [4, 5])],
    [helper.make_tensor_value_info("R", TensorProto.FLOAT, None)]))

shape = helper.make_tensor("shape", TensorProto.INT64, [2], [-1, -1])
save("reshape_two_minus_one.onnx", helper.make_graph(
    [helper.make_node("Reshape", ["X", "shape"], ["Y"], name="reshape_bad")],
    "reshape", [x], [y], [shape]))

big = helper.make_tensor_value_info("B", TensorProto.FLOAT, [1 << 40, 1 << 40])
wb = helper.make_tensor_value_info("WB", TensorProto.FLOAT, [1 << 40, 1 << 40])
save("overflow.onnx", helper.make_graph(
    [helper.make_node("MatMul", ["B", "WB"], ["O"], name="matmul_huge")],
    "overflow", [big, wb], [helper.make_tensor_value_info("O", TensorProto.FLOAT, None)]))

# element counts fit in 64 bits, but the MACs (2^66) do not
m1 = helper.make_tensor_value_info("A", TensorProto.FLOAT, [1 << 22, 1 << 22])
m2 = helper.make_tensor_value_info("B", TensorProto.FLOAT, [1 << 22, 1 << 22])
save("overflow_macs.onnx", helper.make_graph(
    [helper.make_node("MatMul", ["A", "B"], ["O"], name="matmul_macs")],
    "overflow_macs", [m1, m2], [helper.make_tensor_value_info("O", TensorProto.FLOAT, None)]))

with open(os.path.join(OUT, "nograph.onnx"), "wb") as f:
    f.write(helper.make_model(helper.make_graph([], "g", [], []))
            .SerializeToString()[:2])  # the ir_version field only
print("wrote", sorted(os.listdir(OUT)))


# --- nesting: a valid 300-deep If chain, and past-the-limit nestings ---
def nested_if(depth, name):
    xo = helper.make_tensor_value_info("X", TensorProto.FLOAT, ["N", 4])
    cond = helper.make_tensor_value_info("C", TensorProto.BOOL, [])
    def leaf():
        return helper.make_graph([helper.make_node("Relu", ["X"], ["r0"], name="leaf")],
                                 "leaf", [], [helper.make_tensor_value_info(
                                     "r0", TensorProto.FLOAT, None)])
    inner = leaf()
    for d in range(1, depth + 1):
        node = helper.make_node("If", ["C"], [f"r{d}"], name=f"if{d}",
                                then_branch=inner, else_branch=leaf())
        out = helper.make_tensor_value_info(f"r{d}", TensorProto.FLOAT, None)
        if d == depth:
            g = helper.make_graph([node], "main", [xo, cond], [out])
        else:
            inner = helper.make_graph([node], f"g{d}", [], [out])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(m.SerializeToString())


nested_if(300, "nested_if_300.onnx")
nested_if(400, "nested_if_400.onnx")  # 1200 message levels: over the limit


def varint(v):
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        out.append(b | (0x80 if v else 0))
        if not v:
            return bytes(out)


def field(num, payload):
    return varint(num << 3 | 2) + varint(len(payload)) + payload


# TypeProto.sequence_type (4) -> Sequence.elem_type (1) -> TypeProto ...,
# 100000 levels deep: enough to overflow a C stack in a recursive reader.
tp = field(1, varint(1 << 3) + varint(1))  # innermost: tensor_type {elem_type: 1}
for _ in range(100000):
    tp = field(4, field(1, tp))
graph = field(11, field(1, b"X") + field(2, tp)) + field(2, b"deep")
model = varint(1 << 3) + varint(8) + field(7, graph) + field(8, field(1, b"") + varint(2 << 3) + varint(13))
with open(os.path.join(OUT, "deep_type.onnx"), "wb") as f:
    f.write(model)
print("wrote nesting cases")


# --- issue 18: a node that gives an attribute twice (ONNX's checker refuses
# it; which one a runtime would take is not defined) ---
save("dup_attr.onnx", helper.make_graph(
    [helper.make_node("LeakyRelu", ["X"], ["Y"], name="leaky", alpha=0.1)],
    "dup_attr", [x], [y]))
m = onnx.load(os.path.join(OUT, "dup_attr.onnx"))
m.graph.node[0].attribute.extend([helper.make_attribute("alpha", 0.2)])
with open(os.path.join(OUT, "dup_attr.onnx"), "wb") as f:
    f.write(m.SerializeToString())
print("wrote dup_attr.onnx")
