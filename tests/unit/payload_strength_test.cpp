// payload_strength_test.cpp: fills told from distinct payloads by their
// CRCs. The CRC of a fill is the CRC of the fill's bytes whichever way it is
// computed (written out when short, combined from pieces when long, from the
// table PayloadStrength builds for a (width, length) it meets often), and a
// message is a fill exactly when its CRC is that of its prefix's element
// repeated, whatever the element's width.
#include <gtest/gtest.h>
#include <zlib.h>

#include <cstring>
#include <vector>

#include "payload_strength.h"

namespace {

using cz::detect::Message;
using cz::detect::detail::crcOfFill;
using cz::detect::detail::PayloadStrength;
using cz::detect::detail::Strength;

// A message carrying `payload` as the tracer records it: length, CRC and
// the first 8 bytes.
Message carrying(const std::vector<unsigned char> &payload) {
  Message m;
  m.hashed = true;
  m.bytes = payload.size();
  m.crc = uint32_t(crc32(0, payload.data(), uInt(payload.size())));
  std::memcpy(&m.prefix, payload.data(), std::min<size_t>(8, payload.size()));
  return m;
}

std::vector<unsigned char> fillOf(uint64_t element, unsigned width, size_t bytes) {
  std::vector<unsigned char> out(bytes);
  for (size_t i = 0; i < bytes; i++) out[i] = (unsigned char)(element >> (8 * (i % width)));
  return out;
}

uint32_t crcOf(const std::vector<unsigned char> &v) {
  return uint32_t(crc32(0, v.data(), uInt(v.size())));
}

// Elements whose bytes are all different (no narrower width repeats).
uint64_t elementNumber(unsigned k, unsigned width) {
  uint64_t e = 0;
  for (unsigned j = 0; j < width; j++) e |= uint64_t((k * 7 + j * 37 + 1) & 0xff) << (8 * j);
  return e;
}

TEST(PayloadStrength, FillsAndDistinctPayloadsOfOneShapeManyTimes) {
  for (unsigned width : {2u, 4u, 8u})
    for (size_t bytes : {size_t(16), size_t(64), size_t(1000)}) {
      if (bytes % width) continue;
      PayloadStrength strength;
      // Past the table's threshold (256 misses of a shape): both ways.
      for (unsigned k = 0; k < 700; k++) {
        const uint64_t element = elementNumber(k, width);
        std::vector<unsigned char> fill = fillOf(element, width, bytes);
        EXPECT_EQ(strength.of(carrying(fill)), Strength::Fill) << width << " " << bytes << " " << k;
        fill[bytes - 1 - k % (bytes - 8)] ^= uint8_t(1 + k % 255); // one byte past the prefix
        EXPECT_EQ(strength.of(carrying(fill)), Strength::Distinct) << width << " " << bytes << " " << k;
      }
    }
}

TEST(PayloadStrength, FillsAfterTheTableIsBuilt) {
  PayloadStrength strength;
  for (unsigned k = 0; k < 300; k++) strength.of(carrying(fillOf(elementNumber(k, 8), 8, 64)));
  EXPECT_EQ(strength.of(carrying(std::vector<unsigned char>(64, 0))), Strength::Fill);
  EXPECT_EQ(strength.of(carrying(fillOf(0x11223344556677ffull, 8, 64))), Strength::Fill);
  EXPECT_EQ(strength.of(carrying(fillOf(0xff00000000000000ull, 8, 64))), Strength::Fill);
  std::vector<unsigned char> almost = fillOf(0x11223344556677ffull, 8, 64);
  almost[63] = 0;
  EXPECT_EQ(strength.of(carrying(almost)), Strength::Distinct);
}

TEST(PayloadStrength, FillCrcIsTheWrittenFillsOnBothSidesOfTheShortPath) {
  const uint64_t element = 0x0807060504030201ull;
  for (unsigned width : {1u, 2u, 4u, 8u})
    for (uint64_t bytes : {8ull, 16ull, 64ull, 1016ull, 1024ull, 1032ull, 4096ull, 40000ull})
      EXPECT_EQ(crcOfFill(element, width, bytes), crcOf(fillOf(element, width, bytes)))
          << "width " << width << ", " << bytes << " bytes";
}

TEST(PayloadStrength, AFillOfAnyWidthIsOneAndANearFillIsNot) {
  PayloadStrength strength;
  for (unsigned width : {1u, 2u, 4u, 8u})
    for (uint64_t bytes : {16ull, 64ull, 2048ull}) {
      std::vector<unsigned char> v = fillOf(0x1122334455667788ull, width, bytes);
      EXPECT_EQ(strength.of(carrying(v)), Strength::Fill) << width << " " << bytes;
      v.back() ^= 1; // the prefix still repeats; the CRC no longer matches
      EXPECT_EQ(strength.of(carrying(v)), Strength::Distinct) << width << " " << bytes;
    }
  // A 4-byte element whose two halves are equal is also a 2-byte fill.
  EXPECT_EQ(strength.of(carrying(fillOf(0xabcdabcd, 4, 64))), Strength::Fill);
  EXPECT_EQ(strength.of(carrying(fillOf(0, 1, 64))), Strength::Fill);
  std::vector<unsigned char> counted{1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0};
  EXPECT_EQ(strength.of(carrying(counted)), Strength::Distinct);
  EXPECT_EQ(strength.of(carrying({7, 0, 0, 0})), Strength::Small);
  EXPECT_EQ(strength.of(carrying({0, 0, 0, 0})), Strength::Fill);
}

} // namespace
