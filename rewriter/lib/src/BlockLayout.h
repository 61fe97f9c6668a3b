// BlockLayout.h: where a rooted collective's blocks sit in the root's
// buffer, and whether that buffer holds them all (private to the rewriter
// library). MPI_Gather and MPI_Scatter keep rank q's block at
// buffer + q * count; a program that keeps it elsewhere (one place
// further, in arrival order) or declares room for fewer blocks does
// something else, and the call would not do what it did.
#pragma once

#include <string>
#include <vector>

#include "Arguments.h"

namespace cz::rewrite {

// "" when every root-side site's buffer is `base + PEER * COUNT` (or
// `&base[PEER * COUNT]`, also through a pointer the region declares) with
// PEER the site's own peer and COUNT the chosen count; else why not.
std::string checkBlockPlacement(const ArgumentContext &c, const std::vector<MessageArgs> &rootSide,
                                const std::string &count, const std::string &what);

// "" unless `buffer`'s array is declared (with a constant size) smaller
// than `bytes`; then why the collective does not fit.
std::string checkExtent(const ArgumentContext &c, const clang::Expr *buffer, long long bytes,
                        const std::string &what);

} // namespace cz::rewrite
