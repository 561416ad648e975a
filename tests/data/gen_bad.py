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

shape = helper.make_tensor("shape", TensorProto.INT64, [2], [-1, -1])
save("reshape_two_minus_one.onnx", helper.make_graph(
    [helper.make_node("Reshape", ["X", "shape"], ["Y"], name="reshape_bad")],
    "reshape", [x], [y], [shape]))

big = helper.make_tensor_value_info("B", TensorProto.FLOAT, [1 << 40, 1 << 40])
wb = helper.make_tensor_value_info("WB", TensorProto.FLOAT, [1 << 40, 1 << 40])
save("overflow.onnx", helper.make_graph(
    [helper.make_node("MatMul", ["B", "WB"], ["O"], name="matmul_huge")],
    "overflow", [big, wb], [helper.make_tensor_value_info("O", TensorProto.FLOAT, None)]))

with open(os.path.join(OUT, "nograph.onnx"), "wb") as f:
    f.write(helper.make_model(helper.make_graph([], "g", [], []))
            .SerializeToString()[:2])  # the ir_version field only
print("wrote", sorted(os.listdir(OUT)))
