// locate.cpp: where the tools find programs and their own files, and the
// log excerpts their messages quote (see process.h).
#include "collectivize/process.h"

#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#ifndef CZ_TRACE_LIB_RELATIVE
#define CZ_TRACE_LIB_RELATIVE "../lib/libcollectivize_trace.so"
#endif
#ifndef CZ_TRACE_LIB_BUILD_PATH
#define CZ_TRACE_LIB_BUILD_PATH ""
#endif

namespace cz::process {
namespace {

bool isExecutableFile(const std::string &p) {
  struct stat st;
  return !p.empty() && stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
         access(p.c_str(), X_OK) == 0;
}

bool isFile(const std::string &p) {
  struct stat st;
  return !p.empty() && stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

} // namespace

std::string findProgram(const std::string &name) {
  if (name.empty()) return "";
  if (name.find('/') != std::string::npos) return isExecutableFile(name) ? name : "";
  const char *path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/bin:/bin";
  size_t start = 0;
  while (start <= dirs.size()) {
    size_t end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    std::string dir = dirs.substr(start, end - start);
    std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
    if (isExecutableFile(candidate)) return candidate;
    start = end + 1;
  }
  return "";
}

std::string besideSelf(const std::string &relative) {
  char self[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) return "";
  std::string dir(self, size_t(n));
  return dir.substr(0, dir.rfind('/')) + "/" + relative;
}

std::string findTracerLibrary(std::string &err) {
  const char *env = std::getenv("COLLECTIVIZE_TRACE_LIB");
  if (env && *env) {
    if (isFile(env)) return env;
    err = std::string("COLLECTIVIZE_TRACE_LIB='") + env + "' is not a file";
    return "";
  }
  std::string installed = besideSelf(CZ_TRACE_LIB_RELATIVE);
  if (isFile(installed)) return installed;
  if (isFile(CZ_TRACE_LIB_BUILD_PATH)) return CZ_TRACE_LIB_BUILD_PATH;
  err = "the tracer library (libcollectivize_trace.so) is missing: looked at '" + installed + "'" +
        (std::strlen(CZ_TRACE_LIB_BUILD_PATH) ? std::string(" and '") + CZ_TRACE_LIB_BUILD_PATH + "'"
                                              : std::string()) +
        "; rebuild/reinstall Collectivize or set COLLECTIVIZE_TRACE_LIB=/path/to/it";
  return "";
}

std::string readFile(const std::string &path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

std::string tailOfFile(const std::string &path, int lines, const std::string &indent) {
  std::vector<std::string> all;
  std::istringstream in(readFile(path));
  for (std::string line; std::getline(in, line);) all.push_back(line);
  std::string out;
  size_t first = all.size() > size_t(lines) ? all.size() - size_t(lines) : 0;
  for (size_t k = first; k < all.size(); k++) out += indent + all[k] + "\n";
  return out;
}

} // namespace cz::process
