// A ring allgather in a method of a class template.
#include <mpi.h>
#include <cstdio>
#include <vector>

template <int N> struct Ring {
  MPI_Comm comm;
  void allgather(long *all) {
    int me, p;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &p);
    int right = (me + 1) % p, left = (me + p - 1) % p;
    for (int s = 0; s < p - 1; s++) {
      int out = (me - s + p) % p, in = (me - s - 1 + p) % p;
      MPI_Sendrecv(all + out * N, N, MPI_LONG, right, 3, all + in * N, N, MPI_LONG, left, 3, comm,
                   MPI_STATUS_IGNORE);
    }
  }
};

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  std::vector<long> all(4 * p);
  for (int i = 0; i < 4; i++) all[me * 4 + i] = me * 10 + i;
  Ring<4> ring{MPI_COMM_WORLD};
  ring.allgather(all.data());
  long sum = 0;
  for (long v : all) sum += v;
  std::printf("rank %d: %ld\n", me, sum);
  MPI_Finalize();
  return 0;
}
