// provenance.h: where the bytes of every message came from.
//
// Messages are replayed step by step (a step: a send, or the completion of
// a receive). Each rank keeps a map of the buffer ranges it received (or
// sent as its own data), with their CRC-32 and their origin segments
// (buffer_maps.h). A send is decomposed over that map: ranges it
// received before (whole, or a slice of one) and at most one range of its
// own (whose CRC follows from the message's CRC and the known pieces:
// CRC-32 is linear, crc(A|X|B) = shift(A,|X|+|B|) ^ shift(X,|B|) ^ B).
// When the known pieces do not add up to the message's CRC the data was
// changed (computed), and the message is new data of its sender.
//
// An origin is data a rank contributed itself: (rank, address, bytes,
// CRC). Every message carries a list of segments of origins, in order.
//
// The replay order (ReplayKey) is a total order of all steps in which a
// message's send comes before its receive; a rank's map depends only on
// its own steps in that order and on the segments of the messages it
// receives, so the parallel mode replays each rank on the process that
// owns it, in the rank's own order, and gets the same provenance.
#pragma once

#include <cstdint>
#include <vector>

#include "collectivize/messages.h"

namespace cz::detect::detail {

struct Origin { // (32 bytes: one per own message, the provenance's biggest array)
  uint32_t rank = 0;
  uint32_t crc = 0;
  uint64_t address = 0, bytes = 0;
  uint32_t firstMessage = 0; // the message that first carried it
  bool crcKnown = false;
};

struct Segment {
  uint32_t origin = 0;
  uint64_t offset = 0; // into the origin
  uint64_t bytes = 0;
};

// Each message's segments, in message byte order: runs of one pool (a
// message that forwards what it received shares the run of the message it
// came with, so forwarding copies nothing).
class SegmentLists {
public:
  struct Run {
    const Segment *first = nullptr, *last = nullptr;
    const Segment *begin() const { return first; }
    const Segment *end() const { return last; }
    size_t size() const { return size_t(last - first); }
    bool empty() const { return first == last; }
    const Segment &operator[](size_t k) const { return first[k]; }
  };
  struct Span {
    uint64_t at = 0;
    uint32_t count = 0;
  };
  Run operator[](size_t message) const {
    const Span &s = spans[message];
    const Segment *b = pool.data() + s.at;
    return {b, b + s.count};
  }
  std::vector<Segment> pool;
  std::vector<Span> spans; // per message
};

struct Provenance {
  std::vector<Origin> origins;
  SegmentLists segments;          // per message
  std::vector<uint8_t> verified;  // per message: CRCs added up
};

// Whose bytes message `msg` carries, as the replay found them: `replayed`
// when it has segments at all; `others` when some segment is another
// rank's origin (it passes on bytes that arrived); `onlyOthers` when the
// replay verified every byte and none is the sender's own (a pure
// forward: nothing combined, nothing added).
struct CarriedOrigins {
  bool replayed = false, others = false, onlyOthers = false;
};
CarriedOrigins carriedOrigins(const MessageTable &t, const Provenance &pv, uint32_t msg);

// The serial replay: every step of the table in ReplayKey order.
Provenance traceProvenance(const MessageTable &t);

// Where a step stands in the replay: by time, sends before receives, then
// rank and position in the rank's events. A receive's time is that of its
// send when it completed earlier (clocks of different nodes), so that
// every send comes before its receive and the order has no cycle. On one
// rank it is the order of the events, but for a receive that completed at
// the very time of a later send of its rank (sends first) and a receive
// held back to its send's time.
struct ReplayKey {
  uint64_t time = 0;
  bool receive = false;
  uint32_t rank = 0, pos = 0;
  bool operator<(const ReplayKey &o) const {
    if (time != o.time) return time < o.time;
    if (receive != o.receive) return !receive;
    if (rank != o.rank) return rank < o.rank;
    return pos < o.pos;
  }
};
inline ReplayKey sendKey(const Message &m) { return {m.sendTime, false, m.src, m.sendPos}; }
inline ReplayKey receiveKey(const Message &m) {
  return {m.recvTime > m.sendTime ? m.recvTime : m.sendTime, true, m.dst, m.recvPos};
}

// Origins in the order the serial replay creates them: by the send step of
// the message that first carried each (one new origin per send at most).
// Returns, for each origin, its index in that order.
std::vector<uint32_t> serialOriginNumbers(const std::vector<Origin> &origins,
                                          const MessageTable &t);

} // namespace cz::detect::detail
