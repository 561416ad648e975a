#!/bin/bash
# report_test.sh ONNXCOST SRCDIR - onnxcost report end to end: a well-formed,
# self-contained page with its charts and tables and the same numbers as
# predict and sweep; node names from a hostile model escaped; never written
# over its input; one-line errors and the usual exit codes.
set -u
BIN=$1
SRC=$(cd "$2" && pwd)
SAMPLES=$SRC/samples
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
PY=/usr/bin/python3
pass=0 fail=0
ok() { if eval "$1"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $2"; fi; }
one_line() { [ "$(wc -l <"$TMP/err")" -eq 1 ] && grep -q '^onnxcost: ' "$TMP/err"; }

# check.py REPORT.html [NODES TOP STEPS TIME_MS]: parses as XML and as HTML,
# 4+ inline SVG charts, nothing fetched from anywhere, the expected rows.
cat >"$TMP/check.py" <<'E'
import re, sys
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
path = sys.argv[1]
text = open(path, encoding="utf-8").read()
root = ET.fromstring(text)                      # well-formed XML (XHTML-style)
class P(HTMLParser):
    tags = []
    def handle_starttag(self, tag, attrs): self.tags.append((tag, dict(attrs)))
p = P(); p.feed(text); p.close()
NS = "{http://www.w3.org/2000/svg}"
svgs = root.findall(".//" + NS + "svg")
assert len(svgs) >= 4, "%d svg charts" % len(svgs)
assert sum(1 for t, _ in p.tags if t == "svg") == len(svgs)
# self-contained: the SVG namespace is the only URL; no scripts, links,
# images, frames, imports or url() references
urls = re.findall(r"https?://[^\s\"'<>)]*", text)
assert set(urls) <= {"http://www.w3.org/2000/svg"}, set(urls)
for t, a in p.tags:
    assert t not in ("script", "link", "img", "iframe", "object", "embed", "image"), t
    assert not any(k in ("src", "href", "xlink:href") for k in a), (t, a)
assert "@import" not in text and "url(" not in text
if len(sys.argv) > 2:
    nodes, top, steps, time_ms = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5])
    tables = root.findall(".//table")
    assert len(tables) == 2, len(tables)
    assert len(tables[0].findall("tr")) == 1 + steps, "sweep rows"
    assert len(tables[1].findall("tr")) == 1 + nodes, "node rows"
    bars = [r for r in svgs[0].iter(NS + "rect") if r.get("class") == "bar"]
    assert len(bars) == top, "top-N bars: %d, expected %d" % (len(bars), top)
    widths = [float(r.get("width")) for r in bars]
    assert widths == sorted(widths, reverse=True) and widths[0] > 0, "bars by time"
    # the header's time is predict's
    want = "%.2f ms" % time_ms if time_ms >= 1 else "%.1f us" % (time_ms * 1e3)
    card = root.find(".//div[@class='card']/b").text
    assert card == want, (card, want)
E

# the samples
M=$SAMPLES/mobilenet_v2.onnx
"$BIN" report "$M" -o "$TMP/mb.html" 2>"$TMP/err"
ok '[ $? -eq 0 ] && [ -s "$TMP/mb.html" ] && grep -q "^onnxcost: wrote " "$TMP/err"' "report on mobilenet_v2"
"$BIN" predict --format json "$M" >"$TMP/p.json"
T=$($PY -c "import json; print(json.load(open('$TMP/p.json'))['totals']['time_ms'])")
N=$($PY -c "import json; print(len(json.load(open('$TMP/p.json'))['nodes']))")
$PY "$TMP/check.py" "$TMP/mb.html" "$N" 20 7 "$T"
ok '[ $? -eq 0 ]' "mobilenet_v2: well-formed, self-contained, 20 bars, 7 sweep rows, all nodes, predict's time"
"$BIN" report --top 5 --sweep 1,4,16 --memory-limit 40MB --batch 2 "$SAMPLES/squeezenet1_1.onnx" \
    -o "$TMP/sq.html" 2>/dev/null
ok '[ $? -eq 0 ]' "report with --top --sweep --memory-limit --batch"
"$BIN" predict --format json --batch 2 "$SAMPLES/squeezenet1_1.onnx" >"$TMP/p2.json"
T=$($PY -c "import json; print(json.load(open('$TMP/p2.json'))['totals']['time_ms'])")
N=$($PY -c "import json; print(len(json.load(open('$TMP/p2.json'))['nodes']))")
$PY "$TMP/check.py" "$TMP/sq.html" "$N" 5 3 "$T"
ok '[ $? -eq 0 ]' "squeezenet1_1: 5 bars, 3 sweep rows, predict's time at batch 2"
"$BIN" sweep --format json --batch 1,4,16 --memory-limit 40MB "$SAMPLES/squeezenet1_1.onnx" >"$TMP/sw.json"
ok "$PY - '$TMP/sq.html' '$TMP/sw.json' <<'E'
import json, sys
import xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot(); sw = json.load(open(sys.argv[2]))
rows = root.findall('.//table')[0].findall('tr')[1:]
for tr, s in zip(rows, sw['sweep']):
    cells = [td.text or '' for td in tr.findall('td')]
    assert int(cells[0]) == s['batch'] and abs(float(cells[3]) - s['throughput_per_s']) < 0.051, (cells, s)
    assert ('over the limit' in cells[5]) == (not s['fits']), cells
    assert ('largest that fits' in cells[5]) == (s['batch'] == sw['largest_fitting_batch']), cells
    assert ('best throughput' in cells[5]) == (s['batch'] == sw['best_throughput_batch']), cells
assert 'limit 40.0 MB' in ET.tostring(root, encoding='unicode')
E" "sweep rows and marks are sweep's"
"$BIN" report --input input_ids=1x16 "$SAMPLES/tiny_encoder.onnx" -o "$TMP/te.html" 2>/dev/null
ok '[ $? -eq 0 ] && $PY "$TMP/check.py" "$TMP/te.html"' "transformer with --input"
"$BIN" report "$SAMPLES/tiny_encoder.onnx" -o "$TMP/sym.html" 2>/dev/null
ok '[ $? -eq 0 ] && grep -q "symbolic dims costed as 1: <code>L</code>" "$TMP/sym.html"' "an unbound symbol is costed as 1 and said so"
ok '! grep -q "symbolic dims costed" "$TMP/te.html"' "... and not when every dim is bound"

# a hostile model: markup, quotes, a control character and long non-ASCII
# names in nodes, graph and producer
cat >"$TMP/gen.py" <<'E'
import sys
import onnx
from onnx import TensorProto, helper
LONG = "\u00fc\u6f22" * 60 + "_end<&>"
w = helper.make_tensor("W", TensorProto.FLOAT, [8, 8], [0.5] * 64)
g = helper.make_graph(
    [helper.make_node("MatMul", ["X", "W"], ["A"], name='mm<script>alert(1)</script>&"\''),
     helper.make_node("Relu", ["A"], ["B"], name="relu</text><blink>&amp;"),
     helper.make_node("Sigmoid", ["B"], ["C"], name="ctl\x01\x1bname"),
     helper.make_node("Tanh", ["C"], ["Y"], name=LONG)],
    'graph<i>"g"</i>', [helper.make_tensor_value_info("X", TensorProto.FLOAT, ["N<x>", 8])],
    [helper.make_tensor_value_info("Y", TensorProto.FLOAT, ["N<x>", 8])], [w])
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], producer_name="<evil>&co")
open(sys.argv[1], "wb").write(m.SerializeToString())
E
$PY "$TMP/gen.py" "$TMP/evil.onnx"
"$BIN" report --batch 3 "$TMP/evil.onnx" -o "$TMP/evil.html" 2>/dev/null
ok '[ $? -eq 0 ]' "report on the hostile model"
ok "$PY '$TMP/check.py' '$TMP/evil.html' && $PY - '$TMP/evil.html' <<'E'
import sys
import xml.etree.ElementTree as ET
raw = open(sys.argv[1], 'rb').read()
text = raw.decode('utf-8')                      # valid UTF-8 throughout
for bad in ('<script', '<blink', '<i>', '<evil>', '</text><blink', '\x01', '\x1b', 'N<x>'):
    assert bad not in text, bad
assert '&lt;script&gt;alert(1)&lt;/script&gt;&amp;&quot;&#39;' in text
assert '&amp;amp;' in text                      # '&amp;' in a name stays literal text
root = ET.fromstring(text)
cells = [td.text for td in root.iter('td') if td.text]
assert 'mm<script>alert(1)</script>&\"\\'' in cells, 'name round-trips through the parser'
assert 'relu</text><blink>&amp;' in cells
assert 'ctl\ufffd\ufffdname' in cells, 'control characters replaced'
long = '\u00fc\u6f22' * 60 + '_end<&>'
assert long in cells, 'full name in the table'
svg_text = [t.text or '' for t in root.iter('{http://www.w3.org/2000/svg}text')]
tails = [t for t in svg_text if t.startswith('\u2026')]
assert tails and all(len(t) == 60 and long.endswith(t[1:]) for t in tails), tails
assert root.find('.//title').text == 'onnxcost report: evil.onnx'
assert 'graph<i>\"g\"</i>' in ''.join(root.find('.//header').itertext())
E" "names escaped: no markup injected, text round-trips, U+FFFD for control chars, tails cut on characters"

# never over the input
cp "$M" "$TMP/in.onnx"
"$BIN" report "$TMP/in.onnx" -o "$TMP/in.onnx" 2>"$TMP/err"
ok '[ $? -eq 1 ] && one_line && cmp -s "$TMP/in.onnx" "$M"' "refuses -o MODEL, model unchanged"
ln -s "$TMP/in.onnx" "$TMP/alias.html"
"$BIN" report "$TMP/in.onnx" -o "$TMP/alias.html" 2>"$TMP/err"
ok '[ $? -eq 1 ] && cmp -s "$TMP/in.onnx" "$M"' "refuses a link to the model"
ln "$TMP/in.onnx" "$TMP/hard.html"
"$BIN" report "$TMP/in.onnx" -o "$TMP/hard.html" 2>"$TMP/err"
ok '[ $? -eq 1 ] && cmp -s "$TMP/in.onnx" "$M"' "refuses a hard link to the model"

# atomic: a write that fails (the file-size limit: EFBIG) leaves the old report
cp "$TMP/mb.html" "$TMP/prev.html"
(trap '' XFSZ; ulimit -f 16; "$BIN" report "$M" -o "$TMP/mb.html") 2>"$TMP/err"
ok '[ $? -eq 3 ] && one_line && cmp -s "$TMP/mb.html" "$TMP/prev.html"' "failed write: exit 3, old report intact"
ok '[ -z "$(ls "$TMP" | grep "\.tmp\.")" ]' "failed write: no temporary left"

# errors and usage
"$BIN" report "$TMP/none.onnx" -o "$TMP/x.html" 2>"$TMP/err"
ok '[ $? -eq 2 ] && one_line && grep -q none.onnx "$TMP/err" && [ ! -e "$TMP/x.html" ]' "missing model: one line naming it, exit 2"
"$BIN" report "$M" -o "$TMP/no/such/dir/r.html" 2>"$TMP/err"
ok '[ $? -eq 3 ] && one_line' "unwritable output: one line, exit 3"
"$BIN" report "$M" >/dev/null 2>"$TMP/err"
ok '[ $? -eq 1 ] && one_line' "-o is required"
for bad in "--top 0" "--top x" "--sweep 1,x" "--sweep ''" "--memory-limit lots" "--batch 0" \
           "--threads 0" "--bogus" "--input nodims"; do
    eval "\"\$BIN\" report $bad \"\$M\" -o \"\$TMP/u.html\"" >/dev/null 2>&1
    ok '[ $? -eq 1 ] && [ ! -e "$TMP/u.html" ]' "usage error: $bad"
done
"$BIN" report "$M" "$M" -o "$TMP/u.html" 2>/dev/null
ok '[ $? -eq 1 ]' "two models"
"$BIN" report --help >"$TMP/out"
ok '[ $? -eq 0 ] && grep -q "^usage: onnxcost report" "$TMP/out"' "--help"
"$BIN" --help | grep -q "^  report "
ok '[ $? -eq 0 ]' "listed in onnxcost --help"

# training steps: the header and the sweep say so; the time is predict's
"$BIN" report --mode training --optimizer adam --sweep 1,4 "$SAMPLES/squeezenet1_1.onnx" -o "$TMP/tr.html" 2>/dev/null
"$BIN" predict --mode training --optimizer adam --format json "$SAMPLES/squeezenet1_1.onnx" >"$TMP/tr.json"
ok 'grep -q "training step (adam) at batch <b>1</b>" "$TMP/tr.html" && grep -q "Training memory" "$TMP/tr.html" && grep -q "$(/usr/bin/python3 -c "import json; print(\"%.2f ms\" % json.load(open(\"$TMP/tr.json\"))[\"totals\"][\"time_ms\"])")" "$TMP/tr.html"' "report --mode training: header, memory panel, predict's time"
"$BIN" report --mode train "$SAMPLES/squeezenet1_1.onnx" -o "$TMP/bad.html" >/dev/null 2>&1
ok '[ $? -eq 1 ] && [ ! -e "$TMP/bad.html" ]' "report --mode train: usage error, nothing written"

echo "report_test: $pass passed, $fail failed"
[ $fail -eq 0 ]
