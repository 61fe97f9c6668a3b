// runner.cpp: one mpirun per process count; parses the worker's lines,
// shows progress on stderr and survives algorithms that crash or hang.
#include "bench/runner.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <sstream>

#include "bench/launch.h"
#include "collectivize/process.h"
#include "collectivize.h"

namespace cz::bench {
namespace {

std::vector<std::string> split(const std::string &s, char sep) {
  std::vector<std::string> parts;
  std::stringstream in(s);
  std::string part;
  while (std::getline(in, part, sep)) parts.push_back(part);
  return parts;
}

int collIndex(const std::string &c) {
  auto &all = allCollectives();
  return int(std::find(all.begin(), all.end(), c) - all.begin());
}

double secondsSince(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

// Fraction of CPU time not idle over a short interval; 0 if unknown.
double busyFraction() {
  auto sample = [](unsigned long long &idle, unsigned long long &total) {
    FILE *f = std::fopen("/proc/stat", "r");
    if (!f) return false;
    unsigned long long v[8] = {0};
    int n = std::fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2],
                        &v[3], &v[4], &v[5], &v[6], &v[7]);
    std::fclose(f);
    if (n < 4) return false;
    idle = v[3] + v[4];  // idle + iowait
    total = 0;
    for (unsigned long long x : v) total += x;
    return true;
  };
  unsigned long long i0, t0, i1, t1;
  if (!sample(i0, t0)) return 0;
  usleep(300000);
  if (!sample(i1, t1) || t1 <= t0) return 0;
  return 1.0 - double(i1 - i0) / double(t1 - t0);
}

}  // namespace

bool algorithmsFor(const std::vector<std::string> &collectives,
                   const std::vector<std::string> &wanted,
                   std::map<std::string, std::vector<std::string>> &out, std::string &err) {
  std::set<std::string> used;
  for (const std::string &coll : collectives) {
    // The registered algorithms, those taking a parameter (NAME:P) apart.
    std::vector<std::string> names;
    std::set<std::string> plain, param;
    cz_algorithm_desc a;
    for (int i = 0; cz_algorithm_info(cz_collective(collIndex(coll)), i, &a) == MPI_SUCCESS; i++) {
      names.push_back(a.name);
      (a.param_name ? param : plain).insert(a.name);
    }
    std::vector<std::string> list{"mpi"};
    auto add = [&](const std::string &name) {
      if (std::find(list.begin(), list.end(), name) == list.end()) list.push_back(name);
    };
    if (wanted.empty()) {
      for (const std::string &n : names) {
        // One process only (on more it is the library's own): asked for by
        // name or not at all.
        if (n == "self") continue;
        add(n);
        // Radix 4 is the usual sweet spot of Bruck's latency/volume trade.
        if (param.count(n) && coll == "alltoall") add(n + ":4");
      }
    } else {
      for (const std::string &w : wanted) {
        std::string base = w.substr(0, w.find(':'));
        bool known = w == "auto" || (w.find(':') == std::string::npos
                                         ? plain.count(w) || param.count(w)
                                         : param.count(base) > 0);
        if (known) add(w), used.insert(w);
      }
    }
    out[coll] = list;
  }
  for (const std::string &w : wanted)
    if (!used.count(w) && w != "mpi") {
      err = "--algorithms: '" + w + "' is not an algorithm of the selected collective(s); see "
            "`collectivize algorithms` (NAME or NAME:R for those listed with [:R], or auto)";
      return false;
    }
  return true;
}

bool runBench(const RunSpec &spec, std::vector<Result> &rows, std::string &err) {
  std::string mpirun = findMpirun(err);
  if (mpirun.empty()) return false;
  std::string worker = findWorker(err);
  if (worker.empty()) return false;
  const BenchOptions &opt = spec.opt;
  bool tty = isatty(2);
  // Other work on the machine shows up as noise in every cell: say so.
  // Measured now (/proc/stat over 0.3 s), not the load average, which still
  // remembers our own previous run.
  double busy = busyFraction();
  if (busy > 0.25)
    std::fprintf(stderr, "%s: warning: the CPUs are %.0f%% busy with other programs; timings "
                 "will be noisy\n", spec.verb.c_str(), busy * 100);
  auto start = std::chrono::steady_clock::now();
  std::string sizes;
  for (long long s : opt.sizes) sizes += (sizes.empty() ? "" : ",") + std::to_string(s);
  int quickDiv = opt.quick ? 10 : 1;
  std::string iters = std::to_string(1000 / quickDiv) + "," + std::to_string(100 / quickDiv);
  size_t measuredAny = 0;

  for (int procs : opt.procs) {
    // Per collective: algorithms still to run and the size to resume from.
    struct Todo { std::vector<std::string> algs; long long from = 0; };
    std::vector<std::pair<std::string, Todo>> todo;
    for (const std::string &c : opt.collectives) todo.push_back({c, {spec.algorithms.at(c), 0}});
    std::set<std::tuple<std::string, long long, std::string>> have;
    auto pStart = std::chrono::steady_clock::now();
    size_t cellsTotal = 0, cellsDone = 0;
    for (auto &[c, t] : todo) cellsTotal += t.algs.size() * opt.sizes.size();
    std::fprintf(stderr, "%s: P=%d: %s (%zu cells)\n", spec.verb.c_str(), procs,
                 [&] { std::string s; for (auto &[c, t] : todo) s += (s.empty() ? "" : " ") + c; return s; }().c_str(),
                 cellsTotal);

    while (!todo.empty()) {
      std::vector<std::string> args;
      for (auto &[c, t] : todo) {
        std::string a = c + "=";
        for (size_t i = 0; i < t.algs.size(); i++) a += (i ? "," : "") + t.algs[i];
        if (t.from > 0) a += "@" + std::to_string(t.from);
        args.push_back("--coll");
        args.push_back(a);
      }
      for (const std::string &a : {std::string("--sizes"), sizes, std::string("--iters"), iters,
                                   std::string("--reps"), std::to_string(opt.reps),
                                   std::string("--max-batch"), std::to_string(opt.maxBatchSeconds)})
        args.push_back(a);
      std::string curColl, curAlg;
      long long curBytes = -1;
      bool inCell = false, done = false, sawAny = false;
      RunOutcome o = runWithWatchdog(
          mpirunCommand(mpirun, procs, worker, args), spec.extraEnv, spec.logPath,
          opt.timeoutSeconds, [&](const std::string &line) {
            std::vector<std::string> f = split(line, '\t');
            if (f.size() == 4 && f[0] == "BEGIN") {
              curColl = f[1], curAlg = f[2], curBytes = std::atoll(f[3].c_str());
              inCell = sawAny = true;
            } else if (f.size() >= 11 && f[0] == "RESULT") {
              inCell = false;
              Result r;
              r.collective = f[1];
              r.procs = std::atoi(f[2].c_str());
              r.bytes = std::atoll(f[3].c_str());
              r.algorithm = f[4];
              r.iters = std::atoi(f[5].c_str());
              r.reps = std::atoi(f[6].c_str());
              r.medianUs = std::atof(f[7].c_str());
              r.minUs = std::atof(f[8].c_str());
              r.maxUs = std::atof(f[9].c_str());
              r.status = f[10];
              r.note = f.size() > 11 ? f[11] : "";
              r.dirtyUs = f.size() > 12 ? std::atof(f[12].c_str()) : 0;
              r.makespanUs = f.size() > 13 ? std::atof(f[13].c_str()) : 0;
              // A restart re-runs the interrupted size: keep the first result.
              if (!have.insert({r.collective, r.bytes, r.algorithm}).second) return;
              rows.push_back(r);
              cellsDone++;
              measuredAny++;
              if (tty)
                std::fprintf(stderr, "\r\033[K%s: P=%d %s %s %s [%zu/%zu] %.1f s", spec.verb.c_str(),
                             procs, r.collective.c_str(), formatBytes(r.bytes).c_str(),
                             r.algorithm.c_str(), cellsDone, cellsTotal, secondsSince(start));
            } else if (line == "DONE") {
              done = true;
            }
          });
      if (tty) std::fprintf(stderr, "\r\033[K");
      if (o.startFailed) {
        err = "cannot start mpirun: " + o.error;
        return false;
      }
      if (done && o.exitCode == 0) break;
      if (!inCell) {
        // Died outside any cell: MPI itself did not start, or MPI_Finalize failed.
        if (done) break;
        err = "mpirun -n " + std::to_string(procs) + " failed (exit " + std::to_string(o.exitCode) +
              ")" + (sawAny ? " between cells" : " before measuring anything") +
              "; its messages (" + spec.logPath + "):\n" +
              cz::process::tailOfFile(spec.logPath, 12, "    ") +
              "  check that `mpirun -n " + std::to_string(procs) +
              " --oversubscribe hostname` works, or set COLLECTIVIZE_MPIRUN";
        return false;
      }
      // An algorithm crashed or hung: record it, skip its larger sizes, and
      // restart the worker from that size without it.
      std::string why = o.timedOut ? "no progress for " + std::to_string(opt.timeoutSeconds) +
                                         " s: killed (deadlock?)"
                                   : "worker died (exit " + std::to_string(o.exitCode) +
                                         "); see " + spec.logPath;
      std::fprintf(stderr, "%s: P=%d %s %s at %s bytes: %s; continuing without it\n",
                   spec.verb.c_str(), procs, curColl.c_str(), curAlg.c_str(),
                   formatBytes(curBytes).c_str(), why.c_str());
      Result r;
      r.collective = curColl, r.procs = procs, r.bytes = curBytes, r.algorithm = curAlg;
      r.status = o.timedOut ? "hung" : "crashed";
      r.note = why;
      rows.push_back(r);
      have.insert({curColl, curBytes, curAlg});
      for (long long s : opt.sizes)
        if (s > curBytes) {
          Result k = r;
          k.bytes = s, k.status = "skipped", k.note = "after " + r.status + " at " + formatBytes(curBytes);
          rows.push_back(k);
          have.insert({curColl, s, curAlg});
        }
      while (!todo.empty() && todo.front().first != curColl) todo.erase(todo.begin());
      if (todo.empty()) break;
      Todo &t = todo.front().second;
      t.algs.erase(std::remove(t.algs.begin(), t.algs.end(), curAlg), t.algs.end());
      t.from = curBytes;
      // Without mpi there is no reference result to check the others against.
      if (t.algs.empty() || curAlg == "mpi") todo.erase(todo.begin());
    }
    std::fprintf(stderr, "%s: P=%d done in %.1f s (total %.1f s)\n", spec.verb.c_str(), procs,
                 secondsSince(pStart), secondsSince(start));
  }
  // Canonical order: collective, procs, bytes, then the algorithms' order
  // (restarts after a crash would otherwise interleave them).
  auto algIndex = [&](const Result &r) {
    auto it = spec.algorithms.find(r.collective);
    if (it == spec.algorithms.end()) return 0;
    return int(std::find(it->second.begin(), it->second.end(), r.algorithm) - it->second.begin());
  };
  std::stable_sort(rows.begin(), rows.end(), [&](const Result &a, const Result &b) {
    return std::make_tuple(collIndex(a.collective), a.procs, a.bytes, algIndex(a)) <
           std::make_tuple(collIndex(b.collective), b.procs, b.bytes, algIndex(b));
  });
  if (measuredAny == 0) {
    err = "nothing was measured; see " + spec.logPath;
    return false;
  }
  return true;
}

}  // namespace cz::bench
