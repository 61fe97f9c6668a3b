// bench_verb.cpp: `collectivize bench`.
#include <cstdio>
#include <string>

#include "bench/cli.h"
#include "bench/options.h"
#include "bench/report.h"
#include "bench/results.h"
#include "bench/runner.h"
#include "collectivize/verb_options.h"

namespace cz::bench {

const char kBenchUsage[] =
    "usage: collectivize bench -o DIR [--collective C] [--procs LIST] [--sizes S]\n"
    "                          [--quick] [--reps N] [--algorithms LIST] ...\n\n"
    "Times every algorithm of the runtime beside the MPI library's own collective\n"
    "(\"mpi\"), one `mpirun -n P` per process count, after checking each result\n"
    "against MPI's. Writes DIR/bench.csv, DIR/bench-<collective>-p<P>.svg,\n"
    "DIR/hockney.csv (alpha-beta fits), DIR/worker.log; prints a summary.\n\n"
    "  -o, --output DIR      where the results go (required)\n"
    "  -c, --collective C    alltoall (default), allgather, bcast, alltoallv,\n"
    "                        allreduce, all, or a comma list\n"
    "  -n, --procs LIST      process counts: 2,3,6 or 2:16 (powers of two 2..16);\n"
    "                        default 2,4\n"
    "  --sizes S             bytes per block (alltoall/allgather/alltoallv) or per\n"
    "                        message (bcast, allreduce: MPI_INT sums, MPI_BYTE\n"
    "                        bitwise xor for sizes not a multiple of 4): LO:HI\n"
    "                        powers of two (8:1M, the default)\n"
    "                        or a list (8,100,4K)\n"
    "  --quick               a tenth of the iterations, 1 rep (smoke test)\n"
    "  --reps N              timed batches per cell, median reported (default 3)\n"
    "  --algorithms LIST     only these (NAME, NAME:R, auto = the decision table);\n"
    "                        mpi is always included\n"
    "  --max-batch SEC       shrink iterations so one timed batch stays under SEC\n"
    "                        (default 1)\n"
    "  --timeout SEC         kill an algorithm that makes no progress for SEC\n"
    "                        (default 120)\n\n"
    "Iterations: 1000 per batch up to 8 KiB, 100 above (OSU), /10 with --quick.\n"
    "bench.csv: median_us = median over reps of the mean over ranks of each rank's\n"
    "time per call; min_us/max_us = fastest/slowest rank in any rep; ratio_to_mpi =\n"
    "median_us / mpi's; status ok, failed (returned an error), wrong (result differs\n"
    "from MPI's), crashed, hung, skipped (after crashed/hung): timings only when ok.\n"
    "Environment: COLLECTIVIZE_MPIRUN (mpirun to use), COLLECTIVIZE_BENCH_WORKER.\n";

int benchVerb(int argc, char **argv) {
  BenchOptions opt;
  cz::options::VerbParser parser("collectivize bench", kBenchUsage);
  addBenchOptions(parser.app(), opt);
  if (auto status = parser.parse(cz::options::argsOf(argc, argv))) return *status;
  finishBenchOptions(opt);
  if (opt.outDir.empty())
    return parser.usageError("-o DIR is required (where bench.csv and the plots go)");
  std::string err;
  RunSpec spec;
  if (!algorithmsFor(opt.collectives, opt.algorithms, spec.algorithms, err))
    return parser.usageError(err);
  if (!makeDirs(opt.outDir, err)) {
    std::fprintf(stderr, "collectivize bench: %s\n", err.c_str());
    return 1;
  }
  spec.opt = opt;
  spec.logPath = opt.outDir + "/worker.log";
  std::remove(spec.logPath.c_str());
  // Time the algorithms as named; quiet: a failure is a CSV row, not noise.
  spec.extraEnv = {"COLLECTIVIZE_QUIET=1"};
  std::vector<Result> rows;
  if (!runBench(spec, rows, err)) {
    std::fprintf(stderr, "collectivize bench: %s\n", err.c_str());
    return 1;
  }
  computeRatios(rows);
  if (!writeBenchDir(opt.outDir, rows, err)) {
    std::fprintf(stderr, "collectivize bench: %s\n", err.c_str());
    return 1;
  }
  printSummary(stdout, rows);
  std::printf("\nwrote %s/bench.csv, hockney.csv and bench-*.svg\n", opt.outDir.c_str());
  return 0;
}

}  // namespace cz::bench
