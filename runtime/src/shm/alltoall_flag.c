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
  int rc = MPI_SUCCESS;
  czi_shm_alltoall_call call;
  if (!czi_shm_alltoall_start(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                              recvtype, comm, params, &call, &rc))
    return rc;
  czi_shm_view v = call.v;
  czi_shm_blocks b = call.b;
  const int me = call.me, p = call.p;
  const MPI_Aint m = call.m;
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
  CZI_TRY(czi_shm_blocks_close(&b, recvbuf, recvcount, &call.rt, p, me));
fn_fail:
  return rc;
}
