// table_lookup_write_test.cpp: czi_table_lookup (first match wins, inclusive
// bounds, alltoallv by process count only) and czi_table_write, whose output
// must parse back to the same rules.
#include <cstdio>
#include <cstdlib>
#include <string>

#include <gtest/gtest.h>

#include "parsed_table.h"

namespace cztest {
namespace {

// "name" or "name:param" of the rule lookup finds, "none" without one.
std::string lookup(const czi_table &table, cz_collective coll, int nprocs,
                   long long bytes) {
  const czi_rule *r = czi_table_lookup(&table, coll, nprocs, bytes);
  if (!r) return "none";
  char name[64];
  czi_algorithm_format(r->alg, r->param, name, sizeof name);
  return name;
}

TEST(TableLookup, FirstMatchWins) {
  ParsedTable t(
      "alltoall 8 * pairwise\n"
      "alltoall * 0-1K bruck:4\n"
      "alltoall * * spread_out\n"
      "alltoall 8 * mpi\n"); // never reached: line 1 takes P=8
  ASSERT_EQ(t.rc, MPI_SUCCESS) << t.error;
  EXPECT_EQ(lookup(t.table, CZ_COLL_ALLTOALL, 8, 10), "pairwise");
  EXPECT_EQ(lookup(t.table, CZ_COLL_ALLTOALL, 8, 1 << 20), "pairwise");
  EXPECT_EQ(lookup(t.table, CZ_COLL_ALLTOALL, 4, 10), "bruck:4");
  EXPECT_EQ(lookup(t.table, CZ_COLL_ALLTOALL, 4, 1025), "spread_out");
}

TEST(TableLookup, BoundsAreInclusive) {
  ParsedTable t("allgather 4-8 1K-2K ring\n");
  ASSERT_EQ(t.rc, MPI_SUCCESS) << t.error;
  EXPECT_EQ(lookup(t.table, CZ_COLL_ALLGATHER, 4, 1024), "ring");
  EXPECT_EQ(lookup(t.table, CZ_COLL_ALLGATHER, 8, 2048), "ring");
  EXPECT_EQ(lookup(t.table, CZ_COLL_ALLGATHER, 3, 1024), "none");
  EXPECT_EQ(lookup(t.table, CZ_COLL_ALLGATHER, 9, 1024), "none");
  EXPECT_EQ(lookup(t.table, CZ_COLL_ALLGATHER, 4, 1023), "none");
  EXPECT_EQ(lookup(t.table, CZ_COLL_ALLGATHER, 4, 2049), "none");
}

TEST(TableLookup, CollectivesAreKeptApart) {
  ParsedTable t("allgather * * ring\nbcast * * binomial\n");
  ASSERT_EQ(t.rc, MPI_SUCCESS) << t.error;
  EXPECT_EQ(lookup(t.table, CZ_COLL_ALLTOALL, 4, 8), "none");
  EXPECT_EQ(lookup(t.table, CZ_COLL_ALLGATHER, 4, 8), "ring");
  EXPECT_EQ(lookup(t.table, CZ_COLL_BCAST, 4, 8), "binomial");
  EXPECT_EQ(lookup(t.table, CZ_COLL_ALLTOALLV, 4, 8), "none");
}

TEST(TableLookup, AlltoallvIgnoresBytes) {
  ParsedTable t("alltoallv 2-4 * pairwise\n");
  ASSERT_EQ(t.rc, MPI_SUCCESS) << t.error;
  EXPECT_EQ(lookup(t.table, CZ_COLL_ALLTOALLV, 3, 0), "pairwise");
  EXPECT_EQ(lookup(t.table, CZ_COLL_ALLTOALLV, 3, 1LL << 40), "pairwise");
  EXPECT_EQ(lookup(t.table, CZ_COLL_ALLTOALLV, 5, 0), "none");
  EXPECT_EQ(lookup(t.table, CZ_COLL_ALLTOALLV, 3, -1), "pairwise");
}

// A planned rule may give a byte range (mean bytes per non-empty block, known
// once a plan exists): a call whose sizes are unknown (-1) matches it
// whatever its range; a plan with known sizes matches by range.
TEST(TableLookup, AlltoallvPlannedByteRange) {
  ParsedTable t("alltoallv 8-* 0-1K planned\nalltoallv * * mpi\n");
  ASSERT_EQ(t.rc, MPI_SUCCESS) << t.error;
  EXPECT_EQ(lookup(t.table, CZ_COLL_ALLTOALLV, 8, -1), "planned");
  EXPECT_EQ(lookup(t.table, CZ_COLL_ALLTOALLV, 8, 512), "planned");
  EXPECT_EQ(lookup(t.table, CZ_COLL_ALLTOALLV, 8, 4096), "mpi");
  EXPECT_EQ(lookup(t.table, CZ_COLL_ALLTOALLV, 4, -1), "mpi");
}

TEST(TableLookup, EmptyTableMatchesNothing) {
  ParsedTable t("");
  EXPECT_EQ(lookup(t.table, CZ_COLL_ALLTOALL, 1, 0), "none");
}

std::string written(const czi_table &table) {
  char *text = nullptr;
  size_t size = 0;
  FILE *out = open_memstream(&text, &size);
  czi_table_write(&table, out);
  std::fclose(out);
  std::string result(text, size);
  std::free(text);
  return result;
}

void expectSameRules(const czi_table &a, const czi_table &b) {
  ASSERT_EQ(a.count, b.count);
  for (int i = 0; i < a.count; i++) {
    SCOPED_TRACE("rule " + std::to_string(i));
    EXPECT_EQ(a.rules[i].coll, b.rules[i].coll);
    EXPECT_EQ(a.rules[i].procs_lo, b.rules[i].procs_lo);
    EXPECT_EQ(a.rules[i].procs_hi, b.rules[i].procs_hi);
    EXPECT_EQ(a.rules[i].bytes_lo, b.rules[i].bytes_lo);
    EXPECT_EQ(a.rules[i].bytes_hi, b.rules[i].bytes_hi);
    EXPECT_EQ(a.rules[i].alg, b.rules[i].alg);
    EXPECT_EQ(a.rules[i].param, b.rules[i].param);
  }
}

TEST(TableWrite, RoundTripKeepsEveryRule) {
  ParsedTable original(
      "# comment dropped on output\n"
      "alltoall   8       1024      pairwise\n"
      "alltoall   2-16    0-100     bruck:4\n"
      "alltoall   4-*     1K-4M     bruck\n"
      "alltoall   *       1536-*    spread_out\n"
      "allgather  1-*     0-*       ring\n"
      "allgather  3       2G        recursive_doubling\n"
      "allgather  *       0         gather_bcast\n"
      "bcast      *       64K-1M    scatter_allgather\n"
      "bcast      1       *         binomial\n"
      "alltoallv  *       *         spread_out\n"
      "alltoallv  7-9     *         mpi\n");
  ASSERT_EQ(original.rc, MPI_SUCCESS) << original.error;
  std::string text = written(original.table);
  ParsedTable again(text, "written");
  ASSERT_EQ(again.rc, MPI_SUCCESS) << again.error << "\n" << text;
  expectSameRules(original.table, again.table);
  // Written twice, the text is stable.
  EXPECT_EQ(written(again.table), text);
}

TEST(TableWrite, UsesTheCompactForms) {
  ParsedTable t(
      "alltoall 4-* 1024-4194304 bruck:4\n"
      "bcast 1-* 0-* mpi\n"
      "allgather 5 1536 ring\n"
      "alltoall * * bruck:2\n");
  ASSERT_EQ(t.rc, MPI_SUCCESS) << t.error;
  std::string text = written(t.table);
  EXPECT_NE(text.find("4-*"), std::string::npos) << text;
  EXPECT_NE(text.find("1K-4M"), std::string::npos) << text;
  EXPECT_NE(text.find("bruck:4"), std::string::npos) << text;
  EXPECT_NE(text.find("1536"), std::string::npos) << text;
  // The default radix is not spelled out.
  EXPECT_EQ(text.find("bruck:2"), std::string::npos) << text;
}

TEST(TableWrite, BuiltinTableRoundTrips) {
  ParsedTable builtin(czi_builtin_table_text, "built-in");
  ASSERT_EQ(builtin.rc, MPI_SUCCESS) << builtin.error;
  ParsedTable again(written(builtin.table), "written");
  ASSERT_EQ(again.rc, MPI_SUCCESS) << again.error;
  expectSameRules(builtin.table, again.table);
}

} // namespace
} // namespace cztest
