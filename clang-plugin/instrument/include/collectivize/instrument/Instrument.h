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

struct FileResult {
  std::string file;        // absolute path of the source (as in the command)
  bool parsed = false;     // false: Clang reported errors (already printed)
  std::vector<clangtools::FoundSite> sites;
  std::string instrumented; // the rewritten source (when parsed)
};

struct Options {
  // Project root ("" = per file: clangtools::defaultProjectRoot).
  std::string root;
};

// Runs Clang on each file with its command from db (argv[0] may be mpicc:
// see clangtools::mpiAwareAdjuster). One result per file, in order.
std::vector<FileResult> instrumentFiles(const clang::tooling::CompilationDatabase &db,
                                        const std::vector<std::string> &files,
                                        const Options &options);

// The instrumented text of a main file: a prelude declaring cz_trace_site
// weak, a #line directive back to originalPath, then original with each
// instrumented site's byte range [begin, end) wrapped as
// `(cz_instrument_site_(ID), <call>)`. Line numbers are unchanged.
std::string rewriteSource(llvm::StringRef original, llvm::StringRef originalPath,
                          const std::vector<clangtools::FoundSite> &sites);

// Every file compiles as `compiler flags... FILE` in directory.
std::unique_ptr<clang::tooling::CompilationDatabase>
fixedCommandDatabase(const std::string &directory, const std::string &compiler,
                     const std::vector<std::string> &flags);

std::vector<clangtools::Site> sitesOf(const std::vector<FileResult> &results);

} // namespace cz::instrument
