//===- tensor_map.h - The tensor maps TMA copies read ---------*- C++ -*-===//
//
// A CUtensorMap is 128 opaque bytes the driver encodes
// (cuTensorMapEncodeTiled) and the tensor memory accelerator reads. The
// recording runtime encodes it in this layout of gmem's own, which the
// executor decodes at each cp.async.bulk.tensor; a map made any other way
// (a real driver's) is not recognised and stops the copy.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_EXECUTOR_TENSOR_MAP_H
#define GMEM_EXECUTOR_TENSOR_MAP_H

#include <cstdint>
#include <optional>
#include <string>

namespace gmem::exec {

struct TensorMap {
  uint32_t Type = 0;      ///< CUtensorMapDataType.
  uint32_t ElemBytes = 0; ///< 0: a packed type the executor does not copy.
  uint32_t Rank = 0;
  uint32_t Interleave = 0, Swizzle = 0; ///< CUtensorMapInterleave, Swizzle.
  bool OobNan = false; ///< Elements outside the tensor read as NaN, not 0.
  uint64_t Address = 0;
  uint64_t Dims[5] = {1, 1, 1, 1, 1};
  uint64_t Strides[5] = {0, 0, 0, 0, 0}; ///< Bytes; Strides[0] the element.
  uint32_t Box[5] = {1, 1, 1, 1, 1};
  uint32_t ElemStrides[5] = {1, 1, 1, 1, 1};

  /// The swizzle's span in bytes (0: none).
  unsigned swizzleBytes() const {
    return Swizzle == 1 ? 32 : Swizzle == 2 ? 64 : Swizzle >= 3 ? 128 : 0;
  }
};

/// Bytes of an element of CUtensorMapDataType T (0 for packed types).
unsigned tensorElemBytes(uint32_t T);

/// Checks M as cuTensorMapEncodeTiled does (empty when valid, else why)
/// and writes its 128 bytes.
std::string encodeTensorMap(const TensorMap &M, uint8_t Out[128]);
/// The map whose 128 bytes are In, if gmem encoded them.
std::optional<TensorMap> decodeTensorMap(const uint8_t In[128]);

/// Where byte Off of a box lies in shared memory under swizzle span Bytes
/// (32, 64 or 128; 0 none): the 16-byte chunk bits of the address XORed
/// with bits 7 and up, as an H200 places them
/// (tests/data/programs/hopper/tma_wgmma.cu). Addr is the shared address.
inline uint64_t swizzleAddress(uint64_t Addr, unsigned Bytes) {
  const uint64_t Mask = Bytes == 128  ? 7
                        : Bytes == 64 ? 3
                        : Bytes == 32 ? 1
                                      : 0;
  return Addr ^ (((Addr >> 7) & Mask) << 4);
}

} // namespace gmem::exec

#endif // GMEM_EXECUTOR_TENSOR_MAP_H
