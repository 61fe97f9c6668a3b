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

/* A block written into shared memory for another core to read: between
 * these sizes, with non-temporal stores (copy.c), so the reader fetches it
 * from memory rather than from the writer's cache. Where the hypervisor
 * places the two cores far apart (a cache line's round trip 310-340 ns
 * instead of 63-90 ns, a state that comes and goes for tens of seconds on
 * this VM), moving freshly written lines from cache to cache makes 32 KiB
 * take 17 us instead of 4 written past the cache, and made the shared-
 * memory allgather and alltoall at 32 KiB 2-2.7x slower than MPI in a
 * quarter of the launches. Below 32 KiB the cached copy wins (4 KiB: 0.4 us
 * against 1.0 with the cores near); from 128 KiB on, and for broadcasts
 * (many readers of one block), streaming cost the near placement more
 * than it saved the far one (bench/README.md, "Cores far apart"); there the
 * table's choice is kept on trial against the MPI library's collective,
 * which the far placement hardly slows (decision/trial.c), and handed to it
 * while a probe finds the cores far apart (decision/placement.c). */
#define CZI_COPY_STREAM_MIN_BYTES 32768u
#define CZI_COPY_STREAM_MAX_BYTES 131072u

/* The non-temporal loop (copy.c): ends with a store fence, so the data is
 * visible before any flag the caller raises after it. */
void czi_copy_streaming(void *dst, const void *src, size_t n);

/* memcpy(dst, src, n) of a block another rank will read from shared
 * memory (ranges do not overlap). */
static inline void czi_copy_to_peers(void *dst, const void *src, size_t n) {
  if (n >= CZI_COPY_STREAM_MIN_BYTES && n < CZI_COPY_STREAM_MAX_BYTES)
    czi_copy_streaming(dst, src, n);
  else
    czi_copy(dst, src, n);
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
