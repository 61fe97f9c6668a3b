// SiteId.h: stable 64-bit call-site ids (FNV-1a), the same for the same file
// content and position on any machine, in any build directory.
#pragma once

#include <cstdint>
#include <string>

#include "llvm/ADT/StringRef.h"

namespace cz::clangtools {

constexpr uint64_t kFnvOffset = 14695981039346656037ull;
uint64_t fnv1a64(llvm::StringRef bytes, uint64_t hash = kFnvOffset);

// What a site id is computed from (SITE_DATABASE.md, "Ids").
struct SiteKey {
  std::string file;      // project-relative path, '/' separators
  uint64_t fileHash = 0; // fnv1a64 of the file's bytes
  unsigned line = 0;     // where the site is anchored (1-based)
  unsigned column = 0;
  std::string callee;    // "MPI_Send"
  std::string anchor;    // "call", "macro-expansion", "macro-definition", "macro-body#K", "header"
};
// Never 0 (0 is remapped to 1).
uint64_t siteId(const SiteKey &key);

// 16 lower-case hex digits.
std::string hex16(uint64_t value);

} // namespace cz::clangtools
