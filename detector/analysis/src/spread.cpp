// spread.cpp: broadcasts of any shape, by following items.
//
// An item is a payload (CRC-32, bytes). The same payload can travel many
// times (a constant broadcast in a loop, or equal data from different
// roots), so its messages are split into instances by replaying them in
// time order: a send belongs to the instance its sender holds the item
// from (it received it there, or started it), unless the destination
// already has it in that instance, which starts a new instance with the
// sender as its root. In an instance, a root is a process
// that sends the item before receiving it; it is confirmed when the item
// reaches every other participant from it along time-respecting chains
// (each forward leaves a process after the item arrived there): the
// serial equivalent of the backward replay of the detection paper.
//
// A rank holds the item only while the buffer it has it in (where it
// received it, or where a root first sent it from) is not overwritten: a
// later receive into that range ends the holding. Synthetic or periodic
// data repeats the same payload in unrelated exchanges far apart in time
// (the bench's bcast of iteration 98 equals a ring block of iteration
// 2996); without this a stale holding joined them into one instance, or
// merged them as a "redundant root", and left spurious partial matches.
// A send of other bytes from that very range ends it too: the program
// wrote the range in between, so the item sent from it later is made
// again (a ping-pong client stamping iteration i into one buffer for every
// server in turn sent them equal pings, a confirmed bcast of HPCC's b_eff).
//
// A constant fill (payload_strength.h: all zeros, one value repeated) is
// equal by chance in unrelated exchanges: a halo of zeros received from
// one neighbour and a halo of zeros sent to the next look like a forward.
// Its instances are kept (a ring that passes one zero block among
// distinct ones is still a ring) but marked unproven: alone they are
// ambiguous, and the aggregation drops them where they cover only part of
// a group.
//
// Replies are not broadcasts: when a sender, between two of its sends of
// the item, receives a message from the next destination, it answers a
// request (a task farm's stop signal to whichever worker asks first); such
// instances are dropped, since MPI_Bcast could not replace them.
#include <algorithm>
#include <map>
#include <unordered_map>

#include "detect_internal.h"
#include "disjoint_sets.h"
#include "payload_strength.h"
#include "rank_activity.h"
#include "rank_values.h"

namespace cz::detect::detail {
namespace {

// An item per communicator: one collective lives on one communicator, and
// the same data sent on two (a value broadcast on a row, then on the whole
// grid) is two collectives, which an instance spanning both would hide.
struct ItemKey {
  uint32_t crc;
  uint32_t comm;
  uint64_t bytes;
  bool operator==(const ItemKey &o) const {
    return crc == o.crc && bytes == o.bytes && comm == o.comm;
  }
};
struct ItemHash {
  size_t operator()(const ItemKey &k) const {
    return size_t((uint64_t(k.crc) << 32 ^ k.bytes ^ uint64_t(k.comm) << 17) * 0x9E3779B97F4A7C15ull);
  }
};

// Where a rank holds the item: the buffer range it has it in since a
// position of its events. `next` is the first of the rank's receipts not
// yet checked against the range (checks resume there, so a holding's
// receipts are scanned once); a root's is looked up from `since` when
// first needed (most roots never send the item again).
struct Holding {
  static constexpr size_t kFromSince = SIZE_MAX;
  uint64_t address = 0, bytes = 0;
  size_t next = kFromSince;
  uint32_t since = 0;
  bool overwritten = false;
  bool own = false; // a root's: where it first sent the item from
  // The rank's sends not yet checked for other bytes from the range: the
  // table index of the first, looked up from `since` when first needed.
  uint32_t nextSend = UINT32_MAX;
};

// Per-item scratch, sized once for the table's ranks: items are many and
// small, and maps per item cost more than the replay itself.
struct Scratch {
  explicit Scratch(size_t ranks)
      : ranks(ranks), since(ranks), lastSend(ranks), firstSend(ranks), firstRecv(ranks), member(ranks),
        arrival(ranks), onlyReceipt(ranks), holds(ranks), holding(ranks), instancesAt(ranks) {}
  size_t ranks; // world ranks a message may name
  RankValues since, lastSend, firstSend, firstRecv;
  RankValues member;      // analyzeInstance: ranks already among the participants
  RankValues arrival;     // rank -> message it first received the item by
  RankValues onlyReceipt; // rank -> its receipt, when the instance brings it one
  RankValues holds;             // rank -> instance it last got the item in
  std::vector<Holding> holding; // rank -> where (valid where holds has it)
  std::vector<std::vector<uint32_t>> instancesAt; // rank -> instances it has the item in
  std::vector<uint32_t> touched;                  // ranks with entries in instancesAt
  std::vector<Step> steps;
  std::vector<uint32_t> rootOf, parent, flat, start, fill;
  std::vector<uint32_t> byInstance, repStart; // splitInstances' regrouping of merged instances
  std::vector<uint32_t> byReceiver; // relayedInPlace's order of an instance's messages
  std::vector<uint32_t> participants; // analyzeInstance's, before it keeps a copy
  std::vector<uint32_t> otherRoots;   // analyzeInstance's, before the instance is made
  std::vector<std::pair<uint32_t, uint32_t>> pushed; // (instance, message) in step order
};

// The root's part of an instance: whether it sent every message itself
// (a star: no member passes the item on), and the positions of its first
// and last send of the item.
struct RootSends {
  bool star = true;
  uint32_t first = UINT32_MAX, last = 0;
};
RootSends rootSends(const MessageTable &t, const uint32_t *msgs, const uint32_t *msgsEnd, uint32_t root) {
  RootSends r;
  for (const uint32_t *i = msgs; i != msgsEnd; ++i) {
    const Message &m = t.messages[*i];
    r.star = r.star && m.src == root;
    if (m.src == root) r.first = std::min(r.first, m.sendPos), r.last = std::max(r.last, m.sendPos);
  }
  return r;
}

// Not a broadcast: the root sends the item to one member again before it
// has sent it to every member it sends it to at all. A broadcast sends
// each member the data once, and broadcasts one after another of
// unchanged data reach every destination before the next round begins.
// Nor, for a value of a few bytes sent straight from the root to each
// member, a root that between its first and last send of it receives
// other data through the call sites the members receive it by: the root
// of a linear broadcast never runs the members' side. (Only for such
// values: a long broadcast's pieces go from their first holder to several
// members while it receives the others' pieces through the same code.)
// A rank sending its own unchanging payload to changing partners looks so:
// IMB-P2P's Corandom, each rank's buffer filled with its rank and the
// first byte of each cache line touched, the same bytes sent again and
// again to whichever rank the random ring puts next (root 2: to 3, 0, 3, 1; in another run
// root 3, to three ranks, one per iteration, receiving between its sends).
// msgs are in send time order.
bool rootNotBroadcasting(const MessageTable &t, const RankActivity &idx, const uint32_t *msgs,
                         const uint32_t *msgsEnd, uint32_t root, const RootSends &sends,
                         Strength strength, RankValues &seen) {
  seen.reset();
  size_t destinations = 0;
  for (const uint32_t *i = msgs; i != msgsEnd; ++i)
    if (const Message &m = t.messages[*i]; m.src == root && !seen.has(m.dst)) seen.set(m.dst, 0), destinations++;
  seen.reset();
  size_t reached = 0;
  for (const uint32_t *i = msgs; i != msgsEnd; ++i) {
    const Message &m = t.messages[*i];
    if (m.src != root) continue;
    if (!seen.has(m.dst)) seen.set(m.dst, 0), reached++;
    else if (reached < destinations) return true;
  }
  if (strength != Strength::Small || !sends.star || sends.first >= sends.last) return false;
  std::vector<std::pair<uint64_t, uint64_t>> receiveSites;
  for (const uint32_t *i = msgs; i != msgsEnd; ++i)
    receiveSites.emplace_back(t.messages[*i].recvSite, t.messages[*i].recvCaller);
  std::sort(receiveSites.begin(), receiveSites.end());
  const uint32_t item = t.messages[*msgs].crc;
  const std::vector<Receipt> &got = idx.receipts(root);
  for (size_t k = idx.firstReceiptAfter(root, sends.first); k < got.size() && got[k].pos < sends.last; k++) {
    const Message &m = t.messages[got[k].msg];
    if (m.crc != item && std::binary_search(receiveSites.begin(), receiveSites.end(),
                                            std::make_pair(m.recvSite, m.recvCaller)))
      return true;
  }
  return false;
}

// A few bytes the root sends straight to every member (a star) from a
// loop that also sends each member, through another call site, a few
// bytes that differ from member to member: a master handing each worker
// its offset and its count (LLNL's mpi_mm.f: the column count avecol or
// avecol + 1, equal for every worker at 8 ranks, beside each worker's own
// offset). Equal by chance is then as likely as one value for all; the
// site database says so for C (value_varies), this says it for any trace.
// The loop's sends to a member are taken within one iteration's stride of
// the item's sends.
bool besidePerMemberValues(const MessageTable &t, const RankActivity &idx, const uint32_t *msgs,
                           const uint32_t *msgsEnd, const RootSends &sends) {
  if (!sends.star) return false;
  const Message &head = t.messages[*msgs];
  std::vector<uint32_t> dests;
  for (const uint32_t *i = msgs; i != msgsEnd; ++i) dests.push_back(t.messages[*i].dst);
  std::sort(dests.begin(), dests.end());
  if (dests.size() < 2 || std::adjacent_find(dests.begin(), dests.end()) != dests.end()) return false;
  const uint32_t stride = (sends.last - sends.first) / uint32_t(dests.size() - 1) + 1;
  const uint32_t from = sends.first > stride ? sends.first - stride : 0, to = sends.last + stride;
  // Per other call site: the payloads (CRCs) sent to each member.
  std::map<std::pair<uint64_t, uint64_t>, std::map<uint32_t, std::vector<uint32_t>>> bySite;
  for (uint32_t k = idx.firstSendAt(head.src, from); k < t.messages.size(); k++) {
    const Message &m = t.messages[k];
    if (m.src != head.src || m.sendPos > to) break;
    if (m.bytes == 0 || m.bytes > 8 || m.comm != head.comm ||
        (m.sendSite == head.sendSite && m.sendCaller == head.sendCaller) ||
        !std::binary_search(dests.begin(), dests.end(), m.dst))
      continue;
    bySite[{m.sendSite, m.sendCaller}][m.dst].push_back(m.crc);
  }
  // One value to each member, not all equal.
  for (const auto &[site, perMember] : bySite) {
    if (perMember.size() != dests.size()) continue;
    bool once = true, differ = false;
    for (const auto &[dst, crcs] : perMember)
      once = once && crcs.size() == 1, differ = differ || crcs[0] != perMember.begin()->second[0];
    if (once && differ) return true;
  }
  return false;
}

// Ranks reached from root over msgs (sorted by send time), and whether
// every participant is among them.
bool reachesAll(const MessageTable &t, const uint32_t *msgs, const uint32_t *msgsEnd,
                uint32_t root, const std::vector<uint32_t> &participants, RankValues &since) {
  since.reset();
  since.set(root, 0); // the root has the item from the start
  // Every rank reached is a participant: the answer is known once as many
  // are reached (most instances, in the first pass).
  size_t reached = 1;
  // Two passes absorb send-time ties between causally ordered messages.
  for (int pass = 0; pass < 2; pass++)
    for (const uint32_t *i = msgs; i != msgsEnd; ++i) {
      if (reached == participants.size()) return true;
      const Message &m = t.messages[*i];
      const uint32_t *s = since.find(m.src);
      if (!s || (m.src != root && m.sendPos < *s)) continue;
      uint32_t *d = since.find(m.dst);
      if (!d) since.set(m.dst, m.recvPos), reached++;
      else if (m.recvPos < *d) *d = m.recvPos;
    }
  return reached == participants.size();
}

// Some sender answered a request from the next destination between two
// sends of the item (msgs sorted by send time).
bool looksLikeReplies(const MessageTable &t, const RankActivity &idx, const uint32_t *msgs,
                      const uint32_t *msgsEnd, RankValues &lastSend) {
  lastSend.reset(); // sender -> sendPos
  for (const uint32_t *i = msgs; i != msgsEnd; ++i) {
    const Message &m = t.messages[*i];
    if (lastSend.has(m.src) &&
        idx.receivedBetween(m.src, m.dst, m.comm, lastSend.get(m.src), m.sendPos))
      return true;
    lastSend.set(m.src, m.sendPos);
  }
  return false;
}

// Every member but the root sends the item only from where it received it
// (a relay through one buffer): what a broadcast of a fill looks like, and
// a halo exchange of zeros does not.
bool relayedInPlace(const MessageTable &t, const uint32_t *msgs, const uint32_t *msgsEnd,
                    uint32_t root, const RankValues *onlyReceipt, std::vector<uint32_t> &byReceiver) {
  if (onlyReceipt) { // each rank receives the item at most once here: its one receipt
    for (const uint32_t *i = msgs; i != msgsEnd; ++i) {
      const Message &s = t.messages[*i];
      if (s.src == root) continue;
      if (!onlyReceipt->has(s.src)) return false;
      const Message &m = t.messages[onlyReceipt->get(s.src)];
      if (m.recvPos >= s.sendPos || s.sendAddress < m.recvAddress ||
          s.sendAddress + s.bytes > m.recvAddress + m.bytes)
        return false;
    }
    return true;
  }
  // The instance's messages by receiving rank, then receive position, so a
  // relay's send looks only at its own rank's earlier receipts (a pairwise
  // scan took seconds on instances of thousands of messages).
  byReceiver.assign(msgs, msgsEnd);
  auto earlier = [&](uint32_t a, uint32_t b) {
    const Message &x = t.messages[a], &y = t.messages[b];
    return x.dst != y.dst ? x.dst < y.dst : x.recvPos < y.recvPos;
  };
  std::sort(byReceiver.begin(), byReceiver.end(), earlier);
  for (const uint32_t *i = msgs; i != msgsEnd; ++i) {
    const Message &s = t.messages[*i];
    if (s.src == root) continue;
    auto r = std::lower_bound(byReceiver.begin(), byReceiver.end(), s.src,
                              [&](uint32_t m, uint32_t rank) { return t.messages[m].dst < rank; });
    bool inPlace = false;
    for (; r != byReceiver.end() && !inPlace; ++r) {
      const Message &m = t.messages[*r];
      if (m.dst != s.src || m.recvPos >= s.sendPos) break;
      inPlace = s.sendAddress >= m.recvAddress && s.sendAddress + s.bytes <= m.recvAddress + m.bytes;
    }
    if (!inPlace) return false;
  }
  return true;
}

void analyzeInstance(const MessageTable &t, const DetectOptions &o, const RankActivity &idx,
                     Strength strength, uint32_t *msgs, uint32_t *msgsEnd, Scratch &sc,
                     std::vector<Instance> &out) {
  const Message &first = t.messages[msgs[0]];
  // (Scratch: most instances are dropped before they keep their list; one
  // grown afresh cost several allocations per instance.)
  std::vector<uint32_t> &participants = sc.participants;
  participants.clear();
  // (Messages arrive in send-time order unless instances were merged.)
  bool sorted = true;
  if (sc.ranks <= 64) { // the participants as bits: in rank order, without a sort
    uint64_t members = 0;
    for (const uint32_t *i = msgs; i != msgsEnd; ++i) {
      const Message &m = t.messages[*i];
      if (m.comm != first.comm) return; // one collective lives on one communicator
      members |= uint64_t(1) << m.src | uint64_t(1) << m.dst;
      sorted = sorted && (i == msgs || t.messages[i[-1]].sendTime < m.sendTime);
    }
    for (; members; members &= members - 1) participants.push_back(uint32_t(__builtin_ctzll(members)));
  } else {
    sc.member.reset();
    for (const uint32_t *i = msgs; i != msgsEnd; ++i) {
      const Message &m = t.messages[*i];
      if (m.comm != first.comm) return;
      if (!sc.member.has(m.src)) sc.member.set(m.src, 0), participants.push_back(m.src);
      if (!sc.member.has(m.dst)) sc.member.set(m.dst, 0), participants.push_back(m.dst);
      sorted = sorted && (i == msgs || t.messages[i[-1]].sendTime < m.sendTime);
    }
    std::sort(participants.begin(), participants.end());
  }
  if (int(participants.size()) < o.minGroup) return;
  // Strictly increasing times have one order: sorting them again changes
  // nothing (equal times keep the order the sort gives them, as before).
  if (!sorted)
    std::sort(msgs, msgsEnd, [&](uint32_t a, uint32_t b) {
      return t.messages[a].sendTime < t.messages[b].sendTime;
    });
  if (looksLikeReplies(t, idx, msgs, msgsEnd, sc.lastSend)) return;
  // Candidates: send the item before any receipt of it in this instance.
  // Also each rank's first receipt (the earliest, the first message of
  // several at that position), and whether any rank receives twice.
  sc.firstSend.reset();
  sc.firstRecv.reset();
  sc.arrival.reset();
  sc.onlyReceipt.reset();
  bool receivesOnce = true;
  for (const uint32_t *i = msgs; i != msgsEnd; ++i) {
    const Message &m = t.messages[*i];
    if (uint32_t *s = sc.firstSend.find(m.src)) *s = std::min(*s, m.sendPos);
    else sc.firstSend.set(m.src, m.sendPos);
    if (uint32_t *r = sc.firstRecv.find(m.dst)) *r = std::min(*r, m.recvPos);
    else sc.firstRecv.set(m.dst, m.recvPos);
    if (const uint32_t *a = sc.arrival.find(m.dst)) {
      if (m.recvPos < t.messages[*a].recvPos) sc.arrival.set(m.dst, *i);
    } else if (m.recvPos < UINT32_MAX) {
      sc.arrival.set(m.dst, *i);
    }
    if (sc.onlyReceipt.has(m.dst)) receivesOnce = false;
    else sc.onlyReceipt.set(m.dst, *i);
  }
  uint32_t root = kNone;
  sc.otherRoots.clear();
  for (uint32_t p : participants) {
    if (!sc.firstSend.has(p)) continue;
    if (sc.firstRecv.has(p) && sc.firstRecv.get(p) < sc.firstSend.get(p)) continue;
    if (!reachesAll(t, msgs, msgsEnd, p, participants, sc.since)) continue;
    if (root == kNone)
      root = p;
    else
      sc.otherRoots.push_back(p);
  }
  if (root == kNone) return;
  const RootSends sends = rootSends(t, msgs, msgsEnd, root);
  if (rootNotBroadcasting(t, idx, msgs, msgsEnd, root, sends, strength, sc.member)) return;
  // Made in place (a local moved into `out` cost a move and a destructor
  // per instance, 27,000 on the bench trace).
  Instance &in = out.emplace_back();
  in.kind = Kind::Bcast;
  in.comm = first.comm;
  in.bytes = first.bytes;
  in.rootWorld = root;
  in.otherRoots.assign(sc.otherRoots.begin(), sc.otherRoots.end());
  for (const uint32_t *i = msgs; i != msgsEnd; ++i) {
    const Message &m = t.messages[*i];
    in.oneTag &= m.tag == first.tag;
    if (m.src == in.rootWorld && (!in.rootAddress || m.sendPos < in.rootFirstSend)) {
      in.rootAddress = m.sendAddress;
      in.rootFirstSend = m.sendPos;
      in.count = m.sendCount;
    }
  }
  in.arrivals.reserve(participants.size());
  for (uint32_t q : participants) {
    if (q == in.rootWorld) {
      in.arrivals.push_back({q, in.rootFirstSend, in.rootAddress, in.bytes});
      continue;
    }
    Arrival a{q, UINT32_MAX, 0, in.bytes};
    if (sc.arrival.has(q)) {
      const Message &m = t.messages[sc.arrival.get(q)];
      a.pos = m.recvPos, a.address = m.recvAddress;
    }
    in.arrivals.push_back(a);
  }
  in.itemCrc = first.crc;
  bool inPlace = relayedInPlace(t, msgs, msgsEnd, in.rootWorld,
                                receivesOnce ? &sc.onlyReceipt : nullptr, sc.byReceiver);
  if (strength == Strength::Fill) {
    in.unproven |= kPayloadFill;
    in.note = std::string("the payload is a constant fill (") + fillDescription(first) + ")";
    in.supportOnly = !inPlace;
  } else if (strength == Strength::Small && besidePerMemberValues(t, idx, msgs, msgsEnd, sends)) {
    in.unproven |= kPerPeerValue;
    in.note = "a " + std::to_string(first.bytes) + "-byte value the root sent every member from a "
              "loop that sent each member, through another call site, a value that differs from "
              "member to member";
  } else if (strength == Strength::Small && !inPlace) {
    in.unproven |= kSmallValue;
    in.note = "a " + std::to_string(first.bytes) + "-byte value passed on from other buffers "
              "than it arrived in";
  } else if (!inPlace) {
    // Equal data leaving a rank from another buffer than it arrived in
    // proves no path: a 2x2 halo exchange of a symmetric field sends each
    // neighbour a strip equal to the one it received, from its interior.
    in.unproven |= kRelayCopied;
    in.note = "relays sent the data on from other buffers than they received it in";
  }
  in.participants = participants;
  in.messages.assign(msgs, msgsEnd);
}

// Has a receive of `rank` before position `before` (from h.next on)
// written into h's range?
bool overwritten(const MessageTable &t, const RankActivity &idx, uint32_t rank, Holding &h,
                 uint32_t before) {
  if (h.overwritten) return true;
  const std::vector<Receipt> &v = idx.receipts(rank);
  if (h.next == Holding::kFromSince) h.next = idx.firstReceiptAfter(rank, h.since);
  for (; h.next < v.size() && v[h.next].pos < before; h.next++) {
    const Message &r = t.messages[v[h.next].msg];
    if (r.bytes && r.recvAddress < h.address + h.bytes && h.address < r.recvAddress + r.bytes)
      return h.overwritten = true;
  }
  return false;
}

// Has `rank` sent, before position `before` (from h.nextSend on), other
// bytes than the item from exactly h's range (same address and size)?
// Then the program wrote the range in between, and a later send of the
// item from it is the same bytes made again, not the held copy: a
// ping-pong client that stamps each ping in one buffer sends every server
// the ping of iteration i, which no broadcast joins. Only the very range
// counts: a piece of a held panel sent on its own is no rewrite.
bool resentOther(const MessageTable &t, const RankActivity &idx, uint32_t rank, Holding &h,
                 uint32_t itemCrc, uint32_t before) {
  if (h.overwritten) return true;
  if (h.nextSend == UINT32_MAX) h.nextSend = idx.firstSendAt(rank, h.since);
  for (; h.nextSend < t.messages.size(); h.nextSend++) {
    const Message &s = t.messages[h.nextSend];
    if (s.src != rank || s.sendPos >= before) break;
    if (s.hashed && s.crc != itemCrc && s.sendAddress == h.address && s.bytes == h.bytes)
      return h.overwritten = true;
  }
  return false;
}

// Instances of one item's messages (see the header comment), as runs of
// sc.flat: instance k is [sc.start[k], sc.start[k + 1]).
// instanceOf: scratch indexed by message (a send's entry is written before
// its receive reads it, so it needs no clearing between items).
void splitInstances(const MessageTable &t, const RankActivity &idx,
                    const std::vector<uint32_t> &msgs, std::vector<uint32_t> &instanceOf,
                    Scratch &sc) {
  timeOrder(t, msgs, sc.steps);
  std::vector<uint32_t> &rootOf = sc.rootOf, &parent = sc.parent; // union-find over instances
  rootOf.clear(), parent.clear(), sc.pushed.clear();
  for (uint32_t r : sc.touched) sc.instancesAt[r].clear();
  sc.touched.clear();
  sc.holds.reset();
  std::vector<uint32_t> &of = instanceOf; // message -> instance
  bool merged = false;
  auto find = [&](uint32_t x) { return findSet(parent, x); };
  // A rank has the item in instance j when it has it in an instance merged
  // into j (merges need no copying).
  auto has = [&](uint32_t j, uint32_t rank) {
    for (uint32_t x : sc.instancesAt[rank])
      if (find(x) == j) return true;
    return false;
  };
  auto add = [&](uint32_t j, uint32_t rank) {
    std::vector<uint32_t> &v = sc.instancesAt[rank];
    if (v.empty()) sc.touched.push_back(rank);
    v.push_back(j);
  };
  for (const Step &st : sc.steps) {
    const Message &m = t.messages[st.msg];
    if (!st.isSend) {
      uint32_t j = find(of[st.msg]);
      if (sc.holds.has(m.dst)) {
        uint32_t i = find(sc.holds.get(m.dst));
        // A root receiving its own data from another root: both started
        // the same broadcast (a redundant message); one instance. Not when
        // the other root had received the item from this root's instance
        // before: then it started a later occurrence of the same payload.
        if (rootOf[i] == m.dst && i != j && !has(i, rootOf[j]) &&
            !overwritten(t, idx, m.dst, sc.holding[m.dst], m.recvPos))
          parent[i] = j, merged = true;
      }
      sc.holds.set(m.dst, j);
      sc.holding[m.dst] = {m.recvAddress, m.bytes, idx.receiptOf(st.msg) + 1, m.recvPos, false, false};
      if (!has(j, m.dst)) add(j, m.dst);
      continue;
    }
    uint32_t in = 0;
    // A root sends its broadcast from one buffer: the same payload sent
    // from another one is a new occurrence (rank 0's ring block equal to
    // the bcast it just started, in the bench).
    bool fresh = !sc.holds.has(m.src);
    if (!fresh) {
      Holding &h = sc.holding[m.src];
      in = find(sc.holds.get(m.src));
      fresh = has(in, m.dst) || (h.own && h.address != m.sendAddress) ||
              overwritten(t, idx, m.src, h, m.sendPos) ||
              resentOther(t, idx, m.src, h, m.crc, m.sendPos);
    }
    if (fresh) {
      in = uint32_t(rootOf.size());
      rootOf.push_back(m.src);
      parent.push_back(in);
      add(in, m.src);
      sc.holds.set(m.src, in);
      sc.holding[m.src] = {m.sendAddress, m.bytes, Holding::kFromSince, m.sendPos, false, true};
    }
    sc.pushed.push_back({in, st.msg});
    of[st.msg] = in;
  }
  // Merged instances: messages go to their representative, in the order
  // of the instances merged into it, each in step order.
  const uint32_t n = uint32_t(rootOf.size());
  sc.start.assign(n + 1, 0);
  for (auto &[in, msg] : sc.pushed) sc.start[in + 1]++; // per instance
  for (uint32_t k = 0; k < n; k++) sc.start[k + 1] += sc.start[k];
  sc.fill.assign(sc.start.begin(), sc.start.end() - 1);
  // Without merges (most items) the instances' runs are the answer.
  std::vector<uint32_t> &byInstance = merged ? sc.byInstance : sc.flat;
  byInstance.resize(sc.pushed.size());
  for (auto &[in, msg] : sc.pushed) byInstance[sc.fill[in]++] = msg;
  if (!merged) return;
  std::vector<uint32_t> &repStart = sc.repStart; // per representative
  repStart.assign(n + 1, 0);
  for (uint32_t k = 0; k < n; k++) repStart[find(k) + 1] += sc.start[k + 1] - sc.start[k];
  for (uint32_t k = 0; k < n; k++) repStart[k + 1] += repStart[k];
  sc.flat.resize(sc.pushed.size());
  sc.fill.assign(repStart.begin(), repStart.end() - 1);
  for (uint32_t k = 0; k < n; k++) {
    uint32_t r = find(k);
    for (uint32_t x = sc.start[k]; x < sc.start[k + 1]; x++) sc.flat[sc.fill[r]++] = byInstance[x];
  }
  std::swap(sc.start, repStart); // empty runs: representatives that got nothing
}

} // namespace

void findSpreads(const MessageTable &t, const DetectOptions &o, const RankActivity &idx,
                 const std::vector<uint8_t> &claimed, std::vector<Instance> &out) {
  // Items in the map's order (the order instances come out in), their
  // messages in table order as runs of one array (a vector per item cost
  // more than the items' analysis).
  std::unordered_map<ItemKey, uint32_t, ItemHash> items; // -> item number
  std::vector<uint32_t> itemOf(t.messages.size(), kNone), itemStart;
  // The ranks the items' messages name, for the scratch (no second pass
  // over the table).
  size_t ranks = size_t(std::max(t.ranks, 0));
  for (uint32_t i = 0; i < t.messages.size(); i++) {
    const Message &m = t.messages[i];
    if (claimed[i] || !m.hashed || m.bytes == 0) continue;
    ranks = std::max<size_t>(ranks, std::max(m.src, m.dst) + size_t(1));
    auto [it, fresh] = items.try_emplace(ItemKey{m.crc, m.comm, m.bytes}, uint32_t(itemStart.size()));
    if (fresh) itemStart.push_back(0);
    itemOf[i] = it->second;
    itemStart[it->second]++;
  }
  itemStart.push_back(0); // counts -> where each item's run starts, and the end
  uint32_t at = 0;
  for (uint32_t &c : itemStart) {
    uint32_t count = c;
    c = at;
    at += count;
  }
  std::vector<uint32_t> itemMessages(itemStart.back());
  {
    std::vector<uint32_t> fill(itemStart.begin(), itemStart.end() - 1);
    for (uint32_t i = 0; i < t.messages.size(); i++)
      if (itemOf[i] != kNone) itemMessages[fill[itemOf[i]]++] = i;
  }
  // (itemOf is done with: its memory serves, uncleared, as instanceOf.)
  std::vector<uint32_t> instanceOf = std::move(itemOf), msgs;
  Scratch sc(ranks);
  PayloadStrength strengths;
  // Items in the map's order; the messages of the item after next are
  // fetched while this one is analysed (an item's messages lie all over
  // the table).
  std::vector<uint32_t> order;
  order.reserve(items.size());
  for (auto &[key, item] : items)
    if (itemStart[item + 1] - itemStart[item] + 1 >= uint32_t(std::max(o.minGroup, 0))) order.push_back(item);
  for (size_t k = 0; k < order.size(); k++) {
    if (k + 2 < order.size())
      for (uint32_t x = itemStart[order[k + 2]]; x < itemStart[order[k + 2] + 1]; x++)
        __builtin_prefetch(&t.messages[itemMessages[x]]);
    uint32_t item = order[k];
    msgs.assign(itemMessages.begin() + itemStart[item], itemMessages.begin() + itemStart[item + 1]);
    Strength strength = strengths.of(t.messages[msgs[0]]);
    splitInstances(t, idx, msgs, instanceOf, sc);
    for (size_t k = 0; k + 1 < sc.start.size(); k++)
      if (sc.start[k] < sc.start[k + 1])
        analyzeInstance(t, o, idx, strength, sc.flat.data() + sc.start[k],
                        sc.flat.data() + sc.start[k + 1], sc, out);
  }
}

} // namespace cz::detect::detail
