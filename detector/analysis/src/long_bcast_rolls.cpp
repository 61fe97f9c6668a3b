// long_bcast_rolls.cpp: the long broadcast rule's candidate pieces grouped
// into rolls (rolls, consecutiveRolls: long_bcast.h). A trace of thousands
// of ring allgathers gives tens of thousands of pieces, each looked at
// here, so the work is per message end: loads from arrays indexed by
// member, no maps, no searches.
#include <algorithm>
#include <numeric>

#include "disjoint_sets.h"
#include "long_bcast.h"

namespace cz::detect::detail {

// Consecutive broadcasts are parted at each member by the next one's
// spread, or by whatever the program does between them. A union-find over
// the instances: at each member, in span order (first event, last event,
// idx), an instance joins the one before unless a message of the
// communicator that is none of theirs lies between them.
//
// The spans come from one pass over the instances' messages into a table
// (instance x member), and each member's are put in order by their first
// events' positions, a bucket per position: positions are the member's
// event numbers, so the buckets are no more than the events the gaps'
// walk passes anyway. (A list of spans per member, sorted, was most of
// the rule on a trace of thousands of ring allgathers.)
std::vector<std::vector<size_t>> rolls(const MessageTable &t, const RankActivity &activity,
                                       const std::vector<Instance> &all,
                                       const std::vector<size_t> &idx, const MemberIndex &index,
                                       std::vector<uint8_t> &theirs) {
  const uint32_t comm = all[idx[0]].comm;
  const size_t n = index.size(), count = idx.size();
  std::vector<Span> spanAt(count * n); // instance x member
  std::vector<Span> firsts(n);          // per member: the range of its spans' first events
  for (size_t k = 0; k < count; k++) {
    Span *span = spanAt.data() + k * n;
    for (uint32_t i : all[idx[k]].messages) {
      theirs[i] = 1;
      const Message &m = t.messages[i];
      if (uint32_t q = index[m.src]; q != kNone)
        span[q].lo = std::min(span[q].lo, m.sendPos), span[q].hi = std::max(span[q].hi, m.sendPos);
      if (uint32_t q = index[m.dst]; q != kNone)
        span[q].lo = std::min(span[q].lo, m.recvPos), span[q].hi = std::max(span[q].hi, m.recvPos);
    }
    for (size_t q = 0; q < n; q++)
      if (span[q].lo != UINT32_MAX)
        firsts[q].lo = std::min(firsts[q].lo, span[q].lo), firsts[q].hi = std::max(firsts[q].hi, span[q].lo);
  }
  auto foreign = [&](uint32_t i) { return t.messages[i].comm == comm && !theirs[i]; };
  // A message of the rank on the communicator, none of these instances',
  // between positions `after` and `before`. Asked with growing positions
  // per rank: the receipts and sends are walked once, not searched for
  // each gap.
  const std::vector<Receipt> *got = nullptr;
  uint32_t rank = 0;
  size_t nextReceipt = 0, nextSend = 0;
  auto foreignBetween = [&](uint32_t after, uint32_t before) {
    while (nextReceipt < got->size() && (*got)[nextReceipt].pos <= after) nextReceipt++;
    for (size_t j = nextReceipt; j < got->size() && (*got)[j].pos < before; j++)
      if (foreign((*got)[j].msg)) return true;
    while (nextSend < t.messages.size() && t.messages[nextSend].src == rank &&
           t.messages[nextSend].sendPos <= after)
      nextSend++;
    for (size_t i = nextSend; i < t.messages.size() && t.messages[i].src == rank &&
                              t.messages[i].sendPos < before;
         i++)
      if (foreign(uint32_t(i))) return true;
    return false;
  };
  std::vector<size_t> parent(count);
  std::iota(parent.begin(), parent.end(), 0);
  auto find = [&](size_t x) { return findSet(parent, x); };
  std::vector<uint32_t> bucket, sameFirst(count); // per position: an instance first there; the next one
  std::vector<std::pair<uint32_t, uint32_t>> starts; // (last event, k) first at one position
  for (size_t qi = 0; qi < n; qi++) {
    if (firsts[qi].lo == UINT32_MAX) continue;
    const uint32_t base = firsts[qi].lo;
    bucket.assign(size_t(firsts[qi].hi - base) + 1, kNone);
    for (size_t k = count; k-- > 0;) // so that each bucket lists its instances in idx order
      if (const Span &s = spanAt[k * n + qi]; s.lo != UINT32_MAX)
        sameFirst[k] = bucket[s.lo - base], bucket[s.lo - base] = uint32_t(k);
    rank = index.members()[qi];
    got = &activity.receipts(rank);
    nextReceipt = 0, nextSend = activity.firstSendAt(rank, 0);
    uint32_t hi = 0;
    size_t head = SIZE_MAX;
    for (uint32_t at = 0; at < bucket.size(); at++) {
      if (bucket[at] == kNone) continue;
      const uint32_t lo = base + at;
      for (uint32_t k = bucket[at]; k != kNone; k = sameFirst[k]) starts.push_back({spanAt[k * n + qi].hi, k});
      if (starts.size() > 1) std::sort(starts.begin(), starts.end()); // (lo, hi, k) order
      for (const auto &[h, k] : starts) {
        if (head != SIZE_MAX && (lo <= hi || !foreignBetween(hi, lo))) parent[find(k)] = find(head);
        else head = k, hi = 0;
        hi = std::max(hi, h);
      }
      starts.clear();
    }
  }
  for (size_t k : idx)
    for (uint32_t i : all[k].messages) theirs[i] = 0;
  // The groups in the order of their roots, each in idx order.
  std::vector<uint32_t> groupOf(count, kNone);
  std::vector<std::vector<size_t>> out;
  std::vector<size_t> root(count);
  for (size_t k = 0; k < count; k++) root[k] = find(k);
  for (size_t r = 0; r < count; r++)
    if (root[r] == r) groupOf[r] = uint32_t(out.size()), out.emplace_back();
  for (size_t k = 0; k < count; k++) out[groupOf[root[k]]].push_back(idx[k]);
  return out;
}

std::vector<std::vector<size_t>> consecutiveRolls(const MessageTable &t,
                                                  const std::vector<Instance> &all,
                                                  const std::vector<std::pair<uint64_t, uint64_t>> &spans,
                                                  std::vector<size_t> group) {
  // Every piece of a roll starts before any piece of the next one (the
  // next root heard every piece before it sends), so in start order a roll
  // ends where the next instance's first sender had every piece of the
  // instances before it.
  std::sort(group.begin(), group.end(),
            [&](size_t a, size_t b) { return spans[a].first < spans[b].first; });
  auto firstSendBy = [&](const Instance &in, uint32_t rank) {
    uint32_t pos = UINT32_MAX;
    for (uint32_t i : in.messages)
      if (t.messages[i].src == rank) pos = std::min(pos, t.messages[i].sendPos);
    return pos;
  };
  auto had = [&](const Instance &in, uint32_t rank, uint32_t before) {
    for (uint32_t i : in.messages) {
      const Message &m = t.messages[i];
      if ((m.src == rank && m.sendPos < before) || (m.dst == rank && m.recvPos < before)) return true;
    }
    return false;
  };
  std::vector<std::vector<size_t>> out(1);
  for (size_t k : group) {
    const Instance &next = all[k];
    uint32_t pos = firstSendBy(next, next.rootWorld);
    bool cut = !out.back().empty() && pos != UINT32_MAX;
    for (size_t j : out.back())
      if (cut && !had(all[j], next.rootWorld, pos)) cut = false;
    if (cut) out.emplace_back();
    out.back().push_back(k);
  }
  return out;
}

} // namespace cz::detect::detail
