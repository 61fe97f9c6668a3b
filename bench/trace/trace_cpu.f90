! trace_cpu.f90: trace_cpu.c's loop through the Fortran bindings (`use mpi`),
! so the tracer's Fortran wrappers are timed by the same measure as its C
! ones: one rank sends 8 bytes to itself (MPI_Isend, MPI_Recv, MPI_Wait:
! three traced events per message) N times; prints the CPU nanoseconds per
! message of the calling thread and of the whole process, each the best of
! 5 rounds.
!   cz_trace_cpu_fortran 200000
!   LD_PRELOAD=.../libcollectivize_trace.so cz_trace_cpu_fortran 200000
module cpu_clock
  use iso_c_binding
  implicit none
  type, bind(c) :: timespec
    integer(c_long) :: sec, nsec
  end type
  interface
    integer(c_int) function clock_gettime(clock, t) bind(c, name="clock_gettime")
      import :: c_int, timespec
      integer(c_int), value :: clock
      type(timespec) :: t
    end function
  end interface
  ! Linux's clock ids (time.h): CLOCK_PROCESS_CPUTIME_ID, CLOCK_THREAD_CPUTIME_ID.
  integer(c_int), parameter :: process_clock = 2, thread_clock = 3
contains
  double precision function cpu_ns(clock)
    integer(c_int), intent(in) :: clock
    type(timespec) :: t
    if (clock_gettime(clock, t) /= 0) stop "clock_gettime failed"
    cpu_ns = dble(t%sec) * 1d9 + dble(t%nsec)
  end function
end module

program trace_cpu
  use mpi
  use cpu_clock
  implicit none
  integer :: ierr, n, i, round, req
  character(len=16) :: arg
  character :: out(8), in(8)
  double precision :: t, tp, per, per_process, best, best_process
  call MPI_Init(ierr)
  n = 200000
  if (command_argument_count() > 0) then
    call get_command_argument(1, arg)
    read (arg, *) n
  end if
  out = achar([1, 2, 3, 4, 5, 6, 7, 8])
  best = 1d30
  best_process = 1d30
  do round = 1, 5
    t = cpu_ns(thread_clock)
    tp = cpu_ns(process_clock)
    do i = 1, n
      call MPI_Isend(out, 8, MPI_BYTE, 0, 0, MPI_COMM_SELF, req, ierr)
      call MPI_Recv(in, 8, MPI_BYTE, 0, 0, MPI_COMM_SELF, MPI_STATUS_IGNORE, ierr)
      call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
    end do
    per = (cpu_ns(thread_clock) - t) / n
    per_process = (cpu_ns(process_clock) - tp) / n
    best = min(best, per)
    best_process = min(best_process, per_process)
  end do
  write (*, '(f0.1, 1x, f0.1)') best, best_process
  call MPI_Finalize(ierr)
end program
