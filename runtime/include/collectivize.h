/*
 * collectivize.h: public C API of the Collectivize runtime (libcollectivize).
 *
 * Native collective algorithms with MPI-style signatures and return codes.
 * The plain entry points (cz_alltoall, cz_allgather, cz_bcast, cz_alltoallv)
 * take exactly the arguments of the MPI collective they replace and pick an
 * algorithm from the decision table; every algorithm is also callable by name
 * (cz_alltoall_bruck, ...). All functions return MPI_SUCCESS or an MPI error
 * code; cz_last_error() then describes the problem. Nothing here aborts.
 *
 * Environment:
 *   COLLECTIVIZE_TUNING=FILE                 decision table to use instead of
 *                                            the built-in one
 *   COLLECTIVIZE_<COLL>_ALGORITHM=NAME[:R]   force one algorithm, e.g.
 *                                            COLLECTIVIZE_ALLTOALL_ALGORITHM=bruck:4
 *   COLLECTIVIZE_QUIET=1                     do not print error messages
 *   COLLECTIVIZE_RANKS_PER_NODE=k            planned alltoallv and shm
 *                                            algorithms: simulated nodes of
 *                                            k ranks
 *   COLLECTIVIZE_PLAN_CACHE=N                plans cz_alltoallv keeps per
 *                                            communicator (default 4, 0: none)
 *   COLLECTIVIZE_SHM_BYTES=N                 shared memory per node for the
 *                                            shm algorithms (default 64M)
 */
#ifndef COLLECTIVIZE_H
#define COLLECTIVIZE_H

#include <mpi.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CZ_VERSION_MAJOR 0
#define CZ_VERSION_MINOR 1
#define CZ_VERSION_PATCH 0

/* "0.1.0" */
const char *cz_version(void);

/* Message describing the last error returned to this thread ("" if none). */
const char *cz_last_error(void);

/* ---- alltoall: MPI_Alltoall's arguments ------------------------------- */
int cz_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                void *recvbuf, int recvcount, MPI_Datatype recvtype,
                MPI_Comm comm);
int cz_alltoall_bruck(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                      void *recvbuf, int recvcount, MPI_Datatype recvtype,
                      MPI_Comm comm);
/* Bruck with radix >= 2 (radix 2 is cz_alltoall_bruck). */
int cz_alltoall_bruck_radix(const void *sendbuf, int sendcount,
                            MPI_Datatype sendtype, void *recvbuf,
                            int recvcount, MPI_Datatype recvtype,
                            MPI_Comm comm, int radix);
int cz_alltoall_spread_out(const void *sendbuf, int sendcount,
                           MPI_Datatype sendtype, void *recvbuf, int recvcount,
                           MPI_Datatype recvtype, MPI_Comm comm);
int cz_alltoall_pairwise(const void *sendbuf, int sendcount,
                         MPI_Datatype sendtype, void *recvbuf, int recvcount,
                         MPI_Datatype recvtype, MPI_Comm comm);
/* One node, through a shared-memory window (see "shared memory" below). */
int cz_alltoall_shm_push(const void *sendbuf, int sendcount,
                         MPI_Datatype sendtype, void *recvbuf, int recvcount,
                         MPI_Datatype recvtype, MPI_Comm comm);
int cz_alltoall_shm_pull(const void *sendbuf, int sendcount,
                         MPI_Datatype sendtype, void *recvbuf, int recvcount,
                         MPI_Datatype recvtype, MPI_Comm comm);
/* The same with per-rank round flags instead of a node barrier per call. */
int cz_alltoall_shm_flag_push(const void *sendbuf, int sendcount,
                              MPI_Datatype sendtype, void *recvbuf,
                              int recvcount, MPI_Datatype recvtype,
                              MPI_Comm comm);
int cz_alltoall_shm_flag_pull(const void *sendbuf, int sendcount,
                              MPI_Datatype sendtype, void *recvbuf,
                              int recvcount, MPI_Datatype recvtype,
                              MPI_Comm comm);
/* One process: copies the block itself (no message; types with holes and
 * larger communicators: the library's). The table's choice at P = 1; the
 * same for every collective's _self. */
int cz_alltoall_self(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                     void *recvbuf, int recvcount, MPI_Datatype recvtype,
                     MPI_Comm comm);
int cz_alltoall_mpi(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                    void *recvbuf, int recvcount, MPI_Datatype recvtype,
                    MPI_Comm comm);

/* ---- allgather: MPI_Allgather's arguments ----------------------------- */
int cz_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                 void *recvbuf, int recvcount, MPI_Datatype recvtype,
                 MPI_Comm comm);
int cz_allgather_gather_bcast(const void *sendbuf, int sendcount,
                              MPI_Datatype sendtype, void *recvbuf,
                              int recvcount, MPI_Datatype recvtype,
                              MPI_Comm comm);
int cz_allgather_recursive_doubling(const void *sendbuf, int sendcount,
                                    MPI_Datatype sendtype, void *recvbuf,
                                    int recvcount, MPI_Datatype recvtype,
                                    MPI_Comm comm);
int cz_allgather_bruck(const void *sendbuf, int sendcount,
                       MPI_Datatype sendtype, void *recvbuf, int recvcount,
                       MPI_Datatype recvtype, MPI_Comm comm);
int cz_allgather_ring(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                      void *recvbuf, int recvcount, MPI_Datatype recvtype,
                      MPI_Comm comm);
int cz_allgather_shm(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                     void *recvbuf, int recvcount, MPI_Datatype recvtype,
                     MPI_Comm comm);
int cz_allgather_shm_flag(const void *sendbuf, int sendcount,
                          MPI_Datatype sendtype, void *recvbuf, int recvcount,
                          MPI_Datatype recvtype, MPI_Comm comm);
int cz_allgather_self(const void *sendbuf, int sendcount,
                      MPI_Datatype sendtype, void *recvbuf, int recvcount,
                      MPI_Datatype recvtype, MPI_Comm comm);
int cz_allgather_mpi(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                     void *recvbuf, int recvcount, MPI_Datatype recvtype,
                     MPI_Comm comm);

/* ---- bcast: MPI_Bcast's arguments ------------------------------------- */
int cz_bcast(void *buffer, int count, MPI_Datatype datatype, int root,
             MPI_Comm comm);
int cz_bcast_binomial(void *buffer, int count, MPI_Datatype datatype, int root,
                      MPI_Comm comm);
int cz_bcast_scatter_allgather(void *buffer, int count, MPI_Datatype datatype,
                               int root, MPI_Comm comm);
int cz_bcast_shm(void *buffer, int count, MPI_Datatype datatype, int root,
                 MPI_Comm comm);
int cz_bcast_self(void *buffer, int count, MPI_Datatype datatype, int root,
                  MPI_Comm comm);
int cz_bcast_mpi(void *buffer, int count, MPI_Datatype datatype, int root,
                 MPI_Comm comm);

/* ---- allreduce: MPI_Allreduce's arguments ----------------------------- */
int cz_allreduce(const void *sendbuf, void *recvbuf, int count,
                 MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
/* One node, through the shared-memory window: every rank reduces all
 * inputs itself, in rank order (any associative op, also non-commutative
 * ones; contiguous datatypes, others use the library's). */
int cz_allreduce_shm(const void *sendbuf, void *recvbuf, int count,
                     MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
/* The same as a reduce-scatter of 1/P slices, then an allgather, in the
 * window (each element reduced once: for large messages). */
int cz_allreduce_shm_rs(const void *sendbuf, void *recvbuf, int count,
                        MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
/* One process: recvbuf = sendbuf, op not applied (as MPI at P = 1). */
int cz_allreduce_self(const void *sendbuf, void *recvbuf, int count,
                      MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
int cz_allreduce_mpi(const void *sendbuf, void *recvbuf, int count,
                     MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);

/* ---- alltoallv: MPI_Alltoallv's arguments ----------------------------- */
int cz_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                 MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                 const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm);
int cz_alltoallv_spread_out(const void *sendbuf, const int sendcounts[],
                            const int sdispls[], MPI_Datatype sendtype,
                            void *recvbuf, const int recvcounts[],
                            const int rdispls[], MPI_Datatype recvtype,
                            MPI_Comm comm);
int cz_alltoallv_pairwise(const void *sendbuf, const int sendcounts[],
                          const int sdispls[], MPI_Datatype sendtype,
                          void *recvbuf, const int recvcounts[],
                          const int rdispls[], MPI_Datatype recvtype,
                          MPI_Comm comm);
int cz_alltoallv_self(const void *sendbuf, const int sendcounts[],
                      const int sdispls[], MPI_Datatype sendtype,
                      void *recvbuf, const int recvcounts[],
                      const int rdispls[], MPI_Datatype recvtype,
                      MPI_Comm comm);
int cz_alltoallv_mpi(const void *sendbuf, const int sendcounts[],
                     const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
                     const int recvcounts[], const int rdispls[],
                     MPI_Datatype recvtype, MPI_Comm comm);

/* Node-aware alltoallv (planned): each (simulated) node collates its ranks'
 * data in one shared-memory segment and sends one message per node pair.
 * cz_alltoallv_planned keeps a per-communicator cache of plans keyed by the
 * call's arguments (COLLECTIVIZE_PLAN_CACHE=N plans, default 4); the two-phase
 * algorithm is a log-step (Bruck-style) exchange for irregular counts. */
int cz_alltoallv_planned(const void *sendbuf, const int sendcounts[],
                         const int sdispls[], MPI_Datatype sendtype,
                         void *recvbuf, const int recvcounts[],
                         const int rdispls[], MPI_Datatype recvtype,
                         MPI_Comm comm);
int cz_alltoallv_two_phase(const void *sendbuf, const int sendcounts[],
                           const int sdispls[], MPI_Datatype sendtype,
                           void *recvbuf, const int recvcounts[],
                           const int rdispls[], MPI_Datatype recvtype,
                           MPI_Comm comm);

/* ---- planned alltoallv: a reusable plan --------------------------------
 * Only what an MPI_Alltoallv call has, so a plan can replace one directly.
 * create is collective over comm (every rank, same order) and checks the
 * call: negative counts, send/receive byte counts that disagree between
 * ranks, and overlapping receive blocks fail on every rank with the same
 * error code and message. The arrays are copied; the types must stay valid
 * while the plan lives. execute is collective (all ranks, same plan) and may
 * run any number of times with different buffer contents or addresses;
 * MPI_IN_PLACE is not accepted there. A plan decides at creation, from the
 * decision table, whether the node-aware path pays off or a direct algorithm
 * runs (cz_alltoallv_plan_algorithm says which). free is local; a plan must
 * be freed before MPI_Finalize, and executing a plan whose communicator was
 * freed returns MPI_ERR_COMM.
 * Environment: COLLECTIVIZE_RANKS_PER_NODE=k splits each real node into
 * simulated nodes of k ranks (inter-"node" traffic then uses MPI messages). */
typedef struct cz_alltoallv_plan_s *cz_alltoallv_plan_t;
int cz_alltoallv_plan_create(const int sendcounts[], const int sdispls[],
                             MPI_Datatype sendtype, const int recvcounts[],
                             const int rdispls[], MPI_Datatype recvtype,
                             MPI_Comm comm, cz_alltoallv_plan_t *plan);
int cz_alltoallv_plan_execute(cz_alltoallv_plan_t plan, const void *sendbuf,
                              void *recvbuf);
int cz_alltoallv_plan_free(cz_alltoallv_plan_t *plan);
/* "planned" or the direct algorithm the plan runs ("mpi", ...). */
const char *cz_alltoallv_plan_algorithm(cz_alltoallv_plan_t plan);

/* ---- shared memory -------------------------------------------------------
 * On one node the shm algorithms (alltoall shm_push / shm_pull and their
 * round-flag versions shm_flag_push / shm_flag_pull, allgather shm /
 * shm_flag, bcast shm, allreduce shm) move data through a shared-memory window per
 * communicator instead of messages: each byte is copied into shared memory
 * and out again. cz_buffer_alloc gives memory that already is shared: when
 * an alltoall (shm_pull) or allgather (shm) finds its send data, or a bcast
 * (shm, 16 KiB and up) the root's message, inside such a buffer made on the
 * same communicator, peers copy it straight from there (one copy instead of
 * two). Both calls are collective over comm
 * (every rank, same order, any bytes per rank); *(void **)baseptr receives
 * this rank's part, as with MPI_Alloc_mem. Free with cz_buffer_free on
 * every rank of comm before freeing comm or finalizing. Without shared
 * memory the buffer is ordinary memory (one warning), and collectives still
 * work. Environment: COLLECTIVIZE_SHM_BYTES=N caps the window of the shm
 * algorithms per node (default 64M; below the minimum they use the MPI
 * library's collectives, with one warning). */
int cz_buffer_alloc(MPI_Comm comm, MPI_Aint bytes, void *baseptr);
int cz_buffer_free(void *ptr);

/* ---- any algorithm by name ---------------------------------------------
 * "bruck", "bruck:4", "ring", "mpi", ... as listed by cz_algorithm_names():
 * for benchmarks and experiments. An unknown name returns MPI_ERR_ARG. */
int cz_alltoall_algorithm(const char *algorithm, const void *sendbuf,
                          int sendcount, MPI_Datatype sendtype, void *recvbuf,
                          int recvcount, MPI_Datatype recvtype, MPI_Comm comm);
int cz_allgather_algorithm(const char *algorithm, const void *sendbuf,
                           int sendcount, MPI_Datatype sendtype, void *recvbuf,
                           int recvcount, MPI_Datatype recvtype, MPI_Comm comm);
int cz_bcast_algorithm(const char *algorithm, void *buffer, int count,
                       MPI_Datatype datatype, int root, MPI_Comm comm);
int cz_allreduce_algorithm(const char *algorithm, const void *sendbuf,
                           void *recvbuf, int count, MPI_Datatype datatype,
                           MPI_Op op, MPI_Comm comm);
int cz_alltoallv_algorithm(const char *algorithm, const void *sendbuf,
                           const int sendcounts[], const int sdispls[],
                           MPI_Datatype sendtype, void *recvbuf,
                           const int recvcounts[], const int rdispls[],
                           MPI_Datatype recvtype, MPI_Comm comm);

/* ---- algorithm selection ---------------------------------------------- */
/* Collectives known to the decision table. */
typedef enum {
  CZ_COLL_ALLTOALL = 0,
  CZ_COLL_ALLGATHER,
  CZ_COLL_BCAST,
  CZ_COLL_ALLTOALLV,
  CZ_COLL_ALLREDUCE,
  CZ_COLL_COUNT
} cz_collective;

/* The algorithm cz_<coll> would run for nprocs processes and `bytes` bytes
 * (per block for alltoall/allgather, whole message for bcast and allreduce,
 * ignored for alltoallv), as "name" or "name:param". Writes at most len
 * bytes to name.
 * Honours COLLECTIVIZE_<COLL>_ALGORITHM and COLLECTIVIZE_TUNING. Local: no
 * communication, usable before MPI_Init. Returns MPI_SUCCESS or an error. */
int cz_selected_algorithm(cz_collective coll, int nprocs, long long bytes,
                          char *name, int len);

/* Space-separated list of the algorithm names of one collective, for
 * people ("bruck[:R] spread_out ..."; [:R]: takes a parameter). Programs
 * enumerate with cz_algorithm_info. */
const char *cz_algorithm_names(cz_collective coll);

/* One registered algorithm, as cz_algorithm_info describes it. */
typedef struct cz_algorithm_desc {
  const char *name;       /* "bruck": the NAME of cz_<coll>_algorithm and tables */
  const char *param_name; /* "radix", or NULL: takes no parameter (NAME:P) */
  int param_default, param_min, param_max;
  const char *summary;    /* one line */
} cz_algorithm_desc;

/* The index-th algorithm of coll, in registry order (0, 1, ...):
 * MPI_SUCCESS, or MPI_ERR_ARG past the last (or for an unknown coll).
 * Local; usable before MPI_Init. */
int cz_algorithm_info(cz_collective coll, int index, cz_algorithm_desc *out);

/* Parses a decision-table file (format: share/collectivize/
 * decision-table.txt). Returns MPI_SUCCESS, or an error code with
 * "FILE:LINE: problem" in message. Local; usable before MPI_Init. */
int cz_decision_table_check(const char *path, char *message, int len);

/* Lower-case name of a collective ("alltoall"), or NULL. */
const char *cz_collective_name(cz_collective coll);

/* ---- tracing (libcollectivize_trace) -----------------------------------
 * Effective when the program runs under the hashing tracer (linked with
 * -lcollectivize_trace, or LD_PRELOAD=.../libcollectivize_trace.so); without
 * it these are no-ops. Trace directory: COLLECTIVIZE_TRACE_DIR, else
 * ./collectivize-trace-<YYYYmmdd-HHMMSS>; an existing trace is never
 * overwritten. */
/* Record that this process keeps count elements of buf locally (the root's
 * own block of a scatter or gather): a send to itself no receive matches. */
int cz_send_to_self(const void *buf, int count, MPI_Datatype type);
/* Stop / restart recording new messages (nestable, process-wide). */
void cz_trace_pause(void);
void cz_trace_resume(void);
/* Call-site id for this thread's next MPI call (set by instrumented code;
 * otherwise the tracer records the call's return address). */
void cz_trace_site(unsigned long long site_id);
/* The same for a call inside the program's own wrapper of an MPI call:
 * caller is the wrapper's return address (where the program called it). */
void cz_trace_site_at(unsigned long long site_id, void *caller);
/* The site database the calling code's ids are in (called by instrumented
 * code before main): the trace's manifest names it, and `collectivize
 * detect` uses it when not given --sites. */
void cz_trace_sites_database(const char *path);

#ifdef __cplusplus
}
#endif
#endif /* COLLECTIVIZE_H */
