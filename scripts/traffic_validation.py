#!/usr/bin/env python3
"""Predicted DRAM traffic beside what Nsight Compute measured on an H200
(tests/data/traffic/h200_ncu.csv, scripts/measure_traffic.sh), launch by
launch, written to docs/TRAFFIC.md.

Usage: traffic_validation.py GMEM_ANALYZE MANIFEST...
Each manifest line: "PROGRAM | FOLDER | ANALYZE ARGUMENTS" (PROGRAM as the
measured table names it, e.g. examples/transpose; FOLDER, where gmem-analyze
runs, relative to the manifest's). Every program is analysed with
--gpu h200 --format json (and the line's arguments). The k-th measured launch of a
kernel with a grid and block is paired with its k-th predicted one (repeats
expanded). The pairs of variants in tests/data/traffic/pairs.txt have the
order of their predicted durations checked against the measured one.
"""
import csv
import json
import os
import re
import shlex
import subprocess
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), ".."))
# GMEM_TRAFFIC_WARM=1: the L2 kept from launch to launch, measured with
# ncu --cache-control none (h200_ncu_warm.csv) and analysed with --l2 warm,
# into docs/TRAFFIC_WARM.md.
WARM = os.environ.get("GMEM_TRAFFIC_WARM") == "1"
MEASURED = os.path.join(ROOT, "tests", "data", "traffic",
                        "h200_ncu_warm.csv" if WARM else "h200_ncu.csv")
# GMEM_TRAFFIC_DOC: write elsewhere (a run over some manifests only).
DOC = os.environ.get("GMEM_TRAFFIC_DOC", os.path.join(
    ROOT, "docs", "TRAFFIC_WARM.md" if WARM else "TRAFFIC.md"))


# What the figures above do not show: written by hand from the table below
# (rerun the script and check them when the model changes).
NOTES = """The duration's rates (simulator/launch_time.h) were fitted on the
examples' and public programs' launches by `scripts/fit_launch_time.py`
(How_to_optimize_in_GPU's were measured after a first fit, which put their
streaming kernels at half the DRAM rate they reach, and were fitted with
since); fitted on every other program and counted on the rest, 174 of 236
and 211 of 286 launches longer than 20 us came within 25 % (before the
instruction-issue bound). The issue rate, 3 SASS warp instructions per SM
and cycle, was read off the reductions reduce0 to reduce3, which issue
what the H200's smsp__inst_executed counted at 3.0 to 3.3 per cycle;
cuda-samples' reduction kernels, measured after, check it
(docs/TRAFFIC_VERIFY.md). The heldout/ programs (cuda-samples' transpose,
8 kernels at 4096 and 8192) were measured after the first fit and are not
in it, nor is examples/bank_contention (192 launches of 48 kernels that
read a shared tile with 1- to 32-way conflicts, measured on 2026-11-29):
its DRAM bytes read come within 10 % for 190, its durations within 25 %
for the 26 longer than 20 us. What a launch reads besides its data is its
code, 16 bytes a SASS instruction (bank_contention's kernels of 35 to 287
instructions read 3072 to 7168 bytes with no data), and 2560 bytes more
(the median over the other examples). What the model leaves out, from the
misses below:

- Instruction issue is priced only for launches the functional recording
  ran, or that share kernel, configuration and argument bytes with one
  it ran (loop_nests' row, column and suffix sums, whose results nothing
  reads, are priced without it: 25-345 us for 5-179). The SASS warp instructions are
  the PTX ones reached, weighed by the kernel's SASS over PTX count, in
  loops and outside them apart: the transposes' are exact, How_to's
  reductions within 3-12 %; loops ptxas restructures come out high (the
  tiled SGEMMs +66 to +124 %, still latency-bound below their measured
  37-64 us).
- Durations not predicted: 39 of llm.c softmax's 40 launches longer than
  20 us. The recorded run (stopped by its 120 s limit after 462 launches)
  executed the first; for the others the model cannot price inp_row[j]
  at softmax_forward.cu:110, so only their DRAM bytes are predicted, and
  those low (3294 MB for the 4981 MB measured: the kernel re-reads its
  1.6 GB input in a second pass, beyond what L2 keeps). The run depends on
  the execution budget (60 s): on a busier machine the second launch
  spent it, the host's check of its result failed and the program exited
  after 2 launches.
- Latency: threads that walk long loops with few warps in flight or wait
  at barriers (llm.c's layernorm_forward_kernel1, one thread per row:
  274-2923 us for 182-1083; loop_nests' covariance, 1678 us for 407).
- Contention: bank conflicts of warps that conflict together (the 16-way
  transposeSmem, 99 us for 71 with its replays; gTranspose1, 692 us for
  394), shared atomics on few addresses (histogram256, 155 us for 85).
  The wavefronts themselves are the bank rule's: warps of several blocks
  on an SM cost up to 12 % more (bank_contention: 0 with one block per
  SM, up to 4.4 % with more; the seeds' transposeSmemPad 12 %), which
  gmem bounds and the duration leaves out.
- Blocks of 512 and 1024 threads in llm.c's elementwise kernels run 23-30
  us for 15-20: the last blocks of a wave (tail), which the block term's
  ceil(blocks / SMs) does not see.
- Tiny launches: every launch that loads waits a DRAM round trip (500
  ns) before its busiest SM's data pipe serves its requests, so global_add
  and its strided twin (2.6 and 2.7 us measured; 8 times as many bytes per
  request, which keep more in flight) come out in the measured order (2.50
  and 2.53). One warp per SM reading few bytes runs faster than that
  (global_duplicates' dupLoad, 2.1-2.4 us for 2.5).

## The seeds' Quadro P2000

Seed 000 gives nvprof's times on a Quadro P2000 for the 4096 x 4096
transposes of examples/transpose.cu (its copyGmem was a plain copy, 4
sectors per store request, as copyRow is here). CUDA 13's nvcc builds no
sm_61 code, so these launches are read from the host code and the buffers'
sizes are not known: DRAM bytes are only bounded, and the duration is the
range `gmem-analyze examples/transpose.cu --gpu quadro-p2000` gives (its
low end leaves DRAM out, its high end takes every sector from DRAM; both
scaled from the H200's rates by the P2000's 8 SMs, 1480 MHz boost clock and
140 GB/s). nvprof's copy and transposeSmem lie above the range (by 6 % and
82 %): the H200's rates are not the P2000's (its DRAM share, its L1), and
no P2000 was at hand to fit its own.

| kernel | nvprof on the P2000 | gmem's range |
|---|---:|---:|
| naiveGmem | 4451 us | 1702 - 10855 us |
| transposeSmem | 2331 us | 932 - 1279 us |
| copyGmem (a copy: copyRow) | 1356 us | 721 - 1279 us |

"""

# The same for GMEM_TRAFFIC_WARM=1 (docs/TRAFFIC_WARM.md).
NOTES_WARM = """Without a flush, a launch finds in L2 what the launches before it and
the host's copies and sets left there (simulator/l2_residency.h: per
allocation, least recently used first; a launch whose footprint exceeds
the L2 streams through it and finds nothing). The model was written from
these measurements (one program's sets give the dirty share of a
cudaMemset; nothing else was fitted), so the table checks it rather than
validates it on new code. What it leaves out:

- L2 holds less than its size: Rodinia's pathfinder, whose 40 MB wall
  fits in the 60 MiB, read 0.3 to 5.2 MB of it again in its five
  launches (predicted none); examples/coalescing's transpose1 0.13 MB of
  its 8 MB input. The H200's L2 is two partitions, each SM nearer one.
- A copy's lines are taken clean: the first launch after a large
  cudaMemcpy (How_to's reductions and SGEMV, 134 to 268 MB) wrote back
  4 to 5 MB that L2 still held dirty (predicted 0.0 to 0.4), and
  read-only timing loops 0.1 to 0.4 MB each.
- Durations follow the flushed model's rates with the warm bytes; the
  misses are the flushed table's (instruction issue where the recording
  did not run the launch, as seeds_gt's transposeSmem, which ties with
  its padded twin at 64.1 us; the tiled SGEMMs; latency).
"""


def base_name(kernel):
    """'void f<32>(int, float *)' and 'f<32>' -> 'f<32>'; ncu prints a bool
    template argument as 0 or 1, gmem as false or true."""
    k = re.sub(r"^void ", "", kernel.strip())
    depth, out = 0, ""
    for c in k:
        if c == "(" and depth == 0:
            break
        depth += c == "<"
        depth -= c == ">"
        out += c
    out = out.replace(" ", "")
    return re.sub(r"(?<=[<,])false(?=[,>])", "0",
                  re.sub(r"(?<=[<,])true(?=[,>])", "1", out))


def measured():
    rows = {}
    for r in csv.DictReader(open(MEASURED)):
        val = lambda p: float(next(v for k, v in r.items() if k.startswith(p)))
        dims = lambda t: tuple(int(v) for v in r[t].strip("()").split(","))
        rows.setdefault(r["program"], []).append({
            "kernel": base_name(r["Kernel Name"]),
            "config": (dims("Grid Size"), dims("Block Size")),
            "read": val("dram__bytes_read.sum"),
            "write": val("dram__bytes_write.sum"),
            "l2read": val("lts__t_sectors_op_read.sum"),
            "l2write": val("lts__t_sectors_op_write.sum"),
            "us": val("gpu__time_duration.sum") / 1e3})
    return rows


ANALYSED = {}


def predicted(analyze, folder, args, program):
    """The program's launches as (kernel, launch JSON). With
    GMEM_TRAFFIC_JSON=DIR each analysis is kept in DIR, and read from there
    when it is already (to refit the models without analysing again)."""
    keep = os.environ.get("GMEM_TRAFFIC_JSON")
    saved = os.path.join(keep, program.replace("/", "_") + ".json") \
        if keep else None
    if saved and os.path.exists(saved):
        doc = json.load(open(saved))
    elif (folder, args) in ANALYSED:
        doc = ANALYSED[(folder, args)]
    else:
        cmd = [analyze] + ["--gpu", "h200", "--format", "json"] + \
            (["--l2", "warm"] if WARM else []) + shlex.split(args)
        p = subprocess.run(cmd, cwd=folder, capture_output=True, text=True,
                           timeout=1800)
        try:
            doc = json.loads(p.stdout)
        except ValueError:
            return None, (p.stderr.strip().splitlines() or ["no output"])[-1]
    ANALYSED[(folder, args)] = doc  # Programs measured kernel by kernel.
    if saved and not os.path.exists(saved):
        os.makedirs(keep, exist_ok=True)
        json.dump(doc, open(saved, "w"))
    out = []
    three = lambda v: tuple(list(v) + [1] * (3 - len(v)))
    for launch in doc.get("launches", []):
        key = (base_name(launch["kernel"]),
               (three(launch["grid"]), three(launch["block"])))
        for k in range(launch.get("count", 1)):
            # A warm L2: each repeat after the first moves what gmem says.
            dram = launch.get("dram") or {}
            if k and "repeat_read_bytes" in dram:
                launch = dict(launch, dram=dict(
                    dram, read_bytes=dram["repeat_read_bytes"],
                    write_bytes=dram["repeat_write_bytes"]))
            out.append((key, launch))
    return out, None


def main():
    analyze = os.path.abspath(sys.argv[1])
    meas = measured()
    lines, failures = [], []
    for manifest in sys.argv[2:]:
        here = os.path.dirname(os.path.abspath(manifest))
        for entry in open(manifest):
            if not entry.strip() or entry.lstrip().startswith("#"):
                continue
            program, folder, args = [x.strip() for x in entry.split("|", 2)]
            folder = os.path.join(here, folder)
            pred, err = predicted(analyze, folder, args, program)
            if pred is None:
                failures.append((program, err))
                continue
            seen = {}
            for m in meas.get(program, []):
                key = (m["kernel"], m["config"])
                k = seen.get(key, 0)
                seen[key] = k + 1
                mine = [launch for n, launch in pred if n == key]
                launch = mine[k] if k < len(mine) else {}
                lines.append((program, m, k, launch))
    total = len(lines)
    dram = lambda launch: launch.get("dram") or {}
    time = lambda launch: launch.get("time") or {}
    known = [x for x in lines if dram(x[3]).get("known")]

    def within(m, d, tol):
        # A warm L2 leaves most launches a few hundred bytes to read: there
        # the band is --compare's, 10 % or 4 KiB.
        return abs(d["read_bytes"] - m["read"]) <= max(
            tol * max(m["read"], 1), 4096 if WARM else 0)
    ok = [x for x in known if within(x[1], dram(x[3]), 0.10)]
    # Written: within 25 % or 64 KiB (as --compare judges them).
    written_ok = [x for x in known if abs(
        dram(x[3])["write_bytes"] - x[1]["write"]) <= max(
        0.25 * x[1]["write"], 65536)]
    big = [x for x in known if x[1]["read"] >= 1e6]
    big_ok = [x for x in big if within(x[1], dram(x[3]), 0.10)]
    timed = [x for x in lines if time(x[3]).get("known")]
    # L2 sectors as Nsight Compute counts them (simulator/l2_traffic.h).
    l2 = lambda launch: launch.get("l2") or {}
    l2_known = [x for x in lines if l2(x[3]).get("known")]

    def l2_close(m, v):
        return abs(v - m) <= max(0.10 * m, 1000)
    l2_read_ok = [x for x in l2_known if l2_close(
        x[1]["l2read"], l2(x[3])["lts__t_sectors_op_read.sum"])]
    l2_write_ok = [x for x in l2_known if l2_close(
        x[1]["l2write"], l2(x[3])["lts__t_sectors_op_write.sum"])]

    def close(x):
        return abs(time(x[3])["seconds"] * 1e6 / x[1]["us"] - 1) <= 0.25
    long_all = [x for x in lines if x[1]["us"] > 20]
    long_timed = [x for x in timed if x[1]["us"] > 20]
    long_ok = [x for x in long_timed if close(x)]
    all_ok = [x for x in timed if close(x)]
    # Pairs of variants: the first launch of each kernel.
    first = {}
    for program, m, k, launch in lines:
        first.setdefault((program, m["kernel"]), (m, launch))
    pairs = []
    for entry in open(os.path.join(os.path.dirname(MEASURED), "pairs.txt")):
        if not entry.strip() or entry.lstrip().startswith("#"):
            continue
        program, a, b, what = [x.strip() for x in entry.split("|", 3)]
        # A kernel of another program: PROGRAM:KERNEL.
        where = lambda k: (k.split(":", 1)[0], base_name(k.split(":", 1)[1])) \
            if ":" in k else (program, base_name(k))
        A, B = first.get(where(a)), first.get(where(b))
        if not A or not B or not time(A[1]).get("known") or \
                not time(B[1]).get("known"):
            pairs.append((program, a, b, what, A, B, None))
            continue
        ta, tb = time(A[1])["seconds"], time(B[1])["seconds"]
        # A tie is not an order: the faster must be predicted faster.
        good = ta != tb and (A[0]["us"] < B[0]["us"]) == (ta < tb)
        pairs.append((program, a, b, what, A, B, good))
    pairs_ok = [p for p in pairs if p[6]]
    # Programs measured after the rates were fitted (tests/data/traffic/
    # heldout.txt), which scripts/fit_launch_time.py leaves out.
    held = [x for x in long_all if x[0].startswith("heldout/")]
    held_timed = [x for x in held if time(x[3]).get("known")]
    held_ok = [x for x in held_timed if close(x)]
    summary = ((
        "%d measured launches. DRAM bytes read: %d predicted, %d of them "
        "within 10 %%" + (" or 4 KiB" if WARM else "") +
        " (%d of the %d reading at least 1 MB); written within "
        "25 %% or 64 KiB for %d. Duration: %d "
        "predicted, %d within 25 %% (%d of the %d longer than 20 us; of all "
        "%d measured launches longer than 20 us, %d). L2 sectors: %d "
        "predicted, read within 10 %% (or 1000 sectors) for %d, written for "
        "%d. Pairs of variants: "
        "the faster predicted faster in %d of %d.") % (
            total, len(known), len(ok), len(big_ok), len(big),
            len(written_ok), len(timed),
            len(all_ok), len(long_ok), len(long_timed), len(long_all),
            len(long_ok), len(l2_known), len(l2_read_ok), len(l2_write_ok),
            len(pairs_ok), len(pairs)))
    if held:
        summary += (" Held out of the fit (measured after it): %d of the %d "
                    "launches longer than 20 us predicted, %d within 25 %%."
                    % (len(held_timed), len(held), len(held_ok)))
    with open(DOC, "w") as f:
        if WARM:
            f.write(
                "# DRAM traffic and duration with a warm L2: predicted and "
                "measured\n\n"
                "Generated by `GMEM_TRAFFIC_WARM=1 scripts/traffic_validation.py "
                "build/bin/gmem-analyze tests/data/traffic/warm.txt`. Measured: "
                "Nsight Compute on an NVIDIA H200 with the caches kept from "
                "launch to launch (`GMEM_NCU_WARM=1 scripts/measure_traffic.sh`: "
                "--cache-control none, each pass a run of the whole program, "
                "clocks locked to base; `tests/data/traffic/h200_ncu_warm.csv`, "
                "2026-11-29). Predicted: `gmem-analyze --gpu h200 --l2 warm`. "
                "Bytes in decimal MB, times in microseconds; the repeats of a "
                "launch in a timing loop after the first are paired with what "
                "gmem says each of them moves. The flushed table: "
                "docs/TRAFFIC.md.\n\n")
        else:
            f.write(
                "# DRAM traffic and duration: predicted and measured\n\n"
                "Generated by `scripts/traffic_validation.py build/bin/gmem-analyze "
                "tests/data/traffic/examples.txt tests/data/traffic/public.txt "
                "tests/data/traffic/heldout.txt`. "
                "Measured: Nsight "
                "Compute on an NVIDIA H200 (`scripts/measure_traffic.sh`, caches "
                "flushed before each launch and clocks locked to base, ncu's "
                "defaults; `tests/data/traffic/h200_ncu.csv`). Predicted: "
                "`gmem-analyze --gpu h200` (simulator/dram_traffic.h and "
                "simulator/launch_time.h say how). Bytes in decimal MB, "
                "times in microseconds. The same estimates beside what "
                "gmem-verify measures itself: docs/TRAFFIC_VERIFY.md.\n\n")
        f.write(summary + "\n\n")
        f.write(NOTES_WARM if WARM else NOTES)
        for program, err in failures:
            f.write("- %s: not analysed: %s\n" % (program, err))
        f.write("\n## Pairs of variants\n\n"
                "| program | variant | variant | what differs | measured us "
                "| predicted us | faster predicted faster |\n"
                "|---|---|---|---|---:|---:|---|\n")
        for program, a, b, what, A, B, good in pairs:
            if good is None:
                f.write("| %s | %s | %s | %s | | | not predicted |\n" %
                        (program, a, b, what))
                continue
            f.write("| %s | %s | %s | %s | %.1f / %.1f | %.1f / %.1f | %s "
                    "|\n" % (program, a, b, what, A[0]["us"], B[0]["us"],
                             time(A[1])["seconds"] * 1e6,
                             time(B[1])["seconds"] * 1e6,
                             "yes" if good else "**no**"))
        f.write("\n## Every launch\n\n"
                "| program | kernel | launch | read MB measured | predicted "
                "| error | written MB measured | predicted | duration us "
                "measured | predicted | error | limited by | L2 sectors read "
                "measured | predicted |\n"
                "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
                "---:|---:|\n")
        for program, m, k, launch in lines:
            d, t = dram(launch), time(launch)
            cells = [program, m["kernel"], "%d" % k, "%.2f" % (m["read"] / 1e6)]
            if not launch:
                cells += ["not paired", ""]
            elif not d.get("known"):
                bound = ("at most %.2f " % (d["read_bytes_at_most"] / 1e6)
                         if "read_bytes_at_most" in d else "not known ")
                cells += ["%s(%s)" % (bound, d.get("why", "no board")), ""]
            else:
                cells += ["%.2f" % (d["read_bytes"] / 1e6), "%+.0f %%" % (
                    (d["read_bytes"] - m["read"]) / max(m["read"], 1) * 100)]
            cells += ["%.2f" % (m["write"] / 1e6),
                      "%.2f" % (d["write_bytes"] / 1e6)
                      if d.get("known") else "", "%.1f" % m["us"]]
            if t.get("known"):
                us = t["seconds"] * 1e6
                cells += ["%.1f" % us, "%+.0f %%" % ((us / m["us"] - 1) * 100),
                          t["limit"]]
            else:
                cells += ["", "", ""]
            cells += ["%.0f" % m["l2read"],
                      "%.0f" % l2(launch)["lts__t_sectors_op_read.sum"]
                      if l2(launch).get("known") else ""]
            f.write("| " + " | ".join(cells) + " |\n")
    print(summary)

if __name__ == "__main__":
    main()
