// receive_layout.h: where an allgather's blocks sit in each receiver's
// buffer. MPI_Allgather leaves rank p's block at base + p*n; hand-made ones
// may keep them in distance order (Bruck's allgather, or a linear one that
// receives rank me+d's block into slot d) or in some other order. The
// detector says so in the report, so that the rewriter never hands such a
// buffer to MPI_Allgather as if it were in rank order.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "collectivize/messages.h"

namespace cz::detect::detail {

// One member's block as it arrived at another member.
struct ReceivedBlock {
  uint32_t receiver = 0; // world rank
  uint32_t owner = 0;    // world rank whose block it is
  uint64_t address = 0;  // of the block's first byte at the receiver
};

enum class ReceiveLayout {
  NotObserved, // a block missing, twice at different places, or overlapping another
  RankOrder,   // owner p at base + rank(p)*n at every receiver
  Rotated,     // owner p at base + ((rank(p) - rank(q)) mod |G|)*n at receiver q
  Permuted,    // each block at a place of its own, in neither order
};

// blocks: every member's n-byte block at every other member of g (the
// receiver's own block is not needed; duplicates are fine).
ReceiveLayout receiveLayout(const Group &g, std::vector<ReceivedBlock> blocks, uint64_t n);

// The report's "recv_layout" ("rotated", "permuted"), and the note that
// explains it; "" for rank order and for layouts not observed (the
// report then says nothing, as before the layout was looked at).
std::string layoutName(ReceiveLayout l);
std::string layoutNote(ReceiveLayout l);

// full_exchange.cpp: a round (at most one message per ordered pair,
// tiling.cpp) in which every member of g sends one message to every other
// member: an allgather when each sends one payload to all, else an
// alltoall (each pair's message is the block one member has for the
// other). NotObserved layouts: no such exchange, or its blocks are not
// kept apart at every receiver (then the reductions decide), except for
// an alltoall whose receivers each took every block into one scratch
// place (recvScratch).
struct FullExchange {
  bool found = false;
  bool sameData = false;                            // allgather
  ReceiveLayout recv = ReceiveLayout::NotObserved; // at the receivers
  ReceiveLayout send = ReceiveLayout::NotObserved; // alltoall: at the senders
  bool recvScratch = false; // alltoall: every receiver took its blocks into one place
};
FullExchange fullExchange(const MessageTable &t, const Group &g, const std::vector<uint32_t> &round);
// The alltoall's note for blocks not in rank order on either side.
std::string alltoallLayoutNote(ReceiveLayout send, ReceiveLayout recv);

} // namespace cz::detect::detail
