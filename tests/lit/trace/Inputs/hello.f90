! A Fortran MPI program (tests only): Open MPI's Fortran bindings call
! PMPI_Init directly, so the C tracer never starts.
program hello
  use mpi
  integer :: ierr, rank
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Finalize(ierr)
end program hello
