//===- csv.h - CSV fields and numbers as ncu and nvprof print them --------===//
//
// Internal to the importers. Both tools print one record per line, quote
// text fields (RFC 4180, "" for a quote) and may leave numbers unquoted.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_GPU_MEASURED_CSV_H
#define GMEM_GPU_MEASURED_CSV_H

#include "expected.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gmem {
namespace csv {

struct Line {
  unsigned Number = 0; ///< 1-based line number in the file.
  std::string Text;    ///< Without the line break ("\n" or "\r\n").
};

/// Splits Text into lines; drops a leading UTF-8 byte order mark.
std::vector<Line> splitLines(const std::string &Text);

/// Splits one record into its fields; a Failure saying what is wrong on a
/// malformed record (a quote left open, text after a closing quote).
Expected<std::vector<std::string>> splitRecord(std::string_view Record);

/// A number as the tools print it: "524288", "67,116,800" (groups of three
/// digits), "12.50", "1.5e+03", "12.50%" (the '%' is dropped). Nothing for
/// anything else, including "nan" and "inf".
std::optional<double> parseNumber(std::string_view Text);

/// "(32, 16, 1)" (ncu's Block Size and Grid Size); also "32,16,1".
std::optional<std::array<uint64_t, 3>> parseDim3(std::string_view Text);

/// A table's header line and its column names.
struct Header {
  size_t At = 0; ///< Index of the header in the lines.
  std::vector<std::string> Columns;
  /// Index of the first column called Name, or -1.
  int column(std::string_view Name) const;
};

/// The index of the first line starting with Prefix (the lines before it
/// are program output, profiler banners); nothing when no line does.
std::optional<size_t> findHeaderLine(const std::vector<Line> &Lines,
                                     std::string_view Prefix);

/// Line At split into column names (as splitRecord).
Expected<Header> readHeader(const std::vector<Line> &Lines, size_t At);

/// The fields of a data row of a table with Columns columns; a Failure when
/// the row is malformed or has another number of fields.
Expected<std::vector<std::string>> splitRow(const Line &Row, size_t Columns);

/// Text without leading and trailing spaces and tabs.
std::string_view trim(std::string_view Text);

} // namespace csv
} // namespace gmem

#endif // GMEM_GPU_MEASURED_CSV_H
