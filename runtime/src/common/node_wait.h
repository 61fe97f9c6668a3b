/* node_wait.h: how a rank waits for its node peers in shared memory.
 *
 * Spinning and sched_yield are right when every rank has its own core. With
 * more ranks than cores (P = 8 or 16 on this 2-core machine), a yielding
 * waiter takes the core again and again, and one that yields to another
 * user's process can lose a whole time slice (~3 ms). So a waiter spins a
 * little, yields twice, and then may sleep in the kernel (futex on the
 * shared word) until the rank that changes the word wakes it. Sleepers are
 * counted, so a waker makes the system call only when somebody sleeps.
 *
 * When to sleep (measured, bench/results/2026-11-23-shm/wait-*.csv, a
 * machine loaded by other jobs): with more ranks than cores, sleeping made
 * alltoalls of <= 1 KiB per rank faster (P = 8 and 16, 8-64 B blocks:
 * 0.26-0.58x MPI's time against 0.43-0.93x yielding, in the same runs), but
 * larger ones at P = 16 slower (512 B-2 KiB blocks: 0.6-1.4x against
 * 0.3-1.0x): a wake-up of all sleepers at once preempts the ranks that
 * still copy. So sleeping is the default only for oversubscribed calls
 * moving at most CZI_WAIT_SLEEP_BYTES per rank.
 *
 * COLLECTIVIZE_SHM_WAIT=yield|sleep|auto (default auto), optionally
 * ":N" yields before sleeping (default 2), overrides this; for
 * measurements. */
#ifndef CZ_NODE_WAIT_H
#define CZ_NODE_WAIT_H

#include <stdatomic.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A shared word that ranks wait on, and its sleepers (same cache line). */
typedef struct czi_wait_word {
  _Atomic unsigned value;
  _Atomic int sleepers;
  char pad[56];
} czi_wait_word;

enum { CZI_WAIT_SLEEP_BYTES = 1024 };

/* 1 if the waiters of a call on a node of node_size ranks that moves
 * `bytes` per rank should sleep rather than only yield. */
int czi_wait_sleeps(int node_size, long long bytes);

/* Waits until w->value != seen; sleeps (after spinning and yielding) only
 * if `sleeps`. */
void czi_wait_change(czi_wait_word *w, unsigned seen, int sleeps);

/* Waits until *flag >= want (64-bit sequence flags); the low 32 bits of
 * *flag are the futex word, sleepers counts the sleepers on it. */
void czi_wait_at_least64(_Atomic unsigned long long *flag,
                         unsigned long long want, _Atomic int *sleepers,
                         int sleeps);

/* After changing the word: wakes its sleepers, if any. */
void czi_wake(_Atomic unsigned *word, _Atomic int *sleepers);

#ifdef __cplusplus
}
#endif
#endif
