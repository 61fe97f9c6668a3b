// rounds.cpp: see pairRounds in detect_internal.h. One pass over the
// messages in table order (sender, send position) numbers each pair's
// messages with a hash map of counters, a second one appends each message
// to its (key, k) round; only the rounds, far fewer than the messages, are
// sorted. (Two sorts of all messages took a tenth of the detector.)
#include <algorithm>
#include <unordered_map>

#include "detect_internal.h"

namespace cz::detect::detail {
namespace {

struct PairKey {
  RoundKey key;
  uint32_t src, dst;
  bool operator==(const PairKey &o) const {
    return key.comm == o.key.comm && key.tag == o.key.tag && key.bytes == o.key.bytes &&
           key.type == o.key.type && src == o.src && dst == o.dst;
  }
};
struct RoundId {
  RoundKey key;
  uint32_t k;
  bool operator==(const RoundId &o) const {
    return key.comm == o.key.comm && key.tag == o.key.tag && key.bytes == o.key.bytes &&
           key.type == o.key.type && k == o.k;
  }
};
uint64_t mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
  return h * 0xBF58476D1CE4E5B9ull;
}
uint64_t hashKey(const RoundKey &k) {
  return mix(mix(mix(uint64_t(k.comm) << 32 | k.tag, k.bytes), k.type), 0x51ED27);
}
struct PairHash {
  size_t operator()(const PairKey &p) const {
    return size_t(mix(hashKey(p.key), uint64_t(p.src) << 32 | p.dst));
  }
};
struct RoundHash {
  size_t operator()(const RoundId &r) const { return size_t(mix(hashKey(r.key), r.k)); }
};

bool keyLess(const RoundKey &a, const RoundKey &b) {
  return std::tie(a.comm, a.tag, a.bytes, a.type) < std::tie(b.comm, b.tag, b.bytes, b.type);
}

} // namespace

std::vector<Round> pairRounds(const MessageTable &t, const std::vector<uint32_t> &msgsIn,
                              const RoundKeyOf &keyOf) {
  // Table order is (src, sendPos) order, which numbers each pair's messages
  // by send position.
  std::vector<uint32_t> sorted;
  const std::vector<uint32_t> *msgs = &msgsIn;
  if (!std::is_sorted(msgsIn.begin(), msgsIn.end())) {
    sorted = msgsIn;
    std::sort(sorted.begin(), sorted.end());
    msgs = &sorted;
  }
  std::unordered_map<PairKey, uint32_t, PairHash> next;
  std::unordered_map<RoundId, uint32_t, RoundHash> roundOf;
  std::vector<Round> rounds;
  for (uint32_t i : *msgs) {
    const Message &m = t.messages[i];
    RoundKey key = keyOf(m);
    uint32_t k = next[{key, m.src, m.dst}]++;
    auto [it, fresh] = roundOf.try_emplace({key, k}, uint32_t(rounds.size()));
    if (fresh) {
      rounds.emplace_back();
      rounds.back().key = key;
      rounds.back().k = k;
    }
    rounds[it->second].messages.push_back(i);
  }
  std::sort(rounds.begin(), rounds.end(), [](const Round &a, const Round &b) {
    if (keyLess(a.key, b.key) || keyLess(b.key, a.key)) return keyLess(a.key, b.key);
    return a.k < b.k;
  });
  return rounds;
}

} // namespace cz::detect::detail
