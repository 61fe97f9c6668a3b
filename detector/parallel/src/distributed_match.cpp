// distributed_match.cpp: see distributed_match.h.
#include "distributed_match.h"
#include "exchange.h"

#include <algorithm>
#include <climits>
#include <stdexcept>

namespace cz::detect::parallel {
namespace {

// What the receiver's owner tells the sender's owner about one send.
struct MatchAnswer {
  uint32_t slot = kNone; // in the receiver's owner's `received`; kNone: unmatched
  uint32_t recvPos = 0, recvCount = 0, recvType = 0;
  uint64_t recvAddress = 0, recvTime = 0, recvSite = 0, recvCaller = 0;
  uint8_t recvSiteKind = 0;
  bool recvAnySource = false;
};

} // namespace

DistributedMatch matchAtReceivers(MPI_Comm comm, int ranks, std::vector<RankRecords> owned) {
  int me = 0, procs = 1;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &procs);
  const size_t nprocs = size_t(procs);
  auto owner = [&](uint32_t rank) { return size_t(rank % uint32_t(procs)); };
  DistributedMatch out;
  out.replay.procs = procs, out.replay.me = me;

  // Sends to their receivers' owners, each process's in (src, sendPos) order.
  // The sends move into `outgoing` (a rank's are freed once there); what
  // puts them back in (src, sendPos) order later is each send's bucket.
  std::vector<size_t> routed(nprocs, 0), sendsPerRank;
  for (const RankRecords &rr : owned) {
    sendsPerRank.push_back(rr.sends.size());
    for (const Message &m : rr.sends) routed[owner(m.dst)]++;
  }
  Layout sendLayout(routed);
  std::vector<Message> outgoing(sendLayout.total());
  std::vector<uint32_t> bucketOf; // per send, in (src, sendPos) order
  bucketOf.reserve(outgoing.size());
  {
    std::vector<size_t> fill(nprocs);
    for (size_t q = 0; q < fill.size(); q++) fill[q] = size_t(sendLayout.displs[q]);
    for (RankRecords &rr : owned) {
      for (const Message &m : rr.sends) {
        bucketOf.push_back(uint32_t(owner(m.dst)));
        outgoing[fill[owner(m.dst)]++] = m;
      }
      rr.sends = {};
    }
  }
  for (size_t q = 0; q < routed.size(); q++)
    if (int(q) != me) out.bytesRouted += routed[q] * sizeof(Message);
  std::vector<size_t> arriving(nprocs);
  {
    std::vector<uint64_t> a(routed.begin(), routed.end()), b(nprocs);
    MPI_Alltoall(a.data(), 1, MPI_UINT64_T, b.data(), 1, MPI_UINT64_T, comm);
    arriving.assign(b.begin(), b.end());
  }
  Layout recvLayout(arriving);
  std::vector<Message> incoming = exchange(comm, outgoing, sendLayout, recvLayout);

  // Matching: the owned ranks' receives, every queue whole here.
  std::vector<PostedReceive> receives;
  for (RankRecords &rr : owned) {
    receives.insert(receives.end(), rr.receives.begin(), rr.receives.end());
    rr.receives = {};
  }
  std::vector<uint8_t> matched;
  out.unmatched = matchQueues(ranks, incoming, receives, matched);
  receives = {};
  // The matched ones, compacted in place, are this process's received
  // messages (no second copy).
  std::vector<MatchAnswer> answers(incoming.size());
  size_t kept = 0;
  for (size_t i = 0; i < incoming.size(); i++) {
    if (!matched[i]) continue;
    const Message &m = incoming[i];
    answers[i] = {uint32_t(kept), m.recvPos, m.recvCount, m.recvType,
                  m.recvAddress, m.recvTime, m.recvSite, m.recvCaller, m.recvSiteKind,
                  m.recvAnySource};
    incoming[kept++] = m;
  }
  incoming.resize(kept);
  out.replay.received = std::move(incoming);
  matched = {};
  std::vector<MatchAnswer> back = exchange(comm, answers, recvLayout, sendLayout);
  answers = {};

  // The sender's side: matched sends, in (src, sendPos) order, with their
  // receive. The sends are put back into that order in place (no second
  // copy of them): their receive side first, in routing order, then a
  // permutation, then the unmatched ones squeezed out.
  for (size_t at = 0; at < back.size(); at++) {
    const MatchAnswer &a = back[at];
    if (a.slot == kNone) continue;
    Message &m = outgoing[at];
    m.recvPos = a.recvPos, m.recvCount = a.recvCount, m.recvType = a.recvType;
    m.recvAddress = a.recvAddress, m.recvTime = a.recvTime, m.recvSite = a.recvSite;
    m.recvSiteKind = a.recvSiteKind, m.recvCaller = a.recvCaller;
    m.recvAnySource = a.recvAnySource;
  }
  out.matchedPerRank.assign(size_t(std::max(ranks, 0)), 0);
  std::vector<uint32_t> from(outgoing.size()); // k-th send in (src, sendPos) order: its routing place
  std::vector<uint32_t> slots(outgoing.size());
  {
    std::vector<size_t> next(nprocs);
    for (size_t q = 0; q < next.size(); q++) next[q] = size_t(sendLayout.displs[q]);
    size_t send = 0;
    for (size_t k = 0; k < owned.size(); k++) {
      RankRecords &rr = owned[k];
      out.replay.ranks.push_back(uint32_t(rr.rank));
      for (size_t j = 0; j < sendsPerRank[k]; j++, send++) {
        from[send] = uint32_t(next[bucketOf[send]]++);
        slots[send] = back[from[send]].slot;
        if (slots[send] != kNone && size_t(rr.rank) < out.matchedPerRank.size())
          out.matchedPerRank[size_t(rr.rank)]++;
      }
      out.summaries.push_back(std::move(rr));
    }
  }
  back = {};
  bucketOf = {};
  // outgoing[k] = outgoing[from[k]] for all k, cycle by cycle (from[j] = j
  // marks a place done).
  for (size_t i = 0; i < from.size(); i++) {
    if (from[i] == i) continue;
    const Message first = outgoing[i];
    size_t j = i;
    while (true) {
      const size_t k = from[j];
      from[j] = uint32_t(j);
      if (k == i) {
        outgoing[j] = first;
        break;
      }
      outgoing[j] = outgoing[k];
      j = k;
    }
  }
  from = {};
  size_t w = 0;
  for (size_t k = 0; k < outgoing.size(); k++)
    if (slots[k] != kNone) {
      outgoing[w] = outgoing[k];
      slots[w++] = slots[k];
    }
  outgoing.resize(w);
  slots.resize(w);
  out.replay.sent = std::move(outgoing);
  out.replay.sentSlot = std::move(slots);
  out.replay.sentIndex.reserve(w);
  MPI_Allreduce(MPI_IN_PLACE, out.matchedPerRank.data(), int(out.matchedPerRank.size()),
                MPI_UINT64_T, MPI_SUM, comm);
  // Table index: the table is in (src, sendPos) order.
  std::vector<uint64_t> start(out.matchedPerRank.size() + 1, 0);
  for (size_t r = 0; r < out.matchedPerRank.size(); r++)
    start[r + 1] = start[r] + out.matchedPerRank[r];
  if (start.back() >= kNone) throw std::runtime_error("more than 2^32 matched messages");
  uint32_t prev = kNone, ordinal = 0;
  for (const Message &m : out.replay.sent) {
    if (m.src != prev) prev = m.src, ordinal = 0;
    out.replay.sentIndex.push_back(uint32_t(start[m.src] + ordinal++));
  }
  return out;
}

} // namespace cz::detect::parallel
