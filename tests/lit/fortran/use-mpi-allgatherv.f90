! An allgatherv built by hand through `use mpi`: rank q owns mod(q, 3) + 2
! values; every rank ends with every rank's block, one after the other in
! rank order at the offsets the counts give, passed around a ring
! (MPI_Sendrecv: in step s a rank forwards the block it received in step
! s - 1, first its own). Twice, with new data. The suggestion is
! MPI_Allgatherv in place, its counts and displacements placeholders
! naming the arrays the program must supply, never the counts the trace
! saw (2, 3, 4, 2).
! REQUIRES: mpifort
! RUN: rm -rf %t && mkdir -p %t && %mpifort -g %s -o %t/prog
! RUN: %collectivize run -np 4 --trace-dir %t/trace -- %t/prog | FileCheck --check-prefix=OUT %s
! RUN: %collectivize detect %t/trace -o %t/report.json | FileCheck %s
! RUN: %collectivize rewrite %t/report.json -o %t/patches 2>&1 | FileCheck --check-prefix=SUGGEST %s
! RUN: FileCheck --check-prefix=NOTES %s < %t/patches/01-allgatherv.md
! RUN: FileCheck --check-prefix=JSON %s < %t/patches/patches.json
! OUT: use_mpi_allgatherv: done 1302
module ring_by_hand
  use mpi
  implicit none
contains
  subroutine allgatherv_by_hand(all, counts, offs, me, p)
    integer, intent(in) :: me, p, counts(p), offs(p)
    integer, intent(inout) :: all(*)
    integer :: s, out, in, right, left, ierr
    right = mod(me + 1, p)
    left = mod(me + p - 1, p)
    do s = 0, p - 2
      out = mod(me - s + p, p)
      in = mod(me - s - 1 + p, p)
      call MPI_Sendrecv(all(offs(out + 1) + 1), counts(out + 1), MPI_INTEGER, right, 7, &
                        all(offs(in + 1) + 1), counts(in + 1), MPI_INTEGER, left, 7, &
                        MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
    end do
  end subroutine allgatherv_by_hand
end module ring_by_hand

program use_mpi_allgatherv
  use ring_by_hand
  implicit none
  integer :: me, p, ierr, iter, i, j
  integer, allocatable :: counts(:), offs(:), all(:)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, p, ierr)
  allocate(counts(p), offs(p))
  counts = [(mod(j, 3) + 2, j = 0, p - 1)]
  offs(1) = 0
  do j = 2, p
    offs(j) = offs(j - 1) + counts(j - 1)
  end do
  allocate(all(sum(counts)))
  do iter = 0, 1
    all(offs(me + 1) + 1:offs(me + 1) + counts(me + 1)) = [(iter * 1000 + me * 100 + i, i = 1, counts(me + 1))]
    call allgatherv_by_hand(all, counts, offs, me, p)
  end do
  if (me == 0) print '(a,i0)', 'use_mpi_allgatherv: done ', all(sum(counts))
  call MPI_Finalize(ierr)
end program use_mpi_allgatherv

! CHECK: 1 manual collective confirmed, 0 ambiguous, 0 partial
! CHECK: allgatherv on MPI_COMM_WORLD
! CHECK-NEXT: ranks [0, 1, 2, 3]
! CHECK: equivalent: MPI_Allgatherv(sendbuf, sendcount, MPI_INTEGER, recvbuf, recvcounts, displs, MPI_INTEGER, comm)
! CHECK-NEXT: counts: [2, 3, 4, 2]

! SUGGEST: 01-allgatherv: none
! SUGGEST-NEXT: no patch: a Fortran source: no patch ({{.*}}); the rationale suggests `call MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, <recvcounts>, <displs>, MPI_INTEGER, MPI_COMM_WORLD, ierr)` {{.*}}; the program must supply `<recvcounts>` and `<displs>` on every rank (per rank, the count of its block and where it starts in `all`: the rationale says what each holds)
! SUGGEST: 0 proposed, 0 to review, 1 without a patch

! NOTES: ## Suggested replacement (not a patch)
! NOTES: call MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, <recvcounts>, <displs>, MPI_INTEGER, MPI_COMM_WORLD, ierr)
! NOTES: - `<recvcounts>`: an integer array the program must supply on every rank, {{.*}} The hand-made receive from rank `left` moves `counts(in + 1)` elements (line 30); no value the trace saw is used
! NOTES-NEXT: - `<displs>`: {{.*}} element q + 1 is where rank q's block starts in `all`, {{.*}} The hand-made receive from rank `left` writes `all(offs(in + 1) + 1)` (line 30)
! NOTES-NEXT: - in place: each rank's own block must already sit at its displacement in `all`

! JSON: "call": "call MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, <recvcounts>, <displs>, MPI_INTEGER, MPI_COMM_WORLD, ierr)",
