#!/bin/sh
# Installs the Debian 12 packages Pivot builds with, if any is missing.
# Run as root (or with sudo available). Installs nothing when all are there,
# so it is cheap to run before every build.
set -eu

# clang and libclang-rt-14-dev: libFuzzer for the fuzz tests (docs/fuzzing.md);
# without them those tests only replay their seeds.
PACKAGES="g++ cmake make pkg-config \
  libeigen3-dev libsuitesparse-dev libboost-dev libfmt-dev libspdlog-dev \
  nlohmann-json3-dev libgtest-dev libgmock-dev libbenchmark-dev \
  clang libclang-rt-14-dev"

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
