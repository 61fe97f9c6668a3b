/* halo_faces_directions.c (not a collective): the face exchange of a
 * multi-partition solver (NPB SP's and BT's copy_faces): every rank posts
 * a receive per face, then sends its six faces, one call per direction
 * (successor and predecessor in x, y and z), and waits for all. On 4
 * ranks the successor and the predecessor in a direction are the same
 * rank, and the three directions reach the three other ranks: each rank
 * sends every other rank two faces, from two call sites, in one exchange.
 * Read one call site at a time, the successors' faces alone reach every
 * rank once, which is MPI_Alltoall's shape, and so do the predecessors'.
 * The partners come from the decomposition, not from a loop over ranks. */
#include <mpi.h>
#include <stdio.h>

enum { FACE = 5, STEPS = 3 };

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  if (p != 4) {
    if (me == 0) fprintf(stderr, "halo_faces_directions: run on 4 ranks\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  /* The cells' neighbours on 4 ranks: x, y and z reach the other ranks. */
  int successor[3] = {me ^ 1, me ^ 2, me ^ 3}, predecessor[3] = {me ^ 1, me ^ 2, me ^ 3};
  double faces[6][FACE], ghosts[6][FACE], total = 0;
  for (int step = 0; step < STEPS; step++) {
    for (int f = 0; f < 6; f++)
      for (int i = 0; i < FACE; i++) faces[f][i] = 100.0 * me + 10 * f + i + 0.5 * step;
    MPI_Request requests[12];
    for (int d = 0; d < 3; d++) {
      MPI_Irecv(ghosts[2 * d], FACE, MPI_DOUBLE, predecessor[d], 2 * d, MPI_COMM_WORLD,
                &requests[2 * d]);
      MPI_Irecv(ghosts[2 * d + 1], FACE, MPI_DOUBLE, successor[d], 2 * d + 1, MPI_COMM_WORLD,
                &requests[2 * d + 1]);
    }
    MPI_Isend(faces[0], FACE, MPI_DOUBLE, successor[0], 0, MPI_COMM_WORLD, &requests[6]);
    MPI_Isend(faces[1], FACE, MPI_DOUBLE, predecessor[0], 1, MPI_COMM_WORLD, &requests[7]);
    MPI_Isend(faces[2], FACE, MPI_DOUBLE, successor[1], 2, MPI_COMM_WORLD, &requests[8]);
    MPI_Isend(faces[3], FACE, MPI_DOUBLE, predecessor[1], 3, MPI_COMM_WORLD, &requests[9]);
    MPI_Isend(faces[4], FACE, MPI_DOUBLE, successor[2], 4, MPI_COMM_WORLD, &requests[10]);
    MPI_Isend(faces[5], FACE, MPI_DOUBLE, predecessor[2], 5, MPI_COMM_WORLD, &requests[11]);
    MPI_Waitall(12, requests, MPI_STATUSES_IGNORE);
    for (int f = 0; f < 6; f++) total += ghosts[f][0] * (f + 1);
  }
  double all = 0;
  MPI_Reduce(&total, &all, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (me == 0) printf("halo_faces_directions: %.1f\n", all);
  MPI_Finalize();
  return 0;
}
