// echo_barrier.cpp: barriers whose messages carry data that comes back.
//
// A butterfly (or any pairwise) barrier written with a buffer instead of
// empty messages: in each pair one member sends the buffer, the other
// receives into it and sends it straight back. The reply is an echo: it
// leaves from the very place the first message arrived in, with the same
// bytes, so it carries nothing to its receiver that the receiver did not
// have; only the order it imposes matters. A reduction's reply combines
// something of the replier's own (another buffer, other bytes), a
// broadcast's receivers never answer. Messages are numbered per pair as
// for barriers (the k-th ones of all pairs form instance k); instance k is
// a barrier when every message of it is one half of such an echoed pair,
// it spans the communicator and, replayed in time order, every member has
// heard (transitively) from every member by its last event: each member
// leaves after every member entered. The forward messages still carry
// whatever the buffer held, which a program may read: ambiguous
// (kValuesRead), as for barriers of constant values.
#include <algorithm>

#include "detect_internal.h"
#include "flat_index.h"
#include "heard_from.h"

namespace cz::detect::detail {
namespace {

// The candidates per (communicator, sender, receiver), each list in send
// order (the table's order: by sender, then send position).
struct PairLists {
  FlatIndex<PairKey, PairHash> index; // key: the communicator
  std::vector<std::vector<uint32_t>> lists;
  const std::vector<uint32_t> *find(uint32_t comm, uint32_t src, uint32_t dst) const {
    const uint32_t *at = index.find({comm, src, dst});
    return at ? &lists[*at] : nullptr;
  }
};

// The message that answers f: the first one its receiver sent back to its
// sender after f arrived, when it is f's echo (from where f landed, the
// same bytes and CRC); kNone otherwise.
uint32_t echoOf(const MessageTable &t, const PairLists &byPair, uint32_t f) {
  const Message &m = t.messages[f];
  const std::vector<uint32_t> *back = byPair.find(m.comm, m.dst, m.src);
  if (!back) return kNone;
  // In send order: the first sent after f arrived (binary search; a scan
  // from the start made ping-pong traces quadratic).
  auto it = std::upper_bound(back->begin(), back->end(), m.recvPos,
                             [&](uint32_t pos, uint32_t r) { return pos < t.messages[r].sendPos; });
  if (it == back->end()) return kNone;
  const Message &reply = t.messages[*it];
  bool echo = reply.bytes == m.bytes && reply.crc == m.crc && reply.sendAddress == m.recvAddress;
  return echo ? *it : kNone;
}

} // namespace

void findEchoBarriers(const MessageTable &t, const std::vector<uint32_t> &usable,
                      std::vector<uint8_t> &claimed, std::vector<Instance> &out) {
  std::vector<uint32_t> candidates = hashedCandidates(usable, claimed);
  PairLists byPair;
  for (uint32_t i : candidates) {
    const Message &m = t.messages[i];
    auto [at, fresh] = byPair.index.insert({m.comm, m.src, m.dst}, uint32_t(byPair.lists.size()));
    if (fresh) byPair.lists.emplace_back();
    byPair.lists[*at].push_back(i);
  }
  auto bySendPos = [&](uint32_t a, uint32_t b) { return t.messages[a].sendPos < t.messages[b].sendPos; };
  for (std::vector<uint32_t> &msgs : byPair.lists) // (sorted already, from the table)
    if (!std::is_sorted(msgs.begin(), msgs.end(), bySendPos))
      std::sort(msgs.begin(), msgs.end(), bySendPos);
  // partner[i]: the other half of i's echoed pair (a forward's echo, an
  // echo's forward).
  std::vector<uint32_t> partner(t.messages.size(), kNone), echoed;
  for (uint32_t f : candidates) {
    uint32_t r = echoOf(t, byPair, f);
    if (r == kNone || partner[f] != kNone || partner[r] != kNone) continue;
    partner[f] = r, partner[r] = f;
    echoed.push_back(f), echoed.push_back(r);
  }
  std::sort(echoed.begin(), echoed.end());
  std::vector<Round> rounds = pairRounds(t, echoed, [](const Message &m) {
    return RoundKey{m.comm, m.tag, m.bytes, m.sendType};
  });
  for (Round &round : rounds) {
    const std::vector<uint32_t> &msgs = round.messages;
    const Group &g = *t.group(round.key.comm);
    size_t p = g.members.size();
    bool whole = std::all_of(msgs.begin(), msgs.end(), [&](uint32_t i) {
      return std::binary_search(msgs.begin(), msgs.end(), partner[i]);
    });
    std::vector<uint8_t> seen(p, 0);
    for (uint32_t i : msgs) {
      int a = rankIn(g, t.messages[i].src), b = rankIn(g, t.messages[i].dst);
      if (a < 0 || b < 0) whole = false;
      else seen[size_t(a)] = seen[size_t(b)] = 1;
    }
    if (!whole || std::count(seen.begin(), seen.end(), 0) != 0) continue;
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
    in.comm = round.key.comm;
    in.participants = g.members;
    std::sort(in.participants.begin(), in.participants.end());
    in.unproven = kValuesRead;
    in.note = "every pair of members exchanged a message and its echo (sent back unchanged from "
              "where it arrived), and every member heard from every member before it left: a "
              "barrier if no rank reads the " + std::to_string(t.messages[msgs[0]].bytes) +
              "-byte payloads";
    for (uint32_t i : msgs) claimed[i] = 1, in.messages.push_back(i);
    out.push_back(std::move(in));
  }
}

} // namespace cz::detect::detail
