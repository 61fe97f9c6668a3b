// verbs_runtime.cpp: `collectivize algorithms` and `collectivize table`, thin
// front ends of the runtime's public selection API.
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "collectivize.h"
#include "collectivize/doc_path.h"
#include "verbs.h"

namespace cz::cli {
namespace {

bool parseCollective(const char *text, cz_collective &out) {
  for (int c = 0; c < CZ_COLL_COUNT; c++)
    if (std::strcmp(text, cz_collective_name(static_cast<cz_collective>(c))) == 0) {
      out = static_cast<cz_collective>(c);
      return true;
    }
  return false;
}

// "64", "4K", "1M": bytes with an optional power-of-1024 suffix.
bool parseBytes(const char *text, long long &out) {
  char *end = nullptr;
  errno = 0;
  long long v = std::strtoll(text, &end, 10);
  if (end == text || v < 0 || errno) return false;
  int shift = 0;
  if (*end == 'K' || *end == 'k') shift = 10, ++end;
  else if (*end == 'M' || *end == 'm') shift = 20, ++end;
  else if (*end == 'G' || *end == 'g') shift = 30, ++end;
  if (*end || v > (LLONG_MAX >> shift)) return false;
  out = v << shift;
  return true;
}

const char kTableUsageText[] =
    "usage: collectivize table check FILE\n"
    "       collectivize table which COLLECTIVE NPROCS BYTES\n\n"
    "check: parse a decision table and report the first problem.\n"
    "which: the algorithm cz_<COLLECTIVE> picks for NPROCS processes and BYTES\n"
    "       (per block for alltoall/allgather, whole message for bcast),\n"
    "       honouring COLLECTIVIZE_TUNING and COLLECTIVIZE_<COLL>_ALGORITHM.\n\n"
    "The format of a table is described in the built-in one,\n"
    "{doc:runtime/data/decision-table.txt}.\n";

// The text with the documents it cites where this installation has them.
const char *tableUsage() { return cz::docs::helpText(kTableUsageText); }

} // namespace

const char kAlgorithmsUsage[] =
    "usage: collectivize algorithms [COLLECTIVE]\n\n"
    "Lists the runtime's algorithms for each collective (or one: alltoall,\n"
    "allgather, bcast, alltoallv, allreduce), as cz_<coll>_algorithm() and\n"
    "COLLECTIVIZE_<COLL>_ALGORITHM name them; `name[:R]` takes a parameter\n"
    "(Bruck's radix). The decision table picks among them by process count and\n"
    "size (`collectivize table which ...`); `mpi` is the MPI library's own.\n";

int algorithmsVerb(int argc, char **argv) {
  bool help = argc > 0 && (std::strcmp(argv[0], "--help") == 0 || std::strcmp(argv[0], "-h") == 0);
  if (help || argc > 1) {
    std::fputs(kAlgorithmsUsage, help ? stdout : stderr);
    return help ? 0 : 2;
  }
  cz_collective only = CZ_COLL_COUNT;
  if (argc == 1 && !parseCollective(argv[0], only)) {
    std::fprintf(stderr,
                 "collectivize algorithms: unknown collective '%s' (valid: "
                 "alltoall allgather bcast alltoallv allreduce)\n",
                 argv[0]);
    return 2;
  }
  for (int c = 0; c < CZ_COLL_COUNT; c++) {
    if (only != CZ_COLL_COUNT && c != only) continue;
    auto coll = static_cast<cz_collective>(c);
    std::printf("%-10s %s\n", cz_collective_name(coll), cz_algorithm_names(coll));
  }
  return 0;
}

int tableVerb(int argc, char **argv) {
  for (int i = 0; i < argc; i++)
    if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0) {
      std::fputs(tableUsage(), stdout);
      return 0;
    }
  if (argc == 0) {
    std::fputs(tableUsage(), stderr);
    return 2;
  }
  std::string sub = argv[0];
  if (sub == "check" && argc == 2) {
    char message[1024] = "";
    if (cz_decision_table_check(argv[1], message, sizeof message) != MPI_SUCCESS) {
      std::fprintf(stderr, "collectivize table: %s\n", message);
      return 1;
    }
    std::printf("%s: ok\n", argv[1]);
    return 0;
  }
  if (sub == "which" && argc == 4) {
    cz_collective coll;
    if (!parseCollective(argv[1], coll)) {
      std::fprintf(stderr,
                   "collectivize table: unknown collective '%s' (valid: "
                   "alltoall allgather bcast alltoallv allreduce)\n",
                   argv[1]);
      return 2;
    }
    char *end = nullptr;
    long nprocs = std::strtol(argv[2], &end, 10);
    long long bytes = 0;
    if (*end || nprocs < 1 || nprocs > INT_MAX) {
      std::fprintf(stderr, "collectivize table: NPROCS must be a whole number >= 1 (got '%s')\n",
                   argv[2]);
      return 2;
    }
    if (!parseBytes(argv[3], bytes)) {
      std::fprintf(stderr, "collectivize table: BYTES must be like 64, 4K or 1M (got '%s')\n",
                   argv[3]);
      return 2;
    }
    char name[128];
    if (cz_selected_algorithm(coll, static_cast<int>(nprocs), bytes, name,
                              sizeof name) != MPI_SUCCESS) {
      std::fprintf(stderr, "collectivize table: %s\n", cz_last_error());
      return 1;
    }
    std::printf("%s\n", name);
    return 0;
  }
  std::fputs(tableUsage(), stderr);
  return 2;
}

} // namespace cz::cli
