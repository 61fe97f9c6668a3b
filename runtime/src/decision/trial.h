/* trial.h: the table's own algorithm kept on trial against the MPI
 * library's collective, per communicator and cell, while the program runs
 * (trial.c says how and why). The API layer asks czi_trial_for which record
 * a call counts against (NULL: the call is not on trial), then brackets the
 * call with czi_trial_begin / czi_trial_end. */
#ifndef CZ_TRIAL_H
#define CZ_TRIAL_H

#include "cz_internal.h"
#include "placement.h"
#include "trial_state.h"

#ifdef __cplusplus
extern "C" {
#endif

struct czi_comm_state;

/* The record a call of coll moving `bytes` counts against, or NULL: not a
 * table choice (from_table 0), alg is the library's own or self, one
 * process, a message below 32 KiB, collectives other than alltoall,
 * allgather, bcast and allreduce, or COLLECTIVIZE_TRIALS=0. */
czi_trial *czi_trial_for(struct czi_comm_state *s, cz_collective coll,
                         const struct czi_algorithm *alg,
                         const czi_params *params, long long bytes);

/* COLLECTIVIZE_TRIALS (1: on), read by czi_trial_for's first call. */
extern int czi_trials_on __attribute__((visibility("hidden")));

/* 1 when this call of t's cell runs the library's collective with nothing
 * else to do (the cores far apart and the placement hands the cell to the
 * library, or the trials' verdict is the library and no trial is due):
 * the call is counted as czi_trial_begin counts it, and the entry point
 * hands it to PMPI_<coll> as its fast path does; 0: czi_trial_begin.
 * czi_trial_pick's first steps, taken only where they end in the library
 * without a probe, a barrier or a change of state. Inline: the runtime's
 * own instructions for a 32 KiB bcast far apart were 149 through
 * czi_trial_begin (1-1.6 % of the call), 64 this way (bench/README.md,
 * "what the private duplicate costs, and own algorithms far apart"). */
static inline int czi_trial_runs_lib(czi_trial *t) {
  if (t->step != 0) return 0; /* a trial is running */
  const int far = czi_placement_peek(t->place, t->bytes);
  if (far < 0) return 0; /* a probe is due */
  if (far) {
    if (!t->far_to_mpi) return 0;
  } else {
    if (t->place_changes != t->place->changes || !czi_trials_on ||
        !t->use_mpi || t->calls_left == 0)
      return 0; /* starting over, the table's own, or a trial due */
    t->calls_left--;
  }
  t->place->bytes_left -= t->bytes; /* as czi_placement_far counts */
  return 1;
}

/* The out-of-line halves of czi_trial_begin and czi_trial_end. */
const struct czi_algorithm *czi_trial_pick(czi_trial *t, MPI_Comm priv,
                                           czi_trial_call *c);
int czi_trial_record(czi_trial *t, MPI_Comm priv, const czi_trial_call *c,
                     int rc);

/* The algorithm this call runs: alg when t is NULL, else t->own or t->mpi
 * (when the call is one of a trial's: after a barrier over priv, with the
 * clock started). */
static inline const struct czi_algorithm *
czi_trial_begin(czi_trial *t, const struct czi_algorithm *alg, MPI_Comm priv,
                czi_trial_call *c) {
  c->timed = 0;
  return t ? czi_trial_pick(t, priv, c) : alg;
}

/* After the call: its time, and after a trial's last call the verdict,
 * agreed over priv (one PMPI_Allreduce of two doubles). Returns rc, or the
 * agreement's error if rc was MPI_SUCCESS. */
static inline int czi_trial_end(czi_trial *t, MPI_Comm priv,
                                const czi_trial_call *c, int rc) {
  return c->timed ? czi_trial_record(t, priv, c, rc) : rc;
}

/* For tests: the verdict on comm for (coll, bytes): 1 the library, 0 the
 * table's own algorithm, -1 no record; *trials gets the trials run. */
int czi_trial_verdict(MPI_Comm comm, cz_collective coll, long long bytes,
                      int *trials);
/* For tests: this process's COLLECTIVIZE_TRIAL_OWN_SCALE from now on. */
void czi_trial_set_own_scale(double scale);

#ifdef __cplusplus
}
#endif

#endif
