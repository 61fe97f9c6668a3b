// Prefix reductions along the chain of ranks, run on paper (PrefixChain):
// the inclusive chain is proposed as MPI_Scan from the rank's own values
// into the buffer the chain leaves the prefix in, its combine step dropped
// with the messages (the trace saw only a reduce to the last rank, the
// operation open: the source settles both; a confirmed reduce too, since
// MPI_Reduce would not leave every rank its partial result); a chain accumulating in the
// buffer that starts with the rank's own value is MPI_Scan in place; the
// exclusive chains are MPI_Exscan, rank 0 receiving into a buffer nothing
// reads afterwards where the chain leaves rank 0's result as it was.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: %collectivize instrument -q --root %t -o %t/inst %t/prog.c -- %mock-mpi
// RUN: %cz-make-report %t/inst/collectivize-sites.json 'reduce count=2 root=3 status=ambiguous unproven=["reduction_op"] lines=39-41' 'scan count=1 op=MPI_SUM lines=51-54' 'exscan count=1 op=MPI_SUM lines=64-70' 'exscan count=2 status=ambiguous unproven=["reduction_op"] lines=81-87' > %t/report.json
// RUN: %collectivize rewrite %t/report.json -o %t/p -- %mock-mpi | FileCheck %s --check-prefix=SUMMARY
// RUN: FileCheck %s --check-prefix=DIFF < %t/p/all.diff
// RUN: FileCheck %s --check-prefix=WHY < %t/p/01-reduce.md
// RUN: %cz-make-report %t/inst/collectivize-sites.json 'reduce count=2 root=3 op=MPI_SUM lines=39-41' > %t/confirmed.json
// RUN: %collectivize rewrite %t/confirmed.json -o %t/c -- %mock-mpi | FileCheck %s --check-prefix=CONFIRMED
// CONFIRMED: 01-reduce: proposed prog.c:{{[0-9]+}}-{{[0-9]+}} -> MPI_Scan(mine, sum, N, MPI_INT, MPI_SUM, comm);
// SUMMARY: 01-reduce: proposed prog.c:{{[0-9]+}}-{{[0-9]+}} -> MPI_Scan(mine, sum, N, MPI_INT, MPI_SUM, comm);
// SUMMARY: 02-scan: proposed prog.c:{{[0-9]+}}-{{[0-9]+}} -> MPI_Scan(MPI_IN_PLACE, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
// SUMMARY: 03-exscan: proposed prog.c:{{[0-9]+}}-{{[0-9]+}} -> MPI_Exscan(&mine, (me == 0 ? &below : &sum), 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
// SUMMARY: 04-exscan: proposed prog.c:{{[0-9]+}}-{{[0-9]+}} -> MPI_Exscan(mine, (me == 0 ? below : sum), N, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
// SUMMARY: 4 proposed, 0 to review, 0 without a patch
// DIFF: -  for (int i = 0; i < N; i++) sum[i] = (me > 0 ? got[i] : 0) + mine[i];
// DIFF: +  MPI_Scan(mine, sum, N, MPI_INT, MPI_SUM, comm);
// DIFF: -    sum += got;
// DIFF: -    for (int i = 0; i < N; i++) sum[i] = pass[i];
// WHY-DAG: leaves 'sum' on rank r holding 'mine' of ranks 0..r combined once (MPI_SUM)
// WHY-DAG: every rank keeps its partial result in sum, as MPI_Scan leaves it and MPI_Reduce would not
#include <mpi.h>

enum { N = 2 };

// Inclusive: rank r adds its own values to the prefix from r-1 into sum.
int chain(const int mine[N], MPI_Comm comm) {
  int me, p, got[N], sum[N];
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  if (me > 0) MPI_Recv(got, N, MPI_INT, me - 1, 0, comm, MPI_STATUS_IGNORE);
  for (int i = 0; i < N; i++) sum[i] = (me > 0 ? got[i] : 0) + mine[i];
  if (me + 1 < p) MPI_Send(sum, N, MPI_INT, me + 1, 0, comm);
  return sum[0] + sum[1];
}

// In place: sum starts as the rank's own value.
int chain_in_place(int value) {
  int me, p, sum = value, got;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  if (me > 0) {
    MPI_Recv(&got, 1, MPI_INT, me - 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    sum += got;
  }
  if (me + 1 < p) MPI_Send(&sum, 1, MPI_INT, me + 1, 1, MPI_COMM_WORLD);
  return sum;
}

// Exclusive: own values go up first, then the partial sums; rank 0 keeps
// the sum it had, which the caller reads.
int exclusive_chain(int mine, int sum) {
  int me, p, below, pass;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  if (me + 1 < p) MPI_Send(&mine, 1, MPI_INT, me + 1, 2, MPI_COMM_WORLD);
  if (me > 0) MPI_Recv(&below, 1, MPI_INT, me - 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  if (me > 1) MPI_Recv(&sum, 1, MPI_INT, me - 1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  if (me > 0) {
    sum = (me > 1 ? sum : 0) + below;
    pass = sum;
    if (me + 1 < p) MPI_Send(&pass, 1, MPI_INT, me + 1, 3, MPI_COMM_WORLD);
  }
  return sum;
}

// Exclusive with arrays: rank 0's sum keeps its value; below, which
// nothing reads afterwards, takes MPI_Exscan's undefined result there.
int exclusive_arrays(int base) {
  int me, p, below[N], pass[N], sum[N] = {0, 0}, mine[N] = {base, base + 1};
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  if (me + 1 < p) MPI_Send(mine, N, MPI_INT, me + 1, 4, MPI_COMM_WORLD);
  if (me > 0) MPI_Recv(below, N, MPI_INT, me - 1, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  if (me > 1) MPI_Recv(pass, N, MPI_INT, me - 1, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  if (me > 0) {
    for (int i = 0; i < N; i++) pass[i] = (me > 1 ? pass[i] : 0) + below[i];
    for (int i = 0; i < N; i++) sum[i] = pass[i];
    if (me + 1 < p) MPI_Send(pass, N, MPI_INT, me + 1, 5, MPI_COMM_WORLD);
  }
  return sum[0] - sum[1];
}
