#!/usr/bin/env python3
"""errors_test.py ONNXCOST SRCDIR - every command over bad inputs and bad
arguments (issue 18): each error must read right.

The bad inputs are tests/data/bad/ (gen_bad.py) and files made here, in a
temporary folder: empty, random and truncated bytes, text, a folder, a
missing file, absurd dims, mismatched types, external data that escapes the
model's folder or is missing, corrupt timing-model, calibration, dataset and
profile files.  Every command that reads them is run on each (info, analyze,
predict for inference and a training step, sweep, annotate, report,
compare, calibrate --no-measure, train, eval, targets), and every command
gets bad arguments (an unknown option, a missing value, bad numbers, names
the model does not have).

For each case that fails, stderr must be exactly one error line, perhaps
after warning lines ("onnxcost: warning: ..."), and that line must:
  start with "onnxcost: ";
  name the file it is about, where a file is involved;
  say nothing twice (no segment between ": " repeated; the file and a node
    named once);
  be whole: no "(null)", no printf conversion left over, no control
    characters, not cut at a buffer's length;
and the exit status must be the documented class: 1 usage, 2 bad input,
3 I/O.  A case may also succeed (a custom operator is predicted with the
node marked unknown): then only warning lines may be on stderr.  Prints
one line per failure and a summary; exit 1 on any failure."""
import gzip
import os
import random
import re
import subprocess
import sys
import tempfile

BIN, SRC = sys.argv[1], os.path.abspath(sys.argv[2])
TMP = tempfile.mkdtemp(prefix="oc-errors-")
ENV = dict(os.environ, XDG_CACHE_HOME=os.path.join(TMP, "cache"), ONNXCOST_NODE="/nonexistent/node")
SQ = os.path.join(SRC, "samples", "squeezenet1_1.onnx")
TINY = os.path.join(SRC, "samples", "tiny_encoder.onnx")
failures = []
cases = 0


def write(name, data, mode="wb"):
    p = os.path.join(TMP, name)
    with open(p, mode) as f:
        f.write(data)
    return p


def make_inputs():
    """name -> (path, expected exit classes, text the error line must hold)"""
    files = {}
    rnd = random.Random(18)
    files["missing"] = (os.path.join(TMP, "no-such-model.onnx"), {2, 3}, "no-such-model.onnx")
    files["empty"] = (write("empty.onnx", b""), {2}, "empty.onnx")
    files["random"] = (write("random.onnx", bytes(rnd.randrange(256) for _ in range(4096))), {2},
                       "random.onnx")
    data = open(os.path.join(SRC, "tests", "reference", "models", "resnet18.onnx"), "rb").read()
    files["truncated"] = (write("truncated.onnx", data[: len(data) // 2]), {2}, "truncated.onnx")
    files["text"] = (write("text.onnx", "this is not a model\n", "w"), {2}, "text.onnx")
    gz = gzip.compress(data)
    files["gz-truncated"] = (write("trunc.onnx.gz", gz[: len(gz) // 2]), {2},
                             "trunc.onnx.gz")
    deep = os.path.join(TMP, "a-folder-with-a-rather-long-name-" * 5)
    os.mkdir(deep)
    files["long-path"] = (write(os.path.join(deep, "truncated-model-in-a-deep-folder.onnx"),
                                data[:100]), {2}, None)
    os.mkdir(os.path.join(TMP, "folder.onnx"))
    files["folder"] = (os.path.join(TMP, "folder.onnx"), {2, 3}, "folder.onnx")
    for f in sorted(os.listdir(os.path.join(SRC, "tests", "data", "bad"))):
        files["bad/" + f] = (os.path.join(SRC, "tests", "data", "bad", f), {0, 2}, f)
    made = subprocess.run(["/usr/bin/python3", "-c", GEN, TMP], capture_output=True, text=True)
    if made.returncode != 0:
        sys.exit("errors_test: could not make the models: " + made.stderr.strip())
    for name in made.stdout.split():
        files["made/" + name] = (os.path.join(TMP, name), {0, 2}, name)
    return files


# Models built with onnx's helper (Debian python3-onnx).
GEN = r'''
import os, sys
import onnx
from onnx import TensorProto, helper, numpy_helper
import numpy as np
out = sys.argv[1]
def save(name, nodes, inputs, outputs, inits=(), opset=13):
    g = helper.make_graph(nodes, name, inputs, outputs, list(inits))
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])
    onnx.save(m, os.path.join(out, name + ".onnx"))
    print(name + ".onnx")
f = TensorProto.FLOAT
save("absurd_dims", [helper.make_node("Relu", ["X"], ["Y"], name="relu")],
     [helper.make_tensor_value_info("X", f, [10**15, 10**15, 10**15])],
     [helper.make_tensor_value_info("Y", f, None)])
save("wrong_types", [helper.make_node("Add", ["X", "I"], ["Y"], name="add_mixed")],
     [helper.make_tensor_value_info("X", f, [2, 3]),
      helper.make_tensor_value_info("I", TensorProto.INT64, [2, 3])],
     [helper.make_tensor_value_info("Y", f, None)])
save("negative_kernel", [helper.make_node("Conv", ["X", "W"], ["Y"], name="conv_neg",
                                          kernel_shape=[-3, 3])],
     [helper.make_tensor_value_info("X", f, [1, 3, 8, 8])],
     [helper.make_tensor_value_info("Y", f, None)],
     [numpy_helper.from_array(np.zeros((4, 3, 3, 3), np.float32), "W")])
save("gemm_mismatch", [helper.make_node("Gemm", ["X", "W"], ["Y"], name="gemm_k")],
     [helper.make_tensor_value_info("X", f, [2, 5])],
     [helper.make_tensor_value_info("Y", f, None)],
     [numpy_helper.from_array(np.zeros((7, 4), np.float32), "W")])
# a node name of 600 characters, in words, on a node that fails
save("long_name", [helper.make_node("Conv", ["X", "W"], ["Y"], name=" ".join(["block"] * 100))],
     [helper.make_tensor_value_info("X", f, [1, 3, 8, 8])],
     [helper.make_tensor_value_info("Y", f, None)],
     [numpy_helper.from_array(np.zeros((4, 5, 3, 3), np.float32), "W")])
for name, loc in (("ext_escape", "../../../../etc/passwd"), ("ext_missing", "weights.bin"),
                  ("ext_absolute", "/etc/passwd")):
    w = TensorProto(name="W", data_type=f, dims=[4, 4])
    w.data_location = TensorProto.EXTERNAL
    for k, v in (("location", loc), ("offset", "0"), ("length", "64")):
        e = w.external_data.add(); e.key = k; e.value = v
    save(name, [helper.make_node("MatMul", ["X", "W"], ["Y"], name="mm")],
         [helper.make_tensor_value_info("X", f, [2, 4])],
         [helper.make_tensor_value_info("Y", f, None)], [w])
'''


def segments(line):
    return [s for s in line.split(": ") if s]


def check(label, argv, classes, names=None, stdin=None):
    """Run argv; the result must be a success with only warnings on stderr
    (when 0 is in classes) or one well-formed error line."""
    global cases
    cases += 1
    try:
        p = subprocess.run(argv, capture_output=True, text=True, env=ENV, timeout=120,
                           stdin=subprocess.DEVNULL if stdin is None else stdin, errors="replace")
    except subprocess.TimeoutExpired:
        failures.append(f"{label}: no answer in 120 s")
        return
    lines = p.stderr.splitlines()
    # warnings and notes may come first; a success may say what it wrote
    info = ("onnxcost: warning: ", "onnxcost: note: ", "onnxcost: wrote ")
    warns = [l for l in lines if l.startswith(info)]
    errs = [l for l in lines if not l.startswith(info)]
    why = []
    if p.returncode < 0:
        why.append(f"killed by signal {-p.returncode}")
    elif p.returncode == 0:
        if 0 not in classes:
            why.append("succeeded")
        if errs:
            why.append(f"exit 0 with non-warning stderr {errs[:2]}")
    else:
        if p.returncode not in classes:
            why.append(f"exit {p.returncode}, expected {sorted(c for c in classes if c)}")
        if len(errs) != 1:
            why.append(f"{len(errs)} error lines")
        for e in errs[:1]:
            why += problems(e, names)
    if len(warns) > 3:
        why.append(f"{len(warns)} warning lines")
    for w in warns:
        why += [f"warning: {x}" for x in problems(w, None)]
    if why:
        failures.append(f"{label}: {'; '.join(why)}\n    stderr: {p.stderr.strip()[:400]!r}")


def problems(line, names):
    out = []
    if not line.startswith("onnxcost: "):
        out.append("does not start with 'onnxcost: '")
    for bad in ("(null)", "%s", "%d", "%zu", "%lld", "%g", "\x00"):
        if bad in line:
            out.append(f"holds {bad!r}")
    if re.search(r"[\x01-\x08\x0b-\x1f\x7f]", line):
        out.append("holds a control character")
    if len(line) in (255, 256, 319, 320, 511, 512, 1023, 1024) or len(line) > 1500:
        out.append(f"{len(line)} characters: cut at a buffer's size?")
    seg = segments(line)
    for a, b in zip(seg, seg[1:]):
        if a == b and len(a) > 3:
            out.append(f"says {a!r} twice in a row")
    for op in re.findall(r"\((\w+)\): (?=\1: )", line):
        out.append(f"names the op {op} twice")
    if line.endswith("...") and not line.endswith(" ..."):
        out.append("shortened in the middle of a word")
    if names and names.endswith(".onnx") and len(line) >= 1000:
        out.append("so long that the reason may be lost")
    for m in set(re.findall(r"node '[^']*'", line)):
        if line.count(m) > 1:
            out.append(f"names {m} {line.count(m)} times")
    if names:
        if names not in line:
            out.append(f"does not name {names!r}")
        elif line.count(names) > 1 and len(names) > 6:
            out.append(f"names {names!r} {line.count(names)} times")
    return out


def model_commands(path):
    out = os.path.join(TMP, "out")
    return [
        ("info", ["info", path]),
        ("analyze", ["analyze", "-b", "2", path]),
        ("analyze-json", ["analyze", "--format", "json", path]),
        ("predict", ["predict", "-b", "2", path]),
        ("predict-training", ["predict", "--mode", "training", "--optimizer", "adam", path]),
        ("sweep", ["sweep", path]),
        ("annotate", ["annotate", path, "-o", out + ".onnx"]),
        ("report", ["report", path, "-o", out + ".html"]),
        ("compare", ["compare", path, os.path.join(SRC, "tests", "data", "profiles",
                                                    "foreign.json")]),
    ]


def main():
    global cases
    inputs = make_inputs()
    for name, (path, classes, names) in inputs.items():
        for cname, args in model_commands(path):
            # compare may refuse the profile instead of the model
            nm = None if cname == "compare" else names
            cl = classes | ({2} if cname == "compare" else set())
            check(f"{cname} {name}", [BIN] + args, cl, nm)
    # standard input: bad bytes through '-'
    with open(inputs["random"][0], "rb") as f:
        check("predict - (random bytes)", [BIN, "predict", "-"], {2}, "<stdin>", stdin=f)

    # bad arguments: usage errors, exit 1, naming what was wrong
    commands = ["info", "analyze", "predict", "sweep", "annotate", "report", "compare",
                "calibrate", "train", "eval", "targets", "hw", "collect"]
    for c in commands:
        check(f"{c} --no-such-option", [BIN, c, "--no-such-option", SQ], {1}, "--no-such-option")
        check(f"{c} -Z", [BIN, c, "-Z", SQ], {1}, "-Z")
    for c, opt in (("analyze", "--batch"), ("predict", "--batch"), ("predict", "--threads"),
                   ("predict", "--target"), ("sweep", "--batch"), ("annotate", "-o"),
                   ("predict", "--input"), ("predict", "--dim"), ("calibrate", "--budget"),
                   ("eval", "--timing-model")):
        check(f"{c} {opt} (no value)", [BIN, c, opt], {1}, opt)
    for c in ("analyze", "predict", "sweep", "annotate", "report"):
        for bad in ("x", "-1", "0", "1e99", "99999999999999999999", "4x"):
            check(f"{c} --batch {bad}", [BIN, c, "--batch", bad, SQ], {1}, bad)
    for c in ("analyze", "predict", "sweep"):
        check(f"{c} --input unknown", [BIN, c, "--input", "nope=1x3x224x224", SQ], {1, 2}, "nope")
        check(f"{c} --input bad dims", [BIN, c, "--input", "input=1xqx3", SQ], {1}, "1xqx3")
        check(f"{c} --input no =", [BIN, c, "--input", "input", SQ], {1}, "input")
        check(f"{c} --dim unknown", [BIN, c, "--dim", "nope=3", SQ], {1, 2}, "nope")
        check(f"{c} --dim bad value", [BIN, c, "--dim", "N=-3", SQ], {1}, "-3")
    for bad in ("0", "-2", "x", "100000"):
        check(f"predict --threads {bad}", [BIN, "predict", "--threads", bad, SQ], {1, 2}, bad)
    check("predict --strict=1", [BIN, "predict", "--strict=1", SQ], {1}, "takes no value")
    check("sweep --help=3", [BIN, "sweep", "--help=3", SQ], {1}, "--help")
    check("predict --mode bogus", [BIN, "predict", "--mode", "bogus", SQ], {1}, "bogus")
    check("predict --optimizer bogus", [BIN, "predict", "--mode", "training", "--optimizer",
                                         "bogus", SQ], {1}, "bogus")
    check("predict --format bogus", [BIN, "predict", "--format", "bogus", SQ], {1}, "bogus")
    check("predict --baseline bogus", [BIN, "predict", "--baseline", "bogus", SQ], {1}, "bogus")
    check("sweep --batch bad list", [BIN, "sweep", "--batch", "1,x,4", SQ], {1}, "1,x,4")
    check("sweep --memory-limit bad", [BIN, "sweep", "--memory-limit", "lots", SQ], {1}, "lots")
    p = subprocess.run([BIN], capture_output=True, text=True, env=ENV)
    if p.returncode != 1 or not p.stderr.startswith("usage: onnxcost"):
        failures.append(f"no command: exit {p.returncode}, expected 1 and the usage")
    check("unknown command", [BIN, "frobnicate", SQ], {1}, "frobnicate")
    check("predict two models", [BIN, "predict", SQ, TINY], {1})
    check("predict no model", [BIN, "predict"], {1})

    # targets and timing models that are not there or not right
    corrupt = write("corrupt.json", "{\"format\": \"onnxcost-calibration\", \"threads\": [", "w")
    notjson = write("notjson.json", "hello", "w")
    badmodel = write("bad.tmodel", bytes(range(256)) * 4)
    emptymodel = write("empty.tmodel", b"")
    for lbl, t, cl, nm in (("missing target file", os.path.join(TMP, "none.json"), {1, 2, 3},
                            "none.json"),
                           ("unknown target name", "ort-gpu-9000", {1, 2}, "ort-gpu-9000"),
                           ("corrupt calibration", corrupt, {2}, "corrupt.json"),
                           ("calibration not JSON", notjson, {2}, "notjson.json"),
                           ("random timing model", badmodel, {2}, "bad.tmodel"),
                           ("empty timing model", emptymodel, {2}, "empty.tmodel")):
        check(f"predict --target {lbl}", [BIN, "predict", "--target", t, SQ], cl, nm)
        check(f"sweep --target {lbl}", [BIN, "sweep", "--target", t, SQ], cl, nm)
    check("predict --timing-model random", [BIN, "predict", "--timing-model", badmodel, SQ], {2},
          "bad.tmodel")
    check("predict --timing-model missing", [BIN, "predict", "--timing-model",
                                              os.path.join(TMP, "none.tmodel"), SQ], {2, 3},
          "none.tmodel")

    # datasets, probes and profiles
    empty_ds = write("empty.jsonl", b"")
    garbage_ds = write("garbage.jsonl", "{\"id\": 1\nnot json\n", "w")
    gz_garbage = write("garbage.jsonl.gz", b"\x1f\x8b\x08\x00garbage")
    for lbl, ds, nm in (("empty", empty_ds, "empty.jsonl"), ("garbage", garbage_ds, "garbage.jsonl"),
                        ("bad gzip", gz_garbage, "garbage.jsonl.gz"),
                        ("missing", os.path.join(TMP, "none.jsonl"), "none.jsonl")):
        check(f"train {lbl} dataset", [BIN, "train", "-o", os.path.join(TMP, "t.tmodel"), ds],
              {2, 3}, nm)
        check(f"eval {lbl} dataset", [BIN, "eval", "--timing-model", os.path.join(SRC, "data", "ort-cpu.tmodel"),
                                      ds], {2, 3}, nm)
        check(f"calibrate --no-measure {lbl} probe", [BIN, "calibrate", "--no-measure", "--probe",
                                                      ds, "-o", os.path.join(TMP, "c.json")],
              {2, 3}, nm)
    check("eval random timing model", [BIN, "eval", "--timing-model", badmodel,
                                       os.path.join(SRC, "data", "machines",
                                                    "cpu-AuthenticAMD-f26-m2",
                                                    "ort-cpu-probe.jsonl.gz")], {2}, "bad.tmodel")
    for lbl, prof, nm in (("empty", empty_ds, "empty.jsonl"), ("not JSON", notjson, "notjson.json"),
                          ("missing", os.path.join(TMP, "none-profile.json"), "none-profile.json")):
        check(f"compare {lbl} profile", [BIN, "compare", SQ, prof], {2, 3}, nm)
    check("calibrate --no-measure without --probe", [BIN, "calibrate", "--no-measure"], {1})
    check("calibrate --anchors garbage", [BIN, "calibrate", "--no-measure", "--probe",
                                          os.path.join(SRC, "data", "machines",
                                                       "cpu-AuthenticAMD-f26-m2",
                                                       "ort-cpu-probe.jsonl.gz"),
                                          "--anchors", garbage_ds, "-o",
                                          os.path.join(TMP, "c.json")], {2}, "garbage.jsonl")
    check("hw -o into a missing folder", [BIN, "hw", "-o", os.path.join(TMP, "no", "dir", "hw.json")],
          {3}, "hw.json")
    check("annotate -o into a missing folder", [BIN, "annotate", SQ, "-o",
                                                os.path.join(TMP, "no", "dir", "a.onnx")], {3},
          "a.onnx")

    # one short option, one meaning, in every command: cli_conventions_test.sh

    for f in failures:
        print("FAIL:", f)
    print(f"errors_test: {cases - len(failures)} passed, {len(failures)} failed "
          f"({cases} cases)")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
