// options.h: command-line options of `collectivize bench` and `tune`, and the
// small parsers behind them (pure functions, unit-testable).
#pragma once

#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace cz::bench {

// The collectives the benchmark knows, in output order.
const std::vector<std::string> &allCollectives();

// "64", "4K", "1M", "2G" -> bytes (powers of 1024). False on junk/overflow.
bool parseBytes(const std::string &text, long long &out);

// "8:1M" -> powers of two from 8 to 1 MiB (both ends must be powers of two);
// "8,100,4K" -> exactly those sizes (sorted, deduplicated); "64" -> {64}.
// Returns false and sets err on bad input.
bool parseSizes(const std::string &text, std::vector<long long> &out,
                std::string &err);

// "2,4,8,16" or "2:16" (powers of two) -> process counts >= 1, sorted.
bool parseProcs(const std::string &text, std::vector<int> &out,
                std::string &err);

// "alltoall", "all", "alltoall,bcast" -> collectives in canonical order.
bool parseCollectives(const std::string &text, std::vector<std::string> &out,
                      std::string &err);

// 1024 -> "1K", 1536 -> "1536", 1048576 -> "1M": the decision-table spelling.
std::string formatBytes(long long bytes);

// Iterations per timed batch: OSU's policy (1000 up to 8 KiB, 100 above),
// divided by 10 with --quick.
int itersForSize(long long bytes, bool quick);

struct BenchOptions {
  std::vector<int> procs{2, 4};
  std::vector<long long> sizes;  // filled with 8:1M unless given
  std::vector<std::string> collectives{"alltoall"};
  std::vector<std::string> algorithms;  // empty: every registered one
  bool quick = false;
  int reps = 0;                  // 0: 3, or 1 with --quick
  double maxBatchSeconds = 1.0;  // cap on one timed batch (iters shrink)
  int timeoutSeconds = 120;      // worker silence before it is killed
  std::string outDir;
};

// Adds the options of `collectivize bench` (which tune shares) to a verb's
// parser (collectivize/verb_options.h); each value is checked as it is
// read, with the parsers above.
void addBenchOptions(CLI::App &app, BenchOptions &opt);
// After parsing: the defaults that depend on what was given (sizes 8:1M;
// 3 reps, 1 with --quick).
void finishBenchOptions(BenchOptions &opt);

}  // namespace cz::bench
