//===- nvprof_names.h - What nvprof's CSV and text tables share -----------===//
//
// Internal to the nvprof importers (nvprof_csv.cpp, nvprof_text.cpp): how
// nvprof prints a value and a device, how a kernel it names becomes a
// MeasuredLaunch, and under which names a metric is stored.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_GPU_MEASURED_NVPROF_NAMES_H
#define GMEM_GPU_MEASURED_NVPROF_NAMES_H

#include "csv.h"
#include "measurement.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gmem {
namespace nvprof {

/// A value as nvprof prints it: a number ("16.000004"), a percentage
/// ("12.50%", stored as 12.5), a throughput with its unit ("157.16GB/s",
/// returned in bytes per second) or a utilization level ("Low (1)", its
/// number). Nothing for anything else.
std::optional<double> parseValue(std::string_view Text);

/// "Quadro P2000 (0)" -> "Quadro P2000" (nvprof appends the device index).
std::string deviceName(std::string_view Field);

/// The compute capability ("6.1") of a device nvprof names, for the GPUs
/// of the seeds and of the public nvprof tables docs/ARCHITECTURES.md cites
/// (nvprof logs no capability); empty for any other name.
std::string computeCapability(std::string_view Device);

/// The launch nvprof's aggregate for the kernel Demangled stands for:
/// Index, the names (kernelBaseName; Mangled when Demangled is mangled) and
/// the unknown launch configuration ({0, 0, 0}: nvprof logs none).
MeasuredLaunch launchFor(const std::string &Demangled, unsigned Index);

/// A metric name copied without its underscores ("shared efficiency", as
/// seed 002's copy of nvprof's table has it) as nvprof names it, when the
/// words joined by underscores are an nvprof metric; else Metric itself.
std::string restoredName(const std::string &Metric);

/// Stores Value in M's launch Launch under the nvprof name Metric (restored,
/// with a note, when its underscores were lost) and, where Nsight Compute
/// has the same quantity (nvprofToNsight()), under that name too; Line is
/// where the log has it.
void addMetric(Measurement &M, size_t Launch, const std::string &Metric,
               double Value, unsigned Line);

/// What a line of nvprof's plain-text output is as a table header:
/// "Invocations", spaces, then "Metric Name" (a metric table) or "Event
/// Name" (an event table); leading spaces are allowed.
enum class TextHeader { None, Metric, Event };
TextHeader textHeader(std::string_view Line);

/// A header whose columns were wrapped onto lines of their own (a copy of
/// a narrow terminal): line I reads "Invocations" alone and the next
/// non-blank line "Metric Name" or "Event Name" alone.
bool isWrappedTextHeader(const std::vector<csv::Line> &Lines, size_t I);

} // namespace nvprof
} // namespace gmem

#endif // GMEM_GPU_MEASURED_NVPROF_NAMES_H
