//===- decode.h - Shared by the decoders of each instruction family
//---------===//
//
// decode.cpp turns a ptx::Instr into an XInstr: it resolves operands to
// slots (Decoder::src, dst) and hands the instruction to each family's
// decoder (ops_*.cpp), which picks the handler by opcode, type and
// modifiers. A family returns false for an instruction that is not its own;
// one it knows but cannot run is given Decoder::unsupported.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_EXECUTOR_DECODE_H
#define GMEM_EXECUTOR_DECODE_H

#include "machine.h"
#include "program.h"
#include "ptx.h"

#include <string>

namespace gmem::exec {

/// A PTX value type.
enum class Ty : uint8_t {
  None,
  Pred,
  B8,
  B16,
  B32,
  B64,
  B128,
  U8,
  U16,
  U32,
  U64,
  S8,
  S16,
  S32,
  S64,
  F16,
  F16x2,
  BF16,
  BF16x2,
  F32,
  F64,
  TF32,
};

Ty tyOf(const std::string &Mod);
unsigned bytesOf(Ty T);
inline bool isFloat(Ty T) {
  return T == Ty::F16 || T == Ty::F16x2 || T == Ty::BF16 || T == Ty::BF16x2 ||
         T == Ty::F32 || T == Ty::F64 || T == Ty::TF32;
}
inline bool isSigned(Ty T) {
  return T == Ty::S8 || T == Ty::S16 || T == Ty::S32 || T == Ty::S64;
}

/// Modifier flags (XInstr::Flags).
enum : uint16_t {
  FlagFtz = 1,
  FlagSat = 2,
  FlagRoundMask = 12, ///< Two bits: nearest, zero, down, up.
  FlagRZ = 4,
  FlagRM = 8,
  FlagRP = 12,
  FlagApprox = 16,
  FlagNaN = 32,
  FlagAbs = 64,
  FlagRelu = 128,
  FlagIntRound = 256, ///< cvt .rni/.rzi/.rmi/.rpi (round to an integer).
  FlagCarryIn = 512,
  FlagCarryOut = 1024,
  FlagXorSign = 2048,
  FlagHi = 4096,   ///< mul.hi / mad.hi
  FlagWide = 8192, ///< mul.wide / mad.wide
};

class Decoder {
public:
  Decoder(Program &P, const ptx::Module &M, const ptx::Function &F,
          XFunction &X);

  /// A source operand of type T (an immediate is converted to T's bits).
  Opnd src(const ptx::Operand &O, Ty T);
  /// A destination register (value or predicate).
  Opnd dst(const ptx::Operand &O);
  /// The address operand [base + k]: XInstr::Addr and Off.
  bool address(const ptx::Operand &O, XInstr &X);
  /// A constant slot holding V in every lane.
  Opnd constant(uint64_t V);
  /// Marks X as an instruction that stops the launch: Why names it.
  void unsupported(XInstr &X, const std::string &Why);
  /// The type among the modifiers (the last one that is a type).
  static Ty lastType(const ptx::Instr &I);
  /// Rounding and ftz/sat/approx flags from the modifiers.
  static uint16_t flags(const ptx::Instr &I);
  /// The state space among the modifiers (Generic when none).
  static MemSpace space(const ptx::Instr &I);
  /// Registers a long operand list; returns its index.
  int32_t extra(std::vector<Opnd> Ops);
  /// Whether a .param address is the kernel's own parameters (in an entry:
  /// a parameter's name, or a register holding such an address).
  bool kernelParam(const ptx::Operand &Addr) const;
  /// The index of the instruction a label names (~0u: unknown).
  uint32_t label(const std::string &Name) const;

  Program &Prog;
  const ptx::Module &Mod;
  const ptx::Function &Fn;
  XFunction &X;
  std::string Error;

private:
  std::vector<Opnd> RegSlot;       ///< ptx register -> its slot.
  std::map<uint64_t, Opnd> Consts; ///< Value -> constant slot.
  std::map<std::string, Opnd> Symbols;
  Opnd symbol(const std::string &Name, int64_t Add);
};

using FamilyDecoder = bool (*)(Decoder &, const ptx::Instr &, XInstr &);
bool decodeInteger(Decoder &D, const ptx::Instr &I, XInstr &X);
bool decodeFloat(Decoder &D, const ptx::Instr &I, XInstr &X);
bool decodeCompare(Decoder &D, const ptx::Instr &I, XInstr &X);
bool decodeConvert(Decoder &D, const ptx::Instr &I, XInstr &X);
bool decodeMemory(Decoder &D, const ptx::Instr &I, XInstr &X);
bool decodeWarp(Decoder &D, const ptx::Instr &I, XInstr &X);
bool decodeControl(Decoder &D, const ptx::Instr &I, XInstr &X);
bool decodeTensor(Decoder &D, const ptx::Instr &I, XInstr &X);
bool decodeAsync(Decoder &D, const ptx::Instr &I, XInstr &X);
bool decodeTexture(Decoder &D, const ptx::Instr &I, XInstr &X);
bool decodeVideo(Decoder &D, const ptx::Instr &I, XInstr &X);

/// Handler of an instruction that cannot run: stops the launch.
void unsupportedHandler(Ctx &C, const XInstr &I);
/// Handler of an instruction with nothing to do in the executor (fences,
/// hints, completions of what it makes at once).
void nopHandler(Ctx &C, const XInstr &I);

/// H<T>::fn for the integer type T stands for (32-bit unsigned for the
/// rest: .b32, .u32, .pred-sized operands).
template <template <class> class H> Handler byType(Ty T) {
  switch (T) {
  case Ty::S16:
    return H<int16_t>::fn;
  case Ty::S32:
    return H<int32_t>::fn;
  case Ty::S64:
    return H<int64_t>::fn;
  case Ty::U16:
  case Ty::B16:
    return H<uint16_t>::fn;
  case Ty::U64:
  case Ty::B64:
    return H<uint64_t>::fn;
  case Ty::U8:
  case Ty::B8:
    return H<uint8_t>::fn;
  case Ty::S8:
    return H<int8_t>::fn;
  default:
    return H<uint32_t>::fn;
  }
}

} // namespace gmem::exec

#endif // GMEM_EXECUTOR_DECODE_H
