// detect_test.cpp: matching and replay on hand-built traces (written with
// the fixture writer, read back through the real reader): exact pairings,
// and broadcasts / gathers whose answer is known.
#include <gtest/gtest.h>
#include <zlib.h>

#include <array>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "collectivize/detect.h"
#include "collectivize/messages.h"
#include "collectivize_trace_format.h"
#include "collectivize/provenance.h"
#include "detect_script.h"
#include "trace_fixture_writer.h"

namespace {

using cz::trace::Event;
using cz::trace::EventKind;
using cz_test::Script;

TEST(Matching, ReceivesPairInPostingOrderNotCompletionOrder) {
  Script s(2);
  // Rank 1 posts A then B (same source and tag); B completes first.
  Event &ra = s.add(1, EventKind::IrecvRequest, 0, 0, 0, 0, 0);
  ra.request = 1, ra.peer.reset(), ra.peerWorld.reset();
  Event &rb = s.add(1, EventKind::IrecvRequest, 0, 0, 0, 0, 0);
  rb.request = 2, rb.peer.reset(), rb.peerWorld.reset();
  s.add(0, EventKind::Send, 1, 5, 8, 0x111, 0x10);
  s.add(0, EventKind::Send, 1, 5, 8, 0x222, 0x20);
  s.add(1, EventKind::Irecv, 0, 5, 8, 0, 0x200).request = 2;
  s.add(1, EventKind::Irecv, 0, 5, 8, 0, 0x100).request = 1;
  auto t = s.table("order");
  ASSERT_EQ(t.messages.size(), 2u);
  for (const auto &m : t.messages)
    EXPECT_EQ(m.recvAddress, m.crc == 0x111 ? 0x100u : 0x200u) << std::hex << m.crc;
  EXPECT_EQ(t.stats.unmatchedSends, 0u);
}

TEST(Matching, TagsAndExtraSendsStaySeparate) {
  Script s(2);
  s.add(0, EventKind::Send, 1, 1, 4, 0xa, 0x10);
  s.add(0, EventKind::Send, 1, 2, 4, 0xb, 0x20);
  s.add(0, EventKind::Send, 1, 2, 4, 0xc, 0x30); // never received
  s.add(1, EventKind::Recv, 0, 2, 4, 0, 0x200);
  s.add(1, EventKind::Recv, 0, 1, 4, 0, 0x100);
  auto t = s.table("tags");
  ASSERT_EQ(t.messages.size(), 2u);
  for (const auto &m : t.messages) EXPECT_EQ(m.recvAddress, m.tag == 1 ? 0x100u : 0x200u);
  EXPECT_EQ(t.stats.unmatchedSends, 1u);
  EXPECT_FALSE(t.warnings.empty());
}

TEST(Spread, ChainIsABroadcastFromItsStart) {
  Script s(4);
  for (int r = 0; r < 3; r++) s.message(r, r + 1, 64, 0xfeed, 0x1000, 0x1000);
  auto rep = cz::detect::detect(s.table("chain"));
  ASSERT_EQ(rep.matches.size(), 1u);
  EXPECT_EQ(rep.matches[0].kind, cz::detect::Kind::Bcast);
  EXPECT_TRUE(rep.matches[0].confirmed);
  EXPECT_EQ(rep.matches[0].rootWorld, 0u);
  EXPECT_TRUE(rep.matches[0].otherRoots.empty());
}

// A 2x2 halo exchange of a symmetric field (CloverLeaf at 4 ranks): rank
// 0's strip goes right and down, and rank 1 then sends rank 3 an equal
// strip of its own, from its interior, not from where rank 0's arrived. Equal data, no relay: ambiguous (relay_copied), never a
// confirmed bcast. The same chain relayed from the receive buffer stays
// confirmed.
TEST(Spread, EqualDataSentFromOtherBuffersIsNoProvenRelay) {
  for (bool inPlace : {false, true}) {
    Script s(4);
    s.message(0, 1, 424, 0x5ca1ab1e, 0x1000, 0x2000);
    s.message(0, 2, 424, 0x5ca1ab1e, 0x1000, 0x2000);
    s.message(1, 3, 424, 0x5ca1ab1e, inPlace ? 0x2000 : 0x3000, 0x2000);
    auto rep = cz::detect::detect(s.table(inPlace ? "relay-in-place" : "relay-copied"));
    ASSERT_FALSE(rep.matches.empty()) << inPlace;
    size_t confirmed = 0, copied = 0;
    for (const auto &m : rep.matches) {
      EXPECT_EQ(m.kind, cz::detect::Kind::Bcast);
      confirmed += m.confirmed;
      copied += (m.unproven & cz::detect::kRelayCopied) != 0;
    }
    EXPECT_EQ(confirmed, inPlace ? 1u : 0u) << inPlace;
    EXPECT_EQ(copied, inPlace ? 0u : rep.matches.size()) << inPlace;
  }
}

TEST(Spread, MissingRankMakesItPartial) {
  Script s(4); // rank 3 never gets it: 3 of 4 ranks
  s.message(0, 1, 64, 0xbeef, 0x1000, 0x1000);
  s.message(0, 2, 64, 0xbeef, 0x1000, 0x1000);
  auto rep = cz::detect::detect(s.table("partial"));
  ASSERT_EQ(rep.matches.size(), 1u);
  EXPECT_FALSE(rep.matches[0].confirmed);
  EXPECT_DOUBLE_EQ(rep.matches[0].coverage, 0.75);
}

TEST(Spread, DataThatChangesOnTheWayIsNoBroadcast) {
  Script s(4);
  for (int r = 0; r < 3; r++) s.message(r, r + 1, 8, 0x100u + uint32_t(r), 0x1000, 0x1000);
  auto rep = cz::detect::detect(s.table("changing"));
  for (const auto &m : rep.matches) EXPECT_NE(m.kind, cz::detect::Kind::Bcast);
}

TEST(Provenance, UnknownPieceIsSolvedFromTheMessageCrc) {
  // Rank 0 sends A to rank 1; rank 1 sends A followed by its own X (never
  // sent alone) to rank 2. X's CRC follows from the message's.
  unsigned char a[40], x[24], ax[64];
  for (int i = 0; i < 40; i++) a[i] = uint8_t(i * 3 + 1);
  for (int i = 0; i < 24; i++) x[i] = uint8_t(200 - i);
  std::memcpy(ax, a, 40);
  std::memcpy(ax + 40, x, 24);
  uint32_t ca = uint32_t(crc32(0, a, 40)), cx = uint32_t(crc32(0, x, 24)),
           cax = uint32_t(crc32(0, ax, 64));
  Script s(3);
  s.message(0, 1, 40, ca, 0x5000, 0x9000);
  s.message(1, 2, 64, cax, 0x9000, 0x7000);
  auto t = s.table("provenance");
  auto pv = cz::detect::detail::traceProvenance(t);
  ASSERT_EQ(t.messages.size(), 2u);
  const auto &segs = pv.segments[t.messages[0].src == 1 ? 0 : 1];
  ASSERT_EQ(segs.size(), 2u);
  EXPECT_EQ(pv.origins[segs[0].origin].rank, 0u);
  EXPECT_EQ(pv.origins[segs[1].origin].rank, 1u);
  EXPECT_EQ(pv.origins[segs[1].origin].crc, cx);
  EXPECT_EQ(pv.origins[segs[1].origin].address, 0x9000u + 40);
}

// Bruck's alltoall on p ranks, blocks of 16 bytes packed with memcpy (one
// pack and one unpack buffer per rank), written as a trace; with
// `blockFiles` also the rank-N.blocks files the tracer writes for
// COLLECTIVIZE_TRACE_BLOCK_BYTES=16. Block (r -> q) holds distinct bytes,
// or, with `samePerOrigin`, bytes that depend on r only. With `combine`
// every message holds new data instead (an allreduce along the same
// dissemination pattern: nothing is forwarded).
struct BruckTrace {
  Script s;
  std::vector<std::vector<std::pair<uint64_t, std::vector<uint32_t>>>> entries; // per rank
  // dir: step k goes to r + dir*k (MPICH writes it with dir = -1).
  BruckTrace(int p, bool samePerOrigin, bool combine = false, int dir = 1)
      : s(p), entries(size_t(p)) {
    using Block = std::array<uint8_t, 16>;
    std::vector<std::vector<Block>> work(static_cast<size_t>(p), std::vector<Block>(static_cast<size_t>(p)));
    for (int r = 0; r < p; r++)
      for (int i = 0; i < p; i++)
        for (int j = 0; j < 16; j++)
          work[size_t(r)][size_t(i)][size_t(j)] =
              uint8_t(r * 31 + (samePerOrigin ? 0 : ((r + i) % p) * 7) + j);
    for (int k = 1; k < p; k <<= 1) {
      std::vector<std::vector<uint8_t>> packs(static_cast<size_t>(p));
      for (int r = 0; r < p; r++) {
        std::vector<uint32_t> crcs;
        for (int i = 0; i < p; i++)
          if (i & k) {
            if (combine)
              for (int j = 0; j < 16; j++)
                work[size_t(r)][size_t(i)][size_t(j)] = uint8_t(r * 13 + k * 101 + i * 5 + j);
            const Block &b = work[size_t(r)][size_t(i)];
            packs[size_t(r)].insert(packs[size_t(r)].end(), b.begin(), b.end());
            crcs.push_back(uint32_t(crc32(0, b.data(), 16)));
          }
        const std::vector<uint8_t> &pk = packs[size_t(r)];
        uint64_t index = s.spec.events[size_t(r)].size();
        s.add(r, EventKind::Send, (r + dir * k + p) % p, 7, pk.size(),
              uint32_t(crc32(0, pk.data(), uInt(pk.size()))), 0xA000);
        if (crcs.size() > 1) entries[size_t(r)].push_back({index, crcs});
      }
      for (int r = 0; r < p; r++) {
        int from = (r - dir * k + p) % p;
        s.add(r, EventKind::Recv, from, 7, packs[size_t(from)].size(), 0, 0xB000);
        size_t at = 0;
        for (int i = 0; i < p; i++)
          if (i & k) std::memcpy(work[size_t(r)][size_t(i)].data(), &packs[size_t(from)][16 * at++], 16);
      }
    }
  }
  static void putLe(std::ofstream &f, uint64_t v, int bytes) {
    for (int i = 0; i < bytes; i++) f.put(char(v >> (8 * i)));
  }
  // The table, with the block files read when asked for; `corrupt`: the
  // first entry of rank 0 gets a wrong CRC, and a cut entry ends the file.
  cz::detect::MessageTable table(const std::string &name, bool blockFiles, bool corrupt = false) {
    cz::detect::MessageTable t = s.table(name);
    std::string dir = std::string(::testing::TempDir()) + "cz-detect-" + name;
    if (!blockFiles) return t;
    for (size_t r = 0; r < entries.size(); r++) {
      std::ofstream f(dir + "/rank-" + std::to_string(r) + ".blocks", std::ios::binary);
      putLe(f, CZ_TRACE_BLOCKS_MAGIC, 8);
      putLe(f, CZ_TRACE_BLOCKS_VERSION, 4);
      putLe(f, 16, 4);
      for (size_t e = 0; e < entries[r].size(); e++) {
        putLe(f, entries[r][e].first, 8);
        putLe(f, entries[r][e].second.size(), 4);
        for (uint32_t c : entries[r][e].second) putLe(f, corrupt && r == 0 && e == 0 ? ~c : c, 4);
      }
      if (corrupt) putLe(f, 99, 8); // a killed run's cut entry
    }
    cz::detect::readBlockCrcs(dir, t);
    return t;
  }
};

TEST(BlockFlows, BruckIsConfirmedWithBlockCrcs) {
  BruckTrace b(5, false);
  auto rep = cz::detect::detect(b.table("bruck-blocks", true));
  ASSERT_EQ(rep.matches.size(), 1u);
  EXPECT_EQ(rep.matches[0].kind, cz::detect::Kind::Alltoall);
  EXPECT_TRUE(rep.matches[0].confirmed);
  EXPECT_EQ(rep.matches[0].messages, 15u);
  EXPECT_EQ(rep.matches[0].traceBlockBytes, 0u);
}

TEST(BlockFlows, BruckWithoutBlockCrcsIsAPartialAlltoall) {
  BruckTrace b(8, false);
  auto rep = cz::detect::detect(b.table("bruck-shape", false));
  ASSERT_EQ(rep.matches.size(), 1u); // not an allreduce
  EXPECT_EQ(rep.matches[0].kind, cz::detect::Kind::Alltoall);
  EXPECT_FALSE(rep.matches[0].confirmed);
  EXPECT_EQ(rep.matches[0].traceBlockBytes, 16u);
}

TEST(BlockFlows, MirroredBruckIsFoundBothWays) {
  for (int p : {3, 6}) {
    BruckTrace shape(p, false, false, -1);
    auto rep = cz::detect::detect(shape.table("mirror-shape-" + std::to_string(p), false));
    ASSERT_EQ(rep.matches.size(), 1u) << p;
    EXPECT_EQ(rep.matches[0].kind, cz::detect::Kind::Alltoall);
    EXPECT_FALSE(rep.matches[0].confirmed);
    EXPECT_NE(rep.matches[0].note.find("sends to p-2^k"), std::string::npos) << rep.matches[0].note;
    BruckTrace blocks(p, false, false, -1);
    rep = cz::detect::detect(blocks.table("mirror-blocks-" + std::to_string(p), true));
    ASSERT_EQ(rep.matches.size(), 1u) << p;
    EXPECT_TRUE(rep.matches[0].confirmed);
  }
}

TEST(BlockFlows, EqualBlocksOfOneOriginAreNotConfirmed) {
  // Which of rank r's equal blocks went where is unknown: the
  // post-condition needs distinct blocks.
  BruckTrace b(4, true);
  auto rep = cz::detect::detect(b.table("bruck-equal", true));
  ASSERT_EQ(rep.matches.size(), 1u);
  EXPECT_EQ(rep.matches[0].kind, cz::detect::Kind::Alltoall);
  EXPECT_FALSE(rep.matches[0].confirmed);
  EXPECT_NE(rep.matches[0].note.find("equal blocks"), std::string::npos) << rep.matches[0].note;
}

TEST(BlockFlows, CombinedDataWithBlockCrcsIsNoAlltoall) {
  // Without block CRCs this shape is the (partial) alltoall; with them no
  // block is forwarded, so it is left to the reductions.
  BruckTrace shape(4, false, true);
  auto rep = cz::detect::detect(shape.table("combine-shape", false));
  ASSERT_EQ(rep.matches.size(), 1u);
  EXPECT_EQ(rep.matches[0].kind, cz::detect::Kind::Alltoall);
  EXPECT_FALSE(rep.matches[0].confirmed);
  BruckTrace blocks(4, false, true);
  rep = cz::detect::detect(blocks.table("combine-blocks", true));
  ASSERT_EQ(rep.matches.size(), 1u);
  EXPECT_EQ(rep.matches[0].kind, cz::detect::Kind::Allreduce);
}

TEST(BlockCrcs, EntriesThatDoNotAddUpAreDroppedAndCutEntriesIgnored) {
  BruckTrace b(4, false);
  auto t = b.table("bruck-corrupt", true, true);
  EXPECT_EQ(t.blocks.blockBytes, 16u);
  size_t with = 0;
  for (uint32_t i = 0; i < t.messages.size(); i++) with += t.blocks.has(i);
  EXPECT_EQ(with, 7u); // 8 sends of 2 blocks, rank 0's first one dropped
  ASSERT_EQ(t.warnings.size(), 1u);
  EXPECT_NE(t.warnings[0].find("1 block CRC entries do not add up"), std::string::npos);
  auto rep = cz::detect::detect(t); // one message cannot be followed: partial
  ASSERT_EQ(rep.matches.size(), 1u);
  EXPECT_FALSE(rep.matches[0].confirmed);
}

// A linear allgather on p ranks, blocks of 8 bytes, tag 3: every rank r
// sends its own block (CRC 0x100 + r, from 0x1000) to every other rank,
// and rank q receives rank r's block into slot(q, r) of its buffer at
// 0x4000.
using Slot = int (*)(int p, int q, int r);
cz::detect::Report linearAllgather(int p, const std::string &name, Slot slot) {
  Script s(p);
  for (int d = 1; d < p; d++)
    for (int q = 0; q < p; q++) {
      int from = (q + d) % p;
      uint64_t at = 0x4000 + 8 * uint64_t(slot(p, q, from));
      s.message(from, q, 8, 0x100u + uint32_t(from), 0x1000, at, 3);
    }
  return cz::detect::detect(s.table(name));
}

TEST(FullExchange, RotatedLinearAllgatherIsOneAllgatherNotGathers) {
  // Rank 0's slots are in rank order with a hole at 0, rank p-1's too
  // (hole past the end): alone, each looked like a gather.
  for (int p : {3, 4, 5}) {
    auto rep = linearAllgather(p, "rotated-" + std::to_string(p),
                               [](int p, int q, int r) { return (r - q + p) % p; });
    ASSERT_EQ(rep.matches.size(), 1u) << p;
    const auto &m = rep.matches[0];
    EXPECT_EQ(m.kind, cz::detect::Kind::Allgather);
    EXPECT_TRUE(m.confirmed);
    EXPECT_EQ(m.messages, uint64_t(p * (p - 1)));
    EXPECT_EQ(m.recvLayout, "rotated");
    EXPECT_NE(m.note.find("distance order"), std::string::npos) << m.note;
  }
}

TEST(FullExchange, LayoutIsStatedOnlyWhenNotRankOrder) {
  auto rankOrder = linearAllgather(4, "rank-order", [](int, int, int r) { return r; });
  ASSERT_EQ(rankOrder.matches.size(), 1u);
  EXPECT_EQ(rankOrder.matches[0].kind, cz::detect::Kind::Allgather);
  EXPECT_EQ(rankOrder.matches[0].recvLayout, "");
  EXPECT_EQ(rankOrder.matches[0].note, "");
  auto reversed = linearAllgather(4, "reversed", [](int p, int, int r) { return p - 1 - r; });
  ASSERT_EQ(reversed.matches.size(), 1u);
  EXPECT_EQ(reversed.matches[0].kind, cz::detect::Kind::Allgather);
  EXPECT_TRUE(reversed.matches[0].confirmed);
  EXPECT_EQ(reversed.matches[0].recvLayout, "permuted");
}

TEST(FullExchange, BlocksConsumedInOneScratchBufferAreLeftToReductions) {
  // Received one after the other into one place: the wire looks like a
  // linear allreduce's and no receive buffer holds the blocks, so it is
  // left to the reductions (an allreduce), not taken as an allgather.
  auto rep = linearAllgather(4, "scratch", [](int, int, int) { return 0; });
  for (const auto &m : rep.matches) {
    EXPECT_NE(m.kind, cz::detect::Kind::Allgather);
    EXPECT_EQ(m.recvLayout, "");
  }
}

} // namespace

// A long broadcast's roll (each rank passes the piece it last got to the
// next, P-1 steps) is an allgather of pieces on its own; when every rank
// but the root got its piece just before, in a message no collective
// explains (the spread: pieces repacked, so their CRCs never travel), the
// whole may be one broadcast: ambiguous (scattered_first), not confirmed.
// Without the spread, the same roll stays a confirmed allgather.
static cz::detect::Report rollReport(bool spreadFirst, const std::string &name) {
  const int p = 4;
  const uint64_t piece = 64, base = 0x10000;
  Script s(p);
  if (spreadFirst) {
    s.message(0, 2, 2 * piece + 8, 0xa1, base + 2 * piece, 0x90000); // pieces 2, 3 packed
    s.message(0, 1, piece + 8, 0xa2, base + piece, 0x91000);         // piece 1, packed
    s.message(2, 3, piece + 8, 0xa3, base + 3 * piece, 0x92000);     // piece 3, packed
  }
  for (int step = 0; step < p - 1; step++) {
    for (int r = 0; r < p; r++) {
      int sent = (r - step + p) % p; // the piece r passes on
      s.add(r, EventKind::Send, (r + 1) % p, 7, piece, 0xc0de0 + uint32_t(sent),
            base + uint64_t(sent) * piece);
    }
    for (int r = 0; r < p; r++) {
      int got = (r - step - 1 + p) % p;
      s.add(r, EventKind::Recv, (r + p - 1) % p, 7, piece, 0, base + uint64_t(got) * piece);
    }
  }
  return cz::detect::detect(s.table(name));
}

TEST(RootFamilies, SpreadThenRollIsNotAProvenAllgather) {
  auto plain = rollReport(false, "roll-plain");
  auto spread = rollReport(true, "roll-spread");
  auto allgatherOf = [](const cz::detect::Report &rep) -> const cz::detect::Match * {
    for (const auto &m : rep.matches)
      if (m.kind == cz::detect::Kind::Allgather) return &m;
    return nullptr;
  };
  const cz::detect::Match *a = allgatherOf(plain), *b = allgatherOf(spread);
  ASSERT_NE(a, nullptr);
  EXPECT_TRUE(a->confirmed);
  EXPECT_EQ(a->unproven & cz::detect::kScatteredFirst, 0u);
  ASSERT_NE(b, nullptr);
  EXPECT_FALSE(b->confirmed);
  EXPECT_NE(b->unproven & cz::detect::kScatteredFirst, 0u);
}

// A ring allgather on p ranks whose blocks differ in size (rank b's block
// 16 * (b % 3 + 1) bytes, CRC 0x700 + b): in step s rank q passes block
// (q - s) mod p to its right neighbour (every rank sends, then every rank
// receives), from and into the place `at` gives for block b at rank q
// (buffers 0x10000 apart).
using BlockPlace = uint64_t (*)(int p, int q, int b);
uint64_t blockBytes(int b) { return 16 * uint64_t(b % 3 + 1); }
cz::detect::Report ringAllgatherv(int p, const std::string &name, BlockPlace at) {
  Script s(p);
  for (int step = 0; step < p - 1; step++) {
    for (int q = 0; q < p; q++) {
      int b = ((q - step) % p + p) % p;
      s.add(q, EventKind::Send, (q + 1) % p, 0, blockBytes(b), 0x700u + uint32_t(b), at(p, q, b));
    }
    for (int q = 0; q < p; q++) {
      int b = ((q - 1 - step) % p + p) % p;
      s.add(q, EventKind::Recv, (q + p - 1) % p, 0, blockBytes(b), 0, at(p, q, b));
    }
  }
  return cz::detect::detect(s.table(name));
}

TEST(Allgatherv, RingOfUnequalBlocksInRankOrderIsOneAllgatherv) {
  // Block b at the sum of the sizes of the blocks before it, on every rank.
  auto rep = ringAllgatherv(5, "allgatherv-rank-order", [](int, int q, int b) {
    uint64_t d = 0;
    for (int k = 0; k < b; k++) d += blockBytes(k);
    return 0x10000 * uint64_t(q + 1) + d;
  });
  ASSERT_EQ(rep.matches.size(), 1u);
  const cz::detect::Match &m = rep.matches[0];
  EXPECT_EQ(m.kind, cz::detect::Kind::Allgatherv);
  EXPECT_TRUE(m.confirmed);
  EXPECT_EQ(m.recvLayout, "");
  EXPECT_EQ(m.bytesPerInstance, 16u + 32 + 48 + 16 + 32);
  ASSERT_EQ(m.counts.size(), 5u);
  for (int b = 0; b < 5; b++) EXPECT_EQ(m.counts[size_t(b)].count, blockBytes(b)) << b;
  EXPECT_NE(m.note.find("in rank order"), std::string::npos) << m.note;
}

TEST(Allgatherv, BlocksAtPlacesThatDifferFromRankToRankArePermuted) {
  // Rank q keeps its own block first, then q+1's, ...: the displacements
  // differ from rank to rank, which MPI_Allgatherv cannot do.
  auto rep = ringAllgatherv(5, "allgatherv-rotated", [](int p, int q, int b) {
    uint64_t d = 0;
    for (int k = q; k != b; k = (k + 1) % p) d += blockBytes(k);
    return 0x10000 * uint64_t(q + 1) + d;
  });
  ASSERT_EQ(rep.matches.size(), 1u);
  EXPECT_EQ(rep.matches[0].kind, cz::detect::Kind::Allgatherv);
  EXPECT_EQ(rep.matches[0].recvLayout, "permuted");
}
