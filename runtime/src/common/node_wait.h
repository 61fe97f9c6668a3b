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
 * When to sleep (bench/shm/wait_ab.sh, bench/results/2026-11-23-shm/
 * wait-ab*.csv: shm_pull alltoall over MPI_Alltoall in the same launch,
 * median over launches and modes, a machine loaded by other jobs): at
 * P = 8 sleeping beat yielding for 8 B-2 KiB blocks (8 B 0.82x against
 * 0.98x, 64 B 0.49x against 0.88x, 2 KiB 0.71x against 0.80x), at P = 16
 * for 8 B (0.38x against 0.52x), but at P = 16 and 2 KiB it lost (0.83x
 * against 0.58x): waking all sleepers at once preempts the ranks still
 * copying. So sleeping is the default only for oversubscribed calls moving
 * at most CZI_WAIT_SLEEP_BYTES per rank (the cells where it never lost);
 * P = 8 suggests a higher limit, to be measured on a quiet machine.
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
 * `bytes` per rank should sleep rather than only yield. node_cores: the
 * CPUs the node's ranks run on together (<= 0: this process's affinity,
 * which undercounts when each rank is bound to its own core). */
int czi_wait_sleeps(int node_size, int node_cores, long long bytes);

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
