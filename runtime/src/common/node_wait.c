/* node_wait.c: spin, then yield or sleep on a futex (see node_wait.h). */
#define _GNU_SOURCE
#include "node_wait.h"

#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

enum { SPINS = 64 };

static int policy = -1; /* 0 yield, 1 sleep, 2 auto */
static int cores;
static int yields_before_sleep = 2;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void init(void) {
  const char *v = getenv("COLLECTIVIZE_SHM_WAIT");
  policy = 2;
  if (v && strcmp(v, "yield") == 0) policy = 0;
  if (v && strncmp(v, "sleep", 5) == 0) policy = 1;
  if (v && strncmp(v, "auto", 4) == 0) policy = 2;
  /* "sleep:N", "auto:N": N yields before the first sleep. */
  const char *colon = v ? strchr(v, ':') : NULL;
  if (colon && policy) yields_before_sleep = atoi(colon + 1);
  cpu_set_t set;
  cores = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 0;
  if (cores <= 0) cores = (int)sysconf(_SC_NPROCESSORS_ONLN);
  if (cores <= 0) cores = 1;
}

int czi_wait_sleeps(int node_size, int node_cores, long long bytes) {
  pthread_once(&once, init);
  const int available = node_cores > 0 ? node_cores : cores;
  return policy == 1 ||
         (policy == 2 && node_size > available && bytes <= CZI_WAIT_SLEEP_BYTES);
}

/* One futex sleep while *word == seen; a timeout bounds the damage of a
 * wake-up that never comes (it cannot, but a hang is the worst failure). */
static void sleep_on(_Atomic unsigned *word, unsigned seen, _Atomic int *sleepers) {
  const struct timespec limit = {0, 2 * 1000 * 1000};
  atomic_fetch_add(sleepers, 1);
  /* The kernel rechecks *word == seen atomically with going to sleep, and
   * the waker reads sleepers after changing *word (both sequentially
   * consistent), so either it sees us or we see its change. */
  if (atomic_load(word) == seen)
    syscall(SYS_futex, (unsigned *)word, FUTEX_WAIT, seen, &limit, NULL, 0);
  atomic_fetch_sub(sleepers, 1);
}

void czi_wait_change(czi_wait_word *w, unsigned seen, int sleeps) {
  pthread_once(&once, init);
  for (int i = 0; atomic_load_explicit(&w->value, memory_order_acquire) == seen; i++) {
    if (i < SPINS) continue;
    if (!sleeps || i < SPINS + yields_before_sleep) sched_yield();
    else sleep_on(&w->value, seen, &w->sleepers);
  }
}

void czi_wait_at_least64(_Atomic unsigned long long *flag,
                         unsigned long long want, _Atomic int *sleepers,
                         int sleeps) {
  pthread_once(&once, init);
  /* Little-endian: the low half of the flag is the futex word. */
  _Atomic unsigned *low = (_Atomic unsigned *)flag;
  for (int i = 0;; i++) {
    const unsigned long long now = atomic_load_explicit(flag, memory_order_acquire);
    if (now >= want) return;
    if (i < SPINS) continue;
    if (!sleeps || i < SPINS + yields_before_sleep) sched_yield();
    else sleep_on(low, (unsigned)now, sleepers);
  }
}

void czi_wake(_Atomic unsigned *word, _Atomic int *sleepers) {
  if (atomic_load(sleepers) > 0)
    syscall(SYS_futex, (unsigned *)word, FUTEX_WAKE, 0x7fffffff, NULL, NULL, 0);
}
