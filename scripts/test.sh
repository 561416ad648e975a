#!/bin/bash
# test.sh - build and run every test under ctest: once as a normal build
# (build/), once under AddressSanitizer + UndefinedBehaviorSanitizer
# (build-asan/), then a short libFuzzer run of both targets (load + analyze;
# predict, sweep, annotate and reload).
#   OC_SANITIZE=0 skips the sanitizer pass; OC_FUZZ_SECONDS=0 the fuzzing.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
J=$(nproc)
run_suite() { # run_suite BUILD_DIR CMAKE_ARGS...
    local dir=$1
    shift
    cmake -S "$ROOT" -B "$dir" "$@" >/dev/null
    cmake --build "$dir" -j"$J"
    (cd "$dir" && ctest --output-on-failure -j"$J")
}
run_suite "$ROOT/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo
if [ "${OC_SANITIZE:-1}" != 0 ]; then
    ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
        run_suite "$ROOT/build-asan" -DCMAKE_BUILD_TYPE=Debug -DOC_ASAN=ON
fi
if [ "${OC_FUZZ_SECONDS:-60}" != 0 ] && command -v clang >/dev/null; then
    bash "$ROOT/tests/fuzz/run.sh" "${OC_FUZZ_SECONDS:-60}" "$ROOT/build-fuzz"
    echo "fuzz: 2 targets passed, 0 failed"
fi
