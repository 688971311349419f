//===- read_measurement.cpp - Files to Measurements, by their content -----===//
#include "csv.h"
#include "importers.h"
#include "nvprof_names.h"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace gmem {

namespace {

enum class Format { Json, Ncu, Nvprof, NvprofText, Unknown };

Format detect(const std::string &Text) {
  size_t First = Text.find_first_not_of(" \t\r\n");
  if (First != std::string::npos && Text[First] == '{')
    return Format::Json;
  if (Text.compare(0, 3, "\xEF\xBB\xBF{") == 0)
    return Format::Json;
  std::vector<csv::Line> Lines = csv::splitLines(Text);
  for (size_t I = 0; I < Lines.size(); ++I) {
    const csv::Line &L = Lines[I];
    if (L.Text.compare(0, 5, "\"ID\",") == 0)
      return Format::Ncu;
    if (L.Text.compare(0, 18, "\"Device\",\"Kernel\",") == 0)
      return Format::Nvprof;
    // Event tables too (its importer says why it cannot compare them), and
    // tables whose columns were wrapped onto lines of their own.
    if (nvprof::textHeader(L.Text) != nvprof::TextHeader::None ||
        nvprof::isWrappedTextHeader(Lines, I))
      return Format::NvprofText;
  }
  return Format::Unknown;
}

/// The whole file, or an error naming it.
Expected<std::string> readText(const std::string &Path) {
  std::error_code EC;
  if (std::filesystem::is_directory(Path, EC))
    return Failure{Path + ": is a directory, not a measurement file"};
  std::ifstream In(Path, std::ios::binary);
  if (!In)
    return Failure{Path + ": cannot open the file"};
  std::ostringstream Buffer;
  Buffer << In.rdbuf();
  if (In.bad())
    return Failure{Path + ": cannot read the file"};
  return Buffer.str();
}

template <typename Parse>
ImportResult readWith(const std::string &Path, Parse P) {
  Expected<std::string> Text = readText(Path);
  if (!Text)
    return Failure{Text.error()};
  return P(*Text, Path);
}

} // namespace

ImportResult parseMeasurement(const std::string &Text,
                              const std::string &Name) {
  if (Text.find_first_not_of(" \t\r\n") == std::string::npos)
    return Failure{Name + ": empty file"};
  switch (detect(Text)) {
  case Format::Json:
    return parseMeasuredJson(Text, Name);
  case Format::Ncu:
    return parseNcuCsv(Text, Name);
  case Format::Nvprof:
    return parseNvprofCsv(Text, Name);
  case Format::NvprofText:
    return parseNvprofText(Text, Name);
  case Format::Unknown:
    break;
  }
  return Failure{Name + ": not a measurement: expected gmem-verify's "
                        "measured.json, an ncu --csv export or an nvprof "
                        "--metrics log (CSV or its printed tables)"};
}

ImportResult readMeasurement(const std::string &Path) {
  return readWith(Path, parseMeasurement);
}
ImportResult readMeasuredJson(const std::string &Path) {
  return readWith(Path, parseMeasuredJson);
}
ImportResult readNcuCsv(const std::string &Path) {
  return readWith(Path, parseNcuCsv);
}
ImportResult readNvprofCsv(const std::string &Path) {
  return readWith(Path, parseNvprofCsv);
}
ImportResult readNvprofText(const std::string &Path) {
  return readWith(Path, parseNvprofText);
}

} // namespace gmem
