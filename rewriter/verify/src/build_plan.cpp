// build_plan.cpp: see build_plan.h.
#include "build_plan.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "collectivize/json.h"

namespace fs = std::filesystem;

namespace cz::verify {
using namespace json; // the tools' JSON model (support/json)
namespace {

bool isFile(const std::string &p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec);
}

std::string basename(const std::string &p) { return fs::path(p).filename().string(); }

enum class Language { C, Cxx, Fortran };

// What collectivize-cc/c++/fc call: COLLECTIVIZE_CC/CXX/FC as the wrappers
// read them, else the MPI compiler Collectivize was built with (its tracer
// preloads only into programs of the same MPI), else mpicc/mpicxx/mpif90.
std::string mpiCompiler(Language lang) {
  static const struct {
    const char *env, *built, *fallback;
  } names[] = {{"COLLECTIVIZE_CC", CZ_MPI_C_COMPILER, "mpicc"},
               {"COLLECTIVIZE_CXX", CZ_MPI_CXX_COMPILER, "mpicxx"},
               {"COLLECTIVIZE_FC", CZ_MPI_FORTRAN_COMPILER, "mpif90"}};
  const auto &n = names[int(lang)];
  const char *env = std::getenv(n.env);
  if (env && *env) return env;
  return *n.built ? n.built : n.fallback;
}

// collectivize-cc -> that MPI compiler: copies are built plain, never
// instrumented.
std::string plainCompiler(const std::string &compiler) {
  std::string b = basename(compiler);
  if (b == "collectivize-cc") return mpiCompiler(Language::C);
  if (b == "collectivize-c++") return mpiCompiler(Language::Cxx);
  if (b == "collectivize-fc") return mpiCompiler(Language::Fortran);
  return compiler;
}

std::map<std::string, std::string> readCMakeCache(const std::string &buildDir) {
  std::map<std::string, std::string> cache;
  std::ifstream f(buildDir + "/CMakeCache.txt");
  for (std::string line; std::getline(f, line);) {
    if (line.empty() || line[0] == '#' || line[0] == '/') continue;
    size_t colon = line.find(':'), eq = line.find('=');
    if (colon == std::string::npos || eq == std::string::npos || colon > eq) continue;
    cache[line.substr(0, colon)] = line.substr(eq + 1);
  }
  return cache;
}

std::string joinShell(const std::vector<std::string> &args) {
  std::string s;
  for (size_t i = 0; i < args.size(); i++) s += (i ? " " : "") + shellQuote(args[i]);
  return s;
}

// "mpicc -O2 -c 'a b.c'" -> words, honouring quotes and backslashes.
std::vector<std::string> splitCommand(const std::string &cmd) {
  std::vector<std::string> words;
  std::string cur;
  bool any = false;
  char quote = 0;
  for (size_t i = 0; i < cmd.size(); i++) {
    char c = cmd[i];
    if (quote) {
      if (c == quote) quote = 0;
      else if (c == '\\' && quote == '"' && i + 1 < cmd.size()) cur += cmd[++i];
      else cur += c;
    } else if (c == '\'' || c == '"') {
      quote = c, any = true;
    } else if (c == '\\' && i + 1 < cmd.size()) {
      cur += cmd[++i], any = true;
    } else if (c == ' ' || c == '\t' || c == '\n') {
      if (any) words.push_back(cur), cur.clear(), any = false;
    } else {
      cur += c, any = true;
    }
  }
  if (any) words.push_back(cur);
  return words;
}

bool planFromCompileDatabase(const BuildInputs &in, BuildPlan &plan, std::string &error) {
  std::string dbPath = in.buildDir + "/compile_commands.json";
  Json db;
  if (!readJsonFile(dbPath, db, error)) return false;
  if (db.type() != Json::Type::Array || db.items().empty()) {
    error = dbPath + ": not a compile database (an array of commands)";
    return false;
  }
  std::ostringstream script;
  script << "set -e\n";
  std::vector<std::string> objects;
  std::string linker;
  for (const Json &e : db.items()) {
    std::vector<std::string> args;
    if (const Json *a = e.find("arguments"); a && a->type() == Json::Type::Array)
      for (const Json &w : a->items()) args.push_back(w.text());
    else
      args = splitCommand(e.str("command"));
    std::string dir = e.str("directory", in.buildDir);
    if (args.empty()) continue;
    args[0] = plainCompiler(args[0]);
    std::vector<std::string> mapped = mapCommand(args, in.maps, dir);
    std::string mappedDir = mapPath(absolutePath(dir, in.buildDir), in.maps);
    if (mappedDir.empty()) mappedDir = dir;
    for (size_t k = 0; k + 1 < mapped.size(); k++)
      if (mapped[k] == "-o") objects.push_back(absolutePath(mapped[k + 1], mappedDir));
    if (linker.empty()) linker = mapped[0];
    script << "mkdir -p " << shellQuote(mappedDir) << " && cd " << shellQuote(mappedDir)
           << " && " << joinShell(mapped) << "\n";
  }
  if (!in.program.empty() && !objects.empty()) {
    std::vector<std::string> link{linker};
    link.insert(link.end(), objects.begin(), objects.end());
    link.push_back("-o");
    link.push_back(in.program);
    script << "[ -e " << shellQuote(in.program) << " ] || " << joinShell(link) << "\n";
  }
  plan.script = script.str();
  plan.how = "the compile database " + dbPath + " replayed in the copy (" +
             std::to_string(db.items().size()) + " commands; objects linked into the program " +
             "when no command makes it; --build 'CMD' if it needs more)";
  return true;
}

} // namespace

std::string shellQuote(const std::string &s) {
  bool plain = !s.empty();
  for (char c : s)
    if (!(isalnum((unsigned char)c) || std::string("-_./=+:,@%").find(c) != std::string::npos))
      plain = false;
  if (plain) return s;
  std::string o = "'";
  for (char c : s) o += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return o + "'";
}

bool planBuild(const BuildInputs &given, BuildPlan &plan, std::string &error) {
  BuildInputs in = given;
  if (in.buildRoot.empty()) in.buildRoot = in.copyRoot;
  if (!in.userCommand.empty()) {
    plan.how = "--build '" + in.userCommand + "'";
    plan.script = in.userCommand;
    return true;
  }
  std::string where = in.buildRoot == in.copyRoot ? "the project root" : in.buildRoot.substr(in.copyRoot.size() + 1);
  for (const char *name : {"GNUmakefile", "makefile", "Makefile"})
    if (isFile(in.buildRoot + "/" + name)) {
      plan.how = std::string("make (a ") + name + " in " + where + "; --build 'CMD' to change)";
      plan.script = "make";
      return true;
    }
  if (isFile(in.buildRoot + "/CMakeLists.txt")) {
    std::vector<std::string> configure{"cmake", "-S", ".", "-B", in.copyBuildDir};
    std::string from = "defaults";
    if (!in.buildDir.empty() && isFile(in.buildDir + "/CMakeCache.txt")) {
      auto cache = readCMakeCache(in.buildDir);
      from = in.buildDir + "/CMakeCache.txt";
      if (!cache["CMAKE_GENERATOR"].empty())
        configure.insert(configure.begin() + 1, {"-G", cache["CMAKE_GENERATOR"]});
      for (const char *key : {"CMAKE_C_COMPILER", "CMAKE_CXX_COMPILER"})
        if (!cache[key].empty())
          configure.push_back(std::string("-D") + key + "=" + plainCompiler(cache[key]));
      if (!cache["CMAKE_BUILD_TYPE"].empty())
        configure.push_back("-DCMAKE_BUILD_TYPE=" + cache["CMAKE_BUILD_TYPE"]);
    }
    plan.script = joinShell(configure) + " && cmake --build " + shellQuote(in.copyBuildDir) +
                  " -j 2";
    plan.how = "cmake configure + build (a CMakeLists.txt in " + where + "; settings from " +
               from + "; --build 'CMD' to change)";
    return true;
  }
  if (!in.buildDir.empty() && isFile(in.buildDir + "/compile_commands.json"))
    return planFromCompileDatabase(in, plan, error);
  error = "no way to build " + in.projectRoot + " is known: no Makefile or CMakeLists.txt in " + where +
          (in.buildDir.empty() ? std::string()
                               : " and no compile_commands.json in " + in.buildDir) +
          "; give the build command with --build 'CMD' (run in the copy's root, or -C DIR)";
  return false;
}

bool writePlainCompilers(const std::string &dir, std::string &error) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  for (auto [name, real] : {std::pair{std::string("collectivize-cc"), mpiCompiler(Language::C)},
                            std::pair{std::string("collectivize-c++"), mpiCompiler(Language::Cxx)},
                            std::pair{std::string("collectivize-fc"), mpiCompiler(Language::Fortran)}}) {
    std::string path = dir + "/" + name;
    std::ofstream f(path);
    f << "#!/bin/sh\n# collectivize verify: copies are built plain, without the tracer.\nexec '" << real
      << "' \"$@\"\n";
    f.close();
    fs::permissions(path, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                              fs::perms::others_read | fs::perms::others_exec, ec);
    if (!f || ec) {
      error = "cannot write " + path;
      return false;
    }
  }
  return true;
}

} // namespace cz::verify
