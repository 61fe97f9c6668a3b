// build_plan.h: how a scratch copy is built. Both copies (original and
// patched) get the same plan, so the two binaries differ only by the patch.
// In order of preference:
//   --build 'CMD'              the user's command, run in the copy's root
//   Makefile in the root       make
//   CMakeLists.txt in the root cmake configure + build into the copy's build
//                              dir (compilers, build type and generator of
//                              the original build dir's CMakeCache.txt)
//   compile_commands.json      every compile command replayed with paths
//                              mapped into the copy, then the objects linked
//                              into the program when no command made it
// Collectivize's compiler wrappers (collectivize-cc/c++) are replaced by
// mpicc/mpicxx: the timed runs must not carry the tracer.
#pragma once

#include <string>
#include <vector>

#include "command_map.h"

namespace cz::verify {

struct BuildPlan {
  std::string how;     // for people: "make (a Makefile in the project root)"
  std::string script;  // /bin/sh script run in the copy's root
};

struct BuildInputs {
  std::string userCommand;       // --build, or ""
  std::string projectRoot;       // the user's (read only)
  std::string buildDir;          // the user's build dir (patches.json), or ""
  std::string copyRoot;          // this copy
  std::string copyBuildDir;      // where this copy's build dir is
  std::vector<PathMap> maps;     // user's paths -> this copy
  std::string program;           // the program to run, already mapped
  std::string buildRoot;         // where the build runs: copyRoot, or -C DIR in it
};

// False with a message when no way to build is known.
bool planBuild(const BuildInputs &in, BuildPlan &plan, std::string &error);

// Writes collectivize-cc, collectivize-c++ and collectivize-fc into dir,
// each running mpicc / mpicxx / mpif90 unchanged: put first in PATH for the
// copies' builds.
bool writePlainCompilers(const std::string &dir, std::string &error);

// Single-quoted for /bin/sh.
std::string shellQuote(const std::string &s);

} // namespace cz::verify
