/* wrappers_fortran_forward.c: on MPICH (see fortran.h), the Fortran entry
 * points whose C wrapper records a site: each names its caller (the
 * program) as the site and calls MPICH's own entry point of the same name
 * (the next definition after this library), which converts the arguments
 * and calls the C MPI_* entry point, that is the C wrapper. Every argument
 * of these calls is passed by reference, so a forwarder needs only their
 * number. Entry points that take no site (MPI_Init, MPI_Wait, ...) reach
 * the C wrappers through MPICH unchanged. The mpi_f08 procedures with a
 * choice buffer are forwarded too; those without one call PMPI_* directly
 * and are defined by the converting wrappers (fortran.h). */
#define _GNU_SOURCE /* RTLD_NEXT */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#include "fortran.h"

#ifdef CZT_F_FORWARD
/* MPICH's definition of name, found once; a Fortran program that calls
 * name has it loaded. */
static void *next_definition(void *volatile *cache, const char *name) {
  void *f = *cache;
  if (f) return f;
  f = dlsym(RTLD_NEXT, name);
  if (!f) {
    fprintf(stderr, "collectivize trace: %s is called but the MPI library does not define it "
                    "after the tracer (%s)\n", name, dlerror());
    abort();
  }
  *cache = f;
  return f;
}

#define P1 void *a1
#define P2 P1, void *a2
#define P3 P2, void *a3
#define P4 P3, void *a4
#define P5 P4, void *a5
#define P6 P5, void *a6
#define P7 P6, void *a7
#define P8 P7, void *a8
#define P9 P8, void *a9
#define P10 P9, void *a10
#define P11 P10, void *a11
#define P12 P11, void *a12
#define P13 P12, void *a13
#define A1 a1
#define A2 A1, a2
#define A3 A2, a3
#define A4 A3, a4
#define A5 A4, a5
#define A6 A5, a6
#define A7 A6, a7
#define A8 A7, a8
#define A9 A8, a9
#define A10 A9, a10
#define A11 A10, a11
#define A12 A11, a12
#define A13 A12, a13

#define FORWARD(sym, n)                                               \
  CZT_EXPORT void sym(P##n) {                                         \
    static void *volatile real;                                       \
    void (*f)(P##n) = (void (*)(P##n))next_definition(&real, #sym);   \
    CZT_F_CALLER_SITE();                                              \
    f(A##n);                                                          \
    czt_drop_site();                                                  \
  }

/* Every name of one call: mpif.h / `use mpi` in four manglings, and the
 * mpi_f08 procedure with a choice buffer (lo_f08ts_, same arguments, the
 * buffer a descriptor), which calls the C MPI_* entry point. One without
 * a buffer (lo_f08_) calls PMPI_* itself: the tracer defines it
 * (CZT_F08_CONVERT in fortran.h). */
#define FORWARD_F08_f08ts(lo, n) FORWARD(lo##_f08ts_, n)
#define FORWARD_F08_f08(lo, n)
#define FORWARD_ALL(lo, UP, f08, n) \
  FORWARD(lo##_, n)                 \
  FORWARD(lo##__, n)                \
  FORWARD(lo, n)                    \
  FORWARD(UP, n)                    \
  FORWARD_F08_##f08(lo, n)

/* Point to point (argument counts include ierror). */
FORWARD_ALL(mpi_send, MPI_SEND, f08ts, 7)
FORWARD_ALL(mpi_bsend, MPI_BSEND, f08ts, 7)
FORWARD_ALL(mpi_ssend, MPI_SSEND, f08ts, 7)
FORWARD_ALL(mpi_rsend, MPI_RSEND, f08ts, 7)
FORWARD_ALL(mpi_isend, MPI_ISEND, f08ts, 8)
FORWARD_ALL(mpi_ibsend, MPI_IBSEND, f08ts, 8)
FORWARD_ALL(mpi_issend, MPI_ISSEND, f08ts, 8)
FORWARD_ALL(mpi_irsend, MPI_IRSEND, f08ts, 8)
FORWARD_ALL(mpi_recv, MPI_RECV, f08ts, 8)
FORWARD_ALL(mpi_irecv, MPI_IRECV, f08ts, 8)
FORWARD_ALL(mpi_sendrecv, MPI_SENDRECV, f08ts, 13)
FORWARD_ALL(mpi_sendrecv_replace, MPI_SENDRECV_REPLACE, f08ts, 10)
FORWARD_ALL(mpi_mrecv, MPI_MRECV, f08ts, 6)
FORWARD_ALL(mpi_imrecv, MPI_IMRECV, f08ts, 6)
FORWARD_ALL(mpi_send_init, MPI_SEND_INIT, f08ts, 8)
FORWARD_ALL(mpi_bsend_init, MPI_BSEND_INIT, f08ts, 8)
FORWARD_ALL(mpi_ssend_init, MPI_SSEND_INIT, f08ts, 8)
FORWARD_ALL(mpi_rsend_init, MPI_RSEND_INIT, f08ts, 8)
FORWARD_ALL(mpi_recv_init, MPI_RECV_INIT, f08ts, 8)

/* Communicator creation (the communicator is named by its creating
 * call's site). */
FORWARD_ALL(mpi_comm_dup, MPI_COMM_DUP, f08, 3)
FORWARD_ALL(mpi_comm_dup_with_info, MPI_COMM_DUP_WITH_INFO, f08, 4)
FORWARD_ALL(mpi_comm_split, MPI_COMM_SPLIT, f08, 5)
FORWARD_ALL(mpi_comm_split_type, MPI_COMM_SPLIT_TYPE, f08, 6)
FORWARD_ALL(mpi_comm_create, MPI_COMM_CREATE, f08, 4)
FORWARD_ALL(mpi_comm_create_group, MPI_COMM_CREATE_GROUP, f08, 5)
FORWARD_ALL(mpi_cart_create, MPI_CART_CREATE, f08, 7)

/* Collectives. */
FORWARD_ALL(mpi_barrier, MPI_BARRIER, f08, 2)
FORWARD_ALL(mpi_bcast, MPI_BCAST, f08ts, 6)
FORWARD_ALL(mpi_reduce, MPI_REDUCE, f08ts, 8)
FORWARD_ALL(mpi_allreduce, MPI_ALLREDUCE, f08ts, 7)
FORWARD_ALL(mpi_scan, MPI_SCAN, f08ts, 7)
FORWARD_ALL(mpi_exscan, MPI_EXSCAN, f08ts, 7)
FORWARD_ALL(mpi_gather, MPI_GATHER, f08ts, 9)
FORWARD_ALL(mpi_gatherv, MPI_GATHERV, f08ts, 10)
FORWARD_ALL(mpi_scatter, MPI_SCATTER, f08ts, 9)
FORWARD_ALL(mpi_scatterv, MPI_SCATTERV, f08ts, 10)
FORWARD_ALL(mpi_allgather, MPI_ALLGATHER, f08ts, 8)
FORWARD_ALL(mpi_allgatherv, MPI_ALLGATHERV, f08ts, 9)
FORWARD_ALL(mpi_alltoall, MPI_ALLTOALL, f08ts, 8)
FORWARD_ALL(mpi_alltoallv, MPI_ALLTOALLV, f08ts, 10)
FORWARD_ALL(mpi_alltoallw, MPI_ALLTOALLW, f08ts, 10)
FORWARD_ALL(mpi_reduce_scatter, MPI_REDUCE_SCATTER, f08ts, 7)
FORWARD_ALL(mpi_reduce_scatter_block, MPI_REDUCE_SCATTER_BLOCK, f08ts, 7)
FORWARD_ALL(mpi_ibarrier, MPI_IBARRIER, f08, 3)
FORWARD_ALL(mpi_ibcast, MPI_IBCAST, f08ts, 7)
FORWARD_ALL(mpi_ireduce, MPI_IREDUCE, f08ts, 9)
FORWARD_ALL(mpi_iallreduce, MPI_IALLREDUCE, f08ts, 8)
FORWARD_ALL(mpi_igather, MPI_IGATHER, f08ts, 10)
FORWARD_ALL(mpi_iscatter, MPI_ISCATTER, f08ts, 10)
FORWARD_ALL(mpi_iallgather, MPI_IALLGATHER, f08ts, 9)
FORWARD_ALL(mpi_ialltoall, MPI_IALLTOALL, f08ts, 9)
FORWARD_ALL(mpi_ialltoallv, MPI_IALLTOALLV, f08ts, 11)
#endif
