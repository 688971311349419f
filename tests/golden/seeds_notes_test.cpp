//===- seeds_notes_test.cpp - The seeds' own, architecture-free numbers ---===//
//
// Golden values from the project's seed course notes, where they hold on
// any GPU since Maxwell: seed 001's transactions per request and degrees of
// coalescing, seed 002's shared efficiency (nvprof table of lecture 4),
// seed 003's shared load transactions per request.
//
//===----------------------------------------------------------------------===//
#include "analysis.h"

#include <gtest/gtest.h>

using namespace gmem;
using namespace gmem::test;

namespace {

double metric(const LaunchResult &R, const std::string &Name) {
  const Metric &M = R.Metrics.at(Name);
  EXPECT_TRUE(M.Value) << M.UnknownReason;
  return M.Value.value_or(-1);
}

TEST(Seed001, TransactionsAndDegreeOfCoalescingOfX) {
  // "4/4/5/32/1 transactions, 100/100/80/12.5/12.5 %" for the read of x.
  const Analysis &A = analyze(sourceDir() + "/examples/coalescing.cu");
  struct Row {
    const char *Kernel, *Access;
    double PerRequest, Efficiency;
  } Rows[] = {{"global_add", "x[n]", 4, 100},
              {"global_add_permuted", "x[n]", 4, 100},
              {"global_add_offset", "x[n]", 5, 80},
              {"global_add_stride", "x[n]", 32, 12.5},
              {"global_add_broadcast", "x[0]", 1, 12.5}};
  for (const Row &Rw : Rows) {
    const LaunchResult *R = launchOf(A, Rw.Kernel);
    ASSERT_NE(R, nullptr);
    const AccessStats *S = accessByText(*R, Rw.Access);
    ASSERT_NE(S, nullptr) << Rw.Kernel << " " << Rw.Access;
    EXPECT_EQ(S->Requests, 128u) << Rw.Kernel;
    EXPECT_DOUBLE_EQ(S->perRequest(), Rw.PerRequest) << Rw.Kernel;
    EXPECT_DOUBLE_EQ(100.0 * S->DistinctBytes / (32.0 * S->Units),
                     Rw.Efficiency)
        << Rw.Kernel;
  }
}

TEST(Seed002, SharedEfficiencyOfTheLectureTransposes) {
  const Analysis &A = analyze(sourceDir() + "/examples/lecture_transpose.cu");
  const LaunchResult *T1 = launchOf(A, "gTranspose1");
  const LaunchResult *T2 = launchOf(A, "gTranspose2");
  ASSERT_TRUE(T1 && T2);
  // nvprof printed 6.06 % and 100.00 %: (1 + 1) / (1 + 32) wavefronts' worth.
  EXPECT_NEAR(metric(*T1, "shared_efficiency"), 6.06, 0.005);
  EXPECT_NEAR(metric(*T2, "shared_efficiency"), 100.0, 0.005);
}

TEST(Seed003, SharedLoadTransactionsPerRequest) {
  // "1/32/16/2/1": row, column, rectangle column, padded by 1, padded by 2.
  const Analysis &A = analyze(sourceDir() + "/examples/smem_layout.cu");
  struct Row {
    const char *Kernel;
    double Load, Store;
  } Rows[] = {{"setRowReadRow", 1, 1},          {"setColReadCol", 32, 32},
              {"setRowReadCol", 32, 1},         {"setRowReadColDyn", 32, 1},
              {"setRowReadColIpad", 1, 1},      {"setRowReadColDynIpad", 1, 1},
              {"setRowReadColRect", 16, 1},     {"setRowReadColRectDyn", 16, 1},
              {"setRowReadColRectPad1", 2, 1},  {"setRowReadColRectPad2", 1, 1},
              {"setRowReadColRectDynPad", 2, 1}};
  for (const Row &Rw : Rows) {
    const LaunchResult *R = launchOf(A, Rw.Kernel);
    ASSERT_NE(R, nullptr);
    EXPECT_DOUBLE_EQ(metric(*R, "shared_load_transactions_per_request"),
                     Rw.Load)
        << Rw.Kernel;
    EXPECT_DOUBLE_EQ(metric(*R, "shared_store_transactions_per_request"),
                     Rw.Store)
        << Rw.Kernel;
  }
}

} // namespace
