// The receiving branch goes on after the receive: it reads the count from
// the status the receive filled (the shape of a course's broadcast, PCPC
// exercise 3). The patch would keep that MPI_Get_count after MPI_Bcast,
// which fills no status: it would read an uninitialised MPI_Status. No
// patch, and the reason names the kept read. (status-read-after.c: a read
// outside the pattern, which makes the patch one to review.) A count
// written `sizeof(number) / sizeof(int)` holds at the patch point:
// sizeof does not read `number`.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: %collectivize instrument -q --root %t -o %t/inst %t/prog.c -- %mock-mpi
// RUN: %cz-make-report %t/inst/collectivize-sites.json 'bcast root=0 count=1' > %t/report.json
// RUN: %collectivize rewrite -q %t/report.json -o %t/p -- %mock-mpi | FileCheck %s
// CHECK: 01-bcast: none
// CHECK-NEXT: no patch: the MPI_Status 'status' that MPI_Recv at line [[@LINE+14]] fills is read by work the patch keeps (`int rc = MPI_Get_count(&status, MPI_INT, &count);`); the collective call fills no status
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  int rank, np, number = 42, count = 0;
  MPI_Status status;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  if (rank == 0) {
    for (int i = 1; i < np; i++)
      MPI_Send(&number, sizeof(number) / sizeof(int), MPI_INT, i, i, MPI_COMM_WORLD);
  } else {
    MPI_Recv(&number, sizeof(number) / sizeof(int), MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
    int rc = MPI_Get_count(&status, MPI_INT, &count);
    printf("rank %d got %d int (%d)\n", rank, count, rc);
  }
  MPI_Finalize();
  return 0;
}
