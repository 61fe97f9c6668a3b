# CollectivizeMpi.cmake: which MPI Collectivize is built with, and the
# launcher and compiler wrappers of that same MPI.
#
# The MPI is the one whose C compiler wrapper CMake finds: Open MPI's mpicc
# by default on Debian, MPICH with -DMPI_C_COMPILER=mpicc.mpich (Intel MPI,
# Cray MPICH and MVAPICH: their mpicc; they share MPICH's ABI). Everything
# that compiles, links or launches for users takes it from here, so one
# binary never mixes two MPI libraries (libmpi.so.40 and libmpich.so.12 in
# one process crash at start):
#   CZ_MPI_FAMILY         OpenMPI or MPICH (from mpi.h)
#   CZ_MPI_C_COMPILER     the C wrapper, symlinks followed while the name
#                         still says mpicc (/usr/bin/mpicc -> mpicc.openmpi),
#                         so switching Debian's alternatives later changes
#                         nothing
#   CZ_MPI_CXX_COMPILER   its C++ sibling (mpicxx.mpich for mpicc.mpich)
#   MPIEXEC_EXECUTABLE    a launcher of that family (FindMPI takes the first
#                         mpiexec on PATH, which is Open MPI's on Debian even
#                         when MPICH is chosen), pinned like the compiler
find_package(MPI 3.0 REQUIRED COMPONENTS C)

# The family, from the header the build compiles against.
set(CZ_MPI_FAMILY "")
foreach(dir ${MPI_C_INCLUDE_DIRS} ${MPI_C_HEADER_DIR})
  if(EXISTS "${dir}/mpi.h" AND CZ_MPI_FAMILY STREQUAL "")
    file(STRINGS "${dir}/mpi.h" cz_mpi_h REGEX "define (OMPI_MAJOR_VERSION|MPICH_VERSION|I_MPI_VERSION)")
    if(cz_mpi_h MATCHES "OMPI_MAJOR_VERSION")
      set(CZ_MPI_FAMILY OpenMPI)
    elseif(cz_mpi_h MATCHES "MPICH_VERSION|I_MPI_VERSION")
      set(CZ_MPI_FAMILY MPICH)
    endif()
  endif()
endforeach()
if(CZ_MPI_FAMILY STREQUAL "")
  message(WARNING "Collectivize: cannot tell whether ${MPI_C_COMPILER} is Open MPI or "
                  "MPICH (mpi.h names neither); assuming Open MPI")
  set(CZ_MPI_FAMILY OpenMPI)
endif()

# The wrapper by the name it answers to.
function(cz_pinned_wrapper path out)
  get_filename_component(name "${path}" NAME)
  set(pinned "${path}")
  set(current "${path}")
  foreach(hop RANGE 8)
    if(NOT IS_SYMLINK "${current}")
      break()
    endif()
    file(READ_SYMLINK "${current}" next)
    if(NOT IS_ABSOLUTE "${next}")
      get_filename_component(dir "${current}" DIRECTORY)
      set(next "${dir}/${next}")
    endif()
    get_filename_component(next_name "${next}" NAME)
    string(FIND "${next_name}" "${name}" at)
    if(at EQUAL 0)
      set(pinned "${next}")
    endif()
    set(current "${next}")
  endforeach()
  set(${out} "${pinned}" PARENT_SCOPE)
endfunction()

if(NOT MPI_C_COMPILER)
  message(FATAL_ERROR "Collectivize: FindMPI found MPI without its compiler wrapper; "
                      "name it with -DMPI_C_COMPILER=/path/to/mpicc")
endif()
# A bare name (-DMPI_C_COMPILER=mpicc.mpich given again to a configured
# tree leaves it so in the cache): its path, or the Fortran wrapper beside
# it is never found and the Fortran tests go unsupported.
if(NOT IS_ABSOLUTE "${MPI_C_COMPILER}")
  find_program(cz_mpicc_path NAMES "${MPI_C_COMPILER}" NO_CACHE)
  if(cz_mpicc_path)
    set(MPI_C_COMPILER "${cz_mpicc_path}")
  endif()
endif()
cz_pinned_wrapper("${MPI_C_COMPILER}" CZ_MPI_C_COMPILER)
if(MPI_CXX_COMPILER)
  find_program(cz_cxx_wrapper "${MPI_CXX_COMPILER}" NO_CACHE)
  if(NOT cz_cxx_wrapper)
    message(FATAL_ERROR "Collectivize: MPI_CXX_COMPILER ${MPI_CXX_COMPILER} not found")
  endif()
  cz_pinned_wrapper("${cz_cxx_wrapper}" CZ_MPI_CXX_COMPILER)
else()
  get_filename_component(cz_dir "${CZ_MPI_C_COMPILER}" DIRECTORY)
  get_filename_component(cz_name "${CZ_MPI_C_COMPILER}" NAME)
  string(REPLACE "mpicc" "mpicxx" cz_cxx_name "${cz_name}")
  set(CZ_MPI_CXX_COMPILER "${cz_dir}/${cz_cxx_name}")
  if(NOT EXISTS "${CZ_MPI_CXX_COMPILER}")
    set(CZ_MPI_CXX_COMPILER "${cz_dir}/mpicxx")
  endif()
endif()

# Its Fortran wrapper, if installed (tests: Fortran programs are not traced).
get_filename_component(cz_dir "${CZ_MPI_C_COMPILER}" DIRECTORY)
get_filename_component(cz_name "${CZ_MPI_C_COMPILER}" NAME)
string(REPLACE "mpicc" "mpif90" cz_fortran_name "${cz_name}")
set(CZ_MPI_FORTRAN_COMPILER "")
if(NOT cz_fortran_name STREQUAL cz_name AND EXISTS "${cz_dir}/${cz_fortran_name}")
  set(CZ_MPI_FORTRAN_COMPILER "${cz_dir}/${cz_fortran_name}")
endif()

# The launcher: of the same family, else the family's own names.
function(cz_launcher_family exe out)
  execute_process(COMMAND "${exe}" --version OUTPUT_VARIABLE text ERROR_VARIABLE text
                  RESULT_VARIABLE rc TIMEOUT 20)
  if(text MATCHES "Open MPI|OpenRTE")
    set(${out} OpenMPI PARENT_SCOPE)
  elseif(text MATCHES "HYDRA|Intel\\(R\\) MPI|MPICH")
    set(${out} MPICH PARENT_SCOPE)
  else()
    set(${out} "" PARENT_SCOPE)
  endif()
endfunction()
set(cz_family_of_launcher "")
if(MPIEXEC_EXECUTABLE)
  cz_launcher_family("${MPIEXEC_EXECUTABLE}" cz_family_of_launcher)
endif()
if(cz_family_of_launcher STREQUAL CZ_MPI_FAMILY)
  cz_pinned_wrapper("${MPIEXEC_EXECUTABLE}" cz_pinned)
  if(NOT cz_pinned STREQUAL MPIEXEC_EXECUTABLE)
    set(MPIEXEC_EXECUTABLE "${cz_pinned}" CACHE FILEPATH "Executable for running MPI programs." FORCE)
  endif()
else()
  get_filename_component(cz_dir "${CZ_MPI_C_COMPILER}" DIRECTORY)
  if(CZ_MPI_FAMILY STREQUAL MPICH)
    set(cz_names mpiexec.mpich mpiexec.hydra mpirun.mpich mpiexec)
  else()
    set(cz_names mpirun.openmpi mpiexec.openmpi orterun mpirun)
  endif()
  unset(cz_found)
  foreach(cz_name ${cz_names})
    unset(cz_candidate CACHE)
    find_program(cz_candidate ${cz_name} HINTS "${cz_dir}" NO_CACHE)
    if(cz_candidate)
      cz_launcher_family("${cz_candidate}" cz_family)
      if(cz_family STREQUAL CZ_MPI_FAMILY)
        set(cz_found "${cz_candidate}")
        break()
      endif()
    endif()
  endforeach()
  if(cz_found)
    message(STATUS "Collectivize: ${MPIEXEC_EXECUTABLE} is not ${CZ_MPI_FAMILY}'s launcher; "
                   "using ${cz_found}")
    set(MPIEXEC_EXECUTABLE "${cz_found}" CACHE FILEPATH "Executable for running MPI programs." FORCE)
  else()
    message(WARNING "Collectivize: no ${CZ_MPI_FAMILY} launcher found (${MPIEXEC_EXECUTABLE} "
                    "is not one); set -DMPIEXEC_EXECUTABLE=/path/to/its/mpiexec")
  endif()
endif()
# What to install when its launcher is missing (messages).
if(CZ_MPI_FAMILY STREQUAL MPICH)
  set(CZ_MPI_INSTALL_HINT "MPICH (Debian: apt-get install mpich)")
else()
  set(CZ_MPI_INSTALL_HINT "Open MPI (Debian: apt-get install openmpi-bin)")
endif()
message(STATUS "Collectivize MPI: ${CZ_MPI_FAMILY} (${CZ_MPI_C_COMPILER}, "
               "${CZ_MPI_CXX_COMPILER}, ${MPIEXEC_EXECUTABLE})")

# Options every test launch needs on a small machine, as root: Open MPI
# wants them named (--allow-run-as-root, --oversubscribe, and yielding when
# idle: busy-polling oversubscribed ranks run ~500x slower); MPICH's Hydra
# runs as root and oversubscribed as it is. CZ_MPIRUN_BIND_FLAGS: two ranks
# bound to a core each.
if(CZ_MPI_FAMILY STREQUAL MPICH)
  set(CZ_MPIRUN_FLAGS "")
  set(CZ_MPIRUN_BIND_FLAGS -bind-to core)
else()
  set(CZ_MPIRUN_FLAGS --allow-run-as-root --oversubscribe --mca mpi_yield_when_idle 1)
  set(CZ_MPIRUN_BIND_FLAGS --allow-run-as-root --bind-to core --mca mpi_yield_when_idle 1)
endif()
