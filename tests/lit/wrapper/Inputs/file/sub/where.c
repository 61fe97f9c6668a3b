/* Prints __FILE__ as the compiler was given it (and its header's): the
 * instrumented build must print the same as the original. Never calls MPI
 * at run time (argc is 1), so it runs without mpirun. */
#include <mpi.h>
#include <stdio.h>

#include "where.h"

int main(int argc, char **argv) {
  if (argc > 5) MPI_Barrier(MPI_COMM_WORLD);
  printf("%s %s:%d\n", __FILE__, header_file(), __LINE__);
  return 0;
}
