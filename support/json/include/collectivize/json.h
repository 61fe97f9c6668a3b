// json.h: the small JSON document model the tools share (the detector reads
// site databases with it, the verifier patches.json and detection reports,
// the HTML report all of its inputs). Reading keeps numbers' text so 64-bit
// ids stay exact; writing escapes '<' so the result can sit inside an HTML
// <script>. Not for the runtime: users' programs never parse JSON.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace cz::json {

class Json {
public:
  enum class Type { Null, Bool, Number, String, Array, Object };

  Json() = default;
  static Json boolean(bool b);
  static Json number(double v);
  static Json numberText(std::string text); // exact, as read
  static Json string(std::string s);
  static Json array();
  static Json object();

  Type type() const { return type_; }
  bool isNull() const { return type_ == Type::Null; }
  bool isObject() const { return type_ == Type::Object; }
  bool isArray() const { return type_ == Type::Array; }
  bool isString() const { return type_ == Type::String; }
  bool isNumber() const { return type_ == Type::Number; }

  // Accessors with a fallback for the wrong type: inputs are untrusted.
  double num(double fallback = 0) const;
  // A number that is a whole number in [lo, hi]: its value in `out`.
  // (Casting num() of an out-of-range value to an integer type is
  // undefined behaviour; readers of files others write go through this.)
  bool integerIn(long long lo, long long hi, long long &out) const;
  const std::string &str() const; // "" unless a string
  std::string text() const;       // string, or a number's text
  bool flag(bool fallback = false) const;

  // Objects: member lookup (null Json when absent) and insertion order kept.
  const Json &operator[](const std::string &key) const;
  const Json *find(const std::string &key) const; // nullptr when absent or not an object
  std::string str(const std::string &key, const std::string &otherwise = "") const;
  double num(const std::string &key, double otherwise = 0) const;
  bool has(const std::string &key) const;
  Json &set(const std::string &key, Json value);
  const std::vector<std::pair<std::string, Json>> &members() const { return members_; }

  // Arrays.
  const std::vector<Json> &items() const { return items_; }
  Json &push(Json value);
  size_t size() const { return type_ == Type::Array ? items_.size() : members_.size(); }

  std::string dump() const; // compact; '<' written as \u003c
  void dump(std::string &out) const;
  // For people to read (the detection report): ", " and ": " between
  // items; a container `expand` chooses (by its depth, 0 at the top, and the
  // key it is under, "" for an array's items) has one member per line,
  // indented two spaces a level, any other is written on one line with all
  // it holds. Strings get the escapes JSON requires, nothing for HTML.
  using Expand = std::function<bool(int depth, const std::string &key)>;
  std::string dumpReadable(const Expand &expand) const;

private:
  void dumpReadable(const Expand &expand, int depth, const std::string &key,
                    std::string &out) const;

  Type type_ = Type::Null;
  bool bool_ = false;
  std::string text_; // number text or string
  std::vector<Json> items_;
  std::vector<std::pair<std::string, Json>> members_;
};

// Parses text; on failure returns false and says where and why in `error`
// ("line 3, column 7: expected ':'").
bool parseJson(const std::string &text, Json &out, std::string &error);
// Reads and parses a file; errors name the file ("F: cannot read",
// "F: not valid JSON: line 3, column 7: ...").
bool readJsonFile(const std::string &path, Json &out, std::string &error);

// For writers that build JSON text themselves: a quoted string with JSON
// escapes, and a number with 6 significant digits (NaN and inf are null).
std::string jsonQuote(const std::string &s);
std::string jsonNumber(double v);

} // namespace cz::json
