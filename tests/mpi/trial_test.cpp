// trial_test.cpp: the table's own algorithm on trial against the MPI
// library's collective (runtime/src/decision/trial.c), made to lose with
// COLLECTIVIZE_TRIAL_OWN_SCALE (each test runs in its own launch with the
// environment tests/mpi/CMakeLists.txt gives it; without it, it skips).
// Every call's result is checked, before and after the verdict changes.
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "expect.h"
#include "placement.h"
#include "registry.h"
#include "stderr_capture.h"
#include "trial.h"

namespace cztest {
namespace {

// The cells tried: large enough to be on trial, and (at P = 2) cells the
// built-in table gives an own algorithm.
constexpr int kInts = 16384; // 64 KiB of MPI_INT

int value(int rank, int index, int call) { return rank * 1000003 + index * 7 + call; }

// `calls` calls of each collective through cz_<coll>, each result checked
// against what the data says it must be.
std::string runCalls(int calls) {
  const int me = worldRank(), p = worldSize();
  std::string problem;
  std::vector<int> send(kInts * p), recv(kInts * p);
  for (int call = 0; call < calls; call++) {
    for (int i = 0; i < kInts; i++) send[i] = value(me, i, call);
    if (cz_allgather(send.data(), kInts, MPI_INT, recv.data(), kInts, MPI_INT,
                     MPI_COMM_WORLD) != MPI_SUCCESS)
      return "allgather failed: " + std::string(cz_last_error());
    for (int r = 0; r < p; r++)
      for (int i = 0; i < kInts; i++)
        if (recv[r * kInts + i] != value(r, i, call))
          return "allgather call " + std::to_string(call) + ": wrong data from rank " +
                 std::to_string(r);

    for (int r = 0; r < p; r++)
      for (int i = 0; i < kInts; i++) send[r * kInts + i] = value(me, r * kInts + i, call);
    if (cz_alltoall(send.data(), kInts, MPI_INT, recv.data(), kInts, MPI_INT,
                    MPI_COMM_WORLD) != MPI_SUCCESS)
      return "alltoall failed: " + std::string(cz_last_error());
    for (int r = 0; r < p; r++)
      for (int i = 0; i < kInts; i++)
        if (recv[r * kInts + i] != value(r, me * kInts + i, call))
          return "alltoall call " + std::to_string(call) + ": wrong data from rank " +
                 std::to_string(r);

    for (int i = 0; i < kInts; i++) recv[i] = me == 0 ? value(0, i, call) : -1;
    if (cz_bcast(recv.data(), kInts, MPI_INT, 0, MPI_COMM_WORLD) != MPI_SUCCESS)
      return "bcast failed: " + std::string(cz_last_error());
    for (int i = 0; i < kInts; i++)
      if (recv[i] != value(0, i, call))
        return "bcast call " + std::to_string(call) + ": wrong data";

    for (int i = 0; i < kInts; i++) send[i] = value(me, i, call);
    if (cz_allreduce(send.data(), recv.data(), kInts, MPI_INT, MPI_SUM,
                     MPI_COMM_WORLD) != MPI_SUCCESS)
      return "allreduce failed: " + std::string(cz_last_error());
    for (int i = 0; i < kInts; i++) {
      long long want = 0;
      for (int r = 0; r < p; r++) want += value(r, i, call);
      if (recv[i] != (int)want) return "allreduce call " + std::to_string(call) + ": wrong sum";
    }
  }
  return problem;
}

const cz_collective kColls[] = {CZ_COLL_ALLGATHER, CZ_COLL_ALLTOALL, CZ_COLL_BCAST,
                                CZ_COLL_ALLREDUCE};

// The table must give these cells an own algorithm, or nothing is on trial.
std::string expectOwnInTable() {
  std::string problem;
  for (cz_collective coll : kColls) {
    char name[128] = "";
    cz_selected_algorithm(coll, worldSize(), kInts * 4LL, name, sizeof name);
    if (std::string(name) == "mpi")
      problem += std::string(cz_collective_name(coll)) + " is not an own algorithm; ";
  }
  return problem;
}

// Every rank's verdict for every collective, and that all ranks hold the
// same ones.
std::string expectVerdicts(int want) {
  std::string problem;
  for (cz_collective coll : kColls) {
    int trials = 0;
    const int got = czi_trial_verdict(MPI_COMM_WORLD, coll, kInts * 4LL, &trials);
    int lo = got, hi = got;
    MPI_Allreduce(MPI_IN_PLACE, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    const std::string name = cz_collective_name(coll);
    if (lo != hi) problem += name + ": ranks disagree (" + std::to_string(lo) + " vs " +
                             std::to_string(hi) + "); ";
    if (got != want)
      problem += name + ": verdict " + std::to_string(got) + ", expected " +
                 std::to_string(want) + "; ";
    if (want >= 0 && trials < 1) problem += name + ": no trial ran; ";
  }
  return problem;
}

// Floating-point allreduces never go on trial: the runtime's and the
// library's allreduce add the ranks' values in different orders, and a
// verdict that moves the cell would change the results' last bits from one
// call to the next. `calls` allreduces of 128 KiB of doubles (a cell the
// table gives an own algorithm, no int cell above shares it) must give the
// same bits every time and leave no trial record.
std::string expectDoublesNeverOnTrial(int calls) {
  const int me = worldRank(), p = worldSize();
  constexpr int kDoubles = 16384;
  std::string problem;
  char name[128] = "";
  cz_selected_algorithm(CZ_COLL_ALLREDUCE, p, kDoubles * 8LL, name, sizeof name);
  if (std::string(name) == "mpi") return "allreduce of 128 KiB is not an own algorithm; ";
  std::vector<double> send(kDoubles), first(kDoubles), recv(kDoubles);
  for (int i = 0; i < kDoubles; i++) send[i] = (me + 1) * 0.1 + i * 1e-7 + 1e10 * (i % 3 == me % 3);
  for (int call = 0; call < calls; call++) {
    if (cz_allreduce(send.data(), recv.data(), kDoubles, MPI_DOUBLE, MPI_SUM,
                     MPI_COMM_WORLD) != MPI_SUCCESS)
      return "double allreduce failed: " + std::string(cz_last_error());
    if (call == 0) first = recv;
    else if (std::memcmp(first.data(), recv.data(), kDoubles * sizeof(double)) != 0)
      return "double allreduce call " + std::to_string(call) + ": other bits than call 0; ";
  }
  int trials = 0;
  const int got = czi_trial_verdict(MPI_COMM_WORLD, CZ_COLL_ALLREDUCE, kDoubles * 8LL, &trials);
  if (got != -1 || trials != 0)
    problem += "double allreduce on trial (verdict " + std::to_string(got) + ", " +
               std::to_string(trials) + " trials); ";
  return problem;
}

#define REQUIRE_VAR(var, value)                                        \
  do {                                                                 \
    const char *v_ = std::getenv(var);                                 \
    if (!v_ || std::string(v_) != (value))                             \
      GTEST_SKIP() << "needs " var "=" value " (set by ctest)";        \
  } while (0)

// Every rank sees its own algorithm 10000x slower than measured (so that
// no library call, however delayed on a loaded machine, looks slower):
// after two trials that agree (16 calls, 6 trial calls, 16 calls, 6 more)
// every cell runs the library's collective, on every rank, with the same
// results.
TEST(Environment, TrialHandsASlowOwnAlgorithmToTheLibrary) {
  REQUIRE_VAR("COLLECTIVIZE_TRIAL_OWN_SCALE", "10000");
  std::string problem = expectOwnInTable();
  problem += runCalls(60);
  problem += expectVerdicts(1);
  problem += expectDoublesNeverOnTrial(60);
  CZ_EXPECT_ALL_RANKS_OK("own algorithm 10000x slower", problem);
}

// Only the last rank sees it slow; the others see it 10000x faster. A verdict
// taken rank by rank would split (and a shared-memory algorithm on one rank
// facing the library's collective on another hangs or mixes data); the
// agreed one follows the slowest rank.
TEST(Environment, TrialVerdictIsAgreedWhenOnlyOneRankSeesItSlow) {
  REQUIRE_VAR("COLLECTIVIZE_TRIAL_OWN_SCALE", "10000");
  if (worldRank() != worldSize() - 1) czi_trial_set_own_scale(1e-4);
  std::string problem = expectOwnInTable();
  problem += runCalls(60);
  problem += expectVerdicts(1);
  CZ_EXPECT_ALL_RANKS_OK("own algorithm slow on the last rank only", problem);
}

// COLLECTIVIZE_TRIALS=0 (and COLLECTIVIZE_PLACEMENT=near, whose probe
// otherwise keeps the records): nothing is on trial, whatever the scale says.
TEST(Environment, TrialsOffKeepTheTablesChoice) {
  REQUIRE_VAR("COLLECTIVIZE_TRIALS", "0");
  std::string problem = runCalls(60);
  problem += expectVerdicts(-1);
  CZ_EXPECT_ALL_RANKS_OK("trials off", problem);
}

// COLLECTIVIZE_PLACEMENT=far from the environment: the far-apart choice on
// every call, no probe; results as before. A value that is none of near,
// far, auto is named in a warning and auto is used.
TEST(Environment, PlacementFarFromTheEnvironment) {
  REQUIRE_VAR("COLLECTIVIZE_PLACEMENT", "far");
  std::string problem;
  if (czi_placement_mode_now() != CZI_PLACEMENT_FAR) problem += "mode is not far; ";
  problem += runCalls(20);
  czi_placement pl{};
  if (czi_placement_stats(MPI_COMM_WORLD, &pl) != 0 || pl.probes != 0)
    problem += "probes ran (" + std::to_string(pl.probes) + "); ";
  CZ_EXPECT_ALL_RANKS_OK("COLLECTIVIZE_PLACEMENT=far", problem);
}

TEST(Environment, BadPlacementIsWarnedAboutAndAutoUsed) {
  REQUIRE_VAR("COLLECTIVIZE_PLACEMENT", "sideways");
  StderrCapture err;
  const czi_placement_mode mode = czi_placement_mode_now();
  const std::string printed = err.text();
  std::string problem;
  if (mode != CZI_PLACEMENT_AUTO) problem += "mode is not auto; ";
  if (printed.find("COLLECTIVIZE_PLACEMENT='sideways'") == std::string::npos)
    problem += "no warning naming the value: '" + printed + "'; ";
  CZ_EXPECT_ALL_RANKS_OK("COLLECTIVIZE_PLACEMENT=sideways", problem);
}

} // namespace
} // namespace cztest
