! A gatherv, a scatterv and an alltoallv built by hand through `use mpi`:
! rank q owns q + 2 values; root 1 receives every rank's block into one
! array, block after block in rank order; root 2 sends rank q its block of
! one array; every rank sends rank j a block of mod(me + j, 3) + 1 values
! and receives into one array in rank order (MPI_Irecv / MPI_Isend, one
! MPI_Waitall). Twice each, with new data. Each gets a suggestion whose
! counts and displacements are placeholders naming the arrays the program
! must supply, never the counts the trace saw.
! REQUIRES: mpifort
! RUN: rm -rf %t && mkdir -p %t && %mpifort -g %s -o %t/prog
! RUN: %collectivize run -np 4 --trace-dir %t/trace -- %t/prog | FileCheck --check-prefix=OUT %s
! RUN: %collectivize detect %t/trace -o %t/report.json | FileCheck %s
! RUN: %collectivize rewrite %t/report.json -o %t/patches 2>&1 | FileCheck --check-prefix=SUGGEST %s
! RUN: FileCheck --check-prefix=GATHERV %s < %t/patches/02-gatherv.md
! RUN: FileCheck --check-prefix=ALLTOALLV %s < %t/patches/01-alltoallv.md
! RUN: FileCheck --check-prefix=JSON %s < %t/patches/patches.json
! OUT: use_mpi_vforms: done 10005 103003 140105
module by_hand
  use mpi
  implicit none
contains
  subroutine gatherv_by_hand(mine, n, all, counts, offs, me, p, root)
    integer, intent(in) :: n, me, p, root, counts(p), offs(p)
    integer, intent(in) :: mine(n)
    integer, intent(inout) :: all(*)
    integer :: q, ierr
    if (me == root) then
      do q = 0, p - 1
        if (q /= root) call MPI_Recv(all(offs(q + 1) + 1), counts(q + 1), MPI_INTEGER, q, 11, &
                                     MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
      end do
      all(offs(root + 1) + 1:offs(root + 1) + n) = mine
    else
      call MPI_Send(mine, n, MPI_INTEGER, root, 11, MPI_COMM_WORLD, ierr)
    end if
  end subroutine gatherv_by_hand

  subroutine scatterv_by_hand(src, counts, offs, got, n, me, p, root)
    integer, intent(in) :: n, me, p, root, counts(p), offs(p)
    integer, intent(in) :: src(*)
    integer, intent(out) :: got(n)
    integer :: q, ierr
    if (me == root) then
      do q = 0, p - 1
        if (q /= root) call MPI_Send(src(offs(q + 1) + 1), counts(q + 1), MPI_INTEGER, q, 12, &
                                     MPI_COMM_WORLD, ierr)
      end do
      got = src(offs(root + 1) + 1:offs(root + 1) + n)
    else
      call MPI_Recv(got, n, MPI_INTEGER, root, 12, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
    end if
  end subroutine scatterv_by_hand

  subroutine alltoallv_by_hand(out, sc, sd, in, rc, rd, me, p)
    integer, intent(in) :: me, p, sc(p), sd(p), rc(p), rd(p)
    integer, intent(in) :: out(*)
    integer, intent(inout) :: in(*)
    integer :: j, k, ierr
    integer :: reqs(2 * p)
    k = 0
    do j = 0, p - 1
      if (j == me) cycle
      k = k + 1
      call MPI_Irecv(in(rd(j + 1) + 1), rc(j + 1), MPI_INTEGER, j, 13, MPI_COMM_WORLD, reqs(k), ierr)
      k = k + 1
      call MPI_Isend(out(sd(j + 1) + 1), sc(j + 1), MPI_INTEGER, j, 13, MPI_COMM_WORLD, reqs(k), ierr)
    end do
    in(rd(me + 1) + 1:rd(me + 1) + rc(me + 1)) = out(sd(me + 1) + 1:sd(me + 1) + sc(me + 1))
    call MPI_Waitall(k, reqs, MPI_STATUSES_IGNORE, ierr)
  end subroutine alltoallv_by_hand
end module by_hand

program use_mpi_vforms
  use by_hand
  implicit none
  integer :: me, p, ierr, iter, i, j, n
  integer, allocatable :: counts(:), offs(:), sc(:), sd(:), rc(:), rd(:), mine(:), all(:), got(:), out(:), in(:)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, p, ierr)
  allocate(counts(p), offs(p), sc(p), sd(p), rc(p), rd(p))
  counts = [(j + 2, j = 0, p - 1)]
  offs(1) = 0
  do j = 2, p
    offs(j) = offs(j - 1) + counts(j - 1)
  end do
  do j = 0, p - 1
    sc(j + 1) = mod(me + j, 3) + 1
    rc(j + 1) = mod(j + me, 3) + 1
  end do
  sd(1) = 0
  rd(1) = 0
  do j = 2, p
    sd(j) = sd(j - 1) + sc(j - 1)
    rd(j) = rd(j - 1) + rc(j - 1)
  end do
  n = me + 2
  allocate(mine(n), got(n), all(sum(counts)), out(sum(sc)), in(sum(rc)))
  do iter = 0, 1
    mine = [(iter * 1000 + me * 100 + i, i = 1, n)]
    call gatherv_by_hand(mine, n, all, counts, offs, me, p, 1)
    all = [(iter * 10000 + i, i = 1, sum(counts))]
    call scatterv_by_hand(all, counts, offs, got, n, me, p, 2)
    out = [(iter * 100000 + me * 1000 + i, i = 1, sum(sc))]
    call alltoallv_by_hand(out, sc, sd, in, rc, rd, me, p)
  end do
  if (me == 1) print '(a,i0,1x,i0,1x,i0)', 'use_mpi_vforms: done ', got(n), in(sum(rc)), sum(all)
  call MPI_Finalize(ierr)
end program use_mpi_vforms

! CHECK: 3 manual collectives confirmed, 0 ambiguous, 0 partial
! CHECK: alltoallv on MPI_COMM_WORLD
! CHECK: sites: recv {{.*}}use-mpi-vforms.f90:64; send {{.*}}use-mpi-vforms.f90:66;
! CHECK: gatherv on MPI_COMM_WORLD
! CHECK-NEXT: ranks [0, 1, 2, 3], root 1 (world 1)
! CHECK: counts: [2, 3, 4, 5]
! CHECK: scatterv on MPI_COMM_WORLD
! CHECK-NEXT: ranks [0, 1, 2, 3], root 2 (world 2)
! CHECK: counts: [2, 3, 4, 5]

! The calls: buffers, datatypes, root and communicator from the sites'
! text; the count and displacement arrays as placeholders (the trace's
! counts 2, 3, 4, 5 appear nowhere in them).
! SUGGEST: 01-alltoallv: none
! SUGGEST-NEXT: no patch: a Fortran source: no patch (Clang parses C and C++ only; in Fortran only one shape of bcast is patched); the rationale suggests `call MPI_Alltoallv(out, <sendcounts>, <sdispls>, MPI_INTEGER, in, <recvcounts>, <rdispls>, MPI_INTEGER, MPI_COMM_WORLD, ierr)` {{.*}}; the program must supply `<sendcounts>`, `<sdispls>`, `<recvcounts>` and `<rdispls>` on every rank (per peer, the count of the block and where it starts in `out` and `in`: the rationale says what each holds)
! SUGGEST: 02-gatherv: none
! SUGGEST-NEXT: `call MPI_Gatherv(mine, n, MPI_INTEGER, all, <recvcounts>, <displs>, MPI_INTEGER, root, MPI_COMM_WORLD, ierr)`{{.*}}; the program must supply `<recvcounts>` and `<displs>` on the root (per rank, the count of its block and where it starts in `all`{{.*}}
! SUGGEST: 03-scatterv: none
! SUGGEST-NEXT: `call MPI_Scatterv(src, <sendcounts>, <displs>, MPI_INTEGER, got, n, MPI_INTEGER, root, MPI_COMM_WORLD, ierr)`{{.*}}; the program must supply `<sendcounts>` and `<displs>` on the root (per rank, the count of its block and where it starts in `src`{{.*}}
! SUGGEST: 0 proposed, 0 to review, 3 without a patch

! GATHERV: ## Suggested replacement (not a patch)
! GATHERV: call MPI_Gatherv(mine, n, MPI_INTEGER, all, <recvcounts>, <displs>, MPI_INTEGER, root, MPI_COMM_WORLD, ierr)
! GATHERV: - `<recvcounts>`: an integer array the program must supply on the root, one element per rank of the communicator (element 1 for rank 0): element q + 1 is the number of elements rank q sends to this rank, its own block included. The hand-made receive from rank `q` moves `counts(q + 1)` elements (line 29); no value the trace saw is used
! GATHERV-NEXT: - `<displs>`: {{.*}} element q + 1 is where rank q's block starts in `all`, counted in elements of MPI_INTEGER from its first element (0 for the first block). The hand-made receive from rank `q` writes `all(offs(q + 1) + 1)` (line 29)
! GATHERV-NEXT: - MPI_Gatherv also stores the root's own block, at its displacement in `all`: drop the root's copy of it

! ALLTOALLV: - `<sendcounts>`: an integer array the program must supply on every rank{{.*}}The hand-made send to rank `j` moves `sc(j + 1)` elements (line 66)
! ALLTOALLV-NEXT: - `<sdispls>`: {{.*}}The hand-made send to rank `j` reads `out(sd(j + 1) + 1)` (line 66)
! ALLTOALLV-NEXT: - `<recvcounts>`: {{.*}}The hand-made receive from rank `j` moves `rc(j + 1)` elements (line 64)
! ALLTOALLV-NEXT: - `<rdispls>`: {{.*}}The hand-made receive from rank `j` writes `in(rd(j + 1) + 1)` (line 64)
! ALLTOALLV-NEXT: - MPI_Alltoallv also moves each rank's block to itself: drop the rank's own copy of it

! JSON: "call": "call MPI_Alltoallv(out, <sendcounts>, <sdispls>, MPI_INTEGER, in, <recvcounts>, <rdispls>, MPI_INTEGER, MPI_COMM_WORLD, ierr)",
! JSON: "call": "call MPI_Gatherv(mine, n, MPI_INTEGER, all, <recvcounts>, <displs>, MPI_INTEGER, root, MPI_COMM_WORLD, ierr)",
! JSON: "call": "call MPI_Scatterv(src, <sendcounts>, <displs>, MPI_INTEGER, got, n, MPI_INTEGER, root, MPI_COMM_WORLD, ierr)",
