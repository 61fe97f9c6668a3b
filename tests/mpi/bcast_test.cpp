// bcast_test.cpp: every bcast algorithm (and cz_bcast) against PMPI_Bcast,
// byte for byte: every root at small sizes, a few roots at large ones,
// sub-communicators and back-to-back calls.
#include <gtest/gtest.h>

#include "algorithms.h"
#include "expect.h"

namespace cztest {
namespace {

int runCandidate(const std::string &algorithm, void *buf, int count,
                 const Layout &layout, int root, MPI_Comm comm) {
  if (algorithm == kDispatch) return cz_bcast(buf, count, layout.type, root, comm);
  return cz_bcast_algorithm(algorithm.c_str(), buf, count, layout.type, root, comm);
}

// The root's buffer carries the payload, the others' the sentinel; after the
// call every buffer, gaps included, must equal PMPI_Bcast's.
std::string checkBcast(const std::string &algorithm, const Layout &layout,
                       int count, int root, MPI_Comm comm = MPI_COMM_WORLD,
                       int calls = 1) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  std::vector<Bytes> expected(calls), actual(calls);
  for (int i = 0; i < calls; i++) {
    expected[i].resize(static_cast<size_t>(count) * layout.extent);
    if (rank == root) fillPayload(expected[i], root, i);
    else fillSentinel(expected[i]);
    actual[i] = expected[i];
  }
  std::string problem;
  for (int i = 0; i < calls; i++) {
    int rc = runCandidate(algorithm, actual[i].data(), count, layout, root, comm);
    if (rc != MPI_SUCCESS && problem.empty())
      problem = "call " + std::to_string(i + 1) + " " + describeReturn(rc);
  }
  for (int i = 0; i < calls; i++)
    if (PMPI_Bcast(expected[i].data(), count, layout.type, root, comm) != MPI_SUCCESS &&
        problem.empty())
      problem = "reference (MPI library) failed";
  if (!problem.empty()) return problem;
  for (int i = 0; i < calls; i++) {
    std::string diff = compareBuffers(expected[i], actual[i]);
    if (!diff.empty()) return "call " + std::to_string(i + 1) + ": buffer: " + diff;
  }
  return "";
}

std::string rootCase(const std::string &algorithm, const Layout &layout,
                     size_t bytes, int count, int root) {
  return caseName(algorithm, layout, bytes, count) + " root " + std::to_string(root);
}

class Bcast : public ::testing::TestWithParam<std::string> {};

TEST_P(Bcast, EveryRootAtSmallSizes) {
  for (size_t bytes : {0, 1, 7, 1024})
    for (const Layout &layout : allLayouts())
      for (int root = 0; root < worldSize(); root++) {
        int count = countFor(bytes, layout);
        CZ_EXPECT_ALL_RANKS_OK(rootCase(GetParam(), layout, bytes, count, root),
                               checkBcast(GetParam(), layout, count, root));
      }
}

TEST_P(Bcast, SomeRootsAtLargeSizes) {
  const int size = worldSize();
  for (size_t bytes : {65536, 1 << 20})
    for (const Layout &layout : allLayouts()) {
      if (!coveredAt(bytes, layout, size)) continue;
      for (int root : {0, size / 2, size - 1}) {
        int count = countFor(bytes, layout);
        CZ_EXPECT_ALL_RANKS_OK(rootCase(GetParam(), layout, bytes, count, root),
                               checkBcast(GetParam(), layout, count, root));
      }
    }
}

TEST_P(Bcast, SubCommunicators) {
  for (const NamedComm &comm : testCommunicators()) {
    int size = 0;
    MPI_Comm_size(comm.comm, &size);
    for (const char *type : {"MPI_INT", "strided_ints"})
      for (int root : {0, size - 1}) {
        const Layout &layout = layoutNamed(type);
        int count = countFor(1024, layout);
        CZ_EXPECT_ALL_RANKS_OK(comm.name + " " + rootCase(GetParam(), layout, 1024, count, root),
                               checkBcast(GetParam(), layout, count, root, comm.comm));
      }
  }
}

TEST_P(Bcast, RepeatedCalls) {
  const Layout &layout = layoutNamed("strided_ints");
  int count = countFor(4096, layout);
  CZ_EXPECT_ALL_RANKS_OK("3 calls in a row " + rootCase(GetParam(), layout, 4096, count, 0),
                         checkBcast(GetParam(), layout, count, 0, MPI_COMM_WORLD, 3));
}

INSTANTIATE_TEST_SUITE_P(Algorithms, Bcast,
                         ::testing::ValuesIn(algorithmsOf(CZ_COLL_BCAST)),
                         paramName);

} // namespace
} // namespace cztest
