//===- fast_path_compare.cpp - Fast path against the every-warp reference -===//
#include "fast_path_compare.h"
#include "simulate.h"

#include <sstream>

namespace gmem::test {

std::string compareResults(const LaunchResult &F, const LaunchResult &E) {
  std::ostringstream OS;
  if (F.Incomplete != E.Incomplete)
    return "incomplete: '" + F.Incomplete + "' vs '" + E.Incomplete + "'";
  for (size_t I = 0; I < F.PerAccess.size(); ++I) {
    const AccessStats &A = F.PerAccess[I], &B = E.PerAccess[I];
#define GMEM_FIELD(X)                                                          \
  if (A.X != B.X)                                                              \
    OS << "access " << I << " (" << F.K->Accesses[I].Text << "): " #X " fast " \
       << A.X << ", every warp " << B.X << "\n";
    GMEM_FIELD(Requests)
    GMEM_FIELD(ActiveLanes)
    GMEM_FIELD(Units)
    GMEM_FIELD(IdealUnits)
    GMEM_FIELD(DistinctBytes)
    GMEM_FIELD(MaxUnitsPerRequest)
    GMEM_FIELD(MaxWays)
    GMEM_FIELD(MisalignedLanes)
    GMEM_FIELD(UnknownRequests)
    GMEM_FIELD(OutOfBoundsLanes)
    GMEM_FIELD(OverflowRequests)
    GMEM_FIELD(UnknownReason)
    // The pictures' sample: the launch's first costliest request, with its
    // real addresses (each event of a class of alike blocks carries its
    // first block's).
    if (A.Costliest.has_value() != B.Costliest.has_value())
      OS << "access " << I << ": costliest request fast "
         << A.Costliest.has_value() << ", every warp "
         << B.Costliest.has_value() << "\n";
    if (A.Costliest && B.Costliest) {
      const WarpSample &X = *A.Costliest, &Y = *B.Costliest;
      bool Same = X.Mask == Y.Mask && X.Size == Y.Size && X.Units == Y.Units &&
                  X.IdealUnits == Y.IdealUnits && X.Order == Y.Order &&
                  X.Execution == Y.Execution;
      for (uint32_t M = X.Mask; Same && M; M &= M - 1)
        Same = X.Addr[__builtin_ctz(M)] == Y.Addr[__builtin_ctz(M)];
      if (!Same)
        OS << "access " << I << ": costliest request fast (order " << X.Order
           << ", request " << X.Execution << ", units " << X.Units << ", mask "
           << X.Mask << "), every warp (order " << Y.Order << ", request "
           << Y.Execution << ", units " << Y.Units << ", mask " << Y.Mask
           << ") or their addresses differ\n";
    }
    if (A.ReasonCause != B.ReasonCause)
      OS << "access " << I << ": cause fast " << causeName(A.ReasonCause)
         << ", every warp " << causeName(B.ReasonCause) << "\n";
    GMEM_FIELD(HasStride)
    if (A.HasStride && B.HasStride) {
      GMEM_FIELD(Stride)
      GMEM_FIELD(FirstAddress)
    }
#undef GMEM_FIELD
  }
  if (F.Diagnostics != E.Diagnostics) {
    OS << "diagnostics differ:\n";
    for (const std::string &D : F.Diagnostics)
      OS << "  fast: " << D << "\n";
    for (const std::string &D : E.Diagnostics)
      OS << "  every warp: " << D << "\n";
  }
  return OS.str();
}

std::string compareFastPath(const Kernel &K, const Launch &L,
                            LaunchResult *Fast) {
  SimOptions FastOptions, Every;
  Every.Exhaustive = true;
  FastOptions.Threads = Every.Threads = 2;
  LaunchResult F = simulate(K, L, FastOptions);
  std::string Diff = compareResults(F, simulate(K, L, Every));
  if (Fast)
    *Fast = std::move(F);
  return Diff;
}

namespace {

void printBody(std::ostream &OS, const Kernel &K, const std::vector<Stmt> &L,
               int Indent) {
  std::string Pad(size_t(Indent) * 2, ' ');
  for (const Stmt &S : L) {
    switch (S.Kind) {
    case StmtKind::Assign:
      OS << Pad << K.Slots[S.Slot].Name << " = " << toString(*S.Value, &K)
         << ";\n";
      break;
    case StmtKind::If:
      OS << Pad << "if (" << toString(*S.Cond, &K) << ") {\n";
      printBody(OS, K, S.Then, Indent + 1);
      if (!S.Else.empty()) {
        OS << Pad << "} else {\n";
        printBody(OS, K, S.Else, Indent + 1);
      }
      OS << Pad << "}\n";
      break;
    case StmtKind::Loop:
      OS << Pad << (S.TestFirst ? "while (" : "do-while (")
         << toString(*S.Cond, &K) << ") {\n";
      printBody(OS, K, S.CondPre, Indent + 1);
      printBody(OS, K, S.Body, Indent + 1);
      OS << Pad << "  // step\n";
      printBody(OS, K, S.Step, Indent + 1);
      OS << Pad << "}\n";
      break;
    case StmtKind::Access: {
      const Access &A = K.Accesses[S.AccessId];
      static const char *Kinds[] = {"load", "store", "atomic"};
      OS << Pad << Kinds[int(A.Kind)] << " "
         << (A.Sp == Space::Shared ? "shared " : "global ") << A.Size
         << " B at " << toString(*A.Address, &K) << ";  // " << A.Text << "\n";
      break;
    }
    case StmtKind::Return:
      OS << Pad << "return;\n";
      break;
    case StmtKind::Break:
      OS << Pad << "break;\n";
      break;
    case StmtKind::Continue:
      OS << Pad << "continue;\n";
      break;
    case StmtKind::Call:
      OS << Pad << "{\n";
      printBody(OS, K, S.Body, Indent + 1);
      OS << Pad << "}\n";
      break;
    }
  }
}

} // namespace

std::string kernelText(const Kernel &K, const Launch &L) {
  std::ostringstream OS;
  OS << "// <<<(" << L.Grid.X << "," << L.Grid.Y << "," << L.Grid.Z << "), ("
     << L.Block.X << "," << L.Block.Y << "," << L.Block.Z << ")>>>";
  for (size_t I = 0; I < K.Params.size() && I < L.Args.size(); ++I) {
    const ArgValue &A = L.Args[I];
    OS << " " << K.Params[I].Name << "=";
    if (A.Kind == ArgValue::Pointer)
      OS << A.Allocation << "+" << A.AlignOffset;
    else
      OS << A.IntValue;
  }
  OS << "\n__global__ void " << K.Name << "(";
  for (size_t I = 0; I < K.Params.size(); ++I)
    OS << (I ? ", " : "") << K.Params[I].TypeName
       << (K.Params[I].Kind == ParamKind::Pointer
               ? "elem" + std::to_string(K.Params[I].PointeeSize) + " *"
           : K.Params[I].Type.Signed ? "int "
                                     : "unsigned ")
       << K.Params[I].Name;
  OS << ") {\n";
  for (const SharedArray &S : K.Shared)
    OS << "  __shared__ elem" << S.ElemSize << " " << S.Name << "["
       << S.Bytes / S.ElemSize << "];  // at byte " << S.Offset << "\n";
  for (const Slot &S : K.Slots)
    OS << "  " << (S.Type.Signed ? "int" : "unsigned") << S.Type.Bits << " "
       << S.Name << ";\n";
  printBody(OS, K, K.Body, 1);
  OS << "}\n";
  return OS.str();
}

} // namespace gmem::test
