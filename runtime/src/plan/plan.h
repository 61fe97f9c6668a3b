/* plan.h: the planned (node-aware) alltoallv: plans, made on a
 * communicator's node context (node/node.h). Used by
 * coll/alltoallv_planned.c (the cached path) and api/alltoallv_plan.c (the
 * explicit plan API). See plan.c for the layout and the execution protocol. */
#ifndef CZ_PLAN_H
#define CZ_PLAN_H

#include "cz_internal.h"
#include "node.h"
#include "registry.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct czi_seg_block {
  MPI_Aint buf_off; /* displacement * extent in the user's buffer */
  int count;
  MPI_Aint seg_off; /* offset in the segment half */
} czi_seg_block;

typedef struct czi_msg {
  int peer;         /* rank in priv */
  MPI_Aint seg_off; /* offset in the segment half */
  int bytes;
} czi_msg;

enum { CZI_PLAN_NODE = 0, CZI_PLAN_DIRECT = 1 };

struct cz_alltoallv_plan_s {
  czi_node_ctx *ctx;
  int id, mode;
  const czi_algorithm *direct; /* mode DIRECT */
  int direct_param;
  /* DIRECT self on one process with dense types: execute copies the one
   * block itself (local_bytes from sendbuf + local_src to recvbuf +
   * local_dst) without looking the types up again. */
  int local;
  /* DIRECT on the library's own MPI_Alltoallv: execute hands the call to
   * it from the entry point (as the fast paths do, api.h). */
  int lib;
  MPI_Aint local_src, local_dst;
  size_t local_bytes;
  int p, me;
  int *args; /* sendcounts, sdispls, recvcounts, rdispls: 4*p ints */
  MPI_Datatype sendtype, recvtype;
  czi_type st, rt;
  /* mode NODE */
  MPI_Aint half; /* bytes this plan uses in one half */
  int npack, nunpack, nsend, nrecv;
  czi_seg_block *pack, *unpack;
  czi_msg *sends, *recvs;
  MPI_Request *reqs;
  /* what the plan saw (same on every rank) */
  long long total_bytes, rank_msgs, node_msgs, mean_block;
  char name[32];
};

/* How a plan is made. */
typedef struct czi_plan_how {
  int force_node;    /* node path whatever the table says */
  int choose_direct; /* otherwise the table decides (else: node path) */
  const czi_algorithm *direct; /* forced direct algorithm, or NULL */
  int direct_param;
} czi_plan_how;

/* Collective over priv. Arguments already checked locally except what
 * needs other ranks; errors are agreed: every rank returns the same code. */
int czi_plan_create(const int *sendcounts, const int *sdispls,
                    MPI_Datatype sendtype, const int *recvcounts,
                    const int *rdispls, MPI_Datatype recvtype, MPI_Comm priv,
                    const czi_plan_how *how, int local_error,
                    cz_alltoallv_plan_t *out);
/* Node-path pieces, split so the cached path can agree between them. */
int czi_plan_pack(cz_alltoallv_plan_t plan, const void *sendbuf);
int czi_plan_exchange(cz_alltoallv_plan_t plan, const void *sendbuf,
                      void *recvbuf, int node_barrier_first);
int czi_plan_execute(cz_alltoallv_plan_t plan, const void *sendbuf,
                     void *recvbuf);
void czi_plan_destroy(cz_alltoallv_plan_t plan);

/* The cached path (cache.c): what cz_alltoallv runs when the table says
 * planned. plan_first_call: plan even a key never seen before. */
int czi_alltoallv_cached(const void *sendbuf, const int *sendcounts,
                         const int *sdispls, MPI_Datatype sendtype,
                         void *recvbuf, const int *recvcounts,
                         const int *rdispls, MPI_Datatype recvtype,
                         MPI_Comm priv, const czi_plan_how *how,
                         int plan_first_call);
/* Exposed for the benchmark's hashing cost measurement. */
unsigned long long czi_plan_key_hash(const int *sendcounts, const int *sdispls,
                                     const int *recvcounts, const int *rdispls,
                                     int p, MPI_Datatype st, MPI_Datatype rt);

#ifdef __cplusplus
}
#endif
#endif
