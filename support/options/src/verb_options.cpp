// verb_options.cpp: CLI11 under every verb, with the project's help texts
// and its one way of saying what was wrong with a command line.
#include "collectivize/verb_options.h"

#include <cctype>
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

// Whether text names option `name` as a word ("-o" in "-o DIR", not in "--out").
bool mentions(const std::string &text, const std::string &name) {
  auto wordChar = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_'; };
  for (size_t at = text.find(name); at != std::string::npos; at = text.find(name, at + 1)) {
    bool startsWord = at == 0 || !wordChar(text[at - 1]);
    size_t end = at + name.size();
    if (startsWord && (end == text.size() || !wordChar(text[end]))) return true;
  }
  return false;
}

// The spellings of app's options (and its subcommands') that `help` never
// names: a verb's help text must describe every option its parser takes.
void undescribed(const CLI::App &app, const std::string &help, std::vector<std::string> &out) {
  for (const CLI::Option *o : app.get_options()) {
    if (o == app.get_help_ptr()) continue;
    for (const std::string &s : o->get_snames())
      if (!mentions(help, "-" + s)) out.push_back("-" + s);
    for (const std::string &l : o->get_lnames())
      if (!mentions(help, "--" + l)) out.push_back("--" + l);
  }
  for (const CLI::App *sub : app.get_subcommands([](const CLI::App *) { return true; }))
    undescribed(*sub, help, out);
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
    // A developer's slip, caught by the tests that ask every verb for help.
    std::vector<std::string> missing;
    undescribed(app_, help_, missing);
    for (const std::string &name : missing)
      std::fprintf(stderr, "%s: internal error: the help text does not describe %s\n",
                   command_.c_str(), name.c_str());
    return missing.empty() ? 0 : 1;
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
