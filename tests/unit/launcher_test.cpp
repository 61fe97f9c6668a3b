// launcher_test.cpp: the launch commands `collectivize run` and `bench`
// build (support/launch): which launcher a command is, what it starts, how
// variables reach the ranks, and the options added only when this machine
// needs them; and why a program file cannot be traced.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <map>

#include "collectivize/launcher.h"
#include "collectivize/program_check.h"

namespace cz::launch {
namespace {

using Args = std::vector<std::string>;

Machine machine(int cores, bool root, std::map<std::string, std::string> env = {}) {
  Machine m;
  m.cores = cores;
  m.root = root;
  auto shared = std::make_shared<std::map<std::string, std::string>>(std::move(env));
  m.getenv = [shared](const char *name) -> const char * {
    auto it = shared->find(name);
    return it == shared->end() ? nullptr : it->second.c_str();
  };
  return m;
}

TEST(Launcher, KindFromNameAndVersion) {
  EXPECT_EQ(kindFromName("/usr/bin/orterun"), Kind::OpenMpi);
  EXPECT_EQ(kindFromName("/usr/bin/mpirun.openmpi"), Kind::OpenMpi);
  EXPECT_EQ(kindFromName("/usr/bin/mpiexec.hydra"), Kind::Hydra);
  EXPECT_EQ(kindFromName("mpiexec.mpich"), Kind::Hydra);
  EXPECT_EQ(kindFromName("/opt/slurm/bin/srun"), Kind::Slurm);
  EXPECT_EQ(kindFromName("/usr/bin/mpirun"), Kind::Unknown); // either MPI installs it
  EXPECT_EQ(kindFromVersionText("mpirun (Open MPI) 4.1.4\n"), Kind::OpenMpi);
  EXPECT_EQ(kindFromVersionText("HYDRA build details:\n    Version: 4.0.2\n"), Kind::Hydra);
  EXPECT_EQ(kindFromVersionText("Intel(R) MPI Library for Linux* OS, Version 2021.9\n"),
            Kind::Hydra);
  EXPECT_EQ(kindFromVersionText("slurm 23.02.6\n"), Kind::Slurm);
  EXPECT_EQ(kindFromVersionText("usage: frob\n"), Kind::Unknown);
  EXPECT_TRUE(looksLikeMpiLauncher("/usr/bin/mpiexec"));
  EXPECT_FALSE(looksLikeMpiLauncher("./app"));
}

TEST(Launcher, ShapeOfOpenMpiCommand) {
  Shape s = shapeOf({"mpirun", "-np", "4", "--bind-to", "none", "-x", "A=1", "./app", "-n", "9"},
                    Kind::OpenMpi);
  EXPECT_EQ(s.ranks, 4);
  EXPECT_EQ(s.program, 7u); // -n 9 after the program is the program's
  EXPECT_FALSE(s.otherHosts);
  s = shapeOf({"mpirun", "--mca", "mpi_yield_when_idle", "1", "--oversubscribe", "-H", "a,b",
               "--allow-run-as-root", "prog"},
              Kind::OpenMpi);
  EXPECT_EQ(s.ranks, -1);
  EXPECT_TRUE(s.yield && s.oversubscribe && s.otherHosts && s.allowRoot);
  EXPECT_EQ(s.program, 8u);
  EXPECT_TRUE(shapeOf({"mpirun", "--map-by", "core:OVERSUBSCRIBE", "p"}, Kind::OpenMpi).oversubscribe);
  EXPECT_EQ(shapeOf({"mpirun", "--np=6", "p"}, Kind::OpenMpi).ranks, 6);
}

TEST(Launcher, ShapeOfHydraAndSrunCommands) {
  Shape s = shapeOf({"mpiexec", "-genv", "X", "1", "-n", "3", "-f", "hosts", "a.out"}, Kind::Hydra);
  EXPECT_EQ(s.ranks, 3);
  EXPECT_TRUE(s.otherHosts);
  EXPECT_EQ(s.program, 8u);
  s = shapeOf({"srun", "-n8", "--mpi=pmi2", "-N", "2", "./app"}, Kind::Slurm);
  EXPECT_EQ(s.ranks, 8);
  EXPECT_EQ(s.program, 5u);
  EXPECT_TRUE(s.otherHosts); // Slurm places the ranks
  EXPECT_EQ(shapeOf({"srun", "--ntasks", "5", "x"}, Kind::Slurm).ranks, 5);
  EXPECT_EQ(shapeOf({"srun", "--ntasks=7", "x"}, Kind::Slurm).ranks, 7);
}

TEST(Launcher, VariablesInEachLaunchersWords) {
  Vars v{{"LD_PRELOAD", "/p/lib.so"}, {"COLLECTIVIZE_TRACE_DIR", "/t"}};
  EXPECT_EQ(withVariables({"mpirun", "-n", "2", "a"}, Kind::OpenMpi, v),
            (Args{"mpirun", "-x", "LD_PRELOAD=/p/lib.so", "-x", "COLLECTIVIZE_TRACE_DIR=/t", "-n",
                  "2", "a"}));
  EXPECT_EQ(withVariables({"mpiexec", "-n", "2", "a"}, Kind::Hydra, v),
            (Args{"mpiexec", "-genv", "LD_PRELOAD", "/p/lib.so", "-genv",
                  "COLLECTIVIZE_TRACE_DIR", "/t", "-n", "2", "a"}));
  EXPECT_EQ(withVariables({"srun", "-n", "2", "a"}, Kind::Slurm, v),
            (Args{"srun", "--export=ALL,LD_PRELOAD=/p/lib.so,COLLECTIVIZE_TRACE_DIR=/t", "-n", "2",
                  "a"}));
  // The user's --export keeps its list; NONE means ours only.
  EXPECT_EQ(withVariables({"srun", "--export=HOME,PATH", "a", "--export=no"}, Kind::Slurm, v),
            (Args{"srun", "--export=HOME,PATH,LD_PRELOAD=/p/lib.so,COLLECTIVIZE_TRACE_DIR=/t", "a",
                  "--export=no"}));
  EXPECT_EQ(withVariables({"srun", "--export", "NONE", "a"}, Kind::Slurm, v),
            (Args{"srun", "--export", "LD_PRELOAD=/p/lib.so,COLLECTIVIZE_TRACE_DIR=/t", "a"}));
  EXPECT_EQ(withVariables({"./launch", "a"}, Kind::Unknown, v), (Args{"./launch", "a"}));
}

TEST(Launcher, OptionsOnlyWhenThisMachineNeedsThem) {
  Shape crowded = shapeOf({"mpirun", "-n", "8", "a"}, Kind::OpenMpi);
  Additions a = neededOptions(Kind::OpenMpi, crowded, machine(2, true));
  EXPECT_EQ(a.options, (Args{"--allow-run-as-root", "--oversubscribe", "--mca",
                             "mpi_yield_when_idle", "1"}));
  ASSERT_EQ(a.reasons.size(), 2u);
  EXPECT_NE(a.reasons[1].find("8 ranks on 2 cores"), std::string::npos);
  // One rank per core, not root: nothing.
  Shape fits = shapeOf({"mpirun", "-n", "2", "a"}, Kind::OpenMpi);
  EXPECT_TRUE(neededOptions(Kind::OpenMpi, fits, machine(2, false)).options.empty());
  // No count: Open MPI starts one rank per slot.
  EXPECT_TRUE(neededOptions(Kind::OpenMpi, shapeOf({"mpirun", "a"}, Kind::OpenMpi), machine(2, false))
                  .options.empty());
  // Other hosts, a batch allocation, or the user's own settings: nothing.
  EXPECT_TRUE(neededOptions(Kind::OpenMpi, shapeOf({"mpirun", "-n", "64", "-H", "x", "a"}, Kind::OpenMpi),
                            machine(2, false)).options.empty());
  EXPECT_TRUE(neededOptions(Kind::OpenMpi, crowded, machine(2, false, {{"SLURM_JOB_ID", "7"}}))
                  .options.empty());
  EXPECT_TRUE(neededOptions(Kind::OpenMpi, crowded,
                            machine(2, true, {{"OMPI_ALLOW_RUN_AS_ROOT", "1"},
                                              {"OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1"},
                                              {"OMPI_MCA_rmaps_base_oversubscribe", "1"},
                                              {"OMPI_MCA_mpi_yield_when_idle", "1"}}))
                  .options.empty());
  // Hydra: root and oversubscription are fine; a note that ranks poll.
  Additions h = neededOptions(Kind::Hydra, shapeOf({"mpiexec", "-n", "8", "a"}, Kind::Hydra),
                              machine(2, true));
  EXPECT_TRUE(h.options.empty() && h.vars.empty());
  ASSERT_EQ(h.reasons.size(), 1u);
  EXPECT_NE(h.reasons[0].find("do not yield"), std::string::npos);
  // srun: Slurm's business.
  EXPECT_TRUE(neededOptions(Kind::Slurm, shapeOf({"srun", "-n", "64", "a"}, Kind::Slurm),
                            machine(2, true)).reasons.empty());
}

TEST(ProgramCheck, ReadsWhatAnElfFileNeeds) {
  // The test binary itself: dynamic, needs the C++ runtime, no MPI.
  ProgramFile self = inspectProgram("/proc/self/exe");
  EXPECT_TRUE(self.readable && self.elf && self.dynamic);
  bool libc = false;
  for (const std::string &n : self.needed) libc |= n.rfind("libc.so", 0) == 0;
  EXPECT_TRUE(libc);
  EXPECT_EQ(mpiLibraryOf(self.needed), "");
  EXPECT_NE(whyNotTraced("t", self, "libmpi.so.40").find("does not link an MPI library"),
            std::string::npos);
  EXPECT_FALSE(inspectProgram("/nonexistent").readable);
}

TEST(ProgramCheck, NamesWhyEachKindOfProgramIsNotTraced) {
  ProgramFile f;
  f.readable = f.elf = f.dynamic = true;
  f.needed = {"libmpi_mpifh.so.40", "libmpi.so.40", "libgfortran.so.5"};
  // A Fortran program is traced through the tracer's Fortran entry points.
  EXPECT_EQ(whyNotTraced("fprog", f, "libmpi.so.40"), "");
  // So is one on MPICH, mpi_f08 included (the tracer defines the mpi_f08
  // procedures that call PMPI_* themselves): nothing to say.
  f.needed = {"libmpichfort.so.12", "libmpich.so.12", "libgfortran.so.5"};
  EXPECT_EQ(whyNotTraced("fprog", f, "libmpich.so.12"), "");
  f.needed = {"libmpich.so.12", "libc.so.6"};
  EXPECT_EQ(mpiLibraryOf(f.needed), "libmpich.so.12");
  std::string other = whyNotTraced("p", f, "libmpi.so.40");
  EXPECT_NE(other.find("links libmpich.so.12 but the tracer was built against libmpi.so.40"),
            std::string::npos);
  EXPECT_EQ(whyNotTraced("p", f, "libmpich.so.12"), ""); // nothing to say
  f.dynamic = false;
  EXPECT_NE(whyNotTraced("p", f, "libmpich.so.12").find("statically linked"), std::string::npos);
}

} // namespace
} // namespace cz::launch
