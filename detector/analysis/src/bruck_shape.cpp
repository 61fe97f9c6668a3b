// bruck_shape.cpp: exchanges shaped like Bruck's alltoall, reported as
// partial alltoalls.
//
// Bruck's alltoall on P processes runs L = ceil(log2 P) steps; in step k
// process p sends to p+2^k and receives from p-2^k (mod P; or the other
// way round, as MPICH writes it: to p-2^k, from p+2^k) the blocks
// whose index has bit k set, c_k = |{i < P : i & 2^k}| blocks of n bytes,
// packed into one message, and sends in step k after it received in step
// k-1 (it forwards blocks it received). Packing copies the blocks into a
// scratch buffer at every hop, so their addresses say nothing, and a
// message's CRC is known only as a whole: P*L message CRCs cannot
// determine the P^2 block CRCs, so the post-condition (p's distinct blocks
// each end at their own destination q) cannot be proven from them.
//
// What is checked, per instance (the k-th message of each pair, with one
// communicator, tag and datatype): every member sends exactly L messages,
// step k to p+2^k, and receives exactly L, step k from p-2^k (or the
// mirror image: every step the other way); the sizes are c_k * n for one
// n; step k is sent after step k-1 was received; no member sends the same
// payload twice or passes on a payload it received whole (step k's
// message always holds block 2^k, which no earlier message held; Bruck's
// allgather, which sends its own block again, has the same shape on 3
// processes). That is reported as a partial alltoall with the reason and
// the block size n to trace with (COLLECTIVIZE_TRACE_BLOCK_BYTES=n), which
// lets block_flows.cpp follow every block and confirm it. When P is a
// power of two every c_k is P/2 and an allreduce along the same
// dissemination pattern (each process sending its partial result) has the
// same shape: the note says so. Runs after block_flows.cpp, which confirms what it can;
// when the trace has block CRCs of size n and no message forwards a block
// its sender received in an earlier step, the data was combined, not
// forwarded: not an alltoall, and the messages are left to reductions.
#include <algorithm>
#include <string>

#include "collectivize_trace_format.h"
#include "detect_internal.h"

namespace cz::detect::detail {
namespace {

// Blocks Bruck's step k moves on P processes.
uint64_t blocksAtStep(size_t p, int k) {
  uint64_t c = 0;
  for (size_t i = 0; i < p; i++) c += (i >> k) & 1;
  return c;
}

// The block size n if the round's messages are one Bruck instance whose
// step k goes to p + dir*2^k (dir 1 or -1), else 0.
uint64_t bruckBlock(const MessageTable &t, const Group &g, const std::vector<uint32_t> &msgs,
                    int dir) {
  const size_t p = g.members.size();
  int steps = 0;
  while ((size_t(1) << steps) < p) steps++;
  if (msgs.size() != p * size_t(steps)) return 0;
  // sent[a][k], received[a][k]: the message of member a's step k.
  std::vector<std::vector<uint32_t>> sent(p, std::vector<uint32_t>(size_t(steps), kNone)),
      received = sent;
  uint64_t n = 0;
  for (uint32_t i : msgs) {
    const Message &m = t.messages[i];
    int a = rankIn(g, m.src), b = rankIn(g, m.dst);
    if (a < 0 || b < 0 || !m.hashed || m.bytes == 0) return 0;
    int k = 0;
    auto to = [&](int step) {
      size_t d = (size_t(1) << step) % p;
      return dir > 0 ? (size_t(a) + d) % p : (size_t(a) + p - d) % p;
    };
    while (k < steps && to(k) != size_t(b)) k++;
    if (k == steps || sent[size_t(a)][size_t(k)] != kNone) return 0;
    sent[size_t(a)][size_t(k)] = received[size_t(b)][size_t(k)] = i;
    uint64_t c = blocksAtStep(p, k);
    if (m.bytes % c) return 0;
    if (!n) n = m.bytes / c;
    if (m.bytes != c * n) return 0;
  }
  // Every slot is filled (msgs.size() == p * steps, no slot twice); each
  // step leaves after the previous one arrived; no payload is sent twice
  // or sent on whole.
  for (size_t a = 0; a < p; a++) {
    for (int k = 1; k < steps; k++)
      if (t.messages[received[a][size_t(k - 1)]].recvPos >= t.messages[sent[a][size_t(k)]].sendPos)
        return 0;
    for (int k = 0; k < steps; k++) {
      const Message &s = t.messages[sent[a][size_t(k)]];
      for (int j = 0; j < steps; j++) {
        const Message &o = t.messages[sent[a][size_t(j)]], &r = t.messages[received[a][size_t(j)]];
        if ((j != k && o.crc == s.crc && o.bytes == s.bytes) ||
            (j < k && r.crc == s.crc && r.bytes == s.bytes))
          return 0;
      }
    }
  }
  return n;
}

// With block CRCs of size n: does some member send, in a step, a block it
// received in an earlier step of the instance?
bool forwardsBlocks(const MessageTable &t, const Group &g, const std::vector<uint32_t> &msgs) {
  const BlockCrcs &bc = t.blocks;
  std::vector<uint32_t> order = msgs; // per member in event order
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    return t.messages[a].sendTime < t.messages[b].sendTime;
  });
  auto blocks = [&](uint32_t i) {
    if (!bc.has(i)) return std::vector<uint32_t>{t.messages[i].crc};
    return std::vector<uint32_t>(bc.crcs.begin() + int64_t(bc.first[i]),
                                 bc.crcs.begin() + int64_t(bc.first[i] + bc.count[i]));
  };
  for (uint32_t member : g.members) {
    std::vector<uint32_t> got; // CRCs of the blocks member received so far
    std::vector<std::pair<uint32_t, bool>> events; // (position, is a send) of member's messages
    std::vector<uint32_t> ofEvent;
    for (uint32_t i : order) {
      const Message &m = t.messages[i];
      if (m.src == member) events.push_back({m.sendPos, true}), ofEvent.push_back(i);
      if (m.dst == member) events.push_back({m.recvPos, false}), ofEvent.push_back(i);
    }
    std::vector<size_t> idx(events.size());
    for (size_t k = 0; k < idx.size(); k++) idx[k] = k;
    std::sort(idx.begin(), idx.end(), [&](size_t a, size_t b) { return events[a].first < events[b].first; });
    for (size_t k : idx) {
      std::vector<uint32_t> b = blocks(ofEvent[k]);
      if (!events[k].second) {
        got.insert(got.end(), b.begin(), b.end());
        continue;
      }
      for (uint32_t c : b)
        if (std::find(got.begin(), got.end(), c) != got.end()) return true;
    }
  }
  return false;
}

// The candidates on communicators where some round could be Bruck-shaped:
// in one direction, every member sends some candidate to each of its step
// partners p + dir*2^k (a round fills every such slot with one of its
// messages, bruckBlock). Where a partner is never sent to, no round can
// fill the slot, and the communicator's messages are not numbered into
// rounds at all: that numbering was most of this rule's time on traces
// without any Bruck exchange.
std::vector<uint32_t> possiblyBruck(const MessageTable &t, const std::vector<uint32_t> &candidates) {
  struct Slots {
    uint32_t comm = 0;
    const Group *g = nullptr;
    size_t p = 0, steps = 0;
    std::vector<uint8_t> filled; // [dir][member][step], dir 0: +2^k, 1: -2^k
    // Per distance rank(dst) - rank(src) mod p: the step k + 1 whose
    // partner it is, going up (p + 2^k) and going down (p - 2^k); 0: none.
    std::vector<uint8_t> upStep, downStep;
    bool possible = true;
  };
  std::vector<Slots> comms; // few communicators: searched linearly
  auto indexOf = [&](uint32_t comm) {
    for (size_t c = 0; c < comms.size(); c++)
      if (comms[c].comm == comm) return c;
    Slots s;
    s.comm = comm;
    s.g = t.group(comm);
    s.p = s.g ? s.g->members.size() : 0;
    while ((size_t(1) << s.steps) < s.p) s.steps++;
    s.filled.assign(2 * s.p * s.steps, 0);
    s.upStep.assign(s.p, 0), s.downStep.assign(s.p, 0);
    for (size_t k = 0; k < s.steps; k++) {
      const size_t d = (size_t(1) << k) % s.p;
      s.upStep[d] = uint8_t(k + 1), s.downStep[(s.p - d) % s.p] = uint8_t(k + 1);
    }
    comms.push_back(std::move(s));
    return comms.size() - 1;
  };
  std::vector<uint32_t> commIndex(candidates.size());
  for (size_t j = 0; j < candidates.size(); j++) {
    const Message &m = t.messages[candidates[j]];
    const size_t c = j && t.messages[candidates[j - 1]].comm == m.comm ? commIndex[j - 1] : indexOf(m.comm);
    commIndex[j] = uint32_t(c);
    Slots &s = comms[c];
    int a = s.g ? rankIn(*s.g, m.src) : -1, b = s.g ? rankIn(*s.g, m.dst) : -1;
    if (a < 0 || b < 0) continue;
    const size_t distance = b >= a ? size_t(b - a) : size_t(b - a) + s.p;
    if (uint8_t k = s.upStep[distance]) s.filled[size_t(a) * s.steps + k - 1] = 1;
    if (uint8_t k = s.downStep[distance]) s.filled[(s.p + size_t(a)) * s.steps + k - 1] = 1;
  }
  auto allFilled = [](auto first, auto last) {
    return std::all_of(first, last, [](uint8_t f) { return f != 0; });
  };
  for (Slots &s : comms) {
    auto half = s.filled.begin() + ptrdiff_t(s.p * s.steps);
    s.possible = !s.g || allFilled(s.filled.begin(), half) || allFilled(half, s.filled.end());
  }
  std::vector<uint32_t> kept;
  for (size_t j = 0; j < candidates.size(); j++)
    if (comms[commIndex[j]].possible) kept.push_back(candidates[j]);
  return kept;
}

void bruckPass(const MessageTable &t, const std::vector<uint32_t> &usable, bool byTag,
               std::vector<uint8_t> &claimed, std::vector<Instance> &out) {
  std::vector<uint32_t> candidates = possiblyBruck(t, hashedCandidates(usable, claimed));
  // Any size: the steps of one instance move different numbers of blocks.
  for (Round &round : pairRounds(t, candidates, [byTag](const Message &m) {
         return RoundKey{m.comm, byTag ? m.tag : 0, 0, m.sendType};
       })) {
    const Group &g = *t.group(round.key.comm);
    int dir = 1;
    uint64_t n = bruckBlock(t, g, round.messages, dir);
    if (!n) n = bruckBlock(t, g, round.messages, dir = -1);
    if (!n || (t.blocks.blockBytes == n && !forwardsBlocks(t, g, round.messages))) continue;
    const size_t p = g.members.size();
    bool powerOfTwo = (p & (p - 1)) == 0;
    Instance in;
    in.kind = Kind::Alltoall;
    in.comm = round.key.comm;
    in.participants = g.members;
    std::sort(in.participants.begin(), in.participants.end());
    in.bytes = n * p;
    const Message &first = t.messages[round.messages[0]];
    if (first.sendType == CZ_TRACE_TYPE_DERIVED || !first.sendCount ||
        uint64_t(first.sendCount) * n % first.bytes) {
      in.count = n, in.blockBytesAsType = true;
    } else {
      in.count = uint64_t(first.sendCount) * n / first.bytes;
    }
    in.shapeOnly = true;
    in.traceBlockBytes = n;
    in.note = std::string("Bruck-shaped: in step k every member sends to ") +
              (dir > 0 ? "p+2^k and receives from p-2^k " : "p-2^k and receives from p+2^k ") +
              std::string("one message of c_k blocks of n = ") + std::to_string(n) +
              " bytes (c_k: block indices with bit k set), after the previous step arrived; " +
              "message CRCs cannot show which block went where (blocks are repacked at every "
              "hop)";
    if (powerOfTwo)
      in.note += "; an allreduce along the same dissemination pattern looks the same";
    if (t.blocks.blockBytes == n)
      in.note += "; the traced block CRCs do not show every member's distinct blocks reaching "
                 "their destinations (equal blocks?)";
    for (uint32_t i : round.messages) claimed[i] = 1;
    in.messages = round.messages;
    out.push_back(std::move(in));
  }
}

} // namespace

void findBruckShapes(const MessageTable &t, const std::vector<uint32_t> &usable,
                     std::vector<uint8_t> &claimed, std::vector<Instance> &out) {
  bruckPass(t, usable, true, claimed, out);
  bruckPass(t, usable, false, claimed, out); // codes that tag by step
}

} // namespace cz::detect::detail
