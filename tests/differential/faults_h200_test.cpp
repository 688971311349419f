//===- faults_h200_test.cpp - A kernel's fault, as the program sees it ----===//
//
// tests/data/programs/faults/faults.cu makes one launch fault (a failed
// device assert, __trap(), a misaligned store, a shared address beyond
// the block's shared memory, stores far beyond or just past an
// allocation) and prints what each later call returns. On an H200
// (tests/data/measured/faults): the first call that waits for the device
// returns the fault, every call after it returns it again (a launch
// included, and cudaGetLastError once), and every failing thread's assert
// message reaches standard error. Recorded by gmem-analyze, the kernels
// run on the executor and the program must print the same.
//
//===----------------------------------------------------------------------===//
#include "differential.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

const std::string Src = std::string(GMEM_SOURCE_DIR) + "/tests/data";

nlohmann::json record(const std::string &Kind, const std::string &First) {
  return nlohmann::json::parse(
      gmem::test::commandOutput("cd " + Src + "/programs/faults && " +
                                GMEM_ANALYZE_EXE +
                                " --format json faults.cu --run-args '" + Kind +
                                " " + First + "' 2>/dev/null"),
      nullptr, /*allow_exceptions=*/false);
}

std::vector<std::string> linesOf(const std::string &Text) {
  std::vector<std::string> Out;
  std::istringstream In(Text);
  for (std::string L; std::getline(In, L);)
    Out.push_back(L);
  return Out;
}

/// What the H200 printed: standard output (without the exit line the
/// script added) and, sorted, the assert messages from "faults.cu:" on
/// (the GPU prints them in the order the threads failed).
struct Printed {
  std::vector<std::string> Out, Asserts;
};

std::string fromFile(const std::string &Line) {
  const size_t At = Line.find("faults.cu:");
  return At == std::string::npos ? Line : Line.substr(At);
}

Printed measured(const std::string &Case) {
  Printed P;
  std::ifstream Out(Src + "/measured/faults/" + Case + ".out");
  for (std::string L; std::getline(Out, L);)
    if (L.rfind("exit ", 0) != 0)
      P.Out.push_back(L);
  std::ifstream Err(Src + "/measured/faults/" + Case + ".err");
  for (std::string L; std::getline(Err, L);)
    P.Asserts.push_back(fromFile(L));
  std::sort(P.Asserts.begin(), P.Asserts.end());
  return P;
}

/// The recorded program's output (standard output and error merged; the
/// report keeps its last 2000 bytes), split as the H200's is.
Printed recorded(const nlohmann::json &J) {
  Printed P;
  const std::string Text = J["compiler"].value("program_output", "");
  std::vector<std::string> Lines = linesOf(Text);
  if (!Lines.empty() && Text.size() >= 2000)
    Lines.erase(Lines.begin()); // Cut by the tail.
  for (const std::string &L : Lines)
    (L.find("Assertion `") != std::string::npos ? P.Asserts : P.Out)
        .push_back(fromFile(L));
  std::sort(P.Asserts.begin(), P.Asserts.end());
  return P;
}

void expectAsOnTheH200(const std::string &Kind, const std::string &First) {
  const nlohmann::json J = record(Kind, First);
  if (!J.contains("compiler") || !J["compiler"].contains("program_output"))
    GTEST_SKIP() << "no toolkit to build and record with: " << J.dump();
  const Printed Want = measured(Kind + "." + First), Got = recorded(J);
  ASSERT_FALSE(Want.Out.empty());
  EXPECT_EQ(Got.Out, Want.Out);
  EXPECT_EQ(J["compiler"].value("program_exit", -1), 0);
  // Every assert message the report kept is one the H200 printed, and the
  // warning counts as many as the H200 printed.
  EXPECT_EQ(Got.Asserts.empty(), Want.Asserts.empty());
  for (const std::string &A : Got.Asserts)
    EXPECT_TRUE(std::binary_search(Want.Asserts.begin(), Want.Asserts.end(), A))
        << A;
  if (!Want.Asserts.empty())
    EXPECT_NE(J["warnings"].dump().find(std::to_string(Want.Asserts.size()) +
                                        " threads' device assert failed"),
              std::string::npos)
        << J["warnings"].dump();
}

TEST(FaultsOnH200, AFailedAssertIsEveryThreadsMessageAndTheProgramsError) {
  expectAsOnTheH200("assert", "sync");
  expectAsOnTheH200("assert", "memcpy");
}

TEST(FaultsOnH200, ATrapIsALaunchFailure) {
  expectAsOnTheH200("trap", "sync");
  expectAsOnTheH200("trap", "memcpy");
}

// The model prices these launches, so the recording runs them when the
// host reads what they wrote, the copy: there the program sees the fault,
// as on the GPU when the copy is the first call to wait.
TEST(FaultsOnH200, AMisalignedStoreAndASharedAddressBeyondTheBlockFault) {
  expectAsOnTheH200("misaligned", "memcpy");
  expectAsOnTheH200("shared", "memcpy");
}

TEST(FaultsOnH200, StoresJustPastAnAllocationDoNotFault) {
  expectAsOnTheH200("near", "sync");
}

// Stores 16 MiB apart, far outside every allocation: the H200 faulted
// (cudaErrorIllegalAddress in one run, cudaErrorInvalidAddressSpace in
// another), which depends on what the driver mapped there. gmem does not
// claim a fault; it names the stray stores.
TEST(FaultsOnH200, StoresFarOutsideEveryAllocationAreNamedAsMayFault) {
  const nlohmann::json J = record("far", "sync");
  if (!J.contains("launches"))
    GTEST_SKIP() << "no toolkit to build and record with: " << J.dump();
  ASSERT_EQ(J["launches"].size(), 3u) << J.dump();
  const std::string Said = J["launches"][1]["diagnostics"].dump();
  EXPECT_NE(Said.find("lane accesses fall outside every allocation the "
                      "program made (a GPU may fault"),
            std::string::npos)
      << Said;
}

} // namespace
