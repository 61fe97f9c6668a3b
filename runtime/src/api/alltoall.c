/* alltoall.c: cz_alltoall (decision table) and the cz_alltoall_<algo> entry
 * points. Checks arguments, resolves MPI_IN_PLACE into a scratch copy of
 * recvbuf (the library's own collective gets it as given), then runs the
 * algorithm on the private communicator. A call whose communicator, types
 * and counts this thread has checked before goes straight to the table's
 * algorithm (api.h, czi_fast_path). */
#include <stdlib.h>
#include <string.h>

#include "api.h"

static int run_alltoall(const char *fn, const czi_algorithm *alg, int param,
                        const void *sendbuf, int sendcount,
                        MPI_Datatype sendtype, void *recvbuf, int recvcount,
                        MPI_Datatype recvtype, MPI_Comm comm) {
  int rc = MPI_SUCCESS;
  czi_call call;
  char *scratch = NULL;
  int from_table = 0;
  czi_trial *trial = NULL;
  czi_trial_call tc;
  czi_clear_error();
  CZI_TRY(czi_check_block_call(fn, sendbuf, sendcount, sendtype, recvbuf,
                               recvcount, recvtype, comm, &call));
  if (!alg) {
    czi_choice choice;
    const long long bytes = (long long)recvcount * (long long)call.rt.size;
    CZI_TRY(czi_select(CZ_COLL_ALLTOALL, call.size, bytes, &choice));
    alg = choice.alg;
    param = choice.param;
    from_table = choice.from_table;
    czi_params chosen = {param, from_table};
    trial = czi_trial_for(call.state, CZ_COLL_ALLTOALL, alg, &chosen, bytes);
    if (sendbuf != MPI_IN_PLACE) {
      czi_memo_kind kind = czi_memo_kind_of(alg);
      /* Descriptions that differ need czi_alltoall_mpi's packing. */
      if (kind == CZI_MEMO_LIB &&
          (sendtype != recvtype || sendcount != recvcount))
        kind = CZI_MEMO_ALG;
      czi_memo_fill(call.state, CZ_COLL_ALLTOALL, &call.st, sendcount,
                    &call.rt, recvcount, alg, &chosen, kind, trial);
    }
  }
  /* Before the in-place rewrite: the library's collective takes it as given. */
  alg = czi_trial_begin(trial, czi_algorithm_for_procs(alg, call.size),
                        call.priv, &tc);
  if (sendbuf == MPI_IN_PLACE && !czi_takes_in_place(alg)) {
    MPI_Aint span = czi_span(call.size * recvcount, &call.rt);
    CZI_SCRATCH(scratch, CZI_SCRATCH_IN_PLACE, span);
    if (span) czi_copy(scratch, czi_at(recvbuf, call.rt.true_lb), (size_t)span);
    sendbuf = czi_at(scratch, -call.rt.true_lb);
    sendcount = recvcount;
    sendtype = recvtype;
  }
  czi_params params = {param, from_table};
  rc = ((czi_alltoall_fn)alg->fn)(sendbuf, sendcount, sendtype, recvbuf,
                                  recvcount, recvtype, call.priv, &params);
  rc = czi_trial_end(trial, call.priv, &tc, rc);
fn_fail:
  return rc;
}

/* alltoall_checked and cz_alltoall (api.h). */
CZI_BLOCK_ENTRY_POINT(alltoall, CZ_COLL_ALLTOALL, PMPI_Alltoall)

#define CZ_ALLTOALL_ENTRY(algo, param_default)                                \
  int cz_alltoall_##algo(const void *sendbuf, int sendcount,                  \
                         MPI_Datatype sendtype, void *recvbuf, int recvcount, \
                         MPI_Datatype recvtype, MPI_Comm comm) {              \
    return run_alltoall(__func__,                                             \
                        czi_algorithm_named(CZ_COLL_ALLTOALL, #algo),         \
                        param_default,                                        \
                        sendbuf, sendcount, sendtype, recvbuf, recvcount,     \
                        recvtype, comm);                                      \
  }
/* cz_alltoall_<name> for every algorithm in algorithms.def, run with its
 * parameter's default. */
#define CZI_ALLTOALL_ALGORITHM(algo, param, param_default, ...) \
  CZ_ALLTOALL_ENTRY(algo, param_default)
#include "algorithms.def"

int cz_alltoall_bruck_radix(const void *sendbuf, int sendcount,
                            MPI_Datatype sendtype, void *recvbuf,
                            int recvcount, MPI_Datatype recvtype,
                            MPI_Comm comm, int radix) {
  const czi_algorithm *alg = czi_algorithm_named(CZ_COLL_ALLTOALL, "bruck");
  if (radix < alg->param_min || radix > alg->param_max) {
    czi_clear_error();
    return czi_fail(MPI_ERR_ARG, __func__, "radix must be in %d..%d (got %d)",
                    alg->param_min, alg->param_max, radix);
  }
  return run_alltoall(__func__, alg, radix, sendbuf, sendcount, sendtype,
                      recvbuf, recvcount, recvtype, comm);
}

int cz_alltoall_algorithm(const char *algorithm, const void *sendbuf,
                          int sendcount, MPI_Datatype sendtype, void *recvbuf,
                          int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  const czi_algorithm *alg;
  int param;
  int rc = czi_algorithm_by_name(__func__, CZ_COLL_ALLTOALL, algorithm, &alg,
                                 &param);
  if (rc != MPI_SUCCESS) return rc;
  return run_alltoall(__func__, alg, param, sendbuf, sendcount, sendtype,
                      recvbuf, recvcount, recvtype, comm);
}
