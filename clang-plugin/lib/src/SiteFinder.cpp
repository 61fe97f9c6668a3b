// SiteFinder.cpp: one RecursiveASTVisitor pass over the TU's project code.
// It keeps its own stack of enclosing statements and functions (cheaper than
// the parent map), visits template patterns only (so a call written once in
// a template is one site, however often it is instantiated) and skips
// declarations in system headers without descending into them.
#include "collectivize/clang/SiteFinder.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "clang/AST/ASTContext.h"
#include "collectivize/clang/PeerClass.h"
#include "collectivize/clang/PeerIndexedBuffer.h"
#include "collectivize/clang/StagingCopy.h"
#include "collectivize/clang/VaryingValue.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/raw_ostream.h"

#include "collectivize/clang/MpiCalls.h"
#include "collectivize/clang/ProjectRoot.h"
#include "collectivize/clang/SiteId.h"

using namespace clang;

namespace cz::clangtools {
namespace {

struct FileInfo {
  bool project = false;
  std::string relative, absolute;
  uint64_t hash = 0;
};

class Finder : public RecursiveASTVisitor<Finder> {
  using Base = RecursiveASTVisitor<Finder>;

public:
  Finder(ASTContext &ctx, const FinderOptions &options)
      : sm_(ctx.getSourceManager()), lo_(ctx.getLangOpts()), options_(options) {}

  bool shouldVisitTemplateInstantiations() const { return false; }

  bool TraverseDecl(Decl *d) {
    if (!d) return true;
    if (!isa<TranslationUnitDecl>(d)) {
      SourceLocation loc = sm_.getExpansionLoc(d->getLocation());
      if (loc.isValid() && sm_.isInSystemHeader(loc)) return true;
    }
    auto *fd = dyn_cast<FunctionDecl>(d);
    if (fd) functions_.push_back(fd);
    bool ok = Base::TraverseDecl(d);
    if (fd) functions_.pop_back();
    return ok;
  }

  // Without the queue parameter: RecursiveASTVisitor then recurses through
  // this function for every child, so stack_ is always the path to the node.
  bool TraverseStmt(Stmt *s) {
    if (!s) return true;
    stack_.push_back(s);
    bool ok = Base::TraverseStmt(s);
    stack_.pop_back();
    return ok;
  }

  bool VisitCallExpr(CallExpr *call) {
    std::string callee = calleeName(call);
    const MpiFunction *fn = classifyMpiCall(callee);
    if (fn) record(call, *fn);
    return true;
  }

  std::vector<FoundSite> take() {
    // A function is the program's wrapper when every point-to-point call
    // in it takes its peers from the caller.
    for (auto &[f, ids] : wrapperSites_)
      if (!notWrappers_.count(f))
        for (uint64_t id : ids) byAnchor_.at(id).site.callPath = "caller";
    std::vector<FoundSite> out;
    for (auto &kv : byAnchor_) out.push_back(std::move(kv.second));
    std::sort(out.begin(), out.end(), [](const FoundSite &a, const FoundSite &b) {
      return std::tie(a.site.file, a.site.position.line, a.site.position.column, a.site.id) <
             std::tie(b.site.file, b.site.position.line, b.site.position.column, b.site.id);
    });
    return out;
  }

private:
  static std::string calleeName(const CallExpr *call) {
    if (const FunctionDecl *fd = call->getDirectCallee())
      return fd->getIdentifier() ? fd->getName().str() : "";
    const Expr *c = call->getCallee()->IgnoreParenImpCasts();
    // A call with type-dependent arguments in a template: name lookup is
    // deferred to instantiation.
    if (const auto *ule = dyn_cast<UnresolvedLookupExpr>(c))
      return ule->getName().getAsString();
    if (const auto *dre = dyn_cast<DeclRefExpr>(c))
      return dre->getNameInfo().getAsString();
    return "";
  }

  const FileInfo &fileInfo(FileID fid) {
    auto it = files_.find(fid);
    if (it != files_.end()) return it->second;
    FileInfo info;
    if (const FileEntry *fe = sm_.getFileEntryForID(fid)) {
      std::string name = fe->tryGetRealPathName().str();
      if (name.empty()) name = fe->getName().str();
      info.absolute = realPath(name);
      if (info.absolute.empty()) info.absolute = name;
      info.project = !sm_.isInSystemHeader(sm_.getLocForStartOfFile(fid)) &&
                     relativeToRoot(options_.root, info.absolute, info.relative);
      if (info.project) info.hash = fnv1a64(sm_.getBufferData(fid));
    }
    return files_.emplace(fid, std::move(info)).first->second;
  }

  Position position(SourceLocation loc) const {
    std::pair<FileID, unsigned> d = sm_.getDecomposedLoc(loc);
    return {sm_.getLineNumber(d.first, d.second), sm_.getColumnNumber(d.first, d.second)};
  }

  // The file range of [b, e] (token locations): the written text if it maps
  // cleanly, else the range of the macro uses it lies in.
  CharSourceRange fileRange(SourceLocation b, SourceLocation e) const {
    CharSourceRange r = Lexer::makeFileCharRange(CharSourceRange::getTokenRange(b, e), sm_, lo_);
    if (r.isValid()) return r;
    SourceLocation fb = sm_.getExpansionRange(b).getBegin();
    SourceLocation fe = sm_.getExpansionRange(e).getEnd();
    return Lexer::makeFileCharRange(CharSourceRange::getTokenRange(fb, fe), sm_, lo_);
  }

  Range toRange(CharSourceRange r) const {
    if (r.isInvalid()) return {};
    return {position(r.getBegin()), position(r.getEnd())};
  }

  std::string text(CharSourceRange r) const {
    if (r.isInvalid()) return "";
    return Lexer::getSourceText(r, sm_, lo_).str();
  }

  std::string text(SourceLocation b, SourceLocation e) const { return spelledText(b, e); }

  std::string condText(const Expr *cond) const {
    return cond ? text(cond->getBeginLoc(), cond->getEndLoc()) : "";
  }

  // The text of [b, e] as written: in the file, or, for code inside a macro
  // expansion, in the nearest enclosing macro definition that holds all of
  // it (so `MPI_INT` stays `MPI_INT`, not Open MPI's expansion of it).
  std::string spelledText(SourceLocation b, SourceLocation e, FileID prefer = FileID()) const {
    CharSourceRange r = Lexer::makeFileCharRange(CharSourceRange::getTokenRange(b, e), sm_, lo_);
    if (r.isValid()) return text(r);
    // Each end's chain of enclosing expansions (a macro argument's token
    // steps to its parameter in the body); the first pair of levels in one
    // expansion whose spelling is ordered, in one non-system file, wins.
    auto chain = [&](SourceLocation l, bool begin) {
      std::vector<SourceLocation> c{l};
      while (l.isMacroID() && c.size() < 24) {
        CharSourceRange x = sm_.getImmediateExpansionRange(l);
        l = begin ? x.getBegin() : x.getEnd();
        c.push_back(l);
      }
      return c;
    };
    std::vector<SourceLocation> cb = chain(b, true), ce = chain(e, false);
    // Prefer the expansion the call itself is written in: an argument
    // spelled in the same #define as the call reads as written there.
    if (prefer.isValid())
      for (SourceLocation x : cb)
        for (SourceLocation y : ce)
          if (sm_.getFileID(x) == prefer && sm_.getFileID(y) == prefer) {
            SourceLocation sb = sm_.getSpellingLoc(x), se = sm_.getSpellingLoc(y);
            if (!sm_.isBeforeInTranslationUnit(se, sb))
              return text(CharSourceRange::getTokenRange(sb, se));
          }
    for (size_t sum = 0; sum < cb.size() + ce.size(); ++sum)
      for (size_t i = 0; i <= sum && i < cb.size(); ++i) {
        size_t j = sum - i;
        if (j >= ce.size() || sm_.getFileID(cb[i]) != sm_.getFileID(ce[j])) continue;
        SourceLocation sb = sm_.getSpellingLoc(cb[i]), se = sm_.getSpellingLoc(ce[j]);
        if (sm_.getFileID(sb) == sm_.getFileID(se) && !sm_.isBeforeInTranslationUnit(se, sb) &&
            !sm_.isInSystemHeader(sb) && sm_.getFileEntryForID(sm_.getFileID(sb)))
          return text(CharSourceRange::getTokenRange(sb, se));
      }
    return text(fileRange(b, e));
  }

  std::string argText(const Expr *arg, FileID callFile) const {
    std::string t = spelledText(arg->getBeginLoc(), arg->getEndLoc(), callFile);
    if (!t.empty()) return t;
    std::string s;
    llvm::raw_string_ostream os(s);
    arg->printPretty(os, nullptr, PrintingPolicy(lo_));
    return os.str();
  }

  void context(Site &site) const {
    for (size_t i = 0; i + 1 < stack_.size(); ++i) {
      const Stmt *s = stack_[i], *child = stack_[i + 1];
      ContextEntry e;
      e.range = toRange(fileRange(s->getBeginLoc(), s->getEndLoc()));
      if (const auto *f = dyn_cast<ForStmt>(s)) {
        e.kind = "for";
        e.header = text(f->getBeginLoc(), f->getRParenLoc());
        e.condition = condText(f->getCond());
      } else if (const auto *f = dyn_cast<CXXForRangeStmt>(s)) {
        e.kind = "range-for";
        e.header = text(f->getBeginLoc(), f->getRParenLoc());
      } else if (const auto *w = dyn_cast<WhileStmt>(s)) {
        e.kind = "while";
        e.header = text(w->getBeginLoc(), w->getRParenLoc());
        e.condition = condText(w->getCond());
      } else if (const auto *d = dyn_cast<DoStmt>(s)) {
        e.kind = "do";
        e.header = text(d->getWhileLoc(), d->getRParenLoc());
        e.condition = condText(d->getCond());
      } else if (const auto *f = dyn_cast<IfStmt>(s)) {
        e.kind = "if";
        e.header = text(f->getBeginLoc(), f->getRParenLoc());
        e.condition = condText(f->getCond());
        e.branch = child == f->getThen() ? "then" : child == f->getElse() ? "else" : "condition";
      } else if (const auto *w = dyn_cast<SwitchStmt>(s)) {
        e.kind = "switch";
        e.header = text(w->getBeginLoc(), w->getRParenLoc());
        e.condition = condText(w->getCond());
      } else if (const auto *c = dyn_cast<SwitchCase>(s)) {
        addLabel(site, c);
        continue;
      } else if (const auto *body = dyn_cast<CompoundStmt>(s)) {
        // Statements after the first one under a case label are siblings of
        // the label in the switch body: find the label that governs child.
        if (i == 0 || !isa<SwitchStmt>(stack_[i - 1]) || isa<SwitchCase>(child)) continue;
        const SwitchCase *label = nullptr;
        for (const Stmt *st : body->body()) {
          if (st == child) break;
          if (const auto *sc = dyn_cast<SwitchCase>(st)) label = sc;
        }
        if (label) addLabel(site, label);
        continue;
      } else if (isa<LambdaExpr>(s)) {
        e.kind = "lambda";
        e.header = "lambda";
      } else {
        continue;
      }
      site.context.push_back(std::move(e));
    }
  }

  void addLabel(Site &site, const SwitchCase *c) const {
    ContextEntry e;
    e.kind = isa<DefaultStmt>(c) ? "default" : "case";
    e.header = text(c->getBeginLoc(), c->getColonLoc());
    e.range = toRange(fileRange(c->getBeginLoc(), c->getEndLoc()));
    site.context.push_back(std::move(e));
  }

  void record(CallExpr *call, const MpiFunction &fn) {
    SourceLocation b = call->getBeginLoc(), e = call->getEndLoc();
    if (b.isInvalid() || e.isInvalid()) return;
    SourceLocation expB = sm_.getExpansionLoc(b);
    FileID fid = sm_.getFileID(expB);
    const FileInfo &file = fileInfo(fid);
    if (!file.project) return;

    Site site;
    site.file = file.relative;
    site.path = file.absolute;
    site.fileHash = file.hash;
    site.callee = fn.name;
    site.kind = callKindName(fn.kind);
    for (const Expr *arg : call->arguments())
      if (!isa<CXXDefaultArgExpr>(arg))
        site.args.push_back(argText(arg, b.isMacroID() ? sm_.getFileID(b) : FileID()));
    if (fn.kind == CallKind::PointToPoint)
      for (unsigned k : peerArguments(fn.name))
        if (k < call->getNumArgs() && k < site.args.size())
          site.peers.push_back(classifyPeer(call->getArg(k), site.args[k], stack_));
    if (fn.kind == CallKind::PointToPoint)
      findStagingCopy(call, fn.name, stack_, sm_, lo_, site.staging);
    if (fn.kind == CallKind::PointToPoint)
      findVaryingValue(call, fn.name, stack_, sm_, lo_, site.varies);
    if (fn.kind == CallKind::PointToPoint && !functions_.empty())
      findPeerIndexedBuffer(call, fn.name, functions_.back(), site.args, sm_, lo_, site.peerIndexed);
    for (const FunctionDecl *f : functions_) site.inTemplate |= f->isTemplated();
    if (!functions_.empty()) {
      const FunctionDecl *f = functions_.back();
      site.function = f->getQualifiedNameAsString();
      site.functionRange = toRange(fileRange(f->getBeginLoc(), f->getEndLoc()));
    }
    context(site);

    CharSourceRange written = Lexer::makeFileCharRange(CharSourceRange::getTokenRange(b, e), sm_, lo_);
    CharSourceRange whole = fileRange(b, e);
    site.range = toRange(whole);
    site.position = site.range.begin;
    bool inMacroArg = b.isMacroID() && sm_.isMacroArgExpansion(b);
    site.inMacro = b.isMacroID() && !inMacroArg;
    if (site.inMacro) {
      site.macro.name = text(CharSourceRange::getTokenRange(expB, expB));
      SourceLocation spell = sm_.getSpellingLoc(b);
      const FileInfo &sf = fileInfo(sm_.getFileID(spell));
      site.macro.spellingFile = sf.project ? sf.relative : sf.absolute;
      site.macro.spelling = position(spell);
      site.macro.expansion = position(expB);
    }

    // Where the site is anchored, and what to wrap (in any project file:
    // the main file or a project header).
    unsigned wrapBegin = 0, wrapEnd = 0;
    std::string wrapPath;
    SourceLocation anchorLoc;
    std::string anchor;
    if (written.isValid() && sm_.getFileID(written.getBegin()) == fid) {
      anchor = !site.inMacro ? "call" : "macro-expansion";
      anchorLoc = written.getBegin();
      wrapPath = file.absolute;
    } else if (site.inMacro) {
      SourceLocation sb = sm_.getSpellingLoc(b), se = sm_.getSpellingLoc(e);
      FileID sfid = sm_.getFileID(sb);
      const FileInfo &sf = fileInfo(sfid);
      if (sf.project && sm_.getFileID(se) == sfid && !sm_.isBeforeInTranslationUnit(se, sb) &&
          !sm_.isMacroArgExpansion(e)) {
        // Part of a larger macro expansion: wrap the call in the #define,
        // one site (in the defining file) for every use.
        anchor = "macro-definition";
        anchorLoc = sb;
        written = CharSourceRange::getCharRange(sb, Lexer::getLocForEndOfToken(se, 0, sm_, lo_));
        site.macro.expansionFile = site.file;
        site.file = sf.relative;
        site.path = sf.absolute;
        site.fileHash = sf.hash;
        site.position = position(sb);
        site.range = toRange(written);
        wrapPath = sf.absolute;
      } else {
        unsigned k = macroCalls_[expB.getRawEncoding()]++;
        anchor = "macro-body#" + std::to_string(k);
        anchorLoc = expB;
        site.note = "inside a larger macro expansion defined outside the project";
      }
    } else {
      anchor = "unmapped";
      anchorLoc = expB;
      site.note = "the call's text is not contiguous in one file";
    }

    Position ap = position(anchorLoc);
    SiteKey key{site.file, site.fileHash, ap.line, ap.column, site.callee, anchor};
    site.id = siteId(key);
    site.anchor = anchor;
    if (!wrapPath.empty()) {
      wrapBegin = sm_.getFileOffset(written.getBegin());
      wrapEnd = sm_.getFileOffset(written.getEnd());
      site.instrumented = fn.traced;
      if (!fn.traced)
        site.note = std::string("the tracer takes no site id for ") + fn.name;
    }

    unsigned functionBegin = 0, functionEnd = 0, functionOuter = 0;
    bool quiet = false;
    if (fn.kind == CallKind::PointToPoint && !functions_.empty()) {
      const FunctionDecl *f = functions_.back();
      if (site.instrumented && anchor == "call" && wrapperEntry(site, fid, functionBegin, functionEnd, functionOuter, quiet))
        wrapperSites_[f].push_back(site.id);
      else
        notWrappers_.insert(f);
    }

    auto it = byAnchor_.find(site.id);
    if (it != byAnchor_.end()) {
      // Same anchor seen again: another use of a #define, or a macro
      // argument expanded twice.
      if (anchor == "macro-definition") addExpansion(it->second.site, site.macro.expansion);
      return;
    }
    if (anchor == "macro-definition") addExpansion(site, site.macro.expansion);
    FoundSite found{std::move(site), wrapBegin, wrapEnd,      wrapPath,
                    functionBegin,   functionEnd, functionOuter, quiet};
    byAnchor_.emplace(found.site.id, std::move(found));
  }

  // Whether the site can be one of the program's own wrapper of an MPI
  // call: in a function other than main whose caller passes every peer as
  // such (class "parameter"), so one wrapper may carry every pattern of the
  // program and only its callers tell them apart. A function with any other
  // point-to-point call (a loop over ranks, a send to a computed rank, even
  // beside a receive from a `root` parameter) holds its pattern and keeps
  // its sites (take() decides per function). The function must be one that
  // can be kept out of line in the instrumented copy: its definition written
  // in the call's file, outside macros, not always_inline, the call not in a
  // lambda. [begin, end): its definition (offsets in that file); outer:
  // where it begins with its template parameter lists, when a pragma may
  // stand there (quiet; not inside a class).
  bool wrapperEntry(const Site &site, FileID fid, unsigned &begin, unsigned &end,
                    unsigned &outer, bool &quiet) const {
    if (functions_.empty() || site.peers.empty() ||
        std::any_of(site.peers.begin(), site.peers.end(),
                    [](const std::string &p) { return p != "parameter"; }))
      return false;
    for (const ContextEntry &c : site.context)
      if (c.kind == "lambda") return false;
    const FunctionDecl *f = functions_.back();
    if (f->isMain() || !f->doesThisDeclarationHaveABody() || f->hasAttr<AlwaysInlineAttr>())
      return false;
    SourceLocation at = f->getInnerLocStart(), last = f->getEndLoc();
    if (at.isInvalid() || at.isMacroID() || sm_.getFileID(at) != fid || last.isInvalid() ||
        last.isMacroID() || sm_.getFileID(last) != fid)
      return false;
    begin = sm_.getFileOffset(at);
    end = sm_.getFileOffset(Lexer::getLocForEndOfToken(last, 0, sm_, lo_));
    SourceLocation o = f->getOuterLocStart();
    if (const FunctionTemplateDecl *t = f->getDescribedFunctionTemplate()) o = t->getBeginLoc();
    quiet = !f->getLexicalDeclContext()->isRecord() && o.isValid() && o.isFileID() &&
            sm_.getFileID(o) == fid && sm_.getFileOffset(o) <= begin;
    outer = quiet ? sm_.getFileOffset(o) : begin;
    return end > begin;
  }

  static void addExpansion(Site &site, Position p) {
    for (const Position &q : site.macro.expansions)
      if (q.line == p.line && q.column == p.column) return;
    site.macro.expansions.push_back(p);
  }

  SourceManager &sm_;
  const LangOptions &lo_;
  const FinderOptions &options_;
  std::vector<Stmt *> stack_;
  std::vector<const FunctionDecl *> functions_;
  std::map<FileID, FileInfo> files_;
  std::map<uint64_t, FoundSite> byAnchor_;
  std::map<const FunctionDecl *, std::vector<uint64_t>> wrapperSites_;
  std::set<const FunctionDecl *> notWrappers_;
  std::map<unsigned, unsigned> macroCalls_;
};

} // namespace

std::vector<FoundSite> findSites(ASTContext &ctx, const FinderOptions &options) {
  Finder finder(ctx, options);
  finder.TraverseDecl(ctx.getTranslationUnitDecl());
  return finder.take();
}

std::vector<ProjectFile> projectHeaders(ASTContext &ctx, const FinderOptions &options) {
  SourceManager &sm = ctx.getSourceManager();
  const FileEntry *main = sm.getFileEntryForID(sm.getMainFileID());
  std::vector<ProjectFile> out;
  for (auto it = sm.fileinfo_begin(); it != sm.fileinfo_end(); ++it) {
    const FileEntry *fe = it->first;
    if (!fe || fe == main) continue;
    std::string name = fe->tryGetRealPathName().str();
    std::string abs = realPath(name.empty() ? fe->getName().str() : name);
    ProjectFile f;
    if (abs.empty() || !relativeToRoot(options.root, abs, f.relative)) continue;
    llvm::Optional<llvm::MemoryBufferRef> buf = it->second->getBufferIfLoaded();
    if (!buf) continue;
    f.absolute = abs;
    f.spelled = fe->getName().str();
    f.text = buf->getBuffer();
    out.push_back(std::move(f));
  }
  std::sort(out.begin(), out.end(),
            [](const ProjectFile &a, const ProjectFile &b) { return a.absolute < b.absolute; });
  return out;
}

} // namespace cz::clangtools
