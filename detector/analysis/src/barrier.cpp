// barrier.cpp: barriers of any shape.
//
// A barrier moves no data: its messages are empty or carry the same small
// constant. Messages between a pair (p, q) on a communicator are numbered
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
    for (const Step &s : timeOrder(t, msgs)) {
      const Message &m = t.messages[s.msg];
      if (s.isSend) heard.send(s.msg, size_t(rankIn(g, m.src)));
      else heard.receive(s.msg, size_t(rankIn(g, m.dst)));
    }
    bool all = true;
    for (size_t r = 0; r < p && all; r++) all = heard.heardAll(r);
    if (!all) continue;
    Instance in;
    in.kind = Kind::Barrier;
    in.comm = comm;
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
