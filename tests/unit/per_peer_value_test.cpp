// Equal messages from a variable the loop sets per destination (the site
// database's value_varies): weighSiteEvidence makes a bcast or an
// allgather that rests on them ambiguous (kPerPeerValue), names the send
// and the assignment, and leaves every other kind, and sends without the
// record, as they were.
#include <gtest/gtest.h>

#include "collectivize/detect.h"
#include "collectivize/report.h"
#include "collectivize/site_evidence.h"
#include "detect_script.h"

namespace {

using cz::detect::Kind;
using cz_test::EventKind;
using cz_test::Script;

constexpr uint64_t kSendSite = 31, kRecvSite = 32;

// Every rank sends its block (crc 0x700 + rank) to every other from one
// address and receives rank q's into slot q: a direct allgather. With
// root >= 0 only that rank sends, one value to all: a bcast.
cz::detect::MessageTable directExchange(const std::string &name, int p, int root) {
  Script s(p);
  for (int from = 0; from < p; from++) {
    if (root >= 0 && from != root) continue;
    for (int step = 1; step < p; step++) {
      int to = (from + step) % p;
      s.add(from, EventKind::Send, to, 3, 16, 0x700u + uint32_t(from), 0x2000 + 16 * uint64_t(from)).site =
          kSendSite;
      s.spec.events[size_t(from)].back().siteKind = 0;
      s.add(to, EventKind::Recv, from, 3, 16, 0, root >= 0 ? 0x2000 : 0x2000 + 16 * uint64_t(from)).site =
          kRecvSite;
      s.spec.events[size_t(to)].back().siteKind = 0;
    }
  }
  return s.table(name);
}

cz::detect::SiteLocations sendSetInTheLoop(bool varies) {
  cz::detect::SiteLocations sites;
  cz::detect::SourceLocation &send = sites[kSendSite], &recv = sites[kRecvSite];
  send.file = recv.file = "w.c";
  send.line = 14, recv.line = 20;
  send.callee = "MPI_Send", recv.callee = "MPI_Recv";
  send.peers = {"loop"}, recv.peers = {"loop"};
  if (varies) send.varies = {"count", 13, "count = base + (to < extra)", "peer"};
  return sites;
}

const cz::detect::Match *ofKind(const cz::detect::Report &rep, Kind k) {
  for (const auto &m : rep.matches)
    if (m.kind == k) return &m;
  return nullptr;
}

TEST(PerPeerValue, ABcastFromAVariableSetPerDestinationIsAmbiguous) {
  auto rep = cz::detect::detect(directExchange("per-peer-bcast", 4, 0));
  ASSERT_NE(ofKind(rep, Kind::Bcast), nullptr);
  EXPECT_TRUE(ofKind(rep, Kind::Bcast)->confirmed); // the trace alone
  cz::detect::weighSiteEvidence(rep, sendSetInTheLoop(true));
  const cz::detect::Match *m = ofKind(rep, Kind::Bcast);
  ASSERT_NE(m, nullptr);
  EXPECT_FALSE(m->confirmed);
  EXPECT_EQ(m->unproven, uint32_t(cz::detect::kPerPeerValue));
  EXPECT_STREQ(cz::detect::unprovenName(cz::detect::kPerPeerValue), "per_peer_value");
  EXPECT_NE(m->note.find("w.c:14 sends count, set by `count = base + (to < extra)` (line 13) anew for each "
                         "destination: equal at 4 ranks by chance"),
            std::string::npos)
      << m->note;
}

TEST(PerPeerValue, AnAllgatherFromSuchAVariableIsAmbiguousToo) {
  auto rep = cz::detect::detect(directExchange("per-peer-allgather", 4, -1));
  ASSERT_NE(ofKind(rep, Kind::Allgather), nullptr);
  EXPECT_TRUE(ofKind(rep, Kind::Allgather)->confirmed);
  cz::detect::weighSiteEvidence(rep, sendSetInTheLoop(true));
  const cz::detect::Match *m = ofKind(rep, Kind::Allgather);
  ASSERT_NE(m, nullptr);
  EXPECT_FALSE(m->confirmed);
  EXPECT_TRUE(m->unproven & cz::detect::kPerPeerValue);
}

TEST(PerPeerValue, WithoutTheRecordTheyStayConfirmed) {
  auto bcast = cz::detect::detect(directExchange("per-peer-none-bcast", 4, 0));
  cz::detect::weighSiteEvidence(bcast, sendSetInTheLoop(false));
  ASSERT_NE(ofKind(bcast, Kind::Bcast), nullptr);
  EXPECT_TRUE(ofKind(bcast, Kind::Bcast)->confirmed);
  EXPECT_EQ(ofKind(bcast, Kind::Bcast)->unproven, 0u);
  auto all = cz::detect::detect(directExchange("per-peer-none-allgather", 4, -1));
  cz::detect::weighSiteEvidence(all, sendSetInTheLoop(false));
  ASSERT_NE(ofKind(all, Kind::Allgather), nullptr);
  EXPECT_TRUE(ofKind(all, Kind::Allgather)->confirmed);
}

} // namespace
