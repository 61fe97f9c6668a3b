// launch.h: finding mpirun and the bench worker, and running the worker
// under mpirun with a watchdog.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace cz::bench {

// COLLECTIVIZE_MPIRUN, else the mpiexec CMake found. Empty + err when it is
// not an executable file.
std::string findMpirun(std::string &err);
// COLLECTIVIZE_BENCH_WORKER, else <bindir>/../libexec/collectivize/..., else
// the build tree's worker.
std::string findWorker(std::string &err);

// argv for `mpirun -n P worker args...`, with the options this machine
// needs (collectivize/launcher.h: root, more ranks than cores).
std::vector<std::string> mpirunCommand(const std::string &mpirun, int procs,
                                       const std::string &worker,
                                       const std::vector<std::string> &args);

struct RunOutcome {
  int exitCode = -1;     // of mpirun; -1 if killed
  bool timedOut = false; // killed by the watchdog
  bool startFailed = false;
  std::string error;
};

// Runs argv (collectivize/process.h) with stdout read line by line into onLine and stderr appended
// to logPath; extraEnv entries are "NAME=value". Kills the whole process
// group after timeoutSeconds without a line of output.
RunOutcome runWithWatchdog(const std::vector<std::string> &argv,
                           const std::vector<std::string> &extraEnv,
                           const std::string &logPath, int timeoutSeconds,
                           const std::function<void(const std::string &)> &onLine);

}  // namespace cz::bench
