// reduce_scatter_halving.cpp: the recursive-halving reduce-scatter.
//
// P = 2^L members, each with a vector of P blocks of n bytes. In round j
// (j = 0..L-1) a member exchanges with partner rank ^ m_j (the masks m_j
// distinct powers of two, in one order for all): of the range of blocks it
// still works on it sends one half, the half the partner keeps, and
// combines the other half with what arrives. After L rounds its range is
// one block: the block it ends with. What the trace proves, per member, for
// one instance (L consecutive sends on one communicator and datatype):
//   - the blocks: send j carries n * P / 2^(j+1) bytes to rank ^ m_j, from
//     one half of the range left after the sends before it (the ranges
//     nest, so the sends tile P blocks with one hole: the block kept), and
//     the partner's send j is the other half, at the same offset of the
//     partner's buffer (each member receives exactly the half it keeps);
//   - the combine: every send after the first leaves after the previous
//     round's block arrived, and the provenance replay finds in it no byte
//     the member received (new data of the member, not a forward).
// With both, the instance is a confirmed reduce_scatter. As in any
// reduction the values never show the operation (each message combines a
// half of the member's own that no message carries): `op` stays unknown,
// for the source to settle. Payloads that are a constant fill show no
// combining at all: ambiguous (kPayloadFill). The kept block should be
// the member's rank (MPI_Reduce_scatter_block's order: masks from P/2
// down); another gives recv_layout "permuted" (masks from 1 up keep the
// bit-reversed block). Two members make one swap, which shows nothing
// (two_ranks is for the rules that report groups of two): P >= 4 only.
//
// Rabenseifner's allreduce follows the halving with recursive doubling:
// L more rounds with the same partners in reverse order, each member
// sending the range it kept in that round (first its finished block) and
// receiving the partner's at the same offset, passing on what arrived.
// Then the 2L rounds are one allreduce (op unknown, confirmed on the same
// proof), and the halving is not reported on its own.
#include <algorithm>
#include <map>
#include <optional>

#include "detect_internal.h"
#include "payload_strength.h"

namespace cz::detect::detail {
namespace {

struct Key {
  uint32_t comm, type;
  bool operator<(const Key &o) const { return comm != o.comm ? comm < o.comm : type < o.type; }
};

// One member's L sends of an instance, read as nested halves.
struct Halving {
  size_t firstSend = 0;           // index into the member's sends
  std::vector<uint32_t> masks;    // partner = rank ^ masks[j]
  std::vector<uint64_t> keptFrom; // offset (from the buffer's base) of the half kept in round j
  uint64_t base = 0;
  uint64_t hole = 0; // the block kept at the end, in blocks from the base
};

size_t log2Exact(size_t p) {
  size_t l = 0;
  while ((size_t(1) << l) < p) l++;
  return (size_t(1) << l) == p ? l : 0;
}

// Each send half the size of the one before (what nestedHalves asks
// first, without building anything): most windows of most traces fail
// here, and building a Halving for each (four allocations) was 190 M of
// the rule's 234 M instructions on the bench trace.
bool halvingSizes(const MessageTable &t, const std::vector<uint32_t> &sends, size_t from, size_t l) {
  uint64_t size = t.messages[sends[from]].bytes;
  for (size_t j = 1; j < l; j++) {
    size /= 2;
    if (size == 0 || t.messages[sends[from + j]].bytes != size) return false;
  }
  return true;
}

// Send addresses and sizes that nest: send j is one half of the range the
// sends before it left. The range left after send 0 lies on either side of
// it; send 1 (inside it) tells which.
std::optional<Halving> nestedHalves(const MessageTable &t, const std::vector<uint32_t> &sends, size_t from,
                                    size_t l) {
  Halving h;
  h.firstSend = from;
  const Message &first = t.messages[sends[from]];
  uint64_t b0 = first.bytes;
  for (uint64_t leftAt : {first.sendAddress + b0, first.sendAddress - b0}) {
    uint64_t left = leftAt, size = b0;
    std::vector<uint64_t> kept{left};
    bool ok = true;
    for (size_t j = 1; j < l && ok; j++) {
      const Message &m = t.messages[sends[from + j]];
      size /= 2;
      if (m.bytes != size || size == 0) ok = false;
      else if (m.sendAddress == left) left += size;
      else if (m.sendAddress != left + size) ok = false;
      kept.push_back(left);
    }
    if (!ok) continue;
    h.base = std::min(first.sendAddress, leftAt);
    for (uint64_t &k : kept) k -= h.base;
    h.keptFrom = kept;
    h.masks.assign(l, 0);
    h.hole = (left - h.base) / size;
    return h;
  }
  return std::nullopt;
}

class HalvingFinder {
public:
  HalvingFinder(const MessageTable &t, const Provenance &pv, std::vector<uint8_t> &claimed,
                std::vector<Instance> &out)
      : t(t), pv(pv), claimed(claimed), out(out) {}

  // sends[r]: member r's sends of one key, in its order (comm ranks as dst).
  void run(const Key &key, const std::vector<std::vector<uint32_t>> &sends) {
    const Group &g = *t.group(key.comm);
    size_t p = sends.size(), l = log2Exact(p);
    if (p < 4 || l == 0) return;
    std::vector<size_t> next(p, 0);
    for (;;) {
      std::vector<Halving> inst(p);
      bool any = false, all = true;
      for (size_t r = 0; r < p; r++) {
        std::optional<Halving> h;
        for (size_t s = next[r]; !h && s + l <= sends[r].size(); s++) h = windowAt(g, sends[r], s, r, l);
        if (!h) all = false;
        else inst[r] = *h, any = true;
      }
      if (!all || !any) return;
      for (size_t r = 0; r < p; r++) next[r] = inst[r].firstSend + 1;
      if (!consistent(g, sends, inst, l)) continue;
      size_t steps = doublingFollows(g, sends, inst, l) ? 2 * l : l;
      emit(key, g, sends, inst, l, steps);
      for (size_t r = 0; r < p; r++) next[r] = inst[r].firstSend + steps;
    }
  }

private:
  const MessageTable &t;
  const Provenance &pv;
  std::vector<uint8_t> &claimed;
  std::vector<Instance> &out;
  PayloadStrength strength;

  std::optional<Halving> windowAt(const Group &g, const std::vector<uint32_t> &sends, size_t s, size_t r,
                                  size_t l) {
    for (size_t j = 0; j < l; j++)
      if (claimed[sends[s + j]]) return std::nullopt;
    if (!halvingSizes(t, sends, s, l)) return std::nullopt;
    std::optional<Halving> h = nestedHalves(t, sends, s, l);
    if (!h) return std::nullopt;
    uint32_t seen = 0;
    for (size_t j = 0; j < l; j++) {
      int q = rankIn(g, t.messages[sends[s + j]].dst);
      uint32_t mask = uint32_t(size_t(q) ^ r);
      if (q < 0 || mask == 0 || (mask & (mask - 1)) || (seen & mask)) return std::nullopt;
      seen |= mask;
      h->masks[j] = mask;
    }
    return h;
  }

  // One mask order for all; each member's partner in round j sent it the
  // half it keeps (same offset from the partner's base), and the member's
  // next send left after that half arrived and is no forward of it.
  bool consistent(const Group &g, const std::vector<std::vector<uint32_t>> &sends,
                  const std::vector<Halving> &inst, size_t l) {
    size_t p = sends.size();
    for (size_t r = 0; r < p; r++) {
      const Halving &h = inst[r];
      if (h.masks != inst[0].masks) return false;
      if (t.messages[sends[r][h.firstSend]].bytes != t.messages[sends[0][inst[0].firstSend]].bytes) return false;
      for (size_t j = 0; j < l; j++) {
        size_t q = r ^ h.masks[j];
        const Halving &hq = inst[q];
        const Message &in = t.messages[sends[q][hq.firstSend + j]];
        if (rankIn(g, in.dst) != int(r)) return false;
        if (in.sendAddress - hq.base != h.keptFrom[j]) return false; // not the half r keeps
        if (j + 1 == l) continue;
        uint32_t nextSend = sends[r][h.firstSend + j + 1];
        if (t.messages[nextSend].sendPos < in.recvPos) return false; // sent before the half arrived
        if (forwardsReceivedBytes(nextSend)) return false;
      }
    }
    return true;
  }

  // The next L sends of every member undo the halving (recursive
  // doubling): send k carries the range the member kept in round L-1-k
  // (first its finished block) to the same partner, the partner's range
  // lands at the same offset of the member's buffer as it left the
  // partner's, and every send after the first leaves after the previous
  // range arrived and passes it on (the replay finds its bytes): every
  // member ends with every finished block in place, an allreduce
  // (Rabenseifner's), and the halving is not reported on its own.
  bool doublingFollows(const Group &g, const std::vector<std::vector<uint32_t>> &sends,
                       const std::vector<Halving> &inst, size_t l) {
    size_t p = sends.size();
    for (size_t r = 0; r < p; r++)
      if (inst[r].firstSend + 2 * l > sends[r].size()) return false;
    for (size_t r = 0; r < p; r++) {
      const Halving &h = inst[r];
      for (size_t k = 0; k < l; k++) {
        uint32_t i = sends[r][h.firstSend + l + k];
        const Message &m = t.messages[i];
        size_t j = l - 1 - k, q = r ^ h.masks[j];
        const Halving &hq = inst[q];
        const Message &in = t.messages[sends[q][hq.firstSend + l + k]];
        if (claimed[i] || rankIn(g, m.dst) != int(q) || m.sendAddress - h.base != h.keptFrom[j]) return false;
        if (rankIn(g, in.dst) != int(r) || in.recvAddress - h.base != hq.keptFrom[j]) return false;
        if (k == 0) continue;
        const Message &before = t.messages[sends[q][hq.firstSend + l + k - 1]];
        if (m.sendPos < before.recvPos || !forwardsReceivedBytes(i)) return false;
      }
    }
    return true;
  }

  // The replay found bytes of another rank's origin in the message: it
  // passes on what arrived instead of combining it.
  bool forwardsReceivedBytes(uint32_t msg) const {
    CarriedOrigins c = carriedOrigins(t, pv, msg);
    return !c.replayed || c.others;
  }

  void emit(const Key &key, const Group &g, const std::vector<std::vector<uint32_t>> &sends,
            const std::vector<Halving> &inst, size_t l, size_t steps) {
    size_t p = sends.size();
    bool allreduce = steps > l;
    Instance in;
    in.kind = allreduce ? Kind::Allreduce : Kind::ReduceScatter;
    in.comm = key.comm;
    in.participants = g.members;
    std::sort(in.participants.begin(), in.participants.end());
    bool fill = false, rankOrder = true;
    for (size_t r = 0; r < p; r++) {
      rankOrder &= inst[r].hole == r;
      for (size_t j = 0; j < steps; j++) {
        uint32_t i = sends[r][inst[r].firstSend + j];
        in.messages.push_back(i);
        claimed[i] = 1;
        fill |= strength.of(t.messages[i]) == Strength::Fill;
      }
    }
    std::sort(in.messages.begin(), in.messages.end());
    const Message &last = t.messages[sends[0][inst[0].firstSend + l - 1]];
    in.bytes = last.bytes;
    in.count = last.sendCount;
    in.oneTag = std::all_of(in.messages.begin(), in.messages.end(),
                            [&](uint32_t i) { return t.messages[i].tag == last.tag; });
    if (allreduce) {
      in.bytes = last.bytes * p;
      in.count = uint64_t(last.sendCount) * p;
      in.note = "recursive halving then recursive doubling (Rabenseifner): each member's halves, sent to "
                "its partner rank ^ mask, nest down to one block of " + std::to_string(last.bytes) +
                " bytes, each later half carrying none of the bytes received (combined, not forwarded); "
                "the finished blocks then travel back up the same partners unchanged, each landing at its "
                "place: every member ends with every block combined; the values do not show the "
                "operation";
    } else {
      if (!rankOrder) in.recvLayout = "permuted";
      in.note = "recursive halving: in each of log2 P rounds every member sent its partner the half of "
                "its remaining range that the partner keeps and received the other half, the halves "
                "nesting down to one block of " + std::to_string(last.bytes) + " bytes kept " +
                (rankOrder ? "at its rank's position" : "at another position than its rank's (not "
                                                        "MPI_Reduce_scatter_block's order)") +
                "; each later half left after the previous one arrived and carries none of the bytes "
                "received (combined, not forwarded); the values do not show the operation";
    }
    if (fill) {
      in.unproven |= kPayloadFill;
      in.note += "; the payloads are a constant fill, which shows no combining";
    }
    out.push_back(std::move(in));
  }
};

} // namespace

void findHalvingReduceScatters(const MessageTable &t, const Provenance &pv,
                               const std::vector<uint32_t> &usable, std::vector<uint8_t> &claimed,
                               std::vector<Instance> &out) {
  std::map<Key, std::vector<std::vector<uint32_t>>> byKey;
  for (uint32_t i : hashedCandidates(usable, claimed)) {
    const Message &m = t.messages[i];
    const Group &g = *t.group(m.comm);
    int a = rankIn(g, m.src);
    if (a < 0 || rankIn(g, m.dst) < 0) continue;
    std::vector<std::vector<uint32_t>> &sends = byKey[{m.comm, m.sendType}];
    sends.resize(g.members.size());
    sends[size_t(a)].push_back(i); // table order: the sender's order
  }
  HalvingFinder finder(t, pv, claimed, out);
  for (auto &[key, sends] : byKey) finder.run(key, sends);
}

} // namespace cz::detect::detail
