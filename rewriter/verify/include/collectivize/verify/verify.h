// verify.h: `collectivize verify PATCH -- CMD...`: proves a patch from
// `collectivize rewrite` on scratch copies of the project. Both copies are
// built with the same command, both programs run the same way (interleaved,
// timed), their outputs and exit statuses are compared, and one traced run
// of each shows whether the manual collective is gone and the MPI
// collective took its place. The verdict and its evidence go to stdout and
// to NN-KIND.verify.json (rewriter/PATCH_FORMAT.md). The user's project is
// only read. This library runs processes and reads documented files; it
// links neither Clang nor the detector.
#pragma once

#include <string>
#include <vector>

namespace cz::verify {

struct VerifyOptions {
  std::string patch;                  // a .diff, or a patch directory
  std::vector<std::string> command;   // how the program runs (mpirun ...), or empty
  // --run 'CMD' (repeatable): more ways to run it (other process counts,
  // inputs), each by /bin/sh, as written; every one must agree.
  std::vector<std::string> runScripts;
  std::string build;                  // --build: build command ("" = choose)
  std::string buildDir;               // -C/--build-dir: where the build runs ("" = the root)
  std::string root;                   // --root: project root (loose diffs)
  std::string output;                 // -o: result file (one patch)
  std::string workDir;                // --work: "" = a fresh temp dir
  bool keep = false;                  // keep the work dir after success
  int runs = 5;                       // timed runs of each program
  std::vector<std::string> ignore;    // output lines to drop (regexes)
  bool compareStderr = true;
  bool ordered = false;               // compare line order too
  double timeoutSeconds = 300;        // per run; patched runs get less
  bool retrace = true;
  std::string collectivize;           // this executable (for `detect`)
  std::string tracer;                 // libcollectivize_trace.so
};

// Runs the verification and prints it; returns the exit status: 0 when
// every patch is verified, 1 when one is not or an input named cannot be
// used (missing, unreadable, malformed, a --work that is not empty), 2 for
// a usage problem (the command line itself is wrong).
int verify(const VerifyOptions &options);

} // namespace cz::verify
