//===- measured_json.cpp - Read gmem-verify's measured.json ---------------===//
//
// The schema is in measurement.h. Reading checks every field it uses and
// names the first one that is wrong by its JSON path, e.g.
// "measured.json: launches[2].block: expected 1 to 3 positive integers".
//
//===----------------------------------------------------------------------===//
#include "importers.h"

#include <nlohmann/json.hpp>

namespace gmem {

using nlohmann::json;

namespace {

/// Thrown inside the reader only; turned into a Failure at its edge.
struct SchemaError {
  std::string Path, What;
};

[[noreturn]] void fail(const std::string &Path, const std::string &What) {
  throw SchemaError{Path, What};
}

const json *field(const json &Obj, const char *Key) {
  auto It = Obj.find(Key);
  return It == Obj.end() || It->is_null() ? nullptr : &*It;
}

std::string child(const std::string &Path, const char *Key) {
  return Path.empty() ? Key : Path + "." + Key;
}

std::string getString(const json &Obj, const std::string &Path, const char *Key,
                      bool Required) {
  const json *V = field(Obj, Key);
  if (!V) {
    if (Required)
      fail(child(Path, Key), "missing");
    return "";
  }
  if (!V->is_string())
    fail(child(Path, Key), "expected a string");
  return V->get<std::string>();
}

uint64_t toUnsigned(const json &V, const std::string &Path) {
  if (V.is_number_unsigned())
    return V.get<uint64_t>();
  if (V.is_number_integer() && V.get<int64_t>() >= 0)
    return uint64_t(V.get<int64_t>());
  fail(Path, "expected a non-negative integer");
}

std::optional<uint64_t> getUnsigned(const json &Obj, const std::string &Path,
                                    const char *Key) {
  const json *V = field(Obj, Key);
  if (!V)
    return std::nullopt;
  return toUnsigned(*V, child(Path, Key));
}

std::array<uint64_t, 3> getDim3(const json &Obj, const std::string &Path,
                                const char *Key) {
  std::string P = child(Path, Key);
  const json *V = field(Obj, Key);
  if (!V)
    fail(P, "missing");
  if (!V->is_array() || V->empty() || V->size() > 3)
    fail(P, "expected an array of 1 to 3 positive integers");
  std::array<uint64_t, 3> Dims{1, 1, 1};
  for (size_t I = 0; I < V->size(); ++I) {
    Dims[I] = toUnsigned((*V)[I], P + "[" + std::to_string(I) + "]");
    if (Dims[I] == 0)
      fail(P + "[" + std::to_string(I) + "]", "a dimension must be positive");
  }
  return Dims;
}

MeasuredArg readArg(const json &A, const std::string &Path) {
  if (!A.is_object())
    fail(Path, "expected an object");
  MeasuredArg Arg;
  Arg.Type = getString(A, Path, "type", false);
  Arg.Size = unsigned(getUnsigned(A, Path, "size").value_or(0));
  if (const json *V = field(A, "value")) {
    if (!V->is_number_integer())
      fail(child(Path, "value"), "expected an integer");
    Arg.Value = V->is_number_unsigned() ? int64_t(V->get<uint64_t>())
                                        : V->get<int64_t>();
  }
  if (const json *V = field(A, "float")) {
    if (!V->is_number())
      fail(child(Path, "float"), "expected a number");
    Arg.FloatValue = V->get<double>();
  }
  Arg.AlignOffset = getUnsigned(A, Path, "align_offset");
  return Arg;
}

MeasuredLine readLine(const json &L, const std::string &Path) {
  if (!L.is_object())
    fail(Path, "expected an object");
  MeasuredLine Line;
  Line.File = getString(L, Path, "file", true);
  std::optional<uint64_t> Number = getUnsigned(L, Path, "line");
  if (!Number)
    fail(child(Path, "line"), "missing");
  Line.Line = unsigned(*Number);
  Line.InstExecuted = getUnsigned(L, Path, "inst_executed").value_or(0);
  Line.Sectors = getUnsigned(L, Path, "sectors").value_or(0);
  Line.SectorsIdeal = getUnsigned(L, Path, "sectors_ideal").value_or(0);
  Line.Wavefronts = getUnsigned(L, Path, "wavefronts").value_or(0);
  Line.WavefrontsIdeal = getUnsigned(L, Path, "wavefronts_ideal").value_or(0);
  return Line;
}

MeasuredLaunch readLaunch(const json &J, size_t Position,
                          const std::string &Path) {
  if (!J.is_object())
    fail(Path, "expected an object");
  MeasuredLaunch L;
  L.Index = unsigned(getUnsigned(J, Path, "index").value_or(Position));
  L.Kernel = getString(J, Path, "kernel", true);
  if (L.Kernel.empty())
    fail(child(Path, "kernel"), "empty kernel name");
  L.Demangled = getString(J, Path, "demangled", false);
  L.Mangled = getString(J, Path, "mangled", false);
  L.Grid = getDim3(J, Path, "grid");
  L.Block = getDim3(J, Path, "block");
  L.DynamicSmem = getUnsigned(J, Path, "dynamic_smem").value_or(0);
  if (const json *Args = field(J, "args")) {
    if (!Args->is_array())
      fail(child(Path, "args"), "expected an array");
    for (size_t I = 0; I < Args->size(); ++I)
      L.Args.push_back(readArg((*Args)[I], child(Path, "args") + "[" +
                                               std::to_string(I) + "]"));
  }
  const json *Metrics = field(J, "metrics");
  if (!Metrics)
    fail(child(Path, "metrics"), "missing");
  if (!Metrics->is_object())
    fail(child(Path, "metrics"), "expected an object of metric values");
  for (auto It = Metrics->begin(); It != Metrics->end(); ++It) {
    if (!It.value().is_number())
      fail(child(Path, "metrics") + "[\"" + It.key() + "\"]",
           "expected a number");
    L.Metrics[It.key()] = It.value().get<double>();
  }
  if (const json *Lines = field(J, "lines")) {
    if (!Lines->is_array())
      fail(child(Path, "lines"), "expected an array");
    for (size_t I = 0; I < Lines->size(); ++I)
      L.Lines.push_back(readLine((*Lines)[I], child(Path, "lines") + "[" +
                                                  std::to_string(I) + "]"));
  }
  return L;
}

Measurement readDocument(const json &Doc) {
  if (!Doc.is_object())
    fail("", "expected a JSON object at the top level");
  const json *Schema = field(Doc, "schema");
  if (!Schema)
    fail("", "no \"schema\" field: not a gmem-verify measured.json");
  if (!Schema->is_number_integer())
    fail("schema", "expected an integer");
  if (Schema->get<int64_t>() != MeasuredSchemaVersion)
    fail("schema", "version " + Schema->dump() +
                       " is not supported (this gmem reads version " +
                       std::to_string(MeasuredSchemaVersion) + ")");
  Measurement M;
  M.Tool = getString(Doc, "", "tool", false);
  if (M.Tool.empty())
    M.Tool = "gmem-verify";
  if (const json *Dev = field(Doc, "device")) {
    if (!Dev->is_object())
      fail("device", "expected an object");
    M.Device = getString(*Dev, "device", "name", false);
    M.ComputeCapability =
        getString(*Dev, "device", "compute_capability", false);
    M.DriverVersion = getString(*Dev, "device", "driver_version", false);
    M.CudaVersion = getString(*Dev, "device", "cuda_version", false);
  }
  M.Date = getString(Doc, "", "date", false);
  M.GraphLaunches = getUnsigned(Doc, "", "graph_launches").value_or(0);
  if (const json *Replay = field(Doc, "kernel_replay")) {
    if (!Replay->is_boolean())
      fail("kernel_replay", "expected true or false");
    M.KernelReplay = Replay->get<bool>();
  }
  if (const json *Program = field(Doc, "program")) {
    if (!Program->is_array())
      fail("program", "expected an array of strings");
    for (size_t I = 0; I < Program->size(); ++I) {
      if (!(*Program)[I].is_string())
        fail("program[" + std::to_string(I) + "]", "expected a string");
      M.Program.push_back((*Program)[I].get<std::string>());
    }
  }
  const json *Launches = field(Doc, "launches");
  if (!Launches)
    fail("launches", "missing");
  if (!Launches->is_array())
    fail("launches", "expected an array");
  for (size_t I = 0; I < Launches->size(); ++I) {
    M.Launches.push_back(
        readLaunch((*Launches)[I], I, "launches[" + std::to_string(I) + "]"));
    M.Launches.back().KernelReplay = M.KernelReplay;
  }
  return M;
}

/// "[json.exception.parse_error.101] parse error at line 3, ..." without
/// the bracketed tag, which means nothing to a user.
std::string parseErrorText(const char *What) {
  std::string S(What);
  if (!S.empty() && S[0] == '[') {
    size_t Close = S.find("] ");
    if (Close != std::string::npos)
      S = S.substr(Close + 2);
  }
  return S;
}

} // namespace

ImportResult parseMeasuredJson(const std::string &Text,
                               const std::string &Name) {
  if (Text.find_first_not_of(" \t\r\n") == std::string::npos)
    return Failure{Name + ": empty file"};
  json Doc;
  try {
    Doc = json::parse(Text);
  } catch (const json::exception &E) {
    return Failure{Name + ": not valid JSON: " + parseErrorText(E.what())};
  }
  try {
    return readDocument(Doc);
  } catch (const SchemaError &E) {
    return Failure{Name + ": " + (E.Path.empty() ? "" : E.Path + ": ") +
                   E.What};
  } catch (const json::exception &E) {
    // Numbers out of range and the like, which the checks above let by.
    return Failure{Name + ": " + parseErrorText(E.what())};
  }
}

} // namespace gmem
