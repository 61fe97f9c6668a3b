/* wrappers_mprobe.c: matched probes and receives (MPI-3). MPI_Mprobe /
 * MPI_Improbe hand out a message handle; MPI_Mrecv / MPI_Imrecv receive it
 * without naming the communicator, so the probes remember which
 * communicator each handle came from (always, even while paused, so a
 * receive after cz_trace_resume() still knows it). */
#include "tracer.h"

#define SLOTS 1024 /* handles probed but not yet received, per process */
static struct {
  MPI_Message msg;
  MPI_Comm comm;
  uint8_t record_flags; /* czt_any_source of the probe's source */
} probed[SLOTS];

static unsigned slot_of(MPI_Message m) {
  return (unsigned)((((uintptr_t)m >> 3) * 0x9E3779B97F4A7C15ull) >> 54) % SLOTS;
}

static void remember(MPI_Message m, MPI_Comm comm, int source) {
  if (m == MPI_MESSAGE_NULL || m == MPI_MESSAGE_NO_PROC) return;
  CZT_LOCK();
  unsigned s = slot_of(m);
  for (unsigned i = 0; i < SLOTS; i++, s = (s + 1) % SLOTS)
    if (probed[s].msg == MPI_MESSAGE_NULL || probed[s].msg == m) {
      probed[s].msg = m;
      probed[s].comm = comm;
      probed[s].record_flags = czt_any_source(source);
      break;
    }
  CZT_UNLOCK();
}

/* The communicator m was probed on (forgotten now), or MPI_COMM_NULL;
 * the probe's source as the receive's record flags in *record_flags. */
static MPI_Comm take_comm(MPI_Message m, uint8_t *record_flags) {
  MPI_Comm comm = MPI_COMM_NULL;
  *record_flags = 0;
  CZT_LOCK();
  unsigned s = slot_of(m);
  for (unsigned i = 0; i < SLOTS; i++, s = (s + 1) % SLOTS) {
    if (probed[s].msg == m) {
      comm = probed[s].comm;
      *record_flags = probed[s].record_flags;
      /* Backward-shift deletion keeps the probe chains intact. */
      unsigned hole = s, next = (s + 1) % SLOTS;
      while (probed[next].msg != MPI_MESSAGE_NULL) {
        unsigned home = slot_of(probed[next].msg);
        if ((next > hole && (home <= hole || home > next)) ||
            (next < hole && home <= hole && home > next)) {
          probed[hole] = probed[next];
          hole = next;
        }
        next = (next + 1) % SLOTS;
      }
      probed[hole].msg = MPI_MESSAGE_NULL;
      break;
    }
    if (probed[s].msg == MPI_MESSAGE_NULL) break;
  }
  CZT_UNLOCK();
  return comm;
}

void czt_mprobe_init(void) {
  for (unsigned i = 0; i < SLOTS; i++) probed[i].msg = MPI_MESSAGE_NULL;
}

CZT_EXPORT int MPI_Mprobe(int source, int tag, MPI_Comm comm,
                          MPI_Message *message, MPI_Status *status) {
  czt_at_wait_point(); /* about to wait */
  int rc = PMPI_Mprobe(source, tag, comm, message, status);
  if (rc == MPI_SUCCESS && czt.archive) remember(*message, comm, source);
  return rc;
}

CZT_EXPORT int MPI_Improbe(int source, int tag, MPI_Comm comm, int *flag,
                           MPI_Message *message, MPI_Status *status) {
  int rc = PMPI_Improbe(source, tag, comm, flag, message, status);
  if (rc == MPI_SUCCESS && *flag && czt.archive) remember(*message, comm, source);
  return rc;
}

CZT_EXPORT int MPI_Mrecv(void *buf, int count, MPI_Datatype type,
                         MPI_Message *message, MPI_Status *status) {
  czt_site site = CZT_SITE();
  MPI_Message m = *message;
  MPI_Comm comm = czt.archive ? take_comm(m, &site.record_flags) : MPI_COMM_NULL;
  MPI_Status local;
  MPI_Status *st = status == MPI_STATUS_IGNORE ? &local : status;
  int rc = PMPI_Mrecv(buf, count, type, message, st);
  /* A handle probed before tracing started has no known communicator:
   * recorded nowhere rather than on a wrong one. */
  if (rc == MPI_SUCCESS && comm != MPI_COMM_NULL && czt_recording())
    czt_record_recv(buf, type, comm, st, &site);
  return rc;
}

CZT_EXPORT int MPI_Imrecv(void *buf, int count, MPI_Datatype type,
                          MPI_Message *message, MPI_Request *request) {
  czt_site site = CZT_SITE();
  MPI_Message m = *message;
  MPI_Comm comm = czt.archive ? take_comm(m, &site.record_flags) : MPI_COMM_NULL;
  int rc = PMPI_Imrecv(buf, count, type, message, request);
  if (rc != MPI_SUCCESS || comm == MPI_COMM_NULL || !czt_recording() ||
      m == MPI_MESSAGE_NO_PROC)
    return rc;
  czt_msg msg = {.comm = comm, .peer = MPI_ANY_SOURCE, .tag = MPI_ANY_TAG,
                 .count = count, .type = type, .buf = buf, .site = site};
  uint64_t id = czt_new_request_id();
  czt_write_irecv_request(id);
  czt_req_add(*request, 0, 0, 1, id, &msg);
  return rc;
}
