// Region.cpp: pattern statements, their common region, kept work.
#include "collectivize/rewrite/Region.h"

#include <algorithm>
#include <cctype>
#include <functional>

#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Lex/Lexer.h"

#include "collectivize/rewrite/CallShapes.h"

namespace cz::rewrite {

using namespace clang;

// ---- source text ---------------------------------------------------------

SourceText::SourceText(ASTContext &c, Preprocessor *p)
    : ctx(c), pp(p), sm(c.getSourceManager()), file(sm.getMainFileID()),
      buffer(sm.getBufferData(sm.getMainFileID())) {}

// A range that is a whole macro use (`BLOCK`) or lies in a macro argument
// reads as written at the use; one inside a macro's body (`buf` in
// `#define SEND_TO(q) MPI_Send(buf, ...)`) as spelled in the #define, which
// names the same thing at the use.
std::string SourceText::of(SourceRange range, const Stmt *printable) const {
  const LangOptions &lo = ctx.getLangOpts();
  CharSourceRange file = Lexer::makeFileCharRange(CharSourceRange::getTokenRange(range), sm, lo);
  if (file.isValid()) return Lexer::getSourceText(file, sm, lo).str();
  // Up the chain of nested expansions to the outermost macro's body
  // (MPI_COMM_WORLD is itself a macro in Open MPI's mpi.h).
  auto outermostBody = [&](SourceLocation l) {
    while (l.isMacroID()) {
      SourceLocation up = sm.getImmediateExpansionRange(l).getBegin();
      if (!up.isMacroID()) break;
      l = up;
    }
    return sm.getSpellingLoc(l);
  };
  SourceLocation b = outermostBody(range.getBegin()), e = outermostBody(range.getEnd());
  // The AST's own rendering: right, but with every macro expanded.
  std::string printed;
  if (const Stmt *s = printable) {
    llvm::raw_string_ostream os(printed);
    s->printPretty(os, nullptr, PrintingPolicy(lo));
  }
  if (sm.getFileID(b) == sm.getFileID(e) && sm.getFileOffset(b) <= sm.getFileOffset(e)) {
    std::string spelled = Lexer::getSourceText(CharSourceRange::getTokenRange(b, e), sm, lo).str();
    // Spelled in the #define: fine unless it names a macro parameter (an
    // identifier that is neither in the expression nor a macro).
    bool ok = true;
    for (size_t i = 0; i < spelled.size() && ok;) {
      if (std::isalpha((unsigned char)spelled[i]) || spelled[i] == '_') {
        size_t j = i;
        while (j < spelled.size() && (std::isalnum((unsigned char)spelled[j]) || spelled[j] == '_')) j++;
        std::string id = spelled.substr(i, j - i);
        bool inPrinted = printed.empty() || printed.find(id) != std::string::npos;
        bool isMacro = pp && pp->isMacroDefined(id);
        ok = inPrinted || isMacro;
        i = j;
      } else {
        i++;
      }
    }
    if (ok || printed.empty()) return spelled;
    return printed;
  }
  if (!printed.empty()) return printed;
  CharSourceRange r = CharSourceRange::getTokenRange(sm.getExpansionRange(range.getBegin()).getBegin(),
                                                     sm.getExpansionRange(range.getEnd()).getEnd());
  return Lexer::getSourceText(r, sm, lo).str();
}

unsigned SourceText::offset(SourceLocation loc) const {
  return sm.getFileOffset(sm.getExpansionLoc(loc));
}

unsigned SourceText::endOffset(const Stmt *s) const {
  SourceLocation last = sm.getExpansionRange(s->getEndLoc()).getEnd();
  unsigned end = sm.getFileOffset(Lexer::getLocForEndOfToken(last, 0, sm, ctx.getLangOpts()));
  unsigned i = end;
  while (i < buffer.size() && (buffer[i] == ' ' || buffer[i] == '\t')) i++;
  return i < buffer.size() && buffer[i] == ';' ? i + 1 : end;
}

unsigned SourceText::line(SourceLocation loc) const {
  return sm.getExpansionLineNumber(loc);
}

std::string SourceText::between(unsigned begin, unsigned end) const {
  if (end <= begin || end > buffer.size()) return "";
  return buffer.substr(begin, end - begin).str();
}

unsigned SourceText::lineStart(unsigned off) const {
  while (off > 0 && buffer[off - 1] != '\n') off--;
  return off;
}

std::string SourceText::lineIndent(unsigned off) const {
  unsigned s = lineStart(off), e = s;
  while (e < buffer.size() && (buffer[e] == ' ' || buffer[e] == '\t')) e++;
  return buffer.substr(s, e - s).str();
}

// ---- small AST helpers ---------------------------------------------------

const Expr *strip(const Expr *e) {
  while (e) {
    e = e->IgnoreParenImpCasts();
    if (const auto *c = dyn_cast<CStyleCastExpr>(e)) {
      e = c->getSubExpr();
      continue;
    }
    if (const auto *c = dyn_cast<CXXNamedCastExpr>(e)) {
      e = c->getSubExpr();
      continue;
    }
    break;
  }
  return e;
}

namespace {

void forEachStmt(const Stmt *s, const std::function<void(const Stmt *)> &fn) {
  if (!s) return;
  fn(s);
  for (const Stmt *c : s->children()) forEachStmt(c, fn);
}

void declaredIn(const Stmt *s, std::set<const VarDecl *> &out) {
  forEachStmt(s, [&](const Stmt *x) {
    if (const auto *ds = dyn_cast<DeclStmt>(x))
      for (const Decl *d : ds->decls())
        if (const auto *v = dyn_cast<VarDecl>(d)) out.insert(v);
    if (const auto *fr = dyn_cast<CXXForRangeStmt>(x)) out.insert(fr->getLoopVariable());
  });
}

bool isLoop(const Stmt *s) {
  return isa<ForStmt>(s) || isa<WhileStmt>(s) || isa<DoStmt>(s) || isa<CXXForRangeStmt>(s);
}

// Variables an assignment, ++/-- or compound assignment writes: `x = ..` -> x.
const VarDecl *assignedVar(const Stmt *s, const Expr **lhsOut = nullptr) {
  const Expr *lhs = nullptr;
  if (const auto *b = dyn_cast<BinaryOperator>(s)) {
    if (b->isAssignmentOp()) lhs = b->getLHS();
  } else if (const auto *u = dyn_cast<UnaryOperator>(s)) {
    if (u->isIncrementDecrementOp()) lhs = u->getSubExpr();
  } else if (const auto *op = dyn_cast<CXXOperatorCallExpr>(s)) {
    if (op->isAssignmentOp() && op->getNumArgs() > 0) lhs = op->getArg(0);
  }
  if (lhsOut) *lhsOut = lhs;
  if (!lhs) return nullptr;
  if (const auto *d = dyn_cast<DeclRefExpr>(strip(lhs))) return dyn_cast<VarDecl>(d->getDecl());
  return nullptr;
}

} // namespace

bool mentions(const Stmt *s, const std::set<const VarDecl *> &vars) {
  bool found = false;
  forEachStmt(s, [&](const Stmt *x) {
    if (const auto *d = dyn_cast<DeclRefExpr>(x))
      if (const auto *v = dyn_cast<VarDecl>(d->getDecl())) found = found || vars.count(v);
  });
  return found;
}

const VarDecl *referencedVar(const Expr *e) {
  e = strip(e);
  while (e) {
    if (const auto *d = dyn_cast<DeclRefExpr>(e)) return dyn_cast<VarDecl>(d->getDecl());
    if (const auto *u = dyn_cast<UnaryOperator>(e)) {
      e = strip(u->getSubExpr());
    } else if (const auto *a = dyn_cast<ArraySubscriptExpr>(e)) {
      e = strip(a->getBase());
    } else if (const auto *m = dyn_cast<MemberExpr>(e)) {
      e = strip(m->getBase());
    } else if (const auto *b = dyn_cast<BinaryOperator>(e); b && b->isAdditiveOp()) {
      e = strip(b->getLHS()->getType()->isPointerType() ? b->getLHS() : b->getRHS());
    } else {
      return nullptr;
    }
  }
  return nullptr;
}

std::string indentLines(const std::string &t) {
  std::string out = "  ";
  for (char c : t) {
    out += c;
    if (c == '\n') out += "  ";
  }
  return out;
}

std::string calleeName(const CallExpr *call) {
  if (const FunctionDecl *f = call->getDirectCallee()) return f->getNameAsString();
  // In a template, a call with dependent arguments is not resolved yet.
  if (const auto *u = dyn_cast<UnresolvedLookupExpr>(call->getCallee()->IgnoreParenImpCasts()))
    return u->getName().getAsString();
  return "";
}

namespace {

class Planner {
public:
  Planner(const SourceText &src, const RegionRequest &req) : src(src), req(req) {}

  RegionPlan run() {
    RegionPlan plan;
    if (req.calls.empty()) return fail(plan, "no call site of the match was found in the source");
    // Every site in one function.
    for (const CallExpr *c : req.calls) {
      const FunctionDecl *f = enclosingFunction(c);
      if (!f) return fail(plan, "a site is not inside a function body");
      if (plan.function && f != plan.function)
        return fail(plan, "the sites are in several functions (" + plan.function->getNameAsString() +
                              ", " + f->getNameAsString() +
                              "): a collective spread over functions is not rewritten automatically");
      plan.function = f;
    }
    body = plan.function->getBody();
    for (const VarDecl *v : outVariables("MPI_Comm_rank")) plan.rankVariables.push_back(v);
    sizeVariables = outVariables("MPI_Comm_size");

    findWrapperMacro(plan);
    for (const CallExpr *c : req.calls) {
      const Stmt *p = patternOf(c);
      if (std::find(plan.patterns.begin(), plan.patterns.end(), p) == plan.patterns.end())
        plan.patterns.push_back(p);
    }
    // Nested patterns: keep the outer one.
    std::vector<const Stmt *> outer;
    for (const Stmt *p : plan.patterns) {
      bool inside = false;
      for (const Stmt *q : plan.patterns)
        if (q != p && isAncestor(q, p)) inside = true;
      if (!inside) outer.push_back(p);
    }
    plan.patterns = outer;
    patterns = std::set<const Stmt *>(outer.begin(), outer.end());
    addCompletions(plan);

    // The region: the lowest common ancestor, or a slice of a block.
    const Stmt *lca = commonAncestor(plan.patterns);
    if (!lca) return fail(plan, "the sites have no common enclosing statement");
    std::vector<const Stmt *> slice;
    if (const auto *block = dyn_cast<CompoundStmt>(lca); block && !patterns.count(lca)) {
      std::vector<const Stmt *> kids(block->body_begin(), block->body_end());
      int first = -1, last = -1;
      for (int i = 0; i < int(kids.size()); i++)
        if (containsPattern(kids[size_t(i)])) {
          if (first < 0) first = i;
          last = i;
        }
      slice.assign(kids.begin() + first, kids.begin() + last + 1);
    } else {
      slice.push_back(lca);
    }
    for (const Stmt *s : slice) declaredIn(s, plan.regionLocals);
    plan.begin = src.offset(slice.front()->getBeginLoc());
    plan.end = src.endOffset(slice.back());
    for (const Stmt *p = parentOf(slice.front()); p && p != body && !enclosingLoop; p = parentOf(p))
      if (isLoop(p)) enclosingLoop = p;

    // Split the region into the pattern and the work around it.
    Pieces pieces;
    if (slice.size() == 1 && !patterns.count(slice.front())) {
      if (!split(slice.front(), pieces, plan)) return plan;
    } else {
      if (!splitSequence(slice, nullptr, pieces, plan)) return plan;
    }
    plan.before = pieces.before;
    plan.after = pieces.after;
    for (const Stmt *p : patterns) checkPattern(p, plan);
    if (!plan.whyNot.empty()) return plan;
    collectRootCandidates(lca, plan);
    plan.ok = true;
    return plan;
  }

private:
  struct Pieces {
    std::string before, after;
  };

  const SourceText &src;
  const RegionRequest &req;
  const Stmt *body = nullptr;
  std::set<const Stmt *> patterns;
  std::set<const VarDecl *> sizeVariables; // MPI_Comm_size(c, &v)
  std::set<const Stmt *> wrapped;          // CHECK_MPI(site call) statements
  const Stmt *enclosingLoop = nullptr;     // innermost loop around the region

  RegionPlan &fail(RegionPlan &plan, const std::string &why) {
    plan.ok = false;
    if (plan.whyNot.empty()) plan.whyNot = why;
    return plan;
  }

  std::string where(const Stmt *s) const { return "line " + std::to_string(src.line(s->getBeginLoc())); }

  // ---- parents ----
  const Stmt *parentOf(const Stmt *s) const {
    DynTypedNodeList ps = src.ctx.getParents(*s);
    while (!ps.empty()) {
      if (const Stmt *p = ps[0].get<Stmt>()) return p;
      if (const Decl *d = ps[0].get<Decl>()) {
        if (isa<FunctionDecl>(d)) return nullptr;
        ps = src.ctx.getParents(*d);
        continue;
      }
      return nullptr;
    }
    return nullptr;
  }
  const FunctionDecl *enclosingFunction(const Stmt *s) const {
    DynTypedNode n = DynTypedNode::create(*s);
    while (true) {
      DynTypedNodeList ps = src.ctx.getParents(n);
      if (ps.empty()) return nullptr;
      n = ps[0];
      if (const auto *f = n.get<FunctionDecl>()) return f;
      if (n.get<LambdaExpr>()) return nullptr;
    }
  }
  bool isAncestor(const Stmt *a, const Stmt *s) const {
    for (const Stmt *p = parentOf(s); p; p = parentOf(p))
      if (p == a) return true;
    return false;
  }
  std::vector<const Stmt *> chain(const Stmt *s) const { // s .. function body
    std::vector<const Stmt *> out{s};
    while (out.back() != body) {
      const Stmt *p = parentOf(out.back());
      if (!p) break;
      out.push_back(p);
    }
    return out;
  }
  const Stmt *commonAncestor(const std::vector<const Stmt *> &stmts) const {
    std::vector<const Stmt *> first = chain(stmts[0]);
    for (const Stmt *candidate : first) {
      bool common = true;
      for (size_t i = 1; i < stmts.size() && common; i++) {
        std::vector<const Stmt *> c = chain(stmts[i]);
        common = std::find(c.begin(), c.end(), candidate) != c.end();
      }
      if (common) return candidate;
    }
    return nullptr;
  }

  // ---- pattern statements ----
  // The statement a call is part of. A call in a macro argument
  // (CHECK_MPI(MPI_Send(...)) expanding to do { if (...) ... } while (0))
  // belongs to the statement the macro use is.
  const Stmt *statementOf(const Stmt *call) const {
    const Stmt *cur = call;
    for (const Stmt *p = parentOf(cur); p; p = parentOf(cur)) {
      if (isa<Expr>(p) || isa<DeclStmt>(p) || (p != body && sameMacroUse(cur, p))) {
        cur = p;
        continue;
      }
      break;
    }
    return cur;
  }
  bool sameMacroUse(const Stmt *a, const Stmt *b) const {
    SourceLocation la = a->getBeginLoc(), lb = b->getBeginLoc();
    if (!la.isMacroID() || !lb.isMacroID()) return false;
    return src.sm.getExpansionRange(la).getBegin() == src.sm.getExpansionRange(lb).getBegin();
  }

  // Site statements that are a function-like macro around the call.
  void findWrapperMacro(RegionPlan &plan) {
    std::string name;
    for (const CallExpr *c : req.calls) {
      const Stmt *st = statementOf(c);
      if (st == c || !st->getBeginLoc().isMacroID()) return;
      std::string n = Lexer::getImmediateMacroName(st->getBeginLoc(), src.sm, src.ctx.getLangOpts()).str();
      if (n.empty() || (!name.empty() && n != name)) return;
      name = n;
      wrapped.insert(st);
    }
    plan.wrapperMacro = name;
  }

  // The variables a loop steps through and those computed from them in it.
  std::set<const VarDecl *> loopVariables(const Stmt *loop) const {
    std::set<const VarDecl *> vars;
    const Stmt *bodyStmt = nullptr;
    auto refs = [&](const Stmt *s) {
      forEachStmt(s, [&](const Stmt *x) {
        if (const auto *d = dyn_cast<DeclRefExpr>(x))
          if (const auto *v = dyn_cast<VarDecl>(d->getDecl())) vars.insert(v);
      });
    };
    if (const auto *f = dyn_cast<ForStmt>(loop)) {
      declaredIn(f->getInit(), vars);
      refs(f->getInc());
      bodyStmt = f->getBody();
    } else if (const auto *r = dyn_cast<CXXForRangeStmt>(loop)) {
      vars.insert(r->getLoopVariable());
      bodyStmt = r->getBody();
    } else {
      const Expr *cond = isa<WhileStmt>(loop) ? cast<WhileStmt>(loop)->getCond() : cast<DoStmt>(loop)->getCond();
      bodyStmt = isa<WhileStmt>(loop) ? cast<WhileStmt>(loop)->getBody() : cast<DoStmt>(loop)->getBody();
      std::set<const VarDecl *> inCond, written;
      forEachStmt(cond, [&](const Stmt *x) {
        if (const auto *d = dyn_cast<DeclRefExpr>(x))
          if (const auto *v = dyn_cast<VarDecl>(d->getDecl())) inCond.insert(v);
      });
      forEachStmt(bodyStmt, [&](const Stmt *x) {
        if (const VarDecl *v = assignedVar(x)) written.insert(v);
      });
      for (const VarDecl *v : inCond)
        if (written.count(v)) vars.insert(v);
    }
    // Values computed from them inside the loop (`to = (me + s) % p`).
    for (int round = 0; round < 4; round++) {
      forEachStmt(bodyStmt, [&](const Stmt *x) {
        if (const auto *ds = dyn_cast<DeclStmt>(x)) {
          for (const Decl *d : ds->decls())
            if (const auto *v = dyn_cast<VarDecl>(d))
              if (v->getInit() && mentions(v->getInit(), vars)) vars.insert(v);
        } else if (const auto *b = dyn_cast<BinaryOperator>(x); b && b->isAssignmentOp()) {
          if (const VarDecl *v = assignedVar(b); v && mentions(b->getRHS(), vars)) vars.insert(v);
        }
      });
    }
    return vars;
  }

  // A loop is part of the pattern when its variables feed the call's
  // arguments, or when it counts up to the communicator's size (P-1
  // receives from MPI_ANY_SOURCE).
  bool feeds(const Stmt *loop, const CallExpr *call) const {
    const Expr *cond = nullptr;
    if (const auto *f = dyn_cast<ForStmt>(loop)) cond = f->getCond();
    else if (const auto *w = dyn_cast<WhileStmt>(loop)) cond = w->getCond();
    else if (const auto *d = dyn_cast<DoStmt>(loop)) cond = d->getCond();
    if (cond && mentions(cond, sizeVariables)) return true;
    std::set<const VarDecl *> vars = loopVariables(loop);
    std::string name = calleeName(call);
    for (bool sendSide : {true, false}) {
      MessageArgs m = messageArgs(call, name, sendSide);
      if (!m.valid()) continue;
      if ((m.peer && mentions(m.peer, vars)) || mentions(m.count, vars)) return true;
      for (const Expr *off : offsetsOf(m.buffer))
        if (mentions(off, vars)) return true;
    }
    return false;
  }

  // The offset parts of a buffer argument (`all + q * n` -> q * n,
  // `&a[i]` -> i, a pointer declared from such an expression likewise):
  // the data itself (`&sum`) does not make a loop part of the pattern.
  static std::vector<const Expr *> offsetsOf(const Expr *buffer) {
    std::vector<const Expr *> out;
    const Expr *e = strip(buffer);
    for (int depth = 0; e && depth < 8; depth++) {
      if (const auto *b = dyn_cast<BinaryOperator>(e); b && b->isAdditiveOp()) {
        bool leftPointer = b->getLHS()->getType()->isPointerType();
        out.push_back(leftPointer ? b->getRHS() : b->getLHS());
        e = strip(leftPointer ? b->getLHS() : b->getRHS());
      } else if (const auto *u = dyn_cast<UnaryOperator>(e); u && u->getOpcode() == UO_AddrOf) {
        e = strip(u->getSubExpr());
      } else if (const auto *a = dyn_cast<ArraySubscriptExpr>(e)) {
        out.push_back(a->getIdx());
        e = strip(a->getBase());
      } else if (const auto *d = dyn_cast<DeclRefExpr>(e)) {
        const auto *v = dyn_cast<VarDecl>(d->getDecl());
        if (!v || !v->getType()->isPointerType() || !v->getInit() || !v->isLocalVarDecl()) break;
        e = strip(v->getInit());
      } else {
        break;
      }
    }
    return out;
  }

  const Stmt *patternOf(const CallExpr *call) const {
    const Stmt *top = statementOf(call);
    for (const Stmt *p = parentOf(top); p && p != body; p = parentOf(p)) {
      if (isLoop(p)) {
        if (!feeds(p, call)) break;
        top = p;
      }
    }
    return top;
  }

  bool containsPattern(const Stmt *s) const {
    bool found = false;
    forEachStmt(s, [&](const Stmt *x) { found = found || patterns.count(x); });
    return found;
  }

  bool isCompletionStatement(const Stmt *s) const {
    const auto *e = dyn_cast<Expr>(s);
    if (!e) return false;
    const auto *call = dyn_cast<CallExpr>(strip(e));
    return call && isCompletionCall(calleeName(call));
  }

  // ---- splitting a region into pattern and kept work ----
  // The code between two offsets, trimmed, its lines re-based to column 0
  // (the indentation of its first line removed from the others).
  std::string text(unsigned b, unsigned e) const {
    std::string t = src.between(b, e);
    size_t first = t.find_first_not_of(" \t\r\n"), last = t.find_last_not_of(" \t\r\n");
    if (first == std::string::npos || onlyComments(t)) return "";
    std::string indent = src.lineIndent(b + unsigned(first));
    t = t.substr(first, last - first + 1);
    std::string out;
    for (size_t i = 0; i < t.size(); i++) {
      out += t[i];
      if (t[i] != '\n') continue;
      size_t k = 0;
      while (k < indent.size() && i + 1 + k < t.size() && (t[i + 1 + k] == ' ' || t[i + 1 + k] == '\t')) k++;
      i += k;
    }
    return out;
  }
  // Comments and blank space only: nothing to keep.
  static bool onlyComments(const std::string &t) {
    for (size_t i = 0; i < t.size(); i++) {
      if (t.compare(i, 2, "//") == 0) {
        i = t.find('\n', i);
        if (i == std::string::npos) return true;
      } else if (t.compare(i, 2, "/*") == 0) {
        i = t.find("*/", i + 2);
        if (i == std::string::npos) return true;
        i++;
      } else if (!std::isspace((unsigned char)t[i])) {
        return false;
      }
    }
    return true;
  }

  static void append(std::string &to, const std::string &piece) {
    if (piece.empty()) return;
    to += to.empty() ? piece : "\n" + piece;
  }

  // A run of statements: work before the first pattern-holding statement is
  // kept before the call, after the last one after it; work in between runs
  // after the call (order changes: review).
  bool splitSequence(const std::vector<const Stmt *> &kids, const CompoundStmt *block, Pieces &out,
                     RegionPlan &plan) {
    int first = -1, last = -1;
    for (int i = 0; i < int(kids.size()); i++)
      if (patterns.count(kids[size_t(i)]) || containsPattern(kids[size_t(i)])) {
        if (first < 0) first = i;
        last = i;
      }
    if (first < 0) return true;
    // The work before and after the call end up in two blocks: a variable
    // declared before and used after would go out of scope.
    if (block) {
      std::set<const VarDecl *> declaredBefore;
      for (int i = 0; i < first; i++) declaredIn(kids[size_t(i)], declaredBefore);
      for (size_t i = size_t(last) + 1; i < kids.size(); i++)
        if (mentions(kids[i], declaredBefore)) {
          std::string names;
          for (const VarDecl *v : declaredBefore)
            if (mentions(kids[i], {v})) names += (names.empty() ? "'" : ", '") + v->getNameAsString() + "'";
          fail(plan, "the code kept before the call declares " + names + ", which the code kept after it uses (" +
                         where(kids[i]) + "): the block cannot be split around the collective; move the "
                         "declaration out of the block by hand, then rewrite again");
          return false;
        }
    }
    unsigned open = block ? src.offset(block->getLBracLoc()) + 1 : plan.begin;
    unsigned close = block ? src.offset(block->getRBracLoc()) : plan.end;
    const Stmt *f = kids[size_t(first)], *l = kids[size_t(last)];
    std::string before = text(open, src.lineStart(src.offset(f->getBeginLoc())));
    if (before.empty()) before = text(open, src.offset(f->getBeginLoc()));
    std::string after = text(src.endOffset(l), close), middle;
    if (!before.empty()) plan.kept.push_back("kept before the call: " + firstLine(before));
    for (int i = first; i <= last; i++) {
      const Stmt *k = kids[size_t(i)];
      if (!patterns.count(k) && !containsPattern(k)) {
        if (!isBookkeeping(k, plan)) append(middle, text(src.offset(k->getBeginLoc()), src.endOffset(k)));
        continue;
      }
      Pieces inner;
      if (!patterns.count(k) && !split(k, inner, plan)) return false;
      append(i == first ? before : middle, inner.before);
      if (i == last)
        after = inner.after.empty() ? after : inner.after + (after.empty() ? "" : "\n" + after);
      else
        append(middle, inner.after);
    }
    if (!middle.empty()) {
      plan.review.push_back("work between the messages is moved after the collective call: " +
                            firstLine(middle));
      after = middle + (after.empty() ? "" : "\n" + after);
    }
    if (!after.empty()) plan.kept.push_back("kept after the call: " + firstLine(after));
    append(out.before, before);
    append(out.after, after);
    return true;
  }

  static std::string firstLine(const std::string &t) {
    std::string l = t.substr(0, t.find('\n'));
    return t.find('\n') == std::string::npos ? l : l + " ...";
  }

  static std::string wrapIf(const std::string &cond, const std::string &yes, const std::string &no) {
    if (yes.empty() && no.empty()) return "";
    if (no.empty()) return "if (" + cond + ") {\n" + indentLines(yes) + "\n}";
    if (yes.empty()) return "if (!(" + cond + ")) {\n" + indentLines(no) + "\n}";
    return "if (" + cond + ") {\n" + indentLines(yes) + "\n} else {\n" + indentLines(no) + "\n}";
  }

  bool split(const Stmt *s, Pieces &out, RegionPlan &plan) {
    if (patterns.count(s)) return true;
    if (const auto *block = dyn_cast<CompoundStmt>(s))
      return splitSequence(std::vector<const Stmt *>(block->body_begin(), block->body_end()), block, out,
                           plan);
    if (const auto *branch = dyn_cast<IfStmt>(s)) {
      if (branch->getInit() || branch->getConditionVariable()) {
        fail(plan, "the if at " + where(s) + " declares a variable in its condition");
        return false;
      }
      if (containsPatternIn(branch->getCond())) {
        fail(plan, "a site is in the condition of the if at " + where(s));
        return false;
      }
      Pieces yes, no;
      std::string yesWork, noWork;
      if (!branchPieces(branch->getThen(), yes, plan) || !branchPieces(branch->getElse(), no, plan))
        return false;
      std::string cond = src.of(branch->getCond());
      out.before = wrapIf(cond, yes.before, no.before);
      out.after = wrapIf(cond, yes.after, no.after);
      if (branch->getCond()->HasSideEffects(src.ctx) && !out.before.empty() && !out.after.empty())
        plan.review.push_back("the condition at " + where(s) + " has side effects and now runs twice");
      return true;
    }
    fail(plan, std::string("the sites sit in different iterations of the ") +
                   (isLoop(s) ? "loop" : "statement") + " at " + where(s) +
                   " (a loop that does not drive the messages' peers or buffers)");
    return false;
  }

  bool containsPatternIn(const Stmt *s) const { return s && containsPattern(s); }

  // A branch of an if: all work (kept before the call), or a statement holding
  // pattern statements.
  bool branchPieces(const Stmt *branch, Pieces &out, RegionPlan &plan) {
    if (!branch) return true;
    if (patterns.count(branch) || containsPattern(branch)) return split(branch, out, plan);
    std::string t = isa<CompoundStmt>(branch)
                        ? text(src.offset(cast<CompoundStmt>(branch)->getLBracLoc()) + 1,
                               src.offset(cast<CompoundStmt>(branch)->getRBracLoc()))
                        : text(src.offset(branch->getBeginLoc()), src.endOffset(branch));
    out.before = t;
    if (!t.empty()) plan.kept.push_back("kept before the call (ranks that do not send): " + firstLine(t));
    return true;
  }

  // ---- what a pattern statement does besides the messages ----
  // Whether a value the region leaves in v can be read later: a use after
  // the region, or anywhere in the loop around it (the next iteration).
  bool usedOutsideRegion(const VarDecl *v, const RegionPlan &plan) const {
    bool used = false;
    unsigned loopBegin = enclosingLoop ? src.offset(enclosingLoop->getBeginLoc()) : plan.begin;
    forEachStmt(body, [&](const Stmt *x) {
      if (const auto *d = dyn_cast<DeclRefExpr>(x))
        if (d->getDecl() == v) {
          unsigned off = src.offset(d->getLocation());
          used = used || off >= plan.end || (off >= loopBegin && off < plan.begin);
        }
    });
    return used;
  }

  // Declarations and assignments that only serve the pattern (request
  // counters, loop bounds): nothing outside reads what they write.
  bool isBookkeeping(const Stmt *s, const RegionPlan &plan) const {
    if (const auto *ds = dyn_cast<DeclStmt>(s)) {
      for (const Decl *d : ds->decls()) {
        const auto *v = dyn_cast<VarDecl>(d);
        if (!v || usedOutsideRegion(v, plan)) return false;
        if (v->getInit() && v->getInit()->HasSideEffects(src.ctx)) return false;
      }
      return true;
    }
    const VarDecl *v = assignedVar(s);
    if (!v) return false;
    const Expr *e = cast<Expr>(s);
    if (const auto *b = dyn_cast<BinaryOperator>(e); b && b->getRHS()->HasSideEffects(src.ctx)) return false;
    return !usedOutsideRegion(v, plan);
  }

  std::set<const VarDecl *> outVariables(llvm::StringRef function) const {
    std::set<const VarDecl *> out;
    forEachStmt(body, [&](const Stmt *x) {
      const auto *call = dyn_cast<CallExpr>(x);
      if (!call || calleeName(call) != function || call->getNumArgs() < 2) return;
      if (const auto *u = dyn_cast<UnaryOperator>(strip(call->getArg(1))); u && u->getOpcode() == UO_AddrOf)
        if (const VarDecl *v = referencedVar(u->getSubExpr())) out.insert(v);
    });
    return out;
  }

  // MPI_Wait*/MPI_Test* statements on the requests the sites started.
  void addCompletions(RegionPlan &plan) {
    std::set<const VarDecl *> requests;
    for (const CallExpr *c : req.calls) {
      std::string name = calleeName(c);
      if ((llvm::StringRef(name).startswith("MPI_I") || llvm::StringRef(name).endswith("_init")) && c->getNumArgs() > 0)
        if (const VarDecl *v = referencedVar(c->getArg(c->getNumArgs() - 1))) requests.insert(v);
    }
    if (requests.empty()) return;
    forEachStmt(body, [&](const Stmt *x) {
      if (!isCompletionStatement(x) || !mentions(x, requests)) return;
      const Stmt *st = statementOf(x);
      bool inside = false;
      for (const Stmt *p : patterns) inside = inside || p == st || isAncestor(p, st);
      if (!inside) {
        patterns.insert(st);
        plan.patterns.push_back(st);
      }
    });
  }

  void checkPattern(const Stmt *p, RegionPlan &plan) {
    // The error handling of a wrapping macro goes with the call it wraps.
    std::function<void(const Stmt *, const std::function<void(const Stmt *)> &)> walk =
        [&](const Stmt *s, const std::function<void(const Stmt *)> &fn) {
          if (!s || wrapped.count(s)) return;
          fn(s);
          for (const Stmt *c : s->children()) walk(c, fn);
        };
    walk(p, [&](const Stmt *x) {
      if (!plan.whyNot.empty()) return;
      if (isa<ReturnStmt>(x) || isa<GotoStmt>(x) || isa<CXXThrowExpr>(x)) {
        fail(plan, "the communication at " + where(x) + " can return or jump out");
        return;
      }
      if (const auto *call = dyn_cast<CallExpr>(x)) {
        if (req.siteCalls.count(call)) return;
        std::string name = calleeName(call);
        if (isCompletionCall(name) || isHarmlessMpiQuery(name)) return;
        if (isPointToPoint(name)) {
          fail(plan, name + " at " + where(x) +
                         " is communication that is not part of this collective, inside its loop");
          return;
        }
        if (llvm::StringRef(name).startswith("MPI_"))
          plan.review.push_back(name + " at " + where(x) + " runs inside the pattern; the patch drops it");
        else if (!isPure(name))
          plan.review.push_back("the call " + (name.empty() ? std::string("through a pointer") : name + "()") +
                                " at " + where(x) + " runs inside the pattern; the patch drops it");
        return;
      }
      const Expr *lhs = nullptr;
      const VarDecl *v = assignedVar(x, &lhs);
      if (!lhs) return;
      if (v) {
        if (plan.regionLocals.count(v) || req.collectiveWrites.count(v)) return;
        if (usedOutsideRegion(v, plan))
          plan.review.push_back("the pattern updates '" + v->getNameAsString() + "' (" + where(x) +
                                "), which is used outside it; the patch no longer does");
        return;
      }
      const VarDecl *base = referencedVar(lhs);
      if (base && (req.collectiveWrites.count(base) || plan.regionLocals.count(base))) return;
      plan.review.push_back("the pattern writes memory at " + where(x) + " (" + src.of(lhs) +
                            "); the patch no longer does");
    });
  }

  static bool isPure(const std::string &name) {
    static const char *const kPure[] = {"abs", "labs", "llabs", "fabs", "sqrt", "pow", "floor", "ceil",
                                        "log2", "min", "max", "fmin", "fmax", "printf", "fprintf"};
    for (const char *p : kPure)
      if (name == p) return name != "printf" && name != "fprintf";
    return false;
  }

  // ---- facts for the replacement call ----
  void collectRootCandidates(const Stmt *lca, RegionPlan &plan) const {
    std::set<const VarDecl *> ranks(plan.rankVariables.begin(), plan.rankVariables.end());
    auto visit = [&](const Stmt *x) {
      const auto *b = dyn_cast<BinaryOperator>(x);
      if (!b || !b->isEqualityOp()) return;
      const Expr *l = strip(b->getLHS()), *r = strip(b->getRHS());
      auto isRank = [&](const Expr *e) {
        const auto *d = dyn_cast<DeclRefExpr>(e);
        return d && ranks.count(dyn_cast<VarDecl>(d->getDecl()));
      };
      if (isRank(l) && !isRank(r)) plan.rootCandidates.push_back(b->getRHS());
      if (isRank(r) && !isRank(l)) plan.rootCandidates.push_back(b->getLHS());
    };
    forEachStmt(lca, visit);
    // Conditions of the ifs around the region (`if (me == root) my_bcast(..)`).
    for (const Stmt *p = parentOf(lca); p && p != body; p = parentOf(p))
      if (const auto *i = dyn_cast<IfStmt>(p)) forEachStmt(i->getCond(), visit);
  }
};

} // namespace

RegionPlan planRegion(const SourceText &src, const RegionRequest &request) {
  return Planner(src, request).run();
}

} // namespace cz::rewrite
