// DetectionReport.h: the part of the detector's JSON report
// (detector/REPORT_FORMAT.md) the rewriter needs. Read through the
// documented file only: the rewriter never links the detector.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "llvm/ADT/StringRef.h"

namespace cz::rewrite {

struct MatchSite {
  uint64_t id = 0;
  bool instrumenter = true; // else a return address
  bool send = true;         // role
  std::string file;         // as reported (root-relative for instrumenter ids)
  int line = 0, column = 0;
  std::string function, callee;
  // The call is in the program's own wrapper of it (report revision 1.8):
  // where the wrapper was called from. callerFile empty: no caller.
  std::string callerFile, callerFunction;
  int callerLine = 0;
};

struct DetectedMatch {
  size_t index = 0; // position in the report's matches
  std::string kind; // a kind of support/kinds/collective_kinds.def
  bool confirmed = false;
  std::string status;                // "confirmed", "ambiguous", "partial"
  std::vector<std::string> unproven; // ambiguous: what the trace does not prove
  int root = -1;      // rank in `ranks`; -1 for rootless kinds or a root that varies
  std::vector<int> roots; // a root that changes from instance to instance: every one
  int rootWorld = -1;
  std::string commName;
  std::string commCreatedAt;           // "file:line" of the call that made it, if known
  static constexpr long long kNoColor = -(1ll << 40);
  long long commColor = kNoColor;      // MPI_Comm_split's color, if known
  std::vector<int> ranks;
  bool subset = false;
  std::vector<int> splitColors; // empty: no split given
  long long instances = 0, messages = 0, bytesPerInstance = 0, bytesMoved = 0;
  double secondsInMessages = 0;
  long long count = 0;
  // gatherv, scatterv, allgatherv: each member's elements in the order of
  // ranks, -1 where the trace did not see them; empty when not reported.
  std::vector<int> counts;
  std::string datatype, op, equivalent, note;
  // Allgather: "rotated" or "permuted" when the receivers keep the blocks
  // in another order than MPI_Allgather's rank order; "" otherwise.
  std::string recvLayout;
  std::string sendLayout; // alltoall: the senders' blocks not in rank order
  std::vector<MatchSite> sites;
  // Why this entry of the report cannot be used, naming the field
  // ("\"count\" is \"four\", not a non-negative integer"); "" when well-formed.
  std::string malformed;
};

struct DetectionReport {
  std::string path;  // absolute
  std::string trace, command, sites; // sites: the site database given to detect, or ""
  int ranks = 0;
  std::vector<DetectedMatch> matches;
};

// false + err (naming the file and the problem) on unreadable or
// newer-version input, or a report whose frame (format, version, matches)
// is malformed. A malformed match does not refuse the file: its
// `malformed` says what is wrong.
bool readDetectionReport(const std::string &path, DetectionReport &out, std::string &err);
// The same from the report's text (`path` names it in errors and becomes
// DetectionReport::path, made absolute).
bool parseDetectionReport(llvm::StringRef text, const std::string &path, DetectionReport &out,
                          std::string &err);

} // namespace cz::rewrite
