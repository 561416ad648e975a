#!/bin/bash
# predict_test.sh ONNXCOST SAMPLES - the built-in timing model end to end.
set -u
BIN=$1 SAMPLES=$2
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
pass=0 fail=0
ok() { if eval "$1"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $2"; fi; }
PY=/usr/bin/python3
"$BIN" predict "$SAMPLES/mobilenet_v2.onnx" >"$TMP/t" 2>"$TMP/e"
ok '[ $? -eq 0 ]' "predict with no flags"
ok 'grep -q "batch 1:" "$TMP/t"' "table totals"
"$BIN" predict --format json --batch 4 "$SAMPLES/mobilenet_v2.onnx" >"$TMP/j4"
"$BIN" predict --format json --batch 1 "$SAMPLES/mobilenet_v2.onnx" >"$TMP/j1"
ok "$PY - '$TMP/j1' '$TMP/j4' <<'E'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
for j in (a, b):
    t = j['totals']
    assert t['time_ms_low'] <= t['time_ms'] <= t['time_ms_high'], t
    assert all(k in n for n in j['nodes'] for k in ('time_us', 'time_us_low', 'time_us_high'))
    assert abs(sum(n['time_us'] for n in j['nodes']) / 1e3 + t['overhead_ms'] - t['time_ms']) < 1e-6 * max(1, t['time_ms'])
    # Relu6 (Clip) after a Conv runs inside it: no time of its own
    clips = [n for n in j['nodes'] if n['op'] == 'Clip']
    assert clips and all(n['time_us'] == 0 and 'fused_into' in n for n in clips)
assert b['totals']['time_ms'] > a['totals']['time_ms'] > 0
E" "json fields, fusion, batch scaling"
"$BIN" predict --format json --batch 8 --dataset-size 1000 --epochs 3 "$SAMPLES/squeezenet1_1.onnx" >"$TMP/e8"
ok "$PY -c \"import json; t=json.load(open('$TMP/e8'))['totals']; assert t['steps_per_epoch']==125 and abs(t['epoch_s']-125*t['time_ms']/1e3)<1e-9 and abs(t['total_s']-3*t['epoch_s'])<1e-9\"" "epoch time"
"$BIN" predict --baseline linear --format json "$SAMPLES/squeezenet1_1.onnx" >"$TMP/lin"
ok "$PY -c \"import json; t=json.load(open('$TMP/lin'))['totals']; assert abs(t['time_ms']-t['linear_ms'])<1e-9\"" "linear baseline"
# the built-in model (inflated at build time) is data/ort-cpu.tmodel
"$BIN" predict --format json --timing-model "$SAMPLES/../data/ort-cpu.tmodel" --batch 4 "$SAMPLES/mobilenet_v2.onnx" >"$TMP/f4"
ok 'cmp -s "$TMP/j4" "$TMP/f4"' "built-in model = data/ort-cpu.tmodel"
"$BIN" predict --threads 2 "$SAMPLES/squeezenet1_1.onnx" >/dev/null 2>&1
ok '[ $? -eq 0 ]' "2 threads"
"$BIN" predict --timing-model "$TMP/none.tmodel" "$SAMPLES/squeezenet1_1.onnx" >/dev/null 2>"$TMP/err"
ok '[ $? -eq 2 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ]' "missing timing model: one line, exit 2"
head -c 100 "$SAMPLES/squeezenet1_1.onnx" >"$TMP/bad.tmodel"
"$BIN" predict --timing-model "$TMP/bad.tmodel" "$SAMPLES/squeezenet1_1.onnx" >/dev/null 2>"$TMP/err"
ok '[ $? -eq 2 ]' "not a timing model"
"$BIN" predict --input input_ids=2x16 "$SAMPLES/tiny_encoder.onnx" >/dev/null 2>&1
ok '[ $? -eq 0 ]' "transformer"
# sweep: one row per batch, marks consistent with the limit
"$BIN" sweep --format json --batch 1,2,4,8 --memory-limit 60MB "$SAMPLES/mobilenet_v2.onnx" >"$TMP/sw"
ok "$PY - '$TMP/sw' '$TMP/j4' <<'E'
import json, sys
j = json.load(open(sys.argv[1])); p4 = json.load(open(sys.argv[2]))
rows = j['sweep']
assert [r['batch'] for r in rows] == [1, 2, 4, 8]
assert all(k in r for r in rows for k in ('batch', 'time_ms', 'throughput_per_s', 'memory_bytes'))
mem = [r['memory_bytes'] for r in rows]
assert mem == sorted(mem) and mem[0] > 0
fits = [r['batch'] for r in rows if r['memory_bytes'] <= 60e6]
assert j['largest_fitting_batch'] == max(fits)
best = max((r for r in rows if r['fits']), key=lambda r: r['throughput_per_s'])
assert j['best_throughput_batch'] == best['batch']
# the sweep's batch-4 row is predict --batch 4 (the sweep runs every batch
# through one float32 sgemm, whose rounding depends on the matrix size)
assert abs(rows[2]['time_ms'] - p4['totals']['time_ms']) < 1e-6 * p4['totals']['time_ms']
E" "sweep rows and marks"
"$BIN" sweep --batch 1,x "$SAMPLES/mobilenet_v2.onnx" >/dev/null 2>&1
ok '[ $? -eq 1 ]' "sweep: bad list"
"$BIN" sweep --memory-limit lots "$SAMPLES/mobilenet_v2.onnx" >/dev/null 2>&1
ok '[ $? -eq 1 ]' "sweep: bad size"
echo "predict_test: $pass passed, $fail failed"
[ $fail -eq 0 ]
