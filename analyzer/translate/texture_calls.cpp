//===- texture_calls.cpp - Texture fetches and surface accesses -----------===//
//
// tex1Dfetch, tex2D, surf2Dread, surf2Dwrite and their kin go through the
// texture pipeline (TEX, TLD, SULD, SUST instructions), not the load/store
// unit whose global requests and sectors gmem predicts: the GPU counts them
// under other metrics (l1tex__t_*_pipe_tex_*). They are named, not
// counted, and a fetched value is unknown like any loaded data.
//
//===----------------------------------------------------------------------===//
#include "body_translator.h"

#include "clang/Basic/SourceManager.h"

namespace gmem {

using namespace clang;

namespace {

/// "tex1Dfetch" -> true for Prefix "tex": the prefix, then a dimension
/// (a digit) or "Cubemap", as CUDA names its texture and surface functions.
bool namedLike(StringRef N, StringRef Prefix) {
  if (!N.consume_front(Prefix))
    return false;
  return (!N.empty() && isDigit(N[0])) || N.starts_with("Cubemap");
}

} // namespace

std::optional<Value> BodyTranslator::textureCall(const CallExpr *CE,
                                                 const FunctionDecl *FD,
                                                 StmtList &Out) {
  // CUDA's functions only: a kernel's own tex2DBilinear is inlined.
  if (!FD || !FD->getIdentifier() || !SM.isInSystemHeader(FD->getLocation()))
    return std::nullopt;
  StringRef N = FD->getName();
  bool Texture = namedLike(N, "tex");
  bool Surface = namedLike(N, "surf");
  if (!Texture && !Surface)
    return std::nullopt;
  for (const clang::Expr *Arg : CE->arguments())
    effects(Arg, Out);
  const char *What = Texture ? "texture fetch" : "surface access";
  const size_t Before = K.Warnings.size();
  warn(CE, std::string(What) + " '" + N.str() +
               "' is not counted: it goes through the texture pipeline, "
               "which the global load and store figures leave out");
  // The executed PTX does not count it either.
  if (K.Warnings.size() > Before)
    K.Uncounted.push_back(K.Warnings.back());
  return Value{
      unknown("value read by " + N.str() + "() at " + where(CE), CE->getType()),
      {}};
}

} // namespace gmem
