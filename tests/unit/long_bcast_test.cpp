// long_bcast_test.cpp: the CRC algebra of long broadcasts (long_bcast.h):
// runs of pieces followed from the root by their combined CRCs, and a
// spread then roll found as one bcast end to end.
#include <gtest/gtest.h>
#include <zlib.h>

#include <algorithm>
#include <vector>

#include "collectivize/detect.h"
#include "detect_script.h"
#include "long_bcast.h"

namespace {

using cz::detect::Message;
using cz::detect::MessageTable;
using cz::detect::detail::Piece;

// A buffer of 4 pieces of distinct bytes (the last one longer).
struct Buffer {
  std::vector<unsigned char> bytes;
  std::vector<size_t> start{0, 40, 80, 120, 168};
  Buffer() {
    for (size_t i = 0; i < start.back(); i++) bytes.push_back((unsigned char)(i * 37 + 11));
  }
  uint32_t crc(size_t a, size_t b) const { // of pieces [a, b)
    return uint32_t(::crc32(0, bytes.data() + start[a], uInt(start[b] - start[a])));
  }
  uint64_t size(size_t a, size_t b) const { return start[b] - start[a]; }
  std::vector<Piece> pieces() const {
    std::vector<Piece> p;
    for (size_t k = 0; k + 1 < start.size(); k++) p.push_back({crc(k, k + 1), size(k, k + 1)});
    return p;
  }
};

Message message(uint32_t src, uint32_t dst, uint32_t sendPos, uint32_t recvPos, uint32_t crc,
                uint64_t bytes) {
  Message m;
  m.src = src, m.dst = dst, m.sendPos = sendPos, m.recvPos = recvPos;
  m.crc = crc, m.bytes = bytes, m.hashed = true;
  return m;
}

cz::detect::detail::SpreadChain follow(const MessageTable &t, const std::vector<Piece> &pieces) {
  auto sends = [&](uint32_t rank, uint32_t from, uint32_t to, std::vector<uint32_t> &out) {
    out.clear();
    for (uint32_t i = 0; i < t.messages.size(); i++)
      if (t.messages[i].src == rank && t.messages[i].sendPos >= from && t.messages[i].sendPos < to)
        out.push_back(i);
  };
  // Slots 0..3 are world ranks 0..3; the root sends before position 10,
  // the others forward before 20.
  return cz::detect::detail::followSpread(t, {0, 1, 2, 3}, pieces, 0, 10, {20, 20, 20, 20}, sends);
}

TEST(LongBcast, RunsOfPiecesFollowedFromTheRoot) {
  Buffer b;
  MessageTable t;
  t.messages.push_back(message(0, 2, 1, 1, b.crc(2, 4), b.size(2, 4))); // pieces 2, 3
  t.messages.push_back(message(0, 1, 2, 1, b.crc(1, 2), b.size(1, 2))); // piece 1
  t.messages.push_back(message(2, 3, 2, 1, b.crc(3, 4), b.size(3, 4))); // 2 passes 3 on
  t.messages.push_back(message(0, 9, 3, 1, b.crc(0, 4), b.size(0, 4))); // all, to a non-member
  auto chain = follow(t, b.pieces());
  EXPECT_EQ(chain.ownAt, (std::vector<uint32_t>{cz::detect::kNone, 1, 1, 1}));
  EXPECT_EQ(chain.used, (std::vector<uint32_t>{0, 1, 2, 3}));
  EXPECT_EQ(chain.wholeTo, (std::vector<uint32_t>{9}));
}

TEST(LongBcast, RunsThatWrapAroundFromTheRoot) {
  Buffer b;
  MessageTable t; // pieces 3 and 0, in that order (the root's run may wrap)
  uint32_t wrapped = uint32_t(crc32_combine(b.crc(3, 4), b.crc(0, 1), z_off_t(b.size(0, 1))));
  t.messages.push_back(message(0, 3, 1, 1, wrapped, b.size(3, 4) + b.size(0, 1)));
  auto chain = follow(t, b.pieces());
  EXPECT_EQ(chain.ownAt[3], 1u);
  EXPECT_EQ(chain.ownAt[1], cz::detect::kNone);
}

TEST(LongBcast, WrongOrderAndEarlyForwardsProveNothing) {
  Buffer b;
  // Pieces 3 then 2: the right bytes, not a run of the root's buffer.
  uint32_t swapped = uint32_t(crc32_combine(b.crc(3, 4), b.crc(2, 3), z_off_t(b.size(2, 3))));
  MessageTable t;
  t.messages.push_back(message(0, 2, 1, 1, swapped, b.size(2, 4)));
  auto chain = follow(t, b.pieces());
  EXPECT_EQ(chain.ownAt[2], cz::detect::kNone);
  EXPECT_TRUE(chain.used.empty());
  // Rank 2 sends piece 3 before it has received the run holding it.
  MessageTable early;
  early.messages.push_back(message(0, 2, 1, 5, b.crc(2, 4), b.size(2, 4)));
  early.messages.push_back(message(2, 3, 3, 1, b.crc(3, 4), b.size(3, 4)));
  chain = follow(early, b.pieces());
  EXPECT_EQ(chain.ownAt[2], 5u);
  EXPECT_EQ(chain.ownAt[3], cz::detect::kNone);
  // A run the forwarder never held (piece 1 is not in its 2..3).
  MessageTable foreign;
  foreign.messages.push_back(message(0, 2, 1, 1, b.crc(2, 4), b.size(2, 4)));
  foreign.messages.push_back(message(2, 1, 3, 1, b.crc(1, 2), b.size(1, 2)));
  chain = follow(foreign, b.pieces());
  EXPECT_EQ(chain.ownAt[1], cz::detect::kNone);
  // Sent by the root after it heard from the roll (position 10 on).
  MessageTable late;
  late.messages.push_back(message(0, 1, 12, 1, b.crc(1, 2), b.size(1, 2)));
  chain = follow(late, b.pieces());
  EXPECT_EQ(chain.ownAt[1], cz::detect::kNone);
}

// End to end: rank 0 spreads 4 pieces (pieces 2..3 to rank 2, which passes
// 3 on; piece 1 to rank 1), then a ring roll; the pieces' own CRCs are
// what the roll carries. One bcast from rank 0 of the whole buffer; with
// a run whose CRC is not the pieces' combined (a repacked or unrelated
// message) the roll stays an unproven allgather.
// handed: a fifth rank hands rank 0 the whole buffer first (then the
// broadcast is that rank's).
cz::detect::Report spreadThenRoll(bool combined, const std::string &name, bool handed = false) {
  Buffer b;
  const int p = 4;
  const uint64_t base = 0x10000;
  cz_test::Script s(handed ? p + 1 : p);
  if (handed) s.message(p, 0, b.size(0, 4), b.crc(0, 4), 0x90000, base);
  s.message(0, 2, b.size(2, 4), combined ? b.crc(2, 4) : 0x5eed, base + b.start[2], base + b.start[2]);
  s.message(0, 1, b.size(1, 2), b.crc(1, 2), base + b.start[1], base + b.start[1]);
  s.message(2, 3, b.size(3, 4), b.crc(3, 4), base + b.start[3], base + b.start[3]);
  for (int step = 0; step < p - 1; step++) {
    for (int r = 0; r < p; r++) {
      int sent = (r - step + p) % p;
      s.add(r, cz_test::EventKind::Send, (r + 1) % p, 7, b.size(size_t(sent), size_t(sent) + 1),
            b.crc(size_t(sent), size_t(sent) + 1), base + b.start[size_t(sent)]);
    }
    for (int r = 0; r < p; r++) {
      int got = (r - step - 1 + p) % p;
      s.add(r, cz_test::EventKind::Recv, (r + p - 1) % p, 7, b.size(size_t(got), size_t(got) + 1),
            0, base + b.start[size_t(got)]);
    }
  }
  return cz::detect::detect(s.table(name));
}

TEST(LongBcast, SpreadThenRollIsOneBcastFromTheRoot) {
  auto rep = spreadThenRoll(true, "long-bcast");
  ASSERT_EQ(rep.matches.size(), 1u);
  const cz::detect::Match &m = rep.matches[0];
  EXPECT_EQ(m.kind, cz::detect::Kind::Bcast);
  EXPECT_TRUE(m.confirmed);
  EXPECT_EQ(m.rootWorld, 0u);
  EXPECT_EQ(m.bytesPerInstance, 168u);
  EXPECT_EQ(m.messages, 15u);
  auto handed = spreadThenRoll(true, "long-bcast-handed", true);
  ASSERT_EQ(handed.matches.size(), 1u);
  EXPECT_TRUE(handed.matches[0].confirmed);
  EXPECT_EQ(handed.matches[0].rootWorld, 4u);
  EXPECT_EQ(handed.matches[0].ranks.size(), 5u);
  EXPECT_EQ(handed.matches[0].messages, 16u);
  auto unproven = spreadThenRoll(false, "long-bcast-unproven");
  for (const auto &u : unproven.matches) EXPECT_FALSE(u.kind == cz::detect::Kind::Bcast && u.confirmed && u.bytesPerInstance == 168u);
}

} // namespace
