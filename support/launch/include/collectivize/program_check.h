// program_check.h: why a launched program left no trace. The tracer starts
// in the C MPI_Init / MPI_Init_thread it puts in front of the program's MPI
// library (LD_PRELOAD or linked first); what the program's ELF file links
// says when that cannot happen: a Fortran program (Open MPI's Fortran
// bindings call PMPI_Init and the other PMPI_* entry points directly), a
// statically linked program, a program built against another MPI library
// than the tracer, or no MPI at all.
#pragma once

#include <string>
#include <vector>

namespace cz::launch {

struct ProgramFile {
  bool readable = false; // the file could be opened
  bool elf = false;      // an ELF executable or shared object
  bool dynamic = false;  // has a dynamic section (LD_PRELOAD applies)
  bool script = false;   // starts with #!
  std::vector<std::string> needed; // DT_NEEDED entries, in order
};
ProgramFile inspectProgram(const std::string &path);

// The MPI library among `needed` ("libmpi.so.40", "libmpich.so.12", ...),
// or "" when there is none.
std::string mpiLibraryOf(const std::vector<std::string> &needed);

// One sentence saying why `program` (as inspected) cannot be traced by a
// tracer linked against tracerMpi (mpiLibraryOf the tracer), or "" when its
// file explains nothing.
std::string whyNotTraced(const std::string &program, const ProgramFile &file,
                         const std::string &tracerMpi);

} // namespace cz::launch
