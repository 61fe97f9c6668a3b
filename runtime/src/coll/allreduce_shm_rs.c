/*
 * allreduce_shm_rs.c: single-node allreduce through shared memory as a
 * reduce-scatter followed by an allgather, both in the node's window, with
 * round flags (shm/flags.c) and no barrier. Round 1: every rank copies (a
 * chunk of) its input into its half epoch&1 and publishes. Round 2: rank i
 * reduces slice i (1/P of the elements) over all P inputs, in rank order
 * (x_0 op (x_1 op (... op x_{P-1}))), into its other half, and publishes;
 * then every rank copies all P reduced slices out. Every element is
 * reduced once on the node, so large messages do not pay allreduce shm's
 * P-fold reduction work. Halves are reused two rounds later only after
 * every peer's flag of the round in between (every rank waits for every
 * other in each round).
 *
 *  per chunk of c bytes: 1 copy in, publish, wait for P-1 flags; 1 copy +
 *  (P-1) reductions of c/P bytes, publish, wait for P-1 flags; P copies of
 *  c/P bytes out.
 *
 * Cost (n = message bytes, R = ceil(n/c), β_c per copied byte, γ per
 * reduced byte, α_f a flag hand-off): T = 2·R·α_f + (2 + 1/P)·n·β_c +
 * (P-1)/P·n·γ per rank (allreduce shm: R·α_f + 2·n·β_c + (P-1)·n·γ), so
 * it wins for large messages and loses a flag round for small ones.
 * Window: 2·c per rank. Restrictions as allreduce shm: contiguous
 * datatypes; others, several (simulated) nodes, elements larger than a
 * window half, and no window: the library's allreduce.
 * Example, P = 4, 8 elements: rank 1 reduces elements 2 and 3 of all four
 * inputs; everyone then copies elements 0-1 from rank 0, 2-3 from rank 1,
 * and so on.
 */
#include <string.h>

#include "shm.h"

/* Elements [*lo, *hi) of a round of k elements are rank r's slice. */
static void slice(int r, int p, int k, int *lo, int *hi) {
  const int per = k / p, extra = k % p;
  *lo = r * per + (r < extra ? r : extra);
  *hi = *lo + per + (r < extra);
}

int czi_allreduce_shm_rs(CZI_ALLREDUCE_ARGS) {
  int rc = MPI_SUCCESS;
  czi_shm_allreduce_call c;
  if (!czi_shm_allreduce_start(sendbuf, recvbuf, count, datatype, op, comm, params, &c, &rc))
    return rc;
  czi_shm_view *v = &c.v;
  const MPI_Aint sz = (MPI_Aint)c.t.size;
  for (int first = 0; first < count; first += c.per_round) {
    const int k = count - first < c.per_round ? count - first : c.per_round;
    const MPI_Aint off = (MPI_Aint)first * sz;
    const unsigned long long e = v->shm->epoch;
    czi_copy_to_peers(czi_shm_half(v, c.me, e), c.in + off, (size_t)k * c.t.size);
    czi_shm_publish(v, e);
    czi_shm_wait_all(v, e);
    int lo, hi;
    slice(c.me, c.p, k, &lo, &hi);
    char *acc = czi_shm_half(v, c.me, e + 1) + lo * sz;
    if (hi > lo) {
      czi_copy(acc, czi_shm_half(v, c.p - 1, e) + lo * sz, (size_t)(hi - lo) * c.t.size);
      for (int r = c.p - 2; r >= 0 && rc == MPI_SUCCESS; r--) {
        rc = PMPI_Reduce_local(czi_shm_half(v, r, e) + lo * sz - c.t.true_lb,
                               acc - c.t.true_lb, hi - lo, datatype, op);
        if (rc != MPI_SUCCESS) rc = czi_mpi_fail(rc, __func__, "PMPI_Reduce_local");
      }
    }
    czi_shm_publish(v, e + 1);
    czi_shm_wait_all(v, e + 1);
    for (int r = 0; r < c.p; r++) {
      slice(r, c.p, k, &lo, &hi);
      czi_copy(c.out + off + lo * sz, czi_shm_half(v, r, e + 1) + lo * sz,
             (size_t)(hi - lo) * c.t.size);
    }
    /* Round counts stay in step on every rank even after a failure here. */
    v->shm->epoch += 2;
  }
  return rc;
}
