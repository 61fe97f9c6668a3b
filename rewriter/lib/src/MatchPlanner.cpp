// MatchPlanner.cpp: see MatchPlanner.h.
#include "MatchPlanner.h"

#include <algorithm>
#include <map>
#include <set>

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"

#include "collectivize/rewrite/CallShapes.h"
#include "collectivize/rewrite/Region.h"

#include "AlltoallvCall.h"
#include "AstQueries.h"
#include "CombineStep.h"
#include "PrefixChain.h"
#include "RingCombine.h"
#include "RingReduceScatter.h"
#include "RingTwoPhase.h"
#include "DeadLocals.h"
#include "WrapperCalls.h"

namespace cz::rewrite {
namespace {

using namespace clang;

std::string joinLines(const std::vector<std::string> &parts, const std::string &indent) {
  std::string out;
  for (const std::string &p : parts) {
    if (p.empty()) continue;
    std::string indented;
    for (char c : p) {
      indented += c;
      if (c == '\n') indented += indent;
    }
    out += (out.empty() ? "" : "\n" + indent) + indented;
  }
  return out;
}

// The call's wrapper makes the site's MPI call, or its body is not in this
// translation unit (defined in another file): the site is this call all
// the same, and wrapperProblems says why no patch goes through it.
bool wrapsOrUnseen(const CallExpr *call, llvm::StringRef callee) {
  if (wrappedCall(call, callee)) return true;
  const FunctionDecl *f = call->getDirectCallee();
  return f && !f->hasBody();
}

class SiteCalls : public RecursiveASTVisitor<SiteCalls> {
public:
  SiteCalls(SourceManager &sm, const std::vector<SiteRef> &refs) : sm(sm), refs(refs) {}
  bool VisitCallExpr(CallExpr *call) {
    std::string name = calleeName(call);
    if (name.empty()) return true;
    // Where the call is written: in a macro argument its own text, else
    // the macro use (the site database anchors them the same way).
    SourceLocation at = sm.getFileLoc(call->getBeginLoc());
    if (sm.getFileID(at) != sm.getMainFileID()) return true;
    unsigned line = sm.getSpellingLineNumber(at), column = sm.getSpellingColumnNumber(at);
    // A wrapper's caller is known by the line of the call instruction
    // only, which may be any line of a call written over several.
    unsigned lastLine = sm.getSpellingLineNumber(sm.getFileLoc(call->getEndLoc()));
    for (size_t i = 0; i < refs.size(); i++) {
      const SiteRef &r = refs[i];
      if (!r.wrapper.empty()) {
        if (name != r.wrapper || r.line < line || r.line > lastLine) continue;
        if (!wrapsOrUnseen(call, r.callee)) {
          // A function that makes the callee more than once (a halo step
          // with a receive per neighbour): its call is the site's caller,
          // but stands for all of them.
          if (wrappedCallCount(call, r.callee) > 1 && !several) {
            several = i + 1;
            severalCall = call;
          }
          continue;
        }
        found.push_back({call, r.callee, r.send});
        if (!matched.insert(i).second) ambiguous = i + 1;
        continue;
      }
      if (!isPointToPoint(name)) continue;
      if (r.line != line || (r.column && r.column != column)) continue;
      if (!r.callee.empty() && r.callee != name) continue;
      if (r.callee.empty() && !messageArgs(call, name, r.send).valid()) continue;
      found.push_back({call, name, r.send});
      matched.insert(i);
    }
    return true;
  }
  SourceManager &sm;
  const std::vector<SiteRef> &refs;
  std::vector<SiteCall> found;
  std::set<size_t> matched;
  size_t ambiguous = 0; // 1 + a wrapper site whose line calls the wrapper twice
  size_t several = 0;   // 1 + a wrapper site whose wrapper makes its callee more than once
  const CallExpr *severalCall = nullptr; // that site's call of the wrapper
};


// The calls of one match's sites; false when one is missing (its line).
// twice: a wrapper site whose caller's line calls the wrapper twice (the
// trace's return address does not say which). several: a wrapper site not
// found because its wrapper makes the site's MPI call more than once
// (missing is that site, several its caller's call of the wrapper).
bool findSites(ASTContext &ctx, const std::vector<SiteRef> &refs, std::vector<SiteCall> &found,
               size_t &missing, bool *twice = nullptr, const CallExpr **several = nullptr) {
  SiteCalls finder(ctx.getSourceManager(), refs);
  finder.TraverseDecl(ctx.getTranslationUnitDecl());
  found = finder.found;
  if (finder.ambiguous) {
    missing = finder.ambiguous - 1;
    if (twice) *twice = true;
    return false;
  }
  for (size_t i = 0; i < refs.size(); i++)
    if (!finder.matched.count(i)) {
      missing = i;
      if (several && finder.several) {
        missing = finder.several - 1;
        *several = finder.severalCall;
      }
      return false;
    }
  return true;
}

// Sites in the program's own wrappers: why their callers' calls cannot
// stand for the wrappers' MPI calls ("" when they can); names: the wrappers.
std::string wrapperProblems(ASTContext &ctx, const std::vector<SiteCall> &sites, std::set<std::string> &names) {
  for (const SiteCall &s : sites) {
    if (calleeName(s.call) == s.callee) continue;
    if (std::string why = wrapperProblem(ctx, s.call, s.callee, s.send); !why.empty()) return why;
    names.insert(wrapperName(ctx.getSourceManager(), s.call));
  }
  return "";
}

class PlanConsumer : public ASTConsumer {
public:
  PlanConsumer(Job &job, Preprocessor *pp) : job(job), pp(pp) {}

  void HandleTranslationUnit(ASTContext &ctx) override {
    forgetMadeExpressions(); // made in an AST that is gone
    job.ran = true;
    PatchPlan &p = *job.out;
    size_t missing = 0;
    std::vector<SiteCall> own;
    bool twice = false;
    const CallExpr *several = nullptr;
    if (!findSites(ctx, job.sites, own, missing, &twice, &several)) {
      const SiteRef &r = job.sites[missing];
      std::string at = p.file + ":" + std::to_string(r.line);
      if (twice) {
        p.reason = at + " calls " + r.wrapper + " more than once, and the trace does not say which call is the site";
        return;
      }
      if (several) {
        p.reason = "the sites are in " + wrapperName(ctx.getSourceManager(), several) + ", which makes " + r.callee +
                   " more than once: its call at " + at + " stands for all of them, and a patch there cannot "
                   "replace one";
        return;
      }
      p.failed = true;
      p.reason = "no " + (!r.wrapper.empty() ? r.wrapper + " call (making " + r.callee + ")"
                          : r.callee.empty() ? std::string("MPI call") : r.callee) +
                 " at " + at + " in the parsed source (the file changed, or the call is in inactive #if code)";
      return;
    }
    std::set<std::string> wrappers;
    if (std::string why = wrapperProblems(ctx, own, wrappers); !why.empty()) {
      p.reason = why;
      return;
    }
    if (!wrappers.empty()) {
      std::string names;
      for (const std::string &w : wrappers) names += (names.empty() ? "" : ", ") + w;
      p.notes.push_back("the messages go through the program's own wrapper" + std::string(wrappers.size() > 1 ? "s " : " ") +
                        names + ": the patch replaces the calls at the callers, each argument of the wrapped MPI "
                        "call as the caller passes it; the wrappers stay as they are (other code calls them)");
    }
    SourceText src(ctx, pp);
    // The match alone; if its loop also carries another match's messages,
    // the two together (and so on).
    std::vector<Member> members{{job.match, own, p.id}};
    std::vector<std::vector<SiteCall>> partnerCalls(job.partners.size());
    for (size_t i = 0; i < job.partners.size(); i++)
      if (std::set<std::string> w; !findSites(ctx, job.partners[i].sites, partnerCalls[i], missing) ||
                                   !wrapperProblems(ctx, partnerCalls[i], w).empty())
        partnerCalls[i].clear();
    RegionPlan region;
    std::set<size_t> used;
    while (true) {
      region = planRegion(src, request(members, src));
      if (region.ok || !region.foreignCall) break;
      // The partner the refused call belongs to; never one that shares a
      // site with the members (the same code run again, e.g. another root).
      std::set<const CallExpr *> taken;
      for (const Member &m : members)
        for (const SiteCall &s : m.sites) taken.insert(s.call);
      size_t partner = job.partners.size();
      for (size_t i = 0; i < job.partners.size() && partner == job.partners.size(); i++) {
        bool holds = false, overlaps = false;
        for (const SiteCall &s : partnerCalls[i]) {
          holds = holds || s.call == region.foreignCall;
          overlaps = overlaps || taken.count(s.call);
        }
        if (holds && !overlaps && !used.count(i)) partner = i;
      }
      if (partner == job.partners.size()) break;
      used.insert(partner);
      members.push_back({job.partners[partner].match, partnerCalls[partner], job.partners[partner].id});
      order(members, src);
    }
    if (!region.ok) {
      p.reason = region.whyNot;
      return;
    }
    std::vector<std::string> parts{region.before}, calls;
    bool runtime = false;
    for (size_t g = 0; g < members.size(); g++) {
      CallPlan call = buildCall(src, region, *members[g].match, members[g].sites, job.target, int(g));
      if (!call.ok) {
        p.reason = (members.size() > 1 ? members[g].id + ": " : "") + call.whyNot;
        if (members.size() == 1 && !call.suggestion.empty()) p.suggestion = call.suggestion, p.notes = call.notes;
        return;
      }
      parts.push_back(call.code);
      if (region.between.count(int(g))) parts.push_back(region.between.at(int(g)));
      calls.push_back(call.code);
      for (const char *name : {"MPI_Bcast", "MPI_Scatter", "MPI_Gather", "MPI_Reduce", "MPI_Allreduce",
                               "MPI_Allgather", "MPI_Alltoall", "MPI_Barrier", "MPI_Scan",
                               "MPI_Allgatherv"})
        if (call.code.find(std::string(name) + "(") != std::string::npos &&
            std::find(p.collectives.begin(), p.collectives.end(), name) == p.collectives.end())
          p.collectives.push_back(name);
      if (call.hasEffect)
        p.effects.push_back(call.effect);
      else if (p.effectWhyNot.empty())
        p.effectWhyNot = (members.size() > 1 ? members[g].id + ": " : "") + call.effectWhyNot;
      p.notes.insert(p.notes.end(), call.notes.begin(), call.notes.end());
      p.review.insert(p.review.end(), call.review.begin(), call.review.end());
      runtime = runtime || call.usesRuntime;
    }
    if (!region.lateWhyNot.empty()) {
      p.reason = region.lateWhyNot;
      return;
    }
    parts.push_back(region.after);
    if (members.size() > 1) {
      std::string ids;
      for (const Member &m : members) ids += (ids.empty() ? "" : ", ") + m.id;
      p.notes.insert(p.notes.begin(), "one loop carried the messages of " + ids +
                                          ": one collective each, in the order the messages went");
      for (const Member &m : members)
        if (m.match != job.match) p.fused.push_back(m.match->index);
    }
    SourceManager &sm = ctx.getSourceManager();
    std::string indent = src.lineIndent(region.begin);
    p.begin = region.begin;
    p.end = region.end;
    FileID fid = sm.getMainFileID();
    p.beginLine = sm.getLineNumber(fid, region.begin);
    p.beginColumn = sm.getColumnNumber(fid, region.begin);
    p.endLine = sm.getLineNumber(fid, region.end);
    p.endColumn = sm.getColumnNumber(fid, region.end);
    p.call = joinLines(calls, "");
    p.replacement = joinLines(parts, indent);
    if (!region.slice.empty())
      p.removedDeclarations = deadDeclarations(ctx, src, region.slice.front(), region.begin, region.end,
                                               p.replacement);
    for (const PatchPlan::DeclarationEdit &d : p.removedDeclarations)
      p.notes.push_back((d.text.empty() ? "the declaration `" + d.removed + "`"
                                        : d.names + " of `" + d.removed + "`") +
                        " (line " + std::to_string(sm.getLineNumber(fid, d.from)) +
                        ") " + (d.names.find(',') == std::string::npos || d.text.empty() ? "is" : "are") +
                        " removed: only the replaced code used " +
                        (d.names.find(',') == std::string::npos || d.text.empty() ? "it" : "them"));
    p.kept = region.kept;
    p.review.insert(p.review.begin(), region.review.begin(), region.review.end());
    p.addInclude = runtime && src.buffer.find("collectivize.h") == llvm::StringRef::npos;
    p.status = p.review.empty() ? "proposed" : "review";
    if (!p.effectWhyNot.empty()) p.effects.clear(); // all of the calls, or none
  }

private:
  struct Member {
    const DetectedMatch *match;
    std::vector<SiteCall> sites;
    std::string id;
  };
  Job &job;
  Preprocessor *pp;

  // Fused matches in the order their messages go: by their first site.
  static void order(std::vector<Member> &members, const SourceText &src) {
    auto first = [&](const Member &m) {
      unsigned at = ~0u;
      for (const SiteCall &s : m.sites) at = std::min(at, src.offset(s.call->getBeginLoc()));
      return at;
    };
    std::stable_sort(members.begin(), members.end(),
                     [&](const Member &a, const Member &b) { return first(a) < first(b); });
  }

  // A member's send and receive arguments, one entry per role.
  static std::pair<std::vector<MessageArgs>, std::vector<MessageArgs>> sides(const Member &m) {
    std::vector<MessageArgs> sends, recvs;
    for (const SiteCall &s : m.sites)
      if (MessageArgs a = messageArgs(s.call, s.callee, s.send); a.valid()) (s.send ? sends : recvs).push_back(a);
    return {sends, recvs};
  }

  static RegionRequest request(const std::vector<Member> &members, const SourceText &src) {
    RegionRequest req;
    req.groups = int(members.size());
    for (size_t g = 0; g < members.size(); g++) {
      // One call may play both roles (a Sendrecv): one entry per role.
      for (const SiteCall &s : members[g].sites) {
        if (std::find(req.calls.begin(), req.calls.end(), s.call) == req.calls.end()) req.calls.push_back(s.call);
        req.siteCalls.insert(s.call);
        req.group[s.call] = int(g);
      }
      const std::string &k = members[g].match->kind;
      if (k == "reduce" || k == "allreduce" || k == "scan") {
        std::set<const VarDecl *> acc = reductionAccumulators(members[g].sites);
        req.collectiveWrites.insert(acc.begin(), acc.end());
      }
      if (k == "barrier") req.messagesCarryNoData = true;
      if (k == "reduce" || k == "allreduce" || k == "scan" || k == "exscan" || k == "reduce_scatter")
        req.receivesOnlyCombined = true;
      // A chain of ranks proven a prefix reduction: what it writes and its
      // combine and copy statements are the call's.
      if (k == "scan" || k == "exscan" || k == "reduce") {
        auto [sends, recvs] = sides(members[g]);
        PrefixChain chain =
            analyzePrefixChain(src, sends, recvs, sends.empty() ? "" : src.of(sends[0].comm), k == "exscan");
        if (chain.found && chain.whyNot.empty()) {
          req.collectiveWrites.insert(chain.writes.begin(), chain.writes.end());
          req.collectiveSteps.insert(chain.steps.begin(), chain.steps.end());
        }
      }
      // An alltoallv's copy of the rank's own block: the call's own work.
      if (k == "alltoallv") {
        auto [sends, recvs] = sides(members[g]);
        std::set<const Stmt *> copies = ownBlockCopies(src, sends, recvs);
        req.ownBlockCopies.insert(copies.begin(), copies.end());
      }
      // A reduce-scatter ring: its buffers and combine step are the call's.
      if (k == "reduce_scatter") {
        auto [sends, recvs] = sides(members[g]);
        RingReduceScatter ring =
            analyzeReduceScatterRing(src, sends, recvs, sends.empty() ? "" : src.of(sends[0].comm));
        if (ring.found) req.collectiveWrites.insert({ring.acc, ring.got});
        if (ring.combineStep) req.collectiveSteps.insert(ring.combineStep);
      }
      // A ring allreduce in two loops: its buffers and combine step are the call's.
      if (k == "allreduce") {
        std::vector<MessageArgs> sends, recvs;
        for (const SiteCall &s : members[g].sites)
          if (MessageArgs a = messageArgs(s.call, s.callee, s.send); a.valid()) (s.send ? sends : recvs).push_back(a);
        TwoPhaseRing ring = analyzeTwoPhaseRing(src, sends, recvs, sends.empty() ? "" : src.of(sends[0].comm));
        if (ring.found && ring.acc) req.collectiveWrites.insert({ring.acc, ring.got});
        if (ring.combineStep) req.collectiveSteps.insert(ring.combineStep);
      }
      // A ring combining what arrives (`sum += got; pass = got`): sum is
      // the result, the combine and the forward the collective's own work.
      if (k == "allgather" || k == "allreduce") {
        auto [sends, recvs] = sides(members[g]);
        RingCombine ring = analyzeRing(src, sends, recvs, sends.empty() ? "" : src.of(sends[0].comm));
        if (ring.found && ring.acc) {
          req.collectiveWrites.insert({ring.acc, ring.pass});
          // A pointer swap writes the receive pointer and the temporary too.
          if (ring.swaps) req.collectiveWrites.insert(ring.got);
          if (ring.swapTemp) req.collectiveWrites.insert(ring.swapTemp);
          req.collectiveSteps.insert(ring.steps.begin(), ring.steps.end());
        }
      }
    }
    return req;
  }
};

class PlanAction : public ASTFrontendAction {
public:
  explicit PlanAction(Job &job) : job(job) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &ci, llvm::StringRef) override {
    return std::make_unique<PlanConsumer>(job, &ci.getPreprocessor());
  }

private:
  Job &job;
};

class PlanFactory : public tooling::FrontendActionFactory {
public:
  explicit PlanFactory(Job &job) : job(job) {}
  std::unique_ptr<FrontendAction> create() override { return std::make_unique<PlanAction>(job); }

private:
  Job &job;
};

} // namespace

std::unique_ptr<tooling::FrontendActionFactory> planningAction(Job &job) {
  return std::make_unique<PlanFactory>(job);
}

} // namespace cz::rewrite
