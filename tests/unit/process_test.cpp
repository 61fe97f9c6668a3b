// process_test.cpp: support/process (collectivize/process.h), the one way
// the tools start programs: output captured or routed, exit status and
// signal, timeouts that end the whole process group, and a clear error
// for a program that cannot start.
#include "collectivize/process.h"

#include <gtest/gtest.h>

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

namespace process = cz::process;

namespace {

process::Spec shell(const std::string &script) {
  process::Spec spec;
  spec.argv = {"/bin/sh", "-c", script};
  spec.out = process::Output::capture();
  spec.err = process::Output::capture();
  return spec;
}

std::string tempPath(const char *name) {
  return std::string(::testing::TempDir()) + "cz-process-" + std::to_string(getpid()) + "-" + name;
}

// A process is gone once kill(pid, 0) fails (its zombie reaped by init).
bool goneWithin(pid_t pid, double seconds) {
  auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < end) {
    if (kill(pid, 0) != 0 && errno == ESRCH) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

TEST(Process, CapturesStdoutAndStderrApartWithTheExitStatus) {
  process::Result r = run(shell("echo out; echo err >&2; exit 3"));
  ASSERT_TRUE(r.started) << r.error;
  EXPECT_EQ(r.out, "out\n");
  EXPECT_EQ(r.err, "err\n");
  EXPECT_EQ(r.exitCode, 3);
  EXPECT_EQ(r.signal, 0);
  EXPECT_FALSE(r.timedOut);
}

TEST(Process, StderrSameAsStdoutKeepsTheOrderWritten) {
  process::Spec spec = shell("echo 1; echo 2 >&2; echo 3");
  spec.err = process::Output::sameAsStdout();
  process::Result r = process::run(spec);
  EXPECT_EQ(r.out, "1\n2\n3\n");
  EXPECT_EQ(r.err, "");
}

TEST(Process, FilesTruncatedOrAppendedToAndAnInputFile) {
  std::string in = tempPath("in"), out = tempPath("out");
  std::ofstream(in) << "from the input file\n";
  std::ofstream(out) << "old\n";
  process::Spec spec;
  spec.argv = {"cat"}; // found on PATH
  spec.stdinPath = in;
  spec.out = process::Output::file(out);
  ASSERT_TRUE(process::run(spec).started);
  EXPECT_EQ(process::readFile(out), "from the input file\n");
  spec.out = process::Output::file(out, true);
  process::run(spec);
  EXPECT_EQ(process::readFile(out), "from the input file\nfrom the input file\n");
  EXPECT_EQ(process::tailOfFile(out, 1, "  "), "  from the input file\n");
  std::remove(in.c_str());
  std::remove(out.c_str());
}

TEST(Process, EnvironmentAndWorkingDirectory) {
  process::Spec spec = shell("echo \"$CZ_PROCESS_TEST\"; pwd");
  spec.env = {{"CZ_PROCESS_TEST", "first"}, {"CZ_PROCESS_TEST", "second"}};
  spec.cwd = "/";
  process::Result r = process::run(spec);
  EXPECT_EQ(r.out, "second\n/\n"); // a name given twice: the last value
}

TEST(Process, ASignalGivesItsNumberAnd128PlusIt) {
  process::Result r = run(shell("kill -KILL $$"));
  ASSERT_TRUE(r.started);
  EXPECT_EQ(r.signal, SIGKILL);
  EXPECT_EQ(r.exitCode, 128 + SIGKILL);
}

TEST(Process, WallTimeoutEndsTheProgram) {
  process::Spec spec = shell("sleep 30");
  spec.timeoutSeconds = 0.3;
  process::Result r = process::run(spec);
  ASSERT_TRUE(r.started);
  EXPECT_TRUE(r.timedOut);
  EXPECT_EQ(r.signal, SIGTERM);
  EXPECT_GE(r.seconds, 0.3);
  EXPECT_LT(r.seconds, 5);
}

// The timeouts below count from the program's last line, printed once it
// is ready: a slow start on a loaded machine cannot beat them.
TEST(Process, TimeoutKillsTheWholeGroup) {
  // The grandchild stands for a rank mpirun started.
  pid_t grandchild = 0;
  process::Spec spec = shell("sleep 30 & echo $!; wait");
  spec.silenceSeconds = 1;
  spec.onLine = [&](const std::string &l) { grandchild = std::atoi(l.c_str()); };
  process::Result r = process::run(spec);
  ASSERT_TRUE(r.started);
  EXPECT_TRUE(r.timedOut);
  EXPECT_EQ(r.signal, SIGTERM);
  ASSERT_GT(grandchild, 0);
  EXPECT_TRUE(goneWithin(grandchild, 5)) << "sleep " << grandchild << " outlived the timeout";
}

TEST(Process, TermIgnoredThenKilledAfterTheGrace) {
  process::Spec spec = shell("trap '' TERM; echo ready; sleep 30");
  spec.silenceSeconds = 1;
  spec.termGraceSeconds = 0.3;
  std::vector<std::string> lines;
  spec.onLine = [&](const std::string &l) { lines.push_back(l); };
  process::Result r = process::run(spec);
  EXPECT_EQ(lines, (std::vector<std::string>{"ready"}));
  EXPECT_TRUE(r.timedOut);
  EXPECT_EQ(r.signal, SIGKILL);
  EXPECT_LT(r.seconds, 10);
}

TEST(Process, SilenceTimeoutAfterTheLastLineAndLinesAsTheyCome) {
  std::vector<std::string> lines;
  process::Spec spec = shell("echo a; echo b; sleep 30");
  spec.silenceSeconds = 0.4;
  spec.onLine = [&](const std::string &l) { lines.push_back(l); };
  process::Result r = process::run(spec);
  EXPECT_TRUE(r.timedOut);
  EXPECT_EQ(lines, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(r.out, ""); // given to onLine, not kept
}

TEST(Process, NoTimeoutWhenTheProgramEndsInTime) {
  process::Spec spec = shell("sleep 0.1; echo done");
  spec.timeoutSeconds = 10;
  process::Result r = process::run(spec);
  EXPECT_FALSE(r.timedOut);
  EXPECT_EQ(r.exitCode, 0);
  EXPECT_EQ(r.out, "done\n");
  EXPECT_LT(r.seconds, 5);
}

TEST(Process, AMissingProgramIsAClearErrorNotAnExitStatus) {
  process::Spec spec;
  spec.argv = {"/nonexistent/cz-no-such-program", "x"};
  process::Result r = process::run(spec);
  EXPECT_FALSE(r.started);
  EXPECT_EQ(r.error, "cannot run /nonexistent/cz-no-such-program: No such file or directory");

  spec.argv = {"cz-no-such-program-on-path"};
  r = process::run(spec);
  EXPECT_FALSE(r.started);
  EXPECT_NE(r.error.find("cannot run cz-no-such-program-on-path: "), std::string::npos) << r.error;

  spec.argv = {"/bin/sh", "-c", "true"};
  spec.cwd = "/nonexistent-dir";
  r = process::run(spec);
  EXPECT_FALSE(r.started);
  EXPECT_EQ(r.error, "cannot run /bin/sh in /nonexistent-dir: No such file or directory");

  spec.cwd = "";
  spec.stdinPath = "/nonexistent-input";
  r = process::run(spec);
  EXPECT_FALSE(r.started);
  EXPECT_NE(r.error.find("cannot read its input /nonexistent-input"), std::string::npos) << r.error;

  EXPECT_EQ(process::run(process::Spec{}).error, "empty command");
}

TEST(Process, FindProgramOnPathOrByPath) {
  std::string sh = process::findProgram("sh");
  EXPECT_FALSE(sh.empty());
  EXPECT_EQ(sh.back(), 'h');
  EXPECT_EQ(process::findProgram("/bin/sh"), "/bin/sh");
  EXPECT_EQ(process::findProgram("cz-no-such-program-on-path"), "");
  EXPECT_EQ(process::findProgram("/etc/passwd"), ""); // not executable
}

TEST(Process, BesideSelfIsInTheTestsDirectory) {
  char self[4096];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  ASSERT_GT(n, 0);
  std::string dir(self, size_t(n));
  dir = dir.substr(0, dir.rfind('/'));
  EXPECT_EQ(process::besideSelf("x/y"), dir + "/x/y");
}

TEST(Process, TracerLibraryFromTheEnvironmentMustBeAFile) {
  setenv("COLLECTIVIZE_TRACE_LIB", "/nonexistent/lib.so", 1);
  std::string err;
  EXPECT_EQ(process::findTracerLibrary(err), "");
  EXPECT_EQ(err, "COLLECTIVIZE_TRACE_LIB='/nonexistent/lib.so' is not a file");
  setenv("COLLECTIVIZE_TRACE_LIB", "/etc/passwd", 1);
  err.clear();
  EXPECT_EQ(process::findTracerLibrary(err), "/etc/passwd");
  unsetenv("COLLECTIVIZE_TRACE_LIB");
}

} // namespace
