// Compile and link in one command with collectivize-c++.
#include <mpi.h>
#include <cstdio>
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, v = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) std::printf("ranks %d\n", v);
  MPI_Finalize();
}
