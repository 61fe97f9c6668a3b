// Instrument.h: parse source files with Clang, find their MPI call sites and
// produce instrumented copies that report each site's id to the tracer
// (cz_trace_site) just before the call. Used by `collectivize instrument`
// and by the compiler wrappers.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "collectivize/clang/SiteFinder.h"
#include "llvm/ADT/StringRef.h"

namespace clang::tooling {
class CompilationDatabase;
}

namespace cz::instrument {

// A copy to write beside the instrumented main file: every project header
// the TU read, rewritten if it holds sites, so that includes resolve within
// the copies as they did within the project.
struct HeaderCopy {
  std::string absolute, relative; // original; path below the root
  std::string spelled;             // as the preprocessor found it (for #line)
  std::string text;
  bool rewritten = false;          // holds instrumented sites
};

struct FileResult {
  std::string file;        // absolute path of the source (as in the command)
  std::string root;        // the project root used for it
  bool parsed = false;     // false: Clang reported errors (printed, or in `errors`)
  std::string errors;      // Options::captureErrors: Clang's diagnostics for this file
  std::vector<clangtools::FoundSite> sites;
  std::string instrumented; // the rewritten source (when parsed)
  uint64_t hash = 0;        // fnv1a64 of the source as parsed (when parsed)
  std::vector<HeaderCopy> headers;
};

struct Options {
  // Project root ("" = per file: clangtools::defaultProjectRoot).
  std::string root;
  // Keep Clang's diagnostics in FileResult::errors instead of printing
  // them (the compiler wrappers: the real compiler shows the user's errors,
  // once).
  bool captureErrors = false;
  // The site database the ids go to (absolute; "" = none): each
  // instrumented main file names it to the tracer before main
  // (cz_trace_sites_database), so the trace's manifest says where it is.
  std::string sitesDatabase;
};

// Runs Clang on each file with its command from db (argv[0] may be mpicc:
// see clangtools::mpiAwareAdjuster). One result per file, in order.
std::vector<FileResult> instrumentFiles(const clang::tooling::CompilationDatabase &db,
                                        const std::vector<std::string> &files,
                                        const Options &options);

// The instrumented text of a file: a prelude declaring cz_trace_site weak
// (guarded: main file and headers may all have one), a #line directive back
// to originalPath, then original with each instrumented site of that file
// (wrapPath == originalPath) wrapped as `(cz_instrument_site_(ID), <call>)`.
// Line numbers are unchanged. Without sites to wrap and with withPrelude
// false, only the #line directive is added. linePath (default originalPath)
// is the name written in #line: the path as the compiler was given it, so
// __FILE__ reads as it would in the original build. sitesDatabase (with
// the prelude): a constructor hands that path to the tracer
// (cz_trace_sites_database, weak like cz_trace_site).
std::string rewriteSource(llvm::StringRef original, llvm::StringRef originalPath,
                          const std::vector<clangtools::FoundSite> &sites,
                          bool withPrelude = true, llvm::StringRef linePath = "",
                          llvm::StringRef sitesDatabase = "");

// Include options naming a directory D under root get the copies' mirror
// of D searched first: `-I D` -> `-I MIRROR/<D below root> -I D`, the same
// for -iquote (also the joined -ID form). Relative D is against cwd.
std::vector<std::string> mirrorIncludeDirs(const std::vector<std::string> &args,
                                           const std::string &cwd, const std::string &root,
                                           const std::string &mirror);

// Every file compiles as `compiler flags... FILE` in directory, FILE
// spelled as in spellings when one of them names it (relative to directory).
std::unique_ptr<clang::tooling::CompilationDatabase>
fixedCommandDatabase(const std::string &directory, const std::string &compiler,
                     const std::vector<std::string> &flags,
                     const std::vector<std::string> &spellings = {});

std::vector<clangtools::Site> sitesOf(const std::vector<FileResult> &results);

} // namespace cz::instrument
