// InstrumentOptions.h: `collectivize instrument`'s command line. It is read
// in a file of its own: CLI11 needs C++ exceptions, which the rest of this
// library (built like Debian's LLVM) goes without.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace cz::instrument {

struct InstrumentArgs {
  std::string buildDir, outDir, sitesPath, root;
  std::vector<std::string> files;
  bool haveFlags = false;         // a `--` was given
  std::vector<std::string> flags; // after it: [COMPILER] FLAGS...
  bool quiet = false;
};

// Nothing when instrument goes on; else its exit status (0 after --help, 2
// after a usage error, both printed).
std::optional<int> parseInstrumentArgs(int argc, char **argv, InstrumentArgs &args);

} // namespace cz::instrument
