//===- model_json.cpp - The kernel model as JSON --------------------------===//
#include "model_json.h"
#include "model_check.h"

#include <algorithm>
#include <climits>
#include <filesystem>
#include <fstream>
#include <sstream>

using nlohmann::json;

namespace gmem {

namespace {

const char *OpNames[] = {
    "const", "param", "var", "builtin", "unknown", "cast",   "neg", "not",
    "lnot",  "add",   "sub", "mul",     "div",     "rem",    "shl", "shr",
    "and",   "or",    "xor", "lt",      "le",      "gt",     "ge",  "eq",
    "ne",    "land",  "lor", "min",     "max",     "select", "shfl"};
const char *StmtNames[] = {"assign", "if",    "loop",     "access",
                           "return", "break", "continue", "call"};
const char *ParamKindNames[] = {"int", "pointer", "float", "other"};
const char *ArgKindNames[] = {"int", "float", "pointer", "unknown"};
const char *SpaceNames[] = {"global", "shared"};
const char *AccessKindNames[] = {"load", "store", "atomic"};

std::string typeName(IntType T) {
  if (T.Bits == 1)
    return "bool";
  return (T.Signed ? "i" : "u") + std::to_string(T.Bits);
}

// A cause the JSON leaves out is the one a model written before causes
// were implies: a loaded value's (or a data-dependent access's) is loaded
// data, any other's is unmodelled.
UnknownCause defaultCause(const Expr &E) {
  return E.Ops.empty() ? UnknownCause::Unmodelled : UnknownCause::LoadedData;
}
UnknownCause defaultCause(const Access &A) {
  return A.DataDependent ? UnknownCause::LoadedData : UnknownCause::Unmodelled;
}

json locJson(const SourceLoc &L) {
  return {{"file", L.File}, {"line", L.Line}, {"col", L.Col}};
}

json exprJson(const Expr &E) {
  json J = {{"op", OpNames[static_cast<int>(E.Kind)]},
            {"type", typeName(E.Type)}};
  switch (E.Kind) {
  case Op::Const:
    J["value"] = E.Value;
    break;
  case Op::Param:
  case Op::Var:
  case Op::Builtin:
  case Op::Shfl:
    J["index"] = E.Index;
    break;
  case Op::Unknown:
    J["reason"] = E.Reason;
    if (E.Cause != defaultCause(E))
      J["cause"] = causeName(E.Cause);
    if (E.Index >= 0)
      J["index"] = E.Index;
    break;
  default:
    break;
  }
  if (E.PointerArith)
    J["pointer_arith"] = true;
  if (!E.Ops.empty()) {
    json Ops = json::array();
    for (const ExprPtr &O : E.Ops)
      Ops.push_back(exprJson(*O));
    J["ops"] = Ops;
  }
  return J;
}

json stmtsJson(const std::vector<Stmt> &S);

json stmtJson(const Stmt &S) {
  json J = {{"kind", StmtNames[static_cast<int>(S.Kind)]},
            {"loc", locJson(S.Loc)}};
  switch (S.Kind) {
  case StmtKind::Assign:
    J["slot"] = S.Slot;
    J["value"] = exprJson(*S.Value);
    break;
  case StmtKind::If:
    J["cond"] = exprJson(*S.Cond);
    J["then"] = stmtsJson(S.Then);
    J["else"] = stmtsJson(S.Else);
    break;
  case StmtKind::Loop:
    J["cond_pre"] = stmtsJson(S.CondPre);
    J["cond"] = exprJson(*S.Cond);
    J["body"] = stmtsJson(S.Body);
    J["step"] = stmtsJson(S.Step);
    J["test_first"] = S.TestFirst;
    break;
  case StmtKind::Access:
    J["access"] = S.AccessId;
    break;
  case StmtKind::Call:
    J["callee"] = S.Callee;
    J["body"] = stmtsJson(S.Body);
    break;
  default:
    break;
  }
  return J;
}

json stmtsJson(const std::vector<Stmt> &S) {
  json A = json::array();
  for (const Stmt &X : S)
    A.push_back(stmtJson(X));
  return A;
}

const char *const CompiledStateNames[] = {
    "unchecked", "as_written",       "merged",         "hoisted",  "reused",
    "ambiguous", "once_per_address", "no_instruction", "selected", "split"};

CompiledForm parseCompiled(const json &J) {
  CompiledForm C;
  std::string State = J.at("state").get<std::string>();
  bool Found = false;
  for (int I = 0; I < int(std::size(CompiledStateNames)); ++I)
    if (State == CompiledStateNames[I]) {
      C.State = static_cast<CompiledForm::StateT>(I);
      Found = true;
    }
  if (!Found)
    throw std::runtime_error("unknown compiled state '" + State + "'");
  C.Instruction = J.value("instruction", "");
  C.Width = J.value("width", 0u);
  C.Leader = J.value("leader", -1);
  C.OneLane = J.value("one_lane", false);
  C.Branches = J.value("branches", 0u);
  C.Parts = J.value("parts", std::vector<unsigned>());
  C.Loop = J.value("loop", -1);
  C.Note = J.value("note", "");
  C.Line = J.value("line", 0u);
  C.File = J.value("file", "");
  return C;
}

json dimJson(const Dim3 &D) { return json::array({D.X, D.Y, D.Z}); }

/// Reads the JSON form field by field, checking each one's type, and names
/// the first thing that is wrong by its JSON path, e.g.
/// "kernels[0].accesses[2].size: expected an integer, found string".
/// Invariants between fields (indices in range) are model_check's.
class ModelReader {
public:
  Expected<Module> read(const json &J) {
    try {
      Module R;
      object(J, "");
      const json &Schema = field(J, "", "schema");
      int64_t V = integer(Schema, "schema", INT32_MIN, INT32_MAX);
      if (V != ModelSchemaVersion)
        return Failure{"kernel model schema " + std::to_string(V) +
                       " is not supported (this gmem reads schema " +
                       std::to_string(ModelSchemaVersion) +
                       "); regenerate it with gmem-analyze --emit-model"};
      R.File = optString(J, "", "file");
      if (const json *C = find(J, "compiler")) {
        object(*C, "compiler");
        R.Compiler.Used = optString(*C, "compiler", "used");
        if (R.Compiler.Used.empty())
          R.Compiler.Used = "source";
        R.Compiler.Version = optString(*C, "compiler", "version");
        R.Compiler.Arch = optString(*C, "compiler", "arch");
        R.Compiler.NotChecked = optString(*C, "compiler", "not_checked");
        const json *Cache = find(*C, "from_cache");
        R.Compiler.FromCache =
            Cache && Cache->is_boolean() && Cache->get<bool>();
        R.Compiler.Launches = optString(*C, "compiler", "launches");
        if (R.Compiler.Launches.empty())
          R.Compiler.Launches = "interpreted";
        R.Compiler.LaunchesWhy = optString(*C, "compiler", "launches_why");
        R.Compiler.HostStopped = optString(*C, "compiler", "host_stopped");
        R.Compiler.ProgramOutput = optString(*C, "compiler", "program_output");
        if (const json *E = find(*C, "program_exit"); E && E->is_number())
          R.Compiler.ProgramExit = E->get<int>();
        R.Compiler.BuildNotes = strings(*C, "compiler", "build_notes");
      }
      forEach(J, "", "kernels", [&](const json &K, const std::string &P) {
        R.Kernels.push_back(kernel(K, P));
      });
      forEach(J, "", "launches", [&](const json &L, const std::string &P) {
        R.Launches.push_back(launch(L, P));
      });
      if (Expected<void> Checked = checkModule(R); !Checked)
        return Failure{"invalid kernel model: " + Checked.error()};
      return R;
    } catch (const ReadError &E) {
      return Failure{"malformed kernel model: " + E.Path + ": " + E.What};
    }
  }

private:
  struct ReadError {
    std::string Path, What;
  };

  [[noreturn]] static void fail(const std::string &Path,
                                const std::string &What) {
    throw ReadError{Path.empty() ? "top level" : Path, What};
  }

  /// S as a JSON string: the message stays one line whatever S holds.
  static std::string quoted(const std::string &S) {
    return json(S).dump(-1, ' ', false, json::error_handler_t::replace);
  }

  static std::string child(const std::string &Path, const char *Key) {
    return Path.empty() ? Key : Path + "." + Key;
  }

  static void object(const json &J, const std::string &Path) {
    if (!J.is_object())
      fail(Path, std::string("expected an object, found ") + J.type_name());
  }

  /// Key of object J; null when absent or null.
  static const json *find(const json &J, const char *Key) {
    auto It = J.find(Key);
    return It == J.end() || It->is_null() ? nullptr : &*It;
  }

  static const json &field(const json &J, const std::string &Path,
                           const char *Key) {
    const json *V = find(J, Key);
    if (!V)
      fail(child(Path, Key), "missing");
    return *V;
  }

  static int64_t integer(const json &V, const std::string &Path, int64_t Min,
                         int64_t Max) {
    if (V.is_number_unsigned()) {
      uint64_t U = V.get<uint64_t>();
      if (U <= uint64_t(Max))
        return int64_t(U);
    } else if (V.is_number_integer()) {
      int64_t I = V.get<int64_t>();
      if (I >= Min && I <= Max)
        return I;
    } else {
      fail(Path, std::string("expected an integer, found ") + V.type_name());
    }
    fail(Path, "integer out of range (" + std::to_string(Min) + " to " +
                   std::to_string(Max) + ")");
  }

  static uint64_t unsignedInt(const json &V, const std::string &Path,
                              uint64_t Max = UINT64_MAX) {
    if (V.is_number_unsigned() && V.get<uint64_t>() <= Max)
      return V.get<uint64_t>();
    if (V.is_number_integer() && V.get<int64_t>() >= 0 &&
        uint64_t(V.get<int64_t>()) <= Max)
      return uint64_t(V.get<int64_t>());
    if (!V.is_number_integer())
      fail(Path, std::string("expected an integer, found ") + V.type_name());
    fail(Path, "integer out of range (0 to " + std::to_string(Max) + ")");
  }

  static std::string string(const json &V, const std::string &Path) {
    if (!V.is_string())
      fail(Path, std::string("expected a string, found ") + V.type_name());
    return V.get<std::string>();
  }

  static std::string str(const json &J, const std::string &Path,
                         const char *Key) {
    return string(field(J, Path, Key), child(Path, Key));
  }

  static std::string optString(const json &J, const std::string &Path,
                               const char *Key) {
    const json *V = find(J, Key);
    return V ? string(*V, child(Path, Key)) : "";
  }

  static bool optBool(const json &J, const std::string &Path, const char *Key,
                      bool Default) {
    const json *V = find(J, Key);
    if (!V)
      return Default;
    if (!V->is_boolean())
      fail(child(Path, Key),
           std::string("expected true or false, found ") + V->type_name());
    return V->get<bool>();
  }

  static uint64_t optUnsigned(const json &J, const std::string &Path,
                              const char *Key, uint64_t Default,
                              uint64_t Max = UINT64_MAX) {
    const json *V = find(J, Key);
    return V ? unsignedInt(*V, child(Path, Key), Max) : Default;
  }

  /// Calls F on each element of the array J[Key] with the element's path.
  template <typename F>
  static void forEach(const json &J, const std::string &Path, const char *Key,
                      F Fn, bool Required = true) {
    std::string P = child(Path, Key);
    const json *A = find(J, Key);
    if (!A) {
      if (Required)
        fail(P, "missing");
      return;
    }
    if (!A->is_array())
      fail(P, std::string("expected an array, found ") + A->type_name());
    for (size_t I = 0; I < A->size(); ++I)
      Fn((*A)[I], P + "[" + std::to_string(I) + "]");
  }

  static std::vector<std::string>
  strings(const json &J, const std::string &Path, const char *Key) {
    std::vector<std::string> R;
    forEach(
        J, Path, Key,
        [&](const json &S, const std::string &P) { R.push_back(string(S, P)); },
        false);
    return R;
  }

  template <size_t N>
  static int name(const char *(&Names)[N], const json &J,
                  const std::string &Path, const char *Key) {
    std::string S = str(J, Path, Key);
    for (size_t I = 0; I < N; ++I)
      if (S == Names[I])
        return static_cast<int>(I);
    std::string Known;
    for (const char *Name : Names)
      Known += std::string(Known.empty() ? "" : ", ") + Name;
    fail(child(Path, Key),
         "unknown value " + quoted(S) + " (one of " + Known + ")");
  }

  /// An unknown's cause; Default when absent.
  static UnknownCause cause(const json &J, const std::string &Path,
                            const char *Key, UnknownCause Default) {
    if (!find(J, Key))
      return Default;
    std::string S = str(J, Path, Key);
    if (std::optional<UnknownCause> C = causeNamed(S))
      return *C;
    fail(child(Path, Key), "unknown value " + quoted(S) +
                               " (one of unmodelled, loaded_data, "
                               "pointer_overflow)");
  }

  static IntType type(const json &J, const std::string &Path, const char *Key,
                      const char *Default = nullptr) {
    std::string S = Default && !find(J, Key) ? Default : str(J, Path, Key);
    for (IntType T :
         {IntType{1, false}, IntType{8, true}, IntType{8, false},
          IntType{16, true}, IntType{16, false}, IntType{32, true},
          IntType{32, false}, IntType{64, true}, IntType{64, false}})
      if (S == typeName(T))
        return T;
    fail(child(Path, Key), "unknown integer type " + quoted(S) +
                               " (bool, i8, u8, i16, u16, i32, u32, i64 or "
                               "u64)");
  }

  static SourceLoc loc(const json &J, const std::string &Path) {
    SourceLoc L;
    const json *V = find(J, "loc");
    if (!V)
      return L;
    std::string P = child(Path, "loc");
    object(*V, P);
    L.File = optString(*V, P, "file");
    L.Line = unsigned(optUnsigned(*V, P, "line", 0, UINT32_MAX));
    L.Col = unsigned(optUnsigned(*V, P, "col", 0, UINT32_MAX));
    return L;
  }

  // Depth is checked while reading so that a deeply nested file cannot
  // exhaust the stack before model_check sees it.
  ExprPtr expr(const json &J, const std::string &Path, unsigned Depth) {
    if (Depth > MaxExprDepth)
      fail(Path, "expression nested deeper than " +
                     std::to_string(MaxExprDepth) + " levels");
    object(J, Path);
    auto E = std::make_shared<Expr>();
    E->Kind = static_cast<Op>(name(OpNames, J, Path, "op"));
    E->Type = type(J, Path, "type");
    if (const json *V = find(J, "value"))
      E->Value = V->is_number_unsigned()
                     ? int64_t(V->get<uint64_t>())
                     : integer(*V, child(Path, "value"), INT64_MIN, INT64_MAX);
    if (const json *V = find(J, "index"))
      E->Index = int(integer(*V, child(Path, "index"), INT32_MIN, INT32_MAX));
    E->Reason = optString(J, Path, "reason");
    E->PointerArith = optBool(J, Path, "pointer_arith", false);
    forEach(
        J, Path, "ops",
        [&](const json &O, const std::string &P) {
          E->Ops.push_back(expr(O, P, Depth + 1));
        },
        false);
    if (E->Kind == Op::Unknown)
      E->Cause = cause(J, Path, "cause", defaultCause(*E));
    return E;
  }

  std::vector<Stmt> stmts(const json &J, const std::string &Path,
                          const char *Key, unsigned Depth) {
    if (Depth > MaxStmtDepth)
      fail(child(Path, Key), "statements nested deeper than " +
                                 std::to_string(MaxStmtDepth) + " levels");
    std::vector<Stmt> R;
    forEach(J, Path, Key, [&](const json &S, const std::string &P) {
      R.push_back(stmt(S, P, Depth));
    });
    return R;
  }

  Stmt stmt(const json &J, const std::string &Path, unsigned Depth) {
    object(J, Path);
    Stmt S;
    S.Kind = static_cast<StmtKind>(name(StmtNames, J, Path, "kind"));
    S.Loc = loc(J, Path);
    switch (S.Kind) {
    case StmtKind::Assign:
      S.Slot = int(integer(field(J, Path, "slot"), child(Path, "slot"),
                           INT32_MIN, INT32_MAX));
      S.Value = expr(field(J, Path, "value"), child(Path, "value"), 1);
      break;
    case StmtKind::If:
      S.Cond = expr(field(J, Path, "cond"), child(Path, "cond"), 1);
      S.Then = stmts(J, Path, "then", Depth + 1);
      S.Else = stmts(J, Path, "else", Depth + 1);
      break;
    case StmtKind::Loop:
      S.CondPre = stmts(J, Path, "cond_pre", Depth + 1);
      S.Cond = expr(field(J, Path, "cond"), child(Path, "cond"), 1);
      S.Body = stmts(J, Path, "body", Depth + 1);
      S.Step = stmts(J, Path, "step", Depth + 1);
      S.TestFirst = optBool(J, Path, "test_first", true);
      break;
    case StmtKind::Access:
      S.AccessId = int(integer(field(J, Path, "access"), child(Path, "access"),
                               INT32_MIN, INT32_MAX));
      break;
    case StmtKind::Call:
      S.Callee = optString(J, Path, "callee");
      S.Body = stmts(J, Path, "body", Depth + 1);
      break;
    default:
      break;
    }
    return S;
  }

  Kernel kernel(const json &J, const std::string &Path) {
    object(J, Path);
    Kernel K;
    K.Name = str(J, Path, "name");
    K.MangledName = optString(J, Path, "mangled");
    K.Loc = loc(J, Path);
    forEach(J, Path, "params", [&](const json &P, const std::string &PP) {
      object(P, PP);
      Param X;
      X.Name = str(P, PP, "name");
      X.TypeName = optString(P, PP, "type_name");
      X.Kind = static_cast<ParamKind>(name(ParamKindNames, P, PP, "kind"));
      X.Type = type(P, PP, "type", "i32");
      X.PointeeSize =
          unsigned(optUnsigned(P, PP, "pointee_size", 0, UINT32_MAX));
      X.Bytes = unsigned(optUnsigned(P, PP, "bytes", 0, UINT32_MAX));
      K.Params.push_back(X);
    });
    forEach(J, Path, "shared", [&](const json &A, const std::string &P) {
      object(A, P);
      SharedArray S;
      S.Name = str(A, P, "name");
      S.Dynamic = optBool(A, P, "dynamic", false);
      S.Offset = optUnsigned(A, P, "offset", 0);
      S.Bytes = optUnsigned(A, P, "bytes", 0);
      S.ElemSize = unsigned(optUnsigned(A, P, "elem_size", 4, UINT32_MAX));
      forEach(
          A, P, "dims",
          [&](const json &D, const std::string &DP) {
            S.Dims.push_back(unsignedInt(D, DP));
          },
          false);
      S.Loc = loc(A, P);
      K.Shared.push_back(S);
    });
    forEach(J, Path, "slots", [&](const json &S, const std::string &P) {
      object(S, P);
      K.Slots.push_back({str(S, P, "name"), type(S, P, "type")});
    });
    forEach(J, Path, "accesses", [&](const json &A, const std::string &P) {
      object(A, P);
      Access X;
      X.Id =
          int(integer(field(A, P, "id"), child(P, "id"), INT32_MIN, INT32_MAX));
      X.Sp = static_cast<Space>(name(SpaceNames, A, P, "space"));
      X.Kind = static_cast<AccessKind>(name(AccessKindNames, A, P, "kind"));
      X.Size = unsigned(
          unsignedInt(field(A, P, "size"), child(P, "size"), UINT32_MAX));
      X.Address = expr(field(A, P, "address"), child(P, "address"), 1);
      X.Loc = loc(A, P);
      X.Text = optString(A, P, "text");
      X.Array = optString(A, P, "array");
      if (const json *V = find(A, "shared_array"))
        X.SharedArray =
            int(integer(*V, child(P, "shared_array"), INT32_MIN, INT32_MAX));
      if (find(A, "unknown_reason"))
        X.UnknownReason = optString(A, P, "unknown_reason");
      X.DataDependent = optBool(A, P, "data_dependent", false);
      X.ReasonCause = cause(A, P, "unknown_cause", defaultCause(X));
      X.Reduction = optBool(A, P, "reduction", false);
      if (find(A, "shared_atomic")) {
        const std::string F = optString(A, P, "shared_atomic");
        if (F == "per_word")
          X.SharedAtomic = SharedAtomicForm::PerWord;
        else if (F == "per_lane_pair")
          X.SharedAtomic = SharedAtomicForm::PerLanePair;
        else if (F == "spin_round")
          X.SharedAtomic = SharedAtomicForm::SpinRound;
        else if (F != "per_lane")
          fail(child(P, "shared_atomic"),
               "expected per_lane, per_word, per_lane_pair or spin_round, "
               "found " +
                   quoted(F));
      }
      if (const json *V = find(A, "async_partner"))
        X.AsyncPartner =
            int(integer(*V, child(P, "async_partner"), INT32_MIN, INT32_MAX));
      if (const json *V = find(A, "compiled")) {
        try {
          X.Compiled = parseCompiled(*V);
        } catch (const std::exception &E) {
          fail(child(P, "compiled"), E.what());
        }
      }
      K.Accesses.push_back(X);
    });
    K.Body = stmts(J, Path, "body", 1);
    K.Warnings = strings(J, Path, "warnings");
    if (find(J, "uncounted"))
      K.Uncounted = strings(J, Path, "uncounted");
    K.UnmodelledGlobal = J.value("unmodelled_global", "");
    K.DeviceHeap = J.value("device_heap", false);
    K.LaunchesKernels = J.value("launches_kernels", false);
    if (const json *S = find(J, "sass"))
      K.Sass = sassAccount(*S, child(Path, "sass"));
    return K;
  }

  static SassAccount sassAccount(const json &J, const std::string &Path) {
    object(J, Path);
    SassAccount S;
    S.Read = true;
    S.Instructions =
        unsigned(optUnsigned(J, Path, "instructions", 0, UINT32_MAX));
    S.AllInstructions =
        unsigned(optUnsigned(J, Path, "all_instructions", 0, UINT32_MAX));
    S.LoopInstructions =
        unsigned(optUnsigned(J, Path, "loop_instructions", 0, UINT32_MAX));
    S.LoopMemory = unsigned(optUnsigned(J, Path, "loop_memory", 0, UINT32_MAX));
    S.Claimed = unsigned(optUnsigned(J, Path, "claimed", 0, UINT32_MAX));
    S.Local = unsigned(optUnsigned(J, Path, "local", 0, UINT32_MAX));
    S.Texture = unsigned(optUnsigned(J, Path, "texture", 0, UINT32_MAX));
    S.Bulk = unsigned(optUnsigned(J, Path, "bulk", 0, UINT32_MAX));
    forEach(
        J, Path, "unclaimed",
        [&](const json &U, const std::string &P) {
          object(U, P);
          SassAccount::UnclaimedInstr X;
          X.Opcode = str(U, P, "opcode");
          X.Offset = optUnsigned(U, P, "offset", 0);
          X.Loc = loc(U, P);
          X.Sp = static_cast<Space>(name(SpaceNames, U, P, "space"));
          X.Kind = static_cast<AccessKind>(name(AccessKindNames, U, P, "kind"));
          X.Reduction = optBool(U, P, "reduction", false);
          X.Async = optBool(U, P, "async", false);
          X.Copies = unsigned(optUnsigned(U, P, "copies", 1, UINT32_MAX));
          S.Unclaimed.push_back(X);
        },
        false);
    return S;
  }

  static Dim3 dim(const json &J, const std::string &Path, const char *Key) {
    const json &V = field(J, Path, Key);
    std::string P = child(Path, Key);
    if (!V.is_array() || V.size() != 3)
      fail(P, "expected an array of 3 integers");
    return {unsignedInt(V[0], P + "[0]"), unsignedInt(V[1], P + "[1]"),
            unsignedInt(V[2], P + "[2]")};
  }

  static Launch launch(const json &J, const std::string &Path) {
    object(J, Path);
    Launch L;
    L.Kernel = str(J, Path, "kernel");
    L.Grid = dim(J, Path, "grid");
    L.Block = dim(J, Path, "block");
    L.DynamicSmem = optUnsigned(J, Path, "dynamic_smem", 0);
    L.Loc = loc(J, Path);
    L.Unresolved = strings(J, Path, "unresolved");
    L.Caveat = optString(J, Path, "caveat");
    L.Origin = optString(J, Path, "origin");
    forEach(J, Path, "args", [&](const json &A, const std::string &P) {
      object(A, P);
      ArgValue V;
      V.Kind = static_cast<ArgValue::KindT>(name(ArgKindNames, A, P, "kind"));
      if (const json *I = find(A, "int"))
        V.IntValue = integer(*I, child(P, "int"), INT64_MIN, INT64_MAX);
      if (const json *F = find(A, "float")) {
        if (!F->is_number())
          fail(child(P, "float"),
               std::string("expected a number, found ") + F->type_name());
        V.FloatValue = F->get<double>();
      }
      V.Allocation = optString(A, P, "allocation");
      V.AlignOffset = optUnsigned(A, P, "align_offset", 0);
      V.Reason = optString(A, P, "reason");
      L.Args.push_back(V);
    });
    return L;
  }
};

} // namespace

json toJson(const Kernel &K) {
  json Params = json::array(), Shared = json::array(), Slots = json::array(),
       Accesses = json::array();
  for (const Param &P : K.Params)
    Params.push_back({{"name", P.Name},
                      {"type_name", P.TypeName},
                      {"kind", ParamKindNames[static_cast<int>(P.Kind)]},
                      {"type", typeName(P.Type)},
                      {"pointee_size", P.PointeeSize},
                      {"bytes", P.Bytes}});
  for (const SharedArray &S : K.Shared)
    Shared.push_back({{"name", S.Name},
                      {"dynamic", S.Dynamic},
                      {"offset", S.Offset},
                      {"bytes", S.Bytes},
                      {"elem_size", S.ElemSize},
                      {"dims", S.Dims},
                      {"loc", locJson(S.Loc)}});
  for (const Slot &S : K.Slots)
    Slots.push_back({{"name", S.Name}, {"type", typeName(S.Type)}});
  for (const Access &A : K.Accesses) {
    json X = {{"id", A.Id},
              {"space", SpaceNames[static_cast<int>(A.Sp)]},
              {"kind", AccessKindNames[static_cast<int>(A.Kind)]},
              {"size", A.Size},
              {"address", exprJson(*A.Address)},
              {"loc", locJson(A.Loc)},
              {"text", A.Text},
              {"array", A.Array},
              {"shared_array", A.SharedArray}};
    if (A.UnknownReason)
      X["unknown_reason"] = *A.UnknownReason;
    if (A.ReasonCause != defaultCause(A))
      X["unknown_cause"] = causeName(A.ReasonCause);
    if (A.DataDependent)
      X["data_dependent"] = true;
    if (A.Reduction)
      X["reduction"] = true;
    if (A.SharedAtomic != SharedAtomicForm::PerLane)
      X["shared_atomic"] =
          A.SharedAtomic == SharedAtomicForm::PerWord       ? "per_word"
          : A.SharedAtomic == SharedAtomicForm::PerLanePair ? "per_lane_pair"
                                                            : "spin_round";
    if (A.AsyncPartner >= 0)
      X["async_partner"] = A.AsyncPartner;
    if (A.Compiled.State != CompiledForm::Unchecked)
      X["compiled"] = toJson(A.Compiled);
    Accesses.push_back(X);
  }
  json J = {{"name", K.Name},        {"mangled", K.MangledName},
            {"loc", locJson(K.Loc)}, {"params", Params},
            {"shared", Shared},      {"slots", Slots},
            {"accesses", Accesses},  {"body", stmtsJson(K.Body)},
            {"warnings", K.Warnings}};
  if (!K.Uncounted.empty())
    J["uncounted"] = K.Uncounted;
  if (!K.UnmodelledGlobal.empty())
    J["unmodelled_global"] = K.UnmodelledGlobal;
  if (K.DeviceHeap)
    J["device_heap"] = true;
  if (K.LaunchesKernels)
    J["launches_kernels"] = true;
  if (K.Sass.Read)
    J["sass"] = toJson(K.Sass);
  return J;
}

json toJson(const SassAccount &S) {
  json Unclaimed = json::array();
  for (const SassAccount::UnclaimedInstr &U : S.Unclaimed)
    Unclaimed.push_back({{"opcode", U.Opcode},
                         {"offset", U.Offset},
                         {"loc", locJson(U.Loc)},
                         {"space", SpaceNames[static_cast<int>(U.Sp)]},
                         {"kind", AccessKindNames[static_cast<int>(U.Kind)]},
                         {"reduction", U.Reduction},
                         {"async", U.Async},
                         {"copies", U.Copies}});
  return {{"instructions", S.Instructions},
          {"all_instructions", S.AllInstructions},
          {"loop_instructions", S.LoopInstructions},
          {"loop_memory", S.LoopMemory},
          {"claimed", S.Claimed},
          {"local", S.Local},
          {"texture", S.Texture},
          {"bulk", S.Bulk},
          {"unclaimed", Unclaimed}};
}

json toJson(const Launch &L) {
  json Args = json::array();
  for (const ArgValue &A : L.Args) {
    json X = {{"kind", ArgKindNames[A.Kind]}};
    switch (A.Kind) {
    case ArgValue::Int:
      X["int"] = A.IntValue;
      break;
    case ArgValue::Float:
      X["float"] = A.FloatValue;
      break;
    case ArgValue::Pointer:
      X["allocation"] = A.Allocation;
      X["align_offset"] = A.AlignOffset;
      break;
    case ArgValue::Unknown:
      X["reason"] = A.Reason;
      break;
    }
    Args.push_back(X);
  }
  json J = {{"kernel", L.Kernel},
            {"grid", dimJson(L.Grid)},
            {"block", dimJson(L.Block)},
            {"dynamic_smem", L.DynamicSmem},
            {"args", Args},
            {"loc", locJson(L.Loc)},
            {"unresolved", L.Unresolved}};
  if (!L.Caveat.empty())
    J["caveat"] = L.Caveat;
  if (!L.Origin.empty())
    J["origin"] = L.Origin;
  return J;
}

json toJson(const CompiledForm &C) {
  json J = {{"state", CompiledStateNames[C.State]}};
  if (!C.Instruction.empty())
    J["instruction"] = C.Instruction;
  if (C.State == CompiledForm::Merged) {
    J["width"] = C.Width;
    J["leader"] = C.Leader;
  }
  if (C.State == CompiledForm::Selected)
    J["leader"] = C.Leader;
  if (C.State == CompiledForm::Split) {
    J["width"] = C.Width;
    J["parts"] = C.Parts;
  }
  if (C.OneLane)
    J["one_lane"] = true;
  if (C.Branches)
    J["branches"] = C.Branches;
  if (C.State == CompiledForm::Merged || C.State == CompiledForm::Hoisted ||
      C.State == CompiledForm::OncePerAddress)
    J["loop"] = C.Loop;
  if (!C.Note.empty())
    J["note"] = C.Note;
  if (C.Line)
    J["line"] = C.Line;
  if (!C.File.empty())
    J["file"] = C.File;
  return J;
}

json toJson(const CompilerInfo &C) {
  json J = {{"used", C.Used}};
  if (!C.Version.empty())
    J["version"] = C.Version;
  if (!C.Arch.empty())
    J["arch"] = C.Arch;
  J["merging_checked"] = C.NotChecked.empty();
  if (!C.NotChecked.empty())
    J["not_checked"] = C.NotChecked;
  if (C.Used == "nvcc")
    J["from_cache"] = C.FromCache;
  J["launches"] = C.Launches;
  if (!C.LaunchesWhy.empty())
    J["launches_why"] = C.LaunchesWhy;
  if (!C.HostStopped.empty())
    J["host_stopped"] = C.HostStopped;
  if (C.Launches == "recorded") {
    J["program_exit"] = C.ProgramExit;
    J["program_output"] = C.ProgramOutput;
  }
  if (!C.BuildNotes.empty())
    J["build_notes"] = C.BuildNotes;
  return J;
}

json toJson(const Module &M) {
  json Kernels = json::array(), Launches = json::array();
  for (const Kernel &K : M.Kernels)
    Kernels.push_back(toJson(K));
  for (const Launch &L : M.Launches)
    Launches.push_back(toJson(L));
  return {{"schema", M.SchemaVersion},
          {"file", M.File},
          {"compiler", toJson(M.Compiler)},
          {"kernels", Kernels},
          {"launches", Launches}};
}

Expected<Module> fromJson(const json &J) { return ModelReader().read(J); }

Expected<Module> readModelFile(const std::string &Path) {
  const std::string Regenerate =
      "; regenerate it with gmem-analyze FILE.cu --emit-model";
  std::error_code EC;
  if (std::filesystem::is_directory(Path, EC))
    return Failure{Path + ": is a directory, not a kernel model"};
  std::ifstream In(Path, std::ios::binary);
  std::ostringstream Text;
  // (Copying an empty file sets failbit on Text: only In's state matters.)
  if (!In || (Text << In.rdbuf(), In.bad()))
    return Failure{Path + ": cannot read the file; check the path"};
  std::string S = Text.str();
  if (S.find_first_not_of(" \t\r\n") == std::string::npos)
    return Failure{Path + ": empty file, not a kernel model" + Regenerate};
  json J;
  try {
    J = json::parse(S);
  } catch (const json::parse_error &E) {
    // E.byte is the 1-based position where parsing stopped.
    size_t End = std::min<size_t>(E.byte ? E.byte - 1 : 0, S.size());
    size_t Line = 1 + std::count(S.begin(), S.begin() + End, '\n');
    size_t LineStart = S.rfind('\n', End ? End - 1 : 0);
    size_t Col =
        LineStart == std::string::npos || End == 0 ? End + 1 : End - LineStart;
    std::string What = E.what();
    size_t Colon = What.find(": ");
    What = Colon == std::string::npos ? What : What.substr(Colon + 2);
    return Failure{Path + ":" + std::to_string(Line) + ":" +
                   std::to_string(Col) + ": not valid JSON (" + What + ")" +
                   (E.byte >= S.size() ? "; the file looks truncated" : "") +
                   Regenerate};
  }
  Expected<Module> M = fromJson(J);
  if (!M) {
    std::string Error = Path + ": " + M.error();
    if (Error.find("regenerate") == std::string::npos)
      Error += Regenerate;
    return Failure{Error};
  }
  return M;
}

} // namespace gmem
