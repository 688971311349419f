//===- ops_texture.cpp - tex, tld4, txq, suld, sust, suq
//-------------------===//
//
// Texture fetches sample a texture object (texture.h) by the rules of the
// CUDA Programming Guide's "Texture Fetching" appendix: normalized
// coordinates scaled by the texel count; each dimension addressed by the
// sampler's mode (wrap and mirror only with normalized coordinates, clamp
// otherwise; border gives the border colour); point sampling takes the
// texel below, linear filtering weighs the neighbours with 8-bit fractional
// weights. Surface instructions read and write an array's texels at byte
// coordinates, in their boundary mode (trap, clamp, zero).
//
// Both run on the texture pipe, not the load/store unit, so they make no
// request: the GPU's global load and store counters do not see them.
// A value is known where the handle, the coordinates and every byte read
// are; a handle no object of the run has reads as unknown.
//
//===----------------------------------------------------------------------===//
#include "decode.h"
#include "float_bits.h"
#include "lanes.h"
#include "launch.h"

#include <cmath>

namespace gmem::exec {

namespace {

/// Geometries (XInstr::Sub).
enum Geo : uint8_t { G1d, G2d, G3d, GA1d, GA2d, GCube, GACube };
/// Result types of tex and tld4 (XInstr::Width).
enum TexType : uint8_t { TF32, TS32, TU32 };
/// Surface boundary modes (XInstr::Flags).
enum Bound : uint8_t { BTrap, BClamp, BZero };

unsigned dimsOf(uint8_t G) {
  return G == G3d ? 3 : (G == G1d || G == GA1d) ? 1 : 2;
}
bool layeredGeo(uint8_t G) { return G == GA1d || G == GA2d || G == GACube; }

/// The view of lane L's handle and the region holding its texels, or null
/// (the handle is unknown, or no object of the run has it).
struct Lookup {
  const TextureView *T = nullptr;
  Region *R = nullptr;
  uint64_t Off = 0; ///< Of Base in R.
};

Lookup lookup(Ctx &C, uint64_t Handle, bool Known) {
  Lookup Lk;
  if (!Known)
    return Lk;
  auto It = C.L->Mem.Textures.find(Handle);
  if (It == C.L->Mem.Textures.end())
    return Lk;
  Lk.T = &It->second;
  const uint64_t N = Lk.T->extent();
  Lk.R = C.L->Mem.find(Lk.T->Base, 1);
  if (Lk.R && Lk.T->Base + N - Lk.R->Base > Lk.R->Size)
    Lk.R = nullptr;
  if (Lk.R)
    Lk.Off = Lk.T->Base - Lk.R->Base;
  return Lk;
}

/// Reads texels of one view, noting whether every byte read was known.
struct Texels {
  const Lookup &Lk;
  bool Known = true;

  const uint8_t *at(uint64_t I, uint64_t J, uint64_t S) {
    const TextureView &T = *Lk.T;
    const unsigned N = T.texelBytes();
    const uint64_t O = Lk.Off + S * T.SlicePitch + J * T.Pitch + I * N;
    if (!Lk.R->AllKnown && !Lk.R->Known->all(O, N))
      Known = false;
    return Lk.R->Data + O;
  }
  uint32_t raw(const uint8_t *P, unsigned Ch) const {
    unsigned Off = 0;
    for (unsigned K = 0; K < Ch; ++K)
      Off += Lk.T->Bits[K] / 8u;
    uint32_t V = 0;
    std::memcpy(&V, P + Off, Lk.T->Bits[Ch] / 8u);
    return V;
  }
  /// Channel Ch as a float result (missing channels read 0, alpha too: as
  /// measured).
  float real(const uint8_t *P, unsigned Ch) const {
    const TextureView &T = *Lk.T;
    if (Ch >= T.channels())
      return 0.0f;
    const unsigned B = T.Bits[Ch];
    const uint32_t V = raw(P, Ch);
    switch (T.Kind) {
    case ChannelKind::Float:
      return B == 16 ? float(halfToDouble(V)) : asFloat(V);
    case ChannelKind::Unsigned:
      return T.NormalizedRead && B < 32
                 ? float(double(V) / double((uint64_t(1) << B) - 1))
                 : float(V);
    case ChannelKind::Signed: {
      const int64_t S = int64_t(uint64_t(V) << (64 - B)) >> (64 - B);
      if (T.NormalizedRead && B < 32)
        return std::max(-1.0f,
                        float(double(S) / double((int64_t(1) << (B - 1)) - 1)));
      return float(S);
    }
    }
    return 0.0f;
  }
  /// Channel Ch as an integer result.
  uint32_t integer(const uint8_t *P, unsigned Ch) const {
    const TextureView &T = *Lk.T;
    if (Ch >= T.channels())
      return 0;
    const unsigned B = T.Bits[Ch];
    const uint32_t V = raw(P, Ch);
    if (T.Kind == ChannelKind::Signed && B < 32)
      return uint32_t(int32_t(V << (32 - B)) >> (32 - B));
    return V;
  }
};

/// Index I of a dimension of N texels by mode M; -1: the border colour.
int64_t addressed(int64_t I, uint64_t N, AddressMode M, bool Normalized) {
  const int64_t Sn = int64_t(N);
  if (I >= 0 && I < Sn)
    return I;
  if (!Normalized && (M == AddressMode::Wrap || M == AddressMode::Mirror))
    M = AddressMode::Clamp;
  switch (M) {
  case AddressMode::Border:
    return -1;
  case AddressMode::Wrap:
    return ((I % Sn) + Sn) % Sn;
  case AddressMode::Mirror: {
    const int64_t P = ((I % (2 * Sn)) + 2 * Sn) % (2 * Sn);
    return P < Sn ? P : 2 * Sn - 1 - P;
  }
  default:
    return I < 0 ? 0 : Sn - 1;
  }
}

/// A coordinate in texels: the texel below it (for linear filtering, below
/// it less half a texel) and the upper neighbour's weight in 256ths. The
/// coordinate is rounded to 8 fractional bits, to nearest (measured on an
/// H200: a weight of 3.85/256 counts 4).
struct Axis {
  int64_t I = 0;
  uint32_t A = 0;
};
/// V rounded to the nearest integer, ties to even, for |V| < 2^51: adding
/// and taking away 1.5 * 2^52 leaves no fraction bits (the default
/// rounding mode rounds). std::nearbyint is a library call here: perf put
/// a sixth of a filtering kernel's fetch samples on it.
double roundEven(double V) {
  volatile double Magic = 6755399441055744.0; // Not folded away.
  return (V + Magic) - Magic;
}

Axis axisOf(float U, bool Linear) {
  // Far outside any texture: the address mode decides alike.
  U = std::isnan(U) ? 0.0f : std::min(std::max(U, -1e12f), 1e12f);
  Axis X;
  if (!Linear) {
    // floor(U), exact: every float beyond 2^24 is an integer.
    X.I = int64_t(U);
    X.I -= float(X.I) > U;
    return X;
  }
  const int64_t F = int64_t(roundEven(double(U) * 256)) - 128;
  X.I = F >> 8;
  X.A = uint32_t(F & 255);
  return X;
}

/// The face of a cube map a direction hits, and its coordinates on it in
/// [0, 1] (the Guide's table of faces).
unsigned cubeFace(float X, float Y, float Z, float &S, float &T) {
  const float AX = std::fabs(X), AY = std::fabs(Y), AZ = std::fabs(Z);
  float M, Sc, Tc;
  unsigned F;
  // On a tie z wins, then y (measured on an H200: (-1, -1, -1) is face 5).
  if (AZ >= AX && AZ >= AY) {
    M = AZ, F = Z >= 0 ? 4 : 5, Sc = Z >= 0 ? X : -X, Tc = -Y;
  } else if (AY >= AX) {
    M = AY, F = Y >= 0 ? 2 : 3, Sc = X, Tc = Y >= 0 ? Z : -Z;
  } else {
    M = AX, F = X >= 0 ? 0 : 1, Sc = X >= 0 ? -Z : Z, Tc = -Y;
  }
  S = (Sc / M + 1) * 0.5f;
  T = (Tc / M + 1) * 0.5f;
  return F;
}

/// One lane's fetch: sample (Gather < 0) or gather channel Gather.
/// Out gets four results' bits; returns whether they are known.
bool fetch(const Lookup &Lk, uint8_t G, const uint32_t *Co, bool FloatCo,
           uint8_t Type, int Gather, uint32_t Out[4]) {
  const TextureView &T = *Lk.T;
  if (!Lk.R || T.Surface || !T.Width)
    return false;
  Texels Tx{Lk};
  // Coordinates in texels per dimension, and the slice.
  const unsigned Dims = dimsOf(G);
  const uint64_t Sizes[3] = {T.Width, T.Height, T.Depth};
  float U[3] = {0, 0, 0};
  int64_t Ui[3] = {0, 0, 0};
  uint64_t Slice = 0;
  unsigned C0 = 0;
  bool Norm = T.NormalizedCoords;
  AddressMode Modes[3] = {T.Address[0], T.Address[1], T.Address[2]};
  if (layeredGeo(G)) {
    const uint64_t Layers = G == GACube ? T.Depth / 6 : T.Depth;
    Slice = std::min<uint64_t>(Co[0], Layers ? Layers - 1 : 0);
    C0 = 1;
  }
  if (G == GCube || G == GACube) {
    float S, Tt;
    const unsigned F = cubeFace(asFloat(Co[C0]), asFloat(Co[C0 + 1]),
                                asFloat(Co[C0 + 2]), S, Tt);
    Slice = Slice * 6 + F;
    U[0] = S * float(T.Width);
    U[1] = Tt * float(T.Height);
    Norm = true;
    Modes[0] = Modes[1] = AddressMode::Clamp;
  } else {
    for (unsigned D = 0; D < Dims; ++D) {
      if (FloatCo) {
        const float V = asFloat(Co[C0 + D]);
        U[D] = Norm ? V * float(Sizes[D]) : V;
      } else {
        Ui[D] = int32_t(Co[C0 + D]);
      }
    }
  }
  const bool Int = !FloatCo && G != GCube && G != GACube;
  if (T.Resource == TextureView::Linear && Int && Gather < 0) {
    // tex1Dfetch: no sampler; outside the buffer, zeros.
    if (Ui[0] < 0 || uint64_t(Ui[0]) >= T.Width) {
      for (unsigned Ch = 0; Ch < 4; ++Ch)
        Out[Ch] = 0;
      return true;
    }
  }
  const bool Lin = (T.LinearFilter && !Int && Type == TF32) || Gather >= 0;
  Axis Ax[3];
  for (unsigned D = 0; D < 3; ++D) {
    if (D >= Dims)
      Ax[D] = Axis{0, 0};
    else if (Int)
      Ax[D] = Axis{Ui[D], 0};
    else
      Ax[D] = axisOf(U[D], Lin);
  }
  if (G != G3d)
    Ax[2] = Axis{int64_t(Slice), 0};
  // The texel of a corner, or null for the border colour (the slice of a
  // layered or cube texture is not addressed: it was clamped above).
  auto corner = [&](unsigned Bitsel) -> const uint8_t * {
    int64_t Idx[3];
    for (unsigned D = 0; D < 3; ++D) {
      int64_t I = Ax[D].I + int64_t(Bitsel >> D & 1);
      if (D < Dims)
        I = addressed(I, Sizes[D], Modes[D], Norm);
      if (I < 0)
        return nullptr;
      Idx[D] = I;
    }
    return Tx.at(uint64_t(Idx[0]), uint64_t(Idx[1]), uint64_t(Idx[2]));
  };
  // Channels the format lacks read 0 (no call for them: most textures
  // have one channel, and the four are asked for on every fetch).
  const unsigned NCh = T.channels();
  auto borderOr = [&](const uint8_t *P, unsigned Ch) {
    return P ? (Ch < NCh ? Tx.real(P, Ch) : 0.0f) : T.Border[Ch];
  };
  if (Gather >= 0) {
    // (i, j+1), (i+1, j+1), (i+1, j), (i, j).
    static const unsigned Order[4] = {2, 3, 1, 0};
    for (unsigned K = 0; K < 4; ++K)
      Out[K] =
          uint32_t(put<float>(borderOr(corner(Order[K]), unsigned(Gather))));
    return Tx.Known;
  }
  if (!Lin) {
    const uint8_t *P = corner(0);
    for (unsigned Ch = 0; Ch < 4; ++Ch) {
      if (Type == TF32)
        Out[Ch] = uint32_t(put<float>(borderOr(P, Ch)));
      else
        Out[Ch] = P ? (Ch < NCh ? Tx.integer(P, Ch) : 0)
                    : uint32_t(put<float>(T.Border[Ch]));
    }
    return Tx.Known;
  }
  // Each corner's weight is the product of its axes' weights in 256ths,
  // rounded to a 256th (half to even); the weighed sum is exact and rounded
  // once: the H200's values bit for bit for 1-D and 2-D float textures but
  // for 87 fetches of 7168 (ties of weights, last bits). The rule was not
  // found for 3-D filtering (within 1.2 of this one on texels up to 143),
  // 8-bit channels (within 0.003) and cube maps (not measured filtered):
  // their values are computed by it and marked unknown.
  const unsigned Corners = 1u << Dims, Shift = 8 * (Dims - 1);
  double Acc[4] = {0, 0, 0, 0};
  for (unsigned K = 0; K < Corners; ++K) {
    uint64_t W = 1;
    for (unsigned D = 0; D < Dims; ++D)
      W *= (K >> D & 1) ? Ax[D].A : 256 - Ax[D].A;
    // W / 2^Shift to the nearest integer, ties to even.
    uint64_t Q = W >> Shift;
    if (Shift) {
      const uint64_t R = W & ((uint64_t(1) << Shift) - 1),
                     Half = uint64_t(1) << (Shift - 1);
      Q += R > Half || (R == Half && (Q & 1));
    }
    const double Wr = double(Q);
    const uint8_t *P = corner(K);
    for (unsigned Ch = 0; Ch < 4; ++Ch)
      Acc[Ch] += Wr * double(borderOr(P, Ch));
  }
  for (unsigned Ch = 0; Ch < 4; ++Ch)
    Out[Ch] = uint32_t(put<float>(float(Acc[Ch] / 256)));
  const bool RuleKnown = Dims < 3 && G != GCube && G != GACube &&
                         T.Kind == ChannelKind::Float && T.Bits[0] == 32;
  return Tx.Known && RuleKnown;
}

/// tex and tld4: S[0] the handle, Extras the coordinates; Vec - 1 the
/// gathered channel (tld4).
void texH(Ctx &C, const XInstr &I) {
  const std::vector<Opnd> &Co = C.Fr->Fn->Extras[size_t(I.Extra)];
  const uint64_t *H = C.lanes(I.S[0]);
  uint32_t Known = C.known(I.S[0]);
  for (Opnd O : Co)
    Known &= C.known(O);
  uint64_t *D[4];
  for (unsigned K = 0; K < 4; ++K)
    D[K] = C.lanes(I.D[K]);
  uint32_t Done = 0;
  const uint64_t *CoLanes[4] = {};
  const size_t NCo = std::min<size_t>(Co.size(), 4);
  for (size_t K = 0; K < NCo; ++K)
    CoLanes[K] = C.lanes(Co[K]);
  // A warp's lanes nearly always sample one object: look it up once.
  Lookup Lk;
  uint64_t LkHandle = 0;
  bool LkValid = false;
  forLanes(C.Active, [&](unsigned L) {
    if (!LkValid || H[L] != LkHandle || !(Known >> L & 1)) {
      Lk = lookup(C, H[L], Known >> L & 1);
      LkHandle = H[L];
      LkValid = Known >> L & 1;
      if (Lk.T)
        C.L->touched(Lk.R, false);
    }
    uint32_t Coords[4] = {0, 0, 0, 0}, Out[4] = {0, 0, 0, 0};
    for (size_t K = 0; K < NCo; ++K)
      Coords[K] = uint32_t(CoLanes[K][L]);
    if (Lk.T) {
      if (fetch(Lk, I.Sub, Coords, I.Flags & 1, I.Width, int(I.Vec) - 1, Out))
        Done |= 1u << L;
    }
    for (unsigned K = 0; K < 4; ++K)
      D[K][L] = Out[K];
  });
  for (unsigned K = 0; K < 4; ++K)
    C.setKnown(I.D[K], Done & Known);
}

/// txq and suq: XInstr::Sub names the attribute.
enum Query : uint8_t {
  QWidth,
  QHeight,
  QDepth,
  QArraySize,
  QLevels,
  QNorm,
  QFilter,
  QSamples
};

void queryH(Ctx &C, const XInstr &I) {
  const uint64_t *H = C.lanes(I.S[0]);
  const uint32_t HK = C.known(I.S[0]);
  uint64_t *D = C.lanes(I.D[0]);
  uint32_t Done = 0;
  forLanes(C.Active, [&](unsigned L) {
    const Lookup Lk = lookup(C, H[L], HK >> L & 1);
    uint64_t V = 0;
    if (const TextureView *T = Lk.T) {
      const uint64_t Layers = T->Cubemap ? T->Depth / 6 : T->Depth;
      switch (I.Sub) {
      case QWidth:
        V = T->Width;
        break;
      case QHeight:
        V = T->Height;
        break;
      case QDepth:
        V = T->Layered || T->Cubemap ? 1 : T->Depth;
        break;
      case QArraySize:
        V = T->Layered ? Layers : 1;
        break;
      case QLevels:
        V = 1;
        break;
      case QNorm:
        V = T->NormalizedCoords;
        break;
      case QFilter:
        V = T->LinearFilter;
        break;
      default:
        V = 1;
        break;
      }
      Done |= 1u << L;
    }
    D[L] = uint32_t(V);
  });
  C.setKnown(I.D[0], Done);
}

/// suld.b and sust.b: Extras holds the coordinates (Off of them), then for
/// sust the values. Width bytes per element, Vec elements.
template <bool Store> void surfaceH(Ctx &C, const XInstr &I) {
  const std::vector<Opnd> &Ex = C.Fr->Fn->Extras[size_t(I.Extra)];
  const size_t NC = size_t(I.Off);
  const uint64_t *H = C.lanes(I.S[0]);
  uint32_t AddrKnown = C.known(I.S[0]);
  for (size_t K = 0; K < NC; ++K)
    AddrKnown &= C.known(Ex[K]);
  const unsigned N = I.Width * I.Vec;
  uint32_t Done[4] = {0, 0, 0, 0};
  forLanes(C.Active, [&](unsigned L) {
    const Lookup Lk = lookup(C, H[L], AddrKnown >> L & 1);
    int64_t Co[4] = {0, 0, 0, 0};
    for (size_t K = 0; K < NC && K < 4; ++K)
      Co[K] = int32_t(C.lanes(Ex[K])[L]);
    uint8_t Bytes[32] = {};
    bool Have = false, Known = false;
    if (Lk.T && Lk.R) {
      const TextureView &T = *Lk.T;
      const unsigned Dims = dimsOf(I.Sub);
      const unsigned C0 = layeredGeo(I.Sub) ? 1 : 0;
      int64_t X = Co[C0], Y = Dims > 1 ? Co[C0 + 1] : 0,
              Z = I.Sub == G3d ? Co[2]
                  : C0         ? Co[0]
                               : 0;
      const int64_t Row = int64_t(T.Width * T.texelBytes());
      const int64_t Lim[3] = {Row - int64_t(N), int64_t(T.Height) - 1,
                              int64_t(T.Depth) - 1};
      int64_t *V[3] = {&X, &Y, &Z};
      bool In = true;
      for (unsigned K = 0; K < 3; ++K)
        In &= *V[K] >= 0 && *V[K] <= Lim[K];
      if (!In && I.Flags == BTrap) {
        C.L->fail(I, "lane " + std::to_string(L) + " of warp " +
                         std::to_string(C.W->Id) + " of block " +
                         std::to_string(C.B->Linear) +
                         " accesses a surface outside its array (x " +
                         std::to_string(X) + " bytes, y " + std::to_string(Y) +
                         "): .trap faults");
        return;
      }
      if (!In && I.Flags == BClamp)
        for (unsigned K = 0; K < 3; ++K)
          *V[K] = std::min(std::max<int64_t>(*V[K], 0), Lim[K]);
      if (In || I.Flags == BClamp) {
        const uint64_t O = Lk.Off + uint64_t(Z) * T.SlicePitch +
                           uint64_t(Y) * T.Pitch + uint64_t(X);
        uint8_t *P = Lk.R->Data + O;
        C.L->touched(Lk.R, Store);
        if (Store) {
          for (unsigned E = 0; E < I.Vec; ++E) {
            const uint64_t Val = C.lanes(Ex[NC + E])[L];
            std::memcpy(P + E * I.Width, &Val, I.Width);
            const bool K =
                (C.known(Ex[NC + E]) >> L & 1) && !(C.Taint >> L & 1);
            Lk.R->Known->set(O + E * I.Width, I.Width, K);
            if (!K)
              Lk.R->AllKnown = false;
          }
          return;
        }
        std::memcpy(Bytes, P, N);
        Known = Lk.R->AllKnown || Lk.R->Known->all(O, N);
      } else {
        Known = true; // .zero: reads zeros, drops stores.
      }
      Have = true;
    }
    if (Store)
      return;
    for (unsigned E = 0; E < I.Vec; ++E) {
      uint64_t Val = 0;
      std::memcpy(&Val, Bytes + E * I.Width, I.Width);
      C.lanes(I.D[E])[L] = Val;
      if (Have && Known)
        Done[E] |= 1u << L;
    }
  });
  if (!Store)
    for (unsigned E = 0; E < I.Vec; ++E)
      C.setKnown(I.D[E], Done[E]);
}

int geometry(const ptx::Instr &I) {
  static const char *const Names[] = {"1d",  "2d",   "3d",   "a1d",
                                      "a2d", "cube", "acube"};
  for (const std::string &M : I.Mods)
    for (int G = 0; G < 7; ++G)
      if (M == Names[G])
        return G;
  return -1;
}

/// The handle operand [h, ...]: a register (texture references, which
/// CUDA 12 removed, name a .texref instead).
bool handle(Decoder &D, const ptx::Instr &I, const ptx::Operand &A, XInstr &X) {
  if (A.Kind != ptx::Operand::Address || A.Index < 0) {
    D.unsupported(X, I.Op + " through a texture or surface reference (a "
                            ".texref or .surfref, removed in CUDA 12)");
    return false;
  }
  X.S[0] = D.src(ptx::Operand{ptx::Operand::Reg, A.Index}, Ty::B64);
  X.NS = 1;
  return true;
}

std::vector<Opnd> coordinates(Decoder &D, const ptx::Operand &A) {
  std::vector<Opnd> Co;
  if (A.Elems.empty())
    return Co;
  const ptx::Operand &V = A.Elems[0];
  if (V.Kind == ptx::Operand::Vector)
    for (const ptx::Operand &E : V.Elems)
      Co.push_back(D.src(E, Ty::B32));
  else
    Co.push_back(D.src(V, Ty::B32));
  return Co;
}

std::vector<Opnd> registers(Decoder &D, const ptx::Operand &O, bool Dst) {
  std::vector<Opnd> R;
  if (O.Kind == ptx::Operand::Vector)
    for (const ptx::Operand &E : O.Elems)
      R.push_back(Dst ? D.dst(E) : D.src(E, Ty::B32));
  else
    R.push_back(Dst ? D.dst(O) : D.src(O, Ty::B32));
  return R;
}

bool decodeTex(Decoder &D, const ptx::Instr &I, XInstr &X) {
  const int G = geometry(I);
  std::vector<Ty> Types;
  for (const std::string &M : I.Mods)
    if (Ty T = tyOf(M); T != Ty::None)
      Types.push_back(T);
  if (G < 0 || Types.size() != 2 || I.Ops.size() < 2) {
    D.unsupported(X, I.Op + " of this geometry or type (only 1d, 2d, 3d, "
                            "a1d, a2d, cube and acube)");
    return true;
  }
  const Ty Dt = Types[0], Ct = Types[1];
  if ((Dt != Ty::F32 && Dt != Ty::S32 && Dt != Ty::U32) ||
      (Ct != Ty::F32 && Ct != Ty::S32)) {
    D.unsupported(X, I.Op + " with ." + (Dt == Ty::F16 ? "f16" : "other") +
                         " results or coordinates");
    return true;
  }
  // tex.level's level of detail and tex.grad's gradients: arrays have one
  // level. Offsets and depth comparisons are not executed.
  const size_t Extra = I.has("level") ? 1 : I.has("grad") ? 2 : 0;
  const ptx::Operand &Dst = I.Ops[0];
  if (I.Ops.size() != 2 + Extra || Dst.Kind != ptx::Operand::Vector ||
      Dst.Elems.size() != 4 || Dst.Pair >= 0) {
    D.unsupported(X, I.Op + " with an offset, a depth comparison or a "
                            "residency predicate");
    return true;
  }
  if (!handle(D, I, I.Ops[1], X))
    return true;
  const std::vector<Opnd> Ds = registers(D, Dst, true);
  for (unsigned K = 0; K < 4; ++K)
    X.D[K] = Ds[K];
  X.ND = 4;
  X.Extra = D.extra(coordinates(D, I.Ops[1]));
  X.Sub = uint8_t(G);
  X.Width = Dt == Ty::F32 ? TF32 : Dt == Ty::S32 ? TS32 : TU32;
  X.Flags = Ct == Ty::F32 ? 1 : 0;
  X.Vec = 0;
  if (I.Op == "tld4") {
    static const char *const Comp[] = {"r", "g", "b", "a"};
    for (uint8_t K = 0; K < 4; ++K)
      if (I.has(Comp[K]))
        X.Vec = uint8_t(K + 1);
    if (!X.Vec || Dt != Ty::F32) {
      D.unsupported(X, "tld4 of this form");
      return true;
    }
  }
  X.Fn = texH;
  return true;
}

bool decodeQuery(Decoder &D, const ptx::Instr &I, XInstr &X) {
  static const std::pair<const char *, Query> Names[] = {
      {"width", QWidth},
      {"height", QHeight},
      {"depth", QDepth},
      {"array_size", QArraySize},
      {"num_mipmap_levels", QLevels},
      {"normalized_coords", QNorm},
      {"filter_mode", QFilter},
      {"num_samples", QSamples}};
  int Q = -1;
  for (const std::string &M : I.Mods)
    for (const auto &[N, V] : Names)
      if (M == N)
        Q = V;
  if (Q < 0 || I.has("level") || I.Ops.size() != 2) {
    D.unsupported(X, I.Op + " of this attribute (channel formats and "
                            "address modes are not answered)");
    return true;
  }
  if (!handle(D, I, I.Ops[1], X))
    return true;
  X.D[0] = D.dst(I.Ops[0]);
  X.ND = 1;
  X.Sub = uint8_t(Q);
  X.Fn = queryH;
  return true;
}

bool decodeSurface(Decoder &D, const ptx::Instr &I, XInstr &X) {
  const bool Store = I.Op == "sust";
  const int G = geometry(I);
  const Ty T = D.lastType(I);
  const unsigned W = bytesOf(T);
  if (!I.has("b") || G < 0 || G == GCube || G == GACube || !W || W > 8 ||
      I.Ops.size() != 2) {
    D.unsupported(X, I.Op + " of this form (formatted .p accesses and cube "
                            "surfaces are not executed)");
    return true;
  }
  const ptx::Operand &A = Store ? I.Ops[0] : I.Ops[1];
  if (!handle(D, I, A, X))
    return true;
  std::vector<Opnd> Ex = coordinates(D, A);
  X.Off = int64_t(Ex.size());
  const std::vector<Opnd> Vals =
      registers(D, Store ? I.Ops[1] : I.Ops[0], !Store);
  if (Vals.empty() || Vals.size() > 4) {
    D.unsupported(X, I.Op + " of this vector size");
    return true;
  }
  X.Vec = uint8_t(Vals.size());
  X.Width = uint8_t(W);
  if (Store)
    Ex.insert(Ex.end(), Vals.begin(), Vals.end());
  else
    for (size_t K = 0; K < Vals.size(); ++K)
      X.D[K] = Vals[K];
  X.ND = Store ? 0 : uint8_t(Vals.size());
  X.Extra = D.extra(std::move(Ex));
  X.Sub = uint8_t(G);
  X.Flags = I.has("zero") ? BZero : I.has("clamp") ? BClamp : BTrap;
  X.Fn = Store ? surfaceH<true> : surfaceH<false>;
  return true;
}

} // namespace

bool decodeTexture(Decoder &D, const ptx::Instr &I, XInstr &X) {
  if (I.Op == "txq" || I.Op == "suq")
    return decodeQuery(D, I, X);
  const bool Tex = I.Op == "tex" || I.Op == "tld4";
  if (!Tex && I.Op != "suld" && I.Op != "sust")
    return false;
  D.X.Textures = true;
  return Tex ? decodeTex(D, I, X) : decodeSurface(D, I, X);
}

} // namespace gmem::exec
