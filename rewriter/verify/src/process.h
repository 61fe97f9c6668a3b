// process.h: running the user's build and program: argv (no shell unless
// asked), a working directory, extra environment, output to files, wall
// time, and a timeout that kills the whole process group (mpirun and its
// ranks) so a patched program that deadlocks cannot hang verification.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace cz::verify {

struct ProcessSpec {
  std::vector<std::string> argv;
  std::string cwd;                                       // "" = inherit
  std::vector<std::pair<std::string, std::string>> env;  // added / replaced
  std::string stdoutPath, stderrPath;                    // "" = /dev/null; may be one file
  double timeoutSeconds = 0;                             // 0 = none
};

struct ProcessResult {
  bool started = false;
  std::string error;   // why it could not start
  int exitCode = 0;    // exit status, or 128 + signal
  bool timedOut = false;
  double seconds = 0;  // wall time
};

ProcessResult runProcess(const ProcessSpec &spec);

// Kills the process group of whatever runProcess is waiting for (for a
// SIGINT handler); safe to call from a signal handler.
void killRunningProcess(int sig);

// The last `lines` lines of a file (build logs in messages).
std::string tailOfFile(const std::string &path, int lines);
std::string readFile(const std::string &path);

} // namespace cz::verify
