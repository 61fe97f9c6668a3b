// PeerIndexedBuffer.h: a send whose buffer (a receive whose buffer) is an
// address the call's peer chooses: `&a[i * n]` (a C array or pointer, or
// a container's operator[]), `a + i * n`, `rows[i]`, `&rows[i][0]`,
// `bufs[i]` sent to rank i. A root that sends each member
// its block so, from slices that do not tile one buffer (padded rows,
// separate allocations), leaves a trace with no scatter's layout; the
// source says the destination picks the block (the site database's
// "peer_indexed", read by the detector).
#pragma once

#include <string>
#include <vector>

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/LangOptions.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringRef.h"

#include "collectivize/clang/SiteDatabase.h"

namespace cz::clangtools {

// For a point-to-point send or receive `call` (not MPI_Sendrecv) in
// `function`: true and `out` filled when its buffer argument is one of the
// forms above, indexed by the peer argument itself (the same variable or
// expression, after parentheses and implicit casts) or by a local copy of
// it (`int dest = i;`, neither changed between the copy and the call).
// `args` are the call's arguments as the site records them (their text).
// False (out untouched) for any other buffer, and for a constant peer.
bool findPeerIndexedBuffer(const clang::CallExpr *call, llvm::StringRef callee,
                           const clang::FunctionDecl *function,
                           const std::vector<std::string> &args,
                           const clang::SourceManager &sm, const clang::LangOptions &lo,
                           PeerIndexed &out);

} // namespace cz::clangtools
