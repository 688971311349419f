//===- ptx_parser.cpp - Read a .ptx file into ptx::Module -------------------===//
//
// A hand-written scanner over the text (PTX files of library-heavy programs
// run to megabytes): directives, declarations, and instructions as opcode,
// modifiers and operands. Nested scopes are resolved here: every .reg and
// every function-level variable is one entry of its function, found by the
// innermost scope that declares its name.
//
//===----------------------------------------------------------------------===//
#include "ptx_parser.h"

#include <cctype>
#include <cstdlib>
#include <functional>
#include <tuple>
#include <cstring>
#include <unordered_map>

namespace gmem::ptx {

const Function *Module::function(const std::string &Name) const {
  for (const Function &F : Functions)
    if (F.Name == Name)
      return &F;
  return nullptr;
}

const Variable *Module::global(const std::string &Name) const {
  for (const Variable &V : Globals)
    if (V.Name == Name)
      return &V;
  return nullptr;
}

namespace {

bool identStart(char C) {
  return std::isalpha(static_cast<unsigned char>(C)) || C == '_' || C == '$' ||
         C == '%';
}
bool identChar(char C) {
  return std::isalnum(static_cast<unsigned char>(C)) || C == '_' || C == '$';
}

/// Bytes of a scalar type name ("u32" -> 4); 0 when not a type.
unsigned typeBytes(std::string_view T) {
  static const std::pair<const char *, unsigned> Types[] = {
      {"b8", 1},   {"u8", 1},   {"s8", 1},    {"b16", 2},   {"u16", 2},
      {"s16", 2},  {"f16", 2},  {"bf16", 2},  {"b32", 4},   {"u32", 4},
      {"s32", 4},  {"f32", 4},  {"f16x2", 4}, {"bf16x2", 4}, {"b64", 8},
      {"u64", 8},  {"s64", 8},  {"f64", 8},   {"b128", 16}, {"pred", 1},
      {"e4m3", 1}, {"e5m2", 1}, {"tf32", 4}};
  for (auto &[N, B] : Types)
    if (T == N)
      return B;
  return 0;
}

RegKind regKindOf(std::string_view T) {
  if (T == "pred")
    return RegKind::Pred;
  switch (typeBytes(T)) {
  case 1:
  case 2:
    return RegKind::B16;
  case 4:
    return RegKind::B32;
  case 16:
    return RegKind::B128;
  default:
    return RegKind::B64;
  }
}

class Parser {
public:
  Parser(std::string_view Text, const std::string &Name)
      : S(Text), Name(Name) {}

  Expected<Module> run() {
    while (ok()) {
      skip();
      if (P >= S.size())
        break;
      topLevel();
    }
    if (!Error.empty())
      return Failure{Name + ":" + std::to_string(ErrorLine) + ": " + Error};
    resolveDebugNames();
    return std::move(M);
  }

private:
  std::string_view S;
  const std::string &Name;
  size_t P = 0;
  uint32_t Line = 1;
  std::string Error;
  uint32_t ErrorLine = 0;
  Module M;

  // The function being read, its scopes (name -> register or local), and
  // the positions seen so far (file, line, col -> its index), so that an
  // inlined_at names the latest position with those coordinates.
  Function *F = nullptr;
  std::vector<std::unordered_map<std::string, int>> RegScopes;
  std::vector<std::unordered_map<std::string, std::string>> VarScopes;
  std::map<std::tuple<uint32_t, uint32_t, uint32_t>, int32_t> PosIndex;
  int32_t CurPos = -1;
  unsigned UniqueLocal = 0;

  bool ok() const { return Error.empty(); }
  bool fail(const std::string &Why) {
    if (Error.empty()) {
      Error = Why;
      ErrorLine = Line;
    }
    return false;
  }

  // --- Scanning -----------------------------------------------------------

  void skip() {
    while (P < S.size()) {
      const char C = S[P];
      if (C == '\n') {
        ++Line;
        ++P;
      } else if (std::isspace(static_cast<unsigned char>(C))) {
        ++P;
      } else if (C == '/' && P + 1 < S.size() && S[P + 1] == '/') {
        while (P < S.size() && S[P] != '\n')
          ++P;
      } else if (C == '/' && P + 1 < S.size() && S[P + 1] == '*') {
        P += 2;
        while (P + 1 < S.size() && !(S[P] == '*' && S[P + 1] == '/')) {
          Line += S[P] == '\n';
          ++P;
        }
        P = std::min(P + 2, S.size()); // An unterminated comment ends it.
      } else {
        break;
      }
    }
  }
  char peek() {
    skip();
    return P < S.size() ? S[P] : '\0';
  }
  bool eat(char C) {
    if (peek() != C)
      return false;
    ++P;
    return true;
  }
  bool expect(char C) {
    if (eat(C))
      return true;
    return fail(std::string("expected '") + C + "' before '" + context() +
                "'");
  }
  std::string context() {
    if (P >= S.size())
      return "the end of the text";
    size_t E = P;
    while (E < S.size() && S[E] != '\n' && E - P < 40)
      ++E;
    return std::string(S.substr(P, E - P));
  }
  /// An identifier (letters, digits, _ $ %), or "" when none is here.
  std::string ident() {
    skip();
    size_t B = P;
    if (P < S.size() && identStart(S[P]))
      ++P;
    else
      return {};
    while (P < S.size() && identChar(S[P]))
      ++P;
    return std::string(S.substr(B, P - B));
  }
  /// A directive or opcode with its modifiers: "ld.global.f32" (dots kept).
  std::string dotted() {
    skip();
    size_t B = P;
    while (P < S.size() && (identChar(S[P]) || S[P] == '.' || S[P] == ':'))
      ++P;
    return std::string(S.substr(B, P - B));
  }
  /// A directive's name: `.reg.b32 f;` (CUDA's half headers write their
  /// inline PTX so) is `.reg` followed by `.b32`.
  std::string directive() {
    std::string D = dotted();
    if (const size_t Dot = D.find('.', 1); Dot != std::string::npos) {
      P -= D.size() - Dot;
      D.resize(Dot);
    }
    return D;
  }
  bool number(int64_t &V) {
    skip();
    bool Neg = false;
    if (P < S.size() && S[P] == '-') {
      Neg = true;
      ++P;
    }
    if (P >= S.size() || !std::isdigit(static_cast<unsigned char>(S[P])))
      return fail("expected a number at '" + context() + "'");
    uint64_t U = 0;
    if (S[P] == '0' && P + 1 < S.size() && (S[P + 1] == 'x' || S[P + 1] == 'X')) {
      P += 2;
      while (P < S.size() && std::isxdigit(static_cast<unsigned char>(S[P])))
        U = U * 16 + hexDigit(S[P++]);
    } else if (S[P] == '0' && P + 1 < S.size() &&
               (S[P + 1] == 'b' || S[P + 1] == 'B')) {
      P += 2;
      while (P < S.size() && (S[P] == '0' || S[P] == '1'))
        U = U * 2 + unsigned(S[P++] - '0');
    } else if (S[P] == '0' && P + 1 < S.size() &&
               std::isdigit(static_cast<unsigned char>(S[P + 1]))) {
      while (P < S.size() && S[P] >= '0' && S[P] <= '7')
        U = U * 8 + unsigned(S[P++] - '0');
    } else {
      while (P < S.size() && std::isdigit(static_cast<unsigned char>(S[P])))
        U = U * 10 + unsigned(S[P++] - '0');
    }
    if (P < S.size() && (S[P] == 'U' || S[P] == 'u'))
      ++P;
    V = Neg ? -int64_t(U) : int64_t(U);
    return true;
  }
  static unsigned hexDigit(char C) {
    if (C >= '0' && C <= '9')
      return unsigned(C - '0');
    return unsigned(std::tolower(static_cast<unsigned char>(C)) - 'a' + 10);
  }
  /// Skips to the end of the statement (';'), over nested braces.
  void skipStatement() {
    int Depth = 0;
    while (P < S.size()) {
      const char C = S[P];
      if (C == '\n')
        ++Line;
      ++P;
      if (C == '{')
        ++Depth;
      else if (C == '}')
        --Depth;
      else if (C == ';' && Depth <= 0)
        return;
    }
  }
  /// Skips a { ... } block (the opening brace is next).
  void skipBlock() {
    expect('{');
    int Depth = 1;
    while (P < S.size() && Depth) {
      const char C = S[P++];
      if (C == '\n')
        ++Line;
      else if (C == '{')
        ++Depth;
      else if (C == '}')
        --Depth;
    }
  }

  // --- Top level ----------------------------------------------------------

  void topLevel() {
    if (peek() == '{') {
      skipBlock();
      return;
    }
    const uint32_t DeclLine = Line;
    std::string D = dotted();
    if (D.empty())
      return void(fail("unexpected text '" + context() + "'"));
    if (D == ".version") {
      M.Version = dotted();
      return;
    }
    if (D == ".target") {
      M.Target = dotted();
      while (eat(','))
        dotted();
      return;
    }
    if (D == ".address_size") {
      int64_t V = 64;
      number(V);
      M.AddressSize = unsigned(V);
      return;
    }
    if (D == ".file")
      return fileDirective();
    if (D == ".section")
      return section();
    if (D == ".pragma") {
      skipStatement();
      return;
    }
    // Linkage, then a function or a variable.
    bool Extern = false;
    while (D == ".visible" || D == ".extern" || D == ".weak" ||
           D == ".common") {
      Extern |= D == ".extern";
      D = dotted();
    }
    if (D == ".entry" || D == ".func")
      return function(D == ".entry", DeclLine);
    if (D == ".global" || D == ".const" || D == ".shared" || D == ".tex" ||
        D == ".texref" || D == ".samplerref" || D == ".surfref") {
      std::vector<Variable> Vars;
      if (!variables(D, Extern, Vars))
        return;
      for (Variable &V : Vars)
        M.Globals.push_back(std::move(V));
      return;
    }
    if (D == ".alias") {
      skipStatement();
      return;
    }
    fail("unknown directive '" + D + "'");
  }

  void fileDirective() {
    int64_t N = 0;
    if (!number(N) || !expect('"'))
      return;
    size_t B = P;
    while (P < S.size() && S[P] != '"')
      ++P;
    M.Files[uint32_t(N)] = std::string(S.substr(B, P - B));
    ++P;
    // Optional timestamp and size.
    while (eat(',')) {
      int64_t Ignored;
      number(Ignored);
    }
  }

  /// .section .debug_str { $L__info_string0: .b8 95,90,0 ... }: the
  /// inlined functions' names; other sections are skipped.
  void section() {
    const std::string Sec = dotted();
    if (Sec != ".debug_str") {
      skipBlock();
      return;
    }
    if (!expect('{'))
      return;
    std::string Label;
    while (ok() && peek() != '}' && P < S.size()) {
      if (S[P] == '$' || std::isalpha(static_cast<unsigned char>(S[P]))) {
        Label = ident();
        expect(':');
        continue;
      }
      const std::string D = dotted();
      if (D != ".b8") {
        skipStatement();
        continue;
      }
      std::string &Out = M.DebugStrings[Label];
      do {
        int64_t V = 0;
        if (!number(V))
          return;
        if (V)
          Out += char(V);
      } while (eat(','));
      eat(';');
    }
    expect('}');
  }

  void resolveDebugNames() {
    for (SourcePos &SP : M.Positions)
      if (!SP.Function.empty()) {
        auto It = M.DebugStrings.find(SP.Function);
        if (It != M.DebugStrings.end())
          SP.Function = It->second;
      }
  }

  // --- Declarations -------------------------------------------------------

  /// After the space directive: [.align N] [.vN] .type name[dims] [= init]
  /// (several names separated by commas).
  bool variables(const std::string &SpaceDir, bool Extern,
                 std::vector<Variable> &Out) {
    Variable V;
    V.Extern = Extern;
    if (SpaceDir == ".global")
      V.Space = StateSpace::Global;
    else if (SpaceDir == ".const")
      V.Space = StateSpace::Const;
    else if (SpaceDir == ".shared")
      V.Space = StateSpace::Shared;
    else if (SpaceDir == ".local")
      V.Space = StateSpace::Local;
    else if (SpaceDir == ".param")
      V.Space = StateSpace::Param;
    else
      V.Sampler = true, V.Space = StateSpace::Global;
    unsigned Vec = 1;
    std::string Type;
    while (ok() && peek() == '.') {
      const std::string D = dotted();
      if (D == ".align") {
        int64_t A = 0;
        number(A);
        V.Align = unsigned(A);
      } else if (D == ".v2" || D == ".v4" || D == ".v8") {
        Vec = unsigned(D[2] - '0');
      } else if (D == ".attribute") {
        expect('(');
        dotted();
        expect(')');
      } else if (D == ".ptr" || D == ".global" || D == ".shared" ||
                 D == ".const" || D == ".local") {
        // Entry parameter attributes (.ptr .global .align 4).
      } else if (typeBytes(D.substr(1))) {
        Type = D.substr(1);
      } else if (D == ".texref" || D == ".samplerref" || D == ".surfref") {
        V.Sampler = true;
        Type = "b64";
      } else {
        return fail("unknown declaration attribute '" + D + "'");
      }
    }
    if (V.Sampler && Type.empty())
      Type = "b64";
    V.ElemSize = typeBytes(Type) * Vec;
    if (!V.ElemSize)
      return fail("declaration without a type at '" + context() + "'");
    if (!V.Align)
      V.Align = typeBytes(Type);
    do {
      Variable One = V;
      One.Name = ident();
      if (One.Name.empty())
        return fail("expected a name at '" + context() + "'");
      uint64_t Count = 1;
      while (eat('[')) {
        if (peek() == ']') {
          One.Unsized = true;
          Count = 0;
        } else {
          int64_t N = 0;
          if (!number(N))
            return false;
          // More than a GPU's memory is not a variable nvcc declares.
          constexpr uint64_t MaxBytes = uint64_t(1) << 40;
          if (N < 0 || (N && Count > MaxBytes / uint64_t(N) / One.ElemSize))
            return fail("an array of " + std::to_string(N) +
                        " elements beyond " + std::to_string(MaxBytes) +
                        " bytes at '" + context() + "'");
          Count *= uint64_t(N);
        }
        if (!expect(']'))
          return false;
      }
      One.Bytes = One.Unsized ? 0 : Count * One.ElemSize;
      if (eat('=')) {
        if (!initializer(One, typeBytes(Type), Type))
          return false;
        if (One.Unsized) {
          One.Bytes = One.Init.size();
          One.Unsized = false;
        }
      }
      Out.push_back(std::move(One));
    } while (ok() && eat(','));
    return ok() && expect(';');
  }

  /// = value or = {values, {nested}}: the bytes, little-endian, each value
  /// Elem bytes wide; generic(sym)+k and sym+k are address initialisers.
  bool initializer(Variable &V, unsigned Elem, const std::string &Type) {
    const bool IsFloat = Type[0] == 'f';
    auto Value = [&]() -> bool {
      skip();
      if (P < S.size() && (identStart(S[P]) && S[P] != '%')) {
        std::string Sym = ident();
        if (Sym == "generic") {
          if (!expect('('))
            return false;
          Sym = ident();
          if (!expect(')'))
            return false;
        }
        int64_t Add = 0;
        if (eat('+') && !number(Add))
          return false;
        V.InitSymbols[V.Init.size()] = {Sym, Add};
        V.Init.append(Elem, '\0');
        return true;
      }
      uint64_t Bits = 0;
      if (!literal(Bits, IsFloat ? Elem * 8 : 0))
        return false;
      for (unsigned I = 0; I < Elem; ++I)
        V.Init += char((Bits >> (8 * I)) & 0xff);
      return true;
    };
    std::function<bool()> List = [&]() -> bool {
      if (!eat('{'))
        return Value();
      if (peek() != '}')
        do {
          if (!List())
            return false;
        } while (eat(','));
      return expect('}');
    };
    return List();
  }

  /// An integer or float literal's bits; FloatWidth 32 or 64 converts a
  /// decimal float (or an integer) to that width.
  bool literal(uint64_t &Bits, unsigned FloatWidth) {
    skip();
    if (P + 1 < S.size() && S[P] == '0' &&
        (S[P + 1] == 'f' || S[P + 1] == 'F' || S[P + 1] == 'd' ||
         S[P + 1] == 'D')) {
      const bool Single = S[P + 1] == 'f' || S[P + 1] == 'F';
      P += 2;
      Bits = 0;
      while (P < S.size() && std::isxdigit(static_cast<unsigned char>(S[P])))
        Bits = Bits * 16 + hexDigit(S[P++]);
      if (FloatWidth == 64 && Single) {
        float F;
        uint32_t B = uint32_t(Bits);
        std::memcpy(&F, &B, 4);
        double D = F;
        std::memcpy(&Bits, &D, 8);
      } else if (FloatWidth == 32 && !Single) {
        double D;
        std::memcpy(&D, &Bits, 8);
        float F = float(D);
        uint32_t B;
        std::memcpy(&B, &F, 4);
        Bits = B;
      }
      return true;
    }
    // A decimal float (digits with '.' or an exponent) or an integer.
    size_t E = P + (P < S.size() && S[P] == '-');
    bool Decimal = false;
    while (E < S.size() &&
           (std::isdigit(static_cast<unsigned char>(S[E])) || S[E] == '.' ||
            S[E] == 'e' || S[E] == 'E' ||
            ((S[E] == '-' || S[E] == '+') &&
             (S[E - 1] == 'e' || S[E - 1] == 'E')))) {
      Decimal |= S[E] == '.' || S[E] == 'e' || S[E] == 'E';
      ++E;
    }
    if (Decimal && !(S[P] == '0' && E > P + 1 && (S[P + 1] == 'x'))) {
      const double D = std::strtod(std::string(S.substr(P, E - P)).c_str(),
                                   nullptr);
      P = E;
      if (FloatWidth == 32) {
        float F = float(D);
        uint32_t B;
        std::memcpy(&B, &F, 4);
        Bits = B;
      } else {
        std::memcpy(&Bits, &D, 8);
      }
      return true;
    }
    int64_t V = 0;
    if (!number(V))
      return false;
    if (FloatWidth == 32) {
      float F = float(V);
      uint32_t B;
      std::memcpy(&B, &F, 4);
      Bits = B;
    } else if (FloatWidth == 64) {
      double D = double(V);
      std::memcpy(&Bits, &D, 8);
    } else {
      Bits = uint64_t(V);
    }
    return true;
  }

  /// (.param .type name, ...) of a function or a prototype.
  bool paramList(std::vector<Param> &Out) {
    if (!expect('('))
      return false;
    if (eat(')'))
      return true;
    do {
      const std::string D = dotted();
      if (D != ".param" && D != ".reg")
        return fail("expected .param in a parameter list at '" + context() +
                    "'");
      Param Pm;
      unsigned Elem = 0, Count = 1;
      while (ok() && peek() == '.') {
        const std::string A = dotted();
        if (A == ".align") {
          int64_t N;
          number(N);
          Pm.Align = unsigned(N);
        } else if (A == ".ptr") {
          Pm.Pointer = true;
        } else if (typeBytes(A.substr(1))) {
          Elem = typeBytes(A.substr(1));
        } // .global/.shared/.const after .ptr: the pointee's space.
      }
      Pm.Name = ident();
      if (eat('[')) {
        int64_t N = 0;
        if (!number(N) || !expect(']'))
          return false;
        if (N < 0 || N > (int64_t(1) << 20))
          return fail("a parameter array of " + std::to_string(N) +
                      " elements");
        Count = unsigned(N);
      }
      Pm.Bytes = Elem * Count;
      if (!Pm.Align)
        Pm.Align = Elem;
      Out.push_back(Pm);
    } while (ok() && eat(','));
    return ok() && expect(')');
  }

  void function(bool Entry, uint32_t DeclLine) {
    Function Fn;
    Fn.Entry = Entry;
    Fn.PtxLine = DeclLine;
    if (peek() == '(' && !paramList(Fn.Returns))
      return;
    Fn.Name = ident();
    if (Fn.Name.empty())
      return void(fail("expected a function name at '" + context() + "'"));
    if (peek() == '(' && !paramList(Fn.Params))
      return;
    // Performance directives and attributes before the body.
    while (ok() && peek() == '.') {
      const std::string D = dotted();
      if (D == ".reqntid" || D == ".maxntid") {
        unsigned *Dst = D == ".reqntid" ? Fn.ReqNtid : Fn.MaxNtid;
        for (int I = 0; I < 3; ++I) {
          int64_t N = 0;
          number(N);
          Dst[I] = unsigned(N);
          if (!eat(','))
            break;
        }
      } else if (D == ".noreturn" || D == ".explicitcluster") {
      } else {
        // .minnctapersm N, .maxnreg N, .reqnctapercluster x,y,z,
        // .maxclusterrank N, .pragma "..."
        if (D == ".pragma") {
          skipStatement();
          continue;
        }
        do {
          int64_t N;
          number(N);
        } while (eat(','));
      }
    }
    if (eat(';')) {
      // A declaration: kept when nothing defines it (an extern function).
      if (!M.function(Fn.Name))
        M.Functions.push_back(std::move(Fn));
      return;
    }
    // A definition replaces an earlier declaration of the same name.
    for (size_t I = 0; I < M.Functions.size(); ++I)
      if (M.Functions[I].Name == Fn.Name && !M.Functions[I].Defined) {
        M.Functions.erase(M.Functions.begin() + long(I));
        break;
      }
    M.Functions.push_back(std::move(Fn));
    F = &M.Functions.back();
    F->Defined = true;
    body();
    F = nullptr;
  }

  // --- Function bodies ----------------------------------------------------

  void body() {
    if (!expect('{'))
      return;
    RegScopes.assign(1, {});
    VarScopes.assign(1, {});
    // Parameters are symbols of the outer scope under their own names.
    for (const Param &Pm : F->Params)
      VarScopes[0][Pm.Name] = Pm.Name;
    for (const Param &Pm : F->Returns)
      VarScopes[0][Pm.Name] = Pm.Name;
    std::vector<std::string> PendingLabels;
    while (ok()) {
      const char C = peek();
      if (C == '\0')
        return void(fail("the function " + F->Name + " has no closing brace"));
      if (C == '{') {
        ++P;
        RegScopes.emplace_back();
        VarScopes.emplace_back();
        continue;
      }
      if (C == '}') {
        ++P;
        RegScopes.pop_back();
        VarScopes.pop_back();
        if (RegScopes.empty())
          break;
        continue;
      }
      if (C == '.') {
        bodyDirective();
        continue;
      }
      if (C == '@') {
        instruction();
        continue;
      }
      // A label, a prototype, or an instruction.
      const size_t Save = P;
      const uint32_t SaveLine = Line;
      const std::string Id = ident();
      if (!Id.empty() && peek() == ':' &&
          !(P + 1 < S.size() && S[P + 1] == ':')) {
        ++P;
        if (peek() == '.') {
          const size_t AtDir = P;
          if (dotted() == ".callprototype") {
            prototype(Id);
            continue;
          }
          P = AtDir;
        }
        F->Labels[Id] = uint32_t(F->Body.size());
        continue;
      }
      P = Save;
      Line = SaveLine;
      instruction();
    }
  }

  void prototype(const std::string &Id) {
    std::vector<Param> Rets, Params;
    if (peek() == '(' && !paramList(Rets))
      return;
    ident(); // _
    if (peek() == '(' && !paramList(Params))
      return;
    while (peek() == '.')
      dotted(); // .noreturn
    expect(';');
    F->Prototypes[Id] = Params;
  }

  void bodyDirective() {
    const std::string D = directive();
    if (D == ".reg")
      return regDecl();
    if (D == ".loc")
      return locDirective();
    if (D == ".local" || D == ".shared" || D == ".param" || D == ".const" ||
        D == ".global") {
      std::vector<Variable> Vars;
      if (!variables(D, false, Vars))
        return;
      for (Variable &V : Vars) {
        // Unique in the function: sibling scopes reuse names (param0).
        const std::string Unique =
            VarScopes.size() > 1
                ? V.Name + "#" + std::to_string(UniqueLocal++)
                : V.Name;
        VarScopes.back()[V.Name] = Unique;
        V.Name = Unique;
        F->Locals.push_back(std::move(V));
      }
      return;
    }
    if (D == ".pragma" || D == ".maxnreg" || D == ".minnctapersm" ||
        D == ".maxntid" || D == ".reqntid" || D == ".file") {
      skipStatement();
      return;
    }
    fail("unknown directive '" + D + "' in " + F->Name);
  }

  void regDecl() {
    std::string Type;
    unsigned Vec = 1;
    while (ok() && peek() == '.') {
      const std::string D = dotted();
      if (D == ".v2" || D == ".v4")
        Vec = unsigned(D[2] - '0');
      else
        Type = D.substr(1);
    }
    if (!typeBytes(Type))
      return void(fail("a register of unknown type '." + Type + "'"));
    (void)Vec; // Vector registers are not emitted by nvcc.
    const RegKind K = regKindOf(Type);
    do {
      const std::string N = ident();
      if (N.empty())
        return void(fail("expected a register name at '" + context() + "'"));
      if (eat('<')) {
        int64_t Count = 0;
        if (!number(Count) || !expect('>'))
          return;
        // nvcc's largest kernels declare some ten thousand.
        constexpr int64_t MaxRegs = int64_t(1) << 20;
        if (Count < 0 || Count > MaxRegs - int64_t(F->Regs.size()))
          return void(fail("a declaration of " + std::to_string(Count) +
                           " registers (a function has at most " +
                           std::to_string(MaxRegs) + " here)"));
        for (int64_t I = 0; I < Count; ++I)
          addReg(N + std::to_string(I), K);
      } else {
        addReg(N, K);
      }
    } while (ok() && eat(','));
    expect(';');
  }

  void addReg(const std::string &N, RegKind K) {
    RegScopes.back()[N] = int(F->Regs.size());
    F->Regs.push_back({N, K});
  }

  int findReg(const std::string &N) const {
    for (size_t I = RegScopes.size(); I-- > 0;) {
      auto It = RegScopes[I].find(N);
      if (It != RegScopes[I].end())
        return It->second;
    }
    return -1;
  }
  std::string findVar(const std::string &N) const {
    for (size_t I = VarScopes.size(); I-- > 0;) {
      auto It = VarScopes[I].find(N);
      if (It != VarScopes[I].end())
        return It->second;
    }
    return N; // A module symbol (variable or function) or a label.
  }

  /// .loc file line col [, function_name $L..., inlined_at file line col]
  void locDirective() {
    int64_t Fl = 0, Ln = 0, Cl = 0;
    if (!number(Fl) || !number(Ln) || !number(Cl))
      return;
    SourcePos SP;
    SP.File = uint32_t(Fl);
    SP.Line = uint32_t(Ln);
    SP.Col = uint32_t(Cl);
    while (eat(',')) {
      const std::string Key = ident();
      if (Key == "function_name") {
        SP.Function = ident();
      } else if (Key == "inlined_at") {
        int64_t IF = 0, IL = 0, IC = 0;
        if (!number(IF) || !number(IL) || !number(IC))
          return;
        auto It = PosIndex.find({uint32_t(IF), uint32_t(IL), uint32_t(IC)});
        if (It != PosIndex.end()) {
          SP.InlinedAt = It->second;
        } else {
          SourcePos Outer;
          Outer.File = uint32_t(IF);
          Outer.Line = uint32_t(IL);
          Outer.Col = uint32_t(IC);
          M.Positions.push_back(Outer);
          SP.InlinedAt = int32_t(M.Positions.size() - 1);
        }
      } else {
        return void(fail("unknown .loc field '" + Key + "'"));
      }
    }
    // Reuse an equal position (same place, same chain).
    auto Key = std::make_tuple(SP.File, SP.Line, SP.Col);
    auto It = PosIndex.find(Key);
    if (It != PosIndex.end()) {
      const SourcePos &Old = M.Positions[size_t(It->second)];
      if (Old.InlinedAt == SP.InlinedAt && Old.Function == SP.Function) {
        CurPos = It->second;
        return;
      }
    }
    M.Positions.push_back(std::move(SP));
    CurPos = int32_t(M.Positions.size() - 1);
    PosIndex[Key] = CurPos;
  }

  // --- Instructions -------------------------------------------------------

  void instruction() {
    Instr I;
    I.PtxLine = Line;
    I.Pos = CurPos;
    if (eat('@')) {
      I.GuardNot = eat('!');
      const std::string G = ident();
      I.Guard = findReg(G);
      if (I.Guard < 0)
        return void(fail("unknown guard predicate '" + G + "'"));
    }
    const std::string Opcode = dotted();
    if (Opcode.empty())
      return void(fail("expected an instruction at '" + context() + "'"));
    size_t Dot = Opcode.find('.');
    I.Op = Opcode.substr(0, Dot);
    while (Dot != std::string::npos) {
      const size_t Next = Opcode.find('.', Dot + 1);
      I.Mods.push_back(Opcode.substr(Dot + 1, Next == std::string::npos
                                                   ? std::string::npos
                                                   : Next - Dot - 1));
      Dot = Next;
    }
    if (peek() != ';') {
      do {
        Operand O;
        if (!operand(O))
          return;
        I.Ops.push_back(std::move(O));
      } while (ok() && eat(','));
    }
    if (!expect(';'))
      return;
    F->Body.push_back(std::move(I));
  }

  bool operand(Operand &O) {
    // PTX nests operands two deep at most ({...} inside [...]); a bound
    // keeps hostile input from exhausting the stack.
    if (Nesting > 8)
      return fail("operands nested more than 8 deep");
    ++Nesting;
    const bool Ok = nestedOperand(O);
    --Nesting;
    return Ok;
  }
  unsigned Nesting = 0;

  bool nestedOperand(Operand &O) {
    const char C = peek();
    if (C == '{' || C == '(') {
      const char Close = C == '{' ? '}' : ')';
      ++P;
      O.Kind = Operand::Vector;
      if (peek() != Close)
        do {
          Operand E;
          if (!operand(E))
            return false;
          O.Elems.push_back(std::move(E));
        } while (ok() && eat(','));
      return expect(Close);
    }
    if (C == '[') {
      ++P;
      O.Kind = Operand::Address;
      if (!addressBase(O))
        return false;
      while (eat(',')) {
        Operand E;
        if (!operand(E))
          return false;
        O.Elems.push_back(std::move(E));
      }
      return expect(']');
    }
    if (C == '!') {
      ++P;
      if (!operand(O))
        return false;
      O.Not = true;
      return true;
    }
    if (C == '-' || std::isdigit(static_cast<unsigned char>(C))) {
      O.Kind = Operand::Imm;
      uint64_t Bits = 0;
      const size_t At = P;
      const bool Float = (C == '0' && P + 1 < S.size() &&
                          std::strchr("fFdD", S[P + 1]));
      if (!literal(Bits, 0))
        return false;
      if (Float)
        O.FloatBits = (S[At + 1] == 'f' || S[At + 1] == 'F') ? 32 : 64;
      else if (std::memchr(S.data() + At, '.', P - At))
        O.FloatBits = 64; // A decimal float literal: a double's bits.
      O.Value = int64_t(Bits);
      return true;
    }
    const std::string Id = ident();
    if (Id.empty())
      return fail("expected an operand at '" + context() + "'");
    if (Id == "WARP_SZ") { // The PTX ISA's predefined constant.
      O.Kind = Operand::Imm;
      O.Value = 32;
      return true;
    }
    if (Id == "_") {
      O.Kind = Operand::Sink;
      if (peek() == '|') { // _|%p: only the predicate result is read.
        ++P;
        const std::string Q = ident();
        O.Pair = findReg(Q);
        if (O.Pair < 0)
          return fail("unknown register '" + Q + "'");
      }
      return true;
    }
    // Registers may have any name ({ .reg .f16 low; ... } in inline asm).
    if (const int R0 = findReg(Id); R0 >= 0 || Id[0] == '%') {
      const int R = R0;
      if (R >= 0) {
        O.Kind = Operand::Reg;
        O.Index = R;
        if (peek() == '|') {
          ++P;
          const std::string Q = ident();
          O.Pair = findReg(Q);
          if (O.Pair < 0)
            return fail("unknown register '" + Q + "'");
        }
        return true;
      }
      O.Kind = Operand::Special;
      O.Name = Id;
      if (P < S.size() && S[P] == '.') {
        ++P;
        O.Name += "." + ident();
      }
      return true;
    }
    // A symbol: generic(sym), sym, sym+k.
    O.Kind = Operand::Symbol;
    if (Id == "generic" && peek() == '(') {
      ++P;
      O.Name = findVar(ident());
      if (!expect(')'))
        return false;
    } else {
      O.Name = findVar(Id);
    }
    if (peek() == '+') {
      ++P;
      return number(O.Value);
    }
    return true;
  }

  /// Inside [ ]: reg, sym, reg+k, sym+k, k.
  bool addressBase(Operand &O) {
    const char C = peek();
    if (C == '-' || std::isdigit(static_cast<unsigned char>(C)))
      return number(O.Value);
    const std::string Id = ident();
    if (Id.empty())
      return fail("expected an address at '" + context() + "'");
    if (const int R = findReg(Id); R >= 0 || Id[0] == '%') {
      O.Index = R;
      if (O.Index < 0)
        return fail("unknown register '" + Id + "'");
    } else {
      O.Name = findVar(Id);
    }
    if (eat('+')) {
      if (!number(O.Value))
        return false;
    } else if (peek() == '-') {
      if (!number(O.Value))
        return false;
    }
    return true;
  }
};

} // namespace

Expected<Module> parseModule(std::string_view Text, const std::string &Name) {
  return Parser(Text, Name).run();
}

} // namespace gmem::ptx
