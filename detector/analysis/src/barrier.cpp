// barrier.cpp: barriers of any shape.
//
// A barrier moves no data: its messages are empty or carry the same small
// constant (then it is ambiguous: the constant may be a value the program
// reads, a flag or an allreduce of equal values). Messages between a pair (p, q) on a communicator are numbered
// in order; the k-th ones of all pairs form instance k (one barrier uses a
// pair at most once per direction: dissemination, tournament, central
// counter). Instance k is a barrier when it spans the whole communicator
// and, replaying its messages in time order with "who has heard from
// whom" sets, every member has heard (transitively) from every member by
// its last event.
#include <algorithm>
#include <map>

#include "detect_internal.h"
#include "heard_from.h"

namespace cz::detect::detail {

namespace {

RoundKey barrierKey(const Message &m, bool byTag) { return RoundKey{m.comm, byTag ? m.tag : 0, 0, 0}; }

void barrierPass(const MessageTable &t, const std::vector<uint32_t> &candidates, bool byTag,
                 std::vector<uint8_t> &claimed, std::vector<Instance> &out) {
  std::vector<Round> rounds =
      pairRounds(t, candidates, [byTag](const Message &m) { return barrierKey(m, byTag); });
  for (Round &round : rounds) {
    prefetchNextRound(t, rounds, round);
    const uint32_t comm = round.key.comm;
    std::vector<uint32_t> &msgs = round.messages;
    const Group &g = *t.group(comm);
    size_t p = g.members.size();
    const Message &first = t.messages[msgs[0]];
    bool constant = true;
    std::vector<uint8_t> seen(p, 0);
    for (uint32_t i : msgs) {
      const Message &m = t.messages[i];
      constant &= m.bytes == first.bytes && (m.bytes == 0 || (m.hashed && m.crc == first.crc));
      int a = rankIn(g, m.src), b = rankIn(g, m.dst);
      if (a < 0 || b < 0) constant = false;
      else seen[size_t(a)] = seen[size_t(b)] = 1;
    }
    if (!constant || std::count(seen.begin(), seen.end(), 0) != 0) continue;
    HeardFrom heard(p, msgs);
    // A centre: a member that heard from every member before it sent
    // anything of the instance (a gather then a release: central
    // counters, trees); dissemination has none.
    std::vector<uint8_t> hasSent(p, 0);
    int centre = -1;
    for (const Step &s : timeOrder(t, msgs)) {
      const Message &m = t.messages[s.msg];
      if (s.isSend) {
        size_t a = size_t(rankIn(g, m.src));
        if (!hasSent[a] && centre < 0 && heard.heardAll(a)) centre = int(a);
        hasSent[a] = 1;
        heard.send(s.msg, a);
      } else {
        heard.receive(s.msg, size_t(rankIn(g, m.dst)));
      }
    }
    bool all = true;
    for (size_t r = 0; r < p && all; r++) all = heard.heardAll(r);
    if (!all) continue;
    Instance in;
    in.kind = Kind::Barrier;
    in.comm = comm;
    // Values travel: flags, acknowledgements or an allreduce of constants
    // look the same in one run. A barrier patch would drop them. Numbers
    // (wider than a one-byte token) gathered at a centre and sent back are
    // taken for an allreduce of values that happened to be equal (error
    // flags), unless nobody reads them.
    if (first.bytes) {
      std::string value = std::to_string(first.bytes) + "-byte value" +
                          (first.prefix == 0 ? " (zero)" : "");
      bool token = first.sendCount == first.bytes; // one-byte elements: char, byte
      if (centre >= 0 && !token) {
        in.kind = Kind::Allreduce;
        in.unproven |= kReductionOp;
        in.bytes = first.bytes;
        in.count = first.sendCount;
        in.note = "every message carries the same " + value + ", gathered at world rank " +
                  std::to_string(g.members[size_t(centre)]) +
                  " and sent back: an allreduce of values equal in this run, or a barrier "
                  "if no rank reads them";
      } else {
        in.unproven |= kValuesRead;
        in.note = "every message carries the same " + value +
                  ": a barrier only if no rank reads it";
      }
    }
    in.participants = g.members;
    std::sort(in.participants.begin(), in.participants.end());
    for (uint32_t i : msgs) claimed[i] = 1, in.messages.push_back(i);
    out.push_back(std::move(in));
  }
}

} // namespace

void findBarriers(const MessageTable &t, const DetectOptions &o, std::vector<uint8_t> &claimed,
                  std::vector<Instance> &out) {
  std::vector<uint32_t> candidates;
  for (uint32_t i = 0; i < t.messages.size(); i++) {
    const Message &m = t.messages[i];
    if (claimed[i] || m.bytes > 8 || m.src == m.dst) continue;
    const Group *g = t.group(m.comm);
    if (g && int(g->members.size()) >= o.minGroup) candidates.push_back(i);
  }
  barrierPass(t, candidates, true, claimed, out);
  auto untagged = [](const Message &m) { return barrierKey(m, false); };
  barrierPass(t, secondPass(t, candidates, claimed, untagged), false, claimed, out);
}

} // namespace cz::detect::detail
