// RewriteOptions.h: `collectivize rewrite`'s command line. It is read in a
// file of its own: CLI11 needs C++ exceptions, which the rest of this
// library (built like Debian's LLVM) goes without.
#pragma once

#include <cstddef>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace cz::rewrite {

struct RewriteArgs {
  std::string reportPath, outDir = "collectivize-patches", buildDir, sitesPath, root;
  std::string target = "mpi";      // or "runtime"
  std::vector<std::string> flags;  // after `--`: compile flags
  std::set<size_t> only;           // --match N...
  bool apply = false, quiet = false, outsideRoot = false;
};

// Nothing when rewrite goes on; else its exit status (0 after --help, 2
// after a usage error, both printed).
std::optional<int> parseRewriteArgs(int argc, char **argv, RewriteArgs &args);

} // namespace cz::rewrite
