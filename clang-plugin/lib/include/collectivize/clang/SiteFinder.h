// SiteFinder.h: finds the MPI call sites of a parsed translation unit, in
// source order, with their stable ids and source context, and says where
// each can be instrumented (a byte range of the main file to wrap).
#pragma once

#include <string>
#include <vector>

#include "collectivize/clang/SiteDatabase.h"
#include "llvm/ADT/StringRef.h"

namespace clang {
class ASTContext;
}

namespace cz::clangtools {

struct FinderOptions {
  // Absolute, symlink-free project root: only files under it hold sites, and
  // ids use paths relative to it.
  std::string root;
};

struct FoundSite {
  Site site;
  // When site.instrumented: bytes [begin, end) of the file wrapPath
  // (absolute; the main file or a project header) are the call, its macro
  // use, or its spelling in a #define: what to wrap.
  unsigned begin = 0, end = 0;
  std::string wrapPath;
  // site.callPath "caller": where in wrapPath the enclosing function's
  // definition begins (after any template parameter lists) and ends (just
  // after its closing brace), to mark it noinline, so that its return
  // address is its caller's.
  unsigned functionBegin = 0, functionEnd = 0;
  // Where the whole definition begins (before `template <...>`), for the
  // pragmas around it; 0 with quiet false: none (a member defined in its
  // class).
  unsigned functionOuter = 0;
  bool quiet = false;
};

// The project files (under root) other than the main file that the TU
// read: headers to copy beside an instrumented main file. Sorted by path.
struct ProjectFile {
  std::string absolute, relative;
  std::string spelled;  // as the preprocessor found it (include dir + name)
  llvm::StringRef text; // owned by the TU's SourceManager
};
std::vector<ProjectFile> projectHeaders(clang::ASTContext &ctx, const FinderOptions &options);

// Sites of the TU (main file and project headers), sorted by file and
// position, one per source location (template patterns, not instantiations).
std::vector<FoundSite> findSites(clang::ASTContext &ctx, const FinderOptions &options);

} // namespace cz::clangtools
