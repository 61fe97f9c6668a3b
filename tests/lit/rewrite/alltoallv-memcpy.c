// A direct alltoallv whose rank copies its own block with memcpy inside
// the exchange (between the receives and the sends): the copy moves
// exactly what MPI_Alltoallv moves to the rank itself, so the copy is
// dropped (the call is still one to review: the count arrays are
// parameters, so nothing shows each receive's count equals what its peer
// sends); a memcpy of another count is not that copy: it is kept after
// the call, and the review says so too.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: %collectivize instrument -q --root %t -o %t/inst %t/prog.c -- %mock-mpi
// RUN: %cz-make-report %t/inst/collectivize-sites.json 'alltoallv lines=20-30 datatype=MPI_FLOAT' 'alltoallv lines=35-45 datatype=MPI_FLOAT' > %t/report.json
// RUN: %collectivize rewrite -q %t/report.json -o %t/p -- %mock-mpi | FileCheck %s
// CHECK: 01-alltoallv: review prog.c:{{.*}} -> MPI_Alltoallv(out, sc, sd, MPI_FLOAT, in, rc, rd, MPI_FLOAT, comm);
// CHECK-NEXT: review: the receive counts are not shown to equal what each sender sends (`rc` is a parameter: its elements may be set where the function does not show): MPI_Alltoallv needs them equal, while a point-to-point receive may be posted for more than arrives, and the trace records only what arrived; check that every rank's count matches its peer's{{ *$}}
// CHECK: 02-alltoallv: review prog.c:{{.*}} -> MPI_Alltoallv(out, sc, sd, MPI_FLOAT, in, rc, rd, MPI_FLOAT, comm);
// CHECK-NEXT: review: {{.*}}; MPI_Alltoallv also copies each rank's own block
#include <mpi.h>
#include <string.h>

void exact(const float *out, const int *sc, const int *sd, float *in, const int *rc, const int *rd,
           MPI_Comm comm) {
  int me, p;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  MPI_Request req[64];
  int n = 0;
  for (int q = 0; q < p; q++)
    if (q != me) MPI_Irecv(in + rd[q], rc[q], MPI_FLOAT, q, 3, comm, &req[n++]);
  memcpy(in + rd[me], out + sd[me], sizeof *in * sc[me]);
  for (int q = 0; q < p; q++)
    if (q != me) MPI_Isend(out + sd[q], sc[q], MPI_FLOAT, q, 3, comm, &req[n++]);
  MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
}

void half(const float *out, const int *sc, const int *sd, float *in, const int *rc, const int *rd,
          MPI_Comm comm) {
  int me, p;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  MPI_Request req[64];
  int n = 0;
  for (int q = 0; q < p; q++)
    if (q != me) MPI_Irecv(in + rd[q], rc[q], MPI_FLOAT, q, 3, comm, &req[n++]);
  memcpy(in + rd[me], out + sd[me], sizeof(float) * (sc[me] / 2));
  for (int q = 0; q < p; q++)
    if (q != me) MPI_Isend(out + sd[q], sc[q], MPI_FLOAT, q, 3, comm, &req[n++]);
  MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
}
