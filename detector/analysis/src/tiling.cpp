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
#include <set>
#include <unordered_map>

#include "detect_internal.h"
#include "rank_activity.h"
#include "receive_layout.h"

namespace cz::detect::detail {

std::vector<Step> timeOrder(const MessageTable &t, const std::vector<uint32_t> &msgs) {
  std::vector<Step> steps;
  timeOrder(t, msgs, steps);
  return steps;
}

void timeOrder(const MessageTable &t, const std::vector<uint32_t> &msgs, std::vector<Step> &steps) {
  steps.clear();
  steps.reserve(msgs.size() * 2);
  for (uint32_t i : msgs) {
    steps.push_back({t.messages[i].sendTime, i, true});
    steps.push_back({std::max(t.messages[i].recvTime, t.messages[i].sendTime), i, false});
  }
  std::sort(steps.begin(), steps.end(), [](const Step &a, const Step &b) {
    return a.time != b.time ? a.time < b.time : a.isSend && !b.isSend;
  });
}


namespace {

// One member's messages of a round (a run of a scratch array), all sent
// by it or all received.
struct Side {
  uint32_t rank = 0;
  const uint32_t *first = nullptr, *last = nullptr;
  bool tiled = false;
  uint64_t base = 0, n = 0;
  const uint32_t *begin() const { return first; }
  const uint32_t *end() const { return last; }
};

// msgs: one message per other member of g (addresses chosen by `send`),
// and possibly one to itself, which must sit in the hole (code that loops
// over every rank, itself included).
bool tiled(const MessageTable &t, const Group &g, const Side &msgs, bool send, uint64_t &base,
           uint64_t &n) {
  size_t toSelf = 0, count = size_t(msgs.last - msgs.first);
  for (uint32_t i : msgs) toSelf += t.messages[i].src == t.messages[i].dst;
  if (toSelf > 1 || count - toSelf + 1 != g.members.size() || count == 0) return false;
  n = t.messages[*msgs.first].bytes;
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

// A round's messages grouped by sender (send) or receiver, in world rank
// order, message order kept in each group. The sides point into `flat`,
// whose memory serves every round (rounds are many and small: a vector
// per side cost more than the analysis).
void groupBySide(const MessageTable &t, const std::vector<uint32_t> &msgs, bool send,
                 std::vector<std::pair<uint32_t, uint32_t>> &of, std::vector<uint32_t> &flat,
                 std::vector<Side> &sides) {
  of.clear();
  for (uint32_t i : msgs) of.push_back({send ? t.messages[i].src : t.messages[i].dst, i});
  // Stable by rank. Most rounds are small, and std::stable_sort takes a
  // buffer from malloc for each: they are sorted by insertion.
  auto byRank = [](const auto &a, const auto &b) { return a.first < b.first; };
  if (of.size() > 32) std::stable_sort(of.begin(), of.end(), byRank);
  else
    for (size_t k = 1; k < of.size(); k++)
      for (size_t j = k; j > 0 && byRank(of[j], of[j - 1]); j--) std::swap(of[j - 1], of[j]);
  flat.clear();
  for (auto &[rank, i] : of) flat.push_back(i);
  sides.clear();
  for (size_t k = 0; k < of.size(); k++) {
    if (k == 0 || of[k].first != of[k - 1].first) {
      sides.push_back({});
      sides.back().rank = of[k].first;
      sides.back().first = flat.data() + k;
    }
    sides.back().last = flat.data() + k + 1;
  }
}

// While the exchange runs (before a member's last receipt of it), every
// member sends its peers further messages on the communicator: several
// messages per pair in one exchange, which MPI_Alltoall never sends and a
// halo exchange with faces, edges and corners does (at a small process
// count every rank is every other's neighbour). A message sent to the
// same peer just before, with no receipt of the sender between the two,
// counts as well: the faces of one exchange sent from a call site per
// direction (NPB SP's and BT's copy_faces: at 4 ranks a direction's
// successor and predecessor are one rank, and the predecessors' faces,
// read alone, reach every rank once, after the successors' did).
bool severalPerPair(const MessageTable &t, const RankActivity &activity,
                    const std::vector<uint32_t> &msgs) {
  // Per world rank (scratch reused: exchanges are many and small): its
  // last receipt in the exchange + 1 (0: none), and 1 sender, 2 repeater.
  static thread_local std::vector<uint32_t> lastReceipt;
  static thread_local std::vector<uint8_t> role;
  uint32_t span = 0;
  for (uint32_t i : msgs) span = std::max({span, t.messages[i].src + 1, t.messages[i].dst + 1});
  lastReceipt.assign(span, 0);
  role.assign(span, 0);
  for (uint32_t i : msgs) {
    uint32_t &r = lastReceipt[t.messages[i].dst];
    r = std::max(r, t.messages[i].recvPos + 1);
  }
  for (uint32_t i : msgs) {
    const Message &m = t.messages[i];
    if (role[m.src] == 2) continue;
    role[m.src] = 1;
    uint32_t until = lastReceipt[m.src] ? lastReceipt[m.src] - 1 : m.sendPos;
    // The table is ordered by (src, sendPos): the sender's next sends follow.
    for (size_t j = size_t(i) + 1; j < t.messages.size(); j++) {
      const Message &n = t.messages[j];
      if (n.src != m.src || n.sendPos >= until) break;
      if (n.dst == m.dst && n.comm == m.comm) {
        role[m.src] = 2;
        break;
      }
    }
    for (size_t j = size_t(i); role[m.src] != 2 && j-- > 0;) {
      const Message &n = t.messages[j];
      if (n.src != m.src || activity.receivedBetween(m.src, n.sendPos, m.sendPos)) break;
      if (n.dst == m.dst && n.comm == m.comm) role[m.src] = 2;
    }
  }
  size_t senders = 0, repeaters = 0;
  for (uint8_t r : role) senders += r != 0, repeaters += r == 2;
  return senders != 0 && repeaters == senders;
}

// No side of the round can be tiled (tiled() wants a block for every other
// member from one sender, or from every other member at one receiver) and
// it is too small for a full exchange: nothing to find. Rings, trees and
// neighbour steps, most rounds, end here before they are grouped. counts:
// scratch of zeros per world rank, left zeroed.
bool tooSparse(const std::vector<Message> &table, const std::vector<uint32_t> &msgs, size_t p,
               std::vector<uint32_t> &counts) {
  if (p == 0 || msgs.size() >= p * (p - 1)) return false;
  const uint32_t need = uint32_t(std::max<size_t>(p - 1, 1));
  uint32_t most = 0;
  for (uint32_t i : msgs) {
    const Message &m = table[i];
    size_t top = std::max(m.src, m.dst) * size_t(2) + 2;
    if (counts.size() < top) counts.resize(top, 0);
    most = std::max({most, ++counts[size_t(m.src) * 2], ++counts[size_t(m.dst) * 2 + 1]});
  }
  for (uint32_t i : msgs) counts[size_t(table[i].src) * 2] = counts[size_t(table[i].dst) * 2 + 1] = 0;
  return most < need;
}

// The neighbour note (what settles the match) first, the layout after it.
void addNote(Instance &in, const std::string &more) {
  if (more.empty()) return;
  in.note = in.note.empty() ? more : in.note + "; " + more;
}

} // namespace

// The root's own block never travels: its slot is seen as the hole the
// other blocks leave. With the root between the first and the last member
// the hole lies inside the blocks, so the buffer spans it; with the root
// first or last it lies outside them, and nothing shows the buffer has it:
// a root that keeps no block, with rank q's block in slot q-1, gives the
// same messages. Unproven then, unless the root declared its block kept.
void markRootBlock(Instance &in, Kind kind, int rootPos, size_t p) {
  if (in.keptConfirmed || (rootPos > 0 && size_t(rootPos) + 1 < p)) return;
  in.unproven |= kRootBlock;
  bool first = rootPos == 0;
  std::string verb = kind == Kind::Gather ? "received" : "sent";
  in.note = "the root's own slot lies " + std::string(first ? "before" : "after") +
            " every block " + verb + " and is never seen: with one block per rank it holds the "
            "root's block, but a root that keeps none, with rank q's block " +
            (first ? "in slot q-1" : "in slot q") + ", looks the same";
}

namespace {

// One pass: messages numbered per (communicator, pair, block size, and the
// tag when byTag), so rounds of other exchanges between the same pairs do
// not mix in.
RoundKey tilingKey(const Message &m, bool byTag) {
  return RoundKey{m.comm, byTag ? m.tag : 0, m.bytes, 0};
}

void tilingPass(const MessageTable &t, const RankActivity &activity,
                const std::vector<uint32_t> &candidates, bool byTag, std::vector<uint8_t> &claimed,
                std::vector<Instance> &out) {
  std::vector<std::pair<uint32_t, uint32_t>> of;
  std::vector<uint32_t> sendFlat, recvFlat;
  std::vector<Side> sends, recvs;
  std::vector<uint32_t> counts;
  auto keyOf = [byTag](const Message &m) { return tilingKey(m, byTag); };
  // Only keys with a member that sends to (receives from) every other one
  // can hold a tiled side or a full exchange (rings and trees have none).
  std::vector<Round> rounds = pairRounds(t, withWideMembers(t, candidates, keyOf), keyOf);
  for (Round &round : rounds) {
    prefetchNextRound(t, rounds, round);
    const uint32_t comm = round.key.comm;
    const Group &g = *t.group(comm);
    size_t p = g.members.size();
    if (tooSparse(t.messages, round.messages, p, counts)) continue;
    groupBySide(t, round.messages, true, of, sendFlat, sends);
    groupBySide(t, round.messages, false, of, recvFlat, recvs);
    size_t sendTiled = 0, recvTiled = 0;
    for (Side &s : sends) sendTiled += s.tiled = tiled(t, g, s, true, s.base, s.n);
    for (Side &s : recvs) recvTiled += s.tiled = tiled(t, g, s, false, s.base, s.n);
    auto emit = [&](Kind kind, uint32_t root, const std::vector<const Side *> &sides,
                    uint64_t bytes) {
      Instance in;
      in.kind = kind;
      in.comm = comm;
      in.rootWorld = root;
      in.bytes = bytes;
      in.participants = g.members;
      in.direct = kind == Kind::Alltoall || kind == Kind::Allgather;
      std::sort(in.participants.begin(), in.participants.end());
      for (const Side *s : sides)
        for (uint32_t i : *s)
          if (!claimed[i]) claimed[i] = 1, in.messages.push_back(i);
      if (root != kNone && (kind == Kind::Scatter || kind == Kind::Gather)) {
        // The root's own block sits in the hole: declared kept?
        const Side *s = sides[0];
        uint64_t hole = s->base + uint64_t(rankIn(g, root)) * s->n;
        for (const KeptBuffer &kb : t.kept)
          if (kb.rank == root && kb.address == hole && kb.bytes == s->n) in.keptConfirmed = true;
        markRootBlock(in, kind, rankIn(g, root), p);
      }
      if (in.direct && severalPerPair(t, activity, in.messages)) {
        in.unproven |= kNeighbourhood;
        in.note = "every member sent each other member several messages within one exchange "
                  "(MPI_" + std::string(kind == Kind::Alltoall ? "Alltoall" : "Allgather") +
                  " sends one): a neighbour exchange with faces, edges or corners in which, at " +
                  std::to_string(p) + " ranks, every rank is every other's neighbour";
      }
      out.push_back(std::move(in));
    };
    // A receiver whose blocks happen to sit in rank order is no gather, and
    // a buffer in another order is no MPI_Alltoall or MPI_Allgather buffer,
    // when every member sent a block to every other one (full_exchange.cpp).
    // In rank order on every side, the layout readings below say the same.
    // Blocks received into one scratch place are left for later rules
    // (scratch_exchange.cpp): a Bruck exchange at three ranks looks so too.
    FullExchange full = fullExchange(t, g, round.messages);
    if (full.found && !full.recvScratch && !(full.recv == ReceiveLayout::RankOrder &&
                        (full.sameData || full.send == ReceiveLayout::RankOrder))) {
      std::vector<const Side *> all;
      for (const Side &s : recvs) all.push_back(&s);
      if (full.sameData) {
        emit(Kind::Allgather, kNone, all, round.key.bytes);
        out.back().recvLayout = layoutName(full.recv); // "" in rank order: nothing to say
        addNote(out.back(), layoutNote(full.recv));
      } else {
        emit(Kind::Alltoall, kNone, all, round.key.bytes * p);
        out.back().recvLayout = layoutName(full.recv);
        out.back().sendLayout =
            full.send == ReceiveLayout::NotObserved ? "scratch" : layoutName(full.send);
        addNote(out.back(), alltoallLayoutNote(full.send, full.recv));
      }
      continue;
    }
    if (sendTiled == p) {
      std::vector<const Side *> all;
      for (const Side &s : sends) all.push_back(&s);
      emit(Kind::Alltoall, kNone, all, sends.front().n * p);
      continue;
    }
    if (recvTiled == p) {
      bool sameData = true;
      std::vector<const Side *> all;
      for (const Side &s : sends) {
        for (uint32_t i : s)
          if (!t.messages[i].hashed || t.messages[i].crc != t.messages[*s.first].crc)
            sameData = false;
      }
      for (const Side &s : recvs) all.push_back(&s);
      emit(sameData ? Kind::Allgather : Kind::Alltoall, kNone, all,
           recvs.front().n * (sameData ? 1 : p));
      continue;
    }
    for (const Side &s : sends)
      if (s.tiled) emit(Kind::Scatter, s.rank, {&s}, s.n * p);
    for (const Side &s : recvs)
      if (s.tiled) emit(Kind::Gather, s.rank, {&s}, s.n * p);
  }
}

} // namespace

void findTilings(const MessageTable &t, const DetectOptions &o, const RankActivity &activity,
                 std::vector<uint8_t> &claimed, std::vector<Instance> &out) {
  std::vector<uint32_t> candidates;
  for (uint32_t i = 0; i < t.messages.size(); i++) {
    const Message &m = t.messages[i];
    if (claimed[i]) continue;
    const Group *g = t.group(m.comm);
    if (g && int(g->members.size()) >= o.minGroup) candidates.push_back(i);
  }
  tilingPass(t, activity, candidates, true, claimed, out);
  auto untagged = [](const Message &m) { return tilingKey(m, false); };
  tilingPass(t, activity, secondPass(t, candidates, claimed, untagged), false, claimed, out);
}

} // namespace cz::detect::detail
