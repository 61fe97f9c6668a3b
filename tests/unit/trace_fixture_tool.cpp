// trace_fixture_tool.cpp: `cz_trace_fixture DIR [--missing-done R]...` writes
// the standard 2-rank fixture trace (for lit tests of `collectivize trace`).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "trace_fixture_writer.h"

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: cz_trace_fixture DIR [--missing-done RANK]... [--no-manifest] [--bulk N] [--chunk-size BYTES]\n");
    return 2;
  }
  cz::trace::fixture::FixtureSpec spec = cz::trace::fixture::standardSpec();
  spec.done.assign(spec.ranks, true);
  for (int i = 2; i < argc; i++) {
    if (std::strcmp(argv[i], "--missing-done") == 0 && i + 1 < argc) {
      int r = std::atoi(argv[++i]);
      if (r >= 0 && r < spec.ranks) spec.done[r] = false;
    } else if (std::strcmp(argv[i], "--bulk") == 0 && i + 1 < argc) {
      cz::trace::fixture::addBulkMessages(spec, std::atoi(argv[++i]));
    } else if (std::strcmp(argv[i], "--chunk-size") == 0 && i + 1 < argc) {
      spec.eventChunkSize = std::strtoull(argv[++i], nullptr, 10);
    } else if (std::strcmp(argv[i], "--no-manifest") == 0) {
      spec.writeManifest = false;
    } else {
      std::fprintf(stderr, "cz_trace_fixture: unknown option '%s'\n", argv[i]);
      return 2;
    }
  }
  std::string err = cz::trace::fixture::writeFixture(argv[1], spec);
  if (!err.empty()) {
    std::fprintf(stderr, "cz_trace_fixture: %s\n", err.c_str());
    return 1;
  }
  return 0;
}
