// long_bcast_rolls.cpp: the long broadcast rule's candidate pieces grouped
// into rolls (rolls, consecutiveRolls: long_bcast.h). A trace of thousands
// of ring allgathers gives tens of thousands of pieces, each looked at
// here, so the work is per message end: loads from arrays indexed by
// member, no maps, no searches.
#include <algorithm>
#include <numeric>

#include "long_bcast.h"
#include "radix_sort.h"

namespace cz::detect::detail {

namespace {

// An instance's span at one member: k indexes idx.
struct SpanAt {
  uint32_t lo, hi, k;
  bool operator<(const SpanAt &o) const {
    return lo != o.lo ? lo < o.lo : hi != o.hi ? hi < o.hi : k < o.k;
  }
};

// Each instance's span at each member: out[q] lists the instances idx[k]
// that member q takes part in, in idx order. One pass over the messages.
std::vector<std::vector<SpanAt>> spansByMember(const MessageTable &t,
                                               const std::vector<Instance> &all,
                                               const std::vector<size_t> &idx,
                                               const MemberIndex &index) {
  std::vector<std::vector<SpanAt>> out(index.size());
  for (std::vector<SpanAt> &v : out) v.reserve(idx.size());
  std::vector<Span> now(index.size());
  std::vector<uint32_t> touched;
  auto note = [&](uint32_t rank, uint32_t pos) {
    const uint32_t q = index[rank];
    if (q == kNone) return;
    Span &s = now[q];
    if (s.lo == UINT32_MAX) touched.push_back(q);
    s.lo = std::min(s.lo, pos), s.hi = std::max(s.hi, pos);
  };
  for (size_t k = 0; k < idx.size(); k++) {
    for (uint32_t i : all[idx[k]].messages) {
      const Message &m = t.messages[i];
      note(m.src, m.sendPos);
      note(m.dst, m.recvPos);
    }
    for (uint32_t q : touched) out[q].push_back({now[q].lo, now[q].hi, uint32_t(k)}), now[q] = Span{};
    touched.clear();
  }
  return out;
}

// Sorts a member's spans by (lo, hi, k): a stable radix sort on lo (they
// come in idx order, so equal lo keep k's order), then equal lo by hi.
// A comparison sort of every member's spans was a third of the rule on a
// trace of thousands of ring allgathers (the instances come in no time
// order).
void sortSpans(std::vector<SpanAt> &v, std::vector<SpanAt> &spare) {
  radixSortByKey(v, [](const SpanAt &s) { return uint64_t(s.lo); }, spare);
  for (size_t a = 0, b; a < v.size(); a = b) {
    for (b = a + 1; b < v.size() && v[b].lo == v[a].lo;) b++;
    if (b - a > 1) std::sort(v.begin() + ptrdiff_t(a), v.begin() + ptrdiff_t(b));
  }
}

} // namespace

// Consecutive broadcasts are parted at each member by the next one's
// spread, or by whatever the program does between them. A union-find over
// the instances: at each member, in span order, an instance joins the one
// before unless a message of the communicator that is none of theirs lies
// between them.
std::vector<std::vector<size_t>> rolls(const MessageTable &t, const RankActivity &activity,
                                       const std::vector<Instance> &all,
                                       const std::vector<size_t> &idx, const MemberIndex &index,
                                       std::vector<uint8_t> &theirs) {
  const uint32_t comm = all[idx[0]].comm;
  for (size_t k : idx)
    for (uint32_t i : all[k].messages) theirs[i] = 1;
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
  std::vector<size_t> parent(idx.size());
  std::iota(parent.begin(), parent.end(), 0);
  auto find = [&](size_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  std::vector<std::vector<SpanAt>> spansAt = spansByMember(t, all, idx, index);
  std::vector<SpanAt> spare;
  for (size_t qi = 0; qi < spansAt.size(); qi++) {
    std::vector<SpanAt> &spans = spansAt[qi];
    sortSpans(spans, spare);
    rank = index.members()[qi];
    got = &activity.receipts(rank);
    nextReceipt = 0, nextSend = activity.firstSendAt(rank, 0);
    uint32_t hi = 0;
    size_t head = SIZE_MAX;
    for (const auto &[lo, h, k] : spans) {
      if (head != SIZE_MAX && (lo <= hi || !foreignBetween(hi, lo))) parent[find(k)] = find(head);
      else head = k, hi = 0;
      hi = std::max(hi, h);
    }
  }
  for (size_t k : idx)
    for (uint32_t i : all[k].messages) theirs[i] = 0;
  // The groups in the order of their roots, each in idx order.
  std::vector<uint32_t> groupOf(idx.size(), kNone);
  std::vector<std::vector<size_t>> out;
  std::vector<size_t> root(idx.size());
  for (size_t k = 0; k < idx.size(); k++) root[k] = find(k);
  for (size_t r = 0; r < idx.size(); r++)
    if (root[r] == r) groupOf[r] = uint32_t(out.size()), out.emplace_back();
  for (size_t k = 0; k < idx.size(); k++) out[groupOf[root[k]]].push_back(idx[k]);
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
