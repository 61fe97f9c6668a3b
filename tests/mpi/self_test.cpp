// self_test.cpp: on a communicator of one process every cz_<coll> is a local
// copy, the table's "self" (runtime/src/coll/<coll>_self.c). Checked on
// MPI_COMM_SELF, so in every launch whatever its size, against the MPI
// library's collective on the same communicator, byte for byte with the
// receive buffers' sentinels: predefined types, a type with gaps (which self
// leaves to the library), MPI_IN_PLACE, zero counts, alltoallv and a plan at
// nonzero displacements; and the checking path's errors after good calls.
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "algorithms.h"
#include "block_collectives.h"
#include "expect.h"

namespace cztest {
namespace {

const cz_collective kAll[] = {CZ_COLL_ALLTOALL, CZ_COLL_ALLGATHER, CZ_COLL_BCAST,
                              CZ_COLL_ALLTOALLV, CZ_COLL_ALLREDUCE};

class SelfAlgorithm : public ::testing::Test {
 protected:
  void SetUp() override { setenv("COLLECTIVIZE_QUIET", "1", 1); }
  void TearDown() override { unsetenv("COLLECTIVIZE_QUIET"); }
};

std::string expectCode(const std::string &what, int rc, int expected) {
  if (rc == expected) return "";
  return what + " returned " + std::to_string(rc) + ", expected " + std::to_string(expected) +
         " ('" + cz_last_error() + "'); ";
}

std::string sameBytes(const std::string &what, const Bytes &expected, const Bytes &actual) {
  std::string diff = compareBuffers(expected, actual);
  return diff.empty() ? "" : what + ": " + diff + "; ";
}

// Adds the data ints of strided_ints (two per element, at 0 and 8 bytes).
void stridedSum(void *in, void *inout, int *len, MPI_Datatype *) {
  const int *a = static_cast<const int *>(in);
  int *b = static_cast<int *>(inout);
  for (int i = 0; i < 4 * *len; i += 2)
    b[i] = static_cast<int>(static_cast<unsigned>(b[i]) + static_cast<unsigned>(a[i]));
}

// An op the library accepts for the layout: MPI_BYTE only takes bitwise
// ops, a type with gaps only user ops.
MPI_Op opFor(const Layout &layout) {
  static MPI_Op strided = [] {
    MPI_Op op;
    MPI_Op_create(stridedSum, 1, &op);
    return op;
  }();
  if (layout.name == "MPI_BYTE") return MPI_BOR;
  return layout.name == "strided_ints" ? strided : MPI_SUM;
}

TEST(SelfTable, NamesSelfForOneProcessOnly) {
  for (cz_collective coll : kAll)
    for (long long bytes : {0LL, 8LL, 1LL << 20}) {
      char one[64] = "", two[64] = "";
      ASSERT_EQ(cz_selected_algorithm(coll, 1, bytes, one, sizeof one), MPI_SUCCESS);
      ASSERT_EQ(cz_selected_algorithm(coll, 2, bytes, two, sizeof two), MPI_SUCCESS);
      EXPECT_STREQ(one, "self") << cz_collective_name(coll) << " " << bytes << " B";
      EXPECT_STRNE(two, "self") << cz_collective_name(coll) << " " << bytes << " B";
    }
}

// The dispatch (twice: the second call takes the remembered answer) and
// self by name, against PMPI_Alltoall / PMPI_Allgather on MPI_COMM_SELF.
TEST_F(SelfAlgorithm, BlockCollectivesMatchTheLibrary) {
  for (cz_collective coll : {CZ_COLL_ALLTOALL, CZ_COLL_ALLGATHER})
    for (const char *algorithm : {kDispatch, "self"})
      for (const Layout &layout : allLayouts())
        for (size_t bytes : {0, 7, 1024})
          for (bool inPlace : {false, true}) {
            BlockCall call = sameTypes(layout, countFor(bytes, layout));
            call.comm = MPI_COMM_SELF;
            call.inPlace = inPlace;
            call.calls = 2;
            CZ_EXPECT_ALL_RANKS_OK(std::string(cz_collective_name(coll)) + (inPlace ? " in place " : " ") +
                                       caseName(algorithm, layout, bytes, call.sendCount),
                                   checkBlockCollective(coll, algorithm, call));
          }
}

TEST_F(SelfAlgorithm, BcastAndAllreduceMatchTheLibrary) {
  std::string problem;
  for (const Layout &layout : allLayouts())
    for (int count : {0, 3, 300}) {
      const std::string tag = layout.name + " count " + std::to_string(count);
      const size_t span = static_cast<size_t>(count) * layout.extent;
      Bytes payload(span), got(span);
      fillPayload(payload, 1, count);
      got = payload;
      for (int call = 0; call < 2; call++)
        problem += describeReturn(cz_bcast(got.data(), count, layout.type, 0, MPI_COMM_SELF));
      problem += sameBytes("bcast " + tag, payload, got);
      const MPI_Op op = opFor(layout);
      for (bool inPlace : {false, true}) {
        Bytes expected(span), actual(span);
        fillSentinel(expected);
        if (inPlace) fillPayload(expected, 2, count);
        actual = expected;
        const void *send = inPlace ? MPI_IN_PLACE : payload.data();
        for (int call = 0; call < 2; call++)
          problem += describeReturn(cz_allreduce(send, actual.data(), count, layout.type, op, MPI_COMM_SELF));
        problem += describeReturn(PMPI_Allreduce(send, expected.data(), count, layout.type, op, MPI_COMM_SELF));
        problem += sameBytes(std::string("allreduce ") + (inPlace ? "in place " : "") + tag, expected, actual);
      }
    }
  CZ_EXPECT_ALL_RANKS_OK("bcast and allreduce on one process", problem);
}

// One block at sendbuf + 2 extents to recvbuf + 5 extents, holes around
// it; then the same through a plan, which must run self.
TEST_F(SelfAlgorithm, AlltoallvAtDisplacements) {
  std::string problem;
  for (const Layout &layout : allLayouts())
    for (int count : {0, 3}) {
      const std::string tag = layout.name + " count " + std::to_string(count);
      const int sd[1] = {2}, rd[1] = {5}, sc[1] = {count}, rc[1] = {count};
      Bytes send(static_cast<size_t>(sd[0] + count + 1) * layout.extent);
      fillPayload(send, 3, count);
      for (bool inPlace : {false, true}) {
        Bytes expected(static_cast<size_t>(rd[0] + count + 4) * layout.extent), actual;
        fillSentinel(expected);
        if (inPlace) fillPayload(expected, 4, count);
        actual = expected;
        const void *sb = inPlace ? MPI_IN_PLACE : send.data();
        for (int call = 0; call < 2; call++)
          problem += describeReturn(cz_alltoallv(sb, sc, sd, layout.type, actual.data(), rc, rd,
                                                 layout.type, MPI_COMM_SELF));
        problem += describeReturn(PMPI_Alltoallv(sb, sc, sd, layout.type, expected.data(), rc, rd,
                                                 layout.type, MPI_COMM_SELF));
        problem += sameBytes(std::string("alltoallv ") + (inPlace ? "in place " : "") + tag, expected, actual);
      }
      cz_alltoallv_plan_t plan = nullptr;
      problem += describeReturn(cz_alltoallv_plan_create(sc, sd, layout.type, rc, rd, layout.type,
                                                         MPI_COMM_SELF, &plan));
      if (!plan) continue;
      if (std::string(cz_alltoallv_plan_algorithm(plan)) != "self")
        problem += std::string("plan runs ") + cz_alltoallv_plan_algorithm(plan) + ", not self; ";
      Bytes expected(static_cast<size_t>(rd[0] + count + 4) * layout.extent), actual;
      fillSentinel(expected);
      actual = expected;
      problem += describeReturn(cz_alltoallv_plan_execute(plan, send.data(), actual.data()));
      problem += describeReturn(PMPI_Alltoallv(send.data(), sc, sd, layout.type, expected.data(), rc, rd,
                                               layout.type, MPI_COMM_SELF));
      problem += sameBytes("plan " + tag, expected, actual);
      problem += describeReturn(cz_alltoallv_plan_free(&plan));
    }
  CZ_EXPECT_ALL_RANKS_OK("alltoallv on one process", problem);
}

// After good calls (remembered), bad ones fail as on the checking path, and
// calls without data need no buffers.
TEST_F(SelfAlgorithm, ErrorsAsOnTheCheckingPath) {
  std::vector<int> in(8, 7), out(8, 0);
  const int four[1] = {4}, two[1] = {2}, zero[1] = {0}, at0[1] = {0};
  const MPI_Comm self = MPI_COMM_SELF;
  std::string problem;
  for (int call = 0; call < 2; call++) {
    problem += describeReturn(cz_alltoall(in.data(), 4, MPI_INT, out.data(), 4, MPI_INT, self));
    problem += describeReturn(cz_allgather(in.data(), 4, MPI_INT, out.data(), 4, MPI_INT, self));
    problem += describeReturn(cz_allreduce(in.data(), out.data(), 4, MPI_INT, MPI_SUM, self));
    problem += describeReturn(cz_bcast(out.data(), 4, MPI_INT, 0, self));
    problem += describeReturn(cz_alltoallv(in.data(), four, at0, MPI_INT, out.data(), four, at0, MPI_INT, self));
  }
  problem += expectCode("alltoall recvbuf NULL", cz_alltoall(in.data(), 4, MPI_INT, nullptr, 4, MPI_INT, self),
                        MPI_ERR_BUFFER);
  problem += expectCode("allgather sendbuf NULL", cz_allgather(nullptr, 4, MPI_INT, out.data(), 4, MPI_INT, self),
                        MPI_ERR_BUFFER);
  problem += expectCode("alltoall 4 ints sent, 3 received",
                        cz_alltoall(in.data(), 4, MPI_INT, out.data(), 3, MPI_INT, self), MPI_ERR_TRUNCATE);
  problem += expectCode("allreduce sendbuf NULL", cz_allreduce(nullptr, out.data(), 4, MPI_INT, MPI_SUM, self),
                        MPI_ERR_BUFFER);
  problem += expectCode("allreduce MPI_OP_NULL", cz_allreduce(in.data(), out.data(), 4, MPI_INT, MPI_OP_NULL, self),
                        MPI_ERR_OP);
  problem += expectCode("bcast root 1", cz_bcast(out.data(), 4, MPI_INT, 1, self), MPI_ERR_ROOT);
  problem += expectCode("bcast count -1", cz_bcast(out.data(), -1, MPI_INT, 0, self), MPI_ERR_COUNT);
  // A block to itself whose send and receive sizes differ: an erroneous
  // program (a collective's send and receive signatures must match). Self
  // says so both ways, as Open MPI does; MPICH accepts the smaller send.
  for (const int *send : {four, two}) {
    const int *recv = send == four ? two : four;
    const std::string what = "alltoallv " + std::to_string(send[0]) + " ints into " + std::to_string(recv[0]);
    int libraryCode = cz_alltoallv_algorithm("mpi", in.data(), send, at0, MPI_INT, out.data(), recv, at0, MPI_INT, self);
    int libraryClass = libraryCode;
    MPI_Error_class(libraryCode, &libraryClass);
    if (libraryClass != MPI_SUCCESS && libraryClass != MPI_ERR_TRUNCATE)
      problem += "the library answers " + what + " with class " + std::to_string(libraryClass) + "; ";
    problem += expectCode(what, cz_alltoallv(in.data(), send, at0, MPI_INT, out.data(), recv, at0, MPI_INT, self),
                          MPI_ERR_TRUNCATE);
  }
  // The library crashes here (Open MPI 4.1 at P = 1); self says why.
  problem += expectCode("alltoallv sendbuf NULL",
                        cz_alltoallv(nullptr, four, at0, MPI_INT, out.data(), four, at0, MPI_INT, self),
                        MPI_ERR_BUFFER);
  problem += expectCode("alltoallv recvbuf NULL",
                        cz_alltoallv(in.data(), four, at0, MPI_INT, nullptr, four, at0, MPI_INT, self),
                        MPI_ERR_BUFFER);
  problem += expectCode("alltoallv sdispls NULL",
                        cz_alltoallv(in.data(), four, nullptr, MPI_INT, out.data(), four, at0, MPI_INT, self),
                        MPI_ERR_ARG);
  // Nothing to move: NULL buffers are fine.
  problem += expectCode("alltoall of nothing", cz_alltoall(nullptr, 0, MPI_INT, nullptr, 0, MPI_INT, self),
                        MPI_SUCCESS);
  problem += expectCode("allreduce of nothing", cz_allreduce(nullptr, nullptr, 0, MPI_INT, MPI_SUM, self),
                        MPI_SUCCESS);
  problem += expectCode("alltoallv of nothing",
                        cz_alltoallv(nullptr, zero, at0, MPI_INT, nullptr, zero, at0, MPI_INT, self), MPI_SUCCESS);
  problem += describeReturn(cz_alltoall(in.data(), 4, MPI_INT, out.data(), 4, MPI_INT, self));
  if (!std::string(cz_last_error()).empty())
    problem += "message left after a successful call: '" + std::string(cz_last_error()) + "'";
  CZ_EXPECT_ALL_RANKS_OK("errors on one process", problem);
}

} // namespace
} // namespace cztest
