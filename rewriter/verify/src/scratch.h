// scratch.h: scratch copies of the user's project, and applying a patch to
// one. The user's files are only ever read.
//
// A copy holds the sources, not what a build made: the build directory
// (and any directory holding a CMakeCache.txt), .git, Collectivize traces and work directories, ELF files (objects,
// executables, shared libraries) and ar archives are left out, so the copy
// builds from scratch with the same command as every other copy. Files get
// fresh modification times (make must not trust old objects).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cz::verify {

struct CopyStats {
  uint64_t files = 0, bytes = 0;
  uint64_t buildProducts = 0; // ELF files and archives left out
  std::vector<std::string> skippedDirs;
};

// Copies root into dest (which must not exist); directories in `skip`
// (absolute) are left out. False with a message on failure.
bool copyProject(const std::string &root, const std::string &dest,
                 const std::vector<std::string> &skip, CopyStats &stats, std::string &error);

struct ApplyResult {
  bool applied = false;
  std::string message; // the tool's complaint when it did not apply
  std::string tool;    // "git apply" or "patch"
};

// Applies a unified diff (paths relative to the project root, -p1) in
// copyRoot. Checks first, so a patch that does not apply changes nothing.
ApplyResult applyPatch(const std::string &diffPath, const std::string &copyRoot,
                       const std::string &logPath);

// Files a unified diff changes (its "+++ b/PATH" lines, -p1).
std::vector<std::string> filesInDiff(const std::string &diffText);

} // namespace cz::verify
