// interleaved_instances.cpp: see interleaved_instances.h.
#include "interleaved_instances.h"

#include <algorithm>
#include <tuple>

namespace cz::detect::detail {
namespace {

using Groups = std::vector<const std::vector<uint32_t> *>; // each group's messages

// Each group's span at each rank it touches (its first and last position
// there), given to each(rank, first, last) group by group, in order; stops
// when each returns false. Per-rank scratch, not a search per message (the
// check runs over every message of every finding).
template <class Each>
void forEachSpan(const MessageTable &t, const Groups &groups, Each each) {
  const size_t ranks = size_t(std::max(t.ranks, 0));
  std::vector<uint32_t> first(ranks), last(ranks), touched;
  std::vector<uint8_t> has(ranks, 0);
  auto touch = [&](uint32_t r, uint32_t pos) {
    if (r >= has.size()) first.resize(r + 1), last.resize(r + 1), has.resize(r + 1, 0);
    if (!has[r]) has[r] = 1, first[r] = last[r] = pos, touched.push_back(r);
    else first[r] = std::min(first[r], pos), last[r] = std::max(last[r], pos);
  };
  for (const std::vector<uint32_t> *g : groups) {
    touched.clear();
    for (uint32_t i : *g) {
      const Message &m = t.messages[i];
      touch(m.src, m.sendPos);
      if (m.recvPos != UINT32_MAX) touch(m.dst, m.recvPos);
    }
    bool go = true;
    for (uint32_t r : touched) {
      go = go && each(r, first[r], last[r]);
      has[r] = 0;
    }
    if (!go) return;
  }
}

// Whether the groups overlap at a rank; the first such rank in `rank`.
bool groupsOverlap(const MessageTable &t, const Groups &groups, uint32_t &rank) {
  // Groups mostly come in time order: then each rank's spans follow one
  // another, which one pass checks against the previous span per rank.
  std::vector<uint32_t> previousLast(size_t(std::max(t.ranks, 0)), 0);
  std::vector<uint8_t> seen(previousLast.size(), 0);
  bool inOrder = true;
  forEachSpan(t, groups, [&](uint32_t r, uint32_t first, uint32_t last) {
    if (r >= seen.size()) previousLast.resize(r + 1, 0), seen.resize(r + 1, 0);
    if (seen[r] && first < previousLast[r]) return inOrder = false;
    seen[r] = 1, previousLast[r] = last;
    return true;
  });
  if (inOrder) return false;
  // Out of order somewhere: every rank's spans, sorted. Sorted by start,
  // any two overlapping spans of a rank make an adjacent pair overlap.
  // (Equal positions are one event, a send-receive whose two halves belong
  // to consecutive instances.)
  std::vector<std::vector<std::pair<uint32_t, uint32_t>>> byRank(seen.size());
  forEachSpan(t, groups, [&](uint32_t r, uint32_t first, uint32_t last) {
    byRank[r].push_back({first, last});
    return true;
  });
  for (uint32_t r = 0; r < byRank.size(); r++) {
    auto &v = byRank[r];
    if (!std::is_sorted(v.begin(), v.end())) std::sort(v.begin(), v.end());
    for (size_t k = 1; k < v.size(); k++)
      if (v[k].first < v[k - 1].second) {
        rank = r;
        return true;
      }
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
                     std::vector<std::vector<uint32_t>> &groups) {
  std::vector<uint32_t> all;
  for (const Instance *in : instances) all.insert(all.end(), in->messages.begin(), in->messages.end());
  std::sort(all.begin(), all.end(), [&](uint32_t a, uint32_t b) {
    const Message &x = t.messages[a], &y = t.messages[b];
    return std::tie(x.src, x.dst, x.sendPos) < std::tie(y.src, y.dst, y.sendPos);
  });
  const size_t n = instances.size();
  groups.assign(n, {});
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
  return true;
}

} // namespace

bool instancesInterleave(const MessageTable &t, const std::vector<const Instance *> &instances,
                         uint32_t &rank) {
  if (instances.size() < 2) return false;
  // The instances by their first send (rules give them in other orders:
  // the spreads by item), so that each rank's spans mostly come in order.
  std::vector<std::pair<uint64_t, const Instance *>> byTime;
  byTime.reserve(instances.size());
  for (const Instance *in : instances) {
    if (in->repeats != 1) return false; // one object for many occurrences: no spans of its own
    uint64_t first = UINT64_MAX;
    for (uint32_t i : in->messages) first = std::min(first, t.messages[i].sendTime);
    byTime.push_back({first, in});
  }
  std::sort(byTime.begin(), byTime.end(),
            [](const auto &a, const auto &b) { return a.first < b.first; });
  Groups groups;
  groups.reserve(byTime.size());
  for (const auto &[time, in] : byTime) groups.push_back(&in->messages);
  if (!groupsOverlap(t, groups, rank)) return false;
  // The rule's instances overlap: do the occurrences, taken in time order?
  std::vector<std::vector<uint32_t>> regrouped;
  if (!regroupedByPair(t, instances, regrouped)) return true;
  groups.clear();
  for (const auto &g : regrouped) groups.push_back(&g);
  return groupsOverlap(t, groups, rank);
}

} // namespace cz::detect::detail
