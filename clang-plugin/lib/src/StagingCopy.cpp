// StagingCopy.cpp: see StagingCopy.h. Only the two plain forms real codes
// write are recognised (a memcpy/memmove, a one-statement element loop);
// anything else leaves the site without a staging record, which costs a
// hint, never a wrong one.
#include "collectivize/clang/StagingCopy.h"

#include "clang/AST/Decl.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/SmallPtrSet.h"

#include "collectivize/clang/ExprText.h"
#include "collectivize/clang/PeerClass.h"

namespace cz::clangtools {

using namespace clang;

namespace {

const VarDecl *varOf(const Expr *e) {
  if (!e) return nullptr;
  e = e->IgnoreParenCasts();
  // &tmp[0] names tmp as well.
  if (const auto *u = dyn_cast<UnaryOperator>(e); u && u->getOpcode() == UO_AddrOf)
    if (const auto *a = dyn_cast<ArraySubscriptExpr>(u->getSubExpr()->IgnoreParens()))
      if (const auto *lit = dyn_cast<IntegerLiteral>(a->getIdx()->IgnoreParenImpCasts());
          lit && lit->getValue() == 0)
        e = a->getBase()->IgnoreParenCasts();
  return namedVariable(e);
}

bool isCopyCall(const CallExpr *c) {
  const FunctionDecl *f = c->getDirectCallee();
  if (!f || !f->getIdentifier() || c->getNumArgs() != 3) return false;
  llvm::StringRef n = f->getName();
  return n == "memcpy" || n == "memmove" || n == "__builtin_memcpy" || n == "__builtin_memmove";
}

// The one statement of a loop body (`{ s; }` or `s`), if it is an assignment.
const BinaryOperator *singleAssignment(const Stmt *body) {
  if (const auto *c = dyn_cast_or_null<CompoundStmt>(body)) {
    if (c->size() != 1) return nullptr;
    body = c->body_front();
  }
  const auto *b = dyn_cast_or_null<BinaryOperator>(body);
  return b && b->getOpcode() == BO_Assign ? b : nullptr;
}

struct Candidate {
  const Stmt *copy = nullptr;
  const char *form = "";
  const Expr *array = nullptr, *offset = nullptr; // offset null: 0
  const VarDecl *elementVar = nullptr;            // the element loop's variable
};

class Search {
public:
  Search(const VarDecl *buffer, bool send) : buffer_(buffer), send_(send) {}
  std::vector<Candidate> found;

  void walk(const Stmt *s) {
    if (!s) return;
    if (const auto *c = dyn_cast<CallExpr>(s); c && isCopyCall(c)) {
      // memcpy(dst, src, n): a send's buffer is the destination.
      const Expr *mine = c->getArg(send_ ? 0 : 1), *other = c->getArg(send_ ? 1 : 0);
      if (varOf(mine) == buffer_) found.push_back(split(c, "memcpy", other));
    }
    if (const auto *f = dyn_cast<ForStmt>(s))
      if (const BinaryOperator *a = singleAssignment(f->getBody())) {
        const auto *lhs = dyn_cast<ArraySubscriptExpr>(a->getLHS()->IgnoreParenImpCasts());
        const auto *rhs = dyn_cast<ArraySubscriptExpr>(a->getRHS()->IgnoreParenImpCasts());
        const ArraySubscriptExpr *mine = send_ ? lhs : rhs, *other = send_ ? rhs : lhs;
        if (mine && other && varOf(mine->getBase()) == buffer_) {
          Candidate c{f, "loop", other->getBase()->IgnoreParenImpCasts(), other->getIdx(),
                      forLoopVariable(f)};
          found.push_back(c);
        }
      }
    for (const Stmt *c : s->children()) walk(c);
  }

private:
  // `all + off`, `off + all`, `&all[off]`, `all`.
  static Candidate split(const Stmt *copy, const char *form, const Expr *other) {
    Candidate c{copy, form, other->IgnoreParenCasts(), nullptr, nullptr};
    const Expr *e = c.array;
    if (const auto *b = dyn_cast<BinaryOperator>(e); b && b->getOpcode() == BO_Add) {
      bool lhsPointer = b->getLHS()->getType()->isPointerType();
      c.array = (lhsPointer ? b->getLHS() : b->getRHS())->IgnoreParenImpCasts();
      c.offset = lhsPointer ? b->getRHS() : b->getLHS();
    } else if (const auto *u = dyn_cast<UnaryOperator>(e); u && u->getOpcode() == UO_AddrOf) {
      if (const auto *a = dyn_cast<ArraySubscriptExpr>(u->getSubExpr()->IgnoreParens())) {
        c.array = a->getBase()->IgnoreParenImpCasts();
        c.offset = a->getIdx();
      }
    }
    return c;
  }

  const VarDecl *buffer_;
  bool send_;
};

// What the offset follows (StagingCopy::offsetFrom).
struct OffsetTerms {
  bool source = false, peer = false, loop = false;
};
void offsetTerms(const Stmt *s, const VarDecl *peer, const VarDecl *element,
                 const llvm::SmallPtrSetImpl<const VarDecl *> &induction, OffsetTerms &out) {
  if (!s) return;
  if (const auto *m = dyn_cast<MemberExpr>(s))
    if (const auto *id = m->getMemberDecl()->getIdentifier(); id && id->getName() == "MPI_SOURCE")
      out.source = true;
  if (const auto *r = dyn_cast<DeclRefExpr>(s))
    if (const auto *v = dyn_cast<VarDecl>(r->getDecl()); v && v != element) {
      if (v == peer) out.peer = true;
      if (induction.count(v)) out.loop = true;
    }
  for (const Stmt *c : s->children()) offsetTerms(c, peer, element, induction, out);
}

} // namespace

bool findStagingCopy(const CallExpr *call, llvm::StringRef callee,
                     llvm::ArrayRef<const Stmt *> enclosing, const SourceManager &sm,
                     const LangOptions &lo, StagingCopy &out) {
  if (callee.contains("Sendrecv") || call->getNumArgs() < 4) return false;
  bool send = callee.contains("send") || callee.contains("Send");
  if (!send && !callee.contains("recv") && !callee.contains("Recv")) return false;
  const VarDecl *buffer = varOf(call->getArg(0));
  if (!buffer || !buffer->isLocalVarDecl()) return false;
  const Stmt *loop = nullptr;
  llvm::SmallPtrSet<const VarDecl *, 8> induction;
  for (const Stmt *s : enclosing) {
    if (isa<ForStmt>(s) || isa<WhileStmt>(s) || isa<DoStmt>(s) || isa<CXXForRangeStmt>(s))
      loop = s;
    if (const auto *f = dyn_cast<ForStmt>(s))
      if (const VarDecl *v = forLoopVariable(f)) induction.insert(v);
  }
  if (!loop) return false;
  Search search(buffer, send);
  search.walk(loop);
  // The last fill before a send, the first copy out after a receive.
  SourceLocation at = sm.getExpansionLoc(call->getBeginLoc());
  const Candidate *best = nullptr;
  for (const Candidate &c : search.found) {
    SourceLocation l = sm.getExpansionLoc(c.copy->getBeginLoc());
    if (sm.isBeforeInTranslationUnit(l, at) != send) continue;
    SourceLocation b = best ? sm.getExpansionLoc(best->copy->getBeginLoc()) : SourceLocation();
    if (!best || sm.isBeforeInTranslationUnit(b, l) == send) best = &c;
  }
  if (!best) return false;
  const VarDecl *peer = nullptr;
  std::vector<unsigned> peers = peerArguments(callee);
  if (!peers.empty() && peers[0] < call->getNumArgs()) peer = varOf(call->getArg(peers[0]));
  OffsetTerms terms;
  offsetTerms(best->offset, peer, best->elementVar, induction, terms);
  SourceLocation l = sm.getExpansionLoc(best->copy->getBeginLoc());
  out.copy = best->form;
  out.at = {sm.getExpansionLineNumber(l), sm.getExpansionColumnNumber(l)};
  out.buffer = exprText(call->getArg(0)->IgnoreParenImpCasts(), sm, lo);
  out.array = exprText(best->array, sm, lo);
  out.offset = best->offset ? exprText(best->offset, sm, lo) : "0";
  out.offsetFrom = terms.source ? "source" : terms.peer ? "peer" : terms.loop ? "loop" : "other";
  return true;
}

} // namespace cz::clangtools
