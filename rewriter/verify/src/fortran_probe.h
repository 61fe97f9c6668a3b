// fortran_probe.h: verify's effect probe in a Fortran copy (effect.h).
// Fortran has no weak references, and the copies are built with the plain
// MPI compiler (no tracer to link), so the probe is a BLOCK construct of
// its own lines that looks the tracer's cz_verify_effect_f up with dlsym
// (NULL in an untraced run: nothing is called) and calls it through a
// procedure pointer with the effect's Fortran expressions. It goes on the
// lines after the region's end: the lines below it move (a Fortran
// statement cannot share a line with a block of declarations).
#pragma once

#include <string>

#include "effect.h"

namespace cz::verify {

// A Fortran source by name (.f .for .ftn .f77 .f90 .f95 .f03 .f08, either
// case), and whether gfortran reads it in fixed form (.f .for .ftn .f77).
bool isFortranPath(const std::string &path, bool &fixedForm);

// The probe's lines for an effect with a buffer (a barrier's probe is C
// only), each ending in a newline, in the source form (fixed:
// columns 7-72, continued with `&` in column 6; free: after `indent`,
// continued with a trailing `&`).
std::string fortranProbe(const EffectSpec &e, bool fixedForm, const std::string &indent);

} // namespace cz::verify
