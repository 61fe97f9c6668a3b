// trace_manifest_fuzz.cpp: a trace's manifest (collectivize-trace.txt,
// "key value" lines), read as Trace::open and `trace repair` read it.
#include <cstdint>
#include <string>

#include "fuzz_support.h"
#include "otf2_validate.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string text(reinterpret_cast<const char *>(data), size);
  auto m = cz::trace::detail::parseManifest(text, "collectivize-trace.txt");
  if (m) {
    cz::fuzz::require(m->format >= 1, "accepted a manifest without a format");
    cz::fuzz::require(m->ranks == -1 || m->ranks >= 1, "accepted a rank count below 1");
  } else {
    cz::fuzz::require(!m.error().message().empty(), "refused a manifest without saying why");
  }
  return 0;
}
