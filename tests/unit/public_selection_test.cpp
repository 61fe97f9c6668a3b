// public_selection_test.cpp: the local (no MPI_Init) public functions:
// cz_selected_algorithm, cz_decision_table_check, cz_version.
#include <cstdio>
#include <cstring>
#include <string>

#include <gtest/gtest.h>

#include "collectivize.h"

namespace cztest {
namespace {

const std::string kInputs = CZ_UNIT_INPUTS;

TEST(Version, MatchesTheHeader) {
  char expected[32];
  std::snprintf(expected, sizeof expected, "%d.%d.%d", CZ_VERSION_MAJOR,
                CZ_VERSION_MINOR, CZ_VERSION_PATCH);
  EXPECT_STREQ(cz_version(), expected);
}

TEST(SelectedAlgorithm, BuiltinTableAnswersEveryCollective) {
  for (int c = 0; c < CZ_COLL_COUNT; c++) {
    char name[64] = "";
    EXPECT_EQ(cz_selected_algorithm(static_cast<cz_collective>(c), 4, 1024, name,
                                    sizeof name),
              MPI_SUCCESS) << cz_last_error();
    EXPECT_NE(name[0], '\0');
  }
}

TEST(SelectedAlgorithm, BadArguments) {
  char name[64];
  EXPECT_EQ(cz_selected_algorithm(CZ_COLL_COUNT, 4, 8, name, sizeof name), MPI_ERR_ARG);
  EXPECT_EQ(cz_selected_algorithm(CZ_COLL_ALLTOALL, 0, 8, name, sizeof name), MPI_ERR_ARG);
  EXPECT_NE(std::string(cz_last_error()).find("nprocs"), std::string::npos) << cz_last_error();
  EXPECT_EQ(cz_selected_algorithm(CZ_COLL_ALLTOALL, 4, -1, name, sizeof name), MPI_ERR_ARG);
  EXPECT_NE(std::string(cz_last_error()).find("bytes"), std::string::npos) << cz_last_error();
  EXPECT_EQ(cz_selected_algorithm(CZ_COLL_ALLTOALL, 4, 8, nullptr, 64), MPI_ERR_ARG);
  EXPECT_EQ(cz_selected_algorithm(CZ_COLL_ALLTOALL, 4, 8, name, 0), MPI_ERR_ARG);
}

TEST(DecisionTableCheck, GoodFile) {
  char message[512] = "unchanged";
  EXPECT_EQ(cz_decision_table_check((kInputs + "/good.txt").c_str(), message,
                                    sizeof message),
            MPI_SUCCESS);
  EXPECT_STREQ(message, "");
}

TEST(DecisionTableCheck, BadFileNamesFileAndLine) {
  const std::string path = kInputs + "/bad-line3.txt";
  char message[512] = "";
  EXPECT_EQ(cz_decision_table_check(path.c_str(), message, sizeof message), MPI_ERR_ARG);
  EXPECT_EQ(std::string(message).rfind(path + ":3: ", 0), 0u) << message;
  EXPECT_NE(std::string(message).find("ends before it starts"), std::string::npos) << message;
}

TEST(DecisionTableCheck, MissingFile) {
  char message[512] = "";
  EXPECT_EQ(cz_decision_table_check("/nonexistent/table.txt", message, sizeof message),
            MPI_ERR_FILE);
  EXPECT_NE(std::string(message).find("/nonexistent/table.txt: cannot open"),
            std::string::npos) << message;
}

TEST(DecisionTableCheck, DirectoryIsNotATable) {
  char message[512] = "";
  EXPECT_NE(cz_decision_table_check(kInputs.c_str(), message, sizeof message), MPI_SUCCESS);
  EXPECT_NE(message[0], '\0');
}

TEST(DecisionTableCheck, NullPath) {
  EXPECT_EQ(cz_decision_table_check(nullptr, nullptr, 0), MPI_ERR_ARG);
}

} // namespace
} // namespace cztest
