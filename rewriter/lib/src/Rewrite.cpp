// Rewrite.cpp: per match, the sites resolved through the site database
// (and checked against it), the file parsed with the project's flags
// (MatchPlanner plans on the AST), and the edited file produced through
// tooling Replacements.
#include "collectivize/rewrite/Rewrite.h"

#include <cctype>
#include <cstdio>
#include <map>
#include <set>

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
#include "collectivize/rewrite/PatchFiles.h"

#include "FortranBcastPatch.h"
#include "FortranSuggestion.h"
#include "MatchPlanner.h"

namespace cz::rewrite {
namespace {

using namespace clang;

// Ambiguous matches whose every open question the planner answers from the
// source before it proposes anything: the root's own block (the blocks at
// base + rank * count, the root's copy of its block: PatternChecks), a
// barrier's values (read after the region: no patch), blocks combined as
// they arrive (the ring's combine step: Replacement's ringAllreduce, which
// also finds the forward `pass = got` that makes its relays copy), a
// reduce-scatter's operation (the ring's combine step, RingReduceScatter,
// which no patch goes without), an allreduce's operation (only the two
// loops of a ring allreduce, RingTwoPhase, whose proof the patch needs:
// Replacement refuses any other allreduce the trace left it open for), a
// prefix reduction's operation, and a reduce's along a chain of ranks
// (only a chain PrefixChain runs and proves a scan: Replacement's prefix
// refuses any other scan, exscan or reduce the trace left it open for). Any
// other doubt (constant payloads, a neighbour exchange, runs that disagree,
// an unknown operation) the source cannot settle.
bool settledBySource(const DetectedMatch &m) {
  if (m.status != "ambiguous" || m.unproven.empty()) return false;
  for (const std::string &u : m.unproven) {
    bool ok = (u == "root_block" &&
               (m.kind == "gather" || m.kind == "scatter" || m.kind == "gatherv" || m.kind == "scatterv")) ||
              (u == "values_read" && m.kind == "barrier") ||
              (u == "combined" && m.kind == "allreduce") ||
              (u == "reduction_op" && (m.kind == "reduce_scatter" || m.kind == "allreduce")) ||
              (u == "reduction_op" && (m.kind == "scan" || m.kind == "exscan" || m.kind == "reduce")) ||
              (u == "relay_copied" && m.kind == "allreduce" &&
               std::count(m.unproven.begin(), m.unproven.end(), "combined"));
    if (!ok) return false;
  }
  return true;
}

// A scatter (gather) whose root sends (receives) every block through one
// staging buffer that a copy fills (empties) (site database "staging"):
// the collective's buffer is the copied array, the copy goes with the
// messages, and nothing here proves the copy's offset is rank x block or
// that the buffer is not read elsewhere. Why no patch, naming the copy; ""
// when the root's sites stage nothing.
std::string stagedRootSide(const DetectedMatch &m,
                           const std::map<uint64_t, const clangtools::Site *> &byId) {
  bool scatter = m.kind == "scatter" || m.kind == "scatterv";
  if (!scatter && m.kind != "gather" && m.kind != "gatherv") return "";
  for (const MatchSite &ms : m.sites) {
    if (!ms.instrumenter || ms.send != scatter) continue;
    auto it = byId.find(ms.id);
    if (it == byId.end() || it->second->staging.copy.empty()) continue;
    const clangtools::StagingCopy &c = it->second->staging;
    std::string copy = (c.copy == "loop" ? "the element loop at " : "the " + c.copy + " at ") +
                       it->second->file + ":" + std::to_string(c.at.line);
    std::string place = c.offset == "0" ? c.array : c.array + " + " + c.offset;
    if (c.copy == "loop") place = c.array + "[" + c.offset + "]";
    std::string call = "MPI_" + std::string(1, char(std::toupper(m.kind[0]))) + m.kind.substr(1) +
                       (scatter ? " from " : " into ");
    return "the root " + std::string(scatter ? "sends" : "receives") + " every block through the "
           "staging buffer " + c.buffer + ", " + (scatter ? "filled" : "emptied") + " by " + copy +
           (scatter ? " from " : " to ") + place + ": the collective is " + call + c.array +
           " with that copy removed, which is not made automatically (nothing proves the copy's "
           "offset is the rank times the block, nor that " + c.buffer +
           " is not read elsewhere); patch it by hand";
  }
  return "";
}

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
  if (llvm::Error e = addPatchEdits(p, reps, true)) {
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
  // A match's sites as positions in one file (or why not).
  struct Resolved {
    std::vector<SiteRef> refs;
    std::set<std::string> paths;
    std::string file, problem;
    bool inputProblem = true; // else the code's shape
    const clangtools::Site *anySite = nullptr;
  };
  // A site in a wrapper as the line that calls it (false: out.problem).
  auto atCaller = [&](const MatchSite &ms, const clangtools::Site &s, SiteRef &r, Resolved &out) {
    std::string wrapperPath = projectRoot.empty() ? s.path : projectRoot + "/" + s.file, text;
    if (!readFile(wrapperPath, text) || clangtools::fnv1a64(text) != s.fileHash) {
      out.problem = s.file + ", which holds the wrapper " + s.function +
                    ", changed since it was instrumented (or cannot be read): instrument, build, trace and "
                    "detect again, then rewrite";
      return false;
    }
    std::string path = ms.callerFile;
    if (!llvm::sys::path::is_absolute(path) && !projectRoot.empty()) path = projectRoot + "/" + path;
    // The caller is found by its line: a caller's file edited since would
    // put another line there (or none).
    std::string name = ms.callerFile, callerText;
    if (!projectRoot.empty()) clangtools::relativeToRoot(projectRoot, path, name);
    uint64_t hash = 0;
    if (clangtools::knownHash(db, name, hash) && readFile(path, callerText) &&
        clangtools::fnv1a64(callerText) != hash) {
      out.problem = name + ", which calls the wrapper " + s.function +
                    ", changed since it was instrumented (the site database is stale): instrument, build, "
                    "trace and detect again, then rewrite";
      return false;
    }
    out.paths.insert(path);
    out.file = ms.callerFile;
    r.line = unsigned(ms.callerLine);
    r.column = 0;
    r.callee = s.callee;
    // The database qualifies the name (ns::send_wrapper); the AST's callee
    // name is the last part.
    r.wrapper = llvm::StringRef(s.function).rsplit("::").second.str();
    if (r.wrapper.empty()) r.wrapper = s.function;
    return true;
  };
  auto resolve = [&](const DetectedMatch &m) {
    Resolved out;
    for (const MatchSite &ms : m.sites) {
      SiteRef r;
      r.send = ms.send;
      if (ms.instrumenter) {
        auto it = byId.find(ms.id);
        if (it == byId.end()) {
          out.problem = in.sitesPath.empty()
                            ? "the report names instrumenter sites but no site database was given (--sites FILE)"
                            : "site " + std::to_string(ms.id) + " is not in the site database " + in.sitesPath +
                                  " (built from other sources?)";
          break;
        }
        const clangtools::Site &s = *it->second;
        if (!ms.callerFile.empty()) {
          // In the program's own wrapper: the pattern is where it is called.
          if (!atCaller(ms, s, r, out)) break;
          out.refs.push_back(r);
          continue;
        }
        out.anySite = &s;
        std::string path = s.path;
        if (!projectRoot.empty()) path = projectRoot + "/" + s.file;
        out.paths.insert(path);
        out.file = s.file;
        r.line = s.position.line;
        r.column = s.position.column;
        r.callee = s.callee;
        if (s.anchor != "call" && s.anchor != "macro-expansion") {
          out.inputProblem = false;
          out.problem = "the call at " + s.file + ":" + std::to_string(s.position.line) +
                        " is written inside a macro definition (" + s.anchor + "): edit the macro by hand";
          break;
        }
      } else {
        if (ms.file.empty() || !ms.line) {
          out.problem = "a call site is a raw return address (no debug information): rebuild with -g, or "
                        "instrument the program, and trace again";
          break;
        }
        std::string path = ms.file;
        if (!llvm::sys::path::is_absolute(path) && !projectRoot.empty()) path = projectRoot + "/" + path;
        out.paths.insert(path);
        out.file = ms.file;
        r.line = unsigned(ms.line);
      }
      out.refs.push_back(r);
    }
    return out;
  };
  auto stemOf = [](const DetectedMatch &m) {
    char stem[64];
    std::snprintf(stem, sizeof stem, "%02zu-%s", m.index + 1, m.kind.empty() ? "match" : m.kind.c_str());
    return std::string(stem);
  };

  for (const DetectedMatch &m : report.matches) {
    PatchPlan p;
    p.match = m.index;
    if (!in.only.empty() && !in.only.count(m.index + 1)) continue;
    p.id = stemOf(m);
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
    bool fortran = std::any_of(m.sites.begin(), m.sites.end(),
                               [](const MatchSite &s) { return isFortranSource(s.file); });
    if (fortran && m.status != "partial") {
      // No AST: a suggestion for confirmed and ambiguous matches alike (its
      // notes say what is unproven), a patch only for one shape of bcast.
      Resolved r = resolve(m);
      if (!r.file.empty()) p.file = r.file;
      if (!r.problem.empty()) {
        r.inputProblem ? failed(r.problem) : none(r.problem);
        continue;
      }
      if (r.paths.size() != 1) {
        none("the sites are in several files: a collective spread over files is not rewritten");
        continue;
      }
      p.path = *r.paths.begin();
      if (projectRoot.empty()) projectRoot = clangtools::defaultProjectRoot(p.path);
      if (!projectRoot.empty() && !clangtools::relativeToRoot(projectRoot, p.path, p.file)) p.file = p.path;
      if (!readFile(p.path, p.original)) {
        failed("cannot read " + p.path);
        continue;
      }
      // One shape of bcast is patched from the text; everything else, and
      // a bcast the recogniser refuses, gets a suggestion saying why.
      std::string noPatch;
      if (patchFortranBcast(m, p, noPatch)) finish(p);
      else suggestFortran(m, p, noPatch);
      out.push_back(p);
      continue;
    }
    if (std::string why = stagedRootSide(m, byId); !why.empty() && m.status != "partial") {
      none(why);
      continue;
    }
    if (!m.confirmed && !settledBySource(m)) {
      if (m.status == "ambiguous") {
        std::string what;
        for (const std::string &u : m.unproven) what += (what.empty() ? "" : ", ") + u;
        none("an ambiguous match (the trace does not prove: " + what +
             "; the detection report's note says what would settle it): only confirmed matches, "
             "and ambiguous ones whose open question the source answers, are rewritten");
      } else {
        none("a partial match (its post-conditions do not hold for every member): only confirmed matches are rewritten");
      }
      continue;
    }
    Resolved r = resolve(m);
    std::vector<SiteRef> &refs = r.refs;
    std::set<std::string> &paths = r.paths;
    std::string &problem = r.problem;
    bool inputProblem = r.inputProblem;
    const clangtools::Site *anySite = r.anySite;
    if (!r.file.empty()) p.file = r.file;
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
    // Other confirmed matches in this file: their messages may share a loop.
    for (const DetectedMatch &o : report.matches) {
      if (&o == &m || !o.confirmed || !o.malformed.empty()) continue;
      Resolved ro = resolve(o);
      if (ro.problem.empty() && ro.paths.size() == 1 && *ro.paths.begin() == p.path)
        job.partners.push_back({&o, ro.refs, stemOf(o)});
    }
    job.target = in.target;
    job.out = &p;
    p.status = "none";
    tooling::ClangTool tool(*cdb, {p.path});
    tool.appendArgumentsAdjuster(clangtools::mpiAwareAdjuster());
    int rc = tool.run(planningAction(job).get());
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
        bool fused = std::find(earlier.fused.begin(), earlier.fused.end(), p.match) != earlier.fused.end();
        p.status = "none";
        p.reason = fused ? "its messages share a loop with " + earlier.id + "'s: " + earlier.id +
                               "'s patch replaces both"
                         : "the same code as " + earlier.id + " (another group running it): " + earlier.id +
                               "'s patch covers this match too";
        break;
      }
    out.push_back(p);
  }
  return true;
}

} // namespace cz::rewrite
