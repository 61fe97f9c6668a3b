// alltoallv_test.cpp: every alltoallv algorithm (and cz_alltoallv) against
// PMPI_Alltoallv, byte for byte, with irregular counts (zeros included) and
// displacements that run backwards with holes between the blocks.
#include <functional>

#include <gtest/gtest.h>

#include "algorithms.h"
#include "expect.h"

namespace cztest {
namespace {

// Elements rank `from` sends to rank `to`: 0..3 units, zero for some pairs.
using CountRule = std::function<int(int from, int to)>;

CountRule irregular(int unit) {
  return [unit](int from, int to) { return ((from * 7 + to * 3 + 1) % 4) * unit; };
}
// In-place alltoallv sends what it receives: counts must be symmetric.
CountRule symmetric(int unit) {
  return [unit](int from, int to) { return ((from + to) * 5 % 4) * unit; };
}

struct VectorLayout {
  std::vector<int> counts, displs;
  int span = 0; // elements the blocks and holes cover
};

// Blocks placed from the last peer to the first, one element of hole after
// each: displacements decrease with the peer's rank.
VectorLayout backwardsWithHoles(int size, const std::function<int(int)> &countOf) {
  VectorLayout v;
  v.counts.resize(size);
  v.displs.resize(size);
  for (int peer = size - 1; peer >= 0; peer--) {
    v.counts[peer] = countOf(peer);
    v.displs[peer] = v.span;
    v.span += v.counts[peer] + 1;
  }
  return v;
}

int runCandidate(const std::string &algorithm, const void *send,
                 const VectorLayout &s, void *recv, const VectorLayout &r,
                 MPI_Datatype type, MPI_Comm comm) {
  if (algorithm == kDispatch)
    return cz_alltoallv(send, s.counts.data(), s.displs.data(), type, recv,
                        r.counts.data(), r.displs.data(), type, comm);
  return cz_alltoallv_algorithm(algorithm.c_str(), send, s.counts.data(),
                                s.displs.data(), type, recv, r.counts.data(),
                                r.displs.data(), type, comm);
}

struct VCall {
  const Layout *layout;
  CountRule count;
  bool inPlace = false;
  MPI_Comm comm = MPI_COMM_WORLD;
  int calls = 1;
};

std::string checkAlltoallv(const std::string &algorithm, const VCall &c) {
  int size = 0, rank = 0;
  MPI_Comm_size(c.comm, &size);
  MPI_Comm_rank(c.comm, &rank);
  VectorLayout s = backwardsWithHoles(size, [&](int to) { return c.count(rank, to); });
  VectorLayout r = backwardsWithHoles(size, [&](int from) { return c.count(from, rank); });
  const MPI_Datatype type = c.layout->type;
  std::vector<Bytes> send(c.calls), expected(c.calls), actual(c.calls);
  for (int i = 0; i < c.calls; i++) {
    expected[i].resize(static_cast<size_t>(r.span) * c.layout->extent);
    if (c.inPlace) {
      fillPayload(expected[i], rank, i);
    } else {
      fillSentinel(expected[i]);
      send[i].resize(static_cast<size_t>(s.span) * c.layout->extent);
      fillPayload(send[i], rank, i);
    }
    actual[i] = expected[i];
  }
  std::string problem;
  for (int i = 0; i < c.calls; i++) {
    const void *sendbuf = c.inPlace ? MPI_IN_PLACE : send[i].data();
    int rc = runCandidate(algorithm, sendbuf, s, actual[i].data(), r, type, c.comm);
    if (rc != MPI_SUCCESS && problem.empty())
      problem = "call " + std::to_string(i + 1) + " " + describeReturn(rc);
  }
  for (int i = 0; i < c.calls; i++) {
    const void *sendbuf = c.inPlace ? MPI_IN_PLACE : send[i].data();
    if (PMPI_Alltoallv(sendbuf, s.counts.data(), s.displs.data(), type,
                       expected[i].data(), r.counts.data(), r.displs.data(),
                       type, c.comm) != MPI_SUCCESS &&
        problem.empty())
      problem = "reference (MPI library) failed";
  }
  if (!problem.empty()) return problem;
  for (int i = 0; i < c.calls; i++) {
    std::string diff = compareBuffers(expected[i], actual[i]);
    if (!diff.empty())
      return "call " + std::to_string(i + 1) + ": receive buffer: " + diff;
  }
  return "";
}

std::string unitCase(const std::string &what, const std::string &algorithm,
                     const Layout &layout, size_t bytes, int unit) {
  return what + " " + algorithm + " " + layout.name + " unit " +
         std::to_string(bytes) + " B (" + std::to_string(unit) + " elements)";
}

class Alltoallv : public ::testing::TestWithParam<std::string> {};

TEST_P(Alltoallv, IrregularCountsByDatatypes) {
  for (size_t bytes : byteTargets())
    for (const Layout &layout : allLayouts()) {
      if (!coveredAt(bytes, layout, worldSize())) continue;
      int unit = countFor(bytes, layout);
      CZ_EXPECT_ALL_RANKS_OK(unitCase("irregular", GetParam(), layout, bytes, unit),
                             checkAlltoallv(GetParam(), {&layout, irregular(unit)}));
    }
}

TEST_P(Alltoallv, InPlace) {
  for (size_t bytes : {1, 1024})
    for (const Layout &layout : allLayouts()) {
      int unit = countFor(bytes, layout);
      VCall call{&layout, symmetric(unit)};
      call.inPlace = true;
      CZ_EXPECT_ALL_RANKS_OK(unitCase("MPI_IN_PLACE", GetParam(), layout, bytes, unit),
                             checkAlltoallv(GetParam(), call));
    }
}

TEST_P(Alltoallv, AllCountsZero) {
  const Layout &layout = layoutNamed("MPI_INT");
  CZ_EXPECT_ALL_RANKS_OK(unitCase("all zero", GetParam(), layout, 0, 0),
                         checkAlltoallv(GetParam(), {&layout, irregular(0)}));
}

TEST_P(Alltoallv, SubCommunicators) {
  for (const NamedComm &comm : testCommunicators())
    for (const char *type : {"MPI_INT", "strided_ints"}) {
      const Layout &layout = layoutNamed(type);
      int unit = countFor(1024, layout);
      VCall call{&layout, irregular(unit)};
      call.comm = comm.comm;
      CZ_EXPECT_ALL_RANKS_OK(unitCase(comm.name, GetParam(), layout, 1024, unit),
                             checkAlltoallv(GetParam(), call));
    }
}

TEST_P(Alltoallv, RepeatedCalls) {
  const Layout &layout = layoutNamed("strided_ints");
  int unit = countFor(1024, layout);
  VCall call{&layout, irregular(unit)};
  call.calls = 3;
  CZ_EXPECT_ALL_RANKS_OK(unitCase("3 calls in a row", GetParam(), layout, 1024, unit),
                         checkAlltoallv(GetParam(), call));
}

INSTANTIATE_TEST_SUITE_P(Algorithms, Alltoallv,
                         ::testing::ValuesIn(algorithmsOf(CZ_COLL_ALLTOALLV)),
                         paramName);

} // namespace
} // namespace cztest
