// tune_rules.h: from measured cells to decision-table rules (pure functions).
//
// Choice per measured size: the fastest ok algorithm, but a non-mpi one only
// when it beats mpi by more than the margin (t_alg < (1 - margin) * t_mpi).
// Without an ok mpi timing at a size nothing can be shown to beat it: mpi.
// A single mpi size between two sizes won by the same algorithm X becomes X
// if X is no slower than mpi there (fewer rules, still never slower).
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

// The choice at each measured size of one (collective, procs).
std::vector<SizeChoice> chooseBySize(const std::vector<Result> &cell,
                                     double margin);
// One choice for the whole (collective, procs): the alltoallv rule above.
SizeChoice chooseForAllSizes(const std::vector<Result> &cell, double margin);

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
  double margin = 0.10;
  std::vector<std::string> headerLines;  // written as '# ' comments
};
// The decision-table text: header, rules per collective and P range, and a
// "<coll> * * mpi" fallback per collective.
std::string buildDecisionTable(const TuneInput &in);

}  // namespace cz::bench
