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
  czi_copy(r->b->recv + from * r->b->m + r->off, at, r->len);
}

int czi_shm_alltoall_flag(CZI_ALLTOALL_ARGS, int push) {
  int rc = MPI_SUCCESS;
  czi_shm_alltoall_call s;
  if (!czi_shm_alltoall_start(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                              recvtype, comm, params, &s, &rc))
    return rc;
  round_args r = {&s.b, 0, czi_shm_chunk(s.v.shm, s.m, s.p), 0, 0, push};
  for (r.off = 0; r.off < s.m; r.off += r.c) {
    r.len = (size_t)(s.m - r.off < r.c ? s.m - r.off : r.c);
    r.e = s.v.shm->epoch;
    for (int i = 1; i < s.p; i++) {
      const int to = (s.me + i) % s.p;
      char *at = push ? czi_shm_half(&s.v, to, r.e) + (MPI_Aint)s.me * r.c
                      : czi_shm_half(&s.v, s.me, r.e) + (MPI_Aint)to * r.c;
      czi_copy_to_peers(at, s.b.send + to * s.m + r.off, r.len);
    }
    czi_shm_publish(&s.v, r.e);
    czi_shm_each_ready(&s.v, r.e, copy_to_recv, &r);
    s.v.shm->epoch++;
  }
  CZI_TRY(czi_shm_blocks_close(&s.b, recvbuf, recvcount, &s.rt, s.p, s.me));
fn_fail:
  return rc;
}
