/* copy.c: the vector loop behind czi_copy (copy.h says when and why). */
#include "copy.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

void czi_copy_unaliased(void *dst, const void *src, size_t n) {
  char *d = (char *)dst;
  const char *s = (const char *)src;
  size_t i = 0;
#if defined(__SSE2__)
  /* Four 16-byte loads, then four stores: each store is issued after the
   * loads it could be mistaken to overlap. The empty asm keeps the
   * compiler from turning the loop back into a memcpy call. */
  for (; i + 64 <= n; i += 64) {
    const __m128i a = _mm_loadu_si128((const __m128i *)(s + i));
    const __m128i b = _mm_loadu_si128((const __m128i *)(s + i + 16));
    const __m128i c = _mm_loadu_si128((const __m128i *)(s + i + 32));
    const __m128i e = _mm_loadu_si128((const __m128i *)(s + i + 48));
    _mm_storeu_si128((__m128i *)(d + i), a);
    _mm_storeu_si128((__m128i *)(d + i + 16), b);
    _mm_storeu_si128((__m128i *)(d + i + 32), c);
    _mm_storeu_si128((__m128i *)(d + i + 48), e);
    __asm__ volatile("" ::: "memory");
  }
#endif
  /* The tail is below the size where memcpy takes `rep movsb`. */
  memcpy(d + i, s + i, n - i);
}
