#!/usr/bin/env bash
# Installs what gmem needs from Debian 12's packages (only what is missing),
# then configures and builds it in build/. Safe to run again. (Chromium
# renders the HTML report in the tests.)
# --fuzz: also libFuzzer's runtime, for fuzz/run.sh (clang-19's own package
# does not ship it).
# --runtime: only what an installed gmem-analyze needs to run (Clang's and
# LLVM's libraries, Clang's CUDA headers, a host compiler for recorded
# builds, nvdisasm), and no build: for a CI job that restores an installed
# prefix from its cache (docs/gmem-gate-workflow.yml).
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(cmake g++ make libclang-19-dev llvm-19-dev clang-19 libclang-cpp19-dev
          nlohmann-json3-dev libgtest-dev python3 python3-jsonschema
          python3-yaml chromium fonts-dejavu-core)
case "${1:-}" in
--fuzz) packages+=(libclang-rt-19-dev) ;;
--runtime) packages=(g++ libclang-cpp19 libllvm19 libclang-common-19-dev
                     python3) ;;
esac
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

# nvdisasm, to count the instructions nvcc emits (gmem-analyze --compiler
# nvcc): trimmed toolkits lack it, so take PyPI's nvidia-cuda-nvdisasm for
# this user. Debian's python3 refuses user installs without
# --break-system-packages (PEP 668); pyenv's accepts them. Not fatal: without
# it gmem says that compiler merging was not checked.
if ! command -v nvdisasm >/dev/null &&
   ! python3 -c "import nvidia, glob, sys; sys.exit(not any(glob.glob(p + '/*/bin/nvdisasm') for p in nvidia.__path__))" 2>/dev/null; then
  if ! python3 -m pip --version >/dev/null 2>&1; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq \
      --no-install-recommends python3-pip >/dev/null || true
  fi
  echo "gmem: installing nvdisasm (PyPI nvidia-cuda-nvdisasm)"
  python3 -m pip install -q --user nvidia-cuda-nvdisasm 2>/dev/null ||
    python3 -m pip install -q --user --break-system-packages \
      nvidia-cuda-nvdisasm ||
    echo "gmem: warning: nvdisasm not installed; compiler merging will not be checked" >&2
fi

[ "${1:-}" = --runtime ] && exit 0
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$(nproc)"
