/* alltoall_flag.c: the one round-flag alltoall behind shm_flag_push and
 * shm_flag_pull (their files give the steps and costs). They differ only
 * in where a block waits between its writer and its reader: in the
 * reader's region (push: the writer writes remotely) or in the writer's
 * (pull: the reader reads remotely), and in the several-node algorithm
 * they hand over to. */
#include <string.h>

#include "shm.h"

typedef struct {
  const czi_shm_blocks *b;
  MPI_Aint off, c;
  size_t len;
  unsigned long long e;
  int push;
} round_args;

/* Block `from` -> me of this round, now that rank `from`'s flag is set. */
static void copy_to_recv(const czi_shm_view *v, int from, void *arg) {
  const round_args *r = arg;
  const char *at = r->push ? czi_shm_half(v, v->me, r->e) + (MPI_Aint)from * r->c
                           : czi_shm_half(v, from, r->e) + (MPI_Aint)v->me * r->c;
  memcpy(r->b->recv + from * r->b->m + r->off, at, r->len);
}

int czi_shm_alltoall_flag(CZI_ALLTOALL_ARGS, int push) {
  int rc = MPI_SUCCESS, me, p, usable = 0;
  czi_type st, rt;
  czi_shm_view v;
  czi_shm_blocks b;

  CZI_TRY(czi_block_setup(comm, sendtype, recvtype, &me, &p, &st, &rt));
  const MPI_Aint m = (MPI_Aint)sendcount * (MPI_Aint)st.size;
  if (p == 1 || m == 0)
    return czi_copy_local(czi_block(sendbuf, me, sendcount, &st), sendcount,
                          &st, czi_block(recvbuf, me, recvcount, &rt),
                          recvcount, &rt);
  CZI_TRY(czi_shm_get(comm, (MPI_Aint)p * m, &v, &usable));
  if (usable && v.nnodes > 1) /* the barrier version's several-node paths */
    return (push ? czi_alltoall_shm_push : czi_alltoall_shm_pull)(
        sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, params);
  if (!usable)
    return czi_alltoall_mpi(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                            recvtype, comm, params);
  czi_shm_wait_for(&v, (long long)p * m);
  CZI_TRY(czi_copy_local(czi_block(sendbuf, me, sendcount, &st), sendcount, &st,
                         czi_block(recvbuf, me, recvcount, &rt), recvcount,
                         &rt));
  CZI_TRY(czi_shm_blocks_open(sendbuf, sendcount, &st, p, me, recvbuf,
                              recvcount, &rt, p, &b));
  round_args r = {&b, 0, czi_shm_chunk(v.shm, m, p), 0, 0, push};
  for (r.off = 0; r.off < m; r.off += r.c) {
    r.len = (size_t)(m - r.off < r.c ? m - r.off : r.c);
    r.e = v.shm->epoch;
    for (int i = 1; i < p; i++) {
      const int to = (me + i) % p;
      char *at = push ? czi_shm_half(&v, to, r.e) + (MPI_Aint)me * r.c
                      : czi_shm_half(&v, me, r.e) + (MPI_Aint)to * r.c;
      memcpy(at, b.send + to * m + r.off, r.len);
    }
    czi_shm_publish(&v, r.e);
    czi_shm_each_ready(&v, r.e, copy_to_recv, &r);
    v.shm->epoch++;
  }
  CZI_TRY(czi_shm_blocks_close(&b, recvbuf, recvcount, &rt, p, me));
fn_fail:
  return rc;
}
