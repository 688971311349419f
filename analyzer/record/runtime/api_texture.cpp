//===- api_texture.cpp - CUDA arrays, texture and surface objects ---------===//
//
// A CUDA array is host memory holding its texels row after row and slice
// after slice (layers and cube faces are slices); copies in and out of it
// move real bytes, and functional recording follows which of them are
// known, as for any allocation. Texture and surface objects are handles
// whose descriptors are handed to the executor (executor/texture.h), so
// that tex, tld4, suld and sust read and write these bytes as a GPU would.
// Arrays are not allocations kernels are given pointers to: the memory a
// launch may read through its pointers does not include them.
//
//===----------------------------------------------------------------------===//
#include "functional.h"
#include "recorder.h"

#include <cstring>
#include <memory>

using namespace gmem::rec;

namespace {

struct Array {
  std::unique_ptr<char[]> Bytes;
  size_t Width = 0, Height = 1, Depth = 1; ///< Texels, rows, slices.
  size_t Elem = 0;                         ///< Bytes per texel.
  cudaChannelFormatDesc Desc = {};
  unsigned Flags = 0;
  size_t row() const { return Width * Elem; }
  size_t size() const { return row() * Height * Depth; }
  char *at(size_t X, size_t Y, size_t Z) const {
    return Bytes.get() + (Z * Height + Y) * row() + X;
  }
};

Array *arrayOf(cudaArray_const_t A) {
  return reinterpret_cast<Array *>(const_cast<cudaArray *>(A));
}

cudaError_t makeArray(cudaArray_t *A, const cudaChannelFormatDesc *D,
                      size_t Width, size_t Height, size_t Depth,
                      unsigned Flags) {
  if (!A || !D || !Width)
    return fail(cudaErrorInvalidValue);
  auto *New = new Array();
  New->Width = Width;
  New->Height = Height ? Height : 1;
  New->Depth = Depth ? Depth : 1;
  New->Elem = size_t(D->x + D->y + D->z + D->w) / 8;
  New->Desc = *D;
  New->Flags = Flags;
  if (!New->Elem) {
    delete New;
    return fail(cudaErrorInvalidChannelDescriptor);
  }
  New->Bytes.reset(new char[New->size()]());
  allocated(New->Bytes.get(), New->size(), "device");
  recorder().Arrays.insert(New);
  *A = reinterpret_cast<cudaArray_t>(New);
  return cudaSuccess;
}

/// Copies Height rows of Width bytes, Depth times, telling functional
/// recording first (it runs the launches whose results the copy reads).
void copy3D(char *Dst, size_t DPitch, size_t DSlice, const char *Src,
            size_t SPitch, size_t SSlice, size_t Width, size_t Height,
            size_t Depth) {
  for (size_t Z = 0; Z < Depth; ++Z)
    for (size_t Y = 0; Y < Height; ++Y) {
      char *To = Dst + Z * DSlice + Y * DPitch;
      const char *From = Src + Z * SSlice + Y * SPitch;
      written(To, From, Width);
      std::memmove(To, From, Width);
    }
}

/// The descriptor's channels and kind, when the executor reads them.
bool describe(const cudaChannelFormatDesc &D, gmem::exec::TextureView &V) {
  const int Bits[4] = {D.x, D.y, D.z, D.w};
  for (int K = 0; K < 4; ++K) {
    if (Bits[K] != 0 && Bits[K] != 8 && Bits[K] != 16 && Bits[K] != 32)
      return false;
    V.Bits[K] = uint8_t(Bits[K]);
  }
  switch (D.f) {
  case cudaChannelFormatKindSigned:
    V.Kind = gmem::exec::ChannelKind::Signed;
    return true;
  case cudaChannelFormatKindUnsigned:
    V.Kind = gmem::exec::ChannelKind::Unsigned;
    return true;
  case cudaChannelFormatKindFloat:
    V.Kind = gmem::exec::ChannelKind::Float;
    return D.x == 16 || D.x == 32;
  default: // Block-compressed and video formats.
    return false;
  }
}

/// The view of a resource; false for one the executor does not read
/// (mipmapped arrays, unusual formats): its fetches are then unknown.
bool viewOf(const cudaResourceDesc &R, gmem::exec::TextureView &V) {
  using gmem::exec::TextureView;
  switch (R.resType) {
  case cudaResourceTypeArray: {
    const Array *A = arrayOf(R.res.array.array);
    if (!A || !describe(A->Desc, V))
      return false;
    V.Resource = TextureView::Array;
    V.Base = uintptr_t(A->Bytes.get());
    V.Width = A->Width;
    V.Height = A->Height;
    V.Depth = A->Depth;
    V.Pitch = A->row();
    V.SlicePitch = A->row() * A->Height;
    V.Layered = A->Flags & cudaArrayLayered;
    V.Cubemap = A->Flags & cudaArrayCubemap;
    return true;
  }
  case cudaResourceTypeLinear:
    if (!describe(R.res.linear.desc, V) || !V.texelBytes())
      return false;
    V.Resource = TextureView::Linear;
    V.Base = uintptr_t(R.res.linear.devPtr);
    V.Width = R.res.linear.sizeInBytes / V.texelBytes();
    V.Pitch = R.res.linear.sizeInBytes;
    return V.Width != 0;
  case cudaResourceTypePitch2D:
    if (!describe(R.res.pitch2D.desc, V))
      return false;
    V.Resource = TextureView::Pitch2D;
    V.Base = uintptr_t(R.res.pitch2D.devPtr);
    V.Width = R.res.pitch2D.width;
    V.Height = R.res.pitch2D.height;
    V.Pitch = R.res.pitch2D.pitchInBytes;
    return V.Width && V.Height;
  default:
    return false;
  }
}

uint64_t newHandle() {
  Recorder &R = recorder();
  std::lock_guard<std::mutex> G(R.Lock);
  return R.NextHandle++;
}

} // namespace

extern "C" {

cudaError_t cudaMallocArray(cudaArray_t *A, const cudaChannelFormatDesc *D,
                            size_t Width, size_t Height, unsigned Flags) {
  return makeArray(A, D, Width, Height, 1, Flags);
}

cudaError_t cudaMalloc3DArray(cudaArray_t *A, const cudaChannelFormatDesc *D,
                              cudaExtent E, unsigned Flags) {
  return makeArray(A, D, E.width, E.height, E.depth, Flags);
}

cudaError_t cudaFreeArray(cudaArray_t A) {
  if (Array *Arr = arrayOf(A)) {
    recorder().Arrays.erase(Arr);
    freed(Arr->Bytes.get(), [Arr] { delete Arr; });
  }
  return cudaSuccess;
}

cudaError_t cudaArrayGetInfo(cudaChannelFormatDesc *D, cudaExtent *E,
                             unsigned *Flags, cudaArray_t A) {
  const Array *Arr = arrayOf(A);
  if (!Arr)
    return fail(cudaErrorInvalidValue);
  if (D)
    *D = Arr->Desc;
  if (E)
    *E = cudaExtent{Arr->Width, Arr->Height, Arr->Depth};
  if (Flags)
    *Flags = Arr->Flags;
  return cudaSuccess;
}

cudaError_t cudaGetChannelDesc(cudaChannelFormatDesc *D, cudaArray_const_t A) {
  if (!D || !A)
    return fail(cudaErrorInvalidValue);
  *D = arrayOf(A)->Desc;
  return cudaSuccess;
}

cudaError_t cudaMemcpy2DToArray(cudaArray_t A, size_t WOffset, size_t HOffset,
                                const void *Src, size_t SPitch, size_t Width,
                                size_t Height, cudaMemcpyKind) {
  const Array *Arr = arrayOf(A);
  if (!Arr || WOffset + Width > Arr->row() || HOffset + Height > Arr->Height)
    return fail(cudaErrorInvalidValue);
  copy3D(Arr->at(WOffset, HOffset, 0), Arr->row(), 0,
         static_cast<const char *>(Src), SPitch, 0, Width, Height, 1);
  return cudaSuccess;
}

cudaError_t cudaMemcpy2DFromArray(void *Dst, size_t DPitch, cudaArray_const_t A,
                                  size_t WOffset, size_t HOffset, size_t Width,
                                  size_t Height, cudaMemcpyKind) {
  const Array *Arr = arrayOf(A);
  if (!Arr || WOffset + Width > Arr->row() || HOffset + Height > Arr->Height)
    return fail(cudaErrorInvalidValue);
  copy3D(static_cast<char *>(Dst), DPitch, 0, Arr->at(WOffset, HOffset, 0),
         Arr->row(), 0, Width, Height, 1);
  return cudaSuccess;
}

cudaError_t cudaMemcpy2DArrayToArray(cudaArray_t Dst, size_t WDst, size_t HDst,
                                     cudaArray_const_t Src, size_t WSrc,
                                     size_t HSrc, size_t Width, size_t Height,
                                     cudaMemcpyKind) {
  const Array *D = arrayOf(Dst), *S = arrayOf(Src);
  if (!D || !S || WDst + Width > D->row() || HDst + Height > D->Height ||
      WSrc + Width > S->row() || HSrc + Height > S->Height)
    return fail(cudaErrorInvalidValue);
  copy3D(D->at(WDst, HDst, 0), D->row(), 0, S->at(WSrc, HSrc, 0), S->row(), 0,
         Width, Height, 1);
  return cudaSuccess;
}

// The deprecated flat copies: Bytes from (WOffset, HOffset) on, row after
// row.
cudaError_t cudaMemcpyArrayToArray(cudaArray_t Dst, size_t WDst, size_t HDst,
                                   cudaArray_const_t Src, size_t WSrc,
                                   size_t HSrc, size_t Bytes, cudaMemcpyKind) {
  const Array *D = arrayOf(Dst), *S = arrayOf(Src);
  const size_t To = D ? HDst * D->row() + WDst : 0,
               From = S ? HSrc * S->row() + WSrc : 0;
  if (!D || !S || To + Bytes > D->size() || From + Bytes > S->size())
    return fail(cudaErrorInvalidValue);
  copy3D(D->Bytes.get() + To, 0, 0, S->Bytes.get() + From, 0, 0, Bytes, 1, 1);
  return cudaSuccess;
}
cudaError_t cudaMemcpyToArray(cudaArray_t A, size_t WOffset, size_t HOffset,
                              const void *Src, size_t Bytes, cudaMemcpyKind) {
  const Array *Arr = arrayOf(A);
  const size_t At = Arr ? HOffset * Arr->row() + WOffset : 0;
  if (!Arr || At + Bytes > Arr->size())
    return fail(cudaErrorInvalidValue);
  copy3D(Arr->Bytes.get() + At, 0, 0, static_cast<const char *>(Src), 0, 0,
         Bytes, 1, 1);
  return cudaSuccess;
}
cudaError_t cudaMemcpyFromArray(void *Dst, cudaArray_const_t A, size_t WOffset,
                                size_t HOffset, size_t Bytes, cudaMemcpyKind) {
  const Array *Arr = arrayOf(A);
  const size_t At = Arr ? HOffset * Arr->row() + WOffset : 0;
  if (!Arr || At + Bytes > Arr->size())
    return fail(cudaErrorInvalidValue);
  copy3D(static_cast<char *>(Dst), 0, 0, Arr->Bytes.get() + At, 0, 0, Bytes, 1,
         1);
  return cudaSuccess;
}

cudaError_t cudaMemcpy3D(const cudaMemcpy3DParms *P) {
  if (!P)
    return fail(cudaErrorInvalidValue);
  const Array *SA = arrayOf(P->srcArray), *DA = arrayOf(P->dstArray);
  // With an array on either side the width is in its texels.
  const size_t Elem = DA ? DA->Elem : SA ? SA->Elem : 1;
  const size_t W = P->extent.width * Elem, H = P->extent.height,
               D = P->extent.depth;
  if (!W || !H || !D)
    return cudaSuccess;
  auto side = [&](const Array *A, const cudaPitchedPtr &Ptr, const cudaPos &Pos,
                  char *&Base, size_t &Pitch, size_t &Slice) {
    if (A) {
      if (Pos.x * A->Elem + W > A->row() || Pos.y + H > A->Height ||
          Pos.z + D > A->Depth)
        return false;
      Base = A->at(Pos.x * A->Elem, Pos.y, Pos.z);
      Pitch = A->row();
      Slice = A->row() * A->Height;
      return true;
    }
    if (!Ptr.ptr || W > Ptr.pitch)
      return false;
    Pitch = Ptr.pitch;
    Slice = Ptr.pitch * (Ptr.ysize ? Ptr.ysize : H);
    Base = static_cast<char *>(Ptr.ptr) + Pos.z * Slice + Pos.y * Pitch + Pos.x;
    return true;
  };
  char *Dst = nullptr, *Src = nullptr;
  size_t DP = 0, DS = 0, SP = 0, SS = 0;
  if (!side(DA, P->dstPtr, P->dstPos, Dst, DP, DS) ||
      !side(SA, P->srcPtr, P->srcPos, Src, SP, SS))
    return fail(cudaErrorInvalidValue);
  copy3D(Dst, DP, DS, Src, SP, SS, W, H, D);
  return cudaSuccess;
}
cudaError_t cudaMemcpy3DAsync(const cudaMemcpy3DParms *P, cudaStream_t) {
  return cudaMemcpy3D(P);
}

cudaError_t cudaCreateTextureObject(cudaTextureObject_t *T,
                                    const cudaResourceDesc *Res,
                                    const cudaTextureDesc *Tex,
                                    const cudaResourceViewDesc *) {
  if (!T || !Res || !Tex)
    return fail(cudaErrorInvalidValue);
  *T = newHandle();
  gmem::exec::TextureView V;
  if (viewOf(*Res, V)) {
    for (int K = 0; K < 3; ++K)
      V.Address[K] = gmem::exec::AddressMode(Tex->addressMode[K] & 3);
    V.LinearFilter = Tex->filterMode == cudaFilterModeLinear;
    V.NormalizedRead = Tex->readMode == cudaReadModeNormalizedFloat;
    V.NormalizedCoords = Tex->normalizedCoords;
    for (int K = 0; K < 4; ++K)
      V.Border[K] = Tex->borderColor[K];
    textureMade(*T, V);
  }
  return cudaSuccess;
}
cudaError_t cudaDestroyTextureObject(cudaTextureObject_t T) {
  textureDestroyed(T);
  return cudaSuccess;
}
cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t *S,
                                    const cudaResourceDesc *Res) {
  if (!S || !Res)
    return fail(cudaErrorInvalidValue);
  *S = newHandle();
  gmem::exec::TextureView V;
  if (Res->resType == cudaResourceTypeArray && viewOf(*Res, V)) {
    V.Surface = true;
    textureMade(*S, V);
  }
  return cudaSuccess;
}
cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t S) {
  textureDestroyed(S);
  return cudaSuccess;
}

} // extern "C"
