// gathering.cpp: allgather and gather of any shape, from provenance.
//
// With every message decomposed into origin segments (provenance.h), an
// origin "arrives" at a rank when a message carries it there, at a known
// address. Then, per communicator G with members of equal block size n:
//   allgather   every member's own block arrives at every other member
//               (recursive doubling, Bruck-like concatenations, rings);
//   gather      at root r, every other member q's own block arrives at
//               base + rank(q)*n (binomial trees that concatenate blocks);
//   scatter     root r's buffer, block q at base + rank(q)*n, reaches every
//               other member q: in a message of its own or inside a larger
//               piece of r's buffer that q forwards parts of (binomial trees
//               send each child its subtree's run of blocks).
// Only messages no simpler analysis explained are looked at.
#include <algorithm>
#include <map>
#include <tuple>

#include "detect_internal.h"
#include "collectivize/provenance.h"
#include "receive_layout.h"

namespace cz::detect::detail {
namespace {

struct Arrival { // (32 bytes, no padding: one per segment of every message)
  uint32_t rank;    // where it arrived
  uint32_t message;
  uint64_t address; // of the origin's first byte there (if offset 0)
  uint64_t offset, bytes;
};

struct ArrivalLists {
  struct Run {
    const Arrival *first, *last;
    const Arrival *begin() const { return first; }
    const Arrival *end() const { return last; }
  };
  std::vector<Arrival> all;
  std::vector<uint64_t> start; // per origin, and one past the last
  Run operator[](uint32_t origin) const {
    return {all.data() + start[origin], all.data() + start[origin + 1]};
  }
};

} // namespace

// The root's own block: declared kept at its slot, or else unproven when
// the slot lies outside the blocks that travelled (markRootBlock).
static void checkRootBlock(const MessageTable &t, Instance &in, const Group &g, uint64_t base,
                           uint64_t n) {
  int pos = rankIn(g, in.rootWorld);
  uint64_t hole = base + uint64_t(pos) * n;
  for (const KeptBuffer &kb : t.kept)
    if (kb.rank == in.rootWorld && kb.address == hole && kb.bytes == n) in.keptConfirmed = true;
  markRootBlock(in, in.kind, pos, g.members.size());
}

void findGatherings(const MessageTable &t, const Provenance &pv, const DetectOptions &o,
                    std::vector<uint8_t> &claimed, std::vector<Instance> &out) {
  // Arrivals per origin (one flat array, grouped by origin, in message
  // order), and the communicator of the messages carrying it.
  ArrivalLists arrivals;
  arrivals.start.assign(pv.origins.size() + 1, 0);
  std::vector<uint32_t> originComm(pv.origins.size(), kNone);
  std::vector<uint8_t> usable(pv.origins.size(), 1);
  for (uint32_t i = 0; i < t.messages.size(); i++) {
    const Message &m = t.messages[i];
    for (const Segment &s : pv.segments[i]) {
      if (claimed[i]) usable[s.origin] = 0;
      uint32_t &c = originComm[s.origin];
      if (c == kNone) c = m.comm;
      else if (c != m.comm) usable[s.origin] = 0;
      arrivals.start[s.origin + 1]++;
    }
  }
  for (size_t k = 1; k < arrivals.start.size(); k++) arrivals.start[k] += arrivals.start[k - 1];
  arrivals.all.resize(arrivals.start.back());
  {
    std::vector<uint64_t> fill(arrivals.start.begin(), arrivals.start.end() - 1);
    for (uint32_t i = 0; i < t.messages.size(); i++) {
      const Message &m = t.messages[i];
      uint64_t at = 0;
      for (const Segment &s : pv.segments[i]) {
        arrivals.all[fill[s.origin]++] = {m.dst, i, m.recvAddress + at - s.offset, s.offset, s.bytes};
        at += s.bytes;
      }
    }
  }
  // Ranks an origin arrived at whole (its bytes covered there).
  // (One sorted vector, reused: a map and a set per origin were a large
  // part of the detector's time.)
  std::vector<std::tuple<uint32_t, uint64_t, uint64_t>> ranges; // (rank, from, to)
  std::vector<uint32_t> whole; // ascending (reused: one per origin cost a malloc each)
  auto wholeAt = [&](uint32_t id) -> const std::vector<uint32_t> & {
    ranges.clear();
    for (const Arrival &a : arrivals[id]) ranges.emplace_back(a.rank, a.offset, a.offset + a.bytes);
    std::sort(ranges.begin(), ranges.end());
    whole.clear();
    for (size_t k = 0; k < ranges.size();) {
      uint32_t rank = std::get<0>(ranges[k]);
      uint64_t covered = 0;
      for (; k < ranges.size() && std::get<0>(ranges[k]) == rank; k++)
        if (std::get<1>(ranges[k]) <= covered) covered = std::max(covered, std::get<2>(ranges[k]));
      if (covered >= pv.origins[id].bytes) whole.push_back(rank);
    }
    return whole;
  };

  // Per communicator: each member's own blocks that reached all others.
  std::map<std::pair<uint32_t, uint64_t>, std::map<uint32_t, std::vector<uint32_t>>> spread;
  // Per (comm, root, n, base): blocks of other members landing in place.
  std::map<std::tuple<uint32_t, uint32_t, uint64_t, uint64_t>, std::map<uint32_t, std::vector<uint32_t>>>
      landed;
  for (uint32_t id = 0; id < pv.origins.size(); id++) {
    const Origin &og = pv.origins[id];
    if (!usable[id] || originComm[id] == kNone || og.bytes == 0) continue;
    const Group *g = t.group(originComm[id]);
    if (!g || int(g->members.size()) < o.minGroup || rankIn(*g, og.rank) < 0) continue;
    wholeAt(id);
    size_t others = whole.size() - size_t(std::count(whole.begin(), whole.end(), og.rank));
    if (others + 1 == g->members.size())
      spread[{originComm[id], og.bytes}][og.rank].push_back(id);
    for (const Arrival &a : arrivals[id]) {
      if (a.offset != 0 || a.bytes != og.bytes || a.rank == og.rank) continue;
      int pos = rankIn(*g, og.rank);
      uint64_t shift = uint64_t(pos) * og.bytes;
      if (a.address < shift) continue;
      landed[{originComm[id], a.rank, og.bytes, a.address - shift}][og.rank].push_back(id);
    }
  }

  auto messagesOf = [&](const std::vector<uint32_t> &ids) { // ascending, once each
    std::vector<uint32_t> msgs;
    for (uint32_t id : ids)
      for (const Arrival &a : arrivals[id]) msgs.push_back(a.message);
    std::sort(msgs.begin(), msgs.end());
    msgs.erase(std::unique(msgs.begin(), msgs.end()), msgs.end());
    return msgs;
  };
  auto emit = [&](Kind kind, uint32_t comm, uint32_t root, uint64_t bytes,
                  const std::vector<uint32_t> &ids) {
    Instance in;
    in.kind = kind;
    in.comm = comm;
    in.rootWorld = root;
    in.bytes = bytes;
    // Elements per block: from a message that carried one block alone.
    for (uint32_t id : ids) {
      if (pv.origins[id].firstMessage == kNone) continue; // (carried before this window)
      const Message &first = t.messages[pv.origins[id].firstMessage];
      if (first.bytes == pv.origins[id].bytes) in.count = first.sendCount;
    }
    in.participants = t.group(comm)->members;
    std::sort(in.participants.begin(), in.participants.end());
    for (uint32_t i : messagesOf(ids))
      if (!claimed[i]) claimed[i] = 1, in.messages.push_back(i);
    if (!in.messages.empty()) out.push_back(std::move(in));
  };

  // Scatter: pieces of a root's own data (by its addresses) at each rank.
  // (comm, root) -> rank -> ranges of the root's buffer that arrived there.
  std::map<std::pair<uint32_t, uint32_t>, std::map<uint32_t, std::vector<std::pair<uint64_t, uint64_t>>>>
      pieces;
  std::map<std::pair<uint32_t, uint32_t>, std::vector<uint32_t>> pieceOrigins;
  for (uint32_t id = 0; id < pv.origins.size(); id++) {
    const Origin &og = pv.origins[id];
    if (!usable[id] || originComm[id] == kNone) continue;
    for (const Arrival &a : arrivals[id]) {
      if (a.rank == og.rank) continue;
      pieces[{originComm[id], og.rank}][a.rank].push_back({og.address + a.offset, a.bytes});
    }
    pieceOrigins[{originComm[id], og.rank}].push_back(id);
  }
  for (auto &[key, byRank] : pieces) {
    const Group *g = t.group(key.first);
    if (!g || int(g->members.size()) < o.minGroup || byRank.size() + 1 != g->members.size())
      continue;
    // Block size: the smallest piece a rank received (a leaf's block).
    uint64_t n = UINT64_MAX;
    for (auto &[q, v] : byRank)
      for (auto &pc : v) n = std::min(n, pc.second);
    if (n == 0 || n == UINT64_MAX) continue;
    // Candidate bases from the pieces that start a rank's block; count,
    // per base, the ranks whose block arrived whole (alone or inside).
    std::map<uint64_t, std::map<uint32_t, uint64_t>> byBase; // base -> rank -> times
    for (auto &[q, v] : byRank) {
      int pos = rankIn(*g, q);
      if (pos < 0) continue;
      for (auto &pc : v) {
        uint64_t shift = uint64_t(pos) * n;
        if (pc.first < shift) continue;
        byBase[pc.first - shift][q]++;
      }
    }
    for (auto &[base, times] : byBase) {
      if (times.size() + 1 != g->members.size()) continue;
      uint64_t instances = UINT64_MAX;
      for (auto &[q, c] : times) instances = std::min(instances, c);
      std::vector<uint32_t> ids = pieceOrigins[key];
      bool fresh = true;
      for (uint32_t i : messagesOf(ids)) fresh &= !claimed[i];
      if (!fresh) continue;
      size_t before = out.size();
      emit(Kind::Scatter, key.first, key.second, n * g->members.size(), ids);
      if (out.size() > before) {
        Instance &in = out.back();
        in.repeats = instances; // one instance object for all repetitions
        for (uint32_t i : in.messages)
          if (t.messages[i].bytes == n) in.count = t.messages[i].sendCount;
        checkRootBlock(t, in, *g, base, n);
      }
      break;
    }
  }

  for (auto &[key, byMember] : spread) {
    const Group &g = *t.group(key.first);
    if (byMember.size() != g.members.size()) continue;
    size_t rounds = SIZE_MAX;
    for (auto &[w, ids] : byMember) rounds = std::min(rounds, ids.size());
    for (size_t k = 0; k < rounds; k++) {
      std::vector<uint32_t> ids;
      for (auto &[w, v] : byMember) ids.push_back(v[k]);
      size_t before = out.size();
      emit(Kind::Allgather, key.first, kNone, key.second, ids);
      if (out.size() == before) continue;
      // Bruck's allgather keeps the blocks in distance order: say so, so
      // that its buffer is not taken for MPI_Allgather's.
      std::vector<ReceivedBlock> blocks;
      for (uint32_t id : ids) {
        const uint32_t owner = pv.origins[id].rank;
        for (const Arrival &a : arrivals[id])
          if (a.rank != owner) blocks.push_back({a.rank, owner, a.address});
      }
      ReceiveLayout layout = receiveLayout(g, std::move(blocks), key.second);
      if (!layoutName(layout).empty()) {
        out.back().recvLayout = layoutName(layout);
        out.back().note = layoutNote(layout);
      }
    }
  }
  for (auto &[key, byMember] : landed) {
    const Group &g = *t.group(std::get<0>(key));
    if (byMember.size() + 1 != g.members.size()) continue;
    size_t rounds = SIZE_MAX;
    for (auto &[w, ids] : byMember) rounds = std::min(rounds, ids.size());
    for (size_t k = 0; k < rounds; k++) {
      std::vector<uint32_t> ids;
      for (auto &[w, v] : byMember) ids.push_back(v[k]);
      bool fresh = true; // an allgather above may have taken these messages
      for (uint32_t i : messagesOf(ids)) fresh &= !claimed[i];
      if (!fresh) continue;
      size_t before = out.size();
      emit(Kind::Gather, std::get<0>(key), std::get<1>(key), std::get<2>(key) * g.members.size(),
           ids);
      if (out.size() > before) checkRootBlock(t, out.back(), g, std::get<3>(key), std::get<2>(key));
    }
  }
}

} // namespace cz::detect::detail
