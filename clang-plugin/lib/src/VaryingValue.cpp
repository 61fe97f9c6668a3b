// VaryingValue.cpp: see VaryingValue.h. Which variables vary from one
// iteration of the loop to the next is a small fixed point over the loop's
// assignments: the induction variables and the call's peer vary; so does a
// variable set from one that varies, or from itself (a running offset). A
// form not followed (a variable set through a pointer, by a call) leaves
// the site without a record: that costs a hint, never a wrong one.
#include "collectivize/clang/VaryingValue.h"

#include <map>
#include <vector>

#include "clang/AST/Decl.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Lex/Lexer.h"

#include "collectivize/clang/ExprText.h"
#include "collectivize/clang/PeerClass.h"

namespace cz::clangtools {

using namespace clang;

namespace {

// One place the loop sets a variable: `v = rhs`, `v op= rhs`, `v++`, or a
// declaration's initialiser. self: from its own value (`v += n`, `v = v +
// n`), which changes it every iteration the assignment runs.
struct Setting {
  const VarDecl *var = nullptr;
  const Stmt *stmt = nullptr;
  const Expr *rhs = nullptr; // null for ++/--
  bool self = false;         // the new value is computed from the old
};

bool reads(const Stmt *s, const VarDecl *v) {
  if (!s) return false;
  if (const auto *r = dyn_cast<DeclRefExpr>(s); r && r->getDecl() == v) return true;
  for (const Stmt *c : s->children())
    if (reads(c, v)) return true;
  return false;
}

void collectSettings(const Stmt *s, std::vector<Setting> &out) {
  if (!s) return;
  if (const auto *b = dyn_cast<BinaryOperator>(s); b && b->isAssignmentOp())
    if (const VarDecl *v = namedVariable(b->getLHS()))
      out.push_back({v, b, b->getRHS(), b->isCompoundAssignmentOp() || reads(b->getRHS(), v)});
  if (const auto *u = dyn_cast<UnaryOperator>(s); u && u->isIncrementDecrementOp())
    if (const VarDecl *v = namedVariable(u->getSubExpr())) out.push_back({v, u, nullptr, true});
  if (const auto *d = dyn_cast<DeclStmt>(s))
    for (const Decl *x : d->decls())
      if (const auto *v = dyn_cast<VarDecl>(x); v && v->getInit()) out.push_back({v, d, v->getInit(), false});
  for (const Stmt *c : s->children()) collectSettings(c, out);
}

// The reason the first varying variable e reads varies ("" when it reads
// none).
std::string readsVarying(const Stmt *s, const std::map<const VarDecl *, std::string> &varying) {
  if (!s) return "";
  if (const auto *r = dyn_cast<DeclRefExpr>(s))
    if (const auto *v = dyn_cast<VarDecl>(r->getDecl()))
      if (auto it = varying.find(v); it != varying.end()) return it->second;
  for (const Stmt *c : s->children())
    if (std::string why = readsVarying(c, varying); !why.empty()) return why;
  return "";
}

std::string statementText(const Stmt *s, const SourceManager &sm, const LangOptions &lo) {
  CharSourceRange r = Lexer::makeFileCharRange(CharSourceRange::getTokenRange(s->getSourceRange()), sm, lo);
  std::string text = r.isValid() ? Lexer::getSourceText(r, sm, lo).str() : "";
  std::string flat;
  for (char c : text) {
    if (c == '\n' || c == '\t' || c == '\r') c = ' ';
    if (c == ' ' && !flat.empty() && flat.back() == ' ') continue;
    flat += c;
  }
  while (!flat.empty() && (flat.back() == ';' || flat.back() == ' ')) flat.pop_back();
  return flat;
}

} // namespace

bool findVaryingValue(const CallExpr *call, llvm::StringRef callee, llvm::ArrayRef<const Stmt *> enclosing,
                      const SourceManager &sm, const LangOptions &lo, VaryingValue &out) {
  if (callee.contains("Sendrecv") || call->getNumArgs() < 4) return false;
  if (!callee.contains("send") && !callee.contains("Send")) return false;
  const auto *addr = dyn_cast<UnaryOperator>(call->getArg(0)->IgnoreParenCasts());
  if (!addr || addr->getOpcode() != UO_AddrOf) return false;
  const VarDecl *x = namedVariable(addr->getSubExpr());
  if (!x || !x->getType()->isScalarType()) return false;
  const Stmt *loop = nullptr;
  std::map<const VarDecl *, std::string> varying;
  for (const Stmt *s : enclosing) {
    if (isa<ForStmt>(s) || isa<WhileStmt>(s) || isa<DoStmt>(s) || isa<CXXForRangeStmt>(s)) loop = s;
    if (const auto *f = dyn_cast<ForStmt>(s))
      if (const VarDecl *v = forLoopVariable(f)) varying[v] = "loop";
  }
  if (!loop) return false;
  std::vector<unsigned> peers = peerArguments(callee);
  if (!peers.empty() && peers[0] < call->getNumArgs())
    if (const VarDecl *peer = namedVariable(call->getArg(peers[0]))) varying[peer] = "peer";
  std::vector<Setting> settings;
  collectSettings(loop, settings);
  // Until nothing more varies (each pass adds a variable or stops).
  for (bool grew = true; grew;) {
    grew = false;
    for (const Setting &s : settings) {
      if (varying.count(s.var)) continue;
      std::string why = s.self ? "self" : readsVarying(s.rhs, varying);
      if (why.empty()) continue;
      varying[s.var] = why;
      grew = true;
    }
  }
  auto it = varying.find(x);
  if (it == varying.end()) return false;
  // The assignment that shows it: the last before the call, else the
  // first after (a running offset advanced at the end of the body).
  SourceLocation at = sm.getExpansionLoc(call->getBeginLoc());
  const Setting *before = nullptr, *after = nullptr;
  for (const Setting &s : settings) {
    if (s.var != x || (!s.self && readsVarying(s.rhs, varying).empty())) continue;
    SourceLocation l = sm.getExpansionLoc(s.stmt->getBeginLoc());
    if (sm.isBeforeInTranslationUnit(l, at)) before = &s;
    else if (!after) after = &s;
  }
  const Setting *shown = before ? before : after;
  if (!shown) return false; // x is the induction or peer variable itself: sent as such
  SourceLocation l = sm.getExpansionLoc(shown->stmt->getBeginLoc());
  out.variable = x->getNameAsString();
  out.at = {sm.getExpansionLineNumber(l), sm.getExpansionColumnNumber(l)};
  out.assignment = statementText(shown->stmt, sm, lo);
  out.follows = shown->self ? "self" : readsVarying(shown->rhs, varying);
  return true;
}

} // namespace cz::clangtools
