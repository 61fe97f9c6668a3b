// Gathers and exchanges whose blocks were placed in arrival order: the
// receive sites that took blocks from several senders into several places
// (Match::receivesFromSeveral, detect.cpp), what the trace's
// any_source flag makes of them (at aggregation) and what the site
// database's peers do (weighSiteEvidence): kArrivalOrder.
#include <gtest/gtest.h>

#include "collectivize/detect.h"
#include "collectivize/report.h"
#include "collectivize/site_evidence.h"
#include "detect_script.h"

namespace {

using cz::detect::Kind;
using cz_test::EventKind;
using cz_test::Script;

constexpr uint64_t kSendSite = 21, kRecvSite = 22;
constexpr uint32_t kRoot = 1;

// Ranks other than kRoot send a distinct 32-byte block each to kRoot,
// which receives them at one site: into the slots of one buffer (0x1000 +
// 32 q, the root's own slot between them) or, scratch, all at 0x9000;
// with anySource the trace records the receives as posted with
// MPI_ANY_SOURCE.
cz::detect::MessageTable gatherAtRoot(const std::string &name, int p, bool scratch,
                                      bool anySource = false) {
  Script s(p);
  for (int q = 0; q < p; q++) {
    if (uint32_t(q) == kRoot) continue;
    s.add(q, EventKind::Send, int(kRoot), 4, 32, 0x5150u + uint32_t(q), 0x4000).site = kSendSite;
    s.spec.events[size_t(q)].back().siteKind = 0;
    uint64_t to = scratch ? 0x9000 : 0x1000 + 32 * uint64_t(q);
    s.add(int(kRoot), EventKind::Recv, q, 4, 32, 0, to).site = kRecvSite;
    s.spec.events[kRoot].back().siteKind = 0;
    if (anySource) s.spec.events[kRoot].back().anySource = 1;
  }
  return s.table(name);
}

cz::detect::SiteLocations receiveFrom(const std::string &callee, std::vector<std::string> peers) {
  cz::detect::SiteLocations sites;
  cz::detect::SourceLocation &send = sites[kSendSite], &recv = sites[kRecvSite];
  send.file = recv.file = "g.c";
  send.line = 30, recv.line = 20;
  send.callee = "MPI_Send", send.peers = {"constant"};
  recv.callee = callee, recv.peers = std::move(peers);
  return sites;
}

const cz::detect::Match *gatherOf(const cz::detect::Report &rep) {
  for (const auto &m : rep.matches)
    if (m.kind == Kind::Gather) return &m;
  return nullptr;
}

TEST(ArrivalOrder, GatherRecordsTheReceiveThatTookSeveralSendersIntoSeveralPlaces) {
  auto rep = cz::detect::detect(gatherAtRoot("arrival-slots", 4, false));
  const cz::detect::Match *m = gatherOf(rep);
  ASSERT_NE(m, nullptr);
  EXPECT_TRUE(m->confirmed); // the trace alone: a gather
  ASSERT_EQ(m->receivesFromSeveral.size(), 1u);
  EXPECT_EQ(m->receivesFromSeveral[0].id, kRecvSite);
  EXPECT_FALSE(m->receivesFromSeveral[0].send);
}

TEST(ArrivalOrder, AReceiveFromAnySourceMakesTheGatherAmbiguous) {
  auto rep = cz::detect::detect(gatherAtRoot("arrival-any", 4, false));
  cz::detect::weighSiteEvidence(rep, receiveFrom("MPI_Recv", {"any"}));
  const cz::detect::Match *m = gatherOf(rep);
  ASSERT_NE(m, nullptr);
  EXPECT_FALSE(m->confirmed);
  EXPECT_EQ(m->unproven, uint32_t(cz::detect::kArrivalOrder));
  EXPECT_STREQ(cz::detect::statusName(*m), "ambiguous");
  EXPECT_NE(m->note.find("received from MPI_ANY_SOURCE at g.c:20"), std::string::npos) << m->note;
}

TEST(ArrivalOrder, AReceiveFromEachRankLeavesItConfirmed) {
  for (const char *peer : {"loop", "rank", "table"}) {
    auto rep = cz::detect::detect(gatherAtRoot(std::string("arrival-") + peer, 4, false));
    cz::detect::weighSiteEvidence(rep, receiveFrom("MPI_Recv", {peer}));
    const cz::detect::Match *m = gatherOf(rep);
    ASSERT_NE(m, nullptr) << peer;
    EXPECT_TRUE(m->confirmed) << peer;
    EXPECT_EQ(m->unproven, 0u) << peer;
  }
}

TEST(ArrivalOrder, SendrecvTakesItsSourceFromTheSecondPeer) {
  // MPI_Sendrecv's peers: the destination, then the source.
  auto rep = cz::detect::detect(gatherAtRoot("arrival-sendrecv", 4, false));
  cz::detect::weighSiteEvidence(rep, receiveFrom("MPI_Sendrecv", {"any", "loop"}));
  ASSERT_NE(gatherOf(rep), nullptr);
  EXPECT_TRUE(gatherOf(rep)->confirmed);
  rep = cz::detect::detect(gatherAtRoot("arrival-sendrecv-any", 4, false));
  cz::detect::weighSiteEvidence(rep, receiveFrom("MPI_Sendrecv", {"loop", "any"}));
  ASSERT_NE(gatherOf(rep), nullptr);
  EXPECT_EQ(gatherOf(rep)->unproven, uint32_t(cz::detect::kArrivalOrder));
}

TEST(ArrivalOrder, BlocksIntoOnePlaceAreNotPlacedByArrival) {
  // A scratch buffer the program empties (by status.MPI_SOURCE, say): the
  // receive places nothing, whatever its source.
  auto rep = cz::detect::detect(gatherAtRoot("arrival-scratch", 4, true));
  for (const auto &m : rep.matches) EXPECT_TRUE(m.receivesFromSeveral.empty());
  cz::detect::weighSiteEvidence(rep, receiveFrom("MPI_Recv", {"any"}));
  for (const auto &m : rep.matches) EXPECT_EQ(m.unproven & cz::detect::kArrivalOrder, 0u);
}

TEST(ArrivalOrder, TheTracesAnySourceFlagMakesTheGatherAmbiguousWithoutASiteDatabase) {
  // Fortran, uninstrumented binaries: no database to ask, the trace says it.
  auto rep = cz::detect::detect(gatherAtRoot("arrival-traced-any", 4, false, true));
  const cz::detect::Match *m = gatherOf(rep);
  ASSERT_NE(m, nullptr);
  EXPECT_FALSE(m->confirmed);
  EXPECT_EQ(m->unproven, uint32_t(cz::detect::kArrivalOrder));
  EXPECT_STREQ(cz::detect::statusName(*m), "ambiguous");
  // The database, where there is one, adds the receives' place to the note.
  cz::detect::weighSiteEvidence(rep, receiveFrom("MPI_Recv", {"any"}));
  m = gatherOf(rep);
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->unproven, uint32_t(cz::detect::kArrivalOrder));
  EXPECT_NE(m->note.find("received from MPI_ANY_SOURCE at g.c:20"), std::string::npos) << m->note;
}

TEST(ArrivalOrder, TheTracesFlagOnBlocksIntoOnePlaceLeavesTheGatherAlone) {
  // A scratch buffer emptied by status.MPI_SOURCE: a wildcard there places
  // nothing by arrival.
  auto rep = cz::detect::detect(gatherAtRoot("arrival-traced-scratch", 4, true, true));
  for (const auto &m : rep.matches) EXPECT_EQ(m.unproven & cz::detect::kArrivalOrder, 0u);
}

TEST(ArrivalOrder, OneInstancePlacedByArrivalIsEnoughForTheCode) {
  // Instances of one code combine their doubts by "both" (what one proves
  // holds for the other), except these: one instance's wildcard receives
  // are the code's.
  using cz::detect::combineUnproven;
  using cz::detect::kArrivalOrder;
  EXPECT_EQ(combineUnproven(kArrivalOrder, 0), uint32_t(kArrivalOrder));
  EXPECT_EQ(combineUnproven(0, kArrivalOrder), uint32_t(kArrivalOrder));
  EXPECT_EQ(combineUnproven(cz::detect::kPayloadFill, 0), 0u);
}

} // namespace
