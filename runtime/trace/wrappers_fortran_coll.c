/* wrappers_fortran_coll.c: the Fortran collectives on Open MPI (see
 * fortran.h), blocking and nonblocking, through the C wrappers
 * (wrappers_collectives.c, wrappers_icollectives.c) with the program's
 * return address as the site. Handles the MPI library ignores (a
 * non-root's receive type) are converted all the same: f2c of any value
 * is defined, and the C call ignores the result as it ignores the value. */
#include <stdlib.h>

#include "fortran.h"

#ifdef CZT_F_CONVERTS
#define TYPE(h) PMPI_Type_f2c(*(h))
#define COMM(h) PMPI_Comm_f2c(*(h))
#define OP(h) PMPI_Op_f2c(*(h))
#define BUF(b) czt_f_buf(b)

/* The C call with the caller as its site, then ierror. */
#define CALL(expr)              \
  do {                          \
    CZT_F_CALLER_SITE();        \
    int rc_ = (expr);           \
    czt_drop_site();            \
    czt_f_ierr(ierr, rc_);      \
  } while (0)
/* The same for a nonblocking collective: its request back to Fortran. */
#define ICALL(expr)                                          \
  do {                                                       \
    MPI_Request r_;                                          \
    CZT_F_CALLER_SITE();                                     \
    int rc_ = (expr);                                        \
    czt_drop_site();                                         \
    if (rc_ == MPI_SUCCESS) *request = PMPI_Request_c2f(r_); \
    czt_f_ierr(ierr, rc_);                                   \
  } while (0)

typedef MPI_Fint F; /* keeps the parameter lists readable */

CZT_F_NAMES(mpi_barrier, MPI_BARRIER, (F *comm, F *ierr)) { CALL(MPI_Barrier(COMM(comm))); }

/* With a choice buffer: Open MPI only (MPICH's are forwarded). */
#ifdef CZT_F_CONVERT

CZT_F_NAMES(mpi_bcast, MPI_BCAST, (void *buf, F *count, F *type, F *root, F *comm, F *ierr)) {
  CALL(MPI_Bcast(BUF(buf), *count, TYPE(type), *root, COMM(comm)));
}

CZT_F_NAMES(mpi_reduce, MPI_REDUCE,
            (void *sbuf, void *rbuf, F *count, F *type, F *op, F *root, F *comm, F *ierr)) {
  CALL(MPI_Reduce(BUF(sbuf), BUF(rbuf), *count, TYPE(type), OP(op), *root, COMM(comm)));
}

#define CZT_F_ALLREDUCE_LIKE(lo, UP, CNAME)                                         \
  CZT_F_NAMES(lo, UP, (void *sbuf, void *rbuf, F *count, F *type, F *op, F *comm, F *ierr)) { \
    CALL(CNAME(BUF(sbuf), BUF(rbuf), *count, TYPE(type), OP(op), COMM(comm)));      \
  }
CZT_F_ALLREDUCE_LIKE(mpi_allreduce, MPI_ALLREDUCE, MPI_Allreduce)
CZT_F_ALLREDUCE_LIKE(mpi_scan, MPI_SCAN, MPI_Scan)
CZT_F_ALLREDUCE_LIKE(mpi_exscan, MPI_EXSCAN, MPI_Exscan)

/* Gather and Scatter share their arguments. */
#define CZT_F_ROOTED(lo, UP, CNAME)                                                      \
  CZT_F_NAMES(lo, UP, (void *sbuf, F *scount, F *stype, void *rbuf, F *rcount, F *rtype, \
                       F *root, F *comm, F *ierr)) {                                     \
    CALL(CNAME(BUF(sbuf), *scount, TYPE(stype), BUF(rbuf), *rcount, TYPE(rtype), *root,  \
               COMM(comm)));                                                             \
  }
CZT_F_ROOTED(mpi_gather, MPI_GATHER, MPI_Gather)
CZT_F_ROOTED(mpi_scatter, MPI_SCATTER, MPI_Scatter)

CZT_F_NAMES(mpi_gatherv, MPI_GATHERV,
            (void *sbuf, F *scount, F *stype, void *rbuf, F *rcounts, F *displs, F *rtype,
             F *root, F *comm, F *ierr)) {
  CALL(MPI_Gatherv(BUF(sbuf), *scount, TYPE(stype), BUF(rbuf), rcounts, displs, TYPE(rtype),
                   *root, COMM(comm)));
}

CZT_F_NAMES(mpi_scatterv, MPI_SCATTERV,
            (void *sbuf, F *scounts, F *displs, F *stype, void *rbuf, F *rcount, F *rtype,
             F *root, F *comm, F *ierr)) {
  CALL(MPI_Scatterv(BUF(sbuf), scounts, displs, TYPE(stype), BUF(rbuf), *rcount, TYPE(rtype),
                    *root, COMM(comm)));
}

/* Allgather and Alltoall share their arguments. */
#define CZT_F_ALL(lo, UP, CNAME)                                                           \
  CZT_F_NAMES(lo, UP, (void *sbuf, F *scount, F *stype, void *rbuf, F *rcount, F *rtype,   \
                       F *comm, F *ierr)) {                                                \
    CALL(CNAME(BUF(sbuf), *scount, TYPE(stype), BUF(rbuf), *rcount, TYPE(rtype), COMM(comm))); \
  }
CZT_F_ALL(mpi_allgather, MPI_ALLGATHER, MPI_Allgather)
CZT_F_ALL(mpi_alltoall, MPI_ALLTOALL, MPI_Alltoall)

CZT_F_NAMES(mpi_allgatherv, MPI_ALLGATHERV,
            (void *sbuf, F *scount, F *stype, void *rbuf, F *rcounts, F *displs, F *rtype,
             F *comm, F *ierr)) {
  CALL(MPI_Allgatherv(BUF(sbuf), *scount, TYPE(stype), BUF(rbuf), rcounts, displs, TYPE(rtype),
                      COMM(comm)));
}

CZT_F_NAMES(mpi_alltoallv, MPI_ALLTOALLV,
            (void *sbuf, F *scounts, F *sdispls, F *stype, void *rbuf, F *rcounts, F *rdispls,
             F *rtype, F *comm, F *ierr)) {
  CALL(MPI_Alltoallv(BUF(sbuf), scounts, sdispls, TYPE(stype), BUF(rbuf), rcounts, rdispls,
                     TYPE(rtype), COMM(comm)));
}

/* One datatype per process of comm on each side (the send side is not
 * read with MPI_IN_PLACE). */
CZT_F_NAMES(mpi_alltoallw, MPI_ALLTOALLW,
            (void *sbuf, F *scounts, F *sdispls, F *stypes, void *rbuf, F *rcounts,
             F *rdispls, F *rtypes, F *comm, F *ierr)) {
  MPI_Comm c = COMM(comm);
  int n = 0, rc = PMPI_Comm_size(c, &n);
  MPI_Datatype *types = rc == MPI_SUCCESS ? malloc(2 * (size_t)(n > 0 ? n : 1) * sizeof *types)
                                          : NULL;
  if (!types) {
    czt_f_ierr(ierr, rc == MPI_SUCCESS ? MPI_ERR_NO_MEM : rc);
    return;
  }
  void *s = BUF(sbuf);
  for (int i = 0; i < n; i++) {
    types[i] = s == MPI_IN_PLACE ? MPI_DATATYPE_NULL : PMPI_Type_f2c(stypes[i]);
    types[n + i] = PMPI_Type_f2c(rtypes[i]);
  }
  CALL(MPI_Alltoallw(s, scounts, sdispls, types, BUF(rbuf), rcounts, rdispls, types + n, c));
  free(types);
}

CZT_F_NAMES(mpi_reduce_scatter, MPI_REDUCE_SCATTER,
            (void *sbuf, void *rbuf, F *rcounts, F *type, F *op, F *comm, F *ierr)) {
  CALL(MPI_Reduce_scatter(BUF(sbuf), BUF(rbuf), rcounts, TYPE(type), OP(op), COMM(comm)));
}

CZT_F_NAMES(mpi_reduce_scatter_block, MPI_REDUCE_SCATTER_BLOCK,
            (void *sbuf, void *rbuf, F *rcount, F *type, F *op, F *comm, F *ierr)) {
  CALL(MPI_Reduce_scatter_block(BUF(sbuf), BUF(rbuf), *rcount, TYPE(type), OP(op), COMM(comm)));
}

#endif /* CZT_F_CONVERT */

/* ---- nonblocking collectives ---- */
CZT_F_NAMES(mpi_ibarrier, MPI_IBARRIER, (F *comm, F *request, F *ierr)) {
  ICALL(MPI_Ibarrier(COMM(comm), &r_));
}

#ifdef CZT_F_CONVERT

CZT_F_NAMES(mpi_ibcast, MPI_IBCAST,
            (void *buf, F *count, F *type, F *root, F *comm, F *request, F *ierr)) {
  ICALL(MPI_Ibcast(BUF(buf), *count, TYPE(type), *root, COMM(comm), &r_));
}

CZT_F_NAMES(mpi_ireduce, MPI_IREDUCE,
            (void *sbuf, void *rbuf, F *count, F *type, F *op, F *root, F *comm, F *request,
             F *ierr)) {
  ICALL(MPI_Ireduce(BUF(sbuf), BUF(rbuf), *count, TYPE(type), OP(op), *root, COMM(comm), &r_));
}

CZT_F_NAMES(mpi_iallreduce, MPI_IALLREDUCE,
            (void *sbuf, void *rbuf, F *count, F *type, F *op, F *comm, F *request, F *ierr)) {
  ICALL(MPI_Iallreduce(BUF(sbuf), BUF(rbuf), *count, TYPE(type), OP(op), COMM(comm), &r_));
}

#define CZT_F_IROOTED(lo, UP, CNAME)                                                      \
  CZT_F_NAMES(lo, UP, (void *sbuf, F *scount, F *stype, void *rbuf, F *rcount, F *rtype,  \
                       F *root, F *comm, F *request, F *ierr)) {                          \
    ICALL(CNAME(BUF(sbuf), *scount, TYPE(stype), BUF(rbuf), *rcount, TYPE(rtype), *root,  \
                COMM(comm), &r_));                                                        \
  }
CZT_F_IROOTED(mpi_igather, MPI_IGATHER, MPI_Igather)
CZT_F_IROOTED(mpi_iscatter, MPI_ISCATTER, MPI_Iscatter)

#define CZT_F_IALL(lo, UP, CNAME)                                                         \
  CZT_F_NAMES(lo, UP, (void *sbuf, F *scount, F *stype, void *rbuf, F *rcount, F *rtype,  \
                       F *comm, F *request, F *ierr)) {                                   \
    ICALL(CNAME(BUF(sbuf), *scount, TYPE(stype), BUF(rbuf), *rcount, TYPE(rtype),         \
                COMM(comm), &r_));                                                        \
  }
CZT_F_IALL(mpi_iallgather, MPI_IALLGATHER, MPI_Iallgather)
CZT_F_IALL(mpi_ialltoall, MPI_IALLTOALL, MPI_Ialltoall)

CZT_F_NAMES(mpi_ialltoallv, MPI_IALLTOALLV,
            (void *sbuf, F *scounts, F *sdispls, F *stype, void *rbuf, F *rcounts, F *rdispls,
             F *rtype, F *comm, F *request, F *ierr)) {
  ICALL(MPI_Ialltoallv(BUF(sbuf), scounts, sdispls, TYPE(stype), BUF(rbuf), rcounts, rdispls,
                       TYPE(rtype), COMM(comm), &r_));
}
#endif /* CZT_F_CONVERT */
#endif
