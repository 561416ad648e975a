#!/bin/bash
# collect_release.sh - the measurements behind data/ (run on a quiet machine:
# no builds, no other jobs).  Operator samples for ort-cpu at 1 and 2 threads
# and PyTorch training steps for torch-cpu, then whole reference models
# through ONNX Runtime for the whole-model evaluation and the per-run
# overhead.  Resumable: run it again to continue.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${OC_BIN:-$ROOT/build/onnxcost}
SCALE=${OC_SCALE:-1}   # multiply every count
# This machine's measurements go to its own folder, named by its fingerprint.
MD=$ROOT/data/machines/$("$BIN" hw --fingerprint)
mkdir -p "$MD"
ARGS="--repeats 5 --passes 2 --warmup 2"
# The sample stream: 0 for the built-in model's data; another machine may
# take another (cpu-AuthenticAMD-f26-m2 took 1, so that its samples share no
# configuration with the seed-0 samples of ../shared/machines that score it).
SEED=${OC_SEED:-0}
n() { echo $(($1 * SCALE)); }
ops() { # ops TARGET THREADS DATASET [DRIVER EXTRA [COLLECT EXTRA...]]
    local t=$1 th=$2 ds=$3 extra=${4:-}
    shift 4 || shift $#
    "$BIN" collect --target "$t" --threads "$th" --family conv --count "$(n 120)" --dataset "$ds" --seed "$SEED" --driver-args "$ARGS $extra" "$@"
    "$BIN" collect --target "$t" --threads "$th" --family matmul,gemm --count "$(n 70)" --dataset "$ds" --seed "$SEED" --driver-args "$ARGS $extra" "$@"
    "$BIN" collect --target "$t" --threads "$th" --family convtranspose,pool,batchnorm,layernorm,softmax,elementwise,activation,reduce,concat,split,slice,transpose,reshape,resize,pad,gather \
        --count "$(n 30)" --dataset "$ds" --seed "$SEED" --driver-args "$ARGS $extra" "$@"
}
# each THREADS DATASET DRIVER_EXTRA "FAMILY=COUNT ..." [COLLECT EXTRA...]:
# one ort-cpu collect per entry, into DATASET.
each() {
    local th=$1 ds=$2 extra=$3 list=$4 fc
    shift 4
    for fc in $list; do
        "$BIN" collect --target ort-cpu --threads "$th" --family "${fc%=*}" --count "${fc#*=}" \
            --dataset "$ds" --seed "$SEED" --driver-args "$ARGS $extra" "$@"
    done
}
# The families whose held-out error was highest get 180 samples each
# (whatever the scale).
WEAK=activation,pad,slice,transpose,elementwise,reshape,resize,gather
weak() { # weak THREADS DATASET [DRIVER EXTRA [COLLECT EXTRA...]]
    each "$1" "$2" "${3:-}" "$WEAK=180" "${@:4}"
}
# x * Sigmoid(x), which ONNX Runtime fuses into one QuickGelu kernel (the
# ORT plan fuses it too; PyTorch's eager steps run the two ops apart).
swish() { # swish THREADS DATASET [DRIVER EXTRA [COLLECT EXTRA...]]
    each "$1" "$2" "${3:-}" "swish=90" "${@:4}"
}
# Kernels the families above never draw (whole models showed them predicted
# 3-14x too low): 1-D convolutions (dilated up to 512, text, pointwise,
# depthwise k <= 31), 3-D convolutions, 14 unary ops (Elu ... Round, Mish),
# DepthToSpace/SpaceToDepth, InstanceNormalization: 320 samples, about 4
# minutes per thread count at ORT's ~0.7 s a sample (not yet timed).
rare() { # rare THREADS DATASET [DRIVER EXTRA [COLLECT EXTRA...]]
    each "$1" "$2" "${3:-}" "conv1d=120 unary=100 conv3d=40 depthtospace,instancenorm=30" "${@:4}"
}
# ONNX Runtime's quantized kernels (QLinearConv; QLinearMatMul,
# MatMulIntegerToFloat, DynamicQuantizeMatMul, MatMulNBits; QLinearAdd/Mul/
# Sigmoid/LeakyRelu/AveragePool/GlobalAveragePool): 850 samples, about 10
# minutes per thread count on the 2-core machine.  Not yet timed: the
# probe's rate (0.6 s a sample, overhead-bound) and these samples' work
# (mean 0.25, 0.4 and 0.02 GFLOP: at most ~10 ms a run, 24 runs a sample).
quant() { # quant THREADS DATASET [DRIVER EXTRA [COLLECT EXTRA...]]
    each "$1" "$2" "${3:-}" "qconv=$(n 350) qmatmul=$(n 300) qelementwise=$(n 200)" "${@:4}"
}
# Grouped convolutions that are not depthwise (ResNeXt cardinality, RegNet
# group widths, a few groups as in Res2Net): the conv family draws them
# 4% of the time, and whole ResNeXt/RegNet/Res2Net nets were under by
# 20-50%: 150 samples, about 2 minutes per thread count.  Into files of
# their own: the built-in model does not learn them yet (retrained with
# them it halved their error, but a calibration with a squeezenet profile
# then made mobilenet_v2 worse, which tests/calibrate_test.sh refuses).
gconv() { # gconv THREADS DATASET [DRIVER EXTRA [COLLECT EXTRA...]]
    each "$1" "$2" "${3:-}" "gconv=150" "${@:4}"
}
# What lone-kernel families never drew and held-out networks ran slowly
# (blind4, 2026-12-05): Softmax/LogSoftmax over a non-last axis (ORT
# transposes inside the kernel), broadcasts with a short inner stretch
# (outer, pairwise, middle axes; comparisons), reductions over any axes
# (ReduceLogSumExp), 1-D kernels spanning the sequence: 570 samples.
context() { # context THREADS DATASET [DRIVER EXTRA [COLLECT EXTRA...]]
    each "$1" "$2" "${3:-}" "axis_softmax=120 broadcast=200 reduce_axes=150 longconv=100" "${@:4}"
}
# Layouts no family drew and held-out networks ran 10-80x slower than
# predicted (blind6, 2026-12-05): Transposes that move more than one axis
# (a full reversal of [16, 4096, 128]: 190 ms, predicted 2.8), Gathers
# along an inner axis (a Toeplitz matrix indexed from [192, 257]: 39 ms,
# predicted 2.8), and the two operators of blind6's that no sample had:
# GatherElements (deformable sampling) and Einsum (a lambda layer's
# contraction over a last batch-like axis: 34 ms, predicted 0.9-1.8): 570
# samples.
layout() { # layout THREADS DATASET [DRIVER EXTRA [COLLECT EXTRA...]]
    each "$1" "$2" "${3:-}" "permute=150 gather_axis=150 gather_elements=120 einsum=150" \
        "${@:4}"
}
# Kernels of 1..4096 elements (2026-12-05): every family above draws
# thousands of elements and more, and a decoder step, a small MLP or the
# corpus' models run hundreds of kernels smaller than that.  Profiled, they
# take a median 3 us at 1 thread and 5 at 2 on cpu-AuthenticAMD-f26-m2;
# the model of before predicted 1.5x that (90% of them over): 600 samples,
# about 45 s per thread count.
small() { # small THREADS DATASET [DRIVER EXTRA [COLLECT EXTRA...]]
    each "$1" "$2" "${3:-}" "small=600" "${@:4}"
}
# Transposed convolutions of 1, 2 and 3 spatial axes (2026-12-06): the
# convtranspose family draws 2-D ones of four shapes, and a held-out
# waveform U-Net's 1-D upsamplers (kernel 8, stride 4) ran 1.6-2.4x slower
# than predicted (blind12's demucs_separator): 200 samples, about 3
# minutes per thread count.
upconv() { # upconv THREADS DATASET [DRIVER EXTRA [COLLECT EXTRA...]]
    each "$1" "$2" "${3:-}" "upconv=200" "${@:4}"
}
# MaxPool on uint8 and int8 (2026-12-06): ORT runs a QDQ model's MaxPool
# on the quantized values (its QDQ transformer drops the DequantizeLinear
# and QuantizeLinear around it), and no family drew one: they were
# predicted from float MaxPools.  200 samples per thread count.
qmaxpool() { # qmaxpool THREADS DATASET [DRIVER EXTRA [COLLECT EXTRA...]]
    each "$1" "$2" "${3:-}" "qmaxpool=200" "${@:4}"
}
# Kernels no family drew that seen networks run (2026-12-07, predict's
# "no samples of" over blind1-33): PRelu, which ORT runs at about 5 ns an
# element (Conv-TasNet's were predicted 20x too fast), and the bool logic,
# int64 arithmetic and reductions, Tile and Mod of algorithmic graphs:
# 700 samples per thread count, into files of their own.
missing() { # missing THREADS DATASET [DRIVER EXTRA [COLLECT EXTRA...]]
    each "$1" "$2" "${3:-}" "prelu=300 logic=400" "${@:4}"
}
# Convolutions of 1, 2 or 4 input channels (2026-12-07): the first layer
# on a waveform, a series or a spectrogram, which no family drew (the conv
# families draw 3 or >= 8 input channels); blind34's ROCKET, 36 Conv1d of
# one input channel, was predicted 1.6x too slow: 400 samples per thread
# count, about 5 minutes, into files of their own.
thin() { # thin THREADS DATASET [DRIVER EXTRA [COLLECT EXTRA...]]
    each "$1" "$2" "${3:-}" "thinconv=400" "${@:4}"
}
# LSTM, GRU and RNN layers (2026-12-07): no family drew one, and blind35's
# GraphRNN, 67 one-step GRUs of 128 units, was predicted at 4x their
# profiled 10 us: 400 samples per thread count, into files of their own.
rnn() { # rnn THREADS DATASET [DRIVER EXTRA [COLLECT EXTRA...]]
    each "$1" "$2" "${3:-}" "rnn=400" "${@:4}"
}
# Selection and indexing kernels (2026-12-07): TopK, ArgMax/ArgMin, CumSum,
# ScatterElements, ScatterND, Where, Expand, Cast and Concats of 8..512
# pieces, which no family drew; across blind30-36 TopK was predicted at 0.13
# of its profiled time and ScatterElements at 1.8x: 800 samples per thread
# count (nine kinds), about 2 minutes, into files of their own.
selection() { # selection THREADS DATASET [DRIVER EXTRA [COLLECT EXTRA...]]
    each "$1" "$2" "${3:-}" "select=800" "${@:4}"
}
# Framed filter banks (2026-12-08): STFT and inverse STFT written as Conv1d
# and ConvTranspose1d (kernel the frame, 16..2048; stride the hop), as
# exportable audio code has them; blind39's Griffin-Lim inverse STFT (258
# channels into 1, kernel 256, stride 64) was predicted at 4.65x its
# profiled time, and no family drew a kernel past 16 (upconv) or a bank of
# more than 512 channels (thinconv): 400 samples, at 1 thread.
framebank() { # framebank THREADS DATASET [DRIVER EXTRA [COLLECT EXTRA...]]
    each "$1" "$2" "${3:-}" "framebank=400" "${@:4}"
}
# 2-D convolutions of non-square kernels (2026-12-08): no family drew one
# (every 2-D family's kernels are square); blind40's musicnn (one input
# channel, 7x38 and 7x67 across the mel axis, 128x1 along time) was
# predicted 1.8x over: sentence CNNs (h x embedding), timbral and temporal
# filters on spectrograms, Inception's factorised 1 x k / k x 1; 400
# samples at 1 thread.
bandconv() { # bandconv THREADS DATASET [DRIVER EXTRA [COLLECT EXTRA...]]
    each "$1" "$2" "${3:-}" "bandconv=400" "${@:4}"
}
case "${1:-all}" in
ort1) ops ort-cpu 1 "$MD/ort-cpu-t1.jsonl.gz"
      weak 1 "$MD/ort-cpu-t1.jsonl.gz"
      swish 1 "$MD/ort-cpu-t1.jsonl.gz"
      rare 1 "$MD/ort-cpu-t1.jsonl.gz" ;;
# At 2 threads the pool workers of the sessions timed just before, still
# spinning, took a core from the one being timed (collector/ort_bench.js,
# --no-spin); the calibration kernel after a 2-thread chunk reads slower by
# ~60% even then (a state of the process, not contention: it repeats on a
# quiet machine), so only a larger drift re-measures.  The samples taken
# before --no-spin are kept in data/machines/cpu-AuthenticAMD-unrecorded/
# ort-cpu-t2-spinning.jsonl.gz, unused.
ort2) ops ort-cpu 2 "$MD/ort-cpu-t2.jsonl.gz" "--no-spin" --max-drift 1.0
      weak 2 "$MD/ort-cpu-t2.jsonl.gz" "--no-spin" --max-drift 1.0
      swish 2 "$MD/ort-cpu-t2.jsonl.gz" "--no-spin" --max-drift 1.0
      rare 2 "$MD/ort-cpu-t2.jsonl.gz" "--no-spin" --max-drift 1.0 ;;
rare1) rare 1 "$MD/ort-cpu-t1.jsonl.gz" ;;
rare2) rare 2 "$MD/ort-cpu-t2.jsonl.gz" "--no-spin" --max-drift 1.0 ;;
quant1) quant 1 "$MD/ort-cpu-t1.jsonl.gz" ;;
gconv1) gconv 1 "$MD/ort-cpu-gconv-t1.jsonl.gz" ;;
context1) context 1 "$MD/ort-cpu-t1.jsonl.gz" ;;
context2) context 2 "$MD/ort-cpu-t2.jsonl.gz" "--no-spin" --max-drift 1.0 ;;
layout1) layout 1 "$MD/ort-cpu-t1.jsonl.gz" ;;
small1) small 1 "$MD/ort-cpu-t1.jsonl.gz" ;;
small2) small 2 "$MD/ort-cpu-t2.jsonl.gz" "--no-spin" --max-drift 1.0 ;;
layout2) layout 2 "$MD/ort-cpu-t2.jsonl.gz" "--no-spin" --max-drift 1.0 ;;
upconv1) upconv 1 "$MD/ort-cpu-t1.jsonl.gz" ;;
upconv2) upconv 2 "$MD/ort-cpu-t2.jsonl.gz" "--no-spin" --max-drift 1.0 ;;
qmaxpool1) qmaxpool 1 "$MD/ort-cpu-qmaxpool-t1.jsonl.gz" ;;
qmaxpool2) qmaxpool 2 "$MD/ort-cpu-qmaxpool-t2.jsonl.gz" "--no-spin" --max-drift 1.0 ;;
missing1) missing 1 "$MD/ort-cpu-missing-t1.jsonl.gz" ;;
missing2) missing 2 "$MD/ort-cpu-missing-t2.jsonl.gz" "--no-spin" --max-drift 1.0 ;;
thin1) thin 1 "$MD/ort-cpu-thin-t1.jsonl.gz" ;;
thin2) thin 2 "$MD/ort-cpu-thin-t2.jsonl.gz" "--no-spin" --max-drift 1.0 ;;
rnn1) rnn 1 "$MD/ort-cpu-rnn-t1.jsonl.gz" ;;
rnn2) rnn 2 "$MD/ort-cpu-rnn-t2.jsonl.gz" "--no-spin" --max-drift 1.0 ;;
select1) selection 1 "$MD/ort-cpu-select-t1.jsonl.gz" ;;
select2) selection 2 "$MD/ort-cpu-select-t2.jsonl.gz" "--no-spin" --max-drift 1.0 ;;
framebank1) framebank 1 "$MD/ort-cpu-framebank-t1.jsonl.gz" ;;
framebank2) framebank 2 "$MD/ort-cpu-framebank-t2.jsonl.gz" "--no-spin" --max-drift 1.0 ;;
bandconv1) bandconv 1 "$MD/ort-cpu-bandconv-t1.jsonl.gz" ;;
bandconv2) bandconv 2 "$MD/ort-cpu-bandconv-t2.jsonl.gz" "--no-spin" --max-drift 1.0 ;;
gconv2) gconv 2 "$MD/ort-cpu-gconv-t2.jsonl.gz" "--no-spin" --max-drift 1.0 ;;
quant2) quant 2 "$MD/ort-cpu-t2.jsonl.gz" "--no-spin" --max-drift 1.0 ;;
torch1) ops torch-cpu 1 "$MD/torch-cpu-t1.jsonl.gz" ;;
torch1adam) ops torch-cpu 1 "$MD/torch-cpu-t1-adam.jsonl.gz" "" --optimizer adam ;;
torch2) ops torch-cpu 2 "$MD/torch-cpu-t2.jsonl.gz" ;;
torch2adam) ops torch-cpu 2 "$MD/torch-cpu-t2-adam.jsonl.gz" "" --optimizer adam ;;
# The same families as torch1/torch2 measured as the collector has measured
# since 2026-12-05 18:00 UTC: freed memory kept, every float input's
# gradient computed (as inside a network)
torch1ingrad) ops torch-cpu 1 "$MD/torch-cpu-t1-ingrad.jsonl.gz" ;;
torch2ingrad) ops torch-cpu 2 "$MD/torch-cpu-t2-ingrad.jsonl.gz" ;;
training) /usr/bin/python3 "$ROOT/scripts/measure_training.py" "${@:2}" ;;
models) /usr/bin/python3 "$ROOT/scripts/measure_models.py" "${@:2}" ;;
all)
    "$0" ort1; "$0" ort2; "$0" quant1; "$0" quant2; "$0" models; "$0" torch1; "$0" torch1adam; "$0" torch2
    "$0" torch2adam; "$0" training ;;
esac
