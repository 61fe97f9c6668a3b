// InstrumentOptions.cpp: `collectivize instrument`'s options and help text,
// read by CLI11 (collectivize/verb_options.h). Built with exceptions.
#include "InstrumentOptions.h"

#include "collectivize/doc_path.h"
#include "collectivize/verb_options.h"

namespace cz::instrument {
namespace {

const char kUsageText[] =
    "usage: collectivize instrument -p BUILD_DIR [options] [FILE...]\n"
    "       collectivize instrument [options] FILE... -- [COMPILER] FLAGS...\n\n"
    "Finds every MPI call site of the files (default: all files of\n"
    "BUILD_DIR/compile_commands.json), writes instrumented copies that report\n"
    "each site's id to the tracer, and a site database\n"
    "({doc:clang-plugin/SITE_DATABASE.md}). Originals are not touched.\n\n"
    "options:\n"
    "  -p DIR        build directory holding compile_commands.json\n"
    "  -o DIR        output directory (default: BUILD_DIR/collectivize-instrumented,\n"
    "                or ./collectivize-instrumented); copies keep their path\n"
    "                relative to the project root\n"
    "  --sites FILE  site database to merge into (default: DIR/collectivize-sites.json)\n"
    "  --root DIR    project root: only files under it are instrumented, and site\n"
    "                ids use paths relative to it (default: the deepest directory\n"
    "                holding every file of the compile database)\n"
    "  -q            print nothing but errors\n";

} // namespace

std::optional<int> parseInstrumentArgs(int argc, char **argv, InstrumentArgs &a) {
  cz::options::VerbParser parser("collectivize instrument", cz::docs::helpText(kUsageText));
  CLI::App &app = parser.app();
  std::vector<std::string> args = cz::options::argsOf(argc, argv);
  a.haveFlags = cz::options::splitAtDoubleDash(args, a.flags);
  app.add_option("FILE", a.files);
  app.add_option("-p", a.buildDir);
  app.add_option("-o", a.outDir);
  app.add_option("--sites", a.sitesPath);
  app.add_option("--root", a.root);
  app.add_flag("-q", a.quiet);
  if (auto status = parser.parse(args)) return status;
  if (a.buildDir.empty() && !a.haveFlags)
    return parser.usageError("give a build directory (-p BUILD_DIR with compile_commands.json) "
                             "or compile flags after --");
  return std::nullopt;
}

} // namespace cz::instrument
