/* alltoallv.c: cz_alltoallv (decision table by process count: ranks hold
 * different amounts and must all choose alike; a planned rule hands the
 * size decision to the plan, which knows the global sizes) and the
 * cz_alltoallv_<algo> entry points. Calls seen before take the fast path
 * (api.h, czi_fast_path). */
#include <stdlib.h>
#include <string.h>

#include "api.h"

int czi_check_vector(const char *fn, const char *counts_name,
                        const int *counts, const char *displs_name,
                        const int *displs, int size) {
  if (!counts)
    return czi_fail(MPI_ERR_ARG, fn, "%s is NULL", counts_name);
  if (!displs)
    return czi_fail(MPI_ERR_ARG, fn, "%s is NULL", displs_name);
  for (int i = 0; i < size; i++)
    if (counts[i] < 0)
      return czi_fail(MPI_ERR_COUNT, fn, "%s[%d] is negative (%d)", counts_name,
                      i, counts[i]);
  return MPI_SUCCESS;
}

/* The fast path's version of czi_check_vector for both sides: no message
 * (a failing call takes the checking path, which writes it). One branch
 * for all counts: a negative one sets the sign bit of their OR. */
static inline int czi_vectors_ok(const int *sendcounts, const int *sdispls,
                                 const int *recvcounts, const int *rdispls,
                                 int size) {
  if (!sendcounts || !sdispls || !recvcounts || !rdispls) return 0;
  int any = 0;
  for (int i = 0; i < size; i++) any |= sendcounts[i] | recvcounts[i];
  return any >= 0;
}

static int run_alltoallv(const char *fn, const czi_algorithm *alg, int param,
                         const void *sendbuf, const int *sendcounts,
                         const int *sdispls, MPI_Datatype sendtype,
                         void *recvbuf, const int *recvcounts,
                         const int *rdispls, MPI_Datatype recvtype,
                         MPI_Comm comm) {
  int rc = MPI_SUCCESS, from_table = 0;
  czi_call call;
  char *scratch = NULL;
  czi_clear_error();
  CZI_TRY(czi_check_comm(fn, comm, &call));
  CZI_TRY(czi_check_vector(fn, "recvcounts", recvcounts, "rdispls", rdispls,
                       call.size));
  CZI_TRY(czi_check_type(fn, "recvtype", recvtype, &call.rt));
  if (sendbuf != MPI_IN_PLACE) {
    CZI_TRY(czi_check_vector(fn, "sendcounts", sendcounts, "sdispls", sdispls,
                         call.size));
    CZI_TRY(czi_check_type(fn, "sendtype", sendtype, &call.st));
  }
  if (!alg) {
    czi_choice choice;
    /* -1: block sizes unknown here (a plan learns them). */
    CZI_TRY(czi_select(CZ_COLL_ALLTOALLV, call.size, -1, &choice));
    alg = choice.alg;
    param = choice.param;
    from_table = choice.from_table;
    if (sendbuf != MPI_IN_PLACE) {
      /* Keyed by the types alone: the counts are checked on every call. */
      czi_params chosen = {param, from_table};
      czi_memo_fill(call.state, CZ_COLL_ALLTOALLV, &call.st, 0, &call.rt, 0,
                    alg, &chosen, czi_memo_kind_of(alg), NULL);
    }
  }
  alg = czi_algorithm_for_procs(alg, call.size);
  if (sendbuf == MPI_IN_PLACE && !czi_takes_in_place(alg)) {
    /* Copy the whole span the receive blocks cover, holes included. */
    MPI_Aint lo = 0, hi = 0;
    int any = 0;
    for (int i = 0; i < call.size; i++) {
      if (recvcounts[i] == 0) continue;
      MPI_Aint start = (MPI_Aint)rdispls[i] * call.rt.extent + call.rt.true_lb;
      MPI_Aint end = start + czi_span(recvcounts[i], &call.rt);
      if (!any || start < lo) lo = start;
      if (!any || end > hi) hi = end;
      any = 1;
    }
    CZI_SCRATCH(scratch, CZI_SCRATCH_IN_PLACE, hi - lo);
    if (hi > lo) czi_copy(scratch, czi_at(recvbuf, lo), (size_t)(hi - lo));
    sendbuf = czi_at(scratch, -lo);
    sendcounts = recvcounts;
    sdispls = rdispls;
    sendtype = recvtype;
  }
  czi_params params = {param, from_table};
  rc = ((czi_alltoallv_fn)alg->fn)(sendbuf, sendcounts, sdispls, sendtype,
                                   recvbuf, recvcounts, rdispls, recvtype,
                                   call.priv, &params);
fn_fail:
  return rc;
}

/* The checking path, out of line (as alltoall_checked); it clears a
 * pending error message. */
static __attribute__((noinline, cold)) int
alltoallv_checked(const void *sendbuf, const int *sendcounts,
                  const int *sdispls, MPI_Datatype sendtype, void *recvbuf,
                  const int *recvcounts, const int *rdispls,
                  MPI_Datatype recvtype, MPI_Comm comm) {
  return run_alltoallv("cz_alltoallv", NULL, 0, sendbuf, sendcounts, sdispls,
                       sendtype, recvbuf, recvcounts, rdispls, recvtype, comm);
}

int cz_alltoallv(const void *sendbuf, const int sendcounts[],
                 const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
                 const int recvcounts[], const int rdispls[],
                 MPI_Datatype recvtype, MPI_Comm comm) {
  czi_comm_state *s;
  const czi_memo *m =
      sendbuf == MPI_IN_PLACE
          ? NULL
          : czi_fast_path(comm, CZ_COLL_ALLTOALLV, sendtype, 0, recvtype, 0,
                          sendbuf, recvbuf, &s);
  /* Unlike the other entry points, the other memo kinds stay inline here:
   * the count check already needs the registers an out-of-line branch would
   * save (bench/dispatch/instructions.c: 5 more at P = 2, 28 at P = 1). */
  if (m && !czi_flags.error_pending &&
      czi_vectors_ok(sendcounts, sdispls, recvcounts, rdispls, s->size)) {
    if (m->lib)
      CZI_RETURN_LIB_TAIL(CZ_COLL_ALLTOALLV,
                          PMPI_Alltoallv(sendbuf, sendcounts, sdispls,
                                         sendtype, recvbuf, recvcounts,
                                         rdispls, recvtype, s->priv));
    czi_flags.lib_call = 0; /* the runtime's own code describes its failures */
    if (m->local) {
      /* One process: the one block, if its sizes agree and its buffers are
       * there (else self says what is wrong). */
      const size_t bytes = (size_t)sendcounts[0] * m->s_size;
      if (bytes == (size_t)recvcounts[0] * m->r_size &&
          (!bytes || (sendbuf && recvbuf)))
        return czi_memo_copy(czi_at(sendbuf, sdispls[0] * m->s_extent),
                             czi_at(recvbuf, rdispls[0] * m->r_extent), bytes);
    }
    return ((czi_alltoallv_fn)m->alg->fn)(sendbuf, sendcounts, sdispls,
                                          sendtype, recvbuf, recvcounts,
                                          rdispls, recvtype, s->priv,
                                          &m->params);
  }
  CZI_MUSTTAIL return alltoallv_checked(sendbuf, sendcounts, sdispls,
                                        sendtype, recvbuf, recvcounts, rdispls,
                                        recvtype, comm);
}

#define CZ_ALLTOALLV_ENTRY(algo, param_default)                               \
  int cz_alltoallv_##algo(const void *sendbuf, const int sendcounts[],        \
                          const int sdispls[], MPI_Datatype sendtype,         \
                          void *recvbuf, const int recvcounts[],              \
                          const int rdispls[], MPI_Datatype recvtype,         \
                          MPI_Comm comm) {                                    \
    return run_alltoallv(__func__,                                            \
                         czi_algorithm_named(CZ_COLL_ALLTOALLV, #algo),       \
                         param_default,                                       \
                         sendbuf, sendcounts, sdispls, sendtype, recvbuf,     \
                         recvcounts, rdispls, recvtype, comm);                \
  }
/* cz_alltoallv_<name> for every algorithm in algorithms.def, run with its
 * parameter's default. */
#define CZI_ALLTOALLV_ALGORITHM(algo, param, param_default, ...) \
  CZ_ALLTOALLV_ENTRY(algo, param_default)
#include "algorithms.def"

int cz_alltoallv_algorithm(const char *algorithm, const void *sendbuf,
                           const int sendcounts[], const int sdispls[],
                           MPI_Datatype sendtype, void *recvbuf,
                           const int recvcounts[], const int rdispls[],
                           MPI_Datatype recvtype, MPI_Comm comm) {
  const czi_algorithm *alg;
  int param;
  int rc = czi_algorithm_by_name(__func__, CZ_COLL_ALLTOALLV, algorithm, &alg,
                                 &param);
  if (rc != MPI_SUCCESS) return rc;
  return run_alltoallv(__func__, alg, param, sendbuf, sendcounts, sdispls,
                       sendtype, recvbuf, recvcounts, rdispls, recvtype, comm);
}
