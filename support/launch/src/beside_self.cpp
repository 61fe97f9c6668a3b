// beside_self.cpp: see beside_self.h.
#include "collectivize/beside_self.h"

#include <limits.h>
#include <unistd.h>

namespace cz {

std::string besideSelf(const std::string &relative) {
  char self[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) return "";
  std::string dir(self, size_t(n));
  return dir.substr(0, dir.rfind('/')) + "/" + relative;
}

} // namespace cz
