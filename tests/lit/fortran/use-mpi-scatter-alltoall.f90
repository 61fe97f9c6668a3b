! A scatter and an alltoall built by hand through `use mpi`, in module
! procedures: rank 0 sends block q of its array to rank q (twice); every
! rank posts a receive and a send per peer (MPI_Irecv / MPI_Isend into
! request arrays, completed by one MPI_Waitall) moving block q of its send
! array to rank q (twice). Built with collectivize-fc, which links the
! tracer: plain mpirun traces it.
! REQUIRES: mpifort, clang-tools
! RUN: rm -rf %t && mkdir -p %t && cd %t && %collectivize-fc -g %s -o %t/prog
! RUN: env COLLECTIVIZE_TRACE_DIR=%t/trace COLLECTIVIZE_QUIET=1 %mpirun -np 4 %t/prog | FileCheck --check-prefix=OUT %s
! RUN: %collectivize detect %t/trace -o %t/report.json | FileCheck %s
! OUT: use_mpi_scatter_alltoall: done 10127 103015
module hand_made
  use mpi
  implicit none
  integer, parameter :: block = 32, piece = 4
contains
  subroutine scatter_by_hand(all, mine, me, p, root)
    integer, intent(in) :: me, p, root
    integer, intent(in) :: all(block * p)
    integer, intent(out) :: mine(block)
    integer :: q, ierr
    if (me == root) then
      do q = 0, p - 1
        if (q /= root) call MPI_Send(all(q * block + 1), block, MPI_INTEGER, q, 1, &
                                     MPI_COMM_WORLD, ierr)
      end do
      mine = all(root * block + 1:root * block + block)
    else
      call MPI_Recv(mine, block, MPI_INTEGER, root, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
    end if
  end subroutine scatter_by_hand

  subroutine alltoall_by_hand(out, in, me, p)
    integer, intent(in) :: me, p
    integer, intent(in) :: out(piece * p)
    integer, intent(out) :: in(piece * p)
    integer :: s, to, from, n, ierr
    integer :: reqs(2 * p)
    in(me * piece + 1:me * piece + piece) = out(me * piece + 1:me * piece + piece)
    n = 0
    do s = 1, p - 1
      to = mod(me + s, p)
      from = mod(me - s + p, p)
      call MPI_Irecv(in(from * piece + 1), piece, MPI_INTEGER, from, 5, MPI_COMM_WORLD, &
                     reqs(n + 1), ierr)
      call MPI_Isend(out(to * piece + 1), piece, MPI_INTEGER, to, 5, MPI_COMM_WORLD, &
                     reqs(n + 2), ierr)
      n = n + 2
    end do
    call MPI_Waitall(n, reqs, MPI_STATUSES_IGNORE, ierr)
  end subroutine alltoall_by_hand
end module hand_made

program use_mpi_scatter_alltoall
  use hand_made
  implicit none
  integer :: me, p, ierr, iter, i
  integer, allocatable :: all(:), out(:), in(:)
  integer :: mine(block)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, p, ierr)
  allocate(all(block * p), out(piece * p), in(piece * p))
  do iter = 0, 1
    all = [(iter * 10000 + i, i = 0, block * p - 1)]
    call scatter_by_hand(all, mine, me, p, 0)
    out = [(iter * 100000 + me * 1000 + i, i = 0, piece * p - 1)]
    call alltoall_by_hand(out, in, me, p)
  end do
  if (me == p - 1) print '(a,i0,1x,i0)', 'use_mpi_scatter_alltoall: done ', mine(block), in(piece * p)
  call MPI_Finalize(ierr)
end program use_mpi_scatter_alltoall

! The detector names each call site by its Fortran file and line.
! CHECK: alltoall on MPI_COMM_WORLD
! CHECK-NEXT: ranks [0, 1, 2, 3]
! CHECK-NEXT: 2 instances, 24 messages, 384 bytes moved
! CHECK-NEXT: sites: recv {{.*}}use-mpi-scatter-alltoall.f90:45; send {{.*}}use-mpi-scatter-alltoall.f90:47;
! CHECK: scatter on MPI_COMM_WORLD
! CHECK-NEXT: ranks [0, 1, 2, 3], root 0 (world 0)
! CHECK-NEXT: 2 instances, 6 messages, 768 bytes moved
! CHECK-NEXT: sites: recv {{.*}}use-mpi-scatter-alltoall.f90:29; send {{.*}}use-mpi-scatter-alltoall.f90:25;

! RUN: %collectivize rewrite %t/report.json -o %t/patches 2>&1 | FileCheck --check-prefix=SUGGEST %s
! RUN: FileCheck --check-prefix=RATIONALE %s < %t/patches/02-scatter.md
! SUGGEST: `call MPI_Alltoall(out, piece, MPI_INTEGER, in, piece, MPI_INTEGER, MPI_COMM_WORLD, ierr)`
! SUGGEST: `call MPI_Scatter(all, block, MPI_INTEGER, mine, block, MPI_INTEGER, root, MPI_COMM_WORLD, ierr)`
! RATIONALE: the trace does not prove root_block
