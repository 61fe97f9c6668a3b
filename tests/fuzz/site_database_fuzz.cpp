// site_database_fuzz.cpp: the instrumenter's site database
// (clang-plugin/SITE_DATABASE.md) as the detector reads it for
// `collectivize detect --sites` (support/json, only the fields it uses).
#include <cstdint>
#include <string>

#include "collectivize/site_database.h"
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string text(reinterpret_cast<const char *>(data), size);
  auto sites = cz::detect::parseSiteDatabase(text, "sites.json");
  if (!sites) cz::fuzz::require(!sites.error().message().empty(), "refused without saying why");
  return 0;
}
