/* otf2_writer.c: the OTF2 archive. One location per MPI rank (location =
 * world rank); threads of a rank write to it under czt_mutex, timestamps
 * taken inside the lock so they never go backwards. Global definitions are
 * written at MPI_Finalize by rank 0 from what every rank reports (event
 * counts, time span, the communicators it owns). The archive's own
 * collectives use PMPI (OTF2_MPI_USE_PMPI), so they are never traced. */
#define OTF2_MPI_USE_PMPI
#include <otf2/otf2.h>
#include <otf2/OTF2_MPI_Collectives.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tracer.h"

/* OTF2 writes a rank's events to its .evt file in chunks,
 * EVENT_CHUNKS_IN_MEMORY at a time (chunk_arena.c). */
#define EVENT_CHUNK CZ_TRACE_EVENT_CHUNK_BYTES
#define EVENT_CHUNKS_IN_MEMORY 4

static OTF2_Archive *archive;
static OTF2_EvtWriter *writer;
static OTF2_AttributeList *attrs;
static int broken; /* a write failed: no more events on this rank */
static uint64_t t_start;
static atomic_uint_fast64_t next_request = 1;
static char otf2_error[512];

uint64_t czt_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t czt_new_request_id(void) {
  return atomic_fetch_add_explicit(&next_request, 1, memory_order_relaxed);
}

/* OTF2 reports errors here instead of printing them; the first one goes
 * into the single warning czt_disable prints. */
static OTF2_ErrorCode on_otf2_error(void *user, const char *file,
                                   uint64_t line, const char *function,
                                   OTF2_ErrorCode code, const char *fmt,
                                   va_list va) {
  if (!otf2_error[0]) {
    char text[400] = "";
    if (fmt) vsnprintf(text, sizeof text, fmt, va);
    snprintf(otf2_error, sizeof otf2_error, "%s%s%s", OTF2_Error_GetName(code),
             text[0] ? ": " : "", text);
  }
  return code;
}

static OTF2_FlushType pre_flush(void *user, OTF2_FileType type,
                                OTF2_LocationRef location, void *caller,
                                bool final) {
  return OTF2_FLUSH;
}
static OTF2_TimeStamp post_flush(void *user, OTF2_FileType type,
                                 OTF2_LocationRef location) {
  return czt_now();
}
static OTF2_FlushCallbacks flush_callbacks = {pre_flush, post_flush};

static int all_ok(int ok) {
  int all = 0;
  if (PMPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD) !=
      MPI_SUCCESS)
    return 0;
  return all;
}

int czt_archive_open(const char *dir) {
  OTF2_Error_RegisterCallback(on_otf2_error, NULL);
  archive = OTF2_Archive_Open(dir, CZ_TRACE_ARCHIVE, OTF2_FILEMODE_WRITE,
                              EVENT_CHUNK, CZ_TRACE_DEF_CHUNK_BYTES,
                              OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
  const OTF2_MemoryCallbacks *arena =
      archive ? czt_arena_open(dir, EVENT_CHUNK, EVENT_CHUNKS_IN_MEMORY) : NULL;
  if (archive && !arena && czt.rank == 0)
    CZI_LOG("trace: no recovery file for unflushed events; a killed run "
            "loses them");
  int ok = archive != NULL &&
           (!arena || OTF2_Archive_SetMemoryCallbacks(archive, arena, NULL) ==
                          OTF2_SUCCESS) &&
           OTF2_Archive_SetFlushCallbacks(archive, &flush_callbacks, NULL) ==
               OTF2_SUCCESS &&
           OTF2_MPI_Archive_SetCollectiveCallbacks(archive, MPI_COMM_WORLD,
                                                   MPI_COMM_NULL) ==
               OTF2_SUCCESS &&
           OTF2_Archive_SetCreator(archive, "collectivize tracer") ==
               OTF2_SUCCESS;
  if (!all_ok(ok)) { /* archives of other ranks are abandoned */
    czt_arena_close();
    return -1;
  }
  ok = OTF2_Archive_OpenEvtFiles(archive) == OTF2_SUCCESS;
  if (ok) {
    writer = OTF2_Archive_GetEvtWriter(archive, (OTF2_LocationRef)czt.rank);
    attrs = OTF2_AttributeList_New();
    ok = writer && attrs;
  }
  if (!all_ok(ok)) {
    czt_arena_close();
    return -1;
  }
  t_start = czt_now();
  return 0;
}

/* ---- events ------------------------------------------------------------
 * Each event is taken (timestamp, comm ref, world rank, datatype code: all
 * resolved at the call) into a small staging queue and encoded into OTF2
 * later, at a point where the rank would wait anyway (after a send went
 * out, before a blocking receive or wait) or when the queue is full, so the
 * OTF2 encoding and file writes stay off the message's critical path.
 * Records are encoded in the order they were taken, with the timestamps
 * taken at the call: the archive is the same as when writing at once.
 * Threaded programs (MPI_THREAD_MULTIPLE) encode at once under czt_mutex. */
enum {
  E_SEND,
  E_ISEND,
  E_ISEND_COMPLETE,
  E_RECV,
  E_IRECV_REQUEST,
  E_IRECV,
  E_CANCELLED,
  E_COLL_BEGIN,
  E_COLL_END,
  E_ENTER,
  E_LEAVE
};
typedef struct czt_event {
  uint64_t t, req, bytes, prefix, site, address;
  uint32_t peer, ref, tag, crc, count, dtype, peer_world;
  uint8_t kind, site_kind, kept, has_root, hashed;
  int op, region;
} czt_event;

#define QUEUE_CAP 64
static czt_event queue[QUEUE_CAP];
int czt_queued; /* events in queue (never when threaded) */

static void site_attrs(uint64_t id, uint8_t kind) {
  OTF2_AttributeList_AddUint64(attrs, kind ? CZT_ATTR_RETURN_ADDRESS : CZT_ATTR_SITE, id);
}

static void msg_attrs(const czt_event *e) {
  if (e->hashed) OTF2_AttributeList_AddUint32(attrs, CZT_ATTR_CRC32, e->crc);
  OTF2_AttributeList_AddUint64(attrs, CZT_ATTR_ADDRESS, e->address);
  if (e->hashed) OTF2_AttributeList_AddUint64(attrs, CZT_ATTR_PREFIX, e->prefix);
  site_attrs(e->site, e->site_kind);
  OTF2_AttributeList_AddUint32(attrs, CZT_ATTR_COUNT, e->count);
  OTF2_AttributeList_AddUint32(attrs, CZT_ATTR_DATATYPE, e->dtype);
  /* On MPI_COMM_WORLD and MPI_COMM_SELF the reader knows it already. */
  if (e->ref > 1)
    OTF2_AttributeList_AddUint32(attrs, CZT_ATTR_PEER_WORLD, e->peer_world);
  if (e->kept) OTF2_AttributeList_AddUint8(attrs, CZT_ATTR_KEPT, 1);
}

/* Write one event into the OTF2 buffer (locked when threaded). */
static OTF2_ErrorCode encode(const czt_event *e) {
  switch (e->kind) {
  case E_SEND:
    msg_attrs(e);
    return OTF2_EvtWriter_MpiSend(writer, attrs, e->t, e->peer, e->ref,
                                  e->tag, e->bytes);
  case E_ISEND:
    msg_attrs(e);
    return OTF2_EvtWriter_MpiIsend(writer, attrs, e->t, e->peer, e->ref,
                                   e->tag, e->bytes, e->req);
  case E_ISEND_COMPLETE:
    return OTF2_EvtWriter_MpiIsendComplete(writer, NULL, e->t, e->req);
  case E_RECV:
    msg_attrs(e);
    return OTF2_EvtWriter_MpiRecv(writer, attrs, e->t, e->peer, e->ref,
                                  e->tag, e->bytes);
  case E_IRECV_REQUEST:
    return OTF2_EvtWriter_MpiIrecvRequest(writer, NULL, e->t, e->req);
  case E_IRECV:
    msg_attrs(e);
    return OTF2_EvtWriter_MpiIrecv(writer, attrs, e->t, e->peer, e->ref,
                                   e->tag, e->bytes, e->req);
  case E_CANCELLED:
    return OTF2_EvtWriter_MpiRequestCancelled(writer, NULL, e->t, e->req);
  case E_COLL_BEGIN:
    return OTF2_EvtWriter_MpiCollectiveBegin(writer, NULL, e->t);
  case E_COLL_END:
    site_attrs(e->site, e->site_kind);
    if (e->has_root)
      OTF2_AttributeList_AddUint32(attrs, CZT_ATTR_PEER_WORLD, e->peer_world);
    return OTF2_EvtWriter_MpiCollectiveEnd(
        writer, attrs, e->t, (OTF2_CollectiveOp)e->op, e->ref,
        e->has_root ? e->peer : OTF2_UNDEFINED_UINT32, e->bytes, e->req);
  case E_ENTER:
    return OTF2_EvtWriter_Enter(writer, NULL, e->t, (OTF2_RegionRef)e->region);
  case E_LEAVE:
    OTF2_AttributeList_AddUint32(attrs, CZT_ATTR_NEW_COMM, e->peer);
    OTF2_AttributeList_AddUint32(attrs, CZT_ATTR_COMM, e->ref);
    return OTF2_EvtWriter_Leave(writer, attrs, e->t,
                                (OTF2_RegionRef)e->region);
  }
  return OTF2_SUCCESS;
}

static void failed(void) {
  czt_disable(otf2_error[0] ? otf2_error : "OTF2 write failed");
}

/* Encode the queued events (not threaded, so no lock). 0, or -1 when a
 * write failed (the caller reports it). */
static int drain_queue(void) {
  int n = czt_queued;
  czt_queued = 0;
  if (!writer || broken) return 0;
  for (int i = 0; i < n; i++)
    if (encode(&queue[i]) != OTF2_SUCCESS) {
      broken = 1;
      return -1;
    }
  return 0;
}

void czt_drain_queue(void) {
  if (drain_queue()) failed();
}

/* The slot for a new event with its timestamp, or NULL (no archive). In
 * threaded programs it returns *local with czt_mutex held. */
static czt_event *take(czt_event *local) {
  CZT_LOCK();
  if (!writer || broken) {
    CZT_UNLOCK();
    return NULL;
  }
  czt_event *e = czt.threaded ? local : &queue[czt_queued];
  e->t = czt_now();
  return e;
}

static void put(czt_event *e) {
  if (czt.threaded) {
    OTF2_ErrorCode rc = encode(e);
    if (rc != OTF2_SUCCESS) broken = 1;
    CZT_UNLOCK();
    if (rc != OTF2_SUCCESS) failed();
    return;
  }
  if (++czt_queued == QUEUE_CAP) czt_drain_queue();
}

#define TAKE(KIND)                  \
  czt_event local_, *e = take(&local_); \
  if (!e) return;                   \
  e->kind = (KIND)

static void take_msg(czt_event *e, const czt_msg *m) {
  czt_comm_lookup(m->comm, m->peer, &e->ref, &e->peer_world);
  e->peer = (uint32_t)m->peer;
  e->tag = (uint32_t)m->tag;
  e->bytes = m->bytes;
  e->crc = m->crc;
  e->hashed = (uint8_t)(m->hashed != 0);
  e->address = (uint64_t)(uintptr_t)m->buf;
  e->prefix = m->prefix;
  e->site = m->site.id;
  e->site_kind = m->site.kind;
  e->count = (uint32_t)m->count;
  e->dtype = m->type_code;
  e->kept = (uint8_t)(m->kept != 0);
}

static void write_msg(int kind, const czt_msg *m, uint64_t req) {
  TAKE(kind);
  take_msg(e, m);
  e->req = req;
  put(e);
}

static void write_request(int kind, uint64_t req) {
  TAKE(kind);
  e->req = req;
  put(e);
}

void czt_write_send(const czt_msg *m) { write_msg(E_SEND, m, 0); }
void czt_write_isend(const czt_msg *m, uint64_t req) { write_msg(E_ISEND, m, req); }
void czt_write_recv(const czt_msg *m) { write_msg(E_RECV, m, 0); }
void czt_write_irecv(const czt_msg *m, uint64_t req) { write_msg(E_IRECV, m, req); }
void czt_write_isend_complete(uint64_t req) { write_request(E_ISEND_COMPLETE, req); }
void czt_write_irecv_request(uint64_t req) { write_request(E_IRECV_REQUEST, req); }
void czt_write_cancelled(uint64_t req) { write_request(E_CANCELLED, req); }

void czt_write_coll_begin(void) {
  TAKE(E_COLL_BEGIN);
  put(e);
}

void czt_write_coll_end(int op, MPI_Comm comm, int root, uint64_t sent,
                        uint64_t received, czt_site site) {
  TAKE(E_COLL_END);
  uint32_t root_world = 0xffffffffu;
  czt_comm_lookup(comm, root, &e->ref, &root_world);
  e->op = op;
  e->has_root = root >= 0;
  e->peer = (uint32_t)root;
  e->peer_world = root_world;
  e->bytes = sent;
  e->req = received;
  e->site = site.id;
  e->site_kind = site.kind;
  put(e);
}

void czt_write_enter(int region) {
  TAKE(E_ENTER);
  e->region = region;
  put(e);
}

void czt_write_leave(int region, uint32_t new_comm, uint32_t comm) {
  TAKE(E_LEAVE);
  e->region = region;
  e->peer = new_comm;
  e->ref = comm;
  put(e);
}

uint64_t czt_event_count(void) {
  uint64_t n = 0;
  czt_drain();
  if (writer) OTF2_EvtWriter_GetNumberOfEvents(writer, &n);
  return n;
}

void czt_archive_close(void) {
  if (!archive) return;
  czt_drain();
  CZT_LOCK();
  czt_rank_span mine = {czt_event_count(), t_start, czt_now()};
  if (writer) OTF2_Archive_CloseEvtWriter(archive, writer);
  writer = NULL;
  CZT_UNLOCK();
  OTF2_Archive_CloseEvtFiles(archive);
  /* Empty local definition files: readers expect one per location. */
  OTF2_Archive_OpenDefFiles(archive);
  OTF2_DefWriter *dw =
      OTF2_Archive_GetDefWriter(archive, (OTF2_LocationRef)czt.rank);
  if (dw) OTF2_Archive_CloseDefWriter(archive, dw);
  OTF2_Archive_CloseDefFiles(archive);

  int p = czt.size, root = czt.rank == 0;
  size_t n_mine = 0;
  const uint64_t *my_defs = czt_comm_defs(&n_mine);
  int my_n = (int)n_mine;
  czt_rank_span *summary = root ? malloc(sizeof *summary * (size_t)p) : NULL;
  char host[256] = "localhost";
  int *counts = root ? calloc((size_t)p, sizeof(int)) : NULL;
  int *displs = root ? calloc((size_t)p, sizeof(int)) : NULL;
  PMPI_Gather(&mine, 3, MPI_UINT64_T, summary, 3, MPI_UINT64_T, 0,
              MPI_COMM_WORLD);
  PMPI_Gather(&my_n, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
  uint64_t *defs = NULL;
  int total = 0;
  if (root && counts && displs) {
    for (int r = 0; r < p; r++) {
      displs[r] = total;
      total += counts[r];
    }
    defs = malloc(sizeof(uint64_t) * (size_t)(total ? total : 1));
  }
  PMPI_Gatherv(my_defs, my_n, MPI_UINT64_T, defs, counts, displs,
               MPI_UINT64_T, 0, MPI_COMM_WORLD);
  czt_global_info info = {p, summary, defs, (size_t)total, host, 0};
  if (root && summary && defs) {
    struct timespec rt;
    clock_gettime(CLOCK_REALTIME, &rt);
    uint64_t first = UINT64_MAX;
    for (int r = 0; r < p; r++)
      if (summary[r].first < first) first = summary[r].first;
    info.realtime_at_first = (uint64_t)rt.tv_sec * 1000000000u +
                             (uint64_t)rt.tv_nsec - (czt_now() - first);
    gethostname(host, sizeof host - 1);
  }
  if (root && summary && defs && czt_write_global_defs(archive, &info))
    czi_warn("trace: cannot write the global definitions of %s: %s", czt.dir,
             otf2_error[0] ? otf2_error : "OTF2 error");
  free(summary);
  free(counts);
  free(displs);
  free(defs);
  if (attrs) OTF2_AttributeList_Delete(attrs);
  attrs = NULL;
  OTF2_Archive_Close(archive);
  archive = NULL;
  czt_arena_close();
  czt_comms_recovery_close();
}
