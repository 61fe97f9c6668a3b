/* placement.h: the cores' placement (near or far apart), probed while the
 * program runs, and what a cell on trial runs while they are far apart
 * (placement.c says how and why). Used by trial.c; the probe itself is
 * shm/placement_probe.c. */
#ifndef CZ_PLACEMENT_H
#define CZ_PLACEMENT_H

#include "cz_internal.h"
#include "trial_state.h"

#ifdef __cplusplus
extern "C" {
#endif

/* COLLECTIVIZE_PLACEMENT: near (never probe: today's table and trials),
 * far (never probe: always the far-apart choice), auto (probe; default). */
typedef enum { CZI_PLACEMENT_AUTO, CZI_PLACEMENT_NEAR, CZI_PLACEMENT_FAR } czi_placement_mode;
czi_placement_mode czi_placement_mode_now(void);

/* Whether a cell's own algorithm `own_name` of collective coll on nprocs
 * ranks, with calls of at least `bytes`, hands its calls to the library
 * while the cores are far apart. */
int czi_placement_far_to_mpi(cz_collective coll, const char *own_name,
                             long long bytes, int nprocs);

/* Before a call of `bytes` on trial, alike on every rank of priv: 1 if the
 * cores are far apart, 0 if near. Probes (collective over priv) when the
 * communicator's calls on trial have moved enough bytes since the last. */
int czi_placement_far(czi_placement *pl, MPI_Comm priv, long long bytes,
                      int *rc);

/* The mode, read from the environment by czi_placement_mode_now's first
 * call (czi_trial_for makes it before a record exists). */
extern czi_placement_mode czi_placement_current
    __attribute__((visibility("hidden")));

/* What czi_placement_far would answer for a call of `bytes`, counting
 * nothing: 1 far, 0 near, -1 this call would probe. A caller that then
 * does not call czi_placement_far subtracts bytes from pl->bytes_left
 * itself (only the auto mode reads it). For a record czi_trial_for made. */
static inline int czi_placement_peek(const czi_placement *pl,
                                     long long bytes) {
  switch (czi_placement_current) {
  case CZI_PLACEMENT_NEAR: return 0;
  case CZI_PLACEMENT_FAR: return 1;
  case CZI_PLACEMENT_AUTO: break;
  }
  return pl->bytes_left <= bytes ? -1 : pl->far;
}

/* The probe itself, through the shared window (defined in
 * shm/placement_probe.c; declared here so that decision/ does not include
 * shm/, which includes plan/ and, through it, decision/):
 * collective over priv (every rank calls it at the same call, with the same
 * attempt). Node rank 0 bounces a cache line with node rank 1 + attempt %
 * (p - 1) and returns in *rtt_ns the fastest round trip (ns; -1 when not
 * measured); every rank of the node gets the same *state: CZI_PLACE_NEAR
 * when rtt <= near_max_ns, CZI_PLACE_FAR when rtt <= far_max_ns, else
 * CZI_PLACE_UNKNOWN (the two ranks shared a core, or were descheduled),
 * and UNKNOWN without a window, with one rank, or over several nodes. */
int czi_shm_probe_placement(MPI_Comm priv, long long bytes, unsigned attempt,
                            double near_max_ns, double far_max_ns, int *state,
                            double *rtt_ns);

/* For tests: this process's mode from now on (every rank must set the
 * same), and the probe's thresholds (ns; near_max < 0 and far_max huge:
 * every measured probe reads far). */
void czi_placement_set_mode(czi_placement_mode mode);
void czi_placement_set_thresholds(double near_max_ns, double far_max_ns);
/* For tests: comm's record (probes run, unknown ones, flips, state), or
 * -1 when comm has none. */
int czi_placement_stats(MPI_Comm comm, czi_placement *out);

#ifdef __cplusplus
}
#endif

#endif
