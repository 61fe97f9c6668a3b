// causal_times.cpp: see causal_times.h.
#include "causal_times.h"

#include <algorithm>
#include <climits>
#include <stdexcept>
#include <unordered_map>

#include "collectivize/causal_order.h"

namespace cz::detect::parallel {
namespace {

// One event on the wire: its rank, then CausalEvent's fields.
struct WireEvent {
  uint32_t rank, pos, src, sendPos;
  uint64_t time;
  uint32_t kind, index; // index: the owner's (into sent, received or kept)
};

// Where an event's times go back on its owner: its own time, and the
// time of its message's other end.
struct WireTimes {
  uint64_t own, other;
};

uint64_t key(uint32_t src, uint32_t sendPos) { return uint64_t(src) << 32 | sendPos; }

// This process's ranks' events, each rank's in position order.
std::vector<WireEvent> ownEvents(const DistributedMatch &match) {
  std::vector<WireEvent> out;
  const ReplayInput &in = match.replay;
  for (size_t i = 0; i < in.sent.size(); i++) {
    const Message &m = in.sent[i];
    out.push_back({m.src, m.sendPos, m.src, m.sendPos, m.sendTime, CausalEvent::Send, uint32_t(i)});
  }
  for (size_t i = 0; i < in.received.size(); i++) {
    const Message &m = in.received[i];
    out.push_back(
        {m.dst, m.recvPos, m.src, m.sendPos, m.recvTime, CausalEvent::Receive, uint32_t(i)});
  }
  uint32_t k = 0;
  for (const RankRecords &rr : match.summaries)
    for (const KeptBuffer &kb : rr.kept)
      out.push_back({kb.rank, kb.pos, 0, 0, kb.time, CausalEvent::Kept, k++});
  std::sort(out.begin(), out.end(), [](const WireEvent &a, const WireEvent &b) {
    return a.rank != b.rank ? a.rank < b.rank : a.pos < b.pos;
  });
  return out;
}

// The check of the serial pass (causal_order.cpp, orderCausally on a
// table): a rank's times follow its program order by construction, so only
// a receive completed no later than its send (its time travels with the
// message), a send stamped at the very time of a receive of its rank (the
// replays put sends first at equal times), or a kept buffer calls for the
// pass. A process owns its ranks' sends and receives alike.
bool ordered(const DistributedMatch &match) {
  for (const RankRecords &rr : match.summaries)
    if (!rr.kept.empty()) return false;
  for (const Message &m : match.replay.received)
    if (m.recvTime <= m.sendTime) return false;
  return !sendAtReceiveTime(match.replay.sent, match.replay.received);
}

void apply(const std::vector<WireEvent> &events, const std::vector<WireTimes> &times,
           DistributedMatch &match) {
  std::vector<KeptBuffer *> kept;
  for (RankRecords &rr : match.summaries)
    for (KeptBuffer &kb : rr.kept) kept.push_back(&kb);
  for (size_t i = 0; i < events.size(); i++) {
    const WireEvent &e = events[i];
    if (e.kind == CausalEvent::Send) {
      match.replay.sent[e.index].sendTime = times[i].own;
      match.replay.sent[e.index].recvTime = times[i].other;
    } else if (e.kind == CausalEvent::Receive) {
      match.replay.received[e.index].recvTime = times[i].own;
      match.replay.received[e.index].sendTime = times[i].other;
    } else {
      kept[e.index]->time = times[i].own;
    }
  }
}

} // namespace

uint64_t orderCausallyAcross(MPI_Comm comm, int ranks, DistributedMatch &match) {
  int me = 0, procs = 1;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &procs);
  int ok = ordered(match) ? 1 : 0, allOk = 0;
  MPI_Allreduce(&ok, &allOk, 1, MPI_INT, MPI_MIN, comm);
  if (allOk) return 0;
  std::vector<WireEvent> mine = ownEvents(match);

  // Every rank's events at process 0.
  if (mine.size() * sizeof(WireEvent) > size_t(INT_MAX))
    throw std::runtime_error("causal order: over 2 GiB of events on one process");
  int bytes = int(mine.size() * sizeof(WireEvent));
  std::vector<int> counts(me == 0 ? size_t(procs) : 0), displs(counts.size());
  MPI_Gather(&bytes, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, comm);
  std::vector<WireEvent> all;
  if (me == 0) {
    size_t total = 0;
    for (int q = 0; q < procs; q++) {
      displs[size_t(q)] = int(total);
      total += size_t(counts[size_t(q)]);
      if (total > size_t(INT_MAX)) throw std::runtime_error("causal order: over 2 GiB of events");
    }
    all.resize(total / sizeof(WireEvent));
  }
  MPI_Gatherv(mine.data(), bytes, MPI_BYTE, all.data(), counts.data(), displs.data(), MPI_BYTE, 0,
              comm);

  // Process 0: the serial pass, then each event's times in arrival order.
  std::vector<WireTimes> back;
  uint64_t raised = 0;
  if (me == 0) {
    std::vector<std::vector<CausalEvent>> byRank(size_t(std::max(ranks, 0)));
    for (size_t i = 0; i < all.size(); i++) {
      const WireEvent &e = all[i];
      if (e.rank >= byRank.size()) byRank.resize(e.rank + 1);
      byRank[e.rank].push_back({e.pos, CausalEvent::Kind(e.kind), e.src, e.sendPos, e.time,
                                uint32_t(i)});
    }
    for (auto &events : byRank)
      std::sort(events.begin(), events.end(),
                [](const CausalEvent &a, const CausalEvent &b) { return a.pos < b.pos; });
    raised = orderCausally(byRank);
    back.resize(all.size());
    std::unordered_map<uint64_t, uint64_t> sendTime, recvTime;
    for (const auto &events : byRank)
      for (const CausalEvent &e : events) {
        back[e.index].own = e.time;
        if (e.kind == CausalEvent::Send) sendTime[key(e.src, e.sendPos)] = e.time;
        if (e.kind == CausalEvent::Receive) recvTime[key(e.src, e.sendPos)] = e.time;
      }
    for (size_t i = 0; i < all.size(); i++) {
      const WireEvent &e = all[i];
      if (e.kind == CausalEvent::Send) back[i].other = recvTime[key(e.src, e.sendPos)];
      if (e.kind == CausalEvent::Receive) back[i].other = sendTime[key(e.src, e.sendPos)];
    }
    for (int q = 0; q < procs; q++) {
      counts[size_t(q)] = counts[size_t(q)] / int(sizeof(WireEvent)) * int(sizeof(WireTimes));
      displs[size_t(q)] = displs[size_t(q)] / int(sizeof(WireEvent)) * int(sizeof(WireTimes));
    }
  }
  std::vector<WireTimes> times(mine.size());
  MPI_Scatterv(back.data(), counts.data(), displs.data(), MPI_BYTE, times.data(),
               int(times.size() * sizeof(WireTimes)), MPI_BYTE, 0, comm);
  apply(mine, times, match);
  MPI_Bcast(&raised, 1, MPI_UINT64_T, 0, comm);
  return raised;
}

} // namespace cz::detect::parallel
