// fuzz_support.cpp: see fuzz_support.h.
#include "fuzz_support.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>

namespace cz::fuzz {

std::vector<std::string> splitParts(const uint8_t *data, size_t size) {
  static const std::string kSeparator = "\n--8<--\n";
  std::string all(reinterpret_cast<const char *>(data), size);
  std::vector<std::string> parts;
  size_t start = 0;
  for (;;) {
    size_t at = all.find(kSeparator, start);
    if (at == std::string::npos) break;
    parts.push_back(all.substr(start, at - start));
    start = at + kSeparator.size();
  }
  parts.push_back(all.substr(start));
  return parts;
}

namespace {

void removeTree(const std::string &dir, bool self) {
  if (DIR *d = opendir(dir.c_str())) {
    while (dirent *e = readdir(d)) {
      if (!std::strcmp(e->d_name, ".") || !std::strcmp(e->d_name, "..")) continue;
      std::string p = dir + "/" + e->d_name;
      struct stat st;
      if (lstat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) removeTree(p, true);
      else unlink(p.c_str());
    }
    closedir(d);
  }
  if (self) rmdir(dir.c_str());
}

} // namespace

Scratch::Scratch() {
  struct stat st;
  std::string base = stat("/dev/shm", &st) == 0 && S_ISDIR(st.st_mode) ? "/dev/shm" : "/tmp";
  std::string tmpl = base + "/cz-fuzz-XXXXXX";
  std::vector<char> buf(tmpl.begin(), tmpl.end());
  buf.push_back('\0');
  require(mkdtemp(buf.data()) != nullptr, "cannot create a scratch directory");
  path_ = buf.data();
}

Scratch::~Scratch() { removeTree(path_, true); }

void Scratch::write(const std::string &name, const std::string &text) const {
  std::string p = path_ + "/" + name;
  FILE *f = std::fopen(p.c_str(), "wb");
  require(f != nullptr, "cannot write a scratch file");
  if (!text.empty()) require(std::fwrite(text.data(), 1, text.size(), f) == text.size(), "short write");
  std::fclose(f);
}

void Scratch::clear() const { removeTree(path_, false); }

} // namespace cz::fuzz
