// The tools' one CSV reader (support/csv): quoting, empty fields, line
// breaks, and bad input refused with the line and column where it fails.
#include <gtest/gtest.h>

#include "collectivize/csv.h"

using namespace cz::csv;

static std::vector<std::string> split(const std::string &line) {
  std::vector<std::string> f;
  CsvError err;
  EXPECT_TRUE(splitLine(line, 1, f, err)) << err.describe();
  return f;
}

TEST(Csv, PlainFields) {
  EXPECT_EQ(split("a,b,c"), (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(split("one"), (std::vector<std::string>{"one"}));
}

TEST(Csv, EmptyFieldsAreKept) {
  EXPECT_EQ(split(""), (std::vector<std::string>{""}));
  EXPECT_EQ(split(","), (std::vector<std::string>{"", ""}));
  EXPECT_EQ(split("a,,b,"), (std::vector<std::string>{"a", "", "b", ""}));
  EXPECT_EQ(split("\"\",x"), (std::vector<std::string>{"", "x"}));
}

TEST(Csv, QuotedFieldsHoldCommasAndQuotes) {
  EXPECT_EQ(split("a,\"b,\"\"c\"\"\",,d"), (std::vector<std::string>{"a", "b,\"c\"", "", "d"}));
  EXPECT_EQ(split("\"\"\"\""), (std::vector<std::string>{"\""}));
  EXPECT_EQ(split("\"x\""), (std::vector<std::string>{"x"}));
}

TEST(Csv, QuoteRoundTrips) {
  for (std::string field : {"plain", "", "a,b", "say \"hi\"", "\"", ",,"}) {
    std::vector<std::string> back = split(quote(field) + "," + quote(field));
    ASSERT_EQ(back.size(), 2u) << field;
    EXPECT_EQ(back[0], field);
    EXPECT_EQ(back[1], field);
  }
  EXPECT_EQ(quote("plain"), "plain");
  // A record is one line: a line break in a field becomes a space.
  EXPECT_EQ(split(quote("two\nlines")), (std::vector<std::string>{"two lines"}));
}

static CsvError failure(const std::string &line) {
  std::vector<std::string> f{"left over"};
  CsvError err;
  EXPECT_FALSE(splitLine(line, 7, f, err)) << line;
  EXPECT_TRUE(f.empty());
  return err;
}

TEST(Csv, UnclosedQuoteNamesWhereItOpened) {
  CsvError e = failure("a,\"b,c");
  EXPECT_EQ(e.line, 7u);
  EXPECT_EQ(e.column, 3u);
  EXPECT_EQ(e.describe(), "line 7, column 3: a quoted field is not closed");
}

TEST(Csv, TextAfterClosingQuoteIsAnError) {
  CsvError e = failure("\"ab\"c,d");
  EXPECT_EQ(e.column, 5u);
  EXPECT_NE(e.message.find("after a closing quote"), std::string::npos);
}

TEST(Csv, QuoteInsideUnquotedFieldIsAnError) {
  CsvError e = failure("abc,de\"f\"");
  EXPECT_EQ(e.column, 7u);
  EXPECT_NE(e.message.find("quote inside a field"), std::string::npos);
}

TEST(Csv, ReadLinesSkipsEmptyLinesAndKeepsNumbers) {
  std::vector<CsvLine> lines = readLines("h1,h2\r\n\r\n1,2\n\n\"x\n3,4");
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines[0].number, 1u);
  EXPECT_EQ(lines[0].fields, (std::vector<std::string>{"h1", "h2"}));
  EXPECT_EQ(lines[1].number, 3u);
  EXPECT_EQ(lines[1].fields, (std::vector<std::string>{"1", "2"}));
  EXPECT_FALSE(lines[2].ok); // one bad line does not hide the next
  EXPECT_EQ(lines[2].number, 5u);
  EXPECT_EQ(lines[2].text, "\"x");
  EXPECT_EQ(lines[2].error.describe(), "line 5, column 1: a quoted field is not closed");
  EXPECT_TRUE(lines[3].ok);
  EXPECT_EQ(lines[3].number, 6u);
  EXPECT_TRUE(readLines("").empty());
  EXPECT_TRUE(readLines("\n\r\n").empty());
}

TEST(Csv, HeaderCheck) {
  EXPECT_TRUE(startsWith({"a", "b", "c"}, {"a", "b"}));
  EXPECT_TRUE(startsWith({"a", "b"}, {"a", "b"}));
  EXPECT_FALSE(startsWith({"a"}, {"a", "b"}));
  EXPECT_FALSE(startsWith({"a", "x"}, {"a", "b"}));
}
