C     Hand-made broadcasts in fixed form for the rewriter's tests (the
C     detection report is written by hand around these lines).
      subroutine shapes(x, n, root)
      implicit none
      include 'mpif.h'
      integer n, root, me, p, q, ierr, i
      double precision x(n)
      double precision averylongbuffernameforwrapping(100)
      call MPI_COMM_RANK(MPI_COMM_WORLD, me, ierr)
      call MPI_COMM_SIZE(MPI_COMM_WORLD, p, ierr)
C     1 proposed: a labelled DO ending at CONTINUE, both calls continued
      if (me .eq. root) then
        do 20 q = 0, p - 1
          if (q .ne. root) call MPI_SEND(x, n, MPI_DOUBLE_PRECISION,
     &                                   q, 3, MPI_COMM_WORLD, ierr)
   20   continue
      else
        call MPI_RECV(x, n, MPI_DOUBLE_PRECISION, root, 3,
     &                MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
      endif
C     2 proposed: ENDDO, a call too long for column 72 once joined
      if (me .ne. root) then
        call MPI_RECV(averylongbuffernameforwrapping, 100,
     &                MPI_DOUBLE_PRECISION, root, 4,
     &                MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
      else
        do q = 0, p - 1
          if (q .ne. root) then
            call MPI_SEND(averylongbuffernameforwrapping, 100,
     &                    MPI_DOUBLE_PRECISION, q, 4, MPI_COMM_WORLD,
     &                    ierr)
          endif
        enddo
      endif
C     3 refused: a comment line between the continuation lines
      if (me .eq. root) then
        do 30 q = 0, p - 1
          if (q .ne. root) call MPI_SEND(x, n, MPI_DOUBLE_PRECISION,
C     the destination
     &                                   q, 5, MPI_COMM_WORLD, ierr)
   30   continue
      else
        call MPI_RECV(x, n, MPI_DOUBLE_PRECISION, root, 5,
     &                MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
      endif
C     4 refused: the DO's label is another statement's (a jump target)
      if (me .eq. root) then
        do 40 q = 0, p - 1
          if (q .ne. root) call MPI_SEND(x, n, MPI_DOUBLE_PRECISION,
     &                                   q, 6, MPI_COMM_WORLD, ierr)
   40   i = q
      else
        call MPI_RECV(x, n, MPI_DOUBLE_PRECISION, root, 6,
     &                MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
      endif
C     5 refused: text past column 72 (a sequence number) on the receive
      if (me .eq. root) then
        do 50 q = 0, p - 1
          if (q .ne. root) call MPI_SEND(x, n, MPI_DOUBLE_PRECISION,
     &                                   q, 7, MPI_COMM_WORLD, ierr)
   50   continue
      else
        call MPI_RECV(x, n, MPI_DOUBLE_PRECISION, root, 7,              SEQ00100
     &                MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
      endif
      end
