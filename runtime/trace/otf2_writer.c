/* otf2_writer.c: the OTF2 archive. One location per MPI rank (location =
 * world rank). Events go to the rank's log while the program runs (threads
 * under czt_mutex, timestamps taken inside the lock so they never go
 * backwards) and are encoded into the archive at MPI_Finalize. Global
 * definitions are
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

static OTF2_Archive *archive;
static OTF2_EvtWriter *writer;
CZT_HOT_DATA static int logging; /* events are recorded (czt_mutex) */
/* logging, czt_clock_tsc and czt_late_receives() in one flag, set with
 * logging (set_logging): czt_record_recv's path without calls tests it
 * once instead of the three. */
CZT_HOT_DATA static int late_on_tsc;
static void set_logging(int on) {
  logging = on;
  late_on_tsc = on && czt_clock_tsc && czt_late_receives();
}
static uint64_t t_start;
/* The clock offsets to rank 0 (clock.c), measured at open and at close. */
static czt_clock_offset offset_open, offset_close;
#define CZT_HOST_BYTES 64
CZT_HOT_DATA static atomic_uint_fast64_t next_request = 1;
static char otf2_error[512];

CZT_HOT uint64_t czt_new_request_id(void) {
  return atomic_fetch_add_explicit(&next_request, 1, memory_order_relaxed);
}

/* OTF2 reports errors here instead of printing them; the first one goes
 * into the single warning czt_disable prints. */
static OTF2_ErrorCode on_otf2_error(void *user, const char *file,
                                   uint64_t line, const char *function,
                                   OTF2_ErrorCode code, const char *fmt,
                                   va_list va) {
  if (code == OTF2_ERROR_ENOSPC) atomic_store(&czt_nospace, 1);
  if (!otf2_error[0]) {
    char text[400] = "";
    if (fmt) vsnprintf(text, sizeof text, fmt, va);
    /* System errors come as errno values with a bare number for a name. */
    const char *what = OTF2_Error_GetDescription(code);
    snprintf(otf2_error, sizeof otf2_error, "%s%s%s", what ? what : OTF2_Error_GetName(code),
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
                              CZ_TRACE_EVENT_CHUNK_BYTES, CZ_TRACE_DEF_CHUNK_BYTES,
                              OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
  int ok = archive != NULL &&
           OTF2_Archive_SetFlushCallbacks(archive, &flush_callbacks, NULL) ==
               OTF2_SUCCESS &&
           OTF2_MPI_Archive_SetCollectiveCallbacks(archive, MPI_COMM_WORLD,
                                                   MPI_COMM_NULL) ==
               OTF2_SUCCESS &&
           OTF2_Archive_SetCreator(archive, "collectivize tracer") ==
               OTF2_SUCCESS;
  if (!all_ok(ok)) return -1; /* archives of other ranks are abandoned */
  ok = OTF2_Archive_OpenEvtFiles(archive) == OTF2_SUCCESS;
  if (ok) {
    writer = OTF2_Archive_GetEvtWriter(archive, (OTF2_LocationRef)czt.rank);
    ok = writer != NULL;
  }
  char why[600] = "";
  if (ok && czt_log_open(dir, czt.rank) != 0) {
    snprintf(why, sizeof why, "%s", czt_log_error());
    ok = 0;
  }
  if (!all_ok(ok)) {
    if (why[0]) czi_warn("trace: %s", why);
    czt_log_close();
    czt_log_remove();
    return -1;
  }
  czt_clock_sync_open();
  offset_open = czt_clock_measure();
  set_logging(1);
  t_start = czt_now();
  return 0;
}

/* ---- events ------------------------------------------------------------
 * Each event is stored as a fixed record in the rank's log (event_log.c)
 * with everything resolved before the program gets control back
 * (timestamp, comm ref, world rank, datatype code), except a late receive
 * (below), resolved at the rank's next record or wait point;
 * czt_archive_close encodes the log into OTF2. Threaded
 * programs (MPI_THREAD_MULTIPLE) take czt_mutex around the slot and the
 * timestamp, so one rank's records stay in time order. */
static void failed(void) {
  czt_disable(czt_log_error()[0] ? czt_log_error() : "the event log failed");
}

void czt_log_failed(void) {
  CZT_LOCK();
  set_logging(0);
  czt_late_pending = 0;
  CZT_UNLOCK();
  failed();
}

/* A receive that completed but whose record is not finished yet (programs
 * that are not MPI_THREAD_MULTIPLE). Its slot is taken at completion, so
 * the log keeps event order, and holds what the status says; what needs
 * the datatype and the communicator (type code, element count, comm ref,
 * world rank) is resolved and the record committed at the rank's next
 * record or wait point, off the path between the message's arrival and the
 * program's reply. The wrappers of the calls that free those handles
 * finish it before. Filled in place, not through a czt_msg: that copy and
 * a copy of the status were ~180 of the tracer's 568 instructions per
 * 8-byte MPI_Sendrecv (bench/README.md, "Tracer overhead"). */
typedef struct czt_late_recv {
  czt_record *e; /* taken, kind 0 until committed */
  MPI_Datatype type;
  MPI_Comm comm;
} czt_late_recv;
CZT_HOT_DATA int czt_late_pending;
CZT_HOT_DATA static czt_late_recv late;

CZT_HOT static void take_msg(czt_record *e, const czt_msg *m);

/* The next slot, or NULL: the log failed, logging is off (the caller
 * releases czt_mutex, then calls failed()). */
CZT_HOT static czt_record *slot(void) {
  czt_record *e = czt_log_slot();
  if (!e) {
    set_logging(0);
    czt_late_pending = 0;
  }
  return e;
}

/* Finishes the late receive's record (czt_mutex held when threaded). */
CZT_HOT static inline __attribute__((always_inline)) void store_late(void) {
  czt_late_pending = 0;
  czt_record *e = late.e;
  czt_recv_type_fields(late.type, e->bytes, &e->dtype, &e->count);
  czt_comm_lookup(late.comm, (int)e->peer, &e->ref, &e->peer_world);
  czt_log_commit(e, CZT_REC_RECV);
}

/* A slot for a new event after the late receive, czt_mutex held, or NULL
 * (not logging; released). The caller stamps and fills it and calls put,
 * which releases czt_mutex. */
CZT_HOT static inline __attribute__((always_inline)) czt_record *take_locked(void) {
  CZT_LOCK();
  if (!logging) {
    CZT_UNLOCK();
    return NULL;
  }
  if (czt_late_pending) store_late();
  czt_record *e = slot();
  if (!e) {
    CZT_UNLOCK();
    failed();
  }
  return e;
}

/* Stamped inside the lock: a threaded rank's records stay in time order. */
CZT_HOT static czt_record *take(void) {
  czt_record *e = take_locked();
  if (e) e->t = czt_stamp();
  return e;
}

/* Stamped t, taken by the caller before the call it records (programs
 * that are not MPI_THREAD_MULTIPLE only). */
CZT_HOT static czt_record *take_at(uint64_t t) {
  czt_record *e = take_locked();
  if (e) e->t = t;
  return e;
}

CZT_HOT static void put(czt_record *e, uint8_t kind) {
  czt_log_commit(e, kind);
  CZT_UNLOCK();
}

/* What every message record takes from its call but its communicator
 * (both ways of filling a send's record, take_msg and
 * czt_write_send_call, share it). */
CZT_HOT static inline __attribute__((always_inline)) void take_call(
    czt_record *e, int peer, int tag, int count, const void *buf, const czt_site *site) {
  e->peer = (uint32_t)peer;
  e->tag = (uint32_t)tag;
  e->count = (uint32_t)count;
  e->address = (uint64_t)(uintptr_t)buf;
  e->site = site->id;
  e->passed = site->passed;
}

CZT_HOT static void take_msg(czt_record *e, const czt_msg *m) {
  czt_comm_lookup(m->comm, m->peer, &e->ref, &e->peer_world);
  take_call(e, m->peer, m->tag, m->count, m->buf, &m->site);
  e->bytes = m->bytes;
  e->crc = m->crc;
  e->prefix = m->prefix;
  e->dtype = m->type_code;
  e->flags = (uint8_t)((m->hashed ? CZT_REC_HASHED : 0) |
                       (m->site.kind ? CZT_REC_SITE_RA : 0) |
                       (m->kept ? CZT_REC_KEPT : 0));
}

/* Fills the slot e of a message record and stores it. */
CZT_HOT static inline __attribute__((always_inline)) void put_msg(czt_record *e, uint8_t kind, const czt_msg *m, uint64_t req) {
  take_msg(e, m);
  e->req = req;
  /* The call's receive flags: a Sendrecv's send shares its site. */
  if (kind == CZT_REC_RECV || kind == CZT_REC_IRECV) e->flags |= m->site.record_flags;
  if (czt_block_bytes && (kind == CZT_REC_SEND || kind == CZT_REC_ISEND))
    czt_blocks_note(czt_log_records() - 1, m); /* opt-in: block_crcs.c */
  put(e, kind);
}

CZT_HOT static void write_msg(uint8_t kind, const czt_msg *m, uint64_t req) {
  czt_record *e = take();
  if (e) put_msg(e, kind, m, req);
}

CZT_HOT static void write_request(uint8_t kind, uint64_t req) {
  czt_record *e = take();
  if (!e) return;
  e->req = req;
  put(e, kind);
}

CZT_HOT void czt_write_send(const czt_msg *m) { write_msg(CZT_REC_SEND, m, 0); }

/* A send whose type is derived, or not contiguous, or with block CRCs
 * asked for: described and hashed through a czt_msg as other sends are. */
static __attribute__((noinline)) void take_send_call_described(czt_record *e,
                                                                const czt_send_call *c) {
  czt_msg m;
  czt_msg_send(&m, c->buf, c->count, c->type, c->peer, c->tag, c->comm, c->site);
  take_msg(e, &m);
  if (czt_block_bytes) czt_blocks_note(czt_log_records() - 1, &m);
}

/* c's record but its communicator's (p: c's type, dense; c hashed). */
CZT_HOT static inline __attribute__((always_inline)) void take_send_call(
    czt_record *e, const czt_send_call *c, const czt_predefined *p, uint64_t bytes) {
  take_call(e, c->peer, c->tag, c->count, c->buf, &c->site);
  e->dtype = p->code;
  e->bytes = bytes;
  e->crc = c->crc; /* 0 up to CZT_CRC_FROM_PREFIX_BYTES (event_log.h) */
  if (bytes) e->prefix = czt_prefix_of(c->buf, bytes); /* else 0, as the slot's */
  e->flags = (uint8_t)(CZT_REC_HASHED | (c->site.kind ? CZT_REC_SITE_RA : 0));
}

/* Any send call: derived, on another communicator, after a late receive
 * of such, with block CRCs, no room left in the half. */
CZT_HOT static __attribute__((noinline)) void write_send_call_any(const czt_send_call *c,
                                                                  uint64_t t) {
  czt_record *e = take_at(t);
  if (!e) return;
  const czt_predefined *p = c->known;
  if (!p || !p->dense || czt_block_bytes) {
    take_send_call_described(e, c);
  } else {
    /* As czt_msg_send and take_msg would fill it (hashed by the wrapper). */
    czt_comm_lookup(c->comm, c->peer, &e->ref, &e->peer_world);
    take_send_call(e, c, p, c->bytes);
  }
  put(e, CZT_REC_SEND);
}

/* The usual send calls no function (as write_send_call_any would fill
 * it; callers are unthreaded, czt_send_call_fill says so): a predefined
 * contiguous type (its CRC taken by the wrapper, czt_write_send_call),
 * world or self, a late receive before it of a predefined type on world
 * or self, room in the half. With calls on its rare paths the function
 * saved six registers and juggled the call's fields between them (a
 * third of its 126 instructions). */
CZT_HOT void czt_write_send_call_hashed(const czt_send_call *c, uint64_t t) {
  const czt_predefined *p = c->known, *late_type = NULL;
  uint64_t bytes = c->bytes;
  if (!logging || czt_log_cursor == czt_log_end || !p || !p->dense ||
      czt_block_bytes || !czt_comm_predefined(c->comm) ||
      (czt_late_pending && (!czt_comm_predefined(late.comm) ||
                            !(late_type = czt_predefined_of(late.type))))) {
    write_send_call_any(c, t);
    return;
  }
  if (czt_late_pending) { /* store_late, without its calls */
    czt_record *r = late.e;
    czt_late_pending = 0;
    r->dtype = late_type->code;
    r->count = czt_whole_elements(r->bytes, late_type->size);
    czt_comm_lookup_predefined(late.comm, (int)r->peer, &r->ref, &r->peer_world);
    czt_log_commit(r, CZT_REC_RECV);
  }
  czt_record *e = czt_log_next();
  e->t = t;
  czt_comm_lookup_predefined(c->comm, c->peer, &e->ref, &e->peer_world);
  take_send_call(e, c, p, bytes);
  czt_log_commit(e, CZT_REC_SEND);
}

/* Fills the late receive's slot e (stamped t) with what the status says. */
CZT_HOT static inline __attribute__((always_inline)) void take_recv_late(
    czt_record *e, uint64_t t, const void *buf, MPI_Datatype type, MPI_Comm comm,
    const MPI_Status *st, const czt_site *site) {
  e->t = t; /* its other fields are zero: crc, prefix, req stay so */
  e->peer = (uint32_t)st->MPI_SOURCE;
  e->tag = (uint32_t)st->MPI_TAG;
  e->bytes = czt_status_bytes(st);
  e->address = (uint64_t)(uintptr_t)buf;
  e->site = site->id;
  e->passed = site->passed;
  e->flags = (uint8_t)((site->kind ? CZT_REC_SITE_RA : 0) | site->record_flags);
  late = (czt_late_recv){e, type, comm};
  czt_late_pending = 1;
}

/* Every case: another late receive still to store, a half to switch, a
 * clock read through a call, logging off or failing. */
CZT_HOT static __attribute__((noinline)) void write_recv_late_any(const void *buf, MPI_Datatype type,
                                                          MPI_Comm comm, const MPI_Status *st,
                                                          czt_site site) {
  uint64_t t = czt_stamp();
  if (!logging) return;
  if (czt_late_pending) store_late();
  czt_record *e = slot();
  if (!e) {
    failed();
    return;
  }
  take_recv_late(e, t, buf, type, comm, st, &site);
}

/* A receive recorded at once (threaded programs, hashed receives). */
static __attribute__((noinline)) void record_recv_now(const void *buf, MPI_Datatype type,
                                                      MPI_Comm comm, const MPI_Status *st,
                                                      const czt_site *site) {
  czt_msg m;
  czt_msg_recv(&m, buf, type, comm, st, *site);
  czt_write_recv(&m);
}

/* Late (tracer.h): the usual case, the rank's last record committed,
 * calls nothing, so no register is saved (7 pushes and pops of the 62
 * instructions of the late receive's writer before). */
CZT_HOT void czt_record_recv(const void *buf, MPI_Datatype type, MPI_Comm comm,
                             const MPI_Status *st, const czt_site *site) {
  if (st->MPI_SOURCE == MPI_PROC_NULL) return;
#if defined(__x86_64__)
  if (late_on_tsc && !czt_late_pending && czt_log_cursor != czt_log_end) {
    take_recv_late(czt_log_next(), __builtin_ia32_rdtsc(), buf, type, comm, st, site);
    return;
  }
#endif
  if (czt_late_receives())
    write_recv_late_any(buf, type, comm, st, *site);
  else
    record_recv_now(buf, type, comm, st, site);
}

CZT_HOT void czt_store_late(void) {
  CZT_LOCK();
  if (logging && czt_late_pending) store_late();
  czt_late_pending = 0;
  CZT_UNLOCK();
}
CZT_HOT void czt_write_isend(const czt_msg *m, uint64_t req) { write_msg(CZT_REC_ISEND, m, req); }
CZT_HOT void czt_write_recv(const czt_msg *m) { write_msg(CZT_REC_RECV, m, 0); }
CZT_HOT void czt_write_irecv(const czt_msg *m, uint64_t req) { write_msg(CZT_REC_IRECV, m, req); }
CZT_HOT void czt_write_isend_complete(uint64_t req) { write_request(CZT_REC_ISEND_COMPLETE, req); }
CZT_HOT void czt_write_irecv_request(uint64_t req) { write_request(CZT_REC_IRECV_REQUEST, req); }
void czt_write_cancelled(uint64_t req) { write_request(CZT_REC_CANCELLED, req); }
void czt_write_coll_begin(void) { write_request(CZT_REC_COLL_BEGIN, 0); }

void czt_write_coll_end(int op, MPI_Comm comm, int root, uint64_t sent,
                        uint64_t received, czt_site site) {
  czt_record *e = take();
  if (!e) return;
  uint32_t root_world = 0xffffffffu;
  czt_comm_lookup(comm, root, &e->ref, &root_world);
  e->count = (uint32_t)op;
  e->peer = (uint32_t)root;
  e->peer_world = root_world;
  e->bytes = sent;
  e->req = received;
  e->site = site.id;
  e->flags = (uint8_t)((site.kind ? CZT_REC_SITE_RA : 0) |
                       (root >= 0 ? CZT_REC_HAS_ROOT : 0));
  put(e, CZT_REC_COLL_END);
}

void czt_write_enter(int region) {
  czt_record *e = take();
  if (!e) return;
  e->tag = (uint32_t)region;
  put(e, CZT_REC_ENTER);
}

void czt_write_leave(int region, uint32_t new_comm, uint32_t comm,
                     czt_site site, int has_color, int color) {
  czt_record *e = take();
  if (!e) return;
  e->tag = (uint32_t)region;
  e->peer = new_comm;
  e->ref = comm;
  e->site = site.id;
  e->count = has_color ? (uint32_t)color : 0;
  e->flags = (uint8_t)((site.kind ? CZT_REC_SITE_RA : 0) |
                       (has_color ? CZT_REC_HAS_COLOR : 0));
  put(e, CZT_REC_LEAVE);
}

uint64_t czt_event_count(void) {
  CZT_LOCK();
  uint64_t n = czt_log_records();
  CZT_UNLOCK();
  return n;
}

/* The log into this rank's OTF2 event file; its span for the global
 * definitions. 0, or -1 after one warning. */
static int convert_log(czt_rank_span *span) {
  CZT_LOCK();
  set_logging(0);
  czt_late_pending = 0; /* its slot is unmapped now */
  czt_log_close();
  CZT_UNLOCK();
  /* The disk filled during the run: encoding now would fill it again, and
   * OTF2 3.0 was seen to crash closing an event file after a failed flush
   * of several chunks. The records stay for `collectivize trace repair`. */
  if (atomic_load(&czt_nospace)) return -1;
  char why[600];
  if (czt_log_convert(czt_log_path(), czt_ring_path(), writer, span, why, sizeof why) != 0) {
    czi_warn("trace: cannot convert this rank's events into OTF2 (%s); "
             "they stay in %s and the trace reports this rank incomplete",
             why, czt_log_path());
    return -1;
  }
  return 0;
}

/* All ranks agree: 1 when every rank says 1. */
static int everyone(int ok) {
  int all = 0;
  PMPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  return all;
}

/* Every rank's created communicators' refs, sorted (collective; a rank out
 * of memory makes every rank map nothing, never a hang). Only the refs go
 * to every rank (4 bytes a communicator); the definitions with their
 * member lists go to rank 0 alone. */
static uint32_t *all_comm_refs(const uint64_t *mine, size_t n_mine, size_t *n) {
  size_t k = 0;
  uint32_t *own = czt_comm_refs_sorted(mine, n_mine, &k);
  int p = czt.size, my_k = (int)k, total = 0;
  int *counts = calloc((size_t)p, sizeof(int)), *displs = calloc((size_t)p, sizeof(int));
  uint32_t *refs = NULL;
  *n = 0;
  if (everyone(counts && displs && (own || k == 0))) {
    PMPI_Allgather(&my_k, 1, MPI_INT, counts, 1, MPI_INT, MPI_COMM_WORLD);
    for (int r = 0; r < p; r++) {
      displs[r] = total;
      total += counts[r];
    }
    refs = malloc(sizeof *refs * (size_t)(total ? total : 1));
    if (everyone(refs != NULL)) {
      PMPI_Allgatherv(own ? own : refs, my_k, MPI_UINT32_T, refs, counts, displs,
                      MPI_UINT32_T, MPI_COMM_WORLD);
      *n = (size_t)total;
    }
  }
  free(own);
  free(counts);
  free(displs);
  if (*n == 0) {
    free(refs);
    return NULL;
  }
  return czt_comm_refs_sort(refs, n);
}

int czt_archive_close(void) {
  if (!archive) return -1;
  offset_close = czt_clock_measure();
  czt_clock_sync_close();
  czt_rank_span mine = {0, t_start, czt_now()};
  otf2_error[0] = '\0';
  int converted = convert_log(&mine) == 0;
  if (mine.events == 0) mine.first = mine.last = t_start;
  /* The trace's span on rank 0's clock. */
  mine.first = czt_clock_to_root(&offset_open, &offset_close, mine.first);
  mine.last = czt_clock_to_root(&offset_open, &offset_close, mine.last);
  int closed = !writer || OTF2_Archive_CloseEvtWriter(archive, writer) == OTF2_SUCCESS;
  writer = NULL;
  closed = OTF2_Archive_CloseEvtFiles(archive) == OTF2_SUCCESS && closed;
  /* OTF2 reports a failed flush (full disk) through on_otf2_error, not
   * always through a return code: either way the records must stay. */
  if (converted && (!closed || otf2_error[0])) {
    czi_warn("trace: cannot write this rank's OTF2 events (%s); they stay in "
             "%s and %s, and `collectivize trace repair %s` encodes them once "
             "there is space",
             otf2_error[0] ? otf2_error : "OTF2 error", czt_log_path(),
             czt_ring_path(), czt_dir);
    converted = 0;
  }
  int p = czt.size, root = czt.rank == 0;
  size_t n_mine = 0;
  const uint64_t *my_defs = czt_comm_defs(&n_mine);
  int my_n = (int)n_mine;

  /* Local definitions: the mapping of this rank's event communicator refs
   * to the dense global ones (global_defs.h), from every rank's refs. */
  size_t n_refs = 0;
  uint32_t *refs = all_comm_refs(my_defs, n_mine, &n_refs);
  OTF2_Archive_OpenDefFiles(archive);
  OTF2_DefWriter *dw =
      OTF2_Archive_GetDefWriter(archive, (OTF2_LocationRef)czt.rank);
  if (dw && czt_write_comm_mapping(dw, refs, n_refs) != 0)
    czi_warn("trace: cannot write rank %d's communicator mapping: OTF2 "
             "readers will see its events' communicators undefined", czt.rank);
  /* Readers put every rank's events on rank 0's clock through these. */
  if (dw) {
    OTF2_DefWriter_WriteClockOffset(dw, offset_open.time, offset_open.offset,
                                    offset_open.deviation);
    OTF2_DefWriter_WriteClockOffset(dw, offset_close.time, offset_close.offset,
                                    offset_close.deviation);
  }
  if (dw) OTF2_Archive_CloseDefWriter(archive, dw);
  OTF2_Archive_CloseDefFiles(archive);
  free(refs);
  czt_rank_span *summary = root ? malloc(sizeof *summary * (size_t)p) : NULL;
  char host[256] = "localhost";
  /* Every rank's node, for the system tree (a rank whose name does not fit
   * is cut short). */
  char my_host[CZT_HOST_BYTES] = "";
  gethostname(my_host, sizeof my_host - 1);
  char *hosts = root ? calloc((size_t)p, CZT_HOST_BYTES) : NULL;
  PMPI_Gather(my_host, CZT_HOST_BYTES, MPI_CHAR, hosts, CZT_HOST_BYTES, MPI_CHAR, 0,
              MPI_COMM_WORLD);
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
  czt_global_info info = {p, summary, defs, (size_t)total, host, 0, hosts, CZT_HOST_BYTES};
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
    czi_warn("trace: cannot write the global definitions of %s: %s", czt_dir,
             otf2_error[0] ? otf2_error : "OTF2 error");
  free(summary);
  free(hosts);
  free(counts);
  free(displs);
  free(defs);
  OTF2_Archive_Close(archive);
  archive = NULL;
  /* A rank that could not convert leaves its log for `collectivize trace
   * repair`, which rewrites the global definitions: every rank's saved
   * communicators stay for it then, not only the failed rank's. */
  int all_converted = everyone(converted);
  if (converted) czt_log_remove();
  if (all_converted) czt_comms_recovery_close();
  return converted ? 0 : -1;
}
