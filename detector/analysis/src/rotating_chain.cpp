// rotating_chain.cpp: a linear-pipeline reduce called for one root after
// another through the same send and receive (chain_reduce(root) in a loop
// over roots).
//
// The reduction rule numbers messages per pair, the k-th message of every
// pair making round k. Calls with different roots use different subsets
// of the ring's pairs, so round k mixes the end of one call with the start
// of the next: a closed ring, no reduce. Here the instances are cut by
// causality instead: every message through one send and one receive site
// (one communicator, tag, size and datatype) extends the chain that last
// reached its sender, if the sender received that message before sending
// this one; otherwise it starts a chain. A chain of P-1 messages through
// all P members is one call: its last receiver is the root. Every message
// must fall into such a chain.
//
// What tells it from a shift, whose steps also line up into chains (a
// random walk passing walkers to rank + 1, closed_shift.h):
//   - while the chain runs (its first send to its last receipt, by the
//     trace's clock, one node's or corrected across nodes), the root sends
//     nothing through the send site and the chain's start receives nothing
//     through the receive site (a shift's ranks send and receive in every
//     step);
//   - every rank on the way sends something else than it received (values
//     combined, not forwarded), and the first elements fit at least one
//     predefined operation with the rank's own value unknown;
//   - the root changes from call to call (one root is the reduction
//     rule's case, whose pair rounds do not mix calls).
// The trace alone still cannot tell such calls from a value passed around
// a ring through one piece of code (a token every rank changes), and the
// ranks' own values never travel, so no operation is pinned: the instances
// are ambiguous (kReductionOp). Only the source (the combine step, the
// loop over roots) could settle it; the rewriter's chain proof does not
// run a chain whose ends move with the root, so no patch is proposed.
#include <algorithm>
#include <map>
#include <tuple>

#include "detect_internal.h"
#include "reduction_values.h"

namespace cz::detect::detail {
namespace {

using ChainKey = std::tuple<uint32_t, uint32_t, uint64_t, uint32_t, uint64_t, uint8_t, uint64_t, uint8_t>;

ChainKey chainKey(const Message &m) {
  return {m.comm, m.tag, m.bytes, m.sendType, m.sendSite, m.sendSiteKind, m.recvSite, m.recvSiteKind};
}

// Cuts `msgs` (one key) into chains of p-1 messages through distinct
// members; empty when some message fits no such chain.
std::vector<std::vector<uint32_t>> chainsOf(const MessageTable &t, const Group &g,
                                            std::vector<uint32_t> msgs) {
  const size_t p = g.members.size();
  std::sort(msgs.begin(), msgs.end(), [&](uint32_t a, uint32_t b) {
    return std::tie(t.messages[a].sendTime, a) < std::tie(t.messages[b].sendTime, b);
  });
  std::vector<std::vector<uint32_t>> chains, none;
  std::map<uint32_t, size_t> openAt; // world rank -> the open chain that last reached it
  size_t closed = 0;
  for (uint32_t i : msgs) {
    const Message &m = t.messages[i];
    size_t c = chains.size();
    if (auto it = openAt.find(m.src); it != openAt.end()) {
      // Sent before the chain's message arrived: two calls at one rank at
      // once, which no sequence of calls gives.
      if (m.sendPos < t.messages[chains[it->second].back()].recvPos) return none;
      c = it->second;
      openAt.erase(it);
    } else {
      chains.emplace_back();
    }
    chains[c].push_back(i);
    if (chains[c].size() + 1 < p) {
      if (!openAt.emplace(m.dst, c).second) return none;
      continue;
    }
    std::vector<uint8_t> seen(p, 0);
    for (uint32_t k : chains[c]) {
      int a = rankIn(g, t.messages[k].src);
      if (a < 0 || seen[size_t(a)]) return none;
      seen[size_t(a)] = 1;
    }
    int root = rankIn(g, m.dst);
    if (root < 0 || seen[size_t(root)]) return none;
    closed++;
  }
  if (closed != chains.size()) return none;
  return chains;
}

// The times every rank sent through the chains' send site and received
// through their receive site (any size or tag), sorted, from one scan of
// the table.
struct SiteTimes {
  std::map<uint32_t, std::vector<uint64_t>> sent, received;
  SiteTimes(const MessageTable &t, const Message &like) {
    for (const Message &x : t.messages) {
      if (x.comm != like.comm) continue;
      if (x.sendSite == like.sendSite && x.sendSiteKind == like.sendSiteKind)
        sent[x.src].push_back(x.sendTime);
      if (x.recvSite == like.recvSite && x.recvSiteKind == like.recvSiteKind)
        received[x.dst].push_back(x.recvTime);
    }
    for (auto *side : {&sent, &received})
      for (auto &[rank, times] : *side) std::sort(times.begin(), times.end());
  }
  static bool anyIn(const std::map<uint32_t, std::vector<uint64_t>> &side, uint32_t rank,
                    uint64_t from, uint64_t to) {
    auto it = side.find(rank);
    if (it == side.end()) return false;
    auto at = std::lower_bound(it->second.begin(), it->second.end(), from);
    return at != it->second.end() && *at <= to;
  }
};

// While the chain ran, its root sent nothing through the send site and its
// start received nothing through the receive site (a shift's ranks do both
// in every step).
bool endsQuiet(const MessageTable &t, const SiteTimes &times, const std::vector<uint32_t> &chain) {
  const Message &first = t.messages[chain.front()], &last = t.messages[chain.back()];
  return !SiteTimes::anyIn(times.sent, last.dst, first.sendTime, last.recvTime) &&
         !SiteTimes::anyIn(times.received, first.src, first.sendTime, last.recvTime);
}

// Every rank on the way sent another value than it received; `ops` keeps
// the operations that give each sent value from the received one and an
// own value the trace does not show.
bool combinesOnTheWay(const MessageTable &t, const std::vector<uint32_t> &chain, bool ops[kOps]) {
  const Message &m0 = t.messages[chain[0]];
  Elem e = elemOf(m0.sendType);
  bool small = e.bytes > 0 && m0.bytes % uint64_t(e.bytes) == 0;
  for (size_t k = 1; k < chain.size(); k++) {
    const Message &in = t.messages[chain[k - 1]], &out = t.messages[chain[k]];
    if (in.crc == out.crc) return false; // forwarded unchanged
    if (!small) continue;
    Values received = decode(in.prefix, in.bytes, e), sent = decode(out.prefix, out.bytes, e);
    checkOpsWithUnknown(sent, {&received}, e, ops);
  }
  return true;
}

std::string fittingOps(const bool ops[kOps]) {
  std::string names;
  for (int k = 0; k < kOps; k++)
    if (ops[k]) names += std::string(names.empty() ? "" : ", ") + kOpNames[k];
  return names;
}

// The first roots, in the order their chains ran.
std::string callOrder(const std::vector<uint32_t> &roots) {
  constexpr size_t kShown = 16;
  std::string text;
  for (size_t k = 0; k < roots.size() && k < kShown; k++)
    text += (k ? ", " : "") + std::to_string(roots[k]);
  if (roots.size() > kShown) text += ", ... (" + std::to_string(roots.size()) + " calls)";
  return text;
}

void analyzeKey(const MessageTable &t, const std::vector<uint32_t> &msgs,
                std::vector<uint8_t> &claimed, std::vector<Instance> &out) {
  const Message &m0 = t.messages[msgs[0]];
  const Group *g = t.group(m0.comm);
  if (!g || g->members.size() < 3 || msgs.size() < 2 * (g->members.size() - 1)) return;
  std::vector<std::vector<uint32_t>> chains = chainsOf(t, *g, msgs);
  if (chains.size() < 2) return;
  bool ops[kOps];
  std::fill(ops, ops + kOps, true);
  std::vector<uint32_t> roots; // in call order
  SiteTimes times(t, m0);
  for (const std::vector<uint32_t> &c : chains) {
    if (!endsQuiet(t, times, c) || !combinesOnTheWay(t, c, ops)) return;
    roots.push_back(t.messages[c.back()].dst);
  }
  std::vector<uint32_t> distinct = roots;
  std::sort(distinct.begin(), distinct.end());
  if (std::unique(distinct.begin(), distinct.end()) - distinct.begin() < 2) return; // rounds' case
  std::string fit = fittingOps(ops);
  if (fit.empty()) return; // no operation gives the values: not combined
  for (const std::vector<uint32_t> &c : chains) {
    Instance in;
    in.kind = Kind::Reduce;
    in.comm = m0.comm;
    in.participants = g->members;
    std::sort(in.participants.begin(), in.participants.end());
    in.rootWorld = t.messages[c.back()].dst;
    in.bytes = m0.bytes;
    in.count = m0.sendCount;
    in.unproven = kReductionOp;
    in.note = "chains of equal messages through one send and one receive, each rank sending "
              "after it received a value and passing on another, each chain reaching every "
              "member and ending at a root that sends nothing until the next chain starts: a "
              "reduce whose root changes from call to call, or a value passed around a ring "
              "that every rank changes; the rank's own value is not traced, so the values fit " +
              fit + "; the roots in call order (world ranks): " + callOrder(roots);
    for (uint32_t i : c) claimed[i] = 1, in.messages.push_back(i);
    std::sort(in.messages.begin(), in.messages.end());
    out.push_back(std::move(in));
  }
}

} // namespace

void findRotatingChains(const MessageTable &t, const std::vector<uint32_t> &usable,
                        std::vector<uint8_t> &claimed, std::vector<Instance> &out) {
  std::map<ChainKey, std::vector<uint32_t>> byKey;
  for (uint32_t i : hashedCandidates(usable, claimed)) byKey[chainKey(t.messages[i])].push_back(i);
  for (const auto &[key, msgs] : byKey) analyzeKey(t, msgs, claimed, out);
}

} // namespace cz::detect::detail
