# miniAMR 1.7 reference (Mantevo/miniAMR, ref/) with its Makefile,
# CC=LD=collectivize-cc.  One moving sphere surface, 2 refinement levels
# (refined every 2 steps), 6 steps of 2 stages, 8 variables, checksums every 3
# stages, plot every 3 steps (plot.c gathers the block lists on rank 0).  Grids 2x2x1 (P=4), 2x2x2 (P=8), 3x2x2 (P=12).
SRC_NAME=miniAMR

build_program() {
  cd ref && make -j2 CC="$CZ_CC" LD="$CZ_CC" CFLAGS="-O2 -g" && test -x miniAMR.x
}

amr_args() {
  echo --num_refine 2 --max_blocks 400 --npx $1 --npy $2 --npz $3 --nx 4 --ny 4 --nz 4 \
       --num_vars 8 --num_objects 1 --object 2 0 0.3 0.3 0.3 0.03 0.03 0.03 0.2 0.2 0.2 0.0 0.0 0.0 \
       --num_tsteps 6 --checksum_freq 3 --stages_per_ts 2 --refine_freq 2 --plot_freq 3
}

# The rewriter's extra arguments (compile flags of the sources it parses).
rewrite_args() {
  REWRITE_ARGS=(-- -I"$BUILD/ref")
}

run_cases() {
  local wd=$P_OUT/sphere/work exe=$BUILD/ref/miniAMR.x
  mkdir -p "$wd"; cd "$wd" || return
  cz_case sphere 4 1 -- "$exe" $(amr_args 2 2 1)
  cz_case sphere 4 2 -- "$exe" $(amr_args 2 2 1)
  cz_case sphere 8 1 -- "$exe" $(amr_args 2 2 2)
  cz_case sphere 12 1 -- "$exe" $(amr_args 3 2 2)
}
