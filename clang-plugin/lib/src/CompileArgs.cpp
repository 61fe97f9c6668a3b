// CompileArgs.cpp: MPI wrapper include discovery and the argument adjuster.
#include "collectivize/clang/CompileArgs.h"

#include <cstdio>
#include <map>
#include <mutex>

#include "clang/Driver/Options.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Option/ArgList.h"
#include "llvm/Option/OptTable.h"
#include "llvm/Support/Path.h"

#include "collectivize/process.h"

namespace cz::clangtools {

bool isMpiCompilerWrapper(llvm::StringRef compiler) {
  llvm::StringRef base = llvm::sys::path::filename(compiler);
  return base.startswith("mpi") &&
         (base.contains("cc") || base.contains("cxx") || base.contains("c++") ||
          base.contains("CC") || base.contains("clang"));
}

bool isCxxCompiler(llvm::StringRef compiler) {
  llvm::StringRef base = llvm::sys::path::filename(compiler);
  return base.contains("++") || base.contains("cxx") || base.endswith("CC");
}

const char *clangResourceDir() { return CZ_CLANG_RESOURCE_DIR; }

const char *builtWithMpiCompiler(bool cxx) {
  return cxx ? CZ_MPI_CXX_COMPILER : CZ_MPI_C_COMPILER;
}

namespace {

// What `wrapper option` prints on stdout; false unless it exits with 0.
bool runForOutput(const std::string &wrapper, const char *option, std::string &out) {
  process::Spec spec;
  spec.argv = {wrapper, option};
  spec.out = process::Output::capture();
  spec.err = process::Output::discard();
  process::Result r = process::run(spec);
  out = r.out;
  return r.started && r.exitCode == 0;
}

// Indices (in args) of the arguments the driver would call unknown: the
// option table as Clang's driver reads it outside cl and flang modes.
std::vector<size_t> unknownIndices(const std::vector<std::string> &args) {
  std::vector<const char *> argv;
  for (const std::string &a : args) argv.push_back(a.c_str());
  unsigned missingIndex = 0, missingCount = 0;
  const unsigned excluded =
      clang::driver::options::NoDriverOption | clang::driver::options::CLOption |
      clang::driver::options::FlangOnlyOption;
  llvm::opt::InputArgList list = clang::driver::getDriverOptTable().ParseArgs(
      argv, missingIndex, missingCount, /*FlagsToInclude=*/0, excluded);
  std::vector<size_t> out;
  for (const llvm::opt::Arg *a : list.filtered(clang::driver::options::OPT_UNKNOWN))
    out.push_back(a->getIndex());
  return out;
}

} // namespace

std::vector<std::string> unknownToClang(const std::vector<std::string> &args) {
  std::vector<std::string> out;
  for (size_t i : unknownIndices(args)) out.push_back(args[i]);
  return out;
}

std::vector<std::string> mpiIncludeDirs(const std::string &wrapper) {
  static std::mutex mutex;
  static std::map<std::string, std::vector<std::string>> cache;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = cache.find(wrapper);
  if (it != cache.end()) return it->second;
  std::vector<std::string> dirs;
  std::string out;
  llvm::SmallVector<llvm::StringRef, 16> words;
  if (runForOutput(wrapper, "--showme:incdirs", out)) {
    llvm::SplitString(out, words);
    for (llvm::StringRef w : words) dirs.push_back(w.str());
  } else if (out.clear(), runForOutput(wrapper, "-show", out)) {
    llvm::SplitString(out, words);
    for (size_t i = 0; i < words.size(); i++) {
      llvm::StringRef w = words[i];
      if (w.startswith("-I") && w.size() > 2)
        dirs.push_back(w.drop_front(2).str());
      else if ((w == "-I" || w == "-isystem") && i + 1 < words.size())
        dirs.push_back(words[++i].str());
      else if (w.startswith("-isystem") && w.size() > 8)
        dirs.push_back(w.drop_front(8).str());
    }
  }
  cache[wrapper] = dirs;
  return dirs;
}

clang::tooling::ArgumentsAdjuster mpiAwareAdjuster() {
  return [](const clang::tooling::CommandLineArguments &args, llvm::StringRef) {
    if (args.empty()) return args;
    clang::tooling::CommandLineArguments out;
    const std::string &compiler = args[0];
    out.push_back(std::string(CZ_CLANG_DRIVER) + (isCxxCompiler(compiler) ? "++" : ""));
    out.push_back(std::string("-resource-dir=") + clangResourceDir());
    out.push_back("-Qunused-arguments");
    // Collectivize's own wrappers compile through the MPI's wrapper.
    std::string mpi = compiler;
    if (llvm::sys::path::filename(compiler).startswith("collectivize-c"))
      mpi = builtWithMpiCompiler(isCxxCompiler(compiler));
    if (isMpiCompilerWrapper(mpi))
      for (const std::string &dir : mpiIncludeDirs(mpi)) {
        out.push_back("-isystem");
        out.push_back(dir);
      }
    std::vector<std::string> rest(args.begin() + 1, args.end());
    std::vector<bool> unknown(rest.size(), false);
    for (size_t i : unknownIndices(rest)) unknown[i] = true;
    for (size_t i = 0; i < rest.size(); ++i)
      if (!unknown[i]) out.push_back(rest[i]);
    // The real compiler reports the user's warnings; the instrumenting
    // parse shows errors only.
    out.push_back("-w");
    return out;
  };
}

} // namespace cz::clangtools
