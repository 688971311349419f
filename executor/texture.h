//===- texture.h - Texture and surface objects as the executor reads them -===//
//
// A texture object is a view of memory (linear, pitched 2-D, or a CUDA
// array) with a sampler: address modes, filtering, read mode, normalized
// coordinates. A surface object is a view of an array that kernels read
// and write at byte coordinates. The recording runtime registers every
// object the program creates under its handle (GlobalMemory::Textures);
// tex, tld4, txq, suld, sust and suq (ops_texture.cpp) look the handle up
// and read or write the view's bytes, with their known bits, as loads and
// stores do.
//
// A CUDA array is laid out row after row and slice after slice (layers and
// cube faces are slices): the GPU's tiled layout only orders bytes that
// nothing but these instructions addresses.
//
// The enumerations keep the CUDA runtime's values, so the runtime copies
// its descriptors over as they are.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_EXECUTOR_TEXTURE_H
#define GMEM_EXECUTOR_TEXTURE_H

#include <cstdint>

namespace gmem::exec {

/// cudaChannelFormatKind's first three.
enum class ChannelKind : uint8_t { Signed = 0, Unsigned = 1, Float = 2 };
/// cudaTextureAddressMode.
enum class AddressMode : uint8_t {
  Wrap = 0,
  Clamp = 1,
  Mirror = 2,
  Border = 3
};

struct TextureView {
  enum ResourceKind : uint8_t { Linear, Pitch2D, Array } Resource = Linear;
  uint64_t Base = 0; ///< Address of texel (0, 0) of slice 0.
  /// Texels per row, rows, and slices (depth, layers or cube faces).
  uint64_t Width = 0, Height = 1, Depth = 1;
  uint64_t Pitch = 0,
           SlicePitch = 0; ///< Bytes from row to row, slice to slice.
  bool Layered = false, Cubemap = false;
  uint8_t Bits[4] = {0, 0, 0, 0}; ///< Per channel (x, y, z, w).
  ChannelKind Kind = ChannelKind::Float;
  /// A surface object: suld and sust only, no sampler.
  bool Surface = false;
  AddressMode Address[3] = {AddressMode::Wrap, AddressMode::Wrap,
                            AddressMode::Wrap};
  bool LinearFilter = false;
  bool NormalizedRead = false; ///< 8- and 16-bit integers read as [0, 1].
  bool NormalizedCoords = false;
  float Border[4] = {0, 0, 0, 0};

  unsigned channels() const {
    unsigned N = 0;
    while (N < 4 && Bits[N])
      ++N;
    return N;
  }
  unsigned texelBytes() const {
    return (unsigned(Bits[0]) + Bits[1] + Bits[2] + Bits[3]) / 8;
  }
  /// The bytes from Base to the end of the last texel.
  uint64_t extent() const {
    return (Depth - 1) * SlicePitch + (Height - 1) * Pitch +
           Width * texelBytes();
  }
};

} // namespace gmem::exec

#endif // GMEM_EXECUTOR_TEXTURE_H
