/*
 * tracer.h: what the sources of libcollectivize_trace share. The tracer
 * interposes MPI_* entry points (PMPI profiling interface), hashes payloads
 * and writes the OTF2 archive that collectivize_trace_format.h specifies.
 * Not installed. Everything is hidden except the MPI_* wrappers and the
 * public cz_* functions (CZT_EXPORT), so the runtime helpers compiled in here
 * (error.c, datatype.c) never clash with libcollectivize's copies.
 */
#ifndef CZT_TRACER_H
#define CZT_TRACER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <mpi.h>

#include "collectivize_trace_format.h"
#include "global_defs.h"
#include "event_log.h"
#include "block_crcs.h"
#include "cz_internal.h"
#include "predefined_types.h"

#define CZT_EXPORT __attribute__((visibility("default")))
/* The message path's code and data, each kept on as few pages and cache
 * lines as possible: a waiting rank enters the kernel all the time
 * (sched_yield), and on a VM whose kernel flushes the TLB on every system
 * call (PTI without PCID, as the one of 2026-11-25 did; a PVM guest
 * leaves for its host on each) the tracer's lines are cold after every
 * wait, and with
 * yielding ranks whatever the tracer does before a rank's first poll
 * delays the poll that sees the reply. Linkers place .text.hot.* together.
 * The data section's name has no ".data." prefix, so the linker keeps it
 * whole (an orphan section) instead of interleaving it with each file's
 * other .data; only small variables go there, never tables. */
#define CZT_HOT __attribute__((section(".text.hot.czt")))
#define CZT_HOT_DATA __attribute__((section("czt_hot_data")))

/* ---- process state (control.c) ---------------------------------------- */
typedef struct czt_state {
  atomic_int on;        /* events are written (archive open, no failure) */
  atomic_int paused;    /* cz_trace_pause() depth */
  int archive;          /* archive open on every rank: comm bookkeeping
                           (collective) runs; same value on all ranks */
  int threaded;         /* MPI_THREAD_MULTIPLE: take czt_mutex */
  int hash_receives;    /* COLLECTIVIZE_TRACE_HASH=both */
  int rank, size;       /* in MPI_COMM_WORLD */
  /* Some thread has set a site (cz_trace_site, a Fortran wrapper): only
   * then is the per-thread pending site read (its lines are cold). */
  atomic_int sites;
  /* MPI_COMM_WORLD and MPI_COMM_SELF, read here and not through the
   * library's global offset table (another cold page). */
  MPI_Comm world, self;
} czt_state;
extern czt_state czt;
extern char czt_dir[4096]; /* the trace directory */
/* A write failed for lack of space (rank-N.nospace then says so). */
extern atomic_int czt_nospace;

/* Private traces (private_dir.c): the directory's mode (0700 unless
 * COLLECTIVIZE_TRACE_MODE says otherwise) and its files' (0600). */
mode_t czt_dir_mode(void);
mode_t czt_file_mode(void);
/* mkdir -p with the trace's mode; refuses another user's directory and a
 * symbolic link in a directory anyone can write to. 0, or fills why. */
int czt_make_private_dir(const char *dir, char *why, size_t why_len, int *created);
/* open() with O_CREAT and the files' mode, or a FILE for writing. */
int czt_open_private(const char *path, int flags);
FILE *czt_fopen_private(const char *path);
void czt_chmod_private(const char *path, int is_dir);
extern pthread_mutex_t czt_mutex;

#define CZT_LOCK()                                 \
  do {                                             \
    if (czt.threaded) pthread_mutex_lock(&czt_mutex); \
  } while (0)
#define CZT_UNLOCK()                                 \
  do {                                               \
    if (czt.threaded) pthread_mutex_unlock(&czt_mutex); \
  } while (0)

/* New messages are recorded: tracing on and not paused. */
static inline int czt_recording(void) {
  return atomic_load_explicit(&czt.on, memory_order_relaxed) &&
         !atomic_load_explicit(&czt.paused, memory_order_relaxed);
}

/* After PMPI_Init*: pick the directory, write the manifest, open the
 * archive (collective over MPI_COMM_WORLD). Never fails the program. */
void czt_start(int provided);
/* Before PMPI_Finalize: close the archive, write global definitions and
 * rank-N.done (collective). */
void czt_finish(void);
/* Stop writing events on this rank with one warning (write error, full
 * disk). The archive is still closed collectively at MPI_Finalize. */
void czt_disable(const char *why);

/* Where this rank's code is loaded (objects.c): <dir>/rank-N.objects. */
void czt_write_objects(const char *dir);

/* ---- call sites (api.c) ------------------------------------------------ */
/* Where a call came from, and what else its message records take from it
 * unchanged (czt_passed, event_log.h): a wrapper sets those in the site it
 * took (`site.passed.<member> = ...`), which goes with the call's messages
 * to their records. */
typedef struct czt_site {
  uint64_t id;
  czt_passed passed; /* zero unless the call set them */
  uint8_t kind; /* 0 instrumenter id, 1 return address */
  /* CZT_REC_* bits (event_log.h) the call gives its receive records, in
   * the struct's padding: one-bit facts of the call's arguments that
   * need no room in the record (CZT_REC_ANY_SOURCE: the receive wrappers
   * set it, czt_any_source); 0 unless the call set them */
  uint8_t record_flags;
} czt_site;
/* A receive's source argument as its records' flag. */
static inline uint8_t czt_any_source(int source) {
  return source == MPI_ANY_SOURCE ? (uint8_t)CZT_REC_ANY_SOURCE : 0;
}
/* The same into a site whose record_flags are 0: a test and a branch
 * taken rarely on the message path (MPI_ANY_SOURCE and MPI_PROC_NULL are
 * the negative sources), where computing the flag cost 4 of MPI_Recv's
 * 68 instructions (callgrind). */
#define CZT_MARK_ANY_SOURCE(site, source)                                    \
  do {                                                                       \
    if (__builtin_expect((source) < 0, 0)) (site).record_flags = czt_any_source(source); \
  } while (0)
/* "sites PATH" manifest lines for the site databases instrumented code
 * named (cz_trace_sites_database, api.c). */
void czt_write_site_databases(FILE *f);
/* The site cz_trace_site() set for this thread (consumed), else ra. */
czt_site czt_take_pending_site(void *ra);
/* Inline: until some thread sets a site (czt.sites) the site is ra. */
static inline czt_site czt_take_site(void *ra) {
  if (atomic_load_explicit(&czt.sites, memory_order_relaxed)) return czt_take_pending_site(ra);
  return (czt_site){.id = (uint64_t)(uintptr_t)ra, .kind = 1};
}
/* In every wrapper, so the return address is the wrapper's caller. */
#define CZT_SITE() czt_take_site(__builtin_return_address(0))
/* The same into *dst, with no copy of a temporary (6 instructions a call). */
#define CZT_SITE_INTO(dst)                                                   \
  do {                                                                       \
    void *ra_ = __builtin_return_address(0);                                 \
    if (atomic_load_explicit(&czt.sites, memory_order_relaxed)) {            \
      *(dst) = czt_take_pending_site(ra_);                                   \
    } else {                                                                 \
      (dst)->id = (uint64_t)(uintptr_t)ra_;                                  \
      (dst)->passed = (czt_passed){0};                                       \
      (dst)->kind = 1;                                                       \
      (dst)->record_flags = 0;                                               \
    }                                                                        \
  } while (0)
/* A Fortran wrapper calls a C wrapper: the site is the Fortran wrapper's
 * caller (the program), set for the next czt_take_site() on this thread;
 * czt_drop_site() forgets it should the C wrapper not have taken it. */
void czt_set_caller_site(void *ra);
void czt_drop_site(void);

/* ---- one message as recorded (payload_hash.c) -------------------------- */
/* What hashing needs of a datatype (czi_type has more). */
typedef struct czt_layout {
  uint64_t size;   /* bytes of data in one element */
  MPI_Aint true_lb;
  int dense;       /* count elements are count*size bytes from buf+true_lb */
} czt_layout;
typedef struct czt_msg {
  MPI_Comm comm;
  int peer;           /* receiver / sender, rank in comm */
  int tag;
  int count;          /* elements passed (sends) or received (receives) */
  MPI_Datatype type;
  const void *buf;
  uint64_t bytes;     /* packed payload bytes */
  uint32_t crc;       /* zlib CRC-32 of the packed payload */
  uint64_t prefix;    /* first min(8, bytes) packed bytes, little-endian */
  czt_site site;
  int kept;           /* cz_send_to_self */
  int hashed;         /* crc and prefix are set */
  uint32_t type_code; /* CZ_TRACE_TYPE_* of type */
  czt_layout layout;  /* of type (layout_ok), looked up once per message */
  int layout_ok;
} czt_msg;

/* Sends are hashed once, at the sender (a receive gets its hash from the
 * matched send unless COLLECTIVIZE_TRACE_HASH=both). From this many bytes
 * a send is posted first and hashed while the transfer runs. */
#define CZT_OVERLAP_BYTES (16 * 1024)
/* Fill m for a send (bytes from the datatype, not hashed yet). */
void czt_msg_send_info(czt_msg *m, const void *buf, int count,
                       MPI_Datatype type, int peer, int tag, MPI_Comm comm,
                       czt_site site);
void czt_msg_hash(czt_msg *m);
/* zlib's CRC-32 of n bytes at p. */
uint32_t czt_crc32(const unsigned char *p, uint64_t n);
/* The first 8 bytes as a little-endian number (fewer: zero-filled). From
 * 8 bytes on one load: the byte loop was 36 of the 81 instructions of an
 * 8-byte send's hash (callgrind; bench/README.md, "Tracer overhead"). */
static inline uint64_t czt_prefix_of(const unsigned char *p, uint64_t bytes) {
  uint64_t v = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  if (bytes >= 8) {
    memcpy(&v, p, 8);
    return v;
  }
#endif
  for (uint64_t i = 0; i < bytes && i < 8; i++) v |= (uint64_t)p[i] << (8 * i);
  return v;
}

/* Fill m for a send of count elements and hash them. */
void czt_msg_send(czt_msg *m, const void *buf, int count, MPI_Datatype type,
                  int peer, int tag, MPI_Comm comm, czt_site site);
/* A completed receive: actual source, tag and byte count from st; hashed
 * only when czt.hash_receives. */
void czt_msg_recv(czt_msg *m, const void *buf, MPI_Datatype type,
                  MPI_Comm comm, const MPI_Status *st, czt_site site);
/* Bytes a completed receive's status says arrived (0: none or unknown).
 * Open MPI keeps them in the status itself: reading the field spares the
 * message path a call into the library (its code and the datatype's
 * lines, cold after every wait). */
static inline uint64_t czt_status_bytes(const MPI_Status *st) {
#if defined(OPEN_MPI) && OPEN_MPI
  return (uint64_t)st->_ucount;
#else
  int received = 0;
  if (PMPI_Get_count(st, MPI_BYTE, &received) != MPI_SUCCESS || received == MPI_UNDEFINED ||
      received < 0)
    return 0;
  return (uint64_t)received;
#endif
}
/* Record a completed blocking receive (nothing for MPI_PROC_NULL), in
 * unthreaded programs late: stamped now and stored by the rank's next
 * record or wait point (the handles must stay valid until then:
 * MPI_Comm_free and MPI_Type_free store it first). otf2_writer.c. */
void czt_record_recv(const void *buf, MPI_Datatype type, MPI_Comm comm,
                     const MPI_Status *st, const czt_site *site);
/* Matched probes (wrappers_mprobe.c): forget all remembered handles. */
void czt_mprobe_init(void);
/* Packed bytes of count elements (0 on error). */
uint64_t czt_type_bytes(int count, MPI_Datatype type);
void czt_types_init(void);

/* ---- collectives the program calls (collective_bytes.c) ---------------- */
/* This rank's bytes sent and received in a collective. */
typedef struct czt_bytes {
  uint64_t s, r;
} czt_bytes;
czt_bytes czt_bytes_none(void);
czt_bytes czt_bytes_bcast(int count, MPI_Datatype type, int root, MPI_Comm comm);
czt_bytes czt_bytes_reduce(int count, MPI_Datatype type, int root, MPI_Comm comm);
czt_bytes czt_bytes_allreduce(int count, MPI_Datatype type);
czt_bytes czt_bytes_gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                           int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm);
czt_bytes czt_bytes_gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                            const int *recvcounts, MPI_Datatype recvtype, int root,
                            MPI_Comm comm);
czt_bytes czt_bytes_scatter(int sendcount, MPI_Datatype sendtype, const void *recvbuf,
                            int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm);
czt_bytes czt_bytes_scatterv(const int *sendcounts, MPI_Datatype sendtype, const void *recvbuf,
                             int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm);
czt_bytes czt_bytes_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                              int recvcount, MPI_Datatype recvtype, MPI_Comm comm);
czt_bytes czt_bytes_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                               const int *recvcounts, MPI_Datatype recvtype, MPI_Comm comm);
czt_bytes czt_bytes_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                             int recvcount, MPI_Datatype recvtype, MPI_Comm comm);
czt_bytes czt_bytes_alltoallv(const void *sendbuf, const int *sendcounts, MPI_Datatype sendtype,
                              const int *recvcounts, MPI_Datatype recvtype, MPI_Comm comm);
czt_bytes czt_bytes_alltoallw(const void *sendbuf, const int *sendcounts,
                              const MPI_Datatype *sendtypes, const int *recvcounts,
                              const MPI_Datatype *recvtypes, MPI_Comm comm);
czt_bytes czt_bytes_reduce_scatter(const int *recvcounts, MPI_Datatype type, MPI_Comm comm);
czt_bytes czt_bytes_reduce_scatter_block(int recvcount, MPI_Datatype type, MPI_Comm comm);

/* Begin, the call, End (bytes computed only when recording). */
#define CZT_COLL(op, comm, root, bytes, call)                             \
  do {                                                                    \
    czt_site site_ = CZT_SITE();                                          \
    if (!czt_recording()) return call;                                    \
    czt_bytes b_ = bytes;                                                 \
    czt_write_coll_begin();                                               \
    int rc_ = call;                                                       \
    czt_write_coll_end(op, comm, root, b_.s, b_.r, site_);                \
    return rc_;                                                           \
  } while (0)

/* ---- communicators (comms.c) ------------------------------------------- */
#define CZT_COMM_UNDEFINED 0xffffffffu
/* OTF2 ref of comm and the world rank of its rank `peer` (locked by the
 * caller when threaded). Unknown communicators (made by calls the tracer
 * does not wrap) get CZT_COMM_UNDEFINED and a locally computed world rank. */
void czt_comm_lookup_table(MPI_Comm comm, int peer, uint32_t *ref, uint32_t *peer_world);
/* World and self without a call: with the table search in the same
 * function a lookup was 25-28 instructions a record, as a call 11, inline
 * about 5 (bench/README.md, "Tracer overhead"). */
static inline int czt_comm_predefined(MPI_Comm comm) {
  return comm == czt.world || comm == czt.self;
}
/* czt_comm_lookup of world or self (czt_comm_predefined): no call. */
static inline void czt_comm_lookup_predefined(MPI_Comm comm, int peer, uint32_t *ref,
                                              uint32_t *peer_world) {
  int world = comm == czt.world;
  *ref = world ? 0 : 1;
  *peer_world = (uint32_t)(world ? peer : czt.rank);
}
static inline void czt_comm_lookup(MPI_Comm comm, int peer, uint32_t *ref,
                                   uint32_t *peer_world) {
  if (czt_comm_predefined(comm))
    czt_comm_lookup_predefined(comm, peer, ref, peer_world);
  else
    czt_comm_lookup_table(comm, peer, ref, peer_world);
}
uint32_t czt_comm_ref(MPI_Comm comm);
/* After a creation call returned *newcomm (collective over *newcomm when it
 * is not MPI_COMM_NULL): agree on its ref, remember its members. */
uint32_t czt_comm_created(MPI_Comm parent, MPI_Comm newcomm, int region);
/* Before MPI_Comm_free. Returns the ref it had. */
uint32_t czt_comm_freed(MPI_Comm comm);
void czt_comms_init(void);
/* Definitions this rank owns (it is the lowest world rank of the comm), as
 * uint64 words: ref, parent ref, region, size, size members. */
const uint64_t *czt_comm_defs(size_t *words);
/* Also append owned definitions to <dir>/rank-N.comms as they are made (for
 * `collectivize trace repair`); removed by czt_comms_recovery_close. */
void czt_comms_recovery_open(const char *dir);
void czt_comms_recovery_close(void);


/* ---- requests (requests.c) --------------------------------------------- */
/* A traced nonblocking or persistent request, keyed by its handle. */
void czt_req_add(MPI_Request handle, int is_send, int persistent, int active,
                 uint64_t id, const czt_msg *m);
/* MPI_Start on a registered persistent request: record its activation. */
void czt_req_start(MPI_Request handle);
/* A request completed (saved handle from before PMPI_Wait or PMPI_Test, its
 * status): record MpiIsendComplete / MpiIrecv / MpiRequestCancelled. */
void czt_req_done(MPI_Request saved, const MPI_Status *st);
void czt_req_cancel(MPI_Request handle);
void czt_req_forget(MPI_Request handle);
int czt_req_complete_leftover_receives(void);
/* Nonzero when some request is registered (fast path for Wait/Test). */
int czt_req_pending(void);
/* Per-thread scratch arrays for the Wait/Test families. */
MPI_Request *czt_tls_requests(int n);
MPI_Status *czt_tls_statuses(int n);

/* ---- the clock (clock.c) ------------------------------------------------ */
/* CLOCK_MONOTONIC ns of this node (skewed on purpose under
 * COLLECTIVIZE_TRACE_CLOCK_SKEW, for tests). */
uint64_t czt_now(void);
/* Reads COLLECTIVIZE_TRACE_CLOCK_SKEW (czt.rank must be set). */
void czt_clock_init(void);
/* This rank's clock against rank 0's: rank 0's time = local time + offset,
 * measured at local time `time` (an OTF2 ClockOffset record). */
typedef struct czt_clock_offset {
  uint64_t time;
  int64_t offset;
  double deviation; /* half the shortest round trip: the offset's bound */
} czt_clock_offset;
/* The communicators the measurement uses (collective over
 * MPI_COMM_WORLD, after czt_clock_init), and their release. */
void czt_clock_sync_open(void);
void czt_clock_sync_close(void);
/* Collective over MPI_COMM_WORLD: this rank's offset, now. */
czt_clock_offset czt_clock_measure(void);
/* Local time t on rank 0's clock, the offset interpolated between first
 * and last (last may be NULL). */
uint64_t czt_clock_to_root(const czt_clock_offset *first, const czt_clock_offset *last,
                           uint64_t t);

/* ---- the event records, rank-N.ring and rank-N.log (event_log.c) ------ */
/* A record's timestamp: TSC ticks (czt_clock_tsc) or czt_now() ns. */
extern int czt_clock_tsc;
static inline uint64_t czt_stamp(void) {
#if defined(__x86_64__)
  if (czt_clock_tsc) return __builtin_ia32_rdtsc();
#endif
  return czt_now();
}
/* 0, or -1 (czt_log_error() says why; the caller closes). */
int czt_log_open(const char *dir, int rank);
const char *czt_log_error(void);
const char *czt_log_path(void);
const char *czt_ring_path(void);
void czt_log_close(void);  /* unmaps; the files stay for conversion */
void czt_log_remove(void); /* after conversion */
uint64_t czt_log_records(void);
/* Disable tracing on this rank with czt_log_error() (otf2_writer.c). */
void czt_log_failed(void);
extern czt_record *czt_log_cursor, *czt_log_end;
extern int czt_log_full_half;
czt_record *czt_log_grow(void); /* a slot in the other half, or NULL */
void czt_log_write_full(void);  /* the full half into the log */
/* The slot for the next record (locked by the caller when threaded), or
 * NULL when the log cannot be written (czt_log_error() says why). Its
 * fields are zero; czt_log_commit stores its kind, last. */
static inline czt_record *czt_log_next(void);
static inline czt_record *czt_log_slot(void) {
  if (czt_log_cursor == czt_log_end) return czt_log_grow();
  return czt_log_next();
}
/* czt_log_slot when the caller saw czt_log_cursor != czt_log_end. */
static inline czt_record *czt_log_next(void) {
  /* The next record's lines are likely cold (the ring is 5 MiB): fetch
   * them now, while the program works, not when the next event stores. */
  __builtin_prefetch((const char *)(czt_log_cursor + 1), 1, 3);
  __builtin_prefetch((const char *)(czt_log_cursor + 2) - 1, 1, 3);
  return czt_log_cursor++;
}
/* The next n records' lines, fetched for writing while an MPI call runs
 * (they are cold after a wait, and a send's records are stored after its
 * call returns). A prefetch never faults, even past the ring. */
static inline void czt_log_prefetch(int n) {
  const char *p = (const char *)czt_log_cursor;
  if (!p) return;
  for (size_t at = 0; at < n * sizeof(czt_record); at += 64) __builtin_prefetch(p + at, 1, 3);
  __builtin_prefetch(p + n * sizeof(czt_record) - 1, 1, 3);
}
static inline void czt_log_commit(czt_record *r, uint8_t kind) {
  atomic_signal_fence(memory_order_release); /* kind is stored last */
  r->kind = kind;
}
/* A completed receive whose record is not stored yet (otf2_writer.c). */
extern int czt_late_pending;
void czt_store_late(void);
/* A full half into the log where the rank is about to wait anyway
 * (COLLECTIVIZE_TRACE_WRITER=inline). */
static inline void czt_log_at_wait_point(void) {
  if (czt_log_full_half >= 0) czt_log_write_full();
}
/* Where a rank is about to wait (before a blocking receive or wait, after
 * a send went out): store the late receive and write a full half to the
 * log, off the message path. */
static inline void czt_at_wait_point(void) {
  if (czt_late_pending) czt_store_late();
  czt_log_at_wait_point();
}
/* Unthreaded programs record a blocking receive late (czt_record_recv)
 * and a blocking send of at most CZT_AFTER_POST_BYTES after posting it,
 * with the time taken before: the receiver proceeds while the sender
 * records. Larger sends are recorded before: from Open MPI's eager limit
 * on (4 KiB with its header, shared memory) the payload moves only as the
 * sender's library makes progress, so work after the call delays it.
 * Measured untraced (bench/trace/send_work_placement.c, 7 launches):
 * 100 ns of work per send after it returned cost a ping-pong 0.03-0.13
 * us up to 2 KiB, before it 0.18-0.21 us (lower after in 6-7 of 7
 * launches at each size); at 4 KiB after cost more in 5 of 7. A test of
 * 2026-11-24 had found work after a 1 KiB send costing more than before
 * it, and the limit was 256 bytes (bench/README.md, "Tracer overhead"). */
#define CZT_AFTER_POST_BYTES 2048
static inline int czt_late_receives(void) { return !czt.threaded && !czt.hash_receives; }
static inline int czt_send_recorded_after(uint64_t bytes) {
  return bytes <= CZT_AFTER_POST_BYTES && !czt.threaded;
}

/* ---- the OTF2 archive (otf2_writer.c) ---------------------------------- */
int czt_archive_open(const char *dir); /* 0 ok */
int czt_archive_close(void); /* collective; -1: events not converted */
uint64_t czt_new_request_id(void);
uint64_t czt_event_count(void);
void czt_write_send(const czt_msg *m);
/* A blocking send's call, as its wrapper keeps it across the PMPI call:
 * its record is filled from this in its log slot, with no czt_msg in
 * between (that message's fill, hash and copy were 176 of the tracer's
 * 420 instructions per 8-byte MPI_Sendrecv, and the path through it
 * about 250 of a 1 KiB MPI_Send's 380; bench/README.md, "Tracer
 * overhead"). */
typedef struct czt_send_call {
  const void *buf;
  int count, peer, tag;
  MPI_Datatype type;
  MPI_Comm comm;
  czt_site site;
  const czt_predefined *known; /* type's table entry; NULL: derived */
  uint64_t bytes;              /* packed payload bytes */
  uint32_t crc;                /* czt_write_send_call hashes; 0 until then */
} czt_send_call;
/* How a blocking send of an unthreaded program is recorded: through a
 * czt_msg (threaded programs, sends from CZT_OVERLAP_BYTES on, which are
 * hashed while they travel, and derived or sparse types or block CRCs
 * above CZT_AFTER_POST_BYTES), or from its czt_send_call after it is
 * posted (czt_send_recorded_after) or before. */
typedef enum { CZT_SEND_BY_MSG, CZT_SEND_AFTER_POST, CZT_SEND_BEFORE_POST } czt_send_way;
/* Fills c with a blocking send's call (its site set by the caller) and
 * says how it is recorded. */
static inline czt_send_way czt_send_call_fill(czt_send_call *c, const void *buf, int count,
                                              MPI_Datatype type, int peer, int tag,
                                              MPI_Comm comm) {
  if (czt.threaded) return CZT_SEND_BY_MSG;
  const czt_predefined *p = czt_predefined_of(type);
  uint64_t bytes = !p ? czt_type_bytes(count, type) : count > 0 ? (uint64_t)count * p->size : 0;
  czt_send_way way = CZT_SEND_AFTER_POST;
  if (!czt_send_recorded_after(bytes)) {
    if (!p || !p->dense || czt_block_bytes || bytes >= CZT_OVERLAP_BYTES) return CZT_SEND_BY_MSG;
    way = CZT_SEND_BEFORE_POST;
  }
  *c = (czt_send_call){buf, count, peer, tag, type, comm, c->site, p, bytes, 0};
  return way;
}
/* The CRC of c's payload when the writer's usual path takes it from c: a
 * predefined contiguous type, more bytes than the prefix holds, no block
 * CRCs (the other sends are hashed through a czt_msg by the writer). */
static inline void czt_send_call_hash(czt_send_call *c) {
  const czt_predefined *p = c->known;
  if (c->bytes > CZT_CRC_FROM_PREFIX_BYTES && p && p->dense && !czt_block_bytes)
    c->crc = czt_crc32((const unsigned char *)c->buf, c->bytes);
}
/* c's record, filled in its log slot (otf2_writer.c); c is hashed. */
void czt_write_send_call_hashed(const czt_send_call *c, uint64_t t);
/* c's send, stamped t (taken before it was posted; unthreaded only):
 * hashed here, inline in the wrapper, whose frame exists anyway (a call
 * in the writer's usual path would make it save registers), then
 * written. */
static inline void czt_write_send_call(czt_send_call *c, uint64_t t) {
  czt_send_call_hash(c);
  czt_write_send_call_hashed(c, t);
}
void czt_write_isend(const czt_msg *m, uint64_t req);
void czt_write_isend_complete(uint64_t req);
void czt_write_recv(const czt_msg *m);
void czt_write_irecv_request(uint64_t req);
void czt_write_irecv(const czt_msg *m, uint64_t req);
void czt_write_cancelled(uint64_t req);
void czt_write_coll_begin(void);
void czt_write_coll_end(int op, MPI_Comm comm, int root, uint64_t sent,
                        uint64_t received, czt_site site);
void czt_write_enter(int region);
/* The Leave of a communicator call: the comm it made (or freed), the
 * argument comm, the call's site and, when has_color, the split color. */
void czt_write_leave(int region, uint32_t new_comm, uint32_t comm,
                     czt_site site, int has_color, int color);
#endif /* CZT_TRACER_H */
