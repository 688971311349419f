#!/usr/bin/env python3
"""Condenses scripts/measure_traffic.sh's ncu exports (--page raw, every
device attribute included) into one CSV of the figures issue 32's model
predicts: one row per launch, program and ncu's launch ID first.

Usage: traffic_table.py OUTDIR... > table.csv
"""
import csv
import io
import os
import sys

COLUMNS = ["Kernel Name", "Grid Size", "Block Size",
           "launch__registers_per_thread",
           "dram__bytes_read.sum", "dram__bytes_write.sum",
           "gpu__time_duration.sum", "lts__t_sectors_op_read.sum",
           "lts__t_sectors_op_write.sum", "lts__t_sectors_op_atom.sum",
           "lts__t_sectors_op_red.sum",
           "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
           "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
           "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
           "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum",
           "smsp__inst_executed.sum", "sm__cycles_elapsed.avg.per_second",
           "dram__cycles_elapsed.avg.per_second",
           "sm__warps_active.avg.pct_of_peak_sustained_active"]


def rows(path):
    text = open(path, errors="replace").read()
    start = text.find('"ID",')
    if start < 0:
        return
    lines = text[start:].splitlines()
    table = list(csv.reader(io.StringIO("\n".join(
        l for l in lines if l.startswith('"')))))
    head, units = table[0], table[1]
    for r in table[2:]:
        yield dict(zip(head, r)), dict(zip(head, units))


def main():
    out = csv.writer(sys.stdout, lineterminator="\n")
    header_done = False
    for folder in sys.argv[1:]:
        for name in sorted(os.listdir(folder)):
            if not name.endswith(".csv"):
                continue
            program = os.path.basename(os.path.normpath(folder)) + "/" + \
                name[:-4]
            for r, units in rows(os.path.join(folder, name)):
                if not header_done:
                    out.writerow(["program", "id"] + [
                        c + (" (" + units[c] + ")" if units.get(c) else "")
                        for c in COLUMNS])
                    header_done = True
                # ncu groups digits with commas; names keep theirs.
                out.writerow([program, r["ID"]] + [
                    r.get(c, "") if i < 3 else r.get(c, "").replace(",", "")
                    for i, c in enumerate(COLUMNS)])


if __name__ == "__main__":
    main()
