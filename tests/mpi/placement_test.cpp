// placement_test.cpp: the cores' placement at run time
// (runtime/src/decision/placement.c). Forced near, far, and probed with
// thresholds that make every probe read far, then near: which side runs each
// call (this program defines PMPI_Bcast, PMPI_Allgather, PMPI_Alltoall and
// PMPI_Allreduce, which count the calls of 32 KiB and more the runtime hands
// to the library, then call the library's), and every result against the
// MPI library's own collective on the same data. One launch per process
// count runs every case (tests/mpi/CMakeLists.txt, with trials off so that
// no trial call reaches the library).
#include <cstdlib>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "expect.h"
#include "next_symbol.h"
#include "placement.h"

#include "collectivize.h"

namespace {

enum Coll { BCAST, ALLGATHER, ALLTOALL, ALLREDUCE, COLLS };
const char *const kName[COLLS] = {"bcast", "allgather", "alltoall", "allreduce"};
const cz_collective kColl[COLLS] = {CZ_COLL_BCAST, CZ_COLL_ALLGATHER, CZ_COLL_ALLTOALL,
                                    CZ_COLL_ALLREDUCE};
int big_calls[COLLS]; // library calls of at least 32 KiB (the runtime's own are smaller)
int fail_next[COLLS]; // the next big call of that collective fails with this code

using cztest::nextSymbol;

// Counts a big call; returns the injected code (after comm's error
// handler, as a library fails), or 0 to go on.
int count(Coll c, int n, MPI_Datatype t, MPI_Comm comm) {
  int size = 0;
  PMPI_Type_size(t, &size);
  if ((long long)n * size < 32768) return 0;
  big_calls[c]++;
  const int code = fail_next[c];
  fail_next[c] = 0;
  if (code != MPI_SUCCESS) PMPI_Comm_call_errhandler(comm, code);
  return code;
}

} // namespace

extern "C" {
int PMPI_Bcast(void *b, int n, MPI_Datatype t, int root, MPI_Comm comm) {
  static auto real = nextSymbol<int (*)(void *, int, MPI_Datatype, int, MPI_Comm)>("PMPI_Bcast");
  if (int code = count(BCAST, n, t, comm)) return code;
  return real(b, n, t, root, comm);
}
int PMPI_Allgather(const void *sb, int sc, MPI_Datatype st, void *rb, int rc,
                   MPI_Datatype rt, MPI_Comm comm) {
  static auto real = nextSymbol<int (*)(const void *, int, MPI_Datatype, void *, int,
                                  MPI_Datatype, MPI_Comm)>("PMPI_Allgather");
  if (int code = count(ALLGATHER, rc, rt, comm)) return code;
  return real(sb, sc, st, rb, rc, rt, comm);
}
int PMPI_Alltoall(const void *sb, int sc, MPI_Datatype st, void *rb, int rc,
                  MPI_Datatype rt, MPI_Comm comm) {
  static auto real = nextSymbol<int (*)(const void *, int, MPI_Datatype, void *, int,
                                  MPI_Datatype, MPI_Comm)>("PMPI_Alltoall");
  if (int code = count(ALLTOALL, rc, rt, comm)) return code;
  return real(sb, sc, st, rb, rc, rt, comm);
}
int PMPI_Allreduce(const void *sb, void *rb, int n, MPI_Datatype t, MPI_Op op,
                   MPI_Comm comm) {
  static auto real = nextSymbol<int (*)(const void *, void *, int, MPI_Datatype, MPI_Op,
                                  MPI_Comm)>("PMPI_Allreduce");
  if (int code = count(ALLREDUCE, n, t, comm)) return code;
  return real(sb, rb, n, t, op, comm);
}
}

namespace cztest {
namespace {

const int kBlockBytes[] = {32 << 10, 128 << 10, 256 << 10};

// `calls` calls of c with blocks of `bytes` through cz_<coll>, each against
// MPI_<coll> on the same data; "" or the first difference.
std::string runAgainstMpi(Coll c, int bytes, int calls) {
  const int me = worldRank(), p = worldSize(), n = bytes / 4;
  const int blocks = c == ALLTOALL ? p : 1;
  std::vector<int> in(static_cast<size_t>(n) * blocks), got(static_cast<size_t>(n) * p),
      want(got.size());
  for (int call = 0; call < calls; call++) {
    for (size_t i = 0; i < in.size(); i++) in[i] = me * 1000003 + static_cast<int>(i) * 7 + call;
    int rc = MPI_SUCCESS;
    switch (c) {
    case BCAST:
      got.assign(n, me == 0 ? 0 : -1);
      want = got;
      if (me == 0) got.assign(in.begin(), in.end()), want = got;
      rc = cz_bcast(got.data(), n, MPI_INT, 0, MPI_COMM_WORLD);
      MPI_Bcast(want.data(), n, MPI_INT, 0, MPI_COMM_WORLD);
      got.resize(n), want.resize(n);
      break;
    case ALLGATHER:
      rc = cz_allgather(in.data(), n, MPI_INT, got.data(), n, MPI_INT, MPI_COMM_WORLD);
      MPI_Allgather(in.data(), n, MPI_INT, want.data(), n, MPI_INT, MPI_COMM_WORLD);
      break;
    case ALLTOALL:
      rc = cz_alltoall(in.data(), n, MPI_INT, got.data(), n, MPI_INT, MPI_COMM_WORLD);
      MPI_Alltoall(in.data(), n, MPI_INT, want.data(), n, MPI_INT, MPI_COMM_WORLD);
      break;
    default:
      got.resize(n), want.resize(n);
      rc = cz_allreduce(in.data(), got.data(), n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
      MPI_Allreduce(in.data(), want.data(), n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
      break;
    }
    const std::string cell = std::string(kName[c]) + " " + std::to_string(bytes) + " B call " +
                             std::to_string(call);
    if (rc != MPI_SUCCESS) return cell + " failed: " + cz_last_error() + "; ";
    if (got != want) return cell + ": differs from MPI's; ";
  }
  return "";
}

// The table's algorithm for the cell, and whether the far state must hand
// it to the library: the shm broadcast from 32 KiB, the shm alltoall and
// (on 2 ranks) allgather from 128 KiB per block (their smaller copy-ins
// stream), never the allreduce.
bool farGoesToLibrary(Coll c, int bytes) {
  char name[64] = "";
  cz_selected_algorithm(kColl[c], worldSize(), bytes, name, sizeof name);
  if (std::string(name).rfind("shm", 0) != 0) return false;
  if (c == ALLGATHER && worldSize() > 2) return false;
  return c == BCAST || ((c == ALLGATHER || c == ALLTOALL) && bytes >= (128 << 10));
}

// The table hands the cell to the library whatever the placement (the keep
// rule's cells, runtime/data/decision-table.txt).
bool tableGivesLibrary(Coll c, int bytes) {
  char name[64] = "";
  cz_selected_algorithm(kColl[c], worldSize(), bytes, name, sizeof name);
  return std::string(name) == "mpi";
}

// Every cell, `calls` calls: results, and library calls `calls` where the
// table or `far` says the library runs, else none.
std::string runCells(bool far, int calls) {
  std::string problem;
  for (int c = 0; c < COLLS; c++)
    for (int bytes : kBlockBytes) {
      const int before = big_calls[c];
      problem += runAgainstMpi(static_cast<Coll>(c), bytes, calls);
      const int lib = big_calls[c] - before;
      const Coll cc = static_cast<Coll>(c);
      const int want =
          tableGivesLibrary(cc, bytes) || (far && farGoesToLibrary(cc, bytes)) ? calls : 0;
      if (lib != want)
        problem += std::string(kName[c]) + " " + std::to_string(bytes) + " B: " +
                   std::to_string(lib) + " library calls, expected " + std::to_string(want) +
                   "; ";
    }
  return problem;
}

// The probe's record on every rank, and that all ranks hold the same.
std::string expectAgreedState(int far, unsigned min_probes) {
  czi_placement pl{};
  if (czi_placement_stats(MPI_COMM_WORLD, &pl) != 0) return "no placement record; ";
  int mine[3] = {pl.far, static_cast<int>(pl.probes), static_cast<int>(pl.changes)};
  int lo[3], hi[3];
  MPI_Allreduce(mine, lo, 3, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(mine, hi, 3, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  std::string problem;
  for (int k = 0; k < 3; k++)
    if (lo[k] != hi[k]) problem += "ranks disagree on the placement record; ";
  if (pl.far != far) problem += "state " + std::to_string(pl.far) + ", expected " +
                                std::to_string(far) + "; ";
  if (pl.probes < min_probes) problem += "only " + std::to_string(pl.probes) + " probes; ";
  return problem;
}

bool placementEnvSet() {
  const char *v = std::getenv("COLLECTIVIZE_TRIALS");
  return v && std::string(v) == "0";
}

// Forced near: the table's own algorithm runs every call (as before the
// placement existed), and no probe runs.
TEST(Placement, ForcedNearRunsTheTablesChoice) {
  if (!placementEnvSet()) GTEST_SKIP() << "needs COLLECTIVIZE_TRIALS=0 (set by ctest)";
  czi_placement_set_mode(CZI_PLACEMENT_NEAR);
  std::string problem = runCells(false, 3);
  czi_placement pl{};
  czi_placement_stats(MPI_COMM_WORLD, &pl);
  if (pl.probes) problem += "forced near, yet probes ran; ";
  CZ_EXPECT_ALL_RANKS_OK("forced near", problem);
}

// Forced far: the shm handovers the far state makes dear go to the library,
// the rest stays own; results as MPI's either way.
TEST(Placement, ForcedFarHandsCachedHandoversToTheLibrary) {
  if (!placementEnvSet()) GTEST_SKIP() << "needs COLLECTIVIZE_TRIALS=0 (set by ctest)";
  czi_placement_set_mode(CZI_PLACEMENT_FAR);
  CZ_EXPECT_ALL_RANKS_OK("forced far", runCells(true, 3));
}

// Forced far, a cell the far state hands to the library: its repeated
// calls go to PMPI_<coll> straight from the trial's record
// (czi_trial_runs_lib), and a failure there comes back with its code and
// czi_<coll>_mpi's message, as from the memo that says lib.
TEST(Placement, ForcedFarLibraryFailureIsDescribed) {
  if (!placementEnvSet()) GTEST_SKIP() << "needs COLLECTIVIZE_TRIALS=0 (set by ctest)";
  czi_placement_set_mode(CZI_PLACEMENT_FAR);
  setenv("COLLECTIVIZE_QUIET", "1", 1);
  std::string problem;
  const int bytes = 128 << 10;
  for (int c = 0; c < COLLS; c++) {
    const Coll cc = static_cast<Coll>(c);
    if (!farGoesToLibrary(cc, bytes) || tableGivesLibrary(cc, bytes)) continue;
    problem += runAgainstMpi(cc, bytes, 3); // the record and memo made
    const int before = big_calls[c];
    fail_next[c] = MPI_ERR_INTERN;
    const std::string result = runAgainstMpi(cc, bytes, 1);
    const std::string name = kName[c];
    std::string want = "czi_" + name + "_mpi: PMPI_";
    want += char(name[0] - 'a' + 'A');
    want += name.substr(1) + " failed";
    if (big_calls[c] - before != 1) // (MPI_<coll> in the library is not counted)
      problem += name + ": " + std::to_string(big_calls[c] - before) +
                 " library calls for one failed call; ";
    if (result.find("failed: " + want) == std::string::npos)
      problem += name + ": '" + result + "', expected '" + want + "'; ";
    problem += runAgainstMpi(cc, bytes, 2); // and calls go on
  }
  unsetenv("COLLECTIVIZE_QUIET");
  CZ_EXPECT_ALL_RANKS_OK("forced far, a failed library call", problem);
}

// Probed: thresholds that make every measured round trip read far, then
// near. Every rank must take the same state at the same call (a split would
// pair a shm algorithm with the library's collective and hang), and the
// calls follow it. Each phase starts with 160 broadcasts of 128 KiB (a
// size the table gives the shm broadcast at P = 2-4), more than the 16 MiB
// between probes, so the state is probed within it. One process has no
// partner: no probe then.
TEST(Placement, ProbedStateIsAgreedAndFollowed) {
  if (!placementEnvSet()) GTEST_SKIP() << "needs COLLECTIVIZE_TRIALS=0 (set by ctest)";
  czi_placement_set_mode(CZI_PLACEMENT_AUTO);
  const bool probes = worldSize() > 1;
  czi_placement_set_thresholds(-1, 1e15);
  std::string problem = runAgainstMpi(BCAST, 128 << 10, 160); // probed at last
  problem += runCells(probes, 20);
  problem += expectAgreedState(probes, probes ? 2 : 0);
  czi_placement_set_thresholds(1e15, 1e15);
  problem += runAgainstMpi(BCAST, 128 << 10, 160);
  problem += runCells(false, 20);
  problem += expectAgreedState(0, probes ? 4 : 0);
  czi_placement_set_thresholds(160, 1500);
  CZ_EXPECT_ALL_RANKS_OK("probed placement", problem);
}

} // namespace
} // namespace cztest
