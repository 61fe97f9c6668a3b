"""Writes a synthetic MPI C file of about LINES lines (default 3000) for the
instrumenting-overhead figure: functions with loops, branches, switches,
nonblocking exchanges, macros and collectives, the shapes the instrumenter
handles. Usage: gen_mpi_source.py OUT.c [LINES]"""
import sys

out, lines = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 3000
head = """#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SEND_TO(buf, n, peer, tag) MPI_Send(buf, n, MPI_DOUBLE, peer, tag, MPI_COMM_WORLD)
#define FAN_OUT(buf, n, size)                                                   \\
  do {                                                                          \\
    for (int to_ = 1; to_ < (size); to_++)                                      \\
      MPI_Send(buf, n, MPI_DOUBLE, to_, 9, MPI_COMM_WORLD);                     \\
  } while (0)

static double work(double *v, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += v[i] * 0.5;
  return s;
}
"""
body = """
double kernel_{k}(double *buf, int n, int rank, int size) {{
  MPI_Request req[4];
  double acc = 0, tmp[16];
  if (rank == 0) {{
    for (int r = 1; r < size; r++) {{
      SEND_TO(buf, n, r, {k});
      acc += work(buf, n);
    }}
  }} else {{
    MPI_Recv(buf, n, MPI_DOUBLE, 0, {k}, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }}
  int left = (rank + size - 1) % size, right = (rank + 1) % size;
  MPI_Irecv(tmp, 16, MPI_DOUBLE, left, {k}, MPI_COMM_WORLD, &req[0]);
  MPI_Isend(buf, 16, MPI_DOUBLE, right, {k}, MPI_COMM_WORLD, &req[1]);
  MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
  switch (rank % 3) {{
  case 0:
    MPI_Sendrecv(buf, n, MPI_DOUBLE, right, 1, tmp, n, MPI_DOUBLE, left, 1,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    break;
  case 1:
    acc += tmp[0];
    break;
  default:
    if (rank == 0) FAN_OUT(buf, n, size);
  }}
  while (acc > 1e9) acc /= 2;
  for (int i = 0; i < n && i < 16; i++) {{
    tmp[i] = buf[i] * (double)({k} + i);
    if (tmp[i] > acc) acc = tmp[i];
    else acc += tmp[i] / (i + 1);
  }}
  MPI_Allreduce(MPI_IN_PLACE, &acc, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Bcast(buf, n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  return acc + work(tmp, 16);
}}
"""
per = body.count("\n")
count = max(1, (lines - head.count("\n") - 10) // per)
with open(out, "w") as f:
    f.write(head)
    for k in range(count):
        f.write(body.format(k=k))
    f.write("\nint main(int argc, char **argv) {\n  MPI_Init(&argc, &argv);\n"
            "  MPI_Finalize();\n  return 0;\n}\n")
