// Wrapper.h: collectivize-cc / collectivize-c++, drop-in replacements for
// mpicc / mpicxx that instrument each source on the fly, compile the
// instrumented copy with the real compiler, and link the tracer.
#pragma once

#include <string>
#include <vector>

namespace cz::instrument {

// What a compiler command line does (pure parsing, unit-tested).
struct CompilerCommand {
  std::vector<std::string> args; // without argv[0]
  std::vector<size_t> sources;   // indices in args of C/C++ sources to instrument
  std::vector<size_t> others;    // indices of other inputs (objects, libraries)
  bool compiles = false;         // some source is compiled to an object/asm
  bool links = false;            // the command runs the linker
  bool passthrough = false;      // run unchanged: -E, -M/-MM, -fsyntax-only, -x, stdin, no input
  std::string output;            // -o value ("" if none)
  std::string depFile;           // -MF value, or the implied name for -MD/-MMD ("" if none)
};
CompilerCommand parseCompilerCommand(const std::vector<std::string> &args);

// True for file names Clang instruments: .c .cc .cpp .cxx .c++ .C .cp
bool isInstrumentableSource(const std::string &path);

// The wrappers' main: cxx selects COLLECTIVIZE_CXX / mpicxx.
int wrapperMain(int argc, char **argv, bool cxx);

} // namespace cz::instrument
