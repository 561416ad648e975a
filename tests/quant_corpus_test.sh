#!/bin/bash
# quant_corpus_test.sh ONNXCOST SRCDIR - the quantized and reduced-precision
# corpus (issue 16, deliverables 3 and 7): tests/data/gen_quant.py's models
# (dynamic quantization, QDQ, QOperator, float16, int4 MatMulNBits)
# generated afresh, then corpus_test.sh against tests/data/quant-corpus.tsv
# (scripts/quant_manifest.py: parameters counted with python3-onnx, output
# shapes as ONNX Runtime 1.30 gave them): every shape known once the dims
# are bound, the parameter count exact, predicted without error.
set -u
BIN=$1 SRC=$2
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
/usr/bin/python3 "$SRC/tests/data/gen_quant.py" "$TMP" >/dev/null || {
    echo "FAIL: gen_quant.py"
    exit 1
}
cp "$SRC/tests/data/quant-corpus.tsv" "$TMP/expected.tsv"
bash "$SRC/tests/corpus_test.sh" "$BIN" "$SRC" "$TMP/expected.tsv"
