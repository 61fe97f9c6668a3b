// main.cpp: `collectivize <verb> ...` dispatches to the verbs' libraries.
#include <cstdio>
#include <cstring>
#include <string>

#include "bench/cli.h"
#include "verbs.h"
#ifdef CZ_HAVE_INSTRUMENT
#include "collectivize/instrument/Verb.h"
#endif
#ifdef CZ_HAVE_REWRITE
#include "collectivize/rewrite/Rewrite.h"
#endif

namespace {

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
     "run an MPI program under mpirun with the tracer, and summarize its trace"},
    {"trace", cz::cli::traceVerb, "print a trace's events (dump) or a summary"},
    {"detect", cz::cli::detectVerb,
     "find hand-made collectives in a trace by what their messages carried"},
    {"verify", cz::cli::verifyVerb,
     "prove a patch on scratch copies: rebuild, rerun, compare outputs, retrace, time"},
    {"report", cz::cli::reportVerb,
     "write one offline HTML page: matches, patches, algorithm explorer, plots"},
#ifdef CZ_HAVE_INSTRUMENT
    {"instrument", cz::instrument::instrumentVerb,
     "give every MPI call site an id the tracer records; write the site database"},
#endif
#ifdef CZ_HAVE_REWRITE
    {"rewrite", cz::rewrite::rewriteVerb,
     "turn detected collectives into reviewable patches (diff, YAML, rationale)"},
#endif
};

void printHelp(FILE *out) {
  std::fprintf(out,
               "usage: collectivize <verb> [options]\n"
               "       collectivize --help | --version\n\n"
               "Collectivize finds hand-made MPI collectives and replaces them "
               "with real ones.\n\nverbs:\n");
  for (const Verb &v : kVerbs)
    std::fprintf(out, "  %-12s %s\n", v.name, v.summary);
  std::fprintf(out, "\n`collectivize <verb> --help` describes a verb.\n");
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 2) {
    printHelp(stderr);
    return 2;
  }
  std::string first = argv[1];
  if (first == "--help" || first == "-h" || first == "help") {
    printHelp(stdout);
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
