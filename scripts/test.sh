#!/bin/bash
# test.sh - build (into build/) and run every test under ctest.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${OC_BUILD_DIR:-$ROOT/build}
cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=${OC_BUILD_TYPE:-RelWithDebInfo} \
      ${OC_CMAKE_ARGS:-} >/dev/null
cmake --build "$BUILD" -j"$(nproc)"
cd "$BUILD" && ctest --output-on-failure -j"$(nproc)"
