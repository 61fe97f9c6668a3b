# Parallel-Sorting (masrul/Parallel-Computing-MPI, Parallel-Sorting/): its
# Makefile wants src/ files beside it and mpiCC; compiled directly with
# collectivize-c++ -g -O1 (the Makefile's flags).  Case: see run_cases.
SRC_NAME=Parallel-Computing-MPI

build_program() {
  cd Parallel-Sorting && "$CZ_CXX" -g -O1 -o psort src/psort.cc -lm
}

run_cases() {
  local np; mkdir -p "$P_OUT/sort/work"
  for np in 4 8; do
    (cd "$P_OUT/sort/work" && cz_case sort $np 1 -- "$BUILD/Parallel-Sorting/psort" 100000)
  done
}
