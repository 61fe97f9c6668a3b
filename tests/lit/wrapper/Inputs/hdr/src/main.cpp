// main.cpp: uses the header's templates, inline function and macro.
#include <cstdio>

#include "net/exchange.hpp"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    push(std::vector<int>{4, 5, 6}, 1);
    int a = 7, b = 8;
    SEND_BOTH(a, b, 1);
  } else if (rank == 1) {
    std::vector<int> v(3);
    pull(v, 0);
    int a = pull_one(0), b = pull_one(0);
    std::printf("rank 1: %d %d %d %d %d at %s\n", v[0], v[1], v[2], a, b,
                &__FILE__[sizeof(__FILE__) - sizeof("src/main.cpp")]);
  }
  MPI_Finalize();
}
