/* api.c: the tracer's public functions (collectivize.h). libcollectivize has
 * no-op versions; these win when the tracer is preloaded or linked first. */
#include <string.h>

#include "tracer.h"

/* Site set by cz_trace_site() (kind 0) or a Fortran wrapper (kind 1, its
 * caller's return address) for this thread's next MPI call, and the return
 * address of the function holding the call when cz_trace_site_at() set it. */
static _Thread_local uint64_t pending_site, pending_caller;
static _Thread_local uint8_t pending_kind;
static _Thread_local int pending;

CZT_HOT czt_site czt_take_pending_site(void *ra) {
  /* Designated: every passed value the wrapper does not set stays 0. */
  if (pending) {
    pending = 0;
    return (czt_site){.id = pending_site, .kind = pending_kind,
                      .passed = {.caller = pending_caller}};
  }
  return (czt_site){.id = (uint64_t)(uintptr_t)ra, .kind = 1};
}

CZT_EXPORT void cz_trace_site(unsigned long long site_id) {
  if (!atomic_load_explicit(&czt.sites, memory_order_relaxed))
    atomic_store_explicit(&czt.sites, 1, memory_order_relaxed);
  pending_site = site_id;
  pending_caller = 0;
  pending_kind = 0;
  pending = 1;
}

/* A site in the program's own wrapper of an MPI call: caller is the
 * wrapper's return address (the instrumenter keeps such wrappers out of
 * line), so messages sent through one wrapper from different places stay
 * apart. One more store than cz_trace_site. */
CZT_EXPORT void cz_trace_site_at(unsigned long long site_id, void *caller) {
  if (!atomic_load_explicit(&czt.sites, memory_order_relaxed))
    atomic_store_explicit(&czt.sites, 1, memory_order_relaxed);
  pending_site = site_id;
  pending_caller = (uint64_t)(uintptr_t)caller;
  pending_kind = 0;
  pending = 1;
}

/* Site databases named by instrumented code (a constructor in each
 * instrumented translation unit, before main): the manifest lists them. */
enum { CZT_MAX_SITE_DATABASES = 4 };
static char *site_databases[CZT_MAX_SITE_DATABASES];
static int site_database_count;

CZT_EXPORT void cz_trace_sites_database(const char *path) {
  if (!path || !*path || strchr(path, '\n')) return;
  for (int i = 0; i < site_database_count; i++)
    if (strcmp(site_databases[i], path) == 0) return;
  if (site_database_count == CZT_MAX_SITE_DATABASES) return;
  char *copy = strdup(path);
  if (copy) site_databases[site_database_count++] = copy;
}

void czt_write_site_databases(FILE *f) {
  for (int i = 0; i < site_database_count; i++) fprintf(f, "sites %s\n", site_databases[i]);
}

CZT_HOT void czt_set_caller_site(void *ra) {
  if (!atomic_load_explicit(&czt.sites, memory_order_relaxed))
    atomic_store_explicit(&czt.sites, 1, memory_order_relaxed);
  pending_site = (uint64_t)(uintptr_t)ra;
  pending_caller = 0;
  pending_kind = 1;
  pending = 1;
}

CZT_HOT void czt_drop_site(void) { pending = 0; }

CZT_EXPORT void cz_trace_pause(void) {
  if (czt_late_pending) czt_store_late(); /* it happened before the pause */
  atomic_fetch_add(&czt.paused, 1);
}

CZT_EXPORT void cz_trace_resume(void) {
  int v = atomic_load(&czt.paused);
  while (v > 0 && !atomic_compare_exchange_weak(&czt.paused, &v, v - 1)) {
  }
}

/* An MpiSend to this rank on MPI_COMM_WORLD, tag 0, marked kept. */
CZT_EXPORT int cz_send_to_self(const void *buf, int count, MPI_Datatype type) {
  czt_site site = CZT_SITE();
  if (!czt_recording()) return MPI_SUCCESS;
  if (count < 0) return MPI_ERR_COUNT;
  czt_msg m;
  czt_msg_send(&m, buf, count, type, czt.rank, 0, MPI_COMM_WORLD, site);
  m.kept = 1;
  czt_write_send(&m);
  return MPI_SUCCESS;
}
