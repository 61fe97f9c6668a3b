// csv.h: the one CSV reader and field writer of the tools: the files
// `collectivize bench` writes (bench.csv, hockney.csv), read back by
// `collectivize tune --from` and `collectivize report`. A record is one
// line: fields separated by ',', a field holding ',' or '"' is quoted and
// doubles its '"' (the writers never put a line break in a field).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace cz::csv {

// Where a line does not parse: line and column count from 1.
struct CsvError {
  size_t line = 0, column = 0;
  std::string message;
  // "line L, column C: message"
  std::string describe() const;
};

// One non-empty line of a CSV text, split into fields, or why it is not.
struct CsvLine {
  size_t number = 0;  // from 1, counting empty lines too
  std::string text;   // the line as written, without its line break
  std::vector<std::string> fields;
  bool ok = true;
  CsvError error;  // set when !ok; fields is then empty
};

// Splits one line into fields. A quote inside an unquoted field, text after
// a closing quote and a quote that is never closed are errors; lineNumber
// only goes into the error.
bool splitLine(const std::string &line, size_t lineNumber, std::vector<std::string> &fields,
               CsvError &error);

// Every non-empty line of text ("\n" or "\r\n" line breaks), in order, each
// parsed on its own: a reader can refuse the file at the first bad line or
// skip bad lines and count them.
std::vector<CsvLine> readLines(const std::string &text);

// True when the first fields are exactly `names` (a header check that
// tolerates columns added at the end).
bool startsWith(const std::vector<std::string> &fields, const std::vector<std::string> &names);

// A field as a CSV writer must put it: quoted when it holds ',', '"' or a
// line break (which becomes a space: a record is one line).
std::string quote(const std::string &field);

} // namespace cz::csv
