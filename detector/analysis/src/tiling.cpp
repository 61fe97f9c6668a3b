// tiling.cpp: collectives whose members send distinct blocks from one
// buffer, or receive them into one, one block per other member.
//
// Messages between a pair (p, q) on a communicator are numbered in order;
// the k-th messages from p to every other member form p's k-th send set.
// It is *tiled* when all blocks have the same size n and block q starts at
// base + rank(q)*n: the layout of MPI_Scatter's send buffer, with the hole
// at p's own position (the block p keeps never travels). Receive sets
// likewise. Per communicator and k:
//   every member send-tiled                      alltoall
//   every member receive-tiled, each member's
//   blocks all the same data                     allgather (direct)
//   every member receive-tiled otherwise         alltoall
//   every member sends one payload to every
//   other, kept apart in any order               allgather (full_exchange.cpp)
//   one member send-tiled                        scatter, root p
//   one member receive-tiled                     gather, root q
#include <algorithm>
#include <map>
#include <unordered_map>

#include "detect_internal.h"
#include "receive_layout.h"

namespace cz::detect::detail {

std::vector<Step> timeOrder(const MessageTable &t, const std::vector<uint32_t> &msgs) {
  std::vector<Step> steps;
  steps.reserve(msgs.size() * 2);
  for (uint32_t i : msgs) {
    steps.push_back({t.messages[i].sendTime, i, true});
    steps.push_back({std::max(t.messages[i].recvTime, t.messages[i].sendTime), i, false});
  }
  std::sort(steps.begin(), steps.end(), [](const Step &a, const Step &b) {
    return a.time != b.time ? a.time < b.time : a.isSend && !b.isSend;
  });
  return steps;
}

int rankIn(const Group &g, uint32_t w) {
  for (size_t i = 0; i < g.members.size(); i++)
    if (g.members[i] == w) return int(i);
  return -1;
}

namespace {

struct Side {
  std::vector<uint32_t> msgs; // one per other member (and maybe one to itself)
  bool tiled = false;
  uint64_t base = 0, n = 0;
};

// msgs: one message per other member of g (addresses chosen by `send`),
// and possibly one to itself, which must sit in the hole (code that loops
// over every rank, itself included).
bool tiled(const MessageTable &t, const Group &g, const std::vector<uint32_t> &msgs, bool send,
           uint64_t &base, uint64_t &n) {
  size_t toSelf = 0;
  for (uint32_t i : msgs) toSelf += t.messages[i].src == t.messages[i].dst;
  if (toSelf > 1 || msgs.size() - toSelf + 1 != g.members.size() || msgs.empty()) return false;
  n = t.messages[msgs[0]].bytes;
  if (n == 0) return false;
  bool first = true;
  for (uint32_t i : msgs) {
    const Message &m = t.messages[i];
    uint32_t other = send ? m.dst : m.src;
    int pos = rankIn(g, other);
    uint64_t addr = send ? m.sendAddress : m.recvAddress;
    if (m.bytes != n || pos < 0 || addr < uint64_t(pos) * n) return false;
    uint64_t b = addr - uint64_t(pos) * n;
    if (first) base = b, first = false;
    else if (b != base) return false;
  }
  return true;
}

// One pass: messages numbered per (communicator, pair, block size, and the
// tag when byTag), so rounds of other exchanges between the same pairs do
// not mix in.
void tilingPass(const MessageTable &t, const DetectOptions &o, bool byTag,
                std::vector<uint8_t> &claimed, std::vector<Instance> &out) {
  // Per sender and per receiver (world rank order), flat: a round holds a
  // few messages and maps of them cost more than the analysis.
  struct Sides {
    std::vector<std::pair<uint32_t, Side>> sends, recvs;
  };
  auto bySide = [&](const std::vector<uint32_t> &msgs, bool send,
                    std::vector<std::pair<uint32_t, Side>> &out) {
    std::vector<std::pair<uint32_t, uint32_t>> of; // (rank, message), message order kept
    of.reserve(msgs.size());
    for (uint32_t i : msgs) of.push_back({send ? t.messages[i].src : t.messages[i].dst, i});
    std::stable_sort(of.begin(), of.end(),
                     [](const auto &a, const auto &b) { return a.first < b.first; });
    for (size_t k = 0; k < of.size(); k++) {
      if (k == 0 || of[k].first != of[k - 1].first) out.push_back({of[k].first, Side{}});
      out.back().second.msgs.push_back(of[k].second);
    }
  };
  std::vector<uint32_t> candidates;
  for (uint32_t i = 0; i < t.messages.size(); i++) {
    const Message &m = t.messages[i];
    if (claimed[i]) continue;
    const Group *g = t.group(m.comm);
    if (g && int(g->members.size()) >= o.minGroup) candidates.push_back(i);
  }
  for (Round &round : pairRounds(t, candidates, [byTag](const Message &m) {
         return RoundKey{m.comm, byTag ? m.tag : 0, m.bytes, 0};
       })) {
    const uint32_t comm = round.key.comm;
    Sides r;
    bySide(round.messages, true, r.sends);
    bySide(round.messages, false, r.recvs);
    const Group &g = *t.group(comm);
    size_t p = g.members.size();
    size_t sendTiled = 0, recvTiled = 0;
    for (auto &[w, s] : r.sends) sendTiled += s.tiled = tiled(t, g, s.msgs, true, s.base, s.n);
    for (auto &[w, s] : r.recvs) recvTiled += s.tiled = tiled(t, g, s.msgs, false, s.base, s.n);
    auto emit = [&](Kind kind, uint32_t root, const std::vector<const Side *> &sides,
                    uint64_t bytes) {
      Instance in;
      in.kind = kind;
      in.comm = comm;
      in.rootWorld = root;
      in.bytes = bytes;
      in.participants = g.members;
      std::sort(in.participants.begin(), in.participants.end());
      for (const Side *s : sides)
        for (uint32_t i : s->msgs)
          if (!claimed[i]) claimed[i] = 1, in.messages.push_back(i);
      if (root != kNone && (kind == Kind::Scatter || kind == Kind::Gather)) {
        // The root's own block sits in the hole: declared kept?
        const Side *s = sides[0];
        uint64_t hole = s->base + uint64_t(rankIn(g, root)) * s->n;
        for (const KeptBuffer &kb : t.kept)
          if (kb.rank == root && kb.address == hole && kb.bytes == s->n) in.keptConfirmed = true;
      }
      out.push_back(std::move(in));
    };
    if (sendTiled == p) {
      std::vector<const Side *> all;
      for (auto &[w, s] : r.sends) all.push_back(&s);
      emit(Kind::Alltoall, kNone, all, r.sends.begin()->second.n * p);
      continue;
    }
    if (recvTiled == p) {
      bool sameData = true;
      std::vector<const Side *> all;
      for (auto &[w, s] : r.sends) {
        for (uint32_t i : s.msgs)
          if (!t.messages[i].hashed || t.messages[i].crc != t.messages[s.msgs[0]].crc)
            sameData = false;
      }
      for (auto &[w, s] : r.recvs) all.push_back(&s);
      emit(sameData ? Kind::Allgather : Kind::Alltoall, kNone, all,
           r.recvs.begin()->second.n * (sameData ? 1 : p));
      continue;
    }
    // Before rooted readings of single members: a receiver whose blocks
    // happen to sit in rank order is no gather when every member sent its
    // block to every other one (full_exchange.cpp).
    ReceiveLayout layout = fullExchangeLayout(t, g, round.messages);
    if (layout != ReceiveLayout::NotObserved) {
      std::vector<const Side *> all;
      for (auto &[w, s] : r.recvs) all.push_back(&s);
      emit(Kind::Allgather, kNone, all, round.key.bytes);
      out.back().recvLayout = layoutName(layout); // "" in rank order: nothing to say
      out.back().note = layoutNote(layout);
      continue;
    }
    for (auto &[w, s] : r.sends)
      if (s.tiled) emit(Kind::Scatter, w, {&s}, s.n * p);
    for (auto &[w, s] : r.recvs)
      if (s.tiled) emit(Kind::Gather, w, {&s}, s.n * p);
  }
}

} // namespace

void findTilings(const MessageTable &t, const DetectOptions &o, std::vector<uint8_t> &claimed,
                 std::vector<Instance> &out) {
  tilingPass(t, o, true, claimed, out);
  tilingPass(t, o, false, claimed, out); // codes that tag by step or source
}

} // namespace cz::detect::detail
