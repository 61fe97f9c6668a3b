// verbs_detect.cpp: `collectivize detect TRACE_DIR [-o REPORT.json]`.
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <iostream>
#include <optional>
#include <string>

#include "collectivize/detect.h"
#include "collectivize/doc_path.h"
#include "collectivize/heap.h"
#include "collectivize/json.h"
#include "collectivize/messages.h"
#include "collectivize/parallel_match.h"
#include "collectivize/report.h"
#include "collectivize/runs.h"
#include "collectivize/site_database.h"
#include "collectivize/site_evidence.h"
#include "collectivize/symbolize.h"
#include "collectivize/trace_reader.h"
#include "collectivize/verb_options.h"
#include "verbs.h"

namespace cz::cli {
namespace {

const char kUsageText[] =
    "usage: collectivize detect TRACE_DIR [TRACE_DIR...] [--sites SITES.json | --no-sites]\n"
    "                           [-o REPORT.json]\n"
    "                           [--min-group N] [--window-messages N] [--progress]\n"
    "                           [--concurrent]\n"
    "       mpirun -np N collectivize detect --parallel TRACE_DIR [options]\n"
    "       collectivize detect --list-rules\n\n"
    "Finds hand-made collectives in a trace by what its messages carried:\n"
    "prints a summary and, with -o, writes the JSON report the rewriter reads\n"
    "(format: {doc:detector/REPORT_FORMAT.md}).\n"
    "--sites: the instrumenter's site database ({doc:clang-plugin/SITE_DATABASE.md}),\n"
    "to name call sites by file:line (default: the one the traced\n"
    "program named, when it was built by collectivize-cc/c++ or from `collectivize\n"
    "instrument` copies: the trace's manifest records it; --no-sites: not that one\n"
    "either). --min-group: smallest group reported\n"
    "(default 3; two processes exchanging data are not a collective).\n"
    "Several TRACE_DIRs: traces of one program at other process counts or inputs,\n"
    "one report: a collective is the same in two runs when the same call sites\n"
    "form the same kind; it is confirmed when a run proves it and no run shows\n"
    "another kind or nothing at those sites (then ambiguous: runs_disagree), and\n"
    "each match says what every run showed (\"runs\").\n"
    "--window-messages: a trace of more matched messages is analysed in time\n"
    "windows of about N messages, cut where the fewest messages are in flight\n"
    "(none where the program computes; default 8388608, about 1 GB of message\n"
    "table; 0: one window).\n"
    "--progress: name each phase and its duration on stderr (the default on\n"
    "a terminal). --concurrent: the provenance replay runs on a second thread\n"
    "beside the other analyses (same report; two cores).\n"
    "--parallel: under mpirun, N analysis processes; process p owns the traced\n"
    "ranks r with r mod N == p, decodes them, matches their receives against\n"
    "the sends routed to it and replays their provenance (buffer maps on the\n"
    "owner only, segments sent along the traced messages). With one window,\n"
    "process 0 then collects the messages and the provenance and runs the\n"
    "other analyses (tiling, barriers, block flows, reductions, spreads,\n"
    "gathering) alone; with several, window w is analysed on process w mod N\n"
    "and process 0 merges the findings. The report is the serial mode's with\n"
    "the same --window-messages. --progress names each process's phases.\n"
    "--list-rules: print the detection rules in the order they run, with the\n"
    "kinds each finds and what a confirmed instance of it proves.\n";

// The text with the documents it cites where this installation has them.
const char *usage() { return cz::docs::helpText(kUsageText); }

bool gProgress = false; // --progress, or stderr is a terminal

// Long reads show how far they got (rewriting one line on a terminal).
void showProgress(int done, int total) {
  static bool tty = isatty(2);
  if (!gProgress || total < 2) return;
  if (tty) {
    std::fprintf(stderr, "\rcollectivize detect: reading rank %d of %d", done, total);
    if (done == total) std::fprintf(stderr, "\r%60s\r", "");
  }
  std::fflush(stderr);
}

// Process CPU seconds: on a shared machine wall time says little.
double cpuSeconds() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

// The process's peak resident memory so far (the bench's memory per event).
double peakMegabytes() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return double(ru.ru_maxrss) / 1024.0;
}

void showPhase(const char *phase, double seconds) {
  static double lastCpu = 0;
  double cpu = cpuSeconds();
  if (gProgress)
    std::fprintf(stderr, "collectivize detect: %-26s %8.3f s (cpu %.3f s, peak %.0f MB)\n", phase,
                 seconds, cpu - lastCpu, peakMegabytes());
  lastCpu = cpu;
}

// The parallel mode's phases, one line per process (process 0 prints).
void showProcessTimes(const std::vector<cz::detect::parallel::ProcessTimes> &times) {
  if (!gProgress) return;
  std::fprintf(stderr, "collectivize detect: %zu processes, phases in wall seconds:\n",
               times.size());
  std::fprintf(stderr, "collectivize detect:   process ranks  decode   match  replay waiting "
                       "transfer  peak MB  routed MB  replay MB  to 0 MB  windows  win s\n");
  for (size_t p = 0; p < times.size(); p++) {
    const auto &t = times[p];
    std::fprintf(stderr,
                 "collectivize detect:   %7zu %5llu %7.3f %7.3f %7.3f %7.3f %8.3f %8.0f %10.1f "
                 "%10.1f %8.1f %8llu %6.3f\n",
                 p, (unsigned long long)t.ranks, t.decode, t.match, t.replay, t.replayWaiting,
                 t.transfer, t.peakMegabytes, double(t.routedBytes) / 1e6,
                 double(t.replayBytes) / 1e6, double(t.bytesToRoot) / 1e6,
                 (unsigned long long)t.windows, t.windows_s);
  }
}

// The site database's list of sources the compiler wrappers compiled
// without instrumentation (clang-plugin/SITE_DATABASE.md, "uninstrumented"),
// as "file (reason)"; the detector's reader skips it.
std::vector<std::string> uninstrumentedFiles(const std::string &sitesPath) {
  std::vector<std::string> out;
  cz::json::Json root;
  std::string error;
  if (!cz::json::readJsonFile(sitesPath, root, error)) return out;
  if (const cz::json::Json *files = root.find("uninstrumented"))
    for (const cz::json::Json &f : files->items()) {
      const cz::json::Json *file = f.find("file"), *reason = f.find("reason");
      if (file && !file->str().empty())
        out.push_back(file->str() +
                      (reason && !reason->str().empty() ? " (" + reason->str() + ")" : ""));
    }
  return out;
}

// Which source files' calls carry no site ids: the database's list, and
// the files of the calls the trace names by return address.
void warnAboutCallsWithoutIds(const std::string &sitesPath,
                              const cz::detect::SiteLocations &resolved,
                              std::vector<std::string> &warnings) {
  std::vector<std::string> listed = uninstrumentedFiles(sitesPath);
  if (!listed.empty()) {
    std::string names;
    for (const std::string &f : listed) names += (names.empty() ? "" : ", ") + f;
    warnings.push_back(std::to_string(listed.size()) + " source file" +
                       (listed.size() > 1 ? "s were" : " was") +
                       " compiled without instrumentation (" + sitesPath +
                       "): their MPI calls carry no site ids: " + names);
  }
  std::set<std::string> files;
  for (const auto &[address, where] : resolved)
    if (!where.file.empty() && !where.wrapperSite) files.insert(where.file); // not callers of wrappers
  if (!files.empty()) {
    std::string names;
    for (const std::string &f : files) names += (names.empty() ? "" : ", ") + f;
    warnings.push_back("calls in " + std::to_string(files.size()) + " file" +
                       (files.size() > 1 ? "s" : "") +
                       " carry no site ids (named by return address; not instrumented): " + names);
  }
}

double secondsSince(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

// One trace's report (site evidence weighed), its resolved return
// addresses and the call sites its messages went through. Returns 0, or
// the exit status when the trace cannot be read or this process is not the
// one that reports (the parallel mode's others: `reports` false).
struct TraceRun {
  cz::detect::Report report;
  cz::detect::SiteLocations resolved;
  std::string command;
  std::set<cz::detect::SiteUse> sitesSeen; // filled only when several runs are compared
  bool collectSites = false;
  bool reports = true;
};

int analyzeTrace(const std::string &dir, cz::detect::DetectOptions options,
                 std::optional<cz::detect::parallel::Session> &session, bool concurrent,
                 const std::string &sitesPath, const cz::detect::SiteLocations &sites,
                 TraceRun &run) {
  const bool speaks = !session || session->rank() == 0;
  cz::detect::keepFreedMemory();
  auto trace = cz::trace::Trace::open(dir);
  if (session && !session->allOk(trace.ok())) {
    // Process 0 names the problem; another process only when it is alone
    // in failing (the same files, seen differently: say it once per cause).
    bool rootOk = session->fromRoot(trace.ok());
    if (!trace.ok() && (speaks || rootOk))
      std::fprintf(stderr, "collectivize detect: %s\n", trace.error().message().c_str());
    return 1;
  }
  if (!trace) {
    std::fprintf(stderr, "collectivize detect: %s\n", trace.error().message().c_str());
    return 1;
  }
  // The trace's problems are the report's warnings (printed with it once,
  // and kept in the JSON), not printed here as well.
  // About 250 bytes per event at the peak (bench/README.md).
  uint64_t events = 0;
  for (int r = 0; r < trace->rankCount(); r++) events += trace->eventBound(r);
  cz::detect::prepareHeap(events * 256);
  auto phaseStart = std::chrono::steady_clock::now();
  showPhase("start and definitions", 0); // its cpu: loading the tool, opening the trace
  std::optional<cz::detect::MessageTable> table;
  cz::detect::detail::Provenance provenance; // the parallel mode's, replayed already
  std::optional<cz::detect::parallel::ParallelResult> windowed; // its windows' findings
  options.onPhase = showPhase;
  options.onWindow = [](size_t done, size_t windows) {
    if (gProgress) std::fprintf(stderr, "collectivize detect: window %zu of %zu done\n", done, windows);
  };
  if (session) {
    std::vector<cz::detect::parallel::ProcessTimes> times;
    std::optional<cz::detect::parallel::ParallelResult> result;
    try {
      result = cz::detect::parallel::readMatchAndReplay(*session, *trace, dir, options, &times);
    } catch (const std::exception &e) {
      std::fprintf(stderr, "collectivize detect: process %d: %s\n", session->rank(), e.what());
      session->abort(1); // the others may wait for this one forever
    }
    if (!result) { // this process's share went to process 0
      run.reports = false;
      return 0;
    }
    table = std::move(result->table);
    provenance = std::move(result->provenance);
    options.provenance = &provenance;
    if (result->windowed) windowed = std::move(result);
    showProcessTimes(times);
  } else {
    auto serial = cz::detect::matchMessages(*trace, showProgress);
    if (!serial) {
      std::fprintf(stderr, "collectivize detect: %s\n", serial.error().message().c_str());
      return 1;
    }
    table = std::move(serial.value());
  }
  showPhase(session ? "parallel phases" : "reading and matching", secondsSince(phaseStart));
  cz::detect::SymbolizeStats sym;
  cz::detect::Report &report = run.report;
  cz::detect::SiteLocations &resolved = run.resolved;
  std::set<uint64_t> instrumenterSites;
  if (windowed) {
    // Call sites, block CRCs and the analyses ran on the windows' owners.
    resolved = std::move(windowed->sites);
    sym.problem = windowed->symbolizeProblem;
    instrumenterSites.insert(windowed->instrumenterSites.begin(), windowed->instrumenterSites.end());
    report = cz::detect::reportFindings(std::move(windowed->findings), *table, options,
                                          windowed->windows);
  } else {
    // Return addresses (binaries the instrumenter did not see) -> file:line.
    phaseStart = std::chrono::steady_clock::now();
    sym = cz::detect::symbolizeReturnAddresses(dir, *table, resolved);
    cz::detect::readBlockCrcs(dir, *table); // COLLECTIVIZE_TRACE_BLOCK_BYTES traces only
    showPhase("call sites", secondsSince(phaseStart));
    // --concurrent: the provenance replay on a second thread, beside the
    // other analyses (the parallel mode has replayed it already).
    options.concurrentProvenance = concurrent;
    report = cz::detect::detect(*table, options);
    for (const auto &m : table->messages) {
      if (m.sendSiteKind == 0) instrumenterSites.insert(m.sendSite);
      if (m.recvSiteKind == 0) instrumenterSites.insert(m.recvSite);
    }
    if (run.collectSites) {
      for (const cz::detect::Match &m : report.matches) run.sitesSeen.insert(m.sites.begin(), m.sites.end());
      // Consecutive messages mostly share their sites: skip repeats cheaply.
      cz::detect::SiteUse lastSend{}, lastRecv{};
      for (const auto &m : table->messages) {
        cz::detect::SiteUse send{m.sendSite, m.sendSiteKind, true}, recv{m.recvSite, m.recvSiteKind, false};
        if (&m == &table->messages.front() || !(send == lastSend)) run.sitesSeen.insert(send);
        if (&m == &table->messages.front() || !(recv == lastRecv)) run.sitesSeen.insert(recv);
        lastSend = send, lastRecv = recv;
      }
    }
  }
  // The instrumenter ids of sites reached through their callers.
  for (const auto &[id, where] : resolved)
    if (where.wrapperSite) instrumenterSites.insert(where.wrapperSite);
  if (!sitesPath.empty()) {
    cz::detect::weighSiteEvidence(report, sites);
    std::set<uint64_t> missing;
    for (uint64_t id : instrumenterSites)
      if (!sites.count(id)) missing.insert(id);
    if (!missing.empty())
      report.warnings.push_back(std::to_string(missing.size()) + " instrumenter site ids of the "
                                "trace are not in " + sitesPath +
                                " (a database from another build or another project root?)");
    warnAboutCallsWithoutIds(sitesPath, resolved, report.warnings);
  }
  if (!sym.problem.empty())
    report.warnings.push_back("call sites: " + sym.problem);
  // Symbols but no line table (built without -g; common for Fortran
  // builds): sites are named by function, which no rewrite can use.
  std::set<std::string> withoutLines;
  for (const auto &[address, where] : resolved)
    if (!where.line && !where.function.empty()) withoutLines.insert(where.file);
  if (!withoutLines.empty()) {
    std::string list;
    for (const std::string &f : withoutLines) list += (list.empty() ? "" : ", ") + f;
    report.warnings.push_back("call sites in " + list + " are named by function only: the program "
                              "has no line information there; rebuild it with -g and trace again "
                              "for file:line sites");
  }
  for (const auto &p : trace->problems())
    report.warnings.push_back(p.message);
  run.command = trace->manifest().command;
  return 0;
}

// detect's command line (usage() describes it).
struct DetectArgs {
  std::string out, sitesPath;
  std::vector<std::string> dirs;
  cz::detect::DetectOptions options;
  bool parallel = false, concurrent = false, noSites = false, listRules = false;
};

// Nothing when detect goes on; else the exit status (help, usage error).
std::optional<int> parseDetectArgs(int argc, char **argv, DetectArgs &a) {
  cz::options::VerbParser parser("collectivize detect", usage());
  CLI::App &app = parser.app();
  app.add_option("TRACE_DIR", a.dirs);
  app.add_option("-o", a.out);
  app.add_option("--sites", a.sitesPath);
  app.add_flag("--no-sites", a.noSites);
  app.add_flag("--progress", gProgress);
  app.add_flag("--parallel", a.parallel);
  app.add_flag("--concurrent", a.concurrent);
  app.add_flag("--list-rules", a.listRules);
  long long n = 0;
  cz::options::addChecked(app, "--min-group",
                          [&](const std::string &v) {
                            return cz::options::parseWhole(v, 2, 1 << 24, n) &&
                                   (a.options.minGroup = int(n), true);
                          },
                          "wants a number >= 2", "N");
  cz::options::addChecked(app, "--window-messages",
                          [&](const std::string &v) {
                            return cz::options::parseWhole(v, 0, LLONG_MAX, n) && n != 1 &&
                                   (a.options.windowMessages = uint64_t(n), true);
                          },
                          "wants 0 or a number >= 2", "N");
  if (auto status = parser.parse(cz::options::argsOf(argc, argv))) return status;
  if (a.listRules) {
    if (!a.dirs.empty()) return parser.usageError("--list-rules takes no trace directory");
    std::fputs(cz::detect::detectionRuleText().c_str(), stdout);
    return 0;
  }
  if (a.dirs.empty()) return parser.usageError("no trace directory");
  if (a.noSites && !a.sitesPath.empty()) return parser.usageError("--sites and --no-sites: give one");
  if (a.dirs.size() > 1 && a.parallel)
    return parser.usageError("--parallel takes one trace directory");
  return std::nullopt;
}

} // namespace

int detectVerb(int argc, char **argv) {
  gProgress = isatty(2);
  DetectArgs args;
  if (auto status = parseDetectArgs(argc, argv, args)) return *status;
  std::string &out = args.out, &sitesPath = args.sitesPath;
  const std::vector<std::string> &dirs = args.dirs;
  const cz::detect::DetectOptions &options = args.options;
  const bool parallel = args.parallel, concurrent = args.concurrent, noSites = args.noSites;
  // Parallel: every process reads the definitions and its ranks; only
  // process 0 speaks and writes.
  std::optional<cz::detect::parallel::Session> session;
  if (parallel) session.emplace(nullptr, nullptr);
  const bool speaks = !session || session->rank() == 0;
  if (!speaks) gProgress = false;
  // No --sites: the site database the instrumented program named in the
  // first trace's manifest, said so.
  if (sitesPath.empty() && !noSites) {
    auto manifest = cz::trace::readTraceManifest(dirs[0]);
    if (manifest && !manifest.value().sitesDatabases.empty()) {
      std::error_code ec;
      for (const std::string &db : manifest.value().sitesDatabases)
        if (sitesPath.empty() && std::filesystem::is_regular_file(db, ec)) sitesPath = db;
      if (speaks && !sitesPath.empty())
        std::fprintf(stderr,
                     "collectivize detect: site database %s (named by the traced program; "
                     "--sites FILE picks another)\n",
                     sitesPath.c_str());
      else if (speaks)
        std::fprintf(stderr,
                     "collectivize detect: warning: the traced program names the site database "
                     "%s, which is not there (moved or removed?): call sites are bare ids; give "
                     "--sites FILE\n",
                     manifest.value().sitesDatabases[0].c_str());
    }
  }
  cz::detect::SiteLocations sites;
  if (!sitesPath.empty()) {
    auto db = cz::detect::readSiteDatabase(sitesPath);
    if (!db) {
      std::fprintf(stderr, "collectivize detect: %s\n", db.error().message().c_str());
      return 1;
    }
    sites = std::move(db.value());
    // Buffers the source fills or empties by a copy: staged scatters and gathers.
    args.options.stagedSites = cz::detect::stagedSitesOf(sites);
  }
  std::vector<TraceRun> runs(dirs.size());
  for (size_t k = 0; k < dirs.size(); k++) {
    runs[k].collectSites = dirs.size() > 1;
    if (int status = analyzeTrace(dirs[k], options, session, concurrent, sitesPath, sites, runs[k]))
      return status;
    if (!runs[k].reports) return 0;
  }
  const std::string &dir = dirs[0];
  cz::detect::Report report = std::move(runs[0].report);
  cz::detect::SiteLocations resolved = std::move(runs[0].resolved);
  if (dirs.size() > 1) {
    std::vector<cz::detect::RunReport> several;
    several.push_back({std::move(report), dirs[0], runs[0].command, std::move(runs[0].sitesSeen)});
    for (size_t k = 1; k < dirs.size(); k++) {
      several.push_back({std::move(runs[k].report), dirs[k], runs[k].command,
                         std::move(runs[k].sitesSeen)});
      resolved.insert(runs[k].resolved.begin(), runs[k].resolved.end());
    }
    report = cz::detect::combineRuns(std::move(several));
  }
  cz::detect::ReportContext ctx{dir, runs[0].command, sitesPath.empty() ? std::string() : std::filesystem::absolute(sitesPath).string(),
                                sitesPath.empty() ? nullptr : &sites, &resolved};
  if (!out.empty()) {
    std::ofstream f(out, std::ios::trunc);
    if (!f) {
      std::fprintf(stderr, "collectivize detect: cannot write %s: %s\n", out.c_str(),
                   std::strerror(errno));
      return 1;
    }
    cz::detect::writeJson(f, report, ctx);
    f.close();
    if (!f) {
      std::fprintf(stderr, "collectivize detect: cannot write %s\n", out.c_str());
      return 1;
    }
  }
  cz::detect::writeText(std::cout, report, ctx);
  if (!out.empty()) std::cout << "\nreport written to " << out << "\n";
  return 0;
}

} // namespace cz::cli
