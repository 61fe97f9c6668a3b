// detect_parallel_test.cpp: the pieces of the parallel mode without MPI:
// records survive encoding byte for byte, damaged bytes are refused, and
// ranks decoded separately (in any grouping) match into the same table as
// the serial reading.
#include <gtest/gtest.h>

#include <tuple>

#include <cstring>
#include <filesystem>

#include "collectivize/messages.h"
#include "findings_codec.h"
#include "record_codec.h"
#include "trace_fixture_writer.h"

namespace {

using cz::detect::RankRecords;
using cz::trace::Event;
using cz::trace::EventKind;

// A 3-rank trace: rank 0 sends to 1 and 2 (one nonblocking receive), rank 1
// forwards to 2, and rank 2 keeps a buffer of its own.
std::string writeTrace(const std::string &name) {
  cz::trace::fixture::FixtureSpec spec;
  spec.ranks = 3;
  spec.events.resize(3);
  uint64_t clock = 100;
  auto add = [&](int rank, EventKind kind, int peer, uint64_t bytes, uint32_t crc) -> Event & {
    Event e;
    e.kind = kind;
    e.timestamp = clock += 10;
    e.peer = e.peerWorld = uint32_t(peer);
    e.comm = 0;
    e.tag = 5;
    e.bytes = bytes;
    if (kind == EventKind::Send || kind == EventKind::Isend) e.crc32 = crc;
    e.address = 0x1000 * uint64_t(rank + 1);
    e.count = uint32_t(bytes);
    e.datatype = 1;
    spec.events[size_t(rank)].push_back(e);
    return spec.events[size_t(rank)].back();
  };
  add(0, EventKind::Send, 1, 64, 0xabcd);
  add(1, EventKind::Recv, 0, 64, 0);
  add(2, EventKind::IrecvRequest, 0, 0, 0).request = 7;
  add(0, EventKind::Send, 2, 64, 0xabcd);
  add(1, EventKind::Send, 2, 64, 0xabcd);
  add(2, EventKind::Irecv, 0, 64, 0).request = 7;
  add(2, EventKind::Recv, 1, 64, 0);
  add(2, EventKind::Send, 2, 8, 0x1234).kept = 1;
  std::string dir = std::string(::testing::TempDir()) + "cz-detect-parallel-" + name;
  std::filesystem::remove_all(dir);
  EXPECT_EQ(cz::trace::fixture::writeFixture(dir, spec), "");
  return dir;
}

// Field by field: Message has a padding byte (after recvSiteKind) whose
// value is whatever the stack held.
bool sameMessage(const cz::detect::Message &a, const cz::detect::Message &b) {
  auto fields = [](const cz::detect::Message &m) {
    return std::tie(m.src, m.dst, m.comm, m.tag, m.bytes, m.sendPos, m.recvPos, m.sendTime,
                    m.recvTime, m.crc, m.hashed, m.sendSiteKind, m.recvSiteKind, m.sendAddress,
                    m.recvAddress, m.prefix, m.sendCount, m.sendType, m.recvCount, m.recvType,
                    m.sendSite, m.recvSite);
  };
  return fields(a) == fields(b);
}

bool sameMessages(const cz::detect::MessageTable &a, const cz::detect::MessageTable &b) {
  if (a.messages.size() != b.messages.size() || a.kept.size() != b.kept.size()) return false;
  for (size_t i = 0; i < a.messages.size(); i++)
    if (!sameMessage(a.messages[i], b.messages[i])) return false;
  return a.stats.events == b.stats.events && a.stats.matched == b.stats.matched &&
         a.warnings == b.warnings;
}

TEST(RecordCodec, RoundTripIsExact) {
  auto trace = cz::trace::Trace::open(writeTrace("codec"));
  ASSERT_TRUE(trace.ok()) << trace.error().message();
  for (int r = 0; r < 3; r++) {
    RankRecords in = cz::detect::decodeRank(*trace, r), out;
    in.collectives["MPI_Bcast"] = 3;
    in.error = "a reason";
    std::vector<char> bytes;
    cz::detect::parallel::detail::encode(in, bytes);
    std::string why;
    ASSERT_TRUE(cz::detect::parallel::detail::decode(bytes, out, why)) << why;
    EXPECT_EQ(out.rank, r);
    ASSERT_EQ(out.sends.size(), in.sends.size());
    ASSERT_EQ(out.receives.size(), in.receives.size());
    // (A rank of the fixture sends nothing: memcmp must not get its null data().)
    if (!in.sends.empty())
      EXPECT_EQ(std::memcmp(out.sends.data(), in.sends.data(),
                            in.sends.size() * sizeof(cz::detect::Message)), 0);
    EXPECT_EQ(out.kept.size(), in.kept.size());
    EXPECT_EQ(out.events, in.events);
    EXPECT_EQ(out.collectives, in.collectives);
    EXPECT_EQ(out.error, "a reason");
  }
}

// A rank that sent and received nothing (its vectors empty, their data()
// null): decoding must not hand memcpy a null pointer (UBSan).
TEST(RecordCodec, RankWithoutMessagesRoundTrips) {
  RankRecords in, out;
  in.rank = 5;
  in.events = 2;
  std::vector<char> bytes;
  cz::detect::parallel::detail::encode(in, bytes);
  std::string why;
  ASSERT_TRUE(cz::detect::parallel::detail::decode(bytes, out, why)) << why;
  EXPECT_EQ(out.rank, 5);
  EXPECT_EQ(out.events, 2u);
  EXPECT_TRUE(out.sends.empty());
  EXPECT_TRUE(out.receives.empty());
  EXPECT_TRUE(out.kept.empty());
}

TEST(RecordCodec, DamagedBytesAreRefused) {
  auto trace = cz::trace::Trace::open(writeTrace("damaged"));
  ASSERT_TRUE(trace.ok());
  std::vector<char> bytes;
  cz::detect::parallel::detail::encode(cz::detect::decodeRank(*trace, 0), bytes);
  RankRecords out;
  std::string why;
  std::vector<char> cut(bytes.begin(), bytes.end() - 3);
  EXPECT_FALSE(cz::detect::parallel::detail::decode(cut, out, why));
  EXPECT_NE(why.find("truncated"), std::string::npos);
  std::vector<char> foreign = bytes;
  foreign[0] ^= 1;
  EXPECT_FALSE(cz::detect::parallel::detail::decode(foreign, out, why));
  EXPECT_NE(why.find("another version"), std::string::npos);
}

// A window's findings as process 0 gets them: every field back as it was.
TEST(FindingsCodec, RoundTripIsExactAndDamageIsRefused) {
  using cz::detect::parallel::detail::ProcessFindings;
  ProcessFindings in;
  cz::detect::Finding f;
  f.key.kind = cz::detect::Kind::Gather;
  f.key.comm = 7;
  f.key.participants = {0, 2, 5};
  f.key.rootWorld = 2;
  f.key.sites = {{11, 0, true}, {12, 1, false}};
  f.match.kind = f.key.kind;
  f.match.commName = "rows";
  f.match.ranks = {0, 2, 5};
  f.match.splitColors = {0, -1, 1};
  f.match.instances = 9;
  f.match.secondsInMessages = 0.125;
  f.match.op = "MPI_SUM";
  f.match.note = "a note";
  f.match.otherKinds = {cz::detect::Kind::ReduceScatter};
  f.match.receivesFromSeveral = {{12, 0, false}};
  f.match.fedRoot = true;            // (root families read both after the merge)
  f.match.overlapsOtherRoots = true;
  f.nanosInMessages = 123456789;
  f.keptConfirmed = true;
  in.windows.push_back({3, {f, f}});
  in.windows.push_back({5, {}});
  in.sites[11] = {"a.c", 4, 2, "main", "MPI_Send", {}, 0, {}, {}, {}, {}};
  in.symbolizeProblem = "addr2line failed";
  in.instrumenterSites = {11, 40};
  std::vector<char> bytes;
  cz::detect::parallel::detail::encode(in, bytes);
  ProcessFindings out;
  std::string why;
  ASSERT_TRUE(cz::detect::parallel::detail::decode(bytes.data(), bytes.size(), out, why)) << why;
  ASSERT_EQ(out.windows.size(), 2u);
  EXPECT_EQ(out.windows[0].first, 3u);
  ASSERT_EQ(out.windows[0].second.size(), 2u);
  const cz::detect::Finding &g = out.windows[0].second[1];
  EXPECT_EQ(g.key.kind, f.key.kind);
  EXPECT_EQ(g.key.comm, 7u);
  EXPECT_EQ(g.key.participants, f.key.participants);
  EXPECT_EQ(g.key.rootWorld, 2u);
  EXPECT_EQ(g.key.sites, f.key.sites);
  EXPECT_EQ(g.match.commName, "rows");
  EXPECT_EQ(g.match.splitColors, f.match.splitColors);
  EXPECT_EQ(g.match.instances, 9u);
  EXPECT_EQ(g.match.secondsInMessages, 0.125);
  EXPECT_EQ(g.match.op, "MPI_SUM");
  EXPECT_EQ(g.match.note, "a note");
  EXPECT_EQ(g.match.otherKinds, f.match.otherKinds);
  EXPECT_EQ(g.match.receivesFromSeveral, f.match.receivesFromSeveral);
  EXPECT_TRUE(g.match.fedRoot);
  EXPECT_TRUE(g.match.overlapsOtherRoots);
  EXPECT_EQ(g.nanosInMessages, f.nanosInMessages);
  EXPECT_TRUE(g.keptConfirmed);
  EXPECT_EQ(out.windows[1].first, 5u);
  EXPECT_TRUE(out.windows[1].second.empty());
  EXPECT_EQ(out.sites.at(11).function, "main");
  EXPECT_EQ(out.sites.at(11).callee, "MPI_Send");
  EXPECT_EQ(out.symbolizeProblem, in.symbolizeProblem);
  EXPECT_EQ(out.instrumenterSites, in.instrumenterSites);
  ProcessFindings damaged;
  EXPECT_FALSE(cz::detect::parallel::detail::decode(bytes.data(), bytes.size() - 1, damaged, why));
  EXPECT_NE(why.find("truncated"), std::string::npos);
  std::vector<char> foreign = bytes;
  foreign[1] ^= 1;
  EXPECT_FALSE(cz::detect::parallel::detail::decode(foreign.data(), foreign.size(), damaged, why));
  EXPECT_NE(why.find("another version"), std::string::npos);
}

TEST(SplitMatching, RanksDecodedApartMatchAsTheSerialReading) {
  auto trace = cz::trace::Trace::open(writeTrace("split"));
  ASSERT_TRUE(trace.ok());
  auto serial = cz::detect::matchMessages(*trace);
  ASSERT_TRUE(serial.ok());
  ASSERT_EQ(serial->messages.size(), 3u);
  ASSERT_EQ(serial->kept.size(), 1u);
  // Decoded in reverse order (as processes finish), shipped, matched.
  std::vector<RankRecords> ranks(3);
  for (int r = 2; r >= 0; r--) {
    std::vector<char> bytes;
    cz::detect::parallel::detail::encode(cz::detect::decodeRank(*trace, r), bytes);
    std::string why;
    ASSERT_TRUE(cz::detect::parallel::detail::decode(bytes, ranks[size_t(r)], why)) << why;
  }
  cz::detect::MessageTable split = cz::detect::matchRecords(*trace, std::move(ranks));
  EXPECT_TRUE(sameMessages(*serial, split));
  // The nonblocking receive matched where it was posted, before rank 1's.
  EXPECT_EQ(split.messages[1].src, 0u);
  EXPECT_EQ(split.messages[1].dst, 2u);
  EXPECT_EQ(split.messages[1].recvPos, 1u);
}

} // namespace
