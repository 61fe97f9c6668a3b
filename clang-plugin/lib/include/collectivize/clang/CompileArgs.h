// CompileArgs.h: turning a project's compile command into one Clang can
// parse: MPI compiler wrappers' hidden include directories made explicit,
// Clang's own builtin headers always found.
#pragma once

#include <string>
#include <vector>

#include "clang/Tooling/ArgumentsAdjusters.h"
#include "llvm/ADT/StringRef.h"

namespace cz::clangtools {

// mpicc, mpicxx, mpic++, mpiCC, mpifcc-like names (basename starts with "mpi"
// and ends in a C/C++ compiler name).
bool isMpiCompilerWrapper(llvm::StringRef compiler);
// True for names that compile C++ (g++, clang++, mpicxx, mpiCC, c++).
bool isCxxCompiler(llvm::StringRef compiler);
// The include directories an MPI wrapper adds: `W --showme:incdirs` (Open
// MPI), else the -I and -isystem flags of `W -show` (MPICH and its family).
// Cached per wrapper.
std::vector<std::string> mpiIncludeDirs(const std::string &wrapper);
// Clang's resource directory (builtin headers), fixed at configure time.
const char *clangResourceDir();
// The MPI compiler wrapper of the MPI Collectivize was built with
// (mpicc.openmpi, mpicc.mpich, ...: cmake/CollectivizeMpi.cmake), C or
// C++: what the compiler wrappers compile and link with, so a program
// never links two MPI libraries.
const char *builtWithMpiCompiler(bool cxx);

// The arguments of a compile command (without argv[0]) Clang's driver does
// not know (GCC-only flags such as -ftree-vectorizer-verbose=0), which
// would make it refuse the command: the instrumenting parse leaves them
// out; the real compiler still gets them.
std::vector<std::string> unknownToClang(const std::vector<std::string> &args);

// For ClangTool: argv[0] becomes the Clang driver (C or C++ mode as the
// original compiler), -resource-dir and the MPI wrapper's include dirs (as
// -isystem, so MPI's headers are system headers) are added, arguments
// Clang does not know are left out (unknownToClang), and unused arguments
// (link flags) and warnings are not reported (only errors).
clang::tooling::ArgumentsAdjuster mpiAwareAdjuster();

} // namespace cz::clangtools
