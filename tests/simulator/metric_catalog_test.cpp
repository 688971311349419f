//===- metric_catalog_test.cpp - One table for every metric name ----------===//
//
// model/metric_catalog.h is what the simulator fills, what gmem-verify
// collects, what the nvprof importer translates and what the comparison
// judges. These tests hold the simulator to it and the table to itself.
//
//===----------------------------------------------------------------------===//
#include "build_model.h"
#include "metric_catalog.h"
#include "metrics.h"
#include "simulate.h"

#include <gtest/gtest.h>
#include <set>
#include <string>

using namespace gmem;
using namespace gmem::test;

namespace {

// A launch with a global load, store and atomic and shared loads and
// stores: the simulator fills exactly the names the catalog says it fills.
TEST(MetricCatalog, SimulatorFillsExactlyThePredictedNames) {
  Kernel K;
  K.Name = "k";
  K.Params = {pointerParam("a", 4)};
  SharedArray S;
  S.Name = "s";
  S.Bytes = 128;
  S.Dims = {32};
  K.Shared = {S};
  for (AccessKind Kind :
       {AccessKind::Load, AccessKind::Store, AccessKind::Atomic})
    K.Body.push_back(
        addAccess(K, Space::Global, Kind, 4, elem(0, tx(), 4), "a[tx]"));
  for (AccessKind Kind : {AccessKind::Load, AccessKind::Store})
    K.Body.push_back(addAccess(K, Space::Shared, Kind, 4,
                               mul(cast(tx(), U64), c(4, U64)), "s[tx]", 0));
  Launch L;
  L.Kernel = "k";
  L.Grid = {1, 1, 1};
  L.Block = {32, 1, 1};
  L.Args = {ptrArg("a")};
  LaunchResult R = simulate(K, L, {});
  std::set<std::string> Filled, Expected;
  for (const auto &[Name, Value] : R.Metrics)
    Filled.insert(Name);
  for (const MetricSpec &M : metricCatalog()) {
    if (M.Fills == Predicted::Ncu || M.Fills == Predicted::Both)
      Expected.insert(M.Ncu);
    if (M.Fills == Predicted::Nvprof || M.Fills == Predicted::Both)
      Expected.insert(M.Nvprof);
  }
  EXPECT_EQ(Filled, Expected);
  // The text view's list is the same set.
  std::set<std::string> Viewed;
  for (const MetricInfo &I : metricTable())
    Viewed.insert(I.Name);
  EXPECT_EQ(Viewed, Expected);
  // One warp, 32 consecutive floats: 4 sectors, 1 wavefront each.
  EXPECT_EQ(R.Metrics.at("gld_transactions_per_request").Value, 4.0);
  EXPECT_EQ(R.Metrics.at("shared_load_transactions_per_request").Value, 1.0);
}

TEST(MetricCatalog, NamesAreUniqueAndRowsComplete) {
  std::set<std::string> Names;
  for (const MetricSpec &M : metricCatalog()) {
    for (const char *N : {M.Ncu, M.Nvprof})
      if (N)
        EXPECT_TRUE(Names.insert(N).second) << "named twice: " << N;
    EXPECT_TRUE(M.Ncu || M.Nvprof);
    // gmem-verify asks CUPTI by Nsight names.
    if (M.Collected || M.Traffic)
      EXPECT_NE(M.Ncu, nullptr) << M.Nvprof;
    // The traffic run asks apart for what the counters' replays would warm.
    EXPECT_FALSE(M.Collected && M.Traffic) << M.Ncu;
    if (M.Fills != Predicted::No) {
      EXPECT_NE(M.predictedName(), nullptr);
      EXPECT_NE(M.Group, MetricGroup::Other) << M.predictedName();
      EXPECT_NE(M.Quantity, MetricQuantity::Other) << M.predictedName();
      EXPECT_STRNE(M.Formula, "") << M.predictedName();
    }
    EXPECT_EQ(M.Percent, M.Quantity == MetricQuantity::Efficiency);
  }
  const MetricSpec *Eff = findMetric("gld_efficiency");
  ASSERT_NE(Eff, nullptr);
  EXPECT_STREQ(Eff->Ncu,
               "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct");
  EXPECT_EQ(findMetric("no_such_metric"), nullptr);
}

} // namespace
