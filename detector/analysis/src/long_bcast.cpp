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
#include <set>

#include "collectivize_trace_format.h"
#include "detect_internal.h"
#include "instances_in_time.h"
#include "payload_strength.h"
#include "rank_activity.h"

namespace cz::detect::detail {

namespace {

// The first send of `rank` at a position >= `pos` (the table is ordered by
// sender, then send position; past the rank's sends: another sender's).
std::vector<Message>::const_iterator firstSendAt(const MessageTable &t,
                                                 const RankActivity &activity, uint32_t rank,
                                                 uint32_t pos) {
  return t.messages.begin() + activity.firstSendAt(rank, pos);
}


// R's last receipt on the communicator before its position `first` (the
// previous broadcast's): kNone if none; `from` the position after it (0).
uint32_t receiptBefore(const MessageTable &t, const RankActivity &activity, uint32_t R,
                       uint32_t first, uint32_t comm, uint32_t &from) {
  const std::vector<Receipt> &got = activity.receipts(R);
  from = 0;
  for (size_t j = first ? activity.firstReceiptAfter(R, first - 1) : 0; j-- > 0;)
    if (t.messages[got[j].msg].comm == comm) {
      from = got[j].pos + 1;
      return got[j].msg;
    }
  return kNone;
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
  std::vector<uint32_t> messages; // the pieces' messages (some twice)
  const std::vector<uint8_t> *inRoll = nullptr; // per table message: one of them
  // Per member (members' order): its events in the roll, its first receipt
  // among the messages (UINT32_MAX: none) and the piece it owns; read once,
  // not once per candidate root.
  std::vector<Span> spans;
  std::vector<uint32_t> firstReceipt, ownPiece;
  std::vector<uint8_t> mayRoot; // RollReader::anyRoot
  // The pieces in ring order (by their owners' ranks in the group) and the
  // sums of their lengths twice around the ring (sums[j]: the first j):
  // which (length, CRC) a run of consecutive pieces can have does not
  // depend on where the ring starts, so it is asked of this, not of each
  // candidate root's slots. ringKnown false: an owner outside the group.
  std::vector<Piece> ring;
  std::vector<uint64_t> sums;
  bool ringKnown = false;

  bool has(uint32_t message) const { return (*inRoll)[message]; }
  size_t memberOf(uint32_t rank) const {
    return size_t(std::lower_bound(members.begin(), members.end(), rank) - members.begin());
  }
  // The message's length and CRC are those of some run of consecutive
  // pieces (any start, 1 to n pieces; true when the ring is unknown).
  bool mayCarryRun(const Message &m) const {
    if (!ringKnown) return true;
    const size_t n = ring.size();
    for (size_t a = 0; a < n; a++) {
      auto end = sums.begin() + ptrdiff_t(a + n + 1);
      auto at = std::lower_bound(sums.begin() + ptrdiff_t(a + 1), end, sums[a] + m.bytes);
      if (at == end || *at != sums[a] + m.bytes) continue;
      const size_t len = size_t(at - (sums.begin() + ptrdiff_t(a)));
      uint32_t crc = ring[a].crc;
      for (size_t i = 1; i < len; i++) {
        const Piece &next = ring[(a + i) % n];
        crc = uint32_t(crc32_combine64(crc, next.crc, z_off64_t(next.bytes)));
      }
      if (crc == m.crc) return true;
    }
    return false;
  }
};

// Reads rolls of one member set (set by setMembers), its scratch kept from
// roll to roll: a trace of thousands of ring allgathers reads each as a
// roll, and maps and fresh vectors per roll were most of that.
class RollReader {
public:
  RollReader(const MessageTable &t, const RankActivity &activity, const std::vector<Instance> &all)
      : t_(t), activity_(activity), all_(all), inRoll_(t.messages.size(), 0) {}
  void setMembers(const std::vector<uint32_t> &members) { index_.set(members), members_ = &members; }
  const MemberIndex &index() const { return index_; }
  // The roll of the instances idx on exactly these members; false when
  // they are none (not one piece per member, a piece missing a member, a
  // member without its n - 1 pieces, two owners of a piece).
  bool read(const std::vector<size_t> &idx, Roll &r);

private:
  // The piece carrying (crc, bytes) in roll r, kNone if none: an open
  // addressing table of the pieces (asked for every send a member makes
  // in the roll).
  static uint32_t slotOf(uint32_t crc, uint64_t bytes, unsigned bits) {
    return uint32_t(((uint64_t(crc) ^ (bytes << 32)) * 0x9E3779B97F4A7C15ull) >> (64 - bits));
  }
  uint32_t pieceOf(const Roll &r, uint32_t crc, uint64_t bytes) const {
    const uint32_t mask = uint32_t(byPayload_.size() - 1);
    for (uint32_t at = slotOf(crc, bytes, bits_);; at = (at + 1) & mask) {
      const uint32_t p = byPayload_[at];
      if (p == kNone || (r.pieces[p].item.crc == crc && r.pieces[p].item.bytes == bytes)) return p;
    }
  }
  // Marks r.mayRoot: the members that send, after their last receipt on
  // the communicator before the roll and before its instances' first
  // message reaches them, something not their own piece that may be a run
  // of pieces (one piece, or at least two pieces long). proveFrom asks
  // that of R's sends before the roll reaches it (a window no larger), so
  // it proves no other member the root: a ring allgather (each member
  // sends its own piece first) is left before its messages are sorted and
  // before any candidate root is tried. False when none is marked.
  bool anyRoot(Roll &r) const;
  const MessageTable &t_;
  const RankActivity &activity_;
  const std::vector<Instance> &all_;
  const std::vector<uint32_t> *members_ = nullptr;
  MemberIndex index_;
  std::vector<uint32_t> byPayload_; // pieceOf's table: a piece or kNone per slot
  unsigned bits_ = 1;
  std::vector<uint8_t> reached_;                                    // piece x member
  std::vector<uint32_t> reachedCount_;                              // per piece
  std::vector<std::pair<uint32_t, uint32_t>> sent_;                 // (send position, piece)
  std::vector<std::pair<int, uint32_t>> ringOrder_;                 // (rank in group, piece)
  std::vector<uint32_t> firstInstanceReceipt_; // per member
  std::vector<uint8_t> inRoll_; // the last roll's messages (flags: a search per question was most of the proof)
};

bool RollReader::read(const std::vector<size_t> &idx, Roll &r) {
  const std::vector<uint32_t> &members = *members_;
  const size_t n = members.size();
  r.comm = all_[idx[0]].comm;
  r.members = members;
  r.pieces.clear();
  if (r.inRoll == &inRoll_) // the last roll read in full: its flags set
    for (uint32_t i : r.messages) inRoll_[i] = 0;
  r.inRoll = nullptr;
  r.messages.clear();
  reachedCount_.assign(n, 0);
  reached_.assign(n * n, 0);
  for (size_t k : idx) {
    const Instance &in = all_[k];
    uint32_t p = 0;
    while (p < r.pieces.size() &&
           !(r.pieces[p].item.crc == in.itemCrc && r.pieces[p].item.bytes == in.bytes))
      p++;
    if (p == r.pieces.size()) {
      if (p == n) return false; // more pieces than members
      r.pieces.push_back({{in.itemCrc, in.bytes}, kNone, UINT32_MAX, in.messages[0]});
    }
    for (uint32_t w : in.participants) { // every piece reaches every member
      const uint32_t q = index_[w];
      if (q == kNone) return false;
      if (!reached_[p * n + q]) reached_[p * n + q] = 1, reachedCount_[p]++;
    }
    r.messages.insert(r.messages.end(), in.messages.begin(), in.messages.end());
  }
  if (n < 3 || r.pieces.size() != n) return false;
  for (uint32_t c : reachedCount_)
    if (c != n) return false;
  for (bits_ = 1; (size_t(1) << bits_) < 2 * n;) bits_++; // at most half full
  byPayload_.assign(size_t(1) << bits_, kNone);
  for (uint32_t p = 0; p < n; p++) {
    uint32_t at = slotOf(r.pieces[p].item.crc, r.pieces[p].item.bytes, bits_);
    while (byPayload_[at] != kNone) at = (at + 1) & uint32_t(byPayload_.size() - 1);
    byPayload_[at] = p;
  }
  r.spans.assign(n, Span{});
  firstInstanceReceipt_.assign(n, UINT32_MAX);
  for (size_t k : idx)
    for (uint32_t i : all_[k].messages) {
      const Message &m = t_.messages[i];
      if (uint32_t q = index_[m.src]; q != kNone)
        r.spans[q].lo = std::min(r.spans[q].lo, m.sendPos), r.spans[q].hi = std::max(r.spans[q].hi, m.sendPos);
      if (uint32_t q = index_[m.dst]; q != kNone) {
        r.spans[q].lo = std::min(r.spans[q].lo, m.recvPos), r.spans[q].hi = std::max(r.spans[q].hi, m.recvPos);
        firstInstanceReceipt_[q] = std::min(firstInstanceReceipt_[q], m.recvPos);
      }
    }
  r.ownPiece.assign(n, kNone);
  for (size_t qi = 0; qi < n; qi++) {
    const uint32_t q = members[qi];
    Span &span = r.spans[qi];
    sent_.clear();
    for (auto it = firstSendAt(t_, activity_, q, span.lo); it != t_.messages.end() && it->src == q; ++it) {
      if (it->comm != r.comm) continue;
      const uint32_t p = pieceOf(r, it->crc, it->bytes);
      if (p == kNone || !it->hashed || sent_.size() == 4 * n) break;
      sent_.push_back({it->sendPos, p});
      r.messages.push_back(uint32_t(it - t_.messages.begin()));
      span.hi = std::max(span.hi, it->sendPos);
    }
    if (sent_.size() < n - 1) return false;
    const auto &[pos, own] = sent_[sent_.size() - (n - 1)];
    if (r.pieces[own].owner != kNone) return false; // two owners of one piece
    r.pieces[own].owner = q, r.pieces[own].ownerFirstSend = pos;
    r.ownPiece[qi] = own;
  }
  const Group *g = t_.group(r.comm);
  ringOrder_.clear();
  r.ringKnown = g != nullptr;
  for (uint32_t p = 0; p < n && r.ringKnown; p++) {
    const int at = rankIn(*g, r.pieces[p].owner);
    r.ringKnown = at >= 0;
    ringOrder_.push_back({at, p});
  }
  if (r.ringKnown) {
    std::sort(ringOrder_.begin(), ringOrder_.end());
    r.ring.clear();
    for (const auto &[at, p] : ringOrder_) r.ring.push_back(r.pieces[p].item);
    r.sums.assign(2 * n + 1, 0);
    for (size_t j = 0; j < 2 * n; j++) r.sums[j + 1] = r.sums[j] + r.ring[j % n].bytes;
  }
  if (!anyRoot(r)) return false;
  r.firstReceipt.assign(n, UINT32_MAX);
  r.inRoll = &inRoll_;
  for (uint32_t i : r.messages) {
    inRoll_[i] = 1;
    const Message &m = t_.messages[i];
    if (uint32_t q = index_[m.dst]; q != kNone) r.firstReceipt[q] = std::min(r.firstReceipt[q], m.recvPos);
  }
  return true;
}

bool RollReader::anyRoot(Roll &r) const {
  const size_t n = r.members.size();
  uint64_t shortest = UINT64_MAX;
  for (const RollPiece &p : r.pieces) shortest = std::min(shortest, p.item.bytes);
  r.mayRoot.assign(n, 0);
  bool any = false;
  for (size_t qi = 0; qi < n; qi++) {
    const uint32_t R = r.members[qi];
    const Piece &own = r.pieces[r.ownPiece[qi]].item;
    uint32_t from = 0;
    receiptBefore(t_, activity_, R, r.spans[qi].lo, r.comm, from);
    for (auto it = firstSendAt(t_, activity_, R, from);
         it != t_.messages.end() && it->src == R && it->sendPos < firstInstanceReceipt_[qi]; ++it)
      if (it->comm == r.comm && it->bytes && it->hashed && it->dst != R &&
          !(it->crc == own.crc && it->bytes == own.bytes) &&
          (!r.ringKnown || it->bytes >= 2 * shortest || pieceOf(r, it->crc, it->bytes) != kNone)) {
        r.mayRoot[qi] = 1, any = true;
        break;
      }
  }
  return any;
}

// The roll as a bcast from R when the spread proves it (see the file's
// comment).
bool proveFrom(const MessageTable &t, const RankActivity &activity,
               const std::vector<uint8_t> &claimed, const Roll &roll, uint32_t R, Instance &out) {
  // R sends the spread before it hears anything of the roll, and after its
  // last receive on the communicator before it (the previous broadcast).
  const size_t rootMember = roll.memberOf(R);
  const uint32_t rootFirst = roll.spans[rootMember].lo;
  const uint32_t rootTo = roll.firstReceipt[rootMember];
  if (rootTo == UINT32_MAX) return false;
  uint32_t rootFrom = 0;
  const uint32_t before = receiptBefore(t, activity, R, rootFirst, roll.comm, rootFrom);
  // Nothing but its own piece, and nothing that is no run of pieces,
  // leaves R before the roll reaches it (a ring allgather: every member
  // starts with its own; a bcast before it): followSpread would then follow
  // R's own piece alone, which gives no other member its own. Checked
  // first, with what followSpread asks of R's sends: it spares the chain's
  // walk for each candidate root of every such roll.
  const RollPiece &own = roll.pieces[roll.ownPiece[rootMember]];
  auto mayChain = [&](uint32_t i) { // one of the messages followSpread reads
    return !claimed[i] || roll.has(i);
  };
  bool spreadsMore = false;
  for (auto it = firstSendAt(t, activity, R, rootFrom);
       !spreadsMore && it != t.messages.end() && it->src == R && it->sendPos < rootTo; ++it)
    spreadsMore = it->comm == roll.comm && it->bytes && it->hashed && it->dst != R &&
                  !(it->crc == own.item.crc && it->bytes == own.item.bytes) &&
                  mayChain(uint32_t(it - t.messages.begin())) && roll.mayCarryRun(*it);
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
    forwardTo[s] = roll.spans[roll.memberOf(p.owner)].hi + 1;
  }
  auto sendsBetween = [&](uint32_t rank, uint32_t from, uint32_t to, std::vector<uint32_t> &sends) {
    sends.clear();
    for (auto it = firstSendAt(t, activity, rank, from);
         it != t.messages.end() && it->src == rank && it->sendPos < to; ++it) {
      uint32_t i = uint32_t(it - t.messages.begin());
      // Unexplained, or a piece's own message (a run of one piece is one).
      if (it->comm == roll.comm && mayChain(i)) sends.push_back(i);
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
  std::vector<uint32_t> rollMessages = roll.messages;
  std::sort(rollMessages.begin(), rollMessages.end());
  rollMessages.erase(std::unique(rollMessages.begin(), rollMessages.end()), rollMessages.end());
  std::set_union(rollMessages.begin(), rollMessages.end(), chain.used.begin(), chain.used.end(),
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
  // The last candidate's entries: candidates come in runs of one member
  // set and communicator (a map search, and a copy of the members for its
  // key, per candidate were a tenth of the rule).
  std::vector<size_t> *sameGroup = nullptr;
  const std::vector<uint32_t> *sameMembers = nullptr;
  uint32_t lastComm = kNone;
  InstancesInTime *commParts = nullptr;
  std::vector<size_t> *commCounts = nullptr;
  for (size_t k = 0; k < instances.size(); k++) {
    const Instance &in = instances[k];
    if (in.kind != Kind::Bcast || in.participants.size() < 2 || in.unproven || in.shapeOnly ||
        in.repeats != 1 || in.segments != 1 || in.bytes == 0 || in.messages.empty())
      continue;
    const Group *g = t.group(in.comm);
    if (!g || g->members.empty() ||
        strength.of(t.messages[in.messages[0]]) != Strength::Distinct)
      continue;
    if (in.comm != lastComm) {
      lastComm = in.comm, commParts = &parts[in.comm], commCounts = &memberCounts[in.comm];
      sameGroup = nullptr;
    }
    if (!sameGroup || *sameMembers != in.participants) {
      auto at = byGroup.try_emplace({in.comm, in.participants}).first;
      sameGroup = &at->second, sameMembers = &at->first.second;
    }
    sameGroup->push_back(k);
    spans[k] = timeSpan(t, in);
    commParts->add(spans[k], k);
    commCounts->push_back(in.participants.size());
  }
  for (auto &[comm, counts] : memberCounts) std::sort(counts.begin(), counts.end());
  // A communicator's instances in time order, sorted when first asked
  // (only a group of fewer instances than members asks).
  std::set<uint32_t> partsSorted;
  auto partsOf = [&](uint32_t comm) -> const InstancesInTime & {
    InstancesInTime &p = parts[comm];
    if (partsSorted.insert(comm).second) p.sort();
    return p;
  };
  // Instances on fewer than n members in the communicator: the most parts
  // a group of a roll of n members can take in.
  auto partsAtMost = [&](uint32_t comm, size_t n) {
    const std::vector<size_t> &counts = memberCounts[comm];
    return size_t(std::lower_bound(counts.begin(), counts.end(), n) - counts.begin());
  };
  std::vector<uint8_t> gone(instances.size(), 0), theirs(t.messages.size(), 0); // theirs: rolls()'s
  std::vector<Instance> found;
  RollReader reader(t, activity, instances);
  Roll roll;
  for (auto &[key, idx] : byGroup) {
    const std::vector<uint32_t> &members = key.second;
    if (members.size() < 3) continue;
    reader.setMembers(members);
    std::vector<std::vector<size_t>> groups;
    for (std::vector<size_t> &group : rolls(t, activity, instances, idx, reader.index(), theirs)) {
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
        for (size_t k : partsOf(key.first).overlapping(from, to)) {
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
      if (!reader.read(group, roll)) continue;
      Instance bcast;
      bool proven = false;
      for (size_t qi = 0; qi < roll.members.size() && !proven; qi++)
        proven = roll.mayRoot[qi] && proveFrom(t, activity, claimed, roll, roll.members[qi], bcast);
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
