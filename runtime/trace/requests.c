/* requests.c: the request table. A traced nonblocking or persistent request
 * is remembered by its handle until it completes (or is freed), so the
 * completion can be recorded: MpiIsendComplete for sends, MpiIrecv with the
 * actual source, tag and payload hash for receives, MpiRequestCancelled when
 * the status says cancelled.
 *
 * Handles are pointers that MPI reuses as soon as a request is freed, and in
 * a threaded program a new request can get a handle before the completing
 * thread removed the old entry; entries are appended to their chain and
 * looked up oldest first, preferring the calling thread's own entry, so each
 * completion finds its own (a request completed by another thread than the
 * one that started it, while its handle is being reused, could still be
 * confused). */
#include <stdlib.h>
#include <string.h>

#include "tracer.h"

typedef struct czt_req {
  MPI_Request handle;
  struct czt_req *next;
  uint8_t is_send, persistent, active, cancel;
  int thread;  /* the thread that registered or started it */
  uint64_t id; /* OTF2 request id of the current activation */
  czt_msg msg; /* receives: the posted buffer; persistent sends: the message
               * (hashed at each start); other sends: unset */
} czt_req;

#define BUCKETS 4096
static czt_req *table[BUCKETS];
CZT_HOT_DATA static czt_req *free_list;
static atomic_int entries;

CZT_HOT static unsigned bucket(MPI_Request r) {
  uintptr_t v = (uintptr_t)r;
  return (unsigned)(((v >> 3) * 0x9E3779B97F4A7C15ull) >> 52) % BUCKETS;
}

/* A small per-thread number (pthread_t is opaque). */
static atomic_int n_threads;
static _Thread_local int my_thread;
CZT_HOT static int thread_id(void) {
  if (!my_thread) my_thread = atomic_fetch_add(&n_threads, 1) + 1;
  return my_thread;
}

/* The oldest entry of r, the calling thread's own one if there is one. */
CZT_HOT static czt_req **slot(MPI_Request r) {
  czt_req **p = &table[bucket(r)], **first = NULL;
  int me = czt.threaded ? thread_id() : 0;
  for (; *p; p = &(*p)->next) {
    if ((*p)->handle != r) continue;
    if (!czt.threaded || (*p)->thread == me) return p;
    if (!first) first = p;
  }
  return first ? first : p;
}

/* entries changes only under czt_mutex (or on the program's one MPI
 * thread) and is read without it: a plain load and store, not a locked
 * read-modify-write, which costs tens of cycles on every nonblocking
 * message (two per message: add and release). */
CZT_HOT static void count_entries(int delta) {
  atomic_store_explicit(&entries,
                        atomic_load_explicit(&entries, memory_order_relaxed) + delta,
                        memory_order_relaxed);
}

CZT_HOT int czt_req_pending(void) {
  return atomic_load_explicit(&entries, memory_order_relaxed) > 0;
}

CZT_HOT void czt_req_add(MPI_Request handle, int is_send, int persistent, int active,
                 uint64_t id, const czt_msg *m) {
  CZT_LOCK();
  czt_req *e = free_list;
  if (e)
    free_list = e->next;
  else
    e = malloc(sizeof *e);
  if (e) {
    e->handle = handle;
    e->next = NULL;
    e->is_send = (uint8_t)is_send;
    e->persistent = (uint8_t)persistent;
    e->active = (uint8_t)active;
    e->cancel = 0;
    e->thread = czt.threaded ? thread_id() : 0;
    e->id = id;
    /* What the completion needs: a receive's posted buffer, a persistent
     * send's message to hash at each start; a send's completion only its
     * id (the message is some 100 bytes to copy). */
    if (!is_send || persistent) e->msg = *m;
    czt_req **p = &table[bucket(handle)];
    while (*p) p = &(*p)->next; /* append: oldest first */
    *p = e;
    count_entries(1);
  }
  CZT_UNLOCK();
}

CZT_HOT static void release(czt_req **p) {
  czt_req *e = *p;
  *p = e->next;
  e->next = free_list;
  free_list = e;
  count_entries(-1);
}

CZT_HOT void czt_req_start(MPI_Request handle) {
  CZT_LOCK();
  czt_req **p = slot(handle);
  czt_req copy;
  int found = *p != NULL;
  if (found) {
    (*p)->id = czt_new_request_id();
    (*p)->active = 1;
    (*p)->cancel = 0;
    (*p)->thread = czt.threaded ? thread_id() : 0;
    copy = **p;
  }
  CZT_UNLOCK();
  if (!found) return;
  if (copy.is_send) {
    czt_msg m = copy.msg;
    czt_msg_hash(&m);
    czt_write_isend(&m, copy.id);
  } else {
    czt_write_irecv_request(copy.id);
  }
}

CZT_HOT void czt_req_done(MPI_Request saved, const MPI_Status *st) {
  if (saved == MPI_REQUEST_NULL) return;
  CZT_LOCK();
  czt_req **p = slot(saved);
  czt_msg posted; /* a receive's: the entry may be reused once released */
  int found = *p != NULL && (*p)->active, is_send = 0, cancel = 0;
  uint64_t id = 0;
  if (found) {
    const czt_req *e = *p;
    is_send = e->is_send;
    cancel = e->cancel;
    id = e->id;
    if (!is_send) posted = e->msg;
    if (e->persistent)
      (*p)->active = 0;
    else
      release(p);
  }
  CZT_UNLOCK();
  if (!found) return;
  int cancelled = 0;
  if (cancel) PMPI_Test_cancelled(st, &cancelled);
  if (cancelled) {
    czt_write_cancelled(id);
  } else if (is_send) {
    czt_write_isend_complete(id);
  } else if (st->MPI_SOURCE != MPI_PROC_NULL) {
    czt_msg m;
    czt_msg_recv(&m, posted.buf, posted.type, posted.comm, st, posted.site);
    czt_write_irecv(&m, id);
  }
}

void czt_req_cancel(MPI_Request handle) {
  CZT_LOCK();
  czt_req **p = slot(handle);
  if (*p) (*p)->cancel = 1;
  CZT_UNLOCK();
}

void czt_req_forget(MPI_Request handle) {
  CZT_LOCK();
  czt_req **p = slot(handle);
  if (*p) release(p);
  CZT_UNLOCK();
}

/* Receives the program started and never completed (no MPI_Wait or
 * MPI_Test: a handle overwritten by the next MPI_Irecv, or left to
 * MPI_Finalize) whose message has arrived: tested here, at MPI_Finalize,
 * and recorded as completing now, so the trace has the messages the
 * program's buffers hold. A receive still unmatched stays as it was (MPI
 * reports the pending request, if it does). Returns how many completed. */
int czt_req_complete_leftover_receives(void) {
  if (!czt_req_pending()) return 0;
  int n = 0, cap = atomic_load(&entries);
  MPI_Request *handles = malloc(sizeof *handles * (size_t)(cap > 0 ? cap : 1));
  if (!handles) return 0;
  CZT_LOCK();
  for (unsigned b = 0; b < BUCKETS && n < cap; b++)
    for (czt_req *e = table[b]; e && n < cap; e = e->next)
      if (e->active && !e->persistent && !e->is_send) handles[n++] = e->handle;
  CZT_UNLOCK();
  int done = 0;
  for (int i = 0; i < n; i++) {
    MPI_Request h = handles[i];
    MPI_Status st;
    int flag = 0;
    if (PMPI_Test(&h, &flag, &st) == MPI_SUCCESS && flag) {
      czt_req_done(handles[i], &st);
      done++;
    }
  }
  free(handles);
  return done;
}

/* Per-thread arrays: saved handles and statuses for MPI_STATUSES_IGNORE. */
static _Thread_local MPI_Request *tls_req;
static _Thread_local int tls_req_cap;
static _Thread_local MPI_Status *tls_st;
static _Thread_local int tls_st_cap;

MPI_Request *czt_tls_requests(int n) {
  if (n > tls_req_cap) {
    MPI_Request *p = realloc(tls_req, sizeof *p * (size_t)n);
    if (!p) return NULL;
    tls_req = p;
    tls_req_cap = n;
  }
  return tls_req;
}

MPI_Status *czt_tls_statuses(int n) {
  if (n > tls_st_cap) {
    MPI_Status *p = realloc(tls_st, sizeof *p * (size_t)n);
    if (!p) return NULL;
    tls_st = p;
    tls_st_cap = n;
  }
  return tls_st;
}
