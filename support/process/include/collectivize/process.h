// process.h: how the tools start other programs (compilers, mpirun, the
// user's build and program, addr2line, diff), all the same way: an argv
// (no shell), optional working directory and environment, each output
// inherited, discarded, written to a file or captured, a timeout that kills
// the child's whole process group (mpirun and its ranks), and the exit
// status or signal. Also where the tools find their own siblings: programs
// on PATH, files beside the running executable, the tracer library.
// Tools only: the runtime never links it.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace cz::process {

// Where one output stream of the child goes.
struct Output {
  enum Kind {
    Inherit,      // this process's own stream
    Discard,      // /dev/null
    File,         // `path`, truncated (appended to if `append`)
    Capture,      // into Result::out / Result::err
    SameAsStdout, // stderr only: wherever stdout goes, in the order written
  };
  Kind kind = Inherit;
  std::string path;
  bool append = false;

  static Output inherit() { return {}; }
  static Output discard() { return {Discard, "", false}; }
  static Output file(std::string p, bool append = false) { return {File, std::move(p), append}; }
  static Output capture() { return {Capture, "", false}; }
  static Output sameAsStdout() { return {SameAsStdout, "", false}; }
};

struct Spec {
  std::vector<std::string> argv;  // argv[0]: a path, or a name looked up on PATH
  std::string cwd;                // "" = this process's
  std::vector<std::pair<std::string, std::string>> env; // added or replaced
  std::string stdinPath;          // "" = inherited (e.g. "/dev/null", an input file)
  Output out, err;
  // Kill the child's process group after this many seconds of wall time
  // (0: never), or after this many seconds without a line on a captured
  // stdout (0: never). SIGTERM first, SIGKILL after termGraceSeconds.
  double timeoutSeconds = 0;
  double silenceSeconds = 0;
  double termGraceSeconds = 5;
  // The child leads its own process group, so a timeout or killRunning()
  // reaches everything it started; whatever of that group is left when it
  // ends is killed too. false: it stays in ours (it then gets the
  // terminal's Ctrl-C itself).
  bool ownGroup = true;
  // Each line of a captured stdout as it arrives (without its newline);
  // lines given here are not kept in Result::out.
  std::function<void(const std::string &)> onLine;
};

struct Result {
  bool started = false; // false: `error` says why it could not start
  std::string error;
  int exitCode = 0;     // exit status, or 128 + the signal that ended it
  int signal = 0;       // the signal that ended it, else 0
  bool timedOut = false;
  double seconds = 0;   // wall time
  std::string out, err; // captured output
};

Result run(const Spec &spec);

// Sends sig to whatever run() is waiting for (its process group when it
// leads one); for a caller's SIGINT/SIGTERM handler: async-signal-safe.
void killRunning(int sig);

// An executable file: `name` itself when it holds a '/', else the first
// match in PATH ("" if none).
std::string findProgram(const std::string &name);

// DIR/relative where DIR holds the running executable ("" if unknown):
// how installed tools find their siblings in a relocatable prefix.
std::string besideSelf(const std::string &relative);

// The tracer library (libcollectivize_trace.so): COLLECTIVIZE_TRACE_LIB,
// else beside the installed tools, else the build tree's. "" and `err`
// saying where it looked when there is none.
std::string findTracerLibrary(std::string &err);

// A whole file ("" if unreadable), and its last `lines` lines, each with
// `indent` before it (build and launcher logs in messages).
std::string readFile(const std::string &path);
std::string tailOfFile(const std::string &path, int lines, const std::string &indent = "");

} // namespace cz::process
