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
// their value. An argument with white space is a script (`sh -c 'mpirun
// -np 4 ./app'`): it is kept as written but for the absolute paths into a
// map in it (relative ones follow the working directory). `notes` gets
// "ARG -> MAPPED" for each change.
std::vector<std::string> mapCommand(const std::vector<std::string> &command,
                                    const std::vector<PathMap> &maps, const std::string &cwd,
                                    std::vector<std::string> *notes = nullptr);

// A shell script with every absolute path under a map's `from` (a whole
// path component: `/proj` does not match `/project`) moved to its `to`.
std::string mapScript(const std::string &script, const std::vector<PathMap> &maps);

} // namespace cz::verify
