#!/bin/bash
# unknown_test.sh ONNXCOST SRCDIR - a node whose shapes stay unknown never
# sinks the prediction (issue 16, deliverable 5): predict, sweep, annotate
# and report predict the rest, mark the node with its reason and say how
# many nodes are not counted, in one warning line (exit 2 with --strict).
# Model: tests/data/unknown/branches.onnx (gen_unknown.py): NonZero, a
# Transpose of its output, a custom op and a Sigmoid of its output.
set -u
BIN=$1 SRC=$2
M="$SRC/tests/data/unknown/branches.onnx"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
pass=0 fail=0
ok() { if eval "$1"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $2"; fi; }
PY=/usr/bin/python3
"$BIN" predict --format json "$M" >"$TMP/j" 2>"$TMP/e"
ok '[ $? -eq 0 ] && [ "$(grep -c "not counted" "$TMP/e")" -eq 1 ] &&
    grep -q "4 of 8 nodes are not counted in the time: their shapes are unknown (first: node .nonzero. (NonZero)" "$TMP/e"' \
    "predict: exit 0, one warning line"
ok "$PY - '$TMP/j' <<'E'
import json, sys
j = json.load(open(sys.argv[1]))
t = j['totals']
nodes = {n['name']: n for n in j['nodes']}
unk = {k: n['unknown'] for k, n in nodes.items() if 'unknown' in n}
assert set(unk) == {'nonzero', 'nz_t', 'fancy', 'sigmoid'}, unk
assert t['uncounted_nodes'] == 4
assert 'depends on the values of its inputs' in unk['nonzero'] and 'no shape rule' in unk['fancy'], unk
assert \"input 0 'nz'\" in unk['nz_t'] and \"input 0 'f'\" in unk['sigmoid'], unk
assert all(nodes[k]['time_us'] == 0 for k in unk)
# the rest is predicted, and the total is its sum (plus the kernels of no
# node the plan inserts, here the ReorderOutput after the Conv (its
# 3-channel input is read unblocked), and the per-run overhead)
assert nodes['conv']['time_us'] > 0 and t['time_ms'] > 0
assert t['inserted_kernels'] == 1 and t['inserted_ms'] > 0, t
assert abs(sum(n['time_us'] for n in j['nodes']) / 1e3 + t['inserted_ms'] + t['overhead_ms']
           + t['output_ms'] - t['time_ms']) < 1e-9
ks = [k for k in j['kernels'] if 'unknown' in k]
assert {k['nodes'][0] for k in ks} == set(unk), ks
E" "predict JSON: the unknown nodes marked with their reason, the rest predicted"
"$BIN" predict "$M" >"$TMP/t" 2>/dev/null
ok 'grep -q "^not counted (shapes unknown):" "$TMP/t" && grep -q "^  nonzero .*depends on the values of its inputs" "$TMP/t" &&
    grep -q "^not counted: 4 nodes whose shapes are unknown" "$TMP/t" && grep -q "^conv " "$TMP/t"' \
    "predict table: the nodes not counted and why"
"$BIN" predict --strict "$M" >"$TMP/t" 2>"$TMP/e"
ok '[ $? -eq 2 ] && [ "$(grep -vc "warning: node" "$TMP/e")" -eq 1 ] && [ ! -s "$TMP/t" ]' \
    "predict --strict: exit 2, one error line"
"$BIN" predict --mode training --format json "$M" >"$TMP/tr" 2>/dev/null
ok "[ \$? -eq 0 ] && $PY -c \"import json; assert json.load(open('$TMP/tr'))['totals']['uncounted_nodes'] == 4\"" \
    "predict --mode training: the same nodes left out"
"$BIN" sweep --format json --batch 1,2 "$M" >"$TMP/s" 2>"$TMP/e"
ok "[ \$? -eq 0 ] && [ \$(grep -c 'not counted' '$TMP/e') -eq 1 ] && $PY -c \"
import json; j = json.load(open('$TMP/s'))
assert [r['uncounted_nodes'] for r in j['sweep']] == [4, 4] and j['sweep'][1]['time_ms'] > 0\"" \
    "sweep: every step predicted, one warning line"
"$BIN" annotate "$M" -o "$TMP/a.onnx" 2>"$TMP/e"
ok "[ \$? -eq 0 ] && $PY - '$TMP/a.onnx' <<'E'
import sys, onnx
m = onnx.load(sys.argv[1])
meta = {p.key: p.value for p in m.metadata_props}
assert meta['onnxcost.uncounted_nodes'] == '4', meta
doc = {n.name: n.doc_string for n in m.graph.node}
assert doc['nonzero'].startswith('onnxcost: not counted: output 0'), doc['nonzero']
assert 'time_us=' in doc['conv'] and 'time_us=' not in doc['sigmoid']
E" "annotate: the nodes not counted say so, the model says how many"
"$BIN" report --sweep 1,2 "$M" -o "$TMP/r.html" 2>"$TMP/e"
ok '[ $? -eq 0 ] && grep -q "4 nodes not counted" "$TMP/r.html" && grep -q "not counted: com.example.Fancy has no shape rule" "$TMP/r.html"' \
    "report: the header and the node table mark them"
echo "unknown_test: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
