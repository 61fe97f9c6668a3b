// rounds.cpp: see pairRounds in detect_internal.h. One pass over the
// messages in table order (sender, send position) numbers each pair's
// messages with counters per key and pair (one open-addressing index: a
// hash map per key was a tenth of the detector) and assigns each message
// to its (key, k) round; only the keys, far fewer than the messages, are
// sorted (two sorts of all messages took a tenth of the detector).
#include <algorithm>
#include <tuple>

#include "detect_internal.h"
#include "flat_index.h"

namespace cz::detect::detail {
namespace {

struct KeyHash {
  size_t operator()(const RoundKey &k) const {
    uint64_t h = (uint64_t(k.comm) << 32 | k.tag) * 0x9E3779B97F4A7C15ull;
    h ^= (k.bytes + 0x632BE59BD9B4E019ull) * 0xC2B2AE3D27D4EB4Full;
    return size_t(mixBits(h ^ (uint64_t(k.type) * 0x165667B19E3779F9ull)));
  }
};
bool keyLess(const RoundKey &a, const RoundKey &b) {
  return std::tie(a.comm, a.tag, a.bytes, a.type) < std::tie(b.comm, b.tag, b.bytes, b.type);
}

// Messages counted so far per (key, pair): in a table of ranks x ranks
// counters per key when the world is small (the hash index cost ~45
// instructions a message, a tenth of the rounds' work), else hashed.
class PairCounters {
public:
  explicit PairCounters(int ranks) : ranks_(ranks > 0 && ranks <= int(kDenseRanks) ? uint32_t(ranks) : 0) {}
  // The count of (key, src, dst) before this message; counts it.
  uint32_t next(uint32_t key, uint32_t src, uint32_t dst) {
    const size_t square = size_t(ranks_) * ranks_;
    if (src < ranks_ && dst < ranks_ && (size_t(key) + 1) * square <= kDenseCounters) {
      size_t at = size_t(key) * square + size_t(src) * ranks_ + dst;
      if (at >= dense_.size()) dense_.resize((size_t(key) + 1) * square, 0);
      return dense_[at]++;
    }
    return (*hashed_.insert({key, src, dst}, 0).first)++;
  }

private:
  static constexpr uint32_t kDenseRanks = 32;
  static constexpr size_t kDenseCounters = size_t(1) << 22; // 16 MB at most
  uint32_t ranks_; // 0: every pair hashed
  std::vector<uint32_t> dense_;
  FlatIndex<PairKey, PairHash> hashed_;
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
  // Per key, the round of each k; per (key, pair), the messages so far. A
  // pair's count grows by one at a time, so a new k is always the next
  // round of its key.
  FlatIndex<RoundKey, KeyHash> stateOf;
  std::vector<std::vector<uint32_t>> roundOfK; // per key
  PairCounters pairs(t.ranks);
  std::vector<Round> rounds;
  std::vector<uint32_t> roundOf(msgs->size()), sizes;
  RoundKey lastKey{};
  uint32_t last = UINT32_MAX; // consecutive messages often share a key
  for (size_t j = 0; j < msgs->size(); j++) {
    const Message &m = t.messages[(*msgs)[j]];
    RoundKey key = keyOf(m);
    if (last == UINT32_MAX || !(key == lastKey)) {
      auto [state, fresh] = stateOf.insert(key, uint32_t(roundOfK.size()));
      if (fresh) roundOfK.emplace_back();
      last = *state, lastKey = key;
    }
    std::vector<uint32_t> &rk = roundOfK[last];
    uint32_t k = pairs.next(last, m.src, m.dst);
    if (k == rk.size()) {
      rk.push_back(uint32_t(rounds.size()));
      rounds.emplace_back();
      rounds.back().key = key;
      rounds.back().k = k;
      sizes.push_back(0);
    }
    roundOf[j] = rk[k];
    sizes[rk[k]]++;
  }
  // Each round's messages in one allocation, in table order.
  for (size_t r = 0; r < rounds.size(); r++) rounds[r].messages.reserve(sizes[r]);
  for (size_t j = 0; j < msgs->size(); j++) rounds[roundOf[j]].messages.push_back((*msgs)[j]);
  // Rounds in (key, k) order. roundOfK lists each key's rounds by k
  // already: only the keys, far fewer than the rounds, are sorted (sorting
  // the rounds themselves, each moving its vector, cost a tenth of the
  // detector on the bench trace).
  std::vector<uint32_t> keys(roundOfK.size());
  for (uint32_t s = 0; s < keys.size(); s++) keys[s] = s;
  std::sort(keys.begin(), keys.end(), [&](uint32_t a, uint32_t b) {
    return keyLess(rounds[roundOfK[a][0]].key, rounds[roundOfK[b][0]].key);
  });
  std::vector<Round> ordered;
  ordered.reserve(rounds.size());
  for (uint32_t s : keys)
    for (uint32_t r : roundOfK[s]) ordered.push_back(std::move(rounds[r]));
  return ordered;
}

namespace {

// Each message of `msgs` numbered by its key (keyOf), keys in order of
// first appearance (consecutive messages often share one: its number is
// remembered, not looked up). fresh(key, message) runs for each new key
// (numbered in that order), each(number, position j, message) for every
// message; returns each message's key number.
template <class Fresh, class Each>
std::vector<uint32_t> numberKeys(const MessageTable &t, const std::vector<uint32_t> &msgs,
                                 const RoundKeyOf &keyOf, Fresh fresh, Each each) {
  FlatIndex<RoundKey, KeyHash> index;
  std::vector<uint32_t> keyOfMsg(msgs.size());
  RoundKey lastKey{};
  uint32_t last = UINT32_MAX, keys = 0;
  for (size_t j = 0; j < msgs.size(); j++) {
    const Message &m = t.messages[msgs[j]];
    RoundKey key = keyOf(m);
    if (last == UINT32_MAX || !(key == lastKey)) {
      auto [state, isNew] = index.insert(key, keys);
      if (isNew) keys++, fresh(key, m);
      last = *state, lastKey = key;
    }
    keyOfMsg[j] = last;
    each(last, j, m);
  }
  return keyOfMsg;
}

// The messages of `msgs` whose key number passes `keep`, in order.
template <class Keep>
std::vector<uint32_t> keptByKey(const std::vector<uint32_t> &msgs,
                                const std::vector<uint32_t> &keyOfMsg, Keep keep) {
  std::vector<uint32_t> out;
  for (size_t j = 0; j < msgs.size(); j++)
    if (keep(keyOfMsg[j], j)) out.push_back(msgs[j]);
  return out;
}

} // namespace

std::vector<uint32_t> secondPass(const MessageTable &t, const std::vector<uint32_t> &firstPass,
                                 const std::vector<uint8_t> &claimed,
                                 const RoundKeyOf &keyWithoutTag) {
  struct KeyState {
    uint32_t tag = 0;
    bool severalTags = false, claimed = false;
  };
  std::vector<KeyState> states;
  std::vector<uint32_t> stateOf = numberKeys(
      t, firstPass, keyWithoutTag,
      [&](const RoundKey &, const Message &m) { states.push_back({m.tag, false, false}); },
      [&](uint32_t k, size_t j, const Message &m) {
        states[k].severalTags |= m.tag != states[k].tag;
        states[k].claimed |= claimed[firstPass[j]] != 0;
      });
  return keptByKey(firstPass, stateOf, [&](uint32_t k, size_t j) {
    return !claimed[firstPass[j]] && (states[k].severalTags || states[k].claimed);
  });
}

std::vector<uint32_t> withSeveralSizes(const MessageTable &t, const std::vector<uint32_t> &msgs,
                                       const RoundKeyOf &keyOf) {
  struct KeySizes {
    uint64_t bytes = 0;
    bool several = false;
  };
  std::vector<KeySizes> keys;
  std::vector<uint32_t> keyOfMsg = numberKeys(
      t, msgs, keyOf, [&](const RoundKey &, const Message &m) { keys.push_back({m.bytes, false}); },
      [&](uint32_t k, size_t, const Message &m) { keys[k].several |= m.bytes != keys[k].bytes; });
  return keptByKey(msgs, keyOfMsg, [&](uint32_t k, size_t) { return keys[k].several; });
}

std::vector<uint32_t> withWideMembers(const MessageTable &t, const std::vector<uint32_t> &msgs,
                                      const RoundKeyOf &keyOf) {
  struct KeyFan {
    uint32_t need = 0;  // distinct partners that make a member wide
    bool wide = false;  // some member has that many
  };
  // The pairs seen per key: a bit per (src, dst) when the world is small
  // (a hash per message cost as much as the rounds it saves), else hashed.
  const size_t ranks = t.ranks > 0 && t.ranks <= 64 ? size_t(t.ranks) : 0;
  std::vector<std::vector<uint64_t>> pairBits; // per key: ranks rows of one word
  FlatIndex<PairKey, PairHash> pairs, fans; // fans: (key, src, kNone) and (key, kNone, dst)
  std::vector<KeyFan> keys;
  std::vector<uint32_t> fanCount;
  auto partners = [&](uint32_t key, uint32_t src, uint32_t dst) -> uint32_t & {
    auto [at, fresh] = fans.insert({key, src, dst}, uint32_t(fanCount.size()));
    if (fresh) fanCount.push_back(0);
    return fanCount[*at];
  };
  auto firstOfPair = [&](uint32_t key, uint32_t src, uint32_t dst) {
    if (src < ranks && dst < ranks) {
      uint64_t &row = pairBits[key][src], bit = uint64_t(1) << dst;
      if (row & bit) return false;
      row |= bit;
      return true;
    }
    return pairs.insert({key, src, dst}, 0).second;
  };
  std::vector<uint32_t> keyOfMsg = numberKeys(
      t, msgs, keyOf,
      [&](const RoundKey &key, const Message &) {
        const Group *g = t.group(key.comm);
        size_t p = g ? g->members.size() : 0;
        keys.push_back({uint32_t(std::max<size_t>(p, 2) - 1), p == 0}); // (no members: kept)
        pairBits.emplace_back(ranks, 0);
      },
      [&](uint32_t k, size_t, const Message &m) {
        KeyFan &f = keys[k];
        if (f.wide || !firstOfPair(k, m.src, m.dst)) return;
        f.wide = ++partners(k, m.src, kNone) >= f.need || ++partners(k, kNone, m.dst) >= f.need;
      });
  return keptByKey(msgs, keyOfMsg, [&](uint32_t k, size_t) { return keys[k].wide; });
}

const std::vector<Round> &ValueRounds::of(const MessageTable &t,
                                          const std::vector<uint32_t> &candidates) {
  if (made_ && candidates == candidates_) return rounds_;
  candidates_ = candidates;
  rounds_ = pairRounds(t, candidates, [](const Message &m) {
    return RoundKey{m.comm, m.tag, m.bytes, m.sendType};
  });
  made_ = true;
  return rounds_;
}

std::vector<uint32_t> hashedCandidates(const std::vector<uint32_t> &usable,
                                       const std::vector<uint8_t> &claimed) {
  std::vector<uint32_t> candidates;
  candidates.reserve(usable.size());
  for (uint32_t i : usable)
    if (!claimed[i]) candidates.push_back(i);
  return candidates;
}

std::vector<uint32_t> usableMessages(const MessageTable &t, const DetectOptions &o) {
  std::vector<uint32_t> candidates;
  // (group() scans the groups: asked again only when the communicator changes)
  uint32_t lastComm = 0;
  bool lastLarge = false, known = false;
  for (uint32_t i = 0; i < t.messages.size(); i++) {
    const Message &m = t.messages[i];
    if (!m.hashed || m.bytes == 0 || m.src == m.dst) continue;
    if (!known || m.comm != lastComm) {
      const Group *g = t.group(m.comm);
      lastComm = m.comm, known = true;
      lastLarge = g && int(g->members.size()) >= o.minGroup;
    }
    if (lastLarge) candidates.push_back(i);
  }
  return candidates;
}

} // namespace cz::detect::detail
