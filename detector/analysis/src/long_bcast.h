// long_bcast.h: van de Geijn's long broadcast (HPL's BCAST 4 and 5): the
// root spreads consecutive pieces of its buffer, then the pieces are rolled
// around a ring until everyone has all of them. long_bcast.cpp has the rule,
// long_bcast_rolls.cpp the grouping of its pieces into rolls,
// long_bcast_spread.cpp the spread's proof (followSpread).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "collectivize/messages.h"
#include "detect_internal.h"
#include "rank_activity.h"

namespace cz::detect::detail {

// Where a member takes part in an instance: its first and last event.
struct Span {
  uint32_t lo = UINT32_MAX, hi = 0;
};

// World rank -> index in one sorted member list (kNone: not a member).
// Set once per list; a lookup per message end is a load, not a search.
class MemberIndex {
public:
  void set(const std::vector<uint32_t> &members) {
    for (uint32_t r : ranks_) at_[r] = kNone;
    ranks_ = members;
    if (!members.empty() && members.back() >= at_.size()) at_.resize(size_t(members.back()) + 1, kNone);
    for (size_t q = 0; q < members.size(); q++) at_[members[q]] = uint32_t(q);
  }
  uint32_t operator[](uint32_t rank) const { return rank < at_.size() ? at_[rank] : kNone; }
  size_t size() const { return ranks_.size(); }
  const std::vector<uint32_t> &members() const { return ranks_; }

private:
  std::vector<uint32_t> at_, ranks_;
};

// The candidate pieces `idx` (instances of `all`, each on exactly the
// members `index` is set to) grouped into rolls (long_bcast_rolls.cpp): at
// every member their events follow each other with no other message of
// the communicator between them. Groups in the order of their union-find
// roots; each group's instances in idx order. `theirs`: a flag per
// message, all clear (and left so), kept by the caller for every call.
std::vector<std::vector<size_t>> rolls(const MessageTable &t, const RankActivity &activity,
                                       const std::vector<Instance> &all,
                                       const std::vector<size_t> &idx, const MemberIndex &index,
                                       std::vector<uint8_t> &theirs);

// A group of more instances than members cut where one roll ends and the
// next begins (long_bcast_rolls.cpp); spans: each instance's time span.
std::vector<std::vector<size_t>> consecutiveRolls(const MessageTable &t,
                                                  const std::vector<Instance> &all,
                                                  const std::vector<std::pair<uint64_t, uint64_t>> &spans,
                                                  std::vector<size_t> group);

// One piece of the root's buffer: its CRC-32 and length.
struct Piece {
  uint32_t crc = 0;
  uint64_t bytes = 0;
};

// The sends of `rank` posted at positions in [from, to), message indices,
// into `out` (cleared first: the caller reuses it for every holder).
using SendsBetween =
    std::function<void(uint32_t rank, uint32_t from, uint32_t to, std::vector<uint32_t> &out)>;

// What the spread of the pieces proved.
struct SpreadChain {
  std::vector<uint32_t> used;    // messages that carried runs of pieces (table indices)
  std::vector<uint32_t> ownAt;   // per slot: where (receive position) its piece first reached it
  std::vector<uint32_t> wholeTo; // ranks outside the slots that received every piece in one message
};

// Follows runs of consecutive pieces from the root. Slot k holds world rank
// slotRank[k] (slot 0 the root) and piece k. A message carries the run of
// pieces [a, a+len) (indices mod the number of pieces) when its CRC is the
// crc32_combine of their CRCs in that order and its length their sum; the
// root may send any run among its sends posted in [rootFrom, rootTo), and
// another rank only a run inside one it received, among its sends posted
// after that receive and before forwardTo[slot]. ownAt[k] is kNone when
// piece k never reached slot k's rank that way.
SpreadChain followSpread(const MessageTable &t, const std::vector<uint32_t> &slotRank,
                         const std::vector<Piece> &pieces, uint32_t rootFrom, uint32_t rootTo,
                         const std::vector<uint32_t> &forwardTo, const SendsBetween &sendsBetween);

} // namespace cz::detect::detail
