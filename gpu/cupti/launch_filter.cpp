//===- launch_filter.cpp - Which launches gmem-verify profiles -----------===//
#include "launch_filter.h"

#include <cctype>

namespace gmem {
namespace cupti {

Expected<std::unique_ptr<LaunchFilter>>
LaunchFilter::create(const LaunchFilterOptions &Opts) {
  std::unique_ptr<LaunchFilter> F(new LaunchFilter());
  F->Opts = Opts;
  if (!Opts.KernelRegex.empty()) {
    try {
      F->Regex = std::regex(Opts.KernelRegex, std::regex::ECMAScript);
    } catch (const std::regex_error &E) {
      return Failure{"invalid --kernel regular expression '" +
                     Opts.KernelRegex + "': " + E.what()};
    }
  }
  return F;
}

bool LaunchFilter::select(const std::string &Kernel, const std::string &Mangled,
                          const std::array<uint64_t, 3> &Grid,
                          const std::array<uint64_t, 3> &Block,
                          uint64_t DynamicSmem) {
  if (!Opts.KernelRegex.empty() && !std::regex_search(Kernel, Regex) &&
      !std::regex_search(Mangled, Regex))
    return false;
  std::string Key = Mangled.empty() ? Kernel : Mangled;
  for (uint64_t V : Grid)
    Key += "/" + std::to_string(V);
  for (uint64_t V : Block)
    Key += "/" + std::to_string(V);
  Key += "/" + std::to_string(DynamicSmem);
  uint64_t N = Seen[Key]++;
  if (N < Opts.Skip)
    return false;
  return Opts.Count == UINT64_MAX || N - Opts.Skip < Opts.Count;
}

bool parseCount(const std::string &Text, uint64_t &Out) {
  if (Text.empty() || Text.size() > 18)
    return false;
  uint64_t V = 0;
  for (char C : Text) {
    if (!std::isdigit(static_cast<unsigned char>(C)))
      return false;
    V = V * 10 + static_cast<uint64_t>(C - '0');
  }
  Out = V;
  return true;
}

} // namespace cupti
} // namespace gmem
