// provenance.h: where the bytes of every message came from.
//
// Messages are replayed in time order. Each rank keeps a map of the
// buffer ranges it received (or sent as its own data), with their CRC-32
// and their origin segments. A send is decomposed over that map: ranges it
// received before (whole, or a slice of one) and at most one range of its
// own (whose CRC follows from the message's CRC and the known pieces:
// CRC-32 is linear, crc(A|X|B) = shift(A,|X|+|B|) ^ shift(X,|B|) ^ B).
// When the known pieces do not add up to the message's CRC the data was
// changed (computed), and the message is new data of its sender.
//
// An origin is data a rank contributed itself: (rank, address, bytes,
// CRC). Every message carries a list of segments of origins, in order.
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

Provenance traceProvenance(const MessageTable &t);

} // namespace cz::detect::detail
