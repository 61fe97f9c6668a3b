// reduce_scatter.cpp: the ring reduce-scatter, and the ring allreduce
// that is a ring reduce-scatter followed by a ring allgather of its
// blocks.
//
// In a ring reduce-scatter each member holds a vector of P blocks; in
// step j = 0..P-2 it sends one block of its partial results to its
// successor and combines the block arriving from its predecessor into
// the block it sends next. The block it never sends is the one it ends
// with: every member's corresponding block combined. What the trace
// proves, per member, for one instance (P-1 consecutive messages of one
// size and datatype to one successor, the successors forming one cycle):
//   - its sends leave from P-1 distinct places of one buffer, n bytes
//     apart, which tile P blocks with one hole: the block it keeps;
//   - every send after the first leaves after the previous block arrived
//     and carries other bytes than it (combined, not forwarded);
//   - after its last receipt it has heard from every member.
// The kept block should be the member's rank (MPI_Reduce_scatter_block
// leaves block i at rank i); a hole at another position is reported as
// recv_layout "permuted". A hole at either end of the sent places (rank 0
// or P-1 keeping the first or last block) is consistent with both ends;
// it is taken as the rank's own when that rank is 0 or P-1.
//
// Values never pin the operation: each message combines the sender's own
// block, which no message carries. The op stays unknown (kReductionOp:
// ambiguous), as in the other reductions, for the source to settle.
// Constant payloads (all zeros) cannot show combining: kPayloadFill.
//
// The ring allreduce's second half forwards each member's finished block
// around the ring unchanged (send j+1 carries the bytes of receipt j, the
// first send carries the block the member kept): when P-1 such steps
// follow a reduce-scatter, the 2(P-1) steps are one allreduce, and the
// first half is not reported on its own.
#include <algorithm>
#include <map>
#include <tuple>

#include "detect_internal.h"
#include "heard_from.h"
#include "payload_strength.h"

namespace cz::detect::detail {
namespace {

// One member's messages of one key: sends to its successor and receipts
// from its predecessor, each in its own order.
struct RingMember {
  std::vector<uint32_t> sends, receipts;
};

struct RingKey {
  uint32_t comm;
  uint64_t bytes;
  uint32_t type;
  bool operator<(const RingKey &o) const {
    return std::tie(comm, bytes, type) < std::tie(o.comm, o.bytes, o.type);
  }
};

// The members' successors form one cycle over the group: each member
// sends only to one member and receives only from the one that sends to
// it, the same number of messages everywhere.
bool oneCycle(const MessageTable &t, const Group &g, const std::vector<RingMember> &ring,
              std::vector<size_t> &succ) {
  size_t p = ring.size();
  succ.assign(p, p);
  size_t n = ring[0].sends.size();
  for (size_t r = 0; r < p; r++) {
    if (ring[r].sends.size() != n || ring[r].receipts.size() != n || n == 0) return false;
    for (uint32_t i : ring[r].sends) {
      size_t to = size_t(rankIn(g, t.messages[i].dst));
      if (succ[r] != p && succ[r] != to) return false;
      succ[r] = to;
    }
  }
  std::vector<uint8_t> seen(p, 0);
  size_t at = 0;
  for (size_t k = 0; k < p; k++) {
    if (seen[at] || succ[at] == at) return false;
    seen[at] = 1;
    at = succ[at];
  }
  return at == 0;
}

// The block a member keeps: the hole its P-1 send places leave in a
// buffer of P blocks of n bytes; -1 when the places tile no such buffer,
// -2 when the hole is at either end (the first or last block).
int keptBlock(const MessageTable &t, const std::vector<uint32_t> &sends, size_t from, size_t p) {
  uint64_t n = t.messages[sends[from]].bytes;
  std::vector<uint64_t> at;
  for (size_t j = 0; j + 1 < p; j++) at.push_back(t.messages[sends[from + j]].sendAddress);
  std::sort(at.begin(), at.end());
  for (size_t j = 1; j < at.size(); j++)
    if (at[j] == at[j - 1] || (at[j] - at[0]) % n) return -1;
  uint64_t span = (at.back() - at[0]) / n + 1;
  if (span == p - 1) return -2;
  if (span != p) return -1;
  for (size_t j = 1; j < at.size(); j++)
    if (at[j] != at[0] + j * n) return int(j); // the first place past the hole
  return -1;
}

enum class Hop { Combined, Forwarded, Fill };

// Send j+1 of a member against its receipt j: combined (other bytes),
// forwarded (the same bytes), or a fill that tells neither.
Hop stepAfter(const MessageTable &t, PayloadStrength &strength, uint32_t receipt, uint32_t send) {
  const Message &in = t.messages[receipt], &out = t.messages[send];
  if (strength.of(in) == Strength::Fill && strength.of(out) == Strength::Fill) return Hop::Fill;
  return in.crc == out.crc ? Hop::Forwarded : Hop::Combined;
}

class RingFinder {
public:
  RingFinder(const MessageTable &t, std::vector<uint8_t> &claimed, std::vector<Instance> &out)
      : t(t), claimed(claimed), out(out) {}

  // ring: each member's receipts in table order; sorted here by arrival
  // when the members form one cycle (most keys do not: not sorted at all).
  void run(const RingKey &key, std::vector<RingMember> &ring) {
    const Group &g = *t.group(key.comm);
    size_t p = ring.size();
    if (!oneCycle(t, g, ring, succ)) return;
    for (RingMember &m : ring)
      std::sort(m.receipts.begin(), m.receipts.end(), [&](uint32_t x, uint32_t y) {
        return t.messages[x].recvPos < t.messages[y].recvPos;
      });
    size_t n = ring[0].sends.size();
    for (size_t from = 0; from + (p - 1) <= n;) {
      Evidence e;
      if (!reduceScatterAt(ring, from, e)) {
        from++;
        continue;
      }
      bool all = from + 2 * (p - 1) <= n && allgatherAt(ring, from + (p - 1));
      emit(key, g, ring, from, all ? 2 * (p - 1) : p - 1, all, e);
      from += all ? 2 * (p - 1) : p - 1;
    }
  }

private:
  const MessageTable &t;
  std::vector<uint8_t> &claimed;
  std::vector<Instance> &out;
  std::vector<size_t> succ;
  PayloadStrength strength;

  struct Evidence {
    bool fill = false;
    std::vector<int> kept; // per member: its hole, -2 at either end
  };

  bool reduceScatterAt(const std::vector<RingMember> &ring, size_t from, Evidence &e) {
    size_t p = ring.size();
    e.kept.assign(p, -1);
    for (size_t r = 0; r < p; r++) {
      const RingMember &m = ring[r];
      int kept = keptBlock(t, m.sends, from, p);
      if (kept == -1) return false;
      e.kept[r] = kept;
      for (size_t j = 0; j + 1 < p; j++) {
        if (claimed[m.sends[from + j]]) return false;
        if (j == 0) continue;
        const Message &send = t.messages[m.sends[from + j]], &before = t.messages[m.receipts[from + j - 1]];
        if (send.sendPos < before.recvPos) return false; // sent before the block it combines arrived
        Hop s = stepAfter(t, strength, m.receipts[from + j - 1], m.sends[from + j]);
        if (s == Hop::Forwarded) return false;
        e.fill |= s == Hop::Fill;
      }
    }
    // Every member heard from every member by its last receipt.
    std::vector<uint32_t> msgs = messagesOf(ring, from, p - 1);
    HeardFrom heard(p, msgs);
    for (const Step &s : timeOrder(t, msgs)) {
      const Message &m = t.messages[s.msg];
      const Group &g = *t.group(m.comm);
      if (s.isSend) heard.send(s.msg, size_t(rankIn(g, m.src)));
      else heard.receive(s.msg, size_t(rankIn(g, m.dst)));
    }
    for (size_t r = 0; r < p; r++)
      if (!heard.heardAll(r)) return false;
    return true;
  }

  // P-1 steps from `from` forward every finished block around the ring:
  // each member's first send is a block of its own making (no receipt of
  // these steps carried it) and each later send carries the previous
  // receipt's bytes.
  bool allgatherAt(const std::vector<RingMember> &ring, size_t from) {
    size_t p = ring.size();
    for (size_t r = 0; r < p; r++) {
      const RingMember &m = ring[r];
      for (size_t j = 0; j + 1 < p; j++) {
        if (claimed[m.sends[from + j]]) return false;
        if (j == 0) continue;
        if (t.messages[m.sends[from + j]].sendPos < t.messages[m.receipts[from + j - 1]].recvPos) return false;
        if (stepAfter(t, strength, m.receipts[from + j - 1], m.sends[from + j]) != Hop::Forwarded) return false;
      }
    }
    return true;
  }

  static std::vector<uint32_t> messagesOf(const std::vector<RingMember> &ring, size_t from, size_t steps) {
    std::vector<uint32_t> msgs;
    for (const RingMember &m : ring)
      for (size_t j = 0; j < steps; j++) msgs.push_back(m.sends[from + j]);
    std::sort(msgs.begin(), msgs.end());
    return msgs;
  }

  void emit(const RingKey &key, const Group &g, const std::vector<RingMember> &ring, size_t from,
            size_t steps, bool allreduce, const Evidence &e) {
    size_t p = ring.size();
    Instance in;
    in.kind = allreduce ? Kind::Allreduce : Kind::ReduceScatter;
    in.comm = key.comm;
    in.participants = g.members;
    std::sort(in.participants.begin(), in.participants.end());
    in.messages = messagesOf(ring, from, steps);
    for (uint32_t i : in.messages) claimed[i] = 1;
    const Message &first = t.messages[in.messages[0]];
    in.count = first.sendCount;
    in.unproven |= kReductionOp;
    if (e.fill) in.unproven |= kPayloadFill;
    if (allreduce) {
      in.bytes = key.bytes * p;
      in.count = uint64_t(first.sendCount) * p;
      in.note = "a ring reduce-scatter (each member sends P-1 blocks of " + std::to_string(key.bytes) +
                " bytes of partial results, keeping one) followed by a ring allgather of the finished "
                "blocks: every member ends with every block combined; the values do not show the "
                "operation (each message combines a block of the sender's own that no message carries)";
    } else {
      in.bytes = key.bytes;
      bool rankOrder = true;
      for (size_t r = 0; r < p; r++)
        if (!(e.kept[r] == int(r) || (e.kept[r] == -2 && (r == 0 || r + 1 == p)))) rankOrder = false;
      if (!rankOrder) in.recvLayout = "permuted";
      in.note = std::string("each member sent P-1 blocks of ") + std::to_string(key.bytes) +
                " bytes from one buffer of P, each after the previous block arrived" +
                (e.fill ? "" : " and carrying other bytes (combined, not forwarded)") + ", and kept the block " +
                (rankOrder ? "at its rank's position" : "at another position than its rank's (not "
                                                        "MPI_Reduce_scatter_block's order)") +
                "; the values do not show the operation (each message combines a block of the sender's "
                "own that no message carries)";
    }
    if (e.fill) in.note += "; the payloads are a constant fill, which shows no combining";
    out.push_back(std::move(in));
  }
};

} // namespace

void findReduceScatters(const MessageTable &t, const std::vector<uint32_t> &usable,
                        std::vector<uint8_t> &claimed, std::vector<Instance> &out) {
  std::map<RingKey, std::vector<RingMember>> rings;
  std::vector<RingMember> *ring = nullptr; // the last message's (keys come in runs)
  const Group *g = nullptr;
  RingKey last{};
  for (uint32_t i : hashedCandidates(usable, claimed)) {
    const Message &m = t.messages[i];
    RingKey key{m.comm, m.bytes, m.sendType};
    if (!ring || last < key || key < last) {
      ring = &rings[key], g = t.group(m.comm), last = key;
      ring->resize(g->members.size());
    }
    int a = rankIn(*g, m.src), b = rankIn(*g, m.dst);
    if (a < 0 || b < 0) continue;
    (*ring)[size_t(a)].sends.push_back(i); // table order: the sender's order
    (*ring)[size_t(b)].receipts.push_back(i);
  }
  RingFinder finder(t, claimed, out);
  for (auto &[key, members] : rings) finder.run(key, members);
}

} // namespace cz::detect::detail
