// evt_direct.h: reading a rank's event file without OTF2's reader, for
// the records and attribute types the Collectivize tracer writes. OTF2
// decodes every record into an attribute list object before its callback
// (two thirds of `collectivize detect`'s reading time); this walks the
// validated file's chunks once. Anything it does not know (big-endian
// chunks, other attribute types, local definitions to map references
// through, a malformed record) stops it, and the caller reads the rest
// through OTF2, skipping the events already handed out: the events are
// the same either way (checked by the detector's reports and a unit test).
//
// Format (OTF2 3.x, little-endian): chunks of `chunkSize` bytes, each a
// header (0x03, endianness, first and last event number) then records: a
// type byte, a length (one byte, or 0xff and 8 bytes), the fields; records
// of one field (Enter, Leave, the request records) have no length.
// Timestamp records (0x05, 8 raw bytes) set the time of the events after
// them; an attribute-list record (0x06) belongs to the next event.
// Integers are compressed: a byte n, then n little-endian bytes (0: zero,
// 0xff: all ones); uint8 fields are one raw byte.
#pragma once

#include <cstdint>
#include <string>

#include "byte_source.h"
#include "collectivize/trace_reader.h"

namespace cz::trace::detail {

// One attribute of an event, its value widened to 64 bits.
struct DirectAttribute {
  uint32_t ref = 0;
  uint8_t type = 0; // OTF2_Type: UINT8, UINT32 or UINT64
  uint64_t value = 0;
};

// Receives each event (kind, time and record fields set) with its
// attributes; returns false to stop reading.
using DirectSink = bool (*)(void *ctx, Event &e, const DirectAttribute *attrs, size_t count);

struct DirectRead {
  bool complete = false;  // read to the end, to `bound`, or the sink stopped
  uint64_t handedOut = 0; // events given to the sink
};

// Reads up to `bound` event records of the validated event file `path`.
DirectRead readEventsDirect(const std::string &path, uint64_t chunkSize, uint64_t bound,
                            DirectSink sink, void *ctx);
// The same from bytes anywhere (a validated prefix: `bound` is what the
// validator counted); the file version reads through this.
DirectRead readEventsDirect(const ByteSource &bytes, uint64_t chunkSize, uint64_t bound,
                            DirectSink sink, void *ctx);

} // namespace cz::trace::detail
