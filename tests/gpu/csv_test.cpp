//===- csv_test.cpp - CSV fields and numbers as ncu and nvprof print them -===//
#include "csv.h"

#include <gtest/gtest.h>

using namespace gmem;

namespace {

TEST(CsvNumber, ReadsPlainGroupedAndPercentValues) {
  EXPECT_EQ(csv::parseNumber("524288"), 524288.0);
  // ncu's thousands separators.
  EXPECT_EQ(csv::parseNumber("67,116,800"), 67116800.0);
  EXPECT_EQ(csv::parseNumber("167,903,232"), 167903232.0);
  EXPECT_EQ(csv::parseNumber("12.50"), 12.5);
  EXPECT_EQ(csv::parseNumber("1,234.5"), 1234.5);
  // nvprof's percentages.
  EXPECT_EQ(csv::parseNumber("12.50%"), 12.5);
  EXPECT_EQ(csv::parseNumber("100.000000%"), 100.0);
  EXPECT_EQ(csv::parseNumber(" 16.000004 "), 16.000004);
  EXPECT_EQ(csv::parseNumber("-3.5e2"), -350.0);
  EXPECT_EQ(csv::parseNumber("1.5e+03"), 1500.0);
  EXPECT_EQ(csv::parseNumber(".5"), 0.5);
}

TEST(CsvNumber, RejectsWhatIsNotANumber) {
  for (const char *Bad :
       {"", " ", "abc", "nan", "inf", "0x10", "5 apples", "1.2.3", "12,50",
        "1234,567", "1,2345", ",123", "1,", "-", "%", "1e", "n/a"})
    EXPECT_EQ(csv::parseNumber(Bad), std::nullopt) << "\"" << Bad << "\"";
}

TEST(CsvDim3, ReadsNcuBlockAndGridSizes) {
  using D = std::array<uint64_t, 3>;
  EXPECT_EQ(csv::parseDim3("(32, 16, 1)"), (D{32, 16, 1}));
  EXPECT_EQ(csv::parseDim3("(1024, 1, 1)"), (D{1024, 1, 1}));
  EXPECT_EQ(csv::parseDim3("32,16"), (D{32, 16, 1}));
  EXPECT_EQ(csv::parseDim3("(256)"), (D{256, 1, 1}));
  for (const char *Bad : {"", "()", "(32, x, 1)", "(1, 2, 3, 4)", "(32,,1)",
                          "(-1, 1, 1)", "(32, 16, 1"})
    EXPECT_EQ(csv::parseDim3(Bad), std::nullopt) << "\"" << Bad << "\"";
}

TEST(CsvRecord, SplitsQuotedAndBareFields) {
  auto F = csv::splitRecord(
      "\"0\",\"naiveGmem(float *, float *, int, int)\",\"(32, 16, 1)\","
      "\"67,116,800\",1,4.000000,100.000000%,,\"say \"\"hi\"\"\"");
  ASSERT_TRUE(F) << F.error();
  ASSERT_EQ(F->size(), 9u);
  EXPECT_EQ((*F)[1], "naiveGmem(float *, float *, int, int)");
  EXPECT_EQ((*F)[2], "(32, 16, 1)");
  EXPECT_EQ((*F)[3], "67,116,800");
  EXPECT_EQ((*F)[4], "1");
  EXPECT_EQ((*F)[6], "100.000000%");
  EXPECT_EQ((*F)[7], "");
  EXPECT_EQ((*F)[8], "say \"hi\"");
}

TEST(CsvRecord, ReportsUnclosedQuotesAndJunk) {
  auto Open = csv::splitRecord("\"0\",\"(128,");
  ASSERT_FALSE(Open);
  EXPECT_EQ(Open.error(), "a quoted field is not closed (truncated line?)");
  auto Junk = csv::splitRecord("\"0\"x,\"1\"");
  ASSERT_FALSE(Junk);
  EXPECT_EQ(Junk.error(), "unexpected text after a quoted field");
}

TEST(CsvLines, NumbersLinesAndDropsCarriageReturnsAndBom) {
  auto Lines = csv::splitLines("\xEF\xBB\xBF\"ID\"\r\nsecond\n\nfourth");
  ASSERT_EQ(Lines.size(), 4u);
  EXPECT_EQ(Lines[0].Text, "\"ID\"");
  EXPECT_EQ(Lines[1].Text, "second");
  EXPECT_EQ(Lines[2].Text, "");
  EXPECT_EQ(Lines[3].Number, 4u);
  EXPECT_EQ(Lines[3].Text, "fourth");
}

} // namespace
