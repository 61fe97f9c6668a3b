// rounds.cpp: see pairRounds in detect_internal.h. One pass over the
// messages in table order (sender, send position) numbers each pair's
// messages with counters per key and appends each message to its (key, k)
// round; only the rounds, far fewer than the messages, are sorted. (Two
// sorts of all messages took a tenth of the detector.)
#include <algorithm>
#include <unordered_map>

#include "detect_internal.h"

namespace cz::detect::detail {
namespace {

struct KeyHash {
  size_t operator()(const RoundKey &k) const {
    uint64_t h = (uint64_t(k.comm) << 32 | k.tag) * 0x9E3779B97F4A7C15ull;
    h ^= (k.bytes + 0x632BE59BD9B4E019ull) * 0xC2B2AE3D27D4EB4Full;
    return size_t(h ^ (uint64_t(k.type) * 0x165667B19E3779F9ull) ^ (h >> 29));
  }
};
struct KeyEq {
  bool operator()(const RoundKey &a, const RoundKey &b) const {
    return a.comm == b.comm && a.tag == b.tag && a.bytes == b.bytes && a.type == b.type;
  }
};
bool keyLess(const RoundKey &a, const RoundKey &b) {
  return std::tie(a.comm, a.tag, a.bytes, a.type) < std::tie(b.comm, b.tag, b.bytes, b.type);
}

// Per key: how many messages each (sender, receiver) pair had so far, and
// the round of each k. A pair's count grows by one at a time, so a new k
// is always the next round of its key.
struct KeyState {
  std::unordered_map<uint64_t, uint32_t> perPair; // src << 32 | dst -> messages so far
  std::vector<uint32_t> roundOfK;                 // index into the rounds
};

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
  std::unordered_map<RoundKey, uint32_t, KeyHash, KeyEq> stateOf;
  std::vector<KeyState> states;
  std::vector<Round> rounds;
  RoundKey lastKey{};
  uint32_t last = UINT32_MAX; // consecutive messages often share a key
  for (uint32_t i : *msgs) {
    const Message &m = t.messages[i];
    RoundKey key = keyOf(m);
    if (last == UINT32_MAX || !KeyEq()(key, lastKey)) {
      auto [it, fresh] = stateOf.try_emplace(key, uint32_t(states.size()));
      if (fresh) states.emplace_back();
      last = it->second, lastKey = key;
    }
    KeyState &st = states[last];
    uint32_t k = st.perPair[uint64_t(m.src) << 32 | m.dst]++;
    if (k == st.roundOfK.size()) {
      st.roundOfK.push_back(uint32_t(rounds.size()));
      rounds.emplace_back();
      rounds.back().key = key;
      rounds.back().k = k;
    }
    rounds[st.roundOfK[k]].messages.push_back(i);
  }
  std::sort(rounds.begin(), rounds.end(), [](const Round &a, const Round &b) {
    if (keyLess(a.key, b.key) || keyLess(b.key, a.key)) return keyLess(a.key, b.key);
    return a.k < b.k;
  });
  return rounds;
}

} // namespace cz::detect::detail
