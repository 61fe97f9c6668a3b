// doc_path.cpp: installed copy, else source tree (doc_path.h).
#include "collectivize/doc_path.h"

#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <map>
#include <mutex>

namespace cz::docs {
namespace {

bool exists(const std::string &path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0;
}

// This program's install prefix: its directory, then CZ_BIN_TO_PREFIX (the
// bindir's way up to the prefix), without "..": it is printed.
std::string ownPrefix() {
  char self[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) return "";
  std::string dir(self, size_t(n));
  dir = dir.substr(0, dir.rfind('/')) + "/" CZ_BIN_TO_PREFIX;
  char resolved[PATH_MAX];
  return realpath(dir.c_str(), resolved) ? resolved : dir;
}

} // namespace

std::string citedPath(const char *sourcePath, InstalledIn where) {
  const char *slash = std::strrchr(sourcePath, '/');
  std::string installed = std::string("/") +
                          (where == InstalledIn::Docs ? CZ_INSTALL_DOCDIR : CZ_INSTALL_DATADIR) +
                          "/" + (slash ? slash + 1 : sourcePath);
  const char *prefix = getenv("COLLECTIVIZE_DOC_PREFIX");
  if (prefix && *prefix) return prefix + installed;
  std::string own = ownPrefix() + installed;
  if (exists(own)) return own;
  std::string source = std::string(CZ_SOURCE_DIR "/") + sourcePath;
  if (exists(source)) return source;
  return own;
}

std::string withCitedPaths(const char *text) {
  static const char kOpen[] = "{doc:";
  std::string out;
  const char *at = text;
  while (const char *open = std::strstr(at, kOpen)) {
    const char *close = std::strchr(open, '}');
    if (!close) break;
    std::string source(open + sizeof kOpen - 1, close);
    bool data = source.rfind("runtime/data/", 0) == 0;
    out.append(at, open);
    out += citedPath(source.c_str(), data ? InstalledIn::Data : InstalledIn::Docs);
    at = close + 1;
  }
  return out + at;
}

const char *helpText(const char *text) {
  static std::mutex lock;
  static std::map<const char *, std::string> made; // keyed by the text's address
  std::lock_guard<std::mutex> hold(lock);
  auto it = made.find(text);
  if (it == made.end()) it = made.emplace(text, withCitedPaths(text)).first;
  return it->second.c_str();
}

} // namespace cz::docs
