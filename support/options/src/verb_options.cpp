// verb_options.cpp: CLI11 under every verb, with the project's help texts
// and its one way of saying what was wrong with a command line.
#include "collectivize/verb_options.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <regex>

namespace cz::options {
namespace {

// The option called `name` in app or in one of its subcommands.
const CLI::Option *findOption(const CLI::App &app, const std::string &name) {
  for (const CLI::Option *o : app.get_options())
    if (o->check_name(name) || o->get_name() == name) return o;
  for (const CLI::App *sub : app.get_subcommands([](const CLI::App *) { return true; }))
    if (const CLI::Option *o = findOption(*sub, name)) return o;
  return nullptr;
}

std::string quotedList(const std::vector<std::string> &values) {
  std::string out;
  for (size_t k = 0; k < values.size(); k++)
    out += (k == 0 ? "'" : k + 1 == values.size() ? " and '" : ", '") + values[k] + "'";
  return out;
}

// CLI11's message, in the words the verbs have always used where it has a
// case of its own (tests/lit pin them).
std::string describe(const CLI::ParseError &e, const CLI::App &app) {
  std::string what = e.what();
  std::smatch m;
  static const std::regex repeated(R"(^(\S+): At Most \d+ required but received (\d+)$)");
  static const std::regex missing(R"(^(\S+): \d+ required \S+ missing$)");
  static const std::regex conversion(R"(^Could not convert: (\S+) = (.*)$)");
  if (std::regex_match(what, m, repeated)) {
    std::string name = m[1], values;
    if (const CLI::Option *o = findOption(app, name)) values = " (" + quotedList(o->results()) + ")";
    std::string times = m[2] == "2" ? "twice" : m[2].str() + " times";
    return name + " given " + times + values + ": give it once";
  }
  if (std::regex_match(what, m, missing)) return m[1].str() + " needs a value";
  if (std::regex_match(what, m, conversion))
    return m[1].str() + ": '" + m[2].str() + "' is not a valid value";
  return what;
}

} // namespace

VerbParser::VerbParser(std::string command, std::string help)
    : command_(std::move(command)), help_(std::move(help)), app_("", command_) {
  app_.allow_extras(); // told apart below: unknown options, extra operands
  app_.set_help_flag("-h,--help", "print this help and exit");
}

std::optional<int> VerbParser::parse(const std::vector<std::string> &args, bool keepUnknown) {
  unknown_.clear();
  std::vector<std::string> reversed(args.rbegin(), args.rend()); // CLI11 pops from the back
  try {
    app_.parse(reversed);
  } catch (const CLI::CallForHelp &) {
    std::fputs(help_.c_str(), stdout);
    return 0;
  } catch (const CLI::ParseError &e) {
    return usageError(describe(e, app_));
  }
  unknown_ = app_.remaining(true);
  if (keepUnknown || unknown_.empty()) return std::nullopt;
  return unknownError();
}

int VerbParser::unknownError() const {
  const std::string &first = unknown_.front();
  if (first.size() > 1 && first[0] == '-') return usageError("unknown option '" + first + "'");
  return usageError("unexpected argument '" + first + "'");
}

int VerbParser::usageError(const std::string &message) const {
  std::fprintf(stderr, "%s: %s\n(try: %s --help)\n", command_.c_str(), message.c_str(),
               command_.c_str());
  return 2;
}

std::vector<std::string> argsOf(int argc, char **argv) {
  return std::vector<std::string>(argv, argv + argc);
}

bool splitAtDoubleDash(std::vector<std::string> &args, std::vector<std::string> &after) {
  for (size_t k = 0; k < args.size(); k++)
    if (args[k] == "--") {
      after.assign(args.begin() + long(k) + 1, args.end());
      args.resize(k);
      return true;
    }
  after.clear();
  return false;
}

CLI::Option *addParsed(CLI::App &app, const std::string &name,
                       std::function<bool(const std::string &, std::string &error)> read,
                       const std::string &valueName) {
  return app
      .add_option_function<std::string>(name,
                                        [read](const std::string &value) {
                                          std::string error;
                                          if (!read(value, error)) throw CLI::ValidationError(error);
                                        })
      ->type_name(valueName);
}

CLI::Option *addChecked(CLI::App &app, const std::string &name,
                        std::function<bool(const std::string &)> accept, const std::string &wants,
                        const std::string &valueName, const std::string &shownName) {
  // "-o,--output": --output
  std::string shown = shownName.empty() ? name.substr(name.find_last_of(',') + 1) : shownName;
  return addParsed(
      app, name,
      [accept, wants, shown](const std::string &value, std::string &error) {
        error = shown + " " + wants + " (got '" + value + "')";
        return accept(value);
      },
      valueName);
}

bool parseWhole(const std::string &text, long long lo, long long hi, long long &out) {
  if (text.empty() || text[0] < '0' || text[0] > '9') return false;
  char *end = nullptr;
  errno = 0;
  long long v = std::strtoll(text.c_str(), &end, 10);
  if (*end || errno || v < lo || v > hi) return false;
  out = v;
  return true;
}

bool parseReal(const std::string &text, double lo, double hi, double &out) {
  char *end = nullptr;
  errno = 0;
  double v = std::strtod(text.c_str(), &end);
  if (text.empty() || *end || errno || !(v >= lo && v <= hi)) return false;
  out = v;
  return true;
}

} // namespace cz::options
