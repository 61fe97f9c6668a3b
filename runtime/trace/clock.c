/* clock.c: the tracer's clock and how it relates to rank 0's.
 *
 * Timestamps are CLOCK_MONOTONIC nanoseconds of the node a rank runs on:
 * ranks of one node share that clock, nodes' clocks differ. At MPI_Init and
 * at MPI_Finalize the first rank of every node measures its node's offset
 * to rank 0's clock (K ping-pongs with rank 0, the shortest round trip
 * kept: offset = rank 0's time - the round trip's midpoint) and tells the
 * node's other ranks; rank 0's node has offset 0, exactly. The archive
 * keeps them as OTF2 ClockOffset records in each rank's local definitions;
 * readers interpolate between the two.
 *
 * COLLECTIVIZE_TRACE_CLOCK_SKEW=OFFSET[,DRIFT[,unmeasured]] (tests) makes
 * every rank's clock wrong on purpose, as the clocks of different nodes
 * are: rank r's clock reads t + s(r) * OFFSET + d(r) * DRIFT * (t - t0),
 * with s(r) in [-1, 1] (rank 0 -1, rank 1 +1, rank 2 -0.75, rank 3 +0.75,
 * ... by quarters) and d(r) = r mod 3 - 1. OFFSET takes s, ms, us or ns,
 * DRIFT ppm (parts per million). Every rank is then a node of its own: the
 * measured offsets see the skew and readers undo most of it; with
 * "unmeasured" they measure the clocks without it, so the skew reaches the
 * detector whole. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tracer.h"

/* The skew of this rank's clock (zero: none). */
static struct {
  int on, unmeasured;
  int64_t offset;    /* ns added */
  double drift;      /* ns per ns since t0 */
  uint64_t t0;
} skew;

static uint64_t monotonic(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t skewed(uint64_t t) {
  int64_t v = (int64_t)t + skew.offset +
              (int64_t)(skew.drift * (double)((int64_t)t - (int64_t)skew.t0));
  return v < 0 ? 0 : (uint64_t)v;
}

CZT_HOT uint64_t czt_now(void) {
  uint64_t t = monotonic();
  return skew.on ? skewed(t) : t;
}

/* "50ms" -> ns; -1 on a malformed value. */
static int64_t parse_duration(const char *s) {
  char *end = NULL;
  double v = strtod(s, &end);
  if (end == s || v < 0) return -1;
  double unit = 1e9; /* seconds */
  if (strncmp(end, "ms", 2) == 0) unit = 1e6, end += 2;
  else if (strncmp(end, "us", 2) == 0) unit = 1e3, end += 2;
  else if (strncmp(end, "ns", 2) == 0) unit = 1, end += 2;
  else if (*end == 's') end += 1;
  else if (*end && *end != ',') return -1;
  if (*end && *end != ',') return -1;
  return (int64_t)(v * unit);
}

void czt_clock_init(void) {
  memset(&skew, 0, sizeof skew);
  const char *v = getenv("COLLECTIVIZE_TRACE_CLOCK_SKEW");
  if (!v || !*v) return;
  int64_t offset = parse_duration(v);
  double drift = 0;
  int unmeasured = 0, ok = offset >= 0;
  const char *comma = strchr(v, ',');
  if (ok && comma) {
    char *end = NULL;
    drift = strtod(comma + 1, &end);
    ok = end != comma + 1 && strncmp(end, "ppm", 3) == 0 && drift >= 0 && drift < 1e5;
    if (ok) end += 3;
    if (ok && *end == ',') {
      ok = strcmp(end + 1, "unmeasured") == 0;
      unmeasured = ok;
    } else if (ok && *end) {
      ok = 0;
    }
  }
  if (!ok) {
    if (czt.rank == 0)
      czi_warn("trace: COLLECTIVIZE_TRACE_CLOCK_SKEW=%s is not OFFSET[,DRIFTppm[,unmeasured]] "
               "(e.g. 50ms,100ppm); clocks are left as they are", v);
    return;
  }
  int r = czt.rank;
  double s = (r % 2 ? 1.0 : -1.0) * (1.0 - 0.25 * (double)((r / 2) % 4));
  skew.offset = (int64_t)(s * (double)offset);
  skew.drift = (double)(r % 3 - 1) * drift * 1e-6;
  skew.t0 = monotonic();
  skew.unmeasured = unmeasured;
  skew.on = 1;
}

/* ---- offsets to rank 0 -------------------------------------------------- */

#define CZT_SYNC_ROUNDS 8
#define CZT_SYNC_TAG 4242

/* The clock the measurement reads: the skewed one, unless the skew is to
 * stay unmeasured. */
static uint64_t measured_now(void) {
  return skew.on && skew.unmeasured ? monotonic() : czt_now();
}

/* Who measures: node leaders (first rank of each node; every rank when
 * the clocks are skewed) in `leaders`, rank 0 first; each node's ranks in
 * `node`, its leader first. */
static MPI_Comm leaders = MPI_COMM_NULL, node = MPI_COMM_NULL;

void czt_clock_sync_open(void) {
  if (skew.on) {
    PMPI_Comm_dup(MPI_COMM_WORLD, &leaders);
    PMPI_Comm_split(MPI_COMM_WORLD, czt.rank, 0, &node);
    return;
  }
  PMPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, czt.rank, MPI_INFO_NULL, &node);
  int node_rank = 0;
  PMPI_Comm_rank(node, &node_rank);
  PMPI_Comm_split(MPI_COMM_WORLD, node_rank == 0 ? 0 : MPI_UNDEFINED, czt.rank, &leaders);
}

void czt_clock_sync_close(void) {
  if (leaders != MPI_COMM_NULL) PMPI_Comm_free(&leaders);
  if (node != MPI_COMM_NULL) PMPI_Comm_free(&node);
}

/* A leader's offset to leaders' rank 0 (the world's rank 0). */
static czt_clock_offset leader_offset(void) {
  czt_clock_offset out = {czt_now(), 0, 0};
  int rank = 0, size = 1;
  PMPI_Comm_rank(leaders, &rank);
  PMPI_Comm_size(leaders, &size);
  char ping = 0;
  if (rank == 0) {
    /* Rank 0 answers every other leader's pings with its time. */
    for (int r = 1; r < size; r++)
      for (int k = 0; k < CZT_SYNC_ROUNDS; k++) {
        PMPI_Recv(&ping, 1, MPI_CHAR, r, CZT_SYNC_TAG, leaders, MPI_STATUS_IGNORE);
        uint64_t t = measured_now();
        PMPI_Send(&t, 1, MPI_UINT64_T, r, CZT_SYNC_TAG, leaders);
      }
    return out;
  }
  uint64_t best = UINT64_MAX;
  for (int k = 0; k < CZT_SYNC_ROUNDS; k++) {
    uint64_t root = 0, t1 = measured_now();
    PMPI_Send(&ping, 1, MPI_CHAR, 0, CZT_SYNC_TAG, leaders);
    PMPI_Recv(&root, 1, MPI_UINT64_T, 0, CZT_SYNC_TAG, leaders, MPI_STATUS_IGNORE);
    uint64_t t2 = measured_now();
    if (t2 - t1 >= best) continue;
    best = t2 - t1;
    uint64_t mid = t1 + (t2 - t1) / 2;
    out.offset = (int64_t)(root - mid);
    out.deviation = (double)(t2 - t1) / 2;
    /* When: on this rank's (skewed) clock, as the events are stamped. */
    out.time = skew.on && skew.unmeasured ? skewed(mid) : mid;
  }
  return out;
}

czt_clock_offset czt_clock_measure(void) {
  czt_clock_offset out = {czt_now(), 0, 0};
  if (leaders != MPI_COMM_NULL) out = leader_offset();
  /* The node's ranks share its clock: the leader's offset is theirs. */
  if (node != MPI_COMM_NULL) {
    PMPI_Bcast(&out.offset, 1, MPI_INT64_T, 0, node);
    PMPI_Bcast(&out.deviation, 1, MPI_DOUBLE, 0, node);
  }
  return out;
}

uint64_t czt_clock_to_root(const czt_clock_offset *first, const czt_clock_offset *last,
                           uint64_t t) {
  int64_t offset = first->offset;
  if (last && last->time > first->time && t > first->time) {
    if (t >= last->time) {
      offset = last->offset;
    } else {
      long double f = (long double)(t - first->time) / (long double)(last->time - first->time);
      offset = first->offset + (int64_t)(f * (long double)(last->offset - first->offset));
    }
  }
  int64_t v = (int64_t)t + offset;
  return v < 0 ? 0 : (uint64_t)v;
}
