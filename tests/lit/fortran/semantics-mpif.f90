! The tracer's Fortran entry points change nothing the program sees: every
! call the tracer records, through mpif.h, with the results checked
! (statuses, MPI_STATUS(ES)_IGNORE, MPI_IN_PLACE, MPI_BOTTOM, 1-based
! indices, LOGICAL flags, requests, persistent requests, new communicators,
! matched probes). The same program runs untraced and traced, and the trace
! holds its messages with return-address sites. (gfortran 10 and later
! want -fallow-argument-mismatch for mpif.h codes that pass scalars and
! arrays to one MPI routine.)
! On Open MPI the tracer converts every argument itself; on MPICH it hands
! the call to MPICH's own entry point untouched. The traced run must print
! what the untraced one prints. MPICH 4.0's own mpif.h bindings fail two
! kinds of check, untraced as well: MPI_Waitany on inactive requests gives
! MPI_UNDEFINED + 1 as the index, and a receive started by MPI_Startall
! after MPI_Recv_init leaves its buffer as it was (every rank, both rounds).
! REQUIRES: mpifort
! RUN: rm -rf %t && mkdir -p %t && %mpifort -g -fallow-argument-mismatch -w %s -o %t/prog
! RUN: %mpirun -np 3 %t/prog | sort > %t/untraced.txt
! RUN: %collectivize run -np 3 --trace-dir %t/trace -- %t/prog > %t/traced-run.txt
! RUN: grep -E '^(FAILED|semantics):' %t/traced-run.txt | sort > %t/traced.txt
! RUN: diff %t/untraced.txt %t/traced.txt
! RUN: FileCheck --check-prefix=%mpi-family %s < %t/traced.txt
! OPENMPI-NOT: FAILED
! OPENMPI: semantics: 3 ranks, 0 failed checks
! MPICH-COUNT-6: FAILED: persistent round
! MPICH-COUNT-3: FAILED: waitany undefined
! MPICH-NEXT: semantics: 3 ranks, 9 failed checks
! RUN: %collectivize trace summary %t/trace | FileCheck --check-prefix=SUMMARY %s
! SUMMARY: incomplete ranks: none
! RUN: %collectivize trace dump %t/trace --rank 0 | FileCheck --check-prefix=DUMP %s
! DUMP: send {{.*}} tag 11 {{.*}} site=ra:0x
! DUMP: isend {{.*}} tag 13
! DUMP: isend_complete
! DUMP: collective_end  allreduce
! DUMP: enter  MPI_Comm_split
! DUMP: leave  MPI_Comm_split site=ra:0x{{[0-9a-f]+}} new_comm={{[0-9]+}} comm={{[0-9]+}} color=
! DUMP: enter  MPI_Comm_free
program semantics_mpif
  implicit none
  include 'mpif.h'
  integer :: me, p, ierr, failed, total_failed
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, p, ierr)
  failed = 0
  call point_to_point(me, p, failed)
  call requests(me, p, failed)
  call persistent(me, p, failed)
  call probes(me, p, failed)
  call collectives(me, p, failed)
  call communicators(me, p, failed)
  call MPI_Allreduce(failed, total_failed, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (me == 0) print '(a,i0,a,i0,a)', 'semantics: ', p, ' ranks, ', total_failed, ' failed checks'
  call MPI_Finalize(ierr)
end program semantics_mpif

subroutine check(ok, what, failed)
  implicit none
  logical, intent(in) :: ok
  character(*), intent(in) :: what
  integer, intent(inout) :: failed
  if (.not. ok) then
    failed = failed + 1
    print '(a,a)', 'FAILED: ', what
  end if
end subroutine check

! Statuses, MPI_STATUS_IGNORE, Sendrecv(_replace), MPI_BOTTOM.
subroutine point_to_point(me, p, failed)
  implicit none
  include 'mpif.h'
  integer, intent(in) :: me, p
  integer, intent(inout) :: failed
  integer :: ierr, st(MPI_STATUS_SIZE), n, x(4), y(4), right, left, abs_type
  integer(kind=MPI_ADDRESS_KIND) :: addr(1)
  integer :: lens(1)
  right = mod(me + 1, p)
  left = mod(me - 1 + p, p)
  x = [me, me + 1, me + 2, me + 3]
  if (me == 0) then
    call MPI_Send(x, 3, MPI_INTEGER, 1, 11, MPI_COMM_WORLD, ierr)
  else if (me == 1) then
    y = -1
    call MPI_Recv(y, 4, MPI_INTEGER, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, st, ierr)
    call MPI_Get_count(st, MPI_INTEGER, n, ierr)
    call check(st(MPI_SOURCE) == 0 .and. st(MPI_TAG) == 11 .and. n == 3, 'recv status', failed)
    call check(all(y == [0, 1, 2, -1]), 'recv data', failed)
  end if
  call MPI_Sendrecv(x, 4, MPI_INTEGER, right, 12, y, 4, MPI_INTEGER, left, 12, MPI_COMM_WORLD, &
                    st, ierr)
  call check(st(MPI_SOURCE) == left .and. y(1) == left, 'sendrecv', failed)
  y = x
  call MPI_Sendrecv_replace(y, 4, MPI_INTEGER, right, 12, left, 12, MPI_COMM_WORLD, &
                            MPI_STATUS_IGNORE, ierr)
  call check(y(4) == left + 3, 'sendrecv_replace', failed)
  ! MPI_BOTTOM with a datatype holding x's absolute address.
  call MPI_Get_address(x, addr(1), ierr)
  lens(1) = 4
  call MPI_Type_create_hindexed(1, lens, addr, MPI_INTEGER, abs_type, ierr)
  call MPI_Type_commit(abs_type, ierr)
  y = 0
  call MPI_Sendrecv(MPI_BOTTOM, 1, abs_type, right, 14, y, 4, MPI_INTEGER, left, 14, &
                    MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  call check(all(y == [left, left + 1, left + 2, left + 3]), 'MPI_BOTTOM', failed)
  call MPI_Type_free(abs_type, ierr)
  call check(abs_type == MPI_DATATYPE_NULL, 'type_free', failed)
end subroutine point_to_point

! Isend/Irecv completed by Waitany, Testall, Waitsome, Test (1-based
! indices, LOGICAL flags, requests set to MPI_REQUEST_NULL).
subroutine requests(me, p, failed)
  implicit none
  include 'mpif.h'
  integer, intent(in) :: me, p
  integer, intent(inout) :: failed
  integer :: ierr, reqs(2), idx, outcount, indices(2), stats(MPI_STATUS_SIZE, 2), k
  integer :: right, left, a(2), b(2)
  logical :: flag
  right = mod(me + 1, p)
  left = mod(me - 1 + p, p)
  a = [me * 10, me * 10 + 1]
  call MPI_Irecv(b, 2, MPI_INTEGER, left, 13, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_Isend(a, 2, MPI_INTEGER, right, 13, MPI_COMM_WORLD, reqs(2), ierr)
  do k = 1, 2
    call MPI_Waitany(2, reqs, idx, stats(:, 1), ierr)
    call check(idx >= 1 .and. idx <= 2, 'waitany index', failed)
    if (idx == 1) call check(stats(MPI_SOURCE, 1) == left, 'waitany status', failed)
  end do
  call check(all(reqs == MPI_REQUEST_NULL) .and. b(2) == left * 10 + 1, 'waitany', failed)
  call MPI_Waitany(2, reqs, idx, MPI_STATUS_IGNORE, ierr)
  call check(idx == MPI_UNDEFINED, 'waitany undefined', failed)

  call MPI_Irecv(b, 2, MPI_INTEGER, left, 15, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_Isend(a, 2, MPI_INTEGER, right, 15, MPI_COMM_WORLD, reqs(2), ierr)
  flag = .false.
  do while (.not. flag)
    call MPI_Testall(2, reqs, flag, stats, ierr)
  end do
  call check(stats(MPI_SOURCE, 1) == left .and. all(reqs == MPI_REQUEST_NULL), 'testall', failed)

  call MPI_Irecv(b, 2, MPI_INTEGER, left, 16, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_Isend(a, 2, MPI_INTEGER, right, 16, MPI_COMM_WORLD, reqs(2), ierr)
  k = 0
  do while (k < 2)
    call MPI_Waitsome(2, reqs, outcount, indices, stats, ierr)
    call check(outcount >= 1 .and. all(indices(1:outcount) >= 1) .and. &
               all(indices(1:outcount) <= 2), 'waitsome indices', failed)
    k = k + outcount
  end do
  call check(all(reqs == MPI_REQUEST_NULL), 'waitsome', failed)

  call MPI_Isend(a, 2, MPI_INTEGER, me, 17, MPI_COMM_WORLD, reqs(2), ierr)
  call MPI_Recv(b, 2, MPI_INTEGER, me, 17, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  flag = .false.
  do while (.not. flag)
    call MPI_Test(reqs(2), flag, MPI_STATUS_IGNORE, ierr)
  end do
  call check(reqs(2) == MPI_REQUEST_NULL .and. b(1) == me * 10, 'test', failed)
end subroutine requests

! Send_init/Recv_init, Startall twice, Waitall with MPI_STATUSES_IGNORE,
! Request_free.
subroutine persistent(me, p, failed)
  implicit none
  include 'mpif.h'
  integer, intent(in) :: me, p
  integer, intent(inout) :: failed
  integer :: ierr, reqs(2), a, b, round
  call MPI_Recv_init(b, 1, MPI_INTEGER, mod(me - 1 + p, p), 18, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_Send_init(a, 1, MPI_INTEGER, mod(me + 1, p), 18, MPI_COMM_WORLD, reqs(2), ierr)
  do round = 1, 2
    a = me * 100 + round
    call MPI_Startall(2, reqs, ierr)
    call MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE, ierr)
    call check(b == mod(me - 1 + p, p) * 100 + round, 'persistent round', failed)
  end do
  call check(all(reqs /= MPI_REQUEST_NULL), 'persistent kept', failed)
  call MPI_Request_free(reqs(1), ierr)
  call MPI_Request_free(reqs(2), ierr)
  call check(all(reqs == MPI_REQUEST_NULL), 'request_free', failed)
end subroutine persistent

! Mprobe/Mrecv and Improbe/Imrecv.
subroutine probes(me, p, failed)
  implicit none
  include 'mpif.h'
  integer, intent(in) :: me, p
  integer, intent(inout) :: failed
  integer :: ierr, msg, st(MPI_STATUS_SIZE), a, b, req
  logical :: flag
  a = me
  call MPI_Send(a, 1, MPI_INTEGER, mod(me + 1, p), 19, MPI_COMM_WORLD, ierr)
  call MPI_Mprobe(MPI_ANY_SOURCE, 19, MPI_COMM_WORLD, msg, st, ierr)
  call check(st(MPI_SOURCE) == mod(me - 1 + p, p), 'mprobe status', failed)
  call MPI_Mrecv(b, 1, MPI_INTEGER, msg, st, ierr)
  call check(b == mod(me - 1 + p, p) .and. msg == MPI_MESSAGE_NULL, 'mrecv', failed)
  call MPI_Send(a, 1, MPI_INTEGER, mod(me + 1, p), 20, MPI_COMM_WORLD, ierr)
  flag = .false.
  do while (.not. flag)
    call MPI_Improbe(MPI_ANY_SOURCE, 20, MPI_COMM_WORLD, flag, msg, MPI_STATUS_IGNORE, ierr)
  end do
  call MPI_Imrecv(b, 1, MPI_INTEGER, msg, req, ierr)
  call MPI_Wait(req, st, ierr)
  call check(b == mod(me - 1 + p, p) .and. st(MPI_TAG) == 20, 'imrecv', failed)
end subroutine probes

! Collectives: MPI_IN_PLACE, v-variants (integer arrays), Alltoallw
! (datatype arrays), scans, nonblocking ones.
subroutine collectives(me, p, failed)
  implicit none
  include 'mpif.h'
  integer, intent(in) :: me, p
  integer, intent(inout) :: failed
  integer :: ierr, i, x(8), y(8), counts(8), displs(8), types(8), req, s
  x = me + 1
  call MPI_Allreduce(MPI_IN_PLACE, x, 2, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call check(x(1) == p * (p + 1) / 2, 'allreduce in place', failed)
  x = me
  call MPI_Bcast(x, 1, MPI_INTEGER, 1, MPI_COMM_WORLD, ierr)
  call check(x(1) == 1, 'bcast', failed)
  call MPI_Reduce(me, s, 1, MPI_INTEGER, MPI_MAX, 0, MPI_COMM_WORLD, ierr)
  if (me == 0) call check(s == p - 1, 'reduce', failed)
  call MPI_Scan(1, s, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call check(s == me + 1, 'scan', failed)
  call MPI_Exscan(1, s, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (me > 0) call check(s == me, 'exscan', failed)
  counts = 1
  displs = [(i, i = 0, 7)]
  call MPI_Gatherv(me * 2, 1, MPI_INTEGER, y, counts, displs, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  if (me == 0) call check(all(y(1:p) == [(2 * i, i = 0, p - 1)]), 'gatherv', failed)
  x = [(10 * i, i = 0, 7)]
  call MPI_Scatterv(x, counts, displs, MPI_INTEGER, s, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  call check(s == 10 * me, 'scatterv', failed)
  call MPI_Allgather(me, 1, MPI_INTEGER, y, 1, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  call check(all(y(1:p) == [(i, i = 0, p - 1)]), 'allgather', failed)
  x = [(me * 10 + i, i = 0, 7)]
  call MPI_Alltoallv(x, counts, displs, MPI_INTEGER, y, counts, displs, MPI_INTEGER, &
                     MPI_COMM_WORLD, ierr)
  call check(all(y(1:p) == [(i * 10 + me, i = 0, p - 1)]), 'alltoallv', failed)
  types = MPI_INTEGER
  displs = [(4 * i, i = 0, 7)]
  y = -1
  call MPI_Alltoallw(x, counts, displs, types, y, counts, displs, types, MPI_COMM_WORLD, ierr)
  call check(all(y(1:p) == [(i * 10 + me, i = 0, p - 1)]), 'alltoallw', failed)
  call MPI_Reduce_scatter_block(x, s, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call check(s == 10 * p * (p - 1) / 2 + p * me, 'reduce_scatter_block', failed)
  x = merge(me, -1, me == 2)
  call MPI_Ibcast(x, 1, MPI_INTEGER, 2, MPI_COMM_WORLD, req, ierr)
  call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
  call check(x(1) == 2 .and. req == MPI_REQUEST_NULL, 'ibcast', failed)
  call MPI_Iallreduce(MPI_IN_PLACE, x, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, req, ierr)
  call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
  call check(x(1) == 2 * p, 'iallreduce in place', failed)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
end subroutine collectives

! Comm_split, Comm_dup, Cart_create (LOGICAL periods), Comm_free.
subroutine communicators(me, p, failed)
  implicit none
  include 'mpif.h'
  integer, intent(in) :: me, p
  integer, intent(inout) :: failed
  integer :: ierr, half, dup, cart, sub_rank, x, dims(1), coords(1)
  logical :: periods(1)
  call MPI_Comm_split(MPI_COMM_WORLD, mod(me, 2), -me, half, ierr)
  call MPI_Comm_rank(half, sub_rank, ierr)
  x = me
  call MPI_Bcast(x, 1, MPI_INTEGER, 0, half, ierr)
  call check(x >= me .and. mod(x, 2) == mod(me, 2), 'split bcast', failed)
  call MPI_Comm_dup(half, dup, ierr)
  call MPI_Comm_free(half, ierr)
  call check(half == MPI_COMM_NULL, 'comm_free', failed)
  call MPI_Comm_free(dup, ierr)
  dims(1) = p
  periods(1) = .true.
  call MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, .false., cart, ierr)
  periods(1) = .false.
  call MPI_Cart_get(cart, 1, dims, periods, coords, ierr)
  call check(periods(1) .and. coords(1) == me, 'cart_create periods', failed)
  call MPI_Comm_free(cart, ierr)
end subroutine communicators
