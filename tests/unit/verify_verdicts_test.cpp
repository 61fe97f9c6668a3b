// verify_verdicts_test.cpp: what the verifier concludes, its pure parts:
// the verdicts of a patch's runs and retrace (judge.h) and the result file
// that records them (result.h). verify_test.cpp has the steps before.
#include <gtest/gtest.h>

#include <string>

#include "collectivize/json.h"
#include "judge.h"
#include "result.h"
#include "retrace.h"
#include "timing.h"

using namespace cz::verify;
using namespace cz::json;

TEST(VerifyResult, JsonRoundTrip) {
  VerifyResult r;
  r.patch = "/p/01-bcast.diff";
  r.command = {"mpirun", "-np", "4", "./app"};
  r.verdict = "verified";
  r.evidence = "line 1\nline \"2\"";
  r.runs = 3;
  r.original = ProgramRuns{0, summarizeTimes({2, 2, 2})};
  r.patched = ProgramRuns{0, summarizeTimes({1, 1, 1})};
  Retrace rt;
  rt.patchedCollectives["MPI_Bcast"] = 4;
  rt.targets.push_back({"bcast", {0, 1}, 0});
  r.retrace = rt;
  Json j;
  std::string err;
  ASSERT_TRUE(parseJson(resultJson(r), j, err)) << err << resultJson(r);
  EXPECT_EQ(j.str("format"), "collectivize-verification");
  EXPECT_EQ(j.str("evidence"), r.evidence);
  EXPECT_DOUBLE_EQ(j.num("speedup"), 2);
  EXPECT_EQ(j.find("command")->items().size(), 4u);
  EXPECT_DOUBLE_EQ(j.find("retrace")->find("collectives")->num("MPI_Bcast"), 4);
  EXPECT_DOUBLE_EQ(j.find("patched")->num("median"), 1);
  EXPECT_TRUE(j.find("commands")->items().empty());
  // Every run command's runs, in order.
  r.commands.push_back({r.command, r.original, r.patched, std::nullopt});
  EffectCheck secondEffect;
  secondEffect.checked = true, secondEffect.calls = 6, secondEffect.ranks = 2;
  r.commands.push_back({{"/bin/sh", "-c", "mpirun -np 2 ./app"}, ProgramRuns{0, summarizeTimes({4})},
                        ProgramRuns{0, summarizeTimes({1})}, secondEffect});
  ASSERT_TRUE(parseJson(resultJson(r), j, err)) << err << resultJson(r);
  ASSERT_EQ(j.find("commands")->items().size(), 2u);
  const Json &second = j.find("commands")->items()[1];
  EXPECT_EQ(second.find("command")->items()[2].text(), "mpirun -np 2 ./app");
  EXPECT_DOUBLE_EQ(second.num("speedup"), 4);
  // Each run command's own effect check.
  EXPECT_TRUE(j.find("commands")->items()[0].find("effect")->isNull());
  EXPECT_DOUBLE_EQ(second.find("effect")->num("calls"), 6);
  VerifyResult failed;
  failed.verdict = "does not apply";
  ASSERT_TRUE(parseJson(resultJson(failed), j, err)) << err;
  EXPECT_TRUE(j.find("speedup")->isNull());
  EXPECT_TRUE(j.find("original")->isNull());
}

namespace {
RunRecord ran(const std::string &out, int exit = 0, double s = 1.0) {
  return RunRecord{exit, false, s, out, ""};
}
} // namespace

TEST(VerifyJudge, RunsPassWhenExitAndOutputMatchSomeOriginalRun) {
  RunSettings st;
  Judgement j = judgeRuns({ran("b\na\n"), ran("a\nb\n")}, {ran("a\nb\n"), ran("b\na\n")}, st);
  EXPECT_EQ(j.verdict, "");
  EXPECT_EQ(j.text, "outputs: stdout, stderr and exit status (0) the same in 2 runs of each");
  st.compareStderr = false;
  RunRecord noisy = ran("a\n");
  noisy.err = "warning\n";
  EXPECT_EQ(judgeRuns({ran("a\n")}, {noisy}, st).verdict, "");
  st.compareStderr = true;
  EXPECT_EQ(judgeRuns({ran("a\n")}, {noisy}, st).verdict, "output differs");
}

TEST(VerifyJudge, ExitStatusAndTimeoutComeBeforeOutput) {
  RunSettings st;
  RunRecord failed = ran("other\n", 3);
  failed.err = "l1\nl2\nsegfault\n";
  Judgement j = judgeRuns({ran("a\n")}, {failed}, st);
  EXPECT_EQ(j.verdict, "exit status differs");
  EXPECT_NE(j.text.find("exits with 3 in run 1"), std::string::npos) << j.text;
  EXPECT_NE(j.text.find("segfault"), std::string::npos);
  RunRecord hung = ran("", 143, 20.5);
  hung.timedOut = true;
  j = judgeRuns({ran("a\n", 0, 1.5)}, {hung}, st);
  EXPECT_EQ(j.verdict, "exit status differs");
  EXPECT_NE(j.text.find("killed after 20.500 s in run 1 (the original took at most 1.500 s)"),
            std::string::npos)
      << j.text;
  // An original that is not repeatable cannot judge anything.
  j = judgeRuns({ran("a\n", 0), ran("a\n", 1)}, {ran("a\n")}, st);
  EXPECT_EQ(j.verdict, "error");
  EXPECT_NE(j.text.find("not repeatable"), std::string::npos);
}

TEST(VerifyJudge, OutputDifferenceNamesTheLinesAndVaryingOriginals) {
  RunSettings st;
  Judgement j = judgeRuns({ran("t=1\nx\n"), ran("t=2\nx\n")}, {ran("t=3\ny\n")}, st);
  EXPECT_EQ(j.verdict, "output differs");
  EXPECT_NE(j.text.find("+ y"), std::string::npos) << j.text;
  EXPECT_NE(j.text.find("itself varies between runs (2 different outputs in 2 runs)"),
            std::string::npos)
      << j.text;
  std::string err;
  ASSERT_TRUE(compileIgnorePatterns({"^t="}, st.filter, err));
  j = judgeRuns({ran("t=1\nx\n"), ran("t=2\nx\n")}, {ran("t=3\nx\n")}, st);
  EXPECT_EQ(j.verdict, "");
  EXPECT_NE(j.text.find("--ignore dropped 1 stdout line of the original's run 1; they differed"),
            std::string::npos)
      << j.text;
}

TEST(VerifyJudge, TimingLineSaysWhenRangesOverlap) {
  std::string line = timingLine(summarizeTimes({2, 2.2}), summarizeTimes({1, 1.1}), 2);
  EXPECT_NE(line.find("speedup 2.00x"), std::string::npos) << line;
  EXPECT_EQ(line.find("overlap"), std::string::npos);
  line = timingLine(summarizeTimes({1, 1.2}), summarizeTimes({1.1, 1.15}), 2);
  EXPECT_NE(line.find("the ranges overlap"), std::string::npos) << line;
}

TEST(VerifyJudge, RetraceVerdicts) {
  ManualCollective bcast{"bcast", {0, 1, 2, 3}, 0, true, 3};
  TraceFindings before{4, {bcast}, {}};
  TraceFindings replaced{4, {}, {{"MPI_Bcast", 12}}};
  TraceFindings still{4, {bcast}, {}};
  TraceFindings dropped{4, {}, {}};
  RetraceInputs in{{bcast}, 4, "./app", false, {}};
  Retrace rt;
  Judgement j = judgeRetrace(in, before, replaced, rt);
  EXPECT_EQ(j.verdict, "");
  EXPECT_EQ(j.text, "retrace: the manual bcast on ranks [0, 1, 2, 3], root 0 is gone; MPI_Bcast "
                    "calls 0 -> 12");
  EXPECT_EQ(rt.targets.size(), 1u);
  EXPECT_EQ(rt.matchesLeft, 0);
  EXPECT_EQ(judgeRetrace(in, before, still, rt).verdict, "manual messages remain");
  EXPECT_EQ(rt.matchesLeft, 1);
  EXPECT_EQ(judgeRetrace(in, before, dropped, rt).verdict, "collective missing");
  in.runtimeTarget = true; // cz_* calls leave no collective event
  EXPECT_EQ(judgeRetrace(in, before, dropped, rt).verdict, "");
  in.runtimeTarget = false;
  // Run on 8 ranks: the whole-world bcast is still the target.
  ManualCollective wide{"bcast", {0, 1, 2, 3, 4, 5, 6, 7}, 0, true, 3};
  TraceFindings before8{8, {wide}, {}};
  EXPECT_EQ(judgeRetrace(in, before8, TraceFindings{8, {}, {{"MPI_Bcast", 24}}}, rt).verdict, "");
  // The original run does not show the target: cannot tell.
  ManualCollective other{"bcast", {0, 1, 2, 3}, 2, true, 3};
  TraceFindings elsewhere{4, {other}, {}};
  Judgement e = judgeRetrace(in, elsewhere, replaced, rt);
  EXPECT_EQ(e.verdict, "error");
  EXPECT_NE(e.text.find("traced './app'"), std::string::npos) << e.text;
  // A loose diff targets whatever confirmed collective the original shows.
  RetraceInputs loose;
  EXPECT_EQ(judgeRetrace(loose, before, replaced, rt).verdict, "");
  EXPECT_EQ(judgeRetrace(loose, dropped, dropped, rt).verdict, "error");
}

// A ring combining values as they arrive is reported as an allgather and
// patched with MPI_Allreduce: the patch's own collectives are what must
// appear (patches.json "collectives"), not the kind's.
TEST(VerifyJudge, ExpectedCollectivesFromThePatch) {
  ManualCollective ring{"allgather", {0, 1, 2, 3}, -1, true, 1};
  TraceFindings before{4, {ring}, {}};
  TraceFindings after{4, {}, {{"MPI_Allreduce", 4}}};
  Retrace rt;
  RetraceInputs byKind{{ring}, 4, "./app", false, {}};
  EXPECT_EQ(judgeRetrace(byKind, before, after, rt).verdict, "collective missing");
  RetraceInputs byPatch{{ring}, 4, "./app", false, {"MPI_Allreduce"}};
  Judgement j = judgeRetrace(byPatch, before, after, rt);
  EXPECT_EQ(j.verdict, "");
  EXPECT_NE(j.text.find("MPI_Allreduce calls 0 -> 4"), std::string::npos) << j.text;
}
