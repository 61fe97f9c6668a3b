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

static void nothing(const czi_shm_view *v, int from, void *arg) {
  (void)v, (void)from, (void)arg;
}

/* Elements [*lo, *hi) of a round of k elements are rank r's slice. */
static void slice(int r, int p, int k, int *lo, int *hi) {
  const int per = k / p, extra = k % p;
  *lo = r * per + (r < extra ? r : extra);
  *hi = *lo + per + (r < extra);
}

int czi_allreduce_shm_rs(CZI_ALLREDUCE_ARGS) {
  int rc = MPI_SUCCESS, me, p, usable = 0;
  czi_type t;
  czi_shm_view v;

  CZI_MPI(PMPI_Comm_rank(comm, &me));
  CZI_MPI(PMPI_Comm_size(comm, &p));
  CZI_TRY(czi_type_get(datatype, &t));
  const MPI_Aint n = (MPI_Aint)count * (MPI_Aint)t.size;
  const char *in = sendbuf == MPI_IN_PLACE ? (const char *)recvbuf : sendbuf;
  if (n == 0) return MPI_SUCCESS;
  if (!t.dense)
    return czi_allreduce_mpi(sendbuf, recvbuf, count, datatype, op, comm, params);
  if (p == 1) {
    if (in != (const char *)recvbuf)
      memcpy((char *)recvbuf + t.true_lb, in + t.true_lb, (size_t)n);
    return MPI_SUCCESS;
  }
  CZI_TRY(czi_shm_get(comm, n, &v, &usable));
  if (!usable || v.nnodes > 1 || (MPI_Aint)t.size > v.shm->half)
    return czi_allreduce_mpi(sendbuf, recvbuf, count, datatype, op, comm, params);
  czi_shm_wait_for(&v, (long long)n);
  const int per_round = (int)(v.shm->half / (MPI_Aint)t.size);
  const MPI_Aint sz = (MPI_Aint)t.size;
  char *out = (char *)recvbuf + t.true_lb;
  in += t.true_lb;
  for (int first = 0; first < count; first += per_round) {
    const int k = count - first < per_round ? count - first : per_round;
    const MPI_Aint off = (MPI_Aint)first * sz;
    const unsigned long long e = v.shm->epoch;
    memcpy(czi_shm_half(&v, me, e), in + off, (size_t)k * t.size);
    czi_shm_publish(&v, e);
    czi_shm_each_ready(&v, e, nothing, NULL);
    int lo, hi;
    slice(me, p, k, &lo, &hi);
    char *acc = czi_shm_half(&v, me, e + 1) + lo * sz;
    if (hi > lo) {
      memcpy(acc, czi_shm_half(&v, p - 1, e) + lo * sz, (size_t)(hi - lo) * t.size);
      for (int r = p - 2; r >= 0 && rc == MPI_SUCCESS; r--) {
        rc = PMPI_Reduce_local(czi_shm_half(&v, r, e) + lo * sz - t.true_lb,
                               acc - t.true_lb, hi - lo, datatype, op);
        if (rc != MPI_SUCCESS) rc = czi_mpi_fail(rc, __func__, "PMPI_Reduce_local");
      }
    }
    czi_shm_publish(&v, e + 1);
    czi_shm_each_ready(&v, e + 1, nothing, NULL);
    for (int r = 0; r < p; r++) {
      slice(r, p, k, &lo, &hi);
      memcpy(out + off + lo * sz, czi_shm_half(&v, r, e + 1) + lo * sz,
             (size_t)(hi - lo) * t.size);
    }
    /* Round counts stay in step on every rank even after a failure here. */
    v.shm->epoch += 2;
  }
fn_fail:
  return rc;
}
