// lib_path_test.cpp: a cz_<coll> call the decision table hands to the MPI
// library, seen before, goes from the entry point straight to PMPI_<coll>
// on the runtime's private duplicate (comm_state.h, memo lib). This program
// defines PMPI_Alltoall, PMPI_Allgather, PMPI_Bcast, PMPI_Allreduce and
// PMPI_Alltoallv itself (the runtime's calls reach the executable's
// definitions first; MPI_<coll> in the library does not): each records what
// it was given, can be told to fail once (as the library fails: the
// communicator's error handler is called, then the code returned), and
// otherwise calls the library's.
// Run with every collective forced to "mpi" (tests/mpi/CMakeLists.txt).
// The cases: what the short path must still do as czi_<coll>_mpi did.
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include <unistd.h>

#include <gtest/gtest.h>

#include "agreement.h"
#include "buffers.h"
#include "expect.h"
#include "next_symbol.h"

#include "collectivize.h"

namespace {

enum Coll { ALLTOALL, ALLGATHER, BCAST, ALLREDUCE, ALLTOALLV, COLLS };

struct Seen {
  int calls = 0;
  MPI_Datatype sendtype = MPI_DATATYPE_NULL;
  MPI_Comm comm = MPI_COMM_NULL;
};
Seen seen[COLLS];
int fail_next[COLLS]; // the next call of that collective returns this code

using cztest::nextSymbol;

// Records the call; returns the injected code, or 0 to go on. An injected
// failure goes through comm's error handler first, as a library's does.
int record(Coll c, MPI_Datatype sendtype, MPI_Comm comm) {
  seen[c].calls++;
  seen[c].sendtype = sendtype;
  seen[c].comm = comm;
  int code = fail_next[c];
  fail_next[c] = 0;
  if (code != MPI_SUCCESS) PMPI_Comm_call_errhandler(comm, code);
  return code;
}

} // namespace

extern "C" {
int PMPI_Alltoall(const void *sb, int sc, MPI_Datatype st, void *rb, int rc,
                  MPI_Datatype rt, MPI_Comm comm) {
  static auto real = nextSymbol<int (*)(const void *, int, MPI_Datatype, void *, int,
                                  MPI_Datatype, MPI_Comm)>("PMPI_Alltoall");
  if (int code = record(ALLTOALL, st, comm)) return code;
  return real(sb, sc, st, rb, rc, rt, comm);
}
int PMPI_Allgather(const void *sb, int sc, MPI_Datatype st, void *rb, int rc,
                   MPI_Datatype rt, MPI_Comm comm) {
  static auto real = nextSymbol<int (*)(const void *, int, MPI_Datatype, void *, int,
                                  MPI_Datatype, MPI_Comm)>("PMPI_Allgather");
  if (int code = record(ALLGATHER, st, comm)) return code;
  return real(sb, sc, st, rb, rc, rt, comm);
}
int PMPI_Bcast(void *b, int n, MPI_Datatype t, int root, MPI_Comm comm) {
  static auto real =
      nextSymbol<int (*)(void *, int, MPI_Datatype, int, MPI_Comm)>("PMPI_Bcast");
  if (int code = record(BCAST, t, comm)) return code;
  return real(b, n, t, root, comm);
}
int PMPI_Allreduce(const void *sb, void *rb, int n, MPI_Datatype t, MPI_Op op,
                   MPI_Comm comm) {
  static auto real = nextSymbol<int (*)(const void *, void *, int, MPI_Datatype,
                                  MPI_Op, MPI_Comm)>("PMPI_Allreduce");
  if (int code = record(ALLREDUCE, t, comm)) return code;
  return real(sb, rb, n, t, op, comm);
}
int PMPI_Alltoallv(const void *sb, const int *sc, const int *sd,
                   MPI_Datatype st, void *rb, const int *rc, const int *rd,
                   MPI_Datatype rt, MPI_Comm comm) {
  static auto real =
      nextSymbol<int (*)(const void *, const int *, const int *, MPI_Datatype,
                   void *, const int *, const int *, MPI_Datatype, MPI_Comm)>(
          "PMPI_Alltoallv");
  if (int code = record(ALLTOALLV, st, comm)) return code;
  return real(sb, sc, sd, st, rb, rc, rd, rt, comm);
}
}

namespace cztest {
namespace {

const char *const coll_name[COLLS] = {"alltoall", "allgather", "bcast",
                                      "allreduce", "alltoallv"};

class LibPath : public ::testing::Test {
 protected:
  void SetUp() override {
    setenv("COLLECTIVIZE_QUIET", "1", 1);
    for (auto &s : seen) s = Seen();
  }
  void TearDown() override { unsetenv("COLLECTIVIZE_QUIET"); }

  // One call of collective c with n ints a block (a count not seen before
  // takes the checking path).
  int call(Coll c, int n = 4) {
    const int p = worldSize();
    in.assign(n * p, worldRank() + 1);
    out.assign(n * p, -1);
    counts.assign(p, n);
    displs.resize(p);
    for (int i = 0; i < p; i++) displs[i] = n * i;
    switch (c) {
    case ALLTOALL:
      return cz_alltoall(in.data(), n, MPI_INT, out.data(), n, MPI_INT, MPI_COMM_WORLD);
    case ALLGATHER:
      return cz_allgather(in.data(), n, MPI_INT, out.data(), n, MPI_INT, MPI_COMM_WORLD);
    case BCAST:
      return cz_bcast(in.data(), n, MPI_INT, 0, MPI_COMM_WORLD);
    case ALLREDUCE:
      return cz_allreduce(in.data(), out.data(), n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    default:
      return cz_alltoallv(in.data(), counts.data(), displs.data(), MPI_INT, out.data(),
                          counts.data(), displs.data(), MPI_INT, MPI_COMM_WORLD);
    }
  }
  std::vector<int> in, out, counts, displs;
};

// Every call, the first (checking path) and the repeated ones (fast path),
// reaches the library once, on the private duplicate, not on the caller's
// communicator, with the caller's datatype.
TEST_F(LibPath, RepeatedCallsReachTheLibraryOnThePrivateDuplicate) {
  std::string problem;
  for (int c = 0; c < COLLS; c++) {
    for (int round = 1; round <= 3; round++) {
      problem += describeReturn(call(Coll(c)));
      const Seen &s = seen[c];
      if (s.calls != round)
        problem += std::string(coll_name[c]) + ": " + std::to_string(s.calls) +
                   " library calls after " + std::to_string(round) + "; ";
      if (s.comm == MPI_COMM_WORLD || s.comm == MPI_COMM_NULL)
        problem += std::string(coll_name[c]) + ": not on the private duplicate; ";
      if (s.sendtype != MPI_INT)
        problem += std::string(coll_name[c]) + ": datatype not the caller's; ";
    }
  }
  CZ_EXPECT_ALL_RANKS_OK("library calls", problem);
}

// An alltoall whose send and receive descriptions differ keeps
// czi_alltoall_mpi's packing (Open MPI before 4.1.5 can deliver wrong data
// otherwise: alltoall_mpi.c) on repeated calls too: the library sees bytes.
TEST_F(LibPath, AlltoallWithDifferentDescriptionsStaysPacked) {
  const int p = worldSize();
  std::vector<int> send(2 * p), recv(2 * p, -1);
  for (int i = 0; i < 2 * p; i++) send[i] = 100 * worldRank() + i;
  std::string problem;
  for (int round = 1; round <= 3; round++) {
    problem += describeReturn(cz_alltoall(send.data(), 2, MPI_INT, recv.data(), 1,
                                          MPI_2INT, MPI_COMM_WORLD));
    if (seen[ALLTOALL].sendtype != MPI_BYTE)
      problem += "call " + std::to_string(round) + " not packed; ";
    for (int i = 0; i < p; i++)
      if (recv[2 * i] != 100 * i + 2 * worldRank() ||
          recv[2 * i + 1] != 100 * i + 2 * worldRank() + 1)
        problem += "call " + std::to_string(round) + ": wrong block from " +
                   std::to_string(i) + "; ";
  }
  CZ_EXPECT_ALL_RANKS_OK("different descriptions", problem);
}

// The library failing on a repeated call: the caller gets its code and
// cz_last_error() the message czi_<coll>_mpi writes; the next call
// succeeds and clears it.
TEST_F(LibPath, LibraryFailureOnRepeatedCallIsDescribed) {
  std::string problem;
  for (int c = 0; c < COLLS; c++) {
    const std::string name = coll_name[c];
    problem += describeReturn(call(Coll(c)));
    fail_next[c] = MPI_ERR_INTERN;
    int rc = call(Coll(c));
    if (rc != MPI_ERR_INTERN)
      problem += name + " returned " + std::to_string(rc) + " after an injected failure; ";
    std::string want = "czi_" + name + "_mpi: PMPI_";
    want += char(name[0] - 'a' + 'A');
    want += name.substr(1) + " failed";
    if (std::string(cz_last_error()).find(want) == std::string::npos)
      problem += name + ": message '" + cz_last_error() + "', expected '" + want + "'; ";
    problem += describeReturn(call(Coll(c)));
    if (*cz_last_error())
      problem += name + ": message left after a good call; ";
  }
  CZ_EXPECT_ALL_RANKS_OK("library failures", problem);
}

// What fn writes to this process's stderr.
std::string stderrOf(const std::function<void()> &fn) {
  fflush(stderr);
  FILE *tmp = tmpfile();
  const int saved = dup(2);
  if (!tmp || saved < 0) return "cannot capture stderr";
  dup2(fileno(tmp), 2);
  fn();
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  std::string text;
  rewind(tmp);
  for (int ch; (ch = fgetc(tmp)) != EOF;) text += char(ch);
  fclose(tmp);
  return text;
}

int linesWith(const std::string &text, const std::string &word) {
  int n = 0;
  for (size_t at = 0; (at = text.find(word, at)) != std::string::npos; at += word.size())
    n++;
  return n;
}

// A failure is printed once, naming the collective that failed: the fast
// path's (its library call is a tail call, described by the private
// duplicate's error handler) and, right after another collective's fast
// call, the checking path's (described by the runtime's code, not again by
// the handler in the other collective's name).
TEST_F(LibPath, EachFailureIsPrintedOnceUnderItsOwnName) {
  setenv("COLLECTIVIZE_QUIET", "0", 1);
  std::string problem;
  for (int c = 0; c < COLLS; c++) {
    // d: one whose memo is keyed by its count (alltoallv's is not).
    const int d = (c + 1) % ALLTOALLV;
    const std::string name = coll_name[c], other = coll_name[d];
    problem += describeReturn(call(Coll(c)));
    problem += describeReturn(call(Coll(c)));
    int rc = MPI_SUCCESS;
    std::string text = stderrOf([&] {
      fail_next[c] = MPI_ERR_INTERN;
      rc = call(Coll(c));
    });
    if (rc != MPI_ERR_INTERN || linesWith(text, "collectivize") != 1 ||
        linesWith(text, "czi_" + name + "_mpi") != 1)
      problem += name + " (fast path) printed '" + text + "'; ";
    problem += describeReturn(call(Coll(c))); // the checking path: clears it
    problem += describeReturn(call(Coll(c))); // the fast path again
    text = stderrOf([&] {
      fail_next[d] = MPI_ERR_INTERN;
      rc = call(Coll(d), 5 + c);
    });
    if (rc != MPI_ERR_INTERN || linesWith(text, "collectivize") != 1 ||
        linesWith(text, "czi_" + other + "_mpi") != 1)
      problem += other + " (checking path after a fast " + name + ") printed '" +
                 text + "'; ";
  }
  CZ_EXPECT_ALL_RANKS_OK("failures printed", problem);
}

// A plan the table gives the library: each execution reaches
// PMPI_Alltoallv once, on the private duplicate, and an injected failure
// comes back with its code and czi_alltoallv_mpi's message, printed once.
TEST_F(LibPath, PlanOnTheLibraryCallsItDirectlyAndDescribesItsFailure) {
  setenv("COLLECTIVIZE_QUIET", "0", 1);
  std::string problem;
  const int p = worldSize();
  in.assign(4 * p, worldRank() + 1);
  out.assign(4 * p, -1);
  counts.assign(p, 4);
  displs.resize(p);
  for (int i = 0; i < p; i++) displs[i] = 4 * i;
  cz_alltoallv_plan_t plan = nullptr;
  int rc = cz_alltoallv_plan_create(counts.data(), displs.data(), MPI_INT, counts.data(),
                                    displs.data(), MPI_INT, MPI_COMM_WORLD, &plan);
  problem += describeReturn(rc);
  const bool on_library = plan && std::string(cz_alltoallv_plan_algorithm(plan)) == "mpi";
  if (plan && !on_library) // the table is forced to the library (CMakeLists.txt)
    problem += std::string("plan runs '") + cz_alltoallv_plan_algorithm(plan) + "'; ";
  if (plan && on_library) {
    const int before = seen[ALLTOALLV].calls;
    problem += describeReturn(cz_alltoallv_plan_execute(plan, in.data(), out.data()));
    if (seen[ALLTOALLV].calls != before + 1)
      problem += "plan: " + std::to_string(seen[ALLTOALLV].calls - before) + " library calls; ";
    if (seen[ALLTOALLV].comm == MPI_COMM_WORLD) problem += "plan: not on the private duplicate; ";
    for (int i = 0; i < 4 * p; i++)
      if (out[i] != i / 4 + 1) {
        problem += "plan: wrong data; ";
        break;
      }
    std::string text = stderrOf([&] {
      fail_next[ALLTOALLV] = MPI_ERR_INTERN;
      rc = cz_alltoallv_plan_execute(plan, in.data(), out.data());
    });
    if (rc != MPI_ERR_INTERN || linesWith(text, "collectivize") != 1 ||
        linesWith(text, "czi_alltoallv_mpi: PMPI_Alltoallv failed") != 1)
      problem += "plan failure printed '" + text + "'; ";
    problem += describeReturn(cz_alltoallv_plan_execute(plan, in.data(), out.data()));
    if (*cz_last_error()) problem += "plan: message left after a good call; ";
  }
  if (plan) cz_alltoallv_plan_free(&plan);
  CZ_EXPECT_ALL_RANKS_OK("plan on the library", problem);
}

} // namespace
} // namespace cztest
