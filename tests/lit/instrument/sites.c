// The site database: one record per MPI call site, in source order, with
// its id, range, callee, argument text, enclosing function and statements,
// and macro origin. Ids are pinned by stable-ids.test, not here.
// REQUIRES: clang-tools
// RUN: rm -rf %t && mkdir -p %t
// RUN: %collectivize instrument -q --root %S -o %t/out %s -- %mpicc -DDIM=4
// RUN: FileCheck %s --input-file %t/out/collectivize-sites.json
// RUN: FileCheck %s --check-prefix=COPY --input-file %t/out/sites.c
// RUN: FileCheck %s --check-prefix=CDB --input-file %t/out/compile_commands.json
// The copy: a prelude, then the original lines under #line.
// COPY: {{^}}void cz_trace_site(unsigned long long) __attribute__((weak));
// COPY: {{^}}#line 1 "{{.*}}sites.c"
// COPY-NEXT: {{^}}// The site database: one record per MPI call site, in source order, with
#include <mpi.h>

#define SEND_TO(buf, peer) MPI_Send(buf, DIM, MPI_INT, peer, 0, MPI_COMM_WORLD)
#define FAN_OUT(buf, n)                                                        \
  do {                                                                         \
    for (int to_ = 1; to_ < (n); to_++)                                        \
      MPI_Ssend(buf, DIM, MPI_INT, to_, 1, MPI_COMM_WORLD);                    \
  } while (0)
// CHECK: {"id":"{{[0-9]+}}","file":"sites.c","line":[[@LINE-2]],"column":7,"range":{"begin":{"line":[[@LINE-2]],"column":7},"end":{"line":[[@LINE-2]],"column":59}},"callee":"MPI_Ssend","kind":"p2p","args":["buf","DIM","MPI_INT","to_","1","MPI_COMM_WORLD"],"function":"fan_out_twice"{{.*}}"context":[{"kind":"do","header":"while (0)","condition":"0",{{.*}}},{"kind":"for","header":"for (int to_ = 1; to_ < (n); to_++)","condition":"to_ < (n)",{{.*}}}],"macro":{"name":"FAN_OUT","spelling_file":"sites.c","spelling":{"line":[[@LINE-2]],"column":7},"expansion":{"line":[[@LINE+37]],"column":3},"expansions":[{"line":[[@LINE+37]],"column":3},{"line":[[@LINE+38]],"column":3}]},"in_template":false,"anchor":"macro-definition","instrumented":true,"path":"{{.*}}sites.c","file_hash":"{{[0-9a-f]+}}","peers":["loop"]}
// COPY: {{^}}      (cz_instrument_site_({{[0-9]+}}ULL), MPI_Ssend(buf, DIM, MPI_INT, to_, 1, MPI_COMM_WORLD));                    \{{$}}

int exchange(int rank, int size, int *buf) {
  MPI_Request reqs[2];
  if (rank == 0) {
    for (int r = 1; r < size; r++)
      MPI_Send(buf, DIM, MPI_INT, r, 0, MPI_COMM_WORLD);
// CHECK-NEXT: {"id":"{{[0-9]+}}","file":"sites.c","line":[[@LINE-1]],"column":7,"range":{"begin":{"line":[[@LINE-1]],"column":7},"end":{"line":[[@LINE-1]],"column":56}},"callee":"MPI_Send","kind":"p2p","args":["buf","DIM","MPI_INT","r","0","MPI_COMM_WORLD"],"function":"exchange","function_range":{"begin":{"line":[[@LINE-5]],"column":1},"end":{{.*}}},"context":[{"kind":"if","header":"if (rank == 0)","condition":"rank == 0","branch":"then",{{.*}}},{"kind":"for","header":"for (int r = 1; r < size; r++)","condition":"r < size","range":{"begin":{"line":[[@LINE-2]],"column":5},"end":{"line":[[@LINE-1]],"column":56}}}],"macro":null,"in_template":false,"anchor":"call","instrumented":true,{{.*}},"peers":["loop"]}
// COPY: {{^}}      (cz_instrument_site_({{[0-9]+}}ULL), MPI_Send(buf, DIM, MPI_INT, r, 0, MPI_COMM_WORLD));{{$}}
  } else if (rank == 1) {
    SEND_TO(buf, 0);
// CHECK-NEXT: "line":[[@LINE-1]],"column":5,{{.*}}"callee":"MPI_Send",{{.*}}"args":["buf","DIM","MPI_INT","0","0","MPI_COMM_WORLD"],{{.*}}"context":[{"kind":"if","header":"if (rank == 0)","condition":"rank == 0","branch":"else",{{.*}}},{"kind":"if","header":"if (rank == 1)","condition":"rank == 1","branch":"then",{{.*}}}],"macro":{"name":"SEND_TO","spelling_file":"sites.c","spelling":{"line":[[@LINE-18]],"column":28},"expansion":{"line":[[@LINE-1]],"column":5}},{{.*}}"anchor":"macro-expansion","instrumented":true,
// COPY: {{^}}    (cz_instrument_site_({{[0-9]+}}ULL), SEND_TO(buf, 0));{{$}}
  } else {
    MPI_Irecv(buf, DIM, MPI_INT, 0, 0, MPI_COMM_WORLD, &reqs[0]);
// CHECK-NEXT: "line":[[@LINE-1]],"column":5,{{.*}}"callee":"MPI_Irecv",{{.*}}"branch":"else"{{.*}}"anchor":"call","instrumented":true,
    MPI_Waitall(1, reqs, MPI_STATUSES_IGNORE);
// CHECK-NEXT: "line":[[@LINE-1]],"column":5,{{.*}}"callee":"MPI_Waitall","kind":"completion","args":["1","reqs","MPI_STATUSES_IGNORE"],{{.*}}"anchor":"call","instrumented":false,"note":"the tracer takes no site id for MPI_Waitall",
// COPY: {{^}}    MPI_Waitall(1, reqs, MPI_STATUSES_IGNORE);{{$}}
  }
  switch (size) {
  case 1:
    break;
  case 2:
    size++;
    MPI_Barrier(MPI_COMM_WORLD);
// CHECK-NEXT: "line":[[@LINE-1]],"column":5,{{.*}}"callee":"MPI_Barrier","kind":"collective",{{.*}}"context":[{"kind":"switch","header":"switch (size)","condition":"size",{{.*}}},{"kind":"case","header":"case 2:",{{.*}}}],{{.*}}"instrumented":true,
    break;
  default:
    MPI_Bcast(buf, DIM, MPI_INT, 0, MPI_COMM_WORLD);
// CHECK-NEXT: "line":[[@LINE-1]],"column":5,{{.*}}"callee":"MPI_Bcast",{{.*}}{"kind":"default","header":"default:",{{.*}}"instrumented":true,
  }
  return size;
}

void fan_out_twice(int *buf, int n) {
  FAN_OUT(buf, n);
  FAN_OUT(buf, n - 1);
  MPI_Comm half;
  while (MPI_Comm_split(MPI_COMM_WORLD, n % 2, 0, &half) != MPI_SUCCESS) {
// CHECK-NEXT: "line":[[@LINE-1]],"column":10,{{.*}}"callee":"MPI_Comm_split","kind":"comm",{{.*}}"context":[{"kind":"while","header":"while (MPI_Comm_split(MPI_COMM_WORLD, n % 2, 0, &half) != MPI_SUCCESS)","condition":"MPI_Comm_split(MPI_COMM_WORLD, n % 2, 0, &half) != MPI_SUCCESS",{{.*}}}],{{.*}}"instrumented":true,
  }
}
// CHECK-NOT: "id"


// CDB: "file": "{{.*}}/out/sites.c"
// CDB: "-iquote",
// CDB: "-DDIM=4",
