/* trace_test.c: one MPI program exercising every call family the tracer
 * wraps, in one launch. Every rank writes what it sent and received, with a
 * CRC-32 computed here with zlib (independently of the tracer), to
 * OUTDIR/expect-<rank>.txt; check_trace.py compares that with otf2-print's
 * view of the trace.
 *   trace_test OUTDIR [threads]
 * Expectation lines: "send BYTES CRC" / "recv BYTES CRC" (one per message
 * record), "coll N", "cancelled N", "comm_create N", "site ID" (a send
 * recorded with that instrumenter site id), "any_source N" (receive records
 * posted with MPI_ANY_SOURCE, or of a message probed with it). */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "collectivize.h"

static int me, P, right, left;
static FILE *expect;
static pthread_mutex_t expect_lock = PTHREAD_MUTEX_INITIALIZER;
static int n_coll, n_cancelled, n_comm_create, n_any_source;

#define CHECK(call)                                                      \
  do {                                                                   \
    int rc_ = (call);                                                    \
    if (rc_ != MPI_SUCCESS) {                                            \
      fprintf(stderr, "rank %d: %s failed (%d) at line %d\n", me, #call, \
              rc_, __LINE__);                                            \
      MPI_Abort(MPI_COMM_WORLD, 1);                                      \
    }                                                                    \
  } while (0)
#define COLL(call)   \
  do {               \
    CHECK(call);     \
    n_coll++;        \
  } while (0)

static void note(const char *kind, const void *data, size_t bytes) {
  unsigned long crc = bytes ? crc32(0L, data, (uInt)bytes) : 0;
  pthread_mutex_lock(&expect_lock);
  fprintf(expect, "%s %zu %08lx\n", kind, bytes, crc);
  pthread_mutex_unlock(&expect_lock);
}

/* Deterministic content: who sent it, which case, which byte. */
static void fill(void *buf, size_t bytes, int who, int what) {
  unsigned char *p = buf;
  for (size_t i = 0; i < bytes; i++)
    p[i] = (unsigned char)(who * 31 + what * 7 + i * 13 + (i >> 8));
}

/* ---- blocking ring: Send/Recv, Bsend, Ssend, Rsend, wildcards ---------- */
static void blocking(void) {
  static const int sizes[] = {0, 1, 8, 100, 65536, 1 << 20};
  size_t max = 1 << 20;
  char *s = malloc(max), *r = malloc(max);
  for (int k = 0; k < 6; k++) {
    int n = sizes[k];
    fill(s, (size_t)n, me, k);
    MPI_Status st;
    int any = k == 3;
    if (me % 2 == 0) {
      CHECK(MPI_Send(s, n, MPI_BYTE, right, k, MPI_COMM_WORLD));
      CHECK(MPI_Recv(r, n, MPI_BYTE, any ? MPI_ANY_SOURCE : left,
                     any ? MPI_ANY_TAG : k, MPI_COMM_WORLD, &st));
    } else {
      CHECK(MPI_Recv(r, n, MPI_BYTE, any ? MPI_ANY_SOURCE : left,
                     any ? MPI_ANY_TAG : k, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
      CHECK(MPI_Send(s, n, MPI_BYTE, right, k, MPI_COMM_WORLD));
    }
    note("send", s, (size_t)n);
    note("recv", r, (size_t)n);
    n_any_source += any;
  }
  /* Receive fewer bytes than posted: the hash covers what arrived. */
  int ints[10];
  for (int i = 0; i < 10; i++) ints[i] = me * 100 + i;
  int got[20];
  if (me % 2 == 0) {
    CHECK(MPI_Send(ints, 10, MPI_INT, right, 50, MPI_COMM_WORLD));
    CHECK(MPI_Recv(got, 20, MPI_INT, left, 50, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  } else {
    CHECK(MPI_Recv(got, 20, MPI_INT, left, 50, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK(MPI_Send(ints, 10, MPI_INT, right, 50, MPI_COMM_WORLD));
  }
  note("send", ints, sizeof ints);
  note("recv", got, sizeof ints);

  /* Bsend */
  int bsize = 4096 + MPI_BSEND_OVERHEAD;
  void *battach = malloc((size_t)bsize);
  CHECK(MPI_Buffer_attach(battach, bsize));
  fill(s, 1000, me, 10);
  CHECK(MPI_Bsend(s, 1000, MPI_BYTE, right, 10, MPI_COMM_WORLD));
  CHECK(MPI_Recv(r, 1000, MPI_BYTE, left, 10, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  note("send", s, 1000);
  note("recv", r, 1000);
  CHECK(MPI_Buffer_detach(&battach, &bsize));
  free(battach);

  /* Ssend */
  fill(s, 300, me, 11);
  if (me % 2 == 0) {
    CHECK(MPI_Ssend(s, 300, MPI_BYTE, right, 11, MPI_COMM_WORLD));
    CHECK(MPI_Recv(r, 300, MPI_BYTE, left, 11, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  } else {
    CHECK(MPI_Recv(r, 300, MPI_BYTE, left, 11, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK(MPI_Ssend(s, 300, MPI_BYTE, right, 11, MPI_COMM_WORLD));
  }
  note("send", s, 300);
  note("recv", r, 300);

  /* Rsend: the receive is posted before the barrier. */
  MPI_Request req;
  fill(s, 64, me, 12);
  CHECK(MPI_Irecv(r, 64, MPI_BYTE, left, 12, MPI_COMM_WORLD, &req));
  COLL(MPI_Barrier(MPI_COMM_WORLD));
  CHECK(MPI_Rsend(s, 64, MPI_BYTE, right, 12, MPI_COMM_WORLD));
  CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE));
  note("send", s, 64);
  note("recv", r, 64);

  /* Sends to MPI_PROC_NULL move nothing and are not recorded. */
  CHECK(MPI_Send(s, 8, MPI_BYTE, MPI_PROC_NULL, 0, MPI_COMM_WORLD));
  CHECK(MPI_Recv(r, 8, MPI_BYTE, MPI_PROC_NULL, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  free(s);
  free(r);
}

/* ---- nonblocking: I*send, Irecv, all Wait/Test flavours ---------------- */
static void nonblocking(void) {
  enum { N = 4, LEN = 256 };
  char s[N][LEN], r[N][LEN];
  MPI_Request rr[N], sr[N];
  for (int i = 0; i < N; i++) {
    fill(s[i], LEN, me, 20 + i);
    CHECK(MPI_Irecv(r[i], LEN, MPI_BYTE, left, 20 + i, MPI_COMM_WORLD, &rr[i]));
  }
  COLL(MPI_Barrier(MPI_COMM_WORLD)); /* Irsend needs the posted receive */
  CHECK(MPI_Isend(s[0], LEN, MPI_BYTE, right, 20, MPI_COMM_WORLD, &sr[0]));
  CHECK(MPI_Issend(s[1], LEN, MPI_BYTE, right, 21, MPI_COMM_WORLD, &sr[1]));
  CHECK(MPI_Irsend(s[2], LEN, MPI_BYTE, right, 22, MPI_COMM_WORLD, &sr[2]));
  int bsize = 2 * (LEN + MPI_BSEND_OVERHEAD);
  void *battach = malloc((size_t)bsize);
  CHECK(MPI_Buffer_attach(battach, bsize));
  CHECK(MPI_Ibsend(s[3], LEN, MPI_BYTE, right, 23, MPI_COMM_WORLD, &sr[3]));
  for (int k = 0; k < N; k++) { /* receives by Waitany */
    int idx;
    MPI_Status st;
    CHECK(MPI_Waitany(N, rr, &idx, &st));
  }
  CHECK(MPI_Waitall(N, sr, MPI_STATUSES_IGNORE));
  CHECK(MPI_Buffer_detach(&battach, &bsize));
  free(battach);
  for (int i = 0; i < N; i++) {
    note("send", s[i], LEN);
    note("recv", r[i], LEN);
  }

  /* Wildcard receives completed by Testsome; sends by Test. */
  for (int i = 0; i < 3; i++) {
    fill(s[i], 100 + i, me, 30 + i);
    CHECK(MPI_Irecv(r[i], LEN, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG,
                    MPI_COMM_WORLD, &rr[i]));
    n_any_source++;
  }
  for (int i = 0; i < 3; i++)
    CHECK(MPI_Isend(s[i], 100 + i, MPI_BYTE, right, 30 + i, MPI_COMM_WORLD, &sr[i]));
  int done = 0, sizes_got[3];
  MPI_Status sts[3];
  while (done < 3) {
    int out, idx[3];
    CHECK(MPI_Testsome(3, rr, &out, idx, sts));
    for (int j = 0; j < out && out != MPI_UNDEFINED; j++) {
      MPI_Get_count(&sts[j], MPI_BYTE, &sizes_got[idx[j]]);
      done++;
    }
  }
  for (int i = 0; i < 3; i++) {
    int flag = 0;
    while (!flag) CHECK(MPI_Test(&sr[i], &flag, MPI_STATUS_IGNORE));
    note("send", s[i], 100 + i);
    note("recv", r[i], (size_t)sizes_got[i]);
  }

  /* Waitsome for receives, Testall / Testany for sends. */
  for (int i = 0; i < 2; i++) {
    fill(s[i], 40, me, 40 + i);
    CHECK(MPI_Irecv(r[i], 40, MPI_BYTE, left, 40 + i, MPI_COMM_WORLD, &rr[i]));
    CHECK(MPI_Isend(s[i], 40, MPI_BYTE, right, 40 + i, MPI_COMM_WORLD, &sr[i]));
  }
  for (done = 0; done < 2;) {
    int out, idx[2];
    CHECK(MPI_Waitsome(2, rr, &out, idx, MPI_STATUSES_IGNORE));
    done += out;
  }
  int flag = 0;
  while (!flag) CHECK(MPI_Testall(1, sr, &flag, MPI_STATUSES_IGNORE));
  for (flag = 0; !flag;) {
    int idx;
    CHECK(MPI_Testany(1, &sr[1], &idx, &flag, MPI_STATUS_IGNORE));
  }
  for (int i = 0; i < 2; i++) {
    note("send", s[i], 40);
    note("recv", r[i], 40);
  }
}

/* ---- Sendrecv, Sendrecv_replace, Probe / Iprobe ------------------------ */
static void combined(void) {
  char s[500], r[500];
  fill(s, 500, me, 50);
  CHECK(MPI_Sendrecv(s, 500, MPI_BYTE, right, 50, r, 500, MPI_BYTE, left, 50,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  note("send", s, 500);
  note("recv", r, 500);
  /* Large enough that the tracer posts it and hashes during the transfer;
   * the status must still say who sent what. */
  enum { BIG = 96 * 1024 };
  char *bs = malloc(BIG), *br = malloc(BIG);
  fill(bs, BIG, me, 53);
  MPI_Status bst;
  CHECK(MPI_Sendrecv(bs, BIG, MPI_BYTE, right, 53, br, BIG, MPI_BYTE,
                     MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &bst));
  int got = -1;
  MPI_Get_count(&bst, MPI_BYTE, &got);
  if (bst.MPI_SOURCE != left || bst.MPI_TAG != 53 || got != BIG) {
    fprintf(stderr, "rank %d: sendrecv status: source %d tag %d count %d\n",
            me, bst.MPI_SOURCE, bst.MPI_TAG, got);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  note("send", bs, BIG);
  note("recv", br, BIG);
  n_any_source++; /* the receive's record; the send's has no flag */
  /* A small one from MPI_ANY_SOURCE (the receive recorded late) and a
   * Sendrecv_replace from it: the receives are marked, the sends not. */
  fill(s, 8, me, 66);
  CHECK(MPI_Sendrecv(s, 8, MPI_BYTE, right, 66, r, 8, MPI_BYTE, MPI_ANY_SOURCE, 66,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  note("send", s, 8);
  note("recv", r, 8);
  fill(s, 24, me, 67);
  note("send", s, 24);
  CHECK(MPI_Sendrecv_replace(s, 24, MPI_BYTE, right, 67, MPI_ANY_SOURCE, 67, MPI_COMM_WORLD,
                             MPI_STATUS_IGNORE));
  note("recv", s, 24);
  n_any_source += 2;
  /* A large synchronous send (posted as MPI_Issend + wait by the tracer). */
  if (me % 2 == 0 && right != me) {
    fill(bs, BIG, me, 54);
    CHECK(MPI_Ssend(bs, BIG, MPI_BYTE, right, 54, MPI_COMM_WORLD));
    note("send", bs, BIG);
  }
  if (left % 2 == 0 && left != me) {
    CHECK(MPI_Recv(br, BIG, MPI_BYTE, left, 54, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    note("recv", br, BIG);
  }
  free(bs);
  free(br);
  double d[16];
  for (int i = 0; i < 16; i++) d[i] = me + i * 0.5;
  note("send", d, sizeof d);
  CHECK(MPI_Sendrecv_replace(d, 16, MPI_DOUBLE, right, 51, left, 51,
                             MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  note("recv", d, sizeof d);
  /* MPI_PROC_NULL sides record nothing; a receive recorded late after
   * them (its record finished at the next call's send) keeps its own
   * source, tag, size and status. 8 bytes go out eagerly, so the first
   * call does not wait for its receiver's second. */
  fill(s, 8, me, 57);
  CHECK(MPI_Sendrecv(s, 8, MPI_BYTE, right, 57, r, 8, MPI_BYTE, MPI_PROC_NULL, 58,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  note("send", s, 8);
  MPI_Status nst;
  CHECK(MPI_Sendrecv(s, 8, MPI_BYTE, MPI_PROC_NULL, 58, r, 8, MPI_BYTE, left, 57,
                     MPI_COMM_WORLD, &nst));
  if (nst.MPI_SOURCE != left || nst.MPI_TAG != 57) {
    fprintf(stderr, "rank %d: sendrecv status: source %d tag %d\n", me, nst.MPI_SOURCE,
            nst.MPI_TAG);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  note("recv", r, 8);
  fprintf(expect, "recv_count 57 8\n");
  CHECK(MPI_Sendrecv(s, 8, MPI_BYTE, MPI_PROC_NULL, 59, r, 8, MPI_BYTE, MPI_PROC_NULL, 59,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE));

  fill(s, 77, me, 52);
  MPI_Request req;
  CHECK(MPI_Isend(s, 77, MPI_BYTE, right, 52, MPI_COMM_WORLD, &req));
  MPI_Status st;
  int flag = 0;
  while (!flag) CHECK(MPI_Iprobe(MPI_ANY_SOURCE, 52, MPI_COMM_WORLD, &flag, &st));
  CHECK(MPI_Probe(st.MPI_SOURCE, 52, MPI_COMM_WORLD, &st));
  int n;
  MPI_Get_count(&st, MPI_BYTE, &n);
  CHECK(MPI_Recv(r, n, MPI_BYTE, st.MPI_SOURCE, 52, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE));
  note("send", s, 77);
  note("recv", r, (size_t)n);
}

/* ---- matched probes (MPI-3): the receive names no communicator ---------- */
static void matched(void) {
  MPI_Comm dup;
  CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
  n_comm_create++;
  char s[200], r[200];
  fill(s, 200, me, 55);
  MPI_Request req;
  CHECK(MPI_Isend(s, 200, MPI_BYTE, right, 55, dup, &req));
  MPI_Message msg;
  MPI_Status st;
  CHECK(MPI_Mprobe(MPI_ANY_SOURCE, 55, dup, &msg, &st));
  CHECK(MPI_Mrecv(r, 200, MPI_BYTE, &msg, MPI_STATUS_IGNORE));
  n_any_source++; /* probed from MPI_ANY_SOURCE; the Imrecv below from left */
  CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE));
  note("send", s, 200);
  note("recv", r, 200);

  int v[30], w[30];
  for (int i = 0; i < 30; i++) v[i] = me * 1000 + i;
  CHECK(MPI_Isend(v, 30, MPI_INT, right, 56, MPI_COMM_WORLD, &req));
  int flag = 0;
  while (!flag)
    CHECK(MPI_Improbe(left, 56, MPI_COMM_WORLD, &flag, &msg, &st));
  MPI_Request rreq;
  CHECK(MPI_Imrecv(w, 30, MPI_INT, &msg, &rreq));
  CHECK(MPI_Wait(&rreq, MPI_STATUS_IGNORE));
  CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE));
  note("send", v, sizeof v);
  note("recv", w, sizeof w);
  CHECK(MPI_Comm_free(&dup));
}

/* ---- persistent requests ------------------------------------------------ */
static void persistent(void) {
  int s[64], r[64];
  MPI_Request req[2];
  CHECK(MPI_Recv_init(r, 64, MPI_INT, left, 60, MPI_COMM_WORLD, &req[0]));
  CHECK(MPI_Send_init(s, 64, MPI_INT, right, 60, MPI_COMM_WORLD, &req[1]));
  for (int it = 0; it < 3; it++) {
    for (int i = 0; i < 64; i++) s[i] = me * 1000 + it * 64 + i;
    CHECK(MPI_Startall(2, req));
    CHECK(MPI_Waitall(2, req, MPI_STATUSES_IGNORE));
    note("send", s, sizeof s);
    note("recv", r, sizeof r);
  }
  CHECK(MPI_Request_free(&req[0]));
  CHECK(MPI_Request_free(&req[1]));

  MPI_Request a, b;
  CHECK(MPI_Recv_init(r, 8, MPI_INT, MPI_ANY_SOURCE, 61, MPI_COMM_WORLD, &a));
  CHECK(MPI_Ssend_init(s, 8, MPI_INT, right, 61, MPI_COMM_WORLD, &b));
  for (int i = 0; i < 8; i++) s[i] = -me - i;
  CHECK(MPI_Start(&a));
  CHECK(MPI_Start(&b));
  CHECK(MPI_Wait(&b, MPI_STATUS_IGNORE));
  CHECK(MPI_Wait(&a, MPI_STATUS_IGNORE));
  note("send", s, 8 * sizeof(int));
  note("recv", r, 8 * sizeof(int));
  n_any_source++;
  CHECK(MPI_Request_free(&a));
  CHECK(MPI_Request_free(&b));
}

/* ---- derived datatypes: sender and receiver hash the same bytes --------- */
static void derived(void) {
  int grid[4][5], packed[12], back[4][5];
  MPI_Datatype vec;
  CHECK(MPI_Type_vector(4, 3, 5, MPI_INT, &vec));
  CHECK(MPI_Type_commit(&vec));
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 5; j++) grid[i][j] = me * 100 + i * 10 + j;
  int mine[12];
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 3; j++) mine[i * 3 + j] = grid[i][j];
  /* vector -> contiguous */
  CHECK(MPI_Sendrecv(grid, 1, vec, right, 70, packed, 12, MPI_INT, left, 70,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  note("send", mine, sizeof mine);
  note("recv", packed, sizeof packed);
  /* contiguous -> vector */
  memset(back, 0, sizeof back);
  MPI_Request req;
  CHECK(MPI_Irecv(back, 1, vec, left, 71, MPI_COMM_WORLD, &req));
  CHECK(MPI_Send(mine, 12, MPI_INT, right, 71, MPI_COMM_WORLD));
  CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE));
  int got[12];
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 3; j++) got[i * 3 + j] = back[i][j];
  note("send", mine, sizeof mine);
  note("recv", got, sizeof got);
  /* A blocking receive's record is stored late (at the next record): the
   * type freed right after it, and a new one that may take its handle,
   * must not change what it records (one vector element, 48 bytes; a
   * type of 13 ints in its place would make it 0 elements). */
  if (me % 2 == 0) {
    CHECK(MPI_Send(mine, 12, MPI_INT, right, 72, MPI_COMM_WORLD));
    CHECK(MPI_Recv(back, 1, vec, left, 72, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  } else {
    CHECK(MPI_Recv(back, 1, vec, left, 72, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK(MPI_Send(mine, 12, MPI_INT, right, 72, MPI_COMM_WORLD));
  }
  CHECK(MPI_Type_free(&vec));
  MPI_Datatype thirteen;
  CHECK(MPI_Type_contiguous(13, MPI_INT, &thirteen));
  CHECK(MPI_Type_commit(&thirteen));
  int spare[13] = {me, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, spare_in[13];
  CHECK(MPI_Send(spare, 1, thirteen, right, 73, MPI_COMM_WORLD));
  CHECK(MPI_Recv(spare_in, 1, thirteen, left, 73, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  CHECK(MPI_Type_free(&thirteen));
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 3; j++) got[i * 3 + j] = back[i][j];
  note("send", mine, sizeof mine);
  note("recv", got, sizeof got);
  note("send", spare, sizeof spare);
  note("recv", spare_in, sizeof spare_in);
  /* MPI_BOTTOM (a null pointer) with a datatype holding the buffer's
   * absolute address: the tracer hashes the bytes there, and its address
   * arithmetic must not go through the null pointer (undefined behaviour
   * that the sanitized build's UBSan stops on). */
  MPI_Aint at;
  CHECK(MPI_Get_address(mine, &at));
  int twelve = 12;
  MPI_Datatype absolute;
  CHECK(MPI_Type_create_hindexed(1, &twelve, &at, MPI_INT, &absolute));
  CHECK(MPI_Type_commit(&absolute));
  int from_bottom[12];
  CHECK(MPI_Sendrecv(MPI_BOTTOM, 1, absolute, right, 74, from_bottom, 12, MPI_INT, left, 74,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  CHECK(MPI_Type_free(&absolute));
  note("send", mine, sizeof mine);
  note("recv", from_bottom, sizeof from_bottom);
  fprintf(expect, "recv_count 72 1\nrecv_count 73 1\n");
}

/* ---- sub-communicators -------------------------------------------------- */
static void subcomms(void) {
  MPI_Comm half, dup, cart;
  CHECK(MPI_Comm_split(MPI_COMM_WORLD, me % 2, -me, &half)); /* reversed */
  n_comm_create++;
  int hr, hp;
  MPI_Comm_rank(half, &hr);
  MPI_Comm_size(half, &hp);
  if (hp > 1) {
    char s[33], r[33];
    fill(s, 33, me, 80);
    CHECK(MPI_Sendrecv(s, 33, MPI_BYTE, (hr + 1) % hp, 80, r, 33, MPI_BYTE,
                       (hr + hp - 1) % hp, 80, half, MPI_STATUS_IGNORE));
    note("send", s, 33);
    note("recv", r, 33);
  }
  /* That receive is stored by the next record, here a small send on
   * MPI_COMM_WORLD, whose writer fills both without calls for world and
   * self only: the receive keeps its own communicator. The next small
   * send stores this one's receive that way: 2 elements of 2 bytes. */
  short t[2] = {(short)me, 1}, u[2];
  CHECK(MPI_Sendrecv(t, 2, MPI_SHORT, right, 83, u, 2, MPI_SHORT, left, 83, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE));
  note("send", t, sizeof t);
  note("recv", u, sizeof u);
  CHECK(MPI_Sendrecv(t, 1, MPI_SHORT, right, 84, u, 1, MPI_SHORT, left, 84, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE));
  note("send", t, 2);
  note("recv", u, 2);
  fprintf(expect, "recv_count 83 2\n");
  CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
  n_comm_create++;
  long v = me * 7, w = 0;
  CHECK(MPI_Sendrecv(&v, 1, MPI_LONG, right, 81, &w, 1, MPI_LONG, left, 81, dup,
                     MPI_STATUS_IGNORE));
  note("send", &v, sizeof v);
  note("recv", &w, sizeof w);
  int dims[1] = {P}, periods[1] = {1}, src, dst;
  CHECK(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &cart));
  n_comm_create++;
  CHECK(MPI_Cart_shift(cart, 0, 1, &src, &dst));
  short a[3] = {(short)me, 2, 3}, b[3];
  CHECK(MPI_Sendrecv(a, 3, MPI_SHORT, dst, 82, b, 3, MPI_SHORT, src, 82, cart,
                     MPI_STATUS_IGNORE));
  note("send", a, sizeof a);
  note("recv", b, sizeof b);
  COLL(MPI_Barrier(half));
  CHECK(MPI_Comm_free(&cart));
  CHECK(MPI_Comm_free(&dup));
  CHECK(MPI_Comm_free(&half));
}

/* ---- collectives: recorded as collective events, not as messages -------- */
static void collectives(void) {
  int n = 4;
  int *s = calloc((size_t)(n * P), sizeof(int)), *r = calloc((size_t)(n * P), sizeof(int));
  int *counts = malloc(sizeof(int) * (size_t)P), *displs = malloc(sizeof(int) * (size_t)P);
  MPI_Datatype *types = malloc(sizeof(MPI_Datatype) * (size_t)P);
  for (int i = 0; i < P; i++) {
    counts[i] = n;
    displs[i] = i * n;
    types[i] = MPI_INT;
  }
  for (int i = 0; i < n * P; i++) s[i] = me + i;
  int wcounts[64], wdispls[64];
  for (int i = 0; i < P && i < 64; i++) {
    wcounts[i] = n;
    wdispls[i] = i * n * (int)sizeof(int);
  }
  COLL(MPI_Barrier(MPI_COMM_WORLD));
  COLL(MPI_Bcast(s, n, MPI_INT, 0, MPI_COMM_WORLD));
  COLL(MPI_Reduce(s, r, n, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD));
  COLL(MPI_Allreduce(s, r, n, MPI_INT, MPI_MAX, MPI_COMM_WORLD));
  COLL(MPI_Gather(s, n, MPI_INT, r, n, MPI_INT, 0, MPI_COMM_WORLD));
  COLL(MPI_Gatherv(s, n, MPI_INT, r, counts, displs, MPI_INT, 0, MPI_COMM_WORLD));
  COLL(MPI_Scatter(s, n, MPI_INT, r, n, MPI_INT, 0, MPI_COMM_WORLD));
  COLL(MPI_Scatterv(s, counts, displs, MPI_INT, r, n, MPI_INT, 0, MPI_COMM_WORLD));
  COLL(MPI_Allgather(s, n, MPI_INT, r, n, MPI_INT, MPI_COMM_WORLD));
  COLL(MPI_Allgatherv(s, n, MPI_INT, r, counts, displs, MPI_INT, MPI_COMM_WORLD));
  COLL(MPI_Alltoall(s, n, MPI_INT, r, n, MPI_INT, MPI_COMM_WORLD));
  COLL(MPI_Alltoallv(s, counts, displs, MPI_INT, r, counts, displs, MPI_INT,
                     MPI_COMM_WORLD));
  COLL(MPI_Alltoallw(s, wcounts, wdispls, types, r, wcounts, wdispls, types,
                     MPI_COMM_WORLD));
  COLL(MPI_Reduce_scatter(s, r, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
  COLL(MPI_Reduce_scatter_block(s, r, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
  COLL(MPI_Scan(s, r, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
  COLL(MPI_Exscan(s, r, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
  /* Nonblocking ones: recorded where they start. */
  MPI_Request req[9];
  COLL(MPI_Ibarrier(MPI_COMM_WORLD, &req[0]));
  COLL(MPI_Ibcast(s, n, MPI_INT, 0, MPI_COMM_WORLD, &req[1]));
  COLL(MPI_Iallreduce(s, r, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req[2]));
  CHECK(MPI_Waitall(3, req, MPI_STATUSES_IGNORE));
  COLL(MPI_Ireduce(s, r, n, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD, &req[0]));
  CHECK(MPI_Wait(&req[0], MPI_STATUS_IGNORE));
  COLL(MPI_Igather(s, n, MPI_INT, r, n, MPI_INT, 0, MPI_COMM_WORLD, &req[0]));
  CHECK(MPI_Wait(&req[0], MPI_STATUS_IGNORE));
  COLL(MPI_Iscatter(s, n, MPI_INT, r, n, MPI_INT, 0, MPI_COMM_WORLD, &req[0]));
  CHECK(MPI_Wait(&req[0], MPI_STATUS_IGNORE));
  COLL(MPI_Iallgather(s, n, MPI_INT, r, n, MPI_INT, MPI_COMM_WORLD, &req[0]));
  CHECK(MPI_Wait(&req[0], MPI_STATUS_IGNORE));
  COLL(MPI_Ialltoall(s, n, MPI_INT, r, n, MPI_INT, MPI_COMM_WORLD, &req[0]));
  CHECK(MPI_Wait(&req[0], MPI_STATUS_IGNORE));
  COLL(MPI_Ialltoallv(s, counts, displs, MPI_INT, r, counts, displs, MPI_INT, MPI_COMM_WORLD,
                      &req[0]));
  CHECK(MPI_Wait(&req[0], MPI_STATUS_IGNORE));
  free(s);
  free(r);
  free(counts);
  free(displs);
  free(types);
}

/* ---- cancel, cz_send_to_self, sites, pause/resume ----------------------- */
static void api(void) {
  char never[16];
  MPI_Request req;
  MPI_Status st;
  CHECK(MPI_Irecv(never, 16, MPI_BYTE, left, 999, MPI_COMM_WORLD, &req));
  CHECK(MPI_Cancel(&req));
  CHECK(MPI_Wait(&req, &st));
  int cancelled = 0;
  MPI_Test_cancelled(&st, &cancelled);
  n_cancelled += cancelled;

  double block[10];
  for (int i = 0; i < 10; i++) block[i] = me * 0.25 + i;
  CHECK(cz_send_to_self(block, 10, MPI_DOUBLE));
  note("send", block, sizeof block);

  char s[24], r[24];
  fill(s, 24, me, 90);
  cz_trace_site(4242);
  CHECK(MPI_Sendrecv(s, 24, MPI_BYTE, right, 90, r, 24, MPI_BYTE, left, 90,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  note("send", s, 24);
  note("recv", r, 24);
  fprintf(expect, "site 4242\n");

  cz_trace_pause(); /* not recorded */
  CHECK(MPI_Sendrecv(s, 24, MPI_BYTE, right, 91, r, 24, MPI_BYTE, left, 91,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  cz_trace_resume();
}

/* ---- threads (MPI_THREAD_MULTIPLE) -------------------------------------- */
enum { THREADS = 4, ROUNDS = 50 };
static void *thread_main(void *arg) {
  int t = (int)(long)arg;
  unsigned char s[64], r[64];
  for (int k = 0; k < ROUNDS; k++) {
    fill(s, 64, me, 100 + t * ROUNDS + k);
    if (k % 2) {
      MPI_Request req;
      CHECK(MPI_Irecv(r, 64, MPI_BYTE, left, 200 + t, MPI_COMM_WORLD, &req));
      CHECK(MPI_Send(s, 64, MPI_BYTE, right, 200 + t, MPI_COMM_WORLD));
      CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    } else {
      CHECK(MPI_Sendrecv(s, 64, MPI_BYTE, right, 200 + t, r, 64, MPI_BYTE, left,
                         200 + t, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    }
    note("send", s, 64);
    note("recv", r, 64);
  }
  return NULL;
}

static void threads(void) {
  pthread_t th[THREADS];
  for (long t = 0; t < THREADS; t++)
    pthread_create(&th[t], NULL, thread_main, (void *)t);
  for (int t = 0; t < THREADS; t++) pthread_join(th[t], NULL);
}

int main(int argc, char **argv) {
  int use_threads = argc > 2 && strcmp(argv[2], "threads") == 0;
  if (use_threads) {
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    if (provided < MPI_THREAD_MULTIPLE) use_threads = 0;
  } else {
    MPI_Init(&argc, &argv);
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  right = (me + 1) % P;
  left = (me + P - 1) % P;
  char path[4096];
  snprintf(path, sizeof path, "%s/expect-%d.txt", argc > 1 ? argv[1] : ".", me);
  expect = fopen(path, "w");
  if (!expect) {
    perror(path);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  blocking();
  nonblocking();
  combined();
  matched();
  persistent();
  derived();
  subcomms();
  collectives();
  api();
  if (use_threads) threads();
  fprintf(expect, "coll %d\ncancelled %d\ncomm_create %d\nany_source %d\n", n_coll,
          n_cancelled, n_comm_create, n_any_source);
  fclose(expect);
  MPI_Finalize();
  if (me == 0) printf("trace_test: done (%d ranks%s)\n", P, use_threads ? ", threads" : "");
  return 0;
}
