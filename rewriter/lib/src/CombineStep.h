// CombineStep.h: how the program combines what it receives (private to the
// rewriter library): the MPI_Op of a combine step (`sum += in` is MPI_SUM).
// A ring that combines each block as it arrives is RingCombine.h's.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "clang/AST/Decl.h"
#include "clang/AST/OperationKinds.h"
#include "clang/AST/Stmt.h"

#include "collectivize/rewrite/SourceText.h"

namespace cz::rewrite {

// The MPI_Op of a C operator (`+`, `+=`: MPI_SUM; `&&`: MPI_LAND); "" for
// one with no MPI_Op.
std::string mpiOpOf(clang::BinaryOperatorKind k);

// The one operation the statements combine into `acc` with: `acc += x`,
// `acc[i] = acc[i] * x[i]`, `acc = fmax(acc, x)`, `a > b ? a : b`,
// `if (x > acc) acc = x`; "" when none or several.
std::string combineOp(const SourceText &src, const std::vector<const clang::Stmt *> &patterns,
                      const std::set<const clang::VarDecl *> &acc);

} // namespace cz::rewrite
