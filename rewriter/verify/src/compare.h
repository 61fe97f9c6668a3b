// compare.h: is the patched program's output the original's? Ranks print
// through mpirun in whatever order they get there, so outputs are compared
// as multisets of lines unless the caller asks for order; lines matching an
// --ignore pattern (timings, dates, pids) are dropped first.
#pragma once

#include <regex>
#include <string>
#include <vector>

namespace cz::verify {

struct OutputFilter {
  std::vector<std::regex> ignore;
  bool ordered = false;
};

// The text's lines without ignored ones (counted in *ignored, collected in
// *ignoredLines), sorted unless filter.ordered.
std::vector<std::string> normalizeOutput(const std::string &text, const OutputFilter &filter,
                                         int *ignored = nullptr,
                                         std::vector<std::string> *ignoredLines = nullptr);

// What differs between two normalized outputs, for people: up to maxLines
// lines "- only in the original" / "+ only in the patched"; "" when equal.
std::string describeDifference(const std::vector<std::string> &original,
                               const std::vector<std::string> &patched, bool ordered,
                               size_t maxLines = 6);

// Compiles --ignore patterns (ECMAScript); false with the bad pattern named.
bool compileIgnorePatterns(const std::vector<std::string> &patterns, OutputFilter &filter,
                           std::string &error);

} // namespace cz::verify
