// SiteFinder.h: finds the MPI call sites of a parsed translation unit, in
// source order, with their stable ids and source context, and says where
// each can be instrumented (a byte range of the main file to wrap).
#pragma once

#include <string>
#include <vector>

#include "collectivize/clang/SiteDatabase.h"

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
  // When site.instrumented: the main file's bytes [begin, end) are the call
  // (or its macro use, or its spelling in a #define) to wrap.
  unsigned begin = 0, end = 0;
};

// Sites of the TU (main file and project headers), sorted by file and
// position, one per source location (template patterns, not instantiations).
std::vector<FoundSite> findSites(clang::ASTContext &ctx, const FinderOptions &options);

} // namespace cz::clangtools
