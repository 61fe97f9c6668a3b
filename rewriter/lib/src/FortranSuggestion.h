// FortranSuggestion.h: what the rewriter gives a match whose sites are in
// a Fortran file when no patch is made. Clang cannot parse Fortran, so
// there is no region and no proof that a call does what the loop did: the
// match gets a *suggestion*, the collective call written in Fortran with
// its arguments taken from the text of the sites' calls (buffers, counts,
// datatypes, communicator, the peer expression that names the root), and
// the statements it would replace. Nothing in it comes from the trace but
// the operation of a reduction the trace proved; an argument the call
// sites do not give is a <placeholder> to fill in (a v-form's counts and
// displacements: arrays the program must build). A hand-made bcast of one
// exact shape gets a patch instead (FortranBcastPatch.h).
#pragma once

#include <string>

#include "collectivize/rewrite/DetectionReport.h"
#include "collectivize/rewrite/Rewrite.h"

#include "FortranText.h"

namespace cz::rewrite {

// p.status "none" with p.reason, p.suggestion, p.suggestionReplaces and
// p.notes filled from the match's sites in p.original (the file's text).
// `noPatch` says why there is no patch ("Clang parses C and C++ only").
void suggestFortran(const DetectedMatch &m, PatchPlan &p, const std::string &noPatch);

} // namespace cz::rewrite
