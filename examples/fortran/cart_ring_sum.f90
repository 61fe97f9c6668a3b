! A global sum passed around a periodic 1-D Cartesian communicator: every
! rank sends its value to its left neighbour and adds what arrives from
! the right, P times (the last step brings each rank its own value back),
! so every rank ends with the sum of all: an allreduce (MPI_SUM) built by
! hand. The communicator is the one MPI_Cart_create returns, and the
! report names it by that call's line in this file.
! Built with collectivize-fc -g (examples/fortran/README.md).
program cart_ring_sum
  use mpi
  implicit none
  integer :: ring, me, p, left, right, step, ierr
  integer :: dims(1), mine, passing, arrived, total
  integer :: st(MPI_STATUS_SIZE)
  logical :: periodic(1)

  call MPI_Init(ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, p, ierr)
  dims(1) = p
  periodic(1) = .true.
  call MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periodic, .false., ring, ierr)
  call MPI_Comm_rank(ring, me, ierr)
  call MPI_Cart_shift(ring, 0, 1, left, right, ierr)

  mine = 10 * me + 3
  passing = mine
  total = 0
  do step = 1, p
    call MPI_Sendrecv(passing, 1, MPI_INTEGER, left, 7, arrived, 1, MPI_INTEGER, right, 7, &
                      ring, st, ierr)
    total = total + arrived
    passing = arrived
  end do

  if (me == 0) print '(a,i0,a,i0)', 'cart_ring_sum: ', p, ' ranks, sum ', total
  call MPI_Comm_free(ring, ierr)
  call MPI_Finalize(ierr)
end program cart_ring_sum
