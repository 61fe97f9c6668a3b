! Two broadcasts built by hand. The first is the shape the rewriter patches:
! rank `root` sends to every other rank in a loop that skips itself, the
! others receive, in one if/else block and nothing else (three times, new
! data each time). The second has the same shape but the status of its
! receive is read after the block, so it is refused a patch.
program bcast_patch
  use mpi
  implicit none
  integer, parameter :: root = 1
  integer :: me, p, ierr, iter, i, q, src
  integer :: from(MPI_STATUS_SIZE)
  double precision :: data(64)
  integer :: flags(8)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, p, ierr)
  do iter = 0, 2
    data = [(iter * 100.0d0 + me * 1000.0d0 + i, i = 0, 63)]
    if (me == root) then
      do q = 0, p - 1
        if (q /= root) call MPI_Send(data, 64, MPI_DOUBLE_PRECISION, q, 7, MPI_COMM_WORLD, ierr)
      end do
    else
      call MPI_Recv(data, 64, MPI_DOUBLE_PRECISION, root, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
    end if
    print '(a,i0,a,i0,a,f0.1)', 'rank ', me, ' iter ', iter, ': ', sum(data)
  end do

  flags = [(me * 10 + i, i = 1, 8)]
  src = 0
  if (me /= 0) then
    call MPI_Recv(flags, 8, MPI_INTEGER, 0, 9, MPI_COMM_WORLD, from, ierr)
  else
    do i = 1, p - 1
      call MPI_Send(flags, 8, MPI_INTEGER, i, 9, MPI_COMM_WORLD, ierr)
    end do
  end if
  if (me /= 0) src = from(MPI_SOURCE)
  print '(a,i0,a,i0,1x,i0)', 'rank ', me, ' flags: ', sum(flags), src
  call MPI_Finalize(ierr)
end program bcast_patch
