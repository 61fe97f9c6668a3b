// scratch.cpp: see scratch.h.
#include "scratch.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <sstream>

#include "collectivize/process.h"

namespace fs = std::filesystem;

namespace cz::verify {
namespace {

// ELF files and ar archives are build products, never sources.
bool isBuildProduct(const fs::path &p) {
  int fd = open(p.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  char magic[8] = {0};
  ssize_t n = read(fd, magic, sizeof magic);
  close(fd);
  if (n >= 4 && std::memcmp(magic, "\x7f" "ELF", 4) == 0) return true;
  return n >= 8 && std::memcmp(magic, "!<arch>\n", 8) == 0;
}

bool skippedName(const std::string &name) {
  return name == ".git" || name.rfind("collectivize-trace-", 0) == 0 ||
         name.rfind("collectivize-verify-", 0) == 0;
}

} // namespace

bool copyProject(const std::string &root, const std::string &dest,
                 const std::vector<std::string> &skip, CopyStats &stats, std::string &error) {
  std::error_code ec;
  if (!fs::is_directory(root, ec)) {
    error = "the project root " + root + " is not a directory";
    return false;
  }
  if (fs::exists(dest, ec)) {
    error = dest + " already exists";
    return false;
  }
  fs::create_directories(dest, ec);
  if (ec) {
    error = "cannot create " + dest + ": " + ec.message();
    return false;
  }
  fs::recursive_directory_iterator it(root, fs::directory_options::none, ec), end;
  if (ec) {
    error = "cannot read " + root + ": " + ec.message();
    return false;
  }
  for (; it != end; it.increment(ec)) {
    if (ec) {
      error = "cannot read " + root + ": " + ec.message();
      return false;
    }
    const fs::path &p = it->path();
    std::string name = p.filename().string();
    fs::path rel = p.lexically_relative(root);
    fs::path target = fs::path(dest) / rel;
    fs::file_status st = it->symlink_status(ec);
    if (fs::is_directory(st)) {
      // A directory with a CMakeCache.txt is a CMake build directory.
      bool skipped = skippedName(name) || fs::exists(p / "CMakeCache.txt", ec);
      for (const std::string &s : skip)
        if (fs::path(s).lexically_normal() == p.lexically_normal()) skipped = true;
      if (skipped) {
        stats.skippedDirs.push_back(rel.string());
        it.disable_recursion_pending();
        continue;
      }
      fs::create_directories(target, ec);
    } else if (fs::is_symlink(st)) {
      fs::copy_symlink(p, target, ec);
    } else if (fs::is_regular_file(st)) {
      if (isBuildProduct(p)) {
        stats.buildProducts++;
        continue;
      }
      // copy_file keeps permissions (scripts stay executable) and gives
      // the copy a new modification time.
      fs::copy_file(p, target, ec);
      stats.files++;
      stats.bytes += it->file_size(ec);
    }
    if (ec) {
      error = "cannot copy " + p.string() + " to " + target.string() + ": " + ec.message();
      return false;
    }
  }
  return true;
}

std::vector<std::string> filesInDiff(const std::string &diffText) {
  std::vector<std::string> files;
  std::istringstream in(diffText);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("+++ ", 0) != 0) continue;
    std::string path = line.substr(4);
    size_t tab = path.find('\t');
    if (tab != std::string::npos) path.resize(tab);
    if (path == "/dev/null") continue;
    size_t slash = path.find('/');
    files.push_back(slash == std::string::npos ? path : path.substr(slash + 1));
  }
  return files;
}

ApplyResult applyPatch(const std::string &diffPath, const std::string &copyRoot,
                       const std::string &logPath) {
  ApplyResult r;
  // git must not find a repository above the copy (it would then apply
  // relative to that repository's root, or skip paths outside the cwd).
  std::string parent = fs::path(copyRoot).parent_path().string();
  const std::string outLog = logPath, errLog = logPath + ".err";
  process::Spec spec;
  spec.cwd = copyRoot;
  spec.env = {{"GIT_CEILING_DIRECTORIES", parent}};
  spec.stdinPath = "/dev/null";
  spec.out = process::Output::file(outLog);
  spec.err = process::Output::file(errLog);
  spec.timeoutSeconds = 120;
  spec.argv = {"git", "apply", "--check", "-p1", diffPath};
  process::Result check = process::run(spec);
  if (check.started) {
    r.tool = "git apply";
    if (check.exitCode != 0) {
      r.message = process::readFile(errLog);
      return r;
    }
    spec.argv = {"git", "apply", "-p1", diffPath};
  } else {
    r.tool = "patch"; // no git on this machine
    spec.argv = {"patch", "-p1", "--dry-run", "--batch", "-i", diffPath};
    process::Result dry = process::run(spec);
    if (!dry.started) {
      r.message = "neither git nor patch is installed (apt-get install git)";
      return r;
    }
    if (dry.exitCode != 0) {
      r.message = process::readFile(outLog) + process::readFile(errLog);
      return r;
    }
    spec.argv = {"patch", "-p1", "--batch", "-i", diffPath};
  }
  process::Result apply = process::run(spec);
  r.applied = apply.started && apply.exitCode == 0;
  if (!r.applied) r.message = process::readFile(outLog) + process::readFile(errLog);
  return r;
}

} // namespace cz::verify
