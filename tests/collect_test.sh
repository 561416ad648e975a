#!/bin/bash
# collect_test.sh ONNXCOST SOURCE_DIR TMPDIR - `onnxcost collect` end to end
# on a tiny collection: dry run, a real run through collector/ort_bench.js
# (threads 1, few repeats), the dataset's fields, resume, repair of a cut-off
# chunk, Ctrl-C.  Skips (exit 0) only when collector/node_modules is absent.
set -u
BIN=$1 SRC=$2 TMP=$3
if [ ! -d "$SRC/collector/node_modules" ]; then
    echo "collect_test: skipped (no onnxruntime-node)"
    echo "  install it with: (cd $SRC/collector && npm ci --ignore-scripts)"
    exit 0
fi
NODE=${ONNXCOST_NODE:-node}
rm -rf "$TMP" && mkdir -p "$TMP"
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() {
    fail=$((fail + 1))
    echo "FAIL: $*"
}
# expect CODE DESCRIPTION -- command...   (stderr kept in $TMP/err)
expect() {
    local want=$1 what=$2
    shift 3
    "$@" >"$TMP/out" 2>"$TMP/err"
    local got=$?
    if [ "$got" -eq "$want" ]; then ok; else
        bad "$what: exit $got, expected $want"
        tail -20 "$TMP/err"
    fi
}
contains() { # contains FILE TEXT DESCRIPTION
    if grep -qF -- "$2" "$1"; then ok; else
        bad "$3: '$2' not in $(basename "$1"):"
        head -5 "$1"
    fi
}
lines() { gzip -dc "$1" | wc -l; }

# Few, short measurements: this is a test of the plumbing, not data.
DRV="--repeats 5 --passes 2 --warmup 1 --max-seconds 1"
DS=$TMP/ds.jsonl.gz
FAMS=conv,gemm,elementwise,gather

# --- usage errors ---
expect 1 "no arguments" -- "$BIN" collect
expect 1 "unknown family" -- "$BIN" collect --family convv --count 1 --dataset "$DS"
contains "$TMP/err" "unknown family 'convv'" "unknown family message"
expect 1 "other target" -- "$BIN" collect --target tpu-9000 --family conv --count 1 --dataset "$DS"
expect 0 "help" -- "$BIN" collect --help
contains "$TMP/out" "--dry-run" "help text"
ONNXCOST_COLLECTOR=$TMP/none.js expect 3 "missing driver" -- \
    "$BIN" collect --family conv --count 1 --dataset "$DS"
contains "$TMP/err" "none.js is missing" "missing driver message"

# --- dry run: models, manifest and dataset lines without times ---
expect 0 "dry run" -- "$BIN" collect --family conv,layernorm,resize --count 2 --dry-run \
    --workdir "$TMP/dry"
contains "$TMP/err" "dry run: 6 samples" "dry run summary"
if [ -s "$TMP/dry/calib.onnx" ] && [ "$(ls "$TMP"/dry/conv-0000/*.onnx | wc -l)" -eq 2 ] &&
    [ "$(wc -l <"$TMP/dry/conv-0000/manifest.jsonl")" -eq 3 ] &&
    [ "$(wc -l <"$TMP/dry/resize-0000/pending.jsonl")" -eq 2 ]; then ok; else
    bad "dry run files"
    ls -R "$TMP/dry" | head
fi
contains "$TMP/dry/conv-0000/manifest.jsonl" '{"calibration_model":' "manifest calibration line"
"$BIN" analyze "$TMP/dry/layernorm-0000/000000.onnx" >"$TMP/out" 2>&1 &&
    grep -q LayerNormalization "$TMP/out" && ok || bad "a dry-run model analyses"
[ ! -e "$DS" ] && ok || bad "a dry run writes no dataset"
# torch-cpu Adam steps: the optimizer in the ids and the target
expect 0 "dry run adam" -- "$BIN" collect --target torch-cpu --optimizer adam --family gemm \
    --count 1 --dry-run --workdir "$TMP/dryadam"
contains "$TMP/dryadam/gemm-0000/pending.jsonl" '"id":"torch-cpu/t1/adam/Gemm/s0/000000"' "adam sample id"
contains "$TMP/dryadam/gemm-0000/pending.jsonl" '"optimizer":"adam"' "adam in the target"
expect 1 "optimizer for ort" -- "$BIN" collect --optimizer sgd --family gemm --count 1 --dry-run
expect 1 "bad optimizer" -- "$BIN" collect --target torch-cpu --optimizer rmsprop --family gemm --count 1 --dry-run

# --- a real run ---
# Samples may be dropped (spread over 0.5 twice) on a busy machine; the
# checks below allow for that but not for losing or inventing any.
expect 0 "collect" -- "$BIN" collect --family $FAMS --count 2 --chunk 2 --threads 1 \
    --dataset "$DS" --driver-args "$DRV"
cat "$TMP/err" >"$TMP/run1.err"
contains "$TMP/err" "[gemm] 2/2 samples" "progress line"
appended=$(sed -n 's/.*: \([0-9]*\) samples appended, \([0-9]*\) dropped.*/\1 \2/p' "$TMP/err")
set -- $appended
n1=${1:-0} d1=${2:-0}
if [ "$n1" -ge 1 ] && [ $((n1 + d1)) -eq 8 ] && [ "$(lines "$DS")" -eq "$n1" ]; then ok; else
    bad "8 samples appended or dropped, the dataset holds the appended (got '$appended', $(lines "$DS") lines)"
    tail -20 "$TMP/err"
fi
gzip -t "$DS" && ok || bad "the dataset is valid gzip"
ls "$TMP"/.oc-chunk-* >/dev/null 2>&1 && bad "temporary chunk files left" || ok

# Every line has the brief's fields with sane values.
cat >"$TMP/check.js" <<'EOF'
const zlib = require('zlib'), fs = require('fs');
const text = zlib.gunzipSync(fs.readFileSync(process.argv[2])).toString();
const errs = [];
const lines = text.split('\n').filter((l) => l.length);
const num = (v) => typeof v === 'number' && isFinite(v);
for (const [i, l] of lines.entries()) {
  const d = JSON.parse(l), e = (m) => errs.push(`line ${i + 1} (${d.id}): ${m}`);
  if (d.v !== 1) e('v');
  if (!/^ort-cpu\/t1\/[A-Za-z]+\/s0\/\d{6}$/.test(d.id)) e('id');
  for (const k of ['family', 'op', 'pattern', 'collected']) if (typeof d[k] !== 'string' || !d[k]) e(k);
  const t = d.target || {};
  if (t.name !== 'ort-cpu' || t.runtime !== 'onnxruntime-node' || !/^\d+\.\d+\.\d+/.test(t.version) ||
      t.threads !== 1 || typeof t.cpu !== 'string' || !(t.cores >= 1)) e('target ' + JSON.stringify(t));
  if (typeof d.config !== 'object' || !Object.keys(d.config).length) e('config');
  const f = d.features || {};
  for (const k of ['macs', 'flops', 'params', 'bytes_read', 'bytes_written', 'in_elems', 'out_elems', 'batch'])
    if (!Number.isInteger(f[k]) || f[k] < 0) e('features.' + k);
  const n = d.node || {};
  if (n.op !== d.op || typeof n.attrs !== 'object' || !Array.isArray(n.inputs) || !n.inputs.length ||
      !Array.isArray(n.outputs)) e('node');
  for (const v of n.inputs || [])
    if (v && (typeof v.weight !== 'boolean' || !Array.isArray(v.shape))) e('node input');
  if (!Array.isArray(d.fused) || [d.op, ...d.fused].join('+') !== d.pattern) e('fused/pattern');
  if (!(num(d.time_us) && d.time_us > 0 && num(d.wall_us) && d.wall_us > 0)) e('times');
  if (!(num(d.spread) && d.spread >= 0 && d.spread <= 0.5)) e('spread');
  if (!(Number.isInteger(d.runs) && d.runs >= 3 && Number.isInteger(d.passes) && d.passes >= 1)) e('runs/passes');
  if (!Array.isArray(d.calib_us) || d.calib_us.length !== 2 || !d.calib_us.every((x) => num(x) && x > 0)) e('calib_us');
  if (!Array.isArray(d.kernels) || !d.kernels.length) e('kernels');
  if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(d.collected)) e('collected');
}
const fams = new Set(lines.map((l) => JSON.parse(l).family));
if (lines.length && fams.size < 3) errs.push('families: ' + [...fams]);
if (errs.length) { console.log(errs.slice(0, 20).join('\n')); process.exit(1); }
console.log(`${lines.length} lines ok`);
EOF
"$NODE" "$TMP/check.js" "$DS" >"$TMP/out" 2>&1 && ok || {
    bad "dataset fields:"
    head -20 "$TMP/out"
}

# --- resume: only what is missing (samples dropped above are tried again) ---
summary() { sed -n 's/.*: \([0-9]*\) samples appended, \([0-9]*\) dropped, \([0-9]*\) already.*/\1 \2 \3/p' "$TMP/err"; }
expect 0 "resume" -- "$BIN" collect --family $FAMS --count 2 --chunk 2 \
    --dataset "$DS" --driver-args "$DRV"
set -- $(summary)
if [ "${1:-x}" != x ] && [ $(($1 + $2)) -eq "$d1" ] && [ "$3" -eq "$n1" ] &&
    [ "$(lines "$DS")" -eq $((n1 + $1)) ]; then ok; else
    bad "resume: appended/dropped/already '$*', expected the $d1 dropped before to be retried"
    tail -5 "$TMP/err"
fi
contains "$TMP/err" "already in the dataset" "resume says why"
n1=$(lines "$DS")
expect 0 "resume, one more" -- "$BIN" collect --family gemm --count 3 --dataset "$DS" \
    --driver-args "$DRV"
contains "$TMP/err" "resuming: 2 of 3" "resume progress"
set -- $(summary)
n2=$(lines "$DS")
if [ "${1:-x}" != x ] && [ $(($1 + $2)) -eq 1 ] && [ "$n2" -eq $((n1 + $1)) ]; then ok; else
    bad "one more gemm sample: '$*', $n1 -> $n2 lines"
fi

# --- a cut-off chunk at the end (a crash mid-append) is cut back ---
# If the gemm sample above was dropped (a noisy machine), this run tries it
# again and may append it after the cut: the old bytes must stay as they were.
size=$(stat -c %s "$DS")
cp "$DS" "$TMP/before.jsonl.gz"
gzip -c "$TMP/dry/conv-0000/pending.jsonl" | head -c 300 >>"$DS"
expect 0 "cut-off chunk" -- "$BIN" collect --family gemm --count 3 --dataset "$DS" \
    --driver-args "$DRV"
contains "$TMP/err" "incomplete chunk" "cut-off chunk reported"
set -- $(summary)
if cmp -s -n "$size" "$TMP/before.jsonl.gz" "$DS" && gzip -t "$DS" &&
    { [ "${1:-0}" -gt 0 ] || [ "$(stat -c %s "$DS")" -eq "$size" ]; }; then ok; else
    bad "cut back to $size bytes (now $(stat -c %s "$DS"), appended '${1:-}')"
fi

# --- Ctrl-C: stop after the current chunk, the dataset stays whole ---
DS2=$TMP/int.jsonl.gz
"$BIN" collect --family elementwise --count 6 --chunk 1 --dataset "$DS2" \
    --driver-args "$DRV" 2>"$TMP/int.err" &
pid=$!
for _ in $(seq 1 300); do
    [ -s "$DS2" ] && break
    kill -0 $pid 2>/dev/null || break
    sleep 0.1
done
# A second collector on the same dataset is refused while this one runs.
if kill -0 $pid 2>/dev/null; then
    "$BIN" collect --family elementwise --count 6 --dataset "$DS2" >"$TMP/out" 2>"$TMP/err"
    lrc=$?
    if kill -0 $pid 2>/dev/null; then
        [ $lrc -eq 3 ] && grep -q "another collector" "$TMP/err" && ok ||
            bad "second collector: exit $lrc: $(head -1 "$TMP/err")"
    fi
fi
kill -INT $pid 2>/dev/null
wait $pid
rc=$?
if { [ $rc -eq 130 ] || [ $rc -eq 0 ]; } && gzip -t "$DS2"; then ok; else
    bad "Ctrl-C: exit $rc"
    tail -5 "$TMP/int.err"
fi
k=$(lines "$DS2")
if [ $rc -eq 130 ]; then
    [ "$k" -ge 1 ] && [ "$k" -lt 6 ] && ok || bad "Ctrl-C: $k lines"
    grep -q interrupted "$TMP/int.err" && ok || bad "Ctrl-C reported"
fi
ls "$TMP"/.oc-chunk-* >/dev/null 2>&1 && bad "Ctrl-C left a chunk file" || ok

echo "collect_test: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
