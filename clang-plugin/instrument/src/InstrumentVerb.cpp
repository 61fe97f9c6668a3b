// InstrumentVerb.cpp: `collectivize instrument -p BUILD_DIR [files]` (or
// `... files -- compile flags`): instrumented copies in an output directory,
// the originals untouched, plus the site database and a compile database
// for the copies.
#include "collectivize/instrument/Verb.h"

#include <cstdio>
#include <set>
#include <string>
#include <unistd.h>
#include <vector>

#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "collectivize/clang/Files.h"
#include "collectivize/clang/ProjectRoot.h"
#include "collectivize/clang/SiteDatabase.h"
#include "collectivize/instrument/Instrument.h"
#include "InstrumentOptions.h"

namespace cz::instrument {
namespace {

std::string absolute(const std::string &p) {
  llvm::SmallString<256> s(p);
  llvm::sys::fs::make_absolute(s);
  llvm::sys::path::remove_dots(s, true);
  return std::string(s);
}

// The database's files in the order it lists them (getAllFiles() comes in
// hash order, which changes with the paths: outputs would too).
std::vector<std::string> filesInDatabaseOrder(const clang::tooling::CompilationDatabase &db) {
  std::vector<std::string> known = db.getAllFiles(), ordered;
  std::set<std::string> pending(known.begin(), known.end());
  for (const clang::tooling::CompileCommand &c : db.getAllCompileCommands()) {
    llvm::SmallString<256> p(c.Filename);
    if (!llvm::sys::path::is_absolute(p)) llvm::sys::fs::make_absolute(c.Directory, p);
    llvm::sys::path::remove_dots(p, true);
    llvm::sys::path::native(p);
    if (pending.erase(std::string(p))) ordered.push_back(std::string(p));
  }
  ordered.insert(ordered.end(), pending.begin(), pending.end()); // named otherwise: sorted
  return ordered;
}

std::string commonAncestor(const std::vector<std::string> &files) {
  std::string common;
  for (const std::string &f : files) {
    std::string real = clangtools::realPath(f);
    std::string dir = llvm::sys::path::parent_path(real.empty() ? absolute(f) : real).str();
    if (common.empty()) {
      common = dir;
      continue;
    }
    std::string rel;
    while (common != dir && !clangtools::relativeToRoot(common, dir, rel) && common != "/")
      common = llvm::sys::path::parent_path(common).str();
  }
  return common.empty() ? "/" : common;
}

} // namespace

int instrumentVerb(int argc, char **argv) {
  InstrumentArgs args;
  if (auto status = parseInstrumentArgs(argc, argv, args)) return *status;
  const std::string &buildDir = args.buildDir;
  std::string &outDir = args.outDir, &sitesPath = args.sitesPath, &root = args.root;
  const std::vector<std::string> &files = args.files;
  std::vector<std::string> &flags = args.flags;
  const bool quiet = args.quiet;

  std::unique_ptr<clang::tooling::CompilationDatabase> db;
  if (!buildDir.empty()) {
    std::string err;
    // Exactly the listed files: no interpolated commands for others.
    db = clang::tooling::JSONCompilationDatabase::loadFromFile(
        buildDir + "/compile_commands.json", err, clang::tooling::JSONCommandLineSyntax::AutoDetect);
    if (!db) {
      std::fprintf(stderr,
                   "collectivize instrument: no usable compile database in '%s' (%s).\n"
                   "Generate one: configure with cmake -DCMAKE_EXPORT_COMPILE_COMMANDS=ON, "
                   "or run the build under `bear -- make`.\n",
                   buildDir.c_str(), err.c_str());
      return 1;
    }
  } else {
    // `-- mpicc -O2 ...` names the compiler; `-- -O2 ...` means plain cc.
    std::string compiler = "cc";
    if (!flags.empty() && !flags[0].empty() && flags[0][0] != '-') {
      compiler = flags[0];
      flags.erase(flags.begin());
    }
    llvm::SmallString<256> cwd;
    llvm::sys::fs::current_path(cwd);
    db = fixedCommandDatabase(std::string(cwd), compiler, flags, files);
  }

  std::vector<std::string> all = files.empty() ? filesInDatabaseOrder(*db) : std::vector<std::string>();
  for (const std::string &f : files) {
    std::string abs = absolute(f);
    if (!llvm::sys::fs::exists(abs)) {
      std::fprintf(stderr, "collectivize instrument: %s: no such file\n", f.c_str());
      return 1;
    }
    if (!buildDir.empty() && db->getCompileCommands(abs).empty()) {
      std::fprintf(stderr, "collectivize instrument: %s is not in %s/compile_commands.json\n",
                   f.c_str(), buildDir.c_str());
      return 1;
    }
    all.push_back(abs);
  }
  if (all.empty()) {
    std::fprintf(stderr, "collectivize instrument: the compile database lists no files\n");
    return 1;
  }
  if (root.empty()) {
    root = commonAncestor(buildDir.empty() ? all : db->getAllFiles());
  } else {
    std::string r = clangtools::realPath(root);
    if (r.empty() || !llvm::sys::fs::is_directory(r)) {
      std::fprintf(stderr, "collectivize instrument: --root %s is not a directory\n", root.c_str());
      return 1;
    }
    root = r;
  }
  if (outDir.empty())
    outDir = buildDir.empty() ? "collectivize-instrumented" : buildDir + "/collectivize-instrumented";
  outDir = absolute(outDir);
  if (std::error_code ec = llvm::sys::fs::create_directories(outDir)) {
    std::fprintf(stderr, "collectivize instrument: cannot create the output directory %s: %s\n",
                 outDir.c_str(), ec.message().c_str());
    return 1;
  }
  if (::access(outDir.c_str(), W_OK) != 0) {
    std::fprintf(stderr, "collectivize instrument: the output directory %s is not writable "
                         "(choose another with -o DIR)\n", outDir.c_str());
    return 1;
  }
  if (sitesPath.empty()) sitesPath = outDir + "/collectivize-sites.json";

  Options options;
  options.root = root;
  {
    llvm::SmallString<256> db(sitesPath);
    llvm::sys::fs::make_absolute(db);
    llvm::sys::path::remove_dots(db, true);
    options.sitesDatabase = std::string(db);
  }
  std::vector<FileResult> results = instrumentFiles(*db, all, options);

  int failed = 0, written = 0;
  size_t sites = 0, reporting = 0;
  clangtools::BuildNotes notes; // the sources' hashes (callers of wrappers are checked by them)
  std::string commands;
  llvm::raw_string_ostream cmds(commands);
  llvm::json::OStream cj(cmds, 2);
  cj.arrayBegin();
  for (FileResult &r : results) {
    std::string rel;
    if (!r.parsed) {
      std::fprintf(stderr, "collectivize instrument: %s: Clang reported errors (above); "
                           "not instrumented\n", r.file.c_str());
      ++failed;
      continue;
    }
    if (!clangtools::relativeToRoot(root, r.file, rel)) {
      std::fprintf(stderr, "collectivize instrument: %s is outside the project root %s; "
                           "skipped (see --root)\n", r.file.c_str(), root.c_str());
      continue;
    }
    std::string copy = outDir + "/" + rel, err;
    if (!clangtools::writeFile(copy, r.instrumented, err)) {
      std::fprintf(stderr, "collectivize instrument: %s\n", err.c_str());
      return 1;
    }
    // Every project header it read, beside it at its own path below the
    // root (a rewritten version wins over a plain copy of the same header).
    for (const HeaderCopy &h : r.headers) {
      std::string hc = outDir + "/" + h.relative;
      if (!h.rewritten && llvm::sys::fs::exists(hc)) continue;
      if (!clangtools::writeFile(hc, h.text, err)) {
        std::fprintf(stderr, "collectivize instrument: %s\n", err.c_str());
        return 1;
      }
    }
    ++written;
    notes.instrumentedFiles.push_back(rel);
    notes.sources.push_back({rel, r.hash});
    for (const clangtools::FoundSite &f : r.sites) {
      ++sites;
      reporting += f.site.instrumented;
    }
    // The copy compiles like the original, quoted includes resolving from
    // the original's directory.
    for (const clang::tooling::CompileCommand &c : db->getCompileCommands(r.file)) {
      std::vector<std::string> args = c.CommandLine;
      for (std::string &a : args) {
        llvm::SmallString<256> abs(a);
        llvm::sys::fs::make_absolute(c.Directory, abs);
        llvm::sys::path::remove_dots(abs, true);
        if (a == c.Filename || clangtools::realPath(std::string(abs)) == r.file) a = copy;
      }
      if (!args.empty())
        args.insert(args.begin() + 1, {"-iquote", llvm::sys::path::parent_path(r.file).str()});
      args = mirrorIncludeDirs(args, c.Directory, root, outDir);
      cj.object([&] {
        cj.attribute("directory", c.Directory);
        cj.attribute("file", copy);
        cj.attributeArray("arguments", [&] {
          for (const std::string &a : args) cj.value(a);
        });
      });
      break;
    }
  }
  cj.arrayEnd();
  cmds << "\n";
  std::string err;
  if (!clangtools::writeFile(outDir + "/compile_commands.json", cmds.str(), err) ||
      !clangtools::mergeIntoSiteDatabase(sitesPath, sitesOf(results), err, notes)) {
    std::fprintf(stderr, "collectivize instrument: %s\n", err.c_str());
    return 1;
  }
  if (!quiet)
    std::printf("instrumented %d file(s): %zu site(s), %zu reporting ids to the tracer -> %s\n"
                "site database: %s\n",
                written, sites, reporting, outDir.c_str(), sitesPath.c_str());
  if (failed)
    std::fprintf(stderr, "collectivize instrument: %d file(s) could not be parsed\n", failed);
  return failed ? 1 : 0;
}

} // namespace cz::instrument
