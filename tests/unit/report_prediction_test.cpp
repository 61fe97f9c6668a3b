// report_prediction_test.cpp: the MPI collective's predicted cost from the
// Hockney model (report/src/prediction.cpp), and the gain it gives a match.
#include <gtest/gtest.h>

#include "prediction.h"

using cz::report::HockneyLine;
using cz::report::predictMpiMicros;

namespace {

std::vector<HockneyLine> pointToPoint(double alpha, double beta) {
  return {{"bcast", "mpi", 2, alpha, beta}, {"bcast", "ring", 4, 99, 99}};
}

TEST(Prediction, TextbookCostsFromPointToPoint) {
  auto model = pointToPoint(1.0, 0.001); // 1 µs + 1 ns per byte
  std::string basis;
  // bcast, P = 4, 1000 B: binomial 2(1 + 1) = 4 beats scatter+allgather
  // (2 + 3) + 2*3/4*1 = 6.5.
  EXPECT_DOUBLE_EQ(predictMpiMicros("bcast", 4, 1000, model, basis), 4.0);
  EXPECT_NE(basis.find("binomial"), std::string::npos) << basis;
  // Large: 1 MB at P = 8: binomial 3(1 + 1000) = 3003; scatter+allgather
  // (3 + 7) + 2*7/8*1000 = 1760.
  EXPECT_DOUBLE_EQ(predictMpiMicros("bcast", 8, 1e6, model, basis), 1760.0);
  EXPECT_NE(basis.find("scatter + allgather"), std::string::npos) << basis;
  // gather of 100 B blocks at P = 5: L = 3: 3 + 4*0.1.
  EXPECT_DOUBLE_EQ(predictMpiMicros("gather", 5, 100, model, basis), 3.4);
  // alltoall, P = 4, 8 B blocks: Bruck 2 + 2*2*0.008 beats pairwise 3*(1.008).
  EXPECT_DOUBLE_EQ(predictMpiMicros("alltoall", 4, 8, model, basis), 2.032);
  EXPECT_DOUBLE_EQ(predictMpiMicros("barrier", 8, 0, model, basis), 3.0);
  EXPECT_NE(basis.find("α = 1.00 µs"), std::string::npos) << basis;
  EXPECT_NE(basis.find("MPI bcast at P = 2"), std::string::npos) << basis;
}

TEST(Prediction, TheLibrarysOwnFitWinsWhereMeasured) {
  auto model = pointToPoint(1.0, 0.001);
  model.push_back({"allreduce", "mpi", 4, 10.0, 0.01});
  model.push_back({"allreduce", "ring", 8, 0.1, 0.0}); // not the library's
  std::string basis;
  EXPECT_DOUBLE_EQ(predictMpiMicros("allreduce", 4, 100, model, basis), 11.0);
  EXPECT_NE(basis.find("own allreduce at P = 4"), std::string::npos) << basis;
  // At P = 8 only a native algorithm was fitted: the textbook cost.
  EXPECT_DOUBLE_EQ(predictMpiMicros("allreduce", 8, 100, model, basis), 3.3);
  // Between two measured P: alpha and beta interpolated (P = 7 between 4
  // and 16: a quarter of the way).
  model.push_back({"allreduce", "mpi", 16, 50.0, 0.05});
  EXPECT_DOUBLE_EQ(predictMpiMicros("allreduce", 7, 100, model, basis), 20.0 + 2.0);
  EXPECT_NE(basis.find("at P = 4 and 16, interpolated"), std::string::npos) << basis;
  // Point-to-point from the alltoall at P = 2 (one message each way) before
  // the bcast (whose root does not wait).
  model.push_back({"alltoall", "mpi", 2, 2.0, 0.0});
  EXPECT_DOUBLE_EQ(predictMpiMicros("barrier", 4, 0, model, basis), 4.0);
  EXPECT_NE(basis.find("MPI alltoall at P = 2"), std::string::npos) << basis;
}

TEST(Prediction, NoModelSaysWhy) {
  std::string basis;
  EXPECT_LT(predictMpiMicros("alltoallv", 4, 100, pointToPoint(1, 0), basis), 0);
  EXPECT_NE(basis.find("blocks differ"), std::string::npos);
  // The library's own fit needs no point-to-point one.
  EXPECT_DOUBLE_EQ(predictMpiMicros("bcast", 4, 100, {{"bcast", "mpi", 4, 1, 0}}, basis), 1.0);
  EXPECT_LT(predictMpiMicros("gather", 4, 100, {{"bcast", "mpi", 4, 1, 0}}, basis), 0);
  EXPECT_NE(basis.find("no point-to-point fit"), std::string::npos) << basis;
  EXPECT_LT(predictMpiMicros("bcast", 1, 100, pointToPoint(1, 0), basis), 0);
}

TEST(Prediction, GainPerMatchFromTheCriticalPath) {
  const std::string text = R"({"matches": [
    {"kind": "bcast", "ranks": [0,1,2,3], "call_bytes": 1000,
     "critical_path": {"seconds": 0.0001, "instances": 10}},
    {"kind": "bcast", "ranks": [0,1,2,3], "call_bytes": 1000,
     "critical_path": {"seconds": 0.00001, "instances": 10}},
    {"kind": "gather", "ranks": [0,1,2,3], "call_bytes": 8, "critical_path": null}]})";
  cz::json::Json detection;
  std::string error;
  ASSERT_TRUE(cz::json::parseJson(text, detection, error)) << error;
  auto out = cz::report::predictGains(detection, pointToPoint(1.0, 0.001));
  ASSERT_EQ(out.size(), 3u);
  // 10 µs per instance by hand, 4 µs predicted: 6 µs x 10 instances.
  EXPECT_DOUBLE_EQ(out.items()[0].num("manual_us"), 10.0);
  EXPECT_DOUBLE_EQ(out.items()[0].num("mpi_us"), 4.0);
  EXPECT_NEAR(out.items()[0].num("gain_seconds"), 6e-5, 1e-12);
  // Faster by hand than the prediction: no negative gain.
  EXPECT_DOUBLE_EQ(out.items()[1].num("gain_seconds", -1), 0.0);
  EXPECT_NE(out.items()[2].str("none").find("critical path"), std::string::npos);
  auto none = cz::report::predictGains(detection, {});
  EXPECT_NE(none.items()[0].str("none").find("no Hockney model"), std::string::npos);
}

} // namespace
