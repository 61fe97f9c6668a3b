! A broadcast and a reduction built by hand through mpif.h: rank 1 sends
! its buffer to every other rank in turn (three times, new data each
! time), then a binomial tree sums one value per rank into rank 0 (twice).
! Traced through the tracer's Fortran entry points (preloaded by
! `collectivize run`), both are detected with the exact lines of their
! calls, continuation lines included.
! REQUIRES: mpifort
! RUN: rm -rf %t && mkdir -p %t && %mpifort -g %s -o %t/prog
! RUN: %collectivize run -np 4 --trace-dir %t/trace -- %t/prog | FileCheck --check-prefix=OUT %s
! RUN: %collectivize detect %t/trace -o %t/report.json | FileCheck %s
! OUT: mpif_bcast_reduce: done 263.0 13.0
program mpif_bcast_reduce
  implicit none
  include 'mpif.h'
  integer, parameter :: root = 1
  integer :: me, p, ierr, iter, i, q, mask
  double precision :: data(64), total, partial(1), incoming(1)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, p, ierr)
  do iter = 0, 2
    if (me == root) then
      data = [(iter * 100.0d0 + i, i = 0, 63)]
      do q = 0, p - 1
        if (q /= root) call MPI_Send(data, 64, MPI_DOUBLE_PRECISION, q, 7, &
                                     MPI_COMM_WORLD, ierr)
      end do
    else
      call MPI_Recv(data, 64, MPI_DOUBLE_PRECISION, root, 7, MPI_COMM_WORLD, &
                    MPI_STATUS_IGNORE, ierr)
    end if
  end do

  do iter = 0, 1
    partial = 1.5d0 * me + iter
    mask = 1
    do while (mask < p)
      if (iand(me, mask) /= 0) then
        call MPI_Send(partial, 1, MPI_DOUBLE_PRECISION, me - mask, 6, MPI_COMM_WORLD, ierr)
        exit
      end if
      if (me + mask < p) then
        call MPI_Recv(incoming, 1, MPI_DOUBLE_PRECISION, me + mask, 6, &
                      MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
        partial = partial + incoming
      end if
      mask = mask * 2
    end do
    total = partial(1)
  end do
  if (me == 0) print '(a,f0.1,1x,f0.1)', 'mpif_bcast_reduce: done ', data(64), total
  call MPI_Finalize(ierr)
end program

! The detector names each call site by its Fortran file and line.
! CHECK: 2 manual collectives confirmed, 0 ambiguous, 0 partial
! CHECK: bcast on MPI_COMM_WORLD
! CHECK-NEXT: ranks [0, 1, 2, 3], root 1 (world 1)
! CHECK-NEXT: 3 instances, 9 messages, 4608 bytes moved
! CHECK-NEXT: sites: recv {{.*}}mpif-bcast-reduce.f90:31; send {{.*}}mpif-bcast-reduce.f90:27;
! CHECK: reduce on MPI_COMM_WORLD
! CHECK-NEXT: ranks [0, 1, 2, 3], root 0 (world 0)
! CHECK-NEXT: 2 instances, 6 messages, 48 bytes moved
! CHECK-NEXT: sites: recv {{.*}}mpif-bcast-reduce.f90:45; send {{.*}}mpif-bcast-reduce.f90:40;

! RUN: %collectivize rewrite %t/report.json -o %t/patches 2>&1 | FileCheck --check-prefix=SUGGEST %s
! RUN: FileCheck --check-prefix=RATIONALE %s < %t/patches/02-reduce.md
! RUN: cp %s %t/patched.f90 && patch -s %t/patched.f90 < %t/patches/01-bcast.diff
! RUN: %mpifort -g %t/patched.f90 -o %t/patched && %collectivize run -np 4 --trace-dir %t/trace-patched -- %t/patched | FileCheck --check-prefix=OUT %s
! RUN: %collectivize detect %t/trace-patched | FileCheck --check-prefix=RETRACE %s
! The bcast's block (the root fills the array, then its loop of sends;
! continued calls) becomes one call after the root's own statements; the
! patched program prints the same, and its trace shows the reduce only.
! The reduce gets a suggestion: arguments from the calls' text, none from
! the trace (the tree's peer `me - mask` names no root: a placeholder).
! SUGGEST: 01-bcast: proposed {{.*}}mpif-bcast-reduce.f90:23-32 -> MPI_Bcast(data, 64, MPI_DOUBLE_PRECISION, root, MPI_COMM_WORLD, ierr)
! SUGGEST: 02-reduce: none
! SUGGEST-NEXT: `call MPI_Reduce(partial, <result>, 1, MPI_DOUBLE_PRECISION, <op>, <root>, MPI_COMM_WORLD, ierr)`
! SUGGEST: 1 proposed, 0 to review, 1 without a patch
! RATIONALE: ## Suggested replacement (not a patch)
! RATIONALE: call MPI_Reduce(partial, <result>, 1, MPI_DOUBLE_PRECISION, <op>, <root>, MPI_COMM_WORLD, ierr)
! RATIONALE: In place of:
! RATIONALE: - {{.*}}mpif-bcast-reduce.f90 line 40:
! RATIONALE: call MPI_Send(partial, 1, MPI_DOUBLE_PRECISION, me - mask, 6, MPI_COMM_WORLD, ierr)
! RATIONALE: - {{.*}}mpif-bcast-reduce.f90 lines 44-45:
! RATIONALE: call MPI_Recv(incoming, 1, MPI_DOUBLE_PRECISION, me + mask, 6, &
! RATIONALE-NEXT: MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
! RETRACE: 1 manual collective confirmed, 0 ambiguous, 0 partial
! RETRACE: reduce on MPI_COMM_WORLD
