// decision_table_fuzz.cpp: a decision table (runtime/src/decision/registry.h),
// as the runtime reads COLLECTIVIZE_TUNING's file inside users' programs
// and `collectivize table check` reads any file: what it accepts must write
// back and parse again to the same rules, and look-ups stay in the table.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "fuzz_support.h"
#include "registry.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string text(reinterpret_cast<const char *>(data), size);
  czi_table table;
  char err[512] = "";
  if (czi_table_parse(text.c_str(), "fuzz.txt", &table, err, sizeof err) != MPI_SUCCESS) {
    cz::fuzz::require(std::strncmp(err, "fuzz.txt:", 9) == 0, "an error that does not name the line");
    cz::fuzz::require(table.rules == nullptr && table.count == 0, "a refused table is not empty");
    return 0;
  }
  char *written = nullptr;
  size_t length = 0;
  FILE *out = open_memstream(&written, &length);
  cz::fuzz::require(out != nullptr, "open_memstream");
  czi_table_write(&table, out);
  std::fclose(out);
  czi_table again;
  int rc = czi_table_parse(written, "written", &again, err, sizeof err);
  if (rc != MPI_SUCCESS) std::fprintf(stderr, "%s\n%s", err, written);
  cz::fuzz::require(rc == MPI_SUCCESS, "the table's own output does not parse");
  cz::fuzz::require(again.count == table.count, "rules lost in a round trip");
  for (int i = 0; i < table.count; i++) {
    const czi_rule &a = table.rules[i], &b = again.rules[i];
    cz::fuzz::require(a.coll == b.coll && a.procs_lo == b.procs_lo && a.procs_hi == b.procs_hi &&
                          a.bytes_lo == b.bytes_lo && a.bytes_hi == b.bytes_hi && a.alg == b.alg &&
                          a.param == b.param,
                      "a rule changed in a round trip");
    const czi_rule *hit = czi_table_lookup(&table, a.coll, a.procs_lo, a.bytes_lo);
    cz::fuzz::require(hit != nullptr && hit - table.rules <= i, "a rule's own corner is not looked up");
  }
  std::free(written);
  czi_table_free(&again);
  czi_table_free(&table);
  return 0;
}
