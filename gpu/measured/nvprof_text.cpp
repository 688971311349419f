//===- nvprof_text.cpp - nvprof `--metrics ...` tables as printed ---------===//
//
// What nvprof prints without --csv (to stderr, or to --log-file):
//
//   ==127053== NVPROF is profiling process 127053, command: ./a.out
//   ...program output...
//   ==127053== Metric result:
//   Invocations   Metric Name   Metric Description   Min   Max   Avg
//   Device "Quadro P2000 (0)"
//     Kernel: naiveGmem(float*, float*, int, int)
//     1  gst_efficiency  Global Memory Store Efficiency  12.50%  12.50%  12.50%
//
// (nvprof pads the columns much wider). The description has spaces of its
// own, so a row is read from both ends: the invocation count and the
// metric name are its first two words; Avg, Max and Min its last values,
// read from the right, where a utilization level is two words ("Low (1)");
// the description is what lies between. Values read as in the CSV log
// (nvprof_names.h).
//
// A row's first word is a count: a line in a table that starts otherwise
// (a shell prompt, program output) or a "==PID==" line ends the table.
// Event tables ("Invocations  Event Name  Min  Max  Avg  Total", from
// --events) are skipped; a log with nothing else is refused.
//
//===----------------------------------------------------------------------===//
#include "csv.h"
#include "importers.h"
#include "nvprof_names.h"

#include <map>

namespace gmem {

namespace {

bool isSpace(char C) { return C == ' ' || C == '\t'; }

bool startsWith(std::string_view Text, std::string_view Prefix) {
  return Text.substr(0, Prefix.size()) == Prefix;
}

std::vector<std::string_view> words(std::string_view Text) {
  std::vector<std::string_view> W;
  size_t I = 0;
  while (I < Text.size()) {
    while (I < Text.size() && isSpace(Text[I]))
      ++I;
    size_t Start = I;
    while (I < Text.size() && !isSpace(Text[I]))
      ++I;
    if (I > Start)
      W.push_back(Text.substr(Start, I - Start));
  }
  return W;
}

/// An invocation count: digits, possibly grouped by commas.
bool isCount(std::string_view Word) {
  if (Word.empty() || Word[0] < '0' || Word[0] > '9')
    return false;
  for (char C : Word)
    if ((C < '0' || C > '9') && C != ',')
      return false;
  return true;
}

/// The second word of a utilization level: "(1)".
bool isLevelNumber(std::string_view Word) {
  return Word.size() >= 3 && Word.front() == '(' && Word.back() == ')' &&
         isCount(Word.substr(1, Word.size() - 2));
}

bool isLevelName(std::string_view Word) {
  return Word == "Idle" || Word == "Low" || Word == "Mid" || Word == "High" ||
         Word == "Max";
}

struct Row {
  std::string Metric;
  double Avg = 0;
};

/// A row "COUNT NAME DESCRIPTION... MIN MAX AVG"; nothing with Why set when
/// it is malformed.
std::optional<Row> parseRow(std::string_view Text, std::string &Why) {
  std::vector<std::string_view> W = words(Text);
  if (W.size() < 2) {
    Why = "a row with an invocation count and nothing else (truncated "
          "row?); expected Invocations, Metric Name, Metric Description, "
          "Min, Max and Avg";
    return std::nullopt;
  }
  Row R;
  R.Metric = std::string(W[1]);
  // Avg, Max and Min from the right; the name (word 1) must remain.
  static const char *const Columns[] = {"Avg", "Max", "Min"};
  size_t End = W.size();
  for (size_t K = 0; K < 3; ++K) {
    if (End <= 2) {
      Why = "metric " + R.Metric +
            ": the row ends before its Min, Max and Avg (truncated row?)";
      return std::nullopt;
    }
    std::string Value(W[End - 1]);
    size_t Used = 1;
    if (End >= 4 && isLevelNumber(W[End - 1]) && isLevelName(W[End - 2])) {
      Value = std::string(W[End - 2]) + " " + Value;
      Used = 2;
    }
    std::optional<double> V = nvprof::parseValue(Value);
    if (!V) {
      Why = "metric " + R.Metric + ": " + Columns[K] + " \"" + Value +
            "\" is not a number";
      if (K > 0)
        Why += " (a row ends in Min, Max and Avg; truncated row?)";
      return std::nullopt;
    }
    if (K == 0)
      R.Avg = *V;
    End -= Used;
  }
  return R;
}

class TextImporter {
public:
  explicit TextImporter(const std::string &Name) : Name(Name) {}

  ImportResult run(const std::string &Text) {
    std::vector<csv::Line> Lines = csv::splitLines(Text);
    bool Blank = true;
    for (const csv::Line &L : Lines)
      Blank = Blank && csv::trim(L.Text).empty();
    if (Blank)
      return error(0, "empty file");
    M.Tool = "nvprof-text";
    for (size_t I = 0; I < Lines.size(); ++I)
      if (!line(Lines, I))
        return Failure{Problem};
    if (!endKernel())
      return Failure{Problem};
    if (!M.Launches.empty())
      return std::move(M);
    if (MetricHeader)
      return error(MetricHeader,
                   "a header but no metric rows follow (truncated file?)");
    if (EventHeader)
      return error(EventHeader,
                   "an nvprof event table (\"Event Name\") and no metric "
                   "table: gmem compares metrics; profile with nvprof "
                   "--metrics");
    return error(0, "no nvprof metric table header (\"Invocations   Metric "
                    "Name   Metric Description   Min   Max   Avg\"): not an "
                    "nvprof --metrics log");
  }

private:
  enum class State { Outside, Metrics, Events };

  const std::string &Name;
  Measurement M;
  std::map<std::string, size_t> LaunchOfKernel;
  State S = State::Outside;
  unsigned MetricHeader = 0, EventHeader = 0; ///< First of each, or 0.
  std::string Kernel;      ///< The current "Kernel:" of a metric table.
  unsigned KernelLine = 0; ///< Its line, while no row has followed it.
  std::string Problem;

  Failure error(unsigned Line, const std::string &What) const {
    return Failure{Name + (Line ? ":" + std::to_string(Line) : "") + ": " +
                   What};
  }

  bool fail(unsigned Line, const std::string &What) {
    Problem = error(Line, What).Message;
    return false;
  }

  /// A kernel of a metric table ends: it must have had a row.
  bool endKernel() {
    if (KernelLine)
      return fail(KernelLine,
                  "kernel " + Kernel + " has no metric rows (truncated file?)");
    Kernel.clear();
    return true;
  }

  bool line(const std::vector<csv::Line> &Lines, size_t &I) {
    const csv::Line &L = Lines[I];
    std::string_view T = csv::trim(L.Text);
    switch (nvprof::textHeader(L.Text)) {
    case nvprof::TextHeader::Metric:
      if (!endKernel())
        return false;
      S = State::Metrics;
      if (!MetricHeader)
        MetricHeader = L.Number;
      return true;
    case nvprof::TextHeader::Event:
      if (!endKernel())
        return false;
      S = State::Events;
      if (!EventHeader)
        EventHeader = L.Number;
      return true;
    case nvprof::TextHeader::None:
      break;
    }
    if (S == State::Outside) {
      if (nvprof::isWrappedTextHeader(Lines, I))
        return wrapped(Lines, I);
      return true;
    }
    if (T.empty() || startsWith(T, "==")) {
      bool Ok = S != State::Metrics || endKernel();
      S = State::Outside;
      return Ok;
    }
    if (startsWith(T, "Device \""))
      return device(L);
    if (startsWith(T, "Kernel:"))
      return S != State::Metrics || kernel(L);
    std::vector<std::string_view> W = words(T);
    if (!isCount(W[0])) {
      // Not a row: the table ended (a shell prompt, program output).
      bool Ok = S != State::Metrics || endKernel();
      S = State::Outside;
      return Ok;
    }
    if (S == State::Events)
      return true;
    if (Kernel.empty())
      return fail(L.Number, "a metric row before any \"Kernel:\" line");
    std::string Why;
    std::optional<Row> R = parseRow(T, Why);
    if (!R)
      return fail(L.Number, Why);
    add(*R, L.Number);
    return true;
  }

  void add(const Row &R, unsigned Line) {
    KernelLine = 0;
    auto [It, New] = LaunchOfKernel.try_emplace(Kernel, M.Launches.size());
    if (New)
      M.Launches.push_back(
          nvprof::launchFor(Kernel, unsigned(M.Launches.size())));
    nvprof::addMetric(M, It->second, R.Metric, R.Avg, Line);
  }

  bool device(const csv::Line &L) {
    if (S == State::Metrics && !endKernel())
      return false;
    std::string_view Field = csv::trim(L.Text).substr(8);
    if (Field.empty() || Field.back() != '"')
      return fail(L.Number, "a Device line without its closing quote");
    if (S == State::Metrics && M.Device.empty()) {
      M.Device = nvprof::deviceName(Field.substr(0, Field.size() - 1));
      M.ComputeCapability = nvprof::computeCapability(M.Device);
    }
    return true;
  }

  bool kernel(const csv::Line &L) {
    if (!endKernel())
      return false;
    Kernel = std::string(csv::trim(csv::trim(L.Text).substr(7)));
    if (Kernel.empty())
      return fail(L.Number, "a \"Kernel:\" line without a kernel name");
    KernelLine = L.Number;
    return true;
  }

  /// A table copied from a terminal too narrow for it: every column of the
  /// header and of each row on a line of its own, at the column nvprof
  /// printed it (seed 002). A row's pieces stand at increasing columns, so
  /// one at or left of the previous piece starts the next row; a row is
  /// the metric's name (which may have lost its underscores), description,
  /// Min, Max and Avg, after an invocation count that the copy may have
  /// moved after the row or dropped. Text at the first column ends the
  /// table. I is left on its last line.
  bool wrapped(const std::vector<csv::Line> &Lines, size_t &I) {
    static const char *const Header[] = {"Invocations", "Metric Name",
                                         "Metric Description", "Min",
                                         "Max", "Avg"};
    size_t J = I;
    for (const char *H : Header) {
      while (J < Lines.size() && csv::trim(Lines[J].Text).empty())
        ++J;
      if (J == Lines.size() || csv::trim(Lines[J].Text) != H)
        return fail(Lines[std::min(J, Lines.size() - 1)].Number,
                    std::string("a wrapped table header without its \"") +
                        H +
                        "\" line (expected Invocations, Metric Name, Metric "
                        "Description, Min, Max and Avg, a line each)");
      ++J;
    }
    S = State::Metrics;
    if (!MetricHeader)
      MetricHeader = Lines[I].Number;
    struct Piece {
      std::string_view Text;
      size_t Column;
      unsigned Line;
    };
    std::vector<Piece> Pieces;
    auto Flush = [&]() {
      std::vector<Piece> P;
      P.swap(Pieces);
      if (P.empty() || (P.size() == 1 && isCount(P[0].Text)))
        return true; // A count the copy put after its row.
      if (isCount(P[0].Text) && P.size() == 6)
        P.erase(P.begin());
      if (P.size() != 5)
        return fail(P[0].Line,
                    "a wrapped row of " + std::to_string(P.size()) +
                        " lines; expected the metric's name, description, "
                        "Min, Max and Avg, a line each");
      if (Kernel.empty())
        return fail(P[0].Line, "a metric row before any \"Kernel:\" line");
      Row R;
      R.Metric = std::string(P[0].Text);
      static const char *const Columns[] = {"Min", "Max", "Avg"};
      for (size_t K = 0; K < 3; ++K) {
        std::optional<double> V = nvprof::parseValue(P[2 + K].Text);
        if (!V)
          return fail(P[2 + K].Line, "metric " + R.Metric + ": " +
                                         Columns[K] + " \"" +
                                         std::string(P[2 + K].Text) +
                                         "\" is not a number");
        R.Avg = *V;
      }
      add(R, P[0].Line);
      return true;
    };
    for (; J < Lines.size(); ++J) {
      const csv::Line &L = Lines[J];
      std::string_view T = csv::trim(L.Text);
      const size_t Column = L.Text.find_first_not_of(" \t");
      if (T.empty() || startsWith(T, "==") ||
          (Column == 0 && !startsWith(T, "Device \"") && !isCount(T)))
        break;
      if (startsWith(T, "Device \"") || startsWith(T, "Kernel:")) {
        if (!Flush() || !(T[0] == 'D' ? device(L) : kernel(L)))
          return false;
        continue;
      }
      if (!Pieces.empty() && Column <= Pieces.back().Column && !Flush())
        return false;
      Pieces.push_back({T, Column, L.Number});
    }
    if (!Flush() || !endKernel())
      return false;
    S = State::Outside;
    I = J - 1;
    return true;
  }
};

} // namespace

namespace nvprof {

TextHeader textHeader(std::string_view Line) {
  Line = csv::trim(Line);
  std::string_view First = "Invocations";
  if (!startsWith(Line, First) || Line.size() == First.size() ||
      !isSpace(Line[First.size()]))
    return TextHeader::None;
  Line = csv::trim(Line.substr(First.size()));
  if (startsWith(Line, "Metric Name"))
    return TextHeader::Metric;
  if (startsWith(Line, "Event Name"))
    return TextHeader::Event;
  return TextHeader::None;
}

bool isWrappedTextHeader(const std::vector<csv::Line> &Lines, size_t I) {
  if (I >= Lines.size() || csv::trim(Lines[I].Text) != "Invocations")
    return false;
  for (size_t J = I + 1; J < Lines.size(); ++J) {
    std::string_view Next = csv::trim(Lines[J].Text);
    if (Next.empty())
      continue;
    return Next == "Metric Name" || Next == "Event Name";
  }
  return false;
}

} // namespace nvprof

ImportResult parseNvprofText(const std::string &Text, const std::string &Name) {
  return TextImporter(Name).run(Text);
}

} // namespace gmem
