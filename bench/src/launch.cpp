// launch.cpp: locating mpirun and the worker, and running the worker with a
// watchdog (an algorithm under development may crash or deadlock; the
// benchmark must then name it and carry on, not hang).
#include "bench/launch.h"
#include "collectivize/beside_self.h"

#include "collectivize/launcher.h"

#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <deque>

#ifndef CZ_MPIEXEC
#define CZ_MPIEXEC "mpirun"
#endif
#ifndef CZ_MPI_INSTALL_HINT
#define CZ_MPI_INSTALL_HINT "the MPI Collectivize was built with"
#endif
#ifndef CZ_BENCH_WORKER_RELATIVE
#define CZ_BENCH_WORKER_RELATIVE "../libexec/collectivize/collectivize_bench_worker"
#endif
#ifndef CZ_BENCH_WORKER_BUILD_PATH
#define CZ_BENCH_WORKER_BUILD_PATH ""
#endif

namespace cz::bench {
namespace {

namespace launch = cz::launch;

bool isExecutable(const std::string &path) {
  struct stat st;
  return !path.empty() && stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
         access(path.c_str(), X_OK) == 0;
}

// A bare name is looked up in PATH, as execvp would.
std::string resolve(const std::string &name) {
  if (name.find('/') != std::string::npos) return isExecutable(name) ? name : "";
  const char *path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/bin:/bin";
  size_t start = 0;
  while (start <= dirs.size()) {
    size_t end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    std::string candidate = dirs.substr(start, end - start) + "/" + name;
    if (isExecutable(candidate)) return candidate;
    start = end + 1;
  }
  return "";
}

pid_t gChild = 0;  // process group being run, for the signal handler

void forwardSignal(int sig) {
  if (gChild > 0) kill(-gChild, SIGTERM);
  std::signal(sig, SIG_DFL);
  raise(sig);
}

}  // namespace

std::string findMpirun(std::string &err) {
  const char *env = std::getenv("COLLECTIVIZE_MPIRUN");
  std::string want = env && *env ? env : CZ_MPIEXEC;
  std::string found = resolve(want);
  if (found.empty())
    err = std::string("mpirun not found (looked for '") + want + "'" +
          (env && *env ? ", from COLLECTIVIZE_MPIRUN" : "") +
          "): install " CZ_MPI_INSTALL_HINT " or set COLLECTIVIZE_MPIRUN=/path/to/mpirun";
  return found;
}

std::string findWorker(std::string &err) {
  const char *env = std::getenv("COLLECTIVIZE_BENCH_WORKER");
  if (env && *env) {
    if (isExecutable(env)) return env;
    err = std::string("COLLECTIVIZE_BENCH_WORKER='") + env + "' is not an executable file";
    return "";
  }
  // Installed: next to our own executable (relocatable prefix).
  std::string installed = cz::besideSelf(CZ_BENCH_WORKER_RELATIVE);
  if (!installed.empty() && isExecutable(installed)) return installed;
  // Build tree: the path CMake compiled in.
  if (isExecutable(CZ_BENCH_WORKER_BUILD_PATH)) return CZ_BENCH_WORKER_BUILD_PATH;
  err = "the benchmark worker (collectivize_bench_worker) is missing: looked at '" + installed +
        "' and '" + CZ_BENCH_WORKER_BUILD_PATH +
        "'; rebuild/reinstall Collectivize or set COLLECTIVIZE_BENCH_WORKER=/path/to/it";
  return "";
}

std::vector<std::string> mpirunCommand(const std::string &mpirun, int procs,
                                       const std::string &worker,
                                       const std::vector<std::string> &args) {
  std::vector<std::string> cmd{mpirun, "-n", std::to_string(procs), worker};
  cmd.insert(cmd.end(), args.begin(), args.end());
  // More ranks than cores is the normal case on a workstation; without
  // yielding when idle, oversubscribed busy-polling ranks run ~500x slower.
  // Those options (and root's) only when needed, in the launcher's dialect.
  launch::Kind kind = launch::kindOf(mpirun);
  launch::Additions added = launch::neededOptions(kind, launch::shapeOf(cmd, kind),
                                                  launch::thisMachine());
  return launch::withVariables(launch::withOptions(cmd, added.options), kind, added.vars);
}

RunOutcome runWithWatchdog(const std::vector<std::string> &argv,
                           const std::vector<std::string> &extraEnv,
                           const std::string &logPath, int timeoutSeconds,
                           const std::function<void(const std::string &)> &onLine) {
  RunOutcome out;
  int fds[2];
  if (pipe(fds) != 0) {
    out.startFailed = true;
    out.error = std::string("pipe: ") + std::strerror(errno);
    return out;
  }
  int logFd = open(logPath.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  pid_t pid = fork();
  if (pid < 0) {
    out.startFailed = true;
    out.error = std::string("fork: ") + std::strerror(errno);
    return out;
  }
  if (pid == 0) {
    setpgid(0, 0);  // one group: the watchdog kills mpirun and its ranks together
    dup2(fds[1], 1);
    if (logFd >= 0) dup2(logFd, 2);
    close(fds[0]);
    close(fds[1]);
    for (const std::string &e : extraEnv) putenv(strdup(e.c_str()));
    std::vector<char *> args;
    for (const std::string &a : argv) args.push_back(const_cast<char *>(a.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    std::fprintf(stderr, "cannot run %s: %s\n", args[0], std::strerror(errno));
    _exit(127);
  }
  setpgid(pid, pid);
  gChild = pid;
  auto oldInt = std::signal(SIGINT, forwardSignal);
  auto oldTerm = std::signal(SIGTERM, forwardSignal);
  close(fds[1]);
  if (logFd >= 0) close(logFd);

  std::string pending;
  char buf[4096];
  auto lastOutput = std::chrono::steady_clock::now();
  for (;;) {
    pollfd p{fds[0], POLLIN, 0};
    int r = poll(&p, 1, 1000);
    if (r < 0 && errno == EINTR) continue;
    if (r > 0) {
      ssize_t n = read(fds[0], buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;  // EOF: the job finished (or died)
      lastOutput = std::chrono::steady_clock::now();
      pending.append(buf, size_t(n));
      size_t nl;
      while ((nl = pending.find('\n')) != std::string::npos) {
        onLine(pending.substr(0, nl));
        pending.erase(0, nl + 1);
      }
      continue;
    }
    auto silent = std::chrono::steady_clock::now() - lastOutput;
    if (silent > std::chrono::seconds(timeoutSeconds)) {
      out.timedOut = true;
      kill(-pid, SIGTERM);
      for (int i = 0; i < 30 && waitpid(pid, nullptr, WNOHANG) == 0; i++) usleep(100000);
      kill(-pid, SIGKILL);
      break;
    }
  }
  close(fds[0]);
  int status = 0;
  if (waitpid(pid, &status, 0) == pid && WIFEXITED(status)) out.exitCode = WEXITSTATUS(status);
  if (!out.timedOut && WIFSIGNALED(status)) out.exitCode = 128 + WTERMSIG(status);
  if (out.timedOut) out.exitCode = -1;
  gChild = 0;
  std::signal(SIGINT, oldInt);
  std::signal(SIGTERM, oldTerm);
  return out;
}

std::string tailOfFile(const std::string &path, int n) {
  std::ifstream in(path);
  std::deque<std::string> lines;
  std::string line;
  while (std::getline(in, line)) {
    lines.push_back(line);
    if (int(lines.size()) > n) lines.pop_front();
  }
  std::string out;
  for (const std::string &l : lines) out += "    " + l + "\n";
  return out;
}

}  // namespace cz::bench
