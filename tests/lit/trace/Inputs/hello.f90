! A Fortran MPI program (tests only) that only starts and stops MPI.
program hello
  use mpi
  integer :: ierr, rank
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Finalize(ierr)
end program hello
