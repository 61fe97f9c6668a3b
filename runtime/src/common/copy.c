/* copy.c: the vector loops behind czi_copy and czi_copy_to_peers (copy.h
 * says when and why). */
#include "copy.h"

#if defined(__SSE2__)
#include <emmintrin.h>

/* 64 bytes a step from s + i to d + i while a whole step fits: four 16-byte
 * loads, then four stores (each issued after the loads it could be
 * mistaken to overlap), cached or non-temporal (d + i 16-byte aligned).
 * The empty asm keeps the compiler from turning the loop back into a
 * memcpy call. Returns where it stopped. */
static inline size_t copy_steps(char *d, const char *s, size_t i, size_t n, int streaming) {
  for (; i + 64 <= n; i += 64) {
    const __m128i a = _mm_loadu_si128((const __m128i *)(s + i));
    const __m128i b = _mm_loadu_si128((const __m128i *)(s + i + 16));
    const __m128i c = _mm_loadu_si128((const __m128i *)(s + i + 32));
    const __m128i e = _mm_loadu_si128((const __m128i *)(s + i + 48));
    if (streaming) {
      _mm_stream_si128((__m128i *)(d + i), a);
      _mm_stream_si128((__m128i *)(d + i + 16), b);
      _mm_stream_si128((__m128i *)(d + i + 32), c);
      _mm_stream_si128((__m128i *)(d + i + 48), e);
    } else {
      _mm_storeu_si128((__m128i *)(d + i), a);
      _mm_storeu_si128((__m128i *)(d + i + 16), b);
      _mm_storeu_si128((__m128i *)(d + i + 32), c);
      _mm_storeu_si128((__m128i *)(d + i + 48), e);
    }
    __asm__ volatile("" ::: "memory");
  }
  return i;
}
#endif

void czi_copy_unaliased(void *dst, const void *src, size_t n) {
  char *d = (char *)dst;
  const char *s = (const char *)src;
  size_t i = 0;
#if defined(__SSE2__)
  i = copy_steps(d, s, 0, n, 0);
#endif
  /* The tail is below the size where memcpy takes `rep movsb`. */
  memcpy(d + i, s + i, n - i);
}

void czi_copy_streaming(void *dst, const void *src, size_t n) {
#if defined(__SSE2__)
  char *d = (char *)dst;
  const char *s = (const char *)src;
  /* Non-temporal stores need 16-byte aligned destinations: the head up to
   * that boundary is an ordinary copy. */
  const size_t head = (16u - ((uintptr_t)d & 15u)) & 15u;
  if (head >= n) {
    czi_copy(dst, src, n);
    return;
  }
  memcpy(d, s, head);
  const size_t i = copy_steps(d, s, head, n, 1);
  memcpy(d + i, s + i, n - i);
  /* Streaming stores are weakly ordered: fence them before the caller's
   * flag tells a peer the block is there. */
  _mm_sfence();
#else
  czi_copy(dst, src, n);
#endif
}
