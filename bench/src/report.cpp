// report.cpp: the files of a bench directory and the stdout summary.
#include "bench/report.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <tuple>

#include "bench/hockney_fit.h"
#include "bench/options.h"
#include "bench/svg_plot.h"

namespace cz::bench {

bool makeDirs(const std::string &dir, std::string &err) {
  for (size_t pos = 1; pos <= dir.size(); pos++) {
    if (pos != dir.size() && dir[pos] != '/') continue;
    std::string part = dir.substr(0, pos);
    if (mkdir(part.c_str(), 0755) != 0 && errno != EEXIST) {
      err = "cannot create " + part + ": " + std::strerror(errno);
      return false;
    }
  }
  return true;
}

bool writeBenchDir(const std::string &dir, const std::vector<Result> &rows, std::string &err) {
  if (!makeDirs(dir, err)) return false;
  if (!writeCsvFile(dir + "/bench.csv", rows, err)) return false;
  std::set<std::pair<std::string, int>> cells;
  for (const Result &r : rows) cells.insert({r.collective, r.procs});
  for (auto &[coll, procs] : cells) {
    std::string path = dir + "/" + plotFileName(coll, procs);
    std::ofstream out(path);
    out << renderPlot(rows, coll, procs);
    if (!out) {
      err = "cannot write " + path;
      return false;
    }
  }
  return writeHockneyCsv(dir + "/hockney.csv", fitAll(rows), err);
}

void printSummary(FILE *out, const std::vector<Result> &rows) {
  // Keep the collective order of the rows (canonical), procs ascending.
  std::vector<std::pair<std::string, int>> cells;
  for (const Result &r : rows)
    if (cells.empty() || cells.back() != std::make_pair(r.collective, r.procs))
      cells.push_back({r.collective, r.procs});
  for (auto &[coll, procs] : cells) {
    std::fprintf(out, "\n%s, P=%d  (us per call; ratio = best / mpi, < 1 is faster than MPI)\n",
                 coll.c_str(), procs);
    std::fprintf(out, "  %8s %11s  %-20s %11s %7s\n", "bytes", "mpi", "best", "best_us", "ratio");
    std::map<long long, std::vector<const Result *>> bySize;
    std::map<std::string, std::pair<int, std::string>> problems;  // alg -> count, first note
    for (const Result &r : rows) {
      if (r.collective != coll || r.procs != procs) continue;
      bySize[r.bytes].push_back(&r);
      if (!r.ok() && r.status != "skipped") {
        auto &p = problems[r.algorithm + " (" + r.status + ")"];
        if (p.first++ == 0) p.second = r.note;
      }
    }
    for (auto &[bytes, list] : bySize) {
      const Result *mpi = nullptr, *best = nullptr;
      for (const Result *r : list) {
        if (!r->ok()) continue;
        if (r->algorithm == "mpi") mpi = r;
        if (!best || r->medianUs < best->medianUs) best = r;
      }
      char mpiText[32] = "-", bestText[32] = "-", ratio[32] = "-";
      if (mpi) std::snprintf(mpiText, sizeof mpiText, "%.2f", mpi->medianUs);
      if (best) std::snprintf(bestText, sizeof bestText, "%.2f", best->medianUs);
      if (best && mpi) std::snprintf(ratio, sizeof ratio, "%.2f", best->medianUs / mpi->medianUs);
      std::fprintf(out, "  %8s %11s  %-20s %11s %7s\n", formatBytes(bytes).c_str(), mpiText,
                   best ? best->algorithm.c_str() : "(none ok)", bestText, ratio);
    }
    for (auto &[what, p] : problems)
      std::fprintf(out, "  not timed: %s at %d size(s): %s\n", what.c_str(), p.first,
                   p.second.c_str());
  }
}

}  // namespace cz::bench
