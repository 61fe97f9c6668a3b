// json.h: the little JSON the verifier reads (patches.json, detection
// reports) and writes (NN-KIND.verify.json). A DOM of at most a few MB;
// numbers keep their text so 64-bit values are not rounded.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace cz::verify {

struct Json {
  enum class Type { Null, Bool, Number, String, Array, Object };
  Type type = Type::Null;
  bool boolean = false;
  double number = 0;
  std::string text; // a string's value, or a number as written
  std::vector<Json> items;                           // array
  std::vector<std::pair<std::string, Json>> members; // object, in file order

  // Member lookup: nullptr when absent or when this is not an object.
  const Json *find(const std::string &key) const;
  std::string str(const std::string &key, const std::string &otherwise = "") const;
  double num(const std::string &key, double otherwise = 0) const;
  bool isNull() const { return type == Type::Null; }
};

// Parses text; on failure returns false and says where in `error`.
bool parseJson(const std::string &text, Json &out, std::string &error);
// Reads and parses a file; errors name the file.
bool readJsonFile(const std::string &path, Json &out, std::string &error);

// Writing: a string literal with JSON escapes, and a number (shortest
// round-trip-ish, never NaN/inf: those become null).
std::string jsonQuote(const std::string &s);
std::string jsonNumber(double v);

} // namespace cz::verify
