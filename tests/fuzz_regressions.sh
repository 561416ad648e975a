#!/bin/bash
# fuzz_regressions.sh ONNXCOST DIR - every input the fuzzer once crashed on
# must now end in a clean result or a one-line error (exit 0 or 2), under
# whatever sanitizers the binary was built with.
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
done
echo "fuzz_regressions: $pass passed, $fail failed"
[ $fail -eq 0 ]
