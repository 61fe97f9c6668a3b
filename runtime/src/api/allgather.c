/* allgather.c: cz_allgather (decision table) and the cz_allgather_<algo>
 * entry points. MPI_IN_PLACE becomes "send my own block of recvbuf"; the
 * algorithms' local copy of it is then a no-op. Calls seen before take the
 * fast path (api.h, czi_fast_path). */
#include <stdlib.h>

#include "api.h"

static int run_allgather(const char *fn, const czi_algorithm *alg, int param,
                         const void *sendbuf, int sendcount,
                         MPI_Datatype sendtype, void *recvbuf, int recvcount,
                         MPI_Datatype recvtype, MPI_Comm comm) {
  int rc = MPI_SUCCESS;
  czi_call call;
  int from_table = 0;
  czi_trial *trial = NULL;
  czi_trial_call tc;
  czi_clear_error();
  CZI_TRY(czi_check_block_call(fn, sendbuf, sendcount, sendtype, recvbuf,
                               recvcount, recvtype, comm, &call));
  if (!alg) {
    czi_choice choice;
    const long long bytes = (long long)recvcount * (long long)call.rt.size;
    CZI_TRY(czi_select(CZ_COLL_ALLGATHER, call.size, bytes, &choice));
    alg = choice.alg;
    param = choice.param;
    from_table = choice.from_table;
    czi_params chosen = {param, from_table};
    trial = czi_trial_for(call.state, CZ_COLL_ALLGATHER, alg, &chosen, bytes);
    if (sendbuf != MPI_IN_PLACE)
      czi_memo_fill(call.state, CZ_COLL_ALLGATHER, &call.st, sendcount,
                    &call.rt, recvcount, alg, &chosen, czi_memo_kind_of(alg),
                    trial);
  }
  /* Before the in-place rewrite: the library's collective takes it as given. */
  alg = czi_trial_begin(trial, czi_algorithm_for_procs(alg, call.size),
                        call.priv, &tc);
  if (sendbuf == MPI_IN_PLACE && !czi_takes_in_place(alg)) {
    sendbuf = czi_block(recvbuf, call.rank, recvcount, &call.rt);
    sendcount = recvcount;
    sendtype = recvtype;
  }
  czi_params params = {param, from_table};
  rc = ((czi_allgather_fn)alg->fn)(sendbuf, sendcount, sendtype, recvbuf,
                                   recvcount, recvtype, call.priv, &params);
  rc = czi_trial_end(trial, call.priv, &tc, rc);
fn_fail:
  return rc;
}

/* allgather_checked and cz_allgather (api.h). */
CZI_BLOCK_ENTRY_POINT(allgather, CZ_COLL_ALLGATHER, PMPI_Allgather)

#define CZ_ALLGATHER_ENTRY(algo, param_default)                               \
  int cz_allgather_##algo(const void *sendbuf, int sendcount,                 \
                          MPI_Datatype sendtype, void *recvbuf, int recvcount, \
                          MPI_Datatype recvtype, MPI_Comm comm) {             \
    return run_allgather(__func__,                                            \
                         czi_algorithm_named(CZ_COLL_ALLGATHER, #algo),       \
                         param_default,                                       \
                         sendbuf, sendcount, sendtype, recvbuf, recvcount,    \
                         recvtype, comm);                                     \
  }
/* cz_allgather_<name> for every algorithm in algorithms.def, run with its
 * parameter's default. */
#define CZI_ALLGATHER_ALGORITHM(algo, param, param_default, ...) \
  CZ_ALLGATHER_ENTRY(algo, param_default)
#include "algorithms.def"

int cz_allgather_algorithm(const char *algorithm, const void *sendbuf,
                           int sendcount, MPI_Datatype sendtype, void *recvbuf,
                           int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  const czi_algorithm *alg;
  int param;
  int rc = czi_algorithm_by_name(__func__, CZ_COLL_ALLGATHER, algorithm, &alg,
                                 &param);
  if (rc != MPI_SUCCESS) return rc;
  return run_allgather(__func__, alg, param, sendbuf, sendcount, sendtype,
                       recvbuf, recvcount, recvtype, comm);
}
