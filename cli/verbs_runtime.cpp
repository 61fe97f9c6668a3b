// verbs_runtime.cpp: `collectivize algorithms` and `collectivize table`, thin
// front ends of the runtime's public selection API.
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "collectivize.h"
#include "collectivize/doc_path.h"
#include "collectivize/verb_options.h"
#include "verbs.h"

namespace cz::cli {
namespace {

const char kCollectives[] = "alltoall allgather bcast alltoallv allreduce";

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
    "usage: collectivize algorithms [--long] [COLLECTIVE]\n\n"
    "Lists the runtime's algorithms for each collective (or one: alltoall,\n"
    "allgather, bcast, alltoallv, allreduce), as cz_<coll>_algorithm() and\n"
    "COLLECTIVIZE_<COLL>_ALGORITHM name them; `name[:R]` takes a parameter\n"
    "(Bruck's radix). The decision table picks among them by process count and\n"
    "size (`collectivize table which ...`); `mpi` is the MPI library's own.\n\n"
    "  --long, -l   one algorithm a line: what it does, its parameter's range\n"
    "               and default\n";

namespace {

// The registry's entries of one collective, in its order (cz_algorithm_info).
std::vector<cz_algorithm_desc> algorithmsOf(cz_collective coll) {
  std::vector<cz_algorithm_desc> out;
  cz_algorithm_desc a;
  for (int i = 0; cz_algorithm_info(coll, i, &a) == MPI_SUCCESS; i++) out.push_back(a);
  return out;
}

// "bruck[:R]" for an algorithm that takes a parameter, else its name.
std::string listedName(const cz_algorithm_desc &a) {
  return std::string(a.name) + (a.param_name ? "[:R]" : "");
}

void printAlgorithms(cz_collective coll, bool detailed) {
  std::vector<cz_algorithm_desc> algorithms = algorithmsOf(coll);
  if (!detailed) {
    std::string names;
    for (const cz_algorithm_desc &a : algorithms) names += (names.empty() ? "" : " ") + listedName(a);
    std::printf("%-10s %s\n", cz_collective_name(coll), names.c_str());
    return;
  }
  std::printf("%s\n", cz_collective_name(coll));
  for (const cz_algorithm_desc &a : algorithms) {
    std::string text = a.summary ? a.summary : "";
    if (a.param_name)
      text += " (R: " + std::string(a.param_name) + ", " + std::to_string(a.param_min) + ".." +
              std::to_string(a.param_max) + ", default " + std::to_string(a.param_default) + ")";
    std::printf("  %-20s %s\n", listedName(a).c_str(), text.c_str());
  }
}

} // namespace

int algorithmsVerb(int argc, char **argv) {
  cz::options::VerbParser parser("collectivize algorithms", kAlgorithmsUsage);
  std::vector<std::string> named;
  bool detailed = false;
  parser.app().add_flag("-l,--long", detailed);
  parser.app().add_option("COLLECTIVE", named);
  if (auto status = parser.parse(cz::options::argsOf(argc, argv))) return *status;
  if (named.size() > 1) return parser.usageError("one collective at a time (got '" + named[0] +
                                                 "' and '" + named[1] + "')");
  cz_collective only = CZ_COLL_COUNT;
  if (named.size() == 1 && !parseCollective(named[0].c_str(), only))
    return parser.usageError("unknown collective '" + named[0] + "' (valid: " + kCollectives + ")");
  for (int c = 0; c < CZ_COLL_COUNT; c++)
    if (only == CZ_COLL_COUNT || c == only) printAlgorithms(static_cast<cz_collective>(c), detailed);
  return 0;
}

int tableVerb(int argc, char **argv) {
  if (argc == 0) { // what there is to do, as for `collectivize` alone
    std::fputs(tableUsage(), stderr);
    return 2;
  }
  cz::options::VerbParser parser("collectivize table", tableUsage());
  CLI::App &app = parser.app();
  std::vector<std::string> files, query;
  CLI::App *check = app.add_subcommand("check");
  check->add_option("FILE", files);
  CLI::App *which = app.add_subcommand("which");
  which->add_option("COLLECTIVE NPROCS BYTES", query);
  if (auto status = parser.parse(cz::options::argsOf(argc, argv), true)) return *status;
  const std::vector<std::string> &rest = parser.unknown();
  if (app.get_subcommands().empty()) {
    if (rest.empty() || rest[0][0] == '-') return rest.empty() ? parser.usageError("check or which?")
                                                               : parser.unknownError();
    return parser.usageError("unknown subcommand '" + rest[0] + "'");
  }
  if (!rest.empty()) return parser.unknownError();
  if (app.got_subcommand(check)) {
    if (files.size() != 1) return parser.usageError("check takes one FILE");
    char message[1024] = "";
    if (cz_decision_table_check(files[0].c_str(), message, sizeof message) != MPI_SUCCESS) {
      std::fprintf(stderr, "collectivize table: %s\n", message);
      return 1;
    }
    std::printf("%s: ok\n", files[0].c_str());
    return 0;
  }
  if (query.size() != 3) return parser.usageError("which takes COLLECTIVE NPROCS BYTES");
  cz_collective coll;
  if (!parseCollective(query[0].c_str(), coll))
    return parser.usageError("unknown collective '" + query[0] + "' (valid: " + kCollectives + ")");
  long long nprocs = 0, bytes = 0;
  if (!cz::options::parseWhole(query[1], 1, INT_MAX, nprocs))
    return parser.usageError("NPROCS must be a whole number >= 1 (got '" + query[1] + "')");
  if (!parseBytes(query[2].c_str(), bytes))
    return parser.usageError("BYTES must be like 64, 4K or 1M (got '" + query[2] + "')");
  char name[128];
  if (cz_selected_algorithm(coll, static_cast<int>(nprocs), bytes, name, sizeof name) != MPI_SUCCESS) {
    std::fprintf(stderr, "collectivize table: %s\n", cz_last_error());
    return 1;
  }
  std::printf("%s\n", name);
  return 0;
}

} // namespace cz::cli
