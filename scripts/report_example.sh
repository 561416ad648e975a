#!/bin/bash
# report_example.sh [BUILD_DIR] - remake docs/report-example.png: the report
# of the committed tiny encoder, rendered by headless Chromium down to the
# batch-sweep charts (the node table below is cut off).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=$(cd "${1:-$ROOT/build}" && pwd)/onnxcost
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
cd "$ROOT" # the page shows the model's path as given: samples/...
"$BIN" report --input input_ids=1x16 --memory-limit 3MB samples/tiny_encoder.onnx \
    -o "$TMP/report.html"
timeout 120 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
    --user-data-dir="$TMP/profile" --window-size=1280,1998 \
    --screenshot="$ROOT/docs/report-example.png" "file://$TMP/report.html" 2>/dev/null
ls -l "$ROOT/docs/report-example.png"
