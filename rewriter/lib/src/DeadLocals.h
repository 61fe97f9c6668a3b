// DeadLocals.h: the declarations a patch leaves without a use. The
// replaced code was often the only user of its loop's helpers (`int mask =
// 1, dst, src;` of a dissemination loop): left behind, they are unused
// variables, which a build with -Werror refuses. Private to the rewriter
// library.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"

#include "collectivize/rewrite/SourceText.h"

namespace cz::rewrite {

// Byte ranges (whole lines) of the declaration statements in the function
// holding `inside` that only the replaced bytes [begin, end) use: every
// variable they declare is local, of a scalar (or array of scalars) type,
// initialised without side effects or not at all, referred to only inside
// [begin, end), and not named by the replacement text; the statement is
// alone on its lines. Anything else is kept (an unused variable costs a
// warning, a removed one in use a build).
std::vector<std::pair<unsigned, unsigned>> deadDeclarations(clang::ASTContext &ctx, const SourceText &src,
                                                            const clang::Stmt *inside, unsigned begin,
                                                            unsigned end, const std::string &replacement);

} // namespace cz::rewrite
