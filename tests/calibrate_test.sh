#!/bin/bash
# calibrate_test.sh ONNXCOST SOURCE_DIR - calibrations end to end: fitting
# from a committed probe, the cache and its automatic use, the warning on a
# machine the model was not measured on, explicit and shipped targets, side
# by side, targets, refusals; and, where ONNX Runtime is installed, a real
# (tiny) probe measured here and a Ctrl-C that leaves nothing behind.
set -u
BIN=$1 SRC=$2
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
pass=0 fail=0
ok() { if eval "$1"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $2"; fi; }
# Run a command in the background, send it SIGINT after $1 seconds (Ctrl-C),
# and return its exit status.
interrupt_after() {
    local secs=$1 pid
    shift
    "$@" &
    pid=$!
    sleep "$secs"
    kill -INT "$pid"
    wait "$pid"
}
PY=/usr/bin/python3
M=$SRC/samples/mobilenet_v2.onnx
FP=cpu-AuthenticAMD-f26-m2
PROBE=$TMP/probe.jsonl.gz
cp "$SRC/data/machines/$FP/ort-cpu-probe.jsonl.gz" "$PROBE"
export XDG_CACHE_HOME=$TMP/cache
CACHED=$TMP/cache/onnxcost/$FP-ort-cpu-onnxruntime-node_1.30.0-inference.json

INTEL=cpu-GenuineIntel-f6-m85
# $INTEL is a machine of AVX2 alone unless a test says otherwise: no
# shipped calibration has its NCHWc block, so, never measured, it gets the
# raw model of the machine the model learnt.
RAW="avx2 fma"
# --- a machine this project never measured: one warning line ---
ONNXCOST_ISA=$RAW ONNXCOST_MACHINE=$INTEL "$BIN" predict "$M" >"$TMP/t0" 2>"$TMP/e0"
ok '[ $? -eq 0 ] && [ "$(wc -l <"$TMP/e0")" -eq 1 ]' "uncalibrated: one warning line"
ok 'grep -q "measured on cpu-AuthenticAMD-unrecorded, this machine is $INTEL" "$TMP/e0" &&
    grep -q "onnxcost calibrate" "$TMP/e0"' "the warning names both machines and the fix"
ok 'grep -q "^target: .*measured on cpu-AuthenticAMD-unrecorded, not this machine" "$TMP/t0"' \
    "target line says whose the times are"
ONNXCOST_ISA=$RAW ONNXCOST_MACHINE=$INTEL "$BIN" predict --mode training "$M" >/dev/null 2>"$TMP/e0t"
ok 'grep -q "calibrate --mode training" "$TMP/e0t"' "training: the fix names the mode"
# --- one never measured, with AVX-512: the nearest measured machine's ---
AVX512="avx2 fma avx512f avx512_vnni avx512_bf16"
ONNXCOST_ISA=$AVX512 ONNXCOST_MACHINE=$INTEL "$BIN" predict "$M" >"$TMP/tn" 2>"$TMP/en"
ok '[ $? -eq 0 ] && [ "$(wc -l <"$TMP/en")" -eq 1 ] &&
    grep -q "no calibration for this machine ($INTEL): predicting with that of $FP, the measured machine nearest it (the same NCHWc block, 0 ISA features apart).*onnxcost calibrate" "$TMP/en"' \
    "nearest: one warning naming both machines, how near, and the fix"
ok 'grep -q "^target: .*calibrated on $FP, the measured machine nearest this one (shipped, 20" "$TMP/tn"' \
    "nearest: the target line says whose calibration"
ONNXCOST_ISA=$AVX512 ONNXCOST_MACHINE=$INTEL "$BIN" predict --format json "$M" >"$TMP/jn" 2>/dev/null
ONNXCOST_MACHINE=$FP "$BIN" predict --format json "$M" >"$TMP/jf" 2>/dev/null
ok "$PY - '$TMP/jn' '$TMP/jf' <<'E'
import json, sys
n, f = (json.load(open(p)) for p in sys.argv[1:3])
t = n['target']
assert t['nearest'] and t['calibrated'] and not t['this_machine'], t
assert t['machine'] == 'cpu-AuthenticAMD-f26-m2' and t['calibration'] == 'built-in ort-cpu@cpu-AuthenticAMD-f26-m2', t
assert not f['target']['nearest'] and n['totals']['time_ms'] == f['totals']['time_ms']
E" "nearest: json marks it, and the times are that machine's calibration's"
ONNXCOST_ISA=$AVX512 ONNXCOST_MACHINE=$INTEL "$BIN" predict --mode training "$M" >/dev/null 2>"$TMP/ent"
ok 'grep -q "torch-cpu timing model was measured on cpu-AuthenticAMD-unrecorded, this machine is $INTEL" "$TMP/ent"' \
    "nearest: not for training steps (no machine has shown it helps there)"
# an ARM machine: no shipped calibration has its block (none): the raw model
ONNXCOST_ISA="asimd" ONNXCOST_MACHINE=cpu-ARM-i0x41-p0xd0c "$BIN" predict "$M" >/dev/null 2>"$TMP/ea"
ok 'grep -q "measured on cpu-AuthenticAMD-unrecorded, this machine is cpu-ARM" "$TMP/ea"' \
    "another ISA: no nearest machine, the raw model and its warning"
# --- a machine of a kind this project measured: its shipped calibration ---
ONNXCOST_MACHINE=$FP "$BIN" predict "$M" >"$TMP/ts" 2>"$TMP/es"
ok '[ $? -eq 0 ] && [ ! -s "$TMP/es" ] &&
    grep -q "^target: .*calibrated on another host of this machine.s kind ($FP, shipped" "$TMP/ts"' \
    "measured kind: the shipped calibration, said on the target line"

# --- a user's own ORT profiles as extra data (--profile MODEL=PROFILE) ---
PR=$SRC/tests/data/profiles
SQ=$SRC/samples/squeezenet1_1.onnx
# (--no-curve here and below: calibrations of what a kernel curve replaces)
ONNXCOST_MACHINE=$FP "$BIN" calibrate --no-measure --no-curve --probe "$PROBE" -o "$TMP/cp0.json" \
    >"$TMP/cp0" 2>/dev/null
ONNXCOST_MACHINE=$FP "$BIN" calibrate --no-measure --probe "$PROBE" -o "$TMP/cp.json" \
    --profile "$SQ=$PR/squeezenet1_1.ort-profile.json" >"$TMP/cp" 2>"$TMP/cpe"
ok '[ $? -eq 0 ] && grep -q "squeezenet1_1.ort-profile.json: 40 kernels of .*squeezenet1_1.onnx at 1 thread" "$TMP/cpe"' \
    "--profile: the profile's kernels are taken (all 40, the reorder as the Transpose it is costed as)"
n0=$(awk '$1 == 1 {print $2}' "$TMP/cp0") n1=$(awk '$1 == 1 {print $2}' "$TMP/cp")
ok '[ -n "$n0" ] && [ "$n1" = "$((n0 + 40))" ]' "--profile: 40 more kernels in the 1-thread fit ($n0 -> $n1)"
"$BIN" compare "$SRC/samples/mobilenet_v2.onnx" "$PR/mobilenet_v2.ort-profile.json" --nchwc-block 16 \
    --target "$TMP/cp0.json" -f json >"$TMP/m0" 2>/dev/null
"$BIN" compare "$SRC/samples/mobilenet_v2.onnx" "$PR/mobilenet_v2.ort-profile.json" --nchwc-block 16 \
    --target "$TMP/cp.json" -f json >"$TMP/m1" 2>/dev/null
ok "$PY - \"\$TMP/m0\" \"\$TMP/m1\" <<'PYEOF'
import json, sys
e = [abs(json.load(open(f))['totals']['kernel_time_error_pct']) for f in sys.argv[1:]]
sys.exit(0 if e[1] <= e[0] else 1)
PYEOF" "--profile of squeezenet: mobilenet_v2's kernel error (not in the fit) does not grow"
ONNXCOST_MACHINE=$FP "$BIN" calibrate --no-measure --probe "$PROBE" -o "$TMP/cpx.json" \
    --profile "$SQ=$PR/mobilenet_v2.ort-profile.json" >/dev/null 2>"$TMP/cpxe"
ok '[ $? -eq 2 ] && [ ! -e "$TMP/cpx.json" ] && grep -q "does not look like a profile of" "$TMP/cpxe"' \
    "--profile of another model: one line, exit 2, nothing written"

# --- the check kernel: recorded, and compared with the shipped host's ---
ok "grep -q '^check kernel at 1 thread: 191 us here, 191 us on the host the project measured .*: +0%' '$TMP/cp0' &&
    $PY -c \"import json; f=json.load(open('$TMP/cp0.json'))['threads'];
assert [round(x['check_kernel_us']) for x in f] == [191, 150], f\"" \
    "check kernel: the probe's median recorded per thread count, compared with the shipped one"
ONNXCOST_MACHINE=$FP "$BIN" calibrate --no-measure --no-anchors \
    --probe "$SRC/data/machines/$FP/ort-cpu-probe-rerun-1.jsonl.gz" -o "$TMP/cr.json" >"$TMP/cr" 2>"$TMP/cre"
ok '[ $? -eq 0 ] && grep -q "^check kernel at 2 threads: 202 us here, 150 us .*: +35%" "$TMP/cr" &&
    [ "$(grep -c "check kernel" "$TMP/cre")" -eq 1 ] &&
    grep -q "warning: this host ran the check kernel 35% slower at 2 threads" "$TMP/cre"' \
    "a host 35% slower on the check kernel: one warning line"
"$BIN" calibrate --no-measure --probe "$PROBE" --profile "$SQ" >/dev/null 2>"$TMP/cpu"
ok '[ $? -eq 1 ] && grep -q "is not MODEL=PROFILE.json" "$TMP/cpu"' "--profile without =: usage error"

# --- calibrate from the committed probe (no measuring) into the cache ---
# (as f26 itself, ISA and all: the curve lent below must not hang on the host)
ONNXCOST_ISA=$AVX512 ONNXCOST_MACHINE=$FP "$BIN" calibrate --no-measure --probe "$PROBE" >"$TMP/c" 2>"$TMP/ce"
ok '[ $? -eq 0 ] && [ -s "$CACHED" ]' "calibrate --no-measure writes the cache file"
ok 'grep -q "wrote $CACHED" "$TMP/c" && grep -q "after (leave-one-out)" "$TMP/c"' "calibrate summary"
# calibrate fits no kernel curve (too few whole networks): the measured
# machine nearest the probe's lends its own, said and recorded
ok "grep -q \"^kernel curve at 2 threads: $FP.s (fitted on [0-9]* of its whole-model runs\" '$TMP/c' &&
    $PY - '$CACHED' '$SRC/data/machines/$FP/ort-cpu-inference-calibration.json' <<'E'
import json, sys
c, s = (json.load(open(p)) for p in sys.argv[1:3])
for t, u in zip(c['threads'], s['threads']):
    k, ks = t['overhead']['kernel_curve'], u['overhead']['kernel_curve']
    assert k['from'] == 'cpu-AuthenticAMD-f26-m2' and 'from' not in ks, k
    assert (k['predicted_us'], k['wall_us'], k['runs']) == (ks['predicted_us'], ks['wall_us'], ks['runs'])
    assert 'range_band' not in t['overhead'], t['overhead']  # the curve alone
E" "calibrate: the nearest measured machine's kernel curve, said and recorded with its machine"
ok "! grep -q '^kernel curve' '$TMP/cp0' && ! grep -q kernel_curve '$TMP/cp0.json'" \
    "calibrate --no-curve: none lent"
# where the curve networks were timed (here: f26's blind18 runs of the four
# of them that set has, three batches, beside the six anchor runs), calibrate
# fits this machine's own curve on them instead, said and recorded as its own
B18=$SRC/data/machines/$FP/ort-cpu-blind18.jsonl
ONNXCOST_ISA=$AVX512 ONNXCOST_MACHINE=$FP "$BIN" calibrate --no-measure --probe "$PROBE" \
    --anchors "$SRC/data/machines/$FP/ort-cpu-anchors.jsonl" --anchors "$B18" -o "$TMP/own.json" \
    >"$TMP/own" 2>"$TMP/owne"
ok "[ \$? -eq 0 ] && grep -q '^kernel curve at 1 thread, fitted on 18 whole-network runs of 7 networks: their mean error [0-9.]*% -> [0-9.]*% (leave-one-network-out)' '$TMP/own' &&
    $PY - '$TMP/own.json' <<'E'
import json, sys
for t in json.load(open(sys.argv[1]))['threads']:
    k, o = t['overhead']['kernel_curve'], t['overhead']
    assert 'from' not in k and k['runs'] == 18 and k['predicted_us'] == [1, 2, 4, 8, 16, 32, 64], k
    w = k['wall_us']
    assert all(0 <= a <= b for a, b in zip(w, w[1:])) and all(a <= x for a, x in zip(w, k['predicted_us'])), w
    # the last point at least the chains' rule
    assert w[-1] >= 64 + min(o['per_kernel_us'], 0) - 1e-6, (w, o['per_kernel_us'])
    # the curve networks are the curve's: the in-graph scale stays the anchors' 6 runs
    assert o['anchors']['runs'] == 6, o['anchors']
E" "calibrate with the curve networks' runs: this machine's own kernel curve, said and recorded as its own"
ONNXCOST_ISA=$AVX512 ONNXCOST_MACHINE=$FP "$BIN" calibrate --no-measure --no-curve --probe "$PROBE" \
    --anchors "$SRC/data/machines/$FP/ort-cpu-anchors.jsonl" --anchors "$B18" -o "$TMP/own0.json" \
    >"$TMP/own0" 2>/dev/null
ok "[ \$? -eq 0 ] && ! grep -q '^kernel curve' '$TMP/own0' && ! grep -q kernel_curve '$TMP/own0.json'" \
    "calibrate --no-curve with the curve networks' runs: no curve"
$PY - "$CACHED" "$TMP/kcfrom.json" <<'E'
import json, sys
c = json.load(open(sys.argv[1]))
c['threads'][0]['overhead']['kernel_curve']['from'] = 7
json.dump(c, open(sys.argv[2], 'w'))
E
"$BIN" predict --target "$TMP/kcfrom.json" "$M" >/dev/null 2>"$TMP/kcfe"
ok "[ \$? -ne 0 ] && [ \$(wc -l <'$TMP/kcfe') -eq 1 ] && grep -q 'bad \"kernel_curve\"' '$TMP/kcfe'" \
    "a kernel curve whose machine is not a name: refused in one line"
ok "$PY - '$CACHED' <<'E'
import json, sys
c = json.load(open(sys.argv[1]))
assert c['format'] == 'onnxcost-calibration' and c['fingerprint'] == 'cpu-AuthenticAMD-f26-m2'
assert [f['threads'] for f in c['threads']] == [1, 2], c['threads']
# the built-in model learned this machine's samples too: a correction that
# does not beat it on the kernels left out is not applied (weights 0)
for f in c['threads']:
    assert f['median_error_after_loo'] <= f['median_error_before'], f
    if f['median_error_after_loo'] == f['median_error_before']:
        assert all(w == 0 for g in f['groups'].values() for w in g['w']), f
E" "calibration file: both thread counts, never worse than before"

# --- used automatically on this machine, and said so ---
ONNXCOST_MACHINE=$FP "$BIN" predict "$M" >"$TMP/t1" 2>"$TMP/e1"
ok '[ $? -eq 0 ] && [ ! -s "$TMP/e1" ]' "calibrated: no warning"
ok 'grep -q "^target: .*calibrated on this machine ($FP), 20" "$TMP/t1"' "target line: calibrated"
ONNXCOST_MACHINE=$FP "$BIN" predict --format json "$M" >"$TMP/j1"
ONNXCOST_MACHINE=$FP "$BIN" predict --format json --target ort-cpu "$M" >"$TMP/j1b"
XDG_CACHE_HOME=$TMP/none ONNXCOST_ISA=$RAW ONNXCOST_MACHINE=$INTEL "$BIN" predict --format json "$M" >"$TMP/j0" 2>/dev/null
ok "$PY - '$TMP/j0' '$TMP/j1' '$TMP/j1b' <<'E'
import json, sys
a, b, c = (json.load(open(p)) for p in sys.argv[1:4])
ta, tb = a['target'], b['target']
assert not ta['calibrated'] and tb['calibrated'] and tb['this_machine'] and not ta['this_machine']
assert tb['machine'] == 'cpu-AuthenticAMD-f26-m2' and tb['calibration'].endswith('-inference.json')
assert abs(a['totals']['time_ms'] - b['totals']['time_ms']) > 0.01 * a['totals']['time_ms']
assert c['totals']['time_ms'] == b['totals']['time_ms']  # --target ort-cpu: the cache too
t = b['totals']
assert t['time_ms_low'] <= t['time_ms'] <= t['time_ms_high']
E" "json: calibrated flag, machine, another time than uncalibrated"
ONNXCOST_MACHINE=$FP "$BIN" sweep --batch 1,2 --format json "$M" >"$TMP/sw" 2>"$TMP/swe"
ok "[ ! -s '$TMP/swe' ] && $PY -c \"import json; t=json.load(open('$TMP/sw'))['target']; assert t['calibrated']\"" \
    "sweep uses it"
ONNXCOST_MACHINE=$FP "$BIN" annotate "$M" -o "$TMP/a.onnx" 2>"$TMP/ae"
ok "$PY - '$TMP/a.onnx' <<'E'
import onnx, sys
m = onnx.load(sys.argv[1], load_external_data=False)
meta = {p.key: p.value for p in m.metadata_props}
assert 'calibrated on this machine (cpu-AuthenticAMD-f26-m2)' in meta['onnxcost.target'], meta
E" "annotate names the calibration in onnxcost.target"
ONNXCOST_MACHINE=$FP "$BIN" report "$M" -o "$TMP/r.html" 2>"$TMP/re"
ok 'grep -q "calibrated on this machine" "$TMP/r.html"' "report names the calibration"
ONNXCOST_MACHINE=$FP "$BIN" predict --threads 4 "$M" >/dev/null 2>"$TMP/e4"
ok 'grep -q "no fit at 4 threads" "$TMP/e4"' "a thread count without a fit is said"
ONNXCOST_MACHINE=$FP "$BIN" predict --format json --threads 4 "$M" >"$TMP/j4" 2>/dev/null
ok "$PY -c \"import json; t = json.load(open('$TMP/j4'))['target']
assert t['threads'] == 4 and t['threads_measured'] is False, t
assert any('not trained at 4 threads' in w for w in t['warnings']) and \\
    any('no fit at 4 threads' in w for w in t['warnings']), t\"" \
    "predict JSON: an unmeasured thread count marked, with what stderr said"

# --- another machine: the cache of this one is not used ---
ONNXCOST_ISA=$RAW ONNXCOST_MACHINE=$INTEL "$BIN" predict "$M" >/dev/null 2>"$TMP/e5"
ok 'grep -q "this machine is $INTEL" "$TMP/e5"' "other machine: warning, no calibration"
# ... but it can ask for this one's explicitly, without a warning
ONNXCOST_ISA=$RAW ONNXCOST_MACHINE=$INTEL "$BIN" predict --target "$CACHED" "$M" >"$TMP/t6" 2>"$TMP/e6"
ok '[ $? -eq 0 ] && [ ! -s "$TMP/e6" ] && grep -q "calibrated on $FP, 20" "$TMP/t6"' \
    "--target FILE: predictions for that machine"
# a cache file whose fingerprint is not the machine's is ignored with a line
OTHER=$TMP/cache/onnxcost/$INTEL-ort-cpu-onnxruntime-node_1.30.0-inference.json
cp "$CACHED" "$OTHER"
ONNXCOST_ISA=$RAW ONNXCOST_MACHINE=$INTEL "$BIN" predict "$M" >/dev/null 2>"$TMP/e7"
ok 'grep -q "was made on $FP, not this machine" "$TMP/e7"' "foreign cache file ignored"
rm -f "$OTHER"

# --- shipped targets, side by side, targets listing ---
"$BIN" targets >"$TMP/tg" 2>"$TMP/tge"
ok '[ $? -eq 0 ] && grep -q "^ort-cpu  *built-in" "$TMP/tg" && grep -q "^ort-cpu@$FP" "$TMP/tg"' \
    "targets: built-in and shipped"
ONNXCOST_MACHINE=$FP "$BIN" targets --format json >"$TMP/tgj"
ok "$PY - '$TMP/tgj' '$CACHED' <<'E'
import json, sys
j = json.load(open(sys.argv[1]))
names = [t['name'] for t in j['targets']]
assert 'ort-cpu' in names and 'torch-cpu' in names and sys.argv[2] in names, names
mine = [t for t in j['targets'] if t['this_machine']]
assert mine and all(t['machine'] == 'cpu-AuthenticAMD-f26-m2' for t in mine)
E" "targets --format json: the user's calibration, this machine marked"
ONNXCOST_MACHINE=$FP "$BIN" predict --target ort-cpu@$FP --target "$CACHED" --target ort-cpu \
    --batch 4 "$M" >"$TMP/sbs" 2>/dev/null
ok '[ $? -eq 0 ] && [ "$(grep -c "ms " "$TMP/sbs")" -eq 3 ]' "side by side: a row per target"
XDG_CACHE_HOME=$TMP/none ONNXCOST_ISA=$RAW ONNXCOST_MACHINE=$INTEL "$BIN" predict --format json --target ort-cpu@$FP \
    --target ort-cpu --batch 4 "$M" >"$TMP/sbj" 2>/dev/null
ok "$PY - '$TMP/sbj' <<'E'
import json, sys
j = json.load(open(sys.argv[1]))
t = j['targets']
assert j['batch'] == 4 and len(t) == 2
assert t[0]['target']['calibrated'] and not t[1]['target']['calibrated']
for r in t:
    assert r['time_ms_low'] <= r['time_ms'] <= r['time_ms_high'] and r['memory_bytes'] > 0
    assert abs(r['throughput_per_s'] - 4e3 / r['time_ms']) < 1e-6 * r['throughput_per_s']
E" "side by side json"

# --- refusals: one line each ---
"$BIN" predict --target ort-cpu@cpu-nowhere "$M" >/dev/null 2>"$TMP/x1"
ok '[ $? -eq 1 ] && [ "$(wc -l <"$TMP/x1")" -eq 1 ] && grep -q "onnxcost targets" "$TMP/x1"' \
    "unknown target: one line, exit 1"
echo '{"format": "onnxcost-calibration", "version": 1' >"$TMP/trunc.json"
"$BIN" predict --target "$TMP/trunc.json" "$M" >/dev/null 2>"$TMP/x2"
ok '[ $? -eq 2 ] && [ "$(wc -l <"$TMP/x2")" -eq 1 ]' "truncated calibration: one line, exit 2"
head -c 3000 /dev/urandom >"$TMP/rand.json"
"$BIN" predict --target "$TMP/rand.json" "$M" >/dev/null 2>"$TMP/x3"
ok '[ $? -eq 2 ] && [ "$(wc -l <"$TMP/x3")" -eq 1 ]' "random bytes as a target: one line, exit 2"
"$BIN" predict --mode training --target "$CACHED" "$M" >/dev/null 2>"$TMP/x4"
ok '[ $? -eq 1 ] && grep -q "calibration is for inference" "$TMP/x4"' "inference calibration for training: refused"
echo garbage >"$CACHED"
ONNXCOST_MACHINE=$FP "$BIN" predict "$M" >"$TMP/t8" 2>"$TMP/x5"
ok '[ $? -eq 0 ] && grep -q "ignored" "$TMP/x5" && grep -q "shipped" "$TMP/t8"' \
    "corrupt cache: said, ignored, the shipped calibration instead"
"$BIN" calibrate --no-measure >/dev/null 2>"$TMP/x6"
ok '[ $? -eq 1 ] && grep -q "needs --probe" "$TMP/x6"' "--no-measure without --probe"
"$BIN" calibrate --no-measure --probe "$TMP/none.jsonl.gz" -o "$TMP/o.json" >/dev/null 2>"$TMP/x7"
ok '[ $? -ne 0 ] && [ ! -e "$TMP/o.json" ]' "missing probe: error, nothing written"
"$BIN" calibrate --mode training --no-measure --probe "$PROBE" -o "$TMP/o.json" >/dev/null 2>"$TMP/x8"
ok '[ $? -eq 2 ] && [ ! -e "$TMP/o.json" ]' "ort probe for a training calibration: refused"
"$BIN" calibrate --no-measure --probe "$PROBE" --threads 3 -o "$TMP/o.json" >/dev/null 2>"$TMP/x9"
ok '[ $? -eq 2 ] && grep -q "no samples at that thread count" "$TMP/x9" && [ ! -e "$TMP/o.json" ]' \
    "probe without that thread count: refused, nothing written"

ONNXCOST_NODE=$TMP/no-node "$BIN" calibrate -o "$TMP/o.json" >/dev/null 2>"$TMP/x10"
ok '[ $? -eq 3 ] && [ "$(wc -l <"$TMP/x10")" -eq 1 ] && grep -q "no-node is not installed" "$TMP/x10" &&
    [ ! -e "$TMP/o.json" ]' "missing runtime: one line, exit 3, nothing written"

# --- calibrate --check: the check kernel now against the calibration's ---
# a driver that times only the check kernel, at $FAKE_US (both readings)
cat >"$TMP/fake_check.py" <<'E'
import json, os, sys
a = sys.argv[1:]
out = a[a.index("--out") + 1]
lines = [l for l in open(a[a.index("--in") + 1]) if l.strip()]
assert len(lines) == 1 and "calibration_model" in lines[0], lines
if os.environ.get("FAKE_FAIL"):
    sys.exit("fake driver: failed on purpose")
if os.environ.get("FAKE_SLEEP"):
    import time
    time.sleep(float(os.environ["FAKE_SLEEP"]))
us = float(os.environ["FAKE_US"])
with open(out, "w") as f:
    for when in ("before", "after"):
        f.write(json.dumps({"calibration": True, "when": when, "median_us": us}) + "\n")
E
IFP=cpu-GenuineIntel-f6-m167
ICAL=$TMP/intel-cal.json
cp "$SRC/data/machines/$IFP/ort-cpu-calibration-C-run.json" "$ICAL"   # check 253.486 / 193.931 us
chk() { ONNXCOST_MACHINE=$IFP ONNXCOST_NODE=$PY ONNXCOST_COLLECTOR=$TMP/fake_check.py "$BIN" calibrate --check "$@"; }
FAKE_US=304.2 chk --target "$ICAL" >"$TMP/k1" 2>"$TMP/k1e"
ok '[ $? -eq 0 ] && grep -q "^1 *253 us *304 us *+20%" "$TMP/k1" && grep -q "^2 *194 us *304 us *+57%" "$TMP/k1" &&
    [ "$(wc -l <"$TMP/k1e")" -eq 2 ] && grep -q "warning: this machine runs the check kernel 20% slower at 1 thread than when $ICAL was made (2026-12-06).*add --save" "$TMP/k1e"'     "--check: both thread counts against the calibration's check kernel, a warning for each beyond 10%"
FAKE_US=260 chk --target "$ICAL" -T 1 -f json >"$TMP/k2.json" 2>"$TMP/k2e"
ok "[ \$? -eq 0 ] && [ ! -s '$TMP/k2e' ] && $PY - '$TMP/k2.json' <<'E'
import json, sys
j = json.load(open(sys.argv[1]))
assert j['machine'] == 'cpu-GenuineIntel-f6-m167' and len(j['threads']) == 1, j
t = j['threads'][0]
assert t['threads'] == 1 and abs(t['calibration_us'] - 253.486) < 1e-6 and t['now_us'] == 260, t
assert abs(t['change'] - (260 / 253.486 - 1)) < 1e-9 and len(t['reads_us']) == 6, t
E" "--check within 10%: no warning; json has the readings"
FAKE_US=304.2 chk --target "$ICAL" --save -o "$TMP/sped.json" >/dev/null 2>"$TMP/k3e"
ONNXCOST_MACHINE=$IFP "$BIN" predict --target "$ICAL" -f json "$M" >"$TMP/k3a" 2>/dev/null
ONNXCOST_MACHINE=$IFP "$BIN" predict --target "$TMP/sped.json" -f json "$M" >"$TMP/k3b" 2>/dev/null
ONNXCOST_MACHINE=$IFP "$BIN" predict --target "$TMP/sped.json" "$M" >"$TMP/k3t" 2>/dev/null
ok "grep -q 'saved $TMP/sped.json: its times x1.12' '$TMP/k3e' && grep -q '^target: .*speed checked 20[0-9-]*: times x1.12' '$TMP/k3t' &&
    $PY - '$TMP/k3a' '$TMP/k3b' '$TMP/sped.json' <<'E'
import json, sys
a, b, c = (json.load(open(p)) for p in sys.argv[1:4])
f = (304.2 / 253.486) ** 0.6
assert abs(c['speed']['factor'] - f) < 1e-6 and c['speed']['check_kernel_us'] == 304.2, c['speed']
ta, tb = a['totals'], b['totals']
for k in ('time_ms', 'time_ms_low', 'time_ms_high'):
    assert abs(tb[k] - f * ta[k]) < 1e-9 * ta[k], (k, ta[k], tb[k])
na = {n['name']: n['time_us'] for n in a['nodes']}
assert all(abs(n['time_us'] - f * na[n['name']]) <= 1e-9 * max(1, na[n['name']]) for n in b['nodes'])
E" "--check --save -o: the calibration with its speed; predict scales every time by (now / then)^0.6 and says so"
# a Loop's body kernels, listed inside it, scale with it
L=$SRC/tests/data/corpus/loop_const.onnx
ONNXCOST_MACHINE=$IFP "$BIN" predict --target "$ICAL" -f json "$L" >"$TMP/k3la" 2>/dev/null
ONNXCOST_MACHINE=$IFP "$BIN" predict --target "$TMP/sped.json" -f json "$L" >"$TMP/k3lb" 2>/dev/null
ok "$PY - '$TMP/k3la' '$TMP/k3lb' <<'E'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
f = (304.2 / 253.486) ** 0.6
def times(o):
    if isinstance(o, dict):
        return [v for k, v in o.items() if k == 'time_us'] + [t for v in o.values() for t in times(v)]
    return [t for v in o for t in times(v)] if isinstance(o, list) else []
ta, tb = times(a['kernels']), times(b['kernels'])
assert len(ta) == len(tb) >= 2, (ta, tb)
assert all(abs(y - f * x) <= 1e-9 * max(1, x) for x, y in zip(ta, tb)), (ta, tb)
E" "--check --save: a Loop's body kernels scale with the rest"
# a speed that does not match its calibration's own check kernel: refused
$PY -c "import json; c = json.load(open('$TMP/sped.json')); c['speed']['calibration_check_kernel_us'] = 100
json.dump(c, open('$TMP/badspeed.json', 'w'))"
ONNXCOST_MACHINE=$IFP "$BIN" predict --target "$TMP/badspeed.json" "$M" >/dev/null 2>"$TMP/k4e"
ok '[ $? -eq 2 ] && [ "$(wc -l <"$TMP/k4e")" -eq 1 ] && grep -q "bad \"speed\"" "$TMP/k4e"'     "a speed not of its calibration's check kernel: one line, exit 2"
# training steps: no speed factor is known (they moved 1.9x their check
# kernel's move in the one pair of sessions measured): --save refused, and
# a training calibration carrying a speed is refused on loading
ONNXCOST_MACHINE=$IFP "$BIN" calibrate --check --save --mode training >/dev/null 2>"$TMP/k4t"
ok '[ $? -eq 1 ] && [ "$(wc -l <"$TMP/k4t")" -eq 1 ] && grep -q "no speed factor is known for PyTorch" "$TMP/k4t"' \
    "--check --save --mode training: refused, one line"
$PY -c "import json; c = json.load(open('$SRC/data/machines/$IFP/torch-cpu-calibration-Ct-run.json'))
c['speed'] = {'checked': '2026-12-07T08:00:00Z', 'check_kernel_us': 1200.0, 'elasticity': 0.6,
              'calibration_check_kernel_us': c['threads'][0]['check_kernel_us'], 'factor': 1.06}
json.dump(c, open('$TMP/tspeed.json', 'w'))"
ONNXCOST_MACHINE=$IFP "$BIN" predict --mode training --target "$TMP/tspeed.json" "$M" >/dev/null 2>"$TMP/k4u"
ok '[ $? -eq 2 ] && [ "$(wc -l <"$TMP/k4u")" -eq 1 ] && grep -q "speed.* in a training calibration" "$TMP/k4u"' \
    "a training calibration with a speed: refused on loading, one line"
# --save without -o: the cache, which predict then takes here on its own
IDATE=$($PY -c "import json; print(json.load(open('$SRC/data/machines/$IFP/ort-cpu-inference-calibration.json'))['created'][:10])")
FAKE_US=304.2 XDG_CACHE_HOME=$TMP/kc chk --save >/dev/null 2>/dev/null
XDG_CACHE_HOME=$TMP/kc ONNXCOST_MACHINE=$IFP "$BIN" predict "$M" >"$TMP/k5" 2>/dev/null
ok '[ -s "$TMP/kc/onnxcost/$IFP-ort-cpu-onnxruntime-node_1.30.0-inference.json" ] &&
    grep -q "^target: .*calibrated on this machine ($IFP), $IDATE; speed checked .*: times x1.12" "$TMP/k5"'     "--check --save: into the cache, used by predict automatically"
XDG_CACHE_HOME=$TMP/kc ONNXCOST_MACHINE=$IFP "$BIN" targets >"$TMP/k5t" 2>/dev/null
ok 'grep -q "^$TMP/kc/onnxcost/$IFP-ort-cpu.* speed checked 20[0-9-]*: times x1.12" "$TMP/k5t"' \
    "targets: the cached calibration's speed check is listed"
# Ctrl-C: the driver run abandoned, its folder removed, nothing saved
mkdir -p "$TMP/ktmp"
interrupt_after 2 env FAKE_SLEEP=20 FAKE_US=300 TMPDIR="$TMP/ktmp" ONNXCOST_MACHINE=$IFP \
    ONNXCOST_NODE=$PY ONNXCOST_COLLECTOR="$TMP/fake_check.py" "$BIN" calibrate --check \
    --target "$ICAL" --save -o "$TMP/int.json" >/dev/null 2>"$TMP/kie"
krc=$?
ok '[ $krc -eq 130 ] && [ ! -e "$TMP/int.json" ] && [ -z "$(ls -A "$TMP/ktmp")" ] &&
    grep -q "interrupted; nothing written" "$TMP/kie"' "--check interrupted: exit 130, nothing written or left behind"
# refusals and failures: one line each
ONNXCOST_MACHINE=$IFP "$BIN" calibrate --check --budget 30 >/dev/null 2>"$TMP/k6"
ok '[ $? -eq 1 ] && [ "$(wc -l <"$TMP/k6")" -eq 1 ] && grep -q "takes --mode" "$TMP/k6"'     "--check with a measuring option: usage error"
"$BIN" calibrate --save >/dev/null 2>"$TMP/k7"
ok '[ $? -eq 1 ] && grep -q "go with --check" "$TMP/k7"' "--save without --check: usage error"
FAKE_US=300 ONNXCOST_ISA=$RAW ONNXCOST_MACHINE=$INTEL ONNXCOST_NODE=$PY ONNXCOST_COLLECTOR=$TMP/fake_check.py \
    "$BIN" calibrate --check >/dev/null 2>"$TMP/k8"
ok '[ $? -eq 1 ] && [ "$(wc -l <"$TMP/k8")" -eq 1 ] && grep -q "nothing to check" "$TMP/k8"' \
    "--check with no calibration in use: one line, exit 1"
FAKE_US=300 chk --target "ort-cpu@$FP" >/dev/null 2>"$TMP/k9"
ok '[ $? -eq 1 ] && grep -q "is of $FP, this machine is $IFP" "$TMP/k9"' \
    "--check against another machine's calibration: refused"
FAKE_FAIL=1 FAKE_US=300 chk --target "$ICAL" -o "$TMP/nope.json" --save >/dev/null 2>"$TMP/k10"
ok '[ $? -eq 3 ] && [ ! -e "$TMP/nope.json" ] && grep -q "onnxcost: " "$TMP/k10"' \
    "--check: a failing driver is an I/O error, nothing saved"

# --- whole networks (anchors) fit the in-graph scale ---
AN=$SRC/data/machines/$FP/ort-cpu-anchors.jsonl
ONNXCOST_MACHINE=$FP "$BIN" calibrate --no-measure --no-curve --probe "$PROBE" --anchors "$AN" \
    -o "$TMP/an.json" >"$TMP/an" 2>"$TMP/ane"
ok '[ $? -eq 0 ] && [ ! -s "$TMP/ane" ] &&
    [ "$(grep -c "^in-graph scale at [12] threads*: .* fitted on 6 whole-network runs" "$TMP/an")" -eq 2 ]' \
    "--anchors: the in-graph scale of each thread count fitted on its 6 runs"
# a run of a network that is not a reference network: left out, saying so,
# unless --models names the folder of its graph
mkdir -p "$TMP/mynets"
cp "$SRC/tests/reference/models/squeezenet1_1.onnx" "$TMP/mynets/mynet.onnx"
head -1 "$AN" | sed 's/"squeezenet1_1"/"mynet"/' >"$TMP/mine.jsonl"
ONNXCOST_MACHINE=$FP "$BIN" calibrate --no-measure --no-curve --probe "$PROBE" --anchors "$AN" \
    --anchors "$TMP/mine.jsonl" -o "$TMP/an1.json" >"$TMP/an1" 2>"$TMP/an1e"
ok '[ $? -eq 0 ] && [ "$(wc -l <"$TMP/an1e")" -eq 1 ] &&
    grep -q "note: 1 run of networks whose graphs are in neither .* nor --models DIR (the first: mynet) left out" "$TMP/an1e" &&
    grep -q "^in-graph scale at 1 thread: .* fitted on 6 whole-network runs" "$TMP/an1"' \
    "--anchors: a run of a network whose graph is not found is left out, in one note"
ONNXCOST_MACHINE=$FP "$BIN" calibrate --no-measure --no-curve --probe "$PROBE" --anchors "$AN" \
    --anchors "$TMP/mine.jsonl" --models "$TMP/mynets" -o "$TMP/an2.json" >"$TMP/an2" 2>"$TMP/an2e"
ok '[ $? -eq 0 ] && [ ! -s "$TMP/an2e" ] &&
    grep -q "^in-graph scale at 1 thread: .* fitted on 7 whole-network runs" "$TMP/an2" &&
    grep -q "^in-graph scale at 2 threads: .* fitted on 6 whole-network runs" "$TMP/an2"' \
    "--models DIR: the run of a network whose graph is there is fitted on"
"$BIN" calibrate --mode training --models "$TMP/mynets" >/dev/null 2>"$TMP/an3e"
ok '[ $? -eq 1 ] && [ "$(wc -l <"$TMP/an3e")" -eq 1 ] && grep -q "runs and --models are whole networks" "$TMP/an3e"' \
    "--models with --mode training: usage error"
"$BIN" calibrate --no-anchors --runs "$TMP/mine.jsonl" >/dev/null 2>"$TMP/an4e"
ok '[ $? -eq 1 ] && [ "$(wc -l <"$TMP/an4e")" -eq 1 ] && grep -q "runs and --models are whole networks" "$TMP/an4e"' \
    "--runs with --no-anchors: usage error"
# --runs FILE is --anchors given again: read, never written
cp "$TMP/mine.jsonl" "$TMP/mine0.jsonl"
ONNXCOST_MACHINE=$FP "$BIN" calibrate --no-measure --no-curve --probe "$PROBE" --anchors "$AN" \
    --runs "$TMP/mine.jsonl" --models "$TMP/mynets" -o "$TMP/an5.json" >"$TMP/an5" 2>"$TMP/an5e"
ok '[ $? -eq 0 ] && [ ! -s "$TMP/an5e" ] && cmp -s "$TMP/mine.jsonl" "$TMP/mine0.jsonl" &&
    grep -q "^in-graph scale at 1 thread: .* fitted on 7 whole-network runs" "$TMP/an5" &&
    $PY -c "import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
for k in (\"created\", \"probe_seconds\"): a.pop(k); b.pop(k)
sys.exit(a != b)" "$TMP/an5.json" "$TMP/an2.json"' \
    "--runs FILE: fitted on as a second --anchors is, the file left as it was"
ok "$PY - '$TMP/an.json' '$TMP/cp0.json' <<'E'
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
for fa, fb in zip(a['threads'], b['threads']):
    oa, ob = fa['overhead'], fb['overhead']
    assert oa['anchors']['runs'] == 6 and 'anchors' not in ob, (oa, ob)
    assert oa['anchors']['base_kernel_scale'] == ob['kernel_scale']
    assert abs(oa['kernel_scale'] - ob['kernel_scale']) > 0.01
    assert oa['anchors']['mean_error_after_lono'] >= 0
    assert oa['output_us_per_mb'] > 0 and ob['output_us_per_mb'] == 0
    # the networks keep the probe's form of the correction or a simpler one
    forms = ['size', 'scale', 'none']
    assert forms.index(fa['correction']) >= forms.index(fb['correction']), (fa, fb)
E" "--anchors: stored with the base scale and both errors; the form the probe's or simpler"
"$BIN" predict --target "$TMP/an.json" -T 2 -f json "$SRC/samples/squeezenet1_1.onnx" >"$TMP/pa" 2>/dev/null
"$BIN" predict --target "$TMP/cp0.json" -T 2 -f json "$SRC/samples/squeezenet1_1.onnx" >"$TMP/pb" 2>/dev/null
ok "$PY - '$TMP/pa' '$TMP/an.json' '$TMP/pb' <<'E'
import json, sys
pa, cal, pb = sys.argv[1:]
ta, tb = json.load(open(pa))['totals'], json.load(open(pb))['totals']
fa = [f for f in json.load(open(cal))['threads'] if f['threads'] == 2][0]
fb = [f for f in json.load(open(cal.replace('an.json', 'cp0.json')))['threads']
      if f['threads'] == 2][0]
sc = fa['overhead']['kernel_scale']
# the same kernels, unless the networks took a simpler form of the correction
assert (fa['correction'] != fb['correction'] or
        abs(ta['kernels_raw_ms'] - tb['kernels_raw_ms']) < 1e-9), (fa['correction'], ta, tb)
# squeezenet's 4 KB of logits are no large output
assert ta['output_ms'] == 0 and tb['output_ms'] == 0 and ta['output_large_bytes'] == 0
assert abs(ta['time_ms'] - (sc * ta['kernels_raw_ms'] + ta['overhead_ms'] + ta['output_ms'])) < 1e-6 * ta['time_ms']
E" "predict applies the calibration's in-graph scale"
# Handing an output back costs the calibration's rate per MB from 32 MiB on
# (a Relu of [N, 1024, 1024]: 40 MiB at N = 10, 16 MiB at N = 4).
$PY -c "
import onnx
from onnx import helper as h, TensorProto as T
g = h.make_graph([h.make_node('Relu', ['x'], ['y'])], 'big_output',
                 [h.make_tensor_value_info('x', T.FLOAT, ['N', 1024, 1024])],
                 [h.make_tensor_value_info('y', T.FLOAT, ['N', 1024, 1024])])
onnx.save(h.make_model(g, opset_imports=[h.make_opsetid('', 17)]), '$TMP/big_output.onnx')"
for n in 4 10; do
    "$BIN" predict --target "$TMP/an.json" -T 2 -b $n -f json "$TMP/big_output.onnx" >"$TMP/po$n" 2>/dev/null
done
ok "$PY - '$TMP/po4' '$TMP/po10' '$TMP/an.json' <<'E'
import json, sys
small, big = (json.load(open(f))['totals'] for f in sys.argv[1:3])
rate = [f for f in json.load(open(sys.argv[3]))['threads'] if f['threads'] == 2][0]
rate = rate['overhead']['output_us_per_mb']
assert rate > 0, rate
assert small['output_bytes'] == 16 << 20 and small['output_large_bytes'] == 0
assert small['output_ms'] == 0, small
assert big['output_bytes'] == big['output_large_bytes'] == 40 << 20
assert abs(big['output_ms'] - rate * (40 << 20) / 1e6 / 1e3) < 1e-9 * big['output_ms'], big
E" "a large output costs the calibration's rate per MB, a smaller one nothing"
# --- probe samples of operators the timing model never measured: left out ---
cp "$PROBE" "$TMP/qprobe.jsonl.gz"
# (Shrink: an operator no machine's samples hold; Relu samples renamed)
zcat "$SRC/data/machines/$FP/ort-cpu-t1.jsonl.gz" | grep -m 5 '"op":"Relu","pattern":"Relu"' |
    sed 's/"op":"Relu"/"op":"Shrink"/g; s/"id":"/"id":"shrink-/' | gzip >>"$TMP/qprobe.jsonl.gz"
ONNXCOST_MACHINE=$FP "$BIN" calibrate --no-measure --no-anchors --threads 1 --probe "$TMP/qprobe.jsonl.gz" \
    -o "$TMP/q.json" >"$TMP/q" 2>"$TMP/qe"
ONNXCOST_MACHINE=$FP "$BIN" calibrate --no-measure --no-anchors --threads 1 --probe "$PROBE" \
    -o "$TMP/q0.json" >/dev/null 2>&1
ok '[ $? -eq 0 ] && grep -q "5 probe samples at 1 thread are of operators the timing model has no sample of (Shrink, ...): left out of the fit" "$TMP/qe"' \
    "probe samples of never-measured operators: said once, left out"
ok "$PY - '$TMP/q.json' '$TMP/q0.json' <<'E'
import json, sys
a, b = (json.load(open(f))['threads'][0] for f in sys.argv[1:])
assert a['probe_kernels'] == b['probe_kernels'] and a['groups'] == b['groups'], (a['probe_kernels'], b['probe_kernels'])
E" "... and the fit is the one without them"

# --- chains of tiny kernels: the profiler's cost per kernel leaves the total ---
cat >"$TMP/chain.jsonl" <<'E'
{"model":"kernel_chain","threads":1,"wall_us":{"median":28.0},"spread":0.05,"kernels":8,"kernel_us":{"median":17}}
{"model":"kernel_chain","threads":1,"wall_us":{"median":79.8},"spread":0.05,"kernels":256,"kernel_us":{"median":803}}
E
REF=$SRC/data/machines/$FP/ort-cpu-models.jsonl
ONNXCOST_MACHINE=$FP "$BIN" calibrate --no-measure --no-curve --threads 1 --probe "$PROBE" \
    --anchors "$TMP/chain.jsonl" --anchors "$REF" --hw "$SRC/data/machines/$FP/hw.json" \
    -o "$TMP/ch.json" >"$TMP/ch" 2>"$TMP/che"
ok '[ $? -eq 0 ] && [ ! -s "$TMP/che" ] &&
    grep -q "^in-graph scale at 1 thread: .* fitted on 36 whole-network runs" "$TMP/ch" &&
    grep -q "^a kernel at 1 thread: 0.21 us in a run, 3.17 us as profiled" "$TMP/ch" &&
    grep -q "^weights stream at 1 thread: 28.6 GB/s" "$TMP/ch"' \
    "--anchors twice: kernel chains and the reference networks runs (any batch, their input shapes), --hw"
ok "$PY - '$TMP/ch.json' <<'E'
import json, sys
o = json.load(open(sys.argv[1]))['threads'][0]['overhead']
c = o['kernel_chain']
assert c['runs'] == 2 and abs(c['wall_us_per_kernel'] - 51.8 / 248) < 1e-6, c
assert abs(c['profiled_us_per_kernel'] - 786 / 248) < 1e-6, c
# the calibrated model's prediction of a chain kernel, not its profile here
assert 0.5 < c['predicted_us_per_kernel'] < 20, c
assert abs(o['per_kernel_us'] - (c['wall_us_per_kernel'] - c['predicted_us_per_kernel'])) < 1e-6, o
assert o['stream_gbps'] > 20 and o['anchors']['runs'] == 36, o
E" "kernel chains: slopes of wall, profiled and predicted time; per_kernel_us the run's less the predicted, negative"
ok "$PY - '$TMP/ch.json' '$TMP/ch' <<'E'
import json, sys
o = json.load(open(sys.argv[1]))['threads'][0]['overhead']
g = o['in_graph_groups']
assert 'conv' in g and 'matmul' in g and all(0.5 <= v <= 2 for v in g.values()), g
assert 'pool' not in g, g  # too little of the runs' kernel time
line = [l for l in open(sys.argv[2]) if l.startswith('in whole networks')][0]
assert 'conv %.2fx' % g['conv'] in line, line
E" "the reference runs' kernel lists: per-group in-graph factors for the groups with enough time"
"$BIN" predict --target "$TMP/ch.json" -T 1 -f json "$SRC/samples/mobilenet_v2.onnx" >"$TMP/pch" 2>/dev/null
"$BIN" predict --target "$TMP/ch.json" -T 1 -f json "$SRC/samples/tiny_encoder.onnx" >"$TMP/pte" 2>/dev/null
"$BIN" predict --target "$TMP/ch.json" -T 1 "$SRC/samples/mobilenet_v2.onnx" >"$TMP/pcht" 2>/dev/null
ok "$PY - '$TMP/pte' '$TMP/ch.json' <<'E'
import json, sys
d = json.load(open(sys.argv[1]))
t = d['totals']
o = json.load(open(sys.argv[2]))['threads'][0]['overhead']
g, c = -o['per_kernel_us'], o['kernel_chain']['wall_us_per_kernel']
# each kernel less g, but adding at least c (or its own time, if less)
cost = sum(min(g, max(0, k['time_us'] - c)) for k in d['kernels'])
assert len(d['kernels']) == t['kernels'] and any(k['time_us'] - g < c for k in d['kernels']), t
assert t['overhead_ms'] == 0 and abs(t['profiler_ms'] - cost / 1e3) < 1e-6 * t['profiler_ms'], (t, cost)
assert t['profiler_ms'] < g * t['kernels'] / 1e3, t
assert abs(t['time_ms'] - (o['kernel_scale'] * t['kernels_raw_ms'] - t['profiler_ms'] + t['output_ms'])) < 1e-6 * t['time_ms'], t
assert t['time_ms'] >= t['kernels'] * c / 1e3
E" "predict takes the profiler's cost per kernel out of the total (JSON totals.profiler_ms), each kernel still adding the chains' cost of a kernel in a run"
ok 'grep -q "less ONNX Runtime.s profiler cost per kernel" "$TMP/pcht"' "predict says so in its table"

# --- chains of recurrent steps: their kernels set the profiler's cost ---
cat >"$TMP/steps.jsonl" <<'E'
{"model":"step_chain","threads":1,"wall_us":{"median":52.0},"spread":0.1,"steps":4,"kernel_us":{"median":330},"ran_kernels":80}
{"model":"step_chain","threads":1,"wall_us":{"median":276.0},"spread":0.1,"steps":32,"kernel_us":{"median":2850},"ran_kernels":640}
E
ONNXCOST_MACHINE=$FP "$BIN" calibrate --no-measure --threads 1 --probe "$PROBE" \
    --anchors "$TMP/chain.jsonl" --anchors "$TMP/steps.jsonl" -o "$TMP/st.json" >"$TMP/st" 2>"$TMP/ste"
ok "[ \$? -eq 0 ] && [ ! -s '$TMP/ste' ] && $PY - '$TMP/st.json' '$TMP/ch.json' '$TMP/st' <<'E'
import json, sys
o = json.load(open(sys.argv[1]))['threads'][0]['overhead']
c, s = o['kernel_chain'], o['step_chain']
assert s['runs'] == 2 and abs(s['wall_us_per_kernel'] - 224 / 560) < 1e-6, s
assert abs(s['profiled_us_per_kernel'] - 2520 / 560) < 1e-6, s
# 20 kernels a step as planned; the model predicts them above the chains' Neg and Abs
assert c['predicted_us_per_kernel'] < s['predicted_us_per_kernel'] < 20, (c, s)
assert abs(o['per_kernel_us'] - (s['wall_us_per_kernel'] - s['predicted_us_per_kernel'])) < 1e-6, o
# the floor is still the chains' kernel
assert abs(c['wall_us_per_kernel'] - 51.8 / 248) < 1e-6, c
line = [l for l in open(sys.argv[3]) if l.startswith(\"a recurrent step's kernel at 1 thread: 0.40 us in a run, 4.50 us as profiled\")]
assert line and 'predicted kernels less %.2f us per kernel, each at least 0.21 us' % -o['per_kernel_us'] in line[0], line
E" "step chains: per_kernel_us from their slopes (per planned kernel), the floor from the kernel chains"
sed 's/"ran_kernels":80/"ran_kernels":76/' "$TMP/steps.jsonl" >"$TMP/steps-other.jsonl"
ONNXCOST_MACHINE=$FP "$BIN" calibrate --no-measure --threads 1 --probe "$PROBE" \
    --anchors "$TMP/chain.jsonl" --anchors "$TMP/steps-other.jsonl" -o "$TMP/sto.json" >"$TMP/sto" 2>/dev/null
ok "[ \$? -eq 0 ] && grep -q 'the step chains at 1 thread ran 76 kernels where the plan has 80 .*: left out' '$TMP/sto' &&
    $PY - '$TMP/sto.json' <<'E'
import json, sys
o = json.load(open(sys.argv[1]))['threads'][0]['overhead']
c = o['kernel_chain']
assert 'step_chain' not in o, o
assert abs(o['per_kernel_us'] - (c['wall_us_per_kernel'] - c['predicted_us_per_kernel'])) < 1e-6, o
E" "step chains that ORT ran otherwise than planned (another version): said, left out, the kernel chains decide"
# --- chains of Loop trips: what a trip costs beyond its body ---
cat >"$TMP/loops.jsonl" <<'E'
{"model":"loop_chain","threads":1,"wall_us":{"median":50.0},"spread":0.1,"trips":4,"kernel_us":{"median":40}}
{"model":"loop_chain","threads":1,"wall_us":{"median":290.0},"spread":0.1,"trips":64,"kernel_us":{"median":700}}
E
ONNXCOST_MACHINE=$FP "$BIN" calibrate --no-measure --threads 1 --probe "$PROBE" \
    --anchors "$TMP/chain.jsonl" --anchors "$TMP/steps.jsonl" --anchors "$TMP/loops.jsonl" \
    -o "$TMP/lp.json" >"$TMP/lp" 2>"$TMP/lpe"
LOOP=$SRC/tests/data/corpus/loop_const.onnx
"$BIN" predict --target "$TMP/st.json" -T 1 -f json "$LOOP" >"$TMP/plst" 2>/dev/null
"$BIN" predict --target "$TMP/lp.json" -T 1 -f json "$LOOP" >"$TMP/plp" 2>/dev/null
ok "[ \$? -eq 0 ] && [ ! -s '$TMP/lpe' ] && $PY - '$TMP/lp.json' '$TMP/st.json' '$TMP/plp' '$TMP/plst' '$TMP/lp' <<'E'
import json, sys
o = json.load(open(sys.argv[1]))['threads'][0]['overhead']
o0 = json.load(open(sys.argv[2]))['threads'][0]['overhead']
l = o['loop_chain']
assert l['runs'] == 2 and abs(l['wall_us_per_trip'] - 240 / 60) < 1e-6, l
# the body (Identity of a bool, an Add of 16 floats) as the calibration prices it
assert 0 < l['predicted_us_per_trip'] < 4, l
assert abs(l['trip_us'] - (l['wall_us_per_trip'] - l['predicted_us_per_trip'])) < 1e-6, l
# a Loop's own run: the loop chains at no trip (34 us) less the kernel chains at no kernel
assert abs(l['run_us'] - (34 - (28 - 8 * 51.8 / 248))) < 1e-4, l
assert 'loop_chain' not in o0 and o['per_kernel_us'] == o0['per_kernel_us'], (o, o0)
# loop_const: a Loop of 5 trips; it costs its run and each trip's price more
t, t0 = json.load(open(sys.argv[3]))['totals'], json.load(open(sys.argv[4]))['totals']
more = (l['run_us'] + 5 * l['trip_us']) / 1e3
assert t['uncounted_nodes'] == 0 and abs(t['overhead_ms'] - t0['overhead_ms'] - more) < 1e-9, (t, t0)
# the same kernels either way: the run less that is the other's, unless the
# kernel floor (each kernel at least the chains' 0.21 us) lifted that
floor = t0['kernels'] * o['kernel_chain']['wall_us_per_kernel'] / 1e3
assert abs(t0['time_ms'] - max(t['time_ms'] - more, floor)) < 1e-9, (t, t0, floor)
line = [x for x in open(sys.argv[5]) if x.startswith('a Loop trip at 1 thread: 4.00 us in a run')]
assert line and '%.2f us per trip beyond its body, and %.2f us a Loop' % (l['trip_us'], l['run_us']) in line[0], line
E" "loop chains: a Loop trip's cost beyond its body (slopes over the trips) and a Loop's own (against the kernel chains), charged per trip and per Loop"
$PY - "$TMP/lp.json" "$TMP/lpbad.json" <<'E'
import json, sys
c = json.load(open(sys.argv[1]))
c['threads'][0]['overhead']['loop_chain']['trip_us'] = -1
json.dump(c, open(sys.argv[2], 'w'))
E
"$BIN" predict --target "$TMP/lpbad.json" -T 1 "$LOOP" >/dev/null 2>"$TMP/lpbe"
ok "[ \$? -ne 0 ] && [ \$(wc -l <'$TMP/lpbe') -eq 1 ] && grep -q 'bad \"loop_chain\"' '$TMP/lpbe'" \
    "a calibration with a negative trip cost: refused in one line"
# --- a kernel curve (scripts/fit_kernel_curve.py): what a kernel adds to a run ---
ENC=$SRC/samples/tiny_encoder.onnx
$PY - "$TMP/lp.json" "$TMP/kc.json" "$TMP/kcbad.json" <<'E'
import json, sys
c = json.load(open(sys.argv[1]))
c['threads'][0]['overhead']['kernel_curve'] = {'predicted_us': [2, 8], 'wall_us': [0.5, 3], 'runs': 7}
json.dump(c, open(sys.argv[2], 'w'))
c['threads'][0]['overhead']['kernel_curve']['wall_us'] = [0.5, 9]  # above its x
json.dump(c, open(sys.argv[3], 'w'))
E
"$BIN" predict --target "$TMP/lp.json" -T 1 -f json "$ENC" >"$TMP/pkc0" 2>/dev/null
"$BIN" predict --target "$TMP/kc.json" -T 1 -f json "$ENC" >"$TMP/pkc" 2>/dev/null
ok "[ \$? -eq 0 ] && $PY - '$TMP/pkc0' '$TMP/pkc' <<'E'
import json, sys
d0, d = (json.load(open(p)) for p in sys.argv[1:3])
t0, t = d0['totals'], d['totals']
xs = [k['time_us'] for k in d['kernels']]
assert xs == [k['time_us'] for k in d0['kernels']] and len(xs) == t['kernels'], (t0, t)
def w(x):  # (0, 0), (2, 0.5), (8, 3), then slope 1
    return x / 4 if x <= 2 else 0.5 + (x - 2) * 2.5 / 6 if x <= 8 else 3 + x - 8
rest = t0['time_ms'] * 1e3 - (sum(xs) - t0['profiler_ms'] * 1e3)
want = rest + sum(w(x) for x in xs)
assert abs(t['time_ms'] * 1e3 - want) < 1e-6 * want, (t['time_ms'] * 1e3, want)
assert abs(t['profiler_ms'] * 1e3 - sum(x - w(x) for x in xs)) < 1e-6 * want, t
E" "a kernel curve: each kernel adds w(its predicted time) to the run, in place of the profiler's cost per kernel"
"$BIN" predict --target "$TMP/kcbad.json" -T 1 "$ENC" >/dev/null 2>"$TMP/kcbe"
ok "[ \$? -ne 0 ] && [ \$(wc -l <'$TMP/kcbe') -eq 1 ] && grep -q 'bad \"kernel_curve\"' '$TMP/kcbe'" \
    "a kernel curve above the identity: refused in one line"
# --- a range band (scripts/fit_range_band.py): the whole-model range by regime ---
$PY - "$TMP/lp.json" "$TMP/rb.json" "$TMP/rbbad.json" "$TMP/pkc0" <<'E'
import json, sys
c = json.load(open(sys.argv[1]))
t = json.load(open(sys.argv[4]))['totals']
per = t['time_ms'] * 1e3 / t['kernels']
# the encoder's runs fall in the middle band of three, whatever the model predicts
c['threads'][0]['overhead']['range_band'] = {'per_kernel_us': [per / 2, per * 2], 'low': [0.5, 0.8, 0.9],
                                             'high': [3, 1.3, 1.1], 'quantile': 0.05, 'runs': 40}
json.dump(c, open(sys.argv[2], 'w'))
c['threads'][0]['overhead']['range_band']['high'] = [3, 0.7, 1.1]  # under its low
json.dump(c, open(sys.argv[3], 'w'))
E
"$BIN" predict --target "$TMP/rb.json" -T 1 -f json "$ENC" >"$TMP/prb" 2>/dev/null
ok "[ \$? -eq 0 ] && $PY - '$TMP/pkc0' '$TMP/prb' <<'E'
import json, sys
t0, t = (json.load(open(p))['totals'] for p in sys.argv[1:3])
assert t['time_ms'] == t0['time_ms'], (t0, t)
assert (t0['time_ms_low'], t0['time_ms_high']) != (t['time_ms_low'], t['time_ms_high']), t0
assert abs(t['time_ms_low'] - 0.8 * t['time_ms']) < 1e-9 * t['time_ms'], t
assert abs(t['time_ms_high'] - 1.3 * t['time_ms']) < 1e-9 * t['time_ms'], t
E" "a range band: the range is the total times its band's low and high, the total unchanged"
"$BIN" predict --target "$TMP/rbbad.json" -T 1 "$ENC" >/dev/null 2>"$TMP/rbbe"
ok "[ \$? -ne 0 ] && [ \$(wc -l <'$TMP/rbbe') -eq 1 ] && grep -q 'bad \"range_band\"' '$TMP/rbbe'" \
    "a range band whose high is under its low: refused in one line"
"$BIN" predict --target "$TMP/ch.json" -T 1 --top 100000 "$SRC/samples/tiny_encoder.onnx" >"$TMP/pshare" 2>/dev/null
ok "awk '/%\$/ && \$1 != \"node\" { s += \$NF } END { exit !(s > 90 && s < 110) }' '$TMP/pshare'" \
    "the table's shares add up to 100% within rounding (of the times as listed, the profiler's cost in them), not 250%"

$PY - "$TMP/ch.json" "$TMP/slow.json" <<'E'
import json, sys
c = json.load(open(sys.argv[1]))
c['threads'][0]['overhead']['stream_gbps'] = 0.01
json.dump(c, open(sys.argv[2], 'w'))
E
"$BIN" predict --target "$TMP/slow.json" -T 1 -f json "$SRC/samples/mobilenet_v2.onnx" >"$TMP/psl" 2>/dev/null
ok "$PY - '$TMP/psl' '$TMP/pch' <<'E'
import json, sys
slow, fast = (json.load(open(f)) for f in sys.argv[1:])
t = slow['totals']
# nearly all of mobilenet_v2's weights are Conv/Gemm weights: at 0.01 GB/s they take >= 0.9 x bytes / rate
assert t['time_ms'] >= 0.9 * t['weight_bytes'] / 0.01e6, (t['time_ms'], t['weight_bytes'])
conv = [k for k in slow['kernels'] if k['op'] == 'Conv'][0]
assert conv['time_us'] > [k for k in fast['kernels'] if k['name'] == conv['name']][0]['time_us']
E" "stream_gbps: a Conv or Gemm kernel takes at least its weights' bytes at that rate"
# A weight two MatMuls share (an unrolled decoder's steps) streams once a run.
$PY -c "
import numpy as np, onnx
from onnx import helper as h, numpy_helper as nh, TensorProto as T
w = nh.from_array(np.ones((512, 512), np.float32), 'w')
g = h.make_graph([h.make_node('MatMul', ['x', 'w'], ['y']), h.make_node('Relu', ['y'], ['r']),
                  h.make_node('MatMul', ['r', 'w'], ['z'])], 'shared',
                 [h.make_tensor_value_info('x', T.FLOAT, [4, 512])],
                 [h.make_tensor_value_info('z', T.FLOAT, [4, 512])], [w])
onnx.save(h.make_model(g, opset_imports=[h.make_opsetid('', 17)]), '$TMP/shared.onnx')"
"$BIN" predict --target "$TMP/slow.json" -T 1 -f json "$TMP/shared.onnx" >"$TMP/psh" 2>/dev/null
ok "$PY - '$TMP/psh' <<'E'
import json, sys
first, second = [k['time_us'] for k in json.load(open(sys.argv[1]))['kernels']
                 if k['op'] == 'MatMul']
floor = 512 * 512 * 4 / 0.01e3  # us at 0.01 GB/s
assert first >= floor and second < floor / 100, (first, second, floor)
E" "stream_gbps: a weight two kernels share streams once, for the first"

# A probe measured on another host (here: a pretend one) calibrates for
# the probe's machine, which --hw, that machine's profile, describes.
ONNXCOST_MACHINE=cpu-Nobody-f1-m1 "$BIN" calibrate --no-measure --no-curve --threads 1 \
    --probe "$PROBE" --hw "$SRC/data/machines/$FP/hw.json" -o "$TMP/far.json" >/dev/null \
    2>"$TMP/fare"
ok "[ \$? -eq 0 ] && grep -q 'the probe was measured on $FP, not this machine' '$TMP/fare' &&
    $PY - '$TMP/far.json' '$SRC/data/machines/$FP/hw.json' <<'E'
import json, sys
m, hw = json.load(open(sys.argv[1]))['machine'], json.load(open(sys.argv[2]))['machine']
sys.exit(m != hw or 'avx512f' not in m['isa'] or m['vendor'] != 'AuthenticAMD')
E" "a probe from another host: the calibration describes that machine as its --hw profile does"
head -1 "$TMP/chain.jsonl" >"$TMP/chain1.jsonl"
ONNXCOST_MACHINE=$FP "$BIN" calibrate --no-measure --threads 1 --probe "$PROBE" \
    --anchors "$TMP/chain1.jsonl" -o "$TMP/bad.json" >/dev/null 2>"$TMP/bade"
ok '[ $? -ne 0 ] && grep -q "kernel chains of one length" "$TMP/bade" && [ ! -e "$TMP/bad.json" ]' \
    "kernel chains of one length: refused, nothing written"
sed 's/"machine"/"id"/' "$SRC/data/machines/$FP/hw.json" >"$TMP/hwx.json"
ONNXCOST_MACHINE=$FP "$BIN" calibrate --no-measure --threads 1 --probe "$PROBE" \
    --hw "$TMP/hwx.json" -o "$TMP/bad.json" >/dev/null 2>"$TMP/bade"
ok '[ $? -eq 2 ] && grep -q "was measured on an unrecorded machine, the calibration is of $FP" "$TMP/bade" &&
    [ ! -e "$TMP/bad.json" ]' "--hw of another (or no) machine: refused"
printf '{"model": "resnet18", "batch": 1}\n' >"$TMP/badan.jsonl"
ONNXCOST_MACHINE=$FP "$BIN" calibrate --no-measure --probe "$PROBE" --anchors "$TMP/badan.jsonl" \
    -o "$TMP/bad.json" >/dev/null 2>"$TMP/bade"
ok '[ $? -eq 2 ] && [ "$(wc -l <"$TMP/bade")" -eq 1 ] && grep -q "badan.jsonl:1: not a whole-network run" "$TMP/bade" &&
    [ ! -e "$TMP/bad.json" ]' "--anchors: a bad line: one line naming file and line, exit 2"
sed 's/"machine":"[^"]*"/"machine":"cpu-Other-f1-m1"/' "$AN" >"$TMP/foran.jsonl"
ONNXCOST_MACHINE=$FP "$BIN" calibrate --no-measure --probe "$PROBE" --anchors "$TMP/foran.jsonl" \
    -o "$TMP/bad.json" >/dev/null 2>"$TMP/bade"
ok '[ $? -eq 2 ] && grep -q "measured on cpu-Other-f1-m1, not $FP" "$TMP/bade" && [ ! -e "$TMP/bad.json" ]' \
    "--anchors of another machine: refused"
"$BIN" calibrate --mode training --no-measure --probe "$PROBE" --anchors "$AN" --anchors "$AN" \
    >/dev/null 2>"$TMP/bade"
ok '[ $? -eq 1 ] && grep -q "takes one --anchors file" "$TMP/bade"' "--mode training, --anchors twice: usage error"

# --- a training calibration: steps timed with freed memory kept fit the
# in-graph scale, the hardware profile gives what a fresh page costs ---
MD=$SRC/data/machines/$FP
TP=$TMP/tprobe.jsonl.gz
cp "$MD/torch-cpu-probe-retain.jsonl.gz" "$TP"
ONNXCOST_MACHINE=$FP "$BIN" calibrate --mode training --no-measure --probe "$TP" \
    --anchors "$MD/torch-cpu-anchors-retain.jsonl" --hw "$MD/hw.json" -o "$TMP/train.json" \
    >"$TMP/tr" 2>"$TMP/tre"
ok '[ $? -eq 0 ] && grep -q "in-graph scale at 1 thread: .* fitted on 9 whole-network runs" "$TMP/tr" &&
    grep -q "fresh pages at 2 threads" "$TMP/tr"' "training: the scale fitted on the steps, fresh pages priced"
ok "$PY - '$TMP/train.json' '$MD/hw.json' <<'E'
import json, sys
c, hw = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
f = {t['threads']: t['overhead'] for t in c['threads']}
assert f[1]['anchors']['runs'] == 9 and f[2]['anchors']['runs'] == 9, f
assert abs(f[1]['fault_us_per_mb'] / hw['fault_us_per_mb'] - 1) < 1e-6, f[1]
assert abs(f[2]['fault_us_per_mb'] / hw['fault_us_per_mb_n'] - 1) < 1e-6, f[2]
assert 'stream_gbps' not in f[1], f[1]
E" "training calibration: 9 steps a thread count, each count's fault cost from the profile"
# ONNX Runtime runs are no steps: the base model's scale stays, said once
ONNXCOST_MACHINE=$FP "$BIN" calibrate --mode training --no-measure --probe "$TP" --threads 1 \
    --anchors "$AN" -o "$TMP/train2.json" >"$TMP/tr2" 2>"$TMP/tre2"
ok '[ $? -eq 0 ] && grep -q "no step at 1 thread timed with freed memory kept" "$TMP/tre2" &&
    grep -q "the timing model.s (no whole network timed)" "$TMP/tr2"' \
    "training: an ONNX Runtime runs file fits nothing, and says so"
# a step whose network's graph is corrupt: one line naming the file and line
mkdir -p "$TMP/badtrain"
head -c 300 "$SRC/tests/reference/train/resnet18.onnx" >"$TMP/badtrain/resnet18.onnx"
ONNXCOST_TRAIN_ANCHORS=$TMP/badtrain ONNXCOST_MACHINE=$FP "$BIN" calibrate --mode training \
    --no-measure --probe "$TP" --threads 1 --anchors "$MD/torch-cpu-anchors-retain.jsonl" \
    -o "$TMP/train3.json" >/dev/null 2>"$TMP/tre3"
ok '[ $? -eq 2 ] && [ "$(wc -l <"$TMP/tre3")" -eq 1 ] &&
    grep -q "torch-cpu-anchors-retain.jsonl:[0-9]*: " "$TMP/tre3" && [ ! -e "$TMP/train3.json" ]' \
    "training anchors: a network whose graph does not load: one line, exit 2, nothing written"
# predicted with it: alexnet's two large weights' gradients (218 MB) are
# mapped anew each step, and priced
"$BIN" predict --mode training --batch 4 --target "$TMP/train.json" --format json \
    "$SRC/tests/reference/train/alexnet.onnx" >"$TMP/ap.json" 2>/dev/null
ok "$PY - '$TMP/ap.json' '$MD/hw.json' <<'E'
import json, sys
t, hw = json.load(open(sys.argv[1]))['totals'], json.load(open(sys.argv[2]))
m = t['training_memory']
assert m['fresh_large_bytes'] == 218103808, m
assert m['fresh_bytes'] == int(218103808 + 0.27 * m['heap_churn_bytes']), m
assert abs(t['fault_ms'] / (m['fresh_bytes'] / 1e6 * hw['fault_us_per_mb'] / 1e3) - 1) < 1e-6, t
# the range: the large blocks' faults always, the heap's from none to 4x
heap_ms = t['fault_ms'] * (1 - m['fresh_large_bytes'] / m['fresh_bytes'])
assert t['time_ms_low'] < t['time_ms'] - heap_ms + 1e-6, t
assert t['time_ms_high'] > t['time_ms'] + 3 * heap_ms - 1e-6, t
E" "training prediction: fresh bytes and their faults in the totals"
"$BIN" predict --mode training --batch 4 --target "$TMP/train.json" \
    "$SRC/tests/reference/train/alexnet.onnx" >"$TMP/ap.txt" 2>/dev/null
ok 'grep -q "^of which page faults: 2[0-9][0-9] MB" "$TMP/ap.txt" && grep -q "MALLOC_MMAP_MAX_=0" "$TMP/ap.txt"' \
    "training table: the faults and how to skip them"

# --- a real probe, where ONNX Runtime is installed ---
if [ -d "$SRC/collector/node_modules/onnxruntime-node" ]; then
    # as this machine (the probe's samples carry its fingerprint)
    env -u ONNXCOST_MACHINE "$BIN" calibrate --threads 1 --budget 10 --probe "$TMP/real.jsonl.gz" \
        --anchors "$TMP/real-an.jsonl" -o "$TMP/real.json" >"$TMP/rc" 2>"$TMP/rce"
    ok '[ $? -eq 0 ] && [ -s "$TMP/real.json" ] && grep -q "eta" "$TMP/rce"' \
        "a real probe: measured, fitted, progress with an eta"
    ok "$PY - '$TMP/real-an.jsonl' '$TMP/real.json' <<'E'
import json, sys
runs = [json.loads(l) for l in open(sys.argv[1])]
nets = [r for r in runs if 'batch' in r]
outs = [r for r in runs if 'output_bytes' in r]
anchors = [r for r in nets if r['model'] in ('squeezenet1_1', 'mobilenet_v2', 'resnet18')]
assert sorted((r['model'], r['batch']) for r in anchors) == sorted(
    (m, b) for m in ('squeezenet1_1', 'mobilenet_v2', 'resnet18') for b in (1, 4)), runs
# and the curve networks, at batch 1, 4 and 16
curve = [r for r in nets if r not in anchors]
assert len(curve) == 36 and sorted({r['batch'] for r in curve}) == [1, 4, 16], curve
assert sorted(r['output_bytes'] for r in outs) == [40000000, 64000000], outs
assert all(r['model'] == 'expand_output' and r['kernel_us']['median'] >= 0 for r in outs)
assert all(r['threads'] == 1 and r['wall_us']['median'] > 0 and r['machine'] for r in runs)
f = json.load(open(sys.argv[2]))['threads'][0]['overhead']
assert f['anchors']['runs'] == 6 and 0.25 <= f['kernel_scale'] <= 4, f
assert f['kernel_curve']['runs'] == 42 and 'from' not in f['kernel_curve'], f
assert f['output_us_per_mb'] > 0, f
chains = [r for r in runs if r['model'] == 'kernel_chain']
assert sorted(r['kernels'] for r in chains) == [8, 256], chains
assert all(r['kernel_us']['median'] > 0 for r in chains), chains
assert f['kernel_chain']['runs'] == 2 and f['kernel_chain']['profiled_us_per_kernel'] > 0, f
steps = [r for r in runs if r['model'] == 'step_chain']
assert sorted(r['steps'] for r in steps) == [4, 32], steps
# the plan of the step probe is what ONNX Runtime ran: 20 kernels a step
assert all(r['ran_kernels'] == 20 * r['steps'] and r['kernel_us']['median'] > 0 for r in steps), steps
assert all(r['ran_kernels'] == r['kernels'] for r in chains), chains
assert f['step_chain']['runs'] == 2 and f['per_kernel_us'] < 0, f
loops = [r for r in runs if r['model'] == 'loop_chain']
assert sorted(r['trips'] for r in loops) == [4, 64], loops
assert all(r['kernel_us']['median'] > 0 for r in loops), loops
assert f['loop_chain']['runs'] == 2 and f['loop_chain']['trip_us'] >= 0, f
assert f['stream_gbps'] > 0, f
# the networks' own kernels kept with each run, and the groups fitted on them
assert all(r['kernels'] and all({'name', 'op', 'median_us'} <= set(k) for k in r['kernels'])
           for r in nets), nets[0]
assert 'conv' in f['in_graph_groups'], f
E" "a real probe: the whole networks (with their kernels), the output probes and the kernel chains timed, kept in --anchors, fitted"
    # an anchors file of an older calibrate (no curve networks' runs): the
    # whole set is timed again, and only the runs it lacks are appended
    grep -v -E '"model": ?"(lpd_recon|rl_deconv|admm_qp_layer|hnn_leapfrog|qr_eigensolver|deep_hedging|yee_fdtd|imu_strapdown|nmf_multiplicative|lqr_riccati|gray_scott|clockwork_rnn)"' \
        "$TMP/real-an.jsonl" >"$TMP/old-an.jsonl"
    env -u ONNXCOST_MACHINE "$BIN" calibrate --threads 1 --budget 10 --probe "$TMP/real.jsonl.gz" \
        --anchors "$TMP/old-an.jsonl" -o "$TMP/real2.json" >/dev/null 2>"$TMP/rc2e"
    ok "[ \$? -eq 0 ] && grep -q 'whole nets' '$TMP/rc2e' && $PY - '$TMP/old-an.jsonl' '$TMP/real-an.jsonl' <<'E'
import json, sys
old, new = ([json.loads(l) for l in open(p)] for p in sys.argv[1:3])
def key(r):  # (a network's 'kernels' is its kernel list, a chain's its length)
    k = r.get('kernels')
    return (r['model'], r.get('batch'), r.get('output_bytes'), k if isinstance(k, int) else None,
            r.get('steps'), r.get('trips'))
assert sorted(map(key, old)) == sorted(map(key, new)), (len(old), len(new))
E" "an older anchors file: timed again, only the curve networks' runs appended, each run once"
    # the check kernel alone, with ONNX Runtime, against that calibration
    env -u ONNXCOST_MACHINE "$BIN" calibrate --check --target "$TMP/real.json" -T 1 -f json \
        >"$TMP/rk.json" 2>/dev/null
    ok "[ \$? -eq 0 ] && $PY - '$TMP/rk.json' '$TMP/real.json' <<'E'
import json, sys
k, c = (json.load(open(p)) for p in sys.argv[1:3])
t = k['threads'][0]
assert t['threads'] == 1 and len(t['reads_us']) == 6 and all(x > 0 for x in t['reads_us']), k
assert t['calibration_us'] == c['threads'][0]['check_kernel_us'] and t['now_us'] > 0, (t, c)
E" "--check with ONNX Runtime: the check kernel timed six times against the calibration's"
    ok "$PY - '$TMP/real.jsonl.gz' <<'E'
import gzip, json, sys, os
lines = [json.loads(l) for l in gzip.open(sys.argv[1], 'rt')]
assert len(lines) >= 15, len(lines)
assert all(l['target']['machine'].startswith('cpu-') for l in lines)
assert all('/s90001/' in l['id'] for l in lines)
E" "probe samples carry the fingerprint and the probe seed"
    # Ctrl-C: stops, writes nothing
    mkdir -p "$TMP/tmpd"
    interrupt_after 4 env TMPDIR="$TMP/tmpd" ONNXCOST_MACHINE=$FP "$BIN" calibrate --threads 1 \
        --budget 60 -o "$TMP/int.json" >/dev/null 2>"$TMP/ie"
    rc=$?
    ok '[ $rc -eq 130 ] && [ ! -e "$TMP/int.json" ] && grep -q "nothing written" "$TMP/ie"' \
        "interrupted: exit 130, nothing written"
    ok '[ "$(ls -A "$TMP/tmpd" | grep -c onnxcost)" -eq 0 ]' \
        "interrupted: the temporary probe and workdirs removed"
    # your own networks: timed by measure_zoo.py --onnx, fitted on by --runs
    mkdir -p "$TMP/ownnets"
    $PY - "$TMP/ownnets/tiny.onnx" <<'E'
import sys
import numpy as np
from onnx import TensorProto, helper, numpy_helper, save
w = numpy_helper.from_array(np.random.default_rng(1).standard_normal((8, 8, 3, 3)).astype(np.float32), "w")
g = helper.make_graph(
    [helper.make_node("Conv", ["x", "w"], ["c"], pads=[1, 1, 1, 1]), helper.make_node("Relu", ["c"], ["y"])],
    "tiny", [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 8, "S", "S"])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], [w])
save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]), sys.argv[1])
E
    ONNXCOST_MACHINE=$FP $PY "$SRC/scripts/measure_zoo.py" --bin "$BIN" --onnx "$TMP/ownnets/tiny.onnx" --quick \
        --out "$TMP/ownruns.jsonl" >"$TMP/onx0" 2>&1
    ok '[ $? -eq 0 ] && [ ! -s "$TMP/ownruns.jsonl" ] && grep -q "tiny b1 t1: skipped: .*S.* not bound (give it with --dim NAME=VALUE)" "$TMP/onx0"' \
        "measure_zoo.py --onnx: a symbolic dim nothing binds is named, nothing measured"
    ONNXCOST_MACHINE=$FP $PY "$SRC/scripts/measure_zoo.py" --bin "$BIN" --onnx "$TMP/ownnets/tiny.onnx" --quick \
        --dim S=24 --batches 1 2 --out "$TMP/ownruns.jsonl" >"$TMP/onx1" 2>&1
    ok "[ \$? -eq 0 ] && $PY - '$TMP/ownruns.jsonl' $FP <<'E'
import json, sys
runs = [json.loads(l) for l in open(sys.argv[1])]
assert [(r['model'], r['batch'], r['threads']) for r in runs] == [('tiny', 1, 1), ('tiny', 2, 1)], runs
for r in runs:
    assert r['machine'] == sys.argv[2] and r['kernels'] and r['wall_us']['median'] > 0, r
    assert r['inputs'] == [{'name': 'x', 'dtype': 'float32', 'shape': [r['batch'], 8, 24, 24]}], r
E" "measure_zoo.py --onnx --dim: each batch timed, the runs name the machine and their inputs"
    ONNXCOST_MACHINE=$FP "$BIN" calibrate --no-measure --no-curve --probe "$PROBE" --anchors "$AN" \
        --runs "$TMP/ownruns.jsonl" --models "$TMP/ownnets" -o "$TMP/onx.json" >"$TMP/onx2" 2>"$TMP/onx2e"
    ok '[ $? -eq 0 ] && [ ! -s "$TMP/onx2e" ] &&
        grep -q "^in-graph scale at 1 thread: .* fitted on 8 whole-network runs" "$TMP/onx2"' \
        "calibrate --runs: your own networks' runs fitted on"
else
    echo "calibrate_test: real probe skipped (no onnxruntime-node)"
fi
echo "calibrate_test: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
