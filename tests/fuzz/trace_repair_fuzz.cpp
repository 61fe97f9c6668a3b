// trace_repair_fuzz.cpp: `collectivize trace repair` on the directory a
// killed run leaves: the manifest, then per rank its event log, ring and
// saved communicators (input parts, in that order: see splitParts; a part
// that is absent is a file that does not exist). When repair succeeds, the
// trace must open and give back every event repair says it recovered:
// nothing recorded is lost, and nothing unreadable is written.
#include <cstdint>
#include <string>

#include "collectivize/trace_reader.h"
#include "fuzz_support.h"
#include "otf2_validate.h"

using namespace cz::trace;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static cz::fuzz::Scratch scratch;
  std::vector<std::string> parts = cz::fuzz::splitParts(data, size);
  // Two ranks at most keep every input fast; the manifest decides how many.
  if (parts.size() > 7) return 0;
  // A manifest's rank count is the run's (repair writes files for each):
  // keep it small here, where the input invents it.
  auto manifest = cz::trace::detail::parseManifest(parts[0], "manifest");
  if (manifest && manifest->ranks > 8) return 0;
  scratch.clear();
  scratch.write("collectivize-trace.txt", parts[0]);
  static const char *const kFiles[] = {"rank-0.log", "rank-0.ring", "rank-0.comms",
                                       "rank-1.log", "rank-1.ring", "rank-1.comms"};
  for (size_t i = 1; i < parts.size(); i++) scratch.write(kFiles[i - 1], parts[i]);

  Result<RepairReport> report = repair(scratch.path());
  if (!report) {
    cz::fuzz::require(!report.error().message().empty(), "refused without saying why");
    return 0;
  }
  cz::fuzz::require(report->ranks.size() <= 64, "repaired more ranks than the manifest allows here");
  Result<Trace> trace = Trace::open(scratch.path());
  cz::fuzz::require(trace.ok(), "a repaired trace does not open");
  for (const RankRepair &r : report->ranks) {
    Result<uint64_t> n = trace->forEachEvent(r.rank, [](const Event &) { return true; });
    cz::fuzz::require(n.ok(), "a repaired rank's events cannot be read");
    cz::fuzz::require(*n == r.events, "repair reports other events than the trace holds");
  }
  return 0;
}
