#!/bin/bash
# cli_test.sh ONNXCOST SAMPLES TMPDIR - the command's behaviour end to end:
# exit codes, one-line errors naming the file, and output contents.
set -u
BIN=$1 SAMPLES=$2 TMP=$3
DATA=$(cd "$(dirname "$0")/data" && pwd)
PY=/usr/bin/python3
rm -rf "$TMP" && mkdir -p "$TMP"
pass=0 fail=0

# expect CODE DESCRIPTION -- command...   (stdout/stderr kept in $TMP/out, err)
expect() {
    local want=$1 what=$2
    shift 3
    "$@" >"$TMP/out" 2>"$TMP/err"
    local got=$?
    if [ "$got" -eq "$want" ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL: $what: exit $got, expected $want"
        head -3 "$TMP/err"
    fi
}
# contains FILE TEXT DESCRIPTION
contains() {
    if grep -qF -- "$2" "$1"; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL: $3: '$2' not in $(basename "$1"):"
        head -5 "$1"
    fi
}
one_line_error() {
    local n
    n=$(wc -l <"$TMP/err")
    if [ "$n" -eq 1 ] && grep -q '^onnxcost: ' "$TMP/err"; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL: $1: expected one 'onnxcost:' line on stderr, got $n:"
        head -5 "$TMP/err"
    fi
}
json_ok() { # json_ok PYTHON-EXPR DESCRIPTION: EXPR over j=json of $TMP/out
    if $PY -c "import json,sys; j=json.load(open('$TMP/out')); sys.exit(0 if ($1) else 1)"; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL: $2: $1"
    fi
}

SQ=$SAMPLES/squeezenet1_1.onnx
MB=$SAMPLES/mobilenet_v2.onnx
TE=$SAMPLES/tiny_encoder.onnx

# --- usage ---
expect 0 "--version" -- "$BIN" --version
contains "$TMP/out" "onnxcost " "--version prints a version"
expect 0 "--help" -- "$BIN" --help
contains "$TMP/out" "analyze" "--help lists commands"
for c in info analyze; do
    expect 0 "$c --help" -- "$BIN" $c --help
    contains "$TMP/out" "usage: onnxcost $c" "$c --help"
done
expect 1 "no command" -- "$BIN"
expect 1 "unknown command" -- "$BIN" frobnicate "$SQ"
one_line_error "unknown command"
expect 1 "no model" -- "$BIN" info
expect 1 "two models" -- "$BIN" info "$SQ" "$SQ"
expect 1 "bad format" -- "$BIN" analyze --format xml "$SQ"
one_line_error "bad format"
expect 1 "negative batch" -- "$BIN" analyze --batch -3 "$SQ"
expect 1 "zero batch" -- "$BIN" analyze --batch 0 "$SQ"
expect 1 "text batch" -- "$BIN" analyze --batch many "$SQ"
expect 1 "bad --input" -- "$BIN" analyze --input nonsense "$SQ"
expect 1 "bad --input dims" -- "$BIN" analyze --input input=1xtwo "$SQ"
expect 1 "--input unknown name" -- "$BIN" analyze --input nope=1x3x224x224 "$SQ"
contains "$TMP/err" "nope" "--input names the input"
expect 1 "--input wrong rank" -- "$BIN" analyze --input input=1x3x224 "$SQ"
expect 1 "unknown option" -- "$BIN" info --frobnicate "$SQ"

# --- bad input files: one line naming the file, exit 2 ---
bad() { # bad FILE DESCRIPTION [TEXT]
    for c in info analyze; do
        expect 2 "$2 ($c)" -- "$BIN" $c "$1"
        one_line_error "$2 ($c)"
        contains "$TMP/err" "$(basename "$1")" "$2 names the file"
        [ $# -ge 3 ] && contains "$TMP/err" "$3" "$2 says why"
    done
}
bad "$TMP/missing.onnx" "missing file" "cannot open"
mkdir -p "$TMP/adir.onnx"
bad "$TMP/adir.onnx" "directory" "directory"
: >"$TMP/empty.onnx"
bad "$TMP/empty.onnx" "empty file" "empty"
printf '\x08' >"$TMP/one_byte.onnx"
bad "$TMP/one_byte.onnx" "1-byte file"
head -c 5000 /dev/urandom >"$TMP/random.onnx"
bad "$TMP/random.onnx" "random bytes"
for n in 3 100 5000 100000 2000000; do
    head -c $n "$SQ" >"$TMP/trunc_$n.onnx"
    bad "$TMP/trunc_$n.onnx" "truncated at $n bytes"
done
bad "$DATA/bad/nograph.onnx" "no graph" "no graph"
bad "$DATA/bad/cycle.onnx" "cycle" "cycle"
contains "$TMP/err" "relu_a" "cycle names a node"
bad "$DATA/bad/undefined_input.onnx" "undefined input" "ghost"
contains "$TMP/err" "add_ghost" "undefined input names the node"
expect 2 "channel mismatch" -- "$BIN" analyze "$DATA/bad/conv_channels.onnx"
one_line_error "channel mismatch"
contains "$TMP/err" "conv_bad" "channel mismatch names the node"
expect 2 "rank mismatch" -- "$BIN" analyze "$DATA/bad/conv_rank.onnx"
one_line_error "rank mismatch"
contains "$TMP/err" "conv_rank" "rank mismatch names the node"
expect 2 "inner dims mismatch" -- "$BIN" analyze "$DATA/bad/matmul_k.onnx"
one_line_error "inner dims mismatch"
contains "$TMP/err" "matmul_k" "MatMul mismatch names the node"
expect 2 "Reshape with two -1" -- "$BIN" analyze "$DATA/bad/reshape_two_minus_one.onnx"
one_line_error "Reshape with two -1"
contains "$TMP/err" "reshape_bad" "Reshape error names the node"
expect 2 "MACs overflow" -- "$BIN" analyze "$DATA/bad/overflow.onnx"
one_line_error "MACs overflow"
contains "$TMP/err" "64 bits" "overflow is said"
expect 2 "MACs overflow (elements fit)" -- "$BIN" analyze "$DATA/bad/overflow_macs.onnx"
one_line_error "MACs overflow (elements fit)"
contains "$TMP/err" "overflows 64 bits" "MAC overflow is said"
contains "$TMP/err" "matmul_macs" "MAC overflow names the node"

# --- nesting: valid deep If chains work, past the limit is a clear error ---
expect 0 "300-deep nested If" -- "$BIN" analyze --format json "$DATA/bad/nested_if_300.onnx"
json_ok "j['outputs'][0]['shape'] == ['N', 4] and j['totals']['flops'] > 0" "nested If: shape through 300 levels"
expect 2 "400-deep nested If" -- "$BIN" analyze "$DATA/bad/nested_if_400.onnx"
one_line_error "400-deep nested If"
contains "$TMP/err" "nested more than" "deep nesting is said"
expect 2 "100000-deep TypeProto" -- "$BIN" info "$DATA/bad/deep_type.onnx"
one_line_error "100000-deep TypeProto"

# --- unknown operators are reported, the rest is analysed ---
expect 0 "custom op" -- "$BIN" analyze --format json "$DATA/bad/custom_op.onnx"
contains "$TMP/err" "FancyOp" "custom op is named"
json_ok "j['totals']['unsupported_nodes'] == 1 and j['outputs'][0]['shape'] == ['N', 4]" \
    "custom op: the rest is analysed"

# --- info ---
expect 0 "info table" -- "$BIN" info "$SQ"
contains "$TMP/out" "[N,3,224,224]" "info shows the symbolic input"
contains "$TMP/out" "Conv" "info histogram"
expect 0 "info json" -- "$BIN" info --format json "$SQ"
json_ok "j['inputs'][0]['shape'] == ['N', 3, 224, 224] and j['nodes'] == 83 and j['params'] == 1233288 and j['operators']['Conv'] == 26 and j['opsets'][0]['version'] == 13" \
    "info json fields"
gzip -c "$SQ" >"$TMP/squeezenet.onnx.gz"
expect 0 "info gzip" -- "$BIN" info --format json "$TMP/squeezenet.onnx.gz"
json_ok "j['compression'] == 'gzip' and j['nodes'] == 83" "gzip model"
expect 0 "info from a pipe" -- bash -c "cat '$SQ' | '$BIN' info --format json /dev/stdin"
json_ok "j['nodes'] == 83" "model from a pipe"

# --- analyze ---
expect 0 "analyze json" -- "$BIN" analyze --format json "$SQ"
json_ok "all(k in j for k in ('model','inputs','outputs','nodes','totals'))" "analyze json keys"
json_ok "j['outputs'][0]['shape'] == ['N', 1000] and j['inputs'][0]['dtype'] == 'float32'" \
    "analyze keeps N symbolic"
json_ok "all(k in n for n in j['nodes'] for k in ('name','op','domain','inputs','outputs','macs','flops','params','bytes_read','bytes_written'))" \
    "analyze node keys"
json_ok "all(k in j['totals'] for k in ('nodes','macs','flops','params','bytes_read','bytes_written','peak_activation_bytes','weight_bytes'))" \
    "analyze totals keys"
expect 0 "analyze --batch 8" -- "$BIN" analyze --format json --batch 8 "$SQ"
json_ok "j['inputs'][0]['shape'] == [8, 3, 224, 224] and j['outputs'][0]['shape'] == [8, 1000]" \
    "--batch binds N"
cp "$TMP/out" "$TMP/b8.json"
expect 0 "analyze --batch 1" -- "$BIN" analyze --format json --batch 1 "$SQ"
$PY - "$TMP/out" "$TMP/b8.json" <<'PYEOF' && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: MACs scale with batch"; }
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
assert a['totals']['macs'] > 0 and b['totals']['macs'] == 8 * a['totals']['macs']
assert b['totals']['params'] == a['totals']['params']
PYEOF
expect 0 "analyze --input" -- "$BIN" analyze --format json --input input=2x3x112x112 "$SQ"
json_ok "j['inputs'][0]['shape'] == [2, 3, 112, 112] and j['outputs'][0]['shape'] == [2, 1000]" \
    "--input overrides"
expect 0 "analyze csv" -- "$BIN" analyze --format csv --batch 1 "$SQ"
contains "$TMP/out" "name,op,domain,output_shape,macs" "csv header"
[ "$(wc -l <"$TMP/out")" -eq 84 ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: csv rows"; }
expect 0 "analyze table" -- "$BIN" analyze --batch 1 "$MB"
contains "$TMP/out" "by operator type" "table summary"
contains "$TMP/out" "MMAC" "table human units"
expect 0 "analyze --top" -- "$BIN" analyze --batch 1 --top 5 "$MB"
expect 0 "tiny encoder" -- "$BIN" analyze --format json --batch 2 --input input_ids=2x16 "$TE"
json_ok "j['totals']['unknown_shape_nodes'] == 0" "encoder: every shape known"

echo "cli_test: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
