C     A broadcast built by hand in fixed form (tests only): rank 2 sends
C     its array to every other rank, the call continued in column 6.
      program bcastf
      implicit none
      include 'mpif.h'
      integer me, np, ierr, q, i, src
      integer st(MPI_STATUS_SIZE)
      double precision x(40)
      call MPI_INIT(ierr)
      call MPI_COMM_RANK(MPI_COMM_WORLD, me, ierr)
      call MPI_COMM_SIZE(MPI_COMM_WORLD, np, ierr)
      src = 2
      if (me .eq. src) then
        do 10 i = 1, 40
          x(i) = i * 0.5d0
 10     continue
        do 20 q = 0, np - 1
          if (q .ne. src) call MPI_SEND(x, 40, MPI_DOUBLE_PRECISION,
     &                                  q, 3, MPI_COMM_WORLD, ierr)
 20     continue
      else
        call MPI_RECV(x, 40, MPI_DOUBLE_PRECISION, src, 3,
     &                MPI_COMM_WORLD, st, ierr)
      endif
      if (me .eq. 0) print '(a,f0.1)', 'bcastf: done ', x(40)
      call MPI_FINALIZE(ierr)
      end
