/*
 * copy.h: the runtime's bulk byte copy, memcpy but for one case.
 *
 * glibc's memcpy moves blocks above about 2 KiB with `rep movsb`. On the
 * AMD EPYC machines this project is measured on, that instruction runs
 * 15-30x slower when the destination lies 1-63 bytes past the source
 * modulo the 4 KiB page (32 KiB in 9-15 us instead of 0.6 us; 4 KiB in
 * 1.1-1.6 us instead of 0.05), presumably the loads waiting on stores they
 * look as if they could overlap. Whether a user's buffer and a shared-
 * memory slot fall so depends on the launch's memory layout, which made
 * some launches of the shared-memory algorithms 2.5-3.5x slower than the
 * MPI library's collective and the others faster (bench/README.md,
 * "Copies that alias a page"). For those distances a 16-byte vector loop
 * copies at near memcpy's normal speed; every other copy is memcpy.
 * Overlapping ranges are never given to the loop (memmove's job).
 */
#ifndef CZI_COPY_H
#define CZI_COPY_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Below this size memcpy does not use `rep movsb` (glibc's threshold is
 * 2048 bytes and up; measured: no slowdown at 2048, 25x at 3072). */
#define CZI_COPY_ALIAS_MIN_BYTES 2048u

/* True when dst - src, modulo 4 KiB, is 1..63: the slow case. */
static inline int czi_copy_aliases(const void *dst, const void *src) {
  const uintptr_t d = ((uintptr_t)dst - (uintptr_t)src) & 4095u;
  return d - 1u < 63u;
}

/* The vector loop (copy.c); ranges must not overlap. */
void czi_copy_unaliased(void *dst, const void *src, size_t n);

/* memcpy(dst, src, n) for ranges that do not overlap. */
static inline void czi_copy(void *dst, const void *src, size_t n) {
  if (n >= CZI_COPY_ALIAS_MIN_BYTES && czi_copy_aliases(dst, src))
    czi_copy_unaliased(dst, src, n);
  else
    memcpy(dst, src, n);
}

/* memmove(dst, src, n): ranges may overlap (then memmove). */
static inline void czi_move(void *dst, const void *src, size_t n) {
  const char *d = (const char *)dst, *s = (const char *)src;
  if (d + n <= s || s + n <= d)
    czi_copy(dst, src, n);
  else
    memmove(dst, src, n);
}

#ifdef __cplusplus
}
#endif

#endif
