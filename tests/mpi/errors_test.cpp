// errors_test.cpp: bad arguments come back as MPI error codes with a message
// in cz_last_error(), on every rank, without communication or aborts.
#include <cstdlib>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "algorithms.h"
#include "expect.h"

namespace cztest {
namespace {

std::string codeProblem(int rc, int expected) {
  if (rc == expected) return "";
  return "returned " + std::to_string(rc) + ", expected " +
         std::to_string(expected) + " (last error: '" + cz_last_error() + "')";
}

// The errors are intended: keep them off stderr (the runtime prints every
// failure unless COLLECTIVIZE_QUIET is set).
class Errors : public ::testing::Test {
 protected:
  void SetUp() override { setenv("COLLECTIVIZE_QUIET", "1", 1); }
  void TearDown() override { unsetenv("COLLECTIVIZE_QUIET"); }

  // Real algorithm names only: argument checks come before dispatch.
  static std::vector<std::string> named(cz_collective coll) {
    std::vector<std::string> names = algorithmsOf(coll);
    names.pop_back(); // kDispatch
    return names;
  }
  int buf[64] = {0};
  int out[64 * 64] = {0};
};

TEST_F(Errors, NegativeCountIsErrCount) {
  std::vector<int> counts(worldSize(), 1), displs(worldSize(), 0);
  std::vector<int> negative = counts;
  negative.back() = -1;
  for (const std::string &alg : named(CZ_COLL_ALLTOALL)) {
    CZ_EXPECT_ALL_RANKS_OK("alltoall " + alg + " sendcount -1",
                           codeProblem(cz_alltoall_algorithm(alg.c_str(), buf, -1, MPI_INT, out, 1, MPI_INT, MPI_COMM_WORLD),
                                       MPI_ERR_COUNT));
    CZ_EXPECT_ALL_RANKS_OK("alltoall " + alg + " recvcount -1",
                           codeProblem(cz_alltoall_algorithm(alg.c_str(), buf, 1, MPI_INT, out, -1, MPI_INT, MPI_COMM_WORLD),
                                       MPI_ERR_COUNT));
  }
  for (const std::string &alg : named(CZ_COLL_ALLGATHER))
    CZ_EXPECT_ALL_RANKS_OK("allgather " + alg + " sendcount -1",
                           codeProblem(cz_allgather_algorithm(alg.c_str(), buf, -1, MPI_INT, out, 1, MPI_INT, MPI_COMM_WORLD),
                                       MPI_ERR_COUNT));
  for (const std::string &alg : named(CZ_COLL_BCAST))
    CZ_EXPECT_ALL_RANKS_OK("bcast " + alg + " count -1",
                           codeProblem(cz_bcast_algorithm(alg.c_str(), buf, -1, MPI_INT, 0, MPI_COMM_WORLD),
                                       MPI_ERR_COUNT));
  for (const std::string &alg : named(CZ_COLL_ALLTOALLV)) {
    CZ_EXPECT_ALL_RANKS_OK("alltoallv " + alg + " sendcounts[last] -1",
                           codeProblem(cz_alltoallv_algorithm(alg.c_str(), buf, negative.data(), displs.data(), MPI_INT,
                                                              out, counts.data(), displs.data(), MPI_INT, MPI_COMM_WORLD),
                                       MPI_ERR_COUNT));
    CZ_EXPECT_ALL_RANKS_OK("alltoallv " + alg + " recvcounts[last] -1",
                           codeProblem(cz_alltoallv_algorithm(alg.c_str(), buf, counts.data(), displs.data(), MPI_INT,
                                                              out, negative.data(), displs.data(), MPI_INT, MPI_COMM_WORLD),
                                       MPI_ERR_COUNT));
  }
  CZ_EXPECT_ALL_RANKS_OK("cz_alltoall sendcount -1",
                         codeProblem(cz_alltoall(buf, -1, MPI_INT, out, 1, MPI_INT, MPI_COMM_WORLD), MPI_ERR_COUNT));
  CZ_EXPECT_ALL_RANKS_OK("cz_allgather recvcount -1",
                         codeProblem(cz_allgather(buf, 1, MPI_INT, out, -1, MPI_INT, MPI_COMM_WORLD), MPI_ERR_COUNT));
  CZ_EXPECT_ALL_RANKS_OK("cz_bcast count -1",
                         codeProblem(cz_bcast(buf, -1, MPI_INT, 0, MPI_COMM_WORLD), MPI_ERR_COUNT));
  CZ_EXPECT_ALL_RANKS_OK("cz_alltoallv sendcounts[last] -1",
                         codeProblem(cz_alltoallv(buf, negative.data(), displs.data(), MPI_INT, out, counts.data(),
                                                  displs.data(), MPI_INT, MPI_COMM_WORLD),
                                     MPI_ERR_COUNT));
}

TEST_F(Errors, NullCommunicatorIsErrComm) {
  std::vector<int> counts(worldSize(), 1), displs(worldSize(), 0);
  for (const std::string &alg : named(CZ_COLL_ALLTOALL))
    CZ_EXPECT_ALL_RANKS_OK("alltoall " + alg,
                           codeProblem(cz_alltoall_algorithm(alg.c_str(), buf, 1, MPI_INT, out, 1, MPI_INT, MPI_COMM_NULL),
                                       MPI_ERR_COMM));
  for (const std::string &alg : named(CZ_COLL_ALLGATHER))
    CZ_EXPECT_ALL_RANKS_OK("allgather " + alg,
                           codeProblem(cz_allgather_algorithm(alg.c_str(), buf, 1, MPI_INT, out, 1, MPI_INT, MPI_COMM_NULL),
                                       MPI_ERR_COMM));
  for (const std::string &alg : named(CZ_COLL_BCAST))
    CZ_EXPECT_ALL_RANKS_OK("bcast " + alg,
                           codeProblem(cz_bcast_algorithm(alg.c_str(), buf, 1, MPI_INT, 0, MPI_COMM_NULL), MPI_ERR_COMM));
  for (const std::string &alg : named(CZ_COLL_ALLTOALLV))
    CZ_EXPECT_ALL_RANKS_OK("alltoallv " + alg,
                           codeProblem(cz_alltoallv_algorithm(alg.c_str(), buf, counts.data(), displs.data(), MPI_INT, out,
                                                              counts.data(), displs.data(), MPI_INT, MPI_COMM_NULL),
                                       MPI_ERR_COMM));
  CZ_EXPECT_ALL_RANKS_OK("cz_alltoall",
                         codeProblem(cz_alltoall(buf, 1, MPI_INT, out, 1, MPI_INT, MPI_COMM_NULL), MPI_ERR_COMM));
  CZ_EXPECT_ALL_RANKS_OK("cz_allgather",
                         codeProblem(cz_allgather(buf, 1, MPI_INT, out, 1, MPI_INT, MPI_COMM_NULL), MPI_ERR_COMM));
  CZ_EXPECT_ALL_RANKS_OK("cz_bcast", codeProblem(cz_bcast(buf, 1, MPI_INT, 0, MPI_COMM_NULL), MPI_ERR_COMM));
  CZ_EXPECT_ALL_RANKS_OK("cz_alltoallv",
                         codeProblem(cz_alltoallv(buf, counts.data(), displs.data(), MPI_INT, out, counts.data(),
                                                  displs.data(), MPI_INT, MPI_COMM_NULL),
                                     MPI_ERR_COMM));
}

TEST_F(Errors, RootOutsideCommunicatorIsErrRoot) {
  for (int root : {-1, worldSize(), worldSize() + 5}) {
    const std::string tag = " root " + std::to_string(root);
    for (const std::string &alg : named(CZ_COLL_BCAST))
      CZ_EXPECT_ALL_RANKS_OK("bcast " + alg + tag,
                             codeProblem(cz_bcast_algorithm(alg.c_str(), buf, 1, MPI_INT, root, MPI_COMM_WORLD),
                                         MPI_ERR_ROOT));
    CZ_EXPECT_ALL_RANKS_OK("cz_bcast" + tag, codeProblem(cz_bcast(buf, 1, MPI_INT, root, MPI_COMM_WORLD), MPI_ERR_ROOT));
  }
}

// "" if cz_last_error() names every valid algorithm of coll.
std::string namesEveryAlgorithm(cz_collective coll) {
  std::string message = cz_last_error();
  if (message.find(cz_algorithm_names(coll)) == std::string::npos)
    return "cz_last_error() '" + message + "' does not list '" + cz_algorithm_names(coll) + "'";
  return "";
}

TEST_F(Errors, UnknownAlgorithmNamesTheValidOnes) {
  std::vector<int> counts(worldSize(), 1), displs(worldSize(), 0);
  int rc = cz_alltoall_algorithm("nonesuch", buf, 1, MPI_INT, out, 1, MPI_INT, MPI_COMM_WORLD);
  CZ_EXPECT_ALL_RANKS_OK("alltoall nonesuch", codeProblem(rc, MPI_ERR_ARG) + namesEveryAlgorithm(CZ_COLL_ALLTOALL));
  rc = cz_allgather_algorithm("nonesuch", buf, 1, MPI_INT, out, 1, MPI_INT, MPI_COMM_WORLD);
  CZ_EXPECT_ALL_RANKS_OK("allgather nonesuch", codeProblem(rc, MPI_ERR_ARG) + namesEveryAlgorithm(CZ_COLL_ALLGATHER));
  rc = cz_bcast_algorithm("nonesuch", buf, 1, MPI_INT, 0, MPI_COMM_WORLD);
  CZ_EXPECT_ALL_RANKS_OK("bcast nonesuch", codeProblem(rc, MPI_ERR_ARG) + namesEveryAlgorithm(CZ_COLL_BCAST));
  rc = cz_alltoallv_algorithm("nonesuch", buf, counts.data(), displs.data(), MPI_INT, out, counts.data(),
                              displs.data(), MPI_INT, MPI_COMM_WORLD);
  CZ_EXPECT_ALL_RANKS_OK("alltoallv nonesuch", codeProblem(rc, MPI_ERR_ARG) + namesEveryAlgorithm(CZ_COLL_ALLTOALLV));
  // An algorithm of another collective is unknown here.
  rc = cz_bcast_algorithm("ring", buf, 1, MPI_INT, 0, MPI_COMM_WORLD);
  CZ_EXPECT_ALL_RANKS_OK("bcast ring (an allgather algorithm)", codeProblem(rc, MPI_ERR_ARG));
}

TEST_F(Errors, BadAlgorithmParameterIsErrArg) {
  for (const char *name : {"bruck:1", "bruck:0", "bruck:-3", "bruck:x", "bruck:", "bruck:3x", "mpi:2", "pairwise:4"}) {
    int rc = cz_alltoall_algorithm(name, buf, 1, MPI_INT, out, 1, MPI_INT, MPI_COMM_WORLD);
    std::string problem = codeProblem(rc, MPI_ERR_ARG);
    if (problem.empty() && std::string(cz_last_error()).empty()) problem = "no message in cz_last_error()";
    CZ_EXPECT_ALL_RANKS_OK(std::string("alltoall '") + name + "'", problem);
  }
  CZ_EXPECT_ALL_RANKS_OK("alltoall NULL name",
                         codeProblem(cz_alltoall_algorithm(nullptr, buf, 1, MPI_INT, out, 1, MPI_INT, MPI_COMM_WORLD),
                                     MPI_ERR_ARG));
  CZ_EXPECT_ALL_RANKS_OK("cz_alltoall_bruck_radix radix 1",
                         codeProblem(cz_alltoall_bruck_radix(buf, 1, MPI_INT, out, 1, MPI_INT, MPI_COMM_WORLD, 1),
                                     MPI_ERR_ARG));
}

TEST_F(Errors, NullDatatypeIsErrType) {
  std::vector<int> counts(worldSize(), 1), displs(worldSize(), 0);
  CZ_EXPECT_ALL_RANKS_OK("cz_alltoall sendtype MPI_DATATYPE_NULL",
                         codeProblem(cz_alltoall(buf, 1, MPI_DATATYPE_NULL, out, 1, MPI_INT, MPI_COMM_WORLD),
                                     MPI_ERR_TYPE));
  CZ_EXPECT_ALL_RANKS_OK("cz_allgather recvtype MPI_DATATYPE_NULL",
                         codeProblem(cz_allgather(buf, 1, MPI_INT, out, 1, MPI_DATATYPE_NULL, MPI_COMM_WORLD),
                                     MPI_ERR_TYPE));
  CZ_EXPECT_ALL_RANKS_OK("cz_bcast MPI_DATATYPE_NULL",
                         codeProblem(cz_bcast(buf, 1, MPI_DATATYPE_NULL, 0, MPI_COMM_WORLD), MPI_ERR_TYPE));
  CZ_EXPECT_ALL_RANKS_OK("cz_alltoallv recvtype MPI_DATATYPE_NULL",
                         codeProblem(cz_alltoallv(buf, counts.data(), displs.data(), MPI_INT, out, counts.data(),
                                                  displs.data(), MPI_DATATYPE_NULL, MPI_COMM_WORLD),
                                     MPI_ERR_TYPE));
}

TEST_F(Errors, NullBufferWithDataIsErrBuffer) {
  CZ_EXPECT_ALL_RANKS_OK("cz_alltoall recvbuf NULL",
                         codeProblem(cz_alltoall(buf, 1, MPI_INT, nullptr, 1, MPI_INT, MPI_COMM_WORLD),
                                     MPI_ERR_BUFFER));
  CZ_EXPECT_ALL_RANKS_OK("cz_bcast buffer NULL",
                         codeProblem(cz_bcast(nullptr, 4, MPI_INT, 0, MPI_COMM_WORLD), MPI_ERR_BUFFER));
}

TEST_F(Errors, MismatchedBlockSizesAreErrTruncate) {
  CZ_EXPECT_ALL_RANKS_OK("alltoall 1 MPI_INT vs 3 MPI_BYTE",
                         codeProblem(cz_alltoall_mpi(buf, 1, MPI_INT, out, 3, MPI_BYTE, MPI_COMM_WORLD),
                                     MPI_ERR_TRUNCATE));
}

TEST_F(Errors, SuccessClearsTheLastError) {
  cz_alltoall_algorithm("nonesuch", buf, 1, MPI_INT, out, 1, MPI_INT, MPI_COMM_WORLD);
  std::string problem = std::string(cz_last_error()).empty() ? "no message after a failure" : "";
  int rc = cz_alltoall_mpi(buf, 1, MPI_INT, out, 1, MPI_INT, MPI_COMM_WORLD);
  problem += describeReturn(rc);
  if (!std::string(cz_last_error()).empty())
    problem += " message left after success: '" + std::string(cz_last_error()) + "'";
  CZ_EXPECT_ALL_RANKS_OK("last error after success", problem);
}

} // namespace
} // namespace cztest
