/* trial_state.h: what a communicator keeps per cell for the trials of the
 * table's own algorithms against the MPI library's collective (the logic:
 * decision/trial.h and trial.c). Data only, so that the per-communicator
 * record (comm_state.h) can hold it. */
#ifndef CZ_TRIAL_STATE_H
#define CZ_TRIAL_STATE_H

#ifdef __cplusplus
extern "C" {
#endif

struct czi_algorithm;

/* Where the host has the node's cores, as the communicator's ranks last
 * agreed (decision/placement.c). Near: a cache line's round trip between
 * two ranks' cores ~64 ns; far: ~320 ns, and every shared-memory handover
 * of a freshly written block costs ~3.7x. Per communicator, so every rank
 * probes at the same call. */
enum { CZI_PLACE_NEAR = 0, CZI_PLACE_FAR = 1, CZI_PLACE_UNKNOWN = 2 };
typedef struct czi_placement {
  long long bytes_left;  /* bytes of calls on trial before the next probe */
  unsigned char far;     /* the state agreed last (unknown keeps the old) */
  unsigned changes;      /* times the agreed state flipped */
  unsigned probes, unknown; /* probes run, and those that could not tell */
} czi_placement;

/* Messages from 32 KiB on (per block for alltoall and allgather, the whole
 * message for bcast and allreduce), in power-of-two classes: 32-63 KiB,
 * 64-127 KiB, ..., and 4 MiB and more in the last. */
enum { CZI_TRIAL_MIN_LOG2 = 15, CZI_TRIAL_CLASSES = 8 };

/* One cell's record. Every rank of the communicator makes the same calls in
 * the same order, so every rank's record goes through the same states. */
typedef struct czi_trial {
  const struct czi_algorithm *own, *mpi; /* the table's and the library's */
  czi_placement *place;  /* the communicator's (placement.c) */
  long long bytes;       /* the class's smallest call: counts toward probes */
  unsigned place_changes; /* place->changes when last seen */
  unsigned char far_to_mpi; /* cores far apart: the library runs */
  unsigned calls_left;  /* calls before the next trial */
  unsigned period;      /* calls between trials */
  unsigned char step;   /* 0: no trial running; 1..CZI_TRIAL_STEPS: its call */
  unsigned char use_mpi; /* the verdict all ranks agreed on last */
  unsigned char doubted; /* the last trial went against use_mpi */
  unsigned char trials, switches; /* counts, for tests and curiosity */
  double times[2][3];   /* this rank's own / library calls in it (seconds) */
} czi_trial;

/* What one call keeps between begin and end. */
typedef struct czi_trial_call {
  int timed, which; /* which: 0 own, 1 library, 2 a failed placement
                     * probe (its error in barrier_rc) */
  int barrier_rc;   /* the barrier before a timed call */
  double t0;
} czi_trial_call;

#ifdef __cplusplus
}
#endif

#endif
