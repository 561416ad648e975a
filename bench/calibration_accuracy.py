#!/usr/bin/env python3
"""calibration_accuracy.py [--probe FILE] [--models FILE] [--threads 1,2]
[--budgets 30,90,180,...] [--mode inference|training] - what `onnxcost
calibrate` buys on a machine the built-in model never saw, against probe
budget.

The probe is nested: a budget of B seconds measures the first N(B) samples
of each family (cli/cmd_calibrate.c), so one long probe measured on a
machine holds every shorter one.  For each budget this cuts the probe to
what calibrate would have measured, fits it (calibrate --no-measure) and
scores the whole models measured on that machine (scripts/measure_models.py
or measure_training.py output) with predict's own totals: the figure a user
of that machine gets.  The models in FIT (the in-graph fit's) are listed
apart; the others were in no fit.  The first rows are what a machine with no
calibration of its own gets: the raw built-in model ("none", a machine
whose NCHWc block no shipped calibration has) and the shipped calibration
of the measured machine nearest this one ("nearest"); then what predict
does here out of the box."""
import argparse, gzip, json, os, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))
import eval_models as EM  # noqa: E402

# cli/cmd_calibrate.c's probe plan: weights and the cost model it sizes by.
WEIGHTS = {"conv": 4, "matmul": 2, "gemm": 2, "pool": 1, "batchnorm": 1, "layernorm": 1,
           "softmax": 1, "elementwise": 1, "activation": 1, "swish": 1, "reduce": 1,
           "concat": 1, "split": 1, "slice": 1, "transpose": 1, "reshape": 1, "resize": 1,
           "pad": 1, "gather": 1, "convtranspose": 1}
LABEL = {"batchnormalization": "batchnorm", "layernormalization": "layernorm"}


# cli/cmd_calibrate.c's ANCHOR_COST: seconds of whole networks a thread count.
ANCHOR_COST = 15.0


def units_for(budget, n_threads, training, anchors=True):
    fams = [f for f in WEIGHTS if not (training and f == "swish")]
    w = sum(WEIGHTS[f] for f in fams)
    sample, family = (1.0, 2.0) if training else (0.8, 1.5)
    per_thread = budget / n_threads - (ANCHOR_COST if anchors and not training else 0)
    return max(1, int((per_thread - len(fams) * family) / (w * sample)))


def cut(probe, out, units, threads):
    n = 0
    with gzip.open(out, "wt") as o:
        for line in gzip.open(probe, "rt"):
            d = json.loads(line)
            fam = d["family"].lower()
            fam = LABEL.get(fam, fam)
            idx = int(d["id"].rsplit("/", 1)[1])
            if d["target"]["threads"] in threads and idx < units * WEIGHTS.get(fam, 0):
                o.write(line)
                n += 1
    return n


def score(binary, models, training, threads, target):
    recs = [json.loads(l) for l in open(models)]
    recs = [r for r in recs if r["threads"] == threads]
    out = {"held-out": [], "fit": []}
    for r in recs:
        t = EM.predict(binary, None, r, training, target)
        meas = (r["step_us"]["best_pass_median"] if training else r["wall_us"]["median"]) / 1e3
        out["fit" if r["model"] in EM.FIT else "held-out"].append(abs(t["time_ms"] - meas) / meas)
    return out


def machine_of(models):
    """The fingerprint and ISA features of the machine that measured
    `models` (a folder named by its fingerprint): the description in its
    folder's hw.json (onnxcost hw -o), else in the project's hw.json of
    that fingerprint."""
    d = os.path.dirname(os.path.abspath(models))
    for hw in (os.path.join(d, "hw.json"),
               os.path.join(ROOT, "data", "machines", os.path.basename(d), "hw.json")):
        m = json.load(open(hw)).get("machine") if os.path.exists(hw) else None
        if m and m["id"] == os.path.basename(d):
            return m["id"], " ".join(m["isa"])
    raise SystemExit(f"calibration_accuracy: no hw.json for the machine of {models}")


def summ(v):
    if not v:
        return "-"
    return f"{100 * sum(v) / len(v):5.1f}% ({sum(1 for q in v if q <= 0.10)}/{len(v)} within 10%)"


def main():
    ap = argparse.ArgumentParser()
    fp = "cpu-AuthenticAMD-f26-m2"
    ap.add_argument("--binary", default=os.path.join(ROOT, "build", "onnxcost"))
    ap.add_argument("--mode", choices=["inference", "training"], default="inference")
    ap.add_argument("--probe", default=os.path.join(ROOT, "data", "machines", fp,
                                                   "ort-cpu-probe.jsonl.gz"))
    ap.add_argument("--models", default=os.path.join(ROOT, "..", "shared", "machines", fp,
                                                    "ort-cpu-models.jsonl"))
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--budgets", default="30,90,180,480")
    ap.add_argument("--anchors", help="whole-network runs for the in-graph scale (calibrate "
                    "--anchors; default: the machine's ort-cpu-anchors.jsonl when there is one)")
    ap.add_argument("--no-anchors", action="store_true")
    ap.add_argument("--hw", help="the machine's hardware profile (onnxcost hw -o FILE) for "
                    "calibrate --hw: its copy bandwidth and what a fresh page costs")
    a = ap.parse_args()
    training = a.mode == "training"
    if a.anchors is None and not a.no_anchors and not training:
        d = os.path.join(os.path.dirname(a.probe), "ort-cpu-anchors.jsonl")
        a.anchors = d if os.path.exists(d) else None
    if a.no_anchors:
        a.anchors = None
    threads = [int(t) for t in a.threads.split(",")]
    # predict as on the machine that measured the models, whatever runs this
    mfp, misa = machine_of(a.models)
    tmp = tempfile.mkdtemp(prefix="oc-calacc-")
    env = dict(os.environ, XDG_CACHE_HOME=os.path.join(tmp, "cache"))
    os.environ.update(env)
    print(f"probe {a.probe}\nanchors {a.anchors or '(none)'}\nwhole models {a.models}"
          f"\nmeasured on {mfp} ({misa})\n")
    print(f"{'budget':>8s} {'thr':>3s} {'kernels':>7s} {'probe err':>10s} {'after (LOO)':>11s}"
          f"   {'held-out models: MAPE':32s} {'fit models':s}")
    for th in threads:
        # Uncalibrated, as on a machine with no calibration of its own nor
        # of its kind: "none" the raw built-in model (a machine whose NCHWc
        # block no shipped calibration has), "nearest" the shipped
        # calibration of the measured machine nearest the models' machine's
        # ISA; "shipped": what predict uses there out of the box (a
        # calibration built in for its fingerprint, if there is one).
        os.environ["ONNXCOST_MACHINE"] = "cpu-uncalibrated-f0-m0"
        for row, isa in (("none", "avx2 fma"), ("nearest", misa)):
            os.environ["ONNXCOST_ISA"] = isa
            s = score(a.binary, a.models, training, th, None)
            print(f"{row:>8s} {th:3d} {'-':>7s} {'-':>10s} {'-':>11s}   "
                  f"{summ(s['held-out']):32s} {summ(s['fit'])}")
        os.environ.update(ONNXCOST_MACHINE=mfp, ONNXCOST_ISA=misa)
        s = score(a.binary, a.models, training, th, None)
        print(f"{'shipped':>8s} {th:3d} {'-':>7s} {'-':>10s} {'-':>11s}   {summ(s['held-out']):32s} "
              f"{summ(s['fit'])}")
        for b in [int(x) for x in a.budgets.split(",")]:
            u = units_for(b, len(threads), training, a.anchors is not None)
            sub = os.path.join(tmp, f"p{b}.jsonl.gz")
            n = cut(a.probe, sub, u, {th})
            cal = os.path.join(tmp, f"c{b}-{th}.json")
            p = subprocess.run([a.binary, "calibrate", "--no-measure", "--probe", sub,
                                "--threads", str(th), "-o", cal]
                               + (["--mode", "training"] if training else [])
                               + (["--hw", a.hw] if a.hw else [])
                               + (["--anchors", a.anchors] if a.anchors else ["--no-anchors"]),
                               capture_output=True, text=True)
            if p.returncode != 0:
                print(f"{b:8d} {th:3d} calibrate failed: {p.stderr.strip()}")
                continue
            f = json.load(open(cal))["threads"][0]
            s = score(a.binary, a.models, training, th, cal)
            print(f"{b:8d} {th:3d} {n:7d} {100 * f['median_error_before']:9.1f}% "
                  f"{100 * f['median_error_after_loo']:10.1f}%   {summ(s['held-out']):32s} "
                  f"{summ(s['fit'])}")


if __name__ == "__main__":
    main()
