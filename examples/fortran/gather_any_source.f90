! Rank 1 collects three reals from every rank: it keeps its own block in
! slot 2 and receives the others with MPI_ANY_SOURCE into slots 1, 3, 4,
! ... in turn, so a block's slot is its place in the order of arrival, not
! its sender's rank. The senders start 50 ms apart, so in a normal run the
! blocks arrive, and lie, in rank order and the slots look like
! MPI_Gather's; a slow rank 0 would put rank 2's block in slot 1. The
! site database cannot say where the source was a wildcard (no
! instrumenter ids in Fortran); the trace does (collectivize::any_source),
! and the report calls the gather ambiguous (arrival_order).
! Built with collectivize-fc -g (examples/fortran/README.md).
program gather_any_source
  use mpi
  implicit none
  integer, parameter :: block = 3, root = 1
  integer :: me, p, k, i, ierr
  real(8) :: mine(block)
  real(8), allocatable :: slots(:, :)
  real(8) :: weighted
  integer :: st(MPI_STATUS_SIZE)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, p, ierr)
  do i = 1, block
    mine(i) = 100.0d0 * me + 7.0d0 * i + 0.5d0
  end do
  allocate(slots(block, p))
  if (me == root) then
    slots(:, root + 1) = mine
    do k = 1, p
      if (k == root + 1) cycle
      call MPI_Recv(slots(1, k), block, MPI_DOUBLE_PRECISION, MPI_ANY_SOURCE, 4, &
                    MPI_COMM_WORLD, st, ierr)
    end do
    weighted = 0.0d0
    do k = 1, p
      weighted = weighted + k * slots(1, k)
    end do
    print '(a,f0.1)', 'gather_any_source: ', weighted
  else
    call sleep_ms(50 * (me + 1))
    call MPI_Send(mine, block, MPI_DOUBLE_PRECISION, root, 4, MPI_COMM_WORLD, ierr)
  end if
  deallocate(slots)
  call MPI_Finalize(ierr)

contains

  ! Waits ms milliseconds (MPI_Wtime; no extension needed).
  subroutine sleep_ms(ms)
    integer, intent(in) :: ms
    double precision :: until
    until = MPI_Wtime() + ms / 1000.0d0
    do while (MPI_Wtime() < until)
    end do
  end subroutine sleep_ms
end program gather_any_source
