// detection_report_fuzz.cpp: a detection report (detector/REPORT_FORMAT.md)
// as `collectivize rewrite` reads it (llvm::json, every field checked): a
// hand-edited or foreign report gives an error or marks its matches
// malformed, never more.
#include <cstdint>
#include <string>

#include "collectivize/rewrite/DetectionReport.h"
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  cz::rewrite::DetectionReport report;
  std::string err;
  if (!cz::rewrite::parseDetectionReport(text, "report.json", report, err)) {
    cz::fuzz::require(!err.empty(), "refused a report without saying why");
    return 0;
  }
  for (const cz::rewrite::DetectedMatch &m : report.matches) {
    if (!m.malformed.empty()) continue;
    // What the rewriter relies on for a well-formed match.
    cz::fuzz::require(!m.sites.empty(), "a well-formed match without sites");
    cz::fuzz::require(m.root < int(m.ranks.size()) || m.ranks.empty(), "a root outside the group");
    cz::fuzz::require(m.count >= 0, "a negative count");
  }
  return 0;
}
