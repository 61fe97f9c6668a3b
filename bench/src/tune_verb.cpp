// tune_verb.cpp: `collectivize tune`: measure (or read bench.csv), write a
// decision table, check it with the runtime's own parser, and show how the
// tuned cz_<collective> compares with MPI in every measured cell.
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <functional>
#include <map>
#include <set>

#include "bench/cli.h"
#include "bench/options.h"
#include "bench/report.h"
#include "bench/results.h"
#include "bench/runner.h"
#include "bench/tune_rules.h"
#include "collectivize.h"
#include "collectivize/doc_path.h"
#include "collectivize/verb_options.h"

namespace cz::bench {
namespace {

const char kTuneUsageText[] =
    "usage: collectivize tune -o FILE [--from bench.csv ...] [--margin M] [bench options]\n\n"
    "Writes a decision table (COLLECTIVIZE_TUNING=FILE) choosing, per collective,\n"
    "process count and size, the fastest measured algorithm, preferring a native\n"
    "one only when it beats the MPI library's own by more than the margin both with\n"
    "the same send data every call (clean) and with the send buffer rewritten before\n"
    "each call (dirty), and its makespan (first rank's start to last rank's return)\n"
    "is at most 1 + margin times mpi's. The margin is the noise allowance: set it to\n"
    "the spread of the same code timed twice on your machine. The format of a\n"
    "table is described in the built-in one, {doc:runtime/data/decision-table.txt}.\n\n"
    "  -o, --output FILE   the table to write (required); unless --from is given the\n"
    "                      measurements also go to FILE's stem + \"-bench/\"\n"
    "  --from CSV          use an existing bench.csv instead of measuring; give it\n"
    "                      again for each further independent run of the same grid:\n"
    "                      a native algorithm then takes a size only if it wins in\n"
    "                      every run (one launch's win can be the machine's noise)\n"
    "  --margin M          required advantage over mpi, 0..0.9 (default 0.10 = 10%)\n"
    "  --verify            after writing, time cz_<coll> with the table beside mpi\n"
    "                      (default unless --from); --no-verify skips it\n"
    "  bench options       --collective (-c; default all), --procs (-n), --sizes,\n"
    "                      --quick, --reps, --algorithms, --max-batch, --timeout:\n"
    "                      as for bench\n\n"
    "Rules: a measured size's choice holds from that size up to just below the next\n"
    "measured size (the smallest also below it, the largest above it); a measured P's\n"
    "rules hold up to just below the next measured P (the smallest also below, the\n"
    "largest above). alltoallv (bytes must be '*') gets one algorithm per P: a native\n"
    "one only if it beats mpi by the margin in the geometric mean over sizes and is\n"
    "never slower than mpi at any size. Every collective ends with '* * mpi'.\n";

// The text with the documents it cites where this installation has them.
const char *tuneUsage() { return cz::docs::helpText(kTuneUsageText); }

struct TuneFlags {
  double margin = 0.10;
  std::vector<std::string> from;  // one bench.csv per independent run
  int verify = -1;  // -1: default (on unless --from)
};

// tune's own options, beside bench's.
void addTuneOptions(CLI::App &app, TuneFlags &t) {
  app.add_flag("--verify", [&t](int64_t) { t.verify = 1; });
  app.add_flag("--no-verify", [&t](int64_t) { t.verify = 0; });
  app.add_option("--from", t.from)->type_name("CSV");
  cz::options::addChecked(app, "--margin", [&t](const std::string &v) {
    return cz::options::parseReal(v, 0, 0.9, t.margin);
  }, "wants a fraction 0..0.9, e.g. 0.10 for 10%", "M");
}

std::string nowText() {
  char buf[64];
  std::time_t t = std::time(nullptr);
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S %Z", std::localtime(&t));
  return buf;
}

std::string mpiLibrary() {
  char v[MPI_MAX_LIBRARY_VERSION_STRING] = "";
  int len = 0;
  MPI_Get_library_version(v, &len);  // allowed before MPI_Init
  std::string s(v, size_t(len > 0 ? len : 0));
  size_t cut = s.find_first_of(",\n");
  return cut == std::string::npos ? s : s.substr(0, cut);
}

const Result *find(const std::vector<Result> &rows, const std::string &coll, int procs,
                   long long bytes, const std::string &alg) {
  for (const Result &r : rows)
    if (r.collective == coll && r.procs == procs && r.bytes == bytes && r.ok() &&
        (r.algorithm == alg || r.algorithm == alg + ":2"))  // radix 2 is printed bare
      return &r;
  return nullptr;
}

// A grid per collective: rows = sizes, columns = P; cell = tuned / mpi.
// Returns the number of cells above 1.0.
int printRatioGrid(const std::vector<Result> &rows, const std::string &title,
                   const std::function<bool(const std::string &, int, long long, double &,
                                            std::string &)> &cell) {
  std::printf("\n%s\n", title.c_str());
  int above = 0;
  for (const std::string &coll : allCollectives()) {
    std::set<int> procs;
    std::set<long long> sizes;
    for (const Result &r : rows)
      if (r.collective == coll) procs.insert(r.procs), sizes.insert(r.bytes);
    if (procs.empty()) continue;
    std::printf("  %-10s", coll.c_str());
    for (int p : procs) std::printf(" %16s", ("P=" + std::to_string(p)).c_str());
    std::printf("\n");
    double worst = 0;
    for (long long b : sizes) {
      std::printf("  %10s", formatBytes(b).c_str());
      for (int p : procs) {
        double ratio;
        std::string alg;
        if (!cell(coll, p, b, ratio, alg)) {
          std::printf(" %16s", "-");
          continue;
        }
        char text[64];
        std::snprintf(text, sizeof text, "%.2f %s", ratio, alg.c_str());
        std::printf(" %16s", text);
        worst = std::max(worst, ratio);
        if (ratio > 1.0) above++;
      }
      std::printf("\n");
    }
    std::printf("  %-10s worst %.2f\n", "", worst);
  }
  return above;
}

}  // namespace

int tuneVerb(int argc, char **argv) {
  BenchOptions opt;
  opt.collectives = allCollectives();  // a table covers every collective
  TuneFlags tf;
  cz::options::VerbParser parser("collectivize tune", tuneUsage());
  addBenchOptions(parser.app(), opt);
  addTuneOptions(parser.app(), tf);
  if (auto status = parser.parse(cz::options::argsOf(argc, argv))) return *status;
  finishBenchOptions(opt);
  if (opt.outDir.empty()) return parser.usageError("-o FILE is required (the decision table to write)");
  std::string err;
  RunSpec spec;
  if (tf.from.empty() && !algorithmsFor(opt.collectives, opt.algorithms, spec.algorithms, err))
    return parser.usageError(err);
  const std::string file = opt.outDir;
  std::string stem = file.size() > 4 && file.compare(file.size() - 4, 4, ".txt") == 0
                         ? file.substr(0, file.size() - 4) : file;
  std::string benchDir = stem + "-bench";
  std::vector<std::string> header{
      "Decision table written by `collectivize tune` (collectivize " + std::string(cz_version()) +
          ") on " + nowText(),
  };
  char host[256] = "?";
  gethostname(host, sizeof host);
  std::string cmd = "collectivize tune";
  for (int i = 0; i < argc; i++) cmd += std::string(" ") + argv[i];
  header.push_back("Command: " + cmd);

  std::vector<Result> rows;
  std::vector<std::vector<Result>> moreRuns;
  if (!tf.from.empty()) {
    for (size_t k = 0; k < tf.from.size(); k++) {
      std::vector<Result> run;
      if (!readCsvFile(tf.from[k], run, err)) {
        std::fprintf(stderr, "collectivize tune: %s\n", err.c_str());
        return 1;
      }
      std::vector<Result> keep;  // --collective filters what the table covers
      for (const Result &r : run)
        for (const std::string &c : opt.collectives)
          if (r.collective == c) keep.push_back(r);
      if (keep.empty()) {
        std::fprintf(stderr, "collectivize tune: %s has no rows for the selected collectives\n",
                     tf.from[k].c_str());
        return 1;
      }
      if (k == 0) rows.swap(keep);
      else moreRuns.push_back(std::move(keep));
    }
    std::string files;
    for (const std::string &f : tf.from) files += (files.empty() ? "" : ", ") + f;
    header.push_back("Measurements: " + files + " (bench.csv" +
                     (tf.from.size() > 1 ? ", independent runs: a native choice holds in every one"
                                         : "") +
                     "), read on host " + host);
  } else {
    spec.opt = opt;
    spec.verb = "tune";
    if (!makeDirs(benchDir, err)) {
      std::fprintf(stderr, "collectivize tune: %s\n", err.c_str());
      return 1;
    }
    spec.logPath = benchDir + "/worker.log";
    std::remove(spec.logPath.c_str());
    spec.extraEnv = {"COLLECTIVIZE_QUIET=1"};
    if (!runBench(spec, rows, err)) {
      std::fprintf(stderr, "collectivize tune: %s\n", err.c_str());
      return 1;
    }
    computeRatios(rows);
    if (!writeBenchDir(benchDir, rows, err)) {
      std::fprintf(stderr, "collectivize tune: %s\n", err.c_str());
      return 1;
    }
    std::string sizes = formatBytes(opt.sizes.front()) + ".." + formatBytes(opt.sizes.back());
    std::string procs;
    for (int p : opt.procs) procs += (procs.empty() ? "" : ",") + std::to_string(p);
    header.push_back(std::string("Measured on host ") + host + ": mpirun -n " + procs +
                     " (--oversubscribe, mpi_yield_when_idle 1), sizes " + sizes + ", " +
                     std::to_string(opt.reps) + " rep(s)" + (opt.quick ? ", --quick" : "") +
                     "; data in " + benchDir + "/bench.csv");
  }
  header.push_back("MPI library: " + mpiLibrary());
  char marginText[64];
  std::snprintf(marginText, sizeof marginText, "%.0f%%", tf.margin * 100);
  header.push_back(std::string("Policy: per size, a native algorithm only when it beats mpi by more "
                               "than ") + marginText + " clean and dirty (send buffer rewritten "
                   "before each call) with a makespan at most " + marginText + " above mpi's.");
  header.push_back("A measured size's rule holds up to the next measured size; a measured P's "
                   "rules hold up to the next measured P.");
  header.push_back("Use: COLLECTIVIZE_TUNING=" + file + " (check: collectivize table check FILE)");
  header.push_back("");
  header.push_back("<collective> <procs> <bytes> <algorithm>[:<param>]   first match wins");

  TuneInput in;
  in.rows = rows;
  in.moreRuns = moreRuns;
  in.margin = tf.margin;
  in.headerLines = header;
  std::string table = buildDecisionTable(in);
  size_t slash = file.rfind('/');
  if (slash != std::string::npos && slash > 0 && !makeDirs(file.substr(0, slash), err)) {
    std::fprintf(stderr, "collectivize tune: %s\n", err.c_str());
    return 1;
  }
  FILE *f = std::fopen(file.c_str(), "w");
  if (!f || std::fputs(table.c_str(), f) < 0 || std::fclose(f) != 0) {
    std::fprintf(stderr, "collectivize tune: cannot write %s: %s\n", file.c_str(), std::strerror(errno));
    return 1;
  }
  char message[1024] = "";
  if (cz_decision_table_check(file.c_str(), message, sizeof message) != MPI_SUCCESS) {
    std::fprintf(stderr, "collectivize tune: the written table does not parse (a bug): %s\n", message);
    return 1;
  }
  std::printf("%s", table.c_str());
  std::printf("\nwrote %s (checked: ok)\n", file.c_str());

  // What cz_<coll> will run with this table, through the runtime's own
  // selection (not our rules), so the grid checks the file itself.
  setenv("COLLECTIVIZE_TUNING", file.c_str(), 1);
  for (const std::string &c : allCollectives()) {
    std::string var = "COLLECTIVIZE_" + c + "_ALGORITHM";
    for (char &ch : var) ch = char(std::toupper(static_cast<unsigned char>(ch)));
    unsetenv(var.c_str());
  }
  auto collId = [](const std::string &c) {
    for (int i = 0; i < CZ_COLL_COUNT; i++)
      if (c == cz_collective_name(cz_collective(i))) return cz_collective(i);
    return CZ_COLL_COUNT;
  };
  int above = printRatioGrid(
      rows, "tuned / mpi per measured cell, worse of clean and dirty, from the measurements (table's choice shown):",
      [&](const std::string &coll, int p, long long b, double &ratio, std::string &alg) {
        char name[128];
        if (cz_selected_algorithm(collId(coll), p, b, name, sizeof name) != MPI_SUCCESS) return false;
        const Result *mpi = find(rows, coll, p, b, "mpi"), *chosen = find(rows, coll, p, b, name);
        if (!mpi || !chosen) return false;
        ratio = worseLatencyRatio(*chosen, *mpi);
        alg = name;
        return true;
      });
  std::printf(above ? "  %d cell(s) above 1.0\n" : "  every cell <= 1.00\n", above);

  bool verify = tf.verify == 1 || (tf.verify == -1 && tf.from.empty());
  if (!verify) return 0;
  // Verification: cz_<coll> ("auto", this table) timed beside mpi in one run.
  std::set<int> procs;
  std::set<long long> sizes;
  std::set<std::string> colls;
  for (const Result &r : rows) procs.insert(r.procs), sizes.insert(r.bytes), colls.insert(r.collective);
  RunSpec v;
  v.opt = opt;
  v.opt.procs.assign(procs.begin(), procs.end());
  v.opt.sizes.assign(sizes.begin(), sizes.end());
  v.opt.collectives.clear();
  for (const std::string &c : allCollectives())
    if (colls.count(c)) v.opt.collectives.push_back(c), v.algorithms[c] = {"mpi", "auto"};
  v.verb = "tune verify";
  v.logPath = tf.from.empty() ? benchDir + "/verify-worker.log" : stem + "-verify.log";
  std::remove(v.logPath.c_str());
  v.extraEnv = {"COLLECTIVIZE_QUIET=1", "COLLECTIVIZE_TUNING=" + file};
  std::vector<Result> vrows;
  if (!runBench(v, vrows, err)) {
    std::fprintf(stderr, "collectivize tune: verification run failed: %s\n", err.c_str());
    return 1;
  }
  computeRatios(vrows);
  std::string verifyCsv = (tf.from.empty() ? benchDir + "/" : stem + "-") + "verify.csv";
  if (!writeCsvFile(verifyCsv, vrows, err)) std::fprintf(stderr, "collectivize tune: %s\n", err.c_str());
  // Where the table says mpi, "auto" and "mpi" run the same code: their
  // ratio shows this machine's measurement noise.
  std::vector<double> same;
  above = printRatioGrid(
      vrows, "verified: cz_<coll> with this table / mpi, timed together (worse of clean and dirty):",
      [&](const std::string &coll, int p, long long b, double &ratio, std::string &alg) {
        const Result *mpi = find(vrows, coll, p, b, "mpi"), *tuned = find(vrows, coll, p, b, "auto");
        char name[128] = "?";
        cz_selected_algorithm(collId(coll), p, b, name, sizeof name);
        if (!mpi || !tuned) return false;
        ratio = worseLatencyRatio(*tuned, *mpi);
        alg = name;
        if (alg == "mpi") same.push_back(std::fabs(ratio - 1));
        return true;
      });
  std::sort(same.begin(), same.end());
  if (!same.empty())
    std::printf("  noise: where the table says mpi (same code timed twice) |ratio - 1| is %.2f "
                "median, %.2f worst over %zu cells\n",
                same[same.size() / 2], same.back(), same.size());
  std::printf(above ? "  %d cell(s) above 1.0\n" : "  every cell <= 1.00\n", above);
  std::printf("  (timings: %s)\n", verifyCsv.c_str());
  return 0;
}

}  // namespace cz::bench
