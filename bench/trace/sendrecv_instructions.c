/* sendrecv_instructions.c: a ring of 8-byte MPI_Sendrecv calls (each rank
 * sends to the next and receives from the previous) for callgrind: the
 * tracer's instructions per call of the path the in-run ring ratio
 * measures (bench/README.md, "Tracer overhead"). The loop and what follows
 * it are functions of their own, so callgrind closes a part at each:
 *
 *   COLLECTIVIZE_TRACE_DIR=DIR mpirun -n 2 -x LD_PRELOAD=TRACER valgrind \
 *       --tool=callgrind --separate-threads=yes --dump-before='run_*' \
 *       --callgrind-out-file=OUT.%p build/bench/cz_sendrecv_instructions [N]
 *   callgrind_annotate --threshold=100 --auto=no OUT.PID.2-01
 *
 * Part 2 of the main thread (OUT.PID.2-01) is the loop; the tracer's
 * functions there, divided by N (default 10000), are its instructions per
 * MPI_Sendrecv (TRACER: a copy made with `strip -g`, which valgrind 3.19
 * needs with clang 14's debug information). With "pingpong" after N, a
 * ping-pong of blocking 8-byte sends and receives instead; a third
 * argument sets the message's bytes (default 8, at most 65536). */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_BYTES = 65536 };
static char out[MAX_BYTES], in[MAX_BYTES];

static __attribute__((noinline)) void run_ring(int n, int bytes, int rank, int p) {
  for (int i = 0; i < n; i++)
    MPI_Sendrecv(out, bytes, MPI_BYTE, (rank + 1) % p, 0, in, bytes, MPI_BYTE,
                 (rank + p - 1) % p, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

/* The ping-pong's blocking MPI_Send and MPI_Recv (mode "pingpong"): per
 * iteration each rank sends once and receives once. */
static __attribute__((noinline)) void run_pingpong(int n, int bytes, int rank) {
  for (int i = 0; i < n; i++) {
    if (rank == 0) {
      MPI_Send(out, bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
      MPI_Recv(out, bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
      MPI_Recv(out, bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(out, bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
    }
  }
}

static __attribute__((noinline)) void run_end(void) { __asm__ volatile(""); }

int main(int argc, char **argv) {
  int rank, p;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  int n = argc > 1 ? atoi(argv[1]) : 10000;
  int bytes = argc > 3 ? atoi(argv[3]) : 8;
  if (bytes < 0 || bytes > MAX_BYTES) bytes = 8;
  for (int i = 0; i < MAX_BYTES; i++) out[i] = (char)(i * 7 + rank);
  if (argc > 2 && strcmp(argv[2], "pingpong") == 0)
    run_pingpong(n, bytes, rank);
  else
    run_ring(n, bytes, rank, p);
  run_end();
  MPI_Finalize();
  return 0;
}
