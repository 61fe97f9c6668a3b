#include "algorithms.h"

#include <sstream>

namespace cztest {

const char kDispatch[] = "dispatch";

std::vector<std::string> algorithmsOf(cz_collective coll) {
  std::vector<std::string> names;
  std::istringstream words(cz_algorithm_names(coll));
  for (std::string word; words >> word;) {
    const std::string radixSuffix = "[:R]";
    if (word.size() > radixSuffix.size() &&
        word.compare(word.size() - radixSuffix.size(), radixSuffix.size(),
                     radixSuffix) == 0) {
      std::string base = word.substr(0, word.size() - radixSuffix.size());
      names.push_back(base);
      names.push_back(base + ":3");
      names.push_back(base + ":4");
    } else {
      names.push_back(word);
    }
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
