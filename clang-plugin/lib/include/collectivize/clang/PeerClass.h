// PeerClass.h: how a point-to-point call's peer argument is computed, so
// that the detector can tell an exchange with every rank (a loop over the
// communicator's ranks) from one with neighbours that, at a small process
// count, happen to be every rank (a neighbour list, left/right).
#pragma once

#include <vector>

#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

namespace cz::clangtools {

// Indices of the arguments naming a peer rank: the destination of a send,
// the source of a receive or probe; Sendrecv has both (destination first).
std::vector<unsigned> peerArguments(llvm::StringRef callee);

// How the peer is computed, from the argument's AST and the statements
// enclosing the call (outermost first):
//   "any"        MPI_ANY_SOURCE
//   "table"      read from an array or a structure (a neighbour list)
//   "call"       the result of a function call
//   "loop"       computed from a for loop's induction variable
//   "parameter"  a parameter of the enclosing function itself (the caller
//                decides: `to`, `root`)
//   "rank"       computed from variables only (me + 1, left, a partner
//                variable not set from a loop)
//   "constant"   a constant (0, ROOT)
const char *classifyPeer(const clang::Expr *peer, llvm::StringRef spelled,
                         llvm::ArrayRef<const clang::Stmt *> enclosing);

} // namespace cz::clangtools
