/*
 * placement_probe.c: how far apart the host has put the node's cores right
 * now, read through the shared window in a few microseconds, and agreed by
 * every rank of the node (decision/placement.c decides what to do with it).
 *
 * Node rank 0 and a partner (node rank 1, or the next rank after a probe
 * that could not tell) bounce one cache line (rank 0 writes odd
 * values, the partner answers with the next even one) in 4 blocks of 4 round trips;
 * rank 0 keeps the fastest block's time per round trip (the fastest,
 * because a descheduled rank only ever adds time). On the 2-vCPU VM this
 * reads ~60-90 ns with the cores near and ~320 ns far (bench/shm/
 * far_cores.c: the same bounce between pinned threads); two ranks on one
 * core read microseconds (every answer waits for a yield), which the
 * thresholds call unknown rather than far. Rank 0 then writes the verdict
 * line, tagged with the probe's number, and every other rank reads it:
 * all ranks take the same verdict at the same call, without a message.
 * Before rank 0 writes the next probe's verdict it waits until every other
 * rank has counted itself in the receipts line, so a rank that runs late
 * (a broadcast's reader) never reads a later verdict in place of its own.
 *
 * Cost: 16 round trips (1.5-5 us), the two ranks meeting (as at a barrier:
 * the skew between them), the others' wait for the verdict.
 */
#include <sched.h>
#include <time.h>

#include "node.h"
#include "node_wait.h"
#include "placement.h"
#include "shm.h"
#include "trial_state.h"

enum { PROBE_BLOCKS = 4, PROBE_TRIPS = 4, PROBE_SPAN = 128, PROBE_SPINS = 2000 };

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* Release stores: the bounce must cost a line's trip, not a fence. */
static void put(czi_shm_flag *f, unsigned long long v) {
  atomic_store_explicit(&f->value, v, memory_order_release);
}
/* A plain spin first: the node's waits yield after 64 loads, and a yield
 * (~0.5 us here) would be most of what the probe reads. */
static void await(czi_shm_flag *f, unsigned long long want) {
  for (int i = 0; i < PROBE_SPINS; i++)
    if (atomic_load_explicit(&f->value, memory_order_acquire) >= want) return;
  czi_wait_at_least64(&f->value, want, &f->sleepers, 0);
}

/* Rank 0's side: the fastest block's time per round trip. A first block
 * that passes give_up_ns a trip on average ends the probe at once (the two
 * ranks share a core: every trip waits for a yield); rank 1 sees the
 * verdict and stops answering. */
static double bounce(czi_shm_flag *line, unsigned long long base,
                     double give_up_ns) {
  double best = -1;
  for (int b = 0; b < PROBE_BLOCKS; b++) {
    const double t0 = now_ns();
    for (int i = 0; i < PROBE_TRIPS; i++) {
      const unsigned long long k = base + 2 * (unsigned long long)(b * PROBE_TRIPS + i);
      put(line, k + 1);
      await(line, k + 2);
      const double spent = now_ns() - t0;
      if (b == 0 && spent > give_up_ns * PROBE_TRIPS) return spent / (i + 1);
    }
    const double per_trip = (now_ns() - t0) / PROBE_TRIPS;
    if (best < 0 || per_trip < best) best = per_trip;
  }
  return best;
}

/* The partner's side: answer every ping until rank 0 posts the verdict `told`
 * (early when it gave up). */
static void answer(czi_shm_flag *line, czi_shm_flag *verdict,
                   unsigned long long base, unsigned long long told) {
  for (int j = 0; j < PROBE_BLOCKS * PROBE_TRIPS; j++) {
    const unsigned long long ping = base + 2 * (unsigned long long)j + 1;
    for (int i = 0; atomic_load_explicit(&line->value, memory_order_acquire) < ping; i++) {
      if (atomic_load_explicit(&verdict->value, memory_order_acquire) >= told) return;
      if (i >= PROBE_SPINS) sched_yield();
    }
    put(line, ping + 1);
  }
}

int czi_shm_probe_placement(MPI_Comm priv, long long bytes, unsigned attempt,
                            double near_max_ns, double far_max_ns, int *state,
                            double *rtt_ns) {
  int rc = MPI_SUCCESS, usable = 0;
  czi_shm_view v;
  czi_node_ctx *ctx = NULL;
  *state = CZI_PLACE_UNKNOWN;
  *rtt_ns = -1;
  /* The algorithms make the window at their first call, sized for it; a
   * probe before that would make a small one for them to grow. */
  CZI_TRY(czi_node_ctx_get(priv, &ctx));
  if (!ctx->shm) return MPI_SUCCESS;
  CZI_TRY(czi_shm_get(priv, 0, &v, &usable));
  /* Every rank of every node sees the same p, nnodes and usable. */
  if (!usable || v.p < 2 || v.nnodes > 1) return MPI_SUCCESS;
  czi_shm_wait_for(&v, bytes);
  czi_shm_bcast_ctl *c = v.shm->bctl;
  const unsigned long long seq = ++v.shm->probes;
  const unsigned long long base = seq * PROBE_SPAN;
  if (v.me == 0) {
    const double rtt = bounce(&c->probe_line, base, far_max_ns);
    int s = CZI_PLACE_UNKNOWN;
    if (rtt <= near_max_ns) s = CZI_PLACE_NEAR;
    else if (rtt <= far_max_ns) s = CZI_PLACE_FAR;
    czi_shm_wait_at_least(&v, &c->probe_read,
                          (unsigned long long)(v.p - 1) * (seq - 1));
    czi_shm_flag_set(&c->probe_verdict, seq * 4 + (unsigned long long)s);
    *state = s;
    *rtt_ns = rtt;
    return MPI_SUCCESS;
  }
  const int partner = 1 + (int)(attempt % (unsigned)(v.p - 1));
  if (v.me == partner) answer(&c->probe_line, &c->probe_verdict, base, seq * 4);
  czi_shm_wait_at_least(&v, &c->probe_verdict, seq * 4);
  *state = (int)(atomic_load(&c->probe_verdict.value) - seq * 4);
  czi_shm_flag_add(&c->probe_read, 1);
  czi_shm_flag_wake(&c->probe_read);
fn_fail:
  return rc;
}
