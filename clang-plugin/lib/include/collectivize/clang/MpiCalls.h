// MpiCalls.h: which MPI functions are call sites, of what kind, and whether
// the tracer (runtime/trace) takes a site id for them.
#pragma once

#include "llvm/ADT/StringRef.h"

namespace cz::clangtools {

enum class CallKind { PointToPoint, Completion, Collective, Communicator };

struct MpiFunction {
  const char *name;  // "MPI_Send"
  CallKind kind;
  // True when the tracer's wrapper consumes the id given by cz_trace_site()
  // (it records a message or collective with it). Ids are reported only
  // before these calls: a pending id that nothing consumes would be taken
  // by the next traced call of the thread and misattribute it.
  bool traced;
};

// The entry for an MPI function name, or nullptr if it is not a site.
const MpiFunction *classifyMpiCall(llvm::StringRef name);
// "p2p", "completion", "collective", "comm".
const char *callKindName(CallKind kind);

} // namespace cz::clangtools
