// Numbers in a detection report that verify reads back (the retrace): a
// value no integer type holds is an error naming the field, not a cast
// (a fuzz finding: "instances": 2.2e20 was undefined behaviour in
// retrace.cpp, stopped by UBSan).
#include <gtest/gtest.h>

#include <string>

#include "retrace.h"

namespace {

std::string reportWith(const std::string &match) {
  return R"({"format": "collectivize-detection", "version": 1, "ranks": 4, "matches": [)" + match +
         "]}";
}

TEST(VerifyReportFields, HugeOrFractionalNumbersAreErrorsNamingTheField) {
  using cz::verify::parseDetectionReport;
  cz::verify::TraceFindings out;
  std::string error;
  EXPECT_FALSE(parseDetectionReport(
      reportWith(R"({"kind": "bcast", "status": "confirmed", "instances": 2.18447e20, "ranks": [0, 1]})"),
      "r.json", out, error));
  EXPECT_NE(error.find("\"instances\""), std::string::npos) << error;
  error.clear();
  EXPECT_FALSE(parseDetectionReport(
      reportWith(R"({"kind": "bcast", "status": "confirmed", "instances": 1, "ranks": [0, 1.5]})"), "r.json",
      out, error));
  EXPECT_NE(error.find("\"ranks\""), std::string::npos) << error;
  error.clear();
  EXPECT_FALSE(parseDetectionReport(
      reportWith(R"({"kind": "bcast", "status": "confirmed", "root_world": -7, "ranks": [0, 1]})"), "r.json",
      out, error));
  EXPECT_NE(error.find("\"root_world\""), std::string::npos) << error;
}

TEST(VerifyReportFields, OrdinaryReportStillReads) {
  cz::verify::TraceFindings out;
  std::string error;
  ASSERT_TRUE(cz::verify::parseDetectionReport(
      reportWith(R"({"kind": "bcast", "status": "confirmed", "root_world": 2, "instances": 3, "ranks": [0, 1, 2]})"),
      "r.json", out, error))
      << error;
  ASSERT_EQ(out.matches.size(), 1u);
  EXPECT_EQ(out.matches[0].instances, 3);
  EXPECT_EQ(out.matches[0].rootWorld, 2);
  EXPECT_EQ(out.ranks, 4);
}

} // namespace
