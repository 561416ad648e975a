"""Writes tests/data/weights/ (run with Debian's python3-onnx:
/usr/bin/python3 tests/data/gen_weights.py): one small network whose weights
are stored three ways.  tests/weights_test.sh expects the same parameters,
weight bytes, activation peak and per-node params from each.

  init.onnx      every weight an initializer
  constant.onnx  every weight a Constant node: 'value' tensors, a
                 'value_floats' bias and a 'value_ints' shape, the MatMul's
                 weight a Transpose of a Constant, a Conv bias through an
                 Identity copy (as PyTorch exports shared weights)
  fp16.onnx      constant.onnx with the Conv weight stored as float16 and
                 Cast to float (a constant subgraph: Constant -> Cast)

X[N,3,8,8] -> Conv(W 4x3x3x3, B 4, pad 1) -> Relu -> Reshape [0,-1]
  -> MatMul(Transpose(W2 10x256)) -> Add(b 10) -> Y[N,10]
params: 108 + 4 + 2 + 2560 + 10 = 2684; bytes 4*2682 + 8*2 = 10744
(fp16.onnx: the Conv weight is 2 bytes an element: 10744 - 216 = 10528).
"""
import os
import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "weights")
os.makedirs(OUT, exist_ok=True)
rng = np.random.default_rng(16)
W = rng.standard_normal((4, 3, 3, 3)).astype(np.float32)
B = rng.standard_normal(4).astype(np.float32)
W2 = rng.standard_normal((10, 256)).astype(np.float32)
b = rng.standard_normal(10).astype(np.float32)
shape = np.array([0, -1], dtype=np.int64)

x = helper.make_tensor_value_info("X", TensorProto.FLOAT, ["N", 3, 8, 8])
y = helper.make_tensor_value_info("Y", TensorProto.FLOAT, ["N", 10])


def body(w="W", bias="B", w2t="W2t", shp="shape", b_="b"):
    return [
        helper.make_node("Conv", ["X", w, bias], ["C"], name="conv", pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["C"], ["R"], name="relu"),
        helper.make_node("Reshape", ["R", shp], ["F"], name="flatten"),
        helper.make_node("MatMul", ["F", w2t], ["M"], name="matmul"),
        helper.make_node("Add", ["M", b_], ["Y"], name="add"),
    ]


def save(name, nodes, inits=()):
    g = helper.make_graph(nodes, name.split(".")[0], [x], [y], list(inits))
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)],
                          producer_name="onnxcost-tests")
    onnx.checker.check_model(m)
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(m.SerializeToString())


# every weight an initializer (the MatMul's weight still a Transpose of one)
save("init.onnx",
     [helper.make_node("Transpose", ["W2"], ["W2t"], name="w2_t")] + body(),
     [numpy_helper.from_array(W, "W"), numpy_helper.from_array(B, "B"),
      numpy_helper.from_array(W2, "W2"), numpy_helper.from_array(b, "b"),
      numpy_helper.from_array(shape, "shape")])


def constants(w_nodes):
    return w_nodes + [
        helper.make_node("Constant", [], ["B0"], name="c_bias",
                         value=numpy_helper.from_array(B, "B0")),
        helper.make_node("Identity", ["B0"], ["B"], name="bias_copy"),
        helper.make_node("Constant", [], ["W2"], name="c_w2",
                         value=numpy_helper.from_array(W2, "W2")),
        helper.make_node("Transpose", ["W2"], ["W2t"], name="w2_t"),
        helper.make_node("Constant", [], ["shape"], name="c_shape",
                         value_ints=[int(v) for v in shape]),
        helper.make_node("Constant", [], ["b"], name="c_b",
                         value_floats=[float(v) for v in b]),
    ]


save("constant.onnx", constants([
    helper.make_node("Constant", [], ["W"], name="c_w",
                     value=numpy_helper.from_array(W, "W"))]) + body())
save("fp16.onnx", constants([
    helper.make_node("Constant", [], ["W16"], name="c_w16",
                     value=numpy_helper.from_array(W.astype(np.float16), "W16")),
    helper.make_node("Cast", ["W16"], ["W"], name="w_cast", to=TensorProto.FLOAT)]) + body())
