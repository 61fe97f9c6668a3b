// verify's effect check, its pure parts: a patch's effect read from
// patches.json, the probes put into a copy's sources (at the region's end,
// after the replacement; no line added in C, a BLOCK on lines of its own in
// Fortran) and taken out again, and the
// comparison of the two runs' probe files. The probe itself runs in
// tests/lit/verify/effect.test and rewritten.test.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "collectivize/json.h"
#include "effect.h"
#include "collectivize/process.h"

namespace fs = std::filesystem;
using namespace cz::verify;
using namespace cz::json;

namespace {

struct Scratch {
  std::string path;
  Scratch() {
    std::string t = (fs::temp_directory_path() / "cz-effect-test-XXXXXX").string();
    path = mkdtemp(t.data());
  }
  ~Scratch() { fs::remove_all(path); }
  void write(const std::string &rel, const std::string &text) const {
    fs::create_directories(fs::path(path + "/" + rel).parent_path());
    std::ofstream(path + "/" + rel, std::ios::binary) << text;
  }
};

Json parse(const std::string &text) {
  Json j;
  std::string error;
  EXPECT_TRUE(parseJson(text, j, error)) << error;
  return j;
}

const char *kPatch = R"({"id": "01-gather", "replacement": "MPI_Gather(mine, n, MPI_INT, all, n, MPI_INT, root, comm);",
  "region": {"file": "g.c", "begin": {"line": 2, "column": 3}, "end": {"line": 4, "column": 4}},
  "collectives": ["MPI_Gather"],
  "effect": {"buffer": "all", "count": "n", "datatype": "MPI_INT", "comm": "comm", "root": "root", "per_rank_blocks": true}})";

PatchRegion region(const char *patch, int first = 1) {
  PatchRegion r;
  std::string why;
  EXPECT_TRUE(readPatchRegion(parse(patch), first, r, why)) << why;
  return r;
}

} // namespace

TEST(VerifyEffect, ReadsTheEffectAndNumbersTheProbes) {
  PatchRegion r = region(kPatch, 3);
  ASSERT_EQ(r.effects.size(), 1u);
  EXPECT_EQ(r.effects[0].probe, 3);
  EXPECT_EQ(r.effects[0].buffer, "all");
  EXPECT_EQ(r.effects[0].root, "root");
  EXPECT_TRUE(r.effects[0].perRankBlocks);
  EXPECT_EQ(r.endLine, 4);
  EXPECT_EQ(r.endColumn, 4);

  // A null effect is not checked, with the rewriter's reason.
  PatchRegion none;
  std::string why;
  int next = 1;
  EXPECT_FALSE(readPatchRegion(parse(R"({"id": "02-bcast", "region": {"file": "b.c", "begin": {"line": 1, "column": 1},
    "end": {"line": 1, "column": 2}}, "effect": null, "effect_reason": "the buffer depends on the rank"})"),
                               next, none, why));
  EXPECT_EQ(why, "02-bcast: the buffer depends on the rank");
  EXPECT_EQ(next, 1);
}

// A hand-edited position that no int holds (the fuzzer's 8.4e112), a
// fraction or a negative number: refused with the field named, never
// converted.
TEST(VerifyEffect, RegionPositionsMustBeWholeNumbersAnIntHolds) {
  for (const char *bad : {"8.44444e+112", "2.5", "-3", "2147483648"}) {
    std::string patch = std::string(R"({"id": "03-bcast", "region": {"file": "b.c", "begin": {"line": 1, "column": )") +
                        bad + R"(}, "end": {"line": 2, "column": 1}}, "effect": {"comm": "comm"}})";
    PatchRegion r;
    std::string why;
    int next = 1;
    EXPECT_FALSE(readPatchRegion(parse(patch.c_str()), next, r, why)) << bad;
    EXPECT_NE(why.find("03-bcast has a begin column that is not a position"), std::string::npos) << why;
  }
  PatchRegion r = region(kPatch);
  EXPECT_EQ(r.beginLine, 2);
  EXPECT_EQ(r.beginColumn, 3);
}

TEST(VerifyEffect, ProbeStatementIsOneLineWithAWeakReference) {
  PatchRegion r = region(kPatch);
  std::string s = probeStatement(r.effects[0]);
  EXPECT_EQ(s.find('\n'), std::string::npos);
  EXPECT_NE(s.find("__asm__(\"cz_verify_effect\") __attribute__((weak))"), std::string::npos);
  EXPECT_NE(s.find("if (cz_probe_) cz_probe_(1, (const void *)(all), (long long)(n), 1, &cz_probe_type_, "
                   "&cz_probe_comm_, (int)(root));"),
            std::string::npos);
  EffectSpec barrier;
  barrier.barrier = true;
  barrier.probe = 2;
  EXPECT_NE(probeStatement(barrier).find("cz_probe_(2, 0, 0, 0, 0, 0, -1)"), std::string::npos);
}

TEST(VerifyEffect, ProbesGoAtTheRegionsEndAndAfterTheReplacementWithoutNewLines) {
  Scratch original, patched;
  std::string before = "void f() {\n  if (me == root) {\n    recv_all();\n  }\n  use(all);\n}\n";
  original.write("g.c", before);
  std::string after =
      "#include \"x.h\"\nvoid f() {\n  MPI_Gather(mine, n, MPI_INT, all, n, MPI_INT, root, comm);\n  use(all);\n}\n";
  patched.write("g.c", after);
  std::vector<PatchRegion> regions{region(kPatch)};

  ProbeEdit o = insertProbes(original.path, regions, false);
  std::string text = cz::process::readFile(original.path + "/g.c");
  EXPECT_EQ(o.probes.count(1), 1u);
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), std::count(before.begin(), before.end(), '\n'));
  EXPECT_EQ(text.find("  } { extern void cz_probe_"), text.find("  }"));

  ProbeEdit p = insertProbes(patched.path, regions, true);
  text = cz::process::readFile(patched.path + "/g.c");
  EXPECT_EQ(p.probes.count(1), 1u);
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), std::count(after.begin(), after.end(), '\n'));
  EXPECT_NE(text.find("root, comm); { extern void cz_probe_"), std::string::npos);

  EXPECT_TRUE(removeProbes(p));
  EXPECT_EQ(cz::process::readFile(patched.path + "/g.c"), after);

  // A replacement the patched file does not hold: no probe, and why.
  PatchRegion other = region(kPatch);
  other.replacement = "MPI_Bcast(x);";
  ProbeEdit none = insertProbes(patched.path, {other}, true);
  EXPECT_TRUE(none.probes.empty());
  ASSERT_EQ(none.notes.size(), 1u);
  EXPECT_EQ(none.notes[0], "01-gather: the replacement text is not in the patched g.c");
}

// A region that is the statement before an `else` (a braceless then
// branch): the probe after it would end the `if`, so the region and its
// probe are put in one block, in both copies, still without new lines.
TEST(VerifyEffect, ProbeBeforeElseGoesInABlockWithTheRegion) {
  Scratch original, patched;
  std::string before = "void f() {\n  if (manual)\n    for (q = 1; q < p; q++) send(q);\n  /* or */ else {\n    g();\n  }\n}\n";
  original.write("g.c", before);
  std::string after = "void f() {\n  if (manual)\n    MPI_Bcast(x, n, MPI_INT, 0, comm);\n  /* or */ else {\n    g();\n  }\n}\n";
  patched.write("g.c", after);
  const char *patch = R"({"id": "01-bcast", "replacement": "MPI_Bcast(x, n, MPI_INT, 0, comm);",
    "region": {"file": "g.c", "begin": {"line": 3, "column": 5}, "end": {"line": 3, "column": 37}},
    "collectives": ["MPI_Bcast"],
    "effect": {"buffer": "x", "count": "n", "datatype": "MPI_INT", "comm": "comm", "root": null}})";
  std::vector<PatchRegion> regions{region(patch)};

  ProbeEdit o = insertProbes(original.path, regions, false);
  std::string text = cz::process::readFile(original.path + "/g.c");
  EXPECT_EQ(o.probes.count(1), 1u);
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), std::count(before.begin(), before.end(), '\n'));
  EXPECT_NE(text.find("    { for (q = 1; q < p; q++) send(q); { extern void cz_probe_"), std::string::npos) << text;
  EXPECT_NE(text.find("); } }\n  /* or */ else {"), std::string::npos) << text;

  ProbeEdit p = insertProbes(patched.path, regions, true);
  text = cz::process::readFile(patched.path + "/g.c");
  EXPECT_EQ(p.probes.count(1), 1u);
  EXPECT_NE(text.find("    { MPI_Bcast(x, n, MPI_INT, 0, comm); { extern void cz_probe_"), std::string::npos) << text;
  EXPECT_NE(text.find("); } }\n  /* or */ else {"), std::string::npos) << text;

  // Not before an `else` (`elsewhere()` is a call): no block.
  std::string plain = "void f() {\n  if (manual)\n    for (q = 1; q < p; q++) send(q);\n  elsewhere();\n}\n";
  original.write("g.c", plain);
  insertProbes(original.path, regions, false);
  text = cz::process::readFile(original.path + "/g.c");
  EXPECT_NE(text.find("    for (q = 1; q < p; q++) send(q); { extern void cz_probe_"), std::string::npos) << text;
}

TEST(VerifyEffect, ComparesEachRanksProbeLines) {
  Scratch a, b;
  std::vector<PatchRegion> regions{region(kPatch)};
  ProbeEdit inserted;
  inserted.probes = {1};
  // Probe 9 is another patch's (the original carries every patch's probes).
  a.write("rank-0.txt", "1 1 0000abcd 64\n9 1 12345678 4\n1 2 0000abce 64\n");
  a.write("rank-1.txt", "1 1 00000000 0\n1 2 00000000 0\n");
  b.write("rank-0.txt", "1 1 0000abcd 64\n1 2 0000abce 64\n");
  b.write("rank-1.txt", "1 1 00000000 0\n1 2 00000000 0\n");
  EffectJudgement same = judgeEffects(regions, "", inserted, inserted, a.path, b.path);
  EXPECT_TRUE(same.check.checked);
  EXPECT_FALSE(same.check.differs);
  EXPECT_EQ(same.text, "effect: 4 probe calls on 2 ranks, identical");

  b.write("rank-0.txt", "1 1 0000abcd 64\n1 2 0000ffff 64\n");
  EffectJudgement other = judgeEffects(regions, "", inserted, inserted, a.path, b.path);
  ASSERT_TRUE(other.check.differs);
  EXPECT_EQ(other.check.differs->rank, 0);
  EXPECT_EQ(other.check.differs->call, 2u);
  EXPECT_EQ(other.check.differs->original.crc, "0000abce");
  EXPECT_EQ(other.check.differs->patched.crc, "0000ffff");
  EXPECT_NE(other.text.find("rank 0, probe 1 (01-gather: all, n per rank x MPI_INT, at the root root at the "
                            "region's end), call 2: original crc 0000abce (64 bytes), patched crc 0000ffff"),
            std::string::npos)
      << other.text;

  // A call the patched run never made.
  b.write("rank-0.txt", "1 1 0000abcd 64\n1 2 0000abce 64\n");
  b.write("rank-1.txt", "1 1 00000000 0\n");
  EffectJudgement fewer = judgeEffects(regions, "", inserted, inserted, a.path, b.path);
  ASSERT_TRUE(fewer.check.differs);
  EXPECT_EQ(fewer.check.differs->rank, 1);
  EXPECT_TRUE(fewer.check.differs->original.present);
  EXPECT_FALSE(fewer.check.differs->patched.present);

  // Nothing written on either side: not checked, never "identical".
  Scratch c, d;
  EffectJudgement never = judgeEffects(regions, "", inserted, inserted, c.path, d.path);
  EXPECT_FALSE(never.check.checked);
  EXPECT_EQ(never.text.rfind("effect: not checked (the probes never ran", 0), 0u);

  // A copy whose build failed with the probe.
  ProbeEdit failed = inserted;
  failed.failed = "the original copy does not build with the probe";
  EXPECT_FALSE(judgeEffects(regions, "", failed, inserted, a.path, b.path).check.checked);
}

TEST(VerifyEffect, CommandsCombineToTheFirstDifferenceElseTheirSum) {
  EffectJudgement same1, same2, differs, unchecked = effectNotChecked("the probes never ran");
  same1.check.checked = same2.check.checked = differs.check.checked = true;
  same1.check.calls = 4, same1.check.ranks = 4;
  same2.check.calls = 8, same2.check.ranks = 8;
  differs.check.calls = 8, differs.check.ranks = 8;
  differs.check.differs = EffectDifference{};
  differs.check.differs->rank = 5;
  differs.text = "effect: rank 5 ...";
  EffectJudgement sum = combineEffects(same1, same2);
  EXPECT_TRUE(sum.check.checked);
  EXPECT_EQ(sum.check.calls, 12u);
  EXPECT_EQ(sum.check.ranks, 8);
  EXPECT_FALSE(sum.check.differs);
  EffectJudgement d = combineEffects(same1, differs);
  ASSERT_TRUE(d.check.differs);
  EXPECT_EQ(d.check.differs->rank, 5);
  EXPECT_EQ(d.text, "effect: rank 5 ...");
  EXPECT_EQ(combineEffects(unchecked, same2).check.calls, 8u);
  EXPECT_EQ(combineEffects(same1, unchecked).check.calls, 4u);
  EXPECT_FALSE(combineEffects(unchecked, unchecked).check.checked);
}

// A Fortran region: the probe is a BLOCK on the lines after the region's
// last line (after the replacement's in the patched copy), indented as the
// region; in fixed form every line stays within column 72. A file without
// a final newline gets one before the probe; a barrier gets no probe.
TEST(VerifyEffect, FortranProbeIsABlockAfterTheRegionsLastLine) {
  const char *patch = R"j({"id": "01-bcast", "replacement": "call MPI_Bcast(data, 64, MPI_DOUBLE_PRECISION, root, MPI_COMM_WORLD, ierr)",
    "region": {"file": "b.f90", "begin": {"line": 2, "column": 5}, "end": {"line": 6, "column": 11}},
    "collectives": ["MPI_Bcast"],
    "effect": {"buffer": "data", "count": "64", "datatype": "MPI_DOUBLE_PRECISION", "comm": "MPI_COMM_WORLD", "root": null, "per_rank_blocks": false}})j";
  Scratch original, patched;
  original.write("b.f90", "  x = 1\n    if (me == root) then\n      call send_all()\n    else\n      call recv()\n    end if\n  print *, x\n");
  // The patched file ends with the replacement, without a newline.
  patched.write("b.f90", "  x = 1\n    call MPI_Bcast(data, 64, MPI_DOUBLE_PRECISION, root, MPI_COMM_WORLD, ierr)");
  std::vector<PatchRegion> regions{region(patch)};

  ProbeEdit o = insertProbes(original.path, regions, false);
  EXPECT_EQ(o.probes.count(1), 1u);
  std::string text = cz::process::readFile(original.path + "/b.f90");
  EXPECT_NE(text.find("    end if\n    block\n"), std::string::npos) << text;
  EXPECT_NE(text.find("\n        call cz_probe_(1, data, 64, 0, MPI_DOUBLE_PRECISION, MPI_COMM_WORLD, -1)\n"),
            std::string::npos) << text;
  EXPECT_NE(text.find("    end block\n  print *, x\n"), std::string::npos) << text;

  ProbeEdit p = insertProbes(patched.path, regions, true);
  EXPECT_EQ(p.probes.count(1), 1u);
  text = cz::process::readFile(patched.path + "/b.f90");
  EXPECT_NE(text.find("ierr)\n    block\n"), std::string::npos) << text;
  EXPECT_EQ(text.substr(text.size() - 14), "    end block\n");

  // Fixed form: the same probe, continued in column 6 within column 72.
  Scratch fixed;
  fixed.write("b.f", "      if (me .eq. 0) then\n        call s()\n      endif\n      end\n");
  PatchRegion f = region(patch);
  f.file = "b.f";
  f.beginLine = 1, f.beginColumn = 7, f.endLine = 3, f.endColumn = 12;
  f.effects[0].buffer = "the_buffer_with_a_rather_long_name(1, 2)";
  EXPECT_EQ(insertProbes(fixed.path, {f}, false).probes.count(1), 1u);
  text = cz::process::readFile(fixed.path + "/b.f");
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) EXPECT_LE(line.size(), 72u) << line;
  EXPECT_NE(text.find("\n     &  "), std::string::npos) << text;
  EXPECT_NE(text.find("      endif\n      block\n"), std::string::npos) << text;

  // A barrier has no buffer to hash: a C-only probe, so none here.
  PatchRegion barrier = region(patch);
  barrier.effects[0].barrier = true;
  Scratch again;
  again.write("b.f90", "  x = 1\n    if (me == root) then\n      call send_all()\n    else\n      call recv()\n    end if\n");
  ProbeEdit none = insertProbes(again.path, {barrier}, false);
  EXPECT_TRUE(none.probes.empty());
  ASSERT_EQ(none.notes.size(), 1u);
  EXPECT_EQ(none.notes[0], "01-bcast: a barrier's probe is written in C only");
}
