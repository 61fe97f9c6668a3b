// RegionSplit.cpp: a region cut into the pattern and the work around it:
// work before the pattern is kept before the new call, work after it after,
// under the same if conditions; bookkeeping only the pattern reads is
// dropped; work between pattern statements moves after the call (review).
#include "Planner.h"

#include <algorithm>
#include <cctype>
#include <functional>

#include "clang/AST/Decl.h"

#include "collectivize/rewrite/CallShapes.h"

namespace cz::rewrite {

using namespace clang;

namespace {

// Comments and blank space only: nothing to keep.
bool onlyComments(const std::string &t) {
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

void append(std::string &to, const std::string &piece) {
  if (piece.empty()) return;
  to += to.empty() ? piece : "\n" + piece;
}

std::string firstLine(const std::string &t) {
  std::string l = t.substr(0, t.find('\n'));
  return t.find('\n') == std::string::npos ? l : l + " ...";
}

std::string wrapIf(const std::string &cond, const std::string &yes, const std::string &no) {
  if (yes.empty() && no.empty()) return "";
  if (no.empty()) return "if (" + cond + ") {\n" + indentLines(yes) + "\n}";
  if (yes.empty()) return "if (!(" + cond + ")) {\n" + indentLines(no) + "\n}";
  return "if (" + cond + ") {\n" + indentLines(yes) + "\n} else {\n" + indentLines(no) + "\n}";
}

} // namespace

// The code between two offsets, trimmed, its lines re-based to column 0
// (the indentation of its first line removed from the others).
std::string Planner::text(unsigned b, unsigned e) const {
  std::string t = src.between(b, e);
  size_t first = t.find_first_not_of(" \t\r\n");
  return rebase(t, first == std::string::npos ? "" : src.lineIndent(b + unsigned(first)));
}

// Trimmed, each line without the first line's indentation.
std::string Planner::rebase(std::string t, const std::string &indent) const {
  size_t first = t.find_first_not_of(" \t\r\n"), last = t.find_last_not_of(" \t\r\n");
  if (first == std::string::npos || onlyComments(t)) return "";
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

// A run of statements: work before the first pattern-holding statement is
// kept before the call, after the last one after it; work in between runs
// after the call (order changes: review).
bool Planner::splitSequence(const std::vector<const Stmt *> &kids, const CompoundStmt *block, Pieces &out,
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
    for (int i = 0; i < first; i++)
      if (!isStorageStatement(kids[size_t(i)])) declaredIn(kids[size_t(i)], declaredBefore);
    for (size_t i = size_t(last) + 1; i < kids.size(); i++)
      if (!isStorageStatement(kids[i]) && mentions(kids[i], declaredBefore)) {
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
  std::string before = textWithout(open, src.lineStart(src.offset(f->getBeginLoc())), kids);
  if (before.empty()) before = textWithout(open, src.offset(f->getBeginLoc()), kids);
  out.beforeRanges.push_back({open, src.offset(f->getBeginLoc())});
  std::string after = textWithout(src.endOffset(l), close, kids), middle;
  if (!before.empty()) plan.kept.push_back("kept before the call: " + firstLine(before));
  // Fused collectives: work between the last message of call g and the
  // first of a later call runs between the two calls, in its place.
  int previousGroup = -1;
  std::vector<const Stmt *> pending;
  auto settle = [&](int nextGroup) {
    for (const Stmt *k : pending) {
      std::string t = text(src.offset(k->getBeginLoc()), src.endOffset(k));
      if (req.groups > 1 && previousGroup >= 0 && previousGroup < nextGroup) {
        append(out.between[previousGroup], t);
        out.betweenRanges[previousGroup].push_back({src.offset(k->getBeginLoc()), src.endOffset(k)});
      } else {
        append(middle, t);
      }
    }
    pending.clear();
  };
  for (int i = first; i <= last; i++) {
    const Stmt *k = kids[size_t(i)];
    if (!patterns.count(k) && !containsPattern(k)) {
      // Other messages between the collective's would change order with it.
      const Stmt *p2p = nullptr;
      forEachStmt(k, [&](const Stmt *x) {
        if (const auto *call = dyn_cast<CallExpr>(x); call && !p2p && !pointToPointCallee(call).empty()) p2p = x;
      });
      if (p2p) {
        plan.foreignCall = cast<CallExpr>(p2p);
        fail(plan, calleeName(cast<CallExpr>(p2p)) + " at " + where(p2p) +
                       " is communication that is not part of this collective, between its messages: the "
                       "patch would move it after the collective call");
        return false;
      }
      if (req.collectiveSteps.count(k)) continue; // the call does it (a chain's combine step)
      if (!block && req.ownBlockCopies.count(k)) {
        plan.droppedCopies.push_back(k);
        continue;
      }
      if (!isStorageStatement(k) && !isBookkeeping(k, plan)) pending.push_back(k);
      continue;
    }
    std::set<int> groups = groupsIn(k);
    if (groups.empty()) groups = {std::max(previousGroup, 0)}; // a wait: no boundary
    settle(*groups.begin());
    previousGroup = *groups.rbegin();
    Pieces inner;
    if (!patterns.count(k) && !split(k, inner, plan)) return false;
    for (auto &[g, t] : inner.between) append(out.between[g], t);
    for (auto &[g, r] : inner.betweenRanges) out.betweenRanges[g].insert(out.betweenRanges[g].end(), r.begin(), r.end());
    if (i == first) out.beforeRanges.insert(out.beforeRanges.end(), inner.beforeRanges.begin(), inner.beforeRanges.end());
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

bool Planner::split(const Stmt *s, Pieces &out, RegionPlan &plan) {
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
    for (const Pieces *side : {&yes, &no}) {
      out.beforeRanges.insert(out.beforeRanges.end(), side->beforeRanges.begin(), side->beforeRanges.end());
      for (auto &[g, r] : side->betweenRanges)
        out.betweenRanges[g].insert(out.betweenRanges[g].end(), r.begin(), r.end());
      for (auto &[g, t] : side->between)
        out.between[g] = wrapIf(cond, side == &yes ? t : "", side == &no ? t : "");
    }
    for (auto &[g, t] : yes.between)
      if (no.between.count(g)) out.between[g] = wrapIf(cond, t, no.between.at(g));
    if (branch->getCond()->HasSideEffects(src.ctx) && !out.before.empty() && !out.after.empty())
      plan.review.push_back("the condition at " + where(s) + " has side effects and now runs twice");
    return true;
  }
  fail(plan, std::string("the sites sit in different iterations of the ") +
                 (isLoop(s) ? "loop" : "statement") + " at " + where(s) +
                 " (a loop that does not drive the messages' peers or buffers)");
  return false;
}

// A branch of an if: all work (kept before the call), or a statement holding
// pattern statements.
bool Planner::branchPieces(const Stmt *branch, Pieces &out, RegionPlan &plan) {
  if (!branch) return true;
  if (patterns.count(branch) || containsPattern(branch)) return split(branch, out, plan);
  std::string t = isa<CompoundStmt>(branch)
                      ? text(src.offset(cast<CompoundStmt>(branch)->getLBracLoc()) + 1,
                             src.offset(cast<CompoundStmt>(branch)->getRBracLoc()))
                      : text(src.offset(branch->getBeginLoc()), src.endOffset(branch));
  out.before = t;
  out.beforeRanges.push_back({src.offset(branch->getBeginLoc()), src.endOffset(branch)});
  if (!t.empty()) plan.kept.push_back("kept before the call (ranks that do not send): " + firstLine(t));
  return true;
}

// Whether a value the region leaves in v can be read later: a use after
// the region, or anywhere in the loop around it (the next iteration).
bool Planner::usedOutsideRegion(const VarDecl *v, const RegionPlan &plan) const {
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

// Whether the region's code that the patch keeps reads v: a use of v
// anywhere in the region but inside the pattern's statements (the call
// replaces them) and its own declarations and assignments that stand as
// statements of a block (dropped with it, as bookkeeping). A use in an if
// or a loop that wraps the pattern counts: the patch may keep it.
bool Planner::readByKeptCode(const VarDecl *v, const RegionPlan &plan) const {
  bool read = false;
  std::function<void(const Stmt *, bool)> walk = [&](const Stmt *x, bool inBlock) {
    if (!x || read || patterns.count(x)) return;
    unsigned b = src.offset(x->getBeginLoc()), e = src.endOffset(x);
    if (e <= plan.begin || b >= plan.end) return;
    if (inBlock) {
      if (assignedVar(x) == v) return;
      if (const auto *ds = dyn_cast<DeclStmt>(x)) {
        bool declares = false;
        for (const Decl *d : ds->decls()) declares = declares || d == v;
        if (declares) return;
      }
    }
    if (const auto *d = dyn_cast<DeclRefExpr>(x); d && d->getDecl() == v) {
      unsigned at = src.offset(d->getLocation());
      read = at >= plan.begin && at < plan.end;
      return;
    }
    for (const Stmt *c : x->children()) walk(c, isa<CompoundStmt>(x));
  };
  walk(body, false);
  return read;
}

// Declarations and assignments that only serve the pattern (request
// counters, loop bounds): nothing outside reads what they write, nor the
// code the patch keeps in the region (CMDA3634's ring bcast declared
// `int prev = root-1;` between its receive and its send, and the kept
// `if (root==0) prev = size-1;` and `if (rank != prev)` read it: dropped,
// the patch did not compile).
bool Planner::isBookkeeping(const Stmt *s, const RegionPlan &plan) const {
  if (const auto *ds = dyn_cast<DeclStmt>(s)) {
    for (const Decl *d : ds->decls()) {
      const auto *v = dyn_cast<VarDecl>(d);
      if (!v || usedOutsideRegion(v, plan) || readByKeptCode(v, plan)) return false;
      if (v->getInit() && v->getInit()->HasSideEffects(src.ctx)) return false;
    }
    return true;
  }
  const VarDecl *v = assignedVar(s);
  if (!v) return false;
  const Expr *e = cast<Expr>(s);
  if (const auto *b = dyn_cast<BinaryOperator>(e); b && b->getRHS()->HasSideEffects(src.ctx)) return false;
  return !usedOutsideRegion(v, plan) && !readByKeptCode(v, plan);
}

} // namespace cz::rewrite
