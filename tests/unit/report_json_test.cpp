// The report's JSON reader and writer: exact 64-bit ids, escapes, errors
// that say where, and output that cannot end the page's <script> element.
#include <gtest/gtest.h>

#include "collectivize/json.h"

using cz::json::Json;
using cz::json::parseJson;

TEST(ReportJson, ReadsNestedValuesAndKeepsNumberText) {
  Json j;
  std::string err;
  ASSERT_TRUE(parseJson(R"({"id": 18446744073709551615, "a": [1, 2.5, -3e2, true, null],
                           "s": "x\"y\\z\u00e9\ud83d\ude00", "o": {}})", j, err)) << err;
  EXPECT_EQ(j["id"].text(), "18446744073709551615");
  EXPECT_EQ(j["a"].size(), 5u);
  EXPECT_DOUBLE_EQ(j["a"].items()[1].num(), 2.5);
  EXPECT_DOUBLE_EQ(j["a"].items()[2].num(), -300);
  EXPECT_TRUE(j["a"].items()[3].flag());
  EXPECT_TRUE(j["a"].items()[4].isNull());
  EXPECT_EQ(j["s"].str(), "x\"y\\z\xc3\xa9\xf0\x9f\x98\x80");
  EXPECT_TRUE(j["o"].isObject());
  EXPECT_TRUE(j["missing"]["deeper"].isNull()); // absent keys read as null, never crash
  EXPECT_EQ(j["a"].str(), "");                  // wrong type: the fallback
}

TEST(ReportJson, ErrorsSayLineAndColumn) {
  Json j;
  std::string err;
  EXPECT_FALSE(parseJson("{\n  \"a\": 1,\n  \"b\" 2}", j, err));
  EXPECT_EQ(err, "line 3, column 7: expected ':'");
  EXPECT_FALSE(parseJson("[1, 2", j, err));
  EXPECT_NE(err.find("expected ',' or ']'"), std::string::npos) << err;
  EXPECT_FALSE(parseJson("{\"a\": \"unterminated", j, err));
  EXPECT_NE(err.find("unterminated string"), std::string::npos) << err;
  EXPECT_FALSE(parseJson("{} trailing", j, err));
  EXPECT_NE(err.find("after the JSON value"), std::string::npos) << err;
  EXPECT_FALSE(parseJson(std::string(500, '['), j, err));
  EXPECT_NE(err.find("nested too deeply"), std::string::npos) << err;
}

TEST(ReportJson, WritesHtmlSafeText) {
  Json o = Json::object();
  o.set("t", Json::string("</script><b>&\n"));
  o.set("n", Json::number(0.5));
  o.set("i", Json::number(42));
  const std::string out = o.dump();
  EXPECT_EQ(out, R"({"t":"\u003c/script\u003e\u003cb\u003e\u0026\n","n":0.5,"i":42})");
  Json back;
  std::string err;
  ASSERT_TRUE(parseJson(out, back, err)) << err;
  EXPECT_EQ(back["t"].str(), "</script><b>&\n");
}

// The detection report's layout (detector/analysis/src/report.cpp): chosen
// containers one member per line, everything else on one line, and strings
// with JSON's escapes only ("<derived datatype>" stays readable).
TEST(ReportJson, ReadableLayoutExpandsOnlyWhatItIsAskedTo) {
  Json doc = Json::object();
  doc.set("name", Json::string("<derived datatype> & \"x\"\n"));
  Json &stats = doc.set("stats", Json::object());
  stats.set("n", Json::numberText("3"));
  stats.set("inner", Json::object()).set("deep", Json::array()).push(Json::boolean(true));
  doc.set("empty", Json::array());
  Json &list = doc.set("list", Json::array());
  list.push(Json::object()).set("a", Json());
  list.push(Json::object()).set("b", Json::array()).push(Json::numberText("1"));
  const std::string out = doc.dumpReadable([](int depth, const std::string &key) {
    return depth == 0 || (depth == 1 && key == "list") || depth == 2;
  });
  EXPECT_EQ(out, "{\n"
                 "  \"name\": \"<derived datatype> & \\\"x\\\"\\n\",\n"
                 "  \"stats\": {\"n\": 3, \"inner\": {\"deep\": [true]}},\n"
                 "  \"empty\": [],\n"
                 "  \"list\": [\n"
                 "    {\n"
                 "      \"a\": null\n"
                 "    },\n"
                 "    {\n"
                 "      \"b\": [1]\n"
                 "    }\n"
                 "  ]\n"
                 "}");
  // Nothing expanded: one line; the compact form keeps its HTML escapes.
  EXPECT_EQ(doc["stats"].dumpReadable(nullptr), "{\"n\": 3, \"inner\": {\"deep\": [true]}}");
  EXPECT_EQ(doc["name"].dump(), "\"\\u003cderived datatype\\u003e \\u0026 \\\"x\\\"\\n\"");
}
