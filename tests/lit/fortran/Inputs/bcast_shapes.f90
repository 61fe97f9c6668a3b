! Hand-made broadcasts for bcast-shapes.test: the shapes the rewriter
! patches and the ones it refuses. Compiled there but never run: the
! detection report around them is written by hand.
program shapes
  use mpi
  implicit none
  integer, parameter :: root = 1
  integer :: me, p, ierr, q, k, st(MPI_STATUS_SIZE), st2(MPI_STATUS_SIZE)
  double precision :: x(4), y(4)
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, p, ierr)

  ! 1 proposed: the root first, `.eq.`, one-line guard, `enddo`, `endif`
  IF (me .eq. root) THEN
    DO q = 0, p - 1
      IF (q .ne. root) CALL MPI_SEND(x, 4, MPI_DOUBLE_PRECISION, q, 1, MPI_COMM_WORLD, ierr)
    ENDDO
  ELSE
    CALL MPI_RECV(x, 4, MPI_DOUBLE_PRECISION, root, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  ENDIF

  ! 2 proposed: the receive first, a block guard, blank lines
  if (root /= me) then
    call MPI_Recv(y, 4, MPI_DOUBLE_PRECISION, root, 2, MPI_COMM_WORLD, st2, ierr)

  else
    do k = 0, p - 1
      if (root /= k) then
        call MPI_Send(y, 4, MPI_DOUBLE_PRECISION, k, 2, MPI_COMM_WORLD, ierr)
      end if
    end do
  end if

  ! 3 proposed: root 0, a loop from 1 without a guard
  if (me == 0) then
    do q = 1, p - 1
      call MPI_Send(x, 4, MPI_DOUBLE_PRECISION, q, 3, MPI_COMM_WORLD, ierr)
    end do
  else
    call MPI_Recv(x, 4, MPI_DOUBLE_PRECISION, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  end if

  ! 4 refused: another statement in the block
  if (me == root) then
    do q = 0, p - 1
      if (q /= root) call MPI_Send(x, 4, MPI_DOUBLE_PRECISION, q, 4, MPI_COMM_WORLD, ierr)
    end do
  else
    x = 0
    call MPI_Recv(x, 4, MPI_DOUBLE_PRECISION, root, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  end if

  ! 5 proposed: the receive continued over two lines
  if (me == root) then
    do q = 0, p - 1
      if (q /= root) call MPI_Send(x, 4, MPI_DOUBLE_PRECISION, q, 5, MPI_COMM_WORLD, ierr)
    end do
  else
    call MPI_Recv(x, 4, MPI_DOUBLE_PRECISION, root, 5, MPI_COMM_WORLD, &
                  MPI_STATUS_IGNORE, ierr)
  end if

  ! 6 refused: the tags differ
  if (me == root) then
    do q = 0, p - 1
      if (q /= root) call MPI_Send(x, 4, MPI_DOUBLE_PRECISION, q, 6, MPI_COMM_WORLD, ierr)
    end do
  else
    call MPI_Recv(x, 4, MPI_DOUBLE_PRECISION, root, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  end if

  ! 7 refused: the loop does not skip the root (its guard tests another rank)
  if (me == root) then
    do q = 0, p - 1
      if (q /= 0) call MPI_Send(x, 4, MPI_DOUBLE_PRECISION, q, 7, MPI_COMM_WORLD, ierr)
    end do
  else
    call MPI_Recv(x, 4, MPI_DOUBLE_PRECISION, root, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  end if

  ! 8 refused: the receive's status is read after the block
  if (me == root) then
    do q = 0, p - 1
      if (q /= root) call MPI_Send(x, 4, MPI_DOUBLE_PRECISION, q, 8, MPI_COMM_WORLD, ierr)
    end do
  else
    call MPI_Recv(x, 4, MPI_DOUBLE_PRECISION, root, 8, MPI_COMM_WORLD, st, ierr)
  end if
  if (st(MPI_TAG) /= 8) print *, 'unexpected tag'

  ! 9 refused: a comment in the block
  if (me == root) then
    do q = 0, p - 1
      ! every rank but the root
      if (q /= root) call MPI_Send(x, 4, MPI_DOUBLE_PRECISION, q, 9, MPI_COMM_WORLD, ierr)
    end do
  else
    call MPI_Recv(x, 4, MPI_DOUBLE_PRECISION, root, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  end if

  ! 10 refused: the buffers differ
  if (me == root) then
    do q = 0, p - 1
      if (q /= root) call MPI_Send(x, 4, MPI_DOUBLE_PRECISION, q, 10, MPI_COMM_WORLD, ierr)
    end do
  else
    call MPI_Recv(y, 4, MPI_DOUBLE_PRECISION, root, 10, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  end if

  ! 11 refused: the communicators differ
  if (me == root) then
    do q = 0, p - 1
      if (q /= root) call MPI_Send(x, 4, MPI_DOUBLE_PRECISION, q, 11, MPI_COMM_WORLD, ierr)
    end do
  else
    call MPI_Recv(x, 4, MPI_DOUBLE_PRECISION, root, 11, MPI_COMM_SELF, MPI_STATUS_IGNORE, ierr)
  end if
  call MPI_Finalize(ierr)
end program shapes

! 12 review: the size and the rank come in as arguments, and the loop
! variable is read after the block
subroutine from_arguments(x, me, p)
  use mpi
  implicit none
  integer, intent(in) :: me, p
  double precision, intent(inout) :: x(4)
  integer :: q, ierr
  if (me == 2) then
    do q = 0, p - 1
      if (q /= 2) call MPI_Send(x, 4, MPI_DOUBLE_PRECISION, q, 12, MPI_COMM_WORLD, ierr)
    end do
  else
    call MPI_Recv(x, 4, MPI_DOUBLE_PRECISION, 2, 12, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  end if
  if (q > p) x(1) = 0
end subroutine from_arguments

! 17 to review (size and rank are arguments): deep in nested blocks, the new call past column 132 once
! indented: continued with `&` after a comma
subroutine deep(me, p, root, the_buffer_with_a_rather_long_name)
  use mpi
  integer, intent(in) :: me, p, root
  double precision, intent(inout) :: the_buffer_with_a_rather_long_name(4)
  integer :: q, ierr, a, b, c, d
  do a = 1, 1
    do b = 1, 1
      do c = 1, 1
        do d = 1, 1
                                          if (me == root) then
                                            do q = 0, p - 1
                                              if (q /= root) call MPI_Send(the_buffer_with_a_rather_long_name, 4, &
                                                MPI_DOUBLE_PRECISION, q, 13, MPI_COMM_WORLD, ierr)
                                            end do
                                          else
                                            call MPI_Recv(the_buffer_with_a_rather_long_name, 4, &
                                              MPI_DOUBLE_PRECISION, root, 13, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
                                          end if
        end do
      end do
    end do
  end do
end subroutine deep

! 18-20: the root's branch fills the buffer before its loop
subroutine filled(n)
  use mpi
  integer, intent(inout) :: n
  double precision :: z(8)
  integer :: me, p, q, ierr, i
  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, p, ierr)
  ! 18 proposed: kept before the call, on the root
  if (me == 1) then
    z = [(i * 0.5d0, i = 1, 8)]
    print *, 'root sends', z(8)
    do q = 0, p - 1
      if (q /= 1) call MPI_Send(z, 8, MPI_DOUBLE_PRECISION, q, 14, MPI_COMM_WORLD, ierr)
    end do
  else
    call MPI_Recv(z, 8, MPI_DOUBLE_PRECISION, 1, 14, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  end if
  ! 19 proposed: the receive first, the rank test turned for the root
  if (me .ne. 1) then
    call MPI_Recv(z, 8, MPI_DOUBLE_PRECISION, 1, 15, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  else
    z(1) = -1
    do q = 0, p - 1
      if (q .ne. 1) call MPI_Send(z, 8, MPI_DOUBLE_PRECISION, q, 15, MPI_COMM_WORLD, ierr)
    end do
  end if
  ! 20 refused: the root sets the count the call would read
  if (me == 1) then
    n = 8
    do q = 0, p - 1
      if (q /= 1) call MPI_Send(z, n, MPI_DOUBLE_PRECISION, q, 16, MPI_COMM_WORLD, ierr)
    end do
  else
    call MPI_Recv(z, n, MPI_DOUBLE_PRECISION, 1, 16, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  end if
end subroutine filled

! 21-22: the root's branch goes on after its loop
subroutine after_loop()
  use mpi
  double precision :: w(3)
  integer :: me, p, q, ierr
  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, p, ierr)
  w = me
  ! 21 proposed: statements before and after the loop, kept on the root
  if (me == 2) then
    w(1) = 7
    do q = 0, p - 1
      if (q /= 2) call MPI_Send(w, 3, MPI_DOUBLE_PRECISION, q, 17, MPI_COMM_WORLD, ierr)
    end do
    print *, 'root sent', w(1)
    w = 0
  else
    call MPI_Recv(w, 3, MPI_DOUBLE_PRECISION, 2, 17, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  end if
end subroutine after_loop

! 22 refused: the statement after the loop reads the loop variable
subroutine after_loop_var(me, p, w)
  use mpi
  integer, intent(in) :: me, p
  double precision, intent(inout) :: w(3)
  integer :: q, ierr
  if (me == 2) then
    do q = 0, p - 1
      if (q /= 2) call MPI_Send(w, 3, MPI_DOUBLE_PRECISION, q, 18, MPI_COMM_WORLD, ierr)
    end do
    print *, 'last', q
  else
    call MPI_Recv(w, 3, MPI_DOUBLE_PRECISION, 2, 18, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  end if
end subroutine after_loop_var
