// clang_site_database_fuzz.cpp: the site database as the instrumenter and
// the rewriter read it (llvm::json, every record checked) and merge into
// it: what it accepts must write back and read again as the same records.
#include <cstdint>
#include <string>

#include "collectivize/clang/SiteDatabase.h"
#include "fuzz_support.h"

using namespace cz::clangtools;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  SiteDatabase db;
  std::string err;
  if (!fromJson(text, db, err)) {
    cz::fuzz::require(!err.empty(), "refused without saying why");
    return 0;
  }
  std::string written = toJson(db);
  SiteDatabase back;
  cz::fuzz::require(fromJson(written, back, err), "its own output does not read back");
  cz::fuzz::require(back.sites.size() == db.sites.size(), "records lost in a round trip");
  cz::fuzz::require(toJson(back) == written, "writing is not stable");
  // Merging the records into an empty database keeps one per id.
  SiteDatabase merged;
  mergeSites(merged, db.sites);
  cz::fuzz::require(merged.sites.size() <= db.sites.size(), "a merge invented records");
  return 0;
}
