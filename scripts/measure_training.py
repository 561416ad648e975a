#!/usr/bin/python3
"""measure_training.py [--optimizer sgd|adam]... [--threads 1,2] [--models LIST]
[--batches 1,4,16]
- whole reference models' training steps in PyTorch (CPU), for the whole-model evaluation of the
torch-cpu timing model and its in-graph fit.

For each architecture: the torchvision / samples/export.py model with random
weights in train() mode, one step = forward, cross-entropy loss against
random labels, backward, optimizer step (SGD lr 0.01 momentum 0.9, or Adam
lr 1e-3: the optimizers of collector/torch_bench.py), zero_grad.  Timed at
batch 1, 4 and 16 on 1 and 2 intra-op threads (--threads; the OpenBLAS pool of
torch's matrix products sized to match since 2026-12-05 18:25 UTC) with
OMP_WAIT_POLICY=PASSIVE, each configuration in a process of its own (as a
training loop runs: its allocator's state is its own steps'): two warm-up
steps, then PASSES passes of REPEATS steps; the figure is the quickest
pass's median, the spread (max - min) / min over all timed steps.  A fixed
calibration matmul is timed before and after each pass.

Also exports each architecture's graph (weights deleted) with BatchNorm
kept (a training graph: TrainingMode.PRESERVE in eval mode, so that the
exporter does not fold BN into the Conv) to tests/reference/train/, the
graphs bench/eval_models.py --mode training predicts.

Each step's minor page faults (getrusage) are counted too: with glibc's
default malloc, PyTorch hands large freed blocks back to the kernel and the
next step faults their pages in again (on cpu-AuthenticAMD-f26-m2 about
10 us a 4 KiB page, most of a step at batch 16).  --malloc retain sets
glibc's mallopt so that freed memory stays in the process (no mmap, no
trim): the same steps without those faults, written to
torch-cpu-models-retain.jsonl.
Each line also carries the machine's cost of a fresh page, timed before the
configuration (fault_us_per_mb: touch a fresh 64 MiB anonymous mapping).

--zoo NAMES measures architectures of scripts/ort_graphs.py instead (its
constructors and inputs, batch 4 and 16 unless --batches, sequence lengths
as it runs them; the loss the mean of every float output, as
collector/torch_bench.py's), into torch-cpu-zoo.jsonl
(torch-cpu-zoo-retain.jsonl), each line with its "family" and "inputs"
shapes; their graphs (opset 13, symbolic batch, eval-mode export with
BatchNorm kept as a step runs it: TrainingMode.PRESERVE; no dropout) go to
build/train-zoo/, where
bench/training_zoo.py predicts them.

Appends one JSON line per (model, batch, threads, optimizer) to
data/machines/<fingerprint>/torch-cpu-models.jsonl (or --out NAME there);
configurations already there are skipped.
Run on a quiet machine, with /usr/bin/python3."""
import argparse, json, mmap, os, resource, statistics, subprocess, sys, time

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
import torch  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "samples"))
sys.path.insert(0, os.path.join(ROOT, "collector"))
import export as E  # noqa: E402
from torch_bench import BLAS_THREAD_VARS  # noqa: E402

# Every machine's measurements in its own folder, named by its fingerprint.
FINGERPRINT = subprocess.run([os.environ.get("OC_BIN", os.path.join(ROOT, "build", "onnxcost")),
                              "hw", "--fingerprint"], capture_output=True, text=True,
                             check=True).stdout.strip()
MACHINE = os.path.join(ROOT, "data", "machines", FINGERPRINT)
os.makedirs(MACHINE, exist_ok=True)
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


def minor_faults():
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt


def fault_us_per_mb(mib=64):
    """Microseconds per MB to fault in fresh anonymous pages: the quickest of
    three mappings of MIB MiB, each page written once."""
    size, page, best = mib << 20, mmap.PAGESIZE, float("inf")
    for _ in range(3):
        m = mmap.mmap(-1, size)
        t0 = time.perf_counter_ns()
        for off in range(0, size, page):
            m[off] = 1
        best = min(best, (time.perf_counter_ns() - t0) / 1e3)
        m.close()
    return best / (size / 1e6)


def malloc_retain():
    """glibc keeps freed memory, as the sample collector has it."""
    import torch_bench
    if not torch_bench.keep_freed_memory():
        sys.exit("measure_training.py: mallopt refused --malloc retain")


def zoo_module():
    sys.path.insert(0, os.path.join(ROOT, "scripts"))
    import ort_graphs
    return ort_graphs


ZOO_GRAPHS = os.path.join(ROOT, "build", "train-zoo")


class Config:
    def __init__(self, name, batch, optimizer, zoo=False):
        torch.manual_seed(0)
        if zoo:
            og = zoo_module()
            self.model = og.ARCHS[name]["ctor"]()
            values = og.run_values(name)
            values["N"] = batch
            self.xs = og.make_inputs(name, values)
            self.inputs = [{"name": s[0], "shape": list(x.shape)}
                           for s, x in zip(og.ARCHS[name]["inputs"], self.xs)]
            self.family = og.ARCHS[name]["family"]
            self.loss = None
        else:
            ctor, kind = E.REFERENCE_MODELS[name]
            self.model = ctor()
            self.xs = [E.make_input(kind, batch)]
            self.y = torch.randint(0, 1000, (batch,))
            self.loss = torch.nn.CrossEntropyLoss()
        self.model.train()
        params = [p for p in self.model.parameters() if p.requires_grad]
        self.opt = (torch.optim.Adam(params, lr=1e-3) if optimizer == "adam"
                    else torch.optim.SGD(params, lr=0.01, momentum=0.9))
        self.times = []
        self.faults = []

    def loss_of(self, out):
        if self.loss is not None:
            return self.loss(out, self.y)
        outs = list(out) if isinstance(out, (tuple, list)) else [out]
        return sum(o.float().mean() for o in outs if o.is_floating_point())

    def step(self):
        f0 = minor_faults()
        t0 = time.perf_counter_ns()
        out = self.model(*self.xs)
        loss = self.loss_of(out)
        loss.backward()
        self.opt.step()
        self.opt.zero_grad(set_to_none=True)
        t = (time.perf_counter_ns() - t0) / 1e3
        self.faults.append(minor_faults() - f0)
        return t


# Marks a zoo graph exported as a training graph (BatchNorm kept); one
# without it (before 2026-12-07 they were folded) is exported again.
TRAIN_EXPORT = ("onnxcost.export", "training")


def export_zoo(names):
    og = zoo_module()
    os.makedirs(ZOO_GRAPHS, exist_ok=True)
    for n in names:
        path = os.path.join(ZOO_GRAPHS, n + ".onnx")
        if os.path.exists(path) and any(
                (p.key, p.value) == TRAIN_EXPORT
                for p in og.onnx.load(path, load_external_data=False).metadata_props):
            continue
        m = og.export(n, 13, True, keep_batchnorm=True)
        og.onnx.helper.set_model_props(m, dict([TRAIN_EXPORT]))
        og.onnx.save(m, path + ".tmp")
        os.replace(path + ".tmp", path)


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
    ap.add_argument("--malloc", choices=["default", "retain"], default="default",
                    help="glibc's allocator as it is, or holding on to freed memory")
    ap.add_argument("--out", help="file name under the machine's folder (default "
                    "torch-cpu-models.jsonl, torch-cpu-models-retain.jsonl with --malloc retain)")
    ap.add_argument("--zoo", help="comma-separated architectures of scripts/ort_graphs.py")
    ap.add_argument("--one", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.one:
        return measure_one(a.one)
    stem = "torch-cpu-zoo" if a.zoo else "torch-cpu-models"
    out = os.path.join(MACHINE, a.out or (stem + ("-retain" if a.malloc == "retain" else "")
                                          + ".jsonl"))
    batches = {int(b) for b in a.batches.split(",")} if a.batches else None
    threads_list = [int(t) for t in a.threads.split(",")]
    optimizers = a.optimizer or ["sgd", "adam"]
    if a.zoo:
        names = a.zoo.split(",")
        sets = {n: [4, 16] for n in names}
        export_zoo(names)
    else:
        names = a.models.split(",") if a.models else list(SETS)
        sets = SETS
        export_graphs(names)
    done = set()
    if os.path.exists(out):
        for line in open(out):
            r = json.loads(line)
            done.add((r["model"], r["batch"], r["threads"], r["optimizer"]))
    for threads, opt, name, b in ((t, o, n, b) for t in threads_list for o in optimizers
                                  for n in names for b in sets[n]):
        if (name, b, threads, opt) in done or (batches is not None and b not in batches):
            continue
        # each configuration in a process of its own: glibc's thresholds for
        # handing memory back follow the blocks a process has freed, so a
        # step's page faults depend on what ran before it in that process
        # Debian's torch runs its matrix products on the system OpenBLAS, whose
        # thread pool torch.set_num_threads does not size: without these a
        # 1-thread step ran its MatMuls and Linears on every core (as the
        # collector's samples never did: collector/torch_bench.py sets them)
        env = dict(os.environ, **{v: str(threads) for v in BLAS_THREAD_VARS})
        p = subprocess.run([sys.executable, __file__, "--one",
                            f"{name},{b},{threads},{opt},{a.malloc},{int(bool(a.zoo))}"],
                           capture_output=True, text=True, env=env)
        if p.returncode != 0:
            sys.exit(f"measure_training.py: {name} b{b} t{threads} {opt}: {p.stderr.strip()}")
        rec = json.loads(p.stdout)
        with open(out, "a") as f:
            f.write(json.dumps(rec) + "\n")
        print(f"{name} b{b} t{threads} {opt}: step {rec['step_us']['best_pass_median'] / 1e3:.1f} ms, "
              f"spread {rec['spread']:.2f}, {rec['faults']['best_pass_median']:.0f} faults, "
              f"calib {min(rec['calib_us']):.0f}-{max(rec['calib_us']):.0f} us", flush=True)


def measure_one(spec):
    """One configuration "model,batch,threads,optimizer,malloc,zoo": its
    record as one JSON line on stdout."""
    name, b, threads, opt, malloc, zoo = spec.split(",")
    b, threads, zoo = int(b), int(threads), zoo == "1"
    if os.environ.get("OPENBLAS_NUM_THREADS") != str(threads):
        sys.exit(f"OPENBLAS_NUM_THREADS is not {threads}: a step's matrix products would "
                 "take another thread count than its other kernels")
    if malloc == "retain":
        malloc_retain()
    torch.set_num_threads(threads)
    fault_rate = fault_us_per_mb()
    c = Config(name, b, opt, zoo)
    for _ in range(WARMUP):
        c.step()
    calib = [calibrate()]
    passes = []
    for _ in range(PASSES):
        xs = [c.step() for _ in range(REPEATS)]
        passes.append((statistics.median(xs), statistics.median(c.faults[-REPEATS:])))
        c.times += xs
        calib.append(calibrate())
    best, best_faults = min(passes)
    rec = {"model": name, "batch": b, "threads": threads, "optimizer": opt,
           "torch_version": torch.__version__,
           "step_us": {"best_pass_median": best, "min": min(c.times),
                       "max": max(c.times), "n": len(c.times)},
           "spread": (max(c.times) - min(c.times)) / min(c.times),
           "faults": {"best_pass_median": best_faults,
                      "median": statistics.median(c.faults[-len(c.times):]),
                      "page_bytes": mmap.PAGESIZE},
           "fault_us_per_mb": round(fault_rate, 3), "malloc": malloc,
           "blas_threads": {v: os.environ.get(v) for v in BLAS_THREAD_VARS},
           "calib_us": calib,
           "collected": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
    if zoo:
        rec["family"], rec["inputs"] = c.family, c.inputs
    print(json.dumps(rec))

if __name__ == "__main__":
    main()
