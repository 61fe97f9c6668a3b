# mpitutorial (mpitutorial/mpitutorial): the tutorials' own makefiles with
# MPICC=collectivize-cc, MPICXX=collectivize-c++.  Cases: my_bcast,
# compare_bcast (1000 ints, 10 trials), ring, random_walk (domain 100, walk
# 500, 20 walkers), P = 4 and 8.
SRC_NAME=mpitutorial
T=tutorials

build_program() {
  make -C $T/mpi-broadcast-and-collective-communication/code MPICC="$CZ_CC" &&
  make -C $T/mpi-send-and-receive/code MPICC="$CZ_CC" ring &&
  make -C $T/point-to-point-communication-application-random-walk/code MPICXX="$CZ_CXX"
}

run_cases() {
  local bc=$BUILD/$T/mpi-broadcast-and-collective-communication/code np
  for np in 4 8; do
    mkdir -p "$P_OUT/my_bcast/work" "$P_OUT/compare_bcast/work" "$P_OUT/ring/work" "$P_OUT/random_walk/work"
    (cd "$P_OUT/my_bcast/work" && cz_case my_bcast $np 1 -- "$bc/my_bcast")
    (cd "$P_OUT/compare_bcast/work" && cz_case compare_bcast $np 1 -- "$bc/compare_bcast" 1000 10)
    (cd "$P_OUT/ring/work" && cz_case ring $np 1 -- "$BUILD/$T/mpi-send-and-receive/code/ring")
    (cd "$P_OUT/random_walk/work" && cz_case random_walk $np 1 -- \
        "$BUILD/$T/point-to-point-communication-application-random-walk/code/random_walk" 100 500 20)
  done
  (cd "$P_OUT/compare_bcast/work" && cz_case compare_bcast 4 2 -- "$bc/compare_bcast" 1000 10)
}
