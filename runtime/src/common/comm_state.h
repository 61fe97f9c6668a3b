/* comm_state.h: the per-communicator record every cz_ call starts from, and
 * the fast path that finds it (see comm_state.c for why it is safe). The
 * API layer's only view of a communicator: size, rank, the private
 * duplicate, and the decision table's last answer per collective. */
#ifndef CZ_COMM_STATE_H
#define CZ_COMM_STATE_H

#include <stdint.h>

#include "cz_internal.h"
#include "trial_state.h"

struct czi_algorithm;

/* What the table's answer is, for the fast path: an algorithm of the
 * runtime's, self (one process), or the library's own collective, which the
 * entry point then calls itself (czi_<coll>_lib) rather than through
 * czi_<coll>_mpi. */
typedef enum { CZI_MEMO_ALG, CZI_MEMO_SELF, CZI_MEMO_LIB } czi_memo_kind;

/* The table's answer for one collective on one communicator, valid for calls
 * whose datatypes (predefined ones only: derived handles can be freed and
 * reused with another layout) and counts equal the key. local: the
 * answer is self on one process with dense types, and the entry point
 * copies the block itself (bytes from the element sizes and extents below)
 * instead of calling alg, whose type lookups cost more than the copy. lib:
 * the answer is the library's collective and the call needs nothing of
 * czi_<coll>_mpi's (alltoall: one description on both sides), so the entry
 * point hands it to PMPI_<coll> on the private duplicate directly: at P = 2
 * and 8 B that was 40-107 of the 55-141 instructions the dispatch added to
 * an MPI call of about 1100 (bench/dispatch/instructions.c). */
typedef struct czi_memo {
  unsigned gen; /* czi_comm_generation when filled; 0: empty */
  MPI_Datatype st, rt;
  int sc, rc;
  unsigned char local, lib;
  unsigned char coll;          /* its index in the record's memo[] */
  unsigned s_size, r_size;     /* bytes of data in one element */
  MPI_Aint s_extent, r_extent; /* alltoallv's displacement units */
  const struct czi_algorithm *alg;
  czi_params params;
  czi_trial *trial; /* non-NULL: calls are on trial (trial.h) */
} czi_memo;

typedef struct czi_comm_state {
  MPI_Comm priv; /* private duplicate: the runtime's messages live here */
  int size, rank;
  czi_memo memo[CZ_COLL_COUNT];
  /* The table's own algorithms against the library's, per size class. */
  czi_trial trials[CZ_COLL_COUNT][CZI_TRIAL_CLASSES];
  czi_placement place; /* the cores' placement, probed now and then */
} czi_comm_state;

/* Advanced when a recorded communicator is freed, when MPI finalizes and
 * when the decision configuration is reloaded: every remembered pointer and
 * memo taken before is then ignored. Never 0. */
extern unsigned czi_comm_generation __attribute__((visibility("hidden")));

enum { CZI_COMM_SLOTS = 4 };
typedef struct czi_comm_slot {
  MPI_Comm comm;
  czi_comm_state *state;
  unsigned gen;
} czi_comm_slot;
/* Per thread: the communicators this thread used last (direct-mapped).
 * initial-exec: no __tls_get_addr call on the hot path; 96 bytes, within
 * the static TLS glibc keeps spare for libraries that are dlopen'ed. */
extern _Thread_local czi_comm_slot czi_comm_slots[CZI_COMM_SLOTS]
    __attribute__((visibility("hidden"), tls_model("initial-exec")));

static inline czi_comm_slot *czi_comm_slot_of(MPI_Comm comm) {
  uint64_t h = (uint64_t)(uintptr_t)comm * 0x9E3779B97F4A7C15ull;
  return &czi_comm_slots[h >> 62];
}

static inline unsigned czi_comm_gen_now(void) {
  return __atomic_load_n(&czi_comm_generation, __ATOMIC_RELAXED);
}

/* The record of comm if this thread has it at hand, else NULL (then call
 * czi_comm_state_get). A few loads and two compares. */
static inline czi_comm_state *czi_comm_cached_at(MPI_Comm comm, unsigned gen) {
  const czi_comm_slot *s = czi_comm_slot_of(comm);
  if (s->comm == comm && s->gen == gen) {
    /* A slot is written whole, with a record, once one exists; an empty
     * one holds generation 0, which never matches: no NULL test needed. */
    if (!s->state) __builtin_unreachable();
    return s->state;
  }
  return NULL;
}
static inline czi_comm_state *czi_comm_cached(MPI_Comm comm) {
  return czi_comm_cached_at(comm, czi_comm_gen_now());
}

/* The checking path: MPI running, comm valid and not an intercommunicator,
 * the record created on first use (collective then: every rank of comm
 * calls a cz_ collective at the same point) and remembered for this
 * thread. Errors name fn. */
int czi_comm_state_get(const char *fn, MPI_Comm comm, czi_comm_state **out);

/* A memo that answers this call, or NULL; gen: czi_comm_gen_now(), read
 * once for the record and the memo. */
static inline const czi_memo *czi_memo_match(const czi_comm_state *s,
                                             unsigned gen, cz_collective coll,
                                             MPI_Datatype st, int sc,
                                             MPI_Datatype rt, int rc) {
  const czi_memo *m = &s->memo[coll];
  /* bcast and allreduce have one description: st, sc (memo_fill stores it
   * on both sides). */
  const int one = coll == CZ_COLL_BCAST || coll == CZ_COLL_ALLREDUCE;
  if (m->gen == gen && m->st == st && m->sc == sc &&
      (one || (m->rt == rt && m->rc == rc)))
    return m;
  return NULL;
}

/* Every memo taken so far is ignored from now on (a setting that changes
 * what czi_trial_for answers changed, in tests). */
void czi_comm_forget_memos(void);

/* Remember the table's answer (the caller has checked every argument);
 * kind SELF: alg is the one-process local copy (the memo then says local
 * when both types are dense); LIB: the library's collective, called
 * directly; trial: the record the calls count against, or NULL
 * (czi_trial_for). */
void czi_memo_fill(czi_comm_state *s, cz_collective coll, const czi_type *st,
                   int sc, const czi_type *rt, int rc,
                   const struct czi_algorithm *alg, const czi_params *params,
                   czi_memo_kind kind, czi_trial *trial);

/* The fast path's local copy (memo->local): bytes from src to dst. */
static inline int czi_memo_copy(const void *src, void *dst, size_t bytes) {
  if (bytes && src != dst) czi_move(dst, src, bytes);
  return MPI_SUCCESS;
}

#endif
