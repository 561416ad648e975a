#!/bin/bash
# load_vs_cat.sh [BUILD_DIR] - what analysing a ~100 MB model costs next to
# reading it: wall time (median of 7 interleaved runs) and peak RSS of
# `cat FILE > /dev/null` and of `onnxcost analyze` / `onnxcost info`.
# Exports resnet50 with its (random) weights inline on first use.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-$ROOT/build}
BIN=$BUILD/onnxcost
DIR=$BUILD/bench
MODEL=$DIR/resnet50.onnx
mkdir -p "$DIR"
if [ ! -f "$MODEL" ]; then
    /usr/bin/python3 - "$ROOT" "$DIR" <<'PY'
import sys
sys.path.insert(0, sys.argv[1] + "/samples")
import export as E
E.export_group({"resnet50": E.REFERENCE_MODELS["resnet50"]}, sys.argv[2], external=False)
PY
fi
RUNS=7
declare -A T M
run() { # run LABEL CMD... : appends seconds and max RSS (KiB)
    local label=$1
    shift
    /usr/bin/time -f "%e %M" -o "$DIR/time.txt" "$@" >/dev/null 2>&1
    read -r s kb <"$DIR/time.txt"
    T[$label]+="$s "
    M[$label]+="$kb "
}
cat "$MODEL" >/dev/null # warm the page cache
for i in $(seq $RUNS); do
    run cat cat "$MODEL"
    run info "$BIN" info "$MODEL"
    run analyze "$BIN" analyze --batch 1 "$MODEL"
    run analyze_json "$BIN" analyze --batch 1 --format json "$MODEL"
done
median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
size=$(stat -c %s "$MODEL")
echo "model: $MODEL ($((size / 1048576)) MiB), $RUNS runs each, page cache warm"
printf "%-14s %10s %12s\n" command median_s peak_rss_MiB
for k in cat info analyze analyze_json; do
    t=$(echo "${T[$k]}" | median)
    m=$(echo "${M[$k]}" | median)
    printf "%-14s %10s %12.1f\n" "$k" "$t" "$(echo "$m / 1024" | bc -l)"
done
