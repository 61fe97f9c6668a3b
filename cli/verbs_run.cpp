// verbs_run.cpp: `collectivize run`: the user's launch command (or the
// short form `-np N PROGRAM`) with the tracer handed to every rank through
// what the launcher propagates (collectivize/launcher.h), then where the
// trace went and its summary, or why there is none.
#include <dirent.h>
#include <limits.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <optional>
#include <string>
#include <vector>

#include "bench/launch.h"
#include "collectivize/launcher.h"
#include "collectivize/process.h"
#include "collectivize/program_check.h"
#include "collectivize_trace_format.h"
#include "collectivize/verb_options.h"
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
    "  -np N, -n N        the short form: N ranks of PROGRAM (also --np N)\n"
    "  -np N,M,...        one traced run per process count, each trace in DIR/npN\n"
    "                     (DIR: --trace-dir or a fresh one), and the `collectivize\n"
    "                     detect` command that takes them together: a pattern that\n"
    "                     is a collective at one count and not at another is not one\n"
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

void forwardToChild(int sig) { cz::process::killRunning(sig); }

// Runs argv (argv[0] resolved) with extraEnv added, in our process group
// (the terminal's Ctrl-C reaches it too); the exit code, 128+N for a
// signal, 127 when it cannot start.
int runCommand(const std::vector<std::string> &argv, const launch::Vars &extraEnv) {
  cz::process::Spec spec;
  spec.argv = argv;
  spec.env = extraEnv;
  spec.ownGroup = false;
  auto oldInt = std::signal(SIGINT, forwardToChild);
  auto oldTerm = std::signal(SIGTERM, forwardToChild);
  cz::process::Result r = cz::process::run(spec);
  std::signal(SIGINT, oldInt);
  std::signal(SIGTERM, oldTerm);
  if (!r.started) {
    std::fprintf(stderr, "collectivize run: %s\n", r.error.c_str());
    return 127;
  }
  return r.exitCode;
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
  if (shape.program < command.size()) program = cz::process::findProgram(command[shape.program]);
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

// Traces one launch of `command` (argv[0] resolved, the rank count in it)
// into traceDir (new or empty): says where the trace went and summarizes
// it, or says why there is none. The command's exit code, else 0 or 1.
int traceOnce(const std::vector<std::string> &command, const std::string &traceDir,
              const std::string &tracer, long blockBytes) {
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


// "4" or "4,8,16": process counts >= 1, each once.
bool parseCounts(const std::string &all, std::vector<long> &out) {
  out.clear();
  size_t start = 0;
  for (;;) {
    size_t comma = all.find(',', start);
    std::string one = all.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    long long n = 0;
    if (!cz::options::parseWhole(one, 1, 1 << 20, n)) return false;
    for (long seen : out)
      if (seen == n) return false;
    out.push_back(long(n));
    if (comma == std::string::npos) return true;
    start = comma + 1;
  }
}

// Open MPI's spelling "-np N" is --np to CLI11 (a one-dash name is one
// letter there): rewritten among run's own options, never in the command.
void spellNpAsLong(std::vector<std::string> &args, const CLI::App &app) {
  for (size_t k = 0; k < args.size(); k++) {
    std::string &a = args[k];
    if (a == "--" || a.size() < 2 || a[0] != '-') return; // the command starts here
    if (a == "-np") a = "--np";
    const CLI::Option *o = app.get_option_no_throw(a);
    if (o && o->get_items_expected_max() > 0) k++; // its value, whatever it looks like
  }
}

// run's command line (kRunUsage describes it): options, then the command
// (after `--`, or from the first operand on).
struct RunArgs {
  std::vector<long> counts; // -np N or N,M,...
  long long blockBytes = 0;
  std::string traceDir;
  std::vector<std::string> command;
};

std::optional<int> parseRunArgs(int argc, char **argv, RunArgs &r) {
  cz::options::VerbParser parser("collectivize run", kRunUsage);
  CLI::App &app = parser.app();
  app.prefix_command(); // the first operand and what follows are the command
  cz::options::addChecked(app, "-n,--np",
                          [&](const std::string &v) { return parseCounts(v, r.counts); },
                          "wants a process count >= 1, or several apart (4,8)", "N", "-np");
  cz::options::addChecked(app, "--block-bytes",
                          [&](const std::string &v) {
                            return cz::options::parseWhole(v, 1, 0xffffffffLL, r.blockBytes);
                          },
                          "wants a byte count >= 1", "N");
  app.add_option("--trace-dir", r.traceDir)->type_name("DIR");
  std::vector<std::string> args = cz::options::argsOf(argc, argv);
  spellNpAsLong(args, app);
  if (auto status = parser.parse(args, true)) return status;
  r.command = parser.unknown();
  if (!r.command.empty() && r.command[0] == "--") {
    r.command.erase(r.command.begin());
  } else if (!r.command.empty() && r.command[0].size() > 1 && r.command[0][0] == '-') {
    const std::string &a = r.command[0];
    return parser.usageError("unknown option '" + a + "' (launcher options go after `--`, with "
                             "the launcher: collectivize run -- mpirun " + a + " ...)");
  }
  if (app.count("--trace-dir") && r.traceDir.empty())
    return parser.usageError("--trace-dir needs a directory");
  if (r.command.empty()) return parser.usageError("no program to run");
  return std::nullopt;
}

} // namespace

int runVerb(int argc, char **argv) {
  RunArgs args;
  if (auto status = parseRunArgs(argc, argv, args)) return *status;
  const std::vector<long> &counts = args.counts;
  const long np = counts.empty() ? 0 : counts[0];
  const long blockBytes = long(args.blockBytes);
  std::string &traceDir = args.traceDir;
  const char *traceDirFrom = "--trace-dir";
  std::vector<std::string> &command = args.command;
  std::string err;
  if (np > 0 && (launch::kindFromName(command[0]) != launch::Kind::Unknown ||
                 launch::looksLikeMpiLauncher(command[0]))) {
    std::fprintf(stderr,
                 "collectivize run: -np %ld and a launcher (%s): give the rank count to the "
                 "launcher (collectivize run -- %s -n %ld ...) or leave the launcher out\n",
                 np, command[0].c_str(), command[0].c_str(), np);
    return 2;
  }
  std::string mpirun;
  if (np > 0) {
    mpirun = cz::bench::findMpirun(err);
    if (mpirun.empty()) {
      std::fprintf(stderr, "collectivize run: %s\n", err.c_str());
      return 1;
    }
  } else {
    std::string resolved = cz::process::findProgram(command[0]);
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
  std::string tracer = cz::process::findTracerLibrary(err);
  if (tracer.empty()) {
    std::fprintf(stderr, "collectivize run: %s\n", err.c_str());
    return 1;
  }

  auto withCount = [&](long n) {
    std::vector<std::string> c = command;
    if (n > 0) c.insert(c.begin(), {mpirun, "-n", std::to_string(n)});
    return c;
  };
  if (counts.size() <= 1) return traceOnce(withCount(np), traceDir, tracer, blockBytes);

  // Several process counts: one trace each, side by side, then how to
  // detect them together (detect's several-runs evidence).
  if (mkdir(traceDir.c_str(), 0777) != 0 && errno != EEXIST) {
    std::fprintf(stderr, "collectivize run: cannot create %s: %s\n", traceDir.c_str(),
                 std::strerror(errno));
    return 1;
  }
  int first = 0;
  std::vector<std::string> traced;
  for (size_t k = 0; k < counts.size(); k++) {
    std::string dir = traceDir + "/np" + std::to_string(counts[k]);
    std::fprintf(stderr, "collectivize run: [%zu/%zu] %ld ranks\n", k + 1, counts.size(),
                 counts[k]);
    int code = traceOnce(withCount(counts[k]), dir, tracer, blockBytes);
    if (hasAnchor(dir)) traced.push_back(dir);
    if (code && !first) first = code;
  }
  if (traced.size() >= 2) {
    std::printf("collectivize run: %zu traces of one program; detect them together (a pattern "
                "must be the same collective in each):\n  collectivize detect",
                traced.size());
    for (const std::string &d : traced) std::printf(" %s", d.c_str());
    std::printf(" [--sites SITES.json] -o report.json\n");
  } else {
    std::fprintf(stderr,
                 "collectivize run: %zu of %zu process counts left a trace: nothing to compare "
                 "runs with\n",
                 traced.size(), counts.size());
    if (!first) first = 1;
  }
  return first;
}

} // namespace cz::cli
