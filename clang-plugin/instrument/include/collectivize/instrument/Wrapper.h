// Wrapper.h: collectivize-cc / collectivize-c++, drop-in replacements for
// mpicc / mpicxx that instrument each source on the fly, compile the
// instrumented copy with the real compiler, and link the tracer; and
// collectivize-fc for mpif90, which only links the tracer (Fortran sources
// are not instrumented: the tracer names their calls by return address).
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

enum class WrapperLanguage { C, Cxx, Fortran };
// The wrappers' main: the language selects the compiler (COLLECTIVIZE_CC /
// mpicc, COLLECTIVIZE_CXX / mpicxx, COLLECTIVIZE_FC / the mpif90 of the MPI
// Collectivize was built with).
int wrapperMain(int argc, char **argv, WrapperLanguage language);

} // namespace cz::instrument
