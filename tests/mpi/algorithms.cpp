#include "algorithms.h"


namespace cztest {

const char kDispatch[] = "dispatch";

std::vector<std::string> algorithmsOf(cz_collective coll) {
  std::vector<std::string> names;
  cz_algorithm_desc a;
  for (int i = 0; cz_algorithm_info(coll, i, &a) == MPI_SUCCESS; i++) {
    names.push_back(a.name);
    if (!a.param_name) continue;
    // Two more parameters inside the range (a radix: 3 and 4).
    for (int v = a.param_default + 1; v <= a.param_default + 2 && v <= a.param_max; v++)
      names.push_back(std::string(a.name) + ":" + std::to_string(v));
  }
  names.push_back(kDispatch);
  return names;
}

std::string paramName(const ::testing::TestParamInfo<std::string> &info) {
  std::string name = info.param;
  for (char &c : name)
    if (!isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
}

const std::vector<size_t> &byteTargets() {
  static const std::vector<size_t> targets = {0, 1, 7, 1024, 65536};
  return targets;
}

bool coveredAt(size_t bytes, const Layout &layout, int nprocs) {
  if (bytes < 65536 || nprocs <= 16) return true;
  return layout.name == "MPI_BYTE" || layout.name == "strided_ints";
}

const std::vector<NamedComm> &testCommunicators() {
  static const std::vector<NamedComm> comms = [] {
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm oddEven, reversed;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &oddEven);
    MPI_Comm_split(MPI_COMM_WORLD, 0, -rank, &reversed);
    return std::vector<NamedComm>{{"world", MPI_COMM_WORLD},
                                  {"odd_even", oddEven},
                                  {"reversed", reversed}};
  }();
  return comms;
}

} // namespace cztest
