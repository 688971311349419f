//===- test_util.cpp - Parse CUDA snippets and inspect their model --------===//
#include "test_util.h"
#include "translate.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>

namespace gmem::test {

bool cudaInstalled() {
  return llvm::sys::fs::exists("/usr/local/cuda/include/cuda_runtime.h");
}

FrontendOptions optionsFor(Headers H) {
  FrontendOptions O;
  O.CudaPath = H == Headers::Cuda ? "/usr/local/cuda" : "none";
  return O;
}

const char *headersName(Headers H) {
  return H == Headers::Cuda ? "Cuda" : "Stub";
}

const Kernel &Translated::kernel(const std::string &Name) const {
  for (const Kernel &K : Kernels)
    if (K.Name == Name)
      return K;
  static const Kernel Missing;
  ADD_FAILURE() << "no kernel named " << Name;
  return Missing;
}

Translated translateFile(const std::string &Path, Headers H) {
  Translated T;
  auto AST = parseCudaFile(Path, optionsFor(H));
  if (!AST) {
    ADD_FAILURE() << llvm::toString(AST.takeError());
    return T;
  }
  T.AST = std::move(*AST);
  T.Kernels = translateKernels(T.AST->getASTContext());
  return T;
}

Translated translate(const std::string &Code, Headers H,
                     const std::string &FileName) {
  llvm::SmallString<128> Dir;
  if (auto EC =
          llvm::sys::fs::createUniqueDirectory("gmem-analyzer-test", Dir)) {
    ADD_FAILURE() << "cannot create a temporary directory: " << EC.message();
    return {};
  }
  std::string Path = (Dir + "/" + FileName).str();
  {
    std::ofstream F(Path);
    F << Code;
  }
  Translated T = translateFile(Path, H);
  llvm::sys::fs::remove_directories(Dir);
  return T;
}

namespace {

void dumpList(const Kernel &K, const std::vector<Stmt> &L, int Indent,
              std::ostringstream &OS) {
  std::string Pad(Indent * 2, ' ');
  for (const Stmt &S : L) {
    switch (S.Kind) {
    case StmtKind::Assign:
      OS << Pad << K.Slots[S.Slot].Name << " = " << toString(*S.Value, &K)
         << "\n";
      break;
    case StmtKind::If:
      OS << Pad << "if " << toString(*S.Cond, &K) << "\n";
      dumpList(K, S.Then, Indent + 1, OS);
      if (!S.Else.empty()) {
        OS << Pad << "else\n";
        dumpList(K, S.Else, Indent + 1, OS);
      }
      break;
    case StmtKind::Loop:
      OS << Pad << (S.TestFirst ? "while" : "do-while") << " "
         << toString(*S.Cond, &K) << "\n";
      if (!S.CondPre.empty()) {
        OS << Pad << " cond-pre:\n";
        dumpList(K, S.CondPre, Indent + 1, OS);
      }
      dumpList(K, S.Body, Indent + 1, OS);
      if (!S.Step.empty()) {
        OS << Pad << " step:\n";
        dumpList(K, S.Step, Indent + 1, OS);
      }
      break;
    case StmtKind::Access: {
      const Access &A = K.Accesses[S.AccessId];
      OS << Pad << "#" << A.Id << " "
         << (A.Kind == AccessKind::Load    ? "load"
             : A.Kind == AccessKind::Store ? "store"
                                           : "atomic")
         << (A.Sp == Space::Shared ? " shared " : " global ") << A.Size << "B "
         << A.Text << " @ " << toString(*A.Address, &K) << "  [" << A.Loc.Line
         << ":" << A.Loc.Col << "]"
         << (A.UnknownReason ? " UNKNOWN: " + *A.UnknownReason : "") << "\n";
      break;
    }
    case StmtKind::Return:
      OS << Pad << "return\n";
      break;
    case StmtKind::Break:
      OS << Pad << "break\n";
      break;
    case StmtKind::Continue:
      OS << Pad << "continue\n";
      break;
    case StmtKind::Call:
      OS << Pad << "call " << S.Callee << "\n";
      dumpList(K, S.Body, Indent + 1, OS);
      break;
    }
  }
}

void collect(const std::vector<Stmt> &L, std::vector<int> &Ids) {
  for (const Stmt &S : L) {
    if (S.Kind == StmtKind::Access)
      Ids.push_back(S.AccessId);
    collect(S.CondPre, Ids);
    collect(S.Then, Ids);
    collect(S.Else, Ids);
    collect(S.Body, Ids);
    collect(S.Step, Ids);
  }
}

unsigned count(const std::vector<Stmt> &L, StmtKind K) {
  unsigned N = 0;
  for (const Stmt &S : L)
    N += (S.Kind == K) + count(S.CondPre, K) + count(S.Then, K) +
         count(S.Else, K) + count(S.Body, K) + count(S.Step, K);
  return N;
}

} // namespace

std::string dump(const Kernel &K) {
  std::ostringstream OS;
  OS << "kernel " << K.Name << "\n";
  for (const SharedArray &S : K.Shared)
    OS << "  shared " << S.Name << " @" << S.Offset << " " << S.Bytes << "B\n";
  dumpList(K, K.Body, 1, OS);
  for (const std::string &W : K.Warnings)
    OS << "  warning: " << W << "\n";
  return OS.str();
}

std::vector<int> accessOrder(const Kernel &K) {
  std::vector<int> Ids;
  collect(K.Body, Ids);
  return Ids;
}

unsigned countStmts(const Kernel &K, StmtKind S) { return count(K.Body, S); }

namespace {

bool isBool(const Expr &E) { return E.Type == IntType{1, false}; }

void checkExpr(const Expr &E, const Kernel &K, std::vector<std::string> &Err) {
  auto Bad = [&](const std::string &Why) {
    Err.push_back(Why + ": " + toString(E, &K));
  };
  for (const ExprPtr &O : E.Ops) {
    if (!O) {
      Bad("null operand");
      return;
    }
    checkExpr(*O, K, Err);
  }
  switch (E.Kind) {
  case Op::Unknown:
    // A loaded value keeps the 64-bit address it was loaded from.
    if (E.Ops.size() > 1 ||
        (E.Ops.size() == 1 && !(E.Ops[0]->Type == IntType{64, false})))
      Bad("loaded value without one 64-bit address");
    return;
  case Op::Const:
  case Op::Param:
  case Op::Var:
  case Op::Builtin:
    if (!E.Ops.empty())
      Bad("leaf with operands");
    return;
  case Op::Cast:
  case Op::Neg:
  case Op::BitNot:
    if (E.Ops.size() != 1)
      Bad("unary arity");
    else if (E.Kind != Op::Cast && !(E.Ops[0]->Type == E.Type))
      Bad("unary operand type");
    return;
  case Op::LNot:
    if (E.Ops.size() != 1 || !isBool(*E.Ops[0]) || !isBool(E))
      Bad("! on non-bool");
    return;
  case Op::Select:
    if (E.Ops.size() != 3 || !isBool(*E.Ops[0]) ||
        !(E.Ops[1]->Type == E.Type) || !(E.Ops[2]->Type == E.Type))
      Bad("select types");
    return;
  case Op::LAnd:
  case Op::LOr:
    if (E.Ops.size() != 2 || !isBool(*E.Ops[0]) || !isBool(*E.Ops[1]) ||
        !isBool(E))
      Bad("logical operator on non-bool");
    return;
  case Op::Lt:
  case Op::Le:
  case Op::Gt:
  case Op::Ge:
  case Op::Eq:
  case Op::Ne:
    if (E.Ops.size() != 2 || !(E.Ops[0]->Type == E.Ops[1]->Type) || !isBool(E))
      Bad("comparison types");
    return;
  case Op::Shl:
  case Op::Shr:
    if (E.Ops.size() != 2 || !(E.Ops[0]->Type == E.Type))
      Bad("shift types");
    return;
  default:
    if (E.Ops.size() != 2 || !(E.Ops[0]->Type == E.Type) ||
        !(E.Ops[1]->Type == E.Type))
      Bad("binary operand types");
    return;
  }
}

void checkList(const std::vector<Stmt> &L, const Kernel &K,
               std::vector<std::string> &Err) {
  for (const Stmt &S : L) {
    switch (S.Kind) {
    case StmtKind::Assign:
      if (!S.Value || S.Slot < 0 || S.Slot >= (int)K.Slots.size()) {
        Err.push_back("bad assignment");
        break;
      }
      checkExpr(*S.Value, K, Err);
      if (!(S.Value->Type == K.Slots[S.Slot].Type))
        Err.push_back("assignment to " + K.Slots[S.Slot].Name +
                      " in another type: " + toString(*S.Value, &K));
      break;
    case StmtKind::If:
    case StmtKind::Loop:
      if (!S.Cond) {
        Err.push_back("missing condition");
        break;
      }
      checkExpr(*S.Cond, K, Err);
      if (!isBool(*S.Cond))
        Err.push_back("non-bool condition: " + toString(*S.Cond, &K));
      break;
    case StmtKind::Access:
      if (S.AccessId < 0 || S.AccessId >= (int)K.Accesses.size())
        Err.push_back("bad access id");
      break;
    default:
      break;
    }
    for (const std::vector<Stmt> *Sub :
         {&S.Then, &S.Else, &S.CondPre, &S.Body, &S.Step})
      checkList(*Sub, K, Err);
  }
}

} // namespace

std::vector<std::string> typeErrors(const Kernel &K) {
  std::vector<std::string> Err;
  checkList(K.Body, K, Err);
  for (const Access &A : K.Accesses) {
    if (A.Id < 0 || &K.Accesses[A.Id] != &A)
      Err.push_back("access id mismatch: " + A.Text);
    if (!A.Address) {
      Err.push_back("access without address: " + A.Text);
      continue;
    }
    checkExpr(*A.Address, K, Err);
    if (!(A.Address->Type == IntType{64, false}))
      Err.push_back("address not u64: " + A.Text);
    if (A.Size != 1 && A.Size != 2 && A.Size != 4 && A.Size != 8 &&
        A.Size != 16)
      Err.push_back("access size " + std::to_string(A.Size) + ": " + A.Text);
  }
  return Err;
}

std::vector<const Access *> accessesByText(const Kernel &K,
                                           const std::string &Text) {
  std::vector<const Access *> R;
  for (const Access &A : K.Accesses)
    if (A.Text == Text)
      R.push_back(&A);
  return R;
}

unsigned lineOf(const std::string &Code, const std::string &Needle) {
  size_t Pos = Code.find(Needle);
  if (Pos == std::string::npos) {
    ADD_FAILURE() << "not in the snippet: " << Needle;
    return 0;
  }
  return 1 + static_cast<unsigned>(
                 std::count(Code.begin(), Code.begin() + Pos, '\n'));
}

} // namespace gmem::test
