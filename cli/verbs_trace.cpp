// verbs_trace.cpp: `collectivize trace dump|summary|repair` (front end of
// the trace reader library), and the summary and repair `collectivize run`
// shows after a run.
#include <limits.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <ctime>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "collectivize_trace_format.h"
#include "collectivize/trace_reader.h"
#include "collectivize/verb_options.h"
#include "verbs.h"

namespace cz::cli {
namespace {

const char kTraceUsage[] =
    "usage: collectivize trace dump DIR [--rank N] [--limit N]\n"
    "       collectivize trace summary DIR\n"
    "       collectivize trace repair DIR\n\n"
    "dump:    print the events of a trace, one line per event, rank by rank\n"
    "         (--rank: only rank N; --limit: at most N events per rank).\n"
    "summary: ranks, events per rank and the ranks whose trace is incomplete.\n"
    "repair:  make the trace of a run that aborted or was killed readable: add\n"
    "         the events each rank had recorded but not yet written, and the\n"
    "         definitions (`collectivize run` does this by itself).\n";


void printProblems(const cz::trace::Trace &trace) {
  for (const cz::trace::Problem &p : trace.problems())
    std::fprintf(stderr, "collectivize trace: warning: %s\n", p.message.c_str());
}

int traceDump(const std::string &dir, long long rank, long long limit) {
  auto trace = cz::trace::Trace::open(dir);
  if (!trace) {
    std::fprintf(stderr, "collectivize trace: %s\n", trace.error().message().c_str());
    return 1;
  }
  if (rank >= trace->rankCount()) {
    std::fprintf(stderr, "collectivize trace: no rank %lld in %s (ranks 0..%d)\n", rank,
                 dir.c_str(), trace->rankCount() - 1);
    return 2;
  }
  printProblems(*trace);
  cz::trace::ReadOptions options;
  options.maxEvents = uint64_t(limit);
  for (int r = 0; r < trace->rankCount(); r++) {
    if (rank >= 0 && r != rank) continue;
    auto n = trace->forEachEvent(
        r,
        [&](const cz::trace::Event &e) {
          std::printf("%s\n", cz::trace::formatEvent(*trace, e).c_str());
          return true;
        },
        options);
    if (!n) {
      std::fflush(stdout);
      std::fprintf(stderr, "collectivize trace: %s\n", n.error().message().c_str());
      return 1;
    }
  }
  return 0;
}

} // namespace

int printSummary(const std::string &dir, const char *who, bool withDirectory) {
  auto trace = cz::trace::Trace::open(dir);
  if (!trace) {
    std::fprintf(stderr, "%s: %s\n", who, trace.error().message().c_str());
    return 1;
  }
  auto sum = cz::trace::summarize(*trace);
  if (!sum) {
    std::fprintf(stderr, "%s: %s\n", who, sum.error().message().c_str());
    return 1;
  }
  uint64_t total = 0;
  std::vector<int> incomplete;
  for (const auto &s : sum.value()) {
    total += s.events;
    if (!s.complete) incomplete.push_back(s.rank);
  }
  if (withDirectory) std::printf("trace: %s\n", dir.c_str());
  if (!trace->manifest().command.empty())
    std::printf("command: %s\n", trace->manifest().command.c_str());
  std::printf("ranks: %d, events: %llu\n", trace->rankCount(), (unsigned long long)total);
  const auto &locations = trace->definitions().locations;
  std::set<std::string> hosts;
  bool offsets = false;
  for (const auto &[ref, l] : locations) {
    if (!l.host.empty()) hosts.insert(l.host);
    for (const auto &o : l.clockOffsets) offsets |= o.offset != 0;
  }
  for (const auto &s : sum.value()) {
    std::printf("  rank %d: %llu events%s", s.rank, (unsigned long long)s.events,
                s.complete ? "" : " (incomplete)");
    auto l = locations.find(uint64_t(s.rank));
    if (l != locations.end() && hosts.size() > 1) std::printf(", on %s", l->second.host.c_str());
    // Its clock against rank 0's, at MPI_Init and at MPI_Finalize.
    if (l != locations.end() && offsets && !l->second.clockOffsets.empty()) {
      std::printf(", clock offset");
      for (const auto &o : l->second.clockOffsets)
        std::printf(" %+.3f ms (+-%.1f us)", double(o.offset) * 1e-6, o.deviation * 1e-3);
    }
    std::printf("\n");
  }
  if (hosts.size() > 1) {
    std::printf("hosts: %zu (", hosts.size());
    size_t k = 0;
    for (const std::string &h : hosts) std::printf("%s%s", k++ ? ", " : "", h.c_str());
    std::printf(")\n");
  }
  if (incomplete.empty()) {
    std::printf("incomplete ranks: none\n");
  } else {
    std::printf("incomplete ranks:");
    for (int r : incomplete) std::printf(" %d", r);
    std::printf("\n");
  }
  for (const auto &p : trace->problems()) std::printf("  note: %s\n", p.message.c_str());
  return 0;
}

int repairTrace(const std::string &dir, const char *who) {
  auto report = cz::trace::repair(dir);
  if (!report) {
    std::fprintf(stderr, "%s: cannot repair: %s\n", who, report.error().message().c_str());
    return 1;
  }
  if (report->alreadyRepaired) {
    char when[64];
    std::time_t t = std::time_t(report->alreadyRepaired);
    std::strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S", std::localtime(&t));
    std::printf("%s: %s was already repaired (%s): nothing left to repair\n", who, dir.c_str(),
                when);
    return 0;
  }
  uint64_t recovered = 0;
  bool killed = false;
  for (const auto &r : report->ranks)
    if (!r.finished) recovered += r.events, killed = killed || r.fate.rfind("did not", 0) == 0;
  std::printf("%s: repaired %s%s: %llu events recovered from the ranks' event logs, %zu "
              "communicator definitions\n",
              who, dir.c_str(), killed ? " (the run did not finish)" : "",
              (unsigned long long)recovered, report->communicators);
  for (const auto &r : report->ranks)
    if (!r.finished)
      std::printf("  rank %d: %llu events recovered%s; it %s%s\n", r.rank,
                  (unsigned long long)r.events, r.logFile ? "" : " (no event log)", r.fate.c_str(),
                  r.completed ? ": its trace is complete" : "");
  return 0;
}

int traceVerb(int argc, char **argv) {
  if (argc == 0) { // what there is to do, as for `collectivize` alone
    std::fputs(kTraceUsage, stderr);
    return 2;
  }
  cz::options::VerbParser parser("collectivize trace", kTraceUsage);
  CLI::App &app = parser.app();
  std::vector<std::string> dumpDirs, summaryDirs, repairDirs;
  long long rank = -1, limit = 0;
  CLI::App *dump = app.add_subcommand("dump");
  dump->add_option("DIR", dumpDirs);
  for (auto [name, value] : {std::pair{"--rank", &rank}, {"--limit", &limit}})
    cz::options::addChecked(*dump, name,
                            [value = value](const std::string &v) {
                              return cz::options::parseWhole(v, 0, INT_MAX, *value);
                            },
                            "wants a whole number >= 0", "N");
  CLI::App *summary = app.add_subcommand("summary");
  summary->add_option("DIR", summaryDirs);
  CLI::App *repair = app.add_subcommand("repair");
  repair->add_option("DIR", repairDirs);
  app.require_subcommand(0, 1);
  if (auto status = parser.parse(cz::options::argsOf(argc, argv), true)) return *status;
  const std::vector<std::string> &rest = parser.unknown();
  if (app.get_subcommands().empty()) {
    if (rest.empty()) return parser.usageError("dump, summary or repair?");
    if (rest[0][0] == '-') return parser.unknownError();
    return parser.usageError("unknown subcommand '" + rest[0] + "'");
  }
  if (!rest.empty()) return parser.unknownError();
  CLI::App *sub = app.get_subcommands()[0];
  const std::vector<std::string> &dirs = sub == dump ? dumpDirs : sub == summary ? summaryDirs : repairDirs;
  if (dirs.empty()) return parser.usageError(sub->get_name() + " needs a trace directory");
  if (dirs.size() > 1)
    return parser.usageError("one trace directory at a time (got '" + dirs[0] + "' and '" +
                             dirs[1] + "')");
  if (sub == dump) return traceDump(dirs[0], rank, limit);
  if (sub == summary) return printSummary(dirs[0], "collectivize trace", true);
  int rc = repairTrace(dirs[0], "collectivize trace");
  return rc ? rc : printSummary(dirs[0], "collectivize trace", true);
}

} // namespace cz::cli
