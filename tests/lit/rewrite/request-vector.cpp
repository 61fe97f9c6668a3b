// The C++ idiom: each nonblocking receive's request is pushed into a
// std::vector, completed by one MPI_Waitall on the vector. The vector, the
// pushes and the wait go with the pattern: one MPI_Gather, no dead wait.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.cpp
// RUN: %collectivize instrument -q --root %t -o %t/inst %t/prog.cpp -- %mock-mpi
// RUN: %cz-make-report %t/inst/collectivize-sites.json 'gather root=0 count=4 bytes_per_instance=64' > %t/report.json
// RUN: %collectivize rewrite -q %t/report.json -o %t/p --apply -- %mock-mpi | FileCheck %s --check-prefix=SUMMARY
// RUN: FileCheck --match-full-lines %s < %t/prog.cpp
// SUMMARY: 01-gather: proposed prog.cpp:{{.*}} -> MPI_Gather((me == 0 ? MPI_IN_PLACE : all + me * n), n, MPI_INT, all, n, MPI_INT, 0, comm);
#include <mpi.h>
#include <vector>

void collect(int *all, int n, MPI_Comm comm) {
  int me, p;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  if (me == 0) {
    std::vector<MPI_Request> reqs;
    for (int q = 1; q < p; q++) {
      MPI_Request r;
      MPI_Irecv(all + q * n, n, MPI_INT, q, 1, comm, &r);
      reqs.push_back(r);
    }
    MPI_Waitall(static_cast<int>(reqs.size()), reqs.data(), MPI_STATUSES_IGNORE);
  } else {
    MPI_Send(all + me * n, n, MPI_INT, 0, 1, comm);
  }
}
// CHECK:        MPI_Comm_size(comm, &p);
// CHECK-NEXT:   MPI_Gather((me == 0 ? MPI_IN_PLACE : all + me * n), n, MPI_INT, all, n, MPI_INT, 0, comm);
// CHECK-NEXT: }
