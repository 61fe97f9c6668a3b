! A gather and an allreduce built by hand through `use mpi_f08` (no ierror
! arguments, TYPE(MPI_Status) and TYPE(MPI_Request) handles): every rank
! sends its block to rank 2, which receives block q at position q of its
! array (MPI_Irecv, then MPI_Waitall with statuses); then recursive
! doubling finds the maximum of two integers per rank (MPI_Sendrecv, the
! larger values kept).
! Open MPI and MPICH (whose mpi_f08 procedures without a buffer, e.g.
! mpi_waitall_f08_, call PMPI_*: the tracer defines them, fortran.h).
! REQUIRES: mpifort
! RUN: rm -rf %t && mkdir -p %t && cd %t && %mpifort -g %s -o %t/prog
! RUN: %collectivize run -np 4 --trace-dir %t/trace -- %t/prog | FileCheck --check-prefix=OUT %s
! RUN: %collectivize detect %t/trace -o %t/report.json | FileCheck %s
! OUT: mpi_f08_gather_allreduce: done 315.0 sources 0 1 3 maxima 8 100
program mpi_f08_gather_allreduce
  use mpi_f08
  implicit none
  integer, parameter :: block = 16, root = 2
  integer :: me, p, q, n, i, dist
  double precision :: mine(block)
  double precision, allocatable :: all(:)
  type(MPI_Request), allocatable :: reqs(:)
  type(MPI_Status), allocatable :: stats(:)
  type(MPI_Status) :: st
  integer :: v(2), got(2)

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, me)
  call MPI_Comm_size(MPI_COMM_WORLD, p)
  allocate(all(block * p), reqs(p), stats(p))
  mine = [(me * 100.0d0 + i, i = 0, block - 1)]
  if (me == root) then
    n = 0
    do q = 0, p - 1
      if (q == root) cycle
      n = n + 1
      call MPI_Irecv(all(q * block + 1), block, MPI_DOUBLE_PRECISION, q, 4, MPI_COMM_WORLD, &
                     reqs(n))
    end do
    all(root * block + 1:root * block + block) = mine
    call MPI_Waitall(n, reqs, stats)
  else
    call MPI_Send(mine, block, MPI_DOUBLE_PRECISION, root, 4, MPI_COMM_WORLD)
  end if

  v = [mod(me * 37, 11), 100 - mod(me * 13, 7)]
  dist = 1
  do while (dist < p)
    call MPI_Sendrecv(v, 2, MPI_INTEGER, ieor(me, dist), 3, got, 2, MPI_INTEGER, &
                      ieor(me, dist), 3, MPI_COMM_WORLD, st)
    v = max(v, got)
    dist = dist * 2
  end do
  if (me == root) print '(a,f0.1,a,3(1x,i0),a,2(1x,i0))', 'mpi_f08_gather_allreduce: done ', &
      all(block * p), ' sources', (stats(i)%MPI_SOURCE, i = 1, n), ' maxima', v
  call MPI_Finalize()
end program mpi_f08_gather_allreduce

! The detector names each call site by its Fortran file and line.
! CHECK: gather on MPI_COMM_WORLD
! CHECK-NEXT: ranks [0, 1, 2, 3], root 2 (world 2)
! CHECK-NEXT: 1 instance, 3 messages, 384 bytes moved
! CHECK-NEXT: sites: recv {{.*}}mpi-f08-gather-allreduce.f90:37; send {{.*}}mpi-f08-gather-allreduce.f90:42;
! CHECK: allreduce on MPI_COMM_WORLD
! CHECK-NEXT: ranks [0, 1, 2, 3]
! CHECK-NEXT: 1 instance, 8 messages, 64 bytes moved
! CHECK-NEXT: sites: recv {{.*}}mpi-f08-gather-allreduce.f90:49; send {{.*}}mpi-f08-gather-allreduce.f90:49;

! RUN: %collectivize rewrite %t/report.json -o %t/patches 2>&1 | FileCheck --check-prefix=SUGGEST %s
! mpi_f08: no ierror argument in the calls, none in the suggestion; the
! maximum is proven from the MPI_INTEGER payloads.
! SUGGEST: `call MPI_Gather(mine, block, MPI_DOUBLE_PRECISION, all, block, MPI_DOUBLE_PRECISION, root, MPI_COMM_WORLD)`
! SUGGEST: `call MPI_Allreduce(MPI_IN_PLACE, v, 2, MPI_INTEGER, MPI_MAX, MPI_COMM_WORLD)`
