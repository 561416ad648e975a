#!/usr/bin/env python3
"""eval_models.py [--mode inference|training] [--timing-model FILE]
[--fit-overhead OUT.json] - whole-model time predicted by onnxcost against
the runtime measured on this machine, with the linear-FLOPs and roofline
baselines side by side: inference against ONNX Runtime
(data/machines/cpu-AuthenticAMD-unrecorded/ort-cpu-models.jsonl, from scripts/measure_models.py, graphs in
tests/reference/models), or training steps against PyTorch
(data/machines/cpu-AuthenticAMD-unrecorded/torch-cpu-models.jsonl, from scripts/measure_training.py, graphs with
BatchNorm kept in tests/reference/train).

The per-run overhead (a + b per kernel, per thread count) is fitted on the
FIT models only; every other model is held out, and the figures that count
are the held-out ones.  --fit-overhead writes that fit
(data/<target>-overhead.json; scripts/train_default.sh stores it in the
timing model with 'onnxcost train --overhead FIT.json --embed MODEL')."""
import argparse, json, os, subprocess, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from corpus_io import write_json  # noqa: E402
FIT = {"resnet18", "mobilenet_v2", "squeezenet1_1"}
SEQ = {"bert_base": "input_ids", "gpt2_small": "input_ids"}


def predict(binary, tmodel, rec, training, target=None, machine=None):
    path = os.path.join(ROOT, "tests", "reference", "train" if training else "models",
                        rec["model"] + ".onnx")
    args = [binary, "predict", "--format", "json", "--batch", str(rec["batch"]),
            "--threads", str(rec["threads"])]
    if training:
        args += ["--mode", "training", "--optimizer", rec["optimizer"]]
    if tmodel:
        args += ["--timing-model", tmodel]
    if target:
        args += ["--target", target]
    if rec["model"] in SEQ:
        args += ["--input", f"{SEQ[rec['model']]}={rec['batch']}x128"]
    # as on the machine that measured rec (a timing model trained on
    # several machines predicts with that one's profile)
    env = dict(os.environ, ONNXCOST_MACHINE=machine) if machine else None
    p = subprocess.run(args + [path], capture_output=True, text=True, env=env)
    if p.returncode != 0:
        raise SystemExit(f"{rec['model']}: predict failed: {p.stderr.strip()}")
    t = json.loads(p.stdout)["totals"]
    return t


def lstsq2(xs, ys):
    n = len(xs)
    if n < 2:
        return (sum(ys) / max(n, 1), 0.0)
    mx, my = sum(xs) / n, sum(ys) / n
    vx = sum((x - mx) ** 2 for x in xs)
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / vx if vx else 0.0
    return (my - b * mx, b)


def in_graph_fit(sel):
    """measured = scale * predicted kernels + per_kernel * kernels, fitted on
    the FIT runs by least squares on relative error (each run weighs 1/measured^2).
    `scale` carries what a kernel costs inside a whole graph against the same
    kernel timed alone (warm thread pool, no reorders at every op, ...);
    per_kernel the executor's per-kernel overhead (kept >= 0)."""
    a11 = a12 = a22 = b1 = b2 = 0.0
    for x in sel:
        w = 1.0 / (x["meas"] ** 2)
        k, n, m = x["kernels_ms"], x["n"] / 1e3, x["meas"]
        a11 += w * k * k; a12 += w * k * n; a22 += w * n * n
        b1 += w * k * m; b2 += w * n * m
    det = a11 * a22 - a12 * a12
    if not sel or abs(det) < 1e-30:
        return 1.0, 0.0
    scale = (b1 * a22 - b2 * a12) / det
    per = (a11 * b2 - a12 * b1) / det
    if per < 0:  # no negative overhead: refit the scale alone
        per = 0.0
        scale = b1 / a11
    return scale, per


# Shape arithmetic and views as ORT runs them inside a graph (profiled
# kernels of these ops in the whole-model runs): predicted as one measured
# time per thread count (small_kernel_us), not by the timing model, whose
# samples ran them alone on graph inputs (a copy, not a view).
SMALL_OPS = {"Shape", "Gather", "Unsqueeze", "Squeeze", "Concat", "Reshape", "Slice", "Cast",
             "Range", "ConstantOfShape", "Equal", "Where", "Expand", "Flatten"}


def small_kernel_fit(recs):
    out = {}
    for th in sorted({r["threads"] for r in recs}):
        ts = sorted(k["median_us"] for r in recs if r["threads"] == th and r["batch"] == 1
                    for k in r.get("kernels", []) if k["op"] in SMALL_OPS)
        if ts:
            out[str(th)] = float(ts[len(ts) // 2])
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--timing-model")
    ap.add_argument("--binary", default=os.path.join(ROOT, "build", "onnxcost"))
    ap.add_argument("--mode", choices=["inference", "training"], default="inference")
    ap.add_argument("--data")
    ap.add_argument("--fit-overhead")
    ap.add_argument("--target", help="predict for this target (a calibration file, "
                    "NAME@MACHINE, ...) instead of the default")
    ap.add_argument("--as-predicted", action="store_true",
                    help="score predict's own total (its in-graph fit or the "
                    "calibration's) instead of refitting the overhead on the FIT "
                    "models of --data: the figure a user on that machine gets")
    ap.add_argument("--threads", type=int, help="only runs at this thread count")
    ap.add_argument("--machine", default="cpu-AuthenticAMD-unrecorded",
                    help="fingerprint written into --fit-overhead's file")
    a = ap.parse_args()
    training = a.mode == "training"
    data = a.data or os.path.join(ROOT, "data", "machines", a.machine,
                                  ("torch-cpu" if training else "ort-cpu")
                                  + "-models.jsonl")
    recs = [json.loads(l) for l in open(data)]
    # the measuring machine: data/machines/FINGERPRINT/..., else --machine
    folder = os.path.dirname(os.path.abspath(data))
    machine = (os.path.basename(folder)
               if os.path.basename(os.path.dirname(folder)) == "machines" else a.machine)
    if a.threads:
        recs = [r for r in recs if r["threads"] == a.threads]
    rows = []
    for r in recs:
        t = predict(a.binary, a.timing_model, r, training, a.target, machine)
        # raw kernel sum: the build's embedded in-graph fit undone
        kernels_ms = t["kernels_raw_ms"]
        rows.append(dict(r=r, kernels_ms=kernels_ms, overhead_ms=t["overhead_ms"],
                         n=t["kernels"], lin=t["linear_ms"] - t["overhead_ms"],
                         roof=t["roofline_ms"] - t["overhead_ms"], pred=t["time_ms"],
                         meas=(r["step_us"]["best_pass_median"] if training
                               else r["wall_us"]["median"]) / 1e3))
    # overhead fit per thread count on the FIT models: measured - predicted kernels
    fits = {}
    for th in sorted({x["r"]["threads"] for x in rows}):
        sel = [x for x in rows if x["r"]["model"] in FIT and x["r"]["threads"] == th]
        scale, per = in_graph_fit(sel)
        fits[str(th)] = {"kernel_scale": round(scale, 5), "per_kernel_us": round(per, 4)}
    if not training:
        for th, us in small_kernel_fit(recs).items():
            if th in fits:
                fits[th]["small_kernel_us"] = us
    if a.fit_overhead:
        doc = {"machine": a.machine, "fitted_on": sorted(FIT), "threads": fits}
        if not training:
            doc["small_kernel_fitted_on"] = sorted({r["model"] for r in recs})
        try:  # the whole-model range is bench/fit_range.py's, not this fit's
            with open(a.fit_overhead) as f:
                old = json.load(f)
            if "range" in old:
                doc["range"] = old["range"]
        except (OSError, ValueError):
            pass
        write_json(a.fit_overhead, doc)
    print(f"{'model':16s} {'b':>3s} {'t':>2s} {'opt':>4s} {'measured':>10s} {'onnxcost':>10s} {'err':>7s}"
          f" {'linear':>10s} {'err':>7s} {'roofline':>10s} {'err':>7s}")
    stats = {"held-out": {"ours": [], "lin": [], "roof": []}, "fit": {"ours": [], "lin": [], "roof": []}}
    for x in rows:
        r = x["r"]
        f = fits[str(r["threads"])]
        ovh = f["per_kernel_us"] * x["n"] / 1e3
        sc = f["kernel_scale"]
        # the baselines get the same per-kernel overhead, but no scale: they
        # are fitted on the single-kernel times as the paper's are
        ours, lin, roof = sc * x["kernels_ms"] + ovh, x["lin"] + ovh, x["roof"] + ovh
        if a.as_predicted:
            ours = x["pred"]
        e = lambda p: (p - x["meas"]) / x["meas"]
        group = "fit" if r["model"] in FIT else "held-out"
        for k, v in (("ours", ours), ("lin", lin), ("roof", roof)):
            stats[group][k].append(abs(e(v)))
        print(f"{r['model']:16s} {r['batch']:3d} {r['threads']:2d} {r.get('optimizer', '-'):>4s} {x['meas']:10.2f} {ours:10.2f} "
              f"{100 * e(ours):+6.1f}% {lin:10.2f} {100 * e(lin):+6.1f}% {roof:10.2f} {100 * e(roof):+6.1f}%"
              + ("  (fit)" if group == "fit" else ""))
    for g, s in stats.items():
        if not s["ours"]:
            continue
        def summ(v):
            return (f"MAPE {100 * sum(v) / len(v):5.1f}%, within 10%: "
                    f"{sum(1 for q in v if q <= 0.10)}/{len(v)}")
        print(f"{g:8s} onnxcost {summ(s['ours'])} | linear {summ(s['lin'])} | roofline {summ(s['roof'])}")
    if a.as_predicted:
        print("onnxcost column: predict's own totals (no refit on this data)")
    else:
        print("overhead fit:", json.dumps(fits))


if __name__ == "__main__":
    main()
