//===- compiled_oracle_test.cpp - Integer semantics against g++ -----------===//
//
// Random integer expressions (32- and 64-bit, signed and unsigned, with
// casts to 8 and 16 bits, wrap-around, division and modulo of negative
// values, shifts, min/max, ?:) are evaluated by the warp evaluator for the
// 32 lanes of a warp, and also written out as C++, compiled with the host
// g++ at test time (-fwrapv: signed overflow wraps, as on the device) and
// run. Every value must agree to the bit; where C++ leaves the result
// undefined (division by zero, INT_MIN / -1, shifts past the width) the
// model must report the lane unknown.
//
//===----------------------------------------------------------------------===//
#include "build_model.h"
#include "simulate.h"
#include "warp_eval.h"

#include <cstdio>
#include <fstream>
#include <gtest/gtest.h>
#include <random>
#include <sstream>

using namespace gmem;
using namespace gmem::test;

namespace {

const char *cType(IntType T) {
  switch (T.Bits) {
  case 1:
    return "bool";
  case 8:
    return T.Signed ? "signed char" : "unsigned char";
  case 16:
    return T.Signed ? "short" : "unsigned short";
  case 32:
    return T.Signed ? "int" : "unsigned";
  default:
    return T.Signed ? "long long" : "unsigned long long";
  }
}

/// Builds an expression and its C++ spelling together.
struct Gen {
  std::mt19937_64 R;
  IntType type() {
    static const IntType Ts[] = {I32, U32, I64, U64};
    return Ts[R() % 4];
  }
  ExprPtr leaf(IntType T, std::string &C) {
    switch (R() % 3) {
    case 0: { // threadIdx.x, a different value per lane.
      C = std::string("((") + cType(T) + ")tid)";
      return makeCast(makeBuiltin(Builtin::ThreadIdxX), T);
    }
    case 1: { // Parameters p (int) and q (long long).
      bool Wide = R() % 2;
      C = std::string("((") + cType(T) + ")" + (Wide ? "q" : "p") + ")";
      return makeCast(makeParam(Wide ? 1 : 0, Wide ? I64 : I32), T);
    }
    default: {
      static const int64_t Vs[] = {
          0, 1, -1, 2, 3, 7, -8, 31, 32, 1 << 20, 0x7fffffff, -0x7fffffff - 1};
      int64_t V = normalize(uint64_t(Vs[R() % 12]), T);
      C = std::string("((") + cType(T) + ")" + std::to_string(V) + "LL)";
      if (!T.Signed && T.Bits == 64)
        C = "((unsigned long long)" + std::to_string(uint64_t(V)) + "ULL)";
      return makeConst(V, T);
    }
    }
  }
  ExprPtr expr(IntType T, int Depth, std::string &C) {
    if (Depth == 0 || R() % 5 == 0)
      return leaf(T, C);
    std::string A, B, X;
    const char *TN = cType(T);
    switch (R() % 8) {
    case 0: { // Through a narrower type and back.
      IntType N{uint8_t(R() % 2 ? 8 : 16), bool(R() % 2)};
      ExprPtr E = expr(T, Depth - 1, A);
      C = std::string("((") + TN + ")(" + cType(N) + ")" + A + ")";
      return makeCast(makeCast(E, N), T);
    }
    case 1: { // From another 32/64-bit type.
      IntType F = type();
      ExprPtr E = expr(F, Depth - 1, A);
      C = std::string("((") + TN + ")" + A + ")";
      return makeCast(E, T);
    }
    case 2: {
      bool Neg = R() % 2;
      ExprPtr E = expr(T, Depth - 1, A);
      C = std::string("((") + TN + ")(" + (Neg ? "-" : "~") + A + "))";
      return makeUnary(Neg ? Op::Neg : Op::BitNot, E, T);
    }
    case 3: { // ?: on a comparison.
      ExprPtr L = expr(T, Depth - 1, A), Rt = expr(T, Depth - 1, B);
      ExprPtr Y = expr(T, Depth - 1, X);
      C = std::string("((") + A + " < " + B + ") ? " + X + " : " + A + ")";
      return makeSelect(makeBinary(Op::Lt, L, Rt, Bool), Y, L, T);
    }
    default: {
      static const Op Ops[] = {Op::Add, Op::Sub, Op::Mul, Op::Div,
                               Op::Rem, Op::Shl, Op::Shr, Op::And,
                               Op::Or,  Op::Xor, Op::Min, Op::Max};
      static const char *Fn[] = {"add", "sub",  "mul", "dv",   "rm", "shl",
                                 "shr", "band", "bor", "bxor", "mn", "mx"};
      unsigned K = R() % 12;
      ExprPtr L = expr(T, Depth - 1, A), Rt = expr(T, Depth - 1, B);
      C = std::string(Fn[K]) + "<" + TN + ">(" + A + ", " + B + ")";
      return makeBinary(Ops[K], L, Rt, T);
    }
    }
  }
};

// The C++ side: each operator at its type, undefined cases flagged.
const char *Prelude = R"(#include <cstdio>
static bool ub;
template <class T> T add(T a, T b) { return a + b; }
template <class T> T sub(T a, T b) { return a - b; }
template <class T> T mul(T a, T b) { return a * b; }
template <class T> T dv(T a, T b) {
  if (b == 0 || (T(-1) < 0 && b == T(-1) && a == T(T(1) << (sizeof(T) * 8 - 1)))) { ub = true; return 0; }
  return a / b;
}
template <class T> T rm(T a, T b) {
  if (b == 0 || (T(-1) < 0 && b == T(-1) && a == T(T(1) << (sizeof(T) * 8 - 1)))) { ub = true; return 0; }
  return a % b;
}
template <class T> T shl(T a, T b) {
  if (b < 0 || (unsigned long long)b >= sizeof(T) * 8) { ub = true; return 0; }
  return T((unsigned long long)a << b);
}
template <class T> T shr(T a, T b) {
  if (b < 0 || (unsigned long long)b >= sizeof(T) * 8) { ub = true; return 0; }
  return a >> b;
}
template <class T> T band(T a, T b) { return a & b; }
template <class T> T bor(T a, T b) { return a | b; }
template <class T> T bxor(T a, T b) { return a ^ b; }
template <class T> T mn(T a, T b) { return a < b ? a : b; }
template <class T> T mx(T a, T b) { return a > b ? a : b; }
int main() {
  const int p = PVAL; const long long q = QVAL;
)";

TEST(CompiledOracle, IntegerSemanticsMatchTheHostCompiler) {
  if (std::system("g++ --version >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "no g++ on this machine: the compiled oracle cannot run";
  const int Count = 400;
  const int64_t P = -1234567, Q = -(int64_t(1) << 40) + 12345;
  Gen G{std::mt19937_64(20261123)};
  std::vector<ExprPtr> Exprs;
  std::ostringstream Src;
  std::string Pre = Prelude;
  Pre.replace(Pre.find("PVAL"), 4, std::to_string(P));
  Pre.replace(Pre.find("QVAL"), 4, std::to_string(Q) + "LL");
  Src << Pre;
  for (int I = 0; I < Count; ++I) {
    std::string C;
    Exprs.push_back(G.expr(G.type(), 4, C));
    Src << "  for (unsigned tid = 0; tid < 32; ++tid) { ub = false;\n"
        << "    unsigned long long v = (unsigned long long)(" << C << ");\n"
        << "    if (ub) std::printf(\"U\\n\"); else std::printf(\"%llu\\n\", "
           "v); }\n";
  }
  Src << "}\n";
  std::string Dir = ::testing::TempDir();
  std::ofstream(Dir + "/oracle.cpp") << Src.str();
  std::string Cmd = "g++ -std=c++17 -O0 -fwrapv -w -o " + Dir + "/oracle " +
                    Dir + "/oracle.cpp && " + Dir + "/oracle > " + Dir +
                    "/oracle.txt";
  ASSERT_EQ(std::system(Cmd.c_str()), 0) << Cmd;
  std::ifstream Results(Dir + "/oracle.txt");

  unsigned Compared = 0, Undefined = 0;
  for (int I = 0; I < Count; ++I) {
    Kernel K;
    K.Params = {intParam("p", I32), intParam("q", I64), pointerParam("b", 1)};
    K.Body.push_back(addAccess(K, Space::Global, AccessKind::Load, 1,
                               add(makeParam(2, U64), makeCast(Exprs[I], U64)),
                               toString(*Exprs[I], &K)));
    Launch L;
    L.Grid = {1, 1, 1};
    L.Block = {32, 1, 1};
    L.Args = {intArg(P), intArg(Q), ptrArg("b")};
    std::vector<AccessStats> Stats(1);
    LaunchEnv Env = makeLaunchEnv(K, L);
    WarpEvaluator W(K, *findArch("sm_90"), Env, Stats);
    std::vector<uint64_t> Got;
    W.Requests.observe([&](const RequestEvent &E) {
      const uint64_t *A = E.Addr;
      Got.assign(A, A + 32);
    });
    W.runWarp({0, 0, 0}, 0);
    uint64_t Base = uint64_t(Env.ParamValues[2]);
    bool AnyUndefined = false;
    std::vector<std::string> Want(32);
    for (std::string &Line : Want) {
      ASSERT_TRUE(std::getline(Results, Line)) << "expression " << I;
      AnyUndefined |= Line == "U";
    }
    SCOPED_TRACE(toString(*Exprs[I], &K));
    if (AnyUndefined) {
      // One undefined lane makes the request unknown: no address reported.
      EXPECT_TRUE(Got.empty());
      EXPECT_EQ(Stats[0].UnknownRequests, 1u);
      ++Undefined;
      continue;
    }
    ASSERT_EQ(Got.size(), 32u) << Stats[0].UnknownReason;
    for (unsigned Lane = 0; Lane < 32; ++Lane) {
      EXPECT_EQ(std::to_string(Got[Lane] - Base), Want[Lane])
          << "lane " << Lane;
      ++Compared;
    }
  }
  // The generator must exercise both sides.
  EXPECT_GT(Compared, 32u * 200);
  EXPECT_GT(Undefined, 5u);
}

} // namespace
