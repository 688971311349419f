//===- gate_config.cpp - The gate's .gmem configuration files -------------===//
#include "gate_config.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/YAMLTraits.h"

namespace {

/// The file as written: every key optional.
struct ConfigFile {
  std::optional<std::string> Checks, WarningsAsErrors;
  std::optional<double> MinEfficiency;
  std::optional<uint64_t> MaxConflictWays;
};

} // namespace

template <> struct llvm::yaml::MappingTraits<ConfigFile> {
  static void mapping(IO &IO, ConfigFile &F) {
    IO.mapOptional("Checks", F.Checks);
    IO.mapOptional("WarningsAsErrors", F.WarningsAsErrors);
    IO.mapOptional("MinEfficiency", F.MinEfficiency);
    IO.mapOptional("MaxConflictWays", F.MaxConflictWays);
  }
};

namespace gmem {

llvm::Expected<GateConfig> parseGateConfig(const std::string &Text,
                                           const std::string &Path) {
  std::string Diag;
  llvm::raw_string_ostream DiagOS(Diag);
  // YAML's errors as "PATH:LINE:COL: what", one line each.
  auto Handler = [](const llvm::SMDiagnostic &D, void *Ctx) {
    *static_cast<llvm::raw_string_ostream *>(Ctx)
        << D.getFilename() << ":" << D.getLineNo() << ":" << D.getColumnNo() + 1
        << ": " << D.getMessage() << "\n";
  };
  ConfigFile F;
  llvm::yaml::Input In(llvm::MemoryBufferRef(Text, Path), nullptr, Handler,
                       &DiagOS);
  In >> F;
  if (In.error()) {
    DiagOS.flush();
    std::string First = Diag.substr(0, Diag.find('\n'));
    return llvm::createStringError(
        (First.empty() ? Path + ": not a gmem configuration" : First) +
        " (keys: Checks, WarningsAsErrors, MinEfficiency, MaxConflictWays)");
  }
  GateConfig C;
  C.Path = Path;
  if (F.Checks)
    C.Checks = *F.Checks;
  if (F.WarningsAsErrors)
    C.FailOn = *F.WarningsAsErrors;
  if (F.MinEfficiency && (*F.MinEfficiency < 0 || *F.MinEfficiency > 100))
    return llvm::createStringError(Path + ": MinEfficiency " +
                                   std::to_string(*F.MinEfficiency) +
                                   " is not a percentage");
  C.MinEfficiencyPct = F.MinEfficiency;
  C.MaxConflictWays = F.MaxConflictWays;
  return C;
}

llvm::Expected<GateConfig> readConfigFile(const std::string &Path) {
  auto Buf = llvm::MemoryBuffer::getFile(Path);
  if (!Buf)
    return llvm::createStringError(Path + ": cannot read: " +
                                   Buf.getError().message());
  return parseGateConfig(std::string((*Buf)->getBuffer()), Path);
}

std::string dumpGateConfig(const GateConfig &C) {
  std::string Out = "---\n";
  if (!C.Path.empty())
    Out += "# " + C.Path + " with the command line's flags\n";
  Out += "Checks: '" + C.Checks + "'\n";
  Out += "WarningsAsErrors: '" + C.FailOn + "'\n";
  if (C.MinEfficiencyPct) {
    char B[32];
    snprintf(B, sizeof B, "%g", *C.MinEfficiencyPct);
    Out += std::string("MinEfficiency: ") + B + "\n";
  }
  if (C.MaxConflictWays)
    Out += "MaxConflictWays: " + std::to_string(*C.MaxConflictWays) + "\n";
  return Out + "...\n";
}

llvm::Expected<GateConfig> GateConfigs::forFile(const std::string &File) {
  if (!G.ConfigFile.empty())
    return withCommandLine(readConfigFile(G.ConfigFile));
  llvm::SmallString<256> Dir(File);
  llvm::sys::fs::make_absolute(Dir);
  llvm::sys::path::remove_dots(Dir, /*remove_dot_dot=*/true);
  llvm::sys::path::remove_filename(Dir);
  std::optional<GateConfig> Found;
  std::vector<std::string> Visited;
  for (std::string D(Dir); !D.empty();
       D = std::string(llvm::sys::path::parent_path(D))) {
    auto It = Folders.find(D);
    if (It != Folders.end()) {
      Found = It->second;
      break;
    }
    Visited.push_back(D);
    std::string P = D + "/.gmem";
    if (llvm::sys::fs::exists(P)) {
      auto Read = readConfigFile(P);
      if (!Read)
        return Read.takeError();
      Found = std::move(*Read);
      break;
    }
    if (D == llvm::sys::path::parent_path(D))
      break; // The root.
  }
  for (const std::string &D : Visited)
    Folders[D] = Found;
  return withCommandLine(Found.value_or(GateConfig()));
}

llvm::Expected<GateConfig>
GateConfigs::withCommandLine(llvm::Expected<GateConfig> Read) const {
  if (!Read)
    return Read.takeError();
  GateConfig C = std::move(*Read);
  // The command line last: lists appended, values replaced.
  if (!G.Checks.empty())
    C.Checks += "," + G.Checks;
  if (!G.FailOn.empty())
    C.FailOn += (C.FailOn.empty() ? "" : ",") + G.FailOn;
  if (G.MinEfficiencyPct)
    C.MinEfficiencyPct = G.MinEfficiencyPct;
  if (G.MaxConflictWays)
    C.MaxConflictWays = G.MaxConflictWays;
  return C;
}

} // namespace gmem
