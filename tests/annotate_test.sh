#!/bin/bash
# annotate_test.sh ONNXCOST SRCDIR - annotate round trips: what is written,
# that ONNX's checker accepts the result and ONNX Runtime gives bit-identical
# outputs, that the input is never overwritten without --in-place, and that
# a full disk or a kill during the write leaves the old file intact.
set -u
BIN=$1
SRC=$(cd "$2" && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
PY=/usr/bin/python3
pass=0 fail=0
ok() { if eval "$1"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $2"; fi; }
SQ=$SRC/samples/squeezenet1_1.onnx
cp "$SQ" "$TMP/in.onnx"
cp "$SQ" "$TMP/orig.onnx"

"$BIN" annotate "$TMP/in.onnx" -o "$TMP/out.onnx" 2>/dev/null
ok '[ $? -eq 0 ]' "annotate -o"
ok 'cmp -s "$TMP/in.onnx" "$TMP/orig.onnx"' "input untouched"
ok "$PY - '$TMP/out.onnx' '$TMP/orig.onnx' <<'E'
import sys, onnx
m = onnx.load(sys.argv[1]); o = onnx.load(sys.argv[2])
onnx.checker.check_model(m)
meta = {p.key: p.value for p in m.metadata_props}
assert float(meta['onnxcost.time_ms']) > 0 and int(meta['onnxcost.macs']) > 0, meta
assert len(m.graph.node) == len(o.graph.node)
for a, b in zip(m.graph.node, o.graph.node):
    assert a.doc_string.splitlines()[-1].startswith('onnxcost: time_us='), a.doc_string
    assert 'macs=' in a.doc_string and 'bytes=' in a.doc_string
    # field 9 (metadata_props, ONNX >= 1.16) is unknown to this onnx: the raw
    # bytes carry the keys
    raw = a.SerializeToString()
    for k in (b'onnxcost.time_us', b'onnxcost.macs', b'onnxcost.bytes'):
        assert k in raw, (a.name, k)
    # nothing else changed
    a2 = onnx.NodeProto(); a2.CopyFrom(a); a2.doc_string = b.doc_string
    a2.ClearField('doc_string') if not b.doc_string else None
    b2 = onnx.NodeProto(); b2.CopyFrom(b)
    assert a2.input == b2.input and a2.output == b2.output and a2.op_type == b2.op_type
    assert list(a2.attribute) == list(b2.attribute)
assert list(m.graph.initializer) == list(o.graph.initializer)
E" "checker accepts; doc_string, node and model metadata; nothing else changed"

# ONNX Runtime: bit-identical outputs
if [ -d "$SRC/collector/node_modules/onnxruntime-node" ]; then
    cat >"$TMP/cmp.js" <<'E'
const ort = require(process.argv[2]);
(async () => {
  const x = new Float32Array(3 * 224 * 224);
  let s = 12345;
  for (let i = 0; i < x.length; i++) { s = (s * 1103515245 + 12345) % 2147483648; x[i] = s / 2147483648 - 0.5; }
  const outs = [];
  for (const p of [process.argv[3], process.argv[4]]) {
    const sess = await ort.InferenceSession.create(p, { intraOpNumThreads: 1 });
    const r = await sess.run({ [sess.inputNames[0]]: new ort.Tensor('float32', x, [1, 3, 224, 224]) });
    outs.push(Buffer.from(r[sess.outputNames[0]].data.buffer));
  }
  process.exit(outs[0].equals(outs[1]) ? 0 : 1);
})().catch((e) => { console.error(e); process.exit(2); });
E
    node "$TMP/cmp.js" "$SRC/collector/node_modules/onnxruntime-node" "$TMP/orig.onnx" "$TMP/out.onnx"
    ok '[ $? -eq 0 ]' "ONNX Runtime outputs bit-identical"
else
    echo "annotate_test: ONNX Runtime comparison skipped (no collector/node_modules)"
fi

# never over the input without --in-place
"$BIN" annotate "$TMP/in.onnx" -o "$TMP/in.onnx" 2>"$TMP/err"
ok '[ $? -eq 1 ] && grep -q "in-place" "$TMP/err"' "refuses -o INPUT"
ln -s "$TMP/in.onnx" "$TMP/alias.onnx"
"$BIN" annotate "$TMP/in.onnx" -o "$TMP/alias.onnx" 2>/dev/null
ok '[ $? -eq 1 ] && cmp -s "$TMP/in.onnx" "$TMP/orig.onnx"' "refuses a link to the input"
"$BIN" annotate "$TMP/in.onnx" 2>/dev/null
ok '[ $? -eq 1 ]' "needs -o or --in-place"

# full disk (writes fail with EFBIG) and a kill (SIGXFSZ) in the middle
(trap '' XFSZ; ulimit -f 1024; "$BIN" annotate --in-place "$TMP/in.onnx") 2>"$TMP/err"
rc=$?
ok '[ $rc -eq 3 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] && cmp -s "$TMP/in.onnx" "$TMP/orig.onnx"' "full disk: clear error, input intact"
ok '[ -z "$(ls -A "$TMP" | grep "^\.oc-")" ]' "full disk: the temporary file is removed"
(ulimit -f 1024; exec "$BIN" annotate --in-place "$TMP/in.onnx") 2>/dev/null
rc=$?
ok '[ $rc -ne 0 ] && cmp -s "$TMP/in.onnx" "$TMP/orig.onnx"' "killed while writing: input intact"
cp "$TMP/out.onnx" "$TMP/prev.onnx"
(ulimit -f 1024; exec "$BIN" annotate "$TMP/in.onnx" -o "$TMP/out.onnx") 2>/dev/null
ok 'cmp -s "$TMP/out.onnx" "$TMP/prev.onnx"' "killed while writing: the old output intact"

# --in-place for real: atomically replaced, annotations present
"$BIN" annotate --in-place --batch 2 "$TMP/in.onnx" 2>/dev/null
ok '[ $? -eq 0 ] && ! cmp -s "$TMP/in.onnx" "$TMP/orig.onnx"' "--in-place writes"
ok "$PY -c \"import onnx; m=onnx.load('$TMP/in.onnx'); assert dict((p.key,p.value) for p in m.metadata_props)['onnxcost.batch']=='2'\"" "--in-place annotations"
# (a process killed mid-write cannot remove its temporary: one may remain,
# beside an intact target)

# training steps: the torch-cpu model's time, the mode in the target
"$BIN" annotate --mode training --optimizer adam --batch 4 "$SQ" -o "$TMP/tr.onnx" 2>/dev/null
"$BIN" predict --mode training --optimizer adam --batch 4 --format json "$SQ" >"$TMP/tr.json"
ok "$PY - '$TMP/tr.onnx' '$TMP/tr.json' <<'E'
import json, sys, onnx
m = onnx.load(sys.argv[1]); p = json.load(open(sys.argv[2]))
meta = {q.key: q.value for q in m.metadata_props}
assert meta['onnxcost.target'].startswith('torch-cpu ') and meta['onnxcost.target'].split('; ')[0].endswith('training step with adam'), meta
assert abs(float(meta['onnxcost.time_ms']) - p['totals']['time_ms']) < 1e-3, (meta, p['totals']['time_ms'])
E" "annotate --mode training: predict's time, the mode in onnxcost.target"
"$BIN" annotate --optimizer adam "$SQ" -o "$TMP/x.onnx" 2>/dev/null
ok '[ $? -eq 1 ] && [ ! -e "$TMP/x.onnx" ]' "annotate --optimizer without --mode training: usage error, nothing written"

echo "annotate_test: $pass passed, $fail failed"
[ $fail -eq 0 ]
