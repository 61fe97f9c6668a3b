! Hand-made broadcasts whose root starts its sends with MPI_Isend and
! completes them with MPI_Waitall (tests only; bcast-isend.test).
subroutine isend_shapes()
  use mpi
  implicit none
  integer :: me, p, ierr, q, i
  integer :: reqs(64), more(0:63), from0(0:63), other(64), hole(0:63), st(MPI_STATUS_SIZE, 64)
  double precision :: x(4)
  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, p, ierr)
  ! The array declared from 1, the waitall right after the loop.
  if (me == 0) then
    do q = 1, p - 1
      call MPI_Isend(x, 4, MPI_DOUBLE_PRECISION, q, 1, MPI_COMM_WORLD, reqs(q), ierr)
    end do
    call MPI_Waitall(p - 1, reqs, MPI_STATUSES_IGNORE, ierr)
  else
    call MPI_Recv(x, 4, MPI_DOUBLE_PRECISION, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  end if

  ! The receive first; the array declared from 0, passed from its element 1 on.
  if (me /= 0) then
    call MPI_Recv(x, 4, MPI_DOUBLE_PRECISION, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  else
    do q = 1, p - 1
      call MPI_Isend(x, 4, MPI_DOUBLE_PRECISION, q, 2, MPI_COMM_WORLD, more(q), ierr)
    end do
    call MPI_Waitall(p - 1, more(1:), MPI_STATUSES_IGNORE, ierr)
  end if

  ! Refused: the array declared from 0, passed whole (from from0(0)).
  if (me == 0) then
    do q = 1, p - 1
      call MPI_Isend(x, 4, MPI_DOUBLE_PRECISION, q, 3, MPI_COMM_WORLD, from0(q), ierr)
    end do
    call MPI_Waitall(p - 1, from0, MPI_STATUSES_IGNORE, ierr)
  else
    call MPI_Recv(x, 4, MPI_DOUBLE_PRECISION, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  end if

  ! Refused: the waitall completes p requests, one more than the loop's.
  if (me == 0) then
    do q = 1, p - 1
      call MPI_Isend(x, 4, MPI_DOUBLE_PRECISION, q, 4, MPI_COMM_WORLD, other(q), ierr)
    end do
    call MPI_Waitall(p, other, MPI_STATUSES_IGNORE, ierr)
  else
    call MPI_Recv(x, 4, MPI_DOUBLE_PRECISION, 0, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  end if

  ! Refused: no waitall in the root's branch.
  if (me == 0) then
    do q = 1, p - 1
      call MPI_Isend(x, 4, MPI_DOUBLE_PRECISION, q, 5, MPI_COMM_WORLD, other(q), ierr)
    end do
  else
    call MPI_Recv(x, 4, MPI_DOUBLE_PRECISION, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  end if

  ! Refused: the statuses are read after the block.
  if (me == 0) then
    do q = 1, p - 1
      call MPI_Isend(x, 4, MPI_DOUBLE_PRECISION, q, 6, MPI_COMM_WORLD, other(q), ierr)
    end do
    call MPI_Waitall(p - 1, other, st, ierr)
  else
    call MPI_Recv(x, 4, MPI_DOUBLE_PRECISION, 0, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  end if
  if (me == 0) print *, st(MPI_ERROR, 1)

  ! Refused: the loop skips the root with an if, leaving a hole in the array.
  if (me == 1) then
    do q = 0, p - 1
      if (q /= 1) call MPI_Isend(x, 4, MPI_DOUBLE_PRECISION, q, 7, MPI_COMM_WORLD, hole(q), ierr)
    end do
    call MPI_Waitall(p - 1, hole, MPI_STATUSES_IGNORE, ierr)
  else
    call MPI_Recv(x, 4, MPI_DOUBLE_PRECISION, 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  end if

  ! Refused: the request array is used by other blocks of the unit.
  if (me == 0) then
    do i = 1, p - 1
      call MPI_Isend(x, 4, MPI_DOUBLE_PRECISION, i, 8, MPI_COMM_WORLD, other(i), ierr)
    end do
    call MPI_Waitall(p - 1, other, MPI_STATUSES_IGNORE, ierr)
  else
    call MPI_Recv(x, 4, MPI_DOUBLE_PRECISION, 0, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  end if
end subroutine isend_shapes
