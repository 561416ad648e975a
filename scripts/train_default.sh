#!/bin/bash
# train_default.sh - rebuild the built-in timing models from the committed
# data.  ort-cpu: the MLP ensemble on the ONNX Runtime operator samples (1
# and 2 threads), then the in-graph fit on the whole-model measurements of
# the FIT models (bench/eval_models.py).  torch-cpu: the same on PyTorch
# training-step samples (SGD and Adam, 1 and 2 threads) and whole-model
# training steps.  The fits and the coverage (data/<target>-overhead.json)
# are stored in the model files; then a rebuild that embeds them.
# Deterministic for the seed (training runs OpenBLAS on one thread).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${OC_BUILD_DIR:-$ROOT/build}
D=$ROOT/data
# The built-in models learn the machine they were measured on (its data
# predate fingerprints); other machines are reached by calibration.  The
# ort-cpu model also learns from cpu-AuthenticAMD-f26-m2's operator
# samples, each with that machine's profile (hw.json): the kernels only it
# measured (1-D and 3-D convolutions, rare unary operators, DepthToSpace,
# InstanceNormalization, quantized kernels, the layouts and contexts of
# later families, kernels of 1..4096 elements) and how the two machines
# differ.  After retraining, f26's shipped calibration is fitted again
# (the commands in data/machines/cpu-AuthenticAMD-f26-m2/README.md:
# calibrate --no-curve, then scripts/fit_kernel_curve.py --write, then
# scripts/fit_range_band.py --write).
# ../shared/machines stays out, so that its transfer score stays honest.
# The torch-cpu model learns both machines' training-step samples, each
# with its machine's profile: cpu-AuthenticAMD-unrecorded's (SGD and Adam,
# taken with glibc's defaults, an input's gradient only where the layer has
# no parameters) and f26's taken as the collector has since 2026-12-05
# 18:00 UTC (freed memory kept, every float input's gradient, as inside a
# network).  f26's older samples (torch-cpu-t[12].jsonl.gz, glibc's
# defaults) stay out: trained with them too, the model made both machines'
# whole steps worse (docs/accuracy-history.md, "Across machines").
L=$D/machines/cpu-AuthenticAMD-unrecorded
F=$D/machines/cpu-AuthenticAMD-f26-m2
cmake -S "$ROOT" -B "$BUILD" >/dev/null && cmake --build "$BUILD" -j"$(nproc)" >/dev/null
# It also learns both machines' in-graph samples (ort-cpu-ingraph.jsonl.gz:
# every kernel of their measured whole-model runs, timed inside the graph;
# `collect --from-runs`, the commands in each machine's README), but no
# run of samples/blind4.py, the hold-out no fit has seen; and, since the
# fourteenth session, f26's blind5 ... blind9 runs once each was scored
# (ort-cpu-ingraph-seen.jsonl.gz: one line per network, thread count and
# kernel, scripts/ingraph_dedup.py).
# Since the twenty-eighth session (rule R20) also f26's samples of the
# kernels no family drew before (ort-cpu-missing-t1.jsonl.gz: PRelu, bool
# logic, int64 arithmetic and reductions, Tile, Mod; 1 thread only).
# Since the thirty-second session (rule R27) also f26's framebank samples
# (STFT and inverse STFT as Conv1d / ConvTranspose1d) and bandconv samples
# (2-D Conv of non-square kernels), 1 thread only.
ORT=("$L/ort-cpu-t1.jsonl.gz" "$L/ort-cpu-t2.jsonl.gz" "$F/ort-cpu-t1.jsonl.gz"
     "$F/ort-cpu-t2.jsonl.gz" "$L/ort-cpu-ingraph.jsonl.gz" "$F/ort-cpu-ingraph.jsonl.gz"
     "$F/ort-cpu-ingraph-seen.jsonl.gz" "$F/ort-cpu-missing-t1.jsonl.gz"
     "$F/ort-cpu-upconv-unary-t1.jsonl.gz" "$F/ort-cpu-upconv-unary-t2.jsonl.gz"
     "$F/ort-cpu-thin-t1.jsonl.gz" "$F/ort-cpu-rnn-t1.jsonl.gz" "$F/ort-cpu-select-t1.jsonl.gz"
     "$F/ort-cpu-framebank-t1.jsonl.gz" "$F/ort-cpu-bandconv-t1.jsonl.gz")
TORCH=("$L"/torch-cpu-t[12].jsonl.gz "$L"/torch-cpu-t[12]-adam.jsonl.gz
       "$F"/torch-cpu-t[12]-ingrad.jsonl.gz)
"$BUILD/onnxcost" train --hw "$L/hw.json" --hw "$F/hw.json" --seed 1 --ensemble 10 -q \
    -o "$D/ort-cpu.tmodel" "${ORT[@]}"
"$BUILD/onnxcost" train --hw "$L/hw.json" --hw "$F/hw.json" --seed 1 --ensemble 10 -q \
    -o "$D/torch-cpu.tmodel" "${TORCH[@]}"
# the in-graph fits read the raw kernel sums, whatever fit is embedded
cmake --build "$BUILD" -j"$(nproc)" >/dev/null
/usr/bin/python3 "$ROOT/bench/eval_models.py" --binary "$BUILD/onnxcost" \
    --timing-model "$D/ort-cpu.tmodel" --fit-overhead "$D/ort-cpu-overhead.json"
/usr/bin/python3 "$ROOT/bench/eval_models.py" --mode training --binary "$BUILD/onnxcost" \
    --timing-model "$D/torch-cpu.tmodel" --fit-overhead "$D/torch-cpu-overhead.json"
# what each model's data covered (predict marks kernels beyond it)
/usr/bin/python3 "$ROOT/scripts/coverage.py" ort-cpu "${ORT[@]}"
/usr/bin/python3 "$ROOT/scripts/coverage.py" torch-cpu "${TORCH[@]}"
# both go into the model files (format 5), which the build embeds
for t in ort-cpu torch-cpu; do
    "$BUILD/onnxcost" train --overhead "$D/$t-overhead.json" --embed "$D/$t.tmodel"
done
cmake --build "$BUILD" -j"$(nproc)" >/dev/null
