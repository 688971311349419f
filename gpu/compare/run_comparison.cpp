//===- run_comparison.cpp - gmem-analyze --compare ------------------------===//
#include "arch.h"
#include "compare.h"
#include "importers.h"
#include "simulate.h"

#include <set>

namespace gmem {

bool buildComparison(const Module &M, const Measurement &Ms,
                     const std::string &MeasurementName,
                     const ComparisonOptions &O, Comparison &C,
                     std::string &Error) {
  C = Comparison();
  const ArchRules *Arch = findArch(O.Arch);
  if (!Arch) {
    Error = "unknown --arch '" + O.Arch + "'";
    return false;
  }
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

  LaunchMatching Matching;
  if (!matchLaunches(M, Ms, MeasurementName, Matching, Error))
    return false;
  std::set<std::string> Warned;
  for (const MatchedLaunch &ML : Matching.Launches) {
    const MeasuredLaunch &Measured = Ms.Launches[ML.Measured];
    if (auto Why = validateLaunch(*ML.K, ML.L, *Arch)) {
      Error = MeasurementName + ": launch " + std::to_string(Measured.Index) +
              " (" + ML.K->Name + "): " + *Why;
      return false;
    }
    if (Warned.insert(ML.K->Name).second)
      for (const std::string &W : ML.K->Warnings)
        C.Warnings.push_back(ML.L.Memory.empty() ? W
                                                 : recordedWarning(*ML.K, W));
  }

  SimOptions SO;
  SO.Arch = Arch;
  SO.Threads = O.Threads;
  RowNames Names = rowNamesFor(Ms);
  for (const MatchedLaunch &ML : Matching.Launches)
    C.Launches.push_back(compareLaunch(ML, Ms.Launches[ML.Measured],
                                       simulate(*ML.K, ML.L, SO), Names));
  for (size_t I : Matching.Unmeasured)
    C.Unmeasured.push_back(M.Launches[I]);
  return true;
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
  ImportResult Read = readMeasurement(MeasurementPath);
  if (!Read)
    return Fail(Read.error().Message);
  Comparison C;
  std::string Error;
  if (!buildComparison(M, *Read, MeasurementPath, O, C, Error))
    return Fail(Error);
  if (O.Format == "json")
    Out << comparisonJson(C).dump(2) << "\n";
  else
    printComparisonText(C, Out);
  return comparisonExitCode(C, O.Strict);
}

} // namespace gmem
