/* bcast.c: cz_bcast (decision table) and the cz_bcast_<algo> entry points.
 * Calls seen before take the fast path (api.h, czi_fast_path). */
#include "api.h"

static int run_bcast(const char *fn, const czi_algorithm *alg, int param,
                     void *buffer,
                     int count, MPI_Datatype datatype, int root,
                     MPI_Comm comm) {
  int rc = MPI_SUCCESS;
  czi_call call;
  int from_table = 0;
  czi_trial *trial = NULL;
  czi_trial_call tc;
  czi_clear_error();
  CZI_TRY(czi_check_comm(fn, comm, &call));
  CZI_TRY(czi_check_count(fn, "count", count));
  CZI_TRY(czi_check_type(fn, "datatype", datatype, &call.rt));
  CZI_TRY(czi_check_buffer(fn, "buffer", buffer, count, &call.rt));
  if (root < 0 || root >= call.size)
    return czi_fail(MPI_ERR_ROOT, fn,
                    "root %d is not a rank of the communicator (size %d)",
                    root, call.size);
  if (!alg) {
    czi_choice choice;
    const long long bytes = (long long)count * (long long)call.rt.size;
    CZI_TRY(czi_select(CZ_COLL_BCAST, call.size, bytes, &choice));
    alg = choice.alg;
    param = choice.param;
    from_table = choice.from_table;
    czi_params chosen = {param, from_table};
    trial = czi_trial_for(call.state, CZ_COLL_BCAST, alg, &chosen, bytes);
    czi_memo_fill(call.state, CZ_COLL_BCAST, &call.rt, count, &call.rt, count,
                  alg, &chosen, czi_memo_kind_of(alg), trial);
  }
  alg = czi_trial_begin(trial, czi_algorithm_for_procs(alg, call.size),
                        call.priv, &tc);
  czi_params params = {param, from_table};
  rc = ((czi_bcast_fn)alg->fn)(buffer, count, datatype, root, call.priv,
                               &params);
  rc = czi_trial_end(trial, call.priv, &tc, rc);
fn_fail:
  return rc;
}

/* The checking path with five arguments, out of line, so that cz_bcast's
 * fast path makes no call but tail calls and saves no registers: at P = 1
 * the whole call is that path, as long as MPI_Bcast's own checks. It
 * clears a pending error message (the fast path leaves a stale one to
 * cz_last_error, last_error.c). */
static __attribute__((noinline, cold)) int
bcast_checked(void *buffer, int count, MPI_Datatype datatype, int root,
              MPI_Comm comm) {
  return run_bcast("cz_bcast", NULL, 0, buffer, count, datatype, root, comm);
}

/* A remembered call the table does not hand to the library (the memo holds
 * its count and type), out of line so the entry point keeps no frame. */
static __attribute__((noinline)) int bcast_remembered(const czi_memo *m,
                                                      const czi_comm_state *s,
                                                      void *buffer, int root) {
  czi_clear_error_fast(); /* its own code describes its failures */
  if (m->local) return MPI_SUCCESS; /* one process: the root has it */
  if (m->trial) {
    if (czi_trial_runs_lib(m->trial))
      CZI_RETURN_LIB(CZ_COLL_BCAST,
                     PMPI_Bcast(buffer, m->sc, m->st, root, s->priv));
    return czi_bcast_on_trial(m, s, buffer, m->sc, m->st, root);
  }
  return ((czi_bcast_fn)m->alg->fn)(buffer, m->sc, m->st, root, s->priv,
                                    &m->params);
}

int cz_bcast(void *buffer, int count, MPI_Datatype datatype, int root,
             MPI_Comm comm) {
  czi_comm_state *s;
  const czi_memo *m = czi_fast_path(comm, CZ_COLL_BCAST, datatype, count,
                                    datatype, count, buffer, buffer, &s);
  /* One compare for 0 <= root < size (a negative root wraps above it). */
  if (!m || (unsigned)root >= (unsigned)s->size)
    CZI_MUSTTAIL return bcast_checked(buffer, count, datatype, root,
                                      comm);
  if (m->lib)
    CZI_RETURN_LIB_TAIL(CZ_COLL_BCAST,
                        PMPI_Bcast(buffer, count, datatype, root, s->priv));
  return bcast_remembered(m, s, buffer, root);
}

#define CZ_BCAST_ENTRY(algo, param_default)                                   \
  int cz_bcast_##algo(void *buffer, int count, MPI_Datatype datatype,         \
                      int root, MPI_Comm comm) {                              \
    return run_bcast(__func__, czi_algorithm_named(CZ_COLL_BCAST, #algo),     \
                     param_default, buffer, count, datatype, root, comm);     \
  }
/* cz_bcast_<name> for every algorithm in algorithms.def, run with its
 * parameter's default. */
#define CZI_BCAST_ALGORITHM(algo, param, param_default, ...) \
  CZ_BCAST_ENTRY(algo, param_default)
#include "algorithms.def"

int cz_bcast_algorithm(const char *algorithm, void *buffer, int count,
                       MPI_Datatype datatype, int root, MPI_Comm comm) {
  const czi_algorithm *alg;
  int param;
  int rc =
      czi_algorithm_by_name(__func__, CZ_COLL_BCAST, algorithm, &alg, &param);
  if (rc != MPI_SUCCESS) return rc;
  return run_bcast(__func__, alg, param, buffer, count, datatype, root, comm);
}
