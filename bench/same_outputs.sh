#!/bin/bash
# same_outputs.sh BEFORE AFTER - run two onnxcost binaries over the target
# choices (default, threads, a calibration file, one with base.path,
# --timing-model files,
# shipped NAME@MACHINE, another machine, the cached calibration: found,
# of another machine, corrupt; a calibration of another base model; the
# refusals) on samples/, predict and sweep, table and JSON, and print how
# many outputs (stdout, stderr, exit status) are byte-identical.  A JSON
# document that differs only by the one-JSON-shape change of issue 17
# (model an object, unbound_dims a top-level list) is counted apart.
# Written to check that moving target selection into the library
# (predictor/target.c) changed nothing.
set -u
B1=$1 B2=$2
ROOT=$(cd "$(dirname "$0")/.." && pwd)
S=$ROOT/samples D=$ROOT/data
CAL=$D/machines/cpu-AuthenticAMD-f26-m2/ort-cpu-inference-calibration.json
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
/usr/bin/python3 - "$CAL" "$TMP" "$D/ort-cpu.tmodel" <<'E'
import json, sys
cal, tmp, tm = sys.argv[1:4]
c = json.load(open(cal)); c['base']['path'] = tm  # a calibration of a timing-model file
json.dump(c, open(f'{tmp}/cal-base.json', 'w'), indent=1)
c['base']['created'] = '2020-01-01T00:00:00Z'
json.dump(c, open(f'{tmp}/cal-oldbase.json', 'w'), indent=1)
E
matrix() { # matrix BIN OUT
    local B=$1 O=$2 n=0
    mkdir -p "$O"
    run() { n=$((n + 1)); "$B" "$@" >"$O/$n.out" 2>"$O/$n.err"; echo "$? $*" >"$O/$n.rc"; }
    export XDG_CACHE_HOME=$TMP/cache-empty
    for m in mobilenet_v2 squeezenet1_1 tiny_encoder; do
        for f in table json; do
            run predict -f $f "$S/$m.onnx"
            run predict -f $f -T 2 "$S/$m.onnx"
            run predict -f $f --target "$CAL" "$S/$m.onnx"
            run predict -f $f --target "$D/ort-cpu.tmodel" "$S/$m.onnx"
            run predict -f $f --timing-model "$D/torch-cpu.tmodel" --mode training "$S/$m.onnx"
            run predict -f $f --mode training --optimizer adam -b 4 "$S/$m.onnx"
            run predict -f $f --target ort-cpu@cpu-AuthenticAMD-f26-m2 -T 2 "$S/$m.onnx"
            run predict -f $f --by kernel --target ort-cpu -T 3 "$S/$m.onnx"
            ONNXCOST_MACHINE=other-box run predict -f $f "$S/$m.onnx"
            ONNXCOST_MACHINE=other-box run predict -f $f --mode training "$S/$m.onnx"
            run sweep -f $f -M 100MB "$S/$m.onnx"
            run sweep -f $f --target "$CAL" -b 1,3 "$S/$m.onnx"
        done
    done
    local sq=$S/squeezenet1_1.onnx
    run predict --target torch-cpu "$sq"
    run predict --target nope@x "$sq"
    run predict --target "$CAL" --mode training "$sq"
    run predict --target /nonexistent.tmodel "$sq"
    run predict --target "$D/torch-cpu.tmodel" "$sq"
    run predict --target ort-cpu --target "$CAL" -f json "$sq"
    run predict --target ort-cpu --target "$CAL" "$sq"
    local c=$TMP/cache/onnxcost
    mkdir -p "$c" && rm -f "$c"/*
    cp "$CAL" "$c/cpu-AuthenticAMD-f26-m2-ort-cpu-onnxruntime-node_1.30.0-inference.json"
    XDG_CACHE_HOME=$TMP/cache run predict -f json "$sq"
    XDG_CACHE_HOME=$TMP/cache run predict "$sq"
    cp "$CAL" "$c/other-box-ort-cpu-onnxruntime-node_1.30.0-inference.json"
    XDG_CACHE_HOME=$TMP/cache ONNXCOST_MACHINE=other-box run predict "$sq"
    echo garbage >"$c/cpu-AuthenticAMD-f26-m2-ort-cpu-onnxruntime-node_1.30.0-inference.json"
    XDG_CACHE_HOME=$TMP/cache run predict "$sq"
    run predict --target "$TMP/cal-oldbase.json" "$sq"
    run predict -f json --target "$TMP/cal-base.json" "$sq"
    run predict --target "$TMP/cal-base.json" -T 2 "$sq"
}
matrix "$B1" "$TMP/a"
matrix "$B2" "$TMP/b"
/usr/bin/python3 - "$TMP/a" "$TMP/b" <<'E'
import json, os, sys
a, b = sys.argv[1:3]
same = reshaped = other = 0
for f in sorted(os.listdir(a)):
    x, y = (open(os.path.join(d, f), 'rb').read() for d in (a, b))
    if x == y:
        same += 1
        continue
    try:
        jx, jy = json.loads(x), json.loads(y)
    except ValueError:
        other += 1
        print('differs:', f)
        continue
    for j in (jx, jy):  # the old shape into the new
        if isinstance(j.get('model'), dict):
            j['model'].pop('assumed_symbols', None)
            if 'unbound_dims' in j.get('totals', {}):
                j['unbound_dims'] = j['totals'].pop('unbound_dims')
        elif isinstance(j.get('model'), str):
            j['model'] = {'file': j['model']}
        if isinstance(j.get('model'), dict) and set(j['model']) > {'file'}:
            j['model'] = {'file': j['model']['file']}
    if jx == jy:
        reshaped += 1
    else:
        other += 1
        print('differs:', f)
print(f'{same} outputs identical, {reshaped} JSON documents differing only in shape, '
      f'{other} different')
E
