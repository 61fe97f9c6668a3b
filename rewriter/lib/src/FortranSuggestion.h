// FortranSuggestion.h: what the rewriter gives a match whose sites are in
// a Fortran file. Clang cannot parse Fortran, so there is no region, no
// proof that a call does what the loop did, and no patch: the match gets a
// *suggestion* instead, the collective call written in Fortran with its
// arguments taken from the text of the sites' calls (buffers, counts,
// datatypes, communicator, the peer expression that names the root), and
// the statements it would replace. Nothing in it comes from the trace but
// the operation of a reduction the trace proved; an argument the call
// sites do not give is a <placeholder> to fill in.
#pragma once

#include <string>
#include <vector>

#include "llvm/ADT/StringRef.h"

#include "collectivize/rewrite/DetectionReport.h"
#include "collectivize/rewrite/Rewrite.h"

namespace cz::rewrite {

// Fortran sources by name: .f .for .ftn .f77 .f90 .f95 .f03 .f08, in
// either case (.F90: preprocessed).
bool isFortranSource(llvm::StringRef path);

// One call statement of a Fortran source, continuation lines joined.
struct FortranCall {
  std::string name;              // "MPI_Send" as written
  std::vector<std::string> args; // argument expressions, trimmed
  unsigned firstLine = 0, lastLine = 0;
  std::string text;              // the statement's lines as written
};

// The `call NAME(...)` statement that covers `line` of `source` (fixed
// form: continuation in column 6, code in columns 7-72; else free form);
// false when that statement holds no call of an MPI routine.
bool fortranCallAt(const std::string &source, unsigned line, bool fixed, FortranCall &out);

// p.status "none" with p.reason, p.suggestion and p.suggestionReplaces
// filled from the match's sites in p.original (the file's text).
void suggestFortran(const DetectedMatch &m, PatchPlan &p);

} // namespace cz::rewrite
