// interleaved_instances.cpp: see interleaved_instances.h.
#include "interleaved_instances.h"

#include <algorithm>
#include <tuple>

namespace cz::detect::detail {
namespace {

struct Span { // an instance's events at one rank: its first and last position
  uint32_t rank, first, last;
};

// Whether groups of messages (runs of `msgs`: group g is [start[g],
// start[g + 1])) overlap at a rank; the first such rank in `rank`.
bool groupsOverlap(const MessageTable &t, const std::vector<uint32_t> &msgs,
                   const std::vector<size_t> &start, uint32_t &rank) {
  std::vector<Span> spans, own;
  for (size_t g = 0; g + 1 < start.size(); g++) {
    own.clear();
    auto touch = [&](uint32_t r, uint32_t pos) {
      for (Span &s : own)
        if (s.rank == r) {
          s.first = std::min(s.first, pos), s.last = std::max(s.last, pos);
          return;
        }
      own.push_back({r, pos, pos});
    };
    for (size_t k = start[g]; k < start[g + 1]; k++) {
      const Message &m = t.messages[msgs[k]];
      touch(m.src, m.sendPos);
      if (m.recvPos != UINT32_MAX) touch(m.dst, m.recvPos);
    }
    spans.insert(spans.end(), own.begin(), own.end());
  }
  std::sort(spans.begin(), spans.end(), [](const Span &a, const Span &b) {
    return std::tie(a.rank, a.first) < std::tie(b.rank, b.first);
  });
  // Sorted by start, any two overlapping spans of a rank make an adjacent
  // pair overlap. (Equal positions are one event, a send-receive whose two
  // halves belong to consecutive instances.)
  for (size_t k = 1; k < spans.size(); k++)
    if (spans[k].rank == spans[k - 1].rank && spans[k].first < spans[k - 1].last) {
      rank = spans[k].rank;
      return true;
    }
  return false;
}

// The finding's messages grouped anew by time: each pair's messages in send
// order, the first m of them the first instance's, and so on, m being the
// pair's messages per instance. A rule that numbers a pair's messages
// together with another pattern's through the same call sites (a bcast
// and a gather through one pair of wrappers) can put the k-th message of
// one sender beside the (k+1)-th of the others in an instance; the
// occurrences themselves do not interleave then. False when some pair's
// count is no multiple of the instances (instances of varying shape).
bool regroupedByPair(const MessageTable &t, const std::vector<const Instance *> &instances,
                     std::vector<uint32_t> &msgs, std::vector<size_t> &start) {
  std::vector<uint32_t> all;
  for (const Instance *in : instances) all.insert(all.end(), in->messages.begin(), in->messages.end());
  // Pair, then send position (table order is sender then send position).
  std::sort(all.begin(), all.end(), [&](uint32_t a, uint32_t b) {
    const Message &x = t.messages[a], &y = t.messages[b];
    return std::tie(x.src, x.dst, x.sendPos) < std::tie(y.src, y.dst, y.sendPos);
  });
  const size_t n = instances.size();
  std::vector<std::vector<uint32_t>> groups(n);
  for (size_t k = 0; k < all.size();) {
    size_t end = k;
    while (end < all.size() && t.messages[all[end]].src == t.messages[all[k]].src &&
           t.messages[all[end]].dst == t.messages[all[k]].dst)
      end++;
    const size_t count = end - k;
    if (count % n) return false;
    const size_t per = count / n;
    for (size_t j = 0; j < count; j++) groups[j / per].push_back(all[k + j]);
    k = end;
  }
  msgs.clear(), start.assign(1, 0);
  for (auto &g : groups) msgs.insert(msgs.end(), g.begin(), g.end()), start.push_back(msgs.size());
  return true;
}

} // namespace

bool instancesInterleave(const MessageTable &t, const std::vector<const Instance *> &instances,
                         uint32_t &rank) {
  if (instances.size() < 2) return false;
  std::vector<uint32_t> msgs;
  std::vector<size_t> start{0};
  for (const Instance *in : instances) {
    if (in->repeats != 1) return false; // one object for many occurrences: no spans of its own
    msgs.insert(msgs.end(), in->messages.begin(), in->messages.end());
    start.push_back(msgs.size());
  }
  if (!groupsOverlap(t, msgs, start, rank)) return false;
  // The rule's instances overlap: do the occurrences, taken in time order?
  if (!regroupedByPair(t, instances, msgs, start)) return true;
  return groupsOverlap(t, msgs, start, rank);
}

} // namespace cz::detect::detail
