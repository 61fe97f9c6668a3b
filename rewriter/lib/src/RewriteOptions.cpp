// RewriteOptions.cpp: `collectivize rewrite`'s options and help text,
// read by CLI11 (collectivize/verb_options.h). Built with exceptions.
#include "RewriteOptions.h"

#include "collectivize/doc_path.h"
#include "collectivize/verb_options.h"

namespace cz::rewrite {
namespace {

const char kUsageText[] =
    "usage: collectivize rewrite REPORT.json [options] [-- COMPILE_FLAGS...]\n\n"
    "Turns each confirmed manual collective of a detection report into a patch\n"
    "that replaces the hand-made code with the collective call: a unified diff,\n"
    "clang-apply-replacements YAML and a rationale per match, all.diff, and\n"
    "patches.json ({doc:rewriter/PATCH_FORMAT.md}). Your files are not touched unless\n"
    "--apply is given.\n\n"
    "options:\n"
    "  -o DIR           patch directory (default: collectivize-patches)\n"
    "  -p BUILD_DIR     where compile_commands.json is (else: mpicc's include\n"
    "                   directories, the file's directory, and the flags after --)\n"
    "  --sites FILE     the site database (default: the one the report was made with)\n"
    "  --root DIR       project root the database's paths are relative to\n"
    "                   (default: from the database's absolute paths)\n"
    "  --target mpi|runtime\n"
    "                   MPI collectives (default) or Collectivize's cz_* where it has them\n"
    "  --match N        rewrite only match N (1-based, as in the file names NN-KIND;\n"
    "                   repeatable); a requested match without a patch exits 1\n"
    "  --apply          also write the proposed patches into the sources, keeping\n"
    "                   each original as FILE.collectivize-orig; only files below\n"
    "                   the project root (--root, else the git checkout holding the\n"
    "                   current directory, else the current directory)\n"
    "  --allow-outside-root\n"
    "                   let --apply write files outside that root\n"
    "  -q               no progress\n\n"
    "A non-empty -o directory is refused unless it holds only the files of an\n"
    "earlier rewrite (patches.json, NN-KIND.*, all.diff), which are removed.\n"
    "Exit status: 0 when every match was planned (a match may get no patch for\n"
    "its code's shape), 1 when a match failed because of its inputs (a malformed\n"
    "report entry, a stale site database, a file that does not parse) or a\n"
    "--match got no patch, 2 for wrong options.\n";

// The text with the documents it cites where this installation has them.
const char *usage() { return cz::docs::helpText(kUsageText); }

} // namespace

std::optional<int> parseRewriteArgs(int argc, char **argv, RewriteArgs &a) {
  cz::options::VerbParser parser("collectivize rewrite", usage());
  CLI::App &app = parser.app();
  std::vector<std::string> args = cz::options::argsOf(argc, argv), reports, matches;
  cz::options::splitAtDoubleDash(args, a.flags);
  app.add_option("REPORT.json", reports);
  app.add_option("-o", a.outDir);
  app.add_option("-p", a.buildDir);
  app.add_option("--sites", a.sitesPath);
  app.add_option("--root", a.root);
  cz::options::addParsed(app, "--target",
                         [&a](const std::string &v, std::string &error) {
                           error = "--target is 'mpi' or 'runtime', not '" + v + "'";
                           return (v == "mpi" || v == "runtime") && (a.target = v, true);
                         },
                         "mpi|runtime");
  app.add_option("--match", matches);
  app.add_flag("--apply", a.apply);
  app.add_flag("--allow-outside-root", a.outsideRoot);
  app.add_flag("-q", a.quiet);
  if (auto status = parser.parse(args)) return status;
  for (const std::string &m : matches) {
    long long n = 0;
    if (!cz::options::parseWhole(m, 1, 1LL << 40, n))
      return parser.usageError("--match takes a match number from 1 (NN of NN-KIND), not '" + m +
                               "'");
    a.only.insert(size_t(n));
  }
  if (reports.empty())
    return parser.usageError(
        "give the detection report (collectivize detect TRACE -o REPORT.json)");
  if (reports.size() > 1)
    return parser.usageError("one report only ('" + reports[0] + "' and '" + reports[1] + "')");
  a.reportPath = reports[0];
  return std::nullopt;
}

} // namespace cz::rewrite
