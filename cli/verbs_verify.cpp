// verbs_verify.cpp: `collectivize verify PATCH [options] -- CMD...` parses
// options; the work is rewriter/verify's.
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "collectivize/doc_path.h"
#include "collectivize/verify/verify.h"
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
    "Exit status 0 only when every patch is verified.\n\n"
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

bool number(const char *text, double lo, double hi, double &out) {
  char *end = nullptr;
  errno = 0;
  double v = std::strtod(text, &end);
  if (end == text || *end || errno || !(v >= lo && v <= hi)) return false;
  out = v;
  return true;
}

} // namespace

int verifyVerb(int argc, char **argv) {
  cz::verify::VerifyOptions o;
  int i = 0;
  for (; i < argc; i++) {
    std::string a = argv[i];
    if (a == "--") {
      i++;
      break;
    }
    if (a == "--help" || a == "-h") {
      std::fputs(usage(), stdout);
      return 0;
    }
    if (a == "--keep") o.keep = true;
    else if (a == "--ignore-stderr") o.compareStderr = false;
    else if (a == "--ordered") o.ordered = true;
    else if (a == "--no-retrace") o.retrace = false;
    else if (a == "--build" || a == "--runs" || a == "--ignore" || a == "--timeout" ||
             a == "--root" || a == "-o" || a == "--work" || a == "--run" || a == "-C" || a == "--build-dir") {
      if (i + 1 >= argc || !*argv[i + 1]) {
        std::fprintf(stderr, "collectivize verify: %s needs a value\n", a.c_str());
        return 2;
      }
      std::string v = argv[++i];
      double n = 0;
      if (a == "--build") o.build = v;
      else if (a == "--run") o.runScripts.push_back(v);
      else if (a == "-C" || a == "--build-dir") o.buildDir = v;
      else if (a == "--ignore") o.ignore.push_back(v);
      else if (a == "--root") o.root = v;
      else if (a == "-o") o.output = v;
      else if (a == "--work") o.workDir = v;
      else if (a == "--runs") {
        if (!number(v.c_str(), 1, 1000, n) || n != int(n)) {
          std::fprintf(stderr, "collectivize verify: --runs wants a whole number from 1 to 1000 "
                               "(got '%s')\n", v.c_str());
          return 2;
        }
        o.runs = int(n);
      } else if (!number(v.c_str(), 0.1, 86400, n)) {
        std::fprintf(stderr, "collectivize verify: --timeout wants seconds from 0.1 to 86400 "
                             "(got '%s')\n", v.c_str());
        return 2;
      } else {
        o.timeoutSeconds = n;
      }
    } else if (!a.empty() && a[0] == '-') {
      std::fprintf(stderr, "collectivize verify: unknown option '%s'\n%s", a.c_str(), usage());
      return 2;
    } else if (o.patch.empty()) {
      o.patch = a;
    } else {
      std::fprintf(stderr, "collectivize verify: one PATCH at a time ('%s' and '%s'); the "
                           "run command goes after `--`\n", o.patch.c_str(), a.c_str());
      return 2;
    }
  }
  if (o.patch.empty()) {
    std::fprintf(stderr, "collectivize verify: no patch given\n%s", usage());
    return 2;
  }
  o.command.assign(argv + i, argv + argc);
  if (o.command.empty() && o.runScripts.empty()) {
    std::fprintf(stderr, "collectivize verify: no run command: put it after `--`, e.g. "
                         "`collectivize verify %s -- mpirun -np 4 ./app`, or give --run 'CMD'\n",
                 o.patch.c_str());
    return 2;
  }
  // `detect` runs as a process of this same executable.
  char self[4096];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  o.collectivize = n > 0 ? std::string(self, size_t(n)) : "collectivize";
  if (o.retrace) {
    std::string err;
    o.tracer = findTracer(err);
    if (o.tracer.empty()) {
      std::fprintf(stderr, "collectivize verify: %s (or --no-retrace)\n", err.c_str());
      return 1;
    }
  }
  return cz::verify::verify(o);
}

} // namespace cz::cli
