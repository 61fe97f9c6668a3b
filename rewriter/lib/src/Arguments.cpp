// Arguments.cpp: choosing the count and the root (see Arguments.h).
#include "Arguments.h"

#include <functional>
#include <set>

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/TypeLoc.h"

#include "AstQueries.h"

namespace cz::rewrite {

using namespace clang;

std::string squeeze(const std::string &t) {
  std::string out;
  for (char c : t)
    if (c != ' ' && c != '\t' && c != '\n') out += c;
  return out;
}

bool ArgumentContext::holds(const Expr *e, std::string *why) const {
  std::string problem;
  forEachStmt(e, [&](const Stmt *x) {
    const auto *d = dyn_cast<DeclRefExpr>(x);
    const auto *v = d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
    if (!v || !problem.empty()) return;
    if (region.regionLocals.count(v)) problem = "'" + v->getNameAsString() + "' is declared inside the region";
    else if (!flow.inScopeAt(v, region.begin)) problem = "'" + v->getNameAsString() + "' is not in scope there";
  });
  if (!problem.empty()) {
    if (why) *why = problem;
    return false;
  }
  return flow.invariantIn(e, region.begin, region.end, why, precede);
}

namespace {

bool constantValue(const ArgumentContext &c, const Expr *e, long long &value) {
  Expr::EvalResult r;
  if (e->isValueDependent() || !e->EvaluateAsInt(r, c.src.ctx)) return false;
  value = r.Val.getInt().getSExtValue();
  return true;
}

std::string quoted(const ArgumentContext &c, const Expr *e) {
  return "`" + c.src.of(e) + "` (line " + std::to_string(c.line(e)) + ")";
}

// The buffer is an array of exactly `count` elements: its declared size
// (`static float data[N]` -> N), the count of a broadcast sent in pieces.
std::string arraySize(const ArgumentContext &c) {
  for (const auto *list : {&c.sends, &c.recvs})
    for (const MessageArgs &a : *list) {
      const Expr *b = strip(a.buffer);
      for (int depth = 0; depth < 8; depth++) {
        if (const auto *d = dyn_cast<DeclRefExpr>(b)) {
          const auto *v = dyn_cast<VarDecl>(d->getDecl());
          if (v && c.region.regionLocals.count(v) && v->getInit()) {
            b = strip(v->getInit());
            continue;
          }
          break;
        }
        const auto *bin = dyn_cast<BinaryOperator>(b);
        if (!bin || !bin->isAdditiveOp()) break;
        b = strip(bin->getLHS());
      }
      const auto *d = dyn_cast<DeclRefExpr>(b);
      const auto *v = d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
      if (!v) continue;
      const auto *t = c.src.ctx.getAsConstantArrayType(v->getType());
      if (!t || (long long)t->getSize().getZExtValue() != c.match.count) continue;
      if (TypeSourceInfo *tsi = v->getTypeSourceInfo())
        if (auto at = tsi->getTypeLoc().getAs<ArrayTypeLoc>(); at && at.getSizeExpr())
          return c.src.of(at.getSizeExpr());
    }
  return "";
}

} // namespace

Chosen chooseCount(const ArgumentContext &c) {
  Chosen out;
  const std::string traced = std::to_string(c.match.count);
  std::vector<const Expr *> sent, posted, all;
  for (const MessageArgs &a : c.sends) sent.push_back(a.count);
  for (const MessageArgs &a : c.recvs) posted.push_back(a.count);
  all = sent;
  all.insert(all.end(), posted.begin(), posted.end());
  // What is sent defines the block; receivers only post room for it.
  const std::vector<const Expr *> &defining = sent.empty() ? posted : sent;
  std::set<std::string> definingTexts, postedTexts;
  for (const Expr *e : defining) definingTexts.insert(squeeze(c.src.of(e)));
  for (const Expr *e : posted) postedTexts.insert(squeeze(c.src.of(e)));
  std::string rejected;
  auto reject = [&](const Expr *e, const std::string &why) {
    if (rejected.empty()) rejected = quoted(c, e) + " " + why;
  };
  for (const Expr *e : all) {
    std::string why;
    if (!c.holds(e, &why)) {
      reject(e, "does not hold at the patch point: " + why);
      continue;
    }
    if (c.flow.rankDependent(e)) {
      reject(e, "depends on the rank");
      continue;
    }
    long long v;
    if (constantValue(c, e, v)) {
      if (v != c.match.count) {
        reject(e, "is " + std::to_string(v) + ", the trace shows " + traced + " elements");
        continue;
      }
      out.text = c.src.of(e);
      out.notes.push_back("count: " + out.text + " (the sites' count; the trace shows " + traced + ")");
      return out;
    }
    if (definingTexts.size() != 1 || *definingTexts.begin() != squeeze(c.src.of(e))) {
      reject(e, "is not the count every " + std::string(sent.empty() ? "receive" : "send") + " passes");
      continue;
    }
    out.text = c.src.of(e);
    out.notes.push_back("count: " + out.text + " (the same expression at every " +
                        (sent.empty() ? "receive" : "send") + ", unchanged across the region)");
    if (!posted.empty() && (postedTexts.size() != 1 || *postedTexts.begin() != squeeze(out.text)))
      out.review.push_back("the receives post another count than the " + out.text +
                           " the sends pass: the patch uses " + out.text + " on every rank");
    return out;
  }
  // A constant inside a count (`have * BLOCK`: pieces of several blocks).
  for (const Expr *e : all) {
    std::string found;
    std::function<void(const Stmt *)> visit = [&](const Stmt *s) {
      if (!found.empty() || !s) return;
      long long v;
      if (const auto *x = dyn_cast<Expr>(s); x && constantValue(c, x, v) && v == c.match.count && c.holds(x)) {
        found = c.src.of(x);
        return;
      }
      for (const Stmt *ch : s->children()) visit(ch);
    };
    visit(e);
    if (!found.empty()) {
      out.text = found;
      out.notes.push_back("count: " + found + " (the block inside " + quoted(c, e) + "; the trace shows " +
                          traced + ")");
      return out;
    }
  }
  if (std::string size = arraySize(c); !size.empty()) {
    out.text = size;
    out.notes.push_back("count: " + size + " (the declared size of the buffer sent in pieces)");
    return out;
  }
  out.whyNot = "no count expression holds for every rank at the patch point (" + rejected +
               "), and none evaluates to the " + traced + " elements the trace shows: pass the count "
               "the same way at every site, then rewrite again";
  return out;
}

Chosen chooseRoot(const ArgumentContext &c) {
  Chosen out;
  const long long observed = c.match.root;
  // A root that changes from instance to instance (a loop over panels
  // owned by different ranks): no constant can be it.
  const bool varies = !c.match.roots.empty();
  std::string traced = std::to_string(observed);
  if (varies) {
    traced = "[";
    for (size_t k = 0; k < c.match.roots.size(); k++)
      traced += (k ? ", " : "") + std::to_string(c.match.roots[k]);
    traced += "] (changing from instance to instance)";
  }
  // A candidate must hold at the patch point, be the same on every rank
  // and, when it is a constant, be the root the trace shows.
  std::string rejected;
  auto usable = [&](const Expr *e) {
    std::string why;
    if (!c.holds(e, &why)) {
      if (rejected.empty()) rejected = quoted(c, e) + " does not hold at the patch point: " + why;
      return false;
    }
    if (c.flow.rankDependent(e)) return false;
    long long v;
    if (constantValue(c, e, v) && (varies || v != observed)) {
      if (rejected.empty()) rejected = quoted(c, e) + " is " + std::to_string(v) + ", the trace shows root " + traced;
      return false;
    }
    return true;
  };
  // 1. The peer every non-root rank names: where bcast/scatter receivers
  // receive from, where gather/reduce senders send to.
  bool fromRoot = c.match.kind == "bcast" || c.match.kind == "scatter" || c.match.kind == "scatterv";
  const std::vector<MessageArgs> &members = fromRoot ? c.recvs : c.sends;
  std::set<std::string> peers;
  for (const MessageArgs &a : members)
    if (a.peer) peers.insert(squeeze(c.src.of(a.peer)));
  if (peers.size() == 1 && members[0].peer && peers.begin()->find("ANY_SOURCE") == std::string::npos &&
      usable(members[0].peer)) {
    out.text = c.src.of(members[0].peer->IgnoreParens());
    out.notes.push_back("root: " + out.text + " (the peer every " + (fromRoot ? "receive names" : "send names") +
                        "; the trace shows " + traced + ")");
    return out;
  }
  // 2. A rank comparison in the region or the ifs around it (`me == root`).
  std::vector<std::string> compared;
  for (const Expr *e : c.region.rootCandidates)
    if (usable(e)) {
      std::string t = c.src.of(e);
      bool seen = false;
      for (const std::string &s : compared) seen = seen || squeeze(s) == squeeze(t);
      if (!seen) compared.push_back(t);
    }
  if (!compared.empty()) {
    out.text = compared[0];
    out.notes.push_back("root: " + out.text + " (the rank comparison in the source; the trace shows " + traced + ")");
    if (compared.size() > 1)
      out.review.push_back("the source compares the rank with " + compared[0] + " and " + compared[1] +
                           "; the root is taken to be " + compared[0]);
    return out;
  }
  // 3. The rank made relative to it (`rel = (me - root + p) % p`).
  for (const Expr *e : c.flow.relativeRankBases(c.region.slice)) {
    long long v;
    if (constantValue(c, e, v) || !usable(e)) continue;
    out.text = c.src.of(e);
    out.notes.push_back("root: " + out.text + " (the rank is taken relative to it at line " +
                        std::to_string(c.line(e)) + "; the trace shows " + traced + ")");
    return out;
  }
  // 4. A tree fixed by the rank and the size alone (`me - mask`): its root
  // does not depend on the input; the source names it where it compares
  // the rank with that constant.
  bool fixedTree = true;
  for (const auto *list : {&c.sends, &c.recvs})
    for (const MessageArgs &a : *list) fixedTree = fixedTree && a.peer && c.flow.onlyRankAndSize(a.peer);
  if (fixedTree)
    for (const auto *list : {&c.flow.rankComparisons(), &c.flow.callerRankComparisons()})
      for (const Expr *e : *list) {
        long long v;
        if (!constantValue(c, e, v) || varies || v != observed) continue;
        out.text = c.src.of(e);
        out.notes.push_back("root: " + out.text + " (the messages' peers depend on the rank and the size only, so " +
                            "the tree's root does not depend on the input; the source compares the rank with " +
                            out.text + " at line " + std::to_string(c.line(e)) +
                            (list == &c.flow.rankComparisons() ? "" : ", in a caller that passes its rank in") +
                            "; verify at a second process count)");
        return out;
      }
  out.whyNot = "no root expression: the source names the root in no rank comparison, no peer that is "
               "the same at every site and no rank made relative to it" +
               (rejected.empty() ? std::string() : " (" + rejected + ")") + "; the trace shows root " + traced +
               ", which a patch must not freeze";
  return out;
}

} // namespace cz::rewrite
