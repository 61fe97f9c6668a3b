// CallShapes.h: where buffer, count, datatype, peer and communicator sit in
// the arguments of each MPI point-to-point call, per side (a Sendrecv is a
// send and a receive).
#pragma once

#include <string>

#include "llvm/ADT/StringRef.h"

namespace clang {
class CallExpr;
class Expr;
} // namespace clang

namespace cz::rewrite {

struct MessageArgs {
  const clang::Expr *buffer = nullptr, *count = nullptr, *datatype = nullptr,
                    *peer = nullptr, *comm = nullptr;
  bool valid() const { return buffer && count && datatype && comm; }
};

// The send or receive side of call (callee e.g. "MPI_Isend"); invalid when
// the call has no such side or too few arguments.
MessageArgs messageArgs(const clang::CallExpr *call, llvm::StringRef callee, bool sendSide);

// MPI_Wait*, MPI_Test*, MPI_Request_free: completing requests the sites started.
bool isCompletionCall(llvm::StringRef callee);
// Queries with no effect on communication (rank, size, count, time, ...).
bool isHarmlessMpiQuery(llvm::StringRef callee);
// MPI point-to-point calls (sends, receives, probes, persistent starts).
bool isPointToPoint(llvm::StringRef callee);
// The point-to-point call call makes: its own callee, or the one the body
// of the function it calls makes (the program's own wrapper,
// `send_wrapper(buf, n, dest)`); "" when neither. With such a callee,
// messageArgs gives the wrapper's call's arguments as the caller names them.
std::string pointToPointCallee(const clang::CallExpr *call);

} // namespace cz::rewrite
