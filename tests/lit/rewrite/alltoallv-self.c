// Direct alltoallvs whose loops run over every rank, the rank itself
// included: in `all_ranks` the loops run from 0 to the size MPI_Comm_size
// gives, under no condition, so every rank sends its own block to itself
// as MPI_Alltoallv moves it (the call is still one to review, for its
// count arrays are parameters: nothing shows each receive's count equals
// what its peer sends). In `to_bound` they run to a parameter, no size
// the function asks MPI for, so the send to itself is not proven either.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: %collectivize instrument -q --root %t -o %t/inst %t/prog.c -- %mock-mpi
// RUN: %cz-make-report %t/inst/collectivize-sites.json 'alltoallv lines=20-30' 'alltoallv lines=32-40' > %t/report.json
// RUN: %collectivize rewrite -q %t/report.json -o %t/p -- %mock-mpi | FileCheck %s
// RUN: FileCheck %s --check-prefix=NOTES < %t/p/01-alltoallv.md
// CHECK: 01-alltoallv: review prog.c:{{.*}} -> MPI_Alltoallv(out, sc, sd, MPI_INT, in, rc, rd, MPI_INT, comm);
// CHECK-NEXT: review: the receive counts are not shown to equal what each sender sends (`rc` is a parameter: its elements may be set where the function does not show): MPI_Alltoallv needs them equal, while a point-to-point receive may be posted for more than arrives, and the trace records only what arrived; check that every rank's count matches its peer's{{ *$}}
// CHECK: 02-alltoallv: review prog.c:{{.*}} -> MPI_Alltoallv(out, sc, sd, MPI_INT, in, rc, rd, MPI_INT, comm);
// CHECK-NEXT: review: {{.*}}; MPI_Alltoallv also copies each rank's own block, out + sd[me], into in + rd[me], which the replaced code does not do (no copy of exactly that block in the region, and no send to itself the rewriter proves)
// NOTES: - each rank's own block: every send and receive runs for every rank of comm, itself included (a loop from 0 to the size on every rank at P = 2, 3, 4, 5 and 7, under no condition), so the replaced code sends that block to itself, as MPI_Alltoallv moves it
#include <mpi.h>

void all_ranks(const int *out, const int *sc, const int *sd, int *in, const int *rc, const int *rd, MPI_Comm comm) {
  int p, n = 0;
  MPI_Request req[64];
  MPI_Comm_size(comm, &p);
  for (int q = 0; q < p; q++)
    MPI_Irecv(in + rd[q], rc[q], MPI_INT, q, 1, comm, &req[n++]);
  for (int q = 0; q < p; q++)
    MPI_Isend(out + sd[q], sc[q], MPI_INT, q, 1, comm, &req[n++]);
  MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
}

void to_bound(const int *out, const int *sc, const int *sd, int *in, const int *rc, const int *rd, int p,
              MPI_Comm comm) {
  int n = 0;
  MPI_Request req[64];
  for (int q = 0; q < p; q++)
    MPI_Irecv(in + rd[q], rc[q], MPI_INT, q, 1, comm, &req[n++]);
  for (int q = 0; q < p; q++)
    MPI_Isend(out + sd[q], sc[q], MPI_INT, q, 1, comm, &req[n++]);
  MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
}
