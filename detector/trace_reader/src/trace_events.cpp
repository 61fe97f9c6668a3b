// trace_events.cpp: a rank's events, through the direct reader where the
// file allows it and through OTF2 otherwise, bounded by the event counts
// the validated chunk headers give; per-rank summaries.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <functional>
#include <optional>

#include <otf2/otf2.h>

#include "collectivize/trace_reader.h"
#include "collectivize_trace_format.h"
#include "evt_direct.h"
#include "otf2_validate.h"
#include "trace_impl.h"

namespace cz::trace {
using namespace detail;

namespace {

struct ReadCtx {
  const Trace::Impl *impl;
  int rank;
  const std::function<bool(const Event &)> *onEvent;
  uint64_t delivered = 0;
  uint64_t max = 0;
  bool stopped = false;
  uint64_t skip = 0; // events to pass over (handed out already)
  // Whose clock offsets put the timestamps on rank 0's clock (none: raw).
  const LocationDef *location = nullptr;
};

bool asUnsigned(OTF2_Type type, const OTF2_AttributeValue &v, uint64_t &out) {
  switch (type) {
  case OTF2_TYPE_UINT8: out = v.uint8; return true;
  case OTF2_TYPE_UINT16: out = v.uint16; return true;
  case OTF2_TYPE_UINT32: out = v.uint32; return true;
  case OTF2_TYPE_UINT64: out = v.uint64; return true;
  case OTF2_TYPE_COMM: out = v.commRef; return true;
  case OTF2_TYPE_INT8: out = uint64_t(int64_t(v.int8)); return true;
  case OTF2_TYPE_INT16: out = uint64_t(int64_t(v.int16)); return true;
  case OTF2_TYPE_INT32: out = uint64_t(int64_t(v.int32)); return true;
  case OTF2_TYPE_INT64: out = uint64_t(v.int64); return true;
  default: return false;
  }
}

// The attribute's value in its Event member's type (COLOR, an int written
// as UINT32, becomes negative again).
template <class T>
void assign(std::optional<T> &member, uint64_t v) {
  member = T(v);
}

// (Inlined: called for every attribute of every event.)
__attribute__((always_inline)) inline void applyAttribute(const Trace::Impl &impl, Event &e, uint32_t ref,
                                                          uint64_t v) {
  AttrKey key = impl.attrKey(ref);
  switch (key) {
#define CZ_APPLY_ATTRIBUTE(id, type, member, shown, description) \
  case K_##id: assign(e.member, v); break;
    CZ_TRACE_ATTRIBUTES(CZ_APPLY_ATTRIBUTE)
#undef CZ_APPLY_ATTRIBUTE
  default: return;
  }
  if (key == K_SITE) e.siteKind = 0;
  if (key == K_RETURN_ADDRESS) e.siteKind = 1;
}

// Hands an event whose record fields and attributes are set to the
// caller; false: stop reading.
bool handOut(ReadCtx &c, Event &e) {
  e.rank = c.rank;
  if (c.location) e.timestamp = c.location->toRootClock(e.timestamp);
  if (e.peer && !e.peerWorld) e.peerWorld = c.impl->defs.worldRank(e.comm, *e.peer, c.rank);
  if (c.skip) { // already handed out by the direct reader
    c.skip--;
    return true;
  }
  c.delivered++;
  if (!(*c.onEvent)(e) || (c.max && c.delivered >= c.max)) {
    c.stopped = true;
    return false;
  }
  return true;
}

OTF2_CallbackCode deliver(ReadCtx &c, Event &e, OTF2_AttributeList *attrs, uint64_t time) {
  e.timestamp = time;
  uint32_t n = attrs ? OTF2_AttributeList_GetNumberOfElements(attrs) : 0;
  for (uint32_t i = 0; i < n; i++) {
    OTF2_AttributeRef ref;
    OTF2_Type type;
    OTF2_AttributeValue value;
    if (OTF2_AttributeList_GetAttributeByIndex(attrs, i, &ref, &type, &value) != OTF2_SUCCESS)
      continue;
    uint64_t v;
    if (asUnsigned(type, value, v)) applyAttribute(*c.impl, e, ref, v);
  }
  return handOut(c, e) ? OTF2_CALLBACK_SUCCESS : OTF2_CALLBACK_INTERRUPT;
}

// The direct reader's sink (evt_direct.h).
bool deliverDirect(void *u, Event &e, const DirectAttribute *attrs, size_t n) {
  ReadCtx &c = *static_cast<ReadCtx *>(u);
  for (size_t i = 0; i < n; i++) applyAttribute(*c.impl, e, attrs[i].ref, attrs[i].value);
  return handOut(c, e);
}

ReadCtx &ctxOf(void *u) { return *static_cast<ReadCtx *>(u); }
std::optional<uint32_t> peerOf(uint32_t p) {
  return p == OTF2_UNDEFINED_UINT32 ? std::nullopt : std::optional<uint32_t>(p);
}

// A point-to-point record (peer: receiver of sends, sender of receives).
OTF2_CallbackCode message(void *u, OTF2_AttributeList *a, OTF2_TimeStamp t, EventKind kind,
                          uint32_t peer, OTF2_CommRef comm, uint32_t tag, uint64_t len,
                          std::optional<uint64_t> req) {
  Event e;
  e.kind = kind, e.peer = peerOf(peer), e.comm = comm, e.tag = tag, e.bytes = len;
  e.request = req;
  return deliver(ctxOf(u), e, a, t);
}
OTF2_CallbackCode evSend(OTF2_LocationRef, OTF2_TimeStamp t, uint64_t, void *u,
                         OTF2_AttributeList *a, uint32_t to, OTF2_CommRef comm, uint32_t tag,
                         uint64_t len) {
  return message(u, a, t, EventKind::Send, to, comm, tag, len, std::nullopt);
}
OTF2_CallbackCode evIsend(OTF2_LocationRef, OTF2_TimeStamp t, uint64_t, void *u,
                          OTF2_AttributeList *a, uint32_t to, OTF2_CommRef comm, uint32_t tag,
                          uint64_t len, uint64_t req) {
  return message(u, a, t, EventKind::Isend, to, comm, tag, len, req);
}
OTF2_CallbackCode evRecv(OTF2_LocationRef, OTF2_TimeStamp t, uint64_t, void *u,
                         OTF2_AttributeList *a, uint32_t from, OTF2_CommRef comm, uint32_t tag,
                         uint64_t len) {
  return message(u, a, t, EventKind::Recv, from, comm, tag, len, std::nullopt);
}
OTF2_CallbackCode evIrecv(OTF2_LocationRef, OTF2_TimeStamp t, uint64_t, void *u,
                          OTF2_AttributeList *a, uint32_t from, OTF2_CommRef comm, uint32_t tag,
                          uint64_t len, uint64_t req) {
  return message(u, a, t, EventKind::Irecv, from, comm, tag, len, req);
}
template <EventKind K>
OTF2_CallbackCode evRequest(OTF2_LocationRef, OTF2_TimeStamp t, uint64_t, void *u,
                            OTF2_AttributeList *a, uint64_t req) {
  Event e;
  e.kind = K, e.request = req;
  return deliver(ctxOf(u), e, a, t);
}
OTF2_CallbackCode evCollBegin(OTF2_LocationRef, OTF2_TimeStamp t, uint64_t, void *u,
                              OTF2_AttributeList *a) {
  Event e;
  e.kind = EventKind::CollectiveBegin;
  return deliver(ctxOf(u), e, a, t);
}
OTF2_CallbackCode evCollEnd(OTF2_LocationRef, OTF2_TimeStamp t, uint64_t, void *u,
                            OTF2_AttributeList *a, OTF2_CollectiveOp op, OTF2_CommRef comm,
                            uint32_t root, uint64_t sent, uint64_t received) {
  Event e;
  e.kind = EventKind::CollectiveEnd, e.collectiveOp = op, e.comm = comm, e.peer = peerOf(root);
  e.bytes = sent, e.bytesReceived = received;
  return deliver(ctxOf(u), e, a, t);
}
template <EventKind K>
OTF2_CallbackCode evRegion(OTF2_LocationRef, OTF2_TimeStamp t, uint64_t, void *u,
                           OTF2_AttributeList *a, OTF2_RegionRef region) {
  Event e;
  e.kind = K, e.region = region;
  return deliver(ctxOf(u), e, a, t);
}

} // namespace

Result<uint64_t> Trace::forEachEvent(int rank, const std::function<bool(const Event &)> &onEvent,
                                     const ReadOptions &options) const {
  if (rank < 0 || rank >= rankCount())
    return Error{impl_->dir, -1,
                 "no rank " + std::to_string(rank) + " in this trace (ranks 0.." +
                     std::to_string(rankCount() - 1) + ")"};
  const RankFiles &f = impl_->ranks[rank];
  if (f.evt.state == FileState::Missing) return uint64_t(0);
  // The bound: events in the whole chunks of the validated file. OTF2 is
  // never asked for more, so it never reaches a truncated chunk.
  uint64_t bound = f.evt.readableEvents;
  if (bound == 0) return uint64_t(0);

  ReadCtx ctx{impl_.get(), rank, &onEvent, 0, options.maxEvents, false};
  auto loc = impl_->defs.locations.find(uint64_t(rank));
  // Ranks on rank 0's node have offsets of exactly 0: nothing to apply.
  if (!options.rawTimestamps && loc != impl_->defs.locations.end())
    for (const ClockOffset &o : loc->second.clockOffsets)
      if (o.offset != 0) ctx.location = &loc->second;
  // The event file is read directly (evt_direct.h), its references as
  // written: the tracer's local definitions hold nothing but the
  // communicator mapping, which this reader does not apply (above). What
  // the direct reader leaves, OTF2 reads.
  if (!options.otf2Only && f.def.state != FileState::Corrupt) {
    detail::DirectRead d = detail::readEventsDirect(f.evtPath, impl_->evtChunk, bound, deliverDirect, &ctx);
    if (d.complete) return ctx.delivered;
    ctx.skip = d.handedOut; // (ctx.delivered counts them already)
    ctx.stopped = false;
  }

  Otf2Errors errors;
  ReaderPtr reader(OTF2_Reader_Open(impl_->anchor.c_str()));
  if (!reader) return Error{impl_->anchor, -1, "cannot reopen the archive: " + errors.describe(OTF2_ERROR_INVALID)};
  OTF2_Reader *r = reader.get();
  OTF2_Reader_SetSerialCollectiveCallbacks(r);
  OTF2_Reader_SelectLocation(r, uint64_t(rank));
  if (f.def.state == FileState::Complete && OTF2_Reader_OpenDefFiles(r) == OTF2_SUCCESS) {
    if (OTF2_DefReader *dr = OTF2_Reader_GetDefReader(r, uint64_t(rank))) {
      uint64_t n = 0;
      OTF2_Reader_ReadAllLocalDefinitions(r, dr, &n);
      OTF2_Reader_CloseDefReader(r, dr);
    }
    OTF2_Reader_CloseDefFiles(r);
  }
  if (OTF2_ErrorCode ec = OTF2_Reader_OpenEvtFiles(r); ec != OTF2_SUCCESS)
    return Error{f.evtPath, -1, "cannot open: " + errors.describe(ec)};
  OTF2_EvtReader *er = OTF2_Reader_GetEvtReader(r, uint64_t(rank));
  if (!er) return Error{f.evtPath, -1, "cannot open: " + errors.describe(OTF2_ERROR_INVALID)};
  OTF2_EvtReader_ApplyMappingTables(er, false); // event refs, as the definitions are keyed
  OTF2_EvtReader_ApplyClockOffsets(er, false);   // applied like the direct reader's (handOut)

  OTF2_EvtReaderCallbacks *cb = OTF2_EvtReaderCallbacks_New();
  OTF2_EvtReaderCallbacks_SetMpiSendCallback(cb, evSend);
  OTF2_EvtReaderCallbacks_SetMpiIsendCallback(cb, evIsend);
  OTF2_EvtReaderCallbacks_SetMpiIsendCompleteCallback(cb, evRequest<EventKind::IsendComplete>);
  OTF2_EvtReaderCallbacks_SetMpiRecvCallback(cb, evRecv);
  OTF2_EvtReaderCallbacks_SetMpiIrecvRequestCallback(cb, evRequest<EventKind::IrecvRequest>);
  OTF2_EvtReaderCallbacks_SetMpiIrecvCallback(cb, evIrecv);
  OTF2_EvtReaderCallbacks_SetMpiRequestCancelledCallback(cb, evRequest<EventKind::RequestCancelled>);
  OTF2_EvtReaderCallbacks_SetMpiCollectiveBeginCallback(cb, evCollBegin);
  OTF2_EvtReaderCallbacks_SetMpiCollectiveEndCallback(cb, evCollEnd);
  OTF2_EvtReaderCallbacks_SetEnterCallback(cb, evRegion<EventKind::Enter>);
  OTF2_EvtReaderCallbacks_SetLeaveCallback(cb, evRegion<EventKind::Leave>);
  OTF2_Reader_RegisterEvtCallbacks(r, er, cb, &ctx);
  OTF2_EvtReaderCallbacks_Delete(cb);

  auto start = std::chrono::steady_clock::now();
  uint64_t records = 0; // all records OTF2 read (including ones not handed out)
  std::optional<Error> failure;
  while (records < bound && !ctx.stopped) {
    uint64_t got = 0;
    OTF2_ErrorCode ec = OTF2_Reader_ReadLocalEvents(r, er, std::min<uint64_t>(4096, bound - records), &got);
    records += got;
    if (ctx.stopped) break;
    if (ec != OTF2_SUCCESS) {
      failure = Error{f.evtPath, -1,
                      "corrupt event data after " + std::to_string(records) +
                          " events: " + errors.describe(ec)};
      break;
    }
    if (got == 0) break; // fewer records than the headers count: take what there is
    double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (options.timeoutSeconds > 0 && elapsed > options.timeoutSeconds) {
      failure = Error{f.evtPath, -1,
                      "reading stopped after " + std::to_string(options.timeoutSeconds) +
                          " s (" + std::to_string(records) + " of " + std::to_string(bound) +
                          " events)"};
      break;
    }
  }
  OTF2_Reader_CloseEvtReader(r, er);
  OTF2_Reader_CloseEvtFiles(r);
  if (failure) return *failure;
  return ctx.delivered;
}

uint64_t Trace::eventBound(int rank) const {
  if (rank < 0 || rank >= rankCount()) return 0;
  const RankFiles &f = impl_->ranks[size_t(rank)];
  return f.evt.state == FileState::Missing ? 0 : f.evt.readableEvents;
}

Result<std::vector<Event>> Trace::loadRank(int rank, const ReadOptions &options) const {
  std::vector<Event> events;
  if (rank >= 0 && rank < rankCount())
    events.reserve(std::min<uint64_t>(impl_->ranks[rank].evt.readableEvents, 1u << 24));
  Result<uint64_t> n = forEachEvent(
      rank,
      [&](const Event &e) {
        events.push_back(e);
        return true;
      },
      options);
  if (!n) return n.error();
  return events;
}

Result<std::vector<RankSummary>> summarize(const Trace &trace, const ReadOptions &options) {
  std::vector<RankSummary> out;
  for (int r = 0; r < trace.rankCount(); r++) {
    Result<uint64_t> n = trace.forEachEvent(r, [](const Event &) { return true; }, options);
    if (!n) return n.error();
    out.push_back({r, n.value(), trace.rankComplete(r)});
  }
  return out;
}

} // namespace cz::trace
