// payload_strength.cpp: see payload_strength.h.
#include "payload_strength.h"

#include <cstring>

#include <zlib.h>

namespace cz::detect::detail {

uint32_t crcOfFill(uint64_t element, unsigned width, uint64_t bytes) {
  unsigned char one[8];
  for (unsigned i = 0; i < width; i++) one[i] = (unsigned char)(element >> (8 * i));
  // A short fill is written out and its CRC taken directly: the same value,
  // for a tenth of the combining steps' cost (the spreads ask for one per
  // item of a new value, thousands on a trace).
  constexpr uint64_t kWritten = 1024;
  if (bytes <= kWritten) {
    uint64_t eight = 0; // the element repeated over 8 bytes (width divides 8)
    for (unsigned i = 0; i < 8; i++) eight |= uint64_t(one[i % width]) << (8 * i);
    unsigned char fill[kWritten + 8];
    for (uint64_t i = 0; i < bytes; i += 8) std::memcpy(fill + i, &eight, 8);
    return uint32_t(crc32(0, fill, uInt(bytes)));
  }
  // Square and multiply over the repetition count: crc(A|B) from crc(A),
  // crc(B) and |B| (zlib's crc32_combine), so a long fill costs log steps.
  uint64_t reps = bytes / width;
  uLong piece = crc32(0, one, width), result = crc32(0, nullptr, 0);
  uint64_t pieceLen = width;
  bool any = false;
  while (reps) {
    if (reps & 1) {
      result = any ? crc32_combine(result, piece, z_off_t(pieceLen)) : piece;
      any = true;
    }
    reps >>= 1;
    if (reps) {
      piece = crc32_combine(piece, piece, z_off_t(pieceLen));
      pieceLen *= 2;
    }
  }
  return uint32_t(result);
}

// CRC-32 is affine in the data: for payloads of one length,
// crc(a ^ b) = crc(a) ^ crc(b) ^ crc(zeros). The CRC of a fill is so the
// zeros' CRC and, for each set bit of its element, what that bit adds
// (a fill of the element with only that bit set, less the zeros' CRC),
// tabled per element byte: 8 loads instead of the combines.
struct PayloadStrength::FillTable {
  uint32_t zeros = 0;
  uint32_t byByte[8][256] = {};
  FillTable(unsigned width, uint64_t bytes) {
    zeros = crcOfFill(0, width, bytes);
    for (unsigned j = 0; j < width; j++)
      for (unsigned x = 1; x < 256; x++) {
        const unsigned low = x & (0u - x);
        if (x == low)
          byByte[j][x] = crcOfFill(uint64_t(x) << (8 * j), width, bytes) ^ zeros;
        else
          byByte[j][x] = byByte[j][x ^ low] ^ byByte[j][low];
      }
  }
  uint32_t of(uint64_t element, unsigned width) const {
    uint32_t crc = zeros;
    for (unsigned j = 0; j < width; j++) crc ^= byByte[j][(element >> (8 * j)) & 0xff];
    return crc;
  }
};

namespace {

constexpr uint32_t kFillTableAfter = 256;

// Does the prefix (the first min(8, bytes) bytes) repeat with this width?
bool periodic(uint64_t prefix, uint64_t bytes, unsigned width) {
  uint64_t known = bytes < 8 ? bytes : 8;
  for (uint64_t i = width; i < known; i++)
    if (((prefix >> (8 * i)) & 0xff) != ((prefix >> (8 * (i % width))) & 0xff)) return false;
  return true;
}

} // namespace

Strength PayloadStrength::of(const Message &m) {
  if (!m.hashed || m.bytes == 0) return Strength::Distinct; // nothing to compare anyway
  for (unsigned width : {1u, 2u, 4u, 8u}) {
    if (m.bytes % width || !periodic(m.prefix, m.bytes, width)) continue;
    uint64_t element = width == 8 ? m.prefix : m.prefix & ((uint64_t(1) << (8 * width)) - 1);
    // One element is a fill only when it is zero; several when they repeat.
    if (m.bytes == width && element != 0) break;
    uint32_t crc;
    if (m.bytes <= 8) {
      crc = m.crc; // the prefix is the whole payload: periodic means equal elements
    } else {
      crc = fillCrc(element, width, m.bytes);
    }
    if (crc == m.crc) return Strength::Fill;
    // A wider element repeats the same bytes (its prefix repeats with this
    // width too): the same fill, the same CRC, no fill either.
    break;
  }
  if (m.bytes <= 8) return Strength::Small;
  // Eight bytes of data, then the eighth byte repeated to the end (a
  // filled buffer a program wrote one value at the start of: IMB-P2P's
  // benchmarks fill theirs with the rank and touch the first byte of each
  // cache line, [ff 03 03 03 ...]): no more evidence than an 8-byte value.
  unsigned char head[8];
  for (unsigned i = 0; i < 8; i++) head[i] = (unsigned char)(m.prefix >> (8 * i));
  const uLong tail = fillCrc(head[7], 1, m.bytes - 8);
  if (uint32_t(crc32_combine(crc32(0, head, 8), tail, z_off_t(m.bytes - 8))) == m.crc)
    return Strength::Small;
  return Strength::Distinct;
}

uint32_t PayloadStrength::fillCrc(uint64_t element, unsigned width, uint64_t bytes) {
  const uint64_t shape = (bytes << 4) | width;
  if (auto t = tables_.find(shape); t != tables_.end()) return t->second->of(element, width);
  auto [it, fresh] = fillCrc_.try_emplace(Key{element, bytes, uint8_t(width)}, 0);
  if (!fresh) return it->second;
  if (++fillMisses_[shape] == kFillTableAfter) {
    auto table = std::make_shared<FillTable>(width, bytes);
    tables_.emplace(shape, table);
    return it->second = table->of(element, width);
  }
  return it->second = crcOfFill(element, width, bytes);
}

const char *fillDescription(const Message &m) {
  return m.prefix == 0 ? "all zeros" : "one value repeated";
}

} // namespace cz::detect::detail
