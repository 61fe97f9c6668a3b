/*
 * alltoall_shm_flag_pull.c: single-node alltoall through shared memory,
 * reader side remote, synchronised by per-rank round flags instead of a
 * node barrier. Like shm_pull, every rank lays out its outgoing blocks in
 * its own region (half epoch&1, local writes); then it publishes "my
 * blocks of this round are written" in its own flag, and copies slot me of
 * rank j's region as soon as j's flag says so, taking the ready writers
 * first (shm/flags.c). Double buffering needs no barrier: a rank rewrites a
 * half only two rounds later, after it has seen every peer's flag of the
 * round in between, which each peer sets only after finishing its reads of
 * the earlier one (every rank reads from every other).
 *
 *  1. copy my own block locally;
 *  2. per round of c bytes per block: P-1 copies into my region, publish my
 *     flag, then P-1 times: wait for a writer's flag, copy from its region.
 *
 * Cost (m = bytes per block, R = ceil(m/c) rounds, β_c the memory-copy
 * time per byte, α_f a flag hand-off): T = R·α_f + 2·(P-1)·m·β_c per rank;
 * α_f is one store and P-1 flag reads (no counter all ranks increment; a
 * sleeping reader is woken by the writer it waits for, not all at once by
 * the last arrival), and early writers' blocks are copied before the last
 * one arrives. 2·P·(P-1)·m bytes copied on the node (the bound is half).
 * Window: 2·P·c per rank. No zero copy (send data is always staged).
 * Several (simulated) nodes: as shm_pull (hierarchical when called by name
 * or forced, the library's alltoall when the decision table chose this);
 * the library's alltoall when no window could be made.
 * Example, P = 4, rank 1: writes blocks 0, 2, 3 into its slots 0, 2, 3,
 * sets its flag; reads slot 1 of rank 3 as soon as rank 3's flag is set,
 * even if rank 0 has not arrived yet.
 */
#include "shm.h"

/* The round loop is shared with shm_flag_push (shm/alltoall_flag.c). */
int czi_alltoall_shm_flag_pull(CZI_ALLTOALL_ARGS) {
  return czi_shm_alltoall_flag(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                               recvtype, comm, params, 0);
}
