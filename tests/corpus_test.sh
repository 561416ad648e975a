#!/bin/bash
# corpus_test.sh ONNXCOST SRCDIR [MANIFEST] - real-world-style models
# (issue 16, deliverable 7): every model of tests/data/corpus/ (torch
# exports at opsets 11, 13 and 17, Constant-node weights, an LLM decoder
# with past key/values, If and Loop, float16, dynamic quantization; see
# tests/data/gen_corpus.py) analysed with every shape known once its dims
# are bound, the parameter count exact, the output shapes as expected, and
# predicted without error.  MANIFEST (default the corpus's expected.tsv)
# lists model, --dim bindings, params and output shapes; its models are
# read from its folder.
set -u
BIN=$1 SRC=$2
MAN=${3:-$SRC/tests/data/corpus/expected.tsv}
D=$(dirname "$MAN")
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
pass=0 fail=0
ok() { if eval "$1"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $2"; fi; }
PY=/usr/bin/python3
rows=0
while IFS=$'\t' read -r model dims params outputs; do
    case $model in '#'* | model | '') continue ;; esac
    rows=$((rows + 1))
    args=()
    if [ "$dims" != - ]; then
        IFS=, read -ra kv <<<"$dims"
        for b in "${kv[@]}"; do args+=(--dim "$b"); done
    fi
    "$BIN" analyze --format json "${args[@]}" "$D/$model" >"$TMP/an" 2>"$TMP/an.err"
    ok '[ $? -eq 0 ]' "$model: analyze exits 0"
    "$BIN" predict --format json "${args[@]}" "$D/$model" >"$TMP/pr" 2>"$TMP/pr.err"
    ok '[ $? -eq 0 ]' "$model: predict exits 0"
    ok '! grep -q "symbolic dim\|not counted" "$TMP/an.err" "$TMP/pr.err"' \
        "$model: no unbound-dim or not-counted warning"
    ok "$PY - '$TMP/an' '$TMP/pr' '$params' '$outputs' <<'E'
import json, sys
an, pr = (json.load(open(p)) for p in sys.argv[1:3])
params, outputs = int(sys.argv[3]), sys.argv[4]
want = {k: [int(d) for d in v.split('x')] if v else []
        for k, v in (o.split('=') for o in outputs.split(';'))}
for j in (an, pr):
    t = j['totals']
    assert t['params'] == params, ('params', t['params'], params)
    assert j['unbound_dims'] == [], j['unbound_dims']
    assert t['unknown_shape_nodes'] == 0 and t['unsupported_nodes'] == 0, t
    bad = [n['name'] for n in j['nodes'] if not n['shapes_known'] or not n['supported']]
    assert not bad, bad
    got = {o['name']: o['shape'] for o in j['outputs']}
    assert got == want, ('outputs', got, want)
t = pr['totals']
assert t['uncounted_nodes'] == 0 and t['time_ms'] > 0, t
assert all(n['time_us'] >= 0 for n in pr['nodes'])
E" "$model: params, every shape known, output shapes, a positive time"
done <"$MAN"
ok '[ $rows -gt 0 ]' "the manifest lists models"
echo "corpus_test: $rows models, $pass passed, $fail failed"
[ "$fail" -eq 0 ]
