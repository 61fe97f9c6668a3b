/* shm.h: the node's shared-memory window for the single-node collectives
 * (coll/ files named *shm*). One window per private communicator, made on first use,
 * grown when a call needs more, and freed with the communicator (it hangs on
 * the communicator's node context, node/node.h, whose node communicator,
 * node barrier and lifetime it shares).
 *
 * Layout: every rank of the node owns a region: its round flag, two round
 * descriptors, then two halves of `half` bytes (double buffering: a round
 * writes descriptor and half epoch&1, one node barrier, then reads; the
 * *_flag algorithms publish the round in the writer's flag instead of the
 * barrier, and readers wait only for that writer, shm/flags.c); rank 0's
 * region starts with the broadcast area (a control block and
 * CZI_SHM_BCAST_SLOTS pipeline slots), which uses flags instead of barriers.
 *
 * Why two halves and one barrier per round are enough: a rank writes half h
 * again only in round e+2, after the barrier of round e+1, which no rank
 * passes before every rank has finished reading round e.
 *
 * Environment: COLLECTIVIZE_SHM_BYTES=N caps the shared memory one node's
 * window may take (default 64M; K/M/G suffixes). Too small for the minimum,
 * or a failed allocation: the shm algorithms fall back to the MPI library's
 * collectives on that communicator, with a one-time warning. */
#ifndef CZ_SHM_H
#define CZ_SHM_H

#include <stdatomic.h>

#include "cz_internal.h"

#ifdef __cplusplus
extern "C" {
#endif

struct czi_node_ctx;

/* The broadcast ring: deep, so that a root of many small broadcasts in a
 * row runs up to SLOTS calls ahead of descheduled readers instead of waiting
 * for them every call (measured: 4 slots made 8 B broadcasts 10-20x slower
 * than Open MPI's eager sends at P = 4-8 on 2 cores); segments small enough
 * that large messages pipeline. 1 MiB in all. */
enum {
  CZI_SHM_BCAST_SLOTS = 64,
  CZI_SHM_BCAST_SEG = 16 * 1024, /* bytes per pipeline segment */
  CZI_SHM_MIN_HALF = 4096,
};

/* Broadcast pipeline flags, one cache line each (rank 0's region). Segment
 * g of the communicator's broadcasts goes through slot g % SLOTS; ready[s]
 * holds g+1 once the root has written it, consumed[s] counts the readers
 * that copied it out, over all uses of the slot; source[s] says whether
 * the segment is in the slot or is a whole message the readers copy from
 * the root's cz_buffer_alloc buffer (zero copy). */
typedef struct czi_shm_flag {
  _Atomic unsigned long long value;
  _Atomic int sleepers; /* ranks asleep on it (common/node_wait.h) */
  char pad[52];
} czi_shm_flag;
/* What a rank tells its peers about one round: where its send data is. */
typedef struct czi_shm_desc {
  int direct;        /* 1: read it from my cz_buffer_alloc buffer */
  int buffer_id;     /* that buffer (ids count per communicator) */
  long long offset;  /* bytes from the buffer's start to my send data */
  char pad[48];
} czi_shm_desc;

typedef struct czi_shm_bcast_ctl {
  czi_shm_flag ready[CZI_SHM_BCAST_SLOTS];
  czi_shm_flag consumed[CZI_SHM_BCAST_SLOTS];
  czi_shm_desc source[CZI_SHM_BCAST_SLOTS];
  /* The placement probe's lines (shm/placement_probe.c): the one node
   * ranks 0 and 1 bounce, rank 0's verdict, the other ranks' receipts. */
  czi_shm_flag probe_line, probe_verdict, probe_read;
} czi_shm_bcast_ctl;

typedef struct czi_shm {
  int usable;         /* 0: this communicator falls back (see reason) */
  char reason[160];
  MPI_Win win;
  MPI_Aint half;      /* bytes of one half of each rank's region */
  MPI_Aint half_max;  /* largest half COLLECTIVIZE_SHM_BYTES allows */
  char **region;      /* [node_size]: each rank's descriptors and halves */
  czi_shm_bcast_ctl *bctl;
  char *bslots;       /* CZI_SHM_BCAST_SLOTS x CZI_SHM_BCAST_SEG */
  unsigned long long epoch; /* barrier rounds so far: picks the half */
  unsigned long long bseq;  /* broadcast segments so far */
  unsigned long long probes; /* placement probes so far */
} czi_shm;

/* What an algorithm works with: my (simulated) node's window; me and p are
 * ranks within the node, nnodes > 1 when the communicator spans several. */
typedef struct czi_shm_view {
  struct czi_node_ctx *ctx;
  czi_shm *shm;
  int me, p, nnodes;
  int sleeps; /* waiters sleep (czi_shm_wait_for sets it) */
} czi_shm_view;

/* My node's window for priv, with halves of at least min(need, limit)
 * bytes. Collective over priv, with the same need on every rank. Returns
 * MPI_SUCCESS and *usable = 1, or *usable = 0 when no window could be made
 * (too little shared memory): the caller then runs its fallback. */
int czi_shm_get(MPI_Comm priv, MPI_Aint need, czi_shm_view *view, int *usable);

/* How this call's waiters wait: `bytes` is what one rank moves
 * (common/node_wait.h). Call after czi_shm_get. */
void czi_shm_wait_for(czi_shm_view *v, long long bytes);

/* Bytes before the halves of each region: the round flag and the two
 * descriptors. */
#define CZI_SHM_REGION_HEADER (sizeof(czi_shm_flag) + 2 * sizeof(czi_shm_desc))

/* Rank r's round flag: e + 1 once r has written its data of round e (and
 * so finished reading every earlier round); set only by the *_flag
 * algorithms (shm/flags.c). */
static inline czi_shm_flag *czi_shm_seq(const czi_shm_view *v, int r) {
  return (czi_shm_flag *)v->shm->region[r];
}
/* Descriptor and half h of rank r's region (h = epoch & 1). */
static inline czi_shm_desc *czi_shm_desc_of(const czi_shm_view *v, int r,
                                            unsigned long long epoch) {
  return (czi_shm_desc *)(v->shm->region[r] + sizeof(czi_shm_flag)) + (epoch & 1);
}
static inline char *czi_shm_half(const czi_shm_view *v, int r,
                                 unsigned long long epoch) {
  return v->shm->region[r] + CZI_SHM_REGION_HEADER +
         (MPI_Aint)(epoch & 1) * v->shm->half;
}

/* ---- pieces shared by the single-node and hierarchical algorithms ------- */
/* Broadcast of n packed bytes within my node from node rank root, through
 * the window's ring, or straight from the root's cz_buffer_alloc buffer
 * (see bcast_shm.c). */
int czi_shm_bcast_ring(czi_shm_view *v, char *bytes, MPI_Aint n, int root);
/* Several nodes: which runs, the hierarchical version (called by name or
 * forced) or the library's collective (chosen by the decision table, whose
 * rules were measured on one node). */
static inline int czi_shm_hierarchical(const czi_shm_view *v,
                                       const czi_params *params) {
  return v->nnodes > 1 && !params->from_table;
}

/* Alltoall over several nodes through the planned alltoallv's node path
 * (alltoall_nodes.c). */
int czi_shm_alltoall_nodes(const void *sendbuf, int sendcount,
                           MPI_Datatype sendtype, void *recvbuf, int recvcount,
                           MPI_Datatype recvtype, MPI_Comm comm, int p);

/* ---- zero-copy buffers (buffers.c) ---------------------------------------
 * If [data, data + bytes) lies in a cz_buffer_alloc buffer made on this
 * view's communicator, fills d (direct = 1) and returns 1; else 0. Peers
 * then find the data with czi_shm_peer_data. */
int czi_shm_direct_source(const czi_shm_view *v, const void *data,
                          MPI_Aint bytes, czi_shm_desc *d);
/* Node rank r's data described by d (direct), or NULL if unknown. */
const char *czi_shm_peer_data(const czi_shm_view *v, int r,
                              const czi_shm_desc *d);

/* ---- per-rank round flags instead of the barrier (flags.c) ----------------
 * Round e of a *_flag algorithm: every rank writes its data, then publishes
 * (my flag = e + 1, waking its sleepers); each reader then waits for each
 * writer it reads from, in whatever order they become ready. Safe to
 * reuse half e&1 in round e+2 only because every rank reads from every
 * other (alltoall, allgather): a writer that passed round e+1 has seen
 * every flag at e+2, set after that rank's reads of round e. Mixes with
 * barrier rounds (their barrier orders the same accesses). */
void czi_shm_publish(const czi_shm_view *v, unsigned long long epoch);
/* Calls copy(v, from, arg) once for every peer `from` != me, as soon as
 * from's flag says round `epoch` is written (ready peers first, then
 * waiting for the others in order). */
void czi_shm_each_ready(const czi_shm_view *v, unsigned long long epoch,
                        void (*copy)(const czi_shm_view *v, int from, void *arg),
                        void *arg);

/* Waits until every peer's flag says round `epoch` is written (a reader
 * that needs all of them before it starts: the allreduces). */
void czi_shm_wait_all(const czi_shm_view *v, unsigned long long epoch);

/* The start both shm allreduces share (shm/allreduce_start.c): the call as
 * this rank's bytes in a window's halves. 1: go on with c; 0: the call is
 * complete with *rc (no data, one rank, or the library's allreduce ran:
 * non-contiguous type, several nodes, no window, an element over a half). */
typedef struct czi_shm_allreduce_call {
  czi_shm_view v;
  czi_type t;
  int me, p;
  int per_round;  /* whole elements that fit a half */
  const char *in; /* this rank's input, at its type's true lower bound */
  char *out;      /* the result, likewise */
} czi_shm_allreduce_call;
int czi_shm_allreduce_start(CZI_ALLREDUCE_ARGS, czi_shm_allreduce_call *c, int *rc);

/* The node barrier between a round's writes and reads (the context's,
 * node/node.h). */
void czi_shm_barrier(const czi_shm_view *v);


/* Waits until f->value >= want: spins, then yields, or sleeps when the
 * node's ranks outnumber its cores (common/node_wait.h). */
void czi_shm_wait_at_least(const czi_shm_view *v, czi_shm_flag *f,
                           unsigned long long want);
/* Sets f->value and wakes its sleepers. */
void czi_shm_flag_set(czi_shm_flag *f, unsigned long long value);
/* Adds to f->value and returns the new value; wakes nobody (call
 * czi_shm_flag_wake when the value is one a waiter waits for). */
unsigned long long czi_shm_flag_add(czi_shm_flag *f, unsigned long long add);
void czi_shm_flag_wake(czi_shm_flag *f);

/* The round-flag alltoall of shm_flag_push (push = 1: writers write into
 * the readers' regions) and shm_flag_pull (0: readers read the writers'
 * regions); shm/alltoall_flag.c. */
int czi_shm_alltoall_flag(CZI_ALLTOALL_ARGS, int push);

/* ---- blocks as packed bytes ---------------------------------------------
 * The shm algorithms copy bytes: block j of a side is at base + j*m, either
 * the user's buffer itself (dense type) or a packed scratch copy (packed
 * before the exchange, unpacked after it). */
typedef struct czi_shm_blocks {
  const char *send;
  char *recv;
  MPI_Aint m;       /* bytes per block */
  int unpack_recv;  /* recv is scratch: czi_shm_blocks_close unpacks it */
} czi_shm_blocks;

/* nsend / nrecv blocks of sendcount / recvcount elements; blocks
 * send_skip and recv_skip are neither packed nor unpacked (the caller
 * copies its own block directly; -1: none). */
int czi_shm_blocks_open(const void *sendbuf, int sendcount, const czi_type *st,
                        int nsend, int send_skip, void *recvbuf, int recvcount,
                        const czi_type *rt, int nrecv, czi_shm_blocks *b);
int czi_shm_blocks_close(const czi_shm_blocks *b, void *recvbuf,
                         int recvcount, const czi_type *rt, int nrecv,
                         int skip);

/* The start all shm alltoalls share (shm/alltoall_start.c): 1: go on with
 * c, one node, my own block copied, c->b open (the caller closes it); 0:
 * the call is complete with *rc (one rank or empty blocks; the library's
 * alltoall: no window, or several nodes without hierarchical use; the
 * planned alltoallv's node path: several nodes). */
typedef struct czi_shm_alltoall_call {
  czi_shm_view v;
  czi_type st, rt;
  int me, p;
  MPI_Aint m; /* bytes per block */
  czi_shm_blocks b;
} czi_shm_alltoall_call;
int czi_shm_alltoall_start(CZI_ALLTOALL_ARGS, czi_shm_alltoall_call *c, int *rc);

/* Bytes per block of one round: all of m when `per_rank_blocks` blocks of
 * m fit a half, else what fits, in whole cache lines. */
static inline MPI_Aint czi_shm_chunk(const czi_shm *shm, MPI_Aint m,
                                     int per_rank_blocks) {
  MPI_Aint fit = shm->half / per_rank_blocks;
  if (m <= fit) return m;
  fit &= ~(MPI_Aint)63;
  return fit > 0 ? fit : 1;
}

#ifdef __cplusplus
}
#endif
#endif
