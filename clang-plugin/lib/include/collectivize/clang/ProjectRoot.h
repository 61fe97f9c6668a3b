// ProjectRoot.h: the project root that site ids are relative to
// (SITE_DATABASE.md, "Project root").
#pragma once

#include <string>

namespace cz::clangtools {

// Absolute path with symlinks resolved ("" if it does not exist).
std::string realPath(const std::string &path);
// The nearest ancestor directory of file holding a .git entry, else the
// file's directory. Absolute, symlinks resolved.
std::string defaultProjectRoot(const std::string &file);
// Path of file relative to root with '/' separators; false if file is not
// under root. Both absolute and normalised.
bool relativeToRoot(const std::string &root, const std::string &file, std::string &relative);

} // namespace cz::clangtools
