#!/bin/bash
# scale_test.sh ONNXCOST SRCDIR [plain|sanitized] - memory and time that grow with the file,
# never faster (issue 18): a 100,000-node graph analysed within 24x its
# file size in peak RSS (28x before); annotate of a model with 192 MiB of
# weights within 64 MB (the weights stream from the mapped input to the
# output: 404 MB before), plain, gzip'd and --in-place on a hard link, the
# weights arriving intact; 10^5 nodes that differ only in an attribute
# predicted in seconds (CSE was quadratic: over 120 s).  Wall-time bounds
# are loose (a loaded machine passes); the memory bounds are not timing.
# Under a sanitizer (third argument "sanitized") the memory bounds are not
# checked and the time bounds are five times longer; the rest is.
set -u
BIN=$1
SRC=$(cd "$2" && pwd)
MODE=${3:-plain}
SLOW=1
[ "$MODE" = sanitized ] && SLOW=5
# mem_ok KB LIMIT_KB: within the bound, or a sanitized build
mem_ok() { [ "$MODE" = sanitized ] || { [ "$1" -gt 0 ] && [ "$1" -le "$2" ]; }; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
PY=/usr/bin/python3
GEN=$SRC/tests/gen_scale.py
pass=0 fail=0
ok() { if eval "$1"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $2"; head -3 "$TMP/err" 2>/dev/null; fi; }
# measure LIMIT_S CMD...: status in $rc, peak RSS (KB) in $kb, seconds in $secs
measure() {
    local lim=$(($1 * SLOW))
    shift
    /usr/bin/time -f '%M %e' -o "$TMP/time" timeout "$lim" "$@" >"$TMP/out" 2>"$TMP/err"
    rc=$?
    # the last line: "Command exited with non-zero status N" may go before
    read -r kb secs < <(tail -n 1 "$TMP/time") || { kb=0; secs=0; }
    case $kb in '' | *[!0-9]*) kb=0 ;; esac
}
size_kb() { echo $(($(stat -c %s "$1") / 1024)); }

# ---- a 100,000-node chain ----
$PY "$GEN" chain "$TMP/chain.onnx" || { echo "FAIL: generating the chain"; exit 1; }
f=$(size_kb "$TMP/chain.onnx")
measure 60 "$BIN" analyze "$TMP/chain.onnx"
echo "chain: ${f} KB file; analyze ${kb} KB peak, ${secs} s"
ok '[ $rc -eq 0 ] && [ "$(wc -l <"$TMP/out")" -gt 100000 ]' "analyze 100k nodes: exit 0, a row per node"
ok 'mem_ok "$kb" $((24 * f))' "analyze 100k nodes: peak RSS ${kb} KB <= 24x the file (${f} KB)"
measure 60 "$BIN" predict "$TMP/chain.onnx"
echo "chain: predict ${kb} KB peak, ${secs} s"
ok '[ $rc -eq 0 ] && mem_ok "$kb" $((64 * f))' "predict 100k nodes: exit 0, peak RSS ${kb} KB <= 64x the file"

# ---- CSE over 10^5 nodes alike but for an attribute ----
$PY "$GEN" cse "$TMP/cse.onnx" || { echo "FAIL: generating the CSE model"; exit 1; }
measure 60 "$BIN" predict "$TMP/cse.onnx"
echo "cse: predict ${kb} KB peak, ${secs} s"
ok '[ $rc -eq 0 ] && grep -q "kernels" "$TMP/out"' "predict 10^5 nodes differing in alpha: done within 60 s (rc $rc)"

# ---- annotate streams the weights ----
$PY "$GEN" weights "$TMP/w.onnx" 192 || { echo "FAIL: generating the weights model"; exit 1; }
measure 120 "$BIN" annotate "$TMP/w.onnx" -o "$TMP/w.ann.onnx"
echo "weights: $(size_kb "$TMP/w.onnx") KB file; annotate ${kb} KB peak, ${secs} s"
ok '[ $rc -eq 0 ] && mem_ok "$kb" 65536' "annotate 192 MiB of weights: peak RSS ${kb} KB <= 64 MB"
# the weights intact, the annotations there
cat >"$TMP/same.py" <<'PYEOF'
import hashlib, sys, onnx
a, b = onnx.load(sys.argv[1]), onnx.load(sys.argv[2])
onnx.checker.check_model(b)
h = lambda m: [(t.name, hashlib.sha256(t.raw_data).hexdigest()) for t in m.graph.initializer]
assert h(a) == h(b) and len(h(a)) == 3, "weights differ"
assert any(p.key == "onnxcost.time_ms" for p in b.metadata_props), "no annotation"
PYEOF
ok "$PY '$TMP/same.py' '$TMP/w.onnx' '$TMP/w.ann.onnx'" "annotate 192 MiB: a valid model, every weight byte-identical, annotated"
measure 120 "$BIN" annotate "$TMP/w.onnx" -o "$TMP/w.ann.onnx.gz"
ok '[ $rc -eq 0 ] && mem_ok "$kb" 65536 && gunzip -c "$TMP/w.ann.onnx.gz" | cmp -s - "$TMP/w.ann.onnx"' "annotate -o .gz: ${kb} KB peak, the same bytes compressed"
# --in-place through a second hard link: written whole to the temporary
# from the mapping first, then copied over the (mapped) file itself
ln "$TMP/w.onnx" "$TMP/w2.onnx"
ino=$(stat -c %i "$TMP/w.onnx")
measure 120 "$BIN" annotate --in-place "$TMP/w2.onnx"
ok '[ $rc -eq 0 ] && mem_ok "$kb" 65536 && [ "$(stat -c %i "$TMP/w.onnx")" = "$ino" ] && cmp -s "$TMP/w.onnx" "$TMP/w.ann.onnx"' "annotate --in-place on a hard link: ${kb} KB peak, same inode, the same bytes as -o"
ok '[ -z "$(find "$TMP" -name ".oc-*")" ]' "no temporary left"

echo "scale: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
