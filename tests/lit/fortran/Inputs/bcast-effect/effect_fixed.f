C     The same shape in fixed form, from rank 2 (mpif.h, continued
C     calls): its probe is written in columns 7-72.
      subroutine fixed_bcast
      implicit none
      include 'mpif.h'
      integer me, np, ierr, q, i
      integer flags(6)
      call MPI_COMM_RANK(MPI_COMM_WORLD, me, ierr)
      call MPI_COMM_SIZE(MPI_COMM_WORLD, np, ierr)
      do 10 i = 1, 6
        flags(i) = me * 10 + i
 10   continue
      if (me .eq. 2) then
        do 20 q = 0, np - 1
          if (q .ne. 2) call MPI_SEND(flags, 6, MPI_INTEGER, q, 5,
     &                                MPI_COMM_WORLD, ierr)
 20     continue
      else
        call MPI_RECV(flags, 6, MPI_INTEGER, 2, 5, MPI_COMM_WORLD,
     &                MPI_STATUS_IGNORE, ierr)
      endif
      print '(a,i0,a,i0)', 'rank ', me, ' flags ', flags(1) + flags(6)
      end
