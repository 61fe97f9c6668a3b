// trace_reader.h: reading a Collectivize trace directory (the format is
// runtime/trace/format/collectivize_trace_format.h): the manifest, the OTF2 global
// definitions and the events of each rank, in order, as plain structs.
//
// Nothing here throws or exits: every fallible call returns a Result. An
// incomplete trace (a rank without rank-N.done, a missing or truncated .evt
// file) opens fine and lists what is missing in Trace::problems(); a corrupt
// file makes the call that meets it fail with file, offset and reason. Every
// OTF2 file is validated before OTF2 sees it, and event reading is bounded,
// so a damaged trace cannot hang the reader.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "collectivize_trace_format.h"

namespace cz::trace {

// ---- errors -----------------------------------------------------------------

struct Error {
  std::string file;     // the file at fault ("" if none in particular)
  int64_t offset = -1;  // byte offset in it, -1 when not knowable
  std::string reason;
  // "FILE: offset N: REASON" (parts omitted when empty/unknown).
  std::string message() const;
};

template <class T>
class Result {
public:
  Result(T value) : value_(std::move(value)) {}
  Result(Error error) : error_(std::move(error)) {}
  bool ok() const { return value_.has_value(); }
  explicit operator bool() const { return ok(); }
  T &value() { return *value_; }
  const T &value() const { return *value_; }
  T &operator*() { return *value_; }
  T *operator->() { return &*value_; }
  const Error &error() const { return error_; }

private:
  std::optional<T> value_;
  Error error_;
};

// ---- events -----------------------------------------------------------------

enum class EventKind {
  Send,             // MpiSend
  Isend,            // MpiIsend
  IsendComplete,    // MpiIsendComplete
  Recv,             // MpiRecv
  IrecvRequest,     // MpiIrecvRequest
  Irecv,            // MpiIrecv
  RequestCancelled, // MpiRequestCancelled
  CollectiveBegin,  // MpiCollectiveBegin
  CollectiveEnd,    // MpiCollectiveEnd
  Enter,            // Enter (communicator creation calls)
  Leave,            // Leave
};
// "send", "isend", "isend_complete", "recv", "irecv_request", "irecv",
// "request_cancelled", "collective_begin", "collective_end", "enter", "leave".
const char *eventKindName(EventKind kind);

constexpr uint32_t kNoComm = 0xffffffffu; // OTF2_UNDEFINED_COMM
constexpr uint32_t kCommNull = 0xffffffffu; // CZ_TRACE_ATTR_NEW_COMM for MPI_COMM_NULL

// The Event member of each attribute of CZ_TRACE_ATTRIBUTES: an optional
// of its OTF2 type's C++ type (signed when the dump shows it SIGNED: an
// int written as UINT32); RETURN_ADDRESS (WITH_SITE) shares SITE's member.
#define CZ_EVENT_VALUE_UINT8 uint8_t
#define CZ_EVENT_VALUE_UINT32 uint32_t
#define CZ_EVENT_VALUE_UINT64 uint64_t
#define CZ_EVENT_VALUE_COMM uint32_t
#define CZ_EVENT_MEMBER(id, type, member, shown, description) \
  CZ_EVENT_MEMBER_##shown(member, CZ_EVENT_VALUE_##type)
#define CZ_EVENT_OPTIONAL(member, value) std::optional<value> member;
#define CZ_EVENT_MEMBER_HEX CZ_EVENT_OPTIONAL
#define CZ_EVENT_MEMBER_HEX_FIXED CZ_EVENT_OPTIONAL
#define CZ_EVENT_MEMBER_DECIMAL CZ_EVENT_OPTIONAL
#define CZ_EVENT_MEMBER_DATATYPE CZ_EVENT_OPTIONAL
#define CZ_EVENT_MEMBER_FLAG CZ_EVENT_OPTIONAL
#define CZ_EVENT_MEMBER_COMM CZ_EVENT_OPTIONAL
#define CZ_EVENT_MEMBER_SITE CZ_EVENT_OPTIONAL
#define CZ_EVENT_MEMBER_WITH_PEER CZ_EVENT_OPTIONAL
#define CZ_EVENT_MEMBER_SIGNED(member, value) std::optional<std::make_signed_t<value>> member;
#define CZ_EVENT_MEMBER_WITH_SITE(member, value)

struct Event {
  EventKind kind = EventKind::Send;
  int rank = 0;            // world rank (= OTF2 location) that recorded it
  // OTF2 time (CLOCK_MONOTONIC ns) on rank 0's clock: the rank's own
  // clock plus its clock offset (LocationDef::clockOffsets, interpolated),
  // unless ReadOptions::rawTimestamps.
  uint64_t timestamp = 0;
  // Peer of a send/recv (receiver or sender) or root of a collective, as a
  // rank in `comm`; absent for records without one (and for collectives
  // with no root: OTF2_UNDEFINED_UINT32).
  std::optional<uint32_t> peer;
  uint32_t comm = kNoComm;          // OTF2 comm ref
  uint32_t tag = 0;                 // send/recv
  uint64_t bytes = 0;               // send/recv; collectives: bytes sent
  uint64_t bytesReceived = 0;       // collectives only
  std::optional<uint64_t> request;  // isend/isend_complete/irecv*/cancelled
  uint32_t collectiveOp = 0;        // OTF2_CollectiveOp, collective_end
  uint32_t region = 0;              // enter/leave: OTF2 region ref
  // Collectivize attributes (absent when the record does not carry them),
  // one member per line of CZ_TRACE_ATTRIBUTES, named in its MEMBER column
  // (collectivize_trace_format.h says what each holds). peerWorld, when
  // the record omits it, is translated through the communicator's group
  // when that is defined.
  CZ_TRACE_ATTRIBUTES(CZ_EVENT_MEMBER)
  // Which attribute gave `site`: 0 CZ_TRACE_ATTR_SITE (an instrumenter's
  // id), 1 CZ_TRACE_ATTR_RETURN_ADDRESS.
  std::optional<uint8_t> siteKind;

  bool operator==(const Event &o) const;
  bool operator!=(const Event &o) const { return !(*this == o); }
};

// ---- definitions ------------------------------------------------------------

struct Manifest {
  int format = 0;
  int ranks = -1;          // -1 when the manifest does not say
  int64_t started = 0;     // unix time
  std::string command;     // the traced command line
  // Site databases the program's instrumented code named ("sites" lines):
  // what detect uses when it is given none.
  std::vector<std::string> sitesDatabases;
  std::map<std::string, std::string> other; // keys this reader does not know
};

// A location's clock against rank 0's (an OTF2 ClockOffset record): rank
// 0's time = local time + offset, measured at local time `time`.
struct ClockOffset {
  uint64_t time = 0;
  int64_t offset = 0;
  double deviation = 0; // bound of the measurement's error, ns
};

struct LocationDef {
  uint64_t ref = 0;
  std::string name;
  uint32_t group = 0;
  uint64_t numberOfEvents = 0; // as the archive's definitions say
  std::string host;            // the system tree node of its group ("" if none)
  std::vector<ClockOffset> clockOffsets; // in time order (local definitions)
  // Local time t on rank 0's clock: offsets interpolated linearly between
  // records, the first or last one outside them; t itself without any.
  uint64_t toRootClock(uint64_t t) const;
};

struct CommDef {
  uint32_t ref = 0;
  std::string name;
  uint32_t parent = kNoComm;
  // World ranks in communicator rank order. Empty for a COMM_SELF group
  // (whose one member is whichever rank refers to it).
  std::vector<uint32_t> members;
  bool isSelf = false;
};

struct RegionDef {
  uint32_t ref = 0;
  std::string name;
};

struct AttributeDef {
  uint32_t ref = 0;
  std::string name;
  uint8_t type = 0; // OTF2_Type
};

struct Definitions {
  uint64_t timerResolution = 1000000000; // ticks per second
  uint64_t globalOffset = 0;             // first timestamp of the trace
  uint64_t traceLength = 0;
  std::map<uint32_t, std::string> strings;
  std::map<uint64_t, LocationDef> locations;
  std::map<uint32_t, CommDef> comms;
  std::map<uint32_t, RegionDef> regions;
  std::map<uint32_t, AttributeDef> attributes; // by ref
  std::map<std::string, uint32_t> attributeByName;

  // Member world rank of `commRank` in `comm` for an event of `rank`
  // (COMM_SELF: rank itself); nullopt if unknown.
  std::optional<uint32_t> worldRank(uint32_t comm, uint32_t commRank, int rank) const;
  std::string regionName(uint32_t region) const;
};

// Something missing from a trace that is still readable.
struct Problem {
  int rank = -1;      // the rank concerned, -1 if none in particular
  std::string file;   // the file concerned, if any
  std::string message;
};

// ---- reading ----------------------------------------------------------------

struct ReadOptions {
  // Upper bound on events handed out per rank (0: as many as the validated
  // file can hold, which is always finite). Reaching it is not an error.
  uint64_t maxEvents = 0;
  // Wall-clock bound on reading one rank (0: none); exceeding it is an error.
  double timeoutSeconds = 60.0;
  // Read through OTF2's reader even where the direct reader of the event
  // files applies (tests compare the two).
  bool otf2Only = false;
  // Timestamps as the rank's clock gave them (no clock offsets applied).
  bool rawTimestamps = false;
};

struct RankSummary {
  int rank = 0;
  uint64_t events = 0;
  bool complete = false; // rank-N.done present and the .evt file readable
};

// The manifest of the trace in DIR alone (cheap: no definitions read).
Result<Manifest> readTraceManifest(const std::string &dir);

class Trace {
public:
  // Opens DIR: reads the manifest and the global definitions, checks which
  // ranks finished. Fails (Error) on a missing directory, a directory that
  // is not a trace, or a corrupt manifest/anchor/definitions file.
  static Result<Trace> open(const std::string &dir);

  Trace(Trace &&) noexcept;
  Trace &operator=(Trace &&) noexcept;
  ~Trace();

  const std::string &directory() const;
  const Manifest &manifest() const;
  const Definitions &definitions() const;
  // Ranks: 0 .. rankCount()-1 (from the manifest, else the locations).
  int rankCount() const;
  // Ranks with a rank-N.done marker and a readable event file.
  bool rankComplete(int rank) const;
  // Upper bound on the events forEachEvent hands out for `rank` (from the
  // validated chunk headers; 0 for a missing file): for reserving memory.
  uint64_t eventBound(int rank) const;
  // Incomplete ranks, missing or truncated files, in rank order.
  const std::vector<Problem> &problems() const;

  // Calls onEvent for each event of `rank` in order; onEvent returns false
  // to stop early. Returns the number of events handed out. A rank whose
  // event file is missing yields no events (it is named in problems()).
  Result<uint64_t> forEachEvent(int rank, const std::function<bool(const Event &)> &onEvent,
                                const ReadOptions &options = {}) const;
  // All events of `rank`, in order.
  Result<std::vector<Event>> loadRank(int rank, const ReadOptions &options = {}) const;

  // Microseconds since the trace's global offset.
  double microsecondsSinceStart(uint64_t timestamp) const;

  struct Impl; // opaque

private:
  explicit Trace(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// Events per rank (reads every rank once) and whether each is complete.
Result<std::vector<RankSummary>> summarize(const Trace &trace, const ReadOptions &options = {});

// ---- repairing the trace of a run that was killed ----------------------------

struct RankRepair {
  int rank = 0;
  bool finished = false; // rank-N.done: its N.evt is left as it was
  bool logFile = false;  // rank-N.log or rank-N.ring was there
  uint64_t events = 0;   // in N.evt (finished) or recovered from the log
  std::string fate;      // what happened to it (unfinished ranks), in words
  bool completed = false; // it reached MPI_Finalize with every record kept:
                          // repair wrote its rank-N.done
};
struct RepairReport {
  std::vector<RankRepair> ranks;
  size_t communicators = 0; // definitions recovered from rank-N.comms
  // Nothing was done: the trace was repaired before, at this unix time.
  int64_t alreadyRepaired = 0;
};

// Makes the trace of a run that did not reach MPI_Finalize (no anchor)
// readable: encodes each unfinished rank's event records (rank-N.ring and
// rank-N.log) into its .evt file, writes the definitions and the anchor,
// removes those files and
// notes "repaired" in the manifest. Every event recorded before the
// process died is kept. Fails without changing anything on a finished
// trace or a directory that is not a trace.
Result<RepairReport> repair(const std::string &dir);

// Name of a CZ_TRACE_TYPE_* code without the MPI_ prefix ("INT"; "derived").
const char *datatypeName(uint32_t code);
// The MPI call an OTF2 collective op records ("MPI_Bcast"; nonblocking forms
// share their blocking form's op), or "" for ops that are not MPI calls.
std::string collectiveCallName(uint32_t op);

// One readable line for an event (the format of `collectivize trace dump`):
// rank 0  t=12.345us  send  to 1 (world 1) comm 0 tag 7 bytes 64 crc32=0x...
std::string formatEvent(const Trace &trace, const Event &event);

} // namespace cz::trace
