// verbs_run.cpp: `collectivize run`: the user's launch command (or the
// short form `-np N PROGRAM`) with the tracer handed to every rank through
// what the launcher propagates (collectivize/launcher.h), then where the
// trace went and its summary, or why there is none.
#include <dirent.h>
#include <limits.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#include "bench/launch.h"
#include "collectivize/launcher.h"
#include "collectivize/program_check.h"
#include "collectivize_trace_format.h"
#include "verbs.h"

extern char **environ;

namespace cz::cli {
namespace {

namespace launch = cz::launch;

const char kRunUsage[] =
    "usage: collectivize run [options] -- LAUNCHER [ARGS...] PROGRAM [ARGS...]\n"
    "       collectivize run [options] -np N [--] PROGRAM [ARGS...]\n\n"
    "Runs an MPI program with the Collectivize tracer in every rank, then prints\n"
    "where the trace went and a summary. The first form takes your own launch\n"
    "command (mpirun with any options, mpiexec, srun) and hands the tracer to the\n"
    "ranks the way that launcher passes variables on: Open MPI `-x`, MPICH/Hydra\n"
    "`-genv`, srun `--export=ALL,...`; any other command runs with the tracer in\n"
    "its environment (with a warning). The short form starts N ranks with the\n"
    "launcher of the MPI Collectivize was built with (COLLECTIVIZE_MPIRUN picks\n"
    "another). On this machine alone, with more ranks than cores, it adds\n"
    "oversubscription and yielding when idle; as root with Open MPI,\n"
    "--allow-run-as-root; each addition is named.\n\n"
    "options:\n"
    "  --trace-dir DIR    where the trace goes (default: COLLECTIVIZE_TRACE_DIR,\n"
    "                     else ./collectivize-trace-<date>-<time>); must be new or\n"
    "                     an empty directory, on a file system every node sees\n"
    "  --block-bytes N    also record the CRC of every N-byte block of larger sends\n"
    "                     (COLLECTIVIZE_TRACE_BLOCK_BYTES=N; what `collectivize\n"
    "                     detect` asks for to confirm a Bruck-style alltoall)\n"
    "  -np N, -n N        the short form: N ranks of PROGRAM\n"
    "Every COLLECTIVIZE_* variable set when you call it reaches the ranks too.\n"
    "COLLECTIVIZE_TRACE_LIB picks the tracer library.\n";


// An anchor with content: a full disk at MPI_Finalize leaves an empty one.
bool hasAnchor(const std::string &dir) {
  struct stat st;
  return stat((dir + "/" CZ_TRACE_ARCHIVE ".otf2").c_str(), &st) == 0 && st.st_size > 0;
}

// Bytes free for the user on the file system that holds `path` (or would:
// its nearest existing ancestor), or -1.
long long freeBytesAt(std::string path) {
  struct statvfs vfs;
  while (statvfs(path.c_str(), &vfs) != 0) {
    size_t slash = path.find_last_of('/');
    if (slash == std::string::npos || path.size() <= 1) return -1;
    path = slash == 0 ? "/" : path.substr(0, slash);
  }
  return (long long)vfs.f_bavail * (long long)vfs.f_frsize;
}

bool exists(const std::string &p) {
  struct stat st;
  return lstat(p.c_str(), &st) == 0;
}

bool isEmptyDirectory(const std::string &p) {
  DIR *d = opendir(p.c_str());
  if (!d) return false;
  bool empty = true;
  while (dirent *e = readdir(d))
    if (std::strcmp(e->d_name, ".") != 0 && std::strcmp(e->d_name, "..") != 0) empty = false;
  closedir(d);
  return empty;
}

std::string absolute(const std::string &p) {
  if (!p.empty() && p[0] == '/') return p;
  char cwd[PATH_MAX];
  if (!getcwd(cwd, sizeof cwd)) return p;
  return std::string(cwd) + "/" + p;
}

std::string freshTraceDir() {
  char stamp[64];
  std::time_t now = std::time(nullptr);
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", std::localtime(&now));
  std::string base = std::string("collectivize-trace-") + stamp;
  std::string dir = base;
  for (int i = 2; exists(dir); i++) dir = base + "-" + std::to_string(i);
  return absolute(dir);
}

pid_t gRunChild = 0;
void forwardToChild(int sig) {
  if (gRunChild > 0) kill(gRunChild, sig);
}

// Runs argv (argv[0] resolved) with extraEnv added; the exit code, 128+N
// for a signal, 127 when it cannot start.
int runCommand(const std::vector<std::string> &argv, const launch::Vars &extraEnv) {
  std::fflush(stdout);
  std::fflush(stderr);
  pid_t pid = fork();
  if (pid < 0) {
    std::fprintf(stderr, "collectivize run: fork: %s\n", std::strerror(errno));
    return 127;
  }
  if (pid == 0) {
    for (const auto &[name, value] : extraEnv) setenv(name.c_str(), value.c_str(), 1);
    std::vector<char *> args;
    for (const std::string &a : argv) args.push_back(const_cast<char *>(a.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    std::fprintf(stderr, "collectivize run: cannot run %s: %s\n", args[0], std::strerror(errno));
    _exit(127);
  }
  gRunChild = pid;
  auto oldInt = std::signal(SIGINT, forwardToChild);
  auto oldTerm = std::signal(SIGTERM, forwardToChild);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  gRunChild = 0;
  std::signal(SIGINT, oldInt);
  std::signal(SIGTERM, oldTerm);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// What every rank gets: the tracer, where to write, and the caller's other
// COLLECTIVIZE_* settings (a launcher that does not forward the whole
// environment, such as Open MPI's to remote nodes, would drop them).
launch::Vars tracerVariables(const std::string &tracer, const std::string &traceDir,
                             long blockBytes) {
  launch::Vars vars;
  const char *preload = std::getenv("LD_PRELOAD");
  vars.push_back({"LD_PRELOAD", tracer + (preload && *preload ? std::string(":") + preload : "")});
  vars.push_back({"COLLECTIVIZE_TRACE_DIR", traceDir});
  // This command says where the trace went, once (not rank 0 as well).
  vars.push_back({"COLLECTIVIZE_TRACE_ANNOUNCE", "0"});
  if (blockBytes) vars.push_back({"COLLECTIVIZE_TRACE_BLOCK_BYTES", std::to_string(blockBytes)});
  for (char **e = environ; e && *e; e++) {
    std::string entry = *e;
    size_t eq = entry.find('=');
    if (eq == std::string::npos || entry.compare(0, 13, "COLLECTIVIZE_") != 0) continue;
    std::string name = entry.substr(0, eq);
    bool ours = false;
    for (const auto &v : vars) ours |= v.first == name;
    if (!ours && name != "COLLECTIVIZE_TRACE_LIB" && name != "COLLECTIVIZE_MPIRUN")
      vars.push_back({name, entry.substr(eq + 1)});
  }
  return vars;
}

// Why no rank reached the tracer: one message.
void explainMissingTrace(const std::vector<std::string> &command, const launch::Shape &shape,
                         launch::Kind kind, const std::string &tracer,
                         const std::string &traceDir, int code) {
  std::string program;
  if (shape.program < command.size()) program = launch::resolveExecutable(command[shape.program]);
  std::string why;
  if (!program.empty())
    why = launch::whyNotTraced(command[shape.program], launch::inspectProgram(program),
                               launch::mpiLibraryOf(launch::inspectProgram(tracer).needed));
  // The tracer needs its 5 MiB ring per rank at MPI_Init: on a full file
  // system it says so in its own warning and leaves nothing behind.
  long long avail = freeBytesAt(traceDir);
  if (avail >= 0 && avail < 6ll * 1024 * 1024) {
    std::fprintf(stderr,
                 "collectivize run: nothing was traced: the file system of %s has %lld KiB "
                 "free, and the tracer needs about 5 MiB per rank (its warning above says "
                 "what it could not write)\n",
                 traceDir.c_str(), avail / 1024);
    return;
  }
  if (code != 0 && why.empty()) {
    std::fprintf(stderr,
                 "collectivize run: nothing was traced: the command failed (exit code %d) "
                 "before any rank called MPI_Init\n",
                 code);
    return;
  }
  if (why.empty())
    why = std::string("no rank called MPI_Init or MPI_Init_thread through the C interface the "
                      "tracer wraps") +
          (kind == launch::Kind::Unknown
               ? " (or " + command[0] + " did not pass LD_PRELOAD on to the ranks)"
               : std::string(" (is it an MPI program?)"));
  std::fprintf(stderr, "collectivize run: nothing was traced (%s was never created): %s\n",
               traceDir.c_str(), why.c_str());
}

} // namespace

int runVerb(int argc, char **argv) {
  long np = 0, blockBytes = 0;
  std::string traceDir;
  const char *traceDirFrom = "--trace-dir";
  int i = 0;
  for (; i < argc; i++) {
    std::string a = argv[i];
    if (a == "--") {
      i++;
      break;
    }
    if (a == "--help" || a == "-h") {
      std::fputs(kRunUsage, stdout);
      return 0;
    }
    if (a == "-np" || a == "-n" || a == "--np") {
      if (i + 1 >= argc || !parseCount(argv[i + 1], 1 << 20, np) || np < 1) {
        std::fprintf(stderr, "collectivize run: %s wants a process count >= 1%s%s%s\n", a.c_str(),
                     i + 1 < argc ? " (got '" : "", i + 1 < argc ? argv[i + 1] : "",
                     i + 1 < argc ? "')" : "");
        return 2;
      }
      i++;
      continue;
    }
    if (a == "--block-bytes") {
      if (i + 1 >= argc || !parseCount(argv[i + 1], 0xffffffffL, blockBytes) || blockBytes < 1) {
        std::fprintf(stderr, "collectivize run: --block-bytes wants a byte count >= 1\n");
        return 2;
      }
      i++;
      continue;
    }
    if (a == "--trace-dir") {
      if (i + 1 >= argc || !*argv[i + 1]) {
        std::fprintf(stderr, "collectivize run: --trace-dir needs a directory\n");
        return 2;
      }
      traceDir = argv[++i];
      continue;
    }
    if (!a.empty() && a[0] == '-') {
      std::fprintf(stderr,
                   "collectivize run: unknown option '%s' (launcher options go after `--`, with "
                   "the launcher: collectivize run -- mpirun %s ...)\n%s",
                   a.c_str(), a.c_str(), kRunUsage);
      return 2;
    }
    break; // the command starts here
  }
  if (i >= argc) {
    std::fprintf(stderr, "collectivize run: no program to run\n%s", kRunUsage);
    return 2;
  }
  std::vector<std::string> command(argv + i, argv + argc);
  std::string err;
  if (np > 0 && (launch::kindFromName(command[0]) != launch::Kind::Unknown ||
                 launch::looksLikeMpiLauncher(command[0]))) {
    std::fprintf(stderr,
                 "collectivize run: -np %ld and a launcher (%s): give the rank count to the "
                 "launcher (collectivize run -- %s -n %ld ...) or leave the launcher out\n",
                 np, command[0].c_str(), command[0].c_str(), np);
    return 2;
  }
  if (np > 0) {
    std::string mpirun = cz::bench::findMpirun(err);
    if (mpirun.empty()) {
      std::fprintf(stderr, "collectivize run: %s\n", err.c_str());
      return 1;
    }
    command.insert(command.begin(), {mpirun, "-n", std::to_string(np)});
  } else {
    std::string resolved = launch::resolveExecutable(command[0]);
    if (resolved.empty()) {
      std::fprintf(stderr, "collectivize run: cannot find '%s' (not an executable file%s)\n",
                   command[0].c_str(),
                   command[0].find('/') == std::string::npos ? " on PATH" : "");
      return 1;
    }
    command[0] = resolved;
  }

  if (traceDir.empty()) {
    const char *env = std::getenv("COLLECTIVIZE_TRACE_DIR");
    if (env && *env) traceDir = env, traceDirFrom = "COLLECTIVIZE_TRACE_DIR";
  }
  if (traceDir.empty()) {
    traceDir = freshTraceDir();
  } else {
    traceDir = absolute(traceDir);
    if (exists(traceDir) && !isEmptyDirectory(traceDir)) {
      std::fprintf(stderr,
                   "collectivize run: %s (%s) already exists and is not an empty directory; "
                   "traces are never overwritten: name a new directory\n",
                   traceDir.c_str(), traceDirFrom);
      return 1;
    }
  }
  std::string tracer = findTracer(err);
  if (tracer.empty()) {
    std::fprintf(stderr, "collectivize run: %s\n", err.c_str());
    return 1;
  }

  launch::Kind kind = launch::kindOf(command[0]);
  launch::Shape shape = launch::shapeOf(command, kind);
  launch::Additions added = launch::neededOptions(kind, shape, launch::thisMachine());
  for (const std::string &why : added.reasons)
    std::fprintf(stderr, "collectivize run: %s\n", why.c_str());
  launch::Vars vars = tracerVariables(tracer, traceDir, blockBytes);
  vars.insert(vars.end(), added.vars.begin(), added.vars.end());
  std::vector<std::string> launched = launch::withOptions(command, added.options);
  launch::Vars environment; // what the launcher itself gets
  if (kind == launch::Kind::Unknown) {
    environment = vars;
    std::fprintf(stderr,
                 "collectivize run: warning: %s is not a launcher collectivize knows (Open MPI's "
                 "mpirun, MPICH's mpiexec, srun): it runs with the tracer in its environment "
                 "(LD_PRELOAD=%s, COLLECTIVIZE_TRACE_DIR=%s). If it starts ranks elsewhere, check "
                 "that they get that environment: your command with `env` in place of the "
                 "program must print COLLECTIVIZE_TRACE_DIR once per rank, and %s then holds "
                 "rank-N.done for every rank\n",
                 command[0].c_str(), tracer.c_str(), traceDir.c_str(), traceDir.c_str());
  } else {
    launched = launch::withVariables(launched, kind, vars);
  }

  int code = runCommand(launched, environment);
  std::fflush(stdout);
  struct stat st;
  if (stat(traceDir.c_str(), &st) != 0 || (isEmptyDirectory(traceDir) && !hasAnchor(traceDir))) {
    explainMissingTrace(command, shape, kind, tracer, traceDir, code);
    return code ? code : 1;
  }
  if (code != 0)
    std::fprintf(stderr, "collectivize run: the program failed (exit code %d)\n", code);
  // No anchor, or an empty one: ranks were killed, or could not write their
  // trace at MPI_Finalize (full disk); their records wait for repair.
  if (!hasAnchor(traceDir)) {
    std::fflush(stdout);
    if (repairTrace(traceDir, "collectivize run") != 0) {
      std::fprintf(stderr,
                   "collectivize run: no readable trace yet: the ranks' records stay in %s, "
                   "and `collectivize trace repair %s` recovers them once the problem above "
                   "is solved\n",
                   traceDir.c_str(), traceDir.c_str());
      return code ? code : 1;
    }
  }
  std::printf("collectivize run: trace written to %s\n", traceDir.c_str());
  int s = printSummary(traceDir, "collectivize run", false);
  return code ? code : s;
}

} // namespace cz::cli
