#!/usr/bin/python3
"""input_grad.py [--threads N] - what a layer's training step costs with and
without its input's gradient, in PyTorch (CPU).

Inside a network every layer but the first computes the gradient of its
input (the layers before it have parameters); a lone layer with parameters
computes only its weights' unless its input asks for one.  The operator
samples of collector/torch_bench.py took the second until 2026-12-05 and
the first since.  This prints both for a few layers of the reference CNNs
and transformers: one step = forward, mean loss, backward, SGD (momentum
0.9) step, zero_grad; median of 15 steps after 3 warm-ups, with freed
memory kept (collector/torch_bench.py's keep_freed_memory) and OpenBLAS's
pool at --threads, as the collector runs.  Run on a quiet machine with
/usr/bin/python3."""
import argparse
import os
import sys
import time

ap = argparse.ArgumentParser()
ap.add_argument("--threads", type=int, default=1)
ARGS = ap.parse_args()
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "collector"))
import torch_bench  # noqa: E402

# torch and OpenBLAS at --threads, as the collector runs (torch loads here)
torch_bench.setup_threads(ARGS.threads)
import torch  # noqa: E402

LAYERS = [  # name, layer, input shape
    ("conv 3x3 64->64, 56x56, b4", lambda: torch.nn.Conv2d(64, 64, 3, padding=1, bias=False),
     (4, 64, 56, 56)),
    ("conv 3x3 128->128, 28x28, b4", lambda: torch.nn.Conv2d(128, 128, 3, padding=1, bias=False),
     (4, 128, 28, 28)),
    ("conv 3x3 256->256, 14x14, b16", lambda: torch.nn.Conv2d(256, 256, 3, padding=1, bias=False),
     (16, 256, 14, 14)),
    ("conv 1x1 256->64, 56x56, b4", lambda: torch.nn.Conv2d(256, 64, 1, bias=False),
     (4, 256, 56, 56)),
    ("depthwise 3x3 96, 56x56, b4",
     lambda: torch.nn.Conv2d(96, 96, 3, padding=1, groups=96, bias=False), (4, 96, 56, 56)),
    ("batchnorm 64, 112x112, b4", lambda: torch.nn.BatchNorm2d(64), (4, 64, 112, 112)),
    ("batchnorm 256, 14x14, b16", lambda: torch.nn.BatchNorm2d(256), (16, 256, 14, 14)),
    ("linear 4096->4096, b16", lambda: torch.nn.Linear(4096, 4096), (16, 4096)),
    ("linear 192->768, [16, 197, 192]", lambda: torch.nn.Linear(192, 768), (16, 197, 192)),
    ("layernorm 512, [16, 128, 512]", lambda: torch.nn.LayerNorm(512), (16, 128, 512)),
]


def step_ms(layer, shape, input_grad):
    x = torch.randn(*shape, requires_grad=input_grad)
    opt = torch.optim.SGD(layer.parameters(), lr=0.01, momentum=0.9)

    def step():
        layer(x).float().mean().backward()
        opt.step()
        opt.zero_grad(set_to_none=True)
        x.grad = None

    for _ in range(3):
        step()
    ts = []
    for _ in range(15):
        t0 = time.perf_counter()
        step()
        ts.append(time.perf_counter() - t0)
    ts.sort()
    return ts[len(ts) // 2] * 1e3


def main():
    if not torch_bench.keep_freed_memory():
        sys.exit("input_grad.py: mallopt refused to keep freed memory")
    torch.manual_seed(0)
    print(f"PyTorch {torch.__version__}, {ARGS.threads} thread(s); ms per training step")
    print(f"{'layer':34s} {'weights only':>12s} {'+ input grad':>12s} {'ratio':>6s}")
    for name, make, shape in LAYERS:
        layer = make().train()
        a, b = step_ms(layer, shape, False), step_ms(layer, shape, True)
        print(f"{name:34s} {a:12.2f} {b:12.2f} {b / a:6.2f}")


if __name__ == "__main__":
    main()
