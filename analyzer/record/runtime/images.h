//===- images.h - The bytes of the allocations a launch is given ----------===//
#ifndef GMEM_RECORD_RUNTIME_IMAGES_H
#define GMEM_RECORD_RUNTIME_IMAGES_H

#include <cstdint>
#include <string>
#include <vector>

namespace gmem::rec {

/// The bases of the allocations that pointer-sized arguments point into,
/// each once, in argument order. Called with the recorder's lock held.
std::vector<uintptr_t> argumentAllocations(void **Args,
                                           const std::vector<unsigned> &Sizes);

/// Saves the allocations at Bases as they are now (see images.cpp) and
/// returns the launch's log field `,"images":[[id,"file"],...]`, or "" when
/// GMEM_RECORD_MEMORY is not set. Called with the recorder's lock held.
std::string imagesField(const std::vector<uintptr_t> &Bases);

} // namespace gmem::rec

#endif // GMEM_RECORD_RUNTIME_IMAGES_H
