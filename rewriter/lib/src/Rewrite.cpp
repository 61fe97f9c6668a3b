// Rewrite.cpp: per match, find the sites in the real AST, plan the region,
// build the call, and produce the edited file through tooling Replacements.
#include "collectivize/rewrite/Rewrite.h"

#include <cstdio>
#include <map>
#include <set>

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Core/Replacement.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include "collectivize/clang/CompileArgs.h"
#include "collectivize/clang/ProjectRoot.h"
#include "collectivize/clang/SiteDatabase.h"
#include "collectivize/clang/SiteId.h"
#include "collectivize/rewrite/CallShapes.h"
#include "collectivize/rewrite/PatchFiles.h"
#include "collectivize/rewrite/Region.h"

#include "AstQueries.h"

namespace cz::rewrite {
namespace {

using namespace clang;

// Where a site is in the file: the anchor position (instrumenter ids) or
// only a line (return addresses).
struct SiteRef {
  unsigned line = 0, column = 0; // column 0: any call on the line
  std::string callee;            // "" : any point-to-point call
  bool send = true;
};

struct Job {
  const DetectedMatch *match = nullptr;
  std::vector<SiteRef> sites;
  Target target = Target::Mpi;
  PatchPlan *out = nullptr;
  bool ran = false;
};

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

class SiteCalls : public RecursiveASTVisitor<SiteCalls> {
public:
  SiteCalls(SourceManager &sm, const std::vector<SiteRef> &refs) : sm(sm), refs(refs) {}
  bool VisitCallExpr(CallExpr *call) {
    std::string name = calleeName(call);
    if (name.empty() || !isPointToPoint(name)) return true;
    // Where the call is written: in a macro argument its own text, else
    // the macro use (the site database anchors them the same way).
    SourceLocation at = sm.getFileLoc(call->getBeginLoc());
    if (sm.getFileID(at) != sm.getMainFileID()) return true;
    unsigned line = sm.getSpellingLineNumber(at), column = sm.getSpellingColumnNumber(at);
    for (size_t i = 0; i < refs.size(); i++) {
      const SiteRef &r = refs[i];
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
};

class PlanConsumer : public ASTConsumer {
public:
  PlanConsumer(Job &job, Preprocessor *pp) : job(job), pp(pp) {}
  void HandleTranslationUnit(ASTContext &ctx) override {
    job.ran = true;
    PatchPlan &p = *job.out;
    SiteCalls finder(ctx.getSourceManager(), job.sites);
    finder.TraverseDecl(ctx.getTranslationUnitDecl());
    if (finder.matched.size() != job.sites.size()) {
      for (size_t i = 0; i < job.sites.size(); i++)
        if (!finder.matched.count(i)) {
          p.failed = true;
          p.reason = "no " + (job.sites[i].callee.empty() ? std::string("MPI call") : job.sites[i].callee) +
                     " at " + p.file + ":" + std::to_string(job.sites[i].line) +
                     " in the parsed source (the file changed, or the call is in inactive #if code)";
          return;
        }
    }
    // One call may play both roles (a Sendrecv): one entry per role.
    RegionRequest req;
    for (const SiteCall &s : finder.found) {
      if (std::find(req.calls.begin(), req.calls.end(), s.call) == req.calls.end()) req.calls.push_back(s.call);
      req.siteCalls.insert(s.call);
    }
    const std::string &k = job.match->kind;
    if (k == "reduce" || k == "allreduce") req.collectiveWrites = reductionAccumulators(finder.found);
    req.messagesCarryNoData = k == "barrier";
    SourceText src(ctx, pp);
    RegionPlan region = planRegion(src, req);
    if (!region.ok) {
      p.reason = region.whyNot;
      return;
    }
    CallPlan call = buildCall(src, region, *job.match, finder.found, job.target);
    if (!call.ok) {
      p.reason = call.whyNot;
      return;
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
    p.call = call.code;
    p.replacement = joinLines({region.before, call.code, region.after}, indent);
    p.kept = region.kept;
    p.notes = call.notes;
    p.review = region.review;
    p.review.insert(p.review.end(), call.review.begin(), call.review.end());
    p.addInclude = call.usesRuntime && src.buffer.find("collectivize.h") == llvm::StringRef::npos;
    p.status = p.review.empty() ? "proposed" : "review";
  }

private:
  Job &job;
  Preprocessor *pp;
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

bool readFile(const std::string &path, std::string &text) {
  auto b = llvm::MemoryBuffer::getFile(path);
  if (!b) return false;
  text = (*b)->getBuffer().str();
  return true;
}

void finish(PatchPlan &p) {
  if (p.status == "none" || p.status.empty()) {
    p.status = "none";
    return;
  }
  tooling::Replacements reps;
  llvm::Error e = reps.add(tooling::Replacement(p.path, p.begin, p.end - p.begin, p.replacement));
  if (!e && p.addInclude)
    e = reps.add(tooling::Replacement(p.path, afterIncludes(p.original), 0, "#include \"collectivize.h\"\n"));
  if (e) {
    p.status = "none";
    p.reason = "internal: overlapping edits (" + llvm::toString(std::move(e)) + ")";
    return;
  }
  auto patched = tooling::applyAllReplacements(p.original, reps);
  if (!patched) {
    p.status = "none";
    p.reason = "internal: " + llvm::toString(patched.takeError());
    return;
  }
  p.patched = *patched;
  if (p.status == "review") {
    p.reason.clear();
    for (const std::string &r : p.review) p.reason += (p.reason.empty() ? "" : "; ") + r;
  }
}

} // namespace

bool planPatches(const RewriteInputs &in, std::vector<PatchPlan> &out, std::string &projectRoot,
                 std::string &err) {
  clangtools::SiteDatabase db;
  if (!in.sitesPath.empty() && !clangtools::readSiteDatabase(in.sitesPath, db, err)) return false;
  std::map<uint64_t, const clangtools::Site *> byId;
  for (const clangtools::Site &s : db.sites) byId[s.id] = &s;
  projectRoot = in.root;
  if (projectRoot.empty())
    for (const clangtools::Site &s : db.sites) {
      llvm::StringRef path(s.path), file(s.file);
      if (path.endswith(file) && path.size() > file.size()) {
        projectRoot = path.drop_back(file.size() + 1).str();
        break;
      }
    }

  const DetectionReport &report = *in.report;
  for (const DetectedMatch &m : report.matches) {
    PatchPlan p;
    p.match = m.index;
    char stem[64];
    if (!in.only.empty() && !in.only.count(m.index + 1)) continue;
    std::snprintf(stem, sizeof stem, "%02zu-%s", m.index + 1, m.kind.empty() ? "match" : m.kind.c_str());
    p.id = stem;
    p.kind = m.kind;
    auto none = [&](const std::string &why) {
      p.status = "none";
      p.reason = why;
      out.push_back(p);
    };
    auto failed = [&](const std::string &why) {
      p.failed = true;
      none(why);
    };
    if (in.progress) std::fprintf(stderr, "rewrite: %s (%zu of %zu)\n", p.id.c_str(), m.index + 1, report.matches.size());
    if (!m.malformed.empty()) {
      failed("match " + std::to_string(m.index + 1) + " of " + report.path + " is malformed: " + m.malformed);
      continue;
    }
    if (!m.confirmed) {
      none("a partial match (its post-conditions do not hold for every member): only confirmed matches are rewritten");
      continue;
    }
    std::vector<SiteRef> refs;
    std::set<std::string> paths;
    std::string problem;
    bool inputProblem = true; // else the code's shape
    const clangtools::Site *anySite = nullptr;
    for (const MatchSite &ms : m.sites) {
      SiteRef r;
      r.send = ms.send;
      if (ms.instrumenter) {
        auto it = byId.find(ms.id);
        if (it == byId.end()) {
          problem = in.sitesPath.empty()
                        ? "the report names instrumenter sites but no site database was given (--sites FILE)"
                        : "site " + std::to_string(ms.id) + " is not in the site database " + in.sitesPath +
                              " (built from other sources?)";
          break;
        }
        const clangtools::Site &s = *it->second;
        anySite = &s;
        std::string path = s.path;
        if (!projectRoot.empty()) path = projectRoot + "/" + s.file;
        paths.insert(path);
        p.file = s.file;
        r.line = s.position.line;
        r.column = s.position.column;
        r.callee = s.callee;
        if (s.anchor != "call" && s.anchor != "macro-expansion") {
          inputProblem = false;
          problem = "the call at " + s.file + ":" + std::to_string(s.position.line) +
                    " is written inside a macro definition (" + s.anchor + "): edit the macro by hand";
          break;
        }
      } else {
        if (ms.file.empty() || !ms.line) {
          problem = "a call site is a raw return address (no debug information): rebuild with -g, or "
                    "instrument the program, and trace again";
          break;
        }
        std::string path = ms.file;
        if (!llvm::sys::path::is_absolute(path) && !projectRoot.empty()) path = projectRoot + "/" + path;
        paths.insert(path);
        p.file = ms.file;
        r.line = unsigned(ms.line);
      }
      refs.push_back(r);
    }
    if (!problem.empty()) {
      if (inputProblem) failed(problem);
      else none(problem);
      continue;
    }
    if (paths.empty()) {
      failed("the report names no call site for this match");
      continue;
    }
    if (paths.size() > 1) {
      std::string list;
      for (const std::string &f : paths) list += (list.empty() ? "" : ", ") + f;
      none("the sites are in several files (" + list + "): a collective spread over files is not rewritten");
      continue;
    }
    p.path = *paths.begin();
    // No site database (return-address sites): the instrumenter's rule, the
    // nearest directory above the file holding .git, else its directory.
    if (projectRoot.empty()) projectRoot = clangtools::defaultProjectRoot(p.path);
    if (!projectRoot.empty() && !clangtools::relativeToRoot(projectRoot, p.path, p.file))
      p.file = p.path;
    if (!readFile(p.path, p.original)) {
      failed("cannot read " + p.path);
      continue;
    }
    if (anySite && clangtools::fnv1a64(p.original) != anySite->fileHash) {
      failed(p.file + " changed since it was instrumented (the site database is stale): instrument, "
                    "build, trace and detect again, then rewrite");
      continue;
    }
    llvm::StringRef ext = llvm::sys::path::extension(p.path);
    if (ext == ".h" || ext == ".hpp" || ext == ".hh") {
      none("the sites are in a header (" + p.file + "): rewrite it by hand, a header is parsed only "
           "through the files that include it");
      continue;
    }

    // Parse the file with the project's flags.
    std::unique_ptr<tooling::CompilationDatabase> fixed;
    tooling::CompilationDatabase *cdb = in.compileDb;
    if (!cdb || cdb->getCompileCommands(p.path).empty()) {
      std::vector<std::string> flags = in.fallbackFlags;
      for (const std::string &d : clangtools::mpiIncludeDirs("mpicc")) {
        flags.push_back("-isystem");
        flags.push_back(d);
      }
      flags.push_back("-I" + llvm::sys::path::parent_path(p.path).str());
      if (!projectRoot.empty()) flags.push_back("-I" + projectRoot);
      fixed = std::make_unique<tooling::FixedCompilationDatabase>(llvm::sys::path::parent_path(p.path), flags);
      cdb = fixed.get();
    }
    Job job;
    job.match = &m;
    job.sites = refs;
    job.target = in.target;
    job.out = &p;
    p.status = "none";
    tooling::ClangTool tool(*cdb, {p.path});
    tool.appendArgumentsAdjuster(clangtools::mpiAwareAdjuster());
    PlanFactory factory(job);
    int rc = tool.run(&factory);
    if (rc != 0 || !job.ran) {
      p.status = "none";
      p.failed = true;
      if (p.reason.empty() || rc != 0)
        p.reason = p.file + " does not parse (Clang's errors are above): give the project's compile flags "
                            "with -p BUILD_DIR (compile_commands.json) or after --";
      out.push_back(p);
      continue;
    }
    finish(p);
    for (const PatchPlan &earlier : out)
      if (p.status != "none" && earlier.status != "none" && earlier.path == p.path && earlier.begin == p.begin &&
          earlier.end == p.end && earlier.replacement == p.replacement) {
        p.status = "none";
        p.reason = "the same code as " + earlier.id + " (another group running it): " + earlier.id +
                   "'s patch covers this match too";
        break;
      }
    out.push_back(p);
  }
  return true;
}

} // namespace cz::rewrite
