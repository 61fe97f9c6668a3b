// rounds.cpp: see pairRounds in detect_internal.h. Two sorts instead of
// maps keyed per message: the k-th message of each pair is found by
// sorting on (key, src, dst, send position), the rounds by sorting on
// (key, k).
#include <algorithm>

#include "detect_internal.h"

namespace cz::detect::detail {

std::vector<Round> pairRounds(const MessageTable &t, const std::vector<uint32_t> &msgs,
                              const RoundKeyOf &keyOf) {
  struct Entry {
    RoundKey key;
    uint32_t src, dst, pos, msg, k;
  };
  std::vector<Entry> e;
  e.reserve(msgs.size());
  for (uint32_t i : msgs) {
    const Message &m = t.messages[i];
    e.push_back({keyOf(m), m.src, m.dst, m.sendPos, i, 0});
  }
  auto keyLess = [](const RoundKey &a, const RoundKey &b) {
    return std::tie(a.comm, a.tag, a.bytes, a.type) < std::tie(b.comm, b.tag, b.bytes, b.type);
  };
  auto keyEq = [](const RoundKey &a, const RoundKey &b) {
    return a.comm == b.comm && a.tag == b.tag && a.bytes == b.bytes && a.type == b.type;
  };
  std::sort(e.begin(), e.end(), [&](const Entry &a, const Entry &b) {
    if (!keyEq(a.key, b.key)) return keyLess(a.key, b.key);
    return std::tie(a.src, a.dst, a.pos) < std::tie(b.src, b.dst, b.pos);
  });
  for (size_t i = 1; i < e.size(); i++)
    if (keyEq(e[i].key, e[i - 1].key) && e[i].src == e[i - 1].src && e[i].dst == e[i - 1].dst)
      e[i].k = e[i - 1].k + 1;
  std::sort(e.begin(), e.end(), [&](const Entry &a, const Entry &b) {
    if (!keyEq(a.key, b.key)) return keyLess(a.key, b.key);
    return std::tie(a.k, a.msg) < std::tie(b.k, b.msg);
  });
  std::vector<Round> rounds;
  for (size_t i = 0; i < e.size();) {
    size_t j = i;
    Round r;
    r.key = e[i].key;
    r.k = e[i].k;
    for (; j < e.size() && keyEq(e[j].key, e[i].key) && e[j].k == e[i].k; j++)
      r.messages.push_back(e[j].msg);
    rounds.push_back(std::move(r));
    i = j;
  }
  return rounds;
}

} // namespace cz::detect::detail
