// compare.cpp: see compare.h.
#include "compare.h"

#include <algorithm>
#include <map>
#include <sstream>

namespace cz::verify {

std::vector<std::string> normalizeOutput(const std::string &text, const OutputFilter &filter,
                                         int *ignored, std::vector<std::string> *ignoredLines) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  int dropped = 0;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    bool skip = false;
    for (const std::regex &re : filter.ignore)
      if (std::regex_search(line, re)) {
        skip = true;
        break;
      }
    if (skip) {
      dropped++;
      if (ignoredLines) ignoredLines->push_back(line);
      continue;
    }
    lines.push_back(line);
  }
  if (!filter.ordered) std::sort(lines.begin(), lines.end());
  if (ignored) *ignored = dropped;
  return lines;
}

std::string describeDifference(const std::vector<std::string> &original,
                               const std::vector<std::string> &patched, bool ordered,
                               size_t maxLines) {
  if (original == patched) return "";
  // Lines one side has more often than the other.
  std::map<std::string, long> balance;
  for (const std::string &l : original) balance[l]++;
  for (const std::string &l : patched) balance[l]--;
  std::vector<std::string> out;
  size_t differing = 0;
  auto emit = [&](const std::vector<std::string> &lines, char sign) {
    std::map<std::string, long> left = balance;
    for (const std::string &l : lines) {
      long &b = left[l];
      if ((sign == '-' && b > 0) || (sign == '+' && b < 0)) {
        b += sign == '-' ? -1 : 1;
        differing++;
        if (out.size() < maxLines) out.push_back(std::string(1, sign) + " " + l);
      }
    }
  };
  emit(original, '-');
  emit(patched, '+');
  std::string text;
  if (differing == 0 && ordered) {
    size_t k = 0;
    while (k < original.size() && k < patched.size() && original[k] == patched[k]) k++;
    return "the same lines in another order (first difference at line " + std::to_string(k + 1) +
           ")";
  }
  for (const std::string &l : out) text += (text.empty() ? "" : "\n") + l;
  if (differing > out.size())
    text += "\n(" + std::to_string(differing - out.size()) + " more differing lines)";
  return text;
}

bool compileIgnorePatterns(const std::vector<std::string> &patterns, OutputFilter &filter,
                           std::string &error) {
  for (const std::string &p : patterns) {
    try {
      filter.ignore.emplace_back(p, std::regex::ECMAScript);
    } catch (const std::regex_error &e) {
      error = "--ignore '" + p + "' is not a valid regular expression (" + e.what() + ")";
      return false;
    }
  }
  return true;
}

} // namespace cz::verify
