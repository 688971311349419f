//===- decode.cpp - PTX instructions into XInstrs, once per function -------===//
#include "decode.h"

#include <stdexcept>
#include "launch.h"

#include <cstring>

namespace gmem::exec {

Ty tyOf(const std::string &M) {
  static const std::pair<const char *, Ty> Types[] = {
      {"pred", Ty::Pred}, {"b8", Ty::B8},     {"b16", Ty::B16},
      {"b32", Ty::B32},   {"b64", Ty::B64},   {"b128", Ty::B128},
      {"u8", Ty::U8},     {"u16", Ty::U16},   {"u32", Ty::U32},
      {"u64", Ty::U64},   {"s8", Ty::S8},     {"s16", Ty::S16},
      {"s32", Ty::S32},   {"s64", Ty::S64},   {"f16", Ty::F16},
      {"f16x2", Ty::F16x2}, {"bf16", Ty::BF16}, {"bf16x2", Ty::BF16x2},
      {"f32", Ty::F32},   {"f64", Ty::F64},   {"tf32", Ty::TF32}};
  for (auto &[N, T] : Types)
    if (M == N)
      return T;
  return Ty::None;
}

unsigned bytesOf(Ty T) {
  switch (T) {
  case Ty::B8:
  case Ty::U8:
  case Ty::S8:
  case Ty::Pred:
    return 1;
  case Ty::B16:
  case Ty::U16:
  case Ty::S16:
  case Ty::F16:
  case Ty::BF16:
    return 2;
  case Ty::B64:
  case Ty::U64:
  case Ty::S64:
  case Ty::F64:
    return 8;
  case Ty::B128:
    return 16;
  case Ty::None:
    return 0;
  default:
    return 4;
  }
}

Decoder::Decoder(Program &P, const ptx::Module &M, const ptx::Function &F,
                 XFunction &X)
    : Prog(P), Mod(M), Fn(F), X(X) {
  for (const ptx::Register &R : F.Regs)
    RegSlot.push_back(R.Kind == ptx::RegKind::Pred
                          ? opnd(FPred, X.NumPreds++)
                          : opnd(FReg, X.NumRegs++));
  // Parameters: a kernel's are the launch's parameter buffer (offsets in
  // it); a function's, its results and its calls' .param variables are in
  // the frame's per-lane area.
  uint64_t Off = 0;
  for (const ptx::Param &Pm : F.Params) {
    Off = alignUp(Off, std::max(Pm.Align, 1u));
    Symbols[Pm.Name] = constant(Off);
    X.ParamSlots.push_back({uint32_t(Off), Pm.Bytes});
    Off += Pm.Bytes;
  }
  if (F.Entry)
    Off = 0; // The kernel's own parameters are not in the lane area.
  for (const ptx::Param &Pm : F.Returns) {
    Off = alignUp(Off, std::max(Pm.Align, 1u));
    Symbols[Pm.Name] = constant(Off);
    X.ReturnSlots.push_back({uint32_t(Off), Pm.Bytes});
    Off += Pm.Bytes;
  }
  uint64_t Local = 0;
  for (const ptx::Variable &V : F.Locals) {
    if (V.Space == ptx::StateSpace::Param) {
      Off = alignUp(Off, std::max(V.Align, 1u));
      Symbols[V.Name] = constant(Off);
      Off += V.Bytes;
    } else if (V.Space == ptx::StateSpace::Local) {
      Local = alignUp(Local, std::max(V.Align, 1u));
      Symbols[V.Name] = opnd(FFrame, uint32_t(X.FrameOffsets.size()));
      X.FrameOffsets.push_back(Local);
      Local += V.Bytes;
    } else if (V.Space == ptx::StateSpace::Shared) {
      const int S = Prog.sharedIndex(std::to_string(X.ModuleIndex) + ":" +
                                     F.Name + "/" + V.Name);
      if (S >= 0) {
        Symbols[V.Name] = opnd(FLaunch, uint32_t(S));
        X.SharedVars.push_back(uint32_t(S));
      }
    }
  }
  X.ParamBytes = uint32_t(alignUp(Off, 8));
  X.LocalBytes = uint32_t(alignUp(Local, 16));
}

Opnd Decoder::constant(uint64_t V) {
  auto It = Consts.find(V);
  if (It != Consts.end())
    return It->second;
  const uint32_t Slot = uint32_t(X.Consts.size() / 32);
  X.Consts.insert(X.Consts.end(), 32, V);
  X.ConstKnown.push_back(~0u);
  return Consts[V] = opnd(FConst, Slot);
}

Opnd Decoder::symbol(const std::string &Name, int64_t Add) {
  Opnd Base;
  if (auto It = Symbols.find(Name); It != Symbols.end()) {
    Base = It->second;
  } else if (const int S = Prog.sharedIndex(std::to_string(X.ModuleIndex) +
                                            ":" + Name);
             S >= 0) {
    Base = opnd(FLaunch, uint32_t(S));
    X.SharedVars.push_back(uint32_t(S));
  } else if (uint64_t A = Prog.addressOf(std::to_string(X.ModuleIndex) +
                                         ":" + Name)) {
    Base = constant(A);
  } else if (uint64_t A2 = Prog.addressOf(Name)) {
    Base = constant(A2);
  } else if (Prog.definition(std::to_string(X.ModuleIndex) + ":" + Name,
                             nullptr) ||
             Prog.definition(Name, nullptr)) {
    const XFunction *Callee = Prog.decodeFunction(
        Prog.definition(std::to_string(X.ModuleIndex) + ":" + Name, nullptr)
            ? std::to_string(X.ModuleIndex) + ":" + Name
            : Name);
    Base = constant(Callee ? Prog.functionAddress(*Callee) : 0);
  } else {
    Error = "unknown symbol '" + Name + "'";
    return constant(0);
  }
  Symbols.emplace(Name, Base);
  if (!Add)
    return Base;
  // sym+k as a value: only constants can be offset at decode time.
  if (fileOf(Base) == FConst)
    return constant(X.Consts[size_t(slotOf(Base)) * 32] + uint64_t(Add));
  Error = "an offset symbol '" + Name + "+" + std::to_string(Add) +
          "' of a per-frame or per-launch address";
  return Base;
}

Opnd Decoder::src(const ptx::Operand &O, Ty T) {
  switch (O.Kind) {
  case ptx::Operand::Reg:
    if (size_t(O.Index) < RegSlot.size())
      return RegSlot[size_t(O.Index)];
    break;
  case ptx::Operand::Imm: {
    uint64_t V = uint64_t(O.Value);
    if (T == Ty::F32 && O.FloatBits == 64) {
      double Dv;
      std::memcpy(&Dv, &V, 8);
      float Fv = float(Dv);
      uint32_t B;
      std::memcpy(&B, &Fv, 4);
      V = B;
    } else if (T == Ty::F64 && O.FloatBits == 32) {
      float Fv;
      uint32_t B = uint32_t(V);
      std::memcpy(&Fv, &B, 4);
      double Dv = Fv;
      std::memcpy(&V, &Dv, 8);
    } else if (T == Ty::F32 && !O.FloatBits) {
      float Fv = float(int64_t(V));
      uint32_t B;
      std::memcpy(&B, &Fv, 4);
      V = B;
    } else if (T == Ty::F64 && !O.FloatBits) {
      double Dv = double(int64_t(V));
      std::memcpy(&V, &Dv, 8);
    }
    return constant(V);
  }
  case ptx::Operand::Special: {
    static const std::pair<const char *, uint32_t> Names[] = {
        {"%tid.x", STidX},         {"%tid.y", STidY},
        {"%tid.z", STidZ},         {"%ntid.x", SNtidX},
        {"%ntid.y", SNtidY},       {"%ntid.z", SNtidZ},
        {"%ctaid.x", SCtaidX},     {"%ctaid.y", SCtaidY},
        {"%ctaid.z", SCtaidZ},     {"%nctaid.x", SNctaidX},
        {"%nctaid.y", SNctaidY},   {"%nctaid.z", SNctaidZ},
        {"%laneid", SLaneid},      {"%warpid", SWarpid},
        {"%nwarpid", SNwarpid},    {"%lanemask_eq", SLanemaskEq},
        {"%lanemask_lt", SLanemaskLt}, {"%lanemask_le", SLanemaskLe},
        {"%lanemask_gt", SLanemaskGt}, {"%lanemask_ge", SLanemaskGe},
        {"%smid", SSmid},          {"%nsmid", SNsmid},
        {"%gridid", SGridid},      {"%dynamic_smem_size", SDynSmem},
        {"%total_smem_size", STotalSmem},
        {"%cluster_ctarank", SClusterCtarank},
        {"%cluster_nctarank", SClusterNctarank},
        {"%is_explicit_cluster", SZero}};
    for (auto &[N, S] : Names)
      if (O.Name == N)
        return opnd(FSpecial, S);
    if (O.Name.rfind("%envreg", 0) == 0)
      return opnd(FSpecial,
                  SEnvreg0 + uint32_t(std::atoi(O.Name.c_str() + 7) & 31));
    // Cluster coordinates of a launch without clusters: the block is its
    // own cluster.
    if (O.Name.rfind("%clusterid", 0) == 0)
      return src(ptx::Operand{ptx::Operand::Special, -1, 0,
                              "%ctaid" + O.Name.substr(10)},
                 T);
    if (O.Name.rfind("%nclusterid", 0) == 0)
      return src(ptx::Operand{ptx::Operand::Special, -1, 0,
                              "%nctaid" + O.Name.substr(11)},
                 T);
    if (O.Name.rfind("%cluster_ctaid", 0) == 0)
      return opnd(FSpecial, SZero);
    if (O.Name.rfind("%cluster_nctaid", 0) == 0)
      return opnd(FSpecial, SOne);
    Error = "the special register " + O.Name;
    return constant(0);
  }
  case ptx::Operand::Symbol:
    return symbol(O.Name, O.Value);
  case ptx::Operand::Address:
    // [sym] as a value (mov's operand written as an address).
    if (O.Index < 0)
      return symbol(O.Name, O.Value);
    break;
  default:
    break;
  }
  Error = "an operand of an unexpected kind";
  return constant(0);
}

Opnd Decoder::dst(const ptx::Operand &O) {
  if (O.Kind == ptx::Operand::Reg && size_t(O.Index) < RegSlot.size())
    return RegSlot[size_t(O.Index)];
  if (O.Kind == ptx::Operand::Sink) {
    // A result nobody reads: a register of its own.
    return opnd(FReg, X.NumRegs++);
  }
  Error = "a destination that is not a register";
  return opnd(FReg, X.NumRegs++);
}

bool Decoder::address(const ptx::Operand &O, XInstr &In) {
  if (O.Kind != ptx::Operand::Address) {
    Error = "expected an address";
    return false;
  }
  In.Off = O.Value;
  In.Addr32 = O.Index >= 0 && size_t(O.Index) < Fn.Regs.size() &&
              Fn.Regs[size_t(O.Index)].Kind != ptx::RegKind::B64;
  if (O.Index >= 0)
    In.Addr = RegSlot[size_t(O.Index)];
  else if (!O.Name.empty())
    In.Addr = symbol(O.Name, 0);
  else
    In.Addr = constant(0);
  return Error.empty();
}

void Decoder::unsupported(XInstr &In, const std::string &Why) {
  In.Fn = unsupportedHandler;
  In.Extra = extra({});
  In.GuardInHandler = false;
  X.Extras[size_t(In.Extra)].clear();
  Error = Why;
}

int32_t Decoder::extra(std::vector<Opnd> Ops) {
  X.Extras.push_back(std::move(Ops));
  return int32_t(X.Extras.size() - 1);
}

bool Decoder::kernelParam(const ptx::Operand &A) const {
  if (!Fn.Entry)
    return false;
  if (A.Index >= 0)
    return true;
  for (const ptx::Param &Pm : Fn.Params)
    if (Pm.Name == A.Name)
      return true;
  return false;
}

uint32_t Decoder::label(const std::string &Name) const {
  auto It = Fn.Labels.find(Name);
  return It == Fn.Labels.end() ? ~0u : It->second;
}

Ty Decoder::lastType(const ptx::Instr &I) {
  for (size_t K = I.Mods.size(); K-- > 0;)
    if (Ty T = tyOf(I.Mods[K]); T != Ty::None)
      return T;
  return Ty::None;
}

uint16_t Decoder::flags(const ptx::Instr &I) {
  uint16_t F = 0;
  for (const std::string &M : I.Mods) {
    if (M == "ftz")
      F |= FlagFtz;
    else if (M == "sat" || M == "satfinite")
      F |= FlagSat;
    else if (M == "rz" || M == "rzi")
      F = uint16_t((F & ~FlagRoundMask) | FlagRZ);
    else if (M == "rm" || M == "rmi")
      F = uint16_t((F & ~FlagRoundMask) | FlagRM);
    else if (M == "rp" || M == "rpi")
      F = uint16_t((F & ~FlagRoundMask) | FlagRP);
    else if (M == "approx")
      F |= FlagApprox;
    else if (M == "NaN")
      F |= FlagNaN;
    else if (M == "relu")
      F |= FlagRelu;
    else if (M == "cc")
      F |= FlagCarryOut;
    else if (M == "hi")
      F |= FlagHi;
    else if (M == "wide")
      F |= FlagWide;
    else if (M == "xorsign")
      F |= FlagXorSign;
    else if (M == "abs")
      F |= FlagAbs;
    if (M == "rni" || M == "rzi" || M == "rmi" || M == "rpi")
      F |= FlagIntRound;
  }
  return F;
}

MemSpace Decoder::space(const ptx::Instr &I) {
  for (const std::string &M : I.Mods) {
    if (M == "global")
      return MemSpace::Global;
    if (M == "shared" || M == "shared::cta" || M == "shared::cluster")
      return MemSpace::Shared;
    if (M == "local")
      return MemSpace::Local;
    if (M == "param" || M == "param::entry" || M == "param::func")
      return MemSpace::Param;
    if (M == "const")
      return MemSpace::Const;
  }
  return MemSpace::Generic;
}

void nopHandler(Ctx &, const XInstr &) {}

void unsupportedHandler(Ctx &C, const XInstr &I) {
  std::string Why = "not implemented";
  if (I.Src) {
    Why = I.Src->Op;
    for (const std::string &M : I.Src->Mods)
      Why += "." + M;
    Why = "the executor does not implement " + Why;
  }
  C.L->fail(I, Why);
}

void decode(Program &P, const ptx::Module &M, const ptx::Function &F,
            XFunction &X) {
  Decoder D(P, M, F, X);
  static const FamilyDecoder Families[] = {
      decodeControl, decodeAsync,   decodeMemory,  decodeInteger,
      decodeFloat,   decodeCompare, decodeConvert, decodeWarp,
      decodeTensor,  decodeTexture, decodeVideo};
  X.Code.resize(F.Body.size());
  std::vector<std::string> Errors(F.Body.size());
  for (size_t K = 0; K < F.Body.size(); ++K) {
    const ptx::Instr &I = F.Body[K];
    XInstr &In = X.Code[K];
    In.Src = &I;
    D.Error.clear();
    if (I.Guard >= 0) {
      const Opnd G =
          D.src(ptx::Operand{ptx::Operand::Reg, I.Guard}, Ty::Pred);
      In.Guard = int32_t(slotOf(G));
      In.GuardNot = I.GuardNot;
      if (fileOf(G) != FPred) {
        In.Guard = -1;
        D.Error = "a guard that is not a predicate register";
      }
    }
    bool Done = false;
    try {
      for (FamilyDecoder Fam : Families)
        if ((Done = Fam(D, I, In)))
          break;
    } catch (const std::out_of_range &) {
      // A decoder read an operand the instruction does not have.
      Done = true;
      D.unsupported(In, "the instruction " + I.Op + " with " +
                            std::to_string(I.Ops.size()) +
                            " operands (malformed PTX)");
    }
    if (!Done)
      D.unsupported(In, "the instruction " + I.Op);
    if (!D.Error.empty()) {
      // Keep the handler that names what cannot run.
      In.Fn = unsupportedHandler;
      In.Mem = MemOp::None;
      In.Ctl = XInstr::None;
      if (X.DecodeError.empty())
        X.DecodeError = D.Error + " at line " + std::to_string(I.PtxLine);
    }
  }
  for (size_t K = 0; K < X.Code.size(); ++K) {
    XInstr &In = X.Code[K];
    // Local, parameter and constant memory are outside the LSU figures
    // (LDL/STL, LDC); generic accesses are resolved per lane at run time.
    if (In.Mem != MemOp::None && In.Space != MemSpace::Local &&
        In.Space != MemSpace::Param && In.Space != MemSpace::KernelParam &&
        In.Space != MemSpace::Const) {
      In.Access = int32_t(X.Accesses.size());
      X.Accesses.push_back(uint32_t(K));
    }
  }
  computeOrigins(F, X);
  computeUniformity(F, X);
  computeRaced(F, X);
  computeAddressBases(F, X);
  for (size_t K = 0; K < X.Code.size(); ++K) {
    const XInstr &In = X.Code[K];
    const ptx::Instr &I = F.Body[K];
    const bool Global =
        In.Space == MemSpace::Global || In.Space == MemSpace::Generic;
    if ((Global && (In.Mem == MemOp::Atomic || In.Mem == MemOp::Reduction)) ||
        (Global && (I.has("volatile") || I.has("acquire") ||
                    I.has("release") || I.has("relaxed") || I.has("mmio"))) ||
        I.Op == "fence" || I.Op == "membar")
      X.Communicates = true;
  }
  for (const CallInfo &C : X.Calls)
    if (!C.Callee && C.Name != "vprintf" && C.Name != "__assertfail")
      X.Communicates = true;
  X.MayFault =
      std::any_of(F.Body.begin(), F.Body.end(),
                  [](const ptx::Instr &I) { return I.Op == "trap"; }) ||
      std::any_of(X.Calls.begin(), X.Calls.end(),
                  [](const CallInfo &C) { return C.Name == "__assertfail"; });
}

} // namespace gmem::exec
