//===- test_util.h - Parse CUDA snippets and inspect their model ----------===//
#ifndef GMEM_TESTS_ANALYZER_TEST_UTIL_H
#define GMEM_TESTS_ANALYZER_TEST_UTIL_H

#include "frontend.h"
#include "model.h"
#include "clang/Frontend/ASTUnit.h"
#include <gtest/gtest.h>
#include <memory>
#include <string>
#include <vector>

namespace gmem::test {

/// How the snippet is parsed: against /usr/local/cuda, or the stand-ins.
enum class Headers { Cuda, Stub };

bool cudaInstalled();
FrontendOptions optionsFor(Headers H);
const char *headersName(Headers H);

struct Translated {
  std::unique_ptr<clang::ASTUnit> AST;
  std::vector<Kernel> Kernels;
  const Kernel &kernel(const std::string &Name) const;
};

/// Writes Code to a fresh file named FileName in a temporary directory,
/// parses it and translates its kernels; fails the test on parse errors.
Translated translate(const std::string &Code, Headers H,
                     const std::string &FileName = "snippet.cu");
Translated translateFile(const std::string &Path, Headers H);

/// Tests that run once against the CUDA installation (skipped when there is
/// none) and once against the stand-in headers.
class BothHeaders : public ::testing::TestWithParam<Headers> {
protected:
  void SetUp() override {
    if (GetParam() == Headers::Cuda && !cudaInstalled())
      GTEST_SKIP() << "no CUDA installation at /usr/local/cuda";
  }
  Translated translate(const std::string &Code,
                       const std::string &FileName = "snippet.cu") {
    return test::translate(Code, GetParam(), FileName);
  }
};

#define GMEM_BOTH_HEADERS(Suite)                                               \
  INSTANTIATE_TEST_SUITE_P(                                                    \
      Headers, Suite,                                                          \
      ::testing::Values(::gmem::test::Headers::Cuda,                           \
                        ::gmem::test::Headers::Stub),                          \
      [](const auto &I) { return ::gmem::test::headersName(I.param); })

/// The accesses whose Text is Text, in Kernel::Accesses order.
std::vector<const Access *> accessesByText(const Kernel &K,
                                           const std::string &Text);

/// 1-based line of the first line of Code containing Needle.
unsigned lineOf(const std::string &Code, const std::string &Needle);

/// The body as indented text, for failure messages.
std::string dump(const Kernel &K);

/// Access ids in the order Access statements appear in the body (depth
/// first, as written).
std::vector<int> accessOrder(const Kernel &K);

/// Violations of model.h's typing rules (operands of arithmetic in the
/// result type, bool conditions, 64-bit unsigned addresses, assignments in
/// the slot's type); empty when the model is well typed.
std::vector<std::string> typeErrors(const Kernel &K);

inline void PrintTo(Headers H, std::ostream *OS) { *OS << headersName(H); }

/// Number of statements of kind S anywhere in the body.
unsigned countStmts(const Kernel &K, StmtKind S);

} // namespace gmem::test

#endif
