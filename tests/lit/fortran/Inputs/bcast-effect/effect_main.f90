! A hand-made broadcast whose printed output shows one element only: a
! patch that broadcast the upper half of the buffer would print the same,
! and only the effect probe at the block's end sees the other elements.
! Then a broadcast from rank 0 with MPI_Isend and MPI_Waitall.
program bcast_effect
  use mpi
  implicit none
  integer, parameter :: root = 1
  integer :: me, p, ierr, iter, i, q
  integer :: vals(5), reqs(16)
  double precision :: data(64)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, p, ierr)
  do iter = 0, 1
    data = [(iter * 100.0d0 + me * 1000.0d0 + i, i = 0, 63)]
    if (me == root) then
      do q = 0, p - 1
        if (q /= root) call MPI_Send(data, 64, MPI_DOUBLE_PRECISION, q, 7, MPI_COMM_WORLD, ierr)
      end do
    else
      call MPI_Recv(data, 64, MPI_DOUBLE_PRECISION, root, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
    end if
    print '(a,i0,a,i0,a,f0.1)', 'rank ', me, ' iter ', iter, ': ', data(64)
  end do
  vals = [(me * 10 + i, i = 1, 5)]
  if (me == 0) then
    do q = 1, p - 1
      call MPI_Isend(vals, 5, MPI_INTEGER, q, 8, MPI_COMM_WORLD, reqs(q), ierr)
    end do
    call MPI_Waitall(p - 1, reqs, MPI_STATUSES_IGNORE, ierr)
  else
    call MPI_Recv(vals, 5, MPI_INTEGER, 0, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  end if
  print '(a,i0,a,i0)', 'rank ', me, ' vals ', sum(vals)
  call fixed_bcast
  call MPI_Finalize(ierr)
end program bcast_effect
