//===- boards.h - The GPUs the recording runtime can answer for -----------===//
//
// cudaGetDeviceProperties and cudaDeviceGetAttribute answer for one named
// board (gmem-analyze --gpu NAME); the default is a board of the --arch.
// Plain C++: the analyzer reads the same table.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_RECORD_RUNTIME_BOARDS_H
#define GMEM_RECORD_RUNTIME_BOARDS_H

#include <cstddef>
#include <string>

namespace gmem::rec {

struct Board {
  const char *Name; ///< As --gpu names it, e.g. "h100-sxm".
  const char *Product;
  int Major, Minor;
  int SMs, ThreadsPerSM, BlocksPerSM;
  size_t SmemPerSM, SmemOptin; ///< Bytes.
  int L2Bytes;
  size_t GlobalMem;
  int BusWidth;
  /// Boost clocks in kHz, as cudaDevAttrClockRate and
  /// cudaDevAttrMemoryClockRate give them (the vendors' spec sheets).
  int ClockKHz, MemClockKHz;
  /// The SM clock Nsight Compute locks the board to (its base clock): as
  /// measured for the H200 (tests/data/traffic), published for the others.
  int BaseClockKHz;
};

const Board *findBoard(const std::string &Name);
/// The board whose product name a device reports ("NVIDIA H200"), or null.
const Board *findBoardByProduct(const std::string &Product);
/// The board assumed for compute capability Major.Minor (null if none).
const Board *defaultBoard(int Major, int Minor);
/// "h100-sxm, a100-sxm, ...".
std::string boardNames();

} // namespace gmem::rec

#endif // GMEM_RECORD_RUNTIME_BOARDS_H
