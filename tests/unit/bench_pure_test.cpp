// bench_pure_test.cpp: GoogleTests of the benchmark's pure functions (size
// and process parsing, the Hockney fit, tune's choices, range merging and
// table text). No MPI processes are started.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "bench/hockney_fit.h"
#include "bench/options.h"
#include "collectivize/verb_options.h"
#include "bench/results.h"
#include "bench/svg_plot.h"
#include "bench/tune_rules.h"

using namespace cz::bench;

namespace {
Result row(const std::string &coll, int procs, long long bytes, const std::string &alg, double us,
           const std::string &status = "ok") {
  Result r;
  r.collective = coll, r.procs = procs, r.bytes = bytes, r.algorithm = alg;
  r.medianUs = us, r.status = status;
  return r;
}
}  // namespace

TEST(Options, SizesRangeIsPowersOfTwo) {
  std::vector<long long> s;
  std::string err;
  ASSERT_TRUE(parseSizes("8:1K", s, err));
  EXPECT_EQ(s, (std::vector<long long>{8, 16, 32, 64, 128, 256, 512, 1024}));
  ASSERT_TRUE(parseSizes("1M", s, err));
  EXPECT_EQ(s, (std::vector<long long>{1 << 20}));
  ASSERT_TRUE(parseSizes("4K,100,8,100", s, err));
  EXPECT_EQ(s, (std::vector<long long>{8, 100, 4096}));
  EXPECT_FALSE(parseSizes("7:1K", s, err));
  EXPECT_FALSE(parseSizes("1K:8", s, err));
  EXPECT_FALSE(parseSizes("0", s, err));
  EXPECT_FALSE(parseSizes("12Q", s, err));
  EXPECT_FALSE(parseSizes("", s, err));
}

TEST(Options, ProcsAndCollectives) {
  std::vector<int> p;
  std::string err;
  ASSERT_TRUE(parseProcs("16,2,4,4", p, err));
  EXPECT_EQ(p, (std::vector<int>{2, 4, 16}));
  ASSERT_TRUE(parseProcs("2:16", p, err));
  EXPECT_EQ(p, (std::vector<int>{2, 4, 8, 16}));
  EXPECT_FALSE(parseProcs("0", p, err));
  EXPECT_FALSE(parseProcs("2,x", p, err));
  std::vector<std::string> c;
  ASSERT_TRUE(parseCollectives("bcast,alltoall", c, err));
  EXPECT_EQ(c, (std::vector<std::string>{"alltoall", "bcast"}));
  ASSERT_TRUE(parseCollectives("all", c, err));
  EXPECT_EQ(c, (std::vector<std::string>{"alltoall", "allgather", "bcast", "alltoallv", "allreduce"}));
  EXPECT_FALSE(parseCollectives("reduce", c, err));
}

TEST(Options, BytesAndIters) {
  long long v;
  EXPECT_TRUE(parseBytes("64K", v) && v == 65536);
  EXPECT_FALSE(parseBytes("-1", v));
  EXPECT_EQ(formatBytes(1024), "1K");
  EXPECT_EQ(formatBytes(1536), "1536");
  EXPECT_EQ(formatBytes(3 << 20), "3M");
  EXPECT_EQ(itersForSize(8192, false), 1000);
  EXPECT_EQ(itersForSize(8193, false), 100);
  EXPECT_EQ(itersForSize(8, true), 100);
}

// bench's options through the verbs' parser (collectivize/verb_options.h).
std::optional<int> parseBench(const std::vector<std::string> &args, BenchOptions &opt) {
  cz::options::VerbParser parser("collectivize bench", "usage: collectivize bench\n");
  addBenchOptions(parser.app(), opt);
  auto status = parser.parse(args);
  if (!status) finishBenchOptions(opt);
  return status;
}

TEST(Options, FlagErrorsAreUsageErrors) {
  BenchOptions opt;
  EXPECT_EQ(parseBench({"--procs", "2,4", "--sizes=8:64", "--quick", "-o", "d"}, opt), std::nullopt);
  EXPECT_EQ(opt.procs, (std::vector<int>{2, 4}));
  EXPECT_EQ(opt.sizes.size(), 4u);
  EXPECT_EQ(opt.reps, 1);
  EXPECT_EQ(opt.outDir, "d");
  BenchOptions defaults;
  EXPECT_EQ(parseBench({"-o", "d"}, defaults), std::nullopt);
  EXPECT_EQ(defaults.sizes.size(), 18u); // 8:1M
  EXPECT_EQ(defaults.reps, 3);
  for (std::vector<std::string> bad : {std::vector<std::string>{"--frobnicate"},
                                       {"--procs", "0"}, {"--reps"}, {"--reps", "65"},
                                       {"-o", "a", "--output", "b"}, {"--sizes", "7:1K"}}) {
    BenchOptions o;
    EXPECT_EQ(parseBench(bad, o), 2) << bad[0];
  }
}

TEST(Hockney, RecoversAlphaBeta) {
  std::vector<double> x, y;
  for (double b = 8; b <= 1 << 20; b *= 2) x.push_back(b), y.push_back(3.0 + 0.001 * b);
  HockneyFit f = fitHockney(x, y);
  ASSERT_TRUE(f.valid);
  EXPECT_NEAR(f.alphaUs, 3.0, 1e-9);
  EXPECT_NEAR(f.betaUsPerByte, 0.001, 1e-12);
  EXPECT_NEAR(f.r2, 1.0, 1e-12);
  EXPECT_NEAR(f.gbPerSecond(), 1.0, 1e-9);
  EXPECT_FALSE(fitHockney({8}, {1.0}).valid);
  EXPECT_FALSE(fitHockney({8, 8}, {1.0, 2.0}).valid);
}

TEST(Tune, MarginKeepsMpiUnlessClearlyFaster) {
  std::vector<Result> cell{row("alltoall", 4, 8, "mpi", 10), row("alltoall", 4, 8, "bruck", 9.5),
                           row("alltoall", 4, 16, "mpi", 10), row("alltoall", 4, 16, "bruck", 8),
                           row("alltoall", 4, 16, "pairwise", 7),
                           row("alltoall", 4, 32, "mpi", 10),
                           row("alltoall", 4, 32, "bruck", 1, "wrong")};
  std::vector<SizeChoice> c = chooseBySize(cell, 0.10);
  ASSERT_EQ(c.size(), 3u);
  EXPECT_EQ(c[0].algorithm, "mpi");       // 5% is inside the margin
  EXPECT_EQ(c[1].algorithm, "pairwise");  // fastest of those beyond it
  EXPECT_EQ(c[2].algorithm, "mpi");       // a wrong result never wins
}

TEST(Tune, OneSizeGapsAreFilledWhenNotSlower) {
  std::vector<Result> cell{row("alltoall", 2, 8, "mpi", 10),  row("alltoall", 2, 8, "pairwise", 8),
                           row("alltoall", 2, 16, "mpi", 10), row("alltoall", 2, 16, "pairwise", 9.5),
                           row("alltoall", 2, 32, "mpi", 10), row("alltoall", 2, 32, "pairwise", 8),
                           row("alltoall", 2, 64, "mpi", 10), row("alltoall", 2, 64, "pairwise", 10.5),
                           row("alltoall", 2, 128, "mpi", 10), row("alltoall", 2, 128, "pairwise", 8)};
  std::vector<SizeChoice> c = chooseBySize(cell, 0.10);
  ASSERT_EQ(c.size(), 5u);
  EXPECT_EQ(c[1].algorithm, "pairwise");  // 0.95: within the margin, but no slower
  EXPECT_EQ(c[3].algorithm, "mpi");       // 1.05: slower, the gap stays
}

// Clean, dirty and makespan microseconds of one row.
Result modes(long long bytes, const std::string &alg, double clean, double dirty,
             double makespan) {
  Result r = row("alltoall", 8, bytes, alg, clean);
  r.dirtyUs = dirty, r.makespanUs = makespan;
  return r;
}

TEST(Tune, AWinMustHoldDirtyAndNotCostMakespan) {
  std::vector<Result> cell{
      modes(8, "mpi", 10, 10, 100), modes(8, "shm_pull", 5, 12, 100),    // loses dirty
      modes(16, "mpi", 10, 10, 100), modes(16, "shm_pull", 5, 5, 125),   // makespan +25%
      modes(32, "mpi", 10, 10, 100), modes(32, "shm_pull", 5, 8, 105),   // wins, makespan noise
      modes(32, "shm_push", 4, 8.5, 100),                                 // worse dirty ratio
      modes(64, "mpi", 10, 0, 0), modes(64, "shm_pull", 5, 0, 0)};      // modes not measured
  std::vector<SizeChoice> c = chooseBySize(cell, 0.10);
  ASSERT_EQ(c.size(), 4u);
  EXPECT_EQ(c[0].algorithm, "mpi");
  EXPECT_EQ(c[1].algorithm, "mpi");
  EXPECT_EQ(c[2].algorithm, "shm_pull");  // worse ratio 0.80 against shm_push's 0.85
  EXPECT_EQ(c[3].algorithm, "shm_pull");  // an older bench.csv: clean latency only
  EXPECT_FALSE(clearWin(modes(8, "x", 9.5, 5, 100), modes(8, "mpi", 10, 10, 100), 0.10));
  EXPECT_TRUE(notSlower(modes(8, "x", 10, 9, 109), modes(8, "mpi", 10, 10, 100), 0.10));
  EXPECT_FALSE(notSlower(modes(8, "x", 10, 10.1, 100), modes(8, "mpi", 10, 10, 100), 0.10));
}

TEST(Tune, CsvKeepsDirtyAndMakespan) {
  std::vector<Result> rows{modes(8, "mpi", 10, 11, 120)};
  char path[] = "/tmp/cz-bench-csv-XXXXXX";
  int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  close(fd);
  std::string err;
  ASSERT_TRUE(writeCsvFile(path, rows, err)) << err;
  std::vector<Result> back;
  ASSERT_TRUE(readCsvFile(path, back, err)) << err;
  unlink(path);
  ASSERT_EQ(back.size(), 1u);
  EXPECT_DOUBLE_EQ(back[0].dirtyUs, 11);
  EXPECT_DOUBLE_EQ(back[0].makespanUs, 120);
}

TEST(Tune, RangesBreakAtMeasuredSizes) {
  std::vector<SizeChoice> c{{8, "bruck", 0, 0}, {16, "bruck", 0, 0}, {32, "mpi", 0, 0},
                            {64, "mpi", 0, 0}, {128, "pairwise", 0, 0}};
  std::vector<SizeRange> r = mergeRanges(c);
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(formatBytesRange(r[0].lo, r[0].hi), "0-31");
  EXPECT_EQ(r[0].algorithm, "bruck");
  EXPECT_EQ(formatBytesRange(r[1].lo, r[1].hi), "32-127");
  EXPECT_EQ(formatBytesRange(r[2].lo, r[2].hi), "128-*");
  EXPECT_EQ(formatBytesRange(0, -1), "*");
}

TEST(Tune, ProcsRangesUseLowerMeasuredP) {
  std::vector<ProcsRange> r = procsRanges({2, 4, 16});
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(formatProcsRange(r[0]), "1-3");
  EXPECT_EQ(formatProcsRange(r[1]), "4-15");
  EXPECT_EQ(formatProcsRange(r[2]), "16-*");
  EXPECT_EQ(formatProcsRange(procsRanges({4})[0]), "*");
}

TEST(Tune, AlltoallvNeedsToWinEverywhere) {
  std::vector<Result> cell{row("alltoallv", 4, 8, "mpi", 10), row("alltoallv", 4, 8, "spread_out", 5),
                           row("alltoallv", 4, 16, "mpi", 10),
                           row("alltoallv", 4, 16, "spread_out", 11),
                           row("alltoallv", 4, 8, "pairwise", 8), row("alltoallv", 4, 16, "pairwise", 9)};
  EXPECT_EQ(chooseForAllSizes(cell, 0.10).algorithm, "pairwise");  // spread_out loses at 16
  EXPECT_EQ(chooseForAllSizes(cell, 0.20).algorithm, "mpi");       // geomean 0.85 > 0.80
}

TEST(Tune, TableTextHasFallbacksAndStarBytesForAlltoallv) {
  TuneInput in;
  in.rows = {row("alltoall", 2, 8, "mpi", 10), row("alltoall", 2, 8, "bruck", 5),
             row("alltoall", 2, 16, "mpi", 10), row("alltoall", 2, 16, "bruck", 12),
             row("alltoallv", 2, 8, "mpi", 10), row("alltoallv", 2, 8, "pairwise", 5)};
  in.headerLines = {"test"};
  std::string t = buildDecisionTable(in);
  EXPECT_NE(t.find("# test\n"), std::string::npos);
  EXPECT_NE(t.find("alltoall   *       0-15        bruck\n"), std::string::npos) << t;
  EXPECT_NE(t.find("alltoall   *       16-*        mpi\n"), std::string::npos) << t;
  EXPECT_NE(t.find("alltoall   *       *           mpi\n"), std::string::npos) << t;
  EXPECT_NE(t.find("alltoallv  *       *           pairwise\n"), std::string::npos) << t;
}

// Issue 26: a win must hold in every independent run, each against its
// own run's mpi.
TEST(Tune, SeveralRunsKeepOnlyWinsOfEveryRun) {
  std::vector<Result> a{row("alltoall", 4, 8, "mpi", 10),  row("alltoall", 4, 8, "shm_pull", 5),
                        row("alltoall", 4, 16, "mpi", 10), row("alltoall", 4, 16, "shm_pull", 5),
                        row("alltoall", 4, 16, "shm_push", 6),
                        row("alltoall", 4, 32, "mpi", 10), row("alltoall", 4, 32, "shm_pull", 5)};
  std::vector<Result> b{row("alltoall", 4, 8, "mpi", 20),  row("alltoall", 4, 8, "shm_pull", 12),
                        row("alltoall", 4, 16, "mpi", 10), row("alltoall", 4, 16, "shm_pull", 9.5),
                        row("alltoall", 4, 16, "shm_push", 7),
                        row("alltoall", 4, 32, "mpi", 10)};  // shm_pull not timed here
  std::vector<SizeChoice> c = chooseBySizeInEveryRun({a, b}, 0.10);
  ASSERT_EQ(c.size(), 3u);
  EXPECT_EQ(c[0].algorithm, "shm_pull");  // 0.5 and 0.6: wins in both
  EXPECT_EQ(c[1].algorithm, "shm_push");  // shm_pull's 0.95 in run b is no win
  EXPECT_EQ(c[2].algorithm, "mpi");       // run b has no evidence
  EXPECT_EQ(chooseBySizeInEveryRun({a}, 0.10)[2].algorithm, "shm_pull");  // one run: as before

  std::vector<Result> va{row("alltoallv", 4, 8, "mpi", 10), row("alltoallv", 4, 8, "pairwise", 5)};
  std::vector<Result> vb{row("alltoallv", 4, 8, "mpi", 10), row("alltoallv", 4, 8, "pairwise", 11)};
  EXPECT_EQ(chooseForAllSizesInEveryRun({va, va}, 0.10).algorithm, "pairwise");
  EXPECT_EQ(chooseForAllSizesInEveryRun({va, vb}, 0.10).algorithm, "mpi");

  TuneInput in;
  in.rows = a;
  in.moreRuns = {b};
  std::string t = buildDecisionTable(in);
  EXPECT_NE(t.find("alltoall   *       0-15        shm_pull\n"), std::string::npos) << t;
  EXPECT_NE(t.find("alltoall   *       16-31       shm_push\n"), std::string::npos) << t;
  EXPECT_NE(t.find("alltoall   *       32-*        mpi\n"), std::string::npos) << t;
}

// bench.csv through support/csv: a note with ',' and '"' comes back whole,
// and a damaged file is refused with the line and column where it breaks.
TEST(Csv, BenchCsvQuotesNotesAndRefusesBadLines) {
  Result r = modes(8, "mpi", 10, 11, 120);
  r.status = "failed";
  r.note = "PMPI_Send failed: \"bad\", rank 3";
  char path[] = "/tmp/cz-bench-csv-XXXXXX";
  int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  close(fd);
  std::string err;
  ASSERT_TRUE(writeCsvFile(path, {r}, err)) << err;
  std::vector<Result> back;
  ASSERT_TRUE(readCsvFile(path, back, err)) << err;
  ASSERT_EQ(back.size(), 1u);
  EXPECT_EQ(back[0].note, r.note);
  EXPECT_EQ(back[0].status, "failed");

  FILE *f = std::fopen(path, "a");
  ASSERT_NE(f, nullptr);
  std::fprintf(f, "alltoall,4,8,\"mpi,1,1,1,1,1,,ok\n");
  std::fclose(f);
  back.clear();
  EXPECT_FALSE(readCsvFile(path, back, err));
  unlink(path);
  EXPECT_NE(err.find(std::string(path) + ": line 3, column 14: a quoted field is not closed"),
            std::string::npos)
      << err;
}

TEST(Svg, PlotNamesAlgorithmsAndAxes) {
  std::vector<Result> rows{row("bcast", 4, 8, "mpi", 2), row("bcast", 4, 1024, "mpi", 20),
                           row("bcast", 4, 8, "binomial", 1), row("bcast", 4, 1024, "binomial", 30)};
  std::string svg = renderPlot(rows, "bcast", 4);
  EXPECT_NE(svg.find("<svg"), std::string::npos);
  EXPECT_NE(svg.find("binomial"), std::string::npos);
  EXPECT_NE(svg.find("mpi (MPI library)"), std::string::npos);
  EXPECT_NE(svg.find("message size (bytes)"), std::string::npos);
  EXPECT_EQ(plotFileName("bcast", 4), "bench-bcast-p4.svg");
}
