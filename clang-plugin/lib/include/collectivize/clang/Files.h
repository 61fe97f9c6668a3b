// Files.h: writing a whole text file, with the error a user can act on.
#pragma once

#include <string>

#include "llvm/ADT/StringRef.h"

namespace cz::clangtools {

// Creates the parent directories; false + err ("cannot write PATH: why").
bool writeFile(const std::string &path, llvm::StringRef text, std::string &err);

} // namespace cz::clangtools
