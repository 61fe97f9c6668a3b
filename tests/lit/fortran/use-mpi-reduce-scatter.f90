! A reduce_scatter built by hand through `use mpi`: every rank holds P
! blocks of b integers and ends with its block of their sum over the ranks,
! by a ring of P - 1 steps (MPI_Sendrecv: the partial sums of block
! (me - s - 1) mod P to the right, a partial block from the left added in).
! Detected as an ambiguous reduce_scatter (the values never pin the
! operation), it gets a suggestion: MPI_Reduce_scatter_block with the
! arrays, count, datatype and communicator from the Sendrecv's arguments,
! the operation left to fill in.
! REQUIRES: mpifort
! RUN: rm -rf %t && mkdir -p %t && %mpifort -g %s -o %t/prog
! RUN: %collectivize run -np 4 --trace-dir %t/trace -- %t/prog | sort | FileCheck --check-prefix=OUT %s
! RUN: %collectivize detect %t/trace -o %t/report.json | FileCheck %s
! RUN: %collectivize rewrite %t/report.json -o %t/patches 2>&1 | FileCheck --check-prefix=SUGGEST %s
! RUN: FileCheck --check-prefix=RATIONALE %s < %t/patches/01-reduce_scatter.md
! OUT: rank 0 block sum 2424
! OUT: rank 3 block sum 2616
! CHECK: reduce_scatter on MPI_COMM_WORLD
! CHECK: sites: recv {{.*}}use-mpi-reduce-scatter.f90:40; send {{.*}}use-mpi-reduce-scatter.f90:40;
! SUGGEST: 01-reduce_scatter: none
! SUGGEST-NEXT: no patch: a Fortran source: no patch ({{.*}}); the rationale suggests `call MPI_Reduce_scatter_block(acc, got, b, MPI_INTEGER, <op>, MPI_COMM_WORLD, ierr)`
! RATIONALE: the operation: no observed value proved one, so it is left to fill in
! RATIONALE: `acc` holds the rank's P blocks of `b` elements (block q for rank q); MPI_Reduce_scatter_block leaves the rank's combined block in `got`
program reduce_scatter_ring
  use mpi
  implicit none
  integer, parameter :: b = 4
  integer :: me, p, ierr, s, i, out, into, right, left
  integer :: acc(b * 16), got(b)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, p, ierr)
  acc = [(me * 100 + i, i = 0, b * 16 - 1)]
  right = mod(me + 1, p)
  left = mod(me + p - 1, p)
  do s = 0, p - 2
    out = mod(me - s - 1 + p, p)
    into = mod(me - s - 2 + 2 * p, p)
    call MPI_Sendrecv(acc(out * b + 1), b, MPI_INTEGER, right, 5, got, b, MPI_INTEGER, left, 5, &
                      MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
    acc(into * b + 1:into * b + b) = acc(into * b + 1:into * b + b) + got
  end do
  print '(a,i0,a,i0)', 'rank ', me, ' block sum ', sum(acc(me * b + 1:me * b + b))
  call MPI_Finalize(ierr)
end program reduce_scatter_ring
