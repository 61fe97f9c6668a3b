# CZ_MPI_FORTRAN_COMPILER: the mpif90 of the MPI the project is built with,
# named like MPI_C_COMPILER (mpicc -> mpif90, mpicc.mpich -> mpif90.mpich,
# /opt/mpi/bin/mpicc -> /opt/mpi/bin/mpif90). A Fortran program linked with
# another MPI's compiler would load two MPI libraries beside the tracer.
# Empty when that MPI has no Fortran compiler: collectivize-fc then says so
# and the Fortran tests are reported unsupported, with the reason.
if(NOT DEFINED CZ_MPI_FORTRAN_COMPILER)
  get_filename_component(_cz_mpicc_dir "${MPI_C_COMPILER}" DIRECTORY)
  get_filename_component(_cz_mpicc_name "${MPI_C_COMPILER}" NAME)
  string(REPLACE "mpicc" "mpif90" _cz_mpifc_name "${_cz_mpicc_name}")
  if(_cz_mpicc_dir)
    find_program(_cz_mpifc "${_cz_mpifc_name}" HINTS "${_cz_mpicc_dir}" NO_DEFAULT_PATH)
  else()
    find_program(_cz_mpifc "${_cz_mpifc_name}")
  endif()
  set(CZ_MPI_FORTRAN_COMPILER "")
  if(_cz_mpifc AND NOT _cz_mpifc_name STREQUAL _cz_mpicc_name)
    set(CZ_MPI_FORTRAN_COMPILER "${_cz_mpifc}")
  endif()
  unset(_cz_mpifc CACHE)
  if(CZ_MPI_FORTRAN_COMPILER)
    message(STATUS "MPI Fortran compiler (collectivize-fc, tests): ${CZ_MPI_FORTRAN_COMPILER}")
  else()
    message(STATUS "No MPI Fortran compiler beside ${MPI_C_COMPILER} (${_cz_mpifc_name}): "
                   "collectivize-fc needs COLLECTIVIZE_FC, the Fortran tests are unsupported")
  endif()
endif()
