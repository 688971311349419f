//===- estimates.cpp - DRAM bytes and duration beside their measurements --===//
//
// What gmem predicts from a model of the board rather than counts: the DRAM
// bytes a launch reads and writes with the caches flushed before it, and
// its duration. Each is judged against a band, the accuracy
// docs/TRAFFIC.md measured on the H200's launches, not a tolerance:
//   - DRAM bytes read: 10 % or 4 KiB (a launch's code and parameters vary
//     by about that much between launches);
//   - DRAM bytes written: 25 % or 64 KiB (what L2 keeps back varies);
//   - L2 sectors read and written (Nsight Compute's count, lts__t_sectors):
//     10 % or 1000 sectors (every launch's own reads, about 1000);
//   - duration: 25 % or 2 us (launches of a few us vary by about that).
// The duration is predicted at the SM clock measured during the launch
// where the measurement has it (gmem-verify leaves the clocks as they
// are), otherwise at the base clock Nsight Compute locks the board to.
//
//===----------------------------------------------------------------------===//
#include "compare.h"
#include "launch_time.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace gmem {

namespace {

constexpr const char *ClockMetric = "sm__cycles_elapsed.avg.per_second";

struct EstimateSpec {
  const char *Name, *Nvprof, *Label, *Unit;
  double Band, Floor;
};

const EstimateSpec Specs[] = {
    {"dram__bytes_read.sum", "dram_read_bytes", "DRAM bytes read", "bytes",
     0.10, 4096},
    {"dram__bytes_write.sum", "dram_write_bytes", "DRAM bytes written", "bytes",
     0.25, 65536},
    {"lts__t_sectors_op_read.sum", nullptr, "L2 sectors read", "sectors", 0.10,
     1000},
    {"lts__t_sectors_op_write.sum", nullptr, "L2 sectors written", "sectors",
     0.10, 1000},
    {"gpu__time_duration.sum", nullptr, "duration", "ns", 0.25, 2000},
};

std::optional<double> find(const MeasuredLaunch &ML, const EstimateSpec &S) {
  for (const char *N : {S.Name, S.Nvprof})
    if (N)
      if (auto It = ML.Metrics.find(N); It != ML.Metrics.end())
        return It->second;
  return std::nullopt;
}

bool within(double Lo, double Hi, double M, double Band, double Floor) {
  return M >= Lo - std::max(Band * Lo, Floor) &&
         M <= Hi + std::max(Band * Hi, Floor);
}

std::string ghz(double Hz) {
  char B[32];
  std::snprintf(B, sizeof B, "%.2f GHz", Hz / 1e9);
  return B;
}

} // namespace

bool usedByEstimates(std::string_view Name) {
  if (Name == ClockMetric)
    return true;
  for (const EstimateSpec &S : Specs)
    if (Name == S.Name || (S.Nvprof && Name == S.Nvprof))
      return true;
  return false;
}

std::vector<EstimateComparison> compareEstimates(const LaunchResult &R,
                                                 const MeasuredLaunch &ML,
                                                 bool OwnFlush) {
  std::vector<EstimateComparison> Out;
  // The duration at the measured clock, where there is one.
  std::optional<LaunchTime> Time = R.Time;
  std::string TimeNote;
  auto Clock = ML.Metrics.find(ClockMetric);
  if (Clock != ML.Metrics.end() && Clock->second > 0 && R.Board) {
    MemorySystem M = *R.Board;
    M.ClockHz = Clock->second;
    M.ClockWhy = "the SM clock measured during the launch";
    Time = predictTime(R, M);
    TimeNote =
        "at the SM clock measured during the launch, " + ghz(Clock->second);
  } else if (Time && Time->ClockHz > 0) {
    TimeNote = "at " + ghz(Time->ClockHz) + ", " + Time->ClockWhy;
  }
  for (const EstimateSpec &S : Specs) {
    std::optional<double> Measured = find(ML, S);
    if (!Measured)
      continue;
    EstimateComparison E;
    E.Name = S.Name;
    E.Label = S.Label;
    E.Unit = S.Unit;
    E.Measured = *Measured;
    E.Band = S.Band;
    E.Floor = S.Floor;
    const bool IsTime = std::string(S.Name) == "gpu__time_duration.sum";
    if (IsTime) {
      E.Note = TimeNote;
      if (Time && (Time->Known || Time->Bounded)) {
        E.Predicted = Time->Seconds * 1e9;
        if (Time->Bounded)
          E.PredictedUpper = Time->UpperSeconds * 1e9;
      } else {
        E.UnknownReason = Time ? Time->Why : "no board is known for the launch";
      }
    } else if (std::string(S.Unit) == "sectors") {
      if (R.L2 && R.L2->Known) {
        const bool Read = std::string(S.Name) == "lts__t_sectors_op_read.sum";
        E.Predicted = double(Read ? R.L2->ReadSectors : R.L2->WriteSectors);
        E.Note = R.L2->EveryBlock
                     ? std::string("L1's misses in every block, executed")
                     : "L1's misses in " + std::to_string(R.L2->SampledBlocks) +
                           (R.L2->SampledBlocks == 1 ? " block" : " blocks") +
                           " run in full";
      } else {
        E.UnknownReason = R.L2 ? R.L2->Why : "no board is known for the launch";
      }
    } else if (R.Dram && (R.Dram->Known || R.Dram->Bounded)) {
      const bool Read = std::string(S.Name) == "dram__bytes_read.sum";
      // gmem-verify's flush reads a scratch area through L2, which leaves
      // the launch's code and parameters there (Rodinia's nw, whose kernel
      // holds 606 SASS instructions, read 4 KB of DRAM in all): the
      // launch's data alone.
      const double V = Read ? double(R.Dram->ReadBytes -
                                     (OwnFlush ? std::min(R.Dram->LaunchBytes,
                                                          R.Dram->ReadBytes)
                                               : 0))
                            : double(R.Dram->WriteBytes);
      // Bounded: every sector is priced but the buffers' sizes are missing,
      // so the bytes lie between none beyond the launch's own and V.
      if (R.Dram->Bounded) {
        E.Predicted = 0;
        E.PredictedUpper = V;
      } else {
        E.Predicted = V;
      }
      E.Note = std::string(OwnFlush && Read
                               ? "L2 emptied of the program's data before "
                                 "the launch (not of its code), on "
                               : "caches flushed before the launch, on ") +
               R.Dram->Board;
    } else {
      E.UnknownReason =
          R.Dram ? R.Dram->Why : "no board is known for the launch";
    }
    if (E.Predicted)
      E.Within = within(*E.Predicted, E.PredictedUpper.value_or(*E.Predicted),
                        E.Measured, E.Band, E.Floor);
    Out.push_back(std::move(E));
  }
  return Out;
}

} // namespace gmem
