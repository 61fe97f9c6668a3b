! mixed_bcast.f90 (with mixed_main.c): rank 0 sends the table to every
! other rank, called from C.
subroutine fortran_bcast(table, n) bind(c, name="fortran_bcast")
  use mpi
  use iso_c_binding, only: c_int
  implicit none
  integer(c_int), intent(in) :: n
  integer(c_int), intent(inout) :: table(n)
  integer :: me, p, q, ierr
  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, p, ierr)
  if (me == 0) then
    do q = 1, p - 1
      call MPI_Send(table, n, MPI_INTEGER, q, 9, MPI_COMM_WORLD, ierr) ! F-SEND
    end do
  else
    call MPI_Recv(table, n, MPI_INTEGER, 0, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr) ! F-RECV
  end if
end subroutine
