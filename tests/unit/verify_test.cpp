// The verifier's pure parts: JSON reading, output comparison, timing
// statistics, command and path mapping, build plans, scratch copies, the
// patch index and the retrace's inputs (the verdicts and the result file:
// verify_verdicts_test.cpp). The flow itself (builds, mpirun,
// traces) is tested end to end by tests/lit/verify.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "build_plan.h"
#include "command_map.h"
#include "compare.h"
#include "collectivize/json.h"
#include "patch_index.h"
#include "retrace.h"
#include "scratch.h"
#include "timing.h"

namespace fs = std::filesystem;
using namespace cz::verify;
using namespace cz::json;

namespace {

// The compilers collectivize-cc/c++/fc stand for in a copy: pinned here as
// the wrappers' own variables pin them (unset, the MPI Collectivize was
// built with; PlainCompilersDefaultToTheBuildsMpi checks that).
const bool kPinnedCompilers = setenv("COLLECTIVIZE_CC", "mpicc", 1) == 0 &&
                              setenv("COLLECTIVIZE_CXX", "mpicxx", 1) == 0 &&
                              setenv("COLLECTIVIZE_FC", "mpif90", 1) == 0;

// A fresh directory per test, removed afterwards.
struct TempDir {
  std::string path;
  TempDir() {
    std::string t = (fs::temp_directory_path() / "cz-verify-test-XXXXXX").string();
    path = mkdtemp(t.data());
  }
  ~TempDir() { fs::remove_all(path); }
  void write(const std::string &rel, const std::string &text) const {
    fs::create_directories(fs::path(path + "/" + rel).parent_path());
    std::ofstream(path + "/" + rel, std::ios::binary) << text;
  }
};

} // namespace

TEST(VerifyJson, ParsesNestedValuesAndKeepsNumberText) {
  Json j;
  std::string err;
  ASSERT_TRUE(parseJson(R"({"a": [1, 2.5, -3e2], "id": 18446744073709551615,
                            "s": "q\"\\\n\u00e9", "t": true, "n": null, "o": {}})", j, err))
      << err;
  EXPECT_EQ(j.find("a")->items().size(), 3u);
  EXPECT_DOUBLE_EQ(j.find("a")->items()[2].num(), -300);
  EXPECT_EQ(j.find("id")->text(), "18446744073709551615");
  EXPECT_EQ(j.str("s"), "q\"\\\n\xc3\xa9");
  EXPECT_TRUE(j.find("t")->flag());
  EXPECT_TRUE(j.find("n")->isNull());
  EXPECT_EQ(j.find("missing"), nullptr);
  EXPECT_EQ(j.str("missing", "dflt"), "dflt");
}

TEST(VerifyJson, ErrorsSayWhere) {
  Json j;
  std::string err;
  EXPECT_FALSE(parseJson("{\"a\": 1,\n \"b\" 2}", j, err));
  EXPECT_NE(err.find("line 2"), std::string::npos) << err;
  EXPECT_FALSE(parseJson("[1, 2", j, err));
  EXPECT_FALSE(parseJson("{} x", j, err));
  EXPECT_FALSE(parseJson(std::string(300, '['), j, err));
  EXPECT_NE(err.find("deep"), std::string::npos);
  EXPECT_EQ(jsonQuote("a\"b\n\x01"), "\"a\\\"b\\n\\u0001\"");
  EXPECT_EQ(jsonNumber(1.0 / 0.0), "null");
}

TEST(VerifyCompare, RankOrderDoesNotMatterUnlessAsked) {
  OutputFilter f;
  auto a = normalizeOutput("rank 1\nrank 0\r\n", f);
  auto b = normalizeOutput("rank 0\nrank 1\n", f);
  EXPECT_EQ(a, b);
  f.ordered = true;
  a = normalizeOutput("rank 1\nrank 0\n", f);
  b = normalizeOutput("rank 0\nrank 1\n", f);
  EXPECT_NE(a, b);
  EXPECT_NE(describeDifference(a, b, true).find("another order"), std::string::npos);
}

TEST(VerifyCompare, IgnoredLinesAreDroppedAndCounted) {
  OutputFilter f;
  std::string err;
  ASSERT_TRUE(compileIgnorePatterns({"^time: ", "took [0-9.]+ s"}, f, err));
  int ignored = 0;
  auto a = normalizeOutput("result 42\ntime: 0.31\nphase 1 took 0.2 s\n", f, &ignored);
  EXPECT_EQ(ignored, 2);
  EXPECT_EQ(a, std::vector<std::string>{"result 42"});
  std::vector<std::string> dropped;
  normalizeOutput("time: 9\nkeep\n", f, nullptr, &dropped);
  EXPECT_EQ(dropped, std::vector<std::string>{"time: 9"});
  EXPECT_FALSE(compileIgnorePatterns({"(unclosed"}, f, err));
  EXPECT_NE(err.find("(unclosed"), std::string::npos);
}

TEST(VerifyCompare, DifferenceListsLinesOfEachSide) {
  OutputFilter f;
  auto a = normalizeOutput("same\nold value 1\n", f);
  auto b = normalizeOutput("same\nnew value 2\n", f);
  std::string d = describeDifference(a, b, false);
  EXPECT_NE(d.find("- old value 1"), std::string::npos) << d;
  EXPECT_NE(d.find("+ new value 2"), std::string::npos) << d;
  EXPECT_EQ(d.find("same"), std::string::npos) << d;
  EXPECT_EQ(describeDifference(a, a, false), "");
  std::vector<std::string> many, none;
  for (int i = 0; i < 20; i++) many.push_back("line " + std::to_string(i));
  EXPECT_NE(describeDifference(many, none, false, 3).find("17 more differing lines"),
            std::string::npos);
  // A line printed once more than in the original is a difference.
  EXPECT_NE(describeDifference({"x"}, {"x", "x"}, false), "");
}

TEST(VerifyTiming, MedianMinMaxAndSpeedup) {
  TimingSummary odd = summarizeTimes({3, 1, 2});
  EXPECT_DOUBLE_EQ(odd.median, 2);
  EXPECT_DOUBLE_EQ(odd.min, 1);
  EXPECT_DOUBLE_EQ(odd.max, 3);
  EXPECT_EQ(odd.seconds, (std::vector<double>{3, 1, 2}));
  TimingSummary even = summarizeTimes({4, 1, 2, 10});
  EXPECT_DOUBLE_EQ(even.median, 3);
  EXPECT_DOUBLE_EQ(speedup(even, odd), 1.5);
  EXPECT_DOUBLE_EQ(speedup(summarizeTimes({}), odd), 0);
}

TEST(VerifyCommandMap, ProgramAndPathArgumentsMoveIntoTheCopy) {
  TempDir d;
  d.write("proj/app", "");
  d.write("proj/in.dat", "");
  std::string proj = d.path + "/proj";
  std::vector<PathMap> maps{{proj, "/w/original"}, {proj + "/../build", "/w/original-build"}};
  maps[1].from = absolutePath(maps[1].from, "/");
  std::vector<std::string> notes;
  auto cmd = mapCommand({"mpirun", "-np", "4", "./app", "in.dat", "--out=" + proj + "/o.txt",
                         "-n", "8", d.path + "/build/prog", "/usr/bin/env"},
                        maps, proj, &notes);
  EXPECT_EQ(cmd[0], "mpirun");
  EXPECT_EQ(cmd[2], "4"); // not a path: no slash, no such file
  EXPECT_EQ(cmd[3], "/w/original/app");
  EXPECT_EQ(cmd[4], "/w/original/in.dat");
  EXPECT_EQ(cmd[5], "--out=/w/original/o.txt");
  EXPECT_EQ(cmd[7], "8");
  EXPECT_EQ(cmd[8], "/w/original-build/prog");
  EXPECT_EQ(cmd[9], "/usr/bin/env");
  EXPECT_EQ(notes.size(), 4u);
}

TEST(VerifyCommandMap, LongestPrefixWinsAndPrefixesAreWholeNames) {
  std::vector<PathMap> maps{{"/p", "/c"}, {"/p/build", "/b"}};
  EXPECT_EQ(mapPath("/p/build/app", maps), "/b/app");
  EXPECT_EQ(mapPath("/p/src/a.c", maps), "/c/src/a.c");
  EXPECT_EQ(mapPath("/p", maps), "/c");
  EXPECT_EQ(mapPath("/proj/a.c", maps), ""); // /p is not a prefix of /proj
  EXPECT_EQ(absolutePath("../x/./y/", "/a/b"), "/a/x/y");
}

// A run command written as a script keeps its launcher and words as
// written; only absolute paths into the project move into the copy.
TEST(VerifyCommandMap, ScriptArgumentsKeepTheirWords) {
  TempDir d;
  std::string proj = d.path + "/proj";
  d.write("proj/app", "");
  std::vector<PathMap> maps{{proj, "/w/original"}, {proj + "/build", "/w/b"}};
  auto cmd = mapCommand({"sh", "-c", "mpirun -np 4 ./app " + proj + "/in.dat > " + proj + "x/o"}, maps, proj);
  ASSERT_EQ(cmd.size(), 3u);
  EXPECT_EQ(cmd[0], "sh");
  EXPECT_EQ(cmd[2], "mpirun -np 4 ./app /w/original/in.dat > " + proj + "x/o");
  EXPECT_EQ(mapScript("cd '" + proj + "/build' && ./app", maps), "cd '/w/b' && ./app");
  EXPECT_EQ(mapScript("A=" + proj + ":" + proj + "/lib run", maps), "A=/w/original:/w/original/lib run");
  EXPECT_EQ(mapScript("echo x" + proj + "/y", maps), "echo x" + proj + "/y"); // not at a word start
}

TEST(VerifyScratch, CopiesSourcesNotBuildProducts) {
  TempDir d;
  d.write("p/src/a.c", "int main(){}\n");
  d.write("p/run.sh", "#!/bin/sh\n");
  chmod((d.path + "/p/run.sh").c_str(), 0755);
  d.write("p/a.o", std::string("\x7f" "ELF\x02\x01\x01", 7) + std::string(64, '\0'));
  d.write("p/libx.a", "!<arch>\nmore");
  d.write("p/.git/HEAD", "ref");
  d.write("p/build/CMakeCache.txt", "x");
  d.write("p/out/CMakeCache.txt", "an undeclared build dir");
  d.write("p/collectivize-trace-1/traces.otf2", "t");
  CopyStats st;
  std::string err;
  ASSERT_TRUE(copyProject(d.path + "/p", d.path + "/c", {d.path + "/p/build"}, st, err)) << err;
  EXPECT_TRUE(fs::exists(d.path + "/c/src/a.c"));
  EXPECT_FALSE(fs::exists(d.path + "/c/a.o"));
  EXPECT_FALSE(fs::exists(d.path + "/c/libx.a"));
  EXPECT_FALSE(fs::exists(d.path + "/c/.git"));
  EXPECT_FALSE(fs::exists(d.path + "/c/build"));
  EXPECT_FALSE(fs::exists(d.path + "/c/out"));
  EXPECT_FALSE(fs::exists(d.path + "/c/collectivize-trace-1"));
  EXPECT_EQ(st.buildProducts, 2u);
  EXPECT_EQ(st.files, 2u);
  struct stat sb;
  ASSERT_EQ(stat((d.path + "/c/run.sh").c_str(), &sb), 0);
  EXPECT_TRUE(sb.st_mode & S_IXUSR);
  EXPECT_FALSE(copyProject(d.path + "/p", d.path + "/c", {}, st, err)); // exists
  EXPECT_NE(err.find("already exists"), std::string::npos);
}

TEST(VerifyScratch, FilesOfADiff) {
  auto files = filesInDiff("--- a/src/x.c\t2026\n+++ b/src/x.c\t2026\n@@ -1 +1 @@\n-a\n+b\n"
                           "--- a/y.h\n+++ b/y.h\n");
  EXPECT_EQ(files, (std::vector<std::string>{"src/x.c", "y.h"}));
}

TEST(VerifyBuildPlan, UserCommandThenMakeThenCMakeThenCompileDatabase) {
  TempDir d;
  BuildInputs in;
  in.projectRoot = d.path + "/p";
  in.copyRoot = d.path + "/c";
  in.copyBuildDir = d.path + "/c-build";
  BuildPlan plan;
  std::string err;
  EXPECT_FALSE(planBuild(in, plan, err));
  EXPECT_NE(err.find("--build"), std::string::npos) << err;

  in.userCommand = "./build.sh fast";
  ASSERT_TRUE(planBuild(in, plan, err));
  EXPECT_EQ(plan.script, "./build.sh fast");
  in.userCommand.clear();

  d.write("c/CMakeLists.txt", "project(x C)\n");
  d.write("b/CMakeCache.txt", "CMAKE_C_COMPILER:FILEPATH=/opt/bin/collectivize-cc\n"
                              "CMAKE_BUILD_TYPE:STRING=Release\nCMAKE_GENERATOR:INTERNAL=Ninja\n");
  in.buildDir = d.path + "/b";
  ASSERT_TRUE(planBuild(in, plan, err));
  EXPECT_NE(plan.script.find("cmake -G Ninja -S . -B " + in.copyBuildDir), std::string::npos)
      << plan.script;
  EXPECT_NE(plan.script.find("-DCMAKE_C_COMPILER=mpicc"), std::string::npos) << plan.script;
  EXPECT_NE(plan.script.find("-DCMAKE_BUILD_TYPE=Release"), std::string::npos);

  d.write("c/Makefile", "all:\n");
  ASSERT_TRUE(planBuild(in, plan, err));
  EXPECT_EQ(plan.script, "make");

  // -C src: the build's directory is where the Makefile is looked for.
  in.buildRoot = d.path + "/c/src";
  EXPECT_FALSE(planBuild(in, plan, err)); // the root's Makefile and CMakeLists.txt do not count
  EXPECT_NE(err.find("no Makefile or CMakeLists.txt in src"), std::string::npos) << err;
  d.write("c/src/Makefile", "all:\n");
  ASSERT_TRUE(planBuild(in, plan, err));
  EXPECT_EQ(plan.script, "make");
  EXPECT_NE(plan.how.find("a Makefile in src"), std::string::npos) << plan.how;
}

TEST(VerifyBuildPlan, PlainCompilersRunTheMpiWrappers) {
  TempDir d;
  std::string err;
  ASSERT_TRUE(writePlainCompilers(d.path + "/shims", err)) << err;
  std::ifstream cc(d.path + "/shims/collectivize-cc"), cxx(d.path + "/shims/collectivize-c++"),
      fc(d.path + "/shims/collectivize-fc");
  std::string a((std::istreambuf_iterator<char>(cc)), {}), b((std::istreambuf_iterator<char>(cxx)), {}),
      f((std::istreambuf_iterator<char>(fc)), {});
  EXPECT_NE(a.find("exec 'mpicc' \"$@\""), std::string::npos) << a;
  EXPECT_NE(b.find("exec 'mpicxx' \"$@\""), std::string::npos) << b;
  // A Fortran project's Makefile naming collectivize-fc builds too.
  EXPECT_NE(f.find("exec 'mpif90' \"$@\""), std::string::npos) << f;
  EXPECT_EQ(access((d.path + "/shims/collectivize-cc").c_str(), X_OK), 0);
  EXPECT_EQ(access((d.path + "/shims/collectivize-fc").c_str(), X_OK), 0);
}

// Unpinned, a copy is built with the MPI compiler Collectivize was built
// with (mpicc.mpich on an MPICH build: Open MPI's mpicc there gave programs
// the tracer could not be preloaded into).
TEST(VerifyBuildPlan, PlainCompilersDefaultToTheBuildsMpi) {
  ASSERT_TRUE(kPinnedCompilers);
  unsetenv("COLLECTIVIZE_CC");
  unsetenv("COLLECTIVIZE_CXX");
  TempDir d;
  std::string err;
  bool written = writePlainCompilers(d.path + "/shims", err);
  setenv("COLLECTIVIZE_CC", "mpicc", 1);
  setenv("COLLECTIVIZE_CXX", "mpicxx", 1);
  ASSERT_TRUE(written) << err;
  std::ifstream cc(d.path + "/shims/collectivize-cc");
  std::string a((std::istreambuf_iterator<char>(cc)), {});
  EXPECT_NE(a.find(std::string("exec '") + CZ_TEST_MPI_C_COMPILER + "' \"$@\""), std::string::npos) << a;
}

TEST(VerifyBuildPlan, CompileDatabaseReplayedInTheCopy) {
  TempDir d;
  d.write("p/a.c", "");
  d.write("b/compile_commands.json",
          "[{\"directory\": \"" + d.path + "/b\", \"file\": \"" + d.path + "/p/a.c\", " +
              "\"command\": \"collectivize-cc -O2 -c " + d.path + "/p/a.c -o a.o\"}]");
  BuildInputs in;
  in.projectRoot = d.path + "/p";
  in.buildDir = d.path + "/b";
  in.copyRoot = d.path + "/w/c";
  in.copyBuildDir = d.path + "/w/c-build";
  in.maps = {{in.projectRoot, in.copyRoot}, {in.buildDir, in.copyBuildDir}};
  in.program = in.copyBuildDir + "/app";
  BuildPlan plan;
  std::string err;
  ASSERT_TRUE(planBuild(in, plan, err)) << err;
  EXPECT_NE(plan.script.find("cd " + in.copyBuildDir + " && mpicc -O2 -c " + in.copyRoot +
                             "/a.c -o a.o"),
            std::string::npos)
      << plan.script;
  EXPECT_NE(plan.script.find("mpicc " + in.copyBuildDir + "/a.o -o " + in.program),
            std::string::npos)
      << plan.script;
  EXPECT_NE(plan.how.find("compile database"), std::string::npos);
  EXPECT_EQ(shellQuote("it's"), "'it'\\''s'");
  EXPECT_EQ(shellQuote("-O2"), "-O2");
}

TEST(VerifyRetrace, SameCollectiveIgnoresSitesAndAllowsOtherWorldSizes) {
  ManualCollective a{"bcast", {0, 1, 2, 3}, 1};
  ManualCollective b{"bcast", {0, 1, 2, 3}, 1};
  EXPECT_TRUE(sameCollective(a, 4, b, 4));
  b.rootWorld = 0;
  EXPECT_FALSE(sameCollective(a, 4, b, 4));
  ManualCollective wide{"bcast", {0, 1, 2, 3, 4, 5, 6, 7}, 1};
  EXPECT_TRUE(sameCollective(a, 4, wide, 8));   // the whole world of both runs
  EXPECT_FALSE(sameCollective(a, 8, wide, 8));  // a part of one, all of the other
  ManualCollective g{"gather", {0, 1, 2, 3}, 1};
  EXPECT_FALSE(sameCollective(a, 4, g, 4));
  EXPECT_EQ(mpiCollectiveFor("allreduce"), "MPI_Allreduce");
  EXPECT_EQ(acceptedCollectives("alltoall"),
            (std::vector<std::string>{"MPI_Alltoall", "MPI_Alltoallv"}));
}

TEST(VerifyRetrace, TracerGoesThroughMpirunOrTheEnvironment) {
  using cz::launch::Kind;
  auto t = tracedCommand({"/usr/bin/mpirun", "-np", "2", "./app"}, Kind::OpenMpi, "/l/tr.so", "/w/t");
  EXPECT_EQ(t.argv, (std::vector<std::string>{"/usr/bin/mpirun", "-x", "LD_PRELOAD=/l/tr.so",
                                              "-x", "COLLECTIVIZE_TRACE_DIR=/w/t", "-np", "2",
                                              "./app"}));
  EXPECT_TRUE(t.env.empty());
  t = tracedCommand({"./app"}, "/l/tr.so", "/w/t");
  EXPECT_EQ(t.argv, std::vector<std::string>{"./app"});
  EXPECT_EQ(t.env.size(), 2u);
  // MPICH's Hydra takes no -x (verify's traced runs failed there: "unrecognized argument x").
  t = tracedCommand({"mpiexec.mpich", "-n", "2", "./app"}, Kind::Hydra, "/l/tr.so", "/w/t");
  EXPECT_EQ(t.argv, (std::vector<std::string>{"mpiexec.mpich", "-genv", "LD_PRELOAD", "/l/tr.so",
                                              "-genv", "COLLECTIVIZE_TRACE_DIR", "/w/t", "-n", "2",
                                              "./app"}));
  EXPECT_TRUE(t.env.empty());
  // A launcher of unknown kind: the environment, which a local launch passes on.
  t = tracedCommand({"mylauncher", "-n", "2", "./app"}, Kind::Unknown, "/l/tr.so", "/w/t");
  EXPECT_EQ(t.argv, (std::vector<std::string>{"mylauncher", "-n", "2", "./app"}));
  EXPECT_EQ(t.env.size(), 2u);
}

// With effect probes, uninitialised heap memory reads the same in both
// copies (MALLOC_PERTURB_), unless the user chose a fill already.
TEST(VerifyRetrace, EffectRunsFillTheHeapAlike) {
  unsetenv("MALLOC_PERTURB_");
  auto t = tracedCommand({"mpirun", "-np", "2", "./app"}, cz::launch::Kind::OpenMpi, "/l/tr.so", "/w/t",
                         "/w/e");
  EXPECT_EQ(t.argv, (std::vector<std::string>{"mpirun", "-x", "MALLOC_PERTURB_=165", "-x",
                                              "COLLECTIVIZE_VERIFY_EFFECTS=/w/e", "-x",
                                              "LD_PRELOAD=/l/tr.so", "-x",
                                              "COLLECTIVIZE_TRACE_DIR=/w/t", "-np", "2", "./app"}));
  t = tracedCommand({"./app"}, "/l/tr.so", "/w/t", "/w/e");
  ASSERT_EQ(t.env.size(), 4u);
  EXPECT_EQ(t.env[3], (std::pair<std::string, std::string>{"MALLOC_PERTURB_", "165"}));
  setenv("MALLOC_PERTURB_", "7", 1);
  EXPECT_TRUE(sameHeapFill().empty());
  t = tracedCommand({"./app"}, "/l/tr.so", "/w/t", "/w/e");
  EXPECT_EQ(t.env.size(), 3u);
  unsetenv("MALLOC_PERTURB_");
}

TEST(VerifyRetrace, ReadsMatchesAndCollectiveCounts) {
  TempDir d;
  d.write("r.json", R"({"format": "collectivize-detection", "version": 1, "ranks": 4,
    "stats": {"events": 9, "collectives": {"MPI_Bcast": 8}},
    "matches": [{"kind": "gather", "status": "partial", "root_world": 2, "ranks": [0, 1, 2],
                 "instances": 3}]})");
  TraceFindings f;
  std::string err;
  ASSERT_TRUE(readDetectionReport(d.path + "/r.json", f, err)) << err;
  EXPECT_EQ(f.ranks, 4);
  EXPECT_EQ(f.collectives["MPI_Bcast"], 8u);
  ASSERT_EQ(f.matches.size(), 1u);
  EXPECT_FALSE(f.matches[0].confirmed);
  EXPECT_EQ(f.matches[0].rootWorld, 2);
  d.write("new.json", R"({"format": "collectivize-detection", "version": 2})");
  EXPECT_FALSE(readDetectionReport(d.path + "/new.json", f, err));
  EXPECT_NE(err.find("newer"), std::string::npos);
}

TEST(VerifyPatchIndex, DirectoryDiffAndLooseDiff) {
  TempDir d;
  d.write("proj/a.c", "");
  d.write("report.json", R"({"format": "collectivize-detection", "version": 1, "ranks": 4,
    "command": "./app", "matches": [{"kind": "bcast", "status": "confirmed", "root_world": 0,
    "ranks": [0, 1, 2, 3]}, {"kind": "gather", "status": "confirmed", "root_world": 0,
    "ranks": [0, 1, 2, 3]}]})");
  d.write("pd/patches.json", R"({"format": "collectivize-patches", "version": 1,
    "report": ")" + d.path + R"(/report.json", "project_root": ")" + d.path + R"(/proj",
    "build_dir": "", "patches": [
      {"id": "01-bcast", "match": 0, "status": "proposed", "reason": "", "diff": "01-bcast.diff"},
      {"id": "02-gather", "match": 1, "status": "none", "reason": "sites in two files",
       "diff": null}]})");
  d.write("pd/01-bcast.diff", "");
  d.write("loose.diff", "");
  PatchSet set;
  std::string err;
  ASSERT_TRUE(resolvePatchSet(d.path + "/pd", "", "", set, err)) << err;
  ASSERT_EQ(set.jobs.size(), 1u);
  EXPECT_EQ(set.jobs[0].resultPath, d.path + "/pd/01-bcast.verify.json");
  ASSERT_EQ(set.jobs[0].targets.size(), 1u);
  EXPECT_EQ(set.jobs[0].targets[0].kind, "bcast");
  ASSERT_EQ(set.notes.size(), 1u);
  EXPECT_NE(set.notes[0].find("sites in two files"), std::string::npos);

  // all.diff targets every patched match; results go beside it.
  d.write("pd/all.diff", "");
  set = PatchSet();
  ASSERT_TRUE(resolvePatchSet(d.path + "/pd/all.diff", "", "", set, err)) << err;
  ASSERT_EQ(set.jobs.size(), 1u);
  EXPECT_EQ(set.jobs[0].id, "all");
  EXPECT_EQ(set.jobs[0].resultPath, d.path + "/pd/all.verify.json");
  EXPECT_EQ(set.jobs[0].targets.size(), 1u); // 02-gather has no diff
  set = PatchSet();
  ASSERT_TRUE(resolvePatchSet(d.path + "/pd", "", d.path + "/one.json", set, err)) << err;
  EXPECT_EQ(set.jobs[0].resultPath, d.path + "/one.json"); // -o with one patch

  set = PatchSet();
  EXPECT_FALSE(resolvePatchSet(d.path + "/loose.diff", "", "", set, err));
  EXPECT_NE(err.find("--root"), std::string::npos) << err;
  set = PatchSet();
  ASSERT_TRUE(resolvePatchSet(d.path + "/loose.diff", d.path + "/proj", "", set, err)) << err;
  EXPECT_EQ(set.jobs[0].resultPath, "");
  EXPECT_TRUE(set.jobs[0].targets.empty());

  // A patch naming a match the report does not have.
  d.write("pd2/patches.json", R"({"format": "collectivize-patches", "version": 1,
    "report": ")" + d.path + R"(/report.json", "project_root": ")" + d.path + R"(/proj",
    "patches": [{"id": "06-bcast", "match": 5, "status": "proposed", "diff": "06-bcast.diff"}]})");
  set = PatchSet();
  EXPECT_FALSE(resolvePatchSet(d.path + "/pd2", "", "", set, err));
  EXPECT_NE(err.find("has no match 5"), std::string::npos) << err;

  set = PatchSet();
  EXPECT_FALSE(resolvePatchSet(d.path + "/nothing", "", "", set, err));
  d.write("bad/patches.json", R"({"format": "other"})");
  set = PatchSet();
  EXPECT_FALSE(resolvePatchSet(d.path + "/bad", "", "", set, err));
  EXPECT_NE(err.find("not a Collectivize patch index"), std::string::npos);
}
