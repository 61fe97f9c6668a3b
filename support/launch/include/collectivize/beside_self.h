// beside_self.h: how installed tools find their siblings in a relocatable
// prefix (the tracer library, the benchmark worker): a path relative to
// the directory of the running executable.
#pragma once

#include <string>

namespace cz {

// DIR/relative where DIR holds the running executable ("" if unknown).
std::string besideSelf(const std::string &relative);

} // namespace cz
