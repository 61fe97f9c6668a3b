// launch.cpp: locating mpirun and the worker, and running the worker with a
// watchdog (an algorithm under development may crash or deadlock; the
// benchmark must then name it and carry on, not hang).
#include "bench/launch.h"

#include "collectivize/launcher.h"
#include "collectivize/process.h"

#include <signal.h>

#include <csignal>
#include <cstdlib>

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

// The watchdog's SIGTERM for the whole job, then this process ends as the
// signal asks.
void forwardSignal(int sig) {
  cz::process::killRunning(SIGTERM);
  std::signal(sig, SIG_DFL);
  raise(sig);
}

}  // namespace

std::string findMpirun(std::string &err) {
  const char *env = std::getenv("COLLECTIVIZE_MPIRUN");
  std::string want = env && *env ? env : CZ_MPIEXEC;
  std::string found = cz::process::findProgram(want);
  if (found.empty())
    err = std::string("mpirun not found (looked for '") + want + "'" +
          (env && *env ? ", from COLLECTIVIZE_MPIRUN" : "") +
          "): install " CZ_MPI_INSTALL_HINT " or set COLLECTIVIZE_MPIRUN=/path/to/mpirun";
  return found;
}

std::string findWorker(std::string &err) {
  const char *env = std::getenv("COLLECTIVIZE_BENCH_WORKER");
  if (env && *env) {
    if (!cz::process::findProgram(env).empty()) return env;
    err = std::string("COLLECTIVIZE_BENCH_WORKER='") + env + "' is not an executable file";
    return "";
  }
  // Installed: next to our own executable (relocatable prefix).
  std::string installed = cz::process::besideSelf(CZ_BENCH_WORKER_RELATIVE);
  if (!cz::process::findProgram(installed).empty()) return installed;
  // Build tree: the path CMake compiled in.
  if (!cz::process::findProgram(CZ_BENCH_WORKER_BUILD_PATH).empty()) return CZ_BENCH_WORKER_BUILD_PATH;
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
  namespace process = cz::process;
  process::Spec spec;
  spec.argv = argv;
  for (const std::string &e : extraEnv) {
    size_t eq = e.find('=');
    spec.env.push_back({e.substr(0, eq), eq == std::string::npos ? "" : e.substr(eq + 1)});
  }
  spec.out = process::Output::capture();
  spec.err = process::Output::file(logPath, true);
  spec.onLine = onLine;
  spec.silenceSeconds = timeoutSeconds;
  spec.termGraceSeconds = 3;
  auto oldInt = std::signal(SIGINT, forwardSignal);
  auto oldTerm = std::signal(SIGTERM, forwardSignal);
  process::Result r = process::run(spec);
  std::signal(SIGINT, oldInt);
  std::signal(SIGTERM, oldTerm);
  RunOutcome out;
  out.startFailed = !r.started;
  out.error = r.error;
  out.timedOut = r.timedOut;
  out.exitCode = r.timedOut ? -1 : r.exitCode;
  return out;
}

}  // namespace cz::bench
