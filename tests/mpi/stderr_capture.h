// stderr_capture.h: what this process writes to stderr between construction
// and text(), at the file-descriptor level (the runtime prints with fprintf).
// The captured text is echoed to the real stderr afterwards for the log.
#pragma once

#include <string>

namespace cztest {

class StderrCapture {
 public:
  StderrCapture();
  ~StderrCapture();
  // Stops capturing (once) and returns everything written meanwhile.
  std::string text();

 private:
  int savedFd_ = -1;
  int fileFd_ = -1;
  std::string captured_;
};

} // namespace cztest
