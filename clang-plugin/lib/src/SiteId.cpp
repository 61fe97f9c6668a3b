// SiteId.cpp: FNV-1a 64 over the fields of a SiteKey, NUL-separated.
#include "collectivize/clang/SiteId.h"

#include <cstdio>

namespace cz::clangtools {

uint64_t fnv1a64(llvm::StringRef bytes, uint64_t hash) {
  for (unsigned char c : bytes) {
    hash ^= c;
    hash *= 1099511628211ull;
  }
  return hash;
}

std::string hex16(uint64_t value) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(value));
  return buf;
}

uint64_t siteId(const SiteKey &key) {
  std::string text = "cz-site/1";
  for (const std::string &part :
       {key.file, hex16(key.fileHash),
        std::to_string(key.line) + ":" + std::to_string(key.column), key.callee,
        key.anchor}) {
    text += '\0';
    text += part;
  }
  uint64_t id = fnv1a64(text);
  return id ? id : 1;
}

} // namespace cz::clangtools
