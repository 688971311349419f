//===- importers.h - Read measured.json, ncu CSV, nvprof CSV and text -----===//
//
// Four sources, one shape (measurement.h):
//
// - gmem-verify's measured.json (schema 1, see measurement.h).
// - `ncu --csv` exports, the "details page" layout: one row per launch and
//   metric with the columns "ID", "Kernel Name", "Block Size", "Grid Size",
//   "Metric Name", "Metric Value" (and optionally "Metric Unit", "CC",
//   "Process Name"). Anything before the header line (program output,
//   ==PROF== lines) is skipped. One MeasuredLaunch per ID, in file order.
//   Values may carry thousands separators ("67,116,800"); a value "n/a"
//   leaves the metric out. Scaled units are brought back to base units:
//   K/M/G/T prefixes (Kbyte, Msector, Gbyte/second) multiply by powers of
//   1000 and times (usecond, msecond, second) become nanoseconds.
// - nvprof `--metrics ... --csv` logs: header "Device","Kernel",
//   "Invocations","Metric Name","Metric Description","Min","Max","Avg".
//   nvprof aggregates per kernel, so there is one MeasuredLaunch per kernel
//   (first appearance order) holding the "Avg" column. The log carries no
//   launch configuration: Grid and Block are {0, 0, 0} ("unknown").
//   Every metric is stored under its nvprof name; where Nsight Compute has
//   the same quantity it is stored under that name too (nvprofToNsight()).
//   Percentages ("12.50%") are stored as 12.5, like ncu's .pct metrics.
// - nvprof `--metrics ...` logs without --csv, the tables as nvprof prints
//   them: a header line "Invocations   Metric Name   Metric Description
//   Min   Max   Avg", then 'Device "Quadro P2000 (0)"', "Kernel: SIGNATURE"
//   and one row per metric, columns padded with spaces. The same content
//   as the CSV log and the same rules (one MeasuredLaunch per kernel, Avg,
//   nvprof and Nsight names); a row is read from both ends because the
//   description has spaces (nvprof_text.cpp). Lines before the header,
//   "==PID==" lines and program output are skipped, and so are event tables
//   ("Invocations   Event Name ...").
//
// Kernel names are normalised by kernelBaseName() so that the sources
// and the analyzer agree: "void sgemm_coalescing<32u>(int, ...)" becomes
// "sgemm_coalescing<32>".
//
// Errors are one line, "FILE[:LINE]: what is wrong"; the CLI prints them and
// exits with status 2.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_GPU_MEASURED_IMPORTERS_H
#define GMEM_GPU_MEASURED_IMPORTERS_H

#include "expected.h"
#include "measurement.h"
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace gmem {

/// A Measurement, or the Failure (one line naming the file, and the line
/// for CSV and text) that prevented it.
using ImportResult = Expected<Measurement>;

/// Reads Path as whichever of the four formats its content is: JSON when
/// it starts with '{', ncu CSV when a line starts with "ID", nvprof CSV when
/// a line starts with "Device","Kernel", nvprof text when a line starts
/// with "Invocations" and, after spaces, "Metric Name" (or "Event Name").
ImportResult readMeasurement(const std::string &Path);

ImportResult readMeasuredJson(const std::string &Path);
ImportResult readNcuCsv(const std::string &Path);
ImportResult readNvprofCsv(const std::string &Path);
ImportResult readNvprofText(const std::string &Path);

/// The same on text already in memory; Name stands for the file in errors.
ImportResult parseMeasurement(const std::string &Text, const std::string &Name);
ImportResult parseMeasuredJson(const std::string &Text,
                               const std::string &Name);
ImportResult parseNcuCsv(const std::string &Text, const std::string &Name);
ImportResult parseNvprofCsv(const std::string &Text, const std::string &Name);
ImportResult parseNvprofText(const std::string &Text, const std::string &Name);

/// The kernel name without return type, parameter list and integer-literal
/// suffixes in template arguments: "void k<32u, 4ul>(float *)" -> "k<32, 4>",
/// "naiveGmem(float *, float *, int, int)" -> "naiveGmem". Mangled names
/// ("_Z...") are demangled first.
std::string kernelBaseName(std::string_view Name);

/// The Nsight Compute name of an nvprof metric with the same meaning, if
/// there is one: gld_transactions -> l1tex__t_sectors_pipe_lsu_mem_global_
/// op_ld.sum, gld_transactions_per_request -> l1tex__average_t_sectors_per_
/// request_pipe_lsu_mem_global_op_ld.ratio, gld_efficiency -> smsp__sass_
/// average_data_bytes_per_sector_mem_global_op_ld.pct, and so on (the table
/// comes from the metric catalog, nvprof_names.cpp). Ratios map to
/// ratios and counts to counts.
std::optional<std::string> nvprofToNsight(std::string_view NvprofName);

/// Whether nvprof has a metric of this name on some architecture (those
/// gmem compares and those it does not predict, `nvprof --query-metrics`).
bool isNvprofMetricName(std::string_view Name);

} // namespace gmem

#endif // GMEM_GPU_MEASURED_IMPORTERS_H
