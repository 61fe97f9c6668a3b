// block_collectives_test.cpp: every alltoall and allgather algorithm (and the
// dispatching cz_alltoall / cz_allgather) against the MPI library, byte for
// byte: sizes x datatypes, MPI_IN_PLACE, mixed send/receive types,
// sub-communicators and back-to-back calls.
#include <cstdio>
#include <string>

#include <gtest/gtest.h>

#include "algorithms.h"
#include "block_collectives.h"
#include "expect.h"

namespace cztest {
namespace {

void sizesByDatatypes(cz_collective coll, const std::string &algorithm) {
  for (size_t bytes : byteTargets())
    for (const Layout &layout : allLayouts()) {
      if (!coveredAt(bytes, layout, worldSize())) continue;
      int count = countFor(bytes, layout);
      CZ_EXPECT_ALL_RANKS_OK(caseName(algorithm, layout, bytes, count),
                             checkBlockCollective(coll, algorithm,
                                                  sameTypes(layout, count)));
    }
}

void inPlace(cz_collective coll, const std::string &algorithm) {
  for (size_t bytes : {0, 7, 1024})
    for (const Layout &layout : allLayouts()) {
      int count = countFor(bytes, layout);
      BlockCall call = sameTypes(layout, count);
      call.inPlace = true;
      CZ_EXPECT_ALL_RANKS_OK("MPI_IN_PLACE " + caseName(algorithm, layout, bytes, count),
                             checkBlockCollective(coll, algorithm, call));
    }
}

// Type signatures match without the types being equal. The strided cases
// also cover "mpi": Open MPI before 4.1.5 mixes up differing send and
// receive types in its alltoall (open-mpi/ompi#10488), which the runtime
// works around (runtime/src/coll/alltoall_mpi.c).
void mixedTypes(cz_collective coll, const std::string &algorithm) {
  const Layout &bytes = layoutNamed("MPI_BYTE");
  const Layout &ints = layoutNamed("MPI_INT");
  const Layout &strided = layoutNamed("strided_ints");
  for (int n : {1, 300}) {
    const std::string tag = algorithm + " n=" + std::to_string(n) + " ";
    CZ_EXPECT_ALL_RANKS_OK(tag + "send n MPI_INT, receive 4n MPI_BYTE",
                           checkBlockCollective(coll, algorithm,
                                                {&ints, n, &bytes, 4 * n}));
    CZ_EXPECT_ALL_RANKS_OK(tag + "send 4n MPI_BYTE, receive n MPI_INT",
                           checkBlockCollective(coll, algorithm,
                                                {&bytes, 4 * n, &ints, n}));
    CZ_EXPECT_ALL_RANKS_OK(tag + "send n strided, receive 2n MPI_INT",
                           checkBlockCollective(coll, algorithm,
                                                {&strided, n, &ints, 2 * n}));
    CZ_EXPECT_ALL_RANKS_OK(tag + "send 2n MPI_INT, receive n strided",
                           checkBlockCollective(coll, algorithm,
                                                {&ints, 2 * n, &strided, n}));
  }
}

void subCommunicators(cz_collective coll, const std::string &algorithm) {
  for (const NamedComm &comm : testCommunicators())
    for (size_t bytes : {7, 1024})
      for (const char *type : {"MPI_INT", "strided_ints"}) {
        const Layout &layout = layoutNamed(type);
        BlockCall call = sameTypes(layout, countFor(bytes, layout));
        call.comm = comm.comm;
        CZ_EXPECT_ALL_RANKS_OK(comm.name + " " +
                                   caseName(algorithm, layout, bytes, call.sendCount),
                               checkBlockCollective(coll, algorithm, call));
      }
}

void repeatedCalls(cz_collective coll, const std::string &algorithm) {
  for (const char *type : {"MPI_INT", "strided_ints"}) {
    const Layout &layout = layoutNamed(type);
    BlockCall call = sameTypes(layout, countFor(1024, layout));
    call.calls = 3;
    call.salt = 5;
    CZ_EXPECT_ALL_RANKS_OK("3 calls in a row " +
                               caseName(algorithm, layout, 1024, call.sendCount),
                           checkBlockCollective(coll, algorithm, call));
  }
}

// A derived datatype freed and another made in its place: MPI may hand out
// the same handle with another layout, so nothing may be remembered by
// handle for derived types (the runtime remembers predefined ones only).
void freedTypes(cz_collective coll, const std::string &algorithm) {
  for (int round = 0; round < 3; round++) {
    MPI_Datatype made = MPI_DATATYPE_NULL, inner = MPI_DATATYPE_NULL;
    if (round == 1) {
      MPI_Type_contiguous(3, MPI_INT, &made);
    } else { // two ints with a hole each, spanning 16 (round 0) or 24 bytes
      MPI_Type_vector(2, 1, 2, MPI_INT, &inner);
      MPI_Type_create_resized(inner, 0, (round == 0 ? 4 : 6) * (MPI_Aint)sizeof(int), &made);
      MPI_Type_free(&inner);
    }
    MPI_Type_commit(&made);
    int size = 0;
    MPI_Aint lb = 0, extent = 0;
    MPI_Type_size(made, &size);
    MPI_Type_get_extent(made, &lb, &extent);
    const Layout layout{"made_" + std::to_string(round), made, static_cast<size_t>(size), extent};
    CZ_EXPECT_ALL_RANKS_OK("after a freed type " + caseName(algorithm, layout, 300, countFor(300, layout)),
                           checkBlockCollective(coll, algorithm,
                                                sameTypes(layout, countFor(300, layout))));
    MPI_Type_free(&made);
  }
}

class Alltoall : public ::testing::TestWithParam<std::string> {};
TEST_P(Alltoall, SizesByDatatypes) { sizesByDatatypes(CZ_COLL_ALLTOALL, GetParam()); }
TEST_P(Alltoall, InPlace) { inPlace(CZ_COLL_ALLTOALL, GetParam()); }
TEST_P(Alltoall, MixedTypes) { mixedTypes(CZ_COLL_ALLTOALL, GetParam()); }
TEST_P(Alltoall, SubCommunicators) { subCommunicators(CZ_COLL_ALLTOALL, GetParam()); }
TEST_P(Alltoall, RepeatedCalls) { repeatedCalls(CZ_COLL_ALLTOALL, GetParam()); }
TEST_P(Alltoall, FreedTypes) { freedTypes(CZ_COLL_ALLTOALL, GetParam()); }
INSTANTIATE_TEST_SUITE_P(Algorithms, Alltoall,
                         ::testing::ValuesIn(algorithmsOf(CZ_COLL_ALLTOALL)),
                         paramName);

class Allgather : public ::testing::TestWithParam<std::string> {};
TEST_P(Allgather, SizesByDatatypes) { sizesByDatatypes(CZ_COLL_ALLGATHER, GetParam()); }
TEST_P(Allgather, InPlace) { inPlace(CZ_COLL_ALLGATHER, GetParam()); }
TEST_P(Allgather, MixedTypes) { mixedTypes(CZ_COLL_ALLGATHER, GetParam()); }
TEST_P(Allgather, SubCommunicators) { subCommunicators(CZ_COLL_ALLGATHER, GetParam()); }
TEST_P(Allgather, RepeatedCalls) { repeatedCalls(CZ_COLL_ALLGATHER, GetParam()); }
TEST_P(Allgather, FreedTypes) { freedTypes(CZ_COLL_ALLGATHER, GetParam()); }
INSTANTIATE_TEST_SUITE_P(Algorithms, Allgather,
                         ::testing::ValuesIn(algorithmsOf(CZ_COLL_ALLGATHER)),
                         paramName);

} // namespace
} // namespace cztest
