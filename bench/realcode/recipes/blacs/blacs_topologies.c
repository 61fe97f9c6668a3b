/* blacs_topologies.c: the suite's driver for the BLACS (ScaLAPACK's
 * communication layer), written here; the BLACS sources come from the
 * fetched ScaLAPACK tree. The BLACS make their broadcasts and combines
 * (sums) out of point-to-point messages along a chosen topology: a ring
 * ('i' increasing, 'd' decreasing), a split ring ('s'), a multi-ring
 * ('m'), a hypercube ('h'), a tree ('t', '1'-'9' branches) or everyone
 * from the root ('f'). With ' ' they call MPI's own.
 *
 * usage: blacs_topologies BCAST_TOP SUM_TOP NPROW
 * On an NPROW x (P/NPROW) grid, over scope "All": ROUNDS broadcasts of N
 * doubles along BCAST_TOP, from the grid's process (0, r mod npcol) in round
 * r; then ROUNDS sums of N doubles along SUM_TOP that leave the result on
 * every process (rdest = -1: an allreduce), and ROUNDS that leave it on
 * process (0, 0) (a reduce). Each process's values differ, so a forward
 * and a sum do not look alike. Prints one checksum line (rank 0). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

/* The BLACS' Fortran interface (-DAdd_: trailing underscore); character
 * arguments by address, their hidden lengths never read. */
void blacs_pinfo_(int *mypnum, int *nprocs);
void blacs_get_(int *ctxt, int *what, int *val);
void blacs_gridinit_(int *ctxt, char *order, int *nprow, int *npcol);
void blacs_gridinfo_(int *ctxt, int *nprow, int *npcol, int *myrow, int *mycol);
void blacs_gridexit_(int *ctxt);
void blacs_exit_(int *cont);
void dgebs2d_(int *ctxt, char *scope, char *top, int *m, int *n, double *a, int *lda);
void dgebr2d_(int *ctxt, char *scope, char *top, int *m, int *n, double *a, int *lda, int *rsrc,
              int *csrc);
void dgsum2d_(int *ctxt, char *scope, char *top, int *m, int *n, double *a, int *lda, int *rdest,
              int *cdest);

enum { N = 48, ROUNDS = 3 };

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: %s BCAST_TOP SUM_TOP NPROW\n", argv[0]);
    return 2;
  }
  char btop = argv[1][0], stop = argv[2][0];
  int me, p, ctxt, zero = 0, nprow = atoi(argv[3]), npcol, myrow, mycol;
  blacs_pinfo_(&me, &p);
  if (nprow < 1 || p % nprow) {
    if (me == 0) fprintf(stderr, "blacs_topologies: NPROW must divide %d\n", p);
    return 2;
  }
  npcol = p / nprow;
  blacs_get_(&zero, &zero, &ctxt);
  blacs_gridinit_(&ctxt, "Row", &nprow, &npcol);
  blacs_gridinfo_(&ctxt, &nprow, &npcol, &myrow, &mycol);
  double a[N], check = 0;
  int m = N, n = 1, lda = N, all = -1, origin = 0;
  for (int r = 0; r < ROUNDS; r++) {
    int rsrc = 0, csrc = r % npcol;
    if (myrow == rsrc && mycol == csrc) {
      for (int i = 0; i < N; i++) a[i] = 1000.0 * r + 10.0 * me + i + 0.5;
      dgebs2d_(&ctxt, "All", &btop, &m, &n, a, &lda);
    } else {
      dgebr2d_(&ctxt, "All", &btop, &m, &n, a, &lda, &rsrc, &csrc);
    }
    for (int i = 0; i < N; i++) check += a[i] * (i % 5 + 1);
  }
  for (int r = 0; r < ROUNDS; r++) {
    for (int i = 0; i < N; i++) a[i] = 100.0 * r + 3.0 * me + 0.25 * i;
    dgsum2d_(&ctxt, "All", &stop, &m, &n, a, &lda, &all, &all);
    for (int i = 0; i < N; i++) check += a[i] * (i % 3 + 1);
  }
  for (int r = 0; r < ROUNDS; r++) {
    for (int i = 0; i < N; i++) a[i] = 7.0 * r + 2.0 * me + 0.125 * i;
    dgsum2d_(&ctxt, "All", &stop, &m, &n, a, &lda, &origin, &origin);
    if (me == 0)
      for (int i = 0; i < N; i++) check += a[i];
  }
  double total = 0;
  MPI_Reduce(&check, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (me == 0) printf("blacs_topologies %c %c: %.3f\n", btop, stop, total);
  blacs_gridexit_(&ctxt);
  blacs_exit_(&zero);
  return 0;
}
