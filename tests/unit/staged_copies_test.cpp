// The staged-copies rule (detector/analysis/src/staged_copies.cpp) and the
// site database's "staging" field it is fed from (stagedSitesOf).
#include <gtest/gtest.h>

#include "collectivize/detect.h"
#include "collectivize/site_database.h"
#include "detect_script.h"

namespace {

using cz_test::EventKind;
using cz_test::Script;

constexpr uint64_t kSendSite = 11, kRecvSite = 12;

// Root 0 sends each rank its block from one place (0x1000), `rounds`
// times; with equalData every block is the same. dests: the order of one
// round's destinations (a task farm sends to whoever asked).
cz::detect::MessageTable stagedSends(const std::string &name, int p, int rounds, bool equalData,
                                     std::vector<int> dests = {}) {
  if (dests.empty())
    for (int q = 1; q < p; q++) dests.push_back(q);
  Script s(p);
  for (int k = 0; k < rounds; k++)
    for (int q : dests) {
      uint32_t crc = equalData ? 0x77u : 0x100u * uint32_t(k + 1) + uint32_t(q);
      s.add(0, EventKind::Send, q, 5, 32, crc, 0x1000).site = kSendSite;
      s.spec.events[0].back().siteKind = 0;
      s.add(q, EventKind::Recv, 0, 5, 32, 0, 0x2000).site = kRecvSite;
      s.spec.events[size_t(q)].back().siteKind = 0;
    }
  return s.table(name);
}

cz::detect::DetectOptions staged(bool send, uint64_t site) {
  cz::detect::DetectOptions o;
  o.stagedSites[site] = {send, "tmp", "a.c:7 memcpy from all + q * n"};
  return o;
}

TEST(StagedCopies, ScatterThroughOneBufferIsAmbiguousAndNamesTheCopy) {
  auto t = stagedSends("staged-scatter", 4, 2, false);
  // The trace alone: every block from one address, no layout, no scatter.
  for (const auto &m : cz::detect::detect(t).matches) EXPECT_NE(m.kind, cz::detect::Kind::Scatter);
  auto rep = cz::detect::detect(t, staged(true, kSendSite));
  ASSERT_EQ(rep.matches.size(), 1u);
  const auto &m = rep.matches[0];
  EXPECT_EQ(m.kind, cz::detect::Kind::Scatter);
  EXPECT_FALSE(m.confirmed);
  EXPECT_EQ(m.unproven, uint32_t(cz::detect::kStagedCopy));
  EXPECT_STREQ(cz::detect::statusName(m), "ambiguous");
  EXPECT_EQ(m.instances, 2u);
  EXPECT_EQ(m.rootWorld, 0u);
  EXPECT_EQ(m.bytesPerInstance, 4u * 32u);
  EXPECT_NE(m.note.find("possible scatter staged through tmp (a.c:7 memcpy from all + q * n)"),
            std::string::npos)
      << m.note;
}

TEST(StagedCopies, ReceiveSiteStagingDoesNotMakeAScatter) {
  // The staging is recorded for the receivers' site, as a copy out: that
  // is a gather's, and the receivers each get one message.
  auto rep = cz::detect::detect(stagedSends("staged-wrong-side", 4, 2, false),
                                staged(false, kRecvSite));
  for (const auto &m : rep.matches) EXPECT_NE(m.kind, cz::detect::Kind::Scatter);
}

TEST(StagedCopies, EqualBlocksAreNoStagedScatter) {
  auto rep = cz::detect::detect(stagedSends("staged-equal", 4, 2, true), staged(true, kSendSite));
  for (const auto &m : rep.matches) EXPECT_NE(m.kind, cz::detect::Kind::Scatter);
}

TEST(StagedCopies, TaskFarmWhoseLaterRoundsAreIncompleteIsNoScatter) {
  // Rank 1 asked twice as often: round 0 reaches everyone, round 1 only
  // rank 1. No round of it is taken for a scatter.
  auto rep = cz::detect::detect(stagedSends("staged-farm", 4, 1, false, {1, 2, 1, 3}),
                                staged(true, kSendSite));
  for (const auto &m : rep.matches) EXPECT_NE(m.kind, cz::detect::Kind::Scatter);
}

TEST(StagedCopies, GatherIntoOneScratchBufferIsAGatherNotAReduce) {
  const int p = 5;
  Script s(p);
  for (int k = 0; k < 2; k++)
    for (int q = 1; q < p; q++) {
      s.add(q, EventKind::Send, 0, 8, 16, 0x300u * uint32_t(k + 1) + uint32_t(q), 0x3000).site = 21;
      s.spec.events[size_t(q)].back().siteKind = 0;
      s.add(0, EventKind::Recv, q, 8, 16, 0, 0x5000).site = 22;
      s.spec.events[0].back().siteKind = 0;
    }
  auto t = s.table("staged-gather");
  auto bare = cz::detect::detect(t);
  ASSERT_EQ(bare.matches.size(), 1u);
  EXPECT_EQ(bare.matches[0].kind, cz::detect::Kind::Reduce); // the shape alone
  auto rep = cz::detect::detect(t, staged(false, 22));
  ASSERT_EQ(rep.matches.size(), 1u);
  EXPECT_EQ(rep.matches[0].kind, cz::detect::Kind::Gather);
  EXPECT_EQ(rep.matches[0].unproven, uint32_t(cz::detect::kStagedCopy));
  EXPECT_NE(rep.matches[0].note.find("possible gather staged through tmp"), std::string::npos);
}

TEST(StagedCopies, RemainderToTheLastMemberAndTagsPerDestinationMakeAScatterv) {
  // PCPC's scatter: tag = destination, the last rank takes the remainder
  // from a buffer of its own (two staged sites).
  const int p = 4;
  Script s(p);
  for (int q = 1; q < p; q++) {
    uint64_t bytes = q == p - 1 ? 40 : 32;
    uint64_t site = q == p - 1 ? 31 : 30;
    s.add(0, EventKind::Send, q, uint32_t(q), bytes, 0x500u + uint32_t(q), 0x1000 * site).site = site;
    s.spec.events[0].back().siteKind = 0;
    s.add(q, EventKind::Recv, 0, uint32_t(q), bytes, 0, 0x2000);
  }
  cz::detect::DetectOptions o;
  o.stagedSites[30] = {true, "sub", "s.c:44 memcpy from number + (rank-1) * d"};
  o.stagedSites[31] = {true, "sub_extra", "s.c:41 memcpy from number + (rank-1) * d"};
  auto rep = cz::detect::detect(s.table("staged-scatterv"), o);
  ASSERT_EQ(rep.matches.size(), 1u);
  const auto &m = rep.matches[0];
  EXPECT_EQ(m.kind, cz::detect::Kind::Scatterv);
  EXPECT_EQ(m.unproven, uint32_t(cz::detect::kStagedCopy));
  ASSERT_EQ(m.counts.size(), 3u); // the root's own count is never seen
  EXPECT_EQ(m.counts[2].count, 40u);
  EXPECT_NE(m.note.find("staged through sub, sub_extra (s.c:41 memcpy"), std::string::npos) << m.note;
}

TEST(StagedCopies, SiteDatabaseStagingIsReadAndOlderRecordsStayReadable) {
  const std::string text = R"({"format": "collectivize-sites", "version": 1, "sites": [
    {"id": "11", "file": "a.c", "line": 8, "callee": "MPI_Send",
     "staging": {"copy": "memcpy", "line": 7, "column": 5, "buffer": "tmp", "array": "all",
                 "offset": "q * n", "offset_from": "peer"}},
    {"id": "12", "file": "a.c", "line": 20, "callee": "MPI_Recv",
     "staging": {"copy": "loop", "line": 21, "column": 5, "buffer": "s", "array": "all",
                 "offset": "st.MPI_SOURCE * n + i", "offset_from": "source"}},
    {"id": "13", "file": "a.c", "line": 30, "callee": "MPI_Recv",
     "staging": {"copy": "memcpy", "line": 31, "column": 5, "buffer": "s", "array": "all",
                 "offset": "next", "offset_from": "other"}},
    {"id": "14", "file": "a.c", "line": 40, "callee": "MPI_Send"}]})";
  auto db = cz::detect::parseSiteDatabase(text, "sites.json");
  ASSERT_TRUE(db.ok()) << db.error().message();
  EXPECT_EQ(db.value().at(11).staging.offset, "q * n");
  EXPECT_EQ(db.value().at(14).staging.copy, "");
  auto staged = cz::detect::stagedSitesOf(db.value());
  ASSERT_EQ(staged.size(), 2u); // "other" does not follow the peer
  EXPECT_TRUE(staged.at(11).send);
  EXPECT_EQ(staged.at(11).copy, "a.c:7 memcpy from all + q * n");
  EXPECT_FALSE(staged.at(12).send);
  EXPECT_EQ(staged.at(12).copy, "a.c:21 element loop to all[st.MPI_SOURCE * n + i]");
  auto bad = cz::detect::parseSiteDatabase(
      R"({"format": "collectivize-sites", "version": 1, "sites": [
        {"id": "11", "file": "a.c", "line": 8, "staging": {"copy": "memcpy"}}]})",
      "sites.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message().find("\"staging\" lacks"), std::string::npos);
}

// The instrumenter's "peer_indexed" (clang-plugin/SITE_DATABASE.md) makes
// a site a buffer per member; the buffer's text alone no longer does (a
// database written before the field: `sendbuf[i]` sent to rank i there is
// read as any buffer).
TEST(StagedCopies, PeerIndexedBufferIsReadAsABufferPerMember) {
  const std::string text = R"({"format": "collectivize-sites", "version": 1, "sites": [
    {"id": "21", "file": "b.cpp", "line": 19, "callee": "MPI_Isend",
     "args": ["sendbuf[i]", "n", "MPI_CHAR", "i", "1", "MPI_COMM_WORLD", "&r"],
     "peer_indexed": {"layout": "pointer", "buffer": "sendbuf[i]", "array": "sendbuf",
                      "index": "i", "stride": "1", "peer": "i", "follows": "same"}},
    {"id": "22", "file": "b.cpp", "line": 24, "callee": "MPI_Irecv",
     "args": ["&recv_buf[i * len]", "len", "MPI_CHAR", "src", "1", "MPI_COMM_WORLD", "&r"],
     "peer_indexed": {"layout": "offset", "buffer": "&recv_buf[i * len]", "array": "recv_buf",
                      "index": "i", "stride": "len", "peer": "src", "follows": "copy"}},
    {"id": "23", "file": "b.cpp", "line": 30, "callee": "MPI_Send",
     "args": ["sendbuf[i]", "n", "MPI_CHAR", "i", "1", "MPI_COMM_WORLD"]},
    {"id": "25", "file": "b.cpp", "line": 32, "callee": "MPI_Sendrecv",
     "args": ["a[i]", "1", "MPI_INT", "i", "1", "b[i]", "1", "MPI_INT", "i", "1", "c", "s"],
     "peer_indexed": {"layout": "pointer", "buffer": "a[i]", "peer": "i"}}]})";
  auto db = cz::detect::parseSiteDatabase(text, "sites.json");
  ASSERT_TRUE(db.ok()) << db.error().message();
  EXPECT_EQ(db.value().at(22).peerIndexed.peer, "src");
  auto sites = cz::detect::stagedSitesOf(db.value());
  ASSERT_EQ(sites.size(), 2u); // no field (an older database), a Sendrecv: none
  EXPECT_TRUE(sites.at(21).perPeer);
  EXPECT_TRUE(sites.at(21).send);
  EXPECT_EQ(sites.at(21).buffer, "sendbuf[i]");
  EXPECT_EQ(sites.at(21).copy, "b.cpp:19");
  EXPECT_TRUE(sites.at(22).perPeer);
  EXPECT_FALSE(sites.at(22).send);
  EXPECT_EQ(sites.at(22).buffer, "&recv_buf[i * len]");
  auto bad = cz::detect::parseSiteDatabase(
      R"({"format": "collectivize-sites", "version": 1, "sites": [
        {"id": "11", "file": "a.c", "line": 8, "peer_indexed": {"layout": "offset"}}]})",
      "sites.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message().find("\"peer_indexed\" lacks"), std::string::npos);
  // value_varies (revision 1.2): read whole, refused when incomplete.
  auto varies = cz::detect::parseSiteDatabase(
      R"({"format": "collectivize-sites", "version": 1, "sites": [
        {"id": "12", "file": "a.c", "line": 9, "callee": "MPI_Send",
         "value_varies": {"variable": "rows", "line": 8, "column": 5, "assignment": "rows = q + 1",
                          "follows": "peer"}}]})",
      "sites.json");
  ASSERT_TRUE(varies.ok());
  EXPECT_EQ(varies.value().at(12).varies.variable, "rows");
  EXPECT_EQ(varies.value().at(12).varies.line, 8);
  EXPECT_EQ(varies.value().at(12).varies.assignment, "rows = q + 1");
  auto noAssignment = cz::detect::parseSiteDatabase(
      R"({"format": "collectivize-sites", "version": 1, "sites": [
        {"id": "12", "file": "a.c", "line": 9, "value_varies": {"variable": "rows", "line": 8}}]})",
      "sites.json");
  ASSERT_FALSE(noAssignment.ok());
  EXPECT_NE(noAssignment.error().message().find("\"value_varies\" lacks"), std::string::npos);
}

// Every rank sends every other its block from a buffer per destination
// (an alltoall's senders): no rank is a scatter's root.
TEST(StagedCopies, BufferPerPeerAtEveryRankIsNoScatter) {
  const int p = 4;
  Script s(p);
  for (int a = 0; a < p; a++)
    for (int b = 0; b < p; b++) {
      if (a == b) continue;
      s.add(a, EventKind::Send, b, 5, 32, 0x100u * uint32_t(a + 1) + uint32_t(b), 0x1000 + 0x100 * b).site = kSendSite;
      s.spec.events[size_t(a)].back().siteKind = 0;
    }
  for (int b = 0; b < p; b++)
    for (int a = 0; a < p; a++) {
      if (a == b) continue;
      s.add(b, EventKind::Recv, a, 5, 32, 0, 0x2000).site = kRecvSite;
      s.spec.events[size_t(b)].back().siteKind = 0;
    }
  auto t = s.table("per-peer-everywhere");
  cz::detect::DetectOptions o;
  o.stagedSites[kSendSite] = {true, "sendbuf[q]", "a.c:9", true};
  for (const auto &m : cz::detect::detect(t, o).matches) EXPECT_NE(m.kind, cz::detect::Kind::Scatter);
  // One root alone at that site is one.
  auto one = stagedSends("per-peer-root", 4, 1, false);
  auto rep = cz::detect::detect(one, o);
  ASSERT_EQ(rep.matches.size(), 1u);
  EXPECT_EQ(rep.matches[0].kind, cz::detect::Kind::Scatter);
  EXPECT_EQ(rep.matches[0].unproven, uint32_t(cz::detect::kBufferPerPeer));
}

} // namespace
