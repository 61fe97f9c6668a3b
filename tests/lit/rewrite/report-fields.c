// A hand-edited report: each malformed match gets an error naming the match
// and the field, no patch and a non-zero exit, while the well-formed match
// of the same report is still rewritten. A frame that is not a report's
// refuses the file.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: %collectivize instrument -q --root %t -o %t/inst %t/prog.c -- %mock-mpi
// RUN: %cz-make-report %t/inst/collectivize-sites.json 'bcast root=0 count=4' \
// RUN:   'bcast root=0 count="four"' 'bcast root=0 count=4 site.line=-5' 'bcast root=0 count=4 sites=[]' \
// RUN:   'bcast root=4 count=4' 'bcast root=null count=4' 'broadcast root=0 count=4' \
// RUN:   'bcast root=0 count=4 ranks=0,x' 'bcast root=0 count=4 instances=-1' \
// RUN:   'bcast root=0 count=4 site.id="12ab"' 'bcast root=0 count=4 site.role="sender"' \
// RUN:   'bcast root=0 count=-3' 'bcast root=0 count=4 seconds_in_messages="slow"' \
// RUN:   'bcast root=0 count=4 unproven="bcast"' 'bcast root=0 count=4 counts=[1,2]' \
// RUN:   'bcast root=0 count=4 counts=[1,null,"x",2]' > %t/report.json
// RUN: not %collectivize rewrite -q %t/report.json -o %t/p -- %mock-mpi > %t/out 2> %t/err
// RUN: FileCheck %s --check-prefix=OUT < %t/out
// RUN: FileCheck %s --check-prefix=ERR < %t/err
// OUT: 01-bcast: proposed prog.c:{{[0-9]+}}-{{[0-9]+}} -> MPI_Bcast(buf, n, MPI_INT, root, comm);
// OUT: 1 proposed, 0 to review, 15 without a patch; patches in {{.*}}
// ERR: collectivize rewrite: 02-bcast: failed: match 2 of {{.*}}report.json is malformed: "count" is "four", not a non-negative integer
// ERR-NEXT: collectivize rewrite: 03-bcast: failed: {{.*}} site 1: "line" is -5, not a non-negative integer
// ERR-NEXT: collectivize rewrite: 04-bcast: failed: {{.*}} "sites" is empty: the report names no call site to rewrite
// ERR-NEXT: collectivize rewrite: 05-bcast: failed: {{.*}} "root" is 4, not an integer from 0 to 3
// ERR-NEXT: collectivize rewrite: 06-bcast: failed: {{.*}} "root" is missing (expected an integer from 0 to 3)
// ERR-NEXT: collectivize rewrite: 07-match: failed: {{.*}} "kind" is "broadcast", not one of "bcast", "scatter", {{.*}}
// ERR-NEXT: collectivize rewrite: 08-bcast: failed: {{.*}} "ranks" holds "x", not a non-negative integer
// ERR-NEXT: collectivize rewrite: 09-bcast: failed: {{.*}} "instances" is -1, not a non-negative integer
// ERR-NEXT: collectivize rewrite: 10-bcast: failed: {{.*}} site 1: "id" is "12ab", not a decimal site id {{.*}}
// ERR-NEXT: collectivize rewrite: 11-bcast: failed: {{.*}} site 1: "role" is "sender", not one of "send", "recv"
// ERR-NEXT: collectivize rewrite: 12-bcast: failed: {{.*}} "count" is -3, not a non-negative integer
// ERR-NEXT: collectivize rewrite: 13-bcast: failed: {{.*}} "seconds_in_messages" is "slow", not a non-negative number
// A string where the list of unproven reasons goes (found by the fuzzer:
// the reader dereferenced the missing array).
// ERR-NEXT: collectivize rewrite: 14-bcast: failed: {{.*}} "unproven" is "bcast", not an array
// Per-member counts (gatherv, scatterv): one per member, null where unseen.
// ERR-NEXT: collectivize rewrite: 15-bcast: failed: {{.*}} "counts" has 2 entries for a group of 4 (one per member of "ranks")
// ERR-NEXT: collectivize rewrite: 16-bcast: failed: {{.*}} "counts" holds "x", not a non-negative integer
//
// The file's frame: no report is read, nothing is written.
// RUN: echo '{"format": "collectivize-detection", "version": "1", "matches": []}' > %t/version.json
// RUN: not %collectivize rewrite -q %t/version.json -o %t/p2 2>&1 | FileCheck %s --check-prefix=VERSION
// RUN: echo '{"format": "collectivize-detection", "version": 1, "matches": {}}' > %t/matches.json
// RUN: not %collectivize rewrite -q %t/matches.json -o %t/p2 2>&1 | FileCheck %s --check-prefix=MATCHES
// RUN: not ls %t/p2
// VERSION: collectivize rewrite: {{.*}}version.json: "version" is "1", not a positive integer
// MATCHES: collectivize rewrite: {{.*}}matches.json: "matches" is {}, not an array
#include <mpi.h>

void bcast(int *buf, int n, int root, MPI_Comm comm) {
  int me, p;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  if (me == root) {
    for (int q = 0; q < p; q++)
      if (q != root) MPI_Send(buf, n, MPI_INT, q, 1, comm);
  } else {
    MPI_Recv(buf, n, MPI_INT, root, 1, comm, MPI_STATUS_IGNORE);
  }
}
