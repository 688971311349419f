//===- run_comparison.cpp - gmem-analyze --compare ------------------------===//
#include "run_comparison.h"
#include "arch.h"
#include "importers.h"
#include "simulate.h"

#include <set>

namespace gmem {

namespace {

/// (f) other code, a hypothesis: a launch that mismatches in kernel totals
/// alone (no per-line data to say where) whose every measured row matches
/// what another kernel of the file, launched by the host code with the
/// same grid and block, is predicted to do. The program measured may have
/// been built from other code than this source, as seed 000's table seems
/// to be (its copyGmem measures like the book's copy, its naiveGmem like
/// the printed copyGmem); nothing here can check which code ran, so the
/// rows stay differences.
void explainOtherCode(const Module &M, const SimOptions &SO, RowNames Names,
                      Comparison &C) {
  for (LaunchComparison &LC : C.Launches) {
    if (LC.V != Verdict::Mismatch || !LC.Lines.empty() || LC.Metrics.size() < 2)
      continue;
    for (const Launch &Other : M.Launches) {
      const Kernel *K = M.findKernel(Other.Kernel);
      if (!K || K == LC.Match.K || !(Other.Grid == LC.Match.L.Grid) ||
          !(Other.Block == LC.Match.L.Block) || !Other.Unresolved.empty())
        continue;
      MatchedLaunch As = LC.Match;
      As.K = K;
      As.L = Other;
      LaunchComparison Try =
          compareLaunch(As, *LC.Measured, simulate(*K, Other, SO), Names);
      if (Try.V != Verdict::Match || Try.Metrics.size() != LC.Metrics.size())
        continue;
      std::string Where = K->Name + " at " + Other.Loc.File + ":" +
                          std::to_string(Other.Loc.Line);
      for (MetricComparison &Row : LC.Metrics)
        if (Row.V == Verdict::Mismatch)
          Row.Reason = "(f) a hypothesis, other code: every measured figure "
                       "is what " +
                       Where +
                       " is predicted to do with this grid and block "
                       "(simulated); the program measured may not have been "
                       "built from this source's " +
                       LC.Match.K->Name;
      break;
    }
  }
}

} // namespace

ImportResult readComparedMeasurement(const std::string &Path) {
  ImportResult Read = readMeasurement(Path);
  if (Read)
    if (std::optional<std::string> Bad = checkMetricNames(*Read, Path))
      return Failure{*Bad};
  return Read;
}

Expected<Comparison> buildComparison(const Module &M, const Measurement &Ms,
                                     const std::string &MeasurementName,
                                     const ComparisonOptions &O) {
  Comparison C;
  const ArchRules *Arch = findArch(O.Arch);
  if (!Arch)
    return Failure{"unknown --arch '" + O.Arch + "'"};
  C.File = M.File;
  C.MeasurementPath = MeasurementName;
  C.Ms = &Ms;
  // The launches ran on the measured device: simulate its rules.
  if (const ArchRules *Device = Ms.ComputeCapability.empty()
                                    ? nullptr
                                    : findArch(Ms.ComputeCapability)) {
    if (Device->Name != Arch->Name)
      C.Notes.push_back("simulated for " + Device->Name +
                        ", the measured device's compute capability, not " +
                        Arch->Name);
    Arch = Device;
  }
  C.Arch = Arch->Name;

  Expected<LaunchMatching> Matching = matchLaunches(M, Ms, MeasurementName);
  if (!Matching)
    return Failure{Matching.error()};
  std::set<std::string> Warned;
  for (const MatchedLaunch &ML : Matching->Launches) {
    const MeasuredLaunch &Measured = Ms.Launches[ML.Measured];
    if (auto Valid = validateLaunch(*ML.K, ML.L, *Arch); !Valid)
      return Failure{MeasurementName + ": launch " +
                     std::to_string(Measured.Index) + " (" + ML.K->Name +
                     "): " + Valid.error()};
  }

  SimOptions SO;
  SO.Arch = Arch;
  SO.Threads = O.Threads;
  RowNames Names = rowNamesFor(Ms);
  for (const MatchedLaunch &ML : Matching->Launches) {
    LaunchResult R =
        O.Predict ? O.Predict(*ML.K, ML.L, *Arch) : simulate(*ML.K, ML.L, SO);
    // What the model could not follow matters where its figures are
    // compared.
    if (R.Path == "model" && Warned.insert(ML.K->Name).second)
      for (const std::string &W : ML.K->Warnings)
        C.Warnings.push_back(ML.L.Memory.empty() ? W
                                                 : recordedWarning(*ML.K, W));
    C.Launches.push_back(compareLaunch(ML, Ms.Launches[ML.Measured],
                                       std::move(R), Names,
                                       Ms.Tool == "gmem-verify"));
  }
  explainOtherCode(M, SO, Names, C);
  for (size_t I : Matching->Unmeasured)
    C.Unmeasured.push_back(M.Launches[I]);
  C.Notes.insert(C.Notes.end(), Matching->Notes.begin(), Matching->Notes.end());
  return C;
}

int runComparison(const Module &M, const std::string &MeasurementPath,
                  const ComparisonOptions &O, std::ostream &Out,
                  std::ostream &Err) {
  auto Fail = [&](const std::string &Message) {
    Err << "gmem-analyze: error: " << Message << "\n";
    return 2;
  };
  if (O.Format != "text" && O.Format != "json")
    return Fail("unknown --format '" + O.Format +
                "' for --compare; use text or json");
  ImportResult Read = readComparedMeasurement(MeasurementPath);
  if (!Read)
    return Fail(Read.error());
  Expected<Comparison> C = buildComparison(M, *Read, MeasurementPath, O);
  if (!C)
    return Fail(C.error());
  if (O.Format == "json")
    Out << comparisonJson(*C).dump(2) << "\n";
  else
    printComparisonText(*C, Out);
  return comparisonExitCode(*C, O.Strict);
}

} // namespace gmem
