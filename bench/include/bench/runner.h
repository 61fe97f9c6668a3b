// runner.h: running the worker for every process count and collecting rows.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "bench/options.h"
#include "bench/results.h"

namespace cz::bench {

// The algorithms to time per collective: every registered name (the
// registry's entries, cz_algorithm_info; alltoall's parameterised bruck as
// bruck plus bruck:4), or those of `wanted`
// that the collective knows ("auto" = the decision table's choice). "mpi" is
// always included, first, for the side-by-side ratio. Errors (a name no
// selected collective knows) go to err.
bool algorithmsFor(const std::vector<std::string> &collectives,
                   const std::vector<std::string> &wanted,
                   std::map<std::string, std::vector<std::string>> &out, std::string &err);

struct RunSpec {
  BenchOptions opt;
  std::map<std::string, std::vector<std::string>> algorithms;  // per collective
  std::vector<std::string> extraEnv;  // "NAME=value" for the worker
  std::string logPath;                // the worker's stderr goes here
  std::string verb = "bench";         // progress prefix
};

// Runs every P; a crashing or hanging algorithm is recorded (crashed, then
// skipped at larger sizes) and the worker restarted without it. Returns
// false only when nothing could be measured (err says what to do).
bool runBench(const RunSpec &spec, std::vector<Result> &rows, std::string &err);

}  // namespace cz::bench
