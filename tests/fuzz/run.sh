#!/bin/bash
# run.sh SECONDS [BUILD_DIR] - build the fuzz target with clang, seed a corpus
# from samples/, tests/data and the ONNX node tests, and fuzz for SECONDS.
# Exits non-zero on a crash (the reproducer is left in BUILD_DIR/crashes).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SECS=${1:-60}
BUILD=${2:-$ROOT/build-fuzz}
CC=clang cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DOC_FUZZ=ON -DOC_ASAN=ON >/dev/null
cmake --build "$BUILD" --target fuzz_load -j"$(nproc)" >/dev/null
SEEDS=$BUILD/seeds CORPUS=$BUILD/corpus
mkdir -p "$SEEDS" "$CORPUS" "$BUILD/crashes"
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
fi
# Keep memory and time per input bounded; a slow or huge input is a finding.
"$BUILD/tests/fuzz/fuzz_load" "$CORPUS" "$SEEDS" -max_total_time="$SECS" \
    -rss_limit_mb=2048 -timeout=10 -max_len=1000000 \
    -artifact_prefix="$BUILD/crashes/" -print_final_stats=1 2>&1 | tail -25
