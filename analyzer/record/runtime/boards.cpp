//===- boards.cpp - The GPUs the recording runtime can answer for ---------===//
//
// Figures from the vendors' published specifications and the CUDA
// Programming Guide's table of compute capabilities (threads, blocks and
// shared memory per SM, opt-in shared memory per block). Global memory is
// the board's nominal size. The H200's row is what the board itself
// reported to Nsight Compute (device__attribute_*, tests/data/traffic),
// its base clock the SM clock Nsight Compute ran it at (median of the
// launches there); the others' base clocks are their published ones (the
// GTX 560 Ti's is its shader clock, as for the boost clock).
//
//===----------------------------------------------------------------------===//
#include "boards.h"

namespace gmem::rec {

static constexpr size_t KiB = 1024, GiB = KiB * KiB * KiB;

static const Board Boards[] = {
    // Name, product, cc, SMs, threads/SM, blocks/SM, smem/SM, opt-in,
    // L2, global memory, bus width, clock, memory clock and base clock (kHz).
    {"h100-sxm", "NVIDIA H100 80GB HBM3", 9, 0, 132, 2048, 32, 228 * KiB,
     227 * KiB, 50 << 20, 80 * GiB, 5120, 1980000, 2619000, 1590000},
    {"h200", "NVIDIA H200", 9, 0, 132, 2048, 32, 228 * KiB, 227 * KiB, 60 << 20,
     141 * GiB, 6016, 1980000, 3201000, 1500000},
    {"a100-sxm", "NVIDIA A100-SXM4-80GB", 8, 0, 108, 2048, 32, 164 * KiB,
     163 * KiB, 40 << 20, 80 * GiB, 5120, 1410000, 1593000, 1275000},
    {"rtx-3090", "NVIDIA GeForce RTX 3090", 8, 6, 82, 1536, 16, 100 * KiB,
     99 * KiB, 6 << 20, 24 * GiB, 384, 1695000, 9751000, 1395000},
    {"rtx-4090", "NVIDIA GeForce RTX 4090", 8, 9, 128, 1536, 24, 100 * KiB,
     99 * KiB, 72 << 20, 24 * GiB, 384, 2520000, 10501000, 2235000},
    {"t4", "Tesla T4", 7, 5, 40, 1024, 16, 64 * KiB, 64 * KiB, 4 << 20,
     16 * GiB, 256, 1590000, 5001000, 585000},
    {"v100-sxm", "Tesla V100-SXM2-16GB", 7, 0, 80, 2048, 32, 96 * KiB, 96 * KiB,
     6 << 20, 16 * GiB, 4096, 1530000, 877000, 1312000},
    {"p100", "Tesla P100-PCIE-16GB", 6, 0, 56, 2048, 32, 64 * KiB, 48 * KiB,
     4 << 20, 16 * GiB, 4096, 1328500, 715000, 1126000},
    {"quadro-p2000", "Quadro P2000", 6, 1, 8, 2048, 32, 96 * KiB, 48 * KiB,
     1280 * KiB, 5 * GiB, 160, 1480500, 3504000, 1076000},
    {"gtx-titan-x", "GeForce GTX TITAN X", 5, 2, 24, 2048, 32, 96 * KiB,
     48 * KiB, 3 << 20, 12 * GiB, 384, 1076000, 3505000, 1000000},
    {"gtx-750-ti", "GeForce GTX 750 Ti", 5, 0, 5, 2048, 32, 64 * KiB, 48 * KiB,
     2 << 20, 2 * GiB, 128, 1085000, 2700000, 1020000},
    // The seeds' older GPUs (Fermi's clock is its shader clock, as CUDA
    // reports it; the GTX 650 Ti has no boost clock).
    {"k40m", "Tesla K40m", 3, 5, 15, 2048, 16, 48 * KiB, 48 * KiB, 1536 * KiB,
     12 * GiB, 384, 875000, 3004000, 745000},
    {"gtx-650-ti", "GeForce GTX 650 Ti", 3, 0, 4, 2048, 16, 48 * KiB, 48 * KiB,
     256 * KiB, 1 * GiB, 128, 928000, 2700000, 928000},
    {"gtx-560-ti", "GeForce GTX 560 Ti", 2, 1, 8, 1536, 8, 48 * KiB, 48 * KiB,
     512 * KiB, 1 * GiB, 256, 1645000, 2004000, 1645000},
};

const Board *findBoard(const std::string &Name) {
  for (const Board &B : Boards)
    if (Name == B.Name)
      return &B;
  return nullptr;
}

const Board *findBoardByProduct(const std::string &Product) {
  for (const Board &B : Boards)
    if (Product == B.Product)
      return &B;
  return nullptr;
}

const Board *defaultBoard(int Major, int Minor) {
  for (const Board &B : Boards) // The first of each capability.
    if (B.Major == Major && B.Minor == Minor)
      return &B;
  return nullptr;
}

std::string boardNames() {
  std::string S;
  for (const Board &B : Boards)
    S += (S.empty() ? "" : ", ") + std::string(B.Name);
  return S;
}

} // namespace gmem::rec
