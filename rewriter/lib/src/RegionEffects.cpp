// RegionEffects.cpp: what the pattern leaves behind besides the
// collective's data, and whether the patch leaves it the same: statuses,
// requests and other outputs of the dropped calls that the program reads
// later, completions shared with other communication, communication
// between the pattern's messages, and (for a barrier) message contents.
// Anything the patch would change makes it one to review or gives no patch.
#include "Planner.h"

#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"

#include "collectivize/rewrite/CallShapes.h"

namespace cz::rewrite {

using namespace clang;

namespace {

// MPI calls that start a request (their last argument receives it).
bool startsRequest(llvm::StringRef name) {
  if (name.endswith("_init")) return true;
  return name.startswith("MPI_I") && name != "MPI_Init" && name != "MPI_Init_thread" && name != "MPI_Iprobe" &&
         name != "MPI_Improbe";
}

std::string kindOf(const VarDecl *v) {
  std::string t = v->getType().getAsString();
  if (t.find("MPI_Status") != std::string::npos) return "the MPI_Status '" + v->getNameAsString() + "'";
  if (t.find("MPI_Request") != std::string::npos) return "the request(s) '" + v->getNameAsString() + "'";
  return "'" + v->getNameAsString() + "'";
}

} // namespace

const Stmt *Planner::readOutsidePattern(const VarDecl *v) const {
  const Stmt *found = nullptr;
  std::function<void(const Stmt *)> walk = [&](const Stmt *s) {
    if (!s || found || patterns.count(s)) return;
    if (const auto *b = dyn_cast<BinaryOperator>(s); b && b->getOpcode() == BO_Assign) {
      // `v = ..`, `v.f = ..`, `v[i] = ..` write v; the left side is no read.
      if (referencedVar(b->getLHS()) == v) {
        walk(b->getRHS());
        return;
      }
    }
    if (const auto *call = dyn_cast<CallExpr>(s); call && calleeName(call) == "free") return;
    if (const auto *d = dyn_cast<DeclRefExpr>(s); d && d->getDecl() == v) {
      found = s;
      return;
    }
    for (const Stmt *c : s->children()) walk(c);
  };
  walk(body);
  return found;
}

std::set<const VarDecl *> Planner::siteRequests() const {
  std::set<const VarDecl *> requests;
  for (const CallExpr *c : req.calls)
    if (startsRequest(calleeName(c)) && c->getNumArgs() > 0)
      if (const VarDecl *v = referencedVar(c->getArg(c->getNumArgs() - 1))) requests.insert(v);
  // A request kept in a container (`reqs.push_back(r)`): the container.
  std::set<const VarDecl *> held;
  forEachStmt(body, [&](const Stmt *x) {
    const auto *m = dyn_cast<CXXMemberCallExpr>(x);
    if (!m || !m->getMethodDecl() || m->getNumArgs() != 1) return;
    std::string name = m->getMethodDecl()->getNameAsString();
    if ((name == "push_back" || name == "emplace_back") && requests.count(referencedVar(m->getArg(0))))
      if (const VarDecl *c = referencedVar(m->getImplicitObjectArgument())) held.insert(c);
  });
  requests.insert(held.begin(), held.end());
  return requests;
}

void Planner::checkSharedCompletions(RegionPlan &plan) {
  std::set<const VarDecl *> requests = siteRequests();
  if (requests.empty()) return;
  // Another call starting requests into the same variable: a wait on it
  // completes both, and dropping (or keeping) it breaks the other.
  forEachStmt(body, [&](const Stmt *x) {
    const auto *call = dyn_cast<CallExpr>(x);
    if (!plan.whyNot.empty() || !call || req.siteCalls.count(call)) return;
    std::string name = calleeName(call);
    if (!startsRequest(name) || call->getNumArgs() == 0) return;
    const VarDecl *v = referencedVar(call->getArg(call->getNumArgs() - 1));
    if (!v || !requests.count(v)) return;
    fail(plan, "the requests in '" + v->getNameAsString() + "' are started by this collective's sites and by " +
                   name + " at " + where(call) +
                   ", which is not part of it: their completion is shared, and the patch can neither drop "
                   "it nor keep it");
  });
}

// The first line of the work the patch keeps after or between the new
// calls that names `name` as a whole word; "" when none does. (Work kept
// before them ran before the dropped calls too.)
std::string Planner::keptMention(const RegionPlan &plan, const std::string &name) const {
  std::vector<const std::string *> texts{&plan.after};
  for (const auto &[g, text] : plan.between) texts.push_back(&text);
  for (const std::string *text : texts) {
    size_t at = findWord(*text, name);
    if (at == std::string::npos) continue;
    size_t from = text->rfind('\n', at), to = text->find('\n', at);
    from = from == std::string::npos ? 0 : from + 1;
    std::string line = text->substr(from, (to == std::string::npos ? text->size() : to) - from);
    size_t first = line.find_first_not_of(" \t");
    return first == std::string::npos ? line : line.substr(first);
  }
  return "";
}

void Planner::checkOutputsReadLater(RegionPlan &plan) {
  std::set<const VarDecl *> reported;
  auto check = [&](const CallExpr *call, const Expr *arg) {
    const Expr *a = strip(arg);
    const VarDecl *v = nullptr;
    if (const auto *u = dyn_cast<UnaryOperator>(a); u && u->getOpcode() == UO_AddrOf)
      v = referencedVar(u->getSubExpr());
    else if (const auto *d = dyn_cast<DeclRefExpr>(a); d && (d->getType()->isPointerType() || d->getType()->isArrayType()))
      v = dyn_cast<VarDecl>(d->getDecl());
    if (!v || !v->hasLocalStorage() || req.collectiveWrites.count(v) || reported.count(v)) return;
    // Read by work the patch keeps beside the new call (the rest of a
    // receiving branch: `MPI_Get_count(&status, ..)` after the receive):
    // the patch itself would hold the read of what nothing fills any more.
    // (Statuses and requests only: what else a call fills through an int
    // pointer may be the data, which the collective does deliver.)
    const std::string what = kindOf(v);
    const bool status = what.find("MPI_Status") != std::string::npos;
    if (std::string kept = status || what.find("request") != std::string::npos
                               ? keptMention(plan, v->getNameAsString())
                               : "";
        !kept.empty()) {
      reported.insert(v);
      fail(plan, what + " that " + calleeName(call) + " at " + where(call) + " fills is read by work the patch "
                     "keeps (`" + kept + "`); the collective call fills no " + (status ? "status" : "request"));
      return;
    }
    if (const Stmt *use = readOutsidePattern(v)) {
      reported.insert(v);
      std::string read = kindOf(v) + " that " + calleeName(call) + " at " + where(call) + " fills is read at " +
                         where(use) + "; the collective call leaves it as it was";
      // Through the program's own wrapper: the caller relies on what the
      // wrapper hands back, which no collective call gives.
      if (req.siteCalls.count(call) && !isPointToPoint(calleeName(call))) fail(plan, read);
      else plan.review.push_back(read);
    }
  };
  for (const Stmt *p : patterns)
    forEachStmt(p, [&](const Stmt *x) {
      const auto *call = dyn_cast<CallExpr>(x);
      if (!call) return;
      std::string name = calleeName(call);
      bool site = req.siteCalls.count(call) > 0;
      if (!site && !isCompletionCall(name)) return;
      // The outputs besides the messages' data: statuses, requests, flags
      // and indices (parameters `MPI_Status *`, `MPI_Request *`, `int *`).
      const FunctionDecl *f = call->getDirectCallee();
      for (unsigned i = 0; f && i < call->getNumArgs() && i < f->getNumParams(); i++) {
        QualType t = f->getParamDecl(i)->getType();
        if (!t->isPointerType() || t->getPointeeType().isConstQualified()) continue;
        std::string pointee = t->getPointeeType().getUnqualifiedType().getAsString();
        if (pointee == "MPI_Status" || pointee == "MPI_Request" || pointee == "int") check(call, call->getArg(i));
      }
    });
}

// A receive of the pattern into a buffer the collective call does not
// write, whose values the program reads outside the pattern: the call
// would not deliver them. A barrier delivers nothing at all (no patch). A
// reduction leaves its result in its accumulator only (a butterfly whose
// last step swaps sums into another array, read later, is no allreduce of
// the first one); said once every call is built, whose own refusals name
// the cause more exactly.
void Planner::checkReceivedValuesKept(RegionPlan &plan) {
  if (!req.messagesCarryNoData && !req.receivesOnlyCombined) return;
  for (const CallExpr *c : req.calls) {
    std::string name = pointToPointCallee(c);
    MessageArgs m = messageArgs(c, name, false);
    if (!m.valid()) continue;
    const VarDecl *v = referencedVar(m.buffer);
    if (!v || req.collectiveWrites.count(v)) continue;
    const Stmt *use = readOutsidePattern(v);
    if (!use) continue;
    std::string read = name + " at " + where(c) + " receives into '" + v->getNameAsString() + "', read at " +
                       where(use);
    if (req.messagesCarryNoData)
      fail(plan, "the messages carry values the program reads: " + read + "; a barrier would not deliver them");
    else
      plan.lateWhyNot = "the messages deliver values the reduction does not combine: " + read +
                        ", while the collective call leaves its result in its accumulator only";
    return;
  }
}

void Planner::collectKeptWrites(RegionPlan &plan) const {
  std::function<void(const Stmt *)> walk = [&](const Stmt *s) {
    if (!s || patterns.count(s)) return;
    const Expr *lhs = nullptr;
    assignedVar(s, &lhs);
    if (lhs)
      if (const VarDecl *v = referencedVar(lhs)) plan.keptWrites.insert(v);
    if (const auto *call = dyn_cast<CallExpr>(s)) {
      std::string n = calleeName(call);
      if ((n == "memcpy" || n == "memmove" || n == "memset") && call->getNumArgs() > 0)
        if (const VarDecl *v = referencedVar(call->getArg(0))) plan.keptWrites.insert(v);
    }
    for (const Stmt *c : s->children()) walk(c);
  };
  for (const Stmt *s : plan.slice) walk(s);
}

} // namespace cz::rewrite
