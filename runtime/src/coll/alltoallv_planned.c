/*
 * alltoallv_planned.c: node-aware alltoallv through a cached plan (see
 * plan/plan.c for the plan and its execution, plan/cache.c for the cache and
 * how the ranks agree on a hit). The ranks of each node collate their data
 * in the node's shared segment and the node sends one message per node
 * pair, spread over its ranks; data within a node moves through shared
 * memory only.
 *
 * Cost per call with a cached plan (N nodes of L ranks, m bytes per rank,
 * M bytes per node pair, γ: memory copy per byte):
 *   T ≈ 2·m·γ + α_allreduce(P) + α_barrier(L) + ⌈2(N-1)/L⌉·(α + M·β)
 * against (P-1)·α + m·β for a direct exchange. Plan creation: about one
 * alltoall of P counts, an allgather within the node, an allreduce of N²
 * counts (bench/README.md gives it in units of one call).
 *
 * Chosen by the decision table ("alltoallv <procs> <bytes> planned", bytes
 * being the mean bytes per non-empty block, known once a plan exists): a key
 * is planned the second time it is seen, and the plan runs the node path or
 * whatever the table names for that block size. Called by name or forced
 * through COLLECTIVIZE_ALLTOALLV_ALGORITHM, it plans on first sight and
 * always runs the node path. Derived datatypes are planned for one call
 * only (not cached). Example, 4 ranks as 2 nodes of 2, 8 B per pair: 2 node
 * messages of 32 B instead of 12 rank messages of 8 B.
 */
#include "plan.h"

int czi_alltoallv_planned(CZI_ALLTOALLV_ARGS) {
  const int by_name = !params->from_table;
  czi_plan_how how = {by_name, !by_name, NULL, 0};
  return czi_alltoallv_cached(sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                              recvcounts, rdispls, recvtype, comm, &how,
                              by_name);
}
