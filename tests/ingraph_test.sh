#!/bin/bash
# ingraph_test.sh ONNXCOST SRCDIR - collect --from-runs: the kernels of a
# measured whole-model run as dataset lines (training/ingraph.h).  The run
# is squeezenet1_1 at batch 1, 1 thread, as measured on
# cpu-AuthenticAMD-f26-m2 (data/machines/.../ort-cpu-models.jsonl).
set -u
BIN=$1 SRC=$2
M="$SRC/tests/reference/models"
RUNS="$SRC/data/machines/cpu-AuthenticAMD-f26-m2/ort-cpu-models.jsonl"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
pass=0 fail=0
ok() { if eval "$1"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $2"; fi; }
PY=/usr/bin/python3
export ONNXCOST_MACHINE=cpu-AuthenticAMD-f26-m2
grep '"model": "squeezenet1_1", "batch": 1, "threads": 1,' "$RUNS" | head -1 >"$TMP/run.jsonl"
ok '[ "$(wc -l <"$TMP/run.jsonl")" -eq 1 ]' "the squeezenet run is in $RUNS"

"$BIN" collect --from-runs "$TMP/run.jsonl" --models "$M" -d "$TMP/d.jsonl.gz" 2>"$TMP/err"
ok '[ $? -eq 0 ]' "collect --from-runs exits 0"
ok 'grep -q "1 runs: [0-9]* kernels, [0-9]* new" "$TMP/err"' "it says how many runs and kernels"
ok "$PY - '$TMP' <<'E'
import gzip, json, re, sys
t = sys.argv[1]
run = json.loads(open(f'{t}/run.jsonl').read())
lines = [json.loads(l) for l in gzip.open(f'{t}/d.jsonl.gz', 'rt')]
assert len(lines) >= 30, len(lines)
ids = [l['id'] for l in lines]
assert len(set(ids)) == len(ids)
assert all(re.fullmatch(r'ort-cpu/t1/InGraph/squeezenet1_1/b1/\d{6}', i) for i in ids), ids[:3]
assert all(l['target']['machine'] == 'cpu-AuthenticAMD-f26-m2' and l['target']['threads'] == 1
           for l in lines)
# every time is one of the run's profiled kernel medians
meds = {k['median_us'] for k in run['kernels']}
assert all(l['time_us'] in meds for l in lines), [l['time_us'] for l in lines if l['time_us'] not in meds]
# the Convs are there, with the run's shapes (batch 1, 3x224x224 first)
convs = [l for l in lines if l['op'] == 'Conv']
assert len(convs) == 26, len(convs)
assert any(c['node']['inputs'][0]['shape'] == [1, 3, 224, 224] for c in convs)
# nearly all the profiled time is in lines (what is not: shape kernels)
tot = sum(k['median_us'] for k in run['kernels'])
got = sum(l['time_us'] for l in lines)
assert 0.9 * tot <= got <= tot, (got, tot)
E" "one line per predicted kernel, each timed as the profile says"

# the timing model reads the lines (eval featurises every one)
"$BIN" eval --timing-model "$SRC/data/ort-cpu.tmodel" --split all -f json "$TMP/d.jsonl.gz" \
    >"$TMP/eval.json" 2>"$TMP/eval.err"
ok '[ $? -eq 0 ] && grep -q InGraph "$TMP/eval.json"' "eval scores the lines"

"$BIN" collect --from-runs "$TMP/run.jsonl" --models "$M" -d "$TMP/d.jsonl.gz" 2>"$TMP/err"
ok '[ $? -eq 0 ] && grep -q " 0 new in" "$TMP/err"' "a second run adds nothing"

# a kernel list of another network: left out, said once
$PY - "$RUNS" "$TMP/foreign.jsonl" <<'E'
import json, sys
runs = [json.loads(l) for l in open(sys.argv[1])]
sq = next(r for r in runs if r['model'] == 'squeezenet1_1')
mb = next(r for r in runs if r['model'] == 'mobilenet_v2')
sq['kernels'] = mb['kernels']
open(sys.argv[2], 'w').write(json.dumps(sq) + '\n')
E
"$BIN" collect --from-runs "$TMP/foreign.jsonl" --models "$M" -d "$TMP/f.jsonl.gz" 2>"$TMP/err"
ok '[ $? -eq 0 ] && [ "$(grep -c "warning: 1 runs whose kernel lists the plan does not match" "$TMP/err")" -eq 1 ]' \
    "a foreign kernel list: one warning"
ok '[ ! -s "$TMP/f.jsonl.gz" ] || [ "$(zcat "$TMP/f.jsonl.gz" | wc -l)" -eq 0 ]' "and no line"

# bad input: one line, non-zero
sed 's/squeezenet1_1/no_such_model/' "$TMP/run.jsonl" >"$TMP/missing.jsonl"
"$BIN" collect --from-runs "$TMP/missing.jsonl" --models "$M" -d "$TMP/m.jsonl.gz" 2>"$TMP/err"
ok '[ $? -eq 2 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] && grep -q no_such_model "$TMP/err"' \
    "a run of a missing model: exit 2, one line"
echo '{"model": "squeezenet1_1", "batch": 1' >"$TMP/cut.jsonl"
"$BIN" collect --from-runs "$TMP/cut.jsonl" --models "$M" -d "$TMP/m.jsonl.gz" 2>"$TMP/err"
ok '[ $? -eq 2 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] && grep -q "cut.jsonl:1:" "$TMP/err"' \
    "a cut line: exit 2, one line naming it"
"$BIN" collect --from-runs "$TMP/run.jsonl" --models "$M" -d "$TMP/m.jsonl.gz" \
    --machine cpu-GenuineIntel-f6-m85 2>"$TMP/err"
ok '[ $? -eq 1 ] && grep -q "no profile of cpu-GenuineIntel-f6-m85" "$TMP/err"' \
    "a machine the model never learned: exit 1"
"$BIN" collect --from-runs "$TMP/run.jsonl" -d "$TMP/m.jsonl.gz" 2>"$TMP/err"
ok '[ $? -eq 1 ]' "--from-runs without --models: usage error"
ok '[ ! -e "$TMP/m.jsonl.gz" ] || [ "$(zcat "$TMP/m.jsonl.gz" | wc -l)" -eq 0 ]' \
    "failed runs wrote nothing"

echo "ingraph: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
