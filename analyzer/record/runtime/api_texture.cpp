//===- api_texture.cpp - CUDA arrays, texture and surface objects ---------===//
//
// Texture fetches and surface accesses run on the texture pipe, which gmem
// names and does not count (their kernels' other accesses are counted), so
// the objects need only be handles. CUDA arrays are host memory holding
// their elements row after row; copies in and out of them move real bytes.
// They are not allocations kernels are given pointers to, so the memory a
// launch may read does not include them.
//
//===----------------------------------------------------------------------===//
#include "recorder.h"

#include <cstring>

using namespace gmem::rec;

namespace {

struct Array {
  std::vector<char> Bytes;
  size_t Width = 0, Height = 1, Elem = 0; ///< Elements; rows; element bytes.
};

cudaError_t copy2D(char *Dst, size_t DPitch, const char *Src, size_t SPitch,
                   size_t Width, size_t Height) {
  for (size_t Row = 0; Row < Height; ++Row)
    std::memcpy(Dst + Row * DPitch, Src + Row * SPitch, Width);
  return cudaSuccess;
}

} // namespace

extern "C" {

cudaError_t cudaMallocArray(cudaArray_t *A, const cudaChannelFormatDesc *D,
                            size_t Width, size_t Height, unsigned) {
  if (!A || !D || !Width)
    return fail(cudaErrorInvalidValue);
  auto *New = new Array();
  New->Width = Width;
  New->Height = Height ? Height : 1;
  New->Elem = size_t(D->x + D->y + D->z + D->w) / 8;
  New->Bytes.assign(New->Width * New->Height * New->Elem, 0);
  *A = reinterpret_cast<cudaArray_t>(New);
  return cudaSuccess;
}

cudaError_t cudaFreeArray(cudaArray_t A) {
  delete reinterpret_cast<Array *>(A);
  return cudaSuccess;
}

cudaError_t cudaMemcpy2DToArray(cudaArray_t A, size_t WOffset, size_t HOffset,
                                const void *Src, size_t SPitch, size_t Width,
                                size_t Height, cudaMemcpyKind) {
  auto *Arr = reinterpret_cast<Array *>(A);
  const size_t Row = Arr->Width * Arr->Elem;
  if (WOffset + Width > Row || HOffset + Height > Arr->Height)
    return fail(cudaErrorInvalidValue);
  return copy2D(Arr->Bytes.data() + HOffset * Row + WOffset, Row,
                static_cast<const char *>(Src), SPitch, Width, Height);
}

cudaError_t cudaMemcpy2DFromArray(void *Dst, size_t DPitch, cudaArray_const_t A,
                                  size_t WOffset, size_t HOffset, size_t Width,
                                  size_t Height, cudaMemcpyKind) {
  const auto *Arr = reinterpret_cast<const Array *>(A);
  const size_t Row = Arr->Width * Arr->Elem;
  if (WOffset + Width > Row || HOffset + Height > Arr->Height)
    return fail(cudaErrorInvalidValue);
  return copy2D(static_cast<char *>(Dst), DPitch,
                Arr->Bytes.data() + HOffset * Row + WOffset, Row, Width,
                Height);
}

cudaError_t cudaCreateTextureObject(cudaTextureObject_t *T,
                                    const cudaResourceDesc *,
                                    const cudaTextureDesc *,
                                    const cudaResourceViewDesc *) {
  Recorder &R = recorder();
  std::lock_guard<std::mutex> G(R.Lock);
  *T = R.NextHandle++;
  return cudaSuccess;
}
cudaError_t cudaDestroyTextureObject(cudaTextureObject_t) {
  return cudaSuccess;
}
cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t *S,
                                    const cudaResourceDesc *) {
  Recorder &R = recorder();
  std::lock_guard<std::mutex> G(R.Lock);
  *S = R.NextHandle++;
  return cudaSuccess;
}
cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t) {
  return cudaSuccess;
}

} // extern "C"
