#!/usr/bin/env python3
"""training_zoo.py [--machine FP] [--target SPEC] [--bin ONNXCOST] - PyTorch
training steps of zoo architectures (scripts/measure_training.py --zoo)
against predict --mode training, per architecture and family, split into
the TUNE set (which may be looked at while changing the plan) and the HELD,
HELD2 and HELD3 sets (scored, not looked at; HELD and HELD2 have been
since), at each thread count:

- data/machines/<fp>/torch-cpu-zoo.jsonl: steps with glibc's defaults, as a
  user runs them, against predict's time and its range;
- torch-cpu-zoo-retain.jsonl: the same steps with freed memory kept,
  against predict's time less its page faults (totals.fault_ms).

--steps NAME scores data/machines/<fp>/NAME.jsonl instead (repeatable; a
name with "-retain" in it holds steps with freed memory kept), its rows
labelled by the file: a judge set measured on its own, as
`measure_training.py --zoo ... --out NAME.jsonl` writes it.

The graphs are build/train-zoo/NAME.onnx (measure_training.py --zoo exports
them); the inputs' shapes are the measured runs'."""
import argparse, json, os, subprocess, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# chosen before any of them was measured; TUNE may be looked at.  HELD's
# rows were looked at once the eleventh session's first change was scored;
# HELD2, measured after that, was not (its first score is with that change)
TUNE = {"bert_small", "vit_like", "mixer_like", "tabular_mlp", "t5_small"}
HELD = {"causal_gpt_tanh", "swin_like", "perceiver_like", "linear_attention_encoder",
        "conformer_like"}
HELD2 = {"moe_transformer", "gmlp_like", "set_transformer", "transformer_xl_like",
         "nystromformer", "llama_decoder"}
# chosen 2026-12-05 about 18:10 UTC (committed 18:53), before any was measured for
# training, to score the collector's in-network samples (twelfth session)
HELD3 = {"cbam_resnet", "ghostnet_like", "poolformer_like", "retnet_like", "synthesizer",
         "textcnn"}


def predict(binary, rec, target):
    path = os.path.join(ROOT, "build", "train-zoo", rec["model"] + ".onnx")
    if not os.path.exists(path):
        sys.exit(f"{path} missing (scripts/measure_training.py --zoo {rec['model']} exports it)")
    args = [binary, "predict", "--format", "json", "--mode", "training", "--optimizer",
            rec["optimizer"], "--threads", str(rec["threads"])]
    for i in rec["inputs"]:
        args += ["--input", i["name"] + "=" + "x".join(str(d) for d in i["shape"])]
    if target:
        args += ["--target", target]
    p = subprocess.run(args + [path], capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"{rec['model']}: predict failed: {p.stderr.strip()}")
    t = json.loads(p.stdout)["totals"]
    return t["time_ms"], t.get("fault_ms", 0.0), (t["time_ms_low"], t["time_ms_high"])


def summary(errs, covered=None):
    if not errs:
        return "-"
    s = (f"{100 * sum(errs) / len(errs):5.1f}% ({sum(e <= 0.10 for e in errs)}/{len(errs)} "
         f"within 10%")
    if covered:
        s += f"; the range holds {sum(covered)}/{len(covered)}"
    return s + ")"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--machine", default="cpu-AuthenticAMD-f26-m2")
    ap.add_argument("--target", help="predict --target (default: predict's own choice)")
    ap.add_argument("--bin", default=os.path.join(ROOT, "build", "onnxcost"))
    ap.add_argument("--set", choices=["tune", "held", "held2", "held3", "all"], default="tune",
                    help="whose rows to print (the summary has every set)")
    ap.add_argument("--steps", action="append", metavar="NAME",
                    help="score data/machines/<fp>/NAME.jsonl (every row printed) instead")
    a = ap.parse_args()
    d = os.path.join(ROOT, "data", "machines", a.machine)
    files = ([(n, "-retain" in n) for n in a.steps] if a.steps
             else [("torch-cpu-zoo", False), ("torch-cpu-zoo-retain", True)])
    for stem, kernels_only in files:
        path = os.path.join(d, stem + ".jsonl")
        if not os.path.exists(path):
            if a.steps:
                sys.exit(f"{path}: no such file")
            continue
        rows = [json.loads(line) for line in open(path)]
        print(f"== {stem}.jsonl: " + ("freed memory kept, against the kernels alone" if kernels_only
                                       else "glibc's defaults, against the whole step"))
        errs, covered = {}, {}
        for r in rows:
            t, fault, (low, high) = predict(a.bin, r, a.target)
            pred = t - fault if kernels_only else t
            meas = r["step_us"]["best_pass_median"] / 1e3
            e = abs(pred - meas) / meas
            which = (stem if a.steps else "tune" if r["model"] in TUNE
                     else "held" if r["model"] in HELD else "held2" if r["model"] in HELD2
                     else "held3" if r["model"] in HELD3 else "other")
            errs.setdefault((which, r["threads"]), []).append(e)
            if not kernels_only:    # the range is the whole step's
                covered.setdefault((which, r["threads"]), []).append(low <= meas <= high)
            if a.steps or a.set == "all" or a.set == which:
                print(f"  {which[:5]:5s} {r['model']:26s} {r['family']:20s} b{r['batch']:<3d} "
                      f"t{r['threads']} {r['optimizer']:4s} measured {meas:9.1f} ms  predicted "
                      f"{pred:9.1f} ms  {100 * (pred / meas - 1):+6.1f}%")
        for (which, th) in sorted(errs):
            print(f"  {which} at {th} thread{'s' if th > 1 else ''}: "
                  f"{summary(errs[(which, th)], covered.get((which, th)))}")
        print()


if __name__ == "__main__":
    main()
