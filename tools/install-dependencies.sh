#!/bin/sh
# Installs the Debian 12 packages Pivot builds with, if any is missing.
# Run as root (or with sudo available). Installs nothing when all are there,
# so it is cheap to run before every build.
set -eu

# clang and libclang-rt-14-dev: libFuzzer for the fuzz tests (docs/fuzzing.md);
# without them those tests only replay their seeds. The Python module
# (docs/python.md): python3-dev, pybind11-dev, and NumPy, pytest and
# matplotlib for its arrays, tests and example. The viewer (docs/viewer.md):
# chromium for its tests; node and npm below.
PACKAGES="g++ cmake make pkg-config \
  libeigen3-dev libsuitesparse-dev libboost-dev libfmt-dev libspdlog-dev \
  nlohmann-json3-dev libgtest-dev libgmock-dev libbenchmark-dev \
  clang libclang-rt-14-dev \
  python3-dev pybind11-dev python3-numpy python3-pytest python3-matplotlib \
  chromium"
# Node.js and npm build the viewer page (three.js, uPlot, esbuild from the
# npm registry). A machine that has them from elsewhere (NodeSource's
# nodejs ships its own npm, which Debian's npm package would conflict
# with) keeps them; otherwise Debian's.
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  PACKAGES="$PACKAGES nodejs npm"
fi

missing=""
for p in $PACKAGES; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing="$missing $p"
  fi
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
echo "pivot: installing missing packages:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing
