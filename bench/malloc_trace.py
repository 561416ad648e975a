#!/usr/bin/env python3
"""malloc_trace.py [--model resnet18] [--batch 16] [--threads 1] [--steps 6]
[--zoo] - where a PyTorch training step's page faults come from, as glibc's
malloc hands out and takes back its memory.

Runs one configuration of scripts/measure_training.py (its model, loss and
SGD step, glibc's default allocator) in a child process under
bench/malloc_trace.c (compiled here with cc, preloaded), which records
every allocation and free with its address, the minor page faults so far
and the program break.  Prints, per step: the faults (4 KiB pages), the
blocks glibc mapped afresh with mmap (their pages), how far the heap's top
(the break) grew and shrank, and what the two explain of the faults.
glibc maps a block afresh only when no free chunk of its heap fits it and
the block is at or over its mmap threshold (dynamic, at most 32 MiB);
everything else comes from the heap, whose top it hands back to the kernel
once more than twice that threshold lies free there.

Run with /usr/bin/python3 on a quiet machine (timings are not printed, but
the faults follow what ran before)."""
import argparse, ctypes, os, resource, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MARK = 123457  # a malloc of this size, freed at once, marks a step's start
PAGE = os.sysconf("SC_PAGE_SIZE")


def child(a):
    sys.path.insert(0, os.path.join(ROOT, "scripts"))
    import torch
    import measure_training as M
    torch.set_num_threads(a.threads)
    libc = ctypes.CDLL(None)
    libc.malloc.restype = ctypes.c_void_p
    libc.free.argtypes = [ctypes.c_void_p]
    c = M.Config(a.model, a.batch, "sgd", a.zoo)
    for _ in range(a.steps):
        libc.free(libc.malloc(MARK))
        c.step()
    libc.free(libc.malloc(MARK))
    print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt)


def analyse(path, steps):
    import numpy as np
    r = np.fromfile(path, dtype=np.uint64).reshape(-1, 6).astype(np.int64)
    op, a, b, res, flt, brk = r.T
    size = np.select([op == 4, op == 5, op == 3], [b, a * b, b], a)
    marks = np.nonzero((op == 1) & (a == MARK))[0]
    if len(marks) != steps + 1:
        sys.exit(f"malloc_trace: {len(marks)} step marks in the trace, expected {steps + 1}")
    alloc = (op == 1) | (op == 3) | (op == 4) | (op == 5)
    print(f"{'step':>4} {'faults':>8} {'mmapped MB':>11} {'pages':>8} {'break +MB':>10} "
          f"{'-MB':>6} {'pages':>8} {'explained':>9}")
    for k in range(steps):
        s, e = marks[k], marks[k + 1]
        faults = int(flt[e] - flt[s])
        # a block at or over 128 KiB whose address lies above the break: a
        # mapping of its own
        mm = alloc[s:e] & (size[s:e] >= 128 << 10) & (res[s:e] > brk[s:e])
        mm_bytes = int(size[s:e][mm].sum())
        mm_pages = int(((size[s:e][mm] + PAGE - 1) // PAGE).sum())
        d = np.diff(brk[s:e + 1])
        grew, shrank = int(d[d > 0].sum()), int(-d[d < 0].sum())
        explained = (mm_pages + grew // PAGE) / faults if faults else float("nan")
        print(f"{k + 1:>4} {faults:>8} {mm_bytes / 1e6:>11.0f} {mm_pages:>8} {grew / 1e6:>10.0f} "
              f"{shrank / 1e6:>6.0f} {grew // PAGE:>8} {explained:>9.2f}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", default="resnet18")
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--steps", type=int, default=6)
    ap.add_argument("--zoo", action="store_true", help="an architecture of scripts/ort_graphs.py")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.child:
        return child(a)
    with tempfile.TemporaryDirectory() as tmp:
        lib, trace = os.path.join(tmp, "trace.so"), os.path.join(tmp, "trace.bin")
        subprocess.run(["cc", "-std=c11", "-O2", "-shared", "-fPIC", "-o", lib,
                        os.path.join(ROOT, "bench", "malloc_trace.c"), "-ldl"], check=True)
        sys.path.insert(0, os.path.join(ROOT, "collector"))
        from torch_bench import BLAS_THREAD_VARS  # its matrix products on as many threads
        env = dict(os.environ, LD_PRELOAD=lib, OC_MALLOC_TRACE=trace, OMP_WAIT_POLICY="PASSIVE",
                   **{v: str(a.threads) for v in BLAS_THREAD_VARS})
        args = [sys.executable, __file__, "--child", "--model", a.model, "--batch", str(a.batch),
                "--threads", str(a.threads), "--steps", str(a.steps)] + (["--zoo"] if a.zoo else [])
        p = subprocess.run(args, env=env, capture_output=True, text=True)
        if p.returncode:
            sys.exit(f"malloc_trace: the traced step failed: {p.stderr.strip()[-500:]}")
        print(f"{a.model} batch {a.batch}, {a.threads} thread(s), SGD, glibc's default allocator; "
              f"pages of {PAGE} bytes")
        analyse(trace, a.steps)


if __name__ == "__main__":
    main()
