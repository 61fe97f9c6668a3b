// ProjectRoot.cpp: root discovery and root-relative paths.
#include "collectivize/clang/ProjectRoot.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace cz::clangtools {

std::string realPath(const std::string &path) {
  llvm::SmallString<256> out;
  if (llvm::sys::fs::real_path(path, out)) return "";
  return std::string(out);
}

std::string defaultProjectRoot(const std::string &file) {
  std::string abs = realPath(file);
  if (abs.empty()) abs = file;
  llvm::StringRef dir = llvm::sys::path::parent_path(abs);
  for (llvm::StringRef d = dir; !d.empty(); d = llvm::sys::path::parent_path(d)) {
    llvm::SmallString<256> git(d);
    llvm::sys::path::append(git, ".git");
    if (llvm::sys::fs::exists(git)) return d.str();
    if (d == llvm::sys::path::root_path(d)) break;
  }
  return dir.str();
}

bool relativeToRoot(const std::string &root, const std::string &file, std::string &relative) {
  llvm::StringRef r(root), f(file);
  while (r.size() > 1 && r.endswith("/")) r = r.drop_back();
  if (r == "/") {
    relative = f.drop_front().str();
    return f.startswith("/");
  }
  if (!f.startswith(r) || f.size() <= r.size() + 1 || f[r.size()] != '/') return false;
  relative = f.drop_front(r.size() + 1).str();
  return true;
}

} // namespace cz::clangtools
