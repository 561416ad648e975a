#!/bin/bash
# train_default.sh - rebuild the built-in timing model from the committed
# data: the MLP ensemble on the ort-cpu operator samples (1 and 2 threads),
# then the per-run overhead on the whole-model measurements of the FIT
# models (bench/eval_models.py), then a rebuild that embeds both.
# Deterministic for the seed (training runs OpenBLAS on one thread).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${OC_BUILD_DIR:-$ROOT/build}
cmake -S "$ROOT" -B "$BUILD" >/dev/null && cmake --build "$BUILD" -j"$(nproc)" >/dev/null
"$BUILD/onnxcost" train --hw "$ROOT/data/hw.json" --seed 1 -q \
    -o "$ROOT/data/ort-cpu.tmodel" "$ROOT"/data/ort-cpu-t1.jsonl.gz "$ROOT"/data/ort-cpu-t2.jsonl.gz
/usr/bin/python3 "$ROOT/bench/eval_models.py" --binary "$BUILD/onnxcost" \
    --timing-model "$ROOT/data/ort-cpu.tmodel" --fit-overhead "$ROOT/data/ort-cpu-overhead.json"
cmake --build "$BUILD" -j"$(nproc)" >/dev/null
