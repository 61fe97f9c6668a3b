// verb_options.h: how every `collectivize` verb reads its command line.
// CLI11 parses; each verb keeps its own help text (the man pages, the bash
// completion and tests/lit/cli read them), and every verb reports usage
// errors the same way: one line naming the option, then where help is,
// exit status 2. A value option given twice is refused, never "the last
// one wins".
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace cz::options {

// One verb's (or subverb's) command line: `app()` takes the options, then
// parse() reads the arguments.
class VerbParser {
public:
  // command: "collectivize detect"; help: printed for -h/--help.
  VerbParser(std::string command, std::string help);

  CLI::App &app() { return app_; }

  // Parses the arguments after the verb. Returns nothing when the verb
  // should go on; otherwise its exit status: 0 after printing the help on
  // stdout (-h or --help anywhere; 1 if the help text fails to name one of
  // the parser's options, said on stderr), 2 after printing a usage error.
  // Arguments CLI11 does not know are usage errors ("unknown option '-x'",
  // "unexpected argument 'y'") unless keepUnknown: then they are left in
  // unknown(), in order, for a verb that passes them on (`run`).
  std::optional<int> parse(const std::vector<std::string> &args, bool keepUnknown = false);

  const std::vector<std::string> &unknown() const { return unknown_; }
  // The usage error for the first of unknown() ("unknown option '-x'",
  // "unexpected argument 'y'"); returns 2.
  int unknownError() const;

  // A usage error the verb finds itself (a missing operand, options that
  // exclude each other), printed the same way; returns 2.
  int usageError(const std::string &message) const;

private:
  std::string command_, help_;
  CLI::App app_;
  std::vector<std::string> unknown_;
};

// The arguments after a verb, as strings.
std::vector<std::string> argsOf(int argc, char **argv);

// Splits args at the first "--": what comes after it is a command or flags
// the verb passes on, never its own options. Returns whether there was one.
bool splitAtDoubleDash(std::vector<std::string> &args, std::vector<std::string> &after);

// An option with one value that `read` takes, or refuses with the whole
// usage error's text in `error`. Given twice: refused.
CLI::Option *addParsed(CLI::App &app, const std::string &name,
                       std::function<bool(const std::string &, std::string &error)> read,
                       const std::string &valueName);

// An option with one value, checked by `accept` (false: refused). A refused
// value is the usage error "NAME WANTS (got 'VALUE')", e.g. "--min-group
// wants a number >= 2 (got '1')"; NAME is the last spelling in name, or
// `shown` ("-np" for "-n,--np"). Given twice: refused as well.
CLI::Option *addChecked(CLI::App &app, const std::string &name,
                        std::function<bool(const std::string &)> accept, const std::string &wants,
                        const std::string &valueName, const std::string &shown = "");

// "12": a whole decimal number in [lo, hi] (no sign, no suffix).
bool parseWhole(const std::string &text, long long lo, long long hi, long long &out);
// "2.5": a decimal number in [lo, hi].
bool parseReal(const std::string &text, double lo, double hi, double &out);

} // namespace cz::options
