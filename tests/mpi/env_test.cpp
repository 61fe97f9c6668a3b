// env_test.cpp: COLLECTIVIZE_<COLL>_ALGORITHM and COLLECTIVIZE_TUNING. The
// runtime reads its environment once, at the first selection, so each test
// runs in its own mpirun launch with its own environment (CMakeLists.txt sets
// it and picks the test with --gtest_filter). Run without that environment, a
// test skips itself.
#include <cstdlib>
#include <string>

#include <gtest/gtest.h>

#include "block_collectives.h"
#include "expect.h"
#include "plan.h"
#include "registry.h"
#include "shm.h"
#include "stderr_capture.h"

#include <sched.h>

namespace cztest {
namespace {

std::string selected(cz_collective coll, int nprocs, long long bytes) {
  char name[128] = "";
  if (cz_selected_algorithm(coll, nprocs, bytes, name, sizeof name) != MPI_SUCCESS)
    return std::string("error: ") + cz_last_error();
  return name;
}

// What the built-in table alone says, computed from the compiled-in text so
// the tests keep up when the table is re-tuned.
std::string builtinChoice(cz_collective coll, int nprocs, long long bytes) {
  czi_table table;
  char err[512];
  if (czi_table_parse(czi_builtin_table_text, "built-in", &table, err, sizeof err))
    return std::string("built-in table does not parse: ") + err;
  const czi_rule *rule = czi_table_lookup(&table, coll, nprocs, bytes);
  char name[128] = "mpi";
  if (rule) czi_algorithm_format(rule->alg, rule->param, name, sizeof name);
  czi_table_free(&table);
  return name;
}

std::string expectSelected(cz_collective coll, int nprocs, long long bytes,
                           const std::string &expected) {
  std::string got = selected(coll, nprocs, bytes);
  if (got == expected) return "";
  return std::string(cz_collective_name(coll)) + " P=" + std::to_string(nprocs) +
         " bytes=" + std::to_string(bytes) + ": selected '" + got +
         "', expected '" + expected + "'; ";
}

std::string expectContains(const std::string &text, const std::string &needle) {
  if (text.find(needle) != std::string::npos) return "";
  return "stderr lacks '" + needle + "' (stderr: '" + text + "'); ";
}

#define REQUIRE_ENV(var, value)                                        \
  do {                                                                 \
    const char *v_ = std::getenv(var);                                 \
    if (!v_ || std::string(v_).find(value) == std::string::npos)       \
      GTEST_SKIP() << "needs " var "=..." value " (set by ctest)";     \
  } while (0)

TEST(Environment, ForcedAlgorithmIsReported) {
  REQUIRE_ENV("COLLECTIVIZE_ALLTOALL_ALGORITHM", "pairwise");
  StderrCapture err;
  std::string problem;
  for (int nprocs : {1, 2, 7, 64})
    for (long long bytes : {0LL, 8LL, 1LL << 20})
      problem += expectSelected(CZ_COLL_ALLTOALL, nprocs, bytes, "pairwise");
  // Other collectives keep the table's choice.
  problem += expectSelected(CZ_COLL_ALLGATHER, 8, 1024, builtinChoice(CZ_COLL_ALLGATHER, 8, 1024));
  std::string printed = err.text();
  if (!printed.empty()) problem += "unexpected stderr: '" + printed + "'";
  CZ_EXPECT_ALL_RANKS_OK("COLLECTIVIZE_ALLTOALL_ALGORITHM=pairwise", problem);
}

TEST(Environment, ForcedAlgorithmWithRadix) {
  REQUIRE_ENV("COLLECTIVIZE_ALLTOALL_ALGORITHM", "bruck:4");
  CZ_EXPECT_ALL_RANKS_OK("COLLECTIVIZE_ALLTOALL_ALGORITHM=bruck:4",
                         expectSelected(CZ_COLL_ALLTOALL, 8, 1024, "bruck:4"));
}

TEST(Environment, UnknownForcedAlgorithmIsWarnedAboutAndIgnored) {
  REQUIRE_ENV("COLLECTIVIZE_ALLTOALL_ALGORITHM", "nonesuch");
  StderrCapture err;
  std::string problem = expectSelected(CZ_COLL_ALLTOALL, 8, 1024,
                                       builtinChoice(CZ_COLL_ALLTOALL, 8, 1024));
  std::string printed = err.text();
  problem += expectContains(printed, "COLLECTIVIZE_ALLTOALL_ALGORITHM");
  problem += expectContains(printed, "nonesuch");
  problem += expectContains(printed, cz_algorithm_names(CZ_COLL_ALLTOALL));
  CZ_EXPECT_ALL_RANKS_OK("COLLECTIVIZE_ALLTOALL_ALGORITHM=nonesuch", problem);
}

TEST(Environment, BadTuningFileIsWarnedAboutAndBuiltinTableUsed) {
  REQUIRE_ENV("COLLECTIVIZE_TUNING", "tuning-bad-line3.txt");
  StderrCapture err;
  std::string problem;
  // Lines 1 and 2 of the file are valid and say pairwise / ring: none of it
  // may be used.
  for (int nprocs : {2, 8})
    for (long long bytes : {8LL, 4096LL}) {
      problem += expectSelected(CZ_COLL_ALLTOALL, nprocs, bytes,
                                builtinChoice(CZ_COLL_ALLTOALL, nprocs, bytes));
      problem += expectSelected(CZ_COLL_ALLGATHER, nprocs, bytes,
                                builtinChoice(CZ_COLL_ALLGATHER, nprocs, bytes));
    }
  std::string printed = err.text();
  problem += expectContains(printed, std::string(std::getenv("COLLECTIVIZE_TUNING")) + ":3:");
  CZ_EXPECT_ALL_RANKS_OK("COLLECTIVIZE_TUNING=tuning-bad-line3.txt", problem);
}

TEST(Environment, GoodTuningFileIsObeyed) {
  REQUIRE_ENV("COLLECTIVIZE_TUNING", "tuning-good.txt");
  const char *forced = std::getenv("COLLECTIVIZE_ALLTOALL_ALGORITHM");
  if (forced && *forced) GTEST_SKIP() << "alltoall is forced";
  StderrCapture err;
  std::string problem;
  problem += expectSelected(CZ_COLL_ALLTOALL, 8, 1024, "spread_out");
  problem += expectSelected(CZ_COLL_ALLTOALL, 8, 4096, "spread_out");
  problem += expectSelected(CZ_COLL_ALLTOALL, 8, 4097, "pairwise");
  problem += expectSelected(CZ_COLL_ALLTOALL, 8, 1 << 20, "bruck:4");
  problem += expectSelected(CZ_COLL_ALLTOALL, 1, 1 << 20, "pairwise");
  problem += expectSelected(CZ_COLL_ALLTOALL, 4, 100, "pairwise");
  problem += expectSelected(CZ_COLL_ALLGATHER, 3, 100, "ring");
  problem += expectSelected(CZ_COLL_ALLGATHER, 4, 100, "mpi"); // no rule
  problem += expectSelected(CZ_COLL_BCAST, 16, 1024, "binomial");
  problem += expectSelected(CZ_COLL_BCAST, 16, 1025, "mpi");
  problem += expectSelected(CZ_COLL_ALLTOALLV, 16, 0, "mpi");
  std::string printed = err.text();
  if (!printed.empty()) problem += "unexpected stderr: '" + printed + "'";
  CZ_EXPECT_ALL_RANKS_OK("COLLECTIVIZE_TUNING=tuning-good.txt", problem);
}

TEST(Environment, ForcedAlgorithmBeatsTuningFile) {
  REQUIRE_ENV("COLLECTIVIZE_TUNING", "tuning-good.txt");
  REQUIRE_ENV("COLLECTIVIZE_ALLTOALL_ALGORITHM", "bruck:3");
  std::string problem = expectSelected(CZ_COLL_ALLTOALL, 8, 1024, "bruck:3");
  problem += expectSelected(CZ_COLL_ALLGATHER, 3, 100, "ring"); // file still used
  CZ_EXPECT_ALL_RANKS_OK("forced bruck:3 over tuning-good.txt", problem);
}

// Too little shared memory for a window: the shm algorithms still give the
// library's result, through the library's collectives, and say so once per
// process however many calls and communicators meet the problem.
TEST(Environment, TooLittleSharedMemoryFallsBackWithOneWarning) {
  REQUIRE_ENV("COLLECTIVIZE_SHM_BYTES", "4096");
  StderrCapture err;
  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  std::string problem;
  const Layout &ints = layoutNamed("MPI_INT");
  for (MPI_Comm comm : {MPI_COMM_WORLD, dup, MPI_COMM_WORLD})
    for (int count : {1, 3000}) {
      BlockCall call = sameTypes(ints, count);
      call.comm = comm;
      problem += checkBlockCollective(CZ_COLL_ALLTOALL, "shm_push", call);
      problem += checkBlockCollective(CZ_COLL_ALLTOALL, "shm_pull", call);
      problem += checkBlockCollective(CZ_COLL_ALLTOALL, "shm_flag_push", call);
      problem += checkBlockCollective(CZ_COLL_ALLTOALL, "shm_flag_pull", call);
      problem += checkBlockCollective(CZ_COLL_ALLGATHER, "shm", call);
      problem += checkBlockCollective(CZ_COLL_ALLGATHER, "shm_flag", call);
      std::vector<int> sum(count, worldRank() + 1), total(count);
      PMPI_Allreduce(sum.data(), total.data(), count, MPI_INT, MPI_SUM, comm);
      if (cz_allreduce_shm(MPI_IN_PLACE, sum.data(), count, MPI_INT, MPI_SUM, comm) !=
          MPI_SUCCESS)
        problem += "allreduce failed: " + std::string(cz_last_error()) + "; ";
      else if (sum != total)
        problem += "allreduce: wrong data; ";
      std::vector<int> got(count, worldRank()), want(count, 7);
      if (worldRank() == 0) got = want;
      if (cz_bcast_shm(got.data(), count, MPI_INT, 0, comm) != MPI_SUCCESS)
        problem += "bcast failed: " + std::string(cz_last_error()) + "; ";
      else if (got != want)
        problem += "bcast: wrong data; ";
    }
  MPI_Comm_free(&dup);
  const std::string printed = err.text();
  const std::string warning = "shared-memory collectives unavailable";
  size_t first = printed.find(warning);
  if (first == std::string::npos || printed.find(warning, first + 1) != std::string::npos)
    problem += "expected the warning exactly once, stderr: '" + printed + "'; ";
  problem += expectContains(printed, "COLLECTIVIZE_SHM_BYTES=4096");
  CZ_EXPECT_ALL_RANKS_OK("COLLECTIVIZE_SHM_BYTES=4096", problem);
}

// mpirun binds each of a few ranks to its own core (--bind-to core): a
// rank's own affinity then shows one CPU, but the node's ranks have one each
// and its shared-memory waiters must not sleep as if oversubscribed (they
// did: small shm calls ran 20-40x slower than yielding).
TEST(Environment, BoundRanksCountTheNodesCores) {
  cpu_set_t mine;
  if (sched_getaffinity(0, sizeof mine, &mine) != 0 || CPU_COUNT(&mine) != 1)
    GTEST_SKIP() << "run under mpirun --bind-to core (CMakeLists.txt)";
  std::string problem;
  MPI_Comm priv = MPI_COMM_NULL;
  int usable = 0;
  czi_shm_view v;
  if (czi_private_comm(MPI_COMM_WORLD, &priv) != MPI_SUCCESS ||
      czi_shm_get(priv, 0, &v, &usable) != MPI_SUCCESS) {
    problem = std::string("no shared-memory view: ") + cz_last_error();
  } else {
    if (v.ctx->node_cores != v.p)
      problem += "node cores " + std::to_string(v.ctx->node_cores) + ", expected one per rank (" +
                 std::to_string(v.p) + "); ";
    czi_shm_wait_for(&v, 8);
    if (v.sleeps) problem += "waiters of an 8-byte call sleep although no core is shared; ";
  }
  CZ_EXPECT_ALL_RANKS_OK("bound ranks", problem);
}

} // namespace
} // namespace cztest
