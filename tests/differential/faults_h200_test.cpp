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

/// Report, where given, receives gmem-analyze's report.
void expectAsOnTheH200(const std::string &Kind, const std::string &First,
                       nlohmann::json *Report = nullptr) {
  const nlohmann::json J = record(Kind, First);
  if (Report)
    *Report = J;
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

/// What launch I of the recorded run said of itself: why it is
/// incomplete and which path priced it.
std::string saidOf(const nlohmann::json &J, size_t I) {
  if (!J.contains("launches") || J["launches"].size() <= I)
    return J.dump();
  return J["launches"][I].value("incomplete", "") + " | " +
         J["launches"][I].value("path_why", "");
}

// Stores 16 MiB apart, up to 16 GiB beyond the allocation: the H200
// faulted in all five runs, with cudaErrorInvalidAddressSpace in four
// (far.memcpy.out) and cudaErrorIllegalAddress in one (far.sync.out),
// which depends on what the driver mapped there. Lanes more than 1 GiB
// from every allocation fault under gmem (as an illegal address: it cannot
// tell which code the driver gives); those nearer are named as strays.
TEST(FaultsOnH200, StoresFarOutsideEveryAllocationFault) {
  const nlohmann::json J = record("far", "memcpy");
  if (!J.contains("compiler") || !J["compiler"].contains("program_output"))
    GTEST_SKIP() << "no toolkit to build and record with: " << J.dump();
  Printed Want = measured("far.memcpy");
  for (std::string &L : Want.Out)
    if (size_t At = L.find("cudaErrorInvalidAddressSpace (717)");
        At != std::string::npos)
      L.replace(At, std::string::npos, "cudaErrorIllegalAddress (700)");
  EXPECT_EQ(recorded(J).Out, Want.Out);
  const std::string Said = saidOf(J, 1);
  EXPECT_NE(Said.find("lane 1 of warp 2 of block 0 reads or writes"),
            std::string::npos)
      << Said;
  EXPECT_NE(Said.find("more than 1 GiB from every allocation"),
            std::string::npos)
      << Said;
  EXPECT_NE(J["launches"][1]["diagnostics"].dump().find(
                "64 lane accesses fall outside every allocation"),
            std::string::npos)
      << J["launches"][1]["diagnostics"].dump();
}

// globalCopy's loop (the CUDA Handbook): the bound n - Step wraps in
// size_t, and the lanes walk on 256 KiB a step; the H200 stopped it with
// an illegal address in all six runs. Under gmem the walk faults once it
// is 1 GiB from every allocation (4096 steps), in seconds; the model,
// which would follow each warp's 2^48 iterations, is not evaluated.
TEST(FaultsOnH200, LanesThatRunAwayFaultAsOnTheGpu) {
  nlohmann::json J;
  expectAsOnTheH200("runaway", "memcpy", &J);
  if (IsSkipped())
    return;
  const std::string Said = saidOf(J, 1);
  EXPECT_NE(Said.find("more than 1 GiB from every allocation"),
            std::string::npos)
      << Said;
  EXPECT_NE(Said.find("the model, which follows a launch to its end, is not "
                      "evaluated"),
            std::string::npos)
      << Said;
}

// shared_bounds.cu reads one byte past a block's dynamic shared memory.
// On an H200 (shared_bounds.h200.txt, 234 cases) a read faulted exactly
// when it lay past the block's shared memory rounded up to 128 bytes: 16
// bytes past 7016 did not, the first byte past 5120 did. The recorded
// program prints what the H200 printed for the same cases in one run
// (shared_bounds.seq.out); the executor had faulted 16 bytes past the
// last array and not at all up to 16 bytes beyond.
TEST(FaultsOnH200, SharedMemoryEndsAtItsLast128ByteUnit) {
  const nlohmann::json J = nlohmann::json::parse(
      gmem::test::commandOutput(
          "cd " + Src + "/programs/faults && " + GMEM_ANALYZE_EXE +
          " --format json shared_bounds.cu --run-args "
          "'16 7000 16 4096 7000 16 16 1024 16 4096 1024 0' 2>/dev/null"),
      nullptr, /*allow_exceptions=*/false);
  if (!J.contains("compiler") || !J["compiler"].contains("program_output"))
    GTEST_SKIP() << "no toolkit to build and record with: " << J.dump();
  const std::vector<std::string> Want = measured("shared_bounds.seq").Out;
  ASSERT_EQ(Want.size(), 4u);
  EXPECT_EQ(linesOf(J["compiler"].value("program_output", "")), Want);
  // Each case's line is the one the H200 gave when run alone.
  std::ifstream All(Src + "/measured/faults/shared_bounds.h200.txt");
  std::vector<std::string> Alone;
  for (std::string L; std::getline(All, L);)
    Alone.push_back(L);
  for (const std::string &L : Want)
    EXPECT_NE(std::find(Alone.begin(), Alone.end(), L), Alone.end()) << L;
}

// rdc_overrun.cu reads a 32-element shared array to element 63, as the
// GPU MODE lectures' flash attention reads its S. Built as it is, ptxas
// puts the array last and the H200 faulted (plain_overrun.out); built with
// -rdc=true, nvlink put it first, the read landed in the other array and
// the program ran to its end (rdc_overrun.out, rdc_overrun.json). gmem
// faults the first as the H200 does; the second it runs to its end, the
// read's values unknown, where it used to fault.
TEST(FaultsOnH200, AReadPastAnArrayFaultsWherePtxasPlacesItNotWhereNvlinkMay) {
  auto Record = [](const std::string &Flags) {
    return nlohmann::json::parse(
        gmem::test::commandOutput(
            "cd " + Src + "/programs/faults && " + GMEM_ANALYZE_EXE +
            " --format json rdc_overrun.cu " + Flags + " 2>/dev/null"),
        nullptr, /*allow_exceptions=*/false);
  };
  const nlohmann::json Plain = Record("");
  if (!Plain.contains("compiler") ||
      !Plain["compiler"].contains("program_output"))
    GTEST_SKIP() << "no toolkit to build and record with: " << Plain.dump();
  EXPECT_EQ(linesOf(Plain["compiler"].value("program_output", "")),
            measured("plain_overrun").Out);
  const nlohmann::json Rdc = Record("-- -rdc=true");
  EXPECT_EQ(linesOf(Rdc["compiler"].value("program_output", "")),
            measured("rdc_overrun").Out);
  ASSERT_EQ(Rdc["launches"].size(), 1u);
  EXPECT_NE(Rdc["launches"][0]["diagnostics"].dump().find(
                "32 lane accesses fall outside every allocation the program "
                "made, or outside the shared variable they index where nvlink "
                "placed it"),
            std::string::npos)
      << Rdc["launches"][0]["diagnostics"].dump();
  const nlohmann::json Compared =
      Record("--compare ../../measured/faults/rdc_overrun.json -- -rdc=true");
  EXPECT_EQ(Compared.value("verdict", ""), "match")
      << Compared["summary"].dump();
}

} // namespace
