// fuzz_support.h: what the fuzz targets share: invariant checks that stop
// the fuzzer with a message (a broken invariant is a finding like a
// crash), inputs made of several files, and a private scratch directory
// on tmpfs for the targets whose code under test reads files.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace cz::fuzz {

// Aborts (the fuzzer saves the input) when `ok` is false.
inline void require(bool ok, const char *what) {
  if (ok) return;
  std::fprintf(stderr, "fuzz invariant broken: %s\n", what);
  std::abort();
}

// The input cut at each "\n--8<--\n" (the dictionaries know the
// separator): a target reading several files takes one part per file.
std::vector<std::string> splitParts(const uint8_t *data, size_t size);

// A fresh directory (under /dev/shm when it exists: the targets create and
// remove files at every input), removed again by clear().
class Scratch {
public:
  Scratch();
  ~Scratch();
  const std::string &path() const { return path_; }
  // Writes `text` to path()/name.
  void write(const std::string &name, const std::string &text) const;
  // Removes everything inside path() (not path() itself).
  void clear() const;

private:
  std::string path_;
};

} // namespace cz::fuzz
