#!/bin/bash
# compare_test.sh ONNXCOST SOURCE_DIR - onnxcost compare against committed
# ONNX Runtime profiles (tests/data/profiles/, made by make_profiles.js on
# an AVX-512 machine: NCHWc block 16).  Needs no ORT.
set -u
BIN=$1 SRC=$2
S=$SRC/samples P=$SRC/tests/data/profiles
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
pass=0 fail=0
ok() { if eval "$1"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $2"; fi; }
PY=/usr/bin/python3
SQ=$S/squeezenet1_1.onnx MB=$S/mobilenet_v2.onnx
one_line() { [ "$(wc -l <"$TMP/err")" -eq 1 ]; }

# the squeezenet profile: every kernel matched, both ways
"$BIN" compare --nchwc-block 16 --format json "$SQ" "$P/squeezenet1_1.ort-profile.json" >"$TMP/j" 2>"$TMP/err"
ok '[ $? -eq 0 ] && [ ! -s "$TMP/err" ]' "squeezenet json: exit 0, nothing on stderr"
ok "$PY - '$TMP/j' '$P/squeezenet1_1.ort-profile.json' <<'E'
import json, statistics, sys
j = json.load(open(sys.argv[1])); ev = json.load(open(sys.argv[2]))
runs = sorted((e for e in ev if e.get('cat') == 'Session' and e['name'] == 'model_run'), key=lambda e: e['ts'])
ker = [e for e in ev if e.get('cat') == 'Node' and e['name'].endswith('_kernel_time')]
n_ort = len(ker) // len(runs)          # kernels per run
assert len(runs) == 5 and n_ort * len(runs) == len(ker), (len(runs), len(ker))
t = j['totals']
assert j['runs'] == 5 and j['target']['name'], j['target']
assert set(j['model']) == {'file', 'ir_version', 'producer', 'opset'} and j['unbound_dims'] == [], j['model']
assert t['kernels_ran'] == n_ort and t['kernels_matched'] == n_ort, t
assert t['kernels_planned'] == n_ort and not j['planned_only'] and not j['ran_only'], t
assert len(j['kernels']) == n_ort
assert all(k in x for x in j['kernels'] for k in ('name', 'op', 'predicted_us', 'measured_us'))
# measured = the median over the runs; the run time the median model_run
first = ker[0]['name'][:-len('_kernel_time')]
k0 = [x for x in j['kernels'] if x['name'] == first][0]
assert k0['measured_us'] == statistics.median(e['dur'] for e in ker if e['name'] == first + '_kernel_time')
assert t['run_time_measured_us'] == statistics.median(r['dur'] for r in runs)
assert abs(t['kernel_time_measured_us'] - sum(x['measured_us'] for x in j['kernels'])) < 1e-6
assert abs(t['kernel_time_predicted_us'] - sum(x['predicted_us'] for x in j['kernels'])) < 1e-6
# the run: the kernels, less the profiler's cost per kernel a calibration
# takes out, plus the fixed costs; of the kernels' order either way
assert 0.5 < t['run_time_predicted_us'] / t['kernel_time_predicted_us'] < 2, t
assert abs(t['run_time_error_pct'] - 100 * (t['run_time_predicted_us'] / t['run_time_measured_us'] - 1)) < 1e-6
# the inserted reorder is matched by op and costed as a Transpose of its tensor
assert any(x['op'] == 'ReorderOutput' and x['predicted_us'] > 0 and x['costed_as'] == 'Transpose'
           for x in j['kernels'])
E" "squeezenet: all of ORT's kernels matched, medians, totals"
"$BIN" compare --nchwc-block 16 --top 5 "$SQ" "$P/squeezenet1_1.ort-profile.json" >"$TMP/t" 2>"$TMP/err"
ok '[ $? -eq 0 ]' "squeezenet table: exit 0"
ok 'grep -q "^target: " "$TMP/t" && grep -q "5 runs" "$TMP/t"' "table header: target, runs"
ok '[ "$(sed -n "/^kernel /,/^\$/p" "$TMP/t" | grep -c " us ")" -eq 5 ]' "table: --top 5 rows"
ok 'grep -q "^kernels: 40 planned, 40 ran, 40 matched" "$TMP/t" && grep -q "^run time: predicted" "$TMP/t"' "table totals"
# rows worst first: |predicted - measured| descending (a reorder too: costed)
ok "$PY - '$TMP/t' <<'E'
import re, sys
unit = {'us': 1, 'ms': 1e3, 's': 1e6}
def us(s):
    v, u = s.split()
    return float(v) * unit[u]
lines = open(sys.argv[1]).read().split('\\n')
h = lines.index([l for l in lines if l.startswith('kernel ')][0])
rows = lines[h + 1:h + 6]
d = []
for r in rows:
    m = re.match(r'.{34} .{18} +([0-9.]+ m?s|[0-9.]+ us) +([0-9.]+ m?s|[0-9.]+ us) ', r)
    assert m, r
    d.append(abs(us(m.group(1)) - us(m.group(2))))
assert d == sorted(d, reverse=True), d
E" "table rows worst first"
"$BIN" compare --nchwc-block 16 "$MB" "$P/mobilenet_v2.ort-profile.json" >"$TMP/t" 2>"$TMP/err"
ok '[ $? -eq 0 ] && grep -q "^kernels: 56 planned, 56 ran, 56 matched" "$TMP/t"' "mobilenet_v2 against its own profile"
# the plan made for a CPU without NCHWc: compared all the same, with a hint
"$BIN" compare --nchwc-block 0 "$SQ" "$P/squeezenet1_1.ort-profile.json" >"$TMP/t" 2>"$TMP/err"
ok '[ $? -eq 0 ] && grep -q "^hint: .*--nchwc-block" "$TMP/t" && grep -q "^ran only: " "$TMP/t"' "other NCHWc block: hint, unmatched lists"

# bad profiles: one line naming the file, exit 2
bad() { # bad DESCRIPTION TEXT PROFILE [MODEL]
    local what=$2 file=$3
    "$BIN" compare --nchwc-block 16 "${4:-$SQ}" "$file" >"$TMP/out" 2>"$TMP/err"
    local rc=$?
    ok '[ $rc -eq 2 ] && one_line && [ ! -s "$TMP/out" ]' "$1: exit 2, one line (rc $rc)"
    ok 'grep -q -- "$what" "$TMP/err"' "$1 says '$what'"
    ok 'grep -q -- "$(basename "$file")" "$TMP/err"' "$1 names the file"
}
bad "truncated" "not valid JSON" "$P/squeezenet1_1.truncated.json"
bad "foreign JSON" "not an ONNX Runtime profile" "$P/foreign.json"
echo '[{"cat": "Session", "name": "model_run", "ts": 1, "dur": 5}]' >"$TMP/nokernels.json"
bad "no kernel events" "no kernel events" "$TMP/nokernels.json"
bad "missing" "cannot open" "$TMP/missing.json"
mkdir "$TMP/adir.json"
bad "directory" "directory" "$TMP/adir.json"
truncate -s 1200M "$TMP/huge.json"   # sparse: no disk used
bad "too large" "larger than the limit" "$TMP/huge.json"
rm -f "$TMP/huge.json"
bad "another model's profile" "does not look like a profile of" "$P/mobilenet_v2.ort-profile.json"
bad "another model's profile (other way)" "does not look like a profile of" "$P/squeezenet1_1.ort-profile.json" "$MB"

# usage
"$BIN" compare "$SQ" >/dev/null 2>"$TMP/err"
ok '[ $? -eq 1 ]' "no profile: usage error"
"$BIN" compare --top 0 "$SQ" "$P/squeezenet1_1.ort-profile.json" >/dev/null 2>&1
ok '[ $? -eq 1 ]' "--top 0: usage error"
"$BIN" compare --help >"$TMP/h"
ok '[ $? -eq 0 ] && grep -q "usage: onnxcost compare" "$TMP/h"' "--help"
"$BIN" --help | grep -q "^  compare " 
ok '[ $? -eq 0 ]' "listed in the main help"

echo "compare: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
