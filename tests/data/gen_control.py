"""Writes tests/data/control/ (run with Debian's python3-onnx:
/usr/bin/python3 tests/data/gen_control.py [DIR]): small control-flow
models for tests/control_test.sh.  Each branch or body is a Conv+Relu
(ORT fuses them into FusedConv) or a MatMul+Relu, so the kernels that run
inside are known.

  if_const.onnx  X[1,3,16,16]; If(cond: initializer true)
                 then: Conv 8x3x3x3 + Relu; else: Relu       -> inlined
  if_rank.onnx   X[N,3,16,16]; If(Equal(Size(Shape(X)), 3))
                 then: Relu; else: Conv + Relu  -> the else branch runs,
                 known only once N is bound (the If stays a kernel)
  if_shape.onnx  X[N,3,16,16]; If(Equal(Gather(Shape(X), 0), 2)): N == 2
                 then: Cast(Shape(X)) to float; else: Cast(Shape(Shape(X)))
                 -> at --batch 2 the then branch; its Shape folds once N is
                 bound, but ORT optimises the branch at session creation,
                 where the condition is unknown too: Shape runs
  if_outer.onnx  X[1,8]; c = Add(a, b) of initializers (folds); If(cond:
                 initializer true) then: Y = Add(X, Mul(c, c)); else: Relu
                 -> the Mul of the folded outer c folds too: one Add runs
  if_input.onnx  X[1,3,16,16], c: bool input; If(c)          -> unknown
  loop_const.onnx  h[1,32]; Loop M=5 (initializer), no condition;
                 body: h = Relu(MatMul(h, W))   -> 5 x (MatMul, Relu)
  loop_input.onnx  the same with M a graph input             -> unknown
  scan.onnx      X[7,1,32] scanned on axis 0, state h[1,32];
                 body: h = Relu(MatMul(x, W) + h)  -> 7 x body
  branch.onnx    X[N,3,16,16] -> Conv + Relu: a branch as a model
  body.onnx      h[1,32] -> MatMul + Relu: the Loop's body as a model
"""
import os
import sys
import numpy as np
from onnx import TensorProto, helper, numpy_helper

MODELS = {}  # name -> ModelProto, built on import; written by main()
rng = np.random.default_rng(16)
W = numpy_helper.from_array(rng.standard_normal((8, 3, 3, 3)).astype(np.float32), "W")
WM = numpy_helper.from_array(rng.standard_normal((32, 32)).astype(np.float32), "Wm")
F = TensorProto.FLOAT
ANY4 = ["d0", "d1", "d2", "d3"]  # the branches differ in channels


def save(name, nodes, inputs, outputs, inits):
    g = helper.make_graph(nodes, name, inputs, outputs, inits)
    MODELS[name] = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)],
                                     producer_name="onnxcost-tests")


def conv_relu(tag):
    return helper.make_graph(
        [helper.make_node("Conv", ["X", "W"], [tag + "_c"], name=tag + "_conv",
                          pads=[1, 1, 1, 1]),
         helper.make_node("Relu", [tag + "_c"], [tag + "_y"], name=tag + "_relu")],
        tag, [], [helper.make_tensor_value_info(tag + "_y", F, ANY4)])


def relu(tag):
    return helper.make_graph(
        [helper.make_node("Relu", ["X"], [tag + "_y"], name=tag + "_relu")],
        tag, [], [helper.make_tensor_value_info(tag + "_y", F, ANY4)])


def if_node(cond, then_g, else_g):
    return helper.make_node("If", [cond], ["Y"], name="if", then_branch=then_g,
                            else_branch=else_g)


X1 = helper.make_tensor_value_info("X", F, [1, 3, 16, 16])
XN = helper.make_tensor_value_info("X", F, ["N", 3, 16, 16])
Y = helper.make_tensor_value_info("Y", F, ANY4)
true = numpy_helper.from_array(np.array(True), "cond")
save("if_const", [if_node("cond", conv_relu("then"), relu("else"))], [X1], [Y], [W, true])
three = numpy_helper.from_array(np.array(3, dtype=np.int64), "three")
save("if_rank",
     [helper.make_node("Shape", ["X"], ["s"], name="shape"),
      helper.make_node("Size", ["s"], ["r"], name="size"),
      helper.make_node("Equal", ["r", "three"], ["cond"], name="equal"),
      if_node("cond", relu("then"), conv_relu("else"))], [XN], [Y], [W, three])
two = numpy_helper.from_array(np.array(2, dtype=np.int64), "two")
zero = numpy_helper.from_array(np.array(0, dtype=np.int64), "zero")


def shape_cast(tag, twice):
    nodes = [helper.make_node("Shape", ["X"], [tag + "_s"], name=tag + "_shape")]
    if twice:
        nodes.append(helper.make_node("Shape", [tag + "_s"], [tag + "_s2"], name=tag + "_shape2"))
    nodes.append(helper.make_node("Cast", [nodes[-1].output[0]], [tag + "_y"], name=tag + "_cast",
                                  to=F))
    return helper.make_graph(nodes, tag, [], [helper.make_tensor_value_info(tag + "_y", F, ["k"])])


save("if_shape",
     [helper.make_node("Shape", ["X"], ["s"], name="shape"),
      helper.make_node("Gather", ["s", "zero"], ["n"], name="gather", axis=0),
      helper.make_node("Equal", ["n", "two"], ["cond"], name="equal"),
      helper.make_node("If", ["cond"], ["Y"], name="if", then_branch=shape_cast("then", False),
                       else_branch=shape_cast("else", True))],
     [XN], [helper.make_tensor_value_info("Y", F, ["k"])], [two, zero])
A8 = numpy_helper.from_array(np.ones(8, np.float32), "a")
B8 = numpy_helper.from_array(np.full(8, 2, np.float32), "b")
outer_then = helper.make_graph(
    [helper.make_node("Mul", ["c", "c"], ["cc"], name="then_mul"),
     helper.make_node("Add", ["X", "cc"], ["then_y"], name="then_add")],
    "then", [], [helper.make_tensor_value_info("then_y", F, [1, 8])])
outer_else = helper.make_graph(
    [helper.make_node("Relu", ["X"], ["else_y"], name="else_relu")],
    "else", [], [helper.make_tensor_value_info("else_y", F, [1, 8])])
save("if_outer",
     [helper.make_node("Add", ["a", "b"], ["c"], name="fold_add"),
      helper.make_node("If", ["cond"], ["Y"], name="if", then_branch=outer_then,
                       else_branch=outer_else)],
     [helper.make_tensor_value_info("X", F, [1, 8])],
     [helper.make_tensor_value_info("Y", F, [1, 8])], [A8, B8, true])
save("if_input", [if_node("c", conv_relu("then"), relu("else"))],
     [X1, helper.make_tensor_value_info("c", TensorProto.BOOL, [])], [Y], [W])


def loop_body():
    return helper.make_graph(
        [helper.make_node("MatMul", ["h_in", "Wm"], ["mm"], name="body_matmul"),
         helper.make_node("Relu", ["mm"], ["h_out"], name="body_relu"),
         helper.make_node("Identity", ["cond_in"], ["cond_out"], name="body_cond")],
        "body",
        [helper.make_tensor_value_info("i", TensorProto.INT64, []),
         helper.make_tensor_value_info("cond_in", TensorProto.BOOL, []),
         helper.make_tensor_value_info("h_in", F, [1, 32])],
        [helper.make_tensor_value_info("cond_out", TensorProto.BOOL, []),
         helper.make_tensor_value_info("h_out", F, [1, 32])])


H = helper.make_tensor_value_info("h", F, [1, 32])
HY = helper.make_tensor_value_info("hy", F, [1, 32])
five = numpy_helper.from_array(np.array(5, dtype=np.int64), "trips")
loop = helper.make_node("Loop", ["trips", "", "h"], ["hy"], name="loop", body=loop_body())
save("loop_const", [loop], [H], [HY], [five, WM])
save("loop_input", [loop], [H, helper.make_tensor_value_info("trips", TensorProto.INT64, [])],
     [HY], [WM])

scan_body = helper.make_graph(
    [helper.make_node("MatMul", ["x_t", "Wm"], ["xm"], name="scan_matmul"),
     helper.make_node("Add", ["xm", "s_in"], ["sum"], name="scan_add"),
     helper.make_node("Relu", ["sum"], ["s_out"], name="scan_relu"),
     helper.make_node("Identity", ["s_out"], ["y_t"], name="scan_copy")],
    "scan_body",
    [helper.make_tensor_value_info("s_in", F, [1, 32]),
     helper.make_tensor_value_info("x_t", F, [1, 32])],
    [helper.make_tensor_value_info("s_out", F, [1, 32]),
     helper.make_tensor_value_info("y_t", F, [1, 32])])
save("scan",
     [helper.make_node("Scan", ["h", "xs"], ["hy", "ys"], name="scan", body=scan_body,
                       num_scan_inputs=1)],
     [H, helper.make_tensor_value_info("xs", F, [7, 1, 32])],
     [HY, helper.make_tensor_value_info("ys", F, [7, 1, 32])], [WM])

br = conv_relu("then")
save("branch", list(br.node), [XN], [helper.make_tensor_value_info("then_y", F, ANY4)], [W])
save("body", list(loop_body().node)[:2], [helper.make_tensor_value_info("h_in", F, [1, 32])],
     [helper.make_tensor_value_info("h_out", F, [1, 32])], [WM])


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "control")
    os.makedirs(out, exist_ok=True)
    for name, m in MODELS.items():
        with open(os.path.join(out, name + ".onnx"), "wb") as f:
            f.write(m.SerializeToString())


if __name__ == "__main__":
    main()
