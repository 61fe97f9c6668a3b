// Files.cpp: see Files.h.
#include "collectivize/clang/Files.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace cz::clangtools {

bool writeFile(const std::string &path, llvm::StringRef text, std::string &err) {
  if (std::error_code ec = llvm::sys::fs::create_directories(llvm::sys::path::parent_path(path))) {
    err = "cannot create " + llvm::sys::path::parent_path(path).str() + ": " + ec.message();
    return false;
  }
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec) {
    err = "cannot write " + path + ": " + ec.message();
    return false;
  }
  os << text;
  os.close();
  if (os.has_error()) {
    err = "cannot write " + path + ": " + os.error().message();
    os.clear_error();
    return false;
  }
  return true;
}

} // namespace cz::clangtools
