//===- warp_intrinsics.cpp - Shuffles and votes ---------------------------===//
//
// __shfl_sync, __shfl_up_sync, __shfl_down_sync and __shfl_xor_sync become
// Shfl expressions the warp evaluator computes exactly (simulator/
// shuffle_eval.cpp). Votes (__ballot_sync, __any_sync, __all_sync,
// __match_*_sync, __activemask) depend on other lanes' predicates in ways
// the model does not follow: their results are unknown, saying so.
//
//===----------------------------------------------------------------------===//
#include "body_translator.h"

#include "llvm/ADT/StringSwitch.h"

namespace gmem {

using namespace clang;

std::optional<Value> BodyTranslator::warpIntrinsic(const CallExpr *CE,
                                                   const FunctionDecl *FD,
                                                   StmtList &Out) {
  if (!FD || !FD->getIdentifier())
    return std::nullopt;
  StringRef N = FD->getName();
  std::optional<ShuffleMode> Mode =
      llvm::StringSwitch<std::optional<ShuffleMode>>(N)
          .Case("__shfl_sync", ShuffleMode::Idx)
          .Case("__shfl_up_sync", ShuffleMode::Up)
          .Case("__shfl_down_sync", ShuffleMode::Down)
          .Case("__shfl_xor_sync", ShuffleMode::Xor)
          .Default(std::nullopt);
  if (Mode && (CE->getNumArgs() == 3 || CE->getNumArgs() == 4)) {
    // Arguments in order: mask, value, lane (or delta or mask), width.
    std::vector<Value> A;
    for (const clang::Expr *Arg : CE->arguments())
      A.push_back(rvalue(Arg, Out));
    std::optional<IntType> T = intTypeOf(CE->getType());
    if (!T)
      return std::nullopt; // Floats: unknown as any floating-point value.
    ExprPtr Width = A.size() == 4 ? A[3].E : makeConst(32);
    return Value{makeShuffle(*Mode, castTo(A[1].E, *T), A[2].E, Width), {}};
  }
  bool Vote = N == "__ballot_sync" || N == "__any_sync" || N == "__all_sync" ||
              N == "__uni_sync" || N == "__match_any_sync" ||
              N == "__match_all_sync" || N == "__activemask" ||
              N == "__ballot" || N == "__any" || N == "__all";
  if (!Vote)
    return std::nullopt;
  for (const clang::Expr *Arg : CE->arguments())
    effects(Arg, Out);
  std::string Why = "result of the warp vote " + N.str() + "() at " +
                    where(CE) + ", which the model does not compute";
  warn(CE, "warp vote '" + N.str() +
               "' is not modelled: what depends on its result is unknown");
  return Value{unknown(Why, CE->getType()), {}};
}

} // namespace gmem
