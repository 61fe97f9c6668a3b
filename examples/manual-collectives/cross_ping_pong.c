/* cross_ping_pong.c: the shape of a latency benchmark's cross ping-pong
 * (HPCC's b_eff, bench/realcode/RESULTS.md). Each rank in turn is the
 * client: it pings every other rank, PINGS times each, from one send
 * buffer that it stamps before every ping (first and last byte from the
 * iteration and its rank, the rest a zero fill), and waits for each
 * pong. So the client sends every server the same bytes at iteration i:
 * equal payloads from one root to all ranks, which looked like a
 * broadcast per iteration (confirmed, with the root changing from client
 * to client). But the buffer held other bytes in between (the client sent
 * them from that very range), so each ping is the stamp made again, and
 * every send waits for the previous server's answer: no MPI_Bcast can
 * replace them. Expected: no bcast at all. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { BYTES = 512, PINGS = 4, PING = 1, PONG = 2, NEXT = 3 };

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  unsigned char *out = calloc(BYTES, 1), *in = calloc(BYTES, 1);
  int errors = 0;
  for (int client = 0; client < p; client++) {
    if (me == client && client > 0) /* the token: the previous client is done */
      MPI_Recv(in, 0, MPI_BYTE, client - 1, NEXT, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int server = 0; server < p; server++) {
      if (server == client) continue;
      for (int i = 0; i < PINGS; i++) {
        unsigned char base = (unsigned char)((i + client + 1) & 0x7f);
        if (me == client) {
          out[0] = base, out[BYTES - 1] = (unsigned char)(base + 1);
          MPI_Send(out, BYTES, MPI_BYTE, server, PING, MPI_COMM_WORLD);
          MPI_Recv(in, BYTES, MPI_BYTE, server, PONG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
          errors += in[0] != (unsigned char)(base + 13);
        } else if (me == server) {
          MPI_Recv(in, BYTES, MPI_BYTE, client, PING, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
          out[0] = (unsigned char)(in[0] + 13), out[BYTES - 1] = (unsigned char)(in[BYTES - 1] + 13);
          MPI_Send(out, BYTES, MPI_BYTE, client, PONG, MPI_COMM_WORLD);
        }
      }
    }
    if (me == client && client < p - 1)
      MPI_Send(out, 0, MPI_BYTE, client + 1, NEXT, MPI_COMM_WORLD);
  }
  int all = 0;
  MPI_Reduce(&errors, &all, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (me == 0) printf("cross_ping_pong: %d clients, %d wrong pongs\n", p, all);
  free(out), free(in);
  MPI_Finalize();
  return 0;
}
