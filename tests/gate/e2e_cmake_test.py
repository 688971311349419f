#!/usr/bin/env python3
"""The gate in a CUDA project configured with CMake, as a user adds it.

Usage: e2e_cmake_test.py GMEM_BUILD_DIR SOURCE_DIR

Copies tests/data/gate_project (find_package(gmem), gmem_add_gate) to a
temporary folder, configures it with CMake's CUDA language (nvcc from
$CUDACXX, PATH or /usr/local/cuda; exit 77, skipped, when there is none),
records the baseline through the generated update target, then:
  1. unchanged: the CTest gate passes;
  2. the thread-index roles swapped (c from threadIdx.y, r from threadIdx.x):
     the gate fails with the regression of the load at line 8;
  3. the original roles with a 8x32 block: the gate passes and reports the
     store's improvement.
Figures (sm_90 rules, 4-byte floats, n = 1024): a 16x16 block's warp is two
rows of 16 threads. Load in[r*n+c]: two 64-byte runs, 4 sectors. Store
out[c*n+r]: 16 columns, the two rows share a sector, 16 sectors. Swapped,
the load takes 16 and the store 4. With 8x32, a warp is four rows of 8: the
load 4 x 32 bytes = 4 sectors, the store 8 columns x 4 rows = 8 sectors.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

from gate_project import swap_thread_roles

build, src = sys.argv[1], sys.argv[2]
nvcc = os.environ.get("CUDACXX") or shutil.which("nvcc")
if not nvcc and os.path.exists("/usr/local/cuda/bin/nvcc"):
    nvcc = "/usr/local/cuda/bin/nvcc"
if not nvcc:
    print("SKIPPED: no CUDA toolkit (nvcc) for CMake's CUDA language")
    sys.exit(77)


def run(cmd, cwd, ok=(0,)):
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    out = p.stdout + p.stderr
    if p.returncode not in ok:
        sys.exit("FAILED (exit %d): %s\n%s" % (p.returncode, " ".join(cmd), out))
    return p.returncode, out


work = tempfile.mkdtemp(prefix="gmem_gate_e2e_")
proj = os.path.join(work, "project")
shutil.copytree(os.path.join(src, "tests", "data", "gate_project"), proj)
bdir = os.path.join(proj, "build")
run(["cmake", "-S", proj, "-B", bdir, "-Dgmem_DIR=" + build,
     "-DCMAKE_CUDA_COMPILER=" + nvcc], work)
assert os.path.exists(os.path.join(bdir, "compile_commands.json"))
run(["cmake", "--build", bdir, "--target", "gmem_gate_transpose_update_baseline"],
    work)
assert os.path.exists(os.path.join(proj, "gmem-baseline.json"))

ctest = ["ctest", "--test-dir", bdir, "-V", "-R", "gmem_gate_transpose"]
code, out = run(ctest, work)
print("unchanged: exit", code)

source = os.path.join(proj, "transpose.cu")
original = swap_thread_roles(source)
code, out = run(ctest, work, ok=(8,))  # CTest's exit code for a failed test.
regression = re.search(r"transpose\.cu:8:22: error: global load in\[r \* n \+ c\]"
                       r" in transposeNaive got worse than the baseline: "
                       r"[^\n]*per_request 4 -> 16 \(\+300%\)[^\n]*"
                       r"\[gmem-baseline-regression\]", out)
assert regression, out
print("swapped roles: CTest failed with", regression.group(0))

open(source, "w").write(original.replace("dim3 block(16, 16)", "dim3 block(8, 32)"))
code, out = run(ctest, work)
improvement = re.search(r"transpose\.cu:8:5: remark: global store out\[c \* n \+ r\]"
                        r" in transposeNaive improved on the baseline: "
                        r"[^\n]*per_request 16 -> 8 \(-50%\)[^\n]*"
                        r"\[gmem-baseline-improvement\]", out)
assert improvement, out
assert os.path.exists(os.path.join(bdir, "gmem.sarif"))
print("8x32 block: CTest passed with", improvement.group(0))
shutil.rmtree(work)
