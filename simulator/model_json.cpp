//===- model_json.cpp - The kernel model as JSON --------------------------===//
#include "model_json.h"

#include <stdexcept>

using nlohmann::json;

namespace gmem {

namespace {

const char *OpNames[] = {
    "const", "param", "var", "builtin", "unknown", "cast",  "neg", "not",
    "lnot",  "add",   "sub", "mul",     "div",     "rem",   "shl", "shr",
    "and",   "or",    "xor", "lt",      "le",      "gt",    "ge",  "eq",
    "ne",    "land",  "lor", "min",     "max",     "select",
    "shfl"};
const char *StmtNames[] = {"assign", "if",    "loop",     "access",
                           "return", "break", "continue", "call"};
const char *ParamKindNames[] = {"int", "pointer", "float", "other"};
const char *ArgKindNames[] = {"int", "float", "pointer", "unknown"};

template <size_t N>
int lookup(const char *(&Names)[N], const std::string &S, const char *What) {
  for (size_t I = 0; I < N; ++I)
    if (S == Names[I])
      return static_cast<int>(I);
  throw std::runtime_error(std::string("unknown ") + What + " '" + S + "'");
}

std::string typeName(IntType T) {
  if (T.Bits == 1)
    return "bool";
  return (T.Signed ? "i" : "u") + std::to_string(T.Bits);
}

IntType parseType(const std::string &S) {
  if (S == "bool")
    return {1, false};
  if (S.size() < 2 || (S[0] != 'i' && S[0] != 'u'))
    throw std::runtime_error("bad type '" + S + "'");
  int Bits = std::stoi(S.substr(1));
  if (Bits != 8 && Bits != 16 && Bits != 32 && Bits != 64)
    throw std::runtime_error("bad type '" + S + "'");
  return {static_cast<uint8_t>(Bits), S[0] == 'i'};
}

json locJson(const SourceLoc &L) {
  return {{"file", L.File}, {"line", L.Line}, {"col", L.Col}};
}

SourceLoc parseLoc(const json &J) {
  SourceLoc L;
  if (J.is_null())
    return L;
  L.File = J.value("file", "");
  L.Line = J.value("line", 0u);
  L.Col = J.value("col", 0u);
  return L;
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
    break;
  default:
    break;
  }
  if (!E.Ops.empty()) {
    json Ops = json::array();
    for (const ExprPtr &O : E.Ops)
      Ops.push_back(exprJson(*O));
    J["ops"] = Ops;
  }
  return J;
}

ExprPtr parseExpr(const json &J) {
  auto E = std::make_shared<Expr>();
  E->Kind = static_cast<Op>(
      lookup(OpNames, J.at("op").get<std::string>(), "expression op"));
  E->Type = parseType(J.at("type").get<std::string>());
  E->Value = J.value("value", int64_t(0));
  E->Index = J.value("index", -1);
  E->Reason = J.value("reason", "");
  if (J.contains("ops"))
    for (const json &O : J.at("ops"))
      E->Ops.push_back(parseExpr(O));
  return E;
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

std::vector<Stmt> parseStmts(const json &J);

Stmt parseStmt(const json &J) {
  Stmt S;
  S.Kind = static_cast<StmtKind>(
      lookup(StmtNames, J.at("kind").get<std::string>(), "statement kind"));
  S.Loc = parseLoc(J.value("loc", json()));
  switch (S.Kind) {
  case StmtKind::Assign:
    S.Slot = J.at("slot").get<int>();
    S.Value = parseExpr(J.at("value"));
    break;
  case StmtKind::If:
    S.Cond = parseExpr(J.at("cond"));
    S.Then = parseStmts(J.at("then"));
    S.Else = parseStmts(J.at("else"));
    break;
  case StmtKind::Loop:
    S.CondPre = parseStmts(J.at("cond_pre"));
    S.Cond = parseExpr(J.at("cond"));
    S.Body = parseStmts(J.at("body"));
    S.Step = parseStmts(J.at("step"));
    S.TestFirst = J.value("test_first", true);
    break;
  case StmtKind::Access:
    S.AccessId = J.at("access").get<int>();
    break;
  case StmtKind::Call:
    S.Callee = J.value("callee", "");
    S.Body = parseStmts(J.at("body"));
    break;
  default:
    break;
  }
  return S;
}

std::vector<Stmt> parseStmts(const json &J) {
  std::vector<Stmt> S;
  for (const json &X : J)
    S.push_back(parseStmt(X));
  return S;
}

const char *const CompiledStateNames[] = {
    "unchecked", "as_written", "merged", "hoisted", "reused", "ambiguous"};

} // namespace

json toJson(const CompiledForm &C) {
  json J = {{"state", CompiledStateNames[C.State]}};
  if (!C.Instruction.empty())
    J["instruction"] = C.Instruction;
  if (C.State == CompiledForm::Merged) {
    J["width"] = C.Width;
    J["leader"] = C.Leader;
  }
  if (C.State == CompiledForm::Merged || C.State == CompiledForm::Hoisted)
    J["loop"] = C.Loop;
  if (!C.Note.empty())
    J["note"] = C.Note;
  return J;
}

namespace {

CompiledForm parseCompiled(const json &J) {
  CompiledForm C;
  std::string State = J.at("state").get<std::string>();
  for (int I = 0; I < 6; ++I)
    if (State == CompiledStateNames[I])
      C.State = static_cast<CompiledForm::StateT>(I);
  C.Instruction = J.value("instruction", "");
  C.Width = J.value("width", 0u);
  C.Leader = J.value("leader", -1);
  C.Loop = J.value("loop", -1);
  C.Note = J.value("note", "");
  return C;
}

json dimJson(const Dim3 &D) { return json::array({D.X, D.Y, D.Z}); }

Dim3 parseDim(const json &J) {
  return {J.at(0).get<uint64_t>(), J.at(1).get<uint64_t>(),
          J.at(2).get<uint64_t>()};
}

Kernel parseKernel(const json &J) {
  Kernel K;
  K.Name = J.at("name").get<std::string>();
  K.MangledName = J.value("mangled", "");
  K.Loc = parseLoc(J.value("loc", json()));
  for (const json &P : J.at("params")) {
    Param X;
    X.Name = P.at("name").get<std::string>();
    X.TypeName = P.value("type_name", "");
    X.Kind = static_cast<ParamKind>(
        lookup(ParamKindNames, P.at("kind").get<std::string>(), "param kind"));
    X.Type = parseType(P.value("type", "i32"));
    X.PointeeSize = P.value("pointee_size", 0u);
    K.Params.push_back(X);
  }
  for (const json &A : J.at("shared")) {
    SharedArray S;
    S.Name = A.at("name").get<std::string>();
    S.Dynamic = A.value("dynamic", false);
    S.Offset = A.value("offset", uint64_t(0));
    S.Bytes = A.value("bytes", uint64_t(0));
    S.ElemSize = A.value("elem_size", 4u);
    S.Dims = A.value("dims", std::vector<uint64_t>());
    S.Loc = parseLoc(A.value("loc", json()));
    K.Shared.push_back(S);
  }
  for (const json &S : J.at("slots"))
    K.Slots.push_back({S.at("name").get<std::string>(),
                       parseType(S.at("type").get<std::string>())});
  for (const json &A : J.at("accesses")) {
    Access X;
    X.Id = A.at("id").get<int>();
    X.Sp = A.at("space").get<std::string>() == "shared" ? Space::Shared
                                                        : Space::Global;
    std::string Kind = A.at("kind").get<std::string>();
    X.Kind = Kind == "store"    ? AccessKind::Store
             : Kind == "atomic" ? AccessKind::Atomic
                                : AccessKind::Load;
    X.Size = A.at("size").get<unsigned>();
    X.Address = parseExpr(A.at("address"));
    X.Loc = parseLoc(A.value("loc", json()));
    X.Text = A.value("text", "");
    X.Array = A.value("array", "");
    X.SharedArray = A.value("shared_array", -1);
    if (A.contains("unknown_reason"))
      X.UnknownReason = A.at("unknown_reason").get<std::string>();
    if (A.contains("compiled"))
      X.Compiled = parseCompiled(A.at("compiled"));
    if (X.Id != static_cast<int>(K.Accesses.size()))
      throw std::runtime_error("access ids must be 0, 1, ... in order");
    K.Accesses.push_back(X);
  }
  K.Body = parseStmts(J.at("body"));
  K.Warnings = J.value("warnings", std::vector<std::string>());
  return K;
}

Launch parseLaunch(const json &J) {
  Launch L;
  L.Kernel = J.at("kernel").get<std::string>();
  L.Grid = parseDim(J.at("grid"));
  L.Block = parseDim(J.at("block"));
  L.DynamicSmem = J.value("dynamic_smem", uint64_t(0));
  L.Loc = parseLoc(J.value("loc", json()));
  L.Unresolved = J.value("unresolved", std::vector<std::string>());
  for (const json &A : J.at("args")) {
    ArgValue V;
    V.Kind = static_cast<ArgValue::KindT>(
        lookup(ArgKindNames, A.at("kind").get<std::string>(), "arg kind"));
    V.IntValue = A.value("int", int64_t(0));
    V.FloatValue = A.value("float", 0.0);
    V.Allocation = A.value("allocation", "");
    V.AlignOffset = A.value("align_offset", uint64_t(0));
    V.Reason = A.value("reason", "");
    L.Args.push_back(V);
  }
  return L;
}

} // namespace

json toJson(const Kernel &K) {
  json Params = json::array(), Shared = json::array(), Slots = json::array(),
       Accesses = json::array();
  for (const Param &P : K.Params)
    Params.push_back({{"name", P.Name},
                      {"type_name", P.TypeName},
                      {"kind", ParamKindNames[static_cast<int>(P.Kind)]},
                      {"type", typeName(P.Type)},
                      {"pointee_size", P.PointeeSize}});
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
              {"space", A.Sp == Space::Shared ? "shared" : "global"},
              {"kind", A.Kind == AccessKind::Store    ? "store"
                       : A.Kind == AccessKind::Atomic ? "atomic"
                                                      : "load"},
              {"size", A.Size},
              {"address", exprJson(*A.Address)},
              {"loc", locJson(A.Loc)},
              {"text", A.Text},
              {"array", A.Array},
              {"shared_array", A.SharedArray}};
    if (A.UnknownReason)
      X["unknown_reason"] = *A.UnknownReason;
    if (A.Compiled.State != CompiledForm::Unchecked)
      X["compiled"] = toJson(A.Compiled);
    Accesses.push_back(X);
  }
  return {{"name", K.Name},        {"mangled", K.MangledName},
          {"loc", locJson(K.Loc)}, {"params", Params},
          {"shared", Shared},      {"slots", Slots},
          {"accesses", Accesses},  {"body", stmtsJson(K.Body)},
          {"warnings", K.Warnings}};
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
  return {{"kernel", L.Kernel},
          {"grid", dimJson(L.Grid)},
          {"block", dimJson(L.Block)},
          {"dynamic_smem", L.DynamicSmem},
          {"args", Args},
          {"loc", locJson(L.Loc)},
          {"unresolved", L.Unresolved}};
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

bool fromJson(const json &J, Module &M, std::string &Error) {
  try {
    int Schema = J.at("schema").get<int>();
    if (Schema != ModelSchemaVersion) {
      Error = "kernel model schema " + std::to_string(Schema) +
              " is not supported (this gmem reads schema " +
              std::to_string(ModelSchemaVersion) + ")";
      return false;
    }
    M = Module();
    M.File = J.value("file", "");
    if (J.contains("compiler")) {
      const json &C = J.at("compiler");
      M.Compiler.Used = C.value("used", "source");
      M.Compiler.Version = C.value("version", "");
      M.Compiler.Arch = C.value("arch", "");
      M.Compiler.NotChecked = C.value("not_checked", "");
      M.Compiler.FromCache = C.value("from_cache", false);
    }
    for (const json &K : J.at("kernels"))
      M.Kernels.push_back(parseKernel(K));
    for (const json &L : J.at("launches"))
      M.Launches.push_back(parseLaunch(L));
    return true;
  } catch (const std::exception &E) {
    Error = std::string("malformed kernel model: ") + E.what();
    return false;
  }
}

} // namespace gmem
