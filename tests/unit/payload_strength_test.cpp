// payload_strength_test.cpp: the CRC of a fill is the CRC of the fill's
// bytes whichever way it is computed (written out when short, combined from
// pieces when long), and a message is a fill exactly when its CRC is that
// of its prefix's element repeated, whatever the element's width.
#include <gtest/gtest.h>

#include <vector>
#include <zlib.h>

#include "payload_strength.h"

namespace {

using cz::detect::Message;
using cz::detect::detail::crcOfFill;
using cz::detect::detail::PayloadStrength;
using cz::detect::detail::Strength;

std::vector<unsigned char> written(uint64_t element, unsigned width, uint64_t bytes) {
  std::vector<unsigned char> v(bytes);
  for (uint64_t i = 0; i < bytes; i++) v[i] = (unsigned char)(element >> (8 * (i % width)));
  return v;
}

uint32_t crcOf(const std::vector<unsigned char> &v) {
  return uint32_t(crc32(0, v.data(), uInt(v.size())));
}

Message carrying(const std::vector<unsigned char> &v) {
  Message m;
  m.hashed = true;
  m.bytes = v.size();
  m.crc = crcOf(v);
  for (size_t i = 0; i < v.size() && i < 8; i++) m.prefix |= uint64_t(v[i]) << (8 * i);
  return m;
}

TEST(PayloadStrength, FillCrcIsTheWrittenFillsOnBothSidesOfTheShortPath) {
  const uint64_t element = 0x0807060504030201ull;
  for (unsigned width : {1u, 2u, 4u, 8u})
    for (uint64_t bytes : {8ull, 16ull, 64ull, 1016ull, 1024ull, 1032ull, 4096ull, 40000ull})
      EXPECT_EQ(crcOfFill(element, width, bytes), crcOf(written(element, width, bytes)))
          << "width " << width << ", " << bytes << " bytes";
}

TEST(PayloadStrength, AFillOfAnyWidthIsOneAndANearFillIsNot) {
  PayloadStrength strength;
  for (unsigned width : {1u, 2u, 4u, 8u})
    for (uint64_t bytes : {16ull, 64ull, 2048ull}) {
      std::vector<unsigned char> v = written(0x1122334455667788ull, width, bytes);
      EXPECT_EQ(strength.of(carrying(v)), Strength::Fill) << width << " " << bytes;
      v.back() ^= 1; // the prefix still repeats; the CRC no longer matches
      EXPECT_EQ(strength.of(carrying(v)), Strength::Distinct) << width << " " << bytes;
    }
  // A 4-byte element whose two halves are equal is also a 2-byte fill.
  EXPECT_EQ(strength.of(carrying(written(0xabcdabcd, 4, 64))), Strength::Fill);
  EXPECT_EQ(strength.of(carrying(written(0, 1, 64))), Strength::Fill);
  std::vector<unsigned char> counted{1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0};
  EXPECT_EQ(strength.of(carrying(counted)), Strength::Distinct);
  EXPECT_EQ(strength.of(carrying({7, 0, 0, 0})), Strength::Small);
  EXPECT_EQ(strength.of(carrying({0, 0, 0, 0})), Strength::Fill);
}

} // namespace
