// tune_rules.h: from measured cells to decision-table rules (pure functions).
//
// Choice per measured size: a non-mpi algorithm only when it wins clearly
// AND loses nowhere (clearWin below), in every mode the bench measured:
//  - the clean latency (send data unchanged between calls) and the dirty
//    one (send buffer rewritten before each call) both below
//    (1 - margin) x mpi's, measured in the same run;
//  - its makespan (first rank's start to last rank's return) at most
//    (1 + margin) x mpi's: a makespan is dominated by the ranks' arrival
//    skew, which no algorithm changes, so it must not be worse beyond the
//    noise, but need not be better;
//  - a mode or makespan missing on either side (a bench.csv from before
//    they were measured) is not checked.
// The margin is the noise allowance: pick it from the spread of the same
// code timed twice on the machine (README: runtime/data/decision-table.txt
// says what was used). Among the algorithms that pass, the one with the
// smallest worse ratio of its two latencies wins.
// Without an ok mpi timing at a size nothing can be shown to beat it: mpi.
// A single mpi size between two sizes won by the same algorithm X becomes X
// if X is no slower than mpi there in either latency and its makespan
// passes (fewer rules, still never slower).
//
// Size ranges: a measured size's choice covers the sizes from itself up to
// just below the next measured size (boundaries at the measured sizes, not
// midpoints); the smallest measured size's choice also covers everything
// below it and the largest one's everything above ("LO-*").
//
// Process counts: a measured P's rules cover P up to just below the next
// measured P (the lower measured P's rules are used in between); the smallest
// also covers P below it, the largest everything above.
//
// Several independent runs (`tune --from A --from B ...`, issue 26): a win in
// one launch is not enough, so a non-mpi algorithm takes a size only when
// it clearly wins (clearWin) in every run, each against that run's mpi;
// among those, the smallest worst-over-runs latency ratio wins. A size that
// some run did not time (or timed mpi failing) stays mpi, and one-size gaps
// are not filled. alltoallv: the algorithm every run chose, else mpi.
//
// alltoallv: its rules must use bytes '*', so one algorithm per P: a non-mpi
// algorithm is chosen only when it beats mpi by more than the margin in the
// geometric mean of its per-size ratios AND is no slower than mpi at any
// measured size; otherwise mpi.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "bench/results.h"

namespace cz::bench {

struct SizeChoice {
  long long bytes = 0;
  std::string algorithm;  // "mpi", "bruck:4", ...
  double timeUs = 0, mpiUs = 0;  // 0 when unknown
};

struct SizeRange {
  long long lo = 0, hi = -1;  // inclusive; hi -1 means "*"
  std::string algorithm;
};

// Does r beat mpi (same cell) by more than margin in both latencies, with a
// makespan within the margin? (notSlower: by 0 instead of margin.) Both
// require r.ok() and an ok mpi.
bool clearWin(const Result &r, const Result &mpi, double margin);
bool notSlower(const Result &r, const Result &mpi, double margin);
// The worse of r's clean and dirty latency ratios to mpi (clean alone when
// dirty was not measured on both sides).
double worseLatencyRatio(const Result &r, const Result &mpi);

// The choice at each measured size of one (collective, procs).
std::vector<SizeChoice> chooseBySize(const std::vector<Result> &cell,
                                     double margin);
// One choice for the whole (collective, procs): the alltoallv rule above.
SizeChoice chooseForAllSizes(const std::vector<Result> &cell, double margin);
// The same two over several runs of one (collective, procs) (see above).
std::vector<SizeChoice> chooseBySizeInEveryRun(const std::vector<std::vector<Result>> &runs,
                                               double margin);
SizeChoice chooseForAllSizesInEveryRun(const std::vector<std::vector<Result>> &runs,
                                       double margin);

// Adjacent sizes with the same choice merged into ranges (see header).
std::vector<SizeRange> mergeRanges(const std::vector<SizeChoice> &choices);

struct ProcsRange {
  int lo = 1, hi = -1;  // inclusive; hi -1 means "*"
};
// Measured process counts (sorted) -> the P range each one's rules cover.
std::vector<ProcsRange> procsRanges(const std::vector<int> &measured);

// "2-3", "4", "16-*", "*".
std::string formatProcsRange(const ProcsRange &r);
// "0-1023", "1K-*", "*", "64".
std::string formatBytesRange(long long lo, long long hi);

struct TuneInput {
  std::vector<Result> rows;
  // Further independent runs of the same grid: when present, rows is the
  // first and a choice must hold in every run.
  std::vector<std::vector<Result>> moreRuns;
  double margin = 0.10;
  std::vector<std::string> headerLines;  // written as '# ' comments
};
// The decision-table text: header, rules per collective and P range, and a
// "<coll> * * mpi" fallback per collective.
std::string buildDecisionTable(const TuneInput &in);

}  // namespace cz::bench
