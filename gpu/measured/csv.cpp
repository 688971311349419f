//===- csv.cpp - CSV fields and numbers as ncu and nvprof print them ------===//
#include "csv.h"

#include <cctype>
#include <cstdlib>

namespace gmem {
namespace csv {

std::vector<Line> splitLines(const std::string &Text) {
  std::vector<Line> Lines;
  size_t Pos = 0;
  if (Text.compare(0, 3, "\xEF\xBB\xBF") == 0)
    Pos = 3;
  unsigned Number = 1;
  while (Pos < Text.size()) {
    size_t End = Text.find('\n', Pos);
    if (End == std::string::npos)
      End = Text.size();
    size_t Stop = End;
    if (Stop > Pos && Text[Stop - 1] == '\r')
      --Stop;
    Lines.push_back({Number++, Text.substr(Pos, Stop - Pos)});
    Pos = End + 1;
  }
  return Lines;
}

Expected<std::vector<std::string>> splitRecord(std::string_view Record) {
  std::vector<std::string> Fields;
  size_t I = 0, N = Record.size();
  while (true) {
    std::string Field;
    // Spaces before a quoted field are tolerated; nvprof pads none, but
    // hand-edited files do.
    size_t J = I;
    while (J < N && (Record[J] == ' ' || Record[J] == '\t'))
      ++J;
    if (J < N && Record[J] == '"') {
      I = J + 1;
      bool Closed = false;
      while (I < N) {
        if (Record[I] == '"') {
          if (I + 1 < N && Record[I + 1] == '"') {
            Field += '"';
            I += 2;
            continue;
          }
          Closed = true;
          ++I;
          break;
        }
        Field += Record[I++];
      }
      if (!Closed)
        return Failure{"a quoted field is not closed (truncated line?)"};
      while (I < N && (Record[I] == ' ' || Record[I] == '\t'))
        ++I;
      if (I < N && Record[I] != ',')
        return Failure{"unexpected text after a quoted field"};
    } else {
      while (I < N && Record[I] != ',')
        Field += Record[I++];
      Field = std::string(trim(Field));
    }
    Fields.push_back(std::move(Field));
    if (I >= N)
      break;
    ++I; // The comma.
  }
  return Fields;
}

int Header::column(std::string_view Name) const {
  for (size_t I = 0; I < Columns.size(); ++I)
    if (Columns[I] == Name)
      return int(I);
  return -1;
}

std::optional<size_t> findHeaderLine(const std::vector<Line> &Lines,
                                     std::string_view Prefix) {
  for (size_t I = 0; I < Lines.size(); ++I)
    if (Lines[I].Text.compare(0, Prefix.size(), Prefix) == 0)
      return I;
  return std::nullopt;
}

Expected<Header> readHeader(const std::vector<Line> &Lines, size_t At) {
  Expected<std::vector<std::string>> Columns = splitRecord(Lines[At].Text);
  if (!Columns)
    return Failure{Columns.error()};
  return Header{At, std::move(*Columns)};
}

Expected<std::vector<std::string>> splitRow(const Line &Row, size_t Columns) {
  Expected<std::vector<std::string>> Fields = splitRecord(Row.Text);
  if (Fields && Fields->size() != Columns)
    return Failure{"expected " + std::to_string(Columns) +
                   " fields as in the header, found " +
                   std::to_string(Fields->size()) + " (truncated line?)"};
  return Fields;
}

std::string_view trim(std::string_view Text) {
  while (!Text.empty() && (Text.front() == ' ' || Text.front() == '\t'))
    Text.remove_prefix(1);
  while (!Text.empty() && (Text.back() == ' ' || Text.back() == '\t'))
    Text.remove_suffix(1);
  return Text;
}

static bool isDigit(char C) { return C >= '0' && C <= '9'; }

std::optional<double> parseNumber(std::string_view Text) {
  Text = trim(Text);
  if (!Text.empty() && Text.back() == '%')
    Text = trim(Text.substr(0, Text.size() - 1));
  // Validate the shape by hand (strtod would take "nan", "0x1p3", ...) and
  // drop thousands separators, which must group exactly three digits.
  std::string Plain;
  size_t I = 0, N = Text.size();
  if (I < N && (Text[I] == '-' || Text[I] == '+'))
    Plain += Text[I++];
  size_t IntStart = I, GroupLen = 0;
  bool SawComma = false;
  for (; I < N && (isDigit(Text[I]) || Text[I] == ','); ++I) {
    if (Text[I] == ',') {
      if (I == IntStart || (SawComma ? GroupLen != 3 : GroupLen > 3))
        return std::nullopt;
      SawComma = true;
      GroupLen = 0;
      continue;
    }
    Plain += Text[I];
    ++GroupLen;
  }
  if (SawComma && GroupLen != 3)
    return std::nullopt;
  bool HasDigits = Plain.size() > (IntStart > 0 ? 1u : 0u);
  if (I < N && Text[I] == '.') {
    Plain += Text[I++];
    for (; I < N && isDigit(Text[I]); ++I) {
      Plain += Text[I];
      HasDigits = true;
    }
  }
  if (!HasDigits)
    return std::nullopt;
  if (I < N && (Text[I] == 'e' || Text[I] == 'E')) {
    Plain += Text[I++];
    if (I < N && (Text[I] == '-' || Text[I] == '+'))
      Plain += Text[I++];
    size_t ExpStart = I;
    for (; I < N && isDigit(Text[I]); ++I)
      Plain += Text[I];
    if (I == ExpStart)
      return std::nullopt;
  }
  if (I != N)
    return std::nullopt;
  return std::strtod(Plain.c_str(), nullptr);
}

std::optional<std::array<uint64_t, 3>> parseDim3(std::string_view Text) {
  Text = trim(Text);
  if (Text.size() >= 2 && Text.front() == '(' && Text.back() == ')')
    Text = Text.substr(1, Text.size() - 2);
  std::array<uint64_t, 3> Dims{1, 1, 1};
  size_t Count = 0;
  while (true) {
    size_t Comma = Text.find(',');
    std::string_view Part = trim(Text.substr(0, Comma));
    if (Count == 3 || Part.empty())
      return std::nullopt;
    uint64_t Value = 0;
    for (char C : Part) {
      if (!isDigit(C) || Value > (UINT64_MAX - 9) / 10)
        return std::nullopt;
      Value = Value * 10 + uint64_t(C - '0');
    }
    Dims[Count++] = Value;
    if (Comma == std::string_view::npos)
      break;
    Text.remove_prefix(Comma + 1);
  }
  return Dims;
}

} // namespace csv
} // namespace gmem
