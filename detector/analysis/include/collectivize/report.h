// report.h: the detection report, as JSON (the documented file the
// rewriter reads: detector/REPORT_FORMAT.md) and as text for people.
#pragma once

#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "collectivize/detect.h"

namespace cz::detect {

// What a site id means in the source (from the site database).
struct SourceLocation {
  std::string file;
  int line = 0, column = 0;
  std::string function; // the enclosing function, when known
  std::string callee;   // the MPI call (site database only)
  // How each peer argument is computed (site database "peers"): "loop",
  // "table", "rank", "call", "parameter", "constant", "any".
  std::vector<std::string> peers;
  // A site of kind 2 (symbolize.h): this is the place that called the
  // program's wrapper, and wrapperSite the instrumenter id of the MPI call
  // inside the wrapper (0 for every other site).
  uint64_t wrapperSite = 0;
  // Site database "staging" (p2p sites): the copy that fills the send's
  // buffer or empties the receive's; copy "" when none.
  struct Staging {
    std::string copy; // "memcpy", "loop"
    int line = 0;
    std::string buffer, array, offset, offsetFrom;
  } staging;
  // Site database "peer_indexed" (p2p sites): the buffer is an address the
  // call's peer argument chooses (`&a[i * n]`, `bufs[i]` to rank i);
  // layout "" when not.
  struct PeerIndexed {
    std::string layout; // "offset", "row", "pointer"
    std::string buffer; // the buffer argument as written
    std::string peer;   // the peer argument as written
  } peerIndexed;
  // Site database "value_varies" (p2p sends): the buffer is a scalar
  // variable the loop around the send sets anew each iteration; variable
  // "" when not.
  struct VaryingValue {
    std::string variable;
    int line = 0;
    std::string assignment, follows;
  } varies;
  // The call's arguments as written (site database "args").
  std::vector<std::string> args;
};
using SiteLocations = std::map<uint64_t, SourceLocation>;

struct ReportContext {
  std::string traceDir;
  std::string command;           // the traced command line
  std::string sitesPath;         // the site database read, if any
  const SiteLocations *sites = nullptr;           // instrumenter ids
  const SiteLocations *returnAddresses = nullptr; // resolved return-address sites
};

constexpr int kReportVersion = 1;

void writeJson(std::ostream &out, const Report &report, const ReportContext &ctx);
void writeText(std::ostream &out, const Report &report, const ReportContext &ctx);

// "MPI_Bcast(buf, 16, MPI_INT, 0, comm)": the predefined call with the
// match's arguments (buf/comm are placeholders the rewriter fills in).
std::string equivalentCall(const Match &m);

} // namespace cz::detect
