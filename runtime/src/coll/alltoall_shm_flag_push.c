/*
 * alltoall_shm_flag_push.c: single-node alltoall through shared memory,
 * writer side remote, synchronised by per-rank round flags instead of a
 * node barrier. Like shm_push, rank i writes its block for j straight into
 * slot i of j's region (half epoch&1); then it publishes "my blocks of this
 * round are written" in its own flag, and copies slot j of its own region
 * out as soon as rank j's flag says so, taking the ready writers first
 * (shm/flags.c). Double buffering needs no barrier: a rank rewrites a half
 * only two rounds later, after it has seen every peer's flag of the round
 * in between, which each peer sets only after finishing its reads of the
 * earlier one (every rank reads from every other).
 *
 *  1. copy my own block locally;
 *  2. per round of c bytes per block: P-1 copies into peers' regions,
 *     publish my flag, then P-1 times: wait for a writer's flag, copy out.
 *
 * Cost (m = bytes per block, R = ceil(m/c) rounds, β_c the memory-copy
 * time per byte, α_f a flag hand-off): T = R·α_f + 2·(P-1)·m·β_c per rank,
 * where α_f is one store and P-1 flag reads (no shared counter that all P
 * ranks increment, no single generation word that wakes all sleepers at
 * once: a sleeping reader is woken by the writer it waits for); a reader
 * starts copying early writers' blocks before the last one arrives.
 * 2·P·(P-1)·m bytes copied on the node (the bound is half). Window: 2·P·c
 * per rank. No zero copy (send data is always staged).
 * Several (simulated) nodes: as shm_push (hierarchical when called by name
 * or forced, the library's alltoall when the decision table chose this);
 * the library's alltoall when no window could be made.
 * Example, P = 4, rank 1: writes its blocks 0, 2, 3 into slot 1 of ranks
 * 0, 2, 3, sets its flag; copies slot 3 as soon as rank 3's flag is set,
 * even if rank 0 has not arrived yet.
 */
#include "shm.h"

/* The round loop is shared with shm_flag_pull (shm/alltoall_flag.c). */
int czi_alltoall_shm_flag_push(CZI_ALLTOALL_ARGS) {
  return czi_shm_alltoall_flag(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                               recvtype, comm, params, 1);
}
