// detect_containers_test.cpp: the detector's flat containers (flat_index.h,
// rank_values.h, node_pool.h, radix_sort.h) against the standard containers they replace.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <unordered_map>
#include <vector>

#include "flat_index.h"
#include "node_pool.h"
#include "radix_sort.h"
#include "rank_values.h"

namespace {

using cz::detect::detail::FlatIndex;
using cz::detect::detail::HashedIndex;
using cz::detect::detail::NodePool;
using cz::detect::detail::PoolAllocator;
using cz::detect::detail::RankValues;

struct Key {
  uint32_t a = 0;
  uint64_t b = 0;
  bool operator==(const Key &o) const { return a == o.a && b == o.b; }
};
struct KeyHash {
  size_t operator()(const Key &k) const { return size_t(cz::detect::detail::mixBits(k.b ^ k.a)); }
};
// Every key in one probe chain: lookups must still compare keys.
struct CollidingHash {
  size_t operator()(const Key &) const { return 7; }
};

TEST(FlatIndex, AgreesWithUnorderedMapWhileGrowing) {
  FlatIndex<Key, KeyHash> index;
  std::unordered_map<uint64_t, uint32_t> want;
  std::mt19937_64 rng(5);
  for (uint32_t i = 0; i < 20000; i++) {
    Key k{uint32_t(rng() % 4), rng() % 3000};
    auto [value, fresh] = index.insert(k, i);
    auto [it, wantFresh] = want.try_emplace(uint64_t(k.a) << 32 | k.b, i);
    ASSERT_EQ(fresh, wantFresh);
    ASSERT_EQ(*value, it->second); // the first value stays
  }
  EXPECT_EQ(index.size(), want.size());
  EXPECT_EQ(index.find(Key{9, 9}), nullptr);
}

TEST(FlatIndex, KeysWithOneHashStayApart) {
  FlatIndex<Key, CollidingHash> index;
  for (uint32_t i = 0; i < 100; i++) EXPECT_TRUE(index.insert({i, i}, i).second);
  for (uint32_t i = 0; i < 100; i++) EXPECT_EQ(*index.find({i, i}), i);
  EXPECT_FALSE(index.insert({42, 42}, 7).second);
}

TEST(HashedIndex, ComparesKeysOnEqualHashesAndKeepsThemWhenGrowing) {
  std::vector<Key> keys; // value v is keys[v]
  HashedIndex index(4);
  auto insert = [&](Key k, uint64_t hash) {
    auto [v, fresh] = index.insert(hash, uint32_t(keys.size()), [&](uint32_t o) { return keys[o] == k; });
    if (fresh) keys.push_back(k);
    return std::make_pair(v, fresh);
  };
  for (uint32_t i = 0; i < 5000; i++) ASSERT_TRUE(insert({i, i}, uint64_t(i % 3) << 32 | (i % 5)).second);
  for (uint32_t i = 0; i < 5000; i++) {
    auto [v, fresh] = insert({i, i}, uint64_t(i % 3) << 32 | (i % 5));
    ASSERT_FALSE(fresh);
    ASSERT_EQ(v, i);
  }
}

TEST(RankValues, ResetForgetsEverything) {
  RankValues v(8);
  v.set(3, 30);
  EXPECT_TRUE(v.has(3));
  EXPECT_EQ(*v.find(3), 30u);
  EXPECT_FALSE(v.has(4));
  v.reset();
  EXPECT_FALSE(v.has(3));
  EXPECT_EQ(v.find(3), nullptr);
  for (int g = 0; g < 1000; g++) v.reset();
  v.set(7, 1);
  EXPECT_TRUE(v.has(7));
  EXPECT_FALSE(v.has(3));
}

TEST(NodePool, MapOnPoolBehavesLikeStdMap) {
  NodePool pool;
  using Alloc = PoolAllocator<std::pair<const uint64_t, int>>;
  std::map<uint64_t, int, std::less<uint64_t>, Alloc> pooled{Alloc(pool)};
  std::map<uint64_t, int> plain;
  std::mt19937_64 rng(9);
  for (int i = 0; i < 50000; i++) {
    uint64_t k = rng() % 500;
    if (rng() % 3 == 0) {
      EXPECT_EQ(pooled.erase(k), plain.erase(k));
    } else {
      pooled[k] = i;
      plain[k] = i;
    }
  }
  ASSERT_EQ(pooled.size(), plain.size());
  EXPECT_TRUE(std::equal(pooled.begin(), pooled.end(), plain.begin(), plain.end()));
}

// The radix sort against std::stable_sort: keys that vary in a few bytes
// only (high, low, scattered), many equal keys (their order kept), and
// vectors below and above the length where it stops comparing.
struct Keyed {
  uint64_t key;
  uint32_t seq;
  bool operator==(const Keyed &o) const { return key == o.key && seq == o.seq; }
};
TEST(RadixSort, SameOrderAsStableSort) {
  std::mt19937_64 rng(11);
  std::vector<Keyed> spare; // reused by every sort, as the detector does
  const uint64_t masks[] = {0xffull, 0xff00000000000000ull, 0x00ff00ff0000ff00ull, ~0ull, 0x3ull};
  for (uint64_t mask : masks)
    for (size_t n : {0u, 1u, 5u, 63u, 64u, 65u, 1000u, 70000u}) {
      std::vector<Keyed> items(n);
      for (size_t i = 0; i < n; i++) items[i] = {(rng() & mask) + 12345, uint32_t(i)};
      std::vector<Keyed> expected = items;
      std::stable_sort(expected.begin(), expected.end(),
                       [](const Keyed &a, const Keyed &b) { return a.key < b.key; });
      cz::detect::detail::radixSortByKey(items, [](const Keyed &k) { return k.key; }, spare);
      ASSERT_EQ(items, expected) << "mask " << mask << ", " << n << " items";
    }
}

} // namespace
