// CallBuilderText.cpp: the texts every replacement call is made of (the
// communicator, datatype and rank as valid at the region, buffers named
// outside the loop, each argument chosen or refused) and the patch
// statement that ends every kind (CallBuilder.h).
#include <algorithm>

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"

#include "CallBuilder.h"
#include "RingCombine.h"

namespace cz::rewrite {

using namespace clang;

CallPlan &CallBuilder::fail(CallPlan &plan, const std::string &why) {
  plan.ok = false;
  plan.whyNot = why;
  return plan;
}

std::string CallBuilder::fn(const std::string &mpi, const std::string &runtime) {
  if (target != Target::Runtime) return mpi;
  runtimeUsed = true;
  return runtime;
}

std::string CallBuilder::usable(const Expr *e, bool base) const {
  if (!local(e)) return src.of(e);
  if (!base) return "";
  return baseText(e);
}

std::string CallBuilder::baseText(const Expr *e) const {
  const Expr *s = strip(e);
  for (int depth = 0; depth < 8; depth++) {
    if (const auto *d = dyn_cast<DeclRefExpr>(s)) {
      const auto *v = dyn_cast<VarDecl>(d->getDecl());
      if (v && region.regionLocals.count(v) && v->getInit() && v->getType()->isPointerType()) {
        s = strip(v->getInit());
        continue;
      }
      break;
    }
    if (const auto *b = dyn_cast<BinaryOperator>(s); b && b->isAdditiveOp() && b->getLHS()->getType()->isPointerType()) {
      s = strip(b->getLHS());
    } else if (const auto *u = dyn_cast<UnaryOperator>(s); u && u->getOpcode() == UO_AddrOf &&
                                                            isa<ArraySubscriptExpr>(strip(u->getSubExpr()))) {
      s = strip(cast<ArraySubscriptExpr>(strip(u->getSubExpr()))->getBase());
    } else {
      break;
    }
  }
  return local(s) ? "" : src.of(s);
}

bool CallBuilder::pointeeIsVoid(const Expr *e) const {
  QualType t = strip(e)->getType();
  return t->isPointerType() && t->getPointeeType()->isVoidType();
}

bool CallBuilder::commText(CallPlan &plan) {
  std::set<std::string> seen;
  for (const auto *list : {&sends, &recvs})
    for (const MessageArgs &a : *list) {
      if (local(a.comm)) return fail(plan, "the communicator changes inside the loop"), false;
      seen.insert(squeeze(src.of(a.comm)));
      if (comm.empty()) comm = src.of(a.comm);
    }
  if (seen.size() > 1) {
    std::string all;
    for (const std::string &s : seen) all += (all.empty() ? "" : ", ") + s;
    return fail(plan, "the sites use different communicators (" + all + ")"), false;
  }
  return true;
}

std::vector<MessageArgs> CallBuilder::split(const std::vector<SiteCall> &sites, bool send) {
  std::vector<MessageArgs> out;
  for (const SiteCall &s : sites)
    if (s.send == send)
      if (MessageArgs a = messageArgs(s.call, s.callee, s.send); a.valid()) out.push_back(a);
  return out;
}

std::set<const VarDecl *> CallBuilder::rankLike(const std::vector<MessageArgs> &sends,
                                          const std::vector<MessageArgs> &recvs) {
  std::set<const VarDecl *> to, from, both;
  auto vars = [](const std::vector<MessageArgs> &list, std::set<const VarDecl *> &out) {
    for (const MessageArgs &a : list)
      forEachStmt(a.peer, [&](const Stmt *x) {
        if (const auto *d = dyn_cast<DeclRefExpr>(x))
          if (const auto *v = dyn_cast<VarDecl>(d->getDecl())) out.insert(v);
      });
  };
  vars(sends, to);
  vars(recvs, from);
  for (const VarDecl *v : to)
    if (from.count(v)) both.insert(v);
  return both;
}

bool CallBuilder::take(const Chosen &chosen, std::string &into, CallPlan &plan) {
  if (chosen.text.empty()) return fail(plan, chosen.whyNot), false;
  into = chosen.text;
  plan.notes.insert(plan.notes.end(), chosen.notes.begin(), chosen.notes.end());
  plan.review.insert(plan.review.end(), chosen.review.begin(), chosen.review.end());
  return true;
}

std::string CallBuilder::rankList() const {
  std::string s;
  for (size_t i = 0; i < match.ranks.size(); i++) s += (i ? ", " : "") + std::to_string(match.ranks[i]);
  return "[" + s + "]";
}

bool CallBuilder::buffersHold(CallPlan &plan) {
  // A combining ring that swaps its send and receive pointers each step
  // is replaced whole by a call on its accumulator, which names neither
  // (ringAllreduceCall judges the ring).
  std::set<const VarDecl *> swapped;
  if (match.kind == "allgather" || match.kind == "allreduce") {
    RingCombine ring = analyzeRing(src, sends, recvs, comm);
    if (ring.found && ring.swaps) swapped = {ring.pass, ring.got};
  }
  for (const auto *list : {&sends, &recvs})
    for (const MessageArgs &a : *list) {
      // Down to the pointer the address comes from; `&x` is x's own place.
      const Expr *e = strip(a.buffer);
      while (true) {
        if (const auto *s = dyn_cast<ArraySubscriptExpr>(e)) e = strip(s->getBase());
        else if (const auto *b = dyn_cast<BinaryOperator>(e); b && b->isAdditiveOp() && b->getLHS()->getType()->isPointerType()) e = strip(b->getLHS());
        else if (const auto *u = dyn_cast<UnaryOperator>(e); u && u->getOpcode() == UO_AddrOf &&
                                                           isa<ArraySubscriptExpr>(strip(u->getSubExpr()))) e = strip(u->getSubExpr());
        else break;
      }
      const auto *d = dyn_cast<DeclRefExpr>(e);
      const auto *v = d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
      if (v && v->getType()->isPointerType() && !region.regionLocals.count(v) && !swapped.count(v) &&
          flow.valueWrittenIn(v, region.begin, region.end, args.precede))
        return fail(plan, "the buffer pointer '" + v->getNameAsString() + "' changes inside the region (line " +
                              std::to_string(args.line(a.buffer)) + " uses it): no single buffer to hand to MPI"),
               false;
    }
  return true;
}

bool CallBuilder::typeText(CallPlan &plan) {
  std::set<std::string> texts;
  for (const auto *list : {&sends, &recvs})
    for (const MessageArgs &a : *list) texts.insert(squeeze(src.of(a.datatype)));
  const MessageArgs &first = sends.empty() ? recvs[0] : sends[0];
  if (local(first.datatype)) return fail(plan, "the datatype changes inside the loop"), false;
  type = src.of(first.datatype);
  if (texts.size() > 1)
    plan.review.push_back("the sites name different datatypes; " + type + " is used");
  return true;
}

std::string CallBuilder::rankText() {
  for (const VarDecl *v : region.rankVariables)
    if (src.offset(v->getLocation()) < region.begin && !region.regionLocals.count(v))
      return v->getNameAsString();
  // A name of the patch's own: the root or the buffers may be spelled
  // with a program variable called cz_rank.
  std::string name = unusedName(src.ctx, "cz_rank");
  rankDecl = "int " + name + ";\nMPI_Comm_rank(" + comm + ", &" + name + ");\n";
  return name;
}

void CallBuilder::leaves(CallPlan &plan, const std::string &buffer, const std::string &at, bool perRankBlocks) {
  if (!rankDecl.empty() && buffer.find(rank) != std::string::npos) {
    plan.effectWhyNot = "the output buffer (" + buffer + ") depends on the rank, which the code "
                        "around the region does not name";
    return;
  }
  plan.hasEffect = true;
  plan.effect = {false, buffer, count, type, comm, at, perRankBlocks};
}

CallPlan &CallBuilder::finish(CallPlan &plan, const std::string &call) {
  std::string body = call + ";";
  bool rankUsed = !rankDecl.empty() && body.find(rank) != std::string::npos;
  if (!region.wrapperMacro.empty()) {
    size_t at = body.find(call);
    if (at != std::string::npos) body.replace(at, call.size(), region.wrapperMacro + "(" + call + ")");
    plan.notes.push_back("wrapped in " + region.wrapperMacro + "(...) like the calls it replaces");
  }
  if (rankUsed && !rankDecl.empty()) body = rankDecl + body;
  if (body.find('\n') != std::string::npos) body = "{\n" + indentLines(body) + "\n}";
  plan.code = body;
  plan.usesRuntime = runtimeUsed;
  if (target == Target::Runtime && !runtimeUsed)
    plan.notes.push_back("Collectivize's runtime has no " + match.kind + ": the MPI collective is used");
  if (!plan.hasEffect && plan.effectWhyNot.empty())
    plan.effectWhyNot = "no output buffer recorded for " + match.kind;
  plan.ok = true;
  return plan;
}

} // namespace cz::rewrite
