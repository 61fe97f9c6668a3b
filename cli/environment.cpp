// environment.cpp: the one table of COLLECTIVIZE_* environment variables
// (who reads each, its default, what it does), printed by --list-env.
#include "environment.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <string>
#include <vector>

#include "collectivize.h"

namespace cz::cli {
namespace {

struct EnvVar {
  const char *name; // "<COLL>" stands for each collective, in capitals
  const char *readBy;
  const char *byDefault;
  const char *meaning;
};

const EnvVar kEnvironment[] = {
    // The runtime (libcollectivize: cz_<collective>).
    {"COLLECTIVIZE_TUNING", "runtime", "built-in table",
     "decision table FILE to use (`collectivize tune` writes one; a bad file is reported "
     "as FILE:LINE and the built-in table is used)"},
    {"COLLECTIVIZE_<COLL>_ALGORITHM", "runtime", "decision table",
     "force one algorithm NAME[:R] for that collective (`collectivize algorithms` lists "
     "them); an unknown name is reported and ignored"},
    {"COLLECTIVIZE_QUIET", "runtime, tracer", "unset",
     "set (not 0): print no errors or warnings on stderr (still returned, and in "
     "cz_last_error())"},
    {"COLLECTIVIZE_LOG", "runtime", "unset",
     "set (not 0): log each algorithm selection and each alltoallv plan's verdict"},
    {"COLLECTIVIZE_RANKS_PER_NODE", "runtime, bench", "real nodes",
     "k: planned alltoallv and the shm algorithms see simulated nodes of k ranks (study "
     "on one machine)"},
    {"COLLECTIVIZE_PLAN_CACHE", "runtime", "4",
     "plans cz_alltoallv keeps per communicator, 0..1024 (0 disables)"},
    {"COLLECTIVIZE_SHM_BYTES", "runtime", "64M",
     "shared memory the shm algorithms' window may take per node (K/M/G suffixes); too "
     "little: the MPI library's collectives are used, with one warning"},
    {"COLLECTIVIZE_SHM_WAIT", "runtime", "auto",
     "how shm ranks wait for each other: yield, sleep[:N] (sleep after N yields) or "
     "auto[:N] (sleep only when oversubscribed and moving little)"},
    {"COLLECTIVIZE_TRIALS", "runtime", "1",
     "0: a table-chosen own algorithm always runs; 1: from 32 KiB on it is timed now and "
     "then against the MPI library's collective, and the faster runs (all ranks agree)"},
    {"COLLECTIVIZE_PLACEMENT", "runtime", "auto",
     "auto: probe now and then whether the host has the cores far apart, and then run the "
     "library's broadcast (from 32 KiB), alltoall and (2 ranks) allgather (from 128 KiB a "
     "block) instead of the shm ones; near: never (trials only); far: always"},
    {"COLLECTIVIZE_TRIAL_OWN_SCALE", "runtime", "1",
     "F > 0, for tests: count this process's own-algorithm trial calls as F times their "
     "measured time (F > 1 acts like cores far apart)"},
    // The tracer (libcollectivize_trace).
    {"COLLECTIVIZE_TRACE_DIR", "tracer, run", "a new one",
     "where the trace goes; must be new or empty (default: "
     "./collectivize-trace-<date>-<time>; `collectivize run --trace-dir` sets it)"},
    {"COLLECTIVIZE_TRACE_BLOCK_BYTES", "tracer", "0 (off)",
     "n: also record the CRC of every n-byte block of sends of at least 2n bytes "
     "(`collectivize run --block-bytes`)"},
    {"COLLECTIVIZE_TRACE_HASH", "tracer", "send",
     "send: hash payloads at the sender only; both: receivers hash too (a check)"},
    {"COLLECTIVIZE_TRACE_CLOCK", "tracer", "by the CPU",
     "tsc or monotonic: the clock that stamps events (TSC where it is constant and "
     "nonstop)"},
    {"COLLECTIVIZE_TRACE_WRITER", "tracer", "auto",
     "thread: a writer thread appends the event log; inline: the rank's own wait points "
     "do; auto: inline when the rank is bound to one CPU or the node runs as many ranks "
     "as it has CPUs, else thread"},
    {"COLLECTIVIZE_TRACE_MODE", "tracer", "0700",
     "octal mode of the trace directory (files get its read and write bits), e.g. 0750 "
     "to share a trace with the group"},
    {"COLLECTIVIZE_TRACE_CLOCK_SKEW", "tracer", "unset",
     "OFFSET[,DRIFTppm[,unmeasured]]: make each rank's clock wrong on purpose (tests "
     "of the detector's clock correction)"},
    {"COLLECTIVIZE_TRACE_ANNOUNCE", "tracer", "1",
     "0: rank 0 does not print where the trace goes (`collectivize run` sets it and "
     "says so itself)"},
    {"COLLECTIVIZE_VERIFY_EFFECTS", "tracer", "unset",
     "directory for the patched region's output hashes (`collectivize verify` sets it "
     "for its traced runs)"},
    // The command line and the compiler wrappers.
    {"COLLECTIVIZE_TRACE_LIB", "run, verify, wrappers", "installed, else build",
     "the tracer library (libcollectivize_trace.so) to preload or link"},
    {"COLLECTIVIZE_MPIRUN", "run, bench, tune", "the MPI's mpiexec",
     "the launcher for `run -np N`, bench and tune"},
    {"COLLECTIVIZE_BENCH_WORKER", "bench, tune", "installed, else build",
     "the benchmark worker program (collectivize_bench_worker)"},
    {"COLLECTIVIZE_HUGE_PAGES", "detect", "1",
     "0: the detector does not ask for transparent huge pages (less peak memory, more "
     "page faults)"},
    {"COLLECTIVIZE_CC", "wrappers, verify", "the MPI's mpicc",
     "the real C compiler behind collectivize-cc (and verify's builds)"},
    {"COLLECTIVIZE_CXX", "wrappers, verify", "the MPI's mpicxx",
     "the real C++ compiler behind collectivize-c++ (and verify's builds)"},
    {"COLLECTIVIZE_FC", "wrappers", "the MPI's mpif90",
     "the real Fortran compiler behind collectivize-fc"},
    {"COLLECTIVIZE_SITES", "wrappers, plugin", "see meaning",
     "the site database to merge call sites into (default: ./collectivize-sites.json "
     "in the compiler's directory; give an absolute path for a project built in "
     "several directories)"},
    {"COLLECTIVIZE_ROOT", "wrappers, plugin", "see meaning",
     "project root: only files below it are instrumented; site ids are relative to it "
     "(default: the nearest directory above the source holding .git, else the source's "
     "own)"},
    {"COLLECTIVIZE_NO_TRACER", "wrappers", "unset",
     "set: do not link the tracer (preload it instead)"},
    {"COLLECTIVIZE_IN_WRAPPER", "wrappers", "unset",
     "internal: set by a wrapper for the compiler it runs, so a real compiler that "
     "calls the wrapper again is an error, not a loop"},
    {"COLLECTIVIZE_DOC_PREFIX", "help texts", "own, else sources",
     "install prefix whose share/doc/collectivize the help texts cite (the man pages' "
     "build sets the configured one)"},
    // The test suite (scripts/run).
    {"COLLECTIVIZE_REQUIRE_BROWSER", "browser test", "0",
     "1: a missing browser fails the report's browser test instead of skipping it"},
};

const char *const kHeader[] = {"NAME", "READ BY", "DEFAULT"};

std::string upper(const char *s) {
  std::string out(s);
  for (char &c : out) c = char(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

struct Row {
  std::string name;
  const EnvVar *var;
};

// One row per variable, "<COLL>" expanded for every collective the runtime
// has (so the list follows the runtime's collectives by itself).
std::vector<Row> expandedRows() {
  std::vector<Row> rows;
  for (const EnvVar &v : kEnvironment) {
    const char *hole = std::strstr(v.name, "<COLL>");
    if (!hole) {
      rows.push_back({v.name, &v});
      continue;
    }
    for (int c = 0; c < CZ_COLL_COUNT; c++)
      rows.push_back({std::string(v.name, hole) +
                          upper(cz_collective_name(static_cast<cz_collective>(c))) +
                          (hole + std::strlen("<COLL>")),
                      &v});
  }
  return rows;
}

// `text` in lines of at most `width` columns, each indented by `indent`.
void printWrapped(FILE *out, const std::string &text, size_t indent, size_t width) {
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.size();
    if (end - start > width) {
      end = text.rfind(' ', start + width);
      if (end == std::string::npos || end <= start) end = start + width;
    }
    std::fprintf(out, "%*s%s\n", int(indent), "", text.substr(start, end - start).c_str());
    start = end;
    while (start < text.size() && text[start] == ' ') ++start;
  }
}

} // namespace

void printEnvironment(FILE *out) {
  std::vector<Row> rows = expandedRows();
  size_t nameWidth = std::strlen(kHeader[0]), readWidth = std::strlen(kHeader[1]);
  for (const Row &r : rows) {
    nameWidth = std::max(nameWidth, r.name.size());
    readWidth = std::max(readWidth, std::strlen(r.var->readBy));
  }
  std::fprintf(out, "%-*s  %-*s  %s\n", int(nameWidth), kHeader[0], int(readWidth), kHeader[1],
               kHeader[2]);
  for (const Row &r : rows) {
    std::fprintf(out, "%-*s  %-*s  %s\n", int(nameWidth), r.name.c_str(), int(readWidth),
                 r.var->readBy, r.var->byDefault);
    printWrapped(out, r.var->meaning, 4, 74);
  }
}

void printEnvironmentHelp(FILE *out) {
  std::fprintf(out,
               "usage: collectivize --list-env\n\n"
               "Every COLLECTIVIZE_* environment variable Collectivize reads: its name, the\n"
               "parts that read it (runtime: libcollectivize; tracer: libcollectivize_trace in\n"
               "the traced ranks; wrappers: collectivize-cc/c++/fc; plugin: the Clang plugin;\n"
               "verbs by name), its default and, indented, what it does. `collectivize run`\n"
               "passes every COLLECTIVIZE_* variable you set on to the ranks.\n\n");
  printEnvironment(out);
}

} // namespace cz::cli
