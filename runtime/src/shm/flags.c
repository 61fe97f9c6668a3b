/* flags.c: per-rank round flags, the *_flag algorithms' synchronisation
 * instead of the node barrier (see shm.h). A writer publishes its round
 * once; a reader copies from each writer as soon as that writer is ready,
 * so early writers' data is copied while late ones are still coming, and a
 * sleeping reader is woken by the writer it waits for, not by the last
 * rank to arrive (one wake-up storm of P-1 sleepers per call with the
 * barrier). */
#include <stdlib.h>

#include "shm.h"

void czi_shm_publish(const czi_shm_view *v, unsigned long long epoch) {
  czi_shm_flag_set(czi_shm_seq(v, v->me), epoch + 1);
}

void czi_shm_each_ready(const czi_shm_view *v, unsigned long long epoch,
                        void (*copy)(const czi_shm_view *v, int from, void *arg),
                        void *arg) {
  const unsigned long long want = epoch + 1;
  const int p = v->p, me = v->me;
  unsigned char local[256];
  unsigned char *done = p <= (int)sizeof local ? local : malloc((size_t)p);
  if (!done) { /* no memory for the bookkeeping: take peers in order */
    for (int i = 1; i < p; i++) {
      const int from = czi_mod(me - i, p);
      czi_shm_wait_at_least(v, czi_shm_seq(v, from), want);
      copy(v, from, arg);
    }
    return;
  }
  for (int i = 0; i < p; i++) done[i] = 0;
  for (int left = p - 1; left > 0;) {
    int first = -1, progressed = 0;
    for (int i = 1; i < p; i++) {
      const int from = czi_mod(me - i, p);
      if (done[from]) continue;
      if (atomic_load_explicit(&czi_shm_seq(v, from)->value,
                               memory_order_acquire) >= want) {
        copy(v, from, arg);
        done[from] = 1;
        left--;
        progressed = 1;
      } else if (first < 0) {
        first = from;
      }
    }
    /* Nobody new: wait (spin, yield or sleep) for the first missing one. */
    if (!progressed && first >= 0)
      czi_shm_wait_at_least(v, czi_shm_seq(v, first), want);
  }
  if (done != local) free(done);
}

void czi_shm_wait_all(const czi_shm_view *v, unsigned long long epoch) {
  for (int i = 1; i < v->p; i++)
    czi_shm_wait_at_least(v, czi_shm_seq(v, czi_mod(v->me - i, v->p)), epoch + 1);
}
