#!/usr/bin/env python3
"""Writes docs/VALIDATION.md: every measured launch of every example, its
prediction, its measurement and the verdict, from the files themselves.

For each tests/data/measured/NAME.json (gmem-verify's output on the GPU,
written by scripts/measure_examples.sh) it runs

    gmem-analyze examples/NAME.cu --compare tests/data/measured/NAME.json \
        --format json

(NAME.cu is looked up in examples/, then in any --source-dir)
and renders the comparison as Markdown, with the GPU, driver, CUDA version
and date the measurement records. Nothing in the document is typed by hand.

Usage:
    scripts/make_validation.py [--gmem-analyze PATH] [--measured-dir DIR]
                               [--examples-dir DIR] [--source-dir DIR]
                               [--output FILE] [--check]

--check regenerates the document in memory and exits 1 when the file on
disk differs (for CI). Exit status: 0 when written (or up to date), 1 when a
comparison could not be made or --check found a stale document, 2 on bad
arguments.
"""
import argparse
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def find_analyzer():
    for build in ("build", "build-cmp", "build-an"):
        path = os.path.join(ROOT, build, "bin", "gmem-analyze")
        if os.access(path, os.X_OK):
            return path
    return None


def rel(path):
    return os.path.relpath(os.path.abspath(path), ROOT)


def number(value):
    if value is None:
        return "unknown"
    if float(value).is_integer() and abs(value) < 1e15:
        return "%d" % value
    return ("%.4f" % value).rstrip("0")


def difference(value):
    if value is None:
        return "-"
    if value == 0:
        return "0"
    text = number(value)
    return text if text.startswith("-") else "+" + text


def cell(text):
    """Markdown table cells: no pipes or line breaks."""
    return str(text).replace("|", "\\|").replace("\n", " ")


def dim(d):
    return "(%s)" % ",".join(str(x) for x in d)


def count_or_dash(value):
    return "-" if value is None else str(value)


def device_line(m):
    parts = [m.get("device") or "unnamed device"]
    if m.get("compute_capability"):
        parts[0] += " (compute capability %s)" % m["compute_capability"]
    parts.append("driver %s" % (m.get("driver_version") or "not recorded"))
    parts.append("CUDA %s" % (m.get("cuda_version") or "not recorded"))
    parts.append(m.get("date") or "date not recorded")
    return ", ".join(parts)


def compare(analyzer, source, measured):
    cmd = [analyzer, rel(source), "--compare", rel(measured), "--format",
           "json"]
    run = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    result = {"command": " ".join(["gmem-analyze"] + cmd[1:]),
              "exit": run.returncode}
    if run.returncode in (0, 1):
        try:
            result["json"] = json.loads(run.stdout)
        except json.JSONDecodeError as e:
            result["error"] = "output is not JSON: %s" % e
    else:
        result["error"] = (run.stderr.strip().splitlines() or
                           ["exit status %d" % run.returncode])[-1]
    return result


def render_launch(out, launch):
    title = "`%s`<<<%s, %s" % (launch["kernel"], dim(launch["grid"]),
                               dim(launch["block"]))
    if launch.get("dynamic_smem"):
        title += ", %d" % launch["dynamic_smem"]
    title += ">>>"
    out.append("### %s: %s" % (title, launch["verdict"]))
    out.append("")
    where = "measured launch %d" % launch["measured_index"]
    if launch.get("loc"):
        where += "; host launch at `%s`" % launch["loc"]
    out.append(where + ".")
    for note in launch.get("notes", []):
        out.append("Note: %s." % note)
    for diag in launch.get("diagnostics", []):
        out.append("Simulator: %s." % diag)
    out.append("")
    out.append("| Metric | Predicted | Measured | Difference | Verdict | "
               "Reason |")
    out.append("|---|---:|---:|---:|---|---|")
    for m in launch["metrics"]:
        if m["predicted"] == 0 and m["measured"] == 0:
            continue
        name = "`%s`" % m["name"]
        if m.get("measured_from"):
            name += " (measured: %s)" % (
                "wavefronts / instructions" if "shared" in m["name"]
                else "sectors / requests")
        out.append("| %s | %s | %s | %s | %s | %s |" % (
            cell(name), number(m["predicted"]), number(m["measured"]),
            difference(m["difference"]), m["verdict"], cell(m["reason"])))
    out.append("")
    if launch["lines"]:
        out.append("| Line | Requests (predicted) | Instructions (measured) "
                   "| Sectors pred / meas | Wavefronts pred / meas "
                   "| Verdict | Reason |")
        out.append("|---|---:|---:|---:|---:|---|---|")
        for l in launch["lines"]:
            p, m = l["predicted"], l["measured"] or {}
            out.append("| `%s:%d` | %d | %s | %s / %s | %s / %s | %s | %s |" % (
                l["file"], l["line"], p["requests"],
                count_or_dash(m.get("instructions")),
                number(p["sectors"]), count_or_dash(m.get("sectors")),
                number(p["wavefronts"]), count_or_dash(m.get("wavefronts")),
                l["verdict"], cell(l["reason"])))
        out.append("")


# The per-request figures of the overview, as h200_summary.txt has them.
OVERVIEW = [
    ("ld sectors/req", "gld_transactions_per_request"),
    ("st sectors/req", "gst_transactions_per_request"),
    ("ld eff %", "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct"),
    ("st eff %", "smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct"),
    ("shared ld wavefronts/req", "shared_load_transactions_per_request"),
    ("shared st wavefronts/req", "shared_store_transactions_per_request"),
]


def short(value):
    if value is None:
        return "?"
    return ("%.2f" % value).rstrip("0").rstrip(".")


def render_overview(out, launches):
    out.append("| Launch | %s | Verdict |" % " | ".join(
        "%s (pred / meas)" % label for label, _ in OVERVIEW))
    out.append("|---|%s---|" % ("---:|" * len(OVERVIEW)))
    for launch in launches:
        by_name = {m["name"]: m for m in launch["metrics"]}
        cells = []
        for _, name in OVERVIEW:
            m = by_name.get(name)
            cells.append("%s / %s" % (short(m["predicted"]),
                                      short(m["measured"])) if m else "-")
        out.append("| `%s`<<<%s, %s>>> | %s | %s |" % (
            launch["kernel"], dim(launch["grid"]), dim(launch["block"]),
            " | ".join(cells), launch["verdict"]))
    out.append("")


def render(results):
    out = ["# Validation: predictions beside GPU measurements", "",
           "Generated by `scripts/make_validation.py` from the gmem-verify "
           "measurements in `tests/data/measured/` (taken on the lent GPU by "
           "`scripts/measure_examples.sh`) and `gmem-analyze EXAMPLE.cu "
           "--compare MEASUREMENT --format json`. Do not edit: run the script "
           "again.", "",
           "Tolerances (`views/compare/compare.h`): counts exact; global "
           "sectors per request and efficiencies exact up to the printed "
           "precision (0.005); shared wavefronts per request within max(3 %, "
           "0.15), the contention of large grids that "
           "`../shared/groundtruth/README.md` describes. A value beyond "
           "tolerance is *explained* when the tool established the reason "
           "(merged accesses, code not executed, a prediction that depends "
           "on loaded data, contention: a timing effect), a *mismatch* "
           "otherwise.", "",
           "The estimates of DRAM traffic, L2 sectors and duration beside "
           "Nsight Compute's measurements of every launch of the examples "
           "and of public programs, caches flushed and L2 warm, close this "
           "file (copied from docs/TRAFFIC.md and docs/TRAFFIC_WARM.md).",
           "",
           "## Summary", "",
           "| Example | Measurement | GPU | Driver | CUDA | Date | Launches "
           "| Match | Explained | Mismatch | Exit |",
           "|---|---|---|---|---|---|---:|---:|---:|---:|---:|"]
    for r in results:
        if "json" not in r:
            out.append("| `%s` | `%s` | | | | | | | | | %s |" % (
                r["source"], r["measured"], r["exit"]))
            continue
        j = r["json"]
        m, s = j["measurement"], j["summary"]
        out.append("| `%s` | `%s` | %s | %s | %s | %s | %d | %d | %d | %d | "
                   "%d |" % (
                       r["source"], r["measured"], cell(m["device"]),
                       m["driver_version"] or "-", m["cuda_version"] or "-",
                       m["date"] or "-", s["launches"], s["match"],
                       s["explained"], s["mismatch"], r["exit"]))
    out.append("")
    for r in results:
        out.append("## %s" % os.path.basename(r["source"]))
        out.append("")
        out.append("`%s` (exit status %d)" % (r["command"], r["exit"]))
        out.append("")
        if "json" not in r:
            out.append("The comparison could not be made: %s" % r["error"])
            out.append("")
            continue
        j = r["json"]
        out.append("Measured on %s by %s (`%s`); simulated for %s." % (
            device_line(j["measurement"]), j["measurement"]["tool"],
            r["measured"], j["arch"]))
        out.append("")
        for w in j.get("warnings", []):
            out.append("Analyzer warning: %s" % cell(w))
            out.append("")
        for n in j.get("notes", []):
            out.append("Note: %s." % n)
            out.append("")
        render_overview(out, j["launches"])
        out.append("Each launch in full (rows whose prediction and "
                   "measurement are both 0 left out):")
        out.append("")
        for launch in j["launches"]:
            render_launch(out, launch)
        if j["unmeasured_launches"]:
            out.append("Host launches not measured:")
            out.append("")
            for u in j["unmeasured_launches"]:
                out.append("- `%s`<<<%s, %s>>>%s" % (
                    u["kernel"], dim(u["grid"]), dim(u["block"]),
                    " at `%s`" % u["loc"] if u.get("loc") else ""))
            out.append("")
    out += traffic_sections()
    return "\n".join(out).rstrip() + "\n"


def traffic_sections():
    """Issue 32's estimates, launch by launch: docs/TRAFFIC.md and
    docs/TRAFFIC_WARM.md (scripts/traffic_validation.py writes them), each
    copied in as a section, its headings one level down."""
    out = []
    for name, title in (
            ("TRAFFIC.md", "DRAM traffic, L2 sectors and duration, caches "
             "flushed"),
            ("TRAFFIC_WARM.md", "DRAM traffic, L2 sectors and duration, "
             "L2 warm")):
        path = os.path.join(ROOT, "docs", name)
        if not os.path.exists(path):
            continue
        out += ["## " + title, "",
                "Copied from `docs/%s` when this file was made "
                "(`scripts/traffic_validation.py` writes it)." % name, ""]
        for line in open(path).read().splitlines()[1:]:
            out.append("#" + line if line.startswith("#") else line)
        out.append("")
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--gmem-analyze", default=os.environ.get("GMEM_ANALYZE"))
    p.add_argument("--measured-dir",
                   default=os.path.join(ROOT, "tests", "data", "measured"))
    p.add_argument("--examples-dir", default=os.path.join(ROOT, "examples"))
    p.add_argument("--source-dir", action="append",
                   default=[],
                   help="where else to look for NAME.cu (after "
                        "--examples-dir)")
    p.add_argument("--output",
                   default=os.path.join(ROOT, "docs", "VALIDATION.md"))
    p.add_argument("--check", action="store_true")
    a = p.parse_args()

    analyzer = a.gmem_analyze or find_analyzer()
    if not analyzer or not os.access(analyzer, os.X_OK):
        print("make_validation: gmem-analyze not found; build it (cmake "
              "--build build --target gmem-analyze) or pass --gmem-analyze",
              file=sys.stderr)
        return 2
    analyzer = os.path.abspath(analyzer)
    if not os.path.isdir(a.measured_dir):
        print("make_validation: %s: no such directory; run "
              "scripts/measure_examples.sh on a GPU machine first"
              % a.measured_dir, file=sys.stderr)
        return 2
    names = sorted(f[:-5] for f in os.listdir(a.measured_dir)
                   if f.endswith(".json"))
    if not names:
        print("make_validation: no measurements in %s" % a.measured_dir,
              file=sys.stderr)
        return 2

    # The examples, and the seeds' ground-truth program beside the checkout.
    source_dirs = [a.examples_dir] + a.source_dir
    results, failed = [], False
    for name in names:
        measured = os.path.join(a.measured_dir, name + ".json")
        candidates = [os.path.join(d, name + ".cu") for d in source_dirs]
        source = next((c for c in candidates if os.path.exists(c)), None)
        if not source:
            print("make_validation: %s: no source %s.cu in %s" % (
                rel(measured), name, ", ".join(rel(d) for d in source_dirs)),
                file=sys.stderr)
            return 2
        r = compare(analyzer, source, measured)
        r["source"], r["measured"] = rel(source), rel(measured)
        if "error" in r:
            failed = True
            print("make_validation: %s: %s" % (name, r["error"]),
                  file=sys.stderr)
        results.append(r)

    text = render(results)
    if a.check:
        try:
            with open(a.output) as f:
                current = f.read()
        except OSError:
            current = None
        if current != text:
            print("make_validation: %s is not up to date; run "
                  "scripts/make_validation.py" % rel(a.output),
                  file=sys.stderr)
            return 1
        return 1 if failed else 0
    os.makedirs(os.path.dirname(os.path.abspath(a.output)), exist_ok=True)
    with open(a.output, "w") as f:
        f.write(text)
    print("make_validation: wrote %s (%d examples)" % (rel(a.output),
                                                       len(results)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
