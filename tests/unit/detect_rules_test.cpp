// The registry of detection rules (detector/analysis/src/rules.cpp): each
// kind of the one table is found by some rule (a kind added to the table
// without the rule that finds it fails here), names are unique, and the
// progress phases come in the order `detect --progress` has always named
// them. And what the table of kinds gives the report: each kind's call.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "collectivize_trace_format.h"
#include "collectivize/detect.h"
#include "collectivize/report.h"
#include "rules.h"

using namespace cz::detect;

TEST(DetectionRules, EveryKindOfTheTableHasARule) {
  std::set<Kind> found;
  for (const RuleDescription &r : detectionRuleList()) found.insert(r.finds.begin(), r.finds.end());
#define COLLECTIVE_KIND(Enum, name, call, rooted, counts, reduction, exchange, args) \
  EXPECT_TRUE(found.count(Kind::Enum)) << name << " is in collective_kinds.def but no rule finds it";
#include "collectivize/collective_kinds.def"
#undef COLLECTIVE_KIND
}

TEST(DetectionRules, NamesAreUniqueAndEveryRuleSaysWhatItProves) {
  std::set<std::string> names;
  for (const RuleDescription &r : detectionRuleList()) {
    EXPECT_TRUE(names.insert(r.name).second) << r.name;
    EXPECT_FALSE(r.proves.empty()) << r.name;
    EXPECT_FALSE(r.finds.empty()) << r.name;
  }
}

TEST(DetectionRules, PhasesInTheirOrderAndTheLastRuleClosesOne) {
  std::vector<std::string> phases;
  for (const detail::DetectionRule &r : detail::detectionRules())
    if (*r.phase) phases.push_back(r.phase);
  EXPECT_EQ(phases, (std::vector<std::string>{"tiling", "barriers", "block flows", "prefix reductions", "reductions", "spreads",
                                              "provenance and gathering"}));
  ASSERT_FALSE(detail::detectionRules().empty());
  EXPECT_STRNE(detail::detectionRules().back().phase, "");
}

TEST(DetectionRules, TextNumbersTheRulesInRunOrder) {
  std::string text = detectionRuleText();
  size_t tiling = text.find("1. tiling (scatter, gather, allgather, alltoall)");
  size_t spread = text.find(". spread (bcast)");
  ASSERT_NE(tiling, std::string::npos) << text;
  ASSERT_NE(spread, std::string::npos) << text;
  EXPECT_LT(tiling, spread);
  EXPECT_NE(text.find("   proves: "), std::string::npos);
}

// The report's "equivalent" is made from the table's arguments
// (collective_kinds.def, args): every kind, as the report has written it
// since each kind came in.
TEST(KindsTable, EquivalentCallOfEveryKind) {
  Match m;
  m.count = 4;
  m.datatype = CZ_TRACE_TYPE_INT;
  m.root = 2;
  const std::pair<Kind, const char *> expected[] = {
      {Kind::Bcast, "MPI_Bcast(buf, 4, MPI_INT, 2, comm)"},
      {Kind::Scatter, "MPI_Scatter(sendbuf, 4, MPI_INT, recvbuf, 4, MPI_INT, 2, comm)"},
      {Kind::Gather, "MPI_Gather(sendbuf, 4, MPI_INT, recvbuf, 4, MPI_INT, 2, comm)"},
      {Kind::Reduce, "MPI_Reduce(sendbuf, recvbuf, 4, MPI_INT, op, 2, comm)"},
      {Kind::Allreduce, "MPI_Allreduce(sendbuf, recvbuf, 4, MPI_INT, op, comm)"},
      {Kind::Allgather, "MPI_Allgather(sendbuf, 4, MPI_INT, recvbuf, 4, MPI_INT, comm)"},
      {Kind::Alltoall, "MPI_Alltoall(sendbuf, 4, MPI_INT, recvbuf, 4, MPI_INT, comm)"},
      {Kind::Barrier, "MPI_Barrier(comm)"},
      {Kind::Gatherv, "MPI_Gatherv(sendbuf, sendcount, MPI_INT, recvbuf, recvcounts, displs, MPI_INT, 2, comm)"},
      {Kind::Scatterv, "MPI_Scatterv(sendbuf, sendcounts, displs, MPI_INT, recvbuf, recvcount, MPI_INT, 2, comm)"},
      {Kind::Alltoallv, "MPI_Alltoallv(sendbuf, sendcounts, sdispls, MPI_INT, recvbuf, recvcounts, rdispls, "
                        "MPI_INT, comm)"},
      {Kind::Scan, "MPI_Scan(sendbuf, recvbuf, 4, MPI_INT, op, comm)"},
      {Kind::Exscan, "MPI_Exscan(sendbuf, recvbuf, 4, MPI_INT, op, comm)"},
      {Kind::ReduceScatter, "MPI_Reduce_scatter_block(sendbuf, recvbuf, 4, MPI_INT, op, comm)"},
      {Kind::Allgatherv, "MPI_Allgatherv(sendbuf, sendcount, MPI_INT, recvbuf, recvcounts, displs, MPI_INT, comm)"},
  };
  std::set<Kind> seen;
  for (const auto &[kind, call] : expected) {
    m.kind = kind;
    EXPECT_EQ(equivalentCall(m), call);
    seen.insert(kind);
  }
  int kinds = 0;
#define COLLECTIVE_KIND(Enum, name, call, rooted, counts, reduction, exchange, args) kinds++;
#include "collectivize/collective_kinds.def"
#undef COLLECTIVE_KIND
  EXPECT_EQ(int(seen.size()), kinds) << "a kind of the table without its expected call here";

  // The match's op, a root that changes (root), and a split communicator.
  m.kind = Kind::Reduce;
  m.op = "MPI_SUM";
  m.root = -1;
  m.roots = {0, 3};
  m.subset = true;
  m.splitColors = {0, 0, 1, 1};
  EXPECT_EQ(equivalentCall(m), "MPI_Reduce(sendbuf, recvbuf, 4, MPI_INT, MPI_SUM, root, row_comm)");
  m.roots.clear();
  EXPECT_EQ(equivalentCall(m), "MPI_Reduce(sendbuf, recvbuf, 4, MPI_INT, MPI_SUM, ?, row_comm)");
  // Which kinds exchange with every member (the direct form's neighbour check).
  for (Kind k : {Kind::Allgather, Kind::Alltoall, Kind::Alltoallv, Kind::Allgatherv})
    EXPECT_TRUE(isExchange(k)) << kindName(k);
  for (Kind k : {Kind::Bcast, Kind::Gather, Kind::Scatter, Kind::Reduce, Kind::Allreduce, Kind::Barrier,
                 Kind::Gatherv, Kind::Scatterv, Kind::Scan, Kind::Exscan, Kind::ReduceScatter})
    EXPECT_FALSE(isExchange(k)) << kindName(k);
}
