//===- tensor_map.cpp - The tensor maps TMA copies read -------------------===//
#include "tensor_map.h"

#include <cstring>

namespace gmem::exec {

namespace {
constexpr uint32_t Magic = 0x4d546d67; // "gmTM"

template <class T> void put(uint8_t *Out, size_t At, T V) {
  std::memcpy(Out + At, &V, sizeof V);
}
template <class T> T get(const uint8_t *In, size_t At) {
  T V;
  std::memcpy(&V, In + At, sizeof V);
  return V;
}
} // namespace

unsigned tensorElemBytes(uint32_t T) {
  switch (T) {
  case 0: // UINT8
    return 1;
  case 1: // UINT16
  case 6: // FLOAT16
  case 9: // BFLOAT16
    return 2;
  case 2:  // UINT32
  case 3:  // INT32
  case 7:  // FLOAT32
  case 10: // FLOAT32_FTZ
  case 11: // TFLOAT32
  case 12: // TFLOAT32_FTZ
    return 4;
  case 4: // UINT64
  case 5: // INT64
  case 8: // FLOAT64
    return 8;
  default: // 16U4_ALIGN8B, 16U4_ALIGN16B, 16U6_ALIGN16B: packed.
    return 0;
  }
}

// Layout: magic, then type, rank, interleave, swizzle, OOB fill (a byte
// each), box sizes - 1 and element strides - 1 (5 bytes each), the
// address, 5 dimensions and 4 strides (8 bytes each).
std::string encodeTensorMap(const TensorMap &M, uint8_t Out[128]) {
  const unsigned E = tensorElemBytes(M.Type);
  if (M.Type > 15)
    return "the data type is not a CUtensorMapDataType";
  if (M.Rank < 1 || M.Rank > 5 || (M.Interleave && M.Rank < 3))
    return "the rank must be 1 to 5 (3 to 5 interleaved)";
  if (M.Address % (M.Interleave == 2 ? 32 : 16))
    return "the global address must be 16-byte aligned (32 for 32-byte "
           "interleave)";
  for (unsigned I = 0; I < M.Rank; ++I) {
    if (!M.Dims[I] || M.Dims[I] > (uint64_t(1) << 32))
      return "a dimension must be 1 to 2^32";
    if (!M.Box[I] || M.Box[I] > 256)
      return "a box dimension must be 1 to 256";
    if (!M.ElemStrides[I] || M.ElemStrides[I] > 8)
      return "an element stride must be 1 to 8";
    if (I && (M.Strides[I] % 16 || M.Strides[I] >= (uint64_t(1) << 40)))
      return "a global stride must be a multiple of 16 below 2^40";
  }
  if (!M.Interleave && E && (M.Box[0] * E) % 16)
    return "the box's inner dimension must span a multiple of 16 bytes";
  if (!M.Interleave && E && M.swizzleBytes() && M.Box[0] * E > M.swizzleBytes())
    return "the box's inner dimension must not span more than the swizzle";
  std::memset(Out, 0, 128);
  put<uint32_t>(Out, 0, Magic);
  Out[4] = uint8_t(M.Type);
  Out[5] = uint8_t(M.Rank);
  Out[6] = uint8_t(M.Interleave);
  Out[7] = uint8_t(M.Swizzle);
  Out[8] = M.OobNan;
  for (unsigned I = 0; I < 5; ++I) {
    Out[10 + I] = uint8_t(M.Box[I] - 1);
    Out[15 + I] = uint8_t(M.ElemStrides[I] - 1);
  }
  put<uint64_t>(Out, 24, M.Address);
  for (unsigned I = 0; I < 5; ++I)
    put<uint64_t>(Out, 32 + 8 * I, M.Dims[I]);
  for (unsigned I = 1; I < 5; ++I)
    put<uint64_t>(Out, 72 + 8 * (I - 1), M.Strides[I]);
  return "";
}

std::optional<TensorMap> decodeTensorMap(const uint8_t In[128]) {
  if (get<uint32_t>(In, 0) != Magic)
    return std::nullopt;
  TensorMap M;
  M.Type = In[4];
  M.ElemBytes = tensorElemBytes(M.Type);
  M.Rank = In[5];
  M.Interleave = In[6];
  M.Swizzle = In[7];
  M.OobNan = In[8];
  for (unsigned I = 0; I < 5; ++I) {
    M.Box[I] = uint32_t(In[10 + I]) + 1;
    M.ElemStrides[I] = uint32_t(In[15 + I]) + 1;
  }
  M.Address = get<uint64_t>(In, 24);
  for (unsigned I = 0; I < 5; ++I)
    M.Dims[I] = get<uint64_t>(In, 32 + 8 * I);
  M.Strides[0] = M.ElemBytes;
  for (unsigned I = 1; I < 5; ++I)
    M.Strides[I] = get<uint64_t>(In, 72 + 8 * (I - 1));
  if (M.Rank < 1 || M.Rank > 5)
    return std::nullopt;
  return M;
}

} // namespace gmem::exec
