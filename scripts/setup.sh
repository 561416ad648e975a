#!/bin/bash
# setup.sh [--deps-only] - install the Debian packages onnxcost needs (and
# its tests: chromium renders the HTML report; pytest, venv and setuptools
# test and install the Python module), build it, and run the main
# job on a committed sample.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PKGS=(build-essential cmake pkg-config protobuf-c-compiler libprotobuf-c-dev
      libonnx-dev libopenblas-dev zlib1g-dev libjansson-dev python3
      libonnx-testdata clang libclang-rt-14-dev python3-onnx python3-torch
      python3-torchvision chromium python3-setuptools python3-pytest python3-venv)
missing=()
for p in "${PKGS[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    SUDO=$([ "$(id -u)" -eq 0 ] && echo "" || echo sudo)
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}"
fi
# The ONNX Runtime collector: Node.js and the pinned onnxruntime-node (its
# install script downloads GPU binaries, which is refused here: skip it; the
# CPU library is inside the package).
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    SUDO=$([ "$(id -u)" -eq 0 ] && echo "" || echo sudo)
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq nodejs npm
fi
if [ ! -d "$ROOT/collector/node_modules/onnxruntime-node" ]; then
    (cd "$ROOT/collector" && npm ci --ignore-scripts --no-audit --no-fund >/dev/null)
fi
[ "${1:-}" = "--deps-only" ] && exit 0
cmake -S "$ROOT" -B "$ROOT/build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$ROOT/build" -j"$(nproc)"
echo
"$ROOT/build/onnxcost" predict --top 10 "$ROOT/samples/mobilenet_v2.onnx"
