// payload_strength.h: how much an equal CRC says about a payload.
//
// The analyses follow items (CRC, bytes) from rank to rank. That two
// messages carry the same bytes proves a path only when the bytes are
// distinctive. A constant fill (all zeros, one value repeated: a field at
// its initial state, flags, padding) is produced by many unrelated
// computations, and a payload of a few bytes repeats by chance (a flag,
// a small count). From the first 8 bytes (the trace's prefix), the length
// and the CRC, a fill is recognised exactly: the CRC of the prefix's
// element repeated over the whole length must equal the message's.
#pragma once

#include <cstdint>
#include <memory>
#include <unordered_map>

#include "collectivize/messages.h"

namespace cz::detect::detail {

enum class Strength : uint8_t {
  Distinct, // equal payloads are the same data
  Small,    // at most 8 bytes, or 8 bytes then the 8th repeated, not a fill: equal by chance is plausible
  Fill,     // every element equal (all zeros included): no evidence of a path
};

// The CRCs of fills are computed once per (element, length); a table is
// cheap to keep for one analysis.
class PayloadStrength {
public:
  Strength of(const Message &m);
  // Where a forward of the payload may be taken as one: Distinct always;
  // Small and Fill only when the bytes leave from where they arrived.
  bool indistinct(const Message &m) { return of(m) != Strength::Distinct; }

private:
  struct Key {
    uint64_t element, bytes;
    uint8_t width;
    bool operator==(const Key &o) const {
      return element == o.element && bytes == o.bytes && width == o.width;
    }
  };
  struct KeyHash {
    size_t operator()(const Key &k) const {
      return size_t((k.element * 0x9E3779B97F4A7C15ull) ^ (k.bytes << 3) ^ k.width);
    }
  };
  std::unordered_map<Key, uint32_t, KeyHash> fillCrc_;
  // The CRC of a fill of one width and length from its element by table
  // (FillTable, payload_strength.cpp): most payloads' first bytes differ,
  // so the cache above is missed by nearly every distinct message, each
  // miss a few crc32_combine calls. A table is built for a (width, length)
  // after kFillTableAfter misses of it (a length seen a few times costs
  // no table).
  struct FillTable;
  uint32_t fillCrc(uint64_t element, unsigned width, uint64_t bytes);
  std::unordered_map<uint64_t, uint32_t> fillMisses_;               // (width, length) -> misses
  std::unordered_map<uint64_t, std::shared_ptr<FillTable>> tables_; // (width, length)
};

// CRC-32 of `bytes` bytes made of the `width` low bytes of `element`
// repeated (bytes a multiple of width).
uint32_t crcOfFill(uint64_t element, unsigned width, uint64_t bytes);

// "all zeros" or "one value repeated": for notes.
const char *fillDescription(const Message &m);

} // namespace cz::detect::detail
