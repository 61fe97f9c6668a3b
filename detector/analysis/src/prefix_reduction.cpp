// prefix_reduction.cpp: scan and exscan whose messages carry partial
// results (a recursive-doubling scan: step k from r to r+2^k; a chain that
// passes on the exclusive prefix after each rank sent its own value).
//
// Shape: messages of one size and datatype on a communicator, numbered per
// (sender, receiver, tag); the k-th ones form instance k, first per tag,
// then over all tags (a shift and a doubling step may share a pair with
// different tags). Replaying the instance, every member r (communicator
// order) has heard from exactly the members below it, every member that
// sends does so first before it received anything (its own contribution:
// a pipeline forwards only what it received), and some member sends more
// than once.
//
// Values (the trace holds each payload's first 8 bytes): member r's first
// send is its own contribution c_r; every later send must be
//   scan     op(c_r, all that r received before it)
//   exscan   op(all that r received before it)       (c_r kept out)
// Confirmed when exactly one (model, op) fits every send; several (equal
// or constant values): ambiguous (reduction_op); none: not a prefix
// reduction, left to the other rules.
//
// Not here: a chain in which every member sends once (receive, combine,
// send on). Its messages are those of a reduce to the last member, or of a
// wavefront; each member's contribution is never observed, so no value can
// pin an operation (the reduction rule reports it as an ambiguous reduce).
#include <algorithm>
#include <string>
#include <tuple>

#include "detect_internal.h"
#include "heard_from.h"
#include "reduction_values.h"

namespace cz::detect::detail {
namespace {

struct Fits {
  bool scan[kOps], exscan[kOps];
  bool evidence = false; // some member sent again after its contribution
  bool decodable = false;
};

// Per-member replay state, reused across rounds.
struct Scratch {
  std::vector<uint8_t> seen, sent;
  std::vector<Step> steps;
  std::vector<Values> first;
  std::vector<std::vector<Values>> received;
  std::vector<const Values *> operands;
  std::vector<uint8_t> heardAny;
};

std::string opList(const bool ops[kOps]) {
  std::string s;
  for (int k = 0; k < kOps; k++)
    if (ops[k]) s += (s.empty() ? "" : ", ") + std::string(kOpNames[k]);
  return s.empty() ? "none" : s;
}

// The round's messages in time order, checked for the prefix shape, and
// the operations each model allows; false when it is no prefix pattern.
bool replay(const MessageTable &t, const Group &g, uint64_t bytes, uint32_t type,
            const std::vector<uint32_t> &msgs, Scratch &sc, Fits &fits) {
  size_t p = g.members.size();
  HeardFrom heard(p, msgs);
  timeOrder(t, msgs, sc.steps);
  Elem e = elemOf(type);
  fits.decodable = e.bytes > 0 && bytes % uint64_t(e.bytes) == 0;
  std::fill(fits.scan, fits.scan + kOps, fits.decodable);
  std::fill(fits.exscan, fits.exscan + kOps, fits.decodable);
  sc.sent.assign(p, 0);
  sc.heardAny.assign(p, 0);
  sc.first.assign(p, Values{});
  if (sc.received.size() < p) sc.received.resize(p);
  for (size_t r = 0; r < p; r++) sc.received[r].clear();
  for (const Step &s : sc.steps) {
    const Message &m = t.messages[s.msg];
    size_t a = size_t(rankIn(g, m.src)), b = size_t(rankIn(g, m.dst));
    if (!s.isSend) {
      heard.receive(s.msg, b);
      sc.heardAny[b] = 1;
      if (fits.decodable) sc.received[b].push_back(decode(m.prefix, m.bytes, e));
      continue;
    }
    heard.send(s.msg, a);
    if (!sc.sent[a]) {
      // Its own contribution comes first: a member that forwards what it
      // received before sending anything of its own is a pipeline stage.
      if (sc.heardAny[a]) return false;
      sc.sent[a] = 1;
      if (fits.decodable) sc.first[a] = decode(m.prefix, m.bytes, e);
      continue;
    }
    fits.evidence = true;
    if (!fits.decodable) continue;
    Values v = decode(m.prefix, m.bytes, e);
    sc.operands.assign(1, &sc.first[a]);
    for (const Values &r : sc.received[a]) sc.operands.push_back(&r);
    checkOps(v, sc.operands, e, fits.scan);
    if (sc.received[a].empty()) {
      std::fill(fits.exscan, fits.exscan + kOps, false); // op() of nothing
    } else {
      sc.operands.erase(sc.operands.begin());
      checkOps(v, sc.operands, e, fits.exscan);
    }
  }
  // Member r heard from exactly the members 0..r.
  for (size_t r = 0; r < p; r++)
    for (size_t q = 0; q < p; q++)
      if (heard.heard(r, q) != (q <= r)) return false;
  return true;
}

void analyzeRound(const MessageTable &t, const DetectOptions &o, uint32_t comm, uint64_t bytes,
                  uint32_t type, const std::vector<uint32_t> &msgs, Scratch &sc,
                  std::vector<uint8_t> &claimed, std::vector<Instance> &out) {
  const Group *g = t.group(comm);
  if (!g || int(g->members.size()) < o.minGroup || msgs.size() + 1 < g->members.size()) return;
  size_t p = g->members.size();
  sc.seen.assign(p, 0);
  std::vector<uint32_t> sends(p, 0);
  for (uint32_t i : msgs) {
    const Message &m = t.messages[i];
    int a = rankIn(*g, m.src), b = rankIn(*g, m.dst);
    if (a < 0 || b < 0 || a >= b) return; // partial results only travel upward
    sc.seen[size_t(a)] = sc.seen[size_t(b)] = 1;
    sends[size_t(a)]++;
  }
  if (std::count(sc.seen.begin(), sc.seen.end(), 0) != 0) return;
  if (std::none_of(sends.begin(), sends.end(), [](uint32_t n) { return n >= 2; })) return;
  Fits fits;
  if (!replay(t, *g, bytes, type, msgs, sc, fits) || !fits.evidence) return;
  int nScan = int(std::count(fits.scan, fits.scan + kOps, true));
  int nExscan = int(std::count(fits.exscan, fits.exscan + kOps, true));
  if (fits.decodable && nScan + nExscan == 0) return; // the values are not combined
  Instance in;
  in.kind = nScan || !fits.decodable ? Kind::Scan : Kind::Exscan;
  if (nScan + nExscan == 1) {
    const bool *ops = nScan ? fits.scan : fits.exscan;
    in.op = kOpNames[std::find(ops, ops + kOps, true) - ops];
  } else {
    in.unproven |= kReductionOp;
    in.note = "every member heard from exactly the members below it, and each sent its own value "
              "first; ";
    in.note += fits.decodable
                   ? "the values fit more than one prefix reduction (as MPI_Scan: " +
                         opList(fits.scan) + "; as MPI_Exscan: " + opList(fits.exscan) + ")"
                   : "the payloads' elements cannot be decoded, so no value pins an operation";
  }
  in.comm = comm;
  in.bytes = bytes;
  in.count = t.messages[msgs[0]].sendCount;
  in.participants = g->members;
  std::sort(in.participants.begin(), in.participants.end());
  for (uint32_t i : msgs) claimed[i] = 1, in.messages.push_back(i);
  out.push_back(std::move(in));
}

void prefixPass(const MessageTable &t, const DetectOptions &o, const std::vector<Round> &rounds,
                bool acrossTags, Scratch &sc, std::vector<uint8_t> &claimed,
                std::vector<Instance> &out) {
  if (!acrossTags) {
    for (const Round &r : rounds)
      analyzeRound(t, o, r.key.comm, r.key.bytes, r.key.type, r.messages, sc, claimed, out);
    return;
  }
  // The k-th message of every (pair, tag) of one size and type: one round.
  // Rounds of one (communicator, size, type, k) under a single tag were
  // the first pass's: only keys with several are merged (in key order).
  struct Merge {
    uint32_t comm, type, k;
    uint64_t bytes;
    size_t round;
    auto key() const { return std::make_tuple(comm, bytes, type, k); }
  };
  std::vector<Merge> order;
  order.reserve(rounds.size());
  for (size_t r = 0; r < rounds.size(); r++) {
    const Round &rd = rounds[r];
    order.push_back({rd.key.comm, rd.key.type, rd.k, rd.key.bytes, r});
  }
  std::sort(order.begin(), order.end(), [](const Merge &a, const Merge &b) {
    return a.key() != b.key() ? a.key() < b.key() : a.round < b.round;
  });
  std::vector<uint32_t> msgs;
  for (size_t j = 0; j < order.size();) {
    size_t e = j + 1;
    while (e < order.size() && order[e].key() == order[j].key()) e++;
    if (e - j >= 2) {
      msgs.clear();
      for (size_t q = j; q < e; q++)
        msgs.insert(msgs.end(), rounds[order[q].round].messages.begin(),
                    rounds[order[q].round].messages.end());
      std::sort(msgs.begin(), msgs.end());
      analyzeRound(t, o, order[j].comm, order[j].bytes, order[j].type, msgs, sc, claimed, out);
    }
    j = e;
  }
}

} // namespace

void findPrefixReductions(const MessageTable &t, const DetectOptions &o,
                          const std::vector<uint32_t> &usable, ValueRounds &valueRounds,
                          std::vector<uint8_t> &claimed, std::vector<Instance> &out) {
  // Every message, downward ones included: a round with any is no
  // prefix pattern (an allreduce's upward half alone looks like one).
  std::vector<uint32_t> candidates = hashedCandidates(usable, claimed);
  if (candidates.empty()) return;
  Scratch sc;
  const size_t found = out.size();
  prefixPass(t, o, valueRounds.of(t, candidates), false, sc, claimed, out);
  // The second pass numbers what the first left: the same rounds when it
  // claimed nothing (most traces), numbered again otherwise.
  std::vector<uint32_t> left;
  if (out.size() != found)
    for (uint32_t i : candidates)
      if (!claimed[i]) left.push_back(i);
  prefixPass(t, o, valueRounds.of(t, out.size() != found ? left : candidates), true, sc, claimed,
             out);
}

} // namespace cz::detect::detail
