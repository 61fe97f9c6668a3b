// command_map.h: the user's run command, pointed at a scratch copy. The
// program and every argument naming something inside the project (or its
// build directory, when that lies outside) are rewritten to the same place
// in the copy, so the original and the patched copy run the same way.
#pragma once

#include <string>
#include <vector>

namespace cz::verify {

struct PathMap {
  std::string from; // absolute, normalized directory
  std::string to;
};

// Lexically normalized absolute path (relative paths against cwd).
std::string absolutePath(const std::string &path, const std::string &cwd);

// Where `path` (absolute) lands under the maps (the longest `from` that
// contains it wins); "" when no map contains it.
std::string mapPath(const std::string &path, const std::vector<PathMap> &maps);

// The command with its paths mapped. An argument is a path when it contains
// '/' or names an existing file in cwd; "--opt=PATH" and "VAR=PATH" map
// their value. `notes` gets "ARG -> MAPPED" for each change.
std::vector<std::string> mapCommand(const std::vector<std::string> &command,
                                    const std::vector<PathMap> &maps, const std::string &cwd,
                                    std::vector<std::string> *notes = nullptr);

} // namespace cz::verify
