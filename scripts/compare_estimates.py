#!/usr/bin/env python3
"""Sets gmem's DRAM bytes and durations beside gmem-verify's traffic run.

Usage: scripts/compare_estimates.py GMEM_ANALYZE MANIFEST [--write DOC]

Each manifest line is SOURCE | MEASURED.json | GMEM-ANALYZE ARGUMENTS,
paths relative to the repository's root (blank lines and # comments are
skipped). For each program it runs `gmem-analyze SOURCE --compare
MEASURED.json --format json ARGUMENTS` and counts the estimates within
their bands (views/compare/estimates.cpp); where MEASURED.ncu.csv lies
beside the measurement (Nsight Compute's figures for the same build), it
also sets gmem-verify's DRAM bytes read beside Nsight Compute's, launch by
launch, to show that gmem-verify's own L2 flush empties the L2 as ncu's
does. Prints Markdown, or with --write puts it in DOC between the lines
<!-- compare_estimates --> and <!-- /compare_estimates -->.
"""
import csv
import json
import os
import shlex
import subprocess
import sys


LABELS = ("DRAM bytes read", "DRAM bytes written", "L2 sectors read",
          "L2 sectors written", "duration")


def ncu_metrics(path):
    """Launch ID -> metric -> value, from `ncu --csv --print-units base`."""
    out, header = {}, None
    with open(path, newline="") as f:
        for row in csv.reader(f):
            if row and row[0] == "ID":
                header = row
                continue
            if header and len(row) == len(header):
                d = dict(zip(header, row))
                try:
                    v = float(d["Metric Value"].replace(",", ""))
                except ValueError:
                    continue
                out.setdefault(int(d["ID"]), {})[d["Metric Name"]] = v
    return out


def main():
    args = sys.argv[1:]
    doc_path = None
    if len(args) == 4 and args[2] == "--write":
        doc_path = args[3]
        args = args[:2]
    if len(args) != 2:
        sys.exit(__doc__)
    tool, manifest = args
    out = []
    rows, flush = [], []
    totals = {}
    launches = 0
    for line in open(manifest):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        source, measured, args = (p.strip() for p in (line.split("|") + [""])[:3])
        cmd = [tool, source, "--compare", measured, "--format", "json"]
        cmd += shlex.split(args)
        run = subprocess.run(cmd, capture_output=True, text=True)
        if run.returncode not in (0, 1):
            sys.exit(f"{' '.join(cmd)}: exit {run.returncode}\n{run.stderr}")
        doc = json.loads(run.stdout)
        counts = {}
        for launch in doc["launches"]:
            for e in launch["estimates"]:
                c = counts.setdefault(e["label"], [0, 0, 0])
                c[0] += 1
                c[1] += e["predicted"] is not None
                c[2] += bool(e["within"])
        name = os.path.splitext(os.path.basename(measured))[0]
        cells = []
        for label in LABELS:
            n, p, w = counts.get(label, (0, 0, 0))
            t = totals.setdefault(label, [0, 0, 0])
            t[0] += n
            t[1] += p
            t[2] += w
            cells.append(f"{w} of {n}" + (f" ({n - p} unknown)" if p < n else ""))
        launches += len(doc["launches"])
        rows.append(f"| {name} | {len(doc['launches'])} | " + " | ".join(cells) + " |")
        ncu = os.path.splitext(measured)[0] + ".ncu.csv"
        if os.path.exists(ncu):
            theirs = ncu_metrics(ncu)
            ours = json.load(open(measured))["launches"]
            for i, launch in enumerate(ours):
                m, n = launch["metrics"], theirs.get(launch["index"], {})
                a, b = m.get("dram__bytes_read.sum"), n.get("dram__bytes_read.sum")
                if a is not None and b:
                    flush.append((name, launch["kernel"], a, b))
    print = out.append
    print("| program | launches | DRAM bytes read within 10 % | written within 25 % "
          "| L2 sectors read within 10 % | written within 10 % | duration within 25 % |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    print("\n".join(rows))
    cells = [f"{w} of {n}" for n, p, w in (totals[k] for k in LABELS)]
    print(f"| all | {launches} | " + " | ".join(cells) + " |")
    if flush:
        big = [abs(a - b) / b for _, _, a, b in flush if b >= 1e6]
        small = [abs(a - b) for _, _, a, b in flush if b < 1e6]
        print("")
        print(f"gmem-verify's DRAM bytes read beside Nsight Compute's for the same "
              f"builds: {len(flush)} launches; of the {len(big)} reading 1 MB or "
              f"more, the largest difference {100 * max(big, default=0):.1f} %; "
              f"of the {len(small)} others, {max(small, default=0) / 1e3:.1f} KB.")
        print("")
        print("| program | kernel | gmem-verify (MB) | ncu (MB) |")
        print("| --- | --- | ---: | ---: |")
        for name, kernel, a, b in flush:
            print(f"| {name} | {kernel} | {a / 1e6:.3f} | {b / 1e6:.3f} |")
    text = "\n".join(out)
    if not doc_path:
        sys.stdout.write(text + "\n")
        return
    begin, end = "<!-- compare_estimates -->", "<!-- /compare_estimates -->"
    doc = open(doc_path).read()
    if begin not in doc or end not in doc:
        sys.exit(f"{doc_path}: no {begin} ... {end} region to fill")
    head, rest = doc.split(begin, 1)
    tail = rest.split(end, 1)[1]
    open(doc_path, "w").write(head + begin + "\n" + text + "\n" + end + tail)


if __name__ == "__main__":
    main()
