// verbs_verify.cpp: `collectivize verify PATCH [options] -- CMD...` parses
// options; the work is rewriter/verify's.
#include <unistd.h>

#include <cstdio>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "collectivize/doc_path.h"
#include "collectivize/process.h"
#include "collectivize/verify/verify.h"
#include "collectivize/verb_options.h"
#include "verbs.h"

namespace cz::cli {
namespace {

const char kUsageText[] =
    "usage: collectivize verify PATCH [options] [--run 'CMD']... [-- COMMAND [ARGS...]]\n\n"
    "Proves a patch from `collectivize rewrite` on scratch copies of the project\n"
    "(the project itself is never modified): builds an unpatched and a patched\n"
    "copy the same way, runs both programs with COMMAND (e.g. mpirun -np 4\n"
    "./app; the program and arguments inside the project are mapped into each\n"
    "copy), interleaved and timed, compares stdout, stderr and exit status,\n"
    "then traces one run of each to confirm the manual collective is gone and\n"
    "the MPI collective appears. In the traced runs a probe at the end of the\n"
    "patched region (the tracer's cz_verify_effect) hashes the collective's\n"
    "output buffer that patches.json names, so a patch that leaves other data\n"
    "while the program prints the same is caught. Runs set MALLOC_PERTURB_\n"
    "(unless it is set) so memory the program never initialises holds the same\n"
    "bytes in both copies. Prints the verdict (verified, output differs,\n"
    "effect differs, exit status differs, does not apply, does not build,\n"
    "manual messages remain, collective missing, error) with its evidence and\n"
    "the speedup, and writes NN-KIND.verify.json beside the diff\n"
    "({doc:rewriter/PATCH_FORMAT.md}).\n"
    "Exit status 0 only when every patch is verified; 1 when one is not, or an\n"
    "input named cannot be used (missing, unreadable, malformed); 2 bad usage.\n\n"
    "PATCH: a patch directory (every patch with a diff, one result each), one\n"
    "NN-KIND.diff or all.diff in it, or any -p1 diff with --root.\n\n"
    "options:\n"
    "  --run 'CMD'      one more way to run the program, by /bin/sh as written\n"
    "                   (other process counts, other inputs); repeatable. Every\n"
    "                   run command must give the same results in both copies;\n"
    "                   the first one (`--` COMMAND if given) is also traced\n"
    "  --build 'CMD'    build command, run by /bin/sh in each copy's root or -C DIR\n"
    "                   (default: make for a Makefile; cmake configure+build for a\n"
    "                   CMakeLists.txt; else the compile database replayed).\n"
    "                   collectivize-cc/c++ called by name build with mpicc/mpicxx\n"
    "  -C, --build-dir DIR\n"
    "                   the project's directory the build runs in (relative to\n"
    "                   here, like make -C; inside the project)\n"
    "  --runs N         timed runs of each program (default 5; median, min, max)\n"
    "  --ignore REGEX   drop output lines matching REGEX before comparing\n"
    "                   (timings, dates); repeatable\n"
    "  --ignore-stderr  compare stdout and exit status only\n"
    "  --ordered        compare line order too (default: as sorted lines, since\n"
    "                   ranks print in any order)\n"
    "  --timeout S      kill a run after S seconds (default 300; a patched run\n"
    "                   gets at most max(20 s, 10x the original's slowest run))\n"
    "  --no-retrace     skip the traced runs (the manual messages are not checked)\n"
    "  --root DIR       the project root the diff applies to (overrides patches.json)\n"
    "  -o FILE          write the result here (one patch only)\n"
    "  --work DIR       where copies, logs and traces go (new or empty; kept).\n"
    "                   Default: a fresh $TMPDIR/collectivize-verify-XXXXXX,\n"
    "                   removed when every patch is verified unless --keep\n"
    "  --keep           keep the work directory\n"
    "COLLECTIVIZE_TRACE_LIB picks the tracer library.\n";

// The text with the documents it cites where this installation has them.
const char *usage() { return cz::docs::helpText(kUsageText); }

// verify's command line (usage() describes it): the options, then after
// `--` the command that runs the program.
std::optional<int> parseVerifyArgs(int argc, char **argv, cz::verify::VerifyOptions &o) {
  cz::options::VerbParser parser("collectivize verify", usage());
  CLI::App &app = parser.app();
  std::vector<std::string> args = cz::options::argsOf(argc, argv), patches;
  cz::options::splitAtDoubleDash(args, o.command);
  app.add_option("PATCH", patches);
  app.add_option("--run", o.runScripts);
  app.add_option("--build", o.build);
  app.add_option("-C,--build-dir", o.buildDir);
  app.add_option("--ignore", o.ignore);
  app.add_option("--root", o.root);
  app.add_option("-o", o.output);
  app.add_option("--work", o.workDir);
  app.add_flag("--keep", o.keep);
  app.add_flag("--ignore-stderr", [&](int64_t) { o.compareStderr = false; });
  app.add_flag("--ordered", o.ordered);
  app.add_flag("--no-retrace", [&](int64_t) { o.retrace = false; });
  long long runs = 0;
  cz::options::addChecked(app, "--runs",
                          [&](const std::string &v) {
                            return cz::options::parseWhole(v, 1, 1000, runs) &&
                                   (o.runs = int(runs), true);
                          },
                          "wants a whole number from 1 to 1000", "N");
  cz::options::addChecked(app, "--timeout",
                          [&](const std::string &v) {
                            return cz::options::parseReal(v, 0.1, 86400, o.timeoutSeconds);
                          },
                          "wants seconds from 0.1 to 86400", "S");
  if (auto status = parser.parse(args)) return status;
  // An empty value names nothing: said here, not as a missing file later.
  for (auto [name, value] : {std::pair{"--build", &o.build}, {"--build-dir", &o.buildDir},
                             {"--root", &o.root}, {"-o", &o.output}, {"--work", &o.workDir}})
    if (app.count(name) && value->empty()) return parser.usageError(std::string(name) + " needs a value");
  if (patches.empty()) return parser.usageError("no patch given");
  if (patches.size() > 1)
    return parser.usageError("one PATCH at a time ('" + patches[0] + "' and '" + patches[1] +
                             "'); the run command goes after `--`");
  o.patch = patches[0];
  if (o.command.empty() && o.runScripts.empty())
    return parser.usageError("no run command: put it after `--`, e.g. `collectivize verify " +
                             o.patch + " -- mpirun -np 4 ./app`, or give --run 'CMD'");
  return std::nullopt;
}

} // namespace

int verifyVerb(int argc, char **argv) {
  cz::verify::VerifyOptions o;
  if (auto status = parseVerifyArgs(argc, argv, o)) return *status;
  // `detect` runs as a process of this same executable.
  char self[4096];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  o.collectivize = n > 0 ? std::string(self, size_t(n)) : "collectivize";
  if (o.retrace) {
    std::string err;
    o.tracer = cz::process::findTracerLibrary(err);
    if (o.tracer.empty()) {
      std::fprintf(stderr, "collectivize verify: %s (or --no-retrace)\n", err.c_str());
      return 1;
    }
  }
  return cz::verify::verify(o);
}

} // namespace cz::cli
