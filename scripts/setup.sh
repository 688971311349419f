#!/usr/bin/env bash
# Installs what gmem needs from Debian 12's packages (only what is missing),
# then configures and builds it in build/. Safe to run again.
# --fuzz: also libFuzzer's runtime, for fuzz/run.sh (clang-19's own package
# does not ship it).
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(cmake g++ make libclang-19-dev llvm-19-dev clang-19 libclang-cpp19-dev
          nlohmann-json3-dev libgtest-dev)
if [ "${1:-}" = --fuzz ]; then
  packages+=(libclang-rt-19-dev)
fi
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "gmem: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq \
    --no-install-recommends "${missing[@]}" >/dev/null
fi

cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$(nproc)"
