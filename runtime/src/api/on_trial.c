/* on_trial.c: the fast path of a call whose cell is on trial
 * (decision/trial.h): the trial picks the table's own algorithm or the
 * library's collective, times the call when it is one of a trial's, and
 * after a trial's last call agrees on the verdict. Also the out-of-line
 * branch alltoall and allgather share for a remembered call the table
 * does not hand to the library (a call on trial that simply runs the
 * library, czi_trial_runs_lib, goes to it from there, as from the memo
 * that says lib). */
#include "api.h"

int czi_block_call_on_trial(const czi_memo *m, const czi_comm_state *s,
                            const void *sendbuf, int sendcount,
                            MPI_Datatype sendtype, void *recvbuf,
                            int recvcount, MPI_Datatype recvtype) {
  czi_trial_call tc;
  const czi_algorithm *alg = czi_trial_begin(m->trial, m->alg, s->priv, &tc);
  int rc = ((czi_alltoall_fn)alg->fn)(sendbuf, sendcount, sendtype, recvbuf,
                                      recvcount, recvtype, s->priv, &m->params);
  return czi_trial_end(m->trial, s->priv, &tc, rc);
}

int czi_bcast_on_trial(const czi_memo *m, const czi_comm_state *s,
                       void *buffer, int count, MPI_Datatype datatype,
                       int root) {
  czi_trial_call tc;
  const czi_algorithm *alg = czi_trial_begin(m->trial, m->alg, s->priv, &tc);
  int rc = ((czi_bcast_fn)alg->fn)(buffer, count, datatype, root, s->priv,
                                   &m->params);
  return czi_trial_end(m->trial, s->priv, &tc, rc);
}

int czi_allreduce_on_trial(const czi_memo *m, const czi_comm_state *s,
                           const void *sendbuf, void *recvbuf, int count,
                           MPI_Datatype datatype, MPI_Op op) {
  czi_trial_call tc;
  const czi_algorithm *alg = czi_trial_begin(m->trial, m->alg, s->priv, &tc);
  int rc = ((czi_allreduce_fn)alg->fn)(sendbuf, recvbuf, count, datatype, op,
                                       s->priv, &m->params);
  return czi_trial_end(m->trial, s->priv, &tc, rc);
}

int czi_block_call_remembered(const czi_memo *m, const czi_comm_state *s,
                              const void *sendbuf, void *recvbuf) {
  czi_clear_error_fast(); /* its own code describes its failures */
  if (m->local)
    return czi_memo_copy(sendbuf, recvbuf, (size_t)m->sc * m->s_size);
  if (m->trial) {
    /* The library's alltoall when it needs nothing of czi_alltoall_mpi's:
     * one description on both sides (as for a memo that says lib). */
    if ((m->coll == CZ_COLL_ALLGATHER || (m->st == m->rt && m->sc == m->rc)) &&
        czi_trial_runs_lib(m->trial)) {
      if (m->coll == CZ_COLL_ALLGATHER)
        CZI_RETURN_LIB(CZ_COLL_ALLGATHER,
                       PMPI_Allgather(sendbuf, m->sc, m->st, recvbuf, m->rc,
                                      m->rt, s->priv));
      CZI_RETURN_LIB(CZ_COLL_ALLTOALL,
                     PMPI_Alltoall(sendbuf, m->sc, m->st, recvbuf, m->rc, m->rt,
                                   s->priv));
    }
    return czi_block_call_on_trial(m, s, sendbuf, m->sc, m->st, recvbuf, m->rc,
                                   m->rt);
  }
  /* Alltoall and allgather share the signature (czi_alltoall_fn). */
  return ((czi_alltoall_fn)m->alg->fn)(sendbuf, m->sc, m->st, recvbuf, m->rc,
                                       m->rt, s->priv, &m->params);
}
