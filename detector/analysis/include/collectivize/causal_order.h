// causal_order.h: timestamps that respect causality, whatever the clocks.
//
// The analyses replay messages in time order (provenance, tiling, spreads,
// barriers, windows). Ranks on different nodes stamp events with different
// clocks; the trace's clock offsets bring them close, never exactly
// together, so a receive may look earlier than its send, or a rank's send
// of data it received earlier than that receive. Causality comes from
// matching and program order instead: a forward pass (a controlled
// logical clock) raises times where they contradict it, so that
//   - on one rank, times never go backwards in event order, and an event
//     after a receive is strictly later than the receive (the replay puts
//     sends before receives at equal times);
//   - a receive is strictly later than its send.
// A raise carries over to the rank's later events (their intervals stay),
// so only ranks whose clock ran behind move. Times that already respect
// both rules (one node, one clock) are left as they are.
#pragma once

#include <cstdint>
#include <vector>

#include "collectivize/messages.h"

namespace cz::detect {

// One event of a rank in the pass: a matched send or receive of the
// message (src, sendPos), or a kept buffer.
struct CausalEvent {
  enum Kind : uint8_t { Send, Receive, Kept };
  uint32_t pos = 0;   // in its rank's events
  Kind kind = Send;
  uint32_t src = 0, sendPos = 0; // the message (Send, Receive)
  uint64_t time = 0;  // raised in place
  uint32_t index = 0; // the caller's (which message or kept buffer)
};

// Each rank's events, sorted by pos; every Receive's send must be among
// them (matched messages). Returns how many times were raised. A cycle
// (receives waiting for each other's sends, which a real run cannot
// produce) is broken at the receive with the earliest time.
uint64_t orderCausally(std::vector<std::vector<CausalEvent>> &ranks);

// True when the table's times already respect both rules (no pass needed).
bool causallyOrdered(const std::vector<std::vector<CausalEvent>> &ranks);

// The table's events as the pass takes them (messages' sends and receives,
// kept buffers), and the raised times back into the table.
std::vector<std::vector<CausalEvent>> causalEvents(const MessageTable &t);
void applyCausalTimes(MessageTable &t, const std::vector<std::vector<CausalEvent>> &ranks);

// Whether a rank sent at the very time of one of its receives: the
// replays put sends first at equal times, so a send that followed the
// receive (a chain's step within the clock's resolution, or times clamped
// to stay monotonic) would be replayed before it; wavefront lost a chain
// that way (tests/lit/detect/wavefront-lost-chain.test). sends: in (src,
// sendPos) order, a rank's send times not decreasing with its positions
// (one clock per rank); each receive's time is looked up among its
// receiver's sends there.
bool sendAtReceiveTime(const std::vector<Message> &sends, const std::vector<Message> &receives);

// The serial detector's step after matching: all of the above, the pass
// only where the times call for it (a receive no later than its send, a
// send at a receive's time, kept buffers).
uint64_t orderCausally(MessageTable &t);


} // namespace cz::detect
