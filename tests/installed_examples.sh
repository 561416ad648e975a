#!/bin/bash
# installed_examples.sh CC ONNXCOST BUILD_DIR SOURCE_DIR TMP [EXTRA_CFLAGS]
# Install the library into a fresh prefix, build examples/*.c against it with
# `pkg-config --cflags --libs onnxcost` alone, run them on samples/, and check
# what they print against the command.  Also a CMake consumer through
# find_package(onnxcost).
set -u
CC=$1 OC=$2 BUILD=$3 SRC=$4 TMP=$5 EXTRA=${6:-}
PY=/usr/bin/python3
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
rm -rf "$TMP" && mkdir -p "$TMP"
PREFIX=$TMP/prefix
export XDG_CACHE_HOME=$TMP/cache # no calibration cached: both sides choose alike
cmake --install "$BUILD" --prefix "$PREFIX" >"$TMP/install.log" 2>&1 || { cat "$TMP/install.log"; exit 1; }
PC=$(find "$PREFIX" -name onnxcost.pc | head -1)
[ -n "$PC" ] || { echo "FAIL: no onnxcost.pc under $PREFIX"; exit 1; }
LIBDIR=$(cd "$(dirname "$PC")/.." && pwd)
for f in include/onnxcost.h; do [ -f "$PREFIX/$f" ] || fail "$f not installed"; done
for f in libonnxcost.a libonnxcost.so libonnxcost.so.0 pkgconfig/onnxcost.pc \
         cmake/onnxcost/onnxcostConfig.cmake cmake/onnxcost/onnxcostConfigVersion.cmake; do
  [ -e "$LIBDIR/$f" ] || fail "$f not installed in $LIBDIR"
done
[ -L "$LIBDIR/libonnxcost.so.0" ] || fail "libonnxcost.so.0 is not the soname link"
soname=$(objdump -p "$LIBDIR/libonnxcost.so" | awk '/SONAME/ {print $2}')
[ "$soname" = libonnxcost.so.0 ] || fail "soname '$soname', not libonnxcost.so.0"
# Nothing but the public interface is exported.
leaked=$(nm -D --defined-only "$LIBDIR/libonnxcost.so" | awk '{print $3}' | grep -v '^onnxcost_' | head -3)
[ -z "$leaked" ] || fail "the shared library exports $leaked"

export PKG_CONFIG_PATH=$LIBDIR/pkgconfig
FLAGS=$(pkg-config --cflags --libs onnxcost) || { fail "pkg-config onnxcost"; exit 1; }
for f in $FLAGS; do
  case "$f" in -I*|-L*) case "$(cd "${f#-?}" && pwd)" in "$PREFIX"/*) ;;
    *) fail "pkg-config flag $f is outside the prefix" ;; esac ;; esac
done
for ex in predict sweep top_nodes; do
  # shellcheck disable=SC2086
  $CC -std=c11 -Wall -Wextra -Werror $EXTRA "$SRC/examples/$ex.c" $FLAGS -o "$TMP/$ex" \
    || fail "building examples/$ex.c with: $FLAGS"
done
export LD_LIBRARY_PATH=$LIBDIR
ldd "$TMP/predict" | grep -q "=> $LIBDIR/libonnxcost.so.0" \
  || fail "predict does not load the installed libonnxcost.so.0: $(ldd "$TMP/predict" | grep onnxcost)"

S=$SRC/samples
# predict: the command's time, batch and kernels, to the printed digits
for m in squeezenet1_1 mobilenet_v2; do
  "$TMP/predict" "$S/$m.onnx" 4 >"$TMP/p.out" 2>"$TMP/p.err" || fail "predict $m: $(cat "$TMP/p.err")"
  "$OC" predict -f json -b 4 "$S/$m.onnx" >"$TMP/p.json" 2>/dev/null || fail "onnxcost predict $m"
  want=$($PY -c 'import json,sys; t=json.load(open(sys.argv[1]))["totals"]
print("batch %d: %.3f ms (%.3f to %.3f ms), %d kernels, %.1f samples/s" % (t["batch"], t["time_ms"], t["time_ms_low"], t["time_ms_high"], t["kernels"], t["throughput_per_s"]))
print("memory: %d bytes" % t["memory_bytes"])' "$TMP/p.json")
  got=$(grep -E '^(batch|memory)' "$TMP/p.out")
  [ "$got" = "$want" ] || fail "predict $m: got '$got', the command says '$want'"
  grep -q "^target: ort-cpu (onnxruntime" "$TMP/p.out" || fail "predict $m: no target line"
done
# a calibration file as the target: the command's calibrated time
CAL=$(ls "$SRC"/data/machines/*/ort-cpu-inference-calibration.json | head -1)
"$TMP/predict" "$S/squeezenet1_1.onnx" 1 "$CAL" >"$TMP/c.out" 2>&1 || fail "predict --target calibration"
"$OC" predict -f json --target "$CAL" "$S/squeezenet1_1.onnx" >"$TMP/c.json" 2>/dev/null
want=$($PY -c 'import json,sys; print("%.3f" % json.load(open(sys.argv[1]))["totals"]["time_ms"])' "$TMP/c.json")
grep -q "^batch 1: $want ms" "$TMP/c.out" || fail "calibrated predict: $(cat "$TMP/c.out") vs $want"
grep -q "calibrated on" "$TMP/c.out" || fail "calibrated predict: label $(grep target: "$TMP/c.out")"
# errors: one line, non-zero
"$TMP/predict" "$TMP/missing.onnx" >"$TMP/e.out" 2>"$TMP/e.err"; rc=$?
[ $rc = 1 ] && [ "$(wc -l <"$TMP/e.err")" = 1 ] && grep -q "missing.onnx" "$TMP/e.err" \
  || fail "predict of a missing file: rc $rc, '$(cat "$TMP/e.err")'"
"$TMP/predict" "$S/squeezenet1_1.onnx" 1 torch-cpu >"$TMP/e.out" 2>"$TMP/e.err"; rc=$?
[ $rc = 1 ] && grep -q "predicts training steps" "$TMP/e.err" \
  || fail "predict with a training target: rc $rc, '$(cat "$TMP/e.err")'"

# sweep: the command's steps and choices under a 60 MB limit
"$TMP/sweep" "$S/mobilenet_v2.onnx" 60000000 >"$TMP/s.out" 2>"$TMP/s.err" || fail "sweep: $(cat "$TMP/s.err")"
"$OC" sweep -f json -b 1,2,4,8,16,32,64 -M 60000000 "$S/mobilenet_v2.onnx" >"$TMP/s.json" 2>/dev/null
want=$($PY -c 'import json,sys; j=json.load(open(sys.argv[1]))
for s in j["sweep"]: print("%6d %10.3f %14.1f %14d%s" % (s["batch"], s["time_ms"], s["throughput_per_s"], s["memory_bytes"], "" if s["fits"] else " over the limit"))
print("largest that fits: %d; best throughput: %d" % (j["largest_fitting_batch"], j["best_throughput_batch"]))' "$TMP/s.json")
got=$(tail -n +2 "$TMP/s.out")
[ "$got" = "$want" ] || fail "sweep: got
$got
the command says
$want"
grep -q "over the limit" "$TMP/s.out" || fail "sweep: no step over a 60 MB limit"

# top_nodes: the command's node costs, with a dim bound by name
"$TMP/top_nodes" "$S/tiny_encoder.onnx" 3 L=64 >"$TMP/t.out" 2>"$TMP/t.err" || fail "top_nodes: $(cat "$TMP/t.err")"
"$OC" analyze -f json --dim L=64 "$S/tiny_encoder.onnx" >"$TMP/t.json" 2>/dev/null
want=$($PY -c 'import json,sys; j=json.load(open(sys.argv[1])); t=j["totals"]
print("%d nodes, %d MACs, %d parameters" % (t["nodes"], t["macs"], t["params"]))
for n in sorted(j["nodes"], key=lambda n: -n["macs"])[:3]: print(n["macs"])' "$TMP/t.json")
got=$(head -1 "$TMP/t.out" | sed 's/^[^:]*: //'; tail -n +2 "$TMP/t.out" | awk '{print $NF}')
[ "$got" = "$want" ] || fail "top_nodes: got '$got', the command says '$want'"
grep -q "^unbound" "$TMP/t.out" && fail "top_nodes: L=64 left a dim unbound"
"$TMP/top_nodes" "$S/tiny_encoder.onnx" 3 NOPE=3 >/dev/null 2>"$TMP/t.err" && fail "top_nodes: NOPE=3 accepted"
grep -q "NOPE" "$TMP/t.err" || fail "top_nodes NOPE=3: '$(cat "$TMP/t.err")'"

# A CMake project finds it with find_package(onnxcost).
mkdir -p "$TMP/consumer"
cat >"$TMP/consumer/CMakeLists.txt" <<CM
cmake_minimum_required(VERSION 3.20)
project(consumer C)
find_package(onnxcost 0.1 REQUIRED)
add_executable(predict "$SRC/examples/predict.c")
target_link_libraries(predict PRIVATE onnxcost::onnxcost)
add_executable(predict_static "$SRC/examples/predict.c")
target_link_libraries(predict_static PRIVATE onnxcost::onnxcost_static)
CM
if cmake -S "$TMP/consumer" -B "$TMP/consumer/build" -DCMAKE_PREFIX_PATH="$PREFIX" \
     -DCMAKE_C_COMPILER="$CC" -DCMAKE_C_FLAGS="$EXTRA" >"$TMP/consumer.log" 2>&1 &&
   cmake --build "$TMP/consumer/build" >>"$TMP/consumer.log" 2>&1; then
  for b in predict predict_static; do
    "$TMP/consumer/build/$b" "$S/squeezenet1_1.onnx" >"$TMP/k.out" 2>/dev/null || fail "cmake consumer $b"
    grep -q "^batch 1: " "$TMP/k.out" || fail "cmake consumer $b: $(cat "$TMP/k.out")"
  done
  ldd "$TMP/consumer/build/predict_static" | grep -q onnxcost && fail "predict_static loads libonnxcost.so"
else
  tail -20 "$TMP/consumer.log"; fail "a CMake project with find_package(onnxcost)"
fi

[ $fails = 0 ] && echo "installed_examples: all passed"
exit $((fails > 0))
