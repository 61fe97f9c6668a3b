// report_json_fuzz.cpp: the tools' JSON model (support/json), which reads
// detection reports for `collectivize verify` and `collectivize report`,
// patch indexes and verification results: parse, write back, parse again
// (the same document), and the verifier's reading of a detection report.
#include <cstdint>
#include <string>

#include "collectivize/json.h"
#include "fuzz_support.h"
#include "retrace.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string text(reinterpret_cast<const char *>(data), size);
  cz::json::Json doc;
  std::string err;
  if (cz::json::parseJson(text, doc, err)) {
    std::string written = doc.dump(), again;
    cz::json::Json back;
    cz::fuzz::require(cz::json::parseJson(written, back, err), "its own output does not parse");
    back.dump(again);
    cz::fuzz::require(again == written, "writing is not stable");
  } else {
    cz::fuzz::require(!err.empty(), "refused JSON without saying why");
  }
  cz::verify::TraceFindings findings;
  std::string why;
  if (!cz::verify::parseDetectionReport(text, "report.json", findings, why))
    cz::fuzz::require(!why.empty(), "refused a report without saying why");
  return 0;
}
