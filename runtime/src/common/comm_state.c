/* comm_state.c: one record per user communicator (comm_state.h), hung on
 * the communicator as an attribute and freed with it, and remembered per
 * thread so that a call finds it with a pointer compare instead of
 * MPI_Initialized, MPI_Finalized, MPI_Comm_test_inter, MPI_Comm_size,
 * MPI_Comm_rank and MPI_Comm_get_attr (about 100 ns per call with Open MPI
 * 4.1 on the development machine: bench/dispatch).
 *
 * Why a remembered pointer cannot outlive its communicator: MPI reuses a
 * freed handle only after the free, and the free runs delete_state, which
 * advances czi_comm_generation before it releases anything; a thread's slot
 * holds the generation it was filled at, so after any free every slot
 * misses once and goes through the attribute again. MPI_Finalize deletes
 * MPI_COMM_SELF's attributes first (MPI-3.1 8.7.1): a hook there advances
 * the generation too, so a call after MPI_Finalize takes the checking path
 * and gets its error instead of touching freed communicators. */
#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "comm_state.h"

unsigned czi_comm_generation = 1;
_Thread_local czi_comm_slot czi_comm_slots[CZI_COMM_SLOTS];

static int keyval = MPI_KEYVAL_INVALID, self_keyval = MPI_KEYVAL_INVALID;
static MPI_Errhandler priv_handler = MPI_ERRHANDLER_NULL;
static pthread_once_t keyval_once = PTHREAD_ONCE_INIT;
static int keyval_rc = MPI_SUCCESS;

static void advance_generation(void) {
  unsigned next = __atomic_add_fetch(&czi_comm_generation, 1, __ATOMIC_RELEASE);
  if (next == 0) /* wrapped: 0 means "empty memo" */
    __atomic_add_fetch(&czi_comm_generation, 1, __ATOMIC_RELEASE);
}

void czi_comm_forget_memos(void) { advance_generation(); }

static int delete_state(MPI_Comm comm, int key, void *value, void *extra) {
  czi_comm_state *state = value;
  (void)comm; (void)key; (void)extra;
  advance_generation();
  int rc = PMPI_Comm_free(&state->priv);
  free(state);
  return rc;
}

static int finalizing(MPI_Comm comm, int key, void *value, void *extra) {
  (void)comm; (void)key; (void)value; (void)extra;
  advance_generation();
  czi_flags.lib_call = 0; /* the frees to come describe their own failures */
  return MPI_SUCCESS;
}

/* The private duplicate's error handler. The library calls it before a
 * call on the duplicate returns a failure code, and the call then returns
 * that code (the handler returns). A failure of the fast path's library
 * call (lib_call set) is described here, in the words czi_<coll>_mpi uses:
 * the entry point tail-called the library and never sees the code. Any
 * other failure is described by the runtime's code that made the call. */
static void priv_failed(MPI_Comm *comm, int *code, ...) {
  (void)comm;
  const int coll = czi_flags.lib_call - 1;
  czi_flags.lib_call = 0;
  if (coll < 0) return;
  const char *name = cz_collective_name((cz_collective)coll);
  if (!name) return;
  char where[32], call[32];
  snprintf(where, sizeof where, "czi_%s_mpi", name);
  snprintf(call, sizeof call, "PMPI_%c%s", toupper((unsigned char)name[0]),
           name + 1);
  czi_mpi_fail(*code, where, call);
}

static void create_keyvals(void) {
  keyval_rc = PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_state,
                                      &keyval, NULL);
  if (keyval_rc == MPI_SUCCESS)
    keyval_rc = PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, finalizing,
                                        &self_keyval, NULL);
  if (keyval_rc == MPI_SUCCESS)
    keyval_rc = PMPI_Comm_set_attr(MPI_COMM_SELF, self_keyval, NULL);
  if (keyval_rc == MPI_SUCCESS)
    keyval_rc = PMPI_Comm_create_errhandler(priv_failed, &priv_handler);
}

/* A new record: the private duplicate (collective over comm), size, rank. */
static int create_state(MPI_Comm comm, czi_comm_state **out) {
  int rc = MPI_SUCCESS;
  czi_comm_state *state = calloc(1, sizeof *state);
  if (!state)
    return czi_fail(MPI_ERR_NO_MEM, __func__, "cannot allocate %zu bytes",
                    sizeof *state);
  state->priv = MPI_COMM_NULL;
  CZI_MPI(PMPI_Comm_size(comm, &state->size));
  CZI_MPI(PMPI_Comm_rank(comm, &state->rank));
  CZI_MPI(PMPI_Comm_dup(comm, &state->priv));
  CZI_MPI(PMPI_Comm_set_errhandler(state->priv, priv_handler));
  CZI_MPI(PMPI_Comm_set_attr(comm, keyval, state));
  *out = state;
  return MPI_SUCCESS;
fn_fail:
  if (state->priv != MPI_COMM_NULL) PMPI_Comm_free(&state->priv);
  free(state);
  return rc;
}

int czi_comm_state_get(const char *fn, MPI_Comm comm, czi_comm_state **out) {
  int rc = MPI_SUCCESS, initialized = 0, finalized = 0, inter = 0, found = 0;
  void *value = NULL;
  PMPI_Initialized(&initialized);
  PMPI_Finalized(&finalized);
  if (!initialized || finalized)
    return czi_fail(MPI_ERR_OTHER, fn, "MPI is %s",
                    finalized ? "already finalized" : "not initialized");
  if (comm == MPI_COMM_NULL)
    return czi_fail(MPI_ERR_COMM, fn, "comm is MPI_COMM_NULL");
  CZI_MPI(PMPI_Comm_test_inter(comm, &inter));
  if (inter)
    return czi_fail(MPI_ERR_COMM, fn,
                    "intercommunicators are not supported; use the MPI "
                    "collective directly");
  pthread_once(&keyval_once, create_keyvals);
  CZI_MPI(keyval_rc);
  /* Read before the lookup: a free that races with it then makes the slot
   * miss next time rather than hold a stale record. */
  unsigned gen = czi_comm_gen_now();
  CZI_MPI(PMPI_Comm_get_attr(comm, keyval, &value, &found));
  if (found) *out = value;
  else CZI_TRY(create_state(comm, out));
  czi_comm_slot *slot = czi_comm_slot_of(comm);
  slot->comm = comm;
  slot->state = *out;
  slot->gen = gen;
fn_fail:
  return rc;
}

int czi_private_comm(MPI_Comm comm, MPI_Comm *out) {
  czi_comm_state *state = czi_comm_cached(comm);
  if (!state) {
    int rc = czi_comm_state_get(__func__, comm, &state);
    if (rc != MPI_SUCCESS) return rc;
  }
  *out = state->priv;
  return MPI_SUCCESS;
}

void czi_memo_fill(czi_comm_state *s, cz_collective coll, const czi_type *st,
                   int sc, const czi_type *rt, int rc,
                   const struct czi_algorithm *alg, const czi_params *params,
                   czi_memo_kind kind, czi_trial *trial) {
  if (!st->predefined || !rt->predefined) return;
  czi_memo *m = &s->memo[coll];
  m->gen = czi_comm_gen_now();
  m->st = st->type;
  m->rt = rt->type;
  m->sc = sc;
  m->rc = rc;
  m->local = kind == CZI_MEMO_SELF && s->size == 1 && st->dense && rt->dense &&
             st->true_lb == 0 && rt->true_lb == 0;
  m->lib = kind == CZI_MEMO_LIB;
  m->coll = (unsigned char)coll;
  m->s_size = (unsigned)st->size;
  m->r_size = (unsigned)rt->size;
  m->s_extent = st->extent;
  m->r_extent = rt->extent;
  m->alg = alg;
  m->params = *params;
  m->trial = trial;
}
