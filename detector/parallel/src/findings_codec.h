// findings_codec.h: one process's window findings as bytes, for process 0
// (windows_at_owners.cpp): per window its index and findings, the call
// sites its symbolization resolved, and the instrumenter site ids its
// messages name.
#pragma once

#include <string>
#include <vector>

#include "collectivize/detect.h"
#include "collectivize/report.h"

namespace cz::detect::parallel::detail {

struct ProcessFindings {
  std::vector<std::pair<uint64_t, std::vector<Finding>>> windows; // (window, findings)
  SiteLocations sites;
  std::string symbolizeProblem;
  std::vector<uint64_t> instrumenterSites;
};

void encode(const ProcessFindings &f, std::vector<char> &out);
// False (with why) when the bytes are not what encode writes.
bool decode(const char *data, size_t size, ProcessFindings &f, std::string &why);

} // namespace cz::detect::parallel::detail
