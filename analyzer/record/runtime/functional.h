//===- functional.h - Kernels run on their PTX while the program records ----===//
//
// Functional recording: when gmem-analyze passes the build's PTX
// (GMEM_RECORD_PTX), every launch runs on the executor (executor/) at the
// moment it is made, over the program's own buffers, so that device memory
// holds what a GPU computes: the host's checks of results pass, loops that
// run until a kernel says it converged run as often as on a GPU, and later
// launches see the data earlier ones wrote. Each launch's requests are
// priced as they run (GMEM_RECORD_ARCH's rules) and logged as an "exec"
// event after its "launch" line.
//
// Which bytes are known is tracked per allocation: a cudaMalloc'd buffer is
// unknown until the host copies or sets it; a kernel's store of a known
// value makes bytes known; a library call that may launch kernels, a launch
// not run (over the budget, stopped) makes every buffer it may have written
// unknown. Loads of unknown bytes give values the executor marks unknown.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_RECORD_RUNTIME_FUNCTIONAL_H
#define GMEM_RECORD_RUNTIME_FUNCTIONAL_H

#include "texture.h"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace gmem::rec {

/// Whether launches are executed (the build's PTX was given).
bool functional();

/// A launch to execute: its kernel's device name, configuration and
/// parameter bytes as the PTX lays them out.
struct FunctionalLaunch {
  std::string Kernel;
  dim3 Grid, Block;
  size_t Smem = 0;
  bool Cooperative = false;
  std::vector<uint8_t> Params;
  /// The allocations its pointer arguments point into: all it touches when
  /// it may wait (its model reads no pointer from memory).
  std::vector<uintptr_t> Touches;
  bool TouchesKnown = false; ///< The recorder knew its parameters' sizes.
};

/// The sizes of Kernel's parameters as its PTX declares them, when it has
/// PTX (functional recording): for a kernel the analyzer did not size
/// (its mangled name is not Clang's).
bool ptxParamSizes(const std::string &Kernel, std::vector<unsigned> &Out);

/// Lays out the arguments of a launch of Kernel (Args as the runtime gets
/// them) by its PTX's parameters; false when the PTX has no such kernel.
bool layoutParams(const std::string &Kernel, void **Args,
                  std::vector<uint8_t> &Out);

/// Runs launch number N (already logged), logs its "exec" event and prints
/// what its printf calls wrote; or, for a kernel gmem-analyze can price
/// without its results, keeps it until device memory is observed (then
/// settle() runs it). Called with the recorder's lock held.
void execute(uint64_t N, const FunctionalLaunch &L);
/// Whether execute() keeps L rather than running it.
bool waits(const FunctionalLaunch &L);
/// Runs the launches kept, in order: the host is about to read or change
/// device memory (a library call, a symbol's copy).
void settle();
/// Runs the launches kept up to the last that touches the allocation
/// holding P: the host is about to read or change it (a copy, a memset, a
/// free).
void settle(const void *P);
/// Whether no launch kept touches the allocation at Base (so its bytes
/// are what a GPU holds).
bool settled(uintptr_t Base);

// What the runtime tells about memory, to follow which bytes are known.
void allocated(void *P, size_t Bytes, const char *Kind);
/// The allocation at P is freed (after the launches kept that use it have
/// run); Release gives its memory back.
void freed(void *P, const std::function<void()> &Release);
/// Bytes at Dst were written from Src (the host's when it lies in no
/// allocation, or an allocation's, whose known bytes carry over).
void written(void *Dst, const void *Src, size_t Bytes);
/// Bytes at Dst were set by the host (memset).
void set(void *Dst, size_t Bytes);
/// Whether a memset of the whole allocation at P to Value leaves its bytes
/// as they are: the last memset set it all to Value and nothing wrote it
/// since (a benchmark's L2 flush before every launch: llm.c's, 50 MB 6000
/// times). Runs the launches kept that touch it first.
bool refills(void *P, int Value, size_t Bytes);
/// A memset set Bytes at P to Value (after set()).
void filled(void *P, int Value, size_t Bytes);
/// A __device__ or __constant__ variable's host copy, by device name.
void variable(const char *DeviceName, void *Host, size_t Bytes);
/// A texture or surface object the program made (its handle and view), or
/// destroyed.
void textureMade(uint64_t Handle, const exec::TextureView &V);
void textureDestroyed(uint64_t Handle);
/// A library call that may have run kernels: no device byte is known.
void forgetAll(const std::string &Why);
/// Whether every byte of the allocation at Base is known.
bool allKnown(uintptr_t Base);

// A library call gmem computes on the host (libraries/cublas_gemm.cpp).
/// Whether execution budget is left for it (recording is functional).
bool budgetLeft();
/// Charges Seconds of its work to the execution budget.
void spend(double Seconds);
/// Whether the Bytes at P lie in one device allocation, all known.
bool knownRange(const void *P, size_t Bytes);
/// Whether the Bytes at P lie in one device allocation.
bool deviceRange(const void *P, size_t Bytes);
/// It wrote the Bytes at Dst (in one allocation), from known inputs or not.
void computed(void *Dst, size_t Bytes, bool Known);

} // namespace gmem::rec

#endif // GMEM_RECORD_RUNTIME_FUNCTIONAL_H
