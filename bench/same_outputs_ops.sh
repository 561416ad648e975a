#!/bin/bash
# same_outputs_ops.sh record BIN OUTDIR
# same_outputs_ops.sh compare OUTDIR_A OUTDIR_B
#
# Written for issue 17 (one operator table, the known-values helpers in
# one place): a refactor of how operators are matched must not change one
# byte of what the analyzer and the predictor say.  'record' runs the
# onnxcost binary BIN over every model of samples/, tests/reference/models/
# and tests/data/ort-plan/*.onnx.gz (analyze and predict, JSON; predict at
# 1 and 2 threads, batch 1 and 4, the three NCHWc blocks, by kernel,
# training with SGD and Adam; sweep with a memory limit) and saves each
# run's stdout, stderr and exit status in OUTDIR.  'compare' prints how
# many of those outputs are byte-identical and lists the ones that differ.
# The models are copied (and unzipped) to one place and named by a
# relative path, so the two recordings name them the same.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
case ${1:-} in
record)
    [ $# -eq 3 ] || { echo "usage: $0 record BIN OUTDIR" >&2; exit 2; }
    BIN=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
    [ -x "$BIN" ] || { echo "$0: $2: not an executable" >&2; exit 2; }
    mkdir -p "$3" && OUT=$(cd "$3" && pwd)
    rm -f "$OUT"/*.out "$OUT"/*.err "$OUT"/*.rc
    W=$(mktemp -d)
    trap 'rm -rf "$W"' EXIT
    mkdir "$W/m"
    cp "$ROOT"/samples/*.onnx "$W/m/"
    for f in "$ROOT"/tests/reference/models/*.onnx; do
        cp "$f" "$W/m/ref-$(basename "$f")"
    done
    for f in "$ROOT"/tests/data/ort-plan/*.onnx.gz; do
        b=$(basename "$f" .gz)
        gzip -dc "$f" >"$W/m/plan-$b"
    done
    cd "$W/m" || exit 2
    export XDG_CACHE_HOME=$W/cache ONNXCOST_MACHINE=same-outputs-box
    run() { # run TAG ARGS...
        local tag=$1
        shift
        "$BIN" "$@" >"$OUT/$tag.out" 2>"$OUT/$tag.err"
        echo "$? $*" >"$OUT/$tag.rc"
    }
    n=0
    for m in *.onnx; do
        n=$((n + 1))
        t=${m%.onnx}
        run "$t.analyze" analyze -f json "$m"
        run "$t.analyze-b4" analyze -f json -b 4 "$m"
        run "$t.predict" predict -f json "$m"
        run "$t.predict-T2" predict -f json -T 2 "$m"
        run "$t.predict-b4-T1" predict -f json -b 4 -T 1 "$m"
        run "$t.predict-nchwc8" predict -f json --nchwc-block 8 "$m"
        run "$t.predict-nchwc16" predict -f json --nchwc-block 16 -T 2 "$m"
        run "$t.predict-nchwc0" predict -f json --nchwc-block 0 "$m"
        run "$t.predict-kernel" predict --by kernel -t 1000 -T 2 "$m"
        run "$t.train-sgd" predict -f json --mode training --optimizer sgd "$m"
        run "$t.train-adam" predict -f json --mode training --optimizer adam -b 4 -T 2 "$m"
        run "$t.sweep" sweep -f json -M 200MB "$m"
        run "$t.sweep-train" sweep -f json --mode training -M 500MB "$m"
    done
    echo "recorded $(ls "$OUT" | grep -c '\.rc$') runs over $n models in $OUT"
    ;;
compare)
    [ $# -eq 3 ] || { echo "usage: $0 compare OUTDIR_A OUTDIR_B" >&2; exit 2; }
    /usr/bin/python3 - "$2" "$3" <<'E'
import os, sys
a, b = sys.argv[1:3]
fa, fb = set(os.listdir(a)), set(os.listdir(b))
same = diff = 0
for f in sorted(fa & fb):
    x, y = (open(os.path.join(d, f), 'rb').read() for d in (a, b))
    if x == y:
        same += 1
    else:
        diff += 1
        print('different:', f)
for f in sorted(fa ^ fb):
    diff += 1
    print('only in', a if f in fa else b, ':', f)
print(f'{same} identical, {diff} different')
sys.exit(1 if diff or not same else 0)
E
    ;;
*)
    echo "usage: $0 record BIN OUTDIR | compare OUTDIR_A OUTDIR_B" >&2
    exit 2
    ;;
esac
