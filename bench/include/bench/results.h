// results.h: one measured cell (collective, procs, bytes, algorithm) and the
// bench.csv reader/writer.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

namespace cz::bench {

struct Result {
  std::string collective;
  int procs = 0;
  long long bytes = 0;  // per block (alltoall/allgather/alltoallv), message (bcast)
  std::string algorithm;
  int iters = 0, reps = 0;
  // Microseconds per call: median over reps of the across-rank average;
  // min/max: smallest/largest per-rank mean seen in any rep.
  double medianUs = 0, minUs = 0, maxUs = 0;
  double ratioToMpi = 0;  // medianUs / mpi's medianUs; 0 when unknown
  // The same calls with the send buffer rewritten before each one (untimed;
  // "dirty", as an application that computes its data), median over reps of
  // the across-rank average; and the makespan, from the first rank's start
  // to the last rank's return of one call after a barrier (median). 0 when
  // not measured (older bench.csv files).
  double dirtyUs = 0, makespanUs = 0;
  // ok | failed (returned an error) | wrong (result differs from mpi's) |
  // crashed (worker died or hung here) | skipped (after a crash)
  std::string status;
  std::string note;  // error message for non-ok rows
  bool ok() const { return status == "ok"; }
};

// Fills ratioToMpi of every ok row that has an ok "mpi" row in its cell.
void computeRatios(std::vector<Result> &rows);

extern const char kCsvHeader[];
void writeCsv(FILE *out, const std::vector<Result> &rows);
bool writeCsvFile(const std::string &path, const std::vector<Result> &rows,
                  std::string &err);
// Reads a bench.csv written by writeCsv (header required; support/csv).
bool readCsvFile(const std::string &path, std::vector<Result> &rows,
                 std::string &err);

}  // namespace cz::bench
