#!/usr/bin/python3
"""measure_zoo.py - whole-model ONNX Runtime times of zoo architectures that
no fit has used, for scoring the plan and the timing model on them.

For each architecture (default: HELD below; or those named) it exports the
model with random weights at opset 13 with a symbolic batch (as
scripts/ort_graphs.py does) into build/zoo/, times it through
collector/ort_bench.js (which also profiles every kernel) at batch 1 with 1
intra-op thread (or --threads/--batches), and appends one JSON line per
(model, batch, threads) to data/machines/<fingerprint>/ort-cpu-zoo.jsonl:
the wall time and kernel-sum statistics, the spread, ORT's kernels, the
input dims, and the calibration kernel's time before and after.  Lines
already there are skipped.  Run on a quiet machine (no build, nothing else).

    OMP_WAIT_POLICY=PASSIVE /usr/bin/python3 scripts/measure_zoo.py
    OMP_WAIT_POLICY=PASSIVE /usr/bin/python3 scripts/measure_zoo.py --threads 1 2 swin_t

--corpus quant measures the quantized and reduced-precision corpus instead
(tests/data/gen_quant.py's models, rebuilt from their seeds, batch dim N
bound to each --batches), into ort-cpu-quant.jsonl unless --set says
otherwise.

--corpus real measures the real-world-style corpus (tests/data/corpus/, the
16 models of tests/data/gen_corpus.py, listed with their --dim bindings in
tests/data/corpus/expected.tsv) as the files are, into ort-cpu-real.jsonl
unless --set says otherwise; each line's "model" is the file's stem, so
`bench/zoo_accuracy.py --set real --models tests/data/corpus` scores it.
Each model's inputs are its graph inputs (initializers left out) with the
tsv's bindings applied to their symbolic dims (by name, the decoder's
'past_sequence_length + sequence_length' included).  The batch-like dim is
the symbolic first dim of the first input when the tsv binds it (batch or
N): --batches binds it to each value, default the tsv's value (2).  Models
with no symbolic dim (loop_const, loop_constant_body: h[1,32]) are measured
once, at their fixed shape, recorded as batch 1, whatever --batches says.
Integer inputs get values ORT accepts (collector/ort_bench.js draws them in
[0, bound)): an input used as Gather indices into an initializer or
Constant is bounded by that table's rows (the decoder's input_ids 64,
position_ids 128); one whose name says mask gets bound 2 (0/1); any other
keeps the driver's default (zeros).  Bool inputs are drawn 0/1 by the
driver (no corpus model has one: if_rank computes its condition).  A model
ORT cannot load or run is skipped with one line saying why.

--warmup N runs each pass N times untimed first (default 2).  A fresh
driver process pays a transient the graph does not: onnxruntime-node
copies each output into a new buffer every run, and until glibc's malloc
and V8's collector have settled, an output of some hundred KB or more
costs new pages (the quantized corpus's dq_matmul at batch 8, an output
of 512 KB, 1 thread: 1.4-1.6 ms a run in a fresh process, 0.17-0.22 ms
after 30 untimed runs or a few samples; its kernel 0.11-0.15 ms either
way).  --warmup 30 measures the steady state a serving process sees.

--quick (functional checks only, never for data): 3 runs (the driver's
least), no warm-up, one pass, into ort-cpu-SET-quick.jsonl.

    OMP_WAIT_POLICY=PASSIVE /usr/bin/python3 scripts/measure_zoo.py --corpus real --threads 1 2 --batches 2 16

--onnx FILE... measures your own networks as the files are (each run named
by the file's stem, its family the same), as --corpus real does: the first
input's symbolic first dim takes each --batches value (default 1), any
other symbolic dim its --dim NAME=VALUE.  With --out FILE the runs go
there; every line names the machine (its fingerprint).  Those runs are
what `onnxcost calibrate --runs FILE --models DIR` fits this machine's
in-graph factors on:

    OMP_WAIT_POLICY=PASSIVE /usr/bin/python3 scripts/measure_zoo.py --onnx nets/*.onnx \
        --dim seq=128 --threads 1 2 --batches 1 4 16 --out my-runs.jsonl
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
sys.path.insert(0, os.path.join(ROOT, "samples"))
import ort_graphs as OG  # noqa: E402  (the zoo and its export)
from corpus_io import check_kernel_line  # noqa: E402

sys.path.insert(0, os.path.join(ROOT, "tests", "data"))

# Architectures used in no fit (not in the in-graph fit, not among the
# models the timing model's overhead or the calibration was tuned on).
HELD = ["shufflenet_v2_x1_0", "mobilenet_v3_large", "mnasnet1_0", "regnet_y_400mf",
        "regnet_x_400mf", "efficientnet_b1", "convnext_tiny", "resnext50_32x4d",
        "inception_v3", "swin_t", "maxvit_t", "deeplabv3_mobilenet_v3_large",
        "lraspp_mobilenet_v3_large", "unet_small", "r3d_18", "tcn_kws", "bert_small",
        "vit_like", "swin_like", "mixer_like", "causal_gpt_tanh", "t5_small",
        "gru_tagger"]


def fingerprint(binary):
    return subprocess.run([binary, "hw", "--fingerprint"], capture_output=True, text=True,
                          check=True).stdout.strip()


class Zoo:
    """The architectures of scripts/ort_graphs.py (opset 13, symbolic batch)."""
    names = OG.ARCHS

    @staticmethod
    def family(name):
        return OG.ARCHS[name]["family"]

    @staticmethod
    def export(name, path):
        OG.onnx.save(OG.export(name, 13, True), path)

    @staticmethod
    def opset(name):
        return 13

    @staticmethod
    def inputs(name, b):
        values = OG.run_values(name)
        values["N"] = b
        specs = []
        for iname, dims, dtype, bound in OG.ARCHS[name]["inputs"]:
            s = {"name": iname, "dtype": dtype, "shape": OG.dims_of(dims, values)}
            if bound:
                s["bound"] = bound
            specs.append(s)
        return specs


class Quant:
    """tests/data/gen_quant.py's models, each rebuilt from its own seed
    (gen_quant.build) once; their specs are at batch 1, dim 0 is N."""

    def __init__(self):
        import gen_quant
        self.gq = gen_quant
        self.names = gen_quant.MODELS
        self.built = {}

    @staticmethod
    def family(name):
        return name.split("_")[0]

    def build(self, name):
        if name not in self.built:
            self.built[name] = self.gq.build(name)
        return self.built[name]

    def export(self, name, path):
        OG.onnx.save(self.build(name)[0], path)

    def opset(self, name):
        return next(o.version for o in self.build(name)[0].opset_import
                    if o.domain in ("", "ai.onnx"))

    def inputs(self, name, b):
        return [dict(s, shape=[b] + list(s["shape"][1:])) for s in self.build(name)[1]]


class Files:
    """ONNX files measured as they are: name -> path, and name -> the values
    of its symbolic dims (see the docstring above; the batch-like dim, the
    first input's symbolic first dim, takes each --batches value)."""
    unbound_hint = "give it with --dim NAME=VALUE"
    free_batch = True       # the batch-like dim need not be bound

    def __init__(self, paths, dims):
        self.paths, self.dims = paths, dims
        self.names = list(paths)
        self.loaded = {}

    @staticmethod
    def family(name):
        return name

    def path(self, name):
        return self.paths[name]

    def model(self, name):
        if name not in self.loaded:
            self.loaded[name] = OG.onnx.load(self.path(name))
        return self.loaded[name]

    def opset(self, name):
        return next(o.version for o in self.model(name).opset_import
                    if o.domain in ("", "ai.onnx"))

    def graph_inputs(self, name):
        g = self.model(name).graph
        inits = {i.name for i in g.initializer}
        return [i for i in g.input if i.name not in inits]

    def batch_dim(self, name):
        """The name of the batch-like dim (the first input's symbolic first
        dim, when it is bound or need not be), or None."""
        ins = self.graph_inputs(name)
        d = ins[0].type.tensor_type.shape.dim if ins else []
        if d and d[0].HasField("dim_param") and (self.free_batch or
                                                 d[0].dim_param in self.dims[name]):
            return d[0].dim_param
        return None

    def batches(self, name, asked):
        """The batch values to measure: the asked ones (else the dim's
        binding, else 1) when the model has a batch dim, else [1] (fixed
        shape)."""
        bd = self.batch_dim(name)
        if bd is None:
            return [1]
        return asked or [self.dims[name].get(bd, 1)]

    def bounds(self, name):
        """input name -> rows of the table it indexes (Gather indices into
        an initializer or Constant), the smallest when several."""
        g = self.model(name).graph
        rows = {i.name: i.dims[0] for i in g.initializer if i.dims}
        for n in g.node:
            if n.op_type == "Constant":
                for a in n.attribute:
                    if a.name == "value" and a.t.dims:
                        rows[n.output[0]] = a.t.dims[0]
        out = {}
        for n in g.node:
            axis = next((a.i for a in n.attribute if a.name == "axis"), 0)
            if n.op_type == "Gather" and axis == 0 and len(n.input) > 1 and n.input[0] in rows:
                out[n.input[1]] = min(out.get(n.input[1], rows[n.input[0]]), rows[n.input[0]])
        return out

    def inputs(self, name, b):
        values = dict(self.dims[name])
        bd = self.batch_dim(name)
        if bd is not None:
            values[bd] = b
        bounds = self.bounds(name)
        TP = OG.onnx.TensorProto
        dtypes = {TP.FLOAT: "float32", TP.DOUBLE: "float64", TP.FLOAT16: "float16",
                  TP.INT64: "int64", TP.INT32: "int32", TP.INT8: "int8", TP.UINT8: "uint8",
                  TP.BOOL: "bool"}
        specs = []
        for i in self.graph_inputs(name):
            t = i.type.tensor_type
            if t.elem_type not in dtypes:
                raise ValueError(f"input '{i.name}': element type "
                                 f"{TP.DataType.Name(t.elem_type)} not supported by the driver")
            shape = []
            for d in t.shape.dim:
                if d.HasField("dim_value"):
                    shape.append(d.dim_value)
                elif d.HasField("dim_param") and d.dim_param in values:
                    shape.append(values[d.dim_param])
                else:
                    raise ValueError(f"input '{i.name}': dim '{d.dim_param or '?'}' not bound "
                                     f"({self.unbound_hint})")
            s = {"name": i.name, "dtype": dtypes[t.elem_type], "shape": shape}
            if s["dtype"] in ("int64", "int32", "int8", "uint8"):
                if i.name in bounds:
                    s["bound"] = bounds[i.name]
                elif "mask" in i.name.lower():
                    s["bound"] = 2
            specs.append(s)
        return specs


class Real(Files):
    """tests/data/corpus/'s models as they are, with expected.tsv's --dim
    bindings (see the docstring above)."""
    dir = os.path.join(ROOT, "tests", "data", "corpus")
    unbound_hint = "by expected.tsv"
    free_batch = False

    def __init__(self):
        dims = {}
        for line in open(os.path.join(self.dir, "expected.tsv")):
            f = line.rstrip("\n").split("\t")
            if line.startswith("#") or f[0] in ("model", "") or len(f) < 2:
                continue
            dims[f[0][:-len(".onnx")]] = (
                {} if f[1] == "-" else {k: int(v) for k, v in
                                        (kv.rsplit("=", 1) for kv in f[1].split(","))})
        super().__init__({n: os.path.join(self.dir, n + ".onnx") for n in dims}, dims)

    @staticmethod
    def family(name):
        """cnn, encoder, lstm (every opset and cnn_constant), loop (both),
        else the model's own name."""
        f = name.split("_op")[0]
        return "cnn" if f == "cnn_constant" else "loop" if f.startswith("loop_") else f


def onnx_files(paths, bindings):
    """--onnx's files by stem, every one with --dim's bindings."""
    dims = {}
    for b in bindings:
        k, _, v = b.rpartition("=")
        if not k or not v.isdigit() or int(v) <= 0:
            sys.exit(f"measure_zoo: --dim {b}: not NAME=POSITIVE_INT")
        dims[k] = int(v)
    named = {}
    for p in paths:
        stem = os.path.basename(p)[:-len(".onnx")] if p.endswith(".onnx") else ""
        if not stem or not os.path.isfile(p):
            sys.exit(f"measure_zoo: --onnx {p}: not an .onnx file")
        if stem in named:
            sys.exit(f"measure_zoo: --onnx: two files named {stem}.onnx (runs are named by "
                     "the file's stem)")
        named[stem] = p
    return Files(named, {n: dims for n in named})


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("models", nargs="*")
    ap.add_argument("--threads", type=int, nargs="+", default=[1])
    ap.add_argument("--batches", type=int, nargs="+",
                    help="default 1 (--corpus real: expected.tsv's batch)")
    ap.add_argument("--bin", default=os.path.join(ROOT, "build", "onnxcost"))
    ap.add_argument("--set", help="file ort-cpu-SET.jsonl (default zoo, or quant with --corpus "
                    "quant; 'holdout' for the final hold-out, scored once)")
    ap.add_argument("--corpus", choices=["zoo", "quant", "real"], default="zoo")
    ap.add_argument("--onnx", nargs="+", metavar="FILE",
                    help="measure these ONNX files as they are (your own networks), each "
                    "run named by the file's stem; symbolic dims other than the batch from "
                    "--dim")
    ap.add_argument("--dim", action="append", default=[], metavar="NAME=VALUE",
                    help="--onnx: a symbolic dim's value (repeatable)")
    ap.add_argument("--out", help="write the runs here instead of "
                    "data/machines/<fingerprint>/ort-cpu-SET.jsonl")
    ap.add_argument("--warmup", type=int, default=2,
                    help="untimed runs before each pass (default 2; 30 reaches the steady state "
                    "of a process that has run the model a while; see the top of this file)")
    ap.add_argument("--quick", action="store_true", help="functional check only: 3 runs, no "
                    "warm-up, 1 pass, into ort-cpu-SET-quick.jsonl")
    args = ap.parse_args()
    if args.onnx and (args.models or args.corpus != "zoo"):
        sys.exit("measure_zoo: --onnx names the models itself (no --corpus, no names)")
    if args.dim and not args.onnx:
        sys.exit("measure_zoo: --dim goes with --onnx")
    if args.onnx:
        src = onnx_files(args.onnx, args.dim)
    else:
        src = {"quant": Quant, "real": Real, "zoo": Zoo}[args.corpus]()
    names = args.models or (HELD if args.corpus == "zoo" and not args.onnx else list(src.names))
    for n in names:
        if n not in src.names:
            sys.exit(f"measure_zoo: unknown {'architecture' if args.corpus == 'zoo' else 'model'} '{n}'")
    machine = fingerprint(args.bin)
    out = args.out or os.path.join(
        ROOT, "data", "machines", machine,
        f"ort-cpu-{args.set or args.corpus}{'-quick' if args.quick else ''}.jsonl")
    runs = (["--warmup", "0", "--repeats", "3", "--passes", "1"] if args.quick else
            ["--warmup", str(args.warmup), "--repeats", "7", "--passes", "2"])
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    done = set()
    if os.path.exists(out):
        for line in open(out):
            r = json.loads(line)
            done.add((r["model"], r["batch"], r["threads"]))
    mdir = os.path.join(ROOT, "build", "zoo")
    os.makedirs(mdir, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix="oc-zoo-")
    for name in names:
        if hasattr(src, "path"):        # measured as it is
            path = src.path(name)
        else:
            path = os.path.join(mdir, name + ".onnx")
            if not os.path.exists(path):
                src.export(name, path + ".tmp")
                os.replace(path + ".tmp", path)
        try:
            batches = src.batches(name, args.batches) if hasattr(src, "batches") else \
                (args.batches or [1])
        except Exception as e:          # a file onnx cannot read
            print(f"{name}: skipped: {type(e).__name__}: {str(e).splitlines()[0][:300]}")
            continue
        for threads in args.threads:
            for b in batches:
                if (name, b, threads) in done:
                    continue
                try:
                    specs = src.inputs(name, b)
                except ValueError as e:
                    print(f"{name} b{b} t{threads}: skipped: {e}")
                    continue
                man, res = os.path.join(tmp, "m.jsonl"), os.path.join(tmp, "r.jsonl")
                with open(man, "w") as f:
                    f.write(check_kernel_line(tmp))
                    f.write(json.dumps({"id": f"{name}/b{b}/t{threads}", "model": path,
                                        "inputs": specs}) + "\n")
                t0 = time.time()
                p = subprocess.run(["node", os.path.join(ROOT, "collector", "ort_bench.js"),
                                    "--threads", str(threads), "--in", man, "--out", res,
                                    "--max-seconds", "30"] + runs + ([] if threads == 1 else ["--no-spin"]),
                                   capture_output=True, text=True)
                if p.returncode != 0:
                    print(f"{name} b{b} t{threads}: driver failed: "
                          f"{(p.stderr.strip() or '?').splitlines()[0][:300]}")
                    continue
                lines = [json.loads(line) for line in open(res)]
                r = [x for x in lines if not x.get("calibration")][0]
                if not r.get("ok"):
                    print(f"{name} b{b} t{threads}: skipped: ORT: "
                          f"{(str(r.get('error')) or '?').splitlines()[0][:300]}")
                    continue
                rec = {"model": name, "machine": machine, "family": src.family(name),
                       "opset": src.opset(name),
                       "batch": b, "threads": threads, "spin": threads == 1,
                       "warmup": 0 if args.quick else args.warmup,
                       "inputs": specs, "ort_version": r["ort_version"],
                       "wall_us": r["wall_us"], "kernel_us": r["kernel_us"],
                       "spread": r.get("spread"), "kernels": r["kernels"],
                       "calib_us": [x.get("median_us") for x in lines if x.get("calibration")],
                       "collected": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
                with open(out, "a") as f:
                    f.write(json.dumps(rec) + "\n")
                print(f"{name} b{b} t{threads}: wall {r['wall_us']['median'] / 1e3:.2f} ms, "
                      f"{len(r['kernels'])} kernels, spread {r.get('spread')}, "
                      f"{time.time() - t0:.0f} s", flush=True)


if __name__ == "__main__":
    main()
