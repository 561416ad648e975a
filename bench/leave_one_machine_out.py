#!/usr/bin/env python3
"""leave_one_machine_out.py [--binary B] [--budgets 30,90,180] - train on
every machine but one, calibrate on that one with the probe only (and its
anchor networks), score its whole models: issue 13's transfer figure, for
each machine this project measured.

The project has two machines with operator samples and whole-model runs:
  cpu-AuthenticAMD-unrecorded  the built-in model's training data, and
                               the reference models' whole runs
  cpu-AuthenticAMD-f26-m2      operator samples (seed 1, in no fit), and
                               on one host calibrate's default run (probe,
                               anchor runs) and the whole reference models
                               measured right after (in no fit)
The built-in model learns both machines' samples, so each base is trained
here on the other machine's samples alone, as scripts/train_default.sh
trains the built-in one (its operator samples and its in-graph samples;
onnxcost train, 5 members, build/lomo/, a few minutes each, once).
Leaving f26 out, that host's default probe is cut to each budget (180 s
is all of it).  Leaving unrecorded out, the probe is cut from
unrecorded's samples as calibrate draws it (the first N samples of every
family), since that machine can no longer be measured; its anchors are
its own whole runs of what calibrate times (the anchor networks at batch
1 and 4), not the held-out models' runs in the same file.  Scored: the
nine reference models that fit nothing (batch 1, 4, 16), predict's own
totals.  The in-graph samples of the machine trained on hold kernels of
those nine networks (as the built-in model's do): this scores the
transfer to a machine, not to an architecture."""
import argparse, gzip, json, os, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))
import calibration_accuracy as CA  # noqa: E402
import eval_models as EM  # noqa: E402

MACH = os.path.join(ROOT, "data", "machines")
F26, UNREC = "cpu-AuthenticAMD-f26-m2", "cpu-AuthenticAMD-unrecorded"
# training/anchors.c: the networks calibrate times, and at which batches
ANCHOR_NETS, ANCHOR_BATCHES = {"squeezenet1_1", "mobilenet_v2", "resnet18"}, {1, 4}


def calibrate_times(run):
    """Whether calibrate's anchor pass times this whole-model run."""
    return run["model"] in ANCHOR_NETS and run["batch"] in ANCHOR_BATCHES


def cut_samples(files, out, units):
    """calibrate's probe plan applied to a machine's operator samples."""
    n = 0
    with gzip.open(out, "wt") as o:
        for f in files:
            for line in gzip.open(f, "rt"):
                d = json.loads(line)
                fam = d["family"].lower()
                fam = CA.LABEL.get(fam, fam)
                if int(d["id"].rsplit("/", 1)[1]) < units * CA.WEIGHTS.get(fam, 0):
                    o.write(line)
                    n += 1
    return n


def score(binary, models, env, target, th):
    e = []
    for line in open(models):
        r = json.loads(line)
        if r["threads"] != th or r["model"] in EM.FIT:
            continue
        args = [binary, "predict", "-f", "json", "-b", str(r["batch"]), "-T", str(th),
                "--target", target]
        if r["model"] in EM.SEQ:
            args += ["--input", f"{EM.SEQ[r['model']]}={r['batch']}x128"]
        p = subprocess.run(args + [os.path.join(ROOT, "tests", "reference", "models",
                                                r["model"] + ".onnx")],
                           capture_output=True, text=True, env=env)
        if p.returncode:
            sys.exit(f"predict failed: {p.stderr.strip()}")
        t = json.loads(p.stdout)["totals"]["time_ms"]
        m = r["wall_us"]["median"] / 1e3
        e.append((t - m) / m)
    return f"{100 * sum(map(abs, e)) / len(e):5.1f}% ({sum(abs(x) <= .1 for x in e)}/{len(e)})"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", default=os.path.join(ROOT, "build", "onnxcost"))
    ap.add_argument("--budgets", default="30,90,180")
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="oc-lomo-")
    lomo = os.path.join(ROOT, "build", "lomo")
    os.makedirs(lomo, exist_ok=True)
    bases = {}
    for m in (F26, UNREC):
        bases[m] = os.path.join(lomo, m + ".tmodel")
        if not os.path.exists(bases[m]):
            print(f"training a model on {m}'s samples ...", flush=True)
            subprocess.run([a.binary, "train", "--hw", os.path.join(MACH, m, "hw.json"),
                            "--ensemble", "5", "-o", bases[m],
                            os.path.join(MACH, m, "ort-cpu-t1.jsonl.gz"),
                            os.path.join(MACH, m, "ort-cpu-t2.jsonl.gz"),
                            os.path.join(MACH, m, "ort-cpu-ingraph.jsonl.gz")],
                           check=True, capture_output=True)
    cases = [
        # left out, base model, probe source (real probe or samples), anchors, whole models
        # one host throughout: its default calibrate run and its whole models
        # (hosts of one fingerprint differ by up to a third)
        (F26, bases[UNREC], [os.path.join(MACH, F26, "ort-cpu-probe-default-run.jsonl.gz")], True,
         os.path.join(MACH, F26, "ort-cpu-anchors.jsonl"),
         os.path.join(MACH, F26, "ort-cpu-models.jsonl")),
        (UNREC, bases[F26], [os.path.join(MACH, UNREC, f"ort-cpu-t{t}.jsonl.gz") for t in (1, 2)],
         False, os.path.join(MACH, UNREC, "ort-cpu-models.jsonl"),
         os.path.join(MACH, UNREC, "ort-cpu-models.jsonl")),
    ]
    print(f"{'left out':28s} {'trained on':28s} {'budget':>6s} {'thr':>3s} {'probe':>5s}  "
          f"{'uncalibrated':16s} {'calibrated':16s}")
    for out, base, probe_src, real, anchors, models in cases:
        env = dict(os.environ, ONNXCOST_MACHINE=out, XDG_CACHE_HOME=os.path.join(tmp, "c"))
        trained = UNREC if out == F26 else F26
        if not all(os.path.exists(p) for p in probe_src + [anchors, models]):
            print(f"{out}: data missing ({', '.join(p for p in probe_src + [anchors, models] if not os.path.exists(p))})")
            continue
        if not real:
            # what calibrate would have timed there: its anchor networks at
            # its batches (the file holds every reference model's runs, and
            # the held-out ones must not fit what scores them)
            own = os.path.join(tmp, f"{out}-anchors.jsonl")
            with open(anchors) as f, open(own, "w") as o:
                o.writelines(line for line in f if calibrate_times(json.loads(line)))
            anchors = own
        for b in [int(x) for x in a.budgets.split(",")]:
            u = CA.units_for(b, 2, False)
            probe = os.path.join(tmp, f"{out}-{b}.jsonl.gz")
            if real:
                n = CA.cut(probe_src[0], probe, u, {1, 2})
            else:
                n = cut_samples(probe_src, probe, u)
            cal = os.path.join(tmp, f"{out}-{b}.json")
            args = [a.binary, "calibrate", "--no-measure", "--probe", probe, "--anchors", anchors,
                    "-o", cal, "--timing-model", base]
            p = subprocess.run(args, capture_output=True, text=True, env=env)
            if p.returncode:
                sys.exit(f"calibrate failed: {p.stderr.strip()}")
            # uncalibrated: as on the machine the base was trained on (no
            # calibration of the left-out machine applies)
            env0 = dict(env, ONNXCOST_MACHINE=trained)
            for th in (1, 2):
                print(f"{out:28s} {trained:28s} {b:6d} {th:3d} {n // 2:5d}  "
                      f"{score(a.binary, models, env0, base, th):16s} "
                      f"{score(a.binary, models, env, cal, th):16s}", flush=True)


if __name__ == "__main__":
    main()
