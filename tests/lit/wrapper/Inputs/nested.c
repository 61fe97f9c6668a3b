/* A GCC extension Clang rejects (a nested function): the wrapper warns once
 * and compiles the file unmodified with the real compiler. */
#include <mpi.h>
int outer(int *buf) {
  int inner(int x) { return x + 1; }
  return MPI_Send(buf, inner(0), MPI_INT, 0, 0, MPI_COMM_WORLD);
}
