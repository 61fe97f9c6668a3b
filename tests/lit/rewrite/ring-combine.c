// A ring that passes each value on and adds it as it arrives (the demo's
// ring.c): the detector sees every value reach every rank (an allgather);
// combined as they arrive from a sum that starts at the value sent first,
// it is MPI_Allreduce with the combine step's MPI_SUM. In the second
// function the sum starts elsewhere (not every value is combined once):
// no patch.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: %collectivize instrument -q --root %t -o %t/inst %t/prog.c -- %mock-mpi
// RUN: %cz-make-report %t/inst/collectivize-sites.json 'allgather count=1 lines=25' 'allgather count=1 lines=38' > %t/report.json
// RUN: %collectivize rewrite -q %t/report.json -o %t/p --apply -- %mock-mpi | FileCheck %s --check-prefix=SUMMARY
// RUN: FileCheck --match-full-lines %s < %t/prog.c
// RUN: FileCheck %s --check-prefix=INDEX < %t/p/patches.json
// SUMMARY: 01-allgather: proposed prog.c:{{.*}} -> MPI_Allreduce(MPI_IN_PLACE, &sum, 1, MPI_INT, MPI_SUM, comm);
// SUMMARY: 02-allgather: none
// SUMMARY-NEXT: no patch: the ring combines what arrives into 'sum', but it does not start from the value the ring sends first ('pass'): not every value is combined once
// INDEX: "collectives": [
// INDEX-NEXT: "MPI_Allreduce"
#include <mpi.h>

int ring_sum(int value, MPI_Comm comm) {
  int rank, size, sum = value, pass = value, got = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  for (int step = 1; step < size; step++) {
    MPI_Sendrecv(&pass, 1, MPI_INT, (rank + 1) % size, 3, &got, 1, MPI_INT, (rank + size - 1) % size, 3, comm,
                 MPI_STATUS_IGNORE);
    sum += got;
    pass = got;
  }
  return sum;
}

int ring_sum_twice(int value, MPI_Comm comm) {
  int rank, size, sum = 0, pass = value, got = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  for (int step = 1; step < size; step++) {
    MPI_Sendrecv(&pass, 1, MPI_INT, (rank + 1) % size, 3, &got, 1, MPI_INT, (rank + size - 1) % size, 3, comm,
                 MPI_STATUS_IGNORE);
    sum += got;
    pass = got;
  }
  return sum;
}
// CHECK:      int ring_sum(int value, MPI_Comm comm) {
// CHECK-NEXT:   int rank, size, sum = value;
// CHECK-NEXT:   MPI_Comm_rank(comm, &rank);
// CHECK-NEXT:   MPI_Comm_size(comm, &size);
// CHECK-NEXT:   MPI_Allreduce(MPI_IN_PLACE, &sum, 1, MPI_INT, MPI_SUM, comm);
// CHECK-NEXT:   return sum;
// CHECK-NEXT: }
