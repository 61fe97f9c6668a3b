! A Fortran program through `use mpi_f08` that only starts and stops MPI
! (tests only).
program hello_f08
  use mpi_f08
  implicit none
  integer :: me
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, me)
  call MPI_Finalize()
end program hello_f08
