// reduction.cpp: reduce and allreduce of any shape.
//
// Combining changes the data, so nothing flows; the evidence is the shape
// and, for small payloads, the values. Messages of equal size and datatype
// between pairs of a communicator are numbered per pair; the k-th ones
// form instance k. Replaying it with "who has heard from whom" sets:
//   every member hears from every member         allreduce
//   one member (the root) hears from all and
//   sends nothing in the instance                reduce
// (a chain that returns to its start, like a token ring, is neither; nor
// is a chain whose root sends back to its start through the same code in
// other steps: a shift, closed_shift.h).
// The trace holds every payload's first 8 bytes (the prefix), so the
// first element(s) of every message are known: a rank that sends more than
// once in an allreduce must send op(what it sent before, what it received
// since) element by element, or, as an exchange step, op(what it sent
// before, what it received and has not combined yet but what came from
// the partner it sends to: that it combines after the send); a rank's
// first send, op(its own unknown value, what it received), rules out what
// no own value gives (checkOpsWithUnknown); the operations that fit every rank (sum,
// prod, min, max; band, bor, bxor on integers) are kept, and the op is
// reported when one remains.
//
// What makes a reduction confirmed (anything else is ambiguous, with
// Unproven kReductionOp, or not reported):
//   - the values pin down one operation;
//   - a reduce whose in-tree branches and combines on the way: a rank
//     that received from a child sends as many bytes as a leaf, while a
//     sibling subtree reaches the root separately (data of several ranks in
//     one block's worth: combined, and not a pipeline, which is a chain).
// Values that fit no operation at all are evidence against a reduction: a
// store-and-forward exchange (a hypercube alltoall repacks blocks and
// forwards them) has the same shape. Such an exchange along the hypercube
// (step k to p xor 2^k, P/2 blocks a message) is reported as a partial
// alltoall with the block size that would confirm it; others not at all.
// A star with no value evidence is partial (it could be a gather into one
// scratch buffer).
#include <algorithm>
#include <map>
#include <tuple>

#include "closed_shift.h"
#include "disjoint_sets.h"
#include "detect_internal.h"
#include "heard_from.h"
#include "rank_activity.h"
#include "reduction_values.h"

namespace cz::detect::detail {
namespace {

// A reduce is an in-tree: every member but the root sends exactly once
// (to its parent) in the instance.
bool inTree(const std::vector<uint32_t> &sends, size_t root) {
  for (size_t r = 0; r < sends.size(); r++)
    if (r != root && sends[r] != 1) return false;
  return true;
}

// Some member received from two or more members (a branch) and some
// member sent after it received (combined on the way).
bool branchesAndCombines(const std::vector<uint32_t> &children, bool inner) {
  for (uint32_t c : children)
    if (c >= 2) return inner;
  return false;
}

// Every member's k-th send goes to its partner across dimension k of a
// hypercube (p a power of two): the store-and-forward alltoall's shape.
bool hypercube(const MessageTable &t, const Group &g, const std::vector<Step> &steps) {
  size_t p = g.members.size();
  if (p < 4 || (p & (p - 1))) return false;
  std::vector<uint32_t> k(p, 0);
  for (const Step &s : steps) {
    if (!s.isSend) continue;
    const Message &m = t.messages[s.msg];
    size_t a = size_t(rankIn(g, m.src)), b = size_t(rankIn(g, m.dst));
    if (k[a] >= 32 || b != (a ^ (size_t(1) << k[a]))) return false;
    k[a]++;
  }
  for (uint32_t sent : k)
    if ((size_t(1) << sent) != p) return false;
  return true;
}

// The root sent something between the first and the last message it
// received in the instance: it answers as they come (dispatch).
bool rootAnswers(const MessageTable &t, const RankActivity &activity,
                 const std::vector<uint32_t> &msgs, uint32_t root) {
  uint32_t first = UINT32_MAX, last = 0;
  for (uint32_t i : msgs) {
    const Message &m = t.messages[i];
    if (m.dst == root) first = std::min(first, m.recvPos), last = std::max(last, m.recvPos);
  }
  return first < last && activity.sentBetween(root, first, last);
}

RoundKey reductionKey(const Message &m, bool byTag) {
  return RoundKey{m.comm, byTag ? m.tag : 0, m.bytes, m.sendType};
}

// Per-round state, its memory reused (rounds are many and small).
struct RoundScratch {
  std::vector<uint8_t> seen, hasSent, hasReceived;
  std::vector<uint32_t> sends, children;
  std::vector<uint64_t> sendBuffer;
  std::vector<Step> steps;
  std::vector<Values> lastSent;
  std::vector<std::vector<Values>> receivedSince;
  // The exchange reading: per rank, receipts not yet combined into a send
  // (value and sender), in time order.
  std::vector<std::vector<std::pair<Values, size_t>>> held;
  std::vector<uint8_t> fitsSince, fitsExchange; // per rank: ops (bit k) each reading allows
  std::vector<const Values *> operands;
  HeardFrom heard;
  // Parts of a round that never talk to each other (analyzeParts): the
  // union-find parents per member, and each part's group by its members
  // (rows of a grid recur in every round).
  std::vector<uint32_t> parent, partSize;
  std::map<std::vector<uint32_t>, Group> parts;
  // The provenance replay, made on first use (only a chain whose values pin
  // no operation asks it).
  std::function<const Provenance &()> provenance;
};

// A member that received before it sent, and sent nothing but bytes that
// arrived from other ranks (the replay verified every byte's origin): the
// send forwards what it received and combines nothing. Rounds numbered
// without tags pair one broadcast's forward with another's first hop (a
// ring broadcast of rotating roots, PRK's DGEMM), which reads as a chain.
// Asked only of a chain whose values pin no operation: the round's steps
// are walked again here rather than noted on every round's replay.
bool forwardsOnly(const MessageTable &t, const Provenance &pv, const Group &g,
                  const std::vector<Step> &steps) {
  std::vector<uint8_t> received(g.members.size(), 0);
  for (const Step &s : steps) {
    const Message &m = t.messages[s.msg];
    if (!s.isSend) {
      received[size_t(rankIn(g, m.dst))] = 1;
      continue;
    }
    if (received[size_t(rankIn(g, m.src))] && carriedOrigins(t, pv, s.msg).onlyOthers) return true;
  }
  return false;
}

// Which ops give `v` as op(operands...): bit k for op k (with `last` the
// only operand, all when v is `last` again, none when it changed). With
// ownUnknown, one more operand is the sender's own value, never traced.
uint8_t opsFitting(const Values &v, const std::vector<const Values *> &operands, const Elem &e,
                   bool ownUnknown) {
  bool fit[kOps];
  std::fill(fit, fit + kOps, true);
  if (ownUnknown)
    checkOpsWithUnknown(v, operands, e, fit);
  else
    checkOps(v, operands, e, fit);
  uint8_t bits = 0;
  for (int k = 0; k < kOps; k++)
    if (fit[k]) bits |= uint8_t(1u << k);
  return bits;
}

// The ops rank a's send `v` to b allows, under each reading (a rank keeps
// one reading for all its sends): it combines everything it received
// since its previous send; or, as an exchange step, everything it holds
// but what came from b itself, which it combines after the send (a rank
// that receives from its partner before it sends to it, and sends the
// partial result it held: the upper rank of a blocking butterfly pair).
// A rank's first send combines the same receipts with its own value, which
// is unknown: that rules out only what no own value gives (a MAX below a
// receipt). Which ops fit that way decides nothing alone, but it can leave
// one op where a later send fits two (a rank resending what it sent: MIN
// and MAX both, however the values fell in this run).
// Applied to the round's ops; the receipts b sent are held for later.
void checkSend(RoundScratch &sc, size_t a, size_t b, const Values &v, const Elem &e, bool first,
               bool ops[kOps]) {
  size_t known = first ? 0 : 1; // the rank's previous send, when there is one
  sc.operands.assign(known, &sc.lastSent[a]);
  for (const Values &r : sc.receivedSince[a]) sc.operands.push_back(&r);
  sc.fitsSince[a] &= opsFitting(v, sc.operands, e, first);
  sc.operands.resize(known);
  for (const auto &[value, from] : sc.held[a])
    if (from != b) sc.operands.push_back(&value);
  sc.fitsExchange[a] &= opsFitting(v, sc.operands, e, first);
  uint8_t either = sc.fitsSince[a] | sc.fitsExchange[a];
  for (int k = 0; k < kOps; k++) ops[k] &= ((either >> k) & 1) != 0;
}

// Cheap proofs, before any replay, that no member of the round hears
// from every member (then no reading below applies). A member that never
// sends is heard by nobody else: two such, and everyone misses one. When
// every member sends once and receives once (a ring step, a shift: most
// rounds), member r hears from pred(r) and, through it, from what
// pred(r) had heard when it sent: pred(pred(r)) only when pred(r)'s
// receipt came first (the replay's order: by time, a send before a
// receipt at the same time); hearing from all p members takes p - 2
// members that received before they sent.
bool nobodyHearsAll(const MessageTable &t, const Group &g, const std::vector<uint32_t> &msgs,
                    RoundScratch &sc) {
  const size_t p = g.members.size();
  size_t silent = 0;
  bool onceEach = msgs.size() == p;
  for (size_t r = 0; r < p; r++) silent += sc.sends[r] == 0, onceEach = onceEach && sc.sends[r] == 1;
  if (silent >= 2) return true;
  if (!onceEach || p < 3) return false;
  std::vector<uint64_t> &sentAt = sc.sendBuffer; // per member: its send's time
  std::vector<uint32_t> &receipts = sc.children; // per member: receipts (then one)
  sentAt.assign(p, 0), receipts.assign(p, 0);
  for (uint32_t i : msgs) {
    const Message &m = t.messages[i];
    sentAt[size_t(rankIn(g, m.src))] = m.sendTime;
    receipts[size_t(rankIn(g, m.dst))]++;
  }
  for (size_t r = 0; r < p; r++)
    if (receipts[r] != 1) return false;
  size_t receivedFirst = 0;
  for (uint32_t i : msgs) {
    const Message &m = t.messages[i];
    receivedFirst += std::max(m.recvTime, m.sendTime) < sentAt[size_t(rankIn(g, m.dst))];
  }
  return receivedFirst + 2 < p;
}

// The centre of a gather-then-release (a member that heard from every
// member before it sent anything of the round) talked to someone else
// between the two halves: its last receipt of the round and its first
// send. The release is then not the reduction's result (a reduce and an
// unrelated later bcast numbered into one round), and the messages sent
// before that first send are returned as the reduce alone.
bool releaseIsElsewhere(const MessageTable &t, const RankActivity &activity, uint32_t centre,
                        const std::vector<Step> &steps, std::vector<uint32_t> &reducePart) {
  uint32_t lastReceipt = 0, firstSend = UINT32_MAX;
  size_t firstSendStep = steps.size();
  for (size_t k = 0; k < steps.size(); k++) {
    const Message &m = t.messages[steps[k].msg];
    if (!steps[k].isSend && m.dst == centre) lastReceipt = std::max(lastReceipt, m.recvPos);
    if (steps[k].isSend && m.src == centre && m.sendPos < firstSend)
      firstSend = m.sendPos, firstSendStep = std::min(firstSendStep, k);
  }
  if (firstSend == UINT32_MAX || firstSend < lastReceipt) return false;
  bool elsewhere = activity.sentBetween(centre, lastReceipt, firstSend) ||
                   activity.receivedBetween(centre, lastReceipt, firstSend);
  if (!elsewhere) return false;
  reducePart.clear();
  for (size_t k = 0; k < firstSendStep; k++)
    if (steps[k].isSend) reducePart.push_back(steps[k].msg);
  std::sort(reducePart.begin(), reducePart.end());
  return true;
}

// One round's messages (one per pair at most) among the members of g:
// a reduction, a hypercube exchange, or nothing.
void analyzeGroupRound(const MessageTable &t, const RankActivity &activity, const RoundKey &key,
                       const Group &g, const std::vector<uint32_t> &msgs, RoundScratch &sc,
                       std::vector<uint8_t> &claimed, std::vector<Instance> &out) {
  size_t p = g.members.size();
  sc.seen.assign(p, 0);
  sc.sends.assign(p, 0);
  bool changes = false;
  for (uint32_t i : msgs) {
    const Message &m = t.messages[i];
    int a = rankIn(g, m.src), b = rankIn(g, m.dst);
    if (a < 0 || b < 0) return;
    sc.seen[size_t(a)] = sc.seen[size_t(b)] = 1;
    sc.sends[size_t(a)]++;
    changes |= m.crc != t.messages[msgs[0]].crc;
  }
  if (std::count(sc.seen.begin(), sc.seen.end(), 0) != 0) return;
  // One value everywhere is no exchange's evidence, but a flat star of one
  // scalar is still a linear reduce's shape (partial sums that happen to
  // be equal, zeros most often): kept for the reduce branch alone.
  bool equalScalars = !changes && key.bytes <= 8 && msgs.size() >= 2;
  if (!changes && !equalScalars) return;
  if (nobodyHearsAll(t, g, msgs, sc)) return;
  // Replay in time order: heard sets, and per rank the values it sent and
  // received (for the op check).
  HeardFrom &heard = sc.heard;
  heard.reset(p, msgs);
  std::vector<Step> &steps = sc.steps;
  timeOrder(t, msgs, steps);
  // Who heard from whom first, alone: every reading below needs a member
  // that heard from every member (the root of a reduce, all of an
  // allreduce or exchange), and most rounds have none (a ring step, a
  // bcast's tree), so the values are decoded only where they can matter.
  int centre = -1;
  {
    std::vector<uint8_t> &hasSent = sc.hasSent;
    hasSent.assign(p, 0);
    for (const Step &s : steps) {
      const Message &m = t.messages[s.msg];
      if (s.isSend) {
        size_t a = size_t(rankIn(g, m.src));
        if (!hasSent[a] && centre < 0 && heard.heardAll(a)) centre = int(a);
        heard.send(s.msg, a);
        hasSent[a] = 1;
      } else {
        heard.receive(s.msg, size_t(rankIn(g, m.dst)));
      }
    }
  }
  std::vector<size_t> full;
  for (size_t r = 0; r < p; r++)
    if (heard.heardAll(r)) full.push_back(r);
  if (full.empty()) return;
  // The values replayed as elements e: which operations they fit (ops),
  // and whether any send showed one (opEvidence); inner and oneBuffer do
  // not depend on e.
  bool opEvidence = false, inner = false;
  bool oneBuffer = true; // each rank sends from one buffer it combines into
  bool ops[kOps];
  auto scan = [&](const Elem &e) {
    bool small = e.bytes > 0 && key.bytes % uint64_t(e.bytes) == 0; // first elements known
    std::fill(ops, ops + kOps, small);
    opEvidence = false, inner = false, oneBuffer = true;
    std::vector<Values> &lastSent = sc.lastSent;
    std::vector<std::vector<Values>> &receivedSince = sc.receivedSince;
    lastSent.assign(small ? p : 0, Values{});
    if (receivedSince.size() < (small ? p : 0)) receivedSince.resize(p), sc.held.resize(p);
    for (size_t r = 0; r < (small ? p : 0); r++) receivedSince[r].clear(), sc.held[r].clear();
    sc.fitsSince.assign(p, 0xff), sc.fitsExchange.assign(p, 0xff);
    sc.hasSent.assign(p, 0), sc.hasReceived.assign(p, 0);
    sc.children.assign(p, 0);
    sc.sendBuffer.assign(p, 0);
    for (const Step &s : steps) {
      const Message &m = t.messages[s.msg];
      size_t a = size_t(rankIn(g, m.src)), b = size_t(rankIn(g, m.dst));
      if (s.isSend) {
        if (sc.hasReceived[a]) inner = true; // combines before forwarding
        if (sc.hasSent[a] && sc.sendBuffer[a] != m.sendAddress) oneBuffer = false;
        sc.sendBuffer[a] = m.sendAddress;
        if (small) {
          Values v = decode(m.prefix, m.bytes, e);
          // A send with nothing received since the previous one is no
          // evidence (its value may be the rank's own, not a combination).
          if (sc.hasSent[a] && !receivedSince[a].empty()) {
            checkSend(sc, a, b, v, e, false, ops);
            opEvidence = true;
          } else if (!receivedSince[a].empty()) {
            checkSend(sc, a, b, v, e, true, ops); // narrows, no evidence alone
          }
          lastSent[a] = v;
          receivedSince[a].clear();
          auto &held = sc.held[a];
          held.erase(std::remove_if(held.begin(), held.end(),
                                    [b](const std::pair<Values, size_t> &r) { return r.second != b; }),
                     held.end());
        }
        sc.hasSent[a] = 1;
      } else {
        sc.hasReceived[b] = 1;
        sc.children[b]++;
        if (small) {
          receivedSince[b].push_back(decode(m.prefix, m.bytes, e));
          sc.held[b].emplace_back(receivedSince[b].back(), a);
        }
      }
    }
  };
  Elem e = elemOf(key.type);
  // Untyped bytes (MPI_BYTE, MPI_PACKED: a template's elements sent as
  // bytes): MPI defines only the bitwise operations on bytes, so the values
  // are read first as the common element types, the first that pins exactly
  // one operation kept (its name goes in the note; the match keeps the
  // traced type); a sum that fits the bytes alone is the chance of no carry.
  std::string readAs;
  auto pinsOne = [&] {
    int n = 0;
    for (int k = 0; k < kOps; k++) n += ops[k] && opEvidence;
    return n == 1;
  };
  bool found = false;
  if (key.type == CZ_TRACE_TYPE_BYTE || key.type == CZ_TRACE_TYPE_PACKED) {
    static const std::pair<Elem, const char *> kReadings[] = {
        {{8, false, true}, "8-byte integers"}, {{4, false, true}, "4-byte integers"},
        {{8, true, true}, "doubles"}, {{4, true, true}, "floats"}};
    for (const auto &[candidate, name] : kReadings) {
      if (key.bytes % uint64_t(candidate.bytes)) continue;
      scan(candidate);
      if (pinsOne()) {
        e = candidate, found = true;
        // Bitwise operations read the same at any width.
        if (!ops[kBand] && !ops[kBor] && !ops[kBxor]) readAs = name;
        break;
      }
    }
  }
  if (!found) scan(e);
  int pinned = 0, which = -1;
  for (int k = 0; k < kOps; k++)
    if (ops[k] && opEvidence) pinned++, which = k;
  // The values contradict every operation: data forwarded, not combined.
  bool noOp = opEvidence && pinned == 0;
  // MIN and MAX select one operand: when the payload holds more than the
  // traced prefix, the first element fitting is what copying either
  // operand also does (a halo strip that starts with a corner cell it
  // received), not proof that the whole vector was combined.
  bool selectionOnly = pinned == 1 && (which == kMin || which == kMax) && key.bytes > 8;
  bool opProven = pinned == 1 && !selectionOnly;
  if (full.size() == p && centre >= 0) {
    std::vector<uint32_t> reducePart;
    if (releaseIsElsewhere(t, activity, g.members[size_t(centre)], steps, reducePart)) {
      analyzeGroupRound(t, activity, key, g, reducePart, sc, claimed, out);
      return;
    }
  }
  Instance in;
  if (!changes && (inner || full.size() != 1)) return; // equal values: a flat star only
  // Everyone hearing from everyone is also an alltoall's shape: an
  // allreduce combines in place (one send buffer per rank) or its values
  // say so.
  if (full.size() == p && noOp) {
    if (!hypercube(t, g, steps)) return;
    uint64_t n = key.bytes / (p / 2);
    in.kind = Kind::Alltoall;
    in.shapeOnly = true;
    in.traceBlockBytes = n;
    in.bytes = n * p;
    in.count = uint64_t(t.messages[msgs[0]].sendCount) / (p / 2);
    in.note = "store and forward along a hypercube: in step k every member sends its partner "
              "p xor 2^k one message of P/2 blocks of n = " + std::to_string(n) +
              " bytes, and the values fit no reduction; message CRCs cannot show which block "
              "went where (blocks are repacked at every hop)";
  } else if (full.size() == p && (oneBuffer || pinned == 1)) {
    in.kind = Kind::Allreduce;
    if (selectionOnly) {
      in.unproven |= kReductionOp;
      in.note = std::string("every member heard from every member; the traced first element of "
                            "each ") + std::to_string(key.bytes) + "-byte message fits " +
                kOpNames[which] + " only, which copying either operand also gives: the rest "
                "of the payload is not traced (traces at other process counts, detected "
                "together, settle it)";
    } else if (pinned != 1) {
      in.unproven |= kReductionOp;
      in.note = "every member heard from every member through messages of one size, sent from "
                "one buffer; no observed value pins down an operation (a store-and-forward "
                "alltoall has the same shape)";
    }
  } else if (full.size() == 1 && sc.sends[full[0]] == 0 && inTree(sc.sends, full[0]) && !noOp) {
    in.kind = Kind::Reduce;
    in.rootWorld = g.members[full[0]];
    // The shape alone, and the root sends back to where the chain began
    // through the same code: a step of a shift (closed_shift.h).
    if (!opProven && rootClosesShift(t, msgs, in.rootWorld)) return;
    // The shape alone, and a member passed on bytes it received: forwarded,
    // not combined (another collective's messages paired by their order).
    if (!opProven && inner && sc.provenance && forwardsOnly(t, sc.provenance(), g, steps))
      return;
    if (!opProven && inner && !branchesAndCombines(sc.children, inner)) {
      in.unproven |= kReductionOp;
      in.note = "a chain of equal messages ending at the root, each sent after the previous one "
                "arrived: a reduce, or a pipeline (a wavefront) that computes each message from "
                "the last; no observed value pins down an operation";
    }
  } else {
    return;
  }
  if (in.kind != Kind::Alltoall) {
    in.op = pinned == 1 ? kOpNames[which] : "";
    in.shapeOnly = !(inner || opProven);
    if (!readAs.empty() && pinned == 1)
      in.note = "the messages are untyped bytes; read as " + readAs + ", their values fit " +
                in.op + " only (MPI defines no arithmetic on MPI_BYTE: the program's own element "
                "type is what an MPI call would name)" + (in.note.empty() ? "" : "; " + in.note);
  }
  if (in.shapeOnly && in.kind == Kind::Reduce && rootAnswers(t, activity, msgs, in.rootWorld))
    return; // a master answering requests (task farm), not a reduce
  if (!changes)
    in.note = "every member sent the root one message of the same " + std::to_string(key.bytes) +
              " bytes directly: a reduce of equal partial results (or a gather of them into "
              "one scratch buffer); equal values show no operation: trace with data whose "
              "partial results differ from rank to rank";
  in.comm = key.comm;
  if (in.kind != Kind::Alltoall) {
    in.bytes = key.bytes;
    in.count = t.messages[msgs[0]].sendCount;
  }
  in.participants = g.members;
  std::sort(in.participants.begin(), in.participants.end());
  for (uint32_t i : msgs) claimed[i] = 1, in.messages.push_back(i);
  out.push_back(std::move(in));
}

// The round's parts: members linked by its messages. Reductions on the
// rows of a process grid, each summing on MPI_COMM_WORLD with no
// communicator of its own (NPB CG's sums along a row), are one round in
// which no member hears from every member. When the parts partition the
// communicator into groups of three or more, and each part alone reads as
// an allreduce, each becomes an instance on that part (a subset, reported
// with the split that makes the parts). Anything less is left alone: a
// part of two has any swap's shape; one part among silent members, or
// parts that disagree, is the weak evidence a halo or a relay gives by
// chance (miniAMR, HPL's spread, random walks on the real-code suite);
// and a part read as a reduce is a chain's shape, which the rows of a
// wavefront give too (NPB LU's pipelined sweeps at 2 x 4 ranks).
void analyzeParts(const MessageTable &t, const RankActivity &activity, const RoundKey &key,
                  const Group &g, const std::vector<uint32_t> &msgs, RoundScratch &sc,
                  std::vector<uint8_t> &claimed, std::vector<Instance> &out) {
  const size_t p = g.members.size();
  // Parts of k >= 3 members need k - 1 messages each to be linked: p
  // members in parts take at least 2p/3 (checked before any O(p) work:
  // most rounds that reach here are a few messages on a large group).
  if (p < 6 || 3 * msgs.size() < 2 * p) return;
  std::vector<uint32_t> &parent = sc.parent;
  parent.resize(p);
  for (size_t r = 0; r < p; r++) parent[r] = uint32_t(r);
  auto find = [&](uint32_t r) { return findSet(parent, r); };
  for (uint32_t i : msgs) {
    const Message &m = t.messages[i];
    int a = rankIn(g, m.src), b = rankIn(g, m.dst);
    if (a < 0 || b < 0) return;
    uint32_t ra = find(uint32_t(a)), rb = find(uint32_t(b));
    if (ra != rb) parent[std::max(ra, rb)] = std::min(ra, rb);
  }
  // Part sizes; one part (most rounds: a ring step, a halo's) is the
  // whole group, analysed already.
  std::vector<uint32_t> &size = sc.partSize; // at each part's root
  size.assign(p, 0);
  for (size_t r = 0; r < p; r++) size[find(uint32_t(r))]++;
  size_t parts = 0;
  for (size_t r = 0; r < p; r++) {
    if (!size[r]) continue;
    if (size[r] < 3 || size[r] == p) return;
    parts++;
  }
  // Messages by part (its lowest member), in the round's order.
  std::map<uint32_t, std::vector<uint32_t>> byPart;
  for (uint32_t i : msgs) byPart[find(uint32_t(rankIn(g, t.messages[i].src)))].push_back(i);
  if (byPart.size() != parts) return; // a part with no sender
  const size_t before = out.size();
  std::vector<uint32_t> members;
  bool agree = true;
  for (auto &[root, part] : byPart) {
    members.clear();
    for (size_t r = 0; r < p; r++)
      if (find(uint32_t(r)) == root) members.push_back(g.members[r]); // communicator order
    auto [it, fresh] = sc.parts.try_emplace(members);
    Group &sub = it->second;
    if (fresh) {
      sub.comm = g.comm, sub.name = g.name, sub.members = members;
      sub.indexMembers();
    }
    const size_t had = out.size();
    analyzeGroupRound(t, activity, key, sub, part, sc, claimed, out);
    if (out.size() != had + 1 || out.back().kind != Kind::Allreduce) {
      agree = false;
      break;
    }
  }
  if (agree && out.size() == before + parts) return;
  for (size_t k = before; k < out.size(); k++) // not every part: none
    for (uint32_t i : out[k].messages) claimed[i] = 0;
  out.resize(before);
}

// The round's messages of each pair of call sites (send and receive, with
// their wrappers' callers), in the round's order; empty when all are one.
std::vector<std::vector<uint32_t>> bySitePair(const MessageTable &t,
                                              const std::vector<uint32_t> &msgs) {
  using Sites = std::tuple<uint64_t, uint64_t, uint64_t, uint64_t>;
  auto sitesOf = [&](uint32_t i) {
    const Message &m = t.messages[i];
    return Sites{m.sendSite, m.sendCaller, m.recvSite, m.recvCaller};
  };
  std::vector<std::vector<uint32_t>> out;
  const Sites first = sitesOf(msgs.front());
  if (std::all_of(msgs.begin(), msgs.end(), [&](uint32_t i) { return sitesOf(i) == first; }))
    return out; // (most rounds: no map)
  std::map<Sites, std::vector<uint32_t>> groups;
  for (uint32_t i : msgs) groups[sitesOf(i)].push_back(i);
  if (groups.size() < 2) return out;
  for (auto &[sites, v] : groups) out.push_back(std::move(v));
  return out;
}

// One round: read among the communicator's members, else among its parts;
// else, when the round mixes messages of several call-site pairs, among
// the parts of each pair's messages alone. Rounds numbered without tags
// put NPB CG's row sums (a butterfly on MPI_COMM_WORLD, one call pair)
// and its transpose exchange (another pair, same size) in one round,
// whose transposes link the rows into one part that is no reduction.
// (Only the parts: a pair's messages alone read as a reduce on the whole
// group were RandomAccess's update buckets in HPCC, a partial match.)
//
// A round whose call-site pairs come one after the other at every rank
// (each rank done with one pair's messages before it starts another's) is
// read pair by pair on the whole group: rounds number each pair of ranks'
// messages, so a root's sends of a parameter to every worker and, later,
// the workers' partial results to it share a round (a textbook
// integration program: its broadcast and its sum are both 8-byte doubles
// with tag 0). Pairs whose messages interleave at a rank are not phases
// (RandomAccess's buckets above).
bool sitePairsInPhases(const MessageTable &t, const std::vector<std::vector<uint32_t>> &pairs) {
  // Per rank, each pair's first and last event position; no two pairs'
  // spans may overlap at any rank.
  std::map<uint32_t, std::vector<std::pair<uint32_t, uint32_t>>> spans;
  for (const std::vector<uint32_t> &pair : pairs) {
    std::map<uint32_t, std::pair<uint32_t, uint32_t>> mine;
    auto touch = [&](uint32_t rank, uint32_t pos) {
      auto [it, fresh] = mine.try_emplace(rank, pos, pos);
      if (!fresh) it->second.first = std::min(it->second.first, pos),
                  it->second.second = std::max(it->second.second, pos);
    };
    for (uint32_t i : pair) {
      const Message &m = t.messages[i];
      touch(m.src, m.sendPos), touch(m.dst, m.recvPos);
    }
    for (auto &[rank, span] : mine) spans[rank].push_back(span);
  }
  for (auto &[rank, v] : spans) {
    std::sort(v.begin(), v.end());
    for (size_t k = 1; k < v.size(); k++)
      if (v[k].first <= v[k - 1].second) return false;
  }
  return true;
}

void analyzeRound(const MessageTable &t, const RankActivity &activity, const RoundKey &key,
                  const std::vector<uint32_t> &msgs, RoundScratch &sc,
                  std::vector<uint8_t> &claimed, std::vector<Instance> &out) {
  const Group &g = *t.group(key.comm);
  const size_t before = out.size();
  analyzeGroupRound(t, activity, key, g, msgs, sc, claimed, out);
  if (out.size() == before) analyzeParts(t, activity, key, g, msgs, sc, claimed, out);
  if (out.size() != before || msgs.empty()) return;
  const std::vector<std::vector<uint32_t>> pairs = bySitePair(t, msgs);
  if (pairs.empty()) return;
  if (sitePairsInPhases(t, pairs)) {
    for (const std::vector<uint32_t> &pair : pairs)
      analyzeGroupRound(t, activity, key, g, pair, sc, claimed, out);
    if (out.size() != before) return;
  }
  if (g.members.size() < 6) return; // (analyzeParts' least)
  for (const std::vector<uint32_t> &part : pairs)
    analyzeParts(t, activity, key, g, part, sc, claimed, out);
}

void reductionPass(const MessageTable &t, const RankActivity &activity,
                   const std::vector<Round> &rounds,
                   const std::function<const Provenance &()> &provenance,
                   std::vector<uint8_t> &claimed, std::vector<Instance> &out) {
  RoundScratch sc;
  sc.provenance = provenance;
  for (const Round &round : rounds) {
    prefetchNextRound(t, rounds, round);
    analyzeRound(t, activity, round.key, round.messages, sc, claimed, out);
  }
}

} // namespace

void findReductions(const MessageTable &t, const std::vector<uint32_t> &usable,
                    const RankActivity &activity, ValueRounds &valueRounds,
                    const std::function<const Provenance &()> &provenance,
                    std::vector<uint8_t> &claimed, std::vector<Instance> &out) {
  std::vector<uint32_t> candidates = hashedCandidates(usable, claimed);
  // (reductionKey with the tag: the prefix reductions' rounds when they
  // claimed nothing)
  reductionPass(t, activity, valueRounds.of(t, candidates), provenance, claimed, out);
  auto untagged = [](const Message &m) { return reductionKey(m, false); };
  reductionPass(t, activity, pairRounds(t, secondPass(t, candidates, claimed, untagged), untagged),
                provenance, claimed, out);
}

} // namespace cz::detect::detail
