// registry_test.cpp: the algorithm registry and the name grammar
// "name[:param]" shared by tables, the environment and cz_<coll>_algorithm.
#include <cstring>
#include <set>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "registry.h"

namespace cztest {
namespace {

struct Parsed {
  int rc;
  const czi_algorithm *alg = nullptr;
  int param = -1;
  std::string error;
};

Parsed parse(cz_collective coll, const char *text) {
  Parsed p;
  char err[512] = "";
  p.rc = czi_algorithm_parse(coll, text, &p.alg, &p.param, err, sizeof err);
  p.error = err;
  return p;
}

std::string format(const czi_algorithm *alg, int param) {
  char out[64];
  czi_algorithm_format(alg, param, out, sizeof out);
  return out;
}

TEST(Registry, EveryEntryIsComplete) {
  for (const czi_algorithm *a = czi_algorithms; a->name; a++) {
    SCOPED_TRACE(a->name);
    EXPECT_NE(a->fn, nullptr);
    EXPECT_NE(a->summary, nullptr);
    EXPECT_LT(static_cast<unsigned>(a->coll), static_cast<unsigned>(CZ_COLL_COUNT));
    if (a->param_name) {
      EXPECT_LE(a->param_min, a->param_default);
      EXPECT_LE(a->param_default, a->param_max);
    }
  }
}

TEST(Registry, NamesAreUniquePerCollectiveAndMpiAlwaysExists) {
  // Selection falls back to "mpi" when no rule matches.
  for (int c = 0; c < CZ_COLL_COUNT; c++) {
    std::set<std::string> seen;
    for (const czi_algorithm *a = czi_algorithms; a->name; a++)
      if (a->coll == c) EXPECT_TRUE(seen.insert(a->name).second) << a->name;
    EXPECT_EQ(seen.count("mpi"), 1u) << cz_collective_name(static_cast<cz_collective>(c));
  }
}

TEST(Registry, AlgorithmNamesListTheRegistry) {
  EXPECT_STREQ(cz_algorithm_names(CZ_COLL_ALLTOALL), "bruck[:R] spread_out pairwise shm_push shm_pull shm_flag_push shm_flag_pull self mpi");
  for (int c = 0; c < CZ_COLL_COUNT; c++) {
    auto coll = static_cast<cz_collective>(c);
    std::istringstream words(cz_algorithm_names(coll));
    int listed = 0;
    for (std::string word; words >> word; listed++) {
      std::string name = word.substr(0, word.find('['));
      const czi_algorithm *a = czi_algorithm_find(coll, name.c_str(), name.size());
      ASSERT_NE(a, nullptr) << word;
      EXPECT_EQ(word != name, a->param_name != nullptr) << word;
    }
    int registered = 0;
    for (const czi_algorithm *a = czi_algorithms; a->name; a++) registered += a->coll == c;
    EXPECT_EQ(listed, registered);
  }
  EXPECT_STREQ(cz_algorithm_names(CZ_COLL_COUNT), "");
}

TEST(Registry, AlgorithmInfoEnumeratesTheRegistryInOrder) {
  for (int c = 0; c < CZ_COLL_COUNT; c++) {
    auto coll = static_cast<cz_collective>(c);
    int i = 0;
    cz_algorithm_desc d;
    for (const czi_algorithm *a = czi_algorithms; a->name; a++) {
      if (a->coll != coll) continue;
      ASSERT_EQ(cz_algorithm_info(coll, i, &d), MPI_SUCCESS) << a->name;
      EXPECT_STREQ(d.name, a->name);
      EXPECT_EQ(d.param_name == nullptr, a->param_name == nullptr) << a->name;
      EXPECT_EQ(d.param_default, a->param_default);
      EXPECT_EQ(d.param_min, a->param_min);
      EXPECT_EQ(d.param_max, a->param_max);
      EXPECT_STREQ(d.summary, a->summary);
      i++;
    }
    EXPECT_EQ(cz_algorithm_info(coll, i, &d), MPI_ERR_ARG) << "past the last of " << c;
  }
  cz_algorithm_desc d;
  ASSERT_EQ(cz_algorithm_info(CZ_COLL_ALLTOALL, 0, &d), MPI_SUCCESS);
  EXPECT_STREQ(d.name, "bruck");
  EXPECT_STREQ(d.param_name, "radix");
  EXPECT_EQ(cz_algorithm_info(CZ_COLL_COUNT, 0, &d), MPI_ERR_ARG);
  EXPECT_EQ(cz_algorithm_info(CZ_COLL_ALLTOALL, -1, &d), MPI_ERR_ARG);
  EXPECT_EQ(cz_algorithm_info(CZ_COLL_ALLTOALL, 0, nullptr), MPI_ERR_ARG);
}

TEST(AlgorithmParse, PlainNameTakesTheDefaultParameter) {
  Parsed p = parse(CZ_COLL_ALLTOALL, "bruck");
  ASSERT_EQ(p.rc, MPI_SUCCESS) << p.error;
  EXPECT_STREQ(p.alg->name, "bruck");
  EXPECT_EQ(p.param, p.alg->param_default);
  p = parse(CZ_COLL_ALLGATHER, "ring");
  ASSERT_EQ(p.rc, MPI_SUCCESS) << p.error;
  EXPECT_EQ(p.alg->coll, CZ_COLL_ALLGATHER);
}

TEST(AlgorithmParse, ParameterWithinRange) {
  for (int radix : {2, 3, 4, 16, 1 << 20}) {
    std::string text = "bruck:" + std::to_string(radix);
    Parsed p = parse(CZ_COLL_ALLTOALL, text.c_str());
    ASSERT_EQ(p.rc, MPI_SUCCESS) << text << ": " << p.error;
    EXPECT_EQ(p.param, radix);
  }
}

TEST(AlgorithmParse, BadParameters) {
  for (const char *text : {"bruck:1", "bruck:0", "bruck:-4", "bruck:1048577",
                           "bruck:", "bruck:4x", "bruck:0x10"}) {
    Parsed p = parse(CZ_COLL_ALLTOALL, text);
    EXPECT_EQ(p.rc, MPI_ERR_ARG) << text;
    EXPECT_NE(p.error.find("radix of 'bruck' must be an integer in 2..1048576"),
              std::string::npos) << text << ": " << p.error;
  }
  Parsed p = parse(CZ_COLL_ALLTOALL, "pairwise:2");
  EXPECT_EQ(p.rc, MPI_ERR_ARG);
  EXPECT_NE(p.error.find("takes no parameter"), std::string::npos) << p.error;
}

// The parameter is plain digits, as in a table (where a space would split
// the field anyway): "bruck: 4" or "bruck:+4" in the environment or in
// cz_alltoall_algorithm() must not mean bruck:4.
TEST(AlgorithmParse, ParameterIsDigitsOnly) {
  for (const char *text : {"bruck: 4", "bruck:+4", "bruck:\t4"})
    EXPECT_EQ(parse(CZ_COLL_ALLTOALL, text).rc, MPI_ERR_ARG) << "'" << text << "'";
}

TEST(AlgorithmParse, UnknownNamesListTheValidOnes) {
  Parsed p = parse(CZ_COLL_ALLTOALL, "nonesuch");
  EXPECT_EQ(p.rc, MPI_ERR_ARG);
  EXPECT_EQ(p.error, "'nonesuch' is not an alltoall algorithm (valid: "
                     "bruck[:R] spread_out pairwise shm_push shm_pull shm_flag_push shm_flag_pull self mpi)");
  p = parse(CZ_COLL_BCAST, "ring"); // an allgather algorithm
  EXPECT_EQ(p.rc, MPI_ERR_ARG);
  EXPECT_NE(p.error.find("is not a bcast algorithm"), std::string::npos) << p.error;
  for (const char *text : {"", "Bruck", "bruckk", "bru", ":4", "mpi "}) {
    EXPECT_EQ(parse(CZ_COLL_ALLTOALL, text).rc, MPI_ERR_ARG) << "'" << text << "'";
  }
}

TEST(AlgorithmFormat, ShowsOnlyNonDefaultParameters) {
  const czi_algorithm *bruck = czi_algorithm_find(CZ_COLL_ALLTOALL, "bruck", 5);
  const czi_algorithm *mpi = czi_algorithm_find(CZ_COLL_BCAST, "mpi", 3);
  ASSERT_NE(bruck, nullptr);
  ASSERT_NE(mpi, nullptr);
  EXPECT_EQ(format(bruck, bruck->param_default), "bruck");
  EXPECT_EQ(format(bruck, 4), "bruck:4");
  EXPECT_EQ(format(mpi, 0), "mpi");
  // Whatever format writes, parse reads back.
  for (const czi_algorithm *a = czi_algorithms; a->name; a++) {
    std::string text = format(a, a->param_name ? a->param_max : 0);
    Parsed p = parse(a->coll, text.c_str());
    ASSERT_EQ(p.rc, MPI_SUCCESS) << text << ": " << p.error;
    EXPECT_EQ(p.alg, a);
  }
}

TEST(CollectiveParse, NamesAndLengths) {
  cz_collective coll = CZ_COLL_COUNT;
  for (int c = 0; c < CZ_COLL_COUNT; c++) {
    const char *name = cz_collective_name(static_cast<cz_collective>(c));
    ASSERT_EQ(czi_collective_parse(name, std::strlen(name), &coll), MPI_SUCCESS) << name;
    EXPECT_EQ(coll, c);
  }
  // The length bounds the comparison: a prefix of a longer text.
  ASSERT_EQ(czi_collective_parse("alltoallv", 8, &coll), MPI_SUCCESS);
  EXPECT_EQ(coll, CZ_COLL_ALLTOALL);
  EXPECT_EQ(czi_collective_parse("alltoal", 7, &coll), MPI_ERR_ARG);
  EXPECT_EQ(czi_collective_parse("alltoallx", 9, &coll), MPI_ERR_ARG);
  EXPECT_EQ(czi_collective_parse("Bcast", 5, &coll), MPI_ERR_ARG);
  EXPECT_EQ(czi_collective_parse("", 0, &coll), MPI_ERR_ARG);
}

TEST(CollectiveName, OutOfRangeIsNull) {
  EXPECT_STREQ(cz_collective_name(CZ_COLL_ALLTOALLV), "alltoallv");
  EXPECT_EQ(cz_collective_name(CZ_COLL_COUNT), nullptr);
  EXPECT_EQ(cz_collective_name(static_cast<cz_collective>(-1)), nullptr);
}

} // namespace
} // namespace cztest
