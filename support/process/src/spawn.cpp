// spawn.cpp: run() and killRunning() (see process.h). One fork/exec path:
// a close-on-exec pipe tells the parent why exec failed, the parent polls
// the captured outputs (or, with none, waits in 0.5 ms steps, below the
// timing noise verify measures) and enforces the timeouts.
#include "collectivize/process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

extern char **environ;

namespace cz::process {
namespace {

// What killRunning() signals: -group, or the child's pid; 0 when idle.
volatile sig_atomic_t gRunning = 0;

double now() {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
}

// In the child: fd becomes `path` (opened with flags); left as it is when
// the file cannot be opened (as a shell's failed redirection would not be).
void redirectTo(const std::string &path, int flags, int fd) {
  int f = open(path.c_str(), flags, 0644);
  if (f >= 0 && f != fd) {
    dup2(f, fd);
    close(f);
  }
}

// In the child: where one output stream goes.
void route(const Output &o, int fd, int pipeEnd) {
  switch (o.kind) {
  case Output::Inherit: return;
  case Output::Discard: redirectTo("/dev/null", O_WRONLY, fd); return;
  case Output::File:
    redirectTo(o.path, O_WRONLY | O_CREAT | (o.append ? O_APPEND : O_TRUNC), fd);
    return;
  case Output::Capture: dup2(pipeEnd, fd); return;
  case Output::SameAsStdout: dup2(1, fd); return;
  }
}

[[noreturn]] void failInChild(int reportFd) {
  int e = errno;
  (void)!write(reportFd, &e, sizeof e);
  _exit(127);
}

void closeIfOpen(int &fd) {
  if (fd >= 0) close(fd);
  fd = -1;
}

// Reads what is there on one captured stream; false at its end.
bool drain(int fd, std::string &into) {
  char buf[4096];
  for (;;) {
    ssize_t n = read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    into.append(buf, size_t(n));
    return true;
  }
}

// Hands the complete lines of `pending` to onLine (all of it at the end).
void deliverLines(std::string &pending, const Spec &spec, bool atEnd) {
  size_t nl;
  while ((nl = pending.find('\n')) != std::string::npos) {
    spec.onLine(pending.substr(0, nl));
    pending.erase(0, nl + 1);
  }
  if (atEnd && !pending.empty()) {
    spec.onLine(pending);
    pending.clear();
  }
}

// This process's environment with `changes` added or replacing entries.
std::vector<std::string> environmentWith(const std::vector<std::pair<std::string, std::string>> &changes) {
  std::vector<std::string> out;
  for (char **e = environ; e && *e; e++) {
    std::string entry = *e;
    bool replaced = false;
    for (const auto &change : changes)
      replaced |= entry.size() > change.first.size() && entry[change.first.size()] == '=' &&
                  entry.compare(0, change.first.size(), change.first) == 0;
    if (!replaced) out.push_back(entry);
  }
  for (size_t k = 0; k < changes.size(); k++) { // a name given twice: the last value
    bool later = false;
    for (size_t j = k + 1; j < changes.size(); j++) later |= changes[j].first == changes[k].first;
    if (!later) out.push_back(changes[k].first + "=" + changes[k].second);
  }
  return out;
}

} // namespace

void killRunning(int sig) {
  if (gRunning != 0) kill(pid_t(gRunning), sig);
}

Result run(const Spec &spec) {
  Result r;
  if (spec.argv.empty()) {
    r.error = "empty command";
    return r;
  }
  if (!spec.stdinPath.empty() && access(spec.stdinPath.c_str(), R_OK) != 0) {
    r.error = "cannot run " + spec.argv[0] + ": cannot read its input " + spec.stdinPath + ": " +
              std::strerror(errno);
    return r;
  }
  int report[2], outPipe[2] = {-1, -1}, errPipe[2] = {-1, -1};
  bool captureOut = spec.out.kind == Output::Capture;
  bool captureErr = spec.err.kind == Output::Capture;
  if (pipe2(report, O_CLOEXEC) != 0 || (captureOut && pipe2(outPipe, O_CLOEXEC) != 0) ||
      (captureErr && pipe2(errPipe, O_CLOEXEC) != 0)) {
    r.error = std::string("pipe: ") + std::strerror(errno);
    return r;
  }
  // Everything the child needs is built here: between fork and exec it
  // may only make system calls (another thread may hold malloc's lock).
  std::vector<char *> args;
  for (const std::string &a : spec.argv) args.push_back(const_cast<char *>(a.c_str()));
  args.push_back(nullptr);
  std::vector<std::string> envStrings = environmentWith(spec.env);
  std::vector<char *> envp;
  for (std::string &e : envStrings) envp.push_back(e.data());
  envp.push_back(nullptr);
  std::fflush(nullptr); // nothing buffered here is written twice
  double start = now();
  pid_t pid = fork();
  if (pid < 0) {
    r.error = std::string("fork: ") + std::strerror(errno);
    for (int *fd : {&report[0], &report[1], &outPipe[0], &outPipe[1], &errPipe[0], &errPipe[1]})
      closeIfOpen(*fd);
    return r;
  }
  if (pid == 0) {
    if (spec.ownGroup) setpgid(0, 0);
    if (!spec.stdinPath.empty()) {
      int in = open(spec.stdinPath.c_str(), O_RDONLY);
      if (in < 0) failInChild(report[1]);
      dup2(in, 0);
      close(in);
    }
    route(spec.out, 1, outPipe[1]);
    route(spec.err, 2, errPipe[1]);
    if (!spec.cwd.empty() && chdir(spec.cwd.c_str()) != 0) failInChild(report[1]);
    execvpe(args[0], args.data(), envp.data());
    failInChild(report[1]);
  }
  if (spec.ownGroup) setpgid(pid, pid); // also here: no race with a kill below
  gRunning = spec.ownGroup ? -pid : pid;
  closeIfOpen(report[1]);
  closeIfOpen(outPipe[1]);
  closeIfOpen(errPipe[1]);
  int childErrno = 0;
  ssize_t got;
  while ((got = read(report[0], &childErrno, sizeof childErrno)) < 0 && errno == EINTR) {
  }
  closeIfOpen(report[0]);

  int status = 0;
  bool reaped = false, killed = false, sentKill = false;
  double killedAt = 0, lastOutput = start;
  std::string pending; // stdout not yet handed to onLine
  int &outFd = outPipe[0], &errFd = errPipe[0];
  for (;;) {
    pid_t w = waitpid(pid, &status, WNOHANG);
    if (w == pid) {
      reaped = true;
      break;
    }
    if (w < 0 && errno != EINTR) break;
    if (outFd >= 0 || errFd >= 0) {
      // 50 ms at most: a rank that inherited the pipe may hold it open
      // after the child itself has ended.
      pollfd fds[2];
      nfds_t n = 0;
      if (outFd >= 0) fds[n++] = {outFd, POLLIN, 0};
      if (errFd >= 0) fds[n++] = {errFd, POLLIN, 0};
      if (poll(fds, n, 50) > 0) {
        for (nfds_t k = 0; k < n; k++) {
          if (!fds[k].revents) continue;
          bool isOut = fds[k].fd == outFd;
          std::string &into = isOut ? (spec.onLine ? pending : r.out) : r.err;
          if (!drain(fds[k].fd, into)) {
            closeIfOpen(isOut ? outFd : errFd);
          } else if (isOut) {
            lastOutput = now();
            if (spec.onLine) deliverLines(pending, spec, false);
          }
        }
      }
    } else {
      struct timespec pause = {0, 500000};
      nanosleep(&pause, nullptr);
    }
    double t = now();
    bool silent = spec.silenceSeconds > 0 && captureOut && t - lastOutput > spec.silenceSeconds;
    if (!killed && ((spec.timeoutSeconds > 0 && t - start > spec.timeoutSeconds) || silent)) {
      killRunning(SIGTERM);
      killed = true;
      killedAt = t;
    } else if (killed && !sentKill && t > killedAt + spec.termGraceSeconds) {
      killRunning(SIGKILL); // mpirun did not pass the TERM on in time
      sentKill = true;
    }
  }
  r.seconds = now() - start;
  gRunning = 0;
  if (spec.ownGroup) kill(-pid, SIGKILL); // ranks left behind by a dead launcher
  // What the child wrote before it ended (a straggler keeping the pipe
  // open is given 100 ms, or nothing after the kill above).
  for (int *fd : {&outFd, &errFd}) {
    while (*fd >= 0) {
      pollfd p{*fd, POLLIN, 0};
      bool isOut = fd == &outFd;
      std::string &into = isOut ? (spec.onLine ? pending : r.out) : r.err;
      if (poll(&p, 1, 100) <= 0 || !drain(*fd, into)) closeIfOpen(*fd);
    }
  }
  if (spec.onLine) deliverLines(pending, spec, true);
  if (got == sizeof childErrno) {
    r.error = "cannot run " + spec.argv[0] + (spec.cwd.empty() ? "" : " in " + spec.cwd) + ": " +
              std::strerror(childErrno);
    return r;
  }
  r.started = true;
  r.timedOut = killed;
  if (reaped && WIFSIGNALED(status)) {
    r.signal = WTERMSIG(status);
    r.exitCode = 128 + r.signal;
  } else if (reaped) {
    r.exitCode = WEXITSTATUS(status);
  }
  return r;
}

} // namespace cz::process
