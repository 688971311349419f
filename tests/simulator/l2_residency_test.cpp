//===- l2_residency_test.cpp - A warm L2 from launch to launch ------------===//
//
// simulator/l2_residency.h, worked out by hand on an L2 of 60 MiB (the
// H200's), with launches shaped as the H200 measured them under ncu
// --cache-control none (tests/data/traffic/h200_ncu_warm.csv).
//
//===----------------------------------------------------------------------===//
#include "dram_traffic.h"
#include "l2_residency.h"

#include <gtest/gtest.h>

using namespace gmem;

namespace {

constexpr uint64_t MiB = 1 << 20, L2 = 60 * MiB;

/// A launch that reads In (Read bytes of it) and writes Out, with code
/// and parameters of 3000 bytes, and the write-back a flushed L2 gives it.
DramTraffic launchOf(uint64_t Read, uint64_t Written,
                     uint64_t ColdWriteBytes = 0) {
  DramTraffic D;
  D.Known = true;
  D.LaunchBytes = 3000;
  D.Buffers["in"] = {Read, 0, Read};
  D.Buffers["out"] = {0, Written, Written};
  D.Footprint = Read + Written;
  D.ReadBytes = D.LaunchBytes + Read;
  D.WriteBytes = ColdWriteBytes;
  return D;
}

TEST(L2Residency, WhatTheHostCopiedIsFoundThere) {
  // examples/async_copy.cu's pipelineScale: 2 MB copied in, then read; the
  // H200 read 2.10 MB flushed and nothing warm.
  L2Residency R(L2);
  R.hostWrote("code of k", 3000, false);
  R.hostWrote("in", 2 * MiB, false);
  const DramTraffic W = R.launch(launchOf(2 * MiB, 2 * MiB), "code of k");
  EXPECT_TRUE(W.Warm);
  EXPECT_EQ(W.ReadBytes, 0u);
  EXPECT_EQ(W.WriteBytes, 0u);
  // Run again (a timing loop): still nothing from DRAM.
  EXPECT_EQ(R.launch(launchOf(2 * MiB, 2 * MiB), "code of k").ReadBytes, 0u);
}

TEST(L2Residency, ALaunchLargerThanL2StreamsThroughIt) {
  // A 64 MiB transpose (in and out: 128 MiB, over twice the L2) finds
  // nothing of its input, even right after the host copied it: every
  // transpose of examples/transpose.cu read its 67 MB again on the H200.
  // The program copies the input in and sets the output to zero first.
  L2Residency R(L2);
  R.hostWrote("code of k", 3000, false);
  R.hostWrote("in", 64 * MiB, false);
  R.hostWrote("out", 64 * MiB, true);
  // The set leaves 60 MiB of the output in L2, a third of the L2 dirty.
  const uint64_t HostDirty = uint64_t(L2SetRetention * double(L2));
  const uint64_t Cold = 50 * MiB; // What a flushed L2 writes back.
  const DramTraffic First =
      R.launch(launchOf(64 * MiB, 64 * MiB, Cold), "code of k");
  // The copy pushed the code out.
  EXPECT_EQ(First.ReadBytes, 64 * MiB + 3000);
  // Its own write-back, and the set's dirty lines it pushes out.
  EXPECT_EQ(First.WriteBytes, Cold + HostDirty);
  // It leaves its share of L2 (60 of 128 MiB and the code: the buffers
  // half each), 14 of 64 MiB of its output dirty (what the flushed L2
  // keeps): the next transpose writes those back too.
  const DramTraffic Second =
      R.launch(launchOf(64 * MiB, 64 * MiB, Cold), "code of k");
  EXPECT_EQ(Second.ReadBytes, 64 * MiB);
  const uint64_t Share =
      uint64_t(double(64 * MiB) * double(L2) / double(128 * MiB + 3000));
  const uint64_t Dirty = uint64_t(double(64 * MiB) * (1 - 50.0 / 64));
  EXPECT_NEAR(double(Second.WriteBytes), double(Cold + std::min(Share, Dirty)),
              1.0);
}

TEST(L2Residency, ALargeLaunchEvictsTheNextOnesCode) {
  // examples/seeds_gt.cu's global_add after its 4096 x 4096 transposes read
  // 3 KB (its code and parameters) with the L2 warm; examples/
  // coalescing.cu's, which comes first, read nothing.
  L2Residency R(L2);
  R.hostWrote("code of small", 3000, false);
  R.hostWrote("code of big", 3000, false);
  R.launch(launchOf(64 * MiB, 64 * MiB, 50 * MiB), "code of big");
  DramTraffic Small = launchOf(16384, 16384);
  Small.Buffers.clear();
  Small.Buffers["x"] = {16384, 0, 16384};
  Small.Footprint = 16384;
  EXPECT_EQ(R.launch(Small, "code of small").ReadBytes, 3000u + 16384);
}

} // namespace
