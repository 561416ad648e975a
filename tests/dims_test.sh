#!/bin/bash
# dims_test.sh ONNXCOST SRCDIR - symbolic dims (issue 16, deliverable 4):
# --dim NAME=VALUE on analyze, predict, sweep, annotate and report; the
# batch is whatever binds the batch dim; one warning line for dims left
# unbound (exit 2 with --strict); JSON unbound_dims; a --dim or --input
# that names nothing lists what the model has.  Models: tests/data/dims/
# (gen_dims.py).
set -u
BIN=$1 SRC=$2
D="$SRC/tests/data/dims"
DET="$D/detector.onnx" DEC="$D/decoder.onnx"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
pass=0 fail=0
ok() { if eval "$1"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $2"; fi; }
PY=/usr/bin/python3
# dims left unbound: one warning line naming them and how to bind them
"$BIN" predict "$DET" >"$TMP/o" 2>"$TMP/e"
ok '[ $? -eq 0 ] && [ "$(grep -c "unbound" "$TMP/e")" -eq 1 ] &&
    grep -q "symbolic dims H, W are unbound and costed as 1: bind them with --dim NAME=VALUE (--dim H=... --dim W=...)" "$TMP/e"' \
    "predict: one warning line naming the unbound dims"
"$BIN" predict --strict "$DET" >"$TMP/o" 2>"$TMP/e"
ok '[ $? -eq 2 ] && [ "$(wc -l <"$TMP/e")" -eq 1 ] && grep -q "H, W are unbound (--strict)" "$TMP/e" && [ ! -s "$TMP/o" ]' \
    "predict --strict: one error line, exit 2, no output"
"$BIN" predict --strict --dim H=64 --dim W=64 "$DET" >"$TMP/o" 2>"$TMP/e"
ok '[ $? -eq 0 ] && ! grep -q unbound "$TMP/e"' "predict --strict with every dim bound"
# JSON says which: unbound_dims, a list beside model (every command alike)
"$BIN" analyze --format json "$DET" >"$TMP/a" 2>/dev/null
"$BIN" predict --format json "$DET" >"$TMP/p" 2>/dev/null
"$BIN" predict --format json --dim H=64 --dim W=64 "$DET" >"$TMP/pb" 2>/dev/null
ok "$PY - '$TMP' <<'E'
import json, sys
t = sys.argv[1]
a, p, pb = (json.load(open(f'{t}/{x}')) for x in ('a', 'p', 'pb'))
# analyze binds no batch unless told: N too
assert a['unbound_dims'] == ['N', 'H', 'W'], a['totals']
assert p['unbound_dims'] == ['H', 'W'] and p['totals']['batch'] == 1, p['totals']
assert pb['unbound_dims'] == [] and pb['inputs'][0]['shape'] == [1, 3, 64, 64]
E" "JSON unbound_dims"
# the batch is whatever binds the batch dim: --batch, --dim N=, --input
"$BIN" predict --format json --dataset-size 80 --batch 8 --dim H=64 --dim W=64 "$DET" >"$TMP/b1" 2>/dev/null
"$BIN" predict --format json --dataset-size 80 --dim N=8 --dim H=64 --dim W=64 "$DET" >"$TMP/b2" 2>/dev/null
"$BIN" predict --format json --dataset-size 80 --input X=8x3x64x64 "$DET" >"$TMP/b3" 2>"$TMP/e3"
"$BIN" predict --dataset-size 80 --input X=8x3x64x64 "$DET" >"$TMP/b3t" 2>/dev/null
ok "$PY - '$TMP' <<'E'
import json, sys
t = sys.argv[1]
js = [json.load(open(f'{t}/b{k}')) for k in (1, 2, 3)]
for j in js:
    tt = j['totals']
    assert tt['batch'] == 8 and tt['steps_per_epoch'] == 10 and j['unbound_dims'] == [], tt
    assert abs(tt['throughput_per_s'] - 8e3 / tt['time_ms']) < 1e-6 * tt['throughput_per_s']
    assert j['inputs'][0]['shape'] == [8, 3, 64, 64]
assert js[0]['totals']['time_ms'] == js[1]['totals']['time_ms'] == js[2]['totals']['time_ms']
E" "--batch 8, --dim N=8 and --input X=8x... give batch 8 alike (throughput, epoch)"
ok 'grep -q "^batch 8:" "$TMP/b3t" && grep -q "^epoch: 10 batches" "$TMP/b3t" && [ ! -s "$TMP/e3" ]' \
    "--input with a leading dim: the table's batch and epoch"
# names that name nothing: the names the model has
"$BIN" predict --dim foo=1 "$DET" >/dev/null 2>"$TMP/e"
ok '[ $? -eq 1 ] && [ "$(wc -l <"$TMP/e")" -eq 1 ] && grep -q "no symbolic dim of that name (it has: N, H, W)" "$TMP/e"' \
    "--dim naming nothing lists the model's dims"
"$BIN" analyze --input nope=1x3 "$DET" >/dev/null 2>"$TMP/e"
ok '[ $? -eq 1 ] && [ "$(wc -l <"$TMP/e")" -eq 1 ] && grep -q "no input of that name (its inputs: X)" "$TMP/e"' \
    "--input naming nothing lists the model's inputs"
"$BIN" predict --dim N=8 --input X=4x3x64x64 "$DET" >/dev/null 2>"$TMP/e"
ok '[ $? -eq 1 ] && [ "$(wc -l <"$TMP/e")" -eq 1 ] && grep -q "already bound to 8" "$TMP/e"' \
    "--input contradicting --dim: usage error"
for bad in "--dim H" "--dim H=x" "--dim =3" "--dim H=-1"; do
    "$BIN" predict $bad "$DET" >/dev/null 2>"$TMP/e"
    ok '[ $? -eq 1 ] && [ "$(wc -l <"$TMP/e")" -eq 1 ]' "predict $bad: usage error, one line"
done
"$BIN" predict --batch 4 --input X=2x3x8x8 "$DET" >"$TMP/o" 2>"$TMP/e"
ok 'grep -q "^batch 2:" "$TMP/o" && grep -q "warning: --batch 4 binds no dim" "$TMP/e"' \
    "--batch overridden by --input: batch 2, said once"
# a shared symbol: --input binds it in the other inputs too; --dim 0 is a size
"$BIN" analyze --format json --input input_ids=2x5 --dim past_seq=0 "$DEC" >"$TMP/d" 2>/dev/null
"$BIN" analyze --format json --dim batch=2 --dim seq=5 --dim past_seq=0 "$DEC" >"$TMP/d2" 2>/dev/null
ok "$PY - '$TMP/d' '$TMP/d2' <<'E'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
assert a['inputs'][1]['shape'] == [2, 4, 0, 8] and a['outputs'][0]['shape'] == [2, 4, 5, 8], a['outputs']
assert a['unbound_dims'] == [] and a['totals']['batch'] == 2
a['model'].pop('file'), b['model'].pop('file')
assert a == b
E" "decoder: a symbol shared by two inputs, past_seq=0"
# sweep: one warning for all steps; --strict; the batch dim is the sweep's
"$BIN" sweep --format json --batch 1,2,4 "$DET" >"$TMP/s" 2>"$TMP/e"
ok '[ $? -eq 0 ] && [ "$(grep -c unbound "$TMP/e")" -eq 1 ]' "sweep: one warning line for every step"
"$BIN" sweep --format json --batch 1,2 --dim H=32 --dim W=32 "$DET" >"$TMP/s2" 2>"$TMP/e"
ok "$PY - '$TMP/s' '$TMP/s2' <<'E'
import json, sys
s, s2 = (json.load(open(p)) for p in sys.argv[1:3])
assert s['unbound_dims'] == ['H', 'W'] and s2['unbound_dims'] == []
assert [r['batch'] for r in s2['sweep']] == [1, 2] and s2['sweep'][1]['time_ms'] > s2['sweep'][0]['time_ms']
assert all(r['uncounted_nodes'] == 0 for r in s2['sweep'])
E" "sweep JSON: unbound_dims, --dim binds the other dims"
ok '! grep -q unbound "$TMP/e"' "sweep with every other dim bound: no warning"
"$BIN" sweep --strict --batch 1,2 "$DET" >/dev/null 2>"$TMP/e"
ok '[ $? -eq 2 ] && [ "$(wc -l <"$TMP/e")" -eq 1 ]' "sweep --strict: exit 2, one line"
"$BIN" sweep --batch 1,2 --dim N=4 "$DET" >/dev/null 2>"$TMP/e"
ok '[ $? -eq 1 ] && grep -q "binds the batch dim" "$TMP/e"' "sweep --dim of the batch dim: usage error"
# annotate: the batch bound by --input; warning and --strict
"$BIN" annotate --input X=8x3x32x32 "$DET" -o "$TMP/an.onnx" 2>"$TMP/e"
ok "[ \$? -eq 0 ] && ! grep -q unbound '$TMP/e' && grep -q 'at batch 8' '$TMP/e' && $PY -c \"
import onnx; m = onnx.load('$TMP/an.onnx')
meta = {p.key: p.value for p in m.metadata_props}
assert meta['onnxcost.batch'] == '8', meta\"" "annotate: the batch of --input in the model's metadata"
"$BIN" annotate "$DET" -o "$TMP/an2.onnx" 2>"$TMP/e"
ok '[ $? -eq 0 ] && [ "$(grep -c unbound "$TMP/e")" -eq 1 ]' "annotate: one warning line"
"$BIN" annotate --strict "$DET" -o "$TMP/an3.onnx" 2>"$TMP/e"
ok '[ $? -eq 2 ] && [ ! -e "$TMP/an3.onnx" ] && [ "$(wc -l <"$TMP/e")" -eq 1 ]' "annotate --strict: exit 2, nothing written"
# report: the batch of --dim N in the header, the sweep still its own
"$BIN" report --dim N=4 --dim H=32 --dim W=32 --sweep 1,2 "$DET" -o "$TMP/r.html" 2>"$TMP/e"
ok '[ $? -eq 0 ] && grep -q "inference at batch <b>4</b>" "$TMP/r.html" && ! grep -q unbound "$TMP/e"' \
    "report: --dim N sets the report's batch, not the sweep's"
"$BIN" report --sweep 1,2 "$DET" -o "$TMP/r2.html" 2>"$TMP/e"
ok '[ $? -eq 0 ] && [ "$(grep -c unbound "$TMP/e")" -eq 1 ] && grep -q "bind them with --dim NAME=VALUE" "$TMP/r2.html"' \
    "report: one warning line, and the page says it"
"$BIN" report --strict --sweep 1,2 "$DET" -o "$TMP/r3.html" 2>"$TMP/e"
ok '[ $? -eq 2 ] && [ ! -e "$TMP/r3.html" ]' "report --strict: exit 2, nothing written"
# predict against two targets: the batch and the dims once
"$BIN" predict --format json --target ort-cpu --target ort-cpu --input X=2x3x16x16 "$DET" >"$TMP/t" 2>/dev/null
ok "$PY -c \"import json; j=json.load(open('$TMP/t')); assert j['batch']==2 and j['unbound_dims']==[] and all(t['uncounted_nodes']==0 for t in j['targets'])\"" \
    "predict with two targets: batch from --input, unbound_dims"
# One JSON shape in every command (issue 17): the model an object, the
# unbound dims a list beside it.
"$BIN" analyze --format json "$DET" >"$TMP/j1" 2>/dev/null
"$BIN" predict --format json "$DET" >"$TMP/j2" 2>/dev/null
"$BIN" predict --format json --target ort-cpu --target ort-cpu "$DET" >"$TMP/j3" 2>/dev/null
"$BIN" sweep --format json --batch 1,2 "$DET" >"$TMP/j4" 2>/dev/null
ok "$PY - '$TMP' <<'E'
import json, sys
js = [json.load(open(f'{sys.argv[1]}/j{k}')) for k in (1, 2, 3, 4)]
for j in js:
    assert j['model'] == js[0]['model'], (j['model'], js[0]['model'])
    assert isinstance(j['unbound_dims'], list), j['unbound_dims']
    assert 'unbound_dims' not in j.get('totals', {}), j['totals']
assert set(js[0]['model']) == {'file', 'ir_version', 'producer', 'opset'}, js[0]['model']
assert js[0]['model']['file'].endswith('.onnx')
assert js[1]['unbound_dims'] == js[2]['unbound_dims'] == js[3]['unbound_dims'] == ['H', 'W']
E" "analyze, predict (one and two targets), sweep: one model object, unbound_dims a list"
# compare --dim: the detector's H and W bound as predict binds them, against
# a profile of one run with one kernel (matched or not, the prediction is
# what the bindings change)
$PY - "$TMP/prof.json" <<'E'
import json, sys
json.dump([{"cat": "Session", "name": "model_run", "ph": "X", "ts": 0, "dur": 50, "args": {}},
           {"cat": "Node", "name": "conv_kernel_time", "ph": "X", "ts": 1, "dur": 40,
            "args": {"op_name": "FusedConv"}}], open(sys.argv[1], "w"))
E
for hw in 32 64; do
    "$BIN" compare --format json --dim H=$hw --dim W=$hw "$DET" "$TMP/prof.json" >"$TMP/c$hw" 2>"$TMP/ce$hw"
    ok '[ $? -eq 0 ] && ! grep -q unbound "$TMP/ce$hw"' "compare --dim H=$hw --dim W=$hw: exit 0, no unbound-dim warning"
done
"$BIN" compare --format json "$DET" "$TMP/prof.json" >"$TMP/c1" 2>"$TMP/ce1"
ok '[ $? -eq 0 ] && [ "$(grep -c "symbolic dims H, W are unbound" "$TMP/ce1")" -eq 1 ]' \
    "compare without --dim: the unbound-dim warning, once"
ok "$PY - '$TMP' <<'E'
import json, sys
c1, c32, c64 = (json.load(open(f'{sys.argv[1]}/c{k}')) for k in (1, 32, 64))
assert c1['unbound_dims'] == ['H', 'W'] and c32['unbound_dims'] == c64['unbound_dims'] == []
p = [c['totals']['kernel_time_predicted_us'] for c in (c1, c32, c64)]
assert p[0] < p[1] < p[2], p
E" "compare --dim: the dims bound, the predicted kernel time grows with them"
"$BIN" compare --dim Q=4 "$DET" "$TMP/prof.json" >/dev/null 2>"$TMP/e"
ok '[ $? -eq 1 ] && grep -q "dim Q: the model has no symbolic dim of that name (it has: N, H, W)" "$TMP/e"' \
    "compare --dim naming nothing: exit 1, the dims listed"
# a dim named as arithmetic of others (optimum's decoders name the
# attention mask's "past_sequence_length + sequence_length") follows from
# them once they are bound; unbound, the hint quotes it for the shell
C="$SRC/tests/data/corpus/decoder.onnx"
"$BIN" analyze --format json --batch 2 --dim sequence_length=3 --dim past_sequence_length=16 \
    "$C" >"$TMP/c" 2>"$TMP/e"
ok "[ \$? -eq 0 ] && [ ! -s '$TMP/e' ] && $PY -c \"import json; j = json.load(open('$TMP/c'))
assert {i['name']: i['shape'] for i in j['inputs']}['attention_mask'] == [2, 19], j['inputs']
assert j['unbound_dims'] == [], j['unbound_dims']\"" \
    "past_sequence_length + sequence_length: derived from the two bound dims"
"$BIN" predict --batch 2 "$C" >/dev/null 2>"$TMP/e"
ok "grep -qF -e \"--dim 'past_sequence_length + sequence_length=...' \" '$TMP/e'" \
    "the unbound-dim hint quotes a name with spaces"
echo "dims_test: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
