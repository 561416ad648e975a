#!/bin/bash
# fuzz_regressions.sh ONNXCOST DIR - every input the fuzzer once crashed on
# must now end in a clean result or a one-line error (exit 0 or 2), under
# whatever sanitizers the binary was built with; and where predict gives a
# result, its totals count at least the kernels it lists (fuzz_predict's
# check).
set -u
BIN=$1 DIR=$2
pass=0 fail=0
for f in "$DIR"/*.onnx; do
    for args in "" "--batch 3"; do
        # shellcheck disable=SC2086
        timeout 20 "$BIN" analyze $args --format json "$f" >/dev/null 2>/tmp/oc_fuzz_reg.err
        rc=$?
        if [ $rc -eq 0 ] || { [ $rc -eq 2 ] && [ "$(wc -l </tmp/oc_fuzz_reg.err)" -ge 1 ]; }; then
            pass=$((pass + 1))
        else
            fail=$((fail + 1))
            echo "FAIL: $(basename "$f") $args: exit $rc"
            head -5 /tmp/oc_fuzz_reg.err
        fi
    done
    timeout 20 "$BIN" predict --format json "$f" >/tmp/oc_fuzz_reg.json 2>/tmp/oc_fuzz_reg.err
    rc=$?
    if [ $rc -eq 0 ]; then
        if python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
n, total = len(d["kernels"]), d["totals"]["kernels"]
sys.exit(0 if total >= n else "%d kernels listed, totals.kernels %d" % (n, total))
' /tmp/oc_fuzz_reg.json; then
            pass=$((pass + 1))
        else
            fail=$((fail + 1))
            echo "FAIL: $(basename "$f") predict: inconsistent kernel count"
        fi
    elif [ $rc -eq 2 ] && [ "$(wc -l </tmp/oc_fuzz_reg.err)" -ge 1 ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL: $(basename "$f") predict: exit $rc"
        head -5 /tmp/oc_fuzz_reg.err
    fi
done
echo "fuzz_regressions: $pass passed, $fail failed"
[ $fail -eq 0 ]
