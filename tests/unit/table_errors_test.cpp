// table_errors_test.cpp: a bad decision table is rejected with
// "SOURCE:LINE: problem", and nothing of it is kept.
#include <cstring>

#include <gtest/gtest.h>

#include "parsed_table.h"

namespace cztest {
namespace {

// Line 1 and 2 are fine; line 3 carries the problem.
std::string withBadThirdLine(const std::string &bad) {
  return "# header comment\nalltoall * * pairwise\n" + bad + "\n";
}

struct BadLine {
  const char *line;
  const char *problem; // expected part of the message
};

class TableErrors : public ::testing::TestWithParam<BadLine> {};

TEST_P(TableErrors, NamesSourceLineAndProblem) {
  ParsedTable t(withBadThirdLine(GetParam().line), "tuning.txt");
  EXPECT_EQ(t.rc, MPI_ERR_ARG);
  EXPECT_EQ(t.error.rfind("tuning.txt:3: ", 0), 0u) << t.error;
  EXPECT_NE(t.error.find(GetParam().problem), std::string::npos) << t.error;
  // Nothing of a rejected table survives, not even its valid lines.
  EXPECT_EQ(t.table.count, 0);
  EXPECT_EQ(t.table.rules, nullptr);
}

INSTANTIATE_TEST_SUITE_P(
    Problems, TableErrors,
    ::testing::Values(
        BadLine{"reduce * * mpi", "unknown collective 'reduce'"},
        BadLine{"Alltoall * * mpi", "unknown collective 'Alltoall'"},
        BadLine{"alltoall * * nonesuch", "'nonesuch' is not an alltoall algorithm"},
        BadLine{"alltoall * * nonesuch", "bruck[:R] spread_out pairwise shm_push shm_pull shm_flag_push shm_flag_pull self mpi"},
        BadLine{"bcast * * ring", "'ring' is not a bcast algorithm"},
        BadLine{"alltoall * * bruck:1", "radix of 'bruck' must be an integer in 2..1048576"},
        BadLine{"alltoall * * bruck:0", "radix"},
        BadLine{"alltoall * * bruck:99999999", "radix"},
        BadLine{"alltoall * * bruck:x", "radix"},
        BadLine{"alltoall * * bruck:", "radix"},
        BadLine{"alltoall * * mpi:2", "takes no parameter"},
        BadLine{"alltoallv * 1K mpi", "alltoallv rules must use '*' for bytes"},
        BadLine{"alltoallv * 0-* mpi", "alltoallv rules must use '*' for bytes"},
        BadLine{"alltoallv * 1K two_phase", "unless the algorithm is planned"},
        // self is a local copy: on more processes it would be mpi unsaid.
        BadLine{"alltoall * * self", "self is for one process: its rule must say 1 for procs (got '*')"},
        BadLine{"bcast 1-2 * self", "self is for one process"},
        BadLine{"allreduce 2 8 self", "self is for one process"},
        BadLine{"alltoall 16-8 * mpi", "process range '16-8' ends before it starts"},
        BadLine{"alltoall * 4K-1K mpi", "byte range '4K-1K' ends before it starts"},
        BadLine{"alltoall 0 * mpi", "bad process range '0'"},
        BadLine{"alltoall 0-4 * mpi", "bad process range '0-4'"},
        BadLine{"alltoall x * mpi", "bad process range 'x'"},
        BadLine{"alltoall 4K * mpi", "bad process range '4K'"}, // no suffixes on procs
        BadLine{"alltoall -3 * mpi", "bad process range '-3'"},
        BadLine{"alltoall 99999999999 * mpi", "bad process range"},
        // A start beyond int with an open end (a fuzz finding: it wrapped to a
        // negative count that the table then wrote and could not read back).
        BadLine{"alltoall 21414836482-* * mpi", "bad process range '21414836482-*'"},
        BadLine{"alltoall * 12Q mpi", "bad byte range '12Q'"},
        BadLine{"alltoall * 1KB mpi", "bad byte range '1KB'"},
        BadLine{"alltoall * -5 mpi", "bad byte range '-5'"},
        BadLine{"alltoall * 99999999999999999999 mpi", "bad byte range"},
        BadLine{"alltoall * 9999999999G mpi", "bad byte range"}, // overflows
        BadLine{"hello world", "expected 4 fields"},
        BadLine{"alltoall * mpi", "found 3"},
        BadLine{"alltoall * * mpi extra", "found more than 4"},
        BadLine{"garbage", "found 1"}));

TEST(TableErrorsLines, CountsCommentAndBlankLines) {
  ParsedTable t("\n# one\n\n# two\nalltoall * * mpi\n\nbogus line\n", "f.txt");
  EXPECT_EQ(t.rc, MPI_ERR_ARG);
  EXPECT_EQ(t.error.rfind("f.txt:7: ", 0), 0u) << t.error;
}

TEST(TableErrorsLines, FirstBadLineIsReported) {
  ParsedTable t("alltoall * * bogus1\nalltoall * * bogus2\n", "f.txt");
  EXPECT_EQ(t.error.rfind("f.txt:1: ", 0), 0u) << t.error;
}

TEST(TableErrorsLines, OverlongLine) {
  ParsedTable t("alltoall * * mpi\n# " + std::string(2000, 'x') + "\n", "f.txt");
  EXPECT_EQ(t.rc, MPI_ERR_ARG);
  EXPECT_EQ(t.error.rfind("f.txt:2: ", 0), 0u) << t.error;
  EXPECT_NE(t.error.find("longer than"), std::string::npos) << t.error;
}

// The message is cut to the caller's buffer, still terminated.
TEST(TableErrorsLines, ShortMessageBufferIsTruncated) {
  czi_table table;
  char small[8];
  EXPECT_EQ(czi_table_parse("bogus\n", "a-long-source-name.txt", &table, small,
                            sizeof small),
            MPI_ERR_ARG);
  EXPECT_EQ(std::strlen(small), sizeof small - 1);
}

} // namespace
} // namespace cztest
