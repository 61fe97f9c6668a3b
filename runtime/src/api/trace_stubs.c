/* trace_stubs.c: the tracer's API as no-ops, so programs that call it link
 * and run without the tracer. libcollectivize_trace defines the real ones;
 * preloaded or linked before libcollectivize, its definitions win. */
#include "collectivize.h"

int cz_send_to_self(const void *buf, int count, MPI_Datatype type) {
  (void)buf;
  (void)type;
  return count < 0 ? MPI_ERR_COUNT : MPI_SUCCESS;
}
void cz_trace_pause(void) {}
void cz_trace_resume(void) {}
void cz_trace_site(unsigned long long site_id) { (void)site_id; }
void cz_trace_site_at(unsigned long long site_id, void *caller) {
  (void)site_id;
  (void)caller;
}
void cz_trace_sites_database(const char *path) { (void)path; }
