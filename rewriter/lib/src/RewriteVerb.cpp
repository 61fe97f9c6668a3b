// RewriteVerb.cpp: `collectivize rewrite`: options, the plan, the files.
#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include "collectivize/clang/ProjectRoot.h" // relativeToRoot
#include "collectivize/rewrite/PatchFiles.h"
#include "collectivize/rewrite/Rewrite.h"
#include "RewriteOptions.h"

namespace cz::rewrite {
namespace {

std::string absolute(const std::string &p) {
  llvm::SmallString<256> s(p);
  llvm::sys::fs::make_absolute(s);
  llvm::sys::path::remove_dots(s, true);
  return std::string(s);
}

// The git checkout holding the current directory (its top), else the
// current directory: where --apply may write.
std::string currentCheckout() {
  llvm::SmallString<256> cwd;
  llvm::sys::fs::current_path(cwd);
  for (llvm::StringRef d = cwd; !d.empty(); d = llvm::sys::path::parent_path(d)) {
    if (llvm::sys::fs::exists(d + "/.git")) return d.str();
    if (d == llvm::sys::path::root_path(d)) break;
  }
  return std::string(cwd);
}

// The line of the new code that calls the collective.
std::string collectiveLine(const std::string &code) {
  static const char *const kNames[] = {"MPI_Bcast(", "MPI_Scatter(", "MPI_Gather(", "MPI_Reduce(",
                                       "MPI_Allreduce(", "MPI_Allgather(", "MPI_Alltoall(", "MPI_Barrier(", "MPI_Scan(",
                                       "MPI_Reduce_scatter_block(", "cz_bcast(", "cz_allgather(", "cz_alltoall("};
  size_t start = 0;
  while (start < code.size()) {
    size_t end = code.find('\n', start);
    std::string line = code.substr(start, end == std::string::npos ? std::string::npos : end - start);
    for (const char *n : kNames)
      if (line.find(n) != std::string::npos) return line.substr(line.find_first_not_of(' '));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return code;
}

} // namespace

int rewriteVerb(int argc, char **argv) {
  RewriteArgs args;
  if (auto status = parseRewriteArgs(argc, argv, args)) return *status;
  const std::string &reportPath = args.reportPath, &outDir = args.outDir, &target = args.target;
  std::string &buildDir = args.buildDir, &sitesPath = args.sitesPath, &root = args.root;
  const std::vector<std::string> &flags = args.flags;
  const std::set<size_t> &only = args.only;
  const bool apply = args.apply, quiet = args.quiet, outsideRoot = args.outsideRoot;
  DetectionReport report;
  std::string err;
  if (!readDetectionReport(reportPath, report, err)) {
    std::fprintf(stderr, "collectivize rewrite: %s\n", err.c_str());
    return 1;
  }
  for (size_t n : only)
    if (n > report.matches.size()) {
      std::fprintf(stderr, "collectivize rewrite: --match %zu: %s has %zu match(es)\n", n, report.path.c_str(),
                   report.matches.size());
      return 1;
    }
  std::string outAbs = absolute(outDir);
  std::vector<std::string> stale;
  if (!stalePatchFiles(outAbs, stale, err)) {
    std::fprintf(stderr, "collectivize rewrite: %s\n", err.c_str());
    return 1;
  }
  if (sitesPath.empty()) sitesPath = report.sites;
  if (!sitesPath.empty()) sitesPath = absolute(sitesPath);
  if (!sitesPath.empty() && !llvm::sys::fs::exists(sitesPath)) {
    std::fprintf(stderr, "collectivize rewrite: site database %s: no such file (give it with --sites FILE)\n",
                 sitesPath.c_str());
    return 1;
  }
  std::unique_ptr<clang::tooling::CompilationDatabase> db;
  if (!buildDir.empty()) {
    buildDir = absolute(buildDir);
    db = clang::tooling::JSONCompilationDatabase::loadFromFile(
        buildDir + "/compile_commands.json", err, clang::tooling::JSONCommandLineSyntax::AutoDetect);
    if (!db) {
      std::fprintf(stderr,
                   "collectivize rewrite: no usable compile database in '%s' (%s).\n"
                   "Configure with cmake -DCMAKE_EXPORT_COMPILE_COMMANDS=ON, or give flags after --.\n",
                   buildDir.c_str(), err.c_str());
      return 1;
    }
  }
  if (!root.empty()) {
    if (!llvm::sys::fs::is_directory(root)) {
      std::fprintf(stderr, "collectivize rewrite: --root %s is not a directory\n", root.c_str());
      return 1;
    }
    root = absolute(root);
  }

  RewriteInputs in;
  in.report = &report;
  in.sitesPath = sitesPath;
  in.root = root;
  in.compileDb = db.get();
  in.fallbackFlags = flags;
  in.target = target == "runtime" ? Target::Runtime : Target::Mpi;
  in.progress = !quiet;
  in.only = only;
  std::vector<PatchPlan> plans;
  std::string projectRoot;
  if (!planPatches(in, plans, projectRoot, err)) {
    std::fprintf(stderr, "collectivize rewrite: %s\n", err.c_str());
    return 1;
  }
  // Only now that there is something to write: the earlier rewrite's files go.
  for (const std::string &f : stale)
    if (std::error_code ec = llvm::sys::fs::remove(f)) {
      std::fprintf(stderr, "collectivize rewrite: cannot remove %s: %s\n", f.c_str(), ec.message().c_str());
      return 1;
    }
  if (!stale.empty())
    std::printf("removed the %zu file(s) of an earlier rewrite from %s\n", stale.size(), outAbs.c_str());
  PatchDirectory where;
  where.dir = outAbs;
  where.sitesPath = sitesPath;
  where.projectRoot = projectRoot;
  where.buildDir = buildDir;
  where.target = target;
  where.report = &report;
  if (!writePatchDirectory(where, plans, err)) {
    std::fprintf(stderr, "collectivize rewrite: %s\n", err.c_str());
    return 1;
  }
  int proposed = 0, review = 0, none = 0;
  std::vector<const PatchPlan *> failures;
  for (const PatchPlan &p : plans) {
    if (p.failed || (!only.empty() && p.status == "none")) failures.push_back(&p);
    if (p.status == "proposed") proposed++;
    else if (p.status == "review") review++;
    else none++;
    std::printf("%s: %s", p.id.c_str(), p.status.c_str());
    if (p.status != "none") {
      std::printf(" %s:%u-%u -> %s", p.file.c_str(), p.beginLine, p.endLine, collectiveLine(p.call).c_str());

    }
    std::printf("\n");
    if (!p.reason.empty()) std::printf("  %s: %s\n", p.status == "none" ? "no patch" : "review", p.reason.c_str());
  }
  std::printf("%d proposed, %d to review, %d without a patch; patches in %s\n", proposed, review, none,
              where.dir.c_str());
  int status = 0;
  std::fflush(stdout); // the summary first, then what failed
  for (const PatchPlan *p : failures) {
    std::fprintf(stderr, "collectivize rewrite: %s: %s: %s\n", p->id.c_str(),
                 p->failed ? "failed" : "no patch for a requested match", p->reason.c_str());
    status = 1;
  }
  if (apply) {
    std::string checkout = root.empty() ? currentCheckout() : root;
    if (!outsideRoot)
      for (const PatchPlan &p : plans) {
        std::string relative;
        if (p.status == "proposed" && !clangtools::relativeToRoot(checkout, p.path, relative)) {
          std::fprintf(stderr,
                       "collectivize rewrite: --apply: %s is outside the project root %s (%s): nothing "
                       "was written. Run from the checkout the report was made in, give its root "
                       "with --root DIR, or add --allow-outside-root\n",
                       p.path.c_str(), checkout.c_str(),
                       root.empty() ? "the git checkout holding the current directory" : "--root");
          return 1;
        }
      }
    std::vector<std::string> changed;
    if (!applyProposed(plans, changed, err)) {
      std::fprintf(stderr, "collectivize rewrite: --apply: %s\n", err.c_str());
      return 1;
    }
    for (const std::string &f : changed)
      std::printf("applied: %s (original kept as %s.collectivize-orig)\n", f.c_str(), f.c_str());
    if (changed.empty()) std::printf("--apply: no proposed patch to apply\n");
    if (review) std::printf("--apply: %d patch(es) to review were not applied: see their .md files\n", review);
  }
  return status;
}

} // namespace cz::rewrite
