# Intel MPI Benchmarks (intel/mpi-benchmarks): IMB-MPI1's point-to-point
# benchmarks and IMB-P2P's, built by the repository Makefiles with
# CC=collectivize-cc CXX=collectivize-c++ (IMB-MPI1 is C++ around the C
# benchmarks).  Every benchmark here is a negative: ping-pongs, rings,
# neighbour exchanges and random pairs, timed again and again, whose
# buffers the benchmark fills with its own pattern.  Cases at P = 4 and 8
# (IMB-MPI1 with -npmin P, so it runs at P only), short: messages 8 B to
# 4 KiB (-msglog 3:12), 20 iterations each.
SRC_NAME=imb

build_program() {
  # Open MPI's C++ bindings header trips IMB's -Werror (cast-function-type):
  # IMB uses the C API only, so the bindings are left out.
  make -j2 IMB-MPI1 CC="$CZ_CC" CXX="$CZ_CXX" CXXFLAGS=-DOMPI_SKIP_MPICXX=1 &&
    make IMB-P2P CC="$CZ_CC"
}

rewrite_args() {
  REWRITE_ARGS=(-- -I"$BUILD/src_c" -I"$BUILD/src_cpp")
}

run_cases() {
  local np
  mkdir -p "$P_OUT"/{mpi1-p2p,p2p}/work
  for np in 4 8; do
    (cd "$P_OUT/mpi1-p2p/work" && cz_case mpi1-p2p $np 1 -- "$BUILD/IMB-MPI1" PingPong PingPing Sendrecv Exchange \
      -npmin $np -msglog 3:12 -iter 20 -time 5)
    (cd "$P_OUT/p2p/work" && cz_case p2p $np 1 -- "$BUILD/IMB-P2P" PingPong Unirandom Birandom Corandom Stencil2D \
      Stencil3D SendRecv_Replace -msglog 3:12 -iter 20)
  done
}
