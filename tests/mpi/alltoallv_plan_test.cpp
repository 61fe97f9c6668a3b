// alltoallv_plan_test.cpp: planned alltoallv (explicit plans and the plan
// cache behind cz_alltoallv) against PMPI_Alltoallv, byte for byte, for
// uniform, random non-uniform, sparse and FFT-transpose count patterns, on
// simulated nodes when COLLECTIVIZE_RANKS_PER_NODE is set (ctest mpi_plan_*),
// plus bad input that must fail on every rank with the same code.
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "algorithms.h"
#include "expect.h"

namespace cztest {
namespace {

// Elements rank `from` sends rank `to` (same function on every rank).
using Pattern = std::function<int(int from, int to)>;

uint32_t mix(uint32_t x) {
  x ^= x >> 16; x *= 0x7feb352dU; x ^= x >> 15; x *= 0x846ca68bU; x ^= x >> 16;
  return x;
}

struct NamedPattern {
  std::string name;
  Pattern count;
};

std::vector<NamedPattern> patterns(int unit) {
  return {
      {"uniform", [unit](int, int) { return unit; }},
      {"random", [unit](int f, int t) { return static_cast<int>(mix(f * 131 + t) % 5) * unit; }},
      // ~1 pair in 6 non-empty, whole rows and columns empty included.
      {"sparse", [unit](int f, int t) { return mix(f * 977 + t * 3) % 6 == 0 ? unit + 1 : 0; }},
      // 3-D FFT transpose of an n^3 grid split in slabs over P ranks where
      // n is not a multiple of P: some ranks own no planes, so whole rows and
      // columns are zero.
      {"fft", [unit](int f, int t) { return (f % 3 == 2 || t % 3 == 2) ? 0 : unit; }},
  };
}

struct Layout2 {
  std::vector<int> counts, displs;
  int span = 0;
};

// Blocks in peer order with a gap of (peer % 3) elements before each.
Layout2 layoutFor(int size, const std::function<int(int)> &countOf) {
  Layout2 v;
  v.counts.resize(size);
  v.displs.resize(size);
  for (int peer = 0; peer < size; peer++) {
    v.span += peer % 3;
    v.counts[peer] = countOf(peer);
    v.displs[peer] = v.span;
    v.span += v.counts[peer];
  }
  return v;
}

struct Case {
  Layout2 s, r;
  const Layout *type;
  MPI_Comm comm;
  int rank;
};

Case makeCase(const Pattern &count, const Layout &type, MPI_Comm comm) {
  Case c;
  int size = 0;
  MPI_Comm_size(comm, &size);
  MPI_Comm_rank(comm, &c.rank);
  c.s = layoutFor(size, [&](int to) { return count(c.rank, to); });
  c.r = layoutFor(size, [&](int from) { return count(from, c.rank); });
  c.type = &type;
  c.comm = comm;
  return c;
}

// Runs `candidate` on fresh data (salt) and compares with PMPI_Alltoallv.
std::string checkOnce(const Case &c, int salt,
                      const std::function<int(const void *, void *)> &candidate) {
  Bytes send(static_cast<size_t>(c.s.span) * c.type->extent + 1);
  Bytes expected(static_cast<size_t>(c.r.span) * c.type->extent + 1);
  fillPayload(send, c.rank, salt);
  fillSentinel(expected);
  Bytes actual = expected;
  int rc = candidate(send.data(), actual.data());
  if (rc != MPI_SUCCESS) return "candidate " + describeReturn(rc);
  if (PMPI_Alltoallv(send.data(), c.s.counts.data(), c.s.displs.data(), c.type->type,
                     expected.data(), c.r.counts.data(), c.r.displs.data(), c.type->type,
                     c.comm) != MPI_SUCCESS)
    return "reference failed";
  std::string diff = compareBuffers(expected, actual);
  return diff.empty() ? "" : "salt " + std::to_string(salt) + ": " + diff;
}

int create(const Case &c, cz_alltoallv_plan_t *plan) {
  return cz_alltoallv_plan_create(c.s.counts.data(), c.s.displs.data(), c.type->type,
                                  c.r.counts.data(), c.r.displs.data(), c.type->type,
                                  c.comm, plan);
}

std::function<int(const void *, void *)> executing(cz_alltoallv_plan_t plan) {
  return [plan](const void *s, void *r) { return cz_alltoallv_plan_execute(plan, s, r); };
}

std::function<int(const void *, void *)> dispatching(const Case &c) {
  return [&c](const void *s, void *r) {
    return cz_alltoallv(s, c.s.counts.data(), c.s.displs.data(), c.type->type, r,
                        c.r.counts.data(), c.r.displs.data(), c.type->type, c.comm);
  };
}

// One plan, executed three times with different data.
std::string checkPlan(const Case &c) {
  cz_alltoallv_plan_t plan = nullptr;
  int rc = create(c, &plan);
  if (rc != MPI_SUCCESS) return "create " + describeReturn(rc);
  std::string problem;
  for (int salt = 0; salt < 3 && problem.empty(); salt++)
    problem = checkOnce(c, salt, executing(plan));
  if (!problem.empty()) problem += std::string(" (plan runs ") + cz_alltoallv_plan_algorithm(plan) + ")";
  cz_alltoallv_plan_free(&plan);
  return problem;
}

TEST(AlltoallvPlan, PatternsByDatatypes) {
  for (const char *type : {"MPI_DOUBLE", "MPI_BYTE", "strided_ints"})
    for (int unit : {1, 40})
      for (const NamedPattern &pat : patterns(unit)) {
        const Layout &layout = layoutNamed(type);
        Case c = makeCase(pat.count, layout, MPI_COMM_WORLD);
        CZ_EXPECT_ALL_RANKS_OK(pat.name + " " + type + " unit " + std::to_string(unit),
                               checkPlan(c));
      }
}

TEST(AlltoallvPlan, SubCommunicators) {
  for (const NamedComm &comm : testCommunicators())
    for (const NamedPattern &pat : patterns(3)) {
      Case c = makeCase(pat.count, layoutNamed("MPI_INT"), comm.comm);
      CZ_EXPECT_ALL_RANKS_OK(comm.name + " " + pat.name, checkPlan(c));
    }
}

TEST(AlltoallvPlan, SeveralPlansAliveInterleaved) {
  std::vector<NamedPattern> pats = patterns(2);
  std::vector<Case> cases;
  for (const NamedPattern &pat : pats)
    cases.push_back(makeCase(pat.count, layoutNamed("MPI_DOUBLE"), MPI_COMM_WORLD));
  std::vector<cz_alltoallv_plan_t> plans(cases.size(), nullptr);
  std::string problem;
  for (size_t i = 0; i < cases.size() && problem.empty(); i++) {
    int rc = create(cases[i], &plans[i]);
    if (rc != MPI_SUCCESS) problem = "create " + describeReturn(rc);
  }
  for (int round = 0; round < 3 && problem.empty(); round++)
    for (size_t i = 0; i < cases.size() && problem.empty(); i++) {
      problem = checkOnce(cases[i], round * 10 + static_cast<int>(i), executing(plans[i]));
      if (!problem.empty()) problem = pats[i].name + ": " + problem;
    }
  for (cz_alltoallv_plan_t &p : plans) cz_alltoallv_plan_free(&p);
  CZ_EXPECT_ALL_RANKS_OK(std::string("4 plans, 3 rounds"), problem);
}

// cz_alltoallv with the cache: repeats, more keys than the cache holds
// (eviction), and keys that change on some ranks only (the ranks must notice
// they disagree).
TEST(AlltoallvPlan, CachedDispatch) {
  std::vector<Case> cases;
  for (int unit : {1, 5, 20})
    for (const NamedPattern &pat : patterns(unit))
      cases.push_back(makeCase(pat.count, layoutNamed("MPI_DOUBLE"), MPI_COMM_WORLD));
  std::string problem;
  for (int round = 0; round < 3 && problem.empty(); round++)
    for (size_t i = 0; i < cases.size() && problem.empty(); i++)
      for (int rep = 0; rep < 2 && problem.empty(); rep++) {
        problem = checkOnce(cases[i], round * 100 + rep, dispatching(cases[i]));
        if (!problem.empty())
          problem = "case " + std::to_string(i) + " round " + std::to_string(round) + ": " + problem;
      }
  CZ_EXPECT_ALL_RANKS_OK(std::string("12 keys x 3 rounds x 2"), problem);

  // Only the pair (0, 1) changes between the two keys: ranks >= 2 see the
  // same arguments both times.
  Pattern base = [](int f, int t) { return 1 + (f + t) % 3; };
  Pattern changed = [](int f, int t) { return (f < 2 && t < 2 && f != t) ? 7 : 1 + (f + t) % 3; };
  Case a = makeCase(base, layoutNamed("MPI_DOUBLE"), MPI_COMM_WORLD);
  Case b = makeCase(changed, layoutNamed("MPI_DOUBLE"), MPI_COMM_WORLD);
  problem.clear();
  for (int i = 0; i < 8 && problem.empty(); i++) {
    const Case &c = (i / 2) % 2 ? b : a;
    problem = checkOnce(c, i, dispatching(c));
    if (!problem.empty()) problem = "call " + std::to_string(i) + ": " + problem;
  }
  CZ_EXPECT_ALL_RANKS_OK(std::string("keys differing on two ranks"), problem);
}

TEST(AlltoallvPlan, FreedCommunicator) {
  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  Case c = makeCase(patterns(2)[1].count, layoutNamed("MPI_DOUBLE"), dup);
  std::string problem;
  for (int i = 0; i < 3 && problem.empty(); i++) problem = checkOnce(c, i, dispatching(c));
  cz_alltoallv_plan_t plan = nullptr;
  if (problem.empty() && create(c, &plan) != MPI_SUCCESS) problem = "create failed";
  MPI_Comm_free(&dup);
  setenv("COLLECTIVIZE_QUIET", "1", 1);
  if (problem.empty()) {
    std::vector<double> s(1024), r(1024);
    int rc = cz_alltoallv_plan_execute(plan, s.data(), r.data());
    if (rc != MPI_ERR_COMM) problem = "execute after MPI_Comm_free: " + describeReturn(rc);
  }
  unsetenv("COLLECTIVIZE_QUIET");
  if (cz_alltoallv_plan_free(&plan) != MPI_SUCCESS || plan) problem += " free failed";
  CZ_EXPECT_ALL_RANKS_OK(std::string("plan on a freed communicator"), problem);
}

// Bad input on one rank: every rank gets the same code and a message naming
// the problem, and no plan.
std::string expectFailure(const Case &c, int code, const std::string &needle) {
  cz_alltoallv_plan_t plan = nullptr;
  int rc = create(c, &plan);
  std::string msg = cz_last_error();
  std::string problem;
  if (rc != code)
    problem = "returned " + std::to_string(rc) + ", expected " + std::to_string(code) + " (" + msg + ")";
  else if (msg.find(needle) == std::string::npos)
    problem = "message '" + msg + "' lacks '" + needle + "'";
  else if (plan)
    problem = "a plan was returned";
  cz_alltoallv_plan_free(&plan);
  return problem;
}

TEST(AlltoallvPlan, BadInputFailsEverywhere) {
  setenv("COLLECTIVIZE_QUIET", "1", 1);
  const int last = worldSize() - 1;
  const Layout &ints = layoutNamed("MPI_INT");
  Case c = makeCase([](int, int) { return 2; }, ints, MPI_COMM_WORLD);
  if (worldRank() == last) c.s.counts[0] = -1;
  CZ_EXPECT_ALL_RANKS_OK(std::string("negative count on the last rank"),
                         expectFailure(c, MPI_ERR_COUNT, "negative"));

  c = makeCase([](int, int) { return 2; }, ints, MPI_COMM_WORLD);
  if (worldRank() == last) c.s.counts[0] = 3; // rank 0 expects 2
  CZ_EXPECT_ALL_RANKS_OK(std::string("counts disagree between ranks"),
                         expectFailure(c, MPI_ERR_TRUNCATE, "counts disagree"));

  c = makeCase([](int, int) { return 2; }, ints, MPI_COMM_WORLD);
  if (worldRank() == last) c.r.displs[last] = c.r.displs[0] + 1; // overlaps block 0
  if (worldSize() > 1)
    CZ_EXPECT_ALL_RANKS_OK(std::string("overlapping receive blocks"),
                           expectFailure(c, MPI_ERR_BUFFER, "overlap"));

  unsetenv("COLLECTIVIZE_QUIET");
}

} // namespace
} // namespace cztest
