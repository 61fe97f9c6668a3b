// CallShapes.cpp: MPI-3 argument positions.
#include "collectivize/rewrite/CallShapes.h"

#include "clang/AST/Expr.h"
#include "llvm/ADT/StringSwitch.h"

#include "AstQueries.h"
#include "WrapperCalls.h"

namespace cz::rewrite {
namespace {

struct Layout {
  int buffer, count, datatype, peer, comm;
};
constexpr Layout kNone{-1, -1, -1, -1, -1};

Layout layoutOf(llvm::StringRef callee, bool sendSide) {
  // Send, Bsend, Ssend, Rsend and their I- and _init forms; Recv, Irecv, Recv_init.
  constexpr Layout plain{0, 1, 2, 3, 5};
  if (callee == "MPI_Sendrecv") return sendSide ? Layout{0, 1, 2, 3, 10} : Layout{5, 6, 7, 8, 10};
  if (callee == "MPI_Sendrecv_replace") return sendSide ? Layout{0, 1, 2, 3, 7} : Layout{0, 1, 2, 5, 7};
  bool sends = llvm::StringSwitch<bool>(callee)
                   .Cases("MPI_Send", "MPI_Bsend", "MPI_Ssend", "MPI_Rsend", true)
                   .Cases("MPI_Isend", "MPI_Ibsend", "MPI_Issend", "MPI_Irsend", true)
                   .Cases("MPI_Send_init", "MPI_Bsend_init", "MPI_Ssend_init", "MPI_Rsend_init", true)
                   .Default(false);
  bool receives = llvm::StringSwitch<bool>(callee)
                      .Cases("MPI_Recv", "MPI_Irecv", "MPI_Recv_init", true)
                      .Default(false);
  if ((sends && sendSide) || (receives && !sendSide)) return plain;
  return kNone;
}

} // namespace

MessageArgs messageArgs(const clang::CallExpr *call, llvm::StringRef callee, bool sendSide) {
  if (!call) return {};
  if (calleeName(call) != callee) {
    // A call of the program's own wrapper: its call's arguments as the
    // caller names them (invalid when one cannot be: wrapperProblem says why).
    MessageArgs in = messageArgs(wrappedCall(call, callee), callee, sendSide), out;
    if (!in.valid()) return out;
    out.buffer = atCaller(call, in.buffer);
    out.count = atCaller(call, in.count);
    out.datatype = atCaller(call, in.datatype);
    out.peer = atCaller(call, in.peer);
    out.comm = atCaller(call, in.comm);
    if (in.peer && !out.peer) out.comm = nullptr;
    return out;
  }
  Layout l = layoutOf(callee, sendSide);
  MessageArgs out;
  if (l.buffer < 0 || int(call->getNumArgs()) <= l.comm) return out;
  auto arg = [&](int i) { return call->getArg(unsigned(i)); };
  out.buffer = arg(l.buffer);
  out.count = arg(l.count);
  out.datatype = arg(l.datatype);
  out.peer = arg(l.peer);
  out.comm = arg(l.comm);
  return out;
}

bool isCompletionCall(llvm::StringRef callee) {
  return callee.startswith("MPI_Wait") || callee.startswith("MPI_Test") ||
         callee == "MPI_Request_free" || callee == "MPI_Start" || callee == "MPI_Startall";
}

bool isHarmlessMpiQuery(llvm::StringRef callee) {
  return llvm::StringSwitch<bool>(callee)
      .Cases("MPI_Comm_rank", "MPI_Comm_size", "MPI_Get_count", "MPI_Get_elements", true)
      .Cases("MPI_Type_size", "MPI_Type_get_extent", "MPI_Wtime", "MPI_Wtick", true)
      .Cases("cz_send_to_self", "cz_trace_site", "cz_instrument_site_", true)
      .Default(false);
}

bool isPointToPoint(llvm::StringRef callee) {
  return layoutOf(callee, true).buffer >= 0 || layoutOf(callee, false).buffer >= 0 ||
         callee == "MPI_Probe" || callee == "MPI_Iprobe" || callee == "MPI_Mprobe" ||
         callee == "MPI_Improbe" || callee == "MPI_Mrecv" || callee == "MPI_Imrecv";
}

std::string pointToPointCallee(const clang::CallExpr *call) {
  std::string name = calleeName(call);
  if (isPointToPoint(name)) return name;
  const clang::FunctionDecl *f = call->getDirectCallee();
  if (f) f = f->getDefinition();
  if (!f || !f->getBody()) return "";
  // One level down only: the program's own thin wrappers.
  std::string inner;
  for (const clang::Stmt *s : f->getBody()->children())
    forEachStmt(s, [&](const clang::Stmt *x) {
      if (const auto *c = llvm::dyn_cast<clang::CallExpr>(x); c && inner.empty() && isPointToPoint(calleeName(c)))
        inner = calleeName(c);
    });
  return inner;
}

} // namespace cz::rewrite
