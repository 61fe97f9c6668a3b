// report_csv_inputs_test.cpp: the report's two CSV inputs (bench.csv and
// hockney.csv, report/src/bench.cpp and prediction.cpp) read through one
// reader (inputs.cpp, readCsvRows): lines that are not CSV and rows that do
// not parse are skipped, counted and the first named; a header that is not
// the expected one refuses the file.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <unistd.h>
#include <string>

#include "prediction.h"

namespace {

using cz::report::InputStatus;

// A file of this test's own, removed when the test ends.
struct TempFile {
  std::string path;
  explicit TempFile(const std::string &text) {
    char name[] = "/tmp/cz-report-csv-XXXXXX";
    int fd = mkstemp(name);
    EXPECT_GE(fd, 0);
    close(fd);
    path = name;
    std::ofstream(path) << text;
  }
  ~TempFile() { std::remove(path.c_str()); }
};

const char kBenchHeader[] =
    "collective,procs,bytes,algorithm,iters,reps,median_us,min_us,max_us,ratio_to_mpi,status,note\n";

TEST(ReportCsvInputs, BenchRowsThatDoNotParseAreCountedAndTheFirstBadLineNamed) {
  TempFile f(std::string(kBenchHeader) +
             "alltoall,4,8,bruck,100,5,1.5,1.2,2.0,0.8,ok,\n"
             "alltoall,4,8,\"mpi,100\n"                  // line 3: a quote never closed
             "alltoall,4,8,mpi,100\n"                    // too few fields
             "alltoall,four,8,mpi,100,5,1.9,1.5,2.5,1,ok,\n" // procs not a number
             "alltoall,4,64,mpi,100,5,2.5,2.0,3.0,1,ok,\n");
  InputStatus status;
  cz::json::Json out = cz::report::loadBench(f.path, status);
  EXPECT_EQ(status.status, "partial");
  EXPECT_EQ(out["rows"].size(), 2u);
  EXPECT_EQ(status.message.rfind("2 measurements; 3 lines that do not parse were skipped (the first: "
                                 "line 3, column ", 0), 0u)
      << status.message;
}

TEST(ReportCsvInputs, BenchHeaderOnlyAndWrongHeader) {
  TempFile empty(kBenchHeader);
  InputStatus status;
  cz::report::loadBench(empty.path, status);
  EXPECT_EQ(status.status, "partial");
  EXPECT_EQ(status.message, "the CSV has a header but no measurements");

  TempFile other("name,value\nx,1\n");
  EXPECT_TRUE(cz::report::loadBench(other.path, status).isNull());
  EXPECT_EQ(status.status, "malformed");
  EXPECT_EQ(status.message, other.path + ": not a `collectivize bench` CSV (first line: 'name,value')");

  cz::report::loadBench(other.path + ".nonesuch", status);
  EXPECT_EQ(status.status, "missing");
}

TEST(ReportCsvInputs, HockneyFitsThatWereNotValidAreLeftOutWithoutCountingAsBad) {
  TempFile f("collective,procs,algorithm,points,alpha_us,beta_us_per_byte\n"
             "bcast,2,mpi,8,1.5,0.001\n"
             "bcast,4,ring,1,,\n"         // no valid fit: passed over, not bad
             "bcast,4,mpi\n"              // too few fields: bad
             "bcast,x,mpi,8,1.5,0.001\n"  // procs not a number: bad
             "gather,4,mpi,8,2.5,0.002\n");
  InputStatus status;
  std::vector<cz::report::HockneyLine> fits = cz::report::loadHockney(f.path, status);
  ASSERT_EQ(fits.size(), 2u);
  EXPECT_EQ(fits[1].collective, "gather");
  EXPECT_DOUBLE_EQ(fits[1].alphaUs, 2.5);
  EXPECT_EQ(status.status, "partial");
  EXPECT_EQ(status.message, "2 fits; 2 lines that do not parse were skipped");

  TempFile good("collective,procs,algorithm,points,alpha_us,beta_us_per_byte\n"
                "bcast,2,mpi,8,1.5,0.001\nbcast,4,ring,1,,\n");
  cz::report::loadHockney(good.path, status);
  EXPECT_EQ(status.status, "ok");
  EXPECT_EQ(status.message, "1 fits");
}

} // namespace
