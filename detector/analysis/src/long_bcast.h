// long_bcast.h: van de Geijn's long broadcast (HPL's BCAST 4 and 5): the
// root spreads consecutive pieces of its buffer, then the pieces are rolled
// around a ring until everyone has all of them. long_bcast.cpp has the rule,
// long_bcast_spread.cpp the spread's proof (followSpread).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "collectivize/messages.h"

namespace cz::detect::detail {

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
