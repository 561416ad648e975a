#!/usr/bin/python3
"""measure_training.py [--optimizer sgd|adam]... [--threads 1,2] [--models LIST]
[--batches 1,4,16]
- whole reference models' training steps in PyTorch (CPU), for the whole-model evaluation of the
torch-cpu timing model and its in-graph fit.

For each architecture: the torchvision / samples/export.py model with random
weights in train() mode, one step = forward, cross-entropy loss against
random labels, backward, optimizer step (SGD lr 0.01 momentum 0.9, or Adam
lr 1e-3: the optimizers of collector/torch_bench.py), zero_grad.  Timed at
batch 1, 4 and 16 on 1 and 2 intra-op threads (--threads) with
OMP_WAIT_POLICY=PASSIVE: two
warm-up steps, then PASSES passes of REPEATS steps with the configurations
interleaved (every configuration's pass 1, then every pass 2); the figure is
the quickest pass's median, the spread (max - min) / min over all timed
steps.  A fixed calibration matmul is timed before and after each pass.

Also exports each architecture's graph (weights deleted) with BatchNorm
kept (a training graph: TrainingMode.PRESERVE in eval mode, so that the
exporter does not fold BN into the Conv) to tests/reference/train/, the
graphs bench/eval_models.py --mode training predicts.

Appends one JSON line per (model, batch, threads, optimizer) to
data/machines/<fingerprint>/torch-cpu-models.jsonl; configurations already there are skipped.
Run on a quiet machine, with /usr/bin/python3."""
import argparse, json, os, statistics, subprocess, sys, time

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
import torch  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "samples"))
import export as E  # noqa: E402

# Every machine's measurements in its own folder, named by its fingerprint.
FINGERPRINT = subprocess.run([os.environ.get("OC_BIN", os.path.join(ROOT, "build", "onnxcost")),
                              "hw", "--fingerprint"], capture_output=True, text=True,
                             check=True).stdout.strip()
OUT = os.path.join(ROOT, "data", "machines", FINGERPRINT, "torch-cpu-models.jsonl")
os.makedirs(os.path.dirname(OUT), exist_ok=True)
GRAPHS = os.path.join(ROOT, "tests", "reference", "train")
SETS = {
    "squeezenet1_1": [1, 4, 16],
    "mobilenet_v2": [1, 4, 16],
    "resnet18": [1, 4, 16],
    "efficientnet_b0": [1, 4, 16],
    "googlenet": [1, 4, 16],
    "densenet121": [1, 4, 16],
    "resnet50": [1, 4, 16],
    "alexnet": [1, 4, 16],
}
WARMUP, REPEATS, PASSES = 2, 3, 2


def calibrate():
    a = torch.randn(256, 256)
    b = torch.randn(256, 256)
    xs = []
    for _ in range(20):
        t0 = time.perf_counter_ns()
        torch.mm(a, b)
        xs.append((time.perf_counter_ns() - t0) / 1e3)
    return min(xs)


class Config:
    def __init__(self, name, batch, optimizer):
        torch.manual_seed(0)
        ctor, kind = E.REFERENCE_MODELS[name]
        self.model = ctor()
        self.model.train()
        self.x = E.make_input(kind, batch)
        self.y = torch.randint(0, 1000, (batch,))
        params = [p for p in self.model.parameters() if p.requires_grad]
        self.opt = (torch.optim.Adam(params, lr=1e-3) if optimizer == "adam"
                    else torch.optim.SGD(params, lr=0.01, momentum=0.9))
        self.loss = torch.nn.CrossEntropyLoss()
        self.times = []

    def step(self):
        t0 = time.perf_counter_ns()
        out = self.model(self.x)
        loss = self.loss(out, self.y)
        loss.backward()
        self.opt.step()
        self.opt.zero_grad(set_to_none=True)
        return (time.perf_counter_ns() - t0) / 1e3


def export_graphs(names):
    missing = [n for n in names if not os.path.exists(os.path.join(GRAPHS, n + ".onnx"))]
    if missing:
        E.export_group({n: E.REFERENCE_MODELS[n] for n in missing}, GRAPHS, external=True,
                       keep_batchnorm=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--optimizer", action="append", choices=["sgd", "adam"])
    ap.add_argument("--models", help="comma-separated subset of " + ",".join(SETS))
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--batches", help="comma-separated subset of 1,4,16")
    a = ap.parse_args()
    batches = {int(b) for b in a.batches.split(",")} if a.batches else None
    threads_list = [int(t) for t in a.threads.split(",")]
    optimizers = a.optimizer or ["sgd", "adam"]
    names = a.models.split(",") if a.models else list(SETS)
    export_graphs(names)
    done = set()
    if os.path.exists(OUT):
        for line in open(OUT):
            r = json.loads(line)
            done.add((r["model"], r["batch"], r["threads"], r["optimizer"]))
    for threads, opt, name in ((t, o, n) for t in threads_list for o in optimizers
                               for n in names):
        torch.set_num_threads(threads)
        todo = [b for b in SETS[name] if (name, b, threads, opt) not in done
                and (batches is None or b in batches)]
        if not todo:
            continue
        t0 = time.time()
        cfgs = [Config(name, b, opt) for b in todo]
        for c in cfgs:
            for _ in range(WARMUP):
                c.step()
        calib = [calibrate()]
        passes = {id(c): [] for c in cfgs}
        for _ in range(PASSES):
            for c in cfgs:  # interleaved: each batch size once per pass
                xs = [c.step() for _ in range(REPEATS)]
                passes[id(c)].append(statistics.median(xs))
                c.times += xs
            calib.append(calibrate())
        for c, b in zip(cfgs, todo):
            best = min(passes[id(c)])
            rec = {"model": name, "batch": b, "threads": threads, "optimizer": opt,
                   "torch_version": torch.__version__,
                   "step_us": {"best_pass_median": best, "min": min(c.times),
                               "max": max(c.times), "n": len(c.times)},
                   "spread": (max(c.times) - min(c.times)) / min(c.times),
                   "calib_us": calib,
                   "collected": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
            with open(OUT, "a") as f:
                f.write(json.dumps(rec) + "\n")
            print(f"{name} b{b} t{threads} {opt}: step {best / 1e3:.1f} ms, spread "
                  f"{rec['spread']:.2f}, calib {min(calib):.0f}-{max(calib):.0f} us",
                  flush=True)
        print(f"  {name}: {time.time() - t0:.0f} s", flush=True)


if __name__ == "__main__":
    main()
