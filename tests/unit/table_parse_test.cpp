// table_parse_test.cpp: what a valid decision table means: ranges, suffixes,
// comments, whitespace, and the line numbers rules remember.
#include <climits>
#include <cstring>

#include <gtest/gtest.h>

#include "parsed_table.h"

namespace cztest {
namespace {

constexpr long long kUnbounded = LLONG_MAX;

TEST(TableParse, SingleValues) {
  ParsedTable t("alltoall 8 1024 pairwise\n");
  ASSERT_EQ(t.rc, MPI_SUCCESS) << t.error;
  ASSERT_EQ(t.table.count, 1);
  const czi_rule &r = t.rule(0);
  EXPECT_EQ(r.coll, CZ_COLL_ALLTOALL);
  EXPECT_EQ(r.procs_lo, 8);
  EXPECT_EQ(r.procs_hi, 8);
  EXPECT_EQ(r.bytes_lo, 1024);
  EXPECT_EQ(r.bytes_hi, 1024);
  EXPECT_STREQ(r.alg->name, "pairwise");
  EXPECT_EQ(r.line, 1);
}

TEST(TableParse, RangesAndWildcards) {
  ParsedTable t(
      "alltoall 2-16 0-100 mpi\n"
      "allgather 4-* 7-* ring\n"
      "bcast * * binomial\n");
  ASSERT_EQ(t.rc, MPI_SUCCESS) << t.error;
  ASSERT_EQ(t.table.count, 3);
  EXPECT_EQ(t.rule(0).procs_lo, 2);
  EXPECT_EQ(t.rule(0).procs_hi, 16);
  EXPECT_EQ(t.rule(0).bytes_lo, 0);
  EXPECT_EQ(t.rule(0).bytes_hi, 100);
  EXPECT_EQ(t.rule(1).procs_lo, 4);
  EXPECT_EQ(t.rule(1).procs_hi, INT_MAX);
  EXPECT_EQ(t.rule(1).bytes_lo, 7);
  EXPECT_EQ(t.rule(1).bytes_hi, kUnbounded);
  // "*" processes means one or more: there is no zero-process call.
  EXPECT_EQ(t.rule(2).procs_lo, 1);
  EXPECT_EQ(t.rule(2).procs_hi, INT_MAX);
  EXPECT_EQ(t.rule(2).bytes_lo, 0);
  EXPECT_EQ(t.rule(2).bytes_hi, kUnbounded);
}

TEST(TableParse, ByteSuffixesArePowersOf1024) {
  ParsedTable t(
      "alltoall * 1K-4M mpi\n"
      "alltoall * 2G mpi\n"
      "alltoall * 3k-5m mpi\n"
      "alltoall * 0-1g mpi\n");
  ASSERT_EQ(t.rc, MPI_SUCCESS) << t.error;
  EXPECT_EQ(t.rule(0).bytes_lo, 1024);
  EXPECT_EQ(t.rule(0).bytes_hi, 4LL << 20);
  EXPECT_EQ(t.rule(1).bytes_lo, 2LL << 30);
  EXPECT_EQ(t.rule(1).bytes_hi, 2LL << 30);
  EXPECT_EQ(t.rule(2).bytes_lo, 3LL << 10);
  EXPECT_EQ(t.rule(2).bytes_hi, 5LL << 20);
  EXPECT_EQ(t.rule(3).bytes_hi, 1LL << 30);
}

TEST(TableParse, AlgorithmParameters) {
  ParsedTable t(
      "alltoall * * bruck\n"
      "alltoall * * bruck:4\n"
      "alltoall * * bruck:2\n");
  ASSERT_EQ(t.rc, MPI_SUCCESS) << t.error;
  EXPECT_EQ(t.rule(0).param, 2); // the registry's default radix
  EXPECT_EQ(t.rule(1).param, 4);
  EXPECT_EQ(t.rule(2).param, 2);
}

TEST(TableParse, CommentsBlankLinesAndWhitespace) {
  ParsedTable t(
      "# a comment line\n"
      "\n"
      "   \t  \n"
      "alltoall\t8\t64\tpairwise   # trailing comment\n"
      "  bcast   *   *   mpi\r\n"
      "#alltoall * * bruck\n"
      "allgather * * ring"); // no final newline
  ASSERT_EQ(t.rc, MPI_SUCCESS) << t.error;
  ASSERT_EQ(t.table.count, 3);
  EXPECT_EQ(t.rule(0).line, 4);
  EXPECT_EQ(t.rule(1).line, 5);
  EXPECT_EQ(t.rule(1).coll, CZ_COLL_BCAST);
  EXPECT_EQ(t.rule(2).line, 7);
  EXPECT_STREQ(t.rule(2).alg->name, "ring");
}

TEST(TableParse, EmptyTextIsAnEmptyTable) {
  ParsedTable t("");
  ASSERT_EQ(t.rc, MPI_SUCCESS) << t.error;
  EXPECT_EQ(t.table.count, 0);
  ParsedTable comments("# nothing but\n# comments\n");
  ASSERT_EQ(comments.rc, MPI_SUCCESS) << comments.error;
  EXPECT_EQ(comments.table.count, 0);
}

TEST(TableParse, SourceIsRemembered) {
  ParsedTable t("alltoall * * mpi\n", "my-tuning.txt");
  ASSERT_EQ(t.rc, MPI_SUCCESS) << t.error;
  EXPECT_STREQ(t.table.source, "my-tuning.txt");
}

TEST(TableParse, ManyRulesGrowTheTable) {
  std::string text;
  for (int p = 1; p <= 100; p++)
    text += "alltoall " + std::to_string(p) + " * pairwise\n";
  ParsedTable t(text);
  ASSERT_EQ(t.rc, MPI_SUCCESS) << t.error;
  ASSERT_EQ(t.table.count, 100);
  EXPECT_EQ(t.rule(99).procs_lo, 100);
  EXPECT_EQ(t.rule(99).line, 100);
}

TEST(TableParse, BuiltinTableParses) {
  ParsedTable t(czi_builtin_table_text, "built-in");
  EXPECT_EQ(t.rc, MPI_SUCCESS) << t.error;
  // Every collective has a rule that covers it (falls back to "mpi" otherwise).
  for (int c = 0; c < CZ_COLL_COUNT; c++)
    EXPECT_NE(czi_table_lookup(&t.table, static_cast<cz_collective>(c), 4, 1024), nullptr)
        << cz_collective_name(static_cast<cz_collective>(c));
}

} // namespace
} // namespace cztest
