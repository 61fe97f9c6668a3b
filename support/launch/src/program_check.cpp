// program_check.cpp: see program_check.h. Reads the ELF section headers
// for the dynamic section and its string table (64-bit little-endian, the
// only kind this project builds for); anything else is "not ELF".
#include "collectivize/program_check.h"

#include <elf.h>

#include <cstring>
#include <fstream>

namespace cz::launch {
namespace {

bool readAt(std::ifstream &in, uint64_t offset, void *out, size_t n) {
  in.clear();
  in.seekg(std::streamoff(offset));
  return bool(in.read(static_cast<char *>(out), std::streamsize(n)));
}

bool startsWith(const std::string &s, const char *prefix) {
  return s.compare(0, std::strlen(prefix), prefix) == 0;
}

} // namespace

ProgramFile inspectProgram(const std::string &path) {
  ProgramFile out;
  std::ifstream in(path, std::ios::binary);
  if (!in) return out;
  out.readable = true;
  Elf64_Ehdr eh{};
  if (!in.read(reinterpret_cast<char *>(&eh), sizeof eh)) {
    out.script = in.gcount() >= 2 && eh.e_ident[0] == '#' && eh.e_ident[1] == '!';
    return out;
  }
  if (eh.e_ident[0] == '#' && eh.e_ident[1] == '!') {
    out.script = true;
    return out;
  }
  if (std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
      eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shnum == 0 || eh.e_shnum > 4096)
    return out;
  out.elf = true;
  std::vector<Elf64_Shdr> sections(eh.e_shnum);
  if (!readAt(in, eh.e_shoff, sections.data(), sections.size() * sizeof(Elf64_Shdr))) return out;
  for (const Elf64_Shdr &s : sections) {
    if (s.sh_type != SHT_DYNAMIC || s.sh_link >= sections.size()) continue;
    out.dynamic = true;
    const Elf64_Shdr &strtab = sections[s.sh_link];
    if (strtab.sh_size > (64u << 20) || s.sh_size > (64u << 20)) break;
    std::string strings(strtab.sh_size, '\0');
    std::vector<Elf64_Dyn> entries(s.sh_size / sizeof(Elf64_Dyn));
    if (!readAt(in, strtab.sh_offset, strings.data(), strings.size()) ||
        !readAt(in, s.sh_offset, entries.data(), entries.size() * sizeof(Elf64_Dyn)))
      break;
    for (const Elf64_Dyn &d : entries) {
      if (d.d_tag == DT_NULL) break;
      if (d.d_tag == DT_NEEDED && d.d_un.d_val < strings.size())
        out.needed.emplace_back(strings.c_str() + d.d_un.d_val);
    }
    break;
  }
  return out;
}

std::string mpiLibraryOf(const std::vector<std::string> &needed) {
  for (const std::string &n : needed)
    if (startsWith(n, "libmpi.so") || startsWith(n, "libmpich.so") ||
        startsWith(n, "libmpi_ibm.so") || startsWith(n, "libmpi_cray.so"))
      return n;
  return "";
}

std::string whyNotTraced(const std::string &program, const ProgramFile &file,
                         const std::string &tracerMpi) {
  if (!file.readable || file.script) return "";
  if (!file.elf) return "";
  if (!file.dynamic)
    return program + " is statically linked: LD_PRELOAD cannot put the tracer in front of its "
                     "MPI library (link it with -lcollectivize_trace before -lmpi instead)";
  std::string mpi = mpiLibraryOf(file.needed);
  if (mpi.empty())
    return program + " does not link an MPI library itself (no libmpi or libmpich among the "
                     "libraries it needs): it never calls MPI_Init, or calls it through a "
                     "library loaded later";
  auto family = [](const std::string &lib) { return lib.substr(0, lib.find(".so")); };
  if (!tracerMpi.empty() && family(mpi) != family(tracerMpi))
    return program + " links " + mpi + " but the tracer was built against " + tracerMpi +
           ": build the program with the MPI Collectivize was built with (or rebuild "
           "Collectivize against that MPI)";
  return "";
}

} // namespace cz::launch
