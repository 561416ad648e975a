#!/usr/bin/env python3
"""page_faults.py [--machine FINGERPRINT] - how well onnxcost prices the page
faults of PyTorch training steps on a machine, from its measurements:

- data/machines/<fp>/torch-cpu-models-faults.jsonl: steps with glibc's
  default allocator and the minor page faults of each
  (scripts/measure_training.py),
- torch-cpu-models-retain.jsonl: the same steps with freed memory kept
  (--malloc retain: no faults),
- hw.json: what a fresh page costs there (onnxcost hw).

Prints, per thread count, (1) what a faulted MB cost the steps (their time
with glibc's defaults less with freed memory kept, over the MB faulted, for
steps that faulted 20 MB or more) beside hw.json's probe; (2) the fresh bytes
predict estimates (training_memory in its JSON) against the faulted bytes
measured, with the heap share as shipped (predict's own fresh_bytes,
predictor/memory.h's OC_FRESH_HEAP_SHARE) and fitted
leave-one-network-out (on the 1-thread SGD steps of the other networks, as
the shipped one was on all of them); (3) per step, measured and estimated."""
import argparse, json, math, os, subprocess, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def estimate(binary, rec):
    path = os.path.join(ROOT, "tests", "reference", "train", rec["model"] + ".onnx")
    p = subprocess.run([binary, "predict", "--format", "json", "--mode", "training",
                        "--optimizer", rec["optimizer"], "--batch", str(rec["batch"]), path],
                       capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"{rec['model']}: predict failed: {p.stderr.strip()}")
    m = json.loads(p.stdout)["totals"]["training_memory"]
    return m["fresh_large_bytes"], m["heap_churn_bytes"], m["fresh_bytes"]


def fit_share(rows):
    """The heap share minimising the mean |log(estimated / measured)|."""
    best = None
    for k in (x / 100 for x in range(1, 201)):
        e = sum(abs(math.log(max(r["large"] + k * r["churn"], 1e5) / max(r["faulted"], 1e5)))
                for r in rows)
        if best is None or e < best[1]:
            best = (k, e)
    return best[0]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--machine", default="cpu-AuthenticAMD-f26-m2")
    ap.add_argument("--binary", default=os.path.join(ROOT, "build", "onnxcost"))
    a = ap.parse_args()
    d = os.path.join(ROOT, "data", "machines", a.machine)
    hw = json.load(open(os.path.join(d, "hw.json")))
    rows = [json.loads(line) for line in open(os.path.join(d, "torch-cpu-models-faults.jsonl"))]
    kept = {(r["model"], r["batch"], r["threads"], r["optimizer"]): r["step_us"]["best_pass_median"]
            for r in map(json.loads, open(os.path.join(d, "torch-cpu-models-retain.jsonl")))}
    for r in rows:
        r["faulted"] = r["faults"]["best_pass_median"] * r["faults"]["page_bytes"]
        r["large"], r["churn"], r["fresh"] = estimate(a.binary, r)
    print(f"machine {a.machine}; hw.json: a fresh page costs {hw['fault_us_per_mb'] / 1e3:.2f} ms/MB "
          f"at 1 thread, {hw['fault_us_per_mb_n'] / 1e3:.2f} at {hw['max_threads']}\n")
    fit_rows = [r for r in rows if r["threads"] == 1 and r["optimizer"] == "sgd"]
    for th in sorted({r["threads"] for r in rows}):
        sel = [r for r in rows if r["threads"] == th]
        num = den = 0.0
        for r in sel:
            k = kept.get((r["model"], r["batch"], th, r["optimizer"]))
            if k and r["faulted"] >= 20e6:
                num += (r["step_us"]["best_pass_median"] - k) / 1e3
                den += r["faulted"] / 1e6
        if den:
            print(f"{th} thread{'s' if th > 1 else ''}: steps with glibc's defaults less with "
                  f"freed memory kept, over the MB faulted: {num / den:.2f} ms/MB")
        for label, fresh_of in (("shipped share", lambda r: r["fresh"]),
                                ("share leave-one-network-out",
                                 lambda r: r["large"] + r["churn"] * fit_share(
                                     [q for q in fit_rows if q["model"] != r["model"]]))):
            errs = sorted(abs(fresh_of(r) - r["faulted"]) / max(r["faulted"], 1) for r in sel)
            print(f"   fresh bytes, {label:28s}: median error {100 * errs[len(errs) // 2]:4.0f}%, "
                  f"within 30%: {sum(e <= 0.3 for e in errs)}/{len(errs)}")
    print(f"\n{'model':16s} {'batch':>5s} {'thr':>3s} {'opt':4s} {'faulted MB':>10s} "
          f"{'estimated':>9s} {'large':>7s}")
    for r in rows:
        print(f"{r['model']:16s} {r['batch']:5d} {r['threads']:3d} {r['optimizer']:4s} "
              f"{r['faulted'] / 1e6:10.1f} {r['fresh'] / 1e6:9.1f} {r['large'] / 1e6:7.1f}")


if __name__ == "__main__":
    main()
