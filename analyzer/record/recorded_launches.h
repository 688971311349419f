//===- recorded_launches.h - A recorded run as the launches to simulate ---===//
//
// Each recorded launch of a kernel the model has becomes a Launch: the
// configuration the program used, its arguments decoded by the kernel's
// parameter types, pointers as their allocation and exact offset. What the
// recording cannot vouch for is said in warnings: launches the runtime
// refused, kernels the model lacks, calls not answered, a program that
// stopped early, and launches made after the host read back memory a
// kernel may have written (a GPU's values would differ from the
// recorder's, and so might what the host does next).
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_ANALYZER_RECORD_RECORDED_LAUNCHES_H
#define GMEM_ANALYZER_RECORD_RECORDED_LAUNCHES_H

#include "model.h"
#include "record_run.h"
#include <map>
#include <string>
#include <vector>

namespace gmem {

struct RecordedLaunches {
  std::vector<Launch> Launches;
  std::vector<std::string> Warnings;
  /// The program crashed or ran past the time limit: how (an error).
  std::string Stopped;
  /// Kernels the analysed files do not define whose launches the recording
  /// ran and priced on their PTX (a library's own, as CUB's device-wide
  /// algorithms launch them): no model, a warning that says so, the name
  /// measurements give them. Their launches are among Launches.
  std::vector<Kernel> Library;
  /// The library calls that may run kernels (cuBLAS's GEMMs), by API.
  std::map<std::string, unsigned> LibraryCalls;
  /// Launches of analysed kernels the CUDA runtime refused.
  unsigned Refused = 0;
  /// Kernels whose launches were found by their demangled name: Clang's
  /// mangled name -> the binary's, which the caller gives the kernel so
  /// that its SASS is found.
  std::map<std::string, std::string> Renamed;
};

RecordedLaunches launchesFromRecording(const RecordedRun &Run,
                                       const std::vector<Kernel> &Kernels);

} // namespace gmem

#endif // GMEM_ANALYZER_RECORD_RECORDED_LAUNCHES_H
