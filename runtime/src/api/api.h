/* api.h: argument checking shared by the cz_<coll> entry points. Every check
 * returns an MPI error code and a message naming the argument and value. */
#ifndef CZ_API_H
#define CZ_API_H

#include "cz_internal.h"
#include "comm_state.h"
#include "../decision/registry.h"
#include "../decision/trial.h"

typedef struct czi_call {
  int size, rank;
  czi_type st, rt; /* send and receive datatype facts */
  MPI_Comm priv;   /* private duplicate of the user's communicator */
  czi_comm_state *state;
} czi_call;

/* MPI running, comm usable; fills size, rank, priv and state (creating the
 * private duplicate on first use, which is collective). */
int czi_check_comm(const char *fn, MPI_Comm comm, czi_call *call);
int czi_check_count(const char *fn, const char *what, int count);
int czi_check_type(const char *fn, const char *what, MPI_Datatype type,
                   czi_type *info);
int czi_check_buffer(const char *fn, const char *what, const void *buf,
                     int count, const czi_type *t);
/* alltoall / allgather: comm, counts, types, buffers, and that a send block
 * carries as many bytes as a receive block. */
int czi_check_block_call(const char *fn, const void *sendbuf, int sendcount,
                         MPI_Datatype sendtype, const void *recvbuf,
                         int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                         czi_call *call);
/* alltoallv: counts and displacements present, counts >= 0. */
int czi_check_vector(const char *fn, const char *counts_name,
                     const int *counts, const char *displs_name,
                     const int *displs, int size);
static inline int czi_is_self(const czi_algorithm *alg) {
  const char *n = alg->name;
  return n[0] == 's' && n[1] == 'e' && n[2] == 'l' && n[3] == 'f' &&
         n[4] == '\0';
}
static inline int czi_is_lib(const czi_algorithm *alg) {
  const char *n = alg->name;
  return n[0] == 'm' && n[1] == 'p' && n[2] == 'i' && n[3] == '\0';
}
/* Algorithms that get MPI_IN_PLACE as given: the library's own collective,
 * and self (one process: in place there is nothing to move). The others get
 * an equivalent out-of-place call (cz_internal.h). */
static inline int czi_takes_in_place(const czi_algorithm *alg) {
  return czi_is_lib(alg) || czi_is_self(alg);
}
/* How the fast path runs the table's answer alg (comm_state.h). */
static inline czi_memo_kind czi_memo_kind_of(const czi_algorithm *alg) {
  return czi_is_self(alg) ? CZI_MEMO_SELF
         : czi_is_lib(alg) ? CZI_MEMO_LIB
                           : CZI_MEMO_ALG;
}
/* The table's entry of a cz_<coll> call whose communicator and arguments
 * this thread has seen before (comm_state.h); NULL: take the checking path.
 * Buffers are the only argument not in the memo's key: a NULL one takes
 * the checking path, which knows whether the call moves data there
 * (alltoallv's counts vary from call to call, so its buffers are checked
 * by its own path, czi_vectors_ok and the algorithms). */
static inline const czi_memo *czi_fast_path(MPI_Comm comm, cz_collective coll,
                                            MPI_Datatype st, int sc,
                                            MPI_Datatype rt, int rc,
                                            const void *sbuf, const void *rbuf,
                                            czi_comm_state **state) {
  if (coll != CZ_COLL_ALLTOALLV && (!sbuf || !rbuf)) return NULL;
  const unsigned gen = czi_comm_gen_now();
  czi_comm_state *s = czi_comm_cached_at(comm, gen);
  if (!s) return NULL;
  const czi_memo *m = czi_memo_match(s, gen, coll, st, sc, rt, rc);
  if (!m) return NULL;
  *state = s;
  return m;
}

/* A remembered call that is on trial (decision/trial.h), out of line so
 * the fast paths keep their tail calls (on_trial.c). Alltoall and allgather
 * share the signature. */
int czi_block_call_on_trial(const czi_memo *m, const czi_comm_state *s,
                            const void *sendbuf, int sendcount,
                            MPI_Datatype sendtype, void *recvbuf,
                            int recvcount, MPI_Datatype recvtype)
    __attribute__((noinline)); /* its frame stays out of the remembered path */
/* A remembered alltoall or allgather the table does not hand to the
 * library: the local copy, the trial or the own algorithm. The memo holds
 * the call's counts and types (they matched), so only the buffers are
 * passed, and the entry point keeps no frame for this branch. */
int czi_block_call_remembered(const czi_memo *m, const czi_comm_state *s,
                              const void *sendbuf, void *recvbuf)
    __attribute__((noinline, visibility("hidden")));

/* cz_alltoall and cz_allgather (one signature, one fast path): the checking
 * path name##_checked, out of line and cold so that the entry point keeps no
 * frame, around run_##name (the file's); then cz_##name: a call seen before
 * (czi_fast_path) goes to the library's collective pmpi as a tail call or to
 * czi_block_call_remembered, any other (MPI_IN_PLACE, a first call) to the
 * checking path, a tail call too. */
#define CZI_BLOCK_ENTRY_POINT(name, coll, pmpi)                                \
  static __attribute__((noinline, cold)) int name##_checked(                   \
      const void *sendbuf, int sendcount, MPI_Datatype sendtype,               \
      void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {    \
    return run_##name("cz_" #name, NULL, 0, sendbuf, sendcount, sendtype,      \
                      recvbuf, recvcount, recvtype, comm);                     \
  }                                                                            \
  int cz_##name(const void *sendbuf, int sendcount, MPI_Datatype sendtype,     \
                void *recvbuf, int recvcount, MPI_Datatype recvtype,           \
                MPI_Comm comm) {                                               \
    czi_comm_state *s;                                                         \
    const czi_memo *m =                                                        \
        sendbuf == MPI_IN_PLACE                                                \
            ? NULL                                                             \
            : czi_fast_path(comm, coll, sendtype, sendcount, recvtype,         \
                            recvcount, sendbuf, recvbuf, &s);                  \
    if (!m)                                                                    \
      CZI_MUSTTAIL return name##_checked(sendbuf, sendcount, sendtype,         \
                                         recvbuf, recvcount, recvtype, comm);  \
    if (m->lib)                                                                \
      CZI_RETURN_LIB_TAIL(coll, pmpi(sendbuf, sendcount, sendtype, recvbuf,    \
                                     recvcount, recvtype, s->priv));           \
    return czi_block_call_remembered(m, s, sendbuf, recvbuf);                  \
  }
int czi_bcast_on_trial(const czi_memo *m, const czi_comm_state *s,
                       void *buffer, int count, MPI_Datatype datatype,
                       int root);
int czi_allreduce_on_trial(const czi_memo *m, const czi_comm_state *s,
                           const void *sendbuf, void *recvbuf, int count,
                           MPI_Datatype datatype, MPI_Op op);

/* Registry entry by name, for the cz_<coll>_<algo> entry points. */
const czi_algorithm *czi_algorithm_named(cz_collective coll, const char *name);

/* "name[:param]" -> registry entry, for cz_<coll>_algorithm. */
int czi_algorithm_by_name(const char *fn, cz_collective coll, const char *text,
                          const czi_algorithm **alg, int *param);

#endif
