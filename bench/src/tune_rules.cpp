// tune_rules.cpp: measured cells -> decision-table rules. The policy is
// described in bench/tune_rules.h.
#include "bench/tune_rules.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <set>

#include "bench/options.h"

namespace cz::bench {

namespace {

// r's time over mpi's, or 0 when either was not measured.
double ratio(double r, double mpi) { return r > 0 && mpi > 0 ? r / mpi : 0; }

bool passes(const Result &r, const Result &mpi, double latencyLimit, double makespanLimit) {
  if (!r.ok() || !mpi.ok() || mpi.medianUs <= 0) return false;
  const double clean = ratio(r.medianUs, mpi.medianUs);
  const double dirty = ratio(r.dirtyUs, mpi.dirtyUs);
  const double makespan = ratio(r.makespanUs, mpi.makespanUs);
  return clean > 0 && clean <= latencyLimit && dirty <= latencyLimit &&
         makespan <= makespanLimit;
}

}  // namespace

double worseLatencyRatio(const Result &r, const Result &mpi) {
  return std::max(ratio(r.medianUs, mpi.medianUs), ratio(r.dirtyUs, mpi.dirtyUs));
}

bool clearWin(const Result &r, const Result &mpi, double margin) {
  // Strictly below the margin: an exact 0.90 at margin 0.10 is not a win.
  return passes(r, mpi, (1 - margin) * (1 - 1e-9), 1 + margin);
}

bool notSlower(const Result &r, const Result &mpi, double margin) {
  return passes(r, mpi, 1.0, 1 + margin);
}

std::vector<SizeChoice> chooseBySize(const std::vector<Result> &cell, double margin) {
  std::map<long long, SizeChoice> by;
  std::map<long long, Result> mpiAt;
  for (const Result &r : cell) {
    SizeChoice &c = by[r.bytes];
    c.bytes = r.bytes;
    if (r.ok() && r.algorithm == "mpi") c.mpiUs = r.medianUs, mpiAt[r.bytes] = r;
  }
  for (auto &[bytes, c] : by) {
    c.algorithm = "mpi";
    c.timeUs = c.mpiUs;
    if (c.mpiUs <= 0) continue;
    const Result &mpi = mpiAt[bytes];
    double best = 0;
    for (const Result &r : cell) {
      if (r.bytes != bytes || r.algorithm == "mpi" || r.algorithm == "auto") continue;
      if (!clearWin(r, mpi, margin)) continue;
      const double worse = worseLatencyRatio(r, mpi);
      if (c.algorithm == "mpi" || worse < best) {
        c.algorithm = r.algorithm;
        c.timeUs = r.medianUs;
        best = worse;
      }
    }
  }
  std::vector<SizeChoice> out;
  for (auto &[bytes, c] : by) out.push_back(c);
  // Fill one-size gaps: mpi between two sizes won by the same algorithm X
  // becomes X when X is no slower than mpi there (within the margin it just
  // was not clearly faster). Fewer rules, and still never slower than mpi.
  for (size_t i = 1; i + 1 < out.size(); i++) {
    const std::string &x = out[i - 1].algorithm;
    if (out[i].algorithm != "mpi" || x == "mpi" || out[i + 1].algorithm != x) continue;
    for (const Result &r : cell)
      if (r.bytes == out[i].bytes && r.algorithm == x && notSlower(r, mpiAt[r.bytes], margin)) {
        out[i].algorithm = x;
        out[i].timeUs = r.medianUs;
      }
  }
  return out;
}

SizeChoice chooseForAllSizes(const std::vector<Result> &cell, double margin) {
  std::map<long long, double> mpi;
  std::map<long long, Result> mpiAt;
  for (const Result &r : cell)
    if (r.ok() && r.algorithm == "mpi") mpi[r.bytes] = r.medianUs, mpiAt[r.bytes] = r;
  SizeChoice best;
  best.bytes = -1;
  best.algorithm = "mpi";
  for (auto &[bytes, t] : mpi) best.mpiUs += t;
  best.timeUs = best.mpiUs;
  if (mpi.empty()) return best;
  std::set<std::string> names;
  for (const Result &r : cell)
    if (r.algorithm != "mpi" && r.algorithm != "auto") names.insert(r.algorithm);
  double bestGeo = 1 - margin;
  for (const std::string &name : names) {
    double logSum = 0, total = 0;
    size_t n = 0;
    bool slowerSomewhere = false;
    for (const Result &r : cell) {
      if (r.algorithm != name || !r.ok() || !mpi.count(r.bytes)) continue;
      double ratio = r.medianUs / mpi[r.bytes];
      slowerSomewhere |= !notSlower(r, mpiAt[r.bytes], margin);
      logSum += std::log(ratio), total += r.medianUs, n++;
    }
    // It must have run (ok) at every size mpi did, and never lose to mpi.
    if (n != mpi.size() || slowerSomewhere) continue;
    double geo = std::exp(logSum / double(n));
    if (geo < bestGeo) {
      bestGeo = geo;
      best.algorithm = name;
      best.timeUs = total;
    }
  }
  return best;
}

std::vector<SizeChoice> chooseBySizeInEveryRun(const std::vector<std::vector<Result>> &runs,
                                               double margin) {
  if (runs.size() == 1) return chooseBySize(runs[0], margin);
  std::set<long long> sizes;
  for (const std::vector<Result> &run : runs)
    for (const Result &r : run) sizes.insert(r.bytes);
  auto at = [](const std::vector<Result> &run, long long bytes, const std::string &alg) {
    for (const Result &r : run)
      if (r.bytes == bytes && r.algorithm == alg && r.ok()) return &r;
    return static_cast<const Result *>(nullptr);
  };
  std::vector<SizeChoice> out;
  for (long long bytes : sizes) {
    SizeChoice c;
    c.bytes = bytes;
    c.algorithm = "mpi";
    if (const Result *m = at(runs[0], bytes, "mpi")) c.mpiUs = c.timeUs = m->medianUs;
    std::set<std::string> names;
    for (const Result &r : runs[0])
      if (r.bytes == bytes && r.algorithm != "mpi" && r.algorithm != "auto") names.insert(r.algorithm);
    double best = 0;
    for (const std::string &name : names) {
      double worst = 0;
      bool everywhere = true;
      for (const std::vector<Result> &run : runs) {
        const Result *r = at(run, bytes, name), *mpi = at(run, bytes, "mpi");
        if (!r || !mpi || !clearWin(*r, *mpi, margin)) {
          everywhere = false;
          break;
        }
        worst = std::max(worst, worseLatencyRatio(*r, *mpi));
      }
      if (everywhere && (c.algorithm == "mpi" || worst < best)) {
        c.algorithm = name;
        c.timeUs = at(runs[0], bytes, name)->medianUs;
        best = worst;
      }
    }
    out.push_back(c);
  }
  return out;
}

SizeChoice chooseForAllSizesInEveryRun(const std::vector<std::vector<Result>> &runs,
                                       double margin) {
  SizeChoice first = chooseForAllSizes(runs[0], margin);
  for (size_t i = 1; i < runs.size(); i++)
    if (chooseForAllSizes(runs[i], margin).algorithm != first.algorithm) {
      first.algorithm = "mpi";
      first.timeUs = first.mpiUs;
      break;
    }
  return first;
}

std::vector<SizeRange> mergeRanges(const std::vector<SizeChoice> &choices) {
  std::vector<SizeRange> out;
  for (const SizeChoice &c : choices) {
    if (!out.empty() && out.back().algorithm == c.algorithm) continue;
    if (!out.empty()) out.back().hi = c.bytes - 1;  // boundary at the measured size
    out.push_back({out.empty() ? 0 : c.bytes, -1, c.algorithm});
  }
  return out;
}

std::vector<ProcsRange> procsRanges(const std::vector<int> &measured) {
  std::vector<ProcsRange> out;
  for (size_t i = 0; i < measured.size(); i++)
    out.push_back({i == 0 ? 1 : measured[i], i + 1 < measured.size() ? measured[i + 1] - 1 : -1});
  return out;
}

std::string formatProcsRange(const ProcsRange &r) {
  if (r.lo <= 1 && r.hi < 0) return "*";
  if (r.hi < 0) return std::to_string(r.lo) + "-*";
  if (r.lo == r.hi) return std::to_string(r.lo);
  return std::to_string(r.lo) + "-" + std::to_string(r.hi);
}

std::string formatBytesRange(long long lo, long long hi) {
  if (lo <= 0 && hi < 0) return "*";
  if (hi < 0) return formatBytes(lo) + "-*";
  if (lo == hi) return formatBytes(lo);
  return formatBytes(lo) + "-" + formatBytes(hi);
}

std::string buildDecisionTable(const TuneInput &in) {
  std::string text;
  for (const std::string &line : in.headerLines) text += line.empty() ? "#\n" : "# " + line + "\n";
  char buf[256];
  std::vector<const std::vector<Result> *> runs{&in.rows};
  for (const std::vector<Result> &run : in.moreRuns) runs.push_back(&run);
  for (const std::string &coll : allCollectives()) {
    // P -> that cell in each run (the first run's P values are the grid).
    std::map<int, std::vector<std::vector<Result>>> byProcs;
    for (const Result &r : in.rows)
      if (r.collective == coll) byProcs[r.procs].assign(runs.size(), {});
    for (size_t k = 0; k < runs.size(); k++)
      for (const Result &r : *runs[k])
        if (r.collective == coll && byProcs.count(r.procs)) byProcs[r.procs][k].push_back(r);
    if (byProcs.empty()) continue;
    std::vector<int> measured;
    std::vector<std::vector<SizeRange>> rules;
    for (auto &[p, cells] : byProcs) {
      measured.push_back(p);
      if (coll == "alltoallv")
        rules.push_back({{0, -1, chooseForAllSizesInEveryRun(cells, in.margin).algorithm}});
      else
        rules.push_back(mergeRanges(chooseBySizeInEveryRun(cells, in.margin)));
    }
    std::vector<ProcsRange> pr = procsRanges(measured);
    text += "\n# " + coll + ": measured at P =";
    for (int p : measured) text += " " + std::to_string(p);
    text += "\n";
    // One process: a local copy, whatever was measured (the runtime's
    // self). First, so the rules below, whose ranges start at 1, take P >= 2.
    std::snprintf(buf, sizeof buf, "%-10s %-7s %-11s %s\n", coll.c_str(), "1", "*", "self");
    text += buf;
    for (size_t i = 0; i < pr.size(); i++) {
      // Neighbouring P ranges with identical rules become one range.
      ProcsRange range = pr[i];
      while (i + 1 < pr.size() && rules[i + 1].size() == rules[i].size() &&
             std::equal(rules[i].begin(), rules[i].end(), rules[i + 1].begin(),
                        [](const SizeRange &a, const SizeRange &b) {
                          return a.lo == b.lo && a.hi == b.hi && a.algorithm == b.algorithm;
                        })) {
        range.hi = pr[++i].hi;
      }
      for (const SizeRange &s : rules[i]) {
        std::snprintf(buf, sizeof buf, "%-10s %-7s %-11s %s\n", coll.c_str(),
                      formatProcsRange(range).c_str(), formatBytesRange(s.lo, s.hi).c_str(),
                      s.algorithm.c_str());
        text += buf;
      }
    }
    // The fallback, unless the rules above already ended with exactly it.
    std::snprintf(buf, sizeof buf, "%-10s %-7s %-11s %s\n", coll.c_str(), "*", "*", "mpi");
    if (text.size() < std::strlen(buf) || text.compare(text.size() - std::strlen(buf), std::string::npos, buf) != 0)
      text += buf;
  }
  return text;
}

}  // namespace cz::bench
