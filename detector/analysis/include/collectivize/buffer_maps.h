// buffer_maps.h: the per-rank state of the provenance replay (provenance.h),
// shared by the serial replay (every rank, in one process) and the parallel
// mode's distributed one (the ranks a process owns). One map per rank of
// the buffer ranges it holds data in, the origins its sends create and the
// segment pool the segment lists live in.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "collectivize/provenance.h"

namespace cz::detect::detail {

class BufferMaps {
public:
  using Span = SegmentLists::Span;
  // maps: how many rank maps (the caller numbers its ranks 0..maps-1).
  // messages: how many sends to expect (sizes the pools). Origins get the
  // ids idOffset + k * idStride (k: this object's k-th origin), so that
  // several processes hand out distinct ids; the serial replay uses 0, 1.
  BufferMaps(uint32_t maps, size_t messages, uint32_t idOffset = 0, uint32_t idStride = 1);
  ~BufferMaps();
  BufferMaps(const BufferMaps &) = delete;
  BufferMaps &operator=(const BufferMaps &) = delete;

  struct Decomposed {
    Span segments; // in pool()
    bool verified = false; // the known pieces' CRCs added up to the message's
  };
  // Message m sent from map `sender` (m.src's): its segments as the
  // sender's map holds them now; may make an origin of m.src (first
  // carried by message id `message`) and enter it into the map.
  Decomposed send(uint32_t sender, const Message &m, uint32_t message);
  // Message m received at map `receiver` (m.dst's) with the segments its
  // send got (a span of pool()): they replace what the range held.
  void receive(uint32_t receiver, const Message &m, Span segments);
  // Segments decomposed by another process, copied into the pool.
  Span append(const Segment *first, size_t count);
  // The own-data slot a send of m would look up, fetched ahead.
  void prefetchOwn(const Message &m) const;

  std::vector<Segment> &pool();
  std::vector<Origin> &origins(); // this object's, k-th at index k

private:
  struct State;
  std::unique_ptr<State> s_;
};

} // namespace cz::detect::detail
