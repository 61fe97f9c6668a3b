// main.cpp: `collectivize <verb> ...` dispatches to the verbs' libraries.
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "bench/cli.h"
#include "collectivize/process.h"
#include "environment.h"
#include "verbs.h"

namespace {

// The verbs that need Clang and LLVM live in collectivize-clang, installed
// beside this program: this one then starts without loading LLVM's
// libraries (detect is timed per event, and they were its slowest start).
[[maybe_unused]] int runClangVerb(const char *verb, int argc, char **argv) {
  std::string helper = cz::process::besideSelf("collectivize-clang");
  std::string verbArg = verb;
  std::vector<char *> args{helper.data(), verbArg.data()};
  for (int i = 0; i < argc; i++) args.push_back(argv[i]);
  args.push_back(nullptr);
  execv(helper.c_str(), args.data());
  std::fprintf(stderr, "collectivize %s: cannot run %s: %s\n", verb, helper.c_str(),
               std::strerror(errno));
  return 1;
}
#ifdef CZ_HAVE_INSTRUMENT
int instrumentVerb(int argc, char **argv) { return runClangVerb("instrument", argc, argv); }
#endif
#ifdef CZ_HAVE_REWRITE
int rewriteVerb(int argc, char **argv) { return runClangVerb("rewrite", argc, argv); }
#endif

struct Verb {
  const char *name;
  int (*run)(int argc, char **argv);
  const char *summary;
};

const Verb kVerbs[] = {
    {"bench", cz::bench::benchVerb,
     "time the runtime's algorithms beside the MPI library's own collectives"},
    {"tune", cz::bench::tuneVerb,
     "measure this machine and write a decision table for cz_<collective>"},
    {"algorithms", cz::cli::algorithmsVerb,
     "list the runtime's algorithms per collective"},
    {"table", cz::cli::tableVerb,
     "check a decision table, or show which algorithm a call would use"},
    {"run", cz::cli::runVerb,
     "run an MPI program (your mpirun, mpiexec or srun command) with the tracer, and summarize its trace"},
    {"trace", cz::cli::traceVerb, "print a trace's events (dump) or a summary"},
    {"detect", cz::cli::detectVerb,
     "find hand-made collectives in a trace by what their messages carried"},
    {"verify", cz::cli::verifyVerb,
     "prove a patch on scratch copies: rebuild, rerun, compare outputs, retrace, time"},
    {"report", cz::cli::reportVerb,
     "write one offline HTML page: matches, patches, algorithm explorer, plots"},
#ifdef CZ_HAVE_INSTRUMENT
    {"instrument", instrumentVerb,
     "give every MPI call site an id the tracer records; write the site database"},
#endif
#ifdef CZ_HAVE_REWRITE
    {"rewrite", rewriteVerb,
     "turn detected collectives into reviewable patches (diff, YAML, rationale)"},
#endif
};

void printHelp(FILE *out) {
  std::fprintf(out,
               "usage: collectivize <verb> [options]\n"
               "       collectivize --help | --version | --list-env\n\n"
               "Collectivize finds hand-made MPI collectives and replaces them "
               "with real ones.\n\nverbs:\n");
  for (const Verb &v : kVerbs)
    std::fprintf(out, "  %-12s %s\n", v.name, v.summary);
  std::fprintf(out, "\n`collectivize <verb> --help` (or `collectivize help <verb>`) describes a "
                    "verb.\n`collectivize --list-env` (or `collectivize help env`) lists the COLLECTIVIZE_*\n"
                    "environment variables.\nExit status: 0 done, 1 the work failed (an input that cannot be "
                    "read, a failed run),\n2 bad usage.\n");
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 2) {
    printHelp(stderr);
    return 2;
  }
  std::string first = argv[1];
  if (first == "help" && argc == 3 && std::strcmp(argv[2], "env") == 0) {
    cz::cli::printEnvironmentHelp(stdout);
    return 0;
  }
  if (first == "help" && argc > 2) { // `collectivize help VERB [SUB]`: that verb's help
    std::vector<char *> args;
    for (int i = 3; i < argc; i++) args.push_back(argv[i]);
    static char help[] = "--help";
    args.push_back(help);
    for (const Verb &v : kVerbs)
      if (std::strcmp(argv[2], v.name) == 0) return v.run(int(args.size()), args.data());
    std::fprintf(stderr, "collectivize help: unknown verb '%s' (try: collectivize --help)\n",
                 argv[2]);
    return 2;
  }
  if (first == "--help" || first == "-h" || first == "help") {
    printHelp(stdout);
    return 0;
  }
  if (first == "--list-env") {
    cz::cli::printEnvironment(stdout);
    return 0;
  }
  if (first == "--version") {
    std::printf("collectivize %s\n", CZ_VERSION_STRING);
    return 0;
  }
  for (const Verb &v : kVerbs)
    if (first == v.name) return v.run(argc - 2, argv + 2);
  std::fprintf(stderr, "collectivize: unknown verb '%s' (try: collectivize --help)\n",
               argv[1]);
  return 2;
}
