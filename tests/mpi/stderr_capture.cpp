#include "stderr_capture.h"

#include <cstdio>
#include <cstdlib>
#include <unistd.h>

namespace cztest {

StderrCapture::StderrCapture() {
  char path[] = "/tmp/cz-stderr-XXXXXX";
  fileFd_ = mkstemp(path);
  if (fileFd_ < 0) return;
  unlink(path);
  std::fflush(stderr);
  savedFd_ = dup(STDERR_FILENO);
  dup2(fileFd_, STDERR_FILENO);
}

std::string StderrCapture::text() {
  if (savedFd_ < 0) return captured_;
  std::fflush(stderr);
  dup2(savedFd_, STDERR_FILENO);
  close(savedFd_);
  savedFd_ = -1;
  lseek(fileFd_, 0, SEEK_SET);
  char chunk[4096];
  for (ssize_t n; (n = read(fileFd_, chunk, sizeof chunk)) > 0;)
    captured_.append(chunk, static_cast<size_t>(n));
  close(fileFd_);
  std::fputs(captured_.c_str(), stderr);
  return captured_;
}

StderrCapture::~StderrCapture() { text(); }

} // namespace cztest
