// long_bcast.cpp: van de Geijn's long broadcast, proven.
//
// Pattern (HPL's BCAST 4, HPL_blong; MPICH's scatter + allgather bcast):
// the root splits its buffer into one piece per member (piece k for the
// member at ring distance k), spreads them with a binary exchange (the
// root sends a run of consecutive pieces to a partner, which forwards
// parts of it), then every member rolls the pieces around the ring. BCAST
// 5 (HPL_blonM) first sends the whole buffer to the root's neighbour, and
// the other members spread and roll without it.
//
// The spreads analysis sees each piece as an item of its own (rooted at
// its member, or where it was first sent whole); the runs the spread sent
// never travel as items. Proof: with the roll's pieces (CRC, length) in
// ring order from a candidate root R, a message whose CRC is the
// crc32_combine of a run of consecutive pieces carries that run; R may
// send any run, any other rank only a run inside one it had received
// before. If every member's own piece reached it that way before it first
// sent it in the roll, every piece is R's data, and the roll gave every
// piece to every member: every member ends with R's buffer, a bcast from R
// (count: all the pieces).
// Members outside the roll that received the whole buffer from R (one
// message, the combine of all pieces) belong to it too; a rank outside
// the roll that handed R the whole buffer just before is the root (R a
// helper spreading what it received). Constant fills prove no
// path (the rolls' items are then unproven and never taken here), and an
// empty piece (fewer elements than members) makes no item: those stay
// what the other rules made of them (scattered_first).
#include "long_bcast.h"

#include <zlib.h>

#include <algorithm>
#include <iterator>
#include <map>
#include <numeric>

#include "collectivize_trace_format.h"
#include "detect_internal.h"
#include "instances_in_time.h"
#include "payload_strength.h"
#include "rank_activity.h"

namespace cz::detect::detail {

namespace {

// Where a member takes part in an instance: its first and last event.
struct Span {
  uint32_t lo = UINT32_MAX, hi = 0;
};

// Each instance's span at each member (`members` sorted): out[q] lists
// (span, k) for the instances idx[k] that member q takes part in, in idx
// order. One pass over the messages (a pass per member was the detector's
// slowest step on traces of thousands of broadcasts).
std::vector<std::vector<std::pair<Span, size_t>>> spansByMember(const MessageTable &t,
                                                                 const std::vector<Instance> &all,
                                                                 const std::vector<size_t> &idx,
                                                                 const std::vector<uint32_t> &members) {
  std::vector<std::vector<std::pair<Span, size_t>>> out(members.size());
  std::vector<Span> now(members.size());
  std::vector<size_t> touched;
  // Member index by rank (a search per message end was most of the pass).
  std::vector<uint32_t> slot(members.empty() ? 0 : size_t(members.back()) + 1, UINT32_MAX);
  for (size_t q = 0; q < members.size(); q++) slot[members[q]] = uint32_t(q);
  auto note = [&](uint32_t rank, uint32_t pos) {
    if (rank >= slot.size() || slot[rank] == UINT32_MAX) return;
    const size_t q = slot[rank];
    Span &s = now[q];
    if (s.lo == UINT32_MAX) touched.push_back(q);
    s.lo = std::min(s.lo, pos), s.hi = std::max(s.hi, pos);
  };
  for (size_t k = 0; k < idx.size(); k++) {
    for (uint32_t i : all[idx[k]].messages) {
      const Message &m = t.messages[i];
      note(m.src, m.sendPos);
      note(m.dst, m.recvPos);
    }
    for (size_t q : touched) out[q].push_back({now[q], k}), now[q] = Span{};
    touched.clear();
  }
  return out;
}

// The first send of `rank` at a position >= `pos` (the table is ordered by
// sender, then send position; past the rank's sends: another sender's).
std::vector<Message>::const_iterator firstSendAt(const MessageTable &t,
                                                 const RankActivity &activity, uint32_t rank,
                                                 uint32_t pos) {
  return t.messages.begin() + activity.firstSendAt(rank, pos);
}

// Instances of one roll: at every member their events follow each other
// with no other message of the communicator between them (consecutive
// broadcasts are parted at each member by the next one's spread, or by
// whatever the program does between them).
std::vector<std::vector<size_t>> rolls(const MessageTable &t, const RankActivity &activity,
                                       const std::vector<Instance> &all,
                                       const std::vector<size_t> &idx) {
  const uint32_t comm = all[idx[0]].comm;
  std::vector<uint8_t> theirs(t.messages.size(), 0);
  std::vector<uint32_t> members;
  for (size_t k : idx) {
    for (uint32_t i : all[k].messages) theirs[i] = 1;
    members.insert(members.end(), all[k].participants.begin(), all[k].participants.end());
  }
  std::sort(members.begin(), members.end());
  members.erase(std::unique(members.begin(), members.end()), members.end());
  auto foreign = [&](uint32_t i) { return t.messages[i].comm == comm && !theirs[i]; };
  // A message of `rank` on the communicator, none of these instances',
  // between positions `after` and `before`. Asked with growing positions
  // per rank: the receipts and sends are walked once, not searched for
  // each gap.
  size_t nextReceipt = 0, nextSend = 0;
  auto foreignBetween = [&](uint32_t rank, uint32_t after, uint32_t before) {
    const std::vector<Receipt> &got = activity.receipts(rank);
    while (nextReceipt < got.size() && got[nextReceipt].pos <= after) nextReceipt++;
    for (size_t j = nextReceipt; j < got.size() && got[j].pos < before; j++)
      if (foreign(got[j].msg)) return true;
    while (nextSend < t.messages.size() && t.messages[nextSend].src == rank &&
           t.messages[nextSend].sendPos <= after)
      nextSend++;
    for (size_t i = nextSend; i < t.messages.size() && t.messages[i].src == rank &&
                              t.messages[i].sendPos < before;
         i++)
      if (foreign(uint32_t(i))) return true;
    return false;
  };
  std::vector<size_t> parent(idx.size());
  std::iota(parent.begin(), parent.end(), 0);
  auto find = [&](size_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  std::vector<std::vector<std::pair<Span, size_t>>> spansAt = spansByMember(t, all, idx, members);
  for (size_t qi = 0; qi < members.size(); qi++) {
    const uint32_t q = members[qi];
    std::vector<std::tuple<uint32_t, uint32_t, size_t>> spans;
    for (const auto &[s, k] : spansAt[qi]) spans.emplace_back(s.lo, s.hi, k);
    std::sort(spans.begin(), spans.end());
    nextReceipt = 0, nextSend = activity.firstSendAt(q, 0);
    uint32_t hi = 0;
    size_t head = SIZE_MAX;
    for (auto &[lo, h, k] : spans) {
      if (head != SIZE_MAX && (lo <= hi || !foreignBetween(q, hi, lo))) parent[find(k)] = find(head);
      else head = k, hi = 0;
      hi = std::max(hi, h);
    }
  }
  std::map<size_t, std::vector<size_t>> groups;
  for (size_t k = 0; k < idx.size(); k++) groups[find(k)].push_back(idx[k]);
  std::vector<std::vector<size_t>> out;
  for (auto &[root, members] : groups) out.push_back(std::move(members));
  return out;
}

// A roll read from its instances: the pieces (an item the spreads analysis
// may have split into several instances, one per rank it seemed to start
// at), each reaching every member; each member's own piece.
//
// In a roll every member sends n - 1 pieces, its own first; what it sent
// before were runs of the spread it passed on. The instances may leave out
// a roll's last hops (to the rank a piece seemed to start at), so each
// member's sends are read from the table: from its first event in the roll
// on, as long as they carry one of the pieces. A wrong guess of the owners
// only makes the proof fail: the CRCs decide.
struct RollPiece {
  Piece item;
  uint32_t owner = kNone, ownerFirstSend = UINT32_MAX;
  uint32_t firstMessage = 0; // one of its messages (its datatype and count)
};
struct Roll {
  uint32_t comm = 0;
  std::vector<uint32_t> members;  // sorted
  std::vector<RollPiece> pieces;
  std::vector<uint32_t> messages; // the pieces' messages, sorted
  std::map<uint32_t, Span> spans; // per member, its events in the roll
  // Per member (members' order), its first receipt among the messages
  // (UINT32_MAX: none): read once, not once per candidate root.
  std::vector<uint32_t> firstReceipt;
};

bool readRoll(const MessageTable &t, const RankActivity &activity, const std::vector<Instance> &all,
              const std::vector<size_t> &idx, Roll &r) {
  r = Roll{};
  r.comm = all[idx[0]].comm;
  std::map<std::pair<uint32_t, uint64_t>, size_t> pieceOf; // (crc, bytes) -> piece
  std::vector<std::vector<uint32_t>> reached;
  for (size_t k : idx) {
    const Instance &in = all[k];
    auto [it, fresh] = pieceOf.try_emplace({in.itemCrc, in.bytes}, r.pieces.size());
    if (fresh) {
      r.pieces.push_back({{in.itemCrc, in.bytes}, kNone, UINT32_MAX, in.messages[0]});
      reached.emplace_back();
    }
    reached[it->second].insert(reached[it->second].end(), in.participants.begin(), in.participants.end());
    r.members.insert(r.members.end(), in.participants.begin(), in.participants.end());
    r.messages.insert(r.messages.end(), in.messages.begin(), in.messages.end());
  }
  std::sort(r.members.begin(), r.members.end());
  r.members.erase(std::unique(r.members.begin(), r.members.end()), r.members.end());
  const size_t n = r.members.size();
  if (n < 3 || r.pieces.size() != n) return false;
  for (std::vector<uint32_t> &got : reached) { // every piece reached every member
    std::sort(got.begin(), got.end());
    got.erase(std::unique(got.begin(), got.end()), got.end());
    if (got != r.members) return false;
  }
  std::vector<std::vector<std::pair<Span, size_t>>> spansAt = spansByMember(t, all, idx, r.members);
  for (size_t qi = 0; qi < r.members.size(); qi++) {
    const uint32_t q = r.members[qi];
    Span &span = r.spans[q];
    for (const auto &[s, k] : spansAt[qi]) span.lo = std::min(span.lo, s.lo), span.hi = std::max(span.hi, s.hi);
    std::vector<std::pair<uint32_t, size_t>> sent; // (send position, piece)
    for (auto it = firstSendAt(t, activity, q, span.lo); it != t.messages.end() && it->src == q; ++it) {
      if (it->comm != r.comm) continue;
      auto p = pieceOf.find({it->crc, it->bytes});
      if (p == pieceOf.end() || !it->hashed || sent.size() == 4 * n) break;
      sent.push_back({it->sendPos, p->second});
      r.messages.push_back(uint32_t(it - t.messages.begin()));
      span.hi = std::max(span.hi, it->sendPos);
    }
    if (sent.size() < n - 1) return false;
    const auto &[pos, own] = sent[sent.size() - (n - 1)];
    if (r.pieces[own].owner != kNone) return false; // two owners of one piece
    r.pieces[own].owner = q, r.pieces[own].ownerFirstSend = pos;
  }
  std::sort(r.messages.begin(), r.messages.end());
  r.messages.erase(std::unique(r.messages.begin(), r.messages.end()), r.messages.end());
  r.firstReceipt.assign(n, UINT32_MAX);
  for (uint32_t i : r.messages) {
    const Message &m = t.messages[i];
    auto q = std::lower_bound(r.members.begin(), r.members.end(), m.dst);
    if (q != r.members.end() && *q == m.dst) {
      uint32_t &first = r.firstReceipt[size_t(q - r.members.begin())];
      first = std::min(first, m.recvPos);
    }
  }
  return true;
}

// The roll as a bcast from R when the spread proves it (see the file's
// comment).
bool proveFrom(const MessageTable &t, const RankActivity &activity,
               const std::vector<uint8_t> &claimed, const Roll &roll, uint32_t R, Instance &out) {
  // R sends the spread before it hears anything of the roll, and after its
  // last receive on the communicator before it (the previous broadcast).
  const uint32_t rootFirst = roll.spans.at(R).lo;
  const uint32_t rootTo = roll.firstReceipt[size_t(
      std::lower_bound(roll.members.begin(), roll.members.end(), R) - roll.members.begin())];
  if (rootTo == UINT32_MAX) return false;
  uint32_t rootFrom = 0, before = kNone; // the receipt before, if any
  const std::vector<Receipt> &got = activity.receipts(R);
  for (size_t j = rootFirst ? activity.firstReceiptAfter(R, rootFirst - 1) : 0; j-- > 0;)
    if (t.messages[got[j].msg].comm == roll.comm) {
      rootFrom = got[j].pos + 1;
      before = got[j].msg;
      break;
    }
  // Nothing but its own piece leaves R before the roll reaches it (a ring
  // allgather: every member starts with its own): no member can have got
  // its piece from R's spread. Checked first: it spares the chain's walk
  // for each candidate root of every such roll.
  const RollPiece *own = nullptr;
  for (const RollPiece &p : roll.pieces)
    if (p.owner == R) own = &p;
  if (!own) return false;
  bool spreadsMore = false;
  for (auto it = firstSendAt(t, activity, R, rootFrom);
       !spreadsMore && it != t.messages.end() && it->src == R && it->sendPos < rootTo; ++it)
    spreadsMore = it->comm == roll.comm && it->bytes && it->hashed && it->dst != R &&
                  !(it->crc == own->item.crc && it->bytes == own->item.bytes);
  if (!spreadsMore) return false;
  const Group *g = t.group(roll.comm);
  const int size = int(g->members.size()), rootPos = rankIn(*g, R);
  // Slots in ring order from R; slot s holds its member's own piece.
  std::vector<std::pair<int, size_t>> bySlot;
  bySlot.reserve(roll.pieces.size()); // (grown: a few allocations per candidate root)
  for (size_t k = 0; k < roll.pieces.size(); k++)
    bySlot.push_back({(rankIn(*g, roll.pieces[k].owner) - rootPos + size) % size, k});
  std::sort(bySlot.begin(), bySlot.end());
  const size_t n = bySlot.size();
  std::vector<uint32_t> slotRank(n), forwardTo(n), ownFirstSend(n);
  std::vector<Piece> pieces(n);
  for (size_t s = 0; s < n; s++) {
    const RollPiece &p = roll.pieces[bySlot[s].second];
    slotRank[s] = p.owner;
    pieces[s] = p.item;
    ownFirstSend[s] = p.ownerFirstSend;
    forwardTo[s] = roll.spans.at(p.owner).hi + 1;
  }
  auto sendsBetween = [&](uint32_t rank, uint32_t from, uint32_t to, std::vector<uint32_t> &sends) {
    sends.clear();
    for (auto it = firstSendAt(t, activity, rank, from);
         it != t.messages.end() && it->src == rank && it->sendPos < to; ++it) {
      uint32_t i = uint32_t(it - t.messages.begin());
      // Unexplained, or a piece's own message (a run of one piece is one).
      if (it->comm == roll.comm &&
          (!claimed[i] || std::binary_search(roll.messages.begin(), roll.messages.end(), i)))
        sends.push_back(i);
    }
  };
  SpreadChain chain = followSpread(t, slotRank, pieces, rootFrom, rootTo, forwardTo, sendsBetween);
  for (size_t s = 1; s < n; s++)
    if (chain.ownAt[s] == kNone || chain.ownAt[s] >= ownFirstSend[s]) return false;

  out = Instance{};
  out.kind = Kind::Bcast;
  out.comm = roll.comm;
  out.rootWorld = R;
  out.participants = roll.members;
  // A root outside the roll that handed R the whole buffer just before (R
  // spreads what it received in one message: the whole, the pieces' CRCs
  // combined in ring order from R).
  uint32_t whole = pieces[0].crc;
  uint64_t total = 0;
  for (size_t s = 0; s < n; s++) {
    total += pieces[s].bytes;
    if (s) whole = uint32_t(crc32_combine64(whole, pieces[s].crc, z_off64_t(pieces[s].bytes)));
  }
  bool handed = false;
  if (before != kNone) {
    const Message &h = t.messages[before];
    handed = !claimed[before] && h.hashed && h.bytes == total && h.crc == whole &&
             rankIn(*g, h.src) >= 0 &&
             !std::binary_search(roll.members.begin(), roll.members.end(), h.src);
    if (handed) out.rootWorld = h.src, out.participants.push_back(h.src);
  }
  for (uint32_t w : chain.wholeTo)
    if (rankIn(*g, w) >= 0) out.participants.push_back(w);
  std::sort(out.participants.begin(), out.participants.end());
  out.participants.erase(std::unique(out.participants.begin(), out.participants.end()),
                         out.participants.end());
  // The first piece's message first: its datatype is the call's.
  const Message &first = t.messages[roll.pieces[bySlot[0].second].firstMessage];
  bool typed = true; // every piece sent as elements of one predefined type
  out.itemCrc = whole;
  out.bytes = total;
  for (size_t s = 0; s < n; s++) {
    const Message &m = t.messages[roll.pieces[bySlot[s].second].firstMessage];
    typed = typed && m.sendType != CZ_TRACE_TYPE_DERIVED && m.sendType == first.sendType;
    out.count += m.sendCount;
  }
  if (!typed) { // pieces of a derived type (HPL's panels): the count in bytes
    out.blockBytesAsType = true;
    out.count = out.bytes;
  }
  out.messages.push_back(roll.pieces[bySlot[0].second].firstMessage);
  std::set_union(roll.messages.begin(), roll.messages.end(), chain.used.begin(), chain.used.end(),
                 std::back_inserter(out.messages));
  out.messages.erase(std::find(out.messages.begin() + 1, out.messages.end(), out.messages[0]));
  if (handed) out.messages.push_back(before);
  // The spread and the roll may use tags of their own: the CRCs relate
  // their messages, not equal payloads that might be unrelated.
  out.oneTag = true;
  out.note = "a long broadcast: the root's buffer spread in runs of its " + std::to_string(n) +
             " pieces (each message's CRC the pieces' CRCs combined), then the pieces rolled "
             "around the ring";
  if (!chain.wholeTo.empty())
    out.note += "; the whole buffer first sent to " + std::to_string(chain.wholeTo.size()) +
                " more rank" + (chain.wholeTo.size() > 1 ? "s" : "");
  if (handed) out.note += "; the root handed the whole buffer to the spread's first rank";
  return true;
}

// The first send and last receive time of an instance's messages.
std::pair<uint64_t, uint64_t> timeSpan(const MessageTable &t, const Instance &in) {
  std::pair<uint64_t, uint64_t> span{UINT64_MAX, 0};
  for (uint32_t i : in.messages) {
    span.first = std::min(span.first, t.messages[i].sendTime);
    span.second = std::max(span.second, t.messages[i].recvTime);
  }
  return span;
}

// A cluster of more instances than members holds several rolls whose
// members never heard from the program in between: cut it where they
// follow each other. Every piece of a roll starts before any piece of the
// next one (the next root heard every piece before it sends), so in start
// order a roll ends where the next instance's first sender had every piece
// of the instances before it.
// (spans: each instance's timeSpan.)
std::vector<std::vector<size_t>> consecutiveRolls(const MessageTable &t,
                                                  const std::vector<Instance> &all,
                                                  const std::vector<std::pair<uint64_t, uint64_t>> &spans,
                                                  std::vector<size_t> group) {
  std::sort(group.begin(), group.end(),
            [&](size_t a, size_t b) { return spans[a].first < spans[b].first; });
  auto firstSendBy = [&](const Instance &in, uint32_t rank) {
    uint32_t pos = UINT32_MAX;
    for (uint32_t i : in.messages)
      if (t.messages[i].src == rank) pos = std::min(pos, t.messages[i].sendPos);
    return pos;
  };
  auto had = [&](const Instance &in, uint32_t rank, uint32_t before) {
    for (uint32_t i : in.messages) {
      const Message &m = t.messages[i];
      if ((m.src == rank && m.sendPos < before) || (m.dst == rank && m.recvPos < before)) return true;
    }
    return false;
  };
  std::vector<std::vector<size_t>> out(1);
  for (size_t k : group) {
    const Instance &next = all[k];
    uint32_t pos = firstSendBy(next, next.rootWorld);
    bool cut = !out.back().empty() && pos != UINT32_MAX;
    for (size_t j : out.back())
      if (cut && !had(all[j], next.rootWorld, pos)) cut = false;
    if (cut) out.emplace_back();
    out.back().push_back(k);
  }
  return out;
}

} // namespace

void findLongBcasts(const MessageTable &t, const RankActivity &activity,
                    std::vector<uint8_t> &claimed, std::vector<Instance> &instances) {
  // The pieces: bcast items with distinct payloads, proven on their own;
  // grouped by the members they reached (a piece the spreads analysis saw
  // start at two ranks reaches a part of them in each instance).
  std::map<std::pair<uint32_t, std::vector<uint32_t>>, std::vector<size_t>> byGroup;
  std::map<uint32_t, InstancesInTime> parts; // per communicator
  // Per communicator, the candidates' member counts (sorted below): how
  // many could be a part of a piece of a roll of n members (fewer members).
  std::map<uint32_t, std::vector<size_t>> memberCounts;
  PayloadStrength strength;
  // Each candidate's time span, once (the rolls' splitting and the pieces
  // seen in parts ask it again and again; each a walk over its messages).
  std::vector<std::pair<uint64_t, uint64_t>> spans(instances.size());
  for (size_t k = 0; k < instances.size(); k++) {
    const Instance &in = instances[k];
    if (in.kind != Kind::Bcast || in.participants.size() < 2 || in.unproven || in.shapeOnly ||
        in.repeats != 1 || in.segments != 1 || in.bytes == 0 || in.messages.empty())
      continue;
    const Group *g = t.group(in.comm);
    if (!g || g->members.empty() ||
        strength.of(t.messages[in.messages[0]]) != Strength::Distinct)
      continue;
    byGroup[{in.comm, in.participants}].push_back(k);
    spans[k] = timeSpan(t, in);
    parts[in.comm].add(spans[k], k);
    memberCounts[in.comm].push_back(in.participants.size());
  }
  for (auto &[comm, p] : parts) p.sort();
  for (auto &[comm, counts] : memberCounts) std::sort(counts.begin(), counts.end());
  // Instances on fewer than n members in the communicator: the most parts
  // a group of a roll of n members can take in.
  auto partsAtMost = [&](uint32_t comm, size_t n) {
    const std::vector<size_t> &counts = memberCounts[comm];
    return size_t(std::lower_bound(counts.begin(), counts.end(), n) - counts.begin());
  };
  std::vector<uint8_t> gone(instances.size(), 0);
  std::vector<Instance> found;
  for (auto &[key, idx] : byGroup) {
    const std::vector<uint32_t> &members = key.second;
    if (members.size() < 3) continue;
    std::vector<std::vector<size_t>> groups;
    for (std::vector<size_t> &group : rolls(t, activity, instances, idx)) {
      if (group.size() <= members.size()) groups.push_back(std::move(group));
      else
        for (std::vector<size_t> &part : consecutiveRolls(t, instances, spans, std::move(group)))
          groups.push_back(std::move(part));
    }
    for (std::vector<size_t> group : groups) {
      if (group.size() > members.size()) continue;
      // A roll has one piece per member, each piece at least one
      // instance: a group that cannot reach that many instances is none
      // (a bcast between two rolls, thousands of them on some traces).
      if (group.size() + partsAtMost(key.first, members.size()) < members.size()) continue;
      if (group.size() < members.size()) {
        // Pieces seen in parts: instances on a part of these members
        // during the roll.
        uint64_t from = UINT64_MAX, to = 0;
        for (size_t k : group) {
          auto [a, b] = spans[k];
          from = std::min(from, a), to = std::max(to, b);
        }
        size_t before = group.size();
        for (size_t k : parts[key.first].overlapping(from, to)) {
          const Instance &in = instances[k];
          if (!gone[k] && in.participants.size() < members.size() &&
              std::includes(members.begin(), members.end(), in.participants.begin(),
                            in.participants.end()))
            group.push_back(k);
        }
        std::sort(group.begin() + ptrdiff_t(before), group.end()); // in instance order
        // Only pieces whose parts reach every member (a part of a piece of
        // the next roll may overlap this one in time).
        std::map<std::pair<uint32_t, uint64_t>, std::vector<uint32_t>> reach;
        for (size_t k : group) {
          std::vector<uint32_t> &r = reach[{instances[k].itemCrc, instances[k].bytes}];
          r.insert(r.end(), instances[k].participants.begin(), instances[k].participants.end());
        }
        for (auto &[item, r] : reach) {
          std::sort(r.begin(), r.end());
          r.erase(std::unique(r.begin(), r.end()), r.end());
        }
        group.erase(std::remove_if(group.begin(), group.end(),
                                   [&](size_t k) {
                                     return reach[{instances[k].itemCrc, instances[k].bytes}] !=
                                            members;
                                   }),
                    group.end());
      }
      if (group.size() < members.size()) continue; // fewer pieces than members
      Roll roll;
      if (!readRoll(t, activity, instances, group, roll) || roll.members != members) continue;
      Instance bcast;
      bool proven = false;
      for (uint32_t R : roll.members)
        if ((proven = proveFrom(t, activity, claimed, roll, R, bcast))) break;
      if (!proven) continue;
      for (size_t k : group) gone[k] = 1;
      for (uint32_t i : bcast.messages) claimed[i] = 1;
      found.push_back(std::move(bcast));
    }
  }
  if (found.empty()) return;
  size_t w = 0;
  for (size_t k = 0; k < instances.size(); k++)
    if (!gone[k]) {
      if (w != k) instances[w] = std::move(instances[k]);
      w++;
    }
  instances.resize(w);
  for (Instance &in : found) instances.push_back(std::move(in));
}

} // namespace cz::detect::detail
