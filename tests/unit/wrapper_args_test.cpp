// The compiler wrappers' command-line classification, and include-path mirroring.
#include <gtest/gtest.h>

#include "collectivize/instrument/Instrument.h"
#include "collectivize/instrument/Wrapper.h"

using cz::instrument::CompilerCommand;
using cz::instrument::parseCompilerCommand;

TEST(WrapperArgs, CompileOnly) {
  CompilerCommand c = parseCompilerCommand({"-O2", "-Iinc", "-c", "src/a.c", "-o", "a.o"});
  EXPECT_FALSE(c.passthrough);
  EXPECT_TRUE(c.compiles);
  EXPECT_FALSE(c.links);
  ASSERT_EQ(c.sources.size(), 1u);
  EXPECT_EQ(c.sources[0], 3u);
  EXPECT_EQ(c.output, "a.o");
  EXPECT_TRUE(c.depFile.empty());
}

TEST(WrapperArgs, CMakeStyleDependencyFlags) {
  CompilerCommand c = parseCompilerCommand(
      {"-O2", "-MD", "-MT", "CMakeFiles/x.dir/a.c.o", "-MF", "CMakeFiles/x.dir/a.c.o.d", "-o",
       "CMakeFiles/x.dir/a.c.o", "-c", "/src/a.c"});
  ASSERT_EQ(c.sources.size(), 1u);
  EXPECT_EQ(c.sources[0], 9u);
  EXPECT_TRUE(c.others.empty()); // -MT's value is not an input
  EXPECT_EQ(c.depFile, "CMakeFiles/x.dir/a.c.o.d");
}

TEST(WrapperArgs, ImpliedDependencyFile) {
  EXPECT_EQ(parseCompilerCommand({"-MMD", "-c", "x/a.c", "-o", "obj/a.o"}).depFile, "obj/a.d");
  EXPECT_EQ(parseCompilerCommand({"-MD", "-c", "x/b.cpp"}).depFile, "b.d");
}

TEST(WrapperArgs, CompileAndLinkSeveralSources) {
  CompilerCommand c = parseCompilerCommand({"a.c", "b.cpp", "lib.o", "-lm", "-o", "app"});
  EXPECT_TRUE(c.compiles);
  EXPECT_TRUE(c.links);
  EXPECT_EQ(c.sources, (std::vector<size_t>{0, 1}));
  EXPECT_EQ(c.others, (std::vector<size_t>{2}));
  EXPECT_EQ(c.output, "app");
}

TEST(WrapperArgs, LinkOnly) {
  CompilerCommand c = parseCompilerCommand({"main.o", "util.o", "-o", "app"});
  EXPECT_FALSE(c.passthrough);
  EXPECT_FALSE(c.compiles);
  EXPECT_TRUE(c.links);
}

TEST(WrapperArgs, Passthrough) {
  EXPECT_TRUE(parseCompilerCommand({"-E", "a.c"}).passthrough);
  EXPECT_FALSE(parseCompilerCommand({"-E", "a.c"}).links);
  EXPECT_TRUE(parseCompilerCommand({"-M", "a.c"}).passthrough);
  EXPECT_TRUE(parseCompilerCommand({"-fsyntax-only", "a.c"}).passthrough);
  EXPECT_TRUE(parseCompilerCommand({"-x", "c", "-c", "a.txt"}).passthrough);
  EXPECT_TRUE(parseCompilerCommand({"-c", "-"}).passthrough);
  EXPECT_TRUE(parseCompilerCommand({"--version"}).passthrough);
  EXPECT_FALSE(parseCompilerCommand({"--version"}).links);
  EXPECT_TRUE(parseCompilerCommand({"-x", "c", "-", "-o", "app"}).links);
}

TEST(WrapperArgs, SourceExtensions) {
  using cz::instrument::isInstrumentableSource;
  for (const char *s : {"a.c", "a.cc", "a.cpp", "a.cxx", "a.c++", "a.C", "d/a.cp"})
    EXPECT_TRUE(isInstrumentableSource(s)) << s;
  for (const char *s : {"a.o", "a.h", "a.i", "a.s", "a.f90", "a"})
    EXPECT_FALSE(isInstrumentableSource(s)) << s;
}

TEST(WrapperArgs, MirrorIncludeDirs) {
  using cz::instrument::mirrorIncludeDirs;
  // Directories under the root (absolute, relative to cwd, joined -I form)
  // get their mirror first; others are left alone.
  std::vector<std::string> out = mirrorIncludeDirs(
      {"-O2", "-I", "/proj/include", "-I../proj/gen", "-iquote", "src", "-I", "/usr/include/x",
       "-isystem", "/proj/third", "a.c"},
      "/proj/build/..", "/proj", "/tmp/m0");
  std::vector<std::string> want = {"-O2", "-I", "/tmp/m0/include", "-I", "/proj/include",
                                   "-I/tmp/m0/gen", "-I../proj/gen", "-iquote", "/tmp/m0/src",
                                   "-iquote", "src", "-I", "/usr/include/x", "-isystem",
                                   "/proj/third", "a.c"};
  EXPECT_EQ(out, want);
  EXPECT_EQ(mirrorIncludeDirs({"-I", "/proj"}, "/", "/proj", "/m"),
            (std::vector<std::string>{"-I", "/m", "-I", "/proj"}));
}
