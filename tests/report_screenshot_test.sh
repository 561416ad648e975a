#!/bin/bash
# report_screenshot_test.sh ONNXCOST SRCDIR - renders a report in headless
# Chromium and checks the screenshot (tests/report_png.py): its size, that it
# is not blank, and that the bar colours the report emits are on screen.
# Exit 77 (ctest: skipped) only when chromium is not installed.
set -u
BIN=$1
SRC=$(cd "$2" && pwd)
PY=/usr/bin/python3
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$CHROMIUM" ]; then
    echo "report_screenshot: SKIPPED: chromium is not installed (apt-get install chromium)"
    exit 77
fi
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
pass=0 fail=0
ok() { if eval "$1"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $2"; fi; }
W=1280 H=2400

"$BIN" report --input input_ids=1x16 --memory-limit 3MB "$SRC/samples/tiny_encoder.onnx" \
    -o "$TMP/report.html" 2>/dev/null
ok '[ $? -eq 0 ]' "report"
# --user-data-dir: a fresh profile, nothing shared with other runs
timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --hide-scrollbars \
    --user-data-dir="$TMP/profile" --window-size=$W,$H --screenshot="$TMP/shot.png" \
    "file://$TMP/report.html" >"$TMP/chromium.log" 2>&1
ok '[ $? -eq 0 ] && [ -s "$TMP/shot.png" ]' "chromium wrote a screenshot"
[ -s "$TMP/shot.png" ] || tail -5 "$TMP/chromium.log"
$PY "$SRC/tests/report_png.py" "$TMP/shot.png" "$TMP/report.html" $W $H
ok '[ $? -eq 0 ]' "screenshot: size, not blank, bar colours present"
if [ -n "${OC_KEEP_SCREENSHOT:-}" ] && [ -s "$TMP/shot.png" ]; then
    cp "$TMP/shot.png" "$OC_KEEP_SCREENSHOT"
fi

echo "report_screenshot_test: $pass passed, $fail failed"
[ $fail -eq 0 ]
