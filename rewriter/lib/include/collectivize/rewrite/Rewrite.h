// Rewrite.h: from a detection report and the site database to one patch
// per match (rewriter/PATCH_FORMAT.md).
#pragma once

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "collectivize/rewrite/DetectionReport.h"
#include "collectivize/rewrite/Replacement.h"

namespace clang::tooling {
class CompilationDatabase;
}

namespace cz::rewrite {

struct PatchPlan {
  size_t match = 0;
  std::string id;      // "01-bcast"
  std::string kind;
  std::string status;  // proposed, review, none
  std::string reason;  // review/none: why
  // No patch because of the inputs, not the code: a malformed match, a site
  // missing from the database, a stale database, a file that cannot be
  // read or does not parse. The verb exits non-zero.
  bool failed = false;
  std::string file;    // root-relative
  std::string path;    // absolute
  unsigned begin = 0, end = 0; // replaced bytes
  unsigned beginLine = 0, beginColumn = 0, endLine = 0, endColumn = 0;
  std::string replacement;     // the text put at [begin, end)
  // Declarations of locals only the replaced code used, removed with it
  // (whole lines; `text` what stays of a declaration some of whose
  // variables are still used, "" when none): compilers that treat an
  // unused variable as an error (-Werror) build the patched file too
  // (DeadLocals.h).
  struct DeclarationEdit {
    unsigned from = 0, to = 0; // bytes replaced
    std::string text;          // what stays ("" : the lines go)
    std::string removed;       // the declaration as it was, for the notes
    std::string names;         // the variables removed ("mask, dst")
  };
  std::vector<DeclarationEdit> removedDeclarations;
  std::string call;            // the collective call alone
  std::vector<std::string> review, notes, kept;
  bool addInclude = false;     // #include "collectivize.h" at the top
  std::vector<size_t> fused;   // other matches this patch replaces too (one loop sent both)
  std::vector<std::string> collectives; // the MPI collectives the new code calls ("MPI_Allreduce")
  // Each call's output buffer, in call order; empty with effectWhyNot set
  // when one of them cannot be written down (verify then does not check it).
  std::vector<CallEffect> effects;
  std::string effectWhyNot;
  std::string original, patched; // whole file, before and after
  // A Fortran match (FortranSuggestion.h): no patch, but the collective
  // call suggested in place of these statements, to be checked by hand.
  struct ReplacedStatement {
    unsigned firstLine = 0, lastLine = 0;
    std::string text; // as written
  };
  std::string suggestion;
  std::vector<ReplacedStatement> suggestionReplaces;
};

struct RewriteInputs {
  const DetectionReport *report = nullptr;
  std::string sitesPath;   // site database
  std::string root;        // project root ("" : from the site database)
  clang::tooling::CompilationDatabase *compileDb = nullptr; // may be null
  std::vector<std::string> fallbackFlags; // compile flags when a file is not in compileDb
  Target target = Target::Mpi;
  bool progress = true;
  std::set<size_t> only; // --match: the matches to rewrite (1-based); empty: all
};

// One plan per match of the report, in report order. false + err when the
// inputs themselves are unusable (no site database, ...).
bool planPatches(const RewriteInputs &in, std::vector<PatchPlan> &out, std::string &projectRoot,
                 std::string &err);

// The `collectivize rewrite` verb.
int rewriteVerb(int argc, char **argv);

} // namespace cz::rewrite
