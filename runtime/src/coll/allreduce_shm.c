/*
 * allreduce_shm.c: single-node allreduce through shared memory. Per round,
 * every rank copies (a chunk of) its input into its region of the node's
 * window (half epoch&1) and publishes its round flag (shm/flags.c); once
 * every peer's flag is up, every rank reduces all P inputs itself, in rank
 * order: r = x_{P-1}, then r = x_i op r for i = P-2 .. 0 (PMPI_Reduce_local),
 * i.e. x_0 op x_1 op ... op x_{P-1}, MPI's order for non-commutative ops;
 * every rank computes the same operations on the same bytes, so all get
 * identical results. No barrier: a rank rewrites a half two rounds later,
 * after seeing every peer's next flag, set only after that peer's reads.
 *
 *  per round of c bytes: 1 copy in, publish, wait for P-1 flags,
 *  1 copy + (P-1) local reductions of c bytes.
 *
 * Cost (n = message bytes, R = ceil(n/c), β_c per copied byte, γ per
 * reduced byte, α_f a flag hand-off): T = R·α_f + 2·n·β_c + (P-1)·n·γ per
 * rank; one synchronisation instead of the ~log2 P message rounds of
 * recursive doubling, but P times the reduction work of a reduce-scatter,
 * so it pays for small and medium messages (bench/README.md, "Would a
 * shared-memory allreduce pay?"). Window: 2·c per rank.
 * Restrictions: contiguous datatypes (the window holds the data as bytes
 * and reduces it with the same datatype); others, messages on several
 * (simulated) nodes, elements larger than a window half, and no window at
 * all: the library's allreduce.
 * Example, P = 4, op -: every rank computes x0 - (x1 - (x2 - x3)) over the
 * four inputs in the window (the op must be associative, as MPI requires).
 */
#include <string.h>

#include "shm.h"

int czi_allreduce_shm(CZI_ALLREDUCE_ARGS) {
  int rc = MPI_SUCCESS;
  czi_shm_allreduce_call c;
  if (!czi_shm_allreduce_start(sendbuf, recvbuf, count, datatype, op, comm, params, &c, &rc))
    return rc;
  czi_shm_view *v = &c.v;
  for (int first = 0; first < count; first += c.per_round) {
    const int k = count - first < c.per_round ? count - first : c.per_round;
    const MPI_Aint off = (MPI_Aint)first * (MPI_Aint)c.t.size;
    const size_t len = (size_t)k * c.t.size;
    const unsigned long long e = v->shm->epoch;
    czi_copy_to_peers(czi_shm_half(v, c.me, e), c.in + off, len);
    czi_shm_publish(v, e);
    czi_shm_wait_all(v, e);
    czi_copy(c.out + off, czi_shm_half(v, c.p - 1, e), len);
    for (int r = c.p - 2; r >= 0 && rc == MPI_SUCCESS; r--) {
      rc = PMPI_Reduce_local(czi_shm_half(v, r, e) - c.t.true_lb,
                             c.out + off - c.t.true_lb, k, datatype, op);
      if (rc != MPI_SUCCESS) rc = czi_mpi_fail(rc, __func__, "PMPI_Reduce_local");
    }
    /* Round counts stay in step on every rank even after a failure here. */
    v->shm->epoch++;
  }
  return rc;
}
