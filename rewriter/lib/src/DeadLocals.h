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

#include "collectivize/rewrite/Rewrite.h"
#include "collectivize/rewrite/SourceText.h"

namespace cz::rewrite {

// The declaration statements in the function holding `inside` whose
// variables only the replaced bytes [begin, end) use, each as an edit of
// its whole lines: removed when every variable it declares is so, or
// written again with the others when it declares several plain scalars
// of one type (`int rounds = 0, spare = 0;` -> `int rounds = 0;`). A
// variable counts when it is local, of a scalar (or array of scalars)
// type, initialised without side effects or not at all, referred to only
// inside [begin, end) or in the initializers of variables removed too
// (`int mask = 1; int step = mask << 1;`), and not named by the
// replacement text; the statement must be alone on its lines. Anything
// else is kept (an unused variable costs a warning, a removed one in use
// a build).
std::vector<PatchPlan::DeclarationEdit> deadDeclarations(clang::ASTContext &ctx, const SourceText &src,
                                                         const clang::Stmt *inside, unsigned begin,
                                                         unsigned end, const std::string &replacement);

} // namespace cz::rewrite
