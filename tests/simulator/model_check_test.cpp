//===- model_check_test.cpp - Model files that break an invariant ---------===//
//
// Each case takes a valid model, breaks one thing in its JSON form, and
// checks that reading it fails with a message naming the JSON path and what
// is wrong (the simulator must never see such a model).
//
//===----------------------------------------------------------------------===//
#include "build_model.h"
#include "model_check.h"
#include "model_json.h"

#include <fstream>
#include <gtest/gtest.h>

using namespace gmem;
using namespace gmem::test;
using nlohmann::json;

namespace {

/// out[i] = in[i] over a shared tile, in a loop: every kind of reference.
json validModel() {
  Module M;
  M.File = "t.cu";
  Kernel K;
  K.Name = "k";
  K.Params = {pointerParam("in", 4), intParam("n")};
  K.Slots = {{"i", I32}};
  SharedArray S;
  S.Name = "tile";
  S.Bytes = 128;
  S.Dims = {32};
  K.Shared.push_back(S);
  auto I = makeVar(0, I32);
  Stmt Load =
      addAccess(K, Space::Global, AccessKind::Load, 4, elem(0, I, 4), "in[i]");
  Stmt Store = addAccess(K, Space::Shared, AccessKind::Store, 4,
                         mul(cast(tx(), U64), c(4, U64)), "tile[tx]", 0);
  K.Body = {assign(0, cast(tx(), I32)),
            loop(bin(Op::Lt, I, makeParam(1, I32)), {Load, Store},
                 {assign(0, add(I, c(32)))})};
  M.Kernels.push_back(K);
  Launch L;
  L.Kernel = "k";
  L.Block = {32, 1, 1};
  L.Args = {ptrArg("in"), intArg(64)};
  M.Launches.push_back(L);
  return toJson(M);
}

/// The message fromJson gives for J (empty when it reads).
std::string readError(const json &J) {
  Expected<Module> M = fromJson(J);
  return M ? "" : M.error();
}

/// validModel() with the value at Pointer replaced by V.
std::string errorWith(const char *Pointer, json V) {
  json J = validModel();
  J[json::json_pointer(Pointer)] = std::move(V);
  return readError(J);
}

#define EXPECT_HAS(Text, Part)                                                 \
  EXPECT_NE(std::string(Text).find(Part), std::string::npos) << (Text)

TEST(ModelCheck, ValidModelReads) { EXPECT_EQ(readError(validModel()), ""); }

TEST(ModelCheck, WrongSchemaVersion) {
  // Schema 4 added loaded values' addresses (model.h); 3 and 5 are refused.
  std::string E = errorWith("/schema", 5);
  EXPECT_HAS(E, "schema 5 is not supported (this gmem reads schema 4)");
  EXPECT_HAS(errorWith("/schema", 3),
             "schema 3 is not supported (this gmem reads schema 4)");
  EXPECT_HAS(errorWith("/schema", "3"),
             "schema: expected an integer, found string");
}

TEST(ModelCheck, AsyncCopiesReductionsAndSelectedLoads) {
  // in[i] (access 0) and tile[tx] (access 1) as an async copy read back.
  json J = validModel();
  J["kernels"][0]["accesses"][0]["async_partner"] = 1;
  J["kernels"][0]["accesses"][1]["async_partner"] = 0;
  EXPECT_EQ(readError(J), "");
  // A partner that does not name this access back, or of the same space.
  J["kernels"][0]["accesses"][1]["async_partner"] = 1;
  EXPECT_HAS(readError(J), "accesses[0]: async copy partner 1 is not a "
                           "shared store (or global load) of the same size");
  EXPECT_HAS(errorWith("/kernels/0/accesses/0/async_partner", 7),
             "async copy partner 7");
  EXPECT_HAS(errorWith("/kernels/0/accesses/0/reduction", true),
             "accesses[0]: a reduction must be an atomic");
  json S = validModel();
  S["kernels"][0]["accesses"][0]["compiled"] = {{"state", "selected"},
                                                {"leader", 9}};
  EXPECT_HAS(readError(S), "accesses[0]: selected by access 9");
  S["kernels"][0]["accesses"][0]["compiled"] = {{"state", "as_written"},
                                                {"one_lane", true}};
  EXPECT_HAS(readError(S), "one elected lane issues only atomics");
}

TEST(ModelCheck, WrongTypesAreNamedByPath) {
  EXPECT_HAS(errorWith("/kernels/0/accesses/0/size", "4"),
             "kernels[0].accesses[0].size: expected an integer, found string");
  EXPECT_HAS(errorWith("/kernels/0/name", 7),
             "kernels[0].name: expected a string, found number");
  EXPECT_HAS(errorWith("/kernels/0/body/1/test_first", 1),
             "kernels[0].body[1].test_first: expected true or false");
  EXPECT_HAS(errorWith("/kernels/0/slots/0/type", "i33"),
             "kernels[0].slots[0].type: unknown integer type \"i33\"");
  EXPECT_HAS(errorWith("/kernels/0/body/0/kind", "goto"),
             "kernels[0].body[0].kind: unknown value \"goto\" (one of assign");
  EXPECT_HAS(errorWith("/launches/0/grid", json::array({1, 1})),
             "launches[0].grid: expected an array of 3 integers");
  EXPECT_HAS(errorWith("/launches/0/grid/0", -1),
             "launches[0].grid[0]: integer out of range (0 to");
  EXPECT_HAS(errorWith("/kernels", json::object()),
             "kernels: expected an array, found object");
  EXPECT_HAS(readError(json::array()),
             "top level: expected an object, found array");
}

TEST(ModelCheck, MessagesStayOneLine) {
  std::string E = errorWith("/kernels/0/body/0/kind", "a\nb\xff");
  EXPECT_HAS(E, "unknown value \"a\\nb\xEF\xBF\xBD\"");
  EXPECT_EQ(E.find('\n'), std::string::npos);
}

TEST(ModelCheck, MissingFields) {
  json J = validModel();
  J["kernels"][0]["accesses"][0].erase("address");
  EXPECT_HAS(readError(J), "kernels[0].accesses[0].address: missing");
  J = validModel();
  J["kernels"][0]["body"][1].erase("cond");
  EXPECT_HAS(readError(J), "kernels[0].body[1].cond: missing");
}

TEST(ModelCheck, DanglingIndices) {
  // The loop condition compares with parameter 1 of 2; make it 5.
  EXPECT_HAS(errorWith("/kernels/0/body/1/cond/ops/1/index", 5),
             "kernels[0].body[1].cond.ops[1]: parameter index 5 is out of "
             "range (the kernel has 2 parameters)");
  EXPECT_HAS(errorWith("/kernels/0/body/0/slot", 1),
             "kernels[0].body[0]: slot index 1 is out of range (the kernel "
             "has 1 slot)");
  EXPECT_HAS(errorWith("/kernels/0/body/1/body/1/access", 2),
             "kernels[0].body[1].body[1]: access index 2 is out of range "
             "(the kernel has 2 accesses)");
  EXPECT_HAS(errorWith("/kernels/0/body/1/body/0/access", -1),
             "access index -1 is out of range");
  EXPECT_HAS(errorWith("/kernels/0/accesses/1/shared_array", 1),
             "kernels[0].accesses[1]: shared array index 1 is out of range "
             "(the kernel has 1 shared array)");
  // Var 0 of the address i of in[i]: slot 3 does not exist.
  EXPECT_HAS(
      errorWith("/kernels/0/accesses/0/address/ops/1/ops/0/ops/0/index", 3),
      "slot index 3 is out of range");
  // Built-ins are threadIdx.x .. warpSize: 13 of them.
  EXPECT_HAS(errorWith("/kernels/0/body/0/value/ops/0/index", 13),
             "built-in index 13 is out of range (there are 13 built-ins)");
}

TEST(ModelCheck, OperandCountsAndSizes) {
  json J = validModel();
  J["kernels"][0]["body"][1]["cond"]["ops"].erase(1);
  EXPECT_HAS(readError(J), "kernels[0].body[1].cond: operator takes 2 "
                           "operands, has 1");
  J = validModel();
  J["kernels"][0]["body"][0]["value"]["ops"] = json::array();
  EXPECT_HAS(readError(J), "operator takes 1 operand, has 0");
  EXPECT_HAS(errorWith("/kernels/0/accesses/0/size", 3),
             "kernels[0].accesses[0]: size 3 is not 1, 2, 4, 8 or 16 bytes");
  EXPECT_HAS(errorWith("/kernels/0/body/1/step/0/value/ops/1/value",
                       int64_t(5000000000)),
             "kernels[0].body[1].step[0].value.ops[1]: constant 5000000000 "
             "does not fit its type");
  EXPECT_HAS(errorWith("/kernels/0/body/1/cond/pointer_arith", true),
             "kernels[0].body[1].cond: pointer arithmetic must be an add, "
             "subtract or multiply of type u64");
  EXPECT_HAS(errorWith("/kernels/0/accesses/0/address/pointer_arith", 1),
             "kernels[0].accesses[0].address.pointer_arith");
  EXPECT_HAS(errorWith("/kernels/0/accesses/1/id", 0),
             "kernels[0].accesses[1]: id 0 differs from its position 1");
  EXPECT_HAS(errorWith("/kernels/0/shared/0/bytes", uint64_t(1) << 40),
             "kernels[0].shared[0]: offset 0 or size 1099511627776 is "
             "beyond any GPU's shared memory");
}

TEST(ModelCheck, NestingIsBounded) {
  // A chain of negations deeper than the evaluator may recurse.
  json E = {{"op", "const"}, {"type", "i32"}, {"value", 0}};
  for (unsigned I = 0; I < MaxExprDepth + 5; ++I)
    E = {{"op", "neg"}, {"type", "i32"}, {"ops", json::array({E})}};
  std::string Err = errorWith("/kernels/0/body/0/value", E);
  EXPECT_HAS(Err, "expression nested deeper than 1000 levels");
  json S = json::array();
  for (unsigned I = 0; I < MaxStmtDepth + 5; ++I)
    S = json::array({{{"kind", "call"}, {"body", S}}});
  EXPECT_HAS(errorWith("/kernels/0/body", S),
             "statements nested deeper than 200 levels");
}

TEST(ModelCheck, CheckKernelOnModelsBuiltInMemory) {
  Kernel K;
  K.Name = "k";
  Stmt A = accessStmt(0);
  K.Body = {A};
  auto Broken = [](const Kernel &K) {
    Expected<void> Valid = checkKernel(K);
    return Valid ? "" : Valid.error();
  };
  EXPECT_EQ(Broken(K), "body[0]: access index 0 is out of range (the "
                       "kernel has 0 accesses)");
  addAccess(K, Space::Global, AccessKind::Load, 4, nullptr, "x");
  EXPECT_EQ(Broken(K), "accesses[0]: has no address");
  K.Accesses[0].Address = makeConst(0, U64);
  EXPECT_TRUE(checkKernel(K));
}

std::string writeTemp(const std::string &Name, const std::string &Text) {
  std::string Path = ::testing::TempDir() + "/" + Name;
  std::ofstream(Path, std::ios::binary) << Text;
  return Path;
}

std::string fileError(const std::string &Name, const std::string &Text) {
  Expected<Module> M = readModelFile(writeTemp(Name, Text));
  return M ? "" : M.error();
}

TEST(ModelFile, TruncatedFileNamesLineAndColumn) {
  std::string Text = validModel().dump(2);
  std::string Cut = Text.substr(0, Text.size() / 2);
  size_t Lines = std::count(Cut.begin(), Cut.end(), '\n') + 1;
  std::string E = fileError("cut.json", Cut);
  EXPECT_HAS(E, "cut.json:" + std::to_string(Lines) + ":");
  EXPECT_HAS(E, "not valid JSON");
  EXPECT_HAS(E, "the file looks truncated");
  EXPECT_HAS(E, "regenerate it with gmem-analyze FILE.cu --emit-model");
  EXPECT_EQ(E.find('\n'), std::string::npos);
}

TEST(ModelFile, EmptyGarbageAndMissingFiles) {
  EXPECT_HAS(fileError("empty.json", " \n"),
             "empty.json: empty file, not a kernel model");
  std::string E = fileError("bin.json", std::string("\x7f"
                                                    "ELF\0\x01\xff",
                                                    7));
  EXPECT_HAS(E, "bin.json:1:1: not valid JSON (syntax error");
  E = fileError("second.json", "{\"schema\": 1,\n \"kernels\": [,]}");
  EXPECT_HAS(E, "second.json:2:14: not valid JSON");
  Expected<Module> Missing =
      readModelFile(::testing::TempDir() + "/no/such.json");
  ASSERT_FALSE(Missing);
  EXPECT_HAS(Missing.error(), "no/such.json: cannot read the file");
  EXPECT_HAS(fileError("v5.json", "{\"schema\": 5}"),
             "v5.json: kernel model schema 5 is not supported");
}

} // namespace
