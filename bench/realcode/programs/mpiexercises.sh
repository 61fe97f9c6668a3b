# MPI-exercises (dvalters/MPI-exercises): an MPI course's Fortran 90
# exercises and solutions, no build files used (their Makefiles name one
# machine's compiler); each program compiled alone with collectivize-fc -g
# -O2.  Cases at P = 4 and 8: pi (exercises/Fortran90/Pi, `use mpi`), pi-any
# (pi/F/piparallel.f90, the same with MPI_ANY_SOURCE), rotate
# (exercises/Fortran90/Rotate, mpif.h), cart-rotate
# (exercises/Fortran90/CartesTopology/rotate.f90, a 1-D periodic Cartesian
# communicator) and traffic (traffic/F-MPI: the cellular-automaton road,
# 100000 cells, 2000 iterations, as shipped).  N = 840 terms in pi divides
# by 4 and 8.
SRC_NAME=MPI-exercises
F90=exercises/Fortran90

build_program() {
  "$CZ_FC" -g -O2 -o $F90/Pi/pi $F90/Pi/pi.f90 &&
  "$CZ_FC" -g -O2 -o pi/F/piparallel pi/F/piparallel.f90 &&
  "$CZ_FC" -g -O2 -o $F90/Rotate/rotate $F90/Rotate/rotate.f90 &&
  "$CZ_FC" -g -O2 -o $F90/CartesTopology/rotate $F90/CartesTopology/rotate.f90 &&
  # Modules before their users (the Makefile lists them otherwise).
  (cd traffic/F-MPI && "$CZ_FC" -g -O2 -o traffic unirand.f90 mplib.f90 trafficlib.f90 traffic.f90)
}

run_cases() {
  local np
  mkdir -p "$P_OUT"/{pi,pi-any,rotate,cart-rotate,traffic}/work
  for np in 4 8; do
    (cd "$P_OUT/pi/work" && cz_case pi $np 1 -- "$BUILD/$F90/Pi/pi")
    (cd "$P_OUT/pi-any/work" && cz_case pi-any $np 1 -- "$BUILD/pi/F/piparallel")
    (cd "$P_OUT/rotate/work" && cz_case rotate $np 1 -- "$BUILD/$F90/Rotate/rotate")
    (cd "$P_OUT/cart-rotate/work" && cz_case cart-rotate $np 1 -- "$BUILD/$F90/CartesTopology/rotate")
    (cd "$P_OUT/traffic/work" && cz_case traffic $np 1 -- "$BUILD/traffic/F-MPI/traffic")
  done
}
