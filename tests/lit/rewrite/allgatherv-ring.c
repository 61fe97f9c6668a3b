// Ring allgathervs: in step s each rank passes on the block it received
// in step s - 1, each stored at all + displs[in] with counts[in]
// elements. The arrays give MPI_Allgatherv's recvcounts and displs; each
// receive stores the block of rank `in`, not of the rank it receives
// from, so which index names which block is run on paper for every rank
// at P = 2, 3, 4, 5, 7:
// - ring: rank j's block ends at displs[j] on every rank: proposed, in
//   place (the counts the report gives appear nowhere in the patch);
// - ring_off_by_one: the receive index is the sent block's (off by one):
//   rank 0 overwrites its own block, no patch, with the rank and step;
// - ring_lookup: the index comes from an array the rewriter does not
//   evaluate: review, with the reason;
// - ring_extra_work: the loop also reads each block as it arrives: review;
// - ring_conditional: a message under a condition (not every rank in
//   every step): review;
// - blocks kept at displacements that differ from rank to rank (the
//   report's recv_layout): no patch.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: %collectivize instrument -q --root %t -o %t/inst %t/prog.c -- %mock-mpi
// RUN: %cz-make-report %t/inst/collectivize-sites.json 'allgatherv count=2 datatype=MPI_LONG counts=[2,3,4,2] bytes_per_instance=88 lines=40-50' 'allgatherv count=2 datatype=MPI_LONG counts=[2,3,4,2] bytes_per_instance=88 lines=52-62' 'allgatherv count=2 datatype=MPI_LONG counts=[2,3,4,2] bytes_per_instance=88 lines=64-74' 'allgatherv count=2 datatype=MPI_LONG counts=[2,3,4,2] bytes_per_instance=88 lines=76-87' 'allgatherv count=2 datatype=MPI_LONG counts=[2,3,4,2] bytes_per_instance=88 lines=89-100' 'allgatherv count=2 datatype=MPI_LONG recv_layout=permuted lines=40-50' > %t/report.json
// RUN: %collectivize rewrite -q %t/report.json -o %t/p -- %mock-mpi | FileCheck %s
// RUN: FileCheck %s --check-prefix=NOTES < %t/p/01-allgatherv.md
// CHECK:      01-allgatherv: proposed prog.c:{{.*}} -> MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_LONG, all, counts, displs, MPI_LONG, MPI_COMM_WORLD);
// CHECK-NEXT: 02-allgatherv: none
// CHECK-NEXT:   no patch: the ring does not leave rank j's block at displs[j] with counts[j] elements on every rank, where MPI_Allgatherv leaves it: at P = 2 rank 0 ends with slot 0 holding no copy of rank 0's block (first: at P = 2 rank 0 step 0 receives block 1 of rank 1 (rank 1's) into slot 0, another displacement and count)
// CHECK-NEXT: 03-allgatherv: review prog.c:{{.*}} -> MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_LONG, all, counts, displs, MPI_LONG, MPI_COMM_WORLD);
// CHECK-NEXT:   review: each receive stores the block of rank in (not the rank it receives from), and the ring's neighbours (right, left) or block indices (out, in) are not expressions of the rank, the size and the step that the rewriter evaluates: check that counts[q] and displs[q] are rank q's count and displacement
// CHECK-NEXT: 04-allgatherv: review prog.c:{{.*}} -> MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_LONG, all, counts, displs, MPI_LONG, MPI_COMM_WORLD);
// CHECK-NEXT:   review: each receive stores the block of rank in (not the rank it receives from), and the ring's loop also does `seen += all[displs[in]]` (line {{[0-9]+}}), which the proof of the blocks' places does not follow: check that
// CHECK-NEXT: 05-allgatherv: review prog.c:{{.*}} -> MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_LONG, all, counts, displs, MPI_LONG, MPI_COMM_WORLD);
// CHECK-NEXT:   review: each receive stores the block of rank in (not the rank it receives from), and the ring's messages run under `if (counts[out] > 0)` (line {{[0-9]+}}), which the proof (every rank sends and receives once in every step) does not follow: check that
// CHECK-NEXT: 06-allgatherv: none
// CHECK-NEXT:   no patch: the blocks are received at displacements that differ from rank to rank (the report's recv_layout): MPI_Allgatherv keeps one displacement per rank on every rank
// NOTES: - the ring's index arithmetic, run for every rank at P = 2, 3, 4, 5 and 7, leaves rank j's block at displs[j] with counts[j] elements on every rank, each received from the slot of the same index
// NOTES-NOT: review
#include <mpi.h>

long seen;

void ring(long *all, const int *counts, const int *displs) {
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  int right = (me + 1) % p, left = (me + p - 1) % p;
  for (int s = 0; s < p - 1; s++) {
    int out = (me - s + p) % p, in = (me - s - 1 + p) % p;
    MPI_Sendrecv(all + displs[out], counts[out], MPI_LONG, right, 0, all + displs[in], counts[in], MPI_LONG,
                 left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
}

void ring_off_by_one(long *all, const int *counts, const int *displs) {
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  int right = (me + 1) % p, left = (me + p - 1) % p;
  for (int s = 0; s < p - 1; s++) {
    int out = (me - s + p) % p, in = (me - s + p) % p;
    MPI_Sendrecv(all + displs[out], counts[out], MPI_LONG, right, 0, all + displs[in], counts[in], MPI_LONG,
                 left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
}

void ring_lookup(long *all, const int *counts, const int *displs, const int *order) {
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  int right = (me + 1) % p, left = (me + p - 1) % p;
  for (int s = 0; s < p - 1; s++) {
    int out = order[s], in = order[s + 1];
    MPI_Sendrecv(all + displs[out], counts[out], MPI_LONG, right, 0, all + displs[in], counts[in], MPI_LONG,
                 left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
}

void ring_extra_work(long *all, const int *counts, const int *displs) {
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  int right = (me + 1) % p, left = (me + p - 1) % p;
  for (int s = 0; s < p - 1; s++) {
    int out = (me - s + p) % p, in = (me - s - 1 + p) % p;
    MPI_Sendrecv(all + displs[out], counts[out], MPI_LONG, right, 0, all + displs[in], counts[in], MPI_LONG,
                 left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    seen += all[displs[in]];
  }
}

void ring_conditional(long *all, const int *counts, const int *displs) {
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  int right = (me + 1) % p, left = (me + p - 1) % p;
  for (int s = 0; s < p - 1; s++) {
    int out = (me - s + p) % p, in = (me - s - 1 + p) % p;
    if (counts[out] > 0)
      MPI_Sendrecv(all + displs[out], counts[out], MPI_LONG, right, 0, all + displs[in], counts[in], MPI_LONG,
                   left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
}
