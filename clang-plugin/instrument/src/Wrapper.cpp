// Wrapper.cpp: collectivize-cc / collectivize-c++. Each source is parsed by
// Clang in this process, the instrumented copy goes to a private temporary
// directory under the same file name (so default object names do not
// change), and the real compiler compiles it with -iquote <original dir>.
// Anything that goes wrong on our side falls back to the original command.
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <unistd.h>
#include <vector>

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "collectivize/process.h"
#include "collectivize/clang/CompileArgs.h"
#include "collectivize/clang/ProjectRoot.h"
#include "collectivize/clang/SiteDatabase.h"
#include "collectivize/instrument/Instrument.h"
#include "collectivize/instrument/Wrapper.h"

namespace cz::instrument {
namespace {

const char *env(const char *name) {
  const char *v = std::getenv(name);
  return v && *v ? v : nullptr;
}

// Runs the compiler; stderr goes to errFile unless it is "".
int run(const std::string &compiler, const std::vector<std::string> &args,
        const std::string &errFile) {
  process::Spec spec;
  spec.argv = {process::findProgram(compiler)};
  if (spec.argv[0].empty()) {
    std::fprintf(stderr, "collectivize: cannot find the compiler '%s' (set %s)\n",
                 compiler.c_str(), "COLLECTIVIZE_CC / COLLECTIVIZE_CXX / COLLECTIVIZE_FC");
    return 127;
  }
  spec.argv.insert(spec.argv.end(), args.begin(), args.end());
  if (!errFile.empty()) spec.err = process::Output::file(errFile);
  spec.ownGroup = false; // the build's Ctrl-C reaches it as before
  process::Result r = process::run(spec);
  if (!r.started) {
    std::fprintf(stderr, "collectivize: %s: %s\n", compiler.c_str(), r.error.c_str());
    return 127;
  }
  return r.exitCode;
}

bool writeText(const std::string &path, llvm::StringRef text, std::string &err) {
  std::error_code ec = llvm::sys::fs::create_directories(llvm::sys::path::parent_path(path));
  if (!ec) {
    llvm::raw_fd_ostream os(path, ec);
    if (!ec) os << text;
  }
  if (ec) err = "cannot write " + path + " (" + ec.message() + ")";
  return !ec;
}

void replaceInFile(const std::string &path, const std::string &from, const std::string &to) {
  auto buf = llvm::MemoryBuffer::getFile(path);
  if (!buf) return;
  std::string text = (*buf)->getBuffer().str();
  bool changed = false;
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
    changed = true;
  }
  if (!changed) return;
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (!ec) os << text;
}

// What the real compiler compiles instead: instrumented copies in a
// private temporary directory, and how to map them back in dependency files.
struct Prepared {
  std::vector<std::string> args;
  llvm::SmallString<128> tmpDir;
  std::vector<std::pair<std::string, std::string>> copies;      // (copy, original)
  std::vector<std::pair<std::string, std::string>> depRewrites; // (from, to) in depfiles
  // Sources Clang could not parse, compiled unmodified: (as given, Clang's
  // first error), said after the compile only if the compiler accepts them.
  std::vector<std::pair<std::string, std::string>> unparsed;
  std::string sitesPath;
  std::map<std::string, std::string> databaseNames; // absolute source -> its name in the database
};

// The site database the wrappers merge into.
std::string siteDatabasePath() {
  return env("COLLECTIVIZE_SITES") ? env("COLLECTIVIZE_SITES") : "collectivize-sites.json";
}

// A source's name in the site database: below its project root, else absolute.
std::string databaseName(const std::string &file, const std::string &root) {
  std::string real = clangtools::realPath(file), rel;
  if (real.empty()) real = file;
  std::string r = root.empty() ? clangtools::defaultProjectRoot(real) : root;
  return clangtools::relativeToRoot(r, real, rel) ? rel : real;
}

// Clang's first error, for one line of a warning and the database.
std::string firstError(const std::string &diagnostics) {
  size_t at = diagnostics.find("error: ");
  if (at == std::string::npos) return "Clang could not parse it";
  size_t begin = diagnostics.rfind('\n', at);
  begin = begin == std::string::npos ? 0 : begin + 1;
  size_t end = diagnostics.find('\n', at);
  return diagnostics.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
}

std::string joined(const std::vector<std::string> &words) {
  std::string out;
  for (const std::string &w : words) out += (out.empty() ? "" : " ") + w;
  return out;
}

// Merges sites and notes into the database; warns once per database about
// flags Clang does not know. False (warned) when the database cannot be
// written.
bool recordBuild(const std::string &path, const std::vector<clangtools::Site> &sites,
                 const clangtools::BuildNotes &notes, const char *self) {
  // A compile with nothing to add does not create the database, but clears
  // its files from the uninstrumented list of an existing one.
  if (sites.empty() && notes.uninstrumented.empty() && notes.droppedFlags.empty() &&
      !llvm::sys::fs::exists(path))
    return true;
  std::string err;
  std::vector<std::string> fresh;
  if (!clangtools::mergeIntoSiteDatabase(path, sites, err, notes, &fresh)) {
    std::fprintf(stderr, "%s: warning: %s; compiling without instrumentation\n", self, err.c_str());
    return false;
  }
  if (!fresh.empty())
    std::fprintf(stderr,
                 "%s: warning: Clang does not know %s: left out of the instrumenting parses (the "
                 "compiler still gets %s); said once per site database (%s)\n",
                 self, joined(fresh).c_str(), fresh.size() > 1 ? "them" : "it", path.c_str());
  return true;
}

// Instruments each source of cmd; any failure leaves that source as it was.
Prepared prepare(const CompilerCommand &cmd, const std::string &compiler, const char *self) {
  Prepared out;
  out.args = cmd.args;
  if (cmd.passthrough || cmd.sources.empty()) return out;
  std::vector<size_t> sources = cmd.sources;
  std::string cwd;
  {
    llvm::SmallString<256> c;
    llvm::sys::fs::current_path(c);
    cwd = std::string(c);
  }
  std::vector<std::string> files, spellings;
  for (size_t i : cmd.sources) {
    spellings.push_back(out.args[i]);
    llvm::SmallString<256> abs(out.args[i]);
    llvm::sys::fs::make_absolute(abs);
    files.push_back(std::string(abs));
  }
  // The parse command: the user's flags for one source at a time.
  std::vector<std::string> flags;
  std::vector<bool> input(out.args.size(), false);
  for (size_t i : cmd.sources) input[i] = true;
  for (size_t i : cmd.others) input[i] = true;
  for (size_t i = 0; i < out.args.size(); ++i)
    if (!input[i]) flags.push_back(out.args[i]);

  Options options;
  options.captureErrors = true; // the compiler shows the user's errors, once
  if (const char *r = env("COLLECTIVIZE_ROOT")) options.root = clangtools::realPath(r);
  {
    llvm::SmallString<256> db(siteDatabasePath());
    llvm::sys::fs::make_absolute(db);
    llvm::sys::path::remove_dots(db, true);
    options.sitesDatabase = std::string(db);
  }
  std::vector<FileResult> results =
      instrumentFiles(*fixedCommandDatabase(cwd, compiler, flags, spellings), files, options);
  clangtools::BuildNotes notes;
  // The adjuster leaves them out of the parse; the database remembers them.
  notes.droppedFlags = clangtools::unknownToClang(flags);
  out.sitesPath = siteDatabasePath();
  for (size_t k = 0; k < results.size(); ++k) {
    const std::string name = databaseName(results[k].file, options.root);
    out.databaseNames[results[k].file] = name;
    if (results[k].parsed) {
      notes.instrumentedFiles.push_back(name);
      notes.sources.push_back({name, results[k].hash});
    } else {
      std::string why = firstError(results[k].errors);
      notes.uninstrumented.push_back({name, why});
      out.unparsed.push_back({out.args[sources[k]], why});
    }
  }

  if (std::error_code ec = llvm::sys::fs::createUniqueDirectory("collectivize-cc", out.tmpDir)) {
    std::fprintf(stderr, "%s: warning: cannot create a temporary directory (%s); "
                         "compiling without instrumentation\n", self, ec.message().c_str());
    results.clear();
  }
  // Copies live in a mirror of the project (one per root): main files and
  // every project header they read, at their path below the root, so
  // includes between them resolve as in the project.
  std::map<std::string, std::string> mirrors; // root -> mirror directory
  std::vector<clangtools::Site> sites;
  for (size_t k = 0; k < results.size(); ++k) {
    const FileResult &r = results[k];
    size_t argIndex = sources[k];
    if (!r.parsed) continue; // compiled as it is (Prepared::unparsed)
    std::string rel, copy, err;
    bool inRoot = clangtools::relativeToRoot(r.root, r.file, rel);
    if (inRoot) {
      auto m = mirrors.find(r.root);
      if (m == mirrors.end())
        m = mirrors.emplace(r.root, std::string(out.tmpDir) + "/m" + std::to_string(mirrors.size()))
                .first; // one mirror per project root
      copy = m->second + "/" + rel;
    } else {
      copy = std::string(out.tmpDir) + "/x" + std::to_string(k) + "/" +
             llvm::sys::path::filename(r.file).str();
    }
    bool ok = writeText(copy, r.instrumented, err);
    for (const HeaderCopy &h : r.headers) {
      if (!ok || !inRoot) break;
      std::string hc = mirrors[r.root] + "/" + h.relative;
      if (!llvm::sys::fs::exists(hc)) ok = writeText(hc, h.text, err);
    }
    if (!ok) {
      std::fprintf(stderr, "%s: warning: %s; compiling %s unmodified\n", self, err.c_str(),
                   out.args[argIndex].c_str());
      continue;
    }
    out.copies.emplace_back(copy, r.file);
    out.args[argIndex] = copy;
    out.args.insert(out.args.begin(), {"-iquote", llvm::sys::path::parent_path(r.file).str()});
    for (size_t j = 0; j < sources.size(); ++j) sources[j] += 2;
    for (const clangtools::FoundSite &f : r.sites) sites.push_back(f.site);
  }
  for (const auto &m : mirrors) out.args = mirrorIncludeDirs(out.args, cwd, m.first, m.second);
  // A function that ends by calling the program's wrapper of an MPI call
  // would jump into it, and the wrapper's return address (the caller the
  // trace records, SITE_DATABASE.md "call_path") would then be its
  // caller's caller. The wrappers may be defined in other files: no
  // instrumented code makes sibling calls (a call and a return instead of
  // a jump, where a tail call was made).
  if (!out.copies.empty()) out.args.insert(out.args.begin(), "-fno-optimize-sibling-calls");
  if (!recordBuild(out.sitesPath, sites, notes, self)) {
    out.args = cmd.args;
    out.copies.clear();
    mirrors.clear();
  }
  for (const auto &m : mirrors) out.depRewrites.emplace_back(m.second + "/", m.first + "/");
  for (const auto &c : out.copies)
    if (llvm::StringRef(c.first).startswith(std::string(out.tmpDir) + "/x"))
      out.depRewrites.emplace_back(c.first, c.second);
  return out;
}

} // namespace

int wrapperMain(int argc, char **argv, WrapperLanguage language) {
  struct Names {
    const char *self, *variable, *compiler;
  };
  // By default the MPI Collectivize (and its tracer) was built with.
  const Names names =
      language == WrapperLanguage::C
          ? Names{"collectivize-cc", "COLLECTIVIZE_CC", clangtools::builtWithMpiCompiler(false)}
      : language == WrapperLanguage::Cxx
          ? Names{"collectivize-c++", "COLLECTIVIZE_CXX", clangtools::builtWithMpiCompiler(true)}
          : Names{"collectivize-fc", "COLLECTIVIZE_FC", CZ_MPI_FORTRAN_COMPILER};
  const char *self = names.self;
  std::string compiler = env(names.variable) ? env(names.variable) : names.compiler;
  if (compiler.empty()) {
    std::fprintf(stderr, "%s: Collectivize was built without an MPI Fortran compiler beside its "
                         "mpicc; set %s to that MPI's mpif90\n", self, names.variable);
    return 1;
  }
  if (env("COLLECTIVIZE_IN_WRAPPER")) {
    std::fprintf(stderr, "%s: the real compiler '%s' calls %s again; set %s to the MPI compiler\n",
                 self, compiler.c_str(), self, names.variable);
    return 1;
  }
  ::setenv("COLLECTIVIZE_IN_WRAPPER", "1", 1);
  CompilerCommand cmd = parseCompilerCommand(std::vector<std::string>(argv + 1, argv + argc));
  // Clang instruments C and C++ only: a Fortran build gets the tracer,
  // whose return-address sites name its calls (a C file in it as well).
  if (language == WrapperLanguage::Fortran) cmd.sources.clear();

  Prepared prep = prepare(cmd, compiler, self);
  std::vector<std::string> &args = prep.args;
  std::vector<std::string> tracer;
  if (cmd.links && !env("COLLECTIVIZE_NO_TRACER")) {
    std::string why;
    std::string lib = process::findTracerLibrary(why);
    if (lib.empty()) {
      std::fprintf(stderr, "%s: warning: %s; linking without it\n", self, why.c_str());
    } else {
      tracer = {lib, "-Wl,-rpath," + llvm::sys::path::parent_path(lib).str()};
    }
  }
  args.insert(args.end(), tracer.begin(), tracer.end());
  int rc;
  if (prep.copies.empty()) {
    rc = run(compiler, args, "");
  } else {
    // The copies compile where the original does; if they ever do not, the
    // original is compiled instead: the tool never breaks a build.
    std::string errFile = std::string(prep.tmpDir) + "/stderr.txt";
    rc = run(compiler, args, errFile);
    auto captured = llvm::MemoryBuffer::getFile(errFile);
    if (rc != 0) {
      std::vector<std::string> original = cmd.args;
      original.insert(original.end(), tracer.begin(), tracer.end());
      rc = run(compiler, original, "");
      if (rc == 0) {
        std::string why = captured ? firstError((*captured)->getBuffer().str()) : "";
        std::fprintf(stderr, "%s: warning: the instrumented copy did not compile (%s); compiled "
                             "the original unmodified: its MPI calls carry no site ids\n",
                     self, why.c_str());
        clangtools::BuildNotes notes;
        for (const auto &c : prep.copies)
          notes.uninstrumented.push_back(
              {prep.databaseNames[c.second], "the instrumented copy did not compile: " + why});
        recordBuild(prep.sitesPath, {}, notes, self);
      }
      prep.depRewrites.clear();
    } else if (captured) {
      std::fwrite((*captured)->getBufferStart(), 1, (*captured)->getBufferSize(), stderr);
    }
  }
  // Clang's reason for a source it could not parse, when the compiler
  // accepted it (else the compiler's own errors said it all).
  if (rc == 0)
    for (const auto &[source, why] : prep.unparsed)
      std::fprintf(stderr, "%s: warning: could not instrument %s (%s); compiled it unmodified: "
                           "its MPI calls carry no site ids (listed in %s)\n",
                   self, source.c_str(), why.c_str(), prep.sitesPath.c_str());
  // Dependency files name what was compiled: the originals, not the copies.
  if (rc == 0 && !cmd.depFile.empty())
    for (const auto &d : prep.depRewrites) replaceInFile(cmd.depFile, d.first, d.second);
  if (!prep.tmpDir.empty()) llvm::sys::fs::remove_directories(prep.tmpDir);
  return rc;
}

} // namespace cz::instrument
