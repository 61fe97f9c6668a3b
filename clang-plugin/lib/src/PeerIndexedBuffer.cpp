// PeerIndexedBuffer.cpp: see PeerIndexedBuffer.h. The buffer is taken
// apart on the AST (address-of, subscript, pointer addition, a product
// with the peer), so spacing, parentheses, casts and the way the peer is
// spelled do not matter; a form not listed leaves no record, which costs a
// hint, never a wrong one.
#include "collectivize/clang/PeerIndexedBuffer.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/FoldingSet.h"

#include "collectivize/clang/ExprText.h"
#include "collectivize/clang/PeerClass.h"

namespace cz::clangtools {

using namespace clang;

namespace {

// The buffer taken apart: `array` indexed by `index` (null: not a form
// this file knows).
struct Split {
  const char *layout = "";
  const Expr *array = nullptr, *index = nullptr;
};

// A subscript's element used as the buffer itself: a row of a
// multi-dimensional array or a pointer of an array of pointers.
const char *elementLayout(const ArraySubscriptExpr *a) {
  QualType t = a->getType();
  if (t->isArrayType()) return "row";
  if (t->isPointerType()) return "pointer";
  return "";
}

bool isZero(const Expr *e) {
  const auto *lit = dyn_cast<IntegerLiteral>(e->IgnoreParenImpCasts());
  return lit && lit->getValue() == 0;
}

Split splitBuffer(const Expr *buffer) {
  const Expr *e = buffer->IgnoreParenCasts();
  if (const auto *a = dyn_cast<ArraySubscriptExpr>(e)) // rows[p], bufs[p]
    return {elementLayout(a), a->getBase(), a->getIdx()};
  if (const auto *u = dyn_cast<UnaryOperator>(e); u && u->getOpcode() == UO_AddrOf) {
    const Expr *element = u->getSubExpr()->IgnoreParens();
    // &v[p * n] of a container (std::vector): its operator[].
    if (const auto *op = dyn_cast<CXXOperatorCallExpr>(element);
        op && op->getOperator() == OO_Subscript && op->getNumArgs() == 2)
      return {"offset", op->getArg(0), op->getArg(1)};
    const auto *a = dyn_cast<ArraySubscriptExpr>(element);
    if (!a) return {};
    // &rows[p][0]: the row's (the pointer's) first element.
    if (const auto *outer = dyn_cast<ArraySubscriptExpr>(a->getBase()->IgnoreParenImpCasts());
        outer && isZero(a->getIdx()))
      return {elementLayout(outer), outer->getBase(), outer->getIdx()};
    return {"offset", a->getBase(), a->getIdx()}; // &a[p * n]
  }
  if (const auto *b = dyn_cast<BinaryOperator>(e); b && b->getOpcode() == BO_Add) { // a + p * n
    bool lhsPointer = b->getLHS()->getType()->isPointerType();
    if (!lhsPointer && !b->getRHS()->getType()->isPointerType()) return {};
    return {"offset", lhsPointer ? b->getLHS() : b->getRHS(), lhsPointer ? b->getRHS() : b->getLHS()};
  }
  return {};
}

// Where variable v changes: assigned, stepped, or its address taken (then
// anything may change it), at or after `from` and before `to` (invalid
// locations: anywhere).
bool changedIn(const Stmt *s, const VarDecl *v, SourceLocation from, SourceLocation to,
               const SourceManager &sm) {
  if (!s) return false;
  const Expr *target = nullptr;
  if (const auto *b = dyn_cast<BinaryOperator>(s); b && b->isAssignmentOp())
    target = b->getLHS();
  if (const auto *u = dyn_cast<UnaryOperator>(s);
      u && (u->isIncrementDecrementOp() || u->getOpcode() == UO_AddrOf))
    target = u->getSubExpr();
  if (target && namedVariable(target) == v) {
    SourceLocation at = sm.getExpansionLoc(s->getBeginLoc());
    bool afterFrom = from.isInvalid() || !sm.isBeforeInTranslationUnit(at, from);
    bool beforeTo = to.isInvalid() || sm.isBeforeInTranslationUnit(at, to);
    if (afterFrom && beforeTo) return true;
  }
  for (const Stmt *c : s->children())
    if (changedIn(c, v, from, to, sm)) return true;
  return false;
}

class PeerMatch {
public:
  PeerMatch(const ASTContext &ctx, const Stmt *body, SourceLocation call)
      : ctx_(ctx), body_(body), call_(call), sm_(ctx.getSourceManager()) {}

  // "same", "copy", or "" when `index` is not shown to be the peer's value.
  const char *follows(const Expr *index, const Expr *peer) const {
    index = index->IgnoreParenCasts();
    peer = peer->IgnoreParenImpCasts();
    if (profile(index) == profile(peer)) return "same";
    const VarDecl *i = namedVariable(index), *p = namedVariable(peer);
    if (!i || !p) return "";
    const VarDecl *fromI = copiedFrom(i), *fromP = copiedFrom(p);
    if (fromI == p || fromP == i || (fromI && fromI == fromP)) return "copy";
    return "";
  }

private:
  llvm::FoldingSetNodeID profile(const Expr *e) const {
    llvm::FoldingSetNodeID id;
    e->Profile(id, ctx_, /*Canonical=*/true);
    return id;
  }

  // The variable a local copy `int dest = i;` was made from, when the copy
  // never changes and the original does not change between the copy and
  // the call: then both hold one value at the call.
  const VarDecl *copiedFrom(const VarDecl *v) const {
    if (!v->isLocalVarDecl() || !v->getInit()) return nullptr;
    const VarDecl *from = namedVariable(v->getInit());
    if (!from || from == v || changedIn(body_, v, {}, {}, sm_)) return nullptr;
    SourceLocation copied = sm_.getExpansionLoc(v->getLocation());
    if (changedIn(body_, from, copied, call_, sm_)) return nullptr;
    return from;
  }

  const ASTContext &ctx_;
  const Stmt *body_;
  SourceLocation call_;
  const SourceManager &sm_;
};

bool isDependent(const Expr *e) {
  return e->isTypeDependent() || e->isValueDependent() || e->containsUnexpandedParameterPack();
}

} // namespace

bool findPeerIndexedBuffer(const CallExpr *call, llvm::StringRef callee, const FunctionDecl *function,
                           const std::vector<std::string> &args, const SourceManager &sm,
                           const LangOptions &lo, PeerIndexed &out) {
  if (callee.contains("Sendrecv") || !function || !function->getBody()) return false;
  std::vector<unsigned> peers = peerArguments(callee);
  if (peers.size() != 1 || peers[0] >= call->getNumArgs() || peers[0] >= args.size() || args.empty())
    return false;
  const Expr *buffer = call->getArg(0), *peer = call->getArg(peers[0]);
  if (isDependent(buffer) || isDependent(peer)) return false; // a template's pattern
  const ASTContext &ctx = function->getASTContext();
  // A constant peer (0, MPI_ANY_SOURCE, ROOT): one message there, which
  // no member chooses.
  if (peer->isIntegerConstantExpr(ctx) || peer->HasSideEffects(ctx)) return false;
  // The parts, not the whole buffer: a container's operator[] is a call.
  Split split = splitBuffer(buffer);
  if (!split.array || !*split.layout || split.array->HasSideEffects(ctx) ||
      split.index->HasSideEffects(ctx))
    return false;
  PeerMatch match(ctx, function->getBody(), sm.getExpansionLoc(call->getBeginLoc()));
  // The index is the peer (stride 1) or the peer times a stride.
  const Expr *term = split.index, *stride = nullptr;
  const char *follows = match.follows(term, peer);
  const auto *product = dyn_cast<BinaryOperator>(split.index->IgnoreParenCasts());
  if (!*follows && product && product->getOpcode() == BO_Mul) {
    const Expr *lhs = product->getLHS(), *rhs = product->getRHS();
    if (*(follows = match.follows(lhs, peer))) term = lhs, stride = rhs;
    else if (*(follows = match.follows(rhs, peer))) term = rhs, stride = lhs;
  }
  if (!*follows) return false;
  out.layout = split.layout;
  out.buffer = args[0];
  out.array = exprText(split.array->IgnoreParenImpCasts(), sm, lo);
  out.index = exprText(term->IgnoreParenImpCasts(), sm, lo);
  out.stride = stride ? exprText(stride->IgnoreParenImpCasts(), sm, lo) : "1";
  out.peer = args[peers[0]];
  out.follows = follows;
  return true;
}

} // namespace cz::clangtools
