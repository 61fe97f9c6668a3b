// Direct alltoallv exchanges the rewriter does not turn into a call, one
// function each, with the reason: arrays the region writes, arrays of
// another type than int, a block index that is not the peer, one buffer
// for both sides, different arrays at different sites, a count and a
// displacement at different indices, two datatypes on one side, and a
// copy of the block of a rank that is not this one.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: %collectivize instrument -q --root %t -o %t/inst %t/prog.c -- %mock-mpi
// RUN: %cz-make-report %t/inst/collectivize-sites.json 'alltoallv lines=35-38' 'alltoallv lines=49-51' 'alltoallv lines=61-63' 'alltoallv lines=73-75' 'alltoallv lines=86-90' 'alltoallv lines=100-102' 'alltoallv lines=112-116' 'alltoallv lines=127-130' > %t/report.json
// RUN: %collectivize rewrite -q %t/report.json -o %t/p -- %mock-mpi | FileCheck %s
// CHECK: 01-alltoallv: none
// CHECK-NEXT: no patch: no arrays of counts and displacements in the source for MPI_Alltoallv: the array `sc` (line {{[0-9]+}}) is written inside the region: its elements at the patch point are not those the sends used; the rationale suggests MPI_Alltoallv(<sendbuf>, <sendcounts>, <sdispls>, MPI_INT, in, rc, rd, MPI_INT, comm), its arrays to supply by hand
// CHECK: 02-alltoallv: none
// CHECK-NEXT: no patch: no arrays of counts and displacements in the source for MPI_Alltoallv: the array `rc` (line {{[0-9]+}}) holds long elements, not int: MPI takes counts and displacements as int arrays;
// CHECK: 03-alltoallv: none
// CHECK-NEXT: no patch: the sends take their block at index `j`, not the rank they exchange it with: MPI_Alltoallv moves block q to or from rank q, which the rewriter proves only for a direct exchange
// CHECK: 04-alltoallv: none
// CHECK-NEXT: no patch: the blocks are sent from and received into the same buffer (buf): MPI_Alltoallv with MPI_IN_PLACE places them by the receive arrays alone; replace it by hand
// CHECK: 05-alltoallv: none
// CHECK-NEXT: no patch: no arrays of counts and displacements in the source for MPI_Alltoallv: the sends name different buffers or arrays (out, sc, sd and out, sc2, sd);
// CHECK: 06-alltoallv: none
// CHECK-NEXT: no patch: no arrays of counts and displacements in the source for MPI_Alltoallv: the receive at line {{[0-9]+}} takes its count at index `q` and its displacement at index `q - 1`: not one rank's count and displacement;
// CHECK: 07-alltoallv: none
// CHECK-NEXT: no patch: the receives name different datatypes (MPI_INT, MPI_FLOAT): MPI_Alltoallv takes one per side
// CHECK: 08-alltoallv: none
// CHECK-NEXT: no patch: the copy at line {{[0-9]+}} moves the block of `k`, which is not this rank's (no MPI_Comm_rank fills it in this function), while MPI_Alltoallv moves the rank's own block
#include <mpi.h>

void written(const int *out, int *sc, const int *sd, int *in, const int *rc, const int *rd, MPI_Comm comm) {
  int me, p, n = 0;
  MPI_Request req[64];
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  for (int q = 0; q < p; q++)
    if (q != me) MPI_Irecv(in + rd[q], rc[q], MPI_INT, q, 1, comm, &req[n++]); // LW
  for (int q = 0; q < p; q++) {
    sc[q] = q + 1;
    if (q != me) MPI_Isend(out + sd[q], sc[q], MPI_INT, q, 1, comm, &req[n++]); // LW
  }
  MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
}

void longs(const int *out, const int *sc, const int *sd, int *in, const long *rc, const int *rd, MPI_Comm comm) {
  int me, p, n = 0;
  MPI_Request req[64];
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  for (int q = 0; q < p; q++)
    if (q != me) MPI_Irecv(in + rd[q], rc[q], MPI_INT, q, 1, comm, &req[n++]); // LL
  for (int q = 0; q < p; q++)
    if (q != me) MPI_Isend(out + sd[q], sc[q], MPI_INT, q, 1, comm, &req[n++]); // LL
  MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
}

void rotated(const int *out, const int *sc, const int *sd, int *in, const int *rc, const int *rd, MPI_Comm comm) {
  int me, p, n = 0;
  MPI_Request req[64];
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  for (int q = 0; q < p; q++)
    if (q != me) MPI_Irecv(in + rd[q], rc[q], MPI_INT, q, 1, comm, &req[n++]); // LR
  for (int j = 1; j < p; j++)
    MPI_Isend(out + sd[j], sc[j], MPI_INT, (me + j) % p, 1, comm, &req[n++]); // LR
  MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
}

void one_buffer(int *buf, const int *sc, const int *sd, const int *rc, const int *rd, MPI_Comm comm) {
  int me, p, n = 0;
  MPI_Request req[64];
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  for (int q = 0; q < p; q++)
    if (q != me) MPI_Irecv(buf + rd[q], rc[q], MPI_INT, q, 1, comm, &req[n++]); // LB
  for (int q = 0; q < p; q++)
    if (q != me) MPI_Isend(buf + sd[q], sc[q], MPI_INT, q, 1, comm, &req[n++]); // LB
  MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
}

void two_arrays(const int *out, const int *sc, const int *sc2, const int *sd, int *in, const int *rc,
                const int *rd, MPI_Comm comm) {
  int me, p, n = 0;
  MPI_Request req[64];
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  for (int q = 0; q < p; q++)
    if (q != me) MPI_Irecv(in + rd[q], rc[q], MPI_INT, q, 1, comm, &req[n++]); // LD
  for (int q = 0; q < me; q++)
    MPI_Isend(out + sd[q], sc[q], MPI_INT, q, 1, comm, &req[n++]); // LD
  for (int q = me + 1; q < p; q++)
    MPI_Isend(out + sd[q], sc2[q], MPI_INT, q, 1, comm, &req[n++]); // LD
  MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
}

void shifted(const int *out, const int *sc, const int *sd, int *in, const int *rc, const int *rd, MPI_Comm comm) {
  int me, p, n = 0;
  MPI_Request req[64];
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  for (int q = 0; q < p; q++)
    if (q != me) MPI_Irecv(in + rd[q - 1], rc[q], MPI_INT, q, 1, comm, &req[n++]); // LI
  for (int q = 0; q < p; q++)
    if (q != me) MPI_Isend(out + sd[q], sc[q], MPI_INT, q, 1, comm, &req[n++]); // LI
  MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
}

void two_types(const int *out, const int *sc, const int *sd, int *in, const int *rc, const int *rd, MPI_Comm comm) {
  int me, p, n = 0;
  MPI_Request req[64];
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  for (int q = 0; q < me; q++)
    MPI_Irecv(in + rd[q], rc[q], MPI_INT, q, 1, comm, &req[n++]); // LT
  for (int q = me + 1; q < p; q++)
    MPI_Irecv(in + rd[q], rc[q], MPI_FLOAT, q, 1, comm, &req[n++]); // LT
  for (int q = 0; q < p; q++)
    if (q != me) MPI_Isend(out + sd[q], sc[q], MPI_INT, q, 1, comm, &req[n++]); // LT
  MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
}

void other_block(const int *out, const int *sc, const int *sd, int *in, const int *rc, const int *rd, int k,
                 MPI_Comm comm) {
  int me, p, n = 0;
  MPI_Request req[64];
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  for (int q = 0; q < p; q++)
    if (q != me) MPI_Irecv(in + rd[q], rc[q], MPI_INT, q, 1, comm, &req[n++]); // LK
  for (int i = 0; i < rc[k]; i++) in[rd[k] + i] = out[sd[k] + i];
  for (int q = 0; q < p; q++)
    if (q != me) MPI_Isend(out + sd[q], sc[q], MPI_INT, q, 1, comm, &req[n++]); // LK
  MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
}
