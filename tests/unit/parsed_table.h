// parsed_table.h: czi_table_parse with the result, the message and cleanup
// in one object.
#pragma once

#include <string>

#include "registry.h"

namespace cztest {

struct ParsedTable {
  int rc = MPI_SUCCESS;
  std::string error;
  czi_table table{};

  explicit ParsedTable(const std::string &text, const char *source = "test.txt") {
    char err[1024] = "";
    rc = czi_table_parse(text.c_str(), source, &table, err, sizeof err);
    error = err;
  }
  ~ParsedTable() { czi_table_free(&table); }
  ParsedTable(const ParsedTable &) = delete;
  ParsedTable &operator=(const ParsedTable &) = delete;

  const czi_rule &rule(int i) const { return table.rules[i]; }
};

} // namespace cztest
