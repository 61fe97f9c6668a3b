// process.cpp: see process.h.
#include "process.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace cz::verify {
namespace {

volatile sig_atomic_t gRunningGroup = 0;

double now() {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
}

void redirect(const std::string &path, int fd) {
  int f = open(path.empty() ? "/dev/null" : path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (f >= 0 && f != fd) {
    dup2(f, fd);
    close(f);
  }
}

} // namespace

void killRunningProcess(int sig) {
  if (gRunningGroup > 0) kill(-gRunningGroup, sig);
}

ProcessResult runProcess(const ProcessSpec &spec) {
  ProcessResult r;
  if (spec.argv.empty()) {
    r.error = "empty command";
    return r;
  }
  int report[2];
  if (pipe2(report, O_CLOEXEC) != 0) {
    r.error = std::string("pipe: ") + std::strerror(errno);
    return r;
  }
  double start = now();
  pid_t pid = fork();
  if (pid < 0) {
    r.error = std::string("fork: ") + std::strerror(errno);
    close(report[0]), close(report[1]);
    return r;
  }
  if (pid == 0) {
    setpgid(0, 0);
    close(report[0]);
    int devnull = open("/dev/null", O_RDONLY);
    if (devnull >= 0) dup2(devnull, 0);
    redirect(spec.stdoutPath, 1);
    if (!spec.stderrPath.empty() && spec.stderrPath == spec.stdoutPath)
      dup2(1, 2); // one file, in the order things were written
    else
      redirect(spec.stderrPath, 2);
    for (const auto &[k, v] : spec.env) setenv(k.c_str(), v.c_str(), 1);
    if (!spec.cwd.empty() && chdir(spec.cwd.c_str()) != 0) {
      int e = errno;
      (void)!write(report[1], &e, sizeof e);
      _exit(127);
    }
    std::vector<char *> args;
    for (const std::string &a : spec.argv) args.push_back(const_cast<char *>(a.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    int e = errno;
    (void)!write(report[1], &e, sizeof e);
    _exit(127);
  }
  setpgid(pid, pid); // also in the parent: no race with the kill below
  gRunningGroup = pid;
  close(report[1]);
  int childErrno = 0;
  ssize_t got;
  while ((got = read(report[0], &childErrno, sizeof childErrno)) < 0 && errno == EINTR) {
  }
  close(report[0]);

  int status = 0;
  bool killed = false;
  double killedAt = 0;
  for (;;) {
    pid_t w = waitpid(pid, &status, WNOHANG);
    if (w == pid) break;
    if (w < 0 && errno != EINTR) break;
    double t = now() - start;
    if (spec.timeoutSeconds > 0 && t > spec.timeoutSeconds && !killed) {
      kill(-pid, SIGTERM);
      killed = true;
      killedAt = t;
    } else if (killed && t > killedAt + 5) {
      kill(-pid, SIGKILL); // mpirun did not pass the TERM on in time
    }
    struct timespec pause = {0, 500000}; // 0.5 ms: below the timing noise
    nanosleep(&pause, nullptr);
  }
  r.seconds = now() - start;
  gRunningGroup = 0;
  kill(-pid, SIGKILL); // ranks left behind by a dead launcher
  if (got == sizeof childErrno) {
    r.error = "cannot run " + spec.argv[0] + (spec.cwd.empty() ? "" : " in " + spec.cwd) + ": " +
              std::strerror(childErrno);
    return r;
  }
  r.started = true;
  r.timedOut = killed;
  r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return r;
}

std::string readFile(const std::string &path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

std::string tailOfFile(const std::string &path, int lines) {
  std::string text = readFile(path);
  std::vector<std::string> all;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) all.push_back(line);
  std::string out;
  for (size_t k = all.size() > size_t(lines) ? all.size() - size_t(lines) : 0; k < all.size(); k++)
    out += all[k] + "\n";
  return out;
}

} // namespace cz::verify
