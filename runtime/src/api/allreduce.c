/* allreduce.c: cz_allreduce (decision table) and the cz_allreduce_<algo>
 * entry points. The table's bytes are the whole message (count x the
 * datatype's size), as for bcast. Calls seen before take the fast path
 * (api.h, czi_fast_path). */
#include "api.h"

/* Whether combining values of type t gives the same bits in any order:
 * integers (sums and products are exact, modulo the width), not floating
 * point. Only such cells go on trial (decision/trial.h): a trial moves a
 * cell between the runtime's allreduce and the library's, which combine
 * the ranks' values in different orders, so floating-point results would
 * change in their last bits from call to call, and from run to run with
 * the machine's timing. Keyed by type alone, as the fast path's memo is. */
static int combines_exactly(MPI_Datatype t) {
  const MPI_Datatype exact[] = {
      MPI_CHAR,       MPI_SIGNED_CHAR,    MPI_UNSIGNED_CHAR, MPI_BYTE,
      MPI_SHORT,      MPI_UNSIGNED_SHORT, MPI_INT,           MPI_UNSIGNED,
      MPI_LONG,       MPI_UNSIGNED_LONG,  MPI_LONG_LONG,     MPI_UNSIGNED_LONG_LONG,
      MPI_INT8_T,     MPI_INT16_T,        MPI_INT32_T,       MPI_INT64_T,
      MPI_UINT8_T,    MPI_UINT16_T,       MPI_UINT32_T,      MPI_UINT64_T,
      MPI_C_BOOL,     MPI_2INT};
  for (size_t i = 0; i < sizeof exact / sizeof exact[0]; i++)
    if (t == exact[i]) return 1;
  return 0;
}

static int run_allreduce(const char *fn, const czi_algorithm *alg, int param,
                         const void *sendbuf, void *recvbuf, int count,
                         MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  int rc = MPI_SUCCESS;
  czi_call call;
  int from_table = 0;
  czi_trial *trial = NULL;
  czi_trial_call tc;
  czi_clear_error();
  CZI_TRY(czi_check_comm(fn, comm, &call));
  CZI_TRY(czi_check_count(fn, "count", count));
  CZI_TRY(czi_check_type(fn, "datatype", datatype, &call.rt));
  CZI_TRY(czi_check_buffer(fn, "recvbuf", recvbuf, count, &call.rt));
  if (sendbuf != MPI_IN_PLACE)
    CZI_TRY(czi_check_buffer(fn, "sendbuf", sendbuf, count, &call.rt));
  if (op == MPI_OP_NULL) return czi_fail(MPI_ERR_OP, fn, "op is MPI_OP_NULL");
  if (!alg) {
    czi_choice choice;
    const long long bytes = (long long)count * (long long)call.rt.size;
    CZI_TRY(czi_select(CZ_COLL_ALLREDUCE, call.size, bytes, &choice));
    alg = choice.alg;
    param = choice.param;
    from_table = choice.from_table;
    czi_params chosen = {param, from_table};
    if (combines_exactly(datatype))
      trial = czi_trial_for(call.state, CZ_COLL_ALLREDUCE, alg, &chosen, bytes);
    czi_memo_fill(call.state, CZ_COLL_ALLREDUCE, &call.rt, count, &call.rt,
                  count, alg, &chosen, czi_memo_kind_of(alg), trial);
  }
  alg = czi_trial_begin(trial, czi_algorithm_for_procs(alg, call.size),
                        call.priv, &tc);
  czi_params params = {param, from_table};
  rc = ((czi_allreduce_fn)alg->fn)(sendbuf, recvbuf, count, datatype, op,
                                   call.priv, &params);
  rc = czi_trial_end(trial, call.priv, &tc, rc);
fn_fail:
  return rc;
}

/* The checking path, out of line (as cz_bcast's): the fast path's calls
 * are then tail calls that save no registers. */
static __attribute__((noinline, cold)) int
allreduce_checked(const void *sendbuf, void *recvbuf, int count,
                  MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  return run_allreduce("cz_allreduce", NULL, 0, sendbuf, recvbuf, count,
                       datatype, op, comm);
}

/* A remembered call the table does not hand to the library (the memo holds
 * its count and type), out of line so the entry point keeps no frame. */
static __attribute__((noinline)) int
allreduce_remembered(const czi_memo *m, const czi_comm_state *s,
                     const void *sendbuf, void *recvbuf, MPI_Op op) {
  czi_clear_error_fast(); /* its own code describes its failures */
  if (m->local) /* one process: the result is the input */
    return sendbuf == MPI_IN_PLACE
               ? MPI_SUCCESS
               : czi_memo_copy(sendbuf, recvbuf, (size_t)m->sc * m->s_size);
  if (m->trial) {
    if (czi_trial_runs_lib(m->trial))
      CZI_RETURN_LIB(CZ_COLL_ALLREDUCE, PMPI_Allreduce(sendbuf, recvbuf, m->sc,
                                                       m->st, op, s->priv));
    return czi_allreduce_on_trial(m, s, sendbuf, recvbuf, m->sc, m->st, op);
  }
  return ((czi_allreduce_fn)m->alg->fn)(sendbuf, recvbuf, m->sc, m->st, op,
                                        s->priv, &m->params);
}

int cz_allreduce(const void *sendbuf, void *recvbuf, int count,
                 MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  czi_comm_state *s;
  /* MPI_IN_PLACE is a valid sendbuf here, and never NULL. */
  const czi_memo *m = czi_fast_path(comm, CZ_COLL_ALLREDUCE, datatype, count,
                                    datatype, count, sendbuf, recvbuf, &s);
  if (!m || op == MPI_OP_NULL)
    CZI_MUSTTAIL return allreduce_checked(sendbuf, recvbuf, count, datatype,
                                          op, comm);
  if (m->lib)
    CZI_RETURN_LIB_TAIL(CZ_COLL_ALLREDUCE,
                        PMPI_Allreduce(sendbuf, recvbuf, count, datatype, op,
                                       s->priv));
  return allreduce_remembered(m, s, sendbuf, recvbuf, op);
}

#define CZ_ALLREDUCE_ENTRY(algo, param_default)                               \
  int cz_allreduce_##algo(const void *sendbuf, void *recvbuf, int count,      \
                          MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {  \
    return run_allreduce(__func__,                                            \
                         czi_algorithm_named(CZ_COLL_ALLREDUCE, #algo),       \
                         param_default,                                       \
                         sendbuf, recvbuf, count, datatype, op, comm);        \
  }
/* cz_allreduce_<name> for every algorithm in algorithms.def, run with its
 * parameter's default. */
#define CZI_ALLREDUCE_ALGORITHM(algo, param, param_default, ...) \
  CZ_ALLREDUCE_ENTRY(algo, param_default)
#include "algorithms.def"

int cz_allreduce_algorithm(const char *algorithm, const void *sendbuf,
                           void *recvbuf, int count, MPI_Datatype datatype,
                           MPI_Op op, MPI_Comm comm) {
  const czi_algorithm *alg;
  int param;
  int rc = czi_algorithm_by_name(__func__, CZ_COLL_ALLREDUCE, algorithm, &alg,
                                 &param);
  if (rc != MPI_SUCCESS) return rc;
  return run_allreduce(__func__, alg, param, sendbuf, recvbuf, count, datatype,
                       op, comm);
}
