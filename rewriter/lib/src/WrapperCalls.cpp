// WrapperCalls.cpp: see WrapperCalls.h.
#include "WrapperCalls.h"

#include <map>
#include <set>

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Path.h"

#include "collectivize/rewrite/CallShapes.h"

#include "AstQueries.h"

namespace cz::rewrite {

using namespace clang;

namespace {

const FunctionDecl *wrapperOf(const CallExpr *call) {
  const FunctionDecl *f = call ? call->getDirectCallee() : nullptr;
  return f ? f->getDefinition() : nullptr;
}

// Calls whose whole effect, for the caller, is the message: the request of
// a nonblocking call would have to be followed to the caller's wait.
bool blocking(llvm::StringRef callee) {
  return llvm::StringSwitch<bool>(callee)
      .Cases("MPI_Send", "MPI_Ssend", "MPI_Bsend", "MPI_Rsend", "MPI_Recv", true)
      .Cases("MPI_Sendrecv", "MPI_Sendrecv_replace", true)
      .Default(false);
}

// Declared inside the wrapper: its parameters and locals, and the members
// of the object a method wrapper is called on.
bool namesWrapperLocal(const Stmt *s) {
  bool local = false;
  forEachStmt(s, [&](const Stmt *x) {
    if (isa<CXXThisExpr>(x)) local = true;
    if (const auto *d = dyn_cast<DeclRefExpr>(x))
      if (const auto *v = dyn_cast<VarDecl>(d->getDecl()); v && (!v->hasGlobalStorage() || v->isStaticLocal()))
        local = true;
  });
  return local;
}

// "file.h:12", the file without its directories.
std::string where(const SourceManager &sm, SourceLocation loc) {
  PresumedLoc at = sm.getPresumedLoc(sm.getExpansionLoc(loc));
  if (at.isInvalid()) return "?";
  return llvm::sys::path::filename(at.getFilename()).str() + ":" + std::to_string(at.getLine());
}

// The statement as written, on one line and short, for a reason.
std::string quote(const SourceManager &sm, const LangOptions &lo, const Stmt *s) {
  CharSourceRange r = Lexer::makeFileCharRange(CharSourceRange::getTokenRange(s->getSourceRange()), sm, lo);
  std::string text = r.isValid() ? Lexer::getSourceText(r, sm, lo).str() : "";
  std::string flat;
  for (char c : text) {
    if (c == '\n' || c == '\t') c = ' ';
    if (c == ' ' && !flat.empty() && flat.back() == ' ') continue;
    flat += c;
  }
  if (flat.size() > 60) flat = flat.substr(0, 57) + "...";
  return "`" + flat + "` (" + where(sm, s->getBeginLoc()) + ")";
}

// Locals with no effect of their own (`MPI_Status st;`, `const int n =
// 48;`): what the call does with them the argument check judges.
bool quietLocals(const DeclStmt *ds) {
  for (const Decl *d : ds->decls()) {
    const auto *v = dyn_cast<VarDecl>(d);
    if (!v) return false;
    bool effect = false;
    forEachStmt(v->getInit(), [&](const Stmt *x) {
      const auto *u = dyn_cast<UnaryOperator>(x);
      const auto *b = dyn_cast<BinaryOperator>(x);
      effect = effect || isa<CallExpr>(x) || (u && u->isIncrementDecrementOp()) || (b && b->isAssignmentOp());
    });
    if (effect) return false;
  }
  return true;
}

// A name the function holding call declares itself (a parameter or a
// local), which a wrapper's own expression names too: written at the
// caller, it would read the caller's variable. "" when none.
std::string shadowedName(ASTContext &ctx, const CallExpr *call, const Expr *e) {
  const FunctionDecl *f = nullptr;
  for (DynTypedNodeList ps = ctx.getParents(*call); !ps.empty() && !f;) {
    f = ps[0].get<FunctionDecl>();
    if (const auto *st = ps[0].get<Stmt>()) ps = ctx.getParents(*st);
    else if (const auto *d = ps[0].get<Decl>()) ps = ctx.getParents(*d);
    else break;
  }
  if (!f) return "";
  std::set<const VarDecl *> own(f->param_begin(), f->param_end());
  declaredIn(f->getBody(), own);
  std::set<std::string> names;
  for (const VarDecl *v : own) names.insert(v->getNameAsString());
  std::string shadowed;
  forEachStmt(e, [&](const Stmt *x) {
    if (const auto *d = dyn_cast<DeclRefExpr>(x); d && shadowed.empty() && names.count(d->getDecl()->getNameAsString()))
      shadowed = d->getDecl()->getNameAsString();
  });
  return shadowed;
}

// The caller reads what the call returns (it is not a statement of its own).
bool valueUsed(ASTContext &ctx, const CallExpr *call) {
  const Stmt *child = call;
  for (DynTypedNodeList parents = ctx.getParents(*call); !parents.empty(); parents = ctx.getParents(*child)) {
    const Stmt *p = parents[0].get<Stmt>();
    if (!p) return true;
    if (const auto *e = dyn_cast<Expr>(p)) {
      if (isa<ParenExpr>(e) || isa<ImplicitCastExpr>(e) || isa<ExprWithCleanups>(e)) {
        child = p;
        continue;
      }
      if (const auto *c = dyn_cast<ExplicitCastExpr>(e)) return !c->getType()->isVoidType();
      return true;
    }
    if (isa<CompoundStmt>(p) || isa<LabelStmt>(p) || isa<SwitchCase>(p)) return false;
    if (const auto *i = dyn_cast<IfStmt>(p)) return i->getThen() != child && i->getElse() != child;
    if (const auto *f = dyn_cast<ForStmt>(p)) return f->getBody() != child && f->getInc() != child;
    if (const auto *w = dyn_cast<WhileStmt>(p)) return w->getBody() != child;
    if (const auto *d = dyn_cast<DoStmt>(p)) return d->getBody() != child;
    return true;
  }
  return true;
}

} // namespace

namespace {

// The calls of callee in the body of the function call calls.
std::vector<const CallExpr *> callsInWrapper(const CallExpr *call, llvm::StringRef callee) {
  std::vector<const CallExpr *> found;
  // An operator's arguments start with its object, not its first parameter.
  if (isa_and_nonnull<CXXOperatorCallExpr>(call)) return found;
  const FunctionDecl *f = wrapperOf(call);
  if (!f || !f->getBody()) return found;
  forEachStmt(f->getBody(), [&](const Stmt *x) {
    if (const auto *c = dyn_cast<CallExpr>(x); c && calleeName(c) == callee) found.push_back(c);
  });
  return found;
}

} // namespace

const CallExpr *wrappedCall(const CallExpr *call, llvm::StringRef callee) {
  std::vector<const CallExpr *> found = callsInWrapper(call, callee);
  return found.size() == 1 ? found[0] : nullptr;
}

unsigned wrappedCallCount(const CallExpr *call, llvm::StringRef callee) {
  return unsigned(callsInWrapper(call, callee).size());
}

namespace {

// Expressions made for callers, kept per (call, wrapper expression) so
// that each is made once per AST, with their texts.
struct Made {
  const Expr *expr = nullptr;
  std::string problem;
  std::vector<const Expr *> kept; // the wrapper's own subexpressions in it
};
std::map<std::pair<const CallExpr *, const Expr *>, Made> made;
std::map<const Stmt *, std::vector<TextPiece>> madeTexts;

// Names nothing but constants: the caller's argument may be written twice.
bool plainOperand(const Expr *e) {
  e = e->IgnoreParenImpCasts();
  if (isa<IntegerLiteral>(e) || isa<FloatingLiteral>(e) || isa<CharacterLiteral>(e)) return true;
  const auto *d = dyn_cast<DeclRefExpr>(e);
  return d && (isa<VarDecl>(d->getDecl()) || isa<EnumConstantDecl>(d->getDecl()));
}

const ParmVarDecl *parameterOf(const Expr *e) {
  const auto *d = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
  return d ? dyn_cast<ParmVarDecl>(d->getDecl()) : nullptr;
}

// The caller's argument for parameter p (a C++ default argument is the
// wrapper's own expression), or null.
const Expr *callerArgument(const CallExpr *call, const ParmVarDecl *p) {
  unsigned k = p->getFunctionScopeIndex();
  if (k >= call->getNumArgs()) return nullptr;
  if (const auto *def = dyn_cast<CXXDefaultArgExpr>(call->getArg(k)))
    return namesWrapperLocal(def->getExpr()) ? nullptr : def->getExpr();
  return call->getArg(k);
}

// Makes e (the wrapper's) over again for the caller: every parameter read
// replaced by the caller's argument, subexpressions that name nothing of
// the wrapper kept as they are. Null and m.problem set when it cannot.
class Maker {
public:
  Maker(ASTContext &ctx, const CallExpr *call, Made &m) : ctx(ctx), call(call), m(m) {}

  Expr *make(const Expr *e) {
    if (!m.problem.empty()) return nullptr;
    if (!namesWrapperLocal(e)) {
      m.kept.push_back(e);
      return const_cast<Expr *>(e);
    }
    SourceLocation at = call->getBeginLoc();
    // A parameter read (the conversion of its value included).
    if (const ParmVarDecl *p = parameterOf(e); p && (!isa<DeclRefExpr>(e) || !e->isLValue())) {
      const Expr *arg = callerArgument(call, p);
      if (!arg) return fail("the caller passes no argument for its parameter `" + p->getNameAsString() + "`");
      if (arg->HasSideEffects(ctx))
        return fail("the caller's argument for its parameter `" + p->getNameAsString() +
                    "` has side effects: it would not run once per call any more");
      if (uses[p] > 1 && !plainOperand(arg))
        return fail("it reads its parameter `" + p->getNameAsString() +
                    "` more than once, and the caller's argument is not a name or a constant: it would be "
                    "evaluated more than once");
      Expr *value = const_cast<Expr *>(arg);
      // The caller's argument has the parameter's type already (the call
      // converted it); the wrapper's own conversion of the value follows.
      if (const auto *c = dyn_cast<ImplicitCastExpr>(e); c && c->getCastKind() != CK_LValueToRValue)
        value = ImplicitCastExpr::Create(ctx, c->getType(), c->getCastKind(), value, nullptr, VK_PRValue,
                                         FPOptionsOverride());
      if (plainOperand(arg)) return value == arg ? value : note(value, {{"", arg}});
      Expr *paren = new (ctx) ParenExpr(at, at, value);
      return note(paren, {{"(", nullptr}, {"", arg}, {")", nullptr}});
    }
    if (const auto *pe = dyn_cast<ParenExpr>(e)) {
      Expr *in = make(pe->getSubExpr());
      if (!in) return nullptr;
      return note(new (ctx) ParenExpr(at, at, in), {{"(", nullptr}, {"", in}, {")", nullptr}});
    }
    if (const auto *c = dyn_cast<ImplicitCastExpr>(e)) {
      Expr *in = make(c->getSubExpr());
      if (!in) return nullptr;
      return note(ImplicitCastExpr::Create(ctx, c->getType(), c->getCastKind(), in, nullptr, c->getValueKind(),
                                           FPOptionsOverride()),
                  {{"", in}});
    }
    if (const auto *c = dyn_cast<CStyleCastExpr>(e)) {
      Expr *in = make(c->getSubExpr());
      if (!in) return nullptr;
      std::string type = c->getTypeAsWritten().getAsString(PrintingPolicy(ctx.getLangOpts()));
      return note(CStyleCastExpr::Create(ctx, c->getType(), c->getValueKind(), c->getCastKind(), in, nullptr,
                                         FPOptionsOverride(), c->getTypeInfoAsWritten(), at, at),
                  {{"(" + type + ")", nullptr}, {"", in}});
    }
    if (const auto *b = dyn_cast<BinaryOperator>(e); b && !b->isAssignmentOp() && b->getOpcode() != BO_Comma) {
      Expr *l = make(b->getLHS()), *r = l ? make(b->getRHS()) : nullptr;
      if (!r) return nullptr;
      if (Expr *simpler = withoutZeroTerm(b, l, r)) return simpler;
      return note(BinaryOperator::Create(ctx, l, r, b->getOpcode(), b->getType(), b->getValueKind(),
                                         b->getObjectKind(), at, FPOptionsOverride()),
                  {{"", l}, {" " + b->getOpcodeStr().str() + " ", nullptr}, {"", r}});
    }
    if (const auto *u = dyn_cast<UnaryOperator>(e); u && !u->isIncrementDecrementOp()) {
      if (u->getOpcode() == UO_AddrOf && parameterOf(u->getSubExpr()))
        return fail("it takes the address of its parameter");
      Expr *in = make(u->getSubExpr());
      if (!in) return nullptr;
      // `- -n` must not become `--n`.
      std::string op = UnaryOperator::getOpcodeStr(u->getOpcode()).str();
      if (isa<UnaryOperator>(u->getSubExpr()->IgnoreImpCasts())) op += " ";
      return note(UnaryOperator::Create(ctx, in, u->getOpcode(), u->getType(), u->getValueKind(), u->getObjectKind(),
                                        at, u->canOverflow(), FPOptionsOverride()),
                  {{op, nullptr}, {"", in}});
    }
    if (const auto *a = dyn_cast<ArraySubscriptExpr>(e)) {
      Expr *l = make(a->getLHS()), *r = l ? make(a->getRHS()) : nullptr;
      if (!r) return nullptr;
      return note(new (ctx) ArraySubscriptExpr(l, r, a->getType(), a->getValueKind(), a->getObjectKind(), at),
                  {{"", l}, {"[", nullptr}, {"", r}, {"]", nullptr}});
    }
    return fail("it computes it in a form the rewriter does not write at the caller");
  }

  std::map<const ParmVarDecl *, int> uses;

private:
  // A caller that passes 0 for a block index makes `buf + (size_t)i * n`
  // into `buf + (size_t)0 * n`: written as `buf`. Only a product with a
  // literal 0 factor and no side effects becomes 0, and only a pointer's
  // offset of 0 is dropped (an integer sum would change its type). Null
  // when nothing is simpler.
  Expr *withoutZeroTerm(const BinaryOperator *b, Expr *l, Expr *r) {
    auto zero = [](const Expr *x) {
      const auto *lit = dyn_cast<IntegerLiteral>(x->IgnoreParenCasts());
      return lit && lit->getValue() == 0;
    };
    BinaryOperatorKind op = b->getOpcode();
    if (op == BO_Mul && (zero(l) || zero(r)) && !l->HasSideEffects(ctx) && !r->HasSideEffects(ctx) &&
        b->getType()->isIntegerType()) {
      SourceLocation at = call->getBeginLoc();
      Expr *lit = IntegerLiteral::Create(ctx, llvm::APInt(ctx.getIntWidth(b->getType()), 0), b->getType(), at);
      return note(lit, {{"0", nullptr}});
    }
    if (!b->getType()->isPointerType()) return nullptr;
    if ((op == BO_Add || op == BO_Sub) && zero(r) && l->getType()->isPointerType()) return l;
    if (op == BO_Add && zero(l) && r->getType()->isPointerType()) return r;
    return nullptr;
  }
  Expr *note(Expr *e, std::vector<TextPiece> pieces) {
    madeTexts[e] = std::move(pieces);
    return e;
  }
  Expr *fail(const std::string &why) {
    if (m.problem.empty()) m.problem = why;
    return nullptr;
  }
  ASTContext &ctx;
  const CallExpr *call;
  Made &m;
};

const Made &madeFor(const CallExpr *call, const Expr *inWrapper) {
  auto [it, fresh] = made.try_emplace({call, inWrapper});
  Made &m = it->second;
  if (!fresh) return m;
  const FunctionDecl *f = wrapperOf(call);
  bool own = false; // names the wrapper's locals (not its parameters) or its object
  forEachStmt(inWrapper, [&](const Stmt *x) {
    if (isa<CXXThisExpr>(x)) own = true;
    if (const auto *d = dyn_cast<DeclRefExpr>(x))
      if (const auto *v = dyn_cast<VarDecl>(d->getDecl());
          v && !isa<ParmVarDecl>(v) && (!v->hasGlobalStorage() || v->isStaticLocal()))
        own = true;
  });
  if (!f || own) {
    m.problem = "from its own variables: the caller cannot name it";
    return m;
  }
  Maker maker(f->getASTContext(), call, m);
  forEachStmt(inWrapper, [&](const Stmt *x) {
    if (const auto *d = dyn_cast<DeclRefExpr>(x))
      if (const auto *p = dyn_cast<ParmVarDecl>(d->getDecl())) maker.uses[p]++;
  });
  m.expr = maker.make(inWrapper);
  if (!m.expr) m.kept.clear();
  return m;
}

} // namespace

const std::vector<TextPiece> *madeExpressionText(const Stmt *s) {
  auto it = madeTexts.find(s);
  return it == madeTexts.end() ? nullptr : &it->second;
}

void forgetMadeExpressions() {
  made.clear();
  madeTexts.clear();
}

const Expr *atCaller(const CallExpr *call, const Expr *inWrapper) {
  if (!inWrapper) return nullptr;
  // The parameter itself, through casts: the caller's argument.
  if (const auto *d = dyn_cast<DeclRefExpr>(strip(inWrapper)))
    if (const auto *p = dyn_cast<ParmVarDecl>(d->getDecl())) return callerArgument(call, p);
  if (!namesWrapperLocal(inWrapper)) return inWrapper;
  return madeFor(call, inWrapper).expr;
}

std::string argumentProblem(const CallExpr *call, const Expr *inWrapper) {
  if (!inWrapper || atCaller(call, inWrapper)) return "";
  if (const auto *d = dyn_cast<DeclRefExpr>(strip(inWrapper)))
    if (const auto *p = dyn_cast<ParmVarDecl>(d->getDecl()))
      return "from its parameter `" + p->getNameAsString() + "`, which the caller does not pass";
  return madeFor(call, inWrapper).problem;
}

std::string wrapperName(const SourceManager &sm, const CallExpr *call) {
  const FunctionDecl *f = wrapperOf(call);
  if (!f) return calleeName(call);
  return f->getNameAsString() + " (" + where(sm, f->getLocation()) + ")";
}

std::string wrapperProblem(ASTContext &ctx, const CallExpr *call, llvm::StringRef callee, bool sendSide) {
  const SourceManager &sm = ctx.getSourceManager();
  const LangOptions &lo = ctx.getLangOpts();
  std::string who = wrapperName(sm, call);
  const FunctionDecl *f = wrapperOf(call);
  if (!f || !f->getBody())
    return "the body of " + who + " is not in this file's translation unit: what it does besides " + callee.str() +
           " is unknown";
  const CallExpr *mpi = wrappedCall(call, callee);
  if (!mpi) return who + " does not make exactly one " + callee.str() + " call";
  if (!blocking(callee))
    return who + " wraps " + callee.str() + ", a nonblocking call: its request is completed elsewhere";
  // Statements besides the call would not run at the callers any more.
  const auto *body = dyn_cast<CompoundStmt>(f->getBody());
  if (!body) return who + " has no plain body";
  for (const Stmt *s : body->body()) {
    const Stmt *value = s;
    if (const auto *r = dyn_cast<ReturnStmt>(s)) value = r->getRetValue();
    if (const auto *e = dyn_cast_or_null<Expr>(value); e && strip(e) == mpi) continue;
    if (isa<NullStmt>(s)) continue;
    if (const auto *ds = dyn_cast<DeclStmt>(s); ds && quietLocals(ds)) continue;
    return who + " does more than its " + callee.str() + " call: " + quote(sm, lo, s) +
           " would no longer run at the callers";
  }
  for (const Expr *a : mpi->arguments()) {
    const Stmt *inner = nullptr;
    forEachStmt(a, [&](const Stmt *x) { inner = inner ? inner : (isa<CallExpr>(x) ? x : nullptr); });
    if (inner) return who + " calls a function in the arguments of its " + callee.str() + ": " + quote(sm, lo, inner);
  }
  MessageArgs m = messageArgs(mpi, callee, sendSide);
  const std::pair<const char *, const Expr *> fields[] = {
      {"buffer", m.buffer}, {"count", m.count}, {"datatype", m.datatype}, {"peer", m.peer}, {"communicator", m.comm}};
  for (const auto &[what, e] : fields) {
    const Expr *there = atCaller(call, e);
    if (e && !there)
      return who + " computes the " + what + " of its " + callee.str() + " itself, " + quote(sm, lo, e) + ", " +
             argumentProblem(call, e);
    // The wrapper's own names, written at the caller.
    std::vector<const Expr *> kept;
    if (there == e) kept.push_back(e);
    else if (e && madeExpressionText(there)) kept = madeFor(call, e).kept;
    for (const Expr *k : kept)
      if (std::string name = shadowedName(ctx, call, k); !name.empty())
        return std::string("the ") + what + " of " + who + "'s " + callee.str() + " names `" + name +
               "`, which the caller declares as a variable of its own: at the caller it would name that one";
  }
  if (!f->getReturnType()->isVoidType() && valueUsed(ctx, call))
    return "the caller uses the value " + who + " returns, at " + where(sm, call->getBeginLoc());
  return "";
}

} // namespace cz::rewrite
