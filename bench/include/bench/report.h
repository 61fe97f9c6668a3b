// report.h: writing a bench directory (csv, plots, fits) and the summary.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "bench/results.h"

namespace cz::bench {

// bench.csv, bench-<coll>-p<P>.svg, hockney.csv in dir (created if needed).
bool writeBenchDir(const std::string &dir, const std::vector<Result> &rows, std::string &err);

// Per collective and P: each size's mpi time, best algorithm, its ratio to
// mpi; then the algorithms that failed and why.
void printSummary(FILE *out, const std::vector<Result> &rows);

// mkdir -p
bool makeDirs(const std::string &dir, std::string &err);

}  // namespace cz::bench
