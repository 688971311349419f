#!/usr/bin/env python3
"""Where ptxas and nvlink place a kernel's shared arrays (no GPU needed).

For each case, writes a kernel that declares the arrays in the order
given, stores each one's shared address to global memory, builds it with
`nvcc -arch=sm_90` (and again with -rdc=true, where nvlink lays the arrays
out), disassembles the cubin with nvdisasm and follows the SASS's constant
arithmetic to each stored address. Prints, per build, the arrays in the
order of their offsets (from the start of the user's shared memory, after
the 1 KB the system reserves).

What it showed (session 48, CUDA 13.0): ptxas keeps the declaration
order; nvlink puts arrays of larger alignment first and, among one
alignment, smaller arrays first, and orders equal arrays by a permutation
that changes with their count and not with their names.

Usage: scripts/probe_shared_layout.py   (nvcc on PATH; nvdisasm on PATH or
from PyPI's nvidia-cuda-nvdisasm, as scripts/setup.sh installs it)
"""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile


def nvdisasm():
    found = shutil.which("nvdisasm")
    if found:
        return found
    try:
        import nvidia
        for p in nvidia.__path__:
            for f in glob.glob(p + "/*/bin/nvdisasm"):
                return f
    except ImportError:
        pass
    sys.exit("probe_shared_layout: no nvdisasm (see scripts/setup.sh)")


def source(arrays):
    lines = ["__global__ void k(unsigned *out) {"]
    lines += ["  __shared__ %s %s[%d];" % (t, n, c) for n, t, c in arrays]
    for i, (n, t, c) in enumerate(arrays):
        lines.append("  %s[threadIdx.x %% %d] = (%s)%d;" % (n, c, t, i + 1))
    lines.append("  __syncthreads();")
    for i, (n, _, _) in enumerate(arrays):
        lines.append("  out[%d] = (unsigned)__cvta_generic_to_shared(%s);"
                     % (i, n))
    lines.append("}\nint main() {}")
    return "\n".join(lines)


def stored_constants(sass):
    """The values of out[i] where straight-line constant arithmetic
    (MOV, IADD3, VIADD, IMAD.IADD, LEA by the CTA id) makes them."""
    regs, out = {"RZ": 0, "URZ": 0}, {}

    def val(x):
        x = x.strip().replace(".reuse", "")
        if re.fullmatch(r"-?0x[0-9a-f]+", x):
            return int(x, 16)
        return regs.get(x)

    for line in sass.splitlines():
        m = re.search(r"\*/\s+(?:@!?U?P\d+\s+)?([A-Z0-9.]+)\s+(.*?)\s*;", line)
        if not m:
            continue
        op, args = m.group(1), [a.strip() for a in m.group(2).split(",")]
        base = op.split(".")[0]
        if base in ("MOV", "UMOV") and len(args) == 2:
            regs[args[0]] = val(args[1])
        elif op.startswith("IMAD.MOV") and len(args) == 4:
            regs[args[0]] = val(args[3])
        elif base in ("IADD3", "UIADD3"):
            v = [val(a) for a in args[1:4]]
            regs[args[0]] = None if None in v else sum(v)
        elif base == "VIADD" or op == "IMAD.IADD":
            v = [val(a) for a in args[1:] if a != "0x1"]
            regs[args[0]] = None if None in v else sum(v)
        elif base in ("S2R", "S2UR"):
            regs[args[0]] = 0 if "CgaCtaId" in args[1] else None
        elif base in ("LEA", "ULEA") and len(args) == 4 and args[3] == "0x18":
            regs[args[0]] = val(args[2])  # The CTA id (0) in the high bits.
        elif base == "STG":
            m2 = re.search(r"\+0x([0-9a-f]+)\]", args[0])
            out[(int(m2.group(1), 16) if m2 else 0) // 4] = val(args[1])
        elif args and re.fullmatch(r"U?R\d+", args[0]):
            regs[args[0]] = None
    return out


def layout(arrays, rdc, work, disasm):
    with open(os.path.join(work, "k.cu"), "w") as f:
        f.write(source(arrays))
    for old in glob.glob(os.path.join(work, "*.cubin")):
        os.remove(old)
    flags = ["-rdc=true"] if rdc else []
    subprocess.run(["nvcc", "-arch=sm_90", *flags, "k.cu", "-o", "k",
                    "--keep"], cwd=work, check=True, capture_output=True)
    cubin = os.path.join(work, "k_dlink.sm_90.cubin" if rdc
                         else "k.sm_90.cubin")
    sass = subprocess.run([disasm, cubin], capture_output=True,
                          text=True, check=True).stdout
    sass = sass[sass.find(".text._Z1kPj:"):]
    got = stored_constants(sass)
    offsets = {n: (got[i] - 0x400 if got.get(i) is not None else None)
               for i, (n, _, _) in enumerate(arrays)}
    placed = sorted((o, n) for n, o in offsets.items() if o is not None)
    return [n for _, n in placed], [n for n, o in offsets.items() if o is None]


def main():
    disasm = nvdisasm()
    cases = [("%d equal arrays" % n, [("v%d" % i, "float", 10)
                                      for i in range(n)])
             for n in range(1, 11)]
    cases.append(("the same 4, renamed", [(n, "float", 10)
                                          for n in ("d", "c", "b", "a")]))
    cases.append(("sizes and alignments",
                  [("x", "float", 100), ("y", "float", 10),
                   ("z", "float", 50), ("w", "char", 3), ("v", "double", 2)]))
    with tempfile.TemporaryDirectory() as work:
        for title, arrays in cases:
            print("%s, declared %s" % (title, " ".join(n for n, _, _ in arrays)))
            for rdc in (False, True):
                order, unknown = layout(arrays, rdc, work, disasm)
                print("  %-8s %s%s" % ("nvlink:" if rdc else "ptxas:",
                                       " ".join(order),
                                       " (not found: %s)" % " ".join(unknown)
                                       if unknown else ""))


if __name__ == "__main__":
    main()
