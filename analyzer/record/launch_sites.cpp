//===- launch_sites.cpp - Source lines of recorded launches ---------------===//
#include "launch_sites.h"
#include "toolkit.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/DebugInfo/Symbolize/Symbolize.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <map>

namespace gmem {

struct LaunchSites::Impl {
  std::string Binary, Toolkit;
  std::map<std::string, std::string> Given; ///< Real path -> name as given.
  llvm::symbolize::LLVMSymbolizer Symbolizer;

  /// Lines that are not the program's own: the toolkit's headers, the
  /// system's, and what nvcc's front end generates.
  bool isRuntime(llvm::StringRef File) const {
    return (!Toolkit.empty() && File.starts_with(Toolkit + "/")) ||
           File.starts_with("/usr/include/") || File.starts_with("/usr/lib/") ||
           File.contains(".cudafe1.") || File.ends_with(".stub.c") ||
           File.ends_with(".fatbin.c");
  }
};

LaunchSites::LaunchSites(std::string Binary,
                         const std::vector<std::string> &Files,
                         std::string Toolkit)
    : P(std::make_unique<Impl>()) {
  P->Binary = std::move(Binary);
  P->Toolkit = Toolkit.empty() ? "" : realPath(Toolkit);
  for (const std::string &F : Files)
    P->Given[realPath(F)] = F;
}

LaunchSites::~LaunchSites() = default;

SourceLoc LaunchSites::siteOf(const std::vector<uint64_t> &Offsets) {
  for (uint64_t Offset : Offsets) {
    auto Info = P->Symbolizer.symbolizeInlinedCode(
        P->Binary, {Offset, llvm::object::SectionedAddress::UndefSection});
    if (!Info) {
      llvm::consumeError(Info.takeError());
      return {};
    }
    for (uint32_t I = 0; I < Info->getNumberOfFrames(); ++I) {
      const llvm::DILineInfo &F = Info->getFrame(I);
      if (!F.Line || F.FileName == llvm::DILineInfo::BadString)
        continue;
      const std::string Real = realPath(F.FileName);
      if (P->isRuntime(Real))
        continue;
      auto G = P->Given.find(Real);
      return {G == P->Given.end() ? F.FileName : G->second, F.Line, 0};
    }
  }
  return {};
}

} // namespace gmem
