// launcher.h: the commands MPI programs are started with (Open MPI's
// mpirun, MPICH's Hydra mpiexec, Slurm's srun, or one Collectivize does not
// know): which kind a command is, what it starts, and how to hand
// variables to every rank through what that launcher propagates.
// `collectivize run` and `collectivize bench` build their commands here;
// everything but kindOf and the machine queries is pure (unit-tested).
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace cz::launch {

enum class Kind {
  OpenMpi, // mpirun / mpiexec / orterun of Open MPI: -x NAME=VALUE
  Hydra,   // mpiexec of MPICH, Intel MPI, MVAPICH: -genv NAME VALUE
  Slurm,   // srun: --export=ALL,NAME=VALUE
  Unknown, // anything else: variables only through the environment
};
// "Open MPI", "MPICH Hydra", "Slurm srun", "unknown launcher".
const char *kindName(Kind kind);

// From a launcher's file name (after symlinks): orterun, mpirun.openmpi,
// mpiexec.hydra, mpiexec.mpich, srun, ... Unknown when the name does not
// say (plain mpirun / mpiexec are installed by both MPIs).
Kind kindFromName(const std::string &name);
// From what `LAUNCHER --version` printed.
Kind kindFromVersionText(const std::string &text);
// True for names worth asking `--version`: mpirun*, mpiexec*, orterun*.
bool looksLikeMpiLauncher(const std::string &name);
// The kind of the launcher at `path` (a resolved executable): its name, the
// file it links to, else (launcher-like names only) its --version output.
Kind kindOf(const std::string &path);

// What a launch command starts, as far as its options say.
struct Shape {
  long ranks = -1;             // -n / -np / --ntasks; -1 when not given
  bool otherHosts = false;     // hosts, a host file or a batch allocation
  bool oversubscribe = false;  // the command asks for oversubscription already
  bool yield = false;          // ... for yielding when idle (Open MPI)
  bool allowRoot = false;      // ... allows running as root
  size_t program = std::string::npos; // index of the program in argv, if found
};
Shape shapeOf(const std::vector<std::string> &argv, Kind kind);

using Vars = std::vector<std::pair<std::string, std::string>>;

// argv with vars handed to every rank, right after the launcher's name:
// Open MPI `-x NAME=VALUE`, Hydra `-genv NAME VALUE`, srun
// `--export=ALL,NAME=VALUE` (merged into an --export the user gave).
// Unknown: argv unchanged (the caller puts vars in the environment).
std::vector<std::string> withVariables(const std::vector<std::string> &argv, Kind kind,
                                       const Vars &vars);

// This machine, as the options below need it.
struct Machine {
  int cores = 1;     // cores the launcher may place ranks on (not hyperthreads)
  bool root = false; // running as root
  std::function<const char *(const char *)> getenv; // the launch's environment
};
Machine thisMachine();
// Cores of this machine as Open MPI counts slots: distinct (package, core)
// pairs of the CPUs this process may run on; the CPU count if unknown.
int coresOnThisMachine();

// Options a local launch needs and does not have, each with why: Open MPI
// as root `--allow-run-as-root`; more ranks than cores on this machine
// (only when the command names no other hosts) `--oversubscribe` and
// yielding when idle (`--mca mpi_yield_when_idle 1`). MPICH's Hydra needs
// neither, but its ranks do not yield: a note says so. Nothing for srun:
// Slurm places the ranks.
struct Additions {
  std::vector<std::string> options; // inserted after the launcher's name
  Vars vars;                        // handed to every rank like the tracer's
  std::vector<std::string> reasons; // one line each, for the user
};
Additions neededOptions(Kind kind, const Shape &shape, const Machine &machine);

// argv with options inserted right after the launcher's name.
std::vector<std::string> withOptions(const std::vector<std::string> &argv,
                                     const std::vector<std::string> &options);

} // namespace cz::launch
