/*
 * placement.c: react within a few calls when the host moves the node's
 * cores far apart, instead of at the next trial (trial.c), up to 1024
 * calls later.
 *
 * Why: on the 2-vCPU VM this project is measured on, the host moves the
 * vCPUs between a near state (a cache line's round trip ~64 ns) and a far
 * one (~320 ns) for tens of seconds at a time. Far apart, a block one core
 * just wrote and the other copies out costs ~3.7x (256 KiB: 132 us against
 * 36), and the shared-memory broadcast, allgather and alltoall, which hand
 * every block over so, lose to the library's single kernel copy by 1.3-3x
 * in the launches the far state hits; near, they win (bench/README.md,
 * "Cores far apart", "Own algorithms on trial", "Placement at run time").
 * The trials noticed the far state only at their next trial and on the
 * fastest of three calls, which at load understates it.
 *
 * How: the communicator's calls on trial count their bytes; every
 * CZI_PLACE_PROBE_BYTES (and at the first such call once the window is
 * made) every rank runs the probe (shm/placement_probe.c: node rank 0 and
 * a partner bounce a cache line through the window, ~1.5-5 us, and every rank
 * reads rank 0's verdict from the window), so all ranks switch at the same
 * call. While the cores are far apart, a cell whose own algorithm hands
 * blocks over by cached copies the far state makes dear runs the library's
 * collective: the shm broadcast from 32 KiB, the shm alltoall and (at
 * P = 2) allgather from 128 KiB per block (below, their copy-ins stream
 * past the cache, common/copy.h, and they win in either state); the
 * allreduces, and the allgather with more ranks than cores, keep their own
 * (they won far apart too). Far apart, no trial runs (the probe
 * decides); when the cores come near again, each cell's trial starts over
 * from the table's choice. A probe that cannot tell (two ranks on one
 * core, a rank descheduled) keeps the last state; the next probe takes the
 * next partner (with more ranks than cores, some pair is on two cores).
 *
 * Environment: COLLECTIVIZE_PLACEMENT=auto (default) | near (never probe:
 * the table and the trials as before) | far (never probe: always the
 * far-apart choice).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "comm_state.h"
#include "placement.h"

enum {
  /* Bytes of calls on trial between probes: 64 calls of 256 KiB (~2-8
   * ms), 512 of 32 KiB. A probe (16 round trips, ~1.5-5 us, and the ranks
   * meeting) every 4 MiB cost the broadcast of 256 KiB ~3 % where the far
   * state had handed it to the library. */
  CZI_PLACE_PROBE_BYTES = 16 << 20,
  /* From this size per block the allgather's and alltoall's copy-ins stay
   * cached (common/copy.h, CZI_COPY_STREAM_MAX_BYTES). */
  CZI_PLACE_CACHED_BLOCK = 128 << 10,
};

/* Round trips (ns): near measured 60-90, far 310-340; two ranks sharing a
 * core take a yield per answer (microseconds). */
static double near_max_ns = 160, far_max_ns = 1500;
czi_placement_mode czi_placement_current = CZI_PLACEMENT_AUTO;
static pthread_once_t env_once = PTHREAD_ONCE_INIT;

static void read_env(void) {
  const char *v = getenv("COLLECTIVIZE_PLACEMENT");
  if (!v || !*v || !strcmp(v, "auto")) return;
  if (!strcmp(v, "near")) czi_placement_current = CZI_PLACEMENT_NEAR;
  else if (!strcmp(v, "far")) czi_placement_current = CZI_PLACEMENT_FAR;
  else czi_warn("COLLECTIVIZE_PLACEMENT='%s' is not near, far or auto; using auto", v);
}

czi_placement_mode czi_placement_mode_now(void) {
  pthread_once(&env_once, read_env);
  return czi_placement_current;
}

void czi_placement_set_mode(czi_placement_mode m) {
  pthread_once(&env_once, read_env);
  czi_placement_current = m;
  czi_comm_forget_memos(); /* their trial records depend on it */
}

void czi_placement_set_thresholds(double near_max, double far_max) {
  near_max_ns = near_max;
  far_max_ns = far_max;
}

int czi_placement_far_to_mpi(cz_collective coll, const char *own_name,
                             long long bytes, int nprocs) {
  if (strncmp(own_name, "shm", 3) != 0) return 0;
  if (coll == CZ_COLL_BCAST) return 1;
  /* The allgather with more ranks than the 2 cores won in either state
   * (P = 4: 0.42-0.47x the library's time, median over 24 launches,
   * against 0.65-0.83x when the far state handed it over). */
  if (coll == CZ_COLL_ALLGATHER && nprocs > 2) return 0;
  return (coll == CZ_COLL_ALLGATHER || coll == CZ_COLL_ALLTOALL) &&
         bytes >= CZI_PLACE_CACHED_BLOCK;
}

static int probe(czi_placement *pl, MPI_Comm priv, long long bytes) {
  int state, rc;
  double rtt;
  rc = czi_shm_probe_placement(priv, bytes, pl->unknown, near_max_ns, far_max_ns,
                               &state, &rtt);
  if (rc != MPI_SUCCESS) return rc;
  pl->probes++;
  pl->bytes_left = CZI_PLACE_PROBE_BYTES;
  if (rtt >= 0)
    CZI_LOG("placement: probe %u: round trip %.0f ns: %s", pl->probes, rtt,
            state == CZI_PLACE_NEAR ? "near" : state == CZI_PLACE_FAR ? "far" : "unknown");
  if (state == CZI_PLACE_UNKNOWN)
    pl->unknown++;
  else if (state != pl->far) {
    pl->far = (unsigned char)state;
    pl->changes++;
  }
  return MPI_SUCCESS;
}

int czi_placement_far(czi_placement *pl, MPI_Comm priv, long long bytes,
                      int *rc) {
  *rc = MPI_SUCCESS;
  /* The answer is czi_placement_peek's; here the call is counted and, when
   * its bytes use up the count, the probe runs. */
  if (czi_placement_mode_now() != CZI_PLACEMENT_AUTO)
    return czi_placement_peek(pl, bytes);
  const int probe_due = czi_placement_peek(pl, bytes) < 0;
  pl->bytes_left -= bytes;
  if (probe_due) *rc = probe(pl, priv, bytes);
  return pl->far;
}

int czi_placement_stats(MPI_Comm comm, czi_placement *out) {
  czi_comm_state *s;
  if (czi_comm_state_get(__func__, comm, &s) != MPI_SUCCESS) return -1;
  *out = s->place;
  return 0;
}
