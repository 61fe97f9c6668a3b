// The runtime's bulk copy (runtime/src/common/copy.h): which distances take
// the vector loop, and that every path copies exactly the bytes memcpy and
// memmove would, at every distance modulo the page and every tail length.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "copy.h"

namespace {

std::vector<unsigned char> pattern(size_t n, unsigned seed) {
  std::vector<unsigned char> v(n);
  for (size_t i = 0; i < n; i++) v[i] = (unsigned char)(i * 131u + seed * 7u + (i >> 8));
  return v;
}

TEST(RuntimeCopy, DistancesThatTakeTheLoop) {
  alignas(4096) static unsigned char page[3 * 4096];
  const unsigned char *src = page;
  EXPECT_FALSE(czi_copy_aliases(page, src));             // same address
  EXPECT_TRUE(czi_copy_aliases(page + 1, src));          // 1 past
  EXPECT_TRUE(czi_copy_aliases(page + 8, src));          // the measured worst
  EXPECT_TRUE(czi_copy_aliases(page + 63, src));
  EXPECT_FALSE(czi_copy_aliases(page + 64, src));
  EXPECT_TRUE(czi_copy_aliases(page + 4096 + 8, src));   // modulo the page
  EXPECT_FALSE(czi_copy_aliases(page + 4096 - 8, src));  // behind: fast
  EXPECT_TRUE(czi_copy_aliases(page + 8, page + 4096));  // destination lower
}

// Every distance 0..4095 (step 1 near the page's edges), sizes around the
// loop's threshold and its 64-byte steps: the bytes copied, and nothing
// before or after them touched.
TEST(RuntimeCopy, CopiesExactlyAtEveryDistance) {
  const size_t sizes[] = {0, 1, 63, 64, 65, 2047, 2048, 2049, 2111, 4096 + 17, 33000};
  std::vector<unsigned char> src = pattern(40000, 1);
  std::vector<unsigned char> arena(40000 + 2 * 4096 + 256);
  for (size_t n : sizes)
    for (unsigned d = 0; d < 4096; d += (d < 130 || d > 3960) ? 1 : 61) {
      // Place the destination d bytes past the source modulo the page.
      uintptr_t s = (uintptr_t)src.data() & 4095u;
      uintptr_t base = (uintptr_t)arena.data() + 128;
      uintptr_t dst = base + ((s + d - (base & 4095u)) & 4095u);
      std::fill(arena.begin(), arena.end(), 0xA5);
      czi_copy((void *)dst, src.data(), n);
      unsigned char *out = (unsigned char *)dst;
      ASSERT_EQ(0, std::memcmp(out, src.data(), n)) << "n " << n << " distance " << d;
      for (unsigned char *q = arena.data(); q < out; q++) ASSERT_EQ(0xA5, *q) << "before, n " << n;
      for (unsigned char *q = out + n; q < arena.data() + arena.size(); q++)
        ASSERT_EQ(0xA5, *q) << "after, n " << n << " distance " << d;
    }
}

// czi_move: overlapping ranges in either direction as memmove leaves them.
TEST(RuntimeCopy, MoveKeepsMemmoveSemanticsWhenRangesOverlap) {
  for (long shift : {-4096L - 8, -8L, -1L, 1L, 8L, 72L, 4096L + 8})
    for (size_t n : {size_t(100), size_t(5000), size_t(20000)}) {
      std::vector<unsigned char> a = pattern(40000, 3), b = a;
      size_t from = 6000, to = size_t(long(from) + shift);
      czi_move(a.data() + to, a.data() + from, n);
      std::memmove(b.data() + to, b.data() + from, n);
      ASSERT_EQ(a, b) << "shift " << shift << " n " << n;
    }
}

} // namespace

namespace {

// czi_copy_to_peers: below and above the streaming threshold, every
// destination alignment within 16 bytes (the streaming loop's head) and
// odd tails: exactly the source's bytes, nothing around them touched.
TEST(RuntimeCopy, CopyToPeersIsExactAtEveryAlignment) {
  const size_t sizes[] = {0, 5, CZI_COPY_STREAM_MIN_BYTES - 1, CZI_COPY_STREAM_MIN_BYTES,
                          CZI_COPY_STREAM_MIN_BYTES + 13, 100003, CZI_COPY_STREAM_MAX_BYTES + 7};
  std::vector<unsigned char> src = pattern(CZI_COPY_STREAM_MAX_BYTES + 64, 5);
  std::vector<unsigned char> arena(CZI_COPY_STREAM_MAX_BYTES + 256);
  for (size_t n : sizes)
    for (unsigned shift = 0; shift < 16; shift++)
      for (unsigned from : {0u, 3u}) {
        std::fill(arena.begin(), arena.end(), 0x5A);
        unsigned char *out = (unsigned char *)(((uintptr_t)arena.data() + 63) & ~(uintptr_t)63) + shift;
        czi_copy_to_peers(out, src.data() + from, n);
        ASSERT_EQ(0, std::memcmp(out, src.data() + from, n)) << "n " << n << " shift " << shift;
        for (unsigned char *q = arena.data(); q < out; q++) ASSERT_EQ(0x5A, *q) << "before, n " << n;
        for (unsigned char *q = out + n; q < arena.data() + arena.size(); q++)
          ASSERT_EQ(0x5A, *q) << "after, n " << n << " shift " << shift;
      }
}

} // namespace
