#!/bin/bash
# run.sh SECONDS [BUILD_DIR] - build the libFuzzer targets with clang and
# fuzz each for half of SECONDS: fuzz_load (load + analyze) and
# fuzz_predict (predict for inference and training, sweep, annotate,
# reload).  Seeds: samples/, tests/data, graph-only copies of real models
# (tests/reference/models, the plan corpus tests/data/ort-plan) and the
# ONNX node tests.  Exits non-zero on a crash (the reproducer is left in
# BUILD_DIR/crashes); prints each target's executions.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SECS=${1:-60}
BUILD=${2:-$ROOT/build-fuzz}
CC=clang cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DOC_FUZZ=ON -DOC_ASAN=ON >/dev/null
cmake --build "$BUILD" --target fuzz_load fuzz_predict -j"$(nproc)" >/dev/null
SEEDS=$BUILD/seeds
mkdir -p "$SEEDS" "$BUILD/crashes"
if [ -z "$(ls -A "$SEEDS")" ]; then
    i=0
    for f in "$ROOT"/samples/tiny_encoder.onnx "$ROOT"/tests/data/*/*.onnx \
             "$ROOT"/tests/reference/models/*.onnx \
             /usr/share/libonnx-testdata/data/node/*/model.onnx; do
        [ -f "$f" ] || continue
        [ "$(stat -c %s "$f")" -le 1000000 ] || continue
        cp "$f" "$SEEDS/seed_$i.onnx"
        i=$((i + 1))
    done
    for f in "$ROOT"/tests/data/ort-plan/*.onnx.gz; do
        gzip -dc "$f" >"$SEEDS/seed_$i.onnx"
        [ "$(stat -c %s "$SEEDS/seed_$i.onnx")" -le 1000000 ] || rm "$SEEDS/seed_$i.onnx"
        i=$((i + 1))
    done
fi
half=$(( (SECS + 1) / 2 ))
status=0
for t in fuzz_load fuzz_predict; do
    mkdir -p "$BUILD/corpus-$t"
    # Memory and time per input bounded: a slow or huge input is a finding.
    # (-timeout is per input; generous, since CI machines may be loaded.)
    if ! "$BUILD/tests/fuzz/$t" "$BUILD/corpus-$t" "$SEEDS" -max_total_time="$half" \
        -rss_limit_mb=2048 -timeout=30 -max_len=1000000 \
        -artifact_prefix="$BUILD/crashes/$t-" -print_final_stats=1 >"$BUILD/$t.log" 2>&1; then
        status=1
        tail -40 "$BUILD/$t.log"
    fi
    echo "$t: $(grep -m1 -o 'stat::number_of_executed_units: *[0-9]*' "$BUILD/$t.log" |
                grep -o '[0-9]*$') executions in ${half} s"
done
exit $status
