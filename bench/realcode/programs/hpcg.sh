# HPCG 3.1 (hpcg-benchmark/hpcg): CMake with MPI on, OpenMP off, C++ through
# collectivize-c++.  Case: quick path (--rt=0), 16^3 points per rank, P = 4, 8.
SRC_NAME=hpcg

build_program() {
  cmake -S . -B cz-build -DCMAKE_CXX_COMPILER="$CZ_CXX" -DHPCG_ENABLE_MPI=ON \
        -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_EXPORT_COMPILE_COMMANDS=ON &&
  cmake --build cz-build -j 2 && test -x cz-build/xhpcg
}

# The rewriter's extra arguments (compile flags of the sources it parses).
rewrite_args() {
  REWRITE_ARGS=(-p "$BUILD/cz-build")
}

run_cases() {
  local wd=$P_OUT/cg/work np
  mkdir -p "$wd"
  for np in 4 8; do
    (cd "$wd" && cz_case cg $np 1 -- "$BUILD/cz-build/xhpcg" --nx=16 --ny=16 --nz=16 --rt=0)
  done
  (cd "$wd" && cz_case cg 4 2 -- "$BUILD/cz-build/xhpcg" --nx=16 --ny=16 --nz=16 --rt=0)
}
