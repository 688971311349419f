//===- ptx.h - A PTX module as nvcc wrote it -------------------------------===//
//
// The parsed form of a .ptx file (ptx_parser.cpp): its variables, its
// functions with their parameters and registers, and each function's
// instructions as text-level opcodes, modifiers and operands. Registers and
// the symbols a function declares in nested scopes ({ .reg ...; } blocks of
// inline assembly, the .param blocks of a call) are resolved at parse time
// to one number per declaration, so that later stages never look a name up
// by scope. What an instruction does is decode.cpp's business.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_EXECUTOR_PTX_H
#define GMEM_EXECUTOR_PTX_H

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace gmem::ptx {

enum class StateSpace : uint8_t {
  None,
  Global,
  Shared,
  SharedCluster,
  Local,
  Param,
  Const,
  Generic,
  Tex,
};

/// A register's declared type, as storage needs it.
enum class RegKind : uint8_t { Pred, B16, B32, B64, B128 };

struct Register {
  std::string Name;
  RegKind Kind = RegKind::B32;
};

/// One operand as written.
struct Operand {
  enum KindT : uint8_t {
    Reg,     ///< Index (a register of the function).
    Imm,     ///< Value (an integer, or a float's bits when IsFloat).
    Special, ///< Name: %tid.x, %laneid, %clock64...
    Symbol,  ///< Name: a variable, a function, a parameter.
    Address, ///< [Base + Value]: Base a register (Index) or a symbol (Name).
    Vector,  ///< {a, b, ...}: Elems.
    Sink,    ///< _ (a result nobody reads).
  } Kind = Imm;
  int Index = -1;
  int64_t Value = 0;
  std::string Name;
  /// Imm: the bits are a float (0f... is 32 bits, 0d... 64 bits).
  uint8_t FloatBits = 0;
  /// Reg of a predicate written !%p (logical negation).
  bool Not = false;
  /// Reg written %p|%q: a second predicate result (setp).
  int Pair = -1;
  std::vector<Operand> Elems;
};

/// An interned source position: .loc file line col, and the position it is
/// inlined at (-1: none).
struct SourcePos {
  uint32_t File = 0, Line = 0, Col = 0;
  int32_t InlinedAt = -1;
  /// The inlined function's name from the debug strings, when given.
  std::string Function;
};

struct Instr {
  std::string Op;                ///< "ld", "setp", "wmma", ...
  std::vector<std::string> Mods; ///< "global", "v4", "f32"... in order.
  int Guard = -1;                ///< Guard predicate register, or -1.
  bool GuardNot = false;         ///< @!%p.
  std::vector<Operand> Ops;
  int32_t Pos = -1;     ///< Index in Module::Positions, or -1.
  uint32_t PtxLine = 0; ///< Line of the .ptx file, for messages.

  bool has(const char *Mod) const {
    for (const std::string &M : Mods)
      if (M == Mod)
        return true;
    return false;
  }
};

/// A variable of any state space: module scope, or declared in a function.
struct Variable {
  std::string Name;
  StateSpace Space = StateSpace::None;
  unsigned Align = 0;
  unsigned ElemSize = 0;  ///< Bytes of its element type.
  uint64_t Bytes = 0;     ///< Total size (0: extern or unsized []).
  bool Extern = false;    ///< .extern: defined elsewhere (dynamic shared...).
  bool Unsized = false;   ///< Declared name[].
  bool Sampler = false;   ///< .texref, .samplerref, .surfref.
  std::string Init;       ///< Initial bytes (empty: zeros or none).
  /// Initialisers that are addresses: byte offset -> symbol and addend
  /// (generic(sym)+k or sym+k in a .global .u64 initialiser).
  std::map<uint64_t, std::pair<std::string, int64_t>> InitSymbols;
};

struct Param {
  std::string Name;
  unsigned Bytes = 0;
  unsigned Align = 0;
  bool Pointer = false; ///< .ptr attribute.
};

struct Function {
  std::string Name;
  bool Entry = false;
  bool Defined = false; ///< Has a body (not .extern or a prototype).
  std::vector<Param> Params;
  std::vector<Param> Returns;
  std::vector<Register> Regs;
  /// Variables the body declares (.local, .shared, .param of call blocks),
  /// under names made unique in the function.
  std::vector<Variable> Locals;
  std::vector<Instr> Body;
  /// Label -> index of the instruction that follows it.
  std::map<std::string, uint32_t> Labels;
  /// .reqntid / .maxntid, when given (0: not).
  unsigned ReqNtid[3] = {0, 0, 0}, MaxNtid[3] = {0, 0, 0};
  /// Call prototypes declared in the body: name -> parameter sizes.
  std::map<std::string, std::vector<Param>> Prototypes;
  uint32_t PtxLine = 0;
};

struct Module {
  std::string Version, Target;
  unsigned AddressSize = 64;
  std::map<uint32_t, std::string> Files; ///< .file index -> path.
  std::vector<SourcePos> Positions;
  std::vector<Variable> Globals;
  std::vector<Function> Functions;
  /// Debug strings by label ($L__info_string3 -> the function's name).
  std::map<std::string, std::string> DebugStrings;

  const Function *function(const std::string &Name) const;
  const Variable *global(const std::string &Name) const;
};

} // namespace gmem::ptx

#endif // GMEM_EXECUTOR_PTX_H
