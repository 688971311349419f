//===- differential.cpp - The model's report against the executed PTX's ---===//
#include "differential.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <gtest/gtest.h>
#include <memory>

namespace gmem::test {

using nlohmann::json;

std::string commandOutput(const std::string &Cmd) {
  std::unique_ptr<FILE, int (*)(FILE *)> P(popen(Cmd.c_str(), "r"), pclose);
  std::string Out;
  std::array<char, 65536> Buf;
  for (size_t N; P && (N = fread(Buf.data(), 1, Buf.size(), P.get()));)
    Out.append(Buf.data(), N);
  return Out;
}

json analyzeAs(const std::string &Dir, const std::string &File,
               const std::string &Path, unsigned ExecSeconds) {
  // 900 s: time enough on a loaded machine.
  const std::string Cmd = "cd '" + Dir + "' && " + GMEM_ANALYZE_EXE + " '" +
                          File + "' --path " + Path + " --exec-budget " +
                          std::to_string(ExecSeconds) +
                          " --time-limit 900 --format json 2>/dev/null";
  return json::parse(commandOutput(Cmd), nullptr, /*allow_exceptions=*/false);
}

namespace {

bool same(const json &A, const json &B) {
  if (A.is_number() && B.is_number())
    return std::abs(A.get<double>() - B.get<double>()) <=
           1e-9 * std::max(1.0, std::abs(A.get<double>()));
  return A == B;
}

} // namespace

bool modelUnsure(const json &Launch) {
  for (const json &A : Launch["accesses"]) {
    const std::string State = A["compiled"].value("state", "");
    if (State == "ambiguous" || State == "no_instruction")
      return true;
  }
  return false;
}

unsigned expectSameFigures(const json &Model, const json &Run) {
  const json &ML = Model["launches"], &EL = Run["launches"];
  EXPECT_EQ(ML.size(), EL.size()) << Run["warnings"];
  EXPECT_FALSE(ML.empty());
  unsigned Compared = 0;
  for (size_t I = 0; I < std::min(ML.size(), EL.size()); ++I) {
    const json &M = ML[I], &E = EL[I];
    SCOPED_TRACE(M["kernel"].get<std::string>() + " (launch " +
                 std::to_string(I + 1) + ")");
    EXPECT_EQ(M["kernel"], E["kernel"]);
    EXPECT_EQ(E["path"], "executed");
    if (E.contains("incomplete")) {
      // Only an instruction the executor does not implement may stop it.
      const std::string Why = E["incomplete"];
      EXPECT_NE(Why.find("does not implement"), std::string::npos) << Why;
      continue;
    }
    if (modelUnsure(M))
      continue;
    ++Compared;
    for (const auto &[Name, V] : M["metrics"].items()) {
      const json &W = E["metrics"][Name];
      // Async copies' shared wavefronts (and the global sectors of those
      // that bypass L1) need both sides' addresses, which only the
      // executed PTX pairs: the model's figure may be unknown where the
      // run's is not.
      const json Unknown = M.value("unknown_metrics", json::object());
      const std::string Why =
          Unknown.is_object() ? Unknown.value(Name, "") : std::string();
      if (V.is_null() && !W.is_null() &&
          (Why.find("the shared side of an async copy") != std::string::npos ||
           Why.find("an async copy that bypasses L1") != std::string::npos))
        continue;
      // Otherwise unknown only where the model's is too.
      if (V.is_null() || W.is_null())
        EXPECT_EQ(V.is_null(), W.is_null())
            << Name << ": model " << V << ", executed " << W;
      else
        EXPECT_TRUE(same(V, W))
            << Name << ": model " << V << ", executed " << W;
    }
  }
  return Compared;
}

} // namespace gmem::test
