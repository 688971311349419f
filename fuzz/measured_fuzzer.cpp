//===- measured_fuzzer.cpp - Measurement files as a user may give them ----===//
//
// The same bytes go to each importer (gmem-verify's JSON, ncu CSV, nvprof
// CSV) and to the format detection; each either reads them or says why in
// one line naming the file. Kernel-name normalisation (which demangles) gets
// the bytes too.
//
//===----------------------------------------------------------------------===//
#include "fuzz_check.h"
#include "importers.h"

#include <cstdint>
#include <string>

using namespace gmem;

namespace {

void check(const ImportResult &R) {
  if (R) {
    for (const MeasuredLaunch &L : R->Launches)
      for (const auto &[Name, Value] : L.Metrics)
        FUZZ_CHECK(!Name.empty(), "metric without a name");
    return;
  }
  const std::string &E = R.error();
  FUZZ_CHECK(E.rfind("fuzz.txt", 0) == 0, "error does not name the file: %s",
             E.c_str());
  FUZZ_CHECK(E.find('\n') == std::string::npos, "error on two lines: %s",
             E.c_str());
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string Text(reinterpret_cast<const char *>(Data), Size);
  check(parseMeasurement(Text, "fuzz.txt"));
  check(parseMeasuredJson(Text, "fuzz.txt"));
  check(parseNcuCsv(Text, "fuzz.txt"));
  check(parseNvprofCsv(Text, "fuzz.txt"));
  if (Size < 512)
    (void)kernelBaseName(Text);
  return 0;
}
