// launcher.cpp: see launcher.h. The option tables list what each launcher
// documents; an option they do not list is taken to have no value, which
// only matters for finding the program (best effort, for messages).
#include "collectivize/launcher.h"
#include "collectivize/process.h"

#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <set>

namespace cz::launch {
namespace {

std::string baseName(const std::string &path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

bool startsWith(const std::string &s, const char *prefix) {
  return s.compare(0, std::strlen(prefix), prefix) == 0;
}

bool contains(const std::string &s, const char *what) { return s.find(what) != std::string::npos; }

// Options taking a separate value (count: how many words follow).
struct ValueOption {
  const char *name;
  int values;
};

const ValueOption kOpenMpiValues[] = {
    {"-n", 1}, {"-np", 1}, {"--np", 1}, {"--n", 1}, {"-c", 1}, {"-N", 1},
    {"--npernode", 1}, {"-npernode", 1}, {"--npersocket", 1}, {"-x", 1},
    {"--mca", 2}, {"-mca", 2}, {"--gmca", 2}, {"-gmca", 2}, {"-H", 1},
    {"--host", 1}, {"-host", 1}, {"--hostfile", 1}, {"-hostfile", 1},
    {"--machinefile", 1}, {"-machinefile", 1}, {"--default-hostfile", 1},
    {"--map-by", 1}, {"-map-by", 1}, {"--rank-by", 1}, {"-rank-by", 1},
    {"--bind-to", 1}, {"-bind-to", 1}, {"--wdir", 1}, {"-wdir", 1},
    {"--wd", 1}, {"-wd", 1}, {"--prefix", 1}, {"--path", 1}, {"--am", 1},
    {"-am", 1}, {"--tune", 1}, {"--output-filename", 1}, {"--cpu-set", 1},
    {"--cpus-per-proc", 1}, {"--cpus-per-rank", 1}, {"--launch-agent", 1},
    {"--preload-files", 1}, {"--stdin", 1}, {"--timeout", 1}, {"--app", 1},
    {"--personality", 1}, {"--report-bindings", 0}};

const ValueOption kHydraValues[] = {
    {"-n", 1}, {"-np", 1}, {"-f", 1}, {"-hostfile", 1}, {"-machinefile", 1},
    {"-hosts", 1}, {"-host", 1}, {"-genv", 2}, {"-env", 2}, {"-genvlist", 1},
    {"-envlist", 1}, {"-wdir", 1}, {"-configfile", 1}, {"-ppn", 1},
    {"-launcher", 1}, {"-launcher-exec", 1}, {"-bind-to", 1}, {"-map-by", 1},
    {"-binding", 1}, {"-iface", 1}, {"-rmk", 1}, {"-demux", 1},
    {"-errfile-pattern", 1}, {"-outfile-pattern", 1}, {"-prepend-pattern", 1},
    {"-gpus-per-proc", 1}, {"-usize", 1}, {"-nameserver", 1}, {"-ckpointlib", 1}};

const ValueOption kSlurmValues[] = {
    {"-n", 1}, {"-N", 1}, {"-c", 1}, {"-p", 1}, {"-t", 1}, {"-A", 1}, {"-J", 1},
    {"-o", 1}, {"-e", 1}, {"-i", 1}, {"-w", 1}, {"-x", 1}, {"-m", 1}, {"-D", 1},
    {"--ntasks", 1}, {"--nodes", 1}, {"--cpus-per-task", 1}, {"--partition", 1},
    {"--time", 1}, {"--account", 1}, {"--job-name", 1}, {"--output", 1},
    {"--error", 1}, {"--input", 1}, {"--nodelist", 1}, {"--exclude", 1},
    {"--mpi", 1}, {"--export", 1}, {"--distribution", 1}, {"--cpu-bind", 1},
    {"--mem", 1}, {"--mem-per-cpu", 1}, {"--ntasks-per-node", 1}, {"--chdir", 1},
    {"--qos", 1}, {"--constraint", 1}, {"--gres", 1}, {"--gpus", 1}};

template <size_t N>
int valuesOf(const ValueOption (&table)[N], const std::string &option) {
  for (const ValueOption &o : table)
    if (option == o.name) return o.values;
  return 0;
}

int valuesOf(Kind kind, const std::string &option) {
  switch (kind) {
  case Kind::OpenMpi: return valuesOf(kOpenMpiValues, option);
  case Kind::Hydra: return valuesOf(kHydraValues, option);
  case Kind::Slurm: return valuesOf(kSlurmValues, option);
  case Kind::Unknown: return 0;
  }
  return 0;
}

bool parseRanks(const std::string &text, long &out) {
  char *end = nullptr;
  errno = 0;
  long v = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end || errno || v < 1) return false;
  out = v;
  return true;
}

bool isRankCountOption(Kind kind, const std::string &o) {
  switch (kind) {
  case Kind::OpenMpi: return o == "-n" || o == "-np" || o == "--np" || o == "--n" || o == "-c";
  case Kind::Hydra: return o == "-n" || o == "-np";
  case Kind::Slurm: return o == "-n" || o == "--ntasks";
  case Kind::Unknown: return false;
  }
  return false;
}

bool isHostOption(Kind kind, const std::string &o) {
  static const std::set<std::string> openMpi{"-H", "--host", "-host", "--hostfile", "-hostfile",
                                             "--machinefile", "-machinefile",
                                             "--default-hostfile"};
  static const std::set<std::string> hydra{"-f", "-hostfile", "-machinefile", "-hosts", "-host"};
  if (kind == Kind::OpenMpi) return openMpi.count(o) != 0;
  if (kind == Kind::Hydra) return hydra.count(o) != 0;
  return false;
}

// What `path arg` prints on stdout and stderr, "" if it cannot run.
std::string outputOf(const std::string &path, const char *arg) {
  process::Spec spec;
  spec.argv = {path, arg};
  spec.stdinPath = "/dev/null";
  spec.out = process::Output::capture();
  spec.err = process::Output::sameAsStdout();
  return process::run(spec).out;
}

} // namespace

const char *kindName(Kind kind) {
  switch (kind) {
  case Kind::OpenMpi: return "Open MPI";
  case Kind::Hydra: return "MPICH Hydra";
  case Kind::Slurm: return "Slurm srun";
  case Kind::Unknown: return "unknown launcher";
  }
  return "unknown launcher";
}

Kind kindFromName(const std::string &name) {
  std::string b = baseName(name);
  if (b == "srun") return Kind::Slurm;
  if (b == "orterun" || b == "prterun" || contains(b, ".openmpi") || contains(b, "opal_wrapper"))
    return Kind::OpenMpi;
  if (contains(b, "hydra") || contains(b, ".mpich") || contains(b, ".intel")) return Kind::Hydra;
  return Kind::Unknown;
}

Kind kindFromVersionText(const std::string &text) {
  if (contains(text, "Open MPI") || contains(text, "OpenRTE") || contains(text, "open-mpi"))
    return Kind::OpenMpi;
  if (contains(text, "HYDRA") || contains(text, "Hydra") || contains(text, "Intel(R) MPI") ||
      contains(text, "MPICH"))
    return Kind::Hydra;
  if (startsWith(text, "slurm")) return Kind::Slurm;
  return Kind::Unknown;
}

bool looksLikeMpiLauncher(const std::string &name) {
  std::string b = baseName(name);
  return startsWith(b, "mpirun") || startsWith(b, "mpiexec") || startsWith(b, "orterun");
}

Kind kindOf(const std::string &path) {
  Kind k = kindFromName(path);
  if (k != Kind::Unknown) return k;
  char real[PATH_MAX];
  if (::realpath(path.c_str(), real)) {
    k = kindFromName(real);
    if (k != Kind::Unknown) return k;
  }
  if (!looksLikeMpiLauncher(path)) return Kind::Unknown;
  return kindFromVersionText(outputOf(path, "--version"));
}

Shape shapeOf(const std::vector<std::string> &argv, Kind kind) {
  Shape s;
  for (size_t i = 1; i < argv.size(); i++) {
    const std::string &a = argv[i];
    if (a.empty() || a[0] != '-') {
      s.program = i;
      break;
    }
    if (kind == Kind::Unknown) continue;
    // --name=value spellings.
    std::string name = a, value;
    bool joined = false;
    size_t eq = a.find('=');
    if (startsWith(a, "--") && eq != std::string::npos) {
      name = a.substr(0, eq), value = a.substr(eq + 1), joined = true;
    } else if (kind == Kind::Slurm && startsWith(a, "-n") && a.size() > 2 && a[1] != '-') {
      name = "-n", value = a.substr(2), joined = true; // srun -n4
    }
    int takes = joined ? 0 : valuesOf(kind, name);
    if (!joined && takes > 0 && i + 1 < argv.size()) value = argv[i + 1];
    if (isRankCountOption(kind, name)) parseRanks(value, s.ranks);
    if (isHostOption(kind, name)) s.otherHosts = true;
    if (kind == Kind::OpenMpi) {
      if (name == "--oversubscribe" || name == "-oversubscribe" ||
          ((name == "--map-by" || name == "-map-by") && contains(value, "OVERSUBSCRIBE")))
        s.oversubscribe = true;
      if ((name == "--mca" || name == "-mca") && value == "mpi_yield_when_idle") s.yield = true;
      if (name == "--allow-run-as-root" || name == "-allow-run-as-root") s.allowRoot = true;
    }
    i += size_t(takes);
  }
  if (kind == Kind::Slurm) s.otherHosts = true; // Slurm places the ranks
  return s;
}

std::vector<std::string> withOptions(const std::vector<std::string> &argv,
                                     const std::vector<std::string> &options) {
  if (argv.empty()) return argv;
  std::vector<std::string> out{argv[0]};
  out.insert(out.end(), options.begin(), options.end());
  out.insert(out.end(), argv.begin() + 1, argv.end());
  return out;
}

std::vector<std::string> withVariables(const std::vector<std::string> &argv, Kind kind,
                                       const Vars &vars) {
  if (argv.empty() || vars.empty()) return argv;
  std::vector<std::string> options;
  switch (kind) {
  case Kind::OpenMpi:
    for (const auto &[name, value] : vars)
      options.insert(options.end(), {"-x", name + "=" + value});
    return withOptions(argv, options);
  case Kind::Hydra:
    for (const auto &[name, value] : vars) options.insert(options.end(), {"-genv", name, value});
    return withOptions(argv, options);
  case Kind::Slurm: {
    std::string list;
    for (const auto &[name, value] : vars) list += "," + name + "=" + value;
    std::vector<std::string> out = argv;
    // Merged into the user's --export (before the program), else ALL plus ours.
    Shape shape = shapeOf(argv, kind);
    size_t end = std::min(shape.program, out.size());
    for (size_t i = 1; i < end; i++) {
      std::string *value = nullptr;
      if (startsWith(out[i], "--export=")) {
        value = &out[i];
      } else if (out[i] == "--export" && i + 1 < end) {
        value = &out[++i];
      }
      if (!value) continue;
      size_t at = startsWith(*value, "--export=") ? 9 : 0;
      std::string given = value->substr(at);
      // NONE / NIL: nothing of the environment, only the listed variables.
      if (given == "NONE" || given == "NIL") given.clear();
      *value = value->substr(0, at) + (given.empty() ? list.substr(1) : given + list);
      return out;
    }
    return withOptions(argv, {"--export=ALL" + list});
  }
  case Kind::Unknown: return argv;
  }
  return argv;
}

int coresOnThisMachine() {
  cpu_set_t set;
  CPU_ZERO(&set);
  int cpus = 0;
  bool haveSet = sched_getaffinity(0, sizeof set, &set) == 0;
  std::set<std::pair<std::string, std::string>> cores;
  for (int c = 0; c < CPU_SETSIZE; c++) {
    if (haveSet && !CPU_ISSET(c, &set)) continue;
    std::string dir = "/sys/devices/system/cpu/cpu" + std::to_string(c) + "/topology/";
    std::ifstream package(dir + "physical_package_id"), core(dir + "core_id");
    std::string p, k;
    if (!(package >> p) || !(core >> k)) {
      if (haveSet) cpus++;
      continue;
    }
    cores.insert({p, k});
  }
  int n = int(cores.size()) + (cores.empty() ? cpus : 0);
  if (n < 1) n = int(sysconf(_SC_NPROCESSORS_ONLN));
  return n < 1 ? 1 : n;
}

Machine thisMachine() {
  Machine m;
  m.cores = coresOnThisMachine();
  m.root = geteuid() == 0;
  m.getenv = [](const char *name) -> const char * { return std::getenv(name); };
  return m;
}

Additions neededOptions(Kind kind, const Shape &shape, const Machine &machine) {
  Additions out;
  auto set = [&](const char *name) {
    const char *v = machine.getenv ? machine.getenv(name) : nullptr;
    return v && *v && std::strcmp(v, "0") != 0;
  };
  // A batch allocation decides where ranks go, not this machine's cores.
  const bool allocated = set("SLURM_JOB_ID") || set("PBS_JOBID") || set("LSB_JOBID");
  const bool crowded = !shape.otherHosts && !allocated && shape.ranks > machine.cores;
  const std::string ranks = std::to_string(shape.ranks), cores = std::to_string(machine.cores);
  if (kind == Kind::OpenMpi) {
    if (machine.root && !shape.allowRoot &&
        !(set("OMPI_ALLOW_RUN_AS_ROOT") && set("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"))) {
      out.options.push_back("--allow-run-as-root");
      out.reasons.push_back("running as root: adding --allow-run-as-root");
    }
    std::vector<std::string> crowding;
    if (crowded && !shape.oversubscribe && !set("OMPI_MCA_rmaps_base_oversubscribe"))
      crowding.push_back("--oversubscribe");
    if (crowded && !shape.yield && !set("OMPI_MCA_mpi_yield_when_idle"))
      crowding.insert(crowding.end(), {"--mca", "mpi_yield_when_idle", "1"});
    if (!crowding.empty()) {
      std::string words;
      for (const std::string &w : crowding) words += " " + w;
      out.options.insert(out.options.end(), crowding.begin(), crowding.end());
      out.reasons.push_back(ranks + " ranks on " + cores + " cores of this machine: adding" +
                            words + " (ranks waiting for a message give their core to the others)");
    }
  } else if (kind == Kind::Hydra && crowded) {
    // MPICH runs oversubscribed as it is, but its ranks (ch4) poll for
    // messages without ever yielding: say what that costs.
    out.reasons.push_back(ranks + " ranks on " + cores +
                          " cores of this machine: MPICH's waiting ranks keep polling (they do "
                          "not yield), so each message may wait for a time slice: expect it to "
                          "run slowly");
  }
  return out;
}

} // namespace cz::launch
