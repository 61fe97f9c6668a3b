/*
 * fortran.h: what the tracer's Fortran wrappers (wrappers_fortran_*.c)
 * share. A Fortran program calls the MPI library's Fortran entry points
 * (mpi_send_ for mpif.h and `use mpi`; mpi_send_f08_ or mpi_send_f08ts_
 * for `use mpi_f08`), and how those reach the C tracer depends on the
 * library (checked with nm on Debian 12's Open MPI 4.1 and MPICH 4.0):
 *
 *  - Open MPI's bindings call PMPI_* directly: the C wrappers never see a
 *    Fortran call. Each Fortran entry point is defined here (CZT_F_CONVERT):
 *    it converts handles (MPI_*_f2c / c2f), the Fortran MPI_BOTTOM and
 *    MPI_IN_PLACE, statuses and logicals, and calls the C wrapper.
 *  - MPICH's mpif.h and `use mpi` bindings call the C MPI_* entry points:
 *    the C wrappers record Fortran calls already, but with a site inside
 *    libmpichfort. The entry points whose C wrapper records a site are
 *    defined here (CZT_F_FORWARD): they name their caller as the site and
 *    call MPICH's own entry point, which converts everything and calls the
 *    C wrapper. MPICH's mpi_f08 procedures are of two sorts (MPICH 4.0,
 *    nm and objdump of libmpichfort.so.12): those with a choice buffer
 *    (mpi_send_f08ts_, the buffer a Fortran descriptor) convert it and
 *    call the C MPI_* entry point, so they are forwarded the same way;
 *    those without one (mpi_init_f08_, mpi_wait_f08_, mpi_comm_split_f08_,
 *    mpi_barrier_f08_, ...) call PMPI_* directly, so the tracer defines
 *    them (CZT_F08_CONVERT): the Open MPI conversions under the _f08_ name
 *    alone, MPICH's Fortran handles being its C handles, its
 *    TYPE(MPI_Status) the C status's five integers, and its f08
 *    MPI_STATUS(ES)_IGNORE the objects MPIR_F08_MPI_STATUS(ES)_IGNORE_OBJ.
 *
 * Either way the C wrapper writes the event (one recording path), and its
 * site is the return address into the Fortran program, which the detector
 * turns into file.f90:line like any other.
 */
#ifndef CZT_FORTRAN_H
#define CZT_FORTRAN_H

#include "tracer.h"

#if defined(OPEN_MPI) && OPEN_MPI
#define CZT_F_CONVERT 1
#elif defined(MPICH)
#define CZT_F_FORWARD 1
#define CZT_F08_CONVERT 1
#endif
/* The converting wrappers of calls without a choice buffer are compiled
 * for both; those with one for Open MPI alone. */
#if defined(CZT_F_CONVERT) || defined(CZT_F08_CONVERT)
#define CZT_F_CONVERTS 1
#endif

/* The caller of the Fortran wrapper (the program) is the next site. */
#define CZT_F_CALLER_SITE() czt_set_caller_site(__builtin_return_address(0))

#ifdef CZT_F_CONVERTS
/* Integer arguments and arrays (counts, displacements, indices) are
 * passed through as int: Open MPI's MPI_Fint is a C int. */
_Static_assert(sizeof(MPI_Fint) == sizeof(int), "MPI_Fint is not an int");
/* A Fortran status is MPI_STATUS_SIZE integers: Open MPI's C status. */
#define CZT_F_STATUS_SIZE (sizeof(MPI_Status) / sizeof(MPI_Fint))

/* One implementation, exported under every name a Fortran compiler may
 * call: gfortran's (mpi_send_), -fsecond-underscore's (mpi_send__),
 * upper case (MPI_SEND), none (mpi_send), and Open MPI's mpi_f08 module
 * procedure (mpi_send_f08_), whose arguments are laid out the same: a
 * TYPE(MPI_Comm) is its one integer, a TYPE(MPI_Status) has the integer
 * status's layout, an absent OPTIONAL ierror is NULL. */
#ifdef CZT_F_CONVERT
#define CZT_F_DEFINE(attr, lo, UP, params)                                  \
  CZT_EXPORT void lo##_ params __attribute__((alias("czt_f_" #lo)));      \
  CZT_EXPORT void lo##__ params __attribute__((alias("czt_f_" #lo)));     \
  CZT_EXPORT void lo params __attribute__((alias("czt_f_" #lo)));         \
  CZT_EXPORT void UP params __attribute__((alias("czt_f_" #lo)));         \
  CZT_EXPORT void lo##_f08_ params __attribute__((alias("czt_f_" #lo)));  \
  attr void czt_f_##lo params
#else
/* MPICH: MPICH's mpif.h and `use mpi` entry points stay its own
 * (forwarded); only the mpi_f08 procedure is defined here. */
#define CZT_F_DEFINE(attr, lo, UP, params)                                  \
  CZT_EXPORT void lo##_f08_ params __attribute__((alias("czt_f_" #lo)));  \
  attr void czt_f_##lo params
#endif
#define CZT_F_NAMES(lo, UP, params) CZT_F_DEFINE(, lo, UP, params)
/* On the message path: beside the C wrappers' code (CZT_HOT). */
#define CZT_F_HOT_NAMES(lo, UP, params) CZT_F_DEFINE(CZT_HOT, lo, UP, params)

#ifdef CZT_F_CONVERT
/* Open MPI's Fortran MPI_BOTTOM and MPI_IN_PLACE are these common blocks
 * (the same ones in mpif.h, `use mpi` and `use mpi_f08`). */
extern int mpi_fortran_bottom_, mpi_fortran_in_place_;
static inline void *czt_f_buf(void *b) {
  if (b == (void *)&mpi_fortran_bottom_) return MPI_BOTTOM;
  if (b == (void *)&mpi_fortran_in_place_) return MPI_IN_PLACE;
  return b;
}
#define CZT_F_STATUS_IGNORE MPI_F_STATUS_IGNORE
#define CZT_F_STATUSES_IGNORE MPI_F_STATUSES_IGNORE
#else
/* MPICH's mpi_f08 MPI_STATUS_IGNORE and MPI_STATUSES_IGNORE, as C sees
 * them (MPI-4's MPI_F08_STATUS(ES)_IGNORE: libmpich's objects, or the
 * program's copies of them). */
#define CZT_F_STATUS_IGNORE ((MPI_Fint *)MPI_F08_STATUS_IGNORE)
#define CZT_F_STATUSES_IGNORE ((MPI_Fint *)MPI_F08_STATUSES_IGNORE)
#endif

static inline void czt_f_ierr(MPI_Fint *ierr, int rc) {
  if (ierr) *ierr = (MPI_Fint)rc; /* NULL: absent in mpi_f08 */
}

/* gfortran's .TRUE. is 1 (Open MPI is built for gfortran here). */
static inline MPI_Fint czt_f_logical(int v) { return v ? 1 : 0; }

/* A C status for a Fortran one (NULL for MPI_STATUS_IGNORE), and back. */
static inline MPI_Status *czt_f_status_in(MPI_Fint *f, MPI_Status *local) {
  return f == CZT_F_STATUS_IGNORE ? MPI_STATUS_IGNORE : local;
}
static inline void czt_f_status_out(int rc, MPI_Fint *f, const MPI_Status *c) {
  if (rc == MPI_SUCCESS && f != CZT_F_STATUS_IGNORE) PMPI_Status_c2f(c, f);
}

/* Requests and statuses of the array calls (Waitall, Startall, ...):
 * on the stack up to CZT_F_LOCAL, else on the heap. */
#define CZT_F_LOCAL 32
typedef struct czt_f_arrays {
  MPI_Request *req;
  MPI_Status *st; /* MPI_STATUSES_IGNORE when the program ignores them */
  MPI_Request req_local[CZT_F_LOCAL];
  MPI_Status st_local[CZT_F_LOCAL];
} czt_f_arrays;
/* Converts n Fortran requests (and makes room for n statuses unless
 * fst is MPI_F_STATUSES_IGNORE or NULL). 0, or MPI_ERR_NO_MEM. */
int czt_f_arrays_in(czt_f_arrays *a, int n, const MPI_Fint *freq, const MPI_Fint *fst);
/* The n requests back to Fortran (completed ones are MPI_REQUEST_NULL
 * now), and the first nst statuses unless they are ignored. */
void czt_f_arrays_out(const czt_f_arrays *a, int n, MPI_Fint *freq, MPI_Fint *fst, int nst);
void czt_f_arrays_free(czt_f_arrays *a);
#endif /* CZT_F_CONVERTS */

#endif /* CZT_FORTRAN_H */
