//===- measurement.h - What a GPU measured, from any source ---------------===//
//
// One shape for measurements whatever produced them: gmem-verify's
// measured.json, an `ncu --csv` export or an nvprof `--metrics` log (CSV or
// text). Metric names are Nsight Compute's; nvprof's are kept too, and
// translated where Nsight Compute has the same quantity.
//
// measured.json (schema 1), as gmem-verify writes it:
//   {"schema": 1, "tool": "gmem-verify",
//    "device": {"name", "compute_capability": "9.0", "driver_version",
//               "cuda_version"},
//    "date": "2026-11-21T10:00:00Z", "program": ["./a.out", "arg"...],
//    "launches": [{
//       "index": 0,                       // launch order in the program
//       "kernel": "sgemm_coalescing<32>", // demangled, no parameter list
//       "demangled": "void sgemm_coalescing<32u>(int, ...)",
//       "mangled": "_Z16sgemm_coalescingILj32EEviiifPKfS1_fPf",
//       "grid": [32, 32, 1], "block": [1024, 1, 1], "dynamic_smem": 0,
//       "args": [{"type": "int", "size": 4, "value": 1024},
//                {"type": "const float*", "size": 8, "align_offset": 0},
//                {"type": "float", "size": 4, "float": 1.0}],
//       "metrics": {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum": 524288,
//                   ...},
//       "lines": [{"file": "transpose.cu", "line": 21, "inst_executed": 8,
//                  "sectors": 32, "sectors_ideal": 8,
//                  "wavefronts": 0, "wavefronts_ideal": 0}]}]}
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_GPU_MEASURED_MEASUREMENT_H
#define GMEM_GPU_MEASURED_MEASUREMENT_H

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gmem {

constexpr int MeasuredSchemaVersion = 1;

struct MeasuredArg {
  std::string Type; ///< From the demangled signature, e.g. "float*".
  unsigned Size = 0;
  std::optional<int64_t> Value;        ///< Integer scalars.
  std::optional<double> FloatValue;    ///< Floating scalars.
  std::optional<uint64_t> AlignOffset; ///< Pointers: address % 256.
};

/// Per source line, summed over the SASS instructions mapped to it.
struct MeasuredLine {
  std::string File;
  unsigned Line = 0;
  uint64_t InstExecuted = 0;
  uint64_t Sectors = 0, SectorsIdeal = 0;
  uint64_t Wavefronts = 0, WavefrontsIdeal = 0;
};

struct MeasuredLaunch {
  unsigned Index = 0;
  std::string Kernel;    ///< Demangled name without parameters.
  std::string Demangled; ///< Full demangled signature when known.
  std::string Mangled;
  std::array<uint64_t, 3> Grid{1, 1, 1}, Block{1, 1, 1};
  uint64_t DynamicSmem = 0;
  std::vector<MeasuredArg> Args; ///< Empty when the source has none (ncu).
  std::map<std::string, double> Metrics; ///< Nsight (and nvprof) names.
  /// Where a CSV or text log has each metric (as named there), for errors.
  std::map<std::string, unsigned> MetricLines;
  std::vector<MeasuredLine> Lines;
  /// Its counters were taken with kernel replay (the kernel run once per
  /// pass, its memory restored between them, the device heap not), as
  /// Nsight Compute and gmem-verify do by default; false under
  /// gmem-verify --no-replay (one pass per run of the program).
  bool KernelReplay = true;
};

struct Measurement {
  /// "gmem-verify", "ncu-csv", "nvprof-csv" or "nvprof-text".
  std::string Tool;
  std::string Device, ComputeCapability, DriverVersion, CudaVersion, Date;
  std::vector<std::string> Program;
  std::vector<MeasuredLaunch> Launches;
  /// gmem-verify: how many times the program launched a CUDA graph. The
  /// kernels a graph runs are not measured (gmem-verify profiles launches
  /// at the launch API's callbacks), and launches captured into a graph
  /// run nothing: neither is in Launches.
  uint64_t GraphLaunches = 0;
  /// gmem-verify --no-replay: each counter run took one pass, so no kernel
  /// was replayed (MeasuredLaunch::KernelReplay).
  bool KernelReplay = true;
  /// What the reader changed, e.g. a metric name restored.
  std::vector<std::string> Notes;
};

} // namespace gmem

#endif // GMEM_GPU_MEASURED_MEASUREMENT_H
