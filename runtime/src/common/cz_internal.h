/*
 * cz_internal.h: what every runtime source file shares: the uniform algorithm
 * signatures, the error path, datatype helpers and the private communicator.
 * Not installed; users see only collectivize.h.
 */
#ifndef CZ_INTERNAL_H
#define CZ_INTERNAL_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <mpi.h>

#include "collectivize.h"
#include "copy.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- uniform algorithm signatures (Open MPI coll/base style) -----------
 * Every algorithm of one collective has the same arguments, the MPI
 * collective's own, then its tuning parameter. Contract for implementations:
 *  - arguments are already validated, P = size of comm >= 1;
 *  - comm is Collectivize's private duplicate of the user's communicator, with
 *    MPI_ERRORS_RETURN, so internal tags cannot meet the user's messages;
 *  - sendbuf is never MPI_IN_PLACE: the API layer hands in-place calls over as
 *    an equivalent out-of-place call (alltoall/alltoallv: a scratch copy of
 *    recvbuf; allgather: sendbuf aliases this rank's block of recvbuf, so
 *    implementations copy it with czi_copy_local, which skips self-copies);
 *    except for "mpi" and "self", which get it as given (api.h,
 *    czi_takes_in_place);
 *  - they talk through PMPI_* only, so a tracer never mistakes them for
 *    manual collectives. */
typedef struct czi_params {
  int param; /* algorithm parameter (Bruck radix); 0 means "the default" */
  int from_table; /* chosen by the decision table (not forced or by name) */
} czi_params;

#define CZI_ALLTOALL_ARGS                                                    \
  const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, \
      int recvcount, MPI_Datatype recvtype, MPI_Comm comm,                   \
      const czi_params *params
#define CZI_ALLGATHER_ARGS CZI_ALLTOALL_ARGS
#define CZI_BCAST_ARGS                                                   \
  void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, \
      const czi_params *params
#define CZI_ALLREDUCE_ARGS                                                  \
  const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,    \
      MPI_Op op, MPI_Comm comm, const czi_params *params
#define CZI_ALLTOALLV_ARGS                                                    \
  const void *sendbuf, const int *sendcounts, const int *sdispls,             \
      MPI_Datatype sendtype, void *recvbuf, const int *recvcounts,            \
      const int *rdispls, MPI_Datatype recvtype, MPI_Comm comm,               \
      const czi_params *params

typedef int (*czi_alltoall_fn)(CZI_ALLTOALL_ARGS);
typedef int (*czi_allgather_fn)(CZI_ALLGATHER_ARGS);
typedef int (*czi_bcast_fn)(CZI_BCAST_ARGS);
typedef int (*czi_alltoallv_fn)(CZI_ALLTOALLV_ARGS);
typedef int (*czi_allreduce_fn)(CZI_ALLREDUCE_ARGS);

/* One function per algorithm file, czi_<coll>_<name> in
 * src/coll/<coll>_<name>.c, each listed once in algorithms.def. */
#define CZI_ARGS_alltoall CZI_ALLTOALL_ARGS
#define CZI_ARGS_allgather CZI_ALLGATHER_ARGS
#define CZI_ARGS_bcast CZI_BCAST_ARGS
#define CZI_ARGS_alltoallv CZI_ALLTOALLV_ARGS
#define CZI_ARGS_allreduce CZI_ALLREDUCE_ARGS
#define CZI_ALGORITHM(coll, name, ...) int czi_##coll##_##name(CZI_ARGS_##coll);
#include "algorithms.def"

/* Internal tags on the private communicator, one per collective. Calls of
 * one collective are ordered on a communicator, so reuse is safe. */
enum {
  CZI_TAG_ALLTOALL = 7301,
  CZI_TAG_ALLGATHER,
  CZI_TAG_BCAST,
  CZI_TAG_ALLTOALLV,
  CZI_TAG_GATHER,
  CZI_TAG_ALLTOALLV_PLAN
};

/* ---- errors: one path (Open MPI err_hndl / MPICH fn_fail style) --------
 * czi_fail records a message for cz_last_error(), prints it once to stderr
 * ("collectivize: <where>: <message>") unless COLLECTIVIZE_QUIET is set, and
 * returns code so callers can `return czi_fail(...)`. */
int czi_fail(int code, const char *where, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Describe a failed MPI call: "PMPI_Sendrecv failed: <MPI's error string>".
 * Cold: rare, and kept out of its callers' frames. */
int czi_mpi_fail(int code, const char *where, const char *call)
    __attribute__((cold));

/* The result of the library's collective on comm in czi_<coll>_mpi (the
 * checking path), a failure described as "czi_<coll>_mpi: PMPI_<Coll>
 * failed: ...". The entry points' fast path, when the memo says lib
 * (comm_state.h), hands the call over as a tail call instead
 * (CZI_RETURN_LIB_TAIL)
 * and the private duplicate's error handler describes a failure in the
 * same words. */
#define CZI_LIB_RESULT(rc, coll, call)                                      \
  (__builtin_expect((rc) != MPI_SUCCESS, 0)                                 \
       ? czi_mpi_fail((rc), "czi_" #coll "_mpi", #call)                     \
       : MPI_SUCCESS)
/* The fast path's hand-over to the library's collective: return call (the
 * PMPI call on the private duplicate, whose prototype is the entry point's)
 * as a tail call, with no frame and no test of its code; the private
 * duplicate's error handler describes a failure (see czi_thread_flags).
 * clang must make it a jump (the incoming stack argument, comm, is
 * replaced in place); other compilers may. */
#if defined(__clang__) && __clang_major__ >= 13
#define CZI_MUSTTAIL __attribute__((musttail))
#else
#define CZI_MUSTTAIL
#endif
#define CZI_RETURN_LIB_TAIL(coll, call)                  \
  do {                                                   \
    czi_flags.lib_call = (unsigned char)((coll) + 1);    \
    CZI_MUSTTAIL return call;                            \
  } while (0)
/* The same hand-over from a function whose prototype is not the PMPI
 * call's (a tail call where the compiler can make one). */
#define CZI_RETURN_LIB(coll, call)                       \
  do {                                                   \
    czi_flags.lib_call = (unsigned char)((coll) + 1);    \
    return call;                                         \
  } while (0)
void czi_clear_error(void);
/* The last error's text ("" when none); cz_last_error() returns it. */
const char *czi_last_error(void);
#ifndef __cplusplus
/* Per thread, in one object so that the fast path reaches both through one
 * address (initial-exec: no function call):
 *  - error_pending: set while cz_last_error() holds a message, so that a
 *    path of the runtime's own code clears it at the cost of one load
 *    (czi_clear_error_fast); a fast path's hand-over to the library
 *    leaves it, and cz_last_error() reads a message older than the last
 *    hand-over (lib_call set) as stale;
 *  - lib_call: the collective (cz_collective + 1; 0: none) whose library
 *    call the fast path handed over last. That call is a tail call, so the
 *    entry point never sees its code: the private duplicate's error handler
 *    describes the failure (comm_state.c). Every other path clears it first
 *    (czi_clear_error, czi_clear_error_fast and the fast path's branches
 *    that run the runtime's own code), so a failure there is described
 *    once, by the runtime's code that made the call; czi_fail clears it
 *    too (a message newer than any hand-over). */
typedef struct czi_thread_flags {
  unsigned char error_pending, lib_call;
} czi_thread_flags;
extern _Thread_local czi_thread_flags czi_flags
    __attribute__((visibility("hidden"), tls_model("initial-exec")));
static inline void czi_clear_error_fast(void) {
  if (czi_flags.error_pending) czi_clear_error();
  czi_flags.lib_call = 0;
}
#endif
/* A problem that does not fail the call (bad setting ignored): printed the
 * same way, not recorded as the last error. */
void czi_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Wrap every PMPI call of an algorithm: on failure record it, jump to
 * fn_fail (which must free resources and return rc). */
#define CZI_MPI(call)                                     \
  do {                                                    \
    int czi_rc_ = (call);                                 \
    if (czi_rc_ != MPI_SUCCESS) {                         \
      rc = czi_mpi_fail(czi_rc_, __func__, #call);        \
      goto fn_fail;                                       \
    }                                                     \
  } while (0)
#define CZI_TRY(expr)                                     \
  do {                                                    \
    int czi_rc_ = (expr);                                 \
    if (czi_rc_ != MPI_SUCCESS) {                         \
      rc = czi_rc_;                                       \
      goto fn_fail;                                       \
    }                                                     \
  } while (0)
/* Allocation that reports MPI_ERR_NO_MEM through the same path. */
#define CZI_MALLOC(ptr, bytes)                                              \
  do {                                                                      \
    size_t czi_n_ = (size_t)(bytes);                                        \
    (ptr) = czi_n_ ? malloc(czi_n_) : NULL;                                 \
    if (czi_n_ && !(ptr)) {                                                 \
      rc = czi_fail(MPI_ERR_NO_MEM, __func__, "cannot allocate %zu bytes", \
                    czi_n_);                                                \
      goto fn_fail;                                                         \
    }                                                                       \
  } while (0)

/* Scratch memory reused across calls (see scratch.c for why), one region
 * per slot and thread, valid until the next czi_scratch of the same slot on
 * that thread. The API layer and the algorithm it calls use different
 * slots, so an in-place copy and an algorithm's buffers never overlap. */
typedef enum {
  CZI_SCRATCH_IN_PLACE = 0, /* api/: in-place calls' copy of recvbuf */
  CZI_SCRATCH_ALGORITHM,    /* coll/: an algorithm's packed workspace */
  CZI_SCRATCH_SLOTS
} czi_scratch_slot;
void *czi_scratch(czi_scratch_slot slot, size_t bytes);
#define CZI_SCRATCH(ptr, slot, bytes)                                       \
  do {                                                                      \
    size_t czi_n_ = (size_t)(bytes);                                        \
    (ptr) = czi_n_ ? czi_scratch((slot), czi_n_) : NULL;                    \
    if (czi_n_ && !(ptr)) {                                                 \
      rc = czi_fail(MPI_ERR_NO_MEM, __func__, "cannot allocate %zu bytes", \
                    czi_n_);                                                \
      goto fn_fail;                                                         \
    }                                                                       \
  } while (0)

/* Debug logging, the one place runtime code prints (COLLECTIVIZE_LOG=1). */
void czi_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int czi_log_enabled(void);
#define CZI_LOG(...)                   \
  do {                                 \
    if (czi_log_enabled()) czi_log(__VA_ARGS__); \
  } while (0)

/* ---- datatypes ----------------------------------------------------------
 * A layout is "dense" when count elements occupy count*size bytes without
 * holes, starting at buf + true_lb; then memcpy is exact. Otherwise data goes
 * through PMPI_Pack/PMPI_Unpack. */
typedef struct czi_type {
  MPI_Datatype type;
  MPI_Aint extent, true_lb, true_extent;
  size_t size; /* bytes of data in one element */
  int dense;
  int predefined; /* a predefined handle: never freed, layout fixed */
} czi_type;

int czi_type_get(MPI_Datatype type, czi_type *info);
/* Every block algorithm's first step: my rank, the size, and both types'
 * layouts. */
int czi_block_setup(MPI_Comm comm, MPI_Datatype sendtype,
                    MPI_Datatype recvtype, int *me, int *p, czi_type *st,
                    czi_type *rt);
/* buf + offset bytes. A call without data may pass NULL buffers, and
 * NULL + 0 is undefined in C (UBSan stops there): a zero offset returns buf
 * itself. */
/* Address arithmetic in integers: buf may be MPI_BOTTOM (a null pointer)
 * with a datatype of absolute addresses, where `(char *)buf + offset` is
 * undefined behaviour in C. */
static inline char *czi_at(const void *buf, MPI_Aint offset) {
  return (char *)((uintptr_t)buf + (uintptr_t)offset);
}
/* Address of element index*count of buf (block `index` of `count` elements). */
static inline char *czi_block(const void *buf, MPI_Aint index, int count,
                              const czi_type *t) {
  return czi_at(buf, index * (MPI_Aint)count * t->extent);
}
/* count elements at buf -> count*size packed bytes at dst, and back. */
int czi_pack(const void *buf, int count, const czi_type *t, void *dst);
int czi_unpack(const void *src, void *buf, int count, const czi_type *t);
/* Local typed copy; src and dst type signatures must match. Skips src == dst
 * with equal layouts (in-place allgather). */
int czi_copy_local(const void *src, int scount, const czi_type *st, void *dst,
                   int rcount, const czi_type *rt);
/* Bytes spanned by count elements (what to allocate for a scratch copy). */
MPI_Aint czi_span(int count, const czi_type *t);

/* ---- communicators ------------------------------------------------------ */
/* Collectivize's private duplicate of comm, created on first use (collective
 * then: every rank of comm calls a cz_ collective at the same point) and
 * freed with comm (comm_state.c keeps it with the communicator's other
 * facts). */
int czi_private_comm(MPI_Comm comm, MPI_Comm *out);

/* Largest message, in bytes, an int count of MPI_BYTE can describe. */
#define CZI_INT_MAX_BYTES INT_MAX

/* Integer helpers. */
static inline int czi_mod(int a, int p) { int r = a % p; return r < 0 ? r + p : r; }

#ifdef __cplusplus
}
#endif
#endif /* CZ_INTERNAL_H */
