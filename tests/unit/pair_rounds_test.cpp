// pair_rounds_test.cpp: pairRounds (detector/analysis/src/rounds.cpp)
// numbers each pair's messages per key whichever way it counts them: a
// table per key for small worlds, a hash index for large ones. The same
// messages give the same rounds both ways.
#include <gtest/gtest.h>

#include <random>

#include "detect_internal.h"

namespace cz::detect::detail {
namespace {

// Messages among `ranks` ranks under a few keys (tag and size), several per
// pair and key, in table order (sender, send position).
MessageTable randomTable(uint32_t ranks, uint32_t perRank) {
  MessageTable t;
  t.ranks = int(ranks);
  std::mt19937 rng(5);
  for (uint32_t src = 0; src < ranks; src++)
    for (uint32_t j = 0; j < perRank; j++) {
      Message m;
      m.src = src;
      m.dst = rng() % ranks;
      m.tag = rng() % 3;
      m.bytes = 8 << (rng() % 2);
      m.sendPos = j;
      t.messages.push_back(m);
    }
  return t;
}

void expectSameRounds(const std::vector<Round> &a, const std::vector<Round> &b) {
  ASSERT_EQ(a.size(), b.size());
  for (size_t r = 0; r < a.size(); r++) {
    EXPECT_TRUE(a[r].key == b[r].key) << "round " << r;
    EXPECT_EQ(a[r].k, b[r].k) << "round " << r;
    EXPECT_EQ(a[r].messages, b[r].messages) << "round " << r;
  }
}

TEST(PairRounds, TableAndHashCountTheSame) {
  MessageTable t = randomTable(8, 400);
  std::vector<uint32_t> all(t.messages.size());
  for (uint32_t i = 0; i < all.size(); i++) all[i] = i;
  auto key = [](const Message &m) { return RoundKey{m.comm, m.tag, m.bytes, 0}; };
  std::vector<Round> small = pairRounds(t, all, key);
  t.ranks = 1000; // beyond the table's size: every pair hashed
  std::vector<Round> large = pairRounds(t, all, key);
  expectSameRounds(small, large);
  // Round k of a key holds each pair's k-th message of that key.
  ASSERT_FALSE(small.empty());
  for (const Round &r : small)
    for (size_t a = 0; a < r.messages.size(); a++)
      for (size_t b = a + 1; b < r.messages.size(); b++) {
        const Message &x = t.messages[r.messages[a]], &y = t.messages[r.messages[b]];
        EXPECT_FALSE(x.src == y.src && x.dst == y.dst) << "a pair twice in one round";
      }
}

} // namespace
} // namespace cz::detect::detail
