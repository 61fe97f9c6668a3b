// causal_order.cpp: see causal_order.h. Ranks advance through their events
// as far as they can; a rank stops at a receive whose send is not placed
// yet and waits for it (event-driven: linear in the events).
#include "collectivize/causal_order.h"

#include <algorithm>
#include <deque>

#include "radix_sort.h"


namespace cz::detect {
namespace {

constexpr uint32_t kNobody = 0xffffffffu;
constexpr uint32_t kNotSend = 0xfffffffeu; // (SendIndex: the first event at a position is no send)

// Index of the send of (src, sendPos) in ranks[src], or SIZE_MAX.
size_t sendIndex(const std::vector<std::vector<CausalEvent>> &ranks, uint32_t src, uint32_t pos) {
  if (src >= ranks.size()) return SIZE_MAX;
  const auto &events = ranks[src];
  auto it = std::lower_bound(events.begin(), events.end(), pos,
                             [](const CausalEvent &e, uint32_t p) { return e.pos < p; });
  if (it == events.end() || it->pos != pos || it->kind != CausalEvent::Send) return SIZE_MAX;
  return size_t(it - events.begin());
}

// Where each send lies in its rank's events, by position: a table when the
// positions are dense (they are the rank's event numbers), else a binary
// search (sendIndex). Looked up for every receive the pass places.
class SendIndex {
public:
  explicit SendIndex(const std::vector<std::vector<CausalEvent>> &ranks) : ranks_(ranks) {
    byPos_.resize(ranks.size());
    for (size_t r = 0; r < ranks.size(); r++) {
      const auto &events = ranks[r];
      if (events.empty() || events.back().pos > 4 * events.size() + 1024) continue;
      std::vector<uint32_t> &at = byPos_[r];
      at.assign(size_t(events.back().pos) + 1, kNobody);
      // As the binary search: the first event at a position, if a send.
      for (size_t i = 0; i < events.size(); i++)
        if (at[events[i].pos] == kNobody)
          at[events[i].pos] = events[i].kind == CausalEvent::Send ? uint32_t(i) : kNotSend;
    }
  }
  size_t of(uint32_t src, uint32_t pos) const {
    if (src >= byPos_.size()) return SIZE_MAX;
    const std::vector<uint32_t> &at = byPos_[src];
    if (at.empty()) return sendIndex(ranks_, src, pos);
    return pos < at.size() && at[pos] < kNotSend ? at[pos] : SIZE_MAX;
  }

private:
  const std::vector<std::vector<CausalEvent>> &ranks_;
  std::vector<std::vector<uint32_t>> byPos_; // per rank: index of the send at pos, or above
};

} // namespace

bool causallyOrdered(const std::vector<std::vector<CausalEvent>> &ranks) {
  for (const auto &events : ranks)
    for (size_t i = 0; i < events.size(); i++) {
      const CausalEvent &e = events[i];
      if (i > 0) {
        const CausalEvent &before = events[i - 1];
        if (e.time < before.time) return false;
        if (before.kind == CausalEvent::Receive && e.time == before.time) return false;
      }
      if (e.kind == CausalEvent::Receive) {
        size_t s = sendIndex(ranks, e.src, e.sendPos);
        if (s != SIZE_MAX && e.time <= ranks[e.src][s].time) return false;
      }
    }
  return true;
}

uint64_t orderCausally(std::vector<std::vector<CausalEvent>> &ranks) {
  const size_t n = ranks.size();
  std::vector<size_t> next(n, 0);      // each rank's first event not placed yet
  std::vector<uint64_t> shift(n, 0);   // how far each rank's clock was raised
  const SendIndex sends(ranks);
  // Per rank and event: the rank whose receive waits for that send, or kNobody.
  std::vector<std::vector<uint32_t>> waiter(n);
  for (size_t r = 0; r < n; r++) waiter[r].assign(ranks[r].size(), kNobody);
  std::deque<uint32_t> ready;
  for (uint32_t r = 0; r < n; r++) ready.push_back(r);
  uint64_t raised = 0;
  size_t placed = 0, total = 0;
  for (const auto &events : ranks) total += events.size();

  // Places rank r's events until one must wait; ignoreFirst: place its
  // next receive even though its send is not placed (a cycle).
  auto advance = [&](uint32_t r, bool ignoreFirst) {
    auto &events = ranks[r];
    while (next[r] < events.size()) {
      CausalEvent &e = events[next[r]];
      uint64_t t = e.time + shift[r];
      if (next[r] > 0) {
        const CausalEvent &before = events[next[r] - 1];
        t = std::max(t, before.time + (before.kind == CausalEvent::Receive ? 1 : 0));
      }
      if (e.kind == CausalEvent::Receive) {
        size_t s = sends.of(e.src, e.sendPos);
        if (s != SIZE_MAX && next[e.src] <= s && !ignoreFirst) {
          waiter[e.src][s] = r;
          return;
        }
        if (s != SIZE_MAX && next[e.src] > s) t = std::max(t, ranks[e.src][s].time + 1);
      }
      ignoreFirst = false;
      if (t != e.time) {
        raised++;
        shift[r] = std::max(shift[r], t - e.time);
        e.time = t;
      }
      uint32_t &w = waiter[r][next[r]];
      if (w != kNobody) {
        ready.push_back(w);
        w = kNobody;
      }
      next[r]++;
      placed++;
    }
  };

  while (placed < total) {
    if (ready.empty()) {
      // Every unfinished rank waits for a send not yet placed: break the
      // cycle at the waiting receive with the earliest time.
      uint32_t pick = kNobody;
      for (uint32_t r = 0; r < n; r++)
        if (next[r] < ranks[r].size() &&
            (pick == kNobody || ranks[r][next[r]].time < ranks[pick][next[pick]].time))
          pick = r;
      if (pick == kNobody) break;
      const CausalEvent &e = ranks[pick][next[pick]];
      size_t s = sends.of(e.src, e.sendPos);
      if (s != SIZE_MAX) waiter[e.src][s] = kNobody;
      advance(pick, true);
      continue;
    }
    uint32_t r = ready.front();
    ready.pop_front();
    advance(r, false);
  }
  return raised;
}

std::vector<std::vector<CausalEvent>> causalEvents(const MessageTable &t) {
  std::vector<std::vector<CausalEvent>> ranks(size_t(std::max(t.ranks, 0)));
  {
    std::vector<size_t> counts(ranks.size(), 0);
    auto count = [&](uint32_t rank) {
      if (rank >= counts.size()) counts.resize(rank + 1, 0);
      counts[rank]++;
    };
    for (const Message &m : t.messages) count(m.src), count(m.dst);
    for (const KeptBuffer &kb : t.kept) count(kb.rank);
    ranks.resize(counts.size());
    for (size_t r = 0; r < counts.size(); r++) ranks[r].reserve(counts[r]);
  }
  auto at = [&](uint32_t rank) -> std::vector<CausalEvent> & {
    if (rank >= ranks.size()) ranks.resize(rank + 1);
    return ranks[rank];
  };
  for (size_t i = 0; i < t.messages.size(); i++) {
    const Message &m = t.messages[i];
    at(m.src).push_back({m.sendPos, CausalEvent::Send, m.src, m.sendPos, m.sendTime, uint32_t(i)});
    at(m.dst).push_back(
        {m.recvPos, CausalEvent::Receive, m.src, m.sendPos, m.recvTime, uint32_t(i)});
  }
  for (size_t k = 0; k < t.kept.size(); k++) {
    const KeptBuffer &kb = t.kept[k];
    at(kb.rank).push_back({kb.pos, CausalEvent::Kept, 0, 0, kb.time, uint32_t(k)});
  }
  auto byPos = [](const CausalEvent &a, const CausalEvent &b) { return a.pos < b.pos; };
  // (positions are unique in a rank: any sort by them gives this order)
  std::vector<CausalEvent> spare;
  for (auto &events : ranks)
    if (!std::is_sorted(events.begin(), events.end(), byPos))
      detail::radixSortByKey(events, [](const CausalEvent &e) { return uint64_t(e.pos); }, spare);
  return ranks;
}

void applyCausalTimes(MessageTable &t, const std::vector<std::vector<CausalEvent>> &ranks) {
  for (const auto &events : ranks)
    for (const CausalEvent &e : events) {
      if (e.kind == CausalEvent::Send) t.messages[e.index].sendTime = e.time;
      else if (e.kind == CausalEvent::Receive) t.messages[e.index].recvTime = e.time;
      else t.kept[e.index].time = e.time;
    }
}

bool sendAtReceiveTime(const std::vector<Message> &sends, const std::vector<Message> &receives) {
  if (sends.empty()) return false;
  // Each rank's sends: [firstSend[r], firstSend[r + 1]).
  std::vector<size_t> firstSend(size_t(sends.back().src) + 2, sends.size());
  for (size_t i = sends.size(); i-- > 0;) firstSend[sends[i].src] = i;
  for (size_t r = firstSend.size() - 1; r-- > 0;)
    firstSend[r] = std::min(firstSend[r], firstSend[r + 1]);
  for (const Message &m : receives) {
    if (size_t(m.dst) + 1 >= firstSend.size()) continue; // a rank that sent nothing
    auto lo = sends.begin() + ptrdiff_t(firstSend[m.dst]);
    auto hi = sends.begin() + ptrdiff_t(firstSend[m.dst + 1]);
    auto at = std::lower_bound(lo, hi, m.recvTime,
                               [](const Message &a, uint64_t time) { return a.sendTime < time; });
    if (at != hi && at->sendTime == m.recvTime) return true;
  }
  return false;
}

uint64_t orderCausally(MessageTable &t) {
  // A rank's times follow its program order already (one clock per rank,
  // read in sequence); only a receive completed no later than its send,
  // or a send stamped at the very time of a receive of its rank, can
  // contradict the matching or the replays. Checked first on the table
  // itself: on one node's clocks that is all (no copy of the events, no
  // extra memory). Kept buffers are rare: with any, the full pass runs.
  bool ordered = t.kept.empty();
  for (const Message &m : t.messages)
    if (m.recvTime <= m.sendTime) {
      ordered = false;
      break;
    }
  if (ordered && !sendAtReceiveTime(t.messages, t.messages)) return 0;
  // (On one node this happens too: a send's time is taken when the call
  // returns, and an eager message can be received before that; the
  // replays need the receive after its send, whatever the clocks.)
  std::vector<std::vector<CausalEvent>> ranks = causalEvents(t);
  uint64_t raised = orderCausally(ranks);
  applyCausalTimes(t, ranks);
  return raised;
}

} // namespace cz::detect
